// gunbai through Vite: the Owlbear extension is built with Vite the way its
// README says (owlbear-build.mjs: the real @owlbear-rodeo/sdk, gunbai's
// per-ruleset entries), so Vite must emit each entry's .wasm asset from
// `new URL("./wasm/…", import.meta.url)` and split the entries into chunks
// that are imported on demand. The built pages then run in Chromium inside
// the harness that plays Owlbear Rodeo (examples/owlbear-extension/test/).
// The package's default entry (`gunbai`) is built through Vite too, in a
// one-page app.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";
import { serve } from "./server.mjs";
import { launch, newPage, LIVENESS } from "./harness.mjs";
import { buildOwlbear, PKG } from "./owlbear-build.mjs";

let browser, server, DIST;

before(async () => {
  DIST = await buildOwlbear();
  server = await serve({ root: DIST });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("vite build emits one wasm per ruleset entry, both pages, and copies the manifest", () => {
  const assets = readdirSync(join(DIST, "assets"));
  assert.equal(assets.filter((f) => f.endsWith(".wasm")).length, 5, assets.join(", "));
  for (const e of ["world-trigger", "tmd", "coc6", "coc7", "fap-map"]) assert.ok(assets.some((f) => f.startsWith(`${e}-`) && f.endsWith(".js")), `${e} chunk`);
  const m = JSON.parse(readFileSync(join(DIST, "manifest.json"), "utf8"));
  for (const f of [m.icon, m.action.icon, m.action.popover, m.background_url]) assert.ok(existsSync(join(DIST, f)), f);
});

test("the Vite-built extension runs in Chromium (in the Owlbear harness) and starts an encounter", async () => {
  const page = await newPage(browser, { viewport: { width: 900, height: 800 } });
  await page.goto(`${server.url}harness.html`);
  await page.waitForFunction(() => window.harness);
  const KEY = "io.github.gunbai/encounter";
  await page.evaluate((KEY) => {
    harness.setScene({
      items: ["a", "b"].map((id, i) => ({ id, name: id.toUpperCase(), createdUserId: "gm", layer: "CHARACTER", position: { x: 150 + 100 * i, y: 150 }, metadata: { [KEY]: { combatant: true, side: id } } })),
      metadata: { "io.github.gunbai/settings": { system: "tmd" } },
    });
    harness.addClient({ id: "gm", role: "GM", name: "GM" });
  }, KEY);
  let f = null;
  for (let i = 0; i < 300 && !f; i++) (f = page.frame({ name: "gm-popover" })) || (await new Promise((r) => setTimeout(r, 20)));
  await f.waitForSelector("body[data-ready='1'][data-loaded='tmd']", { timeout: LIVENESS });
  assert.ok(server.requests.some((p) => p.startsWith("/assets/") && p.endsWith(".wasm")));
  await f.click("#start");
  await f.waitForSelector("#encounter:not([hidden])");
  assert.equal(await f.getAttribute("#phase", "data-phase"), "delays");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.blocked, []);
  await page.context().close();
});

test("the package's default entry (`gunbai`, every ruleset in one wasm) through Vite runs in Chromium", async () => {
  // A one-page app importing "gunbai" (the package's default entry), built in a temporary folder.
  const dir = mkdtempSync(join(tmpdir(), "gunbai-vite-"));
  try {
    writeFileSync(join(dir, "index.html"), '<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script><body></body>');
    writeFileSync(
      join(dir, "main.js"),
      'import * as gunbai from "gunbai";\nconst r = gunbai.dice.roll({ expr: "2d6", seed: 7 });\ndocument.body.dataset.total = String(r.total);\ndocument.body.dataset.rulesets = [gunbai.worldTrigger, gunbai.tmd, gunbai.cocAp, gunbai.coc7House, gunbai.fapMap].every(Boolean) ? "5" : "missing";\n',
    );
    await build({ root: dir, configFile: false, logLevel: "warn", base: "./", resolve: { alias: { gunbai: join(PKG, "index.js") } }, build: { outDir: join(dir, "dist"), target: "es2022" } });
    const assets = readdirSync(join(dir, "dist", "assets"));
    assert.equal(assets.filter((f) => f.endsWith(".wasm")).length, 1, assets.join(", "));
    const s = await serve({ root: join(dir, "dist") });
    try {
      const page = await newPage(browser);
      await page.goto(`${s.url}index.html`);
      await page.waitForSelector("body[data-total]", { state: "attached", timeout: LIVENESS });
      const want = (await import(join(PKG, "index.js"))).dice.roll({ expr: "2d6", seed: 7 }).total;
      assert.equal(await page.getAttribute("body", "data-total"), String(want));
      assert.equal(await page.getAttribute("body", "data-rulesets"), "5");
      assert.deepEqual(page.errors, []);
      await page.context().close();
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
