"""gunbai (軍配): an embeddable rules engine for tabletop-RPG combat.

Every operation is ``gunbai.<module>.<op>(**args)`` and returns a plain dict;
errors raise :class:`gunbai.GunbaiError` (a ``ValueError``) with a stable
``.code``. The operation modules are generated from the Rust core's catalog.
"""

from . import types
from ._core import GunbaiError, call, call_batch, catalog
from ._handles import Game
from ._ops import *  # noqa: F401,F403  (the generated operation modules)
from ._ops import MODULES
from .world_trigger import Battle

__version__: str = call("meta.version")["version"]

__all__ = ["Battle", "Game", "GunbaiError", "call", "call_batch", "catalog", "types", "MODULES", "__version__", *MODULES]
