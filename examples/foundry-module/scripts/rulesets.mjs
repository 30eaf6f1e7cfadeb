// The five gunbai rulesets as Foundry combats: how a combat's combatants become
// an engine's setup, and how to read the engine's state and actions. Nothing here
// decides what is legal, what an action costs or who goes next: the native game
// handles do (`legalActions`, `act`); this file only maps ids and fields.

/** The rulesets, in the order the start menu lists them. */
export const RULESETS = ["world_trigger", "tmd", "coc7_house", "coc_ap", "fap_map"];

/**
 * The game-handle class of a ruleset.
 * @param {any} gunbai the imported package
 * @param {string} ruleset
 * @returns {any}
 */
export function engineClass(gunbai, ruleset) {
  switch (ruleset) {
    case "world_trigger":
      return gunbai.worldTrigger.Battle;
    case "tmd":
      return gunbai.tmd.Encounter;
    case "coc7_house":
      return gunbai.coc7House.Round;
    case "coc_ap":
      return gunbai.cocAp.Round;
    case "fap_map":
      return gunbai.fapMap.Round;
    default:
      throw new Error(`gunbai: unknown ruleset ${ruleset}`);
  }
}

/**
 * @typedef {object} Entry one combatant as the engine setup sees it
 * @property {string} id the Combatant id (the engine's id for it)
 * @property {string} name
 * @property {string} team team / side (CombatantGroup name, `gunbai.team` flag or disposition)
 * @property {boolean} isPC whether a player owns its actor
 * @property {Record<string, any>} data the combatant's (else its actor's) `gunbai.<ruleset>` flag
 */

/**
 * The engine's setup (`<ruleset>.…_new` arguments) for these combatants. Stats
 * come from each combatant's `gunbai.<ruleset>` flag (see the README); a missing
 * or invalid stat is reported by the engine itself, with the field it names.
 * @param {string} ruleset
 * @param {Entry[]} entries
 * @param {{seed?: number, options?: Record<string, any>}} [opts]
 * @returns {Record<string, any>}
 */
