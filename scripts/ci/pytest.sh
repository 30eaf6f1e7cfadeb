#!/usr/bin/env bash
# The Python package's tests (the Dask, pandas and matplotlib ones need the analysis extra).
source "$(dirname "$0")/lib.sh"
needs wheel py-dev analysis
"$PY" -m pytest -q bindings-py/tests
