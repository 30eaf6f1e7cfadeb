"""World Trigger build sweeps: every legal point allocation, scored by exact odds and by
simulated battles, serially or on an executor (``concurrent.futures`` or Dask).
Re-exported by :mod:`gunbai.analysis` (use them from there).

The work is split into chunks of builds; each chunk is scored by
:func:`score_builds`, a plain module-level function of plain data, so it pickles to
another process or machine unchanged. Every number a build gets depends only on the
build and the sweep's arguments (battles use the same seed for every build), so the
result is the same serially, on a process pool or on a Dask cluster.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union, get_args

import pandas as pd

from . import types as _types
from ._core import GunbaiError, _LazyModule, call

if TYPE_CHECKING:  # pragma: no cover
    import matplotlib.axes
else:
    matplotlib = _LazyModule("matplotlib")  # for typing.get_type_hints; imported when evaluated

__all__ = ["WT_STATS", "wt_allocations", "wt_build_sweep", "score_builds", "plot_sweep"]

#: The eight World Trigger stats (WT-CC-4), in sheet order: the core's ``WtStat`` type.
WT_STATS: tuple[str, ...] = tuple(key for literal in get_args(_types.WtStat) for key in get_args(literal))

#: Above this many builds (or with battles) the sweep shows a progress bar unless told otherwise.
_PROGRESS_FROM = 500


def _allocations(stats: Sequence[str], total: int, caps: Mapping[str, int]) -> Iterator[dict[str, int]]:
    """Every way to give ``total`` points to ``stats``, stat ``s`` at most ``caps[s]``."""

    def rec(i: int, left: int, acc: dict[str, int]) -> Iterator[dict[str, int]]:
        cap = caps[stats[i]]
        if i == len(stats) - 1:
            if left <= cap:
                yield {**acc, stats[i]: left}
            return
        rest = sum(caps[s] for s in stats[i + 1 :])
        for v in range(max(0, left - rest), min(cap, left) + 1):
            yield from rec(i + 1, left - v, {**acc, stats[i]: v})

    if not stats:
        return iter(())
    return rec(0, total, {})


def wt_allocations(
    template: Mapping[str, Any],
    *,
    stats: Sequence[str] = WT_STATS,
    total: Optional[int] = None,
    cap: Optional[int] = None,
    data: Any = None,
) -> dict[str, dict[str, Any]]:
    """Every legal sheet that spends ``total`` creation points (WT-CC-5) over ``stats``.

    ``template`` is a sheet (position, master, traits, triggers, …); its ``points`` are
    replaced by each allocation. ``total`` defaults to the creation points and ``cap``
    (the most points per stat) to what the creation cap leaves each stat of the
    template's position (``world_trigger.creation_limits``: 20 points; cap 9, 8 for an
    All-rounder, on base + points, WT-CC-5). Each candidate is checked by
    ``world_trigger.validate_sheet``; those with a violation (a trigger's equip
    requirement, …) are left out. Returns name → sheet, the name listing the points
    (``"trion 3, attack 9, technique 8"``). All eight stats give 732,474 allocations
    (634,446 capped at 8): name fewer ``stats`` for a quick look.
    """
    unknown = [s for s in stats if s not in WT_STATS]
    if unknown or len(set(stats)) != len(stats):
        raise GunbaiError(
            "invalid_argument", f"stats: each one of {', '.join(WT_STATS)}, once (got {list(stats)})", "stats"
        )
    try:
        limits = call("world_trigger.creation_limits", position=template.get("position"), data=data)
    except GunbaiError as e:
        if e.field != "position":
            raise
        raise GunbaiError(e.code, f"template.{e.message}", "template.position", e.rule) from None
    if total is None:
        total = int(limits["points"])
    caps = {s: int(limits["max_points"][s]) if cap is None else int(cap) for s in stats}
    out: dict[str, dict[str, Any]] = {}
    for points in _allocations(list(stats), int(total), caps):
        kept = {k: v for k, v in points.items() if v}
        sheet = {**template, "points": kept}
        if call("world_trigger.validate_sheet", sheet=sheet, data=data)["valid"]:
            out[", ".join(f"{k} {v}" for k, v in kept.items())] = sheet
    return out


def _pool(spec: Union[int, Mapping[str, int]]) -> dict[str, int]:
    if isinstance(spec, Mapping):
        return {k: int(spec.get(k, 0)) for k in ("dice", "tactics_dice", "extra_dice")}
    return {"dice": int(spec), "tactics_dice": 0, "extra_dice": 0}


def score_builds(builds: Sequence[tuple[str, Mapping[str, Any]]], config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Score one chunk of builds: the unit of work :func:`wt_build_sweep` sends to an executor.

    ``config`` is what :func:`wt_build_sweep` puts together (plain data). Returns one
    row per build, in order.
    """
    hit_stat: str = config["hit_stat"]
    reaction = config["reaction"]
    sal = int(config["special_attack_lv"])
    tactics = int(config["tactics_dice"])
    data = config.get("data")
    battle = config.get("battle")
    dmg_cache: dict[tuple[int, int], tuple[float, float]] = {}
    hit_cache: dict[int, float] = {}

    def mean_damage(attack: int, trion: int) -> tuple[float, float]:
        """Exact mean damage per hit without and with a full Trion Burst (WT-DMG-4)."""
        key = (attack, trion)
        if key not in dmg_cache:
            plain = call("world_trigger.damage_odds", attack=attack, trion_stat=trion, special_attack_lv=sal)
            full = call(
                "world_trigger.damage_odds",
                attack=attack, trion_stat=trion, special_attack_lv=sal, burst=plain["max_burst"],
            )
            dmg_cache[key] = (float(plain["mean"]), float(full["mean"]))
        return dmg_cache[key]

    rows: list[dict[str, Any]] = []
    for name, sheet in builds:
        ch = call("world_trigger.create_character", sheet=dict(sheet), data=data)
        stats = {k: int(ch["stats"].get(k, 0)) for k in WT_STATS}
        dice = stats[hit_stat]
        if dice not in hit_cache:
            # WT-HIT-1 / WT-OPP-3: the reaction rolls first, ties hit; WT-DMG-5: special-attack LV dice.
            hit_cache[dice] = float(
                call(
                    "world_trigger.opposed_chance",
                    actor_dice=dice, actor_tactics_dice=tactics, actor_extra_dice=sal,
                    reactor_dice=reaction["dice"], reactor_tactics_dice=reaction["tactics_dice"],
                    reactor_extra_dice=reaction["extra_dice"],
                )["probability"]
            )
        hit = hit_cache[dice]
        dmg, dmg_burst = mean_damage(stats["attack"], stats["trion"])
        row: dict[str, Any] = {"build": name, **stats}
        row.update(
            starting_trion=int(ch["derived"]["starting_trion"]),
            hit_dice=dice,
            hit=hit,
            damage=dmg,
            damage_burst=dmg_burst,
            expected_damage=hit * dmg,
            expected_damage_burst=hit * dmg_burst,
        )
        if battle is not None:
            setup = _with_member(battle["setup"], battle["team"], battle["member"], sheet)
            r = _call_battles(setup, battle)
            winner = r["winner"]
            row.update(
                battles=int(winner.size),
                win_rate=float((winner == battle["team"]).mean()),
                draw_rate=float((winner == -1).mean()),
                mean_rounds=float(r["rounds"].mean()),
            )
        rows.append(row)
    return rows


