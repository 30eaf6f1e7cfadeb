//! Deserializing a borrowed [`serde_json::Value`] with serde while tracking where an error
//! happened.
//!
//! The JSON entry points read arguments with [`crate::json`] instead; this is the serde
//! path with the same error paths, for Rust callers who want it and for the debug-build
//! [`crosscheck`](crate::ops) of the two.
//!
//! Every error the core reports for bad input names the field (`teams[0].members[2].trion`),
//! so deserialization must know the path to the value that failed. The usual tool for that
//! wraps both the deserializer and every visitor, which doubles the generated code for each
//! of the few hundred argument and state types; in the wasm build that was about half of
//! the binary (DESIGN.md, "Why a hand-written path-tracking deserializer?").
//!
//! `PathDe` is instead one concrete deserializer over `&Value`: containers hand their
//! children a [`At`] link (the same path links as [`crate::json`]), and the first (deepest) failure records its path in a
//! `Track`. Visitors are used as they are, so each type's `Deserialize` code is
//! instantiated once, for this deserializer.
//!
//! The path format: object keys and struct fields joined by `.`, array indices as `[i]`,
//! an externally tagged enum's variant as a key, and `.` for the root.

use crate::json::At;
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};
use std::cell::RefCell;

type E = serde_json::Error;

/// Where the first error happened (set once, by the deepest failing value).
#[derive(Default)]
struct Track {
    path: RefCell<Option<String>>,
}

impl Track {
    fn trigger(&self, chain: &At<'_>, err: E) -> E {
        let mut p = self.path.borrow_mut();
        if p.is_none() {
            let mut path = chain.render();
            // An internally tagged enum below failed: its own path continues this one.
            if let Some(sub) = SUBPATH.with(|s| s.borrow_mut().take()) {
                if path == "." {
                    path = sub;
                } else if sub.starts_with('[') {
                    path.push_str(&sub);
                } else if sub != "." {
                    path.push('.');
                    path.push_str(&sub);
                }
            }
            *p = Some(path);
        }
        err
    }
}

/// A deserialization failure: the path of the failing value (`.` for the root) and
/// serde's message.
#[derive(Debug)]
pub struct PathError {
    /// `a.b[2].c`, or `.` for the root value. For a missing field, its object.
    pub path: String,
    /// What went wrong (serde's wording).
    pub message: String,
    /// The name of the required field that is missing, when that is the failure.
    pub missing: Option<String>,
    /// [`path`](Self::path) as keys and indices.
    pub loc: Vec<crate::error::PathItem>,
    /// A number of the right type outside its field's declared range (`out_of_range`).
    pub out_of_range: bool,
    /// The rule a declared range cites (`#[json(rule = "…")]`), for an `out_of_range` refusal.
    pub rule: Option<&'static str>,
}

impl PathError {
    /// The path of what to fix: for a missing field the field's own path
    /// (`sheet.name`, where [`path`](Self::path) is `sheet`), else [`path`](Self::path).
    pub fn field_path(&self) -> String {
        match &self.missing {
            Some(k) if self.path == "." => k.clone(),
            Some(k) => crate::error::join_path(&self.path, k),
            None => self.path.clone(),
        }
    }

    /// [`field_path`](Self::field_path) as keys and indices (a missing field's own place).
    pub fn field_loc(&self) -> Vec<crate::error::PathItem> {
        let mut loc = self.loc.clone();
        if let Some(k) = &self.missing {
            loc.push(crate::error::PathItem::Key(k.clone()));
        }
        loc
    }
}

