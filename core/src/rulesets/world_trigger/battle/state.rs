//! The serializable battle state and its validation (a caller-supplied state
//! is untrusted JSON: every index, size and value is checked → `invalid_data`).

use super::data::{validate_skill, WtBattleOperatorSkill, WtBattleSkill};
use crate::engine::ids::Ids;
use crate::error::quote;
use crate::error::{Error, Result};
use crate::world_trigger::character::{derived_stats, WtLoadout, WtSide};

use crate::json::{FromJson, ToJson};
use crate::world_trigger::data::{WtDamageTableSide, WtDamageTier, WtTriggerKind};
use crate::world_trigger::types::{WtCondition, WtLabel, WtStat, WtStats};
use std::sync::Arc;

/// Format tag of the state.
pub const STATE_FORMAT: &str = "gunbai-wt-battle-1";
/// Largest map side.
pub const MAX_MAP_SIDE: u32 = 64;
/// Teams per battle.
pub const MIN_TEAMS: usize = 2;
/// Teams per battle.
pub const MAX_TEAMS: usize = 4;
/// Combatants per team (WT-MODE-3: 3 or 4; smaller teams are allowed).
pub const MAX_MEMBERS: usize = 4;
/// WT-ECO-1/2: members acting per phase.
pub const MEMBERS_PER_PHASE: usize = 3;
/// Most rounds of any battle (rank battles: 10, WT-END-2).
pub const MAX_ROUNDS: u32 = 100;
/// WT-TD-5: tactics-dice pool cap and per-check cap.
pub const MAX_TACTICS_DICE: u32 = 20;
/// How far off the map a character may be (squares).
pub const MAX_OFF_MAP: i64 = 16;
/// Largest height of a square.
pub const MAX_HEIGHT: i64 = 20;
/// Largest stat accepted in a state.
pub const MAX_STAT: i64 = 100;
/// Largest Trion value accepted in a state.
pub const MAX_TRION: i64 = 100_000;

/// WT-BTL: the battle type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtBattleType {
    /// 模擬戰: no bailout, temporary incapacitation and revival (WT-BTL-2, WT-KO-3).
    Mock,
    /// 排位戰: bailout; ends after 10 rounds or with one team left (WT-BTL-3, WT-END-2).
    Rank,
    /// 防衛戰: bailout; ends on the setup's conditions (WT-BTL-4, WT-END-3).
    Defense,
}

/// RULINGS `range_metric`: how range, areas and the Stealth distance count diagonals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtRangeMetric {
    /// A diagonal square is 1 away (default; matches the square areas).
    #[default]
    Chebyshev,
    /// Orthogonal steps.
    Manhattan,
}

/// A square (x to the right, y down). Squares off the map are out of bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSquare {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
}

/// The battlefield grid (WT-MAP, WT-MOV, WT-OBJ).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleMap {
    /// Columns, 1–64.
    #[schemars(range(min = 1, max = MAX_MAP_SIDE))]
    pub width: u32,
    /// Rows, 1–64.
    #[schemars(range(min = 1, max = MAX_MAP_SIDE))]
    pub height: u32,
    /// Height of each square, `height` rows of `width` values (0–20); empty = all 0.
    #[serde(default)]
    #[schemars(inner(inner(range(min = 0, max = MAX_HEIGHT))))]
    pub heights: Vec<Vec<i64>>,
    /// Squares inside the rectangle that are not battlefield (standing there is out of bounds).
    #[serde(default)]
    pub off_map: Vec<WtSquare>,
    /// WT-OBJ-1: the objects (buildings): battlefield squares of height ≥ 1 that an
    /// object-destruction skill removes (WT-OBJ-2), bringing them to height 0. `null`
    /// (the default): every square of height ≥ 1 is an object; a list makes other
    /// raised squares terrain that stays (a hill, a terrace). Destroyed objects leave it.
    #[serde(default)]
    pub objects: Option<Vec<WtSquare>>,
}

impl WtBattleMap {
    /// True if `s` is a battlefield square.
    pub fn on_map(&self, s: WtSquare) -> bool {
        s.x >= 0
            && s.y >= 0
            && s.x < i64::from(self.width)
            && s.y < i64::from(self.height)
            && !self.off_map.contains(&s)
    }

    /// Height of a square (0 off the map or without a height grid).
    pub fn h(&self, s: WtSquare) -> i64 {
        if s.x < 0 || s.y < 0 {
            return 0;
        }
        self.heights.get(s.y as usize).and_then(|r| r.get(s.x as usize)).copied().unwrap_or(0)
    }

    /// WT-OBJ-1: is there an object on `s`?
    pub fn is_object(&self, s: WtSquare) -> bool {
        self.on_map(s) && self.h(s) >= 1 && self.objects.as_ref().is_none_or(|o| o.contains(&s))
    }

