
/** Error thrown by every gunbai operation. */
export declare class GunbaiError extends Error {
  /** Stable machine-readable code, e.g. `"invalid_argument"`. */
  readonly code: ErrorCodeName;
  /** The offending argument field (`"rolls[2]"`), if known. */
  readonly field: string | null;
  /** The same place as keys and indices (`["rolls", 2]`); empty when there is no field. */
  readonly loc: (string | number)[];
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

/** What a `<x>_simulate` operation returns: a table of games and one of participants, as columns. */
export interface SimulateTables {
  battles: { index: number[]; seed: number[]; ended: boolean[]; winner: (string | null)[]; outcome: unknown[]; rounds: number[]; steps: number[] };
  members: { battle: number[]; id: string[]; hp_start: (number | null)[]; hp_end: (number | null)[]; damage_taken: (number | null)[]; healed: (number | null)[]; actions: number[]; damage_dealt: (number | null)[]; down: (boolean | null)[] };
}

/**
 * Play `args.n` games of a `<x>_simulate` operation (`"coc_ap.round_simulate"`) in
 * chunks of at most 10,000 steps (`n × max_steps`), yielding to the event loop between
 * them: `onProgress(done, n)` after each; an aborted `signal` stops between chunks.
 * The result equals one call's with the same arguments.
 * @throws {GunbaiError}
 */
export declare function simulate(
  op: string,
  args: { setup: Record<string, unknown>; n: number; seed: number; first?: number; max_steps?: number; threads?: number; policy?: { kind?: "random" | "aggressive" | "priority"; priority?: string[] }; policies?: { ids: string[]; kind?: "random" | "aggressive" | "priority"; priority?: string[] }[] },
  options?: { onProgress?: (done: number, n: number) => void; signal?: AbortSignal },
): Promise<SimulateTables>;

/**
 * Run a batch operation by name (`"dice.simulate_pool"`): an `Int32Array` or
 * `Float64Array`. Prefer the typed namespaces below.
 * @throws {GunbaiError}
 */
export declare function callBatch(op: string, args?: Record<string, unknown>): Int32Array | Float64Array;

/**
 * `callBatch`, yielding to the event loop between its windows (about 200 ms of wasm
 * each): `onProgress(done, n)` after each; an aborted `signal` stops between windows.
 * The result is `callBatch`'s (a table operation's named arrays included).
 * @throws {GunbaiError}
 */
export declare function callBatchAsync(
  op: string,
  args?: Record<string, unknown>,
  options?: { onProgress?: (done: number, n: number) => void; signal?: AbortSignal },
): Promise<unknown>;

// @gunbai-battle-begin: left out of the entries without World Trigger battles.
// @gunbai-battle-end

/** What a handle's `act` (and its setup, `created`) gives. */
export interface GameActResult<Event> {
  /** What happened, in order. */
  events: Event[];
  /** Every die rolled, in consumption order. */
  rolls: { sides: number; value: number; kind: string }[];
}

/**
 * A game in progress, its state kept in wasm memory between calls. An illegal
 * action throws `GunbaiError` and changes nothing. `free()` releases it. After a wasm
 * trap restarted the instance, it is rebuilt on its next call (from its state every 32
 * actions and the actions since): the game goes on as it was.
 */
export declare class GameHandle<State, Action, Listed, Event> {
  protected constructor(token: never);
  /** What setting the game up gave. */
  readonly created: GameActResult<Event>;
  /** Every action legal now; pass an entry's `action` to `act`. */
  legalActions(actor?: string): Listed[];
  /**
   * Opt-in options: `kind` keeps one action `type`; `actor` one character's actions and those
   * naming nobody; `viewer` (as `view` takes it; null: the GM) what that viewer may know
   * (World Trigger: nothing naming or depending on another team's member in Stealth, WT-ST-1).
   */
  legalActions(options: { actor?: string; kind?: string; compact?: false; viewer?: string | number | null }): Listed[];
  /**
   * The compact listing: moves apart from `actions`, as each mover's squares with their
   * costs and routes (World Trigger: `WtCompactMoves`; the other engines list no moves).
   */
  legalActions(options: { actor?: string; kind?: string; compact: true; viewer?: string | number | null }): { actions: Listed[]; moves?: unknown[] };
  /** The legal actions now, listed natively and decoded only when read. */
  listing(actor?: string): GameListing<Listed, Event>;
  /** Apply one action. */
  act(action: Action, dice?: { seed?: number; rolls?: unknown[] }): GameActResult<Event>;
  /**
   * Hidden information: the state as `viewer` may see it (a World Trigger team's index or
   * id; another engine's combatant id, TMD also a side; null: the GM) and `events` (the
   * last action's) and `action` (that action: World Trigger leaves out the squares the team
   * may not see) redacted for it, as the pure `<module>.<x>View` operation gives. A
   * World Trigger view leaves out what the team may not see (WT-ST-1), so its state is
   * not a loadable `State`.
   */
  view(
    viewer?: string | number | null,
    events?: Event[],
    action?: Action,
  ): { state: Record<string, unknown>; events?: Record<string, unknown>[]; action?: Record<string, unknown> };
  /** Take back the last action (up to 100). */
  undo(): void;
  /** How many actions `undo` can take back now. */
  readonly undoDepth: number;
  /** The state (a fresh copy, in the pure operations' shape). */
  readonly state: State;
  /**
   * Whose move it is: the round, the phase, and who may act now with the stage they act
   * in (`id` null for a round-level step, whose `stage` names the action it waits for).
   */
  readonly turn: { round: number; phase: string; active: { id: string | null; stage: string }[] };
  /**
   * `turn` as `viewer` may know it (as `view` takes it; null: the GM): no entry names what
   * that viewer may not see (World Trigger: a pending attack's target in Stealth hidden
   * from the team reacts under `id` null, WT-ST-1).
   */
  turnFor(viewer: string | number | null | undefined): {
    round: number;
    phase: string;
    active: { id: string | null; stage: string }[];
  };
  /** How the game ended (null while it goes on, and always for rounds). */
  readonly outcome: unknown;
  toJSON(): State;
  /** Release the wasm memory (later calls throw). */
  free(): void;
}

/** A generated handle class (`worldTrigger.Battle`, …). */
export interface GameHandleClass<Setup, State, Action, Listed, Event> {
  /** `<module>.<Class>`. */
  readonly handle: string;
  /** A new game from its setup (the `new` operation's arguments). */
  create(setup: Setup): GameHandle<State, Action, Listed, Event>;
  /** A game from a saved state (validated); `data`: the pack given to `create` (FAP/MAP). */
  fromJSON(state: State | string, data?: unknown): GameHandle<State, Action, Listed, Event>;
}

/** The legal actions of one moment of a game, kept in wasm memory; an item is decoded when read. */
export declare class GameListing<Listed, Event = unknown> {
  private constructor();
  /** How many actions are listed. */
  readonly length: number;
  /** Apply item `i`'s action to its game: `game.act(listing.at(i).action, dice)` without the action crossing as JSON. */
  play(i: number, dice?: { seed?: number; rolls?: unknown[] }): GameActResult<Event>;
  /** Item `i` (negative counts from the end), or undefined. */
  at(i: number): Listed | undefined;
  /** Every item, decoded. */
  toArray(): Listed[];
  [Symbol.iterator](): Iterator<Listed>;
  toJSON(): Listed[];
}
