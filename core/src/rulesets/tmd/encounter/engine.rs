//! Checking one action against an encounter state (`check`, pure), and applying
//! an action that passed it (`apply`).

use super::super::actions::{TmdActionType, TmdConvertType, TmdTypeCounts, BASE_AP_PER_TURN, MAX_AP};
use super::super::economy::{pick_type, ConvPool};
use super::super::initiative::{self, TmdCombatant, TmdInitiativeEntry, MAX_BASE_INITIATIVE, MAX_COMBATANTS};
use super::action::{TmdAction, TmdCharacterSpec, TmdEvent};
use super::state::*;
use super::TmdCost;
use crate::dice::Dice;
use crate::error::quote;
use crate::error::{Error, Result};

type Ev = Vec<TmdEvent>;

/// Most actions converted in one step.
pub const MAX_COUNT: u32 = 1000;
/// Most AP gained in one step.
pub const MAX_GAIN: u32 = 1000;

fn ill(rule: &str, msg: impl std::fmt::Display) -> Error {
    Error::illegal(rule, msg)
}

fn ch_mut<'a>(s: &'a mut TmdEncounterState, id: &str, field: &str) -> Result<&'a mut TmdCharacter> {
    s.characters
        .iter_mut()
        .find(|c| c.id == id)
        .ok_or_else(|| Error::invalid(field, format_args!("no character {} in the encounter", quote(id))))
}

fn need(s: &TmdEncounterState, id: &str, field: &str) -> Result<()> {
    s.ch(id)
        .map(|_| ())
        .ok_or_else(|| Error::invalid(field, format_args!("no character {} in the encounter", quote(id))))
}

fn text_arg(field: &str, v: &str) -> Result<()> {
    if v.chars().count() > MAX_TEXT_CHARS {
        return Err(Error::invalid(field, format_args!("at most {MAX_TEXT_CHARS} characters")));
    }
    Ok(())
}

/// A fresh character.
pub(crate) fn new_character(spec: &TmdCharacterSpec) -> TmdCharacter {
    TmdCharacter {
        id: spec.id.clone(),
        side: spec.side.clone(),
        base_initiative: spec.base_initiative,
        initiative_roll: 0,
        initiative: 0,
        tiebreaks: Vec::new(),
        late_joiner: false,
        immune_to_surprise: spec.immune_to_surprise,
        is_pc: spec.is_pc,
        base_ap: 0,
        extra_ap: 0,
        reflex_only_ap: 0,
        conversion_basis: 0,
        picked: Vec::new(),
        converted: TmdTypeCounts::default(),
        held: TmdTypeCounts::default(),
        reflexes: Vec::new(),
        retained: Vec::new(),
        overdrawn: Vec::new(),
        blocked: Vec::new(),
        grants: Vec::new(),
        disabled: Vec::new(),
        ability_uses: Vec::new(),
        free_uses: Vec::new(),
        reflex_conversions: 0,
        turn_done: false,
        gained_extra_ap: 0,
        gained_reflex_only_ap: 0,
        hp: spec.hp,
        down: false,
    }
}

pub(crate) fn specs_as_combatants(specs: &[TmdCharacterSpec]) -> Vec<TmdCombatant> {
    specs
        .iter()
        .map(|c| TmdCombatant { id: c.id.clone(), side: c.side.clone(), base_initiative: c.base_initiative })
        .collect()
}

fn store_entries(s: &mut TmdEncounterState, entries: &[TmdInitiativeEntry]) {
    for e in entries {
        if let Some(c) = s.characters.iter_mut().find(|c| c.id == e.id) {
            c.initiative_roll = e.roll;
            c.initiative = e.total;
            c.tiebreaks = e.tiebreaks.clone();
        }
    }
}

/// TMD-INI-1/2/7: everyone rolls; combat formally begins at round 1.
pub(crate) fn roll_all_and_begin(s: &mut TmdEncounterState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    let cs: Vec<TmdCombatant> = s
        .characters
        .iter()
        .map(|c| TmdCombatant { id: c.id.clone(), side: c.side.clone(), base_initiative: c.base_initiative })
        .collect();
    let entries = initiative::roll_order(&cs, dice)?;
    store_entries(s, &entries);
    s.order = entries.iter().map(|e| e.id.clone()).collect();
    for c in s.characters.iter_mut() {
        c.late_joiner = false;
    }
    // Everyone's initiative was just computed from the current base values.
    s.resort_pending = false;
    ev.push(TmdEvent::InitiativeRolled { reason: "combat_start".into(), entries });
    ev.push(TmdEvent::CombatStarted {});
    s.round = 1;
    open_round(s, ev);
    Ok(())
}

fn open_round(s: &mut TmdEncounterState, ev: &mut Ev) {
    s.phase = TmdPhase::Delays;
    s.delays.clear();
    s.delay_cursor = 0;
    s.queue.clear();
    s.current = None;
    s.converting = false;
    ev.push(TmdEvent::RoundStarted { round: s.round, order: s.order.clone() });
}

fn end_effects(s: &mut TmdEncounterState, ev: &mut Ev, reason: &str, pred: impl Fn(&TmdEffect) -> bool) {
    let (gone, keep): (Vec<TmdEffect>, Vec<TmdEffect>) = s.effects.drain(..).partition(|e| pred(e));
    s.effects = keep;
    for e in gone {
        ev.push(TmdEvent::EffectEnded { id: e.id, name: e.name, reason: reason.into() });
    }
}

/// TMD-SCN-1/2: a scene change ends every scene effect.
fn change_scene(s: &mut TmdEncounterState, ev: &mut Ev, reason: &str, start_new: bool) {
    ev.push(TmdEvent::SceneEnded { scene: s.scene, reason: reason.into() });
    end_effects(s, ev, "scene_change", |e| e.duration == TmdDuration::Scene);
    s.scene = s.scene.saturating_add(1).min(MAX_ROUND);
    s.scene_seconds = 0;
    if start_new {
        ev.push(TmdEvent::SceneStarted { scene: s.scene });
    }
}

/// TMD-TIME-2 + TMD-AP-2/11/15 + TMD-TIME-3: the start of `id`'s turn.
fn start_turn(s: &mut TmdEncounterState, id: &str, ev: &mut Ev) -> Result<()> {
    // TMD-TIME-3: buffs this character applied end at the start of its next turn;
    // debuffs on it now count this turn as the one that ends them.
    end_effects(s, ev, "applier_turn_start", |e| e.duration == TmdDuration::BuffOneRound && e.applier == id);
    for e in s.effects.iter_mut() {
        if e.duration == TmdDuration::DebuffOneRound && e.target == id {
            e.armed = true;
        }
    }
    let c = ch_mut(s, id, "current")?;
    // TMD-AP-2: 14 base AP; TMD-AP-11: overdrawn actions' AP is lost and the type blocked.
    let owed: u32 = c.overdrawn.iter().map(|t| t.cost()).sum();
    let lost = owed.min(BASE_AP_PER_TURN);
    c.base_ap = BASE_AP_PER_TURN - lost;
    c.blocked = std::mem::take(&mut c.overdrawn);
    c.conversion_basis = c.base_ap.saturating_add(c.extra_ap).min(MAX_AP);
    // Gains are counted from this turn start (TMD-AP-3 carry-over, TMD-INT-2).
    c.gained_extra_ap = 0;
    c.gained_reflex_only_ap = 0;
    c.picked.clear();
    c.converted = TmdTypeCounts::default();
    let (base_ap, extra_ap, reflex_only_ap, blocked) =
        (c.base_ap, c.extra_ap, c.reflex_only_ap, c.blocked.clone());
    ev.push(TmdEvent::TurnStarted {
        character: id.to_string(),
        base_ap,
        extra_ap,
        reflex_only_ap,
        ap_lost_to_overdraw: lost,
        blocked,
    });
    // TMD-AP-15: granted actions arrive now, count as converted, and need convertibility.
    let grants = std::mem::take(&mut c.grants);
    let basis = c.conversion_basis;
    for t in grants {
        let ok = !c.disabled.contains(&t) && !c.blocked.contains(&t) && c.converted.get(t) < t.limit(basis);
        if ok {
            *c.converted.get_mut(t) += 1;
            *c.held.get_mut(t) = c.held.get(t).saturating_add(1).min(MAX_HELD);
        }
        ev.push(TmdEvent::ActionGranted { character: id.to_string(), action_type: t, gained: ok });
    }
    s.current = Some(id.to_string());
    s.converting = true;
    Ok(())
}

/// TMD-AP-9 and round bookkeeping at the end of round `s.round`.
fn close_round(s: &mut TmdEncounterState, ev: &mut Ev) {
    let round = s.round;
    for c in s.characters.iter_mut() {
        let expired = c.reflexes.iter().filter(|r| **r <= round).count() as u32;
        c.reflexes.retain(|r| *r > round);
        if expired > 0 {
            ev.push(TmdEvent::ReflexExpired { character: c.id.clone(), count: expired });
        }
        let removed = c.held.total().saturating_sub(u64::from(c.held.swift)) as u32;
        if removed > 0 {
            ev.push(TmdEvent::ActionsRemoved { character: c.id.clone(), count: removed });
        }
        let swifts = c.held.swift;
        c.held = TmdTypeCounts::default();
        if swifts > 0 {
            for _ in 0..swifts.min(MAX_HELD) {
                if c.reflexes.len() < MAX_HELD as usize {
                    c.reflexes.push(round + 1);
                }
            }
            ev.push(TmdEvent::SwiftBecameReflex {
                character: c.id.clone(),
                count: swifts,
                expires_round: round + 1,
            });
        }
        // TMD-SUR-6 with TMD-ACT-3 (RULINGS 2026-12-05): the surprise round and round 1
        // share one usage budget, for abilities and for the same free action alike.
        if round != 0 {
            c.ability_uses.clear();
            c.free_uses.clear();
        }
        c.turn_done = false;
    }
    ev.push(TmdEvent::RoundEnded { round });
}

