//! The shared shapes and checks of the character sheets of the four systems besides
//! World Trigger (whose sheet is `world_trigger.validate_sheet`): `coc_ap.sheet` (CoC
//! 6th), `coc7_house.sheet` (CoC 7th), `tmd.sheet` and `fap_map.sheet`, each in its
//! ruleset's `sheet` module.
//!
//! Each op validates a sheet and returns its values: never an error for a problem a
//! player fixes on the sheet (those are `violations`, each with a stable `code`, the
//! field's `path`, a `rule` and a message in ja / zh-Hans / zh-Hant / en), an error
//! only for input that is not a sheet at all (a wrong type, an unknown key, a number
//! beyond the engine's limits: `invalid_argument` / `out_of_range` naming the field).
//!
//! Rules stated by the seeds are in code with their IDs (COCAP-AP-3, C7H-INIT-1,
//! TMD-INI-1, TMD-AP-2/8, FM-AP-2, FM-ACT-7/9/16). What the seeds leave to the base
//! rulebooks (CoC characteristics' ranges, HP/MP/SAN/MOV, damage bonus and build,
//! skill bases) is data: an illustrative pack, replaceable by the caller's `data`.
//! `rule` is `DATA` for a check that comes from the pack, `SHEET` for the name.

use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use crate::kernel::label::WtLabel;

/// Longest sheet name, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// A problem a player fixes on the sheet.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SheetViolation {
    /// Stable code: `required` (a missing value), `out_of_range` (outside the rule's or
    /// the pack's range), `not_in_table` (a sum the pack's table does not cover).
    pub code: String,
    /// Dotted path of the field, e.g. `sheet.characteristics.str`.
    pub path: String,
    /// The rule ID broken (`DATA`: a range or table of the data pack; `SHEET`: the name).
    pub rule: String,
    /// English text (the label's `en`).
    pub message: String,
    /// The message in the four display languages.
    pub label: WtLabel,
}

/// One value of a sheet: an entered stat, a derived value or a skill.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SheetValue {
    /// Id (`str`, `hp`, `dodge`, `fap` …).
    pub id: String,
    /// Display name in the four languages.
    pub label: WtLabel,
    /// The number (in the unit `text` shows, or tenths/centimetres/millimetres as the
    /// op documents); null when an input it needs is missing or it is a dice text.
    pub value: Option<i64>,
    /// The value as shown (`12`, `+1D4`, `1.6 m`); empty when unknown.
    pub text: String,
    /// Where it comes from: a rule ID, or `DATA` (the data pack).
    pub rule: String,
    /// Smallest valid value of an entered stat (the pack's or the rule's); for a CoC
    /// skill, its base value from the pack (what it is when the sheet leaves it out).
    pub min: Option<i64>,
    /// Largest valid value for an entered value, if any.
    pub max: Option<i64>,
    /// 7th edition: floor(value ÷ 2), the Hard target (as `coc7.check`).
    pub half: Option<i64>,
    /// 7th edition: floor(value ÷ 5), the Extreme target (as `coc7.check`).
    pub fifth: Option<i64>,
}

impl SheetValue {
    pub(crate) fn new(id: &str, label: WtLabel, value: Option<i64>, rule: &str) -> SheetValue {
        SheetValue {
            id: id.into(),
            label,
            value,
            text: value.map(|v| v.to_string()).unwrap_or_default(),
            rule: rule.into(),
            min: None,
            max: None,
            half: None,
            fifth: None,
        }
    }
}

/// Result of every `*.sheet` op.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SheetResult {
    /// True when there is no violation.
    pub valid: bool,
    /// Every violation found.
    pub violations: Vec<SheetViolation>,
    /// The entered stats (characteristics), with their labels and valid ranges.
    pub stats: Vec<SheetValue>,
    /// The derived values.
    pub derived: Vec<SheetValue>,
    /// Skills (CoC): each entered or base value; empty for other systems.
    pub skills: Vec<SheetValue>,
}

