//! FAP/MAP's chat commands (`system: fap_map`):
//! * `EVn>t` — evasion check (FM-DEF-2): Evasion n + 2D6 must exceed t, by
//!   [`crate::fap_map::checks::evasion_check`]. Two d6.
//! * `JEd` + `F` | `O` | `Sk` — jump-evasion damage (FM-ACT-16) for d damage
//!   after a failed check (`F`), a success that left the area (`O`), or a
//!   success of degree k inside the area (`Sk`), by
//!   [`crate::fap_map::checks::jump_evasion`]. No dice.

use crate::chat::catalog::{fmt, msg};
use crate::chat::lex::{hard, perr, Cur, PResult};
use crate::chat::outcome::{faces, signed, Outcome};
use crate::chat::types::{CmdKind, CmdLang};
use crate::dice::{Dice, ScriptedFace};
use crate::fap_map::checks::{
    evasion_check, jump_evasion, FmEvasionCheckArgs, FmJumpEvasionArgs, FmJumpEvasionBranch,
};

/// Try a FAP/MAP command.
pub(crate) fn try_fm(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    let mut cur = Cur::new(c);
    if cur.eat_str("JE") {
        if cur.letter_next() || cur.at_end() {
            return Ok(None);
        }
        let d = cur.need_number()?;
        let at = cur.i;
        let (success, left_area, degree) = if cur.eat('F') {
            (false, false, None)
        } else if cur.eat('O') {
            (true, true, None)
        } else if cur.eat('S') {
            (true, false, Some(cur.need_number()?))
        } else {
            return perr("expected_flag", at);
        };
        cur.end()?;
        let r = jump_evasion(&FmJumpEvasionArgs { damage: d, success, degree, left_area, strength: None })
            .map_err(hard)?;
        let flag = match (success, left_area, degree) {
            (false, ..) => "F".to_string(),
            (true, true, _) => "O".to_string(),
            (true, false, k) => format!("S{}", k.unwrap_or(0)),
        };
        let vars = vec![
            ("from", d.to_string()),
            ("to", r.damage_taken.to_string()),
            ("degree", degree.unwrap_or(0).to_string()),
            ("percent", r.reduction_percent.to_string()),
        ];
        let key = match r.branch {
            FmJumpEvasionBranch::LeftArea => "fm_je_left",
            FmJumpEvasionBranch::Reduced => "fm_je_reduced",
            FmJumpEvasionBranch::Failed => "fm_je_failed",
        };
        let text = format!("(JE{d}{flag}) ＞ {} ＞ {}", fmt(lang, key, &vars)?, msg(lang, "fm_agility")?);
        return Ok(Some(
            Outcome::new(CmdKind::FmJumpEvasion, text)
                .total(r.damage_taken)
                .success(Some(success))
                .result(&r),
        ));
    }
    if !cur.eat_str("EV") {
        return Ok(None);
    }
    if cur.letter_next() || cur.at_end() {
        return Ok(None);
    }
    let Some(ev) = cur.signed()? else { return perr("expected_number", cur.i) };
    if !cur.eat('>') {
        return perr("expected_gt", cur.i);
    }
    let Some(target) = cur.signed()? else { return perr("expected_number", cur.i) };
    cur.end()?;
    let mut args = FmEvasionCheckArgs {
        evasion: ev,
        target,
        source: crate::dice::DiceArgs {
            rolls: Some(vec![ScriptedFace::Face(1), ScriptedFace::Face(1)]),
            ..Default::default()
        },
    };
    evasion_check(&args).map_err(hard)?; // validation only
    let a = dice.roll(6)?;
    let b = dice.roll(6)?;
    args.source.rolls = Some(vec![ScriptedFace::Face(i64::from(a)), ScriptedFace::Face(i64::from(b))]);
    let r = evasion_check(&args).map_err(hard)?;
    let text = format!(
        "(EV{}>{target}) ＞ {}{}{} ＞ {} ＞ {}",
        ev,
        a + b,
        faces(&r.faces),
        signed(ev),
        r.total,
        msg(lang, if r.success { "fm_evaded" } else { "fm_hit" })?
    );
    Ok(Some(Outcome::new(CmdKind::FmEvasion, text).total(r.total).success(Some(r.success)).result(&r)))
}

/// FAP/MAP's reply texts (`core/data/command/messages/fap_map.json`).
pub(crate) const MESSAGES: &[crate::chat::catalog::Entry] =
    include!(concat!(env!("OUT_DIR"), "/messages/fap_map.rs"));

/// The help of `command.help`: (syntax, catalog key of the summary, examples).
pub(crate) const HELP: &[crate::chat::help::Entry] =
    &[("EVn>t", "help_fm_ev", &["EV5>9"]), ("JEd(F|O|Sk)", "help_fm_je", &["JE20F", "JE20O", "JE20S2"])];
