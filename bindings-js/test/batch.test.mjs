// Batch operations in windows: `callBatch` makes a long call in wasm calls of about
// 200 ms each, every window continuing the one die stream, so the result is the one
// call's; `callBatchAsync` yields between them with progress. And the 37 input shapes of
// testdata/batch/limit_shapes.json held to their limits (n_max accepted, n_max + 1
// refused). No timing is asserted (the standards forbid timed tests): the longest window
// is printed; scripts/batch-limits.py times them (BENCHMARKS.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as gunbai from "../pkg/index.js";
import { refused } from "./support.mjs";

const read = (p) => JSON.parse(readFileSync(new URL(`../../${p}`, import.meta.url), "utf8"));

function shapes() {
  return read("testdata/batch/limit_shapes.json").map(({ op, shape, args, n_max }) => {
    const { setup_file, ...rest } = args;
    return { op, shape, n_max, args: setup_file ? { ...rest, setup: read(setup_file) } : rest };
  });
}

// gunbai-dice-v1 written again here with BigInt (DESIGN.md, "Which PRNG?"): the stream
// the windows must continue.
const MASK = (1n << 64n) - 1n;
const rotl = (x, k) => ((x << k) | (x >> (64n - k))) & MASK;
function prng(seed) {
  let sm = BigInt(seed);
  const split = () => {
    sm = (sm + 0x9e3779b97f4a7c15n) & MASK;
    let z = sm;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
  const s = [split(), split(), split(), split()];
  const next = () => {
    const result = (rotl((s[1] * 5n) & MASK, 7n) * 9n) & MASK;
    const t = (s[1] << 17n) & MASK;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45n);
    return result;
  };
  return (sides) => {
    const n = BigInt(sides);
    const rejectBelow = ((MASK % n) + 1n) % n;
    for (;;) {
      const x = next();
      if (x >= rejectBelow) return Number(x % n) + 1;
    }
  };
}

async function windowed(op, args) {
  const seen = [];
  const result = await gunbai.callBatchAsync(op, args, { onProgress: (done, n) => seen.push([done, n]) });
  return { result, seen };
}

test("a batch in windows is the one stream: dice.simulate_pool against gunbai-dice-v1 in BigInt", async () => {
  const n = 5000;
  const { result, seen } = await windowed("dice.simulate_pool", { count: 3, sides: 6, n, seed: 44 });
  // The first window is 64 repetitions: at least two windows, ending at n.
  assert.ok(seen.length >= 2, JSON.stringify(seen));
  assert.deepEqual(seen[0], [64, n]);
  assert.deepEqual(seen.at(-1), [n, n]);
  const face = prng(44);
  const expected = Int32Array.from({ length: n }, () => face(6) + face(6) + face(6));
  assert.deepEqual(result, expected);
  assert.deepEqual(gunbai.callBatch("dice.simulate_pool", { count: 3, sides: 6, n, seed: 44 }), expected);
  // Element 0 is the single operation with the same seed.
  assert.equal(gunbai.dice.pool({ count: 3, sides: 6, seed: 44 }).total, expected[0]);
});

test("every batch operation gives the same result in windows, sync and async, tables included", async () => {
  const seenOps = new Set();
  for (const { op, args, n_max } of shapes()) {
    if (seenOps.has(op)) continue;
    seenOps.add(op);
    // More than the first window (64), at most the limit.
    const n = Math.min(n_max, op === "world_trigger.simulate_battles" ? 70 : 3000);
    const call = { ...args, n, seed: 7 };
    const { result, seen } = await windowed(op, call);
    assert.ok(seen.length >= 2, `${op}: ${JSON.stringify(seen)}`);
    assert.deepEqual(gunbai.callBatch(op, call), result, op);
    if (op === "world_trigger.simulate_battles") {
      assert.equal(result.winner.length, n);
      assert.equal(result.points.length, args.setup.teams.length);
      assert.ok(result.points.every((col) => col.length === n));
      // Battle k depends only on the seed and k: the first 64 (the first window) are
      // the battles of a call of 64.
      const first = gunbai.callBatch(op, { ...call, n: 64 });
      assert.deepEqual(result.winner.subarray(0, 64), first.winner);
      assert.deepEqual(result.points.map((c) => c.subarray(0, 64)), first.points);
    } else {
      const per = op === "tmd.simulate_initiative" ? args.combatants.length : 1;
      assert.equal(result.length, n * per, op);
      // Row 0 of a longer call is the call of one.
      assert.deepEqual(result.subarray(0, per), gunbai.callBatch(op, { ...call, n: 1 }), op);
    }
  }
  assert.equal(seenOps.size, 7);
});

test("an aborted signal stops a batch between windows; refusals come from the first window", async () => {
  const ctrl = new AbortController();
  const seen = [];
  const run = gunbai.callBatchAsync("dice.simulate_pool", { count: 1, sides: 6, n: 100_000, seed: 1 }, {
    signal: ctrl.signal,
    onProgress: (done) => {
      seen.push(done);
      ctrl.abort(new Error("stopped"));
    },
  });
  await assert.rejects(run, /stopped/);
  assert.deepEqual(seen, [64]);
  await assert.rejects(gunbai.callBatchAsync("dice.simulate_pool", { count: 1000, sides: 6, n: 1e7, seed: 1 }),
    (e) => e instanceof gunbai.GunbaiError && e.code === "limit_exceeded" && e.field === "n");
  await assert.rejects(gunbai.callBatchAsync("dice.roll", { expr: "1d6" }), (e) => e.code === "unknown_operation");
});

test("the 37 batch shapes: one past the limit refused before any work, each operation's heaviest at its limit", async () => {
  const all = shapes();
  assert.equal(all.length, 37);
  for (const { op, shape, args, n_max } of all) {
    const e = refused(() => gunbai.callBatch(op, { ...args, n: n_max + 1, seed: 1 }));
    assert.ok(["out_of_range", "limit_exceeded"].includes(e.code) && e.field === "n", `${op} ${shape}: ${e.code} ${e.field}`);
  }
  // At the limit: the shape of each operation the audit timed slowest in Node (2-3 s as
  // one wasm call), now in windows.
  const heaviest = ["0d6", "0+0T+0E", "0v0 win", "burst+lvs", "bonus 10 rule 0", "10 ties", "rank_3v3 random"];
  for (const { op, shape, args, n_max } of all.filter((s) => heaviest.includes(s.shape))) {
    let windows = 0;
    let longest = 0;
    let last = performance.now();
    const start = last;
    const result = await gunbai.callBatchAsync(op, { ...args, n: n_max, seed: 1 }, {
      onProgress: () => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        windows++;
      },
    });
    const rows = result.length ?? result.winner.length;
    const per = op === "tmd.simulate_initiative" ? args.combatants.length : 1;
    assert.equal(rows, n_max * per, `${op} ${shape}`);
    assert.ok(windows >= 2, `${op} ${shape}: ${windows} windows`);
    console.log(`${op} ${shape} n=${n_max}: ${((performance.now() - start) / 1000).toFixed(2)} s in ${windows} windows, the longest ${(longest / 1000).toFixed(2)} s`);
  }
});
