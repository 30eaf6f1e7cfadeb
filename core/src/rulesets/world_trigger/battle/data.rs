//! Battle data: the battle values of trigger skills, basic commands and
//! operator commands (range, area, hit stat, damage, movement…). The seed
//! lacks all of them (62P+, 65P+), so the bundled file
//! `core/data/world_trigger/battle_sample.json` is illustrative; callers may
//! pass their own (`battle_data`), validated the same way.

use crate::error::quote;
use crate::error::Result;
use crate::json::{FromJson, ToJson};
use crate::world_trigger::data::{WtDataPack, WtSpecialAttack, WtValidationResult};
use crate::world_trigger::types::{violations_error, WtLabel, WtStat, WtStats, WtViolation};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::OnceLock;

/// Format tag of battle data.
pub const BATTLE_DATA_FORMAT: &str = "gunbai-wt-battle-data-1";
/// Most skills in battle data.
pub const MAX_BATTLE_SKILLS: usize = 500;
/// Largest range in squares.
pub const MAX_RANGE: u32 = 64;
/// Largest area side (odd).
pub const MAX_AREA: u32 = 9;

/// What a battle skill does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtBattleSkillKind {
    /// Attack phase: an attack (WT-HIT, WT-DMG).
    Attack,
    /// Reaction: a defense check with a defensive trigger, for the user or an ally in range (WT-HIT-2).
    Defend,
    /// Reaction: the target's dodge check (WT-HIT-2).
    Dodge,
    /// Movement phase: a move (WT-MOV).
    Move,
    /// Tactics phase: gain tactics dice (WT-TD-1).
    Tactics,
    /// Tactics phase: Stealth (WT-ST-1, Bagworm).
    Stealth,
    /// Tactics phase: Invisible and Movement-reserved (WT-ST-2/3, Chameleon).
    Invisible,
    /// Tactics phase: ends enemies' Stealth within range (WT-ST-1 item 5, Area Search).
    Search,
}

/// The battle values of one skill.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleSkill {
    /// Unique id (a trigger skill's id matches the rules pack's skill id when it has one).
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// The trigger it belongs to; absent for a basic command.
    #[serde(default)]
    pub trigger: Option<String>,
    /// Option triggers combined with it: they must sit on the same side and activate with it (WT-TRG-6/7).
    #[serde(default)]
    pub with: Vec<String>,
    /// What it does.
    pub kind: WtBattleSkillKind,
    /// The stat of its check (hit, defense or dodge check). Required for attack, defend and dodge.
    #[serde(default)]
    pub stat: Option<WtStat>,
    /// WT-RNG-1: range in squares (0 = own square). Default 0.
    #[serde(default)]
    pub range: u32,
    /// WT-RNG-3: side of the square area (odd, 1–9), for area attacks.
    #[serde(default)]
    #[schemars(range(min = 1, max = 9))]
    pub area: Option<u32>,
    /// Hit-check target when nobody reacts (RULINGS); absent → the hit succeeds automatically.
    #[serde(default)]
    pub target: Option<i64>,
    /// Added to base damage (WT-DMG-1 "the trigger skill used … can raise or lower it").
    #[serde(default)]
    pub damage_modifier: i64,
    /// Trion paid on use. Default 0.
    #[serde(default)]
    pub trion_cost: i64,
    /// WT-DMG-5/6: special attacks.
    #[serde(default)]
    pub special_attacks: Vec<WtSpecialAttack>,
    /// WT-OBJ-2: destroys objects in its area (or the target's square).
    #[serde(default)]
    pub object_destruction: bool,
    /// WT-MOV-6: on a hit, the attacker may push the target up to this many squares (0 = none).
    #[serde(default)]
    pub forced_move: u32,
    /// Movement added before leg loss (WT-COND-7), for moves.
    #[serde(default)]
    pub movement_bonus: i64,
    /// The mover ends Floating (WT-ST-4, Grasshopper).
    #[serde(default)]
    pub floating: bool,
    /// Tactics dice gained (WT-TD-1).
    #[serde(default)]
    pub tactics_dice_gain: u32,
    /// WT-ECO-4 / WT-TRG-2: "combined use" — not counted as an action: it uses
    /// neither the phase slot nor (in the Attack phase) its side's one action;
    /// it still activates its side (WT-TRG-4) like any trigger use.
    #[serde(default)]
    pub combined_use: bool,
    /// WT-KO-4: a basic Tactics-phase command marked 【緊急脫離后可以使用】
    /// "usable after emergency bailout": a bailed-out member may still use it
    /// (it takes the member's Tactics slot). Basic commands of kind `tactics`
    /// with no Trion cost only. Default false.
    #[serde(default)]
    pub after_bailout: bool,
    /// WT-KO-2: usable while incapacitated (Normal Move).
    #[serde(default)]
    pub while_incapacitated: bool,
    /// WT-CC-8: minimum stats.
    #[serde(default)]
    pub requirements: WtStats,
    /// True if the values are placeholders.
    #[serde(default)]
    pub placeholder: bool,
}

