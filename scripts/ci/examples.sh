#!/usr/bin/env bash
# The docs' JS and Python examples, run against the source tree's package and wheel (the
# Rust ones are doctests: smoke-rust.sh).
source "$(dirname "$0")/lib.sh"
needs npm wheel
bash scripts/readme-examples.sh
