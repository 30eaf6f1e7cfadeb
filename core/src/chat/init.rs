//! The initiative list (`.ri`, `.init`; SealDice and Dice! spell them so). The
//! library keeps no storage: the host passes the channel's list in `init` and stores
//! the `result.entries` each command returns, as it does with cards.
//!
//! * `.ri [value] [name]`: add (or replace) an entry. For CoC the value is DEX; without
//!   one it is the card's DEX. The name defaults to `actor`. A signed number (`.ri +5`,
//!   SealDice's modifier to a rolled d20) is a parse error: the list rolls nothing.
//! * `.init` (`.init list`): the list in order. `.init clr` (`clear`) empties it;
//!   `.init del name` (`rm`) removes one entry.
//!
//! The order is the system's rule: CoC 7th (seed 002) C7H-INIT-1, initiative
//! floor(DEX ÷ 5) highest first, ties higher DEX (C7H-INIT-2); CoC 6th (seed 001)
//! COCAP-ORD-1, DEX highest first. What the list cannot settle it says in the reply
//! rather than inventing an order: equal DEX (CoC 7th: the players' side first or any
//! method, C7H-INIT-2; CoC 6th: the higher Dodge, which the list does not know), and
//! for the other systems any tie. Such entries stay in the order they were entered.

use super::catalog::fmt;
use super::lex::Refusal;
use super::types::{CmdKind, CmdLang, CmdRunArgs, CmdRunResult, CmdSystem};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};

/// Most entries in a list, and the longest name.
pub const MAX_INIT_ENTRIES: usize = 100;
/// The largest initiative value (and −this the smallest).
pub const MAX_INIT_VALUE: i64 = 1000;

/// One entry of the initiative list.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CmdInitEntry {
    /// Who (1–64 characters).
    pub name: String,
    /// The value ordered by: DEX for CoC, the initiative for the other systems (−1000…1000).
    #[schemars(range(min = -1000, max = 1000))]
    pub value: i64,
}

/// The `result` of `.ri` / `.init`.
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
struct InitResult {
    /// `add`, `list`, `clear` or `remove`.
    action: &'static str,
    /// The RULES.md rule that orders the list (null: no system's rule).
    rule: Option<&'static str>,
    /// The list to store, in the order entered.
    entries: Vec<CmdInitEntry>,
    /// The list in turn order.
    order: Vec<CmdInitEntry>,
    /// Groups of names whose order the rules leave open (listed in entry order).
    ties: Vec<Vec<String>>,
}

/// `invalid_argument` / `out_of_range` / `limit_exceeded` for a list that cannot be stored.
pub(crate) fn validate(list: &[CmdInitEntry]) -> Result<()> {
    if list.len() > MAX_INIT_ENTRIES {
        return Err(Error::field(
            ErrorCode::LimitExceeded,
            "init",
            format_args!("a list has at most {MAX_INIT_ENTRIES} entries, not {}", list.len()),
        ));
    }
    for e in list {
        let n = e.name.chars().count();
        if n == 0 || n > super::card::MAX_NAME_CHARS {
            return Err(Error::field(ErrorCode::InvalidArgument, "init", "a name has 1 to 64 characters"));
        }
        if e.value.abs() > MAX_INIT_VALUE {
            return Err(Error::field(
                ErrorCode::OutOfRange,
                "init",
                format_args!("a value is -{MAX_INIT_VALUE}..={MAX_INIT_VALUE}, not {}", e.value),
            ));
        }
    }
    Ok(())
}

/// A sort key of a value (greater first).
type SortKey = fn(i64) -> (i64, i64);

/// The rule ordering `system`'s list and its sort key.
fn rule_of(system: Option<CmdSystem>) -> (Option<&'static str>, SortKey) {
    match system {
        Some(CmdSystem::Coc7) => (Some("C7H-INIT-1"), |dex| (dex.div_euclid(5), dex)),
        Some(CmdSystem::Coc6) => (Some("COCAP-ORD-1"), |dex| (dex, 0)),
        _ => (None, |v| (v, 0)),
    }
}

