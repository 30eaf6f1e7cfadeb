//! The one error type of gunbai.
//!
//! Every failure is an [`Error`] with a stable [`ErrorCode`] (its snake_case
//! string is what JS `GunbaiError.code` and Python `GunbaiError.code` carry),
//! a human-readable message that names the offending field, and optionally the
//! field path and the rule ID an illegal action breaks.

use crate::json::{FromJson, ToJson};
use std::fmt;

/// Stable error codes. The string form (`as_str`) never changes once released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A wrong type, a missing or unknown field, or an inconsistent combination.
    InvalidArgument,
    /// A number outside its documented range.
    OutOfRange,
    /// Scripted dice (`rolls`) ran out before the operation finished.
    ScriptedDiceExhausted,
    /// A scripted face outside `1..=sides`, or a scripted roll object whose
    /// `sides`/`kind` do not match the die being rolled.
    InvalidDieFace,
    /// A dice expression or chat command could not be parsed.
    ParseError,
    /// A dice count, side count, iteration count or size limit was exceeded.
    LimitExceeded,
    /// A data pack, sheet or saved state failed validation.
    InvalidData,
    /// An action that the rules do not allow now; the state is unchanged.
    IllegalAction,
    /// No operation has that name.
    UnknownOperation,
    /// The rule exists in RULES.md but gunbai does not implement it yet.
    NotImplemented,
    /// The ruleset is left out of this build (a per-ruleset npm entry such as
    /// `gunbai/tmd` asked for another system's chat commands).
    NotInBuild,
    /// A bug in gunbai (an invariant failed). Please report it.
    Internal,
}

impl ErrorCode {
    /// All codes, in declaration order.
    pub const ALL: [ErrorCode; 12] = [
        ErrorCode::InvalidArgument,
        ErrorCode::OutOfRange,
        ErrorCode::ScriptedDiceExhausted,
        ErrorCode::InvalidDieFace,
        ErrorCode::ParseError,
        ErrorCode::LimitExceeded,
        ErrorCode::InvalidData,
        ErrorCode::IllegalAction,
        ErrorCode::UnknownOperation,
        ErrorCode::NotImplemented,
        ErrorCode::NotInBuild,
        ErrorCode::Internal,
    ];

    /// The stable snake_case string of this code.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "invalid_argument",
            ErrorCode::OutOfRange => "out_of_range",
            ErrorCode::ScriptedDiceExhausted => "scripted_dice_exhausted",
            ErrorCode::InvalidDieFace => "invalid_die_face",
            ErrorCode::ParseError => "parse_error",
            ErrorCode::LimitExceeded => "limit_exceeded",
            ErrorCode::InvalidData => "invalid_data",
            ErrorCode::IllegalAction => "illegal_action",
            ErrorCode::UnknownOperation => "unknown_operation",
            ErrorCode::NotImplemented => "not_implemented",
            ErrorCode::NotInBuild => "not_in_build",
            ErrorCode::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A gunbai error: a stable `code`, a message naming the field, and context.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Error(pub Box<ErrorInner>);

impl std::ops::Deref for Error {
    type Target = ErrorInner;
    fn deref(&self) -> &ErrorInner {
        &self.0
    }
}
impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorInner {
        &mut self.0
    }
}
impl From<ErrorInner> for Error {
    fn from(e: ErrorInner) -> Self {
        Error(Box::new(e))
    }
}

/// The fields of an [`Error`].
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorInner {
    /// Stable machine-readable code.
    pub code: ErrorCode,
    /// English message; it names the offending field when there is one.
    pub message: String,
    /// Dotted path of the offending argument field (`args.rolls[2]`), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The same place as a list of object keys and array indices, pydantic-core style
    /// (`["teams", 0, "members", 2, "trion"]` for `teams[0].members[2].trion`): what to use
    /// to find the field in the input, with no path text to parse. Empty when the error
    /// has no field, or is about the arguments as a whole (`field` `args`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loc: Vec<PathItem>,
    /// The rule ID (from RULES.md / RULINGS.md) an illegal action breaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Every problem found, when validation reports several at once (a sheet
    /// breaking three creation rules); `field`/`rule` are then the first one's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<ErrorDetail>,
    /// For a `parse_error` in a text argument (`field`), the 1-based character
    /// where reading failed, so a UI can point at it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u32>,
}

