//! CoC 7th-edition rulebook tables as BCDice's `Cthulhu7th` rolls them: which die,
//! the entry it picks and the duration it rolls. The entries' texts are rulebook
//! content and are not in the code: the reply takes them from `command.run`'s
//! `table_pack` (the illustrative `core/data/command/coc7_tables.json`, or a group's
//! own), and without one names the entry by its number. The result carries the
//! table, the die, the entry's number and the duration roll, so a host can show
//! the rulebook's text itself.
//!
//! | command | also | table | dice |
//! |---|---|---|---|
//! | `BMR` | `CCRT`, `.ti` | bouts of madness, real time | 1D10 entry, 1D10 rounds |
//! | `BMS` | `CCSU`, `.li` | bouts of madness, summary | 1D10 entry, 1D10 hours |
//! | `PH` | `CCPH` | sample phobias | 1D100 |
//! | `MA` | `CCMA` | sample manias | 1D100 |
//! | `FCL` | `CCCL` | failed pushed casting roll, a lesser spell | 1D8 |
//! | `FCM` | `CCPC` | failed pushed casting roll, a more powerful spell | 1D8 |
//!
//! (`CCRT`, `CCSU`, `CCPH`, `CCMA`, `CCCL`, `CCPC` are the names of BCDice's
//! Traditional Chinese `Cthulhu7th`; both sets are read in every language.)

use crate::chat::catalog::{fmt, msg};
use crate::chat::lex::PResult;
use crate::chat::outcome::{Outcome, ENTRY_MARK};
use crate::chat::types::{CmdKind, CmdLang};
use crate::dice::Dice;

/// One table: its id (the `table_pack` key and the result's `table`), the die of
/// its entry and the duration's unit (`rounds`, `hours`) when it rolls one (1D10).
struct Table {
    id: &'static str,
    die: u32,
    unit: Option<&'static str>,
}

const TABLES: &[(&str, &str, Table)] = &[
    ("BMR", "CCRT", Table { id: "bouts_realtime", die: 10, unit: Some("rounds") }),
    ("BMS", "CCSU", Table { id: "bouts_summary", die: 10, unit: Some("hours") }),
    ("PH", "CCPH", Table { id: "phobias", die: 100, unit: None }),
    ("MA", "CCMA", Table { id: "manias", die: 100, unit: None }),
    ("FCL", "CCCL", Table { id: "casting_minor", die: 8, unit: None }),
    ("FCM", "CCPC", Table { id: "casting_major", die: 8, unit: None }),
];

/// The table ids a `table_pack` may hold, with each one's entry count.
pub(crate) fn ids() -> impl Iterator<Item = (&'static str, u32)> {
    TABLES.iter().map(|(_, _, t)| (t.id, t.die))
}

/// The structured result of a table roll.
#[derive(Debug, Clone, crate::json::ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
struct TableResult {
    /// The table's id.
    table: &'static str,
    /// The die of the entry (10, 100 or 8).
    die: u32,
    /// The entry rolled, 1-based.
    index: u32,
    /// The duration rolled (1D10), for the bouts of madness.
    duration: Option<u32>,
    /// `rounds` or `hours`.
    unit: Option<&'static str>,
}

/// A table command (the whole head, as BCDice reads it), or `Ok(None)`.
pub(crate) fn try_table(c: &[char], lang: CmdLang, dice: &mut Dice) -> PResult<Option<Outcome>> {
    let Some((_, _, t)) =
        TABLES.iter().find(|(a, b, _)| c.iter().copied().eq(a.chars()) || c.iter().copied().eq(b.chars()))
    else {
        return Ok(None);
    };
    let index = dice.roll(t.die)?;
    let title = msg(lang, &format!("table_{}", t.id))?;
    let mut text = format!("{title}({index}) ＞ {ENTRY_MARK}");
    let duration = match t.unit {
        Some(unit) => {
            let d = dice.roll(10)?;
            text.push_str(&fmt(lang, &format!("table_duration_{unit}"), &[("n", d.to_string())])?);
            Some(d)
        }
        None => None,
    };
    let res = TableResult { table: t.id, die: t.die, index, duration, unit: t.unit };
    let mut o = Outcome::new(CmdKind::Coc7Table, text).total(i64::from(index)).result(&res);
    o.entry = Some((t.id, index));
    Ok(Some(o))
}
