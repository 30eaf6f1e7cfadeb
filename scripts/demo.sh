#!/usr/bin/env bash
# The main job: the same operations with the same seeds from Node and from Python,
# shown side by side and compared byte for byte.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
node examples/demo/demo.mjs > /tmp/gunbai-demo-node.jsonl
"$PY" examples/demo/demo.py > /tmp/gunbai-demo-python.jsonl
"$PY" - <<'PY'
import json
node = open("/tmp/gunbai-demo-node.jsonl", encoding="utf-8").read().splitlines()
py = open("/tmp/gunbai-demo-python.jsonl", encoding="utf-8").read().splitlines()
for n, p in zip(node, py):
    d = json.loads(n)
    if "ok" in d:
        r = d["ok"]
        faces = [x["value"] for x in r.get("rolls", [])]
        summary = ", ".join(f"{k}={r[k]}" for k in ("total", "damage", "success", "achievement", "level", "probability", "text") if k in r)
        shown = f"{summary}  faces={faces}"
    else:
        shown = f"error [{d['error']['code']}] {d['error']['message']}"
    same = "identical" if n == p else "DIFFERENT"
    print(f"{d['call']:<28} {d['title']:<40} {shown}  [Node vs Python: {same}]")
if node != py or len(node) != len(py):
    raise SystemExit("Node and Python results differ")
print(f"\n{len(node)} calls: Node and Python gave byte-identical results.")
PY
