"""The game handles: every engine's handle against its pure operations.

The setups are ``testdata/handles/setups.json`` (shared with the Node tests). For each
handle, a short game is played both ways with the same seeds and must give the same
states; refusals, undo, JSON and pickle round trips are checked on the way.
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import gunbai

ROOT = Path(__file__).resolve().parents[2]
SETUPS: dict[str, Any] = json.loads((ROOT / "testdata/handles/setups.json").read_text(encoding="utf-8"))


def setup_of(name: str) -> dict[str, Any]:
    entry = SETUPS[name]
    if "file" in entry:
        return json.loads((ROOT / entry["file"]).read_text(encoding="utf-8"))
    return copy.deepcopy(entry["setup"])


def handle_class(name: str) -> Any:
    module, cls = name.split(".")
    return getattr(getattr(gunbai, module), cls)


def ops_of(name: str) -> list[str]:
    handle = next(h for h in gunbai.catalog()["handles"] if h["name"] == name)
    return list(handle["ops"])


def listing(result: dict[str, Any]) -> list[Any]:
    """Every engine's pure listing is ``{actions: [{action, …cost}], …}``, as a handle lists it."""
    items = result["actions"]
    assert all(isinstance(it, dict) and "action" in it for it in items)
    return list(items)


NAMES = sorted(SETUPS)


def test_every_handle_of_the_catalog_is_generated() -> None:
    assert sorted(h["name"] for h in gunbai.catalog()["handles"]) == NAMES
    for name in NAMES:
        cls = handle_class(name)
        assert issubclass(cls, gunbai.Game) and cls._handle == name
    assert gunbai.Battle is gunbai.world_trigger.Battle


@pytest.mark.parametrize("name", NAMES)
def test_handle_and_pure_ops_play_the_same_game(name: str) -> None:
    new_op, legal_op, act_op = ops_of(name)
    setup = setup_of(name)
    seeded = SETUPS[name]["seeded"]
    game = handle_class(name).create(**setup)
    state = gunbai.call(new_op, setup)["state"]
    assert game.state == state
    for step in range(12):
        listed = game.legal_actions()
        assert listed == listing(gunbai.call(legal_op, {"state": state}))
        if not listed:
            break
        action = listed[step % len(listed)]["action"]
        dice = {"seed": 1000 + step} if seeded else {}
        r = game.act(action, **dice)
        pure = gunbai.call(act_op, {"state": state, "action": action, **dice})
        state = pure["state"]
        assert game.state == state, f"{name}: states differ after {action}"
        assert r["rolls"] == pure.get("rolls", [])
        if "events" in pure:
            assert r["events"] == pure["events"]


@pytest.mark.parametrize("name", NAMES)
def test_undo_json_and_pickle(name: str) -> None:
    game = handle_class(name).create(**setup_of(name))
    start = game.state
    with pytest.raises(gunbai.GunbaiError) as e:
        game.undo()
    assert e.value.code == "invalid_argument" and e.value.field == "undo"
    game.act(game.legal_actions()[0]["action"], seed=1) if SETUPS[name]["seeded"] else game.act(game.legal_actions()[0]["action"])
    after = game.state
    assert game.undo_depth == 1
    # Whose move it is: the handle's turn is the pure turn operation's.
    assert game.turn == gunbai.call(ops_of(name)[0].replace("_new", "_turn"), game._call("save"))
    copy_ = handle_class(name).from_json(game.to_json())
    assert copy_.state == after
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and again.state == after
    game.undo()
    assert game.state == start and game.undo_depth == 0
    assert again.state == after, "a pickled copy is its own game"


@pytest.mark.parametrize("name", NAMES)
def test_a_refused_action_changes_nothing(name: str) -> None:
    game = handle_class(name).create(**setup_of(name))
    before = game.to_json()
    with pytest.raises(gunbai.GunbaiError) as e:
        game.act({"type": "no_such_action"})
    assert e.value.code == "invalid_argument" and (e.value.field or "").startswith("action")
    assert game.to_json() == before


def test_illegal_action_names_the_rule_and_keeps_the_state() -> None:
    b = gunbai.world_trigger.Battle.create(**setup_of("world_trigger.Battle"))
    before = b.to_json()
    with pytest.raises(gunbai.GunbaiError) as e:
        b.act({"type": "pass", "team": b.state["teams"][0]["id"]})
    assert e.value.code == "illegal_action" and e.value.rule
    assert b.to_json() == before


def test_from_json_refuses_a_corrupt_state_with_its_field() -> None:
    state = gunbai.world_trigger.Battle.create(**setup_of("world_trigger.Battle")).state
    state["round"] = -1
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.world_trigger.Battle.from_json(state)
    assert e.value.code == "invalid_data" and e.value.field == "state.round"
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.world_trigger.Battle.from_json("{")
    assert e.value.code == "invalid_argument" and e.value.field == "state"


def test_create_refuses_unknown_and_positional_arguments() -> None:
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.coc7_house.Round.create(participants=[{"id": "a", "dex": 50}], oops=1)
    assert e.value.code == "invalid_argument" and e.value.field == "oops"
    with pytest.raises(gunbai.GunbaiError):
        gunbai.coc7_house.Round.create([{"id": "a", "dex": 50}])  # type: ignore[call-arg]


