"""The Python conformance runner reads vectors from any folder and reports failures."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path


def run(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gunbai.conformance", *map(str, paths)], capture_output=True, text=True)


def test_passing_and_failing_cases_elsewhere(tmp_path: Path) -> None:
    f = tmp_path / "sub" / "v.json"
    f.parent.mkdir()
    f.write_text(
        json.dumps(
            [
                {"id": "ok", "call": "dice.roll", "args": {"expr": "2d6", "rolls": [1, 2]}, "expect": {"total": 3}},
                {"id": "bad", "call": "dice.roll", "args": {"expr": "2d6", "rolls": [1, 2]}, "expect": {"total": 4}},
                {"id": "err", "call": "dice.roll", "args": {"expr": "1001d6"}, "expect_error": "limit_exceeded"},
                {"id": "wrong-err", "call": "dice.roll", "args": {"expr": "1d6"}, "expect_error": "parse_error"},
            ]
        )
    )
    p = run(tmp_path)
    assert p.returncode == 1
    lines = p.stdout.strip().splitlines()
    assert lines[-1] == "2 passed, 2 failed"
    assert any(line.startswith("FAIL bad") for line in lines)
    assert any(line.startswith("FAIL wrong-err") for line in lines)


def test_all_pass_exits_zero(tmp_path: Path) -> None:
    f = tmp_path / "v.json"
    f.write_text(json.dumps([{"id": "ok", "call": "meta.version", "args": {}, "expect": {}}]))
    p = run(f)
    assert p.returncode == 0
    assert p.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_usage_error() -> None:
    assert run().returncode == 2
    assert run(Path("/nonexistent/vectors")).returncode == 2


_NODE_RUNNER = Path(__file__).resolve().parents[2] / "bindings-js" / "conformance.mjs"


def _runners() -> list[list[str]]:
    """The Python runner, and the Node one when the npm package is built here."""
    out = [[sys.executable, "-m", "gunbai.conformance"]]
    if shutil.which("node") and (_NODE_RUNNER.parent / "pkg" / "index.js").exists():
        out.append(["node", str(_NODE_RUNNER)])
    return out


def test_both_runners_read_tricky_files_the_same(tmp_path: Path) -> None:
    d = tmp_path / "vec"
    d.mkdir()
    (d / "a.json").write_text(
        """[
 {"id": "int-exact", "call": "dice.roll", "args": {"expr": "2d6+1000000000", "rolls": [3, 5]}, "expect": {"total": 1000000009}},
 {"id": "inf-expected", "call": "dice.roll", "args": {"expr": "2d6", "rolls": [3, 5]}, "expect": {"total": 1e400}},
 {"id": "float-args", "call": "dice.roll", "args": {"expr": "2d6", "rolls": [3.0, 5]}, "expect": {"total": 8.0}},
 {"id": "call-not-string", "call": 5, "args": {}, "expect": {}},
 {"id": "ok", "call": "dice.roll", "args": {"expr": "2d6", "rolls": [3, 5]}, "expect": {"total": 8}}
]"""
    )
    (d / "nan.json").write_text('[{"id": "nan", "call": "dice.roll", "args": {"expr": "1d6", "seed": NaN}, "expect": {}}]')
    empty = tmp_path / "empty"
    empty.mkdir()
    for cmd in _runners():
        # The folder and a file in it: each file is read once (no false "duplicate id").
        p = subprocess.run([*cmd, str(d), str(d / "a.json")], capture_output=True, text=True)
        lines = p.stdout.strip().splitlines()
        assert p.returncode == 1, (cmd, p.stdout, p.stderr)
        assert lines[-1] == "2 passed, 4 failed", (cmd, lines)
        failed = {line.split()[1] for line in lines[:-1]}
        # One line per failing case, none of them a duplicate.
        assert len(lines) == 5 and failed == {"int-exact", "inf-expected", "call-not-string", str(d / "nan.json") + ":"}, (cmd, lines)
        assert any('"call" must be a string' in line for line in lines), (cmd, lines)
        # A folder with no vector files is a usage error, not "0 passed".
        assert subprocess.run([*cmd, str(empty)], capture_output=True, text=True).returncode == 2, cmd
