#!/usr/bin/env bash
# cargo test of the core: its unit tests and each file of core/tests (the conformance
# vectors one test per file, the no-panic, echo-bound and layering tests) from the test
# binaries scripts/build-tests.sh builds once for this check and property.sh (optimized,
# debug assertions and overflow checks on). The long runs are property.sh's; the doctests
# (README's and the guide's Rust examples, the rustdoc examples) are smoke-rust.sh's, run
# where a user's project builds the core. (xtask and the JS crate have no tests; clippy
# --all-targets compiles them.)
# GUNBAI_TEST_BUILD=debug (make check): everything, doctests too, in one incremental debug
# `cargo test`.
source "$(dirname "$0")/lib.sh"
needs rust tests
skip_long_runs
if [ "${GUNBAI_TEST_BUILD:-}" = debug ]; then
  cargo_test_quiet --workspace --exclude gunbai-py -- "${SKIP_LONG[@]}"
  exit 0
fi
failed=0
while read -r name; do
  if [ "$name" = gunbai-lib ]; then run_test_bin "$name" "${SKIP_LONG[@]}" || failed=1
  else run_test_bin "$name" || failed=1; fi
done <"$ROOT/target/test-bin/list"
exit "$failed"
