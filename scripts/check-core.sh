#!/usr/bin/env bash
# `make check-core`: the inner loop on the rules. `cargo test` of the core crate alone
# (unit tests, the conformance vectors one test per file, the no-panic and meta-rule
# tests, the doctests), debug build, incremental. The long World Trigger battle property
# runs and the duel odds' agreement with simulation are left out unless LONG=1 (make test
# always runs them, optimized).
#   make check-core                       everything but the long property runs
#   make check-core ONLY=tmd::encounter   tests whose name contains this (here: one vector
#                                         file, testdata/vectors/tmd/encounter.json)
#   make check-core LONG=1                with the property runs (debug build: slow)
source "$(dirname "$0")/env.sh"
cd "$ROOT"
args=(-p gunbai)
[ -z "${ONLY:-}" ] || args+=("$ONLY")
harness=()
[ "${LONG:-0}" = 1 ] || harness+=(--skip world_trigger::battle::tests::property_
  --skip duel::tests::exact_odds_agree_with_simulation)
start=$SECONDS
set +e
cargo test -q "${args[@]}" -- "${harness[@]}" 2>&1 | grep -Ev '^\s*$|^running [0-9]+ tests?$|^\.*$'
status=${PIPESTATUS[0]}
set -e
echo "check-core: $((SECONDS - start)) s$([ "${LONG:-0}" = 1 ] || echo "; the long property runs were left out (LONG=1 runs them)")"
exit "$status"
