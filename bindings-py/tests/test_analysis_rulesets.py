"""gunbai.analysis helpers for TMD, CoC 7th (and its house combat), coc_ap and FAP/MAP:
exact values derived from RULES.md / RULINGS.md by hand, and exact against sampled odds
(fixed seeds; each bound is 5 standard errors of the sample)."""

from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import gunbai  # noqa: E402
from gunbai import analysis  # noqa: E402


def _within_5_se(sampled: float, exact: float, n: int) -> bool:
    return abs(sampled - exact) <= 5 * math.sqrt(max(exact * (1 - exact), 1e-12) / n) + 1e-12


# ------------------------------------------------------------ TMD initiative (TMD-INI-1/2)


def c(id_: str, side: str, base: int) -> dict:
    return {"id": id_, "side": side, "base_initiative": base}


def test_tmd_two_combatants_by_hand() -> None:
    # Different sides, equal bases: by symmetry (ties re-rolled until they differ) 1/2 each.
    t = analysis.tmd_initiative_odds([c("a", "pc", 0), c("b", "npc", 0)])
    assert t.to_numpy() == pytest.approx(np.full((2, 2), 0.5))
    # One side, equal bases: a tie (10 of 100 roll pairs) keeps the given order, so a goes
    # first with 45/100 (a rolls higher) + 10/100 = 0.55.
    t = analysis.tmd_initiative_odds([c("a", "pc", 0), c("b", "pc", 0)])
    assert t.loc["a", 0] == pytest.approx(0.55) and t.loc["b", 0] == pytest.approx(0.45)
    # a base 3, b base 0, different sides: b is ahead when its d10 beats a's by 4..9
    # (6+5+4+3+2+1 = 21 of 100 pairs), tied when by exactly 3 (7 pairs, then 1/2 each).
    t = analysis.tmd_initiative_odds([c("a", "pc", 3), c("b", "npc", 0)])
    assert t.loc["b", 0] == pytest.approx(0.21 + 0.07 / 2)
    assert t.loc["a", 0] == pytest.approx(1 - 0.245)
    # Bases 10 apart: never tied, never passed.
    t = analysis.tmd_initiative_odds([c("slow", "x", 0), c("fast", "y", 10)])
    assert t.loc["fast", 0] == pytest.approx(1.0) and t.loc["slow", 1] == pytest.approx(1.0)
    assert t.loc["fast", 1] == 0.0 and t.loc["slow", 0] == 0.0


@pytest.mark.parametrize(
    "combatants",
    [
        # The notebook's party: cross-side ties at equal bases, and a same-side pair.
        [c("ace", "pc", 6), c("medic", "pc", 3), c("boss", "enemy", 6), c("grunt", "enemy", 2)],
        # Three-way ties mixing one side's pair with another side (TMD-INI-2's side runs).
        [c("a", "pc", 0), c("b", "pc", 0), c("c", "npc", 0)],
        [c("a", "pc", 1), c("b", "npc", 0), c("c", "pc", 0), c("d", "npc", 1), c("e", "third", 0)],
    ],
)
def test_tmd_exact_against_sampled(combatants: list) -> None:
    exact = analysis.tmd_initiative_odds(combatants)
    k = len(combatants)
    assert exact.sum(axis=1).to_numpy() == pytest.approx(np.ones(k))
    assert exact.sum(axis=0).to_numpy() == pytest.approx(np.ones(k))
    n = 200_000
    pos = gunbai.tmd.simulate_initiative(combatants=combatants, n=n, seed=2026).reshape(n, k)
    for j in range(k):
        for q in range(k):
            sampled = float((pos[:, j] == q).mean())
            e = float(exact.iloc[j, q])
            assert _within_5_se(sampled, e, n), (combatants[j]["id"], q, sampled, e)


def test_tmd_odds_limits_and_errors() -> None:
    # The bound the module names is the core's (tmd.initiative_odds): 8 in, 9 refused.
    k = analysis.TMD_MAX_EXACT_COMBATANTS
    full = analysis.tmd_initiative_odds([c(f"c{i}", "xy"[i % 2], i % 3) for i in range(k)])
    assert full.shape == (k, k) and full.sum(axis=1).to_numpy() == pytest.approx(np.ones(k))
    with pytest.raises(gunbai.GunbaiError) as e:
        analysis.tmd_initiative_odds([c(f"c{i}", "x", 0) for i in range(k + 1)])
    assert (e.value.code, e.value.field) == ("limit_exceeded", "combatants")
    with pytest.raises(gunbai.GunbaiError) as e:
        analysis.tmd_initiative_odds([c("a", "x", 0), c("a", "y", 0)])
    assert e.value.code == "invalid_argument" and e.value.field == "combatants[1].id"
    ax = analysis.plot_tmd_initiative(analysis.tmd_initiative_odds([c("a", "pc", 0), c("b", "npc", 1)]))
    assert isinstance(ax, matplotlib.axes.Axes)


# ------------------------------------------------------------ CoC 7th edition