    /// WT-OBJ-2: remove the object on `s` (its square drops to height 0).
    pub fn destroy_object(&mut self, s: WtSquare) {
        self.set_h(s, 0);
        if let Some(o) = self.objects.as_mut() {
            o.retain(|x| *x != s);
        }
    }

    /// Set a square's height (no-op off the grid or without a height grid).
    pub fn set_h(&mut self, s: WtSquare, v: i64) {
        if s.x < 0 || s.y < 0 {
            return;
        }
        if let Some(c) = self.heights.get_mut(s.y as usize).and_then(|r| r.get_mut(s.x as usize)) {
            *c = v;
        }
    }
}

/// The five phases (WT-RND-1), plus `ended`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtBattlePhase {
    /// 初始階段: roll initiative.
    Initiative,
    /// 戰術階段.
    Tactics,
    /// 移動階段 (team order reversed, WT-INIT-2).
    Movement,
    /// 攻擊階段.
    Attack,
    /// 反饋階段 (resolved automatically when the Attack phase ends).
    Feedback,
    /// The battle is over.
    Ended,
}

/// A combatant's standing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtMemberStatus {
    /// Fighting.
    Active,
    /// 無法戰斗 (WT-KO-2; mock battles: temporary, WT-KO-3).
    Incapacitated,
    /// 緊急脫離 (WT-KO-4).
    BailedOut,
    /// Hit while incapacitated without a bailout system (WT-KO-2).
    Dead,
}

/// Special states (WT-ST).
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSpecialStates {
    /// WT-ST-1 Stealth, with the side Bagworm sits on.
    #[serde(default)]
    pub stealth: Option<WtSide>,
    /// WT-ST-2 Invisible, with the side Chameleon sits on.
    #[serde(default)]
    pub invisible: Option<WtSide>,
    /// WT-ST-3 Movement-reserved, with the side Chameleon sits on.
    #[serde(default)]
    pub movement_reserved: Option<WtSide>,
    /// WT-ST-4 Floating.
    #[serde(default)]
    pub floating: bool,
}

/// What a member has used this round (WT-ECO, WT-TRG).
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtMemberUsage {
    /// Took its Tactics-phase slot.
    #[serde(default)]
    pub tactics: bool,
    /// Took its Movement-phase slot (also a reserved move made in the Attack phase).
    #[serde(default)]
    pub movement: bool,
    /// Took its Attack-phase slot.
    #[serde(default)]
    pub attack: bool,
    /// WT-TRG-4: the main side's one Attack-phase action is used.
    #[serde(default)]
    pub main_action: bool,
    /// WT-TRG-4: the sub side's one Attack-phase action is used.
    #[serde(default)]
    pub sub_action: bool,
    /// WT-TRG-4/5: triggers active on the main side (cleared at the end of the Attack phase).
    #[serde(default)]
    pub active_main: Vec<String>,
    /// WT-TRG-4/5: triggers active on the sub side.
    #[serde(default)]
    pub active_sub: Vec<String>,
    /// WT-ECO-5: skills (position / trait) used this round.
    #[serde(default)]
    pub abilities: Vec<String>,
    /// WT-OOB-2 (RULINGS): the re-entry check was tried this round.
    #[serde(default)]
    pub reentry_tried: bool,
}

/// A skill a member can use, with the side of its trigger.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtMemberSkill {
    /// Battle skill id.
    pub skill: String,
    /// The side its trigger sits on (absent for basic commands).
    #[serde(default)]
    pub side: Option<WtSide>,
}

/// A position or trait skill (WT-ECO-5).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtAbility {
    /// Skill id.
    pub id: String,
    /// Usable more than once per round.
    #[serde(default)]
    pub repeatable: bool,
}

/// One combatant.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleMember {
    /// Unique id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Team index.
    pub team: usize,
    /// Final stats.
    pub stats: WtStats,
    /// WT-DER-3: starting Trion (mock-battle revival restores it, RULINGS).
    pub starting_trion: i64,
    /// Current Trion (WT-DER-4).
    pub trion: i64,
    /// Equipped triggers.
    pub triggers: WtLoadout,
    /// Usable battle skills (each skill and side at most once; they never change during a battle).
    // Shared between copies of the state (`Arc`); the JSON is the plain list.
    #[serde(with = "shared")]
    #[schemars(with = "Vec<WtMemberSkill>")]
    pub skills: Arc<Vec<WtMemberSkill>>,
    /// Position and trait skills.
    #[serde(default)]
    pub abilities: Vec<WtAbility>,
    /// Square (off the map = out of bounds, WT-OOB-1).
    pub at: WtSquare,
    /// Standing.
    pub status: WtMemberStatus,
    /// Abnormal states held (WT-COND).
    #[serde(default)]
    pub conditions: Vec<WtCondition>,
    /// Has an emergency-bailout system (B-rank triggers); false = incapacitated at Trion ≤ 0 (WT-KO-2).
    pub bailout_system: bool,
    /// WT-DT-4: which damage tables apply.
    pub damage_table: WtDamageTableSide,
    /// Special states.
    #[serde(default)]
    pub states: WtSpecialStates,
    /// This round's usage.
    #[serde(default)]
    pub used: WtMemberUsage,
    /// Team index of the last attacker that hit it (for points).
    #[serde(default)]
    pub last_hit_by: Option<usize>,
}

