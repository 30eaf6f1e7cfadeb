//! Call of Cthulhu commands, with BCDice's syntax and (for `lang: ja`) its reply
//! text character for character.
//!
//! **7th edition** (`system: coc7`, BCDice `Cthulhu7th`):
//! * `CC` → one d100: `(1D100) ＞ 45`.
//! * `CC<=s`, `CC(n)<=s`, `CCn<=s`, `CC+n<=s`, `CC(n)` — skill roll with `n`
//!   bonus (negative: penalty) dice, −100…100 (BCDice's range; beyond it BCDice's
//!   own reply, as a refusal).
//!   Dice: the `|n| + 1` tens dice, then the ones die (as BCDice and
//!   `coc7.check`); `CC<=0` is a plain `(1D100)` roll, but `CC<=0R` (or `H`, `E`,
//!   `C`) is a check against 0 (BCDice rolls a plain d100 for these too): the
//!   form a dot check of a 0 skill is sent as (`.ra 克苏鲁神话`).
//! * `CC<=s` + `R`/`H`/`E`/`C` — difficulty: the target becomes s, s/2, s/5
//!   or 0 and the result reads 成功 / 失敗 / クリティカル / ファンブル.
//! * `CBR(a,b)` — combined roll: one d100 against both values.
//!
//! Levels come from [`crate::coc7::check::classify`] (house rule 0, the
//! rulebook as BCDice and RULINGS read it: 01 is always a critical and 100
//! always a fumble). `variants.coc7_rule` 1–5 switches to `coc7`'s house rules
//! (the `setcoc` numbering).
//!
//! **6th edition** (`system: coc6`, BCDice `Cthulhu`): `CC` / `CCB` (critical
//! 01 / fumble 100, or 01–05 / 96–100), `CC<=s` (s may be arithmetic,
//! `CC<=(68+12)`), `CC(k)<=s` (malfunction number k), `CBR(a,b)` / `CBRB(a,b)`,
//! `RES(a-b)` / `RESB(a-b)` (target (a−b)×5+50; below 5 an automatic failure,
//! above 95 an automatic success, without dice). Each rolls one d100. Levels
//! come from [`crate::coc_ap::check::evaluate`], except that, as in BCDice, nothing
//! fumbles against a value of 100 or more (RULINGS' `coc_ap.check` fumbles on 100
//! whatever the skill).
//!
//! **Dice**, as BCDice rolls them: one d100 (a single face 1–100) for every
//! 6th-edition check (as `coc_ap.check`), 7th-edition `CBR` and bare `CC`; the tens
//! dice (`tens_d10`), then the ones die, for 7th-edition `CC<=s` / `CC(n)` (as
//! `coc7.check`); in Korean (`lang: ko`) the ones die first, as BCDice's
//! `Cthulhu7th:Korean` rolls them.

mod far;
#[cfg(any(feature = "coc6", feature = "coc7"))]
pub mod sheet;
pub(crate) mod tables;

use crate::chat::catalog::{fmt, msg};
use crate::chat::lex::{perr, refuse_whole, Cur, PResult};
use crate::chat::outcome::Outcome;
use crate::chat::types::{CmdKind, CmdLang};
use crate::coc7::check::{classify, outcome_of, roll_d100_order, Coc7Difficulty, Coc7Level};
use crate::coc_ap::check::{evaluate, relabel, CocApCheckResult, CocApRule};
use crate::dice::Dice;
use crate::error::Error;
use crate::json::ToJson;

/// Most bonus (or penalty) dice of a chat `CC(n)`: BCDice's range. Rolling them is
/// bounded work ([`roll_d100_order`] rolls up to `MAX_RULE_BONUS_DICE`); the `coc7.check`
/// operation keeps its own, narrower range.
pub(crate) const CHAT_MAX_BONUS_DICE: i64 = 100;

/// 7th-edition level of roll `r` against `target` under house rule `rule`
/// ([`classify`]).
pub(crate) fn level7(r: u32, target: i64, rule: i64) -> Coc7Level {
    classify(i64::from(r), target, rule)
}

