#!/usr/bin/env bash
# The long runs (lib.sh: LONG_RUNS, SLOW_TESTS) in an optimized build that keeps debug
# assertions and overflow checks on: every assertion of the debug build is made, only
# faster. The World Trigger property tests play GUNBAI_PROPERTY_BATTLES random battles per
# configuration (every action fully checked) and GUNBAI_PROPERTY_SAMPLED (checked on a
# sample of actions); the engine harness plays GUNBAI_HARNESS_GAMES random games of each
# engine; the CoC duel-odds tests compare the exact odds with GUNBAI_ODDS_BATTLES simulated
# battles. make test plays 25 battles, 50 games and 10^4 duels (the same checks on a
# sample); GUNBAI_LONG=1 plays the long counts, 350 battles, 300 games and 3·10^4 duels
# (`GUNBAI_LONG=1 bash scripts/ci/property.sh`, or `GUNBAI_LONG=1 make test`).
# The test binary is scripts/build-tests.sh's (from the artifact store when it holds it).
source "$(dirname "$0")/lib.sh"
needs rust tests
if [ "${GUNBAI_LONG:-0}" = 1 ]; then n=350; games=300; odds=30000; else n=25; games=50; odds=10000; fi
export GUNBAI_PROPERTY_BATTLES="${GUNBAI_PROPERTY_BATTLES:-$n}" \
  GUNBAI_PROPERTY_SAMPLED="${GUNBAI_PROPERTY_SAMPLED:-$n}" \
  GUNBAI_HARNESS_GAMES="${GUNBAI_HARNESS_GAMES:-$games}" \
  GUNBAI_ODDS_BATTLES="${GUNBAI_ODDS_BATTLES:-$odds}"
run_test_bin gunbai-lib "${LONG_RUNS[@]}" "${SLOW_TESTS[@]}"
