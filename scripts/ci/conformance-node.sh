#!/usr/bin/env bash
# The conformance vectors in Node: the full entry, then every per-ruleset entry (cases
# needing an operation the entry leaves out are skipped and counted).
source "$(dirname "$0")/lib.sh"
needs npm
node bindings-js/conformance.mjs testdata/vectors
for entry in world-trigger coc6 coc7 tmd fap-map; do
  echo "--- per-ruleset entry gunbai/$entry"
  out="$(node bindings-js/conformance.mjs --entry "$entry" testdata/vectors)" || { echo "$out"; exit 1; }
  echo "$out" | tail -n 2
done
