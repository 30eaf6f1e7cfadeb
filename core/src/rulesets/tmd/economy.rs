//! The 14-AP conversion economy as stateless operations:
//! `tmd.conversion_limits`, `tmd.convert` and `tmd.action_seconds`.

use super::actions::{
    TmdActionType, TmdConversionApBasis, TmdConvertType, TmdTypeCounts, TmdVariants, MAX_AP,
};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Most actions in one `convert` or `action_seconds` call.
pub const MAX_ACTIONS: usize = 1000;
/// TMD-TIME-1: a combat round lasts 12 seconds.
pub const ROUND_SECONDS: u32 = 12;

/// Arguments of `tmd.conversion_limits`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdConversionLimitsArgs {
    /// The AP total (base + extra), 0..=100000.
    #[schemars(range(min = 0, max = 100000))]
    pub ap: u32,
}

/// Result of `tmd.conversion_limits`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdConversionLimitsResult {
    /// Conversions allowed per type: 1 + floor(ap ÷ 24 / 12 / 6 / 3) for standard /
    /// move / swift / trick, 1 for acrobatic (AP cost still limits what is affordable).
    pub limits: TmdTypeCounts,
}

fn check_ap(field: &str, ap: u32) -> Result<()> {
    if ap > MAX_AP {
        return Err(Error::out_of_range(field, format_args!("must be 0..={MAX_AP}")));
    }
    Ok(())
}

/// `tmd.conversion_limits` — TMD-AP-7 (one conversion per type per turn) plus
/// TMD-AP-8 extra conversions by AP total (RULINGS: floor, added to the 1).
pub fn conversion_limits(args: &TmdConversionLimitsArgs) -> Result<TmdConversionLimitsResult> {
    check_ap("ap", args.ap)?;
    Ok(TmdConversionLimitsResult { limits: TmdTypeCounts::limits(args.ap) })
}

/// A character's AP while converting (shared with the encounter).
#[derive(Debug, Clone)]
pub(crate) struct ConvPool {
    pub base: u32,
    pub extra: u32,
    /// AP total measured at turn start (the `turn_start` basis).
    pub basis: u32,
    /// Conversions so far this turn.
    pub counts: TmdTypeCounts,
}

impl ConvPool {
    pub fn total(&self) -> u32 {
        self.base.saturating_add(self.extra)
    }

    /// The limit of `t` now under `variant`.
    pub fn limit(&self, t: TmdConvertType, variant: TmdConversionApBasis) -> u32 {
        match variant {
            TmdConversionApBasis::TurnStart => t.limit(self.basis),
            TmdConversionApBasis::Remaining => t.limit(self.total()),
        }
    }

    /// Convert one action of type `t`: TMD-AP-7/8 limit, then TMD-AP-5 cost.
    /// Extra AP is spent before base AP (it expires first). Unchanged on error.
    pub fn convert_one(&mut self, t: TmdConvertType, variant: TmdConversionApBasis) -> Result<()> {
        let limit = self.limit(t, variant);
        let done = self.counts.get(t);
        if done >= limit {
            let rule = if limit <= 1 { "TMD-AP-7" } else { "TMD-AP-8" };
            let basis = match variant {
                TmdConversionApBasis::TurnStart => format!("{} AP at turn start", self.basis),
                TmdConversionApBasis::Remaining => format!("{} AP remaining", self.total()),
            };
            return Err(Error::illegal(
                rule,
                format_args!("{t:?} may be converted at most {limit} time(s) with {basis}; {done} already"),
            ));
        }
        let cost = t.cost();
        if self.total() < cost {
            return Err(Error::illegal(
                "TMD-AP-5",
                format_args!("converting {t:?} costs {cost} AP but only {} AP remain", self.total()),
            ));
        }
        let from_extra = cost.min(self.extra);
        self.extra -= from_extra;
        self.base -= cost - from_extra;
        *self.counts.get_mut(t) += 1;
        Ok(())
    }
}

/// TMD-AP-6: record that type `t` is being converted. 「先选择一种类型的动作进行转化，
/// 接着再选择未选择过的另一种类型」: converting more of the type picked last goes on
/// with that pick (one action at a time or several at once alike); going back to a
/// type picked before a different one is refused. `picked` is unchanged on error.
/// Shared by `tmd.convert` and the encounter's `convert`, so both read the rule alike.
pub(crate) fn pick_type(picked: &mut Vec<TmdConvertType>, t: TmdConvertType) -> Result<()> {
    if picked.last() == Some(&t) {
        return Ok(());
    }
    if picked.contains(&t) {
        return Err(Error::illegal(
            "TMD-AP-6",
            format_args!(
                "{t:?} was already picked this turn before another type; pick each type once, then another"
            ),
        ));
    }
    picked.push(t);
    Ok(())
}

