//! The action catalogue (FM-ACT-1 .. FM-ACT-20, FM-LIM-1 .. FM-LIM-4) as data.
//!
//! The shipped pack is `core/data/fap_map/actions.json`; a caller may pass its
//! own pack in the same shape as `data` (validated, `invalid_data` on error).
//! The round engine (`round.rs`) reads every behaviour from these flags, so a
//! group's own pack (e.g. with Chapter 2 attacks) works the same way.

use super::points::{self, MAX_TENTHS};
use crate::engine::ids::{quote, Ids};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// Most actions in one pack.
pub const MAX_ACTIONS: usize = 200;
/// Most examples per action.
pub const MAX_EXAMPLES: usize = 50;
/// Longest id, label or note, in characters.
pub const MAX_TEXT: usize = 500;

/// Labels shown to players, in the rulebook's own terms (`ja`) and translations.
#[derive(Debug, Clone, Default, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmNames {
    /// Japanese (the rulebook's term).
    pub ja: String,
    /// English.
    pub en: String,
    /// Simplified Chinese.
    pub zh_hans: String,
    /// Traditional Chinese.
    pub zh_hant: String,
}

/// FM-ACT-1: the three action categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FmCategory {
    /// メジャーアクション: main actions of a round.
    Major,
    /// マイナーアクション: main actions, simpler than majors.
    Minor,
    /// オプションコマンド: passive or simple actions.
    Option,
}

crate::internally_tagged! {
    #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
    /// A FAP or MAP cost, in tenths of a point (FM-AP-3).
    #[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum FmCost {
        /// A fixed cost.
        Fixed {
            /// The cost in tenths (`70` = 7 points).
            tenths: i64,
        },
        /// Any amount from `min_tenths` up to `max_tenths` (no upper bound when absent),
        /// chosen by the caller (defaults to the minimum when not given).
        Range {
            /// Smallest amount, in tenths.
            min_tenths: i64,
            /// Largest amount, in tenths; absent = no upper bound.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            max_tenths: Option<i64>,
        },
        /// One of a few amounts (close attack: MAP 1 or 2); the caller must choose.
        Choice {
            /// The allowed amounts, in tenths.
            options_tenths: Vec<i64>,
        },
        /// "様々": set by data missing from the rulebook (spells, Chapter 2); the caller must supply it.
        Varies,
    }
}

impl FmCost {
    /// Display text: `7`, `0.1–0.3`, `1+`, `1 or 2`, `varies`.
    pub fn text(&self) -> String {
        match self {
            FmCost::Fixed { tenths } => points::text(*tenths),
            FmCost::Range { min_tenths, max_tenths: Some(m) } => {
                format!("{}–{}", points::text(*min_tenths), points::text(*m))
            }
            FmCost::Range { min_tenths, max_tenths: None } => format!("{}+", points::text(*min_tenths)),
            FmCost::Choice { options_tenths } => {
                options_tenths.iter().map(|t| points::text(*t)).collect::<Vec<_>>().join(" or ")
            }
            FmCost::Varies => "varies".into(),
        }
    }

    /// The smallest amount this cost allows (for `varies`: 0).
    pub fn min(&self) -> i64 {
        match self {
            FmCost::Fixed { tenths } => *tenths,
            FmCost::Range { min_tenths, .. } => *min_tenths,
            FmCost::Choice { options_tenths } => options_tenths.iter().copied().min().unwrap_or(0),
            FmCost::Varies => 0,
        }
    }

    /// The amount to use when the caller omits one, if this cost has a default.
    pub fn default_amount(&self) -> Option<i64> {
        match self {
            FmCost::Fixed { tenths } => Some(*tenths),
            FmCost::Range { min_tenths, .. } => Some(*min_tenths),
            FmCost::Choice { .. } | FmCost::Varies => None,
        }
    }

