//! `fap_map` — the FAP/MAP action-point system (seed 004, rule IDs `FM-…`).
//!
//! Every character has a physical pool (FAP = 反応力 Reaction) and a mental pool
//! (MAP = 魔力 Magic power) per round (FM-AP-1 .. FM-AP-5); every action costs
//! points of both (FM-ACT-2 .. FM-ACT-20). gunbai keeps points as **integer
//! tenths** (`fap_tenths: 3` = 0.3 FAP) so tenth-point actions sum exactly;
//! results also show a decimal number for display (see [`points`]).
//!
//! * [`catalog`] — `fap_map.actions`: the action catalogue as data
//!   (`core/data/fap_map/actions.json`; callers may pass their own pack).
//! * [`checks`] — `pools`, `evasion_check`, `jump_evasion`, `high_jump`,
//!   `long_jump`, `move_distance`, `block_contest`, `shake_off`.
//! * [`round`] — `round_new`, `round_legal_actions`, `round_act`: the round as a
//!   pure state machine over a serializable state (declarations, action order,
//!   spending, the minor-action cap, reactions, blocks, following moves,
//!   back-to-back jumps, readied and sustained actions, refill).
//!
//! ## A round, by name with JSON (what the JS and Python packages send)
//!
//! ```
//! use serde_json::{json, Value};
//! let act = |state: &Value, action: Value| -> Value {
//!     gunbai::call("fap_map.round_act", json!({"state": state, "action": action})).unwrap()
//! };
//! let r = gunbai::call("fap_map.round_new", json!({"combatants": [
//!     {"id": "aki", "reaction": 10, "magic": 3, "agility": 5},
//!     {"id": "ben", "reaction": 8, "magic": 1, "agility": 9}]})).unwrap();
//! let mut s = r["state"].clone();
//! for a in [
//!     json!({"type": "declare", "actor": "aki", "declaration": {"action": "direct_attack"}}),
//!     json!({"type": "declare", "actor": "ben", "declaration": {"action": "block_attack", "fap_tenths": 20}}),
//!     json!({"type": "declare", "actor": "ben", "declaration": {"action": "simple_action", "example": "draw_sword"}}),
//!     // FM-ACT-12: Attack Block needs a grapple, which the round state records.
//!     json!({"type": "set_grapple", "actor": "aki", "target": "ben", "grappling": true}),
//!     json!({"type": "end_declarations"}),
//!     json!({"type": "resolve", "actor": "aki"}), // Reaction 10 first: 7 FAP / 1 MAP
//! ] {
//!     s = act(&s, a)["state"].clone();
//! }
//! // ben blocks the attack with 2 FAP; aki resists with 1 FAP: 1 + 0 < 2, the block holds.
//! let r = act(&s, json!({"type": "block", "actor": "ben", "fap_tenths": 20, "target_fap_tenths": 10}));
//! assert_eq!(r["events"][0]["block"]["block_holds"], true);
//! let r = act(&r["state"], json!({"type": "resolve", "actor": "ben"})); // draw a sword: 0.1 FAP
//! assert_eq!(r["state"]["combatants"][1]["fap_tenths"], 59); // 8 - 2 - 0.1 = 5.9 FAP, exactly
//! assert_eq!(r["events"][0]["fap_left"], 5.9);
//! // Anything round_legal_actions lists is accepted as is by round_act.
//! let legal = gunbai::call("fap_map.round_legal_actions", json!({"state": r["state"]})).unwrap();
//! assert_eq!(legal["actions"].as_array().unwrap().last().unwrap()["action"], json!({"type": "end_round"}));
//! let r = act(&r["state"], json!({"type": "end_round"}));
//! assert_eq!(r["state"]["round"], 2);
//! assert_eq!(r["state"]["combatants"][0]["fap_tenths"], 100); // FM-AP-5: refilled
//! ```
//!
//! From JS and Python the same calls go through the generated wrappers, e.g.
//! (JS) `let {state} = fap_map.round_new({combatants}); ({state} = fap_map.round_act({state, action}))`
//! and (Python) `state = fap_map.round_new({"combatants": combatants})["state"]`.
//!
//! FM-DEF-1 (resolution = making the checks and processing an action) is the
//! `resolve` step of the round engine; FM-DEF-5 (a round is 3 seconds) is
//! flavour with no computable effect.

pub mod catalog;
// Without `chat` the module is compiled but not registered (its code leaves the binary).
#[cfg_attr(not(feature = "chat"), allow(dead_code))]
pub mod chat;
pub mod checks;
pub(crate) mod handle;
pub mod points;
pub mod round;
pub mod sheet;

