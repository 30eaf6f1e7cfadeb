//! The actions `tmd.encounter_act` accepts and the typed events it logs.

use super::super::actions::{TmdActionType, TmdConvertType};
use super::super::initiative::TmdInitiativeEntry;
use super::state::{TmdDuration, TmdEffect};
use crate::json::{FromJson, ToJson};

/// A character joining the encounter.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdCharacterSpec {
    /// Unique id (1..=64 characters).
    pub id: String,
    /// Side.
    pub side: String,
    /// 基础先攻值, −1000..=1000.
    #[schemars(range(min = -1000, max = 1000))]
    pub base_initiative: i32,
    /// TMD-SUR-5: immune to the surprise attack's 措手不及/先制 (default false).
    #[serde(default)]
    pub immune_to_surprise: bool,
    /// A player character (轮回者, TMD-INT-2; default false).
    #[serde(default)]
    pub is_pc: bool,
    /// Hit points the GM tracks, 0..=10^9 (optional: the seed has no damage rules, so
    /// damage is the GM's entry, `gm_damage`). Default: not tracked.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1000000000))]
    pub hp: Option<i64>,
}

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    /// One action. `actor` is the character who acts. Optional text fields (`ability`,
    /// `label`, `purpose`, `source`, `timing`) annotate the action; legal-action
    /// lists give the default form.
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum TmdAction {
        /// TMD-SUR-3/TMD-INI-1/TMD-INI-7: end the surprise round (after the one
        /// attack) and roll initiative; combat formally begins (dice: one d10 per
        /// character in joining order, then tie-breaks).
        BeginCombat {},
        /// TMD-INI-5: at round start, `actor` delays until right after `after`'s turn.
        Delay {
            /// The delaying character.
            #[serde(alias = "character")]
            actor: String,
            /// A character lower in the order that nobody else delays after and that has not
            /// delayed itself yet (it may still delay afterwards).
            after: String,
        },
        /// TMD-INI-5: delay declarations are over; the first turn starts.
        StartTurns {},
        /// TMD-AP-6/7/8: at the start of its turn, pick a type and convert `count` actions of it.
        /// More of the type picked last may follow in later calls (one at a time is the same
        /// as all at once, as in `tmd.convert`); a type picked before another may not.
        Convert {
            /// The acting character.
            #[serde(alias = "character")]
            actor: String,
            /// Type to convert: trick, swift, move, acrobatic or standard (`full_round`,
            /// `reflex` and `free` are refused with their rule: TMD-AP-16, TMD-ACT-10, TMD-ACT-1).
            action_type: TmdActionType,
            /// How many (1..=1000).
            count: u32,
        },
        /// TMD-AP-4 (RULINGS): out of turn, convert reflex-only and extra AP into reflex
        /// actions; at the start of one's own turn, convert reflex-only AP into reflex actions.
        ConvertReflex {
            /// The character (not in its own turn).
            #[serde(alias = "character")]
            actor: String,
            /// How many (1..=1000).
            count: u32,
        },
        /// Use a held action. In one's own turn: `using` (default `action_type`;
        /// standard for full-round) must rank at least as high (TMD-AP-17); a
        /// full-round action also takes `companion` (move or acrobatic, default
        /// move; TMD-AP-16). Out of turn: `action_type` reflex, `using` reflex or
        /// swift (TMD-ACT-10), or any held action when an `ability` uses it (TMD-AP-11).
        UseAction {
            /// Who acts.
            #[serde(alias = "character")]
            actor: String,
            /// The action needed.
            action_type: TmdActionType,
            /// The held action spent (default: same as `action_type`).
            #[serde(default)]
            using: Option<TmdActionType>,
            /// Full-round only: move or acrobatic (default move).
            #[serde(default)]
            companion: Option<TmdActionType>,
            /// The ability used (TMD-AP-10 per-round limit applies when given).
            #[serde(default)]
            ability: Option<String>,
            /// The ability's stated uses per round (default 1).
            #[serde(default)]
            uses_per_round: Option<u32>,
            /// The surprise round's standard action is an attack (default true): only an
            /// attack marks the defenders as caught off guard (TMD-SUR-4, RULINGS 2026-12-05).
            /// Only in the surprise round.
            #[serde(default)]
            attack: Option<bool>,
        },
        /// TMD-ACT-1..4: a free action (`purpose` default "free", `source` default "basic").
        UseFree {
            /// Who acts.
            #[serde(alias = "character")]
            actor: String,
            /// Purpose (same purpose + same source = the same free action).
            #[serde(default)]
            purpose: Option<String>,
            /// Ability source.
            #[serde(default)]
            source: Option<String>,
            /// Stated uses per round (counts only together with `timing`).
            #[serde(default)]
            uses_per_round: Option<u32>,
            /// Stated timing (allows use out of turn, TMD-ACT-2).
            #[serde(default)]
            timing: Option<String>,
            /// Out of turn, invoke an in-turn free-action ability with a reflex action,
            /// which it spends (TMD-ACT-10, RULINGS 2026-12-05). Default false.
            #[serde(default)]
            reflex: bool,
        },
        /// TMD-AP-11/13: a resource overdraws an action; its AP is lost at the next turn start.
        Overdraw {
            /// Who overdraws.
            #[serde(alias = "character")]
            actor: String,
            /// The type overdrawn.
            action_type: TmdConvertType,
        },
        /// TMD-AP-14: an ability retains one held action until it uses it.
        Retain {
            /// The acting character.
            #[serde(alias = "character")]
            actor: String,
            /// The held type.
            action_type: TmdConvertType,
            /// The ability.
            ability: String,
        },
        /// TMD-AP-15: a resource grants an action, gained at the next turn start.
        Grant {
            /// Who receives it.
            #[serde(alias = "character")]
            actor: String,
            /// The type.
            action_type: TmdConvertType,
        },
        /// TMD-AP-3/4: AP gained from an effect (1..=1000).
        GainAp {
            /// Who gains it.
            #[serde(alias = "character")]
            actor: String,
            /// Amount.
            amount: u32,
            /// Out-of-turn-only AP (TMD-AP-4), default false (extra AP).
            #[serde(default)]
            reflex_only: bool,
        },
        /// TMD-AP-12: the character loses (or regains) the ability to use a type.
        SetDisabled {
            /// Who.
            #[serde(alias = "character")]
            actor: String,
            /// The type.
            action_type: TmdConvertType,
            /// true: lost; false: regained.
            disabled: bool,
        },
        /// TMD-TIME-2/TMD-AP-2/3: end the current turn.
        EndTurn {
            /// The acting character.
            #[serde(alias = "character")]
            actor: String,
        },
        /// TMD-INI-4: characters join (dice: one d10 each in the given order, then tie-breaks).
        Join {
            /// The joiners (1..=100).
            characters: Vec<TmdCharacterSpec>,
        },
        /// A character leaves the encounter (TMD-INI-6: nobody else skips a turn).
        Leave {
            /// Who.
            #[serde(alias = "character")]
            actor: String,
        },
        /// TMD-INI-3: change a base initiative; an increase re-sorts at round end.
        SetBaseInitiative {
            /// Who.
            #[serde(alias = "character")]
            actor: String,
            /// New 基础先攻值.
            base_initiative: i32,
        },
        /// TMD-TIME-3/TMD-SCN-2: apply an effect.
        ApplyEffect {
            /// Who applies it.
            applier: String,
            /// Who is affected.
            target: String,
            /// Name (1..=200 characters).
            name: String,
            /// Duration.
            duration: TmdDuration,
        },
        /// Remove an effect early.
        RemoveEffect {
            /// Effect id.
            id: u32,
        },
        /// TMD-SCN-1/2: the scene changes; scene effects end.
        SceneChange {},
        /// TMD-SCN-4: a teleport; unobserved, the character leaves the scene.
        Teleport {
            /// Who teleports.
            #[serde(alias = "character")]
            actor: String,
            /// Someone in the original scene can still observe/detect/sense it.
            observed: bool,
        },
        /// TMD-INT-1: announce an action whose resolution can be interrupted.
        Announce {
            /// Whose action.
            #[serde(alias = "character")]
            actor: String,
            /// Label (default empty).
            #[serde(default)]
            label: Option<String>,
        },
        /// TMD-INT-1/2/3: interrupt the next pending action.
        Interrupt {
            /// Who interrupts.
            #[serde(alias = "character")]
            actor: String,
            /// With a reflex action (spends one), TMD-INT-3.
            #[serde(default)]
            reflex: bool,
            /// The action the interrupt uses, spent as it is announced (RULINGS 2026-12-05):
            /// with `reflex`, a held `reflex` (default when held) or `swift`; without, a held
            /// converted action (trick, swift, move, acrobatic, standard) an ability uses
            /// (TMD-AP-11). In one's own turn, spending it closes the conversion window.
            #[serde(default)]
            using: Option<TmdActionType>,
            /// Label (default empty).
            #[serde(default)]
            label: Option<String>,
            /// TMD-INT-4: the interrupting ability ignores the original actor's 【先制】.
            #[serde(default)]
            ignores_preemption: bool,
        },
        /// TMD-INT-3: nobody interrupts the next pending action; it is closed to interrupts.
        Pass {},
        /// TMD-INT-1: resolve the next pending action.
        Resolve {},
        /// TMD-SCN-1: the battle ends.
        EndEncounter {},
        /// The GM enters a hit's outcome (the seed gives no attack or damage rules): `target`
        /// takes `amount` damage off its tracked HP (TMD-TIME-2: attacking is what a unit
        /// does in its turn; the result is the GM's).
        GmDamage {
            /// Who is hit (a character tracking `hp`).
            target: String,
            /// Damage, 1..=10^9.
            amount: i64,
        },
        /// The GM says `target` is down: it takes no more turns and acts no more
        /// (TMD-TIME-1); once every side but one has nobody standing, the battle ends
        /// (TMD-SCN-1).
        GmDown {
            /// Who is down.
            target: String,
        },
    }
}

