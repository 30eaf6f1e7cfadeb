//! The operation registry: every public operation by its `<module>.<op>` name.
//!
//! Each ruleset module exposes `pub(crate) fn ops() -> Vec<OpDef>` built with
//! the [`op!`](crate::op) macro; the composition root (`registered` in `lib.rs`)
//! concatenates them into [`registry`]. The JS and
//! Python surfaces, their `.d.ts` and Python types, and the parity checks are
//! all generated from this registry (see `xtask`), so no surface keeps its own
//! list of operations.

use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use crate::json::{SerdeIn, SerdeOut};
#[cfg(feature = "schema")]
use schemars::{generate::SchemaSettings, Schema, SchemaGenerator};
use serde_json::Value;
use std::sync::OnceLock;

/// One registered operation.
pub struct OpDef {
    /// `<module>.<op>`, snake_case.
    pub name: &'static str,
    /// One-line summary (shown in generated docs and stubs; only in builds with the
    /// catalog, so the wasm carries no doc text).
    #[cfg(feature = "schema")]
    pub summary: &'static str,
    /// Runs the operation on JSON arguments.
    pub run: fn(Value) -> Result<Value>,
    /// Runs the operation on JSON arguments and appends the result's JSON text to the
    /// buffer (the text of `run`'s value, written without building it; see
    /// [`ToJson::write_json`]). On an error nothing is appended.
    pub write: fn(Value, &mut Vec<u8>) -> Result<()>,
    /// JSON Schema of the arguments.
    #[cfg(feature = "schema")]
    pub args_schema: fn(&mut SchemaGenerator) -> Schema,
    /// JSON Schema of the result.
    #[cfg(feature = "schema")]
    pub result_schema: fn(&mut SchemaGenerator) -> Schema,
}

/// Build an [`OpDef`] from a typed function `fn(&Args) -> Result<Res>`.
///
/// ```ignore
/// op!("dice.roll", crate::dice::expr::roll, RollArgs => RollResult, "Roll a dice expression.")
/// ```
#[macro_export]
macro_rules! op {
    ($name:literal, $f:path, $args:ty => $res:ty, $summary:literal) => {
        $crate::ops::OpDef {
            name: $name,
            #[cfg(feature = "schema")]
            summary: $summary,
            run: |v| $crate::ops::run_typed::<$args, $res>(v, $f),
            // In wasm a result is written through its `Value` anyway (`write_json`'s default):
            // the write shares `run`'s instance instead of a second one per operation.
            #[cfg(not(target_arch = "wasm32"))]
            write: |v, out| $crate::ops::write_typed::<$args, $res>(v, out, $f),
            #[cfg(target_arch = "wasm32")]
            write: |v, out| $crate::ops::write_result($crate::ops::run_typed::<$args, $res>(v, $f), out),
            #[cfg(feature = "schema")]
            args_schema: |g| g.subschema_for::<$args>(),
            #[cfg(feature = "schema")]
            result_schema: |g| g.subschema_for::<$res>(),
        }
    };
}

/// Read JSON args (naming the failing field), run `f`, write the result.
///
/// The conversions are the compact [`FromJson`]/[`ToJson`] ones; in a debug build with
/// [`crosscheck::enable`] on, serde's run too and must agree (see [`crate::json`]).
/// This is instantiated once per operation, so everything that does not depend on
/// the types lives in the non-generic helpers below (it keeps the wasm smaller).
pub fn run_typed<A, R>(args: Value, f: fn(&A) -> Result<R>) -> Result<Value>
where
    A: FromJson + ToJson + SerdeIn + SerdeOut,
    R: ToJson + SerdeOut,
{
    let args = parse_args::<A>(args)?;
    let out = f(&args)?;
    let v = out.to_json();
    #[cfg(all(debug_assertions, feature = "serde"))]
    if crosscheck::enabled() {
        crosscheck::written(&out, &v);
    }
    Ok(v)
}

/// Like [`run_typed`], but the result is written as JSON text to `out` (the same text as
/// the value `run_typed` gives: in a debug build with [`crosscheck::enable`] on, that is
/// checked byte for byte against serde's).
pub fn write_typed<A, R>(args: Value, out: &mut Vec<u8>, f: fn(&A) -> Result<R>) -> Result<()>
where
    A: FromJson + ToJson + SerdeIn + SerdeOut,
    R: ToJson + SerdeOut,
{
    let args = parse_args::<A>(args)?;
    let res = f(&args)?;
    #[cfg(all(debug_assertions, feature = "serde"))]
    let start = out.len();
    res.write_json(out);
    #[cfg(all(debug_assertions, feature = "serde"))]
    if crosscheck::enabled() {
        crosscheck::written(&res, &serde_json::from_slice(&out[start..]).expect("write_json wrote no JSON"));
    }
    Ok(())
}

