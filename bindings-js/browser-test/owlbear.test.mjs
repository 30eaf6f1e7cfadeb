// The Owlbear Rodeo extension page in Chromium against a small stand-in for
// `@owlbear-rodeo/sdk` (examples/owlbear-extension/test/obr-stand-in.js — not
// Owlbear Rodeo). A TMD encounter for the scene's tokens is started, a phase is
// advanced, the state is persisted in scene metadata and survives a reload, and
// the page shows whose turn it is and the remaining AP; in Japanese and
// Traditional Chinese its buttons and log are sentences (tmd-i18n.js) with no
// raw ids of the kinds index.d.ts declares, and an encounter played in Node
// through every event kind shows a sentence for each. A World Trigger 3v3
// battle is set up from six tokens (teams, sheets, squares from the scene grid),
// driven through initiative, tactics and movement with every stored step
// checked against `world_trigger.battle_act` in Node (same state, action and
// seed), refused when illegal or too large for the scene, reloaded, shown to a
// player, and played to its end.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage, screenshot } from "./harness.mjs";
import { buildExamples } from "./build-examples.mjs";

const gunbai = await import(`${REPO_ROOT}/bindings-js/pkg/index.js`);
const EX = join(REPO_ROOT, "examples", "owlbear-extension");
const { SAMPLE_SHEETS, EXAMPLE_MAPS } = await import(join(EX, "wt-samples.js"));
const { createTmdText } = await import(join(EX, "tmd-i18n.js"));
const KEY = "io.github.gunbai/encounter";
const STORE = "obr-stand-in/scene-metadata";
const SHOTS = join(EX, "screenshots");
let browser, server, page;

/** The extension's raw metadata entry (as Owlbear would keep it). */
const rawEntry = (p = page) => p.evaluate(([store, k]) => JSON.parse(localStorage.getItem(store) || "{}")[k] ?? null, [STORE, KEY]);
/** The stored record, decoded here in Node (gzip + base64), independently of the page's code. */
const decodeEntry = (v) => (v && v.gzip ? JSON.parse(gunzipSync(Buffer.from(v.gzip, "base64")).toString("utf8")) : v);
const meta = async (p = page) => decodeEntry(await rawEntry(p));

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

// ---- TMD texts -----------------------------------------------------------
// The known kinds come from the package's TypeScript types (index.d.ts), so a
// kind added to the core shows up here and must get its sentences.
const DTS = readFileSync(join(REPO_ROOT, "bindings-js", "pkg", "index.d.ts"), "utf8");
/** The tags of a union in index.d.ts: each variant's `field: "…"`, or (no field) the string literals of a one-line type. */
function unionTags(type, field) {
  const at = DTS.indexOf(`export type ${type} =`);
  assert.ok(at >= 0, `export type ${type} in index.d.ts`);
  const body = field ? DTS.slice(at).split(/\n};?\n/)[0] : DTS.slice(at).split(";")[0];
  const tags = [...body.matchAll(field ? new RegExp(`\\b${field}: "(\\w+)"`, "g") : /"(\w+)"/g)].map((m) => m[1]);
  assert.ok(tags.length > 0, `${type}: no tags found`);
  return [...new Set(tags)];
}
const TMD_ACTION_KINDS = unionTags("TmdAction", "type");
const TMD_EVENT_KINDS = unionTags("TmdEvent", "event");
const TMD_VALUES = [...unionTags("TmdActionType"), ...unionTags("TmdDuration"), ...unionTags("TmdPhase")];
const TMD_TYPES = gunbai.tmd.actionTypes({}).action_types;
const TMD_NAMES = { "tok-akane": "Akane", "tok-bolt": "Bolt", "tok-crow": "Crow", "tok-dan": "Dan" };

/**
 * Raw ids in a text shown to a player: snake_case words and token ids in any
 * language; in ja / zh-* also any known kind, event, action type, duration,
 * phase or reason (`extra`) as a word of its own, and any lowercase Latin word
 * (an English fallback; names, "AP" and "d10" are not lowercase words).
 */
function rawIds(text, lang, extra = []) {
  const found = [...text.matchAll(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\btok-\w+/g)].map((m) => m[0]);
  if (lang !== "en") {
    for (const id of new Set([...TMD_ACTION_KINDS, ...TMD_EVENT_KINDS, ...TMD_VALUES, ...extra])) {
      if (new RegExp(`\\b${id}\\b`).test(text)) found.push(id);
    }
    found.push(...[...text.matchAll(/\b[a-z]{2,}\b/g)].map((m) => m[0]));
  }
  return [...new Set(found)];
}

/**
 * A TMD encounter played in Node through every action and event kind (scripted
 * d10s): a surprise round, delays, conversions, held actions, overdraw, grants,
 * effects, an interrupt chain, a late joiner, a round end, a teleport, a scene
 * change and the end. Returns the log as the page stores it
 * ({action, events} per step) and the state before each step.
 */
function scriptTmd() {
  const T = gunbai.tmd;
  const [A, B, C, D] = Object.keys(TMD_NAMES);
  const characters = [
    { id: A, side: "PC", base_initiative: 3 },
    { id: B, side: "PC", base_initiative: 1 },
    { id: C, side: "NPC", base_initiative: 2, immune_to_surprise: true },
  ];
  const r = T.encounterNew({ characters, surprise: { attacker: A, surprise_attack: true, undetected: true } });
  let state = r.state;
  const log = [{ action: null, events: r.events }];
  const before = [null];
  const act = (action, rolls) => {
    const res = T.encounterAct({ state, action, ...(rolls ? { rolls } : { seed: log.length }) });
    before.push(state);
    log.push({ action, events: res.events });
    state = res.state;
  };
  act({ type: "use_action", character: A, action_type: "standard" }); // the surprise attack
  act({ type: "begin_combat" }, [6, 3, 10]); // Akane 9, Bolt 4, Crow 12
  assert.deepEqual(state.order, [C, A, B]);
  act({ type: "delay", character: C, after: B });
  act({ type: "start_turns" });
  assert.equal(state.current, A);
  act({ type: "convert", character: A, action_type: "swift", count: 1 });
  act({ type: "convert", character: A, action_type: "trick", count: 3 });
  act({ type: "convert", character: A, action_type: "move", count: 1 });
  act({ type: "use_action", character: A, action_type: "move" });
  act({ type: "use_action", character: A, action_type: "trick" });
  act({ type: "use_free", character: A });
  act({ type: "retain", character: A, action_type: "trick", ability: "Quick Draw" });
  act({ type: "gain_ap", character: B, amount: 6, reflex_only: true });
  act({ type: "convert_reflex", character: B, count: 2 });
  act({ type: "use_action", character: B, action_type: "reflex", using: "reflex" });
  act({ type: "set_disabled", character: B, action_type: "move", disabled: true });
  act({ type: "overdraw", character: B, action_type: "standard" });
  act({ type: "grant", character: B, action_type: "trick" });
  act({ type: "set_base_initiative", character: B, base_initiative: 5 });
  act({ type: "apply_effect", applier: A, target: C, name: "Smoke", duration: "debuff_one_round" });
  act({ type: "apply_effect", applier: A, target: A, name: "Focus", duration: "buff_one_round" });
  act({ type: "apply_effect", applier: A, target: B, name: "Fog", duration: "scene" });
  act({ type: "apply_effect", applier: A, target: C, name: "Mark", duration: "scene" });
  act({ type: "remove_effect", id: state.effects.find((e) => e.name === "Mark").id });
  act({ type: "teleport", character: C, observed: true });
  act({ type: "announce", character: A, label: "Strike" });
  act({ type: "interrupt", character: B, reflex: true, using: "reflex", ignores_preemption: true });
  act({ type: "resolve" });
  act({ type: "pass" });
  act({ type: "resolve" });
  act({ type: "join", characters: [{ id: D, side: "NPC", base_initiative: 0 }] }, [8]);
  act({ type: "apply_effect", applier: D, target: D, name: "Haste", duration: "scene" });
  act({ type: "end_turn", character: A });
  act({ type: "end_turn", character: B });
  act({ type: "end_turn", character: C });
  act({ type: "leave", character: D }); // the last turn of round 1: the round ends
  act({ type: "start_turns" });
  act({ type: "teleport", character: B, observed: false });
  act({ type: "scene_change" });
  act({ type: "end_encounter" });
  return { log, before, state };
}

