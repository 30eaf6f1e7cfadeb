//! `coc7_house.labels`: the player-facing names of the round's vocabulary (the action
//! types C7H-MOV-1, C7H-ACT-1, C7H-STN-1, C7H-PAS-1, C7H-FREE-1, the stance options and
//! the passive actions) in the four display languages, using the seed's Japanese terms
//! (能動行動, 防御姿勢, 受動行動, …); the others are translations.

use crate::coc7::check::Coc7TermLabel;
use crate::coc_ap::labels::{terms, Row};
use crate::error::Result;
use crate::json::{FromJson, ToJson};

/// No arguments.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hLabelsArgs {}

/// Result of `coc7_house.labels`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hLabelsResult {
    /// Every action `type` of `coc7_house.round_act`.
    pub actions: Vec<Coc7TermLabel>,
    /// The options of a defensive stance (C7H-STN-1 (a), (b)).
    pub stance_options: Vec<Coc7TermLabel>,
    /// The kinds of passive action (C7H-PAS-1).
    pub passive_kinds: Vec<Coc7TermLabel>,
}

/// Every action `type` (the tests check the three tables against the enums, exhaustively).
const ACTIONS: &[Row] = &[
    ("move", Some("C7H-MOV-1"), ["移動", "移动", "移動", "Move"]),
    ("active", Some("C7H-ACT-1"), ["能動行動", "主动行动", "主動行動", "Active action"]),
    ("stance", Some("C7H-STN-1"), ["防御姿勢", "防御姿态", "防禦姿態", "Defensive stance"]),
    ("passive", Some("C7H-PAS-1"), ["受動行動", "被动行动", "被動行動", "Passive action"]),
    ("attack", Some("C7H-ACT-1"), ["攻撃", "攻击", "攻擊", "Attack"]),
    (
        "reaction",
        Some("C7H-PAS-1"),
        ["攻撃への受動行動", "对攻击的被动行动", "對攻擊的被動行動", "Reaction to an attack"],
    ),
    ("free", Some("C7H-FREE-1"), ["自由行動", "自由行动", "自由行動", "Free action"]),
    ("end_turn", Some("C7H-INIT-1"), ["手番終了", "结束回合", "結束回合", "End turn"]),
    ("next_round", Some("C7H-ECO-1"), ["次のラウンドへ", "进入下一轮", "進入下一輪", "Next round"]),
];

const STANCE_OPTIONS: &[Row] = &[
    (
        "extra_passive",
        Some("C7H-STN-1"),
        ["受動行動回数+1", "被动行动次数+1", "被動行動次數+1", "+1 passive action"],
    ),
    (
        "bonus_die",
        Some("C7H-STN-1"),
        [
            "受動行動判定にボーナスダイス+1",
            "被动行动检定奖励骰+1",
            "被動行動檢定獎勵骰+1",
            "+1 bonus die on a passive roll",
        ],
    ),
];

/// Dodge and Fight Back are base 7e's; the others are the house rule's.
const PASSIVE_KINDS: &[Row] = &[
    ("dodge", Some("C7H-PAS-1"), ["回避", "闪避", "閃避", "Dodge"]),
    ("defend", Some("C7H-DEF-1"), ["防御", "防御", "防禦", "Defend"]),
    ("fight_back", Some("C7H-PAS-1"), ["応戦", "反击", "反擊", "Fight Back"]),
    ("cover", Some("C7H-COV-1"), ["かばう", "掩护", "掩護", "Cover"]),
    (
        "cover_and_defend",
        Some("C7H-DEF-5"),
        ["かばいながら防御", "掩护并防御", "掩護並防禦", "Cover and defend"],
    ),
    ("cancel", Some("C7H-CAN-1"), ["相殺", "抵消", "抵消", "Cancel"]),
    ("counter", Some("C7H-CTR-1"), ["反撃", "反攻", "反攻", "Counter-attack"]),
    (
        "other",
        Some("C7H-PAS-1"),
        ["その他の受動行動", "其他被动行动", "其他被動行動", "Other passive action"],
    ),
];

