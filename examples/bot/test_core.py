"""Tests of the bot's `!undo` (run by scripts/test.d/50-bot.sh: `python -m pytest examples/bot`).

Every expectation compares the bot with itself before the undone command (the
`!order` / `!next` replies), so no dice result is written down here.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from core import UNDO_MAX, Bot, StateFile  # noqa: E402


def say(bot: Bot, text: str, channel: str = "c") -> str:
    r = bot.handle(channel, "gm", text)
    assert r is not None, text
    return r.text


def test_undo_takes_back_next_init_and_end_in_turn_and_survives_a_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "state.json")
    bot = Bot(StateFile(path), seed=7)
    say(bot, "!lang en")
    say(bot, "!system tmd")
    assert say(bot, "!undo") == "nothing to undo"
    say(bot, "!init Alice TI+3")
    order_one = say(bot, "!order")
    say(bot, "!init Bob TI+1")
    order_two = say(bot, "!order")
    first = say(bot, "!next")
    second = say(bot, "!next")
    assert first != second

    assert say(bot, "!undo") == "undone: !next"
    assert say(bot, "!next") == second, "the turn went back one: the next !next gives the same turn again"
    assert say(bot, "!undo") == "undone: !next"
    assert say(bot, "!undo") == "undone: !next"
    assert say(bot, "!next") == first
    say(bot, "!undo")
    assert say(bot, "!end") == "battle over"
    assert say(bot, "!order") == "no battle"

    # A restarted bot (the same state file) can still take the end back, then Bob's entry.
    bot = Bot(StateFile(path), seed=7)
    assert say(bot, "!undo") == "undone: !end"
    assert say(bot, "!order") == order_two
    assert say(bot, "!undo") == "undone: !init Bob TI+1"
    assert say(bot, "!order") == order_one
    assert say(bot, "!undo") == "undone: !init Alice TI+3"
    assert say(bot, "!order") == "no battle"
    assert say(bot, "!undo") == "nothing to undo"


def test_refused_commands_leave_nothing_to_undo_and_undo_is_per_channel(tmp_path: Path) -> None:
    bot = Bot(StateFile(str(tmp_path / "state.json")), seed=1)
    for ch in ("a", "b"):
        say(bot, "!lang en", ch)
        say(bot, "!system tmd", ch)
    say(bot, "!init NoTotal hello", "a")  # not a command: no total, no entry
    say(bot, "!next", "a")  # no battle yet
    say(bot, "!end", "a")  # nothing to end
    assert say(bot, "!undo", "a") == "nothing to undo"
    say(bot, "!init Alice TI+3", "b")
    assert say(bot, "!undo", "a") == "nothing to undo"
    assert say(bot, "!undo", "b") == "undone: !init Alice TI+3"


def test_undo_keeps_the_last_undo_max_changes(tmp_path: Path) -> None:
    bot = Bot(StateFile(str(tmp_path / "state.json")), seed=1)
    say(bot, "!lang ja")
    say(bot, "!system tmd")
    say(bot, "!init Alice TI+3")
    for _ in range(UNDO_MAX + 5):
        say(bot, "!next")
    undone = [say(bot, "!undo") for _ in range(UNDO_MAX)]
    assert undone == ["取り消し: !next"] * UNDO_MAX
    assert say(bot, "!undo") == "取り消せる操作はありません"
    # The !init and the first five !next are beyond reach: one member, so five turns are five rounds.
    assert say(bot, "!order").startswith("ラウンド5: ")


def test_a_state_file_from_before_undo_is_read(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    old = {"system": "tmd", "lang": "en", "rolls_made": 1, "battle": {"round": 1, "turn": 0, "entries": [{"name": "Alice", "total": 12}]}}
    path.write_text(json.dumps({"channels": {"c": old}}), encoding="utf-8")
    bot = Bot(StateFile(str(path)), seed=1)
    assert say(bot, "!undo") == "nothing to undo"
    assert say(bot, "!next") == "round 2: Alice's turn"
    assert say(bot, "!undo") == "undone: !next"
    assert say(bot, "!order") == "round 1: 1. Alice 12"
