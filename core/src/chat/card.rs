//! Character cards as data: `command.run`'s optional `card` (skill name → value).
//! The library keeps no storage; the bot stores a card per user and channel and
//! passes it in. A name is looked up as typed and through the CoC 7th-edition
//! synonyms below (侦查 / 侦察 / 偵查 / 目星 / Spot Hidden are one skill), case- and
//! space-insensitively. The names and the base values used when a card lacks a skill
//! (`.ra 聆听` with no 聆听 on the card: 20 in 7th edition) are a data pack,
//! [`CmdSkillPack`], labelled illustrative; a group may pass its own.

use crate::json::{FromJson, ToJson};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Most entries in a card, and the longest name.
pub const MAX_CARD_ENTRIES: usize = 500;
pub const MAX_NAME_CHARS: usize = 64;

/// The built-in skill pack (`core/data/command/coc_skills.json`, labelled illustrative):
/// one entry per CoC skill or characteristic, its names in zh-Hans, zh-Hant, ja, en
/// and common aliases (the synonyms), and the base values of 7th and 6th edition.
const BUILTIN_PACK: &str = include_str!("../../data/command/coc_skills.json");

/// A skill pack (`command.run`'s `skill_pack`, the built-in one by default): names
/// and base values used when a card lacks a skill. A group may replace it.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CmdSkillPack {
    /// Free description (where the values come from).
    #[serde(default)]
    pub meta: Option<crate::json::RawJson>,
    /// True when the values are not from a seed (base rulebooks, a group's choice).
    pub illustrative: bool,
    /// The skills, at most 1,000.
    pub skills: Vec<CmdSkillEntry>,
}

/// One skill of a [`CmdSkillPack`].
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CmdSkillEntry {
    /// Its names (1–64 characters each, at most 32); the first is the canonical one.
    pub names: Vec<String>,
    /// 7th-edition base value: a number (`"25"`) or a characteristic with a factor
    /// (`"DEX/2"`, `"EDU"`; a division rounds down); null when the edition has none.
    #[serde(default, rename = "coc7")]
    pub base7: Option<String>,
    /// 6th-edition base value (wire name `coc6`), as `coc7` (`"DEX*2"`, `"EDU*5"`).
    #[serde(default, rename = "coc6")]
    pub base6: Option<String>,
}

/// The built-in pack, read once.
pub(crate) fn builtin() -> &'static CmdSkillPack {
    static PACK: OnceLock<CmdSkillPack> = OnceLock::new();
    PACK.get_or_init(|| {
        // Checked by the `builtin_pack_is_valid` test; an unreadable pack has no entries.
        serde_json::from_str::<serde_json::Value>(BUILTIN_PACK)
            .ok()
            .and_then(|v| crate::json::from_value(&v).ok())
            .unwrap_or(CmdSkillPack { meta: None, illustrative: true, skills: Vec::new() })
    })
}

/// `invalid_argument` for a pack of the wrong size or a value that cannot be read.
pub(crate) fn validate_pack(pack: &CmdSkillPack) -> crate::error::Result<()> {
    use crate::error::{Error, ErrorCode};
    let bad = |m: String| Err(Error::field(ErrorCode::InvalidArgument, "skill_pack", m));
    if pack.skills.len() > 1000 {
        return Err(Error::field(
            ErrorCode::LimitExceeded,
            "skill_pack",
            format_args!("a pack has at most 1000 skills, not {}", pack.skills.len()),
        ));
    }
    for e in &pack.skills {
        if e.names.is_empty() || e.names.len() > 32 {
            return bad("a skill has 1 to 32 names".into());
        }
        if let Some(n) = e.names.iter().find(|n| n.is_empty() || n.chars().count() > MAX_NAME_CHARS) {
            return bad(format!(
                "a name has 1 to {MAX_NAME_CHARS} characters: {}",
                crate::engine::ids::quote(n)
            ));
        }
        for v in [&e.base7, &e.base6].into_iter().flatten() {
            if parse_base(v).is_none() {
                return bad(format!(
                    "a base value is a number 0-1000 or a characteristic with a factor (DEX/2, EDU*5), not {}",
                    crate::engine::ids::quote(v)
                ));
            }
        }
    }
    Ok(())
}

