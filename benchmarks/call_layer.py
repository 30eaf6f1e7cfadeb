"""One layer of a Python call run N times (benchmarks/bench_calls_instructions.sh counts
its instructions): ``python call_layer.py OP ARGS_JSON LAYER N``."""

from __future__ import annotations

import json
import sys

import gunbai
from gunbai import _native
from gunbai._core import _send_text

op, args, layer, n = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], int(sys.argv[4])
text = json.dumps(args, separators=(",", ":"))
module, name = op.split(".")
function = getattr(getattr(gunbai, module), name)
f = {
    "native": lambda: _native.call(op, text),
    "value": lambda: _native.call_value(op, args),
    "wrapper": lambda: function(**args),
    "text": lambda: _send_text(op, dict(args)),
}[layer]
f()
for _ in range(n):
    f()
