"""Tests of the Python surface (the installed wheel)."""

from __future__ import annotations

import json
import threading

import pytest

import gunbai
from gunbai import GunbaiError

import prng_reference


def test_every_catalog_operation_is_a_function() -> None:
    ops = gunbai.catalog()["ops"]
    assert len(ops) >= 4
    for op in ops:
        module, fn = op["name"].split(".")
        assert callable(getattr(getattr(gunbai, module), fn)), op["name"]
    assert gunbai.meta.operations()["operations"] == [o["name"] for o in ops]


def test_scripted_dice() -> None:
    r = gunbai.dice.roll(expr="2d6+1", rolls=[3, 5])
    assert r["total"] == 9
    assert r["rolls"] == [{"sides": 6, "value": 3, "kind": "normal"}, {"sides": 6, "value": 5, "kind": "normal"}]


def _nested(depth: int) -> dict[str, object]:
    """{"expr": "1d6", "rolls": [[[...]]]} with ``depth`` levels of lists."""
    inner: object = []
    for _ in range(depth):
        inner = [inner]
    return {"expr": "1d6", "rolls": inner}


@pytest.mark.parametrize("seed", [0, 1, 42, 2**53 - 1, 123456789])
def test_seeded_faces_follow_the_documented_algorithm(seed: int) -> None:
    for sides in (6, 10, 100, 10000):
        got = gunbai.dice.pool(count=50, sides=sides, seed=seed)["faces"]
        assert got == prng_reference.faces(seed, sides, 50)


def test_replay_from_rolls() -> None:
    a = gunbai.dice.roll(expr="4d6+D66", seed=99)
    assert gunbai.dice.roll(expr="4d6+D66", rolls=a["rolls"]) == a


def test_entropy_calls_differ() -> None:
    seen = {tuple(gunbai.dice.pool(count=10, sides=1000)["faces"]) for _ in range(5)}
    assert len(seen) > 1


