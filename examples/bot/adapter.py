"""Where a chat service plugs in.

Every adapter does the same three things: take a message (channel id, user,
text), call `Bot.handle`, and post the reply, sending secret replies (`S`
prefix, BCDice style) privately. `StdioAdapter` is what `bot.py` runs; the
Discord and QQ adapters below show the same wiring for real clients. They
import their client libraries only when used, so this file runs without them.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from core import Bot


class StdioAdapter:
    """One line in, one line out: a reply (newlines shown as " / "), or an
    empty line for ordinary chat, so replies stay aligned with the input."""

    def __init__(self, bot: Bot, channel: str = "stdin", user: str = "you") -> None:
        self.bot = bot
        self.channel = channel
        self.user = user

    def serve(self, inp: TextIO = sys.stdin, out: TextIO = sys.stdout) -> None:
        for line in inp:
            reply = self.bot.handle(self.channel, self.user, line.rstrip("\n"))
            if reply is None:
                out.write("\n")
            else:
                text = reply.text.replace("\n\n", " / ").replace("\n", " ")
                out.write(("[secret] " if reply.secret else "") + text + "\n")
            out.flush()


def run_discord(bot: Bot, token: str) -> None:  # pragma: no cover - needs discord.py and a token
    """Discord (discord.py 2.x): every message in a text channel goes through the bot."""
    import discord  # type: ignore[import-not-found]

    intents = discord.Intents.default()
    intents.message_content = True
    client = discord.Client(intents=intents)

    @client.event  # type: ignore[untyped-decorator]
    async def on_message(message: Any) -> None:
        if message.author == client.user:
            return
        reply = bot.handle(str(message.channel.id), str(message.author.id), message.content)
        if reply is None:
            return
        if reply.secret:  # the roller sees it; the channel sees that a secret roll happened
            await message.author.send(reply.text)
            await message.channel.send("(secret dice)")
        else:
            await message.channel.send(reply.text)

    client.run(token)


def run_qq(bot: Bot) -> None:  # pragma: no cover - needs NoneBot2 with the OneBot v11 adapter
    """QQ through NoneBot2 + OneBot v11 (go-cqhttp, Lagrange, NapCat …): group
    and private messages go through the bot; secret replies go privately."""
    import nonebot  # type: ignore[import-not-found]
    from nonebot import on_message
    from nonebot.adapters.onebot.v11 import Adapter, Bot as QQBot, MessageEvent  # type: ignore[import-not-found]

    nonebot.init()
    nonebot.get_driver().register_adapter(Adapter)
    matcher = on_message(priority=50, block=False)

    @matcher.handle()  # type: ignore[untyped-decorator]
    async def _(qq: QQBot, event: MessageEvent) -> None:
        channel = str(getattr(event, "group_id", None) or event.user_id)
        reply = bot.handle(channel, str(event.user_id), event.get_plaintext())
        if reply is None:
            return
        if reply.secret:
            await qq.send_private_msg(user_id=event.user_id, message=reply.text)
        else:
            await matcher.send(reply.text)

    nonebot.run()
