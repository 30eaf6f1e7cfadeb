// The "round" modes of the extension: CoC 6th edition's action-point combat
// (`cocAp.Round`), CoC 7th edition house combat (`coc7House.Round`) and FAP/MAP
// (`fapMap.Round`). Each is a gunbai game handle kept live (live.js) over the
// state stored in the scene metadata. The page never decides what is legal: the
// buttons are the handle's `legalActions()`, a click applies one of them with a
// fresh seed, and the events it returns are the log.
//
// Names come from the core's catalogues (`coc_ap.labels`, `coc7_house.labels`,
// `fap_map.actions`), so the buttons use the rulebooks' own terms; the few words
// the catalogues don't give are in T below.

/** Log entries kept in the record (fewer if the scene metadata would overflow). */
export const LOG_MAX = 40;

import { importedOf, SHEET_UI } from "./sheets.js";
import { namesIn } from "./names.js";
const LK = { ja: "ja", "zh-Hant": "zh_hant", "zh-Hans": "zh_hans", en: "en" };

/** Words the catalogues don't give, in the four languages. */
export const T = {
  round: { ja: "ラウンド {n}", "zh-Hant": "第 {n} 輪", "zh-Hans": "第 {n} 轮", en: "Round {n}" },
  turn: { ja: "手番", "zh-Hant": "行動者", "zh-Hans": "行动者", en: "Turn" },
  roundOver: { ja: "全員の手番が終了", "zh-Hant": "所有人的回合已結束", "zh-Hans": "所有人的回合已结束", en: "Every turn has ended" },
  dex: { ja: "DEX", "zh-Hant": "DEX", "zh-Hans": "DEX", en: "DEX" },
  dodge: { ja: "回避", "zh-Hant": "閃避", "zh-Hans": "闪避", en: "Dodge" },
  weapon: { ja: "武器技能", "zh-Hant": "武器技能", "zh-Hans": "武器技能", en: "Weapon skill" },
  weaponName: { ja: "こぶし", "zh-Hant": "拳頭", "zh-Hans": "拳头", en: "Fist" },
  pc: { ja: "PC", "zh-Hant": "PC", "zh-Hans": "PC", en: "PC" },
  reaction: { ja: "反応力", "zh-Hant": "反應力", "zh-Hans": "反应力", en: "Reaction" },
  magic: { ja: "魔力", "zh-Hant": "魔力", "zh-Hans": "魔力", en: "Magic" },
  agility: { ja: "敏捷力", "zh-Hant": "敏捷力", "zh-Hans": "敏捷力", en: "Agility" },
  ap: { ja: "AP", "zh-Hant": "AP", "zh-Hans": "AP", en: "AP" },
  used: { ja: "使用済み", "zh-Hant": "已使用", "zh-Hans": "已使用", en: "Used" },
  uses: {
    active: { ja: "能動", "zh-Hant": "主動", "zh-Hans": "主动", en: "active" },
    passive: { ja: "受動", "zh-Hant": "被動", "zh-Hans": "被动", en: "passive" },
    free: { ja: "自由", "zh-Hant": "自由", "zh-Hans": "自由", en: "free" },
  },
  concentration: { ja: "集中を要する", "zh-Hant": "需要專注", "zh-Hans": "需要专注", en: "needs concentration" },
  bonusDie: { ja: "ボーナスダイス", "zh-Hant": "獎勵骰", "zh-Hans": "奖励骰", en: "bonus die" },
  stance: { ja: "防御姿勢", "zh-Hant": "防禦姿態", "zh-Hans": "防御姿态", en: "Stance" },
  passives: { ja: "受動行動", "zh-Hant": "被動行動", "zh-Hans": "被动行动", en: "Passive actions" },
  phase: {
    declaration: { ja: "宣言フェイズ", "zh-Hant": "宣告階段", "zh-Hans": "宣告阶段", en: "Declaration phase" },
    resolution: { ja: "解決フェイズ", "zh-Hant": "結算階段", "zh-Hans": "结算阶段", en: "Resolution phase" },
  },
  fap: { ja: "FAP", "zh-Hant": "FAP", "zh-Hans": "FAP", en: "FAP" },
  map: { ja: "MAP", "zh-Hant": "MAP", "zh-Hans": "MAP", en: "MAP" },
  declared: { ja: "宣言", "zh-Hant": "宣告", "zh-Hans": "宣告", en: "Declared" },
  next: { ja: "次に解決", "zh-Hant": "下一個結算", "zh-Hans": "下一个结算", en: "Resolves next" },
  follow: { ja: "{who}に追従", "zh-Hant": "跟隨{who}", "zh-Hans": "跟随{who}", en: "following {who}" },
  fm: {
    declare: { ja: "宣言", "zh-Hant": "宣告", "zh-Hans": "宣告", en: "Declare" },
    release: { ja: "宣言の取り消し", "zh-Hant": "撤回宣告", "zh-Hans": "撤回宣告", en: "Withdraw declaration" },
    end_declarations: { ja: "宣言を締め切る", "zh-Hant": "結束宣告", "zh-Hans": "结束宣告", en: "End declarations" },
    resolve: { ja: "解決", "zh-Hant": "結算", "zh-Hans": "结算", en: "Resolve" },
    skip: { ja: "見送り", "zh-Hant": "放棄", "zh-Hans": "放弃", en: "Skip" },
    use: { ja: "使用", "zh-Hant": "使用", "zh-Hans": "使用", en: "Use" },
    block: { ja: "ブロック", "zh-Hant": "阻擋", "zh-Hans": "阻挡", en: "Block" },
    trigger: { ja: "発動", "zh-Hant": "觸發", "zh-Hans": "触发", en: "Trigger" },
    follow: { ja: "追従", "zh-Hant": "跟隨", "zh-Hans": "跟随", en: "Follow" },
    end_round: { ja: "ラウンド終了", "zh-Hant": "結束本輪", "zh-Hans": "结束本轮", en: "End the round" },
  },
  fmEvent: {
    started: { ja: "ラウンド開始", "zh-Hant": "本輪開始", "zh-Hans": "本轮开始", en: "Round started" },
    declared: { ja: "宣言", "zh-Hant": "宣告", "zh-Hans": "宣告", en: "declared" },
    released: { ja: "宣言を取り消した", "zh-Hant": "撤回宣告", "zh-Hans": "撤回宣告", en: "withdrew" },
    declarations_ended: { ja: "宣言締め切り", "zh-Hant": "宣告結束", "zh-Hans": "宣告结束", en: "Declarations ended" },
    resolved: { ja: "解決", "zh-Hant": "結算", "zh-Hans": "结算", en: "resolved" },
    skipped: { ja: "見送り", "zh-Hant": "放棄", "zh-Hans": "放弃", en: "skipped" },
    used: { ja: "使用", "zh-Hant": "使用", "zh-Hans": "使用", en: "used" },
    blocked: { ja: "ブロック", "zh-Hant": "阻擋", "zh-Hans": "阻挡", en: "blocked" },
    triggered: { ja: "発動", "zh-Hant": "觸發", "zh-Hans": "触发", en: "triggered" },
    followed: { ja: "追従", "zh-Hant": "跟隨", "zh-Hans": "跟随", en: "followed" },
    round_ended: { ja: "ラウンド終了", "zh-Hant": "本輪結束", "zh-Hans": "本轮结束", en: "Round ended" },
  },
  kind: { ja: "種類", "zh-Hant": "類型", "zh-Hans": "类型", en: "Kind" },
  combat: { ja: "戦闘", "zh-Hant": "戰鬥", "zh-Hans": "战斗", en: "Combat" },
  chase: { ja: "チェイス（逃走と追跡）", "zh-Hant": "追逐（逃跑與追趕）", "zh-Hans": "追逐（逃跑与追赶）", en: "Chase (escape and pursuit)" },
  role: { ja: "役", "zh-Hant": "角色", "zh-Hans": "角色", en: "Role" },
  fugitive: { ja: "逃亡者", "zh-Hant": "逃亡者", "zh-Hans": "逃亡者", en: "Fugitive" },
  pursuer: { ja: "追跡者", "zh-Hant": "追趕者", "zh-Hans": "追赶者", en: "Pursuer" },
  none: { ja: "—", "zh-Hant": "—", "zh-Hans": "—", en: "—" },
  mov: { ja: "MOV", "zh-Hant": "MOV", "zh-Hans": "MOV", en: "MOV" },
  chaseSkill: { ja: "技能（CON／運転／操縦）", "zh-Hant": "技能（CON／駕駛／操縱）", "zh-Hans": "技能（CON／驾驶／操纵）", en: "Skill (CON / Drive / Pilot)" },
  chaseRound: { ja: "チェイスのラウンドを行う", "zh-Hant": "進行一輪追逐", "zh-Hans": "进行一轮追逐", en: "Play a chase round" },
  gap: { ja: "距離 {gap}（{escape} で逃走）· 逃亡者の勝利 {wins}/{need}", "zh-Hant": "距離 {gap}（達 {escape} 即逃脫）· 逃亡者勝利 {wins}/{need}", "zh-Hans": "距离 {gap}（达 {escape} 即逃脱）· 逃亡者胜利 {wins}/{need}", en: "Gap {gap} (escape at {escape}) · fugitive wins {wins}/{need}" },
  status: {
    ongoing: { ja: "追跡中", "zh-Hant": "追逐中", "zh-Hans": "追逐中", en: "Ongoing" },
    escaped: { ja: "逃走成功", "zh-Hant": "逃脫成功", "zh-Hans": "逃脱成功", en: "Escaped" },
    caught: { ja: "捕まった", "zh-Hant": "被抓住", "zh-Hans": "被抓住", en: "Caught" },
  },
  neither: { ja: "なし（双方失敗）", "zh-Hant": "無（雙方失敗）", "zh-Hans": "无（双方失败）", en: "neither (both failed)" },
  more: { ja: "その他", "zh-Hant": "其他", "zh-Hans": "其他", en: "More" },
  hp: { ja: "HP", "zh-Hant": "HP", "zh-Hans": "HP", en: "HP" },
  takeAttack: { ja: "攻撃を受ける", "zh-Hant": "承受攻擊", "zh-Hans": "承受攻击", en: "take the attack" },
  reactNow: { ja: "{attacker}が{weapon}で{target}を攻撃：{target}の受動行動を選んでください", "zh-Hant": "{attacker}用{weapon}攻擊{target}：請選擇{target}的被動行動", "zh-Hans": "{attacker}用{weapon}攻击{target}：请选择{target}的被动行动", en: "{attacker} attacks {target} with {weapon}: {target} chooses a reaction" },
  attacking: { ja: "{attacker}が{weapon}で{target}を攻撃：{target}の受動行動を待っています", "zh-Hant": "{attacker}用{weapon}攻擊{target}：等待{target}的被動行動", "zh-Hans": "{attacker}用{weapon}攻击{target}：等待{target}的被动行动", en: "{attacker} attacks {target} with {weapon}: waiting for {target}'s reaction" },
  fightWon: { ja: "戦闘終了：{side}の勝利", "zh-Hant": "戰鬥結束：{side}獲勝", "zh-Hans": "战斗结束：{side}获胜", en: "The fight is over: {side} stands" },
  fightOver: { ja: "戦闘終了", "zh-Hant": "戰鬥結束", "zh-Hans": "战斗结束", en: "The fight is over" },
};

