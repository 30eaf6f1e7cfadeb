// gunbai rolls -> Foundry Rolls whose dice show exactly gunbai's faces.
//
// Approach: gunbai rolls, and the Roll carries its faces. Every gunbai result
// that rolled dice carries `rolls` (the faces in consumption order, each
// {sides, value, kind}); the Roll is rebuilt with the documented `Roll.fromData`,
// already evaluated, so Foundry does not roll again and Dice So Nice (which reads
// `roll.dice[].results`) animates the real faces.
//
// A Roll's total is honest: it is the check's result when the result is the sum
// of the Roll's terms (plain dice with constants `2D6+3`; a CoC percentile roll,
// shown as Foundry d100s with the bonus/penalty alternatives kept by `kl`/`kh`),
// else the Roll is flavoured "dice only" and its total is the sum of the dice it
// shows (the message gives the rule's result: a critical bonus, a shifted table
// row, a D66 reading).
//
// Dice So Nice: a plain d10 is the module's `GunbaiD10` term (denomination `t`)
// so its face 10 reads "10" (Dice So Nice's own d10 reads "0"); a lone
// percentile tens die is `GunbaiTensDie` (denomination `p`) reading 00–90; a
// Foundry d100 is shown by Dice So Nice as its tens (00–90) and units dice.

/** Face label of one gunbai die as the table reads it (tens dice 00–90; a d10's 10 is "10"). */
export function faceLabel(/** @type {{sides: number, value: number, kind?: string}} */ r) {
  if (r.kind === "tens_d10") return String((r.value % 10) * 10).padStart(2, "0");
  return String(r.value);
}

/** What a die adds to a dice-only total: its face as shown (a tens die 0–90). */
const shownValue = (/** @type {{sides: number, value: number, kind?: string}} */ r) => (r.kind === "tens_d10" ? (r.value % 10) * 10 : r.value);

/**
 * Faces of gunbai rolls with their labels, for the message text.
 * @param {{sides: number, value: number, kind?: string}[]} rolls
 */
export function rollFaceLabels(rolls) {
  return (rolls || []).map((r) => ({ sides: r.sides, value: r.value, label: faceLabel(r) }));
}

/**
 * Register the module's dice terms (call in `init`) and their Dice So Nice
 * presets (on `diceSoNiceReady`).
 */
