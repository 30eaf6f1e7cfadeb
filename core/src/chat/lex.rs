//! Reading a chat line: splitting off the comment, normalising full-width
//! characters, and a cursor with the small integer arithmetic BCDice accepts
//! inside parentheses (`CC(-1)`, `CBR(10,(40+50))`, `CC<=-10+60/2+15*2`).

use crate::dice::expr::{ExprError, ExprLimit};
use crate::error::Error;

/// Largest absolute value of any number in a command.
pub const MAX_NUMBER: i64 = 1_000_000_000_000;
/// Deepest parenthesis nesting accepted.
pub const MAX_DEPTH: usize = 32;

/// Why a command attempt failed.
#[derive(Debug, Clone)]
pub(crate) enum Fail {
    /// The text is clearly meant as a command but cannot be read: catalog
    /// key `perr_<key>`, 0-based position in the command head.
    Parse { key: &'static str, pos: usize },
    /// A limit, a range or a dice-source error: returned as the op's error, or,
    /// when it is about the text (`field` = `text`), a refusal reply.
    Hard(Error),
    /// The player's values cannot be run (a limit, a range): a refusal reply whose
    /// detail the message catalog has in every language.
    Refuse(Box<Refusal>),
}

/// A refusal: `error` (English) gives `refused`'s code, message and rule; the reply
/// text's detail is the catalog's `detail_<key>` with its placeholders, or, without
/// a key (a range or limit checked by an operation the command calls), the message.
#[derive(Debug, Clone)]
pub(crate) struct Refusal {
    pub error: Error,
    pub key: Option<&'static str>,
    pub vars: Vec<(&'static str, String)>,
    /// The detail is the whole reply (BCDice's own wording of the refusal), not wrapped
    /// in "cannot run the command (…)".
    pub whole: bool,
}

/// A refusal of the text (`field` = `text`) with the localized detail `key`.
pub(crate) fn refuse(error: Error, key: &'static str, vars: &[(&'static str, i64)]) -> Fail {
    let vars = vars.iter().map(|(k, v)| (*k, v.to_string())).collect();
    Fail::Refuse(Box::new(Refusal { error, key: Some(key), vars, whole: false }))
}

/// [`refuse`] whose reply is the detail alone.
pub(crate) fn refuse_whole(error: Error, key: &'static str, vars: &[(&'static str, i64)]) -> Fail {
    let vars = vars.iter().map(|(k, v)| (*k, v.to_string())).collect();
    Fail::Refuse(Box::new(Refusal { error, key: Some(key), vars, whole: true }))
}

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        Fail::Hard(e)
    }
}

pub(crate) type PResult<T> = std::result::Result<T, Fail>;

pub(crate) fn perr<T>(key: &'static str, pos: usize) -> PResult<T> {
    Err(Fail::Parse { key, pos })
}

/// Re-address an error of an inner operation to the `text` argument (a scripted-dice
/// error keeps naming `rolls`, as every other op's does).
pub(crate) fn hard(e: Error) -> Fail {
    Fail::Hard(about_text(e))
}

fn about_text(mut e: Error) -> Error {
    if e.field.as_deref().is_some_and(|f| f == "rolls" || f.starts_with("rolls[")) {
        return e;
    }
    e = e.relocated(vec![crate::error::PathItem::Key("text".into())]);
    // A position inside an inner expression is not one in `text`.
    e.position = None;
    e
}

