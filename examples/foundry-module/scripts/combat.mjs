// Combat for the five gunbai rulesets in Foundry's combat tracker, driven by the
// engines' native game handles (`worldTrigger.Battle`, `tmd.Encounter`,
// `coc7House.Round`, `cocAp.Round`, `fapMap.Round`).
//
// * The engine state lives in the Combat's `gunbai.engine` flag; only a GM
//   writes it (Foundry lets only the GM update a Combat).
// * Legal actions come from the engine (`legalActions`) and appear as buttons.
//   A GM sees every one; a player sees those of the combatants whose actor they
//   own. A player's click goes through the `module.gunbai` socket; the active GM's
//   client checks ownership and legality, applies it and saves the state.
// * Initiative comes from the engine: the Combat document class overrides
//   `rollInitiative` (used by Foundry's own initiative buttons) and the
//   Combatant class `getInitiativeRoll`, so Foundry never rolls over it.
// * Teams are v13 CombatantGroups where they exist (feature-detected), else the
//   `gunbai.team` flag or the token's disposition.
// * Everything a player's client is shown of the state goes through `viewFor`.
import { RULESETS, engineClass, buildSetup, whoMay, GM_EXTRA, orderOf, roundInfo, combatantNumbers, teamMembers, teamRows, actorOf } from "./rulesets.mjs";
import { toRoll, rollFaceLabels } from "./dice.mjs";

const MODULE = "gunbai";
export const SOCKET = `module.${MODULE}`;
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
/** A localized label with a fallback when the key is missing. */
const Lk = (/** @type {string} */ k, /** @type {string} */ fallback) => {
  const v = game.i18n.localize(k);
  return v === k ? fallback : v;
};

/**
 * @typedef {object} EngineFlag the Combat's `gunbai.engine` flag
 * @property {string} ruleset
 * @property {any} state the handle's `state` JSON
 * @property {number} seq actions applied so far
 * @property {LogEntry[]} log the last actions and their events (shown in each client's language)
 */

/**
 * @typedef {object} LogEntry
 * @property {Record<string, any> | null} action
 * @property {any[]} events
 * @property {string} user
 * @property {Record<string, any[]>} [hidden] the viewers who may not see all of it, each
 *   with the events as it sees them (`viewFor`); absent when it hides nothing
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
  const hidden = secretsOf(gunbai, ruleset, state, entry.action, entry.events);
  return Object.keys(hidden).length ? { ...entry, hidden } : entry;
}

/**
 * @param {Combat.Implementation} combat
 * @returns {EngineFlag | null}
 */
export function engineOf(combat) {
  return /** @type {EngineFlag | undefined} */ (combat?.getFlag?.(MODULE, "engine")) ?? null;
}

/**
 * The viewer the core's view operations take for a host viewer: World Trigger a
 * team's id, TMD a side (the combatant's team), the other rulesets a combatant's id.
 * @param {string} ruleset
 * @param {{team?: string, combatant?: string}} viewer
 * @returns {string}
 */
export function opViewer(ruleset, viewer) {
  return ruleset === "world_trigger" || ruleset === "tmd" ? viewer.team ?? "" : viewer.combatant ?? "";
}

/**
 * Every viewer a state names, as the view operations take them.
 * @param {string} ruleset
 * @param {any} state
 * @returns {string[]}
 */
function viewersOf(ruleset, state) {
  if (ruleset === "world_trigger") return state.teams.map((/** @type {any} */ t) => t.id);
  if (ruleset === "tmd") return [...new Set(/** @type {string[]} */ (state.characters.map((/** @type {any} */ c) => c.side)))];
  return orderOf(ruleset, state);
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
    const v = opViewer(ruleset, viewer);
    const all = viewersOf(ruleset, state);
    if (all.includes(v) || !all.length) return one(all.length ? v : /** @type {any} */ (null));
    return all.map(one).reduce((a, b) => (events === undefined ? { state: common(a.state, b.state) } : { state: common(a.state, b.state), events: common(a.events, b.events) }));
  } finally {
    h.free();
  }
}

/**
 * The members a view leaves without the square the state gives them (World
 * Trigger: another team's members in Stealth).
 * @param {any} state
 * @param {any} view
 * @returns {Set<string>}
 */
