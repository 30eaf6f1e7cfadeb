"""gunbai.logs: session logs of chat commands, one ``record`` per line (JSON Lines).

``gunbai.command.run`` returns a ``record`` for every command (``None`` for chat):
one documented shape, :class:`gunbai.types.CmdRecord` (``version`` 1): the command,
kind, system, rule, actor, items, dice, total, level, success, secret flag, the full
reply text, SAN before and after (``.sc``) and the error code of a refused line. A
bot appends each record to a ``.jsonl`` file; this module reads and writes such
files and turns them into a pandas DataFrame or a Parquet file.

pandas is needed for :func:`to_pandas`; :func:`to_parquet` also needs pyarrow
(``pip install 'gunbai[logs]'``). Nothing here computes a rule: the records are
what the core returned.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any, Union, cast

from .types import CmdRecord

if TYPE_CHECKING:
    import pandas as pd

#: The record shape this module reads and writes.
RECORD_VERSION = 1

#: The keys of a record, in column order (:func:`to_pandas`).
COLUMNS: tuple[str, ...] = (
    "version",
    "command",
    "kind",
    "system",
    "rule",
    "actor",
    "items",
    "dice",
    "total",
    "level",
    "success",
    "secret",
    "text",
    "san_before",
    "san_after",
    "error",
)

PathOrFile = Union[str, "os.PathLike[str]", IO[str]]


def record_of(result_or_record: Mapping[str, Any]) -> CmdRecord | None:
    """The record in a ``command.run`` result (``None`` for chat), or the record itself."""
    if "matched" in result_or_record:
        rec = result_or_record.get("record")
        return None if rec is None else _check(rec, "record")
    return _check(result_or_record, "record")


def _check(rec: Any, where: str) -> CmdRecord:
    if not isinstance(rec, Mapping):
        raise ValueError(f"{where}: a record is a JSON object, not {type(rec).__name__}")
    if rec.get("version") != RECORD_VERSION:
        raise ValueError(f"{where}: record version {rec.get('version')!r} is not {RECORD_VERSION}")
    missing = [k for k in COLUMNS if k not in rec]
    if missing:
        raise ValueError(f"{where}: record lacks {', '.join(missing)}")
    unknown = [k for k in rec if k not in COLUMNS]
    if unknown:
        raise ValueError(f"{where}: unknown record keys {', '.join(map(str, unknown))}")
    return cast(CmdRecord, dict(rec))


def _open(target: PathOrFile, mode: str) -> tuple[IO[str], bool]:
    if isinstance(target, (str, os.PathLike)):
        return open(target, mode, encoding="utf-8", newline="\n"), True
    return target, False


def write_jsonl(records: Iterable[Mapping[str, Any]], target: PathOrFile, *, append: bool = False) -> int:
    """Write records (or ``command.run`` results; chat lines are skipped) as JSON Lines.

    ``target`` is a path or a text file. Returns the number of lines written.
    """
    f, close = _open(target, "a" if append else "w")
    n = 0
    try:
        for item in records:
            rec = record_of(item)
            if rec is None:
                continue
            f.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")))
            f.write("\n")
            n += 1
    finally:
        if close:
            f.close()
    return n


def iter_jsonl(source: PathOrFile) -> Iterator[CmdRecord]:
    """Records from a JSON Lines file, one per non-empty line (a ``ValueError`` names
    the line of a record that cannot be read)."""
    f, close = _open(source, "r")
    try:
        for i, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"line {i}: not JSON ({e.msg})") from None
            yield _check(value, f"line {i}")
    finally:
        if close:
            f.close()


def read_jsonl(source: PathOrFile) -> list[CmdRecord]:
    """Every record of a JSON Lines file (see :func:`iter_jsonl`)."""
    return list(iter_jsonl(source))


def dumps(records: Iterable[Mapping[str, Any]]) -> str:
    """The JSON Lines text of records (as :func:`write_jsonl`)."""
    buf = io.StringIO()
    write_jsonl(records, buf)
    return buf.getvalue()


def to_pandas(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per record, the columns of :data:`COLUMNS` in order, plus ``n_dice``.

    ``items`` and ``dice`` stay lists of dicts (object columns); integer columns
    that may be null are pandas' nullable ``Int64``, ``success`` ``boolean``.
    """
    import pandas as pd

    rows = [r for r in (record_of(x) for x in records) if r is not None]
    frame = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    for col in ("version", "total", "san_before", "san_after"):
        frame[col] = frame[col].astype("Int64")
    frame["success"] = frame["success"].astype("boolean")
    frame["secret"] = frame["secret"].astype(bool)
    frame["n_dice"] = frame["dice"].map(len).astype("int64")
    return frame


def from_pandas(frame: pd.DataFrame) -> list[CmdRecord]:
    """The records of a frame made by :func:`to_pandas` (or read back from Parquet)."""
    out: list[CmdRecord] = []
    for row in frame.to_dict(orient="records"):
        rec: dict[str, Any] = {}
        for k in COLUMNS:
            v = row[k]
            if k in ("items", "dice"):
                v = [dict(x) for x in list(v)]
            elif _isna(v):
                v = None
            elif k in ("version", "total", "san_before", "san_after"):
                v = int(v)
            elif k in ("success", "secret"):
                v = bool(v)
            rec[k] = v
        out.append(_check(rec, "row"))
    return out


def _isna(v: Any) -> bool:
    import pandas as pd

    return v is None or (not isinstance(v, (list, dict)) and bool(pd.isna(v)))


def to_parquet(records: Iterable[Mapping[str, Any]], path: Union[str, "os.PathLike[str]"]) -> None:
    """Write records as a Parquet file (needs pyarrow: ``pip install 'gunbai[logs]'``)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError as e:
        raise ImportError("gunbai.logs.to_parquet needs pyarrow: pip install 'gunbai[logs]'") from e
    to_pandas(records).to_parquet(path, engine="pyarrow", index=False)


def read_parquet(path: Union[str, "os.PathLike[str]"]) -> list[CmdRecord]:
    """The records of a Parquet file written by :func:`to_parquet`."""
    import pandas as pd

    return from_pandas(pd.read_parquet(path, engine="pyarrow"))


__all__ = [
    "COLUMNS",
    "RECORD_VERSION",
    "dumps",
    "from_pandas",
    "iter_jsonl",
    "read_jsonl",
    "read_parquet",
    "record_of",
    "to_pandas",
    "to_parquet",
    "write_jsonl",
]
