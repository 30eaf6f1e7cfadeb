from . import dice, meta

MODULES: tuple[str, ...]
__all__ = ["dice", "meta"]
