//! The house-combat round as a pure state machine: `coc7_house.round_new`,
//! `round_legal_actions`, `round_act`.
//!
//! * C7H-INIT-1 / C7H-INIT-2: order by initiative, DEX, PCs first, caller order.
//! * C7H-ECO-1: per round each character has 1 active, 1 passive and 1 free action.
//! * C7H-MOV-1: `move` only on one's own turn, before the active action.
//! * C7H-MOV-2 / C7H-MOV-3: after moving this round, an active action flagged
//!   `concentration` (the KP decides which are) is illegal.
//! * C7H-STN-1: `stance` uses the active action; until the start of the
//!   character's next turn it gives +1 passive action (`extra_passive`) or
//!   +1 bonus die on one passive roll (`bonus_die`).
//! * C7H-PAS-1: `passive` (dodge, defend, fight back, cover, cancel, counter,
//!   other) may be taken at any time, within the passive-action count.
//! * C7H-FREE-1: one `free` action per round, at any time.
//! * C7H-ACT-1: `active` is any action on one's own initiative (attack, throw,
//!   observe, item, skill); its resolution is the caller's (see `damage`).
//!
//! The state machine rolls nothing; the passive resolutions are separate ops.

use super::init::{order_indices, validate_entries, C7hOrderEntry};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Highest round number.
pub const MAX_ROUND: u32 = 10_000;

/// Defensive-stance option (C7H-STN-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum C7hStance {
    /// +1 passive action.
    ExtraPassive,
    /// +1 bonus die on one passive-action roll.
    BonusDie,
}

/// Kind of passive action (C7H-PAS-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum C7hPassiveKind {
    /// 回避 Dodge (base 7e).
    Dodge,
    /// 防御 Defend (C7H-DEF).
    Defend,
    /// 応戦 Fight back (base 7e).
    FightBack,
    /// かばう Cover (C7H-COV).
    Cover,
    /// 相殺 Cancel (C7H-CAN).
    Cancel,
    /// 反撃 Counter-attack (C7H-CTR).
    Counter,
    /// Another response to an opponent's action.
    Other,
}

/// A character in the round state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct C7hCombatant {
    /// The character as given.
    pub entry: C7hOrderEntry,
    /// Moved this round (C7H-MOV-2).
    #[serde(default)]
    pub moved: bool,
    /// Active action used this round.
    #[serde(default)]
    pub active_used: bool,
    /// Passive actions used this round.
    #[serde(default)]
    pub passive_used: u32,
    /// Free action used this round.
    #[serde(default)]
    pub free_used: bool,
    /// Defensive stance in force (until this character's next turn start).
    #[serde(default)]
    pub stance: Option<C7hStance>,
    /// The stance's bonus die has been used.
    #[serde(default)]
    pub stance_die_used: bool,
    /// This character's turn has ended this round.
    #[serde(default)]
    pub turn_done: bool,
}

/// The house-combat state (serializable; pass it back unchanged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct C7hRoundState {
    /// Round number, from 1.
    pub round: u32,
    /// Characters in the caller's order.
    pub combatants: Vec<C7hCombatant>,
    /// Turn order (ids).
    pub order: Vec<String>,
    /// Index into `order` of whose turn it is; `null` once every turn has ended.
    #[serde(default)]
    pub turn: Option<usize>,
}

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    /// One action.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, FromJson, JsonSchema)]
    pub enum C7hAction {
        /// C7H-MOV-1: move at the start of one's own turn, before the active action.
        Move {
            /// Who moves.
            actor: String,
        },
        /// C7H-ACT-1: the active action (attack, throw, observe, item, skill…).
        Active {
            /// Who acts.
            actor: String,
            /// The KP flags this action as needing concentration (chanted spell,
            /// precise shot: C7H-MOV-2 / C7H-MOV-3). Default false.
            #[serde(default)]
            concentration: bool,
        },
        /// C7H-STN-1: defensive stance, using the active action.
        Stance {
            /// Who takes it.
            actor: String,
            /// The option chosen.
            option: C7hStance,
        },
        /// C7H-PAS-1: a passive action (any time).
        Passive {
            /// Who reacts.
            actor: String,
            /// Which passive action.
            kind: C7hPassiveKind,
            /// Spend the stance's +1 bonus die on this roll. Default false.
            #[serde(default)]
            bonus_die: bool,
        },
        /// C7H-FREE-1: a free action (any time, once per round).
        Free {
            /// Who acts.
            actor: String,
        },
        /// End the actor's turn.
        EndTurn {
            /// Whose turn ends.
            actor: String,
        },
        /// Start the next round once every turn has ended.
        NextRound,
    }
}