@pytest.mark.parametrize(
    "call, code, field",
    [
        (lambda: gunbai.dice.roll(expr=26), "invalid_argument", "expr"),
        (lambda: gunbai.dice.pool(count="3", sides=6), "invalid_argument", "count"),
        (lambda: gunbai.dice.pool(count=-1, sides=6), "out_of_range", "count"),
        (lambda: gunbai.dice.roll(expr="1d6", seed=1, rolls=[1]), "invalid_argument", "rolls"),
        (lambda: gunbai.dice.roll(expr="1001d6"), "limit_exceeded", "expr"),
        (lambda: gunbai.dice.pool(count=1001, sides=6), "out_of_range", "count"),  # its range 0–1000
        (lambda: gunbai.call("dice.explode"), "unknown_operation", "op"),
        (lambda: gunbai.call(42), "invalid_argument", "op"),
        (lambda: gunbai.dice.roll(expr="2d6", rolls=[1]), "scripted_dice_exhausted", "rolls"),
        (lambda: gunbai.dice.roll(expr="2d6", rolls=[1, 9]), "invalid_die_face", "rolls[1]"),
        (lambda: gunbai.dice.roll(expr="2d6*2"), "parse_error", "expr"),
        (lambda: gunbai.dice.roll(expr="1d6", seed=2**53), "out_of_range", "seed"),
        (lambda: gunbai.dice.roll(expr="1d6", seed=1.5), "invalid_argument", "seed"),
        (lambda: gunbai.dice.roll(expr="1d6", seed=float("nan")), "invalid_argument", "seed"),
        (lambda: gunbai.dice.roll(expr="1d6", rolls=[1, float("inf")]), "invalid_argument", "rolls[1]"),
        (lambda: gunbai.dice.roll(expr="1d6", rolls={1, 2}), "invalid_argument", "rolls"),
        (lambda: gunbai.dice.roll(expr=object()), "invalid_argument", "expr"),
        # Values json.dumps writes but the core can't read: the field is named.
        (lambda: gunbai.dice.roll(expr="1d6\ud800"), "invalid_argument", "expr"),
        (lambda: gunbai.dice.roll(expr="1d6", seed=10**400), "invalid_argument", "seed"),
        (lambda: gunbai.dice.roll(expr="1d6", rolls=[10**400]), "invalid_argument", "rolls[0]"),
        (lambda: gunbai.dice.simulate_pool(count=2, sides=6, n=10, seed=10**400), "invalid_argument", "seed"),
        (lambda: gunbai.call("dice.roll", "2d6"), "invalid_argument", "args"),
        (lambda: gunbai.call("dice.roll", [1, 2]), "invalid_argument", "args"),
        # Nesting deeper than the core's bound (64) is limit_exceeded, whether json.dumps
        # runs out of recursion first or the core refuses the text.
        (lambda: gunbai.call("dice.roll", _nested(100_000)), "limit_exceeded", "args"),
        (lambda: gunbai.call("dice.roll", _nested(500)), "limit_exceeded", "args"),
        (lambda: gunbai.call("dice.roll", _nested(65)), "limit_exceeded", "args"),
    ],
)
def test_documented_errors(call, code: str, field: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(GunbaiError) as info:
        call()
    e = info.value
    assert isinstance(e, ValueError)
    assert e.code == code, str(e)
    assert e.field == field
    assert field in str(e)


def test_keyword_mistakes_are_the_cores_invalid_argument_as_in_js() -> None:
    # An unknown keyword, a missing required one, or positional arguments: the same
    # GunbaiError (a ValueError) as a wrong type, naming the field, not a TypeError.
    with pytest.raises(GunbaiError) as info:
        gunbai.dice.roll(expr="1d6", sead=1)  # type: ignore[call-arg]
    assert (info.value.code, info.value.field) == ("invalid_argument", "sead")
    with pytest.raises(GunbaiError) as info:
        gunbai.world_trigger.check(target=10)  # type: ignore[call-arg]
    assert info.value.code == "invalid_argument"
    assert "missing field `dice`" in str(info.value)
    with pytest.raises(GunbaiError) as info:
        gunbai.dice.roll("2d6")  # type: ignore[misc]
    assert (info.value.code, info.value.field) == ("invalid_argument", "args")
    # Batch operations too.
    with pytest.raises(GunbaiError) as info:
        gunbai.world_trigger.simulate_checks(dice=3, n=10, sead=1)  # type: ignore[call-arg]
    assert info.value.field == "sead"


def test_generated_functions_keep_their_typed_signature() -> None:
    import inspect

    sig = inspect.signature(gunbai.dice.roll)
    assert list(sig.parameters) == ["expr", "seed", "rolls"]
    assert sig.parameters["expr"].default is inspect.Parameter.empty
    assert sig.parameters["expr"].kind is inspect.Parameter.KEYWORD_ONLY
    assert "dice.roll" in (gunbai.dice.roll.__doc__ or "")
    # help(), inspect and Jupyter show the stub's types (postponed annotations), not Any.
    assert sig.parameters["expr"].annotation == "str"
    assert sig.parameters["seed"].annotation == "Union[int, None]"
    assert sig.return_annotation == "DiceRollResult"
    lang = inspect.signature(gunbai.command.run).parameters["lang"].annotation
    assert lang == "Union[CmdLang, None]"
    assert inspect.signature(gunbai.world_trigger.simulate_checks).return_annotation.startswith("numpy.typing.NDArray")
    # A Python keyword renamed with an underscore reaches the core under its real name.
    r = gunbai.world_trigger.range(from_={"x": 0, "y": 0}, targets=[{"x": 3, "y": 1}, {"x": 4, "y": 0}], range=3)
    assert r["distances"] == [3, 4]
    assert r["in_range"] == [True, False]


def test_generic_call_forms() -> None:
    assert gunbai.call("dice.roll", {"expr": "3"})["total"] == 3
    assert gunbai.call("dice.roll", expr="3")["total"] == 3
    assert gunbai.call("dice.roll", {"expr": "1d6"}, rolls=[4])["total"] == 4


def test_python_values_are_sent_as_javascript_sends_them() -> None:
    # None is "not given" (the core's rule, as JS null and undefined): the default.
    assert gunbai.coc7.check(skill=50, rolls=[3, 5], rule=None)["roll"] == 35
    assert gunbai.call("coc7.check", {"skill": 50, "rolls": [3, 5], "rule": None})["roll"] == 35
    with pytest.raises(GunbaiError) as info:
        gunbai.tmd.encounter_legal_actions(state=None)
    assert (info.value.code, info.value.field) == ("invalid_argument", "state")
    # A whole float is the integer JS would send (JS has no 2.0 apart from 2).
    assert gunbai.dice.roll(expr="3d6", seed=2.0) == gunbai.dice.roll(expr="3d6", seed=2)
    assert gunbai.dice.roll(expr="3d6", seed=-0.0) == gunbai.dice.roll(expr="3d6", seed=0)
    # Non-finite floats are named as JS names them.
    with pytest.raises(GunbaiError) as info:
        gunbai.dice.roll(expr="1d6", rolls=[float("-inf")])
    assert str(info.value) == "rolls[0]: -Infinity is not a JSON number"
    # Batch and call refuse arguments that are not a mapping with the core's words.
    with pytest.raises(GunbaiError) as info:
        gunbai.call_batch("dice.simulate_pool", [1, 2])
    assert str(info.value) == "args: must be an object of named arguments, not an array"
    # A key that is not valid Unicode is refused saying so.
    with pytest.raises(GunbaiError) as info:
        gunbai.call("dice.roll", {"expr": "2d6", "\ud800": 1})
    assert (info.value.code, info.value.field) == ("invalid_argument", "args")
    assert "a key is not valid Unicode text" in str(info.value)
    # A saved battle that is not JSON text: GunbaiError naming state, as in JS.
    with pytest.raises(GunbaiError) as info:
        gunbai.Battle.from_json("{")
    assert (info.value.code, info.value.field) == ("invalid_argument", "state")


def test_numpy_arrays_are_lists() -> None:
    import numpy as np

    assert gunbai.dice.roll(expr="2d6", rolls=np.array([3, 4]))["total"] == 7
    faces = gunbai.dice.simulate_pool(count=1, sides=6, n=2, seed=1)
    assert gunbai.dice.roll(expr="2d6", rolls=faces)["total"] == int(faces.sum())
    assert gunbai.dice.pool(count=np.float64(2.0), sides=6, rolls=[1, 2])["total"] == 3


def test_numpy_like_ints_are_accepted() -> None:
    class IntLike:
        def __index__(self) -> int:
            return 3

    assert gunbai.dice.pool(count=IntLike(), sides=6, rolls=[1, 1, 1])["total"] == 3


def test_threads_get_the_same_seeded_results() -> None:
    want = gunbai.dice.pool(count=100, sides=6, seed=5)
    out: list[object] = []
    threads = [threading.Thread(target=lambda: out.append(gunbai.dice.pool(count=100, sides=6, seed=5))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [want] * 4


def test_results_are_json_shaped() -> None:
    r = gunbai.dice.roll(expr="D66+D100", seed=3)
    assert json.loads(json.dumps(r)) == r


def test_batch_returns_numpy_in_one_stream() -> None:
    import numpy as np

    a = gunbai.dice.simulate_pool(count=10, sides=6, n=1000, seed=42)
    assert isinstance(a, np.ndarray) and a.dtype == np.int32 and a.shape == (1000,)
    assert int(a[0]) == gunbai.dice.pool(count=10, sides=6, seed=42)["total"]
    assert int(a[:3].sum()) == gunbai.dice.pool(count=30, sides=6, seed=42)["total"]
    assert 10 <= a.min() and a.max() <= 60
    with pytest.raises(GunbaiError) as info:
        gunbai.dice.simulate_pool(count=1, sides=6, n=10**8 + 1, seed=1)
    assert info.value.code == "out_of_range"  # n's own range (RULINGS: error codes)


def test_call_batch_by_name_like_js_call_batch() -> None:
    import numpy as np

    a = gunbai.call_batch("dice.simulate_pool", {"count": 10, "sides": 6, "n": 100}, seed=42)
    b = gunbai.dice.simulate_pool(count=10, sides=6, n=100, seed=42)
    assert isinstance(a, np.ndarray) and np.array_equal(a, b)
    assert np.array_equal(gunbai.call_batch("dice.simulate_pool", count=10, sides=6, n=100, seed=42), b)
    # The wrong entry point names the right one.
    with pytest.raises(GunbaiError) as info:
        gunbai.call("dice.simulate_pool", count=10, sides=6, n=100)
    assert info.value.code == "unknown_operation" and info.value.field == "op" and "call_batch" in str(info.value)
    with pytest.raises(GunbaiError) as info:
        gunbai.call_batch("dice.roll", expr="1d6")
    assert info.value.code == "unknown_operation" and "call" in str(info.value)
    with pytest.raises(GunbaiError) as info:
        gunbai.call_batch("dice.simulate_pool", [1, 2])
    assert info.value.code == "invalid_argument" and info.value.field == "args"


def test_battle_class_over_the_engine() -> None:
    from pathlib import Path

    setup = json.loads((Path(__file__).parents[2] / "examples/battles/rank_3v3.json").read_text(encoding="utf-8"))
    b = gunbai.Battle.create(**setup)
    assert b.outcome is None and b.state["round"] == 1
    legal = b.legal_actions()
    assert legal, "a new battle has legal actions"
    r = b.act(legal[0]["action"], seed=1)
    assert r["events"] and isinstance(r["rolls"], list)
    before = json.dumps(b.state, sort_keys=True)
    with pytest.raises(GunbaiError) as info:
        b.act({"type": "pass", "team": "nobody"}, seed=1)
    assert info.value.code in ("illegal_action", "invalid_argument")
    assert json.dumps(b.state, sort_keys=True) == before  # state unchanged
    again = gunbai.Battle.from_json(b.to_json())
    assert again.state == b.state
    with pytest.raises(GunbaiError) as bad:
        gunbai.Battle.from_json({"format": "nonsense"})
    assert bad.value.code == "invalid_data"
    # Play on with the first legal action until the battle ends (bounded).
    for step in range(3000):
        legal = b.legal_actions()
        if not legal:
            break
        b.act(legal[0]["action"], seed=step)
    assert b.outcome is not None and b.legal_actions() == []


def test_text_that_is_not_unicode_is_invalid_argument() -> None:
    # A lone surrogate can't be encoded for the core: GunbaiError naming the field,
    # not UnicodeEncodeError.
    with pytest.raises(GunbaiError) as info:
        gunbai.command.run(text="\ud800")
    assert (info.value.code, info.value.field) == ("invalid_argument", "text")


def test_batch_arrays_are_writable_and_the_pool_work_is_bounded() -> None:
    a = gunbai.dice.simulate_pool(count=2, sides=6, n=5, seed=1)
    a[0] = 0  # a notebook may edit results in place
    assert a[0] == 0
    # 1000 dice x 10^7 repetitions (each within its own range) is minutes of
    # uninterruptible work: refused up front as a bound across the call.
    with pytest.raises(GunbaiError) as info:
        gunbai.dice.simulate_pool(count=1000, sides=6, n=10_000_000, seed=1)
    assert (info.value.code, info.value.field) == ("limit_exceeded", "n")


def _raised(call) -> GunbaiError:  # type: ignore[no-untyped-def]
    with pytest.raises(GunbaiError) as info:
        call()
    return info.value


def test_depth_refusal_is_one_message_wherever_it_happens() -> None:
    # json.dumps runs out of recursion, or the core's scan refuses the text: the same error
    # (and the same as in JS, bindings-js/test/hostile.test.mjs).
    from_python = _raised(lambda: gunbai.call("dice.roll", _nested(100_000)))
    from_core = _raised(lambda: gunbai.call("dice.roll", _nested(200)))
    expected = ("limit_exceeded", "args", "args: JSON nested deeper than 64 levels of arrays and objects")
    assert (from_python.code, from_python.field, from_python.message) == expected
    assert (from_core.code, from_core.field, from_core.message) == expected


def test_the_audits_nested_arrays_are_refused_before_parsing() -> None:
    # 20,001 chains of 80 levels (about 3.2 MB of JSON; 13.6 s and 1.58 GB when parsed unbounded),
    # and of 60 levels (within the depth bound, past the value count).
    for depth, message in [(80, "nested deeper than 64"), (60, "arguments hold at most")]:
        one: object = []
        for _ in range(depth - 1):
            one = [one]
        e = _raised(lambda: gunbai.call("coc7.distribution", skill=50, value=[one] * 20_001))
        assert e.code == "limit_exceeded" and message in e.message, e.message


def test_errors_quote_a_short_prefix_of_long_input() -> None:
    e = _raised(lambda: gunbai.command.run(text="1d6", system="x" * 10**6))
    assert e.code == "invalid_argument" and len(e.message) < 1100, len(e.message)
    e = _raised(lambda: gunbai.call("dice.roll", {"expr": "1d6", "k" * 10**6: 1}))
    assert len(e.message) < 1100 and e.field is not None and len(e.field) < 300


def test_usize_fields_refuse_2_to_the_32_as_wasm_does() -> None:
    # `usize` is 32 bits in wasm; the native build refuses the same numbers with the same
    # message. A saved coc_ap round's `turn` is one.
    import pathlib

    path = pathlib.Path(__file__).parents[2] / "testdata" / "vectors" / "coc" / "blackbox.json"
    case = next(c for c in json.loads(path.read_text("utf-8")) if c["id"] == "coc_ap-bb-act-next-round-reset")
    args = json.loads(json.dumps(case["args"]))
    args["state"]["turn"] = 2**32
    e = _raised(lambda: gunbai.call("coc_ap.round_act", args))
    assert (e.code, e.field) == ("invalid_data", "state.turn"), e.message
    assert e.message == "state.turn: invalid value: integer `4294967296`, expected usize"
