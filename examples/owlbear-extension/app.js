// gunbai encounter — an Owlbear Rodeo extension (popover page). For the
// combatant tokens of the scene (added from a token's context menu, see
// background.js) it runs one of gunbai's five rulesets through its native game
// handle: a World Trigger battle (`worldTrigger.Battle`, wt.js), a TMD
// encounter (`tmd.Encounter`), a CoC 6th edition action-point round
// (`cocAp.Round`), CoC 7th edition house combat (`coc7House.Round`) or a
// FAP/MAP round (`fapMap.Round`, round.js). The handle lives in the GM's page
// (live.js); the serializable state is kept, compressed and sealed for the GM,
// in the scene's metadata (store.js), so it survives reloads.
//
// Who acts: the GM on anything; a player on the combatants of their own tokens
// (the token's `createdUserId`, or the `owner` assigned in its metadata) when
// the GM allows it (the "players act" setting). A player's click is sent to the
// GM's client as a request (OBR.broadcast) naming the action by its index in the
// player's own listing; the GM's client checks the sender (its connection id,
// through OBR.party), the ownership and the legality, then applies it.
//
// Secrets: the GM's client keeps the state (the record in the scene metadata is
// sealed for the GM, seal.js); each player receives their view (the core's view,
// their listing, the log and last result as they may see them) sealed for them.
//
// Only the scene's ruleset is loaded: each ruleset's npm entry
// (`gunbai/world-trigger`, `gunbai/tmd`, `gunbai/coc6`, `gunbai/coc7`, `gunbai/fap-map`) is
// imported on demand, so only its wasm is fetched.
import OBR, { buildLabel } from "@owlbear-rodeo/sdk";
import { KEY, METADATA_LIMIT, encode, decode, entrySize } from "./store.js";
import { createWorldTrigger } from "./wt.js";
import { S as WT_S } from "./wt-i18n.js";
import { createTmdText } from "./tmd-i18n.js";
import { renderGmForm } from "./tmd-gm.js";
import { createRoundMode, ROUND_RULESETS } from "./round.js";
import { LiveGame } from "./live.js";
import { viewThrough, turnThrough, entryFor } from "./views.js";
import { KEY_META, myKeys, sharedKey, seal, open } from "./seal.js";
import { SHEET_UI, readSheetFile, metaWithSheet, importedOf } from "./sheets.js";

export { KEY };
/** Scene metadata key of the settings: `{system, players_act}`. */
export const SETTINGS_KEY = "io.github.gunbai/settings";
/** Metadata key on a badge item (a label attached to a combatant's token). */
export const BADGE_KEY = "io.github.gunbai/badge";
/** Broadcast channels: a player's action request, and results / refusals. */
export const REQUEST_CHANNEL = "io.github.gunbai/request";
export const RESULT_CHANNEL = "io.github.gunbai/result";
/** Each player's view, sealed for that player by the GM's client: `{to, sealed}`. */
export const VIEW_CHANNEL = "io.github.gunbai/view";
export const SYSTEMS = ["world_trigger", "tmd", "coc_ap", "coc7_house", "fap_map"];

/** Each ruleset's npm entry, imported only when the scene uses it. */
const ENTRIES = {
  world_trigger: () => import("gunbai/world-trigger"),
  tmd: () => import("gunbai/tmd"),
  coc_ap: () => import("gunbai/coc6"),
  coc7_house: () => import("gunbai/coc7"),
  fap_map: () => import("gunbai/fap-map"),
};

