//! Character cards as data: `command.run`'s optional `card` (skill name → value).
//! The library keeps no storage; the bot stores a card per user and channel and
//! passes it in. A name is looked up as typed and through the CoC 7th-edition
//! synonyms below (侦查 / 侦察 / 偵查 / 目星 / Spot Hidden are one skill), case- and
//! space-insensitively. This is terminology (how players name a skill), not rule data.

use std::collections::BTreeMap;

/// Most entries in a card, and the longest name.
pub const MAX_CARD_ENTRIES: usize = 500;
pub const MAX_NAME_CHARS: usize = 64;

/// Groups of names for one skill (zh-Hans, zh-Hant, ja, en spellings).
const SYNONYMS: &[&[&str]] = &[
    &["侦查", "侦察", "偵查", "偵察", "目星", "spot hidden", "spothidden"],
    &["聆听", "聆聽", "聞き耳", "listen"],
    &["图书馆使用", "圖書館使用", "図書館", "図書館使用", "library use"],
    &["闪避", "閃避", "回避", "dodge"],
    &["潜行", "潛行", "隠密", "忍び歩き", "stealth"],
    &["心理学", "心理學", "psychology"],
    &["说服", "說服", "説得", "persuade"],
    &["急救", "応急手当", "first aid"],
    &["医学", "醫學", "medicine"],
    &["神秘学", "神祕學", "神秘學", "オカルト", "occult"],
    &["克苏鲁神话", "克蘇魯神話", "クトゥルフ神話", "cthulhu mythos"],
    &["斗殴", "鬥毆", "格闘", "こぶし", "brawl", "fighting (brawl)"],
    &["手枪", "手槍", "拳銃", "handgun", "firearms (handgun)"],
    &["理智", "san", "san值", "理智值", "正気度", "sanity"],
    &["力量", "str", "筋力"],
    &["敏捷", "dex"],
    &["体质", "體質", "con"],
    &["意志", "pow", "精神力"],
    &["外貌", "app"],
    &["体型", "體型", "siz"],
    &["智力", "int", "灵感", "靈感", "アイデア", "idea"],
    &["教育", "edu", "知識"],
    &["幸运", "幸運", "luck"],
];

fn fold(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

/// The canonical key of a name: the first spelling of its synonym group, or the
/// folded name itself.
fn key(name: &str) -> String {
    let f = fold(name);
    for group in SYNONYMS {
        if group.iter().any(|g| fold(g) == f) {
            return fold(group[0]);
        }
    }
    f
}

/// The value of skill `name` on `card`, if the card has it under any synonym.
pub(crate) fn lookup(card: &BTreeMap<String, i64>, name: &str) -> Option<i64> {
    let k = key(name);
    card.iter().find(|(n, _)| key(n) == k).map(|(_, v)| *v)
}

/// The entry of `card` that holds skill `name` (the spelling the card uses), if any.
pub(crate) fn existing_key(card: &BTreeMap<String, i64>, name: &str) -> Option<String> {
    let k = key(name);
    card.keys().find(|n| key(n) == k).cloned()
}

/// `invalid_argument` on `card` for too many entries, a long or empty name, or a
/// value outside 0…1000.
pub(crate) fn validate(card: &BTreeMap<String, i64>) -> crate::error::Result<()> {
    use crate::error::{Error, ErrorCode};
    if card.len() > MAX_CARD_ENTRIES {
        return Err(Error::field(
            ErrorCode::LimitExceeded,
            "card",
            format_args!("a card has at most {MAX_CARD_ENTRIES} entries, not {}", card.len()),
        ));
    }
    for (name, v) in card {
        let n = name.chars().count();
        if n == 0 || n > MAX_NAME_CHARS {
            return Err(Error::field(
                ErrorCode::InvalidArgument,
                "card",
                format_args!(
                    "a skill name has 1 to {MAX_NAME_CHARS} characters: {}",
                    crate::engine::ids::quote(name)
                ),
            ));
        }
        if !(0..=1000).contains(v) {
            return Err(Error::field(
                ErrorCode::OutOfRange,
                "card",
                format_args!("{}: a value is 0 to 1000, not {v}", crate::engine::ids::quote(name)),
            ));
        }
    }
    Ok(())
}

/// `CC<=目星 …` (also `CC(1)<=…`, `CCB<=…`, `SCC<=…`, a modifier `CC<=目星+10`): the
/// line with the card's value in place of the name (the name kept as the comment), or
/// `None` when the head is not such a check or the card lacks the skill.
pub(crate) fn substitute(text: &str, card: &BTreeMap<String, i64>) -> Option<String> {
    let t = text.trim_start_matches(super::lex::is_space);
    let head_end = t.find(super::lex::is_space).unwrap_or(t.len());
    let (head, rest) = t.split_at(head_end);
    let upper: String = head.chars().map(super::lex::normalize).collect();
    let le = upper.find("<=")?;
    let prefix = &upper[..le];
    let bare = prefix.strip_prefix('S').unwrap_or(prefix);
    if !(bare.starts_with("CC")
        && bare[2..].chars().all(|c| c == 'B' || c.is_ascii_digit() || "()+-".contains(c)))
    {
        return None;
    }
    // The name: everything after `<=` up to an ASCII arithmetic tail.
    let after: String = head.chars().skip(upper[..le + 2].chars().count()).collect();
    let cut = after
        .find(|c: char| matches!(super::lex::normalize(c), '+' | '-' | '*' | '/'))
        .unwrap_or(after.len());
    let (name, tail) = after.split_at(cut);
    if name.is_empty()
        || name.chars().next().is_some_and(|c| super::lex::normalize(c).is_ascii_digit() || c == '(')
    {
        return None;
    }
    let v = lookup(card, name)?;
    let tail: String = tail.chars().map(super::lex::normalize).collect();
    let value = if tail.is_empty() { v.to_string() } else { format!("({v}{tail})") };
    let comment = rest.trim_matches(super::lex::is_space);
    let comment = if comment.is_empty() { name.to_string() } else { format!("{name} {comment}") };
    Some(format!("{}{value} {comment}", &upper[..le + 2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synonyms() {
        let card: BTreeMap<String, i64> = [("目星".to_string(), 60), ("Listen".to_string(), 45)].into();
        assert_eq!(lookup(&card, "侦查"), Some(60));
        assert_eq!(lookup(&card, "Spot Hidden"), Some(60));
        assert_eq!(lookup(&card, "聆听"), Some(45));
        assert_eq!(lookup(&card, "闪避"), None);
        assert_eq!(substitute("CC<=目星", &card).as_deref(), Some("CC<=60 目星"));
        assert_eq!(substitute("cc(1)<=侦查+10 暗い", &card).as_deref(), Some("CC(1)<=(60+10) 侦查 暗い"));
        assert_eq!(substitute("CC<=50", &card), None);
        assert_eq!(substitute("CC<=闪避", &card), None);
    }
}
