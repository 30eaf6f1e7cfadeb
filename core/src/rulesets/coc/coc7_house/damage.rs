//! `coc7_house.damage` — damage rolls with Extreme-success doubling
//! (C7H-ACT-2, C7H-ACT-3).
//!
//! The weapon's base damage `expr` is doubled on an Extreme success or better
//! (`extreme: true`); the damage bonus (`bonus`) and buffs / added effects
//! (`extra`) never are. `variants.extreme_damage`:
//! * `double_dice` (default, RULINGS): roll twice as many base dice (2d6 → 4d6);
//! * `double_total`: roll the base dice once and double their total.
//!
//! Constants inside `expr` are not dice, so they are never doubled.
//! Scripted `rolls`: the dice of `expr` term by term (a doubled `NdS` rolls
//! `2N` dice there), then `bonus`, then `extra`.

use crate::dice::expr::{roll_with, DiceTermKind};
use crate::dice::{Dice, Roll};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// How an Extreme success doubles base damage (`variant: extreme_damage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hExtremeDamage {
    /// Roll twice as many base damage dice (default).
    #[default]
    DoubleDice,
    /// Double the base dice total.
    DoubleTotal,
}

/// RULINGS variants of the 7th-edition house combat (every `coc7_house` op that
/// rolls or deals damage takes the same object; each uses the ones it needs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hVariants {
    /// `variant: extreme_damage`: `double_dice` (default) or `double_total` (`coc7_house.damage`).
    #[serde(default)]
    pub extreme_damage: C7hExtremeDamage,
    /// `variant: coc7_rule`: the house rule 0–5 of the rolls (`setcoc` numbering, see
    /// `coc7.check`; 0, the rulebook, is the default). The same setting as the op's
    /// `rule` shorthand: give either.
    #[serde(default)]
    #[schemars(range(min = 0, max = 5))]
    pub coc7_rule: i64,
}

/// Arguments of `coc7_house.damage`.
///
/// `rolls`: Scripted faces: `expr`'s dice term by term, then `bonus`, then `extra`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hDamageArgs {
    /// Base damage of the weapon, spell or skill (a `dice.roll` expression, e.g. `1d8+1d4`).
    pub expr: String,
    /// Damage bonus, its own term (e.g. `1d4`, `-1`); never doubled. Optional.
    #[serde(default)]
    pub bonus: Option<String>,
    /// Buffs and added-effect damage (e.g. `1d6`); never doubled. Optional.
    #[serde(default)]
    pub extra: Option<String>,
    /// The hit roll was an Extreme success or better (C7H-ACT-2). Default false.
    #[serde(default)]
    pub extreme: bool,
    /// Variants.
    #[serde(default)]
    pub variants: C7hVariants,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Where a damage term comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hDamageSource {
    /// The weapon / spell / skill's base damage.
    Base,
    /// Damage bonus.
    Bonus,
    /// Buffs and added effects.
    Extra,
}

/// One rolled damage term.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hDamageTerm {
    /// Source of the term.
    pub source: C7hDamageSource,
    /// The term as rolled (`4D6` when doubled dice).
    pub text: String,
    /// +1 or −1.
    pub sign: i8,
    /// Faces rolled.
    pub faces: Vec<u32>,
    /// The term's signed value, after any doubling.
    pub value: i64,
    /// This term was doubled.
    pub doubled: bool,
}

/// Result of `coc7_house.damage`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hDamageResult {
    /// Total damage, never below 0.
    pub total: i64,
    /// Sum before the floor at 0.
    pub raw_total: i64,
    /// Every term, base first.
    pub terms: Vec<C7hDamageTerm>,
    /// Base damage was doubled (C7H-ACT-2).
    pub doubled: bool,
    /// Every die rolled, in order.
    pub rolls: Vec<Roll>,
}

