// gunbai for Foundry VTT (v12, v13): chat commands for every system, Rolls that
// carry gunbai's faces, World Trigger team initiative, phase and team budget.
// Only documented API: Hooks, game.settings, ChatMessage.create/getSpeaker/
// getWhisperRecipients, Roll.fromData, Combat#updateEmbeddedDocuments,
// Document#setFlag/getFlag, ui.notifications, game.i18n.
import { resultRolls, toRoll } from "./dice.mjs";
import * as wtc from "./wt-combat.mjs";

const MODULE = "gunbai";
// The package is imported lazily so that the hooks below are registered at once;
// the wasm is compiled while Foundry is still loading.
const gunbaiReady = import("../vendor/gunbai/index.js");

/** Chat prefixes → gunbai system (null = plain dice). `/gb` uses the world setting. */
export const COMMANDS = {
  "/wt": "world_trigger",
  "/coc": "coc7",
  "/coc6": "coc6",
  "/tmd": "tmd",
  "/fap": "fap_map",
  "/dice": null,
};

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

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
export async function runCommand(text, { system = null, lang, seed, rolls } = {}) {
  const gunbai = await gunbaiReady;
  const extra = {};
  if (seed !== undefined && seed !== null) extra.seed = seed;
  if (rolls) extra.rolls = rolls;
  if (gunbai.command && typeof gunbai.command.run === "function") {
    const r = gunbai.command.run({ text, system, lang: lang || gunbaiLang(), ...extra });
    return { ...r, result: r };
  }
  if (system === null) {
    const r = gunbai.dice.roll({ expr: text.trim(), ...extra });
    return { matched: true, text: `${text.trim()} → ${r.total}`, total: r.total, rolls: r.rolls, secret: false, result: r };
  }
  throw new gunbai.GunbaiError({
    code: "not_implemented",
    message: `command.run is not in this build of gunbai; only /dice works (system ${system})`,
  });
}

/**
 * Post a gunbai result as a chat message with Rolls carrying its faces: the dice as
 * rolled (one Roll per run of a repeated command); what the rule made of them
 * (achievement, shifted table row, ...) is the message text, not a Roll term.
 */
export async function postResult(out, { command, system } = {}) {
  const rolls = resultRolls(out);
  const data = {
    speaker: ChatMessage.getSpeaker(),
    content: `<div class="gunbai-result${out.success === true ? " success" : out.success === false ? " failure" : ""}">
      <div class="gunbai-command">${escapeHtml(command ?? "")}</div>
      <div class="gunbai-text">${escapeHtml(out.text ?? "")}</div></div>`,
    flags: { [MODULE]: { system, command, result: out.result ?? out } },
  };
  if (rolls.length) {
    data.rolls = rolls;
    data.sound = CONFIG.sounds?.dice;
  }
  if (out.secret) data.whisper = ChatMessage.getWhisperRecipients("GM").map((u) => u.id);
  return ChatMessage.create(data);
}

