"""Whole games by policies at any ``n``: ``gunbai.<module>.simulate``.

Each module's ``simulate`` plays its engine's ``<x>_simulate`` operation in chunks (one
call plays at most ``n × max_steps`` = 10,000 steps), so ``n`` has no bound here, a
progress bar can follow the chunks, and Ctrl-C stops between them. Game k depends only on
the master seed and k, so the result is the same whatever the chunks or ``threads``
(and equal to the operation's with that seed in JS or Rust). The games' rules are the
core's; this module only splits the work and shapes tables.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

from ._core import GunbaiError, call

if TYPE_CHECKING:  # pragma: no cover
    import numpy
    import pandas

#: What the core plays in one call at most, as ``n × max_steps``.
MAX_WORK_PER_CALL = 10_000
#: The core's default ``max_steps``.
DEFAULT_MAX_STEPS = 500
_SEED_BOUND = 1 << 53

Rng = Union[None, int, "numpy.random.Generator", "numpy.random.SeedSequence"]


def master_seed(rng: Any) -> int:
    """The master seed (0 to 2^53 − 1) of ``rng`` as SPEC 7 reads it: ``None`` (fresh
    entropy), an ``int`` (used as it is, so the operation called with ``seed=rng`` in
    any language plays the same games), a ``numpy.random.Generator`` (one draw) or a
    ``numpy.random.SeedSequence`` (its first state word)."""
    if rng is None:
        import numpy as np

        rng = np.random.SeedSequence()
    if isinstance(rng, bool):
        raise GunbaiError("invalid_argument", "rng: a bool is not a seed", field="rng", loc=["rng"])
    if hasattr(rng, "__index__") and not hasattr(rng, "generate_state"):
        seed = operator.index(rng)
        if not 0 <= seed < _SEED_BOUND:
            raise GunbaiError("out_of_range", "rng: an int seed must be 0 to 2^53 - 1", field="rng", loc=["rng"])
        return seed
    if hasattr(rng, "generate_state"):  # SeedSequence
        return int(rng.generate_state(1, dtype="uint64")[0]) >> 11
    if hasattr(rng, "integers") and hasattr(rng, "bit_generator"):  # Generator
        return int(rng.integers(0, _SEED_BOUND))
    raise GunbaiError(
        "invalid_argument",
        f"rng: expected None, an int, a numpy Generator or SeedSequence, not {type(rng).__name__}",
        field="rng",
        loc=["rng"],
    )


def wilson(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a rate ``wins / n``."""
    if n <= 0:
        return (0.0, 1.0)
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Simulation:
    """The games one ``simulate`` played: ``battles`` (a row per game) and ``members`` (a
    row per participant per game), each a dict of equal-length lists, as the core gives
    them; ``seed`` is the master seed they came from."""

    def __init__(self, op: str, seed: int, battles: dict[str, list[Any]], members: dict[str, list[Any]]) -> None:
        self.op = op
        self.seed = seed
        self.battles = battles
        self.members = members

    def __len__(self) -> int:
        return len(self.battles.get("index", []))

    def __repr__(self) -> str:
        return f"<Simulation {self.op}: {len(self)} games from seed {self.seed}>"

    def battles_frame(self) -> "pandas.DataFrame":
        """One row per game (``outcome`` left out: see ``battles``)."""
        import pandas as pd

        cols = {k: v for k, v in self.battles.items() if k != "outcome"}
        df = pd.DataFrame(cols)
        df.insert(0, "master_seed", self.seed)
        return df

    def to_pandas(self) -> "pandas.DataFrame":
        """Long form: one row per participant per game, with the game's columns
        (``master_seed``, ``index``, ``seed``, ``ended``, ``winner``, ``rounds``,
        ``steps``) beside the participant's (``member``, ``hp_start``, ``hp_end``,
        ``damage_taken``, ``healed``, ``actions``)."""
        import pandas as pd

        members = pd.DataFrame(self.members).rename(columns={"battle": "index", "id": "member"})
        return self.battles_frame().merge(members, on="index", how="right")[
            ["master_seed", "index", "seed", "ended", "winner", "rounds", "steps", "member"]
            + [c for c in members.columns if c not in ("index", "member")]
        ]

    def win_rates(self, confidence: float = 0.95) -> "pandas.DataFrame":
        """Each winner's share of the games (null: no winner — a draw or no end), with
        its Wilson interval at ``confidence``."""
        import pandas as pd

        n = len(self)
        counts: dict[Optional[str], int] = {}
        for w in self.battles.get("winner", []):
            counts[w] = counts.get(w, 0) + 1
        rows = []
        for w, k in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0]))):
            lo, hi = wilson(k, n, confidence)
            rows.append({"winner": w, "games": k, "rate": k / n, "low": lo, "high": hi})
        return pd.DataFrame(rows, columns=["winner", "games", "rate", "low", "high"])


