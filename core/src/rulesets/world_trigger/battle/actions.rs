//! Actions a host sends to `world_trigger.battle_act`, the events it gets
//! back, and what a legal action costs.

use super::state::{WtBattlePhase, WtSquare};
use crate::json::{FromJson, ToJson};
use crate::world_trigger::character::WtSide;
use crate::world_trigger::types::{WtCondition, WtLabel};

/// Tactics dice a team spends on its initiative check.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtTeamDice {
    /// Team id.
    pub team: String,
    /// Dice spent (0–20, at most the pool).
    #[schemars(range(min = 0, max = 20))]
    pub dice: u32,
}

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    /// One action (`type` selects the kind).
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum WtBattleAction {
        /// Initiative phase: every team's leader (or substitute) rolls Command (WT-INIT-1).
        RollInitiative {
            /// Tactics dice per team (WT-TD-3/4); default none.
            #[serde(default)]
            tactics_dice: Vec<WtTeamDice>,
        },
        /// Use a skill: in the Tactics phase a tactics-dice command, Bagworm,
        /// Chameleon or Area Search; in the Attack phase an attack (anything else
        /// is `illegal_action` naming WT-RND-1).
        UseSkill {
            /// The member acting.
            actor: String,
            /// Battle skill id.
            skill: String,
            /// The side of its trigger (needed only when it sits on both sides).
            #[serde(default)]
            side: Option<WtSide>,
            /// Single-target attack: the target's id.
            #[serde(default)]
            target: Option<String>,
            /// Area attack: the centre square (WT-RNG-4).
            #[serde(default)]
            center: Option<WtSquare>,
            /// Tactics dice added to each hit check (paid now, per target; WT-TD-3/4).
            #[serde(default)]
            tactics_dice: u32,
            /// WT-DMG-4 Trion Burst (0..=min(Trion stat, 10); cost + burst must stay
            /// below the current Trion): declared now, paid from the attacker's
            /// pool when damage is dealt — on the first hit on another team's member
            /// (a `trion_lost` event; an area attack's hits on the attacker or its
            /// allies never take it), nothing if no such member is hit.
            #[serde(default)]
            burst: i64,
            /// WT-MOV-6: where to push a single target if the skill has forced movement and it hits:
            /// any square 1 to the skill's `forced_move` squares from the target, counted as a move
            /// counts them (|dx| + |dy|: a diagonal neighbour is 2), in any direction the attacker
            /// chooses, heights and ZoC ignored; not another character's square; off the battlefield
            /// is allowed (out of bounds, WT-OOB-1).
            #[serde(default)]
            push_to: Option<WtSquare>,
        },
        /// Movement phase (or the Attack phase while Movement-reserved): move along `path`.
        Move {
            /// The member moving.
            actor: String,
            /// Move skill id (e.g. `normal_move`, `full_move`).
            skill: String,
            /// The squares entered, in order (start excluded). A square 2–3 away in a straight line is a jump.
            path: Vec<WtSquare>,
        },
        /// The defending team reacts to the pending attack's current target (WT-HIT-1/2).
        React {
            /// The reacting member: the target (dodge / defend) or an ally in the skill's range (defend).
            #[serde(alias = "reactor")]
            actor: String,
            /// Reaction skill id (`dodge` or a defend skill).
            skill: String,
            /// The side of its trigger (needed only when it sits on both sides).
            #[serde(default)]
            side: Option<WtSide>,
            /// Tactics dice added to the reaction check.
            #[serde(default)]
            tactics_dice: u32,
        },
        /// The defending team does not react to the current target.
        NoReaction {},
        /// WT-OOB-2: the Mobility check to re-enter the battlefield (once per round, before Feedback).
        Reenter {
            /// The member out of bounds.
            actor: String,
            /// Tactics dice added.
            #[serde(default)]
            tactics_dice: u32,
        },
        /// WT-OOB-4: an ally brings an out-of-bounds character back before the
        /// Feedback phase, with a basic action: it must stand within 1 square of
        /// the free battlefield square nearest to that character (where a
        /// successful re-entry check would put it, WT-OOB-3), which is where the
        /// character comes back. It takes the ally's action of the phase (Tactics,
        /// Movement or Attack; in the Attack phase one of its two actions, the
        /// main side's first, as any basic command, WT-ECO-1/3).
        BringBack {
            /// The ally acting.
            actor: String,
            /// The out-of-bounds character.
            target: String,
        },
        /// WT-OP-8: the team's operator acts (once per round, any timing).
        Operator {
            /// Team id.
            team: String,
            /// Operator command id.
            skill: String,
        },
        /// WT-ECO-5: use a position or trait skill (not an action; once per round unless repeatable).
        UseAbility {
            /// The member.
            actor: String,
            /// Skill id.
            ability: String,
        },
        /// The acting team ends its turn in this phase.
        Pass {
            /// Team id.
            team: String,
        },
    }
}