test("TMD texts: every action and event kind of index.d.ts has a sentence in each language (names, no fallback, no raw ids)", () => {
  const { log, before } = scriptTmd();
  assert.ok(log.length <= 40, "the page keeps 40 log entries");
  const seenEvents = new Set(log.flatMap((l) => l.events.map((e) => e.event)));
  assert.deepEqual(TMD_EVENT_KINDS.filter((k) => !seenEvents.has(k)), [], "event kinds the script does not reach");
  // Actions: the scripted ones and every legal action listed along the way.
  const legalAt = before.map((st) => (st ? gunbai.tmd.encounterLegalActions({ state: st }).actions : []));
  const actions = [...log.filter((l) => l.action).map((l) => ({ action: l.action, cost: null, i: log.indexOf(l) })), ...legalAt.flatMap((ls, i) => ls.map((a) => ({ ...a, i })))];
  const seenActions = new Set(actions.map((a) => a.action.type));
  assert.deepEqual(TMD_ACTION_KINDS.filter((k) => !seenActions.has(k)), [], "action kinds the script does not reach");
  const reasons = [...new Set(log.flatMap((l) => l.events.map((e) => e.reason)).filter(Boolean))];
  for (const lang of ["ja", "zh-Hant", "zh-Hans", "en"]) {
    const tx = (i) => createTmdText({ lang, actionTypes: TMD_TYPES, name: (id) => TMD_NAMES[id] ?? id, state: () => before[i] });
    for (const k of TMD_ACTION_KINDS) assert.ok(tx(0).knownAction(k), `${lang}: no sentence for action ${k}`);
    for (const k of TMD_EVENT_KINDS) assert.ok(tx(0).knownEvent(k), `${lang}: no sentence for event ${k}`);
    for (const { action, cost, i } of actions) {
      const t = tx(i);
      const text = t.describe(action) + t.costText(action, cost);
      assert.notEqual(t.describe(action), t.fallbackAction(action), `${lang}: ${action.type} fell back`);
      assert.deepEqual(rawIds(text, lang, reasons), [], `${lang}: ${JSON.stringify(action)} → ${text}`);
    }
    for (const e of log.flatMap((l) => l.events)) {
      const text = tx(0).eventText(e);
      assert.notEqual(text, tx(0).fallbackEvent(e), `${lang}: ${e.event} fell back`);
      assert.deepEqual(rawIds(text, lang, reasons), [], `${lang}: ${JSON.stringify(e)} → ${text}`);
    }
  }
  // Specific sentences (the rulebook's terms; names, AP and action types filled in).
  const ev = (kind, pred = () => true) => log.flatMap((l) => l.events).find((e) => e.event === kind && pred(e));
  const tx = (lang, i = 0) => createTmdText({ lang, actionTypes: TMD_TYPES, name: (id) => TMD_NAMES[id] ?? id, state: () => before[i] });
  assert.equal(tx("zh-Hant").eventText(ev("converted", (e) => e.action_type === "trick")), "Akane 花費 3 AP 轉化花招動作 ×3");
  assert.equal(tx("zh-Hans").eventText(ev("overdrawn")), "Bolt 透支标准动作：自身回合开始时失去 8 AP，且当轮无法转化这一类型的动作");
  assert.equal(tx("ja").eventText(ev("turn_started", (e) => e.ap_lost_to_overdraw)), "Bolt の手番開始：基本 AP 6、追加 AP 0（前借りで 8 AP を失う）。このラウンドは変換できない：スタンダードアクション");
  assert.equal(tx("ja").eventText(ev("delay_declared")), "Crow は遅延：Bolt の手番の後に行動");
  // Bolt's reflex interrupts Akane's action in Akane's turn: it resolves first (TMD-INT-3).
  assert.equal(tx("en").eventText(ev("interrupt_declared")), "Bolt interrupts #0 with a Reflex action (#1): the reflex resolves first");
  // Without a reflex, or against an out-of-turn action, more AP resolves first (TMD-INT-2).
  const byAp = { event: "interrupt_declared", character: "tok-bolt", entry: 1, interrupts: 0, interrupter_ap: 2, interrupted_ap: 5, first: "tok-akane", locked_out: "tok-bolt" };
  assert.equal(tx("en").eventText(byAp), "Bolt interrupts #0 (#1): AP 2 vs 5, Akane resolves first; Bolt cannot interrupt again until this chain is resolved");
  assert.equal(tx("ja").eventText(byAp), "Bolt が #0 に割り込み（#1）：AP 2 対 5、Akane が先に解決。Bolt はこの一連の解決が終わるまで割り込めない");
  assert.equal(tx("zh-Hant").eventText(ev("round_ended", (e) => e.round === 0)), "— 突襲輪結束 —");
  const resolveAt = log.findIndex((l) => l.action?.type === "resolve");
  // The reflex's action resolves first (TMD-INT-3).
  assert.equal(tx("zh-Hans", resolveAt).describe(log[resolveAt].action), "结算：Bolt 的动作 #1");
  assert.equal(tx("ja").describe({ type: "use_action", character: "tok-crow", action_type: "reflex", using: "swift" }), "Crow：リフレックスアクションで伏せ（スウィフトアクションを消費）");
  assert.equal(tx("zh-Hant").describe({ type: "use_action", character: "tok-akane", action_type: "full_round", using: "standard", companion: "acrobatic" }), "Akane：整輪動作（標準動作＋雜技動作）");
  assert.equal(tx("ja").describe({ type: "overdraw", character: "tok-bolt", action_type: "move" }) + tx("ja").costText({ type: "overdraw" }, { ap: 4, actions: [] }), "Bolt：ムーブアクションを前借り次の手番開始時 −4 AP");
  // A kind this page does not know yet still shows: its id and fields, ids as names.
  assert.equal(tx("ja").eventText({ event: "future_event", character: "tok-akane", amount: 2 }), "future_event character=Akane amount=2");
  assert.equal(tx("zh-Hant").describe({ type: "future_action", character: "tok-bolt" }), "future_action character=Bolt");
  // … and the raw-id check catches such a line, and a known kind's id in a sentence.
  assert.deepEqual(rawIds("future_event character=Akane", "ja"), ["future_event", "character"]);
  assert.deepEqual(rawIds("Bolt：convert トリックアクション", "zh-Hant"), ["convert"]);
  assert.deepEqual(rawIds("Dan leaves the combat", "ja"), ["leaves", "the", "combat"]);
  assert.deepEqual(rawIds("tok-bolt: end_turn", "en").sort(), ["end_turn", "tok-bolt"]);
});

test("manifest.json is an Owlbear Rodeo extension manifest (public/ is copied to the site root by Vite)", async () => {
  const m = await (await fetch(`${server.url}examples/owlbear-extension/public/manifest.json`)).json();
  assert.equal(m.manifest_version, 1);
  assert.equal(m.action.popover, "/index.html");
  assert.equal((await fetch(`${server.url}examples/owlbear-extension/index.html`)).status, 200);
  // The test page is the real page with the SDK stand-in: the same <body>.
  const body = (f) => readFileSync(join(EX, f), "utf8").split("<body>")[1];
  assert.equal(body("test/index.html"), body("index.html"));
  for (const f of [m.icon, m.action.icon]) {
    assert.equal((await fetch(`${server.url}examples/owlbear-extension/public${f}`)).status, 200, f);
  }
});

