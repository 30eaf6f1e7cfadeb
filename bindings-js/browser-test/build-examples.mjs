// "Build" the web examples: copy the built npm package (bindings-js/pkg, from
// scripts/build-js.sh) into vendor/gunbai/ of the examples whose pages import it
// without a bundler (the character sheet and the Foundry module; the Owlbear
// extension is bundled by Vite from bindings-js/pkg, see owlbear-build.mjs).
// Usage: node bindings-js/browser-test/build-examples.mjs
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./server.mjs";

const PKG = join(REPO_ROOT, "bindings-js", "pkg");
const FILES = ["index.js", "inline.js", "index.d.ts", "package.json", "README.md", "wasm", "world-trigger", "coc6", "coc7", "tmd", "fap-map"];

export function buildExamples() {
  if (!existsSync(join(PKG, "index.js")) || !existsSync(join(PKG, "inline.js"))) {
    throw new Error(`${PKG} is missing or stale (no inline.js): run bash scripts/build-js.sh first`);
  }
  const out = [];
  for (const ex of ["character-sheet", "foundry-module"]) {
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
