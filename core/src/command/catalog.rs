//! The message catalog (`core/data/command/messages/*.json`): every reply text in
//! four languages. Placeholders are `{name}`. One file for what every build
//! answers (plain dice, repeats, parse errors, refusals) and one per ruleset, of
//! which a build includes only its own (the npm package's per-ruleset entries carry
//! no other system's texts).
//!
//! `core/build.rs` compiles the files into sorted static tables and checks them at
//! build time: every key in all four languages, no key in two files, the same
//! `{placeholders}` in every language.

use super::types::CmdLang;
use crate::error::{Error, ErrorCode, Result};

/// One message: its key and its texts in `ja`, `zh_hans`, `zh_hant`, `en` order.
pub(crate) type Entry = (&'static str, [&'static str; 4]);

/// The catalog tables of this build, each sorted by key.
pub(crate) const TABLES: &[&[Entry]] = &[
    include!(concat!(env!("OUT_DIR"), "/messages/common.rs")),
    #[cfg(feature = "coc")]
    include!(concat!(env!("OUT_DIR"), "/messages/coc.rs")),
    #[cfg(feature = "world_trigger")]
    include!(concat!(env!("OUT_DIR"), "/messages/world_trigger.rs")),
    #[cfg(feature = "tmd")]
    include!(concat!(env!("OUT_DIR"), "/messages/tmd.rs")),
    #[cfg(feature = "fap_map")]
    include!(concat!(env!("OUT_DIR"), "/messages/fap_map.rs")),
];

fn lang_index(lang: CmdLang) -> usize {
    match lang {
        CmdLang::Ja => 0,
        CmdLang::ZhHans => 1,
        CmdLang::ZhHant => 2,
        CmdLang::En => 3,
    }
}

/// The message `key` in `lang` (an internal error if the key is missing).
pub(crate) fn msg(lang: CmdLang, key: &str) -> Result<&'static str> {
    TABLES
        .iter()
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
