// Texts of the World Trigger battle mode in the four languages of the project
// (ja / zh-Hant / zh-Hans / en). Rules terms follow the seed (a Chinese
// translation of the fan rulebook) as RULES.md records them, the core's own
// labels (phase names, conditions, skill and trigger names come from gunbai)
// and the character-sheet example's i18n.js.

/** UI strings: S[key][lang]. */
export const S = {
  // An event whose square the viewer may not see (the core's view left it out: a
  // member in Stealth, WT-ST-1).
  team: { ja: "部隊", "zh-Hant": "隊伍", "zh-Hans": "队伍", en: "Team" },
  sheet: { ja: "キャラクターシート", "zh-Hant": "角色卡", "zh-Hans": "角色卡", en: "Sheet" },
  square: { ja: "マス (x, y)", "zh-Hant": "格子 (x, y)", "zh-Hans": "格子 (x, y)", en: "Square (x, y)" },
  tokenSheet: { ja: "トークンのシート", "zh-Hant": "標記上的角色卡", "zh-Hans": "标记上的角色卡", en: "Token's sheet" },
  sample: { ja: "サンプル（例示用）", "zh-Hant": "範例（示範用）", "zh-Hans": "示例（示范用）", en: "Sample (illustrative)" },
  leader: { ja: "隊長", "zh-Hant": "隊長", "zh-Hans": "队长", en: "Leader" },
  leaders: { ja: "各部隊の隊長", "zh-Hant": "各隊伍的隊長", "zh-Hans": "各队伍的队长", en: "Team leaders" },
  battleType: { ja: "戦闘の種類", "zh-Hant": "戰鬥類型", "zh-Hans": "战斗类型", en: "Battle type" },
  rank: { ja: "ランク戦", "zh-Hant": "排位戰", "zh-Hans": "排位战", en: "Rank battle" },
  mock: { ja: "模擬戦", "zh-Hant": "模擬戰", "zh-Hans": "模拟战", en: "Mock battle" },
  defense: { ja: "防衛戦", "zh-Hant": "防衛戰", "zh-Hans": "防卫战", en: "Defense battle" },
  maxRounds: { ja: "最大ラウンド数", "zh-Hant": "最大輪數", "zh-Hans": "最大轮数", en: "Max rounds" },
  map: { ja: "マップ", "zh-Hant": "地圖", "zh-Hans": "地图", en: "Map" },
  flatMap: { ja: "平地（トークンを囲む {w}×{h}）", "zh-Hant": "平地（涵蓋標記的 {w}×{h}）", "zh-Hans": "平地（覆盖标记的 {w}×{h}）", en: "Flat, {w}×{h} (covers the tokens)" },
  exampleMap: { ja: "例のマップ rank_3v3（16×12、建物あり、例示用）", "zh-Hant": "範例地圖 rank_3v3（16×12，有建築，示範用）", "zh-Hans": "示例地图 rank_3v3（16×12，有建筑，示范用）", en: "Example map rank_3v3 (16×12, buildings; illustrative)" },
  gridNote: {
    ja: "マス = シーンのグリッド（{dpi} dpi）上のトークンの位置。左上のトークンから {m} マスの余白。",
    "zh-Hant": "格子 = 標記在場景網格（{dpi} dpi）上的位置，以最左上的標記為準，留 {m} 格邊距。",
    "zh-Hans": "格子 = 标记在场景网格（{dpi} dpi）上的位置，以最左上的标记为准，留 {m} 格边距。",
    en: "Square = the token's cell on the scene grid ({dpi} dpi), counted from the top-left token with a {m}-square margin.",
  },
  gridNotSquare: {
    ja: "このシーンのグリッドは {type} です。ワールドトリガーの戦闘は正方形のマスを使うため、位置は近似です。",
    "zh-Hant": "此場景的網格是 {type}；境界觸發者戰鬥使用正方形格子，位置僅為近似。",
    "zh-Hans": "此场景的网格是 {type}；境界触发者战斗使用正方形格子，位置仅为近似。",
    en: "This scene's grid is {type}; World Trigger battles use square cells, so the squares are approximate.",
  },
  startBattle: { ja: "戦闘開始", "zh-Hant": "開始戰鬥", "zh-Hans": "开始战斗", en: "Start battle" },
  illustrative: {
    ja: "サンプルのシートと例のマップは例示用です（ルールブックのデータではありません）。",
    "zh-Hant": "範例角色卡與範例地圖僅供示範（並非規則書資料）。",
    "zh-Hans": "示例角色卡与示例地图仅供示范（并非规则书数据）。",
    en: "Sample sheets and the example map are illustrative (not the rulebook's data).",
  },
  round: { ja: "ラウンド", "zh-Hant": "輪", "zh-Hans": "轮", en: "Round" },
  roundN: { ja: "第{n}ラウンド", "zh-Hant": "第{n}輪", "zh-Hans": "第{n}轮", en: "Round {n}" },
  ofMax: { ja: "（最大 {n}）", "zh-Hant": "（上限 {n}）", "zh-Hans": "（上限 {n}）", en: " of {n}" },
  acting: { ja: "行動中の部隊", "zh-Hant": "行動中的隊伍", "zh-Hans": "行动中的队伍", en: "Acting team" },
  initiativeWait: {
    ja: "イニシアチブ：各部隊の隊長が指揮で判定します",
    "zh-Hant": "初始階段：各隊隊長以指揮擲骰決定行動順",
    "zh-Hans": "初始阶段：各队队长以指挥掷骰决定行动顺序",
    en: "Initiative: each team's leader rolls Command",
  },
  reactionWait: {
    ja: "{a} のリアクション待ち",
    "zh-Hant": "等待 {a} 的反應",
    "zh-Hans": "等待 {a} 的反应",
    en: "Waiting for {a}'s reaction",
  },
  // (the reacting member is one this team may not see: Stealth, WT-ST-1)
  reactionWaitHidden: { ja: "リアクション待ち", "zh-Hant": "等待反應", "zh-Hans": "等待反应", en: "Waiting for a reaction" },
  ended: { ja: "戦闘終了", "zh-Hant": "戰鬥結束", "zh-Hans": "战斗结束", en: "Battle over" },
  winner: { ja: "勝者：{w}", "zh-Hant": "勝者：{w}", "zh-Hans": "胜者：{w}", en: "Winner: {w}" },
  draw: { ja: "引き分け", "zh-Hant": "平手", "zh-Hans": "平手", en: "Draw" },
  slots: { ja: "行動枠（各フェイズ最大 3 人）", "zh-Hant": "行動次數（每階段最多 3 人）", "zh-Hans": "行动次数（每阶段最多 3 人）", en: "Member slots (≤ 3 per phase)" },
  operator: { ja: "オペレーター", "zh-Hant": "操作員", "zh-Hans": "操作员", en: "Operator" },
  used: { ja: "使用済み", "zh-Hant": "已使用", "zh-Hans": "已使用", en: "used" },
  ready: { ja: "未使用", "zh-Hant": "未使用", "zh-Hans": "未使用", en: "ready" },
  tacticsDice: { ja: "作戦ダイス", "zh-Hant": "戰術骰", "zh-Hans": "战术骰", en: "Tactics dice" },
  points: { ja: "得点", "zh-Hant": "得分", "zh-Hans": "得分", en: "Points" },
  initiative: { ja: "イニシアチブ", "zh-Hant": "先攻", "zh-Hans": "先攻", en: "Initiative" },
  member: { ja: "隊員", "zh-Hant": "隊員", "zh-Hans": "队员", en: "Member" },
  trion: { ja: "トリオン", "zh-Hant": "觸力能", "zh-Hans": "触力能", en: "Trion" },
  status: { ja: "状態", "zh-Hant": "狀態", "zh-Hans": "状态", en: "Status" },
  activeTriggers: { ja: "起動中", "zh-Hant": "啟動中", "zh-Hans": "启动中", en: "active" },
  usedThisRound: { ja: "今ラウンドの使用", "zh-Hant": "本輪已用", "zh-Hans": "本轮已用", en: "Used this round" },
  mods: { ja: "判定の追加（攻撃・リアクション・復帰）", "zh-Hant": "判定追加（攻擊、反應、返回）", "zh-Hans": "判定追加（攻击、反应、返回）", en: "Add to the check (attacks, reactions, re-entry)" },
  burst: { ja: "トリオンバースト", "zh-Hant": "觸力能爆發", "zh-Hans": "触力能爆发", en: "Trion Burst" },
  pushTo: { ja: "押し出し先 x,y（空欄：なし）", "zh-Hant": "推動到 x,y（留空：不推）", "zh-Hans": "推动到 x,y（留空：不推）", en: "Push to x,y (blank: none)" },
  initDice: { ja: "イニシアチブに使う作戦ダイス", "zh-Hant": "先攻判定使用的戰術骰", "zh-Hans": "先攻判定使用的战术骰", en: "Tactics dice for initiative" },
  actNow: { ja: "いま実行できる行動", "zh-Hant": "現在可執行的動作", "zh-Hans": "现在可执行的动作", en: "Actions now" },
  destinations: { ja: "移動先・範囲の中心", "zh-Hant": "移動目的地／範圍中心", "zh-Hans": "移动目的地／范围中心", en: "Destinations / area centres" },
  go: { ja: "実行", "zh-Hant": "執行", "zh-Hans": "执行", en: "Go" },
  anyTime: { ja: "いつでも（スキル・オペレーター）", "zh-Hant": "任意時機（技能、操作員）", "zh-Hans": "任意时机（技能、操作员）", en: "Any time (skills, operator)" },
  seed: { ja: "シード", "zh-Hant": "種子", "zh-Hans": "种子", en: "seed" },
  tooLarge: {
    ja: "gunbai：圧縮後も状態が {n} バイトあり、Owlbear のシーンのメタデータ（16 kB）に保存できません",
    "zh-Hant": "gunbai：壓縮後狀態仍有 {n} 位元組，超過 Owlbear 場景中繼資料上限（16 kB），未儲存",
    "zh-Hans": "gunbai：压缩后状态仍有 {n} 字节，超过 Owlbear 场景元数据上限（16 kB），未保存",
    en: "gunbai: the state is {n} bytes even compressed; Owlbear keeps 16 kB of metadata per scene, so it was not saved",
  },
  noTeams: { ja: "2〜4 部隊が必要です。", "zh-Hant": "需要 2～4 支隊伍。", "zh-Hans": "需要 2～4 支队伍。", en: "A battle needs 2–4 teams." },
};

