#!/usr/bin/env bash
# The native module's stubs (`_native.pyi`, the package's only stub file: the Python
# modules carry their own types) against the built module (stubtest), and mypy --strict
# on a typed usage file (it imports pandas and matplotlib: their stubs come with the
# analysis extra).
source "$(dirname "$0")/lib.sh"
needs wheel py-dev analysis
"$PY" -m mypy.stubtest gunbai._native
"$PY" -m mypy --strict --warn-unused-ignores bindings-py/tests/typed_usage.py
