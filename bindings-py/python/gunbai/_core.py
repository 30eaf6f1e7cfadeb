"""The hand-written part of the Python surface: one generic call and the error type."""

from __future__ import annotations

import functools
import json
import math
import operator
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from . import _native

_R = TypeVar("_R")


class GunbaiError(ValueError):
    """Raised by every gunbai operation.

    Attributes:
        code: stable machine-readable code, e.g. ``"invalid_argument"``.
        field: the offending argument field (``"rolls[2]"``), or None.
        rule: the rule ID an illegal action breaks, or None.
        details: every problem (dicts with ``path``, ``rule``, ``message``) when
            validation found several; ``field``/``rule`` are the first one's.
        position: for a ``parse_error`` in a text argument (``field``), the
            1-based character where reading failed, or None.
        loc: ``field`` as keys and indices (``["rolls", 2]``); empty when there is
            no field.
    """

    code: str
    field: str | None
    rule: str | None
    details: list[dict[str, Any]]
    position: int | None
    loc: list[str | int]

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        rule: str | None = None,
        details: list[dict[str, Any]] | None = None,
        position: int | None = None,
        loc: list[str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.rule = rule
        self.details = details or []
        self.position = position
        self.loc = loc or []

    def __repr__(self) -> str:
        return f"GunbaiError(code={self.code!r}, message={self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Every attribute crosses a pickle (multiprocessing, concurrent.futures, Dask):
        # the default would call GunbaiError(message) and lose the rest.
        return (
            type(self),
            (self.code, self.message, self.field, self.rule, self.details, self.position, self.loc),
        )


def _default(value: Any) -> Any:
    # numpy arrays (a batch result passed back in), numpy scalars and other
    # int-likes/float-likes (common in notebooks).
    if hasattr(value, "tolist") and getattr(value, "ndim", 0) > 0:
        return _js_numbers(value.tolist())
    if hasattr(value, "__index__"):
        return operator.index(value)
    if hasattr(value, "__float__") and not isinstance(value, (str, bytes)):
        return _js_numbers(float(value))
    if isinstance(value, (set, frozenset)):
        raise TypeError("sets are not JSON-shaped; pass a list")
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON-shaped")


def _js_numbers(value: Any) -> Any:
    """``value`` with every whole float written as an integer (``2.0``, ``-0.0``),
    as JavaScript writes numbers, so both surfaces send the same JSON: JS has no
    ``2.0`` distinct from ``2``. Floats from 1e21 up stay floats, as JS writes them
    in exponent form. Returns ``value`` itself when it holds no such float."""
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 1e21 else value
    if isinstance(value, Mapping):
        items = {k: _js_numbers(v) for k, v in value.items()}
        return items if any(items[k] is not value[k] for k in items) else value
    if isinstance(value, (list, tuple)):
        seq = [_js_numbers(v) for v in value]
        return seq if any(a is not b for a, b in zip(seq, value)) else value
    return value


def _number_name(value: float) -> str:
    """A non-finite float named as JavaScript names it."""
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def _refused_value(value: Any, path: str = "", depth: int = 0) -> tuple[str, str] | None:
    """Where ``json.dumps`` fails on ``value``: the path (as the core writes paths,
    ``sheet.points[2]``) and why; None if nothing is found there."""
    if depth > 100:
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else (path, f"{_number_name(value)} is not a JSON number")
    if isinstance(value, (str, int, bool)) or value is None:
        return None
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                return (path or "args", f"a key must be a string, not {type(k).__name__}")
            found = _refused_value(v, f"{path}.{k}" if path else str(k), depth + 1)
            if found:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            found = _refused_value(v, f"{path}[{i}]", depth + 1)
            if found:
                return found
        return None
    try:
        converted = _default(value)
    except TypeError as e:
        return (path, str(e))
    return _refused_value(converted, path, depth + 1)


def _unreadable_value(value: Any, path: str = "", depth: int = 0) -> tuple[str, str] | None:
    """A value ``json.dumps`` writes but the core cannot read: a string that is not
    valid Unicode (a lone surrogate) or an integer beyond 64 bits. The path and why,
    or None. Looked for only after the core refused the text as a whole."""
    if depth > 100:
        return None
    if isinstance(value, str):
        return None if _is_unicode(value) else (path, "not valid Unicode text (a lone surrogate)")
    if isinstance(value, int) and not isinstance(value, bool):
        return None if -(2**63) <= value < 2**64 else (path, f"{value} is too large for a JSON number")
    if isinstance(value, Mapping):
        for k in value:
            if isinstance(k, str) and not _is_unicode(k):
                return (path or "args", "a key is not valid Unicode text (a lone surrogate)")
        items: Any = ((f"{path}.{k}" if path else str(k), v) for k, v in value.items())
    elif isinstance(value, (list, tuple)):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for p, v in items:
        found = _unreadable_value(v, p, depth + 1)
        if found:
            return found
    return None


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _unreadable(value: Any, fallback: GunbaiError) -> GunbaiError:
    """The error for text the core could not read: naming the field when it is found."""
    found = _unreadable_value(value)
    if found and found[0]:
        return GunbaiError("invalid_argument", f"{found[0]}: {found[1]}", found[0])
    return fallback


# gunbai::bounds::DEPTH_REFUSAL (a test checks that both say the same).
_DEPTH_REFUSAL = "JSON nested deeper than 64 levels of arrays and objects"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, default=_default, separators=(",", ":"))


