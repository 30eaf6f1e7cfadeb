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

use super::damage::C7hDamageResult;
use super::damage::C7hVariants;
use super::init::{order_indices, validate_entries, C7hOrderEntry};
use super::resolve::{
    C7hAutoHitReason, C7hAutoHitResult, C7hCancelResult, C7hCounterResult, C7hCoverResult, C7hDefendResult,
};
use super::sentences;
use crate::coc7::Coc7Outcome;
use crate::dice::Roll;
use crate::engine::ids::{quote, Ids};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use crate::kernel::label::Logged;

/// Highest round number.
pub const MAX_ROUND: u32 = 10_000;

/// Defensive-stance option (C7H-STN-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hStance {
    /// +1 passive action.
    ExtraPassive,
    /// +1 bonus die on one passive-action roll.
    BonusDie,
}

/// Kind of passive action (C7H-PAS-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// A weapon, spell or skill a combatant attacks (or defends, fights back, cancels or
/// counters) with (C7H-ACT-1, C7H-RNG-1).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hWeapon {
    /// Its id among the combatant's weapons (1–64 characters).
    pub id: String,
    /// The skill it is rolled with, 0–999.
    #[schemars(range(min = 0, max = 999))]
    pub skill: i64,
    /// Base damage, a dice expression (`1d8`, `1d6+1`); a trailing `+DB` adds the
    /// combatant's damage bonus `db`, which an Extreme success never doubles (C7H-ACT-3).
    pub damage: String,
    /// Range/target in the seed's notation (`近接`, `近接2m`, `射撃20m/1体`, C7H-RNG-1).
    /// Default `近接`.
    #[serde(default = "melee_range")]
    pub range: String,
    /// Defense value (防御力) when it defends (C7H-DEF-2), 0–1000000. Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1000000))]
    pub defense: i64,
    /// The KP rules its attacks cancellable (C7H-CAN-3: not bullets, invisible, wide-area
    /// or mental attacks). Default true.
    #[serde(default = "yes")]
    pub cancellable: bool,
}

fn melee_range() -> String {
    "近接".into()
}

fn yes() -> bool {
    true
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// Whether a combatant can still act (the illustrative 7th-edition pack, C7H-PAS-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hStatus {
    /// Up and fighting.
    #[default]
    Active,
    /// 0 HP without a major wound.
    Unconscious,
    /// 0 HP with a major wound.
    Dying,
    /// One hit above the maximum HP.
    Dead,
}

impl C7hStatus {
    fn is_active(&self) -> bool {
        *self == C7hStatus::Active
    }
}

/// One participant of `round_new`: the turn-order entry and, for the attack exchanges,
/// side, hit points, armour, Dodge, damage bonus and weapons (all optional).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hParticipant {
    /// The turn-order entry: id, DEX, `is_pc`, initiative modifier.
    #[serde(flatten)]
    pub entry: C7hOrderEntry,
    /// Side (1–64 characters): allies share one; the fight ends when every side but one
    /// is down. Optional (no side: no ally to cover, no end of the fight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Hit points now, 0–1000000. Optional (no HP: damage is reported, not tracked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 1000000))]
    pub hp: Option<i64>,
    /// Maximum hit points, 1–1000000 (default `hp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000000))]
    pub hp_max: Option<i64>,
    /// Armour: points subtracted from each hit, 0–1000000. Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 0, max = 1000000))]
    pub armor: i64,
    /// Dodge skill, 0–999 (default from the pack: half DEX).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 999))]
    pub dodge: Option<i64>,
    /// Damage bonus, a dice expression (`1d4`, `-1`) that a weapon's `+DB` adds. Default none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db: Option<String>,
    /// Weapons (at most 20).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<C7hWeapon>,
}