test("the tokens of the CHARACTER layer are listed; both systems are offered", async () => {
  const rows = await page.$$eval("#tokens tr[data-token]", (els) => els.map((e) => e.dataset.token));
  assert.deepEqual(rows, ["tok-akane", "tok-bolt", "tok-crow"]);
  assert.equal(await page.locator('#system option[value="world_trigger"]').isDisabled(), false);
  assert.equal(await page.locator("#system").inputValue(), "tmd");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.blocked, []);
  assert.ok(!server.requests.some((p) => p.endsWith(".wasm")), "the page uses gunbai/inline");
});

test("start a TMD encounter: state in scene metadata, phase and order shown", async () => {
  await page.click("#start");
  await page.waitForSelector("#encounter:not([hidden])");
  const raw = await rawEntry();
  assert.equal(raw.format, "gunbai-obr/1");
  assert.equal(raw.system, "tmd");
  assert.equal(typeof raw.gzip, "string", "stored compressed");
  const saved = decodeEntry(raw);
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
  assert.deepEqual(buttons.sort(), legal.actions.map((a) => a.action.type).sort());
});

test("advance a phase: the new state is persisted and whose turn it is shows", async () => {
  const before = await meta();
  assert.equal(before.state.phase, "delays");
  await page.click('#actions button[data-kind="start_turns"]');
  await page.waitForFunction(() => document.querySelector("#phase").dataset.phase === "turns");
  const after = await meta();
  const expected = gunbai.tmd.encounterAct({ state: before.state, action: { type: "start_turns" } });
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
        g.tmd.encounterAct({ state: st, action: { type: "end_turn", character: who } });
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

test("TMD in ja and zh-Hant: the buttons and the log are sentences with names, no raw ids", async () => {
  const rec = await meta();
  const st = rec.state;
  const cur = rec.names[st.current];
  const legal = gunbai.tmd.encounterLegalActions({ state: st }).actions;
  const converted = rec.log.flatMap((l) => l.events).find((e) => e.event === "converted");
  assert.deepEqual([converted.action_type, converted.count, converted.ap_spent], ["trick", 1, 1], "the flow above converted one trick action");
  const trick2 = legal.findIndex((a) => a.action.type === "convert" && a.action.action_type === "trick" && a.action.count === 2);
  assert.ok(trick2 >= 0);
  const expect = {
    ja: {
      log: `${rec.names[converted.character]} は 1 AP をトリックアクション ×1 に変換`,
      head: `${rec.names[converted.character]}：トリックアクション ×1 に変換`,
      convert: `${cur}：トリックアクション ×2 に変換（2 AP）`,
      endTurn: `${cur}：手番終了`,
      phase: `第${st.round}ラウンド · 手番`,
    },
    "zh-Hant": {
      log: `${rec.names[converted.character]} 花費 1 AP 轉化花招動作 ×1`,
      head: `${rec.names[converted.character]}：轉化花招動作 ×1`,
      convert: `${cur}：轉化花招動作 ×2（2 AP）`,
      endTurn: `${cur}：結束回合`,
      phase: `第${st.round}輪 · 回合`,
    },
  };
  for (const lang of ["ja", "zh-Hant"]) {
    await page.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=${lang}`);
    await page.waitForSelector("#encounter:not([hidden])");
    const buttons = await page.$$eval("#actions button[data-i]", (els) => els.map((e) => [e.dataset.kind, e.textContent]));
    assert.equal(buttons.length, legal.length);
    // (each line's own text; an action's line also shows its seed in a <small>)
    const lines = await page.$$eval("#log li > div", (els) => els.map((e) => e.firstChild?.textContent ?? ""));
    assert.ok(lines.length > 5);
    for (const [kind, text] of buttons) assert.deepEqual(rawIds(text, lang), [], `${lang} button ${kind}: ${text}`);
    for (const text of lines) assert.deepEqual(rawIds(text, lang, ["battle_start", "combat_start"]), [], `${lang} log: ${text}`);
    assert.equal(await page.locator("#log .ev-unknown").count(), 0);
    const e = expect[lang];
    assert.ok(lines.includes(e.log), `${lang}: ${e.log} in ${lines.join(" | ")}`);
    assert.ok(lines.includes(e.head), `${lang}: ${e.head}`);
    assert.equal(await page.locator(`#actions button[data-i="${trick2}"]`).textContent(), e.convert);
    assert.equal(await page.locator("#actions button[data-kind='end_turn']").textContent(), e.endTurn);
    assert.equal(await page.locator("#phase").innerText(), e.phase);
    // the held-actions column uses the core's labels too
    assert.doesNotMatch(await page.locator("#order").innerText(), /\b(trick|swift|move|standard|acrobatic)\b/);
    if (lang === "zh-Hant") await screenshot(page, join(SHOTS, "encounter-zh-Hant.png"));
  }
  assert.deepEqual(page.errors, []);
});

test("TMD: an encounter played in Node through every event kind (stored as another client would) shows a sentence for each, in all four languages", async () => {
  const { log, state } = scriptTmd();
  const rec = { system: "tmd", state, names: TMD_NAMES, log };
  const value = { format: "gunbai-obr/1", system: "tmd", gzip: gzipSync(JSON.stringify(rec)).toString("base64") };
  assert.ok(JSON.stringify({ [KEY]: value }).length < 16 * 1024, "fits the scene's metadata");
  const setRecord = (v) =>
    page.evaluate(([store, k, x]) => {
      const m = JSON.parse(localStorage.getItem(store) || "{}");
      m[k] = x;
      localStorage.setItem(store, JSON.stringify(m));
    }, [STORE, KEY, v]);
  await setRecord(value);
  const events = log.flatMap((l) => l.events);
  const reasons = [...new Set(events.map((e) => e.reason).filter(Boolean))];
  const interrupt = events.find((e) => e.event === "interrupt_declared");
  // A reflex interrupting an action in its actor's turn resolves first (TMD-INT-3).
  const expected = {
    ja: "Bolt が #0 にリフレックスアクションで割り込み（#1）：リフレックスアクションが先に解決",
    "zh-Hant": "Bolt 以反射動作插入 #0（#1）：先結算反射動作插入的動作",
    "zh-Hans": "Bolt 以反射动作插入 #0（#1）：先结算反射动作插入的动作",
    en: "Bolt interrupts #0 with a Reflex action (#1): the reflex resolves first",
  };
  assert.ok(interrupt);
  for (const lang of ["ja", "zh-Hant", "zh-Hans", "en"]) {
    await page.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=${lang}`);
    await page.waitForSelector("#encounter:not([hidden])");
    assert.equal(await page.getAttribute("#phase", "data-phase"), "ended");
    const shown = await page.$$eval("#log .ev", (els) => els.map((e) => [e.className.match(/\bev-(\w+)/)[1], e.textContent]));
    assert.deepEqual(shown.map(([k]) => k), events.map((e) => e.event), `${lang}: one line per event, in order`);
    assert.deepEqual(TMD_EVENT_KINDS.filter((k) => !shown.some(([s]) => s === k)), []);
    assert.equal(await page.locator("#log .ev-unknown").count(), 0);
    const heads = await page.$$eval("#log .act", (els) => els.map((e) => e.textContent));
    assert.equal(heads.length, log.length, "one bold line per action, and one for the start");
    for (const [kind, text] of shown) assert.deepEqual(rawIds(text, lang, reasons), [], `${lang} ${kind}: ${text}`);
    for (const text of heads) assert.deepEqual(rawIds(text, lang), [], `${lang}: ${text}`);
    assert.ok(shown.some(([k, text]) => k === "interrupt_declared" && text === expected[lang]), `${lang}: ${expected[lang]}`);
  }
  // A log saved by an earlier build, whose TMD actions were tagged `kind`, shows the same sentences.
  const heads = await page.$$eval("#log .act", (els) => els.map((e) => e.textContent)); // (the en page, the loop's last)
  const kindTagged = log.map((l) => (l.action ? { ...l, action: Object.fromEntries(Object.entries(l.action).map(([k, v]) => [k === "type" ? "kind" : k, v])) } : l));
  assert.ok(kindTagged.some((l) => l.action?.kind === "resolve" && !("type" in l.action)));
  await setRecord({ format: "gunbai-obr/1", system: "tmd", gzip: gzipSync(JSON.stringify({ ...rec, log: kindTagged })).toString("base64") });
  await page.reload();
  await page.waitForSelector("#encounter:not([hidden])");
  assert.deepEqual(await page.$$eval("#log .act", (els) => els.map((e) => e.textContent)), heads);
  // A log saved as text lines by an earlier build is still shown (as text).
  await setRecord({ format: "gunbai-obr/1", system: "tmd", gzip: gzipSync(JSON.stringify({ ...rec, log: ["Akane &amp; Bolt — <b>7</b>"] })).toString("base64") });
  await page.reload();
  await page.waitForSelector("#encounter:not([hidden])");
  assert.equal(await page.locator("#log li").innerText(), "Akane & Bolt — 7");
  assert.equal(await page.locator("#log li b").count(), 0, "stored text is never parsed as the page's HTML");
  assert.deepEqual(page.errors, []);
});

test("TMD GM form: gain AP, a new base initiative and a joining token, each step stored with its seed and equal to encounter_act's", async () => {
  // The stand-in's three tokens plus a fourth, Dan (the stand-in keeps its items in localStorage).
  await page.evaluate(() => {
    const tk = (id, name, x, y, meta) => ({ id, name, layer: "CHARACTER", type: "IMAGE", position: { x, y }, rotation: 0, scale: { x: 1, y: 1 }, visible: true, locked: false, metadata: { "io.github.gunbai/encounter": meta } });
    const items = [
      tk("tok-akane", "Akane", 375, 525, { side: "PC", base_initiative: 3 }),
      tk("tok-bolt", "Bolt", 525, 525, { side: "PC", base_initiative: 1 }),
      tk("tok-crow", "Crow", 1425, 825, { side: "NPC", base_initiative: 2 }),
      tk("tok-dan", "Dan", 75, 75, {}),
    ];
    localStorage.setItem("obr-stand-in/items", JSON.stringify(items));
  });
  // A running encounter of the first three (stored as another client would).
  const start = gunbai.tmd.encounterNew({ characters: [{ id: "tok-akane", side: "PC", base_initiative: 3 }, { id: "tok-bolt", side: "PC", base_initiative: 1 }, { id: "tok-crow", side: "NPC", base_initiative: 2 }], seed: 5 });
  const rec0 = { system: "tmd", state: start.state, names: { "tok-akane": "Akane", "tok-bolt": "Bolt", "tok-crow": "Crow" }, log: [{ action: null, seed: 5, events: start.events }] };
  await page.evaluate(([store, k, x]) => {
    const m = JSON.parse(localStorage.getItem(store) || "{}");
    m[k] = x;
    localStorage.setItem(store, JSON.stringify(m));
  }, [STORE, KEY, { format: "gunbai-obr/1", system: "tmd", gzip: gzipSync(JSON.stringify(rec0)).toString("base64") }]);
  await page.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=en`);
  await page.waitForSelector("#encounter:not([hidden])");
  assert.equal(await page.locator("#tmd-gm").isHidden(), false, "the GM sees the form");
  await page.click("#tmd-gm summary");
  /** Fill the form, apply, and check the stored step against encounter_act in Node. */
  const apply = async (kind, fill, expectedAction) => {
    const before = await meta();
    await page.selectOption("#tmd-gm .gm-kind", kind);
    assert.equal(await page.getAttribute("#tmd-gm", "data-kind"), kind);
    await fill();
    await page.click("#tmd-gm .gm-apply");
    await page.waitForFunction((n) => document.querySelectorAll("#log li").length > n, before.log.length);
    const after = await meta();
    const step = after.log.at(-1);
    assert.deepEqual(step.action, expectedAction);
    assert.ok(Number.isInteger(step.seed) && step.seed >= 0 && step.seed < 2 ** 32, "the step keeps its seed");
    const replay = gunbai.tmd.encounterAct({ state: before.state, action: step.action, seed: step.seed });
    assert.deepEqual(after.state, replay.state);
    assert.deepEqual(step.events, replay.events);
    assert.match(await page.locator("#log li:last-child .act small").innerText(), new RegExp(`seed ${step.seed}$`));
    return after;
  };
  await apply(
    "gain_ap",
    async () => {
      await page.selectOption('#tmd-gm [data-field="character"]', "tok-bolt");
      await page.fill('#tmd-gm [data-field="amount"]', "4");
      await page.check('#tmd-gm [data-field="reflex_only"]');
    },
    { type: "gain_ap", character: "tok-bolt", amount: 4, reflex_only: true },
  );
  assert.equal(await page.getAttribute("#tmd-gm", "data-kind"), "gain_ap", "the chosen kind stays after the re-render");
  const raised = await apply(
    "set_base_initiative",
    async () => {
      await page.selectOption('#tmd-gm [data-field="character"]', "tok-crow");
      await page.fill('#tmd-gm [data-field="base_initiative"]', "7");
    },
    { type: "set_base_initiative", character: "tok-crow", base_initiative: 7 },
  );
  assert.equal(raised.state.characters.find((c) => c.id === "tok-crow").base_initiative, 7);
  // Join: only tokens not in the encounter are offered; the joiner rolls a d10 (the logged seed).
  await page.selectOption("#tmd-gm .gm-kind", "join");
  assert.deepEqual(await page.$$eval('#tmd-gm [data-field="token"] option', (els) => els.map((e) => e.value)), ["tok-dan"]);
  const joined = await apply(
    "join",
    async () => {
      await page.fill('#tmd-gm [data-field="side"]', "NPC");
      await page.fill('#tmd-gm [data-field="base_initiative"]', "1");
    },
    { type: "join", characters: [{ id: "tok-dan", side: "NPC", base_initiative: 1 }] },
  );
  assert.equal(joined.names["tok-dan"], "Dan", "the joiner's name is stored with the encounter");
  assert.ok(joined.log.at(-1).events.some((e) => e.event === "joined"));
  assert.match(await page.locator("#order").innerText(), /Dan/);
  await page.selectOption("#tmd-gm .gm-kind", "apply_effect");
  await screenshot(page, join(SHOTS, "gm-form-en.png"));
  // A malformed value is refused by the core and changes nothing.
  const before = await meta();
  await page.selectOption("#tmd-gm .gm-kind", "gain_ap");
  await page.fill('#tmd-gm [data-field="amount"]', "0");
  await page.click("#tmd-gm .gm-apply");
  await page.waitForFunction(() => document.querySelector("#error").dataset.code);
  assert.equal(await page.getAttribute("#error", "data-code"), "out_of_range");
  assert.deepEqual(await meta(), before);
  // Every kind and field has a label in each language; a player doesn't see the form.
  const { GM_TEXT, GM_FORM_KINDS, CONVERT_TYPES, DURATIONS } = await import(join(EX, "tmd-gm.js"));
  assert.deepEqual(CONVERT_TYPES, unionTags("TmdConvertType"));
  assert.deepEqual(DURATIONS, unionTags("TmdDuration"));
  for (const k of GM_FORM_KINDS) assert.ok(TMD_ACTION_KINDS.includes(k), k);
  for (const lang of ["ja", "zh-Hant", "zh-Hans", "en"]) {
    for (const entry of [GM_TEXT.title, GM_TEXT.apply, GM_TEXT.noJoiners, ...Object.values(GM_TEXT.kinds), ...Object.values(GM_TEXT.fields)]) {
      assert.ok(entry[lang], `${lang}: ${JSON.stringify(entry)}`);
    }
  }
  await page.evaluate(() => localStorage.removeItem("obr-stand-in/items"));
  assert.deepEqual(page.errors, []);
});

test("TMD undo: the GM takes back this page's actions one by one, each stored state the one the action was applied to", async () => {
  // The GM form test above applied gain AP, a new base initiative and a join (the malformed gain was refused: no step).
  const start = gunbai.tmd.encounterNew({ characters: [{ id: "tok-akane", side: "PC", base_initiative: 3 }, { id: "tok-bolt", side: "PC", base_initiative: 1 }, { id: "tok-crow", side: "NPC", base_initiative: 2 }], seed: 5 });
  assert.equal(await page.getAttribute("#undo", "data-depth"), "3");
  assert.equal(await page.locator("#undo").isDisabled(), false);
  for (const [depth, undone] of [[2, "join"], [1, "set_base_initiative"], [0, "gain_ap"]]) {
    const before = await meta();
    const last = before.log.at(-1);
    assert.equal(last.action.type, undone);
    await page.click("#undo");
    await page.waitForFunction((n) => document.querySelector("#undo").dataset.depth === String(n), depth);
    const after = await meta();
    assert.deepEqual(after.log, before.log.slice(0, -1), "the log drops the undone step");
    // the action with its logged seed, applied to the stored state, gives the state it was undone from
    const replay = gunbai.tmd.encounterAct({ state: after.state, action: last.action, seed: last.seed });
    assert.deepEqual(replay.state, before.state);
    if (undone === "join") assert.doesNotMatch(await page.locator("#order").innerText(), /Dan/);
  }
  assert.deepEqual((await meta()).state, start.state, "back to the encounter as it was stored");
  assert.equal(await page.locator("#undo").isDisabled(), true, "nothing left to undo");
  assert.deepEqual(page.errors, []);
});

test("end and clear removes the state from the scene", async () => {
  await page.click("#reset");
  await page.waitForSelector("#setup:not([hidden])");
  assert.equal(await meta(), null);
});

// ---- World Trigger battle ------------------------------------------------
// Six tokens on a 100-dpi grid (the stand-in takes __obrGrid / __obrItems before
// the page loads): team Blue around cells (5..6, 4..5), team Red around
// (15..16, 10..11). Fuyu carries its own sheet in the token metadata; the others
// get sample sheets picked in the page.
const DPI = 100;
const pos = (col, row, fx = 0.5, fy = 0.5) => ({ x: (col + fx) * DPI, y: (row + fy) * DPI });
const sample = (id) => structuredClone(SAMPLE_SHEETS.find((s) => s.id === id).sheet);
const FUYU_SHEET = { ...sample("sniper"), name: "Fuyu (token sheet)", leader: false };
const wtItem = (id, name, position, meta) => ({ id, name, layer: "CHARACTER", type: "IMAGE", position, rotation: 0, scale: { x: 1, y: 1 }, metadata: { [KEY]: meta } });
const WT_ITEMS = [
  wtItem("wt-akane", "Akane", pos(5, 4), { side: "Blue" }),
  wtItem("wt-bolt", "Bolt", pos(6, 4, 0.1, 0.9), { side: "Blue" }), // not snapped: still cell (6, 4)
  wtItem("wt-chika", "Chika", pos(5, 5), { side: "Blue" }),
  wtItem("wt-dan", "Dan", pos(15, 10), { side: "Red" }),
  wtItem("wt-emi", "Emi", pos(16, 10), { side: "Red" }),
  wtItem("wt-fuyu", "Fuyu", pos(15, 11), { side: "Red", sheet: FUYU_SHEET }),
  { id: "wt-map", name: "Map", layer: "MAP", type: "IMAGE", position: { x: 0, y: 0 }, metadata: {} },
];
// The documented mapping: square = cell − (leftmost column − 2, topmost row − 2); map = span + 2 each side.
const ORIGIN = { col: 3, row: 2 };
const SQUARES = { "wt-akane": [2, 2], "wt-bolt": [3, 2], "wt-chika": [2, 3], "wt-dan": [12, 8], "wt-emi": [13, 8], "wt-fuyu": [12, 9] };
const member = (id, sheet) => ({ id, sheet, at: { x: SQUARES[id][0], y: SQUARES[id][1] } });
// What the page must send to battle_new after the picks below (Emi: attacker sheet and Red's leader).
const EXPECTED_SETUP = {
  battle_type: "rank",
  map: { width: 16, height: 12 },
  max_rounds: 10,
  teams: [
    {
      id: "Blue",
      leader: "wt-akane",
      members: [
        member("wt-akane", { ...sample("shooter"), name: "Akane", leader: true }),
        member("wt-bolt", { ...sample("attacker_mobility"), name: "Bolt", leader: false }),
        member("wt-chika", { ...sample("sniper"), name: "Chika", leader: false }),
      ],
    },
    {
      id: "Red",
      leader: "wt-emi",
      members: [
        member("wt-dan", { ...sample("attacker_kogetsu"), name: "Dan", leader: false }),
        member("wt-emi", { ...sample("attacker_mobility"), name: "Emi", leader: true }),
        member("wt-fuyu", FUYU_SHEET),
      ],
    },
  ],
};
let wtPage;

/** Click, wait for the stored step to advance, and check it against battle_act in Node (same state, action, seed). */
async function wtStep(selector, p = wtPage) {
  const before = await meta(p);
  await p.click(selector);
  await p.waitForFunction((n) => document.querySelector("#encounter")?.dataset.step === String(n), before.step + 1);
  const after = await meta(p);
  assert.equal(after.step, before.step + 1);
  const entry = after.log.at(-1);
  assert.equal(entry.step, after.step);
  assert.ok(Number.isInteger(entry.seed) && entry.seed >= 0, "the page logs the seed it rolled with");
  const expected = gunbai.worldTrigger.battleAct({ state: before.state, action: entry.action, seed: entry.seed });
  assert.deepEqual(after.state, expected.state, `step ${after.step}: ${JSON.stringify(entry.action)}`);
  assert.deepEqual(entry.events, expected.events);
  // who acts, as the page reads it from the state, is what battle_legal_actions reports
  const listed = gunbai.worldTrigger.battleLegalActions({ state: after.state });
  assert.equal(await p.getAttribute("#acting", "data-team"), listed.acting_team ?? "");
  assert.equal(await p.getAttribute("#acting", "data-reaction"), listed.reaction_for ?? "");
  return { before, after, entry };
}

test("WT: the bundled sample sheets and map are rank_3v3.json's", () => {
  const b = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "battles", "rank_3v3.json"), "utf8"));
  const strip = ({ name, leader, ...rest }) => rest;
  const members = Object.fromEntries(b.teams.flatMap((t) => t.members).map((m) => [m.id, strip(m.sheet)]));
  for (const s of SAMPLE_SHEETS) assert.deepEqual(s.sheet, members[s.from], s.id);
  const distinct = new Set(Object.values(members).map((x) => JSON.stringify(x)));
  assert.equal(SAMPLE_SHEETS.length, distinct.size);
  assert.deepEqual(EXAMPLE_MAPS.rank_3v3, b.map);
});

