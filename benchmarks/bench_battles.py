"""World Trigger battles from Python, three ways, side by side in one run.

A random 3v3 rank battle (``examples/battles/rank_3v3.json``): at every step the
acting side lists the legal actions and plays one uniformly at random.

1. The pure operations: ``battle_legal_actions`` + ``battle_act``, the whole state
   crossing as JSON in both directions every action.
2. The handle: ``gunbai.world_trigger.Battle``; the state stays native, only the
   listing and the events cross: once with every listing decoded (``legal_actions``),
   once listing natively and decoding only the chosen action (``listing``), once
   playing the chosen item by its index (``listing.play``).
3. ``gunbai.world_trigger.simulate_battles`` (policy ``random``): whole battles natively.

Prints one ``key value`` line per figure so that ``benchmarks/run.sh`` can put the
Python, Node and native Rust figures side by side. No assertion depends on timing.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import gunbai

ROOT = Path(__file__).resolve().parents[1]
SETUP = json.loads((ROOT / "examples/battles/rank_3v3.json").read_text(encoding="utf-8"))
wt = gunbai.world_trigger


def pure_battle(rng: random.Random) -> int:
    state = wt.battle_new(**SETUP)["state"]
    actions = 0
    while True:
        listed = wt.battle_legal_actions(state=state)["actions"]
        if not listed:
            return actions
        a = listed[rng.randrange(len(listed))]["action"]
        state = wt.battle_act(state=state, action=a, seed=rng.randrange(1 << 50))["state"]
        actions += 1


def handle_battle(rng: random.Random) -> int:
    """The handle, every listing decoded in full (``legal_actions``)."""
    b = wt.Battle.create(**SETUP)
    actions = 0
    while True:
        listed = b.legal_actions()
        if not listed:
            return actions
        b.act(listed[rng.randrange(len(listed))]["action"], seed=rng.randrange(1 << 50))
        actions += 1


def handle_listing_battle(rng: random.Random) -> int:
    """The handle, listing natively and decoding only the chosen action (``listing``)."""
    b = wt.Battle.create(**SETUP)
    actions = 0
    while True:
        listed = b.listing()
        if not listed:
            return actions
        b.act(listed[rng.randrange(len(listed))]["action"], seed=rng.randrange(1 << 50))
        actions += 1


def handle_play_battle(rng: random.Random) -> int:
    """The handle, listing natively and playing the chosen item by its index
    (``listing.play``): neither the listing nor the action crosses as JSON; only the
    events come back."""
    b = wt.Battle.create(**SETUP)
    actions = 0
    while True:
        listed = b.listing()
        if not listed:
            return actions
        listed.play(rng.randrange(len(listed)), seed=rng.randrange(1 << 50))
        actions += 1


def per_action(play, battles: int) -> float:
    rng = random.Random(7)
    t = time.process_time()
    n = sum(play(rng) for _ in range(battles))
    return (time.process_time() - t) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pure-battles", type=int, default=2)
    ap.add_argument("--handle-battles", type=int, default=20)
    ap.add_argument("--sim-battles", type=int, default=800)
    ns = ap.parse_args()
    print(f"python.pure_us_per_action {per_action(pure_battle, ns.pure_battles) * 1e6:.1f}")
    print(f"python.handle_us_per_action {per_action(handle_battle, ns.handle_battles) * 1e6:.1f}")
    print(f"python.listing_us_per_action {per_action(handle_listing_battle, ns.handle_battles) * 1e6:.1f}")
    print(f"python.play_us_per_action {per_action(handle_play_battle, ns.handle_battles) * 1e6:.1f}")
    best = float("inf")
    for seed in range(3):
        t = time.perf_counter()
        wt.simulate_battles(setup=SETUP, n=ns.sim_battles, seed=seed)
        best = min(best, time.perf_counter() - t)
    print(f"python.sim_us_per_battle {best / ns.sim_battles * 1e6:.1f}")
    print(f"python.sim_battles_per_s {ns.sim_battles / best:.0f}")


if __name__ == "__main__":
    main()
