// The Owlbear Rodeo extension in Chromium, built with Vite against the REAL
// `@owlbear-rodeo/sdk` (owlbear-build.mjs), its pages loaded in iframes of a
// harness page that plays Owlbear Rodeo (examples/owlbear-extension/test/
// harness.js): it answers the SDK's window messages — player, party, scene
// metadata and items, grid, context menu, broadcast, notification — for one
// shared scene and two clients, a GM and a player, each with the extension's
// background page (the token context menu) and its popover.
//
// For each of the five rulesets the GM and the player add their tokens from
// the context menu, the GM picks the ruleset and starts, and both play a whole
// round (or phase cycle): the player clicks the buttons of their own
// combatant, the GM the rest; every stored step equals the engine's own
// result for the same state, action and logged seed (computed here in Node),
// every client shows the last result (broadcast), and the badges on the tokens
// follow the state. Also: who may act (a forged request is refused by the GM's
// client), the page opened outside Owlbear, that only the scene's ruleset's
// wasm is fetched, and the TMD sentences in four languages.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { squareLeaks } from "./leaks.mjs";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage, screenshot, LIVENESS } from "./harness.mjs";
import { buildOwlbear, ENTRY_OF, PKG } from "./owlbear-build.mjs";
import { HANDOFF, exportedDocuments, directSetup } from "./sheet-handoff.mjs";

const gunbai = await import(`${REPO_ROOT}/bindings-js/pkg/index.js`);
const EX = join(REPO_ROOT, "examples", "owlbear-extension");
const { createTmdText } = await import(join(EX, "tmd-i18n.js"));
const { SAMPLE_SHEETS, EXAMPLE_MAPS } = await import(join(EX, "wt-samples.js"));
const KEY = "io.github.gunbai/encounter";
const SETTINGS_KEY = "io.github.gunbai/settings";
const BADGE_KEY = "io.github.gunbai/badge";
const MENU_ADD = "io.github.gunbai/add-combatant";
const MENU_REMOVE = "io.github.gunbai/remove-combatant";
const REQUEST = "io.github.gunbai/request";
const RESULT = "io.github.gunbai/result";
const VIEW = "io.github.gunbai/view";
const SHOTS = join(EX, "screenshots");
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
const TMD_EVENT_KINDS = unionTags("TmdLoggedEvent", "event");
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
  act({ type: "use_action", actor: A, action_type: "standard" }); // the surprise attack
  act({ type: "begin_combat" }, [6, 3, 10]); // Akane 9, Bolt 4, Crow 12
  assert.deepEqual(state.order, [C, A, B]);
  act({ type: "delay", actor: C, after: B });
  act({ type: "start_turns" });
  assert.equal(state.current, A);
  act({ type: "convert", actor: A, action_type: "swift", count: 1 });
  act({ type: "convert", actor: A, action_type: "trick", count: 3 });
  act({ type: "convert", actor: A, action_type: "move", count: 1 });
  act({ type: "use_action", actor: A, action_type: "move" });
  act({ type: "use_action", actor: A, action_type: "trick" });
  act({ type: "use_free", actor: A });
  act({ type: "retain", actor: A, action_type: "trick", ability: "Quick Draw" });
  act({ type: "gain_ap", actor: B, amount: 6, reflex_only: true });
  act({ type: "convert_reflex", actor: B, count: 2 });
  act({ type: "use_action", actor: B, action_type: "reflex", using: "reflex" });
  act({ type: "set_disabled", actor: B, action_type: "move", disabled: true });
  act({ type: "overdraw", actor: B, action_type: "standard" });
  act({ type: "grant", actor: B, action_type: "trick" });
  act({ type: "set_base_initiative", actor: B, base_initiative: 5 });
  act({ type: "apply_effect", applier: A, target: C, name: "Smoke", duration: "debuff_one_round" });
  act({ type: "apply_effect", applier: A, target: A, name: "Focus", duration: "buff_one_round" });
  act({ type: "apply_effect", applier: A, target: B, name: "Fog", duration: "scene" });
  act({ type: "apply_effect", applier: A, target: C, name: "Mark", duration: "scene" });
  act({ type: "remove_effect", id: state.effects.find((e) => e.name === "Mark").id });
  act({ type: "teleport", actor: C, observed: true });
  act({ type: "announce", actor: A, label: "Strike" });
  act({ type: "interrupt", actor: B, reflex: true, using: "reflex", ignores_preemption: true });
  act({ type: "resolve" });
  act({ type: "pass" });
  act({ type: "resolve" });
  act({ type: "join", characters: [{ id: D, side: "NPC", base_initiative: 0 }] }, [8]);
  act({ type: "apply_effect", applier: D, target: D, name: "Haste", duration: "scene" });
  act({ type: "end_turn", actor: A });
  act({ type: "end_turn", actor: B });
  act({ type: "end_turn", actor: C });
  act({ type: "leave", actor: D }); // the last turn of round 1: the round ends
  act({ type: "start_turns" });
  act({ type: "teleport", actor: B, observed: false });
  act({ type: "scene_change" });
  act({ type: "end_encounter" });
  return { log, before, state };
}

/** The GM's HP rulings (gm_damage, gm_down) in an encounter of their own: Akane and Bolt track HP. */
function scriptTmdHp() {
  const T = gunbai.tmd;
  const [A, B] = Object.keys(TMD_NAMES);
  const r = T.encounterNew({ characters: [{ id: A, side: "PC", base_initiative: 3, hp: 10 }, { id: B, side: "NPC", base_initiative: 1, hp: 5 }], seed: 1 });
  let state = r.state;
  const log = [{ action: null, events: r.events }];
  const before = [null];
  for (const action of [{ type: "gm_damage", target: B, amount: 3 }, { type: "gm_down", target: B }]) {
    const res = T.encounterAct({ state, action, seed: log.length });
    before.push(state);
    log.push({ action, events: res.events });
    state = res.state;
  }
  return { log, before };
}

test("TMD texts: every action kind of index.d.ts has a sentence in each language, every event shows the core's sentence (names, no fallback, no raw ids)", () => {
  const main = scriptTmd();
  assert.ok(main.log.length <= 40, "the page keeps 40 log entries");
  // (the HP rulings in an encounter of their own: the script above fills the page's 40 entries)
  const hp = scriptTmdHp();
  const log = [...main.log, ...hp.log];
  const before = [...main.before, ...hp.before];
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
    for (const { action, cost, i } of actions) {
      const t = tx(i);
      const text = t.describe(action) + t.costText(action, cost);
      assert.notEqual(t.describe(action), t.fallbackAction(action), `${lang}: ${action.type} fell back`);
      assert.deepEqual(rawIds(text, lang, reasons), [], `${lang}: ${JSON.stringify(action)} → ${text}`);
    }
    for (const e of log.flatMap((l) => l.events)) {
      assert.ok(tx(0).knownEvent(e), `${lang}: ${e.event} carries no sentence of the core`);
      const text = tx(0).eventText(e);
      assert.notEqual(text, tx(0).fallbackEvent(e), `${lang}: ${e.event} fell back`);
      assert.deepEqual(rawIds(text, lang, reasons), [], `${lang}: ${JSON.stringify(e)} → ${text}`);
    }
  }
  // Specific sentences: the core's, in the rulebook's terms, with the tokens' names.
  assert.equal(createTmdText({ lang: "en", actionTypes: TMD_TYPES, name: (id) => TMD_NAMES[id] ?? id, state: () => null }).eventText(hp.log[1].events[0]), "The GM rules that Bolt takes 3 damage (2 HP left).");
  const ev = (kind, pred = () => true) => log.flatMap((l) => l.events).find((e) => e.event === kind && pred(e));
  const tx = (lang, i = 0) => createTmdText({ lang, actionTypes: TMD_TYPES, name: (id) => TMD_NAMES[id] ?? id, state: () => before[i] });
  assert.equal(tx("zh-Hant").eventText(ev("converted", (e) => e.action_type === "trick")), "Akane消耗3點AP轉化了3個花招動作。");
  assert.equal(tx("zh-Hans").eventText(ev("overdrawn")), "Bolt透支了标准动作（下个回合开始时失去8点AP）。");
  assert.equal(tx("ja").eventText(ev("turn_started", (e) => e.ap_lost_to_overdraw)), "Boltのターン開始：基礎AP 6、追加AP 0、反射専用AP 2、前借りで失ったAP 8、このラウンドは変換できない：スタンダードアクション。");
  assert.equal(tx("ja").eventText(ev("delay_declared")), "CrowはBoltのターンの後まで先攻を遅らせた。");
  // Bolt's reflex interrupts Akane's action in Akane's turn: it resolves first (TMD-INT-3).
  assert.equal(tx("en").eventText(ev("interrupt_declared")), "Bolt interrupts #0 with a reflex action (#1); Bolt resolves first.");
  assert.equal(tx("zh-Hant").eventText(ev("round_ended", (e) => e.round === 0)), "突襲輪結束。");
  // A character who has left is still named in the log (from the event's own ids).
  assert.match(tx("en").eventText(ev("left")), /^Dan leaves the battle\.$/);
  const resolveAt = log.findIndex((l) => l.action?.type === "resolve");
  // The reflex's action resolves first (TMD-INT-3).
  assert.equal(tx("zh-Hans", resolveAt).describe(log[resolveAt].action), "结算：Bolt 的动作 #1");
  assert.equal(tx("ja").describe({ type: "use_action", actor: "tok-crow", action_type: "reflex", using: "swift" }), "Crow：リフレックスアクションで伏せ（スウィフトアクションを消費）");
  assert.equal(tx("zh-Hant").describe({ type: "use_action", actor: "tok-akane", action_type: "full_round", using: "standard", companion: "acrobatic" }), "Akane：整輪動作（標準動作＋雜技動作）");
  assert.equal(tx("ja").describe({ type: "overdraw", actor: "tok-bolt", action_type: "move" }) + tx("ja").costText({ type: "overdraw" }, { ap: 4, actions: [] }), "Bolt：ムーブアクションを前借り次の手番開始時 −4 AP");
  // A kind this page does not know yet still shows: its id and fields, ids as names.
  assert.equal(tx("ja").eventText({ event: "future_event", character: "tok-akane", amount: 2 }), "future_event character=Akane amount=2");
  assert.equal(tx("zh-Hant").describe({ type: "future_action", actor: "tok-bolt" }), "future_action actor=Bolt");
  // … and the raw-id check catches such a line, and a known kind's id in a sentence.
  assert.deepEqual(rawIds("future_event character=Akane", "ja"), ["future_event", "character"]);
  assert.deepEqual(rawIds("Bolt：convert トリックアクション", "zh-Hant"), ["convert"]);
  assert.deepEqual(rawIds("Dan leaves the combat", "ja"), ["leaves", "the", "combat"]);
  assert.deepEqual(rawIds("tok-bolt: end_turn", "en").sort(), ["end_turn", "tok-bolt"]);
});

// ---- the room --------------------------------------------------------------

const SYSTEMS = ["world_trigger", "tmd", "coc_ap", "coc7_house", "fap_map"];
const ENGINE = { world_trigger: ["worldTrigger", "Battle"], tmd: ["tmd", "Encounter"], coc_ap: ["cocAp", "Round"], coc7_house: ["coc7House", "Round"], fap_map: ["fapMap", "Round"] };
const ROUND = new Set(["coc_ap", "coc7_house", "fap_map"]);
const Engine = (system, kind) => (kind === "chase" ? gunbai.coc7House.Chase : gunbai[ENGINE[system][0]][ENGINE[system][1]]);
/** TMD actions that name a character but are the GM's tools. */
const TMD_GM = new Set(["overdraw", "grant", "set_disabled", "teleport", "leave", "scene_change", "end_encounter", "remove_effect"]);

