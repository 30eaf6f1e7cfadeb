//! Runs every conformance vector in `testdata/vectors/**/*.json` against the
//! core (the same files the Python and Node runners execute). Matching rules
//! are documented in `testdata/README.md`.
//!
//! One `#[test]` per file, named `<folder>::<file>`, so a single file can be run
//! alone: `cargo test -p gunbai --test vectors tmd::encounter` (or a whole folder:
//! `... --test vectors coc::`). `every_vector_file_has_a_test` fails when a file
//! under `testdata/vectors/` is missing from the list below (it prints the line to
//! add), and `vector_ids_are_unique` checks ids across all files.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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
/// `{"contains": [..]}` against an array: each listed item matches a distinct element,
/// in the listed order (other elements may come before, between and after).
fn matches(expected: &Value, actual: &Value, path: &str, why: &mut String) -> bool {
    if let (Some(want), Value::Array(a)) = (contains_form(expected), actual) {
        let mut k = 0;
        for av in a {
            let mut scratch = String::new();
            if want.get(k).is_some_and(|ev| matches(ev, av, path, &mut scratch)) {
                k += 1;
            }
        }
        if k < want.len() {
            *why = format!("{path}: no element after the earlier matches matches contains[{k}] {}", want[k]);
            return false;
        }
        return true;
    }
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

/// The items of a `{"contains": [..]}` expectation (an object with that one key, an array value).
fn contains_form(expected: &Value) -> Option<&Vec<Value>> {
    match expected {
        Value::Object(m) if m.len() == 1 => m.get("contains").and_then(Value::as_array),
        _ => None,
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
            if !matches(exp, &actual, "result", &mut why) {
                return Err(format!("{why}\n      result: {actual}"));
            }
            if let Some(p) = present(case.get("expect_absent"), &actual)? {
                return Err(format!("result.{p}: expected absent\n      result: {actual}"));
            }
            Ok(Some(actual))
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

/// `expect_absent`: a list of paths (`members.0.at`, as in a `$N.` reference) none of
/// which may exist in the result. The first that does, if any.
fn present(absent: Option<&Value>, actual: &Value) -> Result<Option<String>, String> {
    let Some(list) = absent else { return Ok(None) };
    let list = list.as_array().ok_or("\"expect_absent\" must be an array of paths")?;
    for p in list {
        let p = p.as_str().ok_or("\"expect_absent\" must be an array of paths")?;
        let mut cur = Some(actual);
        for key in p.split('.') {
            cur = cur.and_then(|c| match c {
                Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
                Value::Object(m) => m.get(key),
                _ => None,
            });
        }
        if cur.is_some() {
            return Ok(Some(p.to_string()));
        }
    }
    Ok(None)
}

// The files of the clone the tests run in: CARGO_MANIFEST_DIR at run time when set (cargo
// sets it; scripts/ci/test-core.sh too), so a binary built in another clone reads these.
fn vectors_root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
        .join("../testdata/vectors")
}

/// The cases of one vector file (`path` relative to `testdata/vectors`).
fn cases(path: &str) -> Vec<Value> {
    let file = vectors_root().join(path);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Run every case of one file; prints one line per failing case, then fails.
fn run_file(path: &str) {
    let cases = cases(path);
    assert!(!cases.is_empty(), "{path}: no cases");
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut ids = BTreeSet::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("<no id>").to_string();
        if !ids.insert(id.clone()) {
            println!("FAIL {id} ({path}): duplicate id");
            failed += 1;
            continue;
        }
        match run_case(case) {
            Ok(()) => passed += 1,
            Err(why) => {
                failed += 1;
                println!("FAIL {id} ({path}): {why}");
            }
        }
    }
    println!("{path}: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "{failed} conformance vectors of {path} failed");
}

/// One test per vector file: `vector_files! { folder { file, ... } ... }` makes the test
/// `folder::file` running `testdata/vectors/folder/file.json`, and `LISTED`, every such path.
macro_rules! vector_files {
    ($($dir:ident { $($file:ident),* $(,)? })*) => {
        $(
            mod $dir {
                $(
                    #[test]
                    fn $file() {
                        super::run_file(concat!(stringify!($dir), "/", stringify!($file), ".json"));
                    }
                )*
            }
        )*
        const LISTED: &[&str] = &[$($(concat!(stringify!($dir), "/", stringify!($file), ".json")),*),*];
    };
}

// Every file under testdata/vectors/, by folder. A new file needs its name here
// (`every_vector_file_has_a_test` says so, and which line to change).
vector_files! {
    coc {
        audit_defects, auto_hit, blackbox, blackbox2, chase_state, coc7, coc7_house, corrupt_states, coc7_opposed_chance, coc_ap, engine_model, labels,
        participation, rulings_2026_12_05, rulings_2026_12_05_coc_ap, variants, coc7_house_exchange, duel_odds
    }
    command {
        arithmetic, bcdice_d100_faces, bcdice_silence, bounded_replies, cards, chat_and_errors, chat_prefixes, coc6_bcdice, coc6_bcdice_edges, coc7_bcdice,
        cards_and_packs, coc7_suffix_rules, common_commands, dice, dice_bot_forms, dot_commands, dot_modifiers, far, help, keep_and_reroll, languages,
        korean, languages_all_systems, misreadings_and_limits, refusals, rolls_errors, sheet_commands, st_cards, tables_and_initiative, upper_dice, variants
    }
    dice { blackbox, percentile_pairs, pool, roll, seeded, whitespace }
    errors { acting_key_aliases, api_2026_12_05, conventions, declared_ranges, long_inputs, null_arguments, past_64_bits, tagged_fields, taxonomy_2026_12_05, unknown_keys }
    fap_map {
        actions, attacks, audit, audit_defects, blackbox, blackbox2, checks, corrupt_states, round, rulings_2026_12_05, saved_states
    }
    sheet { sheets }
    tmd {
        audit_defects, blackbox, blackbox2, conversion_picks, corrupt_states, delay_chains, economy, encounter, engine_readings, gm_outcomes,
        initiative, initiative_odds, rulings_2026_12_05, state_validation, surprise_actors, ties
    }
    views { engine_rosters, engine_turns, engine_views, listing_views, turn_views }
    world_trigger {
        battle, battle_data, blackbox, blackbox2, character, check, damage, data, labels, limits, map, odds,
        pack_tier_endings, variants
    }
    world_trigger_battle {
        audit, blackbox, corrupt_states, engine_readings, knockout_reentry, listing_limits, mock_revival, rulings_2026_12_05, scenarios, sentences,
        simultaneous, simulate_battles
    }
}

/// Every `*.json` under `dir`, relative to the vectors root, sorted.
fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).expect("read vectors dir").flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(root, &p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.push(rel);
        }
    }
}

