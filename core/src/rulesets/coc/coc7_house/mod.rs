//! `coc7_house` — the Call of Cthulhu 7th-edition house combat rules of
//! seed 002 (rule IDs `C7H-…`). Checks are `coc7` checks.
//!
//! * [`init`] — `initiative`, `turn_order` (C7H-INIT).
//! * [`round`] — `round_new` / `round_legal_actions` / `round_act`: action
//!   economy, movement, defensive stance (C7H-ECO, C7H-MOV, C7H-ACT-1,
//!   C7H-STN, C7H-PAS, C7H-FREE).
//! * [`damage`] — `damage`: Extreme-success doubling (C7H-ACT-2, C7H-ACT-3).
//! * [`resolve`] — `defend`, `cover`, `cancel`, `counter`, `auto_hit`
//!   (C7H-DEF, C7H-COV, C7H-CAN, C7H-CTR, C7H-AUTO).
//! * [`range`] — `parse_range` (C7H-RNG).
//! * [`chase`] — `chase_new` / `chase_act` (C7H-ESC).
//!
//! ```
//! use serde_json::json;
//! // Defend against 10 damage with a shield (defense 3), skill 60, rolling 12:
//! // an Extreme success doubles the defense value (C7H-DEF-3).
//! let r = gunbai::call("coc7_house.defend",
//!     json!({"damage": 10, "defense": 3, "skill": 60, "rolls": [1, 2]})).unwrap();
//! assert_eq!(r["level"], "extreme");
//! assert_eq!(r["multiplier"], 2);
//! assert_eq!(r["damage_taken"], 4);
//! ```

pub mod chase;
pub mod damage;
#[cfg(feature = "odds")]
pub mod duel;
pub(crate) mod exchange;
pub mod init;
pub mod labels;
pub mod range;
pub mod resolve;
pub mod round;
pub(crate) mod sentences;

#[cfg(test)]
mod tests;

