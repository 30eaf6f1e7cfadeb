#!/usr/bin/env bash
# The code generator (xtask: the JS and Python surfaces from the core's catalog), built
# once and copied to target/tools/xtask, so that the build scripts can run it while
# another cargo command holds target/ (cargo locks it for a whole build). The binary is
# kept in the artifact store (scripts/env.sh) under the hash of what it is built from, so
# a fresh clone of the same sources runs it without compiling it.
#   bash scripts/xtask.sh ARGS...    run it (building it first if its sources changed)
#   bash scripts/xtask.sh --path     build it if needed and print its path
source "$(dirname "$0")/env.sh"
cd "$ROOT"
bin="$ROOT/target/tools/xtask"
# (xtask embeds bindings-js/js/prelude.js and prelude.d.ts.)
mapfile -t core_sources < <(build_sources)
key="$(inputs_hash Cargo.toml Cargo.lock "${core_sources[@]}" xtask bindings-js/js)"
if ! fresh "$bin.stamp" "$key" || ! [ -x "$bin" ]; then
  mkdir -p "$(dirname "$bin")"
  # One build at a time: build-js.sh finishes two entries side by side, and both may find
  # the binary stale (the second then finds it fresh, instead of storing it while the
  # first replaces it).
  exec 9>"$bin.lock"
  flock 9
fi
if ! fresh "$bin.stamp" "$key" || ! [ -x "$bin" ]; then
  if artifact_get xtask "$key" "$(dirname "$bin")" && [ -x "$bin" ]; then
    echo "xtask: from the artifact store (${ARTIFACTS/#$HOME/\~}/xtask-$key)" >&2
  else
    cargo build -q -p xtask
    cp target/debug/xtask "$bin.$$" && mv "$bin.$$" "$bin"
    artifact_put xtask "$key" "$(dirname "$bin")" xtask
  fi
  echo "$key" >"$bin.stamp"
fi
if [ "${1:-}" = --path ]; then echo "$bin"; else exec "$bin" "$@"; fi
