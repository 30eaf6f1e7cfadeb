//! The FAP/MAP round as a pure state machine (`round_new`, `round_legal_actions`,
//! `round_act`). The state is plain JSON the caller keeps; every call validates
//! it as untrusted data (`invalid_data`) and returns a new state only on success.
//!
//! ## The round
//! 1. **Declaration phase** (FM-DEF-4): each character declares its actions one
//!    `declare` at a time. Declarations must fit the remaining pools together
//!    (FM-AP-4, RULINGS: an action needs its full cost left), and the Move /
//!    Jump / Regain footing / Jump evasion cap of three per round is counted
//!    (FM-LIM-1). Actions needing no declaration (Evade, Jump evasion, Speech)
//!    cannot be declared (FM-LIM-2). A Readied action is declared alone with one
//!    paired action (FM-ACT-19). `end_declarations` starts the resolution.
//! 2. **Resolution phase** (FM-DEF-1, FM-DEF-3): the character first in the
//!    action order `resolve`s (or `skip`s) its next declared action, paying its
//!    cost (FM-AP-4). The order is recomputed after every step: carried-over
//!    sustained actions first (FM-ACT-18), then descending Reaction — 0 for a
//!    character who declared Full standby (FM-ACT-15), −1 for the next action
//!    after Speech (FM-ACT-20) — ties by higher Agility, then the caller's order
//!    of combatants (RULINGS). Out of order, at any time: `use` an undeclared
//!    action (Evade needs FAP ≥ 1, Speech MAP ≥ 1, Jump evasion costs 1 FAP and
//!    counts toward the cap; FM-LIM-4), `block` the move or attack just resolved
//!    with a declared block (FM-ACT-8, FM-ACT-12; once per target action),
//!    `trigger` an armed readied action's paired action (FM-ACT-19), and `follow`:
//!    a Move declared with `follow: <id>` waits for that combatant's move and is
//!    resolved right after it, in step (FM-ACT-7). Resolved jumps say whether they
//!    come straight after another jump (`consecutive`: no agility penalty, FM-ACT-9).
//! 3. `end_round` (when nobody has a declared action left) refills both pools
//!    (FM-AP-5), carries resolved sustained actions into the next round, where
//!    they are resolved first (FM-ACT-18), and keeps an armed readied action
//!    (while it is armed only option commands may be declared; `release` drops it).
//!
//! Readings where the rulebook is silent (documented, not from RULINGS): the
//! paired action of a readied action is paid when it is triggered (its cost stays
//! reserved against new declarations while it is armed, also in later rounds); Speech's −1
//! is not cumulative and lasts until the speaker's next action; Evade and Jump
//! evasion may be used at any time in the resolution phase (the caller knows
//! when an attack is made), their checks are `fap_map.evasion_check` and
//! `fap_map.jump_evasion`; a blocked character's resisting FAP is deducted
//! from its own pool and the blocker's FAP is spent whatever the outcome.

pub(crate) mod engine;
mod legal;
mod sentences;
mod types;
mod validate;

pub use engine::order;
pub use types::*;
pub use validate::parse_state;

use super::catalog::FmActionPack;
use super::{catalog, checks};
use crate::engine::ids::Ids;
use crate::error::{Error, Result};
use crate::kernel::label::Logged;
use engine::apply;
pub(crate) use legal::{candidates, listed};

// ---------------------------------------------------------------- ops

