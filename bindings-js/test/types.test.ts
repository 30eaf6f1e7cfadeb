// Type-level test of the generated index.d.ts: `tsc --noEmit` must accept the
// correct calls and reject each line marked with an expect-error directive (an unused
// directive is itself an error, so a too-loose .d.ts fails the check).


import { call, dice, meta, GunbaiError, version, Battle, worldTrigger, tmd, cocAp, coc7House, fapMap } from "../pkg/index.js";
import type { DiceRollResult, Roll, ErrorCodeName, WtBattleState, TmdEncounterState, C7hChaseState } from "../pkg/index.js";

const r: DiceRollResult = dice.roll({ expr: "2d6+1", seed: 42 });
const total: number = r.total;
const first: Roll | undefined = r.rolls[0];
const kind: "normal" | "tens_d10" | undefined = first?.kind;
const faces: number[] = dice.pool({ count: 3, sides: 6, rolls: [1, { value: 2 }, { sides: 6, value: 3, kind: "normal" }] }).faces;
const prng: string = meta.version().prng;
const names: string[] = meta.operations().operations;
const anything: unknown = call("dice.roll", { expr: "1d6" });
const v: string = version;
const battleOutcome: unknown = (null as unknown as Battle).outcome;
const sims: Int32Array = dice.simulatePool({ count: 2, sides: 6, n: 10, seed: 1 });

try {
  dice.roll({ expr: "1001d6" });
} catch (e) {
  if (e instanceof GunbaiError) {
    const code: ErrorCodeName = e.code;
    const field: string | null = e.field;
    const position: number | null = e.position;
    void code, field, position;
  }
}

// @ts-expect-error expr must be a string
dice.roll({ expr: 26 });
// @ts-expect-error expr is required
dice.roll({ seed: 1 });
// @ts-expect-error unknown option
dice.roll({ expr: "1d6", sead: 1 });
// @ts-expect-error the result has no such field
dice.roll({ expr: "1d6" }).sum;
// @ts-expect-error kind is a closed set
dice.pool({ count: 1, sides: 6, rolls: [{ value: 1, kind: "percentile" }] });
// @ts-expect-error not an error code
const bad: ErrorCodeName = "oops";

// Game handles: typed state, actions and listings.
const enc = tmd.Encounter.create({ characters: [{ id: "a", side: "pc", base_initiative: 1 }], rolls: [5] });
const encState: TmdEncounterState = enc.state;
const firstListed = enc.legalActions()[0];
if (firstListed) enc.act(firstListed.action, { seed: 1 });
const chase = coc7House.Chase.create({ fugitive: { id: "f", mov: 8, dex: 50, skill: 50 } });
const chaseState: C7hChaseState = chase.state;
const wtState: WtBattleState = Battle.fromJSON("{}").state;
const handleName: string = cocAp.Round.handle + fapMap.Round.handle + worldTrigger.Battle.handle;
enc.free();
// @ts-expect-error an action of another engine
enc.act({ type: "pass", team: "a" });
// @ts-expect-error the setup is typed
coc7House.Round.create({ participants: "none" });
const sim: { winner: Int32Array; points: Int32Array[] } = worldTrigger.simulateBattles({ setup: null as never, n: 1 });

void battleOutcome, sims, total, kind, faces, prng, names, anything, v, bad, encState, chaseState, wtState, handleName, sim;

// A per-ruleset entry has the same API over fewer modules.
import * as tmdOnly from "../pkg/tmd/index.js";
const tmdRulesets: string[] = tmdOnly.meta.version().rulesets;
const tmdOrder: unknown = tmdOnly.tmd.initiative({ combatants: [{ id: "a", side: "pc", base_initiative: 5 }], seed: 1 });
// @ts-expect-error gunbai/tmd has no World Trigger module
tmdOnly.worldTrigger;
// @ts-expect-error nor the World Trigger Battle class
tmdOnly.Battle;
// Each entry's .d.ts declares the types its operations reach (and compiles on its own).
import * as wtOnly from "../pkg/world-trigger/index.js";
import * as cocOnly from "../pkg/coc7/index.js";
import * as fmOnly from "../pkg/fap-map/index.js";
const wtBattle: wtOnly.Battle | null = null;
const cocLevel: cocOnly.Coc7Level = cocOnly.coc7.check({ skill: 50, variants: { coc7_rule: 3 }, seed: 1 }).level;
const fmActions: unknown = fmOnly.fapMap.actions();
void wtBattle, cocLevel, fmActions;
// @ts-expect-error a TMD type is not declared by the FAP/MAP entry
const notThere: fmOnly.TmdEncounterState | null = null;
