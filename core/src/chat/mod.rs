//! `command` — chat commands with localized replies, for bots and VTT chat boxes.
//!
//! `command.run` takes one chat line and answers whether it is a command
//! (`matched`), the reply `text` in `ja`, `zh-Hans`, `zh-Hant`, `en` or `ko` (the CoC
//! checks; `ko`'s other replies are in English), and the
//! structured result. Every chat line can be passed through it: ordinary chat
//! is `matched: false`; a line that is clearly meant as a command but cannot
//! be read (`CC(1<=50`) is `matched: true` with a `parse_error` saying where.
//! A command whose values cannot be run — over a limit (`1001D6`), out of range
//! (`CC(11)<=50`), against the rules (`WD6B11T12`) — is `matched: true` with
//! `refused` (the code `dice.roll` or the ruleset's op would give) and a localized
//! reply: the player typed it, so the bot answers it. Problems with the other
//! arguments (`rolls`, `seed`, `system`, `variants`) are errors of the call.
//!
//! ```
//! use serde_json::json;
//! let r = gunbai::call("command.run", json!({"text": "CC(1)<=53 目星", "system": "coc7", "rolls": [9, 5, 2]})).unwrap();
//! assert_eq!(r["text"], "(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52 ＞ レギュラー成功");
//! assert_eq!((r["matched"].as_bool(), r["success"].as_bool(), r["comment"].as_str()), (Some(true), Some(true), Some("目星")));
//! let chat = gunbai::call("command.run", json!({"text": "CCTV camera", "system": "coc7"})).unwrap();
//! assert_eq!(chat["matched"], false);
//! let bad = gunbai::call("command.run", json!({"text": "CC(1<=50", "system": "coc7", "lang": "en"})).unwrap();
//! assert_eq!(bad["parse_error"]["position"], 5);
//! let refused = gunbai::call("command.run", json!({"text": "CC(101)<=50", "system": "coc7", "lang": "zh-CN"})).unwrap();
//! assert_eq!(refused["refused"]["code"], "out_of_range");
//! assert_eq!(refused["text"], "请将奖励·惩罚骰的数量设置在-100以上及100以下"); // BCDice's own words
//! let far = gunbai::call("command.run", json!({"text": "1D1000001", "system": "coc7", "lang": "zh-CN"})).unwrap();
//! assert!(far["text"].as_str().unwrap().starts_with("无法执行指令"));
//! ```
//!
//! Reading a line (as BCDice does):
//! 1. Leading and trailing spaces are ignored; text after the first space
//!    (ASCII or full-width) is a comment. Full-width ASCII is read as ASCII
//!    and letters are upper-cased.
//! 2. `xN`, `repN`, `repeatN` followed by a space and a command repeats it N
//!    times (1…100; not nested): replies `#1\n…\n\n#2\n…`.
//! 3. A leading `S` makes the command secret (`SCC<=50`).
//!    A bare prefix without arguments (`EV`, `WT`, `CBR`, `TAP`) is chat;
//!    `CC`, `CCB` and `TI` alone are commands (a plain d100 / base 0).
//! 4. The dot commands of Chinese dice bots (`.ra 侦查50`, `.rab2`, `.r 3d6*5`,
//!    `.rh`) are read in their BCDice form (`dialect`); `.st` updates the card
//!    ([`st`], also the op `command.parse_st`) and, for `coc7`, `.sc`, `.coc`, `.en`
//!    and `.setcoc` are the sheet commands (the ruleset's `Dialects::sheet`: the
//!    changed card or variants in `result`).
//!    A malformed BCDice-syntax line that BCDice leaves unanswered gets no reply
//!    (`bcdice_silent`: `2D6>`, `CBR(xxx,xxx)`, a bad `choice`).
//! 5. The system's own commands are tried (each ruleset's `chat` module, through
//!    `Dialects::own`), then BCDice's common commands (`C(…)`, B, R and U dice, `TY`/`TZ`:
//!    `common`), then plain dice ([`plain`]; with `*`, `/`, parentheses and keep/drop
//!    (`4D6KH3`) as BCDice reads them, `3D6*5`, `(2D6+6)*5`, `1D6/2U`: `arith`).
//!    `choice[…]` is read from the raw line first (its items may hold spaces).
//! 6. A reply longer than [`MAX_REPLY_CHARS`] is refused (`limit_exceeded`). A refused
//!    command carries no dice (`rolls` and `repeats` are empty, whatever it rolled
//!    before it was refused), and the echoed `command` and `comment` are cut to
//!    [`MAX_ECHO_CHARS`], so a reply stays bounded whatever the line's length.
//!
//! Scripted `rolls` are consumed in the order each command documents (the
//! order BCDice consumes them for the CoC commands: 7th-edition `CC<=s` / `CC(n)` the
//! tens dice then the ones die; bare `CC`, `CBR`, `RES` and the 6th-edition checks one
//! d100 face, 1–100).
//! Repeated commands consume them run after run.
//!
//! Variants (`variants`): `coc7_rule` (0–5, default 0 = the rulebook and
//! BCDice) and `damage_table_threshold` (`at_least_10` default, `more_than_10`).
//!
//! The message catalog is `core/data/command/messages/` (one file per ruleset).

