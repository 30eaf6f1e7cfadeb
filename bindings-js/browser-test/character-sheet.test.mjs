// The character-sheet site, served on localhost and driven in headless Chromium.
// World Trigger: a character is created through the UI, an invalid allocation shows
// the core's message, the odds chart renders the core's numbers, a seeded check shown
// on the page equals the Python result for the same seed, a group's pack loads, and no
// position that can never be valid is offered (the Gunner case). CoC 6th, CoC 7th
// house, TMD and FAP/MAP: each sheet fills in, shows the core op's derived values and
// its violations in two languages, round-trips through export/import and gives the
// host document. All five: the draft survives a reload, and a 390 px phone never
// scrolls sideways.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage, screenshot, LIVENESS } from "./harness.mjs";
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
  await page.waitForSelector("body[data-ready='1']", { timeout: LIVENESS });
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
  await screenshot(page, join(SHOTS, "sheet-en.png")); // the repository README and examples/README show it
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
  await page.selectOption("#lang", "zh-Hant");
  await screenshot(page, join(SHOTS, "world_trigger-zh-Hant.png"));
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

// ---------- World Trigger: choices, a group's pack, drafts, the host document ----------

test("no position is offered that can never be valid with the pack (the Gunner case)", async () => {
  const pack = gunbai.worldTrigger.sampleData({});
  const offered = await page.$$eval("#position option", (os) => os.map((o) => o.value));
  assert.ok(!offered.includes("gunner"), offered.join());
  // WT-CC-7: a Gunner needs a gun-type trigger in a main slot; with each trigger of the
  // pack in the first main slot the core still finds WT-CC-7 broken.
  const sheet = await readSheet();
  for (const tr of pack.triggers) {
    const v = gunbai.worldTrigger.validateSheet({ sheet: { ...sheet, position: "gunner", triggers: { main: [tr.id], sub: [] } } }).violations;
    assert.ok(v.some((x) => x.path === "sheet.triggers.main" && x.rule === "WT-CC-7"), tr.id);
  }
  // every other position has a trigger of its type and is offered
  for (const p of pack.positions.filter((p) => p.id !== "gunner")) assert.ok(offered.includes(p.id), p.id);
});

test("the draft survives a reload", async () => {
  await page.fill("#name", "Draft Kept");
  await page.fill('input.pts[data-stat="range"]', "2");
  const before = await readSheet();
  await page.reload();
  await page.waitForSelector("body[data-ready='1']");
  assert.deepEqual(await readSheet(), before);
  await page.fill("#name", "Kuga Test");
  await page.fill('input.pts[data-stat="range"]', "1");
  await page.waitForSelector("#validity.ok");
});

test("the host document holds the sheet and the core's derived stats", async () => {
  const sheet = await readSheet();
  const doc = JSON.parse(await page.inputValue("#combatant .host-json"));
  const ch = gunbai.worldTrigger.createCharacter({ sheet });
  assert.deepEqual(doc, {
    gunbai_sheet: 1,
    system: "world_trigger",
    op: "world_trigger.validate_sheet",
    name: sheet.name,
    valid: true,
    sheet,
    data: null,
    derived: ch.derived,
    combatant: { sheet },
    gunbai: gunbai.version,
  });
});

