#!/usr/bin/env bash
# The conformance vectors in Python.
source "$(dirname "$0")/lib.sh"
needs wheel
"$PY" -m gunbai.conformance testdata/vectors
