// The hand-written part of the npm package `gunbai`: wasm loading and the
// one generic `call`. Everything after it is generated per operation.
import initWasm, {
  initSync,
  call as nativeCall,
  call_batch as nativeCallBatch,
  batch_end as batchEnd,
  Game as NativeGame,
  __gunbaiReinstantiate as reinstantiate,
} from "./wasm/gunbai_js.js";

/** Error thrown by every gunbai operation; `.code` is stable. */
export class GunbaiError extends Error {
  constructor(info) {
    super(info && info.message ? info.message : String(info));
    this.name = "GunbaiError";
    this.code = (info && info.code) || "internal";
    this.field = (info && info.field) ?? null;
    this.loc = (info && info.loc) || [];
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
    // Compiled here and instantiated by initSync: the glue's async path asks whether
    // `Request` and `Response` exist, which in Node loads its whole fetch implementation
    // (undici), a third of a cold start.
    initSync({ module: await WebAssembly.compile(await fs.readFile(url)) });
  } else {
    // Browsers and bundlers (Vite rewrites this URL to the emitted asset). A server
    // that sends another Content-Type than application/wasm costs a console warning
    // and a non-streaming compile; `gunbai/inline` needs no .wasm file at all.
    await initWasm({ module_or_path: url });
  }
}
// @gunbai-load-end
await loadWasm();

// After a native call throws (a trap: out of memory, or a gunbai bug), the instance may
// be left in any state, so a new one is made from the same compiled module before the
// error is reported: the next call works. Game handles of the old instance are rebuilt
// in the new one on their next call, from what each keeps on the JS side (a checkpoint
// of its state and the actions since, see GameHandle).
let generation = 0;

function trapped(e) {
  let restarted;
  try {
    generation = reinstantiate();
    restarted = "the wasm instance was restarted";
  } catch (again) {
    restarted = `restarting the wasm instance failed too (${again && again.message})`;
  }
  return new GunbaiError({ code: "internal", message: `internal error (a gunbai bug): ${e && e.message}; ${restarted}` });
}