/// Arguments of `coc7_house.round_new`.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct C7hRoundNewArgs {
    /// Characters (1–100), in the caller's order (the last tie-break).
    pub participants: Vec<C7hOrderEntry>,
}

/// Arguments of `coc7_house.round_legal_actions`.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct C7hRoundLegalArgs {
    /// The current state.
    pub state: C7hRoundState,
}

/// Result of `coc7_house.round_legal_actions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
pub struct C7hRoundLegalResult {
    /// Every legal action in the form `round_act` accepts (`active` is listed
    /// with `concentration: false`, and also `true` when legal; `passive` with
    /// `bonus_die: true` only when the stance die is available).
    pub actions: Vec<C7hAction>,
}

/// Arguments of `coc7_house.round_act`.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct C7hRoundActArgs {
    /// The current state.
    pub state: C7hRoundState,
    /// The action.
    pub action: C7hAction,
}

/// Result of `round_new` and `round_act`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
pub struct C7hRoundResult {
    /// The new state.
    pub state: C7hRoundState,
    /// Bonus dice the passive roll gets from the stance (0 or 1).
    pub bonus_dice: i64,
    /// A stance that expired as this action started someone's turn (that character's id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stance_expired: Option<String>,
    /// Every turn of the round has ended (`next_round` is legal).
    pub round_complete: bool,
}

fn validate_state(s: &C7hRoundState) -> Result<()> {
    if s.round == 0 || s.round > MAX_ROUND {
        return Err(Error::invalid_data("state.round", format_args!("must be 1..={MAX_ROUND}")));
    }
    let entries: Vec<C7hOrderEntry> = s.combatants.iter().map(|c| c.entry.clone()).collect();
    validate_entries("state.combatants", &entries)
        .map_err(|e| Error { code: ErrorCode::InvalidData, ..e })?;
    for (i, c) in s.combatants.iter().enumerate() {
        if c.passive_used > 2 {
            return Err(Error::invalid_data(format!("state.combatants[{i}].passive_used"), "must be 0..=2"));
        }
    }
    let mut a = s.order.clone();
    crate::small_sort::sort(&mut a);
    let mut b: Vec<String> = entries.iter().map(|e| e.id.clone()).collect();
    crate::small_sort::sort(&mut b);
    if a != b {
        return Err(Error::invalid_data("state.order", "must list every combatant id once"));
    }
    if s.turn.is_some_and(|t| t >= s.order.len()) {
        return Err(Error::invalid_data("state.turn", "must index into order"));
    }
    Ok(())
}

/// Start `order[turn]`'s turn: its stance ends (C7H-STN-1).
fn start_turn(s: &mut C7hRoundState) -> Option<String> {
    let id = s.turn.and_then(|t| s.order.get(t)).cloned()?;
    let c = s.combatants.iter_mut().find(|c| c.entry.id == id)?;
    let had = c.stance.take().is_some();
    c.stance_die_used = false;
    had.then_some(id)
}

/// `coc7_house.round_new` — round 1 in initiative order.
pub fn round_new(args: &C7hRoundNewArgs) -> Result<C7hRoundResult> {
    validate_entries("participants", &args.participants)?;
    let order = order_indices(&args.participants)
        .into_iter()
        .filter_map(|i| args.participants.get(i))
        .map(|p| p.id.clone())
        .collect();
    let combatants = args
        .participants
        .iter()
        .map(|e| C7hCombatant {
            entry: e.clone(),
            moved: false,
            active_used: false,
            passive_used: 0,
            free_used: false,
            stance: None,
            stance_die_used: false,
            turn_done: false,
        })
        .collect();
    let state = C7hRoundState { round: 1, combatants, order, turn: Some(0) };
    Ok(C7hRoundResult { state, bonus_dice: 0, stance_expired: None, round_complete: false })
}

