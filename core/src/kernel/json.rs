//! The JSON conversions behind [`call`](crate::call): [`FromJson`] and [`ToJson`].
//!
//! Every argument, result and state type derives them (`gunbai-derive`) next to serde's
//! `Deserialize` and `Serialize` (with the `serde` feature, on by default), from the same
//! `#[serde(...)]` attributes. serde is for Rust callers; these are what the JSON entry
//! points, and so the npm package and the wheel (built without `serde`), run. The reason is size: serde's derived visitors cost about a kilobyte of wasm
//! per type, while the code derived here is a short sequence of calls into the
//! helpers below, which have one instance per field type or none (DESIGN.md, "Why our
//! own JSON derive?").
//!
//! The two must agree: the derive accepts only the `#[serde]` attributes it implements
//! (anything else is a compile error), the tests below compare each attribute with serde,
//! and the conformance-vector test turns on [`crate::ops::crosscheck`], which runs serde's
//! conversions beside these on every call and panics on any difference.
//!
//! Errors name the path of the failing value, as [`crate::json_de`] does: object keys
//! joined by `.`, array indices as `[i]`, an externally tagged variant as a key, `.` for
//! the root; a missing field is reported at its object. An object is checked for unknown
//! keys first (when its type denies them), then field by field in declaration order; so
//! for an object with several errors the first reported may differ from serde's, which
//! follows the object's key order.
//!
//! ```
//! use gunbai::json::{from_value, ToJson};
//! use gunbai::dice::RollKind;
//! let kind: RollKind = from_value(&serde_json::json!("tens_d10")).unwrap();
//! assert_eq!(kind.to_json(), serde_json::json!("tens_d10"));
//! let e = from_value::<Vec<RollKind>>(&serde_json::json!(["normal", "d7"])).unwrap_err();
//! assert_eq!(e.path, "[1]");
//! ```

pub use crate::json_de::PathError;
pub use gunbai_derive::{DeserializeFromJson, FromJson, ToJson};
use serde::Serialize;
pub use serde_json::Map;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

/// serde's `DeserializeOwned` in builds with the `serde` feature, where the generic
/// entry points also state it (for the debug cross-check of [`FromJson`] against serde);
/// without the feature, a bound every type meets.
#[cfg(feature = "serde")]
pub trait SerdeIn: serde::de::DeserializeOwned {}
#[cfg(feature = "serde")]
impl<T: serde::de::DeserializeOwned> SerdeIn for T {}
/// serde's `DeserializeOwned` with the `serde` feature; without it, every type.
#[cfg(not(feature = "serde"))]
pub trait SerdeIn {}
#[cfg(not(feature = "serde"))]
impl<T> SerdeIn for T {}

/// serde's `Serialize` in builds with the `serde` feature (as [`SerdeIn`]); without the
/// feature, a bound every type meets.
#[cfg(feature = "serde")]
pub trait SerdeOut: serde::Serialize {}
#[cfg(feature = "serde")]
impl<T: serde::Serialize + ?Sized> SerdeOut for T {}
/// serde's `Serialize` with the `serde` feature; without it, every type.
#[cfg(not(feature = "serde"))]
pub trait SerdeOut {}
#[cfg(not(feature = "serde"))]
impl<T: ?Sized> SerdeOut for T {}

/// A conversion failure: where and what.
pub type JsonError = Box<PathError>;
/// The result of a conversion.
pub type JsonResult<T> = Result<T, JsonError>;

/// One link of the path from the root to the value being read.
#[derive(Clone, Copy)]
pub enum At<'a> {
    /// The root value.
    Root,
    /// Element `.1` of the array at `.0`.
    Index(&'a At<'a>, usize),
    /// Key `.1` of the object at `.0`.
    Key(&'a At<'a>, &'a str),
}

impl At<'_> {
    /// The keys and indices from the root to here.
    pub fn items(&self) -> Vec<crate::error::PathItem> {
        let mut out = Vec::new();
        let mut c = self;
        while let At::Index(parent, _) | At::Key(parent, _) = c {
            out.push(match c {
                At::Index(_, i) => crate::error::PathItem::Index(u32::try_from(*i).unwrap_or(u32::MAX)),
                At::Key(_, k) => crate::error::PathItem::Key((*k).to_string()),
                At::Root => unreachable!(),
            });
            c = parent;
        }
        out.reverse();
        out
    }

    /// `a.b[2].c`, or `.` for the root.
    pub fn render(&self) -> String {
        let mut links = Vec::new();
        let mut c = self;
        loop {
            match c {
                At::Root => break,
                At::Index(parent, _) | At::Key(parent, _) => {
                    links.push(c);
                    c = parent;
                }
            }
        }
        if links.is_empty() {
            return ".".to_string();
        }
        let mut out = String::new();
        for link in links.iter().rev() {
            match link {
                At::Index(_, i) => {
                    let _ = write!(out, "[{i}]");
                }
                At::Key(_, k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                At::Root => {}
            }
        }
        out
    }
}

/// A failure at `at`.
#[inline(never)]
pub fn error(at: &At<'_>, message: String) -> JsonError {
    Box::new(PathError {
        path: at.render(),
        message,
        missing: None,
        loc: at.items(),
        out_of_range: false,
        rule: None,
    })
}