thread_local! {
    /// The path inside an internally tagged enum that just failed (see [`internally_tagged`]),
    /// waiting for the enclosing deserializer to prefix it with the enum's own path.
    static SUBPATH: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Deserialize `T` from `value`, reporting the path of the first failing value.
pub fn from_value<T: de::DeserializeOwned>(value: &Value) -> Result<T, PathError> {
    SUBPATH.with(|s| s.borrow_mut().take());
    let track = Track::default();
    let root = At::Root;
    match T::deserialize(PathDe { value, chain: &root, track: &track }) {
        Ok(v) => Ok(v),
        Err(e) => Err(path_error(track, e)),
    }
}

// Not generic, and kept out of line: `from_value` is instantiated once per argument type.
#[inline(never)]
fn path_error(track: Track, e: E) -> PathError {
    let message = e.to_string();
    // serde's `de::Error::missing_field` wording (serde_json keeps it and appends
    // no position for a `Value` source).
    let missing =
        message.strip_prefix("missing field `").and_then(|r| r.strip_suffix('`')).map(str::to_string);
    // A value read through `FromJson` at the root (`via_from_json`) left its path in SUBPATH.
    let path = track.path.into_inner().or_else(|| SUBPATH.with(|s| s.borrow_mut().take()));
    let path = path.unwrap_or_else(|| ".".to_string());
    // serde's path is text (this reader is for Rust callers and the cross-check); the JSON
    // entry points read with `crate::json`, whose items come from the path links.
    PathError { loc: crate::error::loc_of(&path), path, message, missing, out_of_range: false, rule: None }
}

struct PathDe<'a, 'de> {
    value: &'de Value,
    chain: &'a At<'a>,
    track: &'a Track,
}

fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                de::Unexpected::Unsigned(u)
            } else if let Some(i) = n.as_i64() {
                de::Unexpected::Signed(i)
            } else {
                de::Unexpected::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

impl<'a, 'de> PathDe<'a, 'de> {
    fn any<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.seq(items, visitor),
            Value::Object(map) => self.map(map, visitor),
        }
    }

    fn seq<V: Visitor<'de>>(&self, items: &'de [Value], visitor: V) -> Result<V::Value, E> {
        let mut seq = SeqAccess { items: items.iter(), index: 0, chain: self.chain, track: self.track };
        let out = visitor.visit_seq(&mut seq)?;
        if seq.items.len() == 0 {
            Ok(out)
        } else {
            Err(de::Error::invalid_length(items.len(), &"fewer elements in array"))
        }
    }

    fn map<V: Visitor<'de>>(&self, map: &'de Map<String, Value>, visitor: V) -> Result<V::Value, E> {
        let mut access = MapAccess::new(map, self.chain, self.track);
        let out = visitor.visit_map(&mut access)?;
        if access.iter.len() == 0 {
            Ok(out)
        } else {
            Err(de::Error::invalid_length(map.len(), &"fewer elements in map"))
        }
    }

    fn enum_<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Value::Object(map) => {
                let mut it = map.iter();
                let (Some((variant, value)), None) = (it.next(), it.next()) else {
                    return Err(de::Error::invalid_value(de::Unexpected::Map, &"map with a single key"));
                };
                visitor.visit_enum(EnumAccess { variant, value, chain: self.chain, track: self.track })
            }
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }
}

