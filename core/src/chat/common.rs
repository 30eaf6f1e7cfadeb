//! BCDice's common commands that are not sums: `C(…)` calculation, `NBS` pooled
//! dice with a success count, `NTYS` / `NTZS` tallies, and `choice[…]`. Replies in
//! BCDice's format (the Japanese words are BCDice's; the other languages gunbai's).
//!
//! * `C(1+2)`, `C1+4*3/2`, `c1/2R` → `c(1+2) ＞ 3`: integer arithmetic, division
//!   rounds down unless suffixed `U`/`C` (up), `R` (half away from zero), `F` (down).
//! * `2B6`, `2B6+4B10>=3`, `(1*2)B(2+4)` → `(2B6>=3) ＞ 3,4 ＞ 成功数2`: the faces in
//!   rolling order, and with a comparison the number of dice meeting it.
//! * `20TY6` / `20TZ6` → `(20TY6) ＞ 6,2,… ＞ [1]×2, [2]×2, …`: how often each face
//!   came up (TY lists faces that came up, TZ every face). 1…20 sides.
//! * `choice[a,b,c]`, `choice(a,b,c)`, `choice a b c`, `choiceN[…]` (N different
//!   items), `choice[A-F]` / `choice[3-10]` ranges of one letter or of numbers;
//!   at most 100 items. Read from the raw line (items may hold spaces).
//!
//! Counts, sides and operands may be parenthesized arithmetic (`(1+2*3)TY(1+5/2C)`).
//! Limits: `dice.roll`'s (at most 1000 dice, 10000 sides).

use super::catalog::{fmt, msg};
use super::lex::{perr, refuse, Cur, Fail, PResult};
use super::outcome::Outcome;
use super::types::{CmdKind, CmdLang};
use crate::dice::expr::{MAX_DICE, MAX_SIDES};
use crate::dice::Dice;
use crate::error::Error;

/// Most items of `choice`.
pub const MAX_CHOICE_ITEMS: usize = 100;
/// Most sides of a tally die (`TY`, `TZ`).
pub const MAX_TALLY_SIDES: i64 = 20;

/// Integer arithmetic with BCDice's rounding suffixes (no dice): `None` when a
/// division by zero happens.
fn constant(c: &[char], base: usize, dice: &mut Dice) -> PResult<Option<i64>> {
    if let Some(k) = c.iter().position(|ch| !ch.is_ascii_digit() && !"+-*/()UCRF".contains(*ch)) {
        return perr("unexpected", base + k);
    }
    match super::arith::roll(c, dice) {
        Ok(r) => Ok(Some(r.total)),
        Err(Fail::Parse { key: "division_by_zero", .. }) => Ok(None),
        Err(Fail::Parse { key, pos }) => Err(Fail::Parse { key, pos: base + pos }),
        Err(e) => Err(e),
    }
}

/// `C(expr)` / `Cexpr`.
pub(crate) fn try_calc(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    if c.first() != Some(&'C') || c.len() < 2 {
        return Ok(None);
    }
    let rest = &c[1..];
    if !rest.iter().all(|ch| ch.is_ascii_digit() || "+-*/()UCRF".contains(*ch))
        || !rest.first().is_some_and(|ch| ch.is_ascii_digit() || matches!(ch, '(' | '-' | '+'))
    {
        return Ok(None);
    }
    // `C(…)` whose parentheses enclose the whole expression shows its inside.
    let inner = match rest {
        ['(', body @ .., ')'] if balanced(body) => body,
        _ => rest,
    };
    let base = 1 + usize::from(inner.len() != rest.len());
    let shown: String = inner.iter().collect();
    let text = match constant(inner, base, dice)? {
        Some(v) => format!("c({shown}) ＞ {v}"),
        None => format!("c({shown}) ＞ {}", msg(lang, "calc_division_by_zero")?),
    };
    Ok(Some(Outcome::new(CmdKind::Calc, text)))
}

