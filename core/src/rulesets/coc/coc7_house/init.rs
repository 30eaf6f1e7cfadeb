//! `coc7_house.initiative` and `coc7_house.turn_order` (C7H-INIT-1, C7H-INIT-2).

use crate::engine::ids::{Ids, Source};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Largest DEX accepted.
pub const MAX_DEX: i64 = 999;
/// Largest initiative modifier (either sign).
pub const MAX_MODIFIER: i64 = 1000;
/// Most participants in one order.
pub const MAX_PARTICIPANTS: usize = 100;
/// Longest id, in characters (the shared limit of [`Ids`]).
pub const MAX_ID_CHARS: usize = crate::engine::ids::MAX_ID_LEN;

/// Arguments of `coc7_house.initiative`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hInitiativeArgs {
    /// DEX, 0–999.
    #[schemars(range(min = 0, max = 999))]
    pub dex: i64,
    /// Modifier added after the division (effects that change initiative), −1000…1000. Default 0.
    #[serde(default)]
    #[schemars(range(min = -1000, max = 1000))]
    pub modifier: i64,
}

/// Result of `coc7_house.initiative`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hInitiativeResult {
    /// floor(DEX ÷ 5) + modifier.
    pub initiative: i64,
}

/// One participant of `turn_order`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hOrderEntry {
    /// Unique id (1–64 characters).
    pub id: String,
    /// DEX, 0–999.
    #[schemars(range(min = 0, max = 999))]
    pub dex: i64,
    /// True for a player character (wins DEX ties, C7H-INIT-2).
    #[serde(default)]
    pub is_pc: bool,
    /// Initiative modifier, −1000…1000. Default 0.
    #[serde(default)]
    #[schemars(range(min = -1000, max = 1000))]
    pub modifier: i64,
}

/// Arguments of `coc7_house.turn_order`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hTurnOrderArgs {
    /// Participants (1–100), in the caller's order (the last tie-break).
    pub participants: Vec<C7hOrderEntry>,
}

/// Result of `coc7_house.turn_order`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hTurnOrderResult {
    /// Ids, first to act first.
    pub order: Vec<String>,
    /// Each participant's initiative, in `order`.
    pub initiatives: Vec<i64>,
}

fn check_dex(field: &str, dex: i64, modifier: i64) -> Result<()> {
    if !(0..=MAX_DEX).contains(&dex) {
        return Err(Error::out_of_range(
            format!("{field}dex"),
            format_args!("must be 0..={MAX_DEX}, not {dex}"),
        ));
    }
    if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&modifier) {
        return Err(Error::out_of_range(
            format!("{field}modifier"),
            format_args!("must be -{MAX_MODIFIER}..={MAX_MODIFIER}"),
        ));
    }
    Ok(())
}

/// C7H-INIT-1: initiative = floor(DEX ÷ 5) (+ modifier).
pub fn initiative_of(dex: i64, modifier: i64) -> i64 {
    dex / 5 + modifier
}

/// `coc7_house.initiative` — C7H-INIT-1.
pub fn initiative(args: &C7hInitiativeArgs) -> Result<C7hInitiativeResult> {
    check_dex("", args.dex, args.modifier)?;
    Ok(C7hInitiativeResult { initiative: initiative_of(args.dex, args.modifier) })
}

/// Validate a participant list (ids unique, 1–100 entries), from a setup
/// (`Ids::ARG`) or a saved state (`Ids::DATA`, whose entries sit under `.entry`).
pub fn validate_entries(field: &str, ps: &[C7hOrderEntry], ids: Ids) -> Result<()> {
    if ps.is_empty() || ps.len() > MAX_PARTICIPANTS {
        return Err(crate::coc_ap::round::too_many_or_none(field, ps.len(), MAX_PARTICIPANTS));
    }
    let at = |i: usize| match ids.0 {
        Source::Argument => format!("{field}[{i}]."),
        Source::Data => format!("{field}[{i}].entry."),
    };
    for (i, p) in ps.iter().enumerate() {
        ids.name(&format!("{}id", at(i)), &p.id)?;
    }
    ids.unique(ps.iter().map(|p| p.id.as_str()), |i| format!("{}id", at(i)))?;
    for (i, p) in ps.iter().enumerate() {
        check_dex(&at(i), p.dex, p.modifier)?;
    }
    Ok(())
}

/// C7H-INIT-1 / C7H-INIT-2: initiative descending, then DEX, then PCs first,
/// then the caller's order (RULINGS). Returns indices into `ps`.
pub fn order_indices(ps: &[C7hOrderEntry]) -> Vec<usize> {
    let key = |i: usize| {
        ps.get(i).map(|p| (initiative_of(p.dex, p.modifier), p.dex, p.is_pc)).unwrap_or((0, 0, false))
    };
    // Stable: equal keys keep the caller's order.
    crate::small_sort::sorted_indices(ps.len(), &|a, b| key(b).cmp(&key(a)))
}

/// `coc7_house.turn_order` — C7H-INIT-1, C7H-INIT-2.
pub fn turn_order(args: &C7hTurnOrderArgs) -> Result<C7hTurnOrderResult> {
    validate_entries("participants", &args.participants, Ids::ARG)?;
    let idx = order_indices(&args.participants);
    let ps = &args.participants;
    Ok(C7hTurnOrderResult {
        order: idx.iter().filter_map(|&i| ps.get(i)).map(|p| p.id.clone()).collect(),
        initiatives: idx
            .iter()
            .filter_map(|&i| ps.get(i))
            .map(|p| initiative_of(p.dex, p.modifier))
            .collect(),
    })
}
