"""The per-call fast paths of ``_core`` give exactly what the slow paths give.

``_encode`` writes arguments with a C encoder built once (``_fast_dumps``) and falls back
to ``json.dumps`` (``_encode_slow``) for anything it cannot write; ``_ok`` reads the
core's ``{"ok":…}`` envelope from where the value starts and falls back to ``json.loads``
of the whole envelope (``_ok_slow``). Each pair is compared here: the same text, the same
value, the same error (class, code, field, message).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

import pytest

import gunbai
from gunbai import GunbaiError, _native
from gunbai._core import _dumps, _encode, _encode_slow, _fast_dumps, _ok, _ok_slow


def _outcome(f: Any, *args: Any) -> tuple[str, Any]:
    """What ``f(*args)`` gives: ("ok", value) or ("raise", the error's class and fields)."""
    try:
        return ("ok", f(*args))
    except GunbaiError as e:
        return ("raise", (type(e), e.code, e.field, e.rule, e.details, e.position, str(e)))
    except Exception as e:  # noqa: BLE001 - any error must be the same error
        return ("raise", (type(e), str(e)))


def _circular() -> dict[str, Any]:
    d: dict[str, Any] = {"a": 1}
    d["self"] = d
    return d


class _IntLike:
    def __index__(self) -> int:
        return 7


VALUES: list[Any] = [
    {},
    {"expr": "1d100", "seed": 1},
    {"text": "CC(1)<=53", "seed": 1},
    {"a": True, "b": False, "c": None, "d": [1, -2, 3.5], "e": {"f": "日本語 ✓ \"q\" \\ \n"}},
    {"whole": 2.0, "neg_zero": -0.0, "big": 1e16, "huge": 1e21, "tiny": 1e-7, "s": "x.0 e+ E+"},
    {"nested": [[1.0, [2.0]], {"k": 3.0}], "t": (1, 2.0)},
    OrderedDict([("z", 1), ("a", 2)]),
    "a top-level string ✓",
    "",
    3.0,
    [1, 2, 3],
    None,
    {"int_like": _IntLike()},
    {"bad": float("nan")},
    {"bad": [1, float("inf")]},
    {"bad": {"deeper": [0, -float("inf")]}},
    {"set": {1, 2}},
    {"obj": object()},
    {1: "a key that is not a string"},
    {"big_int": 2**70},
    _circular(),
    [_circular()],
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_encode_fast_path_is_the_slow_path(value: Any) -> None:
    assert _outcome(_encode, value) == _outcome(_encode_slow, value)


@pytest.mark.parametrize("value", [v for v in VALUES if _outcome(_dumps, v)[0] == "ok"], ids=lambda v: type(v).__name__)
def test_fast_dumps_writes_what_json_dumps_writes(value: Any) -> None:
    assert _fast_dumps(value) == _dumps(value)


def test_encode_names_the_field_on_the_fast_path_too() -> None:
    with pytest.raises(GunbaiError) as info:
        _encode({"sheet": {"points": [1, 2, float("nan")]}})
    assert (info.value.code, info.value.field) == ("invalid_argument", "sheet.points[2]")
    assert str(info.value) == "sheet.points[2]: NaN is not a JSON number"
    with pytest.raises(GunbaiError) as info:
        _encode(_circular())
    assert (info.value.code, info.value.field) == ("invalid_argument", "args")
    assert "Circular reference detected" in str(info.value)


def test_encode_numpy_values_as_the_slow_path() -> None:
    np = pytest.importorskip("numpy")
    for value in (
        {"a": np.int64(5), "b": np.float64(2.0), "c": np.float32(1.5)},
        {"rolls": np.array([1, 2, 3], dtype=np.int32)},
        {"m": np.array([[1.0, 2.5], [3.0, 4.0]])},
        {"z": np.array(4)},
        {"bad": np.float64("nan")},
    ):
        assert _outcome(_encode, value) == _outcome(_encode_slow, value)


ENVELOPES = [
    '{"ok":1}',
    '{"ok":null}',
    '{"ok":"text ✓"}',
    '{"ok":{"total":35,"rolls":[3,5],"message":"a \\"b\\""}}',
    '{"ok":[1,2.5,-0.0,1e400]}',
    '{"ok":NaN}',
    '{"ok":1,"extra":2}',
    '{"ok":1} ',
    ' {"ok":1}',
    '{"ok":1}}',
    '{"ok": 1}',
    '{"ok":}',
    '{"ok":[1,2}',
    '{"ok":',
    '{"ok":1,"ok":2}',
    '{"error":{"code":"invalid_argument","message":"expr: required","field":"expr"}}',
    '{"error":{"code":"illegal_action","message":"no","rule":"WT-CHK-1","details":[{"path":"a","rule":"r","message":"m"}]}}',
    '{"error":{"code":"parse_error","message":"text: at 3","field":"text","position":3}}',
    '{"error":{"code":"invalid_argument","message":"args: not an object","field":"args"}}',
    "",
    "not json",
]


@pytest.mark.parametrize("text", ENVELOPES)
def test_envelope_fast_path_is_the_slow_path(text: str) -> None:
    args = {"expr": "2d6"}
    assert _outcome(_ok, text, args) == _outcome(_ok_slow, text, args)


CASES: list[tuple[str, dict[str, Any], Any]] = [
    ("meta.version", {}, lambda: gunbai.meta.version()),
    ("dice.roll", {"expr": "1d100", "seed": 1}, lambda: gunbai.dice.roll(expr="1d100", seed=1)),
    ("coc7.check", {"skill": 50, "seed": 1}, lambda: gunbai.coc7.check(skill=50, seed=1)),
    ("command.run", {"text": "CC(1)<=53", "system": "coc7", "seed": 1}, lambda: gunbai.command.run(text="CC(1)<=53", system="coc7", seed=1)),
    ("world_trigger.check", {"dice": 7, "seed": 1}, lambda: gunbai.world_trigger.check(dice=7, seed=1)),
    ("world_trigger.range", {"from": {"x": 0, "y": 0}, "targets": [{"x": 3, "y": 4}]}, None),
]


@pytest.mark.parametrize(("op", "args", "wrapper"), CASES, ids=[c[0] for c in CASES])
def test_wrapper_gives_the_native_envelope(op: str, args: dict[str, Any], wrapper: Any) -> None:
    # The envelope read by json.loads, straight from the native call on the same text.
    native = json.loads(_native.call(op, json.dumps(args)))
    assert set(native) == {"ok"}
    assert gunbai.call(op, args) == native["ok"]
    if wrapper is not None:
        assert wrapper() == native["ok"]


def test_renamed_keyword_is_sent_under_its_core_name() -> None:
    args = {"from": {"x": 0, "y": 0}, "targets": [{"x": 3, "y": 4}]}
    native = json.loads(_native.call("world_trigger.range", json.dumps(args)))
    assert gunbai.world_trigger.range(from_={"x": 0, "y": 0}, targets=[{"x": 3, "y": 4}]) == native["ok"]
    # The Python-safe name is not the core's: sent as `from_`, it is an unknown field.
    with pytest.raises(GunbaiError) as info:
        gunbai.call("world_trigger.range", {"from_": {"x": 0, "y": 0}})
    assert (info.value.code, info.value.field) == ("invalid_argument", "from_")


@pytest.mark.parametrize(
    ("op", "args"),
    [
        ("dice.roll", {"expr": "1d", "seed": 1}),
        ("dice.roll", {"seed": 1}),
        ("dice.roll", {"expr": "1d6", "unknown": 1}),
        ("coc7.check", {"skill": 5000}),
        ("command.run", {"seed": 1}),
        ("command.run", {"text": "CC<=50", "system": "no_such_system"}),
        ("world_trigger.check", {"dice": 7, "target": 10, "difficulty": "easy"}),
    ],
)
def test_wrapper_errors_are_the_native_errors(op: str, args: dict[str, Any]) -> None:
    native = json.loads(_native.call(op, json.dumps(args)))
    assert "error" in native
    error = native["error"]
    with pytest.raises(GunbaiError) as info:
        gunbai.call(op, args)
    e = info.value
    assert (e.code, str(e), e.field, e.rule, e.position) == (
        error["code"],
        error["message"],
        error.get("field"),
        error.get("rule"),
        error.get("position"),
    )
    assert e.details == (error.get("details") or [])


# ``_native.call_value`` (objects in and out) against the JSON-text path it replaces:
# for every value above, with ops whose replies hold strings in Japanese, escapes,
# floats, nulls and nested lists, the same value or the same error.
SEND_OPS: list[tuple[str, dict[str, Any]]] = [
    ("dice.roll", {"expr": "2d6+1", "rolls": [3, 5]}),
    ("command.run", {"text": "CC(1)<=53 日本語 \"q\" \\ \t ✓ 😀", "system": "coc7", "seed": 1}),
    ("command.run", {"text": "x3 CCB<=65", "system": "coc6", "seed": 2}),
    ("world_trigger.check", {"dice": 7, "seed": 1, "target": None}),
    ("world_trigger.distribution", {"dice": 3}),
    ("meta.operations", {}),
]


@pytest.mark.parametrize(("op", "args"), SEND_OPS, ids=[o for o, _ in SEND_OPS])
def test_call_value_is_the_text_path(op: str, args: dict[str, Any]) -> None:
    from gunbai._core import _send, _send_text

    assert _outcome(_send, op, args) == _outcome(_send_text, op, args)
    assert _native.call_value(op, args) == json.loads(_native.call(op, json.dumps(args)))["ok"]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_call_value_refuses_or_reads_as_the_text_path(value: Any) -> None:
    from gunbai._core import _send, _send_text

    for op in ("dice.roll", "meta.version"):
        assert _outcome(_send, op, value) == _outcome(_send_text, op, value)


def test_call_value_leaves_what_only_python_writes_to_the_text_path() -> None:
    np = pytest.importorskip("numpy")
    for value in (
        {"expr": "2d6", "rolls": np.array([3, 4])},
        {"expr": "2d6", "seed": np.int64(5)},
        {"expr": "2d6", "seed": 2.5},
        {"expr": "2d6", "seed": float("nan")},
        {"expr": "2d6", "seed": 2**64},
        {"expr": "2d6\ud800"},
        {"expr": "2d6", "\udc00": 1},
        OrderedDict([("expr", "2d6"), ("seed", 1)]),
    ):
        with pytest.raises(_native.Unencodable):
            _native.call_value("dice.roll", value)
    # Whole floats are written as integers, as the text path writes them.
    assert _native.call_value("dice.roll", {"expr": "1d100", "seed": 7.0}) == gunbai.dice.roll(expr="1d100", seed=7)
    assert _native.call_value("dice.roll", {"expr": "2d6", "rolls": (3.0, -0.0 + 4)}) == gunbai.dice.roll(expr="2d6", rolls=[3, 4])


def test_call_value_raises_the_error_envelope() -> None:
    with pytest.raises(_native.CoreError) as info:
        _native.call_value("dice.roll", {"expr": "1d"})
    envelope = json.loads(info.value.args[0])
    assert envelope["error"]["field"] == "expr"
    with pytest.raises(_native.CoreError):
        _native.call_value("no.such_op", {})
