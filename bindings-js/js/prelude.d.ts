
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
