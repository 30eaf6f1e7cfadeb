"""Whole games per second from Python, one thread against every core, in one run.

    python benchmarks/bench_simulate.py [--only world_trigger,tmd] [--scale 1.0]

For each engine, the setup of ``benchmarks/simulate_setups.json`` (the games the native
``bench_simulate_threads`` plays): ``gunbai.<module>.simulate(setup, n, 7, threads=1)``
and ``threads=None`` (every core), each the best of three timings, checked to give the same games. Prints one
``python.<module>.<one|all> <battles/s>`` line per figure (``benchmarks/run.sh`` puts them
beside the native figures). A benchmark, not a test: no assertion depends on timing.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import gunbai

ROOT = Path(__file__).resolve().parents[1]


def setups() -> list[dict]:
    spec = json.loads((ROOT / "benchmarks/simulate_setups.json").read_text(encoding="utf-8"))
    out = []
    for e in spec["engines"]:
        if "setup_file" in e:
            setup = json.loads((ROOT / e["setup_file"]).read_text(encoding="utf-8"))
            setup.pop("seed", None)
            e = {**e, "setup": setup}
        out.append(e)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="modules, comma-separated")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply each engine's n")
    args = ap.parse_args()
    only = {m for m in args.only.split(",") if m}
    for e in setups():
        m = e["module"]
        if only and m not in only:
            continue
        sim = getattr(gunbai, m).simulate
        n = max(1, int(e["n"] * args.scale))
        runs = {}
        for way, threads in (("one", 1), ("all", None)):
            best = 0.0
            for _ in range(3):  # the best of three timings
                t = time.perf_counter()
                games = sim(e["setup"], n, 7, threads=threads, policy=e["policy"], max_steps=e["max_steps"])
                best = max(best, n / (time.perf_counter() - t))
            runs[way] = (best, games)
        one, every = runs["one"][1], runs["all"][1]
        assert one.battles == every.battles and one.members == every.members, f"{m}: different games"
        steps = sum(one.battles["steps"]) / n
        print(f"python.{m}.n {n}")
        print(f"python.{m}.steps {steps:.1f}")
        for way in ("one", "all"):
            print(f"python.{m}.{way} {runs[way][0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