/** Whose action it is (a combatant id), or null for the GM's own: the test's reading of each engine's action shape. */
function actorOf(system, a, st) {
  if (system === "tmd") return a.actor && !TMD_GM.has(a.type) ? a.actor : null;
  if (system === "world_trigger") {
    if (a.actor) return a.actor;
    if (a.team) return st.teams.find((x) => x.id === a.team)?.leader ?? null;
    return null;
  }
  return a.actor ?? null;
}

/** Per ruleset: what a token carries in its metadata (side, stats). */
const TOKEN_META = {
  world_trigger: [{ side: "Blue" }, { side: "Red" }, { side: "Blue" }],
  tmd: [{ side: "PC", base_initiative: 5 }, { side: "PC", base_initiative: 4 }, { side: "NPC", base_initiative: 3 }],
  coc_ap: [{ stats: { dex: 14, dodge: 40, weapon: 55 } }, { stats: { dex: 12, dodge: 30, weapon: 50 } }, { stats: { dex: 9, dodge: 20, weapon: 45 } }],
  // (no `pc` stat: a token is a PC when its owner plays as a player, C7H-INIT-2)
  coc7_house: [{ stats: { dex: 60 } }, { stats: { dex: 55 } }, { stats: { dex: 40 } }],
  fap_map: [{ stats: { reaction: 12, magic: 8, agility: 10 } }, { stats: { reaction: 11, magic: 10, agility: 9 } }, { stats: { reaction: 10, magic: 12, agility: 8 } }],
};
/** The scene: two GM tokens, one the player created, and a prop that is no character. */
function sceneItems(system, { combatant = false, extra = {} } = {}) {
  const m = TOKEN_META[system];
  const tok = (id, name, createdUserId, i, x) => ({ id, name, createdUserId, layer: "CHARACTER", type: "IMAGE", position: { x, y: 350 }, metadata: { [KEY]: { ...m[i], ...(combatant ? { combatant: true } : {}), ...(extra[id] || {}) } } });
  return [
    tok("gm-a", "Akane", "gm", 0, 150),
    tok("p1-a", "Bolt", "p1", 1, 350),
    tok("gm-b", "Crow", "gm", 2, 550),
    { id: "prop", name: "Crate", createdUserId: "gm", layer: "PROP", type: "IMAGE", position: { x: 250, y: 150 }, metadata: {} },
  ];
}
const OWNERS = { "gm-a": "gm", "p1-a": "p1", "gm-b": "gm" };

const rawEntry = (page) => page.evaluate((k) => harness.scene.metadata[k] ?? null, KEY);
/** The record the GM's client stored (sealed for the GM: opened with the GM's key, see the harness). */
const record = (page) => page.evaluate((k) => harness.openRecord(harness.scene.metadata[k] ?? null), KEY);
const frame = (page, id, kind = "popover") => page.frame({ name: `${id}-${kind}` });

async function waitFrame(page, id, kind) {
  for (let i = 0; i < 300; i++) {
    const f = frame(page, id, kind);
    if (f) return f;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no frame ${id}-${kind}`);
}
async function ready(page, id, kinds = ["background", "popover"]) {
  for (const kind of kinds) await (await waitFrame(page, id, kind)).waitForSelector("body[data-ready='1']", { state: "attached", timeout: LIVENESS });
}

/** The harness with a scene and clients ({id, role, name, lang}); resolves once every page is ready. */
async function openRoom({ items, metadata = {}, clients, grid = { dpi: 100 }, seeds = null }) {
  const page = await newPage(browser, { viewport: { width: 1320, height: 760 } });
  await page.goto(`${server.url}harness.html`);
  await page.waitForFunction(() => window.harness);
  // Scripted dice: each client page draws its action seeds (one 32-bit word from
  // crypto.getRandomValues) from `seeds` in order; other random values stay random.
  if (seeds) {
    await page.context().addInitScript((list) => {
      const real = crypto.getRandomValues.bind(crypto);
      let n = 0;
      crypto.getRandomValues = (a) => {
        if (!(a instanceof Uint32Array && a.length === 1)) return real(a);
        a[0] = list[n++ % list.length];
        return a;
      };
    }, seeds);
  }
  await page.evaluate((s) => harness.setScene(s), { items, metadata, grid });
  for (const c of clients) await page.evaluate((c) => harness.addClient(c), c);
  for (const c of clients) await ready(page, c.id);
  return page;
}

/** Post a message from inside a client's popover as the SDK would, with any data: a forged request. */
async function forge(page, client, data) {
  const ref = await page.evaluate((id) => harness.refs(id).popover, client);
  await frame(page, client).evaluate(
    ([ref, channel, data]) => window.parent.postMessage({ id: "OBR_BROADCAST_SEND_MESSAGE", data: { channel, data, options: { destination: "REMOTE" } }, ref, nonce: `_forged${Math.random()}` }, location.origin),
    [ref, REQUEST, data],
  );
}
/** The GM client's answer to a request id (waits for it). */
async function answer(page, rid) {
  await page.waitForFunction(([ch, rid]) => harness.broadcasts.some((b) => b.channel === ch && b.data?.rid === rid), [RESULT, rid], { timeout: LIVENESS });
  return page.evaluate(([ch, rid]) => harness.broadcasts.find((b) => b.channel === ch && b.data?.rid === rid), [RESULT, rid]);
}

/**
 * The context menu: a player sees none until the GM allows players to act,
 * then only for their own token; each adds its tokens; the prop is never offered.
 */
async function addFromContextMenu(page) {
  const menus = (c, ids) => page.evaluate(([c, ids]) => harness.contextMenus(c, ids).map((m) => m.id), [c, ids]);
  assert.deepEqual(await menus("gm", ["gm-a"]), [MENU_ADD]);
  assert.deepEqual(await menus("gm", ["prop"]), [], "a prop is not a character");
  assert.deepEqual(await menus("p1", ["p1-a"]), [], "players may not add before the GM allows them to act");
  await frame(page, "gm").check("#players-act");
  await page.waitForFunction((m) => harness.contextMenus("p1", ["p1-a"]).some((x) => x.id === m), MENU_ADD, { timeout: LIVENESS });
  assert.deepEqual(await menus("p1", ["gm-a"]), [], "not another's token");
  assert.ok(await page.evaluate((m) => harness.clickContextMenu("p1", m, ["p1-a"]), MENU_ADD));
  assert.ok(await page.evaluate((m) => harness.clickContextMenu("gm", m, ["gm-a", "gm-b"]), MENU_ADD));
  await page.waitForFunction((k) => ["gm-a", "p1-a", "gm-b"].every((id) => harness.scene.items.find((i) => i.id === id).metadata[k]?.combatant === true), KEY);
  assert.deepEqual(await menus("p1", ["p1-a"]), [MENU_REMOVE], "once added, the player's menu removes it");
  assert.deepEqual(await menus("gm", ["gm-a"]), [MENU_REMOVE]);
}

/**
 * One step of the cycle: `pick` chooses an index into the engine's legal list
 * (computed here from the stored state); whoever owns that action's combatant
 * clicks its button (the player's goes to the GM's client as a request). The
 * stored state must be the engine's own for that state, action and logged
 * seed, and the other client must show the result.
 */
async function step(page, system, pick) {
  const rec = await record(page);
  const h = Engine(system, rec.kind).fromJSON(rec.state);
  try {
    const legal = h.legalActions();
    const i = pick(legal, rec.state);
    assert.ok(i >= 0, `${system}: no action to pick in ${JSON.stringify(legal.map((x) => x.action)).slice(0, 300)}`);
    const action = legal[i].action;
    const actor = actorOf(system, action, rec.state);
    const who = actor && OWNERS[actor] === "p1" ? "p1" : "gm";
    // What the player may click: exactly their own combatant's actions.
    // Both pages show the stored step (the seed of its last log entry).
    for (const c of ["gm", "p1"]) {
      await frame(page, c).waitForFunction((seed) => document.querySelector("#encounter")?.dataset.seed === seed && !document.querySelector("#actions button[data-i]")?.closest("[inert]"), String(rec.log.at(-1).seed ?? ""), { timeout: LIVENESS });
    }
    const enabled = await frame(page, "p1").$$eval("#actions button[data-i]", (bs) => bs.map((b) => [Number(b.dataset.i), !b.disabled]));
    // (the player's buttons index their own listing, which the GM's client sent them)
    const mine = playerListing(system, legal, rec.state);
    // The round modes list every legal action as a button; World Trigger lists moves in a list, and TMD shows players no GM tools.
    if (ROUND.has(system)) assert.equal(enabled.length, legal.length, `${system}: the player's page lists the engine's legal actions`);
    else assert.ok(enabled.length > 0);
    for (const [j, on] of enabled) assert.equal(on, OWNERS[actorOf(system, mine[j].action, rec.state)] === "p1", `${system}: player button ${JSON.stringify(mine[j].action)}`);
    const before = JSON.stringify(await rawEntry(page));
    const index = who === "p1" ? mine.findIndex((l) => JSON.stringify(l.action) === JSON.stringify(action)) : i;
    await frame(page, who).click(`#actions button[data-i="${index}"]:not([disabled])`, { timeout: LIVENESS });
    await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k] ?? null) !== b, [KEY, before], { timeout: LIVENESS });
    const next = await record(page);
    const last = next.log.at(-1);
    assert.deepEqual(last.action, action);
    const out = h.act(action, { seed: last.seed });
    assert.deepEqual(next.state, h.state, `${system}: stored state = the engine's for ${JSON.stringify(action)} with seed ${last.seed}`);
    assert.deepEqual(last.events, out.events);
    // Every client shows the last result (the GM's page when the player acted, and the other way round).
    for (const c of ["gm", "p1"]) {
      await frame(page, c).waitForFunction(
        ([by, seed, n]) => {
          const el = document.querySelector("#last");
          return el && !el.hidden && el.dataset.by === by && el.dataset.seed === seed && el.querySelectorAll(".ev").length === n;
        },
        [who, String(last.seed), last.events.length],
        { timeout: LIVENESS },
      );
    }
    return who;
  } finally {
    h.free();
  }
}

const first = (legal, pred) => legal.findIndex((x) => pred(x.action));

/**
 * The listing p1's page gets: the core's listing for p1's viewer (World Trigger: what
 * p1's team may know, WT-ST-1; the other engines hide nothing).
 */
function playerListing(system, legal, state) {
  if (system !== "world_trigger") return legal;
  const me = state.members.find((m) => m.id === "p1-a");
  if (!me) return legal;
  return gunbai.worldTrigger.battleLegalActions({ state, viewer: state.teams[me.team].id }).actions;
}
/** Per ruleset: the choice at each step of one round, and when the round is over. */
const CYCLES = {
  world_trigger: {
    // Initiative, then each team passes in the tactics, movement and attack phases.
    pick: (legal) => first(legal, (a) => a.type === "roll_initiative" || a.type === "pass"),
    done: (st) => st.round === 2,
  },
  tmd: {
    // Delays end; in each turn the player's character converts once, then every turn ends.
    pick: (legal, st) => {
      if (st.phase === "delays") return first(legal, (a) => a.type === "start_turns");
      const c = st.characters.find((x) => x.id === st.current);
      if (st.current === "p1-a" && !Object.values(c.held || {}).some((v) => v > 0)) {
        const i = first(legal, (a) => a.type === "convert" && a.actor === st.current);
        if (i >= 0) return i;
      }
      return first(legal, (a) => a.type === "end_turn" && a.actor === st.current);
    },
    done: (st) => st.round === 2 && st.phase === "delays",
  },
  coc_ap: {
    // Each in DEX order attacks once and ends the turn; then the next round.
    pick: (legal, st) => {
      if (st.turn == null) return first(legal, (a) => a.type === "next_round");
      const cur = st.order[st.turn];
      const f = st.fighters.find((x) => x.participant.id === cur);
      const atk = first(legal, (a) => a.type === "attack" && a.actor === cur);
      if (!Object.keys(f.attacks || {}).length && atk >= 0) return atk;
      return first(legal, (a) => a.type === "end_turn" && a.actor === cur);
    },
    done: (st) => st.round === 2,
  },
  coc7_house: {
    // Each in DEX order takes their active action and ends the turn; then the next round.
    pick: (legal, st) => {
      if (st.turn == null) return first(legal, (a) => a.type === "next_round");
      const cur = st.order[st.turn];
      const c = st.combatants.find((x) => x.entry.id === cur);
      if (!c.active_used) return first(legal, (a) => a.type === "active" && a.actor === cur && !a.concentration);
      return first(legal, (a) => a.type === "end_turn" && a.actor === cur);
    },
    done: (st) => st.round === 2,
  },
  fap_map: {
    // Everyone declares a Move, the GM ends the declarations, each resolves in order, the round ends.
    pick: (legal, st) => {
      if (st.phase === "declaration") {
        const c = st.combatants.find((x) => !(x.declared || []).length);
        if (c) return first(legal, (a) => a.type === "declare" && a.actor === c.id && a.declaration.action === "move" && !a.declaration.follow);
        return first(legal, (a) => a.type === "end_declarations");
      }
      const r = first(legal, (a) => a.type === "resolve");
      return r >= 0 ? r : first(legal, (a) => a.type === "end_round");
    },
    done: (st) => st.round === 2,
  },
};