/// Why Trion was lost outside damage (`trion_lost`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtTrionLossCause {
    /// WT-COND-2…4: a Trion Leak in the Feedback phase.
    TrionLeak,
    /// WT-DMG-4: the attacker's declared Trion Burst, paid on the hit.
    TrionBurst,
    /// WT-MAP-6: a Bagworm teleport at the start of a rank battle.
    BagwormTeleport,
}

/// What a legal action costs.
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtActionCost {
    /// The phase slot it uses (WT-ECO-1/2), if any.
    pub slot: Option<WtBattlePhase>,
    /// The side whose one Attack-phase action it uses (WT-TRG-4), if any.
    pub side_action: Option<WtSide>,
    /// The side it activates (WT-TRG-4/5), if any.
    pub activates: Option<WtSide>,
    /// Trion paid (cost, plus the burst when it hits).
    pub trion: i64,
    /// Movement spent (moves).
    pub movement: Option<i64>,
    /// Tactics dice the caller may add (per check). For `roll_initiative`, the most any
    /// one team may add: each team up to min(its pool, 20).
    pub max_tactics_dice: u32,
    /// Trion Burst the caller may add.
    pub max_burst: i64,
    /// True if it uses the operator's action.
    pub operator: bool,
}

/// One legal action, exactly as `battle_act` accepts it, and its cost.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtLegalAction {
    /// The action.
    pub action: WtBattleAction,
    /// What it costs.
    pub cost: WtActionCost,
}

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case")]
    /// One event of the log.
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum WtBattleEvent {
        /// A round began (WT-RND-1).
        RoundStarted {
            /// Round number.
            round: u32,
        },
        /// A phase began; `order` lists team ids in acting order (WT-INIT-2).
        PhaseStarted {
            /// Phase.
            phase: WtBattlePhase,
            /// Display name.
            label: WtLabel,
            /// Teams in acting order.
            order: Vec<String>,
        },
        /// A team's turn in this phase began.
        TeamTurn {
            /// Team id.
            team: String,
        },
        /// A team passed.
        Passed {
            /// Team id.
            team: String,
        },
        /// At the start: skills the member's sheet grants (WT-CC-8) that the battle data
        /// has no battle values for, so the member can't use them in this battle.
        SkillsWithoutBattleData {
            /// Member.
            member: String,
            /// Skill ids.
            skills: Vec<String>,
        },
        /// WT-KO-3: mock-battle revival as a fresh Trion body (RULINGS 2026-12-01).
        Revived {
            /// Member.
            member: String,
            /// Trion restored.
            trion: i64,
            /// The damage-table conditions that ended with the old Trion body (its special
            /// states end too).
            #[serde(default)]
            conditions_ended: Vec<WtCondition>,
        },
        /// WT-INIT-1: a team's initiative check.
        InitiativeRolled {
            /// Team id.
            team: String,
            /// Who rolled (leader or substitute).
            roller: String,
            /// Faces (Command dice, then tactics dice).
            faces: Vec<u32>,
            /// Tactics dice spent.
            tactics_dice: u32,
            /// Achievement.
            achievement: i64,
        },
        /// RULINGS: tied teams re-roll Command among themselves.
        InitiativeReroll {
            /// Team id.
            team: String,
            /// Faces.
            faces: Vec<u32>,
            /// Achievement of the re-roll.
            achievement: i64,
        },
        /// A team's tactics-dice pool changed (WT-TD).
        TacticsDice {
            /// Team id.
            team: String,
            /// Change.
            delta: i64,
            /// Pool afterwards.
            pool: u32,
        },
        /// A skill was used.
        SkillUsed {
            /// Member.
            member: String,
            /// Skill.
            skill: String,
            /// Side.
            side: Option<WtSide>,
            /// Trion paid now: the skill's cost (a Trion Burst is paid on the hit, see `trion_lost`).
            trion_paid: i64,
        },
        /// WT-TRG-4/5: a side became active.
        SideActivated {
            /// Member.
            member: String,
            /// Side.
            side: WtSide,
            /// Active triggers on it.
            triggers: Vec<String>,
        },
        /// A move (WT-MOV).
        Moved {
            /// Member.
            member: String,
            /// Squares entered.
            path: Vec<WtSquare>,
            /// Movement spent.
            cost: i64,
            /// Movement available.
            movement: i64,
        },
        /// An attack was declared against these targets.
        AttackDeclared {
            /// Attacker.
            attacker: String,
            /// Skill.
            skill: String,
            /// Targets.
            targets: Vec<String>,
        },
        /// A reaction check (rolled before the hit check, WT-HIT-1).
        ReactionRolled {
            /// The attacked character.
            target: String,
            /// Reactor.
            reactor: String,
            /// Skill.
            skill: String,
            /// Faces.
            faces: Vec<u32>,
            /// Achievement.
            achievement: i64,
        },
        /// The defending team did not react.
        NoReaction {
            /// The attacked character.
            target: String,
        },
        /// A hit check (or an automatic hit: no faces).
        HitCheck {
            /// Attacker.
            attacker: String,
            /// Target.
            target: String,
            /// Special-attack LV added (dice and damage, WT-DMG-5).
            special_attack: i64,
            /// Faces (stat, tactics, special-attack dice).
            faces: Vec<u32>,
            /// Achievement (null for an automatic hit).
            achievement: Option<i64>,
            /// What it had to reach (null = automatic).
            against: Option<i64>,
            /// Hit.
            hit: bool,
        },
        /// Damage dealt (WT-DMG).
        Damage {
            /// Target.
            target: String,
            /// Total.
            total: i64,
            /// The d6.
            die: u32,
            /// Burst.
            burst: i64,
            /// Special-attack bonus.
            special_attack: i64,
            /// Skill modifier.
            modifier: i64,
            /// Trion afterwards.
            trion_after: i64,
        },
        /// A damage-table roll (WT-DT).
        DamageTable {
            /// Target.
            target: String,
            /// Tier used.
            tier: i64,
            /// The d6.
            roll: u32,
            /// Row applied.
            row: u32,
            /// Rolled row when shifted (WT-DT-3).
            shifted_from: Option<u32>,
            /// Effect.
            effect: WtCondition,
        },
        /// An abnormal state was gained (WT-COND).
        ConditionAdded {
            /// Member.
            member: String,
            /// Condition.
            condition: WtCondition,
            /// Display name.
            label: WtLabel,
        },
        /// A special state began or ended (WT-ST): `stealth`, `invisible`, `movement_reserved`, `floating`.
        State {
            /// Member.
            member: String,
            /// State.
            state: String,
            /// True = began, false = ended.
            on: bool,
            /// Why (rule ID).
            rule: String,
        },
        /// WT-OBJ-2: an object was destroyed.
        ObjectDestroyed {
            /// Square.
            square: WtSquare,
            /// Its former height.
            height: i64,
        },
        /// WT-MOV-6: forced movement.
        ForcedMove {
            /// Member.
            member: String,
            /// Destination.
            to: WtSquare,
            /// True if it ended off the battlefield (WT-OOB-1).
            out_of_bounds: bool,
        },
        /// WT-OOB-2/3: the re-entry check.
        Reentry {
            /// Member.
            member: String,
            /// Faces.
            faces: Vec<u32>,
            /// Achievement.
            achievement: i64,
            /// Difficulty.
            target: i64,
            /// Back on the battlefield at this square, if it succeeded.
            to: Option<WtSquare>,
        },
        /// WT-OOB-4: an ally brought an out-of-bounds character back.
        BroughtBack {
            /// The character brought back.
            member: String,
            /// The ally.
            by: String,
            /// Its battlefield square now.
            to: WtSquare,
        },
        /// Trion lost outside damage: a Trion Leak in the Feedback phase (WT-COND-2…4),
        /// or the attacker paying its Trion Burst on the hit (WT-DMG-4).
        TrionLost {
            /// Member.
            member: String,
            /// Amount.
            amount: i64,
            /// Trion afterwards.
            trion_after: i64,
            /// Why it was lost.
            cause: WtTrionLossCause,
        },
        /// WT-KO-4: emergency bailout.
        BailedOut {
            /// Member.
            member: String,
            /// Rule that caused it.
            rule: String,
        },
        /// WT-KO-2 / WT-BTL-2: incapacitated.
        Incapacitated {
            /// Member.
            member: String,
        },
        /// WT-KO-2: hit while incapacitated.
        Killed {
            /// Member.
            member: String,
        },
        /// WT-KO-5: who rolls initiative and manages the tactics dice now.
        LeaderSuccession {
            /// Team id.
            team: String,
            /// New manager (null: nobody left).
            manager: Option<String>,
        },
        /// WT-OP-8: the operator acted.
        OperatorActed {
            /// Team id.
            team: String,
            /// Operator command.
            skill: String,
        },
        /// WT-ECO-5: a position / trait skill was used.
        AbilityUsed {
            /// Member.
            member: String,
            /// Skill.
            ability: String,
        },
        /// WT-END: the battle ended.
        BattleEnded {
            /// Why (WT-END).
            reason: super::state::WtEndReason,
            /// Winning team id (null = draw).
            winner: Option<String>,
        },
    }
}
