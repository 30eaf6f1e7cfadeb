// Texts of the TMD encounter mode in the four languages of the project
// (ja / zh-Hant / zh-Hans / en). The terms are the rulebook's own (the seed is
// Chinese: TMD：新秩序000 §3.1 战斗规则; RULES.md, TMD-* sections, records an
// English digest with a glossary): 转化 convert, 透支 overdraw, 保留 retain,
// 延后先攻 delay, 插入动作 interrupt, 结算 resolve, 突袭轮 surprise round,
// 措手不及/先制, 伏地 drop prone, 基础/额外行动点 base/extra AP, 回合 turn,
// 战斗轮 round, 场景 scene. zh-Hant is the same wording in traditional
// characters; ja and en translate it. Action-type names (花招动作,
// トリックアクション, Trick action …) come from gunbai's catalogue
// (`tmd.action_types` → labels), not from this file.
//
// One template per action kind (the buttons), in each language:
// A[kind][lang](action, h); `h` formats names and values (see createTmdText). A
// kind with no template falls back to its id and fields (`type key=value …`), so a
// future kind still shows. The log prints the core's own sentence of each event
// (its `text`), with the characters' ids shown as their names.

import { namesIn } from "./names.js";

/** UI strings of the TMD mode: S[key][lang]. */
export const S = {
  roundN: { ja: "第{n}ラウンド", "zh-Hant": "第{n}輪", "zh-Hans": "第{n}轮", en: "Round {n}" },
};

/** Phases of `TmdEncounterState.phase`. */
export const PHASES = {
  surprise: { ja: "奇襲ラウンド", "zh-Hant": "突襲輪", "zh-Hans": "突袭轮", en: "Surprise round" },
  delays: { ja: "遅延の宣言", "zh-Hant": "延後先攻宣告", "zh-Hans": "延后先攻宣告", en: "Delay declarations" },
  turns: { ja: "手番", "zh-Hant": "回合", "zh-Hans": "回合", en: "Turns" },
  ended: { ja: "戦闘終了", "zh-Hant": "戰鬥結束", "zh-Hans": "战斗结束", en: "Battle over" },
};

const SEP = { ja: "、", "zh-Hant": "、", "zh-Hans": "、", en: ", " };
const COLON = { ja: "：", "zh-Hant": "：", "zh-Hans": "：", en: ": " };

/** Effect durations (TMD-TIME-3), for the buttons. */
export const DURATION = {
  buff_one_round: { ja: "バフ・1ラウンド", "zh-Hant": "增益・一輪", "zh-Hans": "增益・一轮", en: "buff, one round" },
  debuff_one_round: { ja: "デバフ・1ラウンド", "zh-Hant": "負面・一輪", "zh-Hans": "负面・一轮", en: "debuff, one round" },
  scene: { ja: "シーン中", "zh-Hant": "本場景", "zh-Hans": "本场景", en: "for the scene" },
};
/** Abilities the core names itself (`action_used.ability`). */
export const ABILITY = {
  drop_prone: { ja: "伏せ", "zh-Hant": "伏地", "zh-Hans": "伏地", en: "drop prone" },
  overdraw: { ja: "前借り", "zh-Hant": "透支", "zh-Hans": "透支", en: "overdraw" },
};
/** Free-action defaults of the core (`use_free` without purpose/source). */
const FREE_DEFAULT = { purpose: "free", source: "basic" };

/** Cost parts of a legal action. */
export const COST = {
  ap: { ja: "{n} AP", "zh-Hant": "{n} AP", "zh-Hans": "{n} AP", en: "{n} AP" },
  owed: { ja: "次の手番開始時 −{n} AP", "zh-Hant": "下次回合開始時 −{n} AP", "zh-Hans": "下次回合开始时 −{n} AP", en: "−{n} AP at its next turn start" },
  spends: { ja: "{a}を消費", "zh-Hant": "消耗{a}", "zh-Hans": "消耗{a}", en: "spends {a}" },
};

// ---- actions (buttons) ------------------------------------------------------
// h.c(a) = "Name：" (the acting character with a colon), h.n(id) = a name,
// h.t(type) = an action type's label, h.q(text) = quoted free text.

