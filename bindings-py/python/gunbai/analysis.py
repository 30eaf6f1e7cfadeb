"""gunbai.analysis: exact odds tables (pandas), World Trigger build comparison and
sweeps, helpers for every ruleset, plots.

Install with the ``analysis`` extra (``pip install 'gunbai[analysis]'``: numpy,
pandas, matplotlib, tqdm; the ``scale`` extra adds ``dask[distributed]`` for
:func:`wt_build_sweep` on a Dask cluster). Every probability here comes from the core's exact
operations (``world_trigger.success_chance``, ``world_trigger.opposed_chance``,
``world_trigger.distribution``, ``coc7.distribution``) or from enumerating every
face of a single die through the core (damage), never from sampling. Sampling
lives in the batch operations (``gunbai.world_trigger.simulate_checks`` …),
which return numpy arrays; :func:`sample_pmf` turns such an array into a
frequency table to compare with the exact one.

Plot helpers draw on a given matplotlib ``Axes`` (or a new figure) and return
it; matplotlib is imported only when a plot is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np
import pandas as pd

from ._core import GunbaiError, _LazyModule, call
from .analysis_rulesets import (
    TMD_MAX_EXACT_COMBATANTS,
    _errorbar,
    c7h_initiative_table,
    coc7_opposed_odds,
    coc7_opposed_table,
    coc_ap_table,
    fm_pool_table,
    plot_c7h_initiative,
    plot_coc7_opposed,
    plot_coc_ap,
    plot_fm_pools,
    plot_tmd_initiative,
    proportion_interval,
    tmd_initiative_odds,
)
from ._simulate import Simulation, Sweep, sweep
from .analysis_sweep import WT_STATS, plot_sweep, score_builds, wt_allocations, wt_build_sweep

if TYPE_CHECKING:  # pragma: no cover
    import matplotlib.axes
else:
    # Bound at run time too, so that typing.get_type_hints can evaluate the annotations;
    # matplotlib is imported only when one is evaluated or a plot is drawn.
    matplotlib = _LazyModule("matplotlib")

__all__ = [
    "COC7_LEVELS",
    "TYPICAL_REACTIONS",
    "wt_distribution",
    "wt_success_table",
    "wt_opposed_table",
    "wt_expected_table",
    "wt_expected_damage",
    "wt_compare_builds",
    "coc7_level_table",
    "coc7_success_table",
    "sample_pmf",
    "proportion_interval",
    "plot_distributions",
    "plot_success_curves",
    "plot_heatmap",
    "plot_coc7_levels",
    "plot_build_comparison",
    "plot_sample_vs_exact",
    # sweeps of any engine's simulated games (_simulate)
    "Simulation",
    "Sweep",
    "sweep",
    # World Trigger build sweeps (analysis_sweep)
    "WT_STATS",
    "wt_allocations",
    "wt_build_sweep",
    "score_builds",
    "plot_sweep",
    # the other rulesets (analysis_rulesets)
    "TMD_MAX_EXACT_COMBATANTS",
    "tmd_initiative_odds",
    "plot_tmd_initiative",
    "coc7_opposed_odds",
    "coc7_opposed_table",
    "plot_coc7_opposed",
    "c7h_initiative_table",
    "plot_c7h_initiative",
    "coc_ap_table",
    "plot_coc_ap",
    "fm_pool_table",
    "plot_fm_pools",
]

#: CoC 7th-edition levels, best first (the keys of ``coc7.distribution``'s ``levels``).
#: ``coc7.simulate_checks`` codes them as 5 (critical) … 0 (fumble).
COC7_LEVELS: tuple[str, ...] = ("critical", "extreme", "hard", "regular", "failure", "fumble")

#: Illustrative reaction pools for :func:`wt_compare_builds` (dice, tactics dice).
#: The seed does not say which stat a dodge or defense check uses (RULES gap 19),
#: so a reaction is described by its dice pool.
TYPICAL_REACTIONS: dict[str, dict[str, int]] = {
    "weak reaction (3 dice)": {"dice": 3},
    "average reaction (5 dice)": {"dice": 5},
    "strong reaction (8 dice)": {"dice": 8},
    "strong + 2 tactics (8+2 dice)": {"dice": 8, "tactics_dice": 2},
}

_STATS = WT_STATS  # WT-CC-4, the core's WtStat

# ---------------------------------------------------------------- World Trigger odds


def wt_distribution(dice: int, tactics_dice: int = 0, extra_dice: int = 0) -> pd.Series:
    """Exact achievement distribution of one pool: a Series achievement → probability."""
    r = call("world_trigger.distribution", dice=dice, tactics_dice=tactics_dice, extra_dice=extra_dice)
    values = [int(v) for v, _ in r["pmf"]]
    probs = [float(p) for _, p in r["pmf"]]
    s = pd.Series(probs, index=pd.Index(values, name="achievement"), name=f"{dice + tactics_dice + extra_dice} dice")
    return s


def wt_success_table(
    dice: Iterable[int] = range(1, 11),
    targets: Iterable[int] = (5, 10, 15, 20, 25, 30),
    *,
    tactics_dice: int = 0,
    extra_dice: int = 0,
) -> pd.DataFrame:
    """P(achievement ≥ target) by stat dice (rows) × target (columns), exact (WT-CHK-5)."""
    dice_l, targets_l = list(dice), list(targets)
    data = [
        [
            float(
                call("world_trigger.success_chance", dice=d, target=t, tactics_dice=tactics_dice, extra_dice=extra_dice)[
                    "probability"
                ]
            )
            for t in targets_l
        ]
        for d in dice_l
    ]
    return pd.DataFrame(
        data, index=pd.Index(dice_l, name="dice"), columns=pd.Index(targets_l, name="target"), dtype="float64"
    )


def wt_opposed_table(
    actor_dice: Iterable[int] = range(1, 11),
    reactor_dice: Iterable[int] = range(1, 11),
    *,
    actor_tactics_dice: int = 0,
    reactor_tactics_dice: int = 0,
    actor_extra_dice: int = 0,
    reactor_extra_dice: int = 0,
) -> pd.DataFrame:
    """P(actor wins) by actor dice (rows) × reactor dice (columns), exact (WT-OPP-3: ties to the actor)."""
    a_l, r_l = list(actor_dice), list(reactor_dice)
    data = [
        [
            float(
                call("world_trigger.opposed_chance",
                    actor_dice=a,
                    reactor_dice=r,
                    actor_tactics_dice=actor_tactics_dice,
                    reactor_tactics_dice=reactor_tactics_dice,
                    actor_extra_dice=actor_extra_dice,
                    reactor_extra_dice=reactor_extra_dice,
                )["probability"]
            )
            for r in r_l
        ]
        for a in a_l
    ]
    return pd.DataFrame(
        data, index=pd.Index(a_l, name="actor_dice"), columns=pd.Index(r_l, name="reactor_dice"), dtype="float64"
    )


def wt_expected_table(max_dice: int = 10) -> pd.DataFrame:
    """Mean achievement and mean per die for 1…max_dice dice (``world_trigger.expected_table``)."""
    rows = call("world_trigger.expected_table", max_dice=max_dice)["rows"]
    df = pd.DataFrame(rows).set_index("dice")
    return df[["mean", "mean_per_die"]].astype("float64")


def wt_expected_damage(
    attack: int,
    *,
    burst: int = 0,
    trion_stat: int = 0,
    special_attack_lv: int = 0,
    modifier: int = 0,
    variants: Optional[Mapping[str, Any]] = None,
) -> float:
    """Exact mean damage of one hit (``world_trigger.damage_odds``: ``world_trigger.damage``
    on every face of its die)."""
    return float(
        call("world_trigger.damage_odds",
            attack=attack,
            burst=burst,
            trion_stat=trion_stat,
            special_attack_lv=special_attack_lv,
            modifier=modifier,
            variants=variants,
        )["mean"]
    )


def _pool(spec: Union[int, Mapping[str, int]]) -> dict[str, int]:
    if isinstance(spec, Mapping):
        return {
            "dice": int(spec.get("dice", 0)),
            "tactics_dice": int(spec.get("tactics_dice", 0)),
            "extra_dice": int(spec.get("extra_dice", 0)),
        }
    return {"dice": int(spec), "tactics_dice": 0, "extra_dice": 0}


def wt_compare_builds(
    builds: Mapping[str, Mapping[str, Any]],
    *,
    hit_stat: Union[str, Mapping[str, str]] = "technique",
    reactions: Optional[Mapping[str, Union[int, Mapping[str, int]]]] = None,
    tactics_dice: int = 0,
    special_attack_lv: int = 0,
    data: Any = None,
) -> pd.DataFrame:
    """Compare World Trigger combatant sheets, one row per build.

    Each sheet is created with ``world_trigger.create_character`` (invalid
    sheets raise :class:`gunbai.GunbaiError` listing every violation). Columns:

    * the eight final stats, ``base_trion`` and ``starting_trion`` (WT-DER-2/3), ``movement``;
    * ``hit_stat``/``hit_dice``: the stat the attack's hit check uses (the seed
      leaves it to each skill's missing data, so you name it; default Technique);
    * ``burst``: the largest Trion Burst, min(Trion, 10) (WT-DMG-4);
    * ``damage``/``damage_burst``: exact mean damage per hit without / with that burst;
    * ``hit: <reaction>``: exact chance the hit check (stat + ``tactics_dice`` +
      ``special_attack_lv`` dice, WT-DMG-5) beats each reaction pool (WT-HIT-1, ties hit);
    * ``dmg/attack: <reaction>`` and ``dmg/attack+burst: <reaction>``: hit chance × mean damage.

    ``reactions`` maps a name to a dice count or ``{"dice", "tactics_dice",
    "extra_dice"}``; default :data:`TYPICAL_REACTIONS` (illustrative pools).
    """
    reactions = TYPICAL_REACTIONS if reactions is None else reactions
    if not builds:
        raise GunbaiError("invalid_argument", "builds: give at least one sheet to compare", "builds")
    rows: list[dict[str, Any]] = []
    for name, sheet in builds.items():
        ch = call("world_trigger.create_character", sheet=dict(sheet), data=data)
        stats = {k: int(ch["stats"].get(k, 0)) for k in _STATS}
        derived = ch["derived"]
        if isinstance(hit_stat, str):
            stat = hit_stat
        elif name in hit_stat:
            stat = hit_stat[name]
        else:
            raise GunbaiError("invalid_argument", f"hit_stat: no stat given for build {name!r}", "hit_stat")
        if stat not in stats:
            raise GunbaiError(
                "invalid_argument", f"hit_stat: unknown stat {stat!r} (one of {', '.join(_STATS)})", "hit_stat"
            )
        plain = call("world_trigger.damage_odds",
            attack=stats["attack"], trion_stat=stats["trion"], special_attack_lv=special_attack_lv
        )
        burst = int(plain["max_burst"])  # WT-DMG-4, from the core
        dmg = float(plain["mean"])
        dmg_burst = wt_expected_damage(
            stats["attack"], burst=burst, trion_stat=stats["trion"], special_attack_lv=special_attack_lv
        )
        row: dict[str, Any] = {"build": name, "position": ch["position"], **stats}
        row.update(
            base_trion=int(derived["base_trion"]),
            starting_trion=int(derived["starting_trion"]),
            movement=int(derived["movement"]),
            hit_stat=stat,
            hit_dice=stats[stat],
            burst=burst,
            damage=dmg,
            damage_burst=dmg_burst,
        )
        for rname, spec in reactions.items():
            pool = _pool(spec)
            p = float(
                call("world_trigger.opposed_chance",
                    actor_dice=stats[stat],
                    actor_tactics_dice=tactics_dice,
                    actor_extra_dice=special_attack_lv,
                    reactor_dice=pool["dice"],
                    reactor_tactics_dice=pool["tactics_dice"],
                    reactor_extra_dice=pool["extra_dice"],
                )["probability"]
            )
            row[f"hit: {rname}"] = p
            row[f"dmg/attack: {rname}"] = p * dmg
            row[f"dmg/attack+burst: {rname}"] = p * dmg_burst
        rows.append(row)
    return pd.DataFrame(rows).set_index("build")


# ---------------------------------------------------------------- CoC 7th edition


def coc7_level_table(
    skills: Iterable[int] = range(10, 100, 10),
    bonus_dice: Iterable[int] = (-2, -1, 0, 1, 2),
    *,
    difficulty: str = "regular",
    rule: int = 0,
) -> pd.DataFrame:
    """Exact chance of each level by (skill, bonus_dice) rows; columns :data:`COC7_LEVELS` + ``success``.

    Negative ``bonus_dice`` are penalty dice; ``success`` meets ``difficulty``.
    """
    index: list[tuple[int, int]] = []
    data: list[list[float]] = []
    for s in skills:
        for b in bonus_dice:
            r = call("coc7.distribution", skill=s, bonus_dice=b, difficulty=difficulty, rule=rule)
            index.append((int(s), int(b)))
            data.append([float(r["levels"][lv]) for lv in COC7_LEVELS] + [float(r["success"])])
    return pd.DataFrame(
        data,
        index=pd.MultiIndex.from_tuples(index, names=["skill", "bonus_dice"]),
        columns=[*COC7_LEVELS, "success"],
        dtype="float64",
    )


def coc7_success_table(
    skills: Union[Iterable[int], Mapping[str, int]] = range(10, 100, 10),
    bonus_dice: Iterable[int] = (-2, -1, 0, 1, 2),
    *,
    difficulty: str = "regular",
    rule: int = 0,
) -> pd.DataFrame:
    """Exact success chance by skill (rows, in the given order) × bonus dice (columns).

    ``skills`` is a list of skill values, or a mapping of names to skill values
    (``{"Spot Hidden": 65, …}``): then each row is labelled with its name and value
    (``"Spot Hidden 65"``), paired with its own row, never by position after sorting.
    """
    labels: list[Any]
    if isinstance(skills, Mapping):
        values = [int(v) for v in skills.values()]
        labels = [f"{k} {v}" for k, v in zip(skills.keys(), values)]
    else:
        values = [int(s) for s in skills]
        labels = list(values)
    bonus_l = [int(b) for b in bonus_dice]
    rows = [
        [
            float(call("coc7.distribution", skill=v, bonus_dice=b, difficulty=difficulty, rule=rule)["success"])
            for b in bonus_l
        ]
        for v in values
    ]
    return pd.DataFrame(
        rows,
        index=pd.Index(labels, name="skill"),
        columns=pd.Index(bonus_l, name="bonus_dice"),
        dtype="float64",
    )


# ---------------------------------------------------------------- samples


def sample_pmf(samples: Any) -> pd.Series:
    """Relative frequency of each value in a batch result (e.g. ``simulate_checks``)."""
    arr = np.asarray(samples)
    values, counts = np.unique(arr, return_counts=True)
    total = counts.sum() if counts.size else 1
    return pd.Series(counts / total, index=pd.Index(values.astype("int64"), name="value"), dtype="float64")


# ---------------------------------------------------------------- plots


def _axes(ax: Optional[matplotlib.axes.Axes], figsize: tuple[float, float] = (7.0, 4.0)) -> matplotlib.axes.Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new_ax = plt.subplots(figsize=figsize)
    return new_ax


def plot_distributions(pmfs: Union[Mapping[str, pd.Series], Sequence[pd.Series]], ax: Optional[matplotlib.axes.Axes] = None) -> matplotlib.axes.Axes:
    """Step lines of exact distributions (from :func:`wt_distribution`)."""
    ax = _axes(ax)
    items = pmfs.items() if isinstance(pmfs, Mapping) else ((str(s.name), s) for s in pmfs)
    for label, s in items:
        ax.plot(s.index.to_numpy(), s.to_numpy(), drawstyle="steps-mid", label=label)
    ax.set_xlabel("achievement")
    ax.set_ylabel("probability")
    ax.legend()
    return ax


def plot_success_curves(table: pd.DataFrame, ax: Optional[matplotlib.axes.Axes] = None) -> matplotlib.axes.Axes:
    """One line per column of a :func:`wt_success_table` (chance vs dice)."""
    ax = _axes(ax)
    for col in table.columns:
        ax.plot(table.index.to_numpy(), table[col].to_numpy(), marker="o", label=f"target {col}")
    ax.set_xlabel(str(table.index.name or "dice"))
    ax.set_ylabel("success chance")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.grid(alpha=0.3)
    return ax


def plot_heatmap(table: pd.DataFrame, ax: Optional[matplotlib.axes.Axes] = None, *, title: Optional[str] = None, fmt: str = "{:.0%}") -> matplotlib.axes.Axes:
    """A probability table as an annotated heat map (rows × columns)."""
    ax = _axes(ax, (7.0, 6.0))
    values = table.to_numpy(dtype="float64")
    im = ax.imshow(values, cmap="viridis", vmin=0.0, vmax=1.0, origin="lower", aspect="auto")
    ax.set_xticks(range(len(table.columns)), [str(c) for c in table.columns])
    ax.set_yticks(range(len(table.index)), [str(i) for i in table.index])
    ax.set_xlabel(str(table.columns.name or ""))
    ax.set_ylabel(str(table.index.name or ""))
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values[i, j]
            ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=7, color="white" if v < 0.6 else "black")
    ax.figure.colorbar(im, ax=ax)
    if title:
        ax.set_title(title)
    return ax


def plot_coc7_levels(table: pd.DataFrame, ax: Optional[matplotlib.axes.Axes] = None) -> matplotlib.axes.Axes:
    """Stacked bars of level chances, one bar per row of a :func:`coc7_level_table`."""
    ax = _axes(ax, (8.0, 4.0))
    labels = [", ".join(str(x) for x in (i if isinstance(i, tuple) else (i,))) for i in table.index]
    bottom = np.zeros(len(table))
    for lv in COC7_LEVELS:
        v = table[lv].to_numpy(dtype="float64")
        ax.bar(range(len(table)), v, bottom=bottom, label=lv)
        bottom += v
    ax.set_xticks(range(len(table)), labels, rotation=45, ha="right")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ax


def plot_build_comparison(table: pd.DataFrame, ax: Optional[matplotlib.axes.Axes] = None, *, prefix: str = "hit: ") -> matplotlib.axes.Axes:
    """Grouped bars of the ``<prefix>…`` columns of :func:`wt_compare_builds`, one group per build."""
    ax = _axes(ax, (8.0, 4.0))
    cols = [c for c in table.columns if str(c).startswith(prefix)]
    width = 0.8 / max(len(cols), 1)
    x = np.arange(len(table))
    for k, c in enumerate(cols):
        ax.bar(x + k * width - 0.4 + width / 2, table[c].to_numpy(dtype="float64"), width, label=str(c)[len(prefix) :])
    ax.set_xticks(x, [str(i) for i in table.index])
    ax.set_ylabel(prefix.rstrip(": ").strip() or "value")
    ax.legend(fontsize=7)
    return ax


def plot_sample_vs_exact(samples: Any, exact: pd.Series, ax: Optional[matplotlib.axes.Axes] = None) -> matplotlib.axes.Axes:
    """Batch-simulation frequencies (bars, with each one's 95% Wilson interval) against the
    exact distribution (line)."""
    ax = _axes(ax)
    freq = sample_pmf(samples)
    n = int(np.asarray(samples).size)
    ax.bar(freq.index.to_numpy(), freq.to_numpy(), width=1.0, alpha=0.5, label=f"simulated (n={n:,})")
    if n:
        _errorbar(ax, freq.index, freq, n, fmt="none", ecolor="C0", capsize=1.5, label="95% interval")
    ax.plot(exact.index.to_numpy(), exact.to_numpy(), color="black", drawstyle="steps-mid", label="exact")
    ax.set_xlabel("value")
    ax.set_ylabel("probability")
    ax.legend()
    return ax
