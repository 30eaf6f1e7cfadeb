#!/usr/bin/env bash
# rustfmt: the whole workspace is formatted (`cargo fmt --all` fixes it).
source "$(dirname "$0")/lib.sh"
needs rust-dev
cargo fmt --all -- --check && echo "rustfmt: formatted"
