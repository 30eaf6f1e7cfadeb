#!/usr/bin/env bash
# Execute the example notebooks top to bottom with nbclient (Agg backend), in their own
# folder, so their figures land in examples/notebooks/figures/. The notebook files
# themselves are not rewritten. Fails if any cell raises or a figure is not written.
#   build_analysis.ipynb  exact odds tables, the sample builds and a CoC 7th duel
#   build_sweep.ipynb     the build sweep on one process and on a Dask LocalCluster (2 workers),
#                         asserting that both give identical DataFrames
source "$(dirname "$0")/lib.sh"
needs wheel analysis
cd "$ROOT/examples/notebooks"
MPLBACKEND=Agg "$PY" - <<'PY'
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

expected = {
    "build_analysis.ipynb": {"wt_hit_chance.png", "wt_damage.png", "wt_success_curves.png", "wt_opposed_heatmap.png",
                             "wt_sample_vs_exact.png", "coc7_levels.png", "coc7_success.png", "tmd_initiative.png",
                             "coc7_opposed.png", "coc_ap_fm_pools.png", "coc7_duel.png"},
    "build_sweep.ipynb": {"wt_sweep.png"},
}
for name, figures in expected.items():
    t0, started = time.perf_counter(), time.time()
    nb = nbformat.read(name, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": "."}}).execute()
    # Written by this run (the committed PNGs are there before it).
    missing = figures - {p.name for p in Path("figures").glob("*.png") if p.stat().st_mtime >= started - 1}
    if missing:
        sys.exit(f"{name} did not save {sorted(missing)}")
    print(f"{name} executed: {len(nb.cells)} cells in {time.perf_counter() - t0:.1f} s, figures: {', '.join(sorted(figures))}")
PY