test("WT: the acting team and the awaited reaction the page reads from the state are battle_legal_actions' (battles played in Node)", async () => {
  const { createWorldTrigger } = await import(join(EX, "wt.js"));
  const { turnOf } = createWorldTrigger({ gunbai, lang: "en", esc: String });
  const W = gunbai.worldTrigger;
  // 3v3 as set up below, and 1v1 with the two members side by side (attacks, hence reactions, at once).
  const duel = structuredClone(EXPECTED_SETUP);
  duel.teams = duel.teams.map((tm, i) => ({ ...tm, leader: tm.members[0].id, members: [{ ...tm.members[0], at: { x: 5 + i, y: 5 } }] }));
  duel.teams[1].members[0].sheet.leader = true;
  const seen = { movement: 0, reaction: 0, none: 0 };
  for (const [setup, game] of [[EXPECTED_SETUP, 1], [duel, 2], [duel, 3]]) {
    let state = W.battleNew(setup).state;
    let x = game;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; state.phase !== "ended" && n < 150; n++) {
      const listed = W.battleLegalActions({ state });
      assert.deepEqual(turnOf(state), { acting_team: listed.acting_team ?? null, reaction_for: listed.reaction_for ?? null }, `game ${game} step ${n}`);
      if (listed.reaction_for) seen.reaction++;
      else if (state.phase === "movement" && listed.acting_team) seen.movement++;
      else if (!listed.acting_team) seen.none++;
      const pool = listed.actions.filter((a) => !["use_ability", "operator"].includes(a.action.type));
      const attacks = pool.filter((a) => a.action.type === "use_skill" && a.cost.side_action);
      const from = attacks.length && rnd() < 0.7 ? attacks : pool;
      state = W.battleAct({ state, action: from[Math.floor(rnd() * from.length)].action, seed: n }).state;
    }
  }
  assert.ok(seen.movement > 0 && seen.reaction > 0 && seen.none > 0, JSON.stringify(seen));
});

