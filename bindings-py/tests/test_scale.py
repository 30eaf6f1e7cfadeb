"""Errors, results, handles and arguments across process boundaries (multiprocessing,
concurrent.futures, Dask), and the World Trigger build sweep on each executor."""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import operator
import pickle
from pathlib import Path

import pytest

import gunbai

# A hit check with 21 tactics dice: out of range (WT-TD-5 allows 0–20), naming the field.
BAD = ("world_trigger.check", {"dice": 3, "tactics_dice": 21, "seed": 1})


def _expected_error() -> gunbai.GunbaiError:
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.call(*BAD)
    return e.value


def _same_error(got: BaseException, want: gunbai.GunbaiError) -> None:
    assert isinstance(got, gunbai.GunbaiError), type(got)
    assert (got.code, got.field, got.rule, got.message, got.details, got.position) == (
        want.code, want.field, want.rule, want.message, want.details, want.position,
    )


def test_error_pickles_with_every_attribute() -> None:
    want = _expected_error()
    assert (want.code, want.field, want.rule) == ("out_of_range", "tactics_dice", "WT-TD-5")
    _same_error(pickle.loads(pickle.dumps(want)), want)
    many = gunbai.GunbaiError("invalid_argument", "m", "a.b", "R-1", [{"path": "a.b", "message": "x"}], 7)
    _same_error(pickle.loads(pickle.dumps(many)), many)


def _ctx() -> multiprocessing.context.BaseContext:
    # spawn: a fresh interpreter that imports gunbai itself, as a cluster worker does.
    return multiprocessing.get_context("spawn")


def test_error_from_a_multiprocessing_pool_worker() -> None:
    want = _expected_error()
    with _ctx().Pool(1) as pool:
        r = pool.apply_async(gunbai.call, BAD)
        with pytest.raises(gunbai.GunbaiError) as e:
            r.get(timeout=60)  # the issue: this hung when the error did not unpickle
    _same_error(e.value, want)


def test_error_from_a_process_pool_executor() -> None:
    want = _expected_error()
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=_ctx()) as ex:
        f = ex.submit(gunbai.call, *BAD)
        with pytest.raises(gunbai.GunbaiError) as e:
            f.result(timeout=60)
        # The pool is not broken by it: the next task runs.
        ok = ex.submit(gunbai.call, "world_trigger.check", {"dice": 3, "seed": 1}).result(timeout=60)
    _same_error(e.value, want)
    assert ok == gunbai.call("world_trigger.check", dice=3, seed=1)


SETUP = json.loads(
    (Path(__file__).resolve().parents[2] / "examples/battles/rank_3v3.json").read_text(encoding="utf-8")
)


def _sample_battle() -> gunbai.world_trigger.Battle:
    return gunbai.world_trigger.Battle.create(**SETUP)


def _act_first(game: gunbai.world_trigger.Battle) -> gunbai.world_trigger.Battle:
    game.act(game.legal_actions()[0]["action"], seed=5)
    return game


def test_results_handles_and_arguments_cross_a_process() -> None:
    np = pytest.importorskip("numpy")
    args = {"dice": 7, "tactics_dice": 2, "n": 1000, "seed": 3}
    game = _sample_battle()
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=_ctx()) as ex:
        # A result dict and a batch array come back equal to the ones made here.
        assert ex.submit(gunbai.call, "world_trigger.opposed", {"actor_dice": 4, "reactor_dice": 5, "seed": 9}).result(
            60
        ) == gunbai.world_trigger.opposed(actor_dice=4, reactor_dice=5, seed=9)
        arr = ex.submit(gunbai.call_batch, "world_trigger.simulate_checks", args).result(60)
        assert np.array_equal(arr, gunbai.world_trigger.simulate_checks(**args))
        # A handle goes out, is played there, and comes back with its state.
        back = ex.submit(_act_first, game).result(60)
    here = _act_first(game)
    assert isinstance(back, gunbai.world_trigger.Battle)
    assert back.state == here.state


@pytest.fixture(scope="module")
def dask_client():  # type: ignore[no-untyped-def]
    """One LocalCluster of 2 worker processes for this module's Dask tests (start-up is seconds)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def test_error_and_results_from_a_dask_local_cluster(dask_client) -> None:  # type: ignore[no-untyped-def]
    want = _expected_error()
    client = dask_client
    f = client.submit(gunbai.call, *BAD, pure=False)
    with pytest.raises(gunbai.GunbaiError) as e:
        f.result(timeout=120)
    _same_error(e.value, want)
    ok = client.submit(gunbai.call, "world_trigger.check", {"dice": 3, "seed": 1}).result(timeout=120)
    assert ok == gunbai.call("world_trigger.check", dice=3, seed=1)
    # A handle crosses both ways (a dask worker does not import this test module, so
    # the work is a stdlib callable): played here, read there, and sent back.
    game = _act_first(_sample_battle())
    assert client.submit(operator.methodcaller("to_json"), game, pure=False).result(120) == game.to_json()
    back = client.submit(pickle.loads, pickle.dumps(game), pure=False).result(timeout=120)
    assert back.state == game.state


# ------------------------------------------------------------ the sweep on each executor

KUGA = {
    "name": "Kuga",
    "position": "attacker",
    "leader": True,
    "points": {"trion": 3, "defense_support": 9, "technique": 8},
    "master": "placeholder_master_trion",
    "traits": ["placeholder_l_trait"],
    "triggers": {"main": ["kogetsu", "senku"], "sub": ["shield", "bagworm"]},
}


def test_sweep_same_result_serial_process_pool_and_dask(dask_client) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pandas")
    from gunbai import analysis

    builds = analysis.wt_allocations(KUGA, stats=("trion", "attack", "technique"))
    serial = analysis.wt_build_sweep(builds, opponent=5, progress=False)
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=_ctx()) as ex:
        pooled = analysis.wt_build_sweep(builds, opponent=5, executor=ex, chunk_size=5, progress=False)
    import pandas as pd

    pd.testing.assert_frame_equal(serial, pooled)
    client = dask_client
    dasked = analysis.wt_build_sweep(builds, opponent=5, executor=client, chunk_size=5, progress=False)
    # A bad build fails on the cluster with the core's code and field.
    bad = {"bad": {**KUGA, "points": {"trion": 10, "attack": 10}}}
    with pytest.raises(gunbai.GunbaiError) as e:
        analysis.wt_build_sweep(bad, executor=client, progress=False)
    pd.testing.assert_frame_equal(serial, dasked)
    with pytest.raises(gunbai.GunbaiError) as here:
        analysis.wt_build_sweep(bad, progress=False)
    _same_error(e.value, here.value)