/// Read a `T` from a JSON value.
pub trait FromJson: Sized {
    /// Read `v`, which sits at `at` (for error paths).
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self>;
}

/// A named struct read from the keys of an object: its own, or the object of a struct that
/// flattens it (`#[serde(flatten)]`, as serde does). `FromJson`'s derive implements it for
/// every named struct; unused, it costs nothing.
pub trait FlatJson: Sized {
    /// Append the keys this struct reads, flattened structs' keys included, in declaration
    /// order (the valid keys an unknown-key error lists).
    fn field_names(out: &mut Vec<&'static str>);
    /// Read the fields from `obj`, which sits at `at`; other keys are not looked at (the
    /// reader of the whole object refuses unknown ones).
    fn from_fields(obj: &Map<String, Value>, at: &At<'_>) -> JsonResult<Self>;
}

/// Write a value as JSON, exactly as `serde_json::to_value` would.
pub trait ToJson {
    /// The JSON form.
    fn to_json(&self) -> Value;

    /// Append the JSON text of [`to_json`](Self::to_json) to `out`, byte for byte what
    /// `serde_json::to_vec(&self.to_json())` gives, without building the `Value` (building,
    /// writing and freeing the tree was most of a call's cost). The derive and
    /// the standard types write directly; the default goes through the `Value`.
    fn write_json(&self, out: &mut Vec<u8>) {
        write_value(&self.to_json(), out);
    }
}

/// Read a `T` from `value` (the root).
pub fn from_value<T: FromJson>(value: &Value) -> Result<T, PathError> {
    T::from_json(value, &At::Root).map_err(|e| *e)
}

// ---- what the derive calls -------------------------------------------------------------

/// How serde names a JSON value's kind in its messages ("invalid type: string \"x\"").
fn unexpected(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => {
            if n.is_f64() {
                format!("floating point `{n}`")
            } else {
                format!("integer `{n}`")
            }
        }
        Value::String(s) => format!("string {}", crate::error::quote(s)),
        Value::Array(_) => "sequence".to_string(),
        Value::Object(_) => "map".to_string(),
    }
}

/// "invalid type: …, expected …" at `at`.
#[inline(never)]
pub fn invalid_type(v: &Value, at: &At<'_>, expected: &str) -> JsonError {
    error(at, format!("invalid type: {}, expected {expected}", unexpected(v)))
}

/// `v` as an object.
#[inline(never)]
pub fn object<'v>(v: &'v Value, at: &At<'_>, expected: &str) -> JsonResult<&'v Map<String, Value>> {
    match v {
        Value::Object(m) => Ok(m),
        other => Err(invalid_type(other, at, expected)),
    }
}

/// An input name (a key, a variant) in backticks as serde writes it, cut short when long.
fn backticked(name: &str) -> String {
    match name.char_indices().nth(crate::error::QUOTED_CHARS) {
        None => format!("`{name}`"),
        Some((end, _)) => format!("`{}…`", &name[..end]),
    }
}

pub(crate) fn one_of(names: &[&str]) -> String {
    match names {
        [] => "there are none".to_string(),
        [one] => format!("`{one}`"),
        _ => {
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("one of {}", quoted.join(", "))
        }
    }
}

/// A struct that denies unknown fields: every key of `obj` must be one of `fields` (or
/// the enum's `tag`); the first other key is the error.
#[inline(never)]
pub fn deny_unknown(
    obj: &Map<String, Value>,
    fields: &[&str],
    tag: Option<&str>,
    at: &At<'_>,
) -> JsonResult<()> {
    deny_unknown_aliased(obj, fields, &[], tag, at)
}

/// [`deny_unknown`] for a struct with aliased fields (`#[serde(alias = "…")]`): an alias is
/// accepted but not offered in the message, which names the current fields only.
#[inline(never)]
pub fn deny_unknown_aliased(
    obj: &Map<String, Value>,
    fields: &[&str],
    aliases: &[&str],
    tag: Option<&str>,
    at: &At<'_>,
) -> JsonResult<()> {
    for key in obj.keys() {
        if aliases.contains(&key.as_str()) {
            continue;
        }
        if !fields.contains(&key.as_str()) && Some(key.as_str()) != tag {
            return Err(error(
                &At::Key(at, key),
                format!("unknown field {}, expected {}", backticked(key), one_of(fields)),
            ));
        }
    }
    Ok(())
}

/// The key an aliased field is read under: its `name`, or else its older `alias` if the
/// object has that; both at once is refused (serde's "duplicate field").
#[inline(never)]
pub fn aliased(
    obj: &Map<String, Value>,
    name: &'static str,
    alias: &'static str,
    at: &At<'_>,
) -> JsonResult<&'static str> {
    match (obj.contains_key(name), obj.contains_key(alias)) {
        (true, true) => {
            Err(error(&At::Key(at, alias), format!("duplicate field `{name}` (`{alias}` is its older name)")))
        }
        (false, true) => Ok(alias),
        _ => Ok(name),
    }
}

#[inline(never)]
fn missing_field(name: &str, at: &At<'_>) -> JsonError {
    let mut e = error(at, format!("missing field `{name}`"));
    e.missing = Some(name.to_string());
    e
}