test("WT setup: teams, sheets and squares come from the tokens and the scene grid", async () => {
  wtPage = await newPage(browser, { viewport: { width: 420, height: 900 } });
  await wtPage.context().addInitScript(([items, dpi]) => {
    window.__obrItems = items;
    window.__obrGrid = { dpi };
  }, [WT_ITEMS, DPI]);
  // Console errors count as errors too (a missing favicon is the test server's, not the page's).
  wtPage.on("console", (m) => m.type() === "error" && !/favicon/.test(m.location()?.url ?? "") && wtPage.errors.push(m.text()));
  await wtPage.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=en`);
  await wtPage.waitForSelector("body[data-ready='1']");
  await wtPage.selectOption("#system", "world_trigger");
  await wtPage.waitForSelector("#wt-options:not([hidden])");
  const rows = await wtPage.$$eval("#tokens tr[data-token]", (els) =>
    els.map((e) => [e.dataset.token, e.querySelector(".team").value, e.querySelector(".sheet").value, [Number(e.querySelector(".sx").value), Number(e.querySelector(".sy").value)]]),
  );
  assert.deepEqual(rows, [
    ["wt-akane", "Blue", "shooter", SQUARES["wt-akane"]],
    ["wt-bolt", "Blue", "attacker_mobility", SQUARES["wt-bolt"]],
    ["wt-chika", "Blue", "sniper", SQUARES["wt-chika"]],
    ["wt-dan", "Red", "attacker_kogetsu", SQUARES["wt-dan"]],
    ["wt-emi", "Red", "shooter", SQUARES["wt-emi"]],
    ["wt-fuyu", "Red", "token", SQUARES["wt-fuyu"]],
  ]);
  assert.match(await wtPage.locator("#wt-map option[value='flat']").innerText(), /16×12/);
  assert.match(await wtPage.locator("#wt-options").innerText(), /100 dpi/);
  // Leaders default to each team's first token; the GM picks Emi for Red and another sample for her.
  assert.equal(await wtPage.locator("label.leader[data-team='Blue'] select").inputValue(), "wt-akane");
  await wtPage.selectOption("tr[data-token='wt-emi'] .sheet", "attacker_mobility");
  await wtPage.selectOption("label.leader[data-team='Red'] select", "wt-emi");
  assert.deepEqual(wtPage.errors, []);
});

test("WT: start a 3v3 rank battle — the stored state is battle_new's for the same setup, compressed under 16 kB", async (t) => {
  await wtPage.click("#start");
  await wtPage.waitForSelector("#encounter:not([hidden])");
  assert.equal(await wtPage.locator("#error").innerText(), "");
  const raw = await rawEntry(wtPage);
  assert.equal(raw.format, "gunbai-obr/1");
  assert.equal(raw.system, "world_trigger");
  const rec = decodeEntry(raw);
  const expected = gunbai.worldTrigger.battleNew(EXPECTED_SETUP);
  assert.deepEqual(rec.state, expected.state);
  assert.deepEqual(rec.log, [{ events: expected.events }]);
  assert.deepEqual(rec.grid, { dpi: DPI, origin: ORIGIN });
  assert.equal(rec.names["wt-fuyu"], "Fuyu");
  const json = JSON.stringify(rec.state).length;
  const stored = JSON.stringify({ [KEY]: raw }).length;
  t.diagnostic(`3v3 battle: state JSON ${json} bytes; stored entry (gzip + base64, with names and log) ${stored} bytes`);
  assert.ok(json > 16 * 1024, "the plain state would not fit");
  assert.ok(stored < 8 * 1024, `stored ${stored} bytes`);
  assert.equal(await wtPage.getAttribute("#phase", "data-phase"), "initiative");
  assert.match(await wtPage.locator("#phase").innerText(), /Round 1 of 10 · Initiative phase · Rank battle/);
  const members = await wtPage.$$eval("#wt-members tr[data-member]", (els) => els.map((e) => [e.dataset.member, e.querySelector(".trion").textContent, e.querySelector(".at").textContent]));
  assert.deepEqual(members, rec.state.members.map((m) => [m.id, `${m.trion}/${m.starting_trion}`, `(${m.at.x}, ${m.at.y})`]));
  // the legal actions are buttons, one per action battle_legal_actions lists
  const legal = gunbai.worldTrigger.battleLegalActions({ state: rec.state }).actions;
  const shown = await wtPage.$$eval("#actions button[data-i]", (els) => els.map((e) => e.dataset.type));
  assert.deepEqual(shown.sort(), legal.map((a) => a.action.type).sort());
  assert.deepEqual(wtPage.errors, []);
});

test("WT: an illegal action shows the core's error and leaves the stored state unchanged", async () => {
  const before = await rawEntry(wtPage);
  // Red has no tactics dice yet: spending 5 on initiative breaks WT-TD-3.
  await wtPage.fill("#wt-teams input[data-team='Red']", "5");
  await wtPage.click("#actions button[data-type='roll_initiative']");
  await wtPage.waitForSelector("#error[data-code='illegal_action']");
  assert.match(await wtPage.locator("#error").innerText(), /^illegal_action \[WT-TD-3\]: /);
  assert.deepEqual(await rawEntry(wtPage), before);
  assert.equal(await wtPage.getAttribute("#phase", "data-phase"), "initiative");
  await wtPage.fill("#wt-teams input[data-team='Red']", "0");
  assert.deepEqual(wtPage.errors, []);
});

test("WT: an operator action and the initiative roll, each stored step equal to battle_act's", async () => {
  await wtPage.click("#actions details.any-time summary");
  const op = await wtStep("#actions details.any-time button[data-type='operator'][data-actor='Blue']");
  assert.deepEqual(op.entry.action, { type: "operator", team: "Blue", skill: "operator_support" });
  assert.equal(op.after.state.teams[0].tactics_dice, 1);
  assert.equal(await wtPage.locator("#wt-teams tr[data-team='Blue'] .tactics-dice").innerText(), "1");
  assert.equal(await wtPage.locator("#wt-teams tr[data-team='Blue'] .operator").innerText(), "used");
  // Blue spends its tactics die on the initiative check.
  await wtPage.fill("#wt-teams input[data-team='Blue']", "1");
  const roll = await wtStep("#actions button[data-type='roll_initiative']");
  assert.deepEqual(roll.entry.action, { type: "roll_initiative", tactics_dice: [{ team: "Blue", dice: 1 }] });
  assert.ok(roll.entry.events.some((e) => e.type === "initiative_rolled" && e.team === "Blue" && e.tactics_dice === 1));
  assert.equal(roll.after.state.phase, "tactics");
  const acting = gunbai.worldTrigger.battleLegalActions({ state: roll.after.state }).acting_team;
  assert.equal(await wtPage.getAttribute("#acting", "data-team"), acting);
  assert.match(await wtPage.locator("#acting").innerText(), new RegExp(`Acting team: ${acting}`));
  assert.match(await wtPage.locator("#log").innerText(), /Blue initiative: Akane rolls \[.*\] \(1 tactics dice\) → \d+/);
  assert.deepEqual(wtPage.errors, []);
});

test("WT: tactics → movement: members act until the teams pass; budgets shown; a move puts the token on its square", async () => {
  let guard = 0;
  while ((await meta(wtPage)).state.phase === "tactics" && guard++ < 20) {
    const plan = wtPage.locator("#actions .member-actions button[data-skill='tactics_planning']");
    if (await plan.count()) {
      const { after } = await wtStep("#actions .member-actions button[data-skill='tactics_planning'] >> nth=0");
      // the acting team's tactics slots and pool, as the page shows them
      const st = after.state;
      const ti = st.members.findIndex((m) => m.id === after.log.at(-1).action.actor);
      const team = st.teams[st.members[ti].team];
      const used = st.members.filter((m) => m.team === st.members[ti].team && m.used?.tactics).length;
      assert.match(await wtPage.locator(`#wt-teams tr[data-team='${team.id}'] .slot-tactics`).innerText(), new RegExp(`${used}/3`));
      assert.equal(await wtPage.locator(`#wt-teams tr[data-team='${team.id}'] .tactics-dice`).innerText(), String(team.tactics_dice));
    } else {
      await wtStep("#actions button[data-type='pass']");
    }
  }
  const rec = await meta(wtPage);
  assert.equal(rec.state.phase, "movement");
  assert.equal(await wtPage.getAttribute("#phase", "data-phase"), "movement");
  assert.match(await wtPage.locator("#phase").innerText(), /Movement phase/);
  // The first acting member moves to the first listed destination.
  const actor = await wtPage.getAttribute("#actions .member-actions .dest select >> nth=0", "data-actor");
  const { after, entry } = await wtStep(`#actions .member-actions[data-actor='${actor}'] button.go`);
  assert.equal(entry.action.type, "move");
  const m = after.state.members.find((x) => x.id === actor);
  assert.deepEqual(m.at, entry.action.path.at(-1));
  assert.equal(await wtPage.locator(`#wt-members tr[data-member='${actor}'] .at`).innerText(), `(${m.at.x}, ${m.at.y})`);
  // The token follows: centre of cell origin + square on the stand-in's scene.
  await wtPage.waitForFunction(
    ([id, x, y]) => {
      const it = JSON.parse(localStorage.getItem("obr-stand-in/items") || "[]").find((i) => i.id === id);
      return it && it.position.x === x && it.position.y === y;
    },
    [actor, (ORIGIN.col + m.at.x + 0.5) * DPI, (ORIGIN.row + m.at.y + 0.5) * DPI],
  );
  assert.deepEqual(wtPage.errors, []);
});

