// The character-sheet site: a system picker and the page language; each system's
// sheet loads only its own gunbai entry (World Trigger, CoC, TMD, FAP/MAP) and
// gets every rule from it. `?system=` and `?lang=` pick them; the last choice is
// remembered in the browser.
import { LANGS, t } from "./i18n.js";
import { SYSTEMS } from "./share.js";

const $ = (sel) => document.querySelector(sel);
const known = (list, v) => (list.includes(v) ? v : null);

function remembered(k) {
  try {
    return localStorage.getItem(k);
  } catch {
    return null;
  }
}
function remember(k, v) {
  try {
    localStorage.setItem(k, v);
  } catch {}
}

function initialLang() {
  const codes = LANGS.map(([k]) => k);
  const q = new URLSearchParams(location.search).get("lang");
  const pick = known(codes, q) || known(codes, remembered("gunbai-sheet-lang"));
  if (pick) return pick;
  const nav = (navigator.language || "en").toLowerCase();
  if (nav.startsWith("ja")) return "ja";
  if (nav === "zh-tw" || nav === "zh-hk" || nav.startsWith("zh-hant")) return "zh-Hant";
  if (nav.startsWith("zh")) return "zh-Hans";
  return "en";
}

function initialSystem() {
  const names = Object.keys(SYSTEMS);
  const q = new URLSearchParams(location.search).get("system");
  return known(names, q) || known(names, remembered("gunbai-sheet-system")) || "world_trigger";
}

const system = initialSystem();
let lang = initialLang();

function fill(select, items, value) {
  select.textContent = "";
  for (const [v, text] of items) select.append(Object.assign(document.createElement("option"), { value: v, textContent: text }));
  select.value = value;
}

function applyChrome() {
  document.documentElement.lang = lang;
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n, lang);
  const title = `${t(`system_${system}`, lang)}${t("sheet_word", lang)}`;
  $("h1").textContent = title;
  document.title = `${title} — gunbai`;
  fill($("#system"), Object.keys(SYSTEMS).map((s) => [s, t(`system_${s}`, lang)]), system);
  fill($("#lang"), LANGS, lang);
  remember("gunbai-sheet-lang", lang);
}

remember("gunbai-sheet-system", system);
document.body.dataset.system = system;
applyChrome();
// Another system: its own entry, so the page reloads (the draft of this one is saved).
$("#system").addEventListener("change", () => {
  const u = new URL(location.href);
  u.searchParams.set("system", $("#system").value);
  u.searchParams.set("lang", lang);
  location.href = u.href;
});

try {
  const gunbai = await import(`gunbai/${SYSTEMS[system].entry}`);
  const mod = system === "world_trigger" ? await import("./wt.js") : await import("./generic.js");
  const sheet = mod.start(gunbai, { system, lang });
  $("#lang").addEventListener("change", () => {
    lang = $("#lang").value;
    applyChrome();
    sheet.setLang(lang);
  });
  $("#status").textContent = "";
  $("#status").hidden = true;
  document.body.dataset.ready = "1";
} catch (e) {
  $("#status").textContent = `gunbai: ${e.code || ""} ${e.message}`;
  throw e;
}
