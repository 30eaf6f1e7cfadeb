//! BCDice's arithmetic plain dice: `3D6*5`, `(2D6+6)*5`, `1D6/2`, `1D6+3/2U`,
//! `(2D6+(1D4+3)*3)*2`. Used by [`super::plain`] when the dice side of a plain roll
//! has `*`, `/` or parentheses; sums of dice and constants keep the shorter path.
//!
//! Grammar (after the head is normalised to upper-case ASCII):
//! ```text
//! expr    := term (('+' | '-') term)*
//! term    := unary (('*' | '/' round?) unary)*
//! round   := 'U' | 'C' | 'R' | 'F'   ; after a divisor: up, up, half away from zero, down
//! unary   := '-' unary | primary
//! primary := '(' expr ')' | count? 'D' sides? keep? | number
//! count   := digits | '(' expr ')'          ; `(2+3)D6` is shown as `5D6`
//! sides   := digits | '(' expr ')'          ; left out only before `keep`: six
//! keep    := ('KH' | 'KL' | 'DH' | 'DL') (digits | '(' expr ')')? | 'K' (digits | '(' expr ')') | 'MAX' | 'MIN'
//!            ; keep or drop the n (default 1) highest/lowest faces, shown sorted
//! ```
//! Division without a suffix rounds down (toward −∞), as BCDice's does. The reply
//! shows each dice term as `sum[faces]` and keeps the operators and parentheses:
//! `((2D6+6)*5) ＞ (7[3,4]+6)*5 ＞ 65`; the `C` suffix is shown as `U`.
//! Limits: those of `dice.roll` for the dice (at most 1000 dice in all, 10000
//! sides), numbers up to 10^12, 32 nested parentheses; a result beyond 10^12 is
//! `limit_exceeded`.

use super::lex::{dice_fail, perr, refuse, Cur, PResult, MAX_DEPTH, MAX_NUMBER};
use super::outcome::faces;
use crate::dice::expr::{roll_checked, DiceTerm, MAX_DICE};
use crate::dice::Dice;
use crate::error::Error;

/// What an arithmetic roll gives: the total, the expression as read, the dice
/// shown (`(7[3,4]+6)*5`), and the dice terms in order.
pub(crate) struct ArithRoll {
    pub total: i64,
    pub shown: String,
    pub parts: String,
    pub terms: Vec<DiceTerm>,
}

/// Does the dice side need the arithmetic reading (`*`, `/` or parentheses)?
pub(crate) fn is_arith(lhs: &[char]) -> bool {
    lhs.iter().any(|c| matches!(c, '*' | '/' | '(' | ')' | 'K' | 'M'))
        || lhs.windows(2).any(|w| w[0] == 'D' && matches!(w[1], 'D' | 'H' | 'L'))
}

/// Roll `lhs` (the whole dice side of the command). The text is read once without
/// dice first, so a malformed line is a parse error before any die is rolled (and
/// consumes no scripted face).
pub(crate) fn roll(lhs: &[char], dice: &mut Dice) -> PResult<ArithRoll> {
    let mut read = Arith::new(lhs, None);
    read.expr(1)?;
    read.cur.end()?;
    let mut a = Arith::new(lhs, Some(dice));
    let total = a.expr(1)?;
    a.cur.end()?;
    Ok(ArithRoll { total, shown: a.shown, parts: a.parts, terms: a.terms })
}

struct Arith<'a, 'd> {
    cur: Cur<'a>,
    /// `None` for the reading pass: the syntax only, every value 0.
    dice: Option<&'d mut Dice>,
    shown: String,
    parts: String,
    terms: Vec<DiceTerm>,
    /// Dice rolled so far (the 1000-dice limit is for the whole expression).
    count: u64,
}

impl<'a, 'd> Arith<'a, 'd> {
    fn new(lhs: &'a [char], dice: Option<&'d mut Dice>) -> Self {
        Arith {
            cur: Cur::new(lhs),
            dice,
            shown: String::new(),
            parts: String::new(),
            terms: Vec::new(),
            count: 0,
        }
    }

    /// `v` checked against the number limit; in the reading pass every value is 0.
    fn value(&self, v: Option<i64>) -> PResult<i64> {
        if self.dice.is_none() {
            return Ok(0);
        }
        checked(v)
    }

    /// Text that reads the same in the command and in the dice shown.
    fn both(&mut self, s: &str) {
        self.shown.push_str(s);
        self.parts.push_str(s);
    }

    fn expr(&mut self, depth: usize) -> PResult<i64> {
        let mut v = self.term(depth)?;
        while let Some(op @ ('+' | '-')) = self.cur.peek() {
            self.cur.i += 1;
            self.both(if op == '+' { "+" } else { "-" });
            let r = self.term(depth)?;
            v = self.value(if op == '+' { v.checked_add(r) } else { v.checked_sub(r) })?;
        }
        Ok(v)
    }

