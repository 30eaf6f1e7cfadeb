// The character-sheet site's file in Owlbear (examples/character-sheet, "Send to a
// Foundry actor or an Owlbear token"): the GM pastes or drops it for a token in the
// setup, and the token's metadata keeps what the engine takes of the character — its
// `combatant` as the file gives it (World Trigger: its `sheet`, in the token's `sheet`
// as a token sheet). Each mode starts its engine from it with the token's own id, side
// and square; nothing of it is read or changed here but its shape.

/** The import box's texts. */
export const SHEET_UI = {
  title: { en: "Import a character sheet", ja: "キャラクターシートを読み込む", "zh-Hant": "匯入角色卡", "zh-Hans": "导入角色卡" },
  hint: {
    en: "Paste the file the gunbai character-sheet site gives under “Send to a Foundry actor or an Owlbear token”, or drop the file here.",
    ja: "gunbai キャラクターシートの「Foundry のアクター／Owlbear のトークンへ送る」のファイルを貼り付けるか、ここにドロップしてください。",
    "zh-Hant": "貼上 gunbai 角色卡網站「傳送到 Foundry 角色／Owlbear 標記」給出的檔案，或將檔案拖放到這裡。",
    "zh-Hans": "粘贴 gunbai 角色卡网站「发送到 Foundry 角色／Owlbear 标记」给出的文件，或将文件拖放到这里。",
  },
  token: { en: "Token", ja: "トークン", "zh-Hant": "標記", "zh-Hans": "标记" },
  import: { en: "Import", ja: "読み込む", "zh-Hant": "匯入", "zh-Hans": "导入" },
  imported: { en: "{token}: imported {name}", ja: "{token}：{name} を読み込みました", "zh-Hant": "{token}：已匯入 {name}", "zh-Hans": "{token}：已导入 {name}" },
  fromSheet: { en: "sheet: {name}", ja: "シート：{name}", "zh-Hant": "角色卡：{name}", "zh-Hans": "角色卡：{name}" },
  notSheet: {
    en: "This is not a gunbai character-sheet file (gunbai_sheet: 1).",
    ja: "gunbai のキャラクターシートのファイル（gunbai_sheet: 1）ではありません。",
    "zh-Hant": "這不是 gunbai 角色卡檔案（gunbai_sheet: 1）。",
    "zh-Hans": "这不是 gunbai 角色卡文件（gunbai_sheet: 1）。",
  },
  otherSystem: {
    en: "This sheet is for {system}; the scene runs {scene}.",
    ja: "このシートは {system} 用です。このシーンは {scene} です。",
    "zh-Hant": "這張角色卡屬於 {system}；此場景是 {scene}。",
    "zh-Hans": "这张角色卡属于 {system}；此场景是 {scene}。",
  },
};

/**
 * The file's document for `system`: `{system, name, combatant}`. Throws an Error whose
 * `code` is `not_sheet` (not such a file) or `other_system` (another ruleset's).
 * @param {string} text the pasted or dropped file
 * @param {string} system the scene's ruleset
 */
export function readSheetFile(text, system) {
  /** @type {any} */
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = null;
  }
  const c = doc?.combatant;
  if (!doc || typeof doc !== "object" || doc.gunbai_sheet !== 1 || !c || typeof c !== "object" || Array.isArray(c)) {
    throw Object.assign(new Error("not a gunbai character-sheet file"), { code: "not_sheet" });
  }
  if (doc.system !== system) throw Object.assign(new Error(`a ${doc.system} sheet`), { code: "other_system", system: String(doc.system) });
  if (system === "world_trigger" && (!c.sheet || typeof c.sheet !== "object")) throw Object.assign(new Error("no sheet"), { code: "not_sheet" });
  return { system, name: typeof doc.name === "string" ? doc.name : "", combatant: c };
}

/**
 * A token's metadata with the file's character in it: `imported` (its ruleset, name,
 * `combatant`, and a stamp that tells one import from the next); World Trigger also
 * puts the sheet in the token's `sheet`, where a token sheet lives.
 * @param {Record<string, any>} meta
 * @param {{system: string, name: string, combatant: Record<string, any>}} doc
 */
export function metaWithSheet(meta, doc) {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  if (doc.system === "world_trigger") return { ...meta, sheet: doc.combatant.sheet, imported: { system: doc.system, name: doc.name, stamp } };
  return { ...meta, imported: { system: doc.system, name: doc.name, combatant: doc.combatant, stamp } };
}

/**
 * What a token's imported file gives the engine for `system` (its `combatant`), or null.
 * @param {Record<string, any>} meta
 * @param {string} system
 * @returns {Record<string, any> | null}
 */
export function importedOf(meta, system) {
  const imp = meta?.imported;
  return imp && imp.system === system && imp.combatant && typeof imp.combatant === "object" ? imp.combatant : null;
}
