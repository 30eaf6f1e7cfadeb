"""The heaviest accepted call of each batch operation, timed in Node (the npm package's
wasm) and in Python (the native wheel) side by side, with the load average beside each
figure (DESIGN.md, "How much may one batch call do?").

    python scripts/batch-limits.py [--pkg bindings-js/pkg] [--scale 0.05] [--full]

First every candidate shape of each operation (few dice and many repetitions, many dice
and few, ...) is timed at ``--scale`` of its limit on both surfaces; then, with
``--full``, the slowest candidate of each operation in Node is timed at its limit on
both. Each figure is one call (no warm-up beyond the first small one); ``load`` is the
1-minute load average read just before the call. Prints one line per call.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

import gunbai

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = 200_000_000  # batch::MAX_BATCH_DICE
REPS = 20_000_000  # batch::MAX_BATCH
CELLS, PAIRS = 1_000_000, 25_000_000  # batch::tmd::MAX_CELLS, MAX_PAIRS
MEMBER_ROUNDS = 72_000  # batch::battles::MAX_MEMBER_ROUNDS


def setup(name: str) -> dict:
    with open(os.path.join(ROOT, "examples", "battles", f"{name}.json"), encoding="utf-8") as f:
        return json.load(f)


def candidates() -> list[tuple[str, str, dict, int]]:
    """(op, label, args without n, the largest accepted n)."""
    c: list[tuple[str, str, dict, int]] = []
    for count, sides in [(0, 6), (1, 6), (10, 6), (1000, 6), (10, 10000), (1000, 10000)]:
        c.append(("dice.simulate_pool", f"{count}d{sides}", {"count": count, "sides": sides},
                  min(REPS, WORK // (count + 10))))
    for d, t, e in [(0, 0, 0), (7, 2, 0), (20, 0, 0), (100, 20, 100)]:
        c.append(("world_trigger.simulate_checks", f"{d}+{t}T+{e}E",
                  {"dice": d, "tactics_dice": t, "extra_dice": e}, min(REPS, WORK // (d + t + e + 10))))
    for a, r, out in [(0, 0, "win"), (5, 5, "win"), (5, 5, "margin"), (20, 20, "win"), (100, 100, "win")]:
        c.append(("world_trigger.simulate_opposed", f"{a}v{r} {out}",
                  {"actor_dice": a, "reactor_dice": r, "output": out}, min(REPS, WORK // (3 * (a + r) + 30))))
    for label, extra in [("plain", {}), ("burst+lvs", {"burst": 10, "trion_stat": 10, "special_attack_lv": 5,
                                                        "special_attack_lvs": [5, 5, 5]})]:
        c.append(("world_trigger.simulate_damage", label, {"attack": 10, **extra}, REPS))
    for bonus, rule in [(0, 0), (10, 0), (-10, 0), (0, 5), (2, 3)]:
        c.append(("coc7.simulate_checks", f"bonus {bonus} rule {rule}", {"skill": 50, "bonus_dice": bonus, "rule": rule},
                  min(REPS, WORK // (abs(bonus) + 16))))
    for k in [2, 10, 20, 25, 50, 100]:
        for ties, sides in [("ties", k), ("spread", 2)]:
            # "ties": one base initiative, each combatant its own side (every tie re-rolled).
            comb = [{"id": f"c{i}", "side": f"s{i % sides}", "base_initiative": 0 if ties == "ties" else i % 7}
                    for i in range(k)]
            c.append(("tmd.simulate_initiative", f"{k} {ties}", {"combatants": comb},
                      min(1_000_000, CELLS // k, PAIRS // (k * k))))
    # Battles: at most MEMBER_ROUNDS member-rounds (battles × last round × members); n from the
    # refusal's figures (battle_n).
    for name in ["rank_3v3", "mock_4v4", "defense"]:
        c.append(("world_trigger.simulate_battles", f"{name} random", {"setup": setup(name)}, 0))
    return c


NODE = r"""
import { callBatch } from "%s";
import { createInterface } from "node:readline";
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  const { op, args } = JSON.parse(line);
  const t = performance.now();
  let out;
  try { const r = callBatch(op, args); out = { ok: r.length ?? null }; }
  catch (e) { out = { error: String(e.code || e.message).slice(0, 200) }; }
  out.s = (performance.now() - t) / 1000;
  process.stdout.write(JSON.stringify(out) + "\n");
}
"""


class Node:
    def __init__(self, pkg: str) -> None:
        path = os.path.abspath(os.path.join(pkg, "index.js"))
        self.p = subprocess.Popen(["node", "--input-type=module", "-e", NODE % ("file://" + path)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, op: str, args: dict) -> dict:
        assert self.p.stdin and self.p.stdout
        self.p.stdin.write(json.dumps({"op": op, "args": args}) + "\n")
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


def load() -> float:
    return os.getloadavg()[0]


def both(node: Node, op: str, args: dict) -> tuple[dict, float, dict, float]:
    l1 = load()
    n = node.run(op, args)
    l2 = load()
    p = py_run(op, args)
    return n, l1, p, l2


def battle_n(setup: dict) -> int:
    """The largest n the member-round limit accepts for this setup, read from the refusal
    of n = 100,000 (``n × last round × members is work``)."""
    r = None
    try:
        gunbai.call_batch("world_trigger.simulate_battles", {"setup": setup, "n": 100_000, "seed": 1})
    except gunbai.GunbaiError as e:
        r = re.search(r"(\d+) × (\d+) × (\d+) is", str(e))
    assert r, "no member-round refusal"
    return MEMBER_ROUNDS // (int(r.group(2)) * int(r.group(3)))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pkg", default=os.path.join(ROOT, "bindings-js", "pkg"))
    ap.add_argument("--scale", type=float, default=0.05)
    ap.add_argument("--full", action="store_true")
    a = ap.parse_args()
    node = Node(a.pkg)
    node.run("dice.simulate_pool", {"count": 1, "sides": 6, "n": 10, "seed": 1})
    cands = candidates()
    slowest: dict[str, tuple[float, str, dict, int]] = {}
    for op, label, args, n_max in cands:
        if op == "world_trigger.simulate_battles":
            n_max = battle_n(args["setup"])
        n = max(1, int(n_max * a.scale))
        n_out, l1, p_out, l2 = both(node, op, {**args, "n": n, "seed": 1})
        print(f"{op:32} {label:20} n={n:>10} of {n_max:>10}: node {n_out['s']:7.2f} s (load {l1:4.1f}) "
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
            print(f"{op:32} {label:20} n={n_max:>10}: node {n_out['s']:7.2f} s (load {l1:4.1f}) "
                  f"python {p_out['s']:7.2f} s (load {l2:4.1f}) {n_out.get('error', '')}{p_out.get('error', '')}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
