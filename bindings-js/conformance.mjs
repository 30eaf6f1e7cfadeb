#!/usr/bin/env node
// Run gunbai conformance vectors against the built npm package:
//   node bindings-js/conformance.mjs [--entry NAME] PATH...
// PATHs are vector files or folders (searched recursively for *.json), from
// anywhere. Prints one line per failing case and ends with "N passed, N failed";
// exits 1 on any failure (2 on usage errors). Matching rules: testdata/README.md.
//
// --entry NAME runs them against a per-ruleset entry (`gunbai/tmd`: NAME is tmd)
// instead of the full package. A case that needs what the entry leaves out (an
// operation it does not register, or `command.run`/`command.help` for a system it does not have)
// is skipped and counted on a line before the last.
import { readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";

const argv = process.argv.slice(2);
const entryAt = argv.indexOf("--entry");
const entry = entryAt >= 0 ? argv.splice(entryAt, 2)[1] : null;
if (entryAt >= 0 && !/^[a-z0-9-]+$/.test(entry ?? "")) {
  console.error("usage: node bindings-js/conformance.mjs [--entry NAME] PATH...");
  process.exit(2);
}
const { call, callBatch, GunbaiError } = await import(entry ? `./pkg/${entry}/index.js` : "./pkg/index.js");

// What this build has: its operations, and (probed once each) command.run's systems.
const operations = new Set(call("meta.operations").operations);
const systems = new Map();
function systemInBuild(system) {
  if (!systems.has(system)) {
    let ok = true;
    try {
      call("command.run", { text: "1d6", system, seed: 0 });
    } catch (e) {
      ok = e.code !== "not_in_build";
    }
    systems.set(system, ok);
  }
  return systems.get(system);
}
/** Why this case can't run on this entry, or null. */
function outOfEntry(c) {
  // Native-only operations (the `odds` feature): Rust and Python run these cases.
  if (c.native_only === true) return "native only";
  for (const step of "steps" in c && Array.isArray(c.steps) ? c.steps : [c]) {
    if (step && typeof step.call_batch === "string" && !operations.has(step.call_batch)) {
      return `${step.call_batch} is not in this entry`;
    }
    if (!step || typeof step.call !== "string") continue;
    if (!operations.has(step.call)) return `${step.call} is not in this entry`;
    const chat = step.call === "command.run" || step.call === "command.help";
    const system = chat && step.args && typeof step.args === "object" ? step.args.system : undefined;
    if (typeof system === "string" && !systemInBuild(system)) return `${step.call} system ${system} is not in this entry`;
  }
  return null;
}

function files(paths) {
  const out = [];
  const walk = (p) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else if (p.endsWith(".json")) {
      out.push(p);
    }
  };
  for (const p of paths) {
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) throw new Error(`no such file or folder: ${p}`);
    if (st.isDirectory()) walk(p);
    else out.push(p);
  }
  // A file named twice (`vec/sub vec/sub/b.json`) is read once.
  const seenPaths = new Set();
  const unique = out.filter((f) => {
    const real = realpathSync(f);
    if (seenPaths.has(real)) return false;
    seenPaths.add(real);
    return true;
  });
  if (unique.length === 0) throw new Error(`no vector files (*.json) in: ${paths.join(" ")}`);
  return unique;
}

const isNum = (x) => typeof x === "number";
// Integers match exactly (JS has one number type: a total of 1000000009 is not
// "close enough" to 1000000008); other numbers to 1e-9 relative; a non-finite
// number only itself.
const numEq = (a, b) => {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  if (Number.isInteger(a) && Number.isInteger(b)) return false;
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
};
// One line per failing case: newlines in messages become spaces.
const oneLine = (s) => String(s).replace(/\s*\n\s*/g, " ");
const show = (x) => JSON.stringify(x);

/** null if `expected` is a subset of `actual`, else why not. */
/** The items of a `{"contains": [...]}` expectation (an object with that one key, an array value). */
function containsForm(expected) {
  if (expected === null || typeof expected !== "object" || Array.isArray(expected)) return null;
  const keys = Object.keys(expected);
  return keys.length === 1 && keys[0] === "contains" && Array.isArray(expected.contains) ? expected.contains : null;
}

