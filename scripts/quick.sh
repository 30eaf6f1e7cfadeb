#!/usr/bin/env bash
# `make quick R=<ruleset>`: one ruleset's unit tests and its conformance vector files, in the
# debug build (incremental), without the long runs. R is a test-path fragment: tmd,
# world_trigger, coc (coc7, coc_ap and coc7_house), coc7, coc_ap, coc7_house, fap_map,
# command, dice, … (the unit tests under that module and the vector folder of that name).
source "$(dirname "$0")/ci/lib.sh"
needs rust
[ -n "${R:-}" ] || { echo "usage: make quick R=<ruleset> (tmd, world_trigger, coc, fap_map, command, dice, ...)"; exit 2; }
skip_long_runs
start=$SECONDS
cargo_test_quiet -p gunbai --lib --test vectors -- "$R" "${SKIP_LONG[@]}"
echo "quick ($R): $((SECONDS - start)) s"
