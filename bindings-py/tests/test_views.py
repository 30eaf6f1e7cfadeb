"""Hidden information: every handle's ``view()`` equals its pure
``<module>.<x>_view`` operation, and a World Trigger member in Stealth has no square in
another team's view (WT-ST-1, WT-MAP-7) while its own team and the GM see it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import gunbai

ROOT = Path(__file__).resolve().parents[2]
SETUPS: dict[str, Any] = json.loads((ROOT / "testdata/handles/setups.json").read_text(encoding="utf-8"))
VECTORS: list[Any] = json.loads((ROOT / "testdata/vectors/views/engine_views.json").read_text(encoding="utf-8"))


def setup_of(name: str) -> dict[str, Any]:
    entry = SETUPS[name]
    if "file" in entry:
        return json.loads((ROOT / entry["file"]).read_text(encoding="utf-8"))
    return copy.deepcopy(entry["setup"])


def handle_class(name: str) -> Any:
    module, cls = name.split(".")
    return getattr(getattr(gunbai, module), cls)


def view_op(name: str) -> str:
    handle = next(h for h in gunbai.catalog()["handles"] if h["name"] == name)
    return str(handle["ops"][2]).replace("_act", "_view")


def viewers(name: str, state: dict[str, Any]) -> list[Any]:
    """Every viewer the state names (World Trigger: team ids and indexes)."""
    if name == "world_trigger.Battle":
        return [t["id"] for t in state["teams"]] + list(range(len(state["teams"])))
    if name == "tmd.Encounter":
        return [c["id"] for c in state["characters"]] + [c["side"] for c in state["characters"]]
    if name == "coc_ap.Round":
        return [f["participant"]["id"] for f in state["fighters"]]
    if name == "coc7_house.Round":
        return [c["entry"]["id"] for c in state["combatants"]]
    if name == "coc7_house.Chase":
        return [state["fugitive"]["id"]] + ([state["pursuer"]["id"]] if state.get("pursuer") else [])
    return [c["id"] for c in state["combatants"]]


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_view_equals_the_pure_op(name: str) -> None:
    game = handle_class(name).create(**setup_of(name))
    events: Any = game.created["events"]
    for step in range(6):
        saved = game._call("save")
        for v in [None, *viewers(name, game.state)]:
            args = {"state": saved["state"], "viewer": v, "events": events, "data": saved.get("data")}
            assert game.view(v, events) == gunbai.call(view_op(name), args), (name, step, v)
        assert "events" not in game.view()
        assert game.view()["state"] == game.state
        with pytest.raises(gunbai.GunbaiError) as e:
            game.view("nobody")
        assert (e.value.code, e.value.field) == ("invalid_argument", "viewer")
        listed = game.legal_actions()
        if not listed:
            break
        action = listed[step % len(listed)]["action"]
        events = (game.act(action, seed=step) if SETUPS[name]["seeded"] else game.act(action))["events"]


def test_stealth_square_hidden_from_the_other_team_only() -> None:
    # The Bagworm-teleport setup of the vectors (WT-MAP-6): a1 of team a starts in Stealth.
    case = next(c for c in VECTORS if c["id"] == "view-wt-stealth-position-hidden-from-other-team")
    game = gunbai.world_trigger.Battle.create(**case["steps"][0]["args"])
    assert game.state["members"][0]["states"]["stealth"] == "sub"
    for other in ("b", 1):
        seen = game.view(other)["state"]["members"]
        assert "at" not in seen[0] and seen[1]["at"] == {"x": 7, "y": 7}
    for own in ("a", 0, None):
        assert game.view(own)["state"]["members"][0]["at"] == {"x": 0, "y": 0}
    with pytest.raises(gunbai.GunbaiError) as e:
        game.view("a1")  # a member, not a team
    assert (e.value.code, e.value.field) == ("invalid_argument", "viewer")


def test_turn_for_names_no_reaction_target_the_team_may_not_see() -> None:
    # The vector's Bagworm battle: b1 shoots a1 in Stealth directly (WT-ST-1); the
    # handle plays the vector's actions and agrees with the pure turn operation.
    cases = json.loads((ROOT / "testdata/vectors/views/turn_views.json").read_text(encoding="utf-8"))
    case = next(c for c in cases if c["id"].startswith("turn-wt-stealth"))
    game = gunbai.world_trigger.Battle.create(**case["steps"][0]["args"])
    for s in case["steps"]:
        if s["call"] == "world_trigger.battle_act":
            game.act(s["args"]["action"], seed=s["args"].get("seed"))
    for v in ("b", 1):
        assert game.turn_for(v)["active"] == [{"id": None, "stage": "reaction"}]
        assert game.turn_for(v) == gunbai.call("world_trigger.battle_turn", {"state": game.state, "viewer": v})
    for v in ("a", None):
        assert game.turn_for(v)["active"] == [{"id": "a1", "stage": "reaction"}]
    assert game.turn_for() == game.turn
    with pytest.raises(gunbai.GunbaiError) as e:
        game.turn_for("nobody")
    assert (e.value.code, e.value.field) == ("invalid_argument", "viewer")


def test_view_names_no_hidden_target() -> None:
    # The vector's battle: b1 shoots a1 in Stealth directly (WT-ST-1). The handle's view for
    # team b names a1 only in the roster (its member entry and its team's leader); a's and
    # the GM's name it as the target. The handle agrees with the pure view operation.
    case = next(c for c in VECTORS if c["id"] == "view-wt-stealth-attack-target-named-nowhere")
    game = gunbai.world_trigger.Battle.create(**case["steps"][0]["args"])
    r: Any = None
    for s in case["steps"]:
        if s["call"] == "world_trigger.battle_act":
            action = s["args"]["action"]
            r = game.act(action, seed=s["args"].get("seed"))
    assert game.state["pending"]["targets"] == ["a1"]
    for v in ("b", 1):
        seen = game.view(v, r["events"], action)
        pure = {"state": game.state, "viewer": v, "events": r["events"], "action": action}
        assert seen == gunbai.call("world_trigger.battle_view", pure)
        assert seen["state"]["members"][0]["id"] == seen["state"]["teams"][0]["leader"] == "a1"
        seen["state"]["members"][0]["id"] = seen["state"]["teams"][0]["leader"] = None
        assert '"a1"' not in json.dumps(seen), seen
    for v in ("a", None):
        seen = game.view(v, r["events"], action)
        assert seen["state"]["pending"]["targets"] == ["a1"] and seen["action"]["target"] == "a1"
