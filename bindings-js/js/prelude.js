// The hand-written part of the npm package `gunbai`: wasm loading and the
// one generic `call`. Everything after it is generated per operation.
import initWasm, { call as nativeCall, call_batch as nativeCallBatch } from "./wasm/gunbai_js.js";

/** Error thrown by every gunbai operation; `.code` is stable. */
export class GunbaiError extends Error {
  constructor(info) {
    super(info && info.message ? info.message : String(info));
    this.name = "GunbaiError";
    this.code = (info && info.code) || "internal";
    this.field = (info && info.field) ?? null;
    this.rule = (info && info.rule) ?? null;
    this.details = (info && info.details) || [];
    this.position = (info && info.position) ?? null;
  }
}

// @gunbai-load-begin: scripts/build-js.sh replaces this block in `inline.js`
// (entry point `gunbai/inline`) with one that decodes the wasm inlined as base64.
async function loadWasm() {
  const url = new URL("./wasm/gunbai_js_bg.wasm", import.meta.url);
  if (url.protocol === "file:") {
    // Node (and Deno/Bun) import from disk; fetch() cannot read file: URLs. The
    // specifier is not a literal so that bundlers leave this Node-only branch alone.
    const fsName = "node:fs/promises";
    const fs = globalThis.process?.getBuiltinModule?.(fsName) ?? (await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName));
    await initWasm({ module_or_path: await fs.readFile(url) });
  } else {
    // Browsers and bundlers (Vite rewrites this URL to the emitted asset). A server
    // that sends another Content-Type than application/wasm costs a console warning
    // and a non-streaming compile; `gunbai/inline` needs no .wasm file at all.
    await initWasm({ module_or_path: url });
  }
}
// @gunbai-load-end
await loadWasm();

function entropy() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return words;
}

// JSON.stringify writes NaN and ±Infinity as null and leaves out functions and
// symbols, which would read as "not given" (`seed: NaN` or `seed: () => 1` would
// silently roll unseeded); refuse them, and text that is not valid Unicode (a lone
// surrogate) in a value or a key, as Python does; and a Set or Map, which it would
// write as `{}`. A typed array (a batch result passed back in) is written as the
// array of its numbers, as Python writes a numpy array. `undefined` and `null`
// both mean "not given" (the core's rule).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function whyNotJson(value) {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? null : `${value} is not a JSON number`;
    case "bigint":
      return "a BigInt is not a JSON number";
    case "function":
      return "a function is not a JSON value";
    case "symbol":
      return "a Symbol is not a JSON value";
    case "string":
      return LONE_SURROGATE.test(value) ? "not valid Unicode text (a lone surrogate)" : null;
    case "object":
      if (value instanceof Set) return "a Set is not JSON-shaped; pass an array";
      if (value instanceof Map) return "a Map is not JSON-shaped; pass an object";
      return null;
    default:
      return null;
  }
}

const BAD_KEY = "a key is not valid Unicode text (a lone surrogate)";

