// The Owlbear Rodeo extension page in Chromium against a small stand-in for
// `@owlbear-rodeo/sdk` (examples/owlbear-extension/test/obr-stand-in.js — not
// Owlbear Rodeo): a TMD encounter for the scene's tokens is started, a phase is
// advanced, the state is persisted in scene metadata and survives a reload, and
// the page shows whose turn it is and the remaining AP.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage, screenshot } from "./harness.mjs";
import { buildExamples } from "./build-examples.mjs";

const gunbai = await import(`${REPO_ROOT}/bindings-js/pkg/index.js`);
const KEY = "io.github.gunbai/encounter";
const SHOTS = join(REPO_ROOT, "examples", "owlbear-extension", "screenshots");
let browser, server, page;

const meta = () => page.evaluate((k) => JSON.parse(localStorage.getItem("obr-stand-in/scene-metadata") || "{}")[k] ?? null, KEY);

before(async () => {
  buildExamples();
  server = await serve({ wasmType: "application/octet-stream" }); // the inline entry doesn't care
  browser = await launch();
  page = await newPage(browser, { viewport: { width: 420, height: 900 } });
  await page.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=en`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("manifest.json is an Owlbear Rodeo extension manifest (public/ is copied to the site root by Vite)", async () => {
  const m = await (await fetch(`${server.url}examples/owlbear-extension/public/manifest.json`)).json();
  assert.equal(m.manifest_version, 1);
  assert.equal(m.action.popover, "/index.html");
  assert.equal((await fetch(`${server.url}examples/owlbear-extension/index.html`)).status, 200);
  for (const f of [m.icon, m.action.icon]) {
    assert.equal((await fetch(`${server.url}examples/owlbear-extension/public${f}`)).status, 200, f);
  }
});

test("the tokens of the CHARACTER layer are listed; the World Trigger battle waits for its engine", async () => {
  const rows = await page.$$eval("#tokens tr[data-token]", (els) => els.map((e) => e.dataset.token));
  assert.deepEqual(rows, ["tok-akane", "tok-bolt", "tok-crow"]);
  const wtDisabled = await page.locator('#system option[value="world_trigger"]').isDisabled();
  assert.equal(wtDisabled, !gunbai.worldTrigger?.battleNew);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.blocked, []);
  assert.ok(!server.requests.some((p) => p.endsWith(".wasm")), "the page uses gunbai/inline");
});

test("start a TMD encounter: state in scene metadata, phase and order shown", async () => {
  await page.click("#start");
  await page.waitForSelector("#encounter:not([hidden])");
  const saved = await meta();
  assert.equal(saved.system, "tmd");
  assert.equal(saved.state.format, 1);
  // the state is exactly what gunbai accepts: legal actions can be listed from it
  const legal = gunbai.tmd.encounterLegalActions({ state: saved.state });
  assert.ok(legal.actions.length > 0);
  assert.deepEqual(saved.state.characters.map((c) => [c.id, c.side, c.base_initiative]), [
    ["tok-akane", "PC", 3],
    ["tok-bolt", "PC", 1],
    ["tok-crow", "NPC", 2],
  ]);
  assert.equal(await page.getAttribute("#phase", "data-phase"), saved.state.phase);
  const order = await page.$$eval("#order tr[data-character]", (els) => els.map((e) => e.dataset.character));
  assert.deepEqual(order, saved.state.order);
  // one button per legal action (grouped: now / out of turn / GM tools)
  const buttons = await page.$$eval("#actions button", (els) => els.map((e) => e.dataset.kind));
  assert.deepEqual(buttons.sort(), legal.actions.map((a) => a.action.kind).sort());
});

test("advance a phase: the new state is persisted and whose turn it is shows", async () => {
  const before = await meta();
  assert.equal(before.state.phase, "delays");
  await page.click('#actions button[data-kind="start_turns"]');
  await page.waitForFunction(() => document.querySelector("#phase").dataset.phase === "turns");
  const after = await meta();
  const expected = gunbai.tmd.encounterAct({ state: before.state, action: { kind: "start_turns" } });
  assert.deepEqual(after.state, expected.state);
  assert.equal(after.state.phase, "turns");
  const current = after.state.current;
  assert.ok(current);
  assert.equal(await page.getAttribute("#turn", "data-current"), current);
  assert.match(await page.locator("#turn").innerText(), new RegExp(after.names[current]));
  const row = page.locator(`#order tr[data-character="${current}"]`);
  assert.match(await row.getAttribute("class"), /current/);
  const c = after.state.characters.find((x) => x.id === current);
  assert.equal(await row.locator(".base-ap").innerText(), String(c.base_ap));
  assert.equal(await row.locator(".extra-ap").innerText(), String(c.extra_ap));
});

test("an action spends AP; an illegal one leaves the stored state unchanged", async () => {
  const before = await meta();
  const current = before.state.current;
  const convert = await page.$$eval("#actions button[data-kind='convert']", (els) => els.map((e) => e.textContent));
  assert.ok(convert.length > 0, "convert actions are offered at the start of a turn");
  await page.click("#actions button[data-kind='convert']");
  await page.waitForFunction(
    (ap) => {
      const r = document.querySelector("#order tr.current .base-ap");
      return r && r.textContent !== String(ap);
    },
    before.state.characters.find((x) => x.id === current).base_ap,
  );
  const after = await meta();
  assert.ok(after.state.characters.find((x) => x.id === current).base_ap < before.state.characters.find((x) => x.id === current).base_ap);
  // Illegal: end someone else's turn (gunbai in the page, from the stored state).
  const other = after.state.order.find((id) => id !== current);
  const err = await page.evaluate(
    async ([st, who]) => {
      const g = await import("../vendor/gunbai/inline.js");
      try {
        g.tmd.encounterAct({ state: st, action: { kind: "end_turn", character: who } });
        return null;
      } catch (e) {
        return { code: e.code, rule: e.rule };
      }
    },
    [after.state, other],
  );
  assert.equal(err.code, "illegal_action");
  assert.deepEqual(await meta(), after);
});

test("the state survives a reload (scene metadata) and end-turn moves the turn on", async () => {
  const before = await meta();
  await page.reload();
  await page.waitForSelector("body[data-ready='1']");
  assert.equal(await page.getAttribute("#phase", "data-phase"), "turns");
  assert.equal(await page.getAttribute("#turn", "data-current"), before.state.current);
  await page.click("#actions button[data-kind='end_turn']");
  await page.waitForFunction((cur) => document.querySelector("#turn").dataset.current !== cur, before.state.current);
  const after = await meta();
  assert.notEqual(after.state.current, before.state.current);
  await screenshot(page, join(SHOTS, "encounter-en.png"));
  await page.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=ja`);
  await page.waitForSelector("body[data-ready='1']");
  await screenshot(page, join(SHOTS, "encounter-ja.png"));
  assert.deepEqual(page.errors, []);
});

test("end and clear removes the state from the scene", async () => {
  await page.click("#reset");
  await page.waitForSelector("#setup:not([hidden])");
  assert.equal(await meta(), null);
});
