//! `dice.roll`: generic dice expressions.
//!
//! Grammar (case-insensitive, spaces ignored):
//! ```text
//! expr  := sign? term (sign term)*
//! sign  := '+' | '-'
//! term  := count? 'D' sides      ; NdS, e.g. 2d6, d20 (count 1)
//!        | 'D66'                 ; two d6, tens die first: 11..66 (only without a count)
//!        | 'D100'                ; one d100, 1..100 (same as 1d100)
//!        | integer               ; a constant
//! ```
//! Limits: at most 1000 dice per expression, 1..=10000 sides, counts ≥ 1,
//! constants ≤ 10^9, at most 100 terms and 1000 characters.
//!
//! Scripted `rolls` are consumed term by term, left to right; D66 takes the
//! tens die first, then the ones die.
//!
//! ```
//! let r = gunbai::dice::expr::roll(&gunbai::dice::expr::DiceRollArgs {
//!     expr: "2d6+1".into(),
//!     source: gunbai::dice::DiceArgs::rolls([3, 5]),
//! }).unwrap();
//! assert_eq!(r.total, 9);
//! ```

use super::{Dice, Roll, ScriptedFace};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};

/// Most dice in one expression.
pub const MAX_DICE: u64 = 1000;
/// Most sides of one die.
pub const MAX_SIDES: u64 = 10_000;
/// Largest constant term.
pub const MAX_CONSTANT: u64 = 1_000_000_000;
/// Most terms in one expression.
pub const MAX_TERMS: usize = 100;
/// Longest expression accepted, in characters.
pub const MAX_EXPR_CHARS: usize = 1000;

impl From<i64> for ScriptedFace {
    fn from(v: i64) -> Self {
        ScriptedFace::Face(v)
    }
}

/// Arguments of `dice.roll`.
///
/// `rolls`: Scripted faces, consumed term by term, left to right.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiceRollArgs {
    /// A dice expression such as `2d6+1`, `3D6-1D4+2`, `D66` or `D100`: at most 1000
    /// dice, 10000 sides, 100 terms, 1000 characters, constants up to 10^9.
    pub expr: String,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// The kind of one term of an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DiceTermKind {
    /// `NdS`: the sum of N dice with S sides.
    Dice,
    /// `D66`: tens die × 10 + ones die.
    D66,
    /// A constant.
    Constant,
}

/// One evaluated term.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DiceTerm {
    /// What the term is.
    pub kind: DiceTermKind,
    /// +1 or -1: whether the term is added or subtracted.
    pub sign: i8,
    /// The term as written, normalized (`2D6`, `D66`, `3`).
    pub text: String,
    /// Number of dice (0 for a constant).
    pub count: u32,
    /// Sides per die (0 for a constant; 6 for D66).
    pub sides: u32,
    /// Faces of this term's dice, in order.
    pub faces: Vec<u32>,
    /// The term's unsigned value.
    pub value: i64,
}

/// Result of `dice.roll`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DiceRollResult {
    /// The expression, normalized (upper-case D, no spaces).
    pub expr: String,
    /// The total.
    pub total: i64,
    /// Each term with its faces.
    pub terms: Vec<DiceTerm>,
    /// Every die rolled, in consumption order.
    pub rolls: Vec<Roll>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Atom {
    Dice { count: u32, sides: u32 },
    D66,
    Constant(u64),
}

/// Which of the grammar's limits an expression broke. The error says it in English;
/// a caller that words refusals itself (chat replies are in the player's language)
/// reads this instead of the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExprLimit {
    /// A die with 0 or more than [`MAX_SIDES`] sides (the sides given).
    Sides(u64),
    /// More than [`MAX_DICE`] dice (the dice counted when the limit was passed).
    Dice(u64),
    /// A dice count of 0.
    ZeroCount,
    /// A number above [`MAX_CONSTANT`].
    Constant,
    /// More than [`MAX_TERMS`] terms.
    Terms,
    /// More than [`MAX_EXPR_CHARS`] characters.
    Chars,
}

/// A refused expression: the error, and the limit it broke when that is the reason.
/// (Larger than clippy's `result_large_err` likes; it is built only when an
/// expression is refused, so it is not boxed.)
#[derive(Debug, Clone)]
pub(crate) struct ExprError {
    pub error: Error,
    pub limit: Option<ExprLimit>,
}

impl From<Error> for ExprError {
    fn from(error: Error) -> Self {
        ExprError { error, limit: None }
    }
}

fn parse_err(pos: usize, msg: impl std::fmt::Display) -> ExprError {
    Error::parse_at("expr", pos, msg).into()
}