/** One sentence per `TmdAction.type`. */
export const A = {
  begin_combat: {
    ja: () => "奇襲ラウンドを終えてイニシアチブ判定",
    "zh-Hant": () => "結束突襲輪，進行先攻檢定",
    "zh-Hans": () => "结束突袭轮，进行先攻检定",
    en: () => "End the surprise round: roll initiative",
  },
  delay: {
    ja: (a, h) => `${h.c(a)}${h.n(a.after)} の手番の後まで遅延`,
    "zh-Hant": (a, h) => `${h.c(a)}延後先攻至 ${h.n(a.after)} 之後`,
    "zh-Hans": (a, h) => `${h.c(a)}延后先攻至 ${h.n(a.after)} 之后`,
    en: (a, h) => `${h.c(a)}delay until after ${h.n(a.after)}'s turn`,
  },
  start_turns: {
    ja: () => "遅延の宣言を締め切って手番開始",
    "zh-Hant": () => "宣告完畢，開始回合",
    "zh-Hans": () => "宣告完毕，开始回合",
    en: () => "Done declaring delays: start the turns",
  },
  convert: {
    ja: (a, h) => `${h.c(a)}${h.t(a.action_type)} ×${a.count} に変換`,
    "zh-Hant": (a, h) => `${h.c(a)}轉化${h.t(a.action_type)} ×${a.count}`,
    "zh-Hans": (a, h) => `${h.c(a)}转化${h.t(a.action_type)} ×${a.count}`,
    en: (a, h) => `${h.c(a)}convert ${h.t(a.action_type)} ×${a.count}`,
  },
  convert_reflex: {
    ja: (a, h) => `${h.c(a)}手番外に${h.t("reflex")} ×${a.count} に変換`,
    "zh-Hant": (a, h) => `${h.c(a)}回合外轉化${h.t("reflex")} ×${a.count}`,
    "zh-Hans": (a, h) => `${h.c(a)}回合外转化${h.t("reflex")} ×${a.count}`,
    en: (a, h) => `${h.c(a)}convert ${h.t("reflex")} ×${a.count} out of turn`,
  },
  use_action: {
    ja: (a, h) => {
      const ab = a.ability ? `「${a.ability}」` : "";
      if (a.action_type === "reflex") return `${h.c(a)}${h.t("reflex")}で${a.ability ? ab : h.ability("drop_prone")}（${h.t(a.using || "reflex")}を消費）`;
      if (a.action_type === "full_round") return `${h.c(a)}${h.t("full_round")}${ab}（${h.t(a.using || "standard")}＋${h.t(a.companion || "move")}）`;
      if (a.using && a.using !== a.action_type) return `${h.c(a)}${h.t(a.action_type)}${ab}（${h.t(a.using)}で代用）`;
      return `${h.c(a)}${h.t(a.action_type)}${ab}を使用`;
    },
    "zh-Hant": (a, h) => {
      const ab = a.ability ? `「${a.ability}」` : "";
      if (a.action_type === "reflex") return `${h.c(a)}以${h.t("reflex")}${a.ability ? `使用${ab}` : h.ability("drop_prone")}（消耗${h.t(a.using || "reflex")}）`;
      if (a.action_type === "full_round") return `${h.c(a)}${h.t("full_round")}${ab}（${h.t(a.using || "standard")}＋${h.t(a.companion || "move")}）`;
      if (a.using && a.using !== a.action_type) return `${h.c(a)}${h.t(a.action_type)}${ab}（以${h.t(a.using)}代替）`;
      return `${h.c(a)}使用${h.t(a.action_type)}${ab}`;
    },
    "zh-Hans": (a, h) => {
      const ab = a.ability ? `「${a.ability}」` : "";
      if (a.action_type === "reflex") return `${h.c(a)}以${h.t("reflex")}${a.ability ? `使用${ab}` : h.ability("drop_prone")}（消耗${h.t(a.using || "reflex")}）`;
      if (a.action_type === "full_round") return `${h.c(a)}${h.t("full_round")}${ab}（${h.t(a.using || "standard")}＋${h.t(a.companion || "move")}）`;
      if (a.using && a.using !== a.action_type) return `${h.c(a)}${h.t(a.action_type)}${ab}（以${h.t(a.using)}代替）`;
      return `${h.c(a)}使用${h.t(a.action_type)}${ab}`;
    },
    en: (a, h) => {
      const ab = a.ability ? ` "${a.ability}"` : "";
      if (a.action_type === "reflex") return `${h.c(a)}${h.t("reflex")}: ${a.ability ? `use${ab}` : h.ability("drop_prone")} (spends a ${h.t(a.using || "reflex")})`;
      if (a.action_type === "full_round") return `${h.c(a)}${h.t("full_round")}${ab} (${h.t(a.using || "standard")} + ${h.t(a.companion || "move")})`;
      if (a.using && a.using !== a.action_type) return `${h.c(a)}${h.t(a.action_type)}${ab} (using a ${h.t(a.using)})`;
      return `${h.c(a)}use ${h.t(a.action_type)}${ab}`;
    },
  },
  use_free: {
    ja: (a, h) => `${h.c(a)}${h.t("free")}を使用${h.free(a)}`,
    "zh-Hant": (a, h) => `${h.c(a)}使用${h.t("free")}${h.free(a)}`,
    "zh-Hans": (a, h) => `${h.c(a)}使用${h.t("free")}${h.free(a)}`,
    en: (a, h) => `${h.c(a)}take a ${h.t("free")}${h.free(a)}`,
  },
  overdraw: {
    ja: (a, h) => `${h.c(a)}${h.t(a.action_type)}を前借り`,
    "zh-Hant": (a, h) => `${h.c(a)}透支${h.t(a.action_type)}`,
    "zh-Hans": (a, h) => `${h.c(a)}透支${h.t(a.action_type)}`,
    en: (a, h) => `${h.c(a)}overdraw ${h.t(a.action_type)}`,
  },
  retain: {
    ja: (a, h) => `${h.c(a)}「${a.ability}」のために${h.t(a.action_type)}を温存`,
    "zh-Hant": (a, h) => `${h.c(a)}為「${a.ability}」保留${h.t(a.action_type)}`,
    "zh-Hans": (a, h) => `${h.c(a)}为「${a.ability}」保留${h.t(a.action_type)}`,
    en: (a, h) => `${h.c(a)}retain ${h.t(a.action_type)} for "${a.ability}"`,
  },
  grant: {
    ja: (a, h) => `${h.c(a)}${h.t(a.action_type)}を付与（手番開始時に獲得）`,
    "zh-Hant": (a, h) => `${h.c(a)}給予${h.t(a.action_type)}（回合開始時獲得）`,
    "zh-Hans": (a, h) => `${h.c(a)}给予${h.t(a.action_type)}（回合开始时获得）`,
    en: (a, h) => `${h.c(a)}grant ${h.t(a.action_type)} (gained at its turn start)`,
  },
  gain_ap: {
    ja: (a, h) => `${h.c(a)}${a.reflex_only ? "手番外専用" : "追加"} AP +${a.amount}`,
    "zh-Hant": (a, h) => `${h.c(a)}獲得 ${a.amount} 點${a.reflex_only ? "僅能在回合外使用的" : "額外"} AP`,
    "zh-Hans": (a, h) => `${h.c(a)}获得 ${a.amount} 点${a.reflex_only ? "仅能在回合外使用的" : "额外"} AP`,
    en: (a, h) => `${h.c(a)}gain ${a.amount} ${a.reflex_only ? "out-of-turn-only" : "extra"} AP`,
  },
  set_disabled: {
    ja: (a, h) => `${h.c(a)}${h.t(a.action_type)}を${a.disabled ? "使用不能にする" : "再び使用可能にする"}`,
    "zh-Hant": (a, h) => `${h.c(a)}${a.disabled ? "失去" : "恢復"}使用${h.t(a.action_type)}的能力`,
    "zh-Hans": (a, h) => `${h.c(a)}${a.disabled ? "失去" : "恢复"}使用${h.t(a.action_type)}的能力`,
    en: (a, h) => `${h.c(a)}${a.disabled ? "lose" : "regain"} the use of ${h.t(a.action_type)}`,
  },
  end_turn: {
    ja: (a, h) => `${h.c(a)}手番終了`,
    "zh-Hant": (a, h) => `${h.c(a)}結束回合`,
    "zh-Hans": (a, h) => `${h.c(a)}结束回合`,
    en: (a, h) => `${h.c(a)}end the turn`,
  },
  join: {
    ja: (a, h) => `戦闘に参加：${h.ns((a.characters || []).map((c) => c.id))}`,
    "zh-Hant": (a, h) => `加入戰鬥：${h.ns((a.characters || []).map((c) => c.id))}`,
    "zh-Hans": (a, h) => `加入战斗：${h.ns((a.characters || []).map((c) => c.id))}`,
    en: (a, h) => `Join the combat: ${h.ns((a.characters || []).map((c) => c.id))}`,
  },
  leave: {
    ja: (a, h) => `${h.c(a)}戦闘から離脱`,
    "zh-Hant": (a, h) => `${h.c(a)}離開戰鬥`,
    "zh-Hans": (a, h) => `${h.c(a)}离开战斗`,
    en: (a, h) => `${h.c(a)}leave the combat`,
  },
  set_base_initiative: {
    ja: (a, h) => `${h.c(a)}基本イニシアチブ値を ${a.base_initiative} に`,
    "zh-Hant": (a, h) => `${h.c(a)}基礎先攻值改為 ${a.base_initiative}`,
    "zh-Hans": (a, h) => `${h.c(a)}基础先攻值改为 ${a.base_initiative}`,
    en: (a, h) => `${h.c(a)}set base initiative to ${a.base_initiative}`,
  },
  apply_effect: {
    ja: (a, h) => `${h.n(a.applier)}：${h.n(a.target)} に「${a.name}」（${h.dur(a.duration)}）`,
    "zh-Hant": (a, h) => `${h.n(a.applier)}：對 ${h.n(a.target)} 施加「${a.name}」（${h.dur(a.duration)}）`,
    "zh-Hans": (a, h) => `${h.n(a.applier)}：对 ${h.n(a.target)} 施加「${a.name}」（${h.dur(a.duration)}）`,
    en: (a, h) => `${h.n(a.applier)}: apply "${a.name}" to ${h.n(a.target)} (${h.dur(a.duration)})`,
  },
  remove_effect: {
    ja: (a, h) => `効果「${h.effect(a.id)}」を除去`,
    "zh-Hant": (a, h) => `移除效果「${h.effect(a.id)}」`,
    "zh-Hans": (a, h) => `移除效果「${h.effect(a.id)}」`,
    en: (a, h) => `Remove the effect "${h.effect(a.id)}"`,
  },
  scene_change: {
    ja: () => "シーン変更",
    "zh-Hant": () => "變換場景",
    "zh-Hans": () => "变换场景",
    en: () => "Change the scene",
  },
  teleport: {
    ja: (a, h) => `${h.c(a)}${a.observed ? "シーン内でテレポート（観測されている）" : "テレポートでシーンから離脱（誰にも観測されない）"}`,
    "zh-Hant": (a, h) => `${h.c(a)}${a.observed ? "場景內傳送（仍可被觀測）" : "傳送並離開場景（無人可觀測）"}`,
    "zh-Hans": (a, h) => `${h.c(a)}${a.observed ? "场景内传送（仍可被观测）" : "传送并离开场景（无人可观测）"}`,
    en: (a, h) => `${h.c(a)}${a.observed ? "teleport within the scene (observed)" : "teleport out of the scene (unobserved)"}`,
  },
  announce: {
    ja: (a, h) => `${h.c(a)}行動${h.q(a.label)}を宣言（割り込み可能）`,
    "zh-Hant": (a, h) => `${h.c(a)}宣布動作${h.q(a.label)}（可被插入）`,
    "zh-Hans": (a, h) => `${h.c(a)}宣布动作${h.q(a.label)}（可被插入）`,
    en: (a, h) => `${h.c(a)}announce an action${h.q(a.label)} (open to interrupts)`,
  },
  interrupt: {
    ja: (a, h) => `${h.c(a)}${a.reflex ? `${h.t(a.using || "reflex")}で` : ""}割り込み${h.q(a.label)}${a.ignores_preemption ? "（【先制】を無視）" : ""}`,
    "zh-Hant": (a, h) => `${h.c(a)}${a.reflex ? `以${h.t(a.using || "reflex")}` : ""}插入動作${h.q(a.label)}${a.ignores_preemption ? "（無視【先制】）" : ""}`,
    "zh-Hans": (a, h) => `${h.c(a)}${a.reflex ? `以${h.t(a.using || "reflex")}` : ""}插入动作${h.q(a.label)}${a.ignores_preemption ? "（无视【先制】）" : ""}`,
    en: (a, h) => `${h.c(a)}interrupt${h.q(a.label)}${a.reflex ? ` with a ${h.t(a.using || "reflex")}` : ""}${a.ignores_preemption ? " (ignoring Pre-emption)" : ""}`,
  },
  pass: {
    ja: (a, h) => `${h.front("ja")}割り込みなし`,
    "zh-Hant": (a, h) => `${h.front("zh-Hant")}無人插入`,
    "zh-Hans": (a, h) => `${h.front("zh-Hans")}无人插入`,
    en: (a, h) => `${h.front("en")}no interrupts`,
  },
  resolve: {
    ja: (a, h) => `解決：${h.front("ja", true)}`,
    "zh-Hant": (a, h) => `結算：${h.front("zh-Hant", true)}`,
    "zh-Hans": (a, h) => `结算：${h.front("zh-Hans", true)}`,
    en: (a, h) => `Resolve ${h.front("en", true)}`,
  },
  end_encounter: {
    ja: () => "戦闘終了",
    "zh-Hant": () => "結束戰鬥",
    "zh-Hans": () => "结束战斗",
    en: () => "End the battle",
  },
  // (the GM's entries: the seed has no damage rules)
  gm_damage: {
    ja: (a, h) => `GM の裁定：${h.n(a.target)} に ${a.amount} ダメージ`,
    "zh-Hant": (a, h) => `GM 裁定：${h.n(a.target)} 受到 ${a.amount} 點傷害`,
    "zh-Hans": (a, h) => `GM 裁定：${h.n(a.target)} 受到 ${a.amount} 点伤害`,
    en: (a, h) => `GM ruling: ${a.amount} damage to ${h.n(a.target)}`,
  },
  gm_down: {
    ja: (a, h) => `GM の裁定：${h.n(a.target)} は戦闘不能`,
    "zh-Hant": (a, h) => `GM 裁定：${h.n(a.target)} 無法戰鬥`,
    "zh-Hans": (a, h) => `GM 裁定：${h.n(a.target)} 无法战斗`,
    en: (a, h) => `GM ruling: ${h.n(a.target)} is down`,
  },
};

