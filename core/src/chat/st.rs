//! `command.parse_st` — the `.st` line of Chinese dice bots (SealDice, Dice! and
//! their kin) read into a character card, or into an update of the card passed in.
//! The library keeps no storage: the bot stores the card it gets back and passes it
//! to `command.run` (see [`super::card`]).
//!
//! | typed | what it does |
//! |---|---|
//! | `.st 力量50敏捷60侦查70`, `.st 目星 60 聞き耳 50`, `.st Spot Hidden 60` | set the values |
//! | `.st 力量:50 敏捷=60`, `.st 力量：50，敏捷＝60` | the same (SealDice/Dice! separators) |
//! | `.st 侦查+10`, `.st 理智-5` | a relative update of a value the card has |
//! | `.st del 侦查 聆听`, `.st rm 侦查` | remove entries |
//! | `.st clr`, `.st clear` | empty the card |
//! | `.st`, `.st show` | the card as it is (nothing changes) |
//!
//! A name is anything up to its value (kana, kanji, letters, inner spaces); a name
//! the card already has under a CoC 7th-edition synonym (侦查 / 目星 / Spot Hidden)
//! updates that entry, so one skill never has two entries. Values are whole numbers
//! 0–1000, as `command.run`'s `card` takes them; dice (`.st 理智-1d6`) are not read
//! (use `.sc` for a sanity loss). A line that cannot be read is a `parse_error`
//! reply (localized, naming the character), and the card comes back unchanged.

use super::card::{self, MAX_CARD_ENTRIES, MAX_NAME_CHARS};
use super::catalog;
use super::lex::normalize;
use super::types::{CmdLang, CmdParseError};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use std::collections::BTreeMap;

/// Longest `.st` line read, in characters.
pub const MAX_ST_CHARS: usize = 4_000;

/// Arguments of `command.parse_st`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CmdStArgs {
    /// The chat line, `.st …` (the dot may be `.`, `。` or `．`; at most 4,000 characters).
    pub text: String,
    /// The card to update (as `command.run`'s `card`); none for a new card.
    #[serde(default)]
    pub card: Option<BTreeMap<String, i64>>,
    /// Reply language: `ja` (default), `zh-Hans`, `zh-Hant`, `en` or `ko` (`ko`: in English), or a locale tag.
    #[serde(default)]
    pub lang: CmdLang,
}

/// What `.st` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CmdStAction {
    /// Values set or changed (`.st 侦查60`, `.st 侦查+10`).
    Set,
    /// Entries removed (`.st del 侦查`).
    Delete,
    /// The card emptied (`.st clr`).
    Clear,
    /// Nothing changed (`.st`, `.st show`): `text` lists the card.
    Show,
}

/// One entry that `.st` changed.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdStChange {
    /// The entry's name on the card (an existing synonym's spelling when the card had one).
    pub name: String,
    /// Its value before (null for a new entry).
    pub before: Option<i64>,
    /// Its value after (null for a removed entry).
    pub after: Option<i64>,
}

/// Result of `command.parse_st`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdStResult {
    /// False when `text` is not a `.st` line (nothing to reply; `card` is the card passed in).
    pub matched: bool,
    /// What it did (null when not matched or not read).
    pub action: Option<CmdStAction>,
    /// The card after the line (the card passed in, unchanged, on a parse error).
    pub card: BTreeMap<String, i64>,
    /// The entries changed, in the order typed.
    pub changes: Vec<CmdStChange>,
    /// The reply, in the requested language.
    pub text: String,
    /// Set when the line is a `.st` that cannot be read (the card is unchanged).
    pub parse_error: Option<CmdParseError>,
    /// The entries of a `.st` that could not be read and were left out (the others
    /// are saved; `text` names them): each as typed, with its reason.
    pub skipped: Vec<CmdStSkipped>,
}

/// An entry of a `.st` line that could not be read (see [`CmdStResult::skipped`]).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdStSkipped {
    /// The entry as typed (`db-1d4`).
    pub text: String,
    /// Why, as a parse error (code, English message, 1-based position in the line).
    pub error: CmdParseError,
}

