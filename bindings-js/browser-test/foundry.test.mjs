// The Foundry VTT module in Chromium against a stand-in for Foundry's client API
// (examples/foundry-module/test/foundry-stand-in.js — not Foundry). Several
// pages, one per user (a GM and players), share the stand-in's world through a
// relay in this test (document changes, chat messages and `game.socket`
// messages go from one page to the others).
//
// For each of the five rulesets a GM and players go through a whole round (World
// Trigger: a whole cycle of phases) by clicking the buttons the engine's legal
// actions give; players act through the GM's client. Then: a player can act only
// on their own combatant (a forged socket request is refused), roll totals and
// roll modes, Foundry's initiative buttons, the chat commands, and the Stealth view.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage, screenshot, LIVENESS } from "./harness.mjs";
import { buildExamples } from "./build-examples.mjs";
import { route } from "../../examples/foundry-module/test/stand-in-server.mjs";
import { squareLeaks, rollLeaks } from "./leaks.mjs";
import { HANDOFF, exportedDocuments, directSetup } from "./sheet-handoff.mjs";

const gunbai = await import(`${REPO_ROOT}/bindings-js/pkg/index.js`);
const SHOTS = join(REPO_ROOT, "examples", "foundry-module", "screenshots");
let browser, server;

before(async () => {
  buildExamples();
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// ---------- clients sharing one world ----------

/**
 * Open one page per user; envelopes a page sends are delivered, in order, to the
 * other pages of the same table.
 */
async function table(users, { generation = 13 } = {}) {
  const pages = {};
  const list = [];
  for (const [user, lang] of users) {
    const page = await newPage(browser, { viewport: { width: 1180, height: 900 } });
    page.queue = Promise.resolve();
    // every payload this client receives (what a player's browser would hold)
    page.payloads = [];
    // the stand-in's server (stand-in-server.mjs) decides what each other client receives
    await page.exposeFunction("__standInRelay", (env) => {
      for (const other of list) {
        if (other === page) continue;
        const got = route(env, USERS[user], USERS[other.user]);
        if (!got) continue;
        other.payloads.push(got);
        other.queue = other.queue.then(() => other.evaluate((e) => window.__standInReceive(e), got)).catch((e) => other.errors.push(String(e)));
      }
    });
    await page.goto(`${server.url}examples/foundry-module/test/index.html`);
    await page.waitForFunction(() => typeof window.__bootStandIn === "function" && window.Hooks);
    await page.evaluate(([user, lang, generation]) => window.__bootStandIn({ lang, user, generation }), [user, lang, generation]);
    await page.waitForFunction(() => game.modules.get("gunbai").api);
    await page.evaluate(() => game.modules.get("gunbai").api.ready);
    page.user = user;
    page.payloads.length = 0; // (the world set up below is public: what the test records starts here)
    pages[user] = page;
    list.push(page);
  }
  pages.all = list;
  pages.close = async () => {
    for (const p of list) await p.context().close();
  };
  return pages;
}

const setupWorld = (t, world) => Promise.all(t.all.map((p) => p.evaluate((w) => window.__setupWorld(w), world)));
/** Wait until every page has seen the engine at `seq` actions (its panel re-rendered). */
const settled = (t, seq) =>
  Promise.all(t.all.map((p) => p.waitForFunction((s) => document.querySelector(".gunbai-combat")?.dataset.seq === String(s), seq, { timeout: LIVENESS })));
const engineOf = (page) => page.evaluate(() => game.modules.get("gunbai").api.engineOf(game.combat));
const buttonsOf = (page) =>
  page.$$eval(".gunbai-combat button[data-gunbai='act']", (bs) =>
    bs.map((b) => ({ index: Number(b.dataset.index), type: b.dataset.type, actor: b.dataset.actor, target: b.dataset.target, kind: b.dataset.kind, label: b.textContent })),
  );

// ---------- the worlds ----------

// Users: gm, p1 (owns c1), p2 (owns c2); c3 (and c4) are the GM's.
const OWNER = { c1: "p1", c2: "p2", c3: "gm", c4: "gm" };
/** The stand-in's users, as its server knows them. */
const USERS = { gm: { id: "gm", isGM: true }, p1: { id: "p1", isGM: false }, p2: { id: "p2", isGM: false } };
const battle = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "battles", "rank_3v3.json"), "utf8"));
const wtSheet = (team, i) => battle.teams[team].members[i].sheet;

function world(ruleset) {
  const stats = {
    tmd: [{ base_initiative: 5 }, { base_initiative: 4 }, { base_initiative: 3 }],
    coc7_house: [{ dex: 60 }, { dex: 55 }, { dex: 50 }],
    coc_ap: [{ dex: 14, skills: { dodge: 40 } }, { dex: 12, skills: { dodge: 30 } }, { dex: 10 }],
    fap_map: [
      { reaction: 10, magic: 5, agility: 7 },
      { reaction: 8, magic: 3, agility: 9 },
      { reaction: 6, magic: 2, agility: 4 },
    ],
    world_trigger: [
      { sheet: wtSheet(0, 0), at: { x: 1, y: 1 }, leader: true },
      { sheet: wtSheet(0, 1), at: { x: 1, y: 3 }, bagworm_teleport: true },
      { sheet: wtSheet(1, 0), at: { x: 8, y: 1 }, leader: true },
      { sheet: wtSheet(1, 1), at: { x: 8, y: 3 } },
    ],
  }[ruleset];
  const names = ["Ayla", "Bren", "Kato", "Dusk"];
  const teams = ruleset === "world_trigger" ? ["tamakoma", "tamakoma", "katori", "katori"] : [null, null, null];
  const ids = stats.map((_, i) => `c${i + 1}`);
  return {
    actors: ids.map((id, i) => ({
      id: `A${i + 1}`,
      name: names[i],
      ownership: OWNER[id] === "gm" ? {} : { [OWNER[id]]: 3 },
      flags: { gunbai: { [ruleset]: stats[i] } },
    })),
    combat: {
      id: `combat-${ruleset}`,
      combatants: ids.map((id, i) => ({
        id,
        name: names[i],
        actorId: `A${i + 1}`,
        disposition: i < 2 ? 1 : -1,
        flags: teams[i] ? { gunbai: { team: teams[i] } } : {},
      })),
    },
  };
}

/** A player's page lists only actions of combatants (or teams) that player owns. */
function assertOwnButtons(user, buttons, flag) {
  const teamOf = (team) => {
    const i = flag.state.teams?.findIndex((t) => t.id === team);
    return flag.state.members?.filter((m) => m.team === i).map((m) => m.id) ?? [];
  };
  for (const b of buttons) {
    const owners = OWNER[b.actor] ? [OWNER[b.actor]] : teamOf(b.actor).map((id) => OWNER[id]);
    assert.ok(owners.includes(user), `${user} was offered ${b.label} (${b.actor})`);
  }
}

/**
 * Drive a table by clicking: `next(state, buttons)` names the user and button
 * (type, actor) that moves the round on; each click goes through that user's page
 * (players: to the GM's client through the socket). Returns the steps taken.
 */
async function drive(t, next, done, { max = 80, after = null } = {}) {
  const steps = [];
  for (let i = 0; i < max; i++) {
    const flag = await engineOf(t.gm);
    if (done(flag.state)) return steps;
    // (read again for a while if nothing fits: a page may still be re-rendering)
    let buttons = {};
    let pick = null;
    for (let tries = 0; !pick && tries < 20; tries++) {
      if (tries) await new Promise((r) => setTimeout(r, 250));
      buttons = {};
      for (const p of t.all) buttons[p.user] = await buttonsOf(p);
      pick = next(flag.state, buttons, steps);
    }
    for (const p of t.all) if (p.user !== "gm") assertOwnButtons(p.user, buttons[p.user], flag);
    assert.ok(pick, `no move at step ${i}: ${JSON.stringify(Object.fromEntries(Object.entries(buttons).map(([u, b]) => [u, b.map((x) => x.label)])))}`);
    const [user, b] = pick;
    steps.push({ user, type: b.type, actor: b.actor });
    await t[user].click(`.gunbai-combat button[data-gunbai='act'][data-index="${b.index}"]`);
    await settled(t, flag.seq + 1);
    if (after) await after(steps.at(-1), await engineOf(t.gm));
  }
  throw new Error(`the round did not end in ${max} steps: ${JSON.stringify(steps)}`);
}

/** The button of `type` (and actor) on `user`'s page, as [user, button], or null. */
const find = (buttons, user, type, actor) => {
  const b = buttons[user]?.find((x) => x.type === type && (actor === undefined || x.actor === actor));
  return b ? [user, b] : null;
};

const LANG = { world_trigger: "zh-Hant", tmd: "zh-Hant", coc7_house: "ja", coc_ap: "ja", fap_map: "ja" };

/** Start a ruleset with a GM (in the rulebook's language) and two players (en). */
async function startTable(ruleset) {
  const t = await table([
    ["gm", LANG[ruleset]],
    ["p1", "en"],
    ["p2", "en"],
  ]);
  await setupWorld(t, world(ruleset));
  await t.gm.waitForSelector(".gunbai-combat [data-gunbai='start']");
  // players see no start control
  assert.equal(await t.p1.locator(".gunbai-combat [data-gunbai='start']").count(), 0);
  await t.gm.selectOption(".gunbai-combat select[data-gunbai='ruleset']", ruleset);
  await t.gm.click(".gunbai-combat [data-gunbai='start']");
  await settled(t, 0);
  // the GM's controls (GM actions, end the engine) are on the GM's page only
  assert.equal(await t.gm.locator(".gunbai-combat .gunbai-gm [data-gunbai='stop']").count(), 1);
  for (const u of ["p1", "p2"]) assert.equal(await t[u].locator(".gunbai-combat .gunbai-gm, .gunbai-combat [data-gunbai='stop']").count(), 0, u);
  return t;
}

/** Every page's Foundry initiative follows the engine's order. */
async function assertInitiativeFromEngine(t, ruleset) {
  const flag = await engineOf(t.gm);
  for (const p of t.all) {
    const turns = await p.evaluate(() => game.combat.turns.map((c) => c.id));
    const order = flag.state.order ?? null;
    if (ruleset === "tmd" || ruleset === "coc_ap" || ruleset === "coc7_house") assert.deepEqual(turns, order, `${p.user}: tracker = engine order`);
  }
}

