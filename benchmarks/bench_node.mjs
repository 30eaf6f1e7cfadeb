// gunbai against bcdice-js in Node, side by side in one run, and the cost of
// each layer of the JS binding. Run by benchmarks/run.sh (`make bench`), which installs
// bcdice (npm `bcdice`, a benchmark-only dependency) into a cache directory:
//
//   node benchmarks/bench_node.mjs BCDICE_DIR [--iters N] [--rounds R]
//
// 1. Chat commands: `command.run` (full npm entry, unseeded as bcdice is) against
//    bcdice-js `GameSystem.eval` for the same text; rounds alternate between the two so
//    both see the same load; each figure is the best round (µs per command).
// 2. Cold start to first result: a fresh `node` process per sample; the time from
//    before the library's import to the first command's result (the process's own start
//    is left out: it is the same for both), and the process's memory after 1,000
//    commands (RSS, and the JS heap in use).
// 3. Per layer: the wasm export (the wasm-bindgen glue's `call` on JSON text, what
//    the prelude calls) against the public `call` and the module function.
// With BENCH_KV=FILE, `key value` lines are appended to FILE (benchmarks/run.sh prints
// the summary from them). No figure is asserted: this prints, it does not test.
import { execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const INDEX = fileURLToPath(new URL("../bindings-js/pkg/index.js", import.meta.url));
const GLUE = fileURLToPath(new URL("../bindings-js/pkg/wasm/gunbai_js.js", import.meta.url));
const argv = process.argv.slice(2);
const BCDICE = argv[0];
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const ITERS = opt("iters", 2000);
const ROUNDS = opt("rounds", 7);
const kv = (key, value) => {
  if (process.env.BENCH_KV) appendFileSync(process.env.BENCH_KV, `${key} ${value}\n`);
};
const load = () => (process.platform === "linux" ? execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).split(" ").slice(0, 3).join(" ") : "?");

// [label, gunbai system, bcdice game system, text]
const COMMANDS = [
  ["CC(1)<=53", "coc7", "Cthulhu7th", "CC(1)<=53"],
  ["CCB<=65", "coc6", "Cthulhu", "CCB<=65"],
  ["2D6+3", "coc7", "Cthulhu7th", "2D6+3"],
  ["CBR(70,30)", "coc7", "Cthulhu7th", "CBR(70,30)"],
];

const gunbai = await import(INDEX);
const glue = await import(GLUE);
const { createRequire } = await import("node:module");
const { DynamicLoader } = createRequire(import.meta.url)(BCDICE);
const loader = new DynamicLoader();
const systems = {};
for (const [, , sys] of COMMANDS) systems[sys] ??= await loader.dynamicLoad(sys);
const bcdiceVersion = createRequire(import.meta.url)(`${BCDICE}/package.json`).version;

// µs per call of one round of `n` calls.
function round(f, n) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  return Number(process.hrtime.bigint() - t) / n / 1000;
}

// The best round of each function, rounds interleaved (a, b, a, b, …).
function sideBySide(fs, n, rounds) {
  for (const f of fs) round(f, Math.max(1, n >> 2)); // warm up (V8 tiers the code up)
  const best = fs.map(() => Infinity);
  for (let r = 0; r < rounds; r++) fs.forEach((f, i) => (best[i] = Math.min(best[i], round(f, n))));
  return best;
}

console.log(`node ${process.version}, gunbai ${gunbai.version} (full npm entry), bcdice-js ${bcdiceVersion}`);
console.log(`load average at the start ${load()}`);
console.log();
console.log(`== 1. Chat commands, unseeded, best of ${ROUNDS} interleaved rounds of ${ITERS}`);
console.log("| command | gunbai µs | bcdice-js µs | bcdice ÷ gunbai | gunbai's text | bcdice's text |");
console.log("|---|---|---|---|---|---|");
for (const [label, system, sys, text] of COMMANDS) {
  const g = gunbai.command.run({ text, system });
  const b = systems[sys].eval(text);
  if (!g.matched || !b) throw new Error(`${label}: not a command for both (gunbai ${g.matched}, bcdice ${b})`);
  const [tg, tb] = sideBySide([() => gunbai.command.run({ text, system }), () => systems[sys].eval(text)], ITERS, ROUNDS);
  console.log(`| \`${label}\` (${system} / ${sys}) | ${tg.toFixed(2)} | ${tb.toFixed(1)} | ${(tb / tg).toFixed(0)}× | ${g.text.replace(/\n/g, " ")} | ${b.text.replace(/\n/g, " ")} |`);
  kv(`node.cmd.${label}.gunbai_us`, tg);
  kv(`node.cmd.${label}.bcdice_us`, tb);
}

