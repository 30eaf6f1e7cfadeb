// Combat for the five gunbai rulesets in Foundry's combat tracker, driven by the
// engines' native game handles (`worldTrigger.Battle`, `tmd.Encounter`,
// `coc7House.Round`, `cocAp.Round`, `fapMap.Round`).
//
// * The engine record lives in a GM-only JournalEntry (ownership NONE for players, so
//   Foundry's server withholds it from them); each player receives only their view
//   (the core's `view`) and their own legal actions, in a JournalEntry only that player
//   may observe. The Combat's flag holds only public data (ruleset, step, order).
// * Legal actions come from the engine (`legalActions`) and appear as buttons.
//   A GM sees every one; a player sees those of the combatants whose actor they
//   own. A player's click is a request message the player creates (Foundry's server
//   sets its author), naming the action by its index in the player's listing; the
//   active GM's client applies it for that author.
// * Initiative comes from the engine: the Combat document class overrides
//   `rollInitiative` (used by Foundry's own initiative buttons) and the
//   Combatant class `getInitiativeRoll`, so Foundry never rolls over it.
// * Teams are v13 CombatantGroups where they exist (feature-detected), else the
//   `gunbai.team` flag or the token's disposition.
// * Everything a player's client is shown of the state goes through `viewFor`.
import { RULESETS, flagOfSheet, engineClass, buildSetup, whoMay, orderOf, currentOf, combatantNumbers, teamMembers, teamRows, actorOf, weaponLabels, pendingAttack } from "./rulesets.mjs";
import { toRoll, rollFaceLabels } from "./dice.mjs";

const MODULE = "gunbai";
/** Log lines kept in the flag. */
const LOG_MAX = 30;

/** @type {Promise<any>} */
let gunbaiReady;
/** The package once loaded (labels are read synchronously). @type {any} */
let gunbaiLoaded = null;
/** @param {Promise<any>} p */
export function setPackage(p) {
  gunbaiReady = p;
  p.then((g) => (gunbaiLoaded = g));
}