impl TmdAction {
    /// The character who takes the action (`actor`); None for the round's and the
    /// GM's steps that name nobody (`begin_combat`, `start_turns`, `join`,
    /// `apply_effect`, `remove_effect`, `scene_change`, `pass`, `resolve`,
    /// `end_encounter`).
    pub fn actor(&self) -> Option<&str> {
        use TmdAction as A;
        match self {
            A::Delay { actor: character, .. }
            | A::Convert { actor: character, .. }
            | A::ConvertReflex { actor: character, .. }
            | A::UseAction { actor: character, .. }
            | A::UseFree { actor: character, .. }
            | A::Overdraw { actor: character, .. }
            | A::Retain { actor: character, .. }
            | A::Grant { actor: character, .. }
            | A::GainAp { actor: character, .. }
            | A::SetDisabled { actor: character, .. }
            | A::EndTurn { actor: character }
            | A::Leave { actor: character }
            | A::SetBaseInitiative { actor: character, .. }
            | A::Teleport { actor: character, .. }
            | A::Announce { actor: character, .. }
            | A::Interrupt { actor: character, .. } => Some(character),
            A::BeginCombat {}
            | A::StartTurns {}
            | A::Join { .. }
            | A::ApplyEffect { .. }
            | A::RemoveEffect { .. }
            | A::SceneChange {}
            | A::Pass {}
            | A::Resolve {}
            | A::EndEncounter {}
            | A::GmDamage { .. }
            | A::GmDown { .. } => None,
        }
    }
}