export function registerDice() {
  const Die = foundry.dice.terms.Die;
  class GunbaiD10 extends Die {
    /** @param {any} termData */
    constructor(termData = {}) {
      super({ ...termData, faces: 10 });
    }
    static DENOMINATION = "t";
    /** @param {any} result */
    getResultLabel(result) {
      return String(result.result);
    }
  }
  class GunbaiTensDie extends Die {
    /** @param {any} termData */
    constructor(termData = {}) {
      super({ ...termData, faces: 10 });
    }
    static DENOMINATION = "p";
    /** @param {any} result */
    getResultLabel(result) {
      return String((result.result % 10) * 10).padStart(2, "0");
    }
    /** The tens as shown (0–90), not the die's 1–10. */
    get total() {
      return this.results.filter((r) => r.active).reduce((a, r) => a + (r.result % 10) * 10, 0);
    }
  }
  const cfg = CONFIG.Dice;
  cfg.terms.t = GunbaiD10;
  cfg.terms.p = GunbaiTensDie;
  if (cfg.termTypes) Object.assign(cfg.termTypes, { GunbaiD10, GunbaiTensDie });
  Hooks.once("diceSoNiceReady", (dice3d) => {
    dice3d.addDicePreset({ type: "dt", labels: ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"], system: "standard" }, "d10");
    dice3d.addDicePreset({ type: "dp", labels: ["10", "20", "30", "40", "50", "60", "70", "80", "90", "00"], system: "standard" }, "d10");
  });
  return { GunbaiD10, GunbaiTensDie };
}

/** @typedef {{sides: number, value: number, kind?: string}} GunbaiRoll one die gunbai rolled */

/**
 * Group gunbai rolls into Die-term data (Foundry's `DiceTerm#toJSON` shape).
 * @param {GunbaiRoll[]} rolls
 * @returns {any[]}
 */
export function dieTerms(rolls) {
  /** @type {any[]} */
  const terms = [];
  for (const r of rolls || []) {
    const last = terms[terms.length - 1];
    const cls = r.kind === "tens_d10" ? "GunbaiTensDie" : r.sides === 10 ? "GunbaiD10" : "Die";
    if (last && last.faces === r.sides && last.class === cls) {
      last.number += 1;
      last.results.push({ result: r.value, active: true });
    } else {
      terms.push({
        class: cls,
        options: {},
        evaluated: true,
        number: 1,
        faces: r.sides,
        modifiers: [],
        results: [{ result: r.value, active: true }],
      });
    }
  }
  return terms;
}

const operator = (/** @type {string} */ op) => ({ class: "OperatorTerm", options: {}, evaluated: true, operator: op });
const numeric = (/** @type {number} */ n) => ({ class: "NumericTerm", options: {}, evaluated: true, number: n });
const DENOM = /** @type {Record<string, string>} */ ({ GunbaiD10: "t", GunbaiTensDie: "p" });
const dieFormula = (/** @type {any} */ d) => `${d.number}d${DENOM[d.class] ?? d.faces}${d.modifiers?.length ? d.modifiers.join("") : ""}`;

/**
 * The terms of a plain dice expression (`command.run` kind "dice", `dice.roll`:
 * `{expr, total, terms}`) when its total is exactly the signed sum of its dice and
 * constants and its dice are exactly `rolls`; else null (`2D6*2`, `D66`, ...).
 */
/**
 * @param {GunbaiRoll[]} rolls
 * @param {any} result
 * @returns {any[] | null}
 */
function sumTerms(rolls, result) {
  if (!result || !Array.isArray(result.terms) || typeof result.total !== "number") return null;
  let sum = 0;
  /** @type {number[]} */
  const faces = [];
  for (const t of result.terms) {
    if (t.kind === "dice") {
      if (!Array.isArray(t.faces) || t.faces.length !== t.count || t.faces.reduce((/** @type {number} */ a, /** @type {number} */ f) => a + f, 0) !== t.value) return null;
      faces.push(...t.faces);
    } else if (t.kind !== "constant") return null;
    sum += (t.sign < 0 ? -1 : 1) * t.value;
  }
  if (sum !== result.total) return null;
  const rolled = (rolls || []).map((r) => (r.kind === "normal" || r.kind === undefined ? r.value : NaN));
  if (rolled.length !== faces.length || rolled.some((v, i) => v !== faces[i])) return null;
  return result.terms;
}

/**
 * A CoC 7th percentile check (`result.candidates`, `result.roll`: the tens dice,
 * then one units die) as Foundry d100s: one d100 per candidate, the one kept
 * active (`kl` for bonus dice, `kh` for penalty dice). Its total is the check's
 * roll. Null when the dice are not exactly that shape.
 * @param {{sides: number, value: number, kind?: string}[]} rolls
 * @param {any} result
 */
function percentileTerm(rolls, result) {
  if (!result || !Array.isArray(result.candidates) || typeof result.roll !== "number" || !rolls?.length) return null;
  const tens = rolls.filter((r) => r.kind === "tens_d10");
  const units = rolls.filter((r) => r.kind !== "tens_d10");
  if (tens.length !== result.candidates.length || units.length !== 1 || units[0].sides !== 10) return null;
  const kept = result.candidates.indexOf(result.roll);
  if (kept < 0 || result.candidates.some((/** @type {any} */ c) => !(Number.isInteger(c) && c >= 1 && c <= 100))) return null;
  const bonus = result.bonus_dice ?? 0;
  return {
    class: "Die",
    options: {},
    evaluated: true,
    number: result.candidates.length,
    faces: 100,
    modifiers: result.candidates.length > 1 ? [bonus > 0 ? "kl" : "kh"] : [],
    results: result.candidates.map((/** @type {number} */ c, /** @type {number} */ i) => (i === kept ? { result: c, active: true } : { result: c, active: false, discarded: true })),
  };
}

/**
 * Data for `Roll.fromData`, with an honest total:
 * - a plain dice expression whose total is the sum of its terms: its own terms
 *   (`4d6 + 2 = 21`);
 * - a CoC percentile check: d100s, total = the check's roll (`2d100kl = 20`);
 * - otherwise the dice actually rolled, joined with "+", total = the sum of the
 *   faces as shown; when that is not the reported result (`reported`), or
 *   `diceOnly` is set, the Roll is flavoured "dice only" (a damage-table roll of 4
 *   shifted to row 5 is `1d6 = 4`: the shift is the rule's, in the message).
 * `flavor` labels the Roll (`#1`, `#2` for a repeated command's runs).
 * @param {{sides: number, value: number, kind?: string}[]} rolls
 * @param {any} [result]
 * @param {{flavor?: string, reported?: number | null, diceOnly?: boolean}} [opts]
 */
export function rollData(rolls, result = null, { flavor, reported = null, diceOnly = false } = {}) {
  /** @type {any[]} */
  const terms = [];
  /** @type {string[]} */
  const formula = [];
  const exact = diceOnly ? null : sumTerms(rolls, result);
  const pct = diceOnly || exact ? null : percentileTerm(rolls, result);
  let total;
  let onlyDice = false;
  if (exact) {
    for (const t of exact) {
      const sign = t.sign < 0 ? "-" : "+";
      if (terms.length || sign === "-") {
        terms.push(operator(sign));
        formula.push(sign);
      }
      if (t.kind === "dice") {
        const d = dieTerms(t.faces.map((/** @type {number} */ value) => ({ sides: t.sides, value, kind: "normal" })))[0];
        terms.push(d);
        formula.push(dieFormula(d));
      } else {
        terms.push(numeric(t.value));
        formula.push(String(t.value));
      }
    }
    total = result.total;
  } else if (pct) {
    terms.push(pct);
    formula.push(dieFormula(pct));
    total = result.roll;
  } else {
    dieTerms(rolls).forEach((d, i) => {
      if (i) {
        terms.push(operator("+"));
        formula.push("+");
      }
      terms.push(d);
      formula.push(dieFormula(d));
    });
    total = (rolls || []).reduce((a, r) => a + shownValue(r), 0);
    onlyDice = diceOnly || reported === null || reported !== total;
  }
  const label = onlyDice ? diceOnlyLabel() : "";
  const fl = [flavor, label].filter(Boolean).join(" · ");
  return {
    class: "Roll",
    options: fl ? { flavor: fl } : {},
    dice: [],
    formula: formula.length ? formula.join(" ").replace(/^- /, "-") : "0",
    terms: terms.length ? terms : [numeric(0)],
    total,
    evaluated: true,
  };
}

/** "dice only" in the user's language (the Roll's flavour when its total is not the result). */
function diceOnlyLabel() {
  // (also called outside Foundry, by the tests of the dice module: no `game` there)
  const g = typeof game === "undefined" ? undefined : game;
  const v = g?.i18n?.localize?.("GUNBAI.DiceOnly");
  return v && v !== "GUNBAI.DiceOnly" ? v : "dice only";
}

/**
 * A Foundry Roll (already evaluated) carrying gunbai's faces.
 * @param {{sides: number, value: number, kind?: string}[]} rolls
 * @param {any} [result]
 * @param {{flavor?: string, reported?: number | null, diceOnly?: boolean}} [opts]
 */
export function toRoll(rolls, result = null, opts = {}) {
  // Roll.fromData takes Roll#toJSON's shape; the types' Roll.Data (13.345.1) also asks
  // for `results`, which Roll#toJSON does not write (a cast the types force)
  return Roll.fromData(/** @type {any} */ (rollData(rolls, result, opts)));
}

/**
 * The Rolls of one `command.run` (or `dice.roll`) result: one per run of a repeated
 * command (each with that run's own dice), else one; none when nothing was rolled.
 * `out` is a `command.run` reply, or the module's `runCommand` output (which also
 * keeps the whole reply in `out.result`).
 */
export function resultRolls(/** @type {any} */ out) {
  const reply = out.result && (Array.isArray(out.result.repeats) || "matched" in out.result) ? out.result : out;
  if (Array.isArray(reply.repeats) && reply.repeats.length) {
    return reply.repeats
      .map((/** @type {any} */ r, /** @type {number} */ i) => (r.rolls?.length ? toRoll(r.rolls, r.result, { flavor: `#${i + 1}`, reported: r.total ?? null }) : null))
      .filter(Boolean);
  }
  // command.run keeps the system's own result in `result`; dice.roll is that result
  const own = [reply.result, reply].find((r) => r && Array.isArray(r.terms)) ?? reply.result ?? null;
  return out.rolls?.length ? [toRoll(out.rolls, own, { reported: typeof out.total === "number" ? out.total : null })] : [];
}
