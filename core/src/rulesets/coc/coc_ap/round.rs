//! The action-point round (COCAP-RND, COCAP-ORD, COCAP-AP, COCAP-ACT) as a
//! pure state machine: `coc_ap.round_new`, `coc_ap.round_legal_actions`,
//! `coc_ap.round_act`.
//!
//! * COCAP-RND-1 / COCAP-RND-2: rounds are numbered 1, 2, …; participants act
//!   in order; `next_round` is legal only after every turn has ended.
//! * COCAP-ORD-1: order is set at each round start by DEX descending; ties by
//!   higher Dodge, then the caller's participant order (RULINGS).
//! * COCAP-AP-1 / COCAP-AP-3 / COCAP-AP-4: AP = 2 + floor(DEX ÷ 6) + `ap_bonus`,
//!   regained at each round start; unspent AP is lost (RULINGS).
//! * Own-turn actions (only by the participant whose turn it is): `move`,
//!   `attack` (at a `target`), `treat`, `other`, `end_turn`. `dodge_focus` may be
//!   declared by anyone while the round is still "open" (no other action yet).
//! * An attack whose check succeeds is *pending*: its target answers it (the
//!   `reaction` stage of `turn()`) with `dodge`, `parry`, `jump`,
//!   `emergency_evasion` (0 AP each) or `no_reaction` (takes the hit); nothing
//!   else is legal meanwhile but another character's `emergency_evasion`
//!   (COCAP-ACT-7: it may be inserted before any declared action). Without a
//!   pending attack the reactions are refused. The answer resolves the attack:
//!   the reaction's check, then, unless the attack was avoided, the weapon's
//!   `damage` less the target's `armor`, taken from its `hp`.
//! * Treatment restores HP, damage and the HP thresholds follow the 6th-edition
//!   base rules of the illustrative pack [`super::pack`] (`COC6-BASE-…`). A
//!   participant who is down (unconscious or dead) cannot act; its turns pass.
//! * The fight ends (COCAP-RND-3, an end condition the setup gives) when the
//!   participants still standing all belong to one `side` (or none is left):
//!   every action is then refused and [`outcome`] says who won.
//! * Actions that roll return the check; scripted `rolls` give its one d100 face
//!   (1–100), then the damage or treatment dice.
//!
//! Not modelled (missing from the source, gaps 1): map bounds, terrain and lines
//! of fire (whether a Jump or Emergency Evasion takes the target out of the line
//! of fire is the KP's `clears_line`), the extra damage of a special or critical
//! attack, shock and major wounds. The KP-approved actions of COCAP-AP-2(b) are the
//! `other` action with a caller-given AP cost.

use super::ap::{round_ap, validate as validate_ap, CocApVariants};
use super::check::{evaluate, roll_check, CocApCheckResult, CocApRule};
use super::pack::pack;
use crate::dice::{Dice, Roll};
use crate::engine::ids::{quote, Ids};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use crate::kernel::label::WtLabel;
use std::collections::BTreeMap;

/// Most participants in one round.
pub const MAX_PARTICIPANTS: usize = 100;
/// Most weapons per participant.
pub const MAX_WEAPONS: usize = 20;
/// Most skills per participant.
pub const MAX_SKILLS: usize = 64;
/// Longest id or name, in characters (the shared limit of [`Ids`]).
pub const MAX_NAME_CHARS: usize = crate::engine::ids::MAX_ID_LEN;
/// Most attacks per round one weapon may allow.
pub const MAX_ATTACKS_PER_ROUND: u32 = 20;
/// Largest coordinate (either sign).
pub const MAX_COORD: i64 = 1_000_000;
/// Highest round number.
pub const MAX_ROUND: u32 = 10_000;

/// A weapon or combat skill with its attacks per round (gap 7: caller data).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApWeapon {
    /// Name, unique per participant (1–64 characters).
    pub name: String,
    /// The combat skill value used to attack (and to parry) with it, 0–999.
    #[schemars(range(min = 0, max = 999))]
    pub skill: i64,
    /// Attacks allowed per round with this weapon (COCAP-ACT-2), 1–20. Default 1.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 20))]
    pub attacks_per_round: u32,
    /// Damage of a hit: a `dice.roll` expression (`1d4+2`, `1d6+1d4` with the
    /// damage bonus written out), at most 100 characters. An attack needs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<String>,
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// A participant as given to `round_new`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApParticipant {
    /// Unique id (1–64 characters).
    pub id: String,
    /// DEX (3–18 on the classic scale; 0–999 accepted).
    #[schemars(range(min = 0, max = 999))]
    pub dex: i64,
    /// Skill values by name, 0–999: `dodge`, `jump`, `parry`, `first_aid`,
    /// `medicine`, `psychoanalysis` are read by the basic actions; a missing
    /// skill counts as 0. At most 64.
    #[serde(default)]
    pub skills: BTreeMap<String, i64>,
    /// Weapons / combat skills (at most 20).
    #[serde(default)]
    pub weapons: Vec<CocApWeapon>,
    /// Map square `[x, y]` (default `[0, 0]`); moves are orthogonal.
    #[serde(default)]
    pub position: [i64; 2],
    /// AP modifier from abilities or magic (COCAP-AP-4), −100…100. Default 0.
    #[serde(default)]
    #[schemars(range(min = -100, max = 100))]
    pub ap_bonus: i64,
    /// The side it fights on (1–64 characters); the fight ends when the participants
    /// still standing are all on one side. Default: its own `id` (everyone for themselves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Maximum hit points (6th edition: (CON + SIZ) ÷ 2 rounded up), 1–999. Without
    /// it HP is not tracked: hits roll damage but nothing goes down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 999))]
    pub hp_max: Option<i64>,
    /// Current hit points, −999…`hp_max` (needs `hp_max`; `round_new` starts it at
    /// `hp_max` when omitted). Down (cannot act) at 2 or less, dead at 0 or less
    /// (illustrative pack, `COC6-BASE-HP`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i64>,
    /// Armor points subtracted from each hit's damage (`COC6-BASE-ARMOR`), 0–999. Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 0, max = 999))]
    pub armor: i64,
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// An attack that hit its check and waits for its target's answer.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApPending {
    /// Who attacks.
    pub attacker: String,
    /// With which weapon (its `damage` is rolled on a hit).
    pub weapon: String,
    /// Who must answer: `dodge`, `parry`, `jump`, `emergency_evasion` or `no_reaction`.
    pub target: String,
}

/// A participant inside the round state, with this round's counters.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApFighter {
    /// The participant as given.
    pub participant: CocApParticipant,
    /// AP left this round.
    pub ap: i64,
    /// Attacks made this round, by weapon name.
    #[serde(default)]
    pub attacks: BTreeMap<String, u32>,
    /// Treatment used this round.
    #[serde(default)]
    pub treated: bool,
    /// Dodges made this round.
    #[serde(default)]
    pub dodges: u32,
    /// Parry used this round.
    #[serde(default)]
    pub parried: bool,
    /// Jump used this round.
    #[serde(default)]
    pub jumped: bool,
    /// Emergency Evasion used this round.
    #[serde(default)]
    pub evaded: bool,
    /// Dodge Focus declared this round.
    #[serde(default)]
    pub dodge_focus: bool,
    /// This participant's turn has ended this round.
    #[serde(default)]
    pub turn_done: bool,
}

/// The state of an action-point combat (serializable; pass it back unchanged).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApRoundState {
    /// Round number, from 1 (COCAP-RND-1).
    pub round: u32,
    /// Variants in force.
    #[serde(default)]
    pub variants: CocApVariants,
    /// Participants in the caller's order.
    pub fighters: Vec<CocApFighter>,
    /// This round's action order (ids), DEX descending (COCAP-ORD-1).
    pub order: Vec<String>,
    /// Index into `order` of the participant whose turn it is; `null` once every turn has ended.
    #[serde(default)]
    pub turn: Option<usize>,
    /// True at round start until the first action other than `dodge_focus` (COCAP-ACT-8).
    #[serde(default)]
    pub open: bool,
    /// The attack waiting for its target's answer, if any (COCAP-ACT-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<CocApPending>,
}

/// A direction on the map (orthogonal only: COCAP-ACT-1, gap 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CocApDir {
    /// y − 1.
    North,
    /// y + 1.
    South,
    /// x + 1.
    East,
    /// x − 1.
    West,
}

impl CocApDir {
    const ALL: [CocApDir; 4] = [CocApDir::North, CocApDir::South, CocApDir::East, CocApDir::West];

    fn delta(self) -> (i64, i64) {
        match self {
            CocApDir::North => (0, -1),
            CocApDir::South => (0, 1),
            CocApDir::East => (1, 0),
            CocApDir::West => (-1, 0),
        }
    }
}

