"""The Python wrapper's cost per call against the native call (issue 27).

For each op of the issue's table: ``gunbai._native.call(op, text)`` on pre-encoded JSON
text, and the public wrapper (``gunbai.dice.roll(expr="1d100", seed=1)`` ...) with the
same arguments, timed side by side in one run. Each figure is the best of ROUNDS rounds
of ITERS calls (``time.perf_counter``); "added" is wrapper minus native, what the wrapper
costs on top of the core. No figure is asserted: this prints, it does not test.

    python benchmarks/bench_calls.py [ITERS] [ROUNDS]
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import gunbai
from gunbai import _native

# (op, arguments, the public wrapper called with those arguments)
CASES: list[tuple[str, dict[str, Any], Callable[[], Any]]] = [
    ("meta.version", {}, lambda: gunbai.meta.version()),
    ("dice.roll", {"expr": "1d100", "seed": 1}, lambda: gunbai.dice.roll(expr="1d100", seed=1)),
    ("coc7.check", {"skill": 50, "seed": 1}, lambda: gunbai.coc7.check(skill=50, seed=1)),
    ("command.run", {"text": "CC(1)<=53", "system": "coc7", "seed": 1}, lambda: gunbai.command.run(text="CC(1)<=53", system="coc7", seed=1)),
    ("world_trigger.check", {"dice": 7, "seed": 1}, lambda: gunbai.world_trigger.check(dice=7, seed=1)),
]


def best_us(f: Callable[[], Any], iters: int, rounds: int) -> float:
    """The best of ``rounds`` rounds of ``iters`` calls, in µs per call."""
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(iters):
            f()
        best = min(best, time.perf_counter() - t)
    return best / iters * 1e6


def main() -> None:
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(f"gunbai {gunbai.meta.version()}; best of {rounds} rounds of {iters} calls")
    print()
    print("| call | native `_native.call` µs | wrapper µs | added µs |")
    print("|---|---|---|---|")
    call = _native.call
    for op, args, wrapper in CASES:
        text = json.dumps(args, separators=(",", ":"))
        # The same answer both ways, so both paths do the same work.
        assert json.loads(call(op, text))["ok"] == wrapper(), op
        native_us = best_us(lambda: call(op, text), iters, rounds)  # noqa: B023 - called in this iteration
        wrapper_us = best_us(wrapper, iters, rounds)
        print(f"| `{op}` | {native_us:.2f} | {wrapper_us:.2f} | {wrapper_us - native_us:.2f} |")
    print(f"\nload average at the end {' '.join(open('/proc/loadavg').read().split()[:3])}")


if __name__ == "__main__":
    main()
