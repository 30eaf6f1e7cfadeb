// The World Trigger sheet: every rule (validation, final and derived stats,
// skills, odds, checks) comes from gunbai's core running as WebAssembly in the
// page (the package's World Trigger entry, loaded by app.js). This file only reads
// the form and draws results.
import { label, t } from "./i18n.js";
import { saveDraft, loadDraft, hostDocument, offerHostDocument, copyText, savePack, loadPack } from "./share.js";

let gunbai, wt;
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
let STAT_LABELS, OPERATOR_STAT_LABELS, STATS, OP_STATS;
const SLOTS = 4;
const TARGETS = [
  ["easy", 5],
  ["normal", 10],
  ["hard", 20],
];

// The data pack: the bundled sample pack, or a group's own pack (checked by
// `world_trigger.validate_data`, then passed as `data` to every sheet call).
let pack;
let groupPack = null;
const withData = (args) => (groupPack ? { ...args, data: groupPack } : args);
let lang;
let lastCharacter = null;
// The core's refusal of the last imported file, `{code, problems}` (the problems the
// form cannot show because it could not hold what the file says: unknown or mistyped
// fields, ...). It lasts until the form is edited, the sheet exported or another file
// imported; meanwhile the page counts it and never calls the sheet valid.
let refusal = null;

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
}

/** The pack's traits as checkboxes (rebuilt when a group's pack is loaded). */
function buildTraits() {
  const traits = $("#traits");
  const keep = $$("input.trait:checked").map((c) => c.value);
  traits.textContent = "";
  for (const tr of pack.traits || []) {
    traits.append(
      el("label", { class: "check" }, el("input", { type: "checkbox", value: tr.id, className: "trait", checked: keep.includes(tr.id) }), el("span", { "data-trait": tr.id })),
    );
  }
}

// Offer only choices that can be valid. WT-CC-7: one main slot holds a trigger of the
// position's type, so a position is offered only when the pack has a trigger (not an
// option) of one of its types (the sample pack has no gun-type trigger: no Gunner).
// WT-TRG-6: a dedicated option is offered only when its base trigger is in the pack.
function possiblePositions() {
  const triggers = pack.triggers || [];
  return (pack.positions || []).filter((p) => triggers.some((tr) => tr.kind === "trigger" && (p.main_trigger_types || []).includes(tr.trigger_type)));
}

function possibleTriggers() {
  const triggers = pack.triggers || [];
  return triggers.filter((tr) => tr.kind !== "dedicated_option" || triggers.some((b) => b.id === tr.base));
}

function applyLanguage() {
  document.documentElement.lang = lang;
  $("#lang").value = lang;
  for (const e of $$("[data-i18n]")) e.textContent = t(e.dataset.i18n, lang);
  for (const row of $$("#points tr")) $(".stat-name", row).textContent = label(STAT_LABELS[row.dataset.stat], lang);
  for (const row of $$("#op-points tr")) $(".stat-name", row).textContent = label(OPERATOR_STAT_LABELS[row.dataset.opStat], lang);
  const pos = $("#position").value;
  fillSelect(
    $("#position"),
    possiblePositions().map((p) => [p.id, label(p.label, lang)]),
  );
  if (pos && $("#position").value !== pos) ensureOption($("#position"), pos); // an imported id the pack cannot satisfy
  fillSelect(
    $("#master"),
    (pack.masters || []).map((m) => [m.id, label(m.label, lang)]),
  );
  fillSelect(
    $("#op-master"),
    (pack.operator_masters || []).map((m) => [m.id, label(m.label, lang)]),
  );
  fillSelect(
    $("#check-stat"),
    STATS.map((s) => [s, label(STAT_LABELS[s], lang)]),
  );
  for (const sel of $$("select.trigger")) {
    const offered = possibleTriggers();
    const opts = offered.map((tr) => [tr.id, `${label(tr.label, lang)}${tr.kind === "trigger" ? "" : " ⊕"}`]);
    const cur = sel.value;
    if (cur && !offered.some((tr) => tr.id === cur)) opts.push([cur, cur]); // an imported unknown id
    fillSelect(sel, opts, { empty: true });
  }
  for (const span of $$("[data-trait]")) {
    const tr = (pack.traits || []).find((x) => x.id === span.dataset.trait);
    span.textContent = `${tr.size.toUpperCase()} · ${label(tr.label, lang)}`;
  }
  $("#pack-note").textContent = pack.meta?.illustrative ? t("illustrative", lang) : pack.meta?.name || "";
  $("#pack-name").textContent = groupPack ? `${t("pack_group", lang)}: ${pack.meta?.name || pack.meta?.id || ""}` : t("pack_sample", lang);
  $("#pack-reset").hidden = !groupPack;
  $("#version").textContent = gunbai.version;
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
  if (sheet.position) ensureOption($("#position"), sheet.position);
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
    result = wt.validateSheet(withData({ sheet }));
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
    lastCharacter = wt.createCharacter(withData({ sheet }));
  }
  renderCharacter(sheet, posData);
  renderOdds();
  $("#json").dataset.stale = "1";
  saveDraft("world_trigger", { sheet, operator: readOperator() });
  renderHost(sheet, valid);
}

