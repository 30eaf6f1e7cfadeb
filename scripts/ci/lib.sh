# Sourced by every check in scripts/ci/ (after `source lib.sh`, the shell is in the
# repository root with scripts/env.sh's settings).
#
# A check says what it uses on one line of its own, near its top:
#   needs rust-dev wheel analysis
# The words are setup parts of scripts/setup.sh (rust rust-dev wasm bindgen node py py-dev
# web analysis nonebot koishi), builds (xtask, tests: the core's test binaries, npm: the
# whole npm package, wheel, dist-py, dist-js) and
# `after:CHECK` (run after that check: it reuses its build output). Run alone
# (`bash scripts/ci/pytest.sh`), `needs` installs and builds each of them here, every step
# idempotent and quick when already done. Under `make test` (scripts/test.sh sets
# GUNBAI_CI_RUNNER=1) the runner reads the same line to order the jobs, has provided them
# before the check starts, and `needs` does nothing.
source "$(dirname "${BASH_SOURCE[0]}")/../env.sh"
cd "$ROOT"
export PYO3_PYTHON="$PY"
NODE_BIN="$ROOT/bindings-js/node_modules/.bin"

needs() {
  [ "${GUNBAI_CI_RUNNER:-0}" != 1 ] || return 0
  local w
  for w in "$@"; do
    case "$w" in
      rust | rust-dev | wasm | bindgen | node | py | py-dev | web | analysis | nonebot | koishi) bash scripts/setup.sh "$w" ;;
      xtask) bash scripts/setup.sh rust >/dev/null && bash scripts/xtask.sh --path >/dev/null ;;
      tests) bash scripts/setup.sh rust >/dev/null && bash scripts/build-tests.sh ;;
      npm) needs xtask && bash scripts/setup.sh wasm bindgen node && bash scripts/build-js.sh ;;
      wheel) needs xtask && bash scripts/setup.sh py && bash scripts/build-py.sh ;;
      dist-py) needs wheel && bash scripts/dist.sh --py ;;
      dist-js) needs npm && bash scripts/dist.sh --js ;;
      after:*) ;;
      *) echo "scripts/ci: unknown need '$w'"; return 2 ;;
    esac
  done
}

# cargo_test_quiet ARGS...: cargo test, printing every test binary's result line (all of
# its output on a failure).
cargo_test_quiet() {
  local log; log="$(mktemp)"
  if cargo test -q "$@" >"$log" 2>&1; then
    grep -Ev '^\s*$|^running [0-9]+ tests?$|^\.*$' "$log" || true
    rm -f "$log"
  else
    cat "$log"; rm -f "$log"; return 1
  fi
}

# run_test_bin NAME ARGS...: run target/test-bin/NAME (scripts/build-tests.sh) as cargo
# test runs it: from the crate's folder with CARGO_MANIFEST_DIR set, quiet, printing its
# result lines (all of its output on a failure).
run_test_bin() {
  local name="$1" log; shift
  log="$(mktemp)"
  if (cd "$ROOT/core" && CARGO_MANIFEST_DIR="$ROOT/core" "$ROOT/target/test-bin/$name" -q "$@") >"$log" 2>&1; then
    printf '%s: ' "$name"; grep -Ev '^\s*$|^running [0-9]+ tests?$|^\.*$' "$log" || true
    rm -f "$log"
  else
    echo "=== $name FAILED"; cat "$log"; rm -f "$log"; return 1
  fi
}

# The long runs, which scripts/ci/property.sh runs in an optimized build (with debug
# assertions and overflow checks on) and scripts/ci/test-core.sh leaves out of the debug
# build. Test-name filters (substrings of the test paths).
# - The World Trigger battle property tests and the engine harness (random legal games of
#   every engine through a handle, checked at every step).
LONG_RUNS=("world_trigger::battle::tests::property_" "rulesets::harness::harness_")
# - Unit tests that play many random games or battles: seconds each in the debug build.
SLOW_TESTS=(
  tmd::encounter::tests::random_legal_encounters_keep_invariants
  tmd::encounter::tests::legal_actions_for_a_full_encounter_stays_bounded
  rulesets::harness::undo_rebuilds_every_earlier_state
  batch::battles::tests::random_policy_matches_a_replay_through_the_pure_ops
  batch::battles::tests::aggressive_policy_matches_a_replay_through_the_pure_ops
  batch::battles::tests::priority_policy_matches_a_replay_through_the_pure_ops
  world_trigger::batch::tests::validation_and_limits
  duel::tests::exact_odds_agree_with_simulation  # the exact duel odds against simulated battles (GUNBAI_ODDS_BATTLES)
)

# skip_long_runs: sets SKIP_LONG to the `--skip` arguments that leave LONG_RUNS and
# SLOW_TESTS out of a cargo test run (test-core.sh, quick.sh).
skip_long_runs() {
  SKIP_LONG=()
  local t
  for t in "${LONG_RUNS[@]}" "${SLOW_TESTS[@]}"; do SKIP_LONG+=(--skip "$t"); done
}
