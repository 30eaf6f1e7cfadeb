#!/usr/bin/env bash
# Smoke test: the wheel and the npm tarball installed outside the repository; the README examples on them (scripts/smoke.sh installed).
source "$(dirname "$0")/lib.sh"
needs dist-py dist-js
bash scripts/smoke.sh installed
