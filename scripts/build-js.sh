#!/usr/bin/env bash
# Build the npm package into bindings-js/pkg: wasm (release, opt-level z), wasm-bindgen
# (--target web, an ES module that works in Node and browsers), wasm-opt -Oz, and the
# generated index.js / index.d.ts / schema.json.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
PKG="$ROOT/bindings-js/pkg"
rm -rf "$PKG"; mkdir -p "$PKG/wasm"

step "wasm build ($(wasm_mode))"
if [ "$(wasm_mode)" = rustup ]; then
  cargo build -q --target wasm32-unknown-unknown --profile wasm -p gunbai-js --target-dir target/wasm
else
  # build-std also lets us drop panic messages and source locations from the binary:
  # a wasm panic is a trap either way (the core never panics on input), and this saves ~25 KB.
  env PATH="$CACHE/debian-rust:$PATH" RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
    RUSTFLAGS="-Zlocation-detail=none -Zunstable-options -Cpanic=immediate-abort" \
    cargo build -q --target wasm32-unknown-unknown --profile wasm -p gunbai-js --target-dir target/wasm
fi
RAW="target/wasm/wasm32-unknown-unknown/wasm/gunbai_js.wasm"

step "wasm-bindgen"
"$WASM_BINDGEN" --target web --out-dir "$PKG/wasm" --out-name gunbai_js "$RAW"

step "wasm-opt -Oz"
WASM_OPT="$ROOT/bindings-js/node_modules/.bin/wasm-opt"
"$WASM_OPT" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  "$PKG/wasm/gunbai_js_bg.wasm" -o "$PKG/wasm/gunbai_js_bg.opt.wasm"
mv "$PKG/wasm/gunbai_js_bg.opt.wasm" "$PKG/wasm/gunbai_js_bg.wasm"

step "generated JS surface"
cargo run -q -p xtask -- js "$PKG"
step "inline entry (gunbai/inline: the wasm gzipped + base64 inside inline.js)"
# Same module as index.js, except loadWasm(): it decodes the inlined wasm, so it works
# on hosts that don't serve .wasm (or not as application/wasm) and needs no asset copying.
node --input-type=module - "$PKG" <<'NODE'
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
const pkg = process.argv[2];
const index = readFileSync(`${pkg}/index.js`, "utf8");
const begin = index.indexOf("// @gunbai-load-begin");
const endMark = "// @gunbai-load-end";
const end = index.indexOf(endMark);
if (begin < 0 || end < begin) throw new Error("index.js: @gunbai-load-begin/end markers not found");
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
const out = index.slice(0, begin) + block + index.slice(end + endMark.length);
writeFileSync(`${pkg}/inline.js`, out);
NODE
cp bindings-js/js/package.json "$PKG/package.json"
cp bindings-js/js/README.md "$PKG/README.md"
printf 'raw %s bytes; after wasm-bindgen + wasm-opt %s bytes; gzipped %s bytes\n' \
  "$(stat -c %s "$RAW")" "$(stat -c %s "$PKG/wasm/gunbai_js_bg.wasm")" "$(gzip -9c "$PKG/wasm/gunbai_js_bg.wasm" | wc -c)"
packdir="$(mktemp -d)"; (cd "$PKG" && npm pack --silent --pack-destination "$packdir" >/dev/null)
printf 'npm package (npm pack, gzipped tarball): %s bytes; inline.js %s bytes (%s gzipped)\n' \
  "$(stat -c %s "$packdir"/*.tgz)" "$(stat -c %s "$PKG/inline.js")" "$(gzip -9c "$PKG/inline.js" | wc -c)"
rm -rf "$packdir"
