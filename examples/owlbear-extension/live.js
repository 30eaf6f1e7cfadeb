// The live game behind the stored record: one gunbai game handle
// (`tmd.Encounter` or `worldTrigger.Battle`) that keeps the state in wasm
// between actions, so an action sends only itself and gets its events back.
//
// The record in the scene metadata stays the source of truth (every client
// reads it, and it survives reloads): the page saves the handle's `state` after
// each action, and when the stored state is not the one the handle holds
// (another client acted, the page reloaded, the encounter was cleared) the
// handle is rebuilt from it with `fromJSON` and the old one freed. Undo
// therefore reaches back over the actions this page applied since the handle
// was last built (at most 100, the handle's limit).

export class LiveGame {
  /**
   * A player's client: the listing the GM's client sent with this player's view (the
   * player's client holds no state to list from). While set, `for()` gives a stand-in
   * handle that lists it and shows the view as it is.
   * @type {any[] | null}
   */
  remote = null;
  /**
   * A player's client: whose move it is as the GM's client sent it with this player's
   * view (the core's `turnFor` their viewer).
   * @type {any}
   */
  remoteTurn = null;
  #cls = null;
  #handle = null;
  /** The JSON text of the state the handle holds (what a stored state is compared with). */
  #json = null;

  /** Keep `handle` (just created with `cls.create`) as the live game; the previous one is freed. */
  adopt(cls, handle) {
    this.free();
    this.#cls = cls;
    this.#handle = handle;
    const state = handle.state;
    this.#json = JSON.stringify(state);
    return state;
  }

  /**
   * The handle of class `cls` holding `state`: the live one when it holds
   * exactly that state, else a new one (`cls.fromJSON`, which validates the
   * state and throws GunbaiError on a bad one), the old one freed.
   */
  for(cls, state) {
    if (this.remote) {
      const listing = this.remote;
      const turn = this.remoteTurn;
      return { legalActions: () => listing, view: (/** @type {unknown} */ _v, /** @type {any[]} */ events) => (events ? { state, events } : { state }), turn, turnFor: () => turn, undoDepth: 0 };
    }
    const json = JSON.stringify(state);
    if (this.#handle && this.#cls === cls && this.#json === json) return this.#handle;
    this.free();
    this.#handle = cls.fromJSON(state);
    this.#cls = cls;
    this.#json = json;
    return this.#handle;
  }

  /** Apply `action` (`dice`: `{seed}` or `{rolls}`) to the handle holding `state`: `{events, rolls, state}`. */
  act(cls, state, action, dice) {
    const h = this.for(cls, state);
    const out = h.act(action, dice); // an illegal action throws and changes nothing
    return { ...out, state: this.#read() };
  }

  /** Take back the last action: the state before it. */
  undo() {
    this.#handle.undo();
    return this.#read();
  }

  /** How many actions undo can take back (0 without a live game). */
  get undoDepth() {
    return this.#handle ? this.#handle.undoDepth : 0;
  }

  #read() {
    const state = this.#handle.state;
    this.#json = JSON.stringify(state);
    return state;
  }

  /** Release the handle's wasm memory. */
  free() {
    this.#handle?.free();
    this.#handle = null;
    this.#cls = null;
    this.#json = null;
  }
}
