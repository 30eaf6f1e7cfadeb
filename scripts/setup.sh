#!/usr/bin/env bash
# Install what the build and tests need, from scratch on a fresh machine:
#   bash scripts/setup.sh [PART...]      (no PART: all of them)
# Parts, each idempotent and quick when already done (tools are cached under
# ~/.cache/gunbai, override GUNBAI_CACHE; see docs/toolchain.md):
#   rust      cargo (rustup) must be on PATH
#   rust-dev  clippy and rustfmt (make test, make check-core)
#   wasm      the wasm32 toolchain: rustup's target if installed, else Debian's rustc-web (apt)
#   bindgen   wasm-bindgen-cli, the version pinned in bindings-js/Cargo.toml
#   node      bindings-js's npm tools (binaryen's wasm-opt, typescript)
#   py        .venv with maturin (building the wheel)
#   py-dev    .venv: pytest, mypy, numpy (make test), icepool (benchmarks/bench_duel.py)
#   web       Chromium, fonts, playwright-core, vite (browser tests: setup.d/20-web.sh)
#   analysis  numpy, pandas, matplotlib, nbclient (the notebook: setup.d/30-analysis.sh)
#   nonebot   .venv-nonebot: NoneBot2, the OneBot v11 adapter, NoneBug (examples/nonebot: setup.d/40-nonebot.sh)
#   koishi    Koishi, its mock and memory-database plugins (examples/koishi: setup.d/50-koishi.sh)
#   extras    every scripts/setup.d/*.sh (web, analysis and any later one)
source "$(dirname "$0")/env.sh"
mkdir -p "$CACHE"

setup_rust() {
  command -v cargo >/dev/null || { echo "cargo not found: install rustup (https://rustup.rs)"; exit 1; }
  cargo -V
}

setup_rust_dev() {
  setup_rust
  if ! { cargo clippy -V && cargo fmt --version; } >/dev/null 2>&1; then
    rustup component add clippy rustfmt
  fi
}

apt_install() { # PACKAGE...: install those not installed yet
  dpkg -s "$@" >/dev/null 2>&1 && return 0
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends "$@" >/dev/null
}

setup_wasm() {
  if [ "$(wasm_mode)" = debian ]; then
    # Debian's rustc-web ships the std sources that build-std needs; its rust-lld needs
    # lld-22 (docs/toolchain.md). Used for the wasm build only, never for host builds.
    apt_install rustc-web cargo-web rust-web-src rust-web-llvm lld-22
    mkdir -p "$CACHE/debian-rust"
    ln -sf /usr/bin/cargo /usr/bin/rustc /usr/bin/rustdoc "$CACHE/debian-rust/"
    "$CACHE/debian-rust/rustc" -V
  else
    echo "rustup's wasm32-unknown-unknown target"
  fi
}

setup_bindgen() {
  if [ -x "$WASM_BINDGEN" ] && "$WASM_BINDGEN" --version | grep -q "$WASM_BINDGEN_VERSION"; then
    "$WASM_BINDGEN" --version; return 0
  fi
  # Only the wasm-bindgen binary, without TLS (its test runner's downloads) and at
  # opt-level 1: it compiles in about half the time and runs in a second or two here.
  # No --locked: one locked dependency version is not on the registry here.
  local root="$CACHE/wasm-bindgen-$WASM_BINDGEN_VERSION"
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 cargo install -q wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" \
    --no-default-features --bin wasm-bindgen --root "$root.partial"
  rm -rf "$root"; mv "$root.partial" "$root"
  "$WASM_BINDGEN" --version
}

# npm ci only when the lock file changed since the last install (stamp = its checksum).
setup_node() (
  command -v node >/dev/null || { echo "node not found: install Node.js 20+"; exit 1; }
  node --version
  cd "$ROOT/bindings-js"
  local stamp="node_modules/.gunbai-lock.sha256" want
  want="$(cat package-lock.json package.json | sha256sum | cut -d' ' -f1)"
  if ! fresh "$stamp" "$want" || ! [ -x "$WASM_OPT" ]; then
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want" >"$stamp"
  fi
  "$WASM_OPT" --version
)

# Install REQUIREMENT... into .venv (uv: scripts/env.sh), skipped when the same set was
# installed before.
venv_install() {
  [ -x "$PY" ] || python3 -m venv "$VENV"
  local stamp="$VENV/.gunbai-$1"; shift
  local want; want="$(printf '%s\n' "$@" | sha256sum | cut -d' ' -f1)"
  if ! fresh "$stamp" "$want"; then
    uv_install "$PY" "$@"
    echo "$want" >"$stamp"
  fi
}

setup_py() {
  command -v python3 >/dev/null || { echo "python3 not found: install Python 3.9+"; exit 1; }
  venv_install maturin "$(grep -i '^maturin' "$ROOT/bindings-py/requirements-dev.txt")"
  "$VENV/bin/maturin" --version
}

setup_py_dev() {
  setup_py
  mapfile -t reqs < <(grep -v '^\s*#' "$ROOT/bindings-py/requirements-dev.txt" | grep .)
  venv_install dev "${reqs[@]}"
}

setup_extra() { # NAME: scripts/setup.d/*-NAME.sh
  local f
  for f in "$ROOT"/scripts/setup.d/*-"$1".sh; do
    [ -e "$f" ] || { echo "no scripts/setup.d/*-$1.sh"; exit 2; }
    bash "$f"
  done
}

setup_extras() {
  local f
  for f in "$ROOT"/scripts/setup.d/*.sh; do
    [ -e "$f" ] || continue
    step "setup: $(basename "$f")"
    bash "$f"
  done
}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(rust rust-dev wasm bindgen node py py-dev extras)
for part in "${parts[@]}"; do
  case "$part" in
    rust) step "rust host toolchain"; setup_rust ;;
    rust-dev) step "clippy, rustfmt"; setup_rust_dev ;;
    wasm) step "wasm toolchain ($(wasm_mode))"; setup_wasm ;;
    bindgen) step "wasm-bindgen-cli $WASM_BINDGEN_VERSION"; setup_bindgen ;;
    node) step "node tools (typescript, binaryen's wasm-opt)"; setup_node ;;
    py) step "python venv (maturin)"; setup_py ;;
    py-dev) step "python venv (pytest, mypy, numpy)"; setup_py_dev ;;
    web) step "browser tests (chromium, playwright-core, vite)"; setup_extra web ;;
    analysis) step "analysis extras and notebook runner"; setup_py_dev; setup_extra analysis ;;
    nonebot) step "NoneBot2 plugin dev tools (nonebot2, adapter-onebot, nonebug)"; setup_extra nonebot ;;
    koishi) step "Koishi plugin dev tools (koishi, plugin-mock, database-memory)"; setup_extra koishi ;;
    extras) setup_extras ;;
    *) echo "unknown setup part: $part"; exit 2 ;;
  esac
done
