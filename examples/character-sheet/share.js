// What every system's sheet shares: the systems and their gunbai entries, drafts
// and group packs kept in the browser (localStorage, one key per system), and the
// JSON document a Foundry actor or an Owlbear token reads (README, "Send to a host").

/** The five systems: the package entry each loads and the op that checks its sheet. */
export const SYSTEMS = {
  world_trigger: { entry: "world-trigger", op: "world_trigger.validate_sheet" },
  coc_ap: { entry: "coc6", op: "coc_ap.sheet" },
  coc7_house: { entry: "coc7", op: "coc7_house.sheet" },
  tmd: { entry: "tmd", op: "tmd.sheet" },
  fap_map: { entry: "fap-map", op: "fap_map.sheet" },
};

const key = (kind, system) => `gunbai-sheet-${kind}:${system}`;

function store(k, value) {
  try {
    if (value === null) localStorage.removeItem(k);
    else localStorage.setItem(k, JSON.stringify(value));
    return true;
  } catch {
    return false; // private mode or a full quota: the page still works, without a draft
  }
}

function fetchStored(k) {
  try {
    const v = localStorage.getItem(k);
    return v ? JSON.parse(v) : null;
  } catch {
    return null;
  }
}

/** Save / read / drop the draft of one system's sheet. */
export const saveDraft = (system, value) => store(key("draft", system), value);
export const loadDraft = (system) => fetchStored(key("draft", system));
/** Save / read the weapons of one system's character (CoC: they travel in the host document). */
export const saveWeapons = (system, value) => store(key("weapons", system), value);
export const loadWeapons = (system) => fetchStored(key("weapons", system));
/** A group's own data pack for a system (World Trigger), kept across reloads. */
export const savePack = (system, pack) => store(key("pack", system), pack);
export const loadPack = (system) => fetchStored(key("pack", system));

/** The version of the host document. */
export const HOST_FORMAT = 1;

/**
 * The document a host reads (README, "Send to a Foundry actor or an Owlbear token").
 * `derived` maps each derived value's id to its number, or to its text when it is
 * not a number (a damage bonus such as "+1D4", an initiative range "6–15").
 */
export function hostDocument({ system, sheet, data = null, valid, derived = [], combatant, version }) {
  return {
    gunbai_sheet: HOST_FORMAT,
    system,
    op: SYSTEMS[system].op,
    name: sheet.name ?? "",
    valid: !!valid,
    sheet,
    data,
    derived: Object.fromEntries(derived.map((d) => [d.id, d.value ?? d.text])),
    combatant,
    gunbai: version,
  };
}

/** Read a file given to the import box: a host document (its `sheet`) or a bare sheet. */
export function sheetOfDocument(doc, system) {
  if (doc && typeof doc === "object" && "gunbai_sheet" in doc) {
    if (doc.system !== system) throw new Error(`this file is a ${doc.system} sheet, not ${system}`);
    return doc.sheet;
  }
  return doc;
}

/**
 * Show a host document: in the read-only box, as a download, and copy it to the
 * clipboard when asked (the box keeps it when the clipboard is not available).
 */
export function offerHostDocument(doc, root) {
  const text = JSON.stringify(doc, null, 2);
  const box = root.querySelector(".host-json");
  box.value = text;
  const a = root.querySelector(".host-download");
  if (a.href.startsWith("blob:")) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = `${(doc.name || "character").replace(/[\\/:*?"<>|]/g, "_")}.${doc.system}.gunbai.json`;
  return text;
}

export async function copyText(text, box) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    box.select();
    return false;
  }
}