const $ = (s) => document.querySelector(s);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const UI = {
  en: { title: "gunbai encounter", owners: "Players' tokens", creator: "its creator ({who})", system: "System", choose: "Choose a ruleset", tmd: "TMD encounter", world_trigger: "World Trigger battle", coc_ap: "CoC 6th edition (action points)", coc7_house: "CoC 7th edition (house combat)", fap_map: "FAP/MAP battle", tokens: "Tokens on the scene", side: "Side", init: "Base initiative", start: "Start encounter", reset: "End and clear", undo: "Undo last action", round: "Round", phase: "Phase", turn: "Turn", nobody: "—", ap: "AP", base: "base", extra: "extra", reflex: "out-of-turn only", held: "converted", actions: "Legal actions", log: "Log", noTokens: "No combatants yet: right-click a token on the CHARACTER layer and choose “Add to gunbai encounter”.", gmOnly: "Only the GM can change the encounter.", outOfTurn: "Out of turn", gmTools: "GM tools", seed: "seed", playersAct: "Players act on their own tokens", playerNote: "You can act on the combatants of your own tokens.", playerOff: "The GM has not allowed players to act.", last: "Last result", by: "by {who}", sent: "Sent to the GM…", refused: "The GM's client refused the action: {why}", noGm: "No answer from the GM's client (is a GM in the room?)", unavailable: "This page is an Owlbear Rodeo extension. Add its manifest.json in Owlbear Rodeo (Profile → Extensions → Add Custom Extension) and open it from a room: outside Owlbear Rodeo it has no scene to run.", owner: "Player", notInEncounter: "Combatants added or removed while an encounter runs take part in the next one." },
  ja: { title: "gunbai エンカウンター", owners: "プレイヤーのトークン", creator: "作成者（{who}）", system: "システム", choose: "ルールを選ぶ", tmd: "TMD 戦闘", world_trigger: "ワールドトリガー戦闘", coc_ap: "クトゥルフ神話TRPG 第6版（行動力）", coc7_house: "クトゥルフ神話TRPG 第7版（ハウス戦闘）", fap_map: "FAP/MAP 戦闘", tokens: "シーン上のトークン", side: "陣営", init: "基本イニシアチブ値", start: "戦闘開始", reset: "終了して消去", undo: "直前の行動を取り消す", round: "ラウンド", phase: "フェイズ", turn: "手番", nobody: "—", ap: "AP", base: "基本", extra: "追加", reflex: "手番外専用", held: "変換済み", actions: "実行できる行動", log: "ログ", noTokens: "参加者がいません。CHARACTER レイヤーのトークンを右クリックし「gunbai の戦闘に参加」を選んでください。", gmOnly: "GM だけが操作できます。", outOfTurn: "手番外", gmTools: "GM 用", seed: "シード", playersAct: "プレイヤーが自分のトークンで行動できる", playerNote: "自分のトークンのキャラクターで行動できます。", playerOff: "GM がプレイヤーの操作を許可していません。", last: "直前の結果", by: "{who} による", sent: "GM に送信しました…", refused: "GM のクライアントが行動を拒否しました：{why}", noGm: "GM のクライアントから応答がありません（GM はルームにいますか？）", unavailable: "このページは Owlbear Rodeo の拡張機能です。Owlbear Rodeo（プロフィール → Extensions → Add Custom Extension）で manifest.json を追加し、ルームの中で開いてください。Owlbear Rodeo の外では動かすシーンがありません。", owner: "プレイヤー", notInEncounter: "戦闘中に追加・削除した参加者は次の戦闘から加わります。" },
  "zh-Hant": { title: "gunbai 遭遇戰", owners: "玩家的標記", creator: "建立者（{who}）", system: "系統", choose: "選擇規則", tmd: "TMD 戰鬥", world_trigger: "境界觸發者 戰鬥", coc_ap: "克蘇魯的呼喚 第6版（行動點）", coc7_house: "克蘇魯的呼喚 第7版（自訂戰鬥）", fap_map: "FAP/MAP 戰鬥", tokens: "場景中的標記", side: "陣營", init: "基礎先攻值", start: "開始戰鬥", reset: "結束並清除", undo: "撤銷上一個動作", round: "輪", phase: "階段", turn: "行動者", nobody: "—", ap: "AP", base: "基礎", extra: "額外", reflex: "僅回合外", held: "已轉化", actions: "可執行的動作", log: "紀錄", noTokens: "尚無參戰者：在 CHARACTER 圖層的標記上按右鍵，選擇「加入 gunbai 戰鬥」。", gmOnly: "只有 GM 可以操作。", outOfTurn: "回合外", gmTools: "GM 工具", seed: "種子", playersAct: "玩家可操作自己的標記", playerNote: "你可以操作自己標記的角色。", playerOff: "GM 尚未允許玩家操作。", last: "最新結果", by: "由 {who}", sent: "已送交 GM…", refused: "GM 的用戶端拒絕了這個動作：{why}", noGm: "GM 的用戶端沒有回應（GM 在房間中嗎？）", unavailable: "這個頁面是 Owlbear Rodeo 的擴充功能。請在 Owlbear Rodeo（Profile → Extensions → Add Custom Extension）加入它的 manifest.json，並在房間中開啟：在 Owlbear Rodeo 之外沒有可執行的場景。", owner: "玩家", notInEncounter: "戰鬥進行中加入或移除的參戰者，將在下一場戰鬥生效。" },
  "zh-Hans": { title: "gunbai 遭遇战", owners: "玩家的标记", creator: "创建者（{who}）", system: "系统", choose: "选择规则", tmd: "TMD 战斗", world_trigger: "境界触发者 战斗", coc_ap: "克苏鲁的呼唤 第6版（行动点）", coc7_house: "克苏鲁的呼唤 第7版（自订战斗）", fap_map: "FAP/MAP 战斗", tokens: "场景中的标记", side: "阵营", init: "基础先攻值", start: "开始战斗", reset: "结束并清除", undo: "撤销上一个动作", round: "轮", phase: "阶段", turn: "行动者", nobody: "—", ap: "AP", base: "基础", extra: "额外", reflex: "仅回合外", held: "已转化", actions: "可执行的动作", log: "记录", noTokens: "尚无参战者：在 CHARACTER 图层的标记上点右键，选择“加入 gunbai 战斗”。", gmOnly: "只有 GM 可以操作。", outOfTurn: "回合外", gmTools: "GM 工具", seed: "种子", playersAct: "玩家可操作自己的标记", playerNote: "你可以操作自己标记的角色。", playerOff: "GM 尚未允许玩家操作。", last: "最新结果", by: "由 {who}", sent: "已发送给 GM…", refused: "GM 的客户端拒绝了这个动作：{why}", noGm: "GM 的客户端没有回应（GM 在房间中吗？）", unavailable: "这个页面是 Owlbear Rodeo 的扩展。请在 Owlbear Rodeo（Profile → Extensions → Add Custom Extension）添加它的 manifest.json，并在房间中打开：在 Owlbear Rodeo 之外没有可运行的场景。", owner: "玩家", notInEncounter: "战斗进行中加入或移除的参战者，将在下一场战斗生效。" },
};
/** Why the GM's client refused a request (the refusal's `code`). */
const REFUSALS = {
  not_owner: { en: "the combatant is not on one of your tokens", ja: "自分のトークンのキャラクターではありません", "zh-Hant": "這不是你標記上的角色", "zh-Hans": "这不是你标记上的角色" },
  players_off: { en: "players may not act in this scene", ja: "このシーンではプレイヤーは行動できません", "zh-Hant": "這個場景不允許玩家操作", "zh-Hans": "这个场景不允许玩家操作" },
  illegal_action: { en: "the action is not legal now", ja: "その行動は今は実行できません", "zh-Hant": "這個動作現在不合法", "zh-Hans": "这个动作现在不合法" },
  gm_action: { en: "only the GM takes this action", ja: "この行動は GM だけが行えます", "zh-Hant": "只有 GM 能執行這個動作", "zh-Hans": "只有 GM 能执行这个动作" },
  unknown_player: { en: "the sender is not in the room", ja: "送信者がルームにいません", "zh-Hant": "發送者不在房間中", "zh-Hans": "发送者不在房间中" },
  no_encounter: { en: "no encounter is running", ja: "戦闘が行われていません", "zh-Hant": "沒有進行中的戰鬥", "zh-Hans": "没有进行中的战斗" },
  not_applied: { en: "the action could not be applied", ja: "行動を適用できませんでした", "zh-Hant": "無法套用這個動作", "zh-Hans": "无法应用这个动作" },
};

export function pickLang(search = location.search, nav = navigator.language) {
  const q = new URLSearchParams(search).get("lang");
  if (q && UI[q]) return q;
  const n = (nav || "en").toLowerCase();
  if (n.startsWith("ja")) return "ja";
  if (n === "zh-tw" || n === "zh-hk" || n.startsWith("zh-hant")) return "zh-Hant";
  if (n.startsWith("zh")) return "zh-Hans";
  return "en";
}
const lang = pickLang();
const t = (k) => UI[lang][k] ?? UI.en[k];
const fmtUi = (k, v) => t(k).replace(/\{(\w+)\}/g, (_, x) => String(v[x] ?? ""));
const colon = lang === "en" ? ": " : "：";
/** The TMD log keeps the last LOG_MAX actions, each with the events it produced. */
const LOG_MAX = 40;
/** How long a player's page waits for the GM client's answer. */
const REQUEST_TIMEOUT_MS = 8000;

let gunbai = null; // the loaded ruleset entry
let loadedSystem = null;
let tokens = []; // the scene's combatant tokens
let saved = null; // the decoded record: { system, state, names, log, … }
let settings = { system: null, players_act: false };
let sceneMeta = {}; // the scene metadata as last seen (for the 16 kB budget)
let isGM = false;
let playerId = null;
let busy = false; // an action is being applied and saved
let gmKind = null; // the kind chosen in the TMD "other GM action" form
let lastResult = null; // the last broadcast result: {system, by, entry}
let pending = null; // this player's request waiting for the GM: {rid, timer}
let party = []; // the other players in the room (OBR.party)
const grid = { dpi: 150, type: "SQUARE" };
const setup = {}; // token id -> {side, base_initiative} (TMD), before the encounter starts
const live = new LiveGame(); // the game handle holding the stored state (live.js)
let mode = null; // the ruleset's mode object (see modeFor)

function showError(e) {
  $("#error").dataset.code = e?.code || "error";
  $("#error").textContent = `${e?.code || "error"}${e?.rule ? ` [${e.rule}]` : ""}: ${e?.message ?? e}`;
}
function clearError() {
  $("#error").dataset.code = "";
  $("#error").textContent = "";
}
const newSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

// ---- the background page -------------------------------------------------------
//
// Owlbear keeps the background page (manifest `background_url`) loaded while the
// room is open. On a GM's client it runs this page too, on a hidden copy of the
// popover's markup, and acts for the GM's client while the GM's popover is closed:
// it applies players' requests, sends their views and keeps the badges. The popover,
// while open, says so every second on a BroadcastChannel (same browser, same origin)
// and the background page stands by.

/** Whether this is the background page. */
const BACKGROUND = /background\.html$/.test(location.pathname);
const GM_CHANNEL = "io.github.gunbai/gm-popover";
let popoverSeen = 0; // (the background page) when the GM's popover last said it is open
/** Whether this page acts for the GM's client now: the popover; the background page while the popover is closed. */
const inCharge = () => !BACKGROUND || Date.now() - popoverSeen > 2500;

