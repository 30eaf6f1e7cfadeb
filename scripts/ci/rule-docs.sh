#!/usr/bin/env bash
# docs/rules/: every rule ID of RULES.md has its entry, and every vector, test and rule ID
# the pages cite exists (scripts/check-rule-docs.py).
source "$(dirname "$0")/lib.sh"
needs
python3 scripts/check-rule-docs.py
