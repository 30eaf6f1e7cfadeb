//! The TMD encounter state machine: `tmd.encounter_new`,
//! `tmd.encounter_legal_actions`, `tmd.encounter_act`.
//!
//! Pure functions over a serializable [`TmdEncounterState`]: every call takes
//! the state as JSON (untrusted: parsed and validated, `invalid_data`) and
//! `encounter_act` returns a new state plus a typed event log. An illegal
//! action is `illegal_action` naming the rule ID; it is refused by a pure check
//! before anything changes.
//!
//! Flow: optional surprise round (round 0: the attacker's one standard
//! action, TMD-SUR-3; reflexes for immune defenders, TMD-SUR-5) →
//! `begin_combat` rolls initiative (TMD-INI-1/2/7) → each round: delays
//! (TMD-INI-5) → `start_turns` → turns (14 base AP, conversions at turn start,
//! actions, `end_turn`) → round end (TMD-AP-9, TMD-INI-3/4) → next round.

pub mod action;
pub mod engine;
mod sentences;
pub mod state;

pub use action::{TmdAction, TmdCharacterSpec, TmdEvent, TmdLoggedEvent};
pub use state::*;

use super::actions::{TmdActionType, TmdConvertType, TmdVariants};
use super::initiative::{check_combatants, MAX_COMBATANTS};
use crate::dice::{Dice, Roll};
use crate::error::quote;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// The surprise round's attacker and its conditions (TMD-SUR-2: both are required).
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdSurpriseArgs {
    /// The attacker's id.
    pub attacker: String,
    /// Condition 1: the attack has 措手不及 or 先制.
    pub surprise_attack: bool,
    /// Condition 2: the defenders cannot locate or perceive the attacker.
    pub undetected: bool,
}

/// Arguments of `tmd.encounter_new`.
///
/// `rolls`: Scripted d10s: without a surprise round, one per character in the given order, then tie-breaks.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdEncounterNewArgs {
    /// The characters (1..=100).
    pub characters: Vec<TmdCharacterSpec>,
    /// Start with a surprise round (TMD-SUR); without it, initiative is rolled now.
    #[serde(default)]
    pub surprise: Option<TmdSurpriseArgs>,
    /// Rule variants, stored in the state.
    #[serde(default)]
    pub variants: TmdVariants,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `tmd.encounter_new` and `tmd.encounter_act`.
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdEncounterResult {
    /// The new state.
    pub state: TmdEncounterState,
    /// What happened, in order, each with its `rule` and a `text` sentence.
    pub events: Vec<TmdLoggedEvent>,
    /// Every die rolled, in consumption order.
    pub rolls: Vec<Roll>,
}

crate::act_shapes!(
    /// Arguments of `tmd.encounter_act`.
    ///
    /// `seed`: Seed. Only these roll d10s: `begin_combat` (everyone), `join` (the joiners), and an action that ends a round (`end_turn`, `leave`, `teleport`) when an initiative rose (TMD-INI-3) or late joiners are slotted in (TMD-INI-4).
    /// `rolls`: Scripted d10s. `begin_combat`: one per character in `state.characters` order; `join`: one per joiner in the given order; round end: one per late joiner in joining order. Then cross-side tie-breaks as in `tmd.initiative` (at a round-end re-sort only for new ties: ties already broken between characters whose totals did not change keep their order).
    TmdEncounterActArgs,
    "TmdEncounterState",
    TmdAction
);

/// What a legal action costs.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdCost {
    /// AP spent now (conversions) or owed at the next turn start (overdraw).
    pub ap: u32,
    /// Held actions spent.
    pub actions: Vec<TmdActionType>,
}

/// One legal action, exactly as `encounter_act` accepts it.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdLegalAction {
    /// The action.
    pub action: TmdAction,
    /// Its cost.
    pub cost: TmdCost,
}