def run(
    op: str,
    setup: Mapping[str, Any],
    n: int,
    rng: Rng = None,
    *,
    threads: Optional[int] = None,
    policy: Optional[Mapping[str, Any]] = None,
    policies: Optional[Sequence[Mapping[str, Any]]] = None,
    max_steps: Optional[int] = None,
    progress: bool = False,
) -> Simulation:
    """Play ``n`` games of ``op`` (an ``<x>_simulate`` operation) in chunks."""
    n = operator.index(n)
    if n < 1:
        raise GunbaiError("out_of_range", "n: must be at least 1", field="n", loc=["n"])
    seed = master_seed(rng)
    steps = DEFAULT_MAX_STEPS if max_steps is None else operator.index(max_steps)
    chunk = max(1, MAX_WORK_PER_CALL // max(1, steps))
    args: dict[str, Any] = {"setup": setup, "seed": seed, "threads": 0 if threads is None else threads}
    if policy is not None:
        args["policy"] = policy
    if policies is not None:
        args["policies"] = policies
    if max_steps is not None:
        args["max_steps"] = max_steps
    battles: dict[str, list[Any]] = {}
    members: dict[str, list[Any]] = {}
    bar: Any = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, unit="game")
    try:
        first = 0
        while first < n:
            size = min(chunk, n - first)
            part = call(op, {**args, "first": first, "n": size})
            for table, out in ((part["battles"], battles), (part["members"], members)):
                for col, values in table.items():
                    out.setdefault(col, []).extend(values)
            first += size
            if bar is not None:
                bar.update(size)
    finally:
        if bar is not None:
            bar.close()
    return Simulation(op, seed, battles, members)


class Simulator:
    """``gunbai.<module>.simulate``: see :func:`run`."""

    def __init__(self, op: str) -> None:
        self.op = op
        self.__doc__ = (
            f"Play ``n`` whole games of ``{op}`` from one setup (any ``n``: the core plays "
            "them in chunks). ``rng``: None, an int (the operation's ``seed``), a numpy "
            "Generator or SeedSequence (SPEC 7). ``threads``: None for one per core. "
            "``policy``/``policies``: as the operation's. ``progress``: a tqdm bar. "
            "Returns a :class:`Simulation` (``.to_pandas()``, ``.win_rates()``)."
        )

    def __call__(
        self,
        setup: Mapping[str, Any],
        n: int,
        rng: Rng = None,
        *,
        threads: Optional[int] = None,
        policy: Optional[Mapping[str, Any]] = None,
        policies: Optional[Sequence[Mapping[str, Any]]] = None,
        max_steps: Optional[int] = None,
        progress: bool = False,
    ) -> Simulation:
        return run(
            self.op,
            setup,
            n,
            rng,
            threads=threads,
            policy=policy,
            policies=policies,
            max_steps=max_steps,
            progress=progress,
        )

    def __repr__(self) -> str:
        return f"<gunbai simulate: {self.op}>"
