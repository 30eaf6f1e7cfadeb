//! `world_trigger.labels`: the player-facing names of the fixed vocabulary
//! (stats WT-CC-4, operator stats WT-OP-2, conditions WT-COND) in the four
//! display languages, so sheets and VTT pages show the rulebook's terms without
//! keeping their own copy. Names that live in a data pack (triggers, positions,
//! traits, skills) come with the pack.

use super::types::{WtCondition, WtLabel, WtOperatorStat, WtStat};
use crate::error::Result;
use crate::json::{FromJson, ToJson};

/// No arguments.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtLabelsArgs {}

/// A combatant stat and its name.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtStatLabel {
    /// The stat's key.
    pub stat: WtStat,
    /// Its name in ja / zh_hans / zh_hant / en.
    pub label: WtLabel,
}

/// An operator stat and its name.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtOperatorStatLabel {
    /// The operator stat's key.
    pub stat: WtOperatorStat,
    /// Its name in ja / zh_hans / zh_hant / en.
    pub label: WtLabel,
}

/// A condition and its name.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtConditionLabel {
    /// The condition's id.
    pub condition: WtCondition,
    /// Its name in ja / zh_hans / zh_hant / en.
    pub label: WtLabel,
}

/// The names, each list in the rulebook's order.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtLabelsResult {
    /// The eight combatant stats (WT-CC-4), in sheet order.
    pub stats: Vec<WtStatLabel>,
    /// The six operator stats (WT-OP-2), in sheet order.
    pub operator_stats: Vec<WtOperatorStatLabel>,
    /// The conditions damage tables inflict (WT-COND) and emergency bailout (WT-KO-4).
    pub conditions: Vec<WtConditionLabel>,
}

/// `world_trigger.labels` — the names of stats, operator stats and conditions.
///
/// ```
/// use gunbai::world_trigger::labels::{labels, WtLabelsArgs};
/// let l = labels(&WtLabelsArgs {}).unwrap();
/// assert_eq!(l.stats[0].label.zh_hant, "觸力能");
/// assert_eq!(l.stats.len(), 8);
/// ```
pub fn labels(_: &WtLabelsArgs) -> Result<WtLabelsResult> {
    Ok(WtLabelsResult {
        stats: WtStat::ALL.iter().map(|&stat| WtStatLabel { stat, label: stat.label() }).collect(),
        operator_stats: WtOperatorStat::ALL
            .iter()
            .map(|&stat| WtOperatorStatLabel { stat, label: stat.label() })
            .collect(),
        conditions: WtCondition::ALL
            .iter()
            .map(|&condition| WtConditionLabel { condition, label: condition.label() })
            .collect(),
    })
}
