# Shared settings for the scripts in this folder (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${GUNBAI_CACHE:-$HOME/.cache/gunbai}"
# The wasm-bindgen CLI must match the crate version pinned in bindings-js/Cargo.toml.
WASM_BINDGEN_VERSION="$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' "$ROOT/bindings-js/Cargo.toml")"
WASM_BINDGEN="$CACHE/wasm-bindgen-$WASM_BINDGEN_VERSION/bin/wasm-bindgen"
WASM_OPT="$ROOT/bindings-js/node_modules/.bin/wasm-opt"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
PKG="$ROOT/bindings-js/pkg"
# The wheel is built in its own target dir, so that it can be built while `cargo test`
# or clippy hold target/ (cargo locks a target dir for the whole build).
WHEEL_TARGET="$ROOT/target/wheel"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# A registry that answers slowly once should not fail a build: more tries than cargo's 3.
export CARGO_NET_RETRY="${CARGO_NET_RETRY:-10}"

step() { printf '\n=== %s\n' "$*"; }

# `sudo` when not root (apt-get).
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"

# "rustup" when rustup's own wasm32 target is installed, else "debian" (rustc-web + build-std).
wasm_mode() {
  if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo rustup
  else
    echo debian
  fi
}

# timed NAME CMD...: run CMD, then print how long it took; with GUNBAI_TIMES set, also
# append "seconds<TAB>NAME" to that file (scripts/demo.sh prints them as a table).
timed() {
  local name="$1"; shift
  local t0; t0="$(date +%s.%N)"
  local rc=0
  # In the background, so that `set -e` still applies inside CMD (a shell function):
  # bash ignores it in a command whose status is tested, such as `CMD || rc=$?`.
  "$@" &
  wait "$!" || rc=$?
  local dt; dt="$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
  printf -- '--- %s: %s s%s\n' "$name" "$dt" "$([ "$rc" = 0 ] || echo " (FAILED, exit $rc)")"
  [ -z "${GUNBAI_TIMES:-}" ] || printf '%s\t%s\n' "$dt" "$name" >>"$GUNBAI_TIMES"
  return "$rc"
}

# inputs_hash PATH...: one sha256 over the names and contents of the files under PATH
# (tracked, or untracked and not ignored; relative to ROOT), plus the toolchains that
# build them. Identical sources give the same hash in any clone.
inputs_hash() {
  (
    cd "$ROOT"
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
      git ls-files -z -co --exclude-standard -- "$@" | sort -z | xargs -0 -r sha256sum
    else
      # (outside git: the exclusions are not applied, which only hashes more)
      local paths=() p
      for p in "$@"; do [[ "$p" == ":("* ]] || paths+=("$p"); done
      find "${paths[@]}" -type f -print0 | sort -z | xargs -0 -r sha256sum
    fi
    rustc -V 2>/dev/null || true
    cargo -V 2>/dev/null || true
    env | grep -E '^(RUSTFLAGS|CARGO_PROFILE_[A-Z_]+|CARGO_BUILD_[A-Z_]+)=' | sort || true
  ) | sha256sum | cut -c1-32
}

# build_sources: the core as its builds see it, as inputs_hash paths: `core` less its
# test-only files (scripts/test-only.py: modules declared under #[cfg(test)], core/tests),
# so that the wasm entries, the wheel and xtask are not rebuilt after an edit to a test.
build_sources() {
  echo core
  python3 "$ROOT/scripts/test-only.py" "$ROOT"
}

# fresh STAMP KEY: true when STAMP holds KEY (the output it stands for is current).
fresh() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

# The artifact store: built outputs (each wasm entry after wasm-opt, the wheel) kept under
# $CACHE/artifacts/NAME-KEY, KEY being the hash of everything they are built from
# (inputs_hash plus the tools' versions). A clone whose inputs hash the same, a fresh
# clone of the same commit for instance, takes them from there instead of building them
# again. GUNBAI_ARTIFACT_CACHE=0 turns it off (every artifact is then built, as on a
# machine with an empty cache); the newest 3 of each NAME are kept.
ARTIFACTS="$CACHE/artifacts"
# artifact_get NAME KEY DEST: copy the stored files of NAME-KEY into the directory DEST.
artifact_get() {
  [ "${GUNBAI_ARTIFACT_CACHE:-1}" != 0 ] || return 1
  local dir="$ARTIFACTS/$1-$2"
  [ -f "$dir/.complete" ] || return 1
  mkdir -p "$3"
  (cd "$dir/files" && tar -cf - .) | (cd "$3" && tar -xf -)
  touch "$dir" # (the newest used are the ones kept)
}
# artifact_put NAME KEY SRC FILE...: store those FILEs (paths relative to SRC) as NAME-KEY.
artifact_put() {
  [ "${GUNBAI_ARTIFACT_CACHE:-1}" != 0 ] || return 0
  local name="$1" key="$2" src="$3"; shift 3
  local tmp; tmp="$(mktemp -d "$ARTIFACTS.tmp.XXXXXX" 2>/dev/null || { mkdir -p "$ARTIFACTS" && mktemp -d "$ARTIFACTS.tmp.XXXXXX"; })"
  mkdir -p "$tmp/files" "$ARTIFACTS"
  (cd "$src" && tar -cf - "$@") | (cd "$tmp/files" && tar -xf -)
  touch "$tmp/.complete"
  rm -rf "$ARTIFACTS/$name-$key"
  mv "$tmp" "$ARTIFACTS/$name-$key" 2>/dev/null || rm -rf "$tmp"
  # Keep the newest 3 of this name.
  ls -dt "$ARTIFACTS/$name"-* 2>/dev/null | tail -n +4 | xargs -r rm -rf
}

# apt-get ARGS, one at a time across parallel setup steps (dpkg takes one client at a time).
apt_get() {
  mkdir -p "$CACHE"
  flock "$CACHE/apt.lock" env DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 "$@"
}
# venv_pip ARGS: pip in .venv, one at a time (parallel steps install into the same venv).
venv_pip() {
  flock "$VENV/.pip.lock" "$PY" -m pip --disable-pip-version-check "$@"
}

# uv, pinned, installs the development venvs' requirements (scripts/setup.sh: py, py-dev,
# analysis, nonebot): from its cache it installs pandas, dask and the rest in about two
# seconds, where pip took 87 s and 51 CPU-s on an idle machine. What a user runs stays
# pip's: the smoke tests install the wheel, the sdist and the plugins with pip.
UV_VERSION=0.13.10
UV="$CACHE/uv-$UV_VERSION/bin/uv"
# uv_install PYTHON ARGS...: `uv pip install ARGS` into PYTHON's venv, one at a time
# (parallel steps install into the same venv); installs uv first when it is missing.
uv_install() {
  local python="$1"; shift
  if ! [ -x "$UV" ]; then
    mkdir -p "$CACHE"
    flock "$CACHE/uv.lock" bash -c '
      [ -x "$1/bin/uv" ] && exit 0
      rm -rf "$1.partial" && python3 -m venv "$1.partial" &&
        "$1.partial/bin/python" -m pip --disable-pip-version-check install -q "uv==$2" &&
        rm -rf "$1" && mv "$1.partial" "$1"' _ "$CACHE/uv-$UV_VERSION" "$UV_VERSION"
  fi
  flock "$(dirname "$(dirname "$python")")/.pip.lock" "$UV" pip install -q --python "$python" "$@"
}