def _call_battles(setup: Mapping[str, Any], battle: Mapping[str, Any]) -> Any:
    from ._core import call_batch

    return call_batch(
        "world_trigger.simulate_battles",
        setup=setup, n=battle["n"], seed=battle["seed"], policy=battle.get("policy"), policies=battle.get("policies"),
    )


def _with_member(setup: Mapping[str, Any], team: int, member: int, sheet: Mapping[str, Any]) -> dict[str, Any]:
    teams = [dict(t) for t in setup["teams"]]
    members = [dict(m) for m in teams[team]["members"]]
    old = members[member]
    # The member keeps its name (and id), so the setup's leader and references still hold.
    members[member] = {**old, "sheet": {**sheet, "name": old["sheet"].get("name", sheet.get("name")),
                                        "leader": old["sheet"].get("leader", False)}}
    teams[team]["members"] = members
    return {**setup, "teams": teams}


def _progress(total: int, show: Optional[bool], long_work: bool) -> Any:
    if show is None:
        show = long_work or total >= _PROGRESS_FROM
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is in the analysis extra
        return None
    return tqdm(total=total, desc="builds", unit="build", disable=not show)


def _executor(executor: Any) -> Optional[concurrent.futures.Executor]:
    """None for serial; a concurrent.futures executor as given; a Dask client through
    its concurrent.futures face (``Client.get_executor``)."""
    if executor is None or executor == "serial":
        return None
    if isinstance(executor, concurrent.futures.Executor):
        return executor
    get = getattr(executor, "get_executor", None)
    if callable(get):  # distributed.Client
        ex = get()
        if isinstance(ex, concurrent.futures.Executor):
            return ex
    raise GunbaiError(
        "invalid_argument",
        "executor: None or 'serial', a concurrent.futures.Executor, or a Dask distributed.Client",
        "executor",
    )