async function finish(t, ruleset, steps) {
  // the players' clicks were applied by the GM's client, and posted as the players
  const authors = await t.gm.evaluate(() => game.messages.filter((m) => m.flags.gunbai?.ruleset).map((m) => m.author));
  for (const u of ["p1", "p2"]) {
    const n = steps.filter((s) => s.user === u).length;
    assert.ok(n > 0, `${u} acted`);
    assert.equal(authors.filter((a) => a === u).length, n, `${u}'s actions posted as ${u}`);
  }
  // the speaker is the acting combatant (Foundry shows its token's name), the author the user who acted
  const spoken = await t.gm.evaluate(() =>
    game.messages
      .filter((m) => m.flags.gunbai?.action && !m.flags.gunbai.private)
      .map((m) => {
        const a = m.flags.gunbai.action;
        const id = a.actor ?? null;
        return { id, alias: m.speaker?.alias ?? null, name: id ? game.combat.combatants.get(id)?.name ?? null : null, header: null };
      }),
  );
  const named = spoken.filter((x) => x.id && x.name);
  assert.ok(named.length > 0, `${ruleset}: an action of a combatant was posted`);
  for (const x of named) assert.equal(x.alias, x.name, `${ruleset}: ${x.id}'s action speaks as ${x.name}`);
  // each client shows the action messages in its own language (from the flags)
  const heads = async (p) => p.$$eval("#chat-log .gunbai-action .gunbai-command", (xs) => xs.map((x) => x.textContent));
  const en = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "foundry-module", "lang", "en.json"), "utf8")).GUNBAI.Ruleset[ruleset];
  const own = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "foundry-module", "lang", `${LANG[ruleset]}.json`), "utf8")).GUNBAI.Ruleset[ruleset];
  const [gmHeads, p1Heads] = [await heads(t.gm), await heads(t.p1)];
  assert.ok(gmHeads.length > 0 && gmHeads.every((h) => h.startsWith(own)), `GM (${LANG[ruleset]}): ${gmHeads[0]}`);
  assert.ok(p1Heads.length === gmHeads.length && p1Heads.every((h) => h.startsWith(en)), `p1 (en): ${p1Heads[0]}`);
  await screenshot(t.gm, join(SHOTS, `${ruleset}-${LANG[ruleset]}.png`));
  await screenshot(t.p1, join(SHOTS, `${ruleset}-en.png`));
  for (const p of t.all) {
    assert.deepEqual(p.errors, [], `${p.user} page errors`);
    assert.deepEqual(p.blocked, []);
    assert.deepEqual(await p.evaluate(() => window.__standIn.errors), []);
  }
  await t.close();
}

// ---------- a whole round for each ruleset ----------

test("TMD: initiative, a delay, AP conversions, an interrupt and turns through tmd.Encounter (GM + 2 players)", async () => {
  const t = await startTable("tmd");
  let flag = await engineOf(t.gm);
  // TMD-INI: the engine rolled initiative; Foundry's tracker shows its order
  await assertInitiativeFromEngine(t, "tmd");
  assert.equal(flag.state.phase, "delays");
  const converted = new Set();
  const steps = await drive(
    t,
    (s, b, done) => {
      // TMD-INI: a player delays (whichever PC is not last in the order can)
      if (s.phase === "delays") return (!done.some((x) => x.type === "delay") && (find(b, "p2", "delay", "c2") || find(b, "p1", "delay", "c1"))) || find(b, "gm", "start_turns");
      const cur = s.current;
      if (!cur) return null;
      const u = OWNER[cur];
      // TMD-INT: the first turn announces an action; a player whose character is not
      // acting interrupts it; the GM closes the interrupts and resolves the chain
      if (s.chain) {
        if (!done.some((x) => x.type === "interrupt")) {
          const who = ["c1", "c2"].find((id) => id !== cur && OWNER[id] !== u);
          return find(b, OWNER[who], "interrupt", who);
        }
        return find(b, "gm", "pass") || find(b, "gm", "resolve");
      }
      if (!done.some((x) => x.type === "announce")) return find(b, u, "announce", cur);
      if (!converted.has(`${s.round}:${cur}`)) {
        converted.add(`${s.round}:${cur}`);
        const c = find(b, u, "convert", cur);
        if (c) return c;
      }
      return find(b, u, "end_turn", cur);
    },
    (s) => s.round >= 2,
    {
      // Foundry's current combatant is the engine's, on the players' clients too
      after: async (_step, f) => {
        if (f.state.phase !== "turns" || !f.state.current) return;
        assert.equal(await t.p2.evaluate(() => game.combat.turns[game.combat.turn]?.id), f.state.current);
      },
    },
  );
  flag = await engineOf(t.gm);
  assert.equal(flag.state.round, 2);
  assert.ok(steps.some((s) => s.user === "p1" && s.type === "convert"), "a player converted AP");
  const interrupter = steps.find((s) => s.type === "interrupt");
  assert.ok(interrupter && interrupter.user !== "gm", "a player interrupted");
  const events = await t.gm.evaluate(() => game.messages.flatMap((m) => (m.flags.gunbai?.events ?? []).map((e) => e.event)));
  for (const e of ["delay_declared", "interrupt_declared", "interrupts_closed", "chain_ended", "converted", "round_started"]) assert.ok(events.includes(e), e);
  assert.equal(await t.p1.evaluate(() => game.combat.round), 2, "Foundry's round follows the engine");
  await assertInitiativeFromEngine(t, "tmd");
  await finish(t, "tmd", steps);
});

test("TMD initiative ties: the engine breaks them (TMD-INI) and Foundry's order follows", async () => {
  // a seed whose initiative has a tie, found with gunbai itself (base 5 / 4 / 3 as in the world)
  const characters = [
    { id: "c1", side: "friendly", base_initiative: 5 },
    { id: "c2", side: "friendly", base_initiative: 4 },
    { id: "c3", side: "hostile", base_initiative: 3 },
  ];
  let seed = 0;
  const tied = (sd) => {
    const h = gunbai.tmd.Encounter.create({ characters, seed: sd });
    const rolled = h.created.events.find((e) => e.event === "initiative_rolled");
    h.free();
    return rolled.entries.some((e) => e.tiebreaks.length);
  };
  while (!tied(seed)) seed++;
  const t = await table([
    ["gm", "en"],
    ["p1", "en"],
  ]);
  await setupWorld(t, world("tmd"));
  await t.gm.evaluate((seed) => game.modules.get("gunbai").api.startEngine(game.combat, "tmd", { seed }), seed);
  await settled(t, 0);
  const flag = await engineOf(t.gm);
  const ties = flag.state.characters.filter((c) => c.tiebreaks.length);
  assert.ok(ties.length >= 2, "two characters tied and re-rolled");
  assert.equal(new Set(ties.map((c) => c.initiative)).size, 1, "they tied on the same total");
  for (const p of t.all) assert.deepEqual(await p.evaluate(() => game.combat.turns.map((c) => c.id)), flag.state.order);
  await t.close();
});

test("CoC 7th house: DEX order, a stance, a reaction and end of turns through coc7House.Round", async () => {
  const t = await startTable("coc7_house");
  await assertInitiativeFromEngine(t, "coc7_house");
  // C7H-INIT: DEX order, highest first
  assert.deepEqual((await engineOf(t.gm)).state.order, ["c1", "c2", "c3"]);
  const steps = await drive(
    t,
    (s, b, done) => {
      if (s.turn === null || s.turn === undefined || s.turn >= s.order.length) return find(b, "gm", "next_round");
      const cur = s.order[s.turn];
      const u = OWNER[cur];
      if (cur === "c1" && !done.some((x) => x.type === "stance")) return find(b, "p1", "stance", "c1");
      // a reaction out of turn: the other player's passive action
      if (cur === "c3" && !done.some((x) => x.type === "passive")) return find(b, "p2", "passive", "c2");
      return find(b, u, "end_turn", cur);
    },
    (s) => s.round >= 2,
  );
  assert.ok(steps.some((s) => s.user === "p2" && s.type === "passive"), "a player reacted out of turn");
  await finish(t, "coc7_house", steps);
});

test("CoC 6th: the AP round through cocAp.Round", async () => {
  const t = await startTable("coc_ap");
  await assertInitiativeFromEngine(t, "coc_ap");
  const ap = (flag, id) => flag.state.fighters.find((f) => f.participant.id === id).ap;
  let prev = await engineOf(t.gm);
  let charged = null;
  const steps = await drive(
    t,
    (s, b, done) => {
      if (s.turn === null || s.turn === undefined) return find(b, "gm", "next_round");
      const cur = s.order[s.turn];
      const u = OWNER[cur];
      if (cur === "c1" && !done.some((x) => x.type === "other")) return find(b, "p1", "other", "c1");
      return find(b, u, "end_turn", cur);
    },
    (s) => s.round >= 2,
    {
      // COCAP-AP-2: an "other" action costs the AP it names, charged by the engine
      after: async (step, flag) => {
        if (step.type === "other") {
          const action = (await t.gm.evaluate(() => game.messages.at(-1).flags.gunbai.action));
          charged = [ap(prev, "c1") - ap(flag, "c1"), action.ap];
        }
        prev = flag;
      },
    },
  );
  assert.ok(charged, "the player took an AP action");
  assert.equal(charged[0], charged[1], "the AP spent is the AP the action names");
  await finish(t, "coc_ap", steps);
});

test("deleting a combat deletes its JournalEntries (the engine record and each player's view) on every client", async () => {
  const t = await startTable("coc_ap");
  const journals = (page) => page.evaluate(() => game.journal.filter((j) => j.getFlag("gunbai", "store") || j.getFlag("gunbai", "viewOf")).length);
  assert.equal(await journals(t.gm), 3, "the record and two players' views");
  assert.equal(await journals(t.p1), 1, "p1 has its own view only");
  await t.gm.evaluate(() => game.combat.delete());
  for (const u of ["gm", "p1", "p2"]) await t[u].waitForFunction(() => !game.journal.some((j) => j.getFlag("gunbai", "store") || j.getFlag("gunbai", "viewOf")));
  for (const p of t.all) assert.deepEqual(p.errors, [], `${p.user} page errors`);
  await t.close();
});

// ---------- a fight: an attack, the defender's reaction on its own page, damage ----------

/** Weapon names in four languages (the flag's display `label`). */
const CLUB = { ja: "棍棒", zh_hans: "棍棒", zh_hant: "棍棒", en: "Club" };
const KNIFE = { ja: "ナイフ", zh_hans: "小刀", zh_hant: "小刀", en: "Knife" };
/** Foundry's language -> the key of an engine sentence. */
const TEXT_KEY = { ja: "ja", "zh-Hans": "zh_hans", "zh-Hant": "zh_hant", en: "en" };
const NAMES = { c1: "Ayla", c2: "Bren", c3: "Kato" };

/**
 * A world for a fight: the players' c1 and c2 against the GM's c3, with HP and weapons
 * in the actors' flags (`gunbai.<ruleset>`) and sides from the combatants' team flags.
 */
