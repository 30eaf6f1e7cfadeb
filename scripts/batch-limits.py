"""The heaviest accepted call of each batch operation, timed in Node (the npm package's
wasm) and in Python (the native wheel) side by side, with the load average beside each
figure (DESIGN.md, "How much may one batch call do?").

    python scripts/batch-limits.py [--pkg bindings-js/pkg] [--scale 0.05] [--full]

First the worst valid World Trigger listing (compact and full) on both surfaces; then
every input shape of each operation (``testdata/batch/limit_shapes.json``: few dice and
many repetitions, many dice and few, ...) is timed at ``--scale`` of its limit on both
surfaces; then, with ``--full``, the slowest shape of each operation in Node is timed at
its limit on both. Node runs each batch with ``callBatchAsync`` (in windows): its figure
is the whole call and the longest window (one wasm call). Each figure is one call (no
warm-up beyond the first small one); ``load`` is the 1-minute load average read just
before the call. Prints one line per call.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import gunbai

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = os.path.join(ROOT, "testdata", "batch", "limit_shapes.json")


def candidates() -> list[tuple[str, str, dict, int]]:
    """(op, label, args without n, the largest accepted n): the 37 input shapes of
    ``testdata/batch/limit_shapes.json`` (few dice and many repetitions, many dice and few,
    ...; a battle's setup by its file), which ``bindings-js/test/batch.test.mjs`` holds to
    their limits."""
    with open(SHAPES, encoding="utf-8") as f:
        rows = json.load(f)
    out = []
    for r in rows:
        args = dict(r["args"])
        if "setup_file" in args:
            with open(os.path.join(ROOT, args.pop("setup_file")), encoding="utf-8") as f:
                args["setup"] = json.load(f)
        out.append((r["op"], r["shape"], args, r["n_max"]))
    return out


NODE = r"""
import { call, callBatchAsync } from "%s";
import { createInterface } from "node:readline";
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  const { op, args, median } = JSON.parse(line);
  if (median) {
    // A plain call: its reply's bytes and the median of `median` calls after one.
    const bytes = JSON.stringify(call(op, args)).length;
    const ms = [];
    for (let i = 0; i < median; i++) { const t = performance.now(); call(op, args); ms.push(performance.now() - t); }
    ms.sort((a, b) => a - b);
    process.stdout.write(JSON.stringify({ bytes, ms: ms[median >> 1] }) + "\n");
    continue;
  }
  const t = performance.now();
  let last = t, longest = 0, windows = 0;
  // After each window: the longest stretch the event loop was held (one wasm call).
  const onProgress = () => { const now = performance.now(); longest = Math.max(longest, now - last); windows++; last = now; };
  let out;
  try { const r = await callBatchAsync(op, args, { onProgress }); out = { ok: r.length ?? null }; }
  catch (e) { out = { error: String(e.code || e.message).slice(0, 200) }; }
  out.s = (performance.now() - t) / 1000;
  out.longest = longest / 1000;
  out.windows = windows;
  process.stdout.write(JSON.stringify(out) + "\n");
}
"""


class Node:
    def __init__(self, pkg: str) -> None:
        path = os.path.abspath(os.path.join(pkg, "index.js"))
        self.p = subprocess.Popen(["node", "--input-type=module", "-e", NODE % ("file://" + path)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, op: str, args: dict, median: int = 0) -> dict:
        assert self.p.stdin and self.p.stdout
        self.p.stdin.write(json.dumps({"op": op, "args": args, "median": median}) + "\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())


def py_run(op: str, args: dict) -> dict:
    t = time.perf_counter()
    try:
        gunbai.call_batch(op, args)
        out: dict = {"ok": True}
    except gunbai.GunbaiError as e:
        out = {"error": e.code}
    out["s"] = time.perf_counter() - t
    return out


def listing(node: Node) -> None:
    """The worst valid World Trigger listing (the vector wt-battle-listing-worst-valid-compact)
    through the pure operation, compact and full, on both surfaces: its bytes (as JSON)
    and the median of 9 calls after one."""
    with open(os.path.join(ROOT, "testdata", "vectors", "world_trigger_battle", "listing_limits.json"),
              encoding="utf-8") as f:
        state = next(c for c in json.load(f) if c["id"] == "wt-battle-listing-worst-valid-compact")["args"]["state"]
    op = "world_trigger.battle_legal_actions"
    for label, args in [("compact", {"state": state, "compact": True}), ("full", {"state": state})]:
        l1 = load()
        n = node.run(op, args, median=9)
        l2 = load()
        reply = gunbai.call(op, args)
        ms = []
        for _ in range(9):
            t = time.perf_counter()
            gunbai.call(op, args)
            ms.append((time.perf_counter() - t) * 1000)
        ms.sort()
        size = len(json.dumps(reply, ensure_ascii=False, separators=(",", ":")).encode())
        print(f"worst valid listing, {label:8}: node {n['bytes']:>10,} B, median {n['ms']:7.1f} ms (load {l1:4.1f}) "
              f"python {size:>10,} B, median {ms[4]:7.1f} ms (load {l2:4.1f})", flush=True)


def load() -> float:
    return os.getloadavg()[0]


def both(node: Node, op: str, args: dict) -> tuple[dict, float, dict, float]:
    l1 = load()
    n = node.run(op, args)
    l2 = load()
    p = py_run(op, args)
    return n, l1, p, l2


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pkg", default=os.path.join(ROOT, "bindings-js", "pkg"))
    ap.add_argument("--scale", type=float, default=0.05)
    ap.add_argument("--full", action="store_true")
    a = ap.parse_args()
    node = Node(a.pkg)
    node.run("dice.simulate_pool", {"count": 1, "sides": 6, "n": 10, "seed": 1})
    listing(node)
    cands = candidates()
    slowest: dict[str, tuple[float, str, dict, int]] = {}
    for op, label, args, n_max in cands:
        n = max(1, int(n_max * a.scale))
        n_out, l1, p_out, l2 = both(node, op, {**args, "n": n, "seed": 1})
        print(f"{op:32} {label:20} n={n:>10} of {n_max:>10}: node {n_out['s']:7.2f} s, longest window "
              f"{n_out['longest']:5.2f} s (load {l1:4.1f}) "
              f"python {p_out['s']:7.2f} s (load {l2:4.1f}) {n_out.get('error', '')}{p_out.get('error', '')}",
              flush=True)
        # Every candidate is timed at the same fraction of its limit: the slowest one is
        # the slowest at its limit.
        if op not in slowest or n_out["s"] > slowest[op][0]:
            slowest[op] = (n_out["s"], label, args, n_max)
    if a.full:
        print("at the limits:")
        for op, (_, label, args, n_max) in slowest.items():
            n_out, l1, p_out, l2 = both(node, op, {**args, "n": n_max, "seed": 1})
            print(f"{op:32} {label:20} n={n_max:>10}: node {n_out['s']:7.2f} s in {n_out['windows']} windows, "
                  f"the longest {n_out['longest']:5.2f} s (load {l1:4.1f}) "
                  f"python {p_out['s']:7.2f} s (load {l2:4.1f}) {n_out.get('error', '')}{p_out.get('error', '')}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
