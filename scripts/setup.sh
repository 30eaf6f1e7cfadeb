#!/usr/bin/env bash
# Install everything the build and tests need, from scratch on a fresh machine.
# Idempotent and cached: tools go under ~/.cache/gunbai (override: GUNBAI_CACHE).
source "$(dirname "$0")/env.sh"
mkdir -p "$CACHE"

step "rust host toolchain"
command -v cargo >/dev/null || { echo "cargo not found: install rustup (https://rustup.rs)"; exit 1; }
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt

step "wasm toolchain ($(wasm_mode))"
if [ "$(wasm_mode)" = debian ]; then
  # Debian's rustc-web ships std sources for build-std; rust-lld needs lld-22 (see ../shared/TOOLCHAIN.md).
  pkgs="rustc-web cargo-web rust-web-src rust-web-llvm lld-22"
  if ! dpkg -s $pkgs >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
  fi
  mkdir -p "$CACHE/debian-rust"
  ln -sf /usr/bin/cargo /usr/bin/rustc /usr/bin/rustdoc "$CACHE/debian-rust/"
fi

step "wasm-bindgen-cli $WASM_BINDGEN_VERSION"
if ! [ -x "$WASM_BINDGEN" ] || ! "$WASM_BINDGEN" --version | grep -q "$WASM_BINDGEN_VERSION"; then
  # No --locked: one locked dependency version is not on the registry here.
  cargo install -q wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root "$CACHE/wasm-bindgen-$WASM_BINDGEN_VERSION"
fi
"$WASM_BINDGEN" --version

step "node tools (typescript, binaryen's wasm-opt)"
command -v node >/dev/null || { echo "node not found: install Node.js 20+"; exit 1; }
(cd "$ROOT/bindings-js" && npm ci --no-audit --no-fund --loglevel=error)

step "python venv (maturin, pytest, mypy)"
if ! [ -x "$PY" ]; then python3 -m venv "$VENV"; fi
"$PY" -m pip install -q --disable-pip-version-check -r "$ROOT/bindings-py/requirements-dev.txt"
# Extra setup steps owned by parts of the project (browser tests, analysis extras, …).
for extra in "$ROOT"/scripts/setup.d/*.sh; do
  [ -e "$extra" ] || continue
  step "setup: $(basename "$extra")"
  bash "$extra"
done
echo "setup done"
