// gunbai encounter — an Owlbear Rodeo extension (popover page). It runs a TMD
// encounter for the tokens on the scene's CHARACTER layer with gunbai's
// `tmd.encounter_new / encounter_legal_actions / encounter_act`, keeps the
// serializable state in the scene's metadata (so every player sees the same
// encounter and it survives reloads), and shows the phase, whose turn it is and
// each character's remaining AP.
//
// Bare imports: Vite resolves them in a real build; the test page maps them with
// an import map to gunbai's `inline` entry and to a stand-in for the SDK.
import OBR from "@owlbear-rodeo/sdk";
import * as gunbai from "gunbai";

/** Scene-metadata key (namespaced, as the SDK asks). */
export const KEY = "io.github.gunbai/encounter";
/** Owlbear Rodeo keeps at most 16 kB of metadata per scene. */
const METADATA_LIMIT = 16 * 1024;

const $ = (s) => document.querySelector(s);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const UI = {
  en: { title: "gunbai encounter", system: "System", tmd: "TMD encounter", wt: "World Trigger battle", wtMissing: "World Trigger battle: needs gunbai's battle engine (world_trigger.battle_*), not in this build", tokens: "Tokens on the scene", side: "Side", init: "Base initiative", start: "Start encounter", reset: "End and clear", round: "Round", phase: "Phase", turn: "Turn", nobody: "—", ap: "AP", base: "base", extra: "extra", reflex: "reflex-only", held: "held", actions: "Legal actions", log: "Log", noTokens: "No tokens on the CHARACTER layer.", gmOnly: "Only the GM can change the encounter.", outOfTurn: "Out of turn", gmTools: "GM tools" },
  ja: { title: "gunbai エンカウンター", system: "システム", tmd: "TMD 戦闘", wt: "ワールドトリガー戦闘", wtMissing: "ワールドトリガー戦闘：gunbai の戦闘エンジン（world_trigger.battle_*）が必要です（このビルドには未搭載）", tokens: "シーン上のトークン", side: "陣営", init: "基礎先攻値", start: "戦闘開始", reset: "終了して消去", round: "ラウンド", phase: "フェイズ", turn: "手番", nobody: "—", ap: "AP", base: "基本", extra: "追加", reflex: "反応専用", held: "保持", actions: "実行できる行動", log: "ログ", noTokens: "CHARACTER レイヤーにトークンがありません。", gmOnly: "GM だけが操作できます。", outOfTurn: "手番外", gmTools: "GM 用" },
  "zh-Hant": { title: "gunbai 遭遇戰", system: "系統", tmd: "TMD 戰鬥", wt: "境界觸發者 戰鬥", wtMissing: "境界觸發者戰鬥：需要 gunbai 的戰鬥引擎（world_trigger.battle_*），此版本尚未包含", tokens: "場景中的標記", side: "陣營", init: "基礎先攻值", start: "開始戰鬥", reset: "結束並清除", round: "輪", phase: "階段", turn: "行動者", nobody: "—", ap: "AP", base: "基礎", extra: "額外", reflex: "僅反應", held: "持有", actions: "可執行的動作", log: "紀錄", noTokens: "CHARACTER 圖層上沒有標記。", gmOnly: "只有 GM 可以操作。", outOfTurn: "回合外", gmTools: "GM 工具" },
  "zh-Hans": { title: "gunbai 遭遇战", system: "系统", tmd: "TMD 战斗", wt: "境界触发者 战斗", wtMissing: "境界触发者战斗：需要 gunbai 的战斗引擎（world_trigger.battle_*），此版本尚未包含", tokens: "场景中的标记", side: "阵营", init: "基础先攻值", start: "开始战斗", reset: "结束并清除", round: "轮", phase: "阶段", turn: "行动者", nobody: "—", ap: "AP", base: "基础", extra: "额外", reflex: "仅反应", held: "持有", actions: "可执行的动作", log: "记录", noTokens: "CHARACTER 图层上没有标记。", gmOnly: "只有 GM 可以操作。", outOfTurn: "回合外", gmTools: "GM 工具" },
};
const PHASES = {
  en: { surprise: "Surprise round", delays: "Delay declarations", turns: "Turns", ended: "Ended" },
  ja: { surprise: "奇襲ラウンド", delays: "遅延宣言", turns: "手番", ended: "終了" },
  "zh-Hant": { surprise: "突襲輪", delays: "延遲宣告", turns: "行動", ended: "結束" },
  "zh-Hans": { surprise: "突袭轮", delays: "延迟宣告", turns: "行动", ended: "结束" },
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
const labelKey = { ja: "ja", "zh-Hant": "zh_hant", "zh-Hans": "zh_hans", en: "en" }[lang];

let tokens = [];
let saved = null; // { system, state, names, log }
let isGM = false;
const setup = {}; // token id -> {side, base_initiative}, before the encounter starts

const hasWtBattle = !!(gunbai.worldTrigger && gunbai.worldTrigger.battleNew);
const actionLabels = (() => {
  try {
    const out = {};
    for (const a of gunbai.tmd.actionTypes({}).action_types) out[a.action_type] = a.labels?.[labelKey] || a.labels?.en || a.action_type;
    return out;
  } catch {
    return {};
  }
})();

async function loadTokens() {
  const items = await OBR.scene.items.getItems((item) => item.layer === "CHARACTER");
  tokens = items.map((i) => ({ id: i.id, name: i.name || i.text?.plainText || i.id, meta: i.metadata?.[KEY] || {} }));
  for (const tk of tokens) {
    if (!setup[tk.id]) setup[tk.id] = { side: tk.meta.side || "A", base_initiative: Number(tk.meta.base_initiative ?? 0) };
  }
}

async function save(next) {
  const json = JSON.stringify(next);
  if (json.length > METADATA_LIMIT - 512) {
    OBR.notification.show(`gunbai: the encounter state is ${json.length} bytes; Owlbear keeps 16 kB per scene`, "ERROR");
    throw new Error("state too large for scene metadata");
  }
  await OBR.scene.setMetadata({ [KEY]: next });
}

function nameOf(id) {
  return saved?.names?.[id] ?? tokens.find((x) => x.id === id)?.name ?? id;
}

/** A short label for a TMD action as `encounter_act` takes it. */
function describe(action, cost) {
  const who = action.character ? `${nameOf(action.character)}: ` : "";
  const type = action.action_type ? ` ${actionLabels[action.action_type] || action.action_type}` : "";
  const extra = action.count ? ` ×${action.count}` : action.after ? ` → ${nameOf(action.after)}` : "";
  const c = cost && (cost.ap || cost.actions?.length) ? ` (${cost.ap ? `${cost.ap} AP` : ""}${cost.actions?.length ? ` ${cost.actions.map((a) => actionLabels[a] || a).join("+")}` : ""})` : "";
  return `${who}${action.kind}${type}${extra}${c}`;
}

function eventText(e) {
  const n = (id) => esc(nameOf(id));
  switch (e.event) {
    case "turn_started":
      return `${n(e.character)} — ${esc(t("turn"))} (AP ${e.base_ap}+${e.extra_ap})`;
    case "round_started":
      return `${esc(t("round"))} ${e.round}`;
    case "initiative_rolled":
      return `initiative: ${(e.entries || []).map((x) => `${n(x.id)} ${x.total}`).join(", ")}`;
    case "turn_order_set":
      return `order: ${(e.turns || []).map(n).join(" → ")}`;
    default: {
      // Any other event: its name and fields, ids shown as token names.
      const parts = Object.entries(e)
        .filter(([k]) => k !== "event")
        .map(([k, v]) => `${esc(k)}=${typeof v === "string" && (saved?.names?.[v] || tokens.some((x) => x.id === v)) ? n(v) : esc(JSON.stringify(v))}`);
      return `${esc(e.event)}${parts.length ? ` ${parts.join(" ")}` : ""}`;
    }
  }
}

function render() {
  $("#title").textContent = t("title");
  const sys = $("#system");
  sys.innerHTML = `<option value="tmd">${esc(t("tmd"))}</option><option value="world_trigger" ${hasWtBattle ? "" : "disabled"}>${esc(t("wt"))}</option>`;
  $("#wt-note").textContent = hasWtBattle ? "" : t("wtMissing");
  const st = saved?.state;
  $("#setup").hidden = !!st;
  $("#encounter").hidden = !st;
  if (!st) {
    const rows = tokens
      .map(
        (tk) => `<tr data-token="${esc(tk.id)}"><td>${esc(tk.name)}</td>
        <td><input class="side" value="${esc(setup[tk.id].side)}" size="4"></td>
        <td><input class="init" type="number" value="${setup[tk.id].base_initiative}" min="-1000" max="1000"></td></tr>`,
      )
      .join("");
    $("#tokens").innerHTML = tokens.length
      ? `<table><tr><th></th><th>${esc(t("side"))}</th><th>${esc(t("init"))}</th></tr>${rows}</table>`
      : `<p>${esc(t("noTokens"))}</p>`;
    $("#start").textContent = t("start");
    $("#start").disabled = !tokens.length || !isGM;
    return;
  }
  $("#phase").dataset.phase = st.phase;
  $("#phase").textContent = `${t("round")} ${st.round} · ${PHASES[lang][st.phase] ?? st.phase}`;
  $("#turn").dataset.current = st.current ?? "";
  $("#turn").textContent = `${t("turn")}: ${st.current ? nameOf(st.current) : t("nobody")}`;
  const order = st.order.length ? st.order : st.characters.map((c) => c.id);
  const byId = Object.fromEntries(st.characters.map((c) => [c.id, c]));
  $("#order").innerHTML = `<tr><th></th><th>${esc(t("side"))}</th><th>${esc(t("ap"))} ${esc(t("base"))}</th><th>${esc(t("extra"))}</th><th>${esc(t("reflex"))}</th><th>${esc(t("held"))}</th></tr>${order
    .map((id) => {
      const c = byId[id];
      if (!c) return "";
      const held = Object.entries(c.held || {})
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${esc(actionLabels[k] || k)}×${v}`)
        .join(" ");
      return `<tr data-character="${esc(id)}" class="${id === st.current ? "current" : ""}${c.turn_done ? " done" : ""}">
        <td>${esc(nameOf(id))} <small>${esc(c.initiative ?? "")}</small></td><td>${esc(c.side)}</td>
        <td class="base-ap">${c.base_ap}</td><td class="extra-ap">${c.extra_ap}</td><td>${c.reflex_only_ap}</td><td>${held}</td></tr>`;
    })
    .join("")}`;
  let legal = [];
  try {
    legal = gunbai.tmd.encounterLegalActions({ state: st }).actions;
  } catch (e) {
    $("#error").textContent = `${e.code}: ${e.message}`;
  }
  $("#actions-title").textContent = t("actions");
  // The acting character's actions first; out-of-turn and GM tools folded away.
  const GM_KINDS = new Set(["overdraw", "grant", "set_disabled", "teleport", "leave", "scene_change", "end_encounter", "remove_effect"]);
  const groups = { now: [], others: [], gm: [] };
  legal.forEach((a, i) => {
    const g = GM_KINDS.has(a.action.kind) ? "gm" : !a.action.character || a.action.character === st.current ? "now" : "others";
    groups[g].push(
      `<button type="button" data-i="${i}" data-kind="${esc(a.action.kind)}" ${isGM ? "" : "disabled"}>${esc(describe(a.action, a.cost))}</button>`,
    );
  });
  $("#actions").innerHTML =
    `<div class="now">${groups.now.join("")}</div>` +
    (groups.others.length ? `<details><summary>${esc(t("outOfTurn"))} (${groups.others.length})</summary>${groups.others.join("")}</details>` : "") +
    (groups.gm.length ? `<details><summary>${esc(t("gmTools"))} (${groups.gm.length})</summary>${groups.gm.join("")}</details>` : "");
  $("#actions").onclick = (ev) => {
    const b = ev.target.closest("button[data-i]");
    if (b) act(legal[Number(b.dataset.i)].action);
  };
  $("#log-title").textContent = t("log");
  $("#log").innerHTML = (saved.log || []).slice(-12).map((l) => `<li>${l}</li>`).join("");
  $("#reset").textContent = t("reset");
  $("#reset").disabled = !isGM;
  $("#gm-note").textContent = isGM ? "" : t("gmOnly");
}

async function start() {
  const characters = tokens.map((tk) => {
    const row = document.querySelector(`tr[data-token="${CSS.escape(tk.id)}"]`);
    const side = row?.querySelector(".side").value.trim() || "A";
    const base = Number(row?.querySelector(".init").value || 0);
    setup[tk.id] = { side, base_initiative: base };
    return { id: tk.id, side, base_initiative: base };
  });
  try {
    const r = gunbai.tmd.encounterNew({ characters });
    const names = Object.fromEntries(tokens.map((tk) => [tk.id, tk.name]));
    saved = { system: "tmd", state: r.state, names, log: [] };
    saved.log = r.events.map(eventText);
    await save(saved);
  } catch (e) {
    $("#error").textContent = `${e.code || "error"}: ${e.message}`;
  }
  render();
}

/** Apply one action with gunbai; an illegal action leaves the stored state untouched. */
async function act(action) {
  $("#error").textContent = "";
  try {
    const r = gunbai.tmd.encounterAct({ state: saved.state, action });
    const next = { ...saved, state: r.state, log: [...(saved.log || []), ...r.events.map(eventText)].slice(-40) };
    await save(next);
    saved = next;
  } catch (e) {
    $("#error").textContent = `${e.code || "error"}${e.rule ? ` [${e.rule}]` : ""}: ${e.message}`;
  }
  render();
}

async function reset() {
  await OBR.scene.setMetadata({ [KEY]: undefined });
  saved = null;
  render();
}

async function init() {
  isGM = (await OBR.player.getRole()) === "GM";
  const meta = await OBR.scene.getMetadata();
  saved = meta[KEY] || null;
  await loadTokens();
  render();
  OBR.scene.onMetadataChange((m) => {
    saved = m[KEY] || null;
    render();
  });
  OBR.scene.items.onChange(async () => {
    await loadTokens();
    render();
  });
  $("#start").onclick = start;
  $("#reset").onclick = reset;
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
