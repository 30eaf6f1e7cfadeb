#!/usr/bin/env bash
# The `analysis` extra (numpy, pandas, matplotlib; pandas-stubs for stubtest) plus what executes the example
# notebook in `make test` (nbclient, nbformat, ipykernel). Idempotent: pip skips
# what is already installed; the kernel spec is installed into the venv itself.
source "$(dirname "$0")/../env.sh"
"$PY" -m pip install -q --disable-pip-version-check \
  "numpy>=1.26" "pandas>=2.1" "matplotlib>=3.8" \
  "nbclient>=0.10" "nbformat>=5.9" "ipykernel>=6.29" pandas-stubs
# A kernel named python3 that runs the venv's interpreter (nbclient looks it up by name).
if ! [ -f "$VENV/share/jupyter/kernels/python3/kernel.json" ] \
  || ! grep -q "$VENV" "$VENV/share/jupyter/kernels/python3/kernel.json"; then
  "$PY" -m ipykernel install --sys-prefix --name python3 >/dev/null
fi
"$PY" -c "import numpy, pandas, matplotlib, nbclient, nbformat, ipykernel; print('analysis extras: numpy', numpy.__version__, 'pandas', pandas.__version__, 'matplotlib', matplotlib.__version__)"
