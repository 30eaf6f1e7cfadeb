"""The hand-written part of the game handles: one base class over the native ``Game``.

The classes users see (``gunbai.world_trigger.Battle``, ``gunbai.tmd.Encounter``, …)
are generated from the catalog's ``handles`` list; each only names its handle and
carries typed signatures. Every method is one native call: the state stays in Rust
between calls, so a host pays for JSON only for what crosses (an action in, its
events out). No rules live here.

A handle may be shared between threads: each call holds the native game's lock, so
calls from several threads run one after another, each whole (the GIL is released
while the core runs, so other Python threads go on meanwhile).
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, TypeVar, overload

from . import _native
from ._native import CoreError as _CoreError
from ._core import _DEPTH_REFUSAL, GunbaiError, _encode, _ok, _run_native

_G = TypeVar("_G", bound="Game")
_F = TypeVar("_F", bound=Callable[..., Any])


def _one_of(names: Sequence[str]) -> str:
    """The valid names as the core lists them (``one of `a`, `b```)."""
    if not names:
        return "none"
    quoted = ", ".join(f"`{n}`" for n in names)
    return quoted if len(names) == 1 else f"one of {quoted}"


def _argument_error(label: str, sig: inspect.Signature, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> GunbaiError:
    """Why ``args``/``kwargs`` (``args[0]`` the handle or its class) do not fit ``sig``,
    as the core says it of an operation's arguments: ``invalid_argument`` naming the
    argument and listing the valid names."""
    params = list(sig.parameters.values())[1:]
    names = [p.name for p in params if p.kind is not p.VAR_KEYWORD]
    by_keyword = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    for k in kwargs:
        if k not in by_keyword:
            return GunbaiError("invalid_argument", f"{k}: unknown argument `{k}` of {label}, expected {_one_of(names)}", k)
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    given = len(args) - 1
    if given > len(positional):
        keyword_only = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
        rest = f"; pass {_one_of(keyword_only).removeprefix('one of ')} by keyword" if keyword_only else ""
        return GunbaiError(
            "invalid_argument", f"args: {label} takes {len(positional)} positional argument(s), not {given}{rest}", "args"
        )
    for name in positional[:given]:
        if name in kwargs:
            return GunbaiError("invalid_argument", f"{name}: {label} got `{name}` twice (by position and by keyword)", name)
    for p in params:
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            if p.name not in kwargs and p.name not in positional[:given]:
                return GunbaiError("invalid_argument", f"{p.name}: missing argument `{p.name}` of {label}", p.name)
    return GunbaiError("invalid_argument", f"args: the arguments do not fit {label}{sig}", "args")


def _arguments(f: _F) -> _F:
    """Make a handle method's argument mistakes (a misspelt or missing keyword, one
    positional argument too many) a :class:`GunbaiError` (``invalid_argument`` naming
    the argument and the valid names), as an operation's are, not a ``TypeError``. The
    call itself runs as it is; only a failure to bind is read again."""
    sig = inspect.signature(f)

    @functools.wraps(f)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except TypeError as e:
            # A binding failure is raised before `f` runs: its traceback ends here.
            if e.__traceback__ is None or e.__traceback__.tb_next is not None:
                raise
        owner = args[0] if args else None
        handle = getattr(owner, "_handle", "") or type(owner).__name__
        label = f"{handle}.{f.__name__}"
        raise _argument_error(label, sig, args, kwargs)

    return run  # type: ignore[return-value]


class ListingIndexError(GunbaiError, IndexError):
    """An index outside a :class:`Listing` (``out_of_range``): a :class:`GunbaiError`
    that is also the ``IndexError`` the sequence protocol expects."""


class ListingTypeError(GunbaiError, TypeError):
    """A listing index that is not an integer (``invalid_argument``): a
    :class:`GunbaiError` that is also the ``TypeError`` sequences raise."""


class Game:
    """A game in progress, its state kept native between calls.

    Create one with ``create(**setup)`` (the ``new`` operation's arguments) or
    ``from_json(saved_state)``. An illegal action raises :class:`GunbaiError`
    (``illegal_action``, ``.rule`` naming the rule) and changes nothing; ``undo()``
    takes back the last action (up to 100). A handle pickles by its state.

    Every exception a handle raises is a :class:`GunbaiError`, argument mistakes
    included (``act(a, sed=1)`` is ``invalid_argument`` listing the valid names).
    A handle is safe to share between threads: calls serialize on the handle's lock,
    each one whole, in the order they take it.
    """

    _handle: ClassVar[str] = ""
    __slots__ = ("_g", "created")

    created: dict[str, Any]
    """What setting the game up gave: ``{"events": [...], "rolls": [...]}``."""

    def __init__(self) -> None:
        self._g = _native.Game()
        self.created = {"events": [], "rolls": []}

    def _call(self, method: str, args: Any = None) -> Any:
        return self._call_text(method, "{}" if args is None else _encode(args), args)

    def _call_text(self, method: str, text: str, args: Any = None) -> Any:
        # The reply read natively (no JSON text crossing); an error envelope is read
        # and raised as every other refusal is, outside the handler.
        try:
            return _run_native(self._g.call_read, method, text, args)
        except _CoreError as e:
            envelope = e.args[0]
        return _ok(envelope, args)

    @classmethod
    def _open(cls: type[_G], setup: Mapping[str, Any]) -> _G:
        game = cls()
        game.created = game._call("create", {"handle": cls._handle, "setup": dict(setup)})
        return game

    @classmethod
    @_arguments
    def from_json(cls: type[_G], state: str | Mapping[str, Any], data: Any = None) -> _G:
        """A game from a saved state (JSON text or the parsed object), validated by
        the core; ``data`` is the data pack given to ``create``, if any (FAP/MAP)."""
        parsed: Any = state
        if isinstance(state, (str, bytes, bytearray)):
            error = None
            try:
                parsed = json.loads(state)
            except ValueError as e:  # JSONDecodeError, UnicodeDecodeError
                error = GunbaiError("invalid_argument", f"state: not valid JSON ({e})", "state")
            except RecursionError:
                # Nested too deep for Python's reader: the core's refusal for depth, as JS
                # (whose reader goes deeper) gets it from the core.
                error = GunbaiError("limit_exceeded", f"args: {_DEPTH_REFUSAL}", "args")
            if error is not None:
                raise error
        game = cls()
        game._call("load", {"handle": cls._handle, "state": parsed, "data": data})
        return game

    @_arguments
    def legal_actions(
        self,
        actor: str | None = None,
        *,
        kind: str | None = None,
        compact: bool = False,
        viewer: Any = None,
    ) -> Any:
        """Every action legal now, each ``{"action": …, …cost}``; pass ``["action"]``
        to :meth:`act`. ``actor`` keeps that character's actions and the ones naming nobody;
        ``kind`` keeps the actions of one ``type``. ``compact=True`` gives
        ``{"actions": [...], "moves": [...]}``: World Trigger's moves apart, as each
        mover's squares with their costs and routes (the other engines list no moves).
        ``viewer`` (as :meth:`view` takes it; None: the GM) lists what that viewer may know:
        World Trigger leaves out every item naming another team's member in Stealth and
        lists as if it stood nowhere (WT-ST-1); the other engines hide nothing."""
        args: dict[str, Any] = {"actor": actor, "kind": kind, "viewer": viewer}
        if compact:
            args["compact"] = True
        return self._call("legal_actions", args)

    @_arguments
    def listing(self, actor: str | None = None) -> Listing:
        """The legal actions now, listed natively and decoded only when read: a
        :class:`Listing` (a sequence of ``{"action": …, …cost}``). Cheaper than
        :meth:`legal_actions` when a host reads a few of them (a policy that picks
        one); it stays readable after later actions (the last 8 listings)."""
        opened = self._call("legal_open", None if actor is None else {"actor": actor})
        return Listing(self, opened["id"], opened["len"])

    @_arguments
    def act(self, action: Any, *, seed: int | None = None, rolls: Any = None) -> Any:
        """Apply one action: ``{"events": [...], "rolls": [...]}``. Unseeded dice use entropy."""
        return self._call("act", {"action": action, "seed": seed, "rolls": rolls})

    @_arguments
    def undo(self) -> None:
        """Take back the last action (``invalid_argument`` naming ``undo`` if there is none)."""
        self._call("undo")

    @property
    def undo_depth(self) -> int:
        """How many actions :meth:`undo` can take back now."""
        depth: int = self._call("undo_depth")
        return depth

    @_arguments
    def view(self, viewer: Any = None, events: Any = None, action: Any = None) -> Any:
        """Hidden information: the state as ``viewer`` may see it, and ``events`` (the last
        action's, as :meth:`act` returned them) and ``action`` (that action) redacted for it:
        ``{"state": ..., "events": ..., "action": ...}`` (``events`` and ``action`` only when
        given), exactly as the pure ``<module>.<x>_view`` operation gives.

        ``viewer``: a World Trigger team's index or id (another team's members in Stealth
        have no square, WT-ST-1); for the other engines, whose rules hide nothing, a
        combatant's id (TMD: or a side) and the state unchanged. None: the GM (everything).
        A viewer that names nobody is ``invalid_argument`` naming ``viewer``.
        """
        return self._call("view", {"viewer": viewer, "events": events, "action": action})

    @property
    def state(self) -> Any:
        """The state, in the same JSON shape the pure operations use (a fresh copy)."""
        return self._call("state")

    @property
    def turn(self) -> Any:
        """Whose move it is: ``{"round": ..., "phase": ..., "active": [{"id": ..., "stage": ...}]}``
        (``id`` None for a round-level step, whose ``stage`` names the action it waits for),
        exactly as the pure ``<module>.<x>_turn`` operation gives."""
        return self._call("turn")

    @_arguments
    def turn_for(self, viewer: Any = None) -> Any:
        """:attr:`turn` as ``viewer`` (as :meth:`view` takes it; None: the GM) may know it:
        no entry names what that viewer may not see (World Trigger: a pending attack's target
        in Stealth hidden from the team reacts under ``id`` None, WT-ST-1), exactly as the
        pure ``<module>.<x>_turn`` operation gives with ``viewer``. A viewer that names
        nobody is ``invalid_argument`` naming ``viewer``."""
        return self._call("turn", {"viewer": viewer})

    @property
    def outcome(self) -> Any:
        """How the game ended (None while it goes on, and always for rounds, whose end is the GM's call)."""
        return self._call("outcome")

    @_arguments
    def to_json(self) -> str:
        """The state as JSON text (``from_json`` reads it back)."""
        return json.dumps(self._call("state"), ensure_ascii=False, separators=(",", ":"))

    def __reduce__(self) -> tuple[Any, ...]:
        saved = self._call("save")
        return (_restore, (type(self), saved["state"], saved.get("data")))

    def __repr__(self) -> str:
        return f"<gunbai {self._handle} handle>"


class Listing(Sequence[Any]):
    """The legal actions of one moment of a game, kept natively; an item is decoded
    when it is read (``listing[i]``), all of them on iteration or slicing."""

    __slots__ = ("_game", "_id", "_len", "_items", "_all")

    def __init__(self, game: Game, listing_id: int, length: int) -> None:
        self._game = game
        self._id = listing_id
        self._len = length
        self._items: dict[int, Any] = {}
        self._all: list[Any] | None = None

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return self.to_list()[i]
        i = self._index(i, "integers or slices", bools=True)
        if self._all is not None:
            return self._all[i]
        if i not in self._items:
            self._items[i] = self._game._call("legal_item", {"id": self._id, "index": i})
        return self._items[i]

    @_arguments
    def play(self, i: int, *, seed: int | None = None, rolls: Any = None) -> Any:
        """Apply item ``i``'s action to the game: what ``game.act(listing[i]["action"], ...)``
        does, without the action crossing as JSON. An item of an older listing that is no
        longer legal is refused as any action is."""
        i = self._index(i, "integers")
        if rolls is None and (seed is None or type(seed) is int):
            # Only integers: the text is written here, not walked by _encode.
            tail = "}" if seed is None else f',"seed":{seed}}}'
            text = f'{{"id":{self._id},"index":{i}{tail}'
            return self._game._call_text("act_listed", text, {"id": self._id, "index": i, "seed": seed})
        return self._game._call("act_listed", {"id": self._id, "index": i, "seed": seed, "rolls": rolls})

    @_arguments
    def _index(self, i: Any, kinds: str, bools: bool = False) -> int:
        """``i`` as an index into the listing (a negative one counts from the end; a
        bool only where ``bools``, as a list takes one)."""
        if not isinstance(i, int) or (isinstance(i, bool) and not bools):
            raise ListingTypeError("invalid_argument", f"index: listing indices must be {kinds}, not {type(i).__name__}", "index")
        index = int(i) + self._len if i < 0 else int(i)
        if not 0 <= index < self._len:
            raise ListingIndexError("out_of_range", f"index: listing index out of range (the listing has {self._len} items)", "index")
        return index

    def to_list(self) -> list[Any]:
        """Every item, decoded (what :meth:`Game.legal_actions` returns)."""
        if self._all is None:
            self._all = self._game._call("legal_items", {"id": self._id})
        return list(self._all)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.to_list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Listing, list, tuple)):
            return self.to_list() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.to_list())

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (self.to_list(),))


def _restore(cls: type[Game], state: Any, data: Any) -> Game:
    return cls.from_json(state, data)


def _create(f: _F) -> _F:
    """Make a generated ``create`` classmethod open the game with the keywords it is
    called with (the setup); the signature it shows (and type checkers read) is the
    generated one, and a missing or unknown keyword is the core's ``invalid_argument``,
    as in JS."""

    @functools.wraps(f)
    def run(cls: type[Game], *args: Any, **setup: Any) -> Game:
        if args:
            raise GunbaiError("invalid_argument", f"args: {cls._handle}.create takes keyword arguments only", "args")
        return cls._open(setup)

    return run  # type: ignore[return-value]
