//! JSON Schema (as schemars 1.x emits it) → TypeScript and Python type text.

use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::BTreeSet;

thread_local! {
    /// While emitting runtime Python (`types.py`), the names defined so far:
    /// references to any other name are quoted as forward references, so
    /// recursive and mutually recursive types import on Python 3.9.
    static PY_DEFINED: RefCell<Option<BTreeSet<String>>> = const { RefCell::new(None) };
}

/// Set (or clear) the names already defined in the runtime module being written.
pub fn set_py_defined(defined: Option<BTreeSet<String>>) {
    PY_DEFINED.with(|d| *d.borrow_mut() = defined);
}
use std::fmt::Write as _;

fn ref_name(s: &Value) -> Option<&str> {
    s.get("$ref")?.as_str()?.rsplit('/').next()
}

/// The properties and required keys of an object schema (following one `$ref`).
/// An object schema's properties (in order) and its required keys.
pub type Props = (Vec<(String, Value)>, Vec<String>);

pub fn object_props(catalog: &Value, s: &Value) -> Option<Props> {
    let s = match ref_name(s) {
        Some(n) => catalog["defs"].get(n)?,
        None => s,
    };
    let is_object = s.get("type").and_then(Value::as_str) == Some("object") || s.get("properties").is_some();
    if !is_object || s.get("oneOf").is_some() || s.get("anyOf").is_some() {
        return None;
    }
    let props = s
        .get("properties")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let req = s
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default();
    Some((props, req))
}

/// Type names must be unique: schemars resolves a clash by appending a number.
pub fn check_unique_names() -> Result<(), String> {
    let catalog = gunbai::catalog();
    let defs = catalog["defs"].as_object().unwrap();
    for name in defs.keys() {
        let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
        if base != name && defs.contains_key(base) {
            return Err(format!(
                "two different types are both named {base:?} (schemars renamed one to {name:?}); \
                 prefix type names with the ruleset (Wt, Coc7, CocAp, C7h, Tmd, Fm, Cmd)"
            ));
        }
    }
    Ok(())
}

fn types_of(s: &Map<String, Value>) -> Vec<String> {
    match s.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(a)) => a.iter().filter_map(|v| v.as_str().map(String::from)).collect(),
        _ => vec![],
    }
}