crate::internally_tagged! {
    #[serde(tag = "event", rename_all = "snake_case")]
    /// What happened, in order.
    #[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum TmdEvent {
        /// TMD-SCN-1/2/5: a scene ended.
        SceneEnded {
            /// Scene number.
            scene: u32,
            /// Why.
            reason: String,
        },
        /// A new scene began.
        SceneStarted {
            /// Scene number.
            scene: u32,
        },
        /// TMD-SUR: the surprise round began.
        SurpriseRoundStarted {
            /// The attacker.
            attacker: String,
        },
        /// TMD-SUR-5: an immune defender gained a reflex action.
        SurpriseReflexGranted {
            /// Who.
            character: String,
        },
        /// TMD-SUR-4/5: the surprise attack is made with 措手不及/先制.
        SurpriseAttack {
            /// The attacker.
            attacker: String,
            /// Defenders affected by 措手不及/先制.
            caught_off_guard: Vec<String>,
            /// Defenders immune to it (they got a reflex action instead).
            immune: Vec<String>,
        },
        /// Initiative rolled or re-sorted.
        InitiativeRolled {
            /// Why (`combat_start`, `join`, `round_start`).
            reason: String,
            /// Entries, highest first.
            entries: Vec<TmdInitiativeEntry>,
        },
        /// TMD-INI-7: combat formally began.
        CombatStarted {},
        /// A round began (delays may be declared).
        RoundStarted {
            /// Round.
            round: u32,
            /// Initiative order.
            order: Vec<String>,
        },
        /// TMD-INI-5.
        DelayDeclared {
            /// Who.
            character: String,
            /// After whom.
            after: String,
        },
        /// Delay declarations closed; the turn order of this round.
        TurnOrderSet {
            /// Turn order.
            turns: Vec<String>,
        },
        /// TMD-TIME-2/TMD-AP-2: a turn started.
        TurnStarted {
            /// Who.
            character: String,
            /// Base AP after overdraw losses.
            base_ap: u32,
            /// Extra AP.
            extra_ap: u32,
            /// Out-of-turn-only AP (TMD-AP-4), convertible into reflex actions now.
            #[serde(default)]
            reflex_only_ap: u32,
            /// AP lost to overdrawn actions (TMD-AP-11).
            ap_lost_to_overdraw: u32,
            /// Types that can't be converted this turn.
            blocked: Vec<TmdConvertType>,
        },
        /// TMD-AP-15: a granted action was (or was not) gained.
        ActionGranted {
            /// Who.
            character: String,
            /// Type.
            action_type: TmdConvertType,
            /// Gained, or not because it could not have been converted.
            gained: bool,
        },
        /// AP converted.
        Converted {
            /// Who.
            character: String,
            /// Type (`reflex` for out-of-turn conversions).
            action_type: TmdActionType,
            /// How many.
            count: u32,
            /// AP spent.
            ap_spent: u32,
        },
        /// An action was used.
        ActionUsed {
            /// Who.
            character: String,
            /// The action needed.
            action_type: TmdActionType,
            /// Held actions spent.
            spent: Vec<TmdActionType>,
            /// Out of the character's own turn.
            out_of_turn: bool,
            /// The ability, if any (`drop_prone` for a bare reflex, TMD-ACT-10).
            ability: Option<String>,
        },
        /// A free action was used.
        FreeActionUsed {
            /// Who.
            character: String,
            /// Purpose.
            purpose: String,
            /// Source.
            source: String,
            /// The reflex (or swift) action spent to invoke it out of turn (TMD-ACT-10).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            reflex_spent: Option<TmdActionType>,
        },
        /// TMD-AP-11: an action was overdrawn.
        Overdrawn {
            /// Who.
            character: String,
            /// Type.
            action_type: TmdConvertType,
            /// AP to be lost at the next turn start.
            ap_owed: u32,
        },
        /// TMD-AP-14.
        Retained {
            /// Who.
            character: String,
            /// Type.
            action_type: TmdConvertType,
            /// Ability.
            ability: String,
        },
        /// A grant was queued for the next turn start.
        GrantQueued {
            /// Who.
            character: String,
            /// Type.
            action_type: TmdConvertType,
        },
        /// AP gained.
        ApGained {
            /// Who.
            character: String,
            /// Amount actually added.
            amount: u32,
            /// Out-of-turn-only AP.
            reflex_only: bool,
        },
        /// TMD-AP-12 switch.
        DisabledChanged {
            /// Who.
            character: String,
            /// Type.
            action_type: TmdConvertType,
            /// Now disabled.
            disabled: bool,
        },
        /// TMD-AP-2/3: a turn ended.
        TurnEnded {
            /// Who.
            character: String,
            /// Old extra AP removed.
            extra_ap_removed: u32,
            /// Out-of-turn-only AP removed.
            reflex_only_ap_removed: u32,
            /// Left-over base AP that became extra AP.
            extra_ap_carried: u32,
        },
        /// TMD-AP-9: unused non-swift actions removed at round end.
        ActionsRemoved {
            /// Who.
            character: String,
            /// How many.
            count: u32,
        },
        /// TMD-AP-9: unused swift actions became reflex actions.
        SwiftBecameReflex {
            /// Who.
            character: String,
            /// How many.
            count: u32,
            /// Round at whose end they expire.
            expires_round: u32,
        },
        /// Reflex actions expired.
        ReflexExpired {
            /// Who.
            character: String,
            /// How many.
            count: u32,
        },
        /// A round ended.
        RoundEnded {
            /// Round.
            round: u32,
        },
        /// TMD-INI-4: characters joined at the end of this round's order.
        Joined {
            /// Ids in their internal order.
            characters: Vec<String>,
        },
        /// A character left.
        Left {
            /// Who.
            character: String,
        },
        /// TMD-INI-3.
        InitiativeChanged {
            /// Who.
            character: String,
            /// New base.
            base_initiative: i32,
            /// Re-sorted at the end of the round.
            resort_at_round_end: bool,
        },
        /// An effect was applied.
        EffectApplied {
            /// The effect.
            effect: TmdEffect,
        },
        /// An effect ended.
        EffectEnded {
            /// Id.
            id: u32,
            /// Name.
            name: String,
            /// Why.
            reason: String,
        },
        /// TMD-SCN-4: a teleport that stays in the scene.
        TeleportedWithinScene {
            /// Who.
            character: String,
        },
        /// TMD-INT-1: a chain began.
        ChainStarted {
            /// Whose action.
            character: String,
            /// Entry id.
            entry: u32,
        },
        /// TMD-INT-2/TMD-INT-3: an interrupt was declared.
        InterruptDeclared {
            /// Who interrupts.
            character: String,
            /// Entry id of the interrupt.
            entry: u32,
            /// The entry interrupted.
            interrupts: u32,
            /// Interrupter's AP at chain start.
            interrupter_ap: u32,
            /// Interrupted character's AP at chain start.
            interrupted_ap: u32,
            /// Who resolves first.
            first: String,
            /// Who may not interrupt again in this chain (TMD-INT-2); `null` when a
            /// reflex interrupts an action taken in its actor's own turn (TMD-INT-3).
            locked_out: Option<String>,
        },
        /// TMD-INT-4: 【先制】 is ignored, whatever its level.
        PreemptionIgnored {
            /// Who ignores it.
            character: String,
        },
        /// TMD-INT-3: nobody interrupted; the entry is closed.
        InterruptsClosed {
            /// Entry id.
            entry: u32,
        },
        /// A pending action resolved.
        Resolved {
            /// Entry id.
            entry: u32,
            /// Whose.
            character: String,
            /// Label.
            label: String,
        },
        /// The chain finished.
        ChainEnded {},
        /// TMD-SCN-1: the battle ended.
        EncounterEnded {},
        /// The GM entered damage (`gm_damage`).
        Damaged {
            /// Who took it.
            character: String,
            /// Damage taken.
            amount: i64,
            /// HP left.
            hp: i64,
        },
        /// The GM said a character is down (`gm_down`).
        Downed {
            /// Who.
            character: String,
        },
    }
}

/// An event as the encounter reports it: the event, with the rule that produced it and
/// one sentence stating it in the four display languages.
pub type TmdLoggedEvent = crate::kernel::label::Logged<TmdEvent>;
