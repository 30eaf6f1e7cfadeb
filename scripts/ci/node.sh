#!/usr/bin/env bash
# The npm package's tests (node --test) and its TypeScript declarations (tsc).
source "$(dirname "$0")/lib.sh"
needs npm
node --test bindings-js/test/
"$NODE_BIN/tsc" -p bindings-js/tsconfig.json && echo "tsc: no errors"