def wt_build_sweep(
    builds: Union[Mapping[str, Mapping[str, Any]], Iterable[tuple[str, Mapping[str, Any]]]],
    *,
    hit_stat: str = "technique",
    opponent: Union[int, Mapping[str, Any]] = 5,
    reaction_stat: Optional[str] = None,
    tactics_dice: int = 0,
    special_attack_lv: int = 0,
    battle: Optional[Mapping[str, Any]] = None,
    executor: Any = None,
    chunk_size: Optional[int] = None,
    progress: Optional[bool] = None,
    data: Any = None,
) -> pd.DataFrame:
    """Score many World Trigger builds; one DataFrame row per build, in the given order.

    ``builds``: name → sheet (e.g. :func:`wt_allocations`) or (name, sheet) pairs.

    Exact odds against ``opponent``: its reaction pool is a dice count, a pool
    ``{"dice", "tactics_dice", "extra_dice"}``, or a sheet, whose ``reaction_stat`` (you
    name it: the seed does not say which stat a dodge uses, RULES gap 19) gives the dice.
    Columns: the eight final stats, ``starting_trion``, ``hit_dice`` (the ``hit_stat``
    value), ``hit`` (P(the hit check, with ``tactics_dice`` and ``special_attack_lv``
    extra dice, beats the reaction; ties hit, WT-HIT-1), ``damage`` / ``damage_burst``
    (exact mean damage per hit without / with a full Trion Burst, WT-DMG-4) and
    ``expected_damage`` / ``expected_damage_burst`` (× ``hit``).

    Win rate: ``battle = {"setup": battle_new args, "team": i, "member": j, "n": battles,
    "seed": s, "policy" or "policies": …}`` puts each build in member ``j`` of team
    ``i`` (keeping its name) and plays ``n`` battles with ``world_trigger.simulate_battles``
    (the same seed for every build): columns ``battles``, ``win_rate``, ``draw_rate``,
    ``mean_rounds``.

    ``executor``: None (serial, this process), a ``concurrent.futures`` executor
    (``ProcessPoolExecutor``: one build chunk per task) or a Dask ``distributed.Client``
    (the same code on a ``LocalCluster`` or a real cluster). ``chunk_size`` builds per
    task (default 256, or 8 with battles). ``progress``: a tqdm bar (default: shown
    from 500 builds, or with battles). A bad build raises :class:`GunbaiError` from any
    executor, with its ``code`` and ``field``.
    """
    items = list(builds.items()) if isinstance(builds, Mapping) else [(str(n), s) for n, s in builds]
    if not items:
        raise GunbaiError("invalid_argument", "builds: give at least one sheet", "builds")
    if hit_stat not in WT_STATS:
        raise GunbaiError("invalid_argument", f"hit_stat: one of {', '.join(WT_STATS)}, not {hit_stat!r}", "hit_stat")
    if isinstance(opponent, Mapping) and "points" in opponent:
        if reaction_stat not in WT_STATS:
            raise GunbaiError(
                "invalid_argument",
                f"reaction_stat: name the opponent sheet's reaction stat, one of {', '.join(WT_STATS)}",
                "reaction_stat",
            )
        ch = call("world_trigger.create_character", sheet=dict(opponent), data=data)
        reaction = {"dice": int(ch["stats"].get(reaction_stat, 0)), "tactics_dice": 0, "extra_dice": 0}
    else:
        reaction = _pool(opponent)
    battle_cfg: Optional[dict[str, Any]] = None
    if battle is not None:
        missing = [k for k in ("setup", "team", "member", "n") if k not in battle]
        if missing:
            raise GunbaiError("invalid_argument", f"battle: missing {', '.join(missing)}", f"battle.{missing[0]}")
        battle_cfg = {**battle, "seed": int(battle.get("seed", 0))}
    config = {
        "hit_stat": hit_stat,
        "reaction": reaction,
        "tactics_dice": tactics_dice,
        "special_attack_lv": special_attack_lv,
        "data": data,
        "battle": battle_cfg,
    }
    size = chunk_size or (8 if battle is not None else 256)
    if size < 1:
        raise GunbaiError("invalid_argument", "chunk_size: at least 1", "chunk_size")
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    bar = _progress(len(items), progress, battle is not None)
    results: list[Optional[list[dict[str, Any]]]] = [None] * len(chunks)
    try:
        ex = _executor(executor)
        if ex is None:
            for i, chunk in enumerate(chunks):
                results[i] = score_builds(chunk, config)
                if bar is not None:
                    bar.update(len(chunk))
        else:
            futures = {ex.submit(score_builds, chunk, config): i for i, chunk in enumerate(chunks)}
            try:
                for f in concurrent.futures.as_completed(futures):
                    i = futures[f]
                    results[i] = f.result()
                    if bar is not None:
                        bar.update(len(chunks[i]))
            finally:
                for f in futures:
                    f.cancel()
    finally:
        if bar is not None:
            bar.close()
    rows = [row for chunk_rows in results for row in (chunk_rows or [])]
    return pd.DataFrame(rows).set_index("build")