fn level7_key(l: Coc7Level) -> &'static str {
    match l {
        Coc7Level::Critical => "coc7_critical",
        Coc7Level::Extreme => "coc7_extreme",
        Coc7Level::Hard => "coc7_hard",
        Coc7Level::Regular => "coc7_regular",
        Coc7Level::Failure => "coc7_failure",
        Coc7Level::Fumble => "coc7_fumble",
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Suffix {
    R,
    H,
    E,
    C,
}

/// Structured result of a combined roll.
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
struct CombinedResult {
    roll: u32,
    targets: [i64; 2],
    successes: [bool; 2],
    outcome: &'static str,
}

/// Try a 7th-edition command.
pub(crate) fn try_coc7(c: &[char], lang: CmdLang, dice: &mut Dice, rule: i64) -> PResult<Option<Outcome>> {
    if let Some(o) = tables::try_table(c, lang, dice)? {
        return Ok(Some(o));
    }
    if let Some(o) = far::try_far(c, lang, dice)? {
        return Ok(Some(o));
    }
    let mut cur = Cur::new(c);
    if cur.eat_str("CBR") {
        if cur.letter_next() || cur.at_end() {
            return Ok(None);
        }
        let (a, b) = pair(&mut cur)?;
        cur.end()?;
        let r = dice.roll(100)?;
        let (l1, l2) = (level7(r, a, rule), level7(r, b, rule));
        let (s1, s2) = (l1.is_success(), l2.is_success());
        let rank = match (s1, s2) {
            (true, true) => "coc7_success",
            (false, false) => "coc7_failure",
            _ => "coc7_partial",
        };
        let text = format!(
            "(1d100<={a},{b}) ＞ {r}[{},{}] ＞ {}",
            msg(lang, level7_key(l1))?,
            msg(lang, level7_key(l2))?,
            msg(lang, rank)?
        );
        let res =
            CombinedResult { roll: r, targets: [a, b], successes: [s1, s2], outcome: partial_name(s1, s2) };
        return Ok(Some(
            Outcome::new(CmdKind::Coc7Combined, text)
                .total(i64::from(r))
                .success(Some(s1 && s2))
                .flags(l1 == Coc7Level::Critical, l1 == Coc7Level::Fumble && l2 == Coc7Level::Fumble)
                .result(&res),
        ));
    }
    if !cur.eat_str("CC") {
        return Ok(None);
    }
    if cur.peek() == Some('B') {
        return perr("ccb_in_coc7", cur.i);
    }
    if cur.letter_next() {
        return Ok(None);
    }
    let bonus = if cur.peek() == Some('(') { cur.paren()? } else { cur.signed()?.unwrap_or(0) };
    let mut skill = None;
    let mut suffix = None;
    if cur.eat_str("<=") {
        let Some(s) = cur.value()? else { return perr("expected_number", cur.i) };
        skill = Some(s);
        suffix = match cur.peek() {
            Some('R') => Some(Suffix::R),
            Some('H') => Some(Suffix::H),
            Some('E') => Some(Suffix::E),
            Some('C') => Some(Suffix::C),
            _ => None,
        };
        if suffix.is_some() {
            cur.i += 1;
        }
    } else if !cur.at_end() {
        return perr("expected_le", cur.i);
    }
    cur.end()?;
    // BCDice: a target of 0 means "no target" (but not with a suffix); the suffix divides it.
    let skill = skill.filter(|&s| s != 0 || suffix.is_some());
    let target = skill.map(|s| match suffix {
        Some(Suffix::H) => s.div_euclid(2),
        Some(Suffix::E) => s.div_euclid(5),
        Some(Suffix::C) => 0,
        _ => s,
    });
    if bonus == 0 && target.is_none() {
        let r = dice.roll(100)?;
        // BCDice's Cthulhu7th:ChineseTraditional writes this one reply without parentheses.
        let text =
            if lang == CmdLang::ZhHant { format!("1D100 ＞ {r}") } else { format!("(1D100) ＞ {r}") };
        return Ok(Some(Outcome::new(CmdKind::Coc7Check, text).total(i64::from(r))));
    }
    if bonus.abs() > CHAT_MAX_BONUS_DICE {
        // BCDice's own reply to this line (its range, ±100).
        return Err(refuse_whole(
            Error::out_of_range(
                "text",
                format_args!(
                    "bonus/penalty dice are -{CHAT_MAX_BONUS_DICE}..={CHAT_MAX_BONUS_DICE}, not {bonus}"
                ),
            ),
            "bonus_dice",
            &[("max", CHAT_MAX_BONUS_DICE)],
        ));
    }
    let (r, candidates) = roll_d100_order(dice, bonus, lang == CmdLang::Ko)?;
    let list: Vec<String> = candidates.iter().map(u32::to_string).collect();
    let expr = match target {
        Some(t) => format!("1D100<={t}"),
        None => "1D100".to_string(),
    };
    let mut text = format!("({expr}) {}[{bonus}] ＞ {} ＞ {r}", msg(lang, "coc7_bonus")?, list.join(", "));
    let mut out = Outcome::new(CmdKind::Coc7Check, String::new()).total(i64::from(r));
    if let Some(t) = target {
        let difficulty = match suffix {
            Some(Suffix::H) => Some(Coc7Difficulty::Hard),
            Some(Suffix::E) => Some(Coc7Difficulty::Extreme),
            Some(Suffix::C) => None,
            _ => Some(Coc7Difficulty::Regular),
        };
        let outcome = match (difficulty, skill) {
            (Some(d), Some(s)) => Some(outcome_of(r, candidates, s, bonus, d, rule)),
            _ => None,
        };
        let (key, success, critical, fumble) = match (&outcome, suffix) {
            // R/H/E: the level against the full skill (a house rule's critical range
            // follows the skill, not the reduced target), read as 成功 / 失敗 /
            // クリティカル / ファンブル against the difficulty — as the structured result.
            (Some(o), Some(_)) => {
                let key = match o.level {
                    Coc7Level::Critical => "coc7_critical",
                    Coc7Level::Fumble => "coc7_fumble",
                    _ if o.success => "coc7_success",
                    _ => "coc7_failure",
                };
                (key, o.success, o.level == Coc7Level::Critical, o.level == Coc7Level::Fumble)
            }
            _ => {
                let level = level7(r, t, rule);
                let key = if suffix.is_some() && level.is_success() && level != Coc7Level::Critical {
                    "coc7_success"
                } else {
                    level7_key(level)
                };
                (key, level.is_success(), level == Coc7Level::Critical, level == Coc7Level::Fumble)
            }
        };
        text.push_str(" ＞ ");
        text.push_str(msg(lang, key)?);
        out = out.success(Some(success)).flags(critical, fumble);
        if let Some(o) = outcome {
            out = out.result(&o);
        }
    }
    out.text = text;
    Ok(Some(out))
}

fn partial_name(a: bool, b: bool) -> &'static str {
    match (a, b) {
        (true, true) => "success",
        (false, false) => "failure",
        _ => "partial_success",
    }
}