/**
 * A weapon as the engine takes it: the token's weapon without the extension's display
 * `label` (a name, or one per language `{ja, zh_hans, zh_hant, en}`).
 */
function engineWeapon(w) {
  if (!w || typeof w !== "object") return w;
  const { label: _label, ...rest } = w;
  return rest;
}

/**
 * The fight data of a token's `stats` (its metadata) for CoC 6th and 7th: HP, armour
 * and weapons, when the token has them. A weapon's display `label` stays with the
 * extension (the record's `weapons`).
 */
function fightStats(system, st) {
  const out = {};
  if (system === "coc7_house") {
    if (st.hp != null) out.hp = st.hp;
    if (st.hp_max != null) out.hp_max = st.hp_max;
    if (st.dodge != null) out.dodge = st.dodge;
    if (st.db != null) out.db = st.db;
  } else {
    if (st.hp_max != null) out.hp_max = st.hp_max;
    if (st.hp != null) out.hp = st.hp;
  }
  if (st.armor != null) out.armor = st.armor;
  if (Array.isArray(st.weapons)) out.weapons = st.weapons.map(engineWeapon);
  return out;
}

/** Each token's weapons' display labels, by token id then weapon key (CoC 7th `id`, CoC 6th `name`). */
function weaponLabels(system, tokens) {
  const out = {};
  for (const tk of tokens) {
    for (const w of Array.isArray(tk.meta.stats?.weapons) ? tk.meta.stats.weapons : []) {
      const key = system === "coc_ap" ? w?.name : w?.id;
      if (typeof key === "string" && w.label) (out[tk.id] ??= {})[key] = w.label;
    }
  }
  return out;
}

