//! Round state, actions, events and results (all serializable; the state is
//! what callers keep between calls).

use crate::dice::Roll;
use crate::fap_map::catalog::{FmCost, FmNames};
use crate::fap_map::checks::{FmBlockContestResult, FmEvasionCheckResult, FmJumpEvasionResult, FmPoolTraits};
use crate::json::{FromJson, ToJson};
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
/// Largest hit points and attack damage (the amounts are the caller's: the seed leaves them to its game).
pub const MAX_HP: i64 = 1_000_000_000;

// ---------------------------------------------------------------- types

/// One combatant at the start of a battle.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmCombatantInit {
    /// Unique id (1..=200 characters).
    pub id: String,
    /// 反応力 Reaction, 0..=1000: FAP and the action order.
    #[schemars(range(min = 0, max = 1000))]
    pub reaction: i64,
    /// 魔力 Magic power, 0..=1000: MAP.
    #[schemars(range(min = 0, max = 1000))]
    pub magic: i64,
    /// 敏捷力 Agility, 0..=1000: breaks order ties.
    #[schemars(range(min = 0, max = 1000))]
    pub agility: i64,
    /// Trait effects on the pools (see `fap_map.pools`).
    #[serde(default)]
    pub traits: Option<FmPoolTraits>,
    /// Current hit points, 0..=10^9 (optional: the seed leaves HP and damage to its game).
    /// Attacks that carry `damage` lower it; a combatant at 0 or less is down. Default: not tracked.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1000000000))]
    pub hp: Option<i64>,
    /// 回避 Evasion, -1000..=1000, for the evasion checks of Evade and Jump evasion
    /// (FM-DEF-2). Default 0.
    #[serde(default)]
    pub evasion: Option<i64>,
    /// The side the combatant fights for (1..=200 characters); default: its own id. With
    /// HP tracked, the fight ends when every side but one is down (`outcome`).
    #[serde(default)]
    pub side: Option<String>,
}

/// Arguments of `fap_map.round_new`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FmPhase {
    /// FM-DEF-4: characters declare their actions.
    Declaration,
    /// FM-DEF-3: declared actions are resolved in action order.
    Resolution,
}

/// Status of a declared action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// FM-ACT-7: the combatant whose movement this Move follows, named at declaration
    /// (only for actions the catalogue marks `can_follow`; not oneself). The move then
    /// waits for that combatant's own move of the same kind and is resolved with
    /// `follow` right after it, out of order; if that combatant has no such move left
    /// this round, it resolves in its own place in the order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow: Option<String>,
    /// The combatants an attack is aimed at (one, or every one in an area), for actions
    /// the catalogue marks `attack`; while it is resolved they may answer it with Evade or
    /// Jump evasion (RULINGS 2026-12-05). Default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// The one combatant a single-target attack is aimed at: the same as `targets: [target]`
    /// (not both). Input only: the stored declaration lists it in `targets`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The damage the attack deals to each target, 1..=10^9, given by the attacker or the
    /// GM (the seed leaves damage to its game; attacks with targets only). The targets then
    /// answer it one by one (stage `reaction`: `use` Evade or Jump evasion, or `take_hit`)
    /// before anything else resolves. Default none (no damage is tracked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000000000))]
    pub damage: Option<i64>,
}

/// A declaration held in the state.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmReadied {
    /// The paired action, fired by `trigger`.
    pub paired: FmDeclaration,
    /// The declared situation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
}

/// One combatant in the round state.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// FM-ACT-9: the action this combatant last resolved this round (resolved, followed
    /// or triggered), to tell back-to-back jumps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_action: Option<String>,
    /// Fallen prone (転倒): after a failed agility check following Jump evasion (FM-ACT-16,
    /// RULINGS 2026-12-05); Regain footing (FM-ACT-10) ends it. Default false.
    #[serde(default)]
    pub prone: bool,
    /// FM-AP-2: the pools were set by special traits (`round_new` was given `traits`), so
    /// they need not equal Reaction and Magic power. Default false (written only when true).
    #[serde(default, skip_serializing_if = "is_false")]
    pub pools_from_traits: bool,
    /// Current hit points, when tracked (`round_new`'s `hp`): lowered by the damage of
    /// attacks (FM-DEF-2, FM-ACT-16); at 0 or less the combatant is down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i64>,
    /// 回避 Evasion for the evasion check (FM-DEF-2). Default 0 (written only when not 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub evasion: i64,
    /// The combatant's side; absent: its own id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

impl FmCombatant {
    /// The side it fights for: `side`, else its id.
    pub fn side(&self) -> &str {
        self.side.as_deref().unwrap_or(&self.id)
    }
    /// Down: HP tracked and at 0 or less.
    pub fn down(&self) -> bool {
        self.hp.is_some_and(|h| h <= 0)
    }
}

