#!/usr/bin/env bash
# Smoke test: `cargo add --path core` in a new project outside the repository; README's Rust examples as its main (in the repository's target/, after test-core's build; cargo builds the core again there, as another workspace's dependency) (scripts/smoke.sh rust).
source "$(dirname "$0")/lib.sh"
needs after:test-core xtask
bash scripts/smoke.sh rust
