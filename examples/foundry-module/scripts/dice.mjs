// gunbai rolls -> a Foundry Roll whose dice show exactly gunbai's faces.
//
// Every gunbai result that rolled dice carries `rolls`: the faces in consumption
// order, each {sides, value, kind}. Consecutive dice of the same size and kind
// become one Die term; the Roll is rebuilt with the documented `Roll.fromData`,
// already evaluated, so Foundry does not roll again and Dice So Nice (which reads
// `roll.dice[].results`) animates the real faces. Percentile tens dice
// (kind "tens_d10") stay d10s whose face 10 reads 0, flavoured "tens".

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

/**
 * Data for `Roll.fromData`: the dice joined with "+", total = gunbai's total when
 * it has one. When the total is the faces plus a constant (`2d6+3`), the constant
 * becomes a NumericTerm so formula and total agree; percentile results (tens
 * dice) keep gunbai's total as it is.
 */
export function rollData(rolls, total) {
  const dice = dieTerms(rolls);
  const terms = [];
  const op = (operator) => ({ class: "OperatorTerm", options: {}, evaluated: true, operator });
  dice.forEach((d, i) => {
    if (i) terms.push(op("+"));
    terms.push(d);
  });
  const sum = (rolls || []).reduce((a, r) => a + r.value, 0);
  const percentile = (rolls || []).some((r) => r.kind === "tens_d10");
  const constant = typeof total === "number" && !percentile ? total - sum : 0;
  if (constant && terms.length) {
    terms.push(op(constant < 0 ? "-" : "+"));
    terms.push({ class: "NumericTerm", options: {}, evaluated: true, number: Math.abs(constant) });
  }
  let formula = dice.map((d) => `${d.number}d${d.faces}${d.options.flavor ? `[${d.options.flavor}]` : ""}`).join(" + ");
  if (constant && formula) formula += ` ${constant < 0 ? "-" : "+"} ${Math.abs(constant)}`;
  return {
    class: "Roll",
    options: {},
    dice: [],
    formula: formula || "0",
    terms: terms.length ? terms : [{ class: "NumericTerm", options: {}, evaluated: true, number: 0 }],
    total: typeof total === "number" ? total : sum,
    evaluated: true,
  };
}

/** A Foundry Roll (already evaluated) carrying gunbai's faces. */
export function toRoll(rolls, total) {
  return globalThis.Roll.fromData(rollData(rolls, total));
}
