//! Shared World Trigger vocabulary: stats, positions, conditions, labels and
//! the violation list used by every validator. These types are reused by the
//! battle engine, so they carry no op-specific fields.

use crate::json::{FromJson, ToJson};

/// WT-CC-4: the eight combatant stats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtStat {
    /// 觸力能 Trion.
    Trion,
    /// 攻擊 Attack.
    Attack,
    /// 防御援護 Defense/Support.
    DefenseSupport,
    /// 機動 Mobility.
    Mobility,
    /// 技術 Technique.
    Technique,
    /// 射程 Range.
    Range,
    /// 指揮 Command.
    Command,
    /// 特殊戰術 Special Tactics.
    SpecialTactics,
}

impl WtStat {
    /// All eight stats in sheet order.
    pub const ALL: [WtStat; 8] = [
        WtStat::Trion,
        WtStat::Attack,
        WtStat::DefenseSupport,
        WtStat::Mobility,
        WtStat::Technique,
        WtStat::Range,
        WtStat::Command,
        WtStat::SpecialTactics,
    ];

    /// The snake_case key.
    pub fn key(self) -> &'static str {
        match self {
            WtStat::Trion => "trion",
            WtStat::Attack => "attack",
            WtStat::DefenseSupport => "defense_support",
            WtStat::Mobility => "mobility",
            WtStat::Technique => "technique",
            WtStat::Range => "range",
            WtStat::Command => "command",
            WtStat::SpecialTactics => "special_tactics",
        }
    }

    /// Player-facing name (WT-CC-4), in the rulebook's own terms.
    pub fn label(self) -> WtLabel {
        let (ja, zh_hans, zh_hant, en) = match self {
            WtStat::Trion => ("トリオン", "触力能", "觸力能", "Trion"),
            WtStat::Attack => ("攻撃", "攻击", "攻擊", "Attack"),
            WtStat::DefenseSupport => ("防御援護", "防御援护", "防御援護", "Defense/Support"),
            WtStat::Mobility => ("機動", "机动", "機動", "Mobility"),
            WtStat::Technique => ("技術", "技术", "技術", "Technique"),
            WtStat::Range => ("射程", "射程", "射程", "Range"),
            WtStat::Command => ("指揮", "指挥", "指揮", "Command"),
            WtStat::SpecialTactics => ("特殊戦術", "特殊战术", "特殊戰術", "Special Tactics"),
        };
        WtLabel::new(ja, zh_hans, zh_hant, en)
    }
}

/// WT-OP-2: the six operator stats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtOperatorStat {
    /// 觸力能 Trion (no use in play, WT-OP-3).
    Trion,
    /// 機器操作 Machine Operation.
    MachineOperation,
    /// 情報分析 Information Analysis.
    InformationAnalysis,
    /// 并列處理 Parallel Processing.
    ParallelProcessing,
    /// 戰術 Tactics.
    Tactics,
    /// 指揮 Command.
    Command,
}

impl WtOperatorStat {
    /// All six operator stats in sheet order.
    pub const ALL: [WtOperatorStat; 6] = [
        WtOperatorStat::Trion,
        WtOperatorStat::MachineOperation,
        WtOperatorStat::InformationAnalysis,
        WtOperatorStat::ParallelProcessing,
        WtOperatorStat::Tactics,
        WtOperatorStat::Command,
    ];

    /// The snake_case key.
    pub fn key(self) -> &'static str {
        match self {
            WtOperatorStat::Trion => "trion",
            WtOperatorStat::MachineOperation => "machine_operation",
            WtOperatorStat::InformationAnalysis => "information_analysis",
            WtOperatorStat::ParallelProcessing => "parallel_processing",
            WtOperatorStat::Tactics => "tactics",
            WtOperatorStat::Command => "command",
        }
    }

    /// Player-facing name (WT-OP-2), in the rulebook's own terms.
    pub fn label(self) -> WtLabel {
        match self {
            WtOperatorStat::Trion => WtStat::Trion.label(),
            WtOperatorStat::MachineOperation => {
                WtLabel::new("機器操作", "机器操作", "機器操作", "Machine Operation")
            }
            WtOperatorStat::InformationAnalysis => {
                WtLabel::new("情報分析", "情报分析", "情報分析", "Information Analysis")
            }
            WtOperatorStat::ParallelProcessing => {
                WtLabel::new("並列処理", "并列处理", "并列處理", "Parallel Processing")
            }
            WtOperatorStat::Tactics => WtLabel::new("戦術", "战术", "戰術", "Tactics"),
            WtOperatorStat::Command => WtStat::Command.label(),
        }
    }
}