pub(crate) mod arith;
pub mod card;
pub(crate) mod catalog;
pub(crate) mod common;
pub(crate) mod dialect;
pub mod help;
pub mod init;
pub(crate) mod lex;
pub(crate) mod outcome;
pub mod plain;
pub(crate) mod record;
pub mod st;
pub mod tables;
pub mod types;

#[cfg(test)]
mod bcdice_parity;
#[cfg(test)]
mod tests;

pub use help::help;
pub use types::*;

use crate::dice::Dice;
use crate::error::{Error, ErrorCode, Result};
use crate::ops::OpDef;
use lex::{is_space, normalize, Fail, PResult};
use outcome::Outcome;

/// A system's own commands tried on one head (see [`Dialects::own`]).
pub(crate) type OwnCommands =
    fn(CmdSystem, &[char], CmdLang, &mut Dice, CmdVariants) -> PResult<Option<Outcome>>;

/// What the rulesets of the build add to the chat commands: the composition root's
/// `registered::CHAT` (`lib.rs`), built by `rulesets`. This layer reads, splits and
/// answers lines and knows the systems by their wire names ([`CmdSystem`]); every
/// command of a system, its texts and its variants' checks come from here.
pub(crate) struct Dialects {
    /// Whether the build has the system's ruleset (the cargo features of `core/Cargo.toml`).
    pub in_build: fn(CmdSystem) -> bool,
    /// Check the `variants` of a `command.run` call (whatever its system).
    pub check_variants: fn(&CmdVariants) -> Result<()>,
    /// The system's own commands on one head: `Ok(None)` when it is none of them.
    pub own: OwnCommands,
    /// The system's sheet commands on the whole line (CoC 7th's `.sc`, `.coc`, `.en`,
    /// `.setcoc`): `Ok(None)` when the line is none of them.
    pub sheet: fn(&CmdRunArgs, &mut Dice) -> Result<Option<CmdRunResult>>,
    /// The help of a system: its title's catalog key and its commands.
    pub help: fn(CmdSystem) -> (&'static str, &'static [help::Entry]),
    /// The rulesets' message tables (beside the common one), each sorted by key.
    pub messages: &'static [&'static [catalog::Entry]],
    /// The rulesets' Korean texts (beside the common ones), each sorted by key.
    pub messages_ko: &'static [&'static [catalog::KoEntry]],
    /// The rulebook tables whose texts a `table_pack` may hold: id and entry count.
    pub tables: fn() -> Vec<(&'static str, u32)>,
}

/// Most repetitions of one command (`x100`).
pub const MAX_REPEAT: i64 = 100;

/// Longest reply `text`, in characters. A longer reply is not sent: the command is
/// refused (`limit_exceeded`, a localized reply) and the result carries no dice, runs
/// or structured result, so the whole output stays bounded (`x100 1000D10000` would
/// be about 600,000 characters).
pub const MAX_REPLY_CHARS: usize = 10_000;