/// A team.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleTeam {
    /// Unique id.
    pub id: String,
    /// Leader's member id (WT-CC-1).
    pub leader: String,
    /// Dedicated operator's name, if any (WT-MODE-3; otherwise the leader operates).
    #[serde(default)]
    pub operator: Option<String>,
    /// WT-TD: the tactics-dice pool (0–20).
    #[serde(default)]
    pub tactics_dice: u32,
    /// WT-OP-8: the operator action of this round is used.
    #[serde(default)]
    pub operator_used: bool,
    /// This round's initiative achievement.
    #[serde(default)]
    pub initiative: Option<i64>,
    /// RULINGS: enemies this team caused to bail out / be incapacitated.
    #[serde(default)]
    pub points: i64,
}

/// Battle values of an equipped trigger (from the rules pack).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleTrigger {
    /// Trigger id.
    pub id: String,
    /// Trigger, dedicated option or general option.
    pub kind: WtTriggerKind,
    /// Base trigger of a dedicated option.
    #[serde(default)]
    pub base: Option<String>,
    /// Hand-held (WT-COND-5/6).
    #[serde(default)]
    pub hand_held: bool,
}

/// The data the battle needs, copied into the state so it is self-contained.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleCatalog {
    /// Battle skills the members use.
    pub skills: Vec<WtBattleSkill>,
    /// Equipped triggers.
    pub triggers: Vec<WtBattleTrigger>,
    /// Operator commands.
    #[serde(default)]
    pub operator_skills: Vec<WtBattleOperatorSkill>,
    /// Damage tables (WT-DT-4).
    pub damage_tables: WtBattleDamageTables,
}

/// One damage-table tier (WT-DT-2), as copied from the rules pack.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleDamageTier {
    /// Least damage of one hit that uses this tier.
    pub min_damage: i64,
    /// Rows 1–6.
    pub rows: Vec<WtCondition>,
}

/// The three damage tables (WT-DT-4).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleDamageTables {
    /// Border members.
    pub border: Vec<WtBattleDamageTier>,
    /// Trion soldiers.
    pub trion_soldier: Vec<WtBattleDamageTier>,
    /// Serafiga soldiers.
    pub serafiga: Vec<WtBattleDamageTier>,
}

impl WtBattleDamageTables {
    /// One table's tiers.
    pub fn side(&self, side: WtDamageTableSide) -> &[WtBattleDamageTier] {
        match side {
            WtDamageTableSide::Border => &self.border,
            WtDamageTableSide::TrionSoldier => &self.trion_soldier,
            WtDamageTableSide::Serafiga => &self.serafiga,
        }
    }

    /// One table's tiers in the rules module's type.
    pub fn tiers(&self, side: WtDamageTableSide) -> Vec<WtDamageTier> {
        self.side(side)
            .iter()
            .map(|t| WtDamageTier { min_damage: t.min_damage, rows: t.rows.clone(), placeholder: false })
            .collect()
    }
}

/// A reaction chosen for one target of a pending attack.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtReactionRecord {
    /// The target.
    pub target: String,
    /// The reacting character, if any.
    #[serde(default)]
    pub reactor: Option<String>,
    /// The reaction skill, if any.
    #[serde(default)]
    pub skill: Option<String>,
    /// The reaction's achievement (the hit check's target), if any.
    #[serde(default)]
    pub achievement: Option<i64>,
}

/// An attack waiting for the defending side's reactions (WT-HIT-1).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtPendingAttack {
    /// The attacker.
    pub attacker: String,
    /// The attack skill.
    pub skill: String,
    /// Tactics dice added to each hit check (already paid).
    #[serde(default)]
    pub tactics_dice: u32,
    /// Trion Burst declared, paid and dealt on the first hit (WT-DMG-4).
    #[serde(default)]
    pub burst: i64,
    /// Forced-movement destination for a single target.
    #[serde(default)]
    pub push_to: Option<WtSquare>,
    /// Targets in resolution order.
    pub targets: Vec<String>,
    /// Reactions chosen so far (one per target, in order).
    #[serde(default)]
    pub reactions: Vec<WtReactionRecord>,
}

/// How a battle ended.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleOutcome {
    /// Why the battle ended (WT-END).
    pub reason: WtEndReason,
    /// The winning team's id, or null for a draw.
    #[serde(default)]
    pub winner: Option<String>,
}