/// End of a combat round: TMD-TIME-5, TMD-AP-9, TMD-INI-3/4, TMD-SCN-3.
fn end_round(s: &mut TmdEncounterState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    close_round(s, ev);
    // TMD-TIME-1: 12 seconds a round; TMD-SCN-3: two hours make a new scene.
    s.scene_seconds = s.scene_seconds.saturating_add(12);
    if s.scene_seconds >= SCENE_SECONDS_LIMIT {
        change_scene(s, ev, "two_hours", true);
    }
    let joiners: Vec<String> = s.characters.iter().filter(|c| c.late_joiner).map(|c| c.id.clone()).collect();
    if s.resort_pending || !joiners.is_empty() {
        // TMD-INI-4: late joiners roll again (in joining order) and are slotted in.
        let mut entries = Vec::new();
        for id in &s.order {
            let Some(c) = s.ch(id) else { continue };
            if c.late_joiner {
                continue;
            }
            // TMD-INI-3: the total recalculated with the current base initiative.
            let e = TmdInitiativeEntry::of(&c.id, &c.side, c.base_initiative, c.initiative_roll);
            entries.push(TmdInitiativeEntry { tiebreaks: c.tiebreaks.clone(), ..e });
        }
        for id in &joiners {
            let Some(c) = s.ch(id) else { continue };
            entries.push(TmdInitiativeEntry::roll(&c.id, &c.side, c.base_initiative, dice)?);
        }
        // TMD-INI-4/TMD-INI-6: characters already in the order whose totals did not
        // change keep their places among themselves: a tie between them was already
        // broken (TMD-INI-2) and is not re-rolled; new ties (a joiner, a changed
        // total) are broken by TMD-INI-2.
        let old_totals: Vec<(String, i32)> =
            s.characters.iter().filter(|c| !c.late_joiner).map(|c| (c.id.clone(), c.initiative)).collect();
        let settled = |g: &[TmdInitiativeEntry]| {
            g.iter().all(|e| old_totals.iter().any(|(id, t)| id == &e.id && *t == e.total))
        };
        let sorted = initiative::sort_entries_keeping(entries, dice, settled)?;
        store_entries(s, &sorted);
        s.order = sorted.iter().map(|e| e.id.clone()).collect();
        for c in s.characters.iter_mut() {
            c.late_joiner = false;
        }
        s.resort_pending = false;
        ev.push(TmdEvent::InitiativeRolled { reason: "round_start".into(), entries: sorted });
    }
    if s.round >= MAX_ROUND {
        return Err(Error::limit("state.round", format_args!("at most {MAX_ROUND} rounds")));
    }
    s.round += 1;
    open_round(s, ev);
    Ok(())
}

/// After a turn ends (or its owner leaves): next turn, or the round ends.
fn advance(s: &mut TmdEncounterState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    s.current = None;
    s.converting = false;
    if s.queue.is_empty() {
        end_round(s, dice, ev)
    } else {
        let next = s.queue.remove(0);
        start_turn(s, &next, ev)
    }
}

fn no_chain(s: &TmdEncounterState, what: &str) -> Result<()> {
    if s.chain.is_some() {
        return Err(ill("TMD-INT-1", format_args!("{what}: resolve the pending interrupt chain first")));
    }
    Ok(())
}

fn not_ended(s: &TmdEncounterState) -> Result<()> {
    if s.phase == TmdPhase::Ended {
        return Err(ill("TMD-SCN-1", "the battle has ended"));
    }
    Ok(())
}

fn in_own_turn(s: &TmdEncounterState, id: &str) -> bool {
    matches!(s.phase, TmdPhase::Turns | TmdPhase::Surprise) && s.current.as_deref() == Some(id)
}

/// The character `id`, else `invalid_argument` naming `field`.
fn ch<'a>(s: &'a TmdEncounterState, id: &str, field: &str) -> Result<&'a TmdCharacter> {
    s.ch(id).ok_or_else(|| Error::invalid(field, format_args!("no character {} in the encounter", quote(id))))
}

/// What [`check`] found: what the action costs (as the listing shows it).
pub(crate) type Checked = TmdCost;

/// What an action costs: `ap` converted or owed, `actions` spent.
fn cost(ap: u32, actions: Vec<TmdActionType>) -> TmdCost {
    TmdCost { ap, actions }
}

/// `limit_exceeded` if the state would hold more than [`MAX_TOTAL_RECORDS`] records.
fn records_fit(after: usize) -> Result<()> {
    if after > MAX_TOTAL_RECORDS {
        return Err(Error::limit(
            "state.characters",
            format_args!(
                "the state would hold more than {MAX_TOTAL_RECORDS} reflexes/retained/usage records"
            ),
        ));
    }
    Ok(())
}

/// `records_fit` after `added` more records (and `removed` fewer).
fn records_grow(s: &TmdEncounterState, added: usize, removed: usize) -> Result<()> {
    records_fit((s.records() + added).saturating_sub(removed))
}

/// The records left after [`close_round`] (the leaver `skip` gone): expired reflexes go,
/// swift actions become reflexes, usage counts reset after round 0.
fn records_closing(s: &TmdEncounterState, skip: Option<&str>) -> usize {
    let round = s.round;
    s.characters
        .iter()
        .filter(|c| Some(c.id.as_str()) != skip)
        .map(|c| {
            let kept = c.reflexes.iter().filter(|r| **r > round).count();
            let swifts = c.held.swift.min(MAX_HELD) as usize;
            let reflexes = kept + swifts.min((MAX_HELD as usize).saturating_sub(kept));
            let usage = if round != 0 { 0 } else { c.ability_uses.len() + c.free_uses.len() };
            reflexes + c.retained.len() + usage + c.grants.len()
        })
        .sum()
}

/// What ending the turn now leads to (the queue `queue` left): the next turn starts,
/// or the round ends (TMD-TIME-5): checked for the round limit and the records bound.
fn check_advance(s: &TmdEncounterState, queue_empty: bool, skip: Option<&str>) -> Result<()> {
    if queue_empty {
        if s.round >= MAX_ROUND {
            return Err(Error::limit("state.round", format_args!("at most {MAX_ROUND} rounds")));
        }
        records_fit(records_closing(s, skip))?;
    }
    Ok(())
}

/// TMD-AP-10 (+ TMD-SUR-6 via the shared budget): may `ability` be used once more?
/// Its new record, if it takes one.
fn check_ability(c: &TmdCharacter, ability: &Option<String>, per_round: Option<u32>) -> Result<usize> {
    let Some(a) = ability else { return Ok(0) };
    let limit = per_round.unwrap_or(1);
    match c.ability_uses.iter().find(|u| &u.ability == a) {
        Some(u) if u.count >= limit => Err(ill(
            "TMD-AP-10",
            format_args!("{a:?} may be used {limit} time(s) per round; already {}", u.count),
        )),
        Some(_) => Ok(0),
        None if limit == 0 => Err(ill("TMD-AP-10", format_args!("{a:?} has no uses per round"))),
        None if c.ability_uses.len() >= MAX_RECORDS => {
            Err(Error::limit("action.ability", "too many abilities this round"))
        }
        None => Ok(1),
    }
}

/// Count one use of `ability` ([`check_ability`] passed).
fn count_ability(c: &mut TmdCharacter, ability: &Option<String>) {
    let Some(a) = ability else { return };
    match c.ability_uses.iter_mut().find(|u| &u.ability == a) {
        Some(u) => u.count += 1,
        None => c.ability_uses.push(super::state::TmdAbilityUses { ability: a.clone(), count: 1 }),
    }
}

/// Which held reflex or swift a reflex use spends (a reflex first, when held), or the
/// refusal.
fn reflex_choice(c: &TmdCharacter, using: Option<TmdActionType>) -> Result<TmdActionType> {
    let want = match using {
        Some(TmdActionType::Reflex) => TmdActionType::Reflex,
        Some(TmdActionType::Swift) => TmdActionType::Swift,
        Some(other) => {
            return Err(Error::invalid(
                "action.using",
                format_args!("a reflex uses reflex or swift, not {other:?}"),
            ))
        }
        None if !c.reflexes.is_empty() => TmdActionType::Reflex,
        None => TmdActionType::Swift,
    };
    if c.disabled.contains(&TmdConvertType::Swift) {
        return Err(ill("TMD-AP-12", "the character cannot use swift/reflex actions"));
    }
    if want == TmdActionType::Reflex {
        if c.reflexes.is_empty() {
            return Err(ill("TMD-ACT-10", "no reflex action held"));
        }
    } else if c.held.swift == 0 {
        return Err(ill("TMD-ACT-10", "no reflex or swift action held"));
    }
    Ok(want)
}

/// Spend one held reflex (soonest to expire first) or swift, as [`reflex_choice`] chose.
fn spend_reflex(c: &mut TmdCharacter, want: TmdActionType) {
    if want == TmdActionType::Reflex {
        if let Some(k) = c.reflexes.iter().enumerate().min_by_key(|(_, r)| **r).map(|(k, _)| k) {
            c.reflexes.remove(k);
        }
    } else {
        c.held.swift = c.held.swift.saturating_sub(1);
    }
}

fn held_type(t: TmdActionType, field: &str) -> Result<TmdConvertType> {
    match t {
        TmdActionType::Reflex | TmdActionType::Free | TmdActionType::FullRound => {
            Err(Error::invalid(field, format_args!("{t:?} is not a held action type here")))
        }
        _ => t.convert_type().ok_or_else(|| Error::invalid(field, "not a held action type")),
    }
}

/// May one held action of type `u` be spent (an ability's retained one first,
/// TMD-AP-14)? Whether it is a retained one.
fn check_held(c: &TmdCharacter, u: TmdConvertType, ability: &Option<String>) -> Result<bool> {
    if c.disabled.contains(&u) {
        return Err(ill("TMD-AP-12", format_args!("the character cannot use {u:?} actions")));
    }
    if let Some(a) = ability {
        if c.retained.iter().any(|r| r.action_type == u && &r.ability == a) {
            return Ok(true);
        }
    }
    if c.held.get(u) == 0 {
        if c.retained.iter().any(|r| r.action_type == u) {
            return Err(ill(
                "TMD-AP-14",
                format_args!("the only {u:?} action held is retained by an ability"),
            ));
        }
        return Err(ill("TMD-AP-11", format_args!("no converted {u:?} action is held")));
    }
    Ok(false)
}

/// Spend one held action of type `u` ([`check_held`] passed).
fn spend_held(c: &mut TmdCharacter, u: TmdConvertType, ability: &Option<String>) {
    if let Some(a) = ability {
        if let Some(k) = c.retained.iter().position(|r| r.action_type == u && &r.ability == a) {
            c.retained.remove(k);
            return;
        }
    }
    *c.held.get_mut(u) = c.held.get(u).saturating_sub(1);
}

/// TMD-AP-16: a full-round action's missing part is named by its own rule.
fn full_round_part(e: Error) -> Error {
    if e.rule.as_deref() == Some("TMD-AP-11") {
        ill("TMD-AP-16", e.0.message)
    } else {
        e
    }
}

/// How a checked `use_action` is spent: the actions (and whether a reflex, and which).
struct UsePlan {
    /// The action types spent, in order (a held type, or the reflex/swift chosen).
    spent: Vec<TmdActionType>,
    /// The ability shown in the event (`drop_prone` for a bare reflex).
    shown_ability: Option<String>,
    own: bool,
    surprise_attack: bool,
}