const esc = (/** @type {unknown} */ s) =>
  String(s).replace(/[&<>"']/g, (c) => /** @type {Record<string, string>} */ ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const L = (/** @type {string} */ k) => game.i18n.localize(k);
/** A localized text with `{name}` placeholders filled in (as Foundry's `game.i18n.format`). */
const Lf = (/** @type {string} */ k, /** @type {Record<string, string>} */ data) => L(k).replace(/\{(\w+)\}/g, (m, x) => data[x] ?? m);
/** A localized label with a fallback when the key is missing. */
const Lk = (/** @type {string} */ k, /** @type {string} */ fallback) => {
  const v = game.i18n.localize(k);
  return v === k ? fallback : v;
};

/**
 * @typedef {object} EngineFlag the engine's record, kept only in a GM-only JournalEntry
 * @property {string} ruleset
 * @property {any} state the handle's `state` JSON
 * @property {number} seq actions applied so far
 * @property {LogEntry[]} log the last actions and their events (shown in each client's language)
 * @property {Record<string, Record<string, any>>} [weapons] the weapons' display names, by
 *   combatant then weapon (the flags' `label`s; see weaponLabels)
 */

/**
 * @typedef {object} LogEntry
 * @property {Record<string, any> | null} action
 * @property {any[]} events
 * @property {string} user
 * @property {Record<string, any[]>} [hidden] the viewers who may not see all of it, each
 *   with the events as it sees them (the core's view); absent when it hides nothing
 * @property {Record<string, Record<string, any> | null>} [actions] with `hidden`: the
 *   action as each of those viewers sees it (the core's view of the action)
 * @property {string[]} [entitled] a roll made in a private roll mode (GM, blind, self):
 *   the players who may see its roll and outcome (the GMs always may); absent when public
 */

/**
 * @typedef {object} PublicFlag the Combat's `gunbai.engine` flag: only what every user may see
 * @property {string} ruleset
 * @property {number} seq
 * @property {string[]} order the combatants in the engine's order (initiative)
 * @property {Record<string, Record<string, any>>} [weapons] the weapons' display names (EngineFlag)
 * @property {any} [outcome] the engine's `outcome()` once the fight is over (null while it goes on)
 */

/**
 * @typedef {object} PlayerView what one player receives, in a JournalEntry only that player
 *   (and the GMs) may observe: their view of the state, their own legal actions and the log
 *   as they may see it
 * @property {string} combat
 * @property {string} ruleset
 * @property {number} seq
 * @property {any} state the core's view for this player's viewer
 * @property {Turn} [turn] whose move it is as this player may know it (the core's
 *   `turnFor` their viewer: a reaction of a member their side may not see names nobody)
 * @property {{action: Record<string, any>, cost: string}[]} actions this player's legal actions
 * @property {{action: Record<string, any> | null, events: any[], secret: boolean, private?: boolean, user: string}[]} log
 * @property {{request: string, ok: boolean, code?: string | null, detail?: string | null, events?: any[]} | null} answer
 *   the GM client's answer to this player's last request
 */

/**
 * @typedef {{round: number, phase: string, active: {id: string | null, stage: string}[], order: string[], outcome: any, roster: {id: string, side: string | null, hp: number | null, down: boolean}[], viewers: string[]}} Turn
 *   whose move it is, as the core's `turn` gives it
 */

/**
 * A log entry with what of it each viewer may not see.
 * @param {LogEntry} entry
 * @param {any} gunbai
 * @param {string} ruleset
 * @param {any} state the state the action led to
 * @returns {LogEntry}
 */
function withSecrets(entry, gunbai, ruleset, state) {
  const { hidden, actions } = secretsOf(gunbai, ruleset, state, entry.action, entry.events);
  return Object.keys(hidden).length ? { ...entry, hidden, ...(entry.action ? { actions } : {}) } : entry;
}

// ---------- where the state lives ----------
//
// The authoritative record is the JSON text of an EngineFlag in the `gunbai.engine`
// flag of a JournalEntry owned by the GMs with no player ownership (Foundry's server
// withholds a document of ownership NONE from a player). Each player's view is the
// JSON text of a PlayerView in a JournalEntry that only that player may observe. The
// Combat's own flag holds only public data (PublicFlag). The records are JSON text so
// that an update replaces them whole (Foundry merges object updates, which would keep
// a field a newer view leaves out).

/** Ownership levels. */
const NONE = CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE;
const OBSERVER = CONST.DOCUMENT_OWNERSHIP_LEVELS.OBSERVER;

/**
 * The GM-only JournalEntry that holds a combat's engine record (GM clients only: a
 * player's client never receives it).
 * @param {Combat.Implementation} combat
 * @returns {any}
 */
function storeDoc(combat) {
  return game.journal?.find((j) => j.getFlag(MODULE, "store") === combat.id) ?? null;
}

/**
 * The JournalEntry holding `userId`'s view of a combat.
 * @param {Combat.Implementation} combat
 * @param {string} userId
 * @returns {any}
 */
function viewDoc(combat, userId) {
  return (
    game.journal?.find((j) => {
      const of = j.getFlag(MODULE, "viewOf");
      return !!of && of.combat === combat.id && of.user === userId;
    }) ?? null
  );
}

/** @param {unknown} text */
const parsed = (text) => (typeof text === "string" && text ? JSON.parse(text) : null);

/**
 * The engine record of a combat: on a GM's client, from the GM-only JournalEntry; null
 * on a player's client (which never receives it) and without an engine.
 * @param {Combat.Implementation} combat
 * @returns {EngineFlag | null}
 */
export function engineOf(combat) {
  if (!combat || !publicOf(combat)) return null;
  const rec = /** @type {EngineFlag | null} */ (parsed(storeDoc(combat)?.getFlag(MODULE, "engine")));
  return rec && rec.ruleset === publicOf(combat)?.ruleset ? rec : null;
}

/**
 * The Combat's public flag (every user receives it).
 * @param {Combat.Implementation} combat
 * @returns {PublicFlag | null}
 */
export function publicOf(combat) {
  return combat?.getFlag?.(MODULE, "engine") || null;
}

/**
 * This user's view of a combat (a player's client), null without one.
 * @param {Combat.Implementation} combat
 * @param {string} [userId]
 * @returns {PlayerView | null}
 */
export function viewOf(combat, userId = game.user?.id ?? "") {
  const pub = publicOf(combat);
  if (!pub) return null;
  const v = /** @type {PlayerView | null} */ (parsed(viewDoc(combat, userId)?.getFlag(MODULE, "view")));
  return v && v.ruleset === pub.ruleset ? v : null;
}

/**
 * Store a new engine record (GM): the record in the GM-only JournalEntry, each player's
 * view in theirs, then the Combat's public flag.
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {Record<string, PlayerView["answer"]>} [answers] answers to players' requests, by user id
 */
async function saveEngine(combat, flag, answers = {}) {
  const gunbai = await gunbaiReady;
  const text = JSON.stringify(flag);
  const store = storeDoc(combat);
  const cid = combat.id ?? "";
  if (store) await store.setFlag(MODULE, "engine", text);
  else await JournalEntry.create({ name: `gunbai: ${cid}`, ownership: { default: NONE }, flags: { [MODULE]: { store: cid, engine: text } } });
  for (const u of game.users) {
    if (u.isGM || !u.id) continue;
    const view = JSON.stringify(playerView(gunbai, combat, flag, u, answers[u.id] ?? null));
    const doc = viewDoc(combat, u.id);
    if (!doc) await JournalEntry.create({ name: `gunbai: ${cid} · ${u.name}`, ownership: { default: NONE, [u.id]: OBSERVER }, flags: { [MODULE]: { viewOf: { combat: cid, user: u.id }, view } } });
    else if (doc.getFlag(MODULE, "view") !== view) await doc.setFlag(MODULE, "view", view);
  }
  const turn = turnFor(gunbai, flag.ruleset, flag.state, null);
  /** @type {PublicFlag} */
  const pub = { ruleset: flag.ruleset, seq: flag.seq, order: orderOf(turn), weapons: flag.weapons ?? {}, outcome: turn.outcome ?? null };
  await combat.setFlag(MODULE, "engine", pub);
}

/**
 * Answer a player's request without a new state (a refusal): only their view changes.
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {User.Implementation} user
 * @param {PlayerView["answer"]} answer
 */
async function answerOnly(combat, flag, user, answer) {
  const gunbai = await gunbaiReady;
  const doc = viewDoc(combat, user.id ?? "");
  const view = JSON.stringify(playerView(gunbai, combat, flag, user, answer));
  if (doc) await doc.setFlag(MODULE, "view", view);
}

/**
 * What one player receives: the core's view for their viewer, their own legal actions
 * and the log as they may see it (squares and events they may not see left out, rolls
 * of a private roll mode they are not entitled to left out whole).
 * @param {any} gunbai
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {User.Implementation} user
 * @param {PlayerView["answer"]} answer
 * @returns {PlayerView}
 */
function playerView(gunbai, combat, flag, user, answer) {
  const viewer = viewerOf(combat, flag, user);
  const turn = turnFor(gunbai, flag.ruleset, flag.state, null);
  const opv = opViewer(viewer, turn);
  const viewers = turn.viewers;
  const log = flag.log.slice(-6).map((l) => {
    if (l.entitled && !l.entitled.includes(user.id ?? "")) return { action: null, events: [], secret: true, private: true, user: l.user };
    const seen = entryFor(l, opv, viewers);
    return { action: seen.action, events: seen.events, secret: seen.secret, user: l.user };
  });
  return {
    combat: combat.id ?? "",
    ruleset: flag.ruleset,
    seq: flag.seq,
    state: viewFor(gunbai, flag.ruleset, flag.state, viewer).state,
    turn: turnFor(gunbai, flag.ruleset, flag.state, viewer),
    actions: listFor(gunbai, combat, flag, user),
    log,
    answer,
  };
}

/**
 * The viewer the core's view operations take for a host viewer, read off the engine's
 * turn with no per-ruleset code: the combatant's id where the turn's `viewers` lists it
 * (TMD, CoC, FAP/MAP), else that combatant's side in the turn's roster (World Trigger:
 * its team), else the host viewer's `team`.
 * @param {{team?: string, combatant?: string}} viewer
 * @param {Turn} turn the engine's turn (`turn` of a handle)
 * @returns {string}
 */
export function opViewer(viewer, turn) {
  const id = viewer.combatant ?? "";
  if (id && turn.viewers.includes(id)) return id;
  return turn.roster.find((r) => r.id === id)?.side ?? viewer.team ?? "";
}

/**
 * What two views of one state (or of one action's events) both show: a view only
 * leaves fields out, so this keeps the fields present in both.
 * @param {any} a
 * @param {any} b
 * @returns {any}
 */
function common(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => common(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") return Object.fromEntries(Object.keys(a).filter((k) => k in b).map((k) => [k, common(a[k], b[k])]));
  return a;
}

/**
 * What a viewer may see of a state and of the events that led to it: the core's
 * redacted view (the handle's `view(viewer, events)`, the same as the pure
 * `<module>.<x>View` operations; World Trigger: another team's members in Stealth
 * have no square, WT-ST-1). A player who has no combatant in the encounter sees
 * only what every viewer may see. Every state or event a player's client shows
 * goes through here. The result is never loaded back (a World Trigger view is not
 * a loadable state): listings come from the stored state (`actionsFor`).
 * @param {any} gunbai
 * @param {string} ruleset
 * @param {any} state
 * @param {{team?: string, combatant?: string} | null} viewer null for the GM
 * @param {any[]} [events] the events of the action that led to `state`
 * @returns {{state: any, events?: any[]}}
 */
export function viewFor(gunbai, ruleset, state, viewer, events) {
  if (!viewer) return events === undefined ? { state } : { state, events };
  const h = engineClass(gunbai, ruleset).fromJSON(state);
  try {
    const one = (/** @type {string} */ v) => /** @type {{state: any, events?: any[]}} */ (h.view(v, events));
    const turn = /** @type {Turn} */ (h.turn);
    const v = opViewer(viewer, turn);
    const all = turn.viewers;
    if (all.includes(v) || !all.length) return one(all.length ? v : /** @type {any} */ (null));
    return all.map(one).reduce((a, b) => (events === undefined ? { state: common(a.state, b.state) } : { state: common(a.state, b.state), events: common(a.events, b.events) }));
  } finally {
    h.free();
  }
}

/**
 * Whose move it is as a viewer may know it: the core's `turnFor(viewer)` (World
 * Trigger: a reaction of a member in Stealth the team may not see names nobody,
 * WT-ST-1). A player who has no combatant in the encounter is told only what every
 * viewer's turn names; the GM (viewer null) the whole turn.
 * @param {any} gunbai
 * @param {string} ruleset
 * @param {any} state
 * @param {{team?: string, combatant?: string} | null} viewer null for the GM
 * @returns {Turn}
 */
export function turnFor(gunbai, ruleset, state, viewer) {
  const h = engineClass(gunbai, ruleset).fromJSON(state);
  try {
    /** @type {Turn} */
    const turn = h.turn;
    if (!viewer) return turn;
    const v = opViewer(viewer, turn);
    const all = turn.viewers;
    if (all.includes(v) || !all.length) return all.length ? h.turnFor(v) : turn;
    /** @type {Turn[]} */
    const seen = all.map((x) => h.turnFor(x));
    const named = (/** @type {{id: string | null}} */ a, /** @type {number} */ i) => seen.every((t) => t.active[i]?.id === a.id);
    return { ...seen[0], active: seen[0].active.map((a, i) => (named(a, i) ? a : { ...a, id: null })) };
  } finally {
    h.free();
  }
}

/**
 * What of an action each viewer may not see, for its log entry: the core's view of
 * its events (`hidden`) and of the action itself (`actions`) for each viewer they are
 * redacted for. Both empty when the action hides nothing.
 * @param {any} gunbai
 * @param {string} ruleset
 * @param {any} state the state the action led to
 * @param {Record<string, any> | null} action
 * @param {any[]} events
 * @returns {{hidden: Record<string, any[]>, actions: Record<string, Record<string, any> | null>}}
 */
function secretsOf(gunbai, ruleset, state, action, events) {
  /** @type {Record<string, any[]>} */
  const hidden = {};
  /** @type {Record<string, Record<string, any> | null>} */
  const actions = {};
  const h = engineClass(gunbai, ruleset).fromJSON(state);
  try {
    for (const v of /** @type {Turn} */ (h.turn).viewers) {
      const seen = /** @type {{state: any, events?: any[], action?: Record<string, any>}} */ (h.view(v, events, action ?? undefined));
      // (a view only leaves fields out)
      const redacted = JSON.stringify(seen.events ?? []) !== JSON.stringify(events ?? []) || Object.keys(seen.action ?? {}).length !== Object.keys(action ?? {}).length;
      if (!redacted) continue;
      hidden[v] = seen.events ?? [];
      actions[v] = seen.action ?? null;
    }
  } finally {
    h.free();
  }
  return { hidden, actions };
}

/**
 * A log entry as a viewer may see it: its events and its action as the core's view
 * has them for that viewer, and whether anything of it is hidden.
 * @param {{action: Record<string, any> | null, events: any[], hidden?: Record<string, any[]>, actions?: Record<string, Record<string, any> | null>}} entry
 * @param {string | null} viewer the view operations' viewer; null for the GM
 * @param {string[]} viewers every viewer of the encounter
 * @returns {{events: any[], action: Record<string, any> | null, secret: boolean}}
 */
export function entryFor(entry, viewer, viewers) {
  const hidden = entry.hidden ?? {};
  const keys = Object.keys(hidden);
  const action = entry.action;
  if (viewer === null || !keys.length) return { events: entry.events, action, secret: false };
  // (an entry recorded without the action's views shows no action to those it hides from)
  const actionOf = (/** @type {string} */ k) => (action ? entry.actions?.[k] ?? null : null);
  if (keys.includes(viewer)) return { events: hidden[viewer], action: actionOf(viewer), secret: true };
  if (viewers.includes(viewer)) return { events: entry.events, action, secret: false };
  return { events: keys.map((k) => hidden[k]).reduce(common), action: keys.map(actionOf).reduce(common), secret: true };
}

// ---------- teams ----------

/** v13 CombatantGroup support (absent in v12). */
export function hasGroups(/** @type {any} */ combat) {
  return !!combat && "groups" in combat && !!combat.groups && typeof combat.createEmbeddedDocuments === "function" &&
    // CombatantGroup is new in v13 (absent on v12)
    !!CONFIG.CombatantGroup;
}

/**
 * A combatant's team: its v13 CombatantGroup's name, else the `gunbai.team` flag
 * (of the combatant or its actor), else the token's disposition.
 * @param {Combatant.Implementation} combatant
 * @returns {string}
 */
export function teamOf(combatant) {
  // v13 Combatant#group: Foundry's client resolves it to the CombatantGroup; the types
  // (13.345.1) give it as the group's id, a string (a cast the types force)
  const group = /** @type {{name?: string | null} | string | null | undefined} */ (/** @type {unknown} */ (combatant.group));
  if (group && typeof group === "object" && group.name) return String(group.name);
  const flag = combatant.getFlag?.(MODULE, "team") ?? combatant.actor?.getFlag?.(MODULE, "team");
  if (flag) return String(flag);
  const d = combatant.token?.disposition ?? 0;
  return /** @type {Record<string, string>} */ ({ 1: "friendly", 0: "neutral", "-1": "hostile", "-2": "secret" })[String(d)] ?? "neutral";
}

/**
 * A combatant's group id (v13; see teamOf for the cast).
 * @param {Combatant.Implementation} c
 * @returns {string | null}
 */
function groupId(c) {
  const g = /** @type {{id?: string | null} | string | null | undefined} */ (/** @type {unknown} */ (c.group));
  return (g && typeof g === "object" ? g.id : g) ?? null;
}

/**
 * v13: one CombatantGroup per team, each combatant in its team's group.
 * @param {Combat.Implementation} combat
 */
async function syncGroups(combat) {
  if (!hasGroups(combat)) return;
  const c13 = combat;
  const want = new Map();
  for (const c of combat.combatants) want.set(c.id, teamOf(c));
  const names = [...new Set(want.values())];
  const existing = new Map([...(c13.groups ?? [])].map((g) => [g.name, g]));
  const create = names.filter((n) => !existing.has(n)).map((name) => ({ name }));
  if (create.length) for (const g of (await c13.createEmbeddedDocuments("CombatantGroup", create)) ?? []) existing.set(g.name, g);
  const updates = [...c13.combatants]
    .filter((c) => groupId(c) !== existing.get(want.get(c.id))?.id)
    .map((c) => ({ _id: c.id, group: existing.get(want.get(c.id))?.id }));
  if (updates.length) await combat.updateEmbeddedDocuments("Combatant", updates);
}

// ---------- setup ----------

/**
 * The combatant's stats for a ruleset: its own `gunbai.<ruleset>` flag, else its actor's.
 * @param {Combatant.Implementation} combatant
 * @param {string} ruleset
 */
function statsOf(combatant, ruleset) {
  // (the combatant's own flag over its actor's: a square or a side set on the token
  // keeps the sheet imported into the actor)
  const own = combatant.getFlag?.(MODULE, ruleset);
  const actor = combatant.actor?.getFlag?.(MODULE, ruleset);
  return { ...(actor && typeof actor === "object" ? actor : {}), ...(own && typeof own === "object" ? own : {}) };
}

/**
 * Import the character-sheet site's file ("Send to a host": a pasted text, a dropped or
 * picked file's text, or the parsed document) into an actor: its `gunbai.<ruleset>`
 * flag takes what the engine takes of the character (rulesets.mjs `flagOfSheet`); the
 * engine checks it when the GM starts a combat. Returns the ruleset.
 * @param {any} actor
 * @param {string | Record<string, any>} file
 * @returns {Promise<string>}
 */
export async function importSheet(actor, file) {
  const doc = typeof file === "string" ? JSON.parse(file) : file;
  const system = doc && typeof doc === "object" ? String(doc.system ?? "") : "";
  const { ruleset, flag } = flagOfSheet(doc, RULESETS.includes(system) ? actor.getFlag?.(MODULE, system) : undefined);
  await actor.setFlag(MODULE, ruleset, flag);
  return ruleset;
}

/**
 * A dialog to import the character-sheet site's file into `actor`: paste its text, drop
 * the file on the text box, or pick it (Foundry v13 DialogV2, v12 Dialog).
 * @param {any} actor
 */
export async function openSheetImport(actor) {
  const content = `<p>${esc(L("GUNBAI.Sheet.Hint"))}</p><textarea name="gunbai-sheet" rows="10" style="width:100%;font-family:monospace"></textarea>
    <p><input type="file" name="gunbai-file" accept="application/json,.json"></p>`;
  /** @param {HTMLElement} root */
  const wire = (root) => {
    const box = /** @type {HTMLTextAreaElement | null} */ (root.querySelector("textarea[name=gunbai-sheet]"));
    const pick = /** @type {HTMLInputElement | null} */ (root.querySelector("input[name=gunbai-file]"));
    if (!box) return;
    const read = async (/** @type {File | undefined} */ f) => {
      if (f) box.value = await f.text();
    };
    box.addEventListener("dragover", (e) => e.preventDefault());
    box.addEventListener("drop", (e) => {
      e.preventDefault();
      read(e.dataTransfer?.files?.[0]);
    });
    pick?.addEventListener("change", () => read(pick.files?.[0]));
  };
  const take = async (/** @type {string} */ text) => {
    try {
      const ruleset = await importSheet(actor, text);
      ui.notifications?.info(Lf("GUNBAI.Sheet.Imported", { name: actor.name ?? "", ruleset: L(`GUNBAI.Ruleset.${ruleset}`) }));
    } catch (e) {
      ui.notifications?.error(`gunbai: ${/** @type {Error} */ (e).message}`);
    }
  };
  const V2 = /** @type {any} */ (globalThis).foundry?.applications?.api?.DialogV2;
  if (V2) {
    const text = await V2.prompt({
      window: { title: L("GUNBAI.Sheet.Import") },
      content,
      render: (/** @type {any} */ _e, /** @type {any} */ dialog) => wire(dialog.element),
      ok: { label: L("GUNBAI.Sheet.Import"), callback: (/** @type {any} */ _e, /** @type {any} */ button) => button.form.elements["gunbai-sheet"].value },
      rejectClose: false,
    });
    if (typeof text === "string" && text.trim()) await take(text);
    return;
  }
  const D = /** @type {any} */ (globalThis).Dialog;
  D?.prompt({
    title: L("GUNBAI.Sheet.Import"),
    content,
    render: (/** @type {any} */ html) => wire(html instanceof HTMLElement ? html : html[0]),
    callback: (/** @type {any} */ html) => take((html instanceof HTMLElement ? html : html[0]).querySelector("textarea[name=gunbai-sheet]").value),
    rejectClose: false,
  });
}

/** A random seed for one action (the GM client's; recorded in the log). */
const newSeed = () => Math.floor(Math.random() * 2 ** 31);

/**
 * Start a ruleset's engine on a combat (GM only): the setup from the
 * combatants' flags, the state saved in the combat's flag, initiative synced.
 * @param {Combat.Implementation} combat
 * @param {string} ruleset
 * @param {{seed?: number, options?: Record<string, any>}} [opts]
 */
export async function startEngine(combat, ruleset, { seed, options } = {}) {
  if (!game.user?.isGM) throw new Error(L("GUNBAI.Combat.GmOnly"));
  if (!RULESETS.includes(ruleset)) throw new Error(`unknown ruleset ${ruleset}`);
  const gunbai = await gunbaiReady;
  await syncGroups(combat);
  const entries = [...combat.combatants].map((c) => ({
    id: c.id ?? "",
    name: c.name ?? "",
    team: teamOf(c),
    isPC: !!(c.hasPlayerOwner ?? c.actor?.hasPlayerOwner),
    data: statsOf(c, ruleset),
  }));
  const H = engineClass(gunbai, ruleset);
  const h = H.create(buildSetup(ruleset, entries, { seed: seed ?? newSeed(), options }));
  try {
    /** @type {EngineFlag} */
    const flag = { ruleset, state: h.state, seq: 0, log: [], weapons: weaponLabels(ruleset, entries) };
    const created = h.created;
    const rollMode = currentRollMode();
    const entitled = entitledBy(rollMode, game.user);
    if (created?.events?.length) flag.log.push(withSecrets({ action: null, events: created.events, user: game.user.id ?? "", ...(entitled ? { entitled } : {}) }, gunbai, ruleset, flag.state));
    await syncCombat(combat, flag);
    await saveEngine(combat, flag);
    if (created?.rolls?.length) await postAction(combat, flag, null, created, { user: game.user, rollMode });
    return flag;
  } finally {
    h.free();
  }
}

/** End the engine (GM only): the flag is removed. */
export async function stopEngine(/** @type {any} */ combat) {
  if (!game.user?.isGM) throw new Error(L("GUNBAI.Combat.GmOnly"));
  await combat.unsetFlag(MODULE, "engine");
  await storeDoc(combat)?.setFlag(MODULE, "engine", "");
  for (const u of game.users) await viewDoc(combat, u.id ?? "")?.setFlag(MODULE, "view", "");
}

/**
 * A deleted combat's JournalEntries (its engine record and every player's view): the
 * active GM's client deletes them (the deleteCombat hook), so that none is left behind.
 * @param {Combat.Implementation} combat
 */
export async function forgetCombat(combat) {
  if (!game.user?.isGM || game.users.activeGM?.id !== game.user.id) return;
  const cid = combat.id;
  const docs = (game.journal ?? []).filter((/** @type {any} */ j) => j.getFlag(MODULE, "store") === cid || j.getFlag(MODULE, "viewOf")?.combat === cid);
  for (const j of docs) await j.delete();
}

/**
 * The players who may see the roll and outcome of an action taken in `rollMode` by
 * `user` (the GMs always may): null for a public roll (everyone).
 * Private GM roll: the roller; blind GM roll: no player, not even the roller; self
 * roll: the roller.
 * @param {string} rollMode
 * @param {any} user
 * @returns {string[] | null}
 */
export function entitledBy(rollMode, user) {
  if (rollMode === "gmroll" || rollMode === "selfroll") return user?.isGM ? [] : [user?.id ?? ""];
  if (rollMode === "blindroll") return [];
  return null;
}

// ---------- who may act ----------

/**
 * Whether `user` may take `action` in this combat (ownership; not legality).
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {Record<string, any>} action
 * @param {User.Implementation} user
 * @returns {boolean}
 */
export function mayAct(combat, flag, action, user) {
  if (!user) return false;
  if (user.isGM) return true;
  const who = whoMay(flag.ruleset, action);
  if (who.gm) return false;
  const owns = (/** @type {string} */ id) => {
    const c = combat.combatants.get(id);
    return !!c && !!c.actor && c.actor.testUserPermission(user, "OWNER");
  };
  if (who.combatant) return owns(who.combatant);
  if (who.team) return teamMembers(flag.state, who.team).some(owns);
  return false;
}

/**
 * The legal actions `user` may take now, from the engine's listing of the stored
 * state (a view is never loaded): the GM's, every action; a player's, the core's
 * listing for their viewer and each combatant they own (`legalActions({actor,
 * viewer})`: what their side may know, World Trigger WT-ST-1), those they may take.
 * Runs on a GM's client (the record is there only).
 * @param {any} gunbai
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {any} user
 * @returns {{action: Record<string, any>, cost: string}[]}
 */
function listFor(gunbai, combat, flag, user) {
  const h = engineClass(gunbai, flag.ruleset).fromJSON(flag.state);
  try {
    /** @type {{action: Record<string, any>, cost: string}[]} */
    let listed;
    if (user.isGM) {
      listed = h.legalActions().map((/** @type {any} */ l) => ({ action: l.action, cost: costText(flag.ruleset, l) }));
      return listed;
    }
    /** @type {Turn} */
    const turn = h.turn;
    const viewer = opViewer(viewerOf(combat, flag, user), turn);
    if (!turn.viewers.includes(viewer)) return [];
    const seen = new Set();
    listed = [];
    const roster = new Set(turn.roster.map((r) => r.id));
    for (const c of combat.combatants) {
      if (!c.id || !c.actor?.testUserPermission(user, "OWNER") || !roster.has(c.id)) continue;
      for (const l of h.legalActions({ actor: c.id, viewer })) {
        const key = JSON.stringify(l.action);
        if (seen.has(key)) continue;
        seen.add(key);
        if (mayAct(combat, flag, l.action, user)) listed.push({ action: l.action, cost: costText(flag.ruleset, l) });
      }
    }
    return listed;
  } finally {
    h.free();
  }
}

/**
 * The legal actions `user` may take now, labelled in this client's language: a GM's
 * client lists them from the record; a player's client reads its own view (the GM's
 * client listed them for it).
 * @param {Combat.Implementation} combat
 * @param {any} [user]
 * @returns {Promise<{action: Record<string, any>, label: string, cost: string}[]>}
 */
export async function actionsFor(combat, user = game.user) {
  const gunbai = await gunbaiReady;
  const flag = game.user?.isGM ? engineOf(combat) : null;
  const ruleset = publicOf(combat)?.ruleset ?? "";
  const listed = flag ? listFor(gunbai, combat, flag, user) : user?.id === game.user?.id ? viewOf(combat)?.actions ?? [] : [];
  // (the state's own terms: a World Trigger battle's skill names)
  const labelFlag = /** @type {EngineFlag} */ ({ ruleset, state: flag?.state ?? viewOf(combat)?.state ?? null, seq: 0, log: [], weapons: publicOf(combat)?.weapons ?? {} });
  return listed.map((l) => ({ ...l, label: actionLabel(combat, labelFlag, l.action) }));
}

/**
 * The viewer a player's client shows the state to: the first combatant the user owns,
 * with its team (`opViewer` turns it into the core's viewer); none for a user who owns
 * no combatant.
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {User.Implementation} user
 * @returns {{team?: string, combatant?: string}}
 */
export function viewerOf(combat, flag, user) {
  const own = [...combat.combatants].find((c) => c.actor?.testUserPermission(user, "OWNER"));
  if (!own) return { team: "" };
  return { combatant: own.id ?? "", team: teamOf(own) };
}

// ---------- applying an action (the GM client) ----------

/**
 * Apply an action on the GM client: refuses it unless `user` may take it and
 * the engine lists it; then saves the
 * state, syncs initiative and posts the action's events and dice.
 * @param {Combat.Implementation} combat
 * @param {Record<string, any>} action
 * @param {{user?: any, rollMode?: string, seed?: number, answer?: string}} [opts] answer: the
 *   request message this applies (its author is answered in their view)
 */
export async function applyAction(combat, action, { user = game.user, rollMode, seed, answer } = {}) {
  if (!game.user?.isGM) throw new Error(L("GUNBAI.Combat.GmOnly"));
  const flag = engineOf(combat);
  if (!flag) throw new Error(L("GUNBAI.Combat.NoEngine"));
  if (!action || typeof action !== "object" || typeof action.type !== "string") throw new Error("gunbai: malformed action");
  if (!mayAct(combat, flag, action, user)) throw coded("not_yours", `${user?.name ?? "?"} → ${actorOf(action) ?? action.type}`);
  const gunbai = await gunbaiReady;
  const h = engineClass(gunbai, flag.ruleset).fromJSON(flag.state);
  try {
    const listed = h.legalActions().some((/** @type {any} */ l) => sameAction(l.action, action));
    if (!listed) throw coded("not_legal", JSON.stringify(action));
    const s = seed ?? newSeed();
    const r = h.act(/** @type {any} */ (action), { seed: s });
    const mode = rollMode ?? currentRollMode();
    const entitled = r.rolls?.length ? entitledBy(mode, user) : null;
    /** @type {EngineFlag} */
    const next = {
      ruleset: flag.ruleset,
      state: h.state,
      seq: flag.seq + 1,
      ...(flag.weapons ? { weapons: flag.weapons } : {}),
      log: [...flag.log, withSecrets({ action, events: r.events, user: user.id, ...(entitled ? { entitled } : {}) }, gunbai, flag.ruleset, h.state)].slice(-LOG_MAX),
    };
    /** @type {Record<string, PlayerView["answer"]>} */
    const answers = {};
    if (answer && !user.isGM) {
      // the requester is sent the events as their view has them (WT-ST-1), none from a roll they may not see
      const own = entitled && !entitled.includes(user.id) ? [] : viewFor(gunbai, flag.ruleset, next.state, viewerOf(combat, next, user), r.events).events ?? [];
      answers[user.id] = { request: answer, ok: true, events: own };
    }
    // (the tracker's order, round and turn first: a client that sees the new step sees them)
    await syncCombat(combat, next);
    await saveEngine(combat, next, answers);
    await postAction(combat, next, action, r, { user, rollMode: mode, seed: s });
    return r;
  } finally {
    h.free();
  }
}

/** Refusals: a stable code (sent to the requester) and a message in this user's language. */
const REFUSALS = { not_yours: "GUNBAI.Combat.NotYours", not_legal: "GUNBAI.Combat.NotLegal", gm_only: "GUNBAI.Combat.GmOnly", no_engine: "GUNBAI.Combat.NoEngine" };
/**
 * @param {keyof typeof REFUSALS} code
 * @param {string} detail
 */
function coded(code, detail) {
  const e = /** @type {Error & {code?: string, detail?: string}} */ (new Error(`${L(REFUSALS[code])}: ${detail}`));
  e.code = code;
  e.detail = detail;
  return e;
}

/**
 * Deep equality of two JSON actions (key order ignored; null and absent alike).
 * @returns {boolean}
 */
function sameAction(/** @type {any} */ a, /** @type {any} */ b) {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a).filter((k) => a[k] !== null && a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== null && b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameAction(a[k], b[k]));
}

/**
 * Initiative and round from the engine: each combatant's initiative is its place
 * in the engine's order (highest first), the combat's round the engine's.
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 */
async function syncCombat(combat, flag) {
  const turn = turnFor(await gunbaiReady, flag.ruleset, flag.state, null);
  const order = orderOf(turn);
  const n = order.length;
  const updates = [...combat.combatants]
    .map((c) => {
      const i = order.indexOf(c.id ?? "");
      return { _id: c.id ?? "", initiative: i < 0 ? null : n - i };
    })
    .filter((u) => combat.combatants.get(u._id)?.initiative !== u.initiative);
  if (updates.length) await combat.updateEmbeddedDocuments("Combatant", updates);
  const { round } = turn;
  const current = currentOf(turn);
  /** @type {Record<string, number>} */
  const change = {};
  if (typeof round === "number" && round !== combat.round) change.round = round;
  // the tracker's current combatant is the engine's (when the engine has one acting)
  const at = current ? combat.turns.findIndex((c) => c.id === current) : -1;
  if (at >= 0 && at !== combat.turn) change.turn = at;
  if (Object.keys(change).length) await combat.update(change);
}

/**
 * The user's chat roll mode (public / private GM / blind / self).
 * @returns {string}
 */
export function currentRollMode() {
  return String(game.settings.get("core", "rollMode"));
}

/**
 * Post chat data so that only the users who may see it receive it (Foundry's server
 * sends a whisper without rolls to its recipients and author only; a whispered message
 * WITH rolls reaches every client, shown as "rolled privately"): to everyone with its
 * Rolls (Dice So Nice animates them) when `audience` is every user; else whispered to
 * `audience` without Roll objects (the content shows the dice), authored by `author`
 * only when the author is in the audience (else by this GM client).
 * @param {Record<string, any>} data chat data without `whisper` / `rolls`
 * @param {any[]} rolls Foundry Rolls for a public message
 * @param {string[]} audience user ids
 * @param {string} author
 */
export async function postTo(data, rolls, audience, author) {
  const everyone = [...game.users].every((u) => audience.includes(u.id ?? ""));
  const by = audience.includes(author) || everyone ? author : game.user?.id ?? "";
  // (the author receives a message anyway: Foundry whispers name the others)
  const others = audience.filter((id) => id !== by);
  /** @type {Record<string, any>} */
  const out = { ...data, author: by, whisper: everyone ? [] : others.length ? others : [by] };
  if (everyone && rolls.length) {
    out.rolls = rolls;
    out.sound = CONFIG.sounds?.dice;
  }
  return ChatMessage.create(out);
}

/**
 * The chat speaker of an action: the acting combatant (its token and actor; Foundry shows
 * the token's name), not whatever token the posting client controls. An action of the
 * whole table (next round, a team's pass) speaks as the poster, as before.
 * @param {Combat.Implementation} combat
 * @param {Record<string, any> | null | undefined} action
 */
function speakerOf(combat, action) {
  const id = action ? actorOf(action) : null;
  const c = /** @type {any} */ (id ? combat.combatants.get(id) : null);
  if (!c) return ChatMessage.getSpeaker();
  return ChatMessage.getSpeaker(/** @type {any} */ ({ token: c.token ?? undefined, actor: c.actor ?? undefined, alias: c.name ?? undefined }));
}

/**
 * The users who may see a roll's outcome made in `rollMode` by `author` on their own
 * client (a chat command): the GMs and the entitled players (entitledBy); every user
 * for a public roll; only the author for a self roll.
 * @param {string} rollMode
 * @param {any} author
 * @returns {string[]}
 */
export function audienceOf(rollMode, author) {
  if (rollMode === "selfroll") return [author?.id ?? ""];
  const entitled = entitledBy(rollMode, author);
  return game.users.filter((u) => u.isGM || !entitled || entitled.includes(u.id ?? "")).map((u) => u.id ?? "");
}

/**
 * Post an action's events and dice to chat, in the acting user's roll mode. The users
 * who may see all of it (the GMs; the players entitled to the roll mode's roll whose
 * view hides none of it) get the whole message; each other player gets what they may
 * see: the action without squares and the events as their view has them (World
 * Trigger, WT-ST-1), or only that a roll was made privately.
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {Record<string, any> | null} action
 * @param {{events: any[], rolls: {sides: number, value: number, kind: string}[]}} r
 * @param {{user: any, rollMode: string, seed?: number}} opts
 */
async function postAction(combat, flag, action, r, { user, rollMode, seed }) {
  const entry = flag.log.at(-1);
  const turn = turnFor(await gunbaiReady, flag.ruleset, flag.state, null);
  const viewers = turn.viewers;
  const names = Object.fromEntries([...combat.combatants].map((c) => [c.id, c.name]));
  const entitled = r.rolls?.length ? entitledBy(rollMode, user) : null;
  /** @type {Map<string, {action: Record<string, any> | null, events: any[], private: boolean, users: string[]}>} */
  const groups = new Map();
  const full = [];
  for (const u of game.users) {
    if (u.isGM) {
      full.push(u.id ?? "");
      continue;
    }
    const priv = !!entitled && !entitled.includes(u.id ?? "");
    const seen = entry ? entryFor(entry, opViewer(viewerOf(combat, flag, u), turn), viewers) : { events: r.events, action, secret: false };
    if (!priv && !seen.secret) {
      full.push(u.id ?? "");
      continue;
    }
    const shown = priv ? { action: null, events: [], private: true } : { action: seen.action, events: seen.events, private: false };
    const key = JSON.stringify(shown);
    const g = groups.get(key) ?? { ...shown, users: [] };
    g.users.push(u.id ?? "");
    groups.set(key, g);
  }
  const faces = (/** @type {any[]} */ rolls) =>
    `<div class="gunbai-dice" data-dice-only="true">${esc(L("GUNBAI.DiceOnly"))}: ${rollFaceLabels(rolls)
      .map((f) => `<span class="gunbai-die d${f.sides}">${esc(f.label)}</span>`)
      .join(" ")}</div>`;
  /**
   * @param {Record<string, any> | null} shownAction
   * @param {any[]} events
   * @param {boolean} priv
   * @param {boolean} withDice
   */
  const content = (shownAction, events, priv, withDice) => {
    const title = priv ? `${user.name ?? ""}: ${L("GUNBAI.Combat.RolledPrivately")}` : shownAction ? actionLabel(combat, flag, shownAction) : L("GUNBAI.Combat.Started");
    return (
      `<div class="gunbai-result gunbai-action" data-ruleset="${esc(flag.ruleset)}">` +
      `<div class="gunbai-command">${esc(Lk(`GUNBAI.Ruleset.${flag.ruleset}`, flag.ruleset))} · ${esc(title)}</div>` +
      `<div class="gunbai-text">${esc(eventsText(events, combat, flag.weapons))}</div>${withDice && r.rolls?.length ? faces(r.rolls) : ""}</div>`
    );
  };
  const rolls = r.rolls?.length ? [toRoll(r.rolls, null, { diceOnly: true })] : [];
  await postTo(
    {
      speaker: speakerOf(combat, action),
      content: content(action, r.events, false, true),
      flags: { [MODULE]: { ruleset: flag.ruleset, action, events: r.events, seed: seed ?? null, combat: combat.id, names, weapons: flag.weapons ?? {}, terms: termsOf(flag.state, action) } },
    },
    rolls,
    full,
    user.id,
  );
  for (const g of groups.values()) {
    await postTo(
      {
        // (a private roll's copy names no combatant: its title says who rolled)
        speaker: g.private ? ChatMessage.getSpeaker() : speakerOf(combat, g.action),
        content: content(g.action, g.events, g.private, false),
        flags: { [MODULE]: { ruleset: flag.ruleset, action: g.action, events: g.events, private: g.private, by: user.name ?? "", combat: combat.id, names, weapons: flag.weapons ?? {}, terms: termsOf(flag.state, g.action) } },
      },
      [],
      g.users,
      user.id,
    );
  }
}

// ---------- labels ----------

/** gunbai's `lang` key in label objects for Foundry's language. */
function labelKey() {
  const l = (game.i18n?.lang || "en").toLowerCase();
  if (l.startsWith("ja")) return "ja";
  if (l === "zh-tw" || l === "zh-hant") return "zh_hant";
  if (l === "cn" || l.startsWith("zh")) return "zh_hans";
  return "en";
}

/** @type {Map<string, Map<string, Record<string, string>>>} */
const coreLabelCache = new Map();
/**
 * The rulebook terms the core gives for a ruleset (its `labels` / `actions` /
 * `action_types` operations): every {key | action_type | stat | id, label | labels |
 * names} entry found, by key.
 * @param {any} gunbai
 * @param {string} ruleset
 */
function coreLabels(gunbai, ruleset) {
  const hit = coreLabelCache.get(ruleset);
  if (hit) return hit;
  /** @type {Map<string, Record<string, string>>} */
  const out = new Map();
  /** @param {any} v */
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      const key = v.key ?? v.action_type ?? v.stat ?? v.id;
      const label = v.label ?? v.labels ?? v.names;
      if (typeof key === "string" && label && typeof label === "object" && typeof label.en === "string" && !out.has(key)) out.set(key, label);
      for (const x of Object.values(v)) if (x && typeof x === "object") walk(x);
    }
  };
  /** @type {(() => any)[]} */
  const sources = {
    world_trigger: [() => gunbai.worldTrigger.labels({}), () => gunbai.worldTrigger.sampleData({})],
    tmd: [() => gunbai.tmd.actionTypes({})],
    coc7_house: [() => gunbai.coc7House.labels({})],
    coc_ap: [() => gunbai.cocAp.labels({})],
    fap_map: [() => gunbai.fapMap.actions({})],
  }[/** @type {"tmd"} */ (ruleset)] ?? [];
  for (const f of sources) {
    try {
      walk(f());
    } catch {
      /* an entry without that operation: the module's own labels serve */
    }
  }
  coreLabelCache.set(ruleset, out);
  return out;
}