impl SheetResult {
    pub(crate) fn new(
        violations: Vec<SheetViolation>,
        stats: Vec<SheetValue>,
        derived: Vec<SheetValue>,
        skills: Vec<SheetValue>,
    ) -> SheetResult {
        // Cut as an error at the JSON entry points is (names and labels are
        // short already: this bounds what a new message might quote).
        use crate::error::{clip, MAX_DETAILS, MAX_FIELD_CHARS, MAX_MESSAGE_CHARS};
        let mut violations = violations;
        violations.truncate(MAX_DETAILS);
        for v in &mut violations {
            clip(&mut v.path, MAX_FIELD_CHARS);
            clip(&mut v.message, MAX_MESSAGE_CHARS);
            let l = &mut v.label;
            for t in [&mut l.ja, &mut l.zh_hans, &mut l.zh_hant, &mut l.en] {
                clip(t, MAX_MESSAGE_CHARS);
            }
        }
        SheetResult { valid: violations.is_empty(), violations, stats, derived, skills }
    }
}

/// A label from its four texts.
pub(crate) fn l(ja: &str, hans: &str, hant: &str, en: &str) -> WtLabel {
    WtLabel::new(ja, hans, hant, en)
}

fn each(label: &WtLabel, f: impl Fn(usize, &str) -> String) -> WtLabel {
    let pick = |t: &str| if t.is_empty() { label.en.clone() } else { t.to_string() };
    WtLabel {
        ja: f(0, &pick(&label.ja)),
        zh_hans: f(1, &pick(&label.zh_hans)),
        zh_hant: f(2, &pick(&label.zh_hant)),
        en: f(3, &label.en),
    }
}

fn violation(code: &str, path: &str, rule: &str, label: WtLabel) -> SheetViolation {
    SheetViolation {
        code: code.into(),
        path: path.into(),
        rule: rule.into(),
        message: label.en.clone(),
        label,
    }
}

/// `required`: `name` has no value.
pub(crate) fn required(path: &str, rule: &str, name: &WtLabel) -> SheetViolation {
    let m = each(name, |i, n| match i {
        0 => format!("{n}を入力してください"),
        1 => format!("请填写{n}"),
        2 => format!("請填寫{n}"),
        _ => format!("{n} is required"),
    });
    violation("required", path, rule, m)
}

/// `out_of_range`: `v` is outside `min..=max`, or below `min` when there is no `max`.
pub(crate) fn out_of_range(
    path: &str,
    rule: &str,
    name: &WtLabel,
    v: i64,
    min: i64,
    max: Option<i64>,
) -> SheetViolation {
    let src = rule == "DATA";
    let m = each(name, |i, n| match (i, max) {
        (0, None) => format!("{n}：{v}。{min}以上にしてください"),
        (1, None) => format!("{n}：{v}，不能小于{min}"),
        (2, None) => format!("{n}：{v}，不能小於{min}"),
        (_, None) => format!("{n}: {v} must be at least {min}"),
        (0, Some(b)) => {
            format!("{n}：{v}は{}の範囲{min}〜{b}の外です", if src { "データパック" } else { "ルール" })
        }
        (1, Some(b)) => format!("{n}：{v}超出{}的范围{min}～{b}", if src { "数据包" } else { "规则" }),
        (2, Some(b)) => format!("{n}：{v}超出{}的範圍{min}～{b}", if src { "資料包" } else { "規則" }),
        (_, Some(b)) => {
            format!("{n}: {v} is outside the {} range {min}-{b}", if src { "data pack's" } else { "rule's" })
        }
    });
    violation("out_of_range", path, rule, m)
}

/// `not_in_table`: the sum `v` is not covered by the pack's table `name`.
pub(crate) fn not_in_table(path: &str, name: &WtLabel, v: i64) -> SheetViolation {
    let m = each(name, |i, n| match i {
        0 => format!("{n}：合計{v}はデータパックの表にありません"),
        1 => format!("{n}：合计{v}不在数据包的表中"),
        2 => format!("{n}：合計{v}不在資料包的表中"),
        _ => format!("{n}: the sum {v} is not in the data pack's table"),
    });
    violation("not_in_table", path, "DATA", m)
}

/// The sheet name: 1–200 characters, not blank (rule `SHEET`).
pub(crate) fn check_name(name: &str, out: &mut Vec<SheetViolation>) {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME_CHARS {
        out.push(required(
            "sheet.name",
            "SHEET",
            &l(
                "名前（1〜200文字）",
                "名字（1～200个字符）",
                "名字（1～200個字元）",
                "a name (1-200 characters)",
            ),
        ));
    }
}

/// Refuse a number outside the engine's limits (not a sheet problem: the input is unusable).
pub(crate) fn bound(field: &str, v: i64, min: i64, max: i64) -> Result<i64> {
    if !(min..=max).contains(&v) {
        return Err(Error::out_of_range(field, format_args!("must be {min}..={max}, not {v}")));
    }
    Ok(v)
}
