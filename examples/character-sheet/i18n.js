// UI strings of the character-sheet site in the four languages of the project.
// Rules text (trigger, trait, master and skill names) comes from the data pack's
// labels; validation messages come from the core (its `label` in each language)
// with their rule IDs.
export const LANGS = [
  ["ja", "日本語"],
  ["zh-Hant", "繁體中文"],
  ["zh-Hans", "简体中文"],
  ["en", "English"],
];

/** The key of a pack label (`{ja, zh_hant, zh_hans, en}`) for a UI language. */
export function labelKey(lang) {
  return { ja: "ja", "zh-Hant": "zh_hant", "zh-Hans": "zh_hans", en: "en" }[lang] || "en";
}

export function label(l, lang) {
  if (!l) return "";
  return l[labelKey(lang)] || l.en || "";
}

const S = {
  system: { ja: "システム", "zh-Hant": "系統", "zh-Hans": "系统", en: "System" },
  sheet_word: { ja: " キャラクターシート", "zh-Hant": " 角色卡", "zh-Hans": " 角色卡", en: " character sheet" },
  system_world_trigger: { ja: "ワールドトリガー", "zh-Hant": "境界觸發者", "zh-Hans": "境界触发者", en: "World Trigger" },
  system_coc_ap: { ja: "クトゥルフ神話TRPG 第6版（APルール）", "zh-Hant": "克蘇魯的呼喚 第6版（AP規則）", "zh-Hans": "克苏鲁的呼唤 第6版（AP规则）", en: "Call of Cthulhu 6th ed. (AP rules)" },
  system_coc7_house: { ja: "クトゥルフ神話TRPG 第7版（ハウスルール）", "zh-Hant": "克蘇魯的呼喚 第7版（房規）", "zh-Hans": "克苏鲁的呼唤 第7版（房规）", en: "Call of Cthulhu 7th ed. (house rules)" },
  system_tmd: { ja: "TMD：新秩序000", "zh-Hant": "TMD：新秩序000", "zh-Hans": "TMD：新秩序000", en: "TMD: New Order 000" },
  system_fap_map: { ja: "FAP/MAP", "zh-Hant": "FAP/MAP", "zh-Hans": "FAP/MAP", en: "FAP/MAP" },
  characteristics: { ja: "能力値", "zh-Hant": "屬性", "zh-Hans": "属性", en: "Characteristics" },
  stats_title: { ja: "能力値", "zh-Hant": "能力值", "zh-Hans": "能力值", en: "Stats" },
  combat_skills: { ja: "技能（戦闘技能ほか）", "zh-Hant": "技能（戰鬥技能等）", "zh-Hans": "技能（战斗技能等）", en: "Skills (combat and others)" },
  base_value: { ja: "初期値", "zh-Hant": "初始值", "zh-Hans": "初始值", en: "base" },
  range: { ja: "範囲", "zh-Hant": "範圍", "zh-Hans": "范围", en: "range" },
  half_fifth: { ja: "ハード／イクストリーム", "zh-Hant": "困難／極限", "zh-Hans": "困难／极难", en: "Hard / Extreme" },
  ap_bonus: { ja: "AP修正（特殊能力・魔術）", "zh-Hant": "AP修正（特殊能力、法術）", "zh-Hans": "AP修正（特殊能力、法术）", en: "AP modifier (abilities, magic)" },
  immune_to_surprise: { ja: "奇襲を受けない", "zh-Hant": "不受突襲", "zh-Hans": "不受突袭", en: "Immune to surprise" },
  data_pack: { ja: "データパック", "zh-Hant": "資料包", "zh-Hans": "数据包", en: "Data pack" },
  load_pack: { ja: "グループのパックを読み込む", "zh-Hant": "載入團體的資料包", "zh-Hans": "载入团体的数据包", en: "Load a group's pack" },
  pack_reset: { ja: "サンプルパックに戻す", "zh-Hant": "改回範例包", "zh-Hans": "改回示例包", en: "Use the sample pack" },
  pack_sample: { ja: "サンプルパック（例示用）を使用中", "zh-Hant": "正在使用範例包（示範用）", "zh-Hans": "正在使用示例包（示范用）", en: "Using the sample pack (illustrative)" },
  pack_group: { ja: "グループのパック", "zh-Hant": "團體的資料包", "zh-Hans": "团体的数据包", en: "Group pack" },
  pack_refused: { ja: "gunbai はこのパックを受け付けません（world_trigger.validate_data）：", "zh-Hant": "gunbai 不接受這個資料包（world_trigger.validate_data）：", "zh-Hans": "gunbai 不接受这个数据包（world_trigger.validate_data）：", en: "gunbai refuses this pack (world_trigger.validate_data):" },
  pack_not_saved: { ja: "パックは使用中ですが、ブラウザに保存できませんでした。", "zh-Hant": "資料包已使用，但無法存入瀏覽器。", "zh-Hans": "数据包已使用，但无法存入浏览器。", en: "The pack is in use but could not be saved in the browser." },
  host: { ja: "Foundry のアクター／Owlbear のトークンへ送る", "zh-Hant": "傳送到 Foundry 角色／Owlbear 標記", "zh-Hans": "发送到 Foundry 角色／Owlbear 标记", en: "Send to a Foundry actor or an Owlbear token" },
  weapons: { ja: "武器", "zh-Hant": "武器", "zh-Hans": "武器", en: "Weapons" },
  weapon_name: { ja: "名前", "zh-Hant": "名稱", "zh-Hans": "名称", en: "Name" },
  weapon_skill: { ja: "技能", "zh-Hant": "技能", "zh-Hans": "技能", en: "Skill" },
  weapon_damage: { ja: "ダメージ（例：1D8、1D4+DB）", "zh-Hant": "傷害（例：1D8、1D4+DB）", "zh-Hans": "伤害（例：1D8、1D4+DB）", en: "Damage (e.g. 1D8, 1D4+DB)" },
  weapon_range: { ja: "射程（例：近接、射撃20m/1体）", "zh-Hant": "射程（例：近接、射撃20m/1体）", "zh-Hans": "射程（例：近接、射撃20m/1体）", en: "Range (e.g. 近接, 射撃20m/1体)" },
  weapon_add: { ja: "武器を追加", "zh-Hant": "新增武器", "zh-Hans": "添加武器", en: "Add a weapon" },
  weapon_remove: { ja: "削除", "zh-Hant": "刪除", "zh-Hans": "删除", en: "Remove" },
  weapons_note: {
    ja: "武器はシートと一緒にホストへ送られます（Foundry／Owlbear に渡すファイル）。",
    "zh-Hant": "武器會與角色卡一起傳送到主程式（交給 Foundry／Owlbear 的檔案）。",
    "zh-Hans": "武器会与角色卡一起发送到主程序（交给 Foundry／Owlbear 的文件）。",
    en: "Weapons go to the hosts with the sheet (the file given to Foundry or Owlbear).",
  },
  host_copy: { ja: "コピー", "zh-Hant": "複製", "zh-Hans": "复制", en: "Copy" },
  copied: { ja: "コピーしました", "zh-Hant": "已複製", "zh-Hans": "已复制", en: "Copied" },
  copy_by_hand: { ja: "クリップボードが使えません。選択された文字列をコピーしてください", "zh-Hant": "無法使用剪貼簿，請複製已選取的文字", "zh-Hans": "无法使用剪贴板，请复制已选中的文字", en: "No clipboard here: copy the selected text" },
  refused_sheet: { ja: "gunbai はこのシートを受け付けません（{code}）：{field}：{message}", "zh-Hant": "gunbai 不接受這張角色卡（{code}）：{field}：{message}", "zh-Hans": "gunbai 不接受这张角色卡（{code}）：{field}：{message}", en: "gunbai refuses this sheet ({code}): {field}: {message}" },
  pack_illustrative_coc: {
    ja: "能力値の範囲・派生値・ダメージボーナス表・技能の初期値は例示用のデータパックです（シードにはありません。公開されている基本ルールの一般知識から作成）。",
    "zh-Hant": "屬性範圍、衍生數值、傷害加值表與技能初始值為示範用資料包（種子規則中沒有，依公開基本規則的一般知識製作）。",
    "zh-Hans": "属性范围、衍生数值、伤害加值表与技能初始值为示范用数据包（种子规则中没有，依公开基本规则的一般知识制作）。",
    en: "Characteristic ranges, derived values, the damage-bonus table and skill bases come from an illustrative data pack (not in the seeds; written from general knowledge of the published base rules).",
  },
  subtitle: {
    ja: "gunbai（WebAssembly）がブラウザ内で検証・計算します。サーバー不要。",
    "zh-Hant": "由 gunbai（WebAssembly）在瀏覽器中驗證與計算，無需伺服器。",
    "zh-Hans": "由 gunbai（WebAssembly）在浏览器中验证与计算，无需服务器。",
    en: "Validated and computed in your browser by gunbai (WebAssembly). No server.",
  },
  tab_combatant: { ja: "戦闘員", "zh-Hant": "戰鬥員", "zh-Hans": "战斗员", en: "Combatant" },
  tab_operator: { ja: "オペレーター", "zh-Hant": "操作員", "zh-Hans": "操作员", en: "Operator" },
  language: { ja: "言語", "zh-Hant": "語言", "zh-Hans": "语言", en: "Language" },
  name: { ja: "名前", "zh-Hant": "名字", "zh-Hans": "名字", en: "Name" },
  leader: { ja: "隊長（指揮+1）", "zh-Hant": "隊長（指揮+1）", "zh-Hans": "队长（指挥+1）", en: "Team leader (Command +1)" },
  position: { ja: "ポジション", "zh-Hant": "職位", "zh-Hans": "职位", en: "Position" },
  points: { ja: "能力値（20点を配分）", "zh-Hant": "能力值（分配20點）", "zh-Hans": "能力值（分配20点）", en: "Stats (distribute 20 points)" },
  stat: { ja: "能力", "zh-Hant": "能力", "zh-Hans": "能力", en: "Stat" },
  base: { ja: "基本値", "zh-Hant": "基礎值", "zh-Hans": "基础值", en: "Base" },
  pts: { ja: "配分", "zh-Hant": "分配", "zh-Hans": "分配", en: "Points" },
  final: { ja: "最終値", "zh-Hant": "最終值", "zh-Hans": "最终值", en: "Final" },
  total: { ja: "合計", "zh-Hant": "合計", "zh-Hans": "合计", en: "Total" },
  traits: { ja: "特徴（L特徴1つ、またはS特徴2つ）", "zh-Hant": "特徵（1個L特徵或2個S特徵）", "zh-Hans": "特征（1个L特征或2个S特征）", en: "Traits (one L-trait or two S-traits)" },
  master: { ja: "師匠", "zh-Hant": "師父", "zh-Hans": "师父", en: "Master" },
  triggers: { ja: "トリガー", "zh-Hant": "觸發器", "zh-Hans": "触发器", en: "Triggers" },
  main: { ja: "メイン", "zh-Hant": "主觸發器", "zh-Hans": "主触发器", en: "Main" },
  sub: { ja: "サブ", "zh-Hant": "副觸發器", "zh-Hans": "副触发器", en: "Sub" },
  empty: { ja: "（空き）", "zh-Hant": "（空）", "zh-Hans": "（空）", en: "(empty)" },
  derived: { ja: "派生値", "zh-Hant": "衍生數值", "zh-Hans": "衍生数值", en: "Derived stats" },
  movement: { ja: "移動力", "zh-Hant": "移動力", "zh-Hans": "移动力", en: "Movement" },
  base_trion: { ja: "基本トリオン", "zh-Hant": "基礎觸力能", "zh-Hans": "基础触力能", en: "Base Trion" },
  starting_trion: { ja: "開始時トリオン", "zh-Hant": "初始觸力能", "zh-Hans": "初始触力能", en: "Starting Trion" },
  skills: { ja: "使用可能なスキル", "zh-Hant": "可用技能", "zh-Hans": "可用技能", en: "Available skills" },
  trigger_skills: { ja: "トリガースキル", "zh-Hant": "觸發器技能", "zh-Hans": "触发器技能", en: "Trigger skills" },
  unavailable: { ja: "条件未達のスキル", "zh-Hant": "未達條件的技能", "zh-Hans": "未达条件的技能", en: "Skills not yet available" },
  basic_commands: { ja: "基本指令", "zh-Hant": "基本指令", "zh-Hans": "基本指令", en: "Basic commands" },
  position_skill: { ja: "ポジションスキル", "zh-Hant": "職位技能", "zh-Hans": "职位技能", en: "Position skill" },
  needs: { ja: "必要", "zh-Hant": "需要", "zh-Hans": "需要", en: "needs" },
  odds: { ja: "判定の成功率（各能力値）", "zh-Hant": "判定成功率（各能力值）", "zh-Hans": "判定成功率（各能力值）", en: "Check odds for each stat" },
  tactics_dice: { ja: "作戦ダイス", "zh-Hant": "戰術骰", "zh-Hans": "战术骰", en: "Tactics dice" },
  easy: { ja: "易（5）", "zh-Hant": "簡單（5）", "zh-Hans": "简单（5）", en: "Easy (5)" },
  normal: { ja: "普通（10）", "zh-Hant": "普通（10）", "zh-Hans": "普通（10）", en: "Normal (10)" },
  hard: { ja: "難（20）", "zh-Hant": "困難（20）", "zh-Hans": "困难（20）", en: "Hard (20)" },
  check: { ja: "判定", "zh-Hant": "判定", "zh-Hans": "判定", en: "Check" },
  target: { ja: "目標値", "zh-Hant": "目標值", "zh-Hans": "目标值", en: "Target" },
  seed: { ja: "シード（空欄で乱数）", "zh-Hant": "種子（留空為隨機）", "zh-Hans": "种子（留空为随机）", en: "Seed (blank: random)" },
  roll: { ja: "振る", "zh-Hant": "擲骰", "zh-Hans": "掷骰", en: "Roll" },
  achievement: { ja: "達成値", "zh-Hant": "達成值", "zh-Hans": "达成值", en: "Achievement" },
  critical: { ja: "クリティカル", "zh-Hant": "大成功", "zh-Hans": "大成功", en: "Critical" },
  success: { ja: "成功", "zh-Hant": "成功", "zh-Hans": "成功", en: "Success" },
  failure: { ja: "失敗", "zh-Hant": "失敗", "zh-Hans": "失败", en: "Failure" },
  json: { ja: "JSON 読み込み／書き出し", "zh-Hant": "JSON 匯入／匯出", "zh-Hans": "JSON 导入／导出", en: "Import / export (JSON)" },
  export: { ja: "書き出し", "zh-Hant": "匯出", "zh-Hans": "导出", en: "Export" },
  import: { ja: "読み込み", "zh-Hant": "匯入", "zh-Hans": "导入", en: "Import" },
  download: { ja: "ファイルに保存", "zh-Hant": "下載檔案", "zh-Hans": "下载文件", en: "Download file" },
  open_file: { ja: "ファイルを開く", "zh-Hant": "開啟檔案", "zh-Hans": "打开文件", en: "Open file" },
  valid: { ja: "✔ ルールに適合しています", "zh-Hant": "✔ 符合規則", "zh-Hans": "✔ 符合规则", en: "✔ The sheet follows the rules" },
  problems: { ja: "件の問題", "zh-Hant": "個問題", "zh-Hans": "个问题", en: "problem(s)" },
  trion: { ja: "トリオン（1〜8を自由に）", "zh-Hant": "觸力能（1〜8自由選擇）", "zh-Hans": "触力能（1〜8自由选择）", en: "Trion (choose 1–8)" },
  op_points: { ja: "能力値（基本6、5点を配分、上限9）", "zh-Hant": "能力值（基礎6，分配5點，上限9）", "zh-Hans": "能力值（基础6，分配5点，上限9）", en: "Stats (base 6, distribute 5 points, cap 9)" },
  op_skills: { ja: "オペレータースキル", "zh-Hant": "操作員技能", "zh-Hans": "操作员技能", en: "Operator skills" },
  none: { ja: "なし", "zh-Hant": "無", "zh-Hans": "无", en: "none" },
  illustrative: {
    ja: "データは例示用のサンプルパックです（ルールブックのデータではありません）。",
    "zh-Hant": "資料為示範用的範例包（並非規則書資料）。",
    "zh-Hans": "数据为示范用的示例包（并非规则书数据）。",
    en: "Data: the illustrative sample pack (not the rulebook's data).",
  },
  import_refused: {
    ja: "gunbai はこのファイルを受け付けません（{code}）。フォームには読み取れた項目だけが入っています：",
    "zh-Hant": "gunbai 不接受這個檔案（{code}）。表單中只有能讀取的欄位：",
    "zh-Hans": "gunbai 不接受这个文件（{code}）。表单中只有能读取的字段：",
    en: "gunbai refuses this file ({code}). The form holds only the fields it could read:",
  },
  imported_file: { ja: "読み込んだファイル", "zh-Hant": "匯入的檔案", "zh-Hans": "导入的文件", en: "Imported file" },
  general: { ja: "シート全体", "zh-Hant": "整張角色卡", "zh-Hans": "整张角色卡", en: "Whole sheet" },
};

export function t(key, lang) {
  const e = S[key];
  if (!e) return key;
  return e[lang] || e.en;
}
