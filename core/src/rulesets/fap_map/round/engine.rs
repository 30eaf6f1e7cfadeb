//! Applying one action to the round state: declarations, order, resolution,
//! reactions, blocks, triggers and the end of the round.

use super::sentences;
use super::types::*;
use crate::dice::Dice;
use crate::engine::ids::Ids;
use crate::error::quote;
use crate::error::{Error, ErrorCode, Result};
use crate::fap_map::catalog::{FmActionDef, FmActionPack, FmCategory, FmOrderEffect, FmResolution};
use crate::fap_map::checks::{self, block_outcome, FmJumpEvasionArgs};
use crate::fap_map::points::{self, MAX_TENTHS};
use crate::kernel::label::Logged;

// ---------------------------------------------------------------- helpers

pub(crate) fn def<'a>(pack: &'a FmActionPack, field: &str, id: &str) -> Result<&'a FmActionDef> {
    pack.get(id).ok_or_else(|| Error::invalid(field, format_args!("no action {} in the pack", quote(id))))
}

/// Fill in and check a declaration's costs; returns it with `fap_tenths`/`map_tenths`
/// set (paired too) and the total reserved (own + paired).
pub(crate) fn normalize(
    pack: &FmActionPack,
    d: &FmDeclaration,
    field: &str,
    depth: u8,
) -> Result<(FmDeclaration, i64, i64)> {
    let a = def(pack, &format!("{field}.action"), &d.action)?;
    let (mut fap_in, mut map_in) = (d.fap_tenths, d.map_tenths);
    if let Some(ex) = &d.example {
        let e = a.examples.iter().find(|e| &e.id == ex).ok_or_else(|| {
            Error::invalid(
                format!("{field}.example"),
                format_args!("{:?} has no example {}", a.id, quote(ex)),
            )
        })?;
        for (given, want, f) in [(fap_in, e.fap_tenths, "fap_tenths"), (map_in, e.map_tenths, "map_tenths")] {
            if given.is_some_and(|g| g != want) {
                return Err(Error::invalid(
                    format!("{field}.{f}"),
                    format_args!("the example {} costs {want} tenths", quote(ex)),
                ));
            }
        }
        fap_in = Some(e.fap_tenths);
        map_in = Some(e.map_tenths);
    }
    let fap = a.fap.resolve(&format!("{field}.fap_tenths"), fap_in)?;
    let map = a.map.resolve(&format!("{field}.map_tenths"), map_in)?;
    if let Some(c) = &d.condition {
        if !a.pairs_with_action {
            return Err(Error::invalid(
                format!("{field}.condition"),
                "only a readied action has a condition",
            ));
        }
        if c.chars().count() > MAX_LABEL {
            return Err(Error::invalid(
                format!("{field}.condition"),
                format_args!("at most {MAX_LABEL} characters"),
            ));
        }
    }
    if let Some(t) = &d.follow {
        if !a.can_follow || depth > 0 {
            return Err(Error::invalid(
                format!("{field}.follow"),
                format_args!("{:?} cannot follow another combatant (only a declared Move, FM-ACT-7)", a.id),
            ));
        }
        Ids::ARG.name(&format!("{field}.follow"), t)?;
    }
    let mut targets = d.targets.clone();
    if let Some(t) = &d.target {
        if !d.targets.is_empty() {
            return Err(Error::invalid(
                format!("{field}.target"),
                "give `target` (one) or `targets` (several), not both",
            ));
        }
        targets.push(t.clone());
    }
    if let Some(dmg) = d.damage {
        if !a.attack {
            return Err(Error::invalid(
                format!("{field}.damage"),
                format_args!("{:?} is not an attack: only attacks deal damage", a.id),
            ));
        }
        if targets.is_empty() {
            return Err(Error::invalid(
                format!("{field}.damage"),
                "an attack with damage names its `target`",
            ));
        }
        if !(1..=MAX_HP).contains(&dmg) {
            return Err(Error::out_of_range(format!("{field}.damage"), format_args!("must be 1..={MAX_HP}")));
        }
    }
    if !targets.is_empty() {
        let field_t = if d.target.is_some() { format!("{field}.target") } else { format!("{field}.targets") };
        if !a.attack {
            return Err(Error::invalid(
                field_t,
                format_args!("{:?} is not an attack: only attacks name targets", a.id),
            ));
        }
        if targets.len() > super::MAX_COMBATANTS {
            return Err(Error::limit(
                format!("{field}.targets"),
                format_args!("at most {} targets", super::MAX_COMBATANTS),
            ));
        }
        if d.target.is_some() {
            Ids::ARG.name(&field_t, &targets[0])?;
        }
        for (i, t) in d.targets.iter().enumerate() {
            Ids::ARG.name(&format!("{field}.targets[{i}]"), t)?;
        }
        Ids::ARG.unique(d.targets.iter().map(String::as_str), |i| format!("{field}.targets[{i}]"))?;
    }
    let mut out = FmDeclaration {
        action: d.action.clone(),
        example: d.example.clone(),
        fap_tenths: Some(fap),
        map_tenths: Some(map),
        paired: None,
        condition: d.condition.clone(),
        follow: d.follow.clone(),
        targets,
        target: None,
        damage: d.damage,
    };
    let (mut tf, mut tm) = (fap, map);
    match (&d.paired, a.pairs_with_action) {
        (Some(p), true) if depth == 0 => {
            let pf = format!("{field}.paired");
            let pd = def(pack, &format!("{pf}.action"), &p.action)?;
            // RULINGS 2026-12-05: a readied action pairs with any action (「任意の行動」),
            // blocks included; only another readied action is refused.
            if pd.pairs_with_action {
                return Err(Error::invalid(
                    format!("{pf}.action"),
                    format_args!("{:?} cannot be paired with a readied action (FM-ACT-19)", pd.id),
                ));
            }
            let (np, pf_t, pm_t) = normalize(pack, p, &pf, 1)?;
            tf += pf_t;
            tm += pm_t;
            out.paired = Some(Box::new(np));
        }
        (None, true) => {
            return Err(Error::invalid(
                format!("{field}.paired"),
                "a readied action needs one paired action (FM-ACT-19)",
            ))
        }
        (Some(_), _) => {
            return Err(Error::invalid(
                format!("{field}.paired"),
                "only a readied action has a paired action",
            ))
        }
        (None, false) => {}
    }
    Ok((out, tf, tm))
}

pub(crate) fn find(state: &FmRoundState, id: &str) -> Result<usize> {
    state
        .combatants
        .iter()
        .position(|c| c.id == id)
        .ok_or_else(|| Error::invalid("action.actor", format_args!("no combatant {}", quote(id))))
}

pub(crate) fn own_cost(d: &FmDeclaration) -> (i64, i64) {
    (d.fap_tenths.unwrap_or(0), d.map_tenths.unwrap_or(0))
}

/// Total reserved by a declaration (paired included).
pub(crate) fn reserved(d: &FmDeclaration) -> (i64, i64) {
    let (f, m) = own_cost(d);
    let (pf, pm) = d.paired.as_ref().map(|p| own_cost(p)).unwrap_or((0, 0));
    (f.saturating_add(pf), m.saturating_add(pm))
}

