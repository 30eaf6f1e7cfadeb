// The game handles: every engine's handle against its pure operations,
// from the same setups as the Python tests (testdata/handles/setups.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as gunbai from "../pkg/index.js";
import { refused } from "./support.mjs";

const { GunbaiError, GameHandle } = gunbai;
const read = (p) => JSON.parse(readFileSync(new URL(`../../${p}`, import.meta.url), "utf8"));
const SETUPS = read("testdata/handles/setups.json");
const catalog = read("bindings-js/pkg/schema.json");
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const setupOf = (name) => (SETUPS[name].file ? read(SETUPS[name].file) : structuredClone(SETUPS[name].setup));
const classOf = (name) => {
  const [m, c] = name.split(".");
  return gunbai[camel(m)][c];
};
// Every engine's pure listing is {actions: [{action, …cost}], …}, as a handle lists it.
const listing = (r) => {
  assert.ok(r.actions.every((it) => it && typeof it === "object" && "action" in it));
  return r.actions;
};

function throwsCode(fn, code, field) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GunbaiError, `expected GunbaiError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (field !== undefined) assert.equal(e.field, field);
    return true;
  });
}

test("every handle of the catalog is a generated class", () => {
  assert.deepEqual(catalog.handles.map((h) => h.name).sort(), Object.keys(SETUPS).sort());
  for (const name of Object.keys(SETUPS)) {
    const cls = classOf(name);
    assert.equal(cls.handle, name);
    assert.ok(cls.prototype instanceof GameHandle);
  }
  assert.equal(gunbai.Battle, gunbai.worldTrigger.Battle);
  assert.throws(() => new gunbai.tmd.Encounter(), TypeError);
});

for (const name of Object.keys(SETUPS)) {
  const [newOp, legalOp, actOp] = catalog.handles.find((h) => h.name === name).ops;
  const seeded = SETUPS[name].seeded;

  test(`${name}: the handle and the pure operations play the same game`, () => {
    const setup = setupOf(name);
    const game = classOf(name).create(setup);
    let state = gunbai.call(newOp, setup).state;
    assert.deepEqual(game.state, state);
    for (let step = 0; step < 12; step++) {
      const listed = game.legalActions();
      assert.deepEqual(listed, listing(gunbai.call(legalOp, { state })));
      assert.deepEqual(game.turn, gunbai.call(newOp.replace("_new", "_turn"), { state }));
      if (listed.length === 0) break;
      const action = listed[step % listed.length].action;
      const dice = seeded ? { seed: 1000 + step } : {};
      const r = game.act(action, dice);
      const pure = gunbai.call(actOp, { state, action, ...dice });
      state = pure.state;
      assert.deepEqual(game.state, state);
      assert.deepEqual(r.rolls, pure.rolls ?? []);
      if (pure.events) assert.deepEqual(r.events, pure.events);
    }
    game.free();
    throwsCode(() => game.state, "invalid_argument", "handle");
  });

  test(`${name}: undo, JSON round trip, refusals change nothing`, () => {
    const game = classOf(name).create(setupOf(name));
    const start = JSON.stringify(game);
    throwsCode(() => game.undo(), "invalid_argument", "undo");
    throwsCode(() => game.act({ type: "no_such_action" }), "invalid_argument");
    assert.equal(JSON.stringify(game), start);
    game.act(game.legalActions()[0].action, seeded ? { seed: 1 } : {});
    const after = JSON.stringify(game);
    assert.equal(game.undoDepth, 1);
    const copy = classOf(name).fromJSON(after);
    assert.equal(JSON.stringify(copy), after);
    game.undo();
    assert.equal(JSON.stringify(game), start);
    assert.equal(JSON.stringify(copy), after);
    copy.free();
    game.free();
  });
}

test("the battle handle refuses an illegal action with its rule and a corrupt state with its field", () => {
  const b = gunbai.worldTrigger.Battle.create(read("examples/battles/rank_3v3.json"));
  const before = JSON.stringify(b);
  assert.throws(() => b.act({ type: "pass", team: b.state.teams[0].id }), (e) => e.code === "illegal_action" && !!e.rule);
  assert.equal(JSON.stringify(b), before);
  const bad = b.state;
  bad.round = -1;
  throwsCode(() => gunbai.worldTrigger.Battle.fromJSON(bad), "invalid_data", "state.round");
  throwsCode(() => gunbai.worldTrigger.Battle.fromJSON("{"), "invalid_argument", "state");
  throwsCode(() => b.act({ type: "pass", team: "x" }, {}, 3), "invalid_argument", "args");
  if (typeof Symbol.dispose === "symbol") {
    b[Symbol.dispose]();
    throwsCode(() => b.state, "invalid_argument", "handle");
  }
});

test("simulateBattles gives typed arrays, one column per team", () => {
  const setup = read("examples/battles/rank_3v3.json");
  const r = gunbai.worldTrigger.simulateBattles({ setup, n: 5, seed: 4, policy: { type: "aggressive" } });
  assert.deepEqual(Object.keys(r).sort(), ["down", "points", "rounds", "winner"]);
  assert.ok(r.winner instanceof Int32Array && r.winner.length === 5);
  assert.equal(r.points.length, 3);
  assert.ok(r.points.every((col) => col instanceof Int32Array && col.length === 5));
  const more = gunbai.worldTrigger.simulateBattles({ setup, n: 7, seed: 4, policy: { type: "aggressive" } });
  assert.deepEqual(Array.from(more.winner.subarray(0, 5)), Array.from(r.winner));
  throwsCode(() => gunbai.worldTrigger.simulateBattles({ setup, n: 1e6, seed: 1 }), "out_of_range", "n"); // n's own range: 1–100,000
  assert.throws(() => gunbai.worldTrigger.simulateBattles({ setup, n: 100000, seed: 1 }), (e) => e.code === "limit_exceeded"); // battles x rounds x members
});

test("listing() is legalActions() read lazily, and outlives later actions", () => {
  for (const name of Object.keys(SETUPS)) {
    const game = classOf(name).create(setupOf(name));
    const full = game.legalActions();
    const lazy = game.listing();
    assert.equal(lazy.length, full.length);
    assert.deepEqual(lazy.at(0), full[0]);
    assert.deepEqual(lazy.at(-1), full[full.length - 1]);
    assert.equal(lazy.at(full.length), undefined);
    assert.deepEqual([...lazy], full);
    assert.deepEqual(JSON.parse(JSON.stringify(lazy)), full);
    const late = game.listing();
    game.act(full[0].action, SETUPS[name].seeded ? { seed: 1 } : {});
    assert.deepEqual(late.toArray(), full);
    game.free();
  }
});

test("listing.play(i) is game.act(listing.at(i).action)", () => {
  for (const name of Object.keys(SETUPS)) {
    const byItem = classOf(name).create(setupOf(name));
    const byAction = classOf(name).create(setupOf(name));
    for (let step = 0; step < 6; step++) {
      const listed = byItem.listing();
      if (listed.length === 0) break;
      const k = (step * 5 + 3) % listed.length;
      const dice = SETUPS[name].seeded ? { seed: 100 + step } : {};
      assert.deepEqual(listed.play(k, dice), byAction.act(byAction.legalActions()[k].action, dice), name);
      assert.deepEqual(byItem.state, byAction.state, name);
    }
    const listed = byItem.listing();
    if (listed.length > 0) {
      const dice = SETUPS[name].seeded ? { seed: 9 } : {};
      const last = listed.at(-1).action;
      assert.deepEqual(listed.play(-1, dice), byAction.act(last, dice), `${name}: play(-1) is the last item`);
      throwsCode(() => listed.play(listed.length), "out_of_range", "index");
    }
    byItem.free();
    byAction.free();
  }
});

test("legalActions takes opt-in options: one kind, and the compact form with World Trigger's moves apart", () => {
  for (const name of Object.keys(SETUPS)) {
    const g = classOf(name).create(setupOf(name));
    const all = g.legalActions();
    assert.deepEqual(g.legalActions({}), all, name);
    const kind = all.at(-1)?.action.type;
    if (kind) assert.deepEqual(g.legalActions({ kind }), all.filter((it) => it.action.type === kind), name);
    const compact = g.legalActions({ compact: true });
    assert.deepEqual(Object.keys(compact).sort(), name === "world_trigger.Battle" ? ["actions", "moves"] : ["actions"], name);
    assert.equal(refused(() => g.legalActions({ kinds: "move" })).field, "kinds");
    g.free();
  }
  // A World Trigger battle in its Movement phase: the moves are each mover's route tree.
  const cases = read("testdata/vectors/world_trigger_battle/listing_limits.json");
  const { state } = cases.find((c) => c.id === "wt-battle-listing-mobility-28-one-member").args;
  const b = gunbai.worldTrigger.Battle.fromJSON(state);
  const { actions, moves } = b.legalActions({ actor: "t3m0", compact: true });
  assert.ok(actions.every((it) => it.action.type !== "move"));
  const full = b.legalActions({ actor: "t3m0", kind: "move" });
  // The first listed route of the member's first move skill, rebuilt from the tree.
  const { squares, skills, through } = moves[0];
  let end = 0;
  while (through.includes(end)) end++;
  const path = [];
  for (let i = end; i >= 0; i = squares[4 * i + 3]) path.unshift({ x: squares[4 * i], y: squares[4 * i + 1] });
  const found = full.find((it) => it.action.skill === skills[0].skill && JSON.stringify(it.action.path) === JSON.stringify(path));
  assert.ok(found, "a compact route is a listed move");
  assert.equal(found.cost.movement, squares[4 * end + 2]);
  assert.equal(full.filter((it) => it.action.skill === skills[0].skill).length, skills[0].count - through.filter((i) => i < skills[0].count).length);
  b.free();
});