export function hiddenMembers(state, view) {
  return new Set(
    (state?.members ?? [])
      .filter((/** @type {any} */ m, /** @type {number} */ i) => m.at && !view?.members?.[i]?.at)
      .map((/** @type {any} */ m) => String(m.id)),
  );
}

/**
 * Whether an action names one of `ids` (as its actor, target, reactor…).
 * @param {any} v
 * @param {Set<string>} ids
 * @returns {boolean}
 */
function mentions(v, ids) {
  if (!ids.size) return false;
  if (typeof v === "string") return ids.has(v);
  if (Array.isArray(v)) return v.some((x) => mentions(x, ids));
  if (v && typeof v === "object") return Object.values(v).some((x) => mentions(x, ids));
  return false;
}

/**
 * What of an action each viewer may not see, for its log entry: the viewers for
 * whom its events are redacted or who may not see a member it names, each with the
 * events as that viewer sees them. Empty when the action hides nothing.
 * @param {any} gunbai
 * @param {string} ruleset
 * @param {any} state the state the action led to
 * @param {Record<string, any> | null} action
 * @param {any[]} events
 * @returns {Record<string, any[]>}
 */
function secretsOf(gunbai, ruleset, state, action, events) {
  /** @type {Record<string, any[]>} */
  const out = {};
  const h = engineClass(gunbai, ruleset).fromJSON(state);
  try {
    for (const v of viewersOf(ruleset, state)) {
      const seen = /** @type {{state: any, events?: any[]}} */ (h.view(v, events));
      const redacted = JSON.stringify(seen.events ?? []) !== JSON.stringify(events ?? []);
      if (redacted || (action && mentions(action, hiddenMembers(state, seen.state)))) out[v] = seen.events ?? [];
    }
  } finally {
    h.free();
  }
  return out;
}

/**
 * A log entry as a viewer may see it: the events redacted for it and whether the
 * action's squares are to be left out of its label.
 * @param {{action: Record<string, any> | null, events: any[], hidden?: Record<string, any[]>}} entry
 * @param {string | null} viewer the view operations' viewer; null for the GM
 * @param {string[]} viewers every viewer of the encounter
 * @returns {{events: any[], secret: boolean}}
 */
export function entryFor(entry, viewer, viewers) {
  const hidden = entry.hidden ?? {};
  const keys = Object.keys(hidden);
  if (viewer === null || !keys.length) return { events: entry.events, secret: false };
  if (keys.includes(viewer)) return { events: hidden[viewer], secret: true };
  if (viewers.includes(viewer)) return { events: entry.events, secret: false };
  return { events: keys.map((k) => hidden[k]).reduce(common), secret: true };
}

// ---------- teams ----------

/** v13 CombatantGroup support (absent in v12). */
export function hasGroups(/** @type {any} */ combat) {
  return !!combat && "groups" in combat && !!combat.groups && typeof combat.createEmbeddedDocuments === "function" &&
    // CombatantGroup is new in v13; the pinned types (13.340.1) do not declare it in CONFIG
    !!(/** @type {any} */ (CONFIG).CombatantGroup);
}

/**
 * A combatant's team: its v13 CombatantGroup's name, else the `gunbai.team` flag
 * (of the combatant or its actor), else the token's disposition.
 * @param {Combatant.Implementation} combatant
 * @returns {string}
 */
export function teamOf(combatant) {
  // v13 Combatant#group (a CombatantGroup) is not in the pinned types (13.340.1)
  const group = /** @type {any} */ (combatant).group ?? null;
  if (group && typeof group === "object" && group.name) return String(group.name);
  const flag = combatant.getFlag?.(MODULE, "team") ?? combatant.actor?.getFlag?.(MODULE, "team");
  if (flag) return String(flag);
  const d = combatant.token?.disposition ?? 0;
  return /** @type {Record<string, string>} */ ({ 1: "friendly", 0: "neutral", "-1": "hostile", "-2": "secret" })[String(d)] ?? "neutral";
}

/**
 * v13: one CombatantGroup per team, each combatant in its team's group.
 * @param {Combat.Implementation} combat
 */
