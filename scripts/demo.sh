#!/usr/bin/env bash
# `make demo`: the same operations with the same seeds from Node and from Python,
# shown side by side and compared byte for byte. Installs and builds only what the demo
# runs: the wasm toolchain, wasm-bindgen, wasm-opt, maturin, the full npm entry
# (index.js + wasm) and the wheel; not the per-ruleset entries, the inline variants,
# the test tools or Chromium (those are `make test` / `make dist`). Independent steps run
# side by side (the wasm and the wheel build while wasm-bindgen-cli compiles), each
# step's time is printed, and what did not change since the last run is kept.
source "$(dirname "$0")/env.sh"
source "$ROOT/scripts/jobs.sh"
cd "$ROOT"
JOB_LOGS="$ROOT/target/logs/demo"

run_demo() {
  node examples/demo/demo.mjs >target/demo-node.jsonl
  "$PY" examples/demo/demo.py >target/demo-python.jsonl
  "$PY" - <<'PY'
import json
node = open("target/demo-node.jsonl", encoding="utf-8").read().splitlines()
py = open("target/demo-python.jsonl", encoding="utf-8").read().splitlines()
for n, p in zip(node, py):
    d = json.loads(n)
    if "ok" in d:
        r = d["ok"]
        faces = [x["value"] for x in r.get("rolls", [])]
        summary = ", ".join(f"{k}={r[k]}" for k in ("total", "damage", "success", "achievement", "level", "probability", "text") if k in r)
        shown = f"{summary}  faces={faces}"
    else:
        shown = f"error [{d['error']['code']}] {d['error']['message']}"
    same = "identical" if n == p else "DIFFERENT"
    print(f"{d['call']:<28} {d['title']:<40} {shown}  [Node vs Python: {same}]")
if node != py or len(node) != len(py):
    raise SystemExit("Node and Python results differ")
print(f"\n{len(node)} calls: Node and Python gave byte-identical results.")
PY
}

mkdir -p target
job "setup: rust" "" bash scripts/setup.sh rust
job "setup: wasm toolchain" "setup: rust" bash scripts/setup.sh wasm
job "setup: wasm-bindgen-cli" "setup: rust" bash scripts/setup.sh bindgen
job "setup: node tools" "" bash scripts/setup.sh node
job "setup: python (maturin)" "" bash scripts/setup.sh py
job "build: xtask" "setup: rust" bash scripts/xtask.sh --path
job "build: wheel" "setup: python (maturin)|build: xtask" bash scripts/build-py.sh
job "build: wasm (cargo)" "setup: wasm toolchain" bash scripts/build-js.sh --full --cargo-only
job "build: npm entry gunbai" "build: wasm (cargo)|build: xtask|setup: wasm-bindgen-cli|setup: node tools" \
  bash scripts/build-js.sh --full
job "demo: Node vs Python" "build: npm entry gunbai|build: wheel" run_demo
# Up to four at once: some are downloads; the builds share the two cores.
GUNBAI_JOBS="${GUNBAI_JOBS:-4}" run_jobs
