//! CoC 7th edition full-auto fire, BCDice's `FAR(rounds,skill,malfunction[,bonus[,stop[,volley]]])`,
//! with BCDice's reply (ja and zh-Hant, and ko as BCDice's `Cthulhu7th:Korean` words it;
//! gunbai's wording in zh-Hans and en).
//!
//! How a burst goes (as BCDice's Cthulhu7th fires it, read from its test cases):
//! * A volley is `skill / 10` rounds (at least 3; at most 3 when the skill is 39 or
//!   less); `volley` may set fewer, down to 3 (the reply says when it is corrected).
//!   The last volley fires what is left. At most 100 rounds are loaded.
//! * Each volley is one d100 roll with the current bonus/penalty dice (−2…2 at the
//!   start, the tens dice then the ones die, as `CC`; in Korean the ones die first). After each volley one more
//!   penalty die is added, down to −2; from then on each further volley raises the
//!   difficulty instead (hard, extreme, critical); after a volley at critical, or
//!   at the difficulty `stop` names (`r`, `h`, `e`, `c`), the burst ends.
//! * A roll at or above the malfunction number jams the weapon: that volley fires
//!   nothing and the burst ends. A fumble is 100, or 96–99 when the target at the
//!   current difficulty is below 50.
//! * A volley that succeeds at the current difficulty hits with half its rounds
//!   (rounded down, at least 1); an extreme success or a critical below critical
//!   difficulty impales with half (rounded down, at least 1) and hits with the rest.

use crate::chat::catalog::{fmt, msg};
use crate::chat::lex::{perr, Cur, PResult};
use crate::chat::outcome::Outcome;
use crate::chat::types::{CmdKind, CmdLang};
use crate::coc7::check::{classify, roll_d100_order, Coc7Level};
use crate::dice::Dice;

/// Most rounds loaded for one burst.
const MAX_ROUNDS: i64 = 100;
/// Bonus/penalty dice of the first volley: −2…2.
const MAX_BONUS: i64 = 2;
/// Fewest rounds in a volley.
const MIN_VOLLEY: i64 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Difficulty {
    Regular,
    Hard,
    Extreme,
    Critical,
}

impl Difficulty {
    fn target(self, skill: i64) -> i64 {
        match self {
            Difficulty::Regular => skill,
            Difficulty::Hard => skill / 2,
            Difficulty::Extreme => skill / 5,
            Difficulty::Critical => 1,
        }
    }

    fn met_by(self, level: Coc7Level) -> bool {
        match self {
            Difficulty::Regular => level.is_success(),
            Difficulty::Hard => matches!(level, Coc7Level::Hard | Coc7Level::Extreme | Coc7Level::Critical),
            Difficulty::Extreme => matches!(level, Coc7Level::Extreme | Coc7Level::Critical),
            Difficulty::Critical => level == Coc7Level::Critical,
        }
    }
}

fn level_key(l: Coc7Level) -> &'static str {
    match l {
        Coc7Level::Critical => "coc7_critical",
        Coc7Level::Extreme => "coc7_extreme",
        Coc7Level::Hard => "coc7_hard",
        Coc7Level::Regular => "coc7_regular",
        Coc7Level::Failure => "coc7_failure",
        Coc7Level::Fumble => "coc7_fumble",
    }
}

/// One argument: empty (`None`) or integer arithmetic.
fn number(arg: &[char], base: usize) -> PResult<Option<i64>> {
    if arg.is_empty() {
        return Ok(None);
    }
    let mut cur = Cur::new(arg);
    let v = cur.arith(1).map_err(|e| shift(e, base))?;
    cur.end().map_err(|e| shift(e, base))?;
    Ok(Some(v))
}

fn shift(f: crate::chat::lex::Fail, base: usize) -> crate::chat::lex::Fail {
    match f {
        crate::chat::lex::Fail::Parse { key, pos } => crate::chat::lex::Fail::Parse { key, pos: pos + base },
        f => f,
    }
}

