//! Runs every conformance vector in `testdata/vectors/**/*.json` against the
//! core (the same files the Python and Node runners execute). Matching rules
//! are documented in `testdata/README.md`.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).expect("read vectors dir").flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

fn num_eq(a: f64, b: f64) -> bool {
    // A non-finite number (an expected 1e400) matches only itself: the relative
    // tolerance would be infinite.
    if !a.is_finite() || !b.is_finite() {
        return a == b;
    }
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// `expected` ⊆ `actual`: objects recursively (every expected key must match),
/// arrays in full (same length, element by element), numbers to 1e-9 relative.
fn matches(expected: &Value, actual: &Value, path: &str, why: &mut String) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e.iter().all(|(k, ev)| match a.get(k) {
            Some(av) => matches(ev, av, &format!("{path}.{k}"), why),
            None => {
                *why = format!("{path}.{k}: missing in result");
                false
            }
        }),
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                *why = format!("{path}: expected {} items, got {}", e.len(), a.len());
                return false;
            }
            e.iter().zip(a).enumerate().all(|(i, (ev, av))| matches(ev, av, &format!("{path}[{i}]"), why))
        }
        (Value::Number(e), Value::Number(a)) => {
            let ok = match (e.as_i64(), a.as_i64()) {
                (Some(x), Some(y)) => x == y,
                _ => num_eq(e.as_f64().unwrap_or(f64::NAN), a.as_f64().unwrap_or(f64::NAN)),
            };
            if !ok {
                *why = format!("{path}: expected {e}, got {a}");
            }
            ok
        }
        _ => {
            let ok = expected == actual;
            if !ok {
                *why = format!("{path}: expected {expected}, got {actual}");
            }
            ok
        }
    }
}

/// Replace every string `"$N.path.to.field"` in `v` by that field of step N's result.
fn substitute(v: &Value, results: &[Option<Value>]) -> Result<Value, String> {
    Ok(match v {
        Value::String(s)
            if s.starts_with('$') && s[1..].split('.').next().is_some_and(|n| n.parse::<usize>().is_ok()) =>
        {
            let mut parts = s[1..].split('.');
            let n: usize = parts.next().unwrap_or("").parse().map_err(|_| format!("bad reference {s}"))?;
            let mut cur = results
                .get(n)
                .ok_or_else(|| format!("{s}: step {n} has not run yet"))?
                .as_ref()
                .ok_or_else(|| format!("{s}: step {n} has no result (it expected an error)"))?;
            for key in parts {
                cur = match cur {
                    Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
                    Value::Object(m) => m.get(key),
                    _ => None,
                }
                .ok_or_else(|| format!("{s}: no field {key:?}"))?;
            }
            cur.clone()
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, results)).collect::<Result<_, _>>()?),
        Value::Object(m) => Value::Object(
            m.iter().map(|(k, x)| Ok((k.clone(), substitute(x, results)?))).collect::<Result<_, String>>()?,
        ),
        other => other.clone(),
    })
}

/// A case with `steps`: each step is a case; its result is available to later steps.
fn run_steps(steps: &[Value]) -> Result<(), String> {
    let mut results: Vec<Option<Value>> = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let args = substitute(step.get("args").unwrap_or(&Value::Object(Default::default())), &results)
            .map_err(|e| format!("step {i}: {e}"))?;
        let op = step["call"].as_str().ok_or(format!("step {i} has no \"call\""))?;
        let mut concrete = step.clone();
        concrete["args"] = args.clone();
        let result = run_single(&concrete).map_err(|e| format!("step {i} ({op}): {e}"))?;
        results.push(result);
    }
    Ok(())
}

/// A batch result as a vector compares it: the array, or for a table an object of
/// its parts (a part with several columns as a list of rows).
fn batch_json(d: &gunbai::batch::BatchData) -> Value {
    use gunbai::batch::BatchData;
    let ints: Vec<Value> = match d {
        BatchData::I32(v) | BatchData::Parts(v, _) => v.iter().map(|&x| Value::from(x)).collect(),
        BatchData::F64(v) => v.iter().map(|&x| Value::from(x)).collect(),
    };
    if d.parts().is_empty() {
        return Value::Array(ints);
    }
    let mut out = serde_json::Map::new();
    let mut off = 0;
    for p in d.parts() {
        let [rows, cols] = p.shape;
        let block = &ints[off..off + rows * cols];
        off += rows * cols;
        let v = if cols == 1 {
            Value::Array(block.to_vec())
        } else {
            Value::Array(block.chunks(cols).map(|r| Value::Array(r.to_vec())).collect())
        };
        out.insert(p.name.to_string(), v);
    }
    Value::Object(out)
}

fn run_case(case: &Value) -> Result<(), String> {
    // Every call also runs serde's conversions, which must agree (see gunbai::json).
    #[cfg(debug_assertions)]
    gunbai::ops::crosscheck::enable();
    if let Some(steps) = case.get("steps") {
        let steps = steps.as_array().ok_or("\"steps\" must be an array")?;
        return run_steps(steps);
    }
    run_single(case).map(|_| ())
}

/// Run one call; on success returns its result (None when an error was expected).
fn run_single(case: &Value) -> Result<Option<Value>, String> {
    let args = case.get("args").cloned().unwrap_or(Value::Object(Default::default()));
    let outcome = match case.get("call_batch").and_then(Value::as_str) {
        Some(op) => gunbai::batch::call_batch(op, args).map(|d| batch_json(&d)),
        None => gunbai::call(case["call"].as_str().ok_or("case has no \"call\"")?, args),
    };
    match (case.get("expect"), case.get("expect_error"), outcome) {
        (Some(_), Some(_), _) => Err("case has both expect and expect_error".into()),
        (Some(exp), None, Ok(actual)) => {
            let mut why = String::new();
            if matches(exp, &actual, "result", &mut why) {
                Ok(Some(actual))
            } else {
                Err(format!("{why}\n      result: {actual}"))
            }
        }
        (Some(_), None, Err(e)) => Err(format!("unexpected error {e}")),
        (None, Some(want), Err(e)) => {
            let want_obj = match want {
                Value::String(code) => serde_json::json!({ "code": code }),
                other => other.clone(),
            };
            let got = serde_json::to_value(&e).unwrap();
            let mut why = String::new();
            if matches(&want_obj, &got, "error", &mut why) {
                Ok(None)
            } else {
                Err(format!("{why} (error was {e})"))
            }
        }
        (None, Some(want), Ok(actual)) => Err(format!("expected error {want}, got result {actual}")),
        (None, None, _) => Err("case has neither expect nor expect_error".into()),
    }
}

#[test]
fn conformance_vectors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/vectors");
    let mut files = Vec::new();
    collect(&root, &mut files);
    assert!(!files.is_empty(), "no vector files under {}", root.display());
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut ids = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let cases: Vec<Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for case in &cases {
            let id = case["id"].as_str().unwrap_or("<no id>").to_string();
            if !ids.insert(id.clone()) {
                println!("FAIL {id} ({}): duplicate id", f.display());
                failed += 1;
                continue;
            }
            match run_case(case) {
                Ok(()) => passed += 1,
                Err(why) => {
                    failed += 1;
                    println!("FAIL {id} ({}): {why}", f.display());
                }
            }
        }
    }
    println!("vectors: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "{failed} conformance vectors failed");
}
