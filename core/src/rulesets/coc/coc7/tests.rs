use super::check::*;
use super::odds::*;
use super::opposed::*;
use crate::dice::ScriptedFace;
use crate::error::ErrorCode;

fn faces(v: &[u32]) -> Option<Vec<ScriptedFace>> {
    Some(v.iter().map(|&f| ScriptedFace::Face(i64::from(f))).collect())
}

/// Brute force: every tens face and ones face fed to `coc7.check` as scripted
/// dice (|bonus| ≤ 1), and the pure picker for |bonus| = 2, against the
/// closed-form counts of `coc7.distribution`.
#[test]
fn distribution_matches_brute_force() {
    let skills = [0, 1, 4, 5, 9, 10, 25, 49, 50, 51, 60, 95, 99, 100, 150, 999];
    let diffs = [Coc7Difficulty::Regular, Coc7Difficulty::Hard, Coc7Difficulty::Extreme];
    for rule in 0..=5 {
        for &skill in &skills {
            for bonus in -2i64..=2 {
                for &difficulty in &diffs {
                    if difficulty != Coc7Difficulty::Regular && bonus.abs() > 1 {
                        continue;
                    }
                    let m = bonus.unsigned_abs() as u32 + 1;
                    let mut brute = [0u64; 6];
                    let mut brute_success = 0u64;
                    let total = 10u64.pow(m + 1);
                    for code in 0..total {
                        // digits: m tens faces then the ones face, each 1..=10
                        let mut x = code;
                        let mut fs = Vec::new();
                        for _ in 0..=m {
                            fs.push((x % 10) as u32 + 1);
                            x /= 10;
                        }
                        let (level, ok) = if bonus.abs() <= 1 {
                            let r = check(&Coc7CheckArgs {
                                roll: Coc7Roll {
                                    skill,
                                    bonus_dice: bonus,
                                    difficulty,
                                    rule,
                                    ..Default::default()
                                },
                                source: crate::dice::DiceArgs { rolls: faces(&fs), ..Default::default() },
                            })
                            .unwrap();
                            (r.level, r.success)
                        } else {
                            let ones = fs[m as usize] % 10;
                            let cands: Vec<u32> =
                                fs[..m as usize].iter().map(|&t| d100_value(t % 10, ones)).collect();
                            evaluate(i64::from(pick(&cands, bonus)), skill, difficulty, rule)
                        };
                        brute[Coc7Level::ALL.iter().position(|&l| l == level).unwrap()] += 1;
                        if ok {
                            brute_success += 1;
                        }
                    }
                    let (c, s, t) = counts(skill, bonus, difficulty, rule);
                    assert_eq!(t, total);
                    assert_eq!(
                        [c.critical, c.extreme, c.hard, c.regular, c.failure, c.fumble],
                        brute,
                        "rule {rule} skill {skill} bonus {bonus} {difficulty:?}"
                    );
                    assert_eq!(s, brute_success, "success rule {rule} skill {skill} bonus {bonus}");
                }
            }
        }
    }
}

#[test]
fn distribution_sums_to_one_for_extreme_dice() {
    for bonus in [-10, 10] {
        let d = distribution(&Coc7DistributionArgs {
            roll: Coc7Roll { skill: 50, bonus_dice: bonus, ..Default::default() },
        })
        .unwrap();
        let c = &d.counts;
        assert_eq!(c.critical + c.extreme + c.hard + c.regular + c.failure + c.fumble, d.outcomes);
        assert_eq!(d.outcomes, 1_000_000_000_000);
    }
}

#[test]
fn garbage_args_never_panic() {
    for skill in [i64::MIN, -1, 0, 999, 1000, i64::MAX] {
        for bonus in [i64::MIN, -11, -10, 0, 10, 11, i64::MAX] {
            for rule in [i64::MIN, -1, 0, 5, 6, i64::MAX] {
                let a = Coc7CheckArgs {
                    roll: Coc7Roll { skill, bonus_dice: bonus, rule, ..Default::default() },
                    source: Some(7).into(),
                };
                let _ = check(&a);
                let _ = distribution(&Coc7DistributionArgs {
                    roll: Coc7Roll { skill, bonus_dice: bonus, rule, ..Default::default() },
                });
                let _ = opposed(&Coc7OpposedArgs {
                    pair: Coc7OpposedPair {
                        a: Coc7OpposedSide { skill, bonus_dice: bonus },
                        b: Coc7OpposedSide { skill: 50, bonus_dice: 0 },
                        rule,
                        ..Default::default()
                    },
                    source: crate::dice::DiceArgs::seed(1),
                });
            }
        }
    }
    let e = check(&Coc7CheckArgs {
        roll: Coc7Roll { skill: 50, ..Default::default() },
        source: crate::dice::DiceArgs { rolls: faces(&[1]), ..Default::default() },
    })
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::ScriptedDiceExhausted);
    for v in [
        serde_json::json!({"skill": "x"}),
        serde_json::json!({"skill": 1e300}),
        serde_json::json!([]),
        serde_json::json!({"skill": 50, "difficulty": "impossible"}),
        serde_json::json!({"skill": 50, "rolls": [{"value": 3, "kind": "normal"}, 1]}),
    ] {
        assert!(crate::call("coc7.check", v).is_err());
    }
}

#[test]
fn seeded_checks_are_reproducible() {
    let a = Coc7CheckArgs {
        roll: Coc7Roll { skill: 60, bonus_dice: -2, ..Default::default() },
        source: Some(99).into(),
    };
    assert_eq!(check(&a).unwrap(), check(&a).unwrap());
    assert_eq!(check(&a).unwrap().rolls.len(), 4);
}

/// Every schema type of the Call of Cthulhu modules carries its module prefix
/// (type names share one namespace in the generated TS/Python surfaces).
#[test]
fn schema_type_names_are_prefixed() {
    let cat = crate::catalog();
    let defs = cat["defs"].as_object().unwrap();
    // Shared by every ruleset: the dice, whose move it is (`<x>_turn`) and whole games
    // (`<x>_simulate`).
    let shared = [
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
        "SimPolicyFor",
    ];
    for op in cat["ops"].as_array().unwrap() {
        let name = op["name"].as_str().unwrap();
        let prefix = match name.split('.').next().unwrap() {
            "coc7" => "Coc7",
            "coc_ap" => "CocAp",
            "coc7_house" => "C7h",
            _ => continue,
        };
        // Batch ops (`"kind": "batch"`, e.g. coc7.simulate_checks) return a numeric array, no result type.
        let sides: &[&str] = if op["kind"] == "batch" { &["args"] } else { &["args", "result"] };
        for side in sides {
            let r = op[*side]["$ref"].as_str().unwrap();
            let t = r.rsplit('/').next().unwrap();
            assert!(t.starts_with(prefix) || shared.contains(&t), "{name} {side}: {t}");
        }
    }
    for k in defs.keys() {
        let ours = k.starts_with("Coc7") || k.starts_with("CocAp") || k.starts_with("C7h");
        let looks_coc = k.contains("Coc") || k.contains("C7h");
        assert!(ours || !looks_coc || shared.contains(&k.as_str()), "{k}");
    }
}