fn ts_key(k: &str) -> String {
    if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !k.starts_with(|c: char| c.is_ascii_digit())
    {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

/// A property's description, with the range its schema states (`minimum`/`maximum`, from
/// the core's `#[schemars(range)]` declarations; on an array's elements, nested `items`)
/// appended when it says more than an unsigned integer type does.
pub fn describe(prop: &Value) -> Option<String> {
    let desc = prop.get("description").and_then(Value::as_str).unwrap_or("");
    let mut s = prop;
    let mut each = "";
    while let Some(items) = s.get("items").filter(|i| i.is_object()) {
        s = items;
        each = "each ";
    }
    let min = s.get("minimum");
    let max = s.get("maximum");
    let range = match (min, max) {
        (_, Some(max)) => Some(format!("{}..={max}", min.map(Value::to_string).unwrap_or_default())),
        (Some(min), None) if min.as_f64() != Some(0.0) => Some(format!(">= {min}")),
        _ => None,
    };
    match range {
        Some(r) => {
            let sep = if desc.is_empty() || desc.ends_with('\n') { "" } else { " " };
            Some(format!("{desc}{sep}Range: {each}{r}."))
        }
        None if desc.is_empty() => None,
        None => Some(desc.to_string()),
    }
}

fn doc_comment(out: &mut String, indent: &str, desc: Option<&str>) {
    if let Some(d) = desc.filter(|d| !d.is_empty()) {
        let d = d.replace("*/", "* /");
        if d.contains('\n') {
            writeln!(out, "{indent}/**").unwrap();
            for line in d.lines() {
                writeln!(out, "{indent} * {line}").unwrap();
            }
            writeln!(out, "{indent} */").unwrap();
        } else {
            writeln!(out, "{indent}/** {d} */").unwrap();
        }
    }
}

fn ts_object(s: &Map<String, Value>, indent: usize) -> String {
    let props = s.get("properties").and_then(Value::as_object);
    let req: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let extra = s.get("additionalProperties").filter(|v| v.is_object() || **v == Value::Bool(true));
    if props.is_none() {
        return match extra {
            Some(v) => format!("{{ [key: string]: {} }}", ts_type_at(v, indent)),
            // An argument struct with no fields that refuses unknown ones (`{}` only).
            None if s.get("additionalProperties") == Some(&Value::Bool(false)) => {
                "Record<string, never>".to_string()
            }
            None => "Record<string, unknown>".to_string(),
        };
    }
    let pad = "  ".repeat(indent + 1);
    let mut out = String::from("{\n");
    for (k, v) in props.unwrap() {
        doc_comment(&mut out, &pad, describe(v).as_deref());
        let opt = if req.contains(&k.as_str()) { "" } else { "?" };
        writeln!(out, "{pad}{}{opt}: {};", ts_key(k), ts_type_at(v, indent + 1)).unwrap();
    }
    if let Some(v) = extra {
        writeln!(out, "{pad}[key: string]: {} | undefined;", ts_type_at(v, indent + 1)).unwrap();
    }
    out.push_str(&"  ".repeat(indent));
    out.push('}');
    out
}

fn paren(t: String) -> String {
    if t.contains(" | ") || t.contains(" & ") {
        format!("({t})")
    } else {
        t
    }
}

/// TypeScript type for a schema.
pub fn ts_type(s: &Value) -> String {
    ts_type_at(s, 0)
}

fn ts_type_at(s: &Value, indent: usize) -> String {
    let s = match s {
        Value::Bool(true) => return "unknown".into(),
        Value::Bool(false) => return "never".into(),
        Value::Object(m) => m,
        _ => return "unknown".into(),
    };
    if let Some(n) = s.get("$ref").and_then(Value::as_str) {
        return n.rsplit('/').next().unwrap_or("unknown").to_string();
    }
    if let Some(c) = s.get("const") {
        return c.to_string();
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        return e.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" | ");
    }
    let mut parts: Vec<String> = Vec::new();
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(alts)) = s.get(key) {
            let u: Vec<String> = alts.iter().map(|a| paren(ts_type_at(a, indent))).collect();
            parts.push(u.join(" | "));
        }
    }
    if let Some(Value::Array(all)) = s.get("allOf") {
        parts.extend(all.iter().map(|a| ts_type_at(a, indent)));
    }
    let types = types_of(s);
    if !types.is_empty() {
        let u: Vec<String> = types
            .iter()
            .map(|t| match t.as_str() {
                "string" => "string".into(),
                "integer" | "number" => "number".into(),
                "boolean" => "boolean".into(),
                "null" => "null".into(),
                "array" => {
                    if let Some(Value::Array(pi)) = s.get("prefixItems") {
                        format!(
                            "[{}]",
                            pi.iter().map(|p| ts_type_at(p, indent)).collect::<Vec<_>>().join(", ")
                        )
                    } else if let Some(items) = s.get("items") {
                        format!("{}[]", paren(ts_type_at(items, indent)))
                    } else {
                        "unknown[]".into()
                    }
                }
                "object" => ts_object(s, indent),
                _ => "unknown".into(),
            })
            .collect();
        parts.push(u.join(" | "));
    } else if s.get("properties").is_some() {
        parts.push(ts_object(s, indent));
    }
    match parts.len() {
        0 => "unknown".into(),
        1 => parts.pop().unwrap_or_default(),
        _ => parts.into_iter().map(paren).collect::<Vec<_>>().join(" & "),
    }
}

/// `export interface`/`export type` declaration for a named definition.
pub fn ts_decl(out: &mut String, name: &str, def: &Value) {
    out.push('\n');
    doc_comment(out, "", def.get("description").and_then(Value::as_str));
    let is_plain_object = def.get("properties").is_some()
        && def.get("oneOf").is_none()
        && def.get("anyOf").is_none()
        && def.get("allOf").is_none();
    if is_plain_object {
        writeln!(out, "export interface {name} {}", ts_object(def.as_object().unwrap(), 0)).unwrap();
    } else {
        writeln!(out, "export type {name} = {};", ts_type(def)).unwrap();
    }
}

// ------------------------------------------------------------------ Python