/// One step of an error's [`loc`](ErrorInner::loc): an object key (a JSON string) or an
/// array index (a JSON integer).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(any(feature = "serde", feature = "schema"), serde(untagged))]
pub enum PathItem {
    /// An object key.
    Key(String),
    /// An array index.
    Index(u32),
}

// By hand: the derive does not do `untagged`.
impl FromJson for PathItem {
    fn from_json(v: &serde_json::Value, at: &crate::json::At<'_>) -> crate::json::JsonResult<Self> {
        match v {
            serde_json::Value::String(k) => Ok(PathItem::Key(k.clone())),
            serde_json::Value::Number(_) => u32::from_json(v, at).map(PathItem::Index),
            other => Err(crate::json::invalid_type(other, at, "a key (string) or an index (integer)")),
        }
    }
}

impl ToJson for PathItem {
    fn to_json(&self) -> serde_json::Value {
        match self {
            PathItem::Key(k) => k.to_json(),
            PathItem::Index(i) => i.to_json(),
        }
    }
}

/// The items of a field path as gunbai writes them (`teams[0].members[2].trion`; `args` and
/// `.` are the arguments as a whole: no items).
///
/// Field paths are written by the core itself (validators name the field they check); this
/// reads one into [`ErrorInner::loc`] when the error is made, so no caller parses it. The
/// JSON reader gives its own items ([`crate::json::PathError::loc`]): a key it reports can
/// be any input text.
pub fn loc_of(path: &str) -> Vec<PathItem> {
    let mut out = Vec::new();
    if path == "args" || path == "." {
        return out;
    }
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(PathItem::Key(key.to_string()));
        }
        while let Some(r) = rest.strip_prefix('[') {
            let Some((n, tail)) = r.split_once(']') else { break };
            match n.parse() {
                Ok(i) => out.push(PathItem::Index(i)),
                Err(_) => out.push(PathItem::Key(n.to_string())),
            }
            rest = tail;
        }
    }
    out
}

/// `loc` as a field path (`teams[0].members[2].trion`), the inverse of [`loc_of`].
pub fn render_loc(loc: &[PathItem]) -> String {
    let mut out = String::new();
    for item in loc {
        match item {
            PathItem::Index(i) => out.push_str(&format!("[{i}]")),
            PathItem::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
        }
    }
    out
}

/// One problem of a multi-problem error.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorDetail {
    /// Dotted path of the offending field.
    pub path: String,
    /// The rule ID broken, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// English explanation.
    pub message: String,
}

