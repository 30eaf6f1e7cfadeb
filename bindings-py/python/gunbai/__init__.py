"""gunbai (軍配): an embeddable rules engine for tabletop-RPG combat.

Every operation is ``gunbai.<module>.<op>(**args)`` and returns a plain dict;
errors raise :class:`gunbai.GunbaiError` (a ``ValueError``) with a stable
``.code``. The operation modules are generated from the Rust core's catalog.
"""

from . import types
from ._battle import Battle
from ._core import GunbaiError, call, call_batch, catalog
from ._ops import *  # noqa: F401,F403  (the generated operation modules)
from ._ops import MODULES

__version__: str = call("meta.version")["version"]

__all__ = ["Battle", "GunbaiError", "call", "call_batch", "catalog", "types", "MODULES", "__version__", *MODULES]