def plot_sweep(
    table: pd.DataFrame,
    x: str = "expected_damage",
    y: str = "win_rate",
    ax: Optional[matplotlib.axes.Axes] = None,
    *,
    top: int = 5,
    n: Optional[int] = None,
) -> matplotlib.axes.Axes:
    """Each build as a dot (``x`` against ``y``), the ``top`` builds by ``y`` labelled.
    When ``y`` is a rate over ``n`` simulated battles per build (``win_rate``,
    ``draw_rate``), give ``n`` to draw each dot's 95% Wilson interval.
    Returns the matplotlib ``Axes``."""
    from .analysis_rulesets import _axes, _errorbar

    ax = _axes(ax, (7.0, 5.0))
    xs, ys = table[x].to_numpy(dtype="float64"), table[y].to_numpy(dtype="float64")
    if n is None:
        ax.scatter(xs, ys, s=12, alpha=0.6)
    else:
        _errorbar(ax, xs, ys, n, fmt="o", markersize=3.5, alpha=0.6, capsize=2, label=f"{y}, 95% interval (n={n})")
        ax.legend(fontsize=7)
    for name, row in table.nlargest(top, y).iterrows():
        ax.annotate(str(name), (float(row[x]), float(row[y])), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.grid(alpha=0.3)
    return ax
