// The character-sheet site, served on localhost and driven in headless Chromium:
// a character is created through the UI, an invalid allocation shows the core's
// message, the odds chart renders the core's numbers, and a seeded check shown
// on the page equals the Python result for the same seed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage, screenshot } from "./harness.mjs";
import { buildExamples } from "./build-examples.mjs";

const gunbai = await import(`${REPO_ROOT}/bindings-js/pkg/index.js`);
const PY = process.env.GUNBAI_PYTHON || join(REPO_ROOT, ".venv", "bin", "python");
const SHOTS = join(REPO_ROOT, "examples", "character-sheet", "screenshots");

let browser, server, page;
before(async () => {
  buildExamples();
  server = await serve();
  browser = await launch();
  page = await newPage(browser, { viewport: { width: 1280, height: 1000 } });
  await page.goto(`${server.url}examples/character-sheet/?lang=en`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const readSheet = () => page.evaluate(() => JSON.parse((document.querySelector("#export").click(), document.querySelector("#json").value)));
const msgAt = (path) => page.locator(`#combatant [data-path="${path}"]`).innerText();

test("the page loads gunbai and shows the core's messages for the starting sheet", async () => {
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.blocked, []);
  const sheet = await readSheet();
  const expected = gunbai.worldTrigger.validateSheet({ sheet });
  assert.equal(expected.valid, false);
  // every violation the core reports is on the page, next to its field or in the summary
  const shown = await page.$$eval(".violation", (els) => els.map((e) => e.textContent));
  for (const v of expected.violations) {
    assert.ok(shown.some((s) => s.includes(v.message) && s.includes(v.rule)), `missing on page: ${v.path}: ${v.message}`);
  }
  assert.match(await msgAt("sheet.name"), /name of 1-200 characters/);
  assert.match(await page.locator('[data-path="sheet.triggers.main"]').innerText(), /first main slot/);
});

test("a character is created through the UI", async () => {
  await page.fill("#name", "Kuga Test");
  await page.selectOption("#position", "attacker");
  await page.check('input.trait[value="placeholder_l_trait"]');
  await page.selectOption("#master", "placeholder_master_technique");
  await page.selectOption('select.trigger[data-side="main"][data-slot="0"]', "kogetsu");
  await page.selectOption('select.trigger[data-side="main"][data-slot="1"]', "senku");
  await page.selectOption('select.trigger[data-side="sub"][data-slot="0"]', "shield");
  await page.selectOption('select.trigger[data-side="sub"][data-slot="1"]', "grasshopper");
  await page.check("#leader");
  await page.waitForSelector("#validity.ok");
  const sheet = await readSheet();
  assert.deepEqual(sheet.triggers, { main: ["kogetsu", "senku"], sub: ["shield", "grasshopper"] });
  const ch = gunbai.worldTrigger.createCharacter({ sheet });
  for (const k of ["movement", "base_trion", "starting_trion"]) {
    assert.equal(await page.locator(`[data-derived="${k}"]`).innerText(), String(ch.derived[k]), k);
  }
  // final stats column = the core's stats (leader +1 Command, master +1 Technique)
  const finals = await page.$$eval("#points tr", (rows) => Object.fromEntries(rows.map((r) => [r.dataset.stat, Number(r.querySelector(".final").textContent)])));
  assert.deepEqual(finals, ch.stats);
  assert.equal(finals.command, 2 + 1);
  // skills of the equipped triggers, as the core lists them
  const skills = await page.$$eval("#skills li[data-skill]", (els) => els.map((e) => e.dataset.skill));
  for (const g of [...ch.trigger_skills, ...ch.basic_commands, ...ch.unavailable_skills]) assert.ok(skills.includes(g.skill), g.skill);
  assert.ok(ch.unavailable_skills.some((g) => g.skill === "oborozuki"), "Oborozuki needs Defense/Support 9");
  await screenshot(page, join(SHOTS, "sheet-en.png"));
});

test("an invalid allocation shows the core's message next to the field", async () => {
  await page.fill('input.pts[data-stat="attack"]', "10");
  await page.waitForSelector("#validity.bad");
  const sheet = await readSheet();
  const v = gunbai.worldTrigger.validateSheet({ sheet }).violations;
  const cap = v.find((x) => x.path === "sheet.points.attack");
  const total = v.find((x) => x.path === "sheet.points");
  assert.ok(cap && total, JSON.stringify(v));
  assert.equal(await msgAt("sheet.points.attack"), `${cap.message} [${cap.rule}]`);
  assert.equal(await page.locator('#combatant tfoot [data-path="sheet.points"]').innerText(), `${total.message} [${total.rule}]`);
  assert.match(cap.message, /above the creation cap 9/);
  assert.equal(await page.locator("#points-total").innerText(), "26 / 20");
  await screenshot(page, join(SHOTS, "invalid-allocation-en.png"), { fullPage: false, clip: { x: 0, y: 0, width: 1280, height: 720 } });
  await page.fill('input.pts[data-stat="attack"]', "4");
  await page.waitForSelector("#validity.ok");
});

test("the odds chart renders the core's exact odds for each stat", async () => {
  await page.fill("#odds-tactics", "2");
  await page.waitForFunction(() => JSON.parse(document.querySelector("#odds-chart").dataset.odds || "{}").trion !== undefined);
  const bars = await page.$$eval("svg.odds rect.bar[data-stat]", (els) => els.map((e) => ({ stat: e.dataset.stat, target: Number(e.dataset.target), p: Number(e.dataset.p), w: Number(e.getAttribute("width")) })));
  assert.equal(bars.length, 8 * 3);
  const sheet = await readSheet();
  const stats = gunbai.worldTrigger.createCharacter({ sheet }).stats;
  for (const b of bars) {
    const p = gunbai.worldTrigger.successChance({ dice: stats[b.stat], target: b.target, tactics_dice: 2 }).probability;
    assert.ok(b.p === p, `${b.stat} ≥ ${b.target}: ${b.p} vs ${p}`); // === : the core may give -0 for 0
    assert.ok(b.w > 0);
  }
  const box = await page.locator("#odds-chart svg").boundingBox();
  assert.ok(box && box.width > 300 && box.height > 200, "the chart is visible");
});

test("a seeded check on the page equals Python's result for the same seed", async () => {
  await page.selectOption("#check-stat", "technique");
  await page.fill("#check-target", "20");
  await page.fill("#check-tactics", "1");
  await page.fill("#check-seed", "20240611");
  await page.click("#check-roll");
  await page.waitForSelector("#check-result[data-result]");
  const args = JSON.parse(await page.getAttribute("#check-result", "data-args"));
  const shown = JSON.parse(await page.getAttribute("#check-result", "data-result"));
  const technique = gunbai.worldTrigger.createCharacter({ sheet: await readSheet() }).stats.technique;
  assert.deepEqual(args, { dice: technique, target: 20, tactics_dice: 1, seed: 20240611 });
  assert.equal(technique, 3 + 1, "3 points + the Technique master");
  assert.ok(existsSync(PY), `${PY} missing: run scripts/build-py.sh (the Python side of the parity check)`);
  const py = JSON.parse(
    execFileSync(PY, ["-c", "import gunbai, json, sys; print(json.dumps(gunbai.world_trigger.check(**json.loads(sys.argv[1]))))", JSON.stringify(args)], { encoding: "utf8" }),
  );
  assert.deepEqual(shown, py);
  // the faces and the achievement are what the page shows
  const faces = await page.$$eval("#check-result .die", (els) => els.map((e) => Number(e.textContent)));
  assert.deepEqual(faces, py.faces);
  assert.match(await page.locator("#check-result .achievement").innerText(), new RegExp(`Achievement ${py.achievement}\\b`));
});

test("export and import the sheet as JSON", async () => {
  const sheet = await readSheet();
  assert.equal(sheet.name, "Kuga Test");
  const changed = { ...sheet, name: "Imported", position: "all_rounder", points: { ...sheet.points, trion: 9 } };
  await page.fill("#json", JSON.stringify(changed));
  await page.click("#import");
  assert.equal(await page.inputValue("#name"), "Imported");
  assert.equal(await page.inputValue("#position"), "all_rounder");
  const v = gunbai.worldTrigger.validateSheet({ sheet: changed }).violations.find((x) => x.path === "sheet.points.trion");
  assert.equal(await msgAt("sheet.points.trion"), `${v.message} [${v.rule}]`, "All-rounder cap 8");
  const back = await readSheet();
  assert.deepEqual(back, changed);
  await page.fill("#json", JSON.stringify(sheet));
  await page.click("#import");
  await page.waitForSelector("#validity.ok");
});

test("an imported file the core refuses is shown as refused, with the core's errors, never as valid", async () => {
  const sheet = await readSheet();
  assert.ok(gunbai.worldTrigger.validateSheet({ sheet }).valid);
  for (const bad of [
    { ...sheet, bogus: 1 },
    { ...sheet, points: { ...sheet.points, luck: 1 } },
    { ...sheet, points: { ...sheet.points, trion: "three" } },
  ]) {
    let err;
    try {
      gunbai.worldTrigger.createCharacter({ sheet: bad });
    } catch (e) {
      err = e;
    }
    assert.equal(err?.code, "invalid_data");
    const v = gunbai.worldTrigger.validateSheet({ sheet: bad }).violations.find((x) => x.path === err.field);
    assert.ok(v, JSON.stringify(err));
    await page.fill("#json", JSON.stringify(bad));
    await page.click("#import");
    await page.waitForSelector("#validity.bad");
    assert.doesNotMatch(await page.locator("#validity").innerText(), /✔/);
    // the core's code, field path, message and rule under the import box ...
    assert.equal(await page.getAttribute("#json-msg .refused", "data-code"), err.code);
    assert.match(await page.locator("#json-msg .refused").innerText(), /gunbai refuses this file \(invalid_data\)/);
    assert.deepEqual(await page.$$eval("#json-msg li.violation", (els) => els.map((e) => e.textContent)), [`${v.path}: ${v.label.en} [${v.rule}]`]);
    // ... and in the sheet's problem list
    assert.deepEqual(await page.$$eval("#other-problems li.imported", (els) => els.map((e) => e.dataset.path)), [err.field]);
    // the form still holds what could be read
    assert.equal(await page.inputValue("#name"), sheet.name);
  }
  // in the page language
  await page.selectOption("#lang", "ja");
  const v = gunbai.worldTrigger.validateSheet({ sheet: { ...sheet, points: { ...sheet.points, trion: "three" } } }).violations[0];
  assert.match(await page.locator("#json-msg .refused").innerText(), /^gunbai はこのファイルを受け付けません（invalid_data）/);
  assert.equal(await page.locator("#json-msg li.violation").innerText(), `${v.path}: ${v.label.ja} [${v.rule}]`);
  assert.match(await page.locator("#validity").innerText(), /件の問題/);
  await page.selectOption("#lang", "en");
  // the form stays usable: after an edit the page judges the form's own sheet
  await page.fill("#json", JSON.stringify({ ...sheet, bogus: 1 }));
  await page.click("#import");
  await page.waitForSelector("#validity.bad");
  await page.fill("#name", "Kuga Edited");
  await page.waitForSelector("#validity.ok");
  assert.equal(await page.locator("#json-msg").innerText(), "");
  assert.equal(await page.locator("#other-problems li.imported").count(), 0);
  await page.fill("#json", JSON.stringify(sheet));
  await page.click("#import");
  await page.waitForSelector("#validity.ok");
  assert.equal(await page.inputValue("#name"), sheet.name);
  assert.deepEqual(page.errors, []);
});

test("language switch: ja, zh-Hant, zh-Hans", async () => {
  for (const [lang, title, kogetsuLabel] of [
    ["ja", "ワールドトリガー キャラクターシート", "弧月"],
    ["zh-Hant", "境界觸發者 角色卡", "弧月"],
    ["zh-Hans", "境界触发者 角色卡", "弧月"],
  ]) {
    await page.selectOption("#lang", lang);
    assert.equal(await page.locator("h1").innerText(), title);
    assert.equal(await page.getAttribute("html", "lang"), lang);
    const opt = await page.locator('select.trigger[data-side="main"][data-slot="0"] option:checked').innerText();
    assert.equal(opt, kogetsuLabel);
    const pos = gunbai.worldTrigger.sampleData({}).positions.find((p) => p.id === "attacker");
    const key = { ja: "ja", "zh-Hant": "zh_hant", "zh-Hans": "zh_hans" }[lang];
    assert.equal(await page.locator("#position option:checked").innerText(), pos.label[key]);
    // The core's violation messages follow the language too (WT-CC-9: the name is required).
    const sheet = await readSheet();
    const nameV = gunbai.worldTrigger.validateSheet({ sheet: { ...sheet, name: "" } }).violations.find((v) => v.path === "sheet.name");
    await page.fill("#name", "");
    assert.equal(await msgAt("sheet.name"), `${nameV.label[key]} [WT-CC-9]`);
    await page.fill("#name", sheet.name);
  }
  await page.selectOption("#lang", "ja");
  await screenshot(page, join(SHOTS, "sheet-ja.png"));
  await page.selectOption("#lang", "en");
});

test("operator sheet", async () => {
  await page.click("#tab-operator");
  await page.selectOption("#lang", "zh-Hant");
  await page.fill("#op-name", "Operator");
  await page.fill("#op-trion", "5");
  await page.fill('input.op-pts[data-stat="tactics"]', "4");
  await page.waitForSelector("#op-validity.bad");
  const opSheet = () => page.evaluate(() => (document.querySelector("#op-export").click(), JSON.parse(document.querySelector("#op-json").value)));
  // The page shows the core's own message in the page language (zh-Hant), with its rule.
  const capV = gunbai.worldTrigger.validateOperator({ sheet: await opSheet() }).violations.find((v) => v.path === "sheet.points.tactics");
  assert.equal(capV.label.zh_hant, "戰術：6 + 4 = 10，超過最大值 9");
  assert.equal(await page.locator('[data-op-path="sheet.points.tactics"]').innerText(), `${capV.label.zh_hant} [WT-OP-4]`);
  await page.fill('input.op-pts[data-stat="tactics"]', "3");
  await page.waitForSelector("#op-validity.bad");
  let sheet = await page.evaluate(() => (document.querySelector("#op-export").click(), JSON.parse(document.querySelector("#op-json").value)));
  let err;
  try {
    gunbai.worldTrigger.createOperator({ sheet });
  } catch (e) {
    err = e;
  }
  assert.equal(err.code, "invalid_data");
  assert.match(await page.locator('[data-op-path="sheet.points"]').innerText(), /已分配 3 點，必須正好分配 5 點 \[WT-OP-4\]/);
  await page.fill('input.op-pts[data-stat="command"]', "2");
  await page.waitForSelector("#op-validity.ok");
  sheet = await page.evaluate(() => (document.querySelector("#op-export").click(), JSON.parse(document.querySelector("#op-json").value)));
  const op = gunbai.worldTrigger.createOperator({ sheet });
  const finals = await page.$$eval("#op-points tr", (rows) => Object.fromEntries(rows.map((r) => [r.dataset.opStat, Number(r.querySelector(".final").textContent)])));
  for (const [k, v] of Object.entries(finals)) assert.equal(v, op.stats[k], k);
  assert.equal(await page.locator("#op-trion-final").innerText(), String(op.stats.trion)); // 5 + the Trion master
  await screenshot(page, join(SHOTS, "operator-zh-Hant.png"));
  await page.selectOption("#lang", "en");
  await page.click("#tab-combatant");
  assert.deepEqual(page.errors, []);
});

test("the operator validity line shows only the current result, in the current language", async () => {
  await page.click("#tab-operator");
  await page.selectOption("#lang", "en");
  const opSheet = () => page.evaluate(() => (document.querySelector("#op-export").click(), JSON.parse(document.querySelector("#op-json").value)));
  const countLines = () => page.$$eval("#op-validity > div:not(.violation)", (els) => els.map((e) => e.textContent));
  await page.fill('input.op-pts[data-stat="tactics"]', "4"); // 6 points of 5, tactics over the cap
  await page.waitForSelector("#op-validity.bad");
  // every keystroke re-validates: the box still holds one count line, the current one
  await page.locator("#op-name").pressSequentially("xyz");
  let n = gunbai.worldTrigger.validateOperator({ sheet: await opSheet() }).violations.length;
  assert.deepEqual(await countLines(), [`${n} problem(s)`]);
  await page.fill('input.op-pts[data-stat="command"]', "0");
  n = gunbai.worldTrigger.validateOperator({ sheet: await opSheet() }).violations.length;
  assert.deepEqual(await countLines(), [`${n} problem(s)`]);
  // after a language switch only the new language's line is there
  await page.selectOption("#lang", "ja");
  assert.deepEqual(await countLines(), [`${n} 件の問題`]);
  await page.selectOption("#lang", "zh-Hans");
  assert.deepEqual(await countLines(), [`${n} 个问题`]);
  // and back to valid: only the valid line
  await page.fill("#op-name", "Operator");
  await page.fill('input.op-pts[data-stat="tactics"]', "3");
  await page.fill('input.op-pts[data-stat="command"]', "2");
  await page.waitForSelector("#op-validity.ok");
  assert.equal(await page.locator("#op-validity").innerText(), "✔ 符合规则");
  await page.selectOption("#lang", "en");
  await page.click("#tab-combatant");
  assert.deepEqual(page.errors, []);
});

test("the sheet loads the World Trigger entry's smaller wasm, not the full one", async () => {
  const urls = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
  assert.ok(urls.some((u) => u.endsWith("/vendor/gunbai/world-trigger/wasm/gunbai_js_bg.wasm")), urls.join("\n"));
  assert.ok(!urls.some((u) => u.endsWith("/vendor/gunbai/wasm/gunbai_js_bg.wasm")), urls.join("\n"));
});