export function buildSetup(ruleset, entries, { seed, options = {} } = {}) {
  switch (ruleset) {
    case "world_trigger": {
      /** @type {Map<string, Entry[]>} */
      const teams = new Map();
      for (const e of entries) {
        if (!teams.has(e.team)) teams.set(e.team, []);
        teams.get(e.team)?.push(e);
      }
      return {
        battle_type: options.battle_type ?? "rank",
        map: options.map ?? { width: 12, height: 8 },
        max_rounds: options.max_rounds ?? 10,
        teams: [...teams].map(([id, members]) => ({
          id,
          leader: (members.find((m) => m.data.leader) ?? members[0]).id,
          members: members.map((m) => ({
            id: m.id,
            sheet: { ...(m.data.sheet ?? {}), name: m.name },
            at: m.data.at,
            ...(m.data.bagworm_teleport ? { bagworm_teleport: true } : {}),
          })),
        })),
      };
    }
    case "tmd":
      return {
        characters: entries.map((e) => ({
          id: e.id,
          side: e.team,
          base_initiative: e.data.base_initiative,
          // TMD-SUR-5, TMD-INT-2 and the GM-tracked HP, as the sheet gives them
          ...(e.data.immune_to_surprise != null ? { immune_to_surprise: e.data.immune_to_surprise } : {}),
          ...(e.data.is_pc != null ? { is_pc: e.data.is_pc } : {}),
          ...(e.data.hp != null ? { hp: e.data.hp } : {}),
        })),
        ...(seed !== undefined ? { seed } : {}),
      };
    case "coc7_house":
      return {
        participants: entries.map((e) => ({
          id: e.id,
          dex: e.data.dex,
          // (the sheet's word, else whether a player owns the actor)
          is_pc: e.data.is_pc ?? e.isPC,
          modifier: e.data.modifier ?? 0,
          // the attack exchanges (C7H-ACT-1, C7H-PAS-1): HP, armour, Dodge, damage bonus,
          // weapons (a weapon's display `name` stays with the host), and the side that
          // ends the fight when it is down
          ...(e.data.hp != null ? { hp: e.data.hp } : {}),
          ...(e.data.hp_max != null ? { hp_max: e.data.hp_max } : {}),
          ...(e.data.armor != null ? { armor: e.data.armor } : {}),
          ...(e.data.dodge != null ? { dodge: e.data.dodge } : {}),
          ...(e.data.db != null ? { db: e.data.db } : {}),
          ...(Array.isArray(e.data.weapons) ? { weapons: e.data.weapons.map(engineWeapon) } : {}),
          ...(sideOf(e) ? { side: sideOf(e) } : {}),
        })),
      };
    case "coc_ap":
      return {
        participants: entries.map((e) => ({
          id: e.id,
          dex: e.data.dex,
          ...(e.data.skills ? { skills: e.data.skills } : {}),
          ...(Array.isArray(e.data.weapons) ? { weapons: e.data.weapons.map(engineWeapon) } : {}),
          ...(e.data.position ? { position: e.data.position } : {}),
          ...(e.data.ap_bonus != null ? { ap_bonus: e.data.ap_bonus } : {}),
          // HP, armor and the side end the fight when one side is down (COCAP-RND-3).
          ...(e.data.hp_max != null ? { hp_max: e.data.hp_max } : {}),
          ...(e.data.hp != null ? { hp: e.data.hp } : {}),
          ...(e.data.armor != null ? { armor: e.data.armor } : {}),
          ...(sideOf(e) ? { side: sideOf(e) } : {}),
        })),
      };
    case "fap_map":
      return {
        combatants: entries.map((e) => ({
          id: e.id,
          reaction: e.data.reaction,
          magic: e.data.magic,
          agility: e.data.agility,
          ...(e.data.traits != null ? { traits: e.data.traits } : {}),
          ...(e.data.hp != null ? { hp: e.data.hp } : {}),
        })),
      };
    default:
      throw new Error(`gunbai: unknown ruleset ${ruleset}`);
  }
}

/**
 * The `gunbai.<ruleset>` flag an actor takes from the character-sheet site's file (its
 * "Send to a host" document, `gunbai_sheet: 1`): what the engine takes of the character
 * (`combatant`: World Trigger's `sheet`; the other rulesets' stats, HP, weapons, …), over
 * the flag it had (which keeps what the host decides: a square, a leader, a CoC 6th
 * position). Throws on a file that is not such a document or names no known ruleset.
 * @param {unknown} doc the parsed file
 * @param {Record<string, any> | undefined} had the actor's flag for that ruleset
 * @returns {{ruleset: string, flag: Record<string, any>, name: string}}
 */
export function flagOfSheet(doc, had) {
  const d = /** @type {any} */ (doc);
  if (!d || typeof d !== "object" || d.gunbai_sheet !== 1) throw new Error("not a gunbai character-sheet file (gunbai_sheet: 1)");
  if (!RULESETS.includes(d.system)) throw new Error(`unknown ruleset ${String(d.system)}`);
  const c = d.combatant;
  if (!c || typeof c !== "object" || Array.isArray(c)) throw new Error("the file has no combatant");
  return { ruleset: d.system, flag: { ...(had ?? {}), ...c }, name: typeof d.name === "string" ? d.name : "" };
}

/**
 * A combatant's side for the engines that end a fight when one side is down: its team.
 * @param {Entry} e
 * @returns {string | null}
 */
const sideOf = (e) => (typeof e.team === "string" && e.team.length > 0 && e.team.length <= 64 ? e.team : null);

/**
 * A weapon as the engine takes it: the flag's weapon without the host's display `label`
 * (a name, or one per language: `{ja, zh_hans, zh_hant, en}`).
 * @param {any} w
 * @returns {any}
 */
