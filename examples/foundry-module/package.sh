#!/usr/bin/env bash
# Package the Foundry module for installation by manifest URL:
#   bash examples/foundry-module/package.sh https://example.org/gunbai/foundry/ [out-dir]
# writes <out-dir>/module.json (with `url`, `manifest` = <base>module.json and
# `download` = <base>gunbai-foundry-<version>.zip) and that zip (the module folder
# `gunbai/` with the built package in vendor/gunbai). Upload both to <base>; in
# Foundry: Add-on Modules → Install Module → Manifest URL = <base>module.json.
# Needs the package copied in first: node bindings-js/browser-test/build-examples.mjs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
base="${1:?usage: package.sh <base-url ending in /> [out-dir]}"
case "$base" in https://*/) ;; *) echo "the base URL must start with https:// and end with /" >&2; exit 2 ;; esac
out="${2:-$here/dist}"
[ -f "$here/vendor/gunbai/index.js" ] || { echo "vendor/gunbai is missing: run node bindings-js/browser-test/build-examples.mjs" >&2; exit 1; }
version="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).version)' "$here/module.json")"
zipname="gunbai-foundry-$version.zip"
mkdir -p "$out"
stage="$(mktemp -d)"; trap 'rm -rf "$stage"' EXIT
mkdir "$stage/gunbai"
cp -r "$here/lang" "$here/scripts" "$here/styles" "$here/vendor" "$here/README.md" "$stage/gunbai/"
node -e '
const fs = require("fs");
const [src, dst, base, zip] = process.argv.slice(1);
const m = JSON.parse(fs.readFileSync(src));
m.url = base; m.manifest = base + "module.json"; m.download = base + zip;
fs.writeFileSync(dst, JSON.stringify(m, null, 2) + "\n");
' "$here/module.json" "$stage/gunbai/module.json" "$base" "$zipname"
cp "$stage/gunbai/module.json" "$out/module.json"
rm -f "$out/$zipname"
(cd "$stage" && python3 -m zipfile -c "$out/$zipname" gunbai)
echo "$out/module.json"
echo "$out/$zipname"
