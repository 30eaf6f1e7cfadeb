#!/usr/bin/env bash
# Smoke test and doctests: `cargo add --path core` in a new project outside the repository;
# the core's doctests built and run there (README's and the guide's Rust examples, the
# rustdoc examples), then README's Rust examples as the project's main, on the same build
# of the core (target dir target/smoke-rust) (scripts/smoke.sh rust).
source "$(dirname "$0")/lib.sh"
needs rust
bash scripts/smoke.sh rust
