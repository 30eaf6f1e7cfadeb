//! The FAP/MAP round as a pure state machine (`round_new`, `round_legal_actions`,
//! `round_act`). The state is plain JSON the caller keeps; every call validates
//! it as untrusted data (`invalid_data`) and returns a new state only on success.
//!
//! ## The round
//! 1. **Declaration phase** (FM-DEF-4): each character declares its actions one
//!    `declare` at a time. Declarations must fit the remaining pools together
//!    (FM-AP-4, RULINGS: an action needs its full cost left), and the Move /
//!    Jump / Regain footing / Jump evasion cap of three per round is counted
//!    (FM-LIM-1). Actions needing no declaration (Evade, Jump evasion, Speech)
//!    cannot be declared (FM-LIM-2). A Readied action is declared alone with one
//!    paired action (FM-ACT-19). `end_declarations` starts the resolution.
//! 2. **Resolution phase** (FM-DEF-1, FM-DEF-3): the character first in the
//!    action order `resolve`s (or `skip`s) its next declared action, paying its
//!    cost (FM-AP-4). The order is recomputed after every step: carried-over
//!    sustained actions first (FM-ACT-18), then descending Reaction — 0 for a
//!    character who declared Full standby (FM-ACT-15), −1 for the next action
//!    after Speech (FM-ACT-20) — ties by higher Agility, then the caller's order
//!    of combatants (RULINGS). Out of order, at any time: `use` an undeclared
//!    action (Evade needs FAP ≥ 1, Speech MAP ≥ 1, Jump evasion costs 1 FAP and
//!    counts toward the cap; FM-LIM-4), `block` the move or attack just resolved
//!    with a declared block (FM-ACT-8, FM-ACT-12; once per target action), and
//!    `trigger` an armed readied action's paired action (FM-ACT-19).
//! 3. `end_round` (when nobody has a declared action left) refills both pools
//!    (FM-AP-5), carries resolved sustained actions into the next round, where
//!    they are resolved first (FM-ACT-18), and keeps an armed readied action
//!    (while it is armed only option commands may be declared; `release` drops it).
//!
//! Readings where the rulebook is silent (documented, not from RULINGS): the
//! paired action of a readied action is paid when it is triggered; Speech's −1
//! is not cumulative and lasts until the speaker's next action; Evade and Jump
//! evasion may be used at any time in the resolution phase (the caller knows
//! when an attack is made), their checks are `fap_map.evasion_check` and
//! `fap_map.jump_evasion`; a blocked character's resisting FAP is deducted
//! from its own pool and the blocker's FAP is spent whatever the outcome.

use super::catalog::{self, FmActionDef, FmActionPack, FmCategory, FmCost, FmOrderEffect, FmResolution};
use super::checks::{self, block_outcome, FmBlockContestResult, FmPoolTraits};
use super::points::{self, MAX_TENTHS};
use crate::error::{Error, ErrorCode, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most combatants in one battle.
pub const MAX_COMBATANTS: usize = 20;
/// Most declarations one character holds in a round.
pub const MAX_DECLARED: usize = 20;
/// Highest round number.
pub const MAX_ROUND: u32 = 1_000_000;
/// FM-LIM-1: Move, Jump, Regain footing and Jump evasion share 3 per round.
pub const MOVE_CAP: u32 = 3;
/// Longest combatant id or readied condition, in characters.
pub const MAX_LABEL: usize = 200;

// ---------------------------------------------------------------- types

/// One combatant at the start of a battle.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmCombatantInit {
    /// Unique id (1..=200 characters).
    pub id: String,
    /// 反応力 Reaction, 0..=1000: FAP and the action order.
    pub reaction: i64,
    /// 魔力 Magic power, 0..=1000: MAP.
    pub magic: i64,
    /// 敏捷力 Agility, 0..=1000: breaks order ties.
    pub agility: i64,
    /// Trait effects on the pools (see `fap_map.pools`).
    #[serde(default)]
    pub traits: Option<FmPoolTraits>,
}

/// Arguments of `fap_map.round_new`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmRoundNewArgs {
    /// The combatants, 1..=20; their order breaks remaining order ties.
    pub combatants: Vec<FmCombatantInit>,
    /// A caller's own action pack (see `fap_map.actions`); default: the built-in pack.
    /// Pass the same pack to every later call.
    #[serde(default)]
    pub data: Option<Value>,
}

/// Round phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FmPhase {
    /// FM-DEF-4: characters declare their actions.
    Declaration,
    /// FM-DEF-3: declared actions are resolved in action order.
    Resolution,
}

/// Status of a declared action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FmStatus {
    /// Not resolved yet.
    Pending,
    /// Resolved and paid.
    Resolved,
    /// Given up (not paid).
    Skipped,
    /// A declared block that has been used.
    Used,
}

/// An action as declared (and as round_act accepts it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmDeclaration {
    /// Catalogue action id (`move`, `direct_attack`, …).
    pub action: String,
    /// An example of the action with a fixed cost (`draw_sword`); sets the costs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// FAP cost in tenths; required when the catalogue says `varies` or gives a choice,
    /// defaults to the fixed cost or the range's minimum. Filled in the stored state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fap_tenths: Option<i64>,
    /// MAP cost in tenths, as `fap_tenths`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_tenths: Option<i64>,
    /// FM-ACT-19: the action paired with a readied action (required for it, forbidden otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired: Option<Box<FmDeclaration>>,
    /// FM-ACT-19: the situation that triggers a readied action (free text, optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
}

