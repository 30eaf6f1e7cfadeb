//! Results and errors never echo more than a short prefix of an input value.
//!
//! Every case of `testdata/vectors` is called again with each of its argument strings
//! made long (the string followed by a run of a marker character): an error, and every
//! violation list of a result (`world_trigger.validate_sheet` and the other validators,
//! the `*.sheet` ops), may hold at most [`MAX_RUN`] marker characters in a row. A long
//! value is quoted by `error::quote` (40 characters) or cut with the other texts of an
//! error (`Error::bounded`, `WtValidationResult::of`).
//!
//! The rest of a result may hold a long text it was given as data: a data pack's labels
//! and texts within the pack's own limits (4,000 characters in World Trigger), shown by
//! the results that list them, and the command and comment of a chat line, which
//! `command.run`'s reply repeats cut to 1,000 characters (`chat::MAX_ECHO_CHARS`).

use serde_json::Value;
use std::path::Path;

/// The marker appended to a string value; not used by any vector.
const MARK: char = 'Ж';
/// How many markers are appended.
const PAD: usize = 3000;
/// The longest run of markers an answer may hold: a field path (`Error::bounded`
/// keeps 200 characters of it) is the longest text cut from input.
const MAX_RUN: usize = gunbai::error::MAX_FIELD_CHARS;

/// Paths (keys and indexes joined by `.`) of every string value in `v`.
fn strings(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::String(_) => out.push(at.clone()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i.to_string());
                strings(x, at, out);
                at.pop();
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                at.push(k.clone());
                strings(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match v {
        Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
        Value::Object(m) => m.get_mut(k).unwrap(),
        _ => unreachable!(),
    })
}

fn longest_run(s: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == MARK { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Every `violations` list in a result.
fn violation_lists<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| violation_lists(x, out)),
        Value::Object(m) => {
            for (k, x) in m {
                if k == "violations" {
                    out.push(x);
                } else {
                    violation_lists(x, out);
                }
            }
        }
        _ => {}
    }
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

/// Every vector's call with each of its strings made long, one at a time (a case with
/// many strings has a few of them padded, spread over the list, so the run stays short).
#[test]
fn no_answer_echoes_a_long_input_value() {
    let root = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
        .join("../testdata/vectors");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    let pad: String = std::iter::repeat_n(MARK, PAD).collect();
    let (mut calls, mut failures) = (0, Vec::new());
    for file in paths {
        let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for case in cases {
            let (Some(op), Some(args)) = (case["call"].as_str(), case.get("args")) else { continue };
            let mut found = Vec::new();
            strings(args, &mut Vec::new(), &mut found);
            let step = found.len().div_ceil(6).max(1);
            for path in found.iter().step_by(step) {
                let mut a = args.clone();
                let s = at_mut(&mut a, path);
                *s = Value::String(format!("{}{pad}", s.as_str().unwrap()));
                let text = serde_json::to_string(&a).unwrap();
                let out: Value = serde_json::from_str(&gunbai::call_json(op, &text, Some(1))).unwrap();
                calls += 1;
                let mut checked = Vec::new();
                match out.get("error") {
                    Some(e) => checked.push(e),
                    None => violation_lists(&out["ok"], &mut checked),
                }
                let run = checked.iter().map(|v| longest_run(&v.to_string())).max().unwrap_or(0);
                if run > MAX_RUN {
                    failures.push(format!(
                        "{} {op} args.{}: {run} characters echoed",
                        case["id"],
                        path.join(".")
                    ));
                }
            }
        }
    }
    eprintln!("{calls} calls");
    assert!(calls > 1000, "{calls} calls");
    assert!(failures.is_empty(), "{} echoes:\n{}", failures.len(), failures.join("\n"));
}