/// Result alias used throughout gunbai.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A new error with a code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ErrorInner {
            code,
            message: message.into(),
            field: None,
            loc: Vec::new(),
            rule: None,
            details: Vec::new(),
            position: None,
        }
        .into()
    }

    /// An error about one argument field; the message is prefixed with the field.
    pub fn field(code: ErrorCode, field: impl Into<String>, message: impl fmt::Display) -> Self {
        let field = field.into();
        ErrorInner {
            code,
            message: format!("{field}: {message}"),
            loc: loc_of(&field),
            field: Some(field),
            rule: None,
            details: Vec::new(),
            position: None,
        }
        .into()
    }

    /// `invalid_argument` about `field`.
    pub fn invalid(field: impl Into<String>, message: impl fmt::Display) -> Self {
        Self::field(ErrorCode::InvalidArgument, field, message)
    }

    /// `out_of_range` about `field`.
    pub fn out_of_range(field: impl Into<String>, message: impl fmt::Display) -> Self {
        Self::field(ErrorCode::OutOfRange, field, message)
    }

    /// `limit_exceeded` about `field`.
    pub fn limit(field: impl Into<String>, message: impl fmt::Display) -> Self {
        Self::field(ErrorCode::LimitExceeded, field, message)
    }

    /// `invalid_data` about `field` of a sheet, data pack or state.
    pub fn invalid_data(field: impl Into<String>, message: impl fmt::Display) -> Self {
        Self::field(ErrorCode::InvalidData, field, message)
    }

    /// `invalid_data` about `field` of a saved state that breaks an invariant of the
    /// rules (a value no legal play reaches): the message and `rule` name the rule ID.
    pub fn invariant(field: impl Into<String>, rule: &str, message: impl fmt::Display) -> Self {
        Self::field(ErrorCode::InvalidData, field, format_args!("{message} ({rule})")).with_rule(rule)
    }

    /// `illegal_action` naming the rule it breaks.
    pub fn illegal(rule: impl Into<String>, message: impl fmt::Display) -> Self {
        let rule = rule.into();
        Self::new(ErrorCode::IllegalAction, format!("{message} ({rule})")).with_rule(rule)
    }

    /// `not_implemented` for a rule gunbai does not implement yet.
    pub fn not_implemented(rule: impl Into<String>, message: impl fmt::Display) -> Self {
        let rule = rule.into();
        Self::new(ErrorCode::NotImplemented, format!("{message} ({rule} is not implemented)")).with_rule(rule)
    }

    /// A `parse_error` in the text argument `field`, failing at the 0-based
    /// character `at` (reported 1-based, in the message and in `position`).
    pub fn parse_at(field: impl Into<String>, at: usize, message: impl fmt::Display) -> Self {
        let position = u32::try_from(at.saturating_add(1)).unwrap_or(u32::MAX);
        let mut e =
            Self::field(ErrorCode::ParseError, field, format_args!("{message} at character {position}"));
        e.position = Some(position);
        e
    }

    /// Attach a rule ID.
    pub fn with_rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }

    /// Prefix the field path (used when an inner value is validated on its own): `prefix`'s
    /// items go before [`loc`](ErrorInner::loc), and `field`, the message's field and the
    /// details' paths follow.
    pub fn within(self, prefix: &str) -> Self {
        let mut loc = loc_of(prefix);
        loc.extend(self.loc.iter().cloned());
        let mut e = self.relocated(loc);
        for d in &mut e.details {
            d.path = join_path(prefix, &d.path);
        }
        e
    }

    /// This error about the field at `loc` instead: `loc`, `field` and the field the message
    /// starts with (as [`Error::field`] writes it) become the new place.
    pub fn relocated(mut self, loc: Vec<PathItem>) -> Self {
        let field = if loc.is_empty() { "args".to_string() } else { render_loc(&loc) };
        let rest = match &self.field {
            Some(f) => self.message.strip_prefix(f.as_str()).and_then(|r| r.strip_prefix(": ")),
            None => None,
        };
        self.message = format!("{field}: {}", rest.unwrap_or(&self.message));
        self.field = Some(field);
        self.loc = loc;
        self
    }
}

/// Longest message, in characters, an error crossing the JSON entry points carries (see
/// [`Error::bounded`]); longer ones are cut, ending in `…`.
pub const MAX_MESSAGE_CHARS: usize = 1000;
/// Longest `field` or detail `path`, in characters, at the JSON entry points.
pub const MAX_FIELD_CHARS: usize = 200;
/// Most `details` an error carries at the JSON entry points.
pub const MAX_DETAILS: usize = 100;
/// How much of an input string a message quotes ([`quote`]).
pub const QUOTED_CHARS: usize = 40;

/// `s` quoted for a message (`"abc"`), cut to its first [`QUOTED_CHARS`] characters
/// followed by `…` when longer: errors never echo a long input back.
pub fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTED_CHARS) {
        None => format!("{s:?}"),
        Some((end, _)) => format!("{:?}…", &s[..end]),
    }
}

/// `s` cut like [`quote`] (its first [`QUOTED_CHARS`] characters followed by `…` when
/// longer) but not quoted: for messages that set input in their own brackets (「…」).
pub fn excerpt(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(QUOTED_CHARS) {
        None => std::borrow::Cow::Borrowed(s),
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}…", &s[..end])),
    }
}

/// `s` itself, or its first `max` characters followed by `…`.
pub(crate) fn clip(s: &mut String, max: usize) {
    if let Some((end, _)) = s.char_indices().nth(max) {
        s.truncate(end);
        s.push('…');
    }
}

