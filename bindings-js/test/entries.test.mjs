// Node tests of the per-ruleset entries (gunbai/world-trigger, gunbai/coc6, gunbai/coc7, gunbai/tmd,
// gunbai/fap-map): each is the same API over a smaller wasm that registers only
// dice, meta and its own ruleset (no chat commands: those are the full package's).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as full from "../pkg/index.js";

const pkgJson = JSON.parse(readFileSync(new URL("../pkg/package.json", import.meta.url), "utf8"));
const ENTRIES = {
  "world-trigger": { ruleset: "world_trigger", modules: ["worldTrigger"], system: "world_trigger" },
  coc6: { ruleset: "coc6", modules: ["cocAp"], system: "coc6" },
  coc7: { ruleset: "coc7", modules: ["coc7", "coc7House"], system: "coc7" },
  tmd: { ruleset: "tmd", modules: ["tmd"], system: "tmd" },
  "fap-map": { ruleset: "fap_map", modules: ["fapMap"], system: "fap_map" },
};
const RULESET_MODULES = Object.values(ENTRIES).flatMap((e) => e.modules);
const wasmBytes = (dir) => statSync(new URL(`../pkg/${dir}/wasm/gunbai_js_bg.wasm`, import.meta.url)).size;

for (const [name, want] of Object.entries(ENTRIES)) {
  test(`gunbai/${name}: registers its ruleset and nothing of the others`, async () => {
    const g = await import(`../pkg/${name}/index.js`);
    assert.deepEqual(g.meta.version().rulesets, [want.ruleset]);
    assert.equal(g.meta.version().prng, full.meta.version().prng);
    for (const m of RULESET_MODULES) {
      assert.equal(m in g, want.modules.includes(m), `${m} in gunbai/${name}`);
    }
    // Every operation the entry registers is one of the full package's, with the same JS name.
    for (const op of g.meta.operations().operations) {
      assert.ok(full.meta.operations().operations.includes(op), op);
    }
    assert.throws(() => g.call("no_such.op", {}), (e) => e instanceof g.GunbaiError && e.code === "unknown_operation");
    // The chat commands are the full package's (DESIGN.md, "Why do the per-ruleset entries
    // have no chat commands?"): not in the surface, and refused by name through call().
    assert.equal("command" in g, false, `gunbai/${name} has no command namespace`);
    for (const op of ["command.run", "command.help", "command.parse_st"]) {
      assert.equal(g.meta.operations().operations.includes(op), false, op);
      assert.throws(
        () => g.call(op, { text: "1d6", system: want.system, seed: 1 }),
        (e) => e instanceof g.GunbaiError && e.code === "not_in_build" && e.field === "op",
      );
    }
    assert.equal(full.command.help({ system: want.system }).commands.length > 0, true);
    // Plain dice work, with the same results as the full package.
    assert.deepEqual(g.dice.roll({ expr: "3d6", seed: 99 }), full.dice.roll({ expr: "3d6", seed: 99 }));
    assert.ok(wasmBytes(name) < wasmBytes("."), "an entry's wasm is smaller than the full one");
  });

  test(`gunbai/${name}/inline: same surface, wasm inlined`, async () => {
    const g = await import(`../pkg/${name}/inline.js`);
    assert.deepEqual(g.meta.version().rulesets, [want.ruleset]);
    assert.deepEqual(g.dice.roll({ expr: "2d10", seed: 3 }), full.dice.roll({ expr: "2d10", seed: 3 }));
  });

  test(`package.json exports gunbai/${name} and its inline variant`, () => {
    assert.equal(pkgJson.exports[`./${name}`].default, `./${name}/index.js`);
    assert.equal(pkgJson.exports[`./${name}`].types, `./${name}/index.d.ts`);
    assert.equal(pkgJson.exports[`./${name}/inline`].default, `./${name}/inline.js`);
    assert.ok(pkgJson.files.includes(`${name}/`));
  });
}

test("the same seed gives the same battle step in an entry and in the full package", async () => {
  const g = await import("../pkg/tmd/index.js");
  const args = { combatants: [{ id: "a", side: "pc", base_initiative: 5 }, { id: "b", side: "npc", base_initiative: 5 }], seed: 11 };
  assert.deepEqual(g.tmd.initiative(args), full.tmd.initiative(args));
});

// The size budgets (DESIGN.md, "What size budget does the wasm have?"): gzip -9 of each
// entry's .wasm, measured with the gzip program as README's figures are.
const BUDGETS = { ".": 600_000, "world-trigger": 230_000, coc6: 150_000, coc7: 150_000, tmd: 150_000, "fap-map": 150_000 };
const gzipped = (dir) =>
  execFileSync("gzip", ["-9c", fileURLToPath(new URL(`../pkg/${dir}/wasm/gunbai_js_bg.wasm`, import.meta.url))], {
    maxBuffer: 64 << 20,
  }).length;

// An entry over its budget fails.
for (const [dir, budget] of Object.entries(BUDGETS)) {
  const name = dir === "." ? "gunbai" : `gunbai/${dir}`;
  test(`${name}: the .wasm is within its gzip budget of ${budget} bytes`, () => {
    const size = gzipped(dir);
    console.log(`${name}: ${size} bytes gzipped (budget ${budget}, ${budget - size} to spare)`);
    assert.ok(size <= budget, `${name} is ${size} bytes gzipped, over its budget of ${budget}`);
  });
}