def _make_fast_dumps() -> Callable[[Any], str] | None:
    """``_dumps`` without building a ``JSONEncoder`` (and its C encoder) on every
    call: the C encoder ``json.dumps`` would build, built once. It keeps no record of
    the containers it is in (no circular-reference check), so a circular value ends
    in RecursionError, and :func:`_encode` then writes the value again with
    ``_dumps`` for the same error. None when ``json`` has no C encoder."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython always has it
        return None
    encoder = make(None, _default, json.encoder.encode_basestring, None, ":", ",", False, False, False)

    def fast_dumps(value: Any) -> str:
        if isinstance(value, str):  # as JSONEncoder.encode writes a top-level string
            return json.encoder.encode_basestring(value)
        return "".join(encoder(value, 0))

    return fast_dumps


_fast_dumps = _make_fast_dumps() or _dumps


def _encode(value: Any) -> str:
    """The arguments as JSON text, written as JavaScript's ``JSON.stringify`` writes
    them (no spaces, whole floats as integers), so the core reads the same text from
    both surfaces; what JSON can't carry is ``invalid_argument`` naming its field."""
    try:
        # Fast path: written as it is, the text has a whole float only where it has
        # ``.0`` or an exponent (``1e+16``); only then is the value walked to write
        # whole floats as integers (and the text written again).
        text = _fast_dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = None
    if text is None:  # written again outside the handler: its error has no context
        return _encode_slow(value)
    if ".0" in text or "e+" in text or "E+" in text:
        return _encode_slow(value)
    return text


def _encode_slow(value: Any) -> str:
    """:func:`_encode` with ``json.dumps`` itself: the path that names what JSON
    can't carry, and that writes whole floats as integers."""
    try:
        text = _dumps(value)
        if ".0" in text or "e+" in text or "E+" in text:
            text = _dumps(_js_numbers(value))
        return text
    except RecursionError:
        # Nested too deep for json.dumps: the core's refusal for depth (gunbai::bounds).
        error = GunbaiError("limit_exceeded", f"args: {_DEPTH_REFUSAL}", "args")
    except (TypeError, ValueError) as e:
        found = _refused_value(value)
        if found and found[0]:
            field, why = found
            error = GunbaiError("invalid_argument", f"{field}: {why}", field)
        else:
            error = GunbaiError("invalid_argument", f"args: not JSON-serializable ({e})", "args")
    # Raised outside the handler: no `json` exception as its context.
    raise error


def _run_native(native: Callable[[str, str], _R], name: str, text: str, value: Any) -> _R:
    """``native(name, text)``; text that is not valid Unicode (a lone surrogate,
    ``"\ud800"``, which Python's ``json`` writes and the core cannot read) is
    ``invalid_argument`` naming the field of ``value`` that holds it. The error is
    raised outside the handler, so it carries no ``UnicodeEncodeError`` context."""
    try:
        return native(name, text)
    except UnicodeEncodeError as e:
        reason = e.reason
    raise _unreadable(value, GunbaiError("invalid_argument", f"args: not valid Unicode text ({reason})", "args"))


