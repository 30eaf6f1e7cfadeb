//! Batch World Trigger: `world_trigger.simulate_checks`, `world_trigger.simulate_opposed`,
//! `world_trigger.simulate_damage`.
//!
//! Each op is a loop over the ruleset's own pub functions (no rule is
//! re-implemented here):
//! * checks: [`WtPoolArgs::pool`] validates the pool (WT-TD-5), each repetition rolls
//!   the pool's d6 in the same order as `world_trigger.check` (stat, tactics,
//!   extra dice) into a reused buffer and scores it with
//!   [`achievement`] (WT-CHK-3/4);
//! * opposed checks: [`roll_opposed`] per repetition (WT-OPP-2/3, the reactor
//!   rolls first);
//! * damage: the arguments are validated by the single op
//!   [`damage`] itself (run once on a scripted die), then [`roll_damage`] per
//!   repetition (WT-DMG-1/4/5).

#[cfg(feature = "world_trigger")]
pub mod battles;

use crate::batch::{check_n, check_work, BatchData, BatchDef};
use crate::dice::ScriptedFace;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use crate::world_trigger::check::{achievement, roll_opposed, WtPoolArgs};
use crate::world_trigger::damage::{damage, roll_damage, WtDamageArgs, WtDamageInput, WtHitArgs};

/// Arguments of `world_trigger.simulate_checks`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSimulateChecksArgs {
    /// The pool of each check: stat, tactics and extra dice.
    #[serde(flatten)]
    pub pool: WtPoolArgs,
    /// Repetitions, at most 2·10^7, and n × (dice per check + 10) at most 2·10^8.
    #[schemars(range(max = crate::batch::MAX_BATCH))]
    pub n: u64,
    /// `seed`.
    #[serde(flatten)]
    pub source: crate::dice::SeedArg,
}

/// `world_trigger.simulate_checks` — `n` achievement values (WT-CHK-3/4:
/// sum of the faces + 10 per pair of 1s) as int32. Element 0 is the
/// `achievement` of `world_trigger.check` with the same seed and pool.
pub fn simulate_checks(args: &WtSimulateChecksArgs) -> Result<BatchData> {
    let pool = args.pool.pool()?;
    let n = check_n(args.n)?;
    check_work(args.n, u64::from(pool.size()))?;
    let mut dice = args.source.dice()?.unrecorded();
    let mut faces = vec![0u32; pool.size() as usize];
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        match dice.fast_prng() {
            Some(p) => faces.iter_mut().for_each(|f| *f = p.face(6)),
            None => {
                for f in faces.iter_mut() {
                    *f = dice.roll(6)?;
                }
            }
        }
        out.push(to_i32("dice", achievement(&faces).achievement)?);
    }
    Ok(BatchData::I32(out))
}

/// What `world_trigger.simulate_opposed` returns per repetition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtSimulateOpposedOutput {
    /// 1 if the actor wins (WT-OPP-3: actor achievement ≥ reactor achievement), else 0 (default).
    #[default]
    Win,
    /// Actor achievement − reactor achievement (≥ 0 means the actor wins).
    Margin,
}

/// Arguments of `world_trigger.simulate_opposed`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSimulateOpposedArgs {
    /// Both sides' pools.
    #[serde(flatten)]
    pub pools: crate::world_trigger::check::WtOpposedPools,
    /// `win` (1/0, default) or `margin` (actor − reactor achievement).
    #[serde(default)]
    pub output: WtSimulateOpposedOutput,
    /// Repetitions, at most 2·10^7, and n × (3 × dice per check of both sides + 30) at most 2·10^8.
    #[schemars(range(max = crate::batch::MAX_BATCH))]
    pub n: u64,
    /// `seed`.
    #[serde(flatten)]
    pub source: crate::dice::SeedArg,
}

