# Shared settings for the scripts in this folder (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${GUNBAI_CACHE:-$HOME/.cache/gunbai}"
# The wasm-bindgen CLI must match the crate version pinned in bindings-js/Cargo.toml.
WASM_BINDGEN_VERSION="$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' "$ROOT/bindings-js/Cargo.toml")"
WASM_BINDGEN="$CACHE/wasm-bindgen-$WASM_BINDGEN_VERSION/bin/wasm-bindgen"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

step() { printf '\n=== %s\n' "$*"; }

# "rustup" when rustup's own wasm32 target is installed, else "debian" (rustc-web + build-std).
wasm_mode() {
  if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo rustup
  else
    echo debian
  fi
}