/// A dice expression's failure as the command's: a limit of `dice.roll`'s grammar is
/// a refusal with its detail in the reply language (`before`: dice the command rolled
/// ahead of this expression, which count toward the same 1000); anything else as
/// [`hard`].
pub(crate) fn dice_fail(e: ExprError, before: u64) -> Fail {
    use crate::dice::expr::{MAX_CONSTANT, MAX_DICE, MAX_EXPR_CHARS, MAX_SIDES, MAX_TERMS};
    let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    let error = about_text(e.error);
    match e.limit {
        None => Fail::Hard(error),
        Some(ExprLimit::Sides(s)) => refuse(error, "dice_sides", &[("max", n(MAX_SIDES)), ("n", n(s))]),
        Some(ExprLimit::Dice(d)) => {
            let total = before.saturating_add(d);
            let error = if before == 0 {
                error
            } else {
                Error::limit("text", format_args!("at most {MAX_DICE} dice per expression, not {total}"))
            };
            refuse(error, "dice_count", &[("max", n(MAX_DICE)), ("n", n(total))])
        }
        Some(ExprLimit::ZeroCount) => refuse(error, "dice_count_zero", &[]),
        Some(ExprLimit::Constant) => refuse(error, "number", &[("max", n(MAX_CONSTANT))]),
        Some(ExprLimit::Terms | ExprLimit::Chars) => {
            refuse(error, "dice_expr_size", &[("terms", MAX_TERMS as i64), ("chars", MAX_EXPR_CHARS as i64)])
        }
    }
}

/// Is `c` a separator between the command and its comment?
pub(crate) fn is_space(c: char) -> bool {
    c.is_ascii_whitespace() || c == '\u{3000}'
}

/// Full-width ASCII (U+FF01..U+FF5E) to ASCII, then ASCII upper case.
pub(crate) fn normalize(c: char) -> char {
    let c = match c as u32 {
        0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    };
    c.to_ascii_uppercase()
}

/// A cursor over the normalised command head.
pub(crate) struct Cur<'a> {
    pub c: &'a [char],
    pub i: usize,
}

impl<'a> Cur<'a> {
    pub fn new(c: &'a [char]) -> Cur<'a> {
        Cur { c, i: 0 }
    }

    pub fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }

    pub fn peek_at(&self, k: usize) -> Option<char> {
        self.c.get(self.i + k).copied()
    }

    pub fn at_end(&self) -> bool {
        self.i >= self.c.len()
    }