crate::legal_shapes!(
    /// Arguments of `tmd.encounter_legal_actions`.
    TmdEncounterLegalArgs,
    /// Result of `tmd.encounter_legal_actions`.
    TmdEncounterLegalResult,
    "TmdEncounterState",
    /// Every legal action with no caller-chosen value (interrupts in initiative order,
    /// TMD-INT-1), in its default form. Annotations (`ability`, `uses_per_round`,
    /// `label`, `purpose`/`source`/`timing`, `ignores_preemption`) may be added to a
    /// listed action; an ability's out-of-turn use of a held action (TMD-AP-11)
    /// needs an `ability` and is therefore not listed. The GM's actions that take
    /// values only the GM chooses (`gain_ap`, `set_base_initiative`, `apply_effect`,
    /// `join`, `retain`) are not listed: `encounter_act` takes them whenever the rules
    /// allow them.
    actions: TmdLegalAction,
    viewer: "a character's id or a side."
);

/// Parse and validate an untrusted state.
pub fn load_state(value: &serde_json::Value) -> Result<TmdEncounterState> {
    let s: TmdEncounterState = crate::ops::parse_data("state", value.clone())?;
    s.validate()?;
    Ok(s)
}

/// `tmd.encounter_new` — a new encounter. TMD-SCN-1/5: the battle's start is a
/// scene change (with a surprise round, the old scene ends now and the new one
/// begins with the surprise round). TMD-SUR-2: both surprise conditions are
/// required. Without a surprise round, initiative is rolled at once.
pub fn encounter_new(args: &TmdEncounterNewArgs) -> Result<TmdEncounterResult> {
    let cs = engine::specs_as_combatants(&args.characters);
    check_combatants("characters", &cs, MAX_COMBATANTS)?;
    let mut dice = args.source.dice()?;
    let mut s = TmdEncounterState {
        format: STATE_FORMAT,
        variants: args.variants,
        phase: TmdPhase::Delays,
        round: 0,
        scene: 0,
        scene_seconds: 0,
        characters: args.characters.iter().map(engine::new_character).collect(),
        order: Vec::new(),
        delays: Vec::new(),
        delay_cursor: 0,
        current: None,
        converting: false,
        queue: Vec::new(),
        resort_pending: false,
        surprise: None,
        chain: None,
        effects: Vec::new(),
        next_effect_id: 0,
        outcome: None,
    };
    let mut ev = Vec::new();
    match &args.surprise {
        Some(sp) => {
            let Some(att) = s.ch(&sp.attacker).cloned() else {
                return Err(Error::invalid(
                    "surprise.attacker",
                    format_args!("no character {}", quote(&sp.attacker)),
                ));
            };
            if !(sp.surprise_attack && sp.undetected) {
                return Err(Error::illegal(
                    "TMD-SUR-2",
                    "a surprise round needs both a 措手不及/先制 attack and defenders unable to perceive it",
                ));
            }
            // TMD-SCN-5: the old scene ends as the surprise round is about to begin.
            ev.push(TmdEvent::SceneEnded { scene: 0, reason: "surprise_round".into() });
            s.scene = 1;
            s.phase = TmdPhase::Surprise;
            s.current = Some(att.id.clone());
            s.surprise = Some(TmdSurprise { attacker: att.id.clone(), attack_used: false });
            ev.push(TmdEvent::SurpriseRoundStarted { attacker: att.id.clone() });
            ev.push(TmdEvent::SceneStarted { scene: 1 });
            for c in s.characters.iter_mut() {
                if c.id == att.id {
                    // TMD-SUR-3: exactly one standard action.
                    c.held.standard = 1;
                } else if c.immune_to_surprise && c.side != att.side {
                    // TMD-SUR-5: one reflex, usable at once (kept like any reflex to the end of round 1).
                    c.reflexes.push(1);
                    ev.push(TmdEvent::SurpriseReflexGranted { character: c.id.clone() });
                }
            }
        }
        None => {
            ev.push(TmdEvent::SceneEnded { scene: 0, reason: "battle_start".into() });
            s.scene = 1;
            ev.push(TmdEvent::SceneStarted { scene: 1 });
            engine::roll_all_and_begin(&mut s, &mut dice, &mut ev)?;
        }
    }
    s.validate().map_err(|e| Error::new(crate::ErrorCode::Internal, format!("new state invalid: {e}")))?;
    Ok(TmdEncounterResult { state: s, events: sentences::logged(ev), rolls: dice.take_rolls() })
}

