//! The four-language label every ruleset and the chat commands show to players.

use crate::json::{FromJson, ToJson};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A player-facing name in the four display languages.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WtLabel {
    /// Japanese.
    #[serde(default)]
    pub ja: String,
    /// Simplified Chinese.
    #[serde(default)]
    pub zh_hans: String,
    /// Traditional Chinese (the seed's own language).
    #[serde(default)]
    pub zh_hant: String,
    /// English.
    pub en: String,
}

impl WtLabel {
    /// Build a label from its four texts.
    pub fn new(ja: &str, zh_hans: &str, zh_hant: &str, en: &str) -> WtLabel {
        WtLabel { ja: ja.into(), zh_hans: zh_hans.into(), zh_hant: zh_hant.into(), en: en.into() }
    }
}