/// A character in the round state.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hCombatant {
    /// The character as given.
    pub entry: C7hOrderEntry,
    /// Side (see [`C7hParticipant`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Hit points now (absent: not tracked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i64>,
    /// Maximum hit points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp_max: Option<i64>,
    /// Armour subtracted from each hit.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub armor: i64,
    /// Dodge skill (absent: the pack's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dodge: Option<i64>,
    /// Damage bonus expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db: Option<String>,
    /// Weapons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<C7hWeapon>,
    /// A major wound was taken (the illustrative pack).
    #[serde(default, skip_serializing_if = "is_false")]
    pub major_wound: bool,
    /// Active, unconscious, dying or dead; only an active combatant acts or is attacked.
    #[serde(default, skip_serializing_if = "C7hStatus::is_active")]
    pub status: C7hStatus,
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
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// An attack waiting for its target's reaction (stage `reaction` of `turn()`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<C7hPending>,
    /// Rule variants of the exchanges (`coc7_rule`, `extreme_damage`).
    #[serde(default, skip_serializing_if = "is_default_variants")]
    pub variants: C7hVariants,
}

fn is_default_variants(v: &C7hVariants) -> bool {
    *v == C7hVariants::default()
}

/// An attack declared and waiting for the target's reaction (C7H-PAS-1).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hPending {
    /// Who attacks.
    pub attacker: String,
    /// Whom.
    pub target: String,
    /// With which of the attacker's weapons.
    pub weapon: String,
    /// Bonus dice of the attack roll, after the range penalty (C7H-RNG-2), −10…10.
    #[serde(default)]
    pub bonus_dice: i64,
    /// The weapon is a melee weapon (a counter-attack is possible, C7H-CTR-1).
    #[serde(default)]
    pub melee: bool,
}

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    /// One action.
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
        /// C7H-ACT-1: attack `target` with one of one's `weapon`s (the active action). The
        /// target answers with a `reaction` (C7H-PAS-1); an automatic hit (C7H-AUTO-1)
        /// resolves at once.
        Attack {
            /// Who attacks.
            actor: String,
            /// Whom (a combatant's id).
            target: String,
            /// The id of one of the attacker's weapons.
            weapon: String,
            /// Distance to the target in metres, 0–1000000 (checked against the weapon's
            /// range, C7H-RNG-2). Default 0.
            #[serde(default)]
            distance: i64,
            /// Bonus (or, negative, penalty) dice the KP grants the attack roll, −10…10. Default 0.
            #[serde(default)]
            bonus_dice: i64,
            /// The KP rules an automatic hit (C7H-AUTO-1): why. Default none.
            #[serde(default)]
            auto_hit: Option<C7hAutoHitReason>,
            /// The KP flags the attack as needing concentration (C7H-MOV-2). Default false.
            #[serde(default)]
            concentration: bool,
        },
        /// C7H-PAS-1: answer the pending attack: the target's passive action (`dodge`,
        /// `defend`, `fight_back`, `cancel`, `counter`), an ally's `cover` /
        /// `cover_and_defend`, or the target taking it (`kind` absent). Rolls the attack,
        /// the reaction and the damage.
        Reaction {
            /// Who reacts (the target; an ally for `cover`).
            actor: String,
            /// The passive action; absent: none (the attack is taken as rolled).
            #[serde(default)]
            kind: Option<C7hPassiveKind>,
            /// The reactor's weapon for `defend`, `fight_back`, `cancel`, `counter`,
            /// `cover_and_defend` (default its first weapon).
            #[serde(default)]
            weapon: Option<String>,
            /// Spend the stance's +1 bonus die on this roll (C7H-STN-1). Default false.
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
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hRoundNewArgs {
    /// Characters (1–100), in the caller's order (the last tie-break).
    pub participants: Vec<C7hParticipant>,
    /// Rule variants of the exchanges: `coc7_rule` (0–5), `extreme_damage`.
    #[serde(default)]
    pub variants: C7hVariants,
}

/// Which of the round's actions (C7H-ECO-1) a listed action uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hLegalAction {
    /// The action, exactly as `round_act` accepts it.
    pub action: C7hAction,
    /// The action of the round it uses (C7H-ECO-1).
    pub uses: C7hUses,
}

