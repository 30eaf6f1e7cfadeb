//! `world_trigger` — the World Trigger fan TRPG (seed `000`, rule IDs `WT-…`).
//!
//! Where to find things:
//! * [`types`] — stats, positions, conditions, labels, violations (shared with the battle engine);
//! * [`check`] — action checks, tactics dice, opposed checks (WT-CHK, WT-TD, WT-OPP);
//! * [`odds`] — exact distributions, success / opposed chances, expected-value table (WT-CHK-6);
//! * [`data`] — data packs (format, validation, the illustrative sample pack);
//! * [`character`] — combatant and operator creation, derived stats, movement, conditions
//!   (WT-CC, WT-OP, WT-DER, WT-COND);
//! * [`damage`] — damage, Trion Burst, special attacks, damage tables (WT-DMG, WT-DT);
//! * [`map`] — out of bounds, teleport / coordinate dice, range and areas, D66 (WT-OOB,
//!   WT-MAP-6/7, WT-RNG, WT-CC-9).
//!
//! Readings of ambiguous rules follow `RULINGS.md` (section world_trigger);
//! variants: `special_attack_stacking` (damage), `damage_table_threshold` (damage_table) and
//! `range_metric` (range; the battle engine stores its own).

pub mod batch;
pub mod battle;
pub mod character;
// Without `chat` the module is compiled but not registered (its code leaves the binary).
#[cfg_attr(not(feature = "chat"), allow(dead_code))]
pub mod chat;
pub mod check;
pub mod damage;
pub mod data;
pub(crate) mod handle;
pub mod labels;
pub mod limits;
pub mod map;
pub mod odds;
pub mod types;

