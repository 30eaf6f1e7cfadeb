#!/usr/bin/env bash
# cargo doc of the core with warnings as errors (broken intra-doc links, bare URLs, …),
# in its own target dir.
source "$(dirname "$0")/lib.sh"
needs rust
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps -p gunbai --target-dir target/doc && echo "cargo doc: no warnings"