use crate::op;
use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    #[allow(unused_mut)]
    let mut ops = vec![
        op!("fap_map.actions", catalog::actions, catalog::FmActionsArgs => catalog::FmActionsResult,
            "The FAP/MAP action catalogue: categories, FAP/MAP costs in tenths, limits and flags."),
        op!("fap_map.pools", checks::pools, checks::FmPoolsArgs => checks::FmPoolsResult,
            "FAP and MAP pools: Reaction and Magic power unless a trait says otherwise."),
        op!("fap_map.evasion_check", checks::evasion_check, checks::FmEvasionCheckArgs => checks::FmEvasionCheckResult,
            "Evasion check: Evasion + 2D6 must exceed the target value."),
        op!("fap_map.jump_evasion", checks::jump_evasion, checks::FmJumpEvasionArgs => checks::FmJumpEvasionResult,
            "Damage taken after a jump evasion (no damage, reduced by degree, or 90%), rounded up."),
        op!("fap_map.high_jump", checks::high_jump, checks::FmJumpArgs => checks::FmJumpResult,
            "High jump height: Strength x 7.5 - 25 cm, +60 cm after moving 4 m or more."),
        op!("fap_map.long_jump", checks::long_jump, checks::FmJumpArgs => checks::FmJumpResult,
            "Long jump distance: (Strength - 3) x 30 cm, doubled after a run-up."),
        op!("fap_map.move_distance", checks::move_distance, checks::FmMoveDistanceArgs => checks::FmMoveDistanceResult,
            "Distance of one Move: Movement x 4 / 10 m."),
        op!("fap_map.block_contest", checks::block_contest, checks::FmBlockContestArgs => checks::FmBlockContestResult,
            "Block movement / block attack contest: the target cancels if its FAP + relative T >= the blocker's FAP."),
        op!("fap_map.shake_off", checks::shake_off, checks::FmShakeOffArgs => checks::FmShakeOffResult,
            "Break free: both sides of the quick contest with the escaper's modifiers."),
        crate::new_op!("fap_map.round_new", handle::Round, round::FmRoundNewArgs => round::FmRoundResult,
            "Start a FAP/MAP battle: round 1, declaration phase, full pools."),
        crate::legal_op!("fap_map.round_legal_actions", handle::Round, round::FmRoundStateArgs => round::FmLegalActionsResult,
            "Every action round_act accepts now, in its exact form, with its cost (whose turn it is and the action order: round_turn)."),
        crate::act_op!("fap_map.round_act", handle::Round, round::FmRoundActArgs => round::FmRoundResult,
            "Apply one action to a round state; illegal actions are illegal_action naming the rule."),
        crate::view_op!("fap_map.round_view", handle::Round,
            handle::FmRoundViewArgs => handle::FmRoundViewResult,
            "A combatant's view of a state (and of the last action's events): declarations are spoken openly (FM-DEF-4), so it is the state unchanged; the viewer is checked."),
        crate::turn_op!("fap_map.round_turn", handle::Round, handle::FmRoundTurnArgs,
            "Whose move it is: {round, phase, active: [{id, stage}], order, outcome}: everyone declares (FM-DEF-4), then the first in the action order acts (FM-DEF-3), a block window opening before it (FM-ACT-8)."),
        op!("fap_map.sheet", sheet::sheet, sheet::FmSheetArgs => sheet::FmSheetResult,
            "FAP/MAP sheet: the stats, FAP and MAP pools, Move distance, jumps and the jump-evasion leap."),
    ];
    #[cfg(feature = "simulate")]
    ops.extend([
        crate::simulate_op!("fap_map.round_simulate", handle::Round, handle::FmRoundSimulateArgs,
            "Play n whole games from one setup by policies (random, aggressive or priority lists; per participant or side), each seeded from (seed, index), over threads natively: a row per battle and per participant."),
    ]);
    ops
}

#[cfg(test)]
mod tests {
    #[test]
    fn catalog_lists_every_op_with_prefixed_types() {
        let cat = crate::catalog();
        let names: Vec<&str> =
            cat["ops"].as_array().unwrap().iter().filter_map(|o| o["name"].as_str()).collect();
        for op in super::ops() {
            assert!(names.contains(&op.name), "{}", op.name);
        }
        let defs = cat["defs"].as_object().unwrap();
        for key in ["FmRoundState", "FmRoundAction", "FmActionDef", "FmCost", "FmJumpEvasionResult"] {
            assert!(defs.contains_key(key), "{key} missing from $defs");
        }
        // FmPhase etc. must not collide with other modules' names: every def this module adds is Fm-prefixed.
        let s = serde_json::to_string(&cat).unwrap();
        assert!(!s.contains("\"#/$defs/Phase\""));
    }
}
