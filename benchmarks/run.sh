#!/usr/bin/env bash
# `make bench`: the benchmarks, side by side in one run (figures recorded in BENCHMARKS.md).
# 1. World Trigger battles (issue 21): native Rust, Python and Node — the pure operations,
#    the handle and simulate_battles — for the same random 3v3 rank battle.
# 2. benchmarks/bench_python.py (batch checks vs a Python loop, exact odds vs icepool), in a
#    separate venv ($CACHE/bench-venv) holding the freshly built wheel, numpy and icepool
#    (icepool is for the benchmark only).
source "$(dirname "$0")/../scripts/env.sh"
cd "$ROOT"
BV="$CACHE/bench-venv"
[ -x "$BV/bin/python" ] || python3 -m venv "$BV"
"$BV/bin/python" -m pip install -q --disable-pip-version-check icepool numpy "typing_extensions>=4.6"
"$BV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$ROOT"/bindings-py/dist/*.whl
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"

step "World Trigger battles: native, Python, Node (random 3v3 rank battle)"
out="$(mktemp)"
cargo test -q --release -p gunbai --lib batch::battles::tests::bench_simulate_battles -- --ignored --nocapture 2>/dev/null | grep '^native\.' | tee "$out"
"$BV/bin/python" benchmarks/bench_battles.py | tee -a "$out"
node benchmarks/bench_battles.mjs | tee -a "$out"
"$BV/bin/python" - "$out" <<'PY'
import sys
f = dict(line.split() for line in open(sys.argv[1]) if line.strip())
f = {k: float(v) for k, v in f.items()}
print()
print("| | pure ops µs/action | handle µs/action (`legal_actions`) | handle µs/action (`listing`) | handle µs/action (`listing.play`) | pure ÷ handle | simulate_battles µs/battle | battles/s | ÷ native |")
print("|---|---|---|---|---|---|---|---|---|")
nat = f["native.sim_us_per_battle"]
print(f"| Rust (native) | — | {f['native.us_per_action']:.2f} (typed) | — | — | — | {nat:.0f} | {f['native.sim_battles_per_s']:.0f} | 1.00 |")
for lang in ("python", "node"):
    p, h, l, y, s = (f[f"{lang}.{k}"] for k in ("pure_us_per_action", "handle_us_per_action", "listing_us_per_action", "play_us_per_action", "sim_us_per_battle"))
    print(f"| {lang} | {p:.0f} | {h:.1f} | {l:.1f} | {y:.1f} | {p / h:.0f}× / {p / l:.0f}× / {p / y:.0f}× | {s:.0f} | {f[f'{lang}.sim_battles_per_s']:.0f} | {s / nat:.2f} |")
PY
rm -f "$out"

step "Python: batch checks and exact odds"
"$BV/bin/python" "$ROOT/benchmarks/bench_python.py" "$@"

step "Python: World Trigger build sweep, one process against a Dask LocalCluster(2) (the project's .venv, scale extra)"
"$PY" "$ROOT/benchmarks/bench_sweep.py"
