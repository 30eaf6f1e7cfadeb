"""Checked by mypy (not run): the generated stubs accept correct calls and reject
wrong ones. Each `type: ignore[...]` must be needed (--warn-unused-ignores)."""

from __future__ import annotations

import gunbai
from gunbai.types import DiceRollResult, FmLoggedEvent, Roll, TmdAction

r: DiceRollResult = gunbai.dice.roll(expr="2d6+1", seed=42)
total: int = r["total"]
first: Roll = r["rolls"][0]
faces: list[int] = gunbai.dice.pool(count=3, sides=6, rolls=[1, 2, {"value": 3}])["faces"]
prng: str = gunbai.meta.version()["prng"]
sims = gunbai.dice.simulate_pool(count=2, sides=6, n=10, seed=1)
mean: float = float(sims.mean())

try:
    gunbai.dice.roll(expr="1001d6")
except gunbai.GunbaiError as e:
    code: str = e.code

gunbai.dice.roll(expr=26)  # type: ignore[arg-type]
gunbai.dice.roll(seed=1)  # type: ignore[call-arg]
gunbai.dice.roll(expr="1d6", sead=1)  # type: ignore[call-arg]
gunbai.dice.roll(expr="1d6")["sum"]  # type: ignore[typeddict-item]


# A tagged union (events, actions, costs) is one TypedDict per kind: the tag narrows it.
def who_was_hit(e: FmLoggedEvent) -> str | None:
    if e["event"] == "hit":
        return e["target"]
    e["target"]  # type: ignore[typeddict-item]
    return None


delay: TmdAction = {"type": "delay", "actor": "a", "after": "b"}
missing: TmdAction = {"type": "delay", "actor": "a"}  # type: ignore[misc, assignment]
