//! `tmd.initiative` — TMD-INI-1 (d10 + base initiative, highest first) and
//! TMD-INI-2 (same-side ties in the given order; cross-side ties re-rolled).

use crate::dice::{Dice, Roll};
use crate::engine::ids::Ids;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Most combatants in one call (and in one encounter).
pub const MAX_COMBATANTS: usize = 100;
/// Most tie-break re-roll rounds in one call (cross-side ties that keep tying).
pub const MAX_TIE_REROLL_ROUNDS: u32 = 100;
/// Largest |base initiative|.
pub const MAX_BASE_INITIATIVE: i32 = 1000;
/// Longest id or side name, in characters.
pub const MAX_NAME_CHARS: usize = crate::engine::ids::MAX_ID_LEN;

/// One combatant to order.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdCombatant {
    /// Unique id (1..=64 characters).
    pub id: String,
    /// Side (team) name; ties between different sides are re-rolled.
    pub side: String,
    /// 基础先攻值, −1000..=1000.
    #[schemars(range(min = -1000, max = 1000))]
    pub base_initiative: i32,
}

/// One combatant's place in the order.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdInitiativeEntry {
    /// Combatant id.
    pub id: String,
    /// Side.
    pub side: String,
    /// 基础先攻值.
    pub base_initiative: i32,
    /// The initiative d10 (1..=10).
    #[schemars(range(min = 1, max = 10))]
    pub roll: u32,
    /// roll + base_initiative.
    pub total: i32,
    /// Cross-side tie-break d10s, in the order rolled (empty if never tied across sides).
    pub tiebreaks: Vec<u32>,
}

/// Arguments of `tmd.initiative`.
///
/// `rolls`: Scripted d10s: one per combatant in the given order, then the tie-break re-rolls.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdInitiativeArgs {
    /// The combatants (1..=100); same-side ties keep this order.
    pub combatants: Vec<TmdCombatant>,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `tmd.initiative`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdInitiativeResult {
    /// Highest first.
    pub order: Vec<TmdInitiativeEntry>,
    /// Every d10 rolled, in consumption order.
    pub rolls: Vec<Roll>,
}

pub(crate) fn check_combatants(field: &str, cs: &[TmdCombatant], max: usize) -> Result<()> {
    if cs.is_empty() {
        return Err(Error::invalid(field, "needs at least one combatant"));
    }
    if cs.len() > max {
        return Err(Error::limit(field, format_args!("at most {max} combatants")));
    }
    for (i, c) in cs.iter().enumerate() {
        Ids::ARG.name(&format!("{field}[{i}].id"), &c.id)?;
        Ids::ARG.name(&format!("{field}[{i}].side"), &c.side)?;
        if c.base_initiative.unsigned_abs() > MAX_BASE_INITIATIVE.unsigned_abs() {
            return Err(Error::out_of_range(
                format!("{field}[{i}].base_initiative"),
                format_args!("must be within ±{MAX_BASE_INITIATIVE}"),
            ));
        }
    }
    Ids::ARG.unique(cs.iter().map(|c| c.id.as_str()), |i| format!("{field}[{i}].id"))
}

impl TmdInitiativeEntry {
    /// TMD-INI-1: `id`'s initiative of `roll` on the d10 over its base (TMD-INI-3: the
    /// total is always the current base plus the roll), before any tie-break.
    pub(crate) fn of(id: &str, side: &str, base_initiative: i32, roll: u32) -> Self {
        TmdInitiativeEntry {
            id: id.to_string(),
            side: side.to_string(),
            base_initiative,
            roll,
            total: base_initiative.saturating_add(roll as i32),
            tiebreaks: Vec::new(),
        }
    }

    /// TMD-INI-1: roll `id`'s d10 and add its base.
    pub(crate) fn roll(id: &str, side: &str, base_initiative: i32, dice: &mut Dice) -> Result<Self> {
        Ok(Self::of(id, side, base_initiative, dice.roll(10)?))
    }
}

/// TMD-INI-1: roll d10 + base for each combatant (in the given order), then sort.
pub(crate) fn roll_order(cs: &[TmdCombatant], dice: &mut Dice) -> Result<Vec<TmdInitiativeEntry>> {
    let mut entries = Vec::with_capacity(cs.len());
    for c in cs {
        entries.push(TmdInitiativeEntry::roll(&c.id, &c.side, c.base_initiative, dice)?);
    }
    sort_entries(entries, dice)
}

/// TMD-INI-2: sort by total, highest first. Ties among one side keep the given
/// order; a tie group spanning several sides re-rolls d10 (every member, in
/// the current order) until the rolls separate the sides. Every cross-side pair
/// goes by its re-rolls, higher first; members of one side that end up next to
/// each other keep the given order (RULINGS: "ties on the same side: the side's
/// chosen order"). So `a`, `c` (one side) and `b` tied, re-rolling 3, 6, 1, go
/// `a, c, b`; but `a`, `b` (pcs) and `c` (npc) re-rolling 1, 3, 2 go `b, c, a`
/// (c beat a, b beat c). Bounded by [`MAX_TIE_REROLL_ROUNDS`].
pub(crate) fn sort_entries(
    entries: Vec<TmdInitiativeEntry>,
    dice: &mut Dice,
) -> Result<Vec<TmdInitiativeEntry>> {
    sort_entries_keeping(entries, dice, |_| false)
}

