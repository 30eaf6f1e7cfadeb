//! `coc7.opposed` — two 7th-edition checks against each other; `coc7.opposed_chance`
//! — their exact odds.
//!
//! The higher level wins; equal levels go to the higher skill; equal skills
//! are a tie. `both_failed` reports the 7th-edition case where neither side
//! succeeded, so callers can apply "nobody wins" where their table does.

use super::check::{roll_check, validate_bonus, validate_skill, Coc7Difficulty, Coc7Outcome};
use super::odds::counts;
use super::Coc7Level;
use crate::dice::Roll;
use crate::error::Result;
use crate::json::{FromJson, ToJson};

/// One side of an opposed roll.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7OpposedSide {
    /// Skill or characteristic value, 0–999.
    #[schemars(range(min = 0, max = 999))]
    pub skill: i64,
    /// Bonus dice −10…10 (negative = penalty dice). Default 0.
    #[serde(default)]
    #[schemars(range(min = -10, max = 10))]
    pub bonus_dice: i64,
}

/// Who won an opposed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Coc7Winner {
    /// Side `a`.
    A,
    /// Side `b`.
    B,
    /// Same level and same skill.
    Tie,
}

/// An opposed check as it is asked for: its two sides and the house rule. Declared once
/// and flattened into `coc7.opposed` and `coc7.opposed_chance`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7OpposedPair {
    /// First side.
    pub a: Coc7OpposedSide,
    /// Second side.
    pub b: Coc7OpposedSide,
    /// House rule 0–5 (see `coc7.check`). Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 5))]
    pub rule: i64,
    /// Rule variants (RULINGS.md): `coc7_rule`, the same house rule as `rule`.
    #[serde(default)]
    pub variants: crate::coc7::check::Coc7Variants,
}

impl Coc7OpposedPair {
    /// The house rule in effect, once both sides' values and dice and the rule are in
    /// range (`out_of_range` naming the field otherwise).
    fn house_rule(&self) -> Result<i64> {
        validate_skill("a.skill", self.a.skill)?;
        validate_bonus("a.bonus_dice", self.a.bonus_dice)?;
        validate_skill("b.skill", self.b.skill)?;
        validate_bonus("b.bonus_dice", self.b.bonus_dice)?;
        crate::coc7::check::rule_of(self.rule, self.variants.coc7_rule)
    }
}

/// Arguments of `coc7.opposed`.
///
/// `rolls`: Scripted faces: side `a`'s tens dice then ones die, then side `b`'s.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7OpposedArgs {
    /// The two sides and the house rule.
    #[serde(flatten)]
    pub pair: Coc7OpposedPair,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `coc7.opposed`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7OpposedResult {
    /// Side `a`'s check.
    pub a: Coc7Outcome,
    /// Side `b`'s check.
    pub b: Coc7Outcome,
    /// Higher level wins, then higher skill, else a tie.
    pub winner: Coc7Winner,
    /// Neither side reached a regular success.
    pub both_failed: bool,
    /// Every die rolled: `a`'s dice, then `b`'s.
    pub rolls: Vec<Roll>,
}

/// The winner of two evaluated checks.
pub fn winner_of(a: &Coc7Outcome, b: &Coc7Outcome) -> Coc7Winner {
    winner_by((a.level, a.skill), (b.level, b.skill))
}

/// The winner of two (level, skill) pairs: higher level, then higher skill, else a tie.
fn winner_by(a: (Coc7Level, i64), b: (Coc7Level, i64)) -> Coc7Winner {
    use std::cmp::Ordering::*;
    match a.0.rank().cmp(&b.0.rank()).then(a.1.cmp(&b.1)) {
        Greater => Coc7Winner::A,
        Less => Coc7Winner::B,
        Equal => Coc7Winner::Tie,
    }
}

/// Arguments of `coc7.opposed_chance`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7OpposedChanceArgs {
    /// The two sides and the house rule.
    #[serde(flatten)]
    pub pair: Coc7OpposedPair,
}

/// Result of `coc7.opposed_chance`: exact probabilities of `coc7.opposed`'s outcomes.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7OpposedChanceResult {
    /// Side `a` wins (`a`, `b` and `tie` sum to 1).
    pub a: f64,
    /// Side `b` wins.
    pub b: f64,
    /// Same level and same skill.
    pub tie: f64,
    /// Neither side reaches a regular success (whoever "wins").
    pub both_failed: f64,
}

/// `coc7.opposed_chance` — the exact odds of `coc7.opposed`: each side's level
/// distribution (`coc7.distribution`'s exact counts), combined pair by pair with the
/// same comparison `coc7.opposed` uses.
///
/// ```
/// use serde_json::json;
/// let r = gunbai::call("coc7.opposed_chance", json!({"a": {"skill": 50}, "b": {"skill": 50}})).unwrap();
/// let (a, b, tie) = (r["a"].as_f64().unwrap(), r["b"].as_f64().unwrap(), r["tie"].as_f64().unwrap());
/// assert!((a - b).abs() < 1e-12 && (a + b + tie - 1.0).abs() < 1e-12); // equal skills: symmetric
/// ```
pub fn opposed_chance(args: &Coc7OpposedChanceArgs) -> Result<Coc7OpposedChanceResult> {
    let (rule, args) = (args.pair.house_rule()?, &args.pair);
    let side = |s: &Coc7OpposedSide| {
        let (c, _, total) = counts(s.skill, s.bonus_dice, Coc7Difficulty::Regular, rule);
        let levels = [
            (Coc7Level::Critical, c.critical),
            (Coc7Level::Extreme, c.extreme),
            (Coc7Level::Hard, c.hard),
            (Coc7Level::Regular, c.regular),
            (Coc7Level::Failure, c.failure),
            (Coc7Level::Fumble, c.fumble),
        ];
        (levels, total)
    };
    let (la, ta) = side(&args.a);
    let (lb, tb) = side(&args.b);
    // Each pair's probability is the product of the sides' exact level probabilities.
    let (mut a, mut b, mut tie, mut both_failed) = (0.0, 0.0, 0.0, 0.0);
    for &(level_a, na) in &la {
        for &(level_b, nb) in &lb {
            let p = (na as f64 / ta as f64) * (nb as f64 / tb as f64);
            match winner_by((level_a, args.a.skill), (level_b, args.b.skill)) {
                Coc7Winner::A => a += p,
                Coc7Winner::B => b += p,
                Coc7Winner::Tie => tie += p,
            }
            if !level_a.is_success() && !level_b.is_success() {
                both_failed += p;
            }
        }
    }
    Ok(Coc7OpposedChanceResult { a, b, tie, both_failed })
}

/// `coc7.opposed` — roll both sides and compare.
///
/// Scripted `rolls`: side `a`'s tens dice and ones die, then side `b`'s.
pub fn opposed(args: &Coc7OpposedArgs) -> Result<Coc7OpposedResult> {
    let rule = args.pair.house_rule()?;
    let mut dice = args.source.dice()?;
    let args = &args.pair;
    let a = roll_check(&mut dice, args.a.skill, args.a.bonus_dice, Coc7Difficulty::Regular, rule)?;
    let b = roll_check(&mut dice, args.b.skill, args.b.bonus_dice, Coc7Difficulty::Regular, rule)?;
    let winner = winner_of(&a, &b);
    let both_failed = !a.level.is_success() && !b.level.is_success();
    Ok(Coc7OpposedResult { a, b, winner, both_failed, rolls: dice.take_rolls() })
}
