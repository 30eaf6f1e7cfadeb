//! `dice.pool`: roll a pool of identical dice (what a VTT animates).

use super::Roll;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most dice in one pool.
pub const MAX_POOL: i64 = 1000;
/// Most sides of a die.
pub const MAX_SIDES: i64 = 10_000;

/// Arguments of `dice.pool`.
///
/// `rolls`: Scripted faces, consumed in order.
#[derive(Debug, Clone, Serialize, ToJson, crate::json::DeserializeFromJson, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DicePoolArgs {
    /// Number of dice, 0..=1000.
    pub count: i64,
    /// Sides per die, 1..=10000.
    pub sides: i64,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `dice.pool`.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
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
    if args.count < 0 {
        return Err(Error::out_of_range("count", "a dice count cannot be negative"));
    }
    if args.count > MAX_POOL {
        return Err(Error::limit("count", format_args!("at most {MAX_POOL} dice, not {}", args.count)));
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