/// The action just resolved that declared blocks may stop (FM-ACT-8, FM-ACT-12).
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// FM-ACT-7: the move just resolved in the order (or triggered), which declared
    /// followers may `follow`; cleared by the next resolve, skip or trigger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_move: Option<FmLastMove>,
    /// Grapples in force, each a pair of combatant ids (FM-ACT-12, RULINGS 2026-12-05: set
    /// by `set_grapple`, after a grapple action or by the GM; ended by a successful Shake Off,
    /// also with `set_grapple`). Default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grapples: Vec<[String; 2]>,
    /// The attack being resolved (the last action resolved, if it is an attack with
    /// targets): its targets may Evade or Jump-evade it (RULINGS 2026-12-05). Cleared by
    /// the next resolve, skip or trigger and at the round's end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<FmAttackResolving>,
}

/// An attack being resolved (RULINGS 2026-12-05: Evade and Jump evasion answer it).
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmAttackResolving {
    /// The attacker.
    pub actor: String,
    /// The attack action.
    pub action: String,
    /// Its targets.
    pub targets: Vec<String>,
    /// The damage it deals to each target (the declaration's `damage`); while some target
    /// has not answered it, nothing else resolves (FM-DEF-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<i64>,
    /// The targets that have answered it (Evade, Jump evasion or `take_hit`), once each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answered: Vec<String>,
}

impl FmAttackResolving {
    /// The targets still to answer an attack with damage, in their listed order (none
    /// for an attack without damage: answering it is optional).
    pub fn waiting(&self) -> impl Iterator<Item = &String> {
        self.targets.iter().filter(move |t| self.damage.is_some() && !self.answered.contains(t))
    }
}

/// FM-ACT-7: a move that followers may join.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmLastMove {
    /// Who moved.
    pub actor: String,
    /// The action (`move`).
    pub action: String,
}

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    /// One action for `round_act`.
    #[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum FmRoundAction {
        /// FM-DEF-4: declare one action (declaration phase).
        Declare {
            /// Who declares.
            #[serde(alias = "combatant")]
            actor: String,
            /// The action.
            declaration: FmDeclaration,
        },
        /// Drop a carried readied action (FM-ACT-19) and carried sustained actions (FM-ACT-18) (declaration phase).
        Release {
            /// Who.
            #[serde(alias = "combatant")]
            actor: String,
        },
        /// End the declaration phase and start resolving (FM-DEF-4 → FM-DEF-3).
        EndDeclarations {},
        /// FM-DEF-1: the character first in the action order resolves its next declared action and pays for it.
        Resolve {
            /// Who (must be first in the order).
            #[serde(alias = "combatant")]
            actor: String,
        },
        /// The character first in the order gives up its next declared action (no cost).
        Skip {
            /// Who (must be first in the order).
            #[serde(alias = "combatant")]
            actor: String,
        },
        /// FM-LIM-2: use an action that needs no declaration (`evade`, `jump_evasion`, `speech`).
        Use {
            /// Who.
            #[serde(alias = "combatant")]
            actor: String,
            /// The action id.
            action: String,
            /// Jump evasion only: its agility check (FM-ACT-16) failed, so the character
            /// falls prone (RULINGS 2026-12-05). Default false.
            #[serde(default)]
            agility_failed: bool,
            /// Evade and Jump evasion: the target value the evasion check must exceed,
            /// -1000..=10000 (FM-DEF-2; how it is set is in the missing Chapter 2). Given, the
            /// check is rolled (2d6, with the combatant's `evasion`); required against an
            /// attack with `damage`. Default none (the check is the caller's).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            target_value: Option<i64>,
            /// Jump evasion: the jump carried the character out of the attack's area, so a
            /// successful check takes no damage (FM-ACT-16). Default false.
            #[serde(default, skip_serializing_if = "is_false")]
            left_area: bool,
            /// Jump evasion: 成功度 degree of success, 0..=1000, for a success that stays in
            /// the area (FM-ACT-16); default: the check's margin (total − target value).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            degree: Option<i64>,
        },
        /// The target of the attack being resolved does not answer it: the attack hits and
        /// its `damage` (if any) is taken in full (the attack's own rule, FM-ACT-2…6).
        TakeHit {
            /// The target.
            #[serde(alias = "combatant")]
            actor: String,
        },
        /// FM-ACT-12 (RULINGS 2026-12-05): record (`grappling: true`, after a grapple action
        /// succeeds, or by the GM) or end (`false`, a successful Shake Off, FM-ACT-13) a grapple
        /// between two combatants. Any phase.
        SetGrapple {
            /// One party.
            #[serde(alias = "combatant")]
            actor: String,
            /// The other party.
            target: String,
            /// In force (true) or ended (false).
            grappling: bool,
        },
        /// FM-ACT-8 / FM-ACT-12: a declared block against the move or attack just resolved.
        Block {
            /// The blocker.
            #[serde(alias = "combatant")]
            actor: String,
            /// FAP the blocker spends, tenths (≥ 10).
            fap_tenths: i64,
            /// FAP the blocked character spends to resist, tenths (default 0).
            #[serde(default)]
            target_fap_tenths: i64,
            /// 相対T値 relative T value, tenths (default 0).
            #[serde(default)]
            relative_t_tenths: i64,
        },
        /// FM-ACT-7: resolve one's declared following Move now, in step with the move its
        /// target has just made (out of order). The follower's move is then the one open to
        /// blocks (block the target's move first).
        Follow {
            /// The follower.
            #[serde(alias = "combatant")]
            actor: String,
        },
        /// FM-ACT-19: the readied situation occurred: resolve the paired action now, out of order.
        Trigger {
            /// Who.
            #[serde(alias = "combatant")]
            actor: String,
        },
        /// End the round: refill pools (FM-AP-5), carry sustained and readied actions over.
        EndRound {},
    }
}