/** The core's phase names (world_trigger battle `phase_label`). */
export const PHASES = {
  initiative: { ja: "イニシアチブフェイズ", "zh-Hans": "初始阶段", "zh-Hant": "初始階段", en: "Initiative phase" },
  tactics: { ja: "タクティクスフェイズ", "zh-Hans": "战术阶段", "zh-Hant": "戰術階段", en: "Tactics phase" },
  movement: { ja: "ムーブフェイズ", "zh-Hans": "移动阶段", "zh-Hant": "移動階段", en: "Movement phase" },
  attack: { ja: "アタックフェイズ", "zh-Hans": "攻击阶段", "zh-Hant": "攻擊階段", en: "Attack phase" },
  feedback: { ja: "フィードバックフェイズ", "zh-Hans": "反馈阶段", "zh-Hant": "反饋階段", en: "Feedback phase" },
  ended: { ja: "戦闘終了", "zh-Hans": "战斗结束", "zh-Hant": "戰斗結束", en: "Battle over" },
};
/** Short names of the three phases with member slots (table headers, costs). */
export const SLOT = {
  tactics: { ja: "タクティクス", "zh-Hant": "戰術", "zh-Hans": "战术", en: "Tactics" },
  movement: { ja: "ムーブ", "zh-Hant": "移動", "zh-Hans": "移动", en: "Move" },
  attack: { ja: "アタック", "zh-Hant": "攻擊", "zh-Hans": "攻击", en: "Attack" },
};
export const STATUS = {
  active: { ja: "行動可能", "zh-Hant": "可行動", "zh-Hans": "可行动", en: "active" },
  incapacitated: { ja: "戦闘不能", "zh-Hant": "無法戰鬥", "zh-Hans": "无法战斗", en: "incapacitated" },
  bailed_out: { ja: "緊急脱出", "zh-Hant": "緊急脫離", "zh-Hans": "紧急脱离", en: "bailed out" },
  dead: { ja: "死亡", "zh-Hant": "死亡", "zh-Hans": "死亡", en: "dead" },
};
/** WT-ST special states (RULES.md: 隱身狀態, 不可視狀態, 移動預約狀態, 浮游狀態). */
export const STATES = {
  stealth: { ja: "隠密状態", "zh-Hant": "隱身狀態", "zh-Hans": "隐身状态", en: "Stealth" },
  invisible: { ja: "不可視状態", "zh-Hant": "不可視狀態", "zh-Hans": "不可视状态", en: "Invisible" },
  movement_reserved: { ja: "移動予約状態", "zh-Hant": "移動預約狀態", "zh-Hans": "移动预约状态", en: "Movement-reserved" },
  floating: { ja: "浮遊状態", "zh-Hant": "浮游狀態", "zh-Hans": "浮游状态", en: "Floating" },
  out_of_bounds: { ja: "場外", "zh-Hant": "越區", "zh-Hans": "越区", en: "out of bounds" },
};
export const SIDES = {
  main: { ja: "メイン", "zh-Hant": "主觸發器", "zh-Hans": "主触发器", en: "main" },
  sub: { ja: "サブ", "zh-Hant": "副觸發器", "zh-Hans": "副触发器", en: "sub" },
};
export const OUTCOME = {
  round_limit: { ja: "ラウンド上限に到達", "zh-Hant": "達到輪數上限", "zh-Hans": "达到轮数上限", en: "the round limit was reached" },
  one_team_left: { ja: "残り 1 部隊", "zh-Hant": "只剩一支隊伍", "zh-Hans": "只剩一支队伍", en: "only one team is left" },
  no_team_left: { ja: "全部隊が脱落", "zh-Hant": "所有隊伍皆已退場", "zh-Hans": "所有队伍皆已退场", en: "no team is left" },
  character_down: { ja: "指定のキャラクターが脱落", "zh-Hant": "指定角色已倒下", "zh-Hans": "指定角色已倒下", en: "a named character is down" },
};