def test_coc7_success_table_labels_match_their_rows() -> None:
    # The issue: labels were assigned after the table was sorted by skill, so
    # "Spot Hidden 65" showed skill 20's row. Given out of order on purpose.
    investigator = {"Spot Hidden": 65, "Library Use": 70, "Dodge": 35, "Firearms (Handgun)": 45, "Psychology": 20}
    t = analysis.coc7_success_table(investigator, (-1, 0, 1))
    assert list(t.index) == [f"{k} {v}" for k, v in investigator.items()]
    for (name, skill), label in zip(investigator.items(), t.index):
        assert label == f"{name} {skill}"
        # No bonus dice: a regular success is d100 <= skill (C7 checks, RULINGS).
        assert t.loc[label, 0] == pytest.approx(skill / 100)
        for b in (-1, 1):
            assert t.loc[label, b] == gunbai.coc7.distribution(skill=skill, bonus_dice=b)["success"]
    # The figure: each y tick label sits on the row whose numbers are drawn beside it.
    ax = analysis.plot_heatmap(t, title="x")
    ticks = [tl.get_text() for tl in ax.get_yticklabels()]
    assert ticks == list(t.index)
    cells = {(round(txt.get_position()[1]), round(txt.get_position()[0])): txt.get_text() for txt in ax.texts}
    for i, label in enumerate(ticks):
        for j in range(t.shape[1]):
            assert cells[(i, j)] == f"{t.loc[label].iloc[j]:.0%}"
    # A plain list keeps the given order too.
    assert list(analysis.coc7_success_table([65, 20], (0,)).index) == [65, 20]


def test_coc7_opposed_exact_against_sampled() -> None:
    t = analysis.coc7_opposed_table({"knife 60": 60, "fist 25": 25}, [40, 80], b_bonus_dice=1)
    assert list(t.index) == ["knife 60", "fist 25"] and list(t.columns) == [40, 80]
    assert t.loc["knife 60", 80] == gunbai.coc7.opposed_chance(
        a={"skill": 60, "bonus_dice": 0}, b={"skill": 80, "bonus_dice": 1}
    )["a"]
    odds = analysis.coc7_opposed_odds(60, {"skill": 40, "bonus_dice": -1})
    n = 4000
    winners = pd.Series(
        [gunbai.coc7.opposed(a={"skill": 60}, b={"skill": 40, "bonus_dice": -1}, seed=s)["winner"] for s in range(n)]
    ).value_counts(normalize=True)
    for outcome in ("a", "b", "tie"):
        assert _within_5_se(float(winners.get(outcome, 0.0)), float(odds[outcome]), n), outcome
    assert float(odds[["a", "b", "tie"]].sum()) == pytest.approx(1.0)
    assert isinstance(analysis.plot_coc7_opposed(t), matplotlib.axes.Axes)


def test_c7h_initiative_by_dex() -> None:
    t = analysis.c7h_initiative_table(range(3, 100, 7))
    # RULINGS (coc7_house): initiative = floor(DEX / 5).
    assert t["initiative"].tolist() == [d // 5 for d in range(3, 100, 7)]
    assert isinstance(analysis.plot_c7h_initiative(t), matplotlib.axes.Axes)


# ------------------------------------------------------------ coc_ap, FAP/MAP


def test_coc_ap_table_by_dex() -> None:
    t = analysis.coc_ap_table()
    assert list(t.index) == list(range(3, 19))
    # COCAP-AP-3: AP = 2 + floor(DEX / 6).
    assert t["ap"].tolist() == [2 + d // 6 for d in range(3, 19)]
    bonus = analysis.coc_ap_table([6, 12], ap_bonus=2)
    assert bonus["ap"].tolist() == [5, 6]  # COCAP-AP-4: +2 from an ability
    # RULINGS (coc_ap): the percentile scale divides DEX by 5 first.
    p = analysis.coc_ap_table(dex_scale="percentile")
    assert p["ap"].tolist() == [2 + (d // 5) // 6 for d in range(15, 95, 5)]
    assert isinstance(analysis.plot_coc_ap(t), matplotlib.axes.Axes)


def test_fm_pool_table() -> None:
    t = analysis.fm_pool_table(range(1, 6), (0, 4, 9))
    # RULINGS (fap_map): FAP = Reaction, MAP = Magic unless a trait says otherwise.
    for (r, m), row in t.iterrows():
        assert (row["fap"], row["map"]) == (r, m)
        assert (row["fap_tenths"], row["map_tenths"]) == (10 * r, 10 * m)
    assert isinstance(analysis.plot_fm_pools(t), matplotlib.axes.Axes)


# ------------------------------------------------------------ intervals around sampled figures


def test_proportion_interval_is_wilsons() -> None:
    # Wilson's 95% interval for 50 of 100 is 0.4038 to 0.5962 (the textbook value);
    # at 0 of 100 the lower end is 0 and the upper z^2 / (n + z^2).
    lo, hi = analysis.proportion_interval([0.5, 0.0, 1.0], 100)
    assert lo[0] == pytest.approx(0.4038, abs=5e-5) and hi[0] == pytest.approx(0.5962, abs=5e-5)
    assert lo[1] == 0.0 and hi[1] == pytest.approx(1.96**2 / (100 + 1.96**2))
    assert hi[2] == pytest.approx(1.0) and lo[2] == pytest.approx(1 - 1.96**2 / (100 + 1.96**2))
    with pytest.raises(ValueError):
        analysis.proportion_interval(0.5, 0)


def test_sampled_dots_carry_their_intervals() -> None:
    # The TMD figure with n draws one error bar per place (matplotlib's errorbar
    # container), and none without it.
    table = analysis.tmd_initiative_odds([c("a", "pc", 0), c("b", "npc", 1)])
    ax = analysis.plot_tmd_initiative(table, sampled=table, n=1000)
    assert len(ax.containers) == 2 * table.shape[1]  # each place's bars and its error bars
    ax = analysis.plot_tmd_initiative(table, sampled=table)
    assert len(ax.containers) == table.shape[1]
    sweep = pd.DataFrame({"expected_damage": [1.0, 2.0], "win_rate": [0.25, 0.5]}, index=["x", "y"])
    ax = analysis.plot_sweep(sweep, n=60)
    (bars,) = ax.containers
    lo, hi = analysis.proportion_interval([0.25, 0.5], 60)
    segments = bars.lines[2][0].get_segments()
    assert [tuple(s[:, 1]) for s in segments] == pytest.approx(list(zip(lo, hi)))
