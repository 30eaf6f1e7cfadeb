// Build the Owlbear Rodeo extension with Vite the way its README says, for the
// browser tests: the real @owlbear-rodeo/sdk (installed here by
// scripts/setup.d/20-web.sh, npm ci) and gunbai's per-ruleset entries from the
// built package (bindings-js/pkg). The harness page that plays Owlbear
// (examples/owlbear-extension/test/harness.*) is copied next to the built
// pages, so the extension's frames are same-origin with it, as they are
// cross-origin-but-addressed in Owlbear Rodeo (the SDK checks the origin named
// in its `obrref` parameter, which the harness sets to its own).
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import { REPO_ROOT } from "./server.mjs";

export const EX = join(REPO_ROOT, "examples", "owlbear-extension");
export const PKG = join(REPO_ROOT, "bindings-js", "pkg");
export const SDK = join(REPO_ROOT, "bindings-js", "browser-test", "node_modules", "@owlbear-rodeo", "sdk", "lib", "index.js");
/** The npm entry of each ruleset (what app.js imports). */
export const ENTRY_OF = { world_trigger: "world-trigger", tmd: "tmd", coc_ap: "coc6", coc7_house: "coc7", fap_map: "fap-map" };

export async function buildOwlbear(outDir = join(EX, "dist")) {
  if (!existsSync(SDK)) throw new Error(`${SDK} missing: run scripts/setup.d/20-web.sh`);
  if (!existsSync(join(PKG, "coc7", "index.js"))) throw new Error(`${PKG} is missing: run bash scripts/build-js.sh`);
  await build({
    root: EX,
    configFile: join(EX, "vite.config.js"),
    logLevel: "warn",
    resolve: {
      alias: [
        { find: /^@owlbear-rodeo\/sdk$/, replacement: SDK },
        { find: /^gunbai\/(world-trigger|tmd|coc|fap-map)$/, replacement: `${PKG}/$1/index.js` },
      ],
    },
    build: { outDir, emptyOutDir: true },
  });
  for (const f of ["harness.html", "harness.js"]) cpSync(join(EX, "test", f), join(outDir, f));
  return outDir;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  console.log(`built ${await buildOwlbear()}`);
}
