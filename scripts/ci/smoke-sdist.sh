#!/usr/bin/env bash
# Smoke test: the sdist, installed and built by pip (pip fetches maturin; cargo builds it) (scripts/smoke.sh sdist).
source "$(dirname "$0")/lib.sh"
needs dist-py
bash scripts/smoke.sh sdist