/// A declaration held in the state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmDeclared {
    /// The declaration, with its costs filled in.
    pub declaration: FmDeclaration,
    /// Where it stands.
    pub status: FmStatus,
    /// True for a sustained action carried over from an earlier round (resolved first, FM-ACT-18).
    #[serde(default)]
    pub carried: bool,
}

/// An armed readied action (FM-ACT-19).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmReadied {
    /// The paired action, fired by `trigger`.
    pub paired: FmDeclaration,
    /// The declared situation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
}

/// One combatant in the round state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmCombatant {
    /// Unique id.
    pub id: String,
    /// Reaction (action order).
    pub reaction: i64,
    /// Magic power.
    pub magic: i64,
    /// Agility (order ties).
    pub agility: i64,
    /// FAP cap, tenths.
    pub fap_max_tenths: i64,
    /// MAP cap, tenths.
    pub map_max_tenths: i64,
    /// FAP left this round, tenths.
    pub fap_tenths: i64,
    /// MAP left this round, tenths.
    pub map_tenths: i64,
    /// This round's declarations (and carried sustained actions).
    #[serde(default)]
    pub declared: Vec<FmDeclared>,
    /// FM-LIM-1: Move/Jump/Regain footing declarations plus Jump evasions this round.
    #[serde(default)]
    pub move_cap_used: u32,
    /// FM-ACT-20: the next action orders at Reaction − 1.
    #[serde(default)]
    pub speech_penalty: bool,
    /// FM-ACT-19: an armed readied action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readied: Option<FmReadied>,
}

/// The action just resolved that declared blocks may stop (FM-ACT-8, FM-ACT-12).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmWindow {
    /// Who is acting.
    pub actor: String,
    /// The action (`move`, `direct_attack`, …).
    pub action: String,
    /// The block action that applies (`block_movement`, `block_attack`).
    pub block_action: String,
    /// Who has tried to block it (once each).
    #[serde(default)]
    pub blockers: Vec<String>,
    /// True once a block has held (the move ended / the attack is negated).
    #[serde(default)]
    pub blocked: bool,
}

/// The whole round state (keep it and pass it back).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmRoundState {
    /// The id of the action pack in use.
    pub pack_id: String,
    /// Round number, from 1.
    pub round: u32,
    /// Phase.
    pub phase: FmPhase,
    /// The combatants, in the caller's order.
    pub combatants: Vec<FmCombatant>,
    /// The move or attack just resolved, open to blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<FmWindow>,
}

/// One action for `round_act`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FmRoundAction {
    /// FM-DEF-4: declare one action (declaration phase).
    Declare {
        /// Who declares.
        combatant: String,
        /// The action.
        declaration: FmDeclaration,
    },
    /// Drop a carried readied action (FM-ACT-19) and carried sustained actions (FM-ACT-18) (declaration phase).
    Release {
        /// Who.
        combatant: String,
    },
    /// End the declaration phase and start resolving (FM-DEF-4 → FM-DEF-3).
    EndDeclarations {},
    /// FM-DEF-1: the character first in the action order resolves its next declared action and pays for it.
    Resolve {
        /// Who (must be first in the order).
        combatant: String,
    },
    /// The character first in the order gives up its next declared action (no cost).
    Skip {
        /// Who (must be first in the order).
        combatant: String,
    },
    /// FM-LIM-2: use an action that needs no declaration (`evade`, `jump_evasion`, `speech`).
    Use {
        /// Who.
        combatant: String,
        /// The action id.
        action: String,
    },
    /// FM-ACT-8 / FM-ACT-12: a declared block against the move or attack just resolved.
    Block {
        /// The blocker.
        combatant: String,
        /// FAP the blocker spends, tenths (≥ 10).
        fap_tenths: i64,
        /// FAP the blocked character spends to resist, tenths (default 0).
        #[serde(default)]
        target_fap_tenths: i64,
        /// 相対T値 relative T value, tenths (default 0).
        #[serde(default)]
        relative_t_tenths: i64,
    },
    /// FM-ACT-19: the readied situation occurred: resolve the paired action now, out of order.
    Trigger {
        /// Who.
        combatant: String,
    },
    /// End the round: refill pools (FM-AP-5), carry sustained and readied actions over.
    EndRound {},
}

/// Arguments of `fap_map.round_legal_actions`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmRoundStateArgs {
    /// The state from the last `round_new` / `round_act`.
    pub state: Value,
    /// The action pack given to `round_new`, if any.
    #[serde(default)]
    pub data: Option<Value>,
}

/// Arguments of `fap_map.round_act`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FmRoundActArgs {
    /// The state from the last `round_new` / `round_act`.
    pub state: Value,
    /// The action to apply.
    pub action: FmRoundAction,
    /// The action pack given to `round_new`, if any.
    #[serde(default)]
    pub data: Option<Value>,
}