// Host entropy for unseeded dice, two 32-bit words a call, drawn from the system's
// generator 256 calls at a time (one getRandomValues call instead of one per call).
// `entropy()` returns where this call's two words are (no array made per call). In
// Node, the system generator is node:crypto's (the same source): `globalThis.crypto`
// loads the whole Web Crypto module on first use, several ms of a cold start.
const ENTROPY = new Uint32Array(512);
let entropyAt = ENTROPY.length;
let fillRandom = null;
function entropy() {
  if (entropyAt === ENTROPY.length) {
    if (fillRandom === null) {
      const nodeCrypto = globalThis.process?.getBuiltinModule?.("node:crypto");
      fillRandom = nodeCrypto ? (a) => nodeCrypto.randomFillSync(a) : (a) => globalThis.crypto.getRandomValues(a);
    }
    fillRandom(ENTROPY);
    entropyAt = 0;
  }
  entropyAt += 2;
  return entropyAt - 2;
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

// gunbai::bounds::DEPTH_REFUSAL (a test checks that both say the same).
const DEPTH_REFUSAL = "JSON nested deeper than 64 levels of arrays and objects";

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

// The fast path of argsJson: true when JSON.stringify writes `value` exactly as the
// replacer path would, so the replacer (a call and two regex tests per key and value)
// can be left out: only finite numbers, strings, booleans, null and undefined, in
// arrays and plain objects (prototype Object.prototype or null, no toJSON), at most 64
// levels deep. Anything else (a function, NaN, a Set, a typed array, a class instance,
// a cycle) takes the replacer path, which writes or refuses it as before. A lone
// surrogate is found in the text afterwards: JSON.stringify writes one as `\udXXX`.
function plainJson(value, depth) {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      if (depth >= 64) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!plainJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if ((proto !== Object.prototype && proto !== null) || typeof value.toJSON === "function") return false;
      for (const k in value) if (!plainJson(value[k], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

// A `\ud800`-`\udfff` escape in JSON.stringify's text: a lone surrogate (or a
// backslash before such text in a string, which the replacer path then writes).
const ESCAPED_SURROGATE = /\\ud[89a-f]/i;

function argsJson(args) {
  if (args === undefined) return "{}";
  try {
    if (plainJson(args, 0)) {
      const json = JSON.stringify(args);
      if (!ESCAPED_SURROGATE.test(json)) return json;
    }
  } catch {
    // A getter that throws: the replacer path reports it.
  }
  return argsJsonChecked(args);
}

function argsJsonChecked(args) {
  let json;
  try {
    json = JSON.stringify(args === undefined ? {} : args, finiteOnly);
  } catch (e) {
    const found = refusedValue(args);
    if (found && found[0]) {
      throw new GunbaiError({ code: "invalid_argument", message: `${found[0]}: ${found[1]}`, field: found[0] });
    }
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      // Nested too deep for JSON.stringify: the core's refusal for depth (gunbai::bounds).
      throw new GunbaiError({ code: "limit_exceeded", message: `args: ${DEPTH_REFUSAL}`, field: "args" });
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

// One wasm call of a batch operation: all of it (`window` 2^32 - 1), or at most `window`
// repetitions, from the seed (`from` empty) or from the stream state `from` (4 words);
// `end`: where a window's stream ended.
const NO_STREAM = new BigUint64Array(0);
function batchCall(op, json, window = 2 ** 32 - 1, from = NO_STREAM) {
  const at = entropy();
  let outcome, envelope, data, end;
  const made = generation;
  try {
    outcome = nativeCallBatch(op, json, ENTROPY[at], ENTROPY[at + 1], window, from);
    envelope = JSON.parse(outcome.envelope);
    if (!envelope.error) data = envelope.ok.dtype === "float64" ? outcome.take_f64() : outcome.take_i32();
    end = window < 2 ** 32 - 1 ? BigUint64Array.from({ length: 4 }, (_, i) => batchEnd(i)) : NO_STREAM;
  } catch (e) {
    throw trapped(e);
  } finally {
    // Never into a new instance: an outcome of the one that trapped is dropped with it.
    if (outcome && made === generation) outcome.free();
  }
  if (envelope.error) throw new GunbaiError(envelope.error);
  return { parts: envelope.ok.parts, data, end };
}

/** About how long one wasm call of a batch runs (ms): a longer batch is made in windows. */
const BATCH_SLICE_MS = 200;

// A batch call in windows of repetitions, each one wasm call of about BATCH_SLICE_MS
// (the first of 64 repetitions, each next sized from the time of the last): every window
// validates the whole call's arguments and continues the one die stream, so the result
// is the one call's, whatever the windows. Yields `[done, n]` after each window and
// returns the result.
function* batchWindows(op, args) {
  const json = argsJson(args);
  const n = args && typeof args === "object" ? args.n : undefined;
  if (!Number.isSafeInteger(n) || n < 1) return joined([batchCall(op, json)]);
  const windows = [];
  let stream = NO_STREAM;
  let size = 64;
  for (let done = 0; done < n; ) {
    const count = Math.min(size, n - done);
    const start = performance.now();
    windows.push(batchCall(op, json, count, stream));
    stream = windows.at(-1).end;
    const ms = performance.now() - start;
    done += count;
    size = Math.max(1, Math.min(size * 16, 2 ** 31, Math.floor((count * BATCH_SLICE_MS) / Math.max(ms, 0.01))));
    yield [done, n];
  }
  return joined(windows);
}

// The windows' results as one: each part (or the flat array) one window after another.
function joined(windows) {
  const { parts } = windows[0];
  if (!parts) return concat(windows.map((w) => w.data));
  // A table: named arrays one after another; one with a column per team becomes an
  // array of columns (one typed array per team).
  const out = {};
  const offsets = windows.map(() => 0);
  for (const [p, { name, shape: [, cols] }] of parts.entries()) {
    const block = concat(windows.map((w, i) => {
      const size = w.parts[p].shape[0] * cols;
      offsets[i] += size;
      return w.data.subarray(offsets[i] - size, offsets[i]);
    }));
    out[name] = cols === 1 ? block : Array.from({ length: cols }, (_, c) => block.filter((_, i) => i % cols === c));
  }
  return out;
}

function concat(arrays) {
  if (arrays.length === 1) return arrays[0];
  const out = new arrays[0].constructor(arrays.reduce((k, a) => k + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/**
 * Run a batch operation by name (`"dice.simulate_pool"`); returns an
 * `Int32Array` or `Float64Array` (no per-roll objects) or throws `GunbaiError`.
 * A long one is made in windows of about 200 ms of wasm each (the same result).
 */
export function callBatch(op, args, ...extra) {
  checkOp(op);
  oneArg("callBatch", 1 + extra.length);
  const run = batchWindows(op, args);
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
  }
}

/**
 * `callBatch`, yielding to the event loop between its windows (about 200 ms of wasm
 * each) so that a page stays responsive: `onProgress(done, n)` after each window; an
 * aborted `signal` stops between windows (rejecting with its reason). The result is
 * `callBatch`'s.
 */
export async function callBatchAsync(op, args, { onProgress, signal } = {}) {
  checkOp(op);
  signal?.throwIfAborted();
  const run = batchWindows(op, args);
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
    onProgress?.(...step.value);
    if (step.value[0] < step.value[1]) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      signal?.throwIfAborted();
    }
  }
}

/**
 * Run any operation by name (`"world_trigger.check"`) with a JSON-shaped
 * options object; returns the plain result object or throws `GunbaiError`.
 */
export function call(op, args) {
  checkOp(op);
  if (arguments.length > 2) oneArg("call", arguments.length - 1);
  const json = argsJson(args);
  const at = entropy();
  let envelope;
  try {
    envelope = JSON.parse(nativeCall(op, json, ENTROPY[at], ENTROPY[at + 1]));
  } catch (e) {
    throw trapped(e);
  }
  if (envelope.error) throw new GunbaiError(envelope.error);
  return envelope.ok;
}

/** What one call of a `<x>_simulate` operation plays at most, as `n × max_steps`. */
const SIMULATE_WORK = 10000;

/**
 * Play `args.n` games of a `<x>_simulate` operation (`"coc_ap.round_simulate"`) in
 * chunks, yielding to the event loop between them so that a page stays responsive:
 * `onProgress(done, n)` after each chunk; an aborted `signal` stops between chunks
 * (rejecting with its reason). Game k depends only on `seed` and k, so the result is
 * the one call's of the same arguments, whatever the chunks.
 */
export async function simulate(op, args, { onProgress, signal } = {}) {
  if (typeof op !== "string" || !op.endsWith("_simulate")) {
    throw new GunbaiError({ code: "invalid_argument", message: `op: not a _simulate operation: ${String(op)}`, field: "op" });
  }
  const { n, first = 0, ...rest } = args ?? {};
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new GunbaiError({ code: "out_of_range", message: "n: must be a positive integer", field: "n" });
  }
  const chunk = Math.max(1, Math.floor(SIMULATE_WORK / (rest.max_steps ?? 500)));
  const out = { battles: {}, members: {} };
  for (let done = 0; done < n; ) {
    signal?.throwIfAborted();
    const size = Math.min(chunk, n - done);
    const part = call(op, { ...rest, first: first + done, n: size });
    for (const table of ["battles", "members"]) {
      for (const [col, values] of Object.entries(part[table])) (out[table][col] ??= []).push(...values);
    }
    done += size;
    onProgress?.(done, n);
    if (done < n) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return out;
}

// @gunbai-battle-begin: left out of the entries without World Trigger battles.
// (The top-level `Battle` is `worldTrigger.Battle`, exported after the modules.)
// @gunbai-battle-end

const OPEN = Symbol("gunbai handle");

// A handle takes a new checkpoint (its saved state) after this many actions since the last.
const CHECKPOINT_EVERY = 32;

/**
 * A game in progress, its state kept in wasm memory between calls: the base of
 * `worldTrigger.Battle`, `tmd.Encounter`, `cocAp.Round`, `coc7House.Round`,
 * `coc7House.Chase` and `fapMap.Round`. Every method is one native call; an
 * illegal action throws `GunbaiError` and changes nothing. `free()` (or `using`)
 * releases the wasm memory; `JSON.stringify(handle)` gives the state. After a wasm
 * trap restarted the instance, the handle is rebuilt on its next call from what it
 * keeps in JS (its state every 32 actions and the actions since, with their rolls):
 * the game goes on as it was (its undo history from the last checkpoint on; listings
 * made before the trap must be listed again).
 */
export class GameHandle {
  #g;
  #generation = generation;
  // What rebuilds the game after a trap restarted the instance: the last checkpoint
  // (`load`'s arguments) and the actions applied since, each with the rolls it used (so
  // the replay rolls the same dice). `#epoch` counts the rebuilds (listings of an older
  // epoch are gone).
  #checkpoint = null;
  #since = [];
  #epoch = 0;
  constructor(token) {
    if (token !== OPEN) {
      throw new TypeError(`use ${this.constructor.name}.create(setup) or ${this.constructor.name}.fromJSON(state)`);
    }
    this.#g = new NativeGame();
    /** What setting the game up gave: `{events, rolls}`. */
    this.created = { events: [], rolls: [] };
  }

  #call(method, args) {
    if (this.#g === null) {
      throw new GunbaiError({ code: "invalid_argument", message: "handle: this handle was freed", field: "handle" });
    }
    if (this.#generation !== generation) this.#rebuild();
    const json = args === undefined ? "{}" : typeof args === "string" ? args : argsJson(args);
    const at = entropy();
    let envelope;
    try {
      envelope = JSON.parse(this.#g.call(method, json, ENTROPY[at], ENTROPY[at + 1]));
    } catch (e) {
      throw trapped(e);
    }
    if (envelope.error) throw new GunbaiError(envelope.error);
    return envelope.ok;
  }

  // The instance this handle lived in was restarted after a trap: a new native game in
  // the new instance, loaded from the checkpoint, with the actions since replayed.
  #rebuild() {
    if (this.#checkpoint === null) {
      throw new GunbaiError({ code: "invalid_argument", message: "handle: this handle holds no game", field: "handle" });
    }
    const g = new NativeGame();
    try {
      const run = (method, args) => {
        const envelope = JSON.parse(g.call(method, typeof args === "string" ? args : JSON.stringify(args), 0, 0));
        if (envelope.error) throw new GunbaiError(envelope.error);
      };
      run("load", this.#checkpoint);
      for (const args of this.#since) run("act", args);
    } catch (e) {
      g.free();
      throw e instanceof GunbaiError ? e : trapped(e);
    }
    this.#g = g;
    this.#generation = generation;
    this.#epoch++;
  }

  // Keep what rebuilds the game after an action: the action with the rolls it used,
  // or a new checkpoint every CHECKPOINT_EVERY actions.
  #applied(action, result) {
    if (this.#since.length >= CHECKPOINT_EVERY) this.#save();
    else this.#since.push(`{"action":${typeof action === "string" ? action : argsJson(action)},"rolls":${JSON.stringify(result.rolls)}}`);
    return result;
  }

  #save() {
    this.#checkpoint = { handle: this.constructor.handle, ...this.#call("save") };
    this.#since = [];
  }

  // A listing lives in the native game: one made before a trap is gone with it.
  #listingKept(epoch) {
    if (epoch !== this.#epoch || this.#generation !== generation) {
      throw new GunbaiError({ code: "invalid_argument", message: "listing: this listing was lost when the wasm instance was restarted after a trap; list again", field: "listing" });
    }
  }

  // An action of listing `id` (item `index`), played natively: its action is read first
  // (to replay it after a trap); if it can't be read, `act_listed` refuses it as before.
  #playListed(args) {
    const { id, index } = typeof args === "string" ? JSON.parse(args) : args;
    let action = null;
    try {
      action = this.#call("legal_item", { id, index }).action;
    } catch {
      // refused below by act_listed itself
    }
    const result = this.#call("act_listed", args);
    if (action === null) {
      this.#save();
      return result;
    }
    return this.#applied(action, result);
  }

  /** A new game from its setup (the `new` operation's arguments). */
  static create(setup, ...extra) {
    oneArg(`${this.handle}.create`, 1 + extra.length);
    const game = new this(OPEN);
    try {
      game.created = game.#call("create", { handle: this.handle, setup: setup ?? {} });
      game.#save();
    } catch (e) {
      game.free();
      throw e;
    }
    return game;
  }

  /** A game from a saved state (JSON text or object), validated; `data`: the pack given to `create` (FAP/MAP). */
  static fromJSON(state, data) {
    let parsed = state;
    if (typeof state === "string") {
      try {
        parsed = JSON.parse(state);
      } catch (e) {
        throw new GunbaiError({ code: "invalid_argument", message: `state: not valid JSON (${e.message})`, field: "state" });
      }
    }
    const game = new this(OPEN);
    try {
      const args = { handle: this.handle, state: parsed, data };
      game.#call("load", args);
      game.#checkpoint = args;
    } catch (e) {
      game.free();
      throw e;
    }
    return game;
  }

  /**
   * Every action legal now, each `{action, …cost}`; `actor` keeps that character's actions
   * and those naming nobody. Or one options object `{actor?, kind?, compact?, viewer?}`:
   * `kind` keeps the actions of one `type`; `compact: true` gives `{actions, moves?}`
   * (World Trigger's moves as each mover's squares with their costs and routes);
   * `viewer` (as `view` takes it) lists what that viewer may know (World Trigger: no
   * item names another team's member in Stealth, and none depends on where it stands).
   */
  legalActions(actor, ...extra) {
    oneArg(`${this.constructor.handle}.legalActions`, (actor === undefined ? 0 : 1) + extra.length);
    return this.#call("legal_actions", actor !== null && typeof actor === "object" ? actor : { actor });
  }

  /**
   * The legal actions now, listed natively and decoded only when read: a
   * `GameListing` (`length`, `at(i)`, iteration, `toArray()`). Cheaper than
   * `legalActions` when a host reads a few (a policy that picks one); it stays
   * readable after later actions (the last 8 listings).
   */
  listing(actor, ...extra) {
    oneArg(`${this.constructor.handle}.listing`, (actor === undefined ? 0 : 1) + extra.length);
    const { id, len } = this.#call("legal_open", actor === undefined ? undefined : { actor });
    const epoch = this.#epoch;
    const fetch = (method, args) => {
      this.#listingKept(epoch);
      return method === "act_listed" ? this.#playListed(args) : this.#call(method, args);
    };
    return new GameListing(fetch, id, len);
  }

  /** Apply one action (`dice` may give `seed` or `rolls`): `{events, rolls}`. */
  act(action, dice = {}, ...extra) {
    oneArg(`${this.constructor.handle}.act`, 1 + extra.length);
    return this.#applied(action, this.#call("act", { ...dice, action }));
  }

  /** Take back the last action (up to 100). */
  undo() {
    this.#call("undo");
    // The action taken back is not replayed after a trap; past the checkpoint, the state
    // now is the new checkpoint.
    if (this.#since.length > 0) this.#since.pop();
    else this.#save();
  }

  /**
   * Hidden information: the state as `viewer` may see it, and `events` (the last
   * action's, as `act` returned them) and `action` (that action) redacted for it:
   * `{state, events?, action?}`, exactly as the pure `<module>.<x>View` operation gives. `viewer`: a World Trigger team's
   * index or id (another team's members in Stealth have no square, WT-ST-1); for the
   * other engines, whose rules hide nothing, a combatant's id (TMD: or a side) and the
   * state unchanged; null or undefined: the GM (everything).
   */
  view(viewer, events, action, ...extra) {
    if (extra.length) {
      const message = `args: ${this.constructor.handle}.view takes (viewer, events, action), not ${3 + extra.length} arguments`;
      throw new GunbaiError({ code: "invalid_argument", message, field: "args" });
    }
    return this.#call("view", { viewer, events, action });
  }

  /** How many actions `undo` can take back now. */
  get undoDepth() {
    return this.#call("undo_depth");
  }

  /** The state, in the pure operations' JSON shape (a fresh copy). */
  get state() {
    return this.#call("state");
  }

  /**
   * Whose move it is: `{round, phase, active: [{id, stage}], order, outcome}` (`id` null for a
   * round-level step, whose `stage` names the action it waits for), exactly as the pure
   * `<module>.<x>Turn` operation gives.
   */
  get turn() {
    return this.#call("turn");
  }

  /**
   * `turn` as `viewer` may know it (as `view` takes it; null or undefined: the GM): no
   * entry names what that viewer may not see (World Trigger: a pending attack's target in
   * Stealth hidden from the team reacts under `id` null, WT-ST-1), exactly as the pure
   * `<module>.<x>Turn` operation gives with `viewer`.
   */
  turnFor(viewer, ...extra) {
    if (extra.length) {
      const message = `args: ${this.constructor.handle}.turnFor takes (viewer), not ${1 + extra.length} arguments`;
      throw new GunbaiError({ code: "invalid_argument", message, field: "args" });
    }
    return this.#call("turn", { viewer });
  }

  /** How the game ended (null while it goes on, and always for rounds). */
  get outcome() {
    return this.#call("outcome");
  }

  toJSON() {
    return this.state;
  }

  /** Release the wasm memory (later calls throw). */
  free() {
    if (this.#g !== null) {
      // A handle of an instance that trapped is only forgotten (its memory went with it).
      if (this.#generation === generation) this.#g.free();
      else this.#g.__destroy_into_raw();
      this.#g = null;
    }
  }
}
/** The legal actions of one moment of a game, kept in wasm memory; an item is decoded when read. */
export class GameListing {
  #fetch;
  #id;
  #items = new Map();
  #all = null;
  constructor(fetch, id, length) {
    this.#fetch = fetch;
    this.#id = id;
    /** How many actions are listed. */
    this.length = length;
    Object.freeze(this);
  }

  /** Item `i` (negative counts from the end), or undefined. */
  at(i) {
    const k = i < 0 ? i + this.length : i;
    if (!Number.isInteger(k) || k < 0 || k >= this.length) return undefined;
    if (this.#all) return this.#all[k];
    if (!this.#items.has(k)) this.#items.set(k, this.#fetch("legal_item", { id: this.#id, index: k }));
    return this.#items.get(k);
  }

  /**
   * Apply item `i`'s action to the game (`dice` may give `seed` or `rolls`): what
   * `game.act(listing.at(i).action, dice)` does, without the action crossing as JSON.
   * An item of an older listing that is no longer legal is refused as any action is.
   */
  play(i, dice = {}) {
    const k = Number.isInteger(i) && i < 0 ? i + this.length : i;
    const { seed, rolls, ...rest } = dice ?? {};
    if (Number.isSafeInteger(k) && rolls === undefined && Object.keys(rest).length === 0 && (seed === undefined || Number.isSafeInteger(seed))) {
      // Only integers: the text is written here (no replacer walk).
      return this.#fetch("act_listed", `{"id":${this.#id},"index":${k}${seed === undefined ? "" : `,"seed":${seed}`}}`);
    }
    return this.#fetch("act_listed", { ...dice, id: this.#id, index: k });
  }

  /** Every item, decoded (what `legalActions` returns). */
  toArray() {
    if (!this.#all) this.#all = this.#fetch("legal_items", { id: this.#id });
    return this.#all.slice();
  }

  [Symbol.iterator]() {
    return this.toArray()[Symbol.iterator]();
  }

  toJSON() {
    return this.toArray();
  }
}

if (typeof Symbol.dispose === "symbol") {
  GameHandle.prototype[Symbol.dispose] = function dispose() {
    this.free();
  };
}

function handleClass(handle, name) {
  const cls = { [name]: class extends GameHandle {} }[name];
  Object.defineProperty(cls, "handle", { value: handle });
  return cls;
}