fn over(limit: ExprLimit, error: Error) -> ExprError {
    ExprError { error, limit: Some(limit) }
}

/// Parse an expression into signed atoms.
#[allow(clippy::result_large_err)]
fn parse(text: &str) -> Result<Vec<(i8, Atom)>, ExprError> {
    if text.chars().count() > MAX_EXPR_CHARS {
        return Err(over(
            ExprLimit::Chars,
            Error::limit("expr", format_args!("at most {MAX_EXPR_CHARS} characters")),
        ));
    }
    let chars: Vec<(usize, char)> = text
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (i, c.to_ascii_uppercase()))
        .collect();
    if chars.is_empty() {
        return Err(Error::field(ErrorCode::ParseError, "expr", "empty expression").into());
    }
    let mut out = Vec::new();
    let mut i = 0;
    let mut total_dice: u64 = 0;
    loop {
        let mut sign = 1i8;
        if let Some(&(_, c)) = chars.get(i) {
            if c == '+' || c == '-' {
                if c == '-' {
                    sign = -1;
                }
                i += 1;
            } else if !out.is_empty() {
                return Err(parse_err(chars[i].0, format_args!("expected + or -, found '{c}'")));
            }
        }
        let start_pos = chars.get(i).map(|p| p.0).unwrap_or(text.chars().count());
        let (count, ni) = number(&chars, i)?;
        i = ni;
        let atom = if matches!(chars.get(i), Some(&(_, 'D'))) {
            i += 1;
            let sides_pos = chars.get(i).map(|p| p.0).unwrap_or(text.chars().count());
            let (sides, ni) = number(&chars, i)?;
            i = ni;
            let Some(sides) = sides else {
                return Err(parse_err(sides_pos, "expected the number of sides after D"));
            };
            if count.is_none() && sides == 66 {
                Atom::D66
            } else {
                let count = count.unwrap_or(1);
                if count == 0 {
                    return Err(over(
                        ExprLimit::ZeroCount,
                        Error::out_of_range("expr", "a dice count must be at least 1"),
                    ));
                }
                if sides == 0 || sides > MAX_SIDES {
                    return Err(over(
                        ExprLimit::Sides(sides),
                        Error::limit("expr", format_args!("a die has 1..={MAX_SIDES} sides, not {sides}")),
                    ));
                }
                if count > MAX_DICE {
                    return Err(too_many_dice(count));
                }
                Atom::Dice { count: count as u32, sides: sides as u32 }
            }
        } else {
            match count {
                Some(c) if c <= MAX_CONSTANT => Atom::Constant(c),
                Some(_) => return Err(too_large()),
                None => {
                    return Err(match chars.get(i) {
                        Some(&(p, c)) => parse_err(p, format_args!("unexpected '{c}'")),
                        None => parse_err(start_pos, "expected a term"),
                    })
                }
            }
        };
        total_dice += match atom {
            Atom::Dice { count, .. } => u64::from(count),
            Atom::D66 => 2,
            Atom::Constant(_) => 0,
        };
        if total_dice > MAX_DICE {
            return Err(too_many_dice(total_dice));
        }
        out.push((sign, atom));
        if out.len() > MAX_TERMS {
            return Err(over(
                ExprLimit::Terms,
                Error::limit("expr", format_args!("at most {MAX_TERMS} terms")),
            ));
        }
        if i >= chars.len() {
            break;
        }
    }
    Ok(out)
}

fn too_many_dice(n: u64) -> ExprError {
    over(
        ExprLimit::Dice(n),
        Error::limit("expr", format_args!("at most {MAX_DICE} dice per expression, not {n}")),
    )
}

fn too_large() -> ExprError {
    over(ExprLimit::Constant, Error::limit("expr", format_args!("constants are at most {MAX_CONSTANT}")))
}

/// Read a decimal number starting at `i`; `None` if there is no digit there. A
/// number's digits are adjacent in the text: whitespace may stand between tokens
/// (` 2 D 10 `), never inside a number (`2d6 1` is a parse error, not `2D61`).
#[allow(clippy::result_large_err)]
fn number(chars: &[(usize, char)], mut i: usize) -> Result<(Option<u64>, usize), ExprError> {
    let mut value: Option<u64> = None;
    let mut last: Option<usize> = None;
    while let Some(&(pos, c)) = chars.get(i) {
        let Some(d) = c.to_digit(10) else { break };
        if last.is_some_and(|l| pos != l + 1) {
            break;
        }
        last = Some(pos);
        let v = value
            .unwrap_or(0)
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(d)))
            .filter(|v| *v <= 1_000_000_000_000)
            .ok_or_else(|| {
                let e = Error::limit("expr", format_args!("number too large at character {}", pos + 1));
                over(ExprLimit::Constant, e)
            })?;
        value = Some(v);
        i += 1;
    }
    Ok((value, i))
}

