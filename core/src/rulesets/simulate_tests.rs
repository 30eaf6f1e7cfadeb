//! The `_simulate` operations of every engine (`engine::simulate`): battle k depends only
//! on the seed and k, whatever the thread count or the chunks the battles are played in.

use serde_json::{json, Value};

fn sim(op: &str, setup: &Value, extra: Value) -> Value {
    let mut args = json!({"setup": setup, "seed": 2026, "n": 6});
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    crate::call(op, args).unwrap_or_else(|e| panic!("{op}: {}", e.message))
}

/// Columns `a` then `b`, joined (as a host joins two chunks).
fn joined(a: &Value, b: &Value) -> Value {
    let mut out = a.clone();
    for table in ["battles", "members"] {
        for (col, v) in b[table].as_object().unwrap() {
            out[table][col].as_array_mut().unwrap().extend(v.as_array().unwrap().iter().cloned());
        }
    }
    out
}

fn same_whatever_the_threads_or_chunks(op: &str, setup: Value) -> Value {
    same_with(op, setup, json!({}))
}

/// As [`same_whatever_the_threads_or_chunks`], every call also given `base`'s arguments.
fn same_with(op: &str, setup: Value, base: Value) -> Value {
    let sim = |op: &str, setup: &Value, extra: Value| {
        let mut all = base.clone();
        for (k, v) in extra.as_object().unwrap() {
            all[k] = v.clone();
        }
        sim(op, setup, all)
    };
    let one = sim(op, &setup, json!({"threads": 1}));
    assert_eq!(one["battles"]["index"], json!([0, 1, 2, 3, 4, 5]), "{op}");
    assert_eq!(sim(op, &setup, json!({"threads": 2})), one, "{op}: two threads");
    assert_eq!(sim(op, &setup, json!({"threads": 4})), one, "{op}: four threads");
    // More threads than a whole chunk each: 5 games over 4 threads (2, 2, 1 and none).
    let five = sim(op, &setup, json!({"threads": 1, "n": 5}));
    assert_eq!(sim(op, &setup, json!({"threads": 4, "n": 5})), five, "{op}: five games, four threads");
    assert_eq!(five["battles"]["index"], json!([0, 1, 2, 3, 4]), "{op}");
    assert_eq!(sim(op, &setup, json!({"threads": 0})), one, "{op}: a thread per core");
    let (a, b) = (sim(op, &setup, json!({"n": 2})), sim(op, &setup, json!({"first": 2, "n": 4})));
    assert_eq!(joined(&a, &b), one, "{op}: two chunks");
    // Each battle on its own is the same battle.
    let fifth = sim(op, &setup, json!({"first": 4, "n": 1}));
    assert_eq!(fifth["battles"]["seed"][0], one["battles"]["seed"][4], "{op}");
    assert_eq!(fifth["battles"]["steps"][0], one["battles"]["steps"][4], "{op}");
    // Another master seed plays other battles.
    let other = sim(op, &setup, json!({"seed": 7}));
    assert_ne!(other["battles"]["seed"], one["battles"]["seed"], "{op}");
    // Rows: one per battle, and the members' columns all as long.
    let members = one["members"]["id"].as_array().unwrap().len();
    assert!(members >= 6, "{op}: {members} member rows");
    for (col, v) in one["members"].as_object().unwrap() {
        assert_eq!(v.as_array().unwrap().len(), members, "{op}: members.{col}");
    }
    for (col, v) in one["battles"].as_object().unwrap() {
        assert_eq!(v.as_array().unwrap().len(), 6, "{op}: battles.{col}");
    }
    one
}

fn refusals(op: &str, setup: Value) {
    let code = |extra: Value| {
        let mut args = json!({"setup": setup, "seed": 1, "n": 2});
        for (k, v) in extra.as_object().unwrap() {
            args[k] = v.clone();
        }
        let e = crate::call(op, args).expect_err("refused");
        (e.code.as_str().to_string(), e.field.clone().unwrap_or_default())
    };
    assert_eq!(code(json!({"n": 0})), ("out_of_range".into(), "n".into()), "{op}");
    assert_eq!(code(json!({"max_steps": 0})), ("out_of_range".into(), "max_steps".into()), "{op}");
    assert_eq!(code(json!({"threads": 100000})), ("out_of_range".into(), "threads".into()), "{op}");
    assert_eq!(code(json!({"first": 9007199254740991u64})), ("out_of_range".into(), "first".into()), "{op}");
    assert_eq!(code(json!({"sead": 1})).0, "invalid_argument", "{op}: a misspelt key");
    let (c, f) = code(json!({"setup": {"no_such_key": 1}}));
    assert_eq!(c, "invalid_argument", "{op}: a bad setup");
    assert!(f.starts_with("setup"), "{op}: the bad setup's place: {f}");
}

