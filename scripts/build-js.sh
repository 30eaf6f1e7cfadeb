#!/usr/bin/env bash
# Build the npm package into bindings-js/pkg:
#   bash scripts/build-js.sh          the whole package: the full entry, the four per-ruleset
#                                     entries, the inline variants, package.json and README
#   bash scripts/build-js.sh --full   the full entry only (index.js + wasm/, what `make demo` runs)
#   ... --only "coc7 tmd"             those entries only (full, world-trigger, coc6, coc7, tmd, fap-map)
#   ... --target-dir DIR              cargo's target dir for them (default target/wasm; make
#                                     test builds two groups of entries side by side in two)
#   ... --cargo-only                  only the cargo builds of those entries (no wasm-bindgen
#                                     or wasm-opt needed yet: make demo runs this while
#                                     wasm-bindgen-cli compiles)
#   bash scripts/build-js.sh --package  only what is made of the built entries: the inline
#                                     variants, package.json, README
# Each entry is the wasm (release, opt-level z), wasm-bindgen (--target web: an ES module
# for Node and browsers), wasm-opt -Oz, and the generated index.js / index.d.ts (and for
# the full entry schema.json). An entry whose sources and tools did not change since it
# was last built here is kept as it is (stamps in target/stamps/).
# Needs: setup.sh wasm bindgen node (no Python).
source "$(dirname "$0")/env.sh"
cd "$ROOT"

# The entries: the full package, then one per ruleset ("<dir>:<cargo features>").
ALL_ENTRIES=(".:" "world-trigger:world_trigger" "coc6:coc6" "coc7:coc7" "tmd:tmd" "fap-map:fap_map")
ENTRIES=("${ALL_ENTRIES[@]}")
BUILD=1; PACKAGE=1; CARGO_ONLY=0; TARGET=target/wasm
entry_name() { local dir="${1%%:*}"; if [ "$dir" = . ]; then echo full; else echo "$dir"; fi; }
while [ $# -gt 0 ]; do
  case "$1" in
    --full) ENTRIES=(".:"); PACKAGE=0; shift ;;
    --only)
      ENTRIES=()
      for want in $2; do
        found=""
        for e in "${ALL_ENTRIES[@]}"; do [ "$(entry_name "$e")" != "$want" ] || found="$e"; done
        [ -n "$found" ] || { echo "no entry $want (full, world-trigger, coc6, coc7, tmd, fap-map)"; exit 2; }
        ENTRIES+=("$found")
      done
      PACKAGE=0; shift 2 ;;
    --target-dir) TARGET="$2"; shift 2 ;;
    --cargo-only) CARGO_ONLY=1; PACKAGE=0; shift ;;
    --package) BUILD=0; shift ;;
    *) echo "usage: build-js.sh [--full | --only NAMES] [--target-dir DIR] [--cargo-only] | --package"; exit 2 ;;
  esac
done
RAW="$TARGET/wasm32-unknown-unknown/wasm/gunbai_js.wasm"
STAMPS="$ROOT/target/stamps"
mkdir -p "$STAMPS" "$PKG" "$TARGET"

cargo_wasm() { # cargo feature args...
  if [ "$(wasm_mode)" = rustup ]; then
    cargo build -q --target wasm32-unknown-unknown --profile wasm -p gunbai-js --target-dir "$TARGET" "$@"
  else
    # build-std also lets us drop panic messages and source locations from the binary:
    # a wasm panic is a trap either way (the core never panics on input), and this saves ~25 KB.
    env PATH="$CACHE/debian-rust:$PATH" RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
      RUSTFLAGS="-Zlocation-detail=none -Zunstable-options -Cpanic=immediate-abort" \
      cargo build -q --target wasm32-unknown-unknown --profile wasm -p gunbai-js --target-dir "$TARGET" "$@"
  fi
}
cargo_entry() { # ENTRY ("dir:features")
  local features="${1#*:}"
  if [ -z "$features" ]; then cargo_wasm; else cargo_wasm --no-default-features --features "$features"; fi
}

if [ "$CARGO_ONLY" = 1 ]; then
  for entry in "${ENTRIES[@]}"; do cargo_entry "$entry"; done
  exit 0
fi

if [ "$BUILD" = 1 ]; then
for tool in "$WASM_BINDGEN" "$WASM_OPT"; do
  [ -x "$tool" ] || { echo "$tool is missing: run 'bash scripts/setup.sh wasm bindgen node'"; exit 1; }
done

# What an entry is built from: sources, this script, the toolchains.
mapfile -t core_sources < <(build_sources)
SOURCES="$(inputs_hash Cargo.toml Cargo.lock "${core_sources[@]}" bindings-js/Cargo.toml bindings-js/src bindings-js/js/prelude.js bindings-js/js/prelude.d.ts xtask \
  scripts/build-js.sh scripts/env.sh)"
TOOLS="$(wasm_mode) $("$WASM_BINDGEN" --version) $("$WASM_OPT" --version)"
[ "$(wasm_mode)" = rustup ] || TOOLS="$TOOLS $("$CACHE/debian-rust/rustc" -V)"