def _native_call(native: Callable[[str, str], Any], op: str, value: Any) -> tuple[Any, Any]:
    """Run ``native`` (``_native.call`` or ``_native.call_batch``) on ``value`` as JSON
    text: its ``ok`` envelope value and whatever else it returned, or the core's error
    raised as GunbaiError."""
    reply = _run_native(native, op, _encode(value), value)
    envelope_text, extra = reply if isinstance(reply, tuple) else (reply, None)
    return _ok(envelope_text, value), extra


# The C scanner ``json.loads`` reads with: reading the ``ok`` value where it starts
# skips building the envelope dict and matching whitespace around it.
_scan_once: Callable[[str, int], tuple[Any, int]] = getattr(json.decoder.JSONDecoder(), "scan_once")  # noqa: B009 - not in the stubs


def _ok(envelope_text: str, value: Any) -> Any:
    """The ``ok`` value of the core's envelope, or its error raised as GunbaiError
    (``value``: the arguments sent, to name a field only Python could write)."""
    # Fast path: the core writes a result as `{"ok":VALUE}` exactly.
    if envelope_text.startswith('{"ok":'):
        try:
            ok, end = _scan_once(envelope_text, 6)
        except (StopIteration, ValueError):
            pass
        else:
            if end == len(envelope_text) - 1 and envelope_text[end] == "}":
                return ok
    return _ok_slow(envelope_text, value)


def _ok_slow(envelope_text: str, value: Any) -> Any:
    """:func:`_ok` by ``json.loads`` of the whole envelope."""
    envelope = json.loads(envelope_text)
    error = envelope.get("error")
    if error is not None:
        raise _error(error, value)
    return envelope["ok"]


_call_value = _native.call_value
_Unencodable = _native.Unencodable
_CoreError = _native.CoreError


def _send(op: str, value: Any) -> Any:
    """Run ``op`` on ``value``: the ``ok`` value.

    Fast path: ``_native.call_value`` writes plain arguments as JSON and reads the
    ``{"ok":…}`` envelope into Python objects natively. Arguments it does not write
    (numpy values, non-whole floats, anything JSON can't carry) take the JSON-text path
    (:func:`_send_text`), and an error envelope is read here as before, so every
    refusal is the one the text path gives."""
    try:
        return _call_value(op, value)
    except _Unencodable:
        envelope = None
    except _CoreError as e:
        envelope = e.args[0]
    # Read (and raised) outside the handler: the GunbaiError has no `CoreError` context,
    # so a traceback shows it alone, not the envelope's JSON.
    if envelope is not None:
        return _ok_slow(envelope, value)
    return _send_text(op, value)


def _send_text(op: str, value: Any) -> Any:
    """:func:`_send` through JSON text: ``_encode``, ``_native.call``, ``_ok``."""
    return _ok(_run_native(_native.call, op, _encode(value), value), value)


def _error(error: Mapping[str, Any], value: Any) -> GunbaiError:
    """The core's error as a GunbaiError; when the core could not read the text at
    all (``args``), the field of a value only Python could write is named instead."""
    e = GunbaiError(
        error["code"],
        error["message"],
        error.get("field"),
        error.get("rule"),
        error.get("details"),
        error.get("position"),
        error.get("loc"),
    )
    if e.code == "invalid_argument" and e.field == "args":
        return _unreadable(value, e)
    return e


_F = TypeVar("_F", bound=Callable[..., Any])


