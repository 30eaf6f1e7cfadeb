// The sheets of CoC 6th (coc_ap.sheet), CoC 7th (coc7_house.sheet), TMD (tmd.sheet)
// and FAP/MAP (fap_map.sheet). The form is built from the core's own answer (the
// stats with their labels and valid ranges, the skills with their base values);
// every derived value and every violation shown is the core's.
import { label, t } from "./i18n.js";
import { SYSTEMS, saveDraft, loadDraft, saveWeapons, loadWeapons, hostDocument, offerHostDocument, copyText, sheetOfDocument } from "./share.js";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const k of kids) e.append(k);
  return e;
};

// Where each system's stats sit in its sheet, and the fields beyond the stats.
// `weapons`: the CoC weapons the engines take (a weapon rolls one of the sheet's skills).
const FORMS = {
  coc_ap: { group: "characteristics", skills: true, weapons: true, extra: [{ key: "ap_bonus", type: "number", min: -100, max: 100 }] },
  coc7_house: { group: "characteristics", skills: true, weapons: true, ranges: true, parts: true, extra: [] },
  tmd: { group: null, skills: false, extra: [{ key: "immune_to_surprise", type: "checkbox" }] },
  fap_map: { group: null, skills: false, extra: [] },
};

let g, system, form, op, lang;
let sheet = {};
/** The CoC weapons: `{name, skill (a skill id of the sheet), damage, range?}` each. */
let weapons = [];
let editingWeapons = false;
let result = null;
let refusal = null;

const statPath = (id) => (form.group ? `${form.group}.${id}` : id);
const getAt = (path) => path.split(".").reduce((o, k) => (o == null ? undefined : o[k]), sheet);
function setAt(path, value) {
  const keys = path.split(".");
  let o = sheet;
  for (const k of keys.slice(0, -1)) o = o[k] && typeof o[k] === "object" ? o[k] : (o[k] = {});
  const last = keys[keys.length - 1];
  if (value === undefined) delete o[last];
  else o[last] = value;
}

/** The core's verdict, or its refusal (`{code, field, message}`) for input that is not a sheet. */
function judge(s) {
  try {
    return { result: g.call(op, { sheet: s }) };
  } catch (e) {
    return { error: { code: e.code || "error", field: e.field || "sheet", message: e.message } };
  }
}

function row(id, path, kind) {
  return el(
    "tr",
    { "data-id": id, "data-kind": kind },
    el("th", { class: "stat-name" }),
    el("td", {}, el("input", { type: "number", className: "val", "data-key": path })),
    el("td", { class: "hint" }),
    el("td", { class: "parts" }),
    el("td", { class: "msg", "data-path": `sheet.${path}` }),
  );
}

function buildForm(blank) {
  const stats = $("#g-stats");
  for (const v of blank.stats) {
    const r = row(v.id, statPath(v.id), "stat");
    const inp = $("input", r);
    if (v.min != null) inp.min = String(v.min);
    if (v.max != null) inp.max = String(v.max);
    stats.append(r);
  }
  const extra = $("#g-extra");
  for (const f of form.extra) {
    const inp = el("input", { type: f.type, "data-key": f.key });
    if (f.type === "number") Object.assign(inp, { min: String(f.min), max: String(f.max), className: "val" });
    extra.append(el("label", { class: f.type === "checkbox" ? "check" : "" }, inp, el("span", { "data-i18n": f.key })), el("div", { class: "msg", "data-path": `sheet.${f.key}` }));
  }
  $("#g-skills-card").hidden = !form.skills;
  const skills = $("#g-skills");
  for (const v of blank.skills) skills.append(row(v.id, `skills.${v.id}`, "skill"));
  $("#g-stats-title").dataset.i18n = form.group ? "characteristics" : "stats_title";
}

/** A starting sheet: a blank name and each stat in the middle of its valid range. */
function startingSheet(blank) {
  const s = { name: "" };
  for (const v of blank.stats) {
    const mid = form.group && v.min != null && v.max != null ? Math.floor((v.min + v.max) / 2) : 0;
    if (form.group) (s[form.group] ||= {})[v.id] = mid;
    else s[v.id] = mid;
  }
  return s;
}

