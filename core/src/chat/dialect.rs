//! The dot commands of Chinese dice bots (Dice!, 塔骰, 溯洄 and their kin), read by
//! rewriting them into the BCDice form that [`super::run`] already reads, so every
//! rule stays in one place:
//!
//! | typed | read as | |
//! |---|---|---|
//! | `.ra 侦查50`, `.rc侦查 50` | `CC<=50 侦查` | 7th-/6th-edition check |
//! | `.rab2 侦查50`, `.rap 侦查50` | `CC(2)<=50 侦查`, `CC(-1)<=50 侦查` | bonus / penalty dice (7th edition only) |
//! | `.ra 困难侦查50`, `.ra 极难侦查50` | `CC<=50H 困难侦查`, `CC<=50E 极难侦查` | difficulty (7th edition) |
//! | `.r 3d6*5 力量`, `.r3d6`, `.r` | `3D6*5 力量`, `3D6`, `1D100` | plain dice (every system) |
//! | `.ra 侦查60+10`, `.ra 侦查60-5*2` | `CC<=(60+10) 侦查` | a modifier after the value is applied |
//! | `.ra 3#侦查50`, `.r 3#1d6` | `x3 CC<=50 侦查`, `x3 1d6` | `N#` repeats (1…100) |
//! | `.rh …` | `S…` | secret |
//!
//! The dot may be `.`, `。` or `．`; letters are case-insensitive. The skill value is
//! the first number in the line, with the arithmetic stuck to it (bots look the name
//! up on a character card; gunbai has none, so the number must be typed); text before
//! it is the skill name, text after it (after a space, or in a script no command uses)
//! a further comment. ASCII stuck to the value stays in the command, so `.ra 侦查50x`
//! is a parse error at the `x`, never a different check. `.ra`/`.rc` are read for `coc7` and `coc6` only, and
//! bonus, penalty and difficulty for `coc7` only. `.st`, `.sc`, `.coc`, `.en` and
//! `.setcoc` are not rewritten: they are read in [`super::st`] and [`super::sheet`]
//! (`.setcoc` returns the `variants` for the caller to store). A parse error of a rewritten
//! line points into the BCDice form shown as `command`.

use super::types::CmdSystem;

/// The BCDice-form line for a dot command, or `None` when `text` is not one;
/// `Err(name)` when a check names a skill without a value that `card` lacks.
pub(crate) fn rewrite(text: &str, system: Option<CmdSystem>, card: Option<&Card>) -> Option<Rewrite> {
    let t = text.trim_start_matches(super::lex::is_space);
    let rest = t.strip_prefix(['.', '。', '．'])?;
    let lower: String = rest.chars().take(4).map(|c| super::lex::normalize(c).to_ascii_lowercase()).collect();
    if !lower.starts_with('r') {
        return None;
    }
    // `.rh`: a secret roll of what follows (`.rh`, `.rh 1d100`, `.rhd`).
    let (secret, after_r) =
        if lower.starts_with("rh") { ("S", skip_chars(rest, 2)) } else { ("", skip_chars(rest, 1)) };
    let next = after_r.chars().next();
    let lower_next = next.map(|c| super::lex::normalize(c).to_ascii_lowercase());
    if secret.is_empty() && matches!(lower_next, Some('a' | 'c')) {
        return check(skip_chars(after_r, 1), system, card);
    }
    // `.r` then the end, a space or dice; a word like `.really` is chat.
    let dice_next = lower_next.is_some_and(|c| c.is_ascii_digit() || matches!(c, 'd' | '(' | '-'));
    if next.is_some_and(|c| !super::lex::is_space(c)) && !dice_next {
        return None;
    }
    Some(Ok(format!("{secret}{}", dice(after_r))))
}

/// A rewritten line, or the skill a check names that the card lacks.
pub(crate) type Rewrite = Result<String, String>;
type Card = std::collections::BTreeMap<String, i64>;

/// `.r …`: the first word is the dice expression when it starts like one; otherwise
/// (or with nothing after `.r`) the roll is 1D100 and every word is the comment.
fn dice(rest: &str) -> String {
    let (repeat, rest) = repeat_count(rest.trim_matches(super::lex::is_space));
    format!("{repeat}{}", dice_word(rest))
}

fn dice_word(rest: &str) -> String {
    let rest = rest.trim_matches(super::lex::is_space);
    let word_end = rest.find(super::lex::is_space).unwrap_or(rest.len());
    let (word, comment) = rest.split_at(word_end);
    let starts_like_dice = word.chars().next().is_some_and(|c| {
        let c = super::lex::normalize(c);
        c.is_ascii_digit() || matches!(c, 'D' | '(' | '-')
    });
    let comment = comment.trim_matches(super::lex::is_space);
    match (starts_like_dice, comment.is_empty()) {
        (true, true) => word.to_string(),
        (true, false) => format!("{word} {comment}"),
        (false, _) if rest.is_empty() => "1D100".to_string(),
        (false, _) => format!("1D100 {rest}"),
    }
}

