"""The Python conformance runner reads vectors from any folder and reports failures."""

from __future__ import annotations

import json
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