    /// Resolve a caller-supplied amount (tenths) against this cost.
    pub fn resolve(&self, field: &str, supplied: Option<i64>) -> Result<i64> {
        let v = match (supplied, self.default_amount()) {
            (Some(v), _) => points::check_amount(field, v)?,
            (None, Some(d)) => return Ok(d),
            (None, None) => {
                return Err(Error::invalid(
                    field,
                    format_args!("this cost is {}: give the amount in tenths", self.text()),
                ))
            }
        };
        let ok = match self {
            FmCost::Fixed { tenths } => v == *tenths,
            FmCost::Range { min_tenths, max_tenths } => v >= *min_tenths && max_tenths.is_none_or(|m| v <= m),
            FmCost::Choice { options_tenths } => options_tenths.contains(&v),
            FmCost::Varies => true,
        };
        if ok {
            Ok(v)
        } else {
            Err(Error::out_of_range(
                field,
                format_args!("{} tenths is not allowed: the cost is {}", v, self.text()),
            ))
        }
    }

    fn validate(&self, field: &str) -> Result<()> {
        let bad = |m: &str| Err(Error::invalid_data(field, m));
        let in_range = |t: i64| (0..=MAX_TENTHS).contains(&t);
        match self {
            FmCost::Fixed { tenths } if !in_range(*tenths) => bad("tenths out of range"),
            FmCost::Range { min_tenths, max_tenths } => {
                if !in_range(*min_tenths) || max_tenths.is_some_and(|m| !in_range(m) || m < *min_tenths) {
                    bad("range must satisfy 0 <= min_tenths <= max_tenths <= 1000000")
                } else {
                    Ok(())
                }
            }
            FmCost::Choice { options_tenths } => {
                if options_tenths.is_empty()
                    || options_tenths.len() > 20
                    || !options_tenths.iter().all(|t| in_range(*t))
                {
                    bad("choice needs 1..=20 options within 0..=1000000")
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }
}

/// How and when an action is resolved (FM-DEF-4, FM-LIM-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FmResolution {
    /// Declared at round start and resolved in action order.
    InOrder,
    /// Declared at round start, used while another character's action resolves
    /// (the blocks, FM-ACT-8 / FM-ACT-12).
    OnTrigger,
    /// Needs no declaration; a reaction to an attack (FM-ACT-14, FM-ACT-16).
    Reaction,
    /// Needs no declaration; resolves at once regardless of order (FM-ACT-20).
    Immediate,
}

/// FM-LIM-3: how an action changes the action order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FmOrderEffect {
    /// No order modifier.
    #[default]
    None,
    /// FM-ACT-15: Reaction counts as 0 for this round's order.
    ReactionZero,
    /// FM-ACT-20: the character's next action orders at Reaction − 1.
    NextActionMinusOne,
}

/// A named example with a fixed cost (FM-ACT-17, FM-ACT-18).
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmExample {
    /// snake_case id, unique within the action.
    pub id: String,
    /// Labels.
    pub names: FmNames,
    /// FAP cost in tenths.
    pub fap_tenths: i64,
    /// MAP cost in tenths.
    pub map_tenths: i64,
}

/// One action of the catalogue.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmActionDef {
    /// snake_case id (`direct_attack`), unique in the pack.
    pub id: String,
    /// The rule ID defining it (`FM-ACT-2`).
    pub rule: String,
    /// Major, minor or option (FM-ACT-1).
    pub category: FmCategory,
    /// Labels.
    pub names: FmNames,
    /// FAP cost (消費FAP).
    pub fap: FmCost,
    /// MAP cost (消費MAP).
    pub map: FmCost,
    /// When the action is resolved; `reaction` and `immediate` need no declaration (FM-LIM-2).
    pub resolution: FmResolution,
    /// FM-LIM-1: counts toward the shared cap of three per round (default false).
    #[serde(default)]
    pub counts_toward_move_cap: bool,
    /// FM-LIM-3: effect on the action order (default none).
    #[serde(default)]
    pub order_effect: FmOrderEffect,
    /// FM-LIM-4: cannot be chosen while remaining FAP is below this (tenths; default 0).
    #[serde(default)]
    pub min_fap_tenths_to_choose: i64,
    /// FM-LIM-4: cannot be chosen while remaining MAP is below this (tenths; default 0).
    #[serde(default)]
    pub min_map_tenths_to_choose: i64,
    /// The id of the `on_trigger` action that may block this one (move → block_movement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blockable_by: Option<String>,
    /// FM-ACT-8 / FM-ACT-12: at most one attempt per target action, however often declared.
    #[serde(default)]
    pub once_per_target_action: bool,
    /// FM-ACT-7: may name a combatant to follow at declaration (Move); see `follow`.
    #[serde(default)]
    pub can_follow: bool,
    /// An attack (single-target or area): declared with `targets`, and while it is
    /// resolved those targets may answer it with a reaction (Evade, Jump evasion;
    /// RULINGS 2026-12-05). Default false.
    #[serde(default)]
    pub attack: bool,
    /// FM-ACT-12 (RULINGS 2026-12-05): a block usable only between two grappling
    /// characters (Attack Block); the round state records grapples. Default false.
    #[serde(default)]
    pub requires_grapple: bool,
    /// FM-ACT-9: back-to-back repeats (jump→jump) take no agility penalty at resolution;
    /// resolved events then say `consecutive`.
    #[serde(default)]
    pub consecutive_no_agility_penalty: bool,
    /// FM-ACT-19: declared alone, together with one paired action and a condition.
    #[serde(default)]
    pub pairs_with_action: bool,
    /// FM-ACT-18: continues into later rounds, where it is resolved first.
    #[serde(default)]
    pub carries_over: bool,
    /// Named examples with fixed costs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<FmExample>,
    /// English note on use.
    #[serde(default)]
    pub note: String,
    /// FAP cost as text (`7`, `0.1–0.3`, `1+`, `varies`), as `fap_map.actions` writes it;
    /// optional in a pack, and then it must match `fap`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fap_text: Option<String>,
    /// MAP cost as text (`1`, `1 or 2`, `varies`), as `fap_map.actions` writes it;
    /// optional in a pack, and then it must match `map`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_text: Option<String>,
}