function fightWorld(ruleset) {
  const w = world(ruleset);
  const stats = {
    coc7_house: [
      { dex: 50, hp: 11, weapons: [{ id: "knife", label: KNIFE, skill: 40, damage: "1d4" }] },
      { dex: 55, hp: 12, dodge: 45, weapons: [{ id: "knife", label: KNIFE, skill: 45, damage: "1d4" }] },
      { dex: 70, hp: 10, armor: 1, weapons: [{ id: "club", label: CLUB, skill: 60, damage: "1d6" }] },
    ],
    coc_ap: [
      { dex: 10, hp_max: 11, skills: { dodge: 40 }, weapons: [{ name: "knife", label: KNIFE, skill: 40, damage: "1d4" }] },
      { dex: 12, hp_max: 12, skills: { dodge: 45 }, weapons: [{ name: "knife", label: KNIFE, skill: 45, damage: "1d4" }] },
      { dex: 16, hp_max: 10, weapons: [{ name: "club", label: CLUB, skill: 95, damage: "1d6" }] },
    ],
  }[ruleset];
  w.actors.forEach((a, i) => (a.flags.gunbai[ruleset] = stats[i]));
  w.combat.combatants.forEach((c, i) => (c.flags = { gunbai: { team: i < 2 ? "investigators" : "cult" } }));
  return w;
}

/** What a sentence of the engine reads as on a page in `lang`: the ids as names. */
function shown(text, lang) {
  const k = TEXT_KEY[lang];
  let s = text[k];
  for (const [id, name] of Object.entries({ ...NAMES, club: CLUB[k], knife: KNIFE[k] })) s = s.replace(new RegExp(`(?<![A-Za-z0-9_])${id}(?![A-Za-z0-9_])`, "g"), name);
  return s;
}

/** The text of `user`'s last gunbai action message in the chat log, and of the panel's last log line. */
const lastSaid = (page) =>
  page.evaluate(() => ({
    chat: [...document.querySelectorAll("#chat-log .gunbai-action .gunbai-text")].at(-1)?.textContent ?? "",
    log: [...document.querySelectorAll(".gunbai-combat .gunbai-log li")].at(-1)?.textContent ?? "",
  }));
const hpShown = (page, id) => page.evaluate((id) => document.querySelector(`.gunbai-combat li[data-combatant="${id}"] .gunbai-num[data-key="HP"]`)?.textContent ?? null, id);

/**
 * A fight's exchange: the GM's c3 attacks p2's c2 (the GM clicks the attack button);
 * p2's page, and only it among the players', offers c2's reactions and says c2 is
 * attacked; p2 clicks `reaction`. Returns the table and the engine record after.
 */
async function exchange(ruleset, { hp, attack, react, retry }) {
  const langs = { gm: "ja", p1: "en", p2: "zh-Hant" };
  const t = await table(Object.entries(langs));
  await setupWorld(t, fightWorld(ruleset));
  await t.gm.waitForSelector(".gunbai-combat [data-gunbai='start']");
  await t.gm.selectOption(".gunbai-combat select[data-gunbai='ruleset']", ruleset);
  await t.gm.click(".gunbai-combat [data-gunbai='start']");
  await settled(t, 0);
  // HP from the actors' flags, on every page's tracker
  for (const p of t.all) for (const [id, v] of Object.entries(hp)) assert.equal(await hpShown(p, id), `HP ${v}/${v}`, `${p.user}: ${id}'s HP`);
  let flag = await engineOf(t.gm);
  for (let tries = 0; ; tries++) {
    assert.ok(tries < 8, "the attack hit within 8 rounds");
    // the GM's attack button: c3 at c2 with the club, labelled with names (GM in ja)
    const b = (await buttonsOf(t.gm)).find((x) => x.type === "attack" && x.actor === "c3" && attack(x));
    assert.ok(b, `the GM has c3's attack on c2: ${JSON.stringify((await buttonsOf(t.gm)).map((x) => x.label))}`);
    assert.ok(b.label.includes("Bren") && b.label.includes("棍棒"), b.label);
    assert.doesNotMatch(b.label, /club|distance|bonus_dice|c2\b/);
    await t.gm.click(`.gunbai-combat button[data-gunbai='act'][data-index="${b.index}"]`);
    await settled(t, flag.seq + 1);
    flag = await engineOf(t.gm);
    if (flag.state.pending) break;
    // (CoC 6th: the attack roll missed, nothing waits; play on to c3's next turn)
    await retry(t);
    flag = await engineOf(t.gm);
  }
  assert.equal(flag.state.pending.target, "c2");
  // the reaction stage is the defender's: p2's page says so and offers c2's reactions
  await t.p2.waitForSelector(".gunbai-combat .gunbai-pending[data-target='c2'][data-mine='true']");
  await t.p1.waitForSelector(".gunbai-combat .gunbai-pending[data-target='c2']:not([data-mine])");
  const mine = await buttonsOf(t.p2);
  assertOwnButtons("p2", mine, flag);
  const pick = mine.find((x) => x.actor === "c2" && react(x));
  assert.ok(pick, `p2 may react: ${JSON.stringify(mine.map((x) => x.label))}`);
  for (const x of mine) assert.doesNotMatch(x.label, /_|\bc[0-9]\b/, `a raw key on p2's button ${x.label}`);
  // the attacker's player gets no button of c2's
  const theirs = await buttonsOf(t.p1);
  assertOwnButtons("p1", theirs, flag);
  assert.ok(!theirs.some((x) => x.actor === "c2"));
  await t.p2.click(`.gunbai-combat button[data-gunbai='act'][data-index="${pick.index}"]`);
  await settled(t, flag.seq + 1);
  flag = await engineOf(t.gm);
  assert.equal(flag.state.pending ?? null, null, "the exchange is resolved");
  const entry = flag.log.at(-1);
  assert.equal(entry.user, "p2", "the reaction was p2's request");
  // every page shows the exchange's sentences, each in its own language (chat and log)
  for (const p of t.all) {
    await p.waitForFunction(() => document.querySelectorAll("#chat-log .gunbai-action").length > 0);
    const said = await lastSaid(p);
    for (const e of entry.events) {
      assert.ok(e.text && e.rule, `${e.event} has a rule and a sentence`);
      const want = shown(e.text, langs[p.user]);
      assert.ok(said.chat.includes(want), `${p.user} chat: ${said.chat} ∌ ${want}`);
      assert.ok(said.log.includes(want), `${p.user} log: ${said.log} ∌ ${want}`);
    }
  }
  return { t, flag, entry };
}

/** Every page's tracker shows each combatant's HP as the engine has it. */
async function assertHp(t, hpOf) {
  const flag = await engineOf(t.gm);
  for (const id of ["c1", "c2", "c3"]) {
    const [hp, max] = hpOf(flag.state, id);
    for (const p of t.all) assert.equal(await hpShown(p, id), `HP ${hp}/${max}`, `${p.user}: ${id}'s HP`);
  }
}

test("CoC 7th house fight: the GM attacks a player's combatant; the player reacts on their own page; every page shows the sentence and the HP (C7H-ACT-1, C7H-PAS-1)", async () => {
  const { t, entry } = await exchange("coc7_house", {
    hp: { c1: 11, c2: 12, c3: 10 },
    attack: (x) => x.target === "c2",
    react: (x) => x.type === "reaction" && x.kind === "dodge",
    retry: async () => assert.fail("a CoC 7th attack always waits for the reaction"),
  });
  const e = entry.events.find((x) => x.event === "attack_resolved");
  assert.ok(e, JSON.stringify(entry.events));
  assert.equal(e.kind, "dodge");
  assert.equal(e.rule.startsWith("C7H-"), true);
  const c7 = (s, id) => {
    const c = s.combatants.find((x) => x.entry.id === id);
    return [c.hp, c.hp_max];
  };
  await assertHp(t, c7);
  // the damage the sentence states is what the tracker shows
  if (e.hurt) assert.equal((await hpShown(t.p1, e.hurt)).split(" ")[1].split("/")[0], String(e.hp));
  for (const p of t.all) {
    assert.deepEqual(p.errors, [], `${p.user} page errors`);
    assert.deepEqual(await p.evaluate(() => window.__standIn.errors), []);
  }
  await screenshot(t.p2, join(SHOTS, "coc7_house-fight-zh-Hant.png"));
  await t.close();
});

test("CoC 7th house fight to the end: when one side is down every page says who stands (outcome, C7H-ACT-1)", async () => {
  // Bren (p2) alone against Kato (GM), whose club cannot fail to drop her
  const w = fightWorld("coc7_house");
  w.actors = w.actors.slice(1);
  w.combat.combatants = w.combat.combatants.slice(1);
  w.actors[1].flags.gunbai.coc7_house.weapons = [{ id: "club", label: CLUB, skill: 99, damage: "1d6+20" }];
  const t = await table([
    ["gm", "ja"],
    ["p2", "en"],
  ]);
  await setupWorld(t, w);
  await t.gm.evaluate(() => game.modules.get("gunbai").api.startEngine(game.combat, "coc7_house"));
  await settled(t, 0);
  let flag = await engineOf(t.gm);
  for (let tries = 0; !(await t.gm.evaluate(() => game.combat.getFlag("gunbai", "engine").outcome)); tries++) {
    assert.ok(tries < 5, "the fight ended");
    const s = flag.state;
    const cur = s.turn === null || s.turn === undefined ? null : s.order[s.turn];
    if (cur === "c3" && !s.combatants.find((c) => c.entry.id === "c3").active_used) {
      await t.gm.evaluate(() => game.modules.get("gunbai").api.applyAction(game.combat, { type: "attack", actor: "c3", target: "c2", weapon: "club", distance: 0, bonus_dice: 0, concentration: false }));
      await settled(t, flag.seq + 1);
      // Bren takes the attack, on her player's page
      const b = (await buttonsOf(t.p2)).find((x) => x.type === "reaction" && x.actor === "c2" && !x.kind);
      assert.ok(b, JSON.stringify(await buttonsOf(t.p2)));
      await t.p2.click(`.gunbai-combat button[data-gunbai='act'][data-index="${b.index}"]`);
      await settled(t, flag.seq + 2);
    } else {
      await t.gm.evaluate((a) => game.modules.get("gunbai").api.applyAction(game.combat, a), cur ? { type: "end_turn", actor: cur } : { type: "next_round" });
      await settled(t, flag.seq + 1);
    }
    flag = await engineOf(t.gm);
  }
  const outcome = await t.gm.evaluate(() => game.combat.getFlag("gunbai", "engine").outcome);
  const h = gunbai.coc7House.Round.fromJSON(flag.state);
  assert.deepEqual(outcome, h.outcome, "the tracker's outcome is the engine's");
  h.free();
  assert.equal(outcome.side, "cult");
  for (const [p, want] of [[t.gm, "戦闘終了：Katoの勝利"], [t.p2, "The fight is over: Kato stands"]]) {
    await p.waitForSelector(".gunbai-combat .gunbai-outcome[data-side='cult']");
    assert.equal(await p.textContent(".gunbai-combat .gunbai-outcome"), want);
  }
  for (const p of t.all) assert.deepEqual(p.errors, [], `${p.user} page errors`);
  await t.close();
});

