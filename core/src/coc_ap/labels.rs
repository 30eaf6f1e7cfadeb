//! `coc_ap.labels`: the player-facing names of the round's vocabulary (the action
//! types COCAP-ACT-1..8 and COCAP-AP-2(b), directions, treatment skills) in the four
//! display languages, so a VTT or bot shows the rulebook's terms (移動, 回避集中, …)
//! without keeping its own copy. The Japanese names are the seed's; the others are
//! translations.

use super::round::{CocApAction, CocApDir, CocApTreatSkill};
use crate::coc7::check::Coc7Labels;
use crate::error::Result;
use crate::json::{FromJson, ToJson};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// No arguments.
#[derive(Debug, Clone, Default, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocLabelsArgs {}

/// One term: the value as the operations spell it, the rule that defines it, its names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
pub struct CocTermLabel {
    /// The value as arguments and results spell it (an action's `type`, a direction, …).
    pub key: String,
    /// The rule ID that defines it, when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Its name in ja / zh_hans / zh_hant / en.
    pub label: Coc7Labels,
}

/// Result of `coc_ap.labels`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
pub struct CocApLabelsResult {
    /// Every action `type` of `coc_ap.round_act`, in the order of the rulebook's table.
    pub actions: Vec<CocTermLabel>,
    /// The four directions of `move`, `jump` and `emergency_evasion`.
    pub directions: Vec<CocTermLabel>,
    /// The skills of `treat` (COCAP-ACT-4).
    pub treat_skills: Vec<CocTermLabel>,
}

/// A term.
pub(crate) fn term(key: &str, rule: Option<&str>, names: [&str; 4]) -> CocTermLabel {
    let [ja, zh_hans, zh_hant, en] = names;
    CocTermLabel {
        key: key.to_string(),
        rule: rule.map(str::to_string),
        label: Coc7Labels { ja: ja.into(), zh_hans: zh_hans.into(), zh_hant: zh_hant.into(), en: en.into() },
    }
}

/// The `type` of an action, its rule, and its names (exhaustive: a new action type
/// cannot be added without its names).
pub(crate) fn action_term(a: &CocApAction) -> (&'static str, Option<&'static str>, [&'static str; 4]) {
    match a {
        CocApAction::Move { .. } => ("move", Some("COCAP-ACT-1"), ["移動", "移动", "移動", "Move"]),
        CocApAction::Attack { .. } => ("attack", Some("COCAP-ACT-2"), ["攻撃", "攻击", "攻擊", "Attack"]),
        CocApAction::Dodge { .. } => ("dodge", Some("COCAP-ACT-3"), ["回避", "闪避", "閃避", "Dodge"]),
        CocApAction::Treat { .. } => ("treat", Some("COCAP-ACT-4"), ["治療", "治疗", "治療", "Treatment"]),
        CocApAction::Jump { .. } => ("jump", Some("COCAP-ACT-5"), ["跳躍", "跳跃", "跳躍", "Jump"]),
        CocApAction::Parry { .. } => ("parry", Some("COCAP-ACT-6"), ["受け流し", "招架", "招架", "Parry"]),
        CocApAction::EmergencyEvasion { .. } => (
            "emergency_evasion",
            Some("COCAP-ACT-7"),
            ["緊急回避", "紧急闪避", "緊急閃避", "Emergency Evasion"],
        ),
        CocApAction::DodgeFocus { .. } => {
            ("dodge_focus", Some("COCAP-ACT-8"), ["回避集中", "专注闪避", "專注閃避", "Dodge Focus"])
        }
        CocApAction::Other { .. } => (
            "other",
            Some("COCAP-AP-2"),
            ["KP裁可の行動", "KP许可的行动", "KP許可的行動", "KP-approved action"],
        ),
        CocApAction::EndTurn { .. } => {
            ("end_turn", Some("COCAP-RND-2"), ["手番終了", "结束回合", "結束回合", "End turn"])
        }
        CocApAction::NextRound => {
            ("next_round", Some("COCAP-RND-2"), ["次のラウンドへ", "进入下一轮", "進入下一輪", "Next round"])
        }
    }
}

/// One action of each type, in the rulebook's order.
pub(crate) fn one_of_each() -> Vec<CocApAction> {
    let actor = String::new;
    vec![
        CocApAction::Move { actor: actor(), dir: CocApDir::North },
        CocApAction::Attack { actor: actor(), weapon: String::new() },
        CocApAction::Dodge { actor: actor() },
        CocApAction::Treat { actor: actor(), skill: CocApTreatSkill::FirstAid },
        CocApAction::Jump { actor: actor(), dir: CocApDir::North },
        CocApAction::Parry { actor: actor(), weapon: None },
        CocApAction::EmergencyEvasion { actor: actor(), dir: CocApDir::North },
        CocApAction::DodgeFocus { actor: actor() },
        CocApAction::Other { actor: actor(), ap: 1 },
        CocApAction::EndTurn { actor: actor() },
        CocApAction::NextRound,
    ]
}

/// `coc_ap.labels` — the names of the action types, directions and treatment skills.
///
/// ```
/// use gunbai::coc_ap::labels::{labels, CocLabelsArgs};
/// let l = labels(&CocLabelsArgs {}).unwrap();
/// let focus = l.actions.iter().find(|t| t.key == "dodge_focus").unwrap();
/// assert_eq!((focus.label.ja.as_str(), focus.rule.as_deref()), ("回避集中", Some("COCAP-ACT-8")));
/// ```
pub fn labels(_: &CocLabelsArgs) -> Result<CocApLabelsResult> {
    let actions = one_of_each()
        .iter()
        .map(|a| {
            let (key, rule, names) = action_term(a);
            term(key, rule, names)
        })
        .collect();
    let directions = vec![
        term(CocApDir::North.key(), None, ["北", "北", "北", "North"]),
        term(CocApDir::South.key(), None, ["南", "南", "南", "South"]),
        term(CocApDir::East.key(), None, ["東", "东", "東", "East"]),
        term(CocApDir::West.key(), None, ["西", "西", "西", "West"]),
    ];
    let treat_skills = vec![
        term(CocApTreatSkill::FirstAid.key(), None, ["応急手当", "急救", "急救", "First Aid"]),
        term(CocApTreatSkill::Medicine.key(), None, ["医学", "医学", "醫學", "Medicine"]),
        term(
            CocApTreatSkill::Psychoanalysis.key(),
            None,
            ["精神分析", "精神分析", "精神分析", "Psychoanalysis"],
        ),
    ];
    Ok(CocApLabelsResult { actions, directions, treat_skills })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_action_type_directions_and_skills_have_names_under_their_wire_spelling() {
        let l = labels(&CocLabelsArgs {}).unwrap();
        for (a, t) in one_of_each().iter().zip(&l.actions) {
            assert_eq!(a.to_json()["type"], json!(t.key));
        }
        assert_eq!(l.actions.len(), one_of_each().len());
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