/// Evaluate a parsed expression with `dice`.
fn evaluate(atoms: &[(i8, Atom)], dice: &mut Dice) -> Result<(i64, Vec<DiceTerm>)> {
    let mut total: i64 = 0;
    let mut terms = Vec::with_capacity(atoms.len());
    for (sign, atom) in atoms {
        let term = match atom {
            Atom::Dice { count, sides } => {
                let faces = dice.roll_n(*count as usize, *sides)?;
                let value = faces.iter().map(|&f| i64::from(f)).sum();
                DiceTerm {
                    kind: DiceTermKind::Dice,
                    sign: *sign,
                    text: format!("{count}D{sides}"),
                    count: *count,
                    sides: *sides,
                    faces,
                    value,
                }
            }
            Atom::D66 => {
                let tens = dice.roll(6)?;
                let ones = dice.roll(6)?;
                DiceTerm {
                    kind: DiceTermKind::D66,
                    sign: *sign,
                    text: "D66".into(),
                    count: 2,
                    sides: 6,
                    faces: vec![tens, ones],
                    value: i64::from(tens * 10 + ones),
                }
            }
            Atom::Constant(c) => DiceTerm {
                kind: DiceTermKind::Constant,
                sign: *sign,
                text: c.to_string(),
                count: 0,
                sides: 0,
                faces: Vec::new(),
                value: *c as i64,
            },
        };
        total += i64::from(term.sign) * term.value;
        terms.push(term);
    }
    Ok((total, terms))
}

fn normalized(terms: &[DiceTerm]) -> String {
    let mut s = String::new();
    for (i, t) in terms.iter().enumerate() {
        if t.sign < 0 {
            s.push('-');
        } else if i > 0 {
            s.push('+');
        }
        s.push_str(&t.text);
    }
    s
}

/// `dice.roll` — roll a dice expression.
pub fn roll(args: &DiceRollArgs) -> Result<DiceRollResult> {
    let atoms = parse(&args.expr).map_err(|e| e.error)?;
    let mut dice = args.source.dice()?;
    let (total, terms) = evaluate(&atoms, &mut dice)?;
    Ok(DiceRollResult { expr: normalized(&terms), total, terms, rolls: dice.take_rolls() })
}

/// Parse and roll an expression with an existing die source (for other modules,
/// e.g. chat commands and weapon damage).
pub fn roll_with(expr: &str, dice: &mut Dice) -> Result<(i64, Vec<DiceTerm>)> {
    roll_checked(expr, dice).map_err(|e| e.error)
}

/// [`roll_with`], saying which limit a refused expression broke.
#[allow(clippy::result_large_err)]
pub(crate) fn roll_checked(expr: &str, dice: &mut Dice) -> Result<(i64, Vec<DiceTerm>), ExprError> {
    let atoms = parse(expr)?;
    Ok(evaluate(&atoms, dice)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms(s: &str) -> Vec<(i8, Atom)> {
        parse(s).unwrap()
    }

    #[test]
    fn parses_terms() {
        assert_eq!(atoms("2d6+1"), vec![(1, Atom::Dice { count: 2, sides: 6 }), (1, Atom::Constant(1))]);
        assert_eq!(atoms("-d20"), vec![(-1, Atom::Dice { count: 1, sides: 20 })]);
        assert_eq!(atoms("D66"), vec![(1, Atom::D66)]);
        assert_eq!(atoms("1d66"), vec![(1, Atom::Dice { count: 1, sides: 66 })]);
        assert_eq!(
            atoms(" 3 D 6 - 2 "),
            vec![(1, Atom::Dice { count: 3, sides: 6 }), (-1, Atom::Constant(2))]
        );
    }

    #[test]
    fn rejects_bad_input() {
        for (s, code) in [
            ("", ErrorCode::ParseError),
            ("2d", ErrorCode::ParseError),
            ("2d6+", ErrorCode::ParseError),
            ("2x6", ErrorCode::ParseError),
            ("1001d6", ErrorCode::LimitExceeded),
            ("1d10001", ErrorCode::LimitExceeded),
            ("0d6", ErrorCode::OutOfRange),
            ("999999999999999999999d6", ErrorCode::LimitExceeded),
            ("600d6+401d6", ErrorCode::LimitExceeded),
        ] {
            assert_eq!(parse(s).unwrap_err().error.code, code, "{s}");
        }
    }
}
