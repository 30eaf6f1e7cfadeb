// gunbai encounter — an Owlbear Rodeo extension (popover page). For the tokens
// on the scene's CHARACTER layer it runs either a TMD encounter (gunbai's
// `tmd.Encounter` game handle) or a World Trigger battle (`worldTrigger.Battle`,
// in wt.js), held live in the page (live.js). The serializable state is kept,
// compressed, in the scene's metadata (store.js), so every player sees the same
// encounter and it survives reloads; only the GM acts (and can undo).
//
// Bare imports: Vite resolves them in a real build; the test page maps them with
// an import map to gunbai's `inline` entry and to a stand-in for the SDK.
import OBR from "@owlbear-rodeo/sdk";
import * as gunbai from "gunbai";
import { KEY, METADATA_LIMIT, encode, decode, entrySize } from "./store.js";
import { createWorldTrigger } from "./wt.js";
import { S as WT_S } from "./wt-i18n.js";
import { createTmdText } from "./tmd-i18n.js";
import { renderGmForm } from "./tmd-gm.js";
import { LiveGame } from "./live.js";

export { KEY };

const $ = (s) => document.querySelector(s);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const UI = {
  en: { title: "gunbai encounter", system: "System", tmd: "TMD encounter", wt: "World Trigger battle", tokens: "Tokens on the scene", side: "Side", init: "Base initiative", start: "Start encounter", reset: "End and clear", undo: "Undo last action", round: "Round", phase: "Phase", turn: "Turn", nobody: "—", ap: "AP", base: "base", extra: "extra", reflex: "out-of-turn only", held: "converted", actions: "Legal actions", log: "Log", noTokens: "No tokens on the CHARACTER layer.", gmOnly: "Only the GM can change the encounter.", outOfTurn: "Out of turn", gmTools: "GM tools", seed: "seed" },
  ja: { title: "gunbai エンカウンター", system: "システム", tmd: "TMD 戦闘", wt: "ワールドトリガー戦闘", tokens: "シーン上のトークン", side: "陣営", init: "基本イニシアチブ値", start: "戦闘開始", reset: "終了して消去", undo: "直前の行動を取り消す", round: "ラウンド", phase: "フェイズ", turn: "手番", nobody: "—", ap: "AP", base: "基本", extra: "追加", reflex: "手番外専用", held: "変換済み", actions: "実行できる行動", log: "ログ", noTokens: "CHARACTER レイヤーにトークンがありません。", gmOnly: "GM だけが操作できます。", outOfTurn: "手番外", gmTools: "GM 用", seed: "シード" },
  "zh-Hant": { title: "gunbai 遭遇戰", system: "系統", tmd: "TMD 戰鬥", wt: "境界觸發者 戰鬥", tokens: "場景中的標記", side: "陣營", init: "基礎先攻值", start: "開始戰鬥", reset: "結束並清除", undo: "撤銷上一個動作", round: "輪", phase: "階段", turn: "行動者", nobody: "—", ap: "AP", base: "基礎", extra: "額外", reflex: "僅回合外", held: "已轉化", actions: "可執行的動作", log: "紀錄", noTokens: "CHARACTER 圖層上沒有標記。", gmOnly: "只有 GM 可以操作。", outOfTurn: "回合外", gmTools: "GM 工具", seed: "種子" },
  "zh-Hans": { title: "gunbai 遭遇战", system: "系统", tmd: "TMD 战斗", wt: "境界触发者 战斗", tokens: "场景中的标记", side: "阵营", init: "基础先攻值", start: "开始战斗", reset: "结束并清除", undo: "撤销上一个动作", round: "轮", phase: "阶段", turn: "行动者", nobody: "—", ap: "AP", base: "基础", extra: "额外", reflex: "仅回合外", held: "已转化", actions: "可执行的动作", log: "记录", noTokens: "CHARACTER 图层上没有标记。", gmOnly: "只有 GM 可以操作。", outOfTurn: "回合外", gmTools: "GM 工具", seed: "种子" },
};
const lang = (() => {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && UI[q]) return q;
  const n = (navigator.language || "en").toLowerCase();
  if (n.startsWith("ja")) return "ja";
  if (n === "zh-tw" || n === "zh-hk" || n.startsWith("zh-hant")) return "zh-Hant";
  if (n.startsWith("zh")) return "zh-Hans";
  return "en";
})();
const t = (k) => UI[lang][k] ?? UI.en[k];
const colon = lang === "en" ? ": " : "：";
/** The TMD log keeps the last LOG_MAX actions, each with the events it produced. */
const LOG_MAX = 40;

