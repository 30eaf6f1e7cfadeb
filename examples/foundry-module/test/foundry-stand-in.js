// A SMALL STAND-IN for the Foundry VTT client API, for the browser tests only.
// It implements just the documented surface the gunbai module uses (Hooks,
// game.settings/modules/i18n/user, ChatMessage.create/getSpeaker/
// getWhisperRecipients, Roll.fromData with Die/OperatorTerm data, Combat with
// setFlag/getFlag/updateEmbeddedDocuments/nextRound and the combatRound /
// updateCombat / renderCombatTracker hooks, ui.notifications) with the same
// names and argument shapes, plus a Dice So Nice stand-in that records the faces
// of each new chat message's rolls the way Dice So Nice reads them
// (roll.dice[].results[].result). It is not Foundry: nothing here is rendered the
// way Foundry renders it.
(function () {
  "use strict";
  const log = (window.__standIn = { notifications: [], dsn: [], hookCalls: [] });

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
        h.fn(...args);
      }
      return true;
    },
  };

  // ---------- flags (Document#setFlag / getFlag) ----------
  const flagged = (obj) => {
    obj.flags = obj.flags || {};
    obj.getFlag = (scope, key) => obj.flags?.[scope]?.[key];
    obj.setFlag = async (scope, key, value) => {
      obj.flags[scope] = obj.flags[scope] || {};
      obj.flags[scope][key] = structuredClone(value);
      if (obj.documentName === "Combat") Hooks.callAll("updateCombat", obj, { flags: { [scope]: { [key]: value } } }, {}, game.user.id);
      return obj;
    };
    return obj;
  };

  // ---------- dice ----------
  class RollTerm {
    constructor(data) {
      this.options = data.options || {};
      this._evaluated = data.evaluated ?? true;
    }
    static fromData(data) {
      const cls = { Die, OperatorTerm, NumericTerm }[data.class];
      if (!cls) throw new Error(`stand-in: unknown term class ${data.class}`);
      return new cls(data);
    }
  }
  class Die extends RollTerm {
    constructor(data) {
      super(data);
      if (!Number.isInteger(data.number) || !Number.isInteger(data.faces)) throw new Error("stand-in Die: number/faces");
      this.number = data.number;
      this.faces = data.faces;
      this.modifiers = data.modifiers || [];
      this.results = (data.results || []).map((r) => ({ result: r.result, active: r.active !== false }));
      if (this.results.length !== this.number) throw new Error("stand-in Die: results.length != number");
      for (const r of this.results) if (!(r.result >= 1 && r.result <= this.faces)) throw new Error(`stand-in Die: face ${r.result} of d${this.faces}`);
    }
    get total() {
      return this.results.filter((r) => r.active).reduce((a, r) => a + r.result, 0);
    }
  }
  class OperatorTerm extends RollTerm {
    constructor(data) {
      super(data);
      this.operator = data.operator;
    }
  }
  class NumericTerm extends RollTerm {
    constructor(data) {
      super(data);
      this.number = data.number;
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
    get formula() {
      return this._formula;
    }
    get total() {
      return this._total;
    }
    get dice() {
      return this.terms.filter((t) => t instanceof Die);
    }
    toJSON() {
      return { class: "Roll", formula: this._formula, total: this._total, dice: this.dice.map((d) => ({ faces: d.faces, results: d.results })) };
    }
  }
  window.Roll = Roll;
  window.foundry = { dice: { Roll, terms: { Die, OperatorTerm, NumericTerm, RollTerm } } };
  window.CONFIG = { sounds: { dice: "sounds/dice.wav" }, Dice: { rolls: [Roll] } };

  // ---------- chat ----------
  let nextId = 1;
  const messages = [];
  class ChatMessage {
    static getSpeaker() {
      return { alias: game.user.name, actor: null, token: null, scene: null };
    }
    static getWhisperRecipients(name) {
      return name === "GM" ? game.users.filter((u) => u.isGM) : [];
    }
    static async create(data) {
      const msg = flagged(Object.assign(new ChatMessage(), structuredClone({ ...data, rolls: undefined }), { id: `m${nextId++}` }));
      msg.rolls = (data.rolls || []).map((r) => (r instanceof Roll ? r : Roll.fromData(r)));
      msg.whisper = data.whisper || [];
      messages.push(msg);
      Hooks.callAll("createChatMessage", msg, {}, game.user.id);
      renderChat();
      return msg;
    }
  }
  window.ChatMessage = ChatMessage;

  // Dice So Nice stand-in: what it would animate for each new message.
  Hooks.on("createChatMessage", (msg) => {
    log.dsn.push(msg.rolls.map((r) => r.dice.map((d) => ({ faces: d.faces, results: d.results.map((x) => x.result) }))));
  });

  function renderChat() {
    const box = document.getElementById("chat-log");
    if (!box) return;
    box.textContent = "";
    for (const m of messages) {
      const li = document.createElement("li");
      li.className = "chat-message";
      li.dataset.messageId = m.id;
      li.innerHTML = m.content;
      for (const r of m.rolls) {
        const d = document.createElement("div");
        d.className = "dice-roll";
        d.innerHTML = `<span class="formula">${r.formula}</span> = <b class="total">${r.total}</b> <span class="faces">${r.dice
          .map((t) => t.results.map((x) => `<i class="die d${t.faces}">${x.result}</i>`).join(""))
          .join(" ")}</span>`;
        li.append(d);
      }
      if (m.whisper.length) li.classList.add("whisper");
      box.append(li);
    }
  }

  // ---------- combat ----------
  class Combatant {
    constructor({ id, name, disposition, flags, defeated }) {
      this.id = id;
      this.name = name;
      this.initiative = null;
      this.isDefeated = !!defeated;
      this.token = { disposition };
      this.actor = flagged({ name, flags: flags || {} });
      flagged(this);
    }
  }
  class Combat {
    constructor(combatants) {
      this.documentName = "Combat";
      this.round = 1;
      this.turn = 0;
      this.combatants = combatants;
      flagged(this);
    }
    get turns() {
      return [...this.combatants].sort((a, b) => (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity) || a.name.localeCompare(b.name));
    }
    async updateEmbeddedDocuments(type, updates) {
      if (type !== "Combatant") throw new Error("stand-in: only Combatant updates");
      for (const u of updates) {
        const c = this.combatants.find((x) => x.id === u._id);
        if (!c) throw new Error(`stand-in: no combatant ${u._id}`);
        Object.assign(c, { initiative: u.initiative });
      }
      Hooks.callAll("updateCombat", this, { combatants: updates }, {}, game.user.id);
      renderTracker();
      return updates;
    }
    async nextRound() {
      const updateData = { round: this.round + 1, turn: 0 };
      Hooks.callAll("combatRound", this, updateData, { direction: 1, worldTime: { delta: 0 } });
      this.round = updateData.round;
      this.turn = 0;
      Hooks.callAll("updateCombat", this, updateData, {}, game.user.id);
      renderTracker();
      return this;
    }
  }
  window.__StandInCombat = Combat;
  window.__StandInCombatant = Combatant;

  function renderTracker() {
    const root = document.getElementById("combat");
    if (!root || !game.combat) return;
    root.innerHTML = `<ol id="combat-tracker" class="directory-list">${game.combat.turns
      .map((c) => `<li class="combatant" data-combatant-id="${c.id}"><span class="name">${c.name}</span> <span class="initiative">${c.initiative ?? ""}</span></li>`)
      .join("")}</ol>`;
    Hooks.callAll("renderCombatTracker", ui.combat, root, {});
  }

  // ---------- game, ui ----------
  const settings = new Map();
  const i18nData = {};
  window.game = {
    user: { id: "u1", name: "GM", isGM: true },
    users: [{ id: "u1", name: "GM", isGM: true }, { id: "u2", name: "Player", isGM: false }],
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
    modules: new Map([["gunbai", { id: "gunbai", active: true }]]),
    i18n: {
      lang: "en",
      localize(key) {
        const v = key.split(".").reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), i18nData);
        return typeof v === "string" ? v : key;
      },
    },
  };
  window.ui = {
    notifications: {
      info: (m) => log.notifications.push(["info", m]),
      warn: (m) => log.notifications.push(["warn", m]),
      error: (m) => log.notifications.push(["error", m]),
    },
    combat: { render: () => renderTracker() },
  };

  /** Boot like Foundry: load the module's language file, then init → i18nInit → setup → ready. */
  window.__bootStandIn = async function (lang = "en") {
    game.i18n.lang = lang;
    Object.assign(i18nData, await (await fetch(`../lang/${lang === "en" ? "en" : lang}.json`)).json());
    Hooks.callAll("init");
    Hooks.callAll("i18nInit");
    Hooks.callAll("setup");
    Hooks.callAll("ready");
  };
  /** Type a line into the chat box, as ChatLog#processMessage does: the chatMessage hook may veto it. */
  window.__sendChat = function (text) {
    const handled = Hooks.call("chatMessage", { id: "chat" }, text.trim(), { speaker: ChatMessage.getSpeaker(), user: game.user.id }) === false;
    if (!handled) ChatMessage.create({ content: text });
    return handled;
  };
  window.__startCombat = function (list) {
    game.combat = new Combat(list.map((c) => new Combatant(c)));
    renderTracker();
    return game.combat;
  };
})();