/// The required field `key` of `obj`, or "missing field" at the object.
///
/// It and [`opt`] have one instance per field type, shared by every struct (the derive
/// calls them rather than inlining each read).
#[inline(never)]
pub fn req<T: FromJson>(obj: &Map<String, Value>, key: &str, at: &At<'_>) -> JsonResult<T> {
    match obj.get(key) {
        Some(x) => T::from_json(x, &At::Key(at, key)),
        None => Err(missing_field(key, at)),
    }
}

/// The optional field `key` of `obj`.
#[inline(never)]
pub fn opt<T: FromJson>(obj: &Map<String, Value>, key: &str, at: &At<'_>) -> JsonResult<Option<T>> {
    match obj.get(key) {
        Some(x) => T::from_json(x, &At::Key(at, key)).map(Some),
        None => Ok(None),
    }
}

/// The range check of a field declared `#[schemars(range(min = …, max = …))]`: a number
/// at `key` of `obj` (with `depth` > 0, in the arrays `depth` levels down: `inner(range)`)
/// outside `min..=max` is refused (`out_of_range`, RULINGS "Error codes", at the number's own
/// path); anything else, a missing key or a value of another type, is left to the field's
/// reader. One function, called with the bounds, for every declared field.
#[inline(never)]
pub fn in_range(obj: &Map<String, Value>, key: &str, at: &At<'_>, range: Range) -> JsonResult<()> {
    match obj.get(key) {
        Some(v) => range_at(v, &At::Key(at, key), range),
        None => Ok(()),
    }
}

/// A declared range: `(depth, min, max, rule)`, the levels of arrays above the numbers, the
/// bounds, and the rule ID that states them (cited by the refusal).
pub type Range = (u8, f64, f64, Option<&'static str>);

fn range_at(v: &Value, at: &At<'_>, (depth, min, max, rule): Range) -> JsonResult<()> {
    match v {
        Value::Array(items) if depth > 0 => {
            for (i, x) in items.iter().enumerate() {
                range_at(x, &At::Index(at, i), (depth - 1, min, max, rule))?;
            }
            Ok(())
        }
        Value::Number(n) if depth == 0 => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            if x >= min && x <= max {
                return Ok(());
            }
            // Declared bounds are integers: formatted as i64, so that no entry carries
            // the float formatter (about 8 KB of wasm) for this message alone.
            let (lo, hi) = (min as i64, max as i64);
            let expected = if min == f64::NEG_INFINITY {
                format!("at most {hi}")
            } else if max == f64::INFINITY {
                format!("at least {lo}")
            } else {
                format!("{lo}..={hi}")
            };
            let mut e = error(at, format!("{n} is out of range: expected {expected}"));
            e.out_of_range = true;
            e.rule = rule;
            Err(e)
        }
        _ => Ok(()),
    }
}

/// An externally tagged enum: the variant's index, and for the object form
/// `{"variant": payload}` the key and payload.
#[inline(never)]
pub fn variant_index<'v>(
    v: &'v Value,
    variants: &[&str],
    at: &At<'_>,
) -> JsonResult<(usize, Option<(&'v str, &'v Value)>)> {
    let (name, payload, name_at) = match v {
        Value::String(s) => (s.as_str(), None, *at),
        Value::Object(m) => {
            let mut it = m.iter();
            match (it.next(), it.next()) {
                (Some((k, x)), None) => (k.as_str(), Some((k.as_str(), x)), At::Key(at, k.as_str())),
                _ => return Err(error(at, "invalid value: map, expected map with a single key".to_string())),
            }
        }
        other => return Err(invalid_type(other, at, "string or map")),
    };
    match variants.iter().position(|n| *n == name) {
        Some(i) => Ok((i, payload)),
        None => Err(unknown_variant(name, variants, &name_at)),
    }
}

#[inline(never)]
fn unknown_variant(name: &str, variants: &[&str], at: &At<'_>) -> JsonError {
    error(at, format!("unknown variant {}, expected {}", backticked(name), one_of(variants)))
}

/// A unit variant: given as a string, or as `{"variant": null}`.
#[inline(never)]
pub fn unit_variant(payload: Option<(&str, &Value)>, at: &At<'_>) -> JsonResult<()> {
    match payload {
        None | Some((_, Value::Null)) => Ok(()),
        Some((k, other)) => Err(invalid_type(other, &At::Key(at, k), "unit variant")),
    }
}

/// A newtype or struct variant's payload (the string form has none).
#[inline(never)]
pub fn variant_payload<'v>(
    payload: Option<(&'v str, &'v Value)>,
    at: &At<'_>,
    kind: &str,
) -> JsonResult<(&'v str, &'v Value)> {
    payload.ok_or_else(|| error(at, format!("invalid type: unit variant, expected {kind}")))
}

/// An internally tagged enum: the index of the variant that `obj[tag]` names.
#[inline(never)]
pub fn tag_index(obj: &Map<String, Value>, tag: &str, variants: &[&str], at: &At<'_>) -> JsonResult<usize> {
    let tag_at = At::Key(at, tag);
    match obj.get(tag) {
        Some(Value::String(s)) => match variants.iter().position(|n| n == s) {
            Some(i) => Ok(i),
            None => Err(unknown_variant(s, variants, &tag_at)),
        },
        Some(other) => Err(invalid_type(other, &tag_at, "a variant name (string)")),
        None => Err(missing_field(tag, at)),
    }
}

