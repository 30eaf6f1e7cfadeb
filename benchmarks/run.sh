#!/usr/bin/env bash
# `make bench`: the benchmarks, side by side in one run (figures recorded in BENCHMARKS.md).
# 1. World Trigger battles: native Rust, Python and Node — the pure operations,
#    the handle and simulate_battles — for the same random 3v3 rank battle.
# 2. benchmarks/bench_python.py (batch checks vs a Python loop, exact odds vs icepool), in a
#    separate venv ($CACHE/bench-venv) holding the freshly built wheel, numpy and icepool
#    (icepool is for the benchmark only).
# 3. Calls: Node against bcdice-js (npm `bcdice`, installed for the benchmark
#    only into $CACHE/bench-node, never a dependency of the package), cold start and
#    memory; per layer for each binding (benchmarks/bench_node.mjs, bench_calls.py); and
#    a summary of the issue's ratios.
# 4. The Python layers in instructions (valgrind callgrind: load-independent), when valgrind is installed.
# 5. Whole games per second of every engine's simulate, one thread against every core, native
#    and from Python (benchmarks/bench_simulate.py, benchmarks/simulate_setups.json).
# GUNBAI_BENCH_ONLY="calls" (or "battles simulate python sweep calls instructions", any of them) runs only those parts.
source "$(dirname "$0")/../scripts/env.sh"
cd "$ROOT"
ONLY="${GUNBAI_BENCH_ONLY:-battles simulate python sweep calls instructions}"
part() { [[ " $ONLY " == *" $1 "* ]]; }
BCDICE_VERSION=4.9.0
BN="$CACHE/bench-node"
if part calls && ! grep -qs "\"version\": \"$BCDICE_VERSION\"" "$BN/node_modules/bcdice/package.json"; then
  mkdir -p "$BN"
  npm install --prefix "$BN" --no-audit --no-fund --no-save --silent "bcdice@$BCDICE_VERSION"
fi
BV="$CACHE/bench-venv"
[ -x "$BV/bin/python" ] || python3 -m venv "$BV"
"$BV/bin/python" -m pip install -q --disable-pip-version-check icepool numpy "typing_extensions>=4.6"
"$BV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$ROOT"/bindings-py/dist/*.whl
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"

if part battles; then
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
fi

if part simulate; then
step "Whole games per second, one thread against every core: native, then Python (the same games)"
out="$(mktemp)"
cargo test -q --release -p gunbai --lib bench_simulate_threads -- --ignored --nocapture 2>/dev/null | grep '^native\.' | tee "$out"
"$BV/bin/python" benchmarks/bench_simulate.py | tee -a "$out"
"$BV/bin/python" - "$out" <<'PY'
import sys
f = {k: float(v) for k, v in (line.split() for line in open(sys.argv[1]) if line.strip())}
print()
print("| engine | games | actions/game | native 1 thread | native all (chunks) | native all (op threads) | Python 1 thread | Python all | Python all ÷ 1 |")
print("|---|---|---|---|---|---|---|---|---|")
for m in ("world_trigger", "coc_ap", "coc7_house", "tmd", "fap_map"):
    n, st = f[f"python.{m}.n"], f[f"python.{m}.steps"]
    no, na, nt = (f[f"native.{m}.{w}"] for w in ("one", "all", "op_all"))
    po, pa = f[f"python.{m}.one"], f[f"python.{m}.all"]
    print(f"| {m} | {n:,.0f} | {st:.0f} | {no:,.0f} | {na:,.0f} | {nt:,.0f} | {po:,.0f} | {pa:,.0f} | **{pa / po:.2f}×** |")
PY
rm -f "$out"
fi

if part python; then
step "Python: batch checks against a plain loop and numpy, and exact odds"
"$BV/bin/python" "$ROOT/benchmarks/bench_python.py" "$@"
fi

if part sweep; then
step "Python: World Trigger build sweep, one process against a Dask LocalCluster(2) (the project's .venv, scale extra)"
"$PY" "$ROOT/benchmarks/bench_sweep.py"
fi

if part calls; then
kv="$(mktemp)"
step "Rust: one native call per op (gunbai::call_json, no binding; BENCHMARKS.md §5)"
cargo test -q --release -p gunbai --lib call_bench::call_bench -- --ignored --nocapture 2>/dev/null | grep '^native\.'
step "Node: gunbai against bcdice-js, cold start, memory, and per layer"
BENCH_KV="$kv" node benchmarks/bench_node.mjs "$BN/node_modules/bcdice"
step "Python: per call, the native call against the wrapper"
BENCH_KV="$kv" "$BV/bin/python" benchmarks/bench_calls.py
step "Calls: the ratios against the goals in BENCHMARKS.md, from the figures above"
"$BV/bin/python" - "$kv" <<'PY'
import sys
f = {}
for line in open(sys.argv[1]):
    k, v = line.rsplit(" ", 1)
    f[k] = float(v)
for cmd in ("CC(1)<=53", "CCB<=65", "2D6+3", "CBR(70,30)"):
    g, b = f[f"node.cmd.{cmd}.gunbai_us"], f[f"node.cmd.{cmd}.bcdice_us"]
    print(f"Node `{cmd}`: gunbai {g:.2f} µs, bcdice-js {b:.1f} µs: {b / g:.0f}× (goal for CoC 7th >= 100×)")
g, b = f["node.cold.gunbai.first_ms"], f["node.cold.bcdice.first_ms"]
print(f"Node cold start to the first result: gunbai {g:.1f} ms, bcdice-js {b:.1f} ms: {b / g:.1f}× (goal >= 10×)")
print(f"Node memory (RSS) after 1,001 commands: gunbai {f['node.cold.gunbai.rss_mib']:.1f} MiB, bcdice-js {f['node.cold.bcdice.rss_mib']:.1f} MiB, bare node {f['node.cold.bare_node.rss_mib']:.1f} MiB")
print()
print("| call | Rust core + pyo3 (`_native.call`) µs | Python wrapper µs | added µs (goal <= 3) | Node wasm export µs | Node function µs | added µs over the export | added µs over `_native.call` (goal <= 5 for meta.version) |")
print("|---|---|---|---|---|---|---|---|")
for op in ("meta.version", "dice.roll", "coc7.check", "command.run", "world_trigger.check"):
    n, w = f[f"python.{op}.native_us"], f[f"python.{op}.wrapper_us"]
    e, j = f[f"node.{op}.wasm_us"], f[f"node.{op}.fn_us"]
    print(f"| `{op}` | {n:.2f} | {w:.2f} | {w - n:.2f} | {e:.2f} | {j:.2f} | {j - e:.2f} | {j - n:.2f} |")
PY
rm -f "$kv"
fi

if part instructions; then
  if command -v valgrind >/dev/null; then
    step "Python: the layers of one call in instructions (callgrind; load-independent)"
    bash benchmarks/bench_calls_instructions.sh "$BV/bin/python"
  else
    echo "(valgrind is not installed: the instruction counts are left out)"
  fi
fi