/** Put the sheet into the inputs (an input being typed in keeps its text). */
function writeForm() {
  for (const inp of $$("#generic [data-key]")) {
    if (inp === document.activeElement) continue;
    const v = getAt(inp.dataset.key);
    if (inp.type === "checkbox") inp.checked = !!v;
    else if (inp.closest("tr")?.dataset.kind === "skill" && v === undefined) {
      const sk = result?.skills.find((x) => x.id === inp.closest("tr").dataset.id);
      inp.value = sk?.value != null ? String(sk.value) : "";
    } else inp.value = v === undefined || v === null ? "" : String(v);
  }
}

function readInput(inp) {
  if (inp.type === "checkbox") return setAt(inp.dataset.key, inp.checked);
  if (inp.type !== "number") return setAt(inp.dataset.key, inp.value);
  // An empty skill goes back to its base value; an empty stat is missing (`required`).
  if (inp.value === "") return setAt(inp.dataset.key, inp.dataset.key === "ap_bonus" || !form.group ? 0 : undefined);
  const n = Number(inp.value);
  setAt(inp.dataset.key, Number.isFinite(n) ? n : inp.value);
}

const violationText = (v) => `${label(v.label, lang) || v.message} [${v.rule}]`;

function render() {
  const root = $("#generic");
  for (const m of $$(".msg[data-path]", root)) m.textContent = "";
  for (const e of $$(".invalid", root)) e.classList.remove("invalid");
  const problems = $("#g-problems");
  problems.textContent = "";
  const validity = $("#g-validity");
  if (refusal) {
    validity.className = "validity bad";
    validity.textContent = t("refused_sheet", lang).replace("{code}", refusal.code).replace("{field}", refusal.field).replace("{message}", refusal.message);
    validity.dataset.code = refusal.code;
  } else {
    delete validity.dataset.code;
    validity.className = `validity ${result.valid ? "ok" : "bad"}`;
    validity.textContent = result.valid ? t("valid", lang) : `${result.violations.length} ${t("problems", lang)}`;
    for (const v of result.violations) {
      const box = $(`.msg[data-path="${CSS.escape(v.path)}"]`, root);
      const line = el("div", { class: "violation", "data-rule": v.rule, "data-code": v.code, "data-path": v.path, text: violationText(v) });
      if (box) {
        box.append(line);
        box.closest("tr")?.querySelector("input")?.classList.add("invalid");
      } else problems.append(el("li", {}, line));
    }
  }
  const last = result || { stats: [], derived: [], skills: [] };
  for (const r of $$("#g-stats tr, #g-skills tr")) {
    const list = r.dataset.kind === "stat" ? last.stats : last.skills;
    const v = list.find((x) => x.id === r.dataset.id);
    const blank = r.dataset.kind === "stat" ? labels.stats[r.dataset.id] : labels.skills[r.dataset.id];
    $(".stat-name", r).textContent = label(v?.label || blank, lang);
    const hint = $(".hint", r);
    if (r.dataset.kind === "stat") hint.textContent = v?.min != null && v?.max != null ? `${v.min}–${v.max}` : "";
    else hint.textContent = v?.min != null ? `${t("base_value", lang)} ${v.min}` : "";
    const parts = $(".parts", r);
    parts.textContent = form.parts && v?.half != null ? `${v.half} / ${v.fifth}` : "";
    parts.title = form.parts ? t("half_fifth", lang) : "";
    if (v?.half != null) Object.assign(parts.dataset, { half: String(v.half), fifth: String(v.fifth) });
  }
  const dl = $("#g-derived");
  dl.textContent = "";
  for (const d of last.derived) {
    dl.append(el("dt", { text: label(d.label, lang) }), el("dd", { "data-derived": d.id, "data-rule": d.rule, text: d.text || "—" }, el("span", { class: "rule", text: ` ${d.rule}` })));
  }
  renderWeapons();
  for (const e of $$("[data-i18n]", root)) e.textContent = t(e.dataset.i18n, lang);
  writeForm();
  renderHost();
}

/** A derived value of the core's answer (its number, else its text), or undefined. */
const derivedOf = (id) => {
  const d = result?.derived?.find((x) => x.id === id);
  return d ? d.value ?? (d.text || undefined) : undefined;
};
/** A skill's value in the core's answer (a skill left out takes its base value). */
const skillValue = (id) => result?.skills?.find((x) => x.id === id)?.value ?? 0;