let tokens = [];
let saved = null; // the decoded record: { system, state, names, log, … }
let sceneMeta = {}; // the scene metadata as last seen (for the 16 kB budget)
let isGM = false;
let busy = false; // an action is being applied and saved
let chosenSystem = "tmd"; // the system picked for the next encounter
let gmKind = null; // the kind chosen in the TMD "other GM action" form
const grid = { dpi: 150, type: "SQUARE" };
const setup = {}; // token id -> {side, base_initiative}, before the encounter starts
const live = new LiveGame(); // the game handle holding the stored state (live.js)

const hasWtBattle = !!gunbai.worldTrigger?.Battle;
// TMD texts in the page's language (tmd-i18n.js); action-type names from the core's catalogue.
const tmdText = createTmdText({
  lang,
  actionTypes: (() => {
    try {
      return gunbai.tmd.actionTypes({}).action_types;
    } catch {
      return [];
    }
  })(),
  name: (id) => nameOf(id),
  state: () => saved?.state ?? null,
});

function showError(e) {
  $("#error").dataset.code = e?.code || "error";
  $("#error").textContent = `${e?.code || "error"}${e?.rule ? ` [${e.rule}]` : ""}: ${e?.message ?? e}`;
}
function clearError() {
  $("#error").dataset.code = "";
  $("#error").textContent = "";
}

const wt = createWorldTrigger({ gunbai, OBR, lang, $, esc, grid, live, tokens: () => tokens, save, showError, clearError, render: () => render() });

async function loadTokens() {
  const items = await OBR.scene.items.getItems((item) => item.layer === "CHARACTER");
  tokens = items.map((i) => ({ id: i.id, name: i.name || i.text?.plainText || i.id, position: i.position, meta: i.metadata?.[KEY] || {} }));
  for (const tk of tokens) {
    if (!setup[tk.id]) setup[tk.id] = { side: tk.meta.side || "A", base_initiative: Number(tk.meta.base_initiative ?? 0) };
  }
}

/**
 * Store a record in the scene metadata, compressed (store.js). The oldest log
 * entries are dropped while it does not fit; if even the state alone does not
 * fit in what the scene has left of its 16 kB, nothing is saved, a notification
 * says so, and false is returned (the stored encounter stays as it was).
 */
async function save(next) {
  const others = Object.entries(sceneMeta)
    .filter(([k]) => k !== KEY)
    .reduce((n, [k, v]) => n + entrySize(k, v), 0);
  const room = METADATA_LIMIT - others;
  let rec = next;
  let value = await encode(rec);
  while (entrySize(KEY, value) > room && rec.log?.length > 1) {
    rec = { ...rec, log: rec.log.slice(Math.ceil(rec.log.length / 2)) };
    value = await encode(rec);
  }
  const size = entrySize(KEY, value);
  if (size > room) {
    const msg = wtText("tooLarge").replace("{n}", size);
    OBR.notification.show(msg, "ERROR");
    $("#error").dataset.code = "too_large";
    $("#error").textContent = msg;
    return false;
  }
  await OBR.scene.setMetadata({ [KEY]: value });
  sceneMeta = { ...sceneMeta, [KEY]: value };
  saved = rec;
  return true;
}
function wtText(k) {
  return WT_S[k]?.[lang] ?? WT_S[k]?.en ?? k;
}

function nameOf(id) {
  return saved?.names?.[id] ?? tokens.find((x) => x.id === id)?.name ?? id;
}