async function syncGroups(combat) {
  if (!hasGroups(combat)) return;
  // CombatantGroup (v13) is not in the pinned types (13.340.1): Combat#groups,
  // Combatant#group and createEmbeddedDocuments("CombatantGroup") are untyped here.
  const c13 = /** @type {any} */ (combat);
  const want = new Map();
  for (const c of combat.combatants) want.set(c.id, teamOf(c));
  const names = [...new Set(want.values())];
  const existing = new Map([...c13.groups].map((g) => [g.name, g]));
  const create = names.filter((n) => !existing.has(n)).map((name) => ({ name }));
  if (create.length) for (const g of await c13.createEmbeddedDocuments("CombatantGroup", create)) existing.set(g.name, g);
  const updates = [...c13.combatants]
    .filter((/** @type {any} */ c) => (c.group?.id ?? c.group) !== existing.get(want.get(c.id))?.id)
    .map((/** @type {any} */ c) => ({ _id: c.id, group: existing.get(want.get(c.id))?.id }));
  if (updates.length) await combat.updateEmbeddedDocuments("Combatant", updates);
}

// ---------- setup ----------

/**
 * The combatant's stats for a ruleset: its own `gunbai.<ruleset>` flag, else its actor's.
 * @param {Combatant.Implementation} combatant
 * @param {string} ruleset
 */
function statsOf(combatant, ruleset) {
  return combatant.getFlag?.(MODULE, ruleset) ?? combatant.actor?.getFlag?.(MODULE, ruleset) ?? {};
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
    const flag = { ruleset, state: h.state, seq: 0, log: [] };
    const created = h.created;
    if (created?.events?.length) flag.log.push(withSecrets({ action: null, events: created.events, user: game.user.id ?? "" }, gunbai, ruleset, flag.state));
    await combat.setFlag(MODULE, "engine", flag);
    await syncCombat(combat, flag);
    if (created?.rolls?.length) await postAction(combat, flag, null, created, { user: game.user, rollMode: currentRollMode() });
    return flag;
  } finally {
    h.free();
  }
}

