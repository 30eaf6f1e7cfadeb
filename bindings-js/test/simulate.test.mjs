// simulate(): a <x>_simulate operation played in chunks, the same games as one call.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as gunbai from "../pkg/index.js";

const setup = {
  characters: [
    { id: "a", side: "pc", base_initiative: 2 },
    { id: "b", side: "npc", base_initiative: 0 },
  ],
};

test("chunks give the one call's games, with progress", async () => {
  const args = { setup, n: 45, seed: 9, max_steps: 500 }; // 20 games per chunk: three chunks
  const seen = [];
  const chunked = await gunbai.simulate("tmd.encounter_simulate", args, { onProgress: (done, n) => seen.push([done, n]) });
  assert.deepEqual(seen, [[20, 45], [40, 45], [45, 45]]);
  assert.throws(() => gunbai.call("tmd.encounter_simulate", args), (e) => e.code === "limit_exceeded");
  const whole = gunbai.call("tmd.encounter_simulate", { ...args, n: 20 });
  const rest = gunbai.call("tmd.encounter_simulate", { ...args, first: 20, n: 20 });
  assert.deepEqual(chunked.battles.seed.slice(0, 40), [...whole.battles.seed, ...rest.battles.seed]);
  assert.deepEqual(chunked.battles.index, Array.from({ length: 45 }, (_, i) => i));
  assert.equal(chunked.members.id.length, chunked.members.actions.length);
});

test("an aborted signal stops between chunks; bad arguments are GunbaiErrors", async () => {
  const ctrl = new AbortController();
  const seen = [];
  const run = gunbai.simulate("tmd.encounter_simulate", { setup, n: 100, seed: 1, max_steps: 500 }, {
    signal: ctrl.signal,
    onProgress: (done) => {
      seen.push(done);
      ctrl.abort(new Error("stopped"));
    },
  });
  await assert.rejects(run, /stopped/);
  assert.deepEqual(seen, [20]);
  await assert.rejects(gunbai.simulate("tmd.encounter_new", { setup, n: 1, seed: 1 }), (e) => e.code === "invalid_argument");
  await assert.rejects(gunbai.simulate("tmd.encounter_simulate", { setup, n: 0, seed: 1 }), (e) => e.code === "out_of_range");
  await assert.rejects(gunbai.simulate("tmd.encounter_simulate", { setup: {}, n: 2, seed: 1 }), (e) => e instanceof gunbai.GunbaiError);
});
