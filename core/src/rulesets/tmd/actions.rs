//! Action types of TMD：新秩序000: AP costs, conversion steps, the exertion
//! ladder, real-time weights, conversion limits, and the `tmd.action_types`
//! catalogue (with labels from the data pack `core/data/tmd/actions.json`).

use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use std::sync::OnceLock;

/// Largest AP total any operation accepts (keeps every sum far below 2^53).
pub const MAX_AP: u32 = 100_000;

/// TMD-AP-2: base AP every character gains at the start of its own turn.
pub const BASE_AP_PER_TURN: u32 = 14;

/// Every kind of action (TMD-AP-17 exertion ladder, lowest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TmdActionType {
    /// 自由动作: no conversion needed (TMD-ACT-1..4).
    Free,
    /// 花招动作 (TMD-ACT-5).
    Trick,
    /// 迅捷动作 (TMD-ACT-6).
    Swift,
    /// 反射动作: a swift action used outside one's own turn (TMD-ACT-10).
    Reflex,
    /// 移动动作 (TMD-ACT-7).
    Move,
    /// 杂技动作 (TMD-ACT-8).
    Acrobatic,
    /// 标准动作 (TMD-ACT-9).
    Standard,
    /// 整轮动作: one standard + one move (or acrobatic) action (TMD-AP-16).
    FullRound,
}

/// The action types AP is converted into (TMD-AP-5); reflex actions share the swift type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TmdConvertType {
    /// 花招动作, 1 AP.
    Trick,
    /// 迅捷/反射动作, 2 AP.
    Swift,
    /// 移动动作, 4 AP.
    Move,
    /// 杂技动作, 6 AP.
    Acrobatic,
    /// 标准动作, 8 AP.
    Standard,
}

impl TmdConvertType {
    /// All convertible types, ladder order.
    pub const ALL: [TmdConvertType; 5] = [
        TmdConvertType::Trick,
        TmdConvertType::Swift,
        TmdConvertType::Move,
        TmdConvertType::Acrobatic,
        TmdConvertType::Standard,
    ];

    /// TMD-AP-5: AP cost of one conversion.
    pub fn cost(self) -> u32 {
        match self {
            TmdConvertType::Trick => 1,
            TmdConvertType::Swift => 2,
            TmdConvertType::Move => 4,
            TmdConvertType::Acrobatic => 6,
            TmdConvertType::Standard => 8,
        }
    }

    /// TMD-AP-8: one extra conversion per this many AP (acrobatic gets none).
    pub fn extra_step(self) -> Option<u32> {
        match self {
            TmdConvertType::Trick => Some(3),
            TmdConvertType::Swift => Some(6),
            TmdConvertType::Move => Some(12),
            TmdConvertType::Acrobatic => None,
            TmdConvertType::Standard => Some(24),
        }
    }

    /// TMD-AP-7 + TMD-AP-8 (RULINGS): 1 + floor(ap ÷ step) conversions.
    pub fn limit(self, ap: u32) -> u32 {
        1 + self.extra_step().map_or(0, |n| ap / n)
    }

    /// The general action type.
    pub fn action(self) -> TmdActionType {
        match self {
            TmdConvertType::Trick => TmdActionType::Trick,
            TmdConvertType::Swift => TmdActionType::Swift,
            TmdConvertType::Move => TmdActionType::Move,
            TmdConvertType::Acrobatic => TmdActionType::Acrobatic,
            TmdConvertType::Standard => TmdActionType::Standard,
        }
    }
}

impl TmdActionType {
    /// All action types, ladder order.
    pub const ALL: [TmdActionType; 8] = [
        TmdActionType::Free,
        TmdActionType::Trick,
        TmdActionType::Swift,
        TmdActionType::Reflex,
        TmdActionType::Move,
        TmdActionType::Acrobatic,
        TmdActionType::Standard,
        TmdActionType::FullRound,
    ];

