//! The message catalog (`core/data/command/messages.json`): every reply text in
//! four languages. Placeholders are `{name}`.

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

const CATALOG_JSON: &str = include_str!("../../data/command/messages.json");

pub(crate) fn catalog() -> Result<&'static Catalog> {
    static CAT: OnceLock<std::result::Result<Catalog, Error>> = OnceLock::new();
    CAT.get_or_init(|| {
        let v: serde_json::Value = serde_json::from_str(CATALOG_JSON)
            .map_err(|e| Error::new(ErrorCode::Internal, format!("message catalog is not JSON: {e}")))?;
        crate::ops::parse_data::<Catalog>("messages", v)
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
