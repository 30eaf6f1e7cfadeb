//! `round_legal_actions`: candidate actions in the exact form `round_act` takes;
//! the legal ones are those the engine accepts on a copy of the state.

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
    };
    let mut out: Vec<FmDeclaration> =
        a.examples.iter().map(|e| FmDeclaration { example: Some(e.id.clone()), ..base.clone() }).collect();
    let fap = if a.fap.default_amount().is_some() { None } else { Some(a.fap.min()) };
    let map = if a.map.default_amount().is_some() { None } else { Some(a.map.min()) };
    out.push(FmDeclaration { fap_tenths: fap, map_tenths: map, ..base });
    out
}

/// Every action worth trying (the legal ones are those `apply` accepts).
pub(crate) fn candidates(state: &FmRoundState, pack: &FmActionPack) -> Vec<FmLegalAction> {
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
                    for d in forms {
                        let Ok((n, f, m)) = normalize(pack, &d, "declaration", 0) else { continue };
                        let _ = n;
                        let ch =
                            if d.example.is_some() { (None, None) } else { (choice(&a.fap), choice(&a.map)) };
                        out.push(legal(
                            FmRoundAction::Declare { combatant: who.clone(), declaration: d },
                            (f, m),
                            ch,
                        ));
                    }
                }
                out.push(legal(FmRoundAction::Release { combatant: who.clone() }, (0, 0), (None, None)));
            }
            FmPhase::Resolution => {
                let cost = next_pending(pack, c)
                    .and_then(|i| c.declared.get(i))
                    .map(|d| own_cost(&d.declaration))
                    .unwrap_or((0, 0));
                out.push(legal(FmRoundAction::Resolve { combatant: who.clone() }, cost, (None, None)));
                out.push(legal(FmRoundAction::Skip { combatant: who.clone() }, (0, 0), (None, None)));
                if let Some(w) = &state.window {
                    if let Some(b) = pack.get(&w.block_action) {
                        let min = b.fap.min().max(10);
                        out.push(legal(
                            FmRoundAction::Block {
                                combatant: who.clone(),
                                fap_tenths: min,
                                target_fap_tenths: 0,
                                relative_t_tenths: 0,
                            },
                            (min, b.map.min()),
                            (choice(&b.fap), None),
                        ));
                    }
                }
                if let Some(lm) = &state.last_move {
                    if lm.actor != c.id {
                        out.push(legal(FmRoundAction::Follow { combatant: who.clone() }, cost, (None, None)));
                    }
                }
                let cost = c.readied.as_ref().map(|r| own_cost(&r.paired)).unwrap_or((0, 0));
                out.push(legal(FmRoundAction::Trigger { combatant: who.clone() }, cost, (None, None)));
            }
        }
        for a in pack
            .actions
            .iter()
            .filter(|a| matches!(a.resolution, FmResolution::Reaction | FmResolution::Immediate))
        {
            let cost = (a.fap.min(), a.map.min());
            out.push(legal(
                FmRoundAction::Use { combatant: who.clone(), action: a.id.clone(), agility_failed: false },
                cost,
                (None, None),
            ));
        }
    }
    out.push(legal(FmRoundAction::EndDeclarations {}, (0, 0), (None, None)));
    out.push(legal(FmRoundAction::EndRound {}, (0, 0), (None, None)));
    out
}