use crate::op;
use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    #[allow(unused_mut)]
    let mut ops = vec![
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
        op!("world_trigger.create_character", character::create_character,
            character::WtCreateCharacterArgs => character::WtCharacter,
            "Validate a combatant sheet (every violation listed) and compute final stats, derived stats and skills."),
        op!("world_trigger.validate_sheet", character::validate_sheet,
            character::WtValidateSheetArgs => data::WtValidationResult,
            "List every creation-rule violation of a combatant sheet ({path, rule, message, label})."),
        op!("world_trigger.create_operator", character::create_operator,
            character::WtCreateOperatorArgs => character::WtOperator,
            "Validate an operator sheet and compute its stats."),
        op!("world_trigger.validate_operator", character::validate_operator,
            character::WtCreateOperatorArgs => data::WtValidationResult,
            "List every creation-rule violation of an operator sheet ({path, rule, message, label})."),
        op!("world_trigger.movement", character::movement, character::WtMovementArgs => character::WtMovementResult,
            "Movement = floor(Mobility / 2) + bonus - 4 per lost leg, never below 0."),
        op!("world_trigger.condition_effects", character::condition_effects,
            character::WtConditionEffectsArgs => character::WtConditionEffects,
            "Combined effects and labels of held abnormal states (Trion leak, limb loss, bailout)."),
        op!("world_trigger.damage", damage::damage, damage::WtDamageArgs => damage::WtDamageResult,
            "Damage = Attack + 1d6 + Trion Burst + special-attack LV + modifier."),
        op!("world_trigger.damage_odds", limits::damage_odds, limits::WtDamageOddsArgs => limits::WtDamageOddsResult,
            "Exact damage distribution and mean of one hit, and the largest Trion Burst the Trion stat allows."),
        op!("world_trigger.creation_limits", limits::creation_limits,
            limits::WtCreationLimitsArgs => limits::WtCreationLimitsResult,
            "Creation limits of a position: the stats, the 20 points, the cap and the most points each stat can take."),
        op!("world_trigger.damage_table", damage::damage_table,
            damage::WtDamageTableArgs => damage::WtDamageTableResult,
            "Roll on a damage table for one hit (highest tier reached; held effects shift to the next row)."),
        op!("world_trigger.out_of_bounds_target", map::out_of_bounds_target,
            map::WtOutOfBoundsTargetArgs => map::WtOutOfBoundsTargetResult,
            "Mobility-check target to re-enter the battlefield: 15/20/30/40 for 1/2/3/4+ squares out."),
        op!("world_trigger.out_of_bounds_check", map::out_of_bounds_check,
            map::WtOutOfBoundsCheckArgs => map::WtOutOfBoundsCheckResult,
            "Roll the Mobility check to re-enter the battlefield."),
        op!("world_trigger.range", map::range, map::WtRangeArgs => map::WtRangeResult,
            "Range in squares (height ignored; chebyshev | manhattan), targets in range, area centre and who is inside."),
        op!("world_trigger.d66", map::d66, map::WtD66Args => map::WtD66Result,
            "Roll D66 (tens die first), optionally looked up in a profile table."),
        op!("world_trigger.teleport_coordinates", map::teleport_coordinates,
            map::WtTeleportArgs => map::WtTeleportResult,
            "Roll coordinate dice: core ID d20, core address d10 (0 = player's choice) or sector address d20."),
        op!("world_trigger.labels", labels::labels, labels::WtLabelsArgs => labels::WtLabelsResult,
            "Names of the stats, operator stats and conditions in ja / zh_hans / zh_hant / en."),
        op!("world_trigger.sample_data", data::sample_data, data::WtSampleDataArgs => data::WtDataPack,
            "The bundled sample data pack (illustrative; facts from the seed plus labelled placeholders)."),
        op!("world_trigger.validate_data", data::validate_data, data::WtValidateDataArgs => data::WtValidationResult,
            "Validate a data pack and list every problem ({path, rule, message})."),
        op!("world_trigger.battle_sample_data", battle::data::battle_sample_data,
            battle::data::WtBattleSampleDataArgs => battle::data::WtBattleData,
            "The bundled battle data (illustrative): range, area, check stat, damage of each skill, used when battle_new gets no battle_data."),
        op!("world_trigger.validate_battle_data", battle::data::validate_battle_data_op,
            battle::data::WtValidateBattleDataArgs => data::WtValidationResult,
            "Validate battle data, alone and against the rules pack, and list every problem ({path, rule, message})."),
        crate::new_op!("world_trigger.battle_new", handle::Battle, battle::WtBattleNewArgs => battle::WtBattleResult,
            "Start a battle from a setup (type, map, teams built from sheets, variants): round 1, Initiative phase."),
        op!("world_trigger.battle_legal_actions", battle::battle_legal_actions,
            battle::WtBattleLegalArgs => battle::WtBattleLegalResult,
            "Every action legal now, each as battle_act accepts it, with its cost; none once the battle is over."),
        crate::act_op!("world_trigger.battle_act", handle::Battle, battle::WtBattleActArgs => battle::WtBattleResult,
            "Apply one action: new state and typed event log; illegal actions name the rule and change nothing."),
        crate::view_op!("world_trigger.battle_view", handle::Battle,
            handle::WtBattleViewArgs => handle::WtBattleViewResult,
            "A team's view of a state (and of the last action's events): another team's members in Stealth have no square (WT-ST-1); null viewer: the GM's (everything)."),
        crate::turn_op!("world_trigger.battle_turn", handle::Battle, handle::WtBattleTurnArgs,
            "Whose move it is: {round, phase, active: [{id, stage}], order, outcome}: the Initiative phase's roll, the acting team (WT-INIT-2), or the target reacting to a pending attack (WT-HIT-1)."),
        op!("world_trigger.battle_run", battle::battle_run, battle::WtBattleRunArgs => battle::WtBattleRunResult,
            "Play a setup and a list of actions in order (scenario replay); returns the final state and the events."),
    ];
    #[cfg(feature = "simulate")]
    ops.extend([
        crate::simulate_op!("world_trigger.battle_simulate", handle::Battle, handle::WtBattleSimulateArgs,
            "Play n whole games from one setup by policies (random, aggressive or priority lists; per participant or side), each seeded from (seed, index), over threads natively: a row per battle and per participant."),
    ]);
    ops
}