/**
 * A term in the user's language: the core's rulebook label, else the module's
 * own (`GUNBAI.<group>.<key>`), else the key.
 * @param {string} ruleset
 * @param {string} group
 * @param {string} key
 */
function term(ruleset, group, key, state = null) {
  const core = gunbaiLoaded ? coreLabels(gunbaiLoaded, ruleset).get(key) : undefined;
  if (core) return core[labelKey()] ?? core.en;
  const own = stateLabel(state, key);
  if (own) return own[labelKey()] ?? own.en;
  return Lk(`GUNBAI.${group}.${key}`, key.replace(/_/g, " "));
}

/**
 * The state's own terms an action names (its string values with a label in the state),
 * for a chat message to label the action in each reader's language.
 * @param {any} state
 * @param {Record<string, any> | null | undefined} action
 * @returns {Record<string, Record<string, string>>}
 */
function termsOf(state, action) {
  /** @type {Record<string, Record<string, string>>} */
  const out = {};
  for (const v of Object.values(action ?? {})) {
    const l = typeof v === "string" ? stateLabel(state, v) : undefined;
    if (l) out[v] = l;
  }
  return out;
}

/**
 * A term the engine's state names with its own label: a World Trigger battle's skills
 * and operator skills (its `catalog`, built from its data pack).
 * @param {any} state
 * @param {string} key
 * @returns {Record<string, string> | undefined}
 */