fn roll_part(
    expr: &str,
    field: &str,
    source: C7hDamageSource,
    double: Option<C7hExtremeDamage>,
    dice: &mut Dice,
    out: &mut Vec<C7hDamageTerm>,
) -> Result<()> {
    let retag = |e: Error| {
        if e.field.as_deref() == Some("expr") {
            e.relocated(crate::error::loc_of(field))
        } else {
            e
        }
    };
    // Parse once with a throw-away source to learn the terms, then roll for real.
    let mut probe = Dice::seeded(0)?;
    let (_, shape) = roll_with(expr, &mut probe).map_err(retag)?;
    for t in shape {
        let sign = t.sign;
        let doubled = double.is_some() && t.kind != DiceTermKind::Constant;
        let (text, faces, value) = match (t.kind, double) {
            (DiceTermKind::Constant, _) => (t.text.clone(), Vec::new(), t.value),
            (DiceTermKind::D66, Some(C7hExtremeDamage::DoubleDice)) => {
                let (_, a) = roll_with("D66+D66", dice)?;
                let faces: Vec<u32> = a.iter().flat_map(|x| x.faces.clone()).collect();
                ("D66+D66".into(), faces, a.iter().map(|x| x.value).sum())
            }
            (DiceTermKind::Dice, Some(C7hExtremeDamage::DoubleDice)) => {
                let n = t.count.saturating_mul(2);
                let text = format!("{n}D{}", t.sides);
                let (v, terms) = roll_with(&text, dice).map_err(retag)?;
                (text, terms.into_iter().flat_map(|x| x.faces).collect(), v)
            }
            (_, mode) => {
                let (v, terms) = roll_with(&t.text, dice)?;
                let v = if mode == Some(C7hExtremeDamage::DoubleTotal) { v.saturating_mul(2) } else { v };
                (t.text.clone(), terms.into_iter().flat_map(|x| x.faces).collect(), v)
            }
        };
        out.push(C7hDamageTerm {
            source,
            text,
            sign,
            faces,
            value: i64::from(sign).saturating_mul(value),
            doubled,
        });
    }
    Ok(())
}

/// The exact distribution of `expr`'s total, doubled as [`roll_part`] doubles it.
#[cfg(feature = "odds")]
fn part_pmf(expr: &str, field: &str, double: Option<C7hExtremeDamage>) -> Result<crate::coc::odds::Pmf> {
    use crate::coc::odds::{term_pmf, Pmf};
    let mut probe = Dice::seeded(0)?;
    let (_, shape) = roll_with(expr, &mut probe).map_err(|e| e.relocated(crate::error::loc_of(field)))?;
    let mut total = Pmf::point(0);
    for t in shape {
        let term = match (t.kind, double) {
            (DiceTermKind::Constant, _) => term_pmf(&t, field)?,
            (DiceTermKind::D66, Some(C7hExtremeDamage::DoubleDice)) => {
                term_pmf(&t, field)?.add(&term_pmf(&t, field)?, field)?
            }
            (DiceTermKind::Dice, Some(C7hExtremeDamage::DoubleDice)) => {
                Pmf::dice(u64::from(t.count) * 2, u64::from(t.sides), field)?
            }
            (_, Some(C7hExtremeDamage::DoubleTotal)) => term_pmf(&t, field)?.times(2),
            (_, None) => term_pmf(&t, field)?,
        };
        total = total.add(&term.times(i64::from(t.sign)), field)?;
    }
    Ok(total)
}

/// The exact distribution of [`damage_with`]'s `total` (C7H-ACT-2 / C7H-ACT-3): the
/// base damage doubled on an Extreme success, the bonus and extra never, floored at 0.
#[cfg(feature = "odds")]
pub(crate) fn damage_pmf(args: &C7hDamageArgs, field: &str) -> Result<crate::coc::odds::Pmf> {
    crate::coc7::check::validate_rule("variants.coc7_rule", args.variants.coc7_rule)?;
    let double = args.extreme.then_some(args.variants.extreme_damage);
    let mut total = part_pmf(&args.expr, field, double)?;
    for b in [&args.bonus, &args.extra].into_iter().flatten() {
        total = total.add(&part_pmf(b, field, None)?, field)?;
    }
    Ok(total.floor0())
}

/// `coc7_house.damage` — C7H-ACT-2 / C7H-ACT-3.
pub fn damage(args: &C7hDamageArgs) -> Result<C7hDamageResult> {
    let mut dice = args.source.dice()?;
    damage_with(args, &mut dice)
}

/// [`damage`] with the caller's dice (`args.source` is not read): the round rolls an
/// exchange's damage on the dice of its action.
pub(crate) fn damage_with(args: &C7hDamageArgs, dice: &mut Dice) -> Result<C7hDamageResult> {
    // Damage rolls no d100, but the shared variants object is still validated:
    // a `coc7_rule` of 9 is refused here as by every other op that takes it.
    crate::coc7::check::validate_rule("variants.coc7_rule", args.variants.coc7_rule)?;
    let start = dice.rolls().len();
    let mut terms = Vec::new();
    let double = args.extreme.then_some(args.variants.extreme_damage);
    roll_part(&args.expr, "expr", C7hDamageSource::Base, double, dice, &mut terms)?;
    if let Some(b) = &args.bonus {
        roll_part(b, "bonus", C7hDamageSource::Bonus, None, dice, &mut terms)?;
    }
    if let Some(x) = &args.extra {
        roll_part(x, "extra", C7hDamageSource::Extra, None, dice, &mut terms)?;
    }
    let raw_total = terms.iter().fold(0i64, |a, t| a.saturating_add(t.value));
    Ok(C7hDamageResult {
        total: raw_total.max(0),
        raw_total,
        terms,
        doubled: args.extreme,
        rolls: dice.rolls_since(start),
    })
}
