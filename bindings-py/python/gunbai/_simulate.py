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

from ._core import GunbaiError, _LazyModule, call

if TYPE_CHECKING:  # pragma: no cover
    import numpy
    import pandas
else:
    # Bound at run time too, so that typing.get_type_hints can evaluate the annotations;
    # numpy and pandas are imported only when used.
    numpy = _LazyModule("numpy")
    pandas = _LazyModule("pandas")

#: What the core plays in one call at most, as ``n × max_steps``.
MAX_WORK_PER_CALL = 10_000
#: The most threads the operation takes.
MAX_THREADS = 256
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

    def __init__(
        self,
        op: str,
        seed: int,
        battles: dict[str, list[Any]],
        members: dict[str, list[Any]],
        params: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.op = op
        self.seed = seed
        self.battles = battles
        self.members = members
        #: The parameters these games were played with (a sweep's build): columns of
        #: :meth:`to_pandas`.
        self.params: dict[str, Any] = dict(params or {})

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
        for i, (k, v) in enumerate(self.params.items()):
            df.insert(i, k, [v] * len(df))
        return df

    def to_pandas(self) -> "pandas.DataFrame":
        """Long form: one row per participant per game: the parameter columns
        (:attr:`params`, a sweep's build), the game's (``master_seed``, ``index``,
        ``seed``, ``ended``, ``winner``, ``rounds``, ``steps``), then the participant's
        (``member``, ``hp_start``, ``hp_end``, ``damage_taken``, ``healed``,
        ``actions``, ``damage_dealt``, ``down``)."""
        import pandas as pd

        members = pd.DataFrame(self.members).rename(columns={"battle": "index", "id": "member"})
        return self.battles_frame().merge(members, on="index", how="right")[
            list(self.params)
            + ["master_seed", "index", "seed", "ended", "winner", "rounds", "steps", "member"]
            + [c for c in members.columns if c not in ("index", "member")]
        ]

    def wins(self, winner: str) -> int:
        """How many games ``winner`` won."""
        return sum(1 for w in self.battles.get("winner", []) if w == winner)

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


Policy = Union[None, str, Mapping[str, Any]]


def _policy(policy: Policy) -> Optional[Mapping[str, Any]]:
    """A policy as the operation takes it: a kind's name (``"random"``, ``"aggressive"``)
    is ``{"kind": name}``; a mapping is passed as it is (``{"kind", "priority"}``)."""
    if isinstance(policy, str):
        return {"kind": policy}
    return policy


def run(
    op: str,
    setup: Mapping[str, Any],
    n: int,
    rng: Rng = None,
    *,
    threads: Optional[int] = None,
    policy: Policy = None,
    policies: Optional[Sequence[Mapping[str, Any]]] = None,
    max_steps: Optional[int] = None,
    progress: bool = False,
    first: int = 0,
    params: Optional[Mapping[str, Any]] = None,
) -> Simulation:
    """Play ``n`` games of ``op`` (an ``<x>_simulate`` operation) in chunks: games
    ``first`` … ``first + n − 1`` of the master seed. With more than one thread
    (``threads=None``: one per core), that many chunks play at once, each one native
    call on one thread with the GIL released, and a thread that finishes takes the next
    chunk (a chunk's games vary in length, so this keeps every core busy to the end);
    the chunks are joined in order, so the games are the same whatever ``threads``.
    Ctrl-C stops between chunks."""
    n = operator.index(n)
    if n < 1:
        raise GunbaiError("out_of_range", "n: must be at least 1", field="n", loc=["n"])
    seed = master_seed(rng)
    steps = DEFAULT_MAX_STEPS if max_steps is None else operator.index(max_steps)
    chunk = max(1, MAX_WORK_PER_CALL // max(1, steps))
    threads = _threads(threads)
    args: dict[str, Any] = {"setup": setup, "seed": seed}
    policy = _policy(policy)
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
    first = operator.index(first)
    starts = range(first, first + n, chunk)

    def play(start: int, threads: int = 1) -> Any:
        return call(op, {**args, "threads": threads, "first": start, "n": min(chunk, first + n - start)})

    def join(part: Any) -> None:
        for table, out in ((part["battles"], battles), (part["members"], members)):
            for col, values in table.items():
                out.setdefault(col, []).extend(values)
        if bar is not None:
            bar.update(len(part["battles"]["index"]))

    try:
        if len(starts) == 1:  # one call: the operation spreads its games itself
            join(play(first, threads))
        elif threads == 1:
            for start in starts:
                join(play(start))
        else:
            from collections import deque
            from concurrent.futures import ThreadPoolExecutor

            # At most two chunks per thread in flight: memory stays bounded at any n,
            # and Ctrl-C waits only for the chunks already playing.
            with ThreadPoolExecutor(min(threads, len(starts))) as pool:
                pending: Any = deque()
                try:
                    for start in starts:
                        pending.append(pool.submit(play, start))
                        if len(pending) >= 2 * threads:
                            join(pending.popleft().result())
                    while pending:
                        join(pending.popleft().result())
                except BaseException:
                    for f in pending:
                        f.cancel()
                    raise
    finally:
        if bar is not None:
            bar.close()
    return Simulation(op, seed, battles, members, params)


def _threads(threads: Optional[int]) -> int:
    """``threads`` as a count: None or 0 is one per core (the cores this process may
    run on), as the operation reads 0; at most the operation's 256."""
    if threads is None or (not isinstance(threads, bool) and threads == 0):
        import os

        try:
            return len(os.sched_getaffinity(0)) or 1
        except AttributeError:  # not Linux
            return os.cpu_count() or 1
    if isinstance(threads, bool):
        raise GunbaiError("invalid_argument", "threads: a bool is not a count", field="threads", loc=["threads"])
    threads = operator.index(threads)
    if not 0 <= threads <= MAX_THREADS:
        raise GunbaiError("out_of_range", f"threads: must be 0 to {MAX_THREADS}", field="threads", loc=["threads"])
    return threads


class Simulator:
    """``gunbai.<module>.simulate``: see :func:`run`."""

    def __init__(self, op: str) -> None:
        self.op = op
        self.__doc__ = (
            f"Play ``n`` whole games of ``{op}`` from one setup (any ``n``: the core plays "
            "them in chunks). ``rng``: None, an int (the operation's ``seed``), a numpy "
            "Generator or SeedSequence (SPEC 7). ``threads``: None for one per core. "
            "``policy``: ``\"random\"``, ``\"aggressive\"`` or the operation's ``{kind, priority}``; "
            "``policies``: as the operation's (one side scripted, the other random). ``progress``: a tqdm bar. "
            "Returns a :class:`Simulation` (``.to_pandas()``, ``.win_rates()``)."
        )

    def __call__(
        self,
        setup: Mapping[str, Any],
        n: int,
        rng: Rng = None,
        *,
        threads: Optional[int] = None,
        policy: Policy = None,
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


def _play_chunk(
    op: str, setup: Mapping[str, Any], seed: int, first: int, n: int, options: Mapping[str, Any]
) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """One task of a sweep: games ``first`` … ``first + n − 1`` of ``seed`` (module level,
    so an executor's worker process or a Dask worker can run it)."""
    sim = run(op, setup, n, seed, first=first, **options)
    return sim.battles, sim.members


class _Now:
    """A finished future (the serial executor's)."""

    def __init__(self, value: Any) -> None:
        self._value = value

    def result(self) -> Any:
        return self._value

    def cancel(self) -> bool:
        return False


class Sweep:
    """What :func:`sweep` played: one :class:`Simulation` per build (with its parameters),
    and which builds stopped early."""

    def __init__(self, winner: str, builds: list[Simulation], stopped: list[bool], confidence: float) -> None:
        self.winner = winner
        self.builds = builds
        self.stopped = stopped
        self.confidence = confidence

    def to_pandas(self) -> "pandas.DataFrame":
        """Long form: every build's :meth:`Simulation.to_pandas`, one after another."""
        import pandas as pd

        return pd.concat([b.to_pandas() for b in self.builds], ignore_index=True)

    def summary(self) -> "pandas.DataFrame":
        """One row per build: its parameters, the games played, ``winner``'s wins, the rate
        and its Wilson interval, and whether the build stopped early."""
        import pandas as pd

        rows = []
        for b, stopped in zip(self.builds, self.stopped):
            n, k = len(b), b.wins(self.winner)
            lo, hi = wilson(k, n, self.confidence)
            rows.append({**b.params, "games": n, "wins": k, "rate": k / n if n else 0.0,
                         "low": lo, "high": hi, "stopped_early": stopped})
        return pd.DataFrame(rows)


def _grid(grid: Union[Mapping[str, Sequence[Any]], Sequence[Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """The builds of a grid: every combination of a mapping's value lists, or a list of
    parameter dicts as it is."""
    import itertools

    if isinstance(grid, Mapping):
        keys = list(grid)
        return [dict(zip(keys, values)) for values in itertools.product(*(grid[k] for k in keys))]
    return [dict(p) for p in grid]


def sweep(
    simulate: "Simulator",
    grid: Union[Mapping[str, Sequence[Any]], Sequence[Mapping[str, Any]]],
    setup: Any,
    n: int,
    rng: Rng = None,
    *,
    winner: str,
    chunk: int = 500,
    confidence: float = 0.95,
    stop_early: bool = True,
    executor: Any = None,
    threads: Optional[int] = 1,
    policy: Policy = None,
    policies: Optional[Sequence[Mapping[str, Any]]] = None,
    max_steps: Optional[int] = None,
    progress: bool = False,
) -> Sweep:
    """Play up to ``n`` games of each build of ``grid`` and rate how often ``winner`` (a
    side or participant, as the outcome names it) wins, with Wilson intervals.

    ``grid``: a mapping of parameter names to the values to try (every combination is a
    build) or a list of parameter dicts; ``setup(**params)`` gives a build's setup.
    Each build's games come from its own seed stream: the children of
    ``numpy.random.SeedSequence(master)`` (``.spawn(len(builds))``, ``master`` from
    ``rng`` as SPEC 7 reads it), so a build's games do not depend on the others, on the
    executor, or on where it stopped. Builds play ``chunk`` games a round; with
    ``stop_early``, a build whose interval lies wholly below the leader's (the build with
    the highest rate) stops. ``executor``: None (here, in turn), a
    ``concurrent.futures`` executor, or a Dask ``distributed.Client`` — anything with
    ``submit(fn, *args)`` returning a future with ``result()``; every round's chunks are
    submitted together. Ctrl-C stops between rounds (the pending chunks are cancelled)."""
    import numpy as np

    builds = _grid(grid)
    if not builds:
        raise GunbaiError("invalid_argument", "grid: no builds", field="grid", loc=["grid"])
    n, chunk = operator.index(n), operator.index(chunk)
    if n < 1 or chunk < 1:
        raise GunbaiError("out_of_range", "n and chunk: at least 1", field="n", loc=["n"])
    master = master_seed(rng)
    seeds = [master_seed(child) for child in np.random.SeedSequence(master).spawn(len(builds))]
    setups = [setup(**p) for p in builds]
    options: dict[str, Any] = {"threads": threads, "policy": policy, "policies": policies, "max_steps": max_steps}
    played = [Simulation(simulate.op, s, {}, {}, p) for s, p in zip(seeds, builds)]
    stopped = [False] * len(builds)

    def submit(fn: Any, *args: Any) -> Any:
        return _Now(fn(*args)) if executor is None else executor.submit(fn, *args)

    bar: Any = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n * len(builds), unit="game")
    try:
        while True:
            live = [i for i in range(len(builds)) if not stopped[i] and len(played[i]) < n]
            if not live:
                break
            futures = []
            for i in live:
                first = len(played[i])
                futures.append((i, submit(_play_chunk, simulate.op, setups[i], seeds[i], first,
                                          min(chunk, n - first), options)))
            try:
                for i, f in futures:
                    battles, members = f.result()
                    for table, out in ((battles, played[i].battles), (members, played[i].members)):
                        for col, values in table.items():
                            out.setdefault(col, []).extend(values)
                    if bar is not None:
                        bar.update(len(battles.get("index", [])))
            except BaseException:
                for _, f in futures:
                    f.cancel()
                raise
            if stop_early:
                rates = [wilson(b.wins(winner), len(b), confidence) for b in played]
                lead = max(range(len(builds)), key=lambda i: played[i].wins(winner) / max(1, len(played[i])))
                for i in live:
                    if i != lead and rates[i][1] < rates[lead][0]:
                        stopped[i] = True
    finally:
        if bar is not None:
            bar.close()
    return Sweep(winner, played, stopped, confidence)
