//! `coc_ap` — Call of Cthulhu 6th-edition checks and the action-point combat
//! house rules of seed 001 (rule IDs `COCAP-…`).
//!
//! * [`check`] — `coc_ap.check`: the 6th-edition d100 check (BCDice `CCB`/`CC`).
//! * [`ap`] — `coc_ap.action_points`: COCAP-AP-3 / COCAP-AP-4.
//! * [`round`] — `coc_ap.round_new` / `round_legal_actions` / `round_act`: the
//!   round state machine (COCAP-RND, COCAP-ORD, COCAP-AP, COCAP-ACT): attacks at a
//!   target answered by a reaction, damage, HP, treatment and the fight's end.
//! * [`pack`] — the 6th-edition base values the seed leaves to the base game
//!   (illustrative pack). [`sentences`] — each event's `rule` and `text`.
//!
//! ```
//! use serde_json::json;
//! let new = gunbai::call("coc_ap.round_new", json!({"participants": [
//!     {"id": "kei", "dex": 14, "side": "pc", "hp_max": 12, "skills": {"dodge": 40},
//!      "weapons": [{"name": "knife", "skill": 50, "attacks_per_round": 1, "damage": "1d4"}]},
//!     {"id": "ghoul", "dex": 12, "side": "npc", "hp_max": 13, "skills": {"dodge": 30}}]})).unwrap();
//! let state = new["state"].clone();
//! assert_eq!(state["order"], json!(["kei", "ghoul"]));
//! assert_eq!(state["fighters"][0]["ap"], 4); // 2 + floor(14 / 6)
//! let hit = gunbai::call("coc_ap.round_act", json!({"state": state,
//!     "action": {"type": "attack", "actor": "kei", "weapon": "knife", "target": "ghoul"},
//!     "rolls": [23]})).unwrap(); // one d100 face: 23
//! assert_eq!(hit["events"][0]["event"], "attacked");
//! assert_eq!(hit["events"][0]["hit"], true); // the attack waits for ghoul's answer
//! let dodge = gunbai::call("coc_ap.round_act", json!({"state": hit["state"],
//!     "action": {"type": "dodge", "actor": "ghoul"}, "rolls": [71, 3]})).unwrap(); // d100, then 1d4
//! assert_eq!(dodge["events"][0]["check"]["success"], false);
//! assert_eq!(dodge["events"][1]["event"], "damaged");
//! assert_eq!(dodge["state"]["fighters"][1]["participant"]["hp"], 10);
//! assert_eq!(dodge["events"][1]["text"]["en"], "ghoul takes 3 damage from kei's knife (rolled 3, armor 0); HP 10/13 left.");
//! let again = gunbai::call("coc_ap.round_act", json!({"state": dodge["state"],
//!     "action": {"type": "attack", "actor": "kei", "weapon": "knife", "target": "ghoul"}, "rolls": [5]})).unwrap_err();
//! assert_eq!(again.rule.as_deref(), Some("COCAP-ACT-2"));
//! ```
//!
//! Flavour and table-procedure rules with no computable behaviour (named here
//! so readers can find them): COCAP-PREP-1, COCAP-PREP-2, COCAP-PREP-3 (map and
//! initial placement, chosen by the KP; `round_new` takes each participant's
//! `position` and whatever weapon list the KP allows), COCAP-PART-1 …
//! COCAP-PART-5 (who takes part: any participant passed to `round_new` acts
//! within its round's AP, COCAP-PART-2, which the AP checks enforce),
//! COCAP-RND-3 (its end conditions are not in the seed: the fight ends when one
//! `side` of the setup is left standing, see [`round::outcome`]).

pub mod ap;
pub mod check;
#[cfg(feature = "odds")]
pub mod duel;
pub mod labels;
pub mod pack;
pub mod round;
pub mod sentences;

#[cfg(test)]
mod tests;

use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    #[allow(unused_mut)]
    let mut ops = vec![
        crate::op!(
            "coc_ap.check",
            check::check,
            check::CocApCheckArgs => check::CocApCheckResult,
            "A 6th-edition d100 check (BCDice CCB/CC): success, critical, special, fumble."
        ),
        crate::view_op!(
            "coc_ap.round_view",
            super::handle::ApRound,
            super::handle::CocApRoundViewArgs => super::handle::CocApRoundViewResult,
            "A participant's view of a state (and of the last action's events): the AP round hides nothing, so it is the state unchanged; the viewer is checked."
        ),
        crate::turn_op!(
            "coc_ap.round_turn",
            super::handle::ApRound,
            super::handle::CocApRoundTurnArgs,
            "Whose move it is: {round, phase, active: [{id, stage}], order, outcome}: the participant whose turn it is (COCAP-RND-2), or next_round."
        ),
        crate::op!(
            "coc_ap.action_points",
            ap::action_points,
            ap::CocApActionPointsArgs => ap::CocApActionPointsResult,
            "Action points gained at each round start: 2 + floor(DEX / 6) + modifiers."
        ),
        crate::new_op!(
            "coc_ap.round_new",
            super::handle::ApRound,
            round::CocApRoundNewArgs => round::CocApRoundResult,
            "Start an action-point combat: round 1, DEX order, AP."
        ),
        crate::legal_op!(
            "coc_ap.round_legal_actions",
            super::handle::ApRound,
            round::CocApRoundLegalArgs => round::CocApRoundLegalResult,
            "Every action round_act accepts in this state."
        ),
        crate::act_op!(
            "coc_ap.round_act",
            super::handle::ApRound,
            round::CocApRoundActArgs => round::CocApRoundResult,
            "Apply one action (move, attack, dodge, parry, jump, treat, evasion, focus, end turn, next round)."
        ),
        crate::op!(
            "coc_ap.labels",
            labels::labels,
            labels::CocApLabelsArgs => labels::CocApLabelsResult,
            "Names of the action types, directions and treatment skills in ja / zh_hans / zh_hant / en."
        ),
        crate::op!(
            "coc_ap.sheet",
            super::sheet::coc6_sheet,
            super::sheet::CocApSheetArgs => super::sheet::CocApSheetResult,
            "A 6th-edition sheet: violations (code, path, rule, 4 languages), derived values from the pack, AP from DEX."
        ),
    ];
    #[cfg(feature = "simulate")]
    ops.extend([
        crate::simulate_op!("coc_ap.round_simulate", super::handle::ApRound, super::handle::CocApRoundSimulateArgs,
            "Play n whole games from one setup by policies (random, aggressive or priority lists; per participant or side), each seeded from (seed, index), over threads natively: a row per battle and per participant."),
    ]);
    #[cfg(feature = "odds")]
    ops.push(crate::op!("coc_ap.duel_odds", duel::duel_odds, duel::CocApDuelOddsArgs => duel::CocApDuelOddsResult,
        "Exact odds of a one-on-one fight (each side's fixed reaction): who wins and in which round, as an absorbing Markov chain over both HP."));
    ops
}