fn actor_of(a: &C7hAction) -> Option<&str> {
    match a {
        C7hAction::Move { actor }
        | C7hAction::Active { actor, .. }
        | C7hAction::Stance { actor, .. }
        | C7hAction::Passive { actor, .. }
        | C7hAction::Free { actor }
        | C7hAction::EndTurn { actor } => Some(actor),
        C7hAction::NextRound => None,
    }
}

fn legality(s: &C7hRoundState, a: &C7hAction) -> Result<Option<usize>> {
    let Some(actor) = actor_of(a) else {
        if s.turn.is_some() {
            return Err(Error::illegal("C7H-INIT-1", "next_round: every character's turn must end first"));
        }
        if s.round >= MAX_ROUND {
            return Err(Error::limit("state.round", format_args!("at most {MAX_ROUND} rounds")));
        }
        return Ok(None);
    };
    let i = s
        .combatants
        .iter()
        .position(|c| c.entry.id == actor)
        .ok_or_else(|| Error::invalid("action.actor", format_args!("no character {actor:?}")))?;
    let c = &s.combatants[i];
    let own = s.turn.and_then(|t| s.order.get(t)).map(String::as_str) == Some(actor);
    let own_turn = || {
        if own {
            Ok(())
        } else {
            Err(Error::illegal("C7H-INIT-1", format_args!("it is not {actor}'s turn")))
        }
    };
    match a {
        C7hAction::Move { .. } => {
            own_turn()?;
            if c.moved {
                return Err(Error::illegal("C7H-MOV-1", "move: once, at the start of one's turn"));
            }
            if c.active_used {
                return Err(Error::illegal("C7H-MOV-1", "move: only before the turn's action"));
            }
        }
        C7hAction::Active { concentration, .. } => {
            own_turn()?;
            if c.active_used {
                return Err(Error::illegal("C7H-ECO-1", "active: one active action per round"));
            }
            if *concentration && c.moved {
                return Err(Error::illegal(
                    "C7H-MOV-2",
                    "active: no concentration action in a round with movement",
                ));
            }
        }
        C7hAction::Stance { .. } => {
            own_turn()?;
            if c.active_used {
                return Err(Error::illegal("C7H-STN-1", "stance: needs the round's active action"));
            }
        }
        C7hAction::Passive { bonus_die, .. } => {
            let max = 1 + u32::from(c.stance == Some(C7hStance::ExtraPassive));
            if c.passive_used >= max {
                return Err(Error::illegal(
                    if max > 1 { "C7H-STN-1" } else { "C7H-ECO-1" },
                    format_args!("passive: {max} passive action(s) per round"),
                ));
            }
            if *bonus_die && (c.stance != Some(C7hStance::BonusDie) || c.stance_die_used) {
                return Err(Error::illegal("C7H-STN-1", "passive: no stance bonus die available"));
            }
        }
        C7hAction::Free { .. } => {
            if c.free_used {
                return Err(Error::illegal("C7H-FREE-1", "free: one free action per round"));
            }
        }
        C7hAction::EndTurn { .. } => own_turn()?,
        C7hAction::NextRound => {}
    }
    Ok(Some(i))
}

/// `coc7_house.round_act` — apply one action; illegal actions return
/// `illegal_action` naming the rule, and the caller's state is unchanged.
pub fn round_act(args: &C7hRoundActArgs) -> Result<C7hRoundResult> {
    validate_state(&args.state)?;
    act_with(&args.state, &args.action)
}

/// Validate an untrusted round state (`invalid_data` naming the field).
pub(crate) fn check_state(s: &C7hRoundState) -> Result<()> {
    validate_state(s)
}

