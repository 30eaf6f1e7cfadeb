#!/usr/bin/env python3
"""A small dice bot for gunbai: `python examples/bot/bot.py` answers commands
typed on standard input, one reply line per input line (an empty line for
ordinary chat). A channel's settings and battle state live in a JSON file.

    python examples/bot/bot.py --state battle.json [--channel NAME] [--seed N]
    python examples/bot/bot.py --discord TOKEN      # needs discord.py
    python examples/bot/bot.py --qq                 # needs NoneBot2 + OneBot v11

See core.py for the bot commands (!system, !lang, !help, !init, !order, !next, !end, !undo).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from adapter import StdioAdapter, run_discord, run_qq  # noqa: E402
from core import Bot, StateFile  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--state", default="gunbai-bot-state.json", help="JSON file with every channel's state")
    p.add_argument("--channel", default="stdin", help="channel name for standard input")
    p.add_argument("--seed", type=int, default=None, help="reproducible dice (roll k uses seed + k)")
    p.add_argument("--discord", metavar="TOKEN", help="run as a Discord bot instead")
    p.add_argument("--qq", action="store_true", help="run as a QQ bot (NoneBot2) instead")
    a = p.parse_args()
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    bot = Bot(StateFile(a.state), seed=a.seed)
    if a.discord:
        run_discord(bot, a.discord)
    elif a.qq:
        run_qq(bot)
    else:
        StdioAdapter(bot, channel=a.channel).serve()


if __name__ == "__main__":
    main()