/// Arguments of `tmd.convert`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdConvertArgs {
    /// Base AP available (normally 14 at turn start), 0..=100000.
    #[schemars(range(min = 0, max = 100000))]
    pub base_ap: u32,
    /// Extra AP available (default 0), 0..=100000.
    #[serde(default)]
    #[schemars(range(min = 0, max = 100000))]
    pub extra_ap: u32,
    /// The conversions, in order (at most 1000). TMD-AP-6: each type is picked
    /// once, so repeats of a type must be adjacent (`[swift, swift, move]`). Trick,
    /// swift, move, acrobatic and standard convert; `full_round` (TMD-AP-16), `reflex`
    /// (TMD-ACT-10) and `free` (TMD-ACT-1) are refused with their rule.
    pub actions: Vec<TmdActionType>,
    /// Rule variants (default: RULINGS defaults).
    #[serde(default)]
    pub variants: TmdVariants,
}

/// Result of `tmd.convert`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdConvertResult {
    /// Actions converted, per type.
    pub converted: TmdTypeCounts,
    /// Limits measured on the starting AP total (the `turn_start` basis).
    pub limits: TmdTypeCounts,
    /// AP spent in total.
    pub ap_spent: u32,
    /// Base AP left (extra AP is spent first).
    pub base_ap: u32,
    /// Extra AP left.
    pub extra_ap: u32,
    /// base_ap + extra_ap left.
    pub remaining_ap: u32,
}

/// `tmd.convert` — TMD-AP-5 (costs), TMD-AP-6 (pick each type once, in order),
/// TMD-AP-7/8 (limits; variant `conversion_ap_basis`). Errors are
/// `illegal_action` naming the rule: the limit (TMD-AP-7/8), a second pick of
/// a type (TMD-AP-6) or the AP shortfall (TMD-AP-5).
pub fn convert(args: &TmdConvertArgs) -> Result<TmdConvertResult> {
    check_ap("base_ap", args.base_ap)?;
    check_ap("extra_ap", args.extra_ap)?;
    if args.actions.len() > MAX_ACTIONS {
        return Err(Error::limit("actions", format_args!("at most {MAX_ACTIONS} actions")));
    }
    let start = args.base_ap + args.extra_ap;
    let mut pool =
        ConvPool { base: args.base_ap, extra: args.extra_ap, basis: start, counts: TmdTypeCounts::default() };
    let mut picked: Vec<TmdConvertType> = Vec::new();
    for t in &args.actions {
        let t = t.to_convert()?;
        pick_type(&mut picked, t)?;
        pool.convert_one(t, args.variants.conversion_ap_basis)?;
    }
    let left = pool.total();
    Ok(TmdConvertResult {
        converted: pool.counts,
        limits: TmdTypeCounts::limits(start),
        ap_spent: start - left,
        base_ap: pool.base,
        extra_ap: pool.extra,
        remaining_ap: left,
    })
}

/// Arguments of `tmd.action_seconds`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdActionSecondsArgs {
    /// The actions one character takes in a round (at most 1000).
    pub actions: Vec<TmdActionType>,
}

/// Result of `tmd.action_seconds`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdActionSecondsResult {
    /// Sum of the weights (trick 1, swift/reflex 2, move 4, acrobatic 4, standard 6, full-round 10, free 0).
    pub weight_total: u32,
    /// Seconds of the 12-second round used: the weight total, or 12 when the
    /// weights exceed 12 (everything fits inside the round).
    pub seconds: f64,
    /// Seconds per action, in the given order: weight × 12 ÷ max(weight_total, 12).
    pub per_action: Vec<f64>,
}

/// `tmd.action_seconds` — TMD-TIME-4 real-time accounting (RULINGS: weights are
/// seconds; TMD-TIME-1: the round is 12 s, so larger totals are scaled to fit).
pub fn action_seconds(args: &TmdActionSecondsArgs) -> Result<TmdActionSecondsResult> {
    if args.actions.len() > MAX_ACTIONS {
        return Err(Error::limit("actions", format_args!("at most {MAX_ACTIONS} actions")));
    }
    let total: u32 = args.actions.iter().map(|a| a.weight()).sum();
    let denom = f64::from(total.max(ROUND_SECONDS));
    let per_action =
        args.actions.iter().map(|a| f64::from(a.weight()) * f64::from(ROUND_SECONDS) / denom).collect();
    Ok(TmdActionSecondsResult {
        weight_total: total,
        seconds: f64::from(total.min(ROUND_SECONDS)),
        per_action,
    })
}