/** The popover says it is open (and, when it goes, that it went); the background page listens. */
function watchPopover() {
  const bc = new BroadcastChannel(GM_CHANNEL);
  if (BACKGROUND) {
    bc.onmessage = (ev) => {
      if (ev.data?.user !== playerId) return;
      popoverSeen = ev.data.open ? Date.now() : 0;
    };
    return;
  }
  const say = (open) => bc.postMessage({ user: playerId, open });
  say(true);
  setInterval(() => say(true), 1000);
  addEventListener("pagehide", () => say(false));
}

/** The background page runs on a hidden copy of the popover's markup. */
async function loadMarkup() {
  const html = await (await fetch(new URL("./index.html", location.href))).text();
  const doc = new DOMParser().parseFromString(html, "text/html");
  const box = document.createElement("div");
  box.hidden = true;
  box.append(...doc.body.children);
  document.body.append(box);
}

// ---- secrets: the GM's client keeps the state, each player gets their view ---

let keys = null; // this client's ECDH key pair (seal.js)
let ownKey = null; // a GM's client: the key of its own pair (the sealed record)
const peerKeys = new Map(); // a public key's JSON -> the key shared with it

/** The key this client shares with the holder of `jwk` (ECDH). */
async function peerKey(jwk) {
  const id = JSON.stringify(jwk);
  if (!peerKeys.has(id)) peerKeys.set(id, await sharedKey(keys.privateKey, jwk));
  return peerKeys.get(id);
}

/** The key the stored record is sealed with: the GM's own pair's. */
async function recordKey() {
  if (!keys) return null;
  ownKey ??= await sharedKey(keys.privateKey, keys.publicJwk);
  return ownKey;
}

/** A log entry as viewer `viewer` may see it: its events and action as the core's view has them. */
function seenEntry(entry, viewer, viewers) {
  if (!entry || typeof entry !== "object") return entry;
  const seen = entryFor(entry, viewer, viewers);
  const { hidden: _all, actions: _actions, ...rest } = entry;
  if (!seen.secret) return { ...rest, events: seen.events };
  // (marked, so that the page shows it as one whose squares are not shown)
  const key = viewer ?? "";
  return { ...rest, action: seen.action, events: seen.events, hidden: { [key]: seen.events }, actions: { [key]: seen.action } };
}

/**
 * What player `pid` receives (the GM's client): the core's view of the stored state
 * for their viewer, the core's listing for that viewer (what it may know; none for a
 * player with no combatant here), the log and the last result as they may see them.
 */
function viewPayload(pid) {
  const st = saved.state;
  const viewer = viewerOfPlayer(pid, st) ?? "";
  const viewers = viewersOf(saved);
  const h = live.for(clsOf(saved), st);
  const view = viewThrough(h, st, viewer, undefined, viewers).state;
  return {
    system: saved.system,
    ...(saved.kind ? { kind: saved.kind } : {}),
    step: saved.step,
    at: atOf(saved),
    state: view,
    names: saved.names,
    ...(saved.weapons ? { weapons: saved.weapons } : {}),
    // the end of the fight (the engine's `outcome()`; a player's page has no handle to ask)
    outcome: h.outcome ?? null,
    log: (saved.log || []).map((e) => seenEntry(e, viewer, viewers)),
    listing: viewers.includes(viewer) ? h.legalActions({ viewer }) : [],
    // whose move it is as this player may know it (the core's turn for their viewer)
    turn: turnThrough(h, viewer, viewers),
    last: lastResult?.entry ? { ...lastResult, entry: seenEntry(lastResult.entry, viewer, viewers) } : null,
  };
}

/** Which stored step a record is at (the seed of its last log entry). */
const atOf = (rec) => String(rec?.log?.at(-1)?.seed ?? "");

/**
 * Send each player (or only `only`) their view, sealed for them (the GM's client,
 * after each stored step, when a player asks or publishes a key).
 */
async function sendViews(only = null) {
  if (!isGM || !inCharge() || !saved?.state || !mode || live.remote) return;
  let players = [];
  try {
    players = await OBR.party.getPlayers();
  } catch {
    return;
  }
  for (const p of players) {
    if (p.role === "GM" || (only && p.id !== only)) continue;
    const jwk = p.metadata?.[KEY_META];
    if (!jwk) continue;
    try {
      const sealed = await seal(await peerKey(jwk), viewPayload(p.id));
      await OBR.broadcast.sendMessage(VIEW_CHANNEL, { to: p.id, sealed }, { destination: "REMOTE" });
    } catch (e) {
      showError(e);
    }
  }
}

/** A view for this player (a player's client): opened with the key shared with the GM who sent it. */
let viewQueue = Promise.resolve();
function onView(msg) {
  viewQueue = viewQueue.then(() => takeView(msg)).catch((e) => showError(e));
}
async function takeView({ data, connectionId }) {
  if (isGM || !data || data.to !== playerId || !keys) return;
  let gm = party.find((p) => p.connectionId === connectionId);
  if (!gm?.metadata?.[KEY_META]) {
    party = await OBR.party.getPlayers();
    gm = party.find((p) => p.connectionId === connectionId);
  }
  if (gm?.role !== "GM" || !gm.metadata?.[KEY_META]) return;
  let v;
  try {
    v = await open(await peerKey(gm.metadata[KEY_META]), data.sealed);
  } catch {
    return; // not sealed for this player by that GM
  }
  await loadSystem(v.system);
  saved = { system: v.system, ...(v.kind ? { kind: v.kind } : {}), step: v.step, state: v.state, names: v.names, ...(v.weapons ? { weapons: v.weapons } : {}), outcome: v.outcome ?? null, log: v.log };
  live.remote = v.listing;
  live.remoteTurn = v.turn ?? null;
  lastResult = v.last;
  render();
}

// ---- who may act ------------------------------------------------------------

/**
 * A token's gunbai metadata (`io.github.gunbai/encounter`): `{combatant?, owner?, side?,
 * stats?, sheet?, …}` (the SDK types metadata values as unknown).
 * @param {{metadata?: Record<string, unknown>} | null | undefined} item
 * @returns {Record<string, any>}
 */
export function metaOf(item) {
  const m = item?.metadata?.[KEY];
  return m && typeof m === "object" ? /** @type {Record<string, any>} */ (m) : {};
}

/**
 * The plain text of a text or label item (Owlbear's `text.plainText`), else "".
 * @param {any} item
 * @returns {string}
 */
const plainText = (item) => (item && typeof item.text === "object" ? String(item.text?.plainText ?? "") : "");

/** The player a token belongs to: an assignment in its metadata (`owner`), else who created it. */
export function ownerOf(item) {
  return metaOf(item).owner ?? item?.createdUserId ?? null;
}

/**
 * Whether a token's owner (a player id) is a GM: this page's user by its own role, any
 * other by its role in the room (OBR.party). An owner not in the room counts as a player.
 */
function ownerIsGm(owner) {
  if (!owner) return false;
  if (owner === playerId) return isGM;
  return party.find((p) => p.id === owner)?.role === "GM";
}

/** The combatant ids an action belongs to; empty for the GM's own actions. */
function actorsOf(action, state) {
  return mode?.actorsOf ? mode.actorsOf(action, state) : [];
}

