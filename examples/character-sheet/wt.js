// The World Trigger character-sheet site: every rule (validation, final and
// derived stats, skills, odds, checks) comes from gunbai's core running as
// WebAssembly in the page. This file only reads the form and draws results.
import * as gunbai from "gunbai";
import { LANGS, label, t } from "./i18n.js";

const wt = gunbai.worldTrigger;
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

// Stat names in the four languages come from the core (`world_trigger.labels`).
const NAMES = wt.labels({});
const STAT_LABELS = Object.fromEntries(NAMES.stats.map((s) => [s.stat, s.label]));
const OPERATOR_STAT_LABELS = Object.fromEntries(NAMES.operator_stats.map((s) => [s.stat, s.label]));
const STATS = Object.keys(STAT_LABELS);
const OP_STATS = Object.keys(OPERATOR_STAT_LABELS).filter((s) => s !== "trion");
const SLOTS = 4;
const TARGETS = [
  ["easy", 5],
  ["normal", 10],
  ["hard", 20],
];

const pack = wt.sampleData({});
let lang = initialLang();
let lastCharacter = null;
// The core's refusal of the last imported file, `{code, problems}` (the problems the
// form cannot show because it could not hold what the file says: unknown or mistyped
// fields, ...). It lasts until the form is edited, the sheet exported or another file
// imported; meanwhile the page counts it and never calls the sheet valid.
let refusal = null;

function initialLang() {
  const q = new URLSearchParams(location.search).get("lang");
  const known = LANGS.map(([k]) => k);
  if (known.includes(q)) return q;
  try {
    const saved = localStorage.getItem("gunbai-sheet-lang");
    if (known.includes(saved)) return saved;
  } catch {}
  const nav = (navigator.language || "en").toLowerCase();
  if (nav.startsWith("ja")) return "ja";
  if (nav === "zh-tw" || nav === "zh-hk" || nav.startsWith("zh-hant")) return "zh-Hant";
  if (nav.startsWith("zh")) return "zh-Hans";
  return "en";
}

// ---------- building the form ----------