/** Whose turn it is now, as each engine's state says (null when nobody's). */
function currentOf(system, st) {
  if (system === "tmd") return st.current ?? null;
  if (system === "fap_map") return gunbai.fapMap.roundLegalActions({ state: st }).current ?? null;
  if (system === "world_trigger") return undefined; // a team acts: not checked on the badges
  if (st.fugitive) return null; // a chase: nobody's turn
  return st.turn == null ? null : st.order[st.turn];
}
/** What each combatant's badge must show, read from the state. */
function badgeValues(system, st) {
  if (system === "world_trigger") return Object.fromEntries(st.members.map((m) => [m.id, `Trion ${m.trion}/${m.starting_trion}`]));
  if (system === "tmd") return Object.fromEntries(st.characters.map((c) => [c.id, `AP ${c.base_ap + c.extra_ap}`]));
  if (system === "coc_ap") return Object.fromEntries(st.fighters.map((f) => [f.participant.id, `AP ${f.ap}`]));
  if (st.fugitive) return { [st.fugitive.id]: ` · ${st.gap}/${st.escape_gap}`, ...(st.pursuer ? { [st.pursuer.id]: ` · ${st.gap}` } : {}) };
  if (system === "coc7_house") return Object.fromEntries(st.combatants.map((c) => [c.entry.id, `P${c.passive_used ?? 0}`]));
  return Object.fromEntries(st.combatants.map((c) => [c.id, `FAP ${c.fap_tenths / 10} MAP ${c.map_tenths / 10}`]));
}

async function checkBadges(page, system) {
  const st = (await record(page)).state;
  const want = badgeValues(system, st);
  const cur = currentOf(system, st);
  await page.waitForFunction(
    ([k, want]) => Object.entries(want).every(([id, v]) => harness.scene.items.some((i) => i.attachedTo === id && i.metadata?.[k] && i.text?.plainText.includes(v))),
    [BADGE_KEY, want],
    { timeout: LIVENESS },
  );
  for (const id of Object.keys(want)) {
    const labels = await page.evaluate(([id, k]) => harness.attachments(id).filter((i) => i.metadata?.[k]), [id, BADGE_KEY]);
    assert.equal(labels.length, 1, `${system}: one badge on ${id}`);
    assert.equal(labels[0].type, "LABEL");
    if (cur !== undefined) assert.equal(labels[0].text.plainText.startsWith("▶"), id === cur, `${system}: turn marker on ${id}: ${labels[0].text.plainText}`);
  }
}

/** The rulebook's language of each ruleset (its seed), for the first screenshot. */
const BOOK_LANG = { world_trigger: "zh-Hant", tmd: "zh-Hant", coc_ap: "ja", coc7_house: "ja", fap_map: "ja" };

for (const system of SYSTEMS) {
  test(`${system}: the GM and a player add their tokens, and play a whole round through the engine (${BOOK_LANG[system]} and en)`, async () => {
    const lang = BOOK_LANG[system];
    const page = await openRoom({ items: sceneItems(system), clients: [{ id: "gm", role: "GM", name: "GM", lang }, { id: "p1", role: "PLAYER", name: "Pat", lang }] });
    await addFromContextMenu(page);
    // The GM picks the ruleset: both clients load it.
    await frame(page, "gm").selectOption("#system", system);
    for (const c of ["gm", "p1"]) await frame(page, c).waitForSelector(`body[data-loaded="${system}"]`, { timeout: LIVENESS });
    assert.equal(await frame(page, "p1").isDisabled("#system"), true, "only the GM picks the ruleset");
    assert.equal(await frame(page, "p1").isHidden("#start"), true);
    await frame(page, "gm").waitForSelector("#tokens tr[data-token='p1-a']");
    assert.equal(await frame(page, "gm").$$eval("#tokens tr[data-token]", (rs) => rs.length), 3, "the three combatants, not the prop");
    await frame(page, "gm").click("#start");
    for (const c of ["gm", "p1"]) await frame(page, c).waitForSelector("#encounter:not([hidden])", { timeout: LIVENESS });
    const start = await record(page);
    assert.equal(start.system, system);
    if (system === "coc7_house") {
      // PC or NPC from the owner's role: the player's token is a PC, the GM's are NPCs
      const pcs = Object.fromEntries(start.state.combatants.map((c) => [c.entry.id, c.entry.is_pc]));
      assert.deepEqual(pcs, { "gm-a": false, "p1-a": true, "gm-b": false });
    }
    const cycle = CYCLES[system];
    const by = { gm: 0, p1: 0 };
    for (let n = 0; n < 40 && !cycle.done((await record(page)).state); n++) by[await step(page, system, cycle.pick)]++;
    const end = await record(page);
    assert.ok(cycle.done(end.state), `${system}: the round is over after ${end.log.length} log entries`);
    assert.ok(by.p1 > 0 && by.gm > 0, `${system}: both acted (${JSON.stringify(by)})`);
    await checkBadges(page, system);
    // Both pages show the encounter in the page's language: sentences with names, no raw ids.
    assert.equal(await frame(page, "p1").getAttribute("html", "lang"), lang);
    for (const c of ["gm", "p1"]) assert.equal(await frame(page, c).textContent("#error"), "", `${system}: no error on ${c}'s page`);
    for (const c of ["gm", "p1"]) {
      const text = await frame(page, c).evaluate(() => ["#phase", "#turn", "#acting", "#order", "#wt-teams", "#wt-members", "#last", "#actions", "#log"].map((s) => document.querySelector(s)?.innerText ?? "").join("\n"));
      assert.deepEqual(rawIds(text, lang), [], `${system} ${c} (${lang}): ${text.slice(0, 2000)}`);
    }
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.blocked, []);
    assert.deepEqual(await page.evaluate(() => harness.unknown), [], "every SDK message was one the harness plays");
    await screenshot(page, join(SHOTS, `${system}-${lang}.png`));
    for (const c of ["gm", "p1"]) await page.evaluate(([c]) => harness.reloadPopover(c, "en"), [c]);
    for (const c of ["gm", "p1"]) {
      await ready(page, c, ["popover"]);
      await frame(page, c).waitForSelector("#encounter:not([hidden])");
      assert.equal(await frame(page, c).getAttribute("html", "lang"), "en");
    }
    await screenshot(page, join(SHOTS, `${system}-en.png`));
    await page.context().close();
  });
}

test("who may act: a player only on their own tokens' combatants, when the GM allows it; forged requests are refused by the GM's client", async () => {
  // p1 created p1-a; gm-b is the GM's token assigned to p1 in its metadata.
  const items = sceneItems("coc_ap", { combatant: true, extra: { "gm-b": { owner: "p1" } } });
  const page = await openRoom({ items, metadata: { [SETTINGS_KEY]: { system: "coc_ap", players_act: false } }, clients: [{ id: "gm", role: "GM", name: "GM" }, { id: "p1", role: "PLAYER", name: "Pat" }] });
  await frame(page, "gm").click("#start");
  await frame(page, "p1").waitForSelector("#encounter:not([hidden])");
  const rec = await record(page);
  const legal = gunbai.cocAp.roundLegalActions({ state: rec.state }).actions;
  // Off: no button of the player's is enabled, and a request is refused.
  assert.equal(await frame(page, "p1").$$eval("#actions button[data-i]:not([disabled])", (b) => b.length), 0);
  // A request names the action by its index in the player's listing (the round modes
  // hide nothing: the engine's whole listing) at the stored step (`at`: its last seed).
  const at = String(rec.log.at(-1).seed);
  const indexOf = (l, pred) => l.findIndex((x) => pred(x.action));
  const ownIndex = indexOf(legal, (a) => a.actor === "p1-a");
  const own = legal[ownIndex].action;
  await forge(page, "p1", { rid: "r-off", at, index: ownIndex });
  assert.equal((await answer(page, "r-off")).data.code, "players_off");
  // On: the player's buttons are exactly those of p1-a (created) and gm-b (assigned).
  await frame(page, "gm").check("#players-act");
  await frame(page, "p1").waitForFunction(() => document.querySelector("#actions button[data-i]:not([disabled])"));
  const on = await frame(page, "p1").$$eval("#actions button[data-i]", (bs) => bs.filter((b) => !b.disabled).map((b) => b.dataset.actor));
  assert.deepEqual([...new Set(on)].sort(), ["gm-b", "p1-a"]);
  const raw = JSON.stringify(await rawEntry(page));
  // A request for the GM's own token's combatant, claiming to come from the GM (and
  // naming the action): the sender is its connection's player, the action the index's.
  const theirs = indexOf(legal, (a) => a.actor === "gm-a");
  await forge(page, "p1", { rid: "r-theirs", at, index: theirs, action: own, from: "gm", userId: "gm" });
  assert.equal((await answer(page, "r-theirs")).data.code, "not_owner");
  // A GM action (naming nobody).
  const next = indexOf(legal, (a) => !a.actor);
  if (next >= 0) {
    await forge(page, "p1", { rid: "r-gm", at, index: next });
    assert.equal((await answer(page, "r-gm")).data.code, "gm_action");
  }
  // No action at that index, or a step that is not the stored one.
  await forge(page, "p1", { rid: "r-illegal", at, index: legal.length + 5 });
  assert.equal((await answer(page, "r-illegal")).data.code, "illegal_action");
  await forge(page, "p1", { rid: "r-stale", at: "1", index: ownIndex });
  assert.equal((await answer(page, "r-stale")).data.code, "illegal_action");
  assert.equal(JSON.stringify(await rawEntry(page)), raw, "refused requests change nothing");
  // A "result" or an answer forged by a player is shown by no client (only a GM's client's count).
  const lastBefore = await frame(page, "gm").evaluate(() => document.querySelector("#last").innerText);
  const ref = await page.evaluate(() => harness.refs("p1").popover);
  await frame(page, "p1").evaluate(
    ([ref, channel]) =>
      window.parent.postMessage({ id: "OBR_BROADCAST_SEND_MESSAGE", data: { channel, data: { kind: "result", system: "coc_ap", by: "gm", entry: { seed: 1, action: { type: "next_round" }, events: [] } }, options: { destination: "REMOTE" } }, ref, nonce: "_fake" }, location.origin),
    [ref, RESULT],
  );
  await page.waitForFunction((ch) => harness.broadcasts.some((b) => b.channel === ch && b.from === "p1"), RESULT);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await frame(page, "gm").evaluate(() => document.querySelector("#last").innerText), lastBefore);
  assert.notEqual(await frame(page, "gm").getAttribute("#last", "data-seed"), "1");
  // Their own, legal: applied by the GM's client and stored.
  await forge(page, "p1", { rid: "r-ok", at, index: ownIndex });
  assert.equal((await answer(page, "r-ok")).data.kind, "done");
  const after = await record(page);
  assert.deepEqual(after.log.at(-1).action, own);
  // The assigned token: the player's click goes through as a request too.
  const assigned = await frame(page, "p1").$eval("#actions button[data-actor='gm-b']:not([disabled])", (b) => Number(b.dataset.i));
  const legal2 = gunbai.cocAp.roundLegalActions({ state: after.state }).actions;
  const before2 = JSON.stringify(await rawEntry(page));
  await frame(page, "p1").click(`#actions button[data-i="${assigned}"]`);
  await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k]) !== b, [KEY, before2]);
  assert.deepEqual((await record(page)).log.at(-1).action, legal2[assigned].action);
  // The GM assigns Akane (the GM's token) to the player: her buttons become the player's.
  assert.equal(await frame(page, "gm").isHidden("#owners"), false);
  assert.equal(await frame(page, "p1").isHidden("#owners"), true, "only the GM assigns tokens");
  await frame(page, "gm").click("#owners summary");
  await frame(page, "gm").selectOption("#owners-table tr[data-token='gm-a'] select.owner", "p1");
  await page.waitForFunction((k) => harness.scene.items.find((i) => i.id === "gm-a").metadata[k].owner === "p1", KEY);
  await frame(page, "p1").waitForFunction(() => !document.querySelector("#actions button[data-actor='gm-a']").disabled);
  // … and back to its creator.
  await frame(page, "gm").selectOption("#owners-table tr[data-token='gm-a'] select.owner", "");
  await page.waitForFunction((k) => !("owner" in harness.scene.items.find((i) => i.id === "gm-a").metadata[k]), KEY);
  await frame(page, "p1").waitForFunction(() => document.querySelector("#actions button[data-actor='gm-a']").disabled);
  // Owlbear makes the player a GM (OBR.player.onChange): every button is theirs.
  await page.evaluate(() => harness.setRole("p1", "GM"));
  await frame(page, "p1").waitForFunction(() => document.body.dataset.role === "GM" && ![...document.querySelectorAll("#actions button[data-i]")].some((b) => b.disabled));
  await page.evaluate(() => harness.setRole("p1", "PLAYER"));
  await frame(page, "p1").waitForFunction(() => document.body.dataset.role === "PLAYER" && document.querySelector("#actions button[data-actor='gm-a']").disabled);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---------- a fight: an attack, the defender's reaction on its own page, damage ----------