impl Error {
    /// This error with its message, field, details and their messages cut to
    /// [`MAX_MESSAGE_CHARS`], [`MAX_FIELD_CHARS`] and [`MAX_DETAILS`]: what the JSON
    /// entry points return, so that no error is much larger than a kilobyte or two
    /// whatever the input (a megabyte-long name or key would otherwise come back whole,
    /// once per problem). Messages quote input with [`quote`] where they can; this is
    /// the bound for every other path.
    pub fn bounded(mut self) -> Self {
        clip(&mut self.message, MAX_MESSAGE_CHARS);
        if let Some(f) = &mut self.field {
            clip(f, MAX_FIELD_CHARS);
        }
        self.details.truncate(MAX_DETAILS);
        for d in &mut self.details {
            clip(&mut d.message, MAX_MESSAGE_CHARS);
            clip(&mut d.path, MAX_FIELD_CHARS);
        }
        if let Some(r) = &mut self.rule {
            clip(r, MAX_FIELD_CHARS);
        }
        self
    }
}

/// `prefix` followed by the path `inner` (`.` or empty: `prefix` itself; `[i]`
/// appended; a key joined with `.`).
pub(crate) fn join_path(prefix: &str, inner: &str) -> String {
    if inner.is_empty() || inner == "." {
        prefix.to_string()
    } else if inner.starts_with('[') {
        format!("{prefix}{inner}")
    } else {
        format!("{prefix}.{inner}")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_errors_cut_every_text() {
        let long = "字".repeat(MAX_MESSAGE_CHARS * 3);
        let mut e = Error::invalid(long.clone(), &long);
        e.details = (0..MAX_DETAILS + 5)
            .map(|_| ErrorDetail { path: long.clone(), rule: None, message: long.clone() })
            .collect();
        let b = e.bounded();
        assert_eq!(b.message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(b.message.ends_with('…'));
        assert_eq!(b.field.as_ref().unwrap().chars().count(), MAX_FIELD_CHARS + 1);
        assert_eq!(b.details.len(), MAX_DETAILS);
        assert!(b.details.iter().all(|d| d.message.chars().count() == MAX_MESSAGE_CHARS + 1
            && d.path.chars().count() == MAX_FIELD_CHARS + 1));
        let short = Error::invalid("expr", "bad");
        assert_eq!(short.clone().bounded(), short);
    }

    #[test]
    fn locations_are_keys_and_indices() {
        use PathItem::{Index, Key};
        let e = Error::invalid("teams[0].members[2].trion", "bad");
        assert_eq!(
            e.loc,
            vec![Key("teams".into()), Index(0), Key("members".into()), Index(2), Key("trion".into())]
        );
        assert_eq!(render_loc(&e.loc), "teams[0].members[2].trion");
        assert!(Error::invalid("args", "bad").loc.is_empty());
        let moved = Error::invalid("rolls[1]", "bad").within("steps[3]");
        assert_eq!(moved.field.as_deref(), Some("steps[3].rolls[1]"));
        assert_eq!(moved.message, "steps[3].rolls[1]: bad");
        assert_eq!(moved.loc, vec![Key("steps".into()), Index(3), Key("rolls".into()), Index(1)]);
        let json = moved.to_json();
        assert_eq!(json["loc"], serde_json::json!(["steps", 3, "rolls", 1]));
        assert_eq!(Error::from_json(&json, &crate::json::At::Root).unwrap(), moved);
        assert_eq!(serde_json::to_value(&moved).unwrap(), json);
        // The JSON reader's own items: an unknown key with a dot stays one key.
        let e = crate::call("dice.roll", serde_json::json!({"expr": "1d6", "a.b": 1})).unwrap_err();
        assert_eq!(e.loc, vec![Key("a.b".into())]);
        let e = crate::call("dice.roll", serde_json::json!({"expr": "1d6", "rolls": [1, "x"]})).unwrap_err();
        assert_eq!(e.loc, vec![Key("rolls".into()), Index(1)]);
        let e = crate::call("dice.roll", serde_json::json!({})).unwrap_err();
        assert_eq!(e.loc, vec![Key("expr".into())]);
    }

    #[test]
    fn quotes_are_short() {
        assert_eq!(quote("abc"), "\"abc\"");
        let q = quote(&"x".repeat(1_000_000));
        assert_eq!(q, format!("{:?}…", "x".repeat(QUOTED_CHARS)));
        assert_eq!(quote(&"é".repeat(QUOTED_CHARS)), format!("{:?}", "é".repeat(QUOTED_CHARS)));
        assert_eq!(excerpt("abc"), "abc");
        assert_eq!(excerpt(&"字".repeat(1_000_000)), format!("{}…", "字".repeat(QUOTED_CHARS)));
    }
}