/// `command.parse_st` — read a `.st` line into a card (see the module docs).
pub fn parse_st(args: &CmdStArgs) -> Result<CmdStResult> {
    let before = args.card.clone().unwrap_or_default();
    card::validate(&before)?;
    let n = args.text.chars().count();
    if n > MAX_ST_CHARS {
        return Err(Error::field(
            ErrorCode::LimitExceeded,
            "text",
            format_args!("a .st line has at most {MAX_ST_CHARS} characters, not {n}"),
        ));
    }
    let mut res = CmdStResult {
        matched: false,
        action: None,
        card: before.clone(),
        changes: Vec::new(),
        text: String::new(),
        parse_error: None,
        skipped: Vec::new(),
    };
    let chars: Vec<char> = args.text.chars().collect();
    let lead = chars.iter().take_while(|c| super::lex::is_space(**c)).count();
    let is_st = matches!(chars.get(lead), Some('.' | '。' | '．'))
        && chars.get(lead + 1).map(|&c| normalize(c)) == Some('S')
        && chars.get(lead + 2).map(|&c| normalize(c)) == Some('T')
        && !chars
            .get(lead + 3)
            .is_some_and(|&c| normalize(c).is_ascii_alphabetic() && !starts_word(&chars, lead + 3));
    if !is_st {
        return Ok(res);
    }
    res.matched = true;
    let lang = args.lang;
    // Offsets below are into `chars`; positions reported are 1-based.
    let body = lead + 3;
    match read(&chars, body, &before) {
        Ok((action, card, changes, skipped)) => {
            res.text = reply(lang, action, &card, &changes)?;
            if !skipped.is_empty() {
                let items: Vec<String> = skipped.iter().map(|k| format!("「{}」", short(&k.text))).collect();
                res.text.push_str(&catalog::fmt(lang, "st_skipped", &[("items", items.join(""))])?);
            }
            for k in skipped {
                let message = catalog::fmt(CmdLang::En, k.fail.key, &k.fail.vars)?;
                let error =
                    CmdParseError { code: k.fail.code.to_string(), message, position: k.fail.pos + 1 };
                res.skipped.push(CmdStSkipped { text: k.text, error });
            }
            res.action = Some(action);
            res.card = card;
            res.changes = changes;
        }
        Err(StFail { code, key, pos, vars }) => {
            let reason = catalog::fmt(lang, key, &vars)?;
            let message = catalog::fmt(CmdLang::En, key, &vars)?;
            res.text =
                catalog::fmt(lang, "parse_error", &[("pos", (pos + 1).to_string()), ("reason", reason)])?;
            res.parse_error = Some(CmdParseError { code: code.to_string(), message, position: pos + 1 });
        }
    }
    Ok(res)
}

/// `command.run`'s answer to a `.st` line: [`parse_st`]'s reply, with its result
/// (the new card in `result.card`) as the structured result; `None` for another line.
pub(crate) fn run_st(args: &super::CmdRunArgs) -> Result<Option<super::CmdRunResult>> {
    // Cheap test first: this runs ahead of every chat line.
    if !args.text.trim_start_matches(super::lex::is_space).starts_with(['.', '。', '．']) {
        return Ok(None);
    }
    let st = parse_st(&CmdStArgs { text: args.text.clone(), card: args.card.clone(), lang: args.lang })?;
    if !st.matched {
        return Ok(None);
    }
    let mut res = super::CmdRunResult::unmatched();
    res.matched = true;
    res.command = Some(".st".into());
    res.text = st.text.clone();
    res.parse_error = st.parse_error.clone();
    if res.parse_error.is_none() {
        res.kind = Some(super::CmdKind::CardUpdate);
        res.result = Some(crate::json::RawJson::of(&st));
    }
    Ok(Some(res))
}

/// `del`, `rm`, `clr`, `clear`, `show` right after `.st` (`.stshow` is `.st show`).
fn starts_word(chars: &[char], at: usize) -> bool {
    let word: String = chars.iter().skip(at).take(5).map(|&c| normalize(c)).collect();
    ["DEL", "RM", "CLR", "CLEAR", "SHOW"].iter().any(|w| word.starts_with(w))
}

