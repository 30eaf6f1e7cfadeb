// The per-call fast paths of the prelude: arguments of plain shapes are
// written without JSON.stringify's replacer, everything else takes the replacer path.
// Each case checks what the slow path would give.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as gunbai from "../pkg/index.js";
import { refused } from "./support.mjs";
import { call as wasmCall } from "../pkg/wasm/gunbai_js.js";

const { GunbaiError } = gunbai;

test("plain arguments give what their JSON text gives", () => {
  const cases = [
    ["dice.roll", { expr: "2d6+1", rolls: [3, 5] }],
    ["dice.roll", { expr: "1d100", seed: 7, rule: undefined }],
    ["command.run", { text: "CC(1)<=53", system: "coc7", seed: 3 }],
    ["command.run", { text: "1D6 コメント 😀", system: "coc7", seed: 3 }],
    ["world_trigger.check", { dice: 7, seed: 1, target: null }],
  ];
  for (const [op, args] of cases) {
    const text = JSON.stringify(args);
    assert.deepEqual(gunbai.call(op, args), JSON.parse(wasmCall(op, text, 0, 0)).ok, `${op} ${text}`);
  }
});

test("an object without a prototype, or a class instance, is written by its own fields", () => {
  const bare = Object.assign(Object.create(null), { expr: "2d6", rolls: [2, 6] });
  assert.equal(gunbai.dice.roll(bare).total, 8);
  class Opts {
    constructor() {
      this.expr = "2d6";
      this.rolls = [1, 6];
    }
  }
  assert.equal(gunbai.dice.roll(new Opts()).total, 7);
  // toJSON is honoured (the replacer path), as JSON.stringify honours it.
  assert.equal(gunbai.dice.roll({ toJSON: () => ({ expr: "2d6", rolls: [4, 4] }) }).total, 8);
});

test("what the replacer refuses is still refused, naming the field, deep in plain shapes too", () => {
  const nested = { expr: "2d6", rolls: [3, 4], seed: { a: [1, [2, NaN]] } };
  assert.equal(refused(() => gunbai.dice.roll(nested)).field, "seed.a[1][1]");
  assert.equal(refused(() => gunbai.dice.roll({ expr: "2d6", rolls: [3, "\udc00"] })).field, "rolls[1]");
  assert.equal(refused(() => gunbai.dice.roll({ expr: "2d6", rolls: [3, () => 4] })).field, "rolls[1]");
  assert.equal(refused(() => gunbai.dice.roll({ expr: "2d6", rolls: [3, 10n] })).field, "rolls[1]");
  assert.equal(refused(() => gunbai.dice.roll({ expr: "2d6", rolls: [new Set([1])] })).field, "rolls[0]");
  const e = refused(() => gunbai.dice.roll({ expr: "2d6", "\ud83d": 1 }));
  assert.equal(e.field, "args");
  assert.match(e.message, /a key is not valid Unicode text/);
});

test("text that only looks like an escaped surrogate is sent as it is", () => {
  // A backslash, then `ud800`: valid text (the replacer path finds nothing to refuse).
  const r = gunbai.command.run({ text: "1D6 \\ud800", system: "coc7", seed: 1 });
  assert.equal(r.matched, true);
  assert.equal(r.comment, "\\ud800");
});

test("nesting deeper than the core reads is its limit_exceeded on either path", () => {
  let deep = 1;
  for (let i = 0; i < 70; i++) deep = [deep];
  const e = refused(() => gunbai.dice.roll({ expr: "2d6", rolls: deep }));
  assert.equal(e.code, "limit_exceeded");
});

test("replies in Japanese and astral characters read back as the same text", () => {
  const r = gunbai.command.run({ text: "CC(1)<=53", system: "coc7", rolls: [3, 1, 5] });
  assert.match(r.text, /^\(1D100<=53\) ボーナス・ペナルティダイス\[1\] ＞ /);
  assert.equal(gunbai.command.run({ text: "1D6 😀", system: "coc7", seed: 1 }).comment, "😀");
});

test("unseeded calls draw fresh entropy each time", () => {
  const seen = new Set();
  for (let i = 0; i < 20; i++) seen.add(gunbai.dice.roll({ expr: "1d10000" }).total);
  assert.ok(seen.size > 15, `${seen.size} distinct totals of 20`);
});