/// `.ra` / `.rc` after the letters: optional `b`/`p` and a count, an optional
/// `N#` repeat, then the skill: a name, the value, and a modifier (`侦查60+10` is
/// checked against 70).
fn check(rest: &str, system: Option<CmdSystem>, card: Option<&Card>) -> Option<Rewrite> {
    let seventh = match system {
        Some(CmdSystem::Coc7) => true,
        Some(CmdSystem::Coc6) => false,
        _ => return None,
    };
    let mut chars = rest.chars().peekable();
    let mut bonus = 0i64;
    if let Some(sign) = chars.peek().map(|&c| super::lex::normalize(c)).and_then(|c| match c {
        'B' => Some(1),
        'P' => Some(-1),
        _ => None,
    }) {
        if !seventh {
            return None; // 6th edition has no bonus or penalty dice
        }
        chars.next();
        let mut n = String::new();
        while let Some(&c) = chars.peek() {
            let d = super::lex::normalize(c);
            if !d.is_ascii_digit() || n.len() >= 3 {
                break;
            }
            n.push(d);
            chars.next();
        }
        bonus = sign * n.parse::<i64>().unwrap_or(1);
    }
    let rest: String = chars.collect();
    let (repeat, rest) = repeat_count(rest.trim_matches(super::lex::is_space));
    let bcdice_bonus = if bonus == 0 { String::new() } else { format!("({bonus})") };
    let is_digit = |c: char| super::lex::normalize(c).is_ascii_digit();
    let arith = |c: char| {
        let c = super::lex::normalize(c);
        c.is_ascii_digit() || matches!(c, '+' | '-' | '*' | '/' | '(' | ')')
    };
    // A name without a typed value (`侦查`, `侦查+10`) takes its value from the card.
    let name_end = rest.find(|c: char| arith(c) && c != '(' && c != ')').unwrap_or(rest.len());
    let name = rest[..name_end].trim_matches(super::lex::is_space);
    let typed = rest[name_end..].chars().next().is_some_and(is_digit);
    let (start, from_card) = if typed || name.is_empty() {
        // The skill value: the first run of digits (full-width too) after the name.
        match rest.find(is_digit) {
            Some(start) => (start, None),
            // No number: read as `CC<=` so the reply says a number is expected.
            None => return Some(Ok(format!("{repeat}CC{bcdice_bonus}<= {rest}"))),
        }
    } else {
        let bare = ["困难", "困難", "极难", "極難"].iter().find_map(|p| name.strip_prefix(p)).unwrap_or(name);
        match card.and_then(|c| super::card::lookup(c, bare.trim_matches(super::lex::is_space))) {
            Some(v) => (name_end, Some(v)),
            None => return Some(Err(name.to_string())),
        }
    };
    // The value and any modifier after it (`60+10`, `60-5*2`): ASCII arithmetic.
    let end = rest[start..].find(|c: char| !arith(c)).map_or(rest.len(), |k| start + k);
    let typed_expr: String = rest[start..end].chars().map(super::lex::normalize).collect();
    let expr = match from_card {
        Some(v) => format!("{v}{typed_expr}"),
        None => typed_expr,
    };
    let value = if expr.chars().all(|c| c.is_ascii_digit()) { expr } else { format!("({expr})") };
    let name = rest[..start].trim_matches(super::lex::is_space);
    let after = &rest[end..];
    // What follows is a comment after a space or in a script no command uses
    // (`侦查50 潜入`, `50侦查`); ASCII stuck to the value stays in the command, so
    // that `.ra 侦查50x` is a parse error at the `x`, never a different check.
    let (stuck, tail) = match after.chars().next() {
        Some(c) if !super::lex::is_space(c) && super::lex::normalize(c).is_ascii() => {
            let k = after.find(super::lex::is_space).unwrap_or(after.len());
            after.split_at(k)
        }
        _ => ("", after),
    };
    let stuck: String = stuck.chars().map(super::lex::normalize).collect();
    let tail = tail.trim_matches(super::lex::is_space);
    let suffix = match name {
        n if seventh && (n.starts_with("困难") || n.starts_with("困難")) => "H",
        n if seventh && (n.starts_with("极难") || n.starts_with("極難")) => "E",
        _ => "",
    };
    let comment = [name, tail].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(" ");
    let head = format!("{repeat}CC{bcdice_bonus}<={value}{suffix}{stuck}");
    Some(Ok(if comment.is_empty() { head } else { format!("{head} {comment}") }))
}

