"""gunbai.analysis and the batch operations (numpy arrays)."""

from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import gunbai  # noqa: E402
from gunbai import analysis  # noqa: E402

KUGA = {
    "name": "Kuga",
    "position": "attacker",
    "leader": True,
    "points": {"trion": 3, "defense_support": 9, "technique": 8},
    "master": "placeholder_master_trion",
    "traits": ["placeholder_l_trait"],
    "triggers": {"main": ["kogetsu", "senku"], "sub": ["shield", "bagworm"]},
}


# ------------------------------------------------------------ batch operations


def test_wt_simulate_checks_element_zero_and_dtype() -> None:
    a = gunbai.world_trigger.simulate_checks(dice=7, n=1000, tactics_dice=2, seed=1)
    assert a.dtype == np.int32 and a.shape == (1000,)
    one = gunbai.world_trigger.check(dice=7, tactics_dice=2, seed=1)
    assert int(a[0]) == one["achievement"]
    assert a.min() >= 9


def test_wt_simulate_checks_matches_exact_distribution() -> None:
    a = gunbai.world_trigger.simulate_checks(dice=3, n=300_000, seed=5)
    exact = analysis.wt_distribution(3)
    freq = analysis.sample_pmf(a).reindex(exact.index, fill_value=0.0)
    assert float((freq - exact).abs().max()) < 0.005
    assert abs(float(a.mean()) - gunbai.world_trigger.distribution(dice=3)["mean"]) < 0.03


def test_wt_simulate_opposed_and_damage() -> None:
    w = gunbai.world_trigger.simulate_opposed(actor_dice=5, reactor_dice=4, n=200_000, seed=2)
    one = gunbai.world_trigger.opposed(actor_dice=5, reactor_dice=4, seed=2)
    assert int(w[0]) == int(one["actor_wins"])
    assert set(np.unique(w).tolist()) <= {0, 1}
    p = gunbai.world_trigger.opposed_chance(actor_dice=5, reactor_dice=4)["probability"]
    assert abs(float(w.mean()) - p) < 0.005
    m = gunbai.world_trigger.simulate_opposed(actor_dice=5, reactor_dice=4, n=10, seed=2, output="margin")
    assert int(m[0]) == one["actor"]["achievement"] - one["reactor"]["achievement"]
    assert ((m >= 0) == (w[:10] == 1)).all()
    d = gunbai.world_trigger.simulate_damage(attack=5, burst=3, trion_stat=4, special_attack_lv=2, n=60_000, seed=3)
    assert int(d[0]) == gunbai.world_trigger.damage(attack=5, burst=3, trion_stat=4, special_attack_lv=2, seed=3)["total"]
    assert d.min() == 11 and d.max() == 16
    assert abs(float(d.mean()) - 13.5) < 0.05


def test_coc7_and_tmd_batches() -> None:
    lv = gunbai.coc7.simulate_checks(skill=60, bonus_dice=-1, n=200_000, seed=4)
    one = gunbai.coc7.check(skill=60, bonus_dice=-1, seed=4)
    codes = {lvl: 5 - k for k, lvl in enumerate(analysis.COC7_LEVELS)}
    assert int(lv[0]) == codes[one["level"]]
    exact = gunbai.coc7.distribution(skill=60, bonus_dice=-1)["levels"]
    for name, code in codes.items():
        assert abs(float((lv == code).mean()) - exact[name]) < 0.005, name
    rolls = gunbai.coc7.simulate_checks(skill=60, n=5, seed=4, output="roll")
    assert int(rolls[0]) == gunbai.coc7.check(skill=60, seed=4)["roll"]
    cs = [
        {"id": "a", "side": "pc", "base_initiative": 3},
        {"id": "b", "side": "npc", "base_initiative": 3},
        {"id": "c", "side": "npc", "base_initiative": 8},
    ]
    pos = gunbai.tmd.simulate_initiative(combatants=cs, n=1000, seed=9).reshape(-1, 3)
    order = [e["id"] for e in gunbai.tmd.initiative(combatants=cs, seed=9)["order"]]
    assert [order.index(c["id"]) for c in cs] == pos[0].tolist()
    assert (np.sort(pos, axis=1) == np.arange(3)).all()
    tot = gunbai.tmd.simulate_initiative(combatants=cs, n=1000, seed=9, output="total").reshape(-1, 3)
    assert tot[:, 2].min() >= 9 and tot[:, 2].max() <= 18


