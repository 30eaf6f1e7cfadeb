"""gunbai.packs: data files shipped beside the library, for a host to load and pass in.

They are never compiled into the engine. ``table_pack()`` is the illustrative CoC 7th
table pack (``"illustrative": true``: short neutral summaries, no rulebook text) for
``gunbai.command.run``'s ``table_pack``; a group may pass its own pack instead.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Dict

__all__ = ["TABLE_PACKS", "table_pack"]

#: The table packs shipped in ``gunbai/data/``.
TABLE_PACKS = ("coc7_tables",)


def table_pack(name: str = "coc7_tables") -> Dict[str, Any]:
    """The shipped table pack ``name`` (see ``TABLE_PACKS``), as a dict for ``table_pack``."""
    if name not in TABLE_PACKS:
        raise ValueError(f"unknown table pack {name!r} (shipped: {', '.join(TABLE_PACKS)})")
    text = resources.files("gunbai").joinpath("data").joinpath(f"{name}.json").read_text(encoding="utf-8")
    pack: Dict[str, Any] = json.loads(text)
    return pack