/// The `{"error": …}` envelope of the JSON entry points: the error [bounded](crate::Error::bounded).
pub fn error_envelope(e: crate::Error) -> Value {
    single("error", e.bounded().to_json())
}

/// Put `value` under `key`.
pub fn put<T: ToJson + ?Sized>(m: &mut Map<String, Value>, key: &str, value: &T) {
    put_value(m, key, value.to_json());
}

#[inline(never)]
fn put_value(m: &mut Map<String, Value>, key: &str, value: Value) {
    m.insert(key.to_string(), value);
}

/// Put the string `value` under `key`.
#[inline(never)]
pub fn put_str(m: &mut Map<String, Value>, key: &str, value: &str) {
    m.insert(key.to_string(), Value::String(value.to_string()));
}

/// A JSON string.
#[inline(never)]
pub fn string(s: &str) -> Value {
    Value::String(s.to_string())
}

/// `{key: value}`.
#[inline(never)]
pub fn single(key: &str, value: Value) -> Value {
    let mut m = Map::new();
    m.insert(key.to_string(), value);
    Value::Object(m)
}

/// A `#[serde(flatten)]` field: its object's entries join the enclosing object.
#[inline(never)]
pub fn flatten_into(m: &mut Map<String, Value>, value: Value) {
    if let Value::Object(inner) = value {
        m.extend(inner);
    }
}

// ---- what the derived `write_json` calls ----------------------------------------------

/// Append the text of `v` (compact, as `Value`'s `Display` writes it).
#[inline(never)]
pub fn write_value(v: &Value, out: &mut Vec<u8>) {
    // Writing to a Vec cannot fail, and a Value's keys are strings.
    let _ = serde_json::to_writer(out, v);
}

/// Append `s` as a JSON string, escaped as serde_json escapes it (`"`, `\\` and the
/// control characters below U+0020). A string with nothing to escape, the usual case, is
/// copied whole; one with an escape goes through serde_json's writer.
#[inline(never)]
pub fn write_str(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    if bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\') {
        let _ = serde_json::to_writer(out, s);
        return;
    }
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    out.extend_from_slice(bytes);
    out.push(b'"');
}

/// Append `text` as it is (a literal the derive made: a key, a variant name, braces).
#[inline(never)]
pub fn write_raw(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(text.as_bytes());
}

/// Append the member key `key` (its JSON text with the colon: `"name":`), after a comma
/// unless it is the object's first member.
#[inline(never)]
pub fn write_key(out: &mut Vec<u8>, first: &mut bool, key: &str) {
    if !std::mem::take(first) {
        out.push(b',');
    }
    out.extend_from_slice(key.as_bytes());
}

/// A `#[serde(flatten)]` field: the members of its object join the enclosing object's.
#[inline(never)]
pub fn write_flattened(out: &mut Vec<u8>, first: &mut bool, value: &Value) {
    if let Value::Object(inner) = value {
        for (k, v) in inner {
            if !std::mem::take(first) {
                out.push(b',');
            }
            write_str(k, out);
            out.push(b':');
            write_value(v, out);
        }
    }
}

/// Append a number or another scalar serde writes directly.
fn write_scalar<T: Serialize + ?Sized>(v: &T, out: &mut Vec<u8>) {
    let _ = serde_json::to_writer(out, v);
}

/// A JSON value kept as the text [`ToJson::write_json`] wrote for it (compact, keys in
/// their order): a result nested in another is written once, as text, and copied into
/// the enclosing result's text, not built as a `Value` and written again (as
/// `command.run`'s `result`). It reads, writes, compares and has the JSON Schema of the
/// `Value` it holds; [`to_value`](Self::to_value) gives that `Value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawJson(Box<[u8]>);

impl RawJson {
    /// The text of `v`.
    pub fn of<T: ToJson + ?Sized>(v: &T) -> RawJson {
        let mut out = Vec::with_capacity(512);
        v.write_json(&mut out);
        RawJson(out.into())
    }

    /// Text that [`ToJson::write_json`] wrote (one JSON value).
    pub(crate) fn written(text: Vec<u8>) -> RawJson {
        RawJson(text.into())
    }

    /// The JSON text (UTF-8: `write_json` writes only `&str`s and ASCII).
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The value.
    pub fn to_value(&self) -> Value {
        // Text written by `write_json`, so JSON. Read as `&str`: `from_slice` would bring a
        // second copy of serde_json's parser into the wasm (about 12 KB of code).
        std::str::from_utf8(&self.0).ok().and_then(|t| serde_json::from_str(t).ok()).unwrap_or(Value::Null)
    }
}