/// `use_action`, checked (TMD-TIME-2, TMD-ACT-10, TMD-AP-10, TMD-AP-11, TMD-AP-12,
/// TMD-AP-14, TMD-AP-16, TMD-AP-17, TMD-SUR-3).
#[allow(clippy::too_many_arguments)]
fn check_use_action(
    s: &TmdEncounterState,
    id: &str,
    action_type: TmdActionType,
    (using, companion): (Option<TmdActionType>, Option<TmdActionType>),
    ability: &Option<String>,
    per_round: Option<u32>,
    attack: Option<bool>,
) -> Result<UsePlan> {
    need(s, id, "action.actor")?;
    if let Some(a) = ability {
        text_arg("action.ability", a)?;
    }
    if per_round.is_some_and(|n| n > MAX_COUNT) {
        return Err(Error::out_of_range("action.uses_per_round", format_args!("at most {MAX_COUNT}")));
    }
    if !matches!(s.phase, TmdPhase::Turns | TmdPhase::Surprise) {
        return Err(ill("TMD-TIME-2", "actions are used in the surprise round or in turns"));
    }
    if action_type == TmdActionType::Free {
        return Err(Error::invalid("action.action_type", "use the use_free action for free actions"));
    }
    if companion.is_some() && action_type != TmdActionType::FullRound {
        return Err(Error::invalid("action.companion", "only a full-round action has a companion"));
    }
    let own = in_own_turn(s, id);
    let surprise_attack = s.phase == TmdPhase::Surprise && own;
    if attack.is_some() && !surprise_attack {
        return Err(Error::invalid(
            "action.attack",
            "only the surprise attacker's standard action in the surprise round says whether it attacks",
        ));
    }
    if surprise_attack && s.surprise.as_ref().is_some_and(|x| x.attack_used) {
        return Err(ill("TMD-SUR-3", "the attacker attacks only once in the surprise round"));
    }
    let c = ch(s, id, "action.actor")?;
    let mut spent = Vec::new();
    let mut shown_ability = ability.clone();
    let mut removed = 0;
    if own {
        if action_type == TmdActionType::Reflex || using == Some(TmdActionType::Reflex) {
            return Err(ill("TMD-ACT-10", "a reflex action is a swift action used outside one's own turn"));
        }
        if action_type == TmdActionType::FullRound {
            // TMD-AP-16: one standard + one move (or an already-converted acrobatic).
            if using.is_some_and(|u| u != TmdActionType::Standard) {
                return Err(Error::invalid("action.using", "a full-round action uses a standard action"));
            }
            let comp = companion.unwrap_or(TmdActionType::Move);
            if !matches!(comp, TmdActionType::Move | TmdActionType::Acrobatic) {
                return Err(Error::invalid("action.companion", "must be move or acrobatic (TMD-AP-16)"));
            }
            let comp_t = held_type(comp, "action.companion")?;
            // The two parts are of different types, so neither spends what the other needs.
            removed +=
                usize::from(check_held(c, TmdConvertType::Standard, ability).map_err(full_round_part)?);
            removed += usize::from(check_held(c, comp_t, ability).map_err(full_round_part)?);
            spent = vec![TmdActionType::Standard, comp];
        } else {
            let u = using.unwrap_or(action_type);
            let ut = held_type(u, "action.using")?;
            // TMD-AP-17: a higher action may stand in for a lower one.
            if u.rank() < action_type.rank() {
                return Err(ill(
                    "TMD-AP-17",
                    format_args!("a {u:?} action ranks below {action_type:?} and cannot stand in for it"),
                ));
            }
            if surprise_attack && ut != TmdConvertType::Standard {
                return Err(ill("TMD-SUR-3", "the surprise round has only one standard action"));
            }
            removed += usize::from(check_held(c, ut, ability)?);
            spent.push(u);
        }
    } else if action_type == TmdActionType::Reflex {
        // TMD-ACT-10: out of turn; without a granting resource it can only drop prone.
        let w = reflex_choice(c, using)?;
        removed += usize::from(w == TmdActionType::Reflex);
        spent.push(w);
        if ability.is_none() {
            shown_ability = Some("drop_prone".into());
        }
    } else if ability.is_some() && action_type != TmdActionType::FullRound {
        // TMD-AP-11: a resource uses up an unused action of this round.
        let u = using.unwrap_or(action_type);
        let ut = held_type(u, "action.using")?;
        if u.rank() < action_type.rank() {
            return Err(ill("TMD-AP-17", format_args!("{u:?} cannot stand in for {action_type:?}")));
        }
        removed += usize::from(check_held(c, ut, ability)?);
        spent.push(u);
    } else {
        return Err(ill(
            "TMD-ACT-10",
            format_args!("out of its turn a character only uses reflex actions (or an ability's use of a held action), not {action_type:?}"),
        ));
    }
    let added = check_ability(c, ability, per_round)?;
    records_grow(s, added, removed)?;
    Ok(UsePlan { spent, shown_ability, own, surprise_attack })
}

/// `use_action` (TMD-TIME-2, TMD-ACT-10, TMD-AP-10, TMD-AP-11, TMD-AP-12, TMD-AP-14,
/// TMD-AP-16, TMD-AP-17, TMD-SUR-3, TMD-SUR-4, TMD-SUR-5): a held action used in one's
/// own turn (a higher one may stand in), a reflex out of turn, or an ability's use of a
/// held action; the surprise attacker's one standard action. Applied after
/// [`check_use_action`].
fn use_action(
    s: &mut TmdEncounterState,
    id: &str,
    action_type: TmdActionType,
    ability: &Option<String>,
    attack: Option<bool>,
    plan: UsePlan,
    ev: &mut Ev,
) -> Result<()> {
    let UsePlan { spent, shown_ability, own, surprise_attack } = plan;
    let c = ch_mut(s, id, "action.actor")?;
    for t in &spent {
        match t {
            TmdActionType::Reflex => spend_reflex(c, TmdActionType::Reflex),
            TmdActionType::Swift if !own && action_type == TmdActionType::Reflex => {
                spend_reflex(c, TmdActionType::Swift)
            }
            t => spend_held(c, held_type(*t, "action.using")?, ability),
        }
    }
    count_ability(c, ability);
    if own {
        s.converting = false;
    }
    let mut surprise_event = None;
    if surprise_attack {
        if let Some(x) = s.surprise.as_mut() {
            x.attack_used = true;
        }
    }
    // TMD-SUR-4 (RULINGS 2026-12-05): only an attack marks the defenders as caught off
    // guard; the surprise standard used for anything else does not.
    if surprise_attack && attack != Some(false) {
        // TMD-SUR-4/5: the attacker has 措手不及/先制 against every defender except the immune.
        let side = s.ch(id).map(|c| c.side.clone()).unwrap_or_default();
        let defenders: Vec<&TmdCharacter> = s.characters.iter().filter(|c| c.side != side).collect();
        surprise_event = Some(TmdEvent::SurpriseAttack {
            attacker: id.to_string(),
            caught_off_guard: defenders
                .iter()
                .filter(|c| !c.immune_to_surprise)
                .map(|c| c.id.clone())
                .collect(),
            immune: defenders.iter().filter(|c| c.immune_to_surprise).map(|c| c.id.clone()).collect(),
        });
    }
    ev.push(TmdEvent::ActionUsed {
        character: id.to_string(),
        action_type,
        spent,
        out_of_turn: !own,
        ability: shown_ability,
    });
    ev.extend(surprise_event);
    Ok(())
}

/// Whether `action` may be taken now (pure: the state is only read): what it costs,
/// or the refusal naming its rule, exactly as [`apply`] would refuse it. One check per
/// action, each naming its rules; the records bound ([`MAX_TOTAL_RECORDS`]) and the
/// round limit are checked here too.
pub(crate) fn check(s: &TmdEncounterState, action: &TmdAction) -> Result<Checked> {
    let none = || cost(0, Vec::new());
    // TMD-TIME-1: a character the GM has put down can no longer act (leaving is the GM's).
    if let Some(id) = action.actor() {
        if !matches!(action, TmdAction::Leave { .. }) && s.ch(id).is_some_and(|c| c.down) {
            return Err(ill("TMD-TIME-1", format_args!("{id} is down and can no longer act")));
        }
    }
    if let TmdAction::Delay { after, .. } = action {
        if s.ch(after).is_some_and(|c| c.down) {
            return Err(ill("TMD-TIME-1", format_args!("{after} is down and takes no turn to delay after")));
        }
    }
    match action {
        TmdAction::BeginCombat {} => check_begin_combat(s).map(|_| none()),
        TmdAction::Delay { actor: character, after } => check_delay(s, character, after).map(|_| none()),
        TmdAction::StartTurns {} => check_start_turns(s).map(|_| none()),
        TmdAction::Convert { actor: character, action_type, count } => {
            plan_convert(s, character, action_type, count).map(|p| cost(p.spent, Vec::new()))
        }
        TmdAction::ConvertReflex { actor: character, count } => {
            plan_convert_reflex(s, character, count).map(|p| cost(p.spent, Vec::new()))
        }
        TmdAction::UseAction {
            actor: character,
            action_type,
            using,
            companion,
            ability,
            uses_per_round,
            attack,
        } => check_use_action(
            s,
            character,
            *action_type,
            (*using, *companion),
            ability,
            *uses_per_round,
            *attack,
        )
        .map(|p| cost(0, p.spent)),
        TmdAction::UseFree { actor: character, purpose, source, uses_per_round, timing, reflex } => {
            check_use_free(s, character, purpose, source, (uses_per_round, timing), *reflex).map(|_| none())
        }
        TmdAction::Overdraw { actor: character, action_type } => {
            check_overdraw(s, character, action_type).map(|_| cost(action_type.cost(), Vec::new()))
        }
        TmdAction::Retain { actor: character, action_type, ability } => {
            check_retain(s, character, action_type, ability).map(|_| none())
        }
        TmdAction::Grant { actor: character, .. } => check_grant(s, character).map(|_| none()),
        TmdAction::GainAp { actor: character, amount, .. } => {
            check_gain_ap(s, character, amount).map(|_| none())
        }
        TmdAction::SetDisabled { actor: character, .. } => {
            need(s, character, "action.actor")?;
            not_ended(s).map(|_| none())
        }
        TmdAction::EndTurn { actor: character } => check_end_turn(s, character).map(|_| none()),
        TmdAction::Join { characters } => check_join(s, characters).map(|_| none()),
        TmdAction::Leave { actor: character } => {
            need(s, character, "action.actor")?;
            not_ended(s)?;
            no_chain(s, "leave")?;
            check_remove(s, character).map(|_| none())
        }
        TmdAction::SetBaseInitiative { actor: character, base_initiative } => {
            check_set_base_initiative(s, character, base_initiative).map(|_| none())
        }
        TmdAction::ApplyEffect { applier, target, name, .. } => {
            check_apply_effect(s, applier, target, name).map(|_| none())
        }
        TmdAction::RemoveEffect { id } => {
            if !s.effects.iter().any(|e| e.id == *id) {
                return Err(Error::invalid("action.id", format_args!("no effect {id}")));
            }
            Ok(none())
        }
        TmdAction::SceneChange {} => {
            not_ended(s)?;
            no_chain(s, "scene_change").map(|_| none())
        }
        TmdAction::Teleport { actor: character, observed } => {
            need(s, character, "action.actor")?;
            not_ended(s)?;
            no_chain(s, "teleport")?;
            if !*observed {
                check_remove(s, character)?;
            }
            Ok(none())
        }
        TmdAction::Announce { actor: character, label } => {
            check_announce(s, character, label).map(|_| none())
        }
        TmdAction::Interrupt { actor: character, reflex, using, label, .. } => {
            check_interrupt(s, character, reflex, using, label)?;
            // RULINGS 2026-12-05: an interrupt's named action is spent as it is announced.
            Ok(match (reflex, using) {
                (true, u) => cost(0, vec![u.unwrap_or(TmdActionType::Reflex)]),
                (false, Some(u)) => cost(0, vec![*u]),
                (false, None) => none(),
            })
        }
        TmdAction::Pass {} => check_pass(s).map(|_| none()),
        TmdAction::Resolve {} => check_resolve(s).map(|_| none()),
        TmdAction::EndEncounter {} => {
            not_ended(s)?;
            no_chain(s, "end_encounter").map(|_| none())
        }
        TmdAction::GmDamage { target, amount } => check_gm_damage(s, target, *amount).map(|_| none()),
        TmdAction::GmDown { target } => check_gm_down(s, target).map(|_| none()),
    }
}