function engineWeapon(w) {
  if (!w || typeof w !== "object") return w;
  const { label: _label, ...rest } = w;
  return rest;
}

/**
 * The display names of the combatants' weapons, by combatant id then weapon key (CoC 7th
 * `id`, CoC 6th `name`): the flag's `label` (a string or one per language), where given.
 * @param {string} ruleset
 * @param {Entry[]} entries
 * @returns {Record<string, Record<string, any>>}
 */
export function weaponLabels(ruleset, entries) {
  /** @type {Record<string, Record<string, any>>} */
  const out = {};
  if (ruleset !== "coc7_house" && ruleset !== "coc_ap") return out;
  for (const e of entries) {
    for (const w of Array.isArray(e.data.weapons) ? e.data.weapons : []) {
      const key = ruleset === "coc_ap" ? w?.name : w?.id;
      if (typeof key === "string" && w.label) (out[e.id] ??= {})[key] = w.label;
    }
  }
  return out;
}

/**
 * The combatant a pending attack waits on (the `reaction` stage of `turn()`), read from
 * the state (a player's view has it too): CoC 7th and 6th `pending.target`.
 * @param {string} ruleset
 * @param {any} state
 * @returns {{attacker: string, target: string, weapon: string} | null}
 */
export function pendingAttack(ruleset, state) {
  if (ruleset !== "coc7_house" && ruleset !== "coc_ap") return null;
  const p = state?.pending;
  return p && typeof p.target === "string" ? { attacker: p.attacker, target: p.target, weapon: p.weapon } : null;
}

/**
 * The combatant an action is taken by (`actor`, the one acting key of every
 * engine's actions), or null for an action of the whole table.
 * @param {Record<string, any>} action
 * @returns {string | null}
 */
export function actorOf(action) {
  return action.actor ?? null;
}

/**
 * Actions the GM takes for the table even though they name a character: the TMD
 * GM's rulings (TMD-AP-13 overdraw, grants, scene changes, …). Every action that
 * names no combatant (start turns, next round, roll initiative, end
 * declarations) is the GM's too; World Trigger team actions (`pass`,
 * `operator`) belong to the team's members.
 */
/** @type {Record<string, Set<string>>} */
const GM_TYPES = {
  tmd: new Set([
    "start_turns",
    "overdraw",
    "grant",
    "set_disabled",
    "teleport",
    "leave",
    "scene_change",
    "end_encounter",
    "remove_effect",
    "gain_ap",
    "set_base_initiative",
    "apply_effect",
    "join",
  ]),
};

/**
 * Who may take an action: `{gm: true}` (only a GM), `{combatant}` (whoever owns
 * that combatant, and the GM) or `{team}` (whoever owns a member, and the GM).
 * @param {string} ruleset
 * @param {Record<string, any>} action
 * @returns {{gm?: boolean, combatant?: string, team?: string}}
 */
export function whoMay(ruleset, action) {
  if (GM_TYPES[ruleset]?.has(action.type)) return { gm: true };
  const who = actorOf(action);
  if (who) return { combatant: who };
  if (ruleset === "world_trigger" && action.team && action.type !== "roll_initiative") return { team: action.team };
  return { gm: true };
}

/**
 * The members of a World Trigger team (by team id).
 * @param {any} state
 * @param {string} team
 * @returns {string[]}
 */
export function teamMembers(state, team) {
  const i = state.teams?.findIndex((/** @type {any} */ t) => t.id === team) ?? -1;
  return i < 0 ? [] : state.members.filter((/** @type {any} */ m) => m.team === i).map((/** @type {any} */ m) => m.id);
}

/**
 * The combatant ids in the engine's order now: the turn's `order`, where an id that
 * names a side (a World Trigger team, which acts as one) stands for the roster's
 * members of that side, in their place.
 * @param {import("./combat.mjs").Turn | null} turn the engine's turn (`turn` of a handle)
 * @returns {string[]}
 */