    fn term(&mut self, depth: usize) -> PResult<i64> {
        let mut v = self.unary(depth)?;
        while let Some(op @ ('*' | '/')) = self.cur.peek() {
            let at = self.cur.i;
            self.cur.i += 1;
            self.both(if op == '*' { "*" } else { "/" });
            let r = self.unary(depth)?;
            if op == '*' {
                v = self.value(v.checked_mul(r))?;
                continue;
            }
            let round = match self.cur.peek() {
                Some(c @ ('U' | 'C' | 'R' | 'F')) => {
                    self.cur.i += 1;
                    let shown = if c == 'C' { 'U' } else { c };
                    self.both(shown.encode_utf8(&mut [0; 4]));
                    shown
                }
                _ => 'F',
            };
            if self.dice.is_none() {
                continue;
            }
            if r == 0 {
                return perr("division_by_zero", at);
            }
            v = divide(v, r, round);
        }
        Ok(v)
    }

    fn unary(&mut self, depth: usize) -> PResult<i64> {
        if depth > MAX_DEPTH {
            return Err(refuse(
                Error::limit("text", format_args!("at most {MAX_DEPTH} nested parentheses")),
                "nesting",
                &[("max", MAX_DEPTH as i64)],
            ));
        }
        if self.cur.eat('-') {
            self.both("-");
            let v = self.unary(depth + 1)?;
            return self.value(v.checked_neg());
        }
        self.primary(depth)
    }

    fn primary(&mut self, depth: usize) -> PResult<i64> {
        let (shown_at, parts_at) = (self.shown.len(), self.parts.len());
        let start = self.cur.i;
        let count = if self.cur.eat('(') {
            self.both("(");
            let v = self.expr(depth + 1)?;
            if !self.cur.eat(')') {
                return perr("expected_close_paren", self.cur.i);
            }
            self.both(")");
            if self.cur.peek() != Some('D') {
                return Ok(v);
            }
            // `(2+3)D6`: a computed count, shown as its value (BCDice).
            self.shown.truncate(shown_at);
            self.parts.truncate(parts_at);
            Some(v)
        } else {
            self.cur.number()?
        };
        let computed_count = self.cur.c.get(start) == Some(&'(');
        if self.cur.peek() != Some('D') {
            return match count {
                Some(n) => {
                    self.both(&n.to_string());
                    Ok(if self.dice.is_some() { n } else { 0 })
                }
                None => perr("expected_number", self.cur.i),
            };
        }
        self.cur.i += 1;
        // Sides: digits, `(…)`, or left out before a keep/drop suffix (`5DKH3`: six).
        let sides_at = self.cur.i;
        let (sides, computed_sides) = match self.cur.peek() {
            Some('(') => (self.operand(depth)?, true),
            Some(c) if c.is_ascii_digit() => (self.cur.number()?.unwrap_or(0), false),
            Some('K' | 'D' | 'M') => (6, true),
            _ => return perr("bad_dice", self.cur.i),
        };
        let dice_end = self.cur.i;
        let keep = self.keep(depth)?;
        let Some(dice) = self.dice.as_deref_mut() else { return Ok(0) };
        // The term as typed (`D66` without a count is BCDice's D66), rolled by `dice.roll`'s
        // own code, so its limits and its order of consuming scripted dice are the same.
        let text: String = if computed_count || computed_sides || keep.is_some() {
            let n = count.unwrap_or(1);
            if n < 1 {
                return perr("bad_dice", start);
            }
            if sides < 1 {
                return perr("bad_dice", sides_at);
            }
            format!("{n}D{sides}")
        } else {
            self.cur.c.get(start..dice_end).unwrap_or(&[]).iter().collect()
        };
        let (value, mut terms) = roll_checked(&text, dice).map_err(|e| dice_fail(e, self.count))?;
        let Some(mut term) = terms.pop() else { return perr("bad_dice", start) };
        self.count +=
            if term.kind == crate::dice::expr::DiceTermKind::D66 { 2 } else { u64::from(term.count) };
        if self.count > MAX_DICE {
            return Err(refuse(
                Error::limit(
                    "text",
                    format_args!("at most {MAX_DICE} dice per expression, not {}", self.count),
                ),
                "dice_count",
                &[("max", MAX_DICE as i64), ("n", i64::try_from(self.count).unwrap_or(i64::MAX))],
            ));
        }
        let mut value = value;
        if let Some((how, k)) = keep {
            // Keep or drop the k highest/lowest faces (BCDice KH/KL/DH/DL; MAX is KH1, MIN KL1).
            let mut sorted = term.faces.clone();
            sorted.sort_unstable();
            let n = sorted.len();
            let m = usize::try_from(k.max(0)).unwrap_or(usize::MAX).min(n);
            let kept: &[u32] = match how {
                "KH" => &sorted[n - m..],
                "KL" => &sorted[..m],
                "DH" => &sorted[..n - m],
                _ => &sorted[m..],
            };
            value = kept.iter().map(|&f| i64::from(f)).sum();
            term.text = format!("{text}{how}{k}");
            term.faces = sorted;
            term.value = value;
        }
        self.shown.push_str(&term.text);
        self.parts.push_str(&value.to_string());
        self.parts.push_str(&faces(&term.faces));
        self.terms.push(term);
        Ok(value)
    }