crate::legal_shapes!(
    /// Arguments of `coc7_house.round_legal_actions`.
    C7hRoundLegalArgs,
    /// Result of `coc7_house.round_legal_actions`.
    C7hRoundLegalResult,
    "C7hRoundState",
    /// Every legal action in the form `round_act` accepts (`active` is listed
    /// with `concentration: false`, and also `true` when legal; `passive` with
    /// `bonus_die: true` only when the stance die is available).
    actions: C7hLegalAction,
    viewer: "a combatant's id."
);

crate::act_shapes!(
    /// Arguments of `coc7_house.round_act`.
    ///
    /// `rolls`: Scripted faces of a reaction (the attack roll, the reaction's roll, the
    /// damage) or an automatic hit (the attack roll, the damage): d100s as tens dice, then
    /// the ones die.
    C7hRoundActArgs,
    "C7hRoundState",
    C7hAction
);

crate::internally_tagged! {
    #[serde(tag = "event", rename_all = "snake_case")]
    /// What an action did (one event per action, and a turn ending when the turn holder
    /// goes down), reported with its `rule` and `text` ([`C7hLoggedEvent`]).
    #[allow(clippy::large_enum_variant)]
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
        /// C7H-ACT-1: an attack declared; it waits for the target's reaction (C7H-PAS-1).
        AttackDeclared {
            /// Who attacks.
            attacker: String,
            /// Whom.
            target: String,
            /// With which weapon.
            weapon: String,
            /// Bonus dice of the attack roll (negative: penalty dice; a target beyond range
            /// costs one, C7H-RNG-2).
            bonus_dice: i64,
        },
        /// C7H-PAS-1 (and the passive action's own rule): a whole exchange resolved: the
        /// attack roll, the reaction, the damage and the hit points left.
        AttackResolved {
            /// Who attacked.
            attacker: String,
            /// Whom.
            target: String,
            /// With which weapon.
            weapon: String,
            /// Who reacted (the target, or the covering ally); absent for an automatic hit.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            reactor: Option<String>,
            /// The passive action taken; absent when the attack was taken as rolled.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            kind: Option<C7hPassiveKind>,
            /// An automatic hit (C7H-AUTO-1): why.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            auto_hit: Option<C7hAutoHitReason>,
            /// The attack roll.
            attack: Coc7Outcome,
            /// The reactor's roll (Dodge, the weapon's skill, or DEX for a cover).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            reaction: Option<Coc7Outcome>,
            /// The defend roll of `cover_and_defend` (one penalty die, C7H-DEF-5).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            defend_roll: Option<Coc7Outcome>,
            /// The attack hit.
            hit: bool,
            /// The attack's damage roll (C7H-ACT-2 / C7H-ACT-3), when it hit.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            damage: Option<C7hDamageResult>,
            /// `coc7_house.defend`'s result (C7H-DEF).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            defend: Option<C7hDefendResult>,
            /// `coc7_house.cover`'s result (C7H-COV).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cover: Option<C7hCoverResult>,
            /// `coc7_house.cancel`'s result (C7H-CAN).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cancel: Option<C7hCancelResult>,
            /// `coc7_house.counter`'s result (C7H-CTR).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            counter: Option<C7hCounterResult>,
            /// `coc7_house.auto_hit`'s result (C7H-AUTO).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            auto: Option<C7hAutoHitResult>,
            /// Who took the attack's damage (the target, or the ally who covered it).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            hurt: Option<String>,
            /// Damage taken by `hurt`, after the passive action and armour.
            damage_taken: i64,
            /// `hurt`'s hit points left (absent when not tracked).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            hp: Option<i64>,
            /// `hurt`'s status after the hit.
            #[serde(default)]
            status: C7hStatus,
            /// The hit was a major wound (the illustrative pack).
            #[serde(default)]
            major_wound: bool,
            /// Damage rolled against the attacker (a fight back won, a counter-attack, C7H-CTR-3).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            returned: Option<C7hDamageResult>,
            /// The canceller's damage roll (a successful cancel, C7H-CAN-2).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            canceller_damage: Option<C7hDamageResult>,
            /// Damage the attacker took, after armour.
            #[serde(default)]
            attacker_damage_taken: i64,
            /// The attacker's hit points left (absent when not tracked).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            attacker_hp: Option<i64>,
            /// The attacker's status after the exchange.
            #[serde(default)]
            attacker_status: C7hStatus,
        },
    }
}