/// Python type for a schema; `arg` widens containers for arguments.
pub fn py_type(s: &Value, arg: bool) -> String {
    let s = match s {
        Value::Bool(true) => return "Any".into(),
        Value::Bool(false) => return "Any".into(),
        Value::Object(m) => m,
        _ => return "Any".into(),
    };
    if let Some(n) = s.get("$ref").and_then(Value::as_str) {
        let name = n.rsplit('/').next().unwrap_or("Any").to_string();
        let forward = PY_DEFINED.with(|d| d.borrow().as_ref().is_some_and(|set| !set.contains(&name)));
        return if forward { format!("{name:?}") } else { name };
    }
    if let Some(c) = s.get("const") {
        return py_literal(c);
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        return union(e.iter().map(py_literal).collect());
    }
    let mut alts: Vec<String> = Vec::new();
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(a)) = s.get(key) {
            alts.extend(a.iter().map(|x| py_type(x, arg)));
        }
    }
    if !alts.is_empty() {
        // Objects mixing properties with alternatives: the alternatives are dicts anyway.
        if s.get("properties").is_some() {
            return if arg { "Mapping[str, Any]".into() } else { "dict[str, Any]".into() };
        }
        return union(alts);
    }
    if let Some(Value::Array(all)) = s.get("allOf") {
        if all.len() == 1 {
            return py_type(&all[0], arg);
        }
        return if arg { "Mapping[str, Any]".into() } else { "dict[str, Any]".into() };
    }
    let out: Vec<String> = types_of(s)
        .iter()
        .map(|t| match t.as_str() {
            "string" => "str".into(),
            "integer" => "int".into(),
            "number" => "float".into(),
            "boolean" => "bool".into(),
            "null" => "None".into(),
            "array" => {
                let item = if let Some(Value::Array(pi)) = s.get("prefixItems") {
                    if !arg {
                        return format!(
                            "tuple[{}]",
                            pi.iter().map(|p| py_type(p, arg)).collect::<Vec<_>>().join(", ")
                        );
                    }
                    union(pi.iter().map(|p| py_type(p, arg)).collect())
                } else if let Some(items) = s.get("items") {
                    py_type(items, arg)
                } else {
                    "Any".into()
                };
                if arg {
                    format!("Sequence[{item}]")
                } else {
                    format!("list[{item}]")
                }
            }
            "object" => {
                let extra = s.get("additionalProperties").filter(|v| v.is_object());
                let v = match (s.get("properties"), extra) {
                    (None, Some(x)) => py_type(x, arg),
                    _ => "Any".into(),
                };
                if arg {
                    format!("Mapping[str, {v}]")
                } else {
                    format!("dict[str, {v}]")
                }
            }
            _ => "Any".into(),
        })
        .collect();
    if out.is_empty() {
        return if s.get("properties").is_some() {
            if arg {
                "Mapping[str, Any]".into()
            } else {
                "dict[str, Any]".into()
            }
        } else {
            "Any".into()
        };
    }
    union(out)
}

/// `Union[a, b]` (valid at runtime on Python 3.9, unlike `a | b`), or the one type.
pub fn union(mut v: Vec<String>) -> String {
    // Flatten nested unions so Optional wrapping stays readable.
    let mut flat = Vec::new();
    for t in v.drain(..) {
        match t.strip_prefix("Union[").and_then(|r| r.strip_suffix(']')) {
            Some(inner) if balanced_split(inner).len() > 1 => flat.extend(balanced_split(inner)),
            _ => flat.push(t),
        }
    }
    dedup(&mut flat);
    match flat.len() {
        0 => "Any".into(),
        1 => flat.pop().unwrap_or_default(),
        _ => format!("Union[{}]", flat.join(", ")),
    }
}

fn balanced_split(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

fn dedup(v: &mut Vec<String>) {
    let mut seen = std::collections::BTreeSet::new();
    v.retain(|x| seen.insert(x.clone()));
}

fn py_literal(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(b) => format!("Literal[{}]", if *b { "True" } else { "False" }),
        Value::String(s) => format!("Literal[{s:?}]"),
        Value::Number(n) if n.is_i64() || n.is_u64() => format!("Literal[{n}]"),
        _ => "Any".into(),
    }
}

