// gunbai for Foundry VTT (v12, v13): chat commands for every system, Rolls that
// carry gunbai's faces with honest totals, and combat for the five rulesets
// driven by gunbai's engines (combat.mjs).
// Only documented API: Hooks, game.settings, game.socket, ChatMessage.create/
// getSpeaker/getWhisperRecipients/applyRollMode, Roll.fromData,
// CONFIG.Combat/Combatant.documentClass, CONFIG.Dice.terms, Combat#setFlag/
// getFlag/updateEmbeddedDocuments/createEmbeddedDocuments, ui.notifications,
// game.i18n.
import { resultRolls, rollFaceLabels, registerDice } from "./dice.mjs";
import * as combat from "./combat.mjs";

const MODULE = "gunbai";
// The package is imported lazily so that the hooks below are registered at once;
// the wasm is compiled while Foundry is still loading.
const gunbaiReady = import("../vendor/gunbai/index.js");
combat.setPackage(gunbaiReady);

/** Chat prefixes → gunbai system (null = plain dice). `/gb` uses the world setting. */
export const COMMANDS = {
  "/wt": "world_trigger",
  "/coc": "coc7",
  "/coc6": "coc6",
  "/tmd": "tmd",
  "/fap": "fap_map",
  "/dice": null,
};

const escapeHtml = (/** @type {unknown} */ s) =>
  String(s).replace(/[&<>"']/g, (c) => /** @type {Record<string, string>} */ ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** Foundry's language → gunbai's `lang`. */
function gunbaiLang() {
  const setting = game.settings.get(MODULE, "lang");
  if (setting && setting !== "auto") return setting;
  const l = (game.i18n?.lang || "en").toLowerCase();
  if (l.startsWith("ja")) return "ja";
  if (l === "zh-tw" || l === "zh-hant") return "zh-Hant";
  if (l === "cn" || l.startsWith("zh")) return "zh-Hans";
  return "en";
}

/**
 * Run one command through gunbai. Uses `command.run` when the package has it;
 * otherwise (a build without the chat-command module) plain dice expressions
 * go to `dice.roll` and anything else is reported as unavailable.
 * Returns `{matched, text, total, rolls, secret, success, critical, fumble, result}`.
 */
/**
 * @param {string} text
 * @param {{system?: string | null, lang?: string, seed?: number, rolls?: any[]}} [opts]
 * @returns {Promise<any>}
 */
export async function runCommand(text, { system = null, lang, seed, rolls } = {}) {
  const gunbai = await gunbaiReady;
  /** @type {Record<string, any>} */
  const extra = {};
  if (seed !== undefined && seed !== null) extra.seed = seed;
  if (rolls) extra.rolls = rolls;
  if (gunbai.command && typeof gunbai.command.run === "function") {
    const r = gunbai.command.run({ text, system: /** @type {any} */ (system), lang: lang || gunbaiLang(), ...extra });
    return { ...r, result: r };
  }
  if (system === null) {
    const r = gunbai.dice.roll({ expr: text.trim(), ...extra });
    return { matched: true, text: `${text.trim()} → ${r.total}`, total: r.total, rolls: r.rolls, secret: false, result: r };
  }
  // GunbaiError takes the error record (index.js); its .d.ts declares only Error's constructor
  throw new (/** @type {any} */ (gunbai.GunbaiError))({
    code: "not_implemented",
    message: `command.run is not in this build of gunbai; only /dice works (system ${system})`,
  });
}

/**
 * Post a gunbai result as a chat message in the user's chat roll mode, with Rolls
 * carrying its faces (one Roll per run of a repeated command). The message has
 * its own content (Foundry then does not render the Rolls' HTML), so the content
 * shows the dice as rolled and the rule's result; the Rolls are for Dice So Nice
 * and for modules that read `roll.total` (honest: see dice.mjs). An `S` command
 * (`out.secret`) is whispered to the GMs at least (a blind or self roll mode stays).
 * @param {any} out
 * @param {{command?: string, system?: string | null, rollMode?: string}} [opts]
 */
export async function postResult(out, { command, system, rollMode } = {}) {
  const rolls = resultRolls(out);
  const faces = out.rolls?.length
    ? `<div class="gunbai-dice">${rollFaceLabels(out.rolls)
        .map((f) => `<span class="gunbai-die d${f.sides}">${escapeHtml(f.label)}</span>`)
        .join(" ")}</div>`
    : "";
  /** @type {Record<string, any>} */
  const data = {
    speaker: ChatMessage.getSpeaker(),
    content: `<div class="gunbai-result${out.success === true ? " success" : out.success === false ? " failure" : ""}">
      <div class="gunbai-command">${escapeHtml(command ?? "")}</div>
      <div class="gunbai-text">${escapeHtml(out.text ?? "")}</div>${faces}</div>`,
    flags: { [MODULE]: { system, command, result: out.result ?? out } },
  };
  let mode = rollMode ?? combat.currentRollMode();
  if (out.secret && (mode === "publicroll" || mode === "roll")) mode = "gmroll";
  // Only the users the roll mode entitles receive the roll and its result (an S
  // command: the GMs and the roller); see combat.postTo.
  // (A chat command is rolled on its roller's client: a blind roll is hidden from the
  // other players, and from the roller's chat log, not from the roller's own client.)
  if (mode === "blindroll") data.blind = true;
  return combat.postTo(data, rolls, combat.audienceOf(mode, game.user), game.user?.id ?? "");
}

/** `/wt 2D6>=5`, `/gb …` etc.: returns false (handled) or undefined (not ours). */
/**
 * @param {unknown} _chatLog
 * @param {string} message
 * @param {unknown} _chatData
 */
function onChatMessage(_chatLog, message, _chatData) {
  const m = /^(\/[a-z0-9]+)(?:\s+([\s\S]*))?$/i.exec(message.trim());
  if (!m) return undefined;
  const prefix = m[1].toLowerCase();
  let system;
  if (prefix === "/gb") {
    const s = game.settings.get(MODULE, "system");
    system = s === "dice" ? null : s;
  } else if (prefix in COMMANDS) system = /** @type {Record<string, string | null>} */ (COMMANDS)[prefix];
  else return undefined;
  const text = (m[2] || "").trim();
  if (!text) {
    ui.notifications?.info(`gunbai: ${prefix} <command>`);
    return false;
  }
  runCommand(text, { system })
    .then((out) => {
      if (!out.matched) {
        ui.notifications?.warn(`gunbai: not a ${system ?? "dice"} command: ${text}`);
        return null;
      }
      if (out.parse_error) {
        // A malformed command: tell the sender only, where it went wrong.
        ui.notifications?.warn(`gunbai: ${out.text}`);
        return null;
      }
      return postResult(out, { command: `${prefix} ${text}`, system });
    })
    .catch((e) => {
      ui.notifications?.error(`gunbai: ${e.code ? `${e.code}: ` : ""}${e.message}`);
    });
  return false;
}

// ---------- registration ----------

/** @param {any} app @param {any} html */
function onRenderCombatTracker(app, html) {
  const root = html instanceof HTMLElement ? html : html?.[0];
  const c = app?.viewed ?? game.combat;
  if (!root || !c) return;
  combat.renderPanel(root, c).catch((e) => console.error("gunbai:", e));
}

Hooks.once("init", () => {
  game.settings.register(MODULE, "system", {
    name: "GUNBAI.Settings.System",
    hint: "GUNBAI.Settings.SystemHint",
    scope: "world",
    config: true,
    type: String,
    choices: { world_trigger: "World Trigger", coc7: "CoC 7th", coc6: "CoC 6th", tmd: "TMD", fap_map: "FAP/MAP", dice: "Dice" },
    default: "world_trigger",
  });
  game.settings.register(MODULE, "lang", {
    name: "GUNBAI.Settings.Lang",
    scope: "client",
    config: true,
    type: String,
    choices: { auto: "Foundry", ja: "日本語", "zh-Hant": "繁體中文", "zh-Hans": "简体中文", en: "English" },
    default: "auto",
  });
  registerDice();
  // Initiative through Foundry's documents: the engine's, never a die.
  CONFIG.Combat.documentClass = combat.combatClass(CONFIG.Combat.documentClass);
  CONFIG.Combatant.documentClass = combat.combatantClass(CONFIG.Combatant.documentClass);
  const mod = game.modules.get(MODULE);
  if (mod)
    mod.api = {
      runCommand,
      postResult,
      ready: gunbaiReady,
      COMMANDS,
      startEngine: combat.startEngine,
      importSheet: combat.importSheet,
      openSheetImport: combat.openSheetImport,
      stopEngine: combat.stopEngine,
      applyAction: combat.applyAction,
      requestAction: combat.requestAction,
      actionsFor: combat.actionsFor,
      engineOf: combat.engineOf,
      viewOf: combat.viewOf,
      requestIndex: combat.requestIndex,
      viewFor: async (/** @type {string} */ ruleset, /** @type {any} */ state, /** @type {any} */ viewer, /** @type {any[] | undefined} */ events) =>
        combat.viewFor(await gunbaiReady, ruleset, state, viewer, events),
    };
});

// Players' requests are chat messages Foundry's server vouches for (their author):
// the active GM's client applies them (combat.onChatMessage).
Hooks.on("createChatMessage", (/** @type {any} */ msg) => {
  combat.onChatMessage(msg).catch((e) => console.error("gunbai request:", e));
});
// A player's view (a JournalEntry only that player observes) changed: re-render, and
// settle the request it answers.
const onJournal = (/** @type {any} */ doc) => {
  const of = doc?.flags?.[MODULE];
  if (!of?.viewOf && !of?.store) return;
  if (game.combat) combat.takeAnswer(game.combat);
  ui.combat?.render?.();
};
Hooks.on("createJournalEntry", onJournal);
Hooks.on("updateJournalEntry", onJournal);

Hooks.on("chatMessage", onChatMessage);
// Action messages in each client's own language: v13's renderChatMessageHTML
// (an HTMLElement), v12's renderChatMessage (jQuery).
Hooks.on("renderChatMessageHTML", (/** @type {any} */ msg, /** @type {HTMLElement} */ html) => {
  combat.hideRequest(msg, html);
  combat.relabelMessage(msg, html);
});
Hooks.on("renderChatMessage", (/** @type {any} */ msg, /** @type {any} */ html) => {
  if ((game.release?.generation ?? 12) >= 13) return;
  const el = html instanceof HTMLElement ? html : html?.[0];
  combat.hideRequest(msg, el);
  combat.relabelMessage(msg, el);
});
Hooks.on("renderCombatTracker", onRenderCombatTracker);
// The character-sheet site's file, imported into an actor from its sheet's header (the
// owner or a GM): v13 ActorSheetV2 header controls, v12 header buttons.
Hooks.on("getHeaderControlsActorSheetV2", (app, controls) => {
  const actor = /** @type {any} */ (app).document;
  if (!actor?.isOwner) return;
  // (the v13 types give the hook one entry; Foundry passes the list of entries)
  /** @type {any[]} */ (/** @type {unknown} */ (controls)).push({ icon: "fa-solid fa-file-import", label: "GUNBAI.Sheet.Import", action: "gunbaiSheetImport", onClick: () => combat.openSheetImport(actor) });
});
// (v12's hook: the v13 types type it as a render hook, so it is called through `any`)
/** @type {any} */ (Hooks).on("getActorSheetHeaderButtons", (/** @type {any} */ app, /** @type {any[]} */ buttons) => {
  if (!app.document?.isOwner) return;
  buttons.unshift({ label: game.i18n.localize("GUNBAI.Sheet.Import"), class: "gunbai-sheet-import", icon: "fas fa-file-import", onclick: () => combat.openSheetImport(app.document) });
});
// a deleted combat leaves no JournalEntry of its engine record or its players' views
Hooks.on("deleteCombat", (/** @type {any} */ c) => {
  combat.forgetCombat(c).catch((e) => ui.notifications?.error(`gunbai: ${e.message}`));
});
Hooks.on("updateCombat", (/** @type {any} */ c, /** @type {any} */ changed) => {
  if (changed?.flags?.[MODULE] || "round" in (changed ?? {})) ui.combat?.render?.();
});