/// [`sort_entries`], except that a tie group for which `settled` is true keeps
/// its given order and tie-breaks without re-rolling (a re-sort during combat:
/// ties already broken by TMD-INI-2 and unchanged since stay broken).
pub(crate) fn sort_entries_keeping(
    mut entries: Vec<TmdInitiativeEntry>,
    dice: &mut Dice,
    settled: impl Fn(&[TmdInitiativeEntry]) -> bool,
) -> Result<Vec<TmdInitiativeEntry>> {
    crate::small_sort::sort_by(&mut entries, &|a, b| b.total.cmp(&a.total));
    let mut budget = MAX_TIE_REROLL_ROUNDS;
    let mut out = Vec::with_capacity(entries.len());
    let mut i = 0;
    while i < entries.len() {
        let total = entries[i].total;
        let mut j = i;
        while j < entries.len() && entries[j].total == total {
            j += 1;
        }
        let mut group: Vec<TmdInitiativeEntry> = entries[i..j].to_vec();
        if group.len() > 1 && settled(&group) {
            out.extend(group);
        } else {
            for e in group.iter_mut() {
                e.tiebreaks.clear();
            }
            let broken = break_ties(group.clone(), dice, &mut budget)?;
            out.extend(keep_side_order(&group, broken));
        }
        i = j;
    }
    Ok(out)
}

/// `broken` with each run of consecutive same-side members put back in their
/// `given` order. Every pair from different sides keeps the order its re-rolls
/// gave (TMD-INI-2: the higher roll goes first); only members of one side that no
/// other side's member separates may be reordered, and the side's chosen order
/// (RULINGS) is the given one.
fn keep_side_order(given: &[TmdInitiativeEntry], broken: Vec<TmdInitiativeEntry>) -> Vec<TmdInitiativeEntry> {
    let pos = |id: &str| given.iter().position(|g| g.id == id).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(broken.len());
    let mut run: Vec<TmdInitiativeEntry> = Vec::new();
    for e in broken {
        if run.last().is_some_and(|l| l.side != e.side) {
            crate::small_sort::sort_by(&mut run, &|a, b| pos(&a.id).cmp(&pos(&b.id)));
            out.append(&mut run);
        }
        run.push(e);
    }
    crate::small_sort::sort_by(&mut run, &|a, b| pos(&a.id).cmp(&pos(&b.id)));
    out.append(&mut run);
    out
}

fn mixed_sides(g: &[TmdInitiativeEntry]) -> bool {
    g.first().is_some_and(|f| g.iter().any(|e| e.side != f.side))
}

fn break_ties(
    mut group: Vec<TmdInitiativeEntry>,
    dice: &mut Dice,
    budget: &mut u32,
) -> Result<Vec<TmdInitiativeEntry>> {
    if !mixed_sides(&group) {
        return Ok(group);
    }
    if *budget == 0 {
        return Err(Error::limit(
            "rolls",
            format_args!("cross-side initiative ties re-rolled more than {MAX_TIE_REROLL_ROUNDS} times"),
        ));
    }
    *budget -= 1;
    let mut rolled = Vec::with_capacity(group.len());
    for e in group.iter_mut() {
        let r = dice.roll(10)?;
        e.tiebreaks.push(r);
        rolled.push(r);
    }
    let idx = crate::small_sort::sorted_indices(group.len(), &|a, b| rolled.get(b).cmp(&rolled.get(a)));
    let sorted: Vec<(u32, TmdInitiativeEntry)> =
        idx.iter().map(|k| (rolled[*k], group[*k].clone())).collect();
    let mut out = Vec::with_capacity(sorted.len());
    let mut i = 0;
    while i < sorted.len() {
        let r = sorted[i].0;
        let mut j = i;
        while j < sorted.len() && sorted[j].0 == r {
            j += 1;
        }
        let sub: Vec<TmdInitiativeEntry> = sorted[i..j].iter().map(|p| p.1.clone()).collect();
        out.extend(break_ties(sub, dice, budget)?);
        i = j;
    }
    Ok(out)
}

/// `tmd.initiative` — TMD-INI-1/TMD-INI-2. Scripted dice: one d10 per
/// combatant in the given order; then, for each cross-side tie group from the
/// highest total down, one d10 per group member (in the group's current
/// order) per re-roll round, sub-ties depth first.
pub fn initiative(args: &TmdInitiativeArgs) -> Result<TmdInitiativeResult> {
    check_combatants("combatants", &args.combatants, MAX_COMBATANTS)?;
    let mut dice = args.source.dice()?;
    let order = roll_order(&args.combatants, &mut dice)?;
    Ok(TmdInitiativeResult { order, rolls: dice.take_rolls() })
}