/** `/wt 2D6>=5`, `/gb …` etc.: returns false (handled) or undefined (not ours). */
function onChatMessage(_chatLog, message, _chatData) {
  const m = /^(\/[a-z0-9]+)(?:\s+([\s\S]*))?$/i.exec(message.trim());
  if (!m) return undefined;
  const prefix = m[1].toLowerCase();
  let system;
  if (prefix === "/gb") {
    const s = game.settings.get(MODULE, "system");
    system = s === "dice" ? null : s;
  } else if (prefix in COMMANDS) system = COMMANDS[prefix];
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

// ---------- World Trigger combat ----------

function wtState(combat) {
  return combat?.getFlag?.(MODULE, "wt") ?? null;
}

/**
 * Roll World Trigger team initiative for a combat (WT-INIT-1..3): each team's
 * leader rolls Command; every combatant of a team gets the team's result.
 */
export async function rollTeamInitiative(combat = game.combat, { seed, round } = {}) {
  if (!combat) throw new Error("no active combat");
  const gunbai = await gunbaiReady;
  const combatants = [...combat.combatants];
  const ordered = wtc.rollTeamInitiative(gunbai, combatants, { seed });
  const updates = [];
  for (const t of ordered) for (const m of t.members) updates.push({ _id: m.combatant.id, initiative: t.initiative });
  await combat.updateEmbeddedDocuments("Combatant", updates);
  const sizes = {};
  for (const t of wtc.teams(gunbai, combatants)) sizes[t.team] = t.members.filter((m) => !m.combatant.isDefeated).length;
  const state = wtc.newRoundState(round ?? (combat.round || 1), ordered.map((t) => t.team), sizes);
  state.results = ordered.map((t) => ({ team: t.team, roller: t.roller.combatant.name, command: t.roller.command, achievements: t.keys }));
  await combat.setFlag(MODULE, "wt", state);
  // one Roll per Command check (a team's re-rolls are checks of their own)
  const checkRolls = ordered.flatMap((t) => t.checks.filter((c) => c.rolls?.length).map((c) => toRoll(c.rolls, null, { flavor: t.team })));
  const lines = ordered
    .map(
      (t) =>
        `<li data-team="${escapeHtml(t.team)}">${escapeHtml(t.team)} — ${escapeHtml(t.roller.combatant.name)} ` +
        `(${game.i18n.localize("GUNBAI.Command")} ${t.roller.command}): ${t.checks
          .map((c) => `[${c.faces.join(",")}] → ${c.achievement}`)
          .join(" / ")}</li>`,
    )
    .join("");
  await ChatMessage.create({
    speaker: ChatMessage.getSpeaker(),
    content: `<div class="gunbai-result"><div class="gunbai-command">${escapeHtml(game.i18n.localize("GUNBAI.TeamInitiative"))}</div><ol class="gunbai-init">${lines}</ol></div>`,
    rolls: checkRolls,
    sound: CONFIG.sounds?.dice,
    flags: { [MODULE]: { system: "world_trigger", initiative: state.results } },
  });
  return ordered;
}

/** Advance the World Trigger phase (initiative → tactics → movement → attack → feedback). */
export async function nextPhase(combat = game.combat) {
  const s = wtState(combat);
  if (!s) throw new Error("roll team initiative first");
  const next = wtc.nextPhase(s);
  await combat.setFlag(MODULE, "wt", next);
  return next;
}

/** Spend one team action in the current phase (or the operator's action). */
export async function spendAction(team, { operator = false, combat = game.combat } = {}) {
  const next = wtc.spend(wtState(combat), team, { operator });
  await combat.setFlag(MODULE, "wt", next);
  return next;
}

/** The panel shown at the top of the combat tracker. */
export function trackerPanel(state) {
  const L = (k) => game.i18n.localize(k);
  const div = document.createElement("section");
  div.className = "gunbai-wt-panel";
  if (!state) {
    div.innerHTML = `<button type="button" data-gunbai="initiative">${escapeHtml(L("GUNBAI.TeamInitiative"))}</button>`;
    return div;
  }
  const order = wtc.phaseOrder(state);
  const rows = order
    .map((team) => {
      const b = state.budget[team];
      const inPhase = wtc.BUDGET_PHASES.includes(state.phase);
      const left = inPhase ? b.slots - b.used[state.phase] : "—";
      return `<tr data-team="${escapeHtml(team)}"><th>${escapeHtml(team)}</th>
        <td class="left">${left}${inPhase ? ` / ${b.slots}` : ""}</td>
        <td class="operator">${b.operator}</td>
        <td><button type="button" data-gunbai="spend" data-team="${escapeHtml(team)}" ${inPhase && left > 0 ? "" : "disabled"}>−1</button>
            <button type="button" data-gunbai="operator" data-team="${escapeHtml(team)}" ${b.operator > 0 ? "" : "disabled"}>${escapeHtml(L("GUNBAI.Operator"))}</button></td></tr>`;
    })
    .join("");
  div.innerHTML = `<div class="gunbai-phase" data-phase="${state.phase}">${escapeHtml(L("GUNBAI.Round"))} ${state.round} · ${escapeHtml(
    L(`GUNBAI.Phase.${state.phase}`),
  )}${state.phase === "movement" ? ` (${escapeHtml(L("GUNBAI.Reversed"))})` : ""}</div>
    <table class="gunbai-budget"><tr><th>${escapeHtml(L("GUNBAI.Team"))}</th><th>${escapeHtml(L("GUNBAI.ActionsLeft"))}</th><th>${escapeHtml(
      L("GUNBAI.Operator"),
    )}</th><th></th></tr>${rows}</table>
    <div class="gunbai-buttons"><button type="button" data-gunbai="initiative">${escapeHtml(L("GUNBAI.TeamInitiative"))}</button>
    <button type="button" data-gunbai="next-phase">${escapeHtml(L("GUNBAI.NextPhase"))}</button></div>`;
  return div;
}

function onRenderCombatTracker(_app, html) {
  const root = html instanceof HTMLElement ? html : html?.[0];
  if (!root || !game.combat) return;
  root.querySelector(".gunbai-wt-panel")?.remove();
  const panel = trackerPanel(wtState(game.combat));
  const anchor = root.querySelector("#combat-tracker, .combat-tracker, ol") || root.firstElementChild;
  if (anchor?.parentElement) anchor.parentElement.insertBefore(panel, anchor);
  else root.prepend(panel);
  panel.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-gunbai]");
    if (!b) return;
    const act = {
      initiative: () => rollTeamInitiative(),
      "next-phase": () => nextPhase(),
      spend: () => spendAction(b.dataset.team),
      operator: () => spendAction(b.dataset.team, { operator: true }),
    }[b.dataset.gunbai];
    act?.().catch((e) => ui.notifications?.warn(`gunbai: ${e.message}`));
  });
}

// ---------- registration ----------

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
  game.settings.register(MODULE, "autoInitiative", {
    name: "GUNBAI.Settings.AutoInitiative",
    scope: "world",
    config: true,
    type: Boolean,
    default: true,
  });
  const mod = game.modules.get(MODULE);
  if (mod) mod.api = { runCommand, postResult, rollTeamInitiative, nextPhase, spendAction, ready: gunbaiReady, COMMANDS };
});

Hooks.on("chatMessage", onChatMessage);
Hooks.on("renderCombatTracker", onRenderCombatTracker);
// WT-INIT-3: initiative is rolled every round.
// The hook fires before the update is saved: the new round is in updateData.
Hooks.on("combatRound", (combat, updateData) => {
  if (!game.user?.isGM || !game.settings.get(MODULE, "autoInitiative") || !wtState(combat)) return;
  Promise.resolve().then(() => rollTeamInitiative(combat, { round: updateData?.round })).catch((e) => ui.notifications?.warn(`gunbai: ${e.message}`));
});
Hooks.on("updateCombat", (combat, changed) => {
  if (changed?.flags?.[MODULE]) ui.combat?.render?.();
});