/**
 * The weapons as the engine takes them: the skill's value from the core's answer; CoC
 * 6th names a weapon by `name`, CoC 7th by `id` (with its `range`, when given).
 */
function engineWeapons() {
  return weapons
    .filter((w) => w.name && w.damage)
    .map((w) => (system === "coc_ap" ? { name: w.name, skill: skillValue(w.skill), damage: w.damage } : { id: w.name, skill: skillValue(w.skill), damage: w.damage, ...(w.range ? { range: w.range } : {}) }));
}

/**
 * What the system's engine takes for this character, less what the host decides (its
 * own `id`, the side or team, a square): the sheet's stats, the core's derived HP,
 * Dodge and damage bonus where the engine takes them, and the weapons.
 */
function combatant() {
  const n = (v) => (typeof v === "number" ? v : 0);
  const c = sheet.characteristics || {};
  const hp = derivedOf("hp");
  const ws = engineWeapons();
  switch (system) {
    case "coc_ap":
      return {
        dex: n(c.dex),
        skills: Object.fromEntries((result?.skills || []).filter((s) => s.value != null).map((s) => [s.id, s.value])),
        ap_bonus: n(sheet.ap_bonus),
        ...(typeof hp === "number" && hp >= 1 ? { hp_max: hp } : {}),
        ...(ws.length ? { weapons: ws } : {}),
      };
    case "coc7_house": {
      const db = derivedOf("db");
      return {
        dex: n(c.dex),
        is_pc: true,
        ...(typeof hp === "number" ? { hp } : {}),
        dodge: skillValue("dodge"),
        ...(db !== undefined && String(db) !== "0" ? { db: String(db) } : {}),
        ...(ws.length ? { weapons: ws } : {}),
      };
    }
    case "tmd":
      return { base_initiative: n(sheet.base_initiative), immune_to_surprise: !!sheet.immune_to_surprise };
    default:
      return { reaction: n(sheet.reaction), magic: n(sheet.magic), agility: n(sheet.agility), ...(sheet.traits ? { traits: sheet.traits } : {}) };
  }
}

/** The weapons table: one row per weapon (name, the skill it rolls, damage, CoC 7th range). */
function renderWeapons() {
  const card = $("#g-weapons-card");
  card.hidden = !form.weapons;
  if (!form.weapons) return;
  for (const c of $$(".c7", card)) c.hidden = !form.ranges;
  const body = $("#g-weapons");
  const skills = result?.skills || [];
  // (an edit in a row keeps the rows: the inputs being typed in stay)
  if (editingWeapons) return;
  body.textContent = "";
  weapons.forEach((w, i) => {
    const sel = el("select", { "data-w": "skill" });
    for (const sk of skills) sel.append(el("option", { value: sk.id, text: label(sk.label || labels.skills[sk.id], lang) }));
    sel.value = w.skill;
    const input = (f, size) => el("input", { "data-w": f, value: w[f] ?? "", size, autocomplete: "off" });
    const range = el("td", { class: "c7" }, input("range", 12));
    range.hidden = !form.ranges;
    body.append(
      el(
        "tr",
        { "data-i": String(i) },
        el("td", {}, input("name", 12)),
        el("td", {}, sel),
        el("td", {}, input("damage", 10)),
        range,
        el("td", {}, el("button", { type: "button", class: "remove", text: t("weapon_remove", lang) })),
      ),
    );
  });
}

function renderHost() {
  const doc = hostDocument({ system, sheet, valid: !refusal && result?.valid, derived: refusal ? [] : result?.derived || [], combatant: combatant(), version: g.version });
  offerHostDocument(doc, $("#generic"));
}

function update() {
  const j = judge(sheet);
  refusal = j.error || null;
  if (j.result) result = j.result;
  saveDraft(system, sheet);
  if (form.weapons) saveWeapons(system, weapons);
  render();
}

function exportSheet() {
  const text = JSON.stringify(sheet, null, 2);
  $("#g-json").value = text;
  const a = $("#g-download");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = `${sheet.name || "character"}.${system}.json`;
}

