//! `dice.pool`: roll a pool of identical dice (what a VTT animates).

use super::Roll;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Most dice in one pool.
pub const MAX_POOL: i64 = 1000;
/// Most sides of a die.
pub const MAX_SIDES: i64 = 10_000;

/// Arguments of `dice.pool`.
///
/// `rolls`: Scripted faces, consumed in order.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DicePoolArgs {
    /// Number of dice, 0..=1000.
    #[schemars(range(min = 0, max = MAX_POOL))]
    pub count: i64,
    /// Sides per die, 1..=10000.
    #[schemars(range(min = 1, max = MAX_SIDES))]
    pub sides: i64,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `dice.pool`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DicePoolResult {
    /// Faces in order.
    pub faces: Vec<u32>,
    /// Sum of the faces.
    pub total: i64,
    /// Every die rolled, in consumption order.
    pub rolls: Vec<Roll>,
}

/// `dice.pool` — roll `count` dice with `sides` sides.
///
/// ```
/// use gunbai::dice::pool::{pool, DicePoolArgs};
/// let r = pool(&DicePoolArgs { count: 3, sides: 6, source: gunbai::dice::DiceArgs::rolls([1, 6, 6]) }).unwrap();
/// assert_eq!(r.total, 13);
/// ```
pub fn pool(args: &DicePoolArgs) -> Result<DicePoolResult> {
    // The declared ranges refuse these when the arguments are read as JSON; a Rust caller's
    // values get the same refusal here (the bounds are work: a pool is rolled die by die).
    if !(0..=MAX_POOL).contains(&args.count) {
        return Err(Error::out_of_range(
            "count",
            format_args!("a pool has 0..={MAX_POOL} dice, not {}", args.count),
        ));
    }
    if !(1..=MAX_SIDES).contains(&args.sides) {
        return Err(Error::out_of_range(
            "sides",
            format_args!("a die has 1..={MAX_SIDES} sides, not {}", args.sides),
        ));
    }
    let mut dice = args.source.dice()?;
    let faces = dice.roll_n(args.count as usize, args.sides as u32)?;
    let total = faces.iter().map(|&f| i64::from(f)).sum();
    Ok(DicePoolResult { faces, total, rolls: dice.take_rolls() })
}