/// `gm_damage`, checked: a character tracking HP, an amount 1..=10^9, the battle going on.
fn check_gm_damage(s: &TmdEncounterState, target: &str, amount: i64) -> Result<()> {
    not_ended(s)?;
    let c = ch(s, target, "action.target")?;
    if c.hp.is_none() {
        return Err(Error::invalid("action.target", format_args!("{target} tracks no hp")));
    }
    if !(1..=MAX_HP).contains(&amount) {
        return Err(Error::out_of_range("action.amount", format_args!("must be 1..={MAX_HP}")));
    }
    Ok(())
}

/// `gm_damage` (the GM's entry: the seed has no damage rules), applied after [`check_gm_damage`].
fn gm_damage(s: &mut TmdEncounterState, target: &str, amount: i64, ev: &mut Ev) -> Result<()> {
    let c = ch_mut(s, target, "action.target")?;
    let hp = (c.hp.unwrap_or(0) - amount).max(-MAX_HP);
    c.hp = Some(hp);
    ev.push(TmdEvent::Damaged { character: target.to_string(), amount, hp });
    Ok(())
}

/// `gm_down`, checked (TMD-TIME-1, TMD-INT-1, TMD-SUR-3): someone standing, no chain
/// pending, not the surprise attacker before its attack; when it is the one acting, its
/// turn can end (as `end_turn`'s checks).
fn check_gm_down(s: &TmdEncounterState, target: &str) -> Result<()> {
    not_ended(s)?;
    no_chain(s, "gm_down")?;
    let c = ch(s, target, "action.target")?;
    if c.down {
        return Err(ill("TMD-TIME-1", format_args!("{target} is already down")));
    }
    if s.phase == TmdPhase::Surprise && s.surprise.as_ref().is_some_and(|x| x.attacker == target) {
        return Err(ill("TMD-SUR-3", "the surprise attacker makes its one attack before combat begins"));
    }
    if s.current.as_deref() == Some(target) && s.phase == TmdPhase::Turns {
        check_advance(s, s.queue.is_empty(), Some(target))?;
    }
    Ok(())
}

/// `gm_down`, applied after [`check_gm_down`]: the character takes no more turns
/// (TMD-TIME-1; its turn ends now if it is acting, and delays on it are dropped, TMD-INI-6);
/// once every side but one has nobody standing, the battle ends (TMD-SCN-1).
fn gm_down(s: &mut TmdEncounterState, target: &str, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    ch_mut(s, target, "action.target")?.down = true;
    ev.push(TmdEvent::Downed { character: target.to_string() });
    let acting = s.current.as_deref() == Some(target) && s.phase == TmdPhase::Turns;
    if acting {
        close_turn(s, target, ev)?;
    }
    s.queue.retain(|q| q != target);
    let pos = s.pos(target);
    if s.phase == TmdPhase::Delays && pos.is_some_and(|p| p >= s.delay_cursor as usize) {
        // Still to declare: its turn is gone, so are delays after it.
        s.delays.retain(|d| d.after != target);
    } else {
        s.delays.retain(|d| d.character != target && d.after != target);
    }
    let mut sides: Vec<&str> = Vec::new();
    for c in &s.characters {
        if !sides.contains(&c.side.as_str()) {
            sides.push(&c.side);
        }
    }
    let standing: Vec<String> = sides
        .iter()
        .filter(|sd| s.characters.iter().any(|c| c.side == **sd && !c.down))
        .map(|sd| sd.to_string())
        .collect();
    if sides.len() >= 2 && standing.len() <= 1 {
        let winner = standing.into_iter().next();
        s.outcome = Some(super::state::TmdOutcome {
            reason: "side_down".into(),
            side: winner.clone(),
            winner,
            down: s.characters.iter().filter(|c| c.down).map(|c| c.id.clone()).collect(),
            rule: "TMD-SCN-1".into(),
            round: s.round,
        });
        return end_encounter(s, ev);
    }
    if acting {
        advance(s, dice, ev)?;
    }
    Ok(())
}

/// Apply `action`, which [`check`] accepted, to `s` in place, appending events: one
/// function per action. It fails only if scripted dice run out (initiative rolls) or on
/// an internal error, and may then leave `s` part-way changed.
pub(crate) fn apply(
    s: &mut TmdEncounterState,
    action: &TmdAction,
    dice: &mut Dice,
    ev: &mut Ev,
) -> Result<()> {
    match action {
        TmdAction::BeginCombat {} => begin_combat(s, dice, ev),
        TmdAction::Delay { actor: character, after } => delay(s, character, after, ev),
        TmdAction::StartTurns {} => start_turns(s, dice, ev),
        TmdAction::Convert { actor: character, action_type, count } => {
            convert(s, character, action_type, count, ev)
        }
        TmdAction::ConvertReflex { actor: character, count } => convert_reflex(s, character, count, ev),
        TmdAction::UseAction {
            actor: character,
            action_type,
            using,
            companion,
            ability,
            uses_per_round,
            attack,
        } => {
            let plan = check_use_action(
                s,
                character,
                *action_type,
                (*using, *companion),
                ability,
                *uses_per_round,
                *attack,
            )?;
            use_action(s, character, *action_type, ability, *attack, plan, ev)
        }
        TmdAction::UseFree { actor: character, purpose, source, uses_per_round, timing, reflex } => {
            use_free(s, character, purpose, source, (uses_per_round, timing), *reflex, ev)
        }
        TmdAction::Overdraw { actor: character, action_type } => overdraw(s, character, action_type, ev),
        TmdAction::Retain { actor: character, action_type, ability } => {
            retain(s, character, action_type, ability, ev)
        }
        TmdAction::Grant { actor: character, action_type } => grant(s, character, action_type, ev),
        TmdAction::GainAp { actor: character, amount, reflex_only } => {
            gain_ap(s, character, amount, reflex_only, ev)
        }
        TmdAction::SetDisabled { actor: character, action_type, disabled } => {
            set_disabled(s, character, action_type, disabled, ev)
        }
        TmdAction::EndTurn { actor: character } => end_turn(s, character, dice, ev),
        TmdAction::Join { characters } => join(s, characters, dice, ev),
        TmdAction::Leave { actor: character } => remove_character(s, character, dice, ev, "left"),
        TmdAction::SetBaseInitiative { actor: character, base_initiative } => {
            set_base_initiative(s, character, base_initiative, ev)
        }
        TmdAction::ApplyEffect { applier, target, name, duration } => {
            apply_effect(s, applier, target, name, duration, ev)
        }
        TmdAction::RemoveEffect { id } => {
            end_effects(s, ev, "removed", |e| e.id == *id);
            Ok(())
        }
        TmdAction::SceneChange {} => {
            change_scene(s, ev, "scene_change", true);
            Ok(())
        }
        TmdAction::Teleport { actor: character, observed } => teleport(s, character, observed, dice, ev),
        TmdAction::Announce { actor: character, label } => announce(s, character, label, ev),
        TmdAction::Interrupt { actor: character, reflex, using, label, ignores_preemption } => {
            interrupt(s, character, reflex, using, label, ignores_preemption, ev)
        }
        TmdAction::Pass {} => pass_interrupts(s, ev),
        TmdAction::Resolve {} => resolve(s, ev),
        TmdAction::EndEncounter {} => end_encounter(s, ev),
        TmdAction::GmDamage { target, amount } => gm_damage(s, target, *amount, ev),
        TmdAction::GmDown { target } => gm_down(s, target, dice, ev),
    }
}

/// `begin_combat`, checked (TMD-SUR-1, TMD-SUR-7, TMD-INT-1).
fn check_begin_combat(s: &TmdEncounterState) -> Result<()> {
    if s.phase != TmdPhase::Surprise {
        return Err(ill("TMD-SUR-7", "there is no surprise round to end; it only comes before all combat"));
    }
    no_chain(s, "begin_combat")?;
    if !s.surprise.as_ref().is_some_and(|x| x.attack_used) {
        return Err(ill("TMD-SUR-1", "the surprise round is the attacker's first strike; attack first"));
    }
    records_fit(records_closing(s, None))
}

/// `begin_combat` (TMD-SUR-1, TMD-SUR-7, TMD-INI-1, TMD-INI-7, TMD-INT-1): the surprise round ends after
/// its attack; everyone rolls initiative and combat begins at round 1.
fn begin_combat(s: &mut TmdEncounterState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    s.current = None;
    close_round(s, ev);
    roll_all_and_begin(s, dice, ev)
}

/// `delay`, checked (TMD-INI-5, TMD-INT-1): a delay declared at the round's start, from the top of the order down.
fn check_delay(s: &TmdEncounterState, character: &str, after: &str) -> Result<()> {
    need(s, character, "action.actor")?;
    need(s, after, "action.after")?;
    if s.phase != TmdPhase::Delays {
        return Err(ill("TMD-INI-5", "delays are declared only at the start of a round"));
    }
    no_chain(s, "delay")?;
    let p = s.pos(character).unwrap_or(usize::MAX);
    let q = s.pos(after).unwrap_or(usize::MAX);
    if p < s.delay_cursor as usize {
        return Err(ill(
            "TMD-INI-5",
            "delays are declared from the top of the order down; a lower character has already declared",
        ));
    }
    if q <= p {
        return Err(ill("TMD-INI-5", "a character can only delay until after a lower character's turn"));
    }
    // TMD-INI-5.4: 「若一名角色宣称了延后先攻，则先攻顺位低于他的其他角色无法宣称延后至
    // 该角色回合结束时」: nobody delays until after a character that has already delayed.
    if s.delays.iter().any(|d| d.character == after) {
        return Err(ill("TMD-INI-5", format_args!("{after:?} has delayed and cannot be a delay target")));
    }
    // TMD-INI-5.5: 「如果一个单位宣称延后至另一个单位之后进行行动，则这个单位不能再被其他
    // 单位宣称延后先攻」: one delayer per target.
    if s.delays.iter().any(|d| d.after == after) {
        return Err(ill(
            "TMD-INI-5",
            format_args!("someone already delays until after {after:?}; nobody else may"),
        ));
    }
    // Nothing else: a character that is already a delay target may still delay
    // (A after C, then C after D: D, C, A). Its delayer follows it (`start_turns`).
    Ok(())
}

