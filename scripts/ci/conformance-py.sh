#!/usr/bin/env bash
# The conformance vectors in Python (the batch vectors need numpy: the analysis extra).
source "$(dirname "$0")/lib.sh"
needs wheel analysis
"$PY" -m gunbai.conformance testdata/vectors
