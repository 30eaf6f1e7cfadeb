//! `coc7.opposed` — two 7th-edition checks against each other.
//!
//! The higher level wins; equal levels go to the higher skill; equal skills
//! are a tie. `both_failed` reports the 7th-edition case where neither side
//! succeeded, so callers can apply "nobody wins" where their table does.

use super::check::{roll_check, validate_bonus, validate_skill, Coc7Difficulty, Coc7Outcome};
use crate::dice::{Dice, Roll, ScriptedFace};
use crate::error::Result;
use crate::json::{FromJson, ToJson};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One side of an opposed roll.
#[derive(Debug, Clone, Default, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Coc7OpposedSide {
    /// Skill or characteristic value, 0–999.
    pub skill: i64,
    /// Bonus dice −10…10 (negative = penalty dice). Default 0.
    #[serde(default)]
    pub bonus_dice: i64,
}

/// Who won an opposed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Coc7Winner {
    /// Side `a`.
    A,
    /// Side `b`.
    B,
    /// Same level and same skill.
    Tie,
}

/// Arguments of `coc7.opposed`.
#[derive(Debug, Clone, Default, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Coc7OpposedArgs {
    /// First side.
    pub a: Coc7OpposedSide,
    /// Second side.
    pub b: Coc7OpposedSide,
    /// House rule 0–5 (see `coc7.check`). Default 0.
    #[serde(default)]
    pub rule: i64,
    /// Rule variants (RULINGS.md): `coc7_rule`, the same house rule as `rule`.
    #[serde(default)]
    pub variants: crate::coc7::check::Coc7Variants,
    /// Seed for the `gunbai-dice-v1` PRNG, `0 <= seed < 2^53`.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Scripted faces: side `a`'s tens dice then ones die, then side `b`'s.
    #[serde(default)]
    pub rolls: Option<Vec<ScriptedFace>>,
}

/// Result of `coc7.opposed`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
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
    use std::cmp::Ordering::*;
    match a.level.rank().cmp(&b.level.rank()).then(a.skill.cmp(&b.skill)) {
        Greater => Coc7Winner::A,
        Less => Coc7Winner::B,
        Equal => Coc7Winner::Tie,
    }
}

/// `coc7.opposed` — roll both sides and compare.
///
/// Scripted `rolls`: side `a`'s tens dice and ones die, then side `b`'s.
pub fn opposed(args: &Coc7OpposedArgs) -> Result<Coc7OpposedResult> {
    validate_skill("a.skill", args.a.skill)?;
    validate_bonus("a.bonus_dice", args.a.bonus_dice)?;
    validate_skill("b.skill", args.b.skill)?;
    validate_bonus("b.bonus_dice", args.b.bonus_dice)?;
    let rule = crate::coc7::check::rule_of(args.rule, args.variants.coc7_rule)?;
    let mut dice = Dice::from_args(args.seed, args.rolls.as_deref())?;
    let a = roll_check(&mut dice, args.a.skill, args.a.bonus_dice, Coc7Difficulty::Regular, rule)?;
    let b = roll_check(&mut dice, args.b.skill, args.b.bonus_dice, Coc7Difficulty::Regular, rule)?;
    let winner = winner_of(&a, &b);
    let both_failed = !a.level.is_success() && !b.level.is_success();
    Ok(Coc7OpposedResult { a, b, winner, both_failed, rolls: dice.take_rolls() })
}
