// gunbai through Vite: the Owlbear extension is built with Vite (the way its
// README says), with `gunbai` resolved to the package's default entry, so Vite
// must emit the .wasm asset from `new URL("./wasm/…", import.meta.url)`. The
// SDK is aliased to the stand-in for the test only. The built page then runs
// in Chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage } from "./harness.mjs";
import { buildExamples } from "./build-examples.mjs";

const EX = join(REPO_ROOT, "examples", "owlbear-extension");
const DIST = join(EX, "dist");
let browser, server;

before(async () => {
  buildExamples();
  await build({
    root: EX,
    configFile: join(EX, "vite.config.js"),
    logLevel: "warn",
    resolve: {
      alias: {
        "@owlbear-rodeo/sdk": join(EX, "test", "obr-stand-in.js"),
        gunbai: join(EX, "vendor", "gunbai", "index.js"),
      },
    },
    build: { outDir: DIST, emptyOutDir: true },
  });
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("vite build emits the wasm as an asset and copies the manifest", () => {
  const assets = readdirSync(join(DIST, "assets"));
  assert.ok(assets.some((f) => f.endsWith(".wasm")), assets.join(", "));
  const m = JSON.parse(readFileSync(join(DIST, "manifest.json"), "utf8"));
  for (const f of [m.icon, m.action.icon, m.action.popover]) assert.ok(existsSync(join(DIST, f)), f);
});

test("the Vite-built extension runs in Chromium and starts an encounter", async () => {
  const page = await newPage(browser, { viewport: { width: 420, height: 800 } });
  await page.goto(`${server.url}examples/owlbear-extension/dist/index.html?lang=en`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
  assert.ok(server.requests.some((p) => p.startsWith("/examples/owlbear-extension/dist/assets/") && p.endsWith(".wasm")));
  await page.click("#start");
  await page.waitForSelector("#encounter:not([hidden])");
  assert.equal(await page.getAttribute("#phase", "data-phase"), "delays");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.blocked, []);
  await page.context().close();
});