/// One action on a validated state, in place (the tests' shortcut; the operation and
/// the handle take the engine's check and apply): checked
/// ([`engine::check`]), then applied ([`commit`]); a refused action changes nothing.
/// The dice's rolls are left for the caller.
#[cfg(test)]
pub(crate) fn act_on(
    work: &mut TmdEncounterState,
    action: &TmdAction,
    dice: &mut Dice,
) -> Result<Vec<TmdLoggedEvent>> {
    engine::check(work, action)?;
    commit(work, action, dice)
}

/// Apply an action [`engine::check`] accepted, in place: its events. It fails only if
/// scripted dice run out, or with an internal error if the new state breaks an
/// invariant (the state is validated after every action).
pub(crate) fn commit(
    work: &mut TmdEncounterState,
    action: &TmdAction,
    dice: &mut Dice,
) -> Result<Vec<TmdLoggedEvent>> {
    let mut ev = Vec::new();
    engine::apply(work, action, dice, &mut ev)?;
    work.validate()
        .map_err(|e| Error::new(crate::ErrorCode::Internal, format!("state became invalid: {e}")))?;
    Ok(sentences::logged(ev))
}

/// Every action worth offering now (legal or not): each conversion at every count the
/// character's AP could pay for (TMD-AP-5: each conversion costs at least its type's
/// AP), then the actions without a count.
pub(crate) fn candidates(s: &TmdEncounterState) -> Vec<TmdAction> {
    let mut v = Vec::new();
    for (action, id) in conversion_probes(s) {
        let Some(c) = s.ch(&id) else { continue };
        let (ap, per) = match &action {
            TmdAction::Convert { action_type, .. } => {
                let per = action_type.convert_type().map_or(1, |t| t.cost());
                (c.base_ap.saturating_add(c.extra_ap), per)
            }
            _ => {
                let own = s.current.as_deref() == Some(id.as_str());
                let extra = if own { 0 } else { c.extra_ap };
                (extra.saturating_add(c.reflex_only_ap), TmdConvertType::Swift.cost())
            }
        };
        let most = (ap / per.max(1)).min(engine::MAX_COUNT);
        v.extend((1..=most).map(|n| with_count(&action, n)));
    }
    v.extend(uncounted_candidates(s));
    v
}