function stateLabel(state, key) {
  const cat = state?.catalog;
  if (!cat) return undefined;
  for (const list of [cat.skills, cat.operator_skills]) {
    const hit = Array.isArray(list) ? list.find((/** @type {any} */ x) => x?.id === key) : undefined;
    if (hit?.label && typeof hit.label.en === "string") return hit.label;
  }
  return undefined;
}

/**
 * @typedef {{combatants: Iterable<{id: string | null, name?: string | null}> & {get(id: string): {name?: string | null} | undefined}}} Names
 * a Combat, or a stand-in with only its combatants' ids and names (a message's flags)
 */

/** A combatant's name by engine id (Foundry combatant id). */
function nameOf(/** @type {Names} */ combat, /** @type {string} */ id) {
  return combat.combatants.get(id)?.name ?? id;
}

/**
 * An action as a short line: its type in the user's language, whose it is, and
 * its other fields (ids shown as names).
 * @param {Names} combat a Combat, or anything with its combatants' ids and names
 * @param {EngineFlag} flag
 * @param {Record<string, any>} action
 * @param {{squares?: boolean}} [opts] squares: false leaves the action's squares out
 *   (a log entry whose squares the viewer may not see)
 */
export function actionLabel(combat, flag, action, { squares = true } = {}) {
  const type = term(flag.ruleset, "Action", action.type);
  const who = actorOf(action);
  const ids = new Set([...combat.combatants].map((c) => c.id));
  const parts = Object.entries(action)
    .filter(([k, v]) => k !== "type" && v !== null && v !== undefined && !(Array.isArray(v) && !v.length) && !(who && v === who && k === "actor"))
    // (an attack's defaults: no distance, no bonus dice; World Trigger: no tactics dice or burst added)
    .filter(([k, v]) => !(v === 0 && ["distance", "bonus_dice", "tactics_dice", "burst"].includes(k)))
    .map(([k, v]) => {
      const sq = (/** @type {any} */ p) => (p && typeof p.x === "number" ? `(${p.x}, ${p.y})` : null);
      if (k === "weapon" && typeof v === "string") return weaponName(flag.weapons, who ?? undefined, v);
      if (k === "target" && typeof v === "string" && ids.has(v)) return `→ ${nameOf(combat, v)}`;
      if (k === "path" && Array.isArray(v)) return squares ? `→ ${sq(v[v.length - 1]) ?? "?"}` : "";
      if (sq(v)) return squares ? sq(v) : "";
      if (typeof v === "string" && ids.has(v)) return nameOf(combat, v);
      if (typeof v === "string") return term(flag.ruleset, "Value", v, flag.state);
      if (typeof v === "boolean") return v ? term(flag.ruleset, "Value", k, flag.state) : "";
      // (a FAP/MAP declaration: its action, example, target and what it carries)
      if (v && typeof v === "object" && typeof v.action === "string")
        return [
          term(flag.ruleset, "Value", v.action, flag.state),
          typeof v.example === "string" ? term(flag.ruleset, "Value", v.example, flag.state) : "",
          typeof v.paired?.action === "string"
            ? `+ ${term(flag.ruleset, "Value", v.paired.action, flag.state)}${typeof v.paired.example === "string" ? ` ${term(flag.ruleset, "Value", v.paired.example, flag.state)}` : ""}`
            : "",
          typeof v.target === "string" ? `→ ${nameOf(combat, v.target)}` : "",
          typeof v.follow === "string" ? `${term(flag.ruleset, "Action", "follow")} ${nameOf(combat, v.follow)}` : "",
          typeof v.damage === "number" ? `${Lk("GUNBAI.Param.damage", "damage")} ${v.damage}` : "",
        ]
          .filter(Boolean)
          .join(" ");
      if (typeof v === "object") return `${Lk(`GUNBAI.Param.${k}`, k.replace(/_/g, " "))}: ${JSON.stringify(v)}`;
      // a number: its parameter in words (tactics dice, burst, AP, count, …)
      return `${Lk(`GUNBAI.Param.${k}`, k.replace(/_/g, " "))} ${v}`;
    })
    .filter(Boolean);
  // CoC 7th: a reaction naming no passive action takes the attack as rolled
  if (flag.ruleset === "coc7_house" && action.type === "reaction" && !action.kind) parts.unshift(Lk("GUNBAI.Value.take_attack", "take the attack"));
  return `${who ? `${nameOf(combat, who)}: ` : ""}${type}${parts.length ? ` (${parts.join(", ")})` : ""}`;
}

