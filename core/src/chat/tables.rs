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
use crate::json::{FromJson, ToJson};
use crate::kernel::label::WtLabel;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Longest entry text, in characters.
pub const MAX_ENTRY_CHARS: usize = 1000;

/// A table pack (`command.run`'s `table_pack`): entry texts of the systems' rulebook
/// tables, in the four languages. A group may pass its own.
#[derive(Debug, Clone, PartialEq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
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
    pub tables: BTreeMap<String, Vec<WtLabel>>,
}

/// `invalid_argument` for an unknown table, too many entries or an overlong text.
pub(crate) fn validate(pack: &CmdTablePack) -> Result<()> {
    let bad = |m: String| Err(Error::field(ErrorCode::InvalidArgument, "table_pack", m));
    let known = (crate::registered::CHAT.tables)();
    for (id, entries) in &pack.tables {
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
        for e in entries {
            if [&e.ja, &e.zh_hans, &e.zh_hant, &e.en].iter().any(|t| t.chars().count() > MAX_ENTRY_CHARS) {
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
    let entry = pack.and_then(|p| p.tables.get(id)).and_then(|t| t.get(index as usize - 1));
    let text = match entry {
        Some(e) => {
            let t = match lang {
                CmdLang::Ja => &e.ja,
                CmdLang::ZhHans => &e.zh_hans,
                CmdLang::ZhHant => &e.zh_hant,
                CmdLang::En => &e.en,
            };
            if t.is_empty() {
                e.en.clone()
            } else {
                t.clone()
            }
        }
        None => catalog::fmt(lang, "table_no_entry", &[("n", index.to_string())])?,
    };
    o.text = o.text.replace(ENTRY_MARK, &text);
    Ok(())
}