/// Longest echoed `command` and `comment`, in characters: a longer one is cut to this
/// many and ends in `…` (a 1 MB chat line gets a reply of a few kilobytes).
pub const MAX_ECHO_CHARS: usize = 1_000;

pub(crate) fn ops() -> Vec<OpDef> {
    vec![
        crate::op!(
            "command.run",
            run,
            CmdRunArgs => CmdRunResult,
            "Run one chat line as a dice/ruleset command (BCDice syntax for CoC); matched=false for ordinary chat."
        ),
        crate::op!(
            "command.parse_st",
            st::parse_st,
            st::CmdStArgs => st::CmdStResult,
            "Read a `.st` chat line (SealDice/Dice! forms) into a character card or an update of the one passed; pure, the caller stores the card."
        ),
        crate::op!(
            "command.help",
            help,
            CmdHelpArgs => CmdHelpResult,
            "The command reference of a system in ja, zh-Hans, zh-Hant or en."
        ),
    ]
}

/// A line split into command head and comment, with the head's offset.
struct Line {
    /// Normalised head characters.
    head: Vec<char>,
    /// Character offset of the head in the original text.
    offset: usize,
    /// The comment (text after the first space), if any.
    comment: Option<String>,
    /// Character offset of the comment in the original text.
    comment_offset: usize,
    /// For each head character, its index in the original head (`≦` reads as two).
    source: Vec<usize>,
    /// Characters in the original head.
    source_len: usize,
}

impl Line {
    /// The 0-based character offset in the original text of head index `i` (the
    /// end of the head for an index past it).
    fn text_pos(&self, i: usize) -> usize {
        self.offset + self.source.get(i).copied().unwrap_or(self.source_len)
    }
}

fn split(text: &str, base: usize) -> Line {
    let chars: Vec<char> = text.chars().collect();
    let start = chars.iter().take_while(|c| is_space(**c)).count();
    let end = chars.get(start..).map_or(0, |r| r.iter().take_while(|c| !is_space(**c)).count()) + start;
    // IME comparison signs read as their ASCII spelling (`CC≦50` is `CC<=50`).
    let original = chars.get(start..end).unwrap_or(&[]);
    let mut head = Vec::with_capacity(original.len());
    let mut source = Vec::with_capacity(original.len());
    for (i, &c) in original.iter().enumerate() {
        let read: &[char] = match c {
            '≦' | '≤' => &['<', '='],
            '≧' | '≥' => &['>', '='],
            '−' => &['-'],
            _ => &[],
        };
        if read.is_empty() {
            head.push(normalize(c));
            source.push(i);
        } else {
            head.extend_from_slice(read);
            source.extend(std::iter::repeat_n(i, read.len()));
        }
    }
    let rest = chars.get(end..).unwrap_or(&[]);
    let skip = rest.iter().take_while(|c| is_space(**c)).count();
    let comment: String = rest.get(skip..).unwrap_or(&[]).iter().collect();
    let comment = comment.trim_end_matches(is_space).to_string();
    Line {
        head,
        offset: base + start,
        comment: (!comment.is_empty()).then_some(comment),
        comment_offset: base + end + skip,
        source,
        source_len: original.len(),
    }
}

/// `not_in_build` for a system this build leaves out (a per-ruleset npm entry), as
/// `command.run` and `command.help` report it.
pub(crate) fn check_in_build(system: Option<CmdSystem>) -> Result<()> {
    match system.filter(|s| !s.in_build()) {
        Some(system) => Err(Error::field(
            ErrorCode::NotInBuild,
            "system",
            format_args!("{} is not in this build of gunbai (it has: {})", system.as_str(), built_systems()),
        )),
        None => Ok(()),
    }
}