function fillSelect(select, items, { empty = false } = {}) {
  const keep = select.value;
  select.textContent = "";
  if (empty) select.append(el("option", { value: "", text: t("empty", lang) }));
  for (const [value, text] of items) select.append(el("option", { value, text }));
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

function buildForm() {
  const points = $("#points");
  for (const s of STATS) {
    points.append(
      el(
        "tr",
        { "data-stat": s },
        el("th", { class: "stat-name" }),
        el("td", { class: "base" }),
        el("td", {}, el("input", { type: "number", className: "pts", value: "0", min: "0", max: "20", "data-stat": s })),
        el("td", { class: "final" }),
        el("td", { class: "msg", "data-path": `sheet.points.${s}` }),
      ),
    );
  }
  for (const side of ["main", "sub"]) {
    const box = $(`#${side}-slots`);
    for (let i = 0; i < SLOTS; i++) {
      box.append(
        el(
          "div",
          { class: "slot" },
          el("span", { class: "slot-no", text: String(i + 1) }),
          el("select", { className: "trigger", "data-side": side, "data-slot": String(i) }),
          el("div", { class: "msg", "data-slot-msg": `${side}:${i}` }),
        ),
      );
    }
  }
  const traits = $("#traits");
  for (const tr of pack.traits) {
    traits.append(
      el("label", { class: "check" }, el("input", { type: "checkbox", value: tr.id, className: "trait" }), el("span", { "data-trait": tr.id })),
    );
  }
  const op = $("#op-points");
  for (const s of OP_STATS) {
    op.append(
      el(
        "tr",
        { "data-op-stat": s },
        el("th", { class: "stat-name" }),
        el("td", { class: "base", text: "6" }),
        el("td", {}, el("input", { type: "number", className: "op-pts", value: "0", min: "0", max: "5", "data-stat": s })),
        el("td", { class: "final" }),
        el("td", { class: "msg", "data-op-path": `sheet.points.${s}` }),
      ),
    );
  }
  fillSelect($("#lang"), LANGS);
}

function applyLanguage() {
  document.documentElement.lang = lang;
  $("#lang").value = lang;
  for (const e of $$("[data-i18n]")) e.textContent = t(e.dataset.i18n, lang);
  document.title = `${t("title", lang)} — gunbai`;
  for (const row of $$("#points tr")) $(".stat-name", row).textContent = label(STAT_LABELS[row.dataset.stat], lang);
  for (const row of $$("#op-points tr")) $(".stat-name", row).textContent = label(OPERATOR_STAT_LABELS[row.dataset.opStat], lang);
  fillSelect(
    $("#position"),
    pack.positions.map((p) => [p.id, label(p.label, lang)]),
  );
  fillSelect(
    $("#master"),
    pack.masters.map((m) => [m.id, label(m.label, lang)]),
  );
  fillSelect(
    $("#op-master"),
    pack.operator_masters.map((m) => [m.id, label(m.label, lang)]),
  );
  fillSelect(
    $("#check-stat"),
    STATS.map((s) => [s, label(STAT_LABELS[s], lang)]),
  );
  for (const sel of $$("select.trigger")) {
    const opts = pack.triggers.map((tr) => [tr.id, `${label(tr.label, lang)}${tr.kind === "trigger" ? "" : " ⊕"}`]);
    const cur = sel.value;
    if (cur && !pack.triggers.some((tr) => tr.id === cur)) opts.push([cur, cur]); // an imported unknown id
    fillSelect(sel, opts, { empty: true });
  }
  for (const span of $$("[data-trait]")) {
    const tr = pack.traits.find((x) => x.id === span.dataset.trait);
    span.textContent = `${tr.size.toUpperCase()} · ${label(tr.label, lang)}`;
  }
  $("#pack-note").textContent = pack.meta.illustrative ? t("illustrative", lang) : pack.meta.name;
  $("#version").textContent = gunbai.version;
  try {
    localStorage.setItem("gunbai-sheet-lang", lang);
  } catch {}
  update();
  updateOperator();
  renderCheck();
}

// ---------- combatant ----------

/** The sheet as gunbai's `WtSheet` (also the export format), plus where each trigger came from. */
function readSheet() {
  const points = {};
  for (const inp of $$("input.pts")) points[inp.dataset.stat] = inp.value === "" ? 0 : Number(inp.value);
  const triggers = { main: [], sub: [] };
  const slotOf = { main: [], sub: [] }; // compacted index -> slot element index
  for (const sel of $$("select.trigger")) {
    if (!sel.value) continue;
    slotOf[sel.dataset.side].push(Number(sel.dataset.slot));
    triggers[sel.dataset.side].push(sel.value);
  }
  return {
    sheet: {
      name: $("#name").value,
      position: $("#position").value,
      points,
      leader: $("#leader").checked,
      master: $("#master").value,
      traits: $$("input.trait:checked").map((c) => c.value),
      triggers,
    },
    slotOf,
  };
}

function writeSheet(sheet) {
  $("#name").value = sheet.name ?? "";
  $("#leader").checked = !!sheet.leader;
  if (sheet.position) $("#position").value = sheet.position;
  if (sheet.master !== undefined) ensureOption($("#master"), sheet.master);
  for (const inp of $$("input.pts")) inp.value = String((sheet.points || {})[inp.dataset.stat] ?? 0);
  const traits = sheet.traits || [];
  for (const c of $$("input.trait")) c.checked = traits.includes(c.value);
  for (const side of ["main", "sub"]) {
    const list = (sheet.triggers || {})[side] || [];
    $$(`select.trigger[data-side=${side}]`).forEach((sel, i) => ensureOption(sel, list[i] ?? ""));
  }
}

function ensureOption(select, value) {
  if (value && ![...select.options].some((o) => o.value === value)) select.append(el("option", { value, text: value }));
  select.value = value;
}

function clearMessages(root) {
  for (const m of $$(".msg", root)) {
    if (m.id === "json-msg" || m.id === "op-json-msg") continue;
    m.textContent = "";
    m.classList.remove("bad");
  }
  for (const e of $$(".invalid", root)) e.classList.remove("invalid");
}

/** A violation's text in the page language: the core's `label` (ja / zh / en, in the
 * rulebook's terms) when it has one, else its English `message`. */
function violationText(v) {
  return label(v.label, lang) || v.message;
}

function showMessage(box, v) {
  box.classList.add("bad");
  box.append(el("div", { class: "violation", "data-rule": v.rule, text: `${violationText(v)} [${v.rule}]` }));
}

/** Where a violation's path is shown: the field's own message cell, else the summary list. */
function messageBox(path, slotOf) {
  const m = /^sheet\.triggers\.(main|sub)\[(\d+)\]$/.exec(path);
  if (m) {
    const slot = slotOf[m[1]][Number(m[2])];
    const box = $(`[data-slot-msg="${m[1]}:${slot}"]`);
    if (box) {
      box.previousElementSibling.classList.add("invalid");
      return box;
    }
  }
  const sm = /^sheet\.traits\[\d+\]$/.exec(path);
  if (sm) return $('[data-path="sheet.traits"]');
  const box = $(`#combatant [data-path="${CSS.escape(path)}"]`);
  if (box) {
    const input = box.closest("tr")?.querySelector("input");
    if (input) input.classList.add("invalid");
    return box;
  }
  return null;
}

function update() {
  const { sheet, slotOf } = readSheet();
  clearMessages($("#combatant"));
  const other = $("#other-problems");
  other.textContent = "";
  const total = Object.values(sheet.points).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  $("#points-total").textContent = `${total} / 20`;
  const posData = pack.positions.find((p) => p.id === sheet.position);
  for (const row of $$("#points tr")) {
    const s = row.dataset.stat;
    const base = posData?.base?.[s] ?? 0;
    $(".base", row).textContent = String(base);
  }
  let result;
  try {
    result = wt.validateSheet({ sheet });
  } catch (e) {
    result = { valid: false, violations: [{ path: e.field || "sheet", rule: e.rule || e.code, message: e.message }] };
  }
  for (const v of result.violations) {
    const box = messageBox(v.path, slotOf);
    if (box) showMessage(box, v);
    else other.append(el("li", { class: "violation", "data-rule": v.rule, text: `${v.path}: ${violationText(v)} [${v.rule}]` }));
  }
  const refused = refusal ? refusal.problems : [];
  for (const v of refused) {
    other.append(el("li", { class: "violation imported", "data-rule": v.rule, "data-path": v.path, text: `${t("imported_file", lang)} — ${v.path}: ${violationText(v)} [${v.rule}]` }));
  }
  renderRefusal();
  const valid = result.valid && !refused.length;
  const validity = $("#validity");
  validity.className = `validity ${valid ? "ok" : "bad"}`;
  validity.textContent = valid ? t("valid", lang) : `${result.violations.length + refused.length} ${t("problems", lang)}`;
  lastCharacter = null;
  if (valid) {
    lastCharacter = wt.createCharacter({ sheet });
  }
  renderCharacter(sheet, posData);
  renderOdds();
  $("#json").dataset.stale = "1";
}

/** Final stats: the core's when the sheet is valid, else a preview (base + points). */
function finalStats(sheet, posData) {
  if (lastCharacter) return lastCharacter.stats;
  const out = {};
  for (const s of STATS) out[s] = (posData?.base?.[s] ?? 0) + (Number(sheet.points[s]) || 0);
  return out;
}

function renderCharacter(sheet, posData) {
  const stats = finalStats(sheet, posData);
  for (const row of $$("#points tr")) {
    const f = $(".final", row);
    f.textContent = String(stats[row.dataset.stat]);
    f.classList.toggle("preview", !lastCharacter);
  }
  const dl = $("#derived");
  dl.textContent = "";
  const skills = $("#skills");
  skills.textContent = "";
  if (!lastCharacter) {
    dl.append(el("dt", { text: "—" }));
    return;
  }
  const d = lastCharacter.derived;
  for (const [k, v] of [
    ["movement", d.movement],
    ["base_trion", d.base_trion],
    ["starting_trion", d.starting_trion],
  ]) {
    dl.append(el("dt", { text: t(k, lang) }), el("dd", { text: String(v), "data-derived": k }));
  }
  const group = (title, list, withMissing) => {
    const ul = el("ul", { class: "skills" });
    for (const g of list) {
      const who = g.trigger ? label(pack.triggers.find((x) => x.id === g.trigger)?.label, lang) || g.trigger : "";
      const li = el("li", { "data-skill": g.skill, text: `${label(g.label, lang)}${who ? ` — ${who}` : ""}${g.sides.length ? ` (${g.sides.map((s) => t(s, lang)).join("/")})` : ""}` });
      if (withMissing && g.missing.length) {
        li.append(
          el("span", {
            class: "missing",
            text: ` ${t("needs", lang)} ${g.missing.map((s) => `${label(STAT_LABELS[s], lang)} ${g.requirements[s]}`).join(", ")}`,
          }),
        );
      }
      ul.append(li);
    }
    if (!list.length) ul.append(el("li", { class: "none", text: t("none", lang) }));
    skills.append(el("h3", { text: title }), ul);
  };
  group(t("position_skill", lang), [lastCharacter.position_skill], false);
  group(t("trigger_skills", lang), lastCharacter.trigger_skills, false);
  group(t("basic_commands", lang), lastCharacter.basic_commands, false);
  group(t("unavailable", lang), lastCharacter.unavailable_skills, true);
}

// ---------- odds chart ----------

function renderOdds() {
  const { sheet } = readSheet();
  const posData = pack.positions.find((p) => p.id === sheet.position);
  const stats = finalStats(sheet, posData);
  const tactics = Math.max(0, Math.min(20, Number($("#odds-tactics").value) || 0));
  const W = 720;
  const rowH = 34;
  const left = 150;
  const barW = (W - left - 70) / 1;
  const H = STATS.length * rowH + 44;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "odds");
  svg.setAttribute("role", "img");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  // legend
  TARGETS.forEach(([k], i) => {
    add("rect", { x: left + i * 150, y: 6, width: 14, height: 14, class: `bar t${i}` });
    add("text", { x: left + i * 150 + 20, y: 18, class: "legend" }, t(k, lang));
  });
  for (const x of [0, 0.25, 0.5, 0.75, 1]) {
    add("line", { x1: left + x * barW, x2: left + x * barW, y1: 30, y2: H - 6, class: "grid" });
    add("text", { x: left + x * barW, y: H, class: "tick", "text-anchor": "middle" }, `${Math.round(x * 100)}%`);
  }
  const data = {};
  STATS.forEach((s, r) => {
    const dice = Math.max(0, Math.min(100, Number(stats[s]) || 0));
    const y = 34 + r * rowH;
    add("text", { x: left - 8, y: y + 18, class: "label", "text-anchor": "end" }, `${label(STAT_LABELS[s], lang)} (${dice})`);
    data[s] = {};
    TARGETS.forEach(([k, target], i) => {
      const p = wt.successChance({ dice, target, tactics_dice: tactics }).probability;
      data[s][k] = p;
      const bar = add("rect", {
        x: left,
        y: y + i * 9,
        width: Math.max(0.5, p * barW),
        height: 8,
        class: `bar t${i}`,
        "data-stat": s,
        "data-target": String(target),
        "data-p": String(p),
      });
      const tip = document.createElementNS(ns, "title");
      tip.textContent = `${label(STAT_LABELS[s], lang)}: ${dice}d6${tactics ? ` + ${tactics}` : ""} ≥ ${target}: ${(p * 100).toFixed(1)}%`;
      bar.append(tip);
      if (i === 1) add("text", { x: left + p * barW + 6, y: y + i * 9 + 8, class: "pct" }, `${(p * 100).toFixed(1)}%`);
    });
  });
  const box = $("#odds-chart");
  box.textContent = "";
  box.append(svg);
  box.dataset.odds = JSON.stringify(data);
}

