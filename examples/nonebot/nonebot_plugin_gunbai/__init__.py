"""nonebot-plugin-gunbai: TRPG dice (CoC 6th/7th, World Trigger, TMD, FAP/MAP) for
NoneBot2 through gunbai's `command.run`. See README.md."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from nonebot import get_driver, get_plugin_config, on_message
from nonebot.adapters.onebot.v11 import Bot, GroupMessageEvent, MessageEvent
from nonebot.plugin import PluginMetadata

from .config import Config
from .core import Gunbai, Out, Settings, Store, load_table_pack

__plugin_meta__ = PluginMetadata(
    name="gunbai",
    description="TRPG dice and rules (CoC 6th/7th, World Trigger, TMD, FAP/MAP) from the gunbai rules engine",
    usage=".r 1d100  .ra 侦查  .st 侦查60  .sc 1/1d6  .rh  .log new/on/off/end  .gunbai system coc7  .gunbai lang ja  .help",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)

__all__ = ["__plugin_meta__", "Config", "Gunbai", "Out", "Settings", "Store"]

_config = get_plugin_config(Config)
_engine: Optional[Gunbai] = None


def _data_dir() -> Path:
    if _config.gunbai_data_dir is not None:
        return _config.gunbai_data_dir
    try:
        from nonebot import require

        require("nonebot_plugin_localstore")
        import nonebot_plugin_localstore as localstore  # type: ignore[import-not-found]

        return Path(localstore.get_plugin_data_dir())
    except (ImportError, RuntimeError):
        return Path("data") / "gunbai"


def engine() -> Gunbai:
    """The plugin's engine (settings from the config, the store opened on first use)."""
    global _engine
    if _engine is None:
        settings = Settings(
            system=_config.gunbai_system,
            lang=_config.gunbai_lang,
            house_rule=_config.gunbai_house_rule,
            templates=_config.gunbai_templates,
            group_templates=_config.gunbai_group_templates,
            all_lines=_config.gunbai_all_lines,
            seed=_config.gunbai_seed,
            table_pack=load_table_pack(_config.gunbai_table_pack),
        )
        _engine = Gunbai(settings, Store(_data_dir()))
    return _engine


@get_driver().on_shutdown
async def _close() -> None:
    global _engine
    if _engine is not None:
        _engine.store.close()
        _engine = None


dice = on_message(priority=20, block=False)


@dice.handle()
async def _(bot: Bot, event: MessageEvent) -> None:
    group = str(event.group_id) if isinstance(event, GroupMessageEvent) else None
    scope = f"group:{group}" if group else f"private:{event.user_id}"
    name = (event.sender.card or event.sender.nickname or str(event.user_id)) if event.sender else str(event.user_id)
    outs = engine().handle(scope, str(event.user_id), name, event.get_plaintext(), group)
    if not outs:
        return
    for out in outs:
        if out.private:
            await bot.send_private_msg(user_id=event.user_id, message=out.text)
        else:
            await dice.send(out.text)