# finish DIR RAW_COPY STAMP KEY: wasm-bindgen, wasm-opt -Oz and the generated JS surface of one entry
# into $PKG/DIR (runs while cargo builds the next entry).
# Recovery after a wasm trap: the glue gets `__gunbaiReinstantiate()`, a new
# instance of the same compiled module (fresh memory) that the prelude calls after a
# native call threw, and `__gunbaiMemory()` (the current instance's memory, for tests).
# Objects freed by the garbage collector free themselves only in the instance that made
# them (each finalizer entry carries its generation), so a handle of a dead instance
# never frees a pointer in the new one.
patch_glue() { # glue.js
  node - "$1" <<'NODE'
const fs = require("node:fs");
const file = process.argv[2];
let js = fs.readFileSync(file, "utf8");
const count = (re) => (js.match(re) || []).length;
const free = /new FinalizationRegistry\(ptr => wasm\.(__wbg_\w+_free)\(ptr, 1\)\)/g;
const reg = /(\w+Finalization)\.register\((\w+), \2\.__wbg_ptr, \2\)/g;
if (count(free) < 2 || count(reg) < 2 || !js.includes("function initSync(module) {\n    if (wasm !== undefined) return wasm;")) {
  throw new Error(`${file}: the wasm-bindgen glue is not the shape scripts/build-js.sh patches`);
}
js = js.replace(free, "new FinalizationRegistry(held => { if (held.g === gunbaiGeneration) wasm.$1(held.p, 1); })");
js = js.replace(reg, "$1.register($2, { p: $2.__wbg_ptr, g: gunbaiGeneration }, $2)");
js = `let gunbaiGeneration = 0;\n${js}
// Added by scripts/build-js.sh: a new instance after a trap; its memory.
export function __gunbaiReinstantiate() {
    gunbaiGeneration++;
    wasm = undefined;
    initSync({ module: wasmModule });
    return gunbaiGeneration;
}
export function __gunbaiMemory() {
    return wasm.memory;
}
`;
fs.writeFileSync(file, js);
NODE
}

finish() {
  local dir="$1" raw="$2" stamp="$3" key="$4" out="$PKG/$1"
  mkdir -p "$out/wasm"
  "$WASM_BINDGEN" --target web --out-dir "$out/wasm" --out-name gunbai_js "$raw"
  patch_glue "$out/wasm/gunbai_js.js"
  # --converge repeats -Oz while it still shrinks the module; --zero-filled-memory holds
  # (a fresh instance's memory is zeros); --low-memory-unused holds because the stack sits
  # below the data and reaches the lowest 1 KiB only at a stack overflow, which traps either
  # way. Together about 4 KB of gzip on the full entry (DESIGN.md, "What size budget does the wasm have?").
  "$WASM_OPT" -Oz --converge --zero-filled-memory --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$out/wasm/gunbai_js_bg.wasm" -o "$out/wasm/gunbai_js_bg.opt.wasm"
  mv "$out/wasm/gunbai_js_bg.opt.wasm" "$out/wasm/gunbai_js_bg.wasm"
  # The operations this wasm registers, asked from the wasm itself: the entry's generated
  # JS surface lists exactly these (no hand-kept list per entry).
  node --input-type=module - "$out" <<'NODE'
import { readFileSync, writeFileSync } from "node:fs";
const dir = process.argv[2];
const glue = await import(`${dir}/wasm/gunbai_js.js`);
await glue.default({ module_or_path: readFileSync(`${dir}/wasm/gunbai_js_bg.wasm`) });
const env = JSON.parse(glue.call("meta.operations", "{}", 0, 0));
if (!env.ok) throw new Error(`meta.operations failed: ${JSON.stringify(env)}`);
writeFileSync(`${dir}/operations.json`, JSON.stringify(env.ok.operations));
NODE
  # (xtask is built only now, so that the wasm builds need not wait for it.)
  if [ "$dir" = . ]; then
    # The full package: every operation of the catalog, plus schema.json (the node
    # tests check that the wasm registers exactly these).
    bash scripts/xtask.sh js "$out"
  else
    bash scripts/xtask.sh js "$out" --operations "$out/operations.json"
  fi
  printf '%s: %s bytes raw; after wasm-bindgen + wasm-opt %s bytes; gzipped %s bytes\n' \
    "gunbai$([ "$dir" = . ] || echo "/$dir")" "$(stat -c %s "$raw")" \
    "$(stat -c %s "$out/wasm/gunbai_js_bg.wasm")" "$(gzip -9c "$out/wasm/gunbai_js_bg.wasm" | wc -c)"
  rm "$out/operations.json" "$raw"
  if [ "$dir" = . ]; then
    artifact_put "js-full" "$key" "$out" $(entry_files)
  else
    artifact_put "js-$dir" "$key" "$out" .
  fi
  echo "$key" >"$stamp"
}

# What finish() writes for the full entry (the per-ruleset entries are a whole folder each).
entry_files() { (cd "$PKG" && ls -d wasm index.js index.d.ts schema.json 2>/dev/null); }