/// A base value: a number, or (characteristic, multiplier, divisor).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Base {
    Number(i64),
    Of(String, i64, i64),
}

fn parse_base(s: &str) -> Option<Base> {
    let s = s.trim();
    if let Ok(n) = s.parse::<i64>() {
        return (0..=1000).contains(&n).then_some(Base::Number(n));
    }
    let (name, mul, div) = if let Some((n, k)) = s.split_once('/') {
        (n, 1, k.trim().parse::<i64>().ok()?)
    } else if let Some((n, k)) = s.split_once('*') {
        (n, k.trim().parse::<i64>().ok()?, 1)
    } else {
        (s, 1, 1)
    };
    let name = name.trim();
    let ok = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (ok && (1..=100).contains(&mul) && (1..=100).contains(&div)).then(|| Base::Of(name.to_string(), mul, div))
}

/// The base value of skill `name` for `system` from `pack` (the built-in one when
/// none), computed from `card`'s characteristics where the base is one (闪避 =
/// DEX/2); `None` when the pack has no base for it or the card lacks the
/// characteristic.
pub(crate) fn default_value(
    card: &BTreeMap<String, i64>,
    name: &str,
    system: Option<super::CmdSystem>,
    pack: Option<&CmdSkillPack>,
) -> Option<i64> {
    let pack = pack.unwrap_or_else(|| builtin());
    let f = fold(name);
    let k = key(name);
    let entry = pack.skills.iter().find(|e| e.names.iter().any(|n| fold(n) == f || key(n) == k))?;
    let base = match system? {
        super::CmdSystem::Coc7 => entry.base7.as_deref()?,
        super::CmdSystem::Coc6 => entry.base6.as_deref()?,
        _ => return None,
    };
    match parse_base(base)? {
        Base::Number(n) => Some(n),
        Base::Of(ch, mul, div) => lookup(card, &ch).map(|v| (v * mul).div_euclid(div)),
    }
}

fn fold(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

/// The canonical key of a name: the first name of its entry in the built-in pack,
/// or the folded name itself.
fn key(name: &str) -> String {
    let f = fold(name);
    for e in &builtin().skills {
        if e.names.iter().any(|g| fold(g) == f) {
            return fold(&e.names[0]);
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

    #[test]
    fn builtin_pack_is_valid() {
        let pack: CmdSkillPack = serde_json::from_str(BUILTIN_PACK).unwrap();
        assert!(pack.illustrative && pack.skills.len() > 60);
        validate_pack(&pack).unwrap();
        // No name in two entries.
        let mut seen = std::collections::BTreeSet::new();
        for e in &pack.skills {
            for n in e.names.iter().map(|n| fold(n)).collect::<std::collections::BTreeSet<_>>() {
                assert!(seen.insert(n.clone()), "{n} is in two entries");
            }
        }
    }

    #[test]
    fn defaults() {
        use crate::chat::CmdSystem::{Coc6, Coc7};
        let card: BTreeMap<String, i64> = [("dex".to_string(), 60), ("敏捷".to_string(), 60)].into();
        let card6: BTreeMap<String, i64> = [("DEX".to_string(), 14)].into();
        assert_eq!(default_value(&card, "闪避", Some(Coc7), None), Some(30));
        assert_eq!(default_value(&card6, "回避", Some(Coc6), None), Some(28));
        assert_eq!(default_value(&card, "聆听", Some(Coc7), None), Some(20));
        assert_eq!(default_value(&card, "聞き耳", Some(Coc6), None), Some(25));
        assert_eq!(default_value(&card, "图书馆", Some(Coc7), None), Some(20));
        assert_eq!(default_value(&card, "信用", Some(Coc7), None), Some(0));
        assert_eq!(default_value(&card, "Fighting (Brawl)", Some(Coc7), None), Some(25));
        assert_eq!(default_value(&BTreeMap::new(), "闪避", Some(Coc7), None), None);
        assert_eq!(default_value(&card, "力量", Some(Coc7), None), None);
        assert_eq!(lookup(&[("图书馆使用".to_string(), 55)].into(), "图书馆"), Some(55));
        assert_eq!(lookup(&[("信用评级".to_string(), 35)].into(), "信用"), Some(35));
    }
}
