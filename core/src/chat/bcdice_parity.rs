//! Measuring tool (a test): how many of BCDice's own test cases `command.run`
//! answers text for text.
//!
//! It reads BCDice's `test/data/*.toml` from a local mirror of its repository (a
//! bare git directory, read with `git show`), never from committed data, and runs
//! every case through [`super::run`] with the same dice (the case's `rands`, as
//! scripted `{sides, value}` roll objects; BCDice's d10 face 0 is gunbai's 10). Skipped (it prints why) when the mirror
//! is absent. The mirror is `$GUNBAI_BCDICE_GIT` or `/work/.mirror/bcdice+BCDice/repo`.
//!
//! `cargo test -p gunbai --lib bcdice_parity -- --nocapture` prints one
//! line per file (matched / cases) and, with `GUNBAI_BCDICE_DIFF=1`, every case
//! that differs. A case matches when the reply text is the same and, for a case
//! BCDice marks `secret`, the reply is secret; BCDice's empty output ("no reply")
//! matches only an unmatched line (`matched: false`). A rulebook-table case (`BMR`,
//! `PH`, `CCRT` …: a reply of kind `coc7_table`) is compared by its numbers only, as the
//! table texts are not gunbai's: it matches when the entry number and the duration in
//! BCDice's reply (`表(5) ＞ …(1D10＞3ラウンド)`) are the result's `index` and
//! `duration`, and every scripted die was consumed; these cases are also counted on
//! their own line. It asserts the CoC target: the Cthulhu and Cthulhu7th files (the
//! localized ones included) at 98% or more and every required case (see
//! [`required_check`]); the other files' differences and their reasons are listed in
//! the chat guide. The Korean files (`lang: ko`) count toward the CoC target; their
//! differences are the older rules of BCDice's `Cthulhu7th:Korean` (listed in the
//! chat guide), which gunbai does not follow by language.
//!
//! `make test` and `make check-core` run it whenever the mirror is there; a local
//! clone works too: `GUNBAI_BCDICE_GIT=/path/to/BCDice/.git`.

use super::{run, CmdLang, CmdRunArgs, CmdSystem};
use crate::dice::ScriptedFace;

/// The files measured, and the system and language each one's `game_system` means.
const FILES: &[&str] = &[
    "None",
    "AddDice",
    "UpperDice",
    "Repeat",
    "choice",
    "calc",
    "tally_ty",
    "tally_tz",
    "Cthulhu7th",
    "Cthulhu",
    "Cthulhu7th_ChineseTraditional",
    "Cthulhu_ChineseTraditional",
    "Cthulhu_SimplifiedChinese",
    "Cthulhu_English",
    "Cthulhu7th_Korean",
    "Cthulhu_Korean",
];

fn system_of(game_system: &str) -> Option<(Option<CmdSystem>, CmdLang)> {
    Some(match game_system {
        "DiceBot" => (None, CmdLang::Ja),
        "Cthulhu7th" => (Some(CmdSystem::Coc7), CmdLang::Ja),
        "Cthulhu" => (Some(CmdSystem::Coc6), CmdLang::Ja),
        "Cthulhu7th:ChineseTraditional" => (Some(CmdSystem::Coc7), CmdLang::ZhHant),
        "Cthulhu:ChineseTraditional" => (Some(CmdSystem::Coc6), CmdLang::ZhHant),
        "Cthulhu:SimplifiedChinese" => (Some(CmdSystem::Coc6), CmdLang::ZhHans),
        "Cthulhu:English" => (Some(CmdSystem::Coc6), CmdLang::En),
        "Cthulhu7th:Korean" => (Some(CmdSystem::Coc7), CmdLang::Ko),
        "Cthulhu:Korean" => (Some(CmdSystem::Coc6), CmdLang::Ko),
        _ => return None,
    })
}

/// One `[[ test ]]` table: the keys this tool reads.
#[derive(Debug, Default)]
struct Case {
    game_system: String,
    input: String,
    output: String,
    secret: bool,
    rands: Vec<(u32, i64)>,
}

