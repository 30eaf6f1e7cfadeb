// gunbai rolls -> Foundry Rolls whose dice show exactly gunbai's faces.
//
// Every gunbai result that rolled dice carries `rolls`: the faces in consumption
// order, each {sides, value, kind}. Consecutive dice of the same size and kind
// become one Die term; the Roll is rebuilt with the documented `Roll.fromData`,
// already evaluated, so Foundry does not roll again and Dice So Nice (which reads
// `roll.dice[].results`) animates the real faces. Percentile tens dice
// (kind "tens_d10") stay d10s whose face 10 reads 0, flavoured "tens".
//
// A Roll's formula and total are arithmetic, so they say only what is arithmetic:
// the dice added up, plus the constants of a plain dice expression (`2D6+3`). What a
// rule makes of the dice (a critical bonus, a shifted damage-table row, a d66
// reading, a CoC success level) is not a sum of terms; it is in the message text,
// never a made-up `+ n` term. A repeated command (`x2 …`) gives one Roll per run.

/** Group gunbai rolls into Die-term data (Foundry's `DiceTerm#toJSON` shape). */
export function dieTerms(rolls) {
  const terms = [];
  for (const r of rolls || []) {
    const last = terms[terms.length - 1];
    const flavor = r.kind === "tens_d10" ? "tens" : undefined;
    if (last && last.faces === r.sides && last.options.flavor === flavor) {
      last.number += 1;
      last.results.push({ result: r.value, active: true });
    } else {
      terms.push({
        class: "Die",
        options: flavor ? { flavor } : {},
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

const operator = (op) => ({ class: "OperatorTerm", options: {}, evaluated: true, operator: op });
const numeric = (n) => ({ class: "NumericTerm", options: {}, evaluated: true, number: n });
const dieFormula = (d) => `${d.number}d${d.faces}${d.options.flavor ? `[${d.options.flavor}]` : ""}`;

/**
 * The terms of a plain dice expression (`command.run` kind "dice", `dice.roll`:
 * `{expr, total, terms}`) when its total is exactly the signed sum of its dice and
 * constants and its dice are exactly `rolls`; else null (`2D6*2`, `D66`, ...).
 */
function sumTerms(rolls, result) {
  if (!result || !Array.isArray(result.terms) || typeof result.total !== "number") return null;
  let sum = 0;
  const faces = [];
  for (const t of result.terms) {
    if (t.kind === "dice") {
      if (!Array.isArray(t.faces) || t.faces.length !== t.count || t.faces.reduce((a, f) => a + f, 0) !== t.value) return null;
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
 * Data for `Roll.fromData`. For a plain dice expression whose total is the sum of
 * its terms, its own terms (`4d6 + 2 = 21`); otherwise the dice actually rolled,
 * joined with "+", total = the sum of their faces (`1d6 = 4` for a damage-table
 * roll of 4 shifted to row 5: the shift is the rule's, shown in the message).
 * `options.flavor` labels the Roll (`#1`, `#2` for a repeated command's runs).
 */
export function rollData(rolls, result = null, { flavor } = {}) {
  const terms = [];
  const formula = [];
  const exact = sumTerms(rolls, result);
  let total;
  if (exact) {
    for (const t of exact) {
      const sign = t.sign < 0 ? "-" : "+";
      if (terms.length || sign === "-") {
        terms.push(operator(sign));
        formula.push(sign);
      }
      if (t.kind === "dice") {
        const d = dieTerms(t.faces.map((value) => ({ sides: t.sides, value, kind: "normal" })))[0];
        terms.push(d);
        formula.push(dieFormula(d));
      } else {
        terms.push(numeric(t.value));
        formula.push(String(t.value));
      }
    }
    total = result.total;
  } else {
    dieTerms(rolls).forEach((d, i) => {
      if (i) {
        terms.push(operator("+"));
        formula.push("+");
      }
      terms.push(d);
      formula.push(dieFormula(d));
    });
    total = (rolls || []).reduce((a, r) => a + r.value, 0);
  }
  return {
    class: "Roll",
    options: flavor ? { flavor } : {},
    dice: [],
    formula: formula.length ? formula.join(" ").replace(/^- /, "-") : "0",
    terms: terms.length ? terms : [numeric(0)],
    total,
    evaluated: true,
  };
}

/** A Foundry Roll (already evaluated) carrying gunbai's faces. */
export function toRoll(rolls, result = null, opts = {}) {
  return globalThis.Roll.fromData(rollData(rolls, result, opts));
}

/**
 * The Rolls of one `command.run` (or `dice.roll`) result: one per run of a repeated
 * command (each with that run's own dice), else one; none when nothing was rolled.
 * `out` is a `command.run` reply, or the module's `runCommand` output (which also
 * keeps the whole reply in `out.result`).
 */
export function resultRolls(out) {
  const reply = out.result && (Array.isArray(out.result.repeats) || "matched" in out.result) ? out.result : out;
  if (Array.isArray(reply.repeats) && reply.repeats.length) {
    return reply.repeats
      .map((r, i) => (r.rolls?.length ? toRoll(r.rolls, r.result, { flavor: `#${i + 1}` }) : null))
      .filter(Boolean);
  }
  // command.run keeps the system's own result in `result`; dice.roll is that result
  const own = [reply.result, reply].find((r) => r && Array.isArray(r.terms)) ?? null;
  return out.rolls?.length ? [toRoll(out.rolls, own)] : [];
}
