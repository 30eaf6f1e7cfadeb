#!/usr/bin/env bash
# The Python layers of one call counted in instructions (valgrind --tool=callgrind), which
# do not depend on the machine's load: for each op, N2 − N1 calls of a layer in
# two processes, so start-up and import cancel out. Layers: `_native.call` (JSON text),
# `_native.call_value` (objects), the module function (`gunbai.dice.roll(expr=…)`), and
# `_core._send_text` (the JSON-text path the wrapper took before call_value).
#   bash benchmarks/bench_calls_instructions.sh PYTHON
set -euo pipefail
PYTHON="$1"
N1=200
N2=1200
here="$(cd "$(dirname "$0")" && pwd)"
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$PYTHON" "$here/call_layer.py" "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
echo "| call | \`_native.call\` Ir | \`_native.call_value\` Ir | wrapper Ir | added Ir (wrapper − \`_native.call\`) | added ÷ native | JSON-text path Ir (before) | added before |"
echo "|---|---|---|---|---|---|---|---|"
while IFS='|' read -r op args; do
  declare -A ir=()
  for layer in native value wrapper text; do
    a="$(count "$op" "$args" "$layer" "$N1")"
    b="$(count "$op" "$args" "$layer" "$N2")"
    ir[$layer]=$(((b - a) / (N2 - N1)))
  done
  added=$((ir[wrapper] - ir[native]))
  echo "| \`$op\` | ${ir[native]} | ${ir[value]} | ${ir[wrapper]} | $added | $(awk -v a="$added" -v n="${ir[native]}" 'BEGIN { printf "%.2f", a / n }') | ${ir[text]} | $((ir[text] - ir[native])) |"
done <<'CASES'
meta.version|{}
dice.roll|{"expr":"1d100","seed":1}
coc7.check|{"skill":50,"seed":1}
command.run|{"text":"CC(1)<=53","system":"coc7","seed":1}
world_trigger.check|{"dice":7,"seed":1}
CASES
