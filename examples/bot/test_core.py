"""Tests of the bot's `!undo` (run by scripts/ci/bot.sh: `python -m pytest examples/bot`).

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


def test_card_session_per_user_and_channel_survives_a_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "state.json")
    bot = Bot(StateFile(path), seed=3)
    say(bot, "!lang zh-Hans")
    say(bot, "!system coc7")
    assert say(bot, ".st 侦查60 聆听 50") == "已录入角色卡：侦查60 聆听50"
    # The card's value is the target (the roll itself is not written down here).
    assert bot.handle("c", "gm", ".ra 侦查").text.startswith("(1D100<=60) ")
    assert bot.handle("c", "gm", ".ra 侦查+10").text.startswith("(1D100<=70) ")
    assert bot.handle("c", "gm", "CC<=目星").text.startswith("(1D100<=60) ")  # a synonym of 侦查
    # Another player in the channel, and the same player elsewhere, have no card.
    assert bot.handle("c", "pl", ".ra 侦查").text.startswith("没有技能「侦查」")
    say(bot, "!lang zh-Hans", channel="other")
    say(bot, "!system coc7", channel="other")
    assert say(bot, ".ra 侦查", channel="other").startswith("没有技能「侦查」")
    # A restarted bot keeps the card.
    bot = Bot(StateFile(path), seed=3)
    assert say(bot, ".st show") == "角色卡：侦查60 聆听50"
    assert bot.handle("c", "gm", ".ra 聆听").text.startswith("(1D100<=50) ")
    assert say(bot, ".st clear") == "已清空角色卡"
    assert say(bot, ".st show") == "角色卡是空的"
    assert bot.handle("c", "gm", ".ra 侦查").text.startswith("没有技能「侦查」")


def test_sc_en_and_setcoc_update_what_the_bot_stores(tmp_path: Path) -> None:
    """A card session: `.st` (through command.parse_st), `.sc` lowering SAN
    on the stored card, `.en` raising a skill or not, `.setcoc` stored for the channel.
    Losses of `1/1` are 1 whatever the dice, so the new SAN is known without them."""
    path = str(tmp_path / "state.json")
    bot = Bot(StateFile(path), seed=5)
    say(bot, "!lang zh-Hans")
    say(bot, "!system coc7")
    assert say(bot, ".st 理智60 侦查50") == "已录入角色卡：理智60 侦查50"
    assert say(bot, ".st 侦查+10") == "已录入角色卡：侦查50→60"
    assert say(bot, ".sc 1/1").endswith("＞ 理智损失 1 ＞ 理智 60 → 59")
    assert say(bot, ".st show") == "角色卡：侦查60 理智59"
    assert say(bot, ".sc 1/1 理智30 暗室").endswith("＞ 理智 30 → 29")  # a typed SAN: nothing stored
    assert say(bot, ".st show") == "角色卡：侦查60 理智59"
    # `.en`: improved (the card's 侦查 goes up by the d10 shown) or not (unchanged).
    en = say(bot, ".en 侦查")
    assert en.startswith("技能成长 侦查 (1D100>60) ＞ ")
    after = int(en.rsplit(" ", 1)[1])
    if "未成长" in en:
        assert after == 60
    else:
        assert 61 <= after <= 70 and en.endswith(f"侦查 60 → {after}")
    assert say(bot, ".st show") == f"角色卡：侦查{after} 理智59"
    # `.setcoc` is the channel's: stored, passed back, shown by `.setcoc`.
    assert say(bot, ".setcoc 3").startswith("房规已设为3：")
    assert bot.state.channel("c")["variants"]["coc7_rule"] == 3
    assert say(bot, ".setcoc").startswith("当前房规为3：")
    # Another player's card is untouched; a mistake leaves the card as it was.
    assert bot.handle("c", "pl", ".sc 1/1").text.startswith("没有技能「理智」")
    assert say(bot, ".st 理智-1d6").startswith("指令格式错误（第")
    assert say(bot, ".st show") == f"角色卡：侦查{after} 理智59"
    # Japanese: the same flow in the rulebook's terms, and it survives a restart.
    bot = Bot(StateFile(path), seed=5)
    say(bot, "!lang ja", channel="jp")
    say(bot, "!system coc7", channel="jp")
    assert say(bot, ".st 正気度55 目星:70", channel="jp") == "キャラクターカードを更新しました：正気度55 目星70"
    assert say(bot, ".sc 1/1", channel="jp").endswith("＞ 正気度喪失 1 ＞ 正気度 55 → 54")
    assert say(bot, ".st show", channel="jp") == "キャラクターカード：正気度54 目星70"
    assert say(bot, ".st clr", channel="jp") == "キャラクターカードを空にしました"


def test_initiative_list_and_table_pack_are_passed_and_kept(tmp_path: Path) -> None:
    path = str(tmp_path / "state.json")
    bot = Bot(StateFile(path), seed=3)
    say(bot, "!lang en")
    say(bot, "!system coc7")
    say(bot, ".ri 70 Aoi")
    say(bot, ".ri 50 Deep One")
    # A restarted bot has the channel's list: it was stored from result.entries.
    bot = Bot(StateFile(path), seed=3)
    listed = say(bot, ".init")
    assert listed.index("Aoi") < listed.index("Deep One"), listed
    say(bot, ".init clr")
    assert "Aoi" not in say(bot, ".init")
    # The table's entry text comes from the pack the bot passes (the shipped one).
    pack = bot.table_pack
    assert pack["illustrative"] is True
    r = bot.handle("c", "gm", ".ti")
    assert r is not None
    texts = [e["en"] for e in pack["tables"]["bouts_realtime"]]
    assert any(t in r.text for t in texts), r.text
