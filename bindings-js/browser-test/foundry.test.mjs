// The Foundry VTT module in Chromium against a small stand-in for Foundry's client
// API (examples/foundry-module/test/foundry-stand-in.js — not Foundry): a chat
// command posts a message whose Roll dice carry gunbai's faces, team initiative
// orders the teams by the leaders' Command checks, and the tracker shows the
// phase and the team budget.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage, screenshot } from "./harness.mjs";
import { buildExamples } from "./build-examples.mjs";

const gunbai = await import(`${REPO_ROOT}/bindings-js/pkg/index.js`);
const SHOTS = join(REPO_ROOT, "examples", "foundry-module", "screenshots");
let browser, server, page;

before(async () => {
  buildExamples();
  server = await serve();
  browser = await launch();
  page = await newPage(browser, { viewport: { width: 1100, height: 760 } });
  await page.goto(`${server.url}examples/foundry-module/test/index.html`);
  await page.waitForFunction(() => typeof window.__bootStandIn === "function" && window.Hooks);
  await page.evaluate(() => window.__bootStandIn("en"));
  await page.waitForFunction(() => game.modules.get("gunbai").api);
  await page.evaluate(() => game.modules.get("gunbai").api.ready);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Faces of every Die term of the last message's rolls, as Dice So Nice reads them. */
const lastDsn = () => page.evaluate(() => window.__standIn.dsn.at(-1));
const lastMessage = () =>
  page.evaluate(() => {
    const m = game.messages.at(-1);
    return { content: m.content, flags: m.flags, rolls: m.rolls.map((r) => r.toJSON()), whisper: m.whisper };
  });

function dsnFaces(dsn) {
  return dsn.flatMap((roll) => roll.flatMap((d) => d.results.map((v) => ({ sides: d.faces, value: v }))));
}

test("module.json declares the ES module, styles, languages and the targeted versions", async () => {
  const manifest = await (await fetch(`${server.url}examples/foundry-module/module.json`)).json();
  assert.equal(manifest.id, "gunbai");
  assert.deepEqual(manifest.compatibility, { minimum: "12", verified: "13" });
  for (const f of [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((l) => l.path)]) {
    const r = await fetch(`${server.url}examples/foundry-module/${f}`);
    assert.equal(r.status, 200, f);
  }
  assert.deepEqual(page.errors, []);
});

test("a chat command posts gunbai's faces on the message's Roll", async () => {
  const before = await page.evaluate(() => game.messages.length);
  const handled = await page.evaluate(() => window.__sendChat("/dice 4d6+2"));
  assert.equal(handled, true, "the chatMessage hook handled the command");
  await page.waitForFunction((n) => game.messages.length > n, before);
  const msg = await lastMessage();
  const result = msg.flags.gunbai.result;
  assert.equal(result.rolls.length, 4);
  // The Roll carries exactly gunbai's faces, and Dice So Nice would animate them.
  assert.deepEqual(msg.rolls[0].dice.flatMap((d) => d.results.map((r) => r.result)), result.rolls.map((r) => r.value));
  assert.deepEqual(dsnFaces(await lastDsn()), result.rolls.map((r) => ({ sides: r.sides, value: r.value })));
  assert.equal(msg.rolls[0].total, result.total);
  // The same faces replayed through gunbai give the same total.
  assert.equal(gunbai.dice.roll({ expr: "4d6+2", rolls: result.rolls }).total, result.total);
  // Ordinary chat is left alone.
  assert.equal(await page.evaluate(() => window.__sendChat("hello table")), false);
});

test("the module API posts seeded results equal to gunbai's in Node", async () => {
  await page.evaluate(async () => {
    const api = game.modules.get("gunbai").api;
    const out = await api.runCommand("2d10+1d6", { system: null, seed: 99 });
    await api.postResult(out, { command: "/dice 2d10+1d6", system: null });
  });
  const msg = await lastMessage();
  const expected =
    typeof gunbai.command?.run === "function"
      ? gunbai.command.run({ text: "2d10+1d6", system: null, lang: "en", seed: 99 })
      : gunbai.dice.roll({ expr: "2d10+1d6", seed: 99 });
  assert.deepEqual(msg.flags.gunbai.result, expected);
  // the same faces as dice.roll with that seed
  assert.deepEqual(expected.rolls, gunbai.dice.roll({ expr: "2d10+1d6", seed: 99 }).rolls);
  assert.deepEqual(
    msg.rolls[0].dice.map((d) => ({ faces: d.faces, results: d.results.map((r) => r.result) })),
    [
      { faces: 10, results: expected.rolls.slice(0, 2).map((r) => r.value) },
      { faces: 6, results: [expected.rolls[2].value] },
    ],
  );
});

test("system commands go through command.run: World Trigger and CoC 7th", async () => {
  const hasCommand = typeof gunbai.command?.run === "function";
  const before = await page.evaluate(() => [game.messages.length, window.__standIn.notifications.length]);
  await page.evaluate(() => window.__sendChat("/wt WT5T1>=10 attack!"));
  if (!hasCommand) {
    // A build without the chat-command module: the module says so instead of guessing.
    await page.waitForFunction((n) => window.__standIn.notifications.length > n, before[1]);
    const note = await page.evaluate(() => window.__standIn.notifications.at(-1));
    assert.equal(note[0], "error");
    assert.match(note[1], /not_implemented: command\.run is not in this build/);
    return;
  }
  await page.waitForFunction((n) => game.messages.length > n, before[0]);
  let msg = await lastMessage();
  assert.equal(msg.flags.gunbai.system, "world_trigger");
  const wt = msg.flags.gunbai.result;
  assert.equal(wt.kind, "wt_check");
  assert.equal(wt.rolls.length, 6, "5 stat dice + 1 tactics die");
  assert.deepEqual(dsnFaces(await lastDsn()), wt.rolls.map((r) => ({ sides: r.sides, value: r.value })));
  assert.ok(msg.content.includes(wt.text.split("\n")[0].replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")));
  // replaying the faces through command.run gives the same reply
  assert.equal(gunbai.command.run({ text: "WT5T1>=10", system: "world_trigger", lang: "en", rolls: wt.rolls }).text, wt.text);
  // seeded through the module API = Node's command.run with the same seed
  await page.evaluate(async () => {
    const api = game.modules.get("gunbai").api;
    const out = await api.runCommand("CC(1)<=50", { system: "coc7", lang: "ja", seed: 11 });
    await api.postResult(out, { command: "/coc CC(1)<=50", system: "coc7" });
  });
  msg = await lastMessage();
  const expected = gunbai.command.run({ text: "CC(1)<=50", system: "coc7", lang: "ja", seed: 11 });
  assert.deepEqual(msg.flags.gunbai.result, expected);
  // percentile tens dice are d10s flavoured "tens", in consumption order
  const dice = (await lastDsn())[0];
  assert.deepEqual(dice.flatMap((d) => d.results), expected.rolls.map((r) => r.value));
  assert.ok(msg.rolls[0].formula.includes("[tens]"), msg.rolls[0].formula);
  // a secret (S-prefixed) command is whispered to the GMs
  await page.evaluate(() => window.__sendChat("/coc SCC<=50"));
  await page.waitForFunction((k) => game.messages.at(-1).flags.gunbai?.command === "/coc SCC<=50", null);
  assert.deepEqual((await lastMessage()).whisper, ["u1"]);
  // a malformed command: a warning to the sender naming the problem, no message
  const m0 = await page.evaluate(() => [game.messages.length, window.__standIn.notifications.length]);
  await page.evaluate(() => window.__sendChat("/coc CC(1<=50"));
  await page.waitForFunction((k) => window.__standIn.notifications.length > k, m0[1]);
  assert.match((await page.evaluate(() => window.__standIn.notifications.at(-1)))[1], /closing '\)'/);
  assert.equal(await page.evaluate(() => game.messages.length), m0[0]);
  // ordinary chat through a system prefix is not a command: a warning, no message
  const n = await page.evaluate(() => game.messages.length);
  await page.evaluate(() => window.__sendChat("/wt hello there"));
  await page.waitForFunction((k) => window.__standIn.notifications.length > k, m0[1] + 1);
  assert.match((await page.evaluate(() => window.__standIn.notifications.at(-1)))[1], /not a world_trigger command/);
  assert.equal(await page.evaluate(() => game.messages.length), n);
});

/** Each Roll of the last message: its terms, and what its terms add up to (signs from the operators). */
const lastRollTerms = () =>
  page.evaluate(() =>
    game.messages.at(-1).rolls.map((r) => {
      let sign = 1;
      let sum = 0;
      const terms = [];
      for (const t of r.terms) {
        terms.push(t.constructor.name);
        if (t.constructor.name === "OperatorTerm") sign = t.operator === "-" ? -1 : 1;
        else sum += sign * (t.constructor.name === "Die" ? t.total : t.number);
      }
      return { terms, sum, total: r.total, formula: r.formula, flavor: r.options.flavor ?? null };
    }),
  );

test("a Roll shows the dice as rolled, never a made-up term: table shifts, criticals, d66, repeated runs", async () => {
  if (typeof gunbai.command?.run !== "function") return; // a build without command.run: only /dice
  const post = (text, system, seed, prefix) =>
    page.evaluate(
      async ([text, system, seed, prefix]) => {
        const api = game.modules.get("gunbai").api;
        const out = await api.runCommand(text, { system, lang: "en", seed });
        await api.postResult(out, { command: `${prefix} ${text}`, system });
      },
      [text, system, seed, prefix],
    );
  const run = (text, system, seed) => gunbai.command.run({ text, system, lang: "en", seed });
  const faces = (rolls) => rolls.map((r) => r.value);
  const sum = (rolls) => rolls.reduce((a, r) => a + r.value, 0);

  // WDT10[OH]: the die shows 4, the held condition shifts it to row 5
  const wdt = run("WDT10[OH]", "world_trigger", 18);
  assert.deepEqual([wdt.result.roll, wdt.result.shifted_from, wdt.result.row, wdt.total], [4, 4, 5, 5], "seed 18 rolls a 4 shifted to 5");
  await post("WDT10[OH]", "world_trigger", 18, "/wt");
  let msg = await lastMessage();
  assert.deepEqual(await lastRollTerms(), [{ terms: ["Die"], sum: 4, total: 4, formula: "1d6", flavor: null }]);
  assert.deepEqual(dsnFaces(await lastDsn()), [{ sides: 6, value: 4 }]);
  assert.ok(msg.content.includes("(4→5)"), msg.content); // the shift is the rule's, in the text
  assert.deepEqual(msg.flags.gunbai.result, wdt);

  // a critical: the achievement (sum + 10) is in the text, the Roll is the six dice
  const crit = run("WT5T1>=10", "world_trigger", 7);
  assert.equal(crit.result.criticals, 1);
  assert.notEqual(crit.total, sum(crit.rolls));
  await post("WT5T1>=10", "world_trigger", 7, "/wt");
  assert.deepEqual(await lastRollTerms(), [{ terms: ["Die"], sum: sum(crit.rolls), total: sum(crit.rolls), formula: "6d6", flavor: null }]);
  assert.ok((await lastMessage()).content.includes(`achievement ${crit.total}`));

  // x2: one Roll per run, each with that run's own dice
  const rep = run("x2 WT5T1>=10", "world_trigger", 7);
  assert.equal(rep.repeats.length, 2);
  await post("x2 WT5T1>=10", "world_trigger", 7, "/wt");
  msg = await lastMessage();
  assert.deepEqual(
    msg.rolls.map((r) => r.dice.flatMap((d) => d.results.map((x) => x.result))),
    rep.repeats.map((r) => faces(r.rolls)),
  );
  assert.deepEqual(
    await lastRollTerms(),
    rep.repeats.map((r, i) => ({ terms: ["Die"], sum: sum(r.rolls), total: sum(r.rolls), formula: "6d6", flavor: `#${i + 1}` })),
  );
  assert.deepEqual(
    (await lastDsn()).map((roll) => roll.flatMap((d) => d.results)),
    rep.repeats.map((r) => faces(r.rolls)),
  );

  // plain dice keep their real constants, per run; D66 and 2D6*2 are not sums of terms
  const rd = run("x2 2d6+1", null, 3);
  await post("x2 2d6+1", null, 3, "/dice");
  assert.deepEqual(
    await lastRollTerms(),
    rd.repeats.map((r, i) => ({ terms: ["Die", "OperatorTerm", "NumericTerm"], sum: r.total, total: r.total, formula: "2d6 + 1", flavor: `#${i + 1}` })),
  );
  for (const expr of ["d66", "2d6*2", "3d6-1"]) {
    const r = run(expr, null, 3);
    await post(expr, null, 3, "/dice");
    const [roll] = await lastRollTerms();
    assert.equal(roll.total, roll.sum, `${expr}: ${JSON.stringify(roll)}`);
    if (expr === "3d6-1") assert.deepEqual([roll.formula, roll.total], ["3d6 - 1", r.total]);
    else assert.deepEqual([roll.terms, roll.total], [["Die"], sum(r.rolls)], expr);
    assert.ok((await lastMessage()).content.includes(`＞ ${r.total}`), expr);
  }
  assert.deepEqual(page.errors, []);
});

const wtSheet = (name, command, leader) => ({
  name,
  position: "attacker",
  points: { trion: 3, attack: 4, defense_support: 2, mobility: 3, technique: 3, range: 1, command, special_tactics: 4 - command },
  leader,
  master: "placeholder_master_attack",
  traits: ["placeholder_l_trait"],
  triggers: { main: ["kogetsu"], sub: ["shield"] },
});

test("World Trigger team initiative: each leader rolls Command, teams are ordered", async () => {
  await page.evaluate((sheets) => {
    window.__startCombat([
      { id: "a1", name: "Alpha Leader", disposition: 1, flags: { gunbai: { sheet: sheets[0] } } },
      { id: "a2", name: "Alpha Two", disposition: 1, flags: { gunbai: { sheet: sheets[1] } } },
      { id: "b1", name: "Bravo Leader", disposition: -1, flags: { gunbai: { sheet: sheets[2] } } },
      { id: "b2", name: "Bravo Two", disposition: -1, flags: { gunbai: { command: 1 } } },
      { id: "c1", name: "Charlie Solo", disposition: 0, flags: { gunbai: { command: 3, leader: true } } },
    ]);
  }, [wtSheet("Alpha Leader", 4, true), wtSheet("Alpha Two", 1, false), wtSheet("Bravo Leader", 2, true)]);
  const ordered = await page.evaluate(async () => {
    const r = await game.modules.get("gunbai").api.rollTeamInitiative(game.combat, { seed: 5 });
    return r.map((t) => ({ team: t.team, roller: t.roller.combatant.name, command: t.roller.command, keys: t.keys, checks: t.checks, initiative: t.initiative }));
  });
  // The rollers: the leaders, with the Command the core computes (leader +1).
  const cmd = (s) => gunbai.worldTrigger.createCharacter({ sheet: s }).stats.command;
  const rollers = Object.fromEntries(ordered.map((t) => [t.team, [t.roller, t.command]]));
  assert.deepEqual(rollers, {
    friendly: ["Alpha Leader", cmd(wtSheet("Alpha Leader", 4, true))],
    hostile: ["Bravo Leader", cmd(wtSheet("Bravo Leader", 2, true))],
    neutral: ["Charlie Solo", 3],
  });
  // Every check is gunbai's world_trigger.check with the roller's Command as dice.
  for (const t of ordered) for (const c of t.checks) assert.equal(c.dice, t.command);
  // Teams are ordered by achievement, ties broken by re-rolls, highest first.
  for (let i = 1; i < ordered.length; i++) {
    const a = ordered[i - 1].keys;
    const b = ordered[i].keys;
    const k = a.findIndex((v, j) => v !== b[j]);
    assert.ok(k >= 0 && a[k] > b[k], `${JSON.stringify(a)} before ${JSON.stringify(b)}`);
  }
  // The combat tracker order follows the teams; team members share the team's value.
  const turns = await page.evaluate(() => game.combat.turns.map((c) => ({ id: c.id, init: c.initiative })));
  const teamOf = { a1: "friendly", a2: "friendly", b1: "hostile", b2: "hostile", c1: "neutral" };
  const teamSeq = [...new Set(turns.map((t) => teamOf[t.id]))];
  assert.deepEqual(teamSeq, ordered.map((t) => t.team));
  for (const t of turns) assert.equal(t.init, ordered.find((o) => o.team === teamOf[t.id]).initiative);
  // The chat message carries every initiative die.
  const dsn = dsnFaces(await lastDsn());
  assert.deepEqual(dsn.map((d) => d.value), ordered.flatMap((t) => t.checks.flatMap((c) => c.faces)));
  // one Roll per check, each adding up only its own dice
  const checks = ordered.flatMap((t) => t.checks);
  assert.deepEqual(
    (await lastRollTerms()).map((r) => [r.total, r.sum, r.flavor]),
    ordered.flatMap((t) => t.checks.map((c) => [c.faces.reduce((a, f) => a + f, 0), c.faces.reduce((a, f) => a + f, 0), t.team])),
  );
  assert.equal((await lastMessage()).rolls.length, checks.length);
});

test("tied teams re-roll among themselves (scripted achievements)", async () => {
  const out = await page.evaluate(async () => {
    const wtc = await import("../scripts/wt-combat.mjs");
    // A stand-in for gunbai.worldTrigger.check returning scripted achievements in call order.
    const script = [12, 12, 9, 7, 15, 3];
    const calls = [];
    const fake = {
      worldTrigger: {
        check: (args) => {
          calls.push(args.dice);
          const a = script.shift();
          return { dice: args.dice, faces: [], achievement: a, rolls: [] };
        },
        createCharacter: () => {
          throw new Error("no sheets here");
        },
      },
    };
    const mk = (id, team, command, leader) => ({
      id,
      name: id,
      isDefeated: false,
      token: { disposition: 0 },
      getFlag: (s, k) => (k === "team" ? team : undefined),
      actor: { getFlag: (s, k) => ({ command, leader })[k] },
    });
    const r = wtc.rollTeamInitiative(fake, [mk("a", "A", 4, true), mk("b", "B", 5, true), mk("c", "C", 2, true)]);
    return { order: r.map((t) => [t.team, t.keys]), calls };
  });
  // A 12, B 12, C 9 → A and B re-roll: A 7, B 15 → B, A, C
  assert.deepEqual(out.order, [["B", [12, 15]], ["A", [12, 7]], ["C", [9]]]);
  assert.deepEqual(out.calls, [4, 5, 2, 4, 5]);
});

test("the tracker shows the phase and the team budget, and the phase advances", async () => {
  const phase = () => page.locator(".gunbai-wt-panel .gunbai-phase").getAttribute("data-phase");
  assert.equal(await phase(), "tactics");
  const leftOf = (team) => page.locator(`.gunbai-wt-panel tr[data-team="${team}"] td.left`).innerText();
  assert.equal(await leftOf("friendly"), "2 / 2");
  await page.click('.gunbai-wt-panel button[data-gunbai="spend"][data-team="friendly"]');
  await page.waitForFunction(() => document.querySelector('.gunbai-wt-panel tr[data-team="friendly"] td.left').textContent.startsWith("1"));
  await page.click('.gunbai-wt-panel button[data-gunbai="operator"][data-team="hostile"]');
  await page.waitForFunction(() => document.querySelector('.gunbai-wt-panel tr[data-team="hostile"] td.operator').textContent === "0");
  const orderTactics = await page.$$eval(".gunbai-wt-panel tr[data-team]", (rows) => rows.map((r) => r.dataset.team));
  await page.click('.gunbai-wt-panel button[data-gunbai="next-phase"]');
  await page.waitForFunction(() => document.querySelector(".gunbai-wt-panel .gunbai-phase").dataset.phase === "movement");
  // WT-INIT-2: the movement phase reverses the team order.
  const orderMovement = await page.$$eval(".gunbai-wt-panel tr[data-team]", (rows) => rows.map((r) => r.dataset.team));
  assert.deepEqual(orderMovement, [...orderTactics].reverse());
  assert.equal(await leftOf("friendly"), "2 / 2", "a fresh budget in the movement phase");
  await screenshot(page, join(SHOTS, "stand-in.png"));
  // A new round re-rolls initiative (WT-INIT-3) and restarts at the tactics phase.
  const n = await page.evaluate(() => game.messages.length);
  await page.evaluate(() => game.combat.nextRound());
  await page.waitForFunction((k) => game.messages.length > k && game.combat.getFlag("gunbai", "wt").round === 2, n);
  assert.equal(await page.evaluate(() => game.combat.getFlag("gunbai", "wt").phase), "tactics");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.blocked, []);
});
