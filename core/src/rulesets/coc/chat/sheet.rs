//! The character-sheet dot commands of Chinese CoC dice bots (SealDice, Dice!), for
//! `system: coc7`: `.sc` (sanity roll), `.coc` / `.coc7` (characteristics),
//! `.en` (skill development) and `.setcoc` (the house rule). The library keeps no
//! storage: a command that changes the card returns the changed card in
//! `result.card`, and `.setcoc` the variants object in `result.variants`; the bot
//! stores them and passes them to the next call.
//!
//! The seeds and RULES.md have no sanity, creation or development rules (no rule
//! IDs); these commands follow the 7th-edition rulebook's standard mechanics, as far
//! as the bots' users need them:
//! * `.sc s/f [SAN]` — one d100 (the tens die, then the ones die, as `CC<=s`) against
//!   SAN (typed, else the card's 理智 / SAN / 正気度 under any synonym). The level is
//!   `CC`'s under `variants.coc7_rule` (RULINGS coc7_house Checks). A success loses
//!   `s`, a failure `f`, a fumble the maximum of `f` (no dice rolled for it); a
//!   critical is a success. SAN does not go below 0. `s` and `f` are a whole number or
//!   a sum of `NdS` and numbers (`1`, `1D6`, `1D3+1`, `2D6+1D10`): its dice are rolled
//!   after the d100.
//! * `.coc [n]`, `.coc7 [n]` — n sets (1–10, default 1) of STR, CON, SIZ, DEX, APP,
//!   INT, POW, EDU, Luck in that order: 3D6×5, except SIZ, INT, EDU (2D6+6)×5; the
//!   dice in the same order (24 d6 a set). The total is without Luck, then with it.
//! * `.en name [value]` — a d100 (tens, ones); above the skill, or 96 or more,
//!   improves it by 1D10 (one d10 rolled after), to at most 1000. A skill the card
//!   lacks starts from its base value in the skill pack (急救 30).
//! * `.setcoc [n]` — house rule n (0–5, RULINGS coc7_house Checks' numbering) as the
//!   variants to store; without n, the rule in force.
//!
//! A value taken from the card updates the card (`result.card`: the whole card with
//! the new value under its own entry); a typed value changes nothing stored.

use crate::chat::catalog::{fmt, msg};
use crate::chat::lex::{is_space, normalize, refuse, Fail};
use crate::chat::outcome::Outcome;
use crate::chat::types::{CmdKind, CmdLang, CmdRunArgs, CmdRunResult, CmdVariants};
use crate::coc7::check::{roll_d100, Coc7Level};
use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::json::{RawJson, ToJson};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Most sets one `.coc` rolls.
pub const MAX_COC_SETS: i64 = 10;
/// Most dice in one part of a `.sc` loss (all its terms together), and the most sides.
pub const MAX_LOSS_DICE: i64 = 100;
pub const MAX_LOSS_SIDES: i64 = 1000;

enum Cmd {
    Sc,
    Coc,
    Coc6,
    En,
    SetCoc,
}