def _op(op: str, *, batch: bool = False, renames: Mapping[str, str] | None = None) -> Callable[[_F], _F]:
    """Make a generated function run ``op`` with the keywords it is called with.

    The decorated function only carries the typed signature and the docstring
    (``inspect.signature`` and ``help`` show them). Keywords are sent as given (the
    core reads one given as None as not given), so a missing or unknown keyword is the core's
    ``invalid_argument`` naming the field, exactly as in JS; ``renames`` maps
    Python-safe names back (``from_`` → ``from``).
    """
    names = dict(renames or {})

    def wrap(f: _F) -> _F:
        send = _batch if batch else _send
        if names:

            @functools.wraps(f)
            def run(*args: Any, **kwargs: Any) -> Any:
                if args:
                    raise GunbaiError("invalid_argument", f"args: {op} takes keyword arguments only", "args")
                return send(op, {names.get(k, k): v for k, v in kwargs.items()})

        else:
            # No renames: ``kwargs`` is a new dict on every call already, sent as it is.
            @functools.wraps(f)
            def run(*args: Any, **kwargs: Any) -> Any:
                if args:
                    raise GunbaiError("invalid_argument", f"args: {op} takes keyword arguments only", "args")
                return send(op, kwargs)

        return run  # type: ignore[return-value]

    return wrap


def call(op: str, args: Any = None, /, **kwargs: Any) -> Any:
    """Run any operation by name (``"world_trigger.check"``).

    Arguments come as one mapping, as keyword arguments, or both; an argument
    given as None is not given (the core's rule, the same for JS ``null``).
    """
    return _send(_op_name(op), _arguments(args, kwargs))


def call_batch(op: str, args: Any = None, /, **kwargs: Any) -> Any:
    """Run any batch operation by name (``"world_trigger.simulate_checks"``).

    The batch counterpart of :func:`call` (JS ``callBatch``): returns a numpy
    array. Arguments come as one mapping, as keyword arguments, or both (None is
    not given, as for :func:`call`). ``gunbai.meta.operations()`` marks the batch
    operations.
    """
    return _batch(_op_name(op), _arguments(args, kwargs))


def _op_name(op: Any) -> str:
    if not isinstance(op, str):
        raise GunbaiError("invalid_argument", "op: must be a string", "op")
    return op


def _arguments(args: Any, kwargs: Mapping[str, Any]) -> Any:
    """What :func:`call` and :func:`call_batch` send: the mapping and the keywords
    merged; anything else as given, for the core to refuse as JS and Rust do."""
    if args is None:
        return dict(kwargs)
    if isinstance(args, Mapping):
        return {**args, **kwargs}
    if kwargs:
        raise GunbaiError("invalid_argument", "args: give a mapping or keyword arguments", "args")
    return args


def _batch(op: str, args: Any) -> Any:
    """Run batch ``op``; returns a numpy array (numpy is imported lazily)."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("gunbai batch operations return numpy arrays: pip install 'gunbai[analysis]' or numpy") from None
    ok, data = _native_call(_native.call_batch, op, args)
    dtype = np.dtype(ok["dtype"]).newbyteorder("<")
    # `data` is a bytearray, so the array is writable (a notebook may edit it in place).
    array = np.frombuffer(data, dtype=dtype).astype(dtype.newbyteorder("="), copy=False)
    parts = ok.get("parts")
    if not parts:
        return array
    # A table: named arrays one after another; one with several columns (one per team) is 2-D.
    out: dict[str, Any] = {}
    offset = 0
    for part in parts:
        rows, cols = part["shape"]
        block = array[offset : offset + rows * cols]
        out[part["name"]] = block if cols == 1 else block.reshape(rows, cols)
        offset += rows * cols
    return out


class _LazyModule:
    """A stand-in for a module that imports it when an attribute is first read.

    The generated modules bind ``numpy`` to one, so ``typing.get_type_hints`` can
    evaluate their annotations (``numpy.typing.NDArray[numpy.int32]``) while
    ``import gunbai`` still does not import numpy."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import importlib

        module = importlib.import_module(self._name)
        try:
            return getattr(module, attr)
        except AttributeError:  # a submodule not imported yet (numpy.typing, matplotlib.axes)
            return importlib.import_module(f"{self._name}.{attr}")

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


_lazy_numpy = _LazyModule("numpy")


def catalog() -> dict[str, Any]:
    """Every operation with the JSON Schema of its arguments and result."""
    result: dict[str, Any] = json.loads(_native.catalog())
    return result