/** The document for a Foundry actor or an Owlbear token (README, "Send to a host"). */
function renderHost(sheet, valid) {
  const d = lastCharacter?.derived || {};
  const derived = Object.entries(d).map(([id, value]) => ({ id, value }));
  const doc = hostDocument({ system: "world_trigger", sheet, data: groupPack, valid, derived, combatant: { sheet }, version: gunbai.version });
  offerHostDocument(doc, $("#combatant"));
}

// ---------- a group's data pack ----------

/** Load a group's pack: `world_trigger.validate_data` first; a pack with problems is refused, listed. */
function loadGroupPack(text) {
  const msg = $("#pack-msg");
  msg.textContent = "";
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    msg.textContent = `JSON: ${e.message}`;
    return false;
  }
  const r = wt.validateData({ data });
  if (!r.valid) {
    msg.append(el("div", { class: "refused", text: t("pack_refused", lang) }));
    const ul = el("ul", { class: "problems" });
    for (const v of r.violations.slice(0, 20)) ul.append(el("li", { class: "violation", "data-rule": v.rule, "data-path": v.path, text: `${v.path}: ${v.message} [${v.rule}]` }));
    msg.append(ul);
    return false;
  }
  usePack(data);
  if (!savePack("world_trigger", data)) msg.textContent = t("pack_not_saved", lang);
  return true;
}

function usePack(data) {
  groupPack = data;
  pack = data || wt.sampleData({});
  buildTraits();
  applyLanguage();
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
    return wt.validateSheet(withData({ sheet })).violations;
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
        wt.createCharacter(withData({ sheet }));
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

function writeOperator(s) {
  $("#op-name").value = s.name ?? "";
  $("#op-trion").value = String(s.trion ?? "");
  ensureOption($("#op-master"), s.master ?? "");
  for (const inp of $$("input.op-pts")) inp.value = String((s.points || {})[inp.dataset.stat] ?? 0);
}

function updateOperator() {
  const sheet = readOperator();
  saveDraft("world_trigger", { sheet: readSheet().sheet, operator: sheet });
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
    vs = wt.validateOperator(withData({ sheet })).violations;
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
    op = wt.createOperator(withData({ sheet }));
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

/** Start the World Trigger sheet with the package's World Trigger entry. */
export function start(g, ctx) {
  gunbai = g;
  wt = g.worldTrigger;
  lang = ctx.lang;
  const NAMES = wt.labels({});
  STAT_LABELS = Object.fromEntries(NAMES.stats.map((s) => [s.stat, s.label]));
  OPERATOR_STAT_LABELS = Object.fromEntries(NAMES.operator_stats.map((s) => [s.stat, s.label]));
  STATS = Object.keys(STAT_LABELS);
  OP_STATS = Object.keys(OPERATOR_STAT_LABELS).filter((s) => s !== "trion");
  $("#wt").hidden = false;
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
  $("#pack-file").addEventListener("change", async () => {
    const f = $("#pack-file").files[0];
    if (f) loadGroupPack(await f.text());
    $("#pack-file").value = "";
  });
  $("#pack-reset").addEventListener("click", () => {
    savePack("world_trigger", null);
    $("#pack-msg").textContent = "";
    usePack(null);
  });
  $("#host-copy").addEventListener("click", async () => {
    const ok = await copyText($("#combatant .host-json").value, $("#combatant .host-json"));
    $("#host-msg").textContent = t(ok ? "copied" : "copy_by_hand", lang);
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
      writeOperator(JSON.parse($("#op-json").value));
      updateOperator();
    } catch (e) {
      msg.textContent = `JSON: ${e.message}`;
    }
  });

  const draft = loadDraft("world_trigger");
  const stored = loadPack("world_trigger");
  if (stored && wt.validateData({ data: stored }).valid) usePack(stored);
  else usePack(null);
  if (draft?.sheet) {
    writeSheet(draft.sheet);
  } else {
    // A starting sheet for the sample pack: 20 points; name, traits and triggers still to choose.
    writeSheet({
      name: "",
      position: "attacker",
      points: { trion: 3, attack: 4, defense_support: 2, mobility: 3, technique: 3, range: 1, command: 2, special_tactics: 2 },
      master: pack.masters?.[0]?.id ?? "",
      traits: [],
      triggers: { main: [], sub: [] },
    });
  }
  if (draft?.operator) writeOperator(draft.operator);
  applyLanguage();
  return {
    setLang(l) {
      lang = l;
      applyLanguage();
    },
  };
}