const CLUB = { ja: "棍棒", zh_hans: "棍棒", zh_hant: "棍棒", en: "Club" };
const KNIFE = { ja: "ナイフ", zh_hans: "小刀", zh_hant: "小刀", en: "Knife" };
const TEXT_KEY = { ja: "ja", "zh-Hans": "zh_hans", "zh-Hant": "zh_hant", en: "en" };
const TOKEN_NAMES = { "gm-a": "Akane", "p1-a": "Bolt", "gm-b": "Crow" };
/** An engine sentence as a page in `lang` shows it: the ids as names. */
function shownAs(text, lang) {
  const k = TEXT_KEY[lang];
  let s = text[k];
  for (const [id, name] of Object.entries({ ...TOKEN_NAMES, club: CLUB[k], knife: KNIFE[k] })) s = s.replace(new RegExp(`(?<![A-Za-z0-9_])${id}(?![A-Za-z0-9_])`, "g"), name);
  return s;
}

test("CoC 7th house fight: the GM's token attacks the player's; the player reacts on their own page; both pages show the sentence and the HP (C7H-ACT-1, C7H-PAS-1)", async () => {
  // HP, armour, weapons and sides from the tokens' metadata (`stats`, `side`)
  const extra = {
    "gm-a": { side: "cult", stats: { dex: 70, hp: 10, armor: 1, weapons: [{ id: "club", label: CLUB, skill: 60, damage: "1d6" }] } },
    "p1-a": { side: "investigators", stats: { dex: 55, hp: 12, dodge: 45, weapons: [{ id: "knife", label: KNIFE, skill: 45, damage: "1d4" }] } },
    "gm-b": { side: "cult", stats: { dex: 40, hp: 9, weapons: [{ id: "club", label: CLUB, skill: 50, damage: "1d6" }] } },
  };
  const langs = { gm: "ja", p1: "en" };
  const items = sceneItems("coc7_house", { combatant: true, extra });
  const page = await openRoom({ items, metadata: { [SETTINGS_KEY]: { system: "coc7_house", players_act: true } }, clients: [{ id: "gm", role: "GM", name: "GM", lang: langs.gm }, { id: "p1", role: "PLAYER", name: "Pat", lang: langs.p1 }] });
  await frame(page, "gm").waitForSelector("#tokens tr[data-token='p1-a']");
  await frame(page, "gm").click("#start");
  for (const c of ["gm", "p1"]) await frame(page, c).waitForSelector("#encounter:not([hidden])", { timeout: LIVENESS });
  const hpCell = (c, id) => frame(page, c).evaluate((id) => document.querySelector(`#order tr[data-character="${id}"] .hp`)?.textContent ?? null, id);
  const start = await record(page);
  for (const c of ["gm", "p1"]) {
    await frame(page, c).waitForFunction((s) => document.querySelector("#encounter")?.dataset.seed === s, String(start.log.at(-1).seed), { timeout: LIVENESS });
    for (const [id, hp] of [["gm-a", 10], ["p1-a", 12], ["gm-b", 9]]) assert.equal(await hpCell(c, id), `${hp}/${hp}`, `${c}: ${id}'s HP`);
  }
  // The GM's Akane attacks Bolt with the club: a button labelled with names (ja)
  const atk = await frame(page, "gm").$$eval("#actions button[data-kind='attack'][data-actor='gm-a'][data-target='p1-a']", (bs) => bs.map((b) => ({ i: b.dataset.i, label: b.textContent })));
  assert.equal(atk.length, 1);
  assert.ok(atk[0].label.includes("Bolt") && atk[0].label.includes("棍棒"), atk[0].label);
  assert.deepEqual(rawIds(atk[0].label, "ja"), [], atk[0].label);
  let raw = JSON.stringify(await rawEntry(page));
  await frame(page, "gm").click(`#actions button[data-i="${atk[0].i}"]`);
  await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k] ?? null) !== b, [KEY, raw], { timeout: LIVENESS });
  const declared = await record(page);
  assert.equal(declared.state.pending.target, "p1-a");
  // The reaction stage is Bolt's: the player's page says so and offers Bolt's reactions only
  await frame(page, "p1").waitForSelector("#turn[data-stage='reaction'][data-target='p1-a'][data-mine='true']", { timeout: LIVENESS });
  await frame(page, "gm").waitForSelector("#turn[data-stage='reaction'][data-target='p1-a']", { timeout: LIVENESS });
  const offered = await frame(page, "p1").$$eval("#actions button[data-i]", (bs) => bs.map((b) => ({ i: b.dataset.i, actor: b.dataset.actor, kind: b.dataset.kind, option: b.dataset.option, on: !b.disabled, label: b.textContent })));
  assert.ok(offered.length > 0 && offered.every((b) => b.actor === "p1-a" && b.kind === "reaction" && b.on), JSON.stringify(offered));
  for (const b of offered) assert.deepEqual(rawIds(b.label, "en"), [], b.label);
  const dodge = offered.find((b) => b.option === "dodge");
  assert.ok(dodge, JSON.stringify(offered.map((b) => b.label)));
  raw = JSON.stringify(await rawEntry(page));
  await frame(page, "p1").click(`#actions button[data-i="${dodge.i}"]`);
  await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k] ?? null) !== b, [KEY, raw], { timeout: LIVENESS });
  const after = await record(page);
  const last = after.log.at(-1);
  assert.equal(last.action.type, "reaction");
  assert.equal(last.action.actor, "p1-a");
  assert.equal(after.state.pending ?? null, null, "the exchange is resolved");
  // the stored state is the engine's for that action and seed
  const h = gunbai.coc7House.Round.fromJSON(declared.state);
  const out = h.act(last.action, { seed: last.seed });
  assert.deepEqual(after.state, h.state);
  assert.deepEqual(last.events, out.events);
  h.free();
  const resolved = last.events.find((e) => e.event === "attack_resolved");
  assert.ok(resolved && resolved.rule && resolved.text, JSON.stringify(last.events));
  // both pages show the sentence in their own language (the log and the last result), and the same HP
  for (const c of ["gm", "p1"]) {
    await frame(page, c).waitForFunction((s) => document.querySelector("#encounter")?.dataset.seed === s, String(last.seed), { timeout: LIVENESS });
    const want = shownAs(resolved.text, langs[c]);
    const log = await frame(page, c).evaluate(() => [...document.querySelectorAll("#log li")].at(-1)?.innerText ?? "");
    assert.ok(log.includes(want), `${c} log: ${log} ∌ ${want}`);
    await frame(page, c).waitForFunction((w) => document.querySelector("#last")?.innerText.includes(w), want, { timeout: LIVENESS });
    for (const cb of after.state.combatants) assert.equal(await hpCell(c, cb.entry.id), `${cb.hp}/${cb.hp_max}`, `${c}: ${cb.entry.id}'s HP`);
    const text = await frame(page, c).evaluate(() => ["#turn", "#order", "#last", "#actions", "#log"].map((s) => document.querySelector(s)?.innerText ?? "").join("\n"));
    assert.deepEqual(rawIds(text, langs[c]), [], `${c}: ${text.slice(0, 1500)}`);
  }
  if (resolved.hurt) assert.equal((await hpCell("p1", resolved.hurt)).split("/")[0], String(resolved.hp));
  assert.deepEqual(page.errors, []);
  await screenshot(page, join(SHOTS, "coc7_house-fight.png"));
  await page.context().close();
});

