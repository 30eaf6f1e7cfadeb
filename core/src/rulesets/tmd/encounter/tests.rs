//! Property and robustness tests of the TMD encounter state machine.

use super::super::actions::{TmdConvertType, BASE_AP_PER_TURN};
use super::*;

/// The encounter's listing, as `tmd.encounter_legal_actions` gives it.
fn legal_actions_of(s: &TmdEncounterState) -> Vec<TmdLegalAction> {
    crate::engine::listing_of::<crate::tmd::handle::Encounter>(&(), s, None).unwrap()
}
use crate::dice::prng::Prng;
use crate::ErrorCode;
use serde_json::json;

fn four(variant: &str) -> TmdEncounterState {
    let r = crate::call(
        "tmd.encounter_new",
        json!({"characters": [
            {"id": "A", "side": "pc", "base_initiative": 5},
            {"id": "B", "side": "pc", "base_initiative": 3, "immune_to_surprise": true},
            {"id": "C", "side": "npc", "base_initiative": 2},
            {"id": "D", "side": "npc", "base_initiative": 0}],
            "variants": {"conversion_ap_basis": variant}, "seed": 7}),
    )
    .unwrap();
    serde_json::from_value(r["state"].clone()).unwrap()
}

fn surprise(variant: &str) -> TmdEncounterState {
    let r = crate::call(
        "tmd.encounter_new",
        json!({"characters": [
            {"id": "A", "side": "pc", "base_initiative": 1},
            {"id": "B", "side": "pc", "base_initiative": 1, "immune_to_surprise": true},
            {"id": "C", "side": "npc", "base_initiative": 1}],
            "surprise": {"attacker": "C", "surprise_attack": true, "undetected": true},
            "variants": {"conversion_ap_basis": variant}}),
    )
    .unwrap();
    serde_json::from_value(r["state"].clone()).unwrap()
}

/// The invariants every reachable state keeps.
fn check_invariants(s: &TmdEncounterState) {
    s.validate().unwrap();
    for c in &s.characters {
        // AP never goes negative (and never wraps around): all pools stay in range.
        assert!(c.base_ap <= BASE_AP_PER_TURN, "{}: base AP {}", c.id, c.base_ap);
        assert!(c.extra_ap <= super::super::actions::MAX_AP);
        // No type is converted past its limit (granted actions included).
        for t in TmdConvertType::ALL {
            assert!(
                c.converted.get(t) <= t.limit(c.conversion_basis),
                "{}: {:?} converted {} > limit {}",
                c.id,
                t,
                c.converted.get(t),
                t.limit(c.conversion_basis)
            );
        }
        // Overdraws never owe more than a turn's base AP.
        assert!(c.overdrawn.iter().map(|t| t.cost()).sum::<u32>() <= BASE_AP_PER_TURN);
    }
    // JSON round trips are exact.
    let v = serde_json::to_value(s).unwrap();
    let back = load_state(&v).unwrap();
    assert_eq!(&back, s);
    assert_eq!(serde_json::to_string(&back).unwrap(), serde_json::to_string(s).unwrap());
}