/// The list above names exactly the files on disk: a new vector file cannot go unrun.
#[test]
fn every_vector_file_has_a_test() {
    let root = vectors_root();
    let mut on_disk = Vec::new();
    collect(&root, &root, &mut on_disk);
    assert!(!on_disk.is_empty(), "no vector files under {}", root.display());
    let listed: BTreeSet<&str> = LISTED.iter().copied().collect();
    let disk: BTreeSet<&str> = on_disk.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    for f in disk.difference(&listed) {
        let (dir, file) = f.rsplit_once('/').unwrap_or(("", f));
        let stem = file.trim_end_matches(".json");
        let ok = |s: &str| {
            !s.is_empty()
                && !s.starts_with(|c: char| c.is_ascii_digit())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if dir.contains('/') || !ok(dir) || !ok(stem) {
            problems.push(format!(
                "{f}: vector files live in testdata/vectors/<folder>/<name>.json with folder and name \
                 made of letters, digits and _ (not starting with a digit)"
            ));
        } else {
            problems.push(format!(
                "{f}: no test: add `{stem}` to `{dir} {{ ... }}` in vector_files! (core/tests/vectors.rs)"
            ));
        }
    }
    for f in listed.difference(&disk) {
        problems.push(format!(
            "{f}: listed in core/tests/vectors.rs but not on disk: remove it from vector_files!"
        ));
    }
    assert!(problems.is_empty(), "vector files and their tests differ:\n  {}", problems.join("\n  "));
}

/// Case ids are unique across all files (each file's test checks its own).
#[test]
fn vector_ids_are_unique() {
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    let mut dups = Vec::new();
    let mut total = 0;
    for path in LISTED {
        for case in cases(path) {
            total += 1;
            let id = case["id"].as_str().unwrap_or("<no id>").to_string();
            if let Some(first) = seen.get(&id) {
                dups.push(format!("{id}: in {first} and {path}"));
            } else {
                seen.insert(id, path);
            }
        }
    }
    assert!(dups.is_empty(), "duplicate vector ids:\n  {}", dups.join("\n  "));
    println!("{total} vectors in {} files, every id unique", LISTED.len());
}

/// The `contains` form: listed items match distinct elements in order; a missing or
/// out-of-order item fails; against an object it is an ordinary subset.
#[test]
fn contains_form_matches_in_order() {
    let actual = serde_json::json!([{"t": 1}, {"t": 2, "x": 0}, {"t": 3}]);
    let mut why = String::new();
    let ok = |e: Value, why: &mut String| matches(&e, &actual, "r", why);
    assert!(ok(serde_json::json!({"contains": [{"t": 2}]}), &mut why));
    assert!(ok(serde_json::json!({"contains": [{"t": 1}, {"t": 3}]}), &mut why));
    assert!(ok(serde_json::json!({"contains": []}), &mut why));
    assert!(!ok(serde_json::json!({"contains": [{"t": 3}, {"t": 1}]}), &mut why));
    assert!(!ok(serde_json::json!({"contains": [{"t": 2}, {"t": 2}]}), &mut why));
    assert!(!ok(serde_json::json!({"contains": [{"t": 4}]}), &mut why));
    let obj = serde_json::json!({"contains": [1], "other": 2});
    assert!(matches(&serde_json::json!({"contains": [1]}), &obj, "r", &mut why));
    assert!(!matches(&serde_json::json!({"contains": [2]}), &obj, "r", &mut why));
}