    /// TMD-AP-17: rank on the exertion ladder (swift and reflex share a rank).
    pub fn rank(self) -> u32 {
        match self {
            TmdActionType::Free => 0,
            TmdActionType::Trick => 1,
            TmdActionType::Swift | TmdActionType::Reflex => 2,
            TmdActionType::Move => 3,
            TmdActionType::Acrobatic => 4,
            TmdActionType::Standard => 5,
            TmdActionType::FullRound => 6,
        }
    }

    /// TMD-AP-5: AP cost (free 0; full-round 12 = standard + move).
    pub fn ap_cost(self) -> u32 {
        match self {
            TmdActionType::Free => 0,
            TmdActionType::Trick => 1,
            TmdActionType::Swift | TmdActionType::Reflex => 2,
            TmdActionType::Move => 4,
            TmdActionType::Acrobatic => 6,
            TmdActionType::Standard => 8,
            TmdActionType::FullRound => 12,
        }
    }

    /// TMD-TIME-4 (RULINGS): seconds of the 12-second round (full-round 10, free 0;
    /// a reflex is a swift action, 2).
    pub fn weight(self) -> u32 {
        match self {
            TmdActionType::Free => 0,
            TmdActionType::Trick => 1,
            TmdActionType::Swift | TmdActionType::Reflex => 2,
            TmdActionType::Move | TmdActionType::Acrobatic => 4,
            TmdActionType::Standard => 6,
            TmdActionType::FullRound => 10,
        }
    }

    /// The conversion type (reflex converts as swift); none for free and full-round.
    pub fn convert_type(self) -> Option<TmdConvertType> {
        match self {
            TmdActionType::Trick => Some(TmdConvertType::Trick),
            TmdActionType::Swift | TmdActionType::Reflex => Some(TmdConvertType::Swift),
            TmdActionType::Move => Some(TmdConvertType::Move),
            TmdActionType::Acrobatic => Some(TmdConvertType::Acrobatic),
            TmdActionType::Standard => Some(TmdConvertType::Standard),
            TmdActionType::Free | TmdActionType::FullRound => None,
        }
    }

    /// The type converting this action converts (TMD-AP-5), or the rule refusing it: a
    /// full-round action is assembled from a standard and a move (or acrobatic) action
    /// (TMD-AP-16), a reflex action is a swift action used out of turn (TMD-ACT-10), a
    /// free action needs no conversion (TMD-ACT-1).
    pub fn to_convert(self) -> Result<TmdConvertType> {
        match self {
            TmdActionType::FullRound => Err(Error::illegal(
                "TMD-AP-16",
                "a full-round action is not converted as such: convert one standard and one move (or acrobatic) action",
            )),
            TmdActionType::Reflex => Err(Error::illegal(
                "TMD-ACT-10",
                "a reflex action is a swift action used out of turn: convert swift actions (or use convert_reflex)",
            )),
            TmdActionType::Free => Err(Error::illegal("TMD-ACT-1", "free actions need no conversion")),
            _ => self.convert_type().ok_or_else(|| Error::illegal("TMD-AP-5", "not a convertible action type")),
        }
    }
}

/// `conversion_ap_basis` (RULINGS tmd "Conversion"): which AP total sets the extra conversions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TmdConversionApBasis {
    /// Default: the AP total (base + extra) measured once at turn start, before converting.
    #[default]
    TurnStart,
    /// Re-measured before each single conversion, after the AP already spent.
    Remaining,
}

/// Variants of the tmd ruleset (RULINGS.md); defaults are the rulings' defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdVariants {
    /// Which AP total sets the extra conversions (default `turn_start`).
    #[serde(default)]
    pub conversion_ap_basis: TmdConversionApBasis,
}

/// A count per convertible action type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdTypeCounts {
    /// 花招动作 count.
    pub trick: u32,
    /// 迅捷/反射动作 count.
    pub swift: u32,
    /// 移动动作 count.
    #[serde(rename = "move")]
    pub move_: u32,
    /// 杂技动作 count.
    pub acrobatic: u32,
    /// 标准动作 count.
    pub standard: u32,
}

