#!/usr/bin/env bash
# Build the npm package into bindings-js/pkg: wasm (release, opt-level z), wasm-bindgen
# (--target web, an ES module that works in Node and browsers), wasm-opt -Oz, and the
# generated index.js / index.d.ts / schema.json.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
PKG="$ROOT/bindings-js/pkg"
rm -rf "$PKG"; mkdir -p "$PKG/wasm"

# The entries: the full package, then one per ruleset ("<dir>:<cargo features>").
ENTRIES=(".:" "world-trigger:world_trigger" "coc:coc" "tmd:tmd" "fap-map:fap_map")
WASM_OPT="$ROOT/bindings-js/node_modules/.bin/wasm-opt"
RAW="target/wasm/wasm32-unknown-unknown/wasm/gunbai_js.wasm"

# build_wasm OUT_DIR [cargo feature args...]: the wasm (release, opt-level z),
# wasm-bindgen (--target web: an ES module for Node and browsers), then wasm-opt -Oz.
build_wasm() {
  local out="$1"; shift
  mkdir -p "$out/wasm"
  if [ "$(wasm_mode)" = rustup ]; then
    cargo build -q --target wasm32-unknown-unknown --profile wasm -p gunbai-js --target-dir target/wasm "$@"
  else
    # build-std also lets us drop panic messages and source locations from the binary:
    # a wasm panic is a trap either way (the core never panics on input), and this saves ~25 KB.
    env PATH="$CACHE/debian-rust:$PATH" RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
      RUSTFLAGS="-Zlocation-detail=none -Zunstable-options -Cpanic=immediate-abort" \
      cargo build -q --target wasm32-unknown-unknown --profile wasm -p gunbai-js --target-dir target/wasm "$@"
  fi
  "$WASM_BINDGEN" --target web --out-dir "$out/wasm" --out-name gunbai_js "$RAW"
  "$WASM_OPT" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$out/wasm/gunbai_js_bg.wasm" -o "$out/wasm/gunbai_js_bg.opt.wasm"
  mv "$out/wasm/gunbai_js_bg.opt.wasm" "$out/wasm/gunbai_js_bg.wasm"
}

for entry in "${ENTRIES[@]}"; do
  dir="${entry%%:*}"; features="${entry#*:}"
  out="$PKG/$dir"
  if [ -z "$features" ]; then
    step "wasm build, full package ($(wasm_mode))"
    build_wasm "$out"
    printf 'raw %s bytes; ' "$(stat -c %s "$RAW")"
  else
    step "wasm build, entry gunbai/$dir (features: $features)"
    build_wasm "$out" --no-default-features --features "$features"
  fi
  printf 'after wasm-bindgen + wasm-opt %s bytes; gzipped %s bytes\n' \
    "$(stat -c %s "$out/wasm/gunbai_js_bg.wasm")" "$(gzip -9c "$out/wasm/gunbai_js_bg.wasm" | wc -c)"
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
  step "generated JS surface (gunbai/$dir)"
  if [ -z "$features" ]; then
    # The full package: every operation of the catalog, plus schema.json (the node
    # tests check that the wasm registers exactly these).
    cargo run -q -p xtask -- js "$out"
  else
    cargo run -q -p xtask -- js "$out" --operations "$out/operations.json"
  fi
  rm "$out/operations.json"
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
packdir="$(mktemp -d)"; (cd "$PKG" && npm pack --silent --pack-destination "$packdir" >/dev/null)
printf 'npm package (npm pack, gzipped tarball): %s bytes; inline.js %s bytes (%s gzipped)\n' \
  "$(stat -c %s "$packdir"/*.tgz)" "$(stat -c %s "$PKG/inline.js")" "$(gzip -9c "$PKG/inline.js" | wc -c)"
rm -rf "$packdir"
