//! `coc_ap.labels`: the player-facing names of the round's vocabulary (the action
//! types COCAP-ACT-1..8 and COCAP-AP-2(b), directions, treatment skills) in the four
//! display languages, so a VTT or bot shows the rulebook's terms (移動, 回避集中, …)
//! without keeping its own copy. The Japanese names are the seed's; the others are
//! translations.

use crate::coc7::check::{Coc7Labels, Coc7TermLabel};
use crate::error::Result;
use crate::json::{FromJson, ToJson};

/// No arguments.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApLabelsArgs {}

/// Result of `coc_ap.labels`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CocApLabelsResult {
    /// Every action `type` of `coc_ap.round_act`, in the order of the rulebook's table.
    pub actions: Vec<Coc7TermLabel>,
    /// The four directions of `move`, `jump` and `emergency_evasion`.
    pub directions: Vec<Coc7TermLabel>,
    /// The skills of `treat` (COCAP-ACT-4).
    pub treat_skills: Vec<Coc7TermLabel>,
}

/// One row of a table: the key, its rule, its names in ja / zh_hans / zh_hant / en.
pub(crate) type Row = (&'static str, Option<&'static str>, [&'static str; 4]);

/// A table's rows as terms.
pub(crate) fn terms(rows: &[Row]) -> Vec<Coc7TermLabel> {
    rows.iter()
        .map(|&(key, rule, [ja, zh_hans, zh_hant, en])| Coc7TermLabel {
            key: key.to_string(),
            rule: rule.map(str::to_string),
            label: Coc7Labels {
                ja: ja.into(),
                zh_hans: zh_hans.into(),
                zh_hant: zh_hant.into(),
                en: en.into(),
            },
        })
        .collect()
}

/// Every action `type`, in the order of the rulebook's table (the tests check it against
/// the enum, exhaustively).
const ACTIONS: &[Row] = &[
    ("move", Some("COCAP-ACT-1"), ["移動", "移动", "移動", "Move"]),
    ("attack", Some("COCAP-ACT-2"), ["攻撃", "攻击", "攻擊", "Attack"]),
    ("dodge", Some("COCAP-ACT-3"), ["回避", "闪避", "閃避", "Dodge"]),
    ("treat", Some("COCAP-ACT-4"), ["治療", "治疗", "治療", "Treatment"]),
    ("jump", Some("COCAP-ACT-5"), ["跳躍", "跳跃", "跳躍", "Jump"]),
    ("parry", Some("COCAP-ACT-6"), ["受け流し", "招架", "招架", "Parry"]),
    ("emergency_evasion", Some("COCAP-ACT-7"), ["緊急回避", "紧急闪避", "緊急閃避", "Emergency Evasion"]),
    ("dodge_focus", Some("COCAP-ACT-8"), ["回避集中", "专注闪避", "專注閃避", "Dodge Focus"]),
    (
        "no_reaction",
        Some("COCAP-ACT-2"),
        [
            "対応しない（攻撃を受ける）",
            "不应对（承受攻击）",
            "不應對（承受攻擊）",
            "No reaction (take the hit)",
        ],
    ),
    ("other", Some("COCAP-AP-2"), ["KP裁可の行動", "KP许可的行动", "KP許可的行動", "KP-approved action"]),
    ("end_turn", Some("COCAP-RND-2"), ["手番終了", "结束回合", "結束回合", "End turn"]),
    ("next_round", Some("COCAP-RND-2"), ["次のラウンドへ", "进入下一轮", "進入下一輪", "Next round"]),
];

const DIRECTIONS: &[Row] = &[
    ("north", None, ["北", "北", "北", "North"]),
    ("south", None, ["南", "南", "南", "South"]),
    ("east", None, ["東", "东", "東", "East"]),
    ("west", None, ["西", "西", "西", "West"]),
];

const TREAT_SKILLS: &[Row] = &[
    ("first_aid", None, ["応急手当", "急救", "急救", "First Aid"]),
    ("medicine", None, ["医学", "医学", "醫學", "Medicine"]),
    ("psychoanalysis", None, ["精神分析", "精神分析", "精神分析", "Psychoanalysis"]),
];

/// `coc_ap.labels` — the names of the action types, directions and treatment skills.
///
/// ```
/// use gunbai::coc_ap::labels::{labels, CocApLabelsArgs};
/// let l = labels(&CocApLabelsArgs {}).unwrap();
/// let focus = l.actions.iter().find(|t| t.key == "dodge_focus").unwrap();
/// assert_eq!((focus.label.ja.as_str(), focus.rule.as_deref()), ("回避集中", Some("COCAP-ACT-8")));
/// ```
pub fn labels(_: &CocApLabelsArgs) -> Result<CocApLabelsResult> {
    Ok(CocApLabelsResult {
        actions: terms(ACTIONS),
        directions: terms(DIRECTIONS),
        treat_skills: terms(TREAT_SKILLS),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coc_ap::round::{CocApAction, CocApDir, CocApTreatSkill};
    use serde_json::json;

    /// The wire `type` of each action: exhaustive, so a new action type fails to compile
    /// here until it is added to [`one_of_each`] (and then to the table).
    fn wire_type(a: &CocApAction) -> &'static str {
        match a {
            CocApAction::Move { .. } => "move",
            CocApAction::Attack { .. } => "attack",
            CocApAction::Dodge { .. } => "dodge",
            CocApAction::Treat { .. } => "treat",
            CocApAction::Jump { .. } => "jump",
            CocApAction::Parry { .. } => "parry",
            CocApAction::EmergencyEvasion { .. } => "emergency_evasion",
            CocApAction::DodgeFocus { .. } => "dodge_focus",
            CocApAction::NoReaction { .. } => "no_reaction",
            CocApAction::Other { .. } => "other",
            CocApAction::EndTurn { .. } => "end_turn",
            CocApAction::NextRound => "next_round",
        }
    }

    /// One action of each type, in the table's order.
    fn one_of_each() -> Vec<CocApAction> {
        let actor = String::new;
        vec![
            CocApAction::Move { actor: actor(), dir: CocApDir::North },
            CocApAction::Attack { actor: actor(), weapon: String::new(), target: String::new() },
            CocApAction::Dodge { actor: actor() },
            CocApAction::Treat { actor: actor(), skill: CocApTreatSkill::FirstAid, target: None },
            CocApAction::Jump { actor: actor(), dir: CocApDir::North, clears_line: true },
            CocApAction::Parry { actor: actor(), weapon: None },
            CocApAction::EmergencyEvasion { actor: actor(), dir: CocApDir::North, clears_line: true },
            CocApAction::DodgeFocus { actor: actor() },
            CocApAction::NoReaction { actor: actor() },
            CocApAction::Other { actor: actor(), ap: 1 },
            CocApAction::EndTurn { actor: actor() },
            CocApAction::NextRound,
        ]
    }

    #[test]
    fn every_action_type_directions_and_skills_have_names_under_their_wire_spelling() {
        let l = labels(&CocApLabelsArgs {}).unwrap();
        assert_eq!(l.actions.len(), one_of_each().len());
        for (a, t) in one_of_each().iter().zip(&l.actions) {
            assert_eq!(a.to_json()["type"], json!(t.key));
            assert_eq!(wire_type(a), t.key);
        }
        assert_eq!((l.directions.len(), l.treat_skills.len()), (4, 3));
        for t in &l.directions {
            let d = CocApDir::from_json(&json!(t.key), &crate::json::At::Root).unwrap();
            assert_eq!(d.to_json(), json!(t.key));
        }
        for t in &l.treat_skills {
            let k = CocApTreatSkill::from_json(&json!(t.key), &crate::json::At::Root).unwrap();
            assert_eq!(k.to_json(), json!(t.key));
        }
    }
}
