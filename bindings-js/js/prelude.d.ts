
/** Error thrown by every gunbai operation. */
export declare class GunbaiError extends Error {
  /** Stable machine-readable code, e.g. `"invalid_argument"`. */
  readonly code: ErrorCodeName;
  /** The offending argument field (`"rolls[2]"`), if known. */
  readonly field: string | null;
  /** The rule ID an illegal action breaks, if any. */
  readonly rule: string | null;
  /** Every problem, when validation found several (`field`/`rule` are the first one's). */
  readonly details: { path: string; rule?: string; message: string }[];
  /** For a `parse_error` in a text argument (`field`), the 1-based character where reading failed. */
  readonly position: number | null;
}

/**
 * Run any operation by name (`"world_trigger.check"`) with a JSON-shaped
 * options object. Prefer the typed namespaces below.
 * @throws {GunbaiError}
 */
export declare function call(op: string, args?: Record<string, unknown>): unknown;

/**
 * Run a batch operation by name (`"dice.simulate_pool"`): an `Int32Array` or
 * `Float64Array`. Prefer the typed namespaces below.
 * @throws {GunbaiError}
 */
export declare function callBatch(op: string, args?: Record<string, unknown>): Int32Array | Float64Array;

// @gunbai-battle-begin: left out of the entries without World Trigger battles.
/**
 * Convenience over `world_trigger.battle_*`: keeps the serializable state and
 * the event log. An illegal action throws `GunbaiError` and leaves `state` as it was.
 */
export declare class Battle {
  constructor(state: WtBattleState);
  /** The current state (serializable; store it anywhere). */
  state: WtBattleState;
  /** Every event so far. */
  readonly log: WtBattleEvent[];
  /** A new battle from a setup (the `world_trigger.battle_new` arguments). */
  static create(setup: WtBattleNewArgs): Battle;
  /** A battle from a saved state (validated by the core). */
  static fromJSON(state: WtBattleState | string): Battle;
  /** Every action legal now; pass an entry's `action` to `act`. */
  legalActions(actor?: string): WtLegalAction[];
  /** Apply one action; returns its events. */
  act(action: WtBattleAction, dice?: { seed?: number; rolls?: ScriptedFace[] }): WtBattleEvent[];
  /** How the battle ended (null while it goes on). */
  readonly outcome: WtBattleOutcome | null;
  toJSON(): WtBattleState;
}
// @gunbai-battle-end
