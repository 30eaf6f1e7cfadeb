"""Exact duel odds against simulation (and icepool), in one run.

    .venv/bin/python benchmarks/bench_duel.py [--n 20000] [--se 0.001]

A CoC 7th house duel (A dodges, B takes every hit) and a CoC 6th AP duel (the ghoul
dodges once a round). For each: the time of ``duel_odds`` (exact: its standard error
is 0), the simulation's battles per second with the same fixed reactions (``simulate``
on every core), and the time the simulation needs to reach a standard error of
``--se`` on A's win probability (n = p(1 - p) / se^2 battles at the measured rate).
The ratio is that time over the exact time. Where ``icepool`` is installed
(``setup.sh py-dev``), the same CoC 7th duel written as an icepool absorbing chain runs
beside it: its win probability and time. A benchmark, not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import gunbai

ROUNDS = 30
HOUSE = {
    "participants": [
        {"id": "A", "dex": 60, "is_pc": True, "side": "pc", "hp": 12, "dodge": 40,
         "weapons": [{"id": "sword", "skill": 70, "damage": "1d6+1", "range": "近接"}]},
        {"id": "B", "dex": 50, "side": "npc", "hp": 11, "armor": 1, "dodge": 30,
         "weapons": [{"id": "axe", "skill": 50, "damage": "1d8", "range": "近接"}]},
    ]
}
HOUSE_REACTIONS = {"A": "dodge", "B": "none"}
AP = {
    "participants": [
        {"id": "ayla", "dex": 14, "side": "pc", "hp_max": 12, "skills": {"dodge": 50},
         "weapons": [{"name": "knife", "skill": 60, "attacks_per_round": 2, "damage": "1d4+2"}]},
        {"id": "ghoul", "dex": 12, "side": "npc", "hp_max": 13, "armor": 1, "skills": {"dodge": 40},
         "weapons": [{"name": "claw", "skill": 45, "attacks_per_round": 1, "damage": "1d6"}]},
    ]
}
AP_REACTIONS = {"ayla": "none", "ghoul": "dodge"}


def best_of(f, k: int = 5) -> float:
    times = []
    for _ in range(k):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def house_policies() -> list[dict]:
    return [
        {"ids": [i], "priority": ["attack", f"reaction:{r}", "end_turn", "next_round"]}
        for i, r in HOUSE_REACTIONS.items()
    ]


def ap_policies() -> list[dict]:
    return [
        {"ids": [i], "priority": ["attack", "dodge" if r == "dodge" else "no_reaction", "no_reaction",
                                  "end_turn", "next_round"]}
        for i, r in AP_REACTIONS.items()
    ]


def compare(name: str, module, setup: dict, reactions: dict, policies: list[dict], steps: int,
            n: int, se: float) -> None:
    exact = module.duel_odds(setup=setup, reactions=reactions, max_rounds=ROUNDS)
    t_exact = best_of(lambda: module.duel_odds(setup=setup, reactions=reactions, max_rounds=ROUNDS))
    t = time.perf_counter()
    sim = module.simulate(setup, n, 7, threads=0, policies=policies, max_steps=steps * (ROUNDS + 1))
    t_sim = time.perf_counter() - t
    first_side = setup["participants"][0].get("side", setup["participants"][0]["id"])
    rounds = sim.battles["rounds"]
    wins = sum(1 for w, r in zip(sim.battles["winner"], rounds) if w == first_side and r <= ROUNDS)
    p = exact["win"][0]
    need = p * (1 - p) / se**2
    rate = n / t_sim
    t_need = need / rate
    print(f"{name}: exact P(first wins) = {p:.6f} in {t_exact * 1e3:.2f} ms "
          f"({exact['states']} HP pairs, {ROUNDS} rounds)")
    print(f"  simulate: {n} battles in {t_sim:.2f} s ({rate:,.0f}/s, {os.cpu_count()} threads): "
          f"{wins / n:.4f} ± {(p * (1 - p) / n) ** 0.5:.4f}")
    print(f"  to SE {se}: {need:,.0f} battles, {t_need:.1f} s: exact is {t_need / t_exact:,.0f}× faster")


def icepool_house() -> None:
    try:
        import icepool
    except ImportError:
        print("icepool: not installed (bash scripts/setup.sh py-dev)")
        return
    # The same CoC 7th duel written in icepool (rule 0 levels, the illustrative pack's HP,
    # armour, major-wound death and dodge ties): a check's level as a rank 0 fumble …
    # 5 critical; extreme damage rolls the base dice twice.
    def level(skill: int):
        def of(r: int) -> int:
            if r <= skill:
                return 5 if r == 1 else 4 if r <= skill // 5 else 3 if r <= skill // 2 else 2
            if r == 1:
                return 5
            return 0 if r == 100 or (skill < 50 and r >= 96) else 1
        return icepool.d100.map(of)

    a, b = HOUSE["participants"]
    la, lb = level(70), level(50)
    da, db = level(40), None  # A dodges with 40; B takes every hit.
    dmg_a = {False: 1 @ icepool.d6 + 1, True: 2 @ icepool.d6 + 1}
    dmg_b = {False: 1 @ icepool.d8, True: 2 @ icepool.d8}

    def taken(d, armor):
        return max(d - armor, 0)

    # A's attack on B (no reaction), B's on A (A dodges: a tie goes to the dodge).
    hit_b = icepool.map(lambda l: dmg_a[l >= 4].map(lambda d: taken(d, 1)) if l >= 2 else 0, la)
    hit_a = icepool.map(lambda l, d: dmg_b[l >= 4] if l >= 2 and l > d else 0, lb, da)

    def after(hp, hp_max, t):
        return 0 if t > hp_max or hp - t <= 0 else hp - t

    def step(state):
        ha, hb, r = state
        if ha == 0 or hb == 0 or r == ROUNDS:
            return state
        return icepool.map(
            lambda x: (ha, 0, r + 1) if after(hb, 11, x) == 0 else
            hit_a.map(lambda y: (after(ha, 12, y), after(hb, 11, x), r + 1)),
            hit_b,
        )

    t = time.perf_counter()
    end = icepool.map(step, icepool.Die([(12, 11, 0)]), repeat=ROUNDS)
    p = sum(q for (ha, hb, _), q in zip(end.outcomes(), end.probabilities()) if hb == 0 and ha > 0)
    print(f"icepool {icepool.__version__}: the same CoC 7th duel: P(A wins) = {float(p):.6f} in "
          f"{time.perf_counter() - t:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--se", type=float, default=0.001)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    compare("coc7_house", gunbai.coc7_house, HOUSE, HOUSE_REACTIONS, house_policies(), 7, args.n, args.se)
    icepool_house()
    compare("coc_ap", gunbai.coc_ap, AP, AP_REACTIONS, ap_policies(), 9, args.n, args.se)


if __name__ == "__main__":
    main()