/// The skill a treatment uses (COCAP-ACT-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CocApTreatSkill {
    /// 〈応急手当〉 First Aid (skill `first_aid`).
    FirstAid,
    /// 〈医学〉 Medicine (skill `medicine`).
    Medicine,
    /// 〈精神分析〉 Psychoanalysis (skill `psychoanalysis`).
    Psychoanalysis,
}

impl CocApTreatSkill {
    fn key(self) -> &'static str {
        match self {
            CocApTreatSkill::FirstAid => "first_aid",
            CocApTreatSkill::Medicine => "medicine",
            CocApTreatSkill::Psychoanalysis => "psychoanalysis",
        }
    }
}

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    /// One action of the round.
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum CocApAction {
        /// COCAP-ACT-8 回避集中: at round start only; AP −2 this round; no Attack,
        /// Treatment or Other; unlimited dodges at a falling target.
        DodgeFocus {
            /// Who declares it.
            actor: String,
        },
        /// COCAP-ACT-1 移動: own turn, 1 AP, one square orthogonally.
        Move {
            /// Who moves.
            actor: String,
            /// Direction.
            dir: CocApDir,
        },
        /// COCAP-ACT-2 攻撃: own turn, 1 AP, up to the weapon's attacks per round; rolls the
        /// weapon skill; a success waits for the target's answer.
        Attack {
            /// Who attacks.
            actor: String,
            /// Weapon name (it needs a `damage` expression).
            weapon: String,
            /// Who is attacked (another participant).
            target: String,
        },
        /// COCAP-ACT-4 治療: own turn, 2 AP, once, not in a round with an attack; rolls the
        /// skill; a success restores HP (illustrative pack, `COC6-BASE-TREAT`).
        Treat {
            /// Who treats.
            actor: String,
            /// Skill used.
            skill: CocApTreatSkill,
            /// Who is treated (default: the actor).
            #[serde(default)]
            target: Option<String>,
        },
        /// COCAP-AP-2(b): a KP-approved action costing `ap` AP on the actor's own turn.
        Other {
            /// Who acts.
            actor: String,
            /// AP cost, 0–100.
            ap: i64,
        },
        /// COCAP-ACT-3 回避: answers a pending attack on the actor; 0 AP, once per round
        /// (unlimited under Dodge Focus); rolls `dodge`; a success avoids the attack.
        Dodge {
            /// Who dodges.
            actor: String,
        },
        /// COCAP-ACT-6 受け流し: answers a pending attack on the actor; 0 AP, once per round;
        /// rolls the weapon's skill, or `parry` without a weapon; a success stops the attack
        /// (illustrative pack, `COC6-BASE-PARRY`).
        Parry {
            /// Who parries.
            actor: String,
            /// Weapon parried with (omit to use the `parry` skill).
            #[serde(default)]
            weapon: Option<String>,
        },
        /// COCAP-ACT-5 跳躍: answers a pending attack on the actor; 0 AP, once, not after
        /// Emergency Evasion; rolls `jump`; a success moves one square and avoids the attack
        /// when the move leaves its line of fire (`clears_line`).
        Jump {
            /// Who jumps.
            actor: String,
            /// Direction of the move on success.
            dir: CocApDir,
            /// The KP's call: the move takes the actor out of the attack's line of fire
            /// (the map is not modelled). Default true.
            #[serde(default = "yes")]
            clears_line: bool,
        },
        /// COCAP-ACT-7 緊急回避: 0 AP, once, inserted before another character's declared
        /// action (a pending attack; by its target, this answers it), during the evader's own
        /// turn too; not after Jump; target floor((jump + dodge) ÷ 2) − 10, where a critical
        /// roll always succeeds; a success moves one square (and, by the target, avoids the
        /// attack when the move leaves its line of fire, `clears_line`).
        EmergencyEvasion {
            /// Who evades.
            actor: String,
            /// Direction of the move on success.
            dir: CocApDir,
            /// The KP's call: the move takes the actor out of the attack's line of fire.
            /// Default true.
            #[serde(default = "yes")]
            clears_line: bool,
        },
        /// COCAP-ACT-2: the target of a pending attack declines to react and takes the hit.
        NoReaction {
            /// The target.
            actor: String,
        },
        /// End the actor's turn (COCAP-RND-2).
        EndTurn {
            /// Whose turn ends.
            actor: String,
        },
        /// Start the next round once every turn has ended (COCAP-RND-1, COCAP-RND-2).
        NextRound,
    }
}

/// Arguments of `coc_ap.round_new`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApRoundNewArgs {
    /// Participants (1–100), in the caller's order (last DEX tie-break).
    pub participants: Vec<CocApParticipant>,
    /// Variants (stored in the state).
    #[serde(default)]
    pub variants: CocApVariants,
}

/// One legal action and what it costs.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CocApLegalAction {
    /// The action, exactly as `round_act` accepts it.
    pub action: CocApAction,
    /// AP it spends (COCAP-AP-2; Dodge Focus: the AP it takes away, at most what is left).
    pub ap: i64,
}

crate::legal_shapes!(
    /// Arguments of `coc_ap.round_legal_actions`.
    CocApRoundLegalArgs,
    /// Result of `coc_ap.round_legal_actions`.
    CocApRoundLegalResult,
    "CocApRoundState",
    /// Every legal action, in the form `round_act` accepts (`other`, whose
    /// cost is free, is listed with `ap: 1` when 1 AP is affordable; `parry`
    /// without a weapon is listed whether or not the `parry` skill is given,
    /// since a missing skill counts as 0).
    actions: CocApLegalAction,
    viewer: "a participant's id."
);

crate::act_shapes!(
    /// Arguments of `coc_ap.round_act`.
    ///
    /// `rolls`: Scripted faces for an action that rolls: its one d100 face (1–100).
    CocApRoundActArgs,
    "CocApRoundState",
    CocApAction
);

