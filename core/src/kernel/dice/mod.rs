//! The dice layer: one die source with three implementations.
//!
//! * **seeded** — [`prng::Prng`] (`gunbai-dice-v1`), from an argument `seed`
//!   with `0 <= seed < 2^53`.
//! * **scripted** — faces given by the caller in `rolls`, consumed strictly in
//!   the order the operation rolls them (each operation documents its order;
//!   e.g. percentile checks take the tens dice first, then the ones die). A face
//!   outside `1..=sides` is `invalid_die_face`; running out is
//!   `scripted_dice_exhausted`. Faces left over at the end are ignored.
//!   A scripted face is either a bare integer or a roll object as results
//!   report them (`{"sides": 6, "value": 4, "kind": "normal"}`), so a result's
//!   `rolls` can be fed back to replay it; an object's `sides` and `kind`
//!   must then match the die being rolled.
//! * **entropy** — when neither `seed` nor `rolls` is given. The core does no
//!   IO: the host supplies 64 bits of entropy per call
//!   ([`crate::call_with_entropy`]); without one, native Rust uses the standard
//!   library's randomly keyed hasher.
//!
//! Every die rolled is recorded as a [`Roll`] in consumption order; results
//! return that list as `rolls`.

pub mod expr;
pub mod pool;
pub mod prng;

use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use std::cell::Cell;

/// Largest seed accepted (exclusive): seeds must survive a trip through JS numbers.
pub const SEED_LIMIT: u64 = 1 << 53;
/// Most scripted faces accepted in one call.
pub const MAX_SCRIPTED_FACES: usize = 100_000;
/// Most dice one call may roll, whatever the operation (a guard against runaway loops).
pub const MAX_DICE_PER_CALL: usize = 1_000_000;

/// How a die is shown by dice-animation clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RollKind {
    /// An ordinary die, face `1..=sides`.
    Normal,
    /// The tens die of a percentile roll: a d10 whose face 10 reads as digit 0
    /// (shown as 00, 10 … 90).
    TensD10,
}

impl RollKind {
    /// The kind as written in JSON (`normal`, `tens_d10`), for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            RollKind::Normal => "normal",
            RollKind::TensD10 => "tens_d10",
        }
    }
}

/// One die as rolled: sides, face and kind. d10 faces are `1..=10`; 10 reads as 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Roll {
    /// Number of sides.
    pub sides: u32,
    /// The face, `1..=sides`.
    pub value: u32,
    /// Display kind.
    pub kind: RollKind,
}

/// A scripted face: a bare integer, or a roll object (as results report them).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(any(feature = "serde", feature = "schema"), serde(untagged, deny_unknown_fields))]
pub enum ScriptedFace {
    /// A bare face value.
    Face(i64),
    /// A roll object; `sides` and `kind`, when present, must match the die rolled.
    Roll {
        /// Number of sides of the die this face is for.
        #[cfg_attr(any(feature = "serde", feature = "schema"), serde(default))]
        sides: Option<u32>,
        /// The face.
        value: i64,
        /// Display kind of the die this face is for.
        #[cfg_attr(any(feature = "serde", feature = "schema"), serde(default))]
        kind: Option<RollKind>,
    },
}

// By hand: the derive does not do `untagged` (one type has it).
impl crate::json::FromJson for ScriptedFace {
    fn from_json(v: &serde_json::Value, at: &crate::json::At<'_>) -> crate::json::JsonResult<Self> {
        // Other keys are refused (as by serde's untagged variant with deny_unknown_fields).
        #[derive(FromJson)]
        struct RollObject {
            #[serde(default)]
            sides: Option<u32>,
            value: i64,
            #[serde(default)]
            kind: Option<RollKind>,
        }
        match v {
            serde_json::Value::Number(_) => i64::from_json(v, at).map(ScriptedFace::Face),
            serde_json::Value::Object(_) => {
                let r = RollObject::from_json(v, at)?;
                Ok(ScriptedFace::Roll { sides: r.sides, value: r.value, kind: r.kind })
            }
            other => Err(crate::json::invalid_type(other, at, "a face (integer) or a roll object")),
        }
    }
}

impl crate::json::ToJson for ScriptedFace {
    fn to_json(&self) -> serde_json::Value {
        match self {
            ScriptedFace::Face(v) => v.to_json(),
            ScriptedFace::Roll { sides, value, kind } => {
                let mut m = crate::json::Map::new();
                crate::json::put(&mut m, "sides", sides);
                crate::json::put(&mut m, "value", value);
                crate::json::put(&mut m, "kind", kind);
                serde_json::Value::Object(m)
            }
        }
    }
}