/// Reads the small TOML subset BCDice's test files use: `[[ test ]]` tables of
/// `key = "string"` (with `\n`, `\"`, `\\` escapes), `"""multi-line"""` strings,
/// booleans, and `rands = [ { sides = N, value = N }, ... ]`.
fn parse(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t == "[[ test ]]" || t == "[[test]]" {
            cases.extend(cur.take());
            cur = Some(Case::default());
            continue;
        }
        let (Some(case), Some((key, value))) = (cur.as_mut(), t.split_once(" = ")) else { continue };
        let value = value.trim();
        let string = if let Some(rest) = value.strip_prefix("\"\"\"") {
            // A multi-line basic string: a newline right after the opening quotes is dropped.
            let mut s = rest.to_string();
            while !s.ends_with("\"\"\"") {
                let Some(next) = lines.next() else { break };
                if !s.is_empty() {
                    s.push('\n');
                }
                s.push_str(next);
            }
            Some(unescape(s.strip_suffix("\"\"\"").unwrap_or(&s)))
        } else if let Some(rest) = value.strip_prefix('"') {
            // Up to the closing quote (a `# comment` may follow it).
            let mut end = rest.len();
            let mut escaped = false;
            for (k, ch) in rest.char_indices() {
                match ch {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = k;
                        break;
                    }
                    _ => escaped = false,
                }
            }
            Some(unescape(&rest[..end]))
        } else {
            None
        };
        match key.trim() {
            "game_system" => case.game_system = string.unwrap_or_default(),
            "input" => case.input = string.unwrap_or_default(),
            "output" => case.output = string.unwrap_or_default(),
            "secret" => case.secret = value == "true",
            "rands" => {
                let mut body = value.to_string();
                while !body.trim_end().ends_with(']') {
                    let Some(next) = lines.next() else { break };
                    body.push_str(next);
                }
                for item in body.split('{').skip(1) {
                    let field = |name: &str| {
                        item.split(',').find_map(|kv| {
                            let (k, v) = kv.split_once('=')?;
                            (k.trim() == name)
                                .then(|| v.trim().trim_end_matches(['}', ']', ' ']).trim())?
                                .parse()
                                .ok()
                        })
                    };
                    if let (Some(sides), Some(value)) = (field("sides"), field("value")) {
                        case.rands.push((sides as u32, value));
                    }
                }
            }
            _ => {}
        }
    }
    cases.extend(cur);
    cases
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Is this a case of the required Japanese CoC checks (`CC`, `CBR`, `RES`
/// and their `B` forms in `Cthulhu7th` and `Cthulhu`)?
fn required_check(name: &str, input: &str) -> bool {
    let head = input.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
    let head = head.strip_prefix('S').filter(|h| h.starts_with("C") || h.starts_with("R")).unwrap_or(&head);
    matches!(name, "Cthulhu7th" | "Cthulhu")
        && (head.starts_with("CC") || head.starts_with("CBR") || head.starts_with("RES"))
        && !head.starts_with("CCR")
}

/// BCDice's numbers in a table reply: the entry (`(5)` before the first ` ＞ `) and
/// the duration (`(1D10＞3…)` at the end), if any.
fn table_numbers(output: &str) -> (Option<i64>, Option<i64>) {
    let head = output.split(" ＞ ").next().unwrap_or("");
    let index = head.rsplit_once('(').and_then(|(_, n)| n.trim_end_matches(')').parse().ok());
    let duration = output
        .rsplit_once("(1D10＞")
        .and_then(|(_, t)| t.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok());
    (index, duration)
}

/// (matched, total, required matched, required total, table matched, table total) for
/// one file's cases, printing the differing ones when asked.
fn measure(name: &str, cases: &[Case], show: bool) -> (usize, usize, usize, usize, usize, usize) {
    let (mut ok, mut req_ok, mut req, mut tab_ok, mut tab) = (0, 0, 0, 0, 0);
    for c in cases {
        let Some((system, lang)) = system_of(&c.game_system) else { continue };
        let rolls = c
            .rands
            .iter()
            // BCDice's d10 of a d100 roll is 0..=9; gunbai's face for a 0 is 10.
            .map(|&(sides, value)| {
                let value = if sides == 10 && value == 0 { 10 } else { value };
                ScriptedFace::Roll { sides: Some(sides), value, kind: None }
            })
            .collect();
        let args = CmdRunArgs {
            text: c.input.clone(),
            system,
            lang,
            source: crate::dice::DiceArgs { rolls: Some(rolls), ..Default::default() },
            ..Default::default()
        };
        let got = match run(&args) {
            Ok(r) if c.output.is_empty() => (!r.matched, format!("matched={} {:?}", r.matched, r.text)),
            Ok(r) if r.kind == Some(super::CmdKind::Coc7Table) => {
                let v = r.result.as_ref().map(crate::json::RawJson::to_value).unwrap_or_default();
                let got = (v["index"].as_i64(), v["duration"].as_i64());
                tab += 1;
                let same = got == table_numbers(&c.output) && r.rolls.len() == c.rands.len();
                tab_ok += usize::from(same);
                (same, format!("table numbers {got:?}, {} dice: {:?}", r.rolls.len(), r.text))
            }
            Ok(r) => {
                // A secret reply's text is in `whisper` (`text` is the public notice).
                let text = r.whisper.as_deref().unwrap_or(&r.text);
                (text == c.output && (!c.secret || r.secret), format!("{text:?} secret={}", r.secret))
            }
            Err(e) => (false, format!("error {}: {}", e.code.as_str(), e.message)),
        };
        let required = required_check(name, &c.input);
        req += usize::from(required);
        if got.0 {
            ok += 1;
            req_ok += usize::from(required);
        } else if show {
            println!("  {name}: {:?}\n    want {:?}\n    got  {}", c.input, c.output, got.1);
        }
    }
    (ok, cases.len(), req_ok, req, tab_ok, tab)
}

#[test]
fn bcdice_parity() {
    let git =
        std::env::var("GUNBAI_BCDICE_GIT").unwrap_or_else(|_| "/work/.mirror/bcdice+BCDice/repo".into());
    if !std::path::Path::new(&git).exists() {
        println!("bcdice_parity: skipped (no BCDice mirror at {git})");
        return;
    }
    let show = std::env::var_os("GUNBAI_BCDICE_DIFF").is_some();
    let (mut ok, mut all, mut req_ok, mut req, mut tab_ok, mut tab) = (0, 0, 0, 0, 0, 0);
    let (mut cth_ok, mut cth) = (0, 0);
    let read = |name: &str| {
        let out = std::process::Command::new("git")
            .arg("--git-dir")
            .arg(&git)
            .arg("show")
            .arg(format!("HEAD:test/data/{name}.toml"))
            .output();
        out.ok().filter(|o| o.status.success()).map(|o| parse(&String::from_utf8_lossy(&o.stdout)))
    };
    for name in FILES {
        let Some(cases) = read(name) else {
            println!("bcdice_parity: {name}.toml not readable in {git}");
            continue;
        };
        let (m, n, rm, rn, tm, tn) = measure(name, &cases, show);
        if name.starts_with("Cthulhu") {
            cth_ok += m;
            cth += n;
        }
        req_ok += rm;
        req += rn;
        tab_ok += tm;
        tab += tn;
        println!("bcdice_parity: {name:<32} {m:>4} / {n:<4} ({:.1}%)", 100.0 * m as f64 / n.max(1) as f64);
        ok += m;
        all += n;
    }
    println!(
        "bcdice_parity: {:<32} {ok:>4} / {all:<4} ({:.1}%)",
        "total",
        100.0 * ok as f64 / all.max(1) as f64
    );
    println!(
        "bcdice_parity: {:<32} {req_ok:>4} / {req:<4} ({:.1}%)",
        "required CoC CC/CBR/RES",
        100.0 * req_ok as f64 / req.max(1) as f64
    );
    println!(
        "bcdice_parity: {:<32} {tab_ok:>4} / {tab:<4} (entry and duration numbers compared, texts not)",
        "of which rulebook tables"
    );
    println!(
        "bcdice_parity: {:<32} {cth_ok:>4} / {cth:<4} ({:.1}%)",
        "Cthulhu and Cthulhu7th files",
        100.0 * cth_ok as f64 / cth.max(1) as f64
    );
    println!(
        "bcdice_parity: {:<32} {:>4} / {:<4} ({:.1}%)",
        "total without the tables",
        ok - tab_ok,
        all - tab,
        100.0 * (ok - tab_ok) as f64 / (all - tab).max(1) as f64
    );
    // The CoC target: 98% of the Cthulhu and Cthulhu7th files, every required case.
    assert!(cth > 0 && cth_ok * 100 >= cth * 98, "BCDice CoC parity {cth_ok} / {cth} is under 98%");
    assert_eq!(req_ok, req, "every required CoC CC/CBR/RES case of BCDice");
}