/// An operator command (WT-OP-8: once per round at any timing).
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleOperatorSkill {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// Tactics dice gained by the team.
    #[serde(default)]
    pub tactics_dice_gain: u32,
    /// True if the values are placeholders.
    #[serde(default)]
    pub placeholder: bool,
}

/// Meta information of battle data.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleDataMeta {
    /// Name.
    pub name: String,
    /// True for illustrative (not rulebook) data.
    #[serde(default)]
    pub illustrative: bool,
    /// Notes.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Battle data (format `gunbai-wt-battle-data-1`).
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleData {
    /// Always `gunbai-wt-battle-data-1`.
    pub format: String,
    /// Meta information.
    pub meta: WtBattleDataMeta,
    /// Skill battle values.
    pub skills: Vec<WtBattleSkill>,
    /// Operator commands.
    #[serde(default)]
    pub operator_skills: Vec<WtBattleOperatorSkill>,
}

use crate::engine::ids::is_data_id as valid_id;

/// Validate one skill (shared with state validation); problems go to `out`.
pub fn validate_skill(s: &WtBattleSkill, path: &str, out: &mut Vec<WtViolation>) {
    let mut v = |f: &str, m: &str| out.push(WtViolation::new(format!("{path}.{f}"), "WT-DATA", m));
    if !valid_id(&s.id) {
        v("id", "must be 1-64 of [a-z0-9_]");
    }
    if s.trigger.as_deref().is_some_and(|t| !valid_id(t)) {
        v("trigger", "must be 1-64 of [a-z0-9_]");
    }
    if s.with.len() > 4 || s.with.iter().any(|w| !valid_id(w)) {
        v("with", "at most 4 valid trigger ids");
    }
    if s.after_bailout && (s.trigger.is_some() || s.kind != WtBattleSkillKind::Tactics || s.trion_cost != 0) {
        v("after_bailout", "only basic tactics commands without a Trion cost (WT-KO-4)");
    }
    if s.trigger.is_none() && !s.with.is_empty() {
        v("with", "a basic command has no option triggers");
    }
    if matches!(s.kind, WtBattleSkillKind::Attack | WtBattleSkillKind::Defend | WtBattleSkillKind::Dodge)
        && s.stat.is_none()
    {
        v("stat", "attack, defend and dodge skills need a check stat");
    }
    if s.range > MAX_RANGE {
        v("range", "at most 64");
    }
    if let Some(a) = s.area {
        if a == 0 || a > MAX_AREA || a % 2 == 0 {
            v("area", "must be odd, 1-9");
        }
        if s.kind != WtBattleSkillKind::Attack {
            v("area", "only attacks have an area");
        }
    }
    if s.target.is_some_and(|t| !(0..=1000).contains(&t)) {
        v("target", "must be 0-1000");
    }
    if !(-100..=100).contains(&s.damage_modifier) {
        v("damage_modifier", "must be -100..=100");
    }
    if !(0..=100).contains(&s.trion_cost) {
        v("trion_cost", "must be 0..=100");
    }
    if s.special_attacks.len() > 3 || s.special_attacks.iter().any(|a| a.lv == 0 || a.lv > 20) {
        v("special_attacks", "at most 3, LV 1-20");
    }
    if s.forced_move > 10 {
        v("forced_move", "at most 10");
    }
    if !(-20..=20).contains(&s.movement_bonus) {
        v("movement_bonus", "must be -20..=20");
    }
    if s.tactics_dice_gain > 20 {
        v("tactics_dice_gain", "at most 20");
    }
    if s.requirements.total() > 1000
        || crate::world_trigger::types::WtStat::ALL.iter().any(|&x| s.requirements.get(x) < 0)
    {
        v("requirements", "must be 0..=1000 each");
    }
}

