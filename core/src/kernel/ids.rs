//! The one validator for IDs and references in setups, saved states and data packs.
//!
//! Two kinds of identifier exist in gunbai's inputs:
//! * **data ids** name entries of a data pack or catalog (triggers, skills, actions):
//!   snake_case, `[a-z0-9_]`, 1..=64 bytes;
//! * **names** are chosen by players for combatants, teams and sides ("花子", "Team A"):
//!   1..=64 characters, no control characters.
//!
//! Every engine checks its ids with [`Ids`], so the same mistake gets the same message
//! everywhere. The error code follows where the value came from: a setup argument is
//! `invalid_argument` ([`Source::Argument`]); a saved state or a data pack is `invalid_data`
//! ([`Source::Data`]). The field is always the path of the offending value.

use std::collections::BTreeSet;

use crate::error::{Error, Result};

/// Longest id or name, in bytes (data ids) or characters (names).
pub const MAX_ID_LEN: usize = 64;

/// Where the checked value came from: decides the error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A caller's argument (a setup): `invalid_argument`.
    Argument,
    /// A saved state or a data pack read back: `invalid_data`.
    Data,
}

/// The id checks, for one source.
#[derive(Debug, Clone, Copy)]
pub struct Ids(pub Source);

impl Ids {
    /// Checks of a setup argument.
    pub const ARG: Ids = Ids(Source::Argument);
    /// Checks of a saved state or a data pack.
    pub const DATA: Ids = Ids(Source::Data);

    fn err(self, field: impl Into<String>, msg: impl std::fmt::Display) -> Error {
        match self.0 {
            Source::Argument => Error::invalid(field, msg),
            Source::Data => Error::invalid_data(field, msg),
        }
    }

    /// A data id: `[a-z0-9_]`, 1..=64 bytes.
    pub fn data_id(self, field: &str, id: &str) -> Result<()> {
        if is_data_id(id) {
            Ok(())
        } else {
            Err(self
                .err(field, format_args!("must be a snake_case id of 1..={MAX_ID_LEN} characters [a-z0-9_]")))
        }
    }

    /// A player-chosen name: 1..=64 characters, no control characters.
    pub fn name(self, field: &str, name: &str) -> Result<()> {
        if is_name(name) {
            Ok(())
        } else {
            Err(self.err(field, format_args!("must be 1..={MAX_ID_LEN} characters, no control characters")))
        }
    }

    /// No id twice: `ids` yields each entry's id in order; `field(i)` is the path of entry i's
    /// id. The error names the second occurrence.
    pub fn unique<'a>(
        self,
        ids: impl IntoIterator<Item = &'a str>,
        field: impl Fn(usize) -> String,
    ) -> Result<()> {
        let ids: Vec<&str> = ids.into_iter().collect();
        match first_repeat(&ids) {
            Some((i, id)) => Err(self.err(field(i), format_args!("duplicate id {}", quote(id)))),
            None => Ok(()),
        }
    }

    /// A reference resolves: `id` is one of `known`.
    pub fn resolves<'a>(self, field: &str, id: &str, mut known: impl Iterator<Item = &'a str>) -> Result<()> {
        if known.any(|k| k == id) {
            Ok(())
        } else {
            Err(self.err(field, format_args!("unknown id {}", quote(id))))
        }
    }
}

/// The first id seen before, with its index: one function for every caller of
/// [`Ids::unique`] (only the collecting of the ids is generic).
fn first_repeat<'a>(ids: &[&'a str]) -> Option<(usize, &'a str)> {
    let mut seen = BTreeSet::new();
    ids.iter().enumerate().find(|(_, id)| !seen.insert(**id)).map(|(i, id)| (i, *id))
}

/// `[a-z0-9_]`, 1..=64 bytes.
pub fn is_data_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// 1..=64 characters, no control characters.
pub fn is_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=MAX_ID_LEN).contains(&n) && !name.chars().any(char::is_control)
}

/// An id quoted for a message, cut to a short prefix (ids in errors come from untrusted input).
pub fn quote(id: &str) -> String {
    const SHOWN: usize = 32;
    if id.chars().count() <= SHOWN {
        format!("{id:?}")
    } else {
        let head: String = id.chars().take(SHOWN).collect();
        format!("{head:?}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn data_ids_are_snake_case_and_bounded() {
        assert!(is_data_id("kogetsu_2"));
        for bad in ["", "Kogetsu", "a-b", "a b", "弧月", &"a".repeat(65)] {
            assert!(!is_data_id(bad), "{bad:?}");
        }
        assert!(is_data_id(&"a".repeat(64)));
    }

    #[test]
    fn names_allow_any_script_but_no_control_characters() {
        assert!(is_name("花子"));
        assert!(is_name(&"字".repeat(64)));
        for bad in ["", "a\nb", "\u{7}", &"字".repeat(65)] {
            assert!(!is_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_source_decides_the_code_and_the_field_is_named() {
        let e = Ids::ARG.name("combatants[2].id", "").unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::InvalidArgument, Some("combatants[2].id")));
        let e = Ids::DATA.data_id("catalog.triggers[0].id", "X").unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::InvalidData, Some("catalog.triggers[0].id")));
    }

    #[test]
    fn duplicates_name_the_second_occurrence_and_references_must_resolve() {
        let ids = ["a", "b", "a"];
        let e = Ids::DATA.unique(ids, |i| format!("members[{i}].id")).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("members[2].id"));
        assert!(Ids::DATA.unique(["a", "b"], |i| format!("m[{i}]")).is_ok());
        assert!(Ids::DATA.resolves("target", "b", ids.into_iter()).is_ok());
        let e = Ids::DATA.resolves("target", "z", ids.into_iter()).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("target"));
    }

    #[test]
    fn quoted_ids_are_cut_short() {
        let long = "x".repeat(10_000);
        assert!(quote(&long).len() < 50);
    }
}
