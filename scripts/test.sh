#!/usr/bin/env bash
# Everything `make test` checks, after setup and build. Each step can also be run on its own.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
export PYO3_PYTHON="$PY"
NODE_BIN="$ROOT/bindings-js/node_modules/.bin"

step "rustfmt"
cargo fmt --all -- --check

step "clippy (warnings are errors)"
cargo clippy -q --workspace --all-targets -- -D warnings

step "cargo test (core, xtask, JS crate; vectors included)"
log="$(mktemp)"
if cargo test -q --workspace --exclude gunbai-py >"$log" 2>&1; then
  grep -Ev '^\s*$|^running [0-9]+ tests?$|^\.*$' "$log" || true
  rm -f "$log"
else
  cat "$log"; rm -f "$log"; exit 1
fi

step "World Trigger battles: property test, every action of 2,100 battles fully checked (optimized build)"
# The debug run above checks budgets after every action of 2,100 random battles but the
# JSON round trip and the illegal-action check only on sampled actions (a full round
# trip after every action is slow unoptimized). This run checks everything after every
# action: 350 battles for each of rank/mock/defense x 3v3/4v4 (issue 4).
GUNBAI_PROPERTY_BATTLES="${GUNBAI_PROPERTY_BATTLES:-350}" \
  cargo test -q --profile proptest -p gunbai --lib world_trigger::battle::tests::property_every_action 2>&1 |
  grep -E 'test result|panicked|FAILED'

step "catalog and generated Python surface are current"
cargo run -q -p xtask -- check
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cargo run -q -p xtask -- py "$tmp"
for f in "$tmp"/*; do
  if ! cmp -s "$f" "bindings-py/python/gunbai/$(basename "$f")"; then
    echo "bindings-py/python/gunbai/$(basename "$f") is stale: run 'make build-py' and commit the result"; exit 1
  fi
done

step "node tests"
node --test bindings-js/test/

step "TypeScript declarations (tsc --noEmit on a typed test)"
"$NODE_BIN/tsc" -p bindings-js/tsconfig.json

step "conformance vectors (Node)"
node bindings-js/conformance.mjs testdata/vectors

step "conformance vectors (Node), per-ruleset entries gunbai/world-trigger, coc, tmd, fap-map"
for entry in world-trigger coc tmd fap-map; do
  out="$(node bindings-js/conformance.mjs --entry "$entry" testdata/vectors)" || { echo "$out"; exit 1; }
  echo "$out" | tail -n 2
done

step "pytest"
"$PY" -m pytest -q bindings-py/tests

step "stubs (mypy.stubtest and a typed usage file)"
"$PY" -m mypy.stubtest gunbai --allowlist bindings-py/stubtest-allowlist.txt
"$PY" -m mypy --strict --warn-unused-ignores bindings-py/tests/typed_usage.py

step "conformance vectors (Python)"
"$PY" -m gunbai.conformance testdata/vectors

step "README examples"
bash scripts/readme-examples.sh

# Extra checks owned by parts of the project (browser tests, notebooks, …).
for extra in "$ROOT"/scripts/test.d/*.sh; do
  [ -e "$extra" ] || continue
  step "test: $(basename "$extra")"
  bash "$extra"
done

if [ -x "$ROOT/../shared/tools/rule-coverage" ]; then
  step "rule IDs named by tests and vectors (informational)"
  "$ROOT/../shared/tools/rule-coverage" || true
fi
echo; echo "all checks passed"
