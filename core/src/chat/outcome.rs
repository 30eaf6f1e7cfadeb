//! What one successfully read command produced.

use super::types::CmdKind;
use crate::json::RawJson;

/// The reply of one command (before repetition and the `S` prefix).
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    pub kind: CmdKind,
    pub text: String,
    pub success: Option<bool>,
    pub critical: bool,
    pub fumble: bool,
    pub total: Option<i64>,
    /// The underlying operation's result, written once as JSON text.
    pub result: Option<RawJson>,
    /// A rulebook-table roll: the table's id and the entry rolled (1-based), whose
    /// text [`super::tables::resolve`] puts at [`ENTRY_MARK`] in `text`.
    pub entry: Option<(&'static str, u32)>,
}

/// Where a table roll's entry text goes in its reply.
pub(crate) const ENTRY_MARK: &str = "\u{1}";

impl Outcome {
    pub fn new(kind: CmdKind, text: String) -> Outcome {
        Outcome {
            kind,
            text,
            success: None,
            critical: false,
            fumble: false,
            total: None,
            result: None,
            entry: None,
        }
    }

    pub fn total(mut self, t: i64) -> Outcome {
        self.total = Some(t);
        self
    }

    pub fn success(mut self, s: Option<bool>) -> Outcome {
        self.success = s;
        self
    }

    pub fn flags(mut self, critical: bool, fumble: bool) -> Outcome {
        self.critical = critical;
        self.fumble = fumble;
        self
    }

    pub fn result<T: crate::json::ToJson>(mut self, r: &T) -> Outcome {
        self.result = Some(RawJson::of(r));
        self
    }
}

/// `[a,b,c]` as BCDice prints faces.
pub(crate) fn faces(f: &[u32]) -> String {
    let v: Vec<String> = f.iter().map(u32::to_string).collect();
    format!("[{}]", v.join(","))
}

/// A signed modifier as `+3` / `-2` (empty for 0).
pub(crate) fn signed(v: i64) -> String {
    match v.cmp(&0) {
        std::cmp::Ordering::Less => v.to_string(),
        std::cmp::Ordering::Equal => String::new(),
        std::cmp::Ordering::Greater => format!("+{v}"),
    }
}