/// Why a battle ended (WT-END).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtEndReason {
    /// The round limit was reached (WT-END-2: 10 rounds in a rank battle; `max_rounds`).
    RoundLimit,
    /// Only one team has members left (WT-END-1/2).
    OneTeamLeft,
    /// No team has members left.
    NoTeamLeft,
    /// A character named in `end_when_down` went down (WT-END-1, WT-END-3).
    CharacterDown,
}

/// The whole battle.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleState {
    /// Always `gunbai-wt-battle-1`.
    pub format: String,
    /// Battle type.
    pub battle_type: WtBattleType,
    /// Rule variants.
    pub variants: crate::world_trigger::types::WtVariants,
    /// Last round (rank: 10 at most).
    pub max_rounds: u32,
    /// Mock/defense: the battle ends when one of these members is out (WT-END-1/3).
    #[serde(default)]
    pub end_when_down: Vec<String>,
    /// The grid.
    pub map: WtBattleMap,
    /// Round, from 1.
    pub round: u32,
    /// Phase.
    pub phase: WtBattlePhase,
    /// Team indexes by initiative, highest first (empty before the first roll; in a later
    /// round's Initiative phase it still holds the previous round's order until the roll).
    #[serde(default)]
    pub initiative_order: Vec<usize>,
    /// Index (into this phase's team order) of the team acting now.
    #[serde(default)]
    pub turn: usize,
    /// Teams.
    pub teams: Vec<WtBattleTeam>,
    /// Combatants.
    pub members: Vec<WtBattleMember>,
    /// Data used (it never changes during a battle).
    // Shared between copies of the state (`Arc`); the JSON is the plain object.
    #[serde(with = "shared")]
    #[schemars(with = "WtBattleCatalog")]
    pub catalog: Arc<WtBattleCatalog>,
    /// An attack awaiting reactions.
    #[serde(default)]
    pub pending: Option<WtPendingAttack>,
    /// Set when the battle is over.
    #[serde(default)]
    pub outcome: Option<WtBattleOutcome>,
}

/// (De)serializes a part shared between copies of the state (`Arc`) as the plain value.
#[cfg(feature = "serde")]
mod shared {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<T: Serialize, S: Serializer>(c: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
        c.as_ref().serialize(s)
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<Arc<T>, D::Error> {
        T::deserialize(d).map(Arc::new)
    }
}

fn bad(path: impl Into<String>, msg: impl std::fmt::Display) -> Error {
    Error::invalid_data(path.into(), msg)
}

/// No id twice (the error names the second one's field). Type-erased, so the check is
/// compiled once however many lists use it (the npm entry's size budget).
fn distinct(ids: &mut dyn Iterator<Item = &str>, field: &dyn Fn(usize) -> String) -> Result<()> {
    Ids::DATA.unique(ids, field)
}

/// No id twice in `list` (the error names `path[k]` of the second one).
fn unique_in(path: &str, list: &[String]) -> Result<()> {
    distinct(&mut list.iter().map(String::as_str), &|k| format!("{path}[{k}]"))
}

/// Every id of `list` is one of `known`, each once (`path[k]`).
fn listed_in(path: &str, list: &[String], known: &[String]) -> Result<()> {
    for (k, id) in list.iter().enumerate() {
        Ids::DATA.resolves(&format!("{path}[{k}]"), id, known.iter().map(String::as_str))?;
    }
    unique_in(path, list)
}

impl WtBattleState {
    /// Index of a member by id.
    pub fn idx(&self, id: &str) -> Option<usize> {
        self.members.iter().position(|m| m.id == id)
    }

    /// A catalog skill.
    pub fn skill(&self, id: &str) -> Option<&WtBattleSkill> {
        self.catalog.skills.iter().find(|s| s.id == id)
    }

    /// A catalog trigger.
    pub fn trigger(&self, id: &str) -> Option<&WtBattleTrigger> {
        self.catalog.triggers.iter().find(|t| t.id == id)
    }

