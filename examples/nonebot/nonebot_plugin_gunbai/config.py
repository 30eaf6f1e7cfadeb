"""The plugin's settings, read from NoneBot's configuration (.env): GUNBAI_SYSTEM=coc7 ..."""

from __future__ import annotations

from pathlib import Path
from typing import Dict, Optional

from pydantic import BaseModel


class Config(BaseModel):
    """Every name is read with the `gunbai_` prefix from NoneBot's config."""

    # The default system of a group (`.gunbai system …` changes it per group): coc7, coc6,
    # world_trigger, tmd, fap_map or none (plain dice only).
    gunbai_system: str = "coc7"
    # The default reply language: ja, zh-Hans, zh-Hant, en (or zh-CN, zh-TW, ja-JP, en-US).
    gunbai_lang: str = "zh-Hans"
    # The default CoC 7th-edition house rule (`.setcoc N`), or none for the rulebook's.
    gunbai_house_rule: Optional[int] = None
    # Reply templates: message id -> {language: text}, over the defaults (README.md).
    gunbai_templates: Dict[str, Dict[str, str]] = {}
    # Per group: group id -> message id -> {language: text}, over gunbai_templates.
    gunbai_group_templates: Dict[str, Dict[str, Dict[str, str]]] = {}
    # Also read lines without a dot (BCDice style: CC<=50, 2D6+1); off by default.
    gunbai_all_lines: bool = False
    # Where the SQLite file and the logs live; default: nonebot-plugin-localstore's data
    # folder when it is installed, else ./data/gunbai.
    gunbai_data_dir: Optional[Path] = None
    # A table pack (JSON file) with the texts of the rulebook tables that `.ti`, `.li`,
    # BMR, PH … roll: the group's own, or gunbai's illustrative sample
    # (gunbai/data/coc7_tables.json in the wheel). None: the entry is named by its number.
    gunbai_table_pack: Optional[Path] = None
    # Reproducible dice (roll k of a group uses seed + k): for tests and transcripts.
    gunbai_seed: Optional[int] = None