/// An operation whose result is a `Value` already: written as text.
pub fn write_result(result: Result<Value>, out: &mut Vec<u8>) -> Result<()> {
    crate::json::write_value(&result?, out);
    Ok(())
}

/// Read a JSON value into `A`; errors are `invalid_argument` naming the field path.
pub fn parse_args<A: FromJson + ToJson + SerdeIn + SerdeOut>(args: Value) -> Result<A> {
    let args = args_object(args)?;
    // Not `json::from_value`: the boxed error goes to one `args_error`, not unboxed per type.
    let read = A::from_json(&args, &crate::json::At::Root);
    #[cfg(all(debug_assertions, feature = "serde"))]
    if crosscheck::enabled() {
        crosscheck::read(&args, &read);
    }
    read.map_err(args_error)
}

/// An argument that does not decode is `invalid_argument`, except inside a `state`
/// argument: a saved state is an untrusted document, `invalid_data` as in every
/// engine (some take `state` typed, some through [`parse_data`]). A missing `state`
/// is still `invalid_argument`. `.field` is [`PathError::field_path`](crate::json::PathError::field_path).
#[inline(never)]
#[allow(clippy::boxed_local)] // Taken boxed: unboxed, each caller's instance would move it.
pub(crate) fn args_error(e: crate::json::JsonError) -> Error {
    let e = *e;
    let path = e.field_path();
    let in_state = path == "state" || path.starts_with("state.") || path.starts_with("state[");
    let state_missing = e.path == "." && e.missing.as_deref() == Some("state");
    let field = if path == "." { "args".to_string() } else { path };
    let loc = e.field_loc();
    let mut err = if in_state && !state_missing {
        Error::invalid_data(field, e.message)
    } else if e.out_of_range || e.message.starts_with("invalid value: integer `") {
        // RULINGS 2026-12-05 (error codes): an integer outside its field's type range (a
        // negative count or seed, a seed of 2^64) is a number of the right type outside
        // the documented range.
        Error::out_of_range(field, e.message)
    } else {
        Error::invalid(field, e.message)
    };
    err.loc = loc;
    err.rule = e.rule.map(str::to_string);
    err
}

/// `null` reads as no arguments; anything else but an object is refused. An argument
/// given as `null` is one not given (Python's `None`, a JS `null` or `undefined` all
/// mean "use the default"; a required one is then missing), so every surface reads
/// `{"rule": null}` the same way.
#[inline(never)]
fn args_object(args: Value) -> Result<Value> {
    match args {
        Value::Null => Ok(Value::Object(Default::default())),
        Value::Object(ref named) if named.values().any(Value::is_null) => {
            // Rebuilt by reference with `insert` (which reading JSON already needs):
            // `retain` or a consuming loop would add about 1 KB of map code to the wasm.
            let mut given = serde_json::Map::new();
            for (k, v) in named {
                if !v.is_null() {
                    given.insert(k.clone(), v.clone());
                }
            }
            Ok(Value::Object(given))
        }
        Value::Object(_) => Ok(args),
        other => {
            let kind = match other {
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                Value::Array(_) => "an array",
                _ => "not an object",
            };
            Err(Error::invalid("args", format_args!("must be an object of named arguments, not {kind}")))
        }
    }
}

/// Read an embedded untrusted document (sheet, data pack, state) into `A`;
/// errors are `invalid_data` naming `field` and the path inside it.
pub fn parse_data<A: FromJson + SerdeIn>(field: &str, value: Value) -> Result<A> {
    let read = A::from_json(&value, &crate::json::At::Root);
    #[cfg(all(debug_assertions, feature = "serde"))]
    if crosscheck::enabled() {
        crosscheck::outcome(&value, &read);
    }
    read.map_err(|e| data_error(field, e))
}

#[inline(never)]
#[allow(clippy::boxed_local)] // As `args_error`.
fn data_error(field: &str, e: crate::json::JsonError) -> Error {
    let e = *e;
    let mut loc = crate::error::loc_of(field);
    loc.extend(e.field_loc());
    let mut err = Error::invalid_data(crate::error::join_path(field, &e.field_path()), e.message);
    err.loc = loc;
    err.rule = e.rule.map(str::to_string);
    err
}

