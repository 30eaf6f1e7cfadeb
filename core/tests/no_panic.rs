//! Every registered operation must return `Ok` or a coded `Err` — never panic —
//! on arbitrary JSON. Arguments are built from each op's own schema: every
//! property gets values of wrong types, extreme numbers, and nested junk.

use gunbai::dice::prng::Prng;
use serde_json::{json, Value};

fn junk(rng: &mut Prng, depth: u32) -> Value {
    let pick = rng.face(16);
    match pick {
        1 => Value::Null,
        2 => json!(true),
        3 => json!(-1),
        4 => json!(0),
        5 => json!(9007199254740991u64),
        6 => json!(-9007199254740991i64),
        7 => json!(1e300),
        8 => json!(""),
        9 => json!("x".repeat(2000)),
        10 => json!([]),
        11 => json!({}),
        12 if depth < 3 => Value::Array((0..rng.face(4)).map(|_| junk(rng, depth + 1)).collect()),
        13 => json!(rng.face(200) as i64 - 100),
        14 => json!(["a", 1, null]),
        15 => json!(1.5),
        _ => json!(rng.face(20)),
    }
}

fn props(catalog: &Value, schema: &Value) -> Vec<String> {
    let s = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => &catalog["defs"][r.rsplit('/').next().unwrap()],
        None => schema,
    };
    s.get("properties").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

#[test]
fn no_operation_panics_on_junk() {
    // The compact JSON conversions must accept and refuse exactly what serde's do.
    #[cfg(debug_assertions)]
    gunbai::ops::crosscheck::enable_ignoring_paths();
    let catalog = gunbai::catalog();
    let mut rng = Prng::new(2026);
    let mut calls = 0;
    for op in catalog["ops"].as_array().unwrap() {
        let name = op["name"].as_str().unwrap();
        let keys = props(&catalog, &op["args"]);
        let mut cases: Vec<Value> = vec![Value::Null, json!([]), json!("x"), json!(3), json!({})];
        for _ in 0..300 {
            let mut obj = serde_json::Map::new();
            for k in &keys {
                if rng.face(4) > 1 {
                    obj.insert(k.clone(), junk(&mut rng, 0));
                }
            }
            // Never let junk pick entropy over scripted dice: keep runs deterministic.
            if !obj.contains_key("seed") && !obj.contains_key("rolls") && keys.iter().any(|k| k == "seed") {
                obj.insert("seed".into(), json!(1));
            }
            cases.push(Value::Object(obj));
        }
        for args in cases {
            calls += 1;
            let shown = args.to_string();
            let batch = op["kind"] == "batch";
            let outcome = std::panic::catch_unwind(|| {
                if batch {
                    gunbai::batch::call_batch(name, args).map(|_| Value::Null)
                } else {
                    gunbai::call(name, args)
                }
            });
            match outcome {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => assert!(!e.message.is_empty(), "{name}: empty error message for {shown}"),
                Err(_) => panic!("{name} panicked on args {shown}"),
            }
        }
    }
    assert!(calls > 0);
}

/// Argument text above `MAX_ARGS_JSON` is refused before it is parsed (a hostile
/// list of tens of millions of faces would otherwise take gigabytes of wasm memory).
#[test]
fn oversized_argument_text_is_limit_exceeded() {
    let faces = "1,".repeat(gunbai::MAX_ARGS_JSON / 2);
    let text = format!("{{\"expr\":\"1d6\",\"rolls\":[{faces}1]}}");
    let out: Value = serde_json::from_str(&gunbai::call_json("dice.roll", &text, None)).unwrap();
    assert_eq!(out["error"]["code"], "limit_exceeded", "{out}");
    assert_eq!(out["error"]["field"], "args");
    let (env, data) = gunbai::call_batch_json("dice.simulate_pool", &text, None);
    assert!(data.is_none() && env.contains("limit_exceeded"), "{env}");
    // Just under the limit is read as usual (and refused by the dice limit instead).
    let faces = "1,".repeat(200_000);
    let text = format!("{{\"expr\":\"1d6\",\"rolls\":[{faces}1]}}");
    let out: Value = serde_json::from_str(&gunbai::call_json("dice.roll", &text, None)).unwrap();
    assert_eq!(out["error"]["code"], "limit_exceeded");
    assert_eq!(out["error"]["field"], "rolls");
}