/// A `.st` that cannot be read: the `parse_error` code, the catalog key of the
/// reason and its placeholders, the 0-based character offset.
struct StFail {
    code: &'static str,
    key: &'static str,
    pos: usize,
    vars: Vec<(&'static str, String)>,
}

/// A failure whose reason is `command.run`'s (`perr_<code>`), or `.st`'s own (`st_<code>`).
fn fail<T>(code: &'static str, pos: usize) -> std::result::Result<T, StFail> {
    let key = match code {
        "expected_number" => "perr_expected_number",
        "unexpected" => "perr_unexpected",
        "expected_name" => "st_expected_name",
        "name_too_long" => "st_name_too_long",
        _ => "st_too_many",
    };
    Err(StFail { code, key, pos, vars: Vec::new() })
}

/// The card lacks `name` (a relative update, a removal).
fn missing<T>(pos: usize, name: &str) -> std::result::Result<T, StFail> {
    Err(StFail { code: "skill_missing", key: "st_missing", pos, vars: vec![("name", short(name))] })
}

fn short(s: &str) -> String {
    let mut out: String = s.chars().take(32).collect();
    if s.chars().nth(32).is_some() {
        out.push('…');
    }
    out
}

type Read = (CmdStAction, BTreeMap<String, i64>, Vec<CmdStChange>, Vec<Skip>);

/// An entry skipped: as typed, and why.
struct Skip {
    text: String,
    fail: StFail,
}

fn is_sep(c: char) -> bool {
    super::lex::is_space(c) || matches!(c, ',' | '，' | '、' | ';' | '；' | '|')
}

/// The card entry `name` lands on: an existing entry under a synonym, else `name`.
fn entry_name(card: &BTreeMap<String, i64>, name: &str) -> String {
    card::existing_key(card, name).unwrap_or_else(|| name.to_string())
}

fn read(chars: &[char], body: usize, before: &BTreeMap<String, i64>) -> std::result::Result<Read, StFail> {
    let skip_sep = |mut i: usize| {
        while chars.get(i).is_some_and(|&c| is_sep(c)) {
            i += 1;
        }
        i
    };
    let mut i = skip_sep(body);
    let word_end = (i..chars.len()).find(|&k| is_sep(chars[k])).unwrap_or(chars.len());
    let word: String = chars[i..word_end].iter().map(|&c| normalize(c)).collect();
    let mut card = before.clone();
    let mut changes = Vec::new();
    match word.as_str() {
        "" | "SHOW" if skip_sep(word_end) == chars.len() => {
            return Ok((CmdStAction::Show, card, changes, Vec::new()))
        }
        "CLR" | "CLEAR" if skip_sep(word_end) == chars.len() => {
            changes = card
                .iter()
                .map(|(k, v)| CmdStChange { name: k.clone(), before: Some(*v), after: None })
                .collect();
            return Ok((CmdStAction::Clear, BTreeMap::new(), changes, Vec::new()));
        }
        "SHOW" | "CLR" | "CLEAR" => return fail("unexpected", skip_sep(word_end)),
        "DEL" | "RM" => {
            let mut k = skip_sep(word_end);
            if k == chars.len() {
                return fail("expected_name", k);
            }
            while k < chars.len() {
                let end = (k..chars.len()).find(|&j| is_sep(chars[j])).unwrap_or(chars.len());
                let name: String = chars[k..end].iter().collect();
                let Some(key) = card::existing_key(&card, &name) else { return missing(k, &name) };
                let v = card.remove(&key);
                changes.push(CmdStChange { name: key, before: v, after: None });
                k = skip_sep(end);
            }
            return Ok((CmdStAction::Delete, card, changes, Vec::new()));
        }
        _ => {}
    }
    // Entries: a name, an optional `:`/`=`, an optional sign, a number. An entry that
    // cannot be read is skipped and reported (a card generator's paste mixes forms the
    // reader does not take, `db-1d4`); the rest are saved. Nothing read: an error.
    let mut skipped: Vec<(usize, usize, StFail)> = Vec::new();
    while i < chars.len() {
        match entry(chars, i, &mut card, &mut changes) {
            Ok(next) => i = skip_sep(next),
            Err(f) if f.code == "limit_exceeded" => return Err(f),
            Err(f) => {
                let end = recover(chars, f.pos.max(i));
                skipped.push((i, end, f));
                i = skip_sep(end);
            }
        }
    }
    if changes.is_empty() && !skipped.is_empty() {
        return Err(skipped.swap_remove(0).2);
    }
    let skipped = skipped
        .into_iter()
        .map(|(start, end, f)| Skip {
            text: chars[start..end].iter().collect::<String>().trim_matches(is_sep).to_string(),
            fail: f,
        })
        .collect();
    Ok((CmdStAction::Set, card, changes, skipped))
}

/// Where reading goes on after an entry that failed at `pos`: past the character
/// there, then past the digits, dice letters and arithmetic stuck to it (`1d4`, `-1`).
fn recover(chars: &[char], pos: usize) -> usize {
    let mut j = pos;
    if j < chars.len() && !is_sep(chars[j]) {
        j += 1;
    }
    while chars.get(j).is_some_and(|&c| {
        let n = normalize(c);
        n.is_ascii_digit()
            || matches!(n, 'D' | '+' | '-' | '*' | '/' | '(' | ')' | '.' | ':' | '=' | '：' | '＝')
    }) {
        j += 1;
    }
    j
}

/// One entry from `i`: the card updated and the index after it.
fn entry(
    chars: &[char],
    mut i: usize,
    card: &mut BTreeMap<String, i64>,
    changes: &mut Vec<CmdStChange>,
) -> std::result::Result<usize, StFail> {
    let name_start = i;
    while i < chars.len() {
        let c = normalize(chars[i]);
        if c.is_ascii_digit() || matches!(c, '+' | '-' | ':' | '=' | '：' | '＝') || chars[i] == '−' {
            break;
        }
        i += 1;
    }
    let raw: String = chars[name_start..i].iter().collect();
    let name = raw.trim_matches(is_sep).to_string();
    if name.is_empty() {
        return fail("expected_name", name_start);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return fail("name_too_long", name_start);
    }
    if matches!(chars.get(i).map(|&c| normalize(c)), Some(':' | '=' | '：' | '＝')) {
        i += 1;
        while chars.get(i).is_some_and(|&c| super::lex::is_space(c)) {
            i += 1;
        }
    }
    let sign = match chars.get(i).map(|&c| normalize(c)) {
        Some('+') => Some(1),
        Some('-' | '−') => Some(-1),
        _ => None,
    };
    if sign.is_some() {
        i += 1;
    }
    let digits_start = i;
    while chars.get(i).is_some_and(|&c| normalize(c).is_ascii_digit()) {
        i += 1;
    }
    if i == digits_start {
        return fail("expected_number", i);
    }
    let digits: String = chars[digits_start..i].iter().map(|&c| normalize(c)).collect();
    // After the number: a separator, the end, or the next name (not ASCII
    // a letter then a digit stuck to it: `.st 理智-1d6` is not read as 理智-1 then
    // d6; `力量60str60dex70` is three entries).
    if let Some(&c) = chars.get(i) {
        let n = normalize(c);
        if n.is_ascii_alphabetic() && chars.get(i + 1).is_some_and(|&d| normalize(d).is_ascii_digit()) {
            return fail("unexpected", i);
        }
        if matches!(n, '+' | '-' | '*' | '/' | '(' | ')' | '.') {
            return fail("unexpected", i);
        }
    }
    let number: i64 = digits.parse().unwrap_or(i64::MAX);
    let key = entry_name(card, &name);
    let old = card.get(&key).copied();
    let new = match sign {
        None => number,
        Some(s) => match old {
            Some(o) => o.saturating_add(s * number.min(1_000_000)),
            None => return missing(name_start, &name),
        },
    };
    if !(0..=1000).contains(&new) {
        let vars = vec![("name", short(&key)), ("value", new.to_string())];
        return Err(StFail { code: "out_of_range", key: "st_value_range", pos: name_start, vars });
    }
    card.insert(key.clone(), new);
    match changes.iter_mut().find(|c: &&mut CmdStChange| c.name == key) {
        Some(c) => c.after = Some(new),
        None => changes.push(CmdStChange { name: key, before: old, after: Some(new) }),
    }
    if card.len() > MAX_CARD_ENTRIES {
        return fail("limit_exceeded", name_start);
    }
    Ok(i)
}

fn reply(
    lang: CmdLang,
    action: CmdStAction,
    card: &BTreeMap<String, i64>,
    changes: &[CmdStChange],
) -> Result<String> {
    let list =
        |c: &BTreeMap<String, i64>| c.iter().map(|(k, v)| format!("{k}{v}")).collect::<Vec<_>>().join(" ");
    match action {
        CmdStAction::Show if card.is_empty() => Ok(catalog::msg(lang, "st_empty")?.to_string()),
        CmdStAction::Show => catalog::fmt(lang, "st_show", &[("card", list(card))]),
        CmdStAction::Clear => Ok(catalog::msg(lang, "st_cleared")?.to_string()),
        CmdStAction::Delete => {
            let names: Vec<&str> = changes.iter().map(|c| c.name.as_str()).collect();
            catalog::fmt(lang, "st_deleted", &[("names", names.join(" "))])
        }
        CmdStAction::Set => {
            let items: Vec<String> = changes
                .iter()
                .map(|c| match (c.before, c.after) {
                    (Some(b), Some(a)) if b != a => format!("{}{b}→{a}", c.name),
                    (_, Some(a)) => format!("{}{a}", c.name),
                    _ => c.name.clone(),
                })
                .collect();
            catalog::fmt(lang, "st_set", &[("changes", items.join(" "))])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(text: &str, card: &[(&str, i64)]) -> CmdStResult {
        let card = card.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        parse_st(&CmdStArgs { text: text.into(), card: Some(card), lang: CmdLang::En }).unwrap()
    }

    fn entries(r: &CmdStResult) -> Vec<(String, i64)> {
        r.card.iter().map(|(k, v)| (k.clone(), *v)).collect()
    }

    #[test]
    fn forms() {
        let r = st(".st 力量50敏捷60侦查70", &[]);
        assert_eq!(r.action, Some(CmdStAction::Set));
        assert_eq!(entries(&r), [("侦查".into(), 70), ("力量".into(), 50), ("敏捷".into(), 60)]);
        let r = st("。st 力量:50 敏捷=60，Spot Hidden 25", &[]);
        assert_eq!(r.card.get("Spot Hidden"), Some(&25));
        assert_eq!(r.card.get("敏捷"), Some(&60));
        // A synonym already on the card is the entry updated.
        let r = st(".st 侦查+10 聞き耳-5", &[("目星", 60), ("聆听", 50)]);
        assert_eq!(entries(&r), [("目星".into(), 70), ("聆听".into(), 45)]);
        assert_eq!(r.changes[0], CmdStChange { name: "目星".into(), before: Some(60), after: Some(70) });
        assert_eq!(r.text, "Character card updated: 目星60→70 聆听50→45");
        let r = st(".st del 侦查", &[("目星", 60), ("聆听", 50)]);
        assert_eq!(entries(&r), [("聆听".into(), 50)]);
        let r = st(".st clr", &[("目星", 60)]);
        assert!(r.card.is_empty() && r.action == Some(CmdStAction::Clear));
        let r = st(".st", &[("目星", 60)]);
        assert_eq!((r.action, r.text.as_str()), (Some(CmdStAction::Show), "Character card: 目星60"));
        assert!(!st(".stop", &[]).matched);
        assert!(!st("st 力量50", &[]).matched);
    }

    /// A card generator's paste: names in several languages with their aliases
    /// (`力量60str60`), one entry per skill; what cannot be read is reported and the
    /// rest saved.
    #[test]
    fn generator_paste() {
        let r = st(".st 力量60str60敏捷70dex70体质50con50 db-1d4 图书馆使用50信用20 san55 hp11 移动力8 克苏鲁神话0cm0 闪避35", &[]);
        assert_eq!(r.action, Some(CmdStAction::Set));
        assert!(r.parse_error.is_none());
        let want: BTreeMap<String, i64> = [
            ("力量", 60),
            ("敏捷", 70),
            ("体质", 50),
            ("图书馆使用", 50),
            ("信用", 20),
            ("san", 55),
            ("hp", 11),
            ("移动力", 8),
            ("克苏鲁神话", 0),
            ("闪避", 35),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
        assert_eq!(r.card, want);
        assert_eq!(r.skipped.len(), 1);
        assert_eq!((r.skipped[0].text.as_str(), r.skipped[0].error.code.as_str()), ("db-1d4", "unexpected"));
        assert!(r.text.ends_with(" (could not read, left out: 「db-1d4」)"), "{}", r.text);
        // 信用 and 信用评级, 图书馆 and 图书馆使用 are one entry each.
        let r = st(".st 信用评级30 图书馆40", &[("信用", 20), ("图书馆使用", 50)]);
        assert_eq!(entries(&r), [("信用".into(), 30), ("图书馆使用".into(), 40)]);
    }

    #[test]
    fn errors_leave_the_card() {
        for (text, code, pos) in [
            (".st 侦查", "expected_number", 7),
            (".st 侦查+10", "skill_missing", 5),
            (".st 理智-1d6", "unexpected", 9),
            (".st 50", "expected_name", 5),
            (".st 侦查5000", "out_of_range", 5),
            (".st del 闪避", "skill_missing", 9),
            (".st clr 侦查", "unexpected", 9),
        ] {
            let r = st(text, &[("聆听", 50)]);
            let e = r.parse_error.as_ref().unwrap_or_else(|| panic!("{text}: {r:?}"));
            assert_eq!((e.code.as_str(), e.position), (code, pos), "{text}");
            assert_eq!(entries(&r), [("聆听".into(), 50)], "{text}");
        }
    }
}