/// The command `text` is, and the offset (in chars) where its arguments start.
fn which(text: &str) -> Option<(Cmd, usize)> {
    if !text.trim_start_matches(is_space).starts_with(['.', '。', '．']) {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let lead = chars.iter().take_while(|c| is_space(**c)).count();
    if !matches!(chars.get(lead), Some('.' | '。' | '．')) {
        return None;
    }
    let word: String = chars.iter().skip(lead + 1).take(6).map(|&c| normalize(c)).collect();
    let (cmd, len) = if word.starts_with("SETCOC") {
        (Cmd::SetCoc, 6)
    } else if word.starts_with("COC6") {
        (Cmd::Coc6, 4)
    } else if word.starts_with("COC7") {
        (Cmd::Coc, 4)
    } else if word.starts_with("COC") {
        (Cmd::Coc, 3)
    } else if word.starts_with("SC") {
        (Cmd::Sc, 2)
    } else if word.starts_with("EN") {
        (Cmd::En, 2)
    } else {
        return None;
    };
    let at = lead + 1 + len;
    // `.scroll`, `.encounter`: a word, not the command.
    if chars.get(at).is_some_and(|&c| normalize(c).is_ascii_alphabetic()) {
        return None;
    }
    Some((cmd, at))
}

/// The reply to a sheet dot command, or `None` when `args.text` is not one (or the
/// system is not `coc7`).
pub(crate) fn try_sheet(args: &CmdRunArgs, dice: &mut Dice) -> Result<Option<CmdRunResult>> {
    let Some((mut cmd, at)) = which(&args.text) else { return Ok(None) };
    // 6th edition: `.coc` and `.coc6` only (characteristics); 7th: `.coc6` too.
    match (args.system, &cmd) {
        (Some(crate::chat::CmdSystem::Coc7), _) => {}
        (Some(crate::chat::CmdSystem::Coc6), Cmd::Coc | Cmd::Coc6) => cmd = Cmd::Coc6,
        _ => return Ok(None),
    }
    let chars: Vec<char> = args.text.chars().collect();
    let lang = args.lang;
    let mut res = CmdRunResult::unmatched();
    res.matched = true;
    let head: String = chars[..at].iter().collect::<String>().trim_start_matches(is_space).to_string();
    res.command = Some(head.to_lowercase());
    let outcome = match cmd {
        Cmd::Sc => sanity(&chars, at, args, dice),
        Cmd::Coc => characteristics(&chars, at, lang, dice, false),
        Cmd::Coc6 => characteristics(&chars, at, lang, dice, true),
        Cmd::En => development(&chars, at, args, dice),
        Cmd::SetCoc => set_rule(&chars, at, lang, args.variants),
    };
    match outcome {
        Ok(Ok((o, comment))) => {
            res.comment = comment;
            let mut res = crate::chat::fill(res, o);
            res.rolls = dice.take_rolls();
            Ok(Some(res))
        }
        Ok(Err(Missing(name))) => {
            let name = crate::chat::short(&name);
            res.text = fmt(lang, "skill_missing", &[("name", name.clone())])?;
            res.parse_error = Some(crate::chat::CmdParseError {
                code: "skill_missing".into(),
                message: fmt(CmdLang::En, "skill_missing", &[("name", name)])?,
                position: at + 1,
            });
            Ok(Some(res))
        }
        Err(Fail::Parse { key, pos }) => crate::chat::parse_failure(res, lang, key, pos + 1).map(Some),
        Err(Fail::Refuse(r)) => crate::chat::refusal(res, lang, *r).map(Some),
        Err(Fail::Hard(e)) => Err(e),
    }
}

/// A value the command needs that neither the text nor the card has.
struct Missing(String);

type Step = std::result::Result<std::result::Result<(Outcome, Option<String>), Missing>, Fail>;

/// Skip spaces from `i`.
fn skip(chars: &[char], mut i: usize) -> usize {
    while chars.get(i).is_some_and(|c| is_space(*c)) {
        i += 1;
    }
    i
}

/// A whole number at `i` (ASCII or full-width digits): (value, end).
fn number(chars: &[char], i: usize) -> Option<(i64, usize)> {
    let end = (i..chars.len()).find(|&k| !normalize(chars[k]).is_ascii_digit()).unwrap_or(chars.len());
    if end == i || end - i > 7 {
        return None;
    }
    let s: String = chars[i..end].iter().map(|&c| normalize(c)).collect();
    s.parse().ok().map(|v| (v, end))
}

/// The text from `i` to the end, trimmed (`None` when empty).
fn rest(chars: &[char], i: usize) -> Option<String> {
    let s: String = chars.get(i..).unwrap_or(&[]).iter().collect();
    let s = s.trim_matches(is_space);
    (!s.is_empty()).then(|| s.to_string())
}

/// One part of a `.sc` loss: `(count, sides)` dice (sides 0 for a constant `count`).
type Part = Vec<(i64, i64, i64)>; // (sign, count, sides)

/// Read a loss part from `i` up to `/`, a space or the end: (terms, end, text).
fn loss_part(chars: &[char], mut i: usize) -> std::result::Result<(Part, usize, String), Fail> {
    let start = i;
    let mut terms = Vec::new();
    let mut sign = 1;
    loop {
        let count = match number(chars, i) {
            Some((n, e)) => {
                i = e;
                Some(n)
            }
            None => None,
        };
        let term = if chars.get(i).map(|&c| normalize(c)) == Some('D') {
            let Some((sides, e)) = number(chars, i + 1) else {
                return Err(Fail::Parse { key: "expected_number", pos: i + 1 });
            };
            i = e;
            let count = count.unwrap_or(1);
            let before: i64 = terms.iter().filter(|t: &&(i64, i64, i64)| t.2 > 0).map(|t| t.1).sum();
            if !(1..=MAX_LOSS_DICE - before).contains(&count) || !(1..=MAX_LOSS_SIDES).contains(&sides) {
                let error = Error::out_of_range(
                    "text",
                    format_args!(
                        "a sanity loss rolls 1 to {MAX_LOSS_DICE} dice of 1 to {MAX_LOSS_SIDES} sides"
                    ),
                );
                return Err(refuse(error, "sc_dice", &[("dice", MAX_LOSS_DICE), ("sides", MAX_LOSS_SIDES)]));
            }
            (sign, count, sides)
        } else {
            let Some(n) = count else { return Err(Fail::Parse { key: "expected_number", pos: i }) };
            (sign, n, 0)
        };
        terms.push(term);
        match chars.get(i).map(|&c| normalize(c)) {
            Some('+') => sign = 1,
            Some('-') => sign = -1,
            _ => break,
        }
        i += 1;
    }
    let text: String = chars[start..i].iter().map(|&c| normalize(c)).collect();
    Ok((terms, i, text))
}

/// Roll a loss part: (total, faces).
fn roll_part(part: &Part, dice: &mut Dice) -> std::result::Result<(i64, Vec<u32>), Fail> {
    let (mut total, mut faces) = (0i64, Vec::new());
    for &(sign, count, sides) in part {
        if sides == 0 {
            total += sign * count;
            continue;
        }
        for _ in 0..count {
            let f = dice.roll(sides as u32)?;
            faces.push(f);
            total += sign * i64::from(f);
        }
    }
    Ok((total.max(0), faces))
}

/// The largest a part can give.
fn max_part(part: &Part) -> i64 {
    part.iter()
        .map(|&(sign, count, sides)| if sign > 0 { count * sides.max(1) } else { -count })
        .sum::<i64>()
        .max(0)
}

fn level_key(l: Coc7Level) -> &'static str {
    match l {
        Coc7Level::Critical => "coc7_critical",
        Coc7Level::Fumble => "coc7_fumble",
        l if l.is_success() => "coc7_success",
        _ => "coc7_failure",
    }
}