// ---------- a seeded check ----------

let lastCheck = null;

function rollCheck() {
  const { sheet } = readSheet();
  const posData = pack.positions.find((p) => p.id === sheet.position);
  const stats = finalStats(sheet, posData);
  const stat = $("#check-stat").value;
  const args = {
    dice: Math.max(0, Number(stats[stat]) || 0),
    target: Number($("#check-target").value),
    tactics_dice: Number($("#check-tactics").value) || 0,
  };
  const seed = $("#check-seed").value;
  if (seed !== "") args.seed = Number(seed);
  const box = $("#check-result");
  box.textContent = "";
  try {
    const r = wt.check(args);
    box.dataset.args = JSON.stringify(args);
    box.dataset.result = JSON.stringify(r);
    lastCheck = { stat, seed, args, r };
    renderCheck();
  } catch (e) {
    lastCheck = null;
    box.className = "result bad";
    box.textContent = `${e.code}: ${e.message}`;
  }
}

/** Draw the last check in the current language. */
function renderCheck() {
  if (!lastCheck) return;
  const { stat, seed, args, r } = lastCheck;
  const box = $("#check-result");
  box.textContent = "";
  const faces = el("span", { class: "faces" });
  for (const f of r.faces) faces.append(el("span", { class: `die${f === 1 ? " one" : ""}`, text: String(f) }));
  box.append(
    el("div", { text: `${label(STAT_LABELS[stat], lang)} ${args.dice}d6${args.tactics_dice ? ` + ${args.tactics_dice}` : ""}${seed !== "" ? ` · seed ${seed}` : ""}` }),
    faces,
    el("div", {
      class: "achievement",
      text: `${t("achievement", lang)} ${r.achievement}${r.criticals ? ` (${t("critical", lang)} ×${r.criticals})` : ""} ≥ ${r.target}? → ${r.success ? t("success", lang) : t("failure", lang)}`,
    }),
  );
  box.className = `result ${r.success ? "ok" : "bad"}`;
}