/** The cost the engine lists for an action, as short text. */
function costText(/** @type {string} */ ruleset, /** @type {any} */ listed) {
  switch (ruleset) {
    case "tmd":
      return listed.cost?.ap ? `${listed.cost.ap} AP` : "";
    case "coc_ap":
      return listed.ap ? `${listed.ap} AP` : "";
    case "coc7_house":
      return listed.uses && listed.uses !== "none" ? Lk(`GUNBAI.Uses.${listed.uses}`, listed.uses) : "";
    case "fap_map":
      return listed.fap || listed.map ? `FAP ${listed.fap} / MAP ${listed.map}` : "";
    case "world_trigger": {
      const c = listed.cost ?? {};
      return [c.slot ? `${c.slot}` : "", c.trion ? `Trion ${c.trion}` : "", c.operator ? L("GUNBAI.Operator") : ""].filter(Boolean).join(" · ");
    }
    default:
      return "";
  }
}

/**
 * The events of an action as one line: an event's own text when it has one (FAP/MAP),
 * else its name in the user's language.
 * @param {any[]} events
 * @param {Names} combat
 */
export function eventsText(events, combat, weapons = {}) {
  return (events || [])
    .map((e) => {
      // the engine's own sentence (every event of the whole-fight engines has one)
      const said = sentence(e, combat, weapons);
      if (said !== null) return said;
      const kind = e.event ?? e.type ?? "?";
      const who = e.actor ?? e.character ?? e.combatant ?? e.member ?? null;
      const label = Lk(`GUNBAI.Event.${kind}`, kind.replace(/_/g, " "));
      const round = e.round !== undefined ? ` ${e.round}` : "";
      // FAP/MAP events name their action in four languages
      const own = e.names ?? e.label;
      const named = own && typeof own === "object" && typeof own.en === "string" ? ` (${own[labelKey()] ?? own.en})` : "";
      return `${who ? `${nameOf(combat, who)}: ` : ""}${label}${named}${round}${targetsText(e, combat)}`;
    })
    .join(" ");
}

