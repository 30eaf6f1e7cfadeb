"""gunbai.<module>.simulate: any n in chunks of the core's <x>_simulate operation, the same
games whatever the chunks, threads or the form of the seed (SPEC 7)."""

from __future__ import annotations

from typing import Any

import pytest

import gunbai
from gunbai import GunbaiError
from gunbai._simulate import MAX_WORK_PER_CALL, master_seed, wilson

TMD: Any = {"characters": [{"id": "a", "side": "pc", "base_initiative": 2},
                      {"id": "b", "side": "npc", "base_initiative": 0}]}


def test_chunks_are_the_operation_s_games() -> None:
    # More games than one call takes (n × max_steps > 10,000): three chunks.
    steps = 5
    n = 2 * (MAX_WORK_PER_CALL // steps) + 3
    sim = gunbai.tmd.simulate(TMD, n, 11, max_steps=steps, threads=2)
    assert len(sim) == n
    assert sim.battles["index"] == list(range(n))
    with pytest.raises(GunbaiError) as e:
        gunbai.tmd.encounter_simulate(setup=TMD, n=n, seed=11, max_steps=steps)
    assert e.value.code == "limit_exceeded"
    # Games 19,998 … 20,002 straddle the first two chunks: the operation plays them alike.
    k = MAX_WORK_PER_CALL // steps - 2
    op = gunbai.tmd.encounter_simulate(setup=TMD, n=5, first=k, seed=11, max_steps=steps, threads=1)
    assert sim.battles["seed"][k:k + 5] == op["battles"]["seed"]
    assert sim.battles["steps"][k:k + 5] == op["battles"]["steps"]
    members = [i for i, b in enumerate(sim.members["battle"]) if k <= b < k + 5]
    assert [sim.members["actions"][i] for i in members] == op["members"]["actions"]


def test_the_same_games_whatever_the_threads() -> None:
    one = gunbai.coc7_house.simulate({"participants": [{"id": "a", "dex": 60, "is_pc": True},
                                                        {"id": "b", "dex": 40, "is_pc": False}]},
                                     40, 3, threads=1, max_steps=30)
    every = gunbai.coc7_house.simulate({"participants": [{"id": "a", "dex": 60, "is_pc": True},
                                                          {"id": "b", "dex": 40, "is_pc": False}]},
                                       40, 3, max_steps=30)
    assert one.battles == every.battles and one.members == every.members


def test_chunks_spread_over_threads_play_the_same_games() -> None:
    # Seven chunks (n × max_steps over 10,000 a call): with threads they play at once and
    # are joined in order; the games are those of one thread, and of the operation.
    steps = 50
    n = 6 * (MAX_WORK_PER_CALL // steps) + 17
    one = gunbai.tmd.simulate(TMD, n, 5, max_steps=steps, threads=1)
    for threads in (2, 3, None, 0):
        other = gunbai.tmd.simulate(TMD, n, 5, max_steps=steps, threads=threads)
        assert other.battles == one.battles and other.members == one.members, threads
    assert one.battles["index"] == list(range(n))
    last = gunbai.tmd.encounter_simulate(setup=TMD, n=17, first=n - 17, seed=5, max_steps=steps)
    assert one.battles["seed"][-17:] == last["battles"]["seed"]
    for bad, code in ((True, "invalid_argument"), (-1, "out_of_range"), (257, "out_of_range")):
        with pytest.raises(GunbaiError) as e:
            gunbai.tmd.simulate(TMD, n, 5, max_steps=steps, threads=bad)
        assert (e.value.code, e.value.field) == (code, "threads")


def test_rng_follows_spec_7() -> None:
    np = pytest.importorskip("numpy")
    assert master_seed(5) == 5
    ss = np.random.SeedSequence(1234)
    assert master_seed(ss) == master_seed(np.random.SeedSequence(1234))
    assert master_seed(np.random.default_rng(7)) == master_seed(np.random.default_rng(7))
    a = gunbai.tmd.simulate(TMD, 6, np.random.default_rng(7), max_steps=20)
    b = gunbai.tmd.simulate(TMD, 6, master_seed(np.random.default_rng(7)), max_steps=20)
    assert a.battles == b.battles
    c = gunbai.tmd.simulate(TMD, 6, np.random.SeedSequence(99), max_steps=20)
    assert c.seed == master_seed(np.random.SeedSequence(99))
    fresh = {gunbai.tmd.simulate(TMD, 1, None, max_steps=5).seed for _ in range(3)}
    assert len(fresh) == 3, "None draws fresh entropy"
    cases: Any = ((True, "invalid_argument"), ("7", "invalid_argument"), (-1, "out_of_range"), (1 << 53, "out_of_range"))
    for bad, code in cases:
        with pytest.raises(GunbaiError) as e:
            gunbai.tmd.simulate(TMD, 1, bad)
        assert e.value.code == code and e.value.field == "rng"


def test_tables() -> None:
    pd = pytest.importorskip("pandas")
    sim = gunbai.world_trigger.simulate(_wt_setup(), 8, 1, max_steps=2000)
    df = sim.to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert len(df) == len(sim.members["id"])
    assert {"master_seed", "index", "seed", "winner", "rounds", "member", "actions"} <= set(df.columns)
    rates = sim.win_rates()
    assert rates["games"].sum() == 8
    for _, row in rates.iterrows():
        assert row["low"] <= row["rate"] <= row["high"]


def test_wilson() -> None:
    lo, hi = wilson(0, 10)
    assert abs(lo) < 1e-12 and abs(hi - 0.2775) < 1e-3  # the 95% interval of 0/10: [0, 0.2775]
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3


def _wt_setup() -> dict:  # type: ignore[type-arg]
    import json
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    setup = json.loads((root / "examples" / "battles" / "rank_3v3.json").read_text(encoding="utf-8"))
    setup.pop("seed", None)
    setup["max_rounds"] = 2
    return setup  # type: ignore[no-any-return]


def _ap_duel(knife: int = 60, hp: int = 12) -> Any:
    """The seed's ayla against the ghoul (COCAP-ACT-2), ayla's knife skill and HP as parameters."""
    return {"participants": [
        {"id": "ayla", "dex": 14, "side": "pc", "hp_max": hp, "skills": {"dodge": 50},
         "weapons": [{"name": "knife", "skill": knife, "attacks_per_round": 2, "damage": "1d4+2"}]},
        {"id": "ghoul", "dex": 12, "side": "npc", "hp_max": 13, "armor": 1, "skills": {"dodge": 40},
         "weapons": [{"name": "claw", "skill": 45, "attacks_per_round": 1, "damage": "1d6"}]}]}


def test_long_form_table_and_policies_by_name() -> None:
    pytest.importorskip("pandas")
    sim = gunbai.coc_ap.simulate(setup=_ap_duel(), n=30, rng=4, policy="aggressive", max_steps=300)
    assert sim.battles == gunbai.coc_ap.simulate(_ap_duel(), 30, 4, policy={"kind": "aggressive"},
                                                 max_steps=300).battles
    df = sim.to_pandas()
    assert len(df) == 60 and set(df["member"]) == {"ayla", "ghoul"}
    for col in ("master_seed", "index", "seed", "winner", "rounds", "damage_dealt", "damage_taken", "down"):
        assert col in df.columns, col
    # One-on-one: ayla's damage dealt is the ghoul's damage taken, game by game (COCAP-ACT-2).
    wide = df.pivot(index="index", columns="member", values=["damage_dealt", "damage_taken"])
    assert (wide["damage_dealt"]["ayla"] == wide["damage_taken"]["ghoul"]).all()
    ended = df[df["ended"]]
    assert (ended.groupby("index")["down"].sum() >= 1).all(), "a finished fight has someone down"
    sim.params = {"knife": 60}
    assert list(sim.to_pandas().columns[:2]) == ["knife", "master_seed"]


def _sweep(executor: Any = None) -> Any:
    from gunbai.analysis import sweep

    return sweep(gunbai.coc_ap.simulate, {"knife": [5, 60, 90]}, _ap_duel, 600, 2026, winner="pc",
                 chunk=150, executor=executor, policy="aggressive", max_steps=300)


def test_sweep_stops_a_separated_build_early_and_keeps_each_builds_games() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("pandas")
    s = _sweep()
    summary = s.summary()
    assert list(summary["knife"]) == [5, 60, 90]
    # A knife of 5 % is far behind: its interval separates it from the leader and it stops.
    assert summary["stopped_early"][0] and summary["games"][0] < 600
    assert summary["high"][0] < summary["low"][2]
    assert not summary["stopped_early"][2] and summary["games"][2] == 600
    # Each build's games are its own seed stream's (SeedSequence(2026).spawn): the same
    # games as simulating that build alone.
    child = np.random.SeedSequence(2026).spawn(3)[1]
    alone = gunbai.coc_ap.simulate(_ap_duel(60), summary["games"][1], child, policy="aggressive", max_steps=300)
    assert s.builds[1].battles == alone.battles
    assert set(s.to_pandas()["knife"]) == {5, 60, 90}


def test_sweep_on_an_executor_equals_the_serial_run() -> None:
    pytest.importorskip("pandas")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as ex:
        assert _sweep(ex).to_pandas().equals(_sweep().to_pandas())


def test_sweep_on_a_dask_local_cluster_equals_the_serial_run() -> None:
    pytest.importorskip("pandas")
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        on_dask = _sweep(client)
    serial = _sweep()
    assert on_dask.to_pandas().equals(serial.to_pandas())
    assert on_dask.stopped == serial.stopped