/// An event as reported: with the rule that produced it and its sentence.
pub type C7hLoggedEvent = crate::kernel::label::Logged<C7hEvent>;

/// Result of `round_new` and `round_act`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hRoundResult {
    /// The new state.
    pub state: C7hRoundState,
    /// What happened: one event per action (`round_new`: the round's start), each with
    /// its `rule` and a `text` sentence.
    pub events: Vec<C7hLoggedEvent>,
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
        validate_fighter(&format!("state.combatants[{i}]"), c).map_err(|mut e| {
            e.code = ErrorCode::InvalidData;
            e
        })?;
        if c.hp.is_none() && c.status != C7hStatus::Active {
            return Err(Error::invalid_data(
                format!("state.combatants[{i}].status"),
                "only a combatant with hp goes down",
            ));
        }
    }
    if let Some(p) = &s.pending {
        let find = |id: &str| s.combatants.iter().find(|c| c.entry.id == id);
        let a = find(&p.attacker)
            .ok_or_else(|| Error::invalid_data("state.pending.attacker", "names no combatant"))?;
        let t = find(&p.target)
            .ok_or_else(|| Error::invalid_data("state.pending.target", "names no combatant"))?;
        if a.weapons.iter().all(|w| w.id != p.weapon) {
            return Err(Error::invalid_data("state.pending.weapon", "names no weapon of the attacker"));
        }
        if !(-10..=10).contains(&p.bonus_dice) {
            return Err(Error::invalid_data("state.pending.bonus_dice", "must be -10..=10"));
        }
        if !super::exchange::is_up(t) || !super::exchange::is_up(a) || a.entry.id == t.entry.id {
            return Err(Error::invalid_data(
                "state.pending",
                "an attack waits only between two different combatants still up",
            ));
        }
    }
    crate::coc7::check::validate_rule("state.variants.coc7_rule", s.variants.coc7_rule).map_err(
        |mut e| {
            e.code = ErrorCode::InvalidData;
            e
        },
    )?;
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

/// Largest hit points, armour or defense value.
pub const MAX_HP: i64 = 1_000_000;
/// Most weapons per combatant.
pub const MAX_WEAPONS: usize = 20;

