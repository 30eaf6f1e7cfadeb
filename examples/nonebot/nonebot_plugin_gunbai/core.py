"""The plugin's logic, independent of NoneBot: one chat line in, the messages out.

Every roll and every reply about the dice comes from `gunbai.command.run` (a `.st`
line from `gunbai.command.parse_st`); this module only keeps what those return (the
player's card, the group's house-rule variants, the channel's initiative list) in SQLite, keeps the `.log` session
log as JSON Lines, and routes a result marked `secret` to its roller privately.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional

import gunbai

from .templates import render, template_lang

SYSTEMS = ("coc7", "coc6", "world_trigger", "tmd", "fap_map")
_DOT = (".", "。", "．")
_LOG_NAME = re.compile(r"^[\w\-]{1,64}$")


@dataclass
class Out:
    """One message to send: to the chat it came from, or privately to its sender."""

    text: str
    private: bool = False


@dataclass
class Settings:
    """What the operator configures (see config.py for the NoneBot names)."""

    system: Optional[str] = "coc7"
    lang: str = "zh-Hans"
    house_rule: Optional[int] = None
    templates: Optional[Mapping[str, Mapping[str, str]]] = None
    group_templates: Optional[Mapping[str, Mapping[str, Mapping[str, str]]]] = None
    all_lines: bool = False
    seed: Optional[int] = None
    # The rulebook tables' texts (`table_pack` of command.run), or None.
    table_pack: Optional[Mapping[str, Any]] = None


def load_table_pack(path: Optional[Path]) -> Optional[Dict[str, Any]]:
    """The table pack JSON file at `path` (None: no pack)."""
    if path is None:
        return None
    pack = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(pack, dict):
        raise ValueError(f"gunbai_table_pack {path}: a JSON object is expected")
    return pack


class Store:
    """SQLite (standard library) for settings and cards; logs as JSON Lines files."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.folder / "gunbai.sqlite3"))
        self.db.executescript(
            """
            CREATE TABLE IF NOT EXISTS channel (
              scope TEXT PRIMARY KEY, system TEXT, lang TEXT, variants TEXT,
              rolls_made INTEGER NOT NULL DEFAULT 0, log_name TEXT, log_on INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS card (
              scope TEXT NOT NULL, user TEXT NOT NULL, card TEXT NOT NULL, PRIMARY KEY (scope, user));
            CREATE TABLE IF NOT EXISTS initiative (scope TEXT PRIMARY KEY, entries TEXT NOT NULL);
            """
        )

    def channel(self, scope: str) -> Dict[str, Any]:
        row = self.db.execute(
            "SELECT system, lang, variants, rolls_made, log_name, log_on FROM channel WHERE scope = ?", (scope,)
        ).fetchone()
        if row is None:
            return {"system": None, "lang": None, "variants": None, "rolls_made": 0, "log_name": None, "log_on": 0}
        keys = ("system", "lang", "variants", "rolls_made", "log_name", "log_on")
        ch = dict(zip(keys, row))
        ch["variants"] = json.loads(ch["variants"]) if ch["variants"] else None
        return ch

    def save_channel(self, scope: str, ch: Mapping[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO channel VALUES (?, ?, ?, ?, ?, ?, ?)",
            (scope, ch["system"], ch["lang"], json.dumps(ch["variants"]) if ch["variants"] else None,
             ch["rolls_made"], ch["log_name"], ch["log_on"]),
        )
        self.db.commit()

    def card(self, scope: str, user: str) -> Dict[str, int]:
        row = self.db.execute("SELECT card FROM card WHERE scope = ? AND user = ?", (scope, user)).fetchone()
        return dict(json.loads(row[0])) if row else {}

    def save_card(self, scope: str, user: str, card: Mapping[str, int]) -> None:
        if card:
            self.db.execute("INSERT OR REPLACE INTO card VALUES (?, ?, ?)", (scope, user, json.dumps(dict(card), ensure_ascii=False)))
        else:
            self.db.execute("DELETE FROM card WHERE scope = ? AND user = ?", (scope, user))
        self.db.commit()

    def initiative(self, scope: str) -> List[Dict[str, Any]]:
        """The channel's initiative list, as the last `.ri` / `.init` returned it."""
        row = self.db.execute("SELECT entries FROM initiative WHERE scope = ?", (scope,)).fetchone()
        return list(json.loads(row[0])) if row else []

    def save_initiative(self, scope: str, entries: List[Dict[str, Any]]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO initiative VALUES (?, ?)", (scope, json.dumps(entries, ensure_ascii=False))
        )
        self.db.commit()

    def log_path(self, scope: str, name: str) -> Path:
        safe_scope = re.sub(r"[^\w\-]", "_", scope)
        return self.folder / "logs" / safe_scope / f"{name}.jsonl"

    def close(self) -> None:
        self.db.close()


class Gunbai:
    """`handle(scope, user, name, text, group)` -> the messages to send."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.s = settings
        self.store = store
        self._default_variants: Optional[Any] = None
        if settings.house_rule is not None:
            # The house rule's variants come from gunbai itself (`.setcoc N`).
            r = gunbai.command.run(text=f".setcoc {settings.house_rule}", system="coc7")
            if r.get("refused") or r.get("parse_error"):
                raise ValueError(f"gunbai_house_rule {settings.house_rule}: {r['text']}")
            self._default_variants = (r.get("result") or {}).get("variants")

    def _t(self, key: str, lang: str, where: Optional[str], **values: object) -> str:
        per_group = (self.s.group_templates or {}).get(where) if where else None
        return render(key, lang, self.s.templates, per_group, **values)

    def handle(self, scope: str, user: str, name: str, text: str, group: Optional[str] = None) -> List[Out]:
        """One chat line from `user` (display `name`) in `scope` (a group id, or the
        user's own id in a private chat; `group` is set in a group)."""
        line = text.strip()
        is_dot = line.startswith(_DOT)
        if not is_dot and not self.s.all_lines:
            return []
        ch = self.store.channel(scope)
        lang = ch["lang"] or self.s.lang
        chosen = ch["system"] if ch["system"] is not None else self.s.system
        system: Any = None if chosen == "none" else chosen
        try:
            if is_dot:
                word, _, rest = line[1:].strip().partition(" ")
                word = word.lower()
                if word == "log":
                    return [Out(self._log(scope, ch, lang, group, rest.strip()))]
                if word == "gunbai":
                    return [Out(self._setting(scope, ch, lang, group, rest.strip()))]
                if word == "help":
                    return [Out(gunbai.command.help(system=system, lang=lang)["text"])]
                if word.startswith("st"):
                    st = gunbai.command.parse_st(text=line, card=self.store.card(scope, user), lang=lang)
                    if st["matched"]:
                        self.store.save_card(scope, user, st["card"])
                        self._append_log(scope, ch, user, name, line, dict(st))
                        return [Out(st["text"])]
            # The actor names a `.ri` without a name; the list is the channel's.
            args: Dict[str, Any] = {"text": line, "system": system, "lang": lang, "actor": name[:64]}
            args["init"] = self.store.initiative(scope)
            if self.s.table_pack is not None:
                args["table_pack"] = self.s.table_pack
            card = self.store.card(scope, user)
            if card:
                args["card"] = card
            variants = ch["variants"] if ch["variants"] is not None else self._default_variants
            if variants is not None:
                args["variants"] = variants
            if self.s.seed is not None:
                args["seed"] = self.s.seed + ch["rolls_made"]
            r: Dict[str, Any] = dict(gunbai.command.run(**args))
        except gunbai.GunbaiError as e:
            return [Out(self._t("error", lang, group, code=e.code, message=str(e)))]
        if not r["matched"]:
            return []
        # What the command changed, kept for the next one: gunbai itself stores nothing.
        if r.get("rolls"):
            ch["rolls_made"] += 1
        structured: Dict[str, Any] = r["result"] if isinstance(r.get("result"), dict) else {}
        if isinstance(structured.get("card"), dict):
            self.store.save_card(scope, user, structured["card"])
        if r.get("kind") == "coc7_house_rule" and structured.get("variants") is not None:
            ch["variants"] = structured["variants"]
        if r.get("kind") == "initiative" and isinstance(structured.get("entries"), list):
            self.store.save_initiative(scope, structured["entries"])
        self.store.save_channel(scope, ch)
        self._append_log(scope, ch, user, name, line, r)
        if r.get("secret", False):
            # A secret command's full reply is its `whisper` (its `text` is only the public
            # notice): to the roller alone; the group reads the plugin's own notice.
            whisper = r.get("whisper") or r["text"]
            if group is None:
                return [Out(whisper)]
            return [
                Out(self._t("secret_whisper", lang, group, group=group, text=whisper), private=True),
                Out(self._t("secret_notice", lang, group, user=name)),
            ]
        return [Out(r["text"])]

    def _append_log(self, scope: str, ch: Mapping[str, Any], user: str, name: str, line: str, result: Mapping[str, Any]) -> None:
        if not ch["log_name"] or not ch["log_on"]:
            return
        path = self.store.log_path(scope, ch["log_name"])
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {"time": round(time.time(), 3), "user": user, "name": name, "line": line, "result": result}
        with path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def _log(self, scope: str, ch: Dict[str, Any], lang: str, group: Optional[str], rest: str) -> str:
        sub, _, arg = rest.partition(" ")
        sub = sub.lower()
        if sub == "new":
            name = arg.strip() or time.strftime("%Y%m%d-%H%M%S")
            if not _LOG_NAME.match(name):
                return self._t("bad_value", lang, group, value=name[:32])
            self.store.log_path(scope, name).unlink(missing_ok=True)
            ch.update(log_name=name, log_on=1)
            self.store.save_channel(scope, ch)
            return self._t("log_new", lang, group, name=name)
        if sub in ("on", "off", "end"):
            if not ch["log_name"]:
                return self._t("log_none", lang, group)
            name = ch["log_name"]
            if sub == "end":
                path = self.store.log_path(scope, name)
                count = sum(1 for _ in path.open(encoding="utf-8")) if path.exists() else 0
                ch.update(log_name=None, log_on=0)
                self.store.save_channel(scope, ch)
                return self._t("log_end", lang, group, name=name, count=count)
            ch["log_on"] = 1 if sub == "on" else 0
            self.store.save_channel(scope, ch)
            return self._t("log_" + sub, lang, group, name=name)
        return self._t("log_usage", lang, group)

    def _setting(self, scope: str, ch: Dict[str, Any], lang: str, group: Optional[str], rest: str) -> str:
        key, _, value = rest.partition(" ")
        value = value.strip()
        if key == "system" and value in SYSTEMS + ("none",):
            ch["system"] = value
            self.store.save_channel(scope, ch)
            return self._t("system", lang, group, value=value)
        if key == "lang":
            try:
                new = template_lang(value)
                gunbai.command.help(lang=value)  # gunbai accepts it too
            except (ValueError, gunbai.GunbaiError):
                return self._t("bad_value", lang, group, value=value[:32])
            ch["lang"] = value
            self.store.save_channel(scope, ch)
            return self._t("lang", new, group, value=value)
        return self._t("bad_value", lang, group, value=rest[:32])