/// A leading `N#` (Dice!/SealDice's repeat, `3#侦查50`): the `xN ` prefix
/// [`super::run`] repeats with, and the rest.
fn repeat_count(s: &str) -> (String, &str) {
    let digits = s.find(|c: char| !super::lex::normalize(c).is_ascii_digit()).unwrap_or(s.len());
    match s[digits..].strip_prefix(['#', '＃']) {
        Some(rest) if digits > 0 => {
            let n: String = s[..digits].chars().map(super::lex::normalize).collect();
            (format!("x{n} "), rest.trim_start_matches(super::lex::is_space))
        }
        _ => (String::new(), s),
    }
}

/// `s` without its first `n` characters.
fn skip_chars(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or("", |(i, _)| &s[i..])
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn card_values() {
        let card: super::Card = [("目星".to_string(), 60)].into();
        let r = |t: &str| {
            rewrite(t, Some(Coc7), Some(&card)).map(|r| r.unwrap_or_else(|n| format!("missing:{n}")))
        };
        assert_eq!(r(".ra 侦查").as_deref(), Some("CC<=60 侦查"));
        assert_eq!(r(".ra 侦查+10").as_deref(), Some("CC<=(60+10) 侦查"));
        assert_eq!(r(".ra 3#Spot Hidden").as_deref(), Some("x3 CC<=60 Spot Hidden"));
        assert_eq!(r(".ra 侦查50").as_deref(), Some("CC<=50 侦查"));
        assert_eq!(r(".ra 聆听").as_deref(), Some("missing:聆听"));
        assert_eq!(r(".ra 困难目星").as_deref(), Some("CC<=60H 困难目星"));
    }
    use crate::command::CmdSystem::{Coc6, Coc7, Tmd};

    #[test]
    fn rewrites() {
        for (text, system, want) in [
            (".ra 侦查50", Some(Coc7), Some("CC<=50 侦查")),
            (".rc侦查 50", Some(Coc7), Some("CC<=50 侦查")),
            ("。ra侦查５０", Some(Coc7), Some("CC<=50 侦查")),
            (".RAB2 侦查50", Some(Coc7), Some("CC(2)<=50 侦查")),
            (".rap 侦查50 潜入", Some(Coc7), Some("CC(-1)<=50 侦查 潜入")),
            (".rab 侦查50", Some(Coc6), None),
            (".ra 困难侦查60", Some(Coc7), Some("CC<=60H 困难侦查")),
            (".ra 极难侦查60", Some(Coc7), Some("CC<=60E 极难侦查")),
            (".ra 困难侦查60", Some(Coc6), Some("CC<=60 困难侦查")),
            (".ra 侦查", Some(Coc7), Some("missing:侦查")),
            (".ra 侦查+10", Some(Coc7), Some("missing:侦查")),
            (".ra 50", Some(Coc7), Some("CC<=50")),
            (".ra 侦查60+10", Some(Coc7), Some("CC<=(60+10) 侦查")),
            (".ra 侦查60-5*2 潜入", Some(Coc7), Some("CC<=(60-5*2) 侦查 潜入")),
            (".ra 侦查60x", Some(Coc7), Some("CC<=60X 侦查")),
            (".ra 50侦查", Some(Coc7), Some("CC<=50 侦查")),
            (".ra 3#侦查50", Some(Coc7), Some("x3 CC<=50 侦查")),
            (".rab2 3# 侦查50", Some(Coc7), Some("x3 CC(2)<=50 侦查")),
            (".rc 2#侦查", Some(Coc6), Some("missing:侦查")),
            (".ra 侦查50", Some(Tmd), None),
            (".ra 侦查50", None, None),
            (".r 3d6*5 力量", None, Some("3d6*5 力量")),
            (".r3d6", Some(Tmd), Some("3d6")),
            (".r", None, Some("1D100")),
            (".r 3#1d6 伤害", None, Some("x3 1d6 伤害")),
            (".r 理智", None, Some("1D100 理智")),
            (".rh", Some(Coc7), Some("S1D100")),
            (".rh 1d6 秘密", Some(Coc7), Some("S1d6 秘密")),
            ("ra 侦查50", Some(Coc7), None),
            (".really?", None, None),
            (".r 1d20+3 攻撃", None, Some("1d20+3 攻撃")),
            (".setcoc 2", Some(Coc7), None),
            ("…", None, None),
        ] {
            let got = rewrite(text, system, None).map(|r| r.unwrap_or_else(|n| format!("missing:{n}")));
            assert_eq!(got.as_deref(), want, "{text}");
        }
    }
}