/**
 * World Trigger events that name whom they aim at (`target`, or `targets` for a
 * declaration): a viewer's view leaves a member in Stealth unnamed (WT-ST-1).
 */
const TARGETED = new Set(["attack_declared", "reaction_rolled", "no_reaction", "hit_check", "damage", "damage_table"]);

/**
 * Whom an event without a sentence aims at, as " → names": an id its view left out (a
 * member in Stealth the viewer may not see, WT-ST-1) shows as unseen, never as nothing.
 * @param {any} e
 * @param {Names} combat
 */
function targetsText(e, combat) {
  /** @type {any[]} */
  const ids = Array.isArray(e.targets) ? e.targets : typeof e.target === "string" ? [e.target] : [];
  if (!ids.length && !(e.type && TARGETED.has(e.type))) return "";
  const names = ids.filter((id) => typeof id === "string").map((id) => nameOf(combat, id));
  return ` → ${names.length ? names.join(", ") : L("GUNBAI.Combat.Unseen")}`;
}

/**
 * A display label in this client's language: a string as it is, or one per language
 * (`{ja, zh_hans, zh_hant, en}`).
 * @param {any} l
 * @returns {string}
 */
function inLang(l) {
  if (typeof l === "string") return l;
  if (l && typeof l === "object") return String(l[labelKey()] ?? l.en ?? "");
  return "";
}

/**
 * A weapon's display name: its flag's `label`, else its key.
 * @param {Record<string, Record<string, any>> | undefined} weapons
 * @param {string | undefined} owner the combatant carrying it
 * @param {string} key
 */
function weaponName(weapons, owner, key) {
  const own = owner ? weapons?.[owner]?.[key] : undefined;
  const any = own ?? Object.values(weapons ?? {}).find((w) => w[key] !== undefined)?.[key];
  return inLang(any) || key;
}

/**
 * An event's sentence (`text`, the engine's one sentence in four languages) in this
 * client's language, with the ids it names shown as names: the combatants' and the
 * weapons' (the engine writes ids; the host knows the names). Null when the event has
 * no sentence.
 * @param {any} e
 * @param {Names} combat
 * @param {Record<string, Record<string, any>> | undefined} weapons
 * @returns {string | null}
 */
export function sentence(e, combat, weapons) {
  const t = e?.text;
  if (!t || typeof t !== "object" || typeof t.en !== "string") return null;
  const said = String(t[labelKey()] ?? t.en);
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const ws of Object.values(weapons ?? {})) for (const [k, l] of Object.entries(ws)) if (inLang(l)) names.set(k, inLang(l));
  for (const c of combat.combatants) if (c.id && c.name) names.set(c.id, c.name);
  return namesIn(said, names);
}

/**
 * `text` with every id of `names` replaced by its name (the longest id first; an id is
 * not replaced inside a longer word of letters and digits).
 * @param {string} text
 * @param {Map<string, string>} names
 */
export function namesIn(text, names) {
  const ids = [...names.keys()].filter(Boolean).sort((a, b) => b.length - a.length);
  if (!ids.length) return text;
  const alt = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return text.replace(new RegExp(`(?<![A-Za-z0-9_])(?:${alt})(?![A-Za-z0-9_])`, "g"), (m) => names.get(m) ?? m);
}

/**
 * Re-label an action message in this client's language (the stored content is in
 * the language of the GM client that posted it): the title and the events, from
 * the message's flags. Called from the chat-message render hook.
 * @param {any} message
 * @param {HTMLElement} el
 */