test("WT undo: the GM takes back the move (state, step, log; the token goes back), then plays it again", async () => {
  const before = await meta(wtPage);
  const last = before.log.at(-1);
  assert.equal(last.action.type, "move");
  const depth = Number(await wtPage.getAttribute("#undo", "data-depth"));
  assert.equal(depth, before.step, "every step of this battle was played in this page");
  await wtPage.click("#undo");
  await wtPage.waitForFunction((n) => document.querySelector("#encounter")?.dataset.step === String(n), before.step - 1);
  const after = await meta(wtPage);
  assert.equal(after.step, before.step - 1);
  assert.deepEqual(after.log, before.log.slice(0, -1));
  // the move with its logged seed, applied to the stored state, gives the state it was undone from
  assert.deepEqual(gunbai.worldTrigger.battleAct({ state: after.state, action: last.action, seed: last.seed }).state, before.state);
  assert.equal(await wtPage.getAttribute("#undo", "data-depth"), String(depth - 1));
  const m = after.state.members.find((x) => x.id === last.action.actor);
  assert.notDeepEqual(m.at, last.action.path.at(-1));
  assert.equal(await wtPage.locator(`#wt-members tr[data-member='${m.id}'] .at`).innerText(), `(${m.at.x}, ${m.at.y})`);
  await wtPage.waitForFunction(
    ([id, x, y]) => {
      const it = JSON.parse(localStorage.getItem("obr-stand-in/items") || "[]").find((i) => i.id === id);
      return it && it.position.x === x && it.position.y === y;
    },
    [m.id, (ORIGIN.col + m.at.x + 0.5) * DPI, (ORIGIN.row + m.at.y + 0.5) * DPI],
  );
  const { entry } = await wtStep(`#actions .member-actions[data-actor='${m.id}'] button.go`);
  assert.equal(entry.action.type, "move");
  assert.equal(entry.step, before.step);
  assert.deepEqual(wtPage.errors, []);
});

