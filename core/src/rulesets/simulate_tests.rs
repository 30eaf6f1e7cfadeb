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
    // WT-KO: who went down is known; WT-DMG: damage is attributed (0 where nobody hit).
    assert!(one["members"]["down"].as_array().unwrap().iter().all(Value::is_boolean));
    assert!(one["members"]["damage_dealt"].as_array().unwrap().iter().all(Value::is_i64));
    // The setup's initiative dice come from each battle's seed: not every battle opens alike.
    refusals("world_trigger.battle_simulate", setup);
}

#[cfg(feature = "world_trigger")]
#[test]
fn world_trigger_damage_is_the_hit_checks_attacker() {
    // WT-DMG-1 (the seed's example, testdata scenarios): katori's hit on kuga deals 7;
    // a reaction alone deals nothing.
    use crate::engine::Engine;
    let events = json!([
        {"type": "reaction_rolled", "target": "kuga", "reactor": "kuga", "skill": "shield", "faces": [], "achievement": 0},
        {"type": "hit_check", "attacker": "katori", "target": "kuga", "hit": true},
        {"type": "damage", "target": "kuga", "total": 7, "trion_after": 26},
        {"type": "hit_check", "attacker": "kuga", "target": "katori", "hit": false}]);
    type B = crate::rulesets::world_trigger::handle::Battle;
    assert_eq!(B::damage_dealt(&events), Some(vec![("katori".into(), "kuga".into(), 7)]));
    assert_eq!(B::damage_dealt(&json!([events[0]])), Some(vec![]));
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
    // Without HP nobody goes down; the damage answered (none given here) is attributed.
    assert!(one["members"]["down"].as_array().unwrap().iter().all(|d| d == false));
    assert!(one["members"]["damage_dealt"].as_array().unwrap().iter().all(Value::is_i64));
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

/// The members' column `col` as integers (nulls as None).
#[cfg(feature = "coc")]
fn ints(one: &Value, col: &str) -> Vec<Option<i64>> {
    one["members"][col].as_array().unwrap().iter().map(Value::as_i64).collect()
}

/// A one-on-one CoC 6th AP fight with HP (the seed's ayla against the ghoul).
#[cfg(feature = "coc")]
fn ap_duel() -> Value {
    json!({"participants": [
        {"id": "ayla", "dex": 14, "side": "pc", "hp_max": 12, "skills": {"dodge": 50},
         "weapons": [{"name": "knife", "skill": 60, "attacks_per_round": 2, "damage": "1d4+2"}]},
        {"id": "ghoul", "dex": 12, "side": "npc", "hp_max": 13, "armor": 1, "skills": {"dodge": 40},
         "weapons": [{"name": "claw", "skill": 45, "attacks_per_round": 1, "damage": "1d6"}]}]})
}

/// A one-on-one CoC 7th house fight with HP.
#[cfg(feature = "coc")]
fn house_duel() -> Value {
    json!({"participants": [
        {"id": "A", "dex": 60, "is_pc": true, "side": "pc", "hp": 12, "dodge": 40,
         "weapons": [{"id": "sword", "skill": 70, "damage": "1d8", "range": "近接"}]},
        {"id": "B", "dex": 50, "side": "npc", "hp": 11, "armor": 1, "dodge": 30,
         "weapons": [{"id": "axe", "skill": 50, "damage": "1d8", "range": "近接"}]}]})
}

#[cfg(feature = "coc")]
#[test]
fn coc_damage_dealt_is_the_damage_the_other_side_took() {
    // COCAP-ACT-2, C7H-PAS-1: in a one-on-one fight, what each deals is what the other
    // takes (HP falls only by the other's hits; nobody heals), and the one down at the
    // end is the one the outcome names.
    for (op, setup) in [("coc_ap.round_simulate", ap_duel()), ("coc7_house.round_simulate", house_duel())] {
        let one = sim(op, &setup, json!({"n": 40, "max_steps": 240, "policy": {"kind": "aggressive"}}));
        let (dealt, taken) = (ints(&one, "damage_dealt"), ints(&one, "damage_taken"));
        let ids = one["members"]["id"].as_array().unwrap();
        let battle = one["members"]["battle"].as_array().unwrap();
        let mut hit = 0;
        let hp_end = ints(&one, "hp_end");
        for k in (0..ids.len()).step_by(2) {
            assert_eq!(battle[k], battle[k + 1], "{op}: two rows per battle");
            for (from, to) in [(k, k + 1), (k + 1, k)] {
                // HP stops at its floor (C7H: 0): a last blow may deal more than it takes.
                if hp_end[to].unwrap() > 0 {
                    assert_eq!(dealt[from], taken[to], "{op}: row {from}: {}", one["members"]);
                } else {
                    assert!(dealt[from] >= taken[to], "{op}: row {from}: {}", one["members"]);
                }
            }
            hit += dealt[k].unwrap() + dealt[k + 1].unwrap();
        }
        assert!(hit > 0, "{op}: nobody hit anybody");
        let ended = one["battles"]["ended"].as_array().unwrap();
        assert!(
            ended.iter().filter(|e| *e == true).count() > 30,
            "{op}: most fights end: {}",
            one["battles"]
        );
        for (b, outcome) in one["battles"]["outcome"].as_array().unwrap().iter().enumerate() {
            let down_at_end: Vec<&Value> = (0..ids.len())
                .filter(|&k| battle[k] == json!(b) && one["members"]["down"][k] == true)
                .map(|k| &ids[k])
                .collect();
            if !outcome.is_null() {
                let named: Vec<&Value> = outcome["down"].as_array().unwrap().iter().collect();
                assert_eq!(down_at_end, named, "{op}: battle {b}");
            }
        }
    }
}

#[cfg(feature = "coc")]
#[test]
fn policies_are_data() {
    // COCAP-ACT-2: the aggressive policy attacks whenever an attack is listed, so it
    // attacks more (and deals more) than the random policy; one side scripted, the
    // other random; a random policy with a priority list is refused.
    let op = "coc_ap.round_simulate";
    let run = |policy: Value, policies: Value| {
        sim(op, &ap_duel(), json!({"n": 40, "max_steps": 240, "policy": policy, "policies": policies}))
    };
    let total = |v: &Value, col: &str| ints(v, col).iter().map(|x| x.unwrap()).sum::<i64>();
    let aggressive = run(json!({"kind": "aggressive"}), json!([]));
    let random = run(json!({"kind": "random"}), json!([]));
    assert_eq!(random, run(json!({}), json!([])), "random is the default");
    let rounds = |v: &Value| {
        v["battles"]["rounds"].as_array().unwrap().iter().map(|r| r.as_u64().unwrap()).sum::<u64>()
    };
    let rate = |v: &Value| total(v, "damage_dealt") as f64 / rounds(v) as f64;
    assert!(rate(&aggressive) > 1.5 * rate(&random), "{} vs {}", rate(&aggressive), rate(&random));
    // ayla scripted aggressive, the ghoul random: ayla deals more per round than the ghoul.
    let mixed = run(json!({"kind": "random"}), json!([{"ids": ["ayla"], "kind": "aggressive"}]));
    let side = |v: &Value, who: &str| {
        let ids = v["members"]["id"].as_array().unwrap();
        let d = ints(v, "damage_dealt");
        (0..ids.len()).filter(|&k| ids[k] == who).map(|k| d[k].unwrap()).sum::<i64>()
    };
    assert!(side(&mixed, "ayla") > side(&mixed, "ghoul"), "{}", mixed["members"]);
    let e = crate::call(
        op,
        json!({"setup": ap_duel(), "seed": 1, "n": 1, "policy": {"kind": "random", "priority": ["attack"]}}),
    )
    .expect_err("refused");
    assert_eq!((e.code.as_str(), e.field.as_deref()), ("invalid_argument", Some("policy.priority")));
    let e = crate::call(op, json!({"setup": ap_duel(), "seed": 1, "n": 1, "policy": {"kind": "bold"}}))
        .expect_err("refused");
    assert_eq!(e.code.as_str(), "invalid_argument");
}

#[cfg(feature = "tmd")]
#[test]
fn tmd_attributes_no_damage() {
    // TMD-SCN-1: the seed has no damage rules: damage dealt is null, `down` is known.
    let setup = json!({"characters": [{"id": "a", "side": "pc", "base_initiative": 2},
        {"id": "b", "side": "npc", "base_initiative": 0}]});
    let one = sim("tmd.encounter_simulate", &setup, json!({"max_steps": 50}));
    assert!(one["members"]["damage_dealt"].as_array().unwrap().iter().all(Value::is_null));
    assert!(one["members"]["down"].as_array().unwrap().iter().all(Value::is_boolean));
}

/// `cargo test --release -p gunbai --lib bench_simulate_threads -- --ignored --nocapture`:
/// battles per second of each engine's `_simulate` operation natively, from
/// `benchmarks/simulate_setups.json` (the games `benchmarks/bench_simulate.py` plays from
/// Python), in the chunks `gunbai.<module>.simulate` calls (`n × max_steps` at most 10,000
/// a call): the chunks one after another on one thread (`one`); the chunks spread over
/// every core, each call on one thread, as the Python module plays them (`all`); the
/// chunks one after another, each call spreading its games over every core (`threads: 0`,
/// `op_all`); each the best of three timings. Prints `native.<module>.<way> <battles/s>`. A benchmark: it asserts only that
/// every way plays the same games.
#[test]
#[ignore = "benchmark"]
fn bench_simulate_threads() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let root = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
        .join("..");
    let text = std::fs::read_to_string(root.join("benchmarks/simulate_setups.json")).unwrap();
    let spec: Value = serde_json::from_str(&text).unwrap();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    for e in spec["engines"].as_array().unwrap() {
        let setup = match e.get("setup_file") {
            Some(f) => {
                let mut s: Value =
                    serde_json::from_str(&std::fs::read_to_string(root.join(f.as_str().unwrap())).unwrap())
                        .unwrap();
                s.as_object_mut().unwrap().remove("seed");
                s
            }
            None => e["setup"].clone(),
        };
        let (n, steps) = (e["n"].as_u64().unwrap(), e["max_steps"].as_u64().unwrap());
        let chunk = (10_000 / steps).max(1);
        let chunks = n.div_ceil(chunk);
        let call = |c: u64, threads: u64| {
            let first = c * chunk;
            let out = crate::call(
                e["op"].as_str().unwrap(),
                json!({"setup": setup, "seed": 7, "first": first, "n": chunk.min(n - first), "threads": threads,
                       "policy": e["policy"], "max_steps": steps}),
            )
            .unwrap();
            out["battles"]["steps"].clone()
        };
        // The best of three timings.
        let timed = |f: &dyn Fn() -> Vec<Value>| {
            let mut best = 0f64;
            let mut games = Vec::new();
            for _ in 0..3 {
                let t = std::time::Instant::now();
                games = f();
                best = best.max(n as f64 / t.elapsed().as_secs_f64());
            }
            (best, games)
        };
        let (one, a) = timed(&|| (0..chunks).map(|c| call(c, 1)).collect());
        let (all, b) = timed(&|| {
            let next = AtomicU64::new(0);
            let mut got: Vec<(u64, Value)> = std::thread::scope(|sc| {
                let hs: Vec<_> = (0..cores)
                    .map(|_| {
                        sc.spawn(|| {
                            let mut mine = Vec::new();
                            loop {
                                let c = next.fetch_add(1, Ordering::Relaxed);
                                if c >= chunks {
                                    return mine;
                                }
                                mine.push((c, call(c, 1)));
                            }
                        })
                    })
                    .collect();
                hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
            });
            got.sort_by_key(|(c, _)| *c);
            got.into_iter().map(|(_, v)| v).collect()
        });
        let (op_all, c) = timed(&|| (0..chunks).map(|c| call(c, 0)).collect());
        let m = e["module"].as_str().unwrap();
        assert!(a == b && a == c, "{m}: the same games every way");
        println!("native.{m}.one {one:.1}");
        println!("native.{m}.all {all:.1}");
        println!("native.{m}.op_all {op_all:.1}");
    }
}
