#!/usr/bin/env bash
# `make bench`: run benchmarks/bench_python.py in a separate venv ($CACHE/bench-venv)
# holding the freshly built wheel, numpy and icepool (icepool is for the benchmark only).
source "$(dirname "$0")/../scripts/env.sh"
BV="$CACHE/bench-venv"
[ -x "$BV/bin/python" ] || python3 -m venv "$BV"
"$BV/bin/python" -m pip install -q --disable-pip-version-check icepool numpy
"$BV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$ROOT"/bindings-py/dist/*.whl
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$BV/bin/python" "$ROOT/benchmarks/bench_python.py" "$@"