/// `'(' arith ',' arith ')'`.
fn pair(cur: &mut Cur) -> PResult<(i64, i64)> {
    if !cur.eat('(') {
        return perr("expected_open_paren", cur.i);
    }
    let a = cur.arith(1)?;
    if !cur.eat(',') {
        return perr("expected_comma", cur.i);
    }
    let b = cur.arith(1)?;
    if !cur.eat(')') {
        return perr("expected_close_paren", cur.i);
    }
    Ok((a, b))
}

/// A 6th-edition result as BCDice's Cthulhu reads it: as [`evaluate`] (RULINGS), except
/// that nothing fumbles against a value of 100 or more (BCDice: `diff < 100`), so that
/// `command.run` replies as BCDice does. `coc_ap.check` keeps RULINGS' reading.
fn evaluate6(r: u32, target: i64, rule: CocApRule) -> CocApCheckResult {
    let mut e = evaluate(r, target, rule);
    if target >= 100 && e.fumble {
        e.fumble = false;
        relabel(&mut e);
    }
    e
}

/// Catalog key of a 6th-edition result.
fn label6(r: &crate::coc_ap::check::CocApCheckResult) -> &'static str {
    match (r.success, r.critical, r.special, r.fumble) {
        (true, true, true, _) => "coc6_critical_special",
        (true, true, false, _) => "coc6_critical",
        (true, false, true, _) => "coc6_special",
        (true, false, false, _) => "success",
        (false, _, _, true) => "coc6_fumble",
        _ => "failure",
    }
}