impl ToJson for RawJson {
    fn to_json(&self) -> Value {
        self.to_value()
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
}

impl FromJson for RawJson {
    fn from_json(v: &Value, _at: &At<'_>) -> JsonResult<Self> {
        Ok(RawJson(v.to_string().into_bytes().into()))
    }
}

#[cfg(feature = "serde")]
impl Serialize for RawJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for RawJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(|v| RawJson(v.to_string().into_bytes().into()))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for RawJson {
    fn inline_schema() -> bool {
        <Value as schemars::JsonSchema>::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Value as schemars::JsonSchema>::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        <Value as schemars::JsonSchema>::schema_id()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Value as schemars::JsonSchema>::json_schema(g)
    }
}

// ---- the standard types ----------------------------------------------------------------

macro_rules! int_impls {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
                let (lo, hi) = (<$t>::MIN as i128, <$t>::MAX as i128);
                let n = integer(v, at, lo, hi, stringify!($t))?;
                // `integer` checked the range.
                Ok(n as $t)
            }
        }
        impl ToJson for $t {
            fn to_json(&self) -> Value {
                Value::from(*self)
            }
            fn write_json(&self, out: &mut Vec<u8>) {
                write_scalar(self, out);
            }
        }
    )*};
}

/// An integer within `lo..=hi` (serde's wording for the failures).
///
/// A whole number past 64 bits (`2**64` or `10**30` from Python, `1e+30` from JS) reads
/// as a JSON float; it is still an integer the caller passed, outside the field's range,
/// so it is refused as a value (`out_of_range` in [`crate::ops`]) naming the range
/// rather than as a float.
#[inline(never)]
fn integer(v: &Value, at: &At<'_>, lo: i128, hi: i128, name: &str) -> JsonResult<i128> {
    let n = match v {
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => u as i128,
            (None, Some(i), _) => i as i128,
            // `as` saturates: 1e40 is past every range either way.
            (None, None, Some(x)) if x.fract() == 0.0 && !(lo..=hi).contains(&(x as i128)) => {
                return Err(error(
                    at,
                    format!(
                        "invalid value: integer `{n}`, expected {name} ({}..={})",
                        int_text(lo),
                        int_text(hi)
                    ),
                ));
            }
            _ => return Err(invalid_type(v, at, name)),
        },
        other => return Err(invalid_type(other, at, name)),
    };
    if n < lo || n > hi {
        return Err(error(at, format!("invalid value: integer `{}`, expected {name}", int_text(n))));
    }
    Ok(n)
}

/// `x` (within `i64::MIN..=u64::MAX`, as every bound and number read here) as `{x}` writes
/// it, through the 64-bit formatters: formatting an `i128` brings its own into the wasm.
fn int_text(x: i128) -> String {
    match u64::try_from(x) {
        Ok(u) => u.to_string(),
        // Negative, and at least `i64::MIN` here: the bound never bites.
        Err(_) => (x.max(i64::MIN.into()) as i64).to_string(),
    }
}

int_impls!(i8, i16, i32, i64, u8, u16, u32, u64);

/// `usize` is read within `u32` on every target: the wasm build's `usize` is 32 bits,
/// and a native build must refuse the same numbers with the same message.
impl FromJson for usize {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        let n = integer(v, at, 0, u32::MAX as i128, "usize")?;
        // In range for u32, so for usize on every target gunbai builds for.
        Ok(n as usize)
    }
}

impl ToJson for usize {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        write_scalar(self, out);
    }
}

impl FromJson for f64 {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        match v {
            Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
            other => Err(invalid_type(other, at, "f64")),
        }
    }
}

impl ToJson for f64 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        // A non-finite number is `null`, as in its `Value`.
        write_scalar(self, out);
    }
}

impl FromJson for bool {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        match v {
            Value::Bool(b) => Ok(*b),
            other => Err(invalid_type(other, at, "a boolean")),
        }
    }
}

impl ToJson for bool {
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        write_raw(out, if *self { "true" } else { "false" });
    }
}

impl FromJson for String {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        match v {
            Value::String(s) => Ok(s.clone()),
            other => Err(invalid_type(other, at, "a string")),
        }
    }
}

impl ToJson for String {
    fn to_json(&self) -> Value {
        string(self)
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        write_str(self, out);
    }
}

impl ToJson for str {
    fn to_json(&self) -> Value {
        string(self)
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        write_str(self, out);
    }
}

impl FromJson for char {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        if let Value::String(s) = v {
            let mut it = s.chars();
            if let (Some(c), None) = (it.next(), it.next()) {
                return Ok(c);
            }
        }
        Err(invalid_type(v, at, "a character"))
    }
}

impl ToJson for char {
    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        write_str(self.encode_utf8(&mut [0; 4]), out);
    }
}

impl FromJson for Value {
    fn from_json(v: &Value, _at: &At<'_>) -> JsonResult<Self> {
        Ok(v.clone())
    }
}

impl ToJson for Value {
    fn to_json(&self) -> Value {
        self.clone()
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        write_value(self, out);
    }
}

impl FromJson for Map<String, Value> {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        object(v, at, "a map").cloned()
    }
}

impl ToJson for Map<String, Value> {
    fn to_json(&self) -> Value {
        Value::Object(self.clone())
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        let _ = serde_json::to_writer(out, self);
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        (**self).write_json(out);
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        match v {
            Value::Null => Ok(None),
            _ => T::from_json(v, at).map(Some),
        }
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        match self {
            Some(v) => v.to_json(),
            None => Value::Null,
        }
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            Some(v) => v.write_json(out),
            None => write_raw(out, "null"),
        }
    }
}

