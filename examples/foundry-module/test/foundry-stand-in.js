// A SMALL STAND-IN for the Foundry VTT client API, for the browser tests only.
// It is not Foundry. It implements the documented surface the gunbai module uses,
// with Foundry's names and shapes, and models the behaviours the module depends on
// (see the module README, "Tests: against a stand-in"):
//
// * several clients (pages) share one world through a relay: each page is one
//   user's client; document changes and `game.socket` messages go to the other
//   clients through `window.__standInRelay(envelope)` (the test forwards them),
//   and arrive through `window.__standInReceive(envelope)`;
// * permissions: only a GM may update a Combat or its embedded documents (else
//   "User … lacks permission to update Combat"); an Actor's `ownership` decides
//   `testUserPermission` and who may update it (`setFlag`); a player cannot post a message as another user;
// * chat roll modes: `ChatMessage.applyRollMode` as Foundry does it, and each
//   client renders a message as Foundry would for its user (`visible`,
//   `isContentVisible`: whispers, blind rolls, "rolled privately");
// * a message with its own HTML content does not get its Rolls' HTML (Foundry
//   renders the Rolls only when the content has no elements);
// * initiative through the documents: `Combat#rollInitiative` / `rollAll` roll
//   `Combatant#getInitiativeRoll` and update the combatants, with
//   `CONFIG.Combat.documentClass` / `CONFIG.Combatant.documentClass` used to make
//   the documents (so a module's subclasses apply);
// * v13 `CombatantGroup` documents embedded in the Combat (absent when booted as
//   generation 12);
// * a Dice So Nice stand-in that records, for each new message's Rolls, the dice
//   and face labels Dice So Nice would show (its d10 reads "0" for 10; a d100 is a
//   tens die 00–90 plus a units die; a custom term uses the preset registered for
//   it in `diceSoNiceReady`, else its `getResultLabel`).
(function () {
  "use strict";
  const log = (window.__standIn = { notifications: [], dsn: [], hookCalls: [], sent: [], received: [], errors: [] });

  // ---------- Hooks ----------
  const hooks = new Map();
  window.Hooks = {
    on(name, fn) {
      if (!hooks.has(name)) hooks.set(name, []);
      hooks.get(name).push({ fn, once: false });
      return hooks.get(name).length;
    },
    once(name, fn) {
      if (!hooks.has(name)) hooks.set(name, []);
      hooks.get(name).push({ fn, once: true });
    },
    /** Stops (and returns false) at the first handler returning false. */
    call(name, ...args) {
      log.hookCalls.push(name);
      for (const h of [...(hooks.get(name) || [])]) {
        if (h.once) hooks.get(name).splice(hooks.get(name).indexOf(h), 1);
        if (h.fn(...args) === false) return false;
      }
      return true;
    },
    callAll(name, ...args) {
      log.hookCalls.push(name);
      for (const h of [...(hooks.get(name) || [])]) {
        if (h.once) hooks.get(name).splice(hooks.get(name).indexOf(h), 1);
        try {
          h.fn(...args);
        } catch (e) {
          log.errors.push(String(e?.stack ?? e));
          console.error(e);
        }
      }
      return true;
    },
  };

  // ---------- Collection (Foundry's: a Map that iterates its values) ----------
  class Collection extends Map {
    [Symbol.iterator]() {
      return this.values();
    }
    get contents() {
      return [...this.values()];
    }
    find(fn) {
      return this.contents.find(fn);
    }
    filter(fn) {
      return this.contents.filter(fn);
    }
    map(fn) {
      return this.contents.map(fn);
    }
    some(fn) {
      return this.contents.some(fn);
    }
  }

  // ---------- the relay between clients ----------
  function send(env) {
    log.sent.push(env.kind);
    if (typeof window.__standInRelay === "function") window.__standInRelay(JSON.parse(JSON.stringify(env)));
  }

  /** Set / delete dotted paths (`flags.gunbai.engine`, `flags.gunbai.-=engine`). */
  function applyPaths(obj, changes) {
    for (const [path, value] of Object.entries(changes)) {
      const keys = path.split(".");
      let o = obj;
      for (const k of keys.slice(0, -1)) o = o[k] ??= {};
      const last = keys.at(-1);
      if (last.startsWith("-=")) delete o[last.slice(2)];
      else o[last] = structuredClone(value);
    }
  }
  /** Changes as Foundry's `updateX` hooks see them (nested). */
  function nested(changes) {
    const out = {};
    applyPaths(out, changes);
    return out;
  }

  const permissionError = (doc, action = "update") =>
    new Error(`User ${game.user.name} lacks permission to ${action} ${doc.documentName} [${doc.id}] in parent`);

  // ---------- documents ----------
  const LEVELS = { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 };
  class Actor {
    constructor({ id, name, ownership = {}, flags = {} }) {
      this.documentName = "Actor";
      this.id = id;
      this.name = name;
      this.ownership = { default: 0, ...ownership };
      this.flags = structuredClone(flags);
    }
    getFlag(scope, key) {
      return this.flags?.[scope]?.[key];
    }
    testUserPermission(user, level) {
      const want = typeof level === "number" ? level : LEVELS[level];
      if (user?.isGM) return true;
      return (this.ownership[user?.id] ?? this.ownership.default ?? 0) >= want;
    }
    get isOwner() {
      return this.testUserPermission(game.user, "OWNER");
    }
    get hasPlayerOwner() {
      return game.users.some((u) => !u.isGM && this.testUserPermission(u, "OWNER"));
    }
    /** Foundry: updating an actor needs OWNER; every client gets the change. */
    async update(changes) {
      if (!this.testUserPermission(game.user, "OWNER")) throw permissionError(this);
      this._apply(changes);
      send({ kind: "actor", id: this.id, paths: changes, user: game.user.id });
      return this;
    }
    _apply(paths) {
      applyPaths(this, paths);
      Hooks.callAll("updateActor", this, nested(paths), {}, game.user.id);
    }
    async setFlag(scope, key, value) {
      return this.update({ [`flags.${scope}.${key}`]: value });
    }
  }

  // A world document with per-user ownership (the module keeps the engine state in a
  // GM-only one and each player's view in one that player may observe). Creating one
  // is the GM's; updating one needs OWNER. The stand-in's server (stand-in-server.mjs)
  // sends a JournalEntry's changes only to the users with at least LIMITED ownership.
  class JournalEntry {
    constructor({ _id, name, ownership = {}, flags = {} }) {
      this.documentName = "JournalEntry";
      this.id = _id;
      this.name = name;
      this.ownership = { default: 0, ...ownership };
      this.flags = structuredClone(flags);
    }
    getFlag(scope, key) {
      return this.flags?.[scope]?.[key];
    }
    testUserPermission(user, level) {
      const want = typeof level === "number" ? level : LEVELS[level];
      if (user?.isGM) return true;
      return (this.ownership[user?.id] ?? this.ownership.default ?? 0) >= want;
    }
    static async create(data) {
      if (!game.user.isGM) throw new Error(`User ${game.user.name} lacks permission to create JournalEntry`);
      const json = { _id: `j${Math.random().toString(36).slice(2, 10)}`, name: data.name ?? "", ownership: { default: 0, ...(data.ownership ?? {}) }, flags: structuredClone(data.flags ?? {}) };
      const doc = JournalEntry._add(json);
      send({ kind: "journal", op: "create", data: json, user: game.user.id });
      return doc;
    }
    static _add(json) {
      const doc = new JournalEntry(json);
      game.journal.set(doc.id, doc);
      Hooks.callAll("createJournalEntry", doc, {}, game.user.id);
      return doc;
    }
    async update(changes) {
      if (!this.testUserPermission(game.user, "OWNER")) throw permissionError(this);
      this._apply(changes);
      send({ kind: "journal", op: "update", id: this.id, ownership: this.ownership, paths: changes, user: game.user.id });
      return this;
    }
    _apply(paths) {
      applyPaths(this, paths);
      Hooks.callAll("updateJournalEntry", this, nested(paths), {}, game.user.id);
    }
    async setFlag(scope, key, value) {
      return this.update({ [`flags.${scope}.${key}`]: value });
    }
    /** Foundry: deleting a document needs OWNER; every client that has it drops it. */
    async delete() {
      if (!this.testUserPermission(game.user, "OWNER")) throw permissionError(this, "delete");
      this._remove();
      send({ kind: "journal", op: "delete", id: this.id, ownership: this.ownership, user: game.user.id });
      return this;
    }
    _remove() {
      game.journal.delete(this.id);
      Hooks.callAll("deleteJournalEntry", this, {}, game.user.id);
    }
  }
  window.JournalEntry = JournalEntry;

  class CombatantGroup {
    constructor({ _id, name }, combat) {
      this.documentName = "CombatantGroup";
      this.id = _id;
      this.name = name;
      this.parent = combat;
    }
  }

  class StandInCombatant {
    constructor({ id, name, actorId, disposition = 0, flags = {}, initiative = null, group = null, defeated = false }, combat) {
      this.documentName = "Combatant";
      this.id = id;
      this.name = name;
      this.actorId = actorId;
      this.token = { disposition };
      this.flags = structuredClone(flags);
      this.initiative = initiative;
      this._group = group;
      this.isDefeated = !!defeated;
      this.parent = combat;
    }
    get combat() {
      return this.parent;
    }
    get actor() {
      return game.actors.get(this.actorId) ?? null;
    }
    /** v13: the CombatantGroup document. */
    get group() {
      return this._group ? this.parent.groups?.get(this._group) ?? null : null;
    }
    getFlag(scope, key) {
      return this.flags?.[scope]?.[key];
    }
    testUserPermission(user, level) {
      return user?.isGM || !!this.actor?.testUserPermission(user, level);
    }
    get isOwner() {
      return this.testUserPermission(game.user, "OWNER");
    }
    get hasPlayerOwner() {
      return !!this.actor?.hasPlayerOwner;
    }
    /** Foundry: a Roll of the initiative formula (unevaluated). */
    getInitiativeRoll(formula) {
      return new Roll(formula || "1d20");
    }
    async rollInitiative(formula) {
      return this.combat.rollInitiative([this.id], { formula });
    }
  }

  class StandInCombat {
    constructor({ id, round = 1, turn = 0, flags = {}, combatants = [], groups = [] }) {
      this.documentName = "Combat";
      this.id = id;
      this.round = round;
      this.turn = turn;
      this.flags = structuredClone(flags);
      this.combatants = new Collection();
      const Cls = CONFIG.Combatant.documentClass;
      for (const c of combatants) this.combatants.set(c.id, new Cls(c, this));
      if (game.release.generation >= 13) {
        this.groups = new Collection();
        for (const g of groups) this.groups.set(g._id, new CombatantGroup(g, this));
      }
    }
    get turns() {
      return [...this.combatants].sort((a, b) => (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity) || a.name.localeCompare(b.name));
    }
    getFlag(scope, key) {
      return this.flags?.[scope]?.[key];
    }
    canUserModify(user) {
      return !!user?.isGM;
    }
    async update(changes) {
      if (!this.canUserModify(game.user)) throw permissionError(this);
      const paths = {};
      for (const [k, v] of Object.entries(changes)) if (!k.includes(".") && typeof v !== "object") paths[k] = v;
      Object.assign(paths, Object.fromEntries(Object.entries(changes).filter(([k]) => k.includes("."))));
      this._apply({ paths });
      send({ kind: "combat", id: this.id, paths, user: game.user.id });
      return this;
    }
    async setFlag(scope, key, value) {
      return this.update({ [`flags.${scope}.${key}`]: value });
    }
    /** Foundry: a GM deletes a combat; every client drops it (the deleteCombat hook). */
    async delete() {
      if (!this.canUserModify(game.user)) throw permissionError(this, "delete");
      this._remove();
      send({ kind: "combatDelete", id: this.id, user: game.user.id });
      return this;
    }
    _remove() {
      game.combats.delete(this.id);
      if (game.combat === this) game.combat = null;
      Hooks.callAll("deleteCombat", this, {}, game.user.id);
      renderTracker();
    }
    async unsetFlag(scope, key) {
      return this.update({ [`flags.${scope}.-=${key}`]: null });
    }
    async updateEmbeddedDocuments(type, updates) {
      if (type !== "Combatant") throw new Error(`stand-in: no ${type} updates`);
      // a GM may update any combatant, a player only the combatants they own
      const allowed = this.canUserModify(game.user) || updates.every((u) => this.combatants.get(u._id)?.isOwner);
      if (!allowed) throw permissionError(this);
      for (const u of updates) if (!this.combatants.has(u._id)) throw new Error(`stand-in: no combatant ${u._id}`);
      this._apply({ combatants: updates });
      send({ kind: "combat", id: this.id, combatants: updates, user: game.user.id });
      return updates;
    }
    async createEmbeddedDocuments(type, data) {
      if (type !== "CombatantGroup" || !this.groups) throw new Error(`stand-in: cannot create ${type}`);
      if (!this.canUserModify(game.user)) throw permissionError(this, "create");
      const created = data.map((d) => ({ _id: `g${Math.random().toString(36).slice(2, 10)}`, name: d.name }));
      this._apply({ groups: created });
      send({ kind: "combat", id: this.id, groups: created, user: game.user.id });
      return created.map((g) => this.groups.get(g._id));
    }
    /** Apply a change (this client's own, or another client's from the relay). */
    _apply({ paths, combatants, groups }) {
      if (groups) for (const g of groups) this.groups?.set(g._id, new CombatantGroup(g, this));
      if (combatants) {
        for (const u of combatants) {
          const c = this.combatants.get(u._id);
          if ("initiative" in u) c.initiative = u.initiative;
          if ("group" in u) c._group = u.group;
        }
        Hooks.callAll("updateCombat", this, { combatants }, {}, game.user.id);
      }
      if (paths) {
        const own = {};
        for (const [k, v] of Object.entries(paths)) {
          if (k === "round" || k === "turn") this[k] = v;
          else own[k] = v;
        }
        applyPaths(this, own);
        if (paths.round !== undefined) Hooks.callAll("combatRound", this, { round: paths.round }, {});
        Hooks.callAll("updateCombat", this, nested(paths), {}, game.user.id);
      }
      renderTracker();
    }
    /** Foundry: roll each combatant's `getInitiativeRoll` and set its initiative. */
    async rollInitiative(ids, { formula = null } = {}) {
      ids = typeof ids === "string" ? [ids] : ids;
      const updates = [];
      for (const id of ids) {
        const c = this.combatants.get(id);
        const roll = c.getInitiativeRoll(formula);
        await roll.evaluate();
        updates.push({ _id: id, initiative: roll.total });
      }
      await this.updateEmbeddedDocuments("Combatant", updates);
      return this;
    }
    /** Foundry's round / turn buttons (simplified: the round advances, turn 0). */
    async nextRound() {
      return this.update({ round: this.round + 1, turn: 0 });
    }
    async previousRound() {
      return this.update({ round: Math.max(0, this.round - 1), turn: 0 });
    }
    async nextTurn() {
      return this.update({ turn: (this.turn + 1) % Math.max(1, this.combatants.size) });
    }
    async previousTurn() {
      return this.update({ turn: Math.max(0, this.turn - 1) });
    }
    async rollAll(options) {
      return this.rollInitiative([...this.combatants].filter((c) => c.initiative === null || true).map((c) => c.id), options);
    }
  }

  // ---------- dice ----------
  class RollTerm {
    constructor({ options = {} } = {}) {
      this.options = options;
      this._evaluated = false;
    }
    static fromData(data) {
      const cls =
        CONFIG.Dice.termTypes[data.class] ?? Object.values(CONFIG.Dice.terms).find((c) => c.name === data.class) ?? null;
      if (!cls) throw new Error(`stand-in: unknown term class ${data.class}`);
      const t = new cls(data);
      t._evaluated = data.evaluated ?? true;
      return t;
    }
    toJSON() {
      return { class: this.constructor.name, options: this.options, evaluated: this._evaluated };
    }
  }
  class DiceTerm extends RollTerm {}
  class Die extends DiceTerm {
    static DENOMINATION = "d";
    constructor(data = {}) {
      super(data);
      this.number = data.number ?? 1;
      this.faces = data.faces;
      this.modifiers = data.modifiers || [];
      this.results = (data.results || []).map((r) => ({ ...r, result: r.result, active: r.active !== false }));
      if (data.results) {
        if (!Number.isInteger(this.number) || !Number.isInteger(this.faces)) throw new Error("stand-in Die: number/faces");
        if (this.results.length !== this.number) throw new Error("stand-in Die: results.length != number");
        for (const r of this.results) if (!(r.result >= 1 && r.result <= this.faces)) throw new Error(`stand-in Die: face ${r.result} of d${this.faces}`);
      }
    }
    get total() {
      return this.results.filter((r) => r.active).reduce((a, r) => a + r.result, 0);
    }
    getResultLabel(result) {
      return String(result.result);
    }
    toJSON() {
      return { ...super.toJSON(), number: this.number, faces: this.faces, modifiers: this.modifiers, results: this.results };
    }
  }
  class OperatorTerm extends RollTerm {
    constructor(data = {}) {
      super(data);
      this.operator = data.operator;
    }
    toJSON() {
      return { ...super.toJSON(), operator: this.operator };
    }
  }
  class NumericTerm extends RollTerm {
    constructor(data = {}) {
      super(data);
      this.number = data.number;
    }
    get total() {
      return this.number;
    }
    toJSON() {
      return { ...super.toJSON(), number: this.number };
    }
  }
  class Roll {
    constructor(formula = "", data = {}, options = {}) {
      this._formula = formula;
      this.data = data;
      this.options = options;
      this.terms = [];
      this._evaluated = false;
    }
    /** Documented: recreate a Roll from its JSON data (already evaluated unless evaluated: false). */
    static fromData(data) {
      if (data.class !== "Roll") throw new Error("stand-in Roll.fromData: class must be Roll");
      const roll = new this(data.formula, data.data, data.options);
      roll.terms = data.terms.map((t) => RollTerm.fromData(t));
      if (data.evaluated ?? true) {
        roll._total = data.total;
        roll._evaluated = true;
      }
      return roll;
    }
    /** Evaluate a formula of constants and NdM terms (what initiative formulas here use). */
    async evaluate() {
      const parts = this._formula.replace(/\s+/g, "").match(/[+-]?[^+-]+/g) || ["0"];
      let total = 0;
      for (const p of parts) {
        const sign = p.startsWith("-") ? -1 : 1;
        const body = p.replace(/^[+-]/, "");
        const m = /^(\d*)d(\d+)$/i.exec(body);
        if (m) {
          const n = Number(m[1] || 1);
          const faces = Number(m[2]);
          const results = Array.from({ length: n }, () => ({ result: 1 + Math.floor(Math.random() * faces), active: true }));
          this.terms.push(new Die({ number: n, faces, results }));
          total += sign * results.reduce((a, r) => a + r.result, 0);
        } else if (/^\d+(\.\d+)?$/.test(body)) {
          this.terms.push(new NumericTerm({ number: Number(body) }));
          total += sign * Number(body);
        } else throw new Error(`stand-in Roll: cannot evaluate ${this._formula}`);
      }
      this._total = total;
      this._evaluated = true;
      return this;
    }
    get formula() {
      return this._formula;
    }
    get total() {
      return this._total;
    }
    get dice() {
      return this.terms.filter((t) => t instanceof DiceTerm);
    }
    toJSON() {
      return { class: "Roll", options: this.options, dice: [], formula: this._formula, terms: this.terms.map((t) => t.toJSON()), total: this._total, evaluated: this._evaluated };
    }
    /** Foundry's dice-roll card (simplified): flavour, formula, total, the dice. */
    render() {
      const dice = this.dice
        .map((t) => t.results.map((x) => `<i class="die d${t.faces}${x.active ? "" : " discarded"}">${t.getResultLabel(x)}</i>`).join(""))
        .join(" ");
      return `<div class="dice-roll">${this.options.flavor ? `<div class="dice-flavor">${this.options.flavor}</div>` : ""}<span class="dice-formula">${this._formula}</span> = <b class="dice-total">${this._total}</b> <span class="dice-tooltip">${dice}</span></div>`;
    }
  }
  window.Roll = Roll;
  window.foundry = { dice: { Roll, terms: { Die, DiceTerm, OperatorTerm, NumericTerm, RollTerm } }, utils: {} };
  window.CONFIG = {
    sounds: { dice: "sounds/dice.wav" },
    Dice: { rolls: [Roll], terms: { d: Die }, termTypes: { Die, DiceTerm, OperatorTerm, NumericTerm } },
    Combat: { documentClass: StandInCombat },
    Combatant: { documentClass: StandInCombatant },
  };
  window.CONST = {
    DICE_ROLL_MODES: { PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll", SELF: "selfroll" },
    DOCUMENT_OWNERSHIP_LEVELS: { INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 },
  };

  // ---------- chat ----------
  let nextId = 1;
  const messages = [];
  class ChatMessage {
    /** Foundry: the given token's or actor's speaker (alias: the given one, else its name), else the user's. */
    static getSpeaker({ actor = null, token = null, alias = null } = {}) {
      return { alias: alias ?? token?.name ?? actor?.name ?? game.user.name, actor: actor?.id ?? null, token: token?.id ?? null, scene: null };
    }
    static getWhisperRecipients(name) {
      return name === "GM" ? game.users.filter((u) => u.isGM) : game.users.filter((u) => u.name === name);
    }
    /** Foundry's ChatMessage.applyRollMode. */
    static applyRollMode(chatData, rollMode) {
      const modes = CONST.DICE_ROLL_MODES;
      if (rollMode === "roll") rollMode = game.settings.get("core", "rollMode");
      if ([modes.PRIVATE, modes.BLIND].includes(rollMode)) chatData.whisper = ChatMessage.getWhisperRecipients("GM").map((u) => u.id);
      else if (rollMode === modes.SELF) chatData.whisper = [game.user.id];
      else if (rollMode === modes.PUBLIC) chatData.whisper = [];
      chatData.blind = rollMode === modes.BLIND;
      return chatData;
    }
    static async create(data) {
      const author = data.author ?? game.user.id;
      if (author !== game.user.id && !game.user.isGM) throw new Error(`User ${game.user.name} lacks permission to create ChatMessage as another user`);
      const json = { ...structuredClone({ ...data, rolls: undefined }), author, rolls: (data.rolls || []).map((r) => (r instanceof Roll ? r.toJSON() : r)), id: `m${game.user.id}-${nextId++}` };
      const msg = ChatMessage._add(json);
      send({ kind: "chat", data: json, user: game.user.id });
      return msg;
    }
    static _add(json) {
      const msg = Object.assign(new ChatMessage(), structuredClone({ ...json, rolls: undefined }));
      msg.rolls = (json.rolls || []).map((r) => Roll.fromData(r));
      msg.whisper = json.whisper || [];
      msg.blind = !!json.blind;
      msg.flags = json.flags || {};
      messages.push(msg);
      Hooks.callAll("createChatMessage", msg, {}, json.author);
      renderChat();
      return msg;
    }
    getFlag(scope, key) {
      return this.flags?.[scope]?.[key];
    }
    /** Foundry: a GM (or the author) deletes a message; every client drops it. */
    async delete() {
      if (!game.user.isGM && !this.isAuthor) throw new Error(`User ${game.user.name} lacks permission to delete ChatMessage`);
      ChatMessage._remove(this.id);
      send({ kind: "chatDelete", id: this.id, user: game.user.id });
      return this;
    }
    static _remove(id) {
      const i = messages.findIndex((m) => m.id === id);
      if (i < 0) return;
      const [m] = messages.splice(i, 1);
      Hooks.callAll("deleteChatMessage", m, {}, game.user.id);
      renderChat();
    }
    get isAuthor() {
      return this.author === game.user.id;
    }
    get isRoll() {
      return this.rolls.length > 0;
    }
    /** Foundry: a whisper is visible to its recipients and author; a whispered roll shows to all as "rolled privately". */
    get visible() {
      if (this.whisper.length) {
        if (this.isRoll) return true;
        return this.isAuthor || this.whisper.includes(game.user.id);
      }
      return true;
    }
    /** Foundry: whether this user sees the content (a blind roll: not even its author). */
    get isContentVisible() {
      if (!this.visible) return false;
      if (this.whisper.length) return this.whisper.includes(game.user.id) || (this.isAuthor && !this.blind);
      return true;
    }
    /** What this client shows for the message (simplified Foundry rendering). */
    renderHTML() {
      if (!this.visible) return null;
      const name = game.users.get(this.author)?.name ?? "?";
      if (!this.isContentVisible) return `<div class="rolled-privately">${name} rolled privately</div>`;
      const el = document.createElement("div");
      el.innerHTML = this.content ?? "";
      // Foundry renders the Rolls' HTML only when the content holds no HTML of its own.
      if (!el.childElementCount && this.rolls.length) return this.rolls.map((r) => r.render()).join("");
      return this.content ?? "";
    }
  }
  window.ChatMessage = ChatMessage;

  // Dice So Nice stand-in: the dice and faces it would show for each new message.
  const dsnPresets = new Map();
  const DSN_D10 = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
  const DSN_D100 = ["10", "20", "30", "40", "50", "60", "70", "80", "90", "00"];
  function dsnDice(die) {
    const out = [];
    const denom = die.constructor.DENOMINATION;
    for (const r of die.results) {
      if (r.hidden) continue;
      const v = r.result;
      if (die.faces === 100 && denom === "d") {
        const t = Math.floor(v / 10) % 10;
        out.push({ type: "d100", result: v, label: DSN_D100[(t === 0 ? 10 : t) - 1], discarded: !!r.discarded });
        out.push({ type: "d10", result: v, label: String(v % 10), discarded: !!r.discarded });
      } else if (denom !== "d") {
        const type = `d${denom}`;
        const preset = dsnPresets.get(type);
        out.push({ type, result: v, label: preset ? preset.labels[v - 1] : die.getResultLabel(r) });
      } else if (die.faces === 10) out.push({ type: "d10", result: v, label: DSN_D10[v - 1] });
      else out.push({ type: `d${die.faces}`, result: v, label: String(v) });
    }
    return out;
  }
  Hooks.on("createChatMessage", (msg) => {
    if (!msg.rolls.length) return;
    log.dsn.push({ id: msg.id, blind: msg.blind && !game.user.isGM, rolls: msg.rolls.map((r) => ({ total: r.total, dice: r.dice.flatMap(dsnDice) })) });
  });

  function renderChat() {
    const box = document.getElementById("chat-log");
    if (!box) return;
    box.textContent = "";
    for (const m of messages) {
      const html = m.renderHTML();
      if (html === null) continue;
      const li = document.createElement("li");
      li.className = "chat-message";
      li.dataset.messageId = m.id;
      // (Foundry's header shows the speaker's alias, else the author)
      li.innerHTML = `<header class="message-sender">${m.speaker?.alias ?? game.users.get(m.author)?.name ?? "?"}${m.whisper.length ? ` <span class="whisper-to">→ ${m.whisper.map((id) => game.users.get(id)?.name).join(", ")}</span>` : ""}</header>${html}`;
      if (m.whisper.length) li.classList.add("whisper");
      if (m.blind) li.classList.add("blind");
      box.append(li);
      // v13: renderChatMessageHTML with the element; v12: renderChatMessage with a jQuery-like array
      if (game.release.generation >= 13) Hooks.callAll("renderChatMessageHTML", m, li, {});
      else Hooks.callAll("renderChatMessage", m, [li], {});
    }
  }

  // ---------- the combat tracker ----------
  function renderTracker() {
    const root = document.getElementById("combat");
    if (!root || !game.combat) return;
    const c = game.combat;
    root.innerHTML =
      `<div class="combat-controls">${game.user.isGM ? `<button type="button" data-control="rollAll">Roll all</button> <button type="button" data-control="nextRound">Next round</button>` : ""} · round ${c.round}</div>` +
      `<ol id="combat-tracker" class="directory-list">${c.turns
        .map(
          (x) =>
            `<li class="combatant${x.isOwner ? " owner" : ""}${c.turns[c.turn]?.id === x.id ? " active" : ""}" data-combatant-id="${x.id}"><span class="name">${x.name}</span> <span class="initiative">${x.initiative ?? ""}</span>${
              x.group ? ` <span class="group">${x.group.name}</span>` : ""
            }${x.isOwner ? ` <button type="button" data-control="rollInitiative">d20</button>` : ""}</li>`,
        )
        .join("")}</ol>`;
    root.querySelector('[data-control="rollAll"]')?.addEventListener("click", () => c.rollAll().catch((e) => log.errors.push(e.message)));
    root.querySelector('[data-control="nextRound"]')?.addEventListener("click", () => c.nextRound().catch((e) => log.errors.push(e.message)));
    root.querySelectorAll('[data-control="rollInitiative"]').forEach((b) =>
      b.addEventListener("click", () =>
        c.combatants
          .get(b.closest("li").dataset.combatantId)
          .rollInitiative()
          .catch((e) => log.errors.push(e.message)),
      ),
    );
    Hooks.callAll("renderCombatTracker", ui.combat, root, {});
  }

  // ---------- game, ui ----------
  class User {
    constructor({ id, name, isGM = false, active = true }) {
      this.id = id;
      this.name = name;
      this.isGM = isGM;
      this.active = active;
    }
    get isSelf() {
      return game.user?.id === this.id;
    }
  }
  const settings = new Map();
  const i18nData = {};
  const socketHandlers = new Map();
  const users = new Collection(
    [
      new User({ id: "gm", name: "GM", isGM: true }),
      new User({ id: "p1", name: "Player One" }),
      new User({ id: "p2", name: "Player Two" }),
    ].map((u) => [u.id, u]),
  );
  Object.defineProperty(users, "activeGM", { get: () => users.find((u) => u.isGM && u.active) ?? null });
  window.game = {
    release: { generation: 13 },
    user: null,
    users,
    actors: new Collection(),
    journal: new Collection(),
    combats: new Collection(),
    combat: null,
    messages,
    settings: {
      register(scope, key, cfg) {
        settings.set(`${scope}.${key}`, { cfg, value: cfg.default });
      },
      get(scope, key) {
        const s = settings.get(`${scope}.${key}`);
        if (!s) throw new Error(`stand-in: setting ${scope}.${key} is not registered`);
        return s.value;
      },
      async set(scope, key, value) {
        settings.get(`${scope}.${key}`).value = value;
        return value;
      },
    },
    socket: {
      on(event, fn) {
        if (!socketHandlers.has(event)) socketHandlers.set(event, []);
        socketHandlers.get(event).push(fn);
      },
      /** Foundry relays a socket message to the OTHER clients only. */
      emit(event, data) {
        send({ kind: "socket", event, data, user: game.user.id });
      },
    },
    modules: new Map([["gunbai", { id: "gunbai", active: true }]]),
    i18n: {
      lang: "en",
      localize(key) {
        const v = key.split(".").reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), i18nData);
        return typeof v === "string" ? v : key;
      },
    },
  };
  game.settings.register("core", "rollMode", { scope: "client", type: String, default: "publicroll" });
  window.ui = {
    notifications: {
      info: (m) => log.notifications.push(["info", m]),
      warn: (m) => log.notifications.push(["warn", m]),
      error: (m) => log.notifications.push(["error", m]),
    },
    combat: {
      get viewed() {
        return game.combat;
      },
      render: () => renderTracker(),
    },
  };

  /** An envelope from another client (through the test's relay). */
  window.__standInReceive = function (env) {
    log.received.push(env.kind);
    // socket.io hands a handler only what was emitted (Foundry adds no sender id)
    if (env.kind === "socket") for (const fn of socketHandlers.get(env.event) || []) fn(env.data);
    else if (env.kind === "chat") ChatMessage._add(env.data);
    else if (env.kind === "chatDelete") ChatMessage._remove(env.id);
    else if (env.kind === "journal" && env.op === "create") {
      if (!game.journal.has(env.data._id)) JournalEntry._add(env.data);
    } else if (env.kind === "journal" && env.op === "delete") game.journal.get(env.id)?._remove();
    else if (env.kind === "journal") game.journal.get(env.id)?._apply(env.paths);
    else if (env.kind === "actor") game.actors.get(env.id)?._apply(env.paths);
    else if (env.kind === "combatDelete") game.combats.get(env.id)?._remove();
    else if (env.kind === "combat") game.combats.get(env.id)?._apply(env);
  };

  /**
   * Boot like Foundry: load the module's language file, then init → i18nInit →
   * setup → ready. `user`: this client's user id (gm, p1, p2); `generation`: 12
   * leaves out CombatantGroup.
   */
  window.__bootStandIn = async function ({ lang = "en", user = "gm", generation = 13 } = typeof arguments[0] === "string" ? { lang: arguments[0] } : {}) {
    game.i18n.lang = lang;
    game.user = users.get(user);
    game.release.generation = generation;
    if (generation >= 13) CONFIG.CombatantGroup = { documentClass: CombatantGroup };
    Object.assign(i18nData, await (await fetch(`../lang/${lang}.json`)).json());
    Hooks.callAll("init");
    Hooks.callAll("i18nInit");
    Hooks.callAll("setup");
    Hooks.callAll("ready");
    window.dice3d = {
      addDicePreset(data, shape) {
        dsnPresets.set(data.type, { ...data, shape });
      },
    };
    Hooks.callAll("diceSoNiceReady", window.dice3d);
    document.body.dataset.user = user;
    const who = document.getElementById("who");
    if (who) who.textContent = game.user.name;
  };
  /** The same world on every client: actors (with ownership) and one combat. */
  window.__setupWorld = function ({ actors = [], combat = null } = {}) {
    for (const a of actors) game.actors.set(a.id, new Actor(a));
    if (combat) {
      const c = new CONFIG.Combat.documentClass(combat);
      game.combats.set(c.id, c);
      game.combat = c;
    }
    renderTracker();
    renderChat();
  };
  /** Type a line into the chat box, as ChatLog#processMessage does: the chatMessage hook may veto it. */
  window.__sendChat = function (text) {
    const handled = Hooks.call("chatMessage", { id: "chat" }, text.trim(), { speaker: ChatMessage.getSpeaker(), user: game.user.id }) === false;
    if (!handled) ChatMessage.create({ content: text });
    return handled;
  };
})();