/// A value for each combatant stat (points, bonuses, base values, minimum
/// requirements or final stats, depending on where it appears). A missing key
/// is 0. In requirements, 0 means "no requirement".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtStats {
    /// 觸力能 Trion.
    #[serde(default)]
    pub trion: i64,
    /// 攻擊 Attack.
    #[serde(default)]
    pub attack: i64,
    /// 防御援護 Defense/Support.
    #[serde(default)]
    pub defense_support: i64,
    /// 機動 Mobility.
    #[serde(default)]
    pub mobility: i64,
    /// 技術 Technique.
    #[serde(default)]
    pub technique: i64,
    /// 射程 Range.
    #[serde(default)]
    pub range: i64,
    /// 指揮 Command.
    #[serde(default)]
    pub command: i64,
    /// 特殊戰術 Special Tactics.
    #[serde(default)]
    pub special_tactics: i64,
}

impl WtStats {
    /// The value of one stat.
    pub fn get(&self, s: WtStat) -> i64 {
        match s {
            WtStat::Trion => self.trion,
            WtStat::Attack => self.attack,
            WtStat::DefenseSupport => self.defense_support,
            WtStat::Mobility => self.mobility,
            WtStat::Technique => self.technique,
            WtStat::Range => self.range,
            WtStat::Command => self.command,
            WtStat::SpecialTactics => self.special_tactics,
        }
    }

    /// A mutable reference to one stat.
    pub fn get_mut(&mut self, s: WtStat) -> &mut i64 {
        match s {
            WtStat::Trion => &mut self.trion,
            WtStat::Attack => &mut self.attack,
            WtStat::DefenseSupport => &mut self.defense_support,
            WtStat::Mobility => &mut self.mobility,
            WtStat::Technique => &mut self.technique,
            WtStat::Range => &mut self.range,
            WtStat::Command => &mut self.command,
            WtStat::SpecialTactics => &mut self.special_tactics,
        }
    }

    /// Stat-by-stat saturating sum.
    pub fn plus(&self, other: &WtStats) -> WtStats {
        let mut out = *self;
        for s in WtStat::ALL {
            *out.get_mut(s) = self.get(s).saturating_add(other.get(s));
        }
        out
    }

    /// The stats whose value here (a requirement; 0 or less = none) exceeds `stats`.
    pub fn unmet_by(&self, stats: &WtStats) -> Vec<WtStat> {
        WtStat::ALL.into_iter().filter(|&s| self.get(s) > 0 && stats.get(s) < self.get(s)).collect()
    }

    /// Sum of all eight values (saturating).
    pub fn total(&self) -> i64 {
        WtStat::ALL.iter().fold(0i64, |a, &s| a.saturating_add(self.get(s)))
    }
}

/// A value for each operator stat; a missing key is 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOperatorStats {
    /// 觸力能 Trion.
    #[serde(default)]
    pub trion: i64,
    /// 機器操作 Machine Operation.
    #[serde(default)]
    pub machine_operation: i64,
    /// 情報分析 Information Analysis.
    #[serde(default)]
    pub information_analysis: i64,
    /// 并列處理 Parallel Processing.
    #[serde(default)]
    pub parallel_processing: i64,
    /// 戰術 Tactics.
    #[serde(default)]
    pub tactics: i64,
    /// 指揮 Command.
    #[serde(default)]
    pub command: i64,
}

impl WtOperatorStats {
    /// The value of one stat.
    pub fn get(&self, s: WtOperatorStat) -> i64 {
        match s {
            WtOperatorStat::Trion => self.trion,
            WtOperatorStat::MachineOperation => self.machine_operation,
            WtOperatorStat::InformationAnalysis => self.information_analysis,
            WtOperatorStat::ParallelProcessing => self.parallel_processing,
            WtOperatorStat::Tactics => self.tactics,
            WtOperatorStat::Command => self.command,
        }
    }