impl FmRoundAction {
    /// Who takes the action (`actor`); None for the round's own steps
    /// (`end_declarations`, `end_round`).
    pub fn actor(&self) -> Option<&str> {
        use FmRoundAction as A;
        match self {
            A::Declare { actor: combatant, .. }
            | A::Release { actor: combatant }
            | A::Resolve { actor: combatant }
            | A::Skip { actor: combatant }
            | A::Use { actor: combatant, .. }
            | A::SetGrapple { actor: combatant, .. }
            | A::Block { actor: combatant, .. }
            | A::Follow { actor: combatant }
            | A::Trigger { actor: combatant }
            | A::TakeHit { actor: combatant } => Some(combatant),
            A::EndDeclarations {} | A::EndRound {} => None,
        }
    }
}

crate::legal_shapes!(
    /// Arguments of `fap_map.round_legal_actions`.
    FmRoundStateArgs,
    /// Result of `fap_map.round_legal_actions`.
    FmLegalActionsResult,
    "FmRoundState",
    /// Every legal action now, with its cost.
    actions: FmLegalAction,
    viewer: "a combatant's id.",
    data: Value
);

crate::act_shapes!(
    /// Arguments of `fap_map.round_act`.
    ///
    /// `rolls`: Scripted d6s: only Evade and Jump evasion with a `target_value` roll (the
    /// evasion check's two d6, FM-DEF-2).
    FmRoundActArgs,
    "FmRoundState",
    FmRoundAction, data: serde_json::Value
);

/// One entry of the action order.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// Who acted in an event, with what, and the points they spent and have left.
#[derive(Debug, Clone, PartialEq, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmActed {
    /// Who acted.
    pub combatant: String,
    /// The action id, if the event names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The action's labels (ja, en, zh_hans, zh_hant), when the event names an action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<FmNames>,
    /// FAP spent by `combatant`, tenths.
    pub fap_spent_tenths: i64,
    /// MAP spent by `combatant`, tenths.
    pub map_spent_tenths: i64,
    /// FAP `combatant` has left, tenths (and as a decimal in `fap_left`).
    pub fap_left_tenths: i64,
    /// FAP left as a decimal number.
    pub fap_left: f64,
    /// MAP `combatant` has left, tenths.
    pub map_left_tenths: i64,
    /// MAP left as a decimal number.
    pub map_left: f64,
    /// `combatant`'s hit points after the event, when tracked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i64>,
}

/// What answering an attack did (Evade, Jump evasion, a reaction used or triggered while
/// an attack is resolved against the combatant): all absent when no attack was answered.
#[derive(Debug, Clone, Default, PartialEq, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmAnswered {
    /// The attacker answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Evade / Jump evasion with a target value: the evasion check (FM-DEF-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evasion: Option<FmEvasionCheckResult>,
    /// Jump evasion against an attack with damage: the damage reduction (FM-ACT-16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump_evasion: Option<FmJumpEvasionResult>,
    /// The attack's damage before any reduction (an attack with damage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<i64>,
    /// The damage `combatant` took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_taken: Option<i64>,
    /// Jump evasion: `combatant` fell prone (failed agility check, FM-ACT-16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prone: Option<bool>,
}