// ---------- import / export ----------

function exportSheet() {
  const hadRefusal = !!refusal;
  refusal = null;
  if (hadRefusal) update(); // the textarea now holds the form's sheet, not the refused file
  const { sheet } = readSheet();
  const text = JSON.stringify(sheet, null, 2);
  $("#json").value = text;
  $("#json").dataset.stale = "";
  $("#download").href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  $("#download").download = `${sheet.name || "character"}.json`;
  $("#json-msg").textContent = "";
  $("#json-msg").classList.remove("bad");
}

/** The core's verdict on a sheet (`validate_sheet`'s violations), also when the call itself fails. */
function coreViolations(sheet) {
  try {
    return wt.validateSheet({ sheet }).violations;
  } catch (e) {
    return [{ path: e.field || "sheet", rule: e.rule || e.code, message: e.message }];
  }
}

function importSheet(text) {
  const msg = $("#json-msg");
  msg.textContent = "";
  msg.classList.remove("bad");
  refusal = null;
  let sheet;
  try {
    sheet = JSON.parse(text);
    if (!sheet || typeof sheet !== "object" || Array.isArray(sheet)) throw new Error("not a JSON object");
  } catch (e) {
    update();
    msg.classList.add("bad");
    msg.textContent = `JSON: ${e.message}`;
    return;
  }
  // The file as it is, before the form reads it: the form keeps only the fields it
  // knows (an unknown field, `points.luck`, `"trion": "three"` would vanish), so the
  // core judges the raw file and whatever it refuses that the form does not show
  // again is kept and shown.
  const raw = coreViolations(sheet);
  writeSheet(sheet);
  if (raw.length) {
    const key = (v) => `${v.path}\u0000${v.rule}\u0000${v.message}`;
    const shown = new Set(coreViolations(readSheet().sheet).map(key));
    const problems = raw.filter((v) => !shown.has(key(v)));
    if (problems.length) {
      let code = "invalid_data";
      try {
        wt.createCharacter({ sheet });
      } catch (e) {
        if (e.code) code = e.code;
      }
      refusal = { code, problems };
    }
  }
  update();
}

