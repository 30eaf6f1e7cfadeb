// "Build" the web examples: copy the built npm package (bindings-js/pkg, from
// scripts/build-js.sh) into each example's vendor/gunbai/, which the pages import
// without a bundler. Usage: node bindings-js/browser-test/build-examples.mjs
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./server.mjs";

const PKG = join(REPO_ROOT, "bindings-js", "pkg");
const FILES = ["index.js", "inline.js", "index.d.ts", "package.json", "README.md", "wasm", "world-trigger", "coc", "tmd", "fap-map"];

export function buildExamples() {
  if (!existsSync(join(PKG, "index.js")) || !existsSync(join(PKG, "inline.js"))) {
    throw new Error(`${PKG} is missing or stale (no inline.js): run bash scripts/build-js.sh first`);
  }
  const out = [];
  for (const ex of ["character-sheet", "foundry-module", "owlbear-extension"]) {
    const dest = join(REPO_ROOT, "examples", ex, "vendor", "gunbai");
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    for (const f of FILES) cpSync(join(PKG, f), join(dest, f), { recursive: true });
    out.push(dest);
  }
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  for (const d of buildExamples()) console.log(`copied the package into ${d}`);
}