crate::internally_tagged! {
    #[serde(tag = "event", rename_all = "snake_case")]
    /// What an action did (reported with `rule`, the rule ID that produced it, and
    /// `text`, one sentence in ja / zh_hans / zh_hant / en: [`CocApLoggedEvent`]).
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum CocApEvent {
        /// COCAP-RND-1, COCAP-ORD-1, COCAP-AP-1: a round started (at `round_new` and `next_round`).
        RoundStarted {
            /// The round number.
            round: u32,
            /// Its action order (ids).
            order: Vec<String>,
        },
        /// COCAP-ACT-8: Dodge Focus declared.
        DodgeFocusDeclared {
            /// Who.
            actor: String,
            /// AP left this round.
            ap_left: i64,
        },
        /// COCAP-ACT-1: one square moved.
        Moved {
            /// Who.
            actor: String,
            /// The square moved to.
            moved_to: [i64; 2],
            /// AP left this round.
            ap_left: i64,
        },
        /// COCAP-ACT-2: an attack rolled; on a success it waits for the target's answer.
        Attacked {
            /// Who.
            actor: String,
            /// The weapon.
            weapon: String,
            /// Who is attacked.
            target: String,
            /// The weapon-skill check.
            check: CocApCheckResult,
            /// The check succeeded: the attack is pending until the target answers.
            hit: bool,
            /// AP left this round.
            ap_left: i64,
        },
        /// COCAP-ACT-4: a treatment rolled; a success restored HP (`COC6-BASE-TREAT`).
        Treated {
            /// Who.
            actor: String,
            /// Who was treated.
            target: String,
            /// The skill used.
            skill: CocApTreatSkill,
            /// The check.
            check: CocApCheckResult,
            /// HP restored (0 on a failure, or a skill that restores none).
            healed: i64,
            /// The target's HP now (null: not tracked).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            hp: Option<i64>,
            /// The target's maximum HP (null: not tracked).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            hp_max: Option<i64>,
            /// AP left this round.
            ap_left: i64,
        },
        /// COCAP-AP-2(b): a KP-approved action paid.
        OtherTaken {
            /// Who.
            actor: String,
            /// AP it cost.
            ap: i64,
            /// AP left this round.
            ap_left: i64,
        },
        /// COCAP-ACT-3: a dodge against `attacker`'s attack rolled (its target lowered under Dodge Focus).
        Dodged {
            /// Who.
            actor: String,
            /// Whose attack it answered.
            attacker: String,
            /// The check.
            check: CocApCheckResult,
            /// The attack was avoided.
            avoided: bool,
        },
        /// COCAP-ACT-6: a parry against `attacker`'s attack rolled.
        Parried {
            /// Who.
            actor: String,
            /// Whose attack it answered.
            attacker: String,
            /// The weapon parried with (none: the `parry` skill).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            weapon: Option<String>,
            /// The check.
            check: CocApCheckResult,
            /// The attack was stopped.
            avoided: bool,
        },
        /// COCAP-ACT-5: a jump against `attacker`'s attack rolled; on a success the actor moved one square.
        Jumped {
            /// Who.
            actor: String,
            /// Whose attack it answered.
            attacker: String,
            /// The `jump` check.
            check: CocApCheckResult,
            /// The square moved to (on a success).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            moved_to: Option<[i64; 2]>,
            /// The attack was avoided (a success that left the line of fire).
            avoided: bool,
        },
        /// COCAP-ACT-7: an Emergency Evasion inserted before `attacker`'s attack rolled; on a
        /// success the actor moved one square.
        EmergencyEvaded {
            /// Who.
            actor: String,
            /// Whose declared attack it was inserted before.
            attacker: String,
            /// The check against floor((jump + dodge) ÷ 2) − 10.
            check: CocApCheckResult,
            /// The square moved to (on a success).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            moved_to: Option<[i64; 2]>,
            /// The attack was avoided (its target evaded out of the line of fire).
            avoided: bool,
        },
        /// COCAP-ACT-2: the target did not react and takes the hit.
        NoReaction {
            /// The target.
            actor: String,
            /// Whose attack.
            attacker: String,
        },
        /// COCAP-ACT-2: a hit's damage rolled and taken (armor subtracted, `COC6-BASE-ARMOR`).
        Damaged {
            /// Who was hit.
            target: String,
            /// Who hit.
            attacker: String,
            /// With which weapon.
            weapon: String,
            /// The damage rolled (the weapon's `damage`).
            rolled: i64,
            /// The target's armor.
            armor: i64,
            /// Damage taken: rolled − armor, not below 0.
            damage: i64,
            /// HP left (null: not tracked).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            hp: Option<i64>,
            /// Maximum HP (null: not tracked).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            hp_max: Option<i64>,
        },
        /// `COC6-BASE-HP`: a participant went down (unconscious, or dead) and cannot act.
        Down {
            /// Who.
            actor: String,
            /// HP now.
            hp: i64,
            /// Dead (HP at or below the pack's `dead_at_or_below`), else unconscious.
            dead: bool,
        },
        /// COCAP-RND-2: a turn ended.
        TurnEnded {
            /// Whose.
            actor: String,
            /// Whose turn it is now (none once every turn has ended).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            next: Option<String>,
            /// Every turn of the round has ended (`next_round` is now legal).
            round_complete: bool,
            /// Participants passed over because they are down (`COC6-BASE-HP`).
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            skipped: Vec<String>,
        },
        /// COCAP-RND-3: the fight ended: the participants standing are all on one side.
        FightEnded {
            /// The winning side (null: nobody is standing).
            #[serde(default)]
            winner: Option<String>,
            /// Who is down.
            down: Vec<String>,
        },
    }
}

/// An event as reported: with its rule and sentence.
pub type CocApLoggedEvent = crate::kernel::label::Logged<CocApEvent>;

/// How a fight ended (COCAP-RND-3: the setup's sides give the end condition).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CocApOutcome {
    /// The side still standing (null: nobody is).
    pub winner: Option<String>,
    /// Participants who are down, in the fighters' order.
    pub down: Vec<String>,
    /// `COCAP-RND-3`.
    pub rule: String,
    /// The sentence.
    pub text: WtLabel,
}

/// Result of `round_new` and `round_act`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CocApRoundResult {
    /// The new state.
    pub state: CocApRoundState,
    /// What happened: one event per action (`round_new`: the round's start), each with
    /// its `rule` and a `text` sentence.
    pub events: Vec<CocApLoggedEvent>,
    /// Every die rolled.
    pub rolls: Vec<Roll>,
}

fn validate_participant(p: &CocApParticipant, f: &str, ids: Ids) -> Result<()> {
    ids.name(&format!("{f}.id"), &p.id)?;
    validate_ap(&format!("{f}."), p.dex, p.ap_bonus)?;
    if p.skills.len() > MAX_SKILLS {
        return Err(Error::invalid(format!("{f}.skills"), format_args!("at most {MAX_SKILLS} skills")));
    }
    for (k, v) in &p.skills {
        ids.name(&format!("{f}.skills"), k)?;
        if !(0..=999).contains(v) {
            return Err(Error::out_of_range(
                format!("{f}.skills.{k}"),
                format_args!("must be 0..=999, not {v}"),
            ));
        }
    }
    if p.weapons.len() > MAX_WEAPONS {
        return Err(Error::invalid(format!("{f}.weapons"), format_args!("at most {MAX_WEAPONS} weapons")));
    }
    for (i, w) in p.weapons.iter().enumerate() {
        ids.name(&format!("{f}.weapons[{i}].name"), &w.name)?;
    }
    ids.unique(p.weapons.iter().map(|w| w.name.as_str()), |i| format!("{f}.weapons[{i}].name"))?;
    for (i, w) in p.weapons.iter().enumerate() {
        let wf = format!("{f}.weapons[{i}]");
        if !(0..=999).contains(&w.skill) {
            return Err(Error::out_of_range(
                format!("{wf}.skill"),
                format_args!("must be 0..=999, not {}", w.skill),
            ));
        }
        if !(1..=MAX_ATTACKS_PER_ROUND).contains(&w.attacks_per_round) {
            return Err(Error::out_of_range(
                format!("{wf}.attacks_per_round"),
                format_args!("must be 1..={MAX_ATTACKS_PER_ROUND}"),
            ));
        }
        if let Some(d) = &w.damage {
            validate_expr(&format!("{wf}.damage"), d)?;
        }
    }
    if let Some(side) = &p.side {
        ids.name(&format!("{f}.side"), side)?;
    }
    if !(0..=999).contains(&p.armor) {
        return Err(Error::out_of_range(
            format!("{f}.armor"),
            format_args!("must be 0..=999, not {}", p.armor),
        ));
    }
    match (p.hp_max, p.hp) {
        (None, Some(_)) => {
            return Err(Error::invalid(format!("{f}.hp"), "needs hp_max"));
        }
        (Some(m), hp) => {
            if !(1..=999).contains(&m) {
                return Err(Error::out_of_range(
                    format!("{f}.hp_max"),
                    format_args!("must be 1..=999, not {m}"),
                ));
            }
            if let Some(h) = hp {
                if !(-999..=m).contains(&h) {
                    return Err(Error::out_of_range(
                        format!("{f}.hp"),
                        format_args!("must be -999..=hp_max ({m}), not {h}"),
                    ));
                }
            }
        }
        (None, None) => {}
    }
    if p.position.iter().any(|c| c.abs() > MAX_COORD) {
        return Err(Error::out_of_range(
            format!("{f}.position"),
            format_args!("coordinates are within ±{MAX_COORD}"),
        ));
    }
    Ok(())
}

/// Longest damage expression, in characters.
pub const MAX_DAMAGE_CHARS: usize = 100;

/// A damage or treatment expression: `dice.roll`'s grammar, at most 100 characters,
/// checked by rolling it once with a throwaway seeded die (`invalid_argument` naming
/// the field otherwise).
fn validate_expr(field: &str, expr: &str) -> Result<()> {
    if expr.chars().count() > MAX_DAMAGE_CHARS {
        return Err(Error::invalid(field, format_args!("at most {MAX_DAMAGE_CHARS} characters")));
    }
    let mut d = Dice::seeded(0)?.unrecorded();
    crate::dice::expr::roll_with(expr, &mut d)
        .map(|_| ())
        .map_err(|e| Error::field(e.code, field, &e.message))
}

/// The participants of a setup (`Ids::ARG`) or of a saved state (`Ids::DATA`):
/// ids and names through the shared validator ([`Ids`]).
fn validate_participants<'a>(
    ps: impl ExactSizeIterator<Item = &'a CocApParticipant> + Clone,
    f: &str,
    ids: Ids,
) -> Result<()> {
    if ps.len() == 0 || ps.len() > MAX_PARTICIPANTS {
        return Err(too_many_or_none(f, ps.len(), MAX_PARTICIPANTS));
    }
    for (i, p) in ps.clone().enumerate() {
        validate_participant(p, &format!("{f}[{i}]"), ids)?;
    }
    let sub = if f.starts_with("state") { ".participant.id" } else { ".id" };
    ids.unique(ps.map(|p| p.id.as_str()), |i| format!("{f}[{i}]{sub}"))
}

/// Parse and validate an untrusted state (`invalid_data` naming the field).
pub fn load_state(value: &serde_json::Value) -> Result<CocApRoundState> {
    let s: CocApRoundState = crate::ops::parse_data("state", value.clone())?;
    validate_state(&s)?;
    Ok(s)
}

