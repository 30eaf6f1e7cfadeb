// Hidden information: every handle's `view()` equals its pure
// `<module>.<x>View` operation, and a World Trigger member in Stealth has no square in
// another team's view (WT-ST-1, WT-MAP-7) while its own team and the GM see it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as gunbai from "../pkg/index.js";

const { GunbaiError } = gunbai;
const read = (p) => JSON.parse(readFileSync(new URL(`../../${p}`, import.meta.url), "utf8"));
const SETUPS = read("testdata/handles/setups.json");
const VECTORS = read("testdata/vectors/views/engine_views.json");
const catalog = read("bindings-js/pkg/schema.json");
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const setupOf = (name) => (SETUPS[name].file ? read(SETUPS[name].file) : structuredClone(SETUPS[name].setup));
const classOf = (name) => {
  const [m, c] = name.split(".");
  return gunbai[camel(m)][c];
};

/** Every viewer the state names (World Trigger: team ids and indexes). */
function viewers(name, s) {
  switch (name) {
    case "world_trigger.Battle":
      return [...s.teams.map((t) => t.id), ...s.teams.map((_, i) => i)];
    case "tmd.Encounter":
      return [...s.characters.map((c) => c.id), ...s.characters.map((c) => c.side)];
    case "coc_ap.Round":
      return s.fighters.map((f) => f.participant.id);
    case "coc7_house.Round":
      return s.combatants.map((c) => c.entry.id);
    case "coc7_house.Chase":
      return [s.fugitive.id, ...(s.pursuer ? [s.pursuer.id] : [])];
    default:
      return s.combatants.map((c) => c.id);
  }
}

function throwsCode(fn, code, field) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof GunbaiError, `expected GunbaiError, got ${e}`);
    assert.equal(e.code, code, e.message);
    assert.equal(e.field, field);
    return true;
  });
}

for (const name of Object.keys(SETUPS)) {
  const viewOp = catalog.handles.find((h) => h.name === name).ops[2].replace("_act", "_view");
  test(`${name}: view() equals ${viewOp}`, () => {
    const setup = setupOf(name);
    const game = classOf(name).create(setup);
    let events = game.created.events;
    for (let step = 0; step < 6; step++) {
      const state = game.state;
      for (const v of [null, ...viewers(name, state)]) {
        const pure = gunbai.call(viewOp, { state, viewer: v, events, data: setup.data });
        assert.deepEqual(game.view(v, events), pure, `${name} step ${step} viewer ${v}`);
      }
      assert.deepEqual(game.view(), { state });
      throwsCode(() => game.view("nobody"), "invalid_argument", "viewer");
      const listed = game.legalActions();
      if (listed.length === 0) break;
      const dice = SETUPS[name].seeded ? { seed: step } : {};
      events = game.act(listed[step % listed.length].action, dice).events;
    }
    game.free();
  });
}

test("world_trigger.Battle: a Stealth member's square is hidden from the other team only", () => {
  // The Bagworm-teleport setup of the vectors (WT-MAP-6): a1 of team a starts in Stealth.
  const c = VECTORS.find((x) => x.id === "view-wt-stealth-position-hidden-from-other-team");
  const game = gunbai.worldTrigger.Battle.create(c.steps[0].args);
  assert.equal(game.state.members[0].states.stealth, "sub");
  for (const other of ["b", 1]) {
    const seen = game.view(other).state.members;
    assert.ok(!("at" in seen[0]));
    assert.deepEqual(seen[1].at, { x: 7, y: 7 });
  }
  for (const own of ["a", 0, null, undefined]) {
    assert.deepEqual(game.view(own).state.members[0].at, { x: 0, y: 0 });
  }
  assert.deepEqual(game.view("b"), gunbai.worldTrigger.battleView({ state: game.state, viewer: "b" }));
  throwsCode(() => game.view("a1"), "invalid_argument", "viewer");
  throwsCode(() => game.view("a", [], 3), "invalid_argument", "action"); // the third argument is the action to redact
  game.free();
});

test("world_trigger.Battle: turnFor names no reaction target the team may not see", () => {
  // The vector's Bagworm battle: b1 shoots a1 in Stealth directly (WT-ST-1); the
  // handle plays the vector's actions and agrees with the pure turn operation.
  const c = read("testdata/vectors/views/turn_views.json").find((x) => x.id.startsWith("turn-wt-stealth"));
  const game = gunbai.worldTrigger.Battle.create(c.steps[0].args);
  for (const s of c.steps.filter((x) => x.call === "world_trigger.battle_act")) {
    game.act(s.args.action, s.args.seed === undefined ? {} : { seed: s.args.seed });
  }
  const hidden = [{ id: null, stage: "reaction" }];
  for (const v of ["b", 1]) {
    assert.deepEqual(game.turnFor(v).active, hidden);
    assert.deepEqual(game.turnFor(v), gunbai.worldTrigger.battleTurn({ state: game.state, viewer: v }));
  }
  for (const v of ["a", null, undefined]) assert.deepEqual(game.turnFor(v).active, [{ id: "a1", stage: "reaction" }]);
  assert.deepEqual(game.turnFor(null), game.turn);
  throwsCode(() => game.turnFor("nobody"), "invalid_argument", "viewer");
  throwsCode(() => game.turnFor("b", 1), "invalid_argument", "args");
  game.free();
});
