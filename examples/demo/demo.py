"""The demo's Python half: run examples/demo/calls.json through the wheel and
print one canonical JSON line per call (see scripts/demo.sh)."""

import json
from pathlib import Path

import gunbai

calls = json.loads((Path(__file__).parent / "calls.json").read_text(encoding="utf-8"))
for c in calls:
    try:
        out = {"ok": gunbai.call(c["call"], c["args"])}
    except gunbai.GunbaiError as e:
        out = {"error": {"code": e.code, "message": e.message}}
    print(json.dumps({"call": c["call"], "title": c["title"], **out}, sort_keys=True, ensure_ascii=False, separators=(",", ":")))