/** End the engine (GM only): the flag is removed. */
export async function stopEngine(/** @type {any} */ combat) {
  if (!game.user?.isGM) throw new Error(L("GUNBAI.Combat.GmOnly"));
  await combat.unsetFlag(MODULE, "engine");
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
 * state (a view is never loaded). A player's list leaves out every action naming a
 * member their view has no square for (World Trigger: an attack on a hidden enemy
 * would show that it is in range).
 * @param {Combat.Implementation} combat
 * @param {any} [user]
 * @returns {Promise<{action: Record<string, any>, label: string, cost: string}[]>}
 */
export async function actionsFor(combat, user = game.user) {
  const flag = engineOf(combat);
  if (!flag) return [];
  const gunbai = await gunbaiReady;
  const hidden = user.isGM ? new Set() : hiddenMembers(flag.state, viewFor(gunbai, flag.ruleset, flag.state, viewerOf(combat, flag, user)).state);
  const h = engineClass(gunbai, flag.ruleset).fromJSON(flag.state);
  try {
    /** @type {{action: Record<string, any>, cost: string}[]} */
    const listed = h.legalActions().map((/** @type {any} */ l) => ({ action: l.action, cost: costText(flag.ruleset, l) }));
    if (user.isGM) for (const a of GM_EXTRA[/** @type {keyof typeof GM_EXTRA} */ (flag.ruleset)]?.(flag.state) ?? []) listed.push({ action: a, cost: "" });
    return listed.filter((l) => mayAct(combat, flag, l.action, user) && !mentions(l.action, hidden)).map((l) => ({ ...l, label: actionLabel(combat, flag, l.action) }));
  } finally {
    h.free();
  }
}

/**
 * The viewer a player's client shows the state to: the team (or, without teams,
 * the combatant) of the first combatant the user owns.
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {User.Implementation} user
 */
export function viewerOf(combat, flag, user) {
  const own = [...combat.combatants].find((c) => c.actor?.testUserPermission(user, "OWNER"));
  if (!own) return { team: "" };
  return flag.ruleset === "world_trigger" || flag.ruleset === "tmd" ? { team: teamOf(own) } : { combatant: own.id ?? "" };
}

// ---------- applying an action (the GM client) ----------

/**
 * Apply an action on the GM client: refuses it unless `user` may take it and
 * the engine lists it (or the engine accepts it, for GM_EXTRA); then saves the
 * state, syncs initiative and posts the action's events and dice.
 * @param {Combat.Implementation} combat
 * @param {Record<string, any>} action
 * @param {{user?: any, rollMode?: string, seed?: number}} [opts]
 */
export async function applyAction(combat, action, { user = game.user, rollMode, seed } = {}) {
  if (!game.user?.isGM) throw new Error(L("GUNBAI.Combat.GmOnly"));
  const flag = engineOf(combat);
  if (!flag) throw new Error(L("GUNBAI.Combat.NoEngine"));
  if (!action || typeof action !== "object" || typeof action.type !== "string") throw new Error("gunbai: malformed action");
  if (!mayAct(combat, flag, action, user)) throw coded("not_yours", `${user?.name ?? "?"} → ${actorOf(action) ?? action.type}`);
  const gunbai = await gunbaiReady;
  const h = engineClass(gunbai, flag.ruleset).fromJSON(flag.state);
  try {
    const listed = h.legalActions().some((/** @type {any} */ l) => sameAction(l.action, action));
    const extra = (GM_EXTRA[/** @type {keyof typeof GM_EXTRA} */ (flag.ruleset)]?.(flag.state) ?? []).some((a) => sameAction(a, action));
    if (!listed && !(extra && user.isGM)) throw coded("not_legal", JSON.stringify(action));
    const s = seed ?? newSeed();
    const r = h.act(/** @type {any} */ (action), { seed: s });
    /** @type {EngineFlag} */
    const next = {
      ruleset: flag.ruleset,
      state: h.state,
      seq: flag.seq + 1,
      log: [...flag.log, withSecrets({ action, events: r.events, user: user.id }, gunbai, flag.ruleset, h.state)].slice(-LOG_MAX),
    };
    await combat.setFlag(MODULE, "engine", next);
    await syncCombat(combat, next);
    await postAction(combat, next, action, r, { user, rollMode: rollMode ?? currentRollMode(), seed: s });
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
  const order = orderOf(flag.ruleset, flag.state);
  const n = order.length;
  const updates = [...combat.combatants]
    .map((c) => {
      const i = order.indexOf(c.id ?? "");
      return { _id: c.id ?? "", initiative: i < 0 ? null : n - i };
    })
    .filter((u) => combat.combatants.get(u._id)?.initiative !== u.initiative);
  if (updates.length) await combat.updateEmbeddedDocuments("Combatant", updates);
  const { round, current } = roundInfo(flag.ruleset, flag.state);
  /** @type {Record<string, number>} */
  const change = {};
  if (typeof round === "number" && round !== combat.round) change.round = round;
  // the tracker's current combatant is the engine's (when the engine has one acting)
  const turn = current ? combat.turns.findIndex((c) => c.id === current) : -1;
  if (turn >= 0 && turn !== combat.turn) change.turn = turn;
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
 * Chat data for a roll mode on behalf of `author` (the GM client posts a
 * player's action as that player): Foundry's `ChatMessage.applyRollMode`, with a
 * self roll whispered to the author (not to the GM who posts it).
 * @param {Record<string, any>} data
 * @param {string} rollMode
 * @param {any} author
 */
export function withRollMode(data, rollMode, author = game.user) {
  /** @type {Record<string, any>} */
  const out = ChatMessage.applyRollMode(/** @type {any} */ (data), /** @type {any} */ (rollMode));
  if (rollMode === "selfroll") out.whisper = [author.id];
  return out;
}

/**
 * Post an action's events and dice to chat, in the acting user's roll mode.
 * @param {Combat.Implementation} combat
 * @param {EngineFlag} flag
 * @param {Record<string, any> | null} action
 * @param {{events: any[], rolls: {sides: number, value: number, kind: string}[]}} r
 * @param {{user: any, rollMode: string, seed?: number}} opts
 */
async function postAction(combat, flag, action, r, { user, rollMode, seed }) {
  const rolls = r.rolls?.length ? [toRoll(r.rolls, null, { diceOnly: true })] : [];
  const title = action ? actionLabel(combat, flag, action) : L("GUNBAI.Combat.Started");
  const dice = r.rolls?.length
    ? `<div class="gunbai-dice" data-dice-only="true">${esc(L("GUNBAI.DiceOnly"))}: ${rollFaceLabels(r.rolls)
        .map((f) => `<span class="gunbai-die d${f.sides}">${esc(f.label)}</span>`)
        .join(" ")}</div>`
    : "";
  const content =
    `<div class="gunbai-result gunbai-action" data-ruleset="${esc(flag.ruleset)}">` +
    `<div class="gunbai-command">${esc(Lk(`GUNBAI.Ruleset.${flag.ruleset}`, flag.ruleset))} · ${esc(title)}</div>` +
    `<div class="gunbai-text">${esc(eventsText(r.events, combat))}</div>${dice}</div>`;
  /** @type {Record<string, any>} */
  const data = {
    author: user.id,
    speaker: ChatMessage.getSpeaker(),
    content,
    flags: {
      [MODULE]: {
        ruleset: flag.ruleset,
        action,
        events: r.events,
        seed: seed ?? null,
        combat: combat.id,
        names: Object.fromEntries([...combat.combatants].map((c) => [c.id, c.name])),
      },
    },
  };
  if (rolls.length) {
    data.rolls = rolls;
    data.sound = CONFIG.sounds?.dice;
  }
  const out = withRollMode(data, rollMode, user);
  // An action some viewers may not see all of (a World Trigger move in Stealth):
  // only the GMs and the players who may see it get the message.
  const hidden = flag.log.at(-1)?.hidden;
  if (hidden && !out.whisper?.length) {
    const viewers = viewersOf(flag.ruleset, flag.state);
    out.whisper = game.users
      .filter((u) => {
        if (u.isGM) return true;
        const v = opViewer(flag.ruleset, viewerOf(combat, flag, u));
        return viewers.includes(v) && !(v in hidden);
      })
      .map((u) => u.id);
  }
  // the pinned types (13.340.1) do not declare the documented Document.create on ChatMessage
  await /** @type {any} */ (ChatMessage).create(out);
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
function term(ruleset, group, key) {
  const core = gunbaiLoaded ? coreLabels(gunbaiLoaded, ruleset).get(key) : undefined;
  if (core) return core[labelKey()] ?? core.en;
  return Lk(`GUNBAI.${group}.${key}`, key.replace(/_/g, " "));
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
    .filter(([k, v]) => k !== "type" && v !== null && v !== undefined && !(Array.isArray(v) && !v.length) && !(who && v === who && ["actor", "character", "combatant", "reactor"].includes(k)))
    .map(([k, v]) => {
      const sq = (/** @type {any} */ p) => (p && typeof p.x === "number" ? `(${p.x}, ${p.y})` : null);
      if (k === "path" && Array.isArray(v)) return squares ? `→ ${sq(v[v.length - 1]) ?? "?"}` : "";
      if (sq(v)) return squares ? sq(v) : "";
      if (typeof v === "string" && ids.has(v)) return nameOf(combat, v);
      if (typeof v === "string") return term(flag.ruleset, "Value", v);
      if (typeof v === "boolean") return v ? term(flag.ruleset, "Value", k) : "";
      if (v && typeof v === "object" && typeof v.action === "string") return term(flag.ruleset, "Value", v.action);
      if (typeof v === "object") return `${k}: ${JSON.stringify(v)}`;
      return `${k}: ${v}`;
    })
    .filter(Boolean);
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
export function eventsText(events, combat) {
  return (events || [])
    .map((e) => {
      const kind = e.event ?? e.type ?? "?";
      const who = e.actor ?? e.character ?? e.combatant ?? e.member ?? null;
      const label = Lk(`GUNBAI.Event.${kind}`, kind.replace(/_/g, " "));
      const round = e.round !== undefined ? ` ${e.round}` : "";
      // FAP/MAP events name their action in four languages
      const own = e.names ?? e.label;
      const named = own && typeof own === "object" && typeof own.en === "string" ? ` (${own[labelKey()] ?? own.en})` : "";
      return `${who ? `${nameOf(combat, who)}: ` : ""}${label}${named}${round}`;
    })
    .join("; ");
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
  const title = f.action ? actionLabel(names, /** @type {EngineFlag} */ ({ ruleset: f.ruleset, state: null, seq: 0, log: [] }), f.action) : L("GUNBAI.Combat.Started");
  const head = box.querySelector(".gunbai-command");
  if (head) head.textContent = `${Lk(`GUNBAI.Ruleset.${f.ruleset}`, f.ruleset)} · ${title}`;
  const text = box.querySelector(".gunbai-text");
  if (text) text.textContent = eventsText(f.events ?? [], names);
  const dice = box.querySelector(".gunbai-dice");
  if (dice?.firstChild?.nodeType === 3) dice.firstChild.textContent = `${L("GUNBAI.DiceOnly")}: `;
}

// ---------- the socket ----------

/** Requests this client sent and awaits an answer for. */
const pending = new Map();
let nextRequest = 1;

/**
 * Take an action from this client: the GM applies it; a player sends it to the
 * active GM's client through the socket and waits for the answer.
 * @param {Combat.Implementation} combat
 * @param {Record<string, any>} action
 */
export async function requestAction(combat, action) {
  if (game.user?.isGM) return applyAction(combat, action);
  const id = `${game.user?.id}-${nextRequest++}`;
  const answer = new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    setTimeout(() => {
      if (pending.delete(id)) reject(new Error(L("GUNBAI.Combat.NoGm")));
    }, 10000);
  });
  game.socket?.emit(SOCKET, { type: "act", id, combat: combat.id, action, user: game.user?.id, rollMode: currentRollMode() });
  return answer;
}

/**
 * A socket message: the active GM's client executes `act` requests (checking who
 * asks and what); a requester's client takes the answer.
 * @param {any} msg
 */
export async function onSocket(msg) {
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "answer") {
    if (msg.to !== game.user?.id) return;
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else if (msg.code in REFUSALS) p.reject(coded(msg.code, msg.detail ?? ""));
    else p.reject(new Error(msg.error));
    return;
  }
  if (msg.type !== "act") return;
  // Only the active GM executes (one GM even when several are logged in).
  if (!game.user?.isGM || game.users.activeGM?.id !== game.user.id) return;
  const user = game.users.get(msg.user);
  const reply = (/** @type {Record<string, any>} */ a) => game.socket?.emit(SOCKET, { type: "answer", id: msg.id, to: msg.user, ...a });
  try {
    if (!user) throw new Error(`unknown user ${msg.user}`);
    const combat = /** @type {Combat.Implementation | undefined} */ (game.combats.get(msg.combat));
    if (!combat) throw new Error(`unknown combat ${msg.combat}`);
    const modes = ["publicroll", "gmroll", "blindroll", "selfroll"];
    const r = await applyAction(combat, msg.action, { user, rollMode: modes.includes(msg.rollMode) ? msg.rollMode : "publicroll" });
    // the requester is sent the events as their view has them (WT-ST-1)
    const flag = engineOf(combat);
    const events = flag ? viewFor(await gunbaiReady, flag.ruleset, flag.state, user.isGM ? null : viewerOf(combat, flag, /** @type {User.Implementation} */ (user)), r.events).events ?? [] : [];
    reply({ ok: true, result: { events } });
  } catch (e) {
    const err = /** @type {Error & {code?: string, detail?: string}} */ (e);
    reply({ ok: false, code: err.code ?? null, detail: err.detail ?? null, error: err.message });
  }
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
      const flag = engineOf(self);
      if (!flag) return super.rollInitiative(ids, options);
      ui.notifications?.info(L("GUNBAI.Combat.InitiativeFromEngine"));
      if (game.user?.isGM) await syncCombat(self, flag);
      return this;
    }

    /** With an engine running, rounds and turns are the engine's: Foundry's buttons only say so. */
    async nextRound() {
      if (!engineOf(/** @type {any} */ (this))) return super.nextRound();
      ui.notifications?.info(L("GUNBAI.Combat.RoundFromEngine"));
      return this;
    }
    async previousRound() {
      if (!engineOf(/** @type {any} */ (this))) return super.previousRound();
      ui.notifications?.info(L("GUNBAI.Combat.RoundFromEngine"));
      return this;
    }
    async nextTurn() {
      if (!engineOf(/** @type {any} */ (this))) return super.nextTurn();
      ui.notifications?.info(L("GUNBAI.Combat.RoundFromEngine"));
      return this;
    }
    async previousTurn() {
      if (!engineOf(/** @type {any} */ (this))) return super.previousTurn();
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
      const flag = engineOf(this.combat);
      if (!flag) return super.getInitiativeRoll(formula);
      const order = orderOf(flag.ruleset, flag.state);
      const i = order.indexOf(this.id);
      return new Roll(String(i < 0 ? 0 : order.length - i));
    }
  };
}

// ---------- the tracker panel ----------

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
  const flag = engineOf(combat);
  if (!flag) {
    panel.dataset.state = "idle";
    panel.innerHTML = gm
      ? `<label>${esc(L("GUNBAI.Combat.Ruleset"))} <select data-gunbai="ruleset">${RULESETS.map(
          (r) => `<option value="${r}">${esc(Lk(`GUNBAI.Ruleset.${r}`, r))}</option>`,
        ).join("")}</select></label> <button type="button" data-gunbai="start">${esc(L("GUNBAI.Combat.Start"))}</button>`
      : `<p class="gunbai-note">${esc(L("GUNBAI.Combat.WaitingForGm"))}</p>`;
  } else {
    const gunbai = await gunbaiReady;
    const viewer = gm ? null : viewerOf(combat, flag, game.user);
    const state = viewFor(gunbai, flag.ruleset, flag.state, viewer).state;
    const opv = viewer ? opViewer(flag.ruleset, viewer) : null;
    const viewers = viewersOf(flag.ruleset, flag.state);
    const info = roundInfo(flag.ruleset, state);
    const actions = await actionsFor(combat);
    panel.dataset.state = "running";
    panel.dataset.ruleset = flag.ruleset;
    panel.dataset.seq = String(flag.seq);
    const rows = orderOf(flag.ruleset, state)
      .map((id) => {
        const c = combat.combatants.get(id);
        const mine = !!c?.actor?.testUserPermission(game.user, "OWNER") && !gm;
        const nums = combatantNumbers(flag.ruleset, state, id)
          .map(([k, v]) => `<span class="gunbai-num" data-key="${esc(k)}">${esc(Lk(`GUNBAI.Num.${k}`, k))} ${esc(v)}</span>`)
          .join(" ");
        return `<li data-combatant="${esc(id)}" class="${info.current === id ? "current" : ""}${mine ? " mine" : ""}"><b>${esc(nameOf(combat, id))}</b> ${nums}</li>`;
      })
      .join("");
    const button = (/** @type {{action: Record<string, any>, label: string, cost: string}} */ a, /** @type {number} */ i) =>
          `<button type="button" data-gunbai="act" data-index="${i}" data-type="${esc(a.action.type)}" data-actor="${esc(actorOf(a.action) ?? a.action.team ?? "")}">${esc(a.label)}${
            a.cost ? ` <small>${esc(a.cost)}</small>` : ""
          }</button>`;
    const tableActions = (/** @type {Record<string, any>} */ a) => !!whoMay(flag.ruleset, a).gm;
    const buttons = actions.map((a, i) => (tableActions(a.action) ? "" : button(a, i))).join("");
    const gmButtons = actions.map((a, i) => (tableActions(a.action) ? button(a, i) : "")).join("");
    const teams = teamRows(flag.ruleset, state)
      .map(
        (t) =>
          `<tr data-team="${esc(t.team)}"><th>${esc(t.team)}</th>${t.cells
            .map(([k, v]) => `<td data-key="${esc(k)}">${esc(Lk(`GUNBAI.Num.${k}`, k))} ${esc(v)}</td>`)
            .join("")}</tr>`,
      )
      .join("");
    const log = flag.log
      .slice(-6)
      .map((l) => {
        const seen = entryFor(l, opv, viewers);
        return `<li>${esc(`${l.action ? actionLabel(combat, flag, l.action, { squares: !seen.secret }) : L("GUNBAI.Combat.Started")} → ${eventsText(seen.events, combat)}`)}</li>`;
      })
      .join("");
    panel.innerHTML =
      `<div class="gunbai-phase" data-round="${info.round}" data-phase="${esc(info.phase ?? "")}">${esc(Lk(`GUNBAI.Ruleset.${flag.ruleset}`, flag.ruleset))} · ${esc(
        L("GUNBAI.Round"),
      )} ${esc(info.round)}${info.phase ? ` · ${esc(Lk(`GUNBAI.PhaseName.${info.phase}`, info.phase))}` : ""}</div>` +
      (teams ? `<table class="gunbai-teams">${teams}</table>` : "") +
      `<ol class="gunbai-order">${rows}</ol>` +
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