/// Debug builds, for tests: the compact JSON conversions must agree with serde's.
///
/// Once [`enable`](crosscheck::enable)d, every [`call`](crate::call) also reads its arguments (and any
/// embedded document) and writes its result with serde, and panics if a value differs
/// or if the two refuse an input at different paths. The conformance-vector test turns
/// it on, so `cargo test` checks the agreement on every vector. It is off by default:
/// the two may name different fields of an object with several errors (ours reports
/// unknown keys first, then fields in declaration order; serde follows the object's key
/// order), and an application's debug build must not panic on that.
#[cfg(all(debug_assertions, feature = "serde"))]
pub mod crosscheck {
    use crate::json::{PathError, ToJson};
    use serde::{de::DeserializeOwned, Serialize};
    use serde_json::Value;
    use std::sync::atomic::{AtomicBool, Ordering};

    static ON: AtomicBool = AtomicBool::new(false);
    static PATHS: AtomicBool = AtomicBool::new(true);

    /// Check every later call, in every thread.
    pub fn enable() {
        ON.store(true, Ordering::Relaxed);
    }

    /// Like [`enable`], but two refusals agree whatever fields they name (for inputs with
    /// many errors at once, where the first reported may differ).
    pub fn enable_ignoring_paths() {
        PATHS.store(false, Ordering::Relaxed);
        ON.store(true, Ordering::Relaxed);
    }

    /// Whether [`enable`] was called.
    pub fn enabled() -> bool {
        ON.load(Ordering::Relaxed)
    }

    /// `v` (from [`ToJson`]) must equal what serde writes for `out`, and the text
    /// [`ToJson::write_json`] writes must be that value's text byte for byte.
    pub fn written<R: Serialize + ToJson>(out: &R, v: &Value) {
        let serde = serde_json::to_value(out).expect("serde could not write a result");
        let name = std::any::type_name::<R>();
        assert_eq!(&serde, v, "ToJson and serde disagree on {name}");
        let mut text = Vec::new();
        out.write_json(&mut text);
        let want = serde_json::to_vec(&serde).expect("serde could not write a result");
        assert!(
            text == want,
            "write_json and serde write {name} differently:\n{}\n{}",
            String::from_utf8_lossy(&text),
            String::from_utf8_lossy(&want)
        );
    }

    /// serde must read `input` to the same value, or fail at the same path.
    pub fn read<A: ToJson + DeserializeOwned + Serialize>(input: &Value, ours: &Result<A, Box<PathError>>) {
        if let (Ok(a), Some(b)) = (ours, outcome(input, ours)) {
            let name = std::any::type_name::<A>();
            assert_eq!(a.to_json(), b.to_json(), "FromJson and serde read {name} differently from {input}");
            written(a, &a.to_json());
        }
    }

    /// serde must accept `input` when [`FromJson`](crate::json::FromJson) does, or fail at
    /// the same path; returns serde's value.
    pub fn outcome<A: DeserializeOwned>(input: &Value, ours: &Result<A, Box<PathError>>) -> Option<A> {
        let theirs = crate::json_de::from_value::<A>(input);
        let name = std::any::type_name::<A>();
        match (ours, &theirs) {
            (Ok(_), Ok(_)) => {}
            (Err(a), Err(b)) => assert!(
                a.path == b.path || !PATHS.load(Ordering::Relaxed),
                "FromJson and serde fail at different paths for {name} from {input}: {} / {}",
                a.message,
                b.message
            ),
            // A declared range (`#[schemars(range)]`) is checked by `FromJson` only: serde's
            // derive does not read it (Rust callers build arguments as values).
            (Err(e), Ok(_)) if e.out_of_range => {}
            (Ok(_), Err(e)) => {
                panic!("serde refuses {name} from {input} ({} at {}); FromJson accepts", e.message, e.path)
            }
            (Err(e), Ok(_)) => {
                panic!("FromJson refuses {name} from {input} ({} at {}); serde accepts", e.message, e.path)
            }
        }
        theirs.ok()
    }
}

/// Every operation of this build, in module order (see the ruleset features in
/// `core/Cargo.toml`; the default build has them all). The list is the composition
/// root's (`registered` in `lib.rs`): this layer names no ruleset.
pub fn registry() -> &'static [OpDef] {
    static REG: OnceLock<Vec<OpDef>> = OnceLock::new();
    REG.get_or_init(crate::registered::ops)
}