    /// A mutable reference to one stat.
    pub fn get_mut(&mut self, s: WtOperatorStat) -> &mut i64 {
        match s {
            WtOperatorStat::Trion => &mut self.trion,
            WtOperatorStat::MachineOperation => &mut self.machine_operation,
            WtOperatorStat::InformationAnalysis => &mut self.information_analysis,
            WtOperatorStat::ParallelProcessing => &mut self.parallel_processing,
            WtOperatorStat::Tactics => &mut self.tactics,
            WtOperatorStat::Command => &mut self.command,
        }
    }
}

/// WT-CC-2: the five positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtPosition {
    /// 攻擊手 Attacker (blade-type main trigger).
    Attacker,
    /// 射手 Shooter (bullet-type main trigger).
    Shooter,
    /// 槍手 Gunner (gun-type main trigger).
    Gunner,
    /// 狙擊手 Sniper (sniper-rifle-type main trigger).
    Sniper,
    /// 萬能手 All-rounder (blade, bullet or gun; lower stat cap).
    AllRounder,
}

impl WtPosition {
    /// All positions.
    pub const ALL: [WtPosition; 5] = [
        WtPosition::Attacker,
        WtPosition::Shooter,
        WtPosition::Gunner,
        WtPosition::Sniper,
        WtPosition::AllRounder,
    ];

    /// The snake_case key.
    pub fn key(self) -> &'static str {
        match self {
            WtPosition::Attacker => "attacker",
            WtPosition::Shooter => "shooter",
            WtPosition::Gunner => "gunner",
            WtPosition::Sniper => "sniper",
            WtPosition::AllRounder => "all_rounder",
        }
    }

    /// WT-CC-5: the creation cap on base + points (9; All-rounder 8).
    pub fn creation_cap(self) -> i64 {
        match self {
            WtPosition::AllRounder => 8,
            _ => 9,
        }
    }
}

/// Abnormal states (WT-COND) that damage tables inflict, plus emergency bailout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtCondition {
    /// WT-COND-2: Trion Leak (small), −5 Trion in the Feedback phase.
    TrionLeakSmall,
    /// WT-COND-3: Trion Leak (large), −10 Trion in the Feedback phase.
    TrionLeakLarge,
    /// WT-COND-5: limb loss (dominant hand): main-side hand-held triggers unusable.
    LostDominantHand,
    /// WT-COND-6: limb loss (non-dominant hand): sub-side hand-held triggers unusable.
    LostOffHand,
    /// WT-COND-7: limb loss (right leg): Movement −4.
    LostRightLeg,
    /// WT-COND-7: limb loss (left leg): Movement −4.
    LostLeftLeg,
    /// WT-KO-4: emergency bailout.
    EmergencyBailout,
}

impl WtCondition {
    /// All condition ids.
    pub const ALL: [WtCondition; 7] = [
        WtCondition::TrionLeakSmall,
        WtCondition::TrionLeakLarge,
        WtCondition::LostDominantHand,
        WtCondition::LostOffHand,
        WtCondition::LostRightLeg,
        WtCondition::LostLeftLeg,
        WtCondition::EmergencyBailout,
    ];

    /// The snake_case id.
    pub fn key(self) -> &'static str {
        match self {
            WtCondition::TrionLeakSmall => "trion_leak_small",
            WtCondition::TrionLeakLarge => "trion_leak_large",
            WtCondition::LostDominantHand => "lost_dominant_hand",
            WtCondition::LostOffHand => "lost_off_hand",
            WtCondition::LostRightLeg => "lost_right_leg",
            WtCondition::LostLeftLeg => "lost_left_leg",
            WtCondition::EmergencyBailout => "emergency_bailout",
        }
    }

    /// Player-facing labels, in the rulebook's own terms.
    pub fn label(self) -> WtLabel {
        let (ja, zh_hans, zh_hant, en) = match self {
            WtCondition::TrionLeakSmall => {
                ("トリオン漏出（小）", "触力能漏出（小）", "觸力能漏出（小）", "Trion Leak (small)")
            }
            WtCondition::TrionLeakLarge => {
                ("トリオン漏出（大）", "触力能漏出（大）", "觸力能漏出（大）", "Trion Leak (large)")
            }
            WtCondition::LostDominantHand => (
                "四肢欠損（利き手）",
                "四肢残缺（惯用手）",
                "四肢殘缺（慣用手）",
                "Limb loss (dominant hand)",
            ),
            WtCondition::LostOffHand => (
                "四肢欠損（利き手でない手）",
                "四肢残缺（非惯用手）",
                "四肢殘缺（非慣用手）",
                "Limb loss (non-dominant hand)",
            ),
            WtCondition::LostRightLeg => {
                ("四肢欠損（右脚）", "四肢残缺（右脚）", "四肢殘缺（右腳）", "Limb loss (right leg)")
            }
            WtCondition::LostLeftLeg => {
                ("四肢欠損（左脚）", "四肢残缺（左脚）", "四肢殘缺（左腳）", "Limb loss (left leg)")
            }
            WtCondition::EmergencyBailout => ("緊急脱出", "紧急脱离", "緊急脫離", "Emergency bailout"),
        };
        WtLabel::new(ja, zh_hans, zh_hant, en)
    }
}