function isTypedArray(value) {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

function finiteOnly(key, value) {
  const why = whyNotJson(value) ?? (LONE_SURROGATE.test(key) ? BAD_KEY : null);
  if (why) throw new TypeError(`${key === "" ? "the value" : JSON.stringify(key)}: ${why}`);
  return isTypedArray(value) ? Array.from(value) : value;
}

// Where JSON.stringify failed: [path, why] for the first value JSON can't carry,
// with the path written as the core writes it (`rolls[1]`, `sheet.points`); null if
// none is found (a cycle, a throwing getter).
function refusedValue(value, path = "", seen = new Set(), depth = 0) {
  const why = whyNotJson(value);
  if (why) return [path, why];
  if (value === null || typeof value !== "object" || depth > 100 || seen.has(value)) return null;
  seen.add(value);
  try {
    if (typeof value.toJSON === "function") return null;
    if (!Array.isArray(value) && !isTypedArray(value) && Object.keys(value).some((k) => LONE_SURROGATE.test(k))) {
      return [path || "args", BAD_KEY];
    }
    const entries = Array.isArray(value) || isTypedArray(value)
      ? Array.from(value, (v, i) => [`${path}[${i}]`, v])
      : Object.keys(value).map((k) => [path ? `${path}.${k}` : k, value[k]]);
    for (const [p, v] of entries) {
      const found = refusedValue(v, p, seen, depth + 1);
      if (found) return found;
    }
  } catch {
    // A getter that throws: the generic message below says so.
  }
  return null;
}

function argsJson(args) {
  let json;
  try {
    json = JSON.stringify(args === undefined ? {} : args, finiteOnly);
  } catch (e) {
    const found = refusedValue(args);
    if (found && found[0]) {
      throw new GunbaiError({ code: "invalid_argument", message: `${found[0]}: ${found[1]}`, field: found[0] });
    }
    // A getter may throw anything (null, a string): report it, whatever it is.
    const why = e instanceof Error ? e.message : String(e);
    throw new GunbaiError({ code: "invalid_argument", message: `args: not JSON-serializable (${why})`, field: "args" });
  }
  if (json === undefined) {
    throw new GunbaiError({ code: "invalid_argument", message: "args: must be a JSON-shaped object", field: "args" });
  }
  return json;
}

// An operation takes one options object; a second argument would be silently
// ignored (`roll({expr}, {seed})` would roll unseeded), so it is refused.
function oneArg(op, n) {
  if (n > 1) {
    throw new GunbaiError({ code: "invalid_argument", message: `args: ${op} takes one options object, not ${n} arguments`, field: "args" });
  }
}

function checkOp(op) {
  if (typeof op !== "string") {
    throw new GunbaiError({ code: "invalid_argument", message: "op: must be a string", field: "op" });
  }
}

/**
 * Run a batch operation by name (`"dice.simulate_pool"`); returns an
 * `Int32Array` or `Float64Array` (no per-roll objects) or throws `GunbaiError`.
 */
export function callBatch(op, args, ...extra) {
  checkOp(op);
  oneArg("callBatch", 1 + extra.length);
  const json = argsJson(args);
  const [hi, lo] = entropy();
  let outcome, envelope;
  try {
    outcome = nativeCallBatch(op, json, hi, lo);
    envelope = JSON.parse(outcome.envelope);
  } catch (e) {
    throw new GunbaiError({ code: "internal", message: `internal error (a gunbai bug): ${e && e.message}` });
  }
  try {
    if (envelope.error) throw new GunbaiError(envelope.error);
    return envelope.ok.dtype === "float64" ? outcome.take_f64() : outcome.take_i32();
  } finally {
    outcome.free();
  }
}

/**
 * Run any operation by name (`"world_trigger.check"`) with a JSON-shaped
 * options object; returns the plain result object or throws `GunbaiError`.
 */
export function call(op, args, ...extra) {
  checkOp(op);
  oneArg("call", 1 + extra.length);
  const json = argsJson(args);
  const [hi, lo] = entropy();
  let envelope;
  try {
    envelope = JSON.parse(nativeCall(op, json, hi, lo));
  } catch (e) {
    throw new GunbaiError({ code: "internal", message: `internal error (a gunbai bug): ${e && e.message}` });
  }
  if (envelope.error) throw new GunbaiError(envelope.error);
  return envelope.ok;
}

// @gunbai-battle-begin: left out of the entries without World Trigger battles.
/**
 * Convenience over `world_trigger.battle_*`: keeps the (serializable) state and
 * the event log. Every method calls the pure operations; an illegal action
 * throws `GunbaiError` and leaves `state` as it was.
 */
export class Battle {
  constructor(state) {
    this.state = state;
    this.log = [];
  }

  /** A new battle from a setup (the `world_trigger.battle_new` arguments). */
  static create(setup) {
    const r = call("world_trigger.battle_new", setup);
    const b = new Battle(r.state);
    b.log.push(...r.events);
    return b;
  }

  /** A battle from a saved state (validated by the core). */
  static fromJSON(state) {
    let parsed = state;
    if (typeof state === "string") {
      try {
        parsed = JSON.parse(state);
      } catch (e) {
        throw new GunbaiError({ code: "invalid_argument", message: `state: not valid JSON (${e.message})`, field: "state" });
      }
    }
    call("world_trigger.battle_legal_actions", { state: parsed });
    return new Battle(parsed);
  }

  /** Every action legal now, each `{action, …cost}`; pass `action` to `act`. */
  legalActions(actor) {
    return call("world_trigger.battle_legal_actions", actor === undefined ? { state: this.state } : { state: this.state, actor }).actions;
  }

  /** Apply one action (`dice` may give `seed` or `rolls`); returns its events. */
  act(action, dice = {}) {
    const r = call("world_trigger.battle_act", { ...dice, state: this.state, action });
    this.state = r.state;
    this.log.push(...r.events);
    return r.events;
  }

  /** How the battle ended (null while it goes on). */
  get outcome() {
    return this.state.outcome ?? null;
  }

  toJSON() {
    return this.state;
  }
}
// @gunbai-battle-end
