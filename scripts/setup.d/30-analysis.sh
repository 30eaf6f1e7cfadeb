#!/usr/bin/env bash
# The `analysis` extra (numpy, pandas, matplotlib, tqdm; pandas-stubs and types-tqdm for stubtest), the `scale` extra
# (dask[distributed]: the build sweep on a LocalCluster) plus what executes the example notebooks in
# `make test` (nbclient, nbformat, ipykernel), installed with uv (scripts/env.sh). Idempotent:
# uv skips what is already installed; the kernel spec is installed into the venv itself.
source "$(dirname "$0")/../env.sh"
uv_install "$PY" \
  "numpy>=1.26" "pandas>=2.1" "matplotlib>=3.8" "tqdm>=4.66" "dask[distributed]>=2024.1" \
  "nbclient>=0.10" "nbformat>=5.9" "ipykernel>=6.29" pandas-stubs types-tqdm
# A kernel named python3 that runs the venv's interpreter (nbclient looks it up by name).
if ! [ -f "$VENV/share/jupyter/kernels/python3/kernel.json" ] \
  || ! grep -q "$VENV" "$VENV/share/jupyter/kernels/python3/kernel.json"; then
  "$PY" -m ipykernel install --sys-prefix --name python3 >/dev/null
fi
"$PY" -c "import numpy, pandas, matplotlib, tqdm, dask, distributed, nbclient, nbformat, ipykernel; print('analysis extras: numpy', numpy.__version__, 'pandas', pandas.__version__, 'matplotlib', matplotlib.__version__, 'tqdm', tqdm.__version__, 'dask', dask.__version__)"
