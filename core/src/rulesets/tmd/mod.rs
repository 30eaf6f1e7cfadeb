//! `tmd` — TMD：新秩序000 combat rules (seed 003, rule IDs `TMD-…`).
//!
//! Where to look:
//! * [`actions`] — action types, AP costs (TMD-AP-5), conversion limits
//!   (TMD-AP-7/8), the exertion ladder (TMD-AP-17), real-time weights
//!   (TMD-TIME-4), labels, and the rule variants.
//! * [`initiative`] — `tmd.initiative` (TMD-INI-1/2).
//! * [`economy`] — `tmd.conversion_limits`, `tmd.convert`, `tmd.action_seconds`.
//! * [`acrobatic`] — `tmd.acrobatic` (TMD-ACT-8 movement and parry bonus).
//! * [`encounter`] — the serializable encounter state machine:
//!   `tmd.encounter_new`, `tmd.encounter_legal_actions`, `tmd.encounter_act`.
//!
//! Variant (RULINGS): `conversion_ap_basis` = `turn_start` (default) | `remaining`.
//!
//! A TMD turn through the JSON entry point (the JS and Python packages take the
//! same objects):
//!
//! ```
//! use serde_json::json;
//! let chars = json!([{"id": "rin", "side": "pc", "base_initiative": 4},
//!                    {"id": "ghoul", "side": "npc", "base_initiative": 1}]);
//! // d10s: rin 6 (total 10), ghoul 3 (total 4).
//! let r = gunbai::call("tmd.encounter_new", json!({"characters": chars, "rolls": [6, 3]})).unwrap();
//! let act = |state: &serde_json::Value, action: serde_json::Value| {
//!     gunbai::call("tmd.encounter_act", json!({"state": state, "action": action})).unwrap()
//! };
//! let r = act(&r["state"], json!({"type": "start_turns"}));          // rin's turn: 14 base AP
//! let r = act(&r["state"], json!({"type": "convert", "actor": "rin", "action_type": "standard", "count": 1}));
//! let r = act(&r["state"], json!({"type": "convert", "actor": "rin", "action_type": "move", "count": 1}));
//! let r = act(&r["state"], json!({"type": "use_action", "actor": "rin", "action_type": "full_round"}));
//! assert_eq!(r["events"][0]["spent"], json!(["standard", "move"]));
//! let r = act(&r["state"], json!({"type": "end_turn", "actor": "rin"}));
//! assert_eq!(r["events"][0]["extra_ap_carried"], 2);   // 14 - 8 - 4 left over becomes extra AP
//! assert_eq!(r["state"]["current"], "ghoul");
//! // Illegal actions name the rule and change nothing:
//! let e = gunbai::call("tmd.encounter_act", json!({"state": r["state"],
//!     "action": {"type": "convert", "actor": "ghoul", "action_type": "standard", "count": 2}})).unwrap_err();
//! assert_eq!(e.rule.as_deref(), Some("TMD-AP-7"));
//! ```

pub mod acrobatic;
pub mod actions;
pub mod batch;
// Without `chat` the module is compiled but not registered (its code leaves the binary).
#[cfg_attr(not(feature = "chat"), allow(dead_code))]
pub mod chat;
pub mod economy;
pub mod encounter;
pub(crate) mod handle;
pub mod initiative;
pub mod initiative_odds;
pub mod sheet;

use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    #[allow(unused_mut)]
    let mut ops = vec![
        crate::op!(
            "tmd.action_types",
            actions::action_types,
            actions::TmdActionTypesArgs => actions::TmdActionTypesResult,
            "TMD action catalogue: AP cost, conversion step, exertion rank, seconds and labels of every action type."
        ),
        crate::view_op!(
            "tmd.encounter_view",
            handle::Encounter,
            handle::TmdEncounterViewArgs => handle::TmdEncounterViewResult,
            "A character's or side's view of a state (and of the last action's events): TMD hides nothing, so it is the state unchanged; the viewer is checked."
        ),
        crate::turn_op!(
            "tmd.encounter_turn",
            handle::Encounter,
            handle::TmdEncounterTurnArgs,
            "Whose move it is: {round, phase, active: [{id, stage}], order, outcome}: interrupts of an announced action (TMD-INT-1), the delay declarations (TMD-INI-5), the current turn (TMD-TIME-2) or the round's next step."
        ),
        crate::op!(
            "tmd.initiative",
            initiative::initiative,
            initiative::TmdInitiativeArgs => initiative::TmdInitiativeResult,
            "TMD initiative: d10 + base initiative, highest first; cross-side ties re-rolled (bounded)."
        ),
        crate::op!("tmd.initiative_odds", initiative_odds::initiative_odds,
            initiative_odds::TmdInitiativeOddsArgs => initiative_odds::TmdInitiativeOddsResult,
            "Exact chance of each combatant acting at each place of the tmd.initiative order (up to 8 combatants)."),
        crate::op!(
            "tmd.conversion_limits",
            economy::conversion_limits,
            economy::TmdConversionLimitsArgs => economy::TmdConversionLimitsResult,
            "TMD conversions allowed per action type for an AP total."
        ),
        crate::op!(
            "tmd.convert",
            economy::convert,
            economy::TmdConvertArgs => economy::TmdConvertResult,
            "TMD: convert base + extra AP into a list of actions, or illegal_action naming the limit or shortfall."
        ),
        crate::op!(
            "tmd.action_seconds",
            economy::action_seconds,
            economy::TmdActionSecondsArgs => economy::TmdActionSecondsResult,
            "TMD: seconds of the 12-second round used by a list of actions."
        ),
        crate::op!(
            "tmd.acrobatic",
            acrobatic::acrobatic,
            acrobatic::TmdAcrobaticArgs => acrobatic::TmdAcrobaticResult,
            "TMD acrobatic action: movement 1.5 × base, parry dodge bonus up to half the skill level (exact)."
        ),
        crate::new_op!(
            "tmd.encounter_new",
            handle::Encounter,
            encounter::TmdEncounterNewArgs => encounter::TmdEncounterResult,
            "TMD: start an encounter (optional surprise round, else initiative is rolled); returns the state."
        ),
        crate::legal_op!(
            "tmd.encounter_legal_actions",
            handle::Encounter,
            encounter::TmdEncounterLegalArgs => encounter::TmdEncounterLegalResult,
            "TMD: every legal action of an encounter state, in the exact form encounter_act accepts, with costs."
        ),
        crate::act_op!(
            "tmd.encounter_act",
            handle::Encounter,
            encounter::TmdEncounterActArgs => encounter::TmdEncounterResult,
            "TMD: apply one action to an encounter state; returns the new state and the event log."
        ),
        crate::op!(
            "tmd.sheet",
            sheet::sheet,
            sheet::TmdSheetArgs => sheet::TmdSheetResult,
            "TMD sheet: base initiative, initiative range, 14 base AP plus extra AP, conversion limits at turn start."
        ),
    ];
    #[cfg(feature = "simulate")]
    ops.extend([
        crate::simulate_op!("tmd.encounter_simulate", handle::Encounter, handle::TmdEncounterSimulateArgs,
            "Play n whole games from one setup by policies (random, aggressive or priority lists; per participant or side), each seeded from (seed, index), over threads natively: a row per battle and per participant."),
    ]);
    ops
}