/// Validate battle data; every problem is listed.
pub fn validate_battle_data(d: &WtBattleData, root: &str) -> Vec<WtViolation> {
    let mut out = Vec::new();
    if d.format != BATTLE_DATA_FORMAT {
        out.push(WtViolation::new(
            format!("{root}.format"),
            "WT-DATA",
            format!("must be {BATTLE_DATA_FORMAT}"),
        ));
    }
    if d.skills.len() > MAX_BATTLE_SKILLS || d.operator_skills.len() > 100 {
        out.push(WtViolation::new(
            format!("{root}.skills"),
            "WT-DATA",
            "at most 500 skills and 100 operator skills",
        ));
        return out;
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, s) in d.skills.iter().enumerate() {
        let p = format!("{root}.skills[{i}]");
        if !seen.insert(s.id.as_str()) {
            out.push(WtViolation::new(format!("{p}.id"), "WT-DATA", "duplicate id"));
        }
        validate_skill(s, &p, &mut out);
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, s) in d.operator_skills.iter().enumerate() {
        let p = format!("{root}.operator_skills[{i}]");
        if !valid_id(&s.id) || !seen.insert(s.id.as_str()) {
            out.push(WtViolation::new(format!("{p}.id"), "WT-DATA", "must be a unique id of [a-z0-9_]"));
        }
        if s.tactics_dice_gain > 20 {
            out.push(WtViolation::new(format!("{p}.tactics_dice_gain"), "WT-DATA", "at most 20"));
        }
    }
    out
}

/// Battle data against the rules pack it is used with: every skill's `trigger` and
/// every option trigger in `with` is one of the pack's triggers (WT-CC-7).
pub fn validate_against_pack(d: &WtBattleData, pack: &WtDataPack, root: &str) -> Vec<WtViolation> {
    let mut out = Vec::new();
    for (i, s) in d.skills.iter().enumerate() {
        if let Some(t) = s.trigger.as_deref().filter(|t| pack.trigger(t).is_none()) {
            out.push(WtViolation::new(
                format!("{root}.skills[{i}].trigger"),
                "WT-CC-7",
                format!("{} is not a trigger of the rules pack", quote(t)),
            ));
        }
        for (j, w) in s.with.iter().enumerate() {
            if pack.trigger(w).is_none() {
                out.push(WtViolation::new(
                    format!("{root}.skills[{i}].with[{j}]"),
                    "WT-CC-7",
                    format!("{} is not a trigger of the rules pack", quote(w)),
                ));
            }
        }
    }
    out
}

/// Arguments of `world_trigger.battle_sample_data`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleSampleDataArgs {}

/// `world_trigger.battle_sample_data` — the bundled battle data (illustrative): the
/// battle values `battle_new` uses when no `battle_data` is given.
pub fn battle_sample_data(_: &WtBattleSampleDataArgs) -> Result<WtBattleData> {
    Ok(sample_battle_data()?.clone())
}

/// Arguments of `world_trigger.validate_battle_data`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtValidateBattleDataArgs {
    /// Battle data (format `gunbai-wt-battle-data-1`) to check.
    pub battle_data: Value,
    /// The rules pack it will be used with; default the bundled sample pack.
    #[serde(default)]
    pub data: Option<Value>,
}

/// `world_trigger.validate_battle_data` — check battle data (alone and against the
/// rules pack) and list every problem, as `validate_data` does for a pack.
pub fn validate_battle_data_op(args: &WtValidateBattleDataArgs) -> Result<WtValidationResult> {
    let pack = crate::world_trigger::data::load_pack(args.data.as_ref())?;
    let violations = match crate::ops::parse_data::<WtBattleData>("battle_data", args.battle_data.clone()) {
        Err(e) => {
            vec![WtViolation::new(e.0.field.unwrap_or_else(|| "battle_data".into()), "WT-DATA", e.0.message)]
        }
        Ok(d) => {
            let mut v = validate_battle_data(&d, "battle_data");
            v.extend(validate_against_pack(&d, &pack, "battle_data"));
            v
        }
    };
    Ok(WtValidationResult::of(violations))
}

/// The bundled illustrative battle data.
pub fn sample_battle_data() -> Result<&'static WtBattleData> {
    static DATA: OnceLock<std::result::Result<WtBattleData, crate::Error>> = OnceLock::new();
    DATA.get_or_init(|| {
        let v: Value =
            serde_json::from_str(include_str!("../../../../data/world_trigger/battle_sample.json"))
                .map_err(|e| crate::Error::invalid_data("battle_data", e.to_string()))?;
        let d: WtBattleData = crate::ops::parse_data("battle_data", v)?;
        let bad = validate_battle_data(&d, "battle_data");
        if bad.is_empty() {
            Ok(d)
        } else {
            Err(violations_error("battle_data", &bad))
        }
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The caller's battle data (validated) or the bundled sample.
pub fn load_battle_data(v: Option<&Value>) -> Result<Cow<'static, WtBattleData>> {
    match v {
        None => Ok(Cow::Borrowed(sample_battle_data()?)),
        Some(v) => {
            let d: WtBattleData = crate::ops::parse_data("battle_data", v.clone())?;
            let bad = validate_battle_data(&d, "battle_data");
            if bad.is_empty() {
                Ok(Cow::Owned(d))
            } else {
                Err(violations_error("battle_data", &bad))
            }
        }
    }
}