/** Per ruleset: the npm entry, the namespace and handle class, and the setup fields per token. */
export const ROUND_RULESETS = {
  coc_ap: {
    ns: "cocAp",
    fields: [
      ["dex", "dex", 10],
      ["dodge", "dodge", 30],
      ["weapon", "weapon", 50],
    ],
  },
  coc7_house: {
    ns: "coc7House",
    fields: [
      ["dex", "dex", 50],
      ["pc", "pc", false],
    ],
  },
  fap_map: {
    ns: "fapMap",
    fields: [
      ["reaction", "reaction", 10],
      ["magic", "magic", 10],
      ["agility", "agility", 10],
    ],
  },
};

/** The combatant ids an action belongs to (empty: a GM action, such as the next round). */
export function roundActors(action) {
  const id = action?.actor ?? null;
  return id ? [id] : [];
}

/** A tenths amount as a decimal (FAP/MAP). */
const tenths = (n) => (n == null ? "" : String(Math.round(n) / 10));

export function createRoundMode(ctx) {
  const { system, gunbai, lang, $, esc, live } = ctx;
  const R = ROUND_RULESETS[system];
  const NS = gunbai[R.ns];
  // CoC 7th edition: house combat (`coc7House.Round`) or a chase (`coc7House.Chase`, record.kind "chase").
  const isChase = (r) => r?.kind === "chase";
  const clsOf = (r) => (isChase(r) ? NS.Chase : NS.Round);
  const lk = LK[lang];
  const tr = (e) => (e ? e[lang] ?? e.en : "");
  const fmt = (e, v) => tr(e).replace(/\{(\w+)\}/g, (_, k) => String(v[k] ?? ""));
  const lab = (l) => (l ? l[lk] || l.en || "" : "");
  const colon = lang === "en" ? ": " : "：";

  // Catalogue labels.
  const labels = (() => {
    try {
      if (system === "fap_map") {
        const cat = NS.actions({});
        const examples = {};
        for (const a of cat.actions) for (const x of a.examples || []) examples[`${a.id}/${x.id}`] = x.names;
        return { actions: Object.fromEntries(cat.actions.map((a) => [a.id, a.names])), examples };
      }
      const l = NS.labels({});
      const by = (xs) => Object.fromEntries((xs || []).map((x) => [x.key, x.label]));
      return { actions: by(l.actions), dirs: by(l.directions), treat: by(l.treat_skills), stances: by(l.stance_options), passives: by(l.passive_kinds) };
    } catch {
      return { actions: {} };
    }
  })();
  const actLabel = (k) => lab(labels.actions[k]) || k;
  const name = (id) => ctx.nameOf(id);

  const setup = {}; // token id -> field values
  const chaseSetup = { on: false, roles: {} }; // coc7_house: a chase instead of combat; token id -> "fugitive" | "pursuer"
  let rec = null;
  let busy = false;

  function syncSetup(tokens) {
    for (const tk of tokens) {
      if (setup[tk.id]) continue;
      const stats = tk.meta.stats || {};
      setup[tk.id] = Object.fromEntries(R.fields.map(([f, , d]) => [f, stats[f] ?? (f === "pc" ? !tk.ownedByGm : d)]));
    }
  }

  const CHASE_FIELDS = [
    ["mov", "mov", 8],
    ["dex", "dex", 50],
    ["skill", "chaseSkill", 50],
  ];
  function renderChaseSetup(tokens) {
    tokens.forEach((tk, i) => {
      const st = tk.meta.stats || {};
      setup[tk.id] ??= {};
      for (const [f, , d] of CHASE_FIELDS) setup[tk.id][`chase_${f}`] ??= st[f] ?? d;
      chaseSetup.roles[tk.id] ??= i === 0 ? "fugitive" : i === 1 ? "pursuer" : "";
    });
    const head = CHASE_FIELDS.map(([, l]) => `<th>${esc(tr(T[l]))}</th>`).join("");
    const rows = tokens
      .map((tk) => {
        const s = setup[tk.id];
        const role = chaseSetup.roles[tk.id];
        const opts = ["fugitive", "pursuer", ""].map((r) => `<option value="${r}" ${r === role ? "selected" : ""}>${esc(tr(T[r || "none"]))}</option>`).join("");
        return `<tr data-token="${esc(tk.id)}"><td>${esc(tk.name)}</td><td><select class="role">${opts}</select></td>${CHASE_FIELDS.map(([f]) => `<td><input type="number" data-f="chase_${f}" value="${esc(s[`chase_${f}`])}" min="0" max="999"></td>`).join("")}</tr>`;
      })
      .join("");
    return `<table class="round-setup"><tr><th></th><th>${esc(tr(T.role))}</th>${head}</tr>${rows}</table>`;
  }

  function renderSetup(tokens) {
    syncSetup(tokens);
    const kindSel =
      system === "coc7_house"
        ? `<label class="chase-kind">${esc(tr(T.kind))} <select id="round-kind"><option value="combat">${esc(tr(T.combat))}</option><option value="chase" ${chaseSetup.on ? "selected" : ""}>${esc(tr(T.chase))}</option></select></label>`
        : "";
    if (chaseSetup.on) {
      $("#tokens").innerHTML = kindSel + renderChaseSetup(tokens);
      bindSetup();
      return;
    }
    const head = R.fields.map(([, l]) => `<th>${esc(tr(T[l]))}</th>`).join("");
    const rows = tokens
      .map((tk) => {
        const s = setup[tk.id];
        // a token with the character-sheet site's file: the file's stats, not typed ones
        const imp = tk.meta.imported?.system === system && importedOf(tk.meta, system);
        if (imp) return `<tr data-token="${esc(tk.id)}" data-imported="1"><td>${esc(tk.name)}</td><td colspan="${R.fields.length}" class="from-sheet">${esc(fmt(SHEET_UI.fromSheet, { name: tk.meta.imported.name ?? "" }))}</td></tr>`;
        const cells = R.fields
          .map(([f, , d]) =>
            typeof d === "boolean"
              ? `<td><input type="checkbox" data-f="${f}" ${s[f] ? "checked" : ""}></td>`
              : `<td><input type="number" data-f="${f}" value="${esc(s[f])}" min="0" max="999"></td>`,
          )
          .join("");
        return `<tr data-token="${esc(tk.id)}"><td>${esc(tk.name)}</td>${cells}</tr>`;
      })
      .join("");
    $("#tokens").innerHTML = `${kindSel}<table class="round-setup"><tr><th></th>${head}</tr>${rows}</table>`;
    bindSetup();
  }

  function bindSetup() {
    for (const row of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#tokens tr[data-token]"))) {
      const s = setup[row.dataset.token ?? ""];
      for (const i of /** @type {NodeListOf<HTMLInputElement>} */ (row.querySelectorAll("input[data-f]"))) {
        i.onchange = () => (s[i.dataset.f ?? ""] = i.type === "checkbox" ? i.checked : Number(i.value || 0));
      }
      const role = /** @type {HTMLSelectElement | null} */ (row.querySelector("select.role"));
      if (role) role.onchange = () => (chaseSetup.roles[row.dataset.token ?? ""] = role.value);
    }
    const k = /** @type {HTMLSelectElement | null} */ (document.querySelector("#round-kind"));
    if (k) {
      k.onchange = () => {
        chaseSetup.on = k.value === "chase";
        ctx.render();
      };
    }
  }

  /** The `round_new` arguments from the setup (token positions give CoC 6th squares). */
  function setupArgs(tokens) {
    const dpi = ctx.grid.dpi || 150;
    const square = (tk) => [Math.floor((tk.position?.x ?? 0) / dpi), Math.floor((tk.position?.y ?? 0) / dpi)];
    // A token with the character-sheet site's file: the engine takes its `combatant` as
    // it is, with the token's id and side (and CoC 6th: the token's square, unless the
    // file gives a position).
    const fromFile = (tk) => {
      const c = importedOf(tk.meta, system);
      if (!c) return null;
      const extra = system === "coc_ap" && !c.position ? { position: square(tk) } : {};
      return { id: tk.id, ...structuredClone(c), ...extra, ...(system === "fap_map" ? {} : sideOf(tk)) };
    };
    if (system === "coc_ap") {
      return {
        participants: tokens.map((tk) => fromFile(tk) ?? ({
          id: tk.id,
          dex: setup[tk.id].dex,
          skills: { dodge: setup[tk.id].dodge },
          weapons: [{ name: tr(T.weaponName), skill: setup[tk.id].weapon }],
          position: square(tk),
          // the token's own fight data (HP, armour, weapons) and its side (COCAP-RND-3)
          ...fightStats(system, tk.meta.stats || {}),
          ...sideOf(tk),
        })),
      };
    }
    if (system === "coc7_house") {
      return { participants: tokens.map((tk) => fromFile(tk) ?? { id: tk.id, dex: setup[tk.id].dex, is_pc: !!setup[tk.id].pc, ...fightStats(system, tk.meta.stats || {}), ...sideOf(tk) }) };
    }
    return { combatants: tokens.map((tk) => fromFile(tk) ?? { id: tk.id, reaction: setup[tk.id].reaction, magic: setup[tk.id].magic, agility: setup[tk.id].agility }) };
  }

  /** A token's side (its metadata's `side`), for the end of the fight: none without one. */
  function sideOf(tk) {
    const side = tk.meta.side;
    return typeof side === "string" && side.length > 0 && side.length <= 64 ? { side } : {};
  }

  /** The `chase_new` arguments: the fugitive and the pursuer the GM chose. */
  function chaseArgs(tokens) {
    const side = (role) => {
      const tk = tokens.find((x) => chaseSetup.roles[x.id] === role);
      if (!tk) return null;
      const s = setup[tk.id];
      return { id: tk.id, mov: s.chase_mov, dex: s.chase_dex, skill: s.chase_skill };
    };
    return { fugitive: side("fugitive"), pursuer: side("pursuer") };
  }

  async function start(tokens) {
    const seed = ctx.newSeed();
    const chase = system === "coc7_house" && chaseSetup.on;
    const C = chase ? NS.Chase : NS.Round;
    const h = C.create(chase ? chaseArgs(tokens) : setupArgs(tokens));
    const state = live.adopt(C, h);
    const names = Object.fromEntries(tokens.map((tk) => [tk.id, tk.name]));
    const weapons = chase || system === "fap_map" ? {} : weaponLabels(system, tokens);
    await ctx.save({ system, ...(chase ? { kind: "chase" } : {}), state, names, ...(Object.keys(weapons).length ? { weapons } : {}), step: 0, log: [{ step: 0, action: null, seed, events: h.created.events }] });
  }

  // ---- texts -------------------------------------------------------------
  function describe(a) {
    if (a.type === "round") return tr(T.chaseRound);
    const who = roundActors(a)[0];
    const p = who ? `${name(who)}${colon}` : "";
    if (system === "fap_map") {
      const d = a.declaration;
      switch (a.type) {
        case "declare": {
          const ex = (x) => (x?.example ? lab(labels.examples?.[`${x.action}/${x.example}`]) || x.example : "");
          const paired = d.paired ? `${actLabel(d.paired.action)}${d.paired.example ? `: ${ex(d.paired)}` : ""}` : "";
          const extra = [ex(d), d.follow ? fmt(T.follow, { who: name(d.follow) }) : "", paired].filter(Boolean).join(", ");
          return `${p}${tr(T.fm.declare)} ${actLabel(d.action)}${extra ? ` (${extra})` : ""}`;
        }
        case "use":
          return `${p}${tr(T.fm.use)} ${actLabel(a.action)}`;
        case "block":
        case "follow":
        case "trigger":
          return `${p}${tr(T.fm[a.type])}${a.target ? ` → ${name(a.target)}` : ""}${a.action && typeof a.action === "string" ? ` ${actLabel(a.action)}` : ""}`;
        default:
          return `${p}${tr(T.fm[a.type]) || a.type}`;
      }
    }
    let s = `${p}${actLabel(a.type)}`;
    if (a.type === "reaction") s += ` ${a.kind ? lab(labels.passives?.[a.kind]) || a.kind : tr(T.takeAttack)}${a.bonus_die ? ` +${tr(T.bonusDie)}` : ""}`;
    if (a.target) s += ` → ${name(a.target)}`;
    if (a.dir) s += ` ${lab(labels.dirs?.[a.dir]) || a.dir}`;
    if (a.weapon) s += ` (${weaponName(a.weapon, who)})`;
    if (a.type === "treat" && a.skill) s += ` ${lab(labels.treat?.[a.skill]) || a.skill}`;
    if (a.type === "other" && a.ap != null) s += ` ${a.ap} AP`;
    if (a.type === "stance") s += ` ${lab(labels.stances?.[a.option]) || a.option}`;
    if (a.type === "passive") s += ` ${lab(labels.passives?.[a.kind]) || a.kind}${a.bonus_die ? ` +${tr(T.bonusDie)}` : ""}`;
    if (a.type === "active" && a.concentration) s += ` (${tr(T.concentration)})`;
    return s;
  }

  function costText(x) {
    if (system === "coc_ap") return x.ap ? `${x.ap} AP` : "";
    if (system === "coc7_house") return x.uses && x.uses !== "none" ? tr(T.uses[x.uses]) : "";
    const parts = [];
    if (x.fap_tenths) parts.push(`${tr(T.fap)} ${tenths(x.fap_tenths)}`);
    if (x.map_tenths) parts.push(`${tr(T.map)} ${tenths(x.map_tenths)}`);
    return parts.join(" · ");
  }

  /** A weapon's display name: its token's `label` for it (in this page's language), else its key. */
  function weaponName(key, owner) {
    const all = ctx.weaponsOf?.() ?? {};
    const l = (owner ? all[owner]?.[key] : undefined) ?? Object.values(all).find((w) => w[key] !== undefined)?.[key];
    return (typeof l === "string" ? l : lab(l)) || key;
  }

  /** An event's sentence (the engine's `text`) in this page's language, its ids shown as names (combatants, weapons). */
  function sentence(text) {
    const names = new Map();
    for (const ws of Object.values(ctx.weaponsOf?.() ?? {})) for (const [k, l] of Object.entries(ws)) if ((typeof l === "string" ? l : lab(l))) names.set(k, typeof l === "string" ? l : lab(l));
    for (const id of Object.keys(rec?.names ?? {})) names.set(id, name(id));
    return namesIn(lab(text), names);
  }

  /** An event as the log shows it: the engine's own sentence (every event of these
   * engines has one); a record without one (an older version's) shows its kind and rule. */
  function eventText(e) {
    if (e.text && typeof e.text === "object" && typeof e.text.en === "string") return sentence(e.text);
    return `${e.event}${e.rule ? ` [${e.rule}]` : ""}`;
  }

  // ---- state summaries -----------------------------------------------------
  /** Whose turn it is, from the state (CoC: `order[turn]`; FAP/MAP: the engine's `turn()` entry of stage `turn`). */
  function current(st) {
    if (st.fugitive) return null;
    if (system === "fap_map") {
      try {
        return NS.roundTurn({ state: st }).active.find((a) => a.stage === "turn")?.id ?? null;
      } catch {
        return null;
      }
    }
    return st.turn == null ? null : st.order?.[st.turn] ?? null;
  }

  /** Per token: the badge text (turn marker and AP / uses / pools). */
  function badges(st) {
    if (st.fugitive) {
      const out = { [st.fugitive.id]: `${tr(T.fugitive)} · ${st.gap}/${st.escape_gap}` };
      if (st.pursuer) out[st.pursuer.id] = `${tr(T.pursuer)} · ${st.gap}`;
      return out;
    }
    const cur = current(st);
    const out = {};
    if (system === "coc_ap") for (const f of st.fighters) out[f.participant.id] = `${f.participant.id === cur ? "▶ " : ""}AP ${f.ap}${hpOf(f.participant.id, st) ? ` · ${tr(T.hp)} ${hpOf(f.participant.id, st)}` : ""}`;
    else if (system === "coc7_house") {
      for (const c of st.combatants) {
        const u = [c.active_used ? "" : "A", c.free_used ? "" : "F"].filter(Boolean).join("");
        out[c.entry.id] = `${c.entry.id === cur ? "▶ " : ""}${c.turn_done ? "✓" : u || "—"} P${c.passive_used ?? 0}${hpOf(c.entry.id, st) ? ` · ${tr(T.hp)} ${hpOf(c.entry.id, st)}` : ""}`;
      }
    } else for (const c of st.combatants) out[c.id] = `${c.id === cur ? "▶ " : ""}FAP ${tenths(c.fap_tenths)} MAP ${tenths(c.map_tenths)}`;
    return out;
  }

  /** A combatant's HP as `hp/max` (CoC 6th and 7th, when tracked), else "". */
  function hpOf(id, st) {
    if (system === "coc_ap") {
      const p = st.fighters?.find((x) => x.participant.id === id)?.participant;
      return p?.hp_max != null ? `${p.hp ?? p.hp_max}/${p.hp_max}` : "";
    }
    if (system === "coc7_house") {
      const c = st.combatants?.find((x) => x.entry.id === id);
      return c?.hp != null ? (c.hp_max != null ? `${c.hp}/${c.hp_max}` : String(c.hp)) : "";
    }
    return "";
  }

  function rows(st) {
    // HP, where the engine tracks it (COCAP-ACT-2, C7H-ACT-1)
    const withHp = (t) => {
      if (!t.rows.some((r) => hpOf(r.id, st))) return t;
      return { head: [tr(T.hp), ...t.head], rows: t.rows.map((r) => ({ ...r, cells: [`<span class="hp">${esc(hpOf(r.id, st))}</span>`, ...r.cells] })) };
    };
    if (system === "coc_ap") {
      return withHp({
        head: [tr(T.ap), tr(T.dex), tr(T.used)],
        rows: st.order.map((id) => {
          const f = st.fighters.find((x) => x.participant.id === id);
          const used = [f.dodges ? `${actLabel("dodge")}×${f.dodges}` : "", f.parried ? actLabel("parry") : "", f.jumped ? actLabel("jump") : "", f.evaded ? actLabel("emergency_evasion") : "", f.dodge_focus ? actLabel("dodge_focus") : ""].filter(Boolean).join("、");
          return { id, done: f.turn_done, cells: [`<span class="ap">${f.ap}</span>`, esc(f.participant.dex), esc(used)] };
        }),
      });
    }
    if (system === "coc7_house") {
      return withHp({
        head: [actLabel("move"), actLabel("active"), tr(T.passives), actLabel("free"), tr(T.stance)],
        rows: st.order.map((id) => {
          const c = st.combatants.find((x) => x.entry.id === id);
          const yes = (b) => (b ? "✓" : "");
          return { id, done: c.turn_done, cells: [yes(c.moved), yes(c.active_used), esc(c.passive_used ?? 0), yes(c.free_used), esc(c.stance ? lab(labels.stances?.[c.stance]) || c.stance : "")] };
        }),
      });
    }
    return {
      head: [tr(T.fap), tr(T.map), tr(T.declared)],
      rows: st.combatants.map((c) => ({
        id: c.id,
        done: false,
        cells: [
          `<span class="fap">${tenths(c.fap_tenths)}</span>/${tenths(c.fap_max_tenths)}`,
          `<span class="map">${tenths(c.map_tenths)}</span>/${tenths(c.map_max_tenths)}`,
          esc((c.declared || []).map((d) => `${actLabel(d.declaration.action)}${d.status !== "pending" ? ` (${tr(T.fmEvent[d.status]) || d.status})` : ""}`).join("、")),
        ],
      })),
    };
  }

  function render(record, view) {
    rec = record;
    const st = view ?? record.state;
    let legal = [];
    try {
      legal = live.for(clsOf(record), record.state).legalActions();
    } catch (e) {
      ctx.showError(e);
    }
    const cur = current(record.state);
    $("#encounter").dataset.step = String(record.step ?? 0);
    if (isChase(record)) return renderChase(record, st, legal);
    $("#phase").dataset.phase = st.phase ?? (st.turn == null ? "over" : "turns");
    $("#phase").textContent = `${fmt(T.round, { n: st.round })}${st.phase ? ` · ${tr(T.phase[st.phase])}` : ""}`;
    $("#turn").dataset.current = cur ?? "";
    $("#turn").textContent = cur ? `${system === "fap_map" ? tr(T.next) : tr(T.turn)}${colon}${name(cur)}` : system === "fap_map" ? "" : tr(T.roundOver);
    // an attack waiting for its target's reaction (the `reaction` stage), and the end of the fight
    const pend = system !== "fap_map" && st.pending && typeof st.pending.target === "string" ? st.pending : null;
    const mineToo = pend ? !!ctx.owns?.(pend.target) : false;
    $("#turn").dataset.stage = pend ? "reaction" : "";
    $("#turn").dataset.target = pend?.target ?? "";
    $("#turn").dataset.mine = mineToo ? "true" : "";
    if (pend) $("#turn").textContent = fmt(mineToo ? T.reactNow : T.attacking, { attacker: name(pend.attacker), target: name(pend.target), weapon: weaponName(pend.weapon, pend.attacker) });
    const over = outcomeOf(record);
    $("#turn").dataset.outcome = over ? "over" : "";
    if (over) {
      const side = over.side ?? over.winner ?? null;
      const members = (st.combatants ?? st.fighters ?? []).map((c) => (c.entry ? { id: c.entry.id, side: c.side } : { id: c.participant?.id, side: c.participant?.side ?? c.participant?.id })).filter((c) => side !== null && c.side === side).map((c) => name(c.id));
      $("#turn").textContent = over.text ? sentence(over.text) : side ? fmt(T.fightWon, { side: members.join(", ") || side }) : tr(T.fightOver);
    }
    const t = rows(st);
    $("#order").innerHTML = `<tr><th></th>${t.head.map((x) => `<th>${esc(x)}</th>`).join("")}</tr>${t.rows
      .map((r) => `<tr data-character="${esc(r.id)}" class="${r.id === cur ? "current" : ""}${r.done ? " done" : ""}"><td>${esc(name(r.id))}</td>${r.cells.map((c) => `<td>${c}</td>`).join("")}</tr>`)
      .join("")}`;
    // Buttons: GM actions (naming nobody) first, then per combatant.
    // FAP/MAP lists each declaration's variants (readied with each paired action,
    // follows, examples): those are folded under "more" per combatant.
    const variant = (x) => system === "fap_map" && x.action.type === "declare" && (x.action.declaration.paired || x.action.declaration.follow || x.action.declaration.example);
    const groups = new Map([["", { main: [], more: [] }]]);
    legal.forEach((x, i) => {
      const who = roundActors(x.action)[0] ?? "";
      if (!groups.has(who)) groups.set(who, { main: [], more: [] });
      const ok = ctx.canAct(x.action);
      // while an attack waits for its reaction, a player's page offers only their own reactions
      if (pend && !ctx.isGM?.() && !ctx.owns?.(who)) return;
      const c = costText(x);
      const tgt = typeof x.action.target === "string" ? ` data-target="${esc(x.action.target)}"` : "";
      const opt = typeof x.action.kind === "string" ? ` data-option="${esc(x.action.kind)}"` : "";
      groups.get(who)[variant(x) ? "more" : "main"].push(`<button type="button" data-i="${i}" data-kind="${esc(x.action.type)}" data-actor="${esc(who)}"${tgt}${opt} ${ok ? "" : "disabled"}>${esc(describe({ ...x.action, actor: undefined, combatant: undefined }))}${c ? `<small>${esc(c)}</small>` : ""}</button>`);
    });
    const more = (g) => (g.more.length ? `<details class="more"><summary>${esc(tr(T.more))} (${g.more.length})</summary>${g.more.join("")}</details>` : "");
    $("#actions").innerHTML = [...groups.entries()]
      .filter(([, g]) => g.main.length || g.more.length)
      .map(([who, g]) => (who ? `<div class="member-actions" data-actor="${esc(who)}"><b>${esc(name(who))}</b>${g.main.join("")}${more(g)}</div>` : `<div class="now">${g.main.join("")}${more(g)}</div>`))
      .join("");
    $("#actions").onclick = (ev) => {
      const b = ev.target.closest("button[data-i]");
      if (b && !b.disabled) ctx.perform(legal[Number(b.dataset.i)].action);
    };
    ctx.renderLog(record.log, (a) => (a ? describe(a) : null), eventText);
  }

  /** The engine's `outcome()` of a record (null while the fight goes on, and for a view it cannot load). */
  function outcomeOf(record) {
    if (record && "outcome" in record) return record.outcome ?? null; // (a player's view: the GM's client sent it)
    try {
      const h = live.for(clsOf(record), record.state);
      return h.outcome ?? null;
    } catch {
      return null;
    }
  }

  function renderChase(record, st, legal) {
    $("#phase").dataset.phase = st.status;
    $("#phase").textContent = `${tr(T.chase)} · ${fmt(T.round, { n: st.round })} · ${tr(T.status[st.status]) || st.status}`;
    $("#turn").dataset.current = "";
    $("#turn").textContent = fmt(T.gap, { gap: st.gap, escape: st.escape_gap, wins: st.fugitive_wins, need: st.wins_needed });
    const row = (c, role) => (c ? `<tr data-character="${esc(c.id)}"><td>${esc(name(c.id))}</td><td>${esc(tr(T[role]))}</td><td>${esc(c.mov)}</td><td>${esc(c.dex)}</td><td>${esc(c.skill)}</td></tr>` : "");
    $("#order").innerHTML = `<tr><th></th><th>${esc(tr(T.role))}</th><th>MOV</th><th>DEX</th><th>${esc(tr(T.chaseSkill))}</th></tr>${row(st.fugitive, "fugitive")}${row(st.pursuer, "pursuer")}`;
    $("#actions").innerHTML = `<div class="now">${legal.map((x, i) => `<button type="button" data-i="${i}" data-kind="${esc(x.action.type)}" data-actor="" ${ctx.canAct(x.action) ? "" : "disabled"}>${esc(describe(x.action))}</button>`).join("")}</div>`;
    $("#actions").onclick = (ev) => {
      const b = ev.target.closest("button[data-i]");
      if (b && !b.disabled) ctx.perform(legal[Number(b.dataset.i)].action);
    };
    ctx.renderLog(record.log, (a) => (a ? describe(a) : null), eventText);
  }

  /** Apply one action with a fresh seed and store the new state; an illegal one changes nothing. */
  async function act(action) {
    if (busy || !rec) return false;
    busy = true;
    ctx.clearError();
    const r = rec;
    let stored = false;
    try {
      const seed = ctx.newSeed();
      const out = live.act(clsOf(r), r.state, action, { seed });
      const step = (r.step ?? 0) + 1;
      try {
        stored = await ctx.save({ ...r, state: out.state, step, log: [...(r.log || []), { step, seed, action, events: out.events }].slice(-LOG_MAX) });
      } finally {
        if (!stored) live.undo();
      }
    } catch (e) {
      ctx.showError(e);
    } finally {
      busy = false;
      ctx.render();
    }
    return stored;
  }

  async function undo() {
    if (busy || !rec || live.undoDepth === 0) return;
    busy = true;
    try {
      const state = live.undo();
      const step = Math.max(0, (rec.step ?? 0) - 1);
      await ctx.save({ ...rec, state, step, log: (rec.log || []).filter((e) => e.step == null || e.step <= step) });
    } catch (e) {
      ctx.showError(e);
    } finally {
      busy = false;
      ctx.render();
    }
  }

  return {
    /** The handle class of the record shown (a chase or a round). */
    get Cls() {
      return clsOf(rec);
    },
    /** The handle class of a record (before it is rendered). */
    clsFor: clsOf,
    get stem() {
      return isChase(rec) ? "chase" : "round";
    },
    renderSetup,
    start,
    render,
    act,
    undo,
    badges,
    describe,
    eventText,
    actorsOf: roundActors,
  };
}
