#!/usr/bin/env bash
# Browser tests, in Debian's headless chromium driven by playwright-core:
# the npm package without a bundler (both entries, any wasm MIME type), the
# character-sheet site, the Foundry VTT module (against a stand-in for Foundry's
# client API), the Owlbear Rodeo extension (built with Vite and run on the real
# @owlbear-rodeo/sdk inside a harness page that plays Owlbear's side of its
# messages), and the package through Vite. Needs scripts/build-js.sh
# (the package) and scripts/build-py.sh (the Python side of the parity check).
source "$(dirname "$0")/lib.sh"
needs npm wheel web
[ -f bindings-js/pkg/inline.js ] || { echo "bindings-js/pkg is missing or stale: run scripts/build-js.sh"; exit 1; }
[ -x /usr/bin/chromium ] && [ -d bindings-js/browser-test/node_modules/playwright-core ] || {
  echo "chromium or playwright-core missing: run scripts/setup.d/20-web.sh"; exit 1; }

step "web: copy the package into the unbundled examples (vendor/gunbai)"
node bindings-js/browser-test/build-examples.mjs

step "web: tsc --checkJs of the Foundry module against the Foundry VTT v13 types"
[ -x examples/foundry-module/types/node_modules/.bin/tsc ] || {
  echo "the Foundry types are missing: run scripts/setup.d/20-web.sh"; exit 1; }
examples/foundry-module/types/node_modules/.bin/tsc -p examples/foundry-module/types

step "web: tsc --checkJs of the Owlbear extension against @owlbear-rodeo/sdk"
[ -x bindings-js/browser-test/node_modules/.bin/tsc ] || {
  echo "typescript is missing in bindings-js/browser-test: run scripts/setup.d/20-web.sh"; exit 1; }
bindings-js/browser-test/node_modules/.bin/tsc -p examples/owlbear-extension

step "web: browser tests (headless chromium)"
export GUNBAI_PYTHON="$PY"
node --test --test-concurrency=1 --test-reporter=spec \
  bindings-js/browser-test/package.test.mjs \
  bindings-js/browser-test/character-sheet.test.mjs \
  bindings-js/browser-test/foundry.test.mjs \
  bindings-js/browser-test/owlbear.test.mjs \
  bindings-js/browser-test/vite.test.mjs

step "web: npm package size"
packdir="$(mktemp -d)"; trap 'rm -rf "$packdir"' EXIT
(cd bindings-js/pkg && npm pack --silent --pack-destination "$packdir" >/dev/null)
printf 'npm pack tarball %s bytes; per page: index.js + wasm %s bytes gzipped, inline.js %s bytes gzipped\n' \
  "$(stat -c %s "$packdir"/*.tgz)" \
  "$(( $(gzip -9c bindings-js/pkg/index.js | wc -c) + $(gzip -9c bindings-js/pkg/wasm/gunbai_js.js | wc -c) + $(gzip -9c bindings-js/pkg/wasm/gunbai_js_bg.wasm | wc -c) ))" \
  "$(( $(gzip -9c bindings-js/pkg/inline.js | wc -c) + $(gzip -9c bindings-js/pkg/wasm/gunbai_js.js | wc -c) ))"