def test_actor_filter() -> None:
    r = gunbai.coc_ap.Round.create(**setup_of("coc_ap.Round"))
    mine = r.legal_actions(actor="kei")
    assert mine and all(a["action"].get("actor") in (None, "kei") for a in mine)
    with pytest.raises(gunbai.GunbaiError) as e:
        r.legal_actions(actor="nobody")
    assert e.value.field == "actor"


def test_chase_outcome_when_over() -> None:
    c = gunbai.coc7_house.Chase.create(**setup_of("coc7_house.Chase"))
    for seed in range(200):
        if c.outcome is not None:
            break
        c.act({"type": "round"}, seed=seed)
    assert c.outcome is not None and c.outcome["status"] in ("escaped", "caught")
    assert c.legal_actions() == []


def test_simulate_battles_arrays() -> None:
    np = pytest.importorskip("numpy")
    setup = setup_of("world_trigger.Battle")
    r = gunbai.world_trigger.simulate_battles(setup=setup, n=5, seed=4, policy={"type": "aggressive"})
    assert set(r) == {"winner", "rounds", "points", "down"}
    assert r["winner"].shape == (5,) and r["points"].shape == (5, 3) and r["down"].dtype == np.int32
    assert ((r["winner"] >= -1) & (r["winner"] < 3)).all()
    # Battle k depends on the seed and k only.
    more = gunbai.world_trigger.simulate_battles(setup=setup, n=7, seed=4, policy={"type": "aggressive"})
    assert (more["points"][:5] == r["points"]).all()
    with pytest.raises(gunbai.GunbaiError) as e:
        gunbai.world_trigger.simulate_battles(setup=setup, n=10**6, seed=1)
    assert e.value.code == "out_of_range" and e.value.field == "n"  # n's own range: 1–100,000
    with pytest.raises(gunbai.GunbaiError) as e:  # battles x rounds x members: a bound across the call
        gunbai.world_trigger.simulate_battles(setup=setup, n=100_000, seed=1)
    assert e.value.code == "limit_exceeded"


def test_gunbai_error_pickles_with_every_attribute() -> None:
    e = gunbai.GunbaiError("illegal_action", "no", "action.actor", "WT-RND-1", [{"path": "a", "message": "m"}], 3)
    back = pickle.loads(pickle.dumps(e))
    assert (back.code, back.message, back.field, back.rule, back.details, back.position) == (
        "illegal_action", "no", "action.actor", "WT-RND-1", [{"path": "a", "message": "m"}], 3)
    assert str(back) == "no"


def _raise_in_worker(_: int) -> None:
    gunbai.dice.roll(expr="1001d6")


def test_gunbai_error_crosses_a_process_pool() -> None:
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        with pytest.raises(gunbai.GunbaiError) as e:
            pool.map(_raise_in_worker, [0])
    assert e.value.code == "limit_exceeded" and e.value.field == "expr"


def test_whole_floats_are_sent_as_integers_fast_path_or_not() -> None:
    from gunbai._core import _encode

    assert _encode({"a": 2.0, "b": [1.5, -0.0], "c": "x.0"}) == '{"a":2,"b":[1.5,0],"c":"x.0"}'
    assert _encode({"a": 1, "s": "plain"}) == '{"a":1,"s":"plain"}'


@pytest.mark.parametrize("name", NAMES)
def test_listing_is_the_listing_read_lazily(name: str) -> None:
    game = handle_class(name).create(**setup_of(name))
    full = game.legal_actions()
    lazy = game.listing()
    assert len(lazy) == len(full) and lazy == full
    assert [lazy[i] for i in range(len(lazy))] == full and lazy[-1] == full[-1] and lazy[:2] == full[:2]
    with pytest.raises(IndexError):
        lazy[len(full)]
    # Still readable after an action (it is a listing of the moment it was made).
    late = game.listing()
    game.act(full[0]["action"], seed=1) if SETUPS[name]["seeded"] else game.act(full[0]["action"])
    assert late[0] == full[0] and list(late) == full
    assert pickle.loads(pickle.dumps(late)) == full


def test_old_listings_expire_with_a_clear_error() -> None:
    game = gunbai.coc7_house.Round.create(**setup_of("coc7_house.Round"))
    first = game.listing()
    for _ in range(8):
        game.listing()
    with pytest.raises(gunbai.GunbaiError) as e:
        first[0]
    assert e.value.code == "invalid_argument" and e.value.field == "listing"


@pytest.mark.parametrize("name", NAMES)
def test_playing_a_listed_item_is_acting_its_action(name: str) -> None:
    seeded = SETUPS[name]["seeded"]
    by_item = handle_class(name).create(**setup_of(name))
    by_action = handle_class(name).create(**setup_of(name))
    for step in range(6):
        listed = by_item.listing()
        if not len(listed):
            break
        k = (step * 5 + 3) % len(listed)
        action = by_action.legal_actions()[k]["action"]
        dice = {"seed": 100 + step} if seeded else {}
        assert listed.play(k, **dice) == by_action.act(action, **dice)
        assert by_item.state == by_action.state
    with pytest.raises(IndexError):
        listed.play(len(listed))
    # An item of an older listing that is no longer legal is refused and changes nothing.
    game = handle_class(name).create(**setup_of(name))
    first = game.listing()
    game.act(first[0]["action"], **({"seed": 1} if seeded else {}))
    for k in range(len(first)):
        before = game.to_json()
        try:
            first.play(k, **({"seed": 2} if seeded else {}))
        except gunbai.GunbaiError as e:
            assert e.code in ("illegal_action", "invalid_argument") and game.to_json() == before
        else:
            game.undo()