impl ScriptedFace {
    fn value(&self) -> i64 {
        match self {
            ScriptedFace::Face(v) => *v,
            ScriptedFace::Roll { value, .. } => *value,
        }
    }
}

/// The `seed` argument of every operation that rolls dice (the batch operations take only
/// this; the others flatten it in with `rolls`, as [`DiceArgs`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SeedArg {
    /// Seed for the `gunbai-dice-v1` PRNG, `0 <= seed < 2^53`; omitted → entropy.
    #[serde(default)]
    #[schemars(range(min = 0, max = SEED_LIMIT - 1))]
    pub seed: Option<u64>,
}

impl From<Option<u64>> for SeedArg {
    fn from(seed: Option<u64>) -> SeedArg {
        SeedArg { seed }
    }
}

impl From<Option<u64>> for DiceArgs {
    fn from(seed: Option<u64>) -> DiceArgs {
        DiceArgs { seeded: SeedArg { seed }, rolls: None }
    }
}

impl SeedArg {
    /// The seed `seed`.
    pub fn of(seed: u64) -> SeedArg {
        SeedArg { seed: Some(seed) }
    }

    /// The die source: seeded, or entropy.
    pub fn dice(&self) -> Result<Dice> {
        Dice::from_args(self.seed, None)
    }
}

/// The dice arguments of an operation that rolls: a `seed`, or scripted `rolls`, or neither
/// (entropy). Each operation's argument struct flattens it in (`#[serde(flatten)]`).
#[derive(Debug, Clone, Default, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiceArgs {
    /// `seed`.
    #[serde(flatten)]
    pub seeded: SeedArg,
    /// Scripted faces instead of `seed`, consumed in the order the operation rolls its dice
    /// (the operation's arguments say which order).
    #[serde(default)]
    pub rolls: Option<Vec<ScriptedFace>>,
}

impl DiceArgs {
    /// Seeded dice.
    pub fn seed(seed: u64) -> DiceArgs {
        DiceArgs { seeded: SeedArg::of(seed), rolls: None }
    }

    /// Scripted dice.
    pub fn rolls(faces: impl IntoIterator<Item = impl Into<ScriptedFace>>) -> DiceArgs {
        DiceArgs { seeded: SeedArg::default(), rolls: Some(faces.into_iter().map(Into::into).collect()) }
    }

    /// The die source these arguments select ([`Dice::from_args`]).
    pub fn dice(&self) -> Result<Dice> {
        Dice::from_args(self.seeded.seed, self.rolls.as_deref())
    }
}

#[derive(Debug, Clone)]
enum Source {
    Seeded(prng::Prng),
    Scripted { faces: Vec<ScriptedFace>, next: usize },
    Entropy(prng::Prng),
}

/// A die source plus the record of every die it has rolled.
#[derive(Debug, Clone)]
pub struct Dice {
    source: Source,
    rolls: Vec<Roll>,
    /// False for batch simulation: faces are not recorded and the per-call dice
    /// limit does not apply (batch ops bound their own repetitions).
    record: bool,
}

