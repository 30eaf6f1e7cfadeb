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
// One template per action kind (the buttons) and per event kind (the log), in
// each language: A[kind][lang](action, h) and E[event][lang](event, h); `h`
// formats names and values (see createTmdText). A kind with no template falls
// back to its id and fields (`type key=value …`), so a future kind still shows.

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

/** Why a scene ended (`scene_ended.reason`, TMD-SCN-1/3/5). */
export const SCENE_REASON = {
  surprise_round: { ja: "奇襲ラウンドの直前", "zh-Hant": "突襲輪即將開始", "zh-Hans": "突袭轮即将开始", en: "a surprise round is about to begin" },
  battle_start: { ja: "戦闘開始", "zh-Hant": "戰鬥開始", "zh-Hans": "战斗开始", en: "the battle begins" },
  two_hours: { ja: "2 時間経過", "zh-Hant": "已持續兩小時", "zh-Hans": "已持续两小时", en: "it has lasted two hours" },
  scene_change: { ja: "シーン変更", "zh-Hant": "變換場景", "zh-Hans": "变换场景", en: "scene change" },
  battle_end: { ja: "戦闘終了", "zh-Hant": "戰鬥結束", "zh-Hans": "战斗结束", en: "the battle ends" },
};
/** Why an effect ended (`effect_ended.reason`, TMD-TIME-3, TMD-SCN-2). */
export const EFFECT_REASON = {
  scene_change: { ja: "シーン変更", "zh-Hant": "變換場景", "zh-Hans": "变换场景", en: "scene change" },
  applier_turn_start: { ja: "付与者の手番開始", "zh-Hant": "施加者的回合開始", "zh-Hans": "施加者的回合开始", en: "the applier's turn began" },
  target_turn_end: { ja: "対象の手番終了", "zh-Hant": "被施加者的回合結束", "zh-Hans": "被施加者的回合结束", en: "the target's turn ended" },
  removed: { ja: "除去", "zh-Hant": "被移除", "zh-Hans": "被移除", en: "removed" },
  left: { ja: "関係者が戦闘から離脱", "zh-Hant": "相關角色離開戰鬥", "zh-Hans": "相关角色离开战斗", en: "a character involved left the combat" },
  left_scene: { ja: "関係者がシーンから離脱", "zh-Hant": "相關角色離開場景", "zh-Hans": "相关角色离开场景", en: "a character involved left the scene" },
};
/** Why initiative was rolled (`initiative_rolled.reason`, TMD-INI-1/3/4). */
export const INITIATIVE_REASON = {
  combat_start: { ja: "イニシアチブ判定", "zh-Hant": "先攻檢定", "zh-Hans": "先攻检定", en: "Initiative" },
  join: { ja: "途中参加者のイニシアチブ判定", "zh-Hant": "加入者的先攻檢定", "zh-Hans": "加入者的先攻检定", en: "Joiners' initiative" },
  round_start: { ja: "イニシアチブの並べ直し", "zh-Hant": "重新排列先攻", "zh-Hans": "重新排列先攻", en: "Initiative re-sorted" },
};
/** Effect durations (TMD-TIME-3): short (buttons) and long (log). */
export const DURATION = {
  buff_one_round: { ja: "バフ・1ラウンド", "zh-Hant": "增益・一輪", "zh-Hans": "增益・一轮", en: "buff, one round" },
  debuff_one_round: { ja: "デバフ・1ラウンド", "zh-Hant": "負面・一輪", "zh-Hans": "负面・一轮", en: "debuff, one round" },
  scene: { ja: "シーン中", "zh-Hant": "本場景", "zh-Hans": "本场景", en: "for the scene" },
};
export const DURATION_LONG = {
  buff_one_round: { ja: "バフ、1ラウンド：付与者の次の手番開始まで", "zh-Hant": "增益，持續一輪：至施加者的回合開始", "zh-Hans": "增益，持续一轮：至施加者的回合开始", en: "buff, one round: until the applier's next turn begins" },
  debuff_one_round: { ja: "デバフ、1ラウンド：対象の手番終了まで", "zh-Hant": "負面效果，持續一輪：至被施加者的回合結束", "zh-Hans": "负面效果，持续一轮：至被施加者的回合结束", en: "debuff, one round: until the end of the target's turn" },
  scene: { ja: "シーン中：シーン変更まで", "zh-Hant": "本場景內：至變換場景", "zh-Hans": "本场景内：至变换场景", en: "for the scene: until the scene changes" },
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

// ---- events (log) -----------------------------------------------------------

const sceneName = {
  ja: (n) => (n === 0 ? "元のシーン" : `シーン ${n} `),
  "zh-Hant": (n) => (n === 0 ? "原場景" : `場景 ${n} `),
  "zh-Hans": (n) => (n === 0 ? "原场景" : `场景 ${n} `),
  en: (n) => (n === 0 ? "The previous scene" : `Scene ${n}`),
};

/** One sentence per `TmdEvent.event`. */
export const E = {
  scene_ended: {
    ja: (e, h) => `${sceneName.ja(e.scene)}が終了（${h.r(SCENE_REASON, e.reason)}）`,
    "zh-Hant": (e, h) => `${sceneName["zh-Hant"](e.scene)}結束（${h.r(SCENE_REASON, e.reason)}）`,
    "zh-Hans": (e, h) => `${sceneName["zh-Hans"](e.scene)}结束（${h.r(SCENE_REASON, e.reason)}）`,
    en: (e, h) => `${sceneName.en(e.scene)} ends (${h.r(SCENE_REASON, e.reason)})`,
  },
  scene_started: {
    ja: (e) => `シーン ${e.scene} 開始`,
    "zh-Hant": (e) => `場景 ${e.scene} 開始`,
    "zh-Hans": (e) => `场景 ${e.scene} 开始`,
    en: (e) => `Scene ${e.scene} begins`,
  },
  surprise_round_started: {
    ja: (e, h) => `奇襲ラウンド：${h.n(e.attacker)} が先制攻撃を仕掛ける`,
    "zh-Hant": (e, h) => `突襲輪：${h.n(e.attacker)} 發動先發制人的襲擊`,
    "zh-Hans": (e, h) => `突袭轮：${h.n(e.attacker)} 发动先发制人的袭击`,
    en: (e, h) => `Surprise round: ${h.n(e.attacker)} strikes first`,
  },
  surprise_reflex_granted: {
    ja: (e, h) => `${h.n(e.character)} は不意打ち／先制が効かず、代わりにすぐ使える${h.t("reflex")}を1つ得る`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 免疫措手不及／先制，額外獲得一個可立即使用的${h.t("reflex")}`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 免疫措手不及／先制，额外获得一个可立即使用的${h.t("reflex")}`,
    en: (e, h) => `${h.n(e.character)} is immune to Caught off guard / Pre-emption and gains a ${h.t("reflex")} usable at once`,
  },
  surprise_attack: {
    ja: (e, h) => `${h.n(e.attacker)} の奇襲攻撃${e.caught_off_guard?.length ? `：${h.ns(e.caught_off_guard)} に対して不意打ち／先制` : ""}${e.immune?.length ? `（${h.ns(e.immune)} には無効）` : ""}`,
    "zh-Hant": (e, h) => `${h.n(e.attacker)} 的突襲攻擊${e.caught_off_guard?.length ? `：對 ${h.ns(e.caught_off_guard)} 具有措手不及／先制` : ""}${e.immune?.length ? `（${h.ns(e.immune)} 免疫）` : ""}`,
    "zh-Hans": (e, h) => `${h.n(e.attacker)} 的突袭攻击${e.caught_off_guard?.length ? `：对 ${h.ns(e.caught_off_guard)} 具有措手不及／先制` : ""}${e.immune?.length ? `（${h.ns(e.immune)} 免疫）` : ""}`,
    en: (e, h) => `${h.n(e.attacker)}'s surprise attack${e.caught_off_guard?.length ? `: Caught off guard / Pre-emption against ${h.ns(e.caught_off_guard)}` : ""}${e.immune?.length ? ` (${h.ns(e.immune)} immune)` : ""}`,
  },
  initiative_rolled: {
    ja: (e, h) => `${h.r(INITIATIVE_REASON, e.reason)}：${h.inits(e.entries, "振り直し")}`,
    "zh-Hant": (e, h) => `${h.r(INITIATIVE_REASON, e.reason)}：${h.inits(e.entries, "重擲")}`,
    "zh-Hans": (e, h) => `${h.r(INITIATIVE_REASON, e.reason)}：${h.inits(e.entries, "重掷")}`,
    en: (e, h) => `${h.r(INITIATIVE_REASON, e.reason)}: ${h.inits(e.entries, "re-rolls")}`,
  },
  combat_started: {
    ja: () => "戦闘開始",
    "zh-Hant": () => "正式進入戰鬥",
    "zh-Hans": () => "正式进入战斗",
    en: () => "Combat formally begins",
  },
  round_started: {
    ja: (e, h) => `— 第${e.round}ラウンド — イニシアチブ順：${h.order(e.order)}`,
    "zh-Hant": (e, h) => `— 第${e.round}輪 — 先攻順位：${h.order(e.order)}`,
    "zh-Hans": (e, h) => `— 第${e.round}轮 — 先攻顺位：${h.order(e.order)}`,
    en: (e, h) => `— Round ${e.round} — initiative order: ${h.order(e.order)}`,
  },
  delay_declared: {
    ja: (e, h) => `${h.n(e.character)} は遅延：${h.n(e.after)} の手番の後に行動`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 延後先攻：在 ${h.n(e.after)} 的回合結束後行動`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 延后先攻：在 ${h.n(e.after)} 的回合结束后行动`,
    en: (e, h) => `${h.n(e.character)} delays: acts right after ${h.n(e.after)}'s turn`,
  },
  turn_order_set: {
    ja: (e, h) => `手番の順：${h.order(e.turns)}`,
    "zh-Hant": (e, h) => `回合順序：${h.order(e.turns)}`,
    "zh-Hans": (e, h) => `回合顺序：${h.order(e.turns)}`,
    en: (e, h) => `Turn order: ${h.order(e.turns)}`,
  },
  turn_started: {
    ja: (e, h) =>
      `${h.n(e.character)} の手番開始：基本 AP ${e.base_ap}、追加 AP ${e.extra_ap}${e.ap_lost_to_overdraw ? `（前借りで ${e.ap_lost_to_overdraw} AP を失う）` : ""}${e.blocked?.length ? `。このラウンドは変換できない：${h.ts(e.blocked)}` : ""}`,
    "zh-Hant": (e, h) =>
      `${h.n(e.character)} 的回合開始：基礎 AP ${e.base_ap}，額外 AP ${e.extra_ap}${e.ap_lost_to_overdraw ? `（因透支失去 ${e.ap_lost_to_overdraw} AP）` : ""}${e.blocked?.length ? `；當輪無法轉化：${h.ts(e.blocked)}` : ""}`,
    "zh-Hans": (e, h) =>
      `${h.n(e.character)} 的回合开始：基础 AP ${e.base_ap}，额外 AP ${e.extra_ap}${e.ap_lost_to_overdraw ? `（因透支失去 ${e.ap_lost_to_overdraw} AP）` : ""}${e.blocked?.length ? `；当轮无法转化：${h.ts(e.blocked)}` : ""}`,
    en: (e, h) =>
      `${h.n(e.character)}'s turn begins: base AP ${e.base_ap}, extra AP ${e.extra_ap}${e.ap_lost_to_overdraw ? ` (${e.ap_lost_to_overdraw} AP lost to overdrawing)` : ""}${e.blocked?.length ? `; cannot convert this round: ${h.ts(e.blocked)}` : ""}`,
  },
  action_granted: {
    ja: (e, h) => (e.gained ? `${h.n(e.character)} は${h.t(e.action_type)}を1つ得る（変換済みとみなす）` : `${h.n(e.character)} は${h.t(e.action_type)}を得られない（変換の条件を満たさない）`),
    "zh-Hant": (e, h) => (e.gained ? `${h.n(e.character)} 獲得一個${h.t(e.action_type)}（視為已轉化）` : `${h.n(e.character)} 未能獲得${h.t(e.action_type)}（無法滿足轉化條件）`),
    "zh-Hans": (e, h) => (e.gained ? `${h.n(e.character)} 获得一个${h.t(e.action_type)}（视为已转化）` : `${h.n(e.character)} 未能获得${h.t(e.action_type)}（无法满足转化条件）`),
    en: (e, h) => (e.gained ? `${h.n(e.character)} gains a ${h.t(e.action_type)} (counts as converted)` : `${h.n(e.character)} does not gain the ${h.t(e.action_type)} (it could not be converted)`),
  },
  converted: {
    ja: (e, h) => `${h.n(e.character)} は ${e.ap_spent} AP を${h.t(e.action_type)} ×${e.count} に変換`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 花費 ${e.ap_spent} AP 轉化${h.t(e.action_type)} ×${e.count}`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 花费 ${e.ap_spent} AP 转化${h.t(e.action_type)} ×${e.count}`,
    en: (e, h) => `${h.n(e.character)} converts ${e.ap_spent} AP into ${h.t(e.action_type)} ×${e.count}`,
  },
  action_used: {
    ja: (e, h) =>
      `${h.n(e.character)}${e.out_of_turn ? "（手番外）" : " "}が${h.t(e.action_type)}を使用${h.spent(e)}${e.ability ? `：${h.ability(e.ability)}` : ""}`,
    "zh-Hant": (e, h) =>
      `${h.n(e.character)}${e.out_of_turn ? "（回合外）" : " "}使用${h.t(e.action_type)}${h.spent(e)}${e.ability ? `：${h.ability(e.ability)}` : ""}`,
    "zh-Hans": (e, h) =>
      `${h.n(e.character)}${e.out_of_turn ? "（回合外）" : " "}使用${h.t(e.action_type)}${h.spent(e)}${e.ability ? `：${h.ability(e.ability)}` : ""}`,
    en: (e, h) =>
      `${h.n(e.character)} uses a ${h.t(e.action_type)}${e.out_of_turn ? " out of turn" : ""}${h.spent(e)}${e.ability ? `: ${h.ability(e.ability)}` : ""}`,
  },
  free_action_used: {
    ja: (e, h) => `${h.n(e.character)} が${h.t("free")}を使用${h.free(e)}`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 使用${h.t("free")}${h.free(e)}`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 使用${h.t("free")}${h.free(e)}`,
    en: (e, h) => `${h.n(e.character)} takes a ${h.t("free")}${h.free(e)}`,
  },
  overdrawn: {
    ja: (e, h) => `${h.n(e.character)} は${h.t(e.action_type)}を前借り：自分の手番開始時に ${e.ap_owed} AP を失い、そのラウンドはこの種類を変換できない`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 透支${h.t(e.action_type)}：自身回合開始時失去 ${e.ap_owed} AP，且當輪無法轉化這一類型的動作`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 透支${h.t(e.action_type)}：自身回合开始时失去 ${e.ap_owed} AP，且当轮无法转化这一类型的动作`,
    en: (e, h) => `${h.n(e.character)} overdraws a ${h.t(e.action_type)}: loses ${e.ap_owed} AP at the start of its turn and cannot convert that type that round`,
  },
  retained: {
    ja: (e, h) => `${h.n(e.character)} は「${e.ability}」のために${h.t(e.action_type)}を1つ温存`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 為「${e.ability}」保留一個${h.t(e.action_type)}`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 为「${e.ability}」保留一个${h.t(e.action_type)}`,
    en: (e, h) => `${h.n(e.character)} retains a ${h.t(e.action_type)} for "${e.ability}"`,
  },
  grant_queued: {
    ja: (e, h) => `${h.n(e.character)} は次の手番開始時に${h.t(e.action_type)}を1つ得る`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 將在回合開始時獲得一個${h.t(e.action_type)}`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 将在回合开始时获得一个${h.t(e.action_type)}`,
    en: (e, h) => `${h.n(e.character)} will gain a ${h.t(e.action_type)} at the start of its turn`,
  },
  ap_gained: {
    ja: (e, h) => `${h.n(e.character)} は${e.reflex_only ? "手番外専用" : "追加"} AP を ${e.amount} 得る`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 獲得 ${e.amount} 點${e.reflex_only ? "僅能在回合外使用的" : "額外"} AP`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 获得 ${e.amount} 点${e.reflex_only ? "仅能在回合外使用的" : "额外"} AP`,
    en: (e, h) => `${h.n(e.character)} gains ${e.amount} ${e.reflex_only ? "out-of-turn-only" : "extra"} AP`,
  },
  disabled_changed: {
    ja: (e, h) => (e.disabled ? `${h.n(e.character)} は${h.t(e.action_type)}を使用できなくなる（変換・前借りも不可）` : `${h.n(e.character)} は再び${h.t(e.action_type)}を使用できる`),
    "zh-Hant": (e, h) => (e.disabled ? `${h.n(e.character)} 失去使用${h.t(e.action_type)}的能力（也無法轉化與透支）` : `${h.n(e.character)} 恢復使用${h.t(e.action_type)}的能力`),
    "zh-Hans": (e, h) => (e.disabled ? `${h.n(e.character)} 失去使用${h.t(e.action_type)}的能力（也无法转化与透支）` : `${h.n(e.character)} 恢复使用${h.t(e.action_type)}的能力`),
    en: (e, h) => (e.disabled ? `${h.n(e.character)} can no longer use a ${h.t(e.action_type)} (nor convert or overdraw it)` : `${h.n(e.character)} can use a ${h.t(e.action_type)} again`),
  },
  turn_ended: {
    ja: (e, h) =>
      `${h.n(e.character)} の手番終了${h.parts("ja", [
        e.extra_ap_carried && `残った基本 AP ${e.extra_ap_carried} は追加 AP に`,
        e.extra_ap_removed && `追加 AP ${e.extra_ap_removed} を除去`,
        e.reflex_only_ap_removed && `手番外専用 AP ${e.reflex_only_ap_removed} を除去`,
      ])}`,
    "zh-Hant": (e, h) =>
      `${h.n(e.character)} 的回合結束${h.parts("zh-Hant", [
        e.extra_ap_carried && `剩餘基礎 AP ${e.extra_ap_carried} 轉為額外 AP`,
        e.extra_ap_removed && `移除額外 AP ${e.extra_ap_removed}`,
        e.reflex_only_ap_removed && `移除僅能在回合外使用的 AP ${e.reflex_only_ap_removed}`,
      ])}`,
    "zh-Hans": (e, h) =>
      `${h.n(e.character)} 的回合结束${h.parts("zh-Hans", [
        e.extra_ap_carried && `剩余基础 AP ${e.extra_ap_carried} 转为额外 AP`,
        e.extra_ap_removed && `移除额外 AP ${e.extra_ap_removed}`,
        e.reflex_only_ap_removed && `移除仅能在回合外使用的 AP ${e.reflex_only_ap_removed}`,
      ])}`,
    en: (e, h) =>
      `${h.n(e.character)}'s turn ends${h.parts("en", [
        e.extra_ap_carried && `${e.extra_ap_carried} left-over base AP become extra AP`,
        e.extra_ap_removed && `${e.extra_ap_removed} extra AP removed`,
        e.reflex_only_ap_removed && `${e.reflex_only_ap_removed} out-of-turn-only AP removed`,
      ])}`,
  },
  actions_removed: {
    ja: (e, h) => `${h.n(e.character)} の変換済みで未使用のアクション ${e.count} 個を除去`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 已轉化而未使用的 ${e.count} 個動作被移除`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 已转化而未使用的 ${e.count} 个动作被移除`,
    en: (e, h) => `${h.n(e.character)}: ${e.count} converted but unused action(s) removed`,
  },
  swift_became_reflex: {
    ja: (e, h) => `${h.n(e.character)} の未使用の${h.t("swift")} ×${e.count} は${h.t("reflex")}になり、第${e.expires_round}ラウンド終了まで残る`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 未使用的${h.t("swift")} ×${e.count} 轉為${h.t("reflex")}，保留至第${e.expires_round}輪結束`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 未使用的${h.t("swift")} ×${e.count} 转为${h.t("reflex")}，保留至第${e.expires_round}轮结束`,
    en: (e, h) => `${h.n(e.character)}: unused ${h.t("swift")} ×${e.count} → ${h.t("reflex")}, kept until the end of round ${e.expires_round}`,
  },
  reflex_expired: {
    ja: (e, h) => `${h.n(e.character)} の${h.t("reflex")} ×${e.count} が期限切れ`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 的${h.t("reflex")} ×${e.count} 到期移除`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 的${h.t("reflex")} ×${e.count} 到期移除`,
    en: (e, h) => `${h.n(e.character)}: ${h.t("reflex")} ×${e.count} expired`,
  },
  // Round 0 is the surprise round (TMD-SUR-6: it shares round 1's usage budget).
  round_ended: {
    ja: (e) => (e.round === 0 ? "— 奇襲ラウンド終了 —" : `— 第${e.round}ラウンド終了 —`),
    "zh-Hant": (e) => (e.round === 0 ? "— 突襲輪結束 —" : `— 第${e.round}輪結束 —`),
    "zh-Hans": (e) => (e.round === 0 ? "— 突袭轮结束 —" : `— 第${e.round}轮结束 —`),
    en: (e) => (e.round === 0 ? "— End of the surprise round —" : `— End of round ${e.round} —`),
  },
  joined: {
    ja: (e, h) => `戦闘に参加：${h.ns(e.characters)}（現ラウンドの最後に行動）`,
    "zh-Hant": (e, h) => `加入戰鬥：${h.ns(e.characters)}（排在當輪先攻順序最後）`,
    "zh-Hans": (e, h) => `加入战斗：${h.ns(e.characters)}（排在当轮先攻顺序最后）`,
    en: (e, h) => `Joined the combat: ${h.ns(e.characters)} (after the last character this round)`,
  },
  left: {
    ja: (e, h) => `${h.n(e.character)} が戦闘から離脱`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 離開戰鬥`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 离开战斗`,
    en: (e, h) => `${h.n(e.character)} leaves the combat`,
  },
  initiative_changed: {
    ja: (e, h) => `${h.n(e.character)} の基本イニシアチブ値が ${e.base_initiative} に${e.resort_at_round_end ? "（全員の手番の後にイニシアチブを並べ直す）" : ""}`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 的基礎先攻值變為 ${e.base_initiative}${e.resort_at_round_end ? "（所有角色的回合都進行過一次後重新排列先攻）" : ""}`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 的基础先攻值变为 ${e.base_initiative}${e.resort_at_round_end ? "（所有角色的回合都进行过一次后重新排列先攻）" : ""}`,
    en: (e, h) => `${h.n(e.character)}'s base initiative is now ${e.base_initiative}${e.resort_at_round_end ? " (initiative is re-sorted once everyone has had a turn)" : ""}`,
  },
  effect_applied: {
    ja: (e, h) => `${h.n(e.effect.applier)} が ${h.n(e.effect.target)} に「${e.effect.name}」（${h.r(DURATION_LONG, e.effect.duration)}）`,
    "zh-Hant": (e, h) => `${h.n(e.effect.applier)} 對 ${h.n(e.effect.target)} 施加「${e.effect.name}」（${h.r(DURATION_LONG, e.effect.duration)}）`,
    "zh-Hans": (e, h) => `${h.n(e.effect.applier)} 对 ${h.n(e.effect.target)} 施加「${e.effect.name}」（${h.r(DURATION_LONG, e.effect.duration)}）`,
    en: (e, h) => `${h.n(e.effect.applier)} applies "${e.effect.name}" to ${h.n(e.effect.target)} (${h.r(DURATION_LONG, e.effect.duration)})`,
  },
  effect_ended: {
    ja: (e, h) => `「${e.name}」が終了（${h.r(EFFECT_REASON, e.reason)}）`,
    "zh-Hant": (e, h) => `「${e.name}」結束（${h.r(EFFECT_REASON, e.reason)}）`,
    "zh-Hans": (e, h) => `「${e.name}」结束（${h.r(EFFECT_REASON, e.reason)}）`,
    en: (e, h) => `"${e.name}" ends (${h.r(EFFECT_REASON, e.reason)})`,
  },
  teleported_within_scene: {
    ja: (e, h) => `${h.n(e.character)} はシーン内でテレポート（観測されているのでシーンに留まる）`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 在場景內傳送（仍可被觀測，不視為離開場景）`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 在场景内传送（仍可被观测，不视为离开场景）`,
    en: (e, h) => `${h.n(e.character)} teleports within the scene (still observed, so it stays in the scene)`,
  },
  chain_started: {
    ja: (e, h) => `${h.n(e.character)} が行動 #${e.entry} を宣言：イニシアチブ順に割り込みを確認`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 宣布動作 #${e.entry}：依先攻順位詢問是否插入動作`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 宣布动作 #${e.entry}：依先攻顺位询问是否插入动作`,
    en: (e, h) => `${h.n(e.character)} announces action #${e.entry}: interrupts are asked for in initiative order`,
  },
  // TMD-INT-2: more AP resolves first and the other side is locked out of the chain;
  // TMD-INT-3: a reflex interrupting an in-turn action resolves first (`locked_out` null).
  interrupt_declared: {
    ja: (e, h) =>
      e.locked_out == null
        ? `${h.n(e.character)} が #${e.interrupts} に${h.t("reflex")}で割り込み（#${e.entry}）：${h.t("reflex")}が先に解決`
        : `${h.n(e.character)} が #${e.interrupts} に割り込み（#${e.entry}）：AP ${e.interrupter_ap} 対 ${e.interrupted_ap}、${h.n(e.first)} が先に解決。${h.n(e.locked_out)} はこの一連の解決が終わるまで割り込めない`,
    "zh-Hant": (e, h) =>
      e.locked_out == null
        ? `${h.n(e.character)} 以${h.t("reflex")}插入 #${e.interrupts}（#${e.entry}）：先結算反射動作插入的動作`
        : `${h.n(e.character)} 插入 #${e.interrupts}（#${e.entry}）：AP ${e.interrupter_ap} 對 ${e.interrupted_ap}，${h.n(e.first)} 先結算；${h.n(e.locked_out)} 在這個系列動作結算結束前不能再插入動作`,
    "zh-Hans": (e, h) =>
      e.locked_out == null
        ? `${h.n(e.character)} 以${h.t("reflex")}插入 #${e.interrupts}（#${e.entry}）：先结算反射动作插入的动作`
        : `${h.n(e.character)} 插入 #${e.interrupts}（#${e.entry}）：AP ${e.interrupter_ap} 对 ${e.interrupted_ap}，${h.n(e.first)} 先结算；${h.n(e.locked_out)} 在这个系列动作结算结束前不能再插入动作`,
    en: (e, h) =>
      e.locked_out == null
        ? `${h.n(e.character)} interrupts #${e.interrupts} with a ${h.t("reflex")} (#${e.entry}): the reflex resolves first`
        : `${h.n(e.character)} interrupts #${e.interrupts} (#${e.entry}): AP ${e.interrupter_ap} vs ${e.interrupted_ap}, ${h.n(e.first)} resolves first; ${h.n(e.locked_out)} cannot interrupt again until this chain is resolved`,
  },
  preemption_ignored: {
    ja: (e, h) => `${h.n(e.character)} の能力は【先制】を無視（レベルに関係なく失敗しない）`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 的能力無視【先制】（無論其等級，必定成功）`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 的能力无视【先制】（无论其等级，必定成功）`,
    en: (e, h) => `${h.n(e.character)}'s ability ignores Pre-emption (cannot fail, whatever the level)`,
  },
  interrupts_closed: {
    ja: (e) => `#${e.entry}：割り込みなし。解決まで割り込めない`,
    "zh-Hant": (e) => `#${e.entry}：無人插入，結算完畢前不能再插入動作`,
    "zh-Hans": (e) => `#${e.entry}：无人插入，结算完毕前不能再插入动作`,
    en: (e) => `#${e.entry}: nobody interrupts; no more interrupts until it resolves`,
  },
  resolved: {
    ja: (e, h) => `#${e.entry} ${h.n(e.character)} の行動${h.q(e.label)}を解決`,
    "zh-Hant": (e, h) => `#${e.entry} ${h.n(e.character)} 的動作${h.q(e.label)}結算完畢`,
    "zh-Hans": (e, h) => `#${e.entry} ${h.n(e.character)} 的动作${h.q(e.label)}结算完毕`,
    en: (e, h) => `#${e.entry} ${h.n(e.character)}'s action${h.q(e.label)} resolves`,
  },
  chain_ended: {
    ja: () => "保留中の行動をすべて解決",
    "zh-Hant": () => "待處理動作全部結算完畢",
    "zh-Hans": () => "待处理动作全部结算完毕",
    en: () => "Every pending action is resolved",
  },
  encounter_ended: {
    ja: () => "戦闘終了",
    "zh-Hant": () => "戰鬥結束",
    "zh-Hans": () => "战斗结束",
    en: () => "The battle is over",
  },
  damaged: {
    ja: (e, h) => `${h.n(e.character)} に ${e.amount} ダメージ（残り HP ${e.hp}）`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 受到 ${e.amount} 點傷害（剩餘 HP ${e.hp}）`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 受到 ${e.amount} 点伤害（剩余 HP ${e.hp}）`,
    en: (e, h) => `${h.n(e.character)} takes ${e.amount} damage (${e.hp} HP left)`,
  },
  downed: {
    ja: (e, h) => `${h.n(e.character)} は戦闘不能（手番を失う）`,
    "zh-Hant": (e, h) => `${h.n(e.character)} 無法戰鬥（不再有回合）`,
    "zh-Hans": (e, h) => `${h.n(e.character)} 无法战斗（不再有回合）`,
    en: (e, h) => `${h.n(e.character)} is down (takes no more turns)`,
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
    order: (ids) => (ids?.length ? ids.map(n).join(" → ") : "—"),
    c: (a) => (a.actor ? `${n(a.actor)}${COLON[L]}` : ""),
    t,
    ts: (types) => (types || []).map(t).join(SEP[L]),
    r: (table, key) => tr(table[key]) ?? String(key),
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
    // Held actions spent, when they differ from the action used.
    spent: (e) => {
      const sp = e.spent || [];
      if (!sp.length || (sp.length === 1 && sp[0] === e.action_type)) return "";
      const list = sp.map(t).join(L === "en" ? " + " : "＋");
      return { ja: `（${list}を消費）`, "zh-Hant": `（消耗${list}）`, "zh-Hans": `（消耗${list}）`, en: ` (spending ${list})` }[L];
    },
    inits: (entries, reroll) =>
      (entries || [])
        .map((x) => {
          const base = x.base_initiative < 0 ? `− ${-x.base_initiative}` : `+ ${x.base_initiative}`;
          const tb = x.tiebreaks?.length ? (L === "en" ? `, ${reroll} ${x.tiebreaks.join("/")}` : `、${reroll} ${x.tiebreaks.join("/")}`) : "";
          return L === "en" ? `${n(x.id)} ${x.total} (d10 ${x.roll} ${base}${tb})` : `${n(x.id)} ${x.total}（d10 ${x.roll} ${base}${tb}）`;
        })
        .join(SEP[L]),
    parts: (lg, list) => {
      const p = list.filter(Boolean);
      if (!p.length) return "";
      return lg === "en" ? `: ${p.join("; ")}` : `：${p.join("、")}`;
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

  return {
    describe: (action) => run(A, action?.type, action, "type"),
    eventText: (e) => run(E, e?.event, e, "event"),
    /** The fallback forms (what an unknown kind shows). */
    fallbackAction: (action) => raw(action?.type, action, "type"),
    fallbackEvent: (e) => raw(e?.event, e, "event"),
    /** A kind has a sentence in this language (else English, else the fallback). */
    knownAction: (kind) => Object.hasOwn(A, kind) && typeof A[kind][L] === "function",
    knownEvent: (kind) => Object.hasOwn(E, kind) && typeof E[kind][L] === "function",
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
