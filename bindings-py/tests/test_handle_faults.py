"""Hostile input and threads on the game handles: every exception is a GunbaiError.

An outside audit found handles raising ``RuntimeError: Already borrowed`` when two
threads shared one, ``UnicodeEncodeError`` on lone surrogates, ``RecursionError`` on a
deeply nested saved state and ``TypeError`` on a misspelt keyword, and every
GunbaiError carrying the native ``CoreError`` (with the raw JSON) as its context. Each
of those is a case here.
"""

from __future__ import annotations

import copy
import json
import threading
import traceback
from pathlib import Path
from typing import Any, Callable

import pytest

import gunbai

ROOT = Path(__file__).resolve().parents[2]
SETUPS: dict[str, Any] = json.loads((ROOT / "testdata/handles/setups.json").read_text(encoding="utf-8"))
NAMES = sorted(SETUPS)


def setup_of(name: str) -> dict[str, Any]:
    entry = SETUPS[name]
    setup: dict[str, Any] = (
        json.loads((ROOT / entry["file"]).read_text(encoding="utf-8")) if "file" in entry else copy.deepcopy(entry["setup"])
    )
    return setup


def handle_class(name: str) -> Any:
    module, cls = name.split(".")
    return getattr(getattr(gunbai, module), cls)


def raised(f: Callable[[], Any]) -> gunbai.GunbaiError:
    """The GunbaiError ``f`` raises (anything else fails the test), checked to print
    alone: no context shown, no raw envelope JSON in its traceback."""
    with pytest.raises(gunbai.GunbaiError) as info:
        f()
    e = info.value
    assert e.__context__ is None or e.__suppress_context__, repr(e.__context__)
    assert not isinstance(e.__context__, gunbai._native.CoreError)
    printed = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    assert "During handling of the above exception" not in printed
    assert '{"error"' not in printed
    return e


# ---- errors carry no native context --------------------------------------------------


def test_operation_and_handle_errors_have_no_core_error_context() -> None:
    e = raised(lambda: gunbai.coc7.check(skill=-5))
    assert e.code == "out_of_range" and e.__context__ is None
    e = raised(lambda: gunbai.call("no.such_op", {}))
    assert e.code == "unknown_operation" and e.__context__ is None
    game = gunbai.coc7_house.Round.create(**setup_of("coc7_house.Round"))
    e = raised(lambda: game.act({"type": "no_such_action"}))
    assert e.code == "invalid_argument" and e.__context__ is None
    e = raised(lambda: game.undo())
    assert e.field == "undo" and e.__context__ is None


# ---- lone surrogates -----------------------------------------------------------------

LONE = "\ud800"


@pytest.mark.parametrize("name", NAMES)
def test_lone_surrogates_are_invalid_argument_in_every_handle_method(name: str) -> None:
    cls = handle_class(name)
    game = cls.create(**setup_of(name))
    before = game.to_json()
    e = raised(lambda: cls.create(**{**setup_of(name), "variants": {LONE: 1}}))
    assert e.code == "invalid_argument"
    # A state as JSON text with a lone surrogate escape, and as the parsed object.
    text = before[:-1] + f',"x{LONE}":1}}'
    e = raised(lambda: cls.from_json(json.dumps(json.loads(text))))
    assert e.code == "invalid_argument"
    e = raised(lambda: cls.from_json({**game.state, "note": LONE}))
    assert e.code == "invalid_argument" and e.field == "state.note"
    e = raised(lambda: game.act({"type": LONE}))
    assert e.code == "invalid_argument" and e.field == "action.type"
    e = raised(lambda: game.view(LONE))
    assert e.code == "invalid_argument" and e.field == "viewer"
    e = raised(lambda: game.legal_actions(LONE))
    assert e.code == "invalid_argument" and e.field == "actor"
    e = raised(lambda: game.listing(LONE))
    assert e.code == "invalid_argument" and e.field == "actor"
    assert game.to_json() == before


# ---- nesting -------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [70, 5000, 100_000])
def test_a_deeply_nested_state_is_limit_exceeded(depth: int) -> None:
    e = raised(lambda: gunbai.coc7_house.Round.from_json("[" * depth + "]" * depth))
    assert e.code == "limit_exceeded" and e.field == "args"
    nested: Any = []
    for _ in range(depth):
        nested = [nested]
    e = raised(lambda: gunbai.coc7_house.Round.from_json({"participants": nested}))
    assert e.code == "limit_exceeded"


# ---- argument mistakes ---------------------------------------------------------------


