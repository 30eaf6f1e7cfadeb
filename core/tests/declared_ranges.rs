//! Every numeric argument field's range, walked from the catalog (RULINGS, World Trigger
//! section, "Error codes": a number of the right type outside its field's documented range is
//! `out_of_range`, below or above).
//!
//! For each operation of the catalog (single and batch), an otherwise valid call is taken
//! from the conformance vectors (the first case, or step, that succeeds); then every numeric
//! field of its arguments whose schema states a `minimum` or `maximum` (declared with
//! `#[schemars(range(…))]`, or implied by an unsigned type) is set just below the minimum
//! and just above the maximum, and the call must fail with `out_of_range` whose `loc` is
//! that field. Fields inside a saved `state` are left out, and inside a `sheet` that an
//! operation reads as a document the code may be `invalid_data`, at the same `loc`. Left out too: the
//! `validate_*` operations (they report a sheet's problems as their result), and the
//! `events` a `*_view` operation is given (echoed as they are, redacted, not read).
//!
//! A second test reads every argument field's description (data packs and states left
//! out: see `DOCUMENTS`) for a range written in words
//! (`0–100`, `1..=64`, `at most 100`) and requires the schema to state one: a range only
//! documented is one nothing enforces.

use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn vectors_root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
        .join("../testdata/vectors")
}

fn vector_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            vector_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