    pub fn eat(&mut self, ch: char) -> bool {
        if self.peek() == Some(ch) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub fn eat_str(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.c.len() >= self.i + n && s.chars().zip(&self.c[self.i..]).all(|(a, &b)| a == b) {
            self.i += n;
            true
        } else {
            false
        }
    }

    /// True if the next character is an ASCII letter (the word goes on: not a command).
    pub fn letter_next(&self) -> bool {
        self.peek().is_some_and(|c| c.is_ascii_alphabetic())
    }

    /// The rest must be empty.
    pub fn end(&self) -> PResult<()> {
        if self.at_end() {
            Ok(())
        } else {
            perr("unexpected", self.i)
        }
    }

    /// Unsigned decimal digits, if any.
    pub fn number(&mut self) -> PResult<Option<i64>> {
        let start = self.i;
        let mut v: i64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(i64::from(d)))
                .filter(|v| *v <= MAX_NUMBER)
                .ok_or_else(|| {
                    refuse(
                        Error::limit(
                            "text",
                            format_args!("numbers are at most {MAX_NUMBER} (character {})", start + 1),
                        ),
                        "number",
                        &[("max", MAX_NUMBER)],
                    )
                })?;
            self.i += 1;
        }
        Ok((self.i > start).then_some(v))
    }

    /// Digits required.
    pub fn need_number(&mut self) -> PResult<i64> {
        match self.number()? {
            Some(v) => Ok(v),
            None => perr("expected_number", self.i),
        }
    }

    /// An optionally signed integer.
    pub fn signed(&mut self) -> PResult<Option<i64>> {
        let save = self.i;
        let neg = if self.eat('-') {
            true
        } else {
            self.eat('+');
            false
        };
        match self.number()? {
            Some(v) => Ok(Some(if neg { -v } else { v })),
            None => {
                if self.i != save {
                    return perr("expected_number", self.i);
                }
                Ok(None)
            }
        }
    }

    /// `number | '(' arith ')'` (what BCDice's preprocessor leaves as a number).
    pub fn value(&mut self) -> PResult<Option<i64>> {
        if self.peek() == Some('(') {
            return self.paren().map(Some);
        }
        self.number()
    }

    /// `'(' arith ')'`.
    pub fn paren(&mut self) -> PResult<i64> {
        if !self.eat('(') {
            return perr("expected_open_paren", self.i);
        }
        let v = self.arith(1)?;
        if !self.eat(')') {
            return perr("expected_close_paren", self.i);
        }
        Ok(v)
    }

    /// Integer arithmetic: `+ - * /` (division rounds down), unary signs, parentheses.
    pub fn arith(&mut self, depth: usize) -> PResult<i64> {
        let mut v = self.term(depth)?;
        loop {
            let op = match self.peek() {
                Some(c @ ('+' | '-')) => c,
                _ => return Ok(v),
            };
            self.i += 1;
            let r = self.term(depth)?;
            v = checked(if op == '+' { v.checked_add(r) } else { v.checked_sub(r) }, self.i)?;
        }
    }

    fn term(&mut self, depth: usize) -> PResult<i64> {
        let mut v = self.factor(depth)?;
        loop {
            let op = match self.peek() {
                Some(c @ ('*' | '/')) => c,
                _ => return Ok(v),
            };
            let at = self.i;
            self.i += 1;
            let r = self.factor(depth)?;
            v = if op == '*' {
                checked(v.checked_mul(r), self.i)?
            } else {
                if r == 0 {
                    return perr("division_by_zero", at);
                }
                v.div_euclid(r) - if r < 0 && v.rem_euclid(r) != 0 { 1 } else { 0 }
            };
        }
    }

    fn factor(&mut self, depth: usize) -> PResult<i64> {
        if depth > MAX_DEPTH {
            return Err(refuse(
                Error::limit("text", format_args!("at most {MAX_DEPTH} nested parentheses")),
                "nesting",
                &[("max", MAX_DEPTH as i64)],
            ));
        }
        if self.eat('-') {
            return Ok(-self.factor(depth + 1)?);
        }
        if self.eat('+') {
            return self.factor(depth + 1);
        }
        if self.peek() == Some('(') {
            self.i += 1;
            let v = self.arith(depth + 1)?;
            if !self.eat(')') {
                return perr("expected_close_paren", self.i);
            }
            return Ok(v);
        }
        self.need_number()
    }
}

fn checked(v: Option<i64>, pos: usize) -> PResult<i64> {
    v.filter(|v| v.unsigned_abs() <= MAX_NUMBER as u64).ok_or_else(|| {
        refuse(
            Error::limit("text", format_args!("numbers are at most {MAX_NUMBER} (character {})", pos + 1)),
            "number",
            &[("max", MAX_NUMBER)],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(s: &str) -> PResult<i64> {
        let c: Vec<char> = s.chars().collect();
        let mut cur = Cur::new(&c);
        let v = cur.arith(0)?;
        cur.end()?;
        Ok(v)
    }

    #[test]
    fn arithmetic() {
        assert_eq!(ev("-10+60/2+15*2").ok(), Some(50));
        assert_eq!(ev("(40+50)").ok(), Some(90));
        assert_eq!(ev("7/2").ok(), Some(3));
        assert_eq!(ev("-7/2").ok(), Some(-4));
        assert_eq!(ev("7/-2").ok(), Some(-4));
        assert!(matches!(ev("1/0"), Err(Fail::Parse { key: "division_by_zero", .. })));
        assert!(matches!(ev("(1"), Err(Fail::Parse { key: "expected_close_paren", pos: 2 })));
        assert!(matches!(ev("999999999999*999999999999"), Err(Fail::Refuse(_))));
        let deep = "(".repeat(100) + "1" + &")".repeat(100);
        assert!(matches!(ev(&deep), Err(Fail::Refuse(_))));
    }

    #[test]
    fn full_width() {
        let s: String = "ＣＣ＜＝５０".chars().map(normalize).collect();
        assert_eq!(s, "CC<=50");
    }
}