// A fresh process: import, first command (CC(1)<=53), then 1,000 more; prints JSON.
const COLD = {
  gunbai: `const t0 = performance.now();
const g = await import(${JSON.stringify(INDEX)});
const r = g.command.run({ text: "CC(1)<=53", system: "coc7" });
const first = performance.now() - t0;
for (let i = 0; i < 1000; i++) g.command.run({ text: "CC(1)<=53", system: "coc7" });
const m = process.memoryUsage();
console.log(JSON.stringify({ first, ok: r.matched, rss: m.rss, heap: m.heapUsed }));`,
  bcdice: `const t0 = performance.now();
const { createRequire } = await import("node:module");
const { DynamicLoader } = createRequire(${JSON.stringify(import.meta.url)})(${JSON.stringify(BCDICE)});
const s = await new DynamicLoader().dynamicLoad("Cthulhu7th");
const r = s.eval("CC(1)<=53");
const first = performance.now() - t0;
for (let i = 0; i < 1000; i++) s.eval("CC(1)<=53");
const m = process.memoryUsage();
console.log(JSON.stringify({ first, ok: !!r, rss: m.rss, heap: m.heapUsed }));`,
  "bare node": `const m = process.memoryUsage();
console.log(JSON.stringify({ first: 0, ok: true, rss: m.rss, heap: m.heapUsed }));`,
};
const SAMPLES = 5;
const cold = {};
for (let i = 0; i < SAMPLES; i++) {
  for (const [name, code] of Object.entries(COLD)) {
    const r = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" }));
    if (!r.ok) throw new Error(`${name}: no result`);
    const c = (cold[name] ??= { first: Infinity, rss: Infinity, heap: Infinity });
    c.first = Math.min(c.first, r.first);
    c.rss = Math.min(c.rss, r.rss);
    c.heap = Math.min(c.heap, r.heap);
  }
}
console.log();
console.log(`== 2. Cold start to the first \`CC(1)<=53\` (import included) and memory after 1,000 more; best of ${SAMPLES} fresh processes each`);
console.log("| | first result ms | RSS MiB | JS heap used MiB |");
console.log("|---|---|---|---|");
const mib = (b) => (b / 2 ** 20).toFixed(1);
for (const [name, c] of Object.entries(cold)) {
  console.log(`| ${name} | ${name === "bare node" ? "—" : c.first.toFixed(1)} | ${mib(c.rss)} | ${mib(c.heap)} |`);
  kv(`node.cold.${name.replace(" ", "_")}.first_ms`, c.first);
  kv(`node.cold.${name.replace(" ", "_")}.rss_mib`, mib(c.rss));
}
console.log(`  bcdice ÷ gunbai, cold start: ${(cold.bcdice.first / cold.gunbai.first).toFixed(1)}×`);

// 3. Layers. The wasm export takes the JSON text the prelude would send.
const LAYERS = [
  ["meta.version", {}, () => gunbai.meta.version()],
  ["dice.roll", { expr: "1d100", seed: 1 }, () => gunbai.dice.roll({ expr: "1d100", seed: 1 })],
  ["coc7.check", { skill: 50, seed: 1 }, () => gunbai.coc7.check({ skill: 50, seed: 1 })],
  ["command.run", { text: "CC(1)<=53", system: "coc7", seed: 1 }, () => gunbai.command.run({ text: "CC(1)<=53", system: "coc7", seed: 1 })],
  ["world_trigger.check", { dice: 7, seed: 1 }, () => gunbai.worldTrigger.check({ dice: 7, seed: 1 })],
];
const N = ITERS * 5;
console.log();
console.log(`== 3. Per layer, seeded, best of ${ROUNDS} interleaved rounds of ${N}`);
console.log("| call | wasm export µs (JSON text in and out) | + JSON.parse µs | `call` µs | module function µs | binding's cost µs (function − export) |");
console.log("|---|---|---|---|---|---|");
for (const [op, args, fn] of LAYERS) {
  const text = JSON.stringify(args);
  const expect = JSON.stringify(JSON.parse(glue.call(op, text, 0, 0)).ok);
  if (JSON.stringify(fn()) !== expect || JSON.stringify(gunbai.call(op, args)) !== expect) throw new Error(`${op}: the layers disagree`);
  const [raw, parsed, viaCall, viaFn] = sideBySide(
    [() => glue.call(op, text, 0, 0), () => JSON.parse(glue.call(op, text, 0, 0)), () => gunbai.call(op, args), fn],
    N,
    ROUNDS,
  );
  console.log(`| \`${op}\` | ${raw.toFixed(2)} | ${parsed.toFixed(2)} | ${viaCall.toFixed(2)} | ${viaFn.toFixed(2)} | ${(viaFn - raw).toFixed(2)} |`);
  kv(`node.${op}.wasm_us`, raw);
  kv(`node.${op}.call_us`, viaCall);
  kv(`node.${op}.fn_us`, viaFn);
}
console.log(`\nload average at the end ${load()}`);
