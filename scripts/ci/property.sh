#!/usr/bin/env bash
# The long runs (lib.sh: LONG_RUNS, SLOW_TESTS) in an optimized build that keeps debug
# assertions and overflow checks on: every assertion of the debug build is made, only
# faster. The World Trigger property tests play GUNBAI_PROPERTY_BATTLES random battles per
# configuration (every action fully checked) and GUNBAI_PROPERTY_SAMPLED (checked on a
# sample of actions); the engine harness plays GUNBAI_HARNESS_GAMES random games of each
# engine. make test plays 50 battles and 100 games (the same checks on fewer games);
# GUNBAI_LONG=1 plays the long counts, 350 battles and 300 games
# (`GUNBAI_LONG=1 bash scripts/ci/property.sh`, or `GUNBAI_LONG=1 make test`).
# The test binary is kept in the artifact store (scripts/env.sh) under the hash of what it
# is built from, so a fresh clone of the same sources runs it without compiling it.
source "$(dirname "$0")/lib.sh"
needs rust
if [ "${GUNBAI_LONG:-0}" = 1 ]; then n=350; games=300; else n=50; games=100; fi
export GUNBAI_PROPERTY_BATTLES="${GUNBAI_PROPERTY_BATTLES:-$n}" \
  GUNBAI_PROPERTY_SAMPLED="${GUNBAI_PROPERTY_SAMPLED:-$n}" \
  GUNBAI_HARNESS_GAMES="${GUNBAI_HARNESS_GAMES:-$games}" \
  CARGO_PROFILE_PROPTEST_DEBUG_ASSERTIONS=true CARGO_PROFILE_PROPTEST_OVERFLOW_CHECKS=true
# What the core's lib test binary is built from (the core includes examples/battles,
# testdata and the guide's pages), the toolchain and the profile's settings (inputs_hash).
key="$(inputs_hash Cargo.toml Cargo.lock core examples/battles testdata README.md docs/guide)"
dir="$ROOT/target/proptest-bin"
bin="$dir/gunbai-lib"
if artifact_get proptest-lib "$key" "$dir"; then
  echo "property: the test binary from the artifact store (${ARTIFACTS/#$HOME/\~}/proptest-lib-$key)"
else
  exe="$(cargo test -q --profile proptest -p gunbai --lib --no-run --message-format=json-render-diagnostics |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)"
  [ -x "$exe" ] || { echo "property: cargo built no test binary"; exit 1; }
  mkdir -p "$dir" && cp "$exe" "$bin.$$" && mv "$bin.$$" "$bin"
  artifact_put proptest-lib "$key" "$dir" gunbai-lib
fi
# Run as cargo test runs it: from the crate's folder, quiet, every result line printed
# (all of the output on a failure).
log="$(mktemp)"
if (cd core && "$bin" -q "${LONG_RUNS[@]}" "${SLOW_TESTS[@]}") >"$log" 2>&1; then
  grep -Ev '^\s*$|^running [0-9]+ tests?$|^\.*$' "$log" || true
  rm -f "$log"
else
  cat "$log"; rm -f "$log"; exit 1
fi
