//! `coc_ap.check` — the 6th-edition d100 check (one d100, BCDice `CCB` / `CC`).
//!
//! RULINGS (coc_ap, Checks): one d100 ≤ skill succeeds, and 100 never does;
//! special ≤ max(1, floor(skill ÷ 5)); critical 01–05 and fumble 96–100 under
//! `ccb` (the "5% rule", default), critical 01 and fumble 100 under `cc`.
//! As in BCDice's `Cthulhu` system, a critical and a special need a success,
//! and a fumble needs a failure: a roll of 100 is a fumble whatever the skill
//! (`CCB<=120` rolling 100 is 致命的失敗), since 100 never succeeds.

use crate::coc7::Coc7Labels;
use crate::dice::{Dice, Roll};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Largest skill accepted.
pub const MAX_SKILL: i64 = 999;

/// Critical/fumble rule of 6th-edition checks (`variant: coc6_rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CocApRule {
    /// BCDice `CCB`: critical 01–05, fumble 96–100 (default).
    #[default]
    Ccb,
    /// BCDice `CC`: critical 01, fumble 100.
    Cc,
}

/// Arguments of `coc_ap.check`.
///
/// `rolls`: Scripted faces: one d100 face, 1–100, bare or as `{"sides": 100, "value": v}`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApCheckArgs {
    /// Skill value (percentile), 0–999.
    #[schemars(range(min = 0, max = 999))]
    pub skill: i64,
    /// `ccb` (default: critical 01–05, fumble 96–100) or `cc` (critical 01, fumble 100).
    #[serde(default)]
    pub rule: CocApRule,
    /// Rule variants (RULINGS.md), the same object as the other `coc_ap` ops take; a
    /// check uses `coc6_rule` (the same setting as `rule`: `cc` in either wins).
    #[serde(default)]
    pub variants: super::ap::CocApVariants,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of a 6th-edition check.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CocApCheckResult {
    /// The target the roll was made against.
    pub skill: i64,
    /// The d100 roll, 1–100.
    #[schemars(range(min = 1, max = 100))]
    pub roll: u32,
    /// roll ≤ skill and roll < 100.
    pub success: bool,
    /// A success within the critical range (決定的成功).
    pub critical: bool,
    /// A success ≤ `special_value` (スペシャル).
    pub special: bool,
    /// A failure within the fumble range (致命的失敗); 100 is one whatever the skill.
    pub fumble: bool,
    /// max(1, floor(skill ÷ 5)).
    pub special_value: i64,
    /// BCDice's wording of the result (成功, スペシャル, 決定的成功/スペシャル, 失敗, 致命的失敗).
    pub result_ja: String,
    /// The result in four languages (BCDice's `Cthulhu` locales).
    pub label: Coc7Labels,
    /// Every die rolled: the one d100.
    pub rolls: Vec<Roll>,
}

/// Evaluate roll `r` against `skill` (validated; may be ≤ 0 for derived targets).
pub fn evaluate(r: u32, skill: i64, rule: CocApRule) -> CocApCheckResult {
    let r64 = i64::from(r);
    let (crit, fumble_from) = match rule {
        CocApRule::Ccb => (5, 96),
        CocApRule::Cc => (1, 100),
    };
    let special_value = (skill / 5).max(1);
    let success = r64 <= skill && r < 100;
    let critical = success && r64 <= crit;
    let special = success && r64 <= special_value;
    // RULINGS (coc_ap, Checks): fumble 96-100 (`ccb`) / 100 (`cc`), with no
    // skill condition: a skill of 100 or more still fumbles on 100.
    let fumble = !success && r64 >= fumble_from;
    let mut out = CocApCheckResult {
        skill,
        roll: r,
        success,
        critical,
        special,
        fumble,
        special_value,
        result_ja: String::new(),
        label: labels("", "", "", ""),
        rolls: Vec::new(),
    };
    relabel(&mut out);
    out
}

fn labels(ja: &str, zh_hans: &str, zh_hant: &str, en: &str) -> Coc7Labels {
    Coc7Labels { ja: ja.into(), zh_hans: zh_hans.into(), zh_hant: zh_hant.into(), en: en.into() }
}

/// Set `result_ja` and `label` from the flags.
pub fn relabel(out: &mut CocApCheckResult) {
    let l = match (out.success, out.critical, out.special, out.fumble) {
        (true, true, true, _) => {
            labels("決定的成功/スペシャル", "大成功/特殊成功", "大成功/特殊成功", "Critical Success/Special")
        }
        (true, true, false, _) => labels("決定的成功", "大成功", "大成功", "Critical Success"),
        (true, false, true, _) => labels("スペシャル", "特殊成功", "特殊成功", "Special"),
        (true, false, false, _) => labels("成功", "成功", "成功", "Success"),
        (false, _, _, true) => labels("致命的失敗", "大失败", "大失敗", "Fumble"),
        _ => labels("失敗", "失败", "失敗", "Failure"),
    };
    out.result_ja = l.ja.clone();
    out.label = l;
}

/// Roll one d100 (a single 100-sided die, as 6th edition and BCDice roll it) and evaluate it.
pub fn roll_check(dice: &mut Dice, skill: i64, rule: CocApRule) -> Result<CocApCheckResult> {
    let start = dice.rolls().len();
    let r = dice.roll(100)?;
    let mut out = evaluate(r, skill, rule);
    out.rolls = dice.rolls_since(start);
    Ok(out)
}

/// `coc_ap.check` — a 6th-edition d100 check.
///
/// Scripted `rolls`: one d100 face, 1–100 (`[37]`, `[100]`).
pub fn check(args: &CocApCheckArgs) -> Result<CocApCheckResult> {
    if !(0..=MAX_SKILL).contains(&args.skill) {
        return Err(Error::out_of_range(
            "skill",
            format_args!("must be 0..={MAX_SKILL}, not {}", args.skill),
        ));
    }
    let mut dice = args.source.dice()?;
    let rule = if args.variants.coc6_rule == CocApRule::Cc { CocApRule::Cc } else { args.rule };
    let mut out = roll_check(&mut dice, args.skill, rule)?;
    out.rolls = dice.take_rolls();
    Ok(out)
}
