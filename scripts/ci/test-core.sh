#!/usr/bin/env bash
# cargo test, debug build: the core (unit tests, the conformance vectors one test per
# file, the no-panic, echo-bound and layering tests, the doctests with README's and the
# guide's Rust examples), xtask and the JS crate. The long runs are property.sh's.
source "$(dirname "$0")/lib.sh"
needs rust xtask
skip_long_runs
cargo_test_quiet --workspace --exclude gunbai-py -- "${SKIP_LONG[@]}"