pub use crate::kernel::label::WtLabel;

/// One rule violation found by a validator (sheet or data pack).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtViolation {
    /// Dotted path of the offending field, e.g. `sheet.points` or `data.triggers[3].base`.
    pub path: String,
    /// The rule ID broken, e.g. `WT-CC-5` (`WT-DATA` for data-pack format rules).
    pub rule: String,
    /// English explanation.
    pub message: String,
    /// The explanation in the four display languages, in the rulebook's own terms, for
    /// problems a player fixes on a sheet; `null` for data-pack format problems
    /// (developer-facing, English only).
    pub label: Option<WtLabel>,
}

impl WtViolation {
    /// A new violation with an English message only.
    pub fn new(path: impl Into<String>, rule: &str, message: impl Into<String>) -> WtViolation {
        WtViolation { path: path.into(), rule: rule.into(), message: message.into(), label: None }
    }

    /// A new player-facing violation; `message` is the label's English text.
    pub fn localized(path: impl Into<String>, rule: &str, label: WtLabel) -> WtViolation {
        WtViolation { path: path.into(), rule: rule.into(), message: label.en.clone(), label: Some(label) }
    }
}

/// Turn a non-empty violation list into one `invalid_data` error: `field` and
/// `rule` are the first violation's, and the message lists every violation as
/// `[RULE] path: message`, separated by `; `.
pub fn violations_error(what: &str, violations: &[WtViolation]) -> crate::Error {
    let list: Vec<String> =
        violations.iter().map(|v| format!("[{}] {}: {}", v.rule, v.path, v.message)).collect();
    let first = violations.first();
    let mut e = crate::Error::new(
        crate::ErrorCode::InvalidData,
        format!("{what}: {} problem(s): {}", violations.len(), list.join("; ")),
    );
    e.field = first.map(|v| v.path.clone());
    e.loc = first.map(|v| crate::error::loc_of(&v.path)).unwrap_or_default();
    e.rule = first.map(|v| v.rule.clone());
    e.details = violations
        .iter()
        .map(|v| crate::ErrorDetail {
            path: v.path.clone(),
            rule: Some(v.rule.clone()),
            message: v.message.clone(),
        })
        .collect();
    e
}

/// RULINGS variants of World Trigger: one object for every op they affect
/// (`world_trigger.damage`, `damage_table`, `range`, the battle ops, and
/// `command.run`'s WD/WDT); each op uses the ones it needs, and a battle keeps it in
/// its state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtVariants {
    /// `variant: range_metric`: how diagonals count for range, areas and the Stealth
    /// distance: `chebyshev` (default: a diagonal square is 1 away) or `manhattan`.
    #[serde(default)]
    pub range_metric: super::battle::state::WtRangeMetric,
    /// `variant: special_attack_stacking`: several applicable special attacks,
    /// `highest` (default) or `sum`.
    #[serde(default)]
    pub special_attack_stacking: super::damage::WtSpecialAttackStacking,
    /// `variant: damage_table_threshold`: when the lowest damage-table tier applies,
    /// `at_least_10` (default) or `more_than_10`.
    #[serde(default)]
    pub damage_table_threshold: super::damage::WtDamageTableThreshold,
}