test("CoC 6th fight: the GM attacks a player's combatant; the player dodges on their own page; every page shows the sentences and the HP (COCAP-ACT-2)", async () => {
  const { t, entry } = await exchange("coc_ap", {
    hp: { c1: 11, c2: 12, c3: 10 },
    attack: (x) => x.target === "c2",
    react: (x) => x.type === "dodge",
    // a miss: c3 ends its turn, the players end theirs, the GM starts the next round
    retry: async (t) => {
      for (;;) {
        const flag = await engineOf(t.gm);
        const s = flag.state;
        const cur = s.turn === null || s.turn === undefined ? null : s.order[s.turn];
        const a = cur ? { type: "end_turn", actor: cur } : { type: "next_round" };
        await t.gm.evaluate((a) => game.modules.get("gunbai").api.applyAction(game.combat, a), a);
        await settled(t, flag.seq + 1);
        if (!cur) return;
      }
    },
  });
  assert.ok(entry.events.some((e) => e.event === "dodged" || e.event === "damaged" || e.rule), JSON.stringify(entry.events));
  await assertHp(t, (s, id) => {
    const p = s.fighters.find((f) => f.participant.id === id).participant;
    return [p.hp ?? p.hp_max, p.hp_max];
  });
  for (const p of t.all) assert.deepEqual(p.errors, [], `${p.user} page errors`);
  await screenshot(t.gm, join(SHOTS, "coc_ap-fight-ja.png"));
  await t.close();
});

test("FAP/MAP: declare and resolve through fapMap.Round", async () => {
  const t = await startTable("fap_map");
  const steps = await drive(
    t,
    (s, b) => {
      if (s.phase === "declaration") {
        for (const id of ["c1", "c2", "c3"]) {
          const c = s.combatants.find((x) => x.id === id);
          if (!c.declared.length) return find(b, OWNER[id], "declare", id);
        }
        return find(b, "gm", "end_declarations");
      }
      for (const id of ["c1", "c2", "c3"]) {
        const r = find(b, OWNER[id], "resolve", id);
        if (r) return r;
      }
      return find(b, "gm", "end_round");
    },
    (s) => s.round >= 2,
  );
  assert.deepEqual(
    steps.filter((s) => s.type === "declare").map((s) => [s.user, s.actor]),
    [
      ["p1", "c1"],
      ["p2", "c2"],
      ["gm", "c3"],
    ],
  );
  assert.equal(steps.filter((s) => s.type === "resolve").length, 3, "every declaration resolved");
  await finish(t, "fap_map", steps);
});

test("World Trigger: team initiative, the five phases and the team budget through worldTrigger.Battle", async () => {
  const t = await startTable("world_trigger");
  // v13: one CombatantGroup per team, on every client
  for (const p of t.all) {
    const groups = await p.evaluate(() => [...game.combat.combatants].map((c) => [c.id, c.group?.name ?? null]));
    assert.deepEqual(groups, [
      ["c1", "tamakoma"],
      ["c2", "tamakoma"],
      ["c3", "katori"],
      ["c4", "katori"],
    ]);
  }
  const phases = [];
  const steps = await drive(
    t,
    (s, b, done) => {
      if (!phases.length || phases.at(-1) !== s.phase) phases.push(s.phase);
      if (s.phase === "initiative") return find(b, "gm", "roll_initiative");
      if (s.phase === "movement" && !done.some((x) => x.type === "move")) {
        const m = find(b, "p1", "move", "c1");
        if (m) return m;
      }
      // the team's pass: p1 in the tactics and movement phases, p2 in the attack phase
      const first = s.phase === "attack" ? "p2" : "p1";
      return find(b, "gm", "no_reaction") || find(b, first, "pass", "tamakoma") || find(b, "gm", "pass", "katori");
    },
    (s) => s.round >= 2,
    {
      max: 120,
      // the team budget the state records shows on the players' trackers
      after: async (step, flag) => {
        if (step.type !== "move") return;
        assert.equal(flag.state.members.find((m) => m.id === "c1").used.movement, true, "WT-ECO: c1 acted in the movement phase");
        const acted = await t.p2.locator('.gunbai-teams tr[data-team="tamakoma"] td[data-key="ActedThisPhase"]').innerText();
        assert.match(acted, /\b1$/);
      },
    },
  );
  assert.deepEqual(phases.slice(0, 4), ["initiative", "tactics", "movement", "attack"]);
  // WT-RND-1: the engine went through all five phases (the feedback phase passes within the last action)
  const started = await t.gm.evaluate(() => game.messages.flatMap((m) => (m.flags.gunbai?.events ?? []).filter((e) => e.type === "phase_started").map((e) => e.phase)));
  assert.deepEqual(started.slice(0, 5), ["tactics", "movement", "attack", "feedback", "initiative"]);
  assert.ok(steps.some((s) => s.user === "p1" && s.type === "move"), "a player moved their member");
  assert.ok(steps.some((s) => s.user === "p1" && s.type === "pass"), "a player passed for their team");
  // the Foundry tracker shows the teams in the engine's initiative order
  const flag = await engineOf(t.gm);
  const firstTeam = flag.state.teams[flag.state.initiative_order[0]]?.id;
  const turns = await t.p2.evaluate(() => game.combat.turns.map((c) => c.group?.name));
  if (firstTeam) assert.equal(turns[0], firstTeam);
  await finish(t, "world_trigger", steps);
});

// ---------- permissions ----------

test("a player acts only on their own combatant: no buttons for others; spoofed requests are refused (the server vouches for the author)", async () => {
  const t = await startTable("tmd");
  await t.gm.click(".gunbai-combat button[data-type='start_turns']");
  await settled(t, 1);
  const before = await engineOf(t.gm);
  const cur = before.state.current;
  const forger = OWNER[cur] === "p1" ? "p2" : "p1"; // a player who does not own `cur`
  const victim = OWNER[cur];
  assert.notEqual(victim, forger);
  // no button for the other's combatant on the forger's page
  const own = await buttonsOf(t[forger]);
  assert.ok(!own.some((b) => b.actor === cur), "no button for another player's combatant");
  const actionMessages = () => t.gm.evaluate(() => game.messages.filter((m) => m.flags.gunbai?.ruleset).length);
  const n0 = await actionMessages();
  // 1. a bare socket message claiming to be the owner (the old way): nothing listens
  await t[forger].evaluate(
    ([cur, user]) => game.socket.emit("module.gunbai", { type: "act", id: "forged", combat: game.combat.id, action: { type: "end_turn", actor: cur }, user, rollMode: "publicroll" }),
    [cur, victim],
  );
  // 2. a request message claiming another author: the client refuses it, and so does
  //    the server when a modified client sends it anyway
  const claimed = await t[forger].evaluate(
    (victim) =>
      ChatMessage.create({ author: victim, content: "", whisper: ["gm"], flags: { gunbai: { request: { combat: game.combat.id, seq: 1, index: 0 } } } }).then(
        () => null,
        (e) => e.message,
      ),
    victim,
  );
  assert.match(claimed, /lacks permission to create ChatMessage as another user/);
  const victimIndex = (await t[victim].evaluate(() => game.modules.get("gunbai").api.actionsFor(game.combat))).findIndex((a) => a.action.type === "end_turn" && a.action.actor === cur);
  assert.ok(victimIndex >= 0, "the owner's listing has end_turn");
  await t[forger].evaluate(
    ([victim, i]) =>
      window.__standInRelay({ kind: "chat", user: victim, data: { id: "mforged", author: victim, content: "", whisper: ["gm"], rolls: [], flags: { gunbai: { request: { combat: game.combat.id, seq: 1, index: i } } } } }),
    [victim, victimIndex],
  );
  // 3. a request of the forger's own that names the owner and the owner's action: the
  //    GM's client reads only the author and an index into the author's own listing
  const third = await t[forger].evaluate(
    ([victim, cur]) =>
      ChatMessage.create({
        content: "",
        whisper: ["gm"],
        flags: { gunbai: { request: { combat: game.combat.id, seq: 1, index: 99, user: victim, action: { type: "end_turn", actor: cur } } } },
      }).then((m) => m.id),
    [victim, cur],
  );
  await t[forger].waitForFunction((id) => game.modules.get("gunbai").api.viewOf(game.combat)?.answer?.request === id, third);
  const answer = (await t[forger].evaluate(() => game.modules.get("gunbai").api.viewOf(game.combat))).answer;
  assert.deepEqual([answer.ok, answer.code], [false, "not_legal"]);
  // the module API refuses an action not in the player's listing
  const err = await t[forger].evaluate(
    (cur) => game.modules.get("gunbai").api.requestAction(game.combat, { type: "end_turn", actor: cur }).then(() => null, (e) => e.message),
    cur,
  );
  assert.match(err, /Not a legal action now/);
  // a player cannot write the combat's flag directly (Foundry: GM only)
  const direct = await t[forger].evaluate(() => game.combat.setFlag("gunbai", "engine", null).then(() => null, (e) => e.message));
  assert.match(direct, /lacks permission to update Combat/);
  await t.gm.waitForTimeout(500);
  // nothing changed: the record is byte-identical on the GM's client, nothing was posted
  const after = await engineOf(t.gm);
  assert.equal(JSON.stringify(after), JSON.stringify(before));
  assert.equal(await actionMessages(), n0, "no action was posted");
  assert.ok(!(await t.gm.evaluate(() => game.messages.some((m) => m.flags.gunbai?.request))), "request messages are deleted once answered");
  // the owner's own request is applied, in the owner's roll mode (self: whispered to the owner)
  const owner = t[victim];
  if (victim !== "gm") {
    await owner.evaluate(() => game.settings.set("core", "rollMode", "selfroll"));
    await owner.evaluate((cur) => game.modules.get("gunbai").api.requestAction(game.combat, { type: "end_turn", actor: cur }), cur);
    await settled(t, before.seq + 1);
    const m = await t.gm.evaluate(() => {
      const x = game.messages.filter((m) => m.flags.gunbai?.ruleset).at(-1);
      return { author: x.author, action: x.flags.gunbai.action };
    });
    assert.deepEqual(m, { author: victim, action: { type: "end_turn", actor: cur } });
  }
  for (const p of t.all) assert.deepEqual(p.errors, []);
  await t.close();
});