/// The card with `value` under the entry that holds `name`, or under `name` itself
/// (a skill grown from its base value) while the card has room for it.
fn updated(card: Option<&BTreeMap<String, i64>>, name: &str, value: i64) -> Option<BTreeMap<String, i64>> {
    use crate::chat::card::{existing_key, MAX_CARD_ENTRIES, MAX_NAME_CHARS};
    let card = card?;
    let room = card.len() < MAX_CARD_ENTRIES && name.chars().count() <= MAX_NAME_CHARS;
    let key = existing_key(card, name).or_else(|| room.then(|| name.to_string()))?;
    let mut c = card.clone();
    c.insert(key, value);
    Some(c)
}

/// `.sc s/f [SAN] [comment]`.
fn sanity(chars: &[char], at: usize, args: &CmdRunArgs, dice: &mut Dice) -> Step {
    let lang = args.lang;
    let i = skip(chars, at);
    let (success, i, s_text) = loss_part(chars, i)?;
    if chars.get(i) != Some(&'/') {
        return Err(Fail::Parse { key: "sc_expected_slash", pos: i });
    }
    let (failure, i, f_text) = loss_part(chars, i + 1)?;
    if chars.get(i).is_some_and(|c| !is_space(*c)) {
        return Err(Fail::Parse { key: "unexpected", pos: i });
    }
    // A typed SAN (`.sc 1/1d6 60`, `.sc 1/1d6 理智60`), else the card's.
    let j = skip(chars, i);
    let name_end = (j..chars.len())
        .find(|&k| normalize(chars[k]).is_ascii_digit() || is_space(chars[k]))
        .unwrap_or(chars.len());
    let typed = number(chars, name_end).filter(|_| {
        let name: String = chars[j..name_end].iter().collect();
        name.is_empty() || crate::chat::card::lookup(&[(name, 0)].into(), "理智").is_some()
    });
    let (san, comment, from_card) = match typed {
        Some((v, e)) => (v, rest(chars, e), false),
        None => match args.card.as_ref().and_then(|c| crate::chat::card::lookup(c, "理智")) {
            Some(v) => (v, rest(chars, j), true),
            None => return Ok(Err(Missing(msg(lang, "sc_san")?.to_string()))),
        },
    };
    if san > 1000 {
        let error = Error::out_of_range("text", format_args!("SAN is 0 to 1000, not {san}"));
        return Err(refuse(error, "sc_san", &[("n", san)]));
    }
    let (roll, _) = roll_d100(dice, 0).map_err(crate::chat::lex::hard)?;
    let level = super::level7(roll, san, args.variants.coc7_rule);
    let ok = level.is_success();
    let (loss, loss_text) = if ok {
        let (l, faces) = roll_part(&success, dice)?;
        (l, shown(&s_text, &success, &faces, l))
    } else if level == Coc7Level::Fumble {
        let l = max_part(&failure);
        let text = if failure.iter().any(|t| t.2 > 0) {
            format!("{} = {l}", fmt(lang, "sc_max", &[("expr", f_text.clone())])?)
        } else {
            l.to_string()
        };
        (l, text)
    } else {
        let (l, faces) = roll_part(&failure, dice)?;
        (l, shown(&f_text, &failure, &faces, l))
    };
    let after = (san - loss).max(0);
    let text = format!(
        "{} (1D100<={san}) ＞ {roll} ＞ {} ＞ {} ＞ {}",
        msg(lang, "sc_head")?,
        msg(lang, level_key(level))?,
        fmt(lang, "sc_loss", &[("loss", loss_text)])?,
        fmt(lang, "sc_after", &[("before", san.to_string()), ("after", after.to_string())])?
    );
    let card = if from_card { updated(args.card.as_ref(), "理智", after) } else { None };
    let result = json!({
        "san": san, "roll": roll, "level": level.to_json(), "success": ok,
        "loss": loss, "san_after": after, "card": card.map(|c| c.to_json()),
    });
    let mut o = Outcome::new(CmdKind::Coc7Sanity, text)
        .total(after)
        .success(Some(ok))
        .flags(level == Coc7Level::Critical, level == Coc7Level::Fumble);
    o.result = Some(RawJson::of(&result));
    Ok(Ok((o, comment)))
}

