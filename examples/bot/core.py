"""The bot's logic, independent of any chat service.

`Bot.handle(channel, user, text)` takes one chat line and returns a `Reply`
(or None when the line is ordinary chat). Dice and rules come from gunbai's
`command.run`; the bot itself only keeps each channel's settings and battle
state (an initiative list and whose turn it is) in a JSON file, so a restarted
bot continues the same battle.

Bot commands (everything else goes to gunbai.command.run):

    !system coc7|coc6|world_trigger|tmd|fap_map|none   choose the ruleset
    !lang ja|zh-Hans|zh-Hant|en                         choose the language
    !help                                               the command reference
    !init NAME COMMAND     roll COMMAND (TI+3, WT5, 1D10+2 ...) as NAME's initiative
    !order                 the initiative order
    !next                  next in order (a new round after the last)
    !end                   end the battle (clears the order)
    !undo                  take back the last !init, !next or !end (up to UNDO_MAX)
    .st NAME VALUE ...     store skills on your character card in this channel
                           (.st 侦查60聆听50, .st 目星:60 聞き耳=50, .st 侦查+10,
                           .st del 侦查, .st clr, .st show): gunbai's command.parse_st
                           reads the line and returns the new card; the bot stores it.
                           gunbai keeps no storage: the card is kept here, per user and
                           channel, and passed to every command.run, so `.ra 侦查`,
                           `.ra 侦查+10`, `CC<=目星`, `.sc 1/1d6` and `.en 侦查` use it.
    .sc / .en              (coc7) return the changed card (SAN, the skill): stored here.
    .setcoc N              (coc7) returns the house-rule variants: stored for the channel
                           and passed as `variants` to every command.run there.
    .ri / .init            gunbai's initiative list (.ri 70 NAME, .ri with the card's DEX,
                           .init, .init del NAME, .init clr): the channel's list is passed
                           as `init` and the `result.entries` returned are stored here.
    .ti / .li / BMR / PH   (coc7) rulebook tables: the entry's text comes from the table pack
                           passed as `table_pack` (by default the illustrative one shipped
                           with gunbai, `gunbai.packs.table_pack()`).
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, cast

import gunbai
import gunbai.packs

SYSTEMS = ["world_trigger", "coc7", "coc6", "tmd", "fap_map"]
LANGS = ["ja", "zh-Hans", "zh-Hant", "en"]
# Battle changes `!undo` can take back, per channel (kept in the state file).
UNDO_MAX = 20

# The bot's own few words (the dice replies come from gunbai in all four languages).
WORDS: Dict[str, Dict[str, str]] = {
    "system": {"ja": "システム: {v}", "zh-Hans": "系统：{v}", "zh-Hant": "系統：{v}", "en": "system: {v}"},
    "lang": {"ja": "言語: {v}", "zh-Hans": "语言：{v}", "zh-Hant": "語言：{v}", "en": "language: {v}"},
    "bad": {"ja": "使えない値です: {v}", "zh-Hans": "无效的值：{v}", "zh-Hant": "無效的值：{v}", "en": "unknown value: {v}"},
    "usage_init": {"ja": "使い方: !init 名前 コマンド", "zh-Hans": "用法：!init 名字 指令", "zh-Hant": "用法：!init 名字 指令", "en": "usage: !init NAME COMMAND"},
    "no_total": {"ja": "合計値のないコマンドです: {v}", "zh-Hans": "该指令没有合计值：{v}", "zh-Hant": "該指令沒有合計值：{v}", "en": "that command has no total: {v}"},
    "empty": {"ja": "戦闘はありません", "zh-Hans": "没有进行中的战斗", "zh-Hant": "沒有進行中的戰鬥", "en": "no battle"},
    "round": {"ja": "ラウンド{r}", "zh-Hans": "第{r}轮", "zh-Hant": "第{r}輪", "en": "round {r}"},
    "turn": {"ja": "ラウンド{r}: {name}の手番", "zh-Hans": "第{r}轮：{name}的回合", "zh-Hant": "第{r}輪：{name}的回合", "en": "round {r}: {name}'s turn"},
    "ended": {"ja": "戦闘終了", "zh-Hans": "战斗结束", "zh-Hant": "戰鬥結束", "en": "battle over"},
    "error": {"ja": "エラー", "zh-Hans": "错误", "zh-Hant": "錯誤", "en": "error"},
    "undone": {"ja": "取り消し: {v}", "zh-Hans": "已撤销：{v}", "zh-Hant": "已撤銷：{v}", "en": "undone: {v}"},
    "no_undo": {"ja": "取り消せる操作はありません", "zh-Hans": "没有可撤销的操作", "zh-Hant": "沒有可撤銷的操作", "en": "nothing to undo"},
}


@dataclass
class Reply:
    """One reply: `text` (may contain newlines; for a secret reply, command.run's `whisper`) and whether it is secret."""

    text: str
    secret: bool = False


class StateFile:
    """Every channel's state in one JSON file, written atomically."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.data: Dict[str, Any] = {"channels": {}}
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                self.data = json.load(f)

    def channel(self, name: str) -> Dict[str, Any]:
        ch: Dict[str, Any] = self.data["channels"].setdefault(
            name, {"system": None, "lang": "ja", "rolls_made": 0, "battle": None, "undo": []}
        )
        ch.setdefault("undo", [])  # a file written before !undo existed
        ch.setdefault("cards", {})  # user -> {skill: value}
        ch.setdefault("variants", None)  # what `.setcoc` returned, passed to command.run
        ch.setdefault("init", [])  # the `.ri` / `.init` list, passed to command.run
        return ch

    def save(self) -> None:
        folder = os.path.dirname(os.path.abspath(self.path))
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(self.data, f, ensure_ascii=False, indent=1)
        os.replace(tmp, self.path)


class Bot:
    """Chat-service-independent bot. `seed` makes every roll reproducible
    (roll k of a channel uses seed + k); without it the dice are random."""

    def __init__(
        self, state: StateFile, seed: Optional[int] = None, table_pack: Optional[Dict[str, Any]] = None
    ) -> None:
        self.state = state
        self.seed = seed
        # The texts of the rulebook tables (`.ti`, `BMR` ...): a group's own pack, or the
        # illustrative one shipped with gunbai.
        self.table_pack = table_pack if table_pack is not None else gunbai.packs.table_pack()

    def _w(self, ch: Dict[str, Any], key: str, **kw: Any) -> str:
        return WORDS[key][ch["lang"]].format(**kw)

    def _run(self, ch: Dict[str, Any], text: str, user: Optional[str] = None) -> Dict[str, Any]:
        args: Dict[str, Any] = {"text": text, "system": ch["system"], "lang": ch["lang"]}
        args["table_pack"] = self.table_pack
        if ch["init"]:
            args["init"] = ch["init"]
        if user is not None:
            args["actor"] = user
        if user is not None and ch["cards"].get(user):
            args["card"] = ch["cards"][user]
        if ch["variants"]:
            args["variants"] = ch["variants"]
        if self.seed is not None:
            args["seed"] = self.seed + ch["rolls_made"]
        result = cast(Dict[str, Any], gunbai.command.run(**args))
        if result["rolls"]:
            ch["rolls_made"] += 1
        # What the command changed, for the bot to keep: a card (`.sc`, `.en`) or the
        # house rule (`.setcoc`). gunbai itself stores nothing.
        structured = result.get("result") or {}
        if user is not None and result["kind"] in ("coc7_sanity", "coc7_development") and structured.get("card"):
            ch["cards"][user] = structured["card"]
        if result["kind"] == "coc7_house_rule":
            ch["variants"] = structured["variants"]
        if result["kind"] == "initiative":
            ch["init"] = structured["entries"]
        return result

    def handle(self, channel: str, user: str, text: str) -> Optional[Reply]:
        ch = self.state.channel(channel)
        try:
            if text.strip().startswith("!"):
                reply = self._bot_command(ch, text.strip())
            else:
                reply = self._st(ch, user, text)
                if reply is None:
                    r = self._run(ch, text, user)
                    reply = Reply(r["whisper"] or r["text"], r["secret"]) if r["matched"] else None
        except gunbai.GunbaiError as e:
            reply = Reply(f"{self._w(ch, 'error')}: {e.code}: {e}")
        self.state.save()
        return reply

    def _st(self, ch: Dict[str, Any], user: str, text: str) -> Optional[Reply]:
        """`.st`: gunbai's command.parse_st reads the line against the user's card in
        this channel and returns the new card (unchanged on a mistake), which is kept."""
        r = gunbai.command.parse_st(text=text, card=ch["cards"].get(user, {}), lang=ch["lang"])
        if not r["matched"]:
            return None
        if r["card"]:
            ch["cards"][user] = r["card"]
        else:
            ch["cards"].pop(user, None)
        return Reply(r["text"])

    def _remember(self, ch: Dict[str, Any], line: str) -> None:
        """Keep the battle as it is before `line` changes it, for !undo."""
        ch["undo"] = (ch["undo"] + [{"command": line, "battle": copy.deepcopy(ch["battle"])}])[-UNDO_MAX:]

    def _bot_command(self, ch: Dict[str, Any], line: str) -> Optional[Reply]:
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "!system":
            if rest not in SYSTEMS + ["none"]:
                return Reply(self._w(ch, "bad", v=rest))
            ch["system"] = None if rest == "none" else rest
            return Reply(self._w(ch, "system", v=rest))
        if word == "!lang":
            if rest not in LANGS:
                return Reply(self._w(ch, "bad", v=rest))
            ch["lang"] = rest
            return Reply(self._w(ch, "lang", v=rest))
        if word == "!help":
            return Reply(gunbai.command.help(system=ch["system"], lang=ch["lang"])["text"])
        if word == "!init":
            name, _, cmd = rest.partition(" ")
            if not name or not cmd.strip():
                return Reply(self._w(ch, "usage_init"))
            r = self._run(ch, cmd.strip())
            if not r["matched"] or r["total"] is None:
                return Reply(r["text"] or self._w(ch, "no_total", v=cmd.strip()))
            self._remember(ch, line)
            battle = ch["battle"] or {"round": 1, "turn": -1, "entries": []}
            entries: List[Dict[str, Any]] = [e for e in battle["entries"] if e["name"] != name]
            entries.append({"name": name, "total": r["total"]})
            entries.sort(key=lambda e: -e["total"])  # stable: earlier joiners first on ties
            battle["entries"] = entries
            ch["battle"] = battle
            return Reply(f"{name}: {r['whisper'] or r['text']}", r["secret"])
        if word == "!order":
            b = ch["battle"]
            if not b:
                return Reply(self._w(ch, "empty"))
            order = " / ".join(f"{i + 1}. {e['name']} {e['total']}" for i, e in enumerate(b["entries"]))
            return Reply(f"{self._w(ch, 'round', r=b['round'])}: {order}")
        if word == "!next":
            b = ch["battle"]
            if not b or not b["entries"]:
                return Reply(self._w(ch, "empty"))
            self._remember(ch, line)
            b["turn"] += 1
            if b["turn"] >= len(b["entries"]):
                b["turn"] = 0
                b["round"] += 1
            name = b["entries"][b["turn"]]["name"]
            return Reply(self._w(ch, "turn", r=b["round"], name=name))
        if word == "!end":
            if ch["battle"] is not None:
                self._remember(ch, line)
            ch["battle"] = None
            return Reply(self._w(ch, "ended"))
        if word == "!undo":
            if not ch["undo"]:
                return Reply(self._w(ch, "no_undo"))
            last = ch["undo"].pop()
            ch["battle"] = last["battle"]
            return Reply(self._w(ch, "undone", v=last["command"]))
        return None