/// The list in turn order (a stable sort: equal keys keep the entry order) and the
/// groups of equal keys.
fn order(list: &[CmdInitEntry], key: SortKey) -> (Vec<CmdInitEntry>, Vec<Vec<String>>) {
    let mut sorted = list.to_vec();
    crate::kernel::small_sort::sort_by(&mut sorted, &|a, b| key(b.value).cmp(&key(a.value)));
    let mut ties: Vec<Vec<String>> = Vec::new();
    for w in sorted.windows(2) {
        if key(w[0].value) == key(w[1].value) {
            match ties.last_mut() {
                Some(g) if g.last() == Some(&w[0].name) => g.push(w[1].name.clone()),
                _ => ties.push(vec![w[0].name.clone(), w[1].name.clone()]),
            }
        }
    }
    (sorted, ties)
}

/// `.ri …` / `.init …`, or `Ok(None)` when the line is neither.
pub(crate) fn run_init(args: &CmdRunArgs) -> Result<Option<CmdRunResult>> {
    let t = args.text.trim_matches(super::lex::is_space);
    let Some(rest) = t.strip_prefix(['.', '。', '．']) else { return Ok(None) };
    let word: String = rest.chars().take(4).map(|c| super::lex::normalize(c).to_ascii_lowercase()).collect();
    let (cmd, after) = if word.starts_with("init") {
        ("init", rest.char_indices().nth(4).map_or("", |(i, _)| &rest[i..]))
    } else if word.starts_with("ri") {
        ("ri", rest.char_indices().nth(2).map_or("", |(i, _)| &rest[i..]))
    } else {
        return Ok(None);
    };
    // `.initiative`, `.right`: chat, not a command.
    let stuck = after.chars().next().map(super::lex::normalize);
    if stuck.is_some_and(|c| c.is_ascii_alphabetic() || (cmd == "init" && !super::lex::is_space(c))) {
        return Ok(None);
    }
    let after = after.trim_matches(super::lex::is_space);
    let lang = args.lang;
    let mut list = args.init.clone().unwrap_or_default();
    validate(&list)?;
    let mut res = CmdRunResult::unmatched();
    res.matched = true;
    res.command = Some(format!(".{cmd}"));
    let (rule, key) = rule_of(args.system);
    let action;
    if cmd == "ri" {
        // `.ri 70 name`, `.ri70name`, `.ri name 70`, `.ri` (the card's DEX, the actor).
        let digits = |s: &str| -> Option<(i64, usize)> {
            let mut end = 0;
            for (i, c) in s.char_indices() {
                let n = super::lex::normalize(c);
                if n.is_ascii_digit() || (i == 0 && matches!(n, '+' | '-')) {
                    end = i + c.len_utf8();
                } else {
                    break;
                }
            }
            let num: String = s[..end].chars().map(super::lex::normalize).collect();
            num.parse::<i64>().ok().map(|v| (v, end))
        };
        let (value, name, number) = match digits(after) {
            Some((v, end)) => (Some(v), after[end..].trim_matches(super::lex::is_space), after),
            None => match after.rsplit_once(super::lex::is_space).and_then(|(n, v)| Some((digits(v)?, n, v)))
            {
                Some(((v, end), n, s)) if end == s.len() => {
                    (Some(v), n.trim_matches(super::lex::is_space), s)
                }
                _ => (None, after, ""),
            },
        };
        // `.ri +5`: SealDice's modifier to a rolled d20. The list rolls nothing (CoC's
        // order is DEX, C7H-INIT-1 / COCAP-ORD-1): a signed number is refused, not read as
        // the value.
        if value.is_some() && number.starts_with(['+', '-', '＋', '－']) {
            let at = t.chars().count() - number.chars().count() + 1;
            return super::parse_failure(res, lang, "init_modifier", at).map(Some);
        }
        let name = if name.is_empty() { args.actor.as_deref().unwrap_or("") } else { name };
        if name.is_empty() {
            return super::parse_failure(res, lang, "init_name", t.chars().count() + 1).map(Some);
        }
        let cthulhu = matches!(args.system, Some(CmdSystem::Coc7 | CmdSystem::Coc6));
        let card_dex = args.card.as_ref().filter(|_| cthulhu).and_then(|c| super::card::lookup(c, "dex"));
        let Some(value) = value.or(card_dex) else {
            return super::parse_failure(res, lang, "init_value", t.chars().count() + 1).map(Some);
        };
        let entry = CmdInitEntry { name: super::short(name), value };
        if value.abs() > MAX_INIT_VALUE {
            let e = Error::out_of_range(
                "text",
                format_args!("a value is -{MAX_INIT_VALUE}..={MAX_INIT_VALUE}, not {value}"),
            );
            let vars = vec![("max", MAX_INIT_VALUE.to_string()), ("n", value.to_string())];
            let r = Refusal { error: e, key: Some("init_value"), vars, whole: false };
            return super::refusal(res, lang, r).map(Some);
        }
        let full = list.len() >= MAX_INIT_ENTRIES;
        match list.iter_mut().find(|e| e.name == entry.name) {
            Some(e) => e.value = value,
            None if full => {
                let max = MAX_INIT_ENTRIES as i64;
                let e = Error::limit("text", format_args!("a list has at most {max} entries"));
                let r = Refusal {
                    error: e,
                    key: Some("init_entries"),
                    vars: vec![("max", max.to_string())],
                    whole: false,
                };
                return super::refusal(res, lang, r).map(Some);
            }
            None => list.push(entry.clone()),
        }
        res.text = fmt(
            lang,
            "init_added",
            &[("name", entry.name), ("value", value.to_string()), ("count", list.len().to_string())],
        )?;
        action = "add";
    } else {
        let lower: String = after.chars().map(|c| super::lex::normalize(c).to_ascii_lowercase()).collect();
        let sub = lower.split(super::lex::is_space).next().unwrap_or("");
        match sub {
            "clr" | "clear" => {
                list.clear();
                res.text = fmt(lang, "init_cleared", &[])?;
                action = "clear";
            }
            "del" | "rm" => {
                // The name as typed (`arg` is folded for the word only).
                let name = after
                    .split_once(super::lex::is_space)
                    .map_or("", |(_, n)| n.trim_matches(super::lex::is_space));
                let before = list.len();
                list.retain(|e| e.name != name);
                let key = if list.len() < before { "init_removed" } else { "init_not_found" };
                res.text = fmt(lang, key, &[("name", super::short(name))])?;
                action = "remove";
            }
            "" | "list" | "show" => action = "list",
            _ => {
                let at = t.chars().count() - after.chars().count() + 1;
                return super::parse_failure(res, lang, "init_sub", at).map(Some);
            }
        }
    }
    let (sorted, ties) = order(&list, key);
    if action == "list" {
        res.text = if sorted.is_empty() {
            fmt(lang, "init_empty", &[])?
        } else {
            let mut lines = vec![fmt(lang, "init_title", &[])?];
            for (i, e) in sorted.iter().enumerate() {
                lines.push(format!("{}. {} {}", i + 1, e.name, e.value));
            }
            let tie_key = match args.system {
                Some(CmdSystem::Coc7) => "init_tie_coc7",
                Some(CmdSystem::Coc6) => "init_tie_coc6",
                _ => "init_tie_none",
            };
            for g in &ties {
                lines.push(fmt(
                    lang,
                    tie_key,
                    &[("names", g.join(if lang == CmdLang::En { ", " } else { "、" }))],
                )?);
            }
            lines.join("\n")
        };
    }
    res.kind = Some(CmdKind::Initiative);
    res.result =
        Some(crate::json::RawJson::of(&InitResult { action, rule, entries: list, order: sorted, ties }));
    Ok(Some(res))
}
