//! Validation of a caller-supplied round state (untrusted JSON → `invalid_data`).

use super::engine::{normalize, reserved_by, resolution_of};
use super::types::*;
use crate::engine::ids::Ids;
use crate::error::quote;
use crate::error::{Error, Result};
use crate::fap_map::catalog::{FmActionPack, FmResolution};
use crate::fap_map::checks;
use crate::fap_map::points::MAX_TENTHS;
use serde_json::Value;

// ---------------------------------------------------------------- validation

pub(crate) fn bad(field: String, e: Error) -> Error {
    Error::invalid_data(field, e.0.message)
}

/// Parse and validate a caller-supplied state (untrusted JSON → `invalid_data`).
pub fn parse_state(value: &Value, pack: &FmActionPack) -> Result<FmRoundState> {
    let s: FmRoundState = crate::ops::parse_data("state", value.clone())?;
    if s.pack_id != pack.meta.id {
        return Err(Error::invalid_data(
            "state.pack_id",
            format_args!(
                "state was made with pack {}, but pack {:?} was given",
                quote(&s.pack_id),
                pack.meta.id
            ),
        ));
    }
    if s.round == 0 || s.round > MAX_ROUND {
        return Err(Error::invalid_data("state.round", format_args!("must be 1..={MAX_ROUND}")));
    }
    if s.combatants.is_empty() || s.combatants.len() > MAX_COMBATANTS {
        return Err(Error::invalid_data(
            "state.combatants",
            format_args!("needs 1..={MAX_COMBATANTS} combatants"),
        ));
    }
    let ids = Ids::DATA;
    for (i, c) in s.combatants.iter().enumerate() {
        ids.name(&format!("state.combatants[{i}].id"), &c.id)?;
    }
    ids.unique(s.combatants.iter().map(|c| c.id.as_str()), |i| format!("state.combatants[{i}].id"))?;
    let names = || s.combatants.iter().map(|c| c.id.as_str());
    for (i, c) in s.combatants.iter().enumerate() {
        let f = format!("state.combatants[{i}]");
        for (v, n) in [(c.reaction, "reaction"), (c.magic, "magic"), (c.agility, "agility")] {
            checks::stat(n, v).map_err(|e| bad(format!("{f}.{n}"), e))?;
        }
        for (v, max, n) in [
            (c.fap_max_tenths, MAX_TENTHS, "fap_max_tenths"),
            (c.map_max_tenths, MAX_TENTHS, "map_max_tenths"),
            (c.fap_tenths, c.fap_max_tenths, "fap_tenths"),
            (c.map_tenths, c.map_max_tenths, "map_tenths"),
        ] {
            if !(0..=max).contains(&v) {
                return Err(Error::invalid_data(format!("{f}.{n}"), format_args!("must be 0..={max}")));
            }
        }
        // FM-AP-1 / FM-AP-2: unless special traits set them, FAP = Reaction and MAP = Magic power.
        if !c.pools_from_traits {
            for (v, stat, n) in [
                (c.fap_max_tenths, c.reaction, "fap_max_tenths"),
                (c.map_max_tenths, c.magic, "map_max_tenths"),
            ] {
                if v != stat * 10 {
                    return Err(Error::invariant(
                        format!("{f}.{n}"),
                        "FM-AP-2",
                        format_args!(
                            "must be {} (the stat × 10) unless special traits set the pools (pools_from_traits), not {v}",
                            stat * 10
                        ),
                    ));
                }
            }
        }
        if c.hp.is_some_and(|h| !(-MAX_HP..=MAX_HP).contains(&h)) {
            return Err(Error::invalid_data(format!("{f}.hp"), format_args!("must be -{MAX_HP}..={MAX_HP}")));
        }
        if !(-checks::MAX_STAT..=checks::MAX_STAT).contains(&c.evasion) {
            return Err(Error::invalid_data(
                format!("{f}.evasion"),
                format_args!("must be -{0}..={0}", checks::MAX_STAT),
            ));
        }
        if let Some(side) = &c.side {
            ids.name(&format!("{f}.side"), side)?;
        }
        // FM-ACT-18: a sustained action is carried from an earlier round, so never into round 1.
        if s.round == 1 {
            if let Some(j) = c.declared.iter().position(|d| d.carried) {
                return Err(Error::invariant(
                    format!("{f}.declared[{j}].carried"),
                    "FM-ACT-18",
                    "nothing is carried into round 1: a sustained action carries from an earlier round",
                ));
            }
        }
        if c.move_cap_used > MOVE_CAP {
            return Err(Error::invalid_data(
                format!("{f}.move_cap_used"),
                format_args!("must be 0..={MOVE_CAP}"),
            ));
        }
        if c.declared.len() > MAX_DECLARED {
            return Err(Error::invalid_data(format!("{f}.declared"), format_args!("at most {MAX_DECLARED}")));
        }
        // FM-LIM-1: the counter covers at least this round's counted declarations.
        let counts = |id: &str| u32::from(pack.get(id).is_some_and(|a| a.counts_toward_move_cap));
        let declared_caps: u32 = c
            .declared
            .iter()
            .filter(|d| !d.carried)
            .map(|d| {
                counts(&d.declaration.action) + d.declaration.paired.as_ref().map_or(0, |p| counts(&p.action))
            })
            .sum();
        if c.move_cap_used < declared_caps {
            return Err(Error::invalid_data(
                format!("{f}.move_cap_used"),
                format_args!(
                    "{declared_caps} declared actions count toward the cap, but move_cap_used is {}",
                    c.move_cap_used
                ),
            ));
        }
        for (j, d) in c.declared.iter().enumerate() {
            let g = format!("{f}.declared[{j}].declaration");
            let (n, _, _) =
                normalize(pack, &d.declaration, "declaration", 0).map_err(|e| bad(g.clone(), e))?;
            if n != d.declaration {
                return Err(Error::invalid_data(g, "costs must be filled in and match the catalogue"));
            }
            if s.phase == FmPhase::Declaration && d.status != FmStatus::Pending {
                return Err(Error::invalid_data(
                    format!("{f}.declared[{j}].status"),
                    "must be pending in the declaration phase",
                ));
            }
            let res = resolution_of(pack, &d.declaration.action);
            if !matches!(res, FmResolution::InOrder | FmResolution::OnTrigger) {
                return Err(Error::invalid_data(g, "this action cannot be declared"));
            }
            if let Some(t) = &d.declaration.follow {
                ids.resolves(&format!("{g}.follow"), t, names())?;
                if t == &c.id {
                    return Err(Error::invalid_data(
                        format!("{g}.follow"),
                        "must name another combatant of this battle",
                    ));
                }
            }
            if d.carried && !pack.get(&d.declaration.action).is_some_and(|a| a.carries_over) {
                return Err(Error::invalid_data(
                    format!("{f}.declared[{j}].carried"),
                    "only a sustained action (FM-ACT-18) is carried into a later round",
                ));
            }
            if d.status == FmStatus::Used && res != FmResolution::OnTrigger {
                return Err(Error::invalid_data(
                    format!("{f}.declared[{j}].status"),
                    "only blocks are `used`",
                ));
            }
        }
        check_declarations(&f, c, s.phase, pack)?;
        if c.last_action.as_ref().is_some_and(|a| pack.get(a).is_none()) {
            return Err(Error::invalid_data(format!("{f}.last_action"), "not an action of the pack"));
        }
        if let Some(r) = &c.readied {
            let g = format!("{f}.readied.paired");
            let (n, _, _) = normalize(pack, &r.paired, "paired", 1).map_err(|e| bad(g.clone(), e))?;
            // RULINGS 2026-12-05: any action but another readied one.
            if n != r.paired || pack.get(&n.action).is_none_or(|a| a.pairs_with_action) {
                return Err(Error::invalid_data(
                    g,
                    "must be a declared action (not a readied one) with its costs filled in",
                ));
            }
            if r.condition.as_ref().is_some_and(|t| t.chars().count() > MAX_LABEL) {
                return Err(Error::invalid_data(format!("{f}.readied.condition"), "too long"));
            }
        }
    }
    if let Some(m) = &s.last_move {
        ids.resolves("state.last_move.actor", &m.actor, names())?;
        let ok = s.phase == FmPhase::Resolution && pack.get(&m.action).is_some_and(|a| a.can_follow);
        if !ok {
            return Err(Error::invalid_data(
                "state.last_move",
                "does not match the combatants, the phase or the pack",
            ));
        }
    }
    if let Some(w) = &s.window {
        ids.resolves("state.window.actor", &w.actor, names())?;
        if w.blockers.len() > MAX_COMBATANTS {
            return Err(Error::invalid_data(
                "state.window.blockers",
                format_args!("at most {MAX_COMBATANTS}"),
            ));
        }
        for (k, b) in w.blockers.iter().enumerate() {
            ids.resolves(&format!("state.window.blockers[{k}]"), b, names())?;
        }
        // FM-ACT-8 / FM-ACT-12: a block once per target action, so each blocker once.
        if pack.get(&w.block_action).is_some_and(|b| b.once_per_target_action) {
            ids.unique(w.blockers.iter().map(String::as_str), |k| format!("state.window.blockers[{k}]"))?;
        }
        let ok = s.phase == FmPhase::Resolution
            && pack.get(&w.action).and_then(|a| a.blockable_by.as_deref()) == Some(w.block_action.as_str());
        if !ok {
            return Err(Error::invalid_data(
                "state.window",
                "does not match the combatants, the phase or the pack",
            ));
        }
    }
    // RULINGS 2026-12-05: grapples are pairs of two different combatants, each pair once.
    if s.grapples.len() > MAX_COMBATANTS * MAX_COMBATANTS {
        return Err(Error::invalid_data("state.grapples", "too many grapples"));
    }
    for (k, g) in s.grapples.iter().enumerate() {
        for (n, id) in g.iter().enumerate() {
            ids.resolves(&format!("state.grapples[{k}][{n}]"), id, names())?;
        }
        let same = |o: &[String; 2]| (o[0] == g[0] && o[1] == g[1]) || (o[0] == g[1] && o[1] == g[0]);
        if g[0] == g[1] || s.grapples[..k].iter().any(same) {
            return Err(Error::invalid_data(
                format!("state.grapples[{k}]"),
                "a grapple is between two different combatants, recorded once",
            ));
        }
    }
    if let Some(a) = &s.attack {
        ids.resolves("state.attack.actor", &a.actor, names())?;
        if a.targets.is_empty() || a.targets.len() > MAX_COMBATANTS {
            return Err(Error::invalid_data(
                "state.attack.targets",
                format_args!("1..={MAX_COMBATANTS} targets"),
            ));
        }
        for (k, t) in a.targets.iter().enumerate() {
            ids.resolves(&format!("state.attack.targets[{k}]"), t, names())?;
        }
        ids.unique(a.targets.iter().map(String::as_str), |k| format!("state.attack.targets[{k}]"))?;
        if a.damage.is_some_and(|d| !(1..=MAX_HP).contains(&d)) {
            return Err(Error::invalid_data("state.attack.damage", format_args!("must be 1..={MAX_HP}")));
        }
        for (k, t) in a.answered.iter().enumerate() {
            if !a.targets.contains(t) || a.answered[..k].contains(t) {
                return Err(Error::invalid_data(
                    format!("state.attack.answered[{k}]"),
                    "each target answers once",
                ));
            }
        }
        if s.phase != FmPhase::Resolution || !pack.get(&a.action).is_some_and(|x| x.attack) {
            return Err(Error::invalid_data(
                "state.attack",
                "does not match the phase or the pack (an attack)",
            ));
        }
    }
    Ok(s)
}