/** A TMD action as `encounter_act` takes it, as a sentence with its cost. */
function describe(action, cost) {
  const c = tmdText.costText(action, cost);
  return `${tmdText.describe(action)}${c ? (lang === "en" ? ` (${c})` : `（${c}）`) : ""}`;
}

/** A logged TMD action; one logged by an earlier build (tagged `kind`, before the core tagged actions `type`) in today's form. */
function loggedAction(a) {
  if (!a || a.type !== undefined || typeof a.kind !== "string") return a;
  const { kind, ...rest } = a;
  return { type: kind, ...rest };
}

/** The TMD log: each action (a bold line) and the events it produced, in the viewer's language. */
function renderTmdLog(log) {
  const ol = $("#log");
  ol.textContent = "";
  for (const entry of log || []) {
    const li = document.createElement("li");
    if (typeof entry === "string") {
      // A line stored as escaped HTML text by earlier builds: shown as plain text.
      li.textContent = new DOMParser().parseFromString(entry, "text/html").body.textContent;
      ol.append(li);
      continue;
    }
    // The action (null: the encounter's start, `encounter_new`).
    const action = loggedAction(entry.action);
    const head = document.createElement("div");
    head.className = "act";
    head.dataset.kind = action?.type ?? "";
    head.textContent = action ? tmdText.describe(action) : t("start");
    if (entry.seed != null) {
      const s = document.createElement("small");
      s.textContent = ` ${t("seed")} ${entry.seed}`;
      head.append(s);
    }
    li.append(head);
    for (const e of entry.events || []) {
      const d = document.createElement("div");
      d.className = `ev ev-${e.event}${tmdText.knownEvent(e.event) ? "" : " ev-unknown"}`;
      d.textContent = tmdText.eventText(e);
      li.append(d);
    }
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function render() {
  document.documentElement.lang = lang;
  $("#title").textContent = t("title");
  const running = saved?.state ? saved.system : null;
  const system = running || chosenSystem;
  const sys = $("#system");
  sys.innerHTML = `<option value="tmd">${esc(t("tmd"))}</option><option value="world_trigger" ${hasWtBattle ? "" : "disabled"}>${esc(t("wt"))}</option>`;
  sys.value = system;
  sys.disabled = !!running;
  $("#system-label").textContent = t("system");
  $("#setup").hidden = !!running;
  $("#encounter").hidden = !running;
  document.body.dataset.system = system;
  for (const el of document.querySelectorAll("[data-for]")) el.hidden = el.dataset.for !== system;
  $("#gm-note").textContent = isGM ? "" : t("gmOnly");
  $("#reset").textContent = t("reset");
  $("#reset").disabled = !isGM;
  $("#undo").textContent = t("undo");
  $("#actions-title").textContent = t("actions");
  $("#log-title").textContent = t("log");
  if (!running) {
    live.free();
    $("#undo").disabled = true;
    if (!tokens.length) $("#tokens").innerHTML = `<p>${esc(t("noTokens"))}</p>`;
    else if (system === "world_trigger") wt.renderSetup(tokens);
    else renderTmdSetup();
    $("#start").textContent = system === "world_trigger" ? wtText("startBattle") : t("start");
    $("#start").disabled = !tokens.length || !isGM;
    return;
  }
  if (running === "world_trigger") wt.render(saved, isGM);
  else renderTmd(saved.state);
  // (after rendering: the handle now holds the stored state, or was rebuilt from it)
  const depth = live.undoDepth;
  $("#undo").dataset.depth = String(depth);
  $("#undo").disabled = !isGM || depth === 0;
}

function renderTmdSetup() {
  const rows = tokens
    .map(
      (tk) => `<tr data-token="${esc(tk.id)}"><td>${esc(tk.name)}</td>
      <td><input class="side" value="${esc(setup[tk.id].side)}" size="4"></td>
      <td><input class="init" type="number" value="${setup[tk.id].base_initiative}" min="-1000" max="1000"></td></tr>`,
    )
    .join("");
  $("#tokens").innerHTML = `<table><tr><th></th><th>${esc(t("side"))}</th><th>${esc(t("init"))}</th></tr>${rows}</table>`;
  for (const row of document.querySelectorAll("#tokens tr[data-token]")) {
    const s = setup[row.dataset.token];
    row.querySelector(".side").onchange = (ev) => (s.side = ev.target.value.trim() || "A");
    row.querySelector(".init").onchange = (ev) => (s.base_initiative = Number(ev.target.value || 0));
  }
}

function renderTmd(st) {
  $("#phase").dataset.phase = st.phase;
  $("#phase").textContent = st.phase === "surprise" ? tmdText.phase(st.phase) : `${tmdText.roundN(st.round)} · ${tmdText.phase(st.phase)}`;
  $("#turn").dataset.current = st.current ?? "";
  $("#turn").textContent = `${t("turn")}${colon}${st.current ? nameOf(st.current) : t("nobody")}`;
  const order = st.order.length ? st.order : st.characters.map((c) => c.id);
  const byId = Object.fromEntries(st.characters.map((c) => [c.id, c]));
  $("#order").innerHTML = `<tr><th></th><th>${esc(t("side"))}</th><th>${esc(t("ap"))} ${esc(t("base"))}</th><th>${esc(t("extra"))}</th><th>${esc(t("reflex"))}</th><th>${esc(t("held"))}</th></tr>${order
    .map((id) => {
      const c = byId[id];
      if (!c) return "";
      const held = Object.entries(c.held || {})
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${esc(tmdText.typeLabel(k))}×${v}`)
        .join(" ");
      return `<tr data-character="${esc(id)}" class="${id === st.current ? "current" : ""}${c.turn_done ? " done" : ""}">
        <td>${esc(nameOf(id))} <small>${esc(c.initiative ?? "")}</small></td><td>${esc(c.side)}</td>
        <td class="base-ap">${c.base_ap}</td><td class="extra-ap">${c.extra_ap}</td><td>${c.reflex_only_ap}</td><td>${held}</td></tr>`;
    })
    .join("")}`;
  let legal = [];
  try {
    legal = live.for(gunbai.tmd.Encounter, st).legalActions();
  } catch (e) {
    showError(e);
  }
  // The acting character's actions first; out-of-turn and GM tools folded away.
  const GM_KINDS = new Set(["overdraw", "grant", "set_disabled", "teleport", "leave", "scene_change", "end_encounter", "remove_effect"]);
  const groups = { now: [], others: [], gm: [] };
  legal.forEach((a, i) => {
    const g = GM_KINDS.has(a.action.type) ? "gm" : !a.action.character || a.action.character === st.current ? "now" : "others";
    groups[g].push(
      `<button type="button" data-i="${i}" data-kind="${esc(a.action.type)}" ${isGM ? "" : "disabled"}>${esc(describe(a.action, a.cost))}</button>`,
    );
  });
  $("#actions").innerHTML =
    `<div class="now">${groups.now.join("")}</div>` +
    (groups.others.length ? `<details><summary>${esc(t("outOfTurn"))} (${groups.others.length})</summary>${groups.others.join("")}</details>` : "") +
    (groups.gm.length ? `<details><summary>${esc(t("gmTools"))} (${groups.gm.length})</summary>${groups.gm.join("")}</details>` : "");
  $("#actions").onclick = (ev) => {
    const b = ev.target.closest("button[data-i]");
    if (b && !b.disabled) act(legal[Number(b.dataset.i)].action);
  };
  const gm = $("#tmd-gm");
  gm.hidden = !isGM || st.phase === "ended";
  if (!gm.hidden) {
    renderGmForm(gm, {
      lang, state: st, tokens, text: tmdText, nameOf, esc, enabled: isGM, kind: gmKind,
      onKind: (k) => (gmKind = k),
      onAct: (action, names) => act(action, names),
    });
  }
  renderTmdLog(saved.log);
}

async function start() {
  if (busy) return;
  busy = true;
  clearError();
  try {
    if (chosenSystem === "world_trigger") await wt.start(tokens);
    else {
      const characters = tokens.map((tk) => ({ id: tk.id, side: setup[tk.id].side, base_initiative: setup[tk.id].base_initiative }));
      const seed = newSeed();
      const h = gunbai.tmd.Encounter.create({ characters, seed });
      const state = live.adopt(gunbai.tmd.Encounter, h);
      const names = Object.fromEntries(tokens.map((tk) => [tk.id, tk.name]));
      await save({ system: "tmd", state, names, log: [{ action: null, seed, events: h.created.events }] });
    }
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
  }
  render();
}

/** A fresh seed (0 ≤ seed < 2^32) stored with each step, so every step of the log can be replayed. */
const newSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

/**
 * Apply one TMD action to the live encounter with a fresh seed and store the
 * new state; an illegal action, or a state that cannot be saved, leaves the
 * stored state (and the handle) as they were. `names`: display names of
 * joining tokens.
 */
async function act(action, names = {}) {
  if (busy) return;
  busy = true;
  clearError();
  try {
    const seed = newSeed();
    const r = live.act(gunbai.tmd.Encounter, saved.state, action, { seed });
    const log = [...(saved.log || []), { action, seed, events: r.events }].slice(-LOG_MAX);
    let stored = false;
    try {
      stored = await save({ ...saved, names: { ...saved.names, ...names }, state: r.state, log });
    } finally {
      if (!stored) live.undo();
    }
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
  }
  render();
}

/**
 * Take back the last action this page applied (the handle's undo, up to 100
 * since the handle was last built from the stored state) and store the state
 * before it; the log drops that action's entry.
 */
async function undo() {
  if (!saved?.state || live.undoDepth === 0) return;
  if (saved.system === "world_trigger") return wt.undo();
  if (busy) return;
  busy = true;
  clearError();
  try {
    const state = live.undo();
    const log = saved.log || [];
    await save({ ...saved, state, log: log.at(-1)?.action ? log.slice(0, -1) : log });
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
  }
  render();
}

async function reset() {
  await OBR.scene.setMetadata({ [KEY]: undefined });
  const { [KEY]: _, ...rest } = sceneMeta;
  sceneMeta = rest;
  saved = null;
  render();
}

/** Decode the record of a metadata snapshot; a later snapshot wins over a slower earlier decode. */
let readSeq = 0;
async function readRecord(meta) {
  const seq = ++readSeq;
  let rec = null;
  try {
    rec = await decode(meta[KEY]);
  } catch (e) {
    showError(e);
  }
  if (seq !== readSeq) return;
  sceneMeta = meta;
  saved = rec;
  render();
}

async function readGrid() {
  try {
    grid.dpi = (await OBR.scene.grid.getDpi()) || grid.dpi;
    grid.type = (await OBR.scene.grid.getType()) || grid.type;
  } catch {
    /* keep the defaults (150 dpi, square) */
  }
}

async function init() {
  isGM = (await OBR.player.getRole()) === "GM";
  await readGrid();
  await loadTokens();
  await readRecord(await OBR.scene.getMetadata());
  if (saved?.system) chosenSystem = saved.system;
  OBR.scene.onMetadataChange((m) => readRecord(m));
  OBR.scene.items.onChange(async () => {
    await loadTokens();
    render();
  });
  OBR.scene.grid.onChange?.((g) => {
    grid.dpi = g.dpi;
    grid.type = g.type;
    render();
  });
  OBR.player.onChange?.((p) => {
    if (p.role && (p.role === "GM") !== isGM) {
      isGM = p.role === "GM";
      render();
    }
  });
  $("#system").onchange = (ev) => {
    chosenSystem = ev.target.value;
    clearError();
    render();
  };
  $("#start").onclick = start;
  $("#reset").onclick = reset;
  $("#undo").onclick = undo;
  document.body.dataset.ready = "1";
}

OBR.onReady(async () => {
  if (await OBR.scene.isReady()) await init();
  else {
    const off = OBR.scene.onReadyChange(async (ready) => {
      if (ready) {
        off();
        await init();
      }
    });
  }
});