/// Try a 6th-edition command.
pub(crate) fn try_coc6(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    let mut cur = Cur::new(c);
    if cur.eat_str("CBR") {
        let rule = if cur.eat('B') { CocApRule::Ccb } else { CocApRule::Cc };
        if cur.letter_next() || cur.at_end() {
            return Ok(None);
        }
        let (a, b) = pair(&mut cur)?;
        cur.end()?;
        let r = dice.roll(100)?;
        let (e1, e2) = (evaluate6(r, a, rule), evaluate6(r, b, rule));
        let rank = match (e1.success, e2.success) {
            (true, true) => "success",
            (false, false) => "failure",
            _ => "coc6_partial",
        };
        let text = format!(
            "(1d100<={a},{b}) ＞ {r}[{},{}] ＞ {}",
            msg(lang, label6(&e1))?,
            msg(lang, label6(&e2))?,
            msg(lang, rank)?
        );
        let res = CombinedResult {
            roll: r,
            targets: [a, b],
            successes: [e1.success, e2.success],
            outcome: partial_name(e1.success, e2.success),
        };
        return Ok(Some(
            Outcome::new(CmdKind::Coc6Combined, text)
                .total(i64::from(r))
                .success(Some(e1.success && e2.success))
                .flags(e1.critical || e2.critical, e1.fumble && e2.fumble)
                .result(&res),
        ));
    }
    if cur.eat_str("RES") {
        let rule = if cur.eat('B') { CocApRule::Ccb } else { CocApRule::Cc };
        if cur.letter_next() || cur.at_end() {
            return Ok(None);
        }
        let v = if cur.peek() == Some('(') {
            cur.paren()?
        } else {
            match cur.signed()? {
                Some(v) => v,
                None => return perr("expected_open_paren", cur.i),
            }
        };
        cur.end()?;
        let target = v.saturating_mul(5).saturating_add(50);
        if target < 5 {
            let text = format!("(1d100<={target}) ＞ {}", msg(lang, "coc6_automatic_failure")?);
            return Ok(Some(Outcome::new(CmdKind::Coc6Resistance, text).success(Some(false))));
        }
        if target > 95 {
            let text = format!("(1d100<={target}) ＞ {}", msg(lang, "coc6_automatic_success")?);
            return Ok(Some(Outcome::new(CmdKind::Coc6Resistance, text).success(Some(true))));
        }
        let start = dice.rolls().len();
        let r = dice.roll(100)?;
        let mut e = evaluate6(r, target, rule);
        e.rolls = dice.rolls_since(start);
        let text = format!("(1d100<={target}) ＞ {r} ＞ {}", msg(lang, label6(&e))?);
        return Ok(Some(
            Outcome::new(CmdKind::Coc6Resistance, text)
                .total(i64::from(r))
                .success(Some(e.success))
                .flags(e.critical, e.fumble)
                .result(&e),
        ));
    }
    if !cur.eat_str("CC") {
        return Ok(None);
    }
    let rule = if cur.eat('B') { CocApRule::Ccb } else { CocApRule::Cc };
    if cur.letter_next() {
        return Ok(None);
    }
    let broken = cur.value()?.unwrap_or(0);
    let mut target = 0;
    if cur.eat_str("<=") {
        target = cur.arith(1)?;
        cur.end()?;
    } else if cur.peek().is_some_and(|c| matches!(c, '<' | '>' | '=')) {
        // BCDice rolls a plain 1D100 for any other comparison (`CCB>=80`).
    } else {
        cur.end()?;
    }
    let start = dice.rolls().len();
    let r = dice.roll(100)?;
    if target <= 0 {
        return Ok(Some(Outcome::new(CmdKind::Coc6Check, format!("(1D100) ＞ {r}")).total(i64::from(r))));
    }
    let mut e = evaluate6(r, target, rule);
    e.rolls = dice.rolls_since(start);
    let mut label = msg(lang, label6(&e))?.to_string();
    let mut success = e.success;
    if broken > 0 && i64::from(r) >= broken {
        success = false;
        let b = msg(lang, "coc6_broken")?;
        label = if e.fumble { format!("{label}/{b}") } else { b.to_string() };
    }
    let broken_text = if broken > 0 {
        fmt(lang, "coc6_broken_number", &[])? + &format!("[{broken}]")
    } else {
        String::new()
    };
    let sep = if broken > 0 { " " } else { "" };
    let text = format!("(1D100<={target}){sep}{broken_text} ＞ {r} ＞ {label}");
    Ok(Some(
        Outcome::new(CmdKind::Coc6Check, text)
            .total(i64::from(r))
            .success(Some(success))
            .flags(e.critical, e.fumble)
            .result(&e),
    ))
}