/// The four names of a passive kind by its wire spelling (empty when unknown).
pub(crate) fn passive_names(key: &str) -> [&'static str; 4] {
    PASSIVE_KINDS.iter().find(|r| r.0 == key).map(|r| r.2).unwrap_or(["", "", "", ""])
}

/// `coc7_house.labels` — the names of the action types, stance options and passive actions.
///
/// ```
/// use gunbai::coc7_house::labels::{labels, C7hLabelsArgs};
/// let l = labels(&C7hLabelsArgs {}).unwrap();
/// let stance = l.actions.iter().find(|t| t.key == "stance").unwrap();
/// assert_eq!(stance.label.ja, "防御姿勢");
/// ```
pub fn labels(_: &C7hLabelsArgs) -> Result<C7hLabelsResult> {
    Ok(C7hLabelsResult {
        actions: terms(ACTIONS),
        stance_options: terms(STANCE_OPTIONS),
        passive_kinds: terms(PASSIVE_KINDS),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coc7_house::round::{C7hAction, C7hPassiveKind, C7hStance};
    use serde_json::json;

    /// Exhaustive over the enums: a new action type, stance option or passive action
    /// fails to compile here until it is listed (and then named in the tables).
    fn wire_type(a: &C7hAction) -> &'static str {
        match a {
            C7hAction::Move { .. } => "move",
            C7hAction::Active { .. } => "active",
            C7hAction::Stance { .. } => "stance",
            C7hAction::Passive { .. } => "passive",
            C7hAction::Attack { .. } => "attack",
            C7hAction::Reaction { .. } => "reaction",
            C7hAction::Free { .. } => "free",
            C7hAction::EndTurn { .. } => "end_turn",
            C7hAction::NextRound => "next_round",
        }
    }

    fn all_stances() -> Vec<C7hStance> {
        let all = [C7hStance::ExtraPassive, C7hStance::BonusDie];
        for s in all {
            match s {
                C7hStance::ExtraPassive | C7hStance::BonusDie => {}
            }
        }
        all.to_vec()
    }

    fn all_passive_kinds() -> Vec<C7hPassiveKind> {
        use C7hPassiveKind::*;
        let all = [Dodge, Defend, FightBack, Cover, CoverAndDefend, Cancel, Counter, Other];
        for k in all {
            match k {
                Dodge | Defend | FightBack | Cover | CoverAndDefend | Cancel | Counter | Other => {}
            }
        }
        all.to_vec()
    }

    #[test]
    fn every_action_type_stance_option_and_passive_kind_is_named_under_its_wire_spelling() {
        let actor = String::new;
        let actions = [
            C7hAction::Move { actor: actor() },
            C7hAction::Active { actor: actor(), concentration: false },
            C7hAction::Stance { actor: actor(), option: C7hStance::ExtraPassive },
            C7hAction::Passive {
                actor: actor(),
                kind: C7hPassiveKind::Dodge,
                bonus_die: false,
                concentration: false,
            },
            C7hAction::Attack {
                actor: actor(),
                target: actor(),
                weapon: actor(),
                distance: 0,
                bonus_dice: 0,
                auto_hit: None,
                concentration: false,
            },
            C7hAction::Reaction { actor: actor(), kind: None, weapon: None, bonus_die: false },
            C7hAction::Free { actor: actor() },
            C7hAction::EndTurn { actor: actor() },
            C7hAction::NextRound,
        ];
        let l = labels(&C7hLabelsArgs {}).unwrap();
        assert_eq!(l.actions.len(), actions.len());
        for (a, t) in actions.iter().zip(&l.actions) {
            assert_eq!(a.to_json()["type"], json!(t.key));
            assert_eq!(wire_type(a), t.key);
        }
        assert_eq!(l.stance_options.len(), all_stances().len());
        for (s, t) in all_stances().iter().zip(&l.stance_options) {
            assert_eq!(s.to_json(), json!(t.key));
        }
        assert_eq!(l.passive_kinds.len(), all_passive_kinds().len());
        for (k, t) in all_passive_kinds().iter().zip(&l.passive_kinds) {
            assert_eq!(k.to_json(), json!(t.key));
        }
    }
}