def test_batch_errors() -> None:
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.world_trigger.simulate_checks(dice=1, tactics_dice=21, n=1)
    assert e.value.code == "out_of_range" and e.value.rule == "WT-TD-5"
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.world_trigger.simulate_checks(dice=100, tactics_dice=20, extra_dice=100, n=10**8)
    assert e.value.code == "out_of_range" and e.value.field == "n"  # n's own range: at most 2·10^7
    with pytest.raises(gunbai.GunbaiError) as e:  # 220 dice x 10^7: work across the call
        gunbai.world_trigger.simulate_checks(dice=100, tactics_dice=20, extra_dice=100, n=10**7)
    assert e.value.code == "limit_exceeded" and e.value.field == "n"
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.coc7.simulate_checks(skill=50, n=1, output="nope")
    assert e.value.code == "invalid_argument"
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.world_trigger.simulate_damage(attack=1, burst=5, trion_stat=2, n=1)
    assert e.value.rule == "WT-DMG-4"


# ------------------------------------------------------------ exact tables


def test_wt_success_table_is_exact() -> None:
    t = analysis.wt_success_table(range(1, 6), (4, 10, 20))
    assert list(t.index) == [1, 2, 3, 4, 5] and list(t.columns) == [4, 10, 20]
    assert t.loc[1, 4] == pytest.approx(0.5)  # faces 4, 5, 6
    assert t.loc[3, 10] == gunbai.world_trigger.success_chance(dice=3, target=10)["probability"]
    # More dice never hurt, a higher target never helps.
    assert (t.diff().iloc[1:] >= -1e-12).all().all()
    assert (t.T.diff().iloc[1:] <= 1e-12).all().all()


def test_wt_opposed_table() -> None:
    t = analysis.wt_opposed_table(range(1, 5), range(1, 5), actor_tactics_dice=1)
    assert t.shape == (4, 4)
    assert t.loc[2, 3] == gunbai.world_trigger.opposed_chance(actor_dice=2, reactor_dice=3, actor_tactics_dice=1)[
        "probability"
    ]
    plain = analysis.wt_opposed_table([3], [3])
    assert plain.loc[3, 3] > 0.5  # ties go to the actor (WT-OPP-3)


def test_coc7_tables() -> None:
    t = analysis.coc7_level_table([50, 80], [-1, 0, 1])
    assert t.loc[(50, 0), "extreme"] == pytest.approx(0.09)  # rolls 02–10
    sums = t[list(analysis.COC7_LEVELS)].sum(axis=1)
    assert all(math.isclose(s, 1.0) for s in sums)
    s = analysis.coc7_success_table([50, 80], [-1, 0, 1])
    assert s.loc[50, 0] == pytest.approx(0.5)
    assert s.loc[50, 1] > s.loc[50, 0] > s.loc[50, -1]


def test_expected_table_and_damage() -> None:
    e = analysis.wt_expected_table(5)
    assert list(e.columns) == ["mean", "mean_per_die"] and len(e) == 5
    assert e.loc[1, "mean"] == pytest.approx(3.5)
    assert analysis.wt_expected_damage(4) == pytest.approx(7.5)
    assert analysis.wt_expected_damage(4, burst=3, trion_stat=5, special_attack_lv=2) == pytest.approx(12.5)
    assert analysis.wt_expected_damage(0, modifier=-5) == pytest.approx(1 / 6)  # never below 0