test("WT: the battle survives a reload and goes on; screenshots", async () => {
  const before = await rawEntry(wtPage);
  const rec = decodeEntry(before);
  await wtPage.reload();
  await wtPage.waitForSelector("body[data-ready='1']");
  await wtPage.waitForSelector("#encounter:not([hidden])");
  assert.deepEqual(await rawEntry(wtPage), before);
  assert.equal(await wtPage.getAttribute("#phase", "data-phase"), rec.state.phase);
  assert.equal(await wtPage.getAttribute("#encounter", "data-step"), String(rec.step));
  assert.equal(await wtPage.locator("#system").inputValue(), "world_trigger");
  assert.equal(await wtPage.locator("#system").isDisabled(), true);
  await screenshot(wtPage, join(SHOTS, "battle-en.png"));
  await wtStep("#actions button[data-type='pass']");
  await wtPage.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=ja`);
  await wtPage.waitForSelector("#encounter:not([hidden])");
  assert.match(await wtPage.locator("#phase").innerText(), /ムーブフェイズ|アタックフェイズ/);
  await screenshot(wtPage, join(SHOTS, "battle-ja.png"));
  for (const lang of ["zh-Hant", "zh-Hans"]) {
    await wtPage.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=${lang}`);
    await wtPage.waitForSelector("#encounter:not([hidden])");
    assert.match(await wtPage.locator("#phase").innerText(), lang === "zh-Hant" ? /第\d+輪.*(移動階段|攻擊階段).*排位戰/ : /第\d+轮.*(移动阶段|攻击阶段).*排位战/);
    assert.doesNotMatch(await wtPage.locator("body").innerText(), /\b(Team|Trion|Leader|Operator|Tactics dice|Movement phase)\b/);
  }
  await wtPage.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=en`);
  await wtPage.waitForSelector("#encounter:not([hidden])");
  assert.deepEqual(wtPage.errors, []);
});

test("WT: a player sees the same battle but cannot act", async () => {
  const p = await wtPage.context().newPage();
  await p.addInitScript(() => (window.__obrRole = "PLAYER"));
  const errors = [];
  p.on("pageerror", (e) => errors.push(String(e)));
  await p.goto(`${server.url}examples/owlbear-extension/test/index.html?lang=en`);
  await p.waitForSelector("#encounter:not([hidden])");
  const rec = await meta(p);
  assert.equal(await p.getAttribute("#encounter", "data-step"), String(rec.step));
  assert.equal(await p.getAttribute("#phase", "data-phase"), rec.state.phase);
  const enabled = await p.$$eval("#actions button, #reset, #undo", (els) => els.filter((e) => !e.disabled).length);
  assert.equal(enabled, 0);
  assert.equal(await p.locator("#wt-mods").isHidden(), true);
  assert.match(await p.locator("#gm-note").innerText(), /Only the GM/);
  assert.deepEqual(errors, []);
  await p.close();
});

test("WT: a step the host refuses to store is taken back from the live battle; what undo can take back is kept", async () => {
  await wtStep("#actions button[data-type='pass']"); // a step played in this page: something to undo
  const depth = await wtPage.getAttribute("#undo", "data-depth");
  assert.notEqual(depth, "0");
  // Another extension fills the scene behind the page's back: the stand-in's setMetadata then throws (16 kB).
  const fill = (on) =>
    wtPage.evaluate(([store, on]) => {
      const m = JSON.parse(localStorage.getItem(store));
      if (on) m["com.example.other/notes"] = "x".repeat(14000);
      else delete m["com.example.other/notes"];
      localStorage.setItem(store, JSON.stringify(m));
    }, [STORE, on]);
  await fill(true);
  const before = await rawEntry(wtPage);
  await wtPage.click("#actions button[data-type='pass']");
  await wtPage.waitForFunction(() => /stand-in: scene metadata/.test(document.querySelector("#error").textContent));
  assert.deepEqual(await rawEntry(wtPage), before);
  assert.equal(await wtPage.getAttribute("#undo", "data-depth"), depth, "the live battle is back at the stored state, its undo history kept");
  await fill(false);
  // The same pass now goes through, from the stored state.
  await wtStep("#actions button[data-type='pass']");
  assert.equal(await wtPage.getAttribute("#undo", "data-depth"), String(Number(depth) + 1));
  assert.deepEqual(wtPage.errors, []);
});

test("WT: a state that does not fit the scene's 16 kB (even compressed) is refused with a notification", async () => {
  // Another extension already uses most of the scene's metadata.
  await wtPage.evaluate((store) => {
    const m = JSON.parse(localStorage.getItem(store));
    m["com.example.other/notes"] = "x".repeat(14000);
    localStorage.setItem(store, JSON.stringify(m));
  }, STORE);
  await wtPage.reload();
  await wtPage.waitForSelector("#encounter:not([hidden])");
  const before = await rawEntry(wtPage);
  await wtPage.click("#actions button[data-type='pass']");
  await wtPage.waitForSelector("#error[data-code='too_large']");
  const shown = await wtPage.evaluate(() => window.__OBR.notification.shown);
  assert.equal(shown.at(-1).variant, "ERROR");
  assert.match(shown.at(-1).message, /16 kB/);
  assert.deepEqual(await rawEntry(wtPage), before);
  await wtPage.evaluate((store) => {
    const m = JSON.parse(localStorage.getItem(store));
    delete m["com.example.other/notes"];
    localStorage.setItem(store, JSON.stringify(m));
  }, STORE);
  await wtPage.reload();
  await wtPage.waitForSelector("#encounter:not([hidden])");
  assert.deepEqual(wtPage.errors, []);
});

test("WT: a one-round battle passed to its end shows how it ended (draw), with no actions left", async () => {
  await wtPage.click("#reset");
  await wtPage.waitForSelector("#setup:not([hidden])");
  assert.equal(await meta(wtPage), null);
  await wtPage.selectOption("#system", "world_trigger");
  await wtPage.fill("#wt-rounds", "1");
  await wtPage.locator("#wt-rounds").dispatchEvent("change");
  await wtPage.click("#start");
  await wtPage.waitForSelector("#encounter:not([hidden])");
  assert.equal((await meta(wtPage)).state.max_rounds, 1);
  await wtStep("#actions button[data-type='roll_initiative']");
  let guard = 0;
  while ((await meta(wtPage)).state.phase !== "ended" && guard++ < 20) await wtStep("#actions button[data-type='pass']");
  const rec = await meta(wtPage);
  assert.deepEqual(rec.state.outcome, { reason: "round_limit", winner: null });
  assert.equal(await wtPage.getAttribute("#phase", "data-phase"), "ended");
  assert.equal(await wtPage.locator("#acting").innerText(), "Battle over: the round limit was reached — Draw");
  assert.equal(await wtPage.locator("#actions button").count(), 0);
  assert.match(await wtPage.locator("#log").innerText(), /Battle over: the round limit was reached — draw/);
  assert.deepEqual(wtPage.errors, []);
});

test("WT: a finished battle saved by another client (gzip from Node) shows its winner", async () => {
  // A 1v1 rank battle played in Node by a fixed policy (attacks first) until one side bails out.
  const W = gunbai.worldTrigger;
  const setup = structuredClone(EXPECTED_SETUP);
  setup.teams = setup.teams.map((tm) => ({ ...tm, leader: tm.members[0].id, members: [{ ...tm.members[0], at: tm.id === "Blue" ? { x: 5, y: 5 } : { x: 6, y: 5 } }] }));
  setup.teams[1].members[0].sheet.leader = true;
  let state;
  let events = [];
  for (let game = 1; game <= 20 && !state?.outcome?.winner; game++) {
    state = W.battleNew(setup).state;
    let x = game;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; state.phase !== "ended" && n < 2000; n++) {
      const legal = W.battleLegalActions({ state }).actions.filter((a) => !["use_ability", "operator", "move"].includes(a.action.type));
      const attacks = legal.filter((a) => a.action.type === "use_skill" && a.cost.side_action);
      const pool = attacks.length ? attacks : legal;
      const r = W.battleAct({ state, action: pool[Math.floor(rnd() * pool.length)].action, seed: n });
      state = r.state;
      events = r.events;
    }
  }
  assert.ok(state.outcome?.winner, "some game of the policy has a winner");
  const rec = { system: "world_trigger", state, names: { "wt-akane": "Akane", "wt-dan": "Dan" }, step: 1, log: [{ step: 1, seed: 0, action: { type: "pass", team: "Blue" }, events }] };
  const value = { format: "gunbai-obr/1", system: "world_trigger", gzip: gzipSync(JSON.stringify(rec)).toString("base64") };
  await wtPage.evaluate(([store, k, v]) => {
    const m = JSON.parse(localStorage.getItem(store));
    m[k] = v;
    localStorage.setItem(store, JSON.stringify(m));
  }, [STORE, KEY, value]);
  await wtPage.reload();
  await wtPage.waitForSelector("#encounter:not([hidden])");
  assert.equal(await wtPage.getAttribute("#acting", "data-winner"), state.outcome.winner);
  assert.match(await wtPage.locator("#acting").innerText(), new RegExp(`^Battle over: .* — Winner: ${state.outcome.winner}$`));
  assert.equal(await wtPage.locator("#actions button").count(), 0);
  const status = await wtPage.$$eval("#wt-members tr[data-member] .status", (els) => els.map((e) => e.textContent));
  assert.ok(status.some((s) => /bailed out|incapacitated/.test(s)), status.join(" | "));
  await wtPage.click("#reset");
  await wtPage.waitForSelector("#setup:not([hidden])");
  assert.deepEqual(wtPage.errors, []);
  await wtPage.context().close();
});