use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    #[allow(unused_mut)]
    let mut ops = vec![
        crate::op!("coc7_house.initiative", init::initiative, init::C7hInitiativeArgs => init::C7hInitiativeResult,
            "Initiative = floor(DEX / 5) (C7H-INIT-1)."),
        crate::op!("coc7_house.turn_order", init::turn_order, init::C7hTurnOrderArgs => init::C7hTurnOrderResult,
            "Turn order: initiative, then DEX, then PCs first, then caller order."),
        crate::new_op!("coc7_house.round_new", super::handle::HouseRound, round::C7hRoundNewArgs => round::C7hRoundResult,
            "Start a house-combat round: initiative order, 1 active / 1 passive / 1 free action each."),
        crate::legal_op!("coc7_house.round_legal_actions", super::handle::HouseRound, round::C7hRoundLegalArgs => round::C7hRoundLegalResult,
            "Every action round_act accepts in this state."),
        crate::act_op!("coc7_house.round_act", super::handle::HouseRound, round::C7hRoundActArgs => round::C7hRoundResult,
            "Apply one action: move, active, stance, passive, free, end turn, next round."),
        crate::view_op!("coc7_house.round_view", super::handle::HouseRound,
            super::handle::C7hRoundViewArgs => super::handle::C7hRoundViewResult,
            "A combatant's view of a state (and of the last action's events): the round hides nothing, so it is the state unchanged; the viewer is checked."),
        crate::turn_op!("coc7_house.round_turn", super::handle::HouseRound, super::handle::C7hRoundTurnArgs,
            "Whose move it is: {round, phase, active: [{id, stage}], order, outcome}: the combatant whose turn it is (C7H-INIT-1), or next_round."),
        crate::op!("coc7_house.damage", damage::damage, damage::C7hDamageArgs => damage::C7hDamageResult,
            "Roll damage; an Extreme success doubles the base damage dice only."),
        crate::op!("coc7_house.defend", resolve::defend, resolve::C7hDefendArgs => resolve::C7hDefendResult,
            "Defend: subtract the defense value (x2 opposed win or extreme, x3 both)."),
        crate::op!("coc7_house.cover", resolve::cover, resolve::C7hCoverArgs => resolve::C7hCoverResult,
            "Cover an adjacent ally: DEX roll; several attacks at once deal double damage."),
        crate::op!("coc7_house.cancel", resolve::cancel, resolve::C7hCancelArgs => resolve::C7hCancelResult,
            "Cancel an incoming attack: negate it or take the damage difference."),
        crate::op!("coc7_house.counter", resolve::counter, resolve::C7hCounterArgs => resolve::C7hCounterResult,
            "Counter-attack a melee attack: take it in full, then deal damage on success."),
        crate::op!("coc7_house.auto_hit", resolve::auto_hit, resolve::C7hAutoHitArgs => resolve::C7hAutoHitResult,
            "Automatic hit (still rolled): full damage on every result but a fumble; a fumble fails and deals half."),
        crate::op!("coc7_house.parse_range", range::parse_range, range::C7hParseRangeArgs => range::C7hParseRangeResult,
            "Parse range/target notation such as 射撃20m/1体 or 視界/5m範囲(選択)."),
        crate::new_op!("coc7_house.chase_new", super::handle::Chase, chase::C7hChaseNewArgs => chase::C7hChaseResult,
            "Start an escape/chase (C7H-ESC-1)."),
        crate::legal_op!("coc7_house.chase_legal_actions", super::handle::Chase, chase::C7hChaseLegalArgs => chase::C7hChaseLegalResult,
            "C7H-ESC: what chase_act accepts now: one chase round while the chase goes on, nothing once it is over."),
        crate::op!("coc7_house.chase_act", chase::chase_act, chase::C7hChaseActArgs => chase::C7hChaseResult,
            "Play one chase round: movement rolls, MOV comparison, DEX opposed roll, gap."),
        crate::view_op!("coc7_house.chase_view", super::handle::Chase,
            super::handle::C7hChaseViewArgs => super::handle::C7hChaseViewResult,
            "The fugitive's or pursuer's view of a chase state (and of the last round's events): a chase hides nothing, so it is the state unchanged; the viewer is checked."),
        crate::turn_op!("coc7_house.chase_turn", super::handle::Chase, super::handle::C7hChaseTurnArgs,
            "Whose move it is: {round, phase, active: [{id, stage}], order, outcome}: the next chase round while the chase goes on (C7H-ESC-6); the phase is its status."),
        crate::op!("coc7_house.labels", labels::labels, labels::C7hLabelsArgs => labels::C7hLabelsResult,
            "Names of the action types, stance options and passive actions in ja / zh_hans / zh_hant / en."),
        crate::op!("coc7_house.sheet", super::sheet::coc7_sheet,
            super::sheet::C7hSheetArgs => super::sheet::C7hSheetResult,
            "A 7th-edition sheet: violations, derived values from the pack, half/fifth values, initiative floor(DEX / 5)."),
    ];
    #[cfg(feature = "simulate")]
    ops.extend([
        crate::simulate_op!("coc7_house.round_simulate", super::handle::HouseRound, super::handle::C7hRoundSimulateArgs,
            "Play n whole games from one setup by policies (random, aggressive or priority lists; per participant or side), each seeded from (seed, index), over threads natively: a row per battle and per participant."),
        crate::simulate_op!("coc7_house.chase_simulate", super::handle::Chase, super::handle::C7hChaseSimulateArgs,
            "Play n whole games from one setup by policies (random, aggressive or priority lists; per participant or side), each seeded from (seed, index), over threads natively: a row per battle and per participant."),
    ]);
    #[cfg(feature = "odds")]
    ops.push(crate::op!("coc7_house.duel_odds", duel::duel_odds, duel::C7hDuelOddsArgs => duel::C7hDuelOddsResult,
        "Exact odds of a one-on-one fight (each side's fixed reaction): who wins and in which round, as an absorbing Markov chain over both HP."));
    ops
}
