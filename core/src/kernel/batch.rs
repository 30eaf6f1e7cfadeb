//! Batch operations: many seeded repetitions, returned as one flat numeric array.
//!
//! Analysts simulate millions of checks; a JSON object per roll would be far too
//! slow, so a batch op returns [`BatchData`] (an `int32` or `float64` vector),
//! which Python receives as a numpy array and JS as a typed array, without any
//! per-roll object. Batch ops are registered like ordinary ops (same naming,
//! same argument conventions, `seed` optional → entropy) but in
//! [`batch_registry`], and the catalog marks them `"kind": "batch"`.
//!
//! Determinism: a batch op draws all repetitions from **one** `gunbai-dice-v1`
//! stream, in order, so element 0 equals the single op called with the same
//! seed, and element k is what the k-th call would give if the stream continued.

pub mod dice;

use crate::error::quote;
use crate::error::{Error, ErrorCode, Result};
#[cfg(feature = "schema")]
use schemars::{Schema, SchemaGenerator};
use serde_json::Value;
use std::cell::Cell;
use std::sync::OnceLock;

/// Most repetitions in one batch call: 2·10^7, about five seconds of
/// `world_trigger.simulate_damage` in the wasm build (DESIGN.md, "How much may one batch
/// call do?"; 10^8 took 25 s there).
pub const MAX_BATCH: u64 = 20_000_000;

/// The flat result of a batch op.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchData {
    /// 32-bit integers (achievements, totals, levels as codes).
    I32(Vec<i32>),
    /// 64-bit floats.
    F64(Vec<f64>),
    /// 32-bit integers holding several named arrays one after another (a table:
    /// `world_trigger.simulate_battles`' winner, rounds, points and down).
    Parts(Vec<i32>, Vec<BatchPart>),
}

/// One named array of a [`BatchData::Parts`] result: `shape[0] × shape[1]`
/// values, row-major, following the parts before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchPart {
    /// Its name in the result (`winner`).
    pub name: &'static str,
    /// Rows × columns (columns 1: a plain array).
    pub shape: [usize; 2],
}

impl BatchData {
    /// The numpy dtype name of this data.
    pub fn dtype(&self) -> &'static str {
        match self {
            BatchData::I32(_) | BatchData::Parts(..) => "int32",
            BatchData::F64(_) => "float64",
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            BatchData::I32(v) | BatchData::Parts(v, _) => v.len(),
            BatchData::F64(v) => v.len(),
        }
    }

    /// The named parts, for a table result.
    pub fn parts(&self) -> &[BatchPart] {
        match self {
            BatchData::Parts(_, p) => p,
            _ => &[],
        }
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Little-endian bytes (what the Python binding hands to numpy).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            BatchData::I32(v) | BatchData::Parts(v, _) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            BatchData::F64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }
}

/// One registered batch operation.
pub struct BatchDef {
    /// `<module>.<op>`, snake_case.
    pub name: &'static str,
    /// One-line summary (only in builds with the catalog).
    #[cfg(feature = "schema")]
    pub summary: &'static str,
    /// numpy dtype of the result (`int32` or `float64`).
    pub dtype: &'static str,
    /// A table result's parts: name, and whether it has one column per team
    /// (empty: one flat array).
    pub parts: &'static [(&'static str, bool)],
    /// Runs the operation on JSON arguments.
    pub run: fn(Value) -> Result<BatchData>,
    /// JSON Schema of the arguments.
    #[cfg(feature = "schema")]
    pub args_schema: fn(&mut SchemaGenerator) -> Schema,
}

/// Build a [`BatchDef`] from `fn(&Args) -> Result<BatchData>`.
#[macro_export]
macro_rules! batch_op {
    ($name:literal, $f:path, $args:ty, $dtype:literal, $summary:literal) => {
        $crate::batch_op!($name, $f, $args, $dtype, [], $summary)
    };
    ($name:literal, $f:path, $args:ty, $dtype:literal, [$(($part:literal, $per_team:literal)),*], $summary:literal) => {
        $crate::batch::BatchDef {
            name: $name,
            #[cfg(feature = "schema")]
            summary: $summary,
            dtype: $dtype,
            parts: &[$(($part, $per_team)),*],
            run: |v| $f(&$crate::ops::parse_args::<$args>(v)?),
            #[cfg(feature = "schema")]
            args_schema: |g| g.subschema_for::<$args>(),
        }
    };
}

