"""NoneBug set-up: NoneBot with the OneBot v11 adapter and this plugin, seeded dice
and a fresh data folder."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import nonebot
import pytest
from nonebug import NONEBOT_INIT_KWARGS

DATA = Path(tempfile.mkdtemp(prefix="gunbai-nonebot-"))
# The settings the recorded sessions were played with (shared with the Koishi plugin's test).
CONFIG = json.loads(Path(os.environ.get("GUNBAI_SESSIONS") or Path(__file__).resolve().parents[2] / "plugin-sessions.json").read_text(encoding="utf-8"))["config"]


def shipped(spec: str) -> str:
    """The file ``spec`` ("gunbai/data/…") inside the installed gunbai package."""
    from importlib import resources

    return str(resources.files("gunbai").joinpath(spec.split("/", 1)[1]))


def pytest_configure(config: pytest.Config) -> None:
    config.stash[NONEBOT_INIT_KWARGS] = {
        "driver": "~none",
        "gunbai_data_dir": str(DATA),
        "gunbai_seed": CONFIG["seed"],
        "gunbai_system": CONFIG["system"],
        "gunbai_lang": CONFIG["language"],
        "gunbai_group_templates": CONFIG.get("groupTemplates", {}),
        "gunbai_all_lines": CONFIG.get("allLines", False),
        # The sessions' table pack is the illustrative one the installed gunbai wheel ships.
        "gunbai_table_pack": shipped(CONFIG["tablePack"]) if CONFIG.get("tablePack") else None,
    }


@pytest.fixture(scope="session", autouse=True)
async def after_nonebot_init(_nonebot_init: None) -> None:
    from nonebot.adapters.onebot.v11 import Adapter

    nonebot.get_driver().register_adapter(Adapter)
    nonebot.load_plugin("nonebot_plugin_gunbai")
