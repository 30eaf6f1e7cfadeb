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
  env PATH="$CACHE/debian-rust:$PATH" RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
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
cp bindings-js/js/package.json "$PKG/package.json"
cp bindings-js/js/README.md "$PKG/README.md"
printf 'raw %s bytes; after wasm-bindgen + wasm-opt %s bytes; gzipped %s bytes\n' \
  "$(stat -c %s "$RAW")" "$(stat -c %s "$PKG/wasm/gunbai_js_bg.wasm")" "$(gzip -9c "$PKG/wasm/gunbai_js_bg.wasm" | wc -c)"
