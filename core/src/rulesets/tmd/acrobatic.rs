//! `tmd.acrobatic` — what one acrobatic action (杂技动作, TMD-ACT-8) gives when it
//! is used to move or to parry.
//!
//! The rulebook states no rounding for either number (RULES "Ambiguities" 9), so
//! both are returned exactly: 1.5 × the base movement limit, and half the
//! 武技 (or parrying skill) level as the most extra dodge defense; "至多" (up
//! to) lets the player take less, which `dodge_bonus` checks.

use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Largest base movement limit accepted.
pub const MAX_MOVEMENT: f64 = 1_000_000.0;
/// Largest skill level accepted.
pub const MAX_SKILL_LEVEL: u32 = 1000;

/// Arguments of `tmd.acrobatic`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdAcrobaticArgs {
    /// The character's base movement limit (基础移动上限), 0..=1000000, in the table's unit.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1000000))]
    pub base_movement: Option<f64>,
    /// The level of 武技, or of the skill the parry uses, 0..=1000.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1000))]
    pub skill_level: Option<u32>,
    /// The extra dodge defense the player takes from the parry (at most half the
    /// skill level); default: the most allowed. Needs `skill_level`.
    #[serde(default)]
    pub dodge_bonus: Option<f64>,
}

/// Result of `tmd.acrobatic`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdAcrobaticResult {
    /// TMD-ACT-8: distance of an acrobatic move, 1.5 × base_movement (null without base_movement).
    pub movement: Option<f64>,
    /// TMD-ACT-8: the most extra dodge defense (闪避防御) an acrobatic parry gives,
    /// skill_level ÷ 2, unrounded (null without skill_level).
    pub max_dodge_bonus: Option<f64>,
    /// The extra dodge defense taken: `dodge_bonus`, or the most allowed (null without skill_level).
    pub dodge_bonus: Option<f64>,
    /// The rule applied.
    pub rule: String,
}

/// `tmd.acrobatic` — TMD-ACT-8: an acrobatic move covers 1.5 × the base movement
/// limit; an acrobatic parry adds up to half the 武技 (or parrying skill) level as
/// dodge defense. Exact values (no rounding is stated).
pub fn acrobatic(args: &TmdAcrobaticArgs) -> Result<TmdAcrobaticResult> {
    if args.dodge_bonus.is_some() && args.skill_level.is_none() {
        return Err(Error::invalid("dodge_bonus", "needs skill_level"));
    }
    if args.base_movement.is_none() && args.skill_level.is_none() {
        return Err(Error::invalid("base_movement", "give base_movement, skill_level or both"));
    }
    let movement = match args.base_movement {
        Some(m) if !m.is_finite() || !(0.0..=MAX_MOVEMENT).contains(&m) => {
            // The bound as an integer: formatting an f64 brings the float formatter into the wasm.
            return Err(Error::out_of_range(
                "base_movement",
                format_args!("must be 0..={}", MAX_MOVEMENT as u64),
            ));
        }
        Some(m) => Some(m * 1.5),
        None => None,
    };
    let max = match args.skill_level {
        Some(l) if l > MAX_SKILL_LEVEL => {
            return Err(Error::out_of_range("skill_level", format_args!("must be 0..={MAX_SKILL_LEVEL}")));
        }
        Some(l) => Some(f64::from(l) / 2.0),
        None => None,
    };
    let dodge = match (args.dodge_bonus, max) {
        (Some(_), None) => return Err(Error::invalid("dodge_bonus", "needs skill_level")),
        (Some(d), Some(m)) => {
            if !d.is_finite() || d < 0.0 {
                return Err(Error::out_of_range("dodge_bonus", "must be a number ≥ 0"));
            }
            // TMD-ACT-8: at most half the skill level: a refusal by the rule, naming it.
            if d > m {
                // Half the level, written as `{m}` would be (whole, or with `.5`) without
                // the float formatter.
                let level = args.skill_level.unwrap_or(0);
                let half = if level % 2 == 0 { (level / 2).to_string() } else { format!("{}.5", level / 2) };
                let mut e = Error::illegal(
                    "TMD-ACT-8",
                    format_args!(
                        "an acrobatic parry gives at most {half} dodge defense (half the skill level)"
                    ),
                );
                e.0.field = Some("dodge_bonus".into());
                e.0.loc = crate::error::loc_of("dodge_bonus");
                return Err(e);
            }
            Some(d)
        }
        (None, m) => m,
    };
    Ok(TmdAcrobaticResult { movement, max_dodge_bonus: max, dodge_bonus: dodge, rule: "TMD-ACT-8".into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_never_panics() {
        for v in [
            serde_json::json!({}),
            serde_json::json!({"base_movement": -1}),
            serde_json::json!({"base_movement": 1e308}),
            serde_json::json!({"skill_level": 4294967295u64}),
            serde_json::json!({"skill_level": 3, "dodge_bonus": -0.5}),
            serde_json::json!({"dodge_bonus": 1}),
            serde_json::json!({"base_movement": "x"}),
            serde_json::json!(null),
        ] {
            assert!(crate::call("tmd.acrobatic", v).is_err());
        }
        let r = acrobatic(&TmdAcrobaticArgs {
            base_movement: Some(5.0),
            skill_level: Some(5),
            dodge_bonus: None,
        })
        .unwrap();
        assert_eq!((r.movement, r.max_dodge_bonus, r.dodge_bonus), (Some(7.5), Some(2.5), Some(2.5)));
    }

    #[test]
    fn refusals_print_the_bounds_as_the_float_formatter_would() {
        // The messages avoid formatting an f64 (wasm size); they read as if they did.
        for level in 0..=MAX_SKILL_LEVEL {
            let args =
                TmdAcrobaticArgs { base_movement: None, skill_level: Some(level), dodge_bonus: Some(1e9) };
            let e = acrobatic(&args).unwrap_err();
            let half = f64::from(level) / 2.0;
            assert!(e.0.message.contains(&format!("at most {half} dodge")), "{}", e.0.message);
        }
        let args = TmdAcrobaticArgs { base_movement: Some(-1.0), skill_level: None, dodge_bonus: None };
        assert!(acrobatic(&args).unwrap_err().0.message.ends_with(&format!("must be 0..={MAX_MOVEMENT}")));
    }
}
