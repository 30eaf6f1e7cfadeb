//! `world_trigger` — the World Trigger fan TRPG (seed `000`, rule IDs `WT-…`).
//!
//! Where to find things:
//! * [`types`] — stats, positions, conditions, labels, violations (shared with the battle engine);
//! * [`check`] — action checks, tactics dice, opposed checks (WT-CHK, WT-TD, WT-OPP);
//! * [`odds`] — exact distributions, success / opposed chances, expected-value table (WT-CHK-6);
//!
//! Readings of ambiguous rules follow `RULINGS.md` (section world_trigger).

pub mod check;
pub mod odds;
pub mod types;

use crate::op;
use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    vec![
        op!("world_trigger.check", check::check, check::WtCheckArgs => check::WtCheckResult,
            "Action check: roll stat + tactics + extra d6; +10 per pair of 1s; success iff achievement >= target."),
        op!("world_trigger.opposed", check::opposed, check::WtOpposedArgs => check::WtOpposedResult,
            "Opposed check: the reactor rolls first; the actor wins on >= (ties to the actor)."),
        op!("world_trigger.distribution", odds::distribution, odds::WtDistributionArgs => odds::WtDistributionResult,
            "Exact achievement distribution of a pool (up to 100 stat dice + tactics + extra), optional exact counts."),
        op!("world_trigger.success_chance", odds::success_chance, odds::WtSuccessChanceArgs => odds::WtProbabilityResult,
            "Exact probability that a check reaches its target."),
        op!("world_trigger.opposed_chance", odds::opposed_chance, odds::WtOpposedChanceArgs => odds::WtProbabilityResult,
            "Exact probability that the actor wins an opposed check (ties to the actor)."),
        op!("world_trigger.expected_table", odds::expected_table, odds::WtExpectedTableArgs => odds::WtExpectedTableResult,
            "The expected-value table (mean achievement and mean per die) for 1..max_dice dice, computed exactly."),
    ]
}