/// `delay` (TMD-INI-5), applied after [`check_delay`].
fn delay(s: &mut TmdEncounterState, character: &str, after: &str, ev: &mut Ev) -> Result<()> {
    let p = s.pos(character).unwrap_or(usize::MAX);
    s.delays.push(TmdDelay { character: character.to_string(), after: after.to_string() });
    s.delay_cursor = p.saturating_add(1) as u32;
    ev.push(TmdEvent::DelayDeclared { character: character.to_string(), after: after.to_string() });
    Ok(())
}

/// `start_turns`, checked (TMD-INI-5, TMD-INT-1).
fn check_start_turns(s: &TmdEncounterState) -> Result<()> {
    if s.phase != TmdPhase::Delays {
        return Err(ill("TMD-INI-5", "turns start once, after the round's delay declarations"));
    }
    no_chain(s, "start_turns")?;
    check_advance(s, turn_order(s).is_empty(), None)
}

/// TMD-INI-5.3: the round's turns: the order unchanged, each delayer right after its
/// target's turn ends. A target that delayed too takes its turn after its own target,
/// and its delayer follows it there: order A, B, C, D with A after C and C after D
/// plays B, D, C, A. Each link goes up the order (a target is lower than its delayer)
/// and each target has one delayer, so every chain ends.
fn turn_order(s: &TmdEncounterState) -> Vec<String> {
    let mut turns = Vec::new();
    for id in &s.order {
        // TMD-TIME-1: a character down takes no turn.
        if s.delays.iter().any(|d| &d.character == id) || s.ch(id).is_some_and(|c| c.down) {
            continue;
        }
        turns.push(id.clone());
        let mut last = id;
        for _ in 0..s.delays.len() {
            let Some(d) = s.delays.iter().find(|d| &d.after == last) else { break };
            turns.push(d.character.clone());
            last = &d.character;
        }
    }
    turns
}

/// `start_turns` (TMD-INI-5, TMD-TIME-5, TMD-INT-1): the round's turns in order, each delayer right after
/// its target; the first turn starts. Applied after [`check_start_turns`].
fn start_turns(s: &mut TmdEncounterState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    let turns = turn_order(s);
    ev.push(TmdEvent::TurnOrderSet { turns: turns.clone() });
    s.phase = TmdPhase::Turns;
    s.queue = turns;
    advance(s, dice, ev)
}

/// A checked conversion: the character's pool after it, the types picked, the AP spent.
struct ConvertPlan {
    pool: ConvPool,
    picked: Vec<TmdConvertType>,
    spent: u32,
}

/// `convert`, checked (TMD-AP-6, TMD-AP-7, TMD-AP-8, TMD-AP-11, TMD-AP-12): the
/// conversion computed on a copy of the character's pool.
fn plan_convert(
    s: &TmdEncounterState,
    character: &str,
    action_type: &TmdActionType,
    count: &u32,
) -> Result<ConvertPlan> {
    need(s, character, "action.actor")?;
    let action_type = &action_type.to_convert()?;
    if *count == 0 || *count > MAX_COUNT {
        return Err(Error::out_of_range("action.count", format_args!("must be 1..={MAX_COUNT}")));
    }
    if !(s.phase == TmdPhase::Turns && s.current.as_deref() == Some(character)) {
        return Err(ill("TMD-AP-6", "AP is converted at the start of one's own turn"));
    }
    if !s.converting {
        return Err(ill("TMD-AP-6", "conversions happen at the start of the turn, before acting"));
    }
    let variant = s.variants.conversion_ap_basis;
    let c = ch(s, character, "action.actor")?;
    if c.disabled.contains(action_type) {
        return Err(ill(
            "TMD-AP-12",
            format_args!("the character cannot use, so cannot convert, {action_type:?}"),
        ));
    }
    if c.blocked.contains(action_type) {
        return Err(ill(
            "TMD-AP-11",
            format_args!("{action_type:?} was overdrawn and cannot be converted this turn"),
        ));
    }
    // TMD-AP-6: more of the type picked last continues that pick, in this call or
    // another; only a return to an earlier type is refused (as in `tmd.convert`).
    let mut picked = c.picked.clone();
    pick_type(&mut picked, *action_type)?;
    let mut pool =
        ConvPool { base: c.base_ap, extra: c.extra_ap, basis: c.conversion_basis, counts: c.converted };
    for _ in 0..*count {
        pool.convert_one(*action_type, variant)?;
    }
    let spent = c.base_ap + c.extra_ap - pool.total();
    Ok(ConvertPlan { pool, picked, spent })
}

/// `convert` (TMD-AP-6, TMD-AP-7, TMD-AP-8, TMD-AP-11, TMD-AP-12): AP converted into actions of one type
/// at the start of one's own turn.
fn convert(
    s: &mut TmdEncounterState,
    character: &str,
    action_type: &TmdActionType,
    count: &u32,
    ev: &mut Ev,
) -> Result<()> {
    let ConvertPlan { pool, picked, spent } = plan_convert(s, character, action_type, count)?;
    let action_type = &action_type.to_convert()?;
    let c = ch_mut(s, character, "action.actor")?;
    c.base_ap = pool.base;
    c.extra_ap = pool.extra;
    c.converted = pool.counts;
    *c.held.get_mut(*action_type) = c.held.get(*action_type).saturating_add(*count).min(MAX_HELD);
    c.picked = picked;
    ev.push(TmdEvent::Converted {
        character: character.to_string(),
        action_type: action_type.action(),
        count: *count,
        ap_spent: spent,
    });
    Ok(())
}

/// A checked reflex conversion: the pool after it, the AP spent, and whether it is in
/// the character's own turn.
struct ReflexPlan {
    pool: ConvPool,
    spent: u32,
    own: bool,
}

/// `convert_reflex`, checked (TMD-AP-4, TMD-AP-6, TMD-AP-7, TMD-AP-8, TMD-AP-12,
/// TMD-SCN-1): the conversion computed on a copy of the character's pool.
fn plan_convert_reflex(s: &TmdEncounterState, character: &str, count: &u32) -> Result<ReflexPlan> {
    need(s, character, "action.actor")?;
    not_ended(s)?;
    if *count == 0 || *count > MAX_COUNT {
        return Err(Error::out_of_range("action.count", format_args!("must be 1..={MAX_COUNT}")));
    }
    // TMD-AP-4: out-of-turn-only AP converts into reflex actions at the usual time,
    // the start of one's own turn, or at once when gained out of turn. In one's own
    // turn only that AP converts this way (base and extra AP convert with `convert`).
    let own = in_own_turn(s, character);
    if own && !(s.phase == TmdPhase::Turns && s.converting) {
        return Err(ill(
            "TMD-AP-6",
            "in one's own turn AP is converted only at the start of the turn, before acting",
        ));
    }
    let variant = s.variants.conversion_ap_basis;
    let c = ch(s, character, "action.actor")?;
    if own && c.reflex_only_ap == 0 {
        return Err(ill(
            "TMD-AP-4",
            "in one's own turn only out-of-turn-only AP converts into reflex actions; convert swift actions with base or extra AP",
        ));
    }
    if c.disabled.contains(&TmdConvertType::Swift) {
        return Err(ill("TMD-AP-12", "the character cannot use swift/reflex actions"));
    }
    // Reflex-only AP first, then (out of turn) extra AP. Swift/reflex limit
    // (TMD-AP-7/8): under `turn_start` the AP total before these reflex conversions
    // began (the AP at hand plus the AP already spent on them since the last turn),
    // so one call converting two equals two calls converting one; under
    // `remaining`, the AP at hand.
    let usable_extra = if own { 0 } else { c.extra_ap };
    let at_hand = usable_extra.saturating_add(c.reflex_only_ap);
    let spent_before = c.reflex_conversions.saturating_mul(TmdConvertType::Swift.cost());
    let mut pool = ConvPool {
        base: usable_extra,
        extra: c.reflex_only_ap,
        basis: at_hand.saturating_add(spent_before).min(3 * MAX_AP),
        counts: TmdTypeCounts { swift: c.reflex_conversions, ..Default::default() },
    };
    for _ in 0..*count {
        pool.convert_one(TmdConvertType::Swift, variant)?;
    }
    if c.reflexes.len() + *count as usize > MAX_HELD as usize {
        return Err(Error::limit("action.count", "too many reflex actions held"));
    }
    records_grow(s, *count as usize, 0)?;
    Ok(ReflexPlan { spent: at_hand - pool.total(), pool, own })
}

/// `convert_reflex` (TMD-AP-4, TMD-AP-6, TMD-AP-7, TMD-AP-8, TMD-AP-9, TMD-AP-12, TMD-SCN-1): AP
/// converted into reflex actions (out-of-turn-only AP first, then, out of turn, extra AP).
fn convert_reflex(s: &mut TmdEncounterState, character: &str, count: &u32, ev: &mut Ev) -> Result<()> {
    let ReflexPlan { pool, spent, own } = plan_convert_reflex(s, character, count)?;
    let expires = s.round.saturating_add(1);
    let c = ch_mut(s, character, "action.actor")?;
    if !own {
        c.extra_ap = pool.base;
    }
    c.reflex_only_ap = pool.extra;
    c.reflex_conversions = pool.counts.swift;
    c.reflexes.extend(std::iter::repeat_n(expires, *count as usize));
    ev.push(TmdEvent::Converted {
        character: character.to_string(),
        action_type: TmdActionType::Reflex,
        count: *count,
        ap_spent: spent,
    });
    Ok(())
}

/// A checked free action: its purpose and source (defaults filled in), the reflex it
/// spends, and its use limit.
struct FreePlan {
    purpose: String,
    source: String,
    reflex_spent: Option<TmdActionType>,
}

