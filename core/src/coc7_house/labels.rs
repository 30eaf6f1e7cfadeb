//! `coc7_house.labels`: the player-facing names of the round's vocabulary (the action
//! types C7H-MOV-1, C7H-ACT-1, C7H-STN-1, C7H-PAS-1, C7H-FREE-1, the stance options and
//! the passive actions) in the four display languages, using the seed's Japanese terms
//! (能動行動, 防御姿勢, 受動行動, …); the others are translations.

use super::round::{C7hAction, C7hPassiveKind, C7hStance};
use crate::coc_ap::labels::{term, CocLabelsArgs, CocTermLabel};
use crate::error::Result;
use crate::json::{FromJson, ToJson};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Result of `coc7_house.labels`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
pub struct C7hLabelsResult {
    /// Every action `type` of `coc7_house.round_act`.
    pub actions: Vec<CocTermLabel>,
    /// The options of a defensive stance (C7H-STN-1 (a), (b)).
    pub stance_options: Vec<CocTermLabel>,
    /// The kinds of passive action (C7H-PAS-1).
    pub passive_kinds: Vec<CocTermLabel>,
}

/// The `type` of an action, its rule, and its names (exhaustive: a new action type
/// cannot be added without its names).
fn action_term(a: &C7hAction) -> (&'static str, Option<&'static str>, [&'static str; 4]) {
    match a {
        C7hAction::Move { .. } => ("move", Some("C7H-MOV-1"), ["移動", "移动", "移動", "Move"]),
        C7hAction::Active { .. } => {
            ("active", Some("C7H-ACT-1"), ["能動行動", "主动行动", "主動行動", "Active action"])
        }
        C7hAction::Stance { .. } => {
            ("stance", Some("C7H-STN-1"), ["防御姿勢", "防御姿态", "防禦姿態", "Defensive stance"])
        }
        C7hAction::Passive { .. } => {
            ("passive", Some("C7H-PAS-1"), ["受動行動", "被动行动", "被動行動", "Passive action"])
        }
        C7hAction::Free { .. } => {
            ("free", Some("C7H-FREE-1"), ["自由行動", "自由行动", "自由行動", "Free action"])
        }
        C7hAction::EndTurn { .. } => {
            ("end_turn", Some("C7H-INIT-1"), ["手番終了", "结束回合", "結束回合", "End turn"])
        }
        C7hAction::NextRound => {
            ("next_round", Some("C7H-ECO-1"), ["次のラウンドへ", "进入下一轮", "進入下一輪", "Next round"])
        }
    }
}

/// One action of each type.
fn one_of_each() -> Vec<C7hAction> {
    let actor = String::new;
    vec![
        C7hAction::Move { actor: actor() },
        C7hAction::Active { actor: actor(), concentration: false },
        C7hAction::Stance { actor: actor(), option: C7hStance::ExtraPassive },
        C7hAction::Passive { actor: actor(), kind: C7hPassiveKind::Dodge, bonus_die: false },
        C7hAction::Free { actor: actor() },
        C7hAction::EndTurn { actor: actor() },
        C7hAction::NextRound,
    ]
}

/// The names of a stance option (exhaustive).
fn stance_term(s: C7hStance) -> CocTermLabel {
    match s {
        C7hStance::ExtraPassive => term(
            "extra_passive",
            Some("C7H-STN-1"),
            ["受動行動回数+1", "被动行动次数+1", "被動行動次數+1", "+1 passive action"],
        ),
        C7hStance::BonusDie => term(
            "bonus_die",
            Some("C7H-STN-1"),
            [
                "受動行動判定にボーナスダイス+1",
                "被动行动检定奖励骰+1",
                "被動行動檢定獎勵骰+1",
                "+1 bonus die on a passive roll",
            ],
        ),
    }
}

/// The names of a passive action (exhaustive). Dodge and Fight Back are base 7e's.
fn passive_term(k: C7hPassiveKind) -> CocTermLabel {
    match k {
        C7hPassiveKind::Dodge => term("dodge", Some("C7H-PAS-1"), ["回避", "闪避", "閃避", "Dodge"]),
        C7hPassiveKind::Defend => term("defend", Some("C7H-DEF-1"), ["防御", "防御", "防禦", "Defend"]),
        C7hPassiveKind::FightBack => {
            term("fight_back", Some("C7H-PAS-1"), ["応戦", "反击", "反擊", "Fight Back"])
        }
        C7hPassiveKind::Cover => term("cover", Some("C7H-COV-1"), ["かばう", "掩护", "掩護", "Cover"]),
        C7hPassiveKind::Cancel => term("cancel", Some("C7H-CAN-1"), ["相殺", "抵消", "抵消", "Cancel"]),
        C7hPassiveKind::Counter => {
            term("counter", Some("C7H-CTR-1"), ["反撃", "反攻", "反攻", "Counter-attack"])
        }
        C7hPassiveKind::Other => term(
            "other",
            Some("C7H-PAS-1"),
            ["その他の受動行動", "其他被动行动", "其他被動行動", "Other passive action"],
        ),
    }
}

/// `coc7_house.labels` — the names of the action types, stance options and passive actions.
///
/// ```
/// use gunbai::coc7_house::labels::labels;
/// use gunbai::coc_ap::labels::CocLabelsArgs;
/// let l = labels(&CocLabelsArgs {}).unwrap();
/// let stance = l.actions.iter().find(|t| t.key == "stance").unwrap();
/// assert_eq!(stance.label.ja, "防御姿勢");
/// ```
pub fn labels(_: &CocLabelsArgs) -> Result<C7hLabelsResult> {
    let actions = one_of_each()
        .iter()
        .map(|a| {
            let (key, rule, names) = action_term(a);
            term(key, rule, names)
        })
        .collect();
    let stance_options =
        [C7hStance::ExtraPassive, C7hStance::BonusDie].into_iter().map(stance_term).collect();
    let passive_kinds = [
        C7hPassiveKind::Dodge,
        C7hPassiveKind::Defend,
        C7hPassiveKind::FightBack,
        C7hPassiveKind::Cover,
        C7hPassiveKind::Cancel,
        C7hPassiveKind::Counter,
        C7hPassiveKind::Other,
    ]
    .into_iter()
    .map(passive_term)
    .collect();
    Ok(C7hLabelsResult { actions, stance_options, passive_kinds })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_action_type_stance_option_and_passive_kind_is_named_under_its_wire_spelling() {
        let l = labels(&CocLabelsArgs {}).unwrap();
        assert_eq!(l.actions.len(), one_of_each().len());
        for (a, t) in one_of_each().iter().zip(&l.actions) {
            assert_eq!(a.to_json()["type"], json!(t.key));
        }
        for t in &l.stance_options {
            let s = C7hStance::from_json(&json!(t.key), &crate::json::At::Root).unwrap();
            assert_eq!(stance_term(s), *t);
        }
        for t in &l.passive_kinds {
            let k = C7hPassiveKind::from_json(&json!(t.key), &crate::json::At::Root).unwrap();
            assert_eq!(passive_term(k), *t);
        }
        assert_eq!((l.stance_options.len(), l.passive_kinds.len()), (2, 7));
    }
}
