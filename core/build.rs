//! Compiles the chat message catalog (`data/command/messages/*.json`) into static
//! tables, so the binary carries the texts but no JSON parsing of them at run time.
//! A malformed catalog fails the build with a message naming the file and key.
//!
//! A message may also carry `ko` (Korean, optional: the CoC check texts); each file's
//! Korean texts go to their own table (`<file>_ko.rs`), and a Korean reply without one
//! uses `en`. A `ko` text may be empty and use fewer `{placeholders}` than `ja`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const LANGS: [&str; 4] = ["ja", "zh_hans", "zh_hant", "en"];
const FILES: [&str; 5] = ["common", "coc", "world_trigger", "tmd", "fap_map"];

fn placeholders(s: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = s;
    while let Some(i) = rest.find('{') {
        let after = &rest[i + 1..];
        match after.find('}') {
            Some(j) => {
                out.insert(after[..j].to_string());
                rest = &after[j + 1..];
            }
            None => break,
        }
    }
    out
}

fn main() {
    let dir = Path::new("data/command/messages");
    println!("cargo:rerun-if-changed={}", dir.display());
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    let out = Path::new(&out_dir).join("messages");
    std::fs::create_dir_all(&out).expect("create OUT_DIR/messages");
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for name in FILES {
        let path = dir.join(format!("{name}.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let v: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
        let top = v.as_object().unwrap_or_else(|| panic!("{}: not an object", path.display()));
        for k in top.keys() {
            assert!(k == "meta" || k == "messages", "{}: unknown key {k:?}", path.display());
        }
        let msgs = top
            .get("messages")
            .and_then(|m| m.as_object())
            .unwrap_or_else(|| panic!("{}: `messages` must be an object", path.display()));
        // Sorted by key (byte order, as `str::cmp`) for binary search.
        let mut keys: Vec<&String> = msgs.keys().collect();
        keys.sort();
        let mut code = String::from("&[\n");
        let mut ko = String::from("&[\n");
        for key in keys {
            let m = &msgs[key];
            if let Some(other) = seen.insert(key.clone(), name) {
                panic!("{}: key {key:?} is also in {other}.json", path.display());
            }
            let m = m.as_object().unwrap_or_else(|| panic!("{}: {key}: not an object", path.display()));
            for k in m.keys() {
                assert!(
                    LANGS.contains(&k.as_str()) || k == "ko",
                    "{}: {key}: unknown language {k:?}",
                    path.display()
                );
            }
            let texts: Vec<&str> = LANGS
                .iter()
                .map(|l| {
                    let s = m.get(*l).and_then(|s| s.as_str());
                    let s = s.unwrap_or_else(|| panic!("{}: {key}: `{l}` must be a string", path.display()));
                    assert!(!s.is_empty(), "{}: {key}: `{l}` is empty", path.display());
                    s
                })
                .collect();
            let names = placeholders(texts[0]);
            for (l, s) in LANGS.iter().zip(&texts) {
                assert!(
                    placeholders(s) == names,
                    "{}: {key}: `{l}` has other {{placeholders}} than `ja`",
                    path.display()
                );
            }
            code.push_str(&format!(
                "    ({key:?}, [{:?}, {:?}, {:?}, {:?}]),\n",
                texts[0], texts[1], texts[2], texts[3]
            ));
            if let Some(k) = m.get("ko") {
                let k =
                    k.as_str().unwrap_or_else(|| panic!("{}: {key}: `ko` must be a string", path.display()));
                assert!(
                    placeholders(k).is_subset(&names),
                    "{}: {key}: `ko` has {{placeholders}} that `ja` has not",
                    path.display()
                );
                ko.push_str(&format!("    ({key:?}, {k:?}),\n"));
            }
        }
        code.push(']');
        ko.push(']');
        std::fs::write(out.join(format!("{name}.rs")), code).expect("write generated catalog");
        std::fs::write(out.join(format!("{name}_ko.rs")), ko).expect("write generated catalog");
    }
}
