#!/usr/bin/env bash
# Execute examples/notebooks/build_analysis.ipynb top to bottom with nbclient (Agg backend),
# in its own folder, so its figures land in examples/notebooks/figures/. The notebook file
# itself is not rewritten. Fails if any cell raises or a figure is missing.
source "$(dirname "$0")/../env.sh"
cd "$ROOT/examples/notebooks"
MPLBACKEND=Agg "$PY" - <<'PY'
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

nb = nbformat.read("build_analysis.ipynb", as_version=4)
NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": "."}}).execute()
figures = sorted(p.name for p in Path("figures").glob("*.png"))
expected = {"wt_hit_chance.png", "wt_damage.png", "wt_success_curves.png", "wt_opposed_heatmap.png",
            "wt_sample_vs_exact.png", "coc7_levels.png", "coc7_success.png"}
missing = expected - set(figures)
if missing:
    sys.exit(f"notebook did not save {sorted(missing)}")
print(f"notebook executed: {len(nb.cells)} cells, figures: {', '.join(figures)}")
PY
