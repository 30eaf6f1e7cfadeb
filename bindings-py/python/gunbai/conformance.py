"""Run gunbai conformance vectors: ``python -m gunbai.conformance PATH...``.

PATHs are vector files or folders (searched recursively for ``*.json``), from
anywhere. Prints one line per failing case and ends with ``N passed, N failed``;
exits 1 on any failure (2 on usage errors). Matching rules: testdata/README.md.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

from ._core import GunbaiError, call, call_batch


def _files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(x for x in p.rglob("*.json") if x.is_file()))
        elif p.is_file():
            out.append(p)
        else:
            raise FileNotFoundError(str(p))
    # A file named twice (``vec/sub vec/sub/b.json``) is read once.
    seen: set[Path] = set()
    unique = []
    for f in out:
        real = f.resolve()
        if real not in seen:
            seen.add(real)
            unique.append(f)
    return unique


def _num_eq(a: float, b: float) -> bool:
    # A non-finite number (an expected 1e400) matches only itself.
    if not (math.isfinite(a) and math.isfinite(b)):
        return a == b
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _number(text: str) -> int | float:
    """JSON numbers as JS reads them: ``1.0`` is the integer 1 (so a vector file means
    the same to both runners)."""
    x = float(text)
    return int(x) if x.is_integer() and abs(x) < 2**63 else x


def load(text: str) -> Any:
    """Parse a vector file: strict JSON (no NaN / Infinity), integral numbers as ints."""
    return json.loads(text, parse_float=_number, parse_constant=_no_constant)


def _one_line(s: str) -> str:
    return " ".join(s.split("\n")).replace("\r", " ")


def _contains_form(expected: Any) -> list[Any] | None:
    """The items of a ``{"contains": [...]}`` expectation (an object with that one key, an array value)."""
    if isinstance(expected, dict) and len(expected) == 1 and isinstance(expected.get("contains"), list):
        return expected["contains"]
    return None


def matches(expected: Any, actual: Any, path: str = "result") -> str | None:
    """None if ``expected`` is a subset of ``actual``, else why not."""
    want = _contains_form(expected)
    if want is not None and isinstance(actual, list):
        # Each listed item matches a distinct element, in the listed order.
        k = 0
        for a in actual:
            if k < len(want) and matches(want[k], a, path) is None:
                k += 1
        if k < len(want):
            return f"{path}: no element after the earlier matches matches contains[{k}] {json.dumps(want[k], ensure_ascii=False)}"
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {json.dumps(actual, ensure_ascii=False)}"
        for k, v in expected.items():
            if k not in actual:
                return f"{path}.{k}: missing in result"
            why = matches(v, actual[k], f"{path}.{k}")
            if why:
                return why
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{path}: expected an array, got {json.dumps(actual, ensure_ascii=False)}"
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            why = matches(e, a, f"{path}[{i}]")
            if why:
                return why
        return None
    is_num = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)  # noqa: E731
    if is_num(expected) and is_num(actual):
        if isinstance(expected, int) and isinstance(actual, int):
            ok = expected == actual
        else:
            ok = not math.isnan(float(actual)) and _num_eq(float(expected), float(actual))
        return None if ok else f"{path}: expected {expected}, got {actual}"
    if type(expected) is not type(actual) or expected != actual:
        return f"{path}: expected {json.dumps(expected, ensure_ascii=False)}, got {json.dumps(actual, ensure_ascii=False)}"
    return None


_REF = re.compile(r"^\$(\d+)((?:\.[^.]+)*)$")


def substitute(value: Any, results: list[Any]) -> Any:
    """Replace every string ``"$N.path.to.field"`` by that field of step N's result."""
    if isinstance(value, str):
        m = _REF.match(value)
        if not m:
            return value
        n = int(m.group(1))
        if n >= len(results):
            raise LookupError(f"{value}: step {n} has not run yet")
        cur = results[n]
        if cur is _NO_RESULT:
            raise LookupError(f"{value}: step {n} has no result (it expected an error)")
        for key in [k for k in m.group(2).split(".") if k]:
            if isinstance(cur, list) and key.isdigit() and int(key) < len(cur):
                cur = cur[int(key)]
            elif isinstance(cur, dict) and key in cur:
                cur = cur[key]
            else:
                raise LookupError(f"{value}: no field {key!r}")
        return cur
    if isinstance(value, list):
        return [substitute(v, results) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, results) for k, v in value.items()}
    return value


_NO_RESULT = object()