/** Whether `userId` (a player) may take `action` now: the GM's setting, and every actor on their own token. */
function playerMay(userId, action, state) {
  if (!settings.players_act) return "players_off";
  const actors = actorsOf(action, state);
  if (!actors.length) return "gm_action";
  for (const id of actors) {
    const tk = tokens.find((x) => x.id === id);
    if (!tk || tk.owner !== userId) return "not_owner";
  }
  return null;
}

/** Whether this page's user may click `action` (the GM: always; a player: their own, when allowed). */
function canAct(action) {
  if (busy || pending) return false;
  if (isGM) return true;
  return !!saved?.state && playerMay(playerId, action, saved.state) === null;
}

/** Whether `id` (a combatant) is this page's user's: the GM's any; a player's, on their own token. */
function owns(id) {
  return isGM || tokens.some((tk) => tk.id === id && tk.owner === playerId);
}

/**
 * Everything a player's page shows of an engine state, and of the events of
 * the action that led to it, goes through here: the core's redacted view for
 * that viewer (the live handle's `view(viewer, events)`, the same as the pure
 * `<ns>.<x>View` operation; World Trigger: another team's members in Stealth
 * have no square, WT-ST-1). A player without a combatant here sees only what
 * every viewer may see. The GM (viewer null) sees everything. Returns
 * `{state, events?}`; the view is only shown, never loaded back: listings and
 * legality come from the stored state.
 */
export function viewFor(state, viewer, events) {
  // (a player's client holds only its view, already redacted by the GM's client)
  if (!state || viewer == null || !mode?.Cls || live.remote) return events ? { state, events } : { state };
  const h = live.for(clsOf(saved), state);
  return viewThrough(h, state, viewer, events, viewersOf(saved));
}

/**
 * The engine's turn of a record (its `turn`: who acts, the roster, the viewers): the
 * live handle's on the GM's page, the turn the GM's client sent on a player's page.
 */
function turnOfRecord(rec) {
  if (!rec?.state || !clsOf(rec)) return null;
  return live.for(clsOf(rec), rec.state).turn ?? null;
}

/**
 * Every viewer of a record, as the view operations take them: the engine's turn names
 * them (World Trigger's teams; TMD's characters and sides; the other engines'
 * combatants).
 */
export function viewersOf(rec) {
  return turnOfRecord(rec)?.viewers ?? [];
}

/** The handle class of a record (a CoC 7th edition record may be a chase). */
const clsOf = (rec) => (mode?.clsFor ? mode.clsFor(rec) : mode?.Cls);

/** The viewer a player's page asks the view for: their World Trigger team, else their first combatant. */
function viewerOf(state) {
  if (isGM || !state) return null;
  return viewerOfPlayer(playerId, state);
}

/**
 * The viewer of player `pid` (see viewerOf): of their combatants, the first whose
 * viewer the turn names, read off the turn with no per-ruleset code (the combatant's
 * id where it is a viewer, else its side in the roster: a World Trigger team).
 */
function viewerOfPlayer(pid, state) {
  const mine = tokens.filter((tk) => tk.owner === pid).map((tk) => tk.id);
  if (!mine.length) return "";
  const turn = turnOfRecord(saved && { ...saved, state });
  const viewers = turn?.viewers ?? [];
  const of = (id) => (viewers.includes(id) ? id : turn?.roster?.find((r) => r.id === id)?.side ?? null);
  return mine.map(of).find((v) => v != null && viewers.includes(v)) ?? mine[0];
}

// ---- the modes ---------------------------------------------------------------