/// Validate a state given back by the caller (→ `invalid_data`).
pub fn validate_state(s: &CocApRoundState) -> Result<()> {
    let ids = Ids::DATA;
    if s.round == 0 || s.round > MAX_ROUND {
        return Err(Error::invalid_data("state.round", format_args!("must be 1..={MAX_ROUND}")));
    }
    // The same checks as `round_new`, but a bad saved state is `invalid_data`.
    validate_participants(s.fighters.iter().map(|f| &f.participant), "state.fighters", ids).map_err(
        |mut e| {
            e.code = ErrorCode::InvalidData;
            e
        },
    )?;
    for (i, f) in s.fighters.iter().enumerate() {
        if !(0..=10_000).contains(&f.ap) {
            return Err(Error::invalid_data(format!("state.fighters[{i}].ap"), "must be 0..=10000"));
        }
        if f.dodges > 10_000 {
            return Err(Error::invalid_data(format!("state.fighters[{i}].dodges"), "must be at most 10000"));
        }
        for (w, n) in &f.attacks {
            let field = format!("state.fighters[{i}].attacks");
            ids.resolves(&field, w, f.participant.weapons.iter().map(|x| x.name.as_str()))?;
            if *n > MAX_ATTACKS_PER_ROUND {
                return Err(Error::invalid_data(
                    field,
                    format_args!("at most {MAX_ATTACKS_PER_ROUND} a weapon"),
                ));
            }
        }
    }
    // COCAP-ORD-1: the order lists every fighter once.
    for (i, id) in s.order.iter().enumerate() {
        ids.resolves(&format!("state.order[{i}]"), id, s.fighters.iter().map(|f| f.participant.id.as_str()))?;
    }
    ids.unique(s.order.iter().map(String::as_str), |i| format!("state.order[{i}]"))?;
    if s.order.len() != s.fighters.len() {
        return Err(Error::invalid_data("state.order", "must list every fighter id once"));
    }
    if let Some(t) = s.turn {
        if t >= s.order.len() {
            return Err(Error::invalid_data("state.turn", "must index into order"));
        }
    }
    if let Some(p) = &s.pending {
        let names = || s.fighters.iter().map(|f| f.participant.id.as_str());
        ids.resolves("state.pending.attacker", &p.attacker, names())?;
        ids.resolves("state.pending.target", &p.target, names())?;
        let a = s.fighters.iter().find(|f| f.participant.id == p.attacker);
        ids.resolves(
            "state.pending.weapon",
            &p.weapon,
            a.into_iter().flat_map(|f| f.participant.weapons.iter().map(|w| w.name.as_str())),
        )?;
        if p.attacker == p.target {
            return Err(Error::invalid_data("state.pending.target", "must not be the attacker"));
        }
    }
    check_invariants(s)
}

