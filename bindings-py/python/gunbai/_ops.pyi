from . import coc7, coc7_house, coc_ap, dice, fap_map, meta, tmd, world_trigger

MODULES: tuple[str, ...]
__all__ = ["coc7", "coc7_house", "coc_ap", "dice", "fap_map", "meta", "tmd", "world_trigger"]
