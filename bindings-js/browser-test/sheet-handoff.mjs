// The sheet hand-off, its first half: the character-sheet site (examples/character-sheet)
// in Chromium makes, for each of the five rulesets, the file it gives under "Send to a
// Foundry actor or an Owlbear token" (its host document). The hosts' tests import these
// files (foundry.test.mjs, owlbear.test.mjs), start their combat and compare the engine's
// state with the engine set up directly from the file (`directSetup`).
import { buildExamples } from "./build-examples.mjs";
import { serve } from "./server.mjs";
import { newPage } from "./harness.mjs";

/** The rulesets and, for each, a sheet typed into the site and (CoC) a weapon added in its form. */
export const HANDOFF = {
  world_trigger: {
    sheet: {
      name: "Kuga",
      position: "attacker",
      leader: true,
      points: { trion: 3, attack: 4, mobility: 6, technique: 7 },
      master: "placeholder_master_mobility",
      traits: ["placeholder_l_trait"],
      triggers: { main: ["scorpion", "grasshopper", "shield"], sub: ["scorpion", "shield", "bagworm"] },
    },
  },
  coc_ap: {
    sheet: { name: "Ayla", characteristics: { str: 12, con: 13, pow: 11, dex: 15, app: 10, siz: 14, int: 13, edu: 15 }, skills: { dodge: 45, handgun: 55 }, ap_bonus: 2 },
    weapon: { name: "Pistol", skill: "handgun", damage: "1d8" },
  },
  coc7_house: {
    sheet: { name: "Bren", characteristics: { str: 80, con: 60, siz: 70, dex: 55, app: 50, int: 60, pow: 50, edu: 60, luck: 50 }, skills: { dodge: 40, firearms_handgun: 50 } },
    weapon: { name: "Revolver", skill: "firearms_handgun", damage: "1d10", range: "射撃30m/1体" },
  },
  tmd: { sheet: { name: "Kato", base_initiative: 4, extra_ap: 0, immune_to_surprise: true } },
  fap_map: { sheet: { name: "Dusk", reaction: 12, magic: 9, agility: 11, strength: 10, movement: 8, evasion: 7, traits: { fap_bonus_tenths: 5, map_tenths: 40 } } },
};

/**
 * The site's host document for each ruleset, made in `browser`: the sheet imported
 * through the site's own import box, the weapon added through its weapons form.
 * @returns {Promise<Record<string, any>>}
 */
export async function exportedDocuments(browser) {
  buildExamples();
  const server = await serve();
  const page = await newPage(browser, { viewport: { width: 1180, height: 900 } });
  const out = {};
  try {
    for (const [system, { sheet, weapon }] of Object.entries(HANDOFF)) {
      await page.goto(`${server.url}examples/character-sheet/?system=${system}&lang=en`);
      await page.waitForSelector("body[data-ready='1']");
      const wt = system === "world_trigger";
      await page.fill(wt ? "#json" : "#g-json", JSON.stringify(sheet));
      await page.click(wt ? "#import" : "#g-import");
      await page.waitForSelector(wt ? "#validity.ok" : "#g-validity.ok");
      if (weapon) {
        await page.click("#g-weapon-add");
        const row = "#g-weapons tr:last-child";
        await page.fill(`${row} input[data-w='name']`, weapon.name);
        await page.selectOption(`${row} select[data-w='skill']`, weapon.skill);
        await page.fill(`${row} input[data-w='damage']`, weapon.damage);
        if (weapon.range) await page.fill(`${row} input[data-w='range']`, weapon.range);
        await page.locator("#g-name").focus();
      }
      const box = wt ? "#combatant .host-json" : "#generic .host-json";
      out[system] = JSON.parse(await page.inputValue(box));
    }
  } finally {
    await page.context().close();
    await server.close();
  }
  return out;
}

/**
 * The engine's setup made directly from the documents, as each host places them:
 * `members` lists `{id, doc, side, at?, position?}` (the host's id, team or side, and a
 * World Trigger square or a CoC 6th position); nothing of the character comes from the
 * host. TMD and the engines that take one: `seed`.
 */
export function directSetup(system, members, { seed, options = {} } = {}) {
  const c = (m) => structuredClone(m.doc.combatant);
  switch (system) {
    case "world_trigger": {
      const teams = [...new Set(members.map((m) => m.side))];
      return {
        battle_type: options.battle_type ?? "rank",
        map: options.map ?? { width: 12, height: 8 },
        max_rounds: options.max_rounds ?? 10,
        teams: teams.map((team) => {
          const ms = members.filter((m) => m.side === team);
          return { id: team, leader: ms[0].id, members: ms.map((m) => ({ id: m.id, sheet: { ...c(m).sheet, name: m.name ?? m.doc.name }, at: m.at })) };
        }),
      };
    }
    case "tmd":
      return { characters: members.map((m) => ({ id: m.id, side: m.side, ...c(m) })), ...(seed !== undefined ? { seed } : {}) };
    case "coc_ap":
      return { participants: members.map((m) => ({ id: m.id, ...c(m), ...(m.position ? { position: m.position } : {}), side: m.side })) };
    case "coc7_house":
      return { participants: members.map((m) => ({ id: m.id, ...c(m), side: m.side })) };
    case "fap_map":
      return { combatants: members.map((m) => ({ id: m.id, ...c(m) })) };
    default:
      throw new Error(system);
  }
}