def test_wt_allocations_use_the_core_creation_limits() -> None:
    # WT-CC-5: exactly 20 points, each stat capped at 9 at creation, 8 for an All-rounder
    # (world_trigger.creation_limits; the sample pack's positions have no base stats).
    # Over three stats, a + b + c = 20 with each at most 9 has C(22,2) - 3·C(12,2) + 3 = 36
    # solutions; at most 8, C(22,2) - 3·C(13,2) + 3·C(4,2) = 15.
    stats = ("trion", "attack", "technique")
    attacker = analysis.wt_allocations(KUGA, stats=stats)
    rounder = analysis.wt_allocations({**KUGA, "position": "all_rounder"}, stats=stats)
    assert (len(attacker), len(rounder)) == (36, 15)
    for builds, cap in ((attacker, 9), (rounder, 8)):
        assert max(v for s in builds.values() for v in s["points"].values()) == cap
        assert all(sum(s["points"].values()) == 20 for s in builds.values())
    # A smaller cap or total given by the caller still applies.
    assert len(analysis.wt_allocations(KUGA, stats=stats, cap=7)) == 3  # 6 + 7 + 7, in any order
    assert len(analysis.wt_allocations(KUGA, stats=stats, cap=6)) == 0  # 3 × 6 < 20
    assert len(analysis.wt_allocations(KUGA, stats=stats, total=3)) == 0  # not the 20 points (WT-CC-5)
    with pytest.raises(gunbai.GunbaiError) as info:
        analysis.wt_allocations({k: v for k, v in KUGA.items() if k != "position"}, stats=stats)
    assert (info.value.code, info.value.field) == ("invalid_argument", "template.position")


def test_compare_builds() -> None:
    other = {**KUGA, "name": "Other", "points": {"trion": 9, "attack": 6, "technique": 5}, "leader": False}
    t = analysis.wt_compare_builds({"Kuga": KUGA, "Other": other}, reactions={"r5": 5, "r8+2": {"dice": 8, "tactics_dice": 2}})
    kuga = gunbai.world_trigger.create_character(sheet=KUGA)
    assert t.loc["Kuga", "starting_trion"] == kuga["derived"]["starting_trion"]
    assert t.loc["Kuga", "hit_dice"] == kuga["stats"]["technique"]
    p = gunbai.world_trigger.opposed_chance(actor_dice=kuga["stats"]["technique"], reactor_dice=5)["probability"]
    assert t.loc["Kuga", "hit: r5"] == pytest.approx(p)
    assert t.loc["Other", "burst"] == min(t.loc["Other", "trion"], 10)
    assert t.loc["Other", "damage_burst"] == pytest.approx(t.loc["Other", "damage"] + t.loc["Other", "burst"])
    assert t.loc["Kuga", "dmg/attack: r8+2"] == pytest.approx(t.loc["Kuga", "hit: r8+2"] * t.loc["Kuga", "damage"])
    with pytest.raises(gunbai.GunbaiError):
        analysis.wt_compare_builds({"bad": {**KUGA, "points": {"trion": 20}}})
    for hit_stat in ("luck", {"Someone else": "technique"}):
        with pytest.raises(gunbai.GunbaiError) as info:
            analysis.wt_compare_builds({"Kuga": KUGA}, hit_stat=hit_stat)
        assert (info.value.code, info.value.field) == ("invalid_argument", "hit_stat")


def test_plots(tmp_path: object) -> None:
    import matplotlib.pyplot as plt
    from pathlib import Path

    out = Path(str(tmp_path))
    axes = [
        analysis.plot_distributions({"3 dice": analysis.wt_distribution(3), "5 dice": analysis.wt_distribution(5)}),
        analysis.plot_success_curves(analysis.wt_success_table(range(1, 6), (10, 20))),
        analysis.plot_heatmap(analysis.wt_opposed_table(range(1, 4), range(1, 4)), title="opposed"),
        analysis.plot_coc7_levels(analysis.coc7_level_table([50], [-1, 0, 1])),
        analysis.plot_build_comparison(analysis.wt_compare_builds({"Kuga": KUGA}, reactions={"r5": 5})),
        analysis.plot_sample_vs_exact(
            gunbai.world_trigger.simulate_checks(dice=3, n=1000, seed=1), analysis.wt_distribution(3)
        ),
    ]
    for k, ax in enumerate(axes):
        path = out / f"plot{k}.png"
        ax.figure.savefig(path)
        assert path.stat().st_size > 1000
    plt.close("all")


def test_compare_builds_needs_a_build() -> None:
    with pytest.raises(gunbai.GunbaiError) as info:
        analysis.wt_compare_builds({})
    assert (info.value.code, info.value.field) == ("invalid_argument", "builds")