fn pick(rng: &mut Prng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn gm_action(rng: &mut Prng, s: &TmdEncounterState, serial: &mut u32) -> TmdAction {
    let ids: Vec<String> = s.characters.iter().map(|c| c.id.clone()).collect();
    let who = ids[pick(rng, ids.len())].clone();
    match pick(rng, 5) {
        0 => {
            TmdAction::GainAp { actor: who, amount: 1 + pick(rng, 20) as u32, reflex_only: pick(rng, 2) == 0 }
        }
        1 => {
            *serial += 1;
            TmdAction::Join {
                characters: vec![TmdCharacterSpec {
                    id: format!("J{serial}"),
                    side: if pick(rng, 2) == 0 { "pc".into() } else { "npc".into() },
                    base_initiative: pick(rng, 7) as i32 - 3,
                    immune_to_surprise: false,
                    is_pc: pick(rng, 2) == 0,
                    hp: None,
                }],
            }
        }
        2 => TmdAction::SetBaseInitiative { actor: who, base_initiative: pick(rng, 11) as i32 - 5 },
        3 => TmdAction::ApplyEffect {
            applier: who.clone(),
            target: ids[pick(rng, ids.len())].clone(),
            name: "fx".into(),
            duration: [TmdDuration::BuffOneRound, TmdDuration::DebuffOneRound, TmdDuration::Scene]
                [pick(rng, 3)],
        },
        _ => TmdAction::Retain {
            actor: s.current.clone().unwrap_or(who),
            action_type: TmdConvertType::ALL[pick(rng, 5)],
            ability: "prep".into(),
        },
    }
}

fn is_structural(a: &TmdAction) -> bool {
    matches!(
        a,
        TmdAction::Leave { .. }
            | TmdAction::Teleport { observed: false, .. }
            | TmdAction::EndEncounter {}
            | TmdAction::SetDisabled { .. }
            | TmdAction::Grant { .. }
            | TmdAction::SceneChange {}
            | TmdAction::Overdraw { .. }
            | TmdAction::GmDown { .. }
            | TmdAction::GmDamage { .. }
    )
}

/// Plays random legal encounters through the JSON entry point.
#[test]
fn random_legal_encounters_keep_invariants() {
    let mut rng = Prng::new(2025);
    let mut rounds_seen = 0;
    let mut serial = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for game in 0..16 {
        let variant = if game % 2 == 0 { "turn_start" } else { "remaining" };
        let mut s = if game % 4 == 3 { surprise(variant) } else { four(variant) };
        check_invariants(&s);
        for step in 0..200 {
            let legal = legal_actions_of(&s);
            if legal.is_empty() {
                assert_eq!(s.phase, TmdPhase::Ended);
                break;
            }
            let r = pick(&mut rng, 100);
            // An inserted action resolves first and locks nobody out (TMD-INT-1, RULINGS
            // 2026-12-05), so random interrupts could keep a chain open for the whole
            // game: while one is open, resolve two times in three.
            let open_chain = s.chain.is_some();
            let action = if open_chain && r % 3 != 0 {
                TmdAction::Resolve {}
            } else if r < 4 {
                gm_action(&mut rng, &s, &mut serial)
            } else {
                // Prefer actions that play the game; structural GM actions are rare.
                let play: Vec<&TmdLegalAction> = legal.iter().filter(|l| !is_structural(&l.action)).collect();
                if r < 7 || play.is_empty() {
                    legal[pick(&mut rng, legal.len())].action.clone()
                } else {
                    play[pick(&mut rng, play.len())].action.clone()
                }
            };
            let before = serde_json::to_value(&s).unwrap();
            let out = crate::call(
                "tmd.encounter_act",
                json!({"state": before.clone(), "action": action, "seed": (game * 1000 + step) as u64}),
            );
            let listed = legal.iter().any(|l| l.action == action);
            match out {
                Ok(v) => {
                    if let Some(k) = serde_json::to_value(&action).unwrap()["type"].as_str() {
                        kinds.insert(k.to_string());
                    }
                    s = serde_json::from_value(v["state"].clone()).unwrap();
                    check_invariants(&s);
                    rounds_seen = rounds_seen.max(s.round);
                }
                Err(e) => {
                    assert!(!listed, "listed legal action {action:?} failed: {e}");
                    assert!(
                        matches!(e.code, ErrorCode::IllegalAction | ErrorCode::InvalidArgument),
                        "unexpected error {e}"
                    );
                    // Pure: the state we hold is untouched and still valid.
                    assert_eq!(serde_json::to_value(&s).unwrap(), before);
                }
            }
        }
    }
    assert!(rounds_seen >= 3, "random play should get through several rounds (saw {rounds_seen})");
    for k in [
        "convert",
        "use_action",
        "end_turn",
        "delay",
        "start_turns",
        "announce",
        "interrupt",
        "resolve",
        "overdraw",
        "begin_combat",
        "convert_reflex",
        "join",
        "gain_ap",
    ] {
        assert!(kinds.contains(k), "random play never applied {k}: {kinds:?}");
    }
}

#[test]
fn legal_actions_costs_and_forms() {
    let s = four("turn_start");
    let listed = legal_actions_of(&s);
    assert!(listed.iter().any(|l| l.action == TmdAction::StartTurns {}));
    // Round start: delays are listed, conversions are not.
    assert!(listed.iter().all(|l| !matches!(l.action, TmdAction::Convert { .. })));
    let mut s2 = s.clone();
    let mut dice = Dice::seeded(1).unwrap();
    act_on(&mut s2, &TmdAction::StartTurns {}, &mut dice).unwrap();
    let l = legal_actions_of(&s2);
    // At 14 AP: standard ×1, move ×1..2, swift ×1..3, trick ×1..5, acrobatic ×1.
    let conv: Vec<(TmdConvertType, u32, u32)> = l
        .iter()
        .filter_map(|x| match x.action {
            TmdAction::Convert { action_type, count, .. } => {
                action_type.convert_type().map(|t| (t, count, x.cost.ap))
            }
            _ => None,
        })
        .collect();
    assert_eq!(conv.iter().filter(|c| c.0 == TmdConvertType::Standard).count(), 1);
    assert_eq!(conv.iter().filter(|c| c.0 == TmdConvertType::Move).count(), 2);
    assert_eq!(conv.iter().filter(|c| c.0 == TmdConvertType::Swift).count(), 3);
    assert_eq!(conv.iter().filter(|c| c.0 == TmdConvertType::Trick).count(), 5);
    assert!(conv.contains(&(TmdConvertType::Swift, 3, 6)));
    // Every listed action is accepted by encounter_act exactly as listed.
    for x in &l {
        let out = crate::call(
            "tmd.encounter_act",
            json!({"state": serde_json::to_value(&s2).unwrap(), "action": crate::json::ToJson::to_json(&x.action), "seed": 3}),
        );
        assert!(out.is_ok(), "{:?}: {:?}", x.action, out.err());
    }
    // Interrupt candidates are asked in initiative order (TMD-INT-1).
    let mut s3 = s2.clone();
    act_on(&mut s3, &TmdAction::Announce { actor: "A".into(), label: None }, &mut dice).unwrap();
    let who: Vec<String> = legal_actions_of(&s3)
        .into_iter()
        .filter_map(|x| match x.action {
            TmdAction::Interrupt { actor: character, reflex: false, .. } => Some(character),
            _ => None,
        })
        .collect();
    assert_eq!(who, s3.order.iter().filter(|c| *c != "A").cloned().collect::<Vec<_>>());
}

#[test]
fn illegal_action_leaves_state_unchanged() {
    let s = four("turn_start");
    let v = serde_json::to_value(&s).unwrap();
    let e =
        crate::call("tmd.encounter_act", json!({"state": v, "action": {"type": "end_turn", "actor": "A"}}))
            .unwrap_err();
    assert_eq!(e.code, ErrorCode::IllegalAction);
    assert_eq!(e.rule.as_deref(), Some("TMD-TIME-2"));
    assert_eq!(serde_json::to_value(&s).unwrap(), v);
}

#[test]
fn garbage_and_extreme_inputs_never_panic() {
    let s = serde_json::to_value(four("remaining")).unwrap();
    let garbage = [
        json!(null),
        json!(1),
        json!("x"),
        json!([]),
        json!({"format": 1}),
        json!({"state": s, "action": {"type": "convert", "actor": "A", "action_type": "standard", "count": 4294967295u64}}),
    ];
    for g in &garbage {
        for op in [
            "tmd.encounter_act",
            "tmd.encounter_legal_actions",
            "tmd.encounter_new",
            "tmd.convert",
            "tmd.initiative",
            "tmd.conversion_limits",
            "tmd.action_seconds",
            "tmd.action_types",
        ] {
            let _ = crate::call(op, g.clone());
            let _ = crate::call(op, json!({"state": g.clone()}));
        }
    }
    let extremes = [
        json!({"type": "gain_ap", "actor": "A", "amount": 4294967295u64}),
        json!({"type": "gain_ap", "actor": "A", "amount": 1000}),
        json!({"type": "set_base_initiative", "actor": "A", "base_initiative": -2147483648i64}),
        json!({"type": "join", "characters": []}),
        json!({"type": "convert_reflex", "actor": "B", "count": 1000}),
        json!({"type": "remove_effect", "id": 4294967295u64}),
        json!({"type": "apply_effect", "applier": "A", "target": "Z", "name": "x", "duration": "scene"}),
        json!({"type": "use_action", "actor": "A", "action_type": "free"}),
        json!({"type": "use_free", "actor": "A", "purpose": "p".repeat(10_000)}),
        json!({"type": "delay", "actor": "D", "after": "D"}),
        json!({"type": "interrupt", "actor": "A"}),
        json!({"type": "resolve"}),
    ];
    for a in &extremes {
        let r = crate::call("tmd.encounter_act", json!({"state": s.clone(), "action": a.clone(), "seed": 1}));
        if let Ok(v) = r {
            let st: TmdEncounterState = serde_json::from_value(v["state"].clone()).unwrap();
            check_invariants(&st);
        }
    }
    // A corrupted state (huge counters, unknown ids) is invalid_data, never a panic.
    let mut bad = s.clone();
    bad["characters"][0]["held"]["standard"] = json!(4294967295u64);
    let e = crate::call("tmd.encounter_legal_actions", json!({"state": bad})).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidData);
    let mut bad = s.clone();
    bad["queue"] = json!(["nobody"]);
    let e = crate::call("tmd.encounter_act", json!({"state": bad, "action": {"type": "start_turns"}}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidData);
    let mut bad = s.clone();
    bad["effects"] =
        json!([{"id": 0, "name": "x", "applier": "A", "target": "A", "duration": "scene", "armed": false}]);
    let e = crate::call("tmd.encounter_act", json!({"state": bad, "action": {"type": "start_turns"}}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidData, "effect id must be below next_effect_id");
    // 14 base AP can never be overdrawn past (TMD-AP-11): the third overdraw is refused.
    let mut st = four("turn_start");
    let mut dice = Dice::seeded(1).unwrap();
    let mut ok = 0;
    for t in [TmdConvertType::Standard, TmdConvertType::Acrobatic, TmdConvertType::Trick] {
        let a = TmdAction::Overdraw { actor: "A".into(), action_type: t };
        let before = st.clone();
        match act_on(&mut st, &a, &mut dice) {
            Ok(_) => ok += 1,
            Err(e) => {
                assert_eq!(e.rule.as_deref(), Some("TMD-AP-11"));
                assert!(st == before, "a refused overdraw changed the state");
            }
        }
    }
    assert_eq!(ok, 2);
    check_invariants(&st);
}

/// TMD-SUR-4 and TMD-INT-4 have no numbers to compute here (措手不及/先制 levels are
/// not in the seed); they are recorded as events/ability names only.
#[test]
fn flavour_rules_documented() {
    let s = surprise("turn_start");
    assert_eq!(s.surprise.as_ref().map(|x| x.attacker.as_str()), Some("C"));
}

#[test]
fn schema_type_names_are_prefixed() {
    let cat = crate::catalog();
    let defs = cat["defs"].as_object().unwrap();
    let ops = cat["ops"].as_array().unwrap();
    assert!(ops.iter().any(|o| o["name"] == "tmd.encounter_act"));
    let text = serde_json::to_string(
        &ops.iter().filter(|o| o["name"].as_str().unwrap().starts_with("tmd.")).collect::<Vec<_>>(),
    )
    .unwrap();
    for name in defs.keys() {
        if text.contains(&format!("\"#/$defs/{name}\"")) {
            assert!(
                name.starts_with("Tmd")
                    || [
                        "Roll",
                        "RollKind",
                        "ScriptedFace",
                        "Turn",
                        "TurnActive",
                        "SimulateResult",
                        "SimBattles",
                        "SimMembers",
                        "SimRun",
                        "SimPolicy",
                        "SimPolicyFor"
                    ]
                    .contains(&name.as_str()),
                "{name}"
            );
        }
    }
}

#[test]
fn legal_actions_for_a_full_encounter_stays_bounded() {
    let chars: Vec<serde_json::Value> =
        (0..100).map(|i| json!({"id": format!("c{i}"), "side": if i % 2 == 0 { "pc" } else { "npc" }, "base_initiative": i % 7})).collect();
    let r = crate::call("tmd.encounter_new", json!({"characters": chars, "seed": 5})).unwrap();
    let t = std::time::Instant::now();
    let l = crate::call("tmd.encounter_legal_actions", json!({"state": r["state"]})).unwrap();
    let n = l["actions"].as_array().unwrap().len();
    // 4950 delays + start_turns + 100 × (5 overdraws + 5 grants + 5 switches + leave + 2 teleports
    // + gm_down; no HP tracked, so no gm_damage) + 2.
    assert_eq!(n, 4950 + 1 + 100 * 19 + 2);
    eprintln!("legal actions for 100 characters: {n} in {:?}", t.elapsed());
}

/// A two-character encounter at the start of A's first turn (14 base AP plus
/// `extra` extra AP), converting `steps` (type, count) one call each: the
/// converted counts and AP left, or the rule of the first refusal.
fn encounter_conversions(extra: u32, steps: &[(TmdConvertType, u32)]) -> Result<serde_json::Value, String> {
    let act = |state: &serde_json::Value, action: serde_json::Value| {
        crate::call("tmd.encounter_act", json!({"state": state, "action": action}))
    };
    let r = crate::call(
        "tmd.encounter_new",
        json!({"characters": [{"id": "A", "side": "pc", "base_initiative": 5},
                              {"id": "B", "side": "npc", "base_initiative": 0}], "rolls": [5, 5]}),
    )
    .unwrap();
    let mut state = r["state"].clone();
    if extra > 0 {
        state =
            act(&state, json!({"type": "gain_ap", "actor": "A", "amount": extra})).unwrap()["state"].clone();
    }
    state = act(&state, json!({"type": "start_turns"})).unwrap()["state"].clone();
    assert_eq!(state["current"], "A");
    for (t, n) in steps {
        let a = json!({"type": "convert", "actor": "A", "action_type": t, "count": n});
        match act(&state, a) {
            Ok(r) => state = r["state"].clone(),
            Err(e) => return Err(e.0.rule.unwrap_or_default()),
        }
    }
    let c = &state["characters"][0];
    Ok(json!({"converted": c["converted"], "base_ap": c["base_ap"], "extra_ap": c["extra_ap"]}))
}

/// TMD-AP-6: `tmd.convert` and the encounter's `convert` read the
/// pick rule alike. 「先选择一种类型的动作进行转化，接着再选择未选择过的另一种类型」 forbids
/// only going back to a type after picking a different one, so converting one
/// action at a time is the same as converting several in one call. Each sequence
/// runs through `tmd.convert`, through the encounter one action per call, and
/// through the encounter one call per run of a type; all three must agree, and
/// agree with the outcome derived from the seed and RULINGS (14 AP: standard ≤ 1,
/// move ≤ 2, swift ≤ 3, trick ≤ 5; costs 1/2/4/6/8).
#[test]
fn stateless_and_encounter_conversions_agree() {
    use TmdConvertType::{Acrobatic as Ac, Move as Mv, Standard as St, Swift as Sw, Trick as Tr};
    // (extra AP, conversions in order, None = accepted / Some(rule) = refused).
    let cases: &[(u32, &[TmdConvertType], Option<&str>)] = &[
        (0, &[Tr, Tr], None),
        (0, &[Tr, Tr, Tr, Tr, Tr], None),
        (0, &[Tr, Tr, Tr, Tr, Tr, Tr], Some("TMD-AP-8")),
        (0, &[Tr, Sw, Tr], Some("TMD-AP-6")),
        (0, &[Sw, Sw, Mv], None),
        (0, &[Sw, Mv, Sw], Some("TMD-AP-6")),
        (0, &[Mv, Mv], None),
        (0, &[Mv, Mv, Mv], Some("TMD-AP-8")),
        (0, &[St, St], Some("TMD-AP-7")),
        (0, &[Ac, Ac], Some("TMD-AP-7")),
        (0, &[St, Mv, Sw], None),
        (0, &[St, Mv, Mv], Some("TMD-AP-5")),
        (0, &[St, Tr, Tr, Tr, Sw], None),
        (0, &[St, Tr, Tr, Tr, Mv], Some("TMD-AP-5")),
        (0, &[Sw, Sw, Sw, Tr, Tr, Tr, Tr, Tr, Mv], Some("TMD-AP-5")),
        (0, &[Sw, Sw, Sw, Tr, Tr, Tr, Tr, Tr], None),
        (10, &[St, St], None),
        (10, &[St, St, Mv, Mv], None),
        (10, &[St, St, Mv, Mv, Tr], Some("TMD-AP-5")),
        (10, &[St, St, Tr, St], Some("TMD-AP-6")),
    ];
    for (extra, seq, want) in cases {
        let stateless = crate::call("tmd.convert", json!({"base_ap": 14, "extra_ap": extra, "actions": seq}))
            .map(|r| json!({"converted": r["converted"], "base_ap": r["base_ap"], "extra_ap": r["extra_ap"]}))
            .map_err(|e| e.0.rule.unwrap_or_default());
        let singles: Vec<(TmdConvertType, u32)> = seq.iter().map(|t| (*t, 1)).collect();
        let mut runs: Vec<(TmdConvertType, u32)> = Vec::new();
        for t in seq.iter() {
            match runs.last_mut() {
                Some((last, n)) if last == t => *n += 1,
                _ => runs.push((*t, 1)),
            }
        }
        let one_by_one = encounter_conversions(*extra, &singles);
        let grouped = encounter_conversions(*extra, &runs);
        assert_eq!(stateless, one_by_one, "{seq:?} (+{extra} AP): tmd.convert vs one call per action");
        assert_eq!(stateless, grouped, "{seq:?} (+{extra} AP): tmd.convert vs one call per run");
        match want {
            None => {
                let r = stateless.unwrap_or_else(|rule| panic!("{seq:?} (+{extra} AP) refused by {rule}"));
                let cost: u32 = seq.iter().map(|t| t.cost()).sum();
                let left = r["base_ap"].as_u64().unwrap() + r["extra_ap"].as_u64().unwrap();
                assert_eq!(left, u64::from(14 + extra - cost), "{seq:?}: AP left");
                for t in TmdConvertType::ALL {
                    let n = seq.iter().filter(|x| **x == t).count() as u64;
                    let key = serde_json::to_value(t).unwrap();
                    assert_eq!(r["converted"][key.as_str().unwrap()], n, "{seq:?}: {t:?} converted");
                }
            }
            Some(rule) => assert_eq!(stateless, Err(rule.to_string()), "{seq:?} (+{extra} AP)"),
        }
    }
}