    /// A count or sides in parentheses: `(5+5)`.
    fn operand(&mut self, depth: usize) -> PResult<i64> {
        let (shown_at, parts_at) = (self.shown.len(), self.parts.len());
        self.cur.i += 1;
        let v = self.expr(depth + 1)?;
        if !self.cur.eat(')') {
            return perr("expected_close_paren", self.cur.i);
        }
        self.shown.truncate(shown_at);
        self.parts.truncate(parts_at);
        Ok(v)
    }

    /// `KH n?`, `KL n?`, `DH n?`, `DL n?` (n left out: 1; n may be `(…)`), `MAX`, `MIN`.
    fn keep(&mut self, depth: usize) -> PResult<Option<(&'static str, i64)>> {
        if self.cur.eat_str("MAX") {
            return Ok(Some(("KH", 1)));
        }
        if self.cur.eat_str("MIN") {
            return Ok(Some(("KL", 1)));
        }
        let mut how = ["KH", "KL", "DH", "DL"].into_iter().find(|h| self.cur.eat_str(h));
        // `K` with a count is `KH` (Dice! and SealDice: `4D6K3`).
        if how.is_none()
            && self.cur.peek() == Some('K')
            && self.cur.peek_at(1).is_some_and(|c| c.is_ascii_digit() || c == '(')
        {
            self.cur.i += 1;
            how = Some("KH");
        }
        let Some(how) = how else { return Ok(None) };
        let k = match self.cur.peek() {
            Some('(') => self.operand(depth)?,
            Some(c) if c.is_ascii_digit() => self.cur.number()?.unwrap_or(1),
            _ => 1,
        };
        Ok(Some((how, k)))
    }
}

/// `a / b` rounded: `F` down (toward −∞), `U` up (toward +∞), `R` to the nearest with
/// halves away from zero. `b` is not 0.
///
/// Operands are within ±10^12 (every number and result is checked against
/// `MAX_NUMBER`), so the arithmetic below cannot overflow `i64`.
fn divide(a: i64, b: i64, round: char) -> i64 {
    let q = a.div_euclid(b);
    let r = a.rem_euclid(b);
    // With a positive divisor div_euclid is the floor; for a negative one, adjust.
    let floor = if b < 0 && r != 0 { q - 1 } else { q };
    let exact = r == 0;
    match round {
        'U' if !exact => floor + 1,
        'R' => {
            // Nearest integer to a/b, halves away from zero.
            let neg = (a < 0) != (b < 0);
            let (n, d) = (a.abs(), b.abs());
            let m = (2 * n + d) / (2 * d);
            if neg {
                -m
            } else {
                m
            }
        }
        _ => floor,
    }
}

fn checked(v: Option<i64>) -> PResult<i64> {
    v.filter(|v| v.unsigned_abs() <= MAX_NUMBER as u64).ok_or_else(|| {
        refuse(
            Error::limit("text", format_args!("results are at most {MAX_NUMBER} in absolute value")),
            "number",
            &[("max", MAX_NUMBER)],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::divide;

    #[test]
    fn division_rounds_as_bcdice() {
        // BCDice AddDice: 3/2 → F 1, U 2, R 2; 4/3 → F 1, U 2, R 1.
        assert_eq!([divide(3, 2, 'F'), divide(3, 2, 'U'), divide(3, 2, 'R')], [1, 2, 2]);
        assert_eq!([divide(4, 3, 'F'), divide(4, 3, 'U'), divide(4, 3, 'R')], [1, 2, 1]);
        // Negative values: down is toward −∞, R rounds halves away from zero.
        assert_eq!([divide(-3, 2, 'F'), divide(-3, 2, 'U'), divide(-3, 2, 'R')], [-2, -1, -2]);
        assert_eq!([divide(3, -2, 'F'), divide(3, -2, 'U'), divide(3, -2, 'R')], [-2, -1, -2]);
        assert_eq!([divide(-3, -2, 'F'), divide(6, 3, 'U'), divide(-6, 3, 'R')], [1, 2, -2]);
        assert_eq!(
            [divide(1_000_000_000_000, -1, 'R'), divide(-999_999_999_999, 2, 'R')],
            [-1_000_000_000_000, -500_000_000_000]
        );
    }
}