/// One entry of the action order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FmOrderEntry {
    /// Who.
    pub combatant: String,
    /// True when the next action is a carried sustained action (resolved first, FM-ACT-18).
    pub first: bool,
    /// Reaction used for the order (0 after Full standby, −1 after Speech).
    pub order_value: i64,
    /// Agility (first tie-break).
    pub agility: i64,
    /// Declared actions still to resolve.
    pub pending: u32,
}

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FmEventKind {
    /// A battle started.
    Started,
    /// An action was declared.
    Declared,
    /// A carried readied/sustained action was dropped.
    Released,
    /// Declarations ended.
    DeclarationsEnded,
    /// A declared action was resolved and paid.
    Resolved,
    /// A declared action was given up.
    Skipped,
    /// An undeclared action was used.
    Used,
    /// A block contest.
    Blocked,
    /// A readied action's paired action was resolved.
    Triggered,
    /// A round ended; a new one began with full pools.
    RoundEnded,
}

/// One event of a `round_act` call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FmEvent {
    /// What happened.
    pub kind: FmEventKind,
    /// The rule applied.
    pub rule: String,
    /// Who acted, if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combatant: Option<String>,
    /// The action id, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// FAP spent by `combatant`, tenths.
    pub fap_spent_tenths: i64,
    /// MAP spent by `combatant`, tenths.
    pub map_spent_tenths: i64,
    /// FAP `combatant` has left, tenths (and as a decimal in `fap_left`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fap_left_tenths: Option<i64>,
    /// FAP left as a decimal number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fap_left: Option<f64>,
    /// MAP `combatant` has left, tenths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_left_tenths: Option<i64>,
    /// MAP left as a decimal number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_left: Option<f64>,
    /// For blocks: the contest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<FmBlockContestResult>,
    /// For blocks: the blocked character and the FAP it spent (tenths).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// For blocks: FAP the blocked character spent, tenths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_fap_spent_tenths: Option<i64>,
    /// English description.
    pub text: String,
}

/// Result of `fap_map.round_new` and `fap_map.round_act`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct FmRoundResult {
    /// The new state.
    pub state: FmRoundState,
    /// What happened, in order.
    pub events: Vec<FmEvent>,
    /// Whose declared action resolves next (resolution phase), if anyone's.
    #[serde(default)]
    pub current: Option<String>,
    /// The action order of those with declared actions left (resolution phase; a preview in the declaration phase).
    pub order: Vec<FmOrderEntry>,
}

/// A legal action with its cost.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct FmLegalAction {
    /// Exactly as `round_act` accepts it.
    pub action: FmRoundAction,
    /// FAP it costs as listed, tenths (for a declaration: the amount reserved, paired action included).
    pub fap_tenths: i64,
    /// MAP it costs as listed, tenths.
    pub map_tenths: i64,
    /// FAP as a decimal number.
    pub fap: f64,
    /// MAP as a decimal number.
    pub map: f64,
    /// When the FAP amount may be chosen (range, choice, varies): the catalogue cost; the listed amount is its minimum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fap_choice: Option<FmCost>,
    /// Likewise for MAP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_choice: Option<FmCost>,
}

/// Result of `fap_map.round_legal_actions`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct FmLegalActionsResult {
    /// Every legal action now.
    pub legal: Vec<FmLegalAction>,
    /// Whose declared action resolves next, if anyone's.
    #[serde(default)]
    pub current: Option<String>,
    /// The action order.
    pub order: Vec<FmOrderEntry>,
}

// ---------------------------------------------------------------- helpers

fn label(field: &str, s: &str) -> Result<()> {
    if s.is_empty() || s.chars().count() > MAX_LABEL {
        return Err(Error::invalid(field, format_args!("must be 1..={MAX_LABEL} characters")));
    }
    Ok(())
}

fn def<'a>(pack: &'a FmActionPack, field: &str, id: &str) -> Result<&'a FmActionDef> {
    pack.get(id).ok_or_else(|| Error::invalid(field, format_args!("no action {id:?} in the pack")))
}

