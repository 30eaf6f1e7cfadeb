//! TMD's chat commands (`system: tmd`):
//! * `TI[±b]` — initiative 1d10 + base initiative b (TMD-INI-1), by
//!   [`crate::tmd::initiative`]. One d10.
//! * `TAPn` — conversion limits with n AP (TMD-AP-7/8), by
//!   [`crate::tmd::economy::conversion_limits`]. No dice.

use crate::chat::catalog::fmt;
use crate::chat::lex::{hard, Cur, PResult};
use crate::chat::outcome::{signed, Outcome};
use crate::chat::types::{CmdKind, CmdLang};
use crate::dice::Dice;
use crate::tmd::economy::{conversion_limits, TmdConversionLimitsArgs};
use crate::tmd::initiative::{check_combatants, roll_order, TmdCombatant, MAX_COMBATANTS};

/// Try a TMD command.
pub(crate) fn try_tmd(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    let mut cur = Cur::new(c);
    if cur.eat_str("TAP") {
        if cur.letter_next() || cur.at_end() {
            return Ok(None);
        }
        let ap = cur.need_number()?;
        cur.end()?;
        let r = conversion_limits(&TmdConversionLimitsArgs { ap: u32::try_from(ap).unwrap_or(u32::MAX) })
            .map_err(hard)?;
        let l = &r.limits;
        let text = format!(
            "(TAP{ap}) ＞ {}",
            fmt(
                lang,
                "tmd_limits",
                &[
                    ("standard", l.standard.to_string()),
                    ("move", l.move_.to_string()),
                    ("swift", l.swift.to_string()),
                    ("trick", l.trick.to_string()),
                    ("acrobatic", l.acrobatic.to_string()),
                ]
            )?
        );
        return Ok(Some(Outcome::new(CmdKind::TmdConversionLimits, text).result(&r)));
    }
    if !cur.eat_str("TI") {
        return Ok(None);
    }
    if cur.letter_next() {
        return Ok(None);
    }
    let base = cur.signed()?.unwrap_or(0);
    cur.end()?;
    let one = [TmdCombatant {
        id: "1".into(),
        side: "1".into(),
        base_initiative: i32::try_from(base).unwrap_or(i32::MAX),
    }];
    check_combatants("combatant", &one, MAX_COMBATANTS).map_err(hard)?;
    let order = roll_order(&one, dice)?;
    let Some(e) = order.first() else {
        return Err(hard(crate::error::Error::new(
            crate::error::ErrorCode::Internal,
            "no initiative rolled",
        )));
    };
    let text = format!(
        "(TI{}) ＞ {}[{}]{} ＞ {}",
        signed(base),
        e.roll,
        e.roll,
        signed(base),
        fmt(lang, "tmd_initiative", &[("value", e.total.to_string())])?
    );
    Ok(Some(Outcome::new(CmdKind::TmdInitiative, text).total(i64::from(e.total)).result(e)))
}

/// TMD's reply texts (`core/data/command/messages/tmd.json`).
pub(crate) const MESSAGES: &[crate::chat::catalog::Entry] =
    include!(concat!(env!("OUT_DIR"), "/messages/tmd.rs"));

/// The help of `command.help`: (syntax, catalog key of the summary, examples).
pub(crate) const HELP: &[crate::chat::help::Entry] =
    &[("TI+b", "help_tmd_init", &["TI+3", "TI"]), ("TAPn", "help_tmd_ap", &["TAP14", "TAP24"])];
