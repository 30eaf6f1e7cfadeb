"""gunbai.logs: a 1,000-line session log round-trips through JSON Lines, pandas and
(with pyarrow) Parquet; every record is the one command.run returned."""

from __future__ import annotations

import io
import random

import pytest

import gunbai
from gunbai import logs

LINES = [
    ("CC<=50 目星", "coc7"),
    (".ra b2 目星", "coc7"),
    (".ra p 侦查50", "coc7"),
    (".rah 聆听", "coc7"),
    (".sc 1/1d6", "coc7"),
    (".st 力量60str60 db-1d4 侦查70", "coc7"),
    ("S2D6+1", None),
    ("CCB<=60", "coc6"),
    ("RES(12-10)", "coc6"),
    (".ra b p 侦查", "coc7"),
    ("3D6*5", None),
    ("hello", None),
]


def session(n: int) -> list[dict]:
    rng = random.Random(7)
    out = []
    card = {"目星": 60, "聆听": 45, "理智": 55}
    while len(out) < n:
        text, system = rng.choice(LINES)
        r = gunbai.command.run(text=text, system=system, card=card, seed=rng.randrange(2**40), actor=f"p{rng.randrange(4)}")
        if r["record"] is not None:
            out.append(r)
    return out


def test_jsonl_round_trip_1000_lines(tmp_path):
    results = session(1000)
    path = tmp_path / "session.jsonl"
    assert logs.write_jsonl(results, path) == 1000
    back = logs.read_jsonl(path)
    assert back == [r["record"] for r in results]
    assert len(path.read_text(encoding="utf-8").splitlines()) == 1000
    # Secret lines keep the whispered text in the record; the public text is the notice.
    secret = [r for r in results if r["secret"]]
    assert secret and all(r["record"]["text"] == r["whisper"] != r["text"] for r in secret)
    sc = [r["record"] for r in results if r["record"]["kind"] == "coc7_sanity"]
    assert sc and all(x["san_before"] == 55 and x["san_after"] <= 55 for x in sc)


def test_chat_lines_are_skipped_and_bad_lines_named():
    chat = gunbai.command.run(text="hello there")
    assert logs.record_of(chat) is None
    assert logs.dumps([chat]) == ""
    with pytest.raises(ValueError, match="line 2"):
        logs.read_jsonl(io.StringIO(logs.dumps(session(1)) + "{not json}\n"))
    with pytest.raises(ValueError, match="version"):
        logs.read_jsonl(io.StringIO('{"version": 2}\n'))


def test_pandas_round_trip_1000_lines():
    pytest.importorskip("pandas")
    results = session(1000)
    records = [r["record"] for r in results]
    frame = logs.to_pandas(results)
    assert len(frame) == 1000
    assert list(frame.columns[: len(logs.COLUMNS)]) == list(logs.COLUMNS)
    assert frame["secret"].sum() == sum(r["secret"] for r in records)
    assert frame["n_dice"].tolist() == [len(r["dice"]) for r in records]
    assert logs.from_pandas(frame) == records
    # Through JSON Lines and back into pandas: the same frame.
    again = logs.to_pandas(logs.read_jsonl(io.StringIO(logs.dumps(results))))
    assert logs.from_pandas(again) == records


def test_parquet_round_trip(tmp_path):
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    results = session(1000)
    path = tmp_path / "session.parquet"
    logs.to_parquet(results, path)
    assert logs.read_parquet(path) == [r["record"] for r in results]