/** The refusal of the imported file under the import box, in the page language. */
function renderRefusal() {
  if (!refusal) return;
  const msg = $("#json-msg");
  msg.textContent = "";
  msg.classList.add("bad");
  msg.append(el("div", { class: "refused", "data-code": refusal.code, text: t("import_refused", lang).replace("{code}", refusal.code) }));
  const ul = el("ul", { class: "problems" });
  for (const v of refusal.problems) {
    ul.append(el("li", { class: "violation", "data-rule": v.rule, "data-path": v.path, text: `${v.path}: ${violationText(v)} [${v.rule}]` }));
  }
  msg.append(ul);
}

/** The user changed the form: it no longer holds the refused file. */
function formEdited() {
  if (refusal) {
    refusal = null;
    $("#json-msg").textContent = "";
    $("#json-msg").classList.remove("bad");
  }
  update();
}

// ---------- operator ----------

function readOperator() {
  const points = {};
  for (const inp of $$("input.op-pts")) points[inp.dataset.stat] = inp.value === "" ? 0 : Number(inp.value);
  return { name: $("#op-name").value, trion: Number($("#op-trion").value), points, master: $("#op-master").value };
}

function updateOperator() {
  const sheet = readOperator();
  const root = $("#operator");
  clearMessages(root);
  const total = Object.values(sheet.points).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  $("#op-points-total").textContent = `${total} / 5`;
  // The validity box shows only this result: the count line and any violation without a field of its own.
  const validity = $("#op-validity");
  validity.textContent = "";
  validity.className = "validity";
  const skills = $("#op-skills");
  skills.textContent = "";
  let op = null;
  let vs;
  try {
    vs = wt.validateOperator({ sheet }).violations;
  } catch (e) {
    vs = [{ path: e.field || "sheet", rule: e.rule || e.code, message: e.message }];
  }
  if (vs.length) {
    for (const v of vs) {
      const box = $(`[data-op-path="${CSS.escape(v.path)}"]`) || validity;
      showMessage(box, v);
    }
    validity.className = "validity bad";
    validity.prepend(el("div", { text: `${vs.length} ${t("problems", lang)}` }));
  } else {
    op = wt.createOperator({ sheet });
  }
  $("#op-trion-final").textContent = op ? String(op.stats.trion) : "—";
  for (const row of $$("#op-points tr")) {
    const s = row.dataset.opStat;
    $(".final", row).textContent = String(op ? op.stats[s] : 6 + (Number(sheet.points[s]) || 0));
  }
  if (op) {
    validity.className = "validity ok";
    validity.textContent = t("valid", lang);
    const ul = el("ul", { class: "skills" });
    for (const id of op.operator_skills) ul.append(el("li", { text: id }));
    if (!op.operator_skills.length) ul.append(el("li", { class: "none", text: t("none", lang) }));
    skills.append(ul);
  }
}