/// `use_free`, checked (TMD-ACT-1, TMD-ACT-2, TMD-ACT-3, TMD-ACT-4, TMD-ACT-10).
fn check_use_free(
    s: &TmdEncounterState,
    character: &str,
    purpose: &Option<String>,
    source: &Option<String>,
    (uses_per_round, timing): (&Option<u32>, &Option<String>),
    reflex: bool,
) -> Result<FreePlan> {
    need(s, character, "action.actor")?;
    let purpose = purpose.clone().unwrap_or_else(|| "free".into());
    let source = source.clone().unwrap_or_else(|| "basic".into());
    text_arg("action.purpose", &purpose)?;
    text_arg("action.source", &source)?;
    if let Some(t) = timing {
        text_arg("action.timing", t)?;
    }
    if !matches!(s.phase, TmdPhase::Turns | TmdPhase::Surprise) {
        return Err(ill("TMD-ACT-2", "free actions are taken in turns"));
    }
    let own = in_own_turn(s, character);
    // TMD-ACT-10 (RULINGS 2026-12-05): out of turn, a reflex may invoke an in-turn
    // free-action ability, spending the reflex.
    if reflex && own {
        return Err(ill("TMD-ACT-10", "a reflex action is used outside one's own turn"));
    }
    // TMD-ACT-2: only in one's own turn, unless the ability states a timing.
    if !own && timing.is_none() && !reflex {
        return Err(ill(
            "TMD-ACT-2",
            "a free action is taken in one's own turn unless its ability states a timing (or a reflex invokes it)",
        ));
    }
    // TMD-ACT-3: repeatable only when both a count and a timing are stated.
    let limit = match (uses_per_round, timing) {
        (Some(n), Some(_)) => (*n).min(MAX_COUNT),
        _ => 1,
    };
    let c = ch(s, character, "action.actor")?;
    let reflex_spent = if reflex { Some(reflex_choice(c, None)?) } else { None };
    // TMD-ACT-4: the same free action = same purpose and same source.
    let added = match c.free_uses.iter().find(|u| u.purpose == purpose && u.source == source) {
        Some(u) if u.count >= limit => {
            return Err(ill(
                "TMD-ACT-3",
                format_args!(
                    "this free action ({purpose:?} from {source:?}) may be used {limit} time(s) per round"
                ),
            ))
        }
        Some(_) => 0,
        None if limit == 0 => return Err(ill("TMD-ACT-3", "no uses per round")),
        None if c.free_uses.len() >= MAX_RECORDS => {
            return Err(Error::limit("action.purpose", "too many free actions this round"))
        }
        None => 1,
    };
    records_grow(s, added, usize::from(reflex_spent == Some(TmdActionType::Reflex)))?;
    Ok(FreePlan { purpose, source, reflex_spent })
}

/// `use_free` (TMD-ACT-1, TMD-ACT-2, TMD-ACT-3, TMD-ACT-4): a free action, once per round per purpose and
/// source unless a count and a timing are stated. Applied after [`check_use_free`].
fn use_free(
    s: &mut TmdEncounterState,
    character: &str,
    purpose: &Option<String>,
    source: &Option<String>,
    limits: (&Option<u32>, &Option<String>),
    reflex: bool,
    ev: &mut Ev,
) -> Result<()> {
    let FreePlan { purpose, source, reflex_spent } =
        check_use_free(s, character, purpose, source, limits, reflex)?;
    let c = ch_mut(s, character, "action.actor")?;
    if let Some(w) = reflex_spent {
        spend_reflex(c, w);
    }
    match c.free_uses.iter_mut().find(|u| u.purpose == purpose && u.source == source) {
        Some(u) => u.count += 1,
        None => c.free_uses.push(super::state::TmdFreeUses {
            purpose: purpose.clone(),
            source: source.clone(),
            count: 1,
        }),
    }
    // RULINGS 2026-12-05: a free action does not close the conversion window.
    ev.push(TmdEvent::FreeActionUsed { character: character.to_string(), purpose, source, reflex_spent });
    Ok(())
}

/// `overdraw`, checked (TMD-AP-11, TMD-AP-12, TMD-AP-13, TMD-SUR-3).
fn check_overdraw(s: &TmdEncounterState, character: &str, action_type: &TmdConvertType) -> Result<()> {
    need(s, character, "action.actor")?;
    if !matches!(s.phase, TmdPhase::Turns | TmdPhase::Delays | TmdPhase::Surprise) {
        return Err(ill("TMD-AP-11", "actions are overdrawn during combat rounds"));
    }
    // TMD-SUR-3: the surprise attacker has its one standard action and attacks once;
    // others may overdraw an action of the next round (e.g. for a resource's reflex, TMD-ACT-10).
    if s.phase == TmdPhase::Surprise && s.surprise.as_ref().is_some_and(|x| x.attacker == character) {
        return Err(ill("TMD-SUR-3", "the surprise attacker has only its one standard action"));
    }
    let c = ch(s, character, "action.actor")?;
    if c.disabled.contains(action_type) {
        return Err(ill(
            "TMD-AP-12",
            format_args!("the character cannot use, so cannot overdraw, {action_type:?}"),
        ));
    }
    if c.overdrawn.contains(action_type) {
        return Err(ill("TMD-AP-13", format_args!("{action_type:?} is already overdrawn")));
    }
    // TMD-AP-13 ("不能够反复透支"): not again while the last overdraw of the type
    // is being paid for (it blocks the type until the next turn start, TMD-AP-11);
    // otherwise one overdraw could follow another every round.
    if c.blocked.contains(action_type) {
        return Err(ill(
            "TMD-AP-13",
            format_args!("{action_type:?} was overdrawn and is paid for this round; it cannot be overdrawn again until the next turn start"),
        ));
    }
    let owed: u32 = c.overdrawn.iter().map(|t| t.cost()).sum::<u32>() + action_type.cost();
    if owed > BASE_AP_PER_TURN {
        return Err(ill(
            "TMD-AP-11",
            format_args!("overdrawn actions would cost {owed} AP, more than the {BASE_AP_PER_TURN} base AP of the next turn"),
        ));
    }
    Ok(())
}

/// `overdraw` (TMD-AP-11, TMD-AP-12, TMD-AP-13, TMD-SUR-3): an action of the next turn used now; its AP
/// is lost at the next turn start. Applied after [`check_overdraw`].
fn overdraw(
    s: &mut TmdEncounterState,
    character: &str,
    action_type: &TmdConvertType,
    ev: &mut Ev,
) -> Result<()> {
    let own = in_own_turn(s, character);
    ch_mut(s, character, "action.actor")?.overdrawn.push(*action_type);
    if own {
        s.converting = false;
    }
    ev.push(TmdEvent::Overdrawn {
        character: character.to_string(),
        action_type: *action_type,
        ap_owed: action_type.cost(),
    });
    ev.push(TmdEvent::ActionUsed {
        character: character.to_string(),
        action_type: action_type.action(),
        spent: vec![],
        out_of_turn: !own,
        ability: Some("overdraw".into()),
    });
    Ok(())
}

/// `retain`, checked (TMD-AP-11, TMD-AP-14).
fn check_retain(
    s: &TmdEncounterState,
    character: &str,
    action_type: &TmdConvertType,
    ability: &str,
) -> Result<()> {
    need(s, character, "action.actor")?;
    text_arg("action.ability", ability)?;
    if ability.is_empty() {
        return Err(Error::invalid("action.ability", "must not be empty"));
    }
    if !(s.phase == TmdPhase::Turns && in_own_turn(s, character)) {
        return Err(ill("TMD-AP-14", "an ability retains an action in its user's turn"));
    }
    let c = ch(s, character, "action.actor")?;
    if c.held.get(*action_type) == 0 {
        return Err(ill("TMD-AP-11", format_args!("no converted {action_type:?} action is held")));
    }
    if c.retained.len() >= MAX_RECORDS {
        return Err(Error::limit("action", "too many retained actions"));
    }
    records_grow(s, 1, 0)
}

/// `retain` (TMD-AP-11, TMD-AP-14): a held action retained by an ability until the ability uses it.
fn retain(
    s: &mut TmdEncounterState,
    character: &str,
    action_type: &TmdConvertType,
    ability: &str,
    ev: &mut Ev,
) -> Result<()> {
    let c = ch_mut(s, character, "action.actor")?;
    *c.held.get_mut(*action_type) = c.held.get(*action_type).saturating_sub(1);
    c.retained.push(TmdRetained { action_type: *action_type, ability: ability.to_string() });
    s.converting = false;
    ev.push(TmdEvent::Retained {
        character: character.to_string(),
        action_type: *action_type,
        ability: ability.to_string(),
    });
    Ok(())
}

/// `grant`, checked (TMD-AP-15, TMD-SCN-1).
fn check_grant(s: &TmdEncounterState, character: &str) -> Result<()> {
    need(s, character, "action.actor")?;
    not_ended(s)?;
    if ch(s, character, "action.actor")?.grants.len() >= MAX_RECORDS {
        return Err(Error::limit("action", "too many pending grants"));
    }
    records_grow(s, 1, 0)
}

/// `grant` (TMD-AP-15, TMD-SCN-1): an action granted by a resource, gained at the character's next turn
/// start.
fn grant(
    s: &mut TmdEncounterState,
    character: &str,
    action_type: &TmdConvertType,
    ev: &mut Ev,
) -> Result<()> {
    ch_mut(s, character, "action.actor")?.grants.push(*action_type);
    ev.push(TmdEvent::GrantQueued { character: character.to_string(), action_type: *action_type });
    Ok(())
}

/// `gain_ap`, checked (TMD-AP-3, TMD-AP-4, TMD-SCN-1).
fn check_gain_ap(s: &TmdEncounterState, character: &str, amount: &u32) -> Result<()> {
    need(s, character, "action.actor")?;
    not_ended(s)?;
    if *amount == 0 || *amount > MAX_GAIN {
        return Err(Error::out_of_range("action.amount", format_args!("must be 1..={MAX_GAIN}")));
    }
    Ok(())
}

/// `gain_ap` (TMD-AP-3, TMD-AP-4, TMD-SCN-1): extra AP, or out-of-turn-only AP, gained from a resource.
fn gain_ap(
    s: &mut TmdEncounterState,
    character: &str,
    amount: &u32,
    reflex_only: &bool,
    ev: &mut Ev,
) -> Result<()> {
    let c = ch_mut(s, character, "action.actor")?;
    let pool = if *reflex_only { &mut c.reflex_only_ap } else { &mut c.extra_ap };
    let before = *pool;
    *pool = pool.saturating_add(*amount).min(MAX_AP);
    let added = *pool - before;
    let gained = if *reflex_only { &mut c.gained_reflex_only_ap } else { &mut c.gained_extra_ap };
    *gained = gained.saturating_add(added).min(MAX_AP);
    ev.push(TmdEvent::ApGained {
        character: character.to_string(),
        amount: added,
        reflex_only: *reflex_only,
    });
    Ok(())
}

/// `set_disabled` (TMD-AP-12, TMD-SCN-1): a character loses (or regains) the ability to use an action type.
fn set_disabled(
    s: &mut TmdEncounterState,
    character: &str,
    action_type: &TmdConvertType,
    disabled: &bool,
    ev: &mut Ev,
) -> Result<()> {
    let c = ch_mut(s, character, "action.actor")?;
    // TMD-AP-12: a change only; losing a type already lost (or regaining one never lost)
    // is refused, as the listing never offers it.
    if c.disabled.contains(action_type) == *disabled {
        let now = if *disabled { "already cannot use" } else { "can already use" };
        return Err(ill("TMD-AP-12", format_args!("{character} {now} {action_type:?}")));
    }
    c.disabled.retain(|t| t != action_type);
    if *disabled {
        c.disabled.push(*action_type);
    }
    ev.push(TmdEvent::DisabledChanged {
        character: character.to_string(),
        action_type: *action_type,
        disabled: *disabled,
    });
    Ok(())
}