test("Foundry's initiative buttons do not overwrite the engine's initiative (Combat#rollInitiative, Combatant#getInitiativeRoll)", async () => {
  const t = await table([
    ["gm", "en"],
    ["p1", "en"],
  ]);
  await setupWorld(t, world("coc7_house"));
  // without an engine, Foundry's own d20 initiative applies
  await t.gm.click("#combat [data-control='rollAll']");
  await t.gm.waitForFunction(() => [...game.combat.combatants].every((c) => c.initiative !== null));
  const rolled = await t.gm.evaluate(() => [...game.combat.combatants].map((c) => c.initiative));
  assert.ok(rolled.every((v) => v >= 1 && v <= 20), JSON.stringify(rolled));
  await t.gm.evaluate(() => game.modules.get("gunbai").api.startEngine(game.combat, "coc7_house"));
  await settled(t, 0);
  const engine = await t.gm.evaluate(() => [...game.combat.combatants].map((c) => [c.id, c.initiative]));
  assert.deepEqual(engine, [
    ["c1", 3],
    ["c2", 2],
    ["c3", 1],
  ]);
  // the GM's "roll all" and "next round" and a player's own d20 button leave the engine's values
  await t.gm.click("#combat [data-control='rollAll']");
  await t.gm.click("#combat [data-control='nextRound']");
  await t.p1.click("#combat li[data-combatant-id='c1'] [data-control='rollInitiative']");
  await t.gm.waitForTimeout(300);
  for (const p of t.all) assert.deepEqual(await p.evaluate(() => [...game.combat.combatants].map((c) => [c.id, c.initiative])), engine);
  assert.ok((await t.p1.evaluate(() => window.__standIn.notifications)).some(([, m]) => /Initiative comes from the gunbai engine/.test(m)));
  assert.ok((await t.gm.evaluate(() => window.__standIn.notifications)).some(([, m]) => /Rounds and turns come from the gunbai engine/.test(m)));
  for (const p of t.all) assert.equal(await p.evaluate(() => game.combat.round), 1, "Foundry's next round left the engine's round");
  // getInitiativeRoll is the engine's constant, not a die
  const roll = await t.gm.evaluate(async () => {
    const r = game.combat.combatants.get("c2").getInitiativeRoll("1d20");
    await r.evaluate();
    return [r.formula, r.total, r.dice.length];
  });
  assert.deepEqual(roll, ["2", 2, 0]);
  await t.close();
});

test("v12 (no CombatantGroup): teams come from flags and dispositions, the engine runs", async () => {
  const t = await table([["gm", "en"]], { generation: 12 });
  await setupWorld(t, world("tmd"));
  assert.equal(await t.gm.evaluate(() => "groups" in game.combat), false);
  await t.gm.evaluate(() => game.modules.get("gunbai").api.startEngine(game.combat, "tmd"));
  const sides = (await engineOf(t.gm)).state.characters.map((c) => [c.id, c.side]);
  assert.deepEqual(sides, [
    ["c1", "friendly"],
    ["c2", "friendly"],
    ["c3", "hostile"],
  ]);
  // v12's renderChatMessage hook (jQuery-like) relabels action messages too
  await t.gm.click(".gunbai-combat button[data-type='start_turns']");
  await t.gm.waitForFunction(() => game.messages.some((m) => m.flags.gunbai?.action?.type === "start_turns"));
  const head = await t.gm.locator("#chat-log .gunbai-action .gunbai-command").last().innerText();
  assert.match(head, /^TMD encounter · Start turns$/);
  await t.close();
});

// ---------- rolls: honest totals, Dice So Nice, roll modes, custom content ----------

let solo;
const lastMessage = (page) =>
  page.evaluate(() => {
    const m = game.messages.at(-1);
    return { content: m.content, flags: m.flags, rolls: m.rolls.map((r) => r.toJSON()), whisper: m.whisper, blind: m.blind, author: m.author };
  });
const lastDsn = (page) => page.evaluate(() => window.__standIn.dsn.at(-1));
const post = (page, text, system, seed, prefix, lang = "en") =>
  page.evaluate(
    async ([text, system, seed, prefix, lang]) => {
      const api = game.modules.get("gunbai").api;
      const out = await api.runCommand(text, { system, lang, seed });
      await api.postResult(out, { command: `${prefix} ${text}`, system });
    },
    [text, system, seed, prefix, lang],
  );
const run = (text, system, seed) => gunbai.command.run({ text, system, lang: "en", seed });
const sum = (rolls) => rolls.reduce((a, r) => a + r.value, 0);