/// `world_trigger.simulate_opposed` — `n` opposed checks (WT-OPP-1…3, the
/// reactor's pool rolled first each time) as int32: 1/0 actor wins, or the
/// margin. Element 0 matches `world_trigger.opposed` with the same seed.
pub fn simulate_opposed(args: &WtSimulateOpposedArgs) -> Result<BatchData> {
    let (actor, reactor) = args.pools.pools()?;
    let n = check_n(args.n)?;
    // An opposed check's die costs about three times a plain check's (both sides'
    // sorting and the comparison), and the check itself two more repetitions (timed in
    // wasm: 10^7 checks of no dice, 5.1 s; 3.3·10^6 of 5 + 5 dice, 4.2 s).
    check_work(
        args.n,
        3 * (u64::from(actor.size()) + u64::from(reactor.size())) + 2 * crate::batch::REPETITION_COST,
    )?;
    let mut dice = args.source.dice()?.unrecorded();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let r = roll_opposed(&mut dice, actor, reactor)?;
        out.push(match args.output {
            WtSimulateOpposedOutput::Win => i32::from(r.actor_wins),
            WtSimulateOpposedOutput::Margin => {
                to_i32("actor_dice", r.actor.achievement.saturating_sub(r.reactor.achievement))?
            }
        });
    }
    Ok(BatchData::I32(out))
}

/// Arguments of `world_trigger.simulate_damage`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSimulateDamageArgs {
    /// The hit, as in `world_trigger.damage`.
    #[serde(flatten)]
    pub hit: WtHitArgs,
    /// Repetitions, at most 2·10^7.
    #[schemars(range(max = crate::batch::MAX_BATCH))]
    pub n: u64,
    /// `seed`.
    #[serde(flatten)]
    pub source: crate::dice::SeedArg,
}

/// `world_trigger.simulate_damage` — `n` damage totals (WT-DMG-1/4/5:
/// Attack + 1d6 + burst + special attack + modifier, never below 0) as int32.
/// Element 0 is the `total` of `world_trigger.damage` with the same seed.
pub fn simulate_damage(args: &WtSimulateDamageArgs) -> Result<BatchData> {
    let n = check_n(args.n)?;
    // Validate with the single op itself (same errors, same fields), on one scripted die.
    let probe = damage(&WtDamageArgs {
        hit: args.hit.clone(),
        source: crate::dice::DiceArgs { rolls: Some(vec![ScriptedFace::Face(1)]), ..Default::default() },
        ..Default::default()
    })?;
    let input = WtDamageInput {
        attack: args.hit.attack,
        burst: probe.burst,
        special_attack: probe.special_attack,
        modifier: probe.modifier,
    };
    let mut dice = args.source.dice()?.unrecorded();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(to_i32("attack", roll_damage(&mut dice, input)?.total)?);
    }
    Ok(BatchData::I32(out))
}

/// An int32 element, or `limit_exceeded` naming `field` (unreachable within the documented limits).
fn to_i32(field: &str, v: i64) -> Result<i32> {
    i32::try_from(v).map_err(|_| Error::limit(field, format_args!("value {v} does not fit in int32")))
}