test("CoC 6th fight: the GM's token attacks the player's; the player dodges on their own page; both pages show the sentences and the HP (COCAP-ACT-2)", async () => {
  const extra = {
    "gm-a": { side: "cult", stats: { dex: 16, dodge: 20, weapon: 50, hp_max: 10, weapons: [{ name: "club", label: CLUB, skill: 95, damage: "1d6" }] } },
    "p1-a": { side: "investigators", stats: { dex: 12, dodge: 45, weapon: 50, hp_max: 12, weapons: [{ name: "knife", label: KNIFE, skill: 45, damage: "1d4" }] } },
    "gm-b": { side: "cult", stats: { dex: 9, dodge: 20, weapon: 45, hp_max: 9 } },
  };
  const langs = { gm: "ja", p1: "en" };
  const page = await openRoom({ items: sceneItems("coc_ap", { combatant: true, extra }), metadata: { [SETTINGS_KEY]: { system: "coc_ap", players_act: true } }, clients: [{ id: "gm", role: "GM", name: "GM", lang: langs.gm }, { id: "p1", role: "PLAYER", name: "Pat", lang: langs.p1 }] });
  await frame(page, "gm").waitForSelector("#tokens tr[data-token='p1-a']");
  await frame(page, "gm").click("#start");
  for (const c of ["gm", "p1"]) await frame(page, c).waitForSelector("#encounter:not([hidden])", { timeout: LIVENESS });
  const hpCell = (c, id) => frame(page, c).evaluate((id) => document.querySelector(`#order tr[data-character="${id}"] .hp`)?.textContent ?? null, id);
  /** The GM clicks the button `sel` and the stored record changes. */
  const gmClick = async (sel) => {
    const raw = JSON.stringify(await rawEntry(page));
    await frame(page, "gm").click(sel, { timeout: LIVENESS });
    await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k] ?? null) !== b, [KEY, raw], { timeout: LIVENESS });
    return record(page);
  };
  let rec = await record(page);
  for (let tries = 0; !rec.state.pending; tries++) {
    assert.ok(tries < 30, "the attack hit");
    const s = rec.state;
    const cur = s.turn == null ? null : s.order[s.turn];
    const attacked = s.fighters.find((f) => f.participant.id === "gm-a").attacks?.club;
    if (cur === "gm-a" && !attacked) {
      const label = await frame(page, "gm").textContent("#actions button[data-kind='attack'][data-actor='gm-a'][data-target='p1-a']");
      assert.ok(label.includes("Bolt") && label.includes("棍棒"), label);
      rec = await gmClick("#actions button[data-kind='attack'][data-actor='gm-a'][data-target='p1-a']");
    } else rec = await gmClick(cur ? `#actions button[data-kind='end_turn'][data-actor='${cur}']` : "#actions button[data-kind='next_round']");
  }
  // p1's page offers Bolt's answers only, and says Bolt is attacked
  await frame(page, "p1").waitForSelector("#turn[data-stage='reaction'][data-target='p1-a'][data-mine='true']", { timeout: LIVENESS });
  const offered = await frame(page, "p1").$$eval("#actions button[data-i]", (bs) => bs.map((b) => ({ i: b.dataset.i, actor: b.dataset.actor, kind: b.dataset.kind, on: !b.disabled, label: b.textContent })));
  assert.ok(offered.every((b) => b.actor === "p1-a" && b.on), JSON.stringify(offered));
  for (const b of offered) assert.deepEqual(rawIds(b.label, "en"), [], b.label);
  const dodge = offered.find((b) => b.kind === "dodge");
  assert.ok(dodge, JSON.stringify(offered.map((b) => b.label)));
  const raw = JSON.stringify(await rawEntry(page));
  await frame(page, "p1").click(`#actions button[data-i="${dodge.i}"]`);
  await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k] ?? null) !== b, [KEY, raw], { timeout: LIVENESS });
  const after = await record(page);
  const last = after.log.at(-1);
  assert.deepEqual(last.action, { type: "dodge", actor: "p1-a" });
  const h = gunbai.cocAp.Round.fromJSON(rec.state);
  assert.deepEqual(h.act(last.action, { seed: last.seed }).events, last.events, "the engine's events for that answer and seed");
  h.free();
  for (const c of ["gm", "p1"]) {
    await frame(page, c).waitForFunction((s) => document.querySelector("#encounter")?.dataset.seed === s, String(last.seed), { timeout: LIVENESS });
    const log = await frame(page, c).evaluate(() => [...document.querySelectorAll("#log li")].at(-1)?.innerText ?? "");
    for (const e of last.events) {
      assert.ok(e.rule && e.text, JSON.stringify(e));
      const want = shownAs(e.text, langs[c]);
      assert.ok(log.includes(want), `${c} log: ${log} ∌ ${want}`);
    }
    for (const f of after.state.fighters) assert.equal(await hpCell(c, f.participant.id), `${f.participant.hp ?? f.participant.hp_max}/${f.participant.hp_max}`, `${c}: ${f.participant.id}'s HP`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("with the GM's popover closed, the GM's background page applies a player's request and sends the views", async () => {
  const items = sceneItems("coc_ap", { combatant: true });
  const page = await openRoom({ items, metadata: { [SETTINGS_KEY]: { system: "coc_ap", players_act: true } }, clients: [{ id: "gm", role: "GM", name: "GM" }, { id: "p1", role: "PLAYER", name: "Pat" }] });
  await frame(page, "gm").click("#start");
  await frame(page, "p1").waitForSelector("#encounter:not([hidden])");
  const rec = await record(page);
  // The GM closes the popover; Owlbear keeps the background page.
  await page.evaluate(() => harness.closePopover("gm"));
  await new Promise((r) => setTimeout(r, 3000));
  const legal = gunbai.cocAp.roundLegalActions({ state: rec.state }).actions;
  const i = legal.findIndex((x) => x.action.actor === "p1-a" && x.action.type === "dodge_focus");
  assert.ok(i >= 0);
  const raw = JSON.stringify(await rawEntry(page));
  await frame(page, "p1").click(`#actions button[data-i="${i}"]:not([disabled])`);
  await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k] ?? null) !== b, [KEY, raw], { timeout: LIVENESS });
  const after = await record(page);
  assert.deepEqual(after.log.at(-1).action, legal[i].action);
  const h = gunbai.cocAp.Round.fromJSON(rec.state);
  h.act(legal[i].action, { seed: after.log.at(-1).seed });
  assert.deepEqual(after.state, h.state, "the stored state is the engine's for that action and seed");
  h.free();
  // the player's page shows the new step (its view came from the background page), with no timeout message
  await frame(page, "p1").waitForFunction((s) => document.querySelector("#encounter")?.dataset.seed === s, String(after.log.at(-1).seed), { timeout: LIVENESS });
  assert.equal(await frame(page, "p1").getAttribute("#request-status", "data-code"), "done");
  // The GM opens the popover again: it shows that step, and takes the requests again.
  await page.evaluate(() => harness.reloadPopover("gm"));
  await ready(page, "gm", ["popover"]);
  await frame(page, "gm").waitForFunction((s) => document.querySelector("#encounter")?.dataset.seed === s, String(after.log.at(-1).seed), { timeout: LIVENESS });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("outside Owlbear Rodeo the page says so in its language (no blank page, no wasm fetched)", async () => {
  for (const [lang, script] of [["ja", /[\u3040-\u30ff]/], ["zh-Hant", /擴充/], ["zh-Hans", /扩展/], ["en", /extension/]]) {
    const page = await newPage(browser, { viewport: { width: 420, height: 400 } });
    const from = server.requests.length;
    await page.goto(`${server.url}index.html?lang=${lang}`);
    await page.waitForSelector("body[data-ready='unavailable']", { timeout: LIVENESS });
    const text = await page.textContent("#unavailable");
    assert.ok(await page.isVisible("#unavailable"));
    assert.match(text, /Owlbear Rodeo/);
    assert.match(text, script, `${lang}: ${text}`);
    assert.equal(await page.getAttribute("html", "lang"), lang);
    assert.equal(await page.isVisible("#setup"), false);
    assert.deepEqual(server.requests.slice(from).filter((p) => p.endsWith(".wasm")), []);
    assert.deepEqual(page.errors, []);
    if (lang === "ja") await screenshot(page, join(SHOTS, "outside-owlbear-ja.png"));
    await page.context().close();
  }
});

const sha = (buf) => createHash("sha256").update(buf).digest("hex");
test("only the scene's ruleset is loaded: one wasm, that entry's (network requests)", async () => {
  for (const system of SYSTEMS) {
    const from = server.requests.length;
    const page = await openRoom({ items: sceneItems(system, { combatant: true }), metadata: { [SETTINGS_KEY]: { system } }, clients: [{ id: "gm", role: "GM" }, { id: "p1", role: "PLAYER" }] });
    for (const c of ["gm", "p1"]) await frame(page, c).waitForSelector(`body[data-loaded="${system}"]`, { timeout: LIVENESS });
    const wasm = [...new Set(server.requests.slice(from).filter((p) => p.endsWith(".wasm")))];
    assert.equal(wasm.length, 1, `${system}: ${wasm.join(", ")}`);
    const want = sha(readFileSync(join(PKG, ENTRY_OF[system], "wasm", "gunbai_js_bg.wasm")));
    assert.equal(sha(readFileSync(join(DIST, wasm[0]))), want, `${system}: the wasm fetched is gunbai/${ENTRY_OF[system]}'s`);
    // No other entry's chunk either.
    const chunks = server.requests.slice(from).filter((p) => /\/assets\/(world-trigger|tmd|coc6|coc7|fap-map)-[^/]*\.js$/.test(p));
    // (A chunk is `<entry>-<hash>.js`, and a hash may itself hold a "-".)
    const entryOf = (p) => p.match(/\/assets\/(world-trigger|tmd|coc6|coc7|fap-map)-[^/]*\.js$/)[1];
    assert.deepEqual([...new Set(chunks.map(entryOf))], [ENTRY_OF[system]]);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

/** What of Akane's square and route reached Red's client (set by the Stealth test). */
let stealthLeaks = null;

// Hidden information (WT-ST-1, WT-MAP-7): a member in Stealth has no square for
// the other team. The page routes what a player's page shows through viewFor()
// (the core's view); p1 plays Red, p2 is given Crow (Blue).
test("World Trigger: a Stealth member's position is absent from the other team's view", async () => {
  const page = await openRoom({
    items: sceneItems("world_trigger", { combatant: true, extra: { "gm-b": { owner: "p2" } } }),
    metadata: { [SETTINGS_KEY]: { system: "world_trigger", players_act: true } },
    clients: [{ id: "gm", role: "GM" }, { id: "p1", role: "PLAYER" }, { id: "p2", role: "PLAYER" }],
  });
  // Akane (Blue) gets a sample sheet with Bagworm.
  await frame(page, "gm").selectOption('#tokens tr[data-token="gm-a"] .sheet', "attacker_kogetsu");
  await frame(page, "gm").click("#start");
  await frame(page, "p1").waitForSelector("#encounter:not([hidden])");
  // Akane plays Bagworm as soon as she can; everyone else passes.
  let hidden = null;
  for (let n = 0; n < 30 && !hidden; n++) {
    await step(page, "world_trigger", (legal) => {
      const bag = first(legal, (a) => a.type === "use_skill" && /bagworm/i.test(a.skill) && a.actor === "gm-a");
      return bag >= 0 ? bag : first(legal, (a) => a.type === "roll_initiative" || a.type === "pass");
    });
    hidden = (await record(page)).state.members.find((m) => m.states?.stealth && m.id === "gm-a")?.id ?? null;
  }
  assert.ok(hidden, "Akane went into Stealth");
  // (what Red receives from here on is checked below: before, her square was Red's to see)
  const since = await page.evaluate(() => ({ p1: harness.received.p1.length, p2: harness.received.p2.length }));
  const atText = (c) => frame(page, c).textContent(`#wt-members tr[data-member="${hidden}"] .at`).then((x) => x.trim());
  const seq = String((await record(page)).log.at(-1).seed);
  for (const c of ["gm", "p1", "p2"]) await frame(page, c).waitForFunction((s) => document.querySelector("#encounter")?.dataset.seed === s, seq);
  assert.equal(await atText("p1"), "—", "Red does not see the square");
  assert.notEqual(await atText("gm"), "—", "the GM does");
  assert.notEqual(await atText("p2"), "—", "Blue does");
  // her token is hidden from the players (Owlbear shows a hidden item to the GM only)
  await page.waitForFunction((id) => harness.scene.items.find((i) => i.id === id).visible === false, hidden);

  // On to the movement phase; Blue moves Akane, in Stealth, staying 4 squares from Red (WT-ST-1 item 1).
  const d = (a, b) => Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
  let rec = await record(page);
  let move = -1;
  for (let n = 0; n < 20; n++) {
    rec = await record(page);
    const h = gunbai.worldTrigger.Battle.fromJSON(rec.state);
    const legal = h.legalActions();
    h.free();
    const me = rec.state.members.find((m) => m.id === hidden);
    const red = rec.state.members.filter((m) => m.team !== me.team).map((m) => m.at);
    move = first(legal, (a) => a.type === "move" && a.actor === hidden && d(a.path.at(-1), me.at) > 0 && red.every((r) => d(r, a.path.at(-1)) >= 4));
    if (move >= 0) break;
    await step(page, "world_trigger", (l) => first(l, (a) => a.type === "pass" || a.type === "roll_initiative"));
  }
  assert.ok(move >= 0, "Akane can move");
  const legalNow = gunbai.worldTrigger.battleLegalActions({ state: rec.state }).actions;
  const dest = legalNow[move].action.path.at(-1);
  const square = `(${dest.x}, ${dest.y})`;
  // Red is offered nothing of or against Akane; Blue's player sees her row
  for (const c of ["gm", "p1"]) await frame(page, c).waitForFunction((s) => document.querySelector("#encounter")?.dataset.seed === s, String(rec.log.at(-1).seed));
  assert.equal(await frame(page, "p1").locator(`#actions [data-actor="${hidden}"], #actions [data-target="${hidden}"]`).count(), 0, "Red's page lists nothing naming Akane");
  assert.ok((await frame(page, "gm").locator(`#actions [data-actor="${hidden}"]`).count()) > 0, "the GM's page lists Akane's actions");
  const tokenBefore = await page.evaluate((id) => harness.scene.items.find((i) => i.id === id).position, hidden);
  const raw = JSON.stringify(await rawEntry(page));
  await frame(page, "gm").selectOption(`#actions .dest select[data-actor="${hidden}"]`, String(move));
  await frame(page, "gm").click(`#actions .go[data-actor="${hidden}"]`);
  await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k]) !== b, [KEY, raw]);
  const after = await record(page);
  const me = after.state.members.find((m) => m.id === hidden);
  assert.deepEqual(me.at, dest);
  assert.ok(me.states.stealth, "still in Stealth");
  assert.ok(after.log.at(-1).hidden?.Red, "the log entry records what Red may not see");
  for (const c of ["gm", "p1", "p2"]) await frame(page, c).waitForFunction((s) => document.querySelector("#encounter")?.dataset.seed === s, String(after.log.at(-1).seed));
  // The move's square: in the GM's and Blue's log, nowhere Red is shown it (log, last result, members).
  for (const c of ["gm", "p2"]) assert.ok((await frame(page, c).textContent("#log")).includes(square), `${c} sees ${square}`);
  await frame(page, "p1").waitForFunction((s) => document.querySelector("#last")?.dataset.seed === s, String(after.log.at(-1).seed));
  for (const sel of ["#log", "#last", "#wt-members"]) {
    const text = await frame(page, "p1").textContent(sel);
    assert.ok(!text.includes(square), `${sel} on Red's page names ${square}: ${text}`);
  }
  assert.match(await frame(page, "p1").textContent("#log"), /square hidden/);
  assert.equal(await atText("p1"), "—");
  // Every message Red's frames received (scene metadata, items, broadcasts, answers):
  // none names Akane's square or route, nor do the views sealed for Red once opened
  // with Red's key. Blue's views, opened with Blue's key, do (so the check can fail).
  const received = await page.evaluate(() => harness.received);
  const secret = { id: hidden, name: "Akane", route: [rec.state.members.find((m) => m.id === hidden).at, ...legalNow[move].action.path] };
  const opened = (c) =>
    page.evaluate(
      ([c, all]) => Promise.all(all.map((s) => harness.openFor(c, "gm", s))),
      [c, received[c].slice(since[c]).filter((m) => m.id === `OBR_BROADCAST_MESSAGE_${VIEW}` && m.data?.data?.to === c).map((m) => m.data.data.sealed)],
    );
  const blue = await opened("p2");
  const red = await opened("p1");
  assert.ok(blue.length > 0 && red.length > 0, "both players were sent views");
  assert.ok(squareLeaks(blue, secret).length > 0, "Blue's views hold the route (the check sees it)");
  stealthLeaks = [...squareLeaks(received.p1.slice(since.p1), secret), ...squareLeaks(red, secret)];
  // the token stays where it was, hidden
  const token = await page.evaluate((id) => harness.scene.items.find((i) => i.id === id), hidden);
  assert.deepEqual(token.position, tokenBefore, "the hidden member's token is not moved to its square");
  assert.equal(token.visible, false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("seal.js: ECDH P-256 keys kept per player, AES-GCM with a fresh IV; only the two holders open a message, a changed one is refused", async () => {
  const seal = await import(join(REPO_ROOT, "examples", "owlbear-extension", "seal.js"));
  const kept = new Map();
  const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
  const [gm, red, blue] = await Promise.all(["gm", "red", "blue"].map((id) => seal.myKeys(id, storage)));
  assert.deepEqual((await seal.myKeys("gm", storage)).publicJwk, gm.publicJwk, "a player's pair is kept");
  assert.equal(gm.publicJwk.crv, "P-256");
  assert.equal(gm.publicJwk.d, undefined, "the published key has no private part");
  const forBlue = await seal.sharedKey(gm.privateKey, blue.publicJwk);
  const value = { member: "gm-a", at: { x: 3, y: 4 } };
  const box = await seal.seal(forBlue, value);
  assert.notEqual((await seal.seal(forBlue, value)).iv, box.iv, "a fresh IV per message");
  assert.deepEqual(await seal.open(await seal.sharedKey(blue.privateKey, gm.publicJwk), box), value, "Blue opens it");
  await assert.rejects(seal.open(await seal.sharedKey(red.privateKey, gm.publicJwk), box), "Red cannot");
  const data = Buffer.from(box.data, "base64");
  data[0] ^= 1;
  await assert.rejects(seal.open(forBlue, { iv: box.iv, data: data.toString("base64") }), "a changed message is refused");
});

// The state stays on the GM's client (sealed for it in the scene metadata); each
// player receives their view sealed for them; requests name an index.
test("World Trigger: no message Red's client receives names Akane's square or route, sealed or not", () => {
  assert.ok(stealthLeaks, "the Stealth test ran");
  assert.deepEqual(stealthLeaks, []);
});

test("manifest.json is an Owlbear Rodeo extension manifest with its popover and background pages (Vite copies public/)", () => {
  const m = JSON.parse(readFileSync(join(DIST, "manifest.json"), "utf8"));
  assert.equal(m.manifest_version, 1);
  assert.equal(m.action.popover, "/index.html");
  assert.equal(m.background_url, "/background.html");
  for (const f of [m.icon, m.action.icon, m.action.popover, m.background_url]) assert.ok(readFileSync(join(DIST, f)).length > 0, f);
});

test("World Trigger: a move puts the token on its member's square, undo takes it back, and a reloaded popover goes on", async () => {
  const page = await openRoom({
    items: sceneItems("world_trigger", { combatant: true }),
    metadata: { [SETTINGS_KEY]: { system: "world_trigger", players_act: true } },
    clients: [{ id: "gm", role: "GM", name: "GM" }, { id: "p1", role: "PLAYER", name: "Pat" }],
  });
  await frame(page, "gm").click("#start");
  await frame(page, "p1").waitForSelector("#encounter:not([hidden])");
  for (let n = 0; n < 12 && (await record(page)).state.phase !== "movement"; n++) {
    await step(page, "world_trigger", (legal) => first(legal, (a) => a.type === "roll_initiative" || a.type === "pass"));
  }
  const rec = await record(page);
  assert.equal(rec.state.phase, "movement");
  const h = gunbai.worldTrigger.Battle.fromJSON(rec.state);
  const legal = h.legalActions();
  const i = first(legal, (a) => a.type === "move");
  const { action } = legal[i];
  const who = OWNERS[action.actor] === "p1" ? "p1" : "gm";
  const tokenAt = (id) => page.evaluate((id) => harness.scene.items.find((x) => x.id === id).position, id);
  const before = await tokenAt(action.actor);
  // Moves are listed in a menu per member, applied with its button.
  await frame(page, who).selectOption(`#actions .dest select[data-actor="${action.actor}"]`, String(i));
  const raw = JSON.stringify(await rawEntry(page));
  await frame(page, who).click(`#actions .go[data-actor="${action.actor}"]`);
  await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k]) !== b, [KEY, raw]);
  const moved = await record(page);
  h.act(action, { seed: moved.log.at(-1).seed });
  assert.deepEqual(moved.state, h.state);
  h.free();
  // The GM's client puts the token on the centre of the member's square.
  const m = moved.state.members.find((x) => x.id === action.actor);
  const { dpi, origin } = moved.grid;
  const want = { x: (origin.col + m.at.x + 0.5) * dpi, y: (origin.row + m.at.y + 0.5) * dpi };
  await page.waitForFunction(([id, w]) => {
    const p = harness.scene.items.find((x) => x.id === id).position;
    return p.x === w.x && p.y === w.y;
  }, [action.actor, want]);
  // Undo (the GM's): the state before the move is stored and the token goes back.
  await frame(page, "gm").waitForSelector("#undo:not([disabled])");
  const raw2 = JSON.stringify(await rawEntry(page));
  await frame(page, "gm").click("#undo");
  await page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k]) !== b, [KEY, raw2]);
  assert.deepEqual((await record(page)).state, rec.state);
  await page.waitForFunction(([id, w]) => {
    const p = harness.scene.items.find((x) => x.id === id).position;
    return p.x === w.x && p.y === w.y;
  }, [action.actor, before]);
  // A reloaded popover reads the stored battle and goes on.
  await page.evaluate(() => harness.reloadPopover("gm"));
  await ready(page, "gm", ["popover"]);
  await frame(page, "gm").waitForSelector("#encounter:not([hidden])");
  await step(page, "world_trigger", (legal) => first(legal, (a) => a.type === "pass"));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a state that does not fit in what the scene's 16 kB leave is refused with a notification; nothing is stored", async () => {
  const other = { "another.extension/notes": "x".repeat(14000) };
  const page = await openRoom({ items: sceneItems("world_trigger", { combatant: true }), metadata: { ...other, [SETTINGS_KEY]: { system: "world_trigger" } }, clients: [{ id: "gm", role: "GM", name: "GM" }] });
  await frame(page, "gm").click("#start");
  await frame(page, "gm").waitForSelector("#error[data-code='too_large']");
  const notes = await page.evaluate(() => harness.notifications);
  assert.equal(notes.length, 1);
  assert.equal(notes[0].variant, "ERROR");
  assert.equal(await rawEntry(page), null);
  assert.equal(await page.evaluate(() => harness.scene.metadata["another.extension/notes"].length), 14000);
  assert.equal(await frame(page, "gm").isHidden("#encounter"), true);
  await page.context().close();
});

