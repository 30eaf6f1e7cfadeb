//! `round_legal_actions`: candidate actions in the exact form `round_act` takes
//! (the legal ones are those the engine's check accepts), and each listed with its cost.

use super::engine::{next_pending, normalize, own_cost};
use super::types::*;
use crate::fap_map::catalog::{FmActionDef, FmActionPack, FmCost, FmResolution};
use crate::fap_map::points;

pub(crate) fn choice(c: &FmCost) -> Option<FmCost> {
    match c {
        FmCost::Fixed { .. } => None,
        other => Some(other.clone()),
    }
}

pub(crate) fn legal(
    action: FmRoundAction,
    cost: (i64, i64),
    choices: (Option<FmCost>, Option<FmCost>),
) -> FmLegalAction {
    FmLegalAction {
        action,
        fap_tenths: cost.0,
        map_tenths: cost.1,
        fap: points::decimal(cost.0),
        map: points::decimal(cost.1),
        fap_choice: choices.0,
        map_choice: choices.1,
    }
}

/// Declarations to offer for one action: its examples, else its minimum costs.
pub(crate) fn declaration_forms(a: &FmActionDef) -> Vec<FmDeclaration> {
    let base = FmDeclaration {
        action: a.id.clone(),
        example: None,
        fap_tenths: None,
        map_tenths: None,
        paired: None,
        condition: None,
        follow: None,
        targets: Vec::new(),
        target: None,
        damage: None,
    };
    let mut out: Vec<FmDeclaration> =
        a.examples.iter().map(|e| FmDeclaration { example: Some(e.id.clone()), ..base.clone() }).collect();
    let fap = if a.fap.default_amount().is_some() { None } else { Some(a.fap.min()) };
    let map = if a.map.default_amount().is_some() { None } else { Some(a.map.min()) };
    out.push(FmDeclaration { fap_tenths: fap, map_tenths: map, ..base });
    out
}

/// Every action worth trying (the legal ones are those the check accepts).
pub(crate) fn candidates(state: &FmRoundState, pack: &FmActionPack) -> Vec<FmRoundAction> {
    let mut out = Vec::new();
    for c in &state.combatants {
        let who = c.id.clone();
        match state.phase {
            FmPhase::Declaration => {
                for a in &pack.actions {
                    if !matches!(a.resolution, FmResolution::InOrder | FmResolution::OnTrigger) {
                        continue;
                    }
                    let mut forms = declaration_forms(a);
                    if a.pairs_with_action {
                        let base = forms.pop();
                        forms.clear();
                        for p in pack.actions.iter().filter(|p| !p.pairs_with_action) {
                            for pf in declaration_forms(p) {
                                if let Some(b) = &base {
                                    forms.push(FmDeclaration { paired: Some(Box::new(pf)), ..b.clone() });
                                }
                            }
                        }
                    }
                    if a.can_follow {
                        // FM-ACT-7: the same move following each other combatant.
                        let following: Vec<FmDeclaration> =
                            forms
                                .iter()
                                .flat_map(|d| {
                                    state.combatants.iter().filter(|o| o.id != c.id).map(move |o| {
                                        FmDeclaration { follow: Some(o.id.clone()), ..d.clone() }
                                    })
                                })
                                .collect();
                        forms.extend(following);
                    }
                    if a.attack {
                        // An attack on each other combatant, its damage at the minimum (1): the
                        // amount is the caller's.
                        let aimed: Vec<FmDeclaration> = forms
                            .iter()
                            .flat_map(|d| {
                                state.combatants.iter().filter(|o| o.id != c.id).map(move |o| FmDeclaration {
                                    target: Some(o.id.clone()),
                                    damage: Some(1),
                                    ..d.clone()
                                })
                            })
                            .collect();
                        forms.extend(aimed);
                    }
                    for d in forms {
                        if normalize(pack, &d, "declaration", 0).is_ok() {
                            out.push(FmRoundAction::Declare { actor: who.clone(), declaration: d });
                        }
                    }
                }
                out.push(FmRoundAction::Release { actor: who.clone() });
            }
            FmPhase::Resolution => {
                out.push(FmRoundAction::Resolve { actor: who.clone() });
                out.push(FmRoundAction::Skip { actor: who.clone() });
                if let Some(b) = state.window.as_ref().and_then(|w| pack.get(&w.block_action)) {
                    out.push(FmRoundAction::Block {
                        actor: who.clone(),
                        fap_tenths: b.fap.min().max(10),
                        target_fap_tenths: 0,
                        relative_t_tenths: 0,
                    });
                }
                if state.last_move.as_ref().is_some_and(|lm| lm.actor != c.id) {
                    out.push(FmRoundAction::Follow { actor: who.clone() });
                }
                out.push(FmRoundAction::Trigger { actor: who.clone() });
                out.push(FmRoundAction::TakeHit { actor: who.clone() });
            }
        }
        // Against an attack with damage, Evade and Jump evasion need the check's target
        // value: offered at its maximum (the value is the caller's).
        let target_value = state.attack.as_ref().and_then(|x| x.damage).map(|_| 10_000);
        for a in pack
            .actions
            .iter()
            .filter(|a| matches!(a.resolution, FmResolution::Reaction | FmResolution::Immediate))
        {
            let reaction = a.resolution == FmResolution::Reaction;
            out.push(FmRoundAction::Use {
                actor: who.clone(),
                action: a.id.clone(),
                agility_failed: false,
                target_value: if reaction { target_value } else { None },
                left_area: false,
                degree: None,
            });
        }
    }
    out.push(FmRoundAction::EndDeclarations {});
    out.push(FmRoundAction::EndRound {});
    out
}