/// The systems of this build, for the `not_in_build` message.
fn built_systems() -> String {
    let all = [CmdSystem::WorldTrigger, CmdSystem::Coc7, CmdSystem::Coc6, CmdSystem::Tmd, CmdSystem::FapMap];
    let names: Vec<&str> = all.iter().filter(|s| s.in_build()).map(|s| s.as_str()).collect();
    if names.is_empty() {
        "plain dice only".to_string()
    } else {
        names.join(", ")
    }
}

/// What [`single`] found: (secret, the command as read, its outcome), `None` for chat;
/// a failure with whether it was of a secret command.
type Single = std::result::Result<Option<(bool, String, Outcome)>, (bool, Fail)>;

/// One command (no repetition): `Ok(None)` when it is not a command. A failure
/// carries whether it was of an `S`-prefixed (secret) command.
fn single(head: &[char], args: &CmdRunArgs, dice: &mut Dice) -> Single {
    let (system, lang, variants) = (args.system, args.lang, args.variants);
    if head.is_empty() {
        return Ok(None);
    }
    let try_one = |c: &[char], dice: &mut Dice| -> PResult<Option<Outcome>> {
        let mut o = try_command(c, system, lang, variants, dice)?;
        if let Some(o) = o.as_mut() {
            tables::resolve(o, args.table_pack.as_ref(), lang)?;
        }
        Ok(o)
    };
    if head.first() == Some(&'S') && head.len() > 1 {
        let rest = head.get(1..).unwrap_or(&[]);
        match try_one(rest, dice) {
            Ok(Some(o)) => return Ok(Some((true, rest.iter().collect(), o))),
            Ok(None) => {}
            Err(Fail::Parse { key, pos }) => return Err((true, Fail::Parse { key, pos: pos + 1 })),
            Err(e) => return Err((true, players_mistake(e))),
        }
    }
    try_one(head, dice)
        .map(|o| o.map(|o| (false, head.iter().collect(), o)))
        .map_err(|f| (false, players_mistake(f)))
}

/// One command of the system or the common ones, before its table entry is filled.
fn try_command(
    c: &[char],
    system: Option<CmdSystem>,
    lang: CmdLang,
    variants: CmdVariants,
    dice: &mut Dice,
) -> PResult<Option<Outcome>> {
    // A system left out of this build never gets here (`run` refuses it first).
    let own = match system {
        None => None,
        Some(s) => (crate::registered::CHAT.own)(s, c, lang, dice, variants)?,
    };
    if let Some(o) = own {
        return Ok(Some(o));
    }
    if let Some(o) = common::try_calc(c, lang, dice)? {
        return Ok(Some(o));
    }
    if let Some(o) = common::try_tally(c, lang, dice)? {
        return Ok(Some(o));
    }
    if let Some(o) = common::try_bdice(c, lang, dice)? {
        return Ok(Some(o));
    }
    if let Some(o) = common::try_rdice(c, lang, dice)? {
        return Ok(Some(o));
    }
    if let Some(o) = common::try_udice(c, lang, dice)? {
        return Ok(Some(o));
    }
    plain::try_plain(c, lang, dice)
}

/// A failure about the text is the player's (a refusal reply), not the caller's
/// (an error): `lex::hard` names the field `text` for everything but the dice source.
fn players_mistake(f: Fail) -> Fail {
    match f {
        Fail::Hard(e) if e.field.as_deref() == Some("text") => {
            Fail::Refuse(Box::new(lex::Refusal { error: e, key: None, vars: Vec::new(), whole: false }))
        }
        f => f,
    }
}

/// A head that fails to parse is chat, not a malformed command, when it holds a
/// character no command has (kana, kanji, full-width punctuation: `WTの話`, `CCさくら`,
/// `2D6で攻撃`) or fails at punctuation no command uses there: `!` `?` `:` `;` or a
/// quote (`CC!`, `WT?`, `cc: 全員`). Commands are ASCII (after full-width ASCII is
/// folded), so such a line was never meant as one; BCDice stays silent on it too.
fn chat_like(head: &[char], pos: usize) -> bool {
    head.iter().any(|c| !c.is_ascii()) || matches!(head.get(pos), Some('!' | '?' | ':' | ';' | '"' | '\''))
}