/// One action on a validated state (what `round_act` and the
/// `coc7_house.Round` handle share).
pub(crate) fn act_with(state: &C7hRoundState, action: &C7hAction) -> Result<C7hRoundResult> {
    let args = C7hRoundActArgs { state: state.clone(), action: action.clone() };
    let i = legality(&args.state, &args.action)?;
    let mut s = args.state;
    let mut bonus_dice = 0;
    let mut expired = None;
    match (i, &args.action) {
        (None, _) => {
            s.round += 1;
            for c in &mut s.combatants {
                c.moved = false;
                c.active_used = false;
                c.passive_used = 0;
                c.free_used = false;
                c.turn_done = false;
            }
            let order = order_indices(&s.combatants.iter().map(|c| c.entry.clone()).collect::<Vec<_>>());
            s.order =
                order.into_iter().filter_map(|i| s.combatants.get(i)).map(|c| c.entry.id.clone()).collect();
            s.turn = Some(0);
            expired = start_turn(&mut s);
        }
        (Some(i), action) => {
            let order_len = s.order.len();
            let Some(c) = s.combatants.get_mut(i) else {
                return Err(Error::new(ErrorCode::Internal, "actor index out of range"));
            };
            match action {
                C7hAction::Move { .. } => c.moved = true,
                C7hAction::Active { .. } => c.active_used = true,
                C7hAction::Stance { option, .. } => {
                    c.active_used = true;
                    c.stance = Some(*option);
                    c.stance_die_used = false;
                }
                C7hAction::Passive { bonus_die, .. } => {
                    c.passive_used += 1;
                    if *bonus_die {
                        c.stance_die_used = true;
                        bonus_dice = 1;
                    }
                }
                C7hAction::Free { .. } => c.free_used = true,
                C7hAction::EndTurn { .. } => {
                    c.turn_done = true;
                    s.turn = match s.turn {
                        Some(t) if t + 1 < order_len => Some(t + 1),
                        _ => None,
                    };
                    expired = start_turn(&mut s);
                }
                C7hAction::NextRound => {}
            }
        }
    }
    let round_complete = s.turn.is_none();
    Ok(C7hRoundResult { state: s, bonus_dice, stance_expired: expired, round_complete })
}

/// `coc7_house.round_legal_actions` — every action `round_act` accepts now.
pub fn round_legal_actions(args: &C7hRoundLegalArgs) -> Result<C7hRoundLegalResult> {
    validate_state(&args.state)?;
    let s = &args.state;
    Ok(C7hRoundLegalResult {
        actions: candidates(s).into_iter().filter(|a| legality(s, a).is_ok()).collect(),
    })
}

/// Every action the listing tries (legal or not; the engine harness tries them too).
pub(crate) fn candidates(s: &C7hRoundState) -> Vec<C7hAction> {
    let mut cands = Vec::new();
    for c in &s.combatants {
        let a = c.entry.id.clone();
        cands.push(C7hAction::Move { actor: a.clone() });
        cands.push(C7hAction::Active { actor: a.clone(), concentration: false });
        cands.push(C7hAction::Active { actor: a.clone(), concentration: true });
        cands.push(C7hAction::Stance { actor: a.clone(), option: C7hStance::ExtraPassive });
        cands.push(C7hAction::Stance { actor: a.clone(), option: C7hStance::BonusDie });
        for kind in [
            C7hPassiveKind::Dodge,
            C7hPassiveKind::Defend,
            C7hPassiveKind::FightBack,
            C7hPassiveKind::Cover,
            C7hPassiveKind::Cancel,
            C7hPassiveKind::Counter,
            C7hPassiveKind::Other,
        ] {
            cands.push(C7hAction::Passive { actor: a.clone(), kind, bonus_die: false });
            cands.push(C7hAction::Passive { actor: a.clone(), kind, bonus_die: true });
        }
        cands.push(C7hAction::Free { actor: a.clone() });
        cands.push(C7hAction::EndTurn { actor: a.clone() });
    }
    cands.push(C7hAction::NextRound);
    cands
}
