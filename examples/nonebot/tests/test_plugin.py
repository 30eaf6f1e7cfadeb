"""nonebot-plugin-gunbai under NoneBug: group members send lines through the OneBot v11
adapter and every reply (group message or whisper) is checked. The dice are seeded
(conftest.py), so each reply is the one gunbai's command.run gives for that roll;
GUNBAI_TRANSCRIPT=FILE writes what the bot actually sent as a transcript."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

import pytest
from nonebot.adapters.onebot.v11 import Bot, Message
from nonebot.adapters.onebot.v11.event import GroupMessageEvent, PrivateMessageEvent, Sender
from nonebug import App

from conftest import DATA

# A reply: group text, or ("whisper", text) for a private message to the sender.
Reply = Union[str, Tuple[str, str]]
_msg_id = 0
TRANSCRIPT: List[str] = []


def group_event(group: int, user: int, name: str, text: str) -> GroupMessageEvent:
    global _msg_id
    _msg_id += 1
    return GroupMessageEvent(
        time=1700000000, self_id=10000, post_type="message", sub_type="normal", user_id=user,
        message_type="group", message_id=_msg_id, message=Message(text), original_message=Message(text),
        raw_message=text, font=0, sender=Sender(user_id=user, nickname=name, card=name), to_me=False,
        group_id=group,
    )


def private_event(user: int, name: str, text: str) -> PrivateMessageEvent:
    global _msg_id
    _msg_id += 1
    return PrivateMessageEvent(
        time=1700000000, self_id=10000, post_type="message", sub_type="friend", user_id=user,
        message_type="private", message_id=_msg_id, message=Message(text), original_message=Message(text),
        raw_message=text, font=0, sender=Sender(user_id=user, nickname=name), to_me=True,
    )


def check_expect(text: str, expect: Optional[Dict[str, Any]], replies: List[Reply]) -> None:
    """A line's `expect` states what its answer must show, independently of the recorded
    replies (which NoneBug checks the bot sent): `has` (texts in the replies), `lacks`
    (texts not in them), `private` (a whisper), `silent` (no reply). A refusal's `has`
    holds its reason."""
    if not expect:
        return
    whispered = [r[1] for r in replies if isinstance(r, tuple)]
    said = "\n".join([r if isinstance(r, str) else r[1] for r in replies])
    why = expect["why"]
    for t in expect.get("has", []):
        assert t in said, f"{text}: the reply shows {t} ({why})"
    for t in expect.get("lacks", []):
        assert t not in said, f"{text}: the reply lacks {t} ({why})"
    if expect.get("private"):
        assert whispered, f"{text}: whispered ({why})"
    assert (said == "") == bool(expect.get("silent")), f"{text}: answered or silent as stated ({why})"


async def converse(app: App, title: str, group: Optional[int], user: int, name: str,
                   lines: List[Tuple[str, List[Reply], Optional[Dict[str, Any]]]]) -> None:
    """Send each line as `name`; the bot must answer exactly the replies listed. The
    transcript records what the bot really sent (NoneBug's send and API calls)."""
    from nonebot_plugin_gunbai import dice

    TRANSCRIPT.extend([f"## {title}", "", "```text"])
    for text, replies, expect in lines:
        check_expect(text, expect, replies)
        TRANSCRIPT.append(f"{name}: {text}")
        async with app.test_matcher(dice) as ctx:
            bot = ctx.create_bot(base=Bot, self_id="10000")
            real_send, real_api = ctx.got_call_send, ctx.got_call_api

            def record_send(b: Any, event: Any, message: Any, **kw: Any) -> Any:
                TRANSCRIPT.append(f"bot: {message}")
                return real_send(b, event, message, **kw)

            def record_api(adapter: Any, api: str, **data: Any) -> Any:
                TRANSCRIPT.append(f"bot → {name} (private): {data.get('message')}")
                return real_api(adapter, api, **data)

            ctx.got_call_send = record_send  # type: ignore[method-assign]
            ctx.got_call_api = record_api  # type: ignore[method-assign]
            event = group_event(group, user, name, text) if group is not None else private_event(user, name, text)
            ctx.receive_event(bot, event)
            for r in replies:
                if isinstance(r, tuple):
                    ctx.should_call_api("send_private_msg", {"user_id": user, "message": r[1]}, result={"message_id": 1})
                else:
                    ctx.should_call_send(event, r, result={"message_id": 1})
        if expect:
            TRANSCRIPT.append(f"  ↳ {expect['why']}")
    TRANSCRIPT.extend(["```", ""])


SESSIONS = json.loads(Path(os.environ.get("GUNBAI_SESSIONS") or Path(__file__).resolve().parents[2] / "plugin-sessions.json").read_text(encoding="utf-8"))


def replies_of(line: Dict[str, Any]) -> List[Reply]:
    return [("whisper", r["text"]) if r["to"] == "private" else r["text"] for r in line["replies"]]


@pytest.mark.parametrize("session", SESSIONS["sessions"], ids=[s["title"] for s in SESSIONS["sessions"]])
async def test_session(app: App, session: Dict[str, Any]) -> None:
    group = int(session["group"]) if session.get("group") else None
    lines = [(line["send"], replies_of(line), line.get("expect")) for line in session["lines"]]
    await converse(app, session["title"], group, int(session["user"]), session["name"], lines)
    if session.get("log"):
        # `.log end` closed a JSON Lines file: one entry per logged command, each with
        # command.run's whole result.
        path = DATA / "logs" / f"group_{group}" / f"{session['log']['name']}.jsonl"
        entries = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        assert [e["line"] for e in entries] == session["log"]["lines"]
        assert all(e["user"] == session["user"] and e["result"]["matched"] for e in entries)
        assert [e["result"].get("secret") is True for e in entries] == session["log"]["secret"]
        # command.run's structured `record` is in each entry (a `.st` line's is parse_st's result).
        runs = [e for e in entries if not e["line"].startswith(".st")]
        assert runs and all(e["result"]["record"]["secret"] is e["result"]["secret"] for e in runs)
    if session.get("card"):
        scope = f"group:{group}" if group is not None else f"private:{session['user']}"
        with sqlite3.connect(str(DATA / "gunbai.sqlite3")) as db:
            row = db.execute("SELECT card FROM card WHERE scope = ? AND user = ?", (scope, session["user"])).fetchone()
        assert json.loads(row[0]) == session["card"]


def test_write_transcript() -> None:
    """Runs last: GUNBAI_TRANSCRIPT=FILE keeps what the sessions above sent."""
    out = os.environ.get("GUNBAI_TRANSCRIPT")
    if out:
        Path(out).write_text("\n".join(TRANSCRIPT), encoding="utf-8")
    assert TRANSCRIPT