/// `end_turn`, checked (TMD-TIME-2, TMD-INT-1; the round limit when the round ends).
fn check_end_turn(s: &TmdEncounterState, character: &str) -> Result<()> {
    need(s, character, "action.actor")?;
    if !(s.phase == TmdPhase::Turns && s.current.as_deref() == Some(character)) {
        return Err(ill("TMD-TIME-2", "only the character whose turn it is can end it"));
    }
    no_chain(s, "end_turn")?;
    check_advance(s, s.queue.is_empty(), None)
}

/// `end_turn` (TMD-TIME-2, TMD-TIME-3, TMD-TIME-5, TMD-AP-2, TMD-AP-3, TMD-INT-1): the current character
/// ends its turn: its armed debuffs end, left-over base AP becomes extra AP, the next turn starts.
fn end_turn(s: &mut TmdEncounterState, character: &str, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    close_turn(s, character, ev)?;
    advance(s, dice, ev)
}

/// The end of `character`'s turn without starting the next (TMD-TIME-3, TMD-AP-2/3).
fn close_turn(s: &mut TmdEncounterState, character: &str, ev: &mut Ev) -> Result<()> {
    // TMD-TIME-3 (RULINGS): armed debuffs on this character end with its turn.
    end_effects(s, ev, "target_turn_end", |e| {
        e.duration == TmdDuration::DebuffOneRound && e.target == *character && e.armed
    });
    let c = ch_mut(s, character, "action.actor")?;
    // TMD-AP-2/3 (RULINGS): old extra AP is removed; left-over base AP becomes extra AP.
    // RULINGS 2026-12-05: extra AP gained during this turn is kept like left-over base AP
    // (extra AP is spent oldest first, so what is left of it is the gained part, up to it).
    let kept = c.extra_ap.min(c.gained_extra_ap);
    let removed = c.extra_ap - kept;
    let ro = c.reflex_only_ap;
    c.extra_ap = c.base_ap.saturating_add(kept).min(MAX_AP);
    c.base_ap = 0;
    c.reflex_only_ap = 0;
    c.reflex_conversions = 0;
    c.gained_extra_ap = 0;
    c.gained_reflex_only_ap = 0;
    c.turn_done = true;
    ev.push(TmdEvent::TurnEnded {
        character: character.to_string(),
        extra_ap_removed: removed,
        reflex_only_ap_removed: ro,
        extra_ap_carried: c.extra_ap,
    });
    Ok(())
}

/// `join`, checked (TMD-INI-4, TMD-SCN-1, TMD-INT-1).
fn check_join(s: &TmdEncounterState, characters: &[TmdCharacterSpec]) -> Result<()> {
    not_ended(s)?;
    no_chain(s, "join")?;
    let cs = specs_as_combatants(characters);
    initiative::check_combatants("action.characters", &cs, MAX_COMBATANTS)?;
    if s.characters.len() + characters.len() > MAX_COMBATANTS {
        return Err(Error::limit("action.characters", format_args!("at most {MAX_COMBATANTS} characters")));
    }
    for (i, c) in characters.iter().enumerate() {
        if s.ch(&c.id).is_some() {
            return Err(Error::invalid(format!("action.characters[{i}].id"), "already in the encounter"));
        }
    }
    Ok(())
}

/// `join` (TMD-INI-4, TMD-SCN-1, TMD-INT-1): characters join: they roll among themselves and go after the
/// last character; a single joiner rolls nothing (RULINGS 2026-12-05).
fn join(
    s: &mut TmdEncounterState,
    characters: &[TmdCharacterSpec],
    dice: &mut Dice,
    ev: &mut Ev,
) -> Result<()> {
    let cs = specs_as_combatants(characters);
    for spec in characters {
        s.characters.push(new_character(spec));
    }
    if s.phase == TmdPhase::Surprise {
        // Everyone rolls when combat formally begins.
        ev.push(TmdEvent::Joined { characters: characters.iter().map(|c| c.id.clone()).collect() });
        return Ok(());
    }
    // TMD-INI-4: joiners roll among themselves and go after the last character; a single
    // joiner rolls nothing (RULINGS 2026-12-05): it is simply placed last this round
    // (initiative_roll 0, initiative = base) and rolls normally from the next round.
    let single = cs.len() == 1;
    let entries = if single {
        cs.iter().map(|c| TmdInitiativeEntry::of(&c.id, &c.side, c.base_initiative, 0)).collect()
    } else {
        initiative::roll_order(&cs, dice)?
    };
    store_entries(s, &entries);
    let ids: Vec<String> = entries.iter().map(|e| e.id.clone()).collect();
    for id in &ids {
        if let Some(c) = s.characters.iter_mut().find(|c| &c.id == id) {
            c.late_joiner = true;
        }
        s.order.push(id.clone());
        if s.phase == TmdPhase::Turns {
            s.queue.push(id.clone());
        }
    }
    if !single {
        ev.push(TmdEvent::InitiativeRolled { reason: "join".into(), entries });
    }
    ev.push(TmdEvent::Joined { characters: ids });
    Ok(())
}

/// `set_base_initiative`, checked (TMD-INI-3, TMD-SCN-1).
fn check_set_base_initiative(s: &TmdEncounterState, character: &str, base_initiative: &i32) -> Result<()> {
    need(s, character, "action.actor")?;
    not_ended(s)?;
    if base_initiative.unsigned_abs() > MAX_BASE_INITIATIVE.unsigned_abs() {
        return Err(Error::out_of_range(
            "action.base_initiative",
            format_args!("within ±{MAX_BASE_INITIATIVE}"),
        ));
    }
    Ok(())
}

/// `set_base_initiative` (TMD-INI-3, TMD-SCN-1): a base initiative changes; an increase re-sorts the
/// order at the round's end.
fn set_base_initiative(
    s: &mut TmdEncounterState,
    character: &str,
    base_initiative: &i32,
    ev: &mut Ev,
) -> Result<()> {
    let c = ch_mut(s, character, "action.actor")?;
    let increased = *base_initiative > c.base_initiative;
    c.base_initiative = *base_initiative;
    // TMD-INI-3: an increase re-sorts everyone once every character has had its turn
    // (in the surprise round nobody has rolled yet: begin_combat uses the new value).
    if increased && s.phase != TmdPhase::Surprise {
        s.resort_pending = true;
    }
    ev.push(TmdEvent::InitiativeChanged {
        character: character.to_string(),
        base_initiative: *base_initiative,
        resort_at_round_end: s.resort_pending,
    });
    Ok(())
}

/// `apply_effect`, checked (TMD-TIME-3, TMD-SCN-2, TMD-SCN-1).
fn check_apply_effect(s: &TmdEncounterState, applier: &str, target: &str, name: &str) -> Result<()> {
    need(s, applier, "action.applier")?;
    need(s, target, "action.target")?;
    not_ended(s)?;
    text_arg("action.name", name)?;
    if name.is_empty() {
        return Err(Error::invalid("action.name", "must not be empty"));
    }
    if s.effects.len() >= MAX_EFFECTS || s.next_effect_id >= MAX_ROUND.saturating_mul(10) {
        return Err(Error::limit("action", format_args!("at most {MAX_EFFECTS} effects")));
    }
    Ok(())
}

/// `apply_effect` (TMD-TIME-3, TMD-SCN-2, TMD-SCN-1): an effect lasting one round (buff or debuff) or the
/// scene.
fn apply_effect(
    s: &mut TmdEncounterState,
    applier: &str,
    target: &str,
    name: &str,
    duration: &TmdDuration,
    ev: &mut Ev,
) -> Result<()> {
    // Not armed yet: a debuff ends at the end of the target's *next* turn, so the
    // target's next turn start arms it (even if applied during the target's turn).
    let armed = false;
    let effect = TmdEffect {
        id: s.next_effect_id,
        name: name.to_string(),
        applier: applier.to_string(),
        target: target.to_string(),
        duration: *duration,
        armed,
    };
    s.next_effect_id = s.next_effect_id.saturating_add(1);
    s.effects.push(effect.clone());
    ev.push(TmdEvent::EffectApplied { effect });
    Ok(())
}

/// `teleport` (TMD-SCN-4, TMD-SCN-1, TMD-INT-1): a teleport: within the scene when observed, else the
/// character leaves the scene.
fn teleport(
    s: &mut TmdEncounterState,
    character: &str,
    observed: &bool,
    dice: &mut Dice,
    ev: &mut Ev,
) -> Result<()> {
    if *observed {
        ev.push(TmdEvent::TeleportedWithinScene { character: character.to_string() });
        Ok(())
    } else {
        remove_character(s, character, dice, ev, "left_scene")
    }
}

/// `announce`, checked (TMD-INT-1, TMD-SUR-3, TMD-SUR-5).
fn check_announce(s: &TmdEncounterState, character: &str, label: &Option<String>) -> Result<()> {
    need(s, character, "action.actor")?;
    text_arg("action.label", label.as_deref().unwrap_or_default())?;
    if !matches!(s.phase, TmdPhase::Turns | TmdPhase::Surprise) {
        return Err(ill("TMD-INT-1", "actions are announced in the surprise round or in turns"));
    }
    // TMD-SUR-3: in the surprise round only the attacker acts; the others can only
    // react to its attack (an immune defender's reflex, TMD-SUR-5).
    if s.phase == TmdPhase::Surprise && s.surprise.as_ref().is_some_and(|x| x.attacker != character) {
        return Err(ill(
            "TMD-SUR-3",
            "only the surprise attacker acts in the surprise round; the others can only react",
        ));
    }
    no_chain(s, "announce")
}

/// `announce` (TMD-INT-1, TMD-SUR-3, TMD-SUR-5): an action is announced and opens an interrupt chain.
fn announce(s: &mut TmdEncounterState, character: &str, label: &Option<String>, ev: &mut Ev) -> Result<()> {
    let label = label.clone().unwrap_or_default();
    let snapshot = s
        .characters
        .iter()
        .map(|c| TmdApSnapshot {
            character: c.id.clone(),
            ap: c.base_ap.saturating_add(c.extra_ap).saturating_add(c.reflex_only_ap),
        })
        .collect();
    s.chain = Some(TmdChain {
        entries: vec![TmdChainEntry {
            id: 0,
            character: character.to_string(),
            label,
            via_reflex: false,
            interrupts: None,
            reasked: false,
            closed: false,
        }],
        snapshot,
        locked_out: Vec::new(),
        next_id: 1,
    });
    ev.push(TmdEvent::ChainStarted { character: character.to_string(), entry: 0 });
    Ok(())
}