/// Does BCDice give no reply to this malformed BCDice-syntax line (DESIGN.md, "Which
/// malformed lines get no reply?")? `head` failed to parse at `pos` with `key`.
/// Text stuck to a complete value (`CC<=50x`, `1D6/3x`, `2U6[6]>=5@4`) stays a
/// `parse_error` (a reader could take it for the value); so do the commands of the
/// systems BCDice does not have (World Trigger, TMD, FAP/MAP) and the dot commands.
/// Silent: an empty target (`2D6>`, `CC<=`), an expression ending in an operator
/// (`2D6+`, `c1+4*`, `C(3*)`), and a CoC `CBR`/`RES` whose arguments are not BCDice's
/// `(a,b)` / `(a-b)` (`CBR(xxx,xxx)`, `RES18-11`).
fn bcdice_silent(system: Option<CmdSystem>, head: &[char], key: &str, pos: usize) -> bool {
    let at = head.get(pos).copied();
    let before = pos.checked_sub(1).and_then(|p| head.get(p)).copied();
    let stuck = key == "unexpected"
        && at.is_some_and(|c| c.is_ascii_alphanumeric() || c == '@')
        && before.is_some_and(|c| c.is_ascii_digit() || c == ')' || c == ']');
    if stuck {
        return false;
    }
    let bare = head.strip_prefix(&['S']).filter(|r| !r.is_empty()).unwrap_or(head);
    let starts = |p: &str| bare.iter().take(p.len()).copied().eq(p.chars());
    let cthulhu = matches!(system, Some(CmdSystem::Coc7 | CmdSystem::Coc6));
    let own = match system {
        Some(CmdSystem::WorldTrigger) => ["WT", "WD"].iter().any(|p| starts(p)),
        Some(CmdSystem::Tmd) => ["TI", "TAP"].iter().any(|p| starts(p)),
        Some(CmdSystem::FapMap) => ["EV", "JE"].iter().any(|p| starts(p)),
        _ => false,
    };
    if own {
        return false;
    }
    if cthulhu && (starts("CBR") || starts("RES")) {
        return true;
    }
    let at_end = pos >= head.len();
    let empty_target = at_end && matches!(before, Some('>' | '<' | '='));
    let dangling = (at_end || at == Some(')')) && matches!(before, Some('+' | '-' | '*' | '/'));
    matches!(key, "expected_number" | "bad_dice") && (empty_target || dangling)
}

/// Is the head a repetition prefix (`x3`, `rep3`, `repeat3`, optionally `S`-prefixed)?
/// Returns (secret, count, chars of the prefix).
fn repeat_prefix(head: &[char]) -> Option<(bool, Option<i64>)> {
    let s: String = head.iter().collect();
    let (secret, s) = match s.strip_prefix('S') {
        Some(r) if r.starts_with('X') || r.starts_with("REP") => (true, r),
        _ => (false, s.as_str()),
    };
    let digits =
        s.strip_prefix("REPEAT").or_else(|| s.strip_prefix("REP")).or_else(|| s.strip_prefix('X'))?;
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((secret, digits.parse::<i64>().ok()))
}

/// At most 32 characters of untrusted text, for a reply (`…` when cut).
pub(crate) fn short(s: &str) -> String {
    cut(s, 32)
}

