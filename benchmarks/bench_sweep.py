"""Builds per second of ``gunbai.analysis.wt_build_sweep``: one process against a Dask
LocalCluster of 2 worker processes (1 thread each), side by side in one run.

Two workloads, each timed serially and then on the cluster (cluster start-up not
included; every worker imports gunbai.analysis and runs a small sweep first, untimed):

* ``exact``  — every legal allocation of the notebook's attacker over five stats (5,631
  candidates), scored by exact odds only;
* ``battles`` — the first 60 of those builds, each playing 100 random-policy rank battles
  (``examples/battles/rank_3v3.json``) with ``world_trigger.simulate_battles``.

Prints ``key value`` lines plus the machine and its load. The results of both executors
are checked equal (no figure depends on that check passing quickly).
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import time
from pathlib import Path

import pandas as pd

from gunbai import analysis

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = {
    "name": "candidate", "position": "attacker", "leader": False,
    "master": "placeholder_master_technique", "traits": ["placeholder_l_trait"],
    "triggers": {"main": ["kogetsu", "senku"], "sub": ["shield", "bagworm"]},
}
STATS = ("trion", "attack", "defense_support", "mobility", "technique")


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def timed(fn):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def main() -> None:
    from dask.distributed import Client, LocalCluster

    print(f"machine {os.cpu_count()} cpus, {cpu_name()}, python {platform.python_version()}")
    print(f"load_at_start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    builds = analysis.wt_allocations(TEMPLATE, stats=STATS)
    setup = json.loads((ROOT / "examples/battles/rank_3v3.json").read_text(encoding="utf-8"))
    battle = {"setup": setup, "team": 0, "member": 1, "n": 100, "seed": 7}
    few = dict(list(builds.items())[:60])
    work = {
        "exact": (builds, {}),
        "battles": (few, {"battle": battle}),
    }
    serial = {}
    for name, (bs, kw) in work.items():
        df, s = timed(lambda: analysis.wt_build_sweep(bs, opponent=5, progress=False, **kw))
        serial[name] = df
        print(f"serial.{name}.builds {len(df)}")
        print(f"serial.{name}.seconds {s:.2f}")
        print(f"serial.{name}.builds_per_s {len(df) / s:.1f}")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(
        cluster
    ) as client:
        # Warm every worker (importing gunbai.analysis and pandas there takes a second or two).
        client.run(importlib.import_module, "gunbai.analysis")
        analysis.wt_build_sweep(dict(list(builds.items())[:8]), opponent=5, executor=client, progress=False)
        for name, (bs, kw) in work.items():
            df, s = timed(lambda: analysis.wt_build_sweep(bs, opponent=5, executor=client, progress=False, **kw))
            pd.testing.assert_frame_equal(df, serial[name])
            print(f"dask2.{name}.seconds {s:.2f}")
            print(f"dask2.{name}.builds_per_s {len(df) / s:.1f}")
    print(f"load_at_end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
