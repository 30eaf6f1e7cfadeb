"""gunbai from Python, side by side in one run (see BENCHMARKS.md for recorded figures).

1. 10^7 World Trigger checks (7 stat dice + 2 tactics dice; achievement = sum of the
   faces + 10 per pair of 1s, WT-CHK-3/4): ``gunbai.world_trigger.simulate_checks``
   (one numpy int32 array) against a plain Python loop over ``random`` doing the same
   rule. The loop is timed on ``--loop-n`` checks (default 10^5) and scaled linearly
   to 10^7; the output says so. And the same rule vectorised with numpy
   (``numpy.random.Generator.integers``, chunks of 10^6 checks).
2. The exact achievement distribution of 5, 10, 20 and 40 dice: gunbai's
   ``world_trigger.distribution`` (f64, and with ``exact=True`` integer counts)
   against icepool (exact rationals; ``n @ d6`` over (sum, ones) vectors, mapped to
   sum + 10 × (ones // 2)). Both means are printed to show they agree.

Run with ``make bench`` (installs icepool into a separate venv, never into the project's).
No assertion here depends on timing.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from fractions import Fraction
from typing import Any, Callable

import gunbai


def best_of(repeat: int, f: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def python_loop(n: int, dice: int, seed: int = 1) -> list[int]:
    """The WT check in plain Python: roll `dice` d6, sum, +10 per pair of 1s."""
    rng = random.Random(seed)
    randint = rng.randint
    out = [0] * n
    for i in range(n):
        faces = [randint(1, 6) for _ in range(dice)]
        out[i] = sum(faces) + 10 * (faces.count(1) // 2)
    return out


def numpy_checks(n: int, dice: int, seed: int = 1) -> Any:
    """The WT check vectorised with numpy: an (n, dice) array of d6 faces, summed, +10
    per pair of 1s (int32, as gunbai's batch)."""
    import numpy as np

    faces = np.random.default_rng(seed).integers(1, 7, size=(n, dice), dtype=np.int8)
    ones = (faces == 1).sum(axis=1, dtype=np.int32)
    return faces.sum(axis=1, dtype=np.int32) + 10 * (ones // 2)


def icepool_distribution(n: int) -> Any:
    import icepool

    v = icepool.d6.map(lambda f: icepool.Vector((f, 1 if f == 1 else 0)))
    return (n @ v).map(lambda s: s[0] + 10 * (s[1] // 2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000_000, help="batch checks (default 10^7)")
    ap.add_argument("--loop-n", type=int, default=100_000, help="checks actually run by the Python loop")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = ap.parse_args()

    print(f"python {platform.python_version()} on {platform.machine()}, gunbai {gunbai.__version__}")
    print()
    print(f"== 1. World Trigger checks: 7 dice + 2 tactics dice, n = {args.n:,}")
    t_batch = best_of(
        args.repeat, lambda: gunbai.world_trigger.simulate_checks(dice=7, tactics_dice=2, n=args.n, seed=1)
    )
    t_loop_part = best_of(args.repeat, lambda: python_loop(args.loop_n, 9))
    t_loop = t_loop_part * args.n / args.loop_n
    a = gunbai.world_trigger.simulate_checks(dice=7, tactics_dice=2, n=args.loop_n, seed=1)
    b = python_loop(args.loop_n, 9)
    print(f"  gunbai batch (numpy int32)   {t_batch:8.3f} s   ({t_batch / args.n * 1e9:.1f} ns/check)")
    print(
        f"  plain Python loop (random)   {t_loop:8.3f} s   "
        f"(timed on {args.loop_n:,} checks: {t_loop_part:.3f} s, scaled x{args.n / args.loop_n:g})"
    )
    # numpy in chunks of 10^6 checks (an (n, 9) int8 array of 10^7 rows is 90 MB).
    chunk = min(args.n, 1_000_000)
    t_np = best_of(args.repeat, lambda: [numpy_checks(chunk, 9, seed=s) for s in range(args.n // chunk)])
    c = numpy_checks(args.loop_n, 9)
    print(f"  numpy, vectorised            {t_np:8.3f} s   ({t_np / args.n * 1e9:.1f} ns/check, chunks of {chunk:,})")
    print(f"  speed-up                     {t_loop / t_batch:8.1f}x over the loop (goal >= 50x), {t_np / t_batch:.1f}x over numpy")
    print(f"  sample means agree: batch {a.mean():.3f}, loop {sum(b) / len(b):.3f}, numpy {c.mean():.3f}")
    print()
    print("== 2. Exact achievement distribution of N dice")
    try:
        import icepool  # noqa: F401
    except ImportError:
        print("  icepool is not installed here: run `make bench` (it installs icepool into a separate venv)")
        return
    print(f"  {'dice':>4} {'gunbai f64':>12} {'gunbai exact':>13} {'icepool':>10} {'speed-up':>9} {'(vs exact)':>10}")
    for n in (5, 10, 20, 40):
        reps = max(args.repeat, 5)
        t_g = best_of(reps * 20, lambda: gunbai.world_trigger.distribution(dice=n))
        t_ge = best_of(reps * 20, lambda: gunbai.world_trigger.distribution(dice=n, exact=True))
        t_i = best_of(args.repeat, lambda: icepool_distribution(n))
        g = gunbai.world_trigger.distribution(dice=n, exact=True)
        i = icepool_distribution(n)
        total = sum(int(c) for _, c in g["counts"])
        g_mean = Fraction(sum(v * int(c) for v, c in g["counts"]), total)
        assert g_mean == Fraction(i.mean()), (n, g_mean, i.mean())
        print(
            f"  {n:>4} {t_g * 1e3:10.3f}ms {t_ge * 1e3:11.3f}ms {t_i * 1e3:8.1f}ms "
            f"{t_i / t_g:8.0f}x {t_i / t_ge:9.0f}x"
        )
    print("  (means equal as exact fractions for every N; goal >= 100x)")


if __name__ == "__main__":
    main()