    /// Validate everything a caller could have tampered with.
    pub fn validate(&self) -> Result<()> {
        if self.format != STATE_FORMAT {
            return Err(bad("state.format", format_args!("must be {STATE_FORMAT}")));
        }
        let m = &self.map;
        if !(1..=MAX_MAP_SIDE).contains(&m.width) || !(1..=MAX_MAP_SIDE).contains(&m.height) {
            return Err(bad("state.map", "width and height must be 1-64"));
        }
        if !m.heights.is_empty() {
            if m.heights.len() != m.height as usize {
                return Err(bad("state.map.heights", "must have `height` rows"));
            }
            for (y, r) in m.heights.iter().enumerate() {
                if r.len() != m.width as usize {
                    return Err(bad(format!("state.map.heights[{y}]"), "must have `width` values"));
                }
                if r.iter().any(|h| !(0..=MAX_HEIGHT).contains(h)) {
                    return Err(bad(format!("state.map.heights[{y}]"), "heights must be 0-20"));
                }
            }
        }
        if m.off_map.len() > (MAX_MAP_SIDE * MAX_MAP_SIDE) as usize {
            return Err(bad("state.map.off_map", "too many squares"));
        }
        for (i, s) in m.off_map.iter().enumerate() {
            if s.x < 0 || s.y < 0 || s.x >= i64::from(m.width) || s.y >= i64::from(m.height) {
                return Err(bad(format!("state.map.off_map[{i}]"), "must be inside the rectangle"));
            }
        }
        if let Some(objects) = &m.objects {
            if objects.len() > (MAX_MAP_SIDE * MAX_MAP_SIDE) as usize {
                return Err(bad("state.map.objects", "too many squares"));
            }
            for (i, s) in objects.iter().enumerate() {
                if !m.on_map(*s) || m.h(*s) < 1 {
                    return Err(bad(
                        format!("state.map.objects[{i}]"),
                        "an object stands on a battlefield square of height 1 or more (WT-OBJ-1)",
                    ));
                }
                if objects[..i].contains(s) {
                    return Err(bad(format!("state.map.objects[{i}]"), "listed twice"));
                }
            }
        }
        if !(1..=MAX_ROUNDS).contains(&self.max_rounds)
            || (self.battle_type == WtBattleType::Rank && self.max_rounds > 10)
        {
            return Err(bad("state.max_rounds", "must be 1-100 (rank battles: 1-10, WT-END-2)"));
        }
        if self.round == 0 || self.round > self.max_rounds {
            return Err(bad("state.round", "must be 1..=max_rounds"));
        }
        let nt = self.teams.len();
        if !(MIN_TEAMS..=MAX_TEAMS).contains(&nt) {
            return Err(bad("state.teams", "2-4 teams"));
        }
        if self.members.len() > MAX_TEAMS * MAX_MEMBERS {
            return Err(bad("state.members", "at most 16 members"));
        }
        // Catalog.
        let c = &self.catalog;
        if c.skills.len() > super::data::MAX_BATTLE_SKILLS
            || c.triggers.len() > 200
            || c.operator_skills.len() > 100
        {
            return Err(bad("state.catalog", "too many entries"));
        }
        let mut v = Vec::new();
        for (i, s) in c.skills.iter().enumerate() {
            validate_skill(s, &format!("state.catalog.skills[{i}]"), &mut v);
        }
        if let Some(first) = v.first() {
            return Err(bad(first.path.clone(), &first.message));
        }
        distinct(&mut c.skills.iter().map(|s| s.id.as_str()), &|i| format!("state.catalog.skills[{i}].id"))?;
        for (i, t) in c.triggers.iter().enumerate() {
            Ids::DATA.data_id(&format!("state.catalog.triggers[{i}].id"), &t.id)?;
        }
        distinct(&mut c.triggers.iter().map(|t| t.id.as_str()), &|i| {
            format!("state.catalog.triggers[{i}].id")
        })?;
        for (i, o) in c.operator_skills.iter().enumerate() {
            Ids::DATA.data_id(&format!("state.catalog.operator_skills[{i}].id"), &o.id)?;
        }
        distinct(&mut c.operator_skills.iter().map(|o| o.id.as_str()), &|i| {
            format!("state.catalog.operator_skills[{i}].id")
        })?;
        for side in WtDamageTableSide::ALL {
            let tiers = c.damage_tables.side(side);
            if tiers.is_empty() || tiers.len() > 10 {
                return Err(bad("state.catalog.damage_tables", "1-10 tiers per table"));
            }
            for (k, t) in tiers.iter().enumerate() {
                if t.rows.len() != 6 || !(1..=1000).contains(&t.min_damage) {
                    return Err(bad("state.catalog.damage_tables", "each tier: 6 rows, min_damage 1-1000"));
                }
                // WT-DT-2: one tier per threshold, lowest first (as a battle setup stores them).
                if k > 0 && tiers[k - 1].min_damage >= t.min_damage {
                    return Err(bad(
                        format!("state.catalog.damage_tables.{}[{k}].min_damage", side.key()),
                        "tiers ascend by min_damage, each once (WT-DT-2)",
                    ));
                }
            }
        }
        // Member ids first: a team's leader is looked up by id.
        for (i, mb) in self.members.iter().enumerate() {
            Ids::DATA.name(&format!("state.members[{i}].id"), &mb.id)?;
        }
        distinct(&mut self.members.iter().map(|m| m.id.as_str()), &|i| format!("state.members[{i}].id"))?;
        distinct(&mut self.teams.iter().map(|t| t.id.as_str()), &|i| format!("state.teams[{i}].id"))?;
        // Teams.
        for (i, t) in self.teams.iter().enumerate() {
            let p = format!("state.teams[{i}]");
            Ids::DATA.name(&format!("{p}.id"), &t.id)?;
            if t.tactics_dice > MAX_TACTICS_DICE {
                return Err(bad(format!("{p}.tactics_dice"), "0-20 (WT-TD-5)"));
            }
            if t.initiative.is_some_and(|x| !(0..=100_000).contains(&x)) {
                return Err(bad(format!("{p}.initiative"), "out of range"));
            }
            if !(0..=1000).contains(&t.points) {
                return Err(bad(format!("{p}.points"), "out of range"));
            }
            if let Some(o) = &t.operator {
                Ids::DATA.name(&format!("{p}.operator"), o)?;
            }
            match self.idx(&t.leader) {
                Some(li) if self.members.get(li).is_some_and(|m| m.team == i) => {}
                _ => return Err(bad(format!("{p}.leader"), "must be a member of the team")),
            }
            let n = self.members.iter().filter(|m| m.team == i).count();
            if !(1..=MAX_MEMBERS).contains(&n) {
                return Err(bad(p.clone(), "a team has 1-4 members"));
            }
        }
        // Members.
        let (w, h) = (i64::from(m.width), i64::from(m.height));
        for (i, mb) in self.members.iter().enumerate() {
            let p = format!("state.members[{i}]");
            if mb.name.len() > 200 {
                return Err(bad(format!("{p}.name"), "at most 200 bytes"));
            }
            if mb.team >= nt {
                return Err(bad(format!("{p}.team"), "no such team"));
            }
            if WtStat::ALL.iter().any(|&s| !(0..=MAX_STAT).contains(&mb.stats.get(s))) {
                return Err(bad(format!("{p}.stats"), "each stat 0-100"));
            }
            if !(0..=MAX_TRION).contains(&mb.starting_trion) || !(-MAX_TRION..=MAX_TRION).contains(&mb.trion)
            {
                return Err(bad(format!("{p}.trion"), "out of range"));
            }
            self.member_invariants(mb, &p)?;
            if mb.triggers.main.len() > 4 || mb.triggers.sub.len() > 4 {
                return Err(bad(format!("{p}.triggers"), "4 slots per side (WT-CC-7)"));
            }
            for t in mb.triggers.main.iter().chain(mb.triggers.sub.iter()) {
                if self.trigger(t).is_none() {
                    return Err(bad(
                        format!("{p}.triggers"),
                        format_args!("{} is not in the catalog", quote(t)),
                    ));
                }
            }
            // WT-CC-7: a slot list holds a trigger once.
            unique_in(&format!("{p}.triggers.main"), &mb.triggers.main)?;
            unique_in(&format!("{p}.triggers.sub"), &mb.triggers.sub)?;
            if mb.skills.len() > 64 || mb.abilities.len() > 16 {
                return Err(bad(format!("{p}.skills"), "at most 64 skills and 16 abilities"));
            }
            for (k, s) in mb.skills.iter().enumerate() {
                if mb.skills.iter().take(k).any(|o| o.skill == s.skill && o.side == s.side) {
                    return Err(bad(format!("{p}.skills[{k}]"), "listed twice"));
                }
                let Some(sk) = self.skill(&s.skill) else {
                    return Err(bad(format!("{p}.skills[{k}]"), "not in the catalog"));
                };
                let ok = match (&sk.trigger, s.side) {
                    (None, None) => true,
                    (Some(t), Some(side)) => {
                        let slots = match side {
                            WtSide::Main => &mb.triggers.main,
                            WtSide::Sub => &mb.triggers.sub,
                        };
                        slots.contains(t) && sk.with.iter().all(|o| slots.contains(o))
                    }
                    _ => false,
                };
                if !ok {
                    return Err(bad(format!("{p}.skills[{k}]"), "its trigger is not equipped on that side"));
                }
            }
            for (k, a) in mb.abilities.iter().enumerate() {
                Ids::DATA.data_id(&format!("{p}.abilities[{k}].id"), &a.id)?;
            }
            distinct(&mut mb.abilities.iter().map(|a| a.id.as_str()), &|k| format!("{p}.abilities[{k}].id"))?;
            if mb.at.x < -MAX_OFF_MAP
                || mb.at.y < -MAX_OFF_MAP
                || mb.at.x >= w + MAX_OFF_MAP
                || mb.at.y >= h + MAX_OFF_MAP
            {
                return Err(bad(format!("{p}.at"), "more than 16 squares off the map"));
            }
            if mb.conditions.len() > WtCondition::ALL.len() {
                return Err(bad(format!("{p}.conditions"), "too many"));
            }
            for (k, c) in mb.conditions.iter().enumerate() {
                if mb.conditions[..k].contains(c) {
                    return Err(bad(format!("{p}.conditions[{k}]"), "listed twice"));
                }
            }
            let u = &mb.used;
            if u.active_main.len() > 8 || u.active_sub.len() > 8 || u.abilities.len() > 16 {
                return Err(bad(format!("{p}.used"), "too many entries"));
            }
            // WT-TRG-4/6: the active triggers of a side are equipped on it.
            listed_in(&format!("{p}.used.active_main"), &u.active_main, &mb.triggers.main)?;
            listed_in(&format!("{p}.used.active_sub"), &u.active_sub, &mb.triggers.sub)?;
            // WT-ECO-5: skills used are the member's; a non-repeatable one once a round.
            for (k, a) in u.abilities.iter().enumerate() {
                let f = format!("{p}.used.abilities[{k}]");
                Ids::DATA.resolves(&f, a, mb.abilities.iter().map(|x| x.id.as_str()))?;
                if u.abilities[..k].contains(a) && mb.abilities.iter().any(|x| &x.id == a && !x.repeatable) {
                    return Err(bad(f, "used twice this round (WT-ECO-5)"));
                }
            }
            if mb.last_hit_by.is_some_and(|t| t >= nt) {
                return Err(bad(format!("{p}.last_hit_by"), "no such team"));
            }
            if mb.status == WtMemberStatus::Active
                && m.on_map(mb.at)
                && self.members.iter().take(i).any(|o| o.at == mb.at && o.status == WtMemberStatus::Active)
            {
                return Err(bad(format!("{p}.at"), "two fighting characters on one square"));
            }
        }
        for (i, id) in self.end_when_down.iter().enumerate() {
            if self.idx(id).is_none() {
                return Err(bad(format!("state.end_when_down[{i}]"), "no such member"));
            }
        }
        if self.end_when_down.len() > 16 {
            return Err(bad("state.end_when_down", "at most 16"));
        }
        // Order and turn.
        if !self.initiative_order.is_empty() {
            let mut o = self.initiative_order.clone();
            crate::small_sort::sort(&mut o);
            if o != (0..nt).collect::<Vec<_>>() {
                return Err(bad("state.initiative_order", "must list every team index once"));
            }
        }
        self.order_invariants()?;
        if self.turn >= nt {
            return Err(bad("state.turn", "out of range"));
        }
        let in_turn_phase =
            matches!(self.phase, WtBattlePhase::Tactics | WtBattlePhase::Movement | WtBattlePhase::Attack);
        if in_turn_phase && self.initiative_order.is_empty() {
            return Err(bad("state.initiative_order", "required after the Initiative phase"));
        }
        if self.phase == WtBattlePhase::Feedback {
            return Err(bad("state.phase", "the Feedback phase is resolved inside an action, never stored"));
        }
        if (self.phase == WtBattlePhase::Ended) != self.outcome.is_some() {
            return Err(bad("state.outcome", "set exactly when the phase is `ended`"));
        }
        if let Some(o) = &self.outcome {
            if o.winner.as_ref().is_some_and(|w| !self.teams.iter().any(|t| &t.id == w)) {
                return Err(bad("state.outcome.winner", "no such team"));
            }
        }
        if let Some(p) = &self.pending {
            if self.phase != WtBattlePhase::Attack {
                return Err(bad("state.pending", "only in the Attack phase"));
            }
            if self.idx(&p.attacker).is_none() || self.skill(&p.skill).is_none() {
                return Err(bad("state.pending", "unknown attacker or skill"));
            }
            if p.targets.is_empty() || p.targets.len() > 16 || p.reactions.len() >= p.targets.len() {
                return Err(bad("state.pending.targets", "1-16 targets, fewer reactions than targets"));
            }
            if p.tactics_dice > MAX_TACTICS_DICE || !(0..=10).contains(&p.burst) {
                return Err(bad("state.pending", "tactics_dice 0-20, burst 0-10"));
            }
            for t in &p.targets {
                if self.idx(t).is_none() {
                    return Err(bad("state.pending.targets", "unknown member"));
                }
            }
            for (k, r) in p.reactions.iter().enumerate() {
                if p.targets.get(k) != Some(&r.target)
                    || r.reactor.as_deref().is_some_and(|x| self.idx(x).is_none())
                    || r.achievement.is_some_and(|a| !(0..=100_000).contains(&a))
                {
                    return Err(bad(format!("state.pending.reactions[{k}]"), "inconsistent"));
                }
            }
        }
        Ok(())
    }
}

/// Most a built character's stat can be (WT-CC-5, WT-CC-6, WT-CC-3): the creation cap
/// (9; All-rounder 8), + 1 from the master, + the bonuses of two traits; Command may
/// take the leader's + 1 as well (WT-CC-1).
pub const MAX_BUILD_STAT: i64 = 9 + 1 + 2 * crate::world_trigger::data::MAX_TRAIT_BONUS;

impl WtBattleState {
    /// The rules' own invariants of one member: stats a legal build reaches, the starting
    /// Trion they give, and a Trion pool only ever spent.
    fn member_invariants(&self, mb: &WtBattleMember, p: &str) -> Result<()> {
        for st in WtStat::ALL {
            let most = MAX_BUILD_STAT + i64::from(st == WtStat::Command);
            let v = mb.stats.get(st);
            if v > most {
                return Err(Error::invariant(
                    format!("{p}.stats.{}", st.key()),
                    "WT-CC-5",
                    format_args!(
                        "at most {most}: the creation cap 9, + 1 from the master (WT-CC-6), + {} from each of two traits (WT-CC-3){}; not {v}",
                        crate::world_trigger::data::MAX_TRAIT_BONUS,
                        if st == WtStat::Command { ", + 1 for the leader (WT-CC-1)" } else { "" }
                    ),
                ));
            }
        }
        // WT-DER-2 / WT-DER-3: starting Trion = Trion × 10 + 40 − 5 × filled trigger slots.
        let want = derived_stats(&mb.stats, mb.triggers.filled()).starting_trion;
        if mb.starting_trion != want {
            return Err(Error::invariant(
                format!("{p}.starting_trion"),
                "WT-DER-3",
                format_args!(
                    "must be {want}: Trion {} × 10 + 40 − 5 × {} filled slots, not {}",
                    mb.stats.trion,
                    mb.triggers.filled(),
                    mb.starting_trion
                ),
            ));
        }
        // WT-DER-4: the pool is only spent (damage, bursts, costs); a mock-battle revival
        // restores the starting value (WT-KO-3), never more.
        if mb.trion > mb.starting_trion {
            return Err(Error::invariant(
                format!("{p}.trion"),
                "WT-DER-4",
                format_args!("at most the starting Trion {}, not {}", mb.starting_trion, mb.trion),
            ));
        }
        // WT-KO-1: a character whose Trion was brought to 0 or below is out at the Feedback
        // phase, so none is still fighting when the next round's Initiative phase begins (a
        // member built with no Trion at all starts so, and goes out at the battle's start).
        if self.phase == WtBattlePhase::Initiative
            && mb.status == WtMemberStatus::Active
            && mb.trion <= 0
            && mb.trion < mb.starting_trion
        {
            return Err(Error::invariant(
                format!("{p}.status"),
                "WT-KO-1",
                format_args!(
                    "active at Trion {} in the Initiative phase: it went out at the Feedback phase",
                    mb.trion
                ),
            ));
        }
        Ok(())
    }