/// `1D6[4] = 4`, `1D3+1[2] = 3`, or a constant alone.
fn shown(text: &str, part: &Part, faces: &[u32], total: i64) -> String {
    if part.iter().all(|t| t.2 == 0) {
        return total.to_string();
    }
    format!("{text}{} = {total}", crate::chat::outcome::faces(faces))
}

/// `.coc [n]` / `.coc7 [n]`; `.coc6 [n]` (`sixth`).
fn characteristics(chars: &[char], at: usize, lang: CmdLang, dice: &mut Dice, sixth: bool) -> Step {
    let i = skip(chars, at);
    let (n, i) = match number(chars, i) {
        Some((n, e)) => (n, e),
        None => (1, i),
    };
    if chars.get(i).is_some_and(|c| !is_space(*c)) {
        return Err(Fail::Parse { key: "unexpected", pos: i });
    }
    if !(1..=MAX_COC_SETS).contains(&n) {
        let error = Error::out_of_range("text", format_args!(".coc rolls 1 to {MAX_COC_SETS} sets, not {n}"));
        return Err(refuse(error, "coc_sets", &[("max", MAX_COC_SETS), ("n", n)]));
    }
    // (key, 3D6×5 or (2D6+6)×5)
    const ORDER: [(&str, bool); 9] = [
        ("str", true),
        ("con", true),
        ("siz", false),
        ("dex", true),
        ("app", true),
        ("int", false),
        ("pow", true),
        ("edu", false),
        ("luck", true),
    ];
    if sixth {
        return characteristics6(n, lang, dice);
    }
    let mut lines = vec![msg(lang, "coc_head")?.to_string()];
    let mut sets = Vec::new();
    for k in 1..=n {
        let mut values = serde_json::Map::new();
        let mut parts = Vec::new();
        let mut total = 0;
        for (key, three) in ORDER {
            let v = if three {
                (0..3).map(|_| dice.roll(6).map(i64::from)).sum::<Result<i64>>()? * 5
            } else {
                ((0..2).map(|_| dice.roll(6).map(i64::from)).sum::<Result<i64>>()? + 6) * 5
            };
            if key != "luck" {
                total += v;
            }
            values.insert(key.to_string(), json!(v));
            parts.push(format!("{}:{v}", msg(lang, &format!("coc_{key}"))?));
        }
        let luck = values.get("luck").and_then(Value::as_i64).unwrap_or(0);
        values.insert("total".into(), json!(total));
        values.insert("total_with_luck".into(), json!(total + luck));
        let sum =
            fmt(lang, "coc_total", &[("total", total.to_string()), ("luck", (total + luck).to_string())])?;
        let prefix = if n > 1 { format!("#{k} ") } else { String::new() };
        lines.push(format!("{prefix}{} ＞ {sum}", parts.join(" ")));
        sets.push(Value::Object(values));
    }
    let mut o = Outcome::new(CmdKind::Coc7Characteristics, lines.join("\n"));
    o.result = Some(RawJson::of(&json!({ "sets": sets })));
    Ok(Ok((o, None)))
}