export function orderOf(turn) {
  const roster = turn?.roster ?? [];
  const ids = new Set(roster.map((r) => r.id));
  return (turn?.order ?? []).flatMap((id) => (ids.has(id) ? [id] : roster.filter((r) => r.side === id).map((r) => r.id)));
}

/**
 * Whose own turn it is, as the engine's turn says (its entry of stage `turn`; a World
 * Trigger team's id, which names no combatant).
 * @param {import("./combat.mjs").Turn | null} turn
 * @returns {string | null}
 */
export function currentOf(turn) {
  return turn?.active.find((a) => a.stage === "turn")?.id ?? null;
}

/**
 * The engine's numbers for one combatant, as [label key, value] pairs for the
 * tracker (AP, FAP/MAP, Trion, stance, actions used).
 * @param {string} ruleset
 * @param {any} state
 * @param {string} id
 * @returns {[string, string | number][]}
 */
export function combatantNumbers(ruleset, state, id) {
  switch (ruleset) {
    case "world_trigger": {
      const m = state.members.find((/** @type {any} */ x) => x.id === id);
      return m ? [["Trion", m.trion ?? "—"], ["Team", state.teams[m.team]?.id ?? m.team]] : [];
    }
    case "tmd": {
      const c = state.characters.find((/** @type {any} */ x) => x.id === id);
      return c ? [["Initiative", c.initiative ?? "—"], ["AP", (c.base_ap ?? 0) + (c.extra_ap ?? 0)]] : [];
    }
    case "coc_ap": {
      const f = state.fighters.find((/** @type {any} */ x) => x.participant.id === id);
      if (!f) return [];
      const p = f.participant;
      /** @type {[string, string | number][]} */
      const hp = p.hp_max != null ? [["HP", `${p.hp ?? p.hp_max}/${p.hp_max}`]] : [];
      return [...hp, ["DEX", p.dex], ["AP", f.ap]];
    }
    case "coc7_house": {
      const c = state.combatants.find((/** @type {any} */ x) => x.entry.id === id);
      if (!c) return [];
      const used = [c.active_used ? "A" : "", c.passive_used ? `P${c.passive_used}` : "", c.free_used ? "F" : ""].filter(Boolean).join(" ");
      /** @type {[string, string | number][]} */
      const hp = c.hp != null ? [["HP", c.hp_max != null ? `${c.hp}/${c.hp_max}` : c.hp]] : [];
      return [...hp, ["DEX", c.entry.dex], ["Stance", c.stance ?? "—"], ["Used", used || "—"]];
    }
    case "fap_map": {
      const c = state.combatants.find((/** @type {any} */ x) => x.id === id);
      return c ? [["FAP", c.fap_tenths / 10], ["MAP", c.map_tenths / 10]] : [];
    }
    default:
      return [];
  }
}

/**
 * World Trigger's team budget as the state records it: each team's initiative,
 * tactics dice, whether its operator acted this round (WT-OP-8), and how many
 * members acted in the current phase (the engine enforces WT-ECO-2's three).
 * Other rulesets: none.
 * @param {string} ruleset
 * @param {any} state
 * @returns {{team: string, cells: [string, string | number][]}[]}
 */
export function teamRows(ruleset, state) {
  if (ruleset !== "world_trigger") return [];
  const phase = state.phase;
  return state.teams.map((/** @type {any} */ t, /** @type {number} */ i) => {
    const members = state.members.filter((/** @type {any} */ m) => m.team === i);
    /** @type {[string, string | number][]} */
    const cells = [
      ["Initiative", t.initiative ?? "—"],
      ["TacticsDice", t.tactics_dice],
      ["OperatorUsed", t.operator_used ? "✓" : "—"],
    ];
    if (["tactics", "movement", "attack"].includes(phase)) cells.push(["ActedThisPhase", members.filter((/** @type {any} */ m) => m.used?.[phase]).length]);
    return { team: t.id, cells };
  });
}
