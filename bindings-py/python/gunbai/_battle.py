"""A convenience class over ``world_trigger.battle_*`` (no rules of its own)."""

from __future__ import annotations

import json
from typing import Any

from ._core import GunbaiError, call


class Battle:
    """A World Trigger battle: the serializable state plus its event log.

    Every method calls the pure operations; an illegal action raises
    :class:`gunbai.GunbaiError` (code ``illegal_action``, ``.rule`` naming the
    rule) and leaves :attr:`state` as it was.
    """

    def __init__(self, state: dict[str, Any]) -> None:
        self.state: dict[str, Any] = state
        self.log: list[dict[str, Any]] = []

    @classmethod
    def create(cls, **setup: Any) -> Battle:
        """A new battle from a setup (the ``world_trigger.battle_new`` arguments)."""
        r = call("world_trigger.battle_new", setup)
        b = cls(r["state"])
        b.log.extend(r["events"])
        return b

    @classmethod
    def from_json(cls, state: str | dict[str, Any]) -> Battle:
        """A battle from a saved state (validated by the core)."""
        parsed: Any = state
        if isinstance(state, str):
            try:
                parsed = json.loads(state)
            except ValueError as e:  # JSONDecodeError
                raise GunbaiError("invalid_argument", f"state: not valid JSON ({e})", "state") from None
        call("world_trigger.battle_legal_actions", {"state": parsed})
        return cls(parsed)

    def legal_actions(self, actor: str | None = None) -> list[dict[str, Any]]:
        """Every action legal now, each ``{"action": …, …cost}``; pass ``action`` to :meth:`act`."""
        args: dict[str, Any] = {"state": self.state}
        if actor is not None:
            args["actor"] = actor
        actions: list[dict[str, Any]] = call("world_trigger.battle_legal_actions", args)["actions"]
        return actions

    def act(self, action: dict[str, Any], *, seed: int | None = None, rolls: list[Any] | None = None) -> list[dict[str, Any]]:
        """Apply one action; returns its events."""
        args: dict[str, Any] = {"state": self.state, "action": action}
        if seed is not None:
            args["seed"] = seed
        if rolls is not None:
            args["rolls"] = rolls
        r = call("world_trigger.battle_act", args)
        self.state = r["state"]
        events: list[dict[str, Any]] = r["events"]
        self.log.extend(events)
        return events

    @property
    def outcome(self) -> dict[str, Any] | None:
        """How the battle ended (None while it goes on)."""
        outcome: dict[str, Any] | None = self.state.get("outcome")
        return outcome

    def to_json(self) -> str:
        """The state as JSON text."""
        return json.dumps(self.state, ensure_ascii=False)