export function relabelMessage(message, el) {
  const f = message?.flags?.[MODULE];
  const box = el.querySelector(".gunbai-action");
  if (!f?.ruleset || !box) return;
  /** @type {any} */
  const list = Object.entries(f.names ?? {}).map(([id, name]) => ({ id, name }));
  list.get = (/** @type {string} */ id) => list.find((/** @type {any} */ c) => c.id === id);
  const names = { combatants: list };
  const title = f.private
    ? `${f.by ?? ""}: ${L("GUNBAI.Combat.RolledPrivately")}`
    : f.action
      ? actionLabel(names, /** @type {EngineFlag} */ ({ ruleset: f.ruleset, state: { catalog: { skills: Object.entries(f.terms ?? {}).map(([id, label]) => ({ id, label })) } }, seq: 0, log: [], weapons: f.weapons ?? {} }), f.action)
      : L("GUNBAI.Combat.Started");
  const head = box.querySelector(".gunbai-command");
  if (head) head.textContent = `${Lk(`GUNBAI.Ruleset.${f.ruleset}`, f.ruleset)} · ${title}`;
  const text = box.querySelector(".gunbai-text");
  if (text) text.textContent = eventsText(f.events ?? [], names, f.weapons);
  const dice = box.querySelector(".gunbai-dice");
  if (dice?.firstChild?.nodeType === 3) dice.firstChild.textContent = `${L("GUNBAI.DiceOnly")}: `;
}

// ---------- players' requests ----------
//
// A player's request is a chat message the player creates, whispered to the GMs:
// Foundry's server sets its `author` (a player cannot create a message as another
// user) and sends it to the GMs only. It names the action by its index in the
// player's own listing (their view) and the listing's `seq`: no hidden data, nothing
// the GM's client takes on trust. The active GM's client resolves the index against
// the listing it makes for the message's author, applies it, answers in the author's
// view and deletes the message. The module socket is not used: Foundry gives a socket
// handler no sender it vouches for.

/** This client's requests awaiting an answer, by request message id. */
const pending = new Map();

/**
 * Take an action from this client: the GM applies it; a player sends a request for the
 * action of their listing it equals, and waits for the answer in their view.
 * @param {Combat.Implementation} combat
 * @param {Record<string, any>} action
 */
export async function requestAction(combat, action) {
  if (game.user?.isGM) return applyAction(combat, action);
  const view = viewOf(combat);
  const index = view ? view.actions.findIndex((a) => sameAction(a.action, action)) : -1;
  if (!view || index < 0) throw coded("not_legal", JSON.stringify(action));
  return requestIndex(combat, view.seq, index);
}

/**
 * Send a request for the `index`-th action of this player's listing at `seq`.
 * @param {Combat.Implementation} combat
 * @param {number} seq
 * @param {number} index
 */
export async function requestIndex(combat, seq, index) {
  const gms = game.users.filter((u) => u.isGM).map((u) => u.id);
  const msg = await ChatMessage.create({
    content: "",
    whisper: gms,
    flags: { [MODULE]: { request: { combat: combat.id, seq, index, rollMode: currentRollMode() } } },
  });
  const id = msg?.id;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    setTimeout(() => {
      if (pending.delete(id)) reject(new Error(L("GUNBAI.Combat.NoGm")));
    }, 10000);
    takeAnswer(combat);
  });
}

/**
 * A view changed (a player's client): settle the request it answers.
 * @param {Combat.Implementation} combat
 */
export function takeAnswer(combat) {
  const a = viewOf(combat)?.answer;
  if (!a) return;
  const p = pending.get(a.request);
  if (!p) return;
  pending.delete(a.request);
  if (a.ok) p.resolve({ events: a.events ?? [] });
  else if (a.code && a.code in REFUSALS) p.reject(coded(/** @type {keyof typeof REFUSALS} */ (a.code), a.detail ?? ""));
  else p.reject(new Error(a.detail ?? "refused"));
}

/**
 * A new chat message (the active GM's client): a player's request is applied for its
 * author, the user Foundry's server vouches for; whatever else it says is ignored.
 * @param {any} msg
 */
export async function onChatMessage(msg) {
  const req = msg?.flags?.[MODULE]?.request;
  if (!req || typeof req !== "object") return;
  if (!game.user?.isGM || game.users.activeGM?.id !== game.user.id) return;
  const user = /** @type {User.Implementation | undefined} */ (game.users.get(msg.author?.id ?? msg.author));
  const combat = /** @type {Combat.Implementation | undefined} */ (game.combats.get(req.combat));
  try {
    if (!user || user.isGM || !combat) return;
    const flag = engineOf(combat);
    if (!flag) return;
    const refuse = (/** @type {keyof typeof REFUSALS} */ code, /** @type {string} */ detail) => answerOnly(combat, flag, user, { request: msg.id, ok: false, code, detail });
    if (req.seq !== flag.seq) return await refuse("not_legal", `seq ${req.seq} ≠ ${flag.seq}`);
    const listed = listFor(await gunbaiReady, combat, flag, user);
    const chosen = Number.isInteger(req.index) ? listed[req.index] : undefined;
    if (!chosen) return await refuse("not_legal", `#${req.index}`);
    const modes = ["publicroll", "gmroll", "blindroll", "selfroll"];
    try {
      await applyAction(combat, chosen.action, { user, rollMode: modes.includes(req.rollMode) ? req.rollMode : "publicroll", answer: msg.id });
    } catch (e) {
      const err = /** @type {Error & {code?: string, detail?: string}} */ (e);
      await refuse(err.code && err.code in REFUSALS ? /** @type {keyof typeof REFUSALS} */ (err.code) : "not_legal", err.message);
    }
  } finally {
    await msg.delete?.();
  }
}

/**
 * Hide a request message in the chat log (it carries no text; it is deleted once
 * answered).
 * @param {any} msg
 * @param {HTMLElement | undefined} el
 */
export function hideRequest(msg, el) {
  if (msg?.flags?.[MODULE]?.request && el) el.style.display = "none";
}

// ---------- Combat / Combatant document classes ----------

/**
 * The module's Combat class over whatever class is configured (a system's own):
 * with an engine running, initiative is the engine's and Foundry's initiative
 * buttons (`rollInitiative`, `rollAll`, `rollNPC`) re-sync it instead of rolling;
 * Foundry's round and turn buttons leave the engine's round and turn.
 * @param {any} Base CONFIG.Combat.documentClass
 * @returns {any}
 */
export function combatClass(Base) {
  return class GunbaiCombat extends Base {
    /**
     * @param {string | string[]} ids
     * @param {any} [options]
     */
    async rollInitiative(ids, options = {}) {
      const self = /** @type {Combat.Implementation} */ (/** @type {unknown} */ (this));
      if (!publicOf(self)) return super.rollInitiative(ids, options);
      ui.notifications?.info(L("GUNBAI.Combat.InitiativeFromEngine"));
      const flag = game.user?.isGM ? engineOf(self) : null;
      if (flag) await syncCombat(self, flag);
      return this;
    }

    /** With an engine running, rounds and turns are the engine's: Foundry's buttons only say so. */
    async nextRound() {
      if (!publicOf(/** @type {any} */ (this))) return super.nextRound();
      ui.notifications?.info(L("GUNBAI.Combat.RoundFromEngine"));
      return this;
    }
    async previousRound() {
      if (!publicOf(/** @type {any} */ (this))) return super.previousRound();
      ui.notifications?.info(L("GUNBAI.Combat.RoundFromEngine"));
      return this;
    }
    async nextTurn() {
      if (!publicOf(/** @type {any} */ (this))) return super.nextTurn();
      ui.notifications?.info(L("GUNBAI.Combat.RoundFromEngine"));
      return this;
    }
    async previousTurn() {
      if (!publicOf(/** @type {any} */ (this))) return super.previousTurn();
      ui.notifications?.info(L("GUNBAI.Combat.RoundFromEngine"));
      return this;
    }
  };
}

/**
 * The module's Combatant class: with an engine running, its initiative "roll" is
 * the constant the engine's order gives (never a die).
 * @param {any} Base CONFIG.Combatant.documentClass
 * @returns {any}
 */
export function combatantClass(Base) {
  return class GunbaiCombatant extends Base {
    /** @param {string} [formula] */
    getInitiativeRoll(formula) {
      const flag = publicOf(this.combat);
      if (!flag) return super.getInitiativeRoll(formula);
      const order = flag.order ?? [];
      const i = order.indexOf(this.id);
      return new Roll(String(i < 0 ? 0 : order.length - i));
    }
  };
}

// ---------- the tracker panel ----------

/**
 * The fight's news above the buttons: an attack waiting for its target's reaction (the
 * `reaction` stage), addressed to the target's owner (and the GM), and the outcome once
 * the fight is over.
 * @param {Combat.Implementation} combat
 * @param {string} ruleset
 * @param {any} state the state this client may see
 * @param {PublicFlag} pub
 * @param {boolean} gm
 * @param {Turn | null} turn whose move it is as this client may know it
 * @returns {string}
 */