/// Declarations `declare` would never have let stand (a saved state with duplicated
/// declarations is refused, naming the field):
/// * FM-ACT-19: a readied action is declared alone (with its one paired action),
///   so it is the only declaration of its round, and only one is armed;
/// * FM-AP-4 (RULINGS): in the declaration phase the pending declarations (and
///   an armed readied action's paired action) fit the pools together; nothing
///   but `use` spends before the resolution, so they fit the full pools.
fn check_declarations(f: &str, c: &FmCombatant, phase: FmPhase, pack: &FmActionPack) -> Result<()> {
    let readies = |d: &FmDeclared| pack.get(&d.declaration.action).is_some_and(|a| a.pairs_with_action);
    let this_round: Vec<(usize, &FmDeclared)> =
        c.declared.iter().enumerate().filter(|(_, d)| !d.carried).collect();
    if let Some(&(j, _)) = this_round.iter().find(|(_, d)| readies(d)) {
        if this_round.len() > 1 {
            let k = this_round.iter().map(|(k, _)| *k).find(|k| *k != j).unwrap_or(j);
            return Err(Error::invalid_data(
                format!("{f}.declared[{k}]"),
                "a readied action is declared alone, with its one paired action (FM-ACT-19)",
            ));
        }
        if c.readied.is_some() && c.declared.get(j).is_some_and(|d| d.status == FmStatus::Pending) {
            return Err(Error::invalid_data(
                format!("{f}.declared[{j}]"),
                "a second readied action while one is armed (FM-ACT-19)",
            ));
        }
    }
    if phase == FmPhase::Declaration {
        let (pf, pm) = reserved_by(c);
        if pf > c.fap_max_tenths || pm > c.map_max_tenths {
            return Err(Error::invalid_data(
                format!("{f}.declared"),
                "the declarations reserve more FAP or MAP than the pools hold (FM-AP-4)",
            ));
        }
    }
    Ok(())
}