def run_case(case: dict[str, Any]) -> str | None:
    """None if the case passes, else why it fails."""
    if "steps" in case:
        steps = case["steps"]
        if not isinstance(steps, list):
            return '"steps" must be an array'
        results: list[Any] = []
        for i, step in enumerate(steps):
            if not isinstance(step, dict):
                return f"step {i} is not an object"
            try:
                args = substitute(step.get("args", {}), results)
            except LookupError as e:
                return f"step {i}: {e}"
            box: list[Any] = []
            why = run_single({**step, "args": args}, box)
            if why is not None:
                return f"step {i} ({step.get('call')}): {why}"
            results.append(box[0] if box else _NO_RESULT)
        return None
    return run_single(case, [])


def _batch_json(r: Any) -> Any:
    """A batch result as a vector compares it: the array as a list, or for a table a
    dict of its parts (a 2-D part as a list of rows)."""
    if isinstance(r, dict):
        return {k: v.tolist() for k, v in r.items()}
    return r.tolist()


def run_single(case: dict[str, Any], box: list[Any]) -> str | None:
    """Run one call; None if it passes (its result is appended to ``box``)."""
    batch = "call_batch" in case
    if "call" not in case and not batch:
        return 'case has no "call"'
    op = case["call_batch"] if batch else case["call"]
    if not isinstance(op, str):
        return '"call" must be a string (an operation name)'
    args = case.get("args", {})
    has_expect, has_error = "expect" in case, "expect_error" in case
    if has_expect == has_error:
        return "case needs exactly one of expect and expect_error"
    try:
        result = _batch_json(call_batch(op, args)) if batch else call(op, args)
    except GunbaiError as e:
        if has_expect:
            return f"unexpected error [{e.code}] {e}"
        want = case["expect_error"]
        if isinstance(want, str):
            want = {"code": want}
        got: dict[str, Any] = {"code": e.code, "message": e.message}
        if e.field is not None:
            got["field"] = e.field
        if e.rule is not None:
            got["rule"] = e.rule
        if e.details:
            got["details"] = e.details
        if e.position is not None:
            got["position"] = e.position
        why = matches(want, got, "error")
        return None if why is None else f"{why} (error was [{e.code}] {e})"
    if has_error:
        return f"expected error {json.dumps(case['expect_error'])}, got result {json.dumps(result, ensure_ascii=False)}"
    why = matches(case["expect"], result)
    if why is None:
        why = _present(case.get("expect_absent"), result)
    if why is None:
        box.append(result)
        return None
    return f"{why} | result: {json.dumps(result, ensure_ascii=False)}"


_MISSING = object()


def _present(absent: Any, result: Any) -> str | None:
    """``expect_absent``: paths (``members.0.at``) none of which may exist in the result."""
    if absent is None:
        return None
    if not isinstance(absent, list) or not all(isinstance(p, str) for p in absent):
        return '"expect_absent" must be an array of paths'
    for p in absent:
        cur: Any = result
        for key in p.split("."):
            if isinstance(cur, list):
                cur = cur[int(key)] if key.isdigit() and int(key) < len(cur) else _MISSING
            elif isinstance(cur, dict):
                cur = cur.get(key, _MISSING)
            else:
                cur = _MISSING
            if cur is _MISSING:
                break
        if cur is not _MISSING:
            return f"result.{p}: expected absent"
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python -m gunbai.conformance PATH...", file=sys.stderr)
        return 2
    try:
        files = _files(argv)
    except FileNotFoundError as e:
        print(f"no such file or folder: {e}", file=sys.stderr)
        return 2
    if not files:
        print(f"no vector files (*.json) in: {' '.join(argv)}", file=sys.stderr)
        return 2
    passed = failed = 0
    seen: set[str] = set()
    for f in files:
        try:
            cases = load(f.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            print(f"FAIL {f}: unreadable vector file: {_one_line(str(e))}")
            failed += 1
            continue
        if not isinstance(cases, list):
            print(f"FAIL {f}: a vector file is a JSON array of cases")
            failed += 1
            continue
        for case in cases:
            cid = str(case.get("id", "<no id>")) if isinstance(case, dict) else "<not an object>"
            if not isinstance(case, dict):
                why: str | None = "case is not an object"
            elif cid in seen:
                why = "duplicate id"
            else:
                why = run_case(case)
            seen.add(cid)
            if why is None:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {_one_line(cid)} ({f}): {_one_line(why)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