test("an illegal action shows the core's error and leaves the stored state unchanged (the GM's own click)", async () => {
  const page = await openRoom({ items: sceneItems("world_trigger", { combatant: true }), metadata: { [SETTINGS_KEY]: { system: "world_trigger" } }, clients: [{ id: "gm", role: "GM", name: "GM" }] });
  await frame(page, "gm").click("#start");
  await frame(page, "gm").waitForSelector("#encounter:not([hidden])");
  const raw = JSON.stringify(await rawEntry(page));
  // More tactics dice for the initiative roll than the pool holds (WT-TD-3).
  await frame(page, "gm").fill("#wt-teams .init-dice input[data-team='Blue']", "5");
  await frame(page, "gm").click("#actions button[data-type='roll_initiative']");
  await frame(page, "gm").waitForSelector("#error[data-code='illegal_action']");
  assert.match(await frame(page, "gm").textContent("#error"), /\[WT-TD-3\]/);
  assert.equal(JSON.stringify(await rawEntry(page)), raw);
  await page.context().close();
});

test("coc7_house chase: the GM sets a fugitive and a pursuer and plays chase rounds to the end (coc7House.Chase)", async () => {
  const items = sceneItems("coc7_house", { combatant: true, extra: { "gm-a": { stats: { mov: 8, dex: 60, skill: 55 } }, "p1-a": { stats: { mov: 9, dex: 50, skill: 45 } } } });
  // Scripted dice: the start draws 16, the rounds 17, 18, … (computed in Node: the chase
  // ends in 4 rounds, one of them failed by both sides, winner `neither`, C7H-ESC-6).
  const seeds = Array.from({ length: 40 }, (_, i) => 16 + i);
  const page = await openRoom({ items, seeds, metadata: { [SETTINGS_KEY]: { system: "coc7_house", players_act: true } }, clients: [{ id: "gm", role: "GM", name: "GM", lang: "ja" }, { id: "p1", role: "PLAYER", name: "Pat", lang: "ja" }] });
  await frame(page, "gm").selectOption("#round-kind", "chase");
  await frame(page, "gm").waitForSelector('#tokens tr[data-token="gm-a"] select.role');
  assert.equal(await frame(page, "gm").inputValue('#tokens tr[data-token="gm-a"] select.role'), "fugitive");
  assert.equal(await frame(page, "gm").inputValue('#tokens tr[data-token="p1-a"] select.role'), "pursuer");
  await frame(page, "gm").click("#start");
  await frame(page, "p1").waitForSelector("#encounter:not([hidden])");
  const start = await record(page);
  assert.equal(start.kind, "chase");
  const h = gunbai.coc7House.Chase.create({ fugitive: { id: "gm-a", mov: 8, dex: 60, skill: 55 }, pursuer: { id: "p1-a", mov: 9, dex: 50, skill: 45 } });
  assert.deepEqual(start.state, h.state, "the stored chase is chase_new's for the tokens' stats");
  h.free();
  let n = 0;
  for (; n < 30 && (await record(page)).state.status === "ongoing"; n++) assert.equal(await step(page, "coc7_house", (legal) => first(legal, (a) => a.type === "round")), "gm", "the GM plays the chase rounds");
  const end = await record(page);
  assert.notEqual(end.state.status, "ongoing", `the chase ended after ${n} rounds`);
  assert.equal(gunbai.coc7House.chaseLegalActions({ state: end.state }).actions.length, 0);
  assert.equal(await frame(page, "gm").$$eval("#actions button[data-i]", (b) => b.length), 0, "no action is left");
  const rounds = end.log.filter((e) => e.action?.type === "round");
  assert.deepEqual([end.log[0].seed, ...rounds.map((e) => e.seed)], seeds.slice(0, rounds.length + 1), "the scripted seeds");
  const neither = rounds.flatMap((e) => e.events).filter((e) => e.winner === "neither");
  assert.equal(neither.length, 1, "one round both sides failed");
  const text = await frame(page, "p1").evaluate(() => ["#phase", "#turn", "#order", "#last", "#log"].map((s) => document.querySelector(s)?.innerText ?? "").join("\\n"));
  assert.deepEqual(rawIds(text, "ja"), [], text);
  // that round reads as the core's sentence (ja: nobody wins the DEX roll), not a key
  assert.match(text, /勝者なし/);
  await checkBadges(page, "coc7_house");
  for (const c of ["gm", "p1"]) assert.equal(await frame(page, c).textContent("#error"), "", `no error on ${c}'s page`);
  await screenshot(page, join(SHOTS, "coc7_house-chase-ja.png"));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("TMD GM form and undo: gain AP, a new base initiative and a token added mid-encounter joining, each equal to encounter_act's; undo takes them back", async () => {
  const tk = (id, name, x, meta) => ({ id, name, createdUserId: "gm", layer: "CHARACTER", type: "IMAGE", position: { x, y: 150 }, metadata: { [KEY]: meta } });
  const items = [
    tk("tok-akane", "Akane", 150, { combatant: true, side: "PC", base_initiative: 3 }),
    tk("tok-bolt", "Bolt", 250, { combatant: true, side: "PC", base_initiative: 1 }),
    tk("tok-crow", "Crow", 350, { combatant: true, side: "NPC", base_initiative: 2 }),
    tk("tok-dan", "Dan", 450, {}),
  ];
  // A running encounter of the first three, stored as another client would (gzip + base64).
  const chars = [{ id: "tok-akane", side: "PC", base_initiative: 3 }, { id: "tok-bolt", side: "PC", base_initiative: 1 }, { id: "tok-crow", side: "NPC", base_initiative: 2 }];
  const start = gunbai.tmd.encounterNew({ characters: chars, seed: 5 });
  const rec0 = { system: "tmd", state: start.state, names: { "tok-akane": "Akane", "tok-bolt": "Bolt", "tok-crow": "Crow" }, log: [{ action: null, seed: 5, events: start.events }] };
  const entry = { format: "gunbai-obr/1", system: "tmd", gzip: gzipSync(JSON.stringify(rec0)).toString("base64") };
  const page = await openRoom({ items, metadata: { [KEY]: entry }, clients: [{ id: "gm", role: "GM", name: "GM" }, { id: "p1", role: "PLAYER", name: "Pat" }] });
  const f = frame(page, "gm");
  await f.waitForSelector("#encounter:not([hidden])");
  assert.equal(await f.isHidden("#tmd-gm"), false, "the GM sees the form");
  assert.equal(await frame(page, "p1").isHidden("#tmd-gm"), true, "a player doesn't");
  await f.click("#tmd-gm summary");
  const changed = async (raw) => page.waitForFunction(([k, b]) => JSON.stringify(harness.scene.metadata[k] ?? null) !== b, [KEY, raw], { timeout: LIVENESS });
  /** Fill the form, apply, and check the stored step against encounter_act in Node. */
  const apply = async (kind, fill, expected) => {
    const raw = JSON.stringify(await rawEntry(page));
    const before = await record(page);
    await f.selectOption("#tmd-gm .gm-kind", kind);
    await fill();
    await f.click("#tmd-gm .gm-apply");
    await changed(raw);
    const after = await record(page);
    const step = after.log.at(-1);
    assert.deepEqual(step.action, expected);
    const replay = gunbai.tmd.encounterAct({ state: before.state, action: step.action, seed: step.seed });
    assert.deepEqual(after.state, replay.state);
    assert.deepEqual(step.events, replay.events);
    return after;
  };
  await apply(
    "gain_ap",
    async () => {
      await f.selectOption('#tmd-gm [data-field="actor"]', "tok-bolt");
      await f.fill('#tmd-gm [data-field="amount"]', "4");
      await f.check('#tmd-gm [data-field="reflex_only"]');
    },
    { type: "gain_ap", actor: "tok-bolt", amount: 4, reflex_only: true },
  );
  const raised = await apply(
    "set_base_initiative",
    async () => {
      await f.selectOption('#tmd-gm [data-field="actor"]', "tok-crow");
      await f.fill('#tmd-gm [data-field="base_initiative"]', "7");
    },
    { type: "set_base_initiative", actor: "tok-crow", base_initiative: 7 },
  );
  assert.equal(raised.state.characters.find((c) => c.id === "tok-crow").base_initiative, 7);
  // Dan is added from the context menu while the encounter runs; the form lets him join (he rolls a d10).
  assert.ok(await page.evaluate((m) => harness.clickContextMenu("gm", m, ["tok-dan"]), MENU_ADD));
  await f.selectOption("#tmd-gm .gm-kind", "join");
  await f.waitForFunction(() => [...document.querySelectorAll('#tmd-gm [data-field="token"] option')].some((o) => o.value === "tok-dan"));
  assert.deepEqual(await f.$$eval('#tmd-gm [data-field="token"] option', (els) => els.map((e) => e.value)), ["tok-dan"], "only tokens not in the encounter join");
  const joined = await apply(
    "join",
    async () => {
      await f.fill('#tmd-gm [data-field="side"]', "NPC");
      await f.fill('#tmd-gm [data-field="base_initiative"]', "1");
    },
    { type: "join", characters: [{ id: "tok-dan", side: "NPC", base_initiative: 1 }] },
  );
  assert.equal(joined.names["tok-dan"], "Dan");
  assert.ok(joined.log.at(-1).events.some((e) => e.event === "joined"));
  // A malformed value is refused by the core and changes nothing.
  const raw = JSON.stringify(await rawEntry(page));
  await f.selectOption("#tmd-gm .gm-kind", "gain_ap");
  await f.fill('#tmd-gm [data-field="amount"]', "0");
  await f.click("#tmd-gm .gm-apply");
  await f.waitForSelector("#error[data-code='out_of_range']");
  assert.equal(JSON.stringify(await rawEntry(page)), raw);
  // Undo takes the three steps back one by one: each stored state is the one the undone action (with its seed) was applied to.
  assert.equal(await f.getAttribute("#undo", "data-depth"), "3");
  for (const undone of ["join", "set_base_initiative", "gain_ap"]) {
    const raw = JSON.stringify(await rawEntry(page));
    const before = await record(page);
    const last = before.log.at(-1);
    assert.equal(last.action.type, undone);
    await f.click("#undo");
    await changed(raw);
    const after = await record(page);
    assert.deepEqual(after.log, before.log.slice(0, -1));
    assert.deepEqual(gunbai.tmd.encounterAct({ state: after.state, action: last.action, seed: last.seed }).state, before.state);
  }
  assert.deepEqual((await record(page)).state, start.state, "back to the encounter as it was stored");
  await f.waitForSelector("#undo[disabled]");
  // End and clear: the record and the badges go.
  await f.click("#reset");
  // (the setup of the same ruleset comes back, with the four combatants)
  await f.waitForSelector("#setup:not([hidden]) #tokens tr[data-token='tok-dan']");
  assert.equal(await rawEntry(page), null);
  await page.waitForFunction((k) => !harness.scene.items.some((i) => i.metadata?.[k]), BADGE_KEY);
  assert.deepEqual(page.errors, []);
  await page.context().close();
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
const wtItem = (id, name, position, meta) => ({ id, name, createdUserId: "gm", layer: "CHARACTER", type: "IMAGE", position, rotation: 0, scale: { x: 1, y: 1 }, metadata: { [KEY]: { combatant: true, ...meta } } });
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
test("WT: the bundled sample sheets and map are rank_3v3.json's", () => {
  const b = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "battles", "rank_3v3.json"), "utf8"));
  const strip = ({ name, leader, ...rest }) => rest;
  const members = Object.fromEntries(b.teams.flatMap((t) => t.members).map((m) => [m.id, strip(m.sheet)]));
  for (const s of SAMPLE_SHEETS) assert.deepEqual(s.sheet, members[s.from], s.id);
  const distinct = new Set(Object.values(members).map((x) => JSON.stringify(x)));
  assert.equal(SAMPLE_SHEETS.length, distinct.size);
  assert.deepEqual(EXAMPLE_MAPS.rank_3v3, b.map);
});

test("WT log: an event whose target or reactor the team's view leaves unnamed (Stealth, WT-ST-1) shows the core's sentence with an unseen member, in four languages", async () => {
  const { createWorldTrigger } = await import(join(EX, "wt.js"));
  // the core's words for a member the view leaves unnamed
  const unseen = { ja: "姿の見えない隊員", "zh-Hant": "看不見的隊員", "zh-Hans": "看不见的队员", en: "an unseen member" };
  // The views vectors' battle: a1 (team a) starts in Stealth (Bagworm teleport, WT-MAP-6).
  const cases = JSON.parse(readFileSync(join(REPO_ROOT, "testdata", "vectors", "views", "engine_views.json"), "utf8"));
  const h = gunbai.worldTrigger.Battle.create(cases[0].steps[0].args);
  // events as the core reports them (each with its sentence, which names a1)
  const said = { ja: "a1", zh_hans: "a1", zh_hant: "a1", en: "a1" };
  const events = [
    { type: "attack_declared", attacker: "b1", skill: "kogetsu", targets: ["a1"] },
    { type: "reaction_rolled", reactor: "a1", target: "a1", skill: "shield", faces: [3, 4], achievement: 7 },
    { type: "no_reaction", target: "a1" },
    { type: "hit_check", attacker: "b1", target: "a1", special_attack: 0, faces: [5, 6], achievement: 11, against: 7, hit: true },
    { type: "damage", target: "a1", total: 4, die: 4, burst: 0, special_attack: 0, modifier: 0, trion_after: 8 },
  ].map((e) => ({ ...e, rule: "WT-HIT-1", text: said }));
  // the core's view for team b names a1 in none of them
  const seen = h.view("b", events).events;
  assert.equal(seen.length, events.length);
  for (const e of seen) assert.ok(!JSON.stringify(e).includes('"a1"'), JSON.stringify(e));
  for (const lang of ["ja", "zh-Hant", "zh-Hans", "en"]) {
    const { eventText } = createWorldTrigger({ gunbai, lang, esc: String });
    for (const e of seen) {
      const line = eventText(e);
      assert.ok(line.includes(unseen[lang]), `${lang} ${e.type}: ${line}`);
      assert.doesNotMatch(line, /undefined|null|→ *$|→ *[、,]/, `${lang} ${e.type}: ${line}`);
    }
    // team a (its own) and the GM see the name
    const { eventText: own } = createWorldTrigger({ gunbai, lang, esc: String });
    assert.ok(own(h.view("a", events).events[3]).includes("a1"));
  }
});

test("WT: the acting team and the awaited reaction the page reads from the core's turn (per team: turnFor) are those the listing offers actions to (battles played in Node)", async () => {
  const { createWorldTrigger } = await import(join(EX, "wt.js"));
  const { turnOf } = createWorldTrigger({ gunbai, lang: "en", esc: String });
  const W = gunbai.worldTrigger;
  // 3v3 as set up below, and 1v1 with the two members side by side (attacks, hence reactions, at once).
  const duel = structuredClone(EXPECTED_SETUP);
  duel.teams = duel.teams.map((tm, i) => ({ ...tm, leader: tm.members[0].id, members: [{ ...tm.members[0], at: { x: 5 + i, y: 5 } }] }));
  duel.teams[1].members[0].sheet.leader = true;
  const seen = { movement: 0, reaction: 0, none: 0, hidden: 0 };
  for (const [setup, game] of [[EXPECTED_SETUP, 1], [duel, 2], [duel, 3]]) {
    let state = W.battleNew(setup).state;
    let x = game;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; state.phase !== "ended" && n < 150; n++) {
      const listed = W.battleLegalActions({ state });
      const t = turnOf(W.battleTurn({ state }));
      const teamOf = (/** @type {string} */ id) => state.teams[state.members.find((/** @type {any} */ m) => m.id === id)?.team]?.id;
      // WT-HIT-1: reactions are offered only while the turn awaits one (the GM sees whose);
      // otherwise the turn's own actions are the acting team's (WT-INIT-2).
      for (const { action: a } of listed.actions) {
        if (["react", "no_reaction"].includes(a.type)) assert.ok(t.reacting && t.reaction_for, `game ${game} step ${n}: ${JSON.stringify(a)}`);
        else if (["move", "use_skill"].includes(a.type)) assert.equal(teamOf(a.actor), t.acting_team, `game ${game} step ${n}: ${JSON.stringify(a)}`);
        else if (a.type === "pass") assert.equal(a.team, t.acting_team, `game ${game} step ${n}`);
      }
      // as each team may know it (WT-ST-1: a reaction it may not see names nobody)
      for (const tm of state.teams) {
        const theirs = turnOf(W.battleTurn({ state, viewer: tm.id })).reaction_for;
        if (theirs === t.reaction_for) continue;
        assert.equal(theirs, null, `game ${game} step ${n} team ${tm.id}`);
        const seenBy = W.battleView({ state, viewer: tm.id }).state.members.find((/** @type {any} */ m) => m.id === t.reaction_for);
        assert.equal(seenBy?.at, undefined, `game ${game} step ${n}: team ${tm.id} is told of no reaction it could see`);
        seen.hidden++;
      }
      if (t.reaction_for) seen.reaction++;
      else if (state.phase === "movement" && t.acting_team) seen.movement++;
      else if (!t.acting_team) seen.none++;
      const pool = listed.actions.filter((a) => !["use_ability", "operator"].includes(a.action.type));
      const attacks = pool.filter((a) => a.action.type === "use_skill" && a.cost.side_action);
      const from = attacks.length && rnd() < 0.7 ? attacks : pool;
      state = W.battleAct({ state, action: from[Math.floor(rnd() * from.length)].action, seed: n }).state;
    }
  }
  assert.ok(seen.movement > 0 && seen.reaction > 0 && seen.none > 0, JSON.stringify(seen));
});

