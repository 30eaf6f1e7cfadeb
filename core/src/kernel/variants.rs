//! Variant switches that a ruleset's operations and the chat commands' `variants`
//! argument share (the rules that read them stay in their ruleset).

use crate::json::{FromJson, ToJson};

/// RULINGS `damage_table_threshold`: when the lowest tier (10) applies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtDamageTableThreshold {
    /// Damage ≥ 10 rolls on the table, as the source's worked example (default).
    #[default]
    #[serde(rename = "at_least_10")]
    AtLeast10,
    /// Damage > 10 ("超過10點" read literally); the 20 and 30 tiers stay "or more".
    #[serde(rename = "more_than_10")]
    MoreThan10,
}