/// A named definition: TypedDict (functional form, so any key works) or alias.
pub fn py_decl(out: &mut String, name: &str, def: &Value, defs: &serde_json::Map<String, Value>) {
    let is_plain_object = |d: &Value| {
        d.get("properties").is_some()
            && d.get("oneOf").is_none()
            && d.get("anyOf").is_none()
            && d.get("allOf").is_none()
    };
    // A newtype of an object type (`TmdSheetResult(SheetResult)`): a TypedDict subclass, not an
    // alias, which stubtest does not take for a type alias of a TypedDict.
    let newtype_of = def
        .as_object()
        .filter(|m| m.len() == 1 || (m.len() == 2 && m.contains_key("description")))
        .and_then(|_| ref_name(def))
        .filter(|base| defs.get(*base).is_some_and(is_plain_object));
    if let Some(base) = newtype_of {
        writeln!(out, "class {name}({base}):\n    \"\"\"The same shape as `{base}`.\"\"\"\n").unwrap();
    } else if let Some(kinds) = py_kinds(name, def, defs) {
        // A tagged union: one TypedDict per kind (mypy tells them apart by the tag), and
        // the union of them under the union's name.
        for (kind, schema) in &kinds {
            if let Some(doc) = schema.get("description").and_then(Value::as_str) {
                writeln!(out, "# {}", doc.lines().next().unwrap_or_default()).unwrap();
            }
            py_typed_dict(out, kind, schema);
        }
        let names: Vec<String> = kinds.into_iter().map(|(kind, _)| kind).collect();
        writeln!(out, "{name} = {}\n", union(names)).unwrap();
    } else if is_plain_object(def) {
        py_typed_dict(out, name, def);
    } else {
        writeln!(out, "{name} = {}\n", py_type(def, false)).unwrap();
    }
}

/// A TypedDict (functional form, so any key works) of an object schema's properties.
fn py_typed_dict(out: &mut String, name: &str, def: &Value) {
    let Some(props) = def.get("properties").and_then(Value::as_object) else {
        writeln!(out, "{name} = dict[str, Any]\n").unwrap();
        return;
    };
    let req: Vec<&str> = def
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fields = Vec::new();
    for (k, v) in props {
        let t = py_type(v, false);
        if req.contains(&k.as_str()) {
            fields.push(format!("    {k:?}: {t},"));
        } else {
            fields.push(format!("    {k:?}: NotRequired[{t}],"));
        }
    }
    writeln!(out, "{name} = TypedDict({name:?}, {{\n{}\n}})\n", fields.join("\n")).unwrap();
}

/// The kinds of a tagged union: a `oneOf` of objects that each fix the same property (the
/// tag) to a different string. Each kind's TypedDict is named after the union and its tag
/// (`FmCost` with `kind: "fixed"` → `FmCostFixed`). `None` for any other schema.
pub fn py_kinds(name: &str, def: &Value, defs: &Map<String, Value>) -> Option<Vec<(String, Value)>> {
    if def.get("properties").is_some() {
        return None;
    }
    let alts = def.get("oneOf")?.as_array()?;
    if alts.is_empty() {
        return None;
    }
    let tag_of = |alt: &Value, key: &str| -> Option<String> {
        alt.get("properties")?.get(key)?.get("const")?.as_str().map(str::to_string)
    };
    let first = alts[0].get("properties")?.as_object()?;
    let key = first.keys().find(|k| alts.iter().all(|a| tag_of(a, k).is_some()))?;
    let mut kinds: Vec<(String, Value)> = Vec::new();
    for alt in alts {
        let tag = tag_of(alt, key)?;
        let pascal: String = tag
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| w[..1].to_ascii_uppercase() + &w[1..])
            .collect();
        let kind = format!("{name}{pascal}");
        if pascal.is_empty() || defs.contains_key(&kind) || kinds.iter().any(|(k, _)| *k == kind) {
            return None;
        }
        kinds.push((kind, alt.clone()));
    }
    Some(kinds)
}

/// Names of the definitions a schema refers to.
pub fn refs(s: &Value, out: &mut Vec<String>) {
    match s {
        Value::Object(m) => {
            if let Some(n) = ref_name(s) {
                out.push(n.to_string());
            }
            for v in m.values() {
                refs(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}
