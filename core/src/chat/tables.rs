//! Rulebook tables' texts as data: `command.run`'s optional `table_pack`. A system's
//! table commands (CoC 7th's `BMR`, `PH`, …) roll the dice and name the entry by its
//! number; the entry's text comes from the pack the caller passes (a group's own, or
//! the illustrative `core/data/command/coc7_tables.json`, which holds short neutral
//! summaries of our own and no rulebook text). Without a pack, or without that
//! entry, the reply says the entry's number and that the pack has no text for it.
//! The pack is never compiled in: the tables' texts stay out of the wasm.

use super::catalog;
use super::outcome::{Outcome, ENTRY_MARK};
use super::types::CmdLang;
use crate::error::{Error, ErrorCode, Result};
use crate::json::{At, FromJson, JsonResult, Map, ToJson};
use crate::kernel::label::WtLabel;
use serde_json::Value;

/// Longest entry text, in characters.
pub const MAX_ENTRY_CHARS: usize = 1000;

/// A table pack (`command.run`'s `table_pack`): entry texts of the systems' rulebook
/// tables, in the four languages. A group may pass its own.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CmdTablePack {
    /// Free description (where the texts come from).
    #[serde(default)]
    pub meta: Option<crate::json::RawJson>,
    /// True when the texts are not the rulebook's (the built-in sample's short summaries).
    pub illustrative: bool,
    /// Table id → its entries, entry 1 first (at most as many as the table's die has
    /// faces; a missing one is named by its number). The ids: `bouts_realtime` and
    /// `bouts_summary` (10 entries), `phobias` and `manias` (100), `casting_minor` and
    /// `casting_major` (8). An entry's `ja`, `zh_hans`, `zh_hant` may be empty (then
    /// `en` is shown).
    #[schemars(with = "std::collections::BTreeMap<String, Vec<WtLabel>>")]
    pub tables: CmdTableTexts,
}

/// The `tables` of a [`CmdTablePack`]: kept as the JSON object it was passed as (each
/// entry checked to be a four-language text when the arguments are read), so that no
/// map of its own is compiled in.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct CmdTableTexts(pub Map<String, Value>);

impl FromJson for CmdTableTexts {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        let m = crate::json::object(v, at, "a map")?;
        for (k, x) in m {
            let key = At::Key(at, k);
            for (i, e) in crate::json::array(x, &key)?.iter().enumerate() {
                WtLabel::from_json(e, &At::Index(&key, i))?;
            }
        }
        Ok(CmdTableTexts(m.clone()))
    }
}

impl ToJson for CmdTableTexts {
    fn to_json(&self) -> Value {
        self.0.to_json()
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        self.0.write_json(out);
    }
}

/// The text of `e` (an entry checked when read) in `lang`, `en` when that one is empty.
fn entry_text(e: &Value, lang: CmdLang) -> Option<String> {
    let key = match lang {
        CmdLang::Ja => "ja",
        CmdLang::ZhHans => "zh_hans",
        CmdLang::ZhHant => "zh_hant",
        CmdLang::En | CmdLang::Ko => "en",
    };
    let t = e.get(key).and_then(Value::as_str).filter(|t| !t.is_empty());
    t.or_else(|| e.get("en").and_then(Value::as_str)).map(str::to_string)
}

/// `invalid_argument` for an unknown table, too many entries or an overlong text.
pub(crate) fn validate(pack: &CmdTablePack) -> Result<()> {
    let bad = |m: String| Err(Error::field(ErrorCode::InvalidArgument, "table_pack", m));
    let known = (crate::registered::CHAT.tables)();
    for (id, entries) in &pack.tables.0 {
        let entries = entries.as_array().map_or(&[][..], Vec::as_slice);
        let Some(&(_, die)) = known.iter().find(|(k, _)| k == id) else {
            let names: Vec<&str> = known.iter().map(|(k, _)| *k).collect();
            return bad(format!(
                "unknown table {} (this build has: {})",
                crate::engine::ids::quote(id),
                names.join(", ")
            ));
        };
        if entries.len() > die as usize {
            return bad(format!("table {id} has at most {die} entries, not {}", entries.len()));
        }
        for e in entries.iter().filter_map(Value::as_object) {
            if e.values().filter_map(Value::as_str).any(|t| t.chars().count() > MAX_ENTRY_CHARS) {
                return bad(format!("an entry of table {id} is over {MAX_ENTRY_CHARS} characters"));
            }
        }
    }
    Ok(())
}

/// Put the entry's text (from `pack`, or its number) where a table command left
/// [`ENTRY_MARK`].
pub(crate) fn resolve(o: &mut Outcome, pack: Option<&CmdTablePack>, lang: CmdLang) -> Result<()> {
    let Some((id, index)) = o.entry else { return Ok(()) };
    let entry = pack.and_then(|p| p.tables.0.get(id)?.get(index as usize - 1));
    let text = match entry.and_then(|e| entry_text(e, lang)) {
        Some(t) => t,
        None => catalog::fmt(lang, "table_no_entry", &[("n", index.to_string())])?,
    };
    o.text = o.text.replace(ENTRY_MARK, &text);
    Ok(())
}