/// Pack metadata.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmPackMeta {
    /// Pack id (stored in round states, to detect a different pack).
    pub id: String,
    /// Title.
    pub title: String,
    /// Where the data comes from.
    pub source: String,
    /// Which parts are illustrative (not from the rulebook).
    pub illustrative: String,
}

/// An action catalogue pack.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmActionPack {
    /// Metadata.
    pub meta: FmPackMeta,
    /// The actions.
    pub actions: Vec<FmActionDef>,
}

impl FmActionPack {
    /// Look an action up by id.
    pub fn get(&self, id: &str) -> Option<&FmActionDef> {
        self.actions.iter().find(|a| a.id == id)
    }
}

/// A pack's snake_case id, through the shared validator.
fn check_id(field: &str, id: &str) -> Result<()> {
    Ids::DATA.data_id(field, id)
}

fn check_text(field: &str, s: &str, allow_empty: bool) -> Result<()> {
    if (!allow_empty && s.trim().is_empty()) || s.chars().count() > MAX_TEXT {
        return Err(Error::invalid_data(field, format_args!("must be 1..={MAX_TEXT} characters")));
    }
    Ok(())
}

fn check_names(field: &str, n: &FmNames) -> Result<()> {
    check_text(&format!("{field}.ja"), &n.ja, false)?;
    check_text(&format!("{field}.en"), &n.en, false)?;
    check_text(&format!("{field}.zh_hans"), &n.zh_hans, false)?;
    check_text(&format!("{field}.zh_hant"), &n.zh_hant, false)
}