def test_misspelt_keywords_name_the_valid_ones() -> None:
    b = gunbai.world_trigger.Battle.create(**setup_of("world_trigger.Battle"))
    action = b.legal_actions()[0]["action"]
    before = b.to_json()
    e = raised(lambda: b.act(action, sed=1))  # type: ignore[call-arg]
    assert e.code == "invalid_argument" and e.field == "sed"
    assert "`action`, `seed`, `rolls`" in e.message and "world_trigger.Battle.act" in e.message
    e = raised(lambda: b.legal_actions(actr="x"))  # type: ignore[call-arg]
    assert (e.code, e.field) == ("invalid_argument", "actr") and "`actor`" in e.message
    e = raised(lambda: b.listing(actr="x"))  # type: ignore[call-arg]
    assert (e.code, e.field) == ("invalid_argument", "actr")
    e = raised(lambda: b.view(viwer=0))  # type: ignore[call-arg]
    assert e.field == "viwer" and "`viewer`, `events`" in e.message
    e = raised(lambda: gunbai.world_trigger.Battle.from_json(before, dat=None))  # type: ignore[call-arg]
    assert e.field == "dat" and "`state`, `data`" in e.message
    e = raised(lambda: b.act())  # type: ignore[call-arg]
    assert (e.code, e.field) == ("invalid_argument", "action") and "missing" in e.message
    e = raised(lambda: b.act(action, 1))  # type: ignore[misc]
    assert e.field == "args" and "`seed`, `rolls` by keyword" in e.message
    e = raised(lambda: b.act(action, action=action))  # type: ignore[misc]
    assert e.field == "action" and "twice" in e.message
    e = raised(lambda: b.undo(1))  # type: ignore[call-arg]
    assert e.field == "args"
    listed = b.listing()
    e = raised(lambda: listed.play(0, sed=1))  # type: ignore[call-arg]
    assert e.field == "sed"
    assert b.to_json() == before
    # A TypeError raised inside a method is not read as an argument mistake: none is
    # left to raise, so the real ones stay GunbaiErrors of their own (a set is not JSON).
    e = raised(lambda: b.act({"type": {1, 2}}))
    assert e.code == "invalid_argument" and e.field == "action.type"


def test_listing_index_errors_are_gunbai_errors_and_sequence_errors() -> None:
    game = gunbai.coc7_house.Round.create(**setup_of("coc7_house.Round"))
    listed = game.listing()
    e = raised(lambda: listed[len(listed)])
    assert isinstance(e, IndexError) and e.code == "out_of_range"
    e = raised(lambda: listed["0"])  # type: ignore[call-overload]
    assert isinstance(e, TypeError) and e.code == "invalid_argument"
    e = raised(lambda: listed.play(True))
    assert isinstance(e, TypeError)
    e = raised(lambda: listed.play(-len(listed) - 1))
    assert isinstance(e, IndexError)
    # The sequence protocol still reads the IndexError.
    assert listed[0] in listed and listed.index(listed[0]) == 0


# ---- threads -------------------------------------------------------------------------


def test_threads_share_one_handle_and_the_result_is_a_serial_replay() -> None:
    """8 threads x 1,000 calls on one handle: reads, and actions each taken back by the
    same thread. Calls serialize on the handle's lock; no exception is anything but a
    GunbaiError (an action a thread picked may be illegal once another acted), and
    since every action taken is undone (undo takes back the last action, whichever
    thread took it), the final state is the one a serial replay gives: the start."""
    name = "coc7_house.Round"
    game = gunbai.coc7_house.Round.create(**setup_of(name))
    start = game.to_json()
    threads, calls = 8, 1000
    others: list[BaseException] = []
    counts = {"calls": 0, "gunbai_errors": 0, "acted": 0}
    tally = threading.Lock()
    barrier = threading.Barrier(threads)

    def work(k: int) -> None:
        made = errors = acted = 0

        def call(f: Callable[[], Any]) -> tuple[bool, Any]:
            """One call on the handle: (whether it returned, what it returned)."""
            nonlocal made, errors
            made += 1
            try:
                return True, f()
            except gunbai.GunbaiError:
                errors += 1
            except BaseException as e:  # noqa: BLE001 - the point of the test
                others.append(e)
            return False, None

        barrier.wait()
        i = 0
        while made < calls:
            i += 1
            step = (k + i) % 5
            if step == 0:
                call(lambda: game.state)
            elif step == 1:
                call(game.view)
            elif step == 2:
                # Another thread's listings may expire this one: a GunbaiError.
                ok, listed = call(game.listing)
                if ok and len(listed) and made < calls:
                    call(lambda: listed[0])
            else:
                ok, listed = call(game.legal_actions)
                if ok and listed and made + 1 < calls:
                    action = listed[(k + i) % len(listed)]["action"]
                    # Legal when listed; another thread may have acted since.
                    ok, _ = call(lambda: game.act(action))
                    if ok:
                        acted += 1
                        call(game.undo)
        with tally:
            counts["calls"] += made
            counts["gunbai_errors"] += errors
            counts["acted"] += acted

    pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert not others, f"{len(others)} non-GunbaiError exceptions, first {others[0]!r}"
    assert counts["calls"] == threads * calls
    assert counts["acted"] > 0
    assert game.undo_depth == 0
    assert game.to_json() == start


def test_threads_acting_on_one_handle_end_where_the_serial_replay_ends() -> None:
    """Every thread acts (without undoing) on one World Trigger battle, logging each
    action it took under a Python lock held around the call; replaying the log in order
    on a fresh handle gives the same state, and nothing but GunbaiError is raised."""
    name = "world_trigger.Battle"
    game = gunbai.world_trigger.Battle.create(**setup_of(name))
    log: list[tuple[Any, int]] = []
    order = threading.Lock()
    others: list[BaseException] = []

    def work(k: int) -> None:
        for i in range(60):
            try:
                listed = game.legal_actions()
                if not listed:
                    return
                action = listed[(k * 7 + i) % len(listed)]["action"]
                seed = k * 1000 + i
                with order:
                    try:
                        game.act(action, seed=seed)
                    except gunbai.GunbaiError:
                        continue
                    log.append((action, seed))
            except gunbai.GunbaiError:
                pass
            except BaseException as e:  # noqa: BLE001 - the point of the test
                others.append(e)

    pool = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert not others, f"{len(others)} non-GunbaiError exceptions, first {others[0]!r}"
    assert log
    replay = gunbai.world_trigger.Battle.create(**setup_of(name))
    for action, seed in log:
        replay.act(action, seed=seed)
    assert replay.to_json() == game.to_json()