/// What happened in a round, one kind per variant (an operation reports each with its
/// `rule` and `text`).
#[derive(Debug, Clone, PartialEq, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum FmEvent {
    /// FM-DEF-4: a battle started.
    Started,
    /// An action was declared (nothing is paid yet: FM-AP-4).
    Declared {
        /// Who declared what.
        #[serde(flatten)]
        by: FmActed,
    },
    /// A carried readied/sustained action was dropped.
    Released {
        /// Who dropped it.
        #[serde(flatten)]
        by: FmActed,
    },
    /// FM-DEF-3: declarations ended.
    DeclarationsEnded,
    /// A declared action was resolved and paid.
    Resolved {
        /// Who resolved what, and paid.
        #[serde(flatten)]
        by: FmActed,
        /// FM-ACT-9: for actions the catalogue marks `consecutive_no_agility_penalty`
        /// (Jump): true when the character's previous resolved action this round was
        /// the same action (jump→jump), so this one takes no agility penalty.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        consecutive: Option<bool>,
    },
    /// FM-DEF-3: a declared action was given up.
    Skipped {
        /// Who gave up what.
        #[serde(flatten)]
        by: FmActed,
    },
    /// An undeclared action was used.
    Used {
        /// Who used what, and paid.
        #[serde(flatten)]
        by: FmActed,
        /// The attack it answered, if any.
        #[serde(flatten)]
        answer: FmAnswered,
    },
    /// A block contest.
    Blocked {
        /// Who blocked, and paid.
        #[serde(flatten)]
        by: FmActed,
        /// The contest.
        block: FmBlockContestResult,
        /// The blocked character.
        target: String,
        /// FAP the blocked character spent, tenths.
        target_fap_spent_tenths: i64,
    },
    /// FM-ACT-19: a readied action's paired action was resolved.
    Triggered {
        /// Whose readied action, and what it paid.
        #[serde(flatten)]
        by: FmActed,
        /// FM-ACT-9, as for `resolved`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        consecutive: Option<bool>,
        /// The attack a triggered reaction answered, if any.
        #[serde(flatten)]
        answer: FmAnswered,
    },
    /// FM-ACT-7: a following Move was resolved in step with its target's move.
    Followed {
        /// Who followed, and paid.
        #[serde(flatten)]
        by: FmActed,
        /// FM-ACT-9, as for `resolved`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        consecutive: Option<bool>,
        /// The combatant followed.
        target: String,
    },
    /// FM-ACT-12 / FM-ACT-13: a grapple was recorded or ended (`set_grapple`).
    GrappleChanged {
        /// Who grapples (or let go).
        #[serde(flatten)]
        by: FmActed,
        /// The other combatant.
        target: String,
    },
    /// The target of an attack did not answer it and was hit (`take_hit`).
    Hit {
        /// Who was hit (`action`: the attack).
        #[serde(flatten)]
        by: FmActed,
        /// The attacker.
        target: String,
        /// The attack's damage, if it has any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage: Option<i64>,
        /// The damage taken (the attack's damage).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage_taken: Option<i64>,
    },
    /// FM-AP-5: a round ended; a new one began with full pools.
    RoundEnded,
}

impl FmEvent {
    /// Who acted, for every event about a combatant.
    pub(crate) fn by_mut(&mut self) -> Option<&mut FmActed> {
        match self {
            Self::Started | Self::DeclarationsEnded | Self::RoundEnded => None,
            Self::Declared { by }
            | Self::Released { by }
            | Self::Resolved { by, .. }
            | Self::Skipped { by }
            | Self::Used { by, .. }
            | Self::Blocked { by, .. }
            | Self::Triggered { by, .. }
            | Self::Followed { by, .. }
            | Self::GrappleChanged { by, .. }
            | Self::Hit { by, .. } => Some(by),
        }
    }
}

/// One event of a `round_new` / `round_act` call: what happened, with the rule (a
/// RULES.md ID) that produced it and one sentence in the four display languages.
pub type FmLoggedEvent = crate::kernel::label::Logged<FmEvent>;

/// How a fight with HP ended: every side but one is down (the handle's `outcome()`).
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmOutcome {
    /// The side left standing; null when nobody stands.
    pub side: Option<String>,
    /// The same as `side` (the winner).
    pub winner: Option<String>,
    /// The combatants down (HP 0 or less), in the state's order.
    pub down: Vec<String>,
    /// FM-DEF-1: the resolution whose damage ended the fight (the seed leaves the end of a
    /// fight, like damage and HP, to its game).
    pub rule: String,
    /// The round it ended in.
    pub round: u32,
}

/// Result of `fap_map.round_new` and `fap_map.round_act`.
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmRoundResult {
    /// The new state.
    pub state: FmRoundState,
    /// What happened, in order, each with its `rule` and a `text` sentence.
    pub events: Vec<FmLoggedEvent>,
    /// Every die rolled: the evasion checks of Evade and Jump evasion (FM-DEF-2).
    pub rolls: Vec<Roll>,
}

/// A legal action with its cost.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