#[cfg(feature = "world_trigger")]
#[test]
fn world_trigger_battles_simulate() {
    // WT-END-2: random rank battles of the example setup run to their end.
    let mut setup = crate::world_trigger::battle::tests::setup("rank_3v3");
    setup.as_object_mut().unwrap().remove("seed");
    setup["max_rounds"] = json!(2);
    let one = same_whatever_the_threads_or_chunks("world_trigger.battle_simulate", setup.clone());
    assert!(one["battles"]["ended"].as_array().unwrap().iter().all(|e| e == true), "{}", one["battles"]);
    // The setup's initiative dice come from each battle's seed: not every battle opens alike.
    refusals("world_trigger.battle_simulate", setup);
}

#[cfg(feature = "tmd")]
#[test]
fn tmd_encounters_simulate() {
    // TMD-INI-1: each encounter rolls its own initiative.
    let setup = json!({"characters": [
        {"id": "a", "side": "pc", "base_initiative": 2},
        {"id": "b", "side": "npc", "base_initiative": 0},
        {"id": "c", "side": "npc", "base_initiative": 1}]});
    let one = same_with("tmd.encounter_simulate", setup.clone(), json!({"max_steps": 100}));
    let acted: u64 = one["members"]["actions"].as_array().unwrap().iter().map(|a| a.as_u64().unwrap()).sum();
    assert!(acted > 0, "nobody acted");
    refusals("tmd.encounter_simulate", setup);
}

#[cfg(feature = "coc")]
#[test]
fn coc_rounds_simulate() {
    // COCAP-RND-1, C7H-INIT-1: rounds of two fighters, to the step cap or their end.
    let ap = json!({"participants": [
        {"id": "a", "dex": 12, "position": [0, 0], "skills": {"dodge": 40}},
        {"id": "b", "dex": 9, "position": [1, 0], "skills": {"dodge": 30}}]});
    same_with("coc_ap.round_simulate", ap.clone(), json!({"max_steps": 60}));
    refusals("coc_ap.round_simulate", ap);
    let house = json!({"participants": [{"id": "a", "dex": 60, "is_pc": true}, {"id": "b", "dex": 40, "is_pc": false}]});
    same_with("coc7_house.round_simulate", house.clone(), json!({"max_steps": 60}));
    refusals("coc7_house.round_simulate", house);
}

#[cfg(feature = "coc")]
#[test]
fn coc_chases_simulate() {
    // C7H-ESC-1…6: every chase ends (escaped or caught) well within the step cap.
    let chase = json!({"fugitive": {"id": "f", "mov": 8, "dex": 50, "skill": 50},
        "pursuer": {"id": "p", "mov": 8, "dex": 50, "skill": 50}, "gap": 2});
    let one = same_whatever_the_threads_or_chunks("coc7_house.chase_simulate", chase.clone());
    assert!(one["battles"]["ended"].as_array().unwrap().iter().all(|e| e == true), "{}", one["battles"]);
    refusals("coc7_house.chase_simulate", chase);
}

#[cfg(feature = "fap_map")]
#[test]
fn fap_map_rounds_simulate() {
    // FM-DEF-3/4: rounds of three combatants, to the step cap.
    let setup = json!({"combatants": [
        {"id": "a", "reaction": 8, "magic": 5, "agility": 7},
        {"id": "b", "reaction": 6, "magic": 3, "agility": 9},
        {"id": "c", "reaction": 4, "magic": 8, "agility": 5}]});
    let one = same_with("fap_map.round_simulate", setup.clone(), json!({"max_steps": 40}));
    assert_eq!(one["battles"]["steps"], json!([40, 40, 40, 40, 40, 40]), "a round has no end of its own");
    refusals("fap_map.round_simulate", setup);
}

#[cfg(feature = "tmd")]
#[test]
fn a_call_is_bounded_in_every_build() {
    let setup = json!({"characters": [{"id": "a", "side": "pc", "base_initiative": 2},
        {"id": "b", "side": "npc", "base_initiative": 0}]});
    let limit = crate::engine::simulate::MAX_WORK;
    let call = |n: u64, steps: u64| {
        crate::call("tmd.encounter_simulate", json!({"setup": setup, "seed": 1, "n": n, "max_steps": steps}))
    };
    let e = call(limit / 10 + 1, 10).expect_err("over the bound");
    assert_eq!(e.code.as_str(), "limit_exceeded");
    assert!(e.message.contains("first"), "the message says how to go on: {}", e.message);
    assert!(call(limit / 1000, 1000).is_ok());
}