/// The rules' own invariants of a saved round: a state that no legal play reaches
/// (an order against DEX, more AP than the round gives, turns ended out of order)
/// is `invalid_data` naming the field and the rule.
fn check_invariants(s: &CocApRoundState) -> Result<()> {
    // COCAP-ORD-1: the order is recomputed from DEX and Dodge (then the fighters' order).
    let want = order_of(&s.fighters);
    if let Some(k) = s.order.iter().zip(&want).position(|(a, b)| a != b) {
        return Err(Error::invariant(
            format!("state.order[{k}]"),
            "COCAP-ORD-1",
            format_args!(
                "must be {}: DEX descending, ties by higher Dodge, then the fighters' order",
                quote(want.get(k).map_or("", String::as_str))
            ),
        ));
    }
    let scale = s.variants.dex_scale;
    for (i, f) in s.fighters.iter().enumerate() {
        let p = format!("state.fighters[{i}]");
        let attacked = f.attacks.values().any(|&n| n > 0);
        // COCAP-ACT-2: attacks per round with each weapon.
        for (w, n) in &f.attacks {
            let allowed =
                f.participant.weapons.iter().find(|x| &x.name == w).map_or(0, |x| x.attacks_per_round);
            if *n > allowed {
                return Err(Error::invariant(
                    format!("{p}.attacks.{w}"),
                    "COCAP-ACT-2",
                    format_args!("{} allows {allowed} attack(s) per round, not {n}", quote(w)),
                ));
            }
        }
        // COCAP-ACT-8: Dodge Focus is declared while the round is open, before any attack or treatment.
        if f.dodge_focus && (attacked || f.treated) {
            return Err(Error::invariant(
                format!("{p}.dodge_focus"),
                "COCAP-ACT-8",
                "Dodge Focus is declared before any attack or treatment of the round",
            ));
        }
        // COCAP-ACT-4: no treatment in a round with an attack.
        if f.treated && attacked {
            return Err(Error::invariant(
                format!("{p}.treated"),
                "COCAP-ACT-4",
                "no treatment in a round with an attack",
            ));
        }
        // COCAP-ACT-3: a second dodge only under Dodge Focus.
        if f.dodges > 1 && !f.dodge_focus {
            return Err(Error::invariant(
                format!("{p}.dodges"),
                "COCAP-ACT-3",
                format_args!("one dodge per round without Dodge Focus, not {}", f.dodges),
            ));
        }
        // COCAP-ACT-5 / COCAP-ACT-7: Jump and Emergency Evasion exclude each other.
        if f.jumped && f.evaded {
            return Err(Error::invariant(
                format!("{p}.evaded"),
                "COCAP-ACT-7",
                "no Emergency Evasion in a round with Jump",
            ));
        }
        // COCAP-AP-1 / COCAP-AP-3 / COCAP-AP-4: AP is regained at the round start and only
        // spent: at most the round's AP less 1 an attack, 2 a treatment (2 for Dodge Focus).
        let round = round_ap(f.participant.dex, f.participant.ap_bonus, scale);
        let left = if f.dodge_focus { (round - 2).max(0) } else { round };
        let attacks: i64 = f.attacks.values().map(|&n| i64::from(n)).sum();
        let most = left - attacks - 2 * i64::from(f.treated);
        if f.ap > most {
            return Err(Error::invariant(
                format!("{p}.ap"),
                "COCAP-AP-1",
                format_args!(
                    "at most {most}: the round gives {round} AP (COCAP-AP-3, COCAP-AP-4) and its actions spent some, not {}",
                    f.ap
                ),
            ));
        }
        // COCAP-ACT-8: the round stays open only until an action other than Dodge Focus.
        if s.open
            && (attacked
                || f.treated
                || f.dodges > 0
                || f.parried
                || f.jumped
                || f.evaded
                || (f.turn_done && !is_down(&f.participant)))
        {
            return Err(Error::invariant(
                "state.open",
                "COCAP-ACT-8",
                format_args!("{} has acted, so the round is no longer open", quote(&f.participant.id)),
            ));
        }
    }
    // COCAP-RND-2: turns end in order: each before `turn` has ended, none from it on
    // (every one once `turn` is null).
    for (k, id) in s.order.iter().enumerate() {
        let done = s.turn.is_none_or(|t| k < t);
        if let Some(i) = s.fighters.iter().position(|f| &f.participant.id == id) {
            if s.fighters[i].turn_done != done {
                return Err(Error::invariant(
                    format!("state.fighters[{i}].turn_done"),
                    "COCAP-RND-2",
                    format_args!(
                        "must be {done}: turns end in order, and it is {}",
                        match s.turn {
                            Some(t) => format!("turn {t}"),
                            None => "the round's end".to_string(),
                        }
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// COCAP-ORD-1: DEX descending; ties higher Dodge, then caller order (RULINGS).
fn order_of(fighters: &[CocApFighter]) -> Vec<String> {
    let key = |i: usize| {
        fighters
            .get(i)
            .map(|f| (f.participant.dex, f.participant.skills.get("dodge").copied().unwrap_or(0)))
            .unwrap_or((0, 0))
    };
    // Stable: equal keys keep the caller's order.
    let idx = crate::small_sort::sorted_indices(fighters.len(), &|a, b| key(b).cmp(&key(a)));
    idx.iter().filter_map(|&i| fighters.get(i)).map(|f| f.participant.id.clone()).collect()
}

/// Start a round: COCAP-AP-1 (AP regained, unspent AP lost), counters reset, order set;
/// the turns of participants who are down pass (`COC6-BASE-HP`).
fn start_round(state: &mut CocApRoundState) -> Vec<String> {
    let scale = state.variants.dex_scale;
    for f in &mut state.fighters {
        f.ap = round_ap(f.participant.dex, f.participant.ap_bonus, scale);
        f.attacks.clear();
        f.treated = false;
        f.dodges = 0;
        f.parried = false;
        f.jumped = false;
        f.evaded = false;
        f.dodge_focus = false;
        f.turn_done = false;
    }
    state.order = order_of(&state.fighters);
    state.turn = if state.order.is_empty() { None } else { Some(0) };
    state.open = true;
    state.pending = None;
    pass_down_turns(state)
}

/// Down (unconscious or dead, `COC6-BASE-HP`): HP tracked and at or below the pack's
/// unconscious threshold.
pub(crate) fn is_down(p: &CocApParticipant) -> bool {
    p.hp.is_some_and(|h| h <= pack().hp.unconscious_at_or_below)
}

/// From the current turn on, the turns of participants who are down pass (they are
/// marked ended); the ids passed over.
fn pass_down_turns(s: &mut CocApRoundState) -> Vec<String> {
    let mut skipped = Vec::new();
    while let Some(t) = s.turn {
        let Some(i) = s.order.get(t).and_then(|id| s.fighters.iter().position(|f| &f.participant.id == id))
        else {
            break;
        };
        if !is_down(&s.fighters[i].participant) {
            break;
        }
        s.fighters[i].turn_done = true;
        skipped.push(s.fighters[i].participant.id.clone());
        s.turn = if t + 1 < s.order.len() { Some(t + 1) } else { None };
    }
    skipped
}

/// The side a participant fights on (its `side`, else its own id).
fn side_of(p: &CocApParticipant) -> &str {
    p.side.as_deref().unwrap_or(&p.id)
}

/// COCAP-RND-3 with the setup's sides: the fight is over once at least two sides took
/// part and the participants still standing are all on one side (or none is left).
pub fn outcome(s: &CocApRoundState) -> Option<CocApOutcome> {
    let mut sides: Vec<&str> = Vec::new();
    let mut standing: Vec<&str> = Vec::new();
    for f in &s.fighters {
        let side = side_of(&f.participant);
        if !sides.contains(&side) {
            sides.push(side);
        }
        if !is_down(&f.participant) && !standing.contains(&side) {
            standing.push(side);
        }
    }
    if sides.len() < 2 || standing.len() > 1 {
        return None;
    }
    let winner = standing.first().map(|w| w.to_string());
    let down: Vec<String> =
        s.fighters.iter().filter(|f| is_down(&f.participant)).map(|f| f.participant.id.clone()).collect();
    let text = super::sentences::fight_ended(winner.as_deref(), &down);
    Some(CocApOutcome { winner, down, rule: "COCAP-RND-3".into(), text })
}

/// Each participant's HP (those tracked).
pub(crate) fn hp_list(s: &CocApRoundState) -> Vec<(&str, i64)> {
    s.fighters.iter().filter_map(|f| Some((f.participant.id.as_str(), f.participant.hp?))).collect()
}

/// Whose move it is: nobody once the fight is over; the target of a pending attack
/// (`reaction`); else the participant whose turn it is, or `next_round`.
pub(crate) fn turn_of(s: &CocApRoundState) -> crate::engine::Turn {
    use crate::engine::{Turn, TurnActive};
    // COCAP-ORD-1: the round's DEX order.
    let order = crate::engine::settled_first(
        s.order.iter().map(String::as_str),
        s.fighters.iter().map(|f| f.participant.id.as_str()),
    );
    if let Some(o) = outcome(s) {
        let (phase, outcome) = ("over".into(), o.to_json());
        return Turn { round: s.round, phase, active: Vec::new(), order, outcome, ..Turn::default() };
    }
    let active = if let Some(p) = &s.pending {
        TurnActive::of(&p.target, "reaction")
    } else {
        match s.turn.and_then(|t| s.order.get(t)) {
            Some(id) => TurnActive::of(id, "turn"),
            None => TurnActive::step("next_round"),
        }
    };
    let outcome = serde_json::Value::Null;
    Turn { round: s.round, phase: "round".into(), active: vec![active], order, outcome, ..Turn::default() }
}

/// `coc_ap.round_new` — round 1 with DEX order and AP (COCAP-RND-1, COCAP-ORD-1, COCAP-AP-1).
pub fn round_new(args: &CocApRoundNewArgs) -> Result<CocApRoundResult> {
    // Names, ids and counts → `invalid_argument`; numbers outside their range → `out_of_range`.
    validate_participants(args.participants.iter(), "participants", Ids::ARG)?;
    let fighters = args
        .participants
        .iter()
        .map(|p| CocApFighter {
            participant: CocApParticipant { hp: p.hp.or(p.hp_max), ..p.clone() },
            ap: 0,
            attacks: BTreeMap::new(),
            treated: false,
            dodges: 0,
            parried: false,
            jumped: false,
            evaded: false,
            dodge_focus: false,
            turn_done: false,
        })
        .collect();
    let mut state = CocApRoundState {
        round: 1,
        variants: args.variants,
        fighters,
        order: Vec::new(),
        turn: None,
        open: true,
        pending: None,
    };
    start_round(&mut state);
    let events =
        super::sentences::logged(vec![CocApEvent::RoundStarted { round: 1, order: state.order.clone() }]);
    Ok(CocApRoundResult { state, events, rolls: Vec::new() })
}

/// Who takes `a` (None: `next_round`, the round's own step).
pub(crate) fn actor_of(a: &CocApAction) -> Option<&str> {
    match a {
        CocApAction::DodgeFocus { actor }
        | CocApAction::Move { actor, .. }
        | CocApAction::Attack { actor, .. }
        | CocApAction::Treat { actor, .. }
        | CocApAction::Other { actor, .. }
        | CocApAction::Dodge { actor }
        | CocApAction::Parry { actor, .. }
        | CocApAction::Jump { actor, .. }
        | CocApAction::EmergencyEvasion { actor, .. }
        | CocApAction::NoReaction { actor }
        | CocApAction::EndTurn { actor } => Some(actor),
        CocApAction::NextRound => None,
    }
}

fn skill(f: &CocApFighter, name: &str) -> i64 {
    f.participant.skills.get(name).copied().unwrap_or(0)
}
/// Dodge target under Dodge Focus (COCAP-ACT-8, RULINGS `dodge_focus_penalty`).
pub(crate) fn dodge_target(state: &CocApRoundState, f: &CocApFighter) -> i64 {
    let base = skill(f, "dodge");
    if !f.dodge_focus {
        return base;
    }
    let n = i64::from(f.dodges)
        + match state.variants.dodge_focus_penalty {
            super::ap::CocApDodgeFocusPenalty::PriorDodges => 0,
            super::ap::CocApDodgeFocusPenalty::IncludingCurrent => 1,
        };
    base - 20 * n
}

/// A list of 1..=`max` entries: none is `invalid_argument`, too many `limit_exceeded`.
pub(crate) fn too_many_or_none(field: &str, len: usize, max: usize) -> Error {
    if len == 0 {
        Error::invalid(field, format_args!("need 1..={max} participants, not none"))
    } else {
        Error::limit(field, format_args!("need 1..={max} participants, not {len}"))
    }
}

/// The square one step in `dir` from `pos`: refused (`limit_exceeded`) off the
/// ±1,000,000 coordinate range, checked before any dice are rolled.
fn step(pos: [i64; 2], dir: CocApDir) -> Result<[i64; 2]> {
    let (dx, dy) = dir.delta();
    let p = [pos[0] + dx, pos[1] + dy];
    if p.iter().any(|c| c.abs() > MAX_COORD) {
        return Err(Error::limit("action.dir", format_args!("coordinates are within ±{MAX_COORD}")));
    }
    Ok(p)
}

/// Emergency Evasion target (RULINGS): floor((Jump + Dodge) ÷ 2) − 10.
pub fn evasion_target(jump: i64, dodge: i64) -> i64 {
    (jump + dodge) / 2 - 10
}

/// A check against a reduced target (Emergency Evasion, a dodge under Dodge Focus;
/// RULINGS 2026-12-05): a critical roll (01–05 under `ccb`, 01 under `cc`) always
/// succeeds, as a critical, whatever the target, even ≤ 0; any other roll succeeds
/// only if ≤ the target.
fn roll_reduced_target(dice: &mut Dice, target: i64, rule: CocApRule) -> Result<CocApCheckResult> {
    let start = dice.rolls().len();
    let r = dice.roll(100)?;
    let mut out = evaluate(r, target, rule);
    let crit = match rule {
        CocApRule::Ccb => 5,
        CocApRule::Cc => 1,
    };
    if r <= crit {
        out.success = true;
        out.critical = true;
        out.fumble = false;
        out.special = i64::from(r) <= out.special_value;
        super::check::relabel(&mut out);
    }
    out.rolls = dice.rolls_since(start);
    Ok(out)
}

// ---------------------------------------------------------------- one check per action

/// COCAP-RND-2: own-turn actions only by the participant whose turn it is.
fn own_turn(s: &CocApRoundState, actor: &str) -> Result<()> {
    if s.turn.and_then(|t| s.order.get(t)).map(String::as_str) != Some(actor) {
        return Err(Error::illegal("COCAP-RND-2", format_args!("it is not {actor}'s turn")));
    }
    Ok(())
}

fn fighter(s: &mut CocApRoundState, i: usize) -> Result<&mut CocApFighter> {
    s.fighters.get_mut(i).ok_or_else(|| Error::new(ErrorCode::Internal, "actor index out of range"))
}

/// A weapon `f` carries, else `invalid_argument` naming `action.weapon`.
fn weapon_of<'a>(f: &'a CocApFighter, weapon: &str) -> Result<&'a CocApWeapon> {
    f.participant.weapons.iter().find(|w| w.name == weapon).ok_or_else(|| {
        Error::invalid("action.weapon", format_args!("{} has no weapon {}", f.participant.id, quote(weapon)))
    })
}

/// What `check` found: the acting fighter's index (None: `next_round`) and the AP
/// the action spends.
#[derive(Debug, Clone, Copy)]
pub struct CocApChecked {
    /// The acting fighter's index.
    pub i: Option<usize>,
    /// AP spent.
    pub ap: i64,
}

/// COCAP-ACT-8 回避集中: only while the round is open, once; AP −2 this round.
fn check_dodge_focus(s: &CocApRoundState, f: &CocApFighter) -> Result<i64> {
    if !s.open {
        return Err(Error::illegal("COCAP-ACT-8", "dodge_focus: only at the start of a round"));
    }
    if f.dodge_focus {
        return Err(Error::illegal("COCAP-ACT-8", "dodge_focus: already declared this round"));
    }
    Ok(f.ap - (f.ap - 2).max(0))
}

/// COCAP-ACT-1 移動: own turn, 1 AP, one square orthogonally (COCAP-AP-2).
fn check_move(s: &CocApRoundState, f: &CocApFighter, dir: CocApDir) -> Result<i64> {
    own_turn(s, &f.participant.id)?;
    if f.ap < 1 {
        return Err(Error::illegal("COCAP-ACT-1", "move: needs 1 AP"));
    }
    step(f.participant.position, dir)?;
    Ok(1)
}

/// COCAP-ACT-2 攻撃: own turn, 1 AP, up to the weapon's attacks per round; not
/// with Dodge Focus (COCAP-ACT-8) or Treatment (COCAP-ACT-4).
fn check_attack(s: &CocApRoundState, f: &CocApFighter, weapon: &str, target: &str) -> Result<i64> {
    own_turn(s, &f.participant.id)?;
    let w = weapon_of(f, weapon)?;
    if w.damage.is_none() {
        return Err(Error::invalid(
            "action.weapon",
            format_args!("{} has no damage expression, so it cannot attack", quote(weapon)),
        ));
    }
    if !s.fighters.iter().any(|x| x.participant.id == target) {
        return Err(Error::invalid("action.target", format_args!("no participant {}", quote(target))));
    }
    if target == f.participant.id {
        return Err(Error::invalid("action.target", "an attack targets another participant"));
    }
    if f.dodge_focus {
        return Err(Error::illegal("COCAP-ACT-8", "attack: not in a round of Dodge Focus"));
    }
    if f.treated {
        return Err(Error::illegal("COCAP-ACT-4", "attack: not in a round with Treatment"));
    }
    if f.attacks.get(weapon).copied().unwrap_or(0) >= w.attacks_per_round {
        return Err(Error::illegal(
            "COCAP-ACT-2",
            format_args!("attack: {} allows {} attack(s) per round", quote(weapon), w.attacks_per_round),
        ));
    }
    if f.ap < 1 {
        return Err(Error::illegal("COCAP-ACT-2", "attack: needs 1 AP"));
    }
    Ok(1)
}

/// COCAP-ACT-4 治療: own turn, 2 AP, once, not in a round with an attack or
/// Dodge Focus (COCAP-ACT-8).
fn check_treat(s: &CocApRoundState, f: &CocApFighter, target: Option<&str>) -> Result<i64> {
    own_turn(s, &f.participant.id)?;
    if let Some(whom) = target {
        let x =
            s.fighters.iter().find(|x| x.participant.id == whom).ok_or_else(|| {
                Error::invalid("action.target", format_args!("no participant {}", quote(whom)))
            })?;
        // COC6-BASE-HP: the dead are past treatment.
        if x.participant.hp.is_some_and(|h| h <= pack().hp.dead_at_or_below) {
            return Err(Error::illegal(super::sentences::hp_rule(), format_args!("{whom} is dead")));
        }
    }
    if f.dodge_focus {
        return Err(Error::illegal("COCAP-ACT-8", "treat: not in a round of Dodge Focus"));
    }
    if f.treated {
        return Err(Error::illegal("COCAP-ACT-4", "treat: once per round"));
    }
    if f.attacks.values().any(|&n| n > 0) {
        return Err(Error::illegal("COCAP-ACT-4", "treat: not in a round with an attack"));
    }
    if f.ap < 2 {
        return Err(Error::illegal("COCAP-ACT-4", "treat: needs 2 AP"));
    }
    Ok(2)
}

/// COCAP-AP-2(b): a KP-approved action costing `ap` AP on the actor's own turn
/// (not with Dodge Focus, COCAP-ACT-8).
fn check_other(s: &CocApRoundState, f: &CocApFighter, ap: i64) -> Result<i64> {
    if !(0..=100).contains(&ap) {
        return Err(Error::out_of_range("action.ap", "must be 0..=100"));
    }
    own_turn(s, &f.participant.id)?;
    if f.dodge_focus {
        return Err(Error::illegal("COCAP-ACT-8", "other: not in a round of Dodge Focus"));
    }
    if f.ap < ap {
        return Err(Error::illegal("COCAP-AP-2", format_args!("other: needs {ap} AP, {} left", f.ap)));
    }
    Ok(ap)
}

/// COCAP-ACT-3 回避: 0 AP, once per round (unlimited under Dodge Focus, COCAP-ACT-8).
fn check_dodge(f: &CocApFighter) -> Result<i64> {
    if f.dodges >= 1 && !f.dodge_focus {
        return Err(Error::illegal("COCAP-ACT-3", "dodge: once per round without Dodge Focus"));
    }
    if f.dodges >= 10_000 {
        return Err(Error::limit("state.fighters.dodges", "at most 10000 dodges per round"));
    }
    Ok(0)
}

/// COCAP-ACT-6 受け流し: 0 AP, once per round, with a weapon the parrier carries.
fn check_parry(f: &CocApFighter, weapon: Option<&str>) -> Result<i64> {
    if let Some(w) = weapon {
        weapon_of(f, w)?;
    }
    if f.parried {
        return Err(Error::illegal("COCAP-ACT-6", "parry: once per round"));
    }
    Ok(0)
}

/// COCAP-ACT-5 跳躍: 0 AP, once, any timing, not after Emergency Evasion (COCAP-ACT-7).
fn check_jump(f: &CocApFighter, dir: CocApDir) -> Result<i64> {
    step(f.participant.position, dir)?;
    if f.jumped {
        return Err(Error::illegal("COCAP-ACT-5", "jump: once per round"));
    }
    if f.evaded {
        return Err(Error::illegal("COCAP-ACT-7", "jump: not in a round with Emergency Evasion"));
    }
    Ok(0)
}

/// COCAP-ACT-7 緊急回避: 0 AP, once, not after Jump (COCAP-ACT-5).
fn check_evasion(f: &CocApFighter, dir: CocApDir) -> Result<i64> {
    step(f.participant.position, dir)?;
    if f.evaded {
        return Err(Error::illegal("COCAP-ACT-7", "emergency_evasion: once per round"));
    }
    if f.jumped {
        return Err(Error::illegal("COCAP-ACT-5", "emergency_evasion: not in a round with Jump"));
    }
    Ok(0)
}

/// COCAP-RND-1 / COCAP-RND-2: the next round, once every turn has ended.
fn check_next_round(s: &CocApRoundState) -> Result<()> {
    if s.turn.is_some() {
        return Err(Error::illegal("COCAP-RND-2", "next_round: every participant's turn must end first"));
    }
    if s.round >= MAX_ROUND {
        return Err(Error::limit("state.round", format_args!("at most {MAX_ROUND} rounds")));
    }
    Ok(())
}

/// The pending attack's refusals: while one waits, only its target answers it (and
/// another character may insert an Emergency Evasion, COCAP-ACT-7); without one, the
/// reactions have nothing to answer.
fn check_pending(s: &CocApRoundState, actor: Option<&str>, action: &CocApAction) -> Result<()> {
    let reaction_rule = match action {
        CocApAction::Dodge { .. } => Some("COCAP-ACT-3"),
        CocApAction::Parry { .. } => Some("COCAP-ACT-6"),
        CocApAction::Jump { .. } => Some("COCAP-ACT-5"),
        CocApAction::EmergencyEvasion { .. } => Some("COCAP-ACT-7"),
        CocApAction::NoReaction { .. } => Some("COCAP-ACT-2"),
        _ => None,
    };
    match (&s.pending, reaction_rule) {
        (None, Some(rule)) => Err(Error::illegal(rule, "no attack is pending: a reaction answers an attack")),
        (None, None) => Ok(()),
        (Some(p), Some(_)) if Some(p.target.as_str()) == actor => Ok(()),
        (Some(p), Some("COCAP-ACT-7")) if Some(p.attacker.as_str()) != actor => Ok(()),
        (Some(p), Some(rule)) => Err(Error::illegal(
            rule,
            format_args!("the pending attack is on {}: only it answers", quote(&p.target)),
        )),
        (Some(p), None) => Err(Error::illegal(
            "COCAP-ACT-2",
            format_args!("{}'s attack on {} is pending: {} answers it first", p.attacker, p.target, p.target),
        )),
    }
}

/// Whether `action` may be taken now (pure): the actor's index and the AP it spends,
/// or the refusal naming its rule.
pub(crate) fn check(s: &CocApRoundState, action: &CocApAction) -> Result<CocApChecked> {
    let actor = actor_of(action);
    let i =
        match actor {
            Some(a) => Some(s.fighters.iter().position(|f| f.participant.id == a).ok_or_else(|| {
                Error::invalid("action.actor", format_args!("no participant {}", quote(a)))
            })?),
            None => None,
        };
    if outcome(s).is_some() {
        return Err(Error::illegal("COCAP-RND-3", "the fight is over: one side is left standing"));
    }
    check_pending(s, actor, action)?;
    let Some(i) = i else {
        check_next_round(s)?;
        return Ok(CocApChecked { i: None, ap: 0 });
    };
    let f = &s.fighters[i];
    // A participant who is down cannot act (`COC6-BASE-HP`); its turn may still end,
    // and a pending attack on it is taken.
    if is_down(&f.participant)
        && !matches!(action, CocApAction::EndTurn { .. } | CocApAction::NoReaction { .. })
    {
        return Err(Error::illegal(
            super::sentences::hp_rule(),
            format_args!("{} is down and cannot act", f.participant.id),
        ));
    }
    let ap = match action {
        CocApAction::NextRound => 0,
        CocApAction::DodgeFocus { .. } => check_dodge_focus(s, f)?,
        CocApAction::Move { dir, .. } => check_move(s, f, *dir)?,
        CocApAction::Attack { weapon, target, .. } => check_attack(s, f, weapon, target)?,
        CocApAction::Treat { target, .. } => check_treat(s, f, target.as_deref())?,
        CocApAction::Other { ap, .. } => check_other(s, f, *ap)?,
        CocApAction::Dodge { .. } => check_dodge(f)?,
        CocApAction::Parry { weapon, .. } => check_parry(f, weapon.as_deref())?,
        CocApAction::Jump { dir, .. } => check_jump(f, *dir)?,
        CocApAction::EmergencyEvasion { dir, .. } => check_evasion(f, *dir)?,
        CocApAction::NoReaction { .. } => 0,
        CocApAction::EndTurn { .. } => {
            own_turn(s, &f.participant.id)?;
            0
        }
    };
    Ok(CocApChecked { i: Some(i), ap })
}

// ---------------------------------------------------------------- one change per action

/// Apply `action`, which [`check`] accepted with `c`, in place: its events. It fails
/// only if scripted dice run out (or on an internal error).
pub(crate) fn commit(
    s: &mut CocApRoundState,
    action: &CocApAction,
    c: CocApChecked,
    dice: &mut Dice,
) -> Result<Vec<CocApLoggedEvent>> {
    let mut events = commit_events(s, action, c, dice)?;
    // COCAP-RND-3: the fight ends when one side is left standing.
    if let Some(o) = outcome(s) {
        events.push(CocApEvent::FightEnded { winner: o.winner, down: o.down });
    }
    Ok(super::sentences::logged(events))
}

fn commit_events(
    s: &mut CocApRoundState,
    action: &CocApAction,
    c: CocApChecked,
    dice: &mut Dice,
) -> Result<Vec<CocApEvent>> {
    let rule = s.variants.coc6_rule;
    let Some(i) = c.i else {
        // COCAP-RND-1 / COCAP-RND-2: AP regained and order set anew (COCAP-AP-1, COCAP-ORD-1).
        s.round += 1;
        start_round(s);
        return Ok(vec![CocApEvent::RoundStarted { round: s.round, order: s.order.clone() }]);
    };
    let target = match action {
        CocApAction::Dodge { .. } => dodge_target(s, &s.fighters[i]),
        _ => 0,
    };
    let pending = s.pending.clone();
    let answers = pending.as_ref().filter(|p| p.target == s.fighters[i].participant.id).cloned();
    let attacker = pending.as_ref().map(|p| p.attacker.clone()).unwrap_or_default();
    let f = fighter(s, i)?;
    let actor = f.participant.id.clone();
    let (e, avoided) = match action {
        CocApAction::NextRound => return Err(Error::new(ErrorCode::Internal, "next_round with an actor")),
        CocApAction::DodgeFocus { .. } => {
            f.dodge_focus = true;
            f.ap -= c.ap;
            // Dodge Focus keeps the round open (COCAP-ACT-8).
            return Ok(vec![CocApEvent::DodgeFocusDeclared { actor, ap_left: f.ap }]);
        }
        CocApAction::Move { dir, .. } => {
            let p = step(f.participant.position, *dir)?;
            f.ap -= c.ap;
            f.participant.position = p;
            (CocApEvent::Moved { actor, moved_to: p, ap_left: f.ap }, false)
        }
        CocApAction::Attack { weapon, target: whom, .. } => {
            let w = weapon_of(f, weapon)?.clone();
            let check = roll_check(dice, w.skill, rule)?;
            f.ap -= c.ap;
            *f.attacks.entry(w.name.clone()).or_insert(0) += 1;
            let hit = check.success;
            let ap_left = f.ap;
            if hit {
                s.pending = Some(CocApPending {
                    attacker: actor.clone(),
                    weapon: w.name.clone(),
                    target: whom.clone(),
                });
            }
            close_opening(s);
            return Ok(vec![CocApEvent::Attacked {
                actor,
                weapon: w.name,
                target: whom.clone(),
                check,
                hit,
                ap_left,
            }]);
        }
        CocApAction::Treat { skill: sk, target: whom, .. } => {
            let check = roll_check(dice, skill(f, sk.key()), rule)?;
            f.ap -= c.ap;
            f.treated = true;
            let ap_left = f.ap;
            let whom = whom.clone().unwrap_or_else(|| actor.clone());
            // COC6-BASE-TREAT (illustrative pack): a success restores the skill's dice of HP,
            // never above hp_max.
            let expr = match sk {
                CocApTreatSkill::FirstAid => pack().treatment.first_aid.as_deref(),
                CocApTreatSkill::Medicine => pack().treatment.medicine.as_deref(),
                CocApTreatSkill::Psychoanalysis => pack().treatment.psychoanalysis.as_deref(),
            };
            let mut healed = 0;
            let tj = s.fighters.iter().position(|x| x.participant.id == whom).unwrap_or(i);
            let tp = &mut fighter(s, tj)?.participant;
            if let (true, Some(expr)) = (check.success, expr) {
                let (rolled, _) = crate::dice::expr::roll_with(expr, dice)?;
                if let (Some(h), Some(m)) = (tp.hp.or(tp.hp_max), tp.hp_max) {
                    let now = (h + rolled.max(0)).min(m).max(h);
                    healed = now - h;
                    tp.hp = Some(now);
                } else {
                    healed = rolled.max(0);
                }
            }
            let (hp, hp_max) = (tp.hp, tp.hp_max);
            (
                CocApEvent::Treated { actor, target: whom, skill: *sk, check, healed, hp, hp_max, ap_left },
                false,
            )
        }
        CocApAction::Other { ap, .. } => {
            f.ap -= c.ap;
            (CocApEvent::OtherTaken { actor, ap: *ap, ap_left: f.ap }, false)
        }
        CocApAction::Dodge { .. } => {
            // A reduced target under Dodge Focus: a critical roll always succeeds
            // (COCAP-ACT-8, RULINGS 2026-12-05).
            let check = if f.dodge_focus {
                roll_reduced_target(dice, target, rule)?
            } else {
                roll_check(dice, target, rule)?
            };
            f.dodges += 1;
            // COCAP-ACT-3: a success avoids the harm, in place.
            let avoided = check.success;
            (CocApEvent::Dodged { actor, attacker, check, avoided }, avoided)
        }
        CocApAction::Parry { weapon, .. } => {
            // The weapon's skill, or `parry` without a weapon.
            let target = match weapon {
                Some(w) => weapon_of(f, w)?.skill,
                None => skill(f, "parry"),
            };
            let check = roll_check(dice, target, rule)?;
            f.parried = true;
            // COCAP-ACT-6 → the base rulebook's parry effect (COC6-BASE-PARRY, illustrative pack).
            let avoided = check.success && pack().parry.stops_attack;
            (CocApEvent::Parried { actor, attacker, weapon: weapon.clone(), check, avoided }, avoided)
        }
        CocApAction::Jump { dir, clears_line, .. } => {
            // A success moves one square; it avoids the attack when it leaves the line of fire.
            let check = roll_check(dice, skill(f, "jump"), rule)?;
            let mut moved_to = None;
            if check.success {
                let p = step(f.participant.position, *dir)?;
                f.participant.position = p;
                moved_to = Some(p);
            }
            f.jumped = true;
            let avoided = check.success && *clears_line;
            (CocApEvent::Jumped { actor, attacker, check, moved_to, avoided }, avoided)
        }
        CocApAction::EmergencyEvasion { dir, clears_line, .. } => {
            // Inserted before another character's declared action (the pending attack),
            // during the evader's own turn too (RULINGS 2026-12-05); target
            // floor((jump + dodge) ÷ 2) − 10, a reduced target: a critical roll always succeeds.
            let t0 = evasion_target(skill(f, "jump"), skill(f, "dodge"));
            let check = roll_reduced_target(dice, t0, rule)?;
            let mut moved_to = None;
            if check.success {
                let p = step(f.participant.position, *dir)?;
                f.participant.position = p;
                moved_to = Some(p);
            }
            f.evaded = true;
            let avoided = answers.is_some() && check.success && *clears_line;
            (CocApEvent::EmergencyEvaded { actor, attacker, check, moved_to, avoided }, avoided)
        }
        CocApAction::NoReaction { .. } => (CocApEvent::NoReaction { actor, attacker }, false),
        CocApAction::EndTurn { .. } => {
            // COCAP-RND-2: the next in order acts (the turns of those down pass).
            f.turn_done = true;
            s.turn = match s.turn {
                Some(t) if t + 1 < s.order.len() => Some(t + 1),
                _ => None,
            };
            let skipped = pass_down_turns(s);
            let next = s.turn.and_then(|t| s.order.get(t)).cloned();
            close_opening(s);
            return Ok(vec![CocApEvent::TurnEnded { actor, round_complete: next.is_none(), next, skipped }]);
        }
    };
    // Any action but Dodge Focus (and `next_round`) closes the round's opening (COCAP-ACT-8).
    close_opening(s);
    let mut events = vec![e];
    if let Some(p) = answers {
        s.pending = None;
        if !avoided {
            events.extend(hit(s, &p, dice)?);
        }
    }
    Ok(events)
}

/// COCAP-ACT-2: a pending attack that was not avoided hits: the weapon's `damage`, less
/// the target's armor (COC6-BASE-ARMOR), comes off its HP; at the pack's thresholds it
/// goes down (COC6-BASE-HP).
fn hit(s: &mut CocApRoundState, p: &CocApPending, dice: &mut Dice) -> Result<Vec<CocApEvent>> {
    let expr = s
        .fighters
        .iter()
        .find(|f| f.participant.id == p.attacker)
        .and_then(|f| f.participant.weapons.iter().find(|w| w.name == p.weapon))
        .and_then(|w| w.damage.clone())
        .ok_or_else(|| Error::new(ErrorCode::Internal, "the pending attack's weapon has no damage"))?;
    let (rolled, _) = crate::dice::expr::roll_with(&expr, dice)?;
    let j = s
        .fighters
        .iter()
        .position(|f| f.participant.id == p.target)
        .ok_or_else(|| Error::new(ErrorCode::Internal, "the pending attack's target is gone"))?;
    let tp = &mut fighter(s, j)?.participant;
    let (armor, damage) = armored(tp, rolled);
    let was_down = is_down(tp);
    lose_hp(tp, damage);
    let mut events = vec![CocApEvent::Damaged {
        target: p.target.clone(),
        attacker: p.attacker.clone(),
        weapon: p.weapon.clone(),
        rolled,
        armor,
        damage,
        hp: tp.hp,
        hp_max: tp.hp_max,
    }];
    if let (false, true, Some(h)) = (was_down, is_down(tp), tp.hp) {
        events.push(CocApEvent::Down {
            actor: p.target.clone(),
            hp: h,
            dead: h <= pack().hp.dead_at_or_below,
        });
    }
    Ok(events)
}

/// COC6-BASE-ARMOR: a hit's `rolled` damage less `tp`'s armour (when the pack subtracts
/// it), never below 0: (armour, damage).
pub(crate) fn armored(tp: &CocApParticipant, rolled: i64) -> (i64, i64) {
    let armor = if pack().armor.subtracts { tp.armor } else { 0 };
    (armor, (rolled - armor).max(0))
}

/// COC6-BASE-HP: `damage` comes off `tp`'s HP (when tracked), never below −999.
pub(crate) fn lose_hp(tp: &mut CocApParticipant, damage: i64) {
    if let Some(h) = tp.hp.or(tp.hp_max) {
        tp.hp = Some((h - damage).max(-999));
    }
}

/// Any action but Dodge Focus (and `next_round`) closes the round's opening (COCAP-ACT-8).
fn close_opening(s: &mut CocApRoundState) {
    s.open = false;
}

/// Candidate actions for the engine harness (legal or not): the listing's
/// candidates and an `other` of a random cost.
#[cfg(test)]
pub(crate) fn candidates(s: &CocApRoundState, rng: &mut crate::dice::prng::Prng) -> Vec<CocApAction> {
    let mut v = candidate_actions(s);
    for f in &s.fighters {
        v.push(CocApAction::Other { actor: f.participant.id.clone(), ap: (rng.next_u64() % 8) as i64 });
    }
    v
}

/// Every action the listing tries.
pub(crate) fn candidate_actions(s: &CocApRoundState) -> Vec<CocApAction> {
    let mut cands = Vec::new();
    for f in &s.fighters {
        let a = f.participant.id.clone();
        cands.push(CocApAction::DodgeFocus { actor: a.clone() });
        for dir in CocApDir::ALL {
            cands.push(CocApAction::Move { actor: a.clone(), dir });
        }
        for w in &f.participant.weapons {
            for x in s.fighters.iter().filter(|x| x.participant.id != a) {
                cands.push(CocApAction::Attack {
                    actor: a.clone(),
                    weapon: w.name.clone(),
                    target: x.participant.id.clone(),
                });
            }
        }
        for skill in [CocApTreatSkill::FirstAid, CocApTreatSkill::Medicine, CocApTreatSkill::Psychoanalysis] {
            // The actor itself (no `target`), then each other participant.
            cands.push(CocApAction::Treat { actor: a.clone(), skill, target: None });
            for x in s.fighters.iter().filter(|x| x.participant.id != a) {
                cands.push(CocApAction::Treat {
                    actor: a.clone(),
                    skill,
                    target: Some(x.participant.id.clone()),
                });
            }
        }
        cands.push(CocApAction::Other { actor: a.clone(), ap: 1 });
        cands.push(CocApAction::Dodge { actor: a.clone() });
        // Without a weapon the `parry` skill is rolled; a missing skill counts
        // as 0 (like `dodge`), so the action is legal and listed either way.
        cands.push(CocApAction::Parry { actor: a.clone(), weapon: None });
        for w in &f.participant.weapons {
            cands.push(CocApAction::Parry { actor: a.clone(), weapon: Some(w.name.clone()) });
        }
        for dir in CocApDir::ALL {
            cands.push(CocApAction::Jump { actor: a.clone(), dir, clears_line: true });
        }
        for dir in CocApDir::ALL {
            cands.push(CocApAction::EmergencyEvasion { actor: a.clone(), dir, clears_line: true });
        }
        cands.push(CocApAction::NoReaction { actor: a.clone() });
        cands.push(CocApAction::EndTurn { actor: a.clone() });
    }
    cands.push(CocApAction::NextRound);
    cands
}