test("a group's data pack loads (validate_data), is used for the sheet and kept; a broken one is refused", async () => {
  const sample = gunbai.worldTrigger.sampleData({});
  const kogetsu = sample.triggers.find((t) => t.id === "kogetsu");
  const own = {
    ...sample,
    meta: { ...sample.meta, name: "Our table" },
    triggers: [...sample.triggers, { ...kogetsu, id: "our_gun", trigger_type: "gun", label: { ja: "我らの銃", zh_hans: "我们的枪", zh_hant: "我們的槍", en: "Our gun" } }],
  };
  assert.ok(gunbai.worldTrigger.validateData({ data: own }).valid);
  await page.setInputFiles("#pack-file", { name: "pack.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(own)) });
  await page.waitForFunction(() => [...document.querySelectorAll("#position option")].some((o) => o.value === "gunner"));
  assert.match(await page.locator("#pack-name").innerText(), /Our table/);
  await page.selectOption("#position", "gunner");
  await page.selectOption('select.trigger[data-side="main"][data-slot="0"]', "our_gun");
  await page.selectOption('select.trigger[data-side="main"][data-slot="1"]', "kogetsu");
  await page.selectOption('select.trigger[data-side="main"][data-slot="2"]', "senku");
  const sheet = await readSheet();
  assert.equal(gunbai.worldTrigger.validateSheet({ sheet }).valid, false, "without the pack the sheet is invalid");
  const withPack = gunbai.worldTrigger.validateSheet({ sheet, data: own });
  assert.deepEqual(withPack.violations, []);
  await page.waitForSelector("#validity.ok");
  const doc = JSON.parse(await page.inputValue("#combatant .host-json"));
  assert.deepEqual(doc.data, own);
  // kept across a reload
  await page.reload();
  await page.waitForSelector("body[data-ready='1']");
  assert.match(await page.locator("#pack-name").innerText(), /Our table/);
  assert.equal(await page.inputValue("#position"), "gunner");
  await page.waitForSelector("#validity.ok");
  // a pack with problems is refused with the core's list, and the pack in use stays
  const broken = { ...own, triggers: [...own.triggers, { ...kogetsu }] };
  const problems = gunbai.worldTrigger.validateData({ data: broken }).violations;
  assert.ok(problems.length > 0);
  await page.setInputFiles("#pack-file", { name: "broken.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(broken)) });
  await page.waitForSelector("#pack-msg .refused");
  const shown = await page.$$eval("#pack-msg li.violation", (els) => els.map((e) => e.textContent));
  assert.deepEqual(shown, problems.slice(0, 20).map((v) => `${v.path}: ${v.message} [${v.rule}]`));
  assert.match(await page.locator("#pack-name").innerText(), /Our table/);
  // back to the sample pack: Gunner is gone again (the sheet keeps it, and the core says why)
  await page.click("#pack-reset");
  await page.waitForSelector("#validity.bad");
  assert.match(await page.locator('[data-slot-msg="main:0"]').innerText(), /our_gun/);
  await page.selectOption("#position", "attacker");
  await page.selectOption('select.trigger[data-side="main"][data-slot="0"]', "kogetsu");
  await page.selectOption('select.trigger[data-side="main"][data-slot="1"]', "senku");
  await page.selectOption('select.trigger[data-side="main"][data-slot="2"]', "");
  await page.waitForSelector("#validity.ok");
  await page.selectOption("#lang", "ja"); // the options are made again: no Gunner
  assert.ok(!(await page.$$eval("#position option", (os) => os.map((o) => o.value))).includes("gunner"));
  await page.selectOption("#lang", "en");
  assert.deepEqual(page.errors, []);
});

// ---------- the other four systems ----------

const floor = Math.floor;
/** Each system: the op, what to enter, what the rule (or the pack, read here) says the derived values are. */
const SYSTEMS = [
  {
    system: "coc_ap",
    lang: "ja",
    entry: "coc6",
    op: (a) => gunbai.cocAp.sheet(a),
    fill: { name: "探索者", "characteristics.str": 13, "characteristics.con": 11, "characteristics.siz": 14, "characteristics.dex": 17, "characteristics.pow": 12, "skills.dodge": 45, ap_bonus: 1 },
    // COCAP-AP-3/4: AP = 2 + floor(DEX / 6) + modifier; the pack: HP = ceil((CON + SIZ) / 2), SAN = POW x 5.
    rules: (s) => ({ ap: String(2 + floor(s.characteristics.dex / 6) + s.ap_bonus), hp: String(Math.ceil((s.characteristics.con + s.characteristics.siz) / 2)), san: String(s.characteristics.pow * 5) }),
    bad: ["characteristics.str", 19, "sheet.characteristics.str"],
  },
  {
    system: "coc7_house",
    lang: "ja",
    entry: "coc7",
    op: (a) => gunbai.coc7House.sheet(a),
    fill: { name: "探索者", "characteristics.str": 60, "characteristics.con": 55, "characteristics.siz": 65, "characteristics.dex": 72, "characteristics.pow": 60, "skills.firearms_handgun": 55 },
    // C7H-INIT-1: initiative = floor(DEX / 5); the pack: HP = floor((CON + SIZ) / 10), MP = floor(POW / 5).
    rules: (s) => ({ initiative: String(floor(s.characteristics.dex / 5)), hp: String(floor((s.characteristics.con + s.characteristics.siz) / 10)), mp: String(floor(s.characteristics.pow / 5)) }),
    bad: ["characteristics.siz", 30, "sheet.characteristics.siz"],
  },
  {
    system: "tmd",
    lang: "zh-Hant",
    entry: "tmd",
    op: (a) => gunbai.tmd.sheet(a),
    fill: { name: "輪迴者", base_initiative: 5, extra_ap: 10 },
    // TMD-INI-1: d10 + base; TMD-AP-2: 14 base AP; TMD-AP-8: 1 + floor(AP / 24) standard.
    rules: (s) => ({ initiative: `${s.base_initiative + 1}–${s.base_initiative + 10}`, base_ap: "14", standard: String(1 + floor((14 + s.extra_ap) / 24)), trick: String(1 + floor((14 + s.extra_ap) / 3)) }),
    bad: ["extra_ap", -2, "sheet.extra_ap"],
  },
  {
    system: "fap_map",
    lang: "ja",
    entry: "fap-map",
    op: (a) => gunbai.fapMap.sheet(a),
    fill: { name: "冒険者", reaction: 12, magic: 8, agility: 10, strength: 9, movement: 10, evasion: 5 },
    // FM-AP-2: FAP = 反応力, MAP = 魔力; FM-ACT-7: Movement x 4 / 10 m; FM-ACT-9: (Strength - 3) x 30 cm.
    rules: (s) => ({ fap: String(s.reaction), map: String(s.magic), move_distance: `${(s.movement * 4) / 10} m`, long_jump: `${(s.strength - 3) * 30} cm` }),
    bad: ["name", "", "sheet.name"],
  },
];

async function openSystem(system, lang, viewport = { width: 1280, height: 1000 }) {
  const p = await newPage(browser, { viewport });
  await p.goto(`${server.url}examples/character-sheet/?system=${system}&lang=${lang}`);
  await p.waitForSelector("body[data-ready='1']", { timeout: LIVENESS });
  return p;
}

const exported = (p) => p.evaluate(() => (document.querySelector("#g-export").click(), JSON.parse(document.querySelector("#g-json").value)));

async function fillSheet(p, fill) {
  for (const [key, value] of Object.entries(fill)) await p.fill(`#generic [data-key="${key}"]`, String(value));
}

for (const S of SYSTEMS) {
  test(`${S.system}: the sheet fills in, shows the core's derived values and violations in two languages, and round-trips`, async () => {
    const p = await openSystem(S.system, "en");
    assert.deepEqual(p.errors, []);
    // only this system's entry is loaded
    const urls = await p.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
    assert.ok(urls.some((u) => u.endsWith(`/vendor/gunbai/${S.entry}/wasm/gunbai_js_bg.wasm`)), urls.join("\n"));
    assert.ok(!urls.some((u) => /\/vendor\/gunbai\/wasm\//.test(u)), "not the full package");
    await fillSheet(p, S.fill);
    const sheet = await exported(p);
    for (const [key, value] of Object.entries(S.fill)) assert.equal(key.split(".").reduce((o, k) => o[k], sheet), value, key);
    const r = S.op({ sheet });
    assert.equal(r.valid, true, JSON.stringify(r.violations));
    await p.waitForSelector("#g-validity.ok");
    // every derived value on the page is the core op's ...
    const shown = await p.$$eval("#g-derived dd", (els) => Object.fromEntries(els.map((e) => [e.dataset.derived, e.firstChild.textContent])));
    assert.deepEqual(shown, Object.fromEntries(r.derived.map((d) => [d.id, d.text || "—"])));
    // ... and the ones the rules state are what the rules give
    for (const [id, text] of Object.entries(S.rules(sheet))) assert.equal(shown[id], text, id);
    if (S.system === "coc7_house") {
      // half / fifth (the Hard and Extreme targets) of every characteristic and skill
      const parts = await p.$$eval("#generic tr[data-id] .parts", (els) => els.map((e) => [e.closest("tr").dataset.id, Number(e.dataset.half), Number(e.dataset.fifth), Number(e.closest("tr").querySelector("input").value)]));
      assert.ok(parts.length > 9);
      for (const [id, half, fifth, value] of parts) assert.deepEqual([half, fifth], [floor(value / 2), floor(value / 5)], id);
    }
    // a violation, in English and in the rulebook's language
    const [key, value, path] = S.bad;
    await p.fill(`#generic [data-key="${key}"]`, String(value));
    await p.waitForSelector("#g-validity.bad");
    const badSheet = await exported(p);
    const v = S.op({ sheet: badSheet }).violations.find((x) => x.path === path);
    assert.ok(v, JSON.stringify(S.op({ sheet: badSheet }).violations));
    const at = () => p.locator(`#generic .msg[data-path="${path}"]`).innerText();
    assert.equal(await at(), `${v.label.en} [${v.rule}]`);
    await p.selectOption("#lang", S.lang);
    const k = { ja: "ja", "zh-Hant": "zh_hant", "zh-Hans": "zh_hans" }[S.lang];
    assert.equal(await at(), `${v.label[k]} [${v.rule}]`);
    assert.notEqual(v.label[k], v.label.en);
    await p.selectOption("#lang", "en");
    await fillSheet(p, { [key]: S.fill[key] ?? "" });
    await p.waitForSelector("#g-validity.ok");
    // export -> import round-trips
    const out = await exported(p);
    await p.fill("#g-json", JSON.stringify({ ...out, name: "Imported" }));
    await p.click("#g-import");
    assert.equal(await p.inputValue("#g-name"), "Imported");
    assert.deepEqual(await exported(p), { ...out, name: "Imported" });
    // a file the core refuses is refused, naming the field; the form keeps its sheet
    const refused = { ...out, name: "Nope", bogus: 1 };
    let err;
    try {
      S.op({ sheet: refused });
    } catch (e) {
      err = e;
    }
    assert.equal(err?.code, "invalid_argument");
    await p.fill("#g-json", JSON.stringify(refused));
    await p.click("#g-import");
    assert.equal(await p.getAttribute("#g-json-msg .refused", "data-code"), "invalid_argument");
    assert.equal(await p.getAttribute("#g-json-msg .refused", "data-field"), err.field);
    assert.equal(await p.inputValue("#g-name"), "Imported");
    // the host document: the sheet, the core's derived values, the engine's combatant
    const final = await exported(p);
    const doc = JSON.parse(await p.inputValue("#generic .host-json"));
    const fr = S.op({ sheet: final });
    assert.equal(doc.gunbai_sheet, 1);
    assert.equal(doc.system, S.system);
    assert.equal(doc.valid, true);
    assert.deepEqual(doc.sheet, final);
    assert.deepEqual(doc.derived, Object.fromEntries(fr.derived.map((d) => [d.id, d.value ?? d.text])));
    // the host document imports back
    await p.fill("#g-json", JSON.stringify({ ...doc, sheet: { ...doc.sheet, name: "From host" } }));
    await p.click("#g-import");
    assert.equal(await p.inputValue("#g-name"), "From host");
    // the draft survives a reload
    const before = await exported(p);
    await p.reload();
    await p.waitForSelector("body[data-ready='1']");
    assert.deepEqual(await exported(p), before);
    await p.fill("#g-name", S.fill.name);
    await p.selectOption("#lang", S.lang);
    await screenshot(p, join(SHOTS, `${S.system}-${S.lang}.png`));
    assert.deepEqual(p.errors, []);
    await p.context().close();
  });
}

test("at 390 px no system's sheet scrolls sideways", async () => {
  for (const system of ["world_trigger", "coc_ap", "coc7_house", "tmd", "fap_map"]) {
    for (const lang of ["en", "ja", "zh-Hant"]) {
      const p = await openSystem(system, lang, { width: 390, height: 844 });
      // with messages on the sheet too (the starting sheet has a blank name)
      const width = await p.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${system} ${lang}: scrollWidth ${width}`);
      if (lang === "en") await screenshot(p, join(SHOTS, `${system}-en.png`));
      assert.deepEqual(p.errors, []);
      await p.context().close();
    }
  }
});