thread_local! {
    static HOST_ENTROPY: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Run `f` with `entropy` as the host-supplied entropy for entropy dice.
pub(crate) fn with_host_entropy<T>(entropy: u64, f: impl FnOnce() -> T) -> T {
    let previous = HOST_ENTROPY.with(|c| c.replace(Some(entropy)));
    let out = f();
    HOST_ENTROPY.with(|c| c.set(previous));
    out
}

fn entropy_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(n);
    if let Some(e) = HOST_ENTROPY.with(|c| c.get()) {
        // Mix the call counter in so one host value never repeats a sequence
        // within a call that builds several dice sources.
        h.write_u64(e);
        return e ^ h.finish().rotate_left(17) ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h.finish()
}

/// Unrecorded dice (a batch's) leave where their stream ended for a host's next window
/// (`batch::window_end`); a batch's own stream is the last of its dice dropped.
impl Drop for Dice {
    fn drop(&mut self) {
        if let Some(p) = self.fast_prng() {
            crate::batch::END.set(p.s);
        }
    }
}

impl Dice {
    /// Seeded dice (`gunbai-dice-v1`). `seed` must be below 2^53.
    pub fn seeded(seed: u64) -> Result<Dice> {
        if seed >= SEED_LIMIT {
            return Err(Error::out_of_range("seed", "must be 0 <= seed < 2^53"));
        }
        Ok(Dice { source: Source::Seeded(prng::Prng::new(seed)), rolls: Vec::new(), record: true })
    }

    /// Scripted dice: `faces` are consumed in order.
    pub fn scripted(faces: Vec<ScriptedFace>) -> Result<Dice> {
        if faces.len() > MAX_SCRIPTED_FACES {
            return Err(Error::limit("rolls", format_args!("at most {MAX_SCRIPTED_FACES} scripted faces")));
        }
        Ok(Dice { source: Source::Scripted { faces, next: 0 }, rolls: Vec::new(), record: true })
    }

    /// Entropy dice (host-supplied or the standard library's random keys).
    pub fn entropy() -> Dice {
        Dice { source: Source::Entropy(prng::Prng::new(entropy_seed())), rolls: Vec::new(), record: true }
    }

    /// The die source an operation's `seed`/`rolls` arguments select.
    pub fn from_args(seed: Option<u64>, rolls: Option<&[ScriptedFace]>) -> Result<Dice> {
        match (seed, rolls) {
            (Some(_), Some(_)) => Err(Error::invalid("rolls", "give either seed or rolls, not both")),
            (Some(s), None) => Dice::seeded(s),
            (None, Some(r)) => Dice::scripted(r.to_vec()),
            (None, None) => Ok(Dice::entropy()),
        }
    }

    /// The same source without recording faces (for batch simulation); the first after a
    /// host set a batch window continues the stream where it says (`batch::set_window`).
    pub fn unrecorded(mut self) -> Dice {
        self.record = false;
        self.rolls = Vec::new();
        if let (Some(s), Some(p)) = (crate::batch::RESUME.take(), self.fast_prng()) {
            p.s = s;
        }
        self
    }

    /// The PRNG itself, for tight batch loops: only for unrecorded seeded or
    /// entropy dice (`None` otherwise). Drawing faces from it gives exactly the
    /// faces `roll` would.
    #[inline]
    pub fn fast_prng(&mut self) -> Option<&mut prng::Prng> {
        match &mut self.source {
            Source::Seeded(p) | Source::Entropy(p) if !self.record => Some(p),
            _ => None,
        }
    }

    /// True for scripted dice.
    pub fn is_scripted(&self) -> bool {
        matches!(self.source, Source::Scripted { .. })
    }

    /// Roll one ordinary die with `sides` sides.
    #[inline]
    pub fn roll(&mut self, sides: u32) -> Result<u32> {
        self.roll_kind(sides, RollKind::Normal)
    }

    /// Roll `count` ordinary dice with `sides` sides.
    pub fn roll_n(&mut self, count: usize, sides: u32) -> Result<Vec<u32>> {
        if self.record && self.rolls.len().saturating_add(count) > MAX_DICE_PER_CALL {
            return Err(Error::limit("dice", format_args!("at most {MAX_DICE_PER_CALL} dice in one call")));
        }
        (0..count).map(|_| self.roll(sides)).collect()
    }

    /// Roll one die of the given kind.
    #[inline]
    pub fn roll_kind(&mut self, sides: u32, kind: RollKind) -> Result<u32> {
        // Fast path for batch simulation: the same faces, nothing recorded.
        if !self.record && sides != 0 {
            if let Source::Seeded(p) | Source::Entropy(p) = &mut self.source {
                return Ok(p.face(sides));
            }
        }
        if sides == 0 {
            return Err(Error::new(ErrorCode::Internal, "a die needs at least one side"));
        }
        if self.record && self.rolls.len() >= MAX_DICE_PER_CALL {
            return Err(Error::limit("dice", format_args!("at most {MAX_DICE_PER_CALL} dice in one call")));
        }
        if sides == 100 && kind == RollKind::Normal {
            if let Some(v) = self.percentile_pair()? {
                return Ok(v);
            }
        }
        let value = match &mut self.source {
            Source::Seeded(p) | Source::Entropy(p) => p.face(sides),
            Source::Scripted { faces, next } => {
                let index = *next;
                let field = format!("rolls[{index}]");
                let face = faces.get(index).ok_or_else(|| {
                    Error::field(
                        ErrorCode::ScriptedDiceExhausted,
                        "rolls",
                        format_args!(
                            "ran out of scripted dice: {} given, a d{sides} was needed as face #{}",
                            faces.len(),
                            index + 1
                        ),
                    )
                })?;
                if let ScriptedFace::Roll { sides: Some(s), .. } = face {
                    if *s != sides {
                        return Err(Error::field(
                            ErrorCode::InvalidDieFace,
                            field,
                            format_args!("scripted die has {s} sides, but a d{sides} is rolled here"),
                        ));
                    }
                }
                if let ScriptedFace::Roll { kind: Some(k), .. } = face {
                    if *k != kind {
                        return Err(Error::field(
                            ErrorCode::InvalidDieFace,
                            field,
                            format_args!(
                                "scripted die kind {} does not match the {} die rolled here",
                                k.as_str(),
                                kind.as_str()
                            ),
                        ));
                    }
                }
                let v = face.value();
                if v < 1 || v > i64::from(sides) {
                    return Err(Error::field(
                        ErrorCode::InvalidDieFace,
                        field,
                        format_args!("face {v} is not on a d{sides} (1..={sides})"),
                    ));
                }
                *next += 1;
                v as u32
            }
        };
        if self.record {
            self.rolls.push(Roll { sides, value, kind });
        }
        Ok(value)
    }

    /// A d100 scripted as percentile dice, the way a VTT rolls it: a `tens_d10`
    /// roll object, then a d10 face (10 reads as digit 0; 0 and 0 is 100). Both
    /// faces are read (and checked) as the two d10s they are, and recorded so.
    /// `None` when the next scripted face is not a `tens_d10` object (an ordinary
    /// d100 face is read as usual).
    fn percentile_pair(&mut self) -> Result<Option<u32>> {
        let Source::Scripted { faces, next } = &self.source else { return Ok(None) };
        if !matches!(faces.get(*next), Some(ScriptedFace::Roll { kind: Some(RollKind::TensD10), .. })) {
            return Ok(None);
        }
        let tens = self.roll_kind(10, RollKind::TensD10)? % 10;
        let ones = self.roll_kind(10, RollKind::Normal)? % 10;
        let v = tens * 10 + ones;
        Ok(Some(if v == 0 { 100 } else { v }))
    }

    /// The dice rolled so far, in consumption order.
    pub fn rolls(&self) -> &[Roll] {
        &self.rolls
    }

    /// The dice rolled since the record had `start` entries (what one check or
    /// damage roll consumed): `let start = dice.rolls().len();` before rolling.
    /// A `start` past the end gives an empty list.
    pub fn rolls_since(&self, start: usize) -> Vec<Roll> {
        self.rolls.get(start..).map(<[Roll]>::to_vec).unwrap_or_default()
    }

    /// Take the record of dice rolled so far (leaves it empty).
    pub fn take_rolls(&mut self) -> Vec<Roll> {
        std::mem::take(&mut self.rolls)
    }
}

pub(crate) fn ops() -> Vec<crate::ops::OpDef> {
    vec![
        crate::op!(
            "dice.roll",
            expr::roll,
            expr::DiceRollArgs => expr::DiceRollResult,
            "Roll a dice expression (NdS, NdS+K, sums, D66, D100); at most 1000 dice and 10000 sides."
        ),
        crate::op!(
            "dice.pool",
            pool::pool,
            pool::DicePoolArgs => pool::DicePoolResult,
            "Roll a pool of identical dice; at most 1000 dice and 10000 sides."
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_in_order_then_exhausted() {
        let mut d = Dice::scripted(vec![ScriptedFace::Face(3), ScriptedFace::Face(5)]).unwrap();
        assert_eq!(d.roll(6).unwrap(), 3);
        assert_eq!(d.roll(6).unwrap(), 5);
        assert_eq!(d.roll(6).unwrap_err().code, ErrorCode::ScriptedDiceExhausted);
        assert_eq!(d.rolls().len(), 2);
    }

    #[test]
    fn scripted_face_out_of_range() {
        let mut d = Dice::scripted(vec![ScriptedFace::Face(7)]).unwrap();
        let e = d.roll(6).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidDieFace);
        assert_eq!(e.field.as_deref(), Some("rolls[0]"));
    }

    #[test]
    fn seed_and_rolls_together_rejected() {
        let e = Dice::from_args(Some(1), Some(&[ScriptedFace::Face(1)])).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn entropy_differs_between_calls() {
        let a: Vec<u32> = Dice::entropy().roll_n(20, 1000).unwrap();
        let b: Vec<u32> = Dice::entropy().roll_n(20, 1000).unwrap();
        assert_ne!(a, b);
        let c = with_host_entropy(5, || Dice::entropy().roll_n(20, 1000).unwrap());
        let d = with_host_entropy(5, || Dice::entropy().roll_n(20, 1000).unwrap());
        assert_ne!(c, d, "entropy mixes a counter, so equal host values still differ");
    }
}