/// Look an operation up by name (a binary search of the names, sorted once).
pub fn find(name: &str) -> Option<&'static OpDef> {
    static BY_NAME: OnceLock<Vec<&'static OpDef>> = OnceLock::new();
    let sorted = BY_NAME.get_or_init(|| {
        let mut v: Vec<&'static OpDef> = registry().iter().collect();
        // The shared merge sort: `sort_by_key` would add a sort of its own to the wasm.
        crate::small_sort::sort_by(&mut v, &|a, b| a.name.cmp(b.name));
        v
    });
    sorted.binary_search_by(|o| o.name.cmp(name)).ok().map(|i| sorted[i])
}

/// Say `additionalProperties: false` on every object schema with `properties` that
/// does not say what its other keys may be: the JSON reader (`gunbai-derive`) refuses an
/// unknown key in every object it reads, nested types and unit variants of tagged enums
/// included, with or without `#[serde(deny_unknown_fields)]` (schemars writes `false`
/// only where that attribute is). A schema whose keys are shared with `$ref`,
/// `allOf`, `oneOf` or `anyOf` beside it is left open (`additionalProperties` sees only
/// its own `properties`); each branch of one is closed only when its parent has no
/// `properties` of its own. Walks schema positions only (a field named `properties` is a
/// key of a `properties` map, not a schema keyword).
#[cfg(feature = "schema")]
fn close_objects(s: &mut Value) {
    let Some(m) = s.as_object_mut() else { return };
    let combined = ["$ref", "allOf", "oneOf", "anyOf"].iter().any(|k| m.contains_key(*k));
    let has_props = m.get("properties").is_some_and(Value::is_object);
    if has_props && !combined && !m.contains_key("additionalProperties") {
        m.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (k, v) in m.iter_mut() {
        match k.as_str() {
            "properties" | "$defs" | "definitions" => {
                if let Some(p) = v.as_object_mut() {
                    p.values_mut().for_each(close_objects);
                }
            }
            "items" | "additionalProperties" | "not" | "contains" | "if" | "then" | "else" => {
                close_objects(v)
            }
            "prefixItems" => v.as_array_mut().into_iter().flatten().for_each(close_objects),
            "oneOf" | "anyOf" | "allOf" if !has_props => {
                v.as_array_mut().into_iter().flatten().for_each(close_objects)
            }
            // Branches that share their parent's properties: close only what is inside them.
            "oneOf" | "anyOf" | "allOf" => {
                for b in v.as_array_mut().into_iter().flatten() {
                    if let Some(bp) = b.get_mut("properties").and_then(Value::as_object_mut) {
                        bp.values_mut().for_each(close_objects);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Move a struct's notes on its flattened fields into their schemas: a line of the struct's
/// description that starts with `` `key`: `` (continued by the following lines up to a blank
/// one or the next note) becomes the description of property `key`. A shared argument group
/// (`DiceArgs`) describes its fields once for every operation; the operation's own struct says
/// what is particular to it (the order its scripted `rolls` are consumed in).
#[cfg(feature = "schema")]
fn field_notes(def: &mut Value) {
    let Some(desc) = def.get("description").and_then(Value::as_str) else { return };
    let Some(props) = def.get("properties").and_then(Value::as_object) else { return };
    let note_key = |line: &str| -> Option<String> {
        let rest = line.strip_prefix('`')?;
        let (key, text) = rest.split_once("`: ")?;
        (props.contains_key(key) && !text.is_empty()).then(|| key.to_string())
    };
    let mut kept: Vec<&str> = Vec::new();
    let mut notes: Vec<(String, String)> = Vec::new();
    let mut in_note = false;
    for line in desc.lines() {
        if let Some(key) = note_key(line) {
            notes.push((key.clone(), line[key.len() + 4..].to_string()));
            in_note = true;
        } else if in_note && !line.trim().is_empty() {
            if let Some((_, text)) = notes.last_mut() {
                text.push('\n');
                text.push_str(line.trim());
            }
        } else {
            in_note = false;
            kept.push(line);
        }
    }
    if notes.is_empty() {
        return;
    }
    let kept = kept.join("\n").trim().to_string();
    def["description"] = Value::String(kept);
    for (key, text) in notes {
        def["properties"][key.as_str()]["description"] = Value::String(text);
    }
}

#[cfg(feature = "schema")]
/// The machine-readable catalog: every op with its argument and result schema
/// (JSON Schema 2020-12), plus the shared `$defs`. Used by the code generators.
pub fn catalog() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let mut ops = Vec::new();
    for op in registry() {
        let args = (op.args_schema)(&mut generator);
        let result = (op.result_schema)(&mut generator);
        ops.push(serde_json::json!({
            "name": op.name,
            "kind": "op",
            "summary": op.summary,
            "args": args,
            "result": result,
        }));
    }
    for op in crate::batch::batch_registry() {
        let args = (op.args_schema)(&mut generator);
        let mut entry = serde_json::json!({
            "name": op.name,
            "kind": "batch",
            "dtype": op.dtype,
            "summary": op.summary,
            "args": args,
        });
        if !op.parts.is_empty() {
            entry["parts"] = op
                .parts
                .iter()
                .map(|(name, per_team)| serde_json::json!({"name": name, "per_team": per_team}))
                .collect();
        }
        ops.push(entry);
    }
    let mut defs: serde_json::Map<String, Value> = generator.take_definitions(true);
    for s in defs.values_mut() {
        close_objects(s);
        field_notes(s);
    }
    for op in &mut ops {
        for k in ["args", "result"] {
            if let Some(s) = op.get_mut(k) {
                close_objects(s);
            }
        }
    }
    let errors: Vec<&str> = crate::error::ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    let handles: Vec<Value> = crate::registered::handle_ops()
        .into_iter()
        .map(|(name, ops)| serde_json::json!({ "name": name, "ops": ops }))
        .collect();
    serde_json::json!({ "ops": ops, "defs": defs, "error_codes": errors, "handles": handles })
}

#[cfg(all(test, feature = "schema"))]
mod tests {
    use super::*;

    /// Every object schema of the catalog at a schema position: `(path, schema)`.
    fn objects<'a>(s: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
        let Some(m) = s.as_object() else { return };
        if m.get("properties").is_some_and(Value::is_object) {
            out.push((at.clone(), s));
        }
        for (k, v) in m {
            match k.as_str() {
                "properties" | "$defs" => {
                    for (name, x) in v.as_object().into_iter().flatten() {
                        objects(x, format!("{at}.{name}"), out);
                    }
                }
                "items" | "additionalProperties" | "not" => objects(v, format!("{at}[]"), out),
                "prefixItems" | "oneOf" | "anyOf" | "allOf" => {
                    for (i, x) in v.as_array().into_iter().flatten().enumerate() {
                        objects(x, format!("{at}/{k}[{i}]"), out);
                    }
                }
                _ => {}
            }
        }
    }

    /// The derive refuses an unknown key in every object it reads (the fuzz harness's
    /// sweep sends one at every object position, `scripts/fuzz`); every object schema
    /// says so, nested ones and tagged unit variants included, except one whose
    /// keys are shared with a `$ref` or branches beside it, or a branch of such a one.
    #[test]
    fn every_object_schema_refuses_extra_keys() {
        let cat = catalog();
        let mut found = Vec::new();
        for (name, d) in cat["defs"].as_object().unwrap() {
            objects(d, format!("defs.{name}"), &mut found);
        }
        for op in cat["ops"].as_array().unwrap() {
            for k in ["args", "result"] {
                objects(&op[k], format!("{}.{k}", op["name"].as_str().unwrap()), &mut found);
            }
        }
        assert!(found.len() > 300, "{} object schemas", found.len());
        let open: Vec<&String> = found
            .iter()
            .filter(|(_, s)| {
                let combined = ["$ref", "allOf", "oneOf", "anyOf"].iter().any(|k| s.get(*k).is_some());
                !combined && s.get("additionalProperties").is_none()
            })
            .map(|(at, _)| at)
            .collect();
        assert!(open.is_empty(), "{} object schemas without additionalProperties: {open:?}", open.len());
        // The unit variant of the audit: `{"type": "next_round"}` of coc_ap's round actions.
        let closed_unit = found.iter().any(|(at, s)| {
            at.starts_with("defs.")
                && s["properties"].as_object().is_some_and(|p| p.len() == 1)
                && s["properties"]["type"]["const"] == "next_round"
                && s["additionalProperties"] == false
        });
        assert!(closed_unit, "no closed unit variant `next_round` found");
    }
}
