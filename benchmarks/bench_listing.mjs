// The worst valid World Trigger listing (the vector wt-battle-listing-worst-valid-compact)
// in Node: the compact form a host uses, and the full form, through the pure operation
// and a handle; its size and the median of 9 calls after one warm-up.
//   node benchmarks/bench_listing.mjs [--pkg bindings-js/pkg]
import { readFileSync } from "node:fs";
const at = process.argv.indexOf("--pkg");
const pkg = new URL(`../${at > 0 ? process.argv[at + 1] : "bindings-js/pkg"}/index.js`, import.meta.url);
const gunbai = await import(pkg);
const cases = JSON.parse(readFileSync(new URL("../testdata/vectors/world_trigger_battle/listing_limits.json", import.meta.url)));
const { state } = cases.find((c) => c.id === "wt-battle-listing-worst-valid-compact").args;
const game = gunbai.worldTrigger.Battle.fromJSON(state);
function time(label, f) {
  let out;
  try {
    out = f();
  } catch (e) {
    console.log(`${label}: ${e.code} (${e.message.slice(0, 80)})`);
    return;
  }
  const ms = [];
  for (let i = 0; i < 9; i++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label}: ${JSON.stringify(out).length.toLocaleString("en")} bytes, median ${ms[4].toFixed(1)} ms (min ${ms[0].toFixed(1)}, max ${ms[8].toFixed(1)})`);
}
time("pure op, compact", () => gunbai.worldTrigger.battleLegalActions({ state, compact: true }));
time("handle, compact", () => game.legalActions({ compact: true }));
time("handle, compact, one member", () => game.legalActions({ actor: "t3m0", compact: true }));
time("handle, kind move, one member (full form)", () => game.legalActions({ actor: "t3m0", kind: "move" }));
time("pure op, full form", () => gunbai.worldTrigger.battleLegalActions({ state }));
game.free();