    /// WT-INIT-1 / WT-INIT-3: the initiative is rolled in each round's Initiative phase
    /// (none is recorded before it), and the teams act highest first (tied teams re-roll,
    /// so they may stand either way; a team that rolled none comes last).
    fn order_invariants(&self) -> Result<()> {
        if self.phase == WtBattlePhase::Initiative {
            if let Some(i) = self.teams.iter().position(|t| t.initiative.is_some()) {
                return Err(Error::invariant(
                    format!("state.teams[{i}].initiative"),
                    "WT-INIT-3",
                    "the initiative is rolled in the Initiative phase: none is recorded before the roll",
                ));
            }
        }
        let key = |t: usize| self.teams.get(t).and_then(|x| x.initiative);
        for k in 1..self.initiative_order.len() {
            let (a, b) = (self.initiative_order[k - 1], self.initiative_order[k]);
            if key(a) < key(b) {
                return Err(Error::invariant(
                    format!("state.initiative_order[{k}]"),
                    "WT-INIT-1",
                    format_args!(
                        "team {} (initiative {}) acts before team {} (initiative {}): highest first",
                        quote(&self.teams[b].id),
                        key(b).map_or("none".to_string(), |x| x.to_string()),
                        quote(&self.teams[a].id),
                        key(a).map_or("none".to_string(), |x| x.to_string()),
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// A display label for a phase.
pub fn phase_label(p: WtBattlePhase) -> WtLabel {
    let (ja, zh_hans, zh_hant, en) = match p {
        WtBattlePhase::Initiative => ("イニシアチブフェイズ", "初始阶段", "初始階段", "Initiative phase"),
        WtBattlePhase::Tactics => ("タクティクスフェイズ", "战术阶段", "戰術階段", "Tactics phase"),
        WtBattlePhase::Movement => ("ムーブフェイズ", "移动阶段", "移動階段", "Movement phase"),
        WtBattlePhase::Attack => ("アタックフェイズ", "攻击阶段", "攻擊階段", "Attack phase"),
        WtBattlePhase::Feedback => ("フィードバックフェイズ", "反馈阶段", "反饋階段", "Feedback phase"),
        WtBattlePhase::Ended => ("戦闘終了", "战斗结束", "戰斗結束", "Battle over"),
    };
    WtLabel::new(ja, zh_hans, zh_hant, en)
}
