//! Batch CoC 7th edition: `coc7.simulate_checks`.
//!
//! A loop over the ruleset's own pub functions: [`roll_d100`] (the
//! `|bonus_dice| + 1` tens dice, then the ones die, exactly as `coc7.check`)
//! and [`evaluate`] (level and success under the difficulty and house rule).

use crate::batch::{check_n, check_work, BatchData, BatchDef};
use crate::coc7::check::{evaluate, roll_d100};
use crate::error::Result;
use crate::json::{FromJson, ToJson};

/// What `coc7.simulate_checks` returns per repetition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Coc7SimulateOutput {
    /// The level code (default): 0 fumble, 1 failure, 2 regular, 3 hard,
    /// 4 extreme, 5 critical (the level's rank, so higher is better).
    #[default]
    Level,
    /// 1 if the level meets the difficulty, else 0.
    Success,
    /// The kept d100 roll, 1–100.
    Roll,
}

/// Arguments of `coc7.simulate_checks`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7SimulateChecksArgs {
    /// The check.
    #[serde(flatten)]
    pub roll: crate::coc7::check::Coc7Roll,
    /// `level` (codes 0 fumble … 5 critical, default), `success` (1/0) or `roll` (1–100).
    #[serde(default)]
    pub output: Coc7SimulateOutput,
    /// Repetitions, at most 2·10^7, and n × (|bonus dice| + 16) at most 2·10^8.
    #[schemars(range(max = crate::batch::MAX_BATCH))]
    pub n: u64,
    /// `seed`.
    #[serde(flatten)]
    pub source: crate::dice::SeedArg,
}

/// `coc7.simulate_checks` — `n` seeded 7th-edition checks as int32 level codes
/// (0 fumble, 1 failure, 2 regular, 3 hard, 4 extreme, 5 critical), successes
/// or kept rolls. Element 0 is `coc7.check` with the same seed.
pub fn simulate_checks(args: &Coc7SimulateChecksArgs) -> Result<BatchData> {
    let (r, rule) = (&args.roll, args.roll.house_rule()?);
    let n = check_n(args.n)?;
    // The d100's two dice and the bonus dice, and 4 more for grading the roll against the
    // skill and the house rule: 1.67·10^7 checks at +12 took 6.3 s in Node.
    check_work(args.n, r.bonus_dice.unsigned_abs().saturating_add(6))?;
    let mut dice = args.source.dice()?.unrecorded();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let (roll, _) = roll_d100(&mut dice, r.bonus_dice)?;
        out.push(match args.output {
            Coc7SimulateOutput::Roll => roll as i32,
            o => {
                let (level, success) = evaluate(i64::from(roll), r.skill, r.difficulty, rule);
                if o == Coc7SimulateOutput::Success {
                    i32::from(success)
                } else {
                    i32::from(level.rank())
                }
            }
        });
    }
    Ok(BatchData::I32(out))
}