impl<'de> de::Deserializer<'de> for PathDe<'_, 'de> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        self.any(visitor).map_err(|e| self.track.trigger(self.chain, e))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Null => visitor.visit_none().map_err(|e| self.track.trigger(self.chain, e)),
            _ => {
                let (chain, track) = (self.chain, self.track);
                visitor.visit_some(self).map_err(|e| track.trigger(chain, e))
            }
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        let (chain, track) = (self.chain, self.track);
        visitor.visit_newtype_struct(self).map_err(|e| track.trigger(chain, e))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.enum_(visitor).map_err(|e| self.track.trigger(self.chain, e))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    // Structs and maps come only from JSON objects, sequences only from arrays: asking
    // for the one shape keeps each visitor's unused other half out of the binary.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        let r = match self.value {
            Value::Object(map) => self.map(map, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        };
        r.map_err(|e| self.track.trigger(self.chain, e))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        let r = match self.value {
            Value::Array(items) => self.seq(items, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        };
        r.map_err(|e| self.track.trigger(self.chain, e))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, E> {
        self.deserialize_seq(visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct identifier
    }
}

struct SeqAccess<'a, 'de> {
    items: std::slice::Iter<'de, Value>,
    index: usize,
    chain: &'a At<'a>,
    track: &'a Track,
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = E;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, E> {
        let Some(value) = self.items.next() else { return Ok(None) };
        let chain = At::Index(self.chain, self.index);
        self.index += 1;
        seed.deserialize(PathDe { value, chain: &chain, track: self.track })
            .map(Some)
            .map_err(|e| self.track.trigger(&chain, e))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapAccess<'a, 'de> {
    iter: serde_json::map::Iter<'de>,
    value: Option<(&'de str, &'de Value)>,
    /// A key the visitor does not see (an internally tagged enum's tag).
    skip: Option<&'static str>,
    chain: &'a At<'a>,
    track: &'a Track,
}

impl<'a, 'de> MapAccess<'a, 'de> {
    fn new(map: &'de Map<String, Value>, chain: &'a At<'a>, track: &'a Track) -> Self {
        MapAccess { iter: map.iter(), value: None, skip: None, chain, track }
    }

    fn next_entry(&mut self) -> Option<(&'de String, &'de Value)> {
        let entry = self.iter.next()?;
        if Some(entry.0.as_str()) == self.skip {
            self.iter.next()
        } else {
            Some(entry)
        }
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        let Some((key, value)) = self.next_entry() else { return Ok(None) };
        self.value = Some((key, value));
        let chain = At::Key(self.chain, key);
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
            .map_err(|e| self.track.trigger(&chain, e))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, E> {
        let Some((key, value)) = self.value.take() else {
            return Err(de::Error::custom("value is missing"));
        };
        let chain = At::Key(self.chain, key);
        seed.deserialize(PathDe { value, chain: &chain, track: self.track })
            .map_err(|e| self.track.trigger(&chain, e))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The `Deserialize` body of an enum declared with [`internally_tagged!`](crate::internally_tagged):
/// the value is an object whose `tag` key names the variant, and the other keys are the
/// variant's fields.
///
/// serde's own `#[serde(tag = "…")]` buffers the object in its private `Content` type and
/// instantiates every variant's visitor again for that; this reads the object once as a
/// [`Value`] and hands `M` (the enum's externally tagged twin, which the macro derives) the
/// tag as the variant and the object minus the tag as the variant's fields. It works with
/// any deserializer; under [`from_value`] an error inside the variant still names its full
/// path (`actions[0].target`, where serde's version stops at `actions[0]`).
pub fn internally_tagged<'de, M, D>(deserializer: D, tag: &'static str) -> Result<M, D::Error>
where
    M: de::DeserializeOwned,
    D: de::Deserializer<'de>,
{
    use serde::Deserialize as _;
    let value = Value::deserialize(deserializer)?;
    let track = Track::default();
    let root = At::Root;
    M::deserialize(TaggedDe { value: &value, tag, chain: &root, track: &track }).map_err(|e| {
        let path = track.path.into_inner().unwrap_or_else(|| ".".to_string());
        SUBPATH.with(|s| *s.borrow_mut() = Some(path));
        de::Error::custom(e)
    })
}

/// The `Deserialize` body of a type that derives `DeserializeFromJson` (a struct with a
/// flattened field): the value is read as a [`Value`], then with [`FromJson`](crate::json::FromJson).
/// serde's own `flatten` buffers the object and reports errors inside it at the object; this
/// way serde reads such a struct exactly as the JSON entry points do, and under
/// [`from_value`] an error still names its full path.
pub fn via_from_json<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: crate::json::FromJson,
    D: de::Deserializer<'de>,
{
    use serde::Deserialize as _;
    let value = Value::deserialize(deserializer)?;
    crate::json::from_value::<T>(&value).map_err(|e| {
        SUBPATH.with(|s| *s.borrow_mut() = Some(e.path));
        de::Error::custom(e.message)
    })
}

/// Presents `{"<tag>": "variant", ...fields}` to an externally tagged enum's visitor.
struct TaggedDe<'a, 'de> {
    value: &'de Value,
    tag: &'static str,
    chain: &'a At<'a>,
    track: &'a Track,
}

impl<'de> de::Deserializer<'de> for TaggedDe<'_, 'de> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        let Value::Object(map) = self.value else {
            // Not `&visitor`: its expectation would name the macro's hidden twin enum.
            let expected = format!("an object whose `{}` names the kind", self.tag);
            return Err(de::Error::invalid_type(unexpected(self.value), &expected.as_str()));
        };
        let variant = match map.get(self.tag) {
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                let chain = At::Key(self.chain, self.tag);
                let err = de::Error::invalid_type(unexpected(other), &"a variant name (string)");
                return Err(self.track.trigger(&chain, err));
            }
            None => return Err(de::Error::missing_field(self.tag)),
        };
        visitor.visit_enum(TaggedAccess { variant, map, tag: self.tag, chain: self.chain, track: self.track })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct TaggedAccess<'a, 'de> {
    variant: &'de str,
    map: &'de Map<String, Value>,
    tag: &'static str,
    chain: &'a At<'a>,
    track: &'a Track,
}

impl<'a, 'de> de::EnumAccess<'de> for TaggedAccess<'a, 'de> {
    type Error = E;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), E> {
        let v = variant_name(seed, self.variant, &At::Key(self.chain, self.tag), self.track)?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for TaggedAccess<'_, 'de> {
    type Error = E;

    /// Unlike serde's internally tagged unit variants, other keys are refused: every
    /// enum declared with the macro denies unknown fields (as `gunbai-derive` requires).
    fn unit_variant(self) -> Result<(), E> {
        match self.map.keys().find(|k| k.as_str() != self.tag) {
            None => Ok(()),
            Some(key) => {
                let chain = At::Key(self.chain, key);
                let err = de::Error::custom(format_args!("unknown field `{key}`, expected `{}`", self.tag));
                Err(self.track.trigger(&chain, err))
            }
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, E> {
        Err(de::Error::custom("internally_tagged! supports unit and struct variants only"))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, E> {
        Err(de::Error::custom("internally_tagged! supports unit and struct variants only"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        let mut access = MapAccess::new(self.map, self.chain, self.track);
        access.skip = Some(self.tag);
        visitor.visit_map(&mut access)
    }
}

/// Declare an enum that (de)serializes internally tagged, like `#[serde(tag = "…")]`, without
/// serde's `Content` buffering (see [`internally_tagged`]; it roughly halves the decoding
/// code of these enums in the wasm build).
///
/// The first attribute must be `#[serde(tag = "…", …)]`; its other items apply to the
/// enum's serialization and deserialization alike. Variants are unit or struct variants.
/// Derive everything but `Deserialize` as usual; the macro adds `Deserialize`.
///
/// ```
/// use serde::Serialize;
/// gunbai::internally_tagged! {
///     #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
///     /// A move.
///     #[derive(Debug, PartialEq, Serialize)]
///     pub enum Step {
///         /// Go somewhere.
///         Walk { to: u32, #[serde(default)] run: bool },
///         Wait,
///     }
/// }
/// let s: Step = serde_json::from_str(r#"{"to": 3, "type": "walk"}"#).unwrap();
/// assert_eq!(s, Step::Walk { to: 3, run: false });
/// assert_eq!(serde_json::to_string(&Step::Wait).unwrap(), r#"{"type":"wait"}"#);
/// let e = gunbai::json_de::from_value::<Vec<Step>>(&serde_json::json!([{"type": "walk", "to": "x"}]));
/// assert_eq!(e.unwrap_err().path, "[0].to");
/// ```
#[macro_export]
macro_rules! internally_tagged {
    (
        #[serde(tag = $tag:literal $(, $sattr:meta)* $(,)?)]
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $({
                    $( $(#[$fmeta:meta])* $field:ident : $fty:ty ),* $(,)?
                })?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[serde(tag = $tag $(, $sattr)*)]
        $vis enum $name {
            $(
                $(#[$vmeta])*
                $variant $({ $( $(#[$fmeta])* $field : $fty ),* })?
            ),*
        }

        #[cfg(feature = "serde")]
        const _: () = {
            #[derive(serde::Deserialize)]
            #[serde($($sattr),*)]
            #[allow(clippy::large_enum_variant)]
            enum Twin {
                $(
                    $(#[$vmeta])*
                    $variant $({ $( $(#[$fmeta])* $field : $fty ),* })?
                ),*
            }

            impl From<Twin> for $name {
                fn from(twin: Twin) -> Self {
                    match twin {
                        $( Twin::$variant $({ $($field),* })? => $name::$variant $({ $($field),* })? ),*
                    }
                }
            }

            impl<'de> serde::Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    $crate::json_de::internally_tagged::<Twin, D>(deserializer, $tag).map(Self::from)
                }
            }
        };
    };
}

/// An enum's variant name, read through `seed`; a failure (an unknown variant) is
/// recorded at `chain`.
fn variant_name<'de, S: DeserializeSeed<'de>>(
    seed: S,
    variant: &'de str,
    chain: &At<'_>,
    track: &Track,
) -> Result<S::Value, E> {
    seed.deserialize(de::value::BorrowedStrDeserializer::new(variant)).map_err(|e| track.trigger(chain, e))
}

struct EnumAccess<'a, 'de> {
    variant: &'de str,
    value: &'de Value,
    chain: &'a At<'a>,
    track: &'a Track,
}

impl<'a, 'de> de::EnumAccess<'de> for EnumAccess<'a, 'de> {
    type Error = E;
    type Variant = VariantAccess<'a, 'de>;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self::Variant), E> {
        let v = variant_name(seed, self.variant, &At::Key(self.chain, self.variant), self.track)?;
        Ok((
            v,
            VariantAccess { variant: self.variant, value: self.value, parent: self.chain, track: self.track },
        ))
    }
}

struct VariantAccess<'a, 'de> {
    variant: &'de str,
    value: &'de Value,
    parent: &'a At<'a>,
    track: &'a Track,
}

impl<'de> de::VariantAccess<'de> for VariantAccess<'_, 'de> {
    type Error = E;

    fn unit_variant(self) -> Result<(), E> {
        match self.value {
            Value::Null => Ok(()),
            other => {
                let chain = At::Key(self.parent, self.variant);
                Err(self.track.trigger(&chain, de::Error::invalid_type(unexpected(other), &"unit variant")))
            }
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, E> {
        let chain = At::Key(self.parent, self.variant);
        seed.deserialize(PathDe { value: self.value, chain: &chain, track: self.track })
            .map_err(|e| self.track.trigger(&chain, e))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        let chain = At::Key(self.parent, self.variant);
        de::Deserializer::deserialize_seq(
            PathDe { value: self.value, chain: &chain, track: self.track },
            visitor,
        )
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        let chain = At::Key(self.parent, self.variant);
        de::Deserializer::deserialize_map(
            PathDe { value: self.value, chain: &chain, track: self.track },
            visitor,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Deserialize))]
    #[serde(deny_unknown_fields)]
    struct Inner {
        n: u32,
        #[serde(default)]
        tag: Option<String>,
    }

    #[derive(Debug, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Deserialize))]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Dot,
        Line(u32),
        Box { w: u32, h: u32 },
    }

    crate::internally_tagged! {
        #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
        #[derive(Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        enum Tagged {
            A { x: i32 },
            B,
        }
    }

    #[derive(Debug, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Deserialize))]
    struct Outer {
        items: Vec<Inner>,
        #[serde(default)]
        shape: Option<Shape>,
        #[serde(default)]
        tagged: Vec<Tagged>,
    }

    fn err(v: Value) -> (String, String) {
        let e = from_value::<Outer>(&v).unwrap_err();
        (e.path, e.message)
    }

    #[test]
    fn values_deserialize_like_serde_json() {
        let v = json!({"items": [{"n": 1}, {"n": 2, "tag": "x"}], "shape": {"box": {"w": 2, "h": 3}},
                       "tagged": [{"type": "a", "x": -4}, {"type": "b"}, {"x": 5, "type": "a"}]});
        let ours: Outer = from_value(&v).unwrap();
        let theirs: Outer = serde_json::from_value(v).unwrap();
        assert_eq!(ours, theirs);
        assert_eq!(from_value::<Shape>(&json!("dot")).unwrap(), Shape::Dot);
        assert_eq!(from_value::<Shape>(&json!({"line": 7})).unwrap(), Shape::Line(7));
        assert_eq!(from_value::<(u8, String)>(&json!([1, "a"])).unwrap(), (1, "a".to_string()));
        assert_eq!(from_value::<f64>(&json!(2)).unwrap(), 2.0);
    }

    #[test]
    fn errors_name_the_deepest_failing_value() {
        assert_eq!(err(json!({"items": [{"n": 1}, {"n": -1}]})).0, "items[1].n");
        assert_eq!(err(json!({"items": [{"n": 1}, {"m": 1}]})).0, "items[1].m");
        assert_eq!(err(json!({"items": [{"n": 1}, {}]})), ("items[1]".into(), "missing field `n`".into()));
        assert_eq!(err(json!({"items": [{"n": 1, "tag": 5}]})).0, "items[0].tag");
        assert_eq!(err(json!({"items": [], "shape": {"box": {"w": "2", "h": 3}}})).0, "shape.box.w");
        assert_eq!(err(json!({"items": [], "shape": "cube"})).0, "shape");
        assert_eq!(err(json!({"items": [], "tagged": [{"type": "a", "x": "1"}]})).0, "tagged[0].x");
        assert_eq!(err(json!({"items": [], "tagged": [{"type": "a", "x": 1, "y": 2}]})).0, "tagged[0].y");
        assert_eq!(
            err(json!({"items": [], "tagged": [{"x": 1}]})),
            ("tagged[0]".into(), "missing field `type`".into())
        );
        assert_eq!(err(json!({"items": [], "tagged": [{"type": "c"}]})).0, "tagged[0].type");
        assert_eq!(err(json!({"items": [], "tagged": [{"type": 0}]})).0, "tagged[0].type");
        assert_eq!(
            err(json!({"items": [], "tagged": ["a"]})),
            (
                "tagged[0]".into(),
                "invalid type: string \"a\", expected an object whose `type` names the kind".into()
            )
        );
        assert_eq!(err(json!({})).0, ".");
        assert_eq!(err(json!([])), (".".into(), "invalid type: sequence, expected struct Outer".into()));
        // A struct is an object, never an array (serde_json's Value would accept both).
        assert_eq!(err(json!({"items": [[1]]})).0, "items[0]");
        let (p, m) = err(json!({"items": "no"}));
        assert_eq!((p.as_str(), m.as_str()), ("items", "invalid type: string \"no\", expected a sequence"));
        assert!(from_value::<(u8,)>(&json!([1, 2])).is_err());
    }
}
