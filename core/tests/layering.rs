//! The core's layering: `kernel/`, `engine/` and `chat/` name no ruleset, and no ruleset
//! uses another.
//!
//! The layers, bottom up: `kernel` (errors, JSON, dice, ids, bounds, the registries'
//! types, the sheet plumbing), `engine` (the engine model and its handles), `chat` (the
//! command language), then `rulesets/<r>/` (everything of one ruleset). `rulesets/mod.rs`
//! and `lib.rs` (the composition root, `registered`) assemble what the build registers;
//! they are the only places that may name every ruleset.
//!
//! **The rule for the layers below.** Every `.rs` file under `core/src/kernel`,
//! `core/src/engine` and `core/src/chat` is read as Rust tokens with its comments (doc
//! comments included) and the contents of its string and character literals left out.
//! A file fails, at `file:line`, where a remaining identifier is a ruleset's module name
//! (`world_trigger`, `coc`, `coc7`, `coc_ap`, `coc7_house`, `tmd`, `fap_map`), or where
//! `rulesets` is a path segment (`rulesets::…`). Left out deliberately:
//! * comments and strings are prose and data: help and error texts that mention a
//!   ruleset ("World Trigger", an example such as `"world_trigger.Battle"`), message
//!   keys, and the wire names of `command.run`'s `system` (`"coc7"`);
//! * except a string that is a cargo feature in a `feature = "…"` predicate (`#[cfg]`,
//!   `cfg!`): gating code on a ruleset's feature is naming it, so it counts;
//! * identifiers are compared exactly: the chat layer's `CmdSystem::Coc7`,
//!   `CmdSystem::WorldTrigger` are the variants of its own wire enum (the schema of
//!   `command.run`), not ruleset code, and pass.
//!
//! **The rule between rulesets.** A file under `core/src/rulesets/<a>/` fails where a
//! path segment (an identifier beside `::`) names another ruleset `b`: `crate::tmd::…`,
//! `rulesets::fap_map::…`. Call of Cthulhu's three (`coc7`, `coc_ap`, `coc7_house`) are
//! one folder, `rulesets/coc/`, and may use one another (the combat rulesets are built
//! on the 7th-edition checks): that is the one documented exception, internal to `coc`.

use std::path::{Path, PathBuf};

/// A ruleset's module names (its folder under `rulesets/`, and the module names it is
/// reached by).
const RULESETS: &[(&str, &[&str])] = &[
    ("world_trigger", &["world_trigger"]),
    ("coc", &["coc", "coc7", "coc_ap", "coc7_house"]),
    ("tmd", &["tmd"]),
    ("fap_map", &["fap_map"]),
];

/// One significant token: an identifier (or a `feature = "…"` string's content) or a
/// punctuation character, with its line.
#[derive(Debug, PartialEq)]
struct Token {
    text: String,
    line: usize,
}