/** Import a sheet (or a host document): the core judges it first; a refused file leaves the form as it was. */
function importSheet(text) {
  const msg = $("#g-json-msg");
  msg.textContent = "";
  let s;
  let doc;
  try {
    doc = JSON.parse(text);
    s = sheetOfDocument(doc, system);
    if (!s || typeof s !== "object" || Array.isArray(s)) throw new Error("not a JSON object");
  } catch (e) {
    msg.textContent = `JSON: ${e.message}`;
    return;
  }
  const j = judge(s);
  if (j.error) {
    msg.append(el("div", { class: "refused", "data-code": j.error.code, "data-field": j.error.field, text: t("refused_sheet", lang).replace("{code}", j.error.code).replace("{field}", j.error.field).replace("{message}", j.error.message) }));
    return;
  }
  sheet = s;
  // a host document's weapons come back too (their skill by value: the skill that has it)
  const ws = doc && typeof doc === "object" && "gunbai_sheet" in doc ? doc.combatant?.weapons : null;
  if (form.weapons && Array.isArray(ws)) {
    const skills = judge(s).result?.skills || [];
    weapons = ws.map((w) => ({ name: String(w.name ?? w.id ?? ""), skill: skills.find((x) => x.value === w.skill)?.id ?? skills[0]?.id ?? "", damage: String(w.damage ?? ""), range: String(w.range ?? "") }));
  }
  update();
}

let labels;

/** Start a sheet of `ctx.system` with its gunbai entry. */
export function start(gunbai, ctx) {
  g = gunbai;
  system = ctx.system;
  lang = ctx.lang;
  form = FORMS[system];
  op = SYSTEMS[system].op;
  // The form's rows: the core's answer for an empty sheet lists every stat and skill.
  const blank = g.call(op, { sheet: {} });
  labels = {
    stats: Object.fromEntries(blank.stats.map((v) => [v.id, v.label])),
    skills: Object.fromEntries(blank.skills.map((v) => [v.id, v.label])),
  };
  buildForm(blank);
  $("#generic").hidden = false;
  // The CoC ops use their bundled packs here, which are illustrative (core/data/coc/).
  if (form.group) $("#g-pack-note").dataset.i18n = "pack_illustrative_coc";
  $("#version").textContent = g.version;
  const draft = loadDraft(system);
  sheet = draft && typeof draft === "object" && !Array.isArray(draft) ? draft : startingSheet(blank);
  result = blank;
  const ws = form.weapons ? loadWeapons(system) : null;
  weapons = Array.isArray(ws) ? ws.filter((w) => w && typeof w === "object") : [];
  update();
  $("#generic").addEventListener("input", (e) => {
    const inp = e.target;
    if (!inp.dataset.key) return;
    readInput(inp);
    update();
  });
  if (form.weapons) {
    $("#g-weapon-add").addEventListener("click", () => {
      weapons.push({ name: "", skill: result?.skills?.[0]?.id ?? "", damage: "", range: "" });
      update();
      $("#g-weapons tr:last-child input[data-w='name']")?.focus();
    });
    const body = $("#g-weapons");
    const edit = (e) => {
      const f = e.target.dataset?.w;
      const i = Number(e.target.closest("tr")?.dataset.i);
      if (!f || !weapons[i]) return;
      weapons[i][f] = e.target.value.trim();
      editingWeapons = true;
      try {
        update();
      } finally {
        editingWeapons = false;
      }
    };
    body.addEventListener("input", edit);
    body.addEventListener("change", edit);
    body.addEventListener("click", (e) => {
      if (!e.target.classList?.contains("remove")) return;
      weapons.splice(Number(e.target.closest("tr").dataset.i), 1);
      body.textContent = "";
      update();
    });
  }
  $("#g-export").addEventListener("click", exportSheet);
  $("#g-import").addEventListener("click", () => importSheet($("#g-json").value));
  $("#g-file").addEventListener("change", async () => {
    const f = $("#g-file").files[0];
    if (f) importSheet(await f.text());
    $("#g-file").value = "";
  });
  $("#g-host-copy").addEventListener("click", async () => {
    const box = $("#generic .host-json");
    $("#g-host-msg").textContent = t((await copyText(box.value, box)) ? "copied" : "copy_by_hand", lang);
  });
  return {
    setLang(l) {
      lang = l;
      render();
    },
  };
}