/// `.coc6 [n]`: n sets of the 6th-edition characteristics, in this order: STR, CON,
/// POW, DEX, APP 3D6; SIZ, INT 2D6+6; EDU 3D6+3 (the dice in the same order, 22 d6 a
/// set). The total is of the eight.
fn characteristics6(n: i64, lang: CmdLang, dice: &mut Dice) -> Step {
    // (key, number of d6, constant)
    const ORDER: [(&str, usize, i64); 8] = [
        ("str", 3, 0),
        ("con", 3, 0),
        ("pow", 3, 0),
        ("dex", 3, 0),
        ("app", 3, 0),
        ("siz", 2, 6),
        ("int", 2, 6),
        ("edu", 3, 3),
    ];
    let mut lines = vec![msg(lang, "coc6_head")?.to_string()];
    let mut sets = Vec::new();
    for k in 1..=n {
        let mut values = serde_json::Map::new();
        let mut parts = Vec::new();
        let mut total = 0;
        for (key, count, plus) in ORDER {
            let v = (0..count).map(|_| dice.roll(6).map(i64::from)).sum::<Result<i64>>()? + plus;
            total += v;
            values.insert(key.to_string(), json!(v));
            parts.push(format!("{}:{v}", msg(lang, &format!("coc_{key}"))?));
        }
        values.insert("total".into(), json!(total));
        let sum = fmt(lang, "coc6_total", &[("total", total.to_string())])?;
        let prefix = if n > 1 { format!("#{k} ") } else { String::new() };
        lines.push(format!("{prefix}{} ＞ {sum}", parts.join(" ")));
        sets.push(Value::Object(values));
    }
    let mut o = Outcome::new(CmdKind::Coc6Characteristics, lines.join("\n"));
    o.result = Some(RawJson::of(&json!({ "sets": sets })));
    Ok(Ok((o, None)))
}

/// `.en name [value]`; `.en name name …` (no values: each from the card, one after
/// another, at most 20): one development roll per skill, the card updated as it goes.
fn development(chars: &[char], at: usize, args: &CmdRunArgs, dice: &mut Dice) -> Step {
    let lang = args.lang;
    let j = skip(chars, at);
    let words: Vec<String> = chars[j..]
        .iter()
        .collect::<String>()
        .split(is_space)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    if words.len() > 1 && words.len() <= 20 && !chars[j..].iter().any(|&c| normalize(c).is_ascii_digit()) {
        let mut card = args.card.clone();
        let (mut texts, mut items) = (Vec::new(), Vec::new());
        let mut any = false;
        for w in &words {
            let one = CmdRunArgs { text: format!(".en {w}"), card: card.clone(), ..args.clone() };
            let one_chars: Vec<char> = one.text.chars().collect();
            let (o, _) = match development(&one_chars, 3, &one, dice)? {
                Ok(x) => x,
                Err(m) => return Ok(Err(m)),
            };
            let r = o.result.as_ref().map(RawJson::to_value).unwrap_or(Value::Null);
            if let Some(c) = r.get("card").filter(|c| !c.is_null()) {
                card = crate::json::from_value(c).ok().or(card);
            }
            any |= o.success == Some(true);
            texts.push(o.text);
            items.push(r);
        }
        let result = json!({ "items": items, "card": card.map(|c| c.to_json()) });
        let mut o = Outcome::new(CmdKind::Coc7Development, texts.join("\n")).success(Some(any));
        o.result = Some(RawJson::of(&result));
        return Ok(Ok((o, None)));
    }
    let name_end = (j..chars.len()).find(|&k| normalize(chars[k]).is_ascii_digit()).unwrap_or(chars.len());
    let name: String = chars[j..name_end].iter().collect::<String>().trim_matches(is_space).to_string();
    let (skill, comment, from_card) = match number(chars, name_end) {
        Some((v, e)) => {
            if chars.get(e).is_some_and(|c| !is_space(*c)) {
                return Err(Fail::Parse { key: "unexpected", pos: e });
            }
            (v, rest(chars, e), false)
        }
        None if name.is_empty() => return Err(Fail::Parse { key: "expected_number", pos: j }),
        // A skill the card lacks grows from its base value (the skill pack's).
        None => match args.card.as_ref().and_then(|c| {
            crate::chat::card::lookup(c, &name)
                .or_else(|| crate::chat::card::default_value(c, &name, args.system, args.skill_pack.as_ref()))
        }) {
            Some(v) => (v, None, true),
            None => return Ok(Err(Missing(name))),
        },
    };
    if skill > 1000 {
        let error = Error::out_of_range("text", format_args!("a skill is 0 to 1000, not {skill}"));
        return Err(refuse(error, "en_skill", &[("n", skill)]));
    }
    let (roll, _) = roll_d100(dice, 0).map_err(crate::chat::lex::hard)?;
    let improved = i64::from(roll) > skill || roll >= 96;
    let label = if name.is_empty() { String::new() } else { format!("{name} ") };
    let (gain, after, tail) = if improved {
        let g = i64::from(dice.roll(10)?);
        let after = (skill + g).min(1000);
        let tail = format!("{} ＞ 1D10[{g}] ＞ {label}{skill} → {after}", msg(lang, "en_up")?);
        (g, after, tail)
    } else {
        (0, skill, format!("{} ＞ {label}{skill}", msg(lang, "en_none")?))
    };
    let text = format!("{} {label}(1D100>{skill}) ＞ {roll} ＞ {tail}", msg(lang, "en_head")?);
    let card = if from_card && improved { updated(args.card.as_ref(), &name, after) } else { None };
    let result = json!({
        "skill": name, "before": skill, "roll": roll, "improved": improved, "gain": gain,
        "after": after, "card": card.map(|c| c.to_json()),
    });
    let mut o = Outcome::new(CmdKind::Coc7Development, text).total(after).success(Some(improved));
    o.result = Some(RawJson::of(&result));
    Ok(Ok((o, comment)))
}

