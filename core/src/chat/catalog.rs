//! The message catalog (`core/data/command/messages/*.json`): every reply text in
//! four languages. Placeholders are `{name}`. One file for what every build
//! answers (plain dice, repeats, parse errors, refusals) and one per ruleset, of
//! which a build includes only its own (the npm package's per-ruleset entries carry
//! no other system's texts).
//!
//! `core/build.rs` compiles the files into sorted static tables and checks them at
//! build time: every key in all four languages, no key in two files, the same
//! `{placeholders}` in every language.
//!
//! Korean (`ko`) is optional per message, in tables of its own (`<file>_ko.rs`): only
//! the CoC check texts have it, and a Korean reply without one is the English text.

use super::types::CmdLang;
use crate::error::{Error, ErrorCode, Result};

/// One message: its key and its texts in `ja`, `zh_hans`, `zh_hant`, `en` order.
pub(crate) type Entry = (&'static str, [&'static str; 4]);

/// The table of what every build answers, sorted by key (each ruleset's own table is
/// its `chat::MESSAGES`, registered in `Dialects::messages`).
pub(crate) const COMMON: &[Entry] = include!(concat!(env!("OUT_DIR"), "/messages/common.rs"));

/// The catalog tables of this build, each sorted by key.
pub(crate) fn tables() -> impl Iterator<Item = &'static [Entry]> {
    std::iter::once(COMMON).chain(crate::registered::CHAT.messages.iter().copied())
}

/// One Korean text: its key and text.
pub(crate) type KoEntry = (&'static str, &'static str);

/// The Korean texts of what every build answers, sorted by key.
pub(crate) const COMMON_KO: &[KoEntry] = include!(concat!(env!("OUT_DIR"), "/messages/common_ko.rs"));

fn lang_index(lang: CmdLang) -> usize {
    match lang {
        CmdLang::Ja => 0,
        CmdLang::ZhHans => 1,
        CmdLang::ZhHant => 2,
        CmdLang::En | CmdLang::Ko => 3,
    }
}

/// The message `key` in `lang` (an internal error if the key is missing); in
/// Korean, the English text where the message has no Korean one.
pub(crate) fn msg(lang: CmdLang, key: &str) -> Result<&'static str> {
    let ko = std::iter::once(COMMON_KO).chain(crate::registered::CHAT.messages_ko.iter().copied());
    if let Some(t) = ko
        .filter(|_| lang == CmdLang::Ko)
        .find_map(|t| t.binary_search_by(|e| e.0.cmp(key)).ok().map(|i| t[i].1))
    {
        return Ok(t);
    }
    tables()
        .find_map(|t| t.binary_search_by(|e| e.0.cmp(key)).ok().map(|i| t[i].1[lang_index(lang)]))
        .ok_or_else(|| Error::new(ErrorCode::Internal, format!("message catalog has no {key:?}")))
}

/// The message `key` in `lang` with `{name}` placeholders filled.
pub(crate) fn fmt(lang: CmdLang, key: &str, vars: &[(&str, String)]) -> Result<String> {
    let mut s = msg(lang, key)?.to_string();
    for (name, value) in vars {
        s = s.replace(&format!("{{{name}}}"), value);
    }
    Ok(s)
}
