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
