"""The Python wrapper's cost per call against the native call.

For each op of the issue's table, three layers timed side by side in one run:
``gunbai._native.call(op, text)`` (JSON text in, the envelope's JSON text out: the core
and pyo3's string passing), ``gunbai._native.call_value(op, args)`` (Python objects in
and out: what the wrapper calls), and the public wrapper (``gunbai.dice.roll(expr=
"1d100", seed=1)`` ...) with the same arguments. Each figure is the best of ROUNDS
rounds of ITERS calls (``time.perf_counter``), the layers interleaved round by round;
"added" is the wrapper minus ``_native.call``, what the Python side costs on top of the
native call (reading the reply into Python objects included). With BENCH_KV=FILE,
``key value`` lines are appended to FILE. No figure is asserted: this prints, it does
not test.

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


def round_us(f: Callable[[], Any], iters: int) -> float:
    """One round of ``iters`` calls, in µs per call."""
    t = time.perf_counter()
    for _ in range(iters):
        f()
    return (time.perf_counter() - t) / iters * 1e6


def side_by_side(fs: list[Callable[[], Any]], iters: int, rounds: int) -> list[float]:
    """The best round of each function, rounds interleaved."""
    for f in fs:
        round_us(f, max(1, iters // 4))
    best = [float("inf")] * len(fs)
    for _ in range(rounds):
        for i, f in enumerate(fs):
            best[i] = min(best[i], round_us(f, iters))
    return best


def main() -> None:
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    kv_file = os.environ.get("BENCH_KV")
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(f"gunbai {gunbai.meta.version()['version']}; best of {rounds} interleaved rounds of {iters} calls")
    print()
    print("| call | `_native.call` µs (text) | `_native.call_value` µs (objects) | wrapper µs | added µs (wrapper − `_native.call`) |")
    print("|---|---|---|---|---|")
    call = _native.call
    call_value = _native.call_value
    for op, args, wrapper in CASES:
        text = json.dumps(args, separators=(",", ":"))
        # The same answer every way, so every path does the same work.
        expect = json.loads(call(op, text))["ok"]
        assert expect == wrapper() == call_value(op, args), op
        native_us, value_us, wrapper_us = side_by_side(
            [lambda: call(op, text), lambda: call_value(op, args), wrapper],  # noqa: B023 - called in this iteration
            iters,
            rounds,
        )
        print(f"| `{op}` | {native_us:.2f} | {value_us:.2f} | {wrapper_us:.2f} | {wrapper_us - native_us:.2f} |")
        if kv_file:
            with open(kv_file, "a") as f:
                f.write(f"python.{op}.native_us {native_us}\npython.{op}.value_us {value_us}\npython.{op}.wrapper_us {wrapper_us}\n")
    print(f"\nload average at the end {' '.join(open('/proc/loadavg').read().split()[:3])}")


if __name__ == "__main__":
    main()
