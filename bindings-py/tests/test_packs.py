"""The data files shipped in the wheel (gunbai.packs), passed to the engine."""

import pytest

import gunbai
import gunbai.packs


def test_shipped_table_pack_is_illustrative_and_names_the_rolled_entry() -> None:
    pack = gunbai.packs.table_pack()
    assert pack["illustrative"] is True
    for seed in range(1, 6):
        r = gunbai.command.run(text="BMR", system="coc7", lang="en", seed=seed, table_pack=pack)
        res = r["result"]
        entry = pack["tables"][res["table"]][res["index"] - 1]["en"]
        assert entry in r["text"], (r["text"], entry)
    # Without the pack the entry is named by its number only.
    bare = gunbai.command.run(text="BMR", system="coc7", lang="en", seed=1)
    assert pack["tables"]["bouts_realtime"][bare["result"]["index"] - 1]["en"] not in bare["text"]


def test_unknown_table_pack_is_refused() -> None:
    with pytest.raises(ValueError):
        gunbai.packs.table_pack("no_such_pack")