/// Call of Cthulhu's reply texts, both editions (`core/data/command/messages/coc.json`).
pub(crate) const MESSAGES: &[crate::chat::catalog::Entry] =
    include!(concat!(env!("OUT_DIR"), "/messages/coc.rs"));

/// Their Korean texts (the checks' wording of BCDice's Korean systems).
pub(crate) const MESSAGES_KO: &[crate::chat::catalog::KoEntry] =
    include!(concat!(env!("OUT_DIR"), "/messages/coc_ko.rs"));

/// The help of `command.help`: (syntax, catalog key of the summary, examples).
pub(crate) const HELP7: &[crate::chat::help::Entry] = &[
    ("CC(x)<=s", "help_coc7_cc", &["CC<=50", "CC(1)<=50", "CC-1<=75", "CC"]),
    ("CC(x)<=s(r|h|e|c)", "help_coc7_difficulty", &["CC<=70r", "CC1<=60h", "CC-2<=50e", "CC2<=99c"]),
    ("CBR(a,b)", "help_coc7_cbr", &["CBR(50,20)"]),
    ("FAR(r,s,m[,b[,d[,v]]])", "help_coc7_far", &["FAR(30,62,98)", "FAR(25,70,98,-1,h)"]),
    (
        ".ra name s±k, .rab2, .rap, .ra N#name s",
        "help_dot_ra",
        &[".ra 侦查60", ".ra 侦查60+10", ".rab2 困难侦查60", ".ra 3#侦查50"],
    ),
    (".sc s/f [san]", "help_dot_sc", &[".sc 1/1d6 60", ".sc 0/1d3+1 理智55", ".sc1d2/1d10 45"]),
    (".coc [n], .coc7 [n]", "help_dot_coc", &[".coc", ".coc7 3"]),
    (".en name [s]", "help_dot_en", &[".en 侦查60", ".en 目星 45"]),
    (".setcoc [n]", "help_dot_setcoc", &[".setcoc 2", ".setcoc"]),
    ("BMR, BMS, PH, MA, FCL, FCM", "help_coc7_tables", &["BMR", "BMS", "PH", "FCL"]),
    (".ti, .li", "help_coc7_ti", &[".ti", ".li"]),
];

/// The help of `command.help`: (syntax, catalog key of the summary, examples).
pub(crate) const HELP6: &[crate::chat::help::Entry] = &[
    ("CC<=s", "help_coc6_cc", &["CC<=80", "CC"]),
    ("CCB<=s", "help_coc6_ccb", &["CCB<=55"]),
    ("CC(k)<=s, CCB(k)<=s", "help_coc6_broken", &["CCB(96)<=60"]),
    ("CBR(a,b), CBRB(a,b)", "help_coc6_cbr", &["CBR(50,20)", "CBRB(70,30)"]),
    ("RES(a-b), RESB(a-b)", "help_coc6_res", &["RES(12-10)", "RESB(10-15)"]),
    (".rc name s±k, .rc N#name s", "help_dot_rc6", &[".rc 侦查60", ".rc 侦查60-20", ".rc 2#侦查50"]),
];