/// The tokens of Rust source that matter here: identifiers and punctuation, with
/// comments and literals left out (a `feature = "x"` string gives the token `x`).
fn tokens(src: &str) -> Vec<Token> {
    let c: Vec<char> = src.chars().collect();
    let mut out: Vec<Token> = Vec::new();
    let (mut i, mut line) = (0, 1);
    let push = |out: &mut Vec<Token>, text: String, line: usize| out.push(Token { text, line });
    // Skip a quoted literal starting at `i` (the opening quote), counting lines.
    let skip_quoted = |i: &mut usize, line: &mut usize, q: char| -> String {
        let mut s = String::new();
        *i += 1;
        while *i < c.len() && c[*i] != q {
            if c[*i] == '\\' {
                *i += 1;
            }
            if *i < c.len() {
                if c[*i] == '\n' {
                    *line += 1;
                }
                s.push(c[*i]);
            }
            *i += 1;
        }
        *i += 1;
        s
    };
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if ch == '"' {
            let start_line = line;
            let s = skip_quoted(&mut i, &mut line, '"');
            let n = out.len();
            if n >= 2 && out[n - 1].text == "=" && out[n - 2].text == "feature" {
                push(&mut out, s, start_line);
            }
        } else if (ch == 'r' || ch == 'b') && raw_string_at(&c, i).is_some() {
            let (hashes, body_start) = raw_string_at(&c, i).unwrap_or((0, i));
            let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let rest: String = c[body_start..].iter().collect();
            let end = rest.find(&close).map_or(c.len(), |e| body_start + rest[..e].chars().count());
            line += c[i..end.min(c.len())].iter().filter(|&&x| x == '\n').count();
            i = end + close.chars().count();
        } else if ch == 'b' && next == Some('\'') {
            i += 1;
            skip_quoted(&mut i, &mut line, '\'');
        } else if ch == '\'' {
            // A character literal ('a', '\n', '\u{..}') or a lifetime / label ('a).
            let is_char = next == Some('\\') || c.get(i + 2) == Some(&'\'');
            if is_char {
                skip_quoted(&mut i, &mut line, '\'');
            } else {
                i += 1;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            push(&mut out, c[start..i].iter().collect(), line);
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '.') {
                i += 1;
            }
        } else if ch.is_whitespace() {
            i += 1;
        } else {
            push(&mut out, ch.to_string(), line);
            i += 1;
        }
    }
    out
}

/// A raw (byte) string literal starting at `i` (`r"`, `r#"`, `br"`): its `#` count and
/// where its body starts.
fn raw_string_at(c: &[char], i: usize) -> Option<(usize, usize)> {
    if i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (c.get(j) == Some(&'"')).then_some((hashes, j + 1))
}

/// Whether token `k` is beside a `::` (a path segment).
fn in_path(t: &[Token], k: usize) -> bool {
    let colons =
        |a: usize| t.get(a).is_some_and(|x| x.text == ":") && t.get(a + 1).is_some_and(|x| x.text == ":");
    colons(k + 1) || (k >= 2 && colons(k - 2))
}

/// The lines of `src` that name a ruleset (the rule for the layers below).
fn names_a_ruleset(src: &str) -> Vec<(usize, String)> {
    let t = tokens(src);
    let mut found = Vec::new();
    for (k, tok) in t.iter().enumerate() {
        let ruleset = RULESETS.iter().any(|(_, names)| names.contains(&tok.text.as_str()));
        let rulesets_path = tok.text == "rulesets" && in_path(&t, k);
        if ruleset || rulesets_path {
            found.push((tok.line, tok.text.clone()));
        }
    }
    found
}

/// The lines of a file of ruleset `own` that use another ruleset (the rule between them).
fn uses_another_ruleset(own: &str, src: &str) -> Vec<(usize, String)> {
    let t = tokens(src);
    let mut found = Vec::new();
    for (k, tok) in t.iter().enumerate() {
        let other = RULESETS.iter().any(|(r, names)| *r != own && names.contains(&tok.text.as_str()));
        if other && in_path(&t, k) {
            found.push((tok.line, tok.text.clone()));
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn src() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
        .join("src")
}

fn report(what: &str, bad: Vec<String>, files: usize) {
    assert!(files > 5, "{what}: only {files} files read");
    assert!(bad.is_empty(), "{what}:\n{}", bad.join("\n"));
}

#[test]
fn kernel_engine_and_chat_name_no_ruleset() {
    let root = src();
    let mut files = Vec::new();
    for layer in ["kernel", "engine", "chat"] {
        rust_files(&root.join(layer), &mut files);
    }
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (line, name) in names_a_ruleset(&text) {
            bad.push(format!(
                "{}:{line}: names the ruleset `{name}`",
                f.strip_prefix(&root).unwrap_or(f).display()
            ));
        }
    }
    report("the layers below the rulesets name a ruleset", bad, files.len());
}

#[test]
fn no_ruleset_uses_another() {
    let root = src().join("rulesets");
    let mut bad = Vec::new();
    let mut read = 0;
    for (own, _) in RULESETS {
        let mut files = Vec::new();
        rust_files(&root.join(own), &mut files);
        assert!(!files.is_empty(), "no files under rulesets/{own}");
        read += files.len();
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            for (line, name) in uses_another_ruleset(own, &text) {
                let at = f.strip_prefix(&root).unwrap_or(f).display().to_string();
                bad.push(format!("rulesets/{at}:{line}: ruleset `{own}` uses `{name}`"));
            }
        }
    }
    report("a ruleset uses another", bad, read);
}