/// `v` as an array.
#[inline(never)]
pub fn array<'v>(v: &'v Value, at: &At<'_>) -> JsonResult<&'v [Value]> {
    match v {
        Value::Array(items) => Ok(items),
        other => Err(invalid_type(other, at, "a sequence")),
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        let items = array(v, at)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, x) in items.iter().enumerate() {
            out.push(T::from_json(x, &At::Index(at, i))?);
        }
        Ok(out)
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        self.as_slice().write_json(out);
    }
}

impl<T: ToJson> ToJson for [T] {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, x) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            x.write_json(out);
        }
        out.push(b']');
    }
}

/// `items` must hold exactly `n` values.
#[inline(never)]
fn exact_len(items: &[Value], n: usize, at: &At<'_>) -> JsonResult<()> {
    if items.len() == n {
        Ok(())
    } else {
        Err(error(at, format!("invalid length {}, expected an array of length {n}", items.len())))
    }
}

impl<T: FromJson, const N: usize> FromJson for [T; N] {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        let items = array(v, at)?;
        exact_len(items, N, at)?;
        let mut out = Vec::with_capacity(N);
        for (i, x) in items.iter().enumerate() {
            out.push(T::from_json(x, &At::Index(at, i))?);
        }
        out.try_into().map_err(|_| error(at, format!("expected an array of length {N}")))
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        self.as_slice().write_json(out);
    }
}

impl<A: FromJson, B: FromJson> FromJson for (A, B) {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        let items = array(v, at)?;
        exact_len(items, 2, at)?;
        Ok((A::from_json(&items[0], &At::Index(at, 0))?, B::from_json(&items[1], &At::Index(at, 1))?))
    }
}

impl<A: ToJson, B: ToJson> ToJson for (A, B) {
    fn to_json(&self) -> Value {
        Value::Array(vec![self.0.to_json(), self.1.to_json()])
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        self.0.write_json(out);
        out.push(b',');
        self.1.write_json(out);
        out.push(b']');
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        let mut out = BTreeMap::new();
        for (k, x) in object(v, at, "a map")? {
            out.insert(k.clone(), T::from_json(x, &At::Key(at, k))?);
        }
        Ok(out)
    }
}

impl<T: ToJson> ToJson for BTreeMap<String, T> {
    fn to_json(&self) -> Value {
        let mut m = Map::new();
        for (k, v) in self {
            put(&mut m, k, v);
        }
        Value::Object(m)
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_str(k, out);
            out.push(b':');
            v.write_json(out);
        }
        out.push(b'}');
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        T::from_json(v, at).map(Box::new)
    }
}

impl<T: ToJson + ?Sized> ToJson for Box<T> {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        (**self).write_json(out);
    }
}

impl<T: FromJson> FromJson for Arc<T> {
    fn from_json(v: &Value, at: &At<'_>) -> JsonResult<Self> {
        T::from_json(v, at).map(Arc::new)
    }
}

impl<T: ToJson + ?Sized> ToJson for Arc<T> {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
    fn write_json(&self, out: &mut Vec<u8>) {
        (**self).write_json(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one() -> u32 {
        1
    }

    #[derive(Debug, PartialEq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[serde(deny_unknown_fields)]
    struct Inner {
        n: u32,
        #[serde(default)]
        tag: Option<String>,
        #[serde(default = "one")]
        step: u32,
        #[serde(rename = "self", default, skip_serializing_if = "Vec::is_empty")]
        me: Vec<i8>,
    }

    #[derive(Debug, PartialEq, Default, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[serde(default)]
    struct Loose {
        a: i64,
        b: Option<f64>,
        pair: (u8, String),
        grid: [bool; 2],
        map: BTreeMap<String, u16>,
        c: char,
    }

    #[derive(Debug, PartialEq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Dot,
        TensD10,
        Line(u32),
        BigBox {
            w: u32,
            #[serde(default)]
            h: u32,
        },
    }

    crate::internally_tagged! {
        #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
        #[derive(Debug, PartialEq, ToJson, FromJson)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        enum Tagged {
            Walk { to: u32, #[serde(default)] run: bool },
            Wait,
        }
    }

    #[derive(Debug, PartialEq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    struct Outer {
        items: Vec<Inner>,
        shape: Option<Shape>,
        #[serde(default)]
        tagged: Vec<Tagged>,
        #[serde(default)]
        loose: Loose,
        #[serde(default)]
        raw: Value,
        opt: Option<Box<Shape>>,
    }

