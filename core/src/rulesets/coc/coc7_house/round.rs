//! The house-combat round as a pure state machine: `coc7_house.round_new`,
//! `round_legal_actions`, `round_act`.
//!
//! * C7H-INIT-1 / C7H-INIT-2: order by initiative, DEX, PCs first, caller order.
//! * C7H-ECO-1: per round each character has 1 active, 1 passive and 1 free action.
//! * C7H-MOV-1: `move` only on one's own turn, before the active action.
//! * C7H-MOV-2 / C7H-MOV-3: after moving this round, an action flagged
//!   `concentration` (the KP decides which are) is illegal, active or passive
//!   (a chanted cancel, RULINGS 2026-12-05).
//! * C7H-STN-1: `stance` uses the active action; until the start of the
//!   character's next turn it gives +1 passive action (`extra_passive`) or
//!   +1 bonus die on one passive roll (`bonus_die`).
//! * C7H-PAS-1: `passive` (dodge, defend, fight back, cover, cover and defend,
//!   cancel, counter, other) may be taken at any time while the round runs
//!   (not once every turn has ended), within the passive-action count. Covering
//!   and defending against the same attack is one passive action whose defend
//!   roll takes one penalty die (C7H-DEF-5, RULINGS 2026-12-05).
//! * C7H-FREE-1: one `free` action per round, at any time.
//! * C7H-ACT-1: `active` is any action on one's own initiative (attack, throw,
//!   observe, item, skill); its resolution is the caller's (see `damage`).
//!
//! The state machine rolls nothing; the passive resolutions are separate ops.

use super::init::{order_indices, validate_entries, C7hOrderEntry};
use crate::dice::Roll;
use crate::engine::ids::{quote, Ids};
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
    /// Cover and defend against the same attack: one passive action; the defend
    /// roll takes one penalty die (C7H-DEF-5, RULINGS 2026-12-05).
    CoverAndDefend,
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
            /// The KP flags this passive action as needing concentration (a chanted
            /// cancel): refused after moving this round (C7H-MOV-2, RULINGS 2026-12-05).
            /// Default false.
            #[serde(default)]
            concentration: bool,
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
    /// The current state; validated as untrusted data (`invalid_data` naming the field).
    #[schemars(with = "C7hRoundState")]
    pub state: serde_json::Value,
}

/// Which of the round's actions (C7H-ECO-1) a listed action uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum C7hUses {
    /// The active action (`active`, `stance`).
    Active,
    /// A passive action.
    Passive,
    /// The free action.
    Free,
    /// None of them (`move`, `end_turn`, `next_round`).
    None,
}

/// One legal action and what it uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
pub struct C7hLegalAction {
    /// The action, exactly as `round_act` accepts it.
    pub action: C7hAction,
    /// The action of the round it uses (C7H-ECO-1).
    pub uses: C7hUses,
}

/// Result of `coc7_house.round_legal_actions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
pub struct C7hRoundLegalResult {
    /// Every legal action in the form `round_act` accepts (`active` is listed
    /// with `concentration: false`, and also `true` when legal; `passive` with
    /// `bonus_die: true` only when the stance die is available).
    pub actions: Vec<C7hLegalAction>,
}

/// Arguments of `coc7_house.round_act`.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct C7hRoundActArgs {
    /// The current state; validated as untrusted data (`invalid_data` naming the field).
    #[schemars(with = "C7hRoundState")]
    pub state: serde_json::Value,
    /// The action.
    pub action: C7hAction,
}