export function matches(expected, actual, path = "result") {
  const want = containsForm(expected);
  if (want && Array.isArray(actual)) {
    // Each listed item matches a distinct element, in the listed order.
    let k = 0;
    for (const a of actual) {
      if (k < want.length && matches(want[k], a, path) === null) k++;
    }
    return k < want.length ? `${path}: no element after the earlier matches matches contains[${k}] ${show(want[k])}` : null;
  }
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return `${path}: expected an object, got ${show(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      if (!(k in actual)) return `${path}.${k}: missing in result`;
      const why = matches(v, actual[k], `${path}.${k}`);
      if (why) return why;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`;
    if (expected.length !== actual.length) return `${path}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const why = matches(expected[i], actual[i], `${path}[${i}]`);
      if (why) return why;
    }
    return null;
  }
  if (isNum(expected) && isNum(actual)) return numEq(expected, actual) ? null : `${path}: expected ${expected}, got ${actual}`;
  return expected === actual ? null : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}

const REF = /^\$(\d+)((?:\.[^.]+)*)$/;
const NO_RESULT = Symbol("no result");

/** Replace every string "$N.path.to.field" by that field of step N's result. */
export function substitute(value, results) {
  if (typeof value === "string") {
    const m = REF.exec(value);
    if (!m) return value;
    const n = Number(m[1]);
    if (n >= results.length) throw new Error(`${value}: step ${n} has not run yet`);
    let cur = results[n];
    if (cur === NO_RESULT) throw new Error(`${value}: step ${n} has no result (it expected an error)`);
    for (const key of m[2].split(".").filter(Boolean)) {
      if (Array.isArray(cur) && /^\d+$/.test(key) && Number(key) < cur.length) cur = cur[Number(key)];
      else if (cur !== null && typeof cur === "object" && !Array.isArray(cur) && Object.hasOwn(cur, key)) cur = cur[key];
      else throw new Error(`${value}: no field ${JSON.stringify(key)}`);
    }
    return cur;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, results));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, results)]));
  }
  return value;
}

export function runCase(c) {
  if ("steps" in c) {
    if (!Array.isArray(c.steps)) return '"steps" must be an array';
    const results = [];
    for (let i = 0; i < c.steps.length; i++) {
      const step = c.steps[i];
      if (!step || typeof step !== "object") return `step ${i} is not an object`;
      let args;
      try {
        args = substitute("args" in step ? step.args : {}, results);
      } catch (e) {
        return `step ${i}: ${e.message}`;
      }
      const box = [];
      const why = runSingle({ ...step, args }, box);
      if (why !== null) return `step ${i} (${step.call}): ${why}`;
      results.push(box.length ? box[0] : NO_RESULT);
    }
    return null;
  }
  return runSingle(c, []);
}

// A batch result as a vector compares it: the array, or for a table an object of its
// parts (a part with one column per team, which JS gives as columns, as a list of rows).
function batchJson(r) {
  if (ArrayBuffer.isView(r)) return Array.from(r);
  const out = {};
  for (const [k, v] of Object.entries(r)) {
    out[k] = ArrayBuffer.isView(v) ? Array.from(v) : Array.from(v[0], (_, i) => v.map((col) => col[i]));
  }
  return out;
}

function runSingle(c, box) {
  const batch = "call_batch" in c;
  const op = batch ? c.call_batch : c.call;
  if (op === undefined) return 'case has no "call"';
  if (typeof op !== "string") return '"call" must be a string (an operation name)';
  const hasExpect = "expect" in c, hasError = "expect_error" in c;
  if (hasExpect === hasError) return "case needs exactly one of expect and expect_error";
  let result;
  try {
    result = batch ? batchJson(callBatch(op, "args" in c ? c.args : {})) : call(op, "args" in c ? c.args : {});
  } catch (e) {
    if (!(e instanceof GunbaiError)) return `threw a non-GunbaiError: ${e && e.stack}`;
    if (hasExpect) return `unexpected error [${e.code}] ${e.message}`;
    const want = typeof c.expect_error === "string" ? { code: c.expect_error } : c.expect_error;
    const got = { code: e.code, message: e.message };
    if (e.field !== null) got.field = e.field;
    if (e.rule !== null) got.rule = e.rule;
    if (e.details.length) got.details = e.details;
    if (e.position !== null) got.position = e.position;
    const why = matches(want, got, "error");
    return why === null ? null : `${why} (error was [${e.code}] ${e.message})`;
  }
  if (hasError) return `expected error ${show(c.expect_error)}, got result ${show(result)}`;
  const why = matches(c.expect, result) ?? present(c.expect_absent, result);
  if (why === null) {
    box.push(result);
    return null;
  }
  return `${why} | result: ${show(result)}`;
}

// `expect_absent`: paths (`members.0.at`) none of which may exist in the result.
function present(absent, result) {
  if (absent === undefined) return null;
  if (!Array.isArray(absent)) return '"expect_absent" must be an array of paths';
  for (const p of absent) {
    if (typeof p !== "string") return '"expect_absent" must be an array of paths';
    let cur = result;
    for (const key of p.split(".")) {
      if (Array.isArray(cur)) cur = /^[0-9]+$/.test(key) ? cur[Number(key)] : undefined;
      else if (cur !== null && typeof cur === "object" && Object.hasOwn(cur, key)) cur = cur[key];
      else cur = undefined;
      if (cur === undefined) break;
    }
    if (cur !== undefined) return `result.${p}: expected absent`;
  }
  return null;
}

function main(argv) {
  if (argv.length === 0) {
    console.error("usage: node bindings-js/conformance.mjs [--entry NAME] PATH...");
    return 2;
  }
  let list;
  try {
    list = files(argv);
  } catch (e) {
    console.error(e.message);
    return 2;
  }
  let passed = 0, failed = 0, skipped = 0;
  const seen = new Set();
  for (const f of list) {
    let cases;
    try {
      cases = JSON.parse(readFileSync(f, "utf8"));
    } catch (e) {
      console.log(`FAIL ${f}: unreadable vector file: ${oneLine(e.message)}`);
      failed++;
      continue;
    }
    if (!Array.isArray(cases)) {
      console.log(`FAIL ${f}: a vector file is a JSON array of cases`);
      failed++;
      continue;
    }
    for (const c of cases) {
      const id = c && typeof c === "object" ? String(c.id ?? "<no id>") : "<not an object>";
      if (c && typeof c === "object" && !seen.has(id) && (entry || c.native_only === true) && outOfEntry(c)) {
        seen.add(id);
        skipped++;
        continue;
      }
      const why = !c || typeof c !== "object" ? "case is not an object" : seen.has(id) ? "duplicate id" : runCase(c);
      seen.add(id);
      if (why === null) passed++;
      else {
        failed++;
        console.log(`FAIL ${oneLine(id)} (${f}): ${oneLine(why)}`);
      }
    }
  }
  if (entry || skipped) console.log(`gunbai/${entry ?? "full"}: ${skipped} cases skipped (they need what this entry leaves out)`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("conformance.mjs")) {
  process.exitCode = main(argv);
}