/// Validate a parsed pack (`field` names the argument it came from).
pub fn validate(pack: &FmActionPack, field: &str) -> Result<()> {
    check_text(&format!("{field}.meta.id"), &pack.meta.id, false)?;
    if pack.actions.is_empty() || pack.actions.len() > MAX_ACTIONS {
        return Err(Error::invalid_data(
            format!("{field}.actions"),
            format_args!("needs 1..={MAX_ACTIONS} actions"),
        ));
    }
    for (i, a) in pack.actions.iter().enumerate() {
        check_id(&format!("{field}.actions[{i}].id"), &a.id)?;
    }
    Ids::DATA.unique(pack.actions.iter().map(|a| a.id.as_str()), |i| format!("{field}.actions[{i}].id"))?;
    for (i, a) in pack.actions.iter().enumerate() {
        let f = format!("{field}.actions[{i}]");
        check_text(&format!("{f}.rule"), &a.rule, false)?;
        check_text(&format!("{f}.note"), &a.note, true)?;
        check_names(&format!("{f}.names"), &a.names)?;
        a.fap.validate(&format!("{f}.fap"))?;
        a.map.validate(&format!("{f}.map"))?;
        for (text, cost, n) in [(&a.fap_text, &a.fap, "fap_text"), (&a.map_text, &a.map, "map_text")] {
            if text.as_ref().is_some_and(|t| *t != cost.text()) {
                return Err(Error::invalid_data(
                    format!("{f}.{n}"),
                    format_args!("does not match the cost (which reads {:?})", cost.text()),
                ));
            }
        }
        for (v, n) in [
            (a.min_fap_tenths_to_choose, "min_fap_tenths_to_choose"),
            (a.min_map_tenths_to_choose, "min_map_tenths_to_choose"),
        ] {
            if !(0..=MAX_TENTHS).contains(&v) {
                return Err(Error::invalid_data(format!("{f}.{n}"), "out of range"));
            }
        }
        let declared = matches!(a.resolution, FmResolution::InOrder | FmResolution::OnTrigger);
        // FM-LIM-2: an action used without declaration (`use`) takes no amount, so
        // its costs must have one (fixed, or a range used at its minimum).
        if !declared {
            for (c, n) in [(&a.fap, "fap"), (&a.map, "map")] {
                if c.default_amount().is_none() {
                    return Err(Error::invalid_data(
                        format!("{f}.{n}"),
                        "an action used without declaration needs a fixed or range cost",
                    ));
                }
            }
        }
        if (a.pairs_with_action || a.carries_over) && a.resolution != FmResolution::InOrder {
            return Err(Error::invalid_data(
                format!("{f}.resolution"),
                "pairs_with_action and carries_over need resolution in_order",
            ));
        }
        if a.attack && a.resolution != FmResolution::InOrder {
            return Err(Error::invalid_data(format!("{f}.attack"), "needs resolution in_order"));
        }
        if a.requires_grapple && a.resolution != FmResolution::OnTrigger {
            return Err(Error::invalid_data(
                format!("{f}.requires_grapple"),
                "needs resolution on_trigger (a block)",
            ));
        }
        if a.can_follow && a.resolution != FmResolution::InOrder {
            return Err(Error::invalid_data(format!("{f}.can_follow"), "needs resolution in_order"));
        }
        if a.once_per_target_action && a.resolution != FmResolution::OnTrigger {
            return Err(Error::invalid_data(
                format!("{f}.once_per_target_action"),
                "needs resolution on_trigger",
            ));
        }
        if a.order_effect == FmOrderEffect::ReactionZero && !declared {
            return Err(Error::invalid_data(
                format!("{f}.order_effect"),
                "reaction_zero needs a declared action",
            ));
        }
        if a.examples.len() > MAX_EXAMPLES {
            return Err(Error::invalid_data(format!("{f}.examples"), format_args!("at most {MAX_EXAMPLES}")));
        }
        for (j, e) in a.examples.iter().enumerate() {
            check_id(&format!("{f}.examples[{j}].id"), &e.id)?;
        }
        Ids::DATA.unique(a.examples.iter().map(|e| e.id.as_str()), |j| format!("{f}.examples[{j}].id"))?;
        for (j, e) in a.examples.iter().enumerate() {
            let g = format!("{f}.examples[{j}]");
            check_names(&format!("{g}.names"), &e.names)?;
            a.fap
                .resolve("fap_tenths", Some(e.fap_tenths))
                .map_err(|e| Error::invalid_data(format!("{g}.fap_tenths"), e.0.message))?;
            a.map
                .resolve("map_tenths", Some(e.map_tenths))
                .map_err(|e| Error::invalid_data(format!("{g}.map_tenths"), e.0.message))?;
        }
    }
    for (i, a) in pack.actions.iter().enumerate() {
        if let Some(b) = &a.blockable_by {
            let field = format!("{field}.actions[{i}].blockable_by");
            Ids::DATA.resolves(&field, b, pack.actions.iter().map(|d| d.id.as_str()))?;
            if pack.get(b).is_none_or(|d| d.resolution != FmResolution::OnTrigger) {
                return Err(Error::invalid_data(
                    field,
                    format_args!("{} is not an on_trigger action of this pack", quote(b)),
                ));
            }
        }
    }
    Ok(())
}