/// What a combatant's pending declarations hold reserved (FAP, MAP tenths), paired
/// actions included; FM-ACT-19: an armed readied action carried over keeps its paired
/// cost reserved.
pub(crate) fn reserved_by(c: &FmCombatant) -> (i64, i64) {
    c.declared
        .iter()
        .filter(|d| d.status == FmStatus::Pending)
        .map(|d| reserved(&d.declaration))
        .chain(c.readied.as_ref().map(|r| own_cost(&r.paired)))
        .fold((0i64, 0i64), |(x, y), (f, m)| (x.saturating_add(f), y.saturating_add(m)))
}

pub(crate) fn resolution_of(pack: &FmActionPack, id: &str) -> FmResolution {
    pack.get(id).map(|a| a.resolution).unwrap_or(FmResolution::InOrder)
}

pub(crate) fn next_pending(pack: &FmActionPack, c: &FmCombatant) -> Option<usize> {
    c.declared.iter().position(|d| {
        d.status == FmStatus::Pending && resolution_of(pack, &d.declaration.action) == FmResolution::InOrder
    })
}

/// FM-ACT-7: the combatant's next action is a following move whose target still has
/// a move of that kind to make this round, so it waits for it (out of the order).
pub(crate) fn waiting(state: &FmRoundState, pack: &FmActionPack, c: &FmCombatant) -> bool {
    let Some(d) = next_pending(pack, c).and_then(|j| c.declared.get(j)) else { return false };
    let Some(t) = &d.declaration.follow else { return false };
    state.combatants.iter().any(|o| {
        &o.id == t
            && o.id != c.id
            && o.declared
                .iter()
                .any(|x| x.status == FmStatus::Pending && x.declaration.action == d.declaration.action)
    })
}

/// The consecutive flag of FM-ACT-9 for `a` resolved by `c` (before `last_action` is updated).
/// Every action the character takes (resolved, followed, triggered, used or a block)
/// updates `last_action`, so only a jump directly after a jump chains (RULINGS 2026-12-05).
pub(crate) fn consecutive(c: &FmCombatant, a: &FmActionDef) -> Option<bool> {
    a.consecutive_no_agility_penalty.then(|| c.last_action.as_deref() == Some(a.id.as_str()))
}

/// FM-DEF-3 / RULINGS order: carried sustained first (FM-ACT-18), then
/// descending Reaction (0 after Full standby, FM-ACT-15; −1 after Speech,
/// FM-ACT-20), then Agility, then the caller's order. Followers waiting for their
/// target's move (FM-ACT-7) are left out, unless everyone left is waiting.
pub fn order(state: &FmRoundState, pack: &FmActionPack) -> Vec<FmOrderEntry> {
    let all_waiting =
        state.combatants.iter().all(|c| next_pending(pack, c).is_none() || waiting(state, pack, c));
    let mut v: Vec<(usize, FmOrderEntry)> = state
        .combatants
        .iter()
        .enumerate()
        .filter(|(_, c)| all_waiting || !waiting(state, pack, c))
        .filter_map(|(i, c)| {
            let next = next_pending(pack, c)?;
            let standby = c.declared.iter().any(|d| {
                pack.get(&d.declaration.action).is_some_and(|a| a.order_effect == FmOrderEffect::ReactionZero)
            });
            let base = if standby { 0 } else { c.reaction };
            let pending = c
                .declared
                .iter()
                .filter(|d| {
                    d.status == FmStatus::Pending
                        && resolution_of(pack, &d.declaration.action) == FmResolution::InOrder
                })
                .count() as u32;
            Some((
                i,
                FmOrderEntry {
                    combatant: c.id.clone(),
                    first: c.declared.get(next).is_some_and(|d| d.carried),
                    order_value: base - i64::from(c.speech_penalty),
                    agility: c.agility,
                    pending,
                },
            ))
        })
        .collect();
    crate::small_sort::sort_by(&mut v, &|(ia, a), (ib, b)| {
        b.first
            .cmp(&a.first)
            .then(b.order_value.cmp(&a.order_value))
            .then(b.agility.cmp(&a.agility))
            .then(ia.cmp(ib))
    });
    v.into_iter().map(|(_, e)| e).collect()
}

/// With HP tracked (some combatant has `hp`): the end of the fight once the combatants of
/// every side but one are down (a combatant without HP is never down). See [`FmOutcome`].
pub fn outcome(s: &FmRoundState) -> Option<FmOutcome> {
    if !s.combatants.iter().any(|c| c.hp.is_some()) {
        return None;
    }
    let mut sides: Vec<&str> = Vec::new();
    for c in &s.combatants {
        if !sides.contains(&c.side()) {
            sides.push(c.side());
        }
    }
    let standing: Vec<&str> = sides
        .iter()
        .copied()
        .filter(|sd| s.combatants.iter().any(|c| c.side() == *sd && !c.down()))
        .collect();
    if sides.len() < 2 || standing.len() > 1 {
        return None;
    }
    let winner = standing.first().map(|w| w.to_string());
    Some(FmOutcome {
        side: winner.clone(),
        winner,
        down: s.combatants.iter().filter(|c| c.down()).map(|c| c.id.clone()).collect(),
        rule: "FM-DEF-1".into(),
        round: s.round,
    })
}

pub(crate) fn current(state: &FmRoundState, pack: &FmActionPack) -> Option<String> {
    if state.phase != FmPhase::Resolution {
        return None;
    }
    order(state, pack).into_iter().next().map(|e| e.combatant)
}

/// `c` after acting with `action` (its id), having spent `spent` (FAP, MAP tenths).
pub(crate) fn acted(c: &FmCombatant, action: Option<&str>, spent: (i64, i64)) -> FmActed {
    FmActed {
        combatant: c.id.clone(),
        action: action.map(str::to_string),
        names: None,
        fap_spent_tenths: spent.0,
        map_spent_tenths: spent.1,
        fap_left_tenths: c.fap_tenths,
        fap_left: points::decimal(c.fap_tenths),
        map_left_tenths: c.map_tenths,
        map_left: points::decimal(c.map_tenths),
        hp: c.hp,
    }
}

pub(crate) fn afford(c: &FmCombatant, fap: i64, map: i64, what: &str) -> Result<()> {
    if c.fap_tenths < fap || c.map_tenths < map {
        return Err(Error::illegal(
            "FM-AP-4",
            format_args!(
                "{} has {} FAP / {} MAP left; {what} needs {} FAP / {} MAP",
                c.id,
                points::text(c.fap_tenths),
                points::text(c.map_tenths),
                points::text(fap),
                points::text(map)
            ),
        ));
    }
    Ok(())
}

/// May `c` take action `a` now at cost (`f`, `m`) tenths: it may be chosen
/// (FM-LIM-4) and paid (FM-AP-4)? What [`pay`] needs checked first.
fn check_pay(c: &FmCombatant, a: &FmActionDef, f: i64, m: i64) -> Result<()> {
    can_choose(c, a)?;
    afford(c, f, m, &a.names.en)
}

/// Take action `a` now at cost (`f`, `m`) tenths ([`check_pay`] passed): pay it, note
/// it as the last action (FM-ACT-9) and spend or set the Speech penalty (FM-ACT-20 /
/// FM-LIM-3: this was the action after a Speech, unless it sets the penalty for the
/// next one). Returns `consecutive`.
fn pay(c: &mut FmCombatant, a: &FmActionDef, f: i64, m: i64) -> Result<Option<bool>> {
    let consec = consecutive(c, a);
    c.last_action = Some(a.id.clone());
    c.fap_tenths -= f;
    c.map_tenths -= m;
    c.speech_penalty = a.order_effect == FmOrderEffect::NextActionMinusOne;
    Ok(consec)
}