test("package.sh: a zip and a module.json whose manifest and download point to the given base URL", () => {
  const out = mkdtempSync(join(tmpdir(), "gunbai-foundry-"));
  try {
    execFileSync("bash", [join(REPO_ROOT, "examples", "foundry-module", "package.sh"), "https://example.org/gunbai/foundry/", out], { stdio: "pipe" });
    const m = JSON.parse(readFileSync(join(out, "module.json"), "utf8"));
    assert.equal(m.manifest, "https://example.org/gunbai/foundry/module.json");
    assert.equal(m.download, `https://example.org/gunbai/foundry/gunbai-foundry-${m.version}.zip`);
    const listing = execFileSync("python3", ["-m", "zipfile", "-l", join(out, `gunbai-foundry-${m.version}.zip`)], { encoding: "utf8" });
    for (const f of ["gunbai/module.json", "gunbai/scripts/gunbai-foundry.mjs", "gunbai/scripts/combat.mjs", "gunbai/lang/ja.json", "gunbai/vendor/gunbai/index.js"]) assert.ok(listing.includes(f), f);
    assert.throws(() => execFileSync("bash", [join(REPO_ROOT, "examples", "foundry-module", "package.sh"), "http://insecure.example/"], { stdio: "pipe" }));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

// The sheet hand-off: the character-sheet site's file for each ruleset, imported into two
// actors (api.importSheet, what the actor sheet's import dialog calls with the pasted or
// dropped text), gives the engine the GM starts the state of the engine set up directly
// from the file: no field of the character is lost (CoC weapons, ap_bonus, HP, Dodge and
// damage bonus, TMD immune_to_surprise, FAP/MAP traits, a World Trigger sheet with the
// square the host gives it).
let handoffDocs = null;
for (const system of Object.keys(HANDOFF)) {
  test(`sheet hand-off (${system}): the character-sheet site's file, imported into two actors, starts the engine as the file set up directly`, async () => {
    handoffDocs ??= await exportedDocuments(browser);
    const doc = handoffDocs[system];
    assert.equal(doc.gunbai_sheet, 1);
    assert.equal(doc.system, system);
    assert.ok(doc.valid, `${system}: the site says the sheet is valid`);
    const squares = { c1: { x: 1, y: 1 }, c2: { x: 8, y: 3 } };
    const members = ["c1", "c2"].map((id, i) => ({ id, doc, side: i ? "red" : "blue", name: `${doc.name} ${i + 1}`, ...(system === "world_trigger" ? { at: squares[id] } : {}) }));
    const t = await table([["gm", "en"]]);
    try {
      await setupWorld(t, {
        actors: members.map((m, i) => ({ id: `A${i + 1}`, name: m.name, ownership: i ? {} : { p1: 3 }, flags: system === "world_trigger" ? { gunbai: { world_trigger: { at: m.at } } } : {} })),
        combat: { id: `combat-handoff-${system}`, combatants: members.map((m, i) => ({ id: m.id, name: m.name, actorId: `A${i + 1}`, disposition: i ? -1 : 1, flags: { gunbai: { team: m.side } } })) },
      });
      // the file's text, as pasted or dropped into the dialog
      const imported = await t.gm.evaluate(
        async (text) => Promise.all(["A1", "A2"].map((a) => game.modules.get("gunbai").api.importSheet(game.actors.get(a), text))),
        JSON.stringify(doc, null, 2),
      );
      assert.deepEqual(imported, [system, system]);
      const flag = await t.gm.evaluate(([system]) => game.modules.get("gunbai").api.startEngine(game.combat, system, { seed: 7 }), [system]);
      const H = { world_trigger: gunbai.worldTrigger.Battle, tmd: gunbai.tmd.Encounter, coc7_house: gunbai.coc7House.Round, coc_ap: gunbai.cocAp.Round, fap_map: gunbai.fapMap.Round }[system];
      const h = H.create(directSetup(system, members, { seed: 7 }));
      assert.deepEqual(flag.state, h.state);
      h.free();
      // what the file carries reached the engine
      const c = doc.combatant;
      if (system === "coc_ap") assert.ok(c.weapons?.length && c.ap_bonus === 2 && c.hp_max > 0, JSON.stringify(c));
      if (system === "coc7_house") assert.ok(c.weapons?.[0]?.range && c.hp > 0 && c.dodge === 40 && c.db && c.is_pc, JSON.stringify(c));
      if (system === "tmd") assert.equal(c.immune_to_surprise, true);
      if (system === "fap_map") assert.deepEqual(c.traits, HANDOFF.fap_map.sheet.traits);
      assert.deepEqual(t.gm.errors, []);
    } finally {
      await t.close();
    }
  });
}

test("buttons name every listed action in words in four languages: no raw engine key, no key: value (each ruleset, games played in Node)", async () => {
  const battle3 = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "battles", "rank_3v3.json"), "utf8"));
  const setups = {
    world_trigger: battle3,
    tmd: { characters: [{ id: "c1", side: "a", base_initiative: 5 }, { id: "c2", side: "b", base_initiative: 3 }], seed: 1 },
    coc7_house: { participants: [{ id: "c1", dex: 60, side: "a", hp: 12, dodge: 40, weapons: [{ id: "knife", skill: 45, damage: "1d4" }] }, { id: "c2", dex: 50, side: "b", hp: 10, weapons: [{ id: "club", skill: 50, damage: "1d6" }] }] },
    coc_ap: { participants: [{ id: "c1", dex: 14, side: "a", hp_max: 12, skills: { dodge: 40 }, weapons: [{ name: "knife", skill: 45, damage: "1d4" }] }, { id: "c2", dex: 12, side: "b", hp_max: 10, weapons: [{ name: "club", skill: 50, damage: "1d6" }] }] },
    fap_map: { combatants: [{ id: "c1", reaction: 10, magic: 5, agility: 7 }, { id: "c2", reaction: 8, magic: 3, agility: 9 }] },
  };
  globalThis.CONST ??= { DOCUMENT_OWNERSHIP_LEVELS: { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } };
  globalThis.game = { i18n: { lang: "en", localize: (k) => k } };
  const combat = await import("../../examples/foundry-module/scripts/combat.mjs");
  const rules = await import("../../examples/foundry-module/scripts/rulesets.mjs");
  combat.setPackage(Promise.resolve(gunbai));
  await new Promise((r) => setTimeout(r, 20));
  const strings = Object.fromEntries(["ja", "zh-Hant", "zh-Hans", "en"].map((l) => [l, JSON.parse(readFileSync(join(REPO_ROOT, "examples", "foundry-module", "lang", `${l}.json`), "utf8"))]));
  const typesSeen = new Set();
  const bad = new Set();
  try {
    for (const [ruleset, setup] of Object.entries(setups)) {
      const ids = ruleset === "world_trigger" ? battle3.teams.flatMap((tm) => tm.members.map((m) => m.id)) : ["c1", "c2"];
      // the host's own names: combatants, teams, weapons (shown as given, in any language)
      const names = ids.map((id, i) => [id, `Nm${i}`]);
      const hostWords = [...names.map(([, n]) => n), ...(ruleset === "world_trigger" ? battle3.teams.map((tm) => tm.id) : []), "knife", "club"];
      const combatNames = { combatants: Object.assign(names.map(([id, name]) => ({ id, name })), { get: (id) => ({ name: Object.fromEntries(names)[id] }) }) };
      const h = rules.engineClass(gunbai, ruleset).create(setup);
      let x = 11;
      for (let n = 0; n < (ruleset === "world_trigger" ? 40 : 80); n++) {
        const all = h.legalActions();
        if (!all.length) break;
        // (a World Trigger listing has one move per square: a sample of each type is enough)
        const byType = new Map();
        for (const l of all) byType.set(l.action.type, [...(byType.get(l.action.type) ?? []), l]);
        const list = [...byType.values()].flatMap((g) => g.filter((_, i) => i % Math.ceil(g.length / 6) === 0));
        for (const lang of ["ja", "zh-Hant", "zh-Hans", "en"]) {
          const localize = (k) => k.split(".").reduce((o, w) => (o && typeof o === "object" ? o[w] : undefined), strings[lang]) ?? k;
          globalThis.game = { i18n: { lang, localize } };
          // two different actions never look alike (same words and cost): the buttons would repeat
          const alike = new Map();
          for (const l of lang === "en" ? all : []) {
            const { action, ...cost } = l;
            const look = `${combat.actionLabel(combatNames, { ruleset, state: h.state, seq: 0, log: [], weapons: {} }, action)} ${JSON.stringify(cost)}`;
            const was = alike.get(look);
            if (was && was !== JSON.stringify(action)) bad.add(`${ruleset} ${lang}: two actions read "${look}": ${was} ${JSON.stringify(action)}`);
            alike.set(look, JSON.stringify(action));
          }
          for (const l of list) {
            typesSeen.add(`${ruleset}:${l.action.type}`);
            const label = combat.actionLabel(combatNames, { ruleset, state: h.state, seq: 0, log: [], weapons: {} }, l.action);
            const bare = hostWords.reduce((t, w) => t.split(w).join(""), label);
            const why = `${ruleset} ${lang}: ${label} (${JSON.stringify(l.action)})`;
            if (/_|\b[a-z]+: [\d{["]|\{|\btrue\b|\bfalse\b|undefined/.test(bare)) bad.add(why);
            // outside English, no word of the engine's keys is left (the rulesets' terms only)
            if (lang !== "en" && /[a-z]{3,}/.test(bare.replace(/\b(AP|FAP|MAP|GM|KP|HP)\b/g, ""))) bad.add(why);
          }
        }
        x = (x * 1103515245 + 12345) % 2147483648;
        try {
          h.act(all[x % all.length].action, { seed: n });
        } catch {
          /* an action the engine refuses here (its dice) */
        }
      }
      h.free();
    }
  } finally {
    delete globalThis.game;
  }
  assert.deepEqual([...bad].slice(0, 30), []);
  assert.ok(typesSeen.size >= 40, [...typesSeen].join(" "));
});

test("World Trigger log: an event whose target or reactor a team's view leaves unnamed (Stealth, WT-ST-1) shows an unseen member, in four languages", async () => {
  // the core's view for team b of the views vectors' battle (a1 of team a in Stealth)
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
  const seen = h.view("b", events).events;
  for (const e of seen) assert.ok(!JSON.stringify(e).includes('"a1"'), JSON.stringify(e));
  const combat = { combatants: Object.assign([{ id: "a1", name: "Kuga" }, { id: "b1", name: "Katori" }], { get: (id) => ({ a1: { name: "Kuga" }, b1: { name: "Katori" } })[id] }) };
  for (const lang of ["ja", "zh-Hant", "zh-Hans", "en"]) {
    const strings = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "foundry-module", "lang", `${lang}.json`), "utf8"));
    const localize = (k) => k.split(".").reduce((o, x) => (o && typeof o === "object" ? o[x] : undefined), strings) ?? k;
    // (the module reads Foundry's globals: the i18n and, at load, the ownership levels)
    globalThis.game = { i18n: { lang, localize } };
    globalThis.CONST ??= { DOCUMENT_OWNERSHIP_LEVELS: { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } };
    const { eventsText } = await import("../../examples/foundry-module/scripts/combat.mjs");
    const unseen = localize("GUNBAI.Combat.Unseen");
    assert.notEqual(unseen, "GUNBAI.Combat.Unseen", lang);
    for (const e of seen) {
      const line = eventsText([e], combat);
      assert.ok(line.includes(unseen), `${lang} ${e.type}: ${line}`);
      assert.doesNotMatch(line, /undefined|Kuga/, `${lang} ${e.type}: ${line}`);
    }
    // team a's own view names its member
    assert.ok(eventsText([h.view("a", events).events[3]], combat).includes("Kuga"), lang);
  }
  delete globalThis.game;
  delete globalThis.CONST;
});

test("module.json: manifest and download URLs, no socket, v12 minimum / v13 verified, every file present", async () => {
  const manifest = await (await fetch(`${server.url}examples/foundry-module/module.json`)).json();
  assert.equal(manifest.id, "gunbai");
  assert.deepEqual(manifest.compatibility, { minimum: "12", verified: "13" });
  assert.equal(manifest.socket, undefined, "no module socket: players' requests are chat messages the server vouches for");
  assert.match(manifest.manifest, /^https:\/\/.+\/module\.json$/);
  assert.match(manifest.download, /^https:\/\/.+\.zip$/);
  for (const f of [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((l) => l.path)]) {
    const r = await fetch(`${server.url}examples/foundry-module/${f}`);
    assert.equal(r.status, 200, f);
  }
});

test("chat commands: gunbai's faces on the Roll, seeded results equal Node's, malformed commands warn", async () => {
  solo = await table([
    ["gm", "en"],
    ["p1", "en"],
    ["p2", "en"],
  ]);
  const page = solo.gm;
  await setupWorld(solo, { actors: [] });
  const before = await page.evaluate(() => game.messages.length);
  assert.equal(await page.evaluate(() => window.__sendChat("/dice 4d6+2")), true, "the chatMessage hook handled it");
  await page.waitForFunction((n) => game.messages.length > n, before);
  let msg = await lastMessage(page);
  const result = msg.flags.gunbai.result;
  assert.equal(result.rolls.length, 4);
  assert.deepEqual(msg.rolls[0].terms.filter((x) => x.class === "Die").flatMap((d) => d.results.map((r) => r.result)), result.rolls.map((r) => r.value));
  assert.equal(msg.rolls[0].total, result.total);
  assert.equal(gunbai.dice.roll({ expr: "4d6+2", rolls: result.rolls }).total, result.total);
  assert.equal(await page.evaluate(() => window.__sendChat("hello table")), false, "ordinary chat is left alone");

  // seeded through the module API = Node's command.run
  await post(page, "WT5T1>=10", "world_trigger", 7, "/wt");
  msg = await lastMessage(page);
  assert.deepEqual(msg.flags.gunbai.result, run("WT5T1>=10", "world_trigger", 7));
  assert.ok(msg.content.includes(run("WT5T1>=10", "world_trigger", 7).text.split("\n")[0].replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")));

  // a malformed command warns the sender where it went wrong; no message
  const m0 = await page.evaluate(() => [game.messages.length, window.__standIn.notifications.length]);
  await page.evaluate(() => window.__sendChat("/coc CC(1<=50"));
  await page.waitForFunction((k) => window.__standIn.notifications.length > k, m0[1]);
  assert.match((await page.evaluate(() => window.__standIn.notifications.at(-1)))[1], /closing '\)'/);
  await page.evaluate(() => window.__sendChat("/wt hello there"));
  await page.waitForFunction((k) => window.__standIn.notifications.length > k, m0[1] + 1);
  assert.match((await page.evaluate(() => window.__standIn.notifications.at(-1)))[1], /not a world_trigger command/);
  assert.equal(await page.evaluate(() => game.messages.length), m0[0]);
});

test("honest totals: a CoC check's Roll total is its result (d100s kept by kl/kh); otherwise the Roll is flavoured dice only", async () => {
  const page = solo.gm;
  // CoC 7th with a bonus die: the Roll is 2d100kl, total = the check's roll
  for (const [text, mod] of [
    ["CC(1)<=50", "kl"],
    ["CC(-1)<=50", "kh"],
    ["CC<=50", null],
  ]) {
    const r = run(text, "coc7", 11);
    await post(page, text, "coc7", 11, "/coc");
    const msg = await lastMessage(page);
    const roll = msg.rolls[0];
    assert.equal(roll.total, r.result.roll, `${text}: Roll total = the result`);
    assert.equal(roll.total, r.total);
    assert.equal(roll.formula, `${r.result.candidates.length}d100${mod ?? ""}`);
    const d = roll.terms[0];
    assert.deepEqual(d.results.map((x) => x.result), r.result.candidates);
    assert.deepEqual(d.results.filter((x) => x.active).map((x) => x.result), [r.result.roll]);
    // Dice So Nice: per d100 a tens die reading 00–90 and a units die 0–9, reading the candidate
    const dsn = (await lastDsn(page)).rolls[0].dice;
    assert.equal(dsn.length, 2 * r.result.candidates.length);
    for (let i = 0; i < r.result.candidates.length; i++) {
      const [tens, units] = [dsn[2 * i], dsn[2 * i + 1]];
      assert.equal(tens.type, "d100");
      assert.match(tens.label, /^[0-9]0$/);
      assert.equal(units.type, "d10");
      const read = Number(tens.label) + Number(units.label);
      assert.equal(read === 0 ? 100 : read, r.result.candidates[i]);
    }
  }
  // the /coc CC(1)<=50 of the issue (seed 11 here: candidates 60, 20 → 20): never the dice sum
  const cc = run("CC(1)<=50", "coc7", 11);
  assert.notEqual(sum(cc.rolls), cc.total, "the dice add up to something else than the result");

  // a World Trigger critical: the achievement is not the dice sum → dice only
  const crit = run("WT5T1>=10", "world_trigger", 7);
  assert.equal(crit.result.criticals, 1);
  await post(page, "WT5T1>=10", "world_trigger", 7, "/wt");
  let roll = (await lastMessage(page)).rolls[0];
  assert.equal(roll.total, sum(crit.rolls));
  assert.notEqual(roll.total, crit.total);
  assert.equal(roll.options.flavor, "dice only");
  // a repeated command: one Roll per run, flavoured with the run
  const rep = run("x2 2d6+1", null, 3);
  await post(page, "x2 2d6+1", null, 3, "/dice");
  const rolls = (await lastMessage(page)).rolls;
  assert.deepEqual(rolls.map((x) => [x.total, x.options.flavor ?? null]), rep.repeats.map((x, i) => [x.total, `#${i + 1}`]));
  // WDT10[OH]: the die shows 4, the held condition shifts it to row 5: dice only
  const wdt = run("WDT10[OH]", "world_trigger", 18);
  assert.deepEqual([wdt.result.roll, wdt.result.row], [4, 5]);
  await post(page, "WDT10[OH]", "world_trigger", 18, "/wt");
  roll = (await lastMessage(page)).rolls[0];
  assert.deepEqual([roll.total, roll.options.flavor], [4, "dice only"]);
  // the message text says what the rule made of the dice
  assert.ok((await lastMessage(page)).content.includes("(4→5)"));
});

test("Dice So Nice: a plain d10's face 10 reads 10 (the module's d10 term), not DSN's 0", async () => {
  const page = solo.gm;
  // a seed whose 1d10 is a 10, found with gunbai itself
  let seed = 0;
  while (gunbai.dice.roll({ expr: "1d10", seed }).rolls[0].value !== 10) seed++;
  await post(page, "1d10", null, seed, "/dice");
  const msg = await lastMessage(page);
  assert.equal(msg.rolls[0].total, 10);
  assert.equal(msg.rolls[0].terms[0].class, "GunbaiD10");
  const dsn = (await lastDsn(page)).rolls[0].dice;
  assert.deepEqual(dsn, [{ type: "dt", result: 10, label: "10" }]);
  // the module's message shows the face as "10" too
  assert.ok(msg.content.includes('<span class="gunbai-die d10">10</span>'));
  // a TMD initiative check (TI: d10 + base): total = d10 + base, shown with the 10
  const ti = run("TI+3", "tmd", seed);
  await post(page, "TI+3", "tmd", seed, "/tmd");
  const t = await lastMessage(page);
  assert.equal(ti.rolls[0].value, 10);
  assert.equal(t.rolls[0].total, 10, "the Roll is the d10; the message gives the initiative");
  assert.ok(t.content.includes(String(ti.total)));
});

test("roll modes: public, private GM, blind and self: only the users a mode entitles receive the roll (what each client shows)", async () => {
  const { gm, p1, p2 } = solo;
  const seen = async (page, id) =>
    page.evaluate((id) => {
      const li = document.querySelector(`#chat-log li[data-message-id="${id}"]`);
      if (!li) return game.messages.some((m) => m.id === id) ? "not shown" : "hidden";
      return li.querySelector(".rolled-privately") ? "private" : li.querySelector(".gunbai-result") ? "content" : "other";
    }, id);
  // "hidden": the client never received the message (the stand-in's server sends a
  // whisper without rolls to its author and recipients only)
  const expect = {
    publicroll: { whisper: [], blind: false, rolls: 1, gm: "content", p1: "content", p2: "content" },
    gmroll: { whisper: ["gm"], blind: false, rolls: 0, gm: "content", p1: "content", p2: "hidden" },
    blindroll: { whisper: ["gm"], blind: true, rolls: 0, gm: "content", p1: "private", p2: "hidden" },
    selfroll: { whisper: ["p1"], blind: false, rolls: 0, gm: "hidden", p1: "content", p2: "hidden" },
  };
  for (const [mode, want] of Object.entries(expect)) {
    await p1.evaluate((m) => game.settings.set("core", "rollMode", m), mode);
    for (const p of solo.all) p.payloads.length = 0;
    const n = await p1.evaluate(() => game.messages.length);
    await p1.evaluate(() => window.__sendChat("/dice 1d6"));
    await p1.waitForFunction((n) => game.messages.length > n, n);
    const id = await p1.evaluate(() => game.messages.at(-1).id);
    for (const u of ["gm", "p2"]) if (want[u] !== "hidden") await solo[u].waitForFunction((id) => game.messages.some((m) => m.id === id), id);
    await p1.waitForTimeout(200);
    const m = await lastMessage(p1);
    assert.equal(m.author, "p1");
    assert.deepEqual([m.whisper, m.blind, m.rolls.length], [want.whisper, want.blind, want.rolls], mode);
    for (const u of ["gm", "p1", "p2"]) assert.equal(await seen(solo[u], id), want[u], `${mode}: ${u}`);
    // a user the mode does not entitle receives no dice at all
    if (want.p2 === "hidden") assert.deepEqual(rollLeaks(p2.payloads, []), [], `${mode}: p2 received the dice`);
  }
  // an S command is whispered to the GMs even in public mode
  await p1.evaluate(() => game.settings.set("core", "rollMode", "publicroll"));
  const n = await gm.evaluate(() => game.messages.length);
  await p1.evaluate(() => window.__sendChat("/coc SCC<=50"));
  await gm.waitForFunction((n) => game.messages.length > n, n);
  assert.deepEqual((await lastMessage(gm)).whisper, ["gm"]);
});

test("custom content: Foundry skips a Roll's HTML when the message has its own; the module's content shows the dice", async () => {
  const page = solo.gm;
  await post(page, "2d6", null, 5, "/dice");
  const id = await page.evaluate(() => game.messages.at(-1).id);
  const li = page.locator(`#chat-log li[data-message-id="${id}"]`);
  assert.equal(await li.locator(".dice-roll").count(), 0, "no Roll HTML under custom content");
  const faces = run("2d6", null, 5).rolls.map((r) => String(r.value));
  assert.deepEqual(await li.locator(".gunbai-dice .gunbai-die").allInnerTexts(), faces);
  // a message without content of its own gets the Roll's card
  await page.evaluate(async () => {
    const r = new Roll("1d6");
    await r.evaluate();
    await ChatMessage.create({ content: "", rolls: [r] });
  });
  const id2 = await page.evaluate(() => game.messages.at(-1).id);
  assert.equal(await page.locator(`#chat-log li[data-message-id="${id2}"] .dice-roll`).count(), 1);
  for (const p of solo.all) assert.deepEqual(p.errors, []);
  await solo.close();
});

// ---------- hidden information ----------

// WT-ST-1 / WT-MAP-7: a member in Stealth has no square for the other team. Users:
// p2 owns c2 (tamakoma, teleported in with Bagworm, WT-MAP-6), p1 owns c4 (katori).
// The GM's client applies the actions; each page shows its own view.
test("a Stealth member's position is absent from the other team's view (viewFor, panel, log, chat)", async () => {
  const w = world("world_trigger");
  w.actors[0].ownership = {};
  w.actors[1].ownership = { p2: 3 };
  w.actors[3].ownership = { p1: 3 };
  const t = await table([
    ["gm", "en"],
    ["p1", "en"],
    ["p2", "en"],
  ]);
  await setupWorld(t, w);
  await t.gm.evaluate(() => game.modules.get("gunbai").api.startEngine(game.combat, "world_trigger"));
  await settled(t, 0);
  let flag = await engineOf(t.gm);
  const c2 = flag.state.members.find((m) => m.id === "c2");
  const start = c2.at;
  // a player's client never receives the record
  for (const u of ["p1", "p2"]) assert.equal(await engineOf(t[u]), null, `${u} has no record`);
  assert.ok(c2.states.stealth, "c2 teleported in with Bagworm (WT-MAP-6)");
  const view = (team, events) => t.gm.evaluate(([s, team, ev]) => game.modules.get("gunbai").api.viewFor("world_trigger", s, team === null ? null : { team }, ev), [flag.state, team, events]);
  const theirs = (await view("katori")).state.members.find((m) => m.id === "c2");
  assert.ok(theirs && !("at" in theirs), "no square for the other team");
  assert.deepEqual((await view("tamakoma")).state.members.find((m) => m.id === "c2").at, c2.at, "its own team sees it");
  assert.deepEqual((await view(null)).state, flag.state, "the GM sees everything");
  // a player with no combatant sees only what every team may see
  assert.ok(!("at" in (await view("nobody")).state.members.find((m) => m.id === "c2")));

  // Katori moves up to 4 squares from c2; c2 moves in Stealth, staying 4 away
  // (WT-ST-1 item 1 would end it within 3); then the attack phase.
  const d = (a, b) => Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
  let moved = null;
  let route = null;
  let targeted = false;
  for (let n = 0; n < 40 && !(moved && targeted); n++) {
    flag = await engineOf(t.gm);
    const s = flag.state;
    const h = gunbai.worldTrigger.Battle.fromJSON(s);
    const legal = h.legalActions().map((l) => l.action);
    h.free();
    const me = s.members.find((m) => m.id === "c2");
    const enemies = s.members.filter((m) => m.team === 1).map((m) => m.at);
    const dest = (a) => a.path[a.path.length - 1];
    let pick = null;
    if (s.phase === "movement") {
      pick =
        legal.find((a) => a.type === "move" && a.actor === "c2" && !moved && d(dest(a), me.at) > 0 && enemies.every((e) => d(e, dest(a)) >= 4)) ??
        legal
          .filter((a) => a.type === "move" && (a.actor === "c3" || a.actor === "c4") && d(dest(a), me.at) >= 4)
          .sort((a, b) => d(dest(a), me.at) - d(dest(b), me.at))[0];
    }
    if (s.phase === "attack" && s.members.find((m) => m.id === "c2")?.states.stealth) {
      // the core's listing for c4's team names nothing of the hidden c2 (WT-ST-1)
      const h4 = gunbai.worldTrigger.Battle.fromJSON(s);
      const named = h4.legalActions({ actor: "c4", viewer: "katori" }).filter((l) => l.action.target === "c2" || l.action.actor === "c2");
      h4.free();
      assert.deepEqual(named, [], "katori's listing names the hidden c2");
    }
    if (s.phase === "attack" && legal.some((a) => a.actor === "c4" && a.target === "c2")) {
      // the engine lists an attack on the hidden c2 for its GM-side listing; p1 (c4's
      // owner) is not offered it, nor any button naming c2
      const gmButtons = await buttonsOf(t.gm);
      assert.ok(gmButtons.some((b) => b.actor === "c4" && b.label.includes("Bren")), "the GM's page lists c4's attack on c2");
      const p1Buttons = await buttonsOf(t.p1);
      assert.ok(p1Buttons.some((b) => b.actor === "c4"), "p1 has c4's actions");
      assert.deepEqual(p1Buttons.filter((b) => b.label.includes("Bren") || b.actor === "c2"), [], "p1 is offered nothing naming c2");
      targeted = true;
      continue;
    }
    pick ??= legal.find((a) => ["roll_initiative", "pass", "no_reaction"].includes(a.type));
    assert.ok(pick, `nothing to pick in ${s.phase}`);
    // c2's move is its player's request, from its own team's page
    if (pick.type === "move" && pick.actor === "c2") await t.p2.evaluate((a) => game.modules.get("gunbai").api.requestAction(game.combat, a), pick);
    else await t.gm.evaluate((a) => game.modules.get("gunbai").api.applyAction(game.combat, a), pick);
    await settled(t, flag.seq + 1);
    if (pick.type === "move" && pick.actor === "c2") {
      moved = dest(pick);
      route = [s.members.find((m) => m.id === "c2").at, ...pick.path];
    }
  }
  assert.ok(moved, "c2 moved");
  assert.ok(targeted, "an attack on c2 was listed for c4 (the check above ran)");
  flag = await engineOf(t.gm);
  const now = flag.state.members.find((m) => m.id === "c2");
  assert.ok(now.states.stealth, "c2 is still in Stealth");
  assert.deepEqual(now.at, moved);
  const square = `(${moved.x}, ${moved.y})`;
  // the log line of c2's move names its square to its own team and the GM only
  const moveLine = (p) => p.$$eval(".gunbai-combat .gunbai-log li", (ls) => ls.map((l) => l.textContent).filter((x) => x.startsWith("Bren")));
  for (const u of ["gm", "p2"]) assert.ok((await moveLine(t[u])).some((x) => x.includes(square)), `${u} sees ${square}`);
  const theirLine = await moveLine(t.p1);
  assert.ok(theirLine.length > 0, "p1's log has c2's move");
  assert.ok(theirLine.every((x) => !x.includes(square)), theirLine.join(" | "));
  // nothing p1 is shown names the square: the tracker, the log, the chat (an area
  // attack's centres are listed for every square in range, so they name it too
  // without telling where c2 is)
  for (const sel of [".gunbai-order", ".gunbai-teams", ".gunbai-log", "#chat-log"]) {
    const text = (await t.p1.$$eval(sel, (xs) => xs.map((x) => x.textContent))).join(" ");
    assert.ok(!text.includes(square), `${sel} on p1's page names ${square}: ${text}`);
  }
  assert.ok((await t.p2.textContent("#chat-log")).includes(square), "p2's chat has the move's square");
  // the view of the move's events for katori leaves the route out (WT-ST-1)
  const ev = flag.log.find((l) => l.action?.type === "move" && l.action.actor === "c2");
  assert.ok(ev.hidden?.katori, "the log entry records what katori may not see");
  assert.ok(ev.hidden.katori.every((e) => !("path" in e) && !("to" in e)));
  assert.ok(ev.actions?.katori && !("path" in ev.actions.katori), "katori's view of the action has no route");
  // Every payload p1's client received (Combat and JournalEntry changes, chat messages,
  // socket messages) names neither the square nor the route, nor c2's starting square
  // (it teleported in hidden); p2's (its own team) does, so the check can fail.
  const secret = { id: "c2", name: "Bren", route };
  assert.deepEqual(squareLeaks(t.p1.payloads, secret), [], "p1 received c2's square or route");
  assert.deepEqual(squareLeaks(t.p1.payloads, { id: "c2", name: "Bren", route: [start] }), [], "p1 received c2's starting square");
  assert.ok(squareLeaks(t.p2.payloads, secret).length > 0, "p2's payloads do hold the route (the check sees it)");

  // The GM's c4 attacks the hidden c2 directly (WT-ST-1: Stealth holds; the attack
  // waits on c2's reaction). The turn p1's client receives (the core's turnFor katori)
  // names nobody in the reaction stage, and p1's panel names nobody; p2 and the GM see c2.
  for (let n = 0; n < 40; n++) {
    flag = await engineOf(t.gm);
    const h = gunbai.worldTrigger.Battle.fromJSON(flag.state);
    const legal = h.legalActions().map((l) => l.action);
    h.free();
    const shot = legal.find((a) => a.actor === "c4" && a.target === "c2");
    if (shot) {
      await t.gm.evaluate((a) => game.modules.get("gunbai").api.applyAction(game.combat, a), shot);
      await settled(t, flag.seq + 1);
      break;
    }
    const pass = legal.find((a) => ["roll_initiative", "pass", "no_reaction"].includes(a.type));
    assert.ok(pass, `nothing to pass in ${flag.state.phase}`);
    await t.gm.evaluate((a) => game.modules.get("gunbai").api.applyAction(game.combat, a), pass);
    await settled(t, flag.seq + 1);
  }
  flag = await engineOf(t.gm);
  assert.ok(flag.state.members.find((m) => m.id === "c2").states.stealth, "c2 is attacked in Stealth");
  const turnOf = (page) => page.evaluate(() => game.modules.get("gunbai").api.viewOf(game.combat)?.turn ?? null);
  assert.deepEqual((await turnOf(t.p1)).active, [{ id: null, stage: "reaction" }], "p1's turn names nobody");
  assert.deepEqual((await turnOf(t.p2)).active, [{ id: "c2", stage: "reaction" }], "p2's turn names c2");
  const note = (page) => page.$eval(".gunbai-combat .gunbai-pending", (x) => ({ target: x.dataset.target, text: x.textContent }));
  assert.deepEqual(await note(t.p1), { target: "", text: "Waiting for a reaction" });
  assert.deepEqual(await note(t.p2), { target: "c2", text: "Waiting for Bren's reaction" });
  assert.deepEqual(await note(t.gm), { target: "c2", text: "Waiting for Bren's reaction" });
  for (const p of t.all) assert.deepEqual(p.errors, [], `${p.user} page errors`);
  await t.close();
});

// Roll modes (blind GM roll, private GM roll) for combat actions: the GM's client rolls;
// a player not entitled to the roll receives neither the roll nor its outcome, in any
// payload (chat, the tracker's log in their view, the record they never receive).
test("roll modes: a blind or GM roll's roll and outcome reach no player's client that may not see them", async () => {
  const w = world("coc_ap");
  // (an attack needs a damage expression, COCAP-ACT-2)
  w.actors[0].flags.gunbai.coc_ap = { dex: 14, skills: { dodge: 40 }, weapons: [{ name: "Pistol", skill: 50, damage: "1d3" }] };
  w.actors[1].flags.gunbai.coc_ap = { dex: 12, skills: { dodge: 30 }, weapons: [{ name: "Knife", skill: 40, damage: "1d3" }] };
  const t = await table([
    ["gm", "en"],
    ["p1", "en"],
    ["p2", "en"],
  ]);
  await setupWorld(t, w);
  await t.gm.evaluate(() => game.modules.get("gunbai").api.startEngine(game.combat, "coc_ap"));
  await settled(t, 0);
  /** `user` takes its combatant's attack in `mode`; returns the events the GM's record has. */
  const attack = async (user, actor, mode) => {
    await t[user].evaluate((m) => game.settings.set("core", "rollMode", m), mode);
    const seq = (await engineOf(t.gm)).seq;
    for (const p of t.all) p.payloads.length = 0;
    const a = (await t[user].evaluate(() => game.modules.get("gunbai").api.actionsFor(game.combat))).find((x) => x.action.type === "attack" && x.action.actor === actor);
    assert.ok(a, `${actor} may attack`);
    await t[user].evaluate((a) => game.modules.get("gunbai").api.requestAction(game.combat, a), a.action);
    await settled(t, seq + 1);
    await t.gm.waitForTimeout(300);
    const entry = (await engineOf(t.gm)).log.at(-1);
    assert.equal(entry.action.type, "attack");
    assert.ok(entry.events.some((e) => e.check?.roll !== undefined), "the attack rolled");
    return entry;
  };
  // p1 (c1) attacks in a blind GM roll: neither p1 nor p2 receives the roll or outcome
  const blind = await attack("p1", "c1", "blindroll");
  assert.deepEqual(blind.entitled, []);
  assert.deepEqual(rollLeaks(t.p1.payloads, blind.events), [], "p1 (blind) received the roll");
  assert.deepEqual(rollLeaks(t.p2.payloads, blind.events), [], "p2 received the blind roll");
  // the tracker log: the GM sees the outcome, p1 and p2 only that a roll was made privately
  const lastLog = (u) => t[u].$$eval(".gunbai-combat .gunbai-log li", (ls) => ls.at(-1)?.textContent ?? "");
  assert.match(await lastLog("p1"), /rolled privately/);
  assert.match(await lastLog("p2"), /rolled privately/);
  assert.doesNotMatch(await lastLog("gm"), /rolled privately/);
  // a hit waits for its target's answer: the GM takes it for the target (public)
  const waiting = (await engineOf(t.gm)).state.pending;
  if (waiting) {
    const s0 = (await engineOf(t.gm)).seq;
    await t.gm.evaluate((id) => game.modules.get("gunbai").api.applyAction(game.combat, { type: "no_reaction", actor: id }, { rollMode: "publicroll" }), waiting.target);
    await settled(t, s0 + 1);
  }
  // p1 ends c1's turn (public); p2 (c2) attacks in a private GM roll: p2 receives it, p1 does not
  await t.p1.evaluate(() => game.settings.set("core", "rollMode", "publicroll"));
  const seq = (await engineOf(t.gm)).seq;
  await t.p1.evaluate(() => game.modules.get("gunbai").api.requestAction(game.combat, { type: "end_turn", actor: "c1" }));
  await settled(t, seq + 1);
  const gm = await attack("p2", "c2", "gmroll");
  assert.deepEqual(gm.entitled, ["p2"]);
  assert.deepEqual(rollLeaks(t.p1.payloads, gm.events), [], "p1 received p2's GM roll");
  assert.ok(rollLeaks(t.p2.payloads, gm.events).length > 0, "p2 (the roller) receives its own GM roll (the check sees it)");
  for (const p of t.all) assert.deepEqual(p.errors, [], `${p.user} page errors`);
  await t.close();
});