/// `fap_map.round_new` — FM-AP-2 pools for each combatant (FAP = Reaction, MAP =
/// Magic power, or per traits), round 1, declaration phase (FM-DEF-4).
pub fn round_new(args: &FmRoundNewArgs) -> Result<FmRoundResult> {
    let pack = catalog::load(args.data.as_ref())?;
    if args.combatants.is_empty() || args.combatants.len() > MAX_COMBATANTS {
        return Err(Error::limit("combatants", format_args!("needs 1..={MAX_COMBATANTS} combatants")));
    }
    let mut combatants = Vec::with_capacity(args.combatants.len());
    for (i, c) in args.combatants.iter().enumerate() {
        Ids::ARG.name(&format!("combatants[{i}].id"), &c.id)?;
    }
    Ids::ARG.unique(args.combatants.iter().map(|c| c.id.as_str()), |i| format!("combatants[{i}].id"))?;
    for (i, c) in args.combatants.iter().enumerate() {
        let f = format!("combatants[{i}]");
        checks::stat("agility", c.agility).map_err(|e| e.within(&f))?;
        let (fap, map) =
            checks::pool_tenths(c.reaction, c.magic, c.traits.as_ref()).map_err(|e| e.within(&f))?;
        if let Some(hp) = c.hp {
            if !(0..=MAX_HP).contains(&hp) {
                return Err(Error::out_of_range(format!("{f}.hp"), format_args!("must be 0..={MAX_HP}")));
            }
        }
        if let Some(ev) = c.evasion {
            if !(-checks::MAX_STAT..=checks::MAX_STAT).contains(&ev) {
                return Err(Error::out_of_range(
                    format!("{f}.evasion"),
                    format_args!("must be -{0}..={0}", checks::MAX_STAT),
                ));
            }
        }
        if let Some(side) = &c.side {
            Ids::ARG.name(&format!("{f}.side"), side)?;
        }
        combatants.push(FmCombatant {
            id: c.id.clone(),
            reaction: c.reaction,
            magic: c.magic,
            agility: c.agility,
            fap_max_tenths: fap,
            map_max_tenths: map,
            fap_tenths: fap,
            map_tenths: map,
            declared: Vec::new(),
            move_cap_used: 0,
            speech_penalty: false,
            readied: None,
            last_action: None,
            prone: false,
            pools_from_traits: c.traits.is_some(),
            hp: c.hp,
            evasion: c.evasion.unwrap_or(0),
            side: c.side.clone(),
        });
    }
    let state = FmRoundState {
        pack_id: pack.meta.id.clone(),
        round: 1,
        phase: FmPhase::Declaration,
        combatants,
        window: None,
        last_move: None,
        grapples: Vec::new(),
        attack: None,
    };
    let events = vec![Logged::new(FmEvent::Started, "FM-DEF-4", sentences::started(1))];
    Ok(FmRoundResult { state, events, rolls: Vec::new() })
}

/// Apply an action that [`engine::check`] accepted, in place: its events, with the
/// actions' names.
pub(crate) fn commit(
    state: &mut FmRoundState,
    pack: &FmActionPack,
    action: &FmRoundAction,
    dice: &mut crate::dice::Dice,
) -> Result<Vec<FmLoggedEvent>> {
    let mut events = apply(state, pack, action, dice)?;
    for by in events.iter_mut().filter_map(|e| e.event.by_mut()) {
        by.names = by.action.as_deref().and_then(|id| pack.get(id)).map(|a| a.names.clone());
    }
    Ok(events)
}