/** Legal-action labels and their cost parts: A[key][lang] with {placeholders}. */
export const A = {
  roll_initiative: { ja: "イニシアチブを振る", "zh-Hant": "擲先攻判定", "zh-Hans": "掷先攻判定", en: "Roll initiative" },
  pass: { ja: "{team}：パス（手番終了）", "zh-Hant": "{team}：跳過（結束行動）", "zh-Hans": "{team}：跳过（结束行动）", en: "{team}: pass (end turn)" },
  no_reaction: { ja: "リアクションしない", "zh-Hant": "不反應", "zh-Hans": "不反应", en: "No reaction" },
  reenter: { ja: "{who}：戦場への復帰判定", "zh-Hant": "{who}：返回戰場判定", "zh-Hans": "{who}：返回战场判定", en: "{who}: re-enter the battlefield" },
  bring_back: { ja: "{who}：{target} を戦場へ連れ戻す", "zh-Hant": "{who}：將 {target} 帶回戰場", "zh-Hans": "{who}：将 {target} 带回战场", en: "{who}: bring {target} back to the battlefield" },
  operator: { ja: "{team}：{skill}（オペレーター）", "zh-Hant": "{team}：{skill}（操作員）", "zh-Hans": "{team}：{skill}（操作员）", en: "{team}: {skill} (operator)" },
  slot: { ja: "{p}枠", "zh-Hant": "{p}次數", "zh-Hans": "{p}次数", en: "{p} slot" },
  sideAction: { ja: "{s}の行動", "zh-Hant": "{s}動作", "zh-Hans": "{s}动作", en: "{s} action" },
  activates: { ja: "{s}起動", "zh-Hant": "啟動{s}", "zh-Hans": "启动{s}", en: "activates {s}" },
  trion: { ja: "トリオン {n}", "zh-Hant": "觸力能 {n}", "zh-Hans": "触力能 {n}", en: "Trion {n}" },
  movement: { ja: "移動力 {n}", "zh-Hant": "移動力 {n}", "zh-Hans": "移动力 {n}", en: "Movement {n}" },
  maxDice: { ja: "作戦ダイス≤{n}", "zh-Hant": "戰術骰≤{n}", "zh-Hans": "战术骰≤{n}", en: "≤{n} tactics dice" },
  maxBurst: { ja: "バースト≤{n}", "zh-Hant": "爆發≤{n}", "zh-Hans": "爆发≤{n}", en: "burst ≤{n}" },
  opAction: { ja: "オペレーター行動", "zh-Hant": "操作員行動", "zh-Hans": "操作员行动", en: "operator action" },
};