crate::internally_tagged! {
    #[serde(tag = "event", rename_all = "snake_case")]
    /// What an action did (one event per action).
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, FromJson, JsonSchema)]
    pub enum C7hEvent {
        /// C7H-INIT-1 / C7H-INIT-2: a round started in initiative order (at `round_new` and `next_round`).
        RoundStarted {
            /// The round number.
            round: u32,
            /// Its turn order (ids).
            order: Vec<String>,
            /// A stance that ended as the first turn started (C7H-STN-1): that character's id.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            stance_expired: Option<String>,
        },
        /// C7H-MOV-1: the actor moved.
        Moved {
            /// Who.
            actor: String,
        },
        /// C7H-ACT-1: the active action used (its resolution is the caller's).
        ActiveUsed {
            /// Who.
            actor: String,
            /// Flagged as needing concentration (C7H-MOV-2).
            concentration: bool,
        },
        /// C7H-STN-1: a defensive stance taken, using the active action.
        StanceTaken {
            /// Who.
            actor: String,
            /// The option.
            option: C7hStance,
        },
        /// C7H-PAS-1: a passive action used.
        PassiveUsed {
            /// Who.
            actor: String,
            /// Which.
            kind: C7hPassiveKind,
            /// Net bonus dice of the passive roll: +1 from the stance (C7H-STN-1), −1
            /// for the defend roll of `cover_and_defend` (C7H-DEF-5).
            bonus_dice: i64,
        },
        /// C7H-FREE-1: the free action used.
        FreeUsed {
            /// Who.
            actor: String,
        },
        /// C7H-INIT-1: a turn ended; the next in order starts.
        TurnEnded {
            /// Whose.
            actor: String,
            /// Whose turn it is now (none once every turn has ended).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            next: Option<String>,
            /// A stance that ended as the next turn started (C7H-STN-1): that character's id.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            stance_expired: Option<String>,
            /// Every turn of the round has ended (`next_round` is legal).
            round_complete: bool,
        },
    }
}

/// Result of `round_new` and `round_act`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
pub struct C7hRoundResult {
    /// The new state.
    pub state: C7hRoundState,
    /// What happened: one event per action (`round_new`: the round's start).
    pub events: Vec<C7hEvent>,
    /// Every die rolled: always none (the round rolls nothing; the passive resolutions are separate ops).
    pub rolls: Vec<Roll>,
}

/// Parse and validate an untrusted round state (`invalid_data` naming the field).
pub fn load_state(value: &serde_json::Value) -> Result<C7hRoundState> {
    let s: C7hRoundState = crate::ops::parse_data("state", value.clone())?;
    validate_state(&s)?;
    Ok(s)
}

fn validate_state(s: &C7hRoundState) -> Result<()> {
    let ids = Ids::DATA;
    if s.round == 0 || s.round > MAX_ROUND {
        return Err(Error::invalid_data("state.round", format_args!("must be 1..={MAX_ROUND}")));
    }
    let entries: Vec<C7hOrderEntry> = s.combatants.iter().map(|c| c.entry.clone()).collect();
    validate_entries("state.combatants", &entries, ids).map_err(|mut e| {
        e.code = ErrorCode::InvalidData;
        e
    })?;
    for (i, c) in s.combatants.iter().enumerate() {
        if c.passive_used > 2 {
            return Err(Error::invalid_data(format!("state.combatants[{i}].passive_used"), "must be 0..=2"));
        }
    }
    for (i, id) in s.order.iter().enumerate() {
        ids.resolves(&format!("state.order[{i}]"), id, entries.iter().map(|e| e.id.as_str()))?;
    }
    ids.unique(s.order.iter().map(String::as_str), |i| format!("state.order[{i}]"))?;
    if s.order.len() != entries.len() {
        return Err(Error::invalid_data("state.order", "must list every combatant id once"));
    }
    if s.turn.is_some_and(|t| t >= s.order.len()) {
        return Err(Error::invalid_data("state.turn", "must index into order"));
    }
    check_invariants(s, &entries)
}

