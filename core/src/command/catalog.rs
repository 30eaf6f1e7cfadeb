//! The message catalog (`core/data/command/messages/*.json`): every reply text in
//! four languages. Placeholders are `{name}`. One file for what every build
//! answers (plain dice, repeats, parse errors, refusals) and one per ruleset, of
//! which a build includes only its own (the npm package's per-ruleset entries carry
//! no other system's texts).

use super::types::CmdLang;
use crate::error::{Error, ErrorCode, Result};
use crate::json::FromJson;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One message in the four languages.
#[derive(Debug, Clone, Deserialize, FromJson)]
#[serde(deny_unknown_fields)]
pub(crate) struct Message {
    pub ja: String,
    pub zh_hans: String,
    pub zh_hant: String,
    pub en: String,
}

impl Message {
    pub fn get(&self, lang: CmdLang) -> &str {
        match lang {
            CmdLang::Ja => &self.ja,
            CmdLang::ZhHans => &self.zh_hans,
            CmdLang::ZhHant => &self.zh_hant,
            CmdLang::En => &self.en,
        }
    }
}

#[derive(Debug, Deserialize, FromJson)]
#[serde(deny_unknown_fields)]
pub(crate) struct Catalog {
    #[allow(dead_code)]
    pub meta: serde_json::Value,
    pub messages: BTreeMap<String, Message>,
}

/// The catalog files of this build.
const CATALOG_FILES: &[&str] = &[
    include_str!("../../data/command/messages/common.json"),
    #[cfg(feature = "coc")]
    include_str!("../../data/command/messages/coc.json"),
    #[cfg(feature = "world_trigger")]
    include_str!("../../data/command/messages/world_trigger.json"),
    #[cfg(feature = "tmd")]
    include_str!("../../data/command/messages/tmd.json"),
    #[cfg(feature = "fap_map")]
    include_str!("../../data/command/messages/fap_map.json"),
];

pub(crate) fn catalog() -> Result<&'static Catalog> {
    static CAT: OnceLock<std::result::Result<Catalog, Error>> = OnceLock::new();
    CAT.get_or_init(|| {
        let mut all: Option<Catalog> = None;
        for text in CATALOG_FILES {
            let v: serde_json::Value = serde_json::from_str(text)
                .map_err(|e| Error::new(ErrorCode::Internal, format!("message catalog is not JSON: {e}")))?;
            let part = crate::ops::parse_data::<Catalog>("messages", v)?;
            match &mut all {
                None => all = Some(part),
                Some(c) => c.messages.extend(part.messages),
            }
        }
        all.ok_or_else(|| Error::new(ErrorCode::Internal, "no message catalog"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The message `key` in `lang` (an internal error if the key is missing).
pub(crate) fn msg(lang: CmdLang, key: &str) -> Result<&'static str> {
    catalog()?
        .messages
        .get(key)
        .map(|m| m.get(lang))
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
