//! Batch dice: `dice.simulate_pool`.

use super::{check_n, BatchData, BatchDef};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Arguments of `dice.simulate_pool`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiceSimulatePoolArgs {
    /// Dice per repetition, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub count: i64,
    /// Sides per die, 1..=10000.
    #[schemars(range(min = 1, max = 10000))]
    pub sides: i64,
    /// Repetitions, at most 2·10^7, and n × (count + 10) at most 2·10^8.
    #[schemars(range(max = crate::batch::MAX_BATCH))]
    pub n: u64,
    /// `seed`.
    #[serde(flatten)]
    pub source: crate::dice::SeedArg,
}

/// `dice.simulate_pool` — `n` totals of `count`d`sides`, as int32.
pub fn simulate_pool(args: &DiceSimulatePoolArgs) -> Result<BatchData> {
    if !(0..=1000).contains(&args.count) {
        return Err(Error::out_of_range("count", "a pool has 0..=1000 dice"));
    }
    if !(1..=10_000).contains(&args.sides) {
        return Err(Error::out_of_range("sides", "a die has 1..=10000 sides"));
    }
    let n = check_n(args.n)?;
    super::check_work(args.n, args.count as u64)?;
    let mut dice = args.source.dice()?.unrecorded();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut total = 0i32;
        for _ in 0..args.count {
            total += dice.roll(args.sides as u32)? as i32;
        }
        out.push(total);
    }
    Ok(BatchData::I32(out))
}

pub(crate) fn ops() -> Vec<BatchDef> {
    vec![crate::batch_op!(
        "dice.simulate_pool",
        simulate_pool,
        DiceSimulatePoolArgs,
        "int32",
        "Totals of n seeded rolls of a dice pool, as an int32 array."
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::pool::{pool, DicePoolArgs};

    #[test]
    fn one_stream_in_order() {
        let a = simulate_pool(&DiceSimulatePoolArgs { count: 10, sides: 6, n: 3, source: Some(42).into() })
            .unwrap();
        let BatchData::I32(v) = a else { panic!("int32 expected") };
        let first =
            pool(&DicePoolArgs { count: 10, sides: 6, source: crate::dice::DiceArgs::seed(42) }).unwrap();
        assert_eq!(v[0] as i64, first.total);
        let thirty =
            pool(&DicePoolArgs { count: 30, sides: 6, source: crate::dice::DiceArgs::seed(42) }).unwrap();
        assert_eq!(v.iter().map(|&x| x as i64).sum::<i64>(), thirty.total);
    }

    #[test]
    fn limits() {
        let e = simulate_pool(&DiceSimulatePoolArgs {
            count: 1,
            sides: 6,
            n: 100_000_001,
            source: Some(1).into(),
        })
        .unwrap_err();
        assert_eq!(e.code, crate::ErrorCode::OutOfRange); // n's own range
        let e = simulate_pool(&DiceSimulatePoolArgs { count: -1, sides: 6, n: 1, source: Some(1).into() })
            .unwrap_err();
        assert_eq!(e.code, crate::ErrorCode::OutOfRange);
    }
}