pids=()
for entry in "${ENTRIES[@]}"; do
  dir="${entry%%:*}"; features="${entry#*:}"
  name="$([ "$dir" = . ] && echo full || echo "$dir")"
  key="$SOURCES $TOOLS $entry"
  key="$(echo "$key" | sha256sum | cut -c1-32)"
  if fresh "$STAMPS/js-$name" "$key" && [ -f "$PKG/$dir/index.js" ] && [ -f "$PKG/$dir/wasm/gunbai_js_bg.wasm" ]; then
    echo "gunbai$([ "$dir" = . ] || echo "/$dir"): unchanged, kept"
    continue
  fi
  rm -f "$STAMPS/js-$name"
  if [ "$dir" = . ]; then
    rm -rf "$PKG/wasm" "$PKG/index.js" "$PKG/index.d.ts" "$PKG/schema.json" "$PKG/inline.js"
  else
    rm -rf "${PKG:?}/$dir"
  fi
  if artifact_get "js-$name" "$key" "$PKG/$dir"; then
    printf '%s: from the artifact store (%s); after wasm-bindgen + wasm-opt %s bytes; gzipped %s bytes\n' \
      "gunbai$([ "$dir" = . ] || echo "/$dir")" "${ARTIFACTS/#$HOME/\~}/js-$name-$key" \
      "$(stat -c %s "$PKG/$dir/wasm/gunbai_js_bg.wasm")" "$(gzip -9c "$PKG/$dir/wasm/gunbai_js_bg.wasm" | wc -c)"
    echo "$key" >"$STAMPS/js-$name"
    continue
  fi
  step "wasm build: gunbai$([ "$dir" = . ] && echo " (full package)" || echo "/$dir (features: $features)") ($(wasm_mode))"
  cargo_entry "$entry"
  raw="$ROOT/$TARGET/raw-$name.wasm"
  cp "$RAW" "$raw"
  finish "$dir" "$raw" "$STAMPS/js-$name" "$key" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
fi

[ "$PACKAGE" = 1 ] || exit 0
for entry in "${ALL_ENTRIES[@]}"; do
  [ -f "$PKG/${entry%%:*}/index.js" ] || { echo "entry gunbai/${entry%%:*} is not built: run scripts/build-js.sh"; exit 1; }
done

step "inline entries (gunbai/inline, gunbai/<ruleset>/inline: the wasm gzipped + base64 inside inline.js)"
# Same module as index.js, except loadWasm(): it decodes the inlined wasm, so it works
# on hosts that don't serve .wasm (or not as application/wasm) and needs no asset copying.
node --input-type=module - "$PKG" "${ENTRIES[@]%%:*}" <<'NODE'
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
const [pkgRoot, ...dirs] = process.argv.slice(2);
for (const dir of dirs) {
  const pkg = `${pkgRoot}/${dir}`;
  const index = readFileSync(`${pkg}/index.js`, "utf8");
  const begin = index.indexOf("// @gunbai-load-begin");
  const endMark = "// @gunbai-load-end";
  const end = index.indexOf(endMark);
  if (begin < 0 || end < begin) throw new Error(`${pkg}/index.js: @gunbai-load-begin/end markers not found`);
  const wasm = readFileSync(`${pkg}/wasm/gunbai_js_bg.wasm`);
  const b64 = gzipSync(wasm, { level: 9 }).toString("base64");
  const block = `// gunbai/inline: the wasm is inlined below (gzip, then base64), so no .wasm file is
// fetched and the server's MIME type does not matter. Needs DecompressionStream
// (Chrome/Edge 80+, Firefox 113+, Safari 16.4+, Node 18+).
function base64Bytes(text) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
async function loadWasm() {
  const gz = new Blob([base64Bytes(WASM_GZIP_BASE64)]);
  const bytes = await new Response(gz.stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  await initWasm({ module_or_path: bytes });
}
const WASM_GZIP_BASE64 =
  "${b64}";
`;
  writeFileSync(`${pkg}/inline.js`, index.slice(0, begin) + block + index.slice(end + endMark.length));
}
NODE
cp bindings-js/js/package.json "$PKG/package.json"
cp bindings-js/js/README.md "$PKG/README.md"
cp LICENSE-MIT LICENSE-APACHE "$PKG/"
# Data files a host loads and passes in (never compiled into the wasm): the illustrative
# CoC 7th table pack for command.run's table_pack.
mkdir -p "$PKG/data" && cp core/data/command/coc7_tables.json "$PKG/data/"
packdir="$(mktemp -d)"; (cd "$PKG" && npm pack --silent --pack-destination "$packdir" >/dev/null)
printf 'npm package (npm pack, gzipped tarball): %s bytes; inline.js %s bytes (%s gzipped)\n' \
  "$(stat -c %s "$packdir"/*.tgz)" "$(stat -c %s "$PKG/inline.js")" "$(gzip -9c "$PKG/inline.js" | wc -c)"
rm -rf "$packdir"