/// A combatant's exchange fields (`prefix`: where they are).
fn validate_fighter(prefix: &str, c: &C7hCombatant) -> Result<()> {
    if let Some(side) = &c.side {
        let n = side.chars().count();
        if n == 0 || n > crate::engine::ids::MAX_ID_LEN {
            return Err(Error::invalid(format!("{prefix}.side"), "must be 1–64 characters"));
        }
    }
    if let Some(m) = c.hp_max {
        if !(1..=MAX_HP).contains(&m) {
            return Err(Error::out_of_range(
                format!("{prefix}.hp_max"),
                format_args!("must be 1..={MAX_HP}"),
            ));
        }
        if c.hp.is_none() {
            return Err(Error::invalid(format!("{prefix}.hp_max"), "goes with hp"));
        }
    }
    if let Some(h) = c.hp {
        if !(0..=c.hp_max.unwrap_or(MAX_HP)).contains(&h) {
            return Err(Error::out_of_range(format!("{prefix}.hp"), "must be 0..=hp_max (at most 1000000)"));
        }
    }
    if !(0..=MAX_HP).contains(&c.armor) {
        return Err(Error::out_of_range(format!("{prefix}.armor"), format_args!("must be 0..={MAX_HP}")));
    }
    if let Some(d) = c.dodge {
        crate::coc7::check::validate_skill(&format!("{prefix}.dodge"), d)?;
    }
    let mut probe = crate::dice::Dice::seeded(0)?;
    if let Some(db) = &c.db {
        crate::dice::expr::roll_with(db, &mut probe)
            .map_err(|e| e.relocated(crate::error::loc_of(&format!("{prefix}.db"))))?;
    }
    if c.weapons.len() > MAX_WEAPONS {
        return Err(Error::limit(format!("{prefix}.weapons"), format_args!("at most {MAX_WEAPONS}")));
    }
    for (k, w) in c.weapons.iter().enumerate() {
        let wp = format!("{prefix}.weapons[{k}]");
        let n = w.id.chars().count();
        if n == 0 || n > crate::engine::ids::MAX_ID_LEN {
            return Err(Error::invalid(format!("{wp}.id"), "must be 1–64 characters"));
        }
        if c.weapons[..k].iter().any(|x| x.id == w.id) {
            return Err(Error::invalid(format!("{wp}.id"), "weapon ids must be unique"));
        }
        crate::coc7::check::validate_skill(&format!("{wp}.skill"), w.skill)?;
        if !(0..=MAX_HP).contains(&w.defense) {
            return Err(Error::out_of_range(format!("{wp}.defense"), format_args!("must be 0..={MAX_HP}")));
        }
        let (expr, _) = super::exchange::split_db(&w.damage);
        crate::dice::expr::roll_with(expr, &mut probe)
            .map_err(|e| e.relocated(crate::error::loc_of(&format!("{wp}.damage"))))?;
        super::range::parse_range(&super::range::C7hParseRangeArgs {
            text: w.range.clone(),
            ..Default::default()
        })
        .map_err(|e| e.relocated(crate::error::loc_of(&format!("{wp}.range"))))?;
    }
    Ok(())
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
    let entries: Vec<C7hOrderEntry> = args.participants.iter().map(|p| p.entry.clone()).collect();
    validate_entries("participants", &entries, Ids::ARG)?;
    crate::coc7::check::validate_rule("variants.coc7_rule", args.variants.coc7_rule)?;
    let order: Vec<String> =
        order_indices(&entries).into_iter().filter_map(|i| entries.get(i)).map(|p| p.id.clone()).collect();
    let mut combatants = Vec::with_capacity(entries.len());
    for (i, (e, p)) in entries.into_iter().zip(&args.participants).enumerate() {
        let c = C7hCombatant {
            entry: e,
            side: p.side.clone(),
            hp: p.hp,
            hp_max: p.hp_max.or(p.hp),
            armor: p.armor,
            dodge: p.dodge,
            db: p.db.clone(),
            weapons: p.weapons.clone(),
            major_wound: false,
            status: C7hStatus::Active,
            moved: false,
            active_used: false,
            passive_used: 0,
            free_used: false,
            stance: None,
            stance_die_used: false,
            turn_done: false,
        };
        validate_fighter(&format!("participants[{i}]"), &c)?;
        combatants.push(c);
    }
    let text = sentences::round_started(1, &order);
    let events = vec![Logged::new(
        C7hEvent::RoundStarted { round: 1, order: order.clone(), stance_expired: None },
        "C7H-INIT-1",
        text,
    )];
    let state =
        C7hRoundState { round: 1, combatants, order, turn: Some(0), pending: None, variants: args.variants };
    Ok(C7hRoundResult { state, events, rolls: Vec::new() })
}