/// The lines of `src` that use a module of `layers` as a path segment (`crate::engine::x`).
fn uses_layer(src: &str, layers: &[&str]) -> Vec<(usize, String)> {
    let t = tokens(src);
    t.iter()
        .enumerate()
        .filter(|(k, tok)| layers.contains(&tok.text.as_str()) && in_path(&t, *k))
        .map(|(_, tok)| (tok.line, tok.text.clone()))
        .collect()
}

/// The layers below look only down: `kernel` uses neither `engine` nor `chat`, and
/// `engine` does not use `chat` (what they need from above comes through the
/// composition root, `registered` in `lib.rs`).
#[test]
fn no_layer_uses_one_above_it() {
    let root = src();
    let mut bad = Vec::new();
    let mut read = 0;
    for (layer, above) in [("kernel", &["engine", "chat"][..]), ("engine", &["chat"][..])] {
        let mut files = Vec::new();
        rust_files(&root.join(layer), &mut files);
        read += files.len();
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            for (line, name) in uses_layer(&text, above) {
                let at = f.strip_prefix(&root).unwrap_or(f).display().to_string();
                bad.push(format!("{at}:{line}: `{layer}` uses `{name}`, a layer above it"));
            }
        }
    }
    report("a layer uses one above it", bad, read);
}

/// The scanner itself: what it must catch and what it must let pass.
#[test]
fn the_rule_catches_code_and_passes_prose() {
    let caught =
        |s: &str| names_a_ruleset(s).into_iter().map(|(l, n)| format!("{l}:{n}")).collect::<Vec<_>>();
    assert_eq!(caught("use crate::world_trigger::types::WtLabel;"), ["1:world_trigger"]);
    assert_eq!(caught("fn f() {}\nlet x = crate::rulesets::CHAT;"), ["2:rulesets"]);
    assert_eq!(caught("#[cfg(feature = \"tmd\")]\nfn f() {}"), ["1:tmd"]);
    assert_eq!(caught("let on = cfg!(feature = \"coc\");"), ["1:coc"]);
    assert_eq!(caught("let coc7 = 1;"), ["1:coc7"]);
    // Prose, data and the chat's own wire names pass.
    assert!(caught("// world_trigger::battle\n/* tmd */ /// coc7_house\nfn f() {}").is_empty());
    assert!(caught("let s = \"world_trigger.Battle: World Trigger\"; let c = 'x';").is_empty());
    assert!(caught("let r = r#\"fap_map \"quoted\" tmd\"#; let l: &'static str = \"\";").is_empty());
    assert!(caught("match s { CmdSystem::Coc7 => 1, CmdSystem::WorldTrigger => 2 }").is_empty());
    assert!(caught("pub rulesets: Vec<String>, #[cfg(feature = \"schema\")] x").is_empty());
    // Lines are counted through multi-line comments and strings.
    assert_eq!(caught("/* a\nb */ \"c\nd\"\nuse crate::fap_map;"), ["4:fap_map"]);
    // Between rulesets: another's path segment, not its own.
    assert_eq!(
        uses_another_ruleset("tmd", "use crate::tmd::x; use crate::fap_map::y;"),
        [(1, "fap_map".to_string())]
    );
    assert!(uses_another_ruleset("coc", "use crate::coc7::check; use super::coc_ap::round;").is_empty());
    assert_eq!(uses_another_ruleset("world_trigger", "x::coc_ap::y").len(), 1);
    // Between layers: a path segment, not a word.
    assert_eq!(uses_layer("let h = crate::engine::handles();", &["engine"]), [(1, "engine".to_string())]);
    assert!(uses_layer("// crate::engine::x\nlet engine = 1;", &["engine"]).is_empty());
}