// ---------- wiring ----------

function showTab(which) {
  $("#combatant").hidden = which !== "combatant";
  $("#operator").hidden = which !== "operator";
  $("#tab-combatant").classList.toggle("active", which === "combatant");
  $("#tab-operator").classList.toggle("active", which === "operator");
}

buildForm();
$("#combatant").addEventListener("input", (e) => {
  if (e.target.id === "json" || e.target.id === "file") return;
  if (e.target.id === "odds-tactics") renderOdds();
  else if (!e.target.closest("#check-result") && !["check-target", "check-tactics", "check-seed", "check-stat"].includes(e.target.id)) formEdited();
});
$("#combatant").addEventListener("change", (e) => {
  if (e.target.tagName === "SELECT" && e.target.id !== "check-stat") formEdited();
});
$("#operator").addEventListener("input", (e) => {
  if (e.target.id !== "op-json") updateOperator();
});
$("#lang").addEventListener("change", () => {
  lang = $("#lang").value;
  applyLanguage();
});
$("#tab-combatant").addEventListener("click", () => showTab("combatant"));
$("#tab-operator").addEventListener("click", () => showTab("operator"));
$("#check-roll").addEventListener("click", rollCheck);
$("#export").addEventListener("click", exportSheet);
$("#import").addEventListener("click", () => importSheet($("#json").value));
$("#file").addEventListener("change", async () => {
  const f = $("#file").files[0];
  if (f) importSheet(await f.text());
});
$("#op-export").addEventListener("click", () => {
  $("#op-json").value = JSON.stringify(readOperator(), null, 2);
});
$("#op-import").addEventListener("click", () => {
  const msg = $("#op-json-msg");
  msg.textContent = "";
  try {
    const s = JSON.parse($("#op-json").value);
    $("#op-name").value = s.name ?? "";
    $("#op-trion").value = String(s.trion ?? "");
    ensureOption($("#op-master"), s.master ?? "");
    for (const inp of $$("input.op-pts")) inp.value = String((s.points || {})[inp.dataset.stat] ?? 0);
    updateOperator();
  } catch (e) {
    msg.textContent = `JSON: ${e.message}`;
  }
});

applyLanguage();
// A starting sheet for the sample pack: 20 points; name, traits and triggers still to choose.
writeSheet({
  name: "",
  position: "attacker",
  points: { trion: 3, attack: 4, defense_support: 2, mobility: 3, technique: 3, range: 1, command: 2, special_tactics: 2 },
  master: pack.masters[0]?.id ?? "",
  traits: [],
  triggers: { main: [], sub: [] },
});
update();
$("#status").textContent = "";
$("#status").hidden = true;
document.body.dataset.ready = "1";