/**
 * Formatters for one language. `actionTypes`: `tmd.action_types({}).action_types`
 * (labels); `name(id)`: a character's display name; `state()`: the current
 * encounter state (effect names, the pending interrupt chain), may return null.
 * Returns describe(action), costText(action, cost), eventText(event) and
 * known{Action,Event}(kind).
 */
export function createTmdText({ lang, actionTypes = [], name = (id) => id, state = () => null }) {
  const L = ["ja", "zh-Hant", "zh-Hans", "en"].includes(lang) ? lang : "en";
  const labelKey = { ja: "ja", "zh-Hant": "zh_hant", "zh-Hans": "zh_hans", en: "en" }[L];
  const labels = Object.fromEntries((actionTypes || []).map((a) => [a.action_type, a.labels || {}]));
  const tr = (entry) => (entry ? entry[L] ?? entry.en : undefined);
  const fmt = (entry, vars) => tr(entry).replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
  const n = (id) => String(name(id) ?? id);
  const t = (type) => labels[type]?.[labelKey] || labels[type]?.en || String(type);
  const h = {
    n,
    ns: (ids) => (ids?.length ? ids.map(n).join(SEP[L]) : "—"),
    c: (a) => (a.actor ? `${n(a.actor)}${COLON[L]}` : ""),
    t,
    dur: (d) => tr(DURATION[d]) ?? String(d),
    ability: (a) => tr(ABILITY[a]) ?? (L === "en" ? `"${a}"` : `「${a}」`),
    q: (text) => (text ? (L === "en" ? ` "${text}"` : `「${text}」`) : ""),
    effect: (id) => state()?.effects?.find((x) => x.id === id)?.name ?? `#${id}`,
    // The entry at the front of the pending chain (what `pass`/`resolve` act on).
    front: (lg, withWho = false) => {
      const f = state()?.chain?.entries?.[0];
      if (!f) return withWho ? { ja: "次の保留中の行動", "zh-Hant": "下一個待處理動作", "zh-Hans": "下一个待处理动作", en: "the next pending action" }[lg] : "";
      if (withWho) return { ja: `${n(f.character)} の行動 #${f.id}`, "zh-Hant": `${n(f.character)} 的動作 #${f.id}`, "zh-Hans": `${n(f.character)} 的动作 #${f.id}`, en: `${n(f.character)}'s action #${f.id}` }[lg];
      return { ja: `#${f.id}：`, "zh-Hant": `#${f.id}：`, "zh-Hans": `#${f.id}：`, en: `#${f.id}: ` }[lg];
    },
    // Purpose and source of a free action (the core's defaults are not shown).
    free: (x) => {
      const p = x.purpose && x.purpose !== FREE_DEFAULT.purpose ? x.purpose : "";
      const s = x.source && x.source !== FREE_DEFAULT.source ? x.source : "";
      const src = { ja: "出典", "zh-Hant": "來源", "zh-Hans": "来源", en: "source" }[L];
      if (L === "en") return `${p ? `: "${p}"` : ""}${s ? ` (${src}: ${s})` : ""}`;
      return `${p ? `：${p}` : ""}${s ? `（${src}：${s}）` : ""}`;
    },
  };

  /** Any other kind: its id and fields, ids shown as names. */
  const raw = (kind, obj, key) => {
    const parts = Object.entries(obj || {})
      .filter(([k]) => k !== key)
      .map(([k, v]) => `${k}=${typeof v === "string" && n(v) !== v ? n(v) : JSON.stringify(v)}`);
    return `${kind}${parts.length ? ` ${parts.join(" ")}` : ""}`;
  };
  const run = (table, kind, obj, key) => {
    const f = table[kind]?.[L] ?? table[kind]?.en;
    if (f) {
      try {
        return f(obj, h);
      } catch {
        /* a malformed record: fall through to the raw form */
      }
    }
    return raw(kind, obj, key);
  };

  /** The characters' ids a sentence of the core may name, each with its display name:
   * the encounter's characters and the ids the event itself names (one who has left
   * the encounter since keeps its name in the log). */
  const idNames = (e) => {
    const m = new Map();
    const add = (v) => {
      if (typeof v === "string" && v) m.set(v, n(v));
      else if (Array.isArray(v)) v.forEach(add);
      else if (v && typeof v === "object" && "id" in v) add(v.id);
    };
    for (const c of state()?.characters ?? []) add(c.id);
    for (const k of ["character", "characters", "attacker", "after", "first", "locked_out", "caught_off_guard", "immune", "turns", "order", "entries"]) add(e[k]);
    if (e.effect) add([e.effect.applier, e.effect.target]);
    return m;
  };
  /** The core's sentence of an event (`text`, four languages), ids shown as names. */
  const sentence = (e) => {
    const text = e?.text;
    if (!text || typeof text !== "object" || typeof text.en !== "string") return null;
    return namesIn(String(text[labelKey] ?? text.en), idNames(e));
  };

  return {
    describe: (action) => run(A, action?.type, action, "type"),
    /** An event as the log shows it: the core's sentence; an event without one (a record
     * from an older version) shows its id and fields. */
    eventText: (e) => sentence(e) ?? raw(e?.event, e, "event"),
    /** The fallback forms (what an unknown kind shows). */
    fallbackAction: (action) => raw(action?.type, action, "type"),
    fallbackEvent: (e) => raw(e?.event, e, "event"),
    /** A kind has a sentence in this language (else English, else the fallback). */
    knownAction: (kind) => Object.hasOwn(A, kind) && typeof A[kind][L] === "function",
    /** The event carries the core's sentence. */
    knownEvent: (e) => sentence(e) !== null,
    /** The cost `encounter_legal_actions` reports, as a short text ("" when free). */
    costText(action, cost) {
      if (!cost) return "";
      const parts = [];
      if (cost.ap) parts.push(fmt(action?.type === "overdraw" ? COST.owed : COST.ap, { n: cost.ap }));
      // use_action and interrupt name what they spend in their own sentence.
      if (cost.actions?.length && !["use_action", "interrupt"].includes(action?.type)) {
        parts.push(fmt(COST.spends, { a: cost.actions.map(t).join(L === "en" ? " + " : "＋") }));
      }
      return parts.join(L === "en" ? ", " : "、");
    },
    typeLabel: t,
    duration: (d) => h.dur(d),
    phase: (p) => tr(PHASES[p]) ?? String(p),
    roundN: (r) => fmt(S.roundN, { n: r }),
  };
}