/** The mode object of `system` for the loaded entry (created once per load). */
function modeFor(system) {
  if (system === "world_trigger") {
    const wt = createWorldTrigger({ gunbai, OBR, lang, $, esc, grid, live, tokens: () => tokens, save, showError, clearError, render: () => render(), canAct, perform });
    const W = gunbai.worldTrigger;
    return {
      Cls: W.Battle,
      ns: "worldTrigger",
      stem: "battle",
      renderSetup: (tks) => wt.renderSetup(tks),
      start: (tks) => wt.start(tks),
      render: (rec, view, viewer) => wt.render(rec, isGM, view, viewer),
      // A player's request is applied as sent; the GM's own click gets the GM's check modifiers.
      act: (a, opts) => wt.act(a, opts),
      undo: () => wt.undo(),
      describe: (a) => wt.describe(a),
      eventText: (e) => wt.eventText(e),
      actorsOf(a, st) {
        if (a.actor) return [a.actor];
        if (a.team) {
          const tm = st.teams?.find((x) => x.id === a.team);
          return tm ? [tm.leader] : [];
        }
        if (a.type === "no_reaction") {
          // (the GM's client: the whole turn; a player's: the turn the GM's client sent)
          const r = wt.turnOf(live.for(W.Battle, st).turn).reaction_for;
          return r ? [r] : [];
        }
        return [];
      },
      badges(st) {
        // (badges are scene items every client reads: only what every team's turn names)
        const turn = wt.turnOf(turnThrough(live.for(W.Battle, st), "", st.teams.map((/** @type {any} */ tm) => tm.id)));
        const out = {};
        for (const m of st.members) {
          const acting = turn.reaction_for === m.id || (!turn.reaction_for && st.teams[m.team]?.id === turn.acting_team);
          out[m.id] = `${acting ? "▶ " : ""}Trion ${m.trion}/${m.starting_trion}`;
        }
        return out;
      },
    };
  }
  if (system === "tmd") {
    const text = createTmdText({
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
    return {
      Cls: gunbai.tmd.Encounter,
      ns: "tmd",
      stem: "encounter",
      text,
      renderSetup: () => renderTmdSetup(),
      start: (tks) => startTmd(tks),
      render: (rec, view) => renderTmd(rec, view),
      act: (a) => actTmd(a),
      undo: () => undoTmd(),
      describe: (a) => text.describe(a),
      eventText: (e) => text.eventText(e),
      actorsOf: (a) => (!TMD_GM_KINDS.has(a.type) && a.actor ? [a.actor] : []),
      badges(st) {
        return Object.fromEntries(st.characters.map((c) => [c.id, `${c.id === st.current ? "▶ " : ""}AP ${c.base_ap + c.extra_ap}`]));
      },
    };
  }
  const m = createRoundMode({ system, gunbai, lang, $, esc, live, grid, nameOf, weaponsOf: () => saved?.weapons ?? {}, owns, isGM: () => isGM, save, showError, clearError, render: () => render(), canAct, perform, newSeed, renderLog: renderRoundLog });
  m.ns = ROUND_RULESETS[system].ns; // (not a spread: Cls and stem are getters, by the record shown)
  return m;
}

/** Load the entry of `system` (only that ruleset's wasm) and make its mode. */
async function loadSystem(system) {
  if (!system || system === loadedSystem) return;
  live.free();
  const mod = await ENTRIES[system]();
  gunbai = mod;
  loadedSystem = system;
  mode = modeFor(system);
  document.body.dataset.loaded = system;
}

// ---- tokens ------------------------------------------------------------------

async function loadTokens() {
  const items = await OBR.scene.items.getItems((item) => item.layer === "CHARACTER" && metaOf(item).combatant === true);
  tokens = items.map((i) => ({
    id: i.id,
    name: i.name || plainText(i) || i.id,
    position: i.position,
    meta: metaOf(i),
    owner: ownerOf(i),
    createdUserId: i.createdUserId,
    // PC or NPC (CoC 7th's DEX ties, C7H-INIT-2): an NPC is a token its owner plays as the GM
    ownedByGm: ownerIsGm(ownerOf(i)),
  }));
  for (const tk of tokens) {
    if (!setup[tk.id]) setup[tk.id] = { side: tk.meta.side || "A", base_initiative: Number(tk.meta.base_initiative ?? 0) };
  }
}

// ---- the character-sheet site's file ----------------------------------------

const trUi = (/** @type {Record<string, string>} */ e) => e[lang] ?? e.en;
const fmtSheet = (/** @type {Record<string, string>} */ e, /** @type {Record<string, string>} */ v) => trUi(e).replace(/\{(\w+)\}/g, (_, x) => String(v[x] ?? ""));

/** The GM's import box (setup, a ruleset chosen): a token, the file pasted or dropped. */
function renderSheetImport(/** @type {string | null} */ system) {
  const box = /** @type {HTMLDetailsElement} */ ($("#sheet-import"));
  box.hidden = !isGM || !system || !tokens.length || !!saved?.state;
  if (box.hidden) return;
  $("#sheet-import-title").textContent = trUi(SHEET_UI.title);
  $("#sheet-text").placeholder = trUi(SHEET_UI.hint);
  $("#sheet-token-label").textContent = trUi(SHEET_UI.token);
  $("#sheet-go").textContent = trUi(SHEET_UI.import);
  const sel = /** @type {HTMLSelectElement} */ ($("#sheet-token"));
  const cur = sel.value;
  sel.innerHTML = tokens.map((tk) => `<option value="${esc(tk.id)}">${esc(tk.name)}</option>`).join("");
  if (tokens.some((tk) => tk.id === cur)) sel.value = cur;
}

/** Put the file's character on the chosen token (its metadata); the setup then shows it. */
async function importSheetFile() {
  const system = settings.system;
  const msg = $("#sheet-msg");
  const id = /** @type {HTMLSelectElement} */ ($("#sheet-token")).value;
  const text = /** @type {HTMLTextAreaElement} */ ($("#sheet-text")).value;
  const tk = tokens.find((x) => x.id === id);
  if (!system || !tk) return;
  try {
    const doc = readSheetFile(text, system);
    await OBR.scene.items.updateItems([id], (items) => {
      for (const it of items) it.metadata[KEY] = metaWithSheet(metaOf(it), doc);
    });
    msg.textContent = fmtSheet(SHEET_UI.imported, { token: tk.name, name: doc.name });
    msg.dataset.code = "";
    /** @type {HTMLTextAreaElement} */ ($("#sheet-text")).value = "";
  } catch (e) {
    const err = /** @type {any} */ (e);
    msg.dataset.code = err.code ?? "error";
    msg.textContent = err.code === "other_system" ? fmtSheet(SHEET_UI.otherSystem, { system: t(err.system) || err.system, scene: t(system) }) : err.code === "not_sheet" ? trUi(SHEET_UI.notSheet) : String(err.message);
  }
}

function wireSheetImport() {
  const text = /** @type {HTMLTextAreaElement} */ ($("#sheet-text"));
  text.addEventListener("dragover", (e) => e.preventDefault());
  text.addEventListener("drop", async (e) => {
    const f = e.dataTransfer?.files?.[0];
    if (!f) return;
    e.preventDefault();
    text.value = await f.text();
  });
  $("#sheet-go").addEventListener("click", () => {
    importSheetFile().catch(showError);
  });
}

// ---- storing -----------------------------------------------------------------

/**
 * Store a record in the scene metadata, compressed (store.js). The oldest log
 * entries are dropped while it does not fit; if even the state alone does not
 * fit in what the scene has left of its 16 kB, nothing is saved, a notification
 * says so, and false is returned (the stored encounter stays as it was). A new
 * last log entry is broadcast as the last result.
 */
async function save(next, by = playerId) {
  const others = Object.entries(sceneMeta)
    .filter(([k]) => k !== KEY)
    .reduce((n, [k, v]) => n + entrySize(k, v), 0);
  const room = METADATA_LIMIT - others;
  let rec = next;
  const key = await recordKey();
  let value = await encode(rec, key);
  while (entrySize(KEY, value) > room && rec.log?.length > 1) {
    rec = { ...rec, log: rec.log.slice(Math.ceil(rec.log.length / 2)) };
    value = await encode(rec, key);
  }
  const size = entrySize(KEY, value);
  if (size > room) {
    const msg = (WT_S.tooLarge?.[lang] ?? WT_S.tooLarge?.en ?? "too large: {n}").replace("{n}", size);
    OBR.notification.show(msg, "ERROR");
    $("#error").dataset.code = "too_large";
    $("#error").textContent = msg;
    return false;
  }
  const before = JSON.stringify(saved?.log?.at(-1) ?? null);
  await OBR.scene.setMetadata({ [KEY]: value });
  sceneMeta = { ...sceneMeta, [KEY]: value };
  saved = rec;
  const last = rec.log?.at(-1);
  if (last?.action && JSON.stringify(last) !== before) lastResult = { system: rec.system, by: currentActor ?? by, byName: currentActor ? currentActorName : myName, entry: last };
  syncBadges();
  await sendViews();
  return true;
}
let currentActor = null; // the player whose request is being applied (for the result's "by")
let currentActorName = "";
let myName = "";


// ---- acting ------------------------------------------------------------------

/** A click on a legal action: the GM applies it; a player sends it to the GM's client. */
async function perform(action) {
  if (isGM) {
    currentActor = playerId;
    currentActorName = myName;
    try {
      await mode.act(action);
    } finally {
      currentActor = null;
    }
    return;
  }
  if (pending) return;
  const rid = `${playerId}:${Date.now()}:${newSeed()}`;
  pending = {
    rid,
    timer: setTimeout(() => {
      if (pending?.rid !== rid) return;
      pending = null;
      setStatus(t("noGm"), "timeout");
      render();
    }, REQUEST_TIMEOUT_MS),
  };
  setStatus(t("sent"), "sent");
  render();
  try {
    // the action by its index in this player's own listing (no hidden data)
    const index = (live.remote ?? []).findIndex((l) => canonical(l.action) === canonical(action));
    await OBR.broadcast.sendMessage(REQUEST_CHANNEL, { rid, at: atOf(saved), index }, { destination: "REMOTE" });
  } catch (e) {
    clearTimeout(pending.timer);
    pending = null;
    showError(e);
    render();
  }
}

function setStatus(text, code) {
  const el = $("#request-status");
  el.textContent = text;
  el.dataset.code = code || "";
}

/** Key-sorted JSON, to compare an action with the legal ones whatever its key order. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/** A player's request (on the GM's client): who sent it, whether it is theirs and legal; then apply it. */
let requestQueue = Promise.resolve();
function onRequest(msg) {
  requestQueue = requestQueue.then(() => handleRequest(msg)).catch((e) => showError(e));
}
async function handleRequest({ data, connectionId }) {
  if (!isGM || !inCharge() || live.remote || !data || typeof data !== "object") return;
  const { rid, index } = data;
  const refuse = (code) => OBR.broadcast.sendMessage(RESULT_CHANNEL, { kind: "refused", rid, code }, { destination: "REMOTE" });
  // The sender is the party member with that connection id (Owlbear sets it; a page cannot choose it).
  const players = await OBR.party.getPlayers();
  const sender = players.find((p) => p.connectionId === connectionId);
  if (!sender) return data.kind === "sync" ? undefined : refuse("unknown_player");
  // A player's page asks for its view (opened, reloaded)
  if (data.kind === "sync") return sendViews(sender.id);
  if (!saved?.state || !mode) return refuse("no_encounter");
  if (!settings.players_act) return refuse("players_off");
  await loadTokens();
  // The action is the one at `index` in the sender's own listing of the step it names.
  let listing = [];
  try {
    listing = viewPayload(sender.id).listing;
  } catch {
    /* an unreadable state: nothing is legal */
  }
  const chosen = data.at === atOf(saved) && Number.isInteger(index) ? listing[index] : undefined;
  if (!chosen) return refuse("illegal_action");
  const action = chosen.action;
  const why = playerMay(sender.id, action, saved.state);
  if (why) return refuse(why);
  currentActor = sender.id;
  currentActorName = sender.name ?? "";
  let ok = false;
  try {
    ok = await mode.act(action, { plain: true });
  } finally {
    currentActor = null;
  }
  if (!ok) return refuse("not_applied");
  await OBR.broadcast.sendMessage(RESULT_CHANNEL, { kind: "done", rid }, { destination: "REMOTE" });
}

function onResult({ data, connectionId }) {
  if (!data || typeof data !== "object") return;
  // Results and answers come from a GM's client; anything else on the channel is ignored.
  if (party.find((p) => p.connectionId === connectionId)?.role !== "GM") return;
  if (pending && data.rid === pending.rid) {
    clearTimeout(pending.timer);
    pending = null;
    if (data.kind === "refused") setStatus(fmtUi("refused", { why: REFUSALS[data.code]?.[lang] ?? data.code }), data.code);
    else setStatus("", "done");
    render();
  }
}

// ---- badges ------------------------------------------------------------------

/**
 * The GM's client keeps one label per combatant attached to its token
 * (`buildLabel().attachedTo(token)`, marked with BADGE_KEY): whose turn it is
 * and the AP, Trion or pools left. Labels of tokens no longer in the encounter
 * are deleted.
 */
let badgeRun = Promise.resolve();
let badgeQueued = false;
function syncBadges() {
  if (!isGM || !inCharge() || live.remote || badgeQueued) return badgeRun;
  // One pass at a time (each reads the items afresh), and at most one waiting.
  badgeQueued = true;
  badgeRun = badgeRun.then(() => {
    badgeQueued = false;
    return syncBadgesNow();
  });
  return badgeRun;
}
async function syncBadgesNow() {
  try {
    const want = saved?.state && mode?.badges && saved.system === loadedSystem ? mode.badges(saved.state) : {};
    const all = await OBR.scene.items.getItems();
    const ids = new Set(all.map((i) => i.id));
    const badges = all.filter((i) => i.metadata?.[BADGE_KEY]);
    const badgeFor = (/** @type {import("@owlbear-rodeo/sdk").Item} */ b) => String(/** @type {{for?: string}} */ (b.metadata[BADGE_KEY]).for ?? "");
    const have = new Map(badges.map((b) => [badgeFor(b), b]));
    const gone = badges.filter((b) => !(badgeFor(b) in want) || !ids.has(badgeFor(b))).map((b) => b.id);
    if (gone.length) await OBR.scene.items.deleteItems(gone);
    const add = [];
    const change = {};
    for (const [id, text] of Object.entries(want)) {
      const tk = all.find((i) => i.id === id);
      if (!tk) continue;
      const b = have.get(id);
      if (!b) {
        add.push(
          buildLabel()
            .plainText(text)
            .attachedTo(id)
            .position({ x: tk.position.x, y: tk.position.y - grid.dpi / 2 })
            .pointerDirection("DOWN")
            .locked(true)
            .disableHit(true)
            .metadata({ [BADGE_KEY]: { for: id } })
            .build(),
        );
      } else if (plainText(b) !== text) change[b.id] = text;
    }
    if (add.length) await OBR.scene.items.addItems(add);
    const ch = Object.keys(change);
    if (ch.length) {
      await OBR.scene.items.updateItems(ch, (items) => {
        // (badges are labels: Owlbear's Label items have `text`)
        for (const it of items) /** @type {{text: {plainText: string}}} */ (/** @type {unknown} */ (it)).text.plainText = change[it.id];
      });
    }
  } catch (e) {
    showError(e);
  }
}

// ---- rendering ---------------------------------------------------------------

function nameOf(id) {
  return saved?.names?.[id] ?? tokens.find((x) => x.id === id)?.name ?? id;
}

/** The log of the round modes: each action (a bold line) and the events it produced. */
function renderRoundLog(log, describe, eventText) {
  const ol = $("#log");
  ol.textContent = "";
  for (const entry of (log || []).slice(-15)) {
    const li = document.createElement("li");
    if (entry.step != null) li.value = entry.step + 1;
    const head = document.createElement("div");
    head.className = "act";
    head.dataset.kind = entry.action?.type ?? "";
    head.textContent = entry.action ? describe(entry.action) : t("start");
    if (entry.seed != null) {
      const s = document.createElement("small");
      s.textContent = ` ${t("seed")} ${entry.seed}`;
      head.append(s);
    }
    li.append(head);
    for (const e of entry.events || []) {
      const d = document.createElement("div");
      d.className = `ev ev-${e.event ?? e.type}`;
      d.textContent = eventText(e);
      li.append(d);
    }
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

/** The last broadcast result, in this page's language. */
function renderLast() {
  const el = $("#last");
  const r = lastResult;
  if (!r || !mode || r.system !== loadedSystem || !r.entry) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  el.dataset.step = String(r.entry.step ?? "");
  el.dataset.by = r.by ?? "";
  el.dataset.seed = String(r.entry.seed ?? "");
  const byName = r.by === playerId ? "" : r.byName ?? "";
  // (as this page's viewer may see it: the entry records what each viewer may not)
  const seen = entryFor(r.entry, isGM ? null : viewerOf(saved?.state) ?? "", viewersOf(saved));
  const action = seen.action;
  let lines = [];
  try {
    lines = (seen.events || []).map((e) => mode.eventText(e));
  } catch {
    lines = [];
  }
  el.innerHTML = `<b>${esc(t("last"))}</b>${byName ? ` <small>${esc(fmtUi("by", { who: byName }))}</small>` : ""}<div class="act">${esc(action ? mode.describe(action) : "")}</div>${lines.map((l) => `<div class="ev">${esc(l)}</div>`).join("")}`;
}

/**
 * The GM assigns a combatant token to a player (its metadata's `owner`), or
 * leaves it to whoever created it; the assignment decides who may act on it.
 */
function renderOwners() {
  const el = $("#owners");
  el.hidden = !isGM || !tokens.length;
  if (el.hidden) return;
  $("#owners-title").textContent = t("owners");
  const players = party.filter((p) => p.role !== "GM");
  const who = (id) => (id === playerId ? myName || "GM" : party.find((p) => p.id === id)?.name ?? id ?? "—");
  $("#owners-table").innerHTML = tokens
    .map((tk) => {
      const cur = tk.meta.owner ?? "";
      const created = tk.createdUserId;
      const opts = [`<option value="">${esc(fmtUi("creator", { who: who(created) }))}</option>`, ...players.map((p) => `<option value="${esc(p.id)}" ${p.id === cur ? "selected" : ""}>${esc(p.name || p.id)}</option>`)];
      return `<tr data-token="${esc(tk.id)}"><td>${esc(tk.name)}</td><td><select class="owner">${opts.join("")}</select></td></tr>`;
    })
    .join("");
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("#owners-table select.owner"))) {
    sel.onchange = () => {
      const id = sel.closest("tr")?.dataset.token ?? "";
      OBR.scene.items.updateItems([id], (items) => {
        for (const it of items) {
          const { owner: _old, ...rest } = metaOf(it);
          it.metadata[KEY] = sel.value ? { ...rest, owner: sel.value } : rest;
        }
      });
    };
  }
}

function render() {
  document.documentElement.lang = lang;
  renderOwners();
  $("#title").textContent = t("title");
  const running = saved?.state ? saved.system : null;
  const system = running || settings.system;
  const sys = $("#system");
  sys.innerHTML = `${system ? "" : `<option value="">${esc(t("choose"))}</option>`}${SYSTEMS.map((s) => `<option value="${s}">${esc(t(s))}</option>`).join("")}`;
  sys.value = system || "";
  sys.disabled = !!running || !isGM;
  $("#system-label").textContent = t("system");
  $("#settings").hidden = !isGM;
  $("#players-act-label").textContent = t("playersAct");
  $("#players-act").checked = !!settings.players_act;
  $("#setup").hidden = !!running;
  $("#setup").inert = !isGM; // the GM sets up; a player sees the setup only
  $("#encounter").hidden = !running;
  document.body.dataset.system = system || "";
  document.body.dataset.role = isGM ? "GM" : "PLAYER";
  const family = system && ROUND_RULESETS[system] ? "round" : system;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-for]"))) el.hidden = !(el.dataset.for ?? "").split(" ").includes(family);
  $("#gm-note").textContent = isGM ? (running && tokens.some((tk) => !saved.names?.[tk.id]) ? t("notInEncounter") : "") : settings.players_act ? t("playerNote") : t("playerOff");
  $("#reset").textContent = t("reset");
  $("#reset").hidden = !isGM;
  $("#undo").textContent = t("undo");
  $("#undo").hidden = !isGM;
  $("#actions-title").textContent = t("actions");
  $("#log-title").textContent = t("log");
  renderLast();
  if (!system || !mode || loadedSystem !== system) {
    $("#tokens").innerHTML = "";
    $("#start").hidden = true;
    return;
  }
  $("#start").hidden = false;
  renderSheetImport(running ? null : system);
  if (!running) {
    live.free();
    $("#undo").disabled = true;
    if (!tokens.length) $("#tokens").innerHTML = `<p class="note">${esc(t("noTokens"))}</p>`;
    else mode.renderSetup(tokens);
    $("#start").textContent = system === "world_trigger" ? WT_S.startBattle?.[lang] ?? t("start") : t("start");
    $("#start").disabled = !tokens.length || !isGM;
    $("#start").hidden = !isGM;
    return;
  }
  // Which stored step this page shows (the seed of the last log entry).
  $("#encounter").dataset.seed = String(saved.log?.at(-1)?.seed ?? "");
  const viewer = isGM ? null : viewerOf(saved.state);
  const view = isGM ? saved.state : viewFor(saved.state, viewer).state;
  mode.render(saved, view, viewer);
  // (after rendering: the handle now holds the stored state, or was rebuilt from it)
  const depth = live.undoDepth;
  $("#undo").dataset.depth = String(depth);
  $("#undo").disabled = !isGM || depth === 0;
}

// ---- TMD -----------------------------------------------------------------------

const TMD_GM_KINDS = new Set(["overdraw", "grant", "set_disabled", "teleport", "leave", "scene_change", "end_encounter", "remove_effect"]);

/** A TMD action as `encounter_act` takes it, as a sentence with its cost. */
function describeTmd(action, cost) {
  const c = mode.text.costText(action, cost);
  return `${mode.text.describe(action)}${c ? (lang === "en" ? ` (${c})` : `（${c}）`) : ""}`;
}

/** A logged TMD action; one logged by an earlier build (tagged `kind`, before the core tagged actions `type`) in today's form. */
function loggedAction(a) {
  if (!a || a.type !== undefined || typeof a.kind !== "string") return a;
  const { kind, ...rest } = a;
  return { type: kind, ...rest };
}

function renderTmdLog(log) {
  const text = mode.text;
  const ol = $("#log");
  ol.textContent = "";
  for (const entry of log || []) {
    const li = document.createElement("li");
    if (typeof entry === "string") {
      li.textContent = new DOMParser().parseFromString(entry, "text/html").body.textContent;
      ol.append(li);
      continue;
    }
    const action = loggedAction(entry.action);
    const head = document.createElement("div");
    head.className = "act";
    head.dataset.kind = action?.type ?? "";
    head.textContent = action ? text.describe(action) : t("start");
    if (entry.seed != null) {
      const s = document.createElement("small");
      s.textContent = ` ${t("seed")} ${entry.seed}`;
      head.append(s);
    }
    li.append(head);
    for (const e of entry.events || []) {
      const d = document.createElement("div");
      d.className = `ev ev-${e.event}${text.knownEvent(e) ? "" : " ev-unknown"}`;
      d.textContent = text.eventText(e);
      li.append(d);
    }
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function renderTmdSetup() {
  const rows = tokens
    .map((tk) => {
      const imp = importedOf(tk.meta, "tmd");
      const init = imp
        ? `<td class="from-sheet">${esc(fmtSheet(SHEET_UI.fromSheet, { name: tk.meta.imported.name ?? "" }))}</td>`
        : `<td><input class="init" type="number" value="${setup[tk.id].base_initiative}" min="-1000" max="1000"></td>`;
      return `<tr data-token="${esc(tk.id)}"${imp ? ' data-imported="1"' : ""}><td>${esc(tk.name)}</td>
      <td><input class="side" value="${esc(setup[tk.id].side)}" size="4"></td>${init}</tr>`;
    })
    .join("");
  $("#tokens").innerHTML = `<table><tr><th></th><th>${esc(t("side"))}</th><th>${esc(t("init"))}</th></tr>${rows}</table>`;
  for (const row of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#tokens tr[data-token]"))) {
    const s = setup[row.dataset.token ?? ""];
    const side = /** @type {HTMLInputElement} */ (row.querySelector(".side"));
    const initiative = /** @type {HTMLInputElement} */ (row.querySelector(".init"));
    side.onchange = () => (s.side = side.value.trim() || "A");
    if (initiative) initiative.onchange = () => (s.base_initiative = Number(initiative.value || 0));
  }
}

function renderTmd(record, st) {
  const text = mode.text;
  $("#phase").dataset.phase = st.phase;
  $("#phase").textContent = st.phase === "surprise" ? text.phase(st.phase) : `${text.roundN(st.round)} · ${text.phase(st.phase)}`;
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
        .map(([k, v]) => `${esc(text.typeLabel(k))}×${v}`)
        .join(" ");
      return `<tr data-character="${esc(id)}" class="${id === st.current ? "current" : ""}${c.turn_done ? " done" : ""}">
        <td>${esc(nameOf(id))} <small>${esc(c.initiative ?? "")}</small></td><td>${esc(c.side)}</td>
        <td class="base-ap">${c.base_ap}</td><td class="extra-ap">${c.extra_ap}</td><td>${c.reflex_only_ap}</td><td>${held}</td></tr>`;
    })
    .join("")}`;
  let legal = [];
  try {
    legal = live.for(gunbai.tmd.Encounter, record.state).legalActions();
  } catch (e) {
    showError(e);
  }
  // The acting character's actions first; out-of-turn and GM tools folded away.
  const groups = { now: [], others: [], gm: [] };
  legal.forEach((a, i) => {
    const g = TMD_GM_KINDS.has(a.action.type) ? "gm" : !a.action.actor || a.action.actor === record.state.current ? "now" : "others";
    groups[g].push(
      `<button type="button" data-i="${i}" data-kind="${esc(a.action.type)}" data-actor="${esc(a.action.actor ?? "")}" ${canAct(a.action) ? "" : "disabled"}>${esc(describeTmd(a.action, a.cost))}</button>`,
    );
  });
  $("#actions").innerHTML =
    `<div class="now">${groups.now.join("")}</div>` +
    (groups.others.length ? `<details><summary>${esc(t("outOfTurn"))} (${groups.others.length})</summary>${groups.others.join("")}</details>` : "") +
    (groups.gm.length && isGM ? `<details><summary>${esc(t("gmTools"))} (${groups.gm.length})</summary>${groups.gm.join("")}</details>` : "");
  $("#actions").onclick = (ev) => {
    const b = ev.target.closest("button[data-i]");
    if (b && !b.disabled) perform(legal[Number(b.dataset.i)].action);
  };
  const gm = $("#tmd-gm");
  gm.hidden = !isGM || st.phase === "ended";
  if (!gm.hidden) {
    renderGmForm(gm, {
      lang, state: record.state, tokens, text, nameOf, esc, enabled: isGM, kind: gmKind,
      onKind: (k) => (gmKind = k),
      onAct: (action, names) => actTmd(action, names),
    });
  }
  renderTmdLog(record.log);
}

async function startTmd(tks) {
  // (a token with the character-sheet site's file: its character as the file gives it)
  const characters = tks.map((tk) => ({ id: tk.id, side: setup[tk.id].side, base_initiative: setup[tk.id].base_initiative, ...structuredClone(importedOf(tk.meta, "tmd") ?? {}) }));
  const seed = newSeed();
  const h = gunbai.tmd.Encounter.create({ characters, seed });
  const state = live.adopt(gunbai.tmd.Encounter, h);
  const names = Object.fromEntries(tks.map((tk) => [tk.id, tk.name]));
  await save({ system: "tmd", state, names, log: [{ action: null, seed, events: h.created.events }] });
}

/**
 * Apply one TMD action to the live encounter with a fresh seed and store the
 * new state; an illegal action, or a state that cannot be saved, leaves the
 * stored state (and the handle) as they were. `names`: display names of
 * joining tokens. True when it was stored.
 */
async function actTmd(action, names = {}) {
  if (busy) return false;
  busy = true;
  clearError();
  let stored = false;
  try {
    const seed = newSeed();
    const r = live.act(gunbai.tmd.Encounter, saved.state, action, { seed });
    const log = [...(saved.log || []), { action, seed, events: r.events }].slice(-LOG_MAX);
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
  return stored;
}

async function undoTmd() {
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

// ---- start, undo, reset, settings --------------------------------------------

async function start() {
  if (busy || !mode) return;
  busy = true;
  clearError();
  try {
    await mode.start(tokens);
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
  }
  render();
}

async function undo() {
  if (!saved?.state || live.undoDepth === 0 || !mode) return;
  await mode.undo();
}

async function reset() {
  const system = saved?.system;
  await OBR.scene.setMetadata({ [KEY]: undefined });
  const { [KEY]: _, ...rest } = sceneMeta;
  sceneMeta = rest;
  saved = null;
  lastResult = null;
  syncBadges();
  // The setup that follows is the cleared encounter's ruleset.
  if (system && settings.system !== system) await saveSettings({ system });
  render();
}

async function saveSettings(patch) {
  settings = { ...settings, ...patch };
  await OBR.scene.setMetadata({ [SETTINGS_KEY]: settings });
  sceneMeta = { ...sceneMeta, [SETTINGS_KEY]: settings };
  await loadSystem(settings.system);
  render();
}

/** Decode the record of a metadata snapshot; a later snapshot wins over a slower earlier decode. */
let readSeq = 0;
async function readMetadata(meta) {
  const seq = ++readSeq;
  let rec = null;
  // A sealed record opens only on the GM's client that sealed it; a player's client
  // (or another GM's) keeps the view it was sent.
  let viewOnly = false;
  try {
    rec = await decode(meta[KEY], isGM ? await recordKey() : null);
    viewOnly = !!meta[KEY]?.sealed && !rec;
  } catch {
    viewOnly = true;
  }
  const s = meta[SETTINGS_KEY] && typeof meta[SETTINGS_KEY] === "object" ? meta[SETTINGS_KEY] : {};
  const stored = meta[KEY]?.system;
  const system = rec?.system ?? (SYSTEMS.includes(stored) ? stored : null) ?? (SYSTEMS.includes(s.system) ? s.system : null);
  try {
    await loadSystem(system);
  } catch (e) {
    showError(e);
  }
  if (seq !== readSeq) return;
  sceneMeta = meta;
  if (!viewOnly) {
    saved = rec;
    live.remote = null;
  } else if (saved && saved.system !== meta[KEY]?.system) saved = null;
  settings = { system: SYSTEMS.includes(s.system) ? s.system : null, players_act: s.players_act === true };
  render();
  syncBadges();
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
  playerId = OBR.player.id;
  // (a player's background page has nothing to do for the room)
  if (BACKGROUND && !isGM) return;
  if (BACKGROUND) await loadMarkup();
  watchPopover();
  // This client's key pair; its public key in the player's metadata (seal.js)
  keys = await myKeys(playerId);
  try {
    await OBR.player.setMetadata({ [KEY_META]: keys.publicJwk });
  } catch {
    /* without a published key this client receives no view */
  }
  try {
    myName = (await OBR.player.getName()) ?? "";
  } catch {
    myName = "";
  }
  await readGrid();
  try {
    party = await OBR.party.getPlayers();
  } catch {
    party = [];
  }
  await loadTokens();
  await readMetadata(await OBR.scene.getMetadata());
  OBR.scene.onMetadataChange((m) => readMetadata(m));
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
  try {
    party = await OBR.party.getPlayers();
  } catch {
    party = [];
  }
  OBR.party.onChange((ps) => {
    party = ps;
    render();
    // (a player who joined or published a key gets their view)
    sendViews().catch((e) => showError(e));
  });
  OBR.broadcast.onMessage(REQUEST_CHANNEL, onRequest);
  OBR.broadcast.onMessage(RESULT_CHANNEL, onResult);
  OBR.broadcast.onMessage(VIEW_CHANNEL, onView);
  // A player's page asks the GM's client for its view; a GM's page (re)opened sends every player theirs.
  if (!isGM) OBR.broadcast.sendMessage(REQUEST_CHANNEL, { kind: "sync" }, { destination: "REMOTE" }).catch(() => {});
  else await sendViews();
  $("#system").onchange = (ev) => {
    clearError();
    if (SYSTEMS.includes(ev.target.value)) saveSettings({ system: ev.target.value });
  };
  $("#players-act").onchange = (ev) => saveSettings({ players_act: ev.target.checked });
  $("#start").onclick = start;
  wireSheetImport();
  $("#reset").onclick = reset;
  $("#undo").onclick = undo;
  if (!BACKGROUND) document.body.dataset.ready = "1";
}

/** Opened outside Owlbear Rodeo: say what this page is, in the page's language. */
function showUnavailable() {
  document.documentElement.lang = lang;
  $("#title").textContent = t("title");
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("body > :not(#title):not(#unavailable)"))) el.hidden = true;
  const p = $("#unavailable");
  p.hidden = false;
  p.textContent = t("unavailable");
  document.body.dataset.ready = "unavailable";
}

if (!OBR.isAvailable) {
  if (!BACKGROUND) showUnavailable();
}
else {
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
}