thread_local! {
    /// How many repetitions the next batch call makes at most (its window).
    static WINDOW: Cell<u64> = const { Cell::new(u64::MAX) };
    /// Where the window's stream starts instead of the seed: where an earlier one ended.
    pub(crate) static RESUME: Cell<Option<[u64; 4]>> = const { Cell::new(None) };
    /// Where the last batch's stream ended.
    pub(crate) static END: Cell<[u64; 4]> = const { Cell::new([0; 4]) };
}

/// Sets the window of the next batch calls: at most `count` repetitions (`u64::MAX`: all),
/// from the stream state `from` (where an earlier window ended, [`window_end`]) or, if
/// `None`, from the seed. The JS package splits a long call into windows so that no wasm
/// call blocks for long, each validating the whole call's arguments: their results, one
/// after another, are the one call's. A host sets it back to `(u64::MAX, None)` after.
pub fn set_window(count: u64, from: Option<[u64; 4]>) {
    WINDOW.set(count);
    RESUME.set(from);
}

/// The stream state where the last batch call ended.
pub fn window_end() -> [u64; 4] {
    END.get()
}

/// Validate a repetition count.
pub fn check_n(n: u64) -> Result<usize> {
    if n > MAX_BATCH {
        // The field's own range (RULINGS, "Error codes"); the work across the call is
        // `limit_exceeded` (`check_work`).
        return Err(Error::out_of_range(
            "n",
            format_args!("at most {MAX_BATCH} repetitions per call, not {n}"),
        ));
    }
    // The whole call is validated; the repetitions made are its window's (at most
    // MAX_BATCH, which fits a usize of 32 bits).
    Ok(n.min(WINDOW.get()) as usize)
}

/// Most work one batch call may do, in dice: about five seconds in the wasm build (Node;
/// a second or two natively). It was 10^9, five seconds natively, until it was timed at
/// 31 s in Node. Larger studies call again with another seed.
pub const MAX_BATCH_DICE: u64 = 200_000_000;

/// What one repetition costs besides its dice, counted as dice: deciding and writing
/// its result. Measured in the ninth session: 10^8 opposed checks with no dice took
/// 6.6 s, as long as 10^9 pool dice.
pub const REPETITION_COST: u64 = 10;

/// Validate the total work of `n` repetitions of `per_repetition` dice (field `n`):
/// `n × (per_repetition + REPETITION_COST)` at most [`MAX_BATCH_DICE`].
pub fn check_work(n: u64, per_repetition: u64) -> Result<()> {
    match n.checked_mul(per_repetition.saturating_add(REPETITION_COST)) {
        Some(total) if total <= MAX_BATCH_DICE => Ok(()),
        _ => Err(Error::limit(
            "n",
            format_args!(
                "at most {MAX_BATCH_DICE} units of work per call (a die is one, a repetition \
                 {REPETITION_COST} more): {n} repetitions of {per_repetition} dice is too many"
            ),
        )),
    }
}

/// Every batch operation of this build (the composition root's list, `registered` in
/// `lib.rs`).
pub fn batch_registry() -> &'static [BatchDef] {
    static REG: OnceLock<Vec<BatchDef>> = OnceLock::new();
    REG.get_or_init(crate::registered::batch_ops)
}

/// Run the batch operation `op` on JSON `args`.
pub fn call_batch(op: &str, args: Value) -> Result<BatchData> {
    let def = batch_registry().iter().find(|d| d.name == op).ok_or_else(|| {
        if crate::ops::find(op).is_some() {
            Error::field(
                ErrorCode::UnknownOperation,
                "op",
                format_args!("{} is not a batch operation: run it with call", quote(op)),
            )
        } else {
            Error::field(
                ErrorCode::UnknownOperation,
                "op",
                format_args!("no batch operation named {}", quote(op)),
            )
        }
    })?;
    (def.run)(args)
}

/// Like [`call_batch`] with host entropy for unseeded calls.
pub fn call_batch_with_entropy(op: &str, args: Value, entropy: u64) -> Result<BatchData> {
    crate::dice::with_host_entropy(entropy, || call_batch(op, args))
}