/// `s` cut to `max` characters, `…` added when cut.
fn cut(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// `echo` cut to [`MAX_ECHO_CHARS`] (kept as it is when within).
fn cap_echo(echo: &mut Option<String>) {
    if let Some(e) =
        echo.as_mut().filter(|e| e.len() > MAX_ECHO_CHARS && e.chars().nth(MAX_ECHO_CHARS).is_some())
    {
        *e = cut(e, MAX_ECHO_CHARS);
    }
}

pub(crate) fn fill(mut res: CmdRunResult, o: Outcome) -> CmdRunResult {
    res.kind = Some(o.kind);
    res.text = o.text;
    res.success = o.success;
    res.critical = o.critical;
    res.fumble = o.fumble;
    res.total = o.total;
    res.result = o.result;
    res
}

pub(crate) fn parse_failure(
    mut res: CmdRunResult,
    lang: CmdLang,
    key: &str,
    position: usize,
) -> Result<CmdRunResult> {
    let reason_key = format!("perr_{key}");
    let reason = catalog::msg(lang, &reason_key)?;
    // A repetition's count or nesting is answered with the reason alone, as BCDice does.
    res.text = if key.starts_with("repeat_") {
        reason.to_string()
    } else {
        catalog::fmt(lang, "parse_error", &[("pos", position.to_string()), ("reason", reason.to_string())])?
    };
    res.parse_error = Some(CmdParseError {
        code: key.to_string(),
        message: catalog::msg(CmdLang::En, &reason_key)?.to_string(),
        position,
    });
    Ok(res)
}

/// `res` as the reply to `line`'s command (a parse failure or a refusal still
/// answers it): matched, secret as the `S` prefix says, the command without it.
fn answering(mut res: CmdRunResult, line: &Line, secret: bool) -> CmdRunResult {
    res.matched = true;
    res.secret = secret;
    res.command = Some(line.head.iter().skip(usize::from(secret)).collect());
    res.comment = line.comment.clone();
    res
}

/// The reply to a command whose values cannot be run (see [`CmdRefusal`]): it carries
/// no dice, whatever was rolled before the refusal.
pub(crate) fn refusal(mut res: CmdRunResult, lang: CmdLang, r: lex::Refusal) -> Result<CmdRunResult> {
    res.rolls.clear();
    res.repeats.clear();
    let e = r.error;
    let code = e.code.as_str();
    let message = e.message.strip_prefix("text: ").unwrap_or(&e.message).to_string();
    let detail = match r.key {
        Some(k) => catalog::fmt(lang, &format!("detail_{k}"), &r.vars)?,
        None => message.clone(),
    };
    let key = match code {
        "out_of_range" | "limit_exceeded" | "illegal_action" => format!("refused_{code}"),
        _ => "refused_other".to_string(),
    };
    res.text = if r.whole { detail } else { catalog::fmt(lang, &key, &[("detail", detail)])? };
    res.refused = Some(CmdRefusal { code: code.to_string(), message, rule: e.0.rule });
    Ok(res)
}

/// The refusal of a reply longer than [`MAX_REPLY_CHARS`]: `res` without its
/// dice, runs (both cleared by [`refusal`]) and structured result.
fn too_long(mut res: CmdRunResult, lang: CmdLang) -> Result<CmdRunResult> {
    res.kind = None;
    res.success = None;
    res.critical = false;
    res.fumble = false;
    res.total = None;
    res.result = None;
    let max = MAX_REPLY_CHARS as i64;
    let error = Error::limit("text", format_args!("a reply is at most {MAX_REPLY_CHARS} characters"));
    let Fail::Refuse(r) = lex::refuse(error, "reply_size", &[("max", max)]) else {
        return Err(Error::new(ErrorCode::Internal, "reply size refusal"));
    };
    refusal(res, lang, *r)
}

/// `command.run` — run one chat line as a command (how a line is read: the module docs above).
pub fn run(args: &CmdRunArgs) -> Result<CmdRunResult> {
    let mut res = run_line(args)?;
    cap_echo(&mut res.command);
    cap_echo(&mut res.comment);
    if res.text.chars().count() > MAX_REPLY_CHARS {
        res = too_long(res, args.lang)?;
    }
    if let Some(actor) = args.actor.as_deref().filter(|a| a.chars().count() > 64) {
        return Err(Error::field(
            ErrorCode::InvalidArgument,
            "actor",
            format_args!("an actor is at most 64 characters, not {}", actor.chars().count()),
        ));
    }
    res.record = record::record(args, &res);
    record::hide_secret(res, args.lang)
}

fn run_line(args: &CmdRunArgs) -> Result<CmdRunResult> {
    check_in_build(args.system)?;
    (crate::registered::CHAT.check_variants)(&args.variants)?;
    let mut dice = args.source.dice()?;
    let lang = args.lang;
    // Chinese bots' dot commands (`.ra 侦查50`) are read in their BCDice form.
    if let Some(card) = &args.card {
        card::validate(card)?;
    }
    if let Some(pack) = &args.skill_pack {
        card::validate_pack(pack)?;
    }
    if let Some(pack) = &args.table_pack {
        tables::validate(pack)?;
    }
    // `.st …` (a card update) and, for CoC 7th, `.sc`, `.coc`, `.en`, `.setcoc`.
    if let Some(r) = st::run_st(args)? {
        return Ok(r);
    }
    if let Some(r) = (crate::registered::CHAT.sheet)(args, &mut dice)? {
        return Ok(r);
    }
    // `.ri` / `.init`: the channel's initiative list.
    if let Some(r) = init::run_init(args)? {
        return Ok(r);
    }
    let rewritten =
        match dialect::rewrite(&args.text, args.system, args.card.as_ref(), args.skill_pack.as_ref()) {
            Some(Ok(line)) => Some(line),
            None => None,
            Some(Err(dialect::DotFail::Uncertain(key, position))) => {
                // Modifiers that cannot be read for certain: refused, never rolled.
                let mut res = CmdRunResult::unmatched();
                res.matched = true;
                return parse_failure(res, lang, key, position);
            }
            Some(Err(dialect::DotFail::Missing(name))) => {
                // A skill without a value that the card (or the missing card) lacks.
                let mut res = CmdRunResult::unmatched();
                res.matched = true;
                let position =
                    args.text.find(name.as_str()).map_or(1, |b| args.text[..b].chars().count() + 1);
                let name = short(&name);
                res.text = catalog::fmt(lang, "skill_missing", &[("name", name.clone())])?;
                res.parse_error = Some(CmdParseError {
                    code: "skill_missing".into(),
                    message: catalog::fmt(CmdLang::En, "skill_missing", &[("name", name)])?,
                    position,
                });
                return Ok(res);
            }
        };
    // `CC<=目星` with a card: the skill's value (BCDice's form of `.ra 目星`).
    let with_card =
        args.card.as_ref().and_then(|c| card::substitute(rewritten.as_deref().unwrap_or(&args.text), c));
    let rewritten = with_card.or(rewritten);
    let source = rewritten.as_deref().unwrap_or(&args.text);
    let mut res = CmdRunResult::unmatched();
    // `choice[…]` reads the raw line: its items may hold spaces.
    let lead = source.chars().take_while(|c| is_space(*c)).count();
    match common::try_choice(source, lang, &mut dice) {
        Ok(None) => {}
        Ok(Some((secret, cmd, o))) => {
            res.matched = true;
            res.secret = secret;
            res.command = Some(cmd);
            let mut res = fill(res, o);
            res.rolls = dice.take_rolls();
            return Ok(res);
        }
        // BCDice gives no reply to a malformed `choice` (no items, a wrong bracket, a
        // count or range it cannot take).
        Err(Fail::Parse { .. }) if rewritten.is_none() => return Ok(res),
        Err(Fail::Parse { key, pos }) => {
            res.matched = true;
            res.command = Some("choice".into());
            return parse_failure(res, lang, key, lead + pos + 1);
        }
        Err(Fail::Refuse(r)) => {
            res.matched = true;
            return refusal(res, lang, *r);
        }
        Err(Fail::Hard(e)) => return Err(e),
    }
    let line = split(source, 0);

    if let Some((secret, count)) = repeat_prefix(&line.head) {
        let Some(trailer_text) = &line.comment else { return Ok(res) };
        let inner = split(trailer_text, line.comment_offset);
        res.matched = true;
        res.secret = secret;
        res.command = Some(line.head.iter().collect());
        if repeat_prefix(&inner.head).is_some() {
            return parse_failure(res, lang, "repeat_nested", inner.offset + 1);
        }
        let count = match count {
            Some(n) if (1..=MAX_REPEAT).contains(&n) => n,
            _ => return parse_failure(res, lang, "repeat_count", line.offset + 1),
        };
        res.comment = inner.comment.clone();
        let mut texts = Vec::new();
        let mut chars = 0;
        for i in 1..=count {
            // Stop as soon as the reply is over the limit (`run` refuses it).
            if chars > MAX_REPLY_CHARS {
                res.matched = true;
                res.text = texts.join("\n\n");
                return Ok(res);
            }
            let start = dice.rolls().len();
            // A line BCDice does not answer is not a command (`x2 2D6+`: the reply that
            // it could not be run, as for `x2 please`).
            let one = match single(&inner.head, args, &mut dice) {
                Err((_, Fail::Parse { key, pos }))
                    if rewritten.is_none()
                        && !chat_like(&inner.head, pos)
                        && bcdice_silent(args.system, &inner.head, key, pos) =>
                {
                    Ok(None)
                }
                one => one,
            };
            match one {
                Ok(Some((s, cmd, o))) => {
                    res.secret |= s;
                    res.command = Some(format!("{} {cmd}", line.head.iter().collect::<String>()));
                    texts.push(format!("#{i}\n{}", o.text));
                    chars += texts.last().map_or(0, |t| t.chars().count() + 2);
                    res.repeats.push(CmdRepeatItem {
                        text: o.text,
                        success: o.success,
                        critical: o.critical,
                        fumble: o.fumble,
                        total: o.total,
                        rolls: dice.rolls_since(start),
                        result: o.result,
                    });
                }
                // `x2 please`: BCDice answers that the command could not be run.
                Ok(None) => {
                    let shown = short(trailer_text.trim_matches(is_space));
                    res.repeats.clear();
                    res.rolls = dice.take_rolls();
                    res.text = catalog::fmt(lang, "repeat_not_command", &[("text", shown)])?;
                    return Ok(res);
                }
                Err((_, Fail::Parse { pos, .. })) if chat_like(&inner.head, pos) => {
                    return Ok(CmdRunResult::unmatched())
                }
                Err((s, Fail::Parse { key, pos })) => {
                    res.secret |= s;
                    return parse_failure(res, lang, key, inner.text_pos(pos) + 1);
                }
                Err((s, Fail::Refuse(r))) => {
                    res.secret |= s;
                    let cmd: String = inner.head.iter().skip(usize::from(s)).collect();
                    res.command = Some(format!("{} {cmd}", line.head.iter().collect::<String>()));
                    return refusal(res, lang, *r);
                }
                Err((_, Fail::Hard(e))) => return Err(e),
            }
        }
        res.kind = Some(CmdKind::Repeat);
        res.text = texts.join("\n\n");
        res.rolls = dice.take_rolls();
        return Ok(res);
    }

    match single(&line.head, args, &mut dice) {
        // A dot command is always answered: what its dice word cannot be read as
        // (`.r 1dx`) is a parse error, never silence.
        Ok(None) if rewritten.is_some() => {
            parse_failure(answering(res, &line, false), lang, "bad_dice", line.text_pos(0) + 1)
        }
        Ok(None) => Ok(res),
        Ok(Some((secret, cmd, o))) => {
            res.matched = true;
            res.secret = secret;
            res.command = Some(cmd);
            res.comment = line.comment;
            let mut res = fill(res, o);
            res.rolls = dice.take_rolls();
            Ok(res)
        }
        Err((_, Fail::Parse { pos, .. })) if rewritten.is_none() && chat_like(&line.head, pos) => Ok(res),
        Err((_, Fail::Parse { key, pos }))
            if rewritten.is_none() && bcdice_silent(args.system, &line.head, key, pos) =>
        {
            Ok(res)
        }
        Err((secret, Fail::Parse { key, pos })) => {
            parse_failure(answering(res, &line, secret), lang, key, line.text_pos(pos) + 1)
        }
        Err((secret, Fail::Refuse(r))) => refusal(answering(res, &line, secret), lang, *r),
        Err((_, Fail::Hard(e))) => Err(e),
    }
}
