#!/usr/bin/env bash
# Informational: the rule IDs that tests and vectors name, counted by the project's tool
# where the shared folder lies beside the clone. It never fails the run.
source "$(dirname "$0")/lib.sh"
needs
if [ -x "$ROOT/../shared/tools/rule-coverage" ]; then
  "$ROOT/../shared/tools/rule-coverage" || true
else
  echo "no ../shared/tools/rule-coverage beside this clone: skipped (informational only)"
fi