fn uncounted_candidates(s: &TmdEncounterState) -> Vec<TmdAction> {
    use TmdAction as A;
    let mut v = Vec::new();
    let ids: Vec<String> = if s.order.is_empty() {
        s.characters.iter().map(|c| c.id.clone()).collect()
    } else {
        s.order.clone()
    };
    if s.phase == TmdPhase::Ended {
        return v;
    }
    // The GM's entries: a hit of the least damage (the amount is the GM's) on each
    // character tracking HP, and each character standing put down.
    for c in &s.characters {
        if c.hp.is_some() {
            v.push(A::GmDamage { target: c.id.clone(), amount: 1 });
        }
        if !c.down {
            v.push(A::GmDown { target: c.id.clone() });
        }
    }
    // Interrupt chain first (asked in initiative order, TMD-INT-1).
    if s.chain.is_some() {
        v.push(A::Resolve {});
        v.push(A::Pass {});
        for id in &ids {
            v.push(A::Interrupt {
                actor: id.clone(),
                reflex: false,
                using: None,
                label: None,
                ignores_preemption: false,
            });
            for u in [TmdActionType::Reflex, TmdActionType::Swift] {
                v.push(A::Interrupt {
                    actor: id.clone(),
                    reflex: true,
                    using: Some(u),
                    label: None,
                    ignores_preemption: false,
                });
            }
        }
    }
    match s.phase {
        TmdPhase::Surprise => v.push(A::BeginCombat {}),
        TmdPhase::Delays => {
            for (i, a) in ids.iter().enumerate() {
                for b in ids.iter().skip(i + 1) {
                    v.push(A::Delay { actor: a.clone(), after: b.clone() });
                }
            }
            v.push(A::StartTurns {});
        }
        _ => {}
    }
    if let Some(cur) = &s.current {
        for t in TmdActionType::ALL {
            match t {
                TmdActionType::Free | TmdActionType::Reflex => {}
                TmdActionType::FullRound => {
                    for comp in [TmdActionType::Move, TmdActionType::Acrobatic] {
                        v.push(A::UseAction {
                            actor: cur.clone(),
                            action_type: t,
                            using: Some(TmdActionType::Standard),
                            companion: Some(comp),
                            ability: None,
                            uses_per_round: None,
                            attack: None,
                        });
                    }
                }
                _ => {
                    for u in TmdActionType::ALL {
                        if u.rank() >= t.rank() && u.convert_type().is_some() && u != TmdActionType::Reflex {
                            v.push(A::UseAction {
                                actor: cur.clone(),
                                action_type: t,
                                using: Some(u),
                                companion: None,
                                ability: None,
                                uses_per_round: None,
                                attack: None,
                            });
                        }
                    }
                }
            }
        }
        v.push(A::UseFree {
            actor: cur.clone(),
            purpose: None,
            source: None,
            uses_per_round: None,
            timing: None,
            reflex: false,
        });
        v.push(A::EndTurn { actor: cur.clone() });
    }
    for id in &ids {
        if s.current.as_deref() != Some(id.as_str()) {
            for u in [TmdActionType::Reflex, TmdActionType::Swift] {
                v.push(A::UseAction {
                    actor: id.clone(),
                    action_type: TmdActionType::Reflex,
                    using: Some(u),
                    companion: None,
                    ability: None,
                    uses_per_round: None,
                    attack: None,
                });
            }
        }
    }
    if s.chain.is_none() {
        for id in &ids {
            v.push(A::Announce { actor: id.clone(), label: None });
        }
    }
    for id in &ids {
        for t in TmdConvertType::ALL {
            v.push(A::Overdraw { actor: id.clone(), action_type: t });
        }
    }
    for id in &ids {
        for t in TmdConvertType::ALL {
            v.push(A::Grant { actor: id.clone(), action_type: t });
            let dis = s.ch(id).is_some_and(|c| c.disabled.contains(&t));
            v.push(A::SetDisabled { actor: id.clone(), action_type: t, disabled: !dis });
        }
        v.push(A::Leave { actor: id.clone() });
        v.push(A::Teleport { actor: id.clone(), observed: true });
        v.push(A::Teleport { actor: id.clone(), observed: false });
    }
    for e in &s.effects {
        v.push(A::RemoveEffect { id: e.id });
    }
    v.push(A::SceneChange {});
    v.push(A::EndEncounter {});
    v
}

/// Candidate actions for the engine harness: every trial candidate and each
/// conversion probe at a random count (legal or not).
#[cfg(test)]
pub(crate) fn probe_candidates(s: &TmdEncounterState, rng: &mut crate::dice::prng::Prng) -> Vec<TmdAction> {
    let mut v = uncounted_candidates(s);
    for (a, _) in conversion_probes(s) {
        v.push(with_count(&a, 1 + (rng.next_u64() % 4) as u32));
    }
    v
}

fn with_count(a: &TmdAction, n: u32) -> TmdAction {
    match a {
        TmdAction::Convert { actor: character, action_type, .. } => {
            TmdAction::Convert { actor: character.clone(), action_type: *action_type, count: n }
        }
        TmdAction::ConvertReflex { actor: character, .. } => {
            TmdAction::ConvertReflex { actor: character.clone(), count: n }
        }
        other => other.clone(),
    }
}

/// Conversion actions to probe (count 1), with the id of the character they touch.
fn conversion_probes(s: &TmdEncounterState) -> Vec<(TmdAction, String)> {
    let mut v = Vec::new();
    if s.phase == TmdPhase::Ended {
        return v;
    }
    if let (Some(cur), true) = (&s.current, s.converting) {
        for t in TmdConvertType::ALL {
            v.push((
                TmdAction::Convert { actor: cur.clone(), action_type: t.action(), count: 1 },
                cur.clone(),
            ));
        }
    }
    for c in &s.characters {
        let own = s.current.as_deref() == Some(c.id.as_str());
        let usable = if own { c.reflex_only_ap } else { c.extra_ap.saturating_add(c.reflex_only_ap) };
        if usable >= 2 && (!own || (s.phase == TmdPhase::Turns && s.converting)) {
            v.push((TmdAction::ConvertReflex { actor: c.id.clone(), count: 1 }, c.id.clone()));
        }
    }
    v
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod vector_gen;