pub(crate) fn ops() -> Vec<BatchDef> {
    vec![crate::batch_op!(
        "coc7.simulate_checks",
        simulate_checks,
        Coc7SimulateChecksArgs,
        "int32",
        "n seeded 7th-edition checks as int32 level codes (0 fumble … 5 critical), successes or rolls."
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coc7::check::{check, Coc7CheckArgs, Coc7Roll};
    use crate::coc7::odds::{distribution, Coc7DistributionArgs};
    use crate::coc7::Coc7Difficulty;
    use crate::ErrorCode;

    fn ints(d: BatchData) -> Vec<i32> {
        match d {
            BatchData::I32(v) => v,
            BatchData::F64(_) | BatchData::Parts(..) => panic!("int32 expected"),
        }
    }

    #[test]
    fn one_stream_in_order() {
        for bonus in [-2, 0, 1] {
            let roll = Coc7Roll {
                skill: 45,
                bonus_dice: bonus,
                difficulty: Coc7Difficulty::Hard,
                rule: 2,
                ..Default::default()
            };
            let base = Coc7SimulateChecksArgs {
                roll: roll.clone(),
                n: 3,
                source: Some(21).into(),
                ..Default::default()
            };
            let one = check(&Coc7CheckArgs { roll, source: crate::dice::DiceArgs::seed(21) }).unwrap();
            let levels = ints(simulate_checks(&base).unwrap());
            assert_eq!(levels[0], i32::from(one.level.rank()));
            let rolls = ints(
                simulate_checks(&Coc7SimulateChecksArgs { output: Coc7SimulateOutput::Roll, ..base.clone() })
                    .unwrap(),
            );
            assert_eq!(rolls[0], one.roll as i32);
            let wins = ints(
                simulate_checks(&Coc7SimulateChecksArgs { output: Coc7SimulateOutput::Success, ..base })
                    .unwrap(),
            );
            assert_eq!(wins[0], i32::from(one.success));
        }
    }

    #[test]
    fn frequencies_match_exact_odds() {
        // 200k checks: each level's frequency is within 0.005 of the exact chance.
        let v = ints(
            simulate_checks(&Coc7SimulateChecksArgs {
                roll: Coc7Roll { skill: 60, bonus_dice: 1, ..Default::default() },
                n: 200_000,
                source: Some(5).into(),
                ..Default::default()
            })
            .unwrap(),
        );
        let d = distribution(&Coc7DistributionArgs {
            roll: Coc7Roll { skill: 60, bonus_dice: 1, ..Default::default() },
        })
        .unwrap();
        let l = &d.levels;
        for (code, p) in
            [(0, l.fumble), (1, l.failure), (2, l.regular), (3, l.hard), (4, l.extreme), (5, l.critical)]
        {
            let f = v.iter().filter(|&&x| x == code).count() as f64 / v.len() as f64;
            assert!((f - p).abs() < 0.005, "level {code}: {f} vs {p}");
        }
    }

    #[test]
    fn validation_and_garbage() {
        let e = simulate_checks(&Coc7SimulateChecksArgs {
            roll: Coc7Roll { skill: 1000, ..Default::default() },
            n: 1,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::OutOfRange, Some("skill")));
        let e = simulate_checks(&Coc7SimulateChecksArgs {
            roll: Coc7Roll { skill: 50, bonus_dice: 11, ..Default::default() },
            n: 1,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("bonus_dice"));
        let e = simulate_checks(&Coc7SimulateChecksArgs {
            roll: Coc7Roll { skill: 50, rule: 6, ..Default::default() },
            n: 1,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("rule"));
        let e = simulate_checks(&Coc7SimulateChecksArgs {
            roll: Coc7Roll { skill: 50, ..Default::default() },
            n: 100_000_001,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfRange); // n's own range
                                                   // The work budget: n × (|bonus| + 16) ≤ 2·10^8, so 1.25·10^7 checks without bonus dice
                                                   // at most (the limit is checked before any die is rolled).
        let e = simulate_checks(&Coc7SimulateChecksArgs {
            roll: Coc7Roll { skill: 50, ..Default::default() },
            n: 12_500_001,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::LimitExceeded, Some("n")));
        let e = simulate_checks(&Coc7SimulateChecksArgs {
            roll: Coc7Roll { skill: 50, bonus_dice: -10, ..Default::default() },
            n: 7_692_308,
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        for v in [
            serde_json::json!(null),
            serde_json::json!({"skill": -5, "n": 1}),
            serde_json::json!({"skill": 50, "bonus_dice": i64::MIN, "n": 1}),
            serde_json::json!({"skill": 50, "n": 1, "output": "nope"}),
            serde_json::json!({"skill": 999, "bonus_dice": -10, "rule": 5, "difficulty": "extreme", "n": 50, "seed": 1}),
            serde_json::json!({"skill": 0, "n": 5, "seed": 9007199254740992u64}),
        ] {
            let _ = crate::batch::call_batch("coc7.simulate_checks", v);
        }
    }
}
