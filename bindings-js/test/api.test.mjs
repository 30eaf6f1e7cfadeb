// Node tests of the npm package surface (built into ../pkg).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as gunbai from "../pkg/index.js";

const { GunbaiError } = gunbai;
const catalog = JSON.parse(readFileSync(new URL("../pkg/schema.json", import.meta.url), "utf8"));
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

function throwsCode(fn, code, field) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GunbaiError, `expected GunbaiError, got ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.name, "GunbaiError");
    assert.equal(e.code, code, e.message);
    if (field !== undefined) assert.equal(e.field, field);
    return true;
  });
}

test("every operation of the core catalog is a function in its namespace", () => {
  assert.ok(catalog.ops.length >= 4);
  for (const op of catalog.ops) {
    const [mod, fn] = op.name.split(".");
    assert.equal(typeof gunbai[camel(mod)]?.[camel(fn)], "function", op.name);
  }
});

test("scripted dice give the scripted total", () => {
  const r = gunbai.dice.roll({ expr: "2d6+1", rolls: [3, 5] });
  assert.equal(r.total, 9);
  assert.deepEqual(r.rolls, [
    { sides: 6, value: 3, kind: "normal" },
    { sides: 6, value: 5, kind: "normal" },
  ]);
});

test("a result's rolls replay it", () => {
  const a = gunbai.dice.roll({ expr: "4d6+D66", seed: 99 });
  const b = gunbai.dice.roll({ expr: "4d6+D66", rolls: a.rolls });
  assert.deepEqual(b, a);
});

test("the same seed gives the same faces", () => {
  const a = gunbai.dice.pool({ count: 20, sides: 20, seed: 7 });
  const b = gunbai.call("dice.pool", { count: 20, sides: 20, seed: 7 });
  assert.deepEqual(a, b);
});

test("unseeded calls use host entropy and differ", () => {
  const rolls = new Set();
  for (let i = 0; i < 5; i++) rolls.add(gunbai.dice.pool({ count: 10, sides: 1000 }).faces.join(","));
  assert.ok(rolls.size > 1);
});

test("documented errors carry stable codes", () => {
  throwsCode(() => gunbai.dice.roll({ expr: 26 }), "invalid_argument", "expr");
  throwsCode(() => gunbai.dice.pool({ count: "3", sides: 6 }), "invalid_argument", "count");
  throwsCode(() => gunbai.dice.pool({ count: -1, sides: 6 }), "out_of_range", "count");
  throwsCode(() => gunbai.dice.roll({ expr: "1d6", seed: 1, rolls: [1] }), "invalid_argument", "rolls");
  throwsCode(() => gunbai.dice.roll({ expr: "1001d6" }), "limit_exceeded", "expr");
  throwsCode(() => gunbai.dice.pool({ count: 1001, sides: 6 }), "out_of_range", "count"); // its range 0–1000
  throwsCode(() => gunbai.call("dice.explode", {}), "unknown_operation", "op");
  throwsCode(() => gunbai.call(42, {}), "invalid_argument", "op");
  throwsCode(() => gunbai.dice.roll({ expr: "2d6", rolls: [1] }), "scripted_dice_exhausted", "rolls");
  throwsCode(() => gunbai.dice.roll({ expr: "2d6", rolls: [1, 9] }), "invalid_die_face", "rolls[1]");
  throwsCode(() => gunbai.dice.roll({ expr: "2d6*2" }), "parse_error", "expr");
  throwsCode(() => gunbai.dice.roll({ expr: "1d6", seed: 2 ** 53 }), "out_of_range", "seed");
});

test("arguments that are not JSON-shaped are invalid_argument, not a crash", () => {
  throwsCode(() => gunbai.dice.roll({ expr: "1d6", seed: 10n }), "invalid_argument", "seed");
  throwsCode(() => gunbai.dice.roll("2d6"), "invalid_argument", "args");
  throwsCode(() => gunbai.dice.roll(null), "invalid_argument");
  throwsCode(() => gunbai.dice.roll(() => 1), "invalid_argument", "args");
  throwsCode(() => gunbai.dice.roll([1, 2]), "invalid_argument");
  // Values JSON leaves out or can't carry are refused, naming the field, not dropped
  // (a dropped seed would roll unseeded).
  throwsCode(() => gunbai.dice.roll({ expr: "2d6", seed: () => 1 }), "invalid_argument", "seed");
  throwsCode(() => gunbai.dice.roll({ expr: "2d6", seed: Symbol("s") }), "invalid_argument", "seed");
  throwsCode(() => gunbai.dice.roll({ expr: "2d6", rolls: [3, () => 4] }), "invalid_argument", "rolls[1]");
  throwsCode(() => gunbai.dice.roll({ expr: "1d6\ud800" }), "invalid_argument", "expr");
  // One options object: a second argument is refused, not ignored.
  throwsCode(() => gunbai.dice.roll({ expr: "2d6" }, { seed: 1 }), "invalid_argument", "args");
  // NaN / Infinity are not JSON numbers: refused, not sent as null (which means "not given").
  throwsCode(() => gunbai.dice.roll({ expr: "2d6", seed: NaN }), "invalid_argument", "seed");
  throwsCode(() => gunbai.dice.roll({ expr: "2d6", seed: Infinity }), "invalid_argument", "seed");
  throwsCode(() => gunbai.call("dice.roll", { expr: "2d6", rolls: [1, -Infinity] }), "invalid_argument", "rolls[1]");
  // A getter may throw anything, even null: still a GunbaiError.
  throwsCode(() => gunbai.dice.roll({ get expr() { throw null; } }), "invalid_argument", "args");
  throwsCode(() => gunbai.dice.roll({ get expr() { throw "no"; } }), "invalid_argument", "args");
  const cyclic = {};
  cyclic.self = cyclic;
  throwsCode(() => gunbai.dice.roll(cyclic), "invalid_argument", "args");
  // The module still works after every error above.
  assert.equal(gunbai.dice.roll({ expr: "3", rolls: [] }).total, 3);
});

test("JS values are read as Python's are: null is not given, typed arrays are arrays", () => {
  // null (like undefined, and Python's None) means "not given": the default rule.
  assert.equal(gunbai.coc7.check({ skill: 50, rolls: [3, 5], rule: null }).roll, 35);
  throwsCode(() => gunbai.tmd.encounterLegalActions({ state: null }), "invalid_argument", "state");
  // A typed array (a batch result passed back in) is the array of its numbers.
  assert.equal(gunbai.dice.roll({ expr: "2d6", rolls: new Int32Array([3, 4]) }).total, 7);
  const faces = gunbai.dice.simulatePool({ count: 1, sides: 6, n: 2, seed: 1 });
  assert.ok(faces instanceof Int32Array);
  assert.equal(gunbai.dice.roll({ expr: "2d6", rolls: faces }).total, faces[0] + faces[1]);
  // A Set or Map would be written as {}: refused, naming the field.
  throwsCode(() => gunbai.dice.roll({ expr: "2d6", rolls: new Set([1, 2]) }), "invalid_argument", "rolls");
  throwsCode(() => gunbai.call("dice.roll", { expr: "2d6", rolls: new Map() }), "invalid_argument", "rolls");
  // A key that is not valid Unicode: refused, saying so (the key itself can't be named).
  assert.throws(() => gunbai.call("dice.roll", { expr: "2d6", "\ud800": 1 }), (e) => {
    assert.equal(e.code, "invalid_argument");
    assert.equal(e.field, "args");
    assert.match(e.message, /a key is not valid Unicode text/);
    return true;
  });
  // call and callBatch take one options object after the name, as the module functions do.
  throwsCode(() => gunbai.call("dice.roll", { expr: "2d6" }, { seed: 2 }), "invalid_argument", "args");
  throwsCode(() => gunbai.callBatch("dice.simulate_pool", { count: 2, sides: 6, n: 2 }, {}), "invalid_argument", "args");
});

test("meta reports the PRNG and every operation", () => {
  assert.match(gunbai.meta.version().prng, /^gunbai-dice-v1/);
  assert.deepEqual(gunbai.meta.operations().operations, catalog.ops.map((o) => o.name));
  assert.ok(catalog.ops.some((o) => o.kind === "batch"));
  assert.equal(gunbai.version, gunbai.meta.version().version);
});

test("batch ops return typed arrays drawn from one stream", () => {
  const a = gunbai.dice.simulatePool({ count: 10, sides: 6, n: 1000, seed: 42 });
  assert.ok(a instanceof Int32Array);
  assert.equal(a.length, 1000);
  assert.equal(a[0], gunbai.dice.pool({ count: 10, sides: 6, seed: 42 }).total);
  assert.equal(a[0] + a[1] + a[2], gunbai.dice.pool({ count: 30, sides: 6, seed: 42 }).total);
  throwsCode(() => gunbai.dice.simulatePool({ count: 1, sides: 6, n: 1e8 + 1, seed: 1 }), "out_of_range", "n"); // n's own range
  throwsCode(() => gunbai.dice.simulatePool({ count: 1000, sides: 6, n: 1e7, seed: 1 }), "limit_exceeded", "n"); // work across the call
  throwsCode(() => gunbai.callBatch("dice.nope", {}), "unknown_operation", "op");
});

test("the Battle handle keeps the state natively over the battle engine", () => {
  const setup = JSON.parse(readFileSync(new URL("../../examples/battles/rank_3v3.json", import.meta.url), "utf8"));
  const b = gunbai.Battle.create(setup);
  assert.equal(b.outcome, null);
  const legal = b.legalActions();
  assert.ok(legal.length > 0);
  const { events, rolls } = b.act(legal[0].action, { seed: 1 });
  assert.ok(events.length > 0 && Array.isArray(rolls));
  const before = JSON.stringify(b.state);
  assert.throws(() => b.act({ type: "pass", team: "nobody" }, { seed: 1 }), (e) => e instanceof GunbaiError);
  assert.equal(JSON.stringify(b.state), before);
  assert.deepEqual(gunbai.Battle.fromJSON(JSON.stringify(b)).state, b.state);
  throwsCode(() => gunbai.Battle.fromJSON({ format: "nonsense" }), "invalid_data");
  throwsCode(() => gunbai.Battle.fromJSON("{not json"), "invalid_argument", "state");
  for (let step = 0; step < 3000; step++) {
    const l = b.legalActions();
    if (l.length === 0) break;
    b.act(l[0].action, { seed: step });
  }
  assert.notEqual(b.outcome, null);
  assert.deepEqual(b.legalActions(), []);
});