impl TmdTypeCounts {
    /// The count of one type.
    pub fn get(&self, t: TmdConvertType) -> u32 {
        match t {
            TmdConvertType::Trick => self.trick,
            TmdConvertType::Swift => self.swift,
            TmdConvertType::Move => self.move_,
            TmdConvertType::Acrobatic => self.acrobatic,
            TmdConvertType::Standard => self.standard,
        }
    }

    /// Mutable count of one type.
    pub fn get_mut(&mut self, t: TmdConvertType) -> &mut u32 {
        match t {
            TmdConvertType::Trick => &mut self.trick,
            TmdConvertType::Swift => &mut self.swift,
            TmdConvertType::Move => &mut self.move_,
            TmdConvertType::Acrobatic => &mut self.acrobatic,
            TmdConvertType::Standard => &mut self.standard,
        }
    }

    /// TMD-AP-7/8: conversion limits of every type for an AP total.
    pub fn limits(ap: u32) -> Self {
        let mut c = TmdTypeCounts::default();
        for t in TmdConvertType::ALL {
            *c.get_mut(t) = t.limit(ap);
        }
        c
    }

    /// Sum of all counts.
    pub fn total(&self) -> u64 {
        TmdConvertType::ALL.iter().map(|t| u64::from(self.get(*t))).sum()
    }
}

/// Labels of one action type in the rulebook's language and translations.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdLabels {
    /// Japanese.
    pub ja: String,
    /// Simplified Chinese (the rulebook's own term).
    pub zh_hans: String,
    /// Traditional Chinese.
    pub zh_hant: String,
    /// English.
    pub en: String,
}

/// One row of a TMD label data pack.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdLabelRow {
    /// The action type labelled.
    pub action_type: TmdActionType,
    /// Japanese.
    pub ja: String,
    /// Simplified Chinese.
    pub zh_hans: String,
    /// Traditional Chinese.
    pub zh_hant: String,
    /// English.
    pub en: String,
}

/// A TMD label data pack (`core/data/tmd/actions.json` is the bundled one): exactly
/// one row per action type.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdLabelPack {
    /// Free-form description of the pack (source, whether illustrative).
    pub meta: serde_json::Value,
    /// One row per action type.
    pub actions: Vec<TmdLabelRow>,
}

/// Longest label, in characters.
pub const MAX_LABEL_CHARS: usize = 200;

/// Parse and validate a label pack (untrusted: `invalid_data` naming the field).
pub fn parse_label_pack(field: &str, v: serde_json::Value) -> Result<Vec<TmdLabelRow>> {
    let pack: TmdLabelPack = crate::ops::parse_data(field, v)?;
    if pack.actions.len() > TmdActionType::ALL.len() {
        return Err(Error::invalid_data(format!("{field}.actions"), "one row per action type"));
    }
    for t in TmdActionType::ALL {
        if pack.actions.iter().filter(|r| r.action_type == t).count() != 1 {
            return Err(Error::invalid_data(
                format!("{field}.actions"),
                format_args!("needs exactly one row for {t:?}"),
            ));
        }
    }
    for (i, r) in pack.actions.iter().enumerate() {
        for (k, l) in [("ja", &r.ja), ("zh_hans", &r.zh_hans), ("zh_hant", &r.zh_hant), ("en", &r.en)] {
            let n = l.chars().count();
            if n == 0 || n > MAX_LABEL_CHARS {
                return Err(Error::invalid_data(
                    format!("{field}.actions[{i}].{k}"),
                    format_args!("must be 1..={MAX_LABEL_CHARS} characters"),
                ));
            }
        }
    }
    Ok(pack.actions)
}