pub(crate) fn ops() -> Vec<BatchDef> {
    #[cfg_attr(not(feature = "world_trigger"), allow(unused_mut))]
    let mut v = vec![
        crate::batch_op!(
            "world_trigger.simulate_checks",
            simulate_checks,
            WtSimulateChecksArgs,
            "int32",
            "Achievement values of n seeded checks (stat + tactics + extra d6, +10 per pair of 1s), as int32."
        ),
        crate::batch_op!(
            "world_trigger.simulate_opposed",
            simulate_opposed,
            WtSimulateOpposedArgs,
            "int32",
            "n seeded opposed checks (reactor first): 1/0 actor wins, or the margin, as int32."
        ),
        crate::batch_op!(
            "world_trigger.simulate_damage",
            simulate_damage,
            WtSimulateDamageArgs,
            "int32",
            "Damage totals of n seeded hits (Attack + 1d6 + burst + special attack + modifier), as int32."
        ),
    ];
    // The battle simulation is compiled only with the ruleset's feature.
    #[cfg(feature = "world_trigger")]
    v.push(crate::batch_op!(
        "world_trigger.simulate_battles",
        battles::simulate_battles,
        battles::WtSimulateBattlesArgs,
        "int32",
        [("winner", false), ("rounds", false), ("points", true), ("down", true)],
        "Play n complete battles of one setup natively with data policies (random, aggressive, priority); per battle: winner (team index, -1 draw), rounds, points and members down per team."
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world_trigger::check::{check, opposed, WtCheckArgs, WtOpposedArgs};
    use crate::ErrorCode;

    fn ints(d: BatchData) -> Vec<i32> {
        match d {
            BatchData::I32(v) => v,
            BatchData::F64(_) | BatchData::Parts(..) => panic!("int32 expected"),
        }
    }

    #[test]
    fn checks_one_stream_in_order() {
        let v = ints(
            simulate_checks(&WtSimulateChecksArgs {
                pool: WtPoolArgs { dice: 7, tactics_dice: 2, extra_dice: 1 },
                n: 4,
                source: Some(1).into(),
            })
            .unwrap(),
        );
        assert_eq!(v.len(), 4);
        let one = check(&WtCheckArgs {
            pool: WtPoolArgs { dice: 7, tactics_dice: 2, extra_dice: 1 },
            source: Some(1).into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(i64::from(v[0]), one.achievement);
        // Element k continues the same stream: 4 checks of 10 dice = the faces of one
        // 40-dice check, split in tens.
        let all =
            check(&WtCheckArgs { pool: WtPoolArgs::stat(40), source: Some(1).into(), ..Default::default() })
                .unwrap();
        for (k, chunk) in all.faces.chunks(10).enumerate() {
            assert_eq!(i64::from(v[k]), achievement(chunk).achievement);
        }
    }

    #[test]
    fn checks_match_exact_mean() {
        // 200k checks of 3 dice: the sample mean is within 0.05 of the exact mean.
        let v = ints(
            simulate_checks(&WtSimulateChecksArgs {
                pool: WtPoolArgs::stat(3),
                n: 200_000,
                source: Some(7).into(),
            })
            .unwrap(),
        );
        let mean = v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len() as f64;
        let exact = crate::world_trigger::odds::expected_achievement(3);
        assert!((mean - exact).abs() < 0.05, "{mean} vs {exact}");
    }

    #[test]
    fn opposed_one_stream_in_order() {
        let pools = crate::world_trigger::check::WtOpposedPools {
            actor_dice: 5,
            reactor_dice: 4,
            actor_tactics_dice: 1,
            reactor_extra_dice: 2,
            ..Default::default()
        };
        let args = WtSimulateOpposedArgs { pools, n: 3, source: Some(11).into(), ..Default::default() };
        let single = WtOpposedArgs { pools, source: Some(11).into() };
        let one = opposed(&single).unwrap();
        let wins = ints(simulate_opposed(&args).unwrap());
        assert_eq!(wins[0], i32::from(one.actor_wins));
        assert!(wins.iter().all(|&w| w == 0 || w == 1));
        let margins = ints(
            simulate_opposed(&WtSimulateOpposedArgs { output: WtSimulateOpposedOutput::Margin, ..args })
                .unwrap(),
        );
        assert_eq!(i64::from(margins[0]), one.actor.achievement - one.reactor.achievement);
        for (w, m) in wins.iter().zip(&margins) {
            assert_eq!(*w == 1, *m >= 0, "WT-OPP-3: ties go to the actor");
        }
    }

    #[test]
    fn damage_one_stream_in_order() {
        let hit = WtHitArgs {
            attack: 6,
            burst: 3,
            trion_stat: 5,
            special_attack_lv: 2,
            special_attack_lvs: vec![1],
            variants: crate::world_trigger::types::WtVariants {
                special_attack_stacking: crate::world_trigger::damage::WtSpecialAttackStacking::Sum,
                ..Default::default()
            },
            ..Default::default()
        };
        let args = WtSimulateDamageArgs { hit: hit.clone(), n: 5, source: Some(3).into() };
        let v = ints(simulate_damage(&args).unwrap());
        let one = damage(&WtDamageArgs { hit, source: Some(3).into(), ..Default::default() }).unwrap();
        assert_eq!(i64::from(v[0]), one.total);
        // 6 + d6 + 3 + (2 + 1).
        assert!(v.iter().all(|&t| (13..=18).contains(&t)));
        // The d6 faces are the stream of dice.pool.
        let faces = crate::dice::pool::pool(&crate::dice::pool::DicePoolArgs {
            count: 5,
            sides: 6,
            source: crate::dice::DiceArgs::seed(3),
        })
        .unwrap();
        let expect: Vec<i32> = faces.rolls.iter().map(|r| 12 + r.value as i32).collect();
        assert_eq!(v, expect);
    }

    #[test]
    fn validation_and_limits() {
        let e = simulate_checks(&WtSimulateChecksArgs {
            pool: WtPoolArgs::stat(1),
            n: 100_000_001,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfRange); // n's own range
        let e = simulate_checks(&WtSimulateChecksArgs {
            pool: WtPoolArgs { tactics_dice: 21, ..WtPoolArgs::stat(1) },
            n: 1,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!((e.code, e.rule.as_deref()), (ErrorCode::OutOfRange, Some("WT-TD-5")));
        // 10^8 checks of 220 dice is too much work for one call.
        let e = simulate_checks(&WtSimulateChecksArgs {
            pool: WtPoolArgs { dice: 100, tactics_dice: 20, extra_dice: 100 },
            n: 100_000_000,
            source: Some(1).into(),
        })
        .unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::OutOfRange, Some("n")));
        // Repetitions are work too (DESIGN: how much may one batch call do): 10^8
        // opposed checks of 5 + 5 dice took 17.7 s natively and are refused; so are
        // 3.4·10^6 (over 5 s in wasm), and 3.3·10^6 are not.
        let opposed = |n| {
            simulate_opposed(&WtSimulateOpposedArgs {
                pools: crate::world_trigger::check::WtOpposedPools {
                    actor_dice: 5,
                    reactor_dice: 5,
                    ..Default::default()
                },
                n,
                ..Default::default()
            })
        };
        // Within the repetition limit (2·10^7), over the work limit: 5 + 5 dice cost 60 a check.
        let e = opposed(10_000_000).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::LimitExceeded, Some("n")));
        assert!(e.message.contains("units of work"), "{}", e.message);
        assert!(opposed(3_400_000).is_err());
        assert!(opposed(3_300_000).is_ok());
        // 10^7 checks of 10 dice are the most; 10^7 checks of 7 + 2 dice (the batch
        // benchmark) fit.
        assert!(crate::batch::check_work(100_000_000, 10).is_err());
        assert!(crate::batch::check_work(10_000_000, 10).is_ok());
        assert!(crate::batch::check_work(10_000_001, 10).is_err());
        assert!(crate::batch::check_work(10_000_000, 9).is_ok());
        let e = simulate_damage(&WtSimulateDamageArgs {
            hit: WtHitArgs { attack: 1, burst: 2, trion_stat: 1, ..Default::default() },
            n: 1,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!((e.code, e.rule.as_deref()), (ErrorCode::OutOfRange, Some("WT-DMG-4")));
        let e = simulate_damage(&WtSimulateDamageArgs {
            hit: WtHitArgs { attack: 1, ..Default::default() },
            n: 1,
            source: Some(1 << 53).into(),
        })
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("seed"));
        let e = simulate_opposed(&WtSimulateOpposedArgs {
            pools: crate::world_trigger::check::WtOpposedPools { actor_dice: 101, ..Default::default() },
            n: 1,
            ..Default::default()
        })
        .unwrap_err();
        // RULINGS 2026-12-05 (error codes): outside the field's documented range 0..=100.
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::OutOfRange, Some("actor_dice")));
        // n = 0 is an empty array, not an error.
        assert!(simulate_checks(&WtSimulateChecksArgs {
            pool: WtPoolArgs::stat(3),
            n: 0,
            ..Default::default()
        })
        .unwrap()
        .is_empty());
    }

    #[test]
    fn garbage_args_never_panic() {
        for op in [
            "world_trigger.simulate_checks",
            "world_trigger.simulate_opposed",
            "world_trigger.simulate_damage",
        ] {
            for v in [
                serde_json::json!(null),
                serde_json::json!([1]),
                serde_json::json!({"n": -1}),
                serde_json::json!({"dice": u32::MAX, "n": 1}),
                serde_json::json!({"actor_dice": 0, "reactor_dice": 0, "n": 2, "seed": 1}),
                serde_json::json!({"attack": i64::MAX, "modifier": i64::MIN, "n": 1}),
                serde_json::json!({"attack": 1000000, "modifier": 1000000, "special_attack_lvs": vec![100; 16],
                    "variants": {"special_attack_stacking": "sum"}, "n": 1, "seed": 1}),
                serde_json::json!({"dice": 0, "n": 3, "seed": 1, "rolls": [1]}),
                serde_json::json!({"dice": 0, "n": u64::MAX}),
            ] {
                let _ = crate::batch::call_batch(op, v);
            }
        }
        let zero = crate::batch::call_batch(
            "world_trigger.simulate_checks",
            serde_json::json!({"dice": 0, "n": 2, "seed": 1}),
        )
        .unwrap();
        assert_eq!(zero, BatchData::I32(vec![0, 0]));
    }
}
