#!/usr/bin/env bash
# The core's test binaries (its unit tests and each file of core/tests), built once for
# both scripts/ci/test-core.sh and scripts/ci/property.sh (the long runs), in the
# `proptest` profile: optimized, with debug assertions and overflow checks on, so every
# assertion of a debug build is made, only faster. They are kept in the artifact store
# (scripts/env.sh) under the hash of what they are built from, so a fresh clone of the
# same sources runs them without compiling them. The tests read the repository's files
# from $CARGO_MANIFEST_DIR when it is set (as cargo sets it), so a binary built in another
# clone reads this one's. Output: target/test-bin/NAME (gunbai-lib: the unit tests; the
# others: core/tests/NAME.rs) and target/test-bin/list (the names).
#   bash scripts/build-tests.sh
source "$(dirname "$0")/env.sh"
cd "$ROOT"
# make check tests in one incremental debug build instead (scripts/ci/test-core.sh).
[ "${GUNBAI_TEST_BUILD:-}" != debug ] || exit 0
export CARGO_PROFILE_PROPTEST_DEBUG_ASSERTIONS=true CARGO_PROFILE_PROPTEST_OVERFLOW_CHECKS=true
# What they are built from (the core's tests include files of examples/battles and
# testdata), the toolchain and the profile's settings (inputs_hash). (README's and the
# guide's examples are doctests, smoke-rust.sh's own build.)
key="$(inputs_hash Cargo.toml Cargo.lock core examples/battles testdata)"
dir="$ROOT/target/test-bin"
fresh "$dir/.key" "$key" && [ -f "$dir/list" ] && exit 0
rm -rf "$dir"
if artifact_get test-bin "$key" "$dir"; then
  echo "test binaries: from the artifact store (${ARTIFACTS/#$HOME/\~}/test-bin-$key)"
else
  mkdir -p "$dir"
  cargo test -q --profile proptest -p gunbai --tests --no-run --message-format=json-render-diagnostics \
    >"$dir/.cargo.json"
  # Each test binary under its target's name (the library's: gunbai-lib).
  python3 - "$dir" <<'EOF'
import json, os, shutil, sys
d = sys.argv[1]
names = []
for line in open(os.path.join(d, ".cargo.json")):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable") or not m["profile"]["test"]:
        continue
    t = m["target"]
    name = "gunbai-lib" if "lib" in t["kind"] else t["name"]
    shutil.copy2(m["executable"], os.path.join(d, name))
    names.append(name)
if "gunbai-lib" not in names:
    sys.exit("build-tests: cargo built no unit-test binary")
open(os.path.join(d, "list"), "w").write("".join(n + "\n" for n in sorted(names)))
EOF
  rm -f "$dir/.cargo.json"
  # shellcheck disable=SC2046
  artifact_put test-bin "$key" "$dir" list $(cat "$dir/list")
  echo "test binaries: built ($(wc -l <"$dir/list") of them)"
fi
echo "$key" >"$dir/.key"