/// The rules' own invariants of a saved round: a state that no legal play reaches
/// (an order against initiative and DEX, turns ended out of order, own-turn actions
/// before one's turn) is `invalid_data` naming the field and the rule.
fn check_invariants(s: &C7hRoundState, entries: &[C7hOrderEntry]) -> Result<()> {
    // C7H-INIT-1 / C7H-INIT-2: the order is recomputed from initiative, DEX, PC and the
    // combatants' order.
    let want: Vec<&str> =
        order_indices(entries).into_iter().filter_map(|i| entries.get(i)).map(|e| e.id.as_str()).collect();
    if let Some(k) = s.order.iter().zip(&want).position(|(a, b)| a != b) {
        return Err(Error::invariant(
            format!("state.order[{k}]"),
            "C7H-INIT-1",
            format_args!(
                "must be {}: initiative descending, then DEX, then PCs first, then the combatants' order (C7H-INIT-2)",
                quote(want.get(k).copied().unwrap_or(""))
            ),
        ));
    }
    for (k, id) in s.order.iter().enumerate() {
        let Some(i) = s.combatants.iter().position(|c| &c.entry.id == id) else { continue };
        let c = &s.combatants[i];
        let p = format!("state.combatants[{i}]");
        // C7H-INIT-1: turns end in order: each before `turn` has ended, none from it on
        // (every one once `turn` is null).
        let done = s.turn.is_none_or(|t| k < t);
        if c.turn_done != done {
            return Err(Error::invariant(
                format!("{p}.turn_done"),
                "C7H-INIT-1",
                format_args!("must be {done}: turns end in order"),
            ));
        }
        // C7H-MOV-1 / C7H-ECO-1: moving and the active action happen on one's own turn.
        if s.turn.is_some_and(|t| k > t) && (c.moved || c.active_used) {
            return Err(Error::invariant(
                format!("{p}.{}", if c.moved { "moved" } else { "active_used" }),
                "C7H-MOV-1",
                "a character whose turn has not come has neither moved nor used its active action",
            ));
        }
        // C7H-STN-1: the bonus die is the `bonus_die` stance's.
        if c.stance_die_used && c.stance != Some(C7hStance::BonusDie) {
            return Err(Error::invariant(
                format!("{p}.stance_die_used"),
                "C7H-STN-1",
                "only the bonus_die stance has a bonus die to use",
            ));
        }
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

/// `coc7_house.round_new` — round 1 in initiative order (C7H-INIT-1, C7H-INIT-2).
pub fn round_new(args: &C7hRoundNewArgs) -> Result<C7hRoundResult> {
    validate_entries("participants", &args.participants, Ids::ARG)?;
    let order: Vec<String> = order_indices(&args.participants)
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
    let events = vec![C7hEvent::RoundStarted { round: 1, order: order.clone(), stance_expired: None }];
    let state = C7hRoundState { round: 1, combatants, order, turn: Some(0) };
    Ok(C7hRoundResult { state, events, rolls: Vec::new() })
}

/// Who takes `a` (None: `next_round`, the round's own step).
pub(crate) fn actor_of(a: &C7hAction) -> Option<&str> {
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

// ---------------------------------------------------------------- one check per action

/// C7H-INIT-1: own-turn actions only by the character whose turn it is.
fn own_turn(s: &C7hRoundState, actor: &str) -> Result<()> {
    if s.turn.and_then(|t| s.order.get(t)).map(String::as_str) == Some(actor) {
        Ok(())
    } else {
        Err(Error::illegal("C7H-INIT-1", format_args!("it is not {actor}'s turn")))
    }
}

fn combatant(s: &mut C7hRoundState, i: usize) -> Result<&mut C7hCombatant> {
    s.combatants.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "actor index out of range"))
}

/// C7H-MOV-1: move once, at the start of one's own turn, before the active action.
fn check_move(s: &C7hRoundState, c: &C7hCombatant) -> Result<()> {
    own_turn(s, &c.entry.id)?;
    if c.moved {
        return Err(Error::illegal("C7H-MOV-1", "move: once, at the start of one's turn"));
    }
    if c.active_used {
        return Err(Error::illegal("C7H-MOV-1", "move: only before the turn's action"));
    }
    Ok(())
}

/// C7H-ACT-1 / C7H-ECO-1: one active action per round, on one's own turn; a
/// concentration action not in a round with movement (C7H-MOV-2 / C7H-MOV-3).
fn check_active(s: &C7hRoundState, c: &C7hCombatant, concentration: bool) -> Result<()> {
    own_turn(s, &c.entry.id)?;
    if c.active_used {
        return Err(Error::illegal("C7H-ECO-1", "active: one active action per round"));
    }
    if concentration && c.moved {
        return Err(Error::illegal("C7H-MOV-2", "active: no concentration action in a round with movement"));
    }
    Ok(())
}

/// C7H-STN-1: a defensive stance, using the active action, in force until the
/// start of the character's next turn.
fn check_stance(s: &C7hRoundState, c: &C7hCombatant) -> Result<()> {
    own_turn(s, &c.entry.id)?;
    if c.active_used {
        return Err(Error::illegal("C7H-STN-1", "stance: needs the round's active action"));
    }
    Ok(())
}

/// C7H-PAS-1 / C7H-ECO-1: a passive action at any time, one per round (two
/// under the `extra_passive` stance); the `bonus_die` stance gives one roll +1
/// bonus die (C7H-STN-1).
fn check_passive(s: &C7hRoundState, c: &C7hCombatant, bonus_die: bool, concentration: bool) -> Result<()> {
    if s.turn.is_none() {
        return Err(Error::illegal(
            "C7H-INIT-1",
            "passive: every turn of the round has ended (next_round first)",
        ));
    }
    if concentration && c.moved {
        return Err(Error::illegal("C7H-MOV-2", "passive: no concentration action in a round with movement"));
    }
    let max = 1 + u32::from(c.stance == Some(C7hStance::ExtraPassive));
    if c.passive_used >= max {
        return Err(Error::illegal(
            if max > 1 { "C7H-STN-1" } else { "C7H-ECO-1" },
            format_args!("passive: {max} passive action(s) per round"),
        ));
    }
    if bonus_die && (c.stance != Some(C7hStance::BonusDie) || c.stance_die_used) {
        return Err(Error::illegal("C7H-STN-1", "passive: no stance bonus die available"));
    }
    Ok(())
}

/// C7H-FREE-1: one free action per round, at any time.
fn check_free(s: &C7hRoundState, c: &C7hCombatant) -> Result<()> {
    if s.turn.is_none() {
        return Err(Error::illegal(
            "C7H-INIT-1",
            "free: every turn of the round has ended (next_round first)",
        ));
    }
    if c.free_used {
        return Err(Error::illegal("C7H-FREE-1", "free: one free action per round"));
    }
    Ok(())
}

/// C7H-INIT-1 / C7H-ECO-1: the next round once every turn has ended.
fn check_next_round(s: &C7hRoundState) -> Result<()> {
    if s.turn.is_some() {
        return Err(Error::illegal("C7H-INIT-1", "next_round: every character's turn must end first"));
    }
    if s.round >= MAX_ROUND {
        return Err(Error::limit("state.round", format_args!("at most {MAX_ROUND} rounds")));
    }
    Ok(())
}

/// Whether `a` may be taken now (pure): the acting combatant's index (None for
/// `next_round`), or the refusal naming its rule.
pub(crate) fn check(s: &C7hRoundState, a: &C7hAction) -> Result<Option<usize>> {
    let Some(actor) = actor_of(a) else {
        check_next_round(s)?;
        return Ok(None);
    };
    let i = s
        .combatants
        .iter()
        .position(|c| c.entry.id == actor)
        .ok_or_else(|| Error::invalid("action.actor", format_args!("no character {}", quote(actor))))?;
    let c = &s.combatants[i];
    match a {
        C7hAction::Move { .. } => check_move(s, c)?,
        C7hAction::Active { concentration, .. } => check_active(s, c, *concentration)?,
        C7hAction::Stance { .. } => check_stance(s, c)?,
        C7hAction::Passive { bonus_die, concentration, .. } => {
            check_passive(s, c, *bonus_die, *concentration)?
        }
        C7hAction::Free { .. } => check_free(s, c)?,
        C7hAction::EndTurn { .. } => own_turn(s, actor)?,
        C7hAction::NextRound => check_next_round(s)?,
    }
    Ok(Some(i))
}

// ---------------------------------------------------------------- one change per action

/// C7H-INIT-1: the actor's turn ends and the next in order starts (its stance
/// ends then, C7H-STN-1).
fn end_turn(s: &mut C7hRoundState, i: usize) -> Result<C7hEvent> {
    let actor = s.combatants[i].entry.id.clone();
    combatant(s, i)?.turn_done = true;
    s.turn = match s.turn {
        Some(t) if t + 1 < s.order.len() => Some(t + 1),
        _ => None,
    };
    let stance_expired = start_turn(s);
    let next = s.turn.and_then(|t| s.order.get(t)).cloned();
    Ok(C7hEvent::TurnEnded { actor, round_complete: next.is_none(), next, stance_expired })
}

/// C7H-INIT-1 / C7H-ECO-1: the next round: the round's actions are regained and the
/// order set anew.
fn next_round(s: &mut C7hRoundState) -> C7hEvent {
    s.round += 1;
    for c in &mut s.combatants {
        c.moved = false;
        c.active_used = false;
        c.passive_used = 0;
        c.free_used = false;
        c.turn_done = false;
    }
    let order = order_indices(&s.combatants.iter().map(|c| c.entry.clone()).collect::<Vec<_>>());
    s.order = order.into_iter().filter_map(|i| s.combatants.get(i)).map(|c| c.entry.id.clone()).collect();
    s.turn = Some(0);
    let stance_expired = start_turn(s);
    C7hEvent::RoundStarted { round: s.round, order: s.order.clone(), stance_expired }
}

/// Apply `a`, which [`check`] accepted with the actor's index `i`, in place: its event.
pub(crate) fn commit(s: &mut C7hRoundState, a: &C7hAction, i: Option<usize>) -> Result<Vec<C7hEvent>> {
    let Some(i) = i else {
        return Ok(vec![next_round(s)]);
    };
    let e = match a {
        C7hAction::Move { .. } => {
            let c = combatant(s, i)?;
            c.moved = true;
            C7hEvent::Moved { actor: c.entry.id.clone() }
        }
        C7hAction::Active { concentration, .. } => {
            let c = combatant(s, i)?;
            c.active_used = true;
            C7hEvent::ActiveUsed { actor: c.entry.id.clone(), concentration: *concentration }
        }
        C7hAction::Stance { option, .. } => {
            let c = combatant(s, i)?;
            c.active_used = true;
            c.stance = Some(*option);
            c.stance_die_used = false;
            C7hEvent::StanceTaken { actor: c.entry.id.clone(), option: *option }
        }
        C7hAction::Passive { kind, bonus_die, .. } => {
            let c = combatant(s, i)?;
            c.passive_used += 1;
            if *bonus_die {
                c.stance_die_used = true;
            }
            let penalty = i64::from(*kind == C7hPassiveKind::CoverAndDefend);
            C7hEvent::PassiveUsed {
                actor: c.entry.id.clone(),
                kind: *kind,
                bonus_dice: i64::from(*bonus_die) - penalty,
            }
        }
        C7hAction::Free { .. } => {
            let c = combatant(s, i)?;
            c.free_used = true;
            C7hEvent::FreeUsed { actor: c.entry.id.clone() }
        }
        C7hAction::EndTurn { .. } => end_turn(s, i)?,
        C7hAction::NextRound => next_round(s),
    };
    Ok(vec![e])
}

/// One action on a validated state, in place (what `round_act` uses): checked, then
/// applied; a refused action changes nothing.
pub(crate) fn act_on(s: &mut C7hRoundState, a: &C7hAction) -> Result<Vec<C7hEvent>> {
    let i = check(s, a)?;
    commit(s, a, i)
}

/// `coc7_house.round_act` — apply one action; illegal actions return
/// `illegal_action` naming the rule, and the caller's state is unchanged.
pub fn round_act(args: &C7hRoundActArgs) -> Result<C7hRoundResult> {
    let mut state = load_state(&args.state)?;
    let events = act_on(&mut state, &args.action)?;
    Ok(C7hRoundResult { state, events, rolls: Vec::new() })
}

pub(crate) fn uses(a: &C7hAction) -> C7hUses {
    match a {
        C7hAction::Active { .. } | C7hAction::Stance { .. } => C7hUses::Active,
        C7hAction::Passive { .. } => C7hUses::Passive,
        C7hAction::Free { .. } => C7hUses::Free,
        C7hAction::Move { .. } | C7hAction::EndTurn { .. } | C7hAction::NextRound => C7hUses::None,
    }
}

/// `coc7_house.round_legal_actions` — every action `round_act` accepts now.
pub fn round_legal_actions(args: &C7hRoundLegalArgs) -> Result<C7hRoundLegalResult> {
    let s = load_state(&args.state)?;
    Ok(C7hRoundLegalResult { actions: crate::engine::listing_of::<crate::coc::handle::HouseRound>(&(), &s)? })
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
            C7hPassiveKind::CoverAndDefend,
            C7hPassiveKind::Cancel,
            C7hPassiveKind::Counter,
            C7hPassiveKind::Other,
        ] {
            cands.push(C7hAction::Passive { actor: a.clone(), kind, bonus_die: false, concentration: false });
            cands.push(C7hAction::Passive { actor: a.clone(), kind, bonus_die: true, concentration: false });
        }
        cands.push(C7hAction::Free { actor: a.clone() });
        cands.push(C7hAction::EndTurn { actor: a.clone() });
    }
    cands.push(C7hAction::NextRound);
    cands
}
