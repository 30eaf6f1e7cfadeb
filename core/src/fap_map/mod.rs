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
//!   spending, the minor-action cap, reactions, blocks, readied and sustained
//!   actions, refill).
//!
//! FM-DEF-1 (resolution = making the checks and processing an action) is the
//! `resolve` step of the round engine; FM-DEF-5 (a round is 3 seconds) is
//! flavour with no computable effect.

pub mod catalog;
pub mod checks;
pub mod points;
pub mod round;

use crate::op;
use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    vec![
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
        op!("fap_map.round_new", round::round_new, round::FmRoundNewArgs => round::FmRoundResult,
            "Start a FAP/MAP battle: round 1, declaration phase, full pools."),
        op!("fap_map.round_legal_actions", round::round_legal_actions, round::FmRoundStateArgs => round::FmLegalActionsResult,
            "Every action round_act accepts now, in its exact form, with its cost; plus the current action order."),
        op!("fap_map.round_act", round::round_act, round::FmRoundActArgs => round::FmRoundResult,
            "Apply one action to a round state; illegal actions are illegal_action naming the rule."),
    ]
}