/// A legal action as the listing shows it: with what it costs (amounts that may be
/// chosen at their minimum, and the choice).
pub(crate) fn listed(state: &FmRoundState, pack: &FmActionPack, action: FmRoundAction) -> FmLegalAction {
    let who = |id: &str| state.combatants.iter().find(|c| c.id == id);
    let next_cost = |id: &str| {
        who(id)
            .and_then(|c| next_pending(pack, c).and_then(|i| c.declared.get(i)))
            .map(|d| own_cost(&d.declaration))
            .unwrap_or((0, 0))
    };
    let (cost, choices) = match &action {
        FmRoundAction::Declare { declaration: d, .. } => {
            let cost = normalize(pack, d, "declaration", 0).map(|(_, f, m)| (f, m)).unwrap_or((0, 0));
            let ch = match pack.get(&d.action) {
                Some(a) if d.example.is_none() => (choice(&a.fap), choice(&a.map)),
                _ => (None, None),
            };
            (cost, ch)
        }
        FmRoundAction::Resolve { actor: combatant } | FmRoundAction::Follow { actor: combatant } => {
            (next_cost(combatant), (None, None))
        }
        FmRoundAction::Block { fap_tenths, .. } => {
            match state.window.as_ref().and_then(|w| pack.get(&w.block_action)) {
                Some(b) => ((*fap_tenths, b.map.min()), (choice(&b.fap), None)),
                None => ((*fap_tenths, 0), (None, None)),
            }
        }
        FmRoundAction::Trigger { actor: combatant } => (
            who(combatant).and_then(|c| c.readied.as_ref()).map(|r| own_cost(&r.paired)).unwrap_or((0, 0)),
            (None, None),
        ),
        FmRoundAction::Use { action: id, .. } => {
            (pack.get(id).map(|a| (a.fap.min(), a.map.min())).unwrap_or((0, 0)), (None, None))
        }
        FmRoundAction::Release { .. }
        | FmRoundAction::Skip { .. }
        | FmRoundAction::TakeHit { .. }
        | FmRoundAction::SetGrapple { .. }
        | FmRoundAction::EndDeclarations {}
        | FmRoundAction::EndRound {} => ((0, 0), (None, None)),
    };
    legal(action, cost, choices)
}