/// `interrupt`, checked (TMD-INT-1, TMD-INT-2, TMD-INT-3, TMD-ACT-10, TMD-AP-11): the
/// action it spends, if any (a reflex or swift, or a held action).
fn check_interrupt(
    s: &TmdEncounterState,
    character: &str,
    reflex: &bool,
    using: &Option<TmdActionType>,
    label: &Option<String>,
) -> Result<Option<TmdActionType>> {
    need(s, character, "action.actor")?;
    text_arg("action.label", label.as_deref().unwrap_or_default())?;
    let Some(chain) = s.chain.as_ref() else {
        return Err(ill("TMD-INT-1", "there is no announced action to interrupt"));
    };
    let Some(front) = chain.entries.first() else {
        return Err(Error::invalid_data("state.chain.entries", "empty chain"));
    };
    if front.closed {
        return Err(ill("TMD-INT-3", "nobody interrupted when asked; no more interrupts until it resolves"));
    }
    if chain.locked_out.iter().any(|l| l == character) {
        return Err(ill("TMD-INT-2", "the side with less AP cannot interrupt again in this chain"));
    }
    if front.character == character {
        return Err(ill("TMD-INT-1", "a character does not interrupt its own action"));
    }
    if chain.entries.len() >= MAX_CHAIN {
        return Err(Error::limit("state.chain", format_args!("at most {MAX_CHAIN} pending actions")));
    }
    let c = ch(s, character, "action.actor")?;
    if *reflex {
        if in_own_turn(s, character) {
            return Err(ill("TMD-ACT-10", "a reflex action is used outside one's own turn"));
        }
        let w = reflex_choice(c, *using)?;
        records_grow(s, 0, usize::from(w == TmdActionType::Reflex))?;
        Ok(Some(w))
    } else if let Some(u) = using {
        let ut = held_type(*u, "action.using")?;
        check_held(c, ut, &None)?;
        Ok(Some(*u))
    } else {
        Ok(None)
    }
}

/// `interrupt` (TMD-INT-1, TMD-INT-2, TMD-INT-3, TMD-INT-4, TMD-ACT-10, RULINGS 2026-12-05):
/// an interrupt of the chain's front action. The inserted action resolves first
/// (TMD-INT-1, a reflex's included, TMD-INT-3), except when the front action is a PC's
/// out-of-turn action: then AP decides (TMD-INT-2), whatever interrupts it: more AP first,
/// ties earlier in the initiative order, and the one with less can't interrupt again in
/// this chain. The AP compared is the current AP less the AP gained from effects since
/// the unit's last turn start. The action the interrupt uses is spent as it is announced.
/// Applied after [`check_interrupt`].
fn interrupt(
    s: &mut TmdEncounterState,
    character: &str,
    reflex: &bool,
    using: &Option<TmdActionType>,
    label: &Option<String>,
    ignores_preemption: &bool,
    ev: &mut Ev,
) -> Result<()> {
    let spends = check_interrupt(s, character, reflex, using, label)?;
    let label = label.clone().unwrap_or_default();
    let front = s
        .chain
        .as_ref()
        .and_then(|c| c.entries.first().cloned())
        .ok_or_else(|| Error::new(crate::ErrorCode::Internal, "no chain to interrupt"))?;
    // TMD-INT-2 (RULINGS 2026-12-05): current AP less the AP gained from effects since
    // the unit's last turn start ("不会因效果获得AP而刷新").
    let ap_of = |id: &str| -> u32 {
        s.ch(id)
            .map(|c| {
                c.base_ap
                    .saturating_add(c.extra_ap.saturating_sub(c.gained_extra_ap))
                    .saturating_add(c.reflex_only_ap.saturating_sub(c.gained_reflex_only_ap))
            })
            .unwrap_or(0)
    };
    let (ai, at) = (ap_of(character), ap_of(&front.character));
    let (pi, pt) = (s.pos(character).unwrap_or(usize::MAX), s.pos(&front.character).unwrap_or(usize::MAX));
    let by_ap = s.ch(&front.character).is_some_and(|c| c.is_pc) && !in_own_turn(s, &front.character);
    let interrupter_first = !by_ap || ai > at || (ai == at && pi < pt);
    let own = in_own_turn(s, character);
    if let Some(u) = spends {
        let c = ch_mut(s, character, "action.actor")?;
        if *reflex {
            spend_reflex(c, u);
        } else {
            // RULINGS 2026-12-05: announcing the interrupt spends the converted action it uses
            // (an ability's use of a held action, TMD-AP-11); in one's own turn that use closes
            // the conversion window.
            spend_held(c, held_type(u, "action.using")?, &None);
            if own {
                s.converting = false;
            }
        }
    }
    let Some(chain) = s.chain.as_mut() else {
        return Err(Error::invalid_data("state.chain", "missing"));
    };
    let id = chain.next_id;
    chain.next_id = chain.next_id.saturating_add(1);
    let entry = TmdChainEntry {
        id,
        character: character.to_string(),
        label,
        via_reflex: *reflex,
        interrupts: Some(front.id),
        reasked: false,
        closed: false,
    };
    let (first, loser) = if interrupter_first {
        chain.entries.insert(0, entry);
        (character.to_string(), front.character.to_string())
    } else {
        chain.entries.insert(1, entry);
        (front.character.to_string(), character.to_string())
    };
    let loser = by_ap.then_some(loser);
    if let Some(l) = &loser {
        if !chain.locked_out.contains(l) {
            chain.locked_out.push(l.clone());
        }
    }
    ev.push(TmdEvent::InterruptDeclared {
        character: character.to_string(),
        entry: id,
        interrupts: front.id,
        interrupter_ap: ai,
        interrupted_ap: at,
        first,
        locked_out: loser,
    });
    if *ignores_preemption {
        ev.push(TmdEvent::PreemptionIgnored { character: character.to_string() });
    }
    Ok(())
}

/// `pass`, checked (TMD-INT-1, TMD-INT-3).
fn check_pass(s: &TmdEncounterState) -> Result<()> {
    let Some(chain) = s.chain.as_ref() else {
        return Err(ill("TMD-INT-1", "there is no pending action"));
    };
    let Some(front) = chain.entries.first() else {
        return Err(Error::invalid_data("state.chain.entries", "empty chain"));
    };
    if front.closed {
        return Err(ill("TMD-INT-3", "the pending action is already closed to interrupts"));
    }
    Ok(())
}

/// `pass` (TMD-INT-1, TMD-INT-3): nobody interrupts the front action when asked: it is closed to interrupts.
fn pass_interrupts(s: &mut TmdEncounterState, ev: &mut Ev) -> Result<()> {
    let Some(front) = s.chain.as_mut().and_then(|c| c.entries.first_mut()) else {
        return Err(Error::new(crate::ErrorCode::Internal, "no pending action to close"));
    };
    front.closed = true;
    ev.push(TmdEvent::InterruptsClosed { entry: front.id });
    Ok(())
}

/// `resolve`, checked (TMD-INT-1).
fn check_resolve(s: &TmdEncounterState) -> Result<()> {
    let Some(chain) = s.chain.as_ref() else {
        return Err(ill("TMD-INT-1", "there is no pending action"));
    };
    if chain.entries.is_empty() {
        return Err(Error::invalid_data("state.chain.entries", "empty chain"));
    }
    Ok(())
}

/// `resolve` (TMD-INT-1, TMD-INT-3): the front action resolves; after a reflex insert, interrupts are
/// asked for again.
fn resolve(s: &mut TmdEncounterState, ev: &mut Ev) -> Result<()> {
    let Some(chain) = s.chain.as_mut().filter(|c| !c.entries.is_empty()) else {
        return Err(Error::new(crate::ErrorCode::Internal, "no pending action to resolve"));
    };
    let done = chain.entries.remove(0);
    // TMD-INT-3: after a reflex insert resolves, interrupts are asked for again.
    if done.via_reflex {
        if let Some(t) = chain.entries.iter_mut().find(|e| Some(e.id) == done.interrupts) {
            t.reasked = true;
        }
    }
    ev.push(TmdEvent::Resolved { entry: done.id, character: done.character, label: done.label });
    if chain.entries.is_empty() {
        s.chain = None;
        ev.push(TmdEvent::ChainEnded {});
    }
    Ok(())
}

/// `end_encounter` (TMD-SCN-1, TMD-INT-1): the battle ends with a scene change.
fn end_encounter(s: &mut TmdEncounterState, ev: &mut Ev) -> Result<()> {
    s.phase = TmdPhase::Ended;
    s.current = None;
    s.converting = false;
    s.queue.clear();
    s.delays.clear();
    s.delay_cursor = 0;
    // TMD-AP-14 (RULINGS 2026-12-05): retained actions last until the encounter ends.
    for c in s.characters.iter_mut() {
        c.retained.clear();
    }
    change_scene(s, ev, "battle_end", false);
    ev.push(TmdEvent::EncounterEnded {});
    Ok(())
}

/// `leave` / an unobserved `teleport`, checked (TMD-SCN-1, TMD-SUR-3; the round limit
/// when the leaver's turn was the round's last).
fn check_remove(s: &TmdEncounterState, id: &str) -> Result<()> {
    if s.characters.len() <= 1 {
        return Err(ill("TMD-SCN-1", "the last character cannot leave; end the encounter instead"));
    }
    if s.surprise.as_ref().is_some_and(|x| x.attacker == id) && s.phase == TmdPhase::Surprise {
        return Err(ill("TMD-SUR-3", "the surprise attacker cannot leave before combat begins"));
    }
    if s.current.as_deref() == Some(id) && s.phase == TmdPhase::Turns {
        check_advance(s, s.queue.iter().all(|q| q == id), Some(id))?;
    }
    Ok(())
}

/// A character leaves (TMD-SCN-1, TMD-INI-5, TMD-INI-6): applied after [`check_remove`].
fn remove_character(
    s: &mut TmdEncounterState,
    id: &str,
    dice: &mut Dice,
    ev: &mut Ev,
    reason: &str,
) -> Result<()> {
    // Effects on the leaver end with it. Of the effects it applied, only a one-round
    // buff ends (its end, the applier's next turn start, can no longer come); a
    // one-round debuff still ends with its target's turn and a scene effect with the
    // scene (TMD-TIME-3, TMD-SCN-2; TMD-INI-6: no effect ends early).
    end_effects(s, ev, reason, |e| e.target == id);
    end_effects(s, ev, "applier_left", |e| e.applier == id && e.duration == TmdDuration::BuffOneRound);
    // TMD-INI-5/6: a delay on the leaver is dropped; the delayer keeps its turn.
    if let Some(p) = s.pos(id) {
        if p < s.delay_cursor as usize {
            s.delay_cursor -= 1;
        }
        s.order.remove(p);
    }
    s.delays.retain(|d| d.character != id && d.after != id);
    s.queue.retain(|q| q != id);
    s.characters.retain(|c| c.id != id);
    ev.push(TmdEvent::Left { character: id.to_string() });
    if s.current.as_deref() == Some(id) && s.phase == TmdPhase::Turns {
        advance(s, dice, ev)?;
    }
    Ok(())
}