/// Fill in and check a declaration's costs; returns it with `fap_tenths`/`map_tenths`
/// set (paired too) and the total reserved (own + paired).
fn normalize(
    pack: &FmActionPack,
    d: &FmDeclaration,
    field: &str,
    depth: u8,
) -> Result<(FmDeclaration, i64, i64)> {
    let a = def(pack, &format!("{field}.action"), &d.action)?;
    let (mut fap_in, mut map_in) = (d.fap_tenths, d.map_tenths);
    if let Some(ex) = &d.example {
        let e = a.examples.iter().find(|e| &e.id == ex).ok_or_else(|| {
            Error::invalid(format!("{field}.example"), format_args!("{:?} has no example {ex:?}", a.id))
        })?;
        for (given, want, f) in [(fap_in, e.fap_tenths, "fap_tenths"), (map_in, e.map_tenths, "map_tenths")] {
            if given.is_some_and(|g| g != want) {
                return Err(Error::invalid(
                    format!("{field}.{f}"),
                    format_args!("the example {ex:?} costs {want} tenths"),
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
    let mut out = FmDeclaration {
        action: d.action.clone(),
        example: d.example.clone(),
        fap_tenths: Some(fap),
        map_tenths: Some(map),
        paired: None,
        condition: d.condition.clone(),
    };
    let (mut tf, mut tm) = (fap, map);
    match (&d.paired, a.pairs_with_action) {
        (Some(p), true) if depth == 0 => {
            let pf = format!("{field}.paired");
            let pd = def(pack, &format!("{pf}.action"), &p.action)?;
            if pd.resolution != FmResolution::InOrder || pd.pairs_with_action {
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

fn find(state: &FmRoundState, id: &str) -> Result<usize> {
    state
        .combatants
        .iter()
        .position(|c| c.id == id)
        .ok_or_else(|| Error::invalid("action.combatant", format_args!("no combatant {id:?}")))
}

fn own_cost(d: &FmDeclaration) -> (i64, i64) {
    (d.fap_tenths.unwrap_or(0), d.map_tenths.unwrap_or(0))
}

/// Total reserved by a declaration (paired included).
fn reserved(d: &FmDeclaration) -> (i64, i64) {
    let (f, m) = own_cost(d);
    let (pf, pm) = d.paired.as_ref().map(|p| own_cost(p)).unwrap_or((0, 0));
    (f.saturating_add(pf), m.saturating_add(pm))
}

fn resolution_of(pack: &FmActionPack, id: &str) -> FmResolution {
    pack.get(id).map(|a| a.resolution).unwrap_or(FmResolution::InOrder)
}

fn next_pending(pack: &FmActionPack, c: &FmCombatant) -> Option<usize> {
    c.declared.iter().position(|d| {
        d.status == FmStatus::Pending && resolution_of(pack, &d.declaration.action) == FmResolution::InOrder
    })
}

/// FM-DEF-3 / RULINGS order: carried sustained first (FM-ACT-18), then
/// descending Reaction (0 after Full standby, FM-ACT-15; −1 after Speech,
/// FM-ACT-20), then Agility, then the caller's order.
pub fn order(state: &FmRoundState, pack: &FmActionPack) -> Vec<FmOrderEntry> {
    let mut v: Vec<(usize, FmOrderEntry)> = state
        .combatants
        .iter()
        .enumerate()
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
    v.sort_by(|(ia, a), (ib, b)| {
        b.first
            .cmp(&a.first)
            .then(b.order_value.cmp(&a.order_value))
            .then(b.agility.cmp(&a.agility))
            .then(ia.cmp(ib))
    });
    v.into_iter().map(|(_, e)| e).collect()
}

fn current(state: &FmRoundState, pack: &FmActionPack) -> Option<String> {
    if state.phase != FmPhase::Resolution {
        return None;
    }
    order(state, pack).into_iter().next().map(|e| e.combatant)
}

fn event(
    kind: FmEventKind,
    rule: &str,
    c: Option<&FmCombatant>,
    action: Option<&str>,
    spent: (i64, i64),
    text: String,
) -> FmEvent {
    FmEvent {
        kind,
        rule: rule.into(),
        combatant: c.map(|c| c.id.clone()),
        action: action.map(str::to_string),
        fap_spent_tenths: spent.0,
        map_spent_tenths: spent.1,
        fap_left_tenths: c.map(|c| c.fap_tenths),
        fap_left: c.map(|c| points::decimal(c.fap_tenths)),
        map_left_tenths: c.map(|c| c.map_tenths),
        map_left: c.map(|c| points::decimal(c.map_tenths)),
        block: None,
        target: None,
        target_fap_spent_tenths: None,
        text,
    }
}

fn afford(c: &FmCombatant, fap: i64, map: i64, what: &str) -> Result<()> {
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

fn open_window(state: &mut FmRoundState, pack: &FmActionPack, actor: &str, action: &str) {
    state.window = pack.get(action).and_then(|a| a.blockable_by.clone()).map(|b| FmWindow {
        actor: actor.to_string(),
        action: action.to_string(),
        block_action: b,
        blockers: Vec::new(),
        blocked: false,
    });
}

// ---------------------------------------------------------------- validation

fn bad(field: String, e: Error) -> Error {
    Error::invalid_data(field, e.message)
}

/// Parse and validate a caller-supplied state (untrusted JSON → `invalid_data`).
pub fn parse_state(value: &Value, pack: &FmActionPack) -> Result<FmRoundState> {
    let s: FmRoundState = crate::ops::parse_data("state", value.clone())?;
    if s.pack_id != pack.meta.id {
        return Err(Error::invalid_data(
            "state.pack_id",
            format_args!("state was made with pack {:?}, but pack {:?} was given", s.pack_id, pack.meta.id),
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
    for (i, c) in s.combatants.iter().enumerate() {
        let f = format!("state.combatants[{i}]");
        label("id", &c.id).map_err(|e| bad(format!("{f}.id"), e))?;
        if s.combatants.iter().take(i).any(|o| o.id == c.id) {
            return Err(Error::invalid_data(format!("{f}.id"), "duplicate id"));
        }
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
        if c.move_cap_used > MOVE_CAP {
            return Err(Error::invalid_data(
                format!("{f}.move_cap_used"),
                format_args!("must be 0..={MOVE_CAP}"),
            ));
        }
        if c.declared.len() > MAX_DECLARED {
            return Err(Error::invalid_data(format!("{f}.declared"), format_args!("at most {MAX_DECLARED}")));
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
            if d.status == FmStatus::Used && res != FmResolution::OnTrigger {
                return Err(Error::invalid_data(
                    format!("{f}.declared[{j}].status"),
                    "only blocks are `used`",
                ));
            }
        }
        if let Some(r) = &c.readied {
            let g = format!("{f}.readied.paired");
            let (n, _, _) = normalize(pack, &r.paired, "paired", 1).map_err(|e| bad(g.clone(), e))?;
            if n != r.paired || resolution_of(pack, &n.action) != FmResolution::InOrder {
                return Err(Error::invalid_data(
                    g,
                    "must be a declared in-order action with its costs filled in",
                ));
            }
            if r.condition.as_ref().is_some_and(|t| t.chars().count() > MAX_LABEL) {
                return Err(Error::invalid_data(format!("{f}.readied.condition"), "too long"));
            }
        }
    }
    if let Some(w) = &s.window {
        let ok = s.phase == FmPhase::Resolution
            && s.combatants.iter().any(|c| c.id == w.actor)
            && pack.get(&w.action).and_then(|a| a.blockable_by.as_deref()) == Some(w.block_action.as_str())
            && w.blockers.len() <= MAX_COMBATANTS
            && w.blockers.iter().all(|b| s.combatants.iter().any(|c| &c.id == b));
        if !ok {
            return Err(Error::invalid_data(
                "state.window",
                "does not match the combatants, the phase or the pack",
            ));
        }
    }
    Ok(s)
}

// ---------------------------------------------------------------- ops

/// `fap_map.round_new` — FM-AP-2 pools for each combatant (FAP = Reaction, MAP =
/// Magic power, or per traits), round 1, declaration phase (FM-DEF-4).
pub fn round_new(args: &FmRoundNewArgs) -> Result<FmRoundResult> {
    let pack = catalog::load(args.data.as_ref())?;
    if args.combatants.is_empty() || args.combatants.len() > MAX_COMBATANTS {
        return Err(Error::limit("combatants", format_args!("needs 1..={MAX_COMBATANTS} combatants")));
    }
    let mut combatants = Vec::with_capacity(args.combatants.len());
    for (i, c) in args.combatants.iter().enumerate() {
        let f = format!("combatants[{i}]");
        label("id", &c.id).map_err(|e| e.within(&f))?;
        if args.combatants.iter().take(i).any(|o| o.id == c.id) {
            return Err(Error::invalid(format!("{f}.id"), format_args!("duplicate id {:?}", c.id)));
        }
        checks::stat("agility", c.agility).map_err(|e| e.within(&f))?;
        let (fap, map) =
            checks::pool_tenths(c.reaction, c.magic, c.traits.as_ref()).map_err(|e| e.within(&f))?;
        combatants.push(FmCombatant {
            id: c.id.clone(),
            reaction: c.reaction,
            magic: c.magic,
            agility: c.agility,
            fap_max_tenths: fap,
            map_max_tenths: map,
            fap_tenths: fap,
            map_tenths: map,
            declared: Vec::new(),
            move_cap_used: 0,
            speech_penalty: false,
            readied: None,
        });
    }
    let state = FmRoundState {
        pack_id: pack.meta.id.clone(),
        round: 1,
        phase: FmPhase::Declaration,
        combatants,
        window: None,
    };
    let events =
        vec![event(FmEventKind::Started, "FM-DEF-4", None, None, (0, 0), "round 1: declare actions".into())];
    let order = order(&state, &pack);
    Ok(FmRoundResult { state, events, current: None, order })
}

/// `fap_map.round_act` — apply one action (see the module docs). An illegal
/// action is `illegal_action` naming the rule it breaks; the state is unchanged.
pub fn round_act(args: &FmRoundActArgs) -> Result<FmRoundResult> {
    let pack = catalog::load(args.data.as_ref())?;
    let mut state = parse_state(&args.state, &pack)?;
    let events = apply(&mut state, &pack, &args.action)?;
    let order = order(&state, &pack);
    let current = current(&state, &pack);
    Ok(FmRoundResult { state, events, current, order })
}

/// `fap_map.round_legal_actions` — every action `round_act` accepts now, in its
/// exact form, with its cost (amounts that may be chosen are listed at their minimum).
pub fn round_legal_actions(args: &FmRoundStateArgs) -> Result<FmLegalActionsResult> {
    let pack = catalog::load(args.data.as_ref())?;
    let state = parse_state(&args.state, &pack)?;
    let mut legal = Vec::new();
    for cand in candidates(&state, &pack) {
        let mut s = state.clone();
        if apply(&mut s, &pack, &cand.action).is_ok() {
            legal.push(cand);
        }
    }
    Ok(FmLegalActionsResult { legal, current: current(&state, &pack), order: order(&state, &pack) })
}

fn choice(c: &FmCost) -> Option<FmCost> {
    match c {
        FmCost::Fixed { .. } => None,
        other => Some(other.clone()),
    }
}

fn legal(
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
fn declaration_forms(a: &FmActionDef) -> Vec<FmDeclaration> {
    let base = FmDeclaration {
        action: a.id.clone(),
        example: None,
        fap_tenths: None,
        map_tenths: None,
        paired: None,
        condition: None,
    };
    let mut out: Vec<FmDeclaration> =
        a.examples.iter().map(|e| FmDeclaration { example: Some(e.id.clone()), ..base.clone() }).collect();
    let fap = if a.fap.default_amount().is_some() { None } else { Some(a.fap.min()) };
    let map = if a.map.default_amount().is_some() { None } else { Some(a.map.min()) };
    out.push(FmDeclaration { fap_tenths: fap, map_tenths: map, ..base });
    out
}

/// Every action worth trying (the legal ones are those `apply` accepts).
fn candidates(state: &FmRoundState, pack: &FmActionPack) -> Vec<FmLegalAction> {
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
                        for p in pack
                            .actions
                            .iter()
                            .filter(|p| p.resolution == FmResolution::InOrder && !p.pairs_with_action)
                        {
                            for pf in declaration_forms(p) {
                                if let Some(b) = &base {
                                    forms.push(FmDeclaration { paired: Some(Box::new(pf)), ..b.clone() });
                                }
                            }
                        }
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
                            (min, 0),
                            (choice(&b.fap), None),
                        ));
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
                FmRoundAction::Use { combatant: who.clone(), action: a.id.clone() },
                cost,
                (None, None),
            ));
        }
    }
    out.push(legal(FmRoundAction::EndDeclarations {}, (0, 0), (None, None)));
    out.push(legal(FmRoundAction::EndRound {}, (0, 0), (None, None)));
    out
}

fn need_phase(state: &FmRoundState, phase: FmPhase, rule: &str, what: &str) -> Result<()> {
    if state.phase != phase {
        let p = match phase {
            FmPhase::Declaration => "declaration",
            FmPhase::Resolution => "resolution",
        };
        return Err(Error::illegal(rule, format_args!("{what} is only possible in the {p} phase")));
    }
    Ok(())
}

fn need_current(state: &FmRoundState, pack: &FmActionPack, who: &str) -> Result<()> {
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

/// Apply an action to `state` in place (callers pass a clone; on error it is discarded).
fn apply(state: &mut FmRoundState, pack: &FmActionPack, action: &FmRoundAction) -> Result<Vec<FmEvent>> {
    match action {
        FmRoundAction::Declare { combatant, declaration } => {
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
            let c = state
                .combatants
                .get_mut(i)
                .ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
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
            let has_readied = c
                .declared
                .iter()
                .any(|d| pack.get(&d.declaration.action).is_some_and(|x| x.pairs_with_action));
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
            let (pf, pm) = c
                .declared
                .iter()
                .filter(|d| d.status == FmStatus::Pending)
                .map(|d| reserved(&d.declaration))
                .fold((0i64, 0i64), |(x, y), (f, m)| (x.saturating_add(f), y.saturating_add(m)));
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
            c.move_cap_used += caps;
            c.declared.push(FmDeclared { declaration: n, status: FmStatus::Pending, carried: false });
            let text = format!(
                "{} declares {} ({} FAP / {} MAP)",
                c.id,
                a.names.en,
                points::text(fap),
                points::text(map)
            );
            Ok(vec![event(FmEventKind::Declared, &a.rule, Some(c), Some(&a.id), (0, 0), text)])
        }
        FmRoundAction::Release { combatant } => {
            need_phase(state, FmPhase::Declaration, "FM-ACT-19", "releasing")?;
            let i = find(state, combatant)?;
            let c = state
                .combatants
                .get_mut(i)
                .ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
            let carried = c.declared.iter().any(|d| d.carried);
            if c.readied.is_none() && !carried {
                return Err(Error::illegal(
                    "FM-ACT-19",
                    format_args!("{} has no readied or sustained action to release", c.id),
                ));
            }
            let rule = if c.readied.is_some() { "FM-ACT-19" } else { "FM-ACT-18" };
            c.readied = None;
            c.declared.retain(|d| !d.carried);
            Ok(vec![event(
                FmEventKind::Released,
                rule,
                Some(c),
                None,
                (0, 0),
                format!("{} drops its carried actions", c.id),
            )])
        }
        FmRoundAction::EndDeclarations {} => {
            need_phase(state, FmPhase::Declaration, "FM-DEF-4", "ending the declarations")?;
            state.phase = FmPhase::Resolution;
            Ok(vec![event(
                FmEventKind::DeclarationsEnded,
                "FM-DEF-3",
                None,
                None,
                (0, 0),
                "declarations end; resolve in action order".into(),
            )])
        }
        FmRoundAction::Resolve { combatant } | FmRoundAction::Skip { combatant } => {
            let resolve = matches!(action, FmRoundAction::Resolve { .. });
            need_phase(state, FmPhase::Resolution, "FM-DEF-3", "resolving")?;
            let i = find(state, combatant)?;
            need_current(state, pack, combatant)?;
            let c = state
                .combatants
                .get_mut(i)
                .ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
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
                let c = state.combatants.get(i);
                return Ok(vec![event(
                    FmEventKind::Skipped,
                    "FM-DEF-3",
                    c,
                    Some(&a.id),
                    (0, 0),
                    format!("{combatant} gives up {}", a.names.en),
                )]);
            }
            let (f, m) = own_cost(&d);
            afford(c, f, m, &a.names.en)?;
            c.fap_tenths -= f;
            c.map_tenths -= m;
            c.speech_penalty = false;
            if let Some(x) = c.declared.get_mut(j) {
                x.status = FmStatus::Resolved;
            }
            if a.pairs_with_action {
                if let Some(p) = &d.paired {
                    c.readied = Some(FmReadied { paired: (**p).clone(), condition: d.condition.clone() });
                }
            }
            let text = format!(
                "{} resolves {} ({} FAP / {} MAP; {} FAP / {} MAP left)",
                c.id,
                a.names.en,
                points::text(f),
                points::text(m),
                points::text(c.fap_tenths),
                points::text(c.map_tenths)
            );
            let ev = event(FmEventKind::Resolved, &a.rule, Some(c), Some(&a.id), (f, m), text);
            open_window(state, pack, combatant, &a.id);
            Ok(vec![ev])
        }
        FmRoundAction::Use { combatant, action: id } => {
            let i = find(state, combatant)?;
            let a = def(pack, "action.action", id)?;
            match a.resolution {
                FmResolution::Reaction => {
                    need_phase(state, FmPhase::Resolution, &a.rule, "a reaction to an attack")?
                }
                FmResolution::Immediate => {}
                _ => {
                    return Err(Error::illegal(
                        "FM-DEF-4",
                        format_args!("{} must be declared at the start of the round", a.id),
                    ))
                }
            }
            let c = state
                .combatants
                .get_mut(i)
                .ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
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
            let (f, m) = (a.fap.min(), a.map.min());
            if a.counts_toward_move_cap && c.move_cap_used >= MOVE_CAP {
                return Err(Error::illegal(
                    "FM-LIM-1",
                    format_args!("{} has used all 3 Move/Jump/Regain footing/Jump evasion this round", c.id),
                ));
            }
            afford(c, f, m, &a.names.en)?;
            c.fap_tenths -= f;
            c.map_tenths -= m;
            if a.counts_toward_move_cap {
                c.move_cap_used += 1;
            }
            if a.order_effect == FmOrderEffect::NextActionMinusOne {
                c.speech_penalty = true;
            }
            let text =
                format!("{} uses {} ({} FAP / {} MAP)", c.id, a.names.en, points::text(f), points::text(m));
            Ok(vec![event(FmEventKind::Used, &a.rule, Some(c), Some(&a.id), (f, m), text)])
        }
        FmRoundAction::Block { combatant, fap_tenths, target_fap_tenths, relative_t_tenths } => {
            let i = find(state, combatant)?;
            points::check_amount("action.fap_tenths", *fap_tenths)?;
            points::check_amount("action.target_fap_tenths", *target_fap_tenths)?;
            if !(-MAX_TENTHS..=MAX_TENTHS).contains(relative_t_tenths) {
                return Err(Error::out_of_range(
                    "action.relative_t_tenths",
                    format_args!("must be -{MAX_TENTHS}..={MAX_TENTHS}"),
                ));
            }
            let Some(w) = state.window.clone() else {
                return Err(Error::illegal("FM-ACT-8", "there is no move or attack being resolved to block"));
            };
            let b = def(pack, "state.window.block_action", &w.block_action)?;
            let rule = b.rule.as_str();
            if w.actor == *combatant {
                return Err(Error::illegal(rule, "a character cannot block its own action"));
            }
            if w.blocked {
                return Err(Error::illegal(
                    rule,
                    format_args!("{}'s {} has already been stopped", w.actor, w.action),
                ));
            }
            if b.once_per_target_action && w.blockers.contains(combatant) {
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
            let c =
                state.combatants.get(i).ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
            let Some(j) =
                c.declared.iter().position(|d| d.status == FmStatus::Pending && d.declaration.action == b.id)
            else {
                return Err(Error::illegal(
                    "FM-DEF-4",
                    format_args!("{} has no unused declared {}", c.id, b.names.en),
                ));
            };
            afford(c, *fap_tenths, 0, &b.names.en)?;
            let target =
                state.combatants.get(t).ok_or_else(|| Error::new(ErrorCode::Internal, "target index"))?;
            afford(target, *target_fap_tenths, 0, "resisting the block")?;
            let outcome = block_outcome(*fap_tenths, *target_fap_tenths, *relative_t_tenths);
            if let Some(tc) = state.combatants.get_mut(t) {
                tc.fap_tenths -= target_fap_tenths;
            }
            let c = state
                .combatants
                .get_mut(i)
                .ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
            c.fap_tenths -= fap_tenths;
            if let Some(x) = c.declared.get_mut(j) {
                x.status = FmStatus::Used;
            }
            let text = format!(
                "{} blocks {}'s {} with {} FAP against {} FAP + relative T {}: {}",
                c.id,
                w.actor,
                w.action,
                points::text(*fap_tenths),
                points::text(*target_fap_tenths),
                points::text(*relative_t_tenths),
                if outcome.block_holds { "the block holds" } else { "the block is cancelled" }
            );
            let mut ev = event(FmEventKind::Blocked, rule, Some(c), Some(&b.id), (*fap_tenths, 0), text);
            ev.block = Some(outcome.clone());
            ev.target = Some(w.actor.clone());
            ev.target_fap_spent_tenths = Some(*target_fap_tenths);
            if let Some(win) = state.window.as_mut() {
                win.blockers.push(combatant.clone());
                win.blocked = outcome.block_holds;
            }
            Ok(vec![ev])
        }
        FmRoundAction::Trigger { combatant } => {
            need_phase(state, FmPhase::Resolution, "FM-ACT-19", "triggering a readied action")?;
            let i = find(state, combatant)?;
            let c = state
                .combatants
                .get_mut(i)
                .ok_or_else(|| Error::new(ErrorCode::Internal, "combatant index"))?;
            let Some(r) = c.readied.clone() else {
                return Err(Error::illegal(
                    "FM-ACT-19",
                    format_args!("{} has no resolved readied action to trigger", c.id),
                ));
            };
            let a = def(pack, "state.readied.paired.action", &r.paired.action)?;
            let (f, m) = own_cost(&r.paired);
            afford(c, f, m, &a.names.en)?;
            c.fap_tenths -= f;
            c.map_tenths -= m;
            c.readied = None;
            c.speech_penalty = false;
            let text = format!(
                "{}'s readied {} fires out of order ({} FAP / {} MAP)",
                c.id,
                a.names.en,
                points::text(f),
                points::text(m)
            );
            let ev = event(FmEventKind::Triggered, "FM-ACT-19", Some(c), Some(&a.id), (f, m), text);
            open_window(state, pack, combatant, &a.id);
            Ok(vec![ev])
        }
        FmRoundAction::EndRound {} => {
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
            state.round += 1;
            state.phase = FmPhase::Declaration;
            state.window = None;
            for c in &mut state.combatants {
                c.fap_tenths = c.fap_max_tenths;
                c.map_tenths = c.map_max_tenths;
                c.move_cap_used = 0;
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
            let text = format!("round {} begins: FAP and MAP refilled", state.round);
            Ok(vec![event(FmEventKind::RoundEnded, "FM-AP-5", None, None, (0, 0), text)])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(op: &str, args: Value) -> Result<Value> {
        crate::call(op, args)
    }

    #[test]
    fn illegal_leaves_state_unchanged_and_legal_list_round_trips() {
        let r = call(
            "fap_map.round_new",
            json!({"combatants": [
            {"id": "a", "reaction": 10, "magic": 3, "agility": 5},
            {"id": "b", "reaction": 8, "magic": 0, "agility": 9}]}),
        )
        .unwrap();
        let state = r["state"].clone();
        let before = state.clone();
        let e = call(
            "fap_map.round_act",
            json!({"state": state, "action": {"type": "use", "combatant": "b", "action": "speech"}}),
        )
        .unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("FM-LIM-4"));
        assert_eq!(state, before);
        // Every listed action is accepted by round_act.
        let l = call("fap_map.round_legal_actions", json!({"state": state})).unwrap();
        let legal = l["legal"].as_array().unwrap();
        assert!(legal.len() > 20);
        for x in legal {
            call("fap_map.round_act", json!({"state": state, "action": x["action"]})).unwrap();
        }
    }

    #[test]
    fn garbage_states_are_invalid_data() {
        for s in [
            json!(null),
            json!(1),
            json!({}),
            json!({"pack_id": "fap_map-chapter1", "round": 0, "phase": "declaration", "combatants": []}),
        ] {
            let e =
                call("fap_map.round_act", json!({"state": s, "action": {"type": "end_round"}})).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidData);
        }
        let e = call("fap_map.round_new", json!({"combatants": []})).unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        let big: Vec<Value> = (0..21)
            .map(|i| json!({"id": format!("c{i}"), "reaction": 1, "magic": 1, "agility": 1}))
            .collect();
        assert!(call("fap_map.round_new", json!({"combatants": big})).is_err());
    }

    #[test]
    fn random_walk_never_panics() {
        // Play many rounds by always taking a pseudo-random legal action.
        let mut st = call(
            "fap_map.round_new",
            json!({"combatants": [
            {"id": "a", "reaction": 12, "magic": 4, "agility": 5},
            {"id": "b", "reaction": 12, "magic": 2, "agility": 5},
            {"id": "c", "reaction": 3, "magic": 1, "agility": 1}]}),
        )
        .unwrap()["state"]
            .clone();
        let mut x: u64 = 12345;
        for _ in 0..300 {
            let l = call("fap_map.round_legal_actions", json!({"state": st})).unwrap();
            let legal = l["legal"].as_array().unwrap().clone();
            assert!(!legal.is_empty());
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = &legal[(x >> 33) as usize % legal.len()];
            st = call("fap_map.round_act", json!({"state": st, "action": pick["action"]})).unwrap()["state"]
                .clone();
        }
    }
}