fn builtin() -> Result<Arc<FmActionPack>> {
    static PACK: OnceLock<Result<Arc<FmActionPack>>> = OnceLock::new();
    PACK.get_or_init(|| {
        let v: Value = serde_json::from_str(include_str!("../../../data/fap_map/actions.json"))
            .map_err(|e| Error::new(ErrorCode::Internal, format!("built-in fap_map pack: {e}")))?;
        let p: FmActionPack = crate::ops::parse_data("data", v)?;
        validate(&p, "data")?;
        Ok(Arc::new(p))
    })
    .clone()
}

/// The caller's pack (`data`, validated) or the built-in one.
pub fn load(data: Option<&Value>) -> Result<Arc<FmActionPack>> {
    match data {
        None => builtin(),
        Some(v) => {
            let p: FmActionPack = crate::ops::parse_data("data", v.clone())?;
            validate(&p, "data")?;
            Ok(Arc::new(p))
        }
    }
}

/// Arguments of `fap_map.actions`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmActionsArgs {
    /// Only this category.
    #[serde(default)]
    pub category: Option<FmCategory>,
    /// Only the action with this id (`unknown` id → `invalid_argument`).
    #[serde(default)]
    pub id: Option<String>,
    /// A caller's own action pack (same shape as the result's `meta` + `actions`); default: the built-in pack.
    #[serde(default)]
    pub data: Option<Value>,
}

/// Result of `fap_map.actions`.
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmActionsResult {
    /// Pack metadata.
    pub meta: FmPackMeta,
    /// The actions, in pack order, with `fap_text` / `map_text` filled in. Costs are in
    /// tenths (`{"kind": "fixed", "tenths": 70}` = 7 points). The result is itself a
    /// valid pack: it may be passed back as `data`.
    pub actions: Vec<FmActionDef>,
}

/// `fap_map.actions` — FM-ACT-1 .. FM-ACT-20: the action catalogue with categories,
/// FAP/MAP costs in tenths, limits (FM-LIM-1 .. FM-LIM-4) and flags.
pub fn actions(args: &FmActionsArgs) -> Result<FmActionsResult> {
    let pack = load(args.data.as_ref())?;
    if let Some(id) = &args.id {
        if pack.get(id).is_none() {
            return Err(Error::invalid("id", format_args!("no action {} in the pack", quote(id))));
        }
    }
    let actions = pack
        .actions
        .iter()
        .filter(|a| args.category.is_none_or(|c| a.category == c))
        .filter(|a| args.id.as_ref().is_none_or(|id| &a.id == id))
        .map(|a| FmActionDef { fap_text: Some(a.fap.text()), map_text: Some(a.map.text()), ..a.clone() })
        .collect();
    Ok(FmActionsResult { meta: pack.meta.clone(), actions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_pack_is_valid() {
        let p = builtin().unwrap();
        assert_eq!(p.actions.len(), 19);
        // FM-ACT-1: every category is present.
        for c in [FmCategory::Major, FmCategory::Minor, FmCategory::Option] {
            assert!(p.actions.iter().any(|a| a.category == c));
        }
    }

    #[test]
    fn cost_resolution() {
        let r = FmCost::Range { min_tenths: 1, max_tenths: Some(3) };
        assert_eq!(r.resolve("f", None).unwrap(), 1);
        assert_eq!(r.resolve("f", Some(3)).unwrap(), 3);
        assert_eq!(r.resolve("f", Some(4)).unwrap_err().code, ErrorCode::OutOfRange);
        assert_eq!(FmCost::Varies.resolve("f", None).unwrap_err().code, ErrorCode::InvalidArgument);
        assert_eq!(FmCost::Varies.resolve("f", Some(-1)).unwrap_err().code, ErrorCode::OutOfRange);
        let c = FmCost::Choice { options_tenths: vec![10, 20] };
        assert_eq!(c.text(), "1 or 2");
        assert_eq!(c.resolve("f", Some(20)).unwrap(), 20);
        assert!(c.resolve("f", Some(15)).is_err());
        assert_eq!(FmCost::Range { min_tenths: 3, max_tenths: None }.text(), "0.3+");
    }

    #[test]
    fn garbage_packs_are_invalid_data() {
        for v in [
            serde_json::json!(null),
            serde_json::json!({}),
            serde_json::json!({"meta": {"id": "x", "title": "", "source": "", "illustrative": ""}, "actions": []}),
            serde_json::json!([1, 2, 3]),
        ] {
            assert_eq!(load(Some(&v)).unwrap_err().code, ErrorCode::InvalidData);
        }
    }
}
