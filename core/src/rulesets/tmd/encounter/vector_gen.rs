//! Helper for `testdata/vectors/tmd/gen_encounter.py`: plays a script of calls
//! (`"state": "$prev"` is replaced by the previous state) and prints each
//! call's actual arguments and outcome, so vector inputs can be captured.
//! Run with `TMD_SCRIPT=file cargo test -p gunbai --lib vector_gen -- --ignored --nocapture`.

#[test]
#[ignore]
fn vector_gen() {
    let Ok(p) = std::env::var("TMD_SCRIPT") else { return };
    let Ok(text) = std::fs::read_to_string(p) else { return };
    let Ok(steps) = serde_json::from_str::<Vec<serde_json::Value>>(&text) else { return };
    let mut prev = serde_json::Value::Null;
    for st in steps {
        let mut args = st["args"].clone();
        if args.get("state").and_then(|v| v.as_str()) == Some("$prev") {
            args["state"] = prev.clone();
        }
        let call = st["call"].as_str().unwrap_or("");
        println!("ARGS {}", serde_json::json!({"call": call, "args": args}));
        match crate::call(call, args) {
            Ok(v) => {
                if let Some(s) = v.get("state") {
                    prev = s.clone();
                }
                println!("OK {v}");
            }
            Err(e) => println!("ERR {}", serde_json::json!(e)),
        }
    }
}
