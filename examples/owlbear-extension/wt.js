// World Trigger battle mode of the extension: setup from the CHARACTER-layer
// tokens, then gunbai's `worldTrigger.Battle` game handle (live.js) holding the
// state kept in the scene metadata (see store.js). The page shows the round,
// the phase, the acting team, each team's budget and each member's Trion and
// states, lists every legal action as a button, and logs the typed events (with
// the seed each action was rolled with, so any step can be replayed with
// `world_trigger.battle_act`).
import { S, PHASES, SLOT, STATUS, STATES, SIDES, OUTCOME, A } from "./wt-i18n.js";
import { SAMPLE_SHEETS, EXAMPLE_MAPS } from "./wt-samples.js";
import { KEY } from "./store.js";
import { secretsOf, hiddenMembers, entryFor } from "./views.js";
import { namesIn } from "./names.js";

/** Squares of empty map kept around the tokens (flat map) — see gridSquares. */
export const MARGIN = 2;
/** WT-ECO-2: at most three members of a team act in each phase. */
const MEMBERS_PER_PHASE = 3;
/** Log entries kept in the record (fewer if the scene metadata would overflow). */
export const LOG_MAX = 40;
/** The engine's map limit (WtBattleMap: 1–64 columns and rows). */
const MAP_MAX = 64;

/**
 * Token positions → battle squares. Owlbear's grid cells are `dpi` scene pixels
 * wide and the SDK's grid has no offset (lines on multiples of `dpi`), so a
 * token's cell is floor(position / dpi); a snapped token sits on its centre. The battle's
 * square (0, 0) is the cell `origin` = (leftmost token column − margin, topmost
 * token row − margin); the flat map spans the tokens plus the margin on each
 * side (at most 64 × 64). Squares are clamped into the map by the caller.
 */
export function gridSquares(tokens, dpi, margin = MARGIN) {
  const cells = tokens.map((tk) => ({ id: tk.id, col: Math.floor((tk.position?.x ?? 0) / dpi), row: Math.floor((tk.position?.y ?? 0) / dpi) }));
  if (!cells.length) return { origin: { col: 0, row: 0 }, width: 1, height: 1, squares: {} };
  const minCol = Math.min(...cells.map((c) => c.col));
  const minRow = Math.min(...cells.map((c) => c.row));
  const maxCol = Math.max(...cells.map((c) => c.col));
  const maxRow = Math.max(...cells.map((c) => c.row));
  const origin = { col: minCol - margin, row: minRow - margin };
  const width = Math.min(MAP_MAX, maxCol - minCol + 1 + 2 * margin);
  const height = Math.min(MAP_MAX, maxRow - minRow + 1 + 2 * margin);
  const squares = Object.fromEntries(cells.map((c) => [c.id, { x: c.col - origin.col, y: c.row - origin.row }]));
  return { origin, width, height, squares };
}

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

