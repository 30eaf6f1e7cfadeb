//! `coc7.distribution` — exact probability of each level of a 7th-edition check.
//!
//! With `m = |bonus| + 1` tens dice and one ones die there are `10^(m+1)`
//! equally likely outcomes. For a fixed ones digit the ten candidate values
//! are sorted; the kept value is the k-th smallest with exact count
//! `(10−k)^m − (9−k)^m` for bonus dice (minimum) or `(k+1)^m − k^m` for penalty
//! dice (maximum). Counts are exact integers (at most 10^12); probabilities
//! are count ÷ total.

use super::check::{d100_value, evaluate, Coc7Difficulty};
use crate::error::Result;
use crate::json::{FromJson, ToJson};

/// Arguments of `coc7.distribution`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7DistributionArgs {
    /// The check.
    #[serde(flatten)]
    pub roll: crate::coc7::check::Coc7Roll,
}

/// Exact count of outcomes per level.
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7LevelCounts {
    /// Critical.
    pub critical: u64,
    /// Extreme success.
    pub extreme: u64,
    /// Hard success.
    pub hard: u64,
    /// Regular success.
    pub regular: u64,
    /// Failure.
    pub failure: u64,
    /// Fumble.
    pub fumble: u64,
}

/// Probability per level.
#[derive(Debug, Clone, Default, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7LevelOdds {
    /// Critical.
    pub critical: f64,
    /// Extreme success.
    pub extreme: f64,
    /// Hard success.
    pub hard: f64,
    /// Regular success.
    pub regular: f64,
    /// Failure.
    pub failure: f64,
    /// Fumble.
    pub fumble: f64,
}

/// Result of `coc7.distribution`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7DistributionResult {
    /// Probability of each level (sums to 1).
    pub levels: Coc7LevelOdds,
    /// Probability that the check succeeds at `difficulty`.
    pub success: f64,
    /// Exact number of dice outcomes per level.
    pub counts: Coc7LevelCounts,
    /// Exact number of outcomes meeting the difficulty.
    pub success_count: u64,
    /// Total number of equally likely dice outcomes, `10^(|bonus_dice| + 2)`.
    pub outcomes: u64,
}

/// Exact counts for validated inputs.
pub fn counts(skill: i64, bonus: i64, difficulty: Coc7Difficulty, rule: i64) -> (Coc7LevelCounts, u64, u64) {
    let m = bonus.unsigned_abs() as u32 + 1;
    let mut c = Coc7LevelCounts::default();
    let mut success = 0u64;
    for ones in 0..10u32 {
        let mut values: Vec<u32> = (0..10u32).map(|t| d100_value(t, ones)).collect();
        crate::small_sort::sort(&mut values);
        for (k, &v) in values.iter().enumerate() {
            let k = k as u64;
            let n = if bonus >= 0 { (10 - k).pow(m) - (9 - k).pow(m) } else { (k + 1).pow(m) - k.pow(m) };
            let (level, ok) = evaluate(i64::from(v), skill, difficulty, rule);
            let slot = match level {
                super::Coc7Level::Critical => &mut c.critical,
                super::Coc7Level::Extreme => &mut c.extreme,
                super::Coc7Level::Hard => &mut c.hard,
                super::Coc7Level::Regular => &mut c.regular,
                super::Coc7Level::Failure => &mut c.failure,
                super::Coc7Level::Fumble => &mut c.fumble,
            };
            *slot += n;
            if ok {
                success += n;
            }
        }
    }
    (c, success, 10u64.pow(m + 1))
}

/// `coc7.distribution` — exact odds of each level.
pub fn distribution(args: &Coc7DistributionArgs) -> Result<Coc7DistributionResult> {
    let (r, rule) = (&args.roll, args.roll.house_rule()?);
    let (c, success_count, total) = counts(r.skill, r.bonus_dice, r.difficulty, rule);
    let p = |n: u64| n as f64 / total as f64;
    Ok(Coc7DistributionResult {
        levels: Coc7LevelOdds {
            critical: p(c.critical),
            extreme: p(c.extreme),
            hard: p(c.hard),
            regular: p(c.regular),
            failure: p(c.failure),
            fumble: p(c.fumble),
        },
        success: p(success_count),
        counts: c,
        success_count,
        outcomes: total,
    })
}