fn labels_pack() -> Result<&'static Vec<TmdLabelRow>> {
    static PACK: OnceLock<std::result::Result<Vec<TmdLabelRow>, crate::Error>> = OnceLock::new();
    PACK.get_or_init(|| {
        let v: serde_json::Value = serde_json::from_str(include_str!("../../../data/tmd/actions.json"))
            .map_err(|e| Error::invalid_data("data", e))?;
        parse_label_pack("data", v)
    })
    .as_ref()
    .map_err(Clone::clone)
}

fn labels_in(rows: &[TmdLabelRow], t: TmdActionType) -> Result<TmdLabels> {
    let row = rows
        .iter()
        .find(|r| r.action_type == t)
        .ok_or_else(|| Error::invalid_data("data.actions", format_args!("no row for {t:?}")))?;
    Ok(TmdLabels {
        ja: row.ja.clone(),
        zh_hans: row.zh_hans.clone(),
        zh_hant: row.zh_hant.clone(),
        en: row.en.clone(),
    })
}

/// Labels of an action type (from the shipped data pack).
pub fn labels(t: TmdActionType) -> Result<TmdLabels> {
    labels_in(labels_pack()?, t)
}

/// Arguments of `tmd.action_types`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdActionTypesArgs {
    /// A label data pack replacing the bundled one (whose zh_hant/ja/en labels are
    /// illustrative translations); validated as untrusted data. Default: the bundled pack.
    #[serde(default)]
    #[schemars(with = "Option<TmdLabelPack>")]
    pub data: Option<serde_json::Value>,
}

/// One row of the action-type catalogue.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdActionTypeInfo {
    /// The action type.
    pub action_type: TmdActionType,
    /// TMD-AP-17 rank (free 0 … full-round 6); a higher rank may stand in for a lower one.
    pub rank: u32,
    /// TMD-AP-5 AP cost (free 0, full-round 12 = standard + move).
    pub ap_cost: u32,
    /// TMD-AP-8 one extra conversion per this many AP (null: no extra conversions / not converted).
    pub extra_conversion_step: Option<u32>,
    /// TMD-TIME-4 seconds of the 12-second round.
    pub seconds: u32,
    /// Names to show players.
    pub labels: TmdLabels,
}

/// Result of `tmd.action_types`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdActionTypesResult {
    /// Every action type, lowest rank first.
    pub action_types: Vec<TmdActionTypeInfo>,
}

/// `tmd.action_types` — the action catalogue: TMD-AP-5 costs, TMD-AP-8 steps,
/// TMD-AP-17 ranks, TMD-TIME-4 seconds, and labels for TMD-ACT-1 … TMD-ACT-10.
pub fn action_types(args: &TmdActionTypesArgs) -> Result<TmdActionTypesResult> {
    let own;
    let rows: &[TmdLabelRow] = match &args.data {
        Some(v) => {
            own = parse_label_pack("data", v.clone())?;
            &own
        }
        None => labels_pack()?,
    };
    let mut out = Vec::new();
    for t in TmdActionType::ALL {
        out.push(TmdActionTypeInfo {
            action_type: t,
            rank: t.rank(),
            ap_cost: t.ap_cost(),
            extra_conversion_step: match t {
                TmdActionType::Free | TmdActionType::FullRound => None,
                _ => t.convert_type().and_then(|c| c.extra_step()),
            },
            seconds: t.weight(),
            labels: labels_in(rows, t)?,
        });
    }
    Ok(TmdActionTypesResult { action_types: out })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruling_limits_at_14() {
        let l = TmdTypeCounts::limits(14);
        assert_eq!((l.standard, l.move_, l.swift, l.trick, l.acrobatic), (1, 2, 3, 5, 1));
    }

    #[test]
    fn labels_load() {
        assert_eq!(labels(TmdActionType::Trick).unwrap().zh_hans, "花招动作");
        assert_eq!(action_types(&TmdActionTypesArgs::default()).unwrap().action_types.len(), 8);
    }
}
