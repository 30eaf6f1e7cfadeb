// World Trigger in Foundry's combat tracker: team initiative by the leader's
// Command (WT-INIT-1..3), the phase of the round (WT-RND-1) and the team budget
// (WT-ECO-1/2). Checks are gunbai's `world_trigger.check`; the leader's Command
// comes from gunbai's `world_trigger.create_character` when the actor carries a
// sheet in its `gunbai.sheet` flag.
//
// The phase / budget bookkeeping here is light, kept in the combat's `gunbai.wt`
// flag: it is not a battle of gunbai's engine (the `worldTrigger.Battle` game
// handle), which needs a sheet, a square and a map for every member that a
// Foundry combat does not carry (see the README).

export const PHASES = ["initiative", "tactics", "movement", "attack", "feedback"];
/** WT-ECO-2: at most three PCs act in each of these phases. */
export const BUDGET_PHASES = ["tactics", "movement", "attack"];
export const MAX_PER_PHASE = 3;
const MAX_REROLLS = 100;

/** A team key for a combatant: the `gunbai.team` flag, else the token's disposition. */
export function teamOf(combatant) {
  const flag = combatant.getFlag?.("gunbai", "team") ?? combatant.actor?.getFlag?.("gunbai", "team");
  if (flag) return String(flag);
  const d = combatant.token?.disposition ?? combatant.token?.document?.disposition ?? 0;
  return { 1: "friendly", 0: "neutral", "-1": "hostile", "-2": "secret" }[String(d)] ?? "neutral";
}

/** Command and leader flag of a combatant (from its gunbai sheet if any). */
export function commandOf(gunbai, combatant) {
  const actor = combatant.actor;
  const sheet = actor?.getFlag?.("gunbai", "sheet");
  if (sheet) {
    try {
      const ch = gunbai.worldTrigger.createCharacter({ sheet });
      return { command: ch.stats.command, leader: !!ch.leader, from: "sheet" };
    } catch (e) {
      return { command: 0, leader: false, from: `invalid sheet: ${e.message}` };
    }
  }
  const n = Number(actor?.getFlag?.("gunbai", "command") ?? 0);
  return { command: Number.isFinite(n) ? n : 0, leader: !!actor?.getFlag?.("gunbai", "leader"), from: "flag" };
}

/**
 * WT-INIT-1: who rolls for each team — the leader, or the member with the highest
 * Command when the leader is defeated (bailed out) or there is none (WT-KO-5).
 */
export function teams(gunbai, combatants) {
  const byTeam = new Map();
  for (const c of combatants) {
    const key = teamOf(c);
    if (!byTeam.has(key)) byTeam.set(key, []);
    byTeam.get(key).push({ combatant: c, ...commandOf(gunbai, c) });
  }
  const out = [];
  for (const [team, members] of byTeam) {
    const able = members.filter((m) => !m.combatant.isDefeated);
    const leader = able.find((m) => m.leader) || [...able].sort((a, b) => b.command - a.command)[0] || null;
    out.push({ team, members, roller: leader });
  }
  return out;
}

/**
 * Roll team initiative: each team's roller makes a Command check (gunbai
 * `world_trigger.check`); tied teams re-roll among themselves (bounded). Returns
 * teams in order, highest first, with every check made. `seed` makes it
 * reproducible (each check gets seed, seed+1, …).
 */
export function rollTeamInitiative(gunbai, combatants, { seed } = {}) {
  const ts = teams(gunbai, combatants).filter((t) => t.roller);
  let n = 0;
  const check = (t) => {
    const args = { dice: Math.max(0, Math.min(100, t.roller.command)) };
    if (seed !== undefined && seed !== null) args.seed = seed + n;
    n += 1;
    const r = gunbai.worldTrigger.check(args);
    t.checks.push(r);
    return r.achievement;
  };
  for (const t of ts) {
    t.checks = [];
    t.keys = [check(t)];
  }
  // Re-roll ties (only among the tied teams), appending a key per re-roll.
  for (let depth = 1; depth <= MAX_REROLLS; depth++) {
    const groups = new Map();
    for (const t of ts) {
      const k = t.keys.join(",");
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(t);
    }
    const tied = [...groups.values()].filter((g) => g.length > 1);
    if (!tied.length) break;
    for (const g of tied) for (const t of g) t.keys.push(check(t));
  }
  ts.sort((a, b) => {
    for (let i = 0; i < Math.max(a.keys.length, b.keys.length); i++) {
      const d = (b.keys[i] ?? -Infinity) - (a.keys[i] ?? -Infinity);
      if (d) return d;
    }
    return 0;
  });
  // Combat-tracker value: first achievement, and a fraction that keeps the tie-break order.
  ts.forEach((t, i) => {
    t.initiative = t.keys[0] + (ts.length - i) / 100;
  });
  return ts;
}

/** The fresh per-round state (after initiative). */
export function newRoundState(round, order, teamSizes) {
  const budget = {};
  for (const team of order) {
    const slots = Math.min(MAX_PER_PHASE, teamSizes[team] ?? 0);
    budget[team] = { slots, used: { tactics: 0, movement: 0, attack: 0 }, operator: 1 };
  }
  return { round, phase: "tactics", order, budget };
}

/** WT-INIT-2: the team order for a phase (movement reversed). */
export function phaseOrder(state) {
  if (!state) return [];
  return state.phase === "movement" ? [...state.order].reverse() : [...state.order];
}

/** Next phase (WT-RND-1); after feedback the next round starts at initiative. */
export function nextPhase(state) {
  const i = PHASES.indexOf(state.phase);
  if (i === PHASES.length - 1) return { ...state, phase: "initiative", round: state.round + 1 };
  return { ...state, phase: PHASES[i + 1] };
}

/** Spend one action of `team` in the current phase (or the operator's once-per-round action). */
export function spend(state, team, { operator = false } = {}) {
  const b = state.budget[team];
  if (!b) throw new Error(`no team ${team}`);
  const next = structuredClone(state);
  const nb = next.budget[team];
  if (operator) {
    if (nb.operator < 1) throw new Error("WT-OP-8: the operator has already acted this round");
    nb.operator -= 1;
    return next;
  }
  if (!BUDGET_PHASES.includes(state.phase)) throw new Error(`no team actions in the ${state.phase} phase`);
  if (nb.used[state.phase] >= nb.slots) throw new Error(`WT-ECO-2: ${team} has no action left in the ${state.phase} phase`);
  nb.used[state.phase] += 1;
  return next;
}