export function createWorldTrigger(ctx) {
  const { gunbai, OBR, lang, $, live } = ctx;
  const W = gunbai.worldTrigger;
  const labelKey = { ja: "ja", "zh-Hant": "zh_hant", "zh-Hans": "zh_hans", en: "en" }[lang];
  const tr = (entry) => (entry ? entry[lang] ?? entry.en : "");
  const fmt = (entry, vars) => tr(entry).replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
  const lab = (l) => (l ? l[labelKey] || l.en || "" : "");
  const colon = lang === "en" ? ": " : "：";
  const esc = ctx.esc;

  // Names from gunbai's sample pack (abilities, triggers, positions).
  const pack = (() => {
    try {
      return W.sampleData({});
    } catch {
      return { positions: [], traits: [], triggers: [] };
    }
  })();
  const abilityLabels = {};
  for (const p of pack.positions || []) if (p.skill) abilityLabels[p.skill.id] = p.skill.label;
  for (const x of pack.traits || []) abilityLabels[x.id] = x.label;
  const triggerLabels = Object.fromEntries((pack.triggers || []).map((x) => [x.id, x.label]));
  const positionLabels = Object.fromEntries((pack.positions || []).map((x) => [x.id, x.label]));

  // Setup (before the battle starts): per token, per team, and the options.
  const setup = { members: {}, leaders: {}, options: { battle_type: "rank", max_rounds: 10, map: "flat" } };
  // Check modifiers the GM adds to the next check (reset after each action).
  const mods = { td: 0, burst: 0, push: "", init: {} };
  let busy = false;

  // ---- labels of the current battle ------------------------------------
  let rec = null; // the record being shown
  const name = (id) => rec?.names?.[id] ?? rec?.state?.members?.find((m) => m.id === id)?.name ?? id;
  const skillOf = (id) => rec?.state?.catalog?.skills?.find((s) => s.id === id);
  const skill = (id) => lab(skillOf(id)?.label) || id;
  const opSkill = (id) => lab(rec?.state?.catalog?.operator_skills?.find((s) => s.id === id)?.label) || id;
  const sq = (p) => (p ? `(${p.x}, ${p.y})` : "—");
  const condLabels = (conds) => {
    if (!conds?.length) return [];
    try {
      return W.conditionEffects({ conditions: conds }).conditions.map((c) => lab(c.label));
    } catch {
      return conds;
    }
  };
  const h = {
    ability: (id) => lab(abilityLabels[id]) || id,
    trigger: (id) => lab(triggerLabels[id]) || id,
    side: (s) => tr(SIDES[s]) || s,
    outcome: (r) => tr(OUTCOME[r]) || r,
  };
  // The names a sentence of the core writes as ids: the pack's triggers and position /
  // trait skills, and this battle's members.
  const idNames = () => {
    const m = new Map();
    for (const [id, l] of [...Object.entries(triggerLabels), ...Object.entries(abilityLabels)]) if (lab(l)) m.set(id, lab(l));
    for (const x of rec?.state?.members ?? []) m.set(String(x.id), name(x.id));
    return m;
  };
  // An event's sentence, the core's (a team's view says it as the team may read it:
  // "an unseen member", no square of a move in Stealth, WT-ST-1).
  const eventText = (e) => {
    if (e.text && typeof e.text === "object" && typeof e.text.en === "string") return namesIn(lab(e.text), idNames());
    return `${e.type}${e.rule ? ` (${e.rule})` : ""}`;
  };

  /** A legal action as a short label (without its cost). */
  function describe(a, withActor = true) {
    const who = (id) => (withActor ? `${name(id)}${colon}` : "");
    switch (a.type) {
      case "roll_initiative":
        return tr(A.roll_initiative);
      case "pass":
        return fmt(A.pass, { team: a.team });
      case "no_reaction":
        return tr(A.no_reaction);
      case "reenter":
        return fmt(A.reenter, { who: name(a.actor) });
      case "bring_back":
        return fmt(A.bring_back, { who: name(a.actor), target: name(a.target) });
      case "operator":
        return fmt(A.operator, { team: a.team, skill: opSkill(a.skill) });
      case "use_ability":
        return `${who(a.actor)}${h.ability(a.ability)}`;
      case "use_skill":
        return `${who(a.actor)}${skill(a.skill)}${a.side ? ` [${h.side(a.side)}]` : ""}${a.target ? ` → ${name(a.target)}` : ""}${a.center ? ` @ ${sq(a.center)}` : ""}`;
      case "move":
        return `${who(a.actor)}${skill(a.skill)}${a.path ? ` → ${sq(a.path[a.path.length - 1])}` : ""}`;
      case "react":
        return `${who(a.actor)}${skill(a.skill)}${a.side ? ` [${h.side(a.side)}]` : ""}`;
      default:
        return a.type;
    }
  }

  /** The cost `battle_legal_actions` reports, as short parts. */
  function costText(c) {
    if (!c) return "";
    const parts = [];
    if (c.slot) parts.push(fmt(A.slot, { p: tr(SLOT[c.slot]) || c.slot }));
    if (c.side_action) parts.push(fmt(A.sideAction, { s: h.side(c.side_action) }));
    if (c.activates) parts.push(fmt(A.activates, { s: h.side(c.activates) }));
    if (c.trion) parts.push(fmt(A.trion, { n: c.trion }));
    if (c.movement != null) parts.push(fmt(A.movement, { n: c.movement }));
    if (c.operator) parts.push(tr(A.opAction));
    if (c.max_tactics_dice) parts.push(fmt(A.maxDice, { n: c.max_tactics_dice }));
    if (c.max_burst) parts.push(fmt(A.maxBurst, { n: c.max_burst }));
    return parts.join(" · ");
  }

  // ---- setup -------------------------------------------------------------
  function sampleLabel(s) {
    const trig = (ids) => ids.map((id) => lab(triggerLabels[id]) || id).join(", ");
    return `${lab(positionLabels[s.sheet.position]) || s.sheet.position} · ${trig(s.sheet.triggers.main)} / ${trig(s.sheet.triggers.sub)}`;
  }

  function layout(tokens) {
    const g = gridSquares(tokens, ctx.grid.dpi);
    const map = setup.options.map === "flat" ? { width: g.width, height: g.height } : EXAMPLE_MAPS[setup.options.map];
    return { ...g, map };
  }

  /** Defaults for tokens seen for the first time; squares follow the tokens until the GM edits them. */
  function syncSetup(tokens) {
    const g = gridSquares(tokens, ctx.grid.dpi);
    tokens.forEach((tk, i) => {
      const s = (setup.members[tk.id] ??= { team: String(tk.meta.side || "A"), sheet: tk.meta.sheet ? "token" : SAMPLE_SHEETS[i % SAMPLE_SHEETS.length].id, edited: false });
      // a sheet just imported from the character-sheet site's file is the one to use
      const stamp = tk.meta.imported?.system === "world_trigger" ? tk.meta.imported.stamp : undefined;
      if (stamp && tk.meta.sheet && s.stamp !== stamp) Object.assign(s, { sheet: "token", stamp });
      if (!s.edited) Object.assign(s, g.squares[tk.id]);
    });
  }

  function teamsOf(tokens) {
    const teams = new Map();
    for (const tk of tokens) {
      const team = setup.members[tk.id].team.trim() || "A";
      if (!teams.has(team)) teams.set(team, []);
      teams.get(team).push(tk);
    }
    return teams;
  }

  function renderSetup(tokens) {
    syncSetup(tokens);
    const lay = layout(tokens);
    const opts = (tk) => {
      const cur = setup.members[tk.id].sheet;
      const own = tk.meta.sheet ? `<option value="token" ${cur === "token" ? "selected" : ""}>${esc(tr(S.tokenSheet))}: ${esc(tk.meta.sheet.name ?? "")}</option>` : "";
      return own + SAMPLE_SHEETS.map((s) => `<option value="${esc(s.id)}" ${cur === s.id ? "selected" : ""}>${esc(sampleLabel(s))}</option>`).join("");
    };
    const rows = tokens
      .map((tk) => {
        const s = setup.members[tk.id];
        return `<tr data-token="${esc(tk.id)}"><td>${esc(tk.name)}</td>
          <td><input class="team" value="${esc(s.team)}" size="6"></td>
          <td><select class="sheet">${opts(tk)}</select></td>
          <td class="square"><input class="sx" type="number" min="0" max="63" value="${s.x}"><input class="sy" type="number" min="0" max="63" value="${s.y}"></td></tr>`;
      })
      .join("");
    $("#tokens").innerHTML = `<table class="wt-setup"><tr><th></th><th>${esc(tr(S.team))}</th><th>${esc(tr(S.sheet))}</th><th>${esc(tr(S.square))}</th></tr>${rows}</table>`;
    const teams = teamsOf(tokens);
    const leaders = [...teams.entries()]
      .map(([team, tks]) => {
        const cur = tks.some((tk) => tk.id === setup.leaders[team]) ? setup.leaders[team] : tks[0].id;
        setup.leaders[team] = cur;
        return `<label class="leader" data-team="${esc(team)}">${esc(team)} <select>${tks
          .map((tk) => `<option value="${esc(tk.id)}" ${tk.id === cur ? "selected" : ""}>${esc(tk.name)}</option>`)
          .join("")}</select></label>`;
      })
      .join(" ");
    const o = setup.options;
    const gridNote = fmt(S.gridNote, { dpi: ctx.grid.dpi, m: MARGIN });
    const warn = ctx.grid.type && ctx.grid.type !== "SQUARE" ? `<p class="note warn">${esc(fmt(S.gridNotSquare, { type: ctx.grid.type }))}</p>` : "";
    $("#wt-options").innerHTML = `
      <p class="note">${esc(gridNote)}</p>${warn}
      <div><span>${esc(tr(S.leaders))}</span> ${leaders}</div>
      <label>${esc(tr(S.battleType))} <select id="wt-type">
        ${["rank", "mock"].map((b) => `<option value="${b}" ${o.battle_type === b ? "selected" : ""}>${esc(tr(S[b]))}</option>`).join("")}
      </select></label>
      <label>${esc(tr(S.maxRounds))} <input id="wt-rounds" type="number" min="1" max="${o.battle_type === "rank" ? 10 : 100}" value="${o.max_rounds}"></label>
      <label>${esc(tr(S.map))} <select id="wt-map">
        <option value="flat" ${o.map === "flat" ? "selected" : ""}>${esc(fmt(S.flatMap, { w: lay.width, h: lay.height }))}</option>
        <option value="rank_3v3" ${o.map === "rank_3v3" ? "selected" : ""}>${esc(tr(S.exampleMap))}</option>
      </select></label>
      <p class="note">${esc(tr(S.illustrative))}</p>`;
    // Inputs write straight into `setup`.
    /** An input (or select) of `row`. */
    const field = (/** @type {ParentNode} */ row, /** @type {string} */ sel) => /** @type {HTMLInputElement} */ (row.querySelector(sel));
    for (const row of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#tokens tr[data-token]"))) {
      const s = setup.members[row.dataset.token ?? ""];
      const team = field(row, ".team");
      team.onchange = () => {
        s.team = team.value.trim() || "A";
        ctx.render();
      };
      const sheet = field(row, ".sheet");
      sheet.onchange = () => (s.sheet = sheet.value);
      const sx = field(row, ".sx");
      sx.onchange = () => ((s.x = Number(sx.value)), (s.edited = true));
      const sy = field(row, ".sy");
      sy.onchange = () => ((s.y = Number(sy.value)), (s.edited = true));
    }
    for (const l of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#wt-options label.leader"))) {
      const sel = field(l, "select");
      sel.onchange = () => (setup.leaders[l.dataset.team ?? ""] = sel.value);
    }
    $("#wt-type").onchange = (ev) => {
      o.battle_type = ev.target.value;
      if (o.battle_type === "rank") o.max_rounds = Math.min(o.max_rounds, 10);
      ctx.render();
    };
    $("#wt-rounds").onchange = (ev) => (o.max_rounds = Number(ev.target.value));
    $("#wt-map").onchange = (ev) => {
      o.map = ev.target.value;
      ctx.render();
    };
  }

  /** The `world_trigger.battle_new` arguments from the setup. */
  function battleArgs(tokens) {
    const lay = layout(tokens);
    const teams = [...teamsOf(tokens).entries()].map(([team, tks]) => {
      const leader = tks.some((tk) => tk.id === setup.leaders[team]) ? setup.leaders[team] : tks[0].id;
      return {
        id: team,
        leader,
        members: tks.map((tk) => {
          const s = setup.members[tk.id];
          const sample = SAMPLE_SHEETS.find((x) => x.id === s.sheet);
          // A sample sheet gets the token's name; the team leader's gets the leader flag (Command +1, WT-CC-1).
          const sheet = s.sheet === "token" || !sample ? structuredClone(tk.meta.sheet) : { ...structuredClone(sample.sheet), name: tk.name || tk.id, leader: tk.id === leader };
          return { id: tk.id, sheet, at: { x: clamp(s.x, 0, lay.map.width - 1), y: clamp(s.y, 0, lay.map.height - 1) } };
        }),
      };
    });
    return {
      args: { battle_type: setup.options.battle_type, map: structuredClone(lay.map), teams, max_rounds: setup.options.max_rounds },
      origin: lay.origin,
    };
  }

  async function start(tokens) {
    const { args, origin } = battleArgs(tokens);
    const h = W.Battle.create(args); // throws GunbaiError (shown by the caller)
    const created = h.created.events;
    const { hidden } = secretsOf(h, null, created, h.state.teams.map((tm) => tm.id));
    const next = {
      system: "world_trigger",
      state: live.adopt(W.Battle, h),
      names: Object.fromEntries(tokens.map((tk) => [tk.id, tk.name || tk.id])),
      grid: { dpi: ctx.grid.dpi, origin },
      step: 0,
      log: [{ events: created, ...(Object.keys(hidden).length ? { hidden } : {}) }],
    };
    if (await ctx.save(next)) await moveTokens(next);
  }

  /**
   * Put each token on its member's square (centre of the grid cell) when they
   * differ: after a move, a forced move or a re-entry, and at the start for a
   * square that was clamped into the map. The battle state is what counts;
   * dragging a token does not move its member. GM only (the GM acts).
   */
  async function moveTokens(r) {
    if (!OBR.scene.items.updateItems || !r.grid) return;
    const { dpi, origin } = r.grid;
    const tokens = ctx.tokens();
    const want = {};
    // A member some team may not see (Stealth, WT-ST-1) keeps its token where it
    // was, hidden from the players (Owlbear shows a hidden item to the GM only);
    // the token shows again, on the member's square, once every team sees it.
    const h = live.for(W.Battle, r.state);
    const unseen = new Set();
    for (const tm of r.state.teams) for (const id of hiddenMembers(r.state, h.view(tm.id).state)) unseen.add(id);
    const hide = [];
    const show = [];
    for (const m of r.state.members) {
      const tk = tokens.find((x) => x.id === m.id);
      if (!tk) continue;
      if (unseen.has(m.id)) {
        if (!tk.meta.hidden_by_view) hide.push(m.id);
        continue;
      }
      if (tk.meta.hidden_by_view) show.push(m.id);
      if (m.status === "bailed_out" || m.status === "dead") continue;
      const col = origin.col + m.at.x;
      const row = origin.row + m.at.y;
      if (Math.floor((tk.position?.x ?? 0) / dpi) !== col || Math.floor((tk.position?.y ?? 0) / dpi) !== row) {
        want[m.id] = { x: (col + 0.5) * dpi, y: (row + 0.5) * dpi };
      }
    }
    const ids = [...new Set([...Object.keys(want), ...hide, ...show])];
    if (!ids.length) return;
    await OBR.scene.items.updateItems(ids, (items) => {
      for (const it of items) {
        if (want[it.id]) it.position = want[it.id];
        if (hide.includes(it.id)) {
          if (it.visible === false) continue; // (hidden by the GM: theirs to show)
          it.visible = false;
          it.metadata[KEY] = { ...(it.metadata[KEY] || {}), hidden_by_view: true };
        } else if (show.includes(it.id)) {
          it.visible = true;
          const { hidden_by_view: _was, ...rest } = it.metadata[KEY] || {};
          it.metadata[KEY] = rest;
        }
      }
    });
  }

  // ---- running -----------------------------------------------------------
  function applyMods(action, r) {
    const a = structuredClone(action);
    const sk = a.skill ? r.state.catalog.skills.find((s) => s.id === a.skill) : null;
    if (a.type === "use_skill" && sk?.kind === "attack") {
      if (mods.td > 0) a.tactics_dice = mods.td;
      if (mods.burst > 0) a.burst = mods.burst;
      const p = /^\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*$/.exec(mods.push);
      if (p && sk.forced_move && a.target) a.push_to = { x: Number(p[1]), y: Number(p[2]) };
    }
    if ((a.type === "react" || a.type === "reenter") && mods.td > 0) a.tactics_dice = mods.td;
    if (a.type === "roll_initiative") {
      const dice = Object.entries(mods.init)
        .filter(([, n]) => n > 0)
        .map(([team, n]) => ({ team, dice: n }));
      if (dice.length) a.tactics_dice = dice;
    }
    return a;
  }

  /**
   * Apply one action to the live battle with a fresh seed and store the new
   * state; an illegal action, or a state that cannot be saved, leaves the stored
   * state (and the handle) as they were.
   */
  async function act(action, { plain = false } = {}) {
    if (busy || !rec) return false;
    busy = true;
    ctx.clearError();
    const r = rec;
    let done = false;
    try {
      // A player's request is applied as sent (the GM's check modifiers are the GM's own).
      const full = plain ? structuredClone(action) : applyMods(action, r);
      const seed = crypto.getRandomValues(new Uint32Array(1))[0];
      const out = live.act(W.Battle, r.state, full, { seed });
      const step = (r.step ?? 0) + 1;
      // what of it each team may not see (a move in Stealth, WT-ST-1), for its log entry
      const { hidden, actions } = secretsOf(live.for(W.Battle, out.state), full, out.events, out.state.teams.map((tm) => tm.id));
      const entry = { step, seed, action: full, events: out.events, ...(Object.keys(hidden).length ? { hidden, actions } : {}) };
      const next = { ...r, state: out.state, step, log: [...(r.log || []), entry].slice(-LOG_MAX) };
      let stored = false;
      try {
        stored = await ctx.save(next);
      } finally {
        if (!stored) live.undo();
      }
      if (stored) {
        mods.td = 0;
        mods.burst = 0;
        mods.push = "";
        mods.init = {};
        await moveTokens(next);
      }
      done = stored;
    } catch (e) {
      ctx.showError(e);
    } finally {
      busy = false;
      ctx.render();
    }
    return done;
  }

  /**
   * Take back the last action this page applied (the handle's undo) and store
   * the state before it: the step goes back by one, the log drops that step,
   * and moved tokens go back to their members' squares.
   */
  async function undo() {
    if (busy || !rec || live.undoDepth === 0) return;
    busy = true;
    ctx.clearError();
    const r = rec;
    try {
      const state = live.undo();
      const step = Math.max(0, (r.step ?? 0) - 1);
      const next = { ...r, state, step, log: (r.log || []).filter((e) => e.step == null || e.step <= step) };
      if (await ctx.save(next)) await moveTokens(next);
    } catch (e) {
      ctx.showError(e);
    } finally {
      busy = false;
      ctx.render();
    }
  }

  /**
   * The acting team and the member reacting now, read from the core's turn (a handle's
   * `turn`/`turnFor(viewer)`: `{active: [{id, stage}], order, outcome}`); a reaction the viewer may not
   * see names nobody (WT-ST-1).
   */
  function turnOf(turn) {
    const a = turn?.active?.[0];
    return { acting_team: a?.stage === "turn" ? a.id : null, reaction_for: a?.stage === "reaction" ? a.id : null, reacting: a?.stage === "reaction" };
  }

  function render(record, isGM, view, viewer = null) {
    rec = record;
    // What is shown is the viewer's view (app.js viewFor); legality comes from the stored state.
    const st = view ?? record.state;
    $("#encounter").dataset.step = String(record.step ?? 0);
    let legal = { actions: [] };
    try {
      // (a player's page holds the core's listing for its viewer, sent with its view)
      const h = live.for(W.Battle, record.state);
      legal = { ...turnOf(isGM ? h.turn : h.turnFor(viewer)), actions: h.legalActions() };
    } catch (e) {
      ctx.showError(e);
    }
    const max = st.max_rounds ? fmt(S.ofMax, { n: st.max_rounds }) : "";
    $("#phase").dataset.phase = st.phase;
    $("#phase").textContent = `${fmt(S.roundN, { n: st.round })}${max} · ${tr(PHASES[st.phase]) || st.phase} · ${tr(S[st.battle_type]) || st.battle_type}`;
    const acting = $("#acting");
    acting.dataset.team = legal.acting_team ?? "";
    acting.dataset.reaction = legal.reaction_for ?? "";
    acting.dataset.winner = st.outcome?.winner ?? "";
    acting.classList.toggle("ended", st.phase === "ended");
    if (st.phase === "ended" && st.outcome) {
      acting.textContent = `${tr(S.ended)}${colon}${h.outcome(st.outcome.reason)} — ${st.outcome.winner ? fmt(S.winner, { w: st.outcome.winner }) : tr(S.draw)}`;
    } else if (legal.reacting) {
      acting.textContent = legal.reaction_for ? fmt(S.reactionWait, { a: name(legal.reaction_for) }) : tr(S.reactionWaitHidden);
    } else if (legal.acting_team) {
      acting.textContent = `${tr(S.acting)}${colon}${legal.acting_team}`;
    } else {
      acting.textContent = tr(S.initiativeWait);
    }

    // Teams: leader, per-phase member slots, operator action, tactics-dice pool.
    const slotPhases = ["tactics", "movement", "attack"];
    const teamRows = st.teams
      .map((tm, ti) => {
        const members = st.members.filter((m) => m.team === ti);
        const cap = Math.min(MEMBERS_PER_PHASE, members.length);
        const slots = slotPhases
          .map((p) => `<span class="slot slot-${p}${st.phase === p ? " now" : ""}">${esc(tr(SLOT[p]))} ${members.filter((m) => m.used?.[p]).length}/${cap}</span>`)
          .join("");
        const initInput =
          st.phase === "initiative" && isGM
            ? `<label class="init-dice">${esc(tr(S.initDice))} <input type="number" min="0" max="20" data-team="${esc(tm.id)}" value="${mods.init[tm.id] ?? 0}"></label>`
            : "";
        return `<tr data-team="${esc(tm.id)}" class="${legal.acting_team === tm.id ? "current" : ""}">
          <td><b>${esc(tm.id)}</b><br><small>${esc(tr(S.leader))}${colon}${esc(name(tm.leader))}<br>${esc(tr(S.initiative))} ${tm.initiative ?? "—"} · ${esc(tr(S.points))} <span class="points">${tm.points ?? 0}</span></small></td>
          <td class="slots">${slots}</td>
          <td class="operator">${esc(tr(tm.operator_used ? S.used : S.ready))}</td>
          <td><span class="tactics-dice">${tm.tactics_dice ?? 0}</span>${initInput}</td></tr>`;
      })
      .join("");
    $("#wt-teams").innerHTML = `<tr><th>${esc(tr(S.team))}</th><th>${esc(tr(S.slots))}</th><th>${esc(tr(S.operator))}</th><th>${esc(tr(S.tacticsDice))}</th></tr>${teamRows}`;

    // Members: Trion, standing, conditions and special states, square, what they used.
    const onMap = (p) => p.x >= 0 && p.y >= 0 && p.x < st.map.width && p.y < st.map.height && !(st.map.off_map || []).some((o) => o.x === p.x && o.y === p.y);
    const memberRows = st.members
      .map((m) => {
        const states = Object.entries(m.states || {})
          .filter(([, v]) => v)
          .map(([k]) => tr(STATES[k]) || k);
        // (a position the viewer may not see is absent from the view: not out of bounds)
        if (m.at && !onMap(m.at)) states.push(tr(STATES.out_of_bounds));
        const conds = condLabels(m.conditions);
        const u = m.used || {};
        const active = [...(u.active_main || []), ...(u.active_sub || [])].map(h.trigger);
        const usedParts = [
          ...slotPhases.filter((p) => u[p]).map((p) => tr(SLOT[p])),
          ...(u.main_action ? [fmt(A.sideAction, { s: h.side("main") })] : []),
          ...(u.sub_action ? [fmt(A.sideAction, { s: h.side("sub") })] : []),
          ...(active.length ? [`${tr(S.activeTriggers)}${colon}${active.join(", ")}`] : []),
        ];
        return `<tr data-member="${esc(m.id)}" class="status-${esc(m.status)}${st.teams[m.team]?.id === legal.acting_team ? " acting" : ""}">
          <td>${esc(name(m.id))}<br><small>${esc(st.teams[m.team]?.id ?? "")}</small></td>
          <td class="trion">${m.trion}/${m.starting_trion}</td>
          <td class="status">${esc(tr(STATUS[m.status]) || m.status)}${[...conds, ...states].length ? `<br><small class="conds">${esc([...conds, ...states].join("、"))}</small>` : ""}</td>
          <td class="at">${esc(sq(m.at))}</td>
          <td class="used"><small>${esc(usedParts.join(" · "))}</small></td></tr>`;
      })
      .join("");
    $("#wt-members").innerHTML = `<tr><th>${esc(tr(S.member))}</th><th>${esc(tr(S.trion))}</th><th>${esc(tr(S.status))}</th><th>${esc(tr(S.square))}</th><th>${esc(tr(S.usedThisRound))}</th></tr>${memberRows}`;

    // Check modifiers (the GM's): tactics dice, Trion Burst, push destination.
    $("#wt-mods").hidden = !isGM || st.phase === "ended" || st.phase === "initiative";
    $("#wt-mods").innerHTML = `<span>${esc(tr(S.mods))}</span>
      <label>${esc(tr(S.tacticsDice))} <input id="wt-td" type="number" min="0" max="20" value="${mods.td}"></label>
      <label>${esc(tr(S.burst))} <input id="wt-burst" type="number" min="0" max="10" value="${mods.burst}"></label>
      <label>${esc(tr(S.pushTo))} <input id="wt-push" value="${esc(mods.push)}" size="5"></label>`;
    $("#wt-td").oninput = (ev) => (mods.td = Math.max(0, Number(ev.target.value) || 0));
    $("#wt-burst").oninput = (ev) => (mods.burst = Math.max(0, Number(ev.target.value) || 0));
    $("#wt-push").oninput = (ev) => (mods.push = ev.target.value);
    for (const i of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#wt-teams .init-dice input"))) {
      i.oninput = () => (mods.init[i.dataset.team ?? ""] = Math.max(0, Number(i.value) || 0));
    }

    // Legal actions: team-level first, then per member (buttons; moves and area
    // centres in a list), skills and operator actions usable at any time folded.
    const ok = (x) => (ctx.canAct(x.action) ? "" : "disabled");
    const btn = (x, i, withActor = true) =>
      `<button type="button" data-i="${i}" data-type="${esc(x.action.type)}" data-actor="${esc(x.action.actor ?? x.action.team ?? "")}" data-skill="${esc(x.action.skill ?? x.action.ability ?? "")}"${x.action.target ? ` data-target="${esc(x.action.target)}"` : ""} ${ok(x)}>${esc(describe(x.action, withActor))}${costText(x.cost) ? `<small>${esc(costText(x.cost))}</small>` : ""}</button>`;
    const now = [];
    const perMember = new Map();
    const anyTime = [];
    legal.actions.forEach((x, i) => {
      const a = x.action;
      if (a.type === "operator" || a.type === "use_ability") anyTime.push(btn(x, i));
      else if (a.type === "use_skill" || a.type === "move") {
        if (!perMember.has(a.actor)) perMember.set(a.actor, { skills: new Map(), list: [] });
        const g = perMember.get(a.actor);
        if (a.type === "move" || a.center) g.list.push([x, i]);
        else {
          // one group per skill and side; its targets as small buttons
          const k = `${a.skill}|${a.side ?? ""}`;
          if (!g.skills.has(k)) g.skills.set(k, []);
          g.skills.get(k).push([x, i]);
        }
      } else now.push(btn(x, i));
    });
    const targetBtn = (x, i, headCost) => {
      const c = costText(x.cost);
      return `<button type="button" class="target" data-i="${i}" data-type="use_skill" data-actor="${esc(x.action.actor)}" data-skill="${esc(x.action.skill)}" data-target="${esc(x.action.target)}" ${ok(x)}>→ ${esc(name(x.action.target))}${c && c !== headCost ? `<small>${esc(c)}</small>` : ""}</button>`;
    };
    const members = [...perMember.entries()]
      .map(([actor, g]) => {
        const skills = [...g.skills.values()]
          .map((entries) => {
            const [x0, i0] = entries[0];
            if (!x0.action.target) return entries.map(([x, i]) => btn(x, i, false)).join("");
            const head = costText(x0.cost);
            return `<div class="skill-group"><span class="skill-name">${esc(skill(x0.action.skill))}${x0.action.side ? ` [${esc(h.side(x0.action.side))}]` : ""}${head ? ` <small>${esc(head)}</small>` : ""}</span>${entries.map(([x, i]) => targetBtn(x, i, head)).join("")}</div>`;
          })
          .join("");
        const list = g.list.length
          ? `<span class="dest"><select data-actor="${esc(actor)}" ${ok(g.list[0][0])}>${g.list
              .map(([x, i]) => `<option value="${i}">${esc(describe(x.action, false))}${costText(x.cost) ? ` · ${esc(costText(x.cost))}` : ""}</option>`)
              .join("")}</select><button type="button" class="go" data-actor="${esc(actor)}" ${ok(g.list[0][0])}>${esc(tr(S.go))}</button></span>`
          : "";
        return `<div class="member-actions" data-actor="${esc(actor)}"><b>${esc(name(actor))}</b>${skills}${list}</div>`;
      })
      .join("");
    $("#actions").innerHTML =
      `<div class="now">${now.join("")}</div>${members}` +
      (anyTime.length ? `<details class="any-time"><summary>${esc(tr(S.anyTime))} (${anyTime.length})</summary>${anyTime.join("")}</details>` : "");
    $("#actions").onclick = (ev) => {
      const b = ev.target.closest("button");
      if (!b || b.disabled) return;
      if (b.classList.contains("go")) {
        const sel = b.parentElement.querySelector("select");
        ctx.perform(legal.actions[Number(sel.value)].action);
      } else if (b.dataset.i) ctx.perform(legal.actions[Number(b.dataset.i)].action);
    };

    // Log: each action (with its seed) and the events it produced.
    const log = $("#log");
    log.textContent = "";
    const viewers = record.state.teams.map((tm) => tm.id);
    for (const entry of (record.log || []).slice(-15)) {
      const li = document.createElement("li");
      if (entry.step != null) li.value = entry.step;
      // (as this viewer may see it: a move in Stealth without its squares)
      const seen = entryFor(entry, isGM ? null : viewer ?? "", viewers);
      if (seen.action) {
        const head = document.createElement("div");
        head.className = "act";
        head.textContent = describe(seen.action);
        if (entry.seed != null) {
          const s = document.createElement("small");
          s.textContent = ` ${tr(S.seed)} ${entry.seed}`;
          head.append(s);
        }
        li.append(head);
      }
      for (const e of seen.events || []) {
        const d = document.createElement("div");
        d.className = `ev ev-${e.type}`;
        d.textContent = eventText(e);
        li.append(d);
      }
      log.append(li);
    }
    log.scrollTop = log.scrollHeight;
  }

  return { renderSetup, start, render, act, undo, battleArgs, eventText, turnOf, describe };
}