function fightNote(combat, ruleset, state, pub, gm, turn) {
  const out = pub.outcome;
  if (out && typeof out === "object") {
    const side = out.side ?? out.winner ?? null;
    const said = out.text ? sentence({ text: out.text }, combat, pub.weapons) : null;
    // the side as the names of its combatants (a side is a team id)
    const members = (state?.combatants ?? state?.fighters ?? [])
      .map((/** @type {any} */ c) => (c.entry ? { id: c.entry.id, side: c.side } : { id: c.participant?.id, side: c.participant?.side ?? c.participant?.id }))
      .filter((/** @type {any} */ c) => side !== null && c.side === side)
      .map((/** @type {any} */ c) => nameOf(combat, c.id));
    const text = said ?? (side ? Lf("GUNBAI.Combat.FightWon", { side: members.join(", ") || String(side) }) : L("GUNBAI.Combat.FightOver"));
    return `<div class="gunbai-outcome" data-side="${esc(side ?? "")}">${esc(text)}</div>`;
  }
  const p = pendingAttack(ruleset, state);
  if (!p) {
    // another engine's reaction stage (World Trigger): the member the core's turn names
    // for this client, or nobody when its side may not see it (WT-ST-1)
    const r = turn?.active?.find((a) => a.stage === "reaction");
    if (!r) return "";
    const text = r.id ? Lf("GUNBAI.Combat.ReactionWait", { target: nameOf(combat, r.id) }) : L("GUNBAI.Combat.ReactionWaitHidden");
    return `<div class="gunbai-pending" data-stage="reaction" data-target="${esc(r.id ?? "")}">${esc(text)}</div>`;
  }
  const target = combat.combatants.get(p.target);
  const mine = gm || !!target?.actor?.testUserPermission(game.user, "OWNER");
  const weapon = weaponName(pub.weapons, p.attacker, p.weapon);
  const text = Lf(mine ? "GUNBAI.Combat.ReactNow" : "GUNBAI.Combat.Attacking", { attacker: nameOf(combat, p.attacker), target: nameOf(combat, p.target), weapon });
  return `<div class="gunbai-pending" data-stage="reaction" data-target="${esc(p.target)}"${mine ? ' data-mine="true"' : ""}>${esc(text)}</div>`;
}

/**
 * Render the panel into the combat tracker.
 * @param {HTMLElement} root
 * @param {Combat.Implementation} combat
 */
export async function renderPanel(root, combat) {
  root.querySelector(".gunbai-combat")?.remove();
  const panel = document.createElement("section");
  panel.className = "gunbai-combat";
  const anchor = root.querySelector("#combat-tracker, .combat-tracker, ol") || root.firstElementChild;
  if (anchor?.parentElement) anchor.parentElement.insertBefore(panel, anchor);
  else root.prepend(panel);
  const gm = !!game.user?.isGM;
  const pub = publicOf(combat);
  const flag = gm ? engineOf(combat) : null;
  const mine = gm ? null : viewOf(combat);
  if (!pub || (gm ? !flag : !mine)) {
    panel.dataset.state = "idle";
    panel.innerHTML = gm
      ? `<label>${esc(L("GUNBAI.Combat.Ruleset"))} <select data-gunbai="ruleset">${RULESETS.map(
          (r) => `<option value="${r}">${esc(Lk(`GUNBAI.Ruleset.${r}`, r))}</option>`,
        ).join("")}</select></label> <button type="button" data-gunbai="start">${esc(L("GUNBAI.Combat.Start"))}</button>`
      : `<p class="gunbai-note">${esc(L("GUNBAI.Combat.WaitingForGm"))}</p>`;
  } else {
    // the GM's client shows the record; a player's client has only its own view
    const ruleset = pub.ruleset;
    const state = flag ? flag.state : mine?.state;
    const seq = flag ? flag.seq : mine?.seq ?? 0;
    /** @type {{action: Record<string, any> | null, events: any[], secret: boolean, private?: boolean, user: string}[]} */
    const entries = flag ? flag.log.slice(-6).map((l) => ({ action: l.action, events: l.events, secret: false, user: l.user })) : mine?.log ?? [];
    const turn = flag ? turnFor(await gunbaiReady, ruleset, flag.state, null) : mine?.turn ?? null;
    // the round and phase as the state words them (the CoC rounds have no phase)
    const info = { round: state?.round, phase: state?.phase ?? null };
    const actions = await actionsFor(combat);
    const weapons = pub.weapons ?? {};
    const labels = /** @type {EngineFlag} */ ({ ruleset, state: state ?? null, seq: 0, log: [], weapons });
    panel.dataset.state = "running";
    panel.dataset.ruleset = ruleset;
    panel.dataset.seq = String(seq);
    const current = currentOf(turn);
    const rows = orderOf(turn)
      .map((id) => {
        const c = combat.combatants.get(id);
        const mine = !!c?.actor?.testUserPermission(game.user, "OWNER") && !gm;
        const nums = combatantNumbers(ruleset, state, id)
          // (a stance is a key: its rulebook term)
          .map(([k, v]) => `<span class="gunbai-num" data-key="${esc(k)}">${esc(Lk(`GUNBAI.Num.${k}`, k))} ${esc(k === "Stance" && typeof v === "string" && v !== "—" ? term(ruleset, "Value", v) : v)}</span>`)
          .join(" ");
        return `<li data-combatant="${esc(id)}" class="${current === id ? "current" : ""}${mine ? " mine" : ""}"><b>${esc(nameOf(combat, id))}</b> ${nums}</li>`;
      })
      .join("");
    const button = (/** @type {{action: Record<string, any>, label: string, cost: string}} */ a, /** @type {number} */ i) =>
          `<button type="button" data-gunbai="act" data-index="${i}" data-type="${esc(a.action.type)}" data-actor="${esc(actorOf(a.action) ?? a.action.team ?? "")}"${
            typeof a.action.target === "string" ? ` data-target="${esc(a.action.target)}"` : ""
          }${typeof a.action.kind === "string" ? ` data-kind="${esc(a.action.kind)}"` : ""}>${esc(a.label)}${
            a.cost ? ` <small>${esc(a.cost)}</small>` : ""
          }</button>`;
    const tableActions = (/** @type {Record<string, any>} */ a) => !!whoMay(ruleset, a).gm;
    // identical entries (same combatant, words and cost) are one button: the first's
    const shown = new Set();
    const first = actions.map((a) => {
      const key = `${actorOf(a.action) ?? a.action.team ?? ""}\u0000${a.label}\u0000${a.cost}`;
      return shown.has(key) ? false : (shown.add(key), true);
    });
    const buttons = actions.map((a, i) => (tableActions(a.action) || !first[i] ? "" : button(a, i))).join("");
    const gmButtons = actions.map((a, i) => (tableActions(a.action) && first[i] ? button(a, i) : "")).join("");
    const teams = teamRows(ruleset, state)
      .map(
        (t) =>
          `<tr data-team="${esc(t.team)}"><th>${esc(t.team)}</th>${t.cells
            .map(([k, v]) => `<td data-key="${esc(k)}">${esc(Lk(`GUNBAI.Num.${k}`, k))} ${esc(v)}</td>`)
            .join("")}</tr>`,
      )
      .join("");
    const log = entries
      .map((l) => {
        const head = l.private
          ? `${game.users.get(l.user)?.name ?? ""}: ${L("GUNBAI.Combat.RolledPrivately")}`
          : l.action
            ? actionLabel(combat, labels, l.action, { squares: !l.secret })
            : L("GUNBAI.Combat.Started");
        return `<li>${esc(`${head} → ${eventsText(l.events, combat, weapons)}`)}</li>`;
      })
      .join("");
    panel.innerHTML =
      `<div class="gunbai-phase" data-round="${info.round}" data-phase="${esc(info.phase ?? "")}">${esc(Lk(`GUNBAI.Ruleset.${ruleset}`, ruleset))} · ${esc(
        L("GUNBAI.Round"),
      )} ${esc(info.round)}${info.phase ? ` · ${esc(Lk(`GUNBAI.PhaseName.${info.phase}`, info.phase))}` : ""}</div>` +
      (teams ? `<table class="gunbai-teams">${teams}</table>` : "") +
      `<ol class="gunbai-order">${rows}</ol>` +
      fightNote(combat, ruleset, state, pub, gm, turn) +
      `<div class="gunbai-actions" data-count="${actions.length}">${buttons || (gmButtons ? "" : `<span class="gunbai-note">${esc(L("GUNBAI.Combat.NothingToDo"))}</span>`)}</div>` +
      (gm
        ? `<details class="gunbai-gm" open><summary>${esc(L("GUNBAI.Combat.GmActions"))}</summary><div class="gunbai-actions">${gmButtons}</div>` +
          `<button type="button" data-gunbai="stop">${esc(L("GUNBAI.Combat.Stop"))}</button></details>`
        : "") +
      `<ol class="gunbai-log">${log}</ol>`;
    panel.addEventListener("click", (ev) => {
      const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest("button[data-gunbai='act']"));
      if (!b) return;
      const a = actions[Number(b.dataset.index)];
      if (!a) return;
      panel.querySelectorAll("button").forEach((x) => ((/** @type {HTMLButtonElement} */ (x)).disabled = true));
      requestAction(combat, a.action).catch((e) => ui.notifications?.warn(`gunbai: ${e.message}`));
    });
  }
  panel.addEventListener("click", (ev) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest("button[data-gunbai]"));
    if (!b || !gm) return;
    if (b.dataset.gunbai === "start") {
      const sel = /** @type {HTMLSelectElement | null} */ (panel.querySelector("select[data-gunbai='ruleset']"));
      startEngine(combat, sel?.value ?? RULESETS[0]).catch((e) => ui.notifications?.error(`gunbai: ${e.code ? `${e.code}: ` : ""}${e.message}`));
    } else if (b.dataset.gunbai === "stop") {
      stopEngine(combat).catch((e) => ui.notifications?.error(`gunbai: ${e.message}`));
    }
  });
  return panel;
}
