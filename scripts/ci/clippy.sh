#!/usr/bin/env bash
# clippy on every crate and target, warnings as errors. In its own target dir, so that it
# runs beside cargo test (cargo locks a target dir for a whole build).
source "$(dirname "$0")/lib.sh"
needs rust-dev py
cargo clippy -q --workspace --all-targets --target-dir target/clippy -- -D warnings && echo "clippy: no warnings"