/// Try `FAR(…)` (7th edition).
pub(crate) fn try_far(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    let mut cur = Cur::new(c);
    if !cur.eat_str("FAR") || cur.peek() != Some('(') {
        return Ok(None);
    }
    let open = cur.i;
    let Some(close) = c.iter().rposition(|&ch| ch == ')') else {
        return perr("expected_close_paren", c.len());
    };
    if close + 1 != c.len() {
        return perr("unexpected", close + 1);
    }
    let mut args: Vec<(usize, &[char])> = Vec::new();
    let mut start = open + 1;
    for (i, &ch) in c.iter().enumerate().take(close).skip(open + 1) {
        if ch == ',' {
            args.push((start, &c[start..i]));
            start = i + 1;
        }
    }
    args.push((start, &c[start..close]));
    if args.len() > 6 {
        return perr("unexpected", args[6].0.saturating_sub(1));
    }
    let arg = |k: usize| args.get(k).copied().unwrap_or((close, &[][..]));
    let need = |k: usize| -> PResult<i64> {
        let (at, a) = arg(k);
        number(a, at)?.map_or_else(|| perr("expected_number", at), Ok)
    };
    let mut rounds = need(0)?;
    let skill = need(1)?;
    let mut malfunction = need(2)?;
    let (at, a) = arg(3);
    let bonus = number(a, at)?.unwrap_or(0);
    let (at, a) = arg(4);
    let stop = match a {
        [] => None,
        ['R'] => Some(Difficulty::Regular),
        ['H'] => Some(Difficulty::Hard),
        ['E'] => Some(Difficulty::Extreme),
        ['C'] => Some(Difficulty::Critical),
        _ => return perr("unexpected", at),
    };
    let (at, a) = arg(5);
    let volley_arg = number(a, at)?;

    let refuse = |key: &str, vars: &[(&str, String)]| -> PResult<Option<Outcome>> {
        Ok(Some(Outcome::new(CmdKind::Coc7FullAuto, fmt(lang, key, vars)?)))
    };
    if rounds <= 0 {
        return refuse("far_err_ammo", &[]);
    }
    if skill <= 0 {
        return refuse("far_err_skill", &[]);
    }
    if bonus.abs() > MAX_BONUS {
        return refuse("far_err_bonus", &[("max", MAX_BONUS.to_string())]);
    }
    if volley_arg.is_some_and(|v| v <= 0) {
        return refuse("far_err_volley", &[]);
    }
    let mut lines = Vec::new();
    if rounds > MAX_ROUNDS {
        lines.push(fmt(lang, "far_ammo_capped", &[("max", MAX_ROUNDS.to_string())])?);
        rounds = MAX_ROUNDS;
    }
    let max_volley = (skill / 10).max(MIN_VOLLEY);
    let volley = match volley_arg {
        Some(v) if skill < 40 && v > MIN_VOLLEY => {
            lines.push(fmt(lang, "far_volley_low_skill", &[("n", MIN_VOLLEY.to_string())])?);
            MIN_VOLLEY
        }
        Some(v) if v > max_volley => {
            lines.push(fmt(lang, "far_volley_max", &[("n", max_volley.to_string())])?);
            max_volley
        }
        Some(v) if v < MIN_VOLLEY => {
            lines.push(fmt(lang, "far_volley_min", &[("n", MIN_VOLLEY.to_string())])?);
            MIN_VOLLEY
        }
        Some(v) => v,
        None => max_volley,
    };
    if malfunction < 0 {
        lines.push(msg(lang, "far_malfunction_sign")?.to_string());
        malfunction = -malfunction;
    }
    // BCDice's Korean system writes a space before the bracket here (not in `CC`).
    let gap = if lang == CmdLang::Ko { " " } else { "" };
    lines.push(format!("{}{gap}[{bonus}]", msg(lang, "coc7_bonus")?));

    let (mut left, mut dice_now, mut difficulty) = (rounds, bonus, Difficulty::Regular);
    let (mut hits, mut impales) = (0i64, 0i64);
    let mut jammed = false;
    for i in 1.. {
        let n = volley.min(left);
        let (r, candidates) = roll_d100_order(dice, dice_now, lang == CmdLang::Ko)?;
        let roll = i64::from(r);
        let mut level = classify(roll, skill, 0);
        if classify(roll, difficulty.target(skill), 0) == Coc7Level::Fumble {
            level = Coc7Level::Fumble;
        }
        let shown: Vec<String> = candidates.iter().map(u32::to_string).collect();
        let mut line = fmt(
            lang,
            "far_shot",
            &[
                ("i", i.to_string()),
                ("dice", shown.join(", ")),
                ("level", msg(lang, level_key(level))?.to_string()),
            ],
        )?;
        if roll >= malfunction {
            line.push_str(msg(lang, "far_jam")?);
            lines.push(line);
            jammed = true;
            break;
        }
        let (hit, imp) = if level != Coc7Level::Fumble && difficulty.met_by(level) {
            let half = (n / 2).max(1);
            let impale = matches!(level, Coc7Level::Extreme | Coc7Level::Critical)
                && difficulty != Difficulty::Critical;
            if impale {
                (n - half, half)
            } else {
                (half, 0)
            }
        } else {
            (0, 0)
        };
        line.push_str(&fmt(lang, "far_hits", &[("hit", hit.to_string()), ("imp", imp.to_string())])?);
        lines.push(line);
        hits += hit;
        impales += imp;
        left -= n;
        if left <= 0 {
            break;
        }
        if dice_now > -MAX_BONUS {
            dice_now -= 1;
            continue;
        }
        if stop == Some(difficulty) {
            lines.push(msg(lang, "far_stop")?.to_string());
            break;
        }
        difficulty = match difficulty {
            Difficulty::Regular => Difficulty::Hard,
            Difficulty::Hard => Difficulty::Extreme,
            Difficulty::Extreme => Difficulty::Critical,
            Difficulty::Critical => break,
        };
        lines.push(
            msg(
                lang,
                match difficulty {
                    Difficulty::Hard => "far_to_hard",
                    Difficulty::Extreme => "far_to_extreme",
                    _ => "far_to_critical",
                },
            )?
            .to_string(),
        );
    }
    lines.push(fmt(
        lang,
        "far_total",
        &[("hit", hits.to_string()), ("imp", impales.to_string()), ("left", left.to_string())],
    )?);
    let result =
        FarResult { rounds, skill, malfunction, bonus, volley, hits, impales, rounds_left: left, jammed };
    Ok(Some(Outcome::new(CmdKind::Coc7FullAuto, lines.join("\n")).total(hits + impales).result(&result)))
}

/// Structured result of `FAR`.
#[derive(Debug, Clone, crate::json::ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
struct FarResult {
    rounds: i64,
    skill: i64,
    malfunction: i64,
    bonus: i64,
    volley: i64,
    hits: i64,
    impales: i64,
    rounds_left: i64,
    jammed: bool,
}
