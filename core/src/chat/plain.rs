//! Plain dice for every system: `NdS±K` sums, `D66`, BCDice's arithmetic
//! (`3D6*5`, `(2D6+6)*5`, `1D6/2U`: `arith`), a comparison with a
//! target (`>=`, `>`, `<=`, `<`, `=`, `<>`; BCDice's `=>`, `=<`, `==`, `!=` too;
//! the target may be integer arithmetic, `1D100>=68+12` or `1D100>=(68+12)`). The dice are rolled by
//! [`crate::dice::expr::roll_with`]'s code (same grammar and limits as `dice.roll`:
//! at most 1000 dice and 10000 sides; a broken limit is refused in the reply language); the reply follows BCDice's plain-dice
//! format: `(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功`, and for one single die
//! `(1D6) ＞ 4`.

use super::catalog::msg;
use super::lex::{dice_fail, perr, Cur, PResult};
use super::outcome::{faces, Outcome};
use super::types::{CmdKind, CmdLang};
use crate::dice::expr::{roll_checked, DiceTerm, DiceTermKind};
use crate::dice::Dice;
use crate::error::ErrorCode;
use crate::json::ToJson;

/// Comparison of a plain roll with a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
    Ne,
}

impl Cmp {
    fn text(self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Gt => ">",
            Cmp::Le => "<=",
            Cmp::Lt => "<",
            Cmp::Eq => "=",
            Cmp::Ne => "<>",
        }
    }

    fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Ge => a >= b,
            Cmp::Gt => a > b,
            Cmp::Le => a <= b,
            Cmp::Lt => a < b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }
}

/// Structured result of a plain roll.
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
struct PlainResult<'a> {
    expr: String,
    total: i64,
    terms: &'a [DiceTerm],
    comparison: Option<&'static str>,
    target: Option<i64>,
}

/// Does the head start like a dice expression (`\d*D\d`, after any `(` and `-`:
/// `(2D6+6)*5`, `-1D6+10`)?
///
/// Also a line of only arithmetic and a comparison that rolls a die somewhere
/// (`1+2D6`, `10-1D6`, `2*1D6>=5`), as BCDice reads it.
pub(crate) fn looks_like_dice(c: &[char]) -> bool {
    let lead = c.iter().take_while(|c| matches!(c, '(' | '-')).count();
    let rest = c.get(lead..).unwrap_or(&[]);
    let k = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    if rest.get(k) == Some(&'D') && rest.get(k + 1).is_some_and(|c| c.is_ascii_digit()) {
        return true;
    }
    if rest.get(k) == Some(&'D') && matches!(rest.get(k + 1), Some('K' | 'D' | 'M')) && k > 0 {
        return true; // `5DKH3`: sides left out before keep/drop
    }
    let arithmetic = |c: &char| c.is_ascii_digit() || "D+-*/()UCRFKHLMAXIN<>=!".contains(*c);
    let rolls = c.windows(2).any(|w| w[0] == 'D' && (w[1].is_ascii_digit() || w[1] == '('));
    rolls && c.iter().all(arithmetic)
}

/// Try a plain dice command.
pub(crate) fn try_plain(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    if !looks_like_dice(c) {
        return Ok(None);
    }
    let split = c.iter().position(|&ch| matches!(ch, '<' | '>' | '=' | '!'));
    let (lhs, cmp) = match split {
        None => (c, None),
        Some(k) => {
            let mut cur = Cur::new(c);
            cur.i = k;
            // BCDice's spellings: `=>` `=<` `==` read as `>=` `<=` `=`; `<>` and `!=` are "not equal".
            let op = if cur.eat_str(">=") || cur.eat_str("=>") {
                Cmp::Ge
            } else if cur.eat_str("<=") || cur.eat_str("=<") {
                Cmp::Le
            } else if cur.eat_str("<>") || cur.eat_str("!=") {
                Cmp::Ne
            } else if cur.eat_str("==") {
                Cmp::Eq
            } else if cur.eat('>') {
                Cmp::Gt
            } else if cur.eat('<') {
                Cmp::Lt
            } else if cur.eat('=') {
                Cmp::Eq
            } else {
                return perr("unexpected", cur.i);
            };
            // BCDice evaluates the target as arithmetic: `1D100>=68+12` is `(1D100>=80)`.
            let t = cur.arith(1)?;
            cur.end()?;
            (&c[..k], Some((op, t)))
        }
    };
    let cmp_text = cmp.map(|(op, t)| format!("{}{t}", op.text())).unwrap_or_default();
    if super::arith::is_arith(lhs) {
        // BCDice's arithmetic (`3D6*5`, `(2D6+6)*5`, `1D6/2`): always the long reply.
        let r = super::arith::roll(lhs, dice)?;
        return finish(
            lang,
            format!("({}{cmp_text}) ＞ {} ＞ {}", r.shown, r.parts, r.total),
            r.total,
            &r.shown,
            &r.terms,
            cmp,
        );
    }
    let expr: String = lhs.iter().collect();
    let (total, terms) = match roll_checked(&expr, dice) {
        Ok(v) => v,
        Err(e) if e.error.code == ErrorCode::ParseError => {
            let pos = e.error.position.map_or(0, |p| (p as usize).saturating_sub(1));
            return perr("bad_dice", pos);
        }
        Err(e) => return Err(dice_fail(e, 0)),
    };
    let mut shown = String::new();
    let mut parts = String::new();
    for (i, t) in terms.iter().enumerate() {
        let sign = if t.sign < 0 {
            "-"
        } else if i > 0 {
            "+"
        } else {
            ""
        };
        shown.push_str(sign);
        shown.push_str(&t.text);
        parts.push_str(sign);
        parts.push_str(&t.value.to_string());
        if t.kind != DiceTermKind::Constant {
            parts.push_str(&faces(&t.faces));
        }
    }
    let single = terms.len() == 1
        && terms.first().is_some_and(|t| {
            t.sign > 0 && (t.kind == DiceTermKind::D66 || (t.kind == DiceTermKind::Dice && t.count == 1))
        });
    let text = if single {
        format!("({shown}{cmp_text}) ＞ {total}")
    } else {
        format!("({shown}{cmp_text}) ＞ {parts} ＞ {total}")
    };
    finish(lang, text, total, &shown, &terms, cmp)
}

/// The reply with the comparison's verdict, and the structured result.
fn finish(
    lang: CmdLang,
    mut text: String,
    total: i64,
    shown: &str,
    terms: &[DiceTerm],
    cmp: Option<(Cmp, i64)>,
) -> PResult<Option<Outcome>> {
    let success = cmp.map(|(op, t)| op.holds(total, t));
    if let Some(s) = success {
        text.push_str(" ＞ ");
        text.push_str(msg(lang, if s { "success" } else { "failure" })?);
    }
    let result = PlainResult {
        expr: shown.to_string(),
        total,
        terms,
        comparison: cmp.map(|(op, _)| op.text()),
        target: cmp.map(|(_, t)| t),
    };
    Ok(Some(Outcome::new(CmdKind::Dice, text).total(total).success(success).result(&result)))
}