/// `"$N.a.b"` replaced by that field of step N's result (as the vector runner does).
fn substitute(v: &Value, results: &[Option<Value>]) -> Option<Value> {
    Some(match v {
        Value::String(s) if s.starts_with('$') && s[1..].split('.').next()?.parse::<usize>().is_ok() => {
            let mut parts = s[1..].split('.');
            let n: usize = parts.next()?.parse().ok()?;
            let mut cur = results.get(n)?.as_ref()?;
            for key in parts {
                cur = match cur {
                    Value::Array(a) => a.get(key.parse::<usize>().ok()?)?,
                    Value::Object(m) => m.get(key)?,
                    _ => return None,
                };
            }
            cur.clone()
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, results)).collect::<Option<_>>()?),
        Value::Object(m) => Value::Object(
            m.iter().map(|(k, x)| Some((k.clone(), substitute(x, results)?))).collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

/// Run a call as the bindings do: `Ok(result)` or `Err(error object)`.
fn run(op: &str, batch: bool, args: &Value) -> Result<Value, Value> {
    let text = args.to_string();
    let env: Value = if batch {
        serde_json::from_str(&gunbai::call_batch_json(op, &text, Some(1)).0).unwrap()
    } else {
        serde_json::from_str(&gunbai::call_json(op, &text, Some(1))).unwrap()
    };
    match env.get("error") {
        Some(e) => Err(e.clone()),
        None => Ok(env["ok"].clone()),
    }
}

/// One succeeding set of arguments per operation (`(op, batch)`), from the vectors.
fn bases() -> BTreeMap<(String, bool), Value> {
    let mut files = Vec::new();
    vector_files(&vectors_root(), &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let Ok(cases) = serde_json::from_str::<Value>(&std::fs::read_to_string(&f).unwrap()) else {
            continue;
        };
        for case in cases.as_array().into_iter().flatten() {
            let steps: Vec<&Value> = match case.get("steps").and_then(Value::as_array) {
                Some(s) => s.iter().collect(),
                None => vec![case],
            };
            let mut results: Vec<Option<Value>> = Vec::new();
            for step in steps {
                let Some(args) = substitute(step.get("args").unwrap_or(&json!({})), &results) else {
                    results.push(None);
                    continue;
                };
                let (op, batch) = match (step.get("call_batch"), step.get("call")) {
                    (Some(Value::String(op)), _) => (op.clone(), true),
                    (_, Some(Value::String(op))) => (op.clone(), false),
                    _ => {
                        results.push(None);
                        continue;
                    }
                };
                let r = run(&op, batch, &args).ok();
                if r.is_some() && args.is_object() {
                    out.entry((op, batch)).or_insert(args);
                }
                results.push(if batch { None } else { r });
            }
        }
    }
    out
}

/// The schema `s` with its `$ref` resolved against the catalog's `defs`.
fn resolve<'a>(defs: &'a Map<String, Value>, s: &'a Value) -> &'a Value {
    match s.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(defs, &defs[r.rsplit('/').next().unwrap()]),
        None => s,
    }
}

fn is_numeric(s: &Value) -> bool {
    let t = |v: &Value| v.as_str().is_some_and(|t| t == "integer" || t == "number");
    match s.get("type") {
        Some(Value::Array(a)) => a.iter().any(t),
        Some(v) => t(v),
        None => false,
    }
}

thread_local! {
    /// Walking a `*_view` operation's arguments.
    static VIEW: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A numeric field with a stated bound, at `loc` (keys and indices).
struct Bounded {
    loc: Vec<Value>,
    min: Option<f64>,
    max: Option<f64>,
    integer: bool,
}

/// Every object schema reachable from `s` at `loc` through the value `v` (what the base
/// call gives): properties (present or not: an absent one is added), array elements
/// present, and the branches of `anyOf`/`oneOf`/`allOf` whose properties fit.
fn walk(defs: &Map<String, Value>, s: &Value, v: &Value, loc: &mut Vec<Value>, out: &mut Vec<Bounded>) {
    let s = resolve(defs, s);
    if is_numeric(s) {
        let min = s.get("minimum").and_then(Value::as_f64);
        let max = s.get("maximum").and_then(Value::as_f64);
        if min.is_some() || max.is_some() {
            let integer = s.get("type").is_some_and(|t| t.to_string().contains("integer"));
            out.push(Bounded { loc: loc.clone(), min, max, integer });
        }
        return;
    }
    for k in ["anyOf", "oneOf", "allOf"] {
        for branch in s.get(k).and_then(Value::as_array).into_iter().flatten() {
            walk(defs, branch, v, loc, out);
        }
    }
    if let (Some(props), Some(obj)) = (s.get("properties").and_then(Value::as_object), v.as_object()) {
        // A branch of a tagged enum fits only the object with its tag.
        for (k, p) in props {
            let p = resolve(defs, p);
            if let (Some(c), Some(have)) = (p.get("const"), obj.get(k)) {
                if c != have {
                    return;
                }
            }
        }
        for (k, p) in props {
            if DOCUMENTS.contains(&k.as_str()) || (k == "events" && loc.is_empty() && VIEW.with(|v| v.get()))
            {
                continue;
            }
            loc.push(json!(k));
            walk(defs, p, obj.get(k).unwrap_or(&Value::Null), loc, out);
            loc.pop();
        }
    }
    if let (Some(items), Some(arr)) = (s.get("items"), v.as_array()) {
        if let Some(first) = arr.first() {
            loc.push(json!(0));
            walk(defs, items, first, loc, out);
            loc.pop();
        }
        if arr.is_empty() && is_numeric(resolve(defs, items)) {
            // An empty list of numbers: one element is enough to test the elements' range.
            loc.push(json!(0));
            walk(defs, items, &Value::Null, loc, out);
            loc.pop();
        }
    }
}

/// `args` with the value at `loc` set to `x` (objects and arrays on the way must exist;
/// an empty array gets its element 0).
fn with_value(args: &Value, loc: &[Value], x: Value) -> Option<Value> {
    let mut out = args.clone();
    let mut cur = &mut out;
    for (i, step) in loc.iter().enumerate() {
        let last = i + 1 == loc.len();
        cur = match step {
            Value::String(k) => {
                let m = cur.as_object_mut()?;
                if last {
                    m.insert(k.clone(), x);
                    return Some(out);
                }
                m.get_mut(k)?
            }
            Value::Number(n) => {
                let a = cur.as_array_mut()?;
                let i = n.as_u64()? as usize;
                if last {
                    if a.len() <= i {
                        a.push(x);
                    } else {
                        a[i] = x;
                    }
                    return Some(out);
                }
                a.get_mut(i)?
            }
            _ => return None,
        };
    }
    None
}

fn number(x: f64, integer: bool) -> Value {
    if integer && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

#[test]
fn a_number_just_outside_each_stated_range_is_out_of_range() {
    let catalog = gunbai::catalog();
    let defs = catalog["defs"].as_object().unwrap();
    let bases = bases();
    let mut checked = 0usize;
    let mut failures = Vec::new();
    let mut no_base = BTreeSet::new();
    for op in catalog["ops"].as_array().unwrap() {
        let name = op["name"].as_str().unwrap();
        let batch = op["kind"] == "batch";
        let Some(base) = bases.get(&(name.to_string(), batch)) else {
            no_base.insert(name);
            continue;
        };
        if name.split('.').nth(1).is_some_and(|n| n.starts_with("validate")) {
            continue;
        }
        VIEW.with(|v| v.set(name.ends_with("_view")));
        let mut fields = Vec::new();
        walk(defs, &op["args"], base, &mut Vec::new(), &mut fields);
        for f in fields {
            // A bound past 2^53 (a u64's 2^64 - 1) has no nearby number a JSON reader keeps.
            let outside = [f.min.map(|m| m - 1.0), f.max.map(|m| m + 1.0)];
            for x in outside.into_iter().flatten().filter(|x| x.abs() <= 9.1e15) {
                let Some(args) = with_value(base, &f.loc, number(x, f.integer)) else { continue };
                checked += 1;
                // A sheet some operations read as a document (`invalid_data`), others as arguments.
                let sheet = f.loc.first() == Some(&json!("sheet"));
                match run(name, batch, &args) {
                    Err(e)
                        if (e["code"] == "out_of_range" || sheet && e["code"] == "invalid_data")
                            && e.get("loc") == Some(&Value::Array(f.loc.clone())) => {}
                    other => {
                        failures.push(format!("{name} {} = {x}: {other:?}", Value::Array(f.loc.clone())))
                    }
                }
            }
        }
    }
    println!("{checked} values just outside a range checked; no succeeding vector for: {no_base:?}");
    assert!(checked > 100, "only {checked} fields were reached");
    assert!(
        failures.is_empty(),
        "{} not out_of_range at their field:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A range written in words in `d`: `a–b`, `a-b`, `a…b`, `a to b`, `a..=b`, `a..b` between
/// numbers (not a rule ID's `WT-CHK-3`), or `at most n` (not after a `` `sum` `` of fields).
fn range_in_words(d: &str) -> Option<String> {
    let c: Vec<char> = d.chars().collect();
    // The end of a number from `i` (digits, with `,` or `_` between groups: `10,000`).
    let num_end = |mut i: usize| {
        let group = |i: usize| c.get(i + 1..i + 4).is_some_and(|g| g.iter().all(char::is_ascii_digit));
        while i < c.len() && (c[i].is_ascii_digit() || (c[i] == ',' || c[i] == '_') && group(i)) {
            i += 1;
        }
        i
    };
    let mut i = 0;
    while i < c.len() {
        if c[i].is_ascii_digit()
            && (i == 0
                || !(c[i - 1].is_ascii_digit()
                    || c[i - 1].is_alphabetic()
                    || c[i - 1] == '-'
                    || c[i - 1] == '.'))
        {
            let end = num_end(i);
            let rest: String = c[end..].iter().take(5).collect();
            for sep in ["..=", "..", "–", "…", " to ", "-"] {
                if let Some(after) = rest.strip_prefix(sep) {
                    if after.starts_with(|ch: char| ch.is_ascii_digit()) {
                        let from = end + sep.chars().count();
                        let to = num_end(from);
                        return Some(c[i..to].iter().collect());
                    }
                }
            }
            i = end;
            continue;
        }
        let rest: String = c[i..].iter().take(9).collect();
        // `x + n` at most …, n × combatants at most …: a bound across fields
        // (`limit_exceeded`), not one field's range.
        let clause = c[..i].iter().rev().take_while(|ch| !matches!(ch, ';' | '.' | ':'));
        let across = c[..i].iter().rev().find(|ch| !ch.is_whitespace()) == Some(&'`')
            || clause.clone().any(|&ch| ch == '×');
        if !across && rest.starts_with("at most ") && rest[8..].starts_with(|ch: char| ch.is_ascii_digit()) {
            let to = num_end(i + 8);
            return Some(c[i..to].iter().collect());
        }
        i += 1;
    }
    None
}

/// Fields whose range depends on where the type is used, checked by hand there (not one
/// range a declaration could state), with where.
/// And the fields of a sheet read as a document whose validator lists every problem at
/// once (a refusal as the sheet is read would stop at the first).
const CONTEXT_RANGES: &[(&str, &str)] = &[
    (
        "WtSpecialAttack.lv",
        "1–20 in a data pack (its validator lists every problem), 0–100 in `world_trigger.damage`'s `special_attacks`",
    ),
    ("WtOperatorSheet.trion", "WT-OP-3, one of the operator sheet's problems its validator lists together"),
];

/// Arguments that are documents: a saved state, and the data packs (`data`, `battle_data`),
/// whose own validators list every problem at once (`invalid_data`, each with its rule).
const DOCUMENTS: &[&str] = &["state", "data", "battle_data"];

/// Every numeric property of the argument schemas (`(type, property) → schema`).
fn argument_numbers(
    defs: &Map<String, Value>,
    s: &Value,
    seen: &mut BTreeSet<String>,
    out: &mut BTreeMap<String, Value>,
) {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap().to_string();
        if seen.insert(name.clone()) {
            let d = &defs[&name];
            if let Some(props) = d.get("properties").and_then(Value::as_object) {
                for (k, p) in props {
                    if DOCUMENTS.contains(&k.as_str()) {
                        continue;
                    }
                    let rp = resolve(defs, p);
                    let num = is_numeric(rp)
                        || rp.get("items").is_some_and(|i| is_numeric(resolve(defs, i)))
                        || rp
                            .get("anyOf")
                            .and_then(Value::as_array)
                            .is_some_and(|a| a.iter().any(is_numeric));
                    if num {
                        out.insert(format!("{name}.{k}"), p.clone());
                    }
                }
            }
            argument_numbers(defs, d, seen, out);
        }
        return;
    }
    match s {
        Value::Object(m) => {
            for (k, v) in m {
                if k == "properties" {
                    for (pk, pv) in v.as_object().into_iter().flatten() {
                        if !DOCUMENTS.contains(&pk.as_str()) {
                            argument_numbers(defs, pv, seen, out);
                        }
                    }
                } else if k != "description" {
                    argument_numbers(defs, v, seen, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| argument_numbers(defs, x, seen, out)),
        _ => {}
    }
}

fn states_range(defs: &Map<String, Value>, p: &Value) -> bool {
    let p = resolve(defs, p);
    let has =
        |s: &Value| s.get("maximum").is_some() || s.get("minimum").is_some_and(|m| m.as_f64() != Some(0.0));
    let mut s = p;
    while let Some(i) = s.get("items") {
        s = resolve(defs, i);
    }
    has(s) || p.get("anyOf").and_then(Value::as_array).is_some_and(|a| a.iter().any(has))
}

#[test]
fn every_range_documented_in_words_is_declared() {
    let catalog = gunbai::catalog();
    let defs = catalog["defs"].as_object().unwrap();
    let mut props = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for op in catalog["ops"].as_array().unwrap() {
        argument_numbers(defs, &op["args"], &mut seen, &mut props);
    }
    let mut undeclared = Vec::new();
    for (name, p) in &props {
        let d = resolve(defs, p).get("description").or_else(|| p.get("description")).and_then(Value::as_str);
        if let Some(words) = d.and_then(range_in_words) {
            if !states_range(defs, p) && !CONTEXT_RANGES.iter().any(|(f, _)| f == name) {
                undeclared.push(format!("{name}: \"{words}\""));
            }
        }
    }
    assert!(
        undeclared.is_empty(),
        "{} argument fields document a range but declare none (#[schemars(range(min = …, max = …))]):\n{}",
        undeclared.len(),
        undeclared.join("\n")
    );
}
