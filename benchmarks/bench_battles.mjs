// World Trigger battles from Node, three ways, side by side in one run:
// the pure operations (the whole state as JSON every action), the handle
// (`worldTrigger.Battle`, state in wasm memory) and `worldTrigger.simulateBattles`.
// A random 3v3 rank battle: at every step one listed action uniformly at random.
// Prints `key value` lines for benchmarks/run.sh. No assertion depends on timing.
import { readFileSync } from "node:fs";
import { worldTrigger as wt } from "../bindings-js/pkg/index.js";

const SETUP = JSON.parse(readFileSync(new URL("../examples/battles/rank_3v3.json", import.meta.url), "utf8"));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};

// A small seeded generator for the choices (the dice are gunbai's, seeded per action).
function rng(seed) {
  let s = BigInt(seed) | 1n;
  return (n) => {
    s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number((s >> 33n) % BigInt(n));
  };
}

function pureBattle(pick) {
  let state = wt.battleNew(SETUP).state;
  let actions = 0;
  for (;;) {
    const listed = wt.battleLegalActions({ state }).actions;
    if (listed.length === 0) return actions;
    state = wt.battleAct({ state, action: listed[pick(listed.length)].action, seed: pick(2 ** 30) }).state;
    actions++;
  }
}

function handleBattle(pick) {
  const b = wt.Battle.create(SETUP);
  try {
    let actions = 0;
    for (;;) {
      const listed = b.legalActions();
      if (listed.length === 0) return actions;
      b.act(listed[pick(listed.length)].action, { seed: pick(2 ** 30) });
      actions++;
    }
  } finally {
    b.free();
  }
}

function listingBattle(pick) {
  const b = wt.Battle.create(SETUP);
  try {
    let actions = 0;
    for (;;) {
      const listed = b.listing();
      if (listed.length === 0) return actions;
      b.act(listed.at(pick(listed.length)).action, { seed: pick(2 ** 30) });
      actions++;
    }
  } finally {
    b.free();
  }
}

function playBattle(pick) {
  const b = wt.Battle.create(SETUP);
  try {
    let actions = 0;
    for (;;) {
      const listed = b.listing();
      if (listed.length === 0) return actions;
      listed.play(pick(listed.length), { seed: pick(2 ** 30) });
      actions++;
    }
  } finally {
    b.free();
  }
}

function perAction(play, battles) {
  const pick = rng(7);
  const t = process.cpuUsage();
  let n = 0;
  for (let i = 0; i < battles; i++) n += play(pick);
  const u = process.cpuUsage(t);
  return (u.user + u.system) / n;
}

console.log(`node.pure_us_per_action ${perAction(pureBattle, arg("pure-battles", 2)).toFixed(1)}`);
console.log(`node.handle_us_per_action ${perAction(handleBattle, arg("handle-battles", 20)).toFixed(1)}`);
console.log(`node.listing_us_per_action ${perAction(listingBattle, arg("handle-battles", 20)).toFixed(1)}`);
console.log(`node.play_us_per_action ${perAction(playBattle, arg("handle-battles", 20)).toFixed(1)}`);
const n = arg("sim-battles", 800);
let best = Infinity;
for (let seed = 0; seed < 3; seed++) {
  const t = performance.now();
  wt.simulateBattles({ setup: SETUP, n, seed });
  best = Math.min(best, performance.now() - t);
}
console.log(`node.sim_us_per_battle ${((best / n) * 1000).toFixed(1)}`);
console.log(`node.sim_battles_per_s ${(n / (best / 1000)).toFixed(0)}`);