/// `.setcoc [n]`.
fn set_rule(chars: &[char], at: usize, lang: CmdLang, variants: CmdVariants) -> Step {
    let i = skip(chars, at);
    let (rule, key) = match number(chars, i) {
        Some((n, e)) => {
            if skip(chars, e) != chars.len() {
                return Err(Fail::Parse { key: "unexpected", pos: skip(chars, e) });
            }
            (n, "setcoc_set")
        }
        None if i == chars.len() => (variants.coc7_rule, "setcoc_show"),
        None => return Err(Fail::Parse { key: "expected_number", pos: i }),
    };
    if !(0..=5).contains(&rule) {
        let error = Error::out_of_range("text", format_args!("setcoc takes a house rule 0 to 5, not {rule}"));
        return Err(refuse(error, "setcoc", &[("n", rule)]));
    }
    let desc = msg(lang, &format!("setcoc_rule_{rule}"))?;
    let text = fmt(lang, key, &[("rule", rule.to_string()), ("desc", desc.to_string())])?;
    let v = CmdVariants { coc7_rule: rule, ..variants };
    let mut o = Outcome::new(CmdKind::Coc7HouseRule, text).total(rule);
    o.result = Some(RawJson::of(&json!({ "variants": v.to_json() })));
    Ok(Ok((o, None)))
}

#[cfg(test)]
mod tests {
    use crate::chat::{run, CmdRunArgs, CmdSystem};

    /// Odd and extreme sheet lines never panic: a reply, a refusal or chat.
    #[test]
    fn odd_lines() {
        let card: std::collections::BTreeMap<String, i64> =
            [("理智".to_string(), 1000), ("侦查".to_string(), 0)].into();
        let long_sum = ["60d1000"; 2].join("+");
        for text in [
            ".sc",
            ".sc /",
            ".sc 1/",
            ".sc 9999999/9999999",
            ".sc 1d0/1",
            ".sc d/d",
            ".sc 1/1d6 99999999",
            &format!(".sc 1/{long_sum}"),
            ".sc 1//1",
            ".sc1/1d6x",
            ".coc 0",
            ".coc 9999999",
            ".coc7x",
            ".coc -1",
            ".en",
            ".en 侦查",
            ".en 9999999",
            ".en 侦查60x",
            ".setcoc -1",
            ".setcoc 99999999",
            ".setcoc 2 3",
            ".setcoc x",
            "。SC１/１Ｄ６",
            ".sc\u{3000}1/1",
        ] {
            for card in [None, Some(card.clone())] {
                let args = CmdRunArgs {
                    text: text.into(),
                    system: Some(CmdSystem::Coc7),
                    source: Some(1).into(),
                    card,
                    ..Default::default()
                };
                let r = run(&args).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert!(!r.matched || !r.text.is_empty(), "{text}: {r:?}");
            }
        }
    }
}