fn balanced(c: &[char]) -> bool {
    let mut depth = 0i64;
    for ch in c {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// An operand of `B`, `TY`, `TZ`: digits or a parenthesized expression; returns the
/// value and the index after it.
fn operand(c: &[char], i: usize, dice: &mut Dice) -> PResult<Option<(i64, usize)>> {
    match c.get(i) {
        Some('(') => {
            let mut depth = 0;
            let mut end = None;
            for (k, ch) in c.iter().enumerate().skip(i) {
                match ch {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(k);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(end) = end else { return perr("expected_close_paren", c.len()) };
            match constant(&c[i..=end], i, dice)? {
                Some(v) => Ok(Some((v, end + 1))),
                None => perr("division_by_zero", i),
            }
        }
        Some(d) if d.is_ascii_digit() => {
            let mut cur = Cur::new(c);
            cur.i = i;
            let v = cur.need_number()?;
            Ok(Some((v, cur.i)))
        }
        _ => Ok(None),
    }
}

fn limit_count(n: i64, total: i64) -> PResult<()> {
    if n < 1 {
        return Err(refuse(
            Error::out_of_range("text", "a dice count must be at least 1"),
            "dice_count_zero",
            &[],
        ));
    }
    if total > MAX_DICE as i64 {
        return Err(refuse(
            Error::limit("text", format_args!("at most {MAX_DICE} dice per expression, not {total}")),
            "dice_count",
            &[("max", MAX_DICE as i64), ("n", total)],
        ));
    }
    Ok(())
}

fn limit_sides(s: i64, max: i64) -> PResult<()> {
    if s < 1 || s > max {
        return Err(refuse(
            Error::out_of_range("text", format_args!("a die has 1 to {max} sides, not {s}")),
            "dice_sides",
            &[("max", max), ("n", s)],
        ));
    }
    Ok(())
}

/// A comparison operator at `i` (BCDice's spellings), its text and the index after it.
pub(crate) fn comparison(c: &[char], i: usize) -> Option<(&'static str, usize)> {
    let two: String = c.iter().skip(i).take(2).collect();
    let one = c.get(i).copied();
    match two.as_str() {
        ">=" | "=>" => Some((">=", i + 2)),
        "<=" | "=<" => Some(("<=", i + 2)),
        "<>" | "!=" => Some(("<>", i + 2)),
        "==" => Some(("=", i + 2)),
        _ => match one {
            Some('>') => Some((">", i + 1)),
            Some('<') => Some(("<", i + 1)),
            Some('=') => Some(("=", i + 1)),
            _ => None,
        },
    }
}

pub(crate) fn holds(op: &str, a: i64, b: i64) -> bool {
    match op {
        ">=" => a >= b,
        "<=" => a <= b,
        "<>" => a != b,
        ">" => a > b,
        "<" => a < b,
        _ => a == b,
    }
}

/// `NBS(+NBS)*(cmp target)?`.
pub(crate) fn try_bdice(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    if !c.contains(&'B') || c.contains(&'D') || !c.first().is_some_and(|ch| ch.is_ascii_digit() || *ch == '(')
    {
        return Ok(None);
    }
    // Read the terms first (no die rolled), then roll.
    let mut terms = Vec::new();
    let mut i = 0;
    let mut total = 0i64;
    loop {
        let Some((n, j)) = operand(c, i, dice)? else {
            return if terms.is_empty() { Ok(None) } else { perr("expected_number", i) };
        };
        if c.get(j) != Some(&'B') {
            return if terms.is_empty() { Ok(None) } else { perr("unexpected", j) };
        }
        let Some((s, k)) = operand(c, j + 1, dice)? else {
            return if terms.is_empty() { Ok(None) } else { perr("expected_number", j + 1) };
        };
        total = total.saturating_add(n);
        limit_count(n, total)?;
        limit_sides(s, MAX_SIDES as i64)?;
        terms.push((n, s));
        i = k;
        if c.get(i) == Some(&'+') {
            i += 1;
            continue;
        }
        break;
    }
    let cmp = match comparison(c, i) {
        Some((op, j)) => {
            let mut cur = Cur::new(c);
            cur.i = j;
            let t = cur.arith(1)?;
            cur.end()?;
            Some((op, t))
        }
        None if i == c.len() => None,
        None => return perr("unexpected", i),
    };
    let mut faces = Vec::new();
    for &(n, s) in &terms {
        for _ in 0..n {
            faces.push(dice.roll(s as u32)?);
        }
    }
    let shown: Vec<String> = terms.iter().map(|(n, s)| format!("{n}B{s}")).collect();
    let list: Vec<String> = faces.iter().map(u32::to_string).collect();
    let mut text = format!("({}", shown.join("+"));
    let mut out_total = None;
    if let Some((op, t)) = cmp {
        text.push_str(&format!("{op}{t}"));
        let count = faces.iter().filter(|&&f| holds(op, i64::from(f), t)).count() as i64;
        out_total = Some(count);
        text.push_str(&format!(
            ") ＞ {} ＞ {}",
            list.join(","),
            fmt(lang, "success_count", &[("n", count.to_string())])?
        ));
    } else {
        text.push_str(&format!(") ＞ {}", list.join(",")));
    }
    let mut o = Outcome::new(CmdKind::Pool, text);
    if let Some(t) = out_total {
        o = o.total(t);
    }
    Ok(Some(o))
}

/// `NTYS` / `NTZS`.
pub(crate) fn try_tally(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    let Some(t) = c.windows(2).position(|w| w == ['T', 'Y'] || w == ['T', 'Z']) else { return Ok(None) };
    let zeros = c.get(t + 1) == Some(&'Z');
    let Some((n, j)) = operand(c, 0, dice)? else { return Ok(None) };
    if j != t {
        return Ok(None);
    }
    let Some((s, k)) = operand(c, t + 2, dice)? else { return perr("expected_number", t + 2) };
    if k != c.len() {
        return perr("unexpected", k);
    }
    let kind = if zeros { "TZ" } else { "TY" };
    // BCDice gives no reply to a count or side count below 1 (`0TY4`, `2TZ(0-1)`).
    if n < 1 || s < 1 {
        return Ok(None);
    }
    limit_count(n, n)?;
    if s < 1 {
        return Err(refuse(
            Error::out_of_range(
                "text",
                format_args!("a tally die has 1 to {MAX_TALLY_SIDES} sides, not {s}"),
            ),
            "dice_sides",
            &[("max", MAX_TALLY_SIDES), ("n", s)],
        ));
    }
    if s > MAX_TALLY_SIDES {
        let text = format!(
            "({n}{kind}{s}) ＞ {}",
            fmt(lang, "tally_sides", &[("max", MAX_TALLY_SIDES.to_string())])?
        );
        return Ok(Some(Outcome::new(CmdKind::Tally, text)));
    }
    let mut faces = Vec::new();
    for _ in 0..n {
        faces.push(dice.roll(s as u32)?);
    }
    let mut counts = Vec::new();
    for f in 1..=s as u32 {
        let k = faces.iter().filter(|&&x| x == f).count();
        if k > 0 || zeros {
            counts.push(format!("[{f}]×{k}"));
        }
    }
    let list: Vec<String> = faces.iter().map(u32::to_string).collect();
    let text = format!("({n}{kind}{s}) ＞ {} ＞ {}", list.join(","), counts.join(", "));
    Ok(Some(Outcome::new(CmdKind::Tally, text)))
}

/// `choice…` on the raw line (after leading spaces): (secret, the outcome), or
/// `None` when the line is not a choice. Malformed forms are a parse failure.
pub(crate) fn try_choice(
    text: &str,
    lang: CmdLang,
    dice: &mut Dice,
) -> PResult<Option<(bool, String, Outcome)>> {
    let t = text.trim_matches(super::lex::is_space);
    let lower: String = t.chars().take(7).flat_map(char::to_lowercase).collect();
    let (secret, skip) = if lower.starts_with("schoice") {
        (true, 7)
    } else if lower.starts_with("choice") {
        (false, 6)
    } else {
        return Ok(None);
    };
    let chars: Vec<char> = t.chars().collect();
    let mut i = skip;
    let digits = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let count: Option<usize> = if digits > 0 {
        let s: String = chars[i..i + digits].iter().collect();
        Some(s.parse().unwrap_or(usize::MAX))
    } else {
        None
    };
    i += digits;
    let (open, close, items_text, comment_start) = match chars.get(i) {
        Some(&o @ ('[' | '(')) => {
            let close = if o == '[' { ']' } else { ')' };
            let Some(end) = chars[i + 1..].iter().position(|&c| c == close).map(|k| i + 1 + k) else {
                return perr("expected_close_paren", chars.len());
            };
            let after = chars.get(end + 1).copied();
            if after.is_some_and(|c| !super::lex::is_space(c)) {
                return perr("unexpected", end + 1);
            }
            (Some(o), Some(close), chars[i + 1..end].iter().collect::<String>(), end + 1)
        }
        Some(&c) if super::lex::is_space(c) => {
            (None, None, chars[i..].iter().collect::<String>(), chars.len())
        }
        None => return Ok(None),
        _ => {
            return if digits == 0 && chars[i].is_ascii_alphabetic() {
                Ok(None)
            } else {
                perr("unexpected", i)
            }
        }
    };
    let mut items: Vec<String> = if open.is_some() {
        items_text.split(',').map(|s| s.trim_matches(super::lex::is_space).to_string()).collect()
    } else {
        items_text.split(super::lex::is_space).map(str::to_string).collect()
    };
    items.retain(|s| !s.is_empty());
    if items.len() == 1 {
        if let Some(range) = expand(&items[0]) {
            items = range?;
        }
    }
    if items.is_empty() {
        return perr("choice_empty", i);
    }
    if items.len() > MAX_CHOICE_ITEMS {
        let text = msg(lang, "choice_too_many")?.replace("{max}", &MAX_CHOICE_ITEMS.to_string());
        return Ok(Some((secret, "CHOICE".into(), Outcome::new(CmdKind::Choice, text))));
    }
    let n = count.unwrap_or(1);
    if n == 0 || n > items.len() {
        return perr("choice_count", skip);
    }
    let mut left = items.clone();
    let mut picked = Vec::new();
    for _ in 0..n {
        let k = dice.roll(left.len() as u32)? as usize;
        picked.push(left.remove(k.saturating_sub(1).min(left.len() - 1)));
    }
    let head = format!("choice{}", count.map(|c| c.to_string()).unwrap_or_default());
    let (shown, sep) = match (open, close) {
        (Some(o), Some(c)) => (format!("{head}{o}{}{c}", items.join(",")), ", "),
        _ => (format!("{head} {}", items.join(" ")), " "),
    };
    let _ = comment_start;
    let text = format!("({shown}) ＞ {}", picked.join(sep));
    Ok(Some((secret, shown, Outcome::new(CmdKind::Choice, text))))
}

/// `A-F`, `c-g`, `3-10`: the range's items; `Some(Err)` for a reversed range or one
/// of more than one letter that is still a range (`a-zz` is not expanded: BCDice).
fn expand(s: &str) -> Option<PResult<Vec<String>>> {
    let (a, b) = s.split_once('-')?;
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        if x > y {
            return Some(perr("choice_range", 0));
        }
        if y - x >= MAX_CHOICE_ITEMS as i64 {
            return Some(Ok((x..=x + MAX_CHOICE_ITEMS as i64).map(|v| v.to_string()).collect()));
        }
        return Some(Ok((x..=y).map(|v| v.to_string()).collect()));
    }
    let (mut ca, mut cb) = (a.chars(), b.chars());
    match (ca.next(), ca.next(), cb.next(), cb.next()) {
        (Some(x), None, Some(y), None)
            if x.is_ascii_alphabetic()
                && y.is_ascii_alphabetic()
                && x.is_ascii_uppercase() == y.is_ascii_uppercase() =>
        {
            if x > y {
                return Some(perr("choice_range", 0));
            }
            Some(Ok((x..=y).map(|c| c.to_string()).collect()))
        }
        (Some(x), _, Some(y), _) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() => {
            Some(perr("choice_range", 0))
        }
        _ => None,
    }
}

/// A reroll (R dice) or success condition: operator and value.
type Cond = (&'static str, i64);

/// `[cond]` / `@cond`: an optional operator (`>=` when left out) and a number.
fn condition(c: &[char], i: usize) -> PResult<(Cond, usize, bool)> {
    let (op, j, typed) = match comparison(c, i) {
        Some((op, j)) => (op, j, true),
        None => (">=", i, false),
    };
    let mut cur = Cur::new(c);
    cur.i = j;
    let v = cur.signed()?.map_or_else(|| perr("expected_number", cur.i), Ok)?;
    Ok(((op, v), cur.i, typed))
}

/// `NRS(+NRS)*([cond])?(cmp target)?(@cond)?`: BCDice's reroll dice.
pub(crate) fn try_rdice(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    if !c.contains(&'R') || c.contains(&'D') || !c.first().is_some_and(|ch| ch.is_ascii_digit() || *ch == '(')
    {
        return Ok(None);
    }
    let mut terms = Vec::new();
    let mut i = 0;
    let mut total = 0i64;
    loop {
        let Some((n, j)) = operand(c, i, dice)? else {
            return if terms.is_empty() { Ok(None) } else { perr("expected_number", i) };
        };
        if c.get(j) != Some(&'R') {
            return if terms.is_empty() { Ok(None) } else { perr("unexpected", j) };
        }
        let Some((s, k)) = operand(c, j + 1, dice)? else {
            return if terms.is_empty() { Ok(None) } else { perr("expected_number", j + 1) };
        };
        total = total.saturating_add(n);
        limit_count(n, total)?;
        limit_sides(s, MAX_SIDES as i64)?;
        terms.push((n, s));
        i = k;
        if c.get(i) == Some(&'+') && c.get(i + 1).is_some_and(|ch| ch.is_ascii_digit() || *ch == '(') {
            i += 1;
            continue;
        }
        break;
    }
    let mut bracket = None;
    if c.get(i) == Some(&'[') {
        let (cond, j, typed) = condition(c, i + 1)?;
        if c.get(j) != Some(&']') {
            return perr("expected_close_paren", j);
        }
        bracket = Some((cond, typed));
        i = j + 1;
    }
    let mut target = None;
    if let Some((op, j)) = comparison(c, i) {
        let mut cur = Cur::new(c);
        cur.i = j;
        let t = cur.arith(1)?;
        target = Some((op, t));
        i = cur.i;
    }
    if c.get(i) == Some(&'@') {
        if bracket.is_some() {
            return perr("unexpected", i);
        }
        let (cond, j, _) = condition(c, i + 1)?;
        bracket = Some((cond, true));
        i = j;
    }
    if i != c.len() {
        return perr("unexpected", i);
    }
    let shown_terms: Vec<String> = terms.iter().map(|(n, s)| format!("{n}R{s}")).collect();
    let target_text = target.map(|(op, t)| format!("{op}{t}")).unwrap_or_default();
    // The reroll condition: the bracket's, else the target's.
    let (reroll, cond_text) = match (bracket, target) {
        (Some(((op, v), true)), _) => ((op, v), format!("[{op}{v}]")),
        (Some(((op, v), false)), Some(_)) => ((op, v), format!("[{v}]")),
        (Some(((op, v), false)), None) => ((op, v), format!("[{op}{v}]")),
        (None, Some((op, t))) => ((op, t), format!("[{t}]")),
        (None, None) => {
            let text = format!("{} ＞ {}", c.iter().collect::<String>(), msg(lang, "rdice_no_condition")?);
            return Ok(Some(Outcome::new(CmdKind::Pool, text)));
        }
    };
    // A condition every face meets would reroll for ever.
    if terms.iter().any(|&(_, s)| (1..=s).all(|f| holds(reroll.0, f, reroll.1))) {
        let text = format!("{} ＞ {}", c.iter().collect::<String>(), msg(lang, "rdice_no_condition")?);
        return Ok(Some(Outcome::new(CmdKind::Pool, text)));
    }
    let mut groups = Vec::new();
    let mut all = Vec::new();
    let mut pending: Vec<i64> = terms.iter().map(|&(n, _)| n).collect();
    let mut rolled = 0i64;
    while pending.iter().any(|&n| n > 0) {
        let mut next = vec![0; terms.len()];
        for (t, &(_, s)) in terms.iter().enumerate() {
            let n = pending[t];
            if n == 0 {
                continue;
            }
            rolled += n;
            if rolled > MAX_DICE as i64 {
                return Err(refuse(
                    Error::limit(
                        "text",
                        format_args!("at most {MAX_DICE} dice per expression, rerolls included"),
                    ),
                    "dice_count",
                    &[("max", MAX_DICE as i64), ("n", rolled)],
                ));
            }
            let mut faces = Vec::new();
            for _ in 0..n {
                let f = dice.roll(s as u32)?;
                faces.push(f.to_string());
                all.push(i64::from(f));
                if holds(reroll.0, i64::from(f), reroll.1) {
                    next[t] += 1;
                }
            }
            groups.push(faces.join(","));
        }
        pending = next;
    }
    let count = target.map_or(0, |(op, t)| all.iter().filter(|&&f| holds(op, f, t)).count() as i64);
    let last = shown_terms.len() - 1;
    let mut shown = shown_terms.clone();
    shown[last].push_str(&cond_text);
    let text = format!(
        "({}{target_text}) ＞ {} ＞ {}",
        shown.join("+"),
        groups.join(" + "),
        fmt(lang, "success_count", &[("n", count.to_string())])?
    );
    Ok(Some(Outcome::new(CmdKind::Pool, text).total(count)))
}

/// `NUS(+NUS)*([t])?(±k)*(cmp target)?(@t)?`: BCDice's upper (exploding) dice. A
/// die rolls again while its face is at least `t` (2 or more) and counts the sum.
pub(crate) fn try_udice(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    if !c.contains(&'U') || c.contains(&'D') || !c.first().is_some_and(|ch| ch.is_ascii_digit()) {
        return Ok(None);
    }
    let mut terms = Vec::new();
    let mut i = 0;
    let mut total = 0i64;
    loop {
        let Some((n, j)) = operand(c, i, dice)? else { return Ok(None) };
        if c.get(j) != Some(&'U') {
            return if terms.is_empty() { Ok(None) } else { perr("unexpected", j) };
        }
        let Some((s, k)) = operand(c, j + 1, dice)? else {
            return if terms.is_empty() { Ok(None) } else { perr("expected_number", j + 1) };
        };
        total = total.saturating_add(n);
        limit_count(n, total)?;
        limit_sides(s, MAX_SIDES as i64)?;
        terms.push((n, s));
        i = k;
        let next_is_term = c.get(i) == Some(&'+') && {
            let mut j = i + 1;
            while c.get(j).is_some_and(char::is_ascii_digit) {
                j += 1;
            }
            c.get(j) == Some(&'U')
        };
        if next_is_term {
            i += 1;
            continue;
        }
        break;
    }
    let mut threshold = None;
    if c.get(i) == Some(&'[') {
        let mut cur = Cur::new(c);
        cur.i = i + 1;
        threshold = Some(cur.need_number()?);
        if !cur.eat(']') {
            return perr("expected_close_paren", cur.i);
        }
        i = cur.i;
    }
    let mut modifier = 0i64;
    while let Some(sign @ ('+' | '-')) = c.get(i).copied() {
        let mut cur = Cur::new(c);
        cur.i = i + 1;
        let v = cur.need_number()?;
        modifier = modifier.saturating_add(if sign == '+' { v } else { -v });
        i = cur.i;
    }
    let mut target = None;
    if let Some((op, j)) = comparison(c, i) {
        let mut cur = Cur::new(c);
        cur.i = j;
        let t = cur.arith(1)?;
        target = Some((op, t));
        i = cur.i;
    }
    if c.get(i) == Some(&'@') {
        if threshold.is_some() {
            return perr("unexpected", i);
        }
        let mut cur = Cur::new(c);
        cur.i = i + 1;
        threshold = Some(cur.need_number()?);
        i = cur.i;
    }
    if i != c.len() {
        return perr("unexpected", i);
    }
    let t = threshold.unwrap_or(0);
    let shown_terms: Vec<String> = terms.iter().map(|(n, s)| format!("{n}U{s}")).collect();
    let modifier_text = super::outcome::signed(modifier);
    let target_text = target.map(|(op, v)| format!("{op}{v}")).unwrap_or_default();
    let head = format!("({}[{t}]{modifier_text}{target_text})", shown_terms.join("+"));
    if t < 2 {
        return Ok(Some(Outcome::new(
            CmdKind::Pool,
            format!("{head} ＞ {}", msg(lang, "udice_no_condition")?),
        )));
    }
    let mut values = Vec::new();
    let mut shown = Vec::new();
    let mut rolled = 0i64;
    for &(n, s) in &terms {
        for _ in 0..n {
            let mut faces = Vec::new();
            loop {
                rolled += 1;
                if rolled > MAX_DICE as i64 {
                    return Err(refuse(
                        Error::limit(
                            "text",
                            format_args!("at most {MAX_DICE} dice per expression, rerolls included"),
                        ),
                        "dice_count",
                        &[("max", MAX_DICE as i64), ("n", rolled)],
                    ));
                }
                let f = dice.roll(s as u32)?;
                faces.push(f);
                if i64::from(f) < t {
                    break;
                }
            }
            let sum: i64 = faces.iter().map(|&f| i64::from(f)).sum();
            values.push(sum);
            shown.push(if faces.len() == 1 {
                sum.to_string()
            } else {
                format!("{sum}{}", super::outcome::faces(&faces))
            });
        }
    }
    let list = format!("{}{modifier_text}", shown.join(","));
    let (text, total) = match target {
        Some((op, v)) => {
            let count = values.iter().filter(|&&x| holds(op, x + modifier, v)).count() as i64;
            (
                format!("{head} ＞ {list} ＞ {}", fmt(lang, "success_count", &[("n", count.to_string())])?),
                count,
            )
        }
        None => {
            let max = values.iter().copied().max().unwrap_or(0) + modifier;
            let sum = values.iter().sum::<i64>() + modifier;
            (
                format!(
                    "{head} ＞ {list} ＞ {}",
                    fmt(lang, "udice_max_total", &[("max", max.to_string()), ("sum", sum.to_string())])?
                ),
                max,
            )
        }
    };
    Ok(Some(Outcome::new(CmdKind::Pool, text).total(total)))
}
