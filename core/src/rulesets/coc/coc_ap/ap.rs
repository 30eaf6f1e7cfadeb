//! `coc_ap.action_points` — COCAP-AP-3 / COCAP-AP-4.

use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Largest DEX accepted (percentile scale included).
pub const MAX_DEX: i64 = 999;
/// Largest AP modifier accepted (either sign).
pub const MAX_AP_BONUS: i64 = 100;

/// Which DEX scale the formula reads (`variant: dex_scale`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CocApDexScale {
    /// 6th-edition 3–18 DEX: AP = 2 + floor(DEX ÷ 6) (default).
    #[default]
    Classic,
    /// Percentile DEX (7th-edition style): DEX is divided by 5 (floor) first.
    Percentile,
}

/// Variants of the `coc_ap` ruleset (RULINGS, coc_ap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApVariants {
    /// DEX scale of the AP formula (`classic` default, `percentile`).
    #[serde(default)]
    pub dex_scale: CocApDexScale,
    /// How Dodge Focus lowers each dodge (`prior_dodges` default, `including_current`).
    #[serde(default)]
    pub dodge_focus_penalty: CocApDodgeFocusPenalty,
    /// Critical/fumble rule of the checks (`ccb` default, `cc`).
    #[serde(default)]
    pub coc6_rule: super::check::CocApRule,
}

/// Dodge Focus penalty reading (`variant: dodge_focus_penalty`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CocApDodgeFocusPenalty {
    /// Target = Dodge − 20 × dodges already made this round: the first is at full value (default).
    #[default]
    PriorDodges,
    /// Target = Dodge − 20 × (dodges already made + 1): the first is at −20.
    IncludingCurrent,
}

/// Arguments of `coc_ap.action_points`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApActionPointsArgs {
    /// DEX, 0–999 (3–18 on the classic scale).
    #[schemars(range(min = 0, max = 999))]
    pub dex: i64,
    /// Extra AP from special abilities or magic (COCAP-AP-4), −100…100. Default 0.
    #[serde(default)]
    #[schemars(range(min = -100, max = 100))]
    pub ap_bonus: i64,
    /// Variants; only `dex_scale` matters here.
    #[serde(default)]
    pub variants: CocApVariants,
}

/// Result of `coc_ap.action_points`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CocApActionPointsResult {
    /// AP gained at each round start: `base + ap_bonus`, never below 0.
    pub ap: i64,
    /// The formula's base value, 2 + floor(DEX ÷ 6).
    pub base: i64,
}

/// Validate DEX and AP modifier.
pub fn validate(field_prefix: &str, dex: i64, ap_bonus: i64) -> Result<()> {
    if !(0..=MAX_DEX).contains(&dex) {
        return Err(Error::out_of_range(
            format!("{field_prefix}dex"),
            format_args!("must be 0..={MAX_DEX}, not {dex}"),
        ));
    }
    if !(-MAX_AP_BONUS..=MAX_AP_BONUS).contains(&ap_bonus) {
        return Err(Error::out_of_range(
            format!("{field_prefix}ap_bonus"),
            format_args!("must be -{MAX_AP_BONUS}..={MAX_AP_BONUS}, not {ap_bonus}"),
        ));
    }
    Ok(())
}

/// COCAP-AP-3: base AP = 2 + floor(DEX ÷ 6) (classic), or 2 + floor(floor(DEX ÷ 5) ÷ 6) (percentile).
pub fn base_ap(dex: i64, scale: CocApDexScale) -> i64 {
    let d = match scale {
        CocApDexScale::Classic => dex,
        CocApDexScale::Percentile => dex / 5,
    };
    2 + d / 6
}

/// COCAP-AP-4: the base value plus modifiers from abilities or magic, not below 0.
pub fn round_ap(dex: i64, ap_bonus: i64, scale: CocApDexScale) -> i64 {
    (base_ap(dex, scale) + ap_bonus).max(0)
}

/// `coc_ap.action_points` — AP gained at each round start (COCAP-AP-1, COCAP-AP-3, COCAP-AP-4).
pub fn action_points(args: &CocApActionPointsArgs) -> Result<CocApActionPointsResult> {
    validate("", args.dex, args.ap_bonus)?;
    let base = base_ap(args.dex, args.variants.dex_scale);
    Ok(CocApActionPointsResult { ap: round_ap(args.dex, args.ap_bonus, args.variants.dex_scale), base })
}