test("WT setup: teams, sheets and squares come from the tokens and the scene grid; the stored state is battle_new's, compressed under 8 kB", async (t) => {
  const page = await openRoom({ items: WT_ITEMS, metadata: { [SETTINGS_KEY]: { system: "world_trigger" } }, grid: { dpi: DPI }, clients: [{ id: "gm", role: "GM", name: "GM" }] });
  const f = frame(page, "gm");
  await f.waitForSelector("#wt-options:not([hidden])");
  const rows = await f.$$eval("#tokens tr[data-token]", (els) =>
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
  assert.match(await f.locator("#wt-map option[value='flat']").innerText(), /16×12/);
  assert.match(await f.locator("#wt-options").innerText(), /100 dpi/);
  // Leaders default to each team's first token; the GM picks Emi for Red and another sample for her.
  assert.equal(await f.locator("label.leader[data-team='Blue'] select").inputValue(), "wt-akane");
  await f.selectOption("tr[data-token='wt-emi'] .sheet", "attacker_mobility");
  await f.selectOption("label.leader[data-team='Red'] select", "wt-emi");
  await f.click("#start");
  await f.waitForSelector("#encounter:not([hidden])");
  assert.equal(await f.locator("#error").innerText(), "");
  const raw = await rawEntry(page);
  // sealed for the GM: the room reads only the ruleset
  assert.equal(raw.format, "gunbai-obr/2");
  assert.deepEqual(Object.keys(raw).sort(), ["format", "sealed", "system"]);
  const rec = await record(page);
  const expected = gunbai.worldTrigger.battleNew(EXPECTED_SETUP);
  assert.deepEqual(rec.state, expected.state);
  assert.deepEqual(rec.log, [{ events: expected.events }]);
  assert.deepEqual(rec.grid, { dpi: DPI, origin: ORIGIN });
  const stored = JSON.stringify({ [KEY]: raw }).length;
  t.diagnostic(`3v3 battle: state JSON ${JSON.stringify(rec.state).length} bytes; stored entry ${stored} bytes`);
  assert.ok(JSON.stringify(rec.state).length > 16 * 1024, "the plain state would not fit");
  assert.ok(stored < 8 * 1024, `stored ${stored} bytes`);
  assert.match(await f.locator("#phase").innerText(), /Round 1 of 10 · Initiative phase · Rank battle/);
  const members = await f.$$eval("#wt-members tr[data-member]", (els) => els.map((e) => [e.dataset.member, e.querySelector(".trion").textContent, e.querySelector(".at").textContent]));
  assert.deepEqual(members, rec.state.members.map((m) => [m.id, `${m.trion}/${m.starting_trion}`, `(${m.at.x}, ${m.at.y})`]));
  // the map item is no combatant; each member's badge shows its Trion
  await checkBadges(page, "world_trigger");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("WT: a finished battle saved by another client shows how it ended and who won, with no actions left", async () => {
  // A one-round rank battle played to its end in Node: both teams pass every phase (a draw on points).
  const W = gunbai.worldTrigger;
  const setup = { ...structuredClone(EXPECTED_SETUP), max_rounds: 1 };
  let state = W.battleNew(setup).state;
  for (let n = 0; state.phase !== "ended" && n < 40; n++) {
    const a = W.battleLegalActions({ state }).actions.find((x) => x.action.type === "roll_initiative" || x.action.type === "pass");
    state = W.battleAct({ state, action: a.action, seed: n }).state;
  }
  assert.equal(state.phase, "ended");
  const rec = { system: "world_trigger", state, names: {}, grid: { dpi: DPI, origin: ORIGIN }, step: 10, log: [] };
  const entry = { format: "gunbai-obr/1", system: "world_trigger", gzip: gzipSync(JSON.stringify(rec)).toString("base64") };
  const page = await openRoom({ items: WT_ITEMS, metadata: { [KEY]: entry }, grid: { dpi: DPI }, clients: [{ id: "gm", role: "GM", name: "GM" }] });
  const f = frame(page, "gm");
  await f.waitForSelector("#encounter:not([hidden])");
  assert.equal(await f.getAttribute("#phase", "data-phase"), "ended");
  assert.equal(await f.getAttribute("#acting", "data-winner"), state.outcome?.winner ?? "");
  assert.match(await f.locator("#acting").innerText(), state.outcome?.winner ? new RegExp(state.outcome.winner) : /Draw|draw/);
  assert.equal(await f.$$eval("#actions button[data-i]", (b) => b.length), W.battleLegalActions({ state }).actions.length);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The sheet hand-off: the character-sheet site's file for each ruleset, pasted by the GM
// into the setup's import box for two tokens, gives the engine the GM starts the state of
// the engine set up directly from the file (with the tokens' ids, sides and squares): no
// field of the character is lost (CoC weapons, ap_bonus, HP, Dodge and damage bonus, the
// sheet's is_pc, TMD immune_to_surprise, FAP/MAP traits, a World Trigger sheet).
let handoffDocs = null;
for (const system of Object.keys(HANDOFF)) {
  test(`sheet hand-off (${system}): the character-sheet site's file, pasted for two tokens, starts the engine as the file set up directly`, async () => {
    handoffDocs ??= await exportedDocuments(browser);
    const doc = handoffDocs[system];
    assert.equal(doc.system, system);
    assert.ok(doc.valid, `${system}: the site says the sheet is valid`);
    const tokens = [
      ["hx-1", "Hana", pos(2, 3), "Blue"],
      ["hx-2", "Ilse", pos(6, 3), "Red"],
    ];
    const items = tokens.map(([id, name, position, side]) => wtItem(id, name, position, { side }));
    const page = await openRoom({ items, metadata: { [SETTINGS_KEY]: { system } }, grid: { dpi: DPI }, clients: [{ id: "gm", role: "GM", name: "GM" }] });
    try {
      const f = frame(page, "gm");
      await f.waitForSelector("#sheet-import:not([hidden])");
      await f.click("#sheet-import-title");
      // another ruleset's file is refused, naming both
      const other = Object.values(handoffDocs).find((d) => d.system !== system);
      await f.fill("#sheet-text", JSON.stringify(other));
      await f.click("#sheet-go");
      await f.waitForSelector("#sheet-msg[data-code='other_system']");
      for (const [id] of tokens) {
        await f.selectOption("#sheet-token", id);
        await f.fill("#sheet-text", JSON.stringify(doc, null, 2));
        await f.click("#sheet-go");
        if (system === "world_trigger") await f.waitForFunction((id) => document.querySelector(`#tokens tr[data-token='${id}'] .sheet`)?.value === "token", id);
        else await f.waitForSelector(`#tokens tr[data-token='${id}'][data-imported='1']`);
      }
      const members = tokens.map(([id, , position, side]) => ({ id, doc, side, name: doc.name, position: system === "coc_ap" ? [Math.floor(position.x / DPI), Math.floor(position.y / DPI)] : undefined }));
      let options = {};
      if (system === "world_trigger") {
        // the squares and the flat map the page places the tokens on (the host's, not the file's)
        for (const m of members) m.at = { x: Number(await f.inputValue(`tr[data-token='${m.id}'] .sx`)), y: Number(await f.inputValue(`tr[data-token='${m.id}'] .sy`)) };
        const [, w, h] = (await f.locator("#wt-map option[value='flat']").innerText()).match(/(\d+)×(\d+)/);
        options = { map: { width: Number(w), height: Number(h) } };
      }
      await f.click("#start");
      await f.waitForSelector("#encounter:not([hidden])");
      assert.equal(await f.locator("#error").innerText(), "");
      const rec = await record(page);
      const seed = rec.log?.[0]?.seed;
      const H = { world_trigger: gunbai.worldTrigger.Battle, tmd: gunbai.tmd.Encounter, coc7_house: gunbai.coc7House.Round, coc_ap: gunbai.cocAp.Round, fap_map: gunbai.fapMap.Round }[system];
      const h = H.create(directSetup(system, members, { seed, options }));
      assert.deepEqual(rec.state, h.state);
      h.free();
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });
}
