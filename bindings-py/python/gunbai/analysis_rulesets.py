"""Analysis helpers for TMD, Call of Cthulhu (7th edition, its house combat, 6th-edition AP)
and FAP/MAP: exact tables as pandas objects, each with a plot helper returning a
matplotlib ``Axes``. Re-exported by :mod:`gunbai.analysis` (use them from there).

Every number comes from the core's operations (no rule is computed here); nothing here
samples. The sampled counterparts are the batch operations (``tmd.simulate_initiative``,
``coc7.simulate_checks``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np
import pandas as pd

from ._core import GunbaiError, _LazyModule, call

if TYPE_CHECKING:  # pragma: no cover
    import matplotlib.axes
else:
    # Bound at run time too, so that typing.get_type_hints can evaluate the annotations;
    # matplotlib is imported only when one is evaluated or a plot is drawn.
    matplotlib = _LazyModule("matplotlib")

__all__ = [
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

#: Most combatants :func:`tmd_initiative_odds` takes: the bound of ``tmd.initiative_odds``
#: (every subset of the others may tie with a combatant: the work grows as 2^k · k!).
TMD_MAX_EXACT_COMBATANTS = 8


def _axes(ax: Optional[matplotlib.axes.Axes], figsize: tuple[float, float] = (7.0, 4.0)) -> matplotlib.axes.Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new_ax = plt.subplots(figsize=figsize)
    return new_ax


def proportion_interval(p: Any, n: int, z: float = 1.96) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of sampled proportions ``p`` (scalar or array) over ``n``
    independent trials: ``(low, high)`` arrays. ``z`` = 1.96 gives 95%. Used to draw
    intervals around simulated frequencies; it stays inside [0, 1] at 0 and 1."""
    q = np.asarray(p, dtype="float64")
    if n <= 0:
        raise ValueError("n must be positive")
    z2 = z * z
    centre = (q + z2 / (2 * n)) / (1 + z2 / n)
    half = z * np.sqrt(q * (1 - q) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def _errorbar(ax: matplotlib.axes.Axes, x: Any, p: Any, n: int, **kw: Any) -> None:
    """Draw ``p`` at ``x`` with its 95% Wilson interval over ``n`` trials."""
    q = np.asarray(p, dtype="float64")
    lo, hi = proportion_interval(q, n)
    ax.errorbar(np.asarray(x, dtype="float64"), q, yerr=np.vstack([q - lo, hi - q]), **kw)


# ---------------------------------------------------------------- TMD initiative


def tmd_initiative_odds(combatants: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Exact chance of each combatant acting at each place of the initiative order
    (``tmd.initiative_odds``: TMD-INI-1/2 summed over every d10 face by the core).

    ``combatants`` as for ``tmd.initiative`` (``id``, ``side``, ``base_initiative``;
    validated by the core). Rows are combatant ids (given order), columns the place
    (0 acts first); each row and each column sums to 1. Compare with
    ``tmd.simulate_initiative``. At most :data:`TMD_MAX_EXACT_COMBATANTS` (more is the
    core's ``limit_exceeded``: sample with ``tmd.simulate_initiative``).
    """
    r = call("tmd.initiative_odds", combatants=list(combatants))
    rows = r["odds"]
    return pd.DataFrame(
        [[float(p) for p in row["places"]] for row in rows],
        index=pd.Index([str(row["id"]) for row in rows], name="combatant"),
        columns=pd.Index(range(len(rows)), name="place"),
        dtype="float64",
    )


def plot_tmd_initiative(
    table: pd.DataFrame,
    ax: Optional[matplotlib.axes.Axes] = None,
    *,
    sampled: Optional[pd.DataFrame] = None,
    n: Optional[int] = None,
) -> matplotlib.axes.Axes:
    """Grouped bars of :func:`tmd_initiative_odds` (one group per combatant, one bar per
    place); ``sampled`` (the same shape, e.g. from ``tmd.simulate_initiative``) adds dots,
    with their 95% intervals when ``n`` (the number of sampled orders) is given."""
    ax = _axes(ax, (8.0, 4.0))
    k = table.shape[1]
    width = 0.8 / max(k, 1)
    x = np.arange(len(table))
    for q in range(k):
        xs = x + q * width - 0.4 + width / 2
        ax.bar(xs, table.iloc[:, q].to_numpy(dtype="float64"), width, label=f"place {table.columns[q]}")
        if sampled is not None:
            label = ("sampled" if n is None else "sampled, 95% interval") if q == 0 else None
            if n is None:
                ax.plot(xs, sampled.iloc[:, q].to_numpy(dtype="float64"), "k.", label=label)
            else:
                _errorbar(ax, xs, sampled.iloc[:, q], n, fmt="k.", capsize=2, label=label)
    ax.set_xticks(x, [str(i) for i in table.index])
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7)
    return ax


# ---------------------------------------------------------------- CoC 7th edition


def _side(spec: Union[int, Mapping[str, int]]) -> dict[str, int]:
    if isinstance(spec, Mapping):
        return {"skill": int(spec["skill"]), "bonus_dice": int(spec.get("bonus_dice", 0))}
    return {"skill": int(spec), "bonus_dice": 0}


def coc7_opposed_odds(
    a: Union[int, Mapping[str, int]], b: Union[int, Mapping[str, int]], *, rule: int = 0
) -> pd.Series:
    """Exact odds of one opposed check (``coc7.opposed_chance``): ``a``, ``b``, ``tie``,
    ``both_failed``. A side is a skill or ``{"skill", "bonus_dice"}``."""
    r = call("coc7.opposed_chance", a=_side(a), b=_side(b), rule=rule)
    return pd.Series({k: float(r[k]) for k in ("a", "b", "tie", "both_failed")}, dtype="float64")


def coc7_opposed_table(
    a_skills: Union[Iterable[int], Mapping[str, int]] = range(10, 100, 10),
    b_skills: Union[Iterable[int], Mapping[str, int]] = range(10, 100, 10),
    *,
    a_bonus_dice: int = 0,
    b_bonus_dice: int = 0,
    rule: int = 0,
    outcome: str = "a",
) -> pd.DataFrame:
    """Exact chance of ``outcome`` (``a`` wins, ``b``, ``tie``, ``both_failed``) by a's
    skill (rows) × b's skill (columns). A mapping of name → skill labels the rows or
    columns with its names, in its order."""
    if outcome not in ("a", "b", "tie", "both_failed"):
        raise GunbaiError("invalid_argument", f"outcome: one of a, b, tie, both_failed, not {outcome!r}", "outcome")
    rows = _labelled(a_skills)
    cols = _labelled(b_skills)
    data = [
        [
            float(
                call(
                    "coc7.opposed_chance",
                    a={"skill": s, "bonus_dice": a_bonus_dice},
                    b={"skill": t, "bonus_dice": b_bonus_dice},
                    rule=rule,
                )[outcome]
            )
            for _, t in cols
        ]
        for _, s in rows
    ]
    return pd.DataFrame(
        data,
        index=pd.Index([n for n, _ in rows], name="a skill"),
        columns=pd.Index([n for n, _ in cols], name="b skill"),
        dtype="float64",
    )


def _labelled(skills: Union[Iterable[int], Mapping[str, int]]) -> list[tuple[Any, int]]:
    """(label, skill) pairs in the given order: a mapping's names, else the skills."""
    if isinstance(skills, Mapping):
        return [(str(k), int(v)) for k, v in skills.items()]
    return [(int(s), int(s)) for s in skills]


def plot_coc7_opposed(table: pd.DataFrame, ax: Optional[matplotlib.axes.Axes] = None) -> matplotlib.axes.Axes:
    """A :func:`coc7_opposed_table` as an annotated heat map."""
    from .analysis import plot_heatmap

    return plot_heatmap(table, ax, title="CoC7 opposed check: chance a wins")


def c7h_initiative_table(dex: Iterable[int] = range(15, 100, 5), *, modifier: int = 0) -> pd.DataFrame:
    """CoC 7th house-rule initiative by DEX (``coc7_house.initiative``: floor(DEX ÷ 5)
    + modifier, RULINGS)."""
    dex_l = [int(d) for d in dex]
    values = [int(call("coc7_house.initiative", dex=d, modifier=modifier)["initiative"]) for d in dex_l]
    return pd.DataFrame({"initiative": values}, index=pd.Index(dex_l, name="dex"))


def plot_c7h_initiative(table: pd.DataFrame, ax: Optional[matplotlib.axes.Axes] = None) -> matplotlib.axes.Axes:
    """Initiative against DEX, a step line."""
    ax = _axes(ax)
    ax.plot(table.index.to_numpy(), table["initiative"].to_numpy(), drawstyle="steps-post", marker=".")
    ax.set_xlabel("DEX")
    ax.set_ylabel("initiative")
    ax.grid(alpha=0.3)
    return ax


# ---------------------------------------------------------------- CoC 6th edition AP


def coc_ap_table(
    dex: Optional[Iterable[int]] = None,
    *,
    ap_bonus: int = 0,
    dex_scale: str = "classic",
) -> pd.DataFrame:
    """Action points per round by DEX (``coc_ap.action_points``): columns ``ap`` and
    ``base``. ``dex_scale`` is the variant (``classic`` DEX 3–18, the default range; or
    ``percentile`` DEX, default range 15–90 by 5)."""
    if dex is None:
        dex = range(3, 19) if dex_scale == "classic" else range(15, 95, 5)
    dex_l = [int(d) for d in dex]
    rows = [
        call("coc_ap.action_points", dex=d, ap_bonus=ap_bonus, variants={"dex_scale": dex_scale}) for d in dex_l
    ]
    return pd.DataFrame(
        {"ap": [int(r["ap"]) for r in rows], "base": [int(r["base"]) for r in rows]},
        index=pd.Index(dex_l, name="dex"),
    )


def plot_coc_ap(table: pd.DataFrame, ax: Optional[matplotlib.axes.Axes] = None) -> matplotlib.axes.Axes:
    """AP against DEX, a step line per column of :func:`coc_ap_table`."""
    ax = _axes(ax)
    for col in table.columns:
        ax.plot(table.index.to_numpy(), table[col].to_numpy(), drawstyle="steps-post", marker=".", label=str(col))
    ax.set_xlabel("DEX")
    ax.set_ylabel("action points per round")
    ax.legend()
    ax.grid(alpha=0.3)
    return ax


# ---------------------------------------------------------------- FAP/MAP


def fm_pool_table(
    reaction: Iterable[int] = range(1, 11),
    magic: Iterable[int] = range(0, 11, 2),
    *,
    traits: Optional[Mapping[str, Any]] = None,
) -> pd.DataFrame:
    """FAP and MAP pools (``fap_map.pools``) for every (reaction, magic) pair: a
    DataFrame indexed by both, columns ``fap``, ``map`` (points) and their tenths."""
    index: list[tuple[int, int]] = []
    rows: list[dict[str, Any]] = []
    for r in reaction:
        for m in magic:
            p = call("fap_map.pools", reaction=int(r), magic=int(m), traits=dict(traits) if traits else None)
            index.append((int(r), int(m)))
            rows.append({k: p[k] for k in ("fap", "map", "fap_tenths", "map_tenths")})
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["reaction", "magic"]))


def plot_fm_pools(table: pd.DataFrame, ax: Optional[matplotlib.axes.Axes] = None) -> matplotlib.axes.Axes:
    """FAP against Reaction and MAP against Magic, from a :func:`fm_pool_table`."""
    ax = _axes(ax)
    fap = table["fap"].groupby(level="reaction").first()
    mp = table["map"].groupby(level="magic").first()
    ax.plot(fap.index.to_numpy(), fap.to_numpy(), marker="o", label="FAP by Reaction")
    ax.plot(mp.index.to_numpy(), mp.to_numpy(), marker="s", label="MAP by Magic")
    ax.set_xlabel("stat")
    ax.set_ylabel("pool (points)")
    ax.legend()
    ax.grid(alpha=0.3)
    return ax