/// Candidate actions for the engine harness (legal or not): those the listing checks.
#[cfg(test)]
pub(crate) fn probe_candidates(state: &FmRoundState, pack: &FmActionPack) -> Vec<FmRoundAction> {
    candidates(state, pack)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use serde_json::{json, Value};

    fn call(op: &str, args: Value) -> Result<Value> {
        crate::call(op, args)
    }

    #[test]
    fn illegal_leaves_state_unchanged_and_legal_list_round_trips() {
        let r = call(
            "fap_map.round_new",
            json!({"combatants": [
            {"id": "a", "reaction": 10, "magic": 3, "agility": 5},
            {"id": "b", "reaction": 8, "magic": 0, "agility": 9}]}),
        )
        .unwrap();
        let state = r["state"].clone();
        let before = state.clone();
        let e = call(
            "fap_map.round_act",
            json!({"state": state, "action": {"type": "use", "actor": "b", "action": "speech"}}),
        )
        .unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("FM-LIM-4"));
        assert_eq!(state, before);
        // Every listed action is accepted by round_act.
        let l = call("fap_map.round_legal_actions", json!({"state": state})).unwrap();
        let legal = l["actions"].as_array().unwrap();
        assert!(legal.len() > 20);
        for x in legal {
            call("fap_map.round_act", json!({"state": state, "action": x["action"]})).unwrap();
        }
    }

    #[test]
    fn garbage_states_are_invalid_data() {
        // `null` is a state not given: a missing argument, as for every argument.
        let e =
            call("fap_map.round_act", json!({"state": null, "action": {"type": "end_round"}})).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::InvalidArgument, Some("state")));
        for s in [
            json!(1),
            json!({}),
            json!({"pack_id": "fap_map-chapter1", "round": 0, "phase": "declaration", "combatants": []}),
        ] {
            let e =
                call("fap_map.round_act", json!({"state": s, "action": {"type": "end_round"}})).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidData);
        }
        let e = call("fap_map.round_new", json!({"combatants": []})).unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        let big: Vec<Value> = (0..21)
            .map(|i| json!({"id": format!("c{i}"), "reaction": 1, "magic": 1, "agility": 1}))
            .collect();
        assert!(call("fap_map.round_new", json!({"combatants": big})).is_err());
    }

    #[test]
    fn extreme_action_arguments_are_errors_not_panics() {
        // FM-DEF-5 (a round is 3 seconds) is flavour: nothing in the engine measures time.
        let st = call(
            "fap_map.round_new",
            json!({"combatants": [{"id": "a", "reaction": 1000, "magic": 1000, "agility": 1000}]}),
        )
        .unwrap()["state"]
            .clone();
        for action in [
            json!({"type": "block", "actor": "a", "fap_tenths": i64::MAX, "target_fap_tenths": i64::MIN, "relative_t_tenths": i64::MIN}),
            json!({"type": "block", "actor": "a", "fap_tenths": 10, "relative_t_tenths": i64::MAX}),
            json!({"type": "declare", "actor": "a", "declaration": {"action": "cast_spell", "fap_tenths": i64::MAX, "map_tenths": -1}}),
            json!({"type": "declare", "actor": "a", "declaration": {"action": "readied_action", "paired": {"action": "readied_action", "paired": {"action": "move"}}}}),
            json!({"type": "declare", "actor": "a", "declaration": {"action": "readied_action", "condition": "x".repeat(10_000), "paired": {"action": "move"}}}),
            json!({"type": "use", "actor": "a", "action": "nothing"}),
            json!({"type": "trigger", "actor": "zzz"}),
            json!({"type": "resolve"}),
            json!(null),
            json!([]),
        ] {
            assert!(call("fap_map.round_act", json!({"state": st, "action": action})).is_err());
        }
        // Twenty declarations are the most a character can hold in a round.
        let mut s = st.clone();
        for _ in 0..MAX_DECLARED {
            s = call("fap_map.round_act", json!({"state": s, "action": {"type": "declare", "actor": "a", "declaration": {"action": "simple_action"}}}))
                .unwrap()["state"]
                .clone();
        }
        let e = call("fap_map.round_act", json!({"state": s, "action": {"type": "declare", "actor": "a", "declaration": {"action": "simple_action"}}})).unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
    }

    /// The built-in pack with one action changed by `edit`.
    fn pack_with(id: &str, edit: impl Fn(&mut Value)) -> Value {
        let mut p: Value =
            serde_json::from_str(include_str!("../../../../data/fap_map/actions.json")).unwrap();
        for a in p["actions"].as_array_mut().unwrap() {
            if a["id"] == id {
                edit(a);
            }
        }
        p
    }

    fn run(data: &Value, combatants: Value, actions: &[Value]) -> Result<Value> {
        let mut r = call("fap_map.round_new", json!({"combatants": combatants, "data": data}))?;
        for a in actions {
            r = call("fap_map.round_act", json!({"state": r["state"], "action": a, "data": data}))?;
        }
        Ok(r)
    }

    #[test]
    fn pack_flags_apply_to_declared_actions_too() {
        // FM-LIM-4 (min_fap_tenths_to_choose) is honoured when a declared action resolves,
        // not only for `use`: a pack giving Full standby "not while FAP < 1".
        let data = pack_with("full_standby", |a| a["min_fap_tenths_to_choose"] = json!(10));
        let e = run(
            &data,
            json!([{"id": "a", "reaction": 0, "magic": 1, "agility": 1}]),
            &[
                json!({"type": "declare", "actor": "a", "declaration": {"action": "full_standby"}}),
                json!({"type": "end_declarations"}),
                json!({"type": "resolve", "actor": "a"}),
            ],
        )
        .unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("FM-LIM-4"), "{e:?}");
        // FM-LIM-3 (next_action_minus_one) on a declared action: the next action orders at -1.
        let data = pack_with("simple_action", |a| a["order_effect"] = json!("next_action_minus_one"));
        let r = run(
            &data,
            json!([{"id": "a", "reaction": 5, "magic": 1, "agility": 1}]),
            &[
                json!({"type": "declare", "actor": "a", "declaration": {"action": "simple_action"}}),
                json!({"type": "declare", "actor": "a", "declaration": {"action": "move"}}),
                json!({"type": "end_declarations"}),
                json!({"type": "resolve", "actor": "a"}),
            ],
        )
        .unwrap();
        assert_eq!(r["state"]["combatants"][0]["speech_penalty"], true);
        let pack = catalog::load(Some(&data)).unwrap();
        assert_eq!(order(&parse_state(&r["state"], &pack).unwrap(), &pack)[0].order_value, 4);
        // A block with a MAP cost in the pack spends that MAP (FM-AP-3 / FM-AP-4).
        let data = pack_with("block_attack", |a| a["map"] = json!({"kind": "fixed", "tenths": 10}));
        let cs = json!([{"id": "a", "reaction": 10, "magic": 1, "agility": 5},
                        {"id": "b", "reaction": 5, "magic": 2, "agility": 5}]);
        let r = run(
            &data,
            cs.clone(),
            &[
                json!({"type": "declare", "actor": "a", "declaration": {"action": "direct_attack"}}),
                json!({"type": "declare", "actor": "b", "declaration": {"action": "block_attack"}}),
                json!({"type": "end_declarations"}),
                json!({"type": "resolve", "actor": "a"}),
                // FM-ACT-12 (RULINGS 2026-12-05): Attack Block needs a grapple.
                json!({"type": "set_grapple", "actor": "a", "target": "b", "grappling": true}),
                json!({"type": "block", "actor": "b", "fap_tenths": 20}),
            ],
        )
        .unwrap();
        assert_eq!(r["state"]["combatants"][1]["map_tenths"], 10);
        assert_eq!(r["events"][0]["map_spent_tenths"], 10);
    }

    #[test]
    fn packs_with_unusable_reaction_costs_are_invalid_data() {
        // `use` takes no amount, so an action used without declaration needs a cost with a default.
        for cost in [json!({"kind": "varies"}), json!({"kind": "choice", "options_tenths": [10, 20]})] {
            let data = pack_with("evade", |a| a["fap"] = cost.clone());
            let e = call("fap_map.actions", json!({"data": data})).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidData, "{e:?}");
            assert_eq!(e.field.as_deref(), Some("data.actions[12].fap"));
        }
    }

    #[test]
    fn random_walk_with_followers_never_sticks() {
        // FM-ACT-7: followers waiting on each other or on moves that never come never
        // leave the round without a way forward.
        let mut st = call(
            "fap_map.round_new",
            json!({"combatants": [
            {"id": "a", "reaction": 9, "magic": 2, "agility": 5},
            {"id": "b", "reaction": 9, "magic": 1, "agility": 5},
            {"id": "c", "reaction": 4, "magic": 1, "agility": 1}]}),
        )
        .unwrap()["state"]
            .clone();
        let mut x: u64 = 99;
        let mut follows = 0;
        for _ in 0..600 {
            let l = call("fap_map.round_legal_actions", json!({"state": st})).unwrap();
            let legal = l["actions"].as_array().unwrap().clone();
            // Prefer declarations that follow someone and `follow` actions, to reach them often.
            let preferred: Vec<&Value> = legal
                .iter()
                .filter(|a| {
                    a["action"]["declaration"]["follow"].is_string() || a["action"]["type"] == "follow"
                })
                .collect();
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = if !preferred.is_empty() && (x >> 60) < 8 {
                preferred[(x >> 33) as usize % preferred.len()]
            } else {
                &legal[(x >> 33) as usize % legal.len()]
            };
            if pick["action"]["type"] == "follow" {
                follows += 1;
            }
            // Someone with a declared in-order action left is always in the order.
            let r = call("fap_map.round_act", json!({"state": st, "action": pick["action"]})).unwrap();
            if r["state"]["phase"] == "resolution" {
                let pending = r["state"]["combatants"].as_array().unwrap().iter().any(|c| {
                    c["declared"].as_array().unwrap().iter().any(|d| {
                        d["status"] == "pending"
                            && !["block_movement", "block_attack"]
                                .contains(&d["declaration"]["action"].as_str().unwrap())
                    })
                });
                let pack = catalog::load(None).unwrap();
                let current = engine::current(&parse_state(&r["state"], &pack).unwrap(), &pack);
                assert_eq!(pending, current.is_some(), "{r}");
            }
            st = r["state"].clone();
        }
        assert!(follows > 0);
    }

    #[test]
    fn random_walk_never_panics() {
        // Play many rounds by always taking a pseudo-random legal action.
        let mut st = call(
            "fap_map.round_new",
            json!({"combatants": [
            {"id": "a", "reaction": 12, "magic": 4, "agility": 5},
            {"id": "b", "reaction": 12, "magic": 2, "agility": 5},
            {"id": "c", "reaction": 3, "magic": 1, "agility": 1}]}),
        )
        .unwrap()["state"]
            .clone();
        let mut x: u64 = 12345;
        for _ in 0..300 {
            let l = call("fap_map.round_legal_actions", json!({"state": st})).unwrap();
            let legal = l["actions"].as_array().unwrap().clone();
            assert!(!legal.is_empty());
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = &legal[(x >> 33) as usize % legal.len()];
            st = call("fap_map.round_act", json!({"state": st, "action": pick["action"]})).unwrap()["state"]
                .clone();
        }
    }
}