/// Who takes `a` (None: `next_round`, the round's own step).
pub(crate) fn actor_of(a: &C7hAction) -> Option<&str> {
    match a {
        C7hAction::Move { actor }
        | C7hAction::Active { actor, .. }
        | C7hAction::Stance { actor, .. }
        | C7hAction::Passive { actor, .. }
        | C7hAction::Attack { actor, .. }
        | C7hAction::Reaction { actor, .. }
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
    if super::exchange::fight_over(s).is_some() {
        return Err(Error::illegal("C7H-ACT-1", "the fight is over: every side but one is down"));
    }
    if let Some(p) = &s.pending {
        if !matches!(a, C7hAction::Reaction { .. }) {
            return Err(Error::illegal(
                "C7H-PAS-1",
                format_args!("{}'s attack on {} waits for a reaction first", p.attacker, p.target),
            ));
        }
    }
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
    if !super::exchange::is_up(c) {
        return Err(Error::illegal(
            "C7H-ECO-1",
            format_args!("{actor} is down ({:?}) and cannot act", c.status),
        ));
    }
    match a {
        C7hAction::Move { .. } => check_move(s, c)?,
        C7hAction::Active { concentration, .. } => check_active(s, c, *concentration)?,
        C7hAction::Attack { target, weapon, distance, bonus_dice, concentration, .. } => {
            check_active(s, c, *concentration)?;
            super::exchange::check_attack(s, i, target, weapon, *distance, *bonus_dice)?;
        }
        C7hAction::Stance { .. } => check_stance(s, c)?,
        C7hAction::Passive { bonus_die, concentration, .. } => {
            check_passive(s, c, *bonus_die, *concentration)?
        }
        C7hAction::Reaction { kind, weapon, bonus_die, .. } => {
            super::exchange::check_reaction(s, i, *kind, weapon.as_deref(), *bonus_die)?;
            if kind.is_some() {
                check_passive(s, c, *bonus_die, false)?;
            }
        }
        C7hAction::Free { .. } => check_free(s, c)?,
        C7hAction::EndTurn { .. } => own_turn(s, actor)?,
        C7hAction::NextRound => check_next_round(s)?,
    }
    Ok(Some(i))
}

// ---------------------------------------------------------------- one change per action

/// C7H-INIT-1: the actor's turn ends and the next in order starts (its stance
/// ends then, C7H-STN-1); a combatant who is down has no turn and is passed over.
fn end_turn(s: &mut C7hRoundState, i: usize) -> Result<C7hLoggedEvent> {
    let actor = s.combatants[i].entry.id.clone();
    combatant(s, i)?.turn_done = true;
    s.turn = match s.turn {
        Some(t) if t + 1 < s.order.len() => Some(t + 1),
        _ => None,
    };
    skip_down(s);
    let stance_expired = start_turn(s);
    let next = s.turn.and_then(|t| s.order.get(t)).cloned();
    let text = sentences::turn_ended(&actor, next.as_deref());
    let e = C7hEvent::TurnEnded { actor, round_complete: next.is_none(), next, stance_expired };
    Ok(Logged::new(e, "C7H-INIT-1", text))
}

/// Pass over the turns of combatants who are down (they cannot act).
fn skip_down(s: &mut C7hRoundState) {
    while let Some(t) = s.turn {
        let Some(c) = s.order.get(t).and_then(|id| s.combatants.iter_mut().find(|c| &c.entry.id == id))
        else {
            return;
        };
        if super::exchange::is_up(c) {
            return;
        }
        c.turn_done = true;
        s.turn = (t + 1 < s.order.len()).then_some(t + 1);
    }
}

/// C7H-INIT-1 / C7H-ECO-1: the next round: the round's actions are regained and the
/// order set anew.
fn next_round(s: &mut C7hRoundState) -> C7hLoggedEvent {
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
    skip_down(s);
    let stance_expired = start_turn(s);
    let text = sentences::round_started(s.round, &s.order);
    Logged::new(
        C7hEvent::RoundStarted { round: s.round, order: s.order.clone(), stance_expired },
        "C7H-INIT-1",
        text,
    )
}

/// Count a passive action (and the stance die, C7H-STN-1).
fn spend_passive(c: &mut C7hCombatant, bonus_die: bool) {
    c.passive_used += 1;
    if bonus_die {
        c.stance_die_used = true;
    }
}

/// Apply `a`, which [`check`] accepted with the actor's index `i`, in place: its events.
pub(crate) fn commit(
    s: &mut C7hRoundState,
    a: &C7hAction,
    i: Option<usize>,
    dice: &mut crate::dice::Dice,
) -> Result<Vec<C7hLoggedEvent>> {
    let Some(i) = i else {
        return Ok(vec![next_round(s)]);
    };
    let e = match a {
        C7hAction::Move { .. } => {
            let c = combatant(s, i)?;
            c.moved = true;
            let id = c.entry.id.clone();
            let text = sentences::moved(&id);
            Logged::new(C7hEvent::Moved { actor: id }, "C7H-MOV-1", text)
        }
        C7hAction::Active { concentration, .. } => {
            let c = combatant(s, i)?;
            c.active_used = true;
            let id = c.entry.id.clone();
            let text = sentences::active_used(&id);
            Logged::new(C7hEvent::ActiveUsed { actor: id, concentration: *concentration }, "C7H-ACT-1", text)
        }
        C7hAction::Attack { actor, target, weapon, distance, bonus_dice, auto_hit, .. } => {
            let (t, bonus) = super::exchange::check_attack(s, i, target, weapon, *distance, *bonus_dice)?;
            combatant(s, i)?.active_used = true;
            let melee = s.combatants[i]
                .weapons
                .iter()
                .find(|w| &w.id == weapon)
                .is_some_and(super::exchange::is_melee);
            let p = C7hPending {
                attacker: actor.clone(),
                target: s.combatants[t].entry.id.clone(),
                weapon: weapon.clone(),
                bonus_dice: bonus,
                melee,
            };
            if let Some(reason) = auto_hit {
                let e = super::exchange::resolve_auto(s, &p, *reason, dice)?;
                return Ok(vec![e]);
            }
            let text = sentences::attack_declared(actor, target, weapon, bonus);
            let e = C7hEvent::AttackDeclared {
                attacker: p.attacker.clone(),
                target: p.target.clone(),
                weapon: p.weapon.clone(),
                bonus_dice: bonus,
            };
            let e = Logged::new(e, "C7H-ACT-1", text);
            s.pending = Some(p);
            e
        }
        C7hAction::Reaction { kind, weapon, bonus_die, .. } => {
            if kind.is_some() {
                spend_passive(combatant(s, i)?, *bonus_die);
            }
            let attacker = s.pending.as_ref().map(|p| p.attacker.clone()).unwrap_or_default();
            let e = super::exchange::resolve(s, i, *kind, weapon.as_deref(), i64::from(*bonus_die), dice)?;
            let mut out = vec![e];
            // The turn holder put down by a fight back or counter-attack: its turn ends.
            let holder = s.turn.and_then(|t| s.order.get(t)).cloned();
            if holder.as_deref() == Some(attacker.as_str()) {
                if let Some(k) = s.combatants.iter().position(|c| c.entry.id == attacker) {
                    if !super::exchange::is_up(&s.combatants[k]) && super::exchange::fight_over(s).is_none() {
                        out.push(end_turn(s, k)?);
                    }
                }
            }
            return Ok(out);
        }
        C7hAction::Stance { option, .. } => {
            let c = combatant(s, i)?;
            c.active_used = true;
            c.stance = Some(*option);
            c.stance_die_used = false;
            let id = c.entry.id.clone();
            let text = sentences::stance_taken(&id, *option);
            Logged::new(C7hEvent::StanceTaken { actor: id, option: *option }, "C7H-STN-1", text)
        }
        C7hAction::Passive { kind, bonus_die, .. } => {
            let c = combatant(s, i)?;
            spend_passive(c, *bonus_die);
            let penalty = i64::from(*kind == C7hPassiveKind::CoverAndDefend);
            let id = c.entry.id.clone();
            let text = sentences::passive_used(&id, *kind);
            let e =
                C7hEvent::PassiveUsed { actor: id, kind: *kind, bonus_dice: i64::from(*bonus_die) - penalty };
            Logged::new(e, "C7H-PAS-1", text)
        }
        C7hAction::Free { .. } => {
            let c = combatant(s, i)?;
            c.free_used = true;
            let id = c.entry.id.clone();
            let text = sentences::free_used(&id);
            Logged::new(C7hEvent::FreeUsed { actor: id }, "C7H-FREE-1", text)
        }
        C7hAction::EndTurn { .. } => end_turn(s, i)?,
        C7hAction::NextRound => next_round(s),
    };
    Ok(vec![e])
}

pub(crate) fn uses(a: &C7hAction) -> C7hUses {
    match a {
        C7hAction::Active { .. } | C7hAction::Stance { .. } | C7hAction::Attack { .. } => C7hUses::Active,
        C7hAction::Passive { .. } => C7hUses::Passive,
        C7hAction::Reaction { kind: Some(_), .. } => C7hUses::Passive,
        C7hAction::Free { .. } => C7hUses::Free,
        C7hAction::Reaction { kind: None, .. }
        | C7hAction::Move { .. }
        | C7hAction::EndTurn { .. }
        | C7hAction::NextRound => C7hUses::None,
    }
}

const PASSIVE_KINDS: [C7hPassiveKind; 8] = [
    C7hPassiveKind::Dodge,
    C7hPassiveKind::Defend,
    C7hPassiveKind::FightBack,
    C7hPassiveKind::Cover,
    C7hPassiveKind::CoverAndDefend,
    C7hPassiveKind::Cancel,
    C7hPassiveKind::Counter,
    C7hPassiveKind::Other,
];

/// Every action the listing tries (legal or not; the engine harness tries them too):
/// attacks at distance 0 on every other combatant with every weapon, reactions with the
/// default weapon.
pub(crate) fn candidates(s: &C7hRoundState) -> Vec<C7hAction> {
    let mut cands = Vec::new();
    for c in &s.combatants {
        let a = c.entry.id.clone();
        if s.pending.is_some() {
            cands.push(C7hAction::Reaction { actor: a.clone(), kind: None, weapon: None, bonus_die: false });
            for kind in PASSIVE_KINDS {
                for bonus_die in [false, true] {
                    cands.push(C7hAction::Reaction {
                        actor: a.clone(),
                        kind: Some(kind),
                        weapon: None,
                        bonus_die,
                    });
                }
            }
            continue;
        }
        cands.push(C7hAction::Move { actor: a.clone() });
        cands.push(C7hAction::Active { actor: a.clone(), concentration: false });
        cands.push(C7hAction::Active { actor: a.clone(), concentration: true });
        for t in &s.combatants {
            for w in &c.weapons {
                cands.push(C7hAction::Attack {
                    actor: a.clone(),
                    target: t.entry.id.clone(),
                    weapon: w.id.clone(),
                    distance: 0,
                    bonus_dice: 0,
                    auto_hit: None,
                    concentration: false,
                });
            }
        }
        cands.push(C7hAction::Stance { actor: a.clone(), option: C7hStance::ExtraPassive });
        cands.push(C7hAction::Stance { actor: a.clone(), option: C7hStance::BonusDie });
        for kind in PASSIVE_KINDS {
            cands.push(C7hAction::Passive { actor: a.clone(), kind, bonus_die: false, concentration: false });
            cands.push(C7hAction::Passive { actor: a.clone(), kind, bonus_die: true, concentration: false });
        }
        cands.push(C7hAction::Free { actor: a.clone() });
        cands.push(C7hAction::EndTurn { actor: a.clone() });
    }
    cands.push(C7hAction::NextRound);
    cands
}