    /// Both read `v` alike (same value, or a failure at the same path); returns the path.
    fn check(v: Value) -> Option<String> {
        let ours = from_value::<Outer>(&v);
        let theirs = crate::json_de::from_value::<Outer>(&v);
        match (ours, theirs) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "read {v}");
                assert_eq!(a.to_json(), serde_json::to_value(&a).unwrap(), "write {v}");
                None
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.path, b.path, "{v}: {} / {}", a.message, b.message);
                Some(a.path)
            }
            (a, b) => panic!("{v}: ours {:?}, serde {:?}", a.err(), b.err()),
        }
    }

    #[test]
    fn reads_and_writes_like_serde() {
        let full = json!({
            "items": [{"n": 1}, {"n": 2, "tag": "x", "step": 3, "self": [-1, 2]}, {"n": 0, "tag": null}],
            "shape": {"big_box": {"w": 2}},
            "tagged": [{"type": "walk", "to": 3}, {"type": "wait"}, {"to": 5, "type": "walk", "run": true}],
            "loose": {"a": -4, "b": 2, "pair": [7, "z"], "grid": [true, false], "map": {"k": 9}, "c": "字"},
            "raw": {"any": [1, "thing"]},
            "opt": "tens_d10",
        });
        assert_eq!(check(full.clone()), None);
        // Unknown keys are refused even where the type does not say deny_unknown_fields
        // (serde's derive accepts them there), and at a tagged unit variant.
        let mut extra = full.clone();
        extra["unknown"] = json!(1);
        assert_eq!(from_value::<Outer>(&extra).unwrap_err().path, "unknown");
        let mut extra = full.clone();
        extra["loose"]["zz"] = json!(1);
        assert_eq!(from_value::<Outer>(&extra).unwrap_err().path, "loose.zz");
        let mut extra = full;
        extra["tagged"][1]["actr"] = json!("a");
        assert_eq!(check(extra), Some("tagged[1].actr".to_string()));
        for shape in [json!("dot"), json!({"dot": null}), json!({"line": 7}), json!(null)] {
            assert_eq!(check(json!({"items": [], "shape": shape, "opt": null})), None);
        }
        assert_eq!(check(json!({"items": [], "shape": null, "opt": {"big_box": {"w": 1, "h": 2}}})), None);
    }

    #[derive(Debug, PartialEq, Default, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[serde(deny_unknown_fields)]
    struct Seedy {
        #[serde(default)]
        seed: Option<u64>,
    }

    #[derive(Debug, PartialEq, Default, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
    #[serde(deny_unknown_fields)]
    struct Dicey {
        #[serde(flatten)]
        seeded: Seedy,
        #[serde(default)]
        rolls: Option<Vec<u8>>,
    }

    #[derive(Debug, PartialEq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
    #[serde(deny_unknown_fields)]
    struct Flat {
        n: u32,
        #[serde(flatten)]
        dice: Dicey,
        #[serde(default)]
        after: bool,
    }

    #[test]
    fn flattened_groups_read_and_write_as_one_object() {
        let v = json!({"n": 1, "seed": 7, "rolls": [1, 2], "after": true});
        let f: Flat = from_value(&v).unwrap();
        assert_eq!(f.dice, Dicey { seeded: Seedy { seed: Some(7) }, rolls: Some(vec![1, 2]) });
        assert_eq!(f.to_json(), json!({"n": 1, "seed": 7, "rolls": [1, 2], "after": true}));
        assert_eq!(serde_json::to_value(&f).unwrap(), f.to_json());
        // serde reads it through FromJson, paths included.
        assert_eq!(crate::json_de::from_value::<Flat>(&v).unwrap(), f);
        assert_eq!(from_value::<Flat>(&json!({"n": 1})).unwrap().dice, Dicey::default());
        // An error inside a flattened group names the field itself.
        let e = from_value::<Flat>(&json!({"n": 1, "rolls": [1, -2]})).unwrap_err();
        assert_eq!(e.path, "rolls[1]");
        assert_eq!(
            crate::json_de::from_value::<Flat>(&json!({"n": 1, "rolls": [1, -2]})).unwrap_err().path,
            "rolls[1]"
        );
        let e = from_value::<Vec<Flat>>(&json!([{"n": 1, "seed": "x"}])).unwrap_err();
        assert_eq!(e.path, "[0].seed");
        // Unknown keys are refused across the groups, listing every valid key in order.
        let e = from_value::<Flat>(&json!({"n": 1, "sed": 3})).unwrap_err();
        assert_eq!(e.path, "sed");
        assert_eq!(e.message, "unknown field `sed`, expected one of `n`, `seed`, `rolls`, `after`");
        let e = crate::json_de::from_value::<Vec<Flat>>(&json!([{"n": 1, "sed": 3}])).unwrap_err();
        assert_eq!(e.path, "[0].sed");
        // A missing required field is reported at its object, as elsewhere.
        let e = from_value::<Flat>(&json!({"seed": 1})).unwrap_err();
        assert_eq!((e.path.as_str(), e.missing.as_deref()), (".", Some("n")));
    }

    #[test]
    fn strings_are_written_as_serde_writes_them() {
        let mut every: String = (0u8..0x80).map(char::from).collect();
        every.push_str("\u{80}\u{7ff}\u{800}é軍配\u{2028}\u{FEFF}😀\\\"\"");
        for s in [every.as_str(), "", "plain", "\"", "a\u{1}b\u{1f}", "\\\\", "tab\tend\n"] {
            let mut out = Vec::new();
            write_str(s, &mut out);
            assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(s).unwrap());
        }
    }

    #[test]
    fn integers_are_written_as_i128_would_be() {
        for x in [0, 1, -1, i64::MIN.into(), i64::MAX.into(), u64::MAX.into(), i128::from(i32::MIN) - 7] {
            assert_eq!(int_text(x), x.to_string());
        }
    }

    #[test]
    fn usize_is_32_bits_on_every_target() {
        assert_eq!(from_value::<usize>(&json!(4294967295u64)).unwrap(), 4294967295);
        let e = from_value::<usize>(&json!(4294967296u64)).unwrap_err();
        assert_eq!(e.message, "invalid value: integer `4294967296`, expected usize");
        assert!(from_value::<usize>(&json!(-1)).is_err());
    }

    #[test]
    fn whole_numbers_past_64_bits_are_integers_out_of_range() {
        // What `10**30` (Python) or `1e+30` (JS) and `2**64` read as: floats, refused as
        // integers outside the type's range, not as a float of the wrong type.
        let text = |t: &str| serde_json::from_str::<Value>(t).unwrap();
        let e = from_value::<i64>(&text("1000000000000000000000000000000")).unwrap_err();
        assert_eq!(
            e.message,
            "invalid value: integer `1e+30`, expected i64 (-9223372036854775808..=9223372036854775807)"
        );
        let e = from_value::<u64>(&text("18446744073709551616")).unwrap_err();
        assert!(e.message.starts_with("invalid value: integer `"), "{}", e.message);
        assert!(e.message.ends_with("expected u64 (0..=18446744073709551615)"), "{}", e.message);
        let e = from_value::<u64>(&text("-1e30")).unwrap_err();
        assert!(e.message.starts_with("invalid value: integer `-1e+30`"), "{}", e.message);
        // A fraction stays a float of the wrong type.
        let e = from_value::<i64>(&text("2.5")).unwrap_err();
        assert_eq!(e.message, "invalid type: floating point `2.5`, expected i64");
    }

    #[test]
    fn long_input_is_quoted_short() {
        let long = "x".repeat(100_000);
        let e = from_value::<u32>(&json!(long)).unwrap_err();
        assert!(e.message.len() < 200, "{}", e.message.len());
        let e = from_value::<Shape>(&json!(long)).unwrap_err();
        assert!(e.message.len() < 300 && e.message.starts_with("unknown variant `xxx"), "{}", e.message);
        let mut obj = Map::new();
        obj.insert(long, json!(1));
        let e = from_value::<Inner>(&Value::Object(obj)).unwrap_err();
        assert!(e.message.len() < 300 && e.message.starts_with("unknown field `xxx"), "{}", e.message);
    }

    #[test]
    fn fails_where_serde_fails() {
        let cases = [
            (json!({"items": [{"n": 1}, {"n": -1}], "shape": null, "opt": null}), "items[1].n"),
            (json!({"items": [{"n": 1.5}], "shape": null, "opt": null}), "items[0].n"),
            (json!({"items": [{"n": 4294967296u64}], "shape": null, "opt": null}), "items[0].n"),
            (json!({"items": [{"n": 1, "m": 1}], "shape": null, "opt": null}), "items[0].m"),
            (json!({"items": [{}], "shape": null, "opt": null}), "items[0]"),
            (json!({"items": [{"n": 1, "tag": 5}], "shape": null, "opt": null}), "items[0].tag"),
            (json!({"items": [{"n": 1, "self": [200]}], "shape": null, "opt": null}), "items[0].self[0]"),
            (json!({"items": [], "shape": {"big_box": {"w": "2"}}, "opt": null}), "shape.big_box.w"),
            (json!({"items": [], "shape": {"big_box": {}}, "opt": null}), "shape.big_box"),
            (json!({"items": [], "shape": "cube", "opt": null}), "shape"),
            (json!({"items": [], "shape": {"cube": 1}, "opt": null}), "shape.cube"),
            (json!({"items": [], "shape": {"dot": 1}, "opt": null}), "shape.dot"),
            (json!({"items": [], "shape": "line", "opt": null}), "shape"),
            (json!({"items": [], "shape": 3, "opt": null}), "shape"),
            (json!({"items": [], "shape": {"dot": null, "line": 1}, "opt": null}), "shape"),
            (
                json!({"items": [], "shape": null, "opt": null, "tagged": [{"type": "walk", "to": "1"}]}),
                "tagged[0].to",
            ),
            (
                json!({"items": [], "shape": null, "opt": null, "tagged": [{"type": "walk", "to": 1, "y": 2}]}),
                "tagged[0].y",
            ),
            (json!({"items": [], "shape": null, "opt": null, "tagged": [{"to": 1}]}), "tagged[0]"),
            (json!({"items": [], "shape": null, "opt": null, "tagged": [{"type": "run"}]}), "tagged[0].type"),
            (json!({"items": [], "shape": null, "opt": null, "tagged": [{"type": 0}]}), "tagged[0].type"),
            (json!({"items": [], "shape": null, "opt": null, "tagged": ["wait"]}), "tagged[0]"),
            (json!({"items": [], "shape": null, "opt": null, "loose": {"pair": [1]}}), "loose.pair"),
            (json!({"items": [], "shape": null, "opt": null, "loose": {"grid": [true]}}), "loose.grid"),
            (json!({"items": [], "shape": null, "opt": null, "loose": {"map": {"k": -1}}}), "loose.map.k"),
            (json!({"items": [], "shape": null, "opt": null, "loose": {"c": "ab"}}), "loose.c"),
            (json!({"items": [], "shape": null, "opt": null, "loose": {"a": null}}), "loose.a"),
            (json!({"shape": null}), "."),
            (json!({"items": "no", "shape": null, "opt": null}), "items"),
            (json!([]), "."),
        ];
        for (v, path) in cases {
            assert_eq!(check(v.clone()).as_deref(), Some(path), "{v}");
        }
    }
}