/// Resolve `c`'s declared action `j` (`d`, defined by `a`): [`pay`] its own cost
/// and mark it resolved. Returns (FAP, MAP paid, `consecutive`).
fn pay_declared(
    c: &mut FmCombatant,
    a: &FmActionDef,
    d: &FmDeclaration,
    j: usize,
) -> Result<(i64, i64, Option<bool>)> {
    let (f, m) = own_cost(d);
    let consec = pay(c, a, f, m)?;
    if let Some(x) = c.declared.get_mut(j) {
        x.status = FmStatus::Resolved;
    }
    Ok((f, m, consec))
}

/// FM-LIM-4: an action that "cannot be chosen" while FAP or MAP is below its
/// minimum (Evade: FAP < 1; Speech: MAP < 1). Applies however the action is
/// taken: used, resolved in order, triggered or used as a block.
pub(crate) fn can_choose(c: &FmCombatant, a: &FmActionDef) -> Result<()> {
    if c.fap_tenths < a.min_fap_tenths_to_choose || c.map_tenths < a.min_map_tenths_to_choose {
        return Err(Error::illegal(
            "FM-LIM-4",
            format_args!(
                "{} ({}) cannot be chosen with {} FAP / {} MAP left: it needs at least {} FAP / {} MAP",
                a.names.en,
                a.rule,
                points::text(c.fap_tenths),
                points::text(c.map_tenths),
                points::text(a.min_fap_tenths_to_choose),
                points::text(a.min_map_tenths_to_choose)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn open_window(state: &mut FmRoundState, pack: &FmActionPack, actor: &str, action: &str) {
    state.window = pack.get(action).and_then(|a| a.blockable_by.clone()).map(|b| FmWindow {
        actor: actor.to_string(),
        action: action.to_string(),
        block_action: b,
        blockers: Vec::new(),
        blocked: false,
    });
}

pub(crate) fn need_phase(state: &FmRoundState, phase: FmPhase, rule: &str, what: &str) -> Result<()> {
    if state.phase != phase {
        let p = match phase {
            FmPhase::Declaration => "declaration",
            FmPhase::Resolution => "resolution",
        };
        return Err(Error::illegal(rule, format_args!("{what} is only possible in the {p} phase")));
    }
    Ok(())
}

pub(crate) fn need_current(state: &FmRoundState, pack: &FmActionPack, who: &str) -> Result<()> {
    match current(state, pack) {
        Some(c) if c == who => Ok(()),
        Some(c) => {
            let first = order(state, pack).first().is_some_and(|e| e.first);
            let rule = if first { "FM-ACT-18" } else { "FM-DEF-3" };
            Err(Error::illegal(rule, format_args!("it is {c}'s turn in the action order, not {who}'s")))
        }
        None => Err(Error::illegal("FM-DEF-3", "nobody has a declared action left to resolve")),
    }
}

/// Whether `action` may be taken now (pure): the refusal naming its rule, exactly as
/// applying it would refuse it. One check per action.
pub(crate) fn check(state: &FmRoundState, pack: &FmActionPack, action: &FmRoundAction) -> Result<()> {
    // FM-DEF-1: an attack with damage is processed to its end first: each target answers
    // it (Evade, Jump evasion or `take_hit`) before anything else resolves. Blocks against
    // it, Speech and grapple records may come meanwhile.
    if let Some(x) = &state.attack {
        if let Some(t) = x.waiting().next() {
            if matches!(
                action,
                FmRoundAction::Resolve { .. }
                    | FmRoundAction::Skip { .. }
                    | FmRoundAction::Follow { .. }
                    | FmRoundAction::Trigger { .. }
                    | FmRoundAction::EndRound {}
            ) {
                return Err(Error::illegal(
                    "FM-DEF-1",
                    format_args!(
                        "{}'s {} is being resolved: {t} answers it first (evade, jump_evasion or take_hit)",
                        x.actor, x.action
                    ),
                ));
            }
        }
    }
    match action {
        FmRoundAction::Declare { actor: combatant, declaration } => {
            check_declare(state, pack, combatant, declaration).map(|_| ())
        }
        FmRoundAction::Release { actor: combatant } => check_release(state, combatant),
        FmRoundAction::EndDeclarations {} => {
            need_phase(state, FmPhase::Declaration, "FM-DEF-4", "ending the declarations")
        }
        FmRoundAction::Resolve { actor: combatant } => check_resolve_next(state, pack, combatant, true),
        FmRoundAction::Skip { actor: combatant } => check_resolve_next(state, pack, combatant, false),
        FmRoundAction::Follow { actor: combatant } => check_follow(state, pack, combatant),
        FmRoundAction::Use {
            actor: combatant,
            action: id,
            agility_failed,
            target_value,
            left_area,
            degree,
        } => {
            let answer = FmAnswer { target_value: *target_value, left_area: *left_area, degree: *degree };
            check_use(state, pack, combatant, id, *agility_failed, 0)?;
            check_answer(state, pack, combatant, id, &answer)
        }
        FmRoundAction::TakeHit { actor: combatant } => check_take_hit(state, combatant),
        FmRoundAction::SetGrapple { actor: combatant, target, grappling } => {
            check_set_grapple(state, combatant, target, *grappling)
        }
        FmRoundAction::Block { actor: combatant, fap_tenths, target_fap_tenths, relative_t_tenths } => {
            check_block(state, pack, combatant, *fap_tenths, *target_fap_tenths, *relative_t_tenths)
        }
        FmRoundAction::Trigger { actor: combatant } => check_trigger(state, pack, combatant),
        FmRoundAction::EndRound {} => check_end_round(state, pack),
    }
}

/// Apply an action that [`check`] accepted to `state` in place: one function per
/// action. It fails only on an internal error.
pub(crate) fn apply(
    state: &mut FmRoundState,
    pack: &FmActionPack,
    action: &FmRoundAction,
    dice: &mut Dice,
) -> Result<Vec<FmLoggedEvent>> {
    match action {
        FmRoundAction::Declare { actor: combatant, declaration } => {
            declare(state, pack, combatant, declaration)
        }
        FmRoundAction::Release { actor: combatant } => release(state, pack, combatant),
        FmRoundAction::EndDeclarations {} => end_declarations(state),
        FmRoundAction::Resolve { actor: combatant } => resolve_next(state, pack, combatant, true),
        FmRoundAction::Skip { actor: combatant } => resolve_next(state, pack, combatant, false),
        FmRoundAction::Follow { actor: combatant } => follow(state, pack, combatant),
        FmRoundAction::Use {
            actor: combatant,
            action: id,
            agility_failed,
            target_value,
            left_area,
            degree,
        } => {
            let answer = FmAnswer { target_value: *target_value, left_area: *left_area, degree: *degree };
            use_undeclared(state, pack, combatant, id, *agility_failed, &answer, dice)
        }
        FmRoundAction::TakeHit { actor: combatant } => take_hit(state, pack, combatant),
        FmRoundAction::SetGrapple { actor: combatant, target, grappling } => {
            set_grapple(state, combatant, target, *grappling)
        }
        FmRoundAction::Block { actor: combatant, fap_tenths, target_fap_tenths, relative_t_tenths } => {
            block(state, pack, combatant, fap_tenths, target_fap_tenths, relative_t_tenths)
        }
        FmRoundAction::Trigger { actor: combatant } => trigger(state, pack, combatant, dice),
        FmRoundAction::EndRound {} => end_round(state, pack),
    }
}

/// [`resolve_next`], checked: the resolution phase, the combatant first in the order
/// (FM-DEF-3, FM-ACT-18), and a resolved action chosen and paid (FM-LIM-4, FM-AP-4).
fn check_resolve_next(
    state: &FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    resolve: bool,
) -> Result<()> {
    need_phase(state, FmPhase::Resolution, "FM-DEF-3", "resolving")?;
    let i = find(state, combatant)?;
    need_current(state, pack, combatant)?;
    let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let j = next_pending(pack, c)
        .ok_or_else(|| Error::new(ErrorCode::Internal, "current actor without a pending action"))?;
    let d = &c.declared.get(j).ok_or_else(|| Error::new(ErrorCode::Internal, "declared index"))?.declaration;
    let a = def(pack, "state", &d.action)?;
    if resolve {
        let (f, m) = own_cost(d);
        check_pay(c, a, f, m)?;
    }
    Ok(())
}

/// FM-DEF-3 / FM-DEF-1: the combatant first in the action order resolves
/// (`resolve`) or gives up (`skip`) its next declared action; FM-AP-4: a resolved
/// action is paid as it ends; FM-ACT-9: a jump straight after a jump is
/// `consecutive`; FM-ACT-19: a resolved readied action arms its paired action;
/// FM-ACT-8 / FM-ACT-12: a resolved move or attack opens its block window.
fn resolve_next(
    state: &mut FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    resolve: bool,
) -> Result<Vec<FmLoggedEvent>> {
    let i = find(state, combatant)?;
    let c = state.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let j = next_pending(pack, c)
        .ok_or_else(|| Error::new(ErrorCode::Internal, "current actor without a pending action"))?;
    let d = c
        .declared
        .get(j)
        .map(|d| d.declaration.clone())
        .ok_or_else(|| Error::new(ErrorCode::Internal, "declared index"))?;
    let a = def(pack, "state", &d.action)?;
    if !resolve {
        if let Some(x) = c.declared.get_mut(j) {
            x.status = FmStatus::Skipped;
        }
        state.window = None;
        state.last_move = None;
        state.attack = None;
        let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
        let by = acted(c, Some(&a.id), (0, 0));
        return Ok(vec![Logged::new(
            FmEvent::Skipped { by },
            "FM-DEF-3",
            sentences::skipped(combatant, &a.names),
        )]);
    }
    let (f, m, consec) = pay_declared(c, a, &d, j)?;
    if a.pairs_with_action {
        if let Some(p) = &d.paired {
            c.readied = Some(FmReadied { paired: (**p).clone(), condition: d.condition.clone() });
        }
    }
    let text =
        sentences::resolved(&c.id, &a.names, (f, m), (c.fap_tenths, c.map_tenths), &d.targets, d.damage);
    // FM-ACT-10: Regain footing ends a fall (RULINGS 2026-12-05: Jump evasion's failed check).
    if a.id == "regain_footing" {
        c.prone = false;
    }
    let ev = Logged::new(
        FmEvent::Resolved { by: acted(c, Some(&a.id), (f, m)), consecutive: consec },
        &a.rule,
        text,
    );
    open_window(state, pack, combatant, &a.id);
    state.last_move = a.can_follow.then(|| FmLastMove { actor: combatant.to_string(), action: a.id.clone() });
    state.attack = attack_of(a, combatant, &d);
    Ok(vec![ev])
}

/// The attack being resolved after `actor` resolves `d` (RULINGS 2026-12-05): an attack
/// with targets; anything else resolves no attack.
fn attack_of(a: &FmActionDef, actor: &str, d: &FmDeclaration) -> Option<FmAttackResolving> {
    (a.attack && !d.targets.is_empty()).then(|| FmAttackResolving {
        actor: actor.to_string(),
        action: a.id.clone(),
        targets: d.targets.clone(),
        damage: d.damage,
        answered: Vec::new(),
    })
}

/// `set_grapple` (FM-ACT-12, FM-ACT-13; RULINGS 2026-12-05): a grapple between two
/// combatants is recorded or ended.
fn check_set_grapple(state: &FmRoundState, combatant: &str, target: &str, grappling: bool) -> Result<()> {
    find(state, combatant)?;
    find(state, target)
        .map_err(|_| Error::invalid("action.target", format_args!("no combatant {}", quote(target))))?;
    if combatant == target {
        return Err(Error::invalid("action.target", "a grapple is between two combatants"));
    }
    let held = grappled(state, combatant, target);
    if held == grappling {
        return Err(Error::illegal(
            "FM-ACT-12",
            format_args!(
                "{combatant} and {target} are {} grappling",
                if grappling { "already" } else { "not" }
            ),
        ));
    }
    if grappling && state.grapples.len() >= MAX_COMBATANTS * MAX_COMBATANTS {
        return Err(Error::limit("state.grapples", "too many grapples"));
    }
    Ok(())
}

/// `set_grapple`, applied after [`check_set_grapple`].
fn set_grapple(
    state: &mut FmRoundState,
    combatant: &str,
    target: &str,
    grappling: bool,
) -> Result<Vec<FmLoggedEvent>> {
    if grappling {
        state.grapples.push([combatant.to_string(), target.to_string()]);
    } else {
        state.grapples.retain(|g| !(g.contains(&combatant.to_string()) && g.contains(&target.to_string())));
    }
    let c = state
        .combatants
        .iter()
        .find(|c| c.id == combatant)
        .ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let ev = FmEvent::GrappleChanged { by: acted(c, None, (0, 0)), target: target.to_string() };
    let rule = if grappling { "FM-ACT-12" } else { "FM-ACT-13" };
    Ok(vec![Logged::new(ev, rule, sentences::grapple(combatant, target, grappling))])
}

/// The two combatants are grappling (either order).
pub(crate) fn grappled(state: &FmRoundState, a: &str, b: &str) -> bool {
    state.grapples.iter().any(|g| (g[0] == a && g[1] == b) || (g[0] == b && g[1] == a))
}

/// FM-DEF-4 宣言: in the declaration phase a combatant declares one action
/// (FM-LIM-2: not one needing no declaration); FM-ACT-19: a readied action alone
/// with one paired action, and only option commands while one is armed; FM-LIM-1:
/// the cap of three Move / Jump / Regain footing / Jump evasion; FM-AP-4 (RULINGS):
/// the declarations must fit the pools together; FM-ACT-7: `follow` names another combatant.
fn check_declare(
    state: &FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    declaration: &FmDeclaration,
) -> Result<FmDeclarePlan> {
    need_phase(state, FmPhase::Declaration, "FM-DEF-4", "declaring")?;
    let i = find(state, combatant)?;
    let a = def(pack, "action.declaration.action", &declaration.action)?;
    if matches!(a.resolution, FmResolution::Reaction | FmResolution::Immediate) {
        return Err(Error::illegal(
            "FM-LIM-2",
            format_args!("{} needs no declaration: `use` it instead", a.id),
        ));
    }
    let (n, fap, map) = normalize(pack, declaration, "action.declaration", 0)?;
    if let Some(t) = &n.follow {
        if t == combatant || !state.combatants.iter().any(|o| &o.id == t) {
            return Err(Error::invalid(
                "action.declaration.follow",
                format_args!("{} is not another combatant of this battle", quote(t)),
            ));
        }
    }
    let attack_targets = n.paired.as_ref().map(|p| &p.targets).into_iter().chain(std::iter::once(&n.targets));
    for targets in attack_targets {
        if let Some(t) = targets.iter().find(|t| !state.combatants.iter().any(|o| &o.id == *t)) {
            return Err(Error::invalid(
                "action.declaration.targets",
                format_args!("{} is not a combatant of this battle", quote(t)),
            ));
        }
    }
    let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    if c.readied.is_some() && (a.category != FmCategory::Option || a.pairs_with_action) {
        return Err(Error::illegal(
            "FM-ACT-19",
            format_args!(
                "{} keeps a readied action: only option commands may be declared (or `release` it)",
                c.id
            ),
        ));
    }
    let this_round = c.declared.iter().filter(|d| !d.carried).count();
    let has_readied =
        c.declared.iter().any(|d| pack.get(&d.declaration.action).is_some_and(|x| x.pairs_with_action));
    if has_readied || (a.pairs_with_action && this_round > 0) {
        return Err(Error::illegal(
            "FM-ACT-19",
            "a readied action is declared alone, with its one paired action",
        ));
    }
    if c.declared.len() >= MAX_DECLARED {
        return Err(Error::limit(
            "action.declaration",
            format_args!("at most {MAX_DECLARED} declarations a round"),
        ));
    }
    let mut caps = u32::from(a.counts_toward_move_cap);
    if let Some(p) = &n.paired {
        caps += u32::from(pack.get(&p.action).is_some_and(|x| x.counts_toward_move_cap));
    }
    if c.move_cap_used + caps > MOVE_CAP {
        return Err(Error::illegal(
            "FM-LIM-1",
            format_args!(
                "{} has used {} of the 3 Move/Jump/Regain footing/Jump evasion a round",
                c.id, c.move_cap_used
            ),
        ));
    }
    let (pf, pm) = reserved_by(c);
    if pf.saturating_add(fap) > c.fap_tenths || pm.saturating_add(map) > c.map_tenths {
        return Err(Error::illegal(
            "FM-AP-4",
            format_args!(
                "{} has {} FAP / {} MAP; declared actions would need {} FAP / {} MAP",
                c.id,
                points::text(c.fap_tenths),
                points::text(c.map_tenths),
                points::text(pf.saturating_add(fap)),
                points::text(pm.saturating_add(map))
            ),
        ));
    }
    Ok(FmDeclarePlan { i, n, fap, map, caps })
}

/// What [`check_declare`] found: the declarer's index, the declaration with its costs
/// filled in, its total FAP and MAP, and how many move-cap uses it takes (FM-LIM-1).
pub(crate) struct FmDeclarePlan {
    i: usize,
    n: FmDeclaration,
    fap: i64,
    map: i64,
    caps: u32,
}

/// A declaration, applied after [`check_declare`].
fn declare(
    state: &mut FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    declaration: &FmDeclaration,
) -> Result<Vec<FmLoggedEvent>> {
    let FmDeclarePlan { i, n, fap, map, caps } = check_declare(state, pack, combatant, declaration)?;
    let a = def(pack, "action.declaration.action", &declaration.action)?;
    let c = state.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    c.move_cap_used += caps;
    c.declared.push(FmDeclared { declaration: n, status: FmStatus::Pending, carried: false });
    let d = &c.declared.last().ok_or_else(|| Error::new(ErrorCode::Internal, "declared"))?.declaration;
    let text = sentences::declared(&c.id, &a.names, fap, map, &d.targets, d.damage);
    Ok(vec![Logged::new(FmEvent::Declared { by: acted(c, Some(&a.id), (0, 0)) }, &a.rule, text)])
}

/// FM-ACT-19 / FM-ACT-18: drop an armed readied action and carried sustained
/// actions (FM-LIM-1: a dropped readied move no longer counts toward the cap).
fn check_release(state: &FmRoundState, combatant: &str) -> Result<()> {
    need_phase(state, FmPhase::Declaration, "FM-ACT-19", "releasing")?;
    let c = &state.combatants[find(state, combatant)?];
    if c.readied.is_none() && !c.declared.iter().any(|d| d.carried) {
        return Err(Error::illegal(
            "FM-ACT-19",
            format_args!("{} has no readied or sustained action to release", c.id),
        ));
    }
    Ok(())
}

/// `release`, applied after [`check_release`].
fn release(state: &mut FmRoundState, pack: &FmActionPack, combatant: &str) -> Result<Vec<FmLoggedEvent>> {
    let i = find(state, combatant)?;
    let c = state.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let rule = if c.readied.is_some() { "FM-ACT-19" } else { "FM-ACT-18" };
    // FM-LIM-1: a dropped readied move/jump no longer counts toward this round's cap
    // (end_round charged it to the new round).
    let charged = c
        .readied
        .as_ref()
        .is_some_and(|r| pack.get(&r.paired.action).is_some_and(|a| a.counts_toward_move_cap));
    if charged {
        c.move_cap_used = c.move_cap_used.saturating_sub(1);
    }
    c.readied = None;
    c.declared.retain(|d| !d.carried);
    Ok(vec![Logged::new(FmEvent::Released { by: acted(c, None, (0, 0)) }, rule, sentences::released(&c.id))])
}

/// FM-DEF-4 → FM-DEF-3: the declarations end and the resolution in action order begins.
fn end_declarations(state: &mut FmRoundState) -> Result<Vec<FmLoggedEvent>> {
    state.phase = FmPhase::Resolution;
    Ok(vec![Logged::new(FmEvent::DeclarationsEnded, "FM-DEF-3", sentences::declarations_ended())])
}

/// FM-ACT-7: a Move declared with `follow` resolves right after the followed
/// combatant's move, in step, out of the order (FM-AP-4: paid as it resolves).
fn check_follow(state: &FmRoundState, pack: &FmActionPack, combatant: &str) -> Result<()> {
    need_phase(state, FmPhase::Resolution, "FM-ACT-7", "following a move")?;
    let i = find(state, combatant)?;
    let Some(lm) = &state.last_move else {
        return Err(Error::illegal("FM-ACT-7", "no move has just been made to follow"));
    };
    let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let d = followed(pack, c, lm).ok_or_else(|| {
        Error::illegal(
            "FM-ACT-7",
            format_args!("{}'s next declared action is not a {} following {}", c.id, lm.action, lm.actor),
        )
    })?;
    let a = def(pack, "state", &d.1.action)?;
    let (f, m) = own_cost(d.1);
    check_pay(c, a, f, m)
}

/// `c`'s next declared action if it is a move following `lm` (FM-ACT-7): its index and declaration.
fn followed<'a>(
    pack: &FmActionPack,
    c: &'a FmCombatant,
    lm: &FmLastMove,
) -> Option<(usize, &'a FmDeclaration)> {
    let j = next_pending(pack, c)?;
    let d = &c.declared.get(j)?.declaration;
    (d.follow.as_deref() == Some(lm.actor.as_str()) && d.action == lm.action).then_some((j, d))
}

/// `follow`, applied after [`check_follow`].
fn follow(state: &mut FmRoundState, pack: &FmActionPack, combatant: &str) -> Result<Vec<FmLoggedEvent>> {
    let i = find(state, combatant)?;
    let lm = state.last_move.clone().ok_or_else(|| Error::new(ErrorCode::Internal, "no move to follow"))?;
    let c = state.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let (j, d) = followed(pack, c, &lm)
        .map(|(j, d)| (j, d.clone()))
        .ok_or_else(|| Error::new(ErrorCode::Internal, "no following move"))?;
    let a = def(pack, "state", &d.action)?;
    let (f, m, consec) = pay_declared(c, a, &d, j)?;
    let text = sentences::followed(&c.id, &lm.actor, &a.names, (f, m), (c.fap_tenths, c.map_tenths));
    state.attack = None;
    let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let by = acted(c, Some(&a.id), (f, m));
    let ev = Logged::new(
        FmEvent::Followed { by, consecutive: consec, target: lm.actor.clone() },
        "FM-ACT-7",
        text,
    );
    // The follower's own move is now the one open to blocks; `last_move` stays, so
    // other followers of the same target may still follow.
    open_window(state, pack, combatant, &a.id);
    Ok(vec![ev])
}

/// FM-LIM-2: use an action that needs no declaration (Evade FM-ACT-14 and Jump
/// evasion FM-ACT-16 in the resolution phase, Speech FM-ACT-20 at any time);
/// FM-LIM-4: not below its minimum pool; FM-LIM-1: Jump evasion counts toward the
/// cap; FM-AP-4: paid at once; FM-ACT-20: the next action orders at −1.
///
/// `refund`: move-cap uses given back first (a triggered readied action's, counted
/// at its declaration).
fn check_use(
    state: &FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    id: &str,
    agility_failed: bool,
    refund: u32,
) -> Result<()> {
    let i = find(state, combatant)?;
    let a = def(pack, "action.action", id)?;
    match a.resolution {
        FmResolution::Reaction => need_phase(state, FmPhase::Resolution, &a.rule, "a reaction to an attack")?,
        FmResolution::Immediate => {}
        _ => {
            return Err(Error::illegal(
                "FM-DEF-4",
                format_args!("{} must be declared at the start of the round", a.id),
            ))
        }
    }
    let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    can_choose(c, a)?;
    let (f, m) = (a.fap.min(), a.map.min());
    if a.counts_toward_move_cap && c.move_cap_used.saturating_sub(refund) >= MOVE_CAP {
        return Err(Error::illegal(
            "FM-LIM-1",
            format_args!("{} has used all 3 Move/Jump/Regain footing/Jump evasion this round", c.id),
        ));
    }
    afford(c, f, m, &a.names.en)?;
    if agility_failed && a.id != "jump_evasion" {
        return Err(Error::invalid(
            "action.agility_failed",
            "only Jump evasion is followed by an agility check",
        ));
    }
    // RULINGS 2026-12-05: Evade and Jump evasion answer a single-target or area attack
    // against this character that is being resolved.
    if a.resolution == FmResolution::Reaction
        && !state.attack.as_ref().is_some_and(|x| x.targets.iter().any(|t| t == combatant))
    {
        return Err(Error::illegal(
            &a.rule,
            format_args!("{} answers an attack against {combatant} while it is resolved", a.names.en),
        ));
    }
    Ok(())
}

/// How Evade or Jump evasion answers the attack being resolved (the `use` action's
/// `target_value`, `left_area` and `degree`).
#[derive(Default)]
pub(crate) struct FmAnswer {
    pub target_value: Option<i64>,
    pub left_area: bool,
    pub degree: Option<i64>,
}

/// The answer's own arguments (after [`check_use`]): in range, only for the actions
/// they belong to, once per attack, and a target value against an attack with damage.
fn check_answer(
    state: &FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    id: &str,
    x: &FmAnswer,
) -> Result<()> {
    let a = def(pack, "action.action", id)?;
    let reaction = a.resolution == FmResolution::Reaction;
    if let Some(tv) = x.target_value {
        if !reaction {
            return Err(Error::invalid(
                "action.target_value",
                "only Evade and Jump evasion make an evasion check",
            ));
        }
        if !(-1000..=10_000).contains(&tv) {
            return Err(Error::out_of_range("action.target_value", "must be -1000..=10000"));
        }
    }
    let jump = a.id == "jump_evasion";
    if (x.left_area || x.degree.is_some()) && !jump {
        let f = if x.left_area { "action.left_area" } else { "action.degree" };
        return Err(Error::invalid(f, "only Jump evasion leaves an area or reduces damage by its degree"));
    }
    if let Some(d) = x.degree {
        checks::stat("action.degree", d)?;
    }
    if !reaction {
        return Ok(());
    }
    let Some(att) = &state.attack else { return Ok(()) };
    if att.answered.iter().any(|t| t == combatant) {
        return Err(Error::illegal(
            &a.rule,
            format_args!("{combatant} has already answered {}'s {}", att.actor, att.action),
        ));
    }
    if att.damage.is_some() && x.target_value.is_none() {
        return Err(Error::invalid(
            "action.target_value",
            "required against an attack with damage: the evasion check's target value (FM-DEF-2)",
        ));
    }
    Ok(())
}

/// `use`, applied after [`check_use`] and [`check_answer`]. Evade or Jump evasion
/// answering the attack being resolved (RULINGS 2026-12-05): with a target value, the
/// evasion check (FM-DEF-2: Evasion + 2D6 must exceed it); against an attack with
/// damage, the damage taken — Evade: none on a success, all of it on a failure
/// (FM-ACT-14); Jump evasion: `fap_map.jump_evasion`'s reduction (FM-ACT-16) — off the
/// target's HP; a failed agility check after Jump evasion leaves it prone.
fn use_undeclared(
    state: &mut FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    id: &str,
    agility_failed: bool,
    x: &FmAnswer,
    dice: &mut Dice,
) -> Result<Vec<FmLoggedEvent>> {
    let i = find(state, combatant)?;
    let a = def(pack, "action.action", id)?;
    let (f, m) = (a.fap.min(), a.map.min());
    let answering = (a.resolution == FmResolution::Reaction).then(|| state.attack.clone()).flatten();
    let c = state.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    c.fap_tenths -= f;
    c.map_tenths -= m;
    if agility_failed {
        c.prone = true;
    }
    // FM-ACT-9 (RULINGS 2026-12-05): any action in between breaks a jump chain.
    c.last_action = Some(a.id.clone());
    if a.counts_toward_move_cap {
        c.move_cap_used += 1;
    }
    if a.order_effect == FmOrderEffect::NextActionMinusOne {
        c.speech_penalty = true;
    }
    let Some(att) = answering else {
        let text = sentences::used(&c.id, &a.names, f, m);
        let ev = FmEvent::Used { by: acted(c, Some(&a.id), (f, m)), answer: FmAnswered::default() };
        return Ok(vec![Logged::new(ev, &a.rule, text)]);
    };
    let check = match x.target_value {
        Some(tv) => Some(checks::evasion_roll(c.evasion, tv, dice)?),
        None => None,
    };
    let mut jump = None;
    let taken = match (att.damage, &check) {
        (Some(d), Some(k)) if a.id == "jump_evasion" => {
            // FM-ACT-16 by `fap_map.jump_evasion`; the degree of success is the caller's, else
            // the check's margin (RULES.md: 成功度 "presumably the margin of success").
            let degree = k.success.then(|| x.degree.unwrap_or(k.margin).clamp(0, checks::MAX_STAT));
            let r = checks::jump_evasion(&FmJumpEvasionArgs {
                damage: d,
                success: k.success,
                degree,
                left_area: x.left_area,
                strength: None,
            })?;
            let t = r.damage_taken;
            jump = Some(r);
            Some(t)
        }
        // FM-DEF-2 / FM-ACT-14: a success takes no damage, a failure all of it.
        (Some(d), Some(k)) => Some(if k.success { 0 } else { d }),
        _ => None,
    };
    if let (Some(t), Some(hp)) = (taken, c.hp.as_mut()) {
        *hp = (*hp - t).max(-MAX_HP);
    }
    let attack_names = pack.get(&att.action).map(|x| x.names.clone()).unwrap_or_default();
    let text = sentences::answered(&sentences::Answer {
        who: &c.id,
        with: &a.names,
        attacker: &att.actor,
        attack: &attack_names,
        check: check.as_ref(),
        target_value: x.target_value,
        damage_taken: taken,
        hp: c.hp,
        prone: agility_failed,
    });
    let answer = FmAnswered {
        target: Some(att.actor.clone()),
        evasion: check,
        jump_evasion: jump,
        damage: taken.and(att.damage),
        damage_taken: taken,
        prone: (a.id == "jump_evasion").then_some(agility_failed),
    };
    let ev = Logged::new(FmEvent::Used { by: acted(c, Some(&a.id), (f, m)), answer }, &a.rule, text);
    if let Some(s) = state.attack.as_mut() {
        s.answered.push(combatant.to_string());
    }
    Ok(vec![ev])
}

/// `take_hit`: a target of the attack being resolved that has not answered it takes it.
fn check_take_hit(state: &FmRoundState, combatant: &str) -> Result<()> {
    find(state, combatant)?;
    let Some(att) = state.attack.as_ref().filter(|x| x.targets.iter().any(|t| t == combatant)) else {
        return Err(Error::illegal(
            "FM-DEF-1",
            format_args!("no attack against {combatant} is being resolved"),
        ));
    };
    if att.answered.iter().any(|t| t == combatant) {
        return Err(Error::illegal(
            "FM-DEF-1",
            format_args!("{combatant} has already answered {}'s {}", att.actor, att.action),
        ));
    }
    Ok(())
}

/// `take_hit`, applied after [`check_take_hit`]: the attack hits; its damage comes off HP.
/// The event names the attack's own rule (FM-ACT-2…6).
fn take_hit(state: &mut FmRoundState, pack: &FmActionPack, combatant: &str) -> Result<Vec<FmLoggedEvent>> {
    let i = find(state, combatant)?;
    let att = state.attack.clone().ok_or_else(|| Error::new(ErrorCode::Internal, "no attack"))?;
    let (rule, names) = pack.get(&att.action).map(|x| (x.rule.clone(), x.names.clone())).unwrap_or_default();
    let c = state.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    if let (Some(d), Some(hp)) = (att.damage, c.hp.as_mut()) {
        *hp = (*hp - d).max(-MAX_HP);
    }
    let text = sentences::hit(&c.id, &att.actor, &names, att.damage, c.hp);
    let by = acted(c, Some(&att.action), (0, 0));
    let hit = FmEvent::Hit { by, target: att.actor.clone(), damage: att.damage, damage_taken: att.damage };
    let ev = Logged::new(hit, &rule, text);
    if let Some(s) = state.attack.as_mut() {
        s.answered.push(combatant.to_string());
    }
    Ok(vec![ev])
}

/// FM-ACT-8 移動阻止 / FM-ACT-12 攻撃阻止: a declared block against the move or
/// attack just resolved, once per target action; at least 1 FAP (FM-LIM-4); both
/// sides pay their FAP (FM-AP-4) and the block contest decides whether it holds.
fn check_block(
    state: &FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    fap_tenths: i64,
    target_fap_tenths: i64,
    relative_t_tenths: i64,
) -> Result<()> {
    let (fap_tenths, target_fap_tenths, relative_t_tenths) =
        (&fap_tenths, &target_fap_tenths, &relative_t_tenths);
    let i = find(state, combatant)?;
    points::check_amount("action.fap_tenths", *fap_tenths)?;
    points::check_amount("action.target_fap_tenths", *target_fap_tenths)?;
    if !(-MAX_TENTHS..=MAX_TENTHS).contains(relative_t_tenths) {
        return Err(Error::out_of_range(
            "action.relative_t_tenths",
            format_args!("must be -{MAX_TENTHS}..={MAX_TENTHS}"),
        ));
    }
    let Some(w) = &state.window else {
        return Err(Error::illegal("FM-ACT-8", "there is no move or attack being resolved to block"));
    };
    let b = def(pack, "state.window.block_action", &w.block_action)?;
    let rule = b.rule.as_str();
    if w.actor == *combatant {
        return Err(Error::illegal(rule, "a character cannot block its own action"));
    }
    // FM-ACT-12 (RULINGS 2026-12-05): Attack Block needs a grapple between blocker and target.
    if b.requires_grapple && !grappled(state, combatant, &w.actor) {
        return Err(Error::illegal(
            rule,
            format_args!("{} needs {combatant} and {} to be grappling", b.names.en, w.actor),
        ));
    }
    if w.blocked {
        return Err(Error::illegal(
            rule,
            format_args!("{}'s {} has already been stopped", w.actor, w.action),
        ));
    }
    if b.once_per_target_action && w.blockers.iter().any(|b| b == combatant) {
        return Err(Error::illegal(
            rule,
            format_args!("{combatant} already tried to block this {}", w.action),
        ));
    }
    if *fap_tenths < b.fap.min().max(10) {
        return Err(Error::illegal(
            "FM-LIM-4",
            format_args!("{} needs at least 1 FAP spent ({rule})", b.names.en),
        ));
    }
    b.fap.resolve("action.fap_tenths", Some(*fap_tenths))?;
    let t = find(state, &w.actor)?;
    let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let j = c.declared.iter().position(|d| d.status == FmStatus::Pending && d.declaration.action == b.id);
    // RULINGS 2026-12-05: a Readied Action may pair with a block; the armed readied
    // block is used here when what it waits for comes.
    let readied = j.is_none() && c.readied.as_ref().is_some_and(|r| r.paired.action == b.id);
    if j.is_none() && !readied {
        return Err(Error::illegal(
            "FM-DEF-4",
            format_args!("{} has no unused declared (or readied) {}", c.id, b.names.en),
        ));
    }
    can_choose(c, b)?;
    afford(c, *fap_tenths, block_map(c, j), &b.names.en)?;
    let target = state.combatants.get(t).ok_or_else(|| Error::new(ErrorCode::Internal, "target index"))?;
    afford(target, *target_fap_tenths, 0, "resisting the block")
}

/// The block's MAP cost as declared (0 in the rulebook; a pack may set one): of the
/// declared block `j`, else of the armed readied block.
fn block_map(c: &FmCombatant, j: Option<usize>) -> i64 {
    match j {
        Some(j) => c.declared.get(j).map(|d| own_cost(&d.declaration).1).unwrap_or(0),
        None => c.readied.as_ref().map(|r| own_cost(&r.paired).1).unwrap_or(0),
    }
}

/// A block, applied after [`check_block`].
fn block(
    state: &mut FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    fap_tenths: &i64,
    target_fap_tenths: &i64,
    relative_t_tenths: &i64,
) -> Result<Vec<FmLoggedEvent>> {
    let i = find(state, combatant)?;
    let w = state.window.clone().ok_or_else(|| Error::new(ErrorCode::Internal, "no block window"))?;
    let b = def(pack, "state.window.block_action", &w.block_action)?;
    let rule = b.rule.as_str();
    let t = find(state, &w.actor)?;
    let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let j = c.declared.iter().position(|d| d.status == FmStatus::Pending && d.declaration.action == b.id);
    let map = block_map(c, j);
    let outcome = block_outcome(*fap_tenths, *target_fap_tenths, *relative_t_tenths);
    if let Some(tc) = state.combatants.get_mut(t) {
        tc.fap_tenths -= target_fap_tenths;
    }
    let c = state.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    c.fap_tenths -= fap_tenths;
    c.map_tenths -= map;
    // FM-ACT-9 (RULINGS 2026-12-05): a block in between breaks a jump chain.
    c.last_action = Some(b.id.clone());
    match j {
        Some(j) => {
            if let Some(x) = c.declared.get_mut(j) {
                x.status = FmStatus::Used;
            }
        }
        None => c.readied = None,
    }
    let blocked_names = pack.get(&w.action).map(|x| x.names.clone()).unwrap_or_default();
    let text = sentences::blocked(
        &c.id,
        &b.names,
        &w.actor,
        &blocked_names,
        *fap_tenths,
        *target_fap_tenths,
        *relative_t_tenths,
        outcome.block_holds,
    );
    let ev = FmEvent::Blocked {
        by: acted(c, Some(&b.id), (*fap_tenths, map)),
        block: outcome.clone(),
        target: w.actor.clone(),
        target_fap_spent_tenths: *target_fap_tenths,
    };
    let ev = Logged::new(ev, rule, text);
    if let Some(win) = state.window.as_mut() {
        win.blockers.push(combatant.to_string());
        win.blocked = outcome.block_holds;
    }
    // FM-ACT-12: an Attack Block that holds negates the attack: nobody answers it.
    if outcome.block_holds
        && state.attack.as_ref().is_some_and(|x| x.actor == w.actor && x.action == w.action)
    {
        state.attack = None;
    }
    Ok(vec![ev])
}

/// FM-ACT-19 待機行動: an armed readied action's paired action fires out of
/// order, paid now (FM-AP-4, FM-LIM-4).
fn check_trigger(state: &FmRoundState, pack: &FmActionPack, combatant: &str) -> Result<()> {
    need_phase(state, FmPhase::Resolution, "FM-ACT-19", "triggering a readied action")?;
    let i = find(state, combatant)?;
    let c = state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let Some(r) = &c.readied else {
        return Err(Error::illegal(
            "FM-ACT-19",
            format_args!("{} has no resolved readied action to trigger", c.id),
        ));
    };
    let a = def(pack, "state.readied.paired.action", &r.paired.action)?;
    // RULINGS 2026-12-05: a readied action pairs with any action. A paired block is armed
    // as a declared block, for `block` against the move or attack it waits for; a paired
    // reaction or immediate action (Evade, Jump evasion, Speech) is used as `use` uses it.
    match a.resolution {
        FmResolution::OnTrigger => Err(Error::illegal(
            "FM-ACT-19",
            format_args!(
                "a readied {} fires with `block` against the move or attack it waits for",
                a.names.en
            ),
        )),
        // Its move-cap count was taken at the declaration; `use` takes it again.
        FmResolution::Reaction | FmResolution::Immediate => {
            check_use(state, pack, combatant, &a.id, false, u32::from(a.counts_toward_move_cap))?;
            check_answer(state, pack, combatant, &a.id, &FmAnswer::default())
        }
        FmResolution::InOrder => {
            let (f, m) = own_cost(&r.paired);
            check_pay(c, a, f, m)
        }
    }
}

/// A trigger, applied after [`check_trigger`].
fn trigger(
    state: &mut FmRoundState,
    pack: &FmActionPack,
    combatant: &str,
    dice: &mut Dice,
) -> Result<Vec<FmLoggedEvent>> {
    let i = find(state, combatant)?;
    let c = state.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
    let r = c.readied.clone().ok_or_else(|| Error::new(ErrorCode::Internal, "no readied action"))?;
    let a = def(pack, "state.readied.paired.action", &r.paired.action)?;
    match a.resolution {
        FmResolution::OnTrigger => {
            return Err(Error::new(ErrorCode::Internal, "a readied block fires with `block`"));
        }
        FmResolution::Reaction | FmResolution::Immediate => {
            c.readied = None;
            // Its move-cap count was taken at the declaration; `use` takes it again.
            if a.counts_toward_move_cap {
                c.move_cap_used = c.move_cap_used.saturating_sub(1);
            }
            let mut evs = use_undeclared(state, pack, combatant, &a.id, false, &FmAnswer::default(), dice)?;
            for e in &mut evs {
                e.event = match std::mem::replace(&mut e.event, FmEvent::Started) {
                    FmEvent::Used { by, answer } => FmEvent::Triggered { by, consecutive: None, answer },
                    other => other,
                };
            }
            return Ok(evs);
        }
        FmResolution::InOrder => {}
    }
    let (f, m) = own_cost(&r.paired);
    let consec = pay(c, a, f, m)?;
    c.readied = None;
    let text = sentences::triggered(&c.id, &a.names, f, m);
    let by = acted(c, Some(&a.id), (f, m));
    let triggered = FmEvent::Triggered { by, consecutive: consec, answer: FmAnswered::default() };
    let ev = Logged::new(triggered, "FM-ACT-19", text);
    open_window(state, pack, combatant, &a.id);
    state.last_move = a.can_follow.then(|| FmLastMove { actor: combatant.to_string(), action: a.id.clone() });
    state.attack = attack_of(a, combatant, &r.paired);
    Ok(vec![ev])
}

/// FM-DEF-3 / FM-AP-5: the round ends once nobody has a declared action left;
/// both pools refill; resolved sustained actions carry over and resolve first
/// next round (FM-ACT-18); an armed readied action stays armed (FM-ACT-19) and
/// its move still counts toward the new round's cap (FM-LIM-1).
fn check_end_round(state: &FmRoundState, pack: &FmActionPack) -> Result<()> {
    need_phase(state, FmPhase::Resolution, "FM-DEF-3", "ending the round")?;
    if let Some(c) = current(state, pack) {
        return Err(Error::illegal(
            "FM-DEF-3",
            format_args!("{c} still has a declared action: resolve or skip it first"),
        ));
    }
    if state.round >= MAX_ROUND {
        return Err(Error::limit("state.round", format_args!("at most {MAX_ROUND} rounds")));
    }
    Ok(())
}

/// The end of the round, applied after [`check_end_round`].
fn end_round(state: &mut FmRoundState, pack: &FmActionPack) -> Result<Vec<FmLoggedEvent>> {
    state.round += 1;
    state.phase = FmPhase::Declaration;
    state.window = None;
    state.last_move = None;
    state.attack = None;
    for c in &mut state.combatants {
        c.last_action = None;
        c.fap_tenths = c.fap_max_tenths;
        c.map_tenths = c.map_max_tenths;
        // FM-LIM-1: a carried readied move/jump still counts in the new round.
        c.move_cap_used = c
            .readied
            .as_ref()
            .map(|r| u32::from(pack.get(&r.paired.action).is_some_and(|a| a.counts_toward_move_cap)))
            .unwrap_or(0);
        c.declared = c
            .declared
            .iter()
            .filter(|d| {
                d.status == FmStatus::Resolved
                    && pack.get(&d.declaration.action).is_some_and(|a| a.carries_over)
            })
            .map(|d| FmDeclared {
                declaration: d.declaration.clone(),
                status: FmStatus::Pending,
                carried: true,
            })
            .collect();
    }
    let text = sentences::round_ended(state.round);
    Ok(vec![Logged::new(FmEvent::RoundEnded, "FM-AP-5", text)])
}
