//! World Trigger data packs: the rulebook data the seed leaves out (position
//! base stats and skills, traits, masters, triggers and their skills, damage
//! tables, profile tables), as validated JSON.
//!
//! Format `gunbai-wt-pack/1`; its JSON Schema is `core/data/world_trigger/pack.schema.json`
//! (generated from [`WtDataPack`]; a test keeps it in sync). The bundled
//! sample pack (`core/data/world_trigger/sample_pack.json`) is labelled
//! illustrative in its `meta` and holds only facts from the seed; every
//! other value in it is a placeholder and says so (`placeholder: true`).
//!
//! Validation ([`validate_pack`]) reports every problem, each with a path and
//! the rule ID it protects.

use super::types::{
    violations_error, WtCondition, WtLabel, WtOperatorStat, WtOperatorStats, WtPosition, WtStat, WtStats,
    WtViolation,
};
use crate::error::quote;
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The only pack format this build reads.
pub const PACK_FORMAT: &str = "gunbai-wt-pack/1";
/// Most entries in any one list of a pack.
pub const MAX_ENTRIES: usize = 1000;
/// Longest string in a pack, in characters.
pub const MAX_TEXT: usize = 4000;
/// Largest stat value, bonus or requirement in a pack.
pub const MAX_STAT_VALUE: i64 = 99;
/// Largest bonus one trait gives one stat (WT-CC-5: trait bonuses come after the
/// creation cap). The trait table is missing from the source: this engine bound keeps a
/// built character's stats, and so a saved battle's, within creation cap + master +
/// leader + two traits (WT-CC-3).
pub const MAX_TRAIT_BONUS: i64 = 9;
/// The damage-table die (RULINGS: 1d6).
pub const DAMAGE_TABLE_ROWS: usize = 6;

const SAMPLE_JSON: &str = include_str!("../../../data/world_trigger/sample_pack.json");

/// A World Trigger data pack.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtDataPack {
    /// Format tag; must be `gunbai-wt-pack/1`.
    pub format: String,
    /// Who made the pack and whether it is illustrative.
    pub meta: WtPackMeta,
    /// WT-CC-2: one entry per position (all five).
    pub positions: Vec<WtPositionData>,
    /// WT-CC-3: trait skills (L or S).
    #[serde(default)]
    pub traits: Vec<WtTraitData>,
    /// WT-CC-6: combatant masters, each giving +1 to one stat.
    #[serde(default)]
    pub masters: Vec<WtMasterData>,
    /// WT-OP-5: operator masters, each giving +1 to one operator stat.
    #[serde(default)]
    pub operator_masters: Vec<WtOperatorMasterData>,
    /// WT-CC-7: triggers and option triggers.
    pub triggers: Vec<WtTriggerData>,
    /// WT-CC-8: basic commands, acquired automatically when their stat requirements are met.
    #[serde(default)]
    pub basic_commands: Vec<WtSkillData>,
    /// WT-OP-6: operator skills, acquired when their stat requirements are met.
    #[serde(default)]
    pub operator_skills: Vec<WtOperatorSkillData>,
    /// WT-DT-4: damage tables per side.
    pub damage_tables: WtDamageTables,
    /// WT-CC-9: D66 profile tables.
    #[serde(default)]
    pub profile_tables: Vec<WtProfileTable>,
}

/// Pack metadata.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtPackMeta {
    /// Pack name.
    pub name: String,
    /// Pack version (free text).
    #[serde(default)]
    pub version: String,
    /// True when the contents are illustrative, not a rulebook's data.
    pub illustrative: bool,
    /// Where the data comes from.
    #[serde(default)]
    pub source: String,
    /// Free notes (e.g. what is a placeholder).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// WT-CC-2: a position's data.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtPositionData {
    /// Which position.
    pub id: WtPosition,
    /// Display name.
    pub label: WtLabel,
    /// Base stat values (RULINGS: final = base + points; the creation cap applies to base + points).
    #[serde(default)]
    pub base: WtStats,
    /// WT-CC-7: trigger types of which one main slot (any) must hold a trigger (e.g. `["blade"]`).
    pub main_trigger_types: Vec<String>,
    /// The position skill (P-skill).
    pub skill: WtSkillData,
    /// True if this entry's values are placeholders.
    #[serde(default)]
    pub placeholder: bool,
}

/// WT-CC-3: trait size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtTraitSize {
    /// An L-trait (take exactly one).
    L,
    /// An S-trait (take exactly two).
    S,
}

/// WT-CC-3: a trait skill.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtTraitData {
    /// Unique id (`[a-z0-9_]`).
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// L or S.
    pub size: WtTraitSize,
    /// Stat bonuses applied after the creation cap (WT-CC-5).
    #[serde(default)]
    pub bonus: WtStats,
    /// Rules text.
    #[serde(default)]
    pub text: String,
    /// May be used more than once per round (WT-ECO-5).
    #[serde(default)]
    pub repeatable: bool,
    /// True if this entry is a placeholder.
    #[serde(default)]
    pub placeholder: bool,
}

/// WT-CC-6: a combatant master.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtMasterData {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// The stat the master's initial training raises by 1.
    pub stat: WtStat,
    /// True if this entry is a placeholder.
    #[serde(default)]
    pub placeholder: bool,
}

/// WT-OP-5: an operator master.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOperatorMasterData {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// The operator stat the master raises by 1.
    pub stat: WtOperatorStat,
    /// True if this entry is a placeholder.
    #[serde(default)]
    pub placeholder: bool,
}

/// What kind of trigger an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtTriggerKind {
    /// An ordinary trigger.
    Trigger,
    /// WT-TRG-6: a dedicated option, tied to its `base` trigger and equipped on its side.
    DedicatedOption,
    /// WT-TRG-7: a general-purpose option, equipped on the side of a trigger it combines with.
    GeneralOption,
}

/// WT-DMG-6: kinds of special attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtSpecialAttackKind {
    /// 上方特攻: against a target ≥ 1 height level higher.
    Upward,
    /// 下方特攻: against a target ≥ 1 height level lower.
    Downward,
    /// 浮遊特攻: against a Floating target.
    Floating,
}

/// WT-DMG-5: a special attack with its level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSpecialAttack {
    /// Which special attack.
    pub kind: WtSpecialAttackKind,
    /// Its level (1–20): +LV dice on the hit check and +LV base damage.
    pub lv: u32,
}

/// A trigger skill, basic command or position skill.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSkillData {
    /// Unique id within its list.
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// WT-CC-8: minimum stats to learn it (0 = none).
    #[serde(default)]
    pub requirements: WtStats,
    /// WT-RNG-1: range in squares, if it has one.
    #[serde(default)]
    pub range: Option<u32>,
    /// WT-RNG-3: side of the square area (3 for 3×3), if it is an area skill.
    #[serde(default)]
    pub area: Option<u32>,
    /// WT-DMG-5/6: special attacks.
    #[serde(default)]
    pub special_attacks: Vec<WtSpecialAttack>,
    /// WT-ECO-4: "combined use" (組合使用) actions do not count toward the action count.
    #[serde(default)]
    pub combined_use: bool,
    /// Usable as a reaction (WT-HIT-2).
    #[serde(default)]
    pub reaction: bool,
    /// Rules text.
    #[serde(default)]
    pub text: String,
    /// True if this entry's values are placeholders.
    #[serde(default)]
    pub placeholder: bool,
}

/// A trigger or option trigger.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtTriggerData {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// Trigger, dedicated option or general option.
    pub kind: WtTriggerKind,
    /// Type (`blade`, `bullet`, `gun`, `sniper`, `defense`, …), matched against a position's `main_trigger_types`.
    pub trigger_type: String,
    /// WT-TRG-6: for a dedicated option, the id of its base trigger.
    #[serde(default)]
    pub base: Option<String>,
    /// WT-COND-5/6: needs a hand (unusable on the side of a lost hand).
    #[serde(default)]
    pub hand_held: bool,
    /// WT-CC-7: equip requirements (minimum stats; 0 = none).
    #[serde(default)]
    pub requirements: WtStats,
    /// WT-CC-8: the trigger's skills.
    #[serde(default)]
    pub skills: Vec<WtSkillData>,
    /// True if some of this entry's values are placeholders.
    #[serde(default)]
    pub placeholder: bool,
    /// Notes on the entry (e.g. which values are placeholders).
    #[serde(default)]
    pub notes: String,
}

/// An operator skill.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOperatorSkillData {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// Minimum operator stats (0 = none).
    #[serde(default)]
    pub requirements: WtOperatorStats,
    /// Rules text.
    #[serde(default)]
    pub text: String,
    /// True if this entry is a placeholder.
    #[serde(default)]
    pub placeholder: bool,
}

/// WT-DT-4: the three damage tables.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtDamageTables {
    /// Border members.
    pub border: Vec<WtDamageTier>,
    /// Trion soldiers.
    pub trion_soldier: Vec<WtDamageTier>,
    /// Serafiga soldiers.
    pub serafiga: Vec<WtDamageTier>,
}

/// One tier of a damage table (WT-DT-2).
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtDamageTier {
    /// Smallest damage of one hit that uses this tier (10, 20, 30).
    pub min_damage: i64,
    /// The six rows, for d6 results 1–6. Any condition may end a tier (WT-DT-3: past the
    /// last row the last row applies); the sample pack ends every tier in `emergency_bailout`.
    pub rows: Vec<WtCondition>,
    /// True if the rows are placeholders.
    #[serde(default)]
    pub placeholder: bool,
}

/// WT-CC-9: a D66 profile table.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtProfileTable {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// Entries by D66 result (11–66, both digits 1–6).
    pub entries: Vec<WtProfileEntry>,
}

/// One D66 profile entry.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtProfileEntry {
    /// The D66 value (11–66).
    pub roll: u32,
    /// The entry's text.
    pub text: WtLabel,
}

/// Which damage table (WT-DT-4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtDamageTableSide {
    /// Border members (default).
    #[default]
    Border,
    /// Trion soldiers.
    TrionSoldier,
    /// Serafiga soldiers.
    Serafiga,
}

impl WtDamageTableSide {
    /// The three sides, in table order.
    pub const ALL: [WtDamageTableSide; 3] =
        [WtDamageTableSide::Border, WtDamageTableSide::TrionSoldier, WtDamageTableSide::Serafiga];

    /// The JSON key (`border`, `trion_soldier`, `serafiga`).
    pub fn key(self) -> &'static str {
        match self {
            WtDamageTableSide::Border => "border",
            WtDamageTableSide::TrionSoldier => "trion_soldier",
            WtDamageTableSide::Serafiga => "serafiga",
        }
    }
}

impl WtDamageTables {
    /// The tiers of one side's table.
    pub fn side(&self, side: WtDamageTableSide) -> &[WtDamageTier] {
        match side {
            WtDamageTableSide::Border => &self.border,
            WtDamageTableSide::TrionSoldier => &self.trion_soldier,
            WtDamageTableSide::Serafiga => &self.serafiga,
        }
    }
}

impl WtDataPack {
    /// A trigger by id.
    pub fn trigger(&self, id: &str) -> Option<&WtTriggerData> {
        self.triggers.iter().find(|t| t.id == id)
    }

    /// A position's data.
    pub fn position(&self, p: WtPosition) -> Option<&WtPositionData> {
        self.positions.iter().find(|x| x.id == p)
    }
}

/// The bundled sample pack (illustrative). Parsed once.
pub fn sample_pack() -> Result<&'static WtDataPack> {
    static PACK: OnceLock<std::result::Result<WtDataPack, Error>> = OnceLock::new();
    PACK.get_or_init(|| {
        let v: Value = serde_json::from_str(SAMPLE_JSON)
            .map_err(|e| Error::new(ErrorCode::Internal, format!("sample pack is not JSON: {e}")))?;
        let p: WtDataPack = crate::ops::parse_data("sample_pack", v)
            .map_err(|e| Error::new(ErrorCode::Internal, format!("sample pack: {e}")))?;
        let bad = validate_pack(&p, "sample_pack");
        if !bad.is_empty() {
            return Err(Error::new(ErrorCode::Internal, violations_error("sample_pack", &bad).0.message));
        }
        Ok(p)
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The pack an op uses: the caller's `data` (parsed and validated; problems
/// are `invalid_data` listing every violation) or the bundled sample pack.
pub fn load_pack(data: Option<&Value>) -> Result<Cow<'static, WtDataPack>> {
    match data {
        None => Ok(Cow::Borrowed(sample_pack()?)),
        Some(v) => {
            let p: WtDataPack = crate::ops::parse_data("data", v.clone())?;
            let bad = validate_pack(&p, "data");
            if bad.is_empty() {
                Ok(Cow::Owned(p))
            } else {
                Err(violations_error("data", &bad))
            }
        }
    }
}

use crate::engine::ids::is_data_id as valid_id;

struct Checker<'a> {
    out: &'a mut Vec<WtViolation>,
}

impl Checker<'_> {
    fn push(&mut self, path: String, rule: &str, msg: impl Into<String>) {
        if self.out.len() < 200 {
            self.out.push(WtViolation::new(path, rule, msg));
        }
    }

    fn count(&mut self, path: &str, n: usize) {
        if n > MAX_ENTRIES {
            self.push(path.to_string(), "WT-DATA", format!("at most {MAX_ENTRIES} entries"));
        }
    }

    fn text(&mut self, path: String, s: &str) {
        if s.chars().count() > MAX_TEXT {
            self.push(path, "WT-DATA", format!("at most {MAX_TEXT} characters"));
        }
    }

    fn label(&mut self, path: String, l: &WtLabel) {
        if l.en.trim().is_empty() {
            self.push(format!("{path}.en"), "WT-DATA", "an English label is required");
        }
        for (k, s) in [("ja", &l.ja), ("zh_hans", &l.zh_hans), ("zh_hant", &l.zh_hant), ("en", &l.en)] {
            self.text(format!("{path}.{k}"), s);
        }
    }

    fn ids<'b>(&mut self, path: &str, ids: impl Iterator<Item = &'b str>) {
        let mut seen = BTreeSet::new();
        for (i, id) in ids.enumerate() {
            if !valid_id(id) {
                self.push(
                    format!("{path}[{i}].id"),
                    "WT-DATA",
                    format!("{} is not a valid id ([a-z0-9_], 1-64)", quote(id)),
                );
            } else if !seen.insert(id) {
                self.push(format!("{path}[{i}].id"), "WT-DATA", format!("duplicate id {}", quote(id)));
            }
        }
    }

    fn stats(&mut self, path: String, rule: &str, s: &WtStats, min: i64) {
        for st in WtStat::ALL {
            let v = s.get(st);
            if v < min || v > MAX_STAT_VALUE {
                self.push(
                    format!("{path}.{}", st.key()),
                    rule,
                    format!("{v} is outside {min}..={MAX_STAT_VALUE}"),
                );
            }
        }
    }

    fn skill(&mut self, path: String, s: &WtSkillData) {
        self.label(format!("{path}.label"), &s.label);
        self.text(format!("{path}.text"), &s.text);
        self.stats(format!("{path}.requirements"), "WT-CC-8", &s.requirements, 0);
        if s.range.is_some_and(|r| r > 100) {
            self.push(format!("{path}.range"), "WT-RNG-1", "range is at most 100");
        }
        if let Some(a) = s.area {
            if a == 0 || a > 99 || a % 2 == 0 {
                self.push(
                    format!("{path}.area"),
                    "WT-RNG-3",
                    "area is an odd square side 1..=99 (3 for 3x3)",
                );
            }
        }
        if s.special_attacks.len() > 3 {
            self.push(format!("{path}.special_attacks"), "WT-DMG-6", "at most one special attack per kind");
        }
        for (i, sa) in s.special_attacks.iter().enumerate() {
            if sa.lv == 0 || sa.lv > 20 {
                self.push(format!("{path}.special_attacks[{i}].lv"), "WT-DMG-5", "LV is 1..=20");
            }
            // WT-DMG-6: one LV per kind (upward, downward, floating).
            if s.special_attacks.iter().take(i).any(|o| o.kind == sa.kind) {
                self.push(
                    format!("{path}.special_attacks[{i}].kind"),
                    "WT-DMG-6",
                    "a kind of special attack is listed once per skill",
                );
            }
        }
    }
}

/// Validate a pack; returns every violation (empty = valid). `root` prefixes paths.
pub fn validate_pack(p: &WtDataPack, root: &str) -> Vec<WtViolation> {
    let mut out = Vec::new();
    let mut c = Checker { out: &mut out };
    if p.format != PACK_FORMAT {
        c.push(
            format!("{root}.format"),
            "WT-DATA",
            format!("must be {PACK_FORMAT:?}, not {}", quote(&p.format)),
        );
    }
    if p.meta.name.trim().is_empty() {
        c.push(format!("{root}.meta.name"), "WT-DATA", "a pack needs a name");
    }
    for (k, s) in [("name", &p.meta.name), ("version", &p.meta.version), ("source", &p.meta.source)] {
        c.text(format!("{root}.meta.{k}"), s);
    }
    c.count(&format!("{root}.meta.notes"), p.meta.notes.len());
    // Positions: all five exactly once.
    let path = format!("{root}.positions");
    c.count(&path, p.positions.len());
    for pos in WtPosition::ALL {
        let n = p.positions.iter().filter(|x| x.id == pos).count();
        if n != 1 {
            c.push(
                path.clone(),
                "WT-CC-2",
                format!("position {} appears {n} times (needs exactly 1)", pos.key()),
            );
        }
    }
    for (i, x) in p.positions.iter().enumerate() {
        c.label(format!("{path}[{i}].label"), &x.label);
        c.stats(format!("{path}[{i}].base"), "WT-CC-5", &x.base, 0);
        for st in WtStat::ALL {
            if x.base.get(st) > x.id.creation_cap() {
                c.push(
                    format!("{path}[{i}].base.{}", st.key()),
                    "WT-CC-5",
                    format!("base value above the creation cap {}", x.id.creation_cap()),
                );
            }
        }
        if x.main_trigger_types.is_empty() || x.main_trigger_types.len() > 20 {
            c.push(format!("{path}[{i}].main_trigger_types"), "WT-CC-7", "list 1-20 trigger types");
        }
        for (j, t) in x.main_trigger_types.iter().enumerate() {
            if !valid_id(t) {
                c.push(format!("{path}[{i}].main_trigger_types[{j}]"), "WT-CC-7", "not a valid type id");
            }
        }
        if !valid_id(&x.skill.id) {
            c.push(
                format!("{path}[{i}].skill.id"),
                "WT-DATA",
                format!("{} is not a valid id ([a-z0-9_], 1-64)", quote(&x.skill.id)),
            );
        }
        c.skill(format!("{path}[{i}].skill"), &x.skill);
    }
    // Traits.
    let path = format!("{root}.traits");
    c.count(&path, p.traits.len());
    c.ids(&path, p.traits.iter().map(|t| t.id.as_str()));
    for (i, t) in p.traits.iter().enumerate() {
        c.label(format!("{path}[{i}].label"), &t.label);
        c.text(format!("{path}[{i}].text"), &t.text);
        c.stats(format!("{path}[{i}].bonus"), "WT-CC-5", &t.bonus, -MAX_STAT_VALUE);
        for st in WtStat::ALL {
            let v = t.bonus.get(st);
            if v > MAX_TRAIT_BONUS && v <= MAX_STAT_VALUE {
                c.push(
                    format!("{path}[{i}].bonus.{}", st.key()),
                    "WT-CC-5",
                    format!("{v} is above {MAX_TRAIT_BONUS}, the most one trait adds to a stat"),
                );
            }
        }
    }
    // Masters.
    let path = format!("{root}.masters");
    c.count(&path, p.masters.len());
    c.ids(&path, p.masters.iter().map(|t| t.id.as_str()));
    for (i, t) in p.masters.iter().enumerate() {
        c.label(format!("{path}[{i}].label"), &t.label);
    }
    let path = format!("{root}.operator_masters");
    c.count(&path, p.operator_masters.len());
    c.ids(&path, p.operator_masters.iter().map(|t| t.id.as_str()));
    for (i, t) in p.operator_masters.iter().enumerate() {
        c.label(format!("{path}[{i}].label"), &t.label);
    }
    // Triggers.
    let path = format!("{root}.triggers");
    c.count(&path, p.triggers.len());
    c.ids(&path, p.triggers.iter().map(|t| t.id.as_str()));
    for (i, t) in p.triggers.iter().enumerate() {
        let tp = format!("{path}[{i}]");
        c.label(format!("{tp}.label"), &t.label);
        c.text(format!("{tp}.notes"), &t.notes);
        if !valid_id(&t.trigger_type) {
            c.push(format!("{tp}.trigger_type"), "WT-CC-7", "not a valid type id");
        }
        c.stats(format!("{tp}.requirements"), "WT-CC-7", &t.requirements, 0);
        match (t.kind, &t.base) {
            (WtTriggerKind::DedicatedOption, None) => {
                c.push(format!("{tp}.base"), "WT-TRG-6", "a dedicated option names its base trigger")
            }
            (WtTriggerKind::DedicatedOption, Some(b)) => match p.trigger(b) {
                Some(bt) if bt.kind == WtTriggerKind::Trigger => {}
                Some(_) => c.push(
                    format!("{tp}.base"),
                    "WT-TRG-6",
                    format!("{} is an option, not a trigger", quote(b)),
                ),
                None => {
                    c.push(format!("{tp}.base"), "WT-TRG-6", format!("no trigger {} in this pack", quote(b)))
                }
            },
            (_, Some(_)) => {
                c.push(format!("{tp}.base"), "WT-TRG-6", "only dedicated options have a base trigger")
            }
            (_, None) => {}
        }
        if t.skills.len() > 100 {
            c.push(format!("{tp}.skills"), "WT-DATA", "at most 100 skills per trigger");
        }
        c.ids(&format!("{tp}.skills"), t.skills.iter().map(|s| s.id.as_str()));
        for (j, s) in t.skills.iter().enumerate() {
            c.skill(format!("{tp}.skills[{j}]"), s);
        }
    }
    let path = format!("{root}.basic_commands");
    c.count(&path, p.basic_commands.len());
    c.ids(&path, p.basic_commands.iter().map(|s| s.id.as_str()));
    for (i, s) in p.basic_commands.iter().enumerate() {
        c.skill(format!("{path}[{i}]"), s);
    }
    let path = format!("{root}.operator_skills");
    c.count(&path, p.operator_skills.len());
    c.ids(&path, p.operator_skills.iter().map(|s| s.id.as_str()));
    for (i, s) in p.operator_skills.iter().enumerate() {
        c.label(format!("{path}[{i}].label"), &s.label);
        c.text(format!("{path}[{i}].text"), &s.text);
        for st in WtOperatorStat::ALL {
            let v = s.requirements.get(st);
            if !(0..=MAX_STAT_VALUE).contains(&v) {
                c.push(format!("{path}[{i}].requirements.{}", st.key()), "WT-OP-6", "outside 0..=99");
            }
        }
    }
    // Damage tables.
    for side in WtDamageTableSide::ALL {
        let path = format!("{root}.damage_tables.{}", side.key());
        let tiers = p.damage_tables.side(side);
        if tiers.is_empty() || tiers.len() > 10 {
            c.push(path.clone(), "WT-DT-4", "each table has 1-10 tiers");
        }
        let mut seen = BTreeSet::new();
        for (i, t) in tiers.iter().enumerate() {
            if !(1..=1_000_000).contains(&t.min_damage) {
                c.push(format!("{path}[{i}].min_damage"), "WT-DT-2", "min_damage is 1..=1000000");
            } else if !seen.insert(t.min_damage) {
                c.push(format!("{path}[{i}].min_damage"), "WT-DT-2", "duplicate tier");
            }
            // WT-DT-3 (RULINGS): only the sample pack ends every tier in emergency bailout; a
            // group's pack may end a tier with any row (missing data is data), so no row is demanded.
            if t.rows.len() != DAMAGE_TABLE_ROWS {
                c.push(format!("{path}[{i}].rows"), "WT-DT-3", "a tier has exactly 6 rows (1d6)");
            }
        }
    }
    // Profile tables.
    let path = format!("{root}.profile_tables");
    c.count(&path, p.profile_tables.len());
    c.ids(&path, p.profile_tables.iter().map(|t| t.id.as_str()));
    for (i, t) in p.profile_tables.iter().enumerate() {
        c.label(format!("{path}[{i}].label"), &t.label);
        let mut seen = BTreeSet::new();
        if t.entries.len() > 36 {
            c.push(format!("{path}[{i}].entries"), "WT-CC-9", "at most 36 D66 entries");
        }
        for (j, e) in t.entries.iter().enumerate().take(100) {
            let (tens, ones) = (e.roll / 10, e.roll % 10);
            if !(1..=6).contains(&tens) || !(1..=6).contains(&ones) {
                c.push(
                    format!("{path}[{i}].entries[{j}].roll"),
                    "WT-CC-9",
                    format!("{} is not a D66 value", e.roll),
                );
            } else if !seen.insert(e.roll) {
                c.push(format!("{path}[{i}].entries[{j}].roll"), "WT-CC-9", "duplicate roll");
            }
            c.label(format!("{path}[{i}].entries[{j}].text"), &e.text);
        }
    }
    out
}

/// No arguments.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSampleDataArgs {}

/// `world_trigger.sample_data` — the bundled sample pack (illustrative).
pub fn sample_data(_: &WtSampleDataArgs) -> Result<WtDataPack> {
    Ok(sample_pack()?.clone())
}

/// Arguments of `world_trigger.validate_data`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtValidateDataArgs {
    /// A data pack (format `gunbai-wt-pack/1`) to check.
    pub data: Value,
}

/// Result of a validation.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtValidationResult {
    /// True when there is no violation.
    pub valid: bool,
    /// Every violation (the first 100), each with its path and rule ID.
    pub violations: Vec<WtViolation>,
}

impl WtValidationResult {
    /// The result for `violations`, cut as an error at the JSON entry points is
    /// ([`crate::Error::bounded`]): the first [`MAX_DETAILS`](crate::error::MAX_DETAILS),
    /// each path, message and label text cut to the same lengths, so that a result never
    /// echoes a long input value whole (a megabyte-long `master` once came back five
    /// times).
    pub fn of(mut violations: Vec<WtViolation>) -> WtValidationResult {
        use crate::error::{clip, MAX_DETAILS, MAX_FIELD_CHARS, MAX_MESSAGE_CHARS};
        violations.truncate(MAX_DETAILS);
        for v in &mut violations {
            clip(&mut v.path, MAX_FIELD_CHARS);
            clip(&mut v.rule, MAX_FIELD_CHARS);
            clip(&mut v.message, MAX_MESSAGE_CHARS);
            if let Some(l) = &mut v.label {
                for t in [&mut l.ja, &mut l.zh_hans, &mut l.zh_hant, &mut l.en] {
                    clip(t, MAX_MESSAGE_CHARS);
                }
            }
        }
        WtValidationResult { valid: violations.is_empty(), violations }
    }
}

/// `world_trigger.validate_data` — check a data pack and list every problem.
/// A pack that does not even match the format's shape (wrong types, unknown
/// keys) gives a single violation with the serde path; a well-formed pack is
/// checked rule by rule and every violation is listed.
pub fn validate_data(args: &WtValidateDataArgs) -> Result<WtValidationResult> {
    let violations = match crate::ops::parse_data::<WtDataPack>("data", args.data.clone()) {
        Err(e) => vec![WtViolation::new(e.0.field.unwrap_or_else(|| "data".into()), "WT-DATA", e.0.message)],
        Ok(p) => validate_pack(&p, "data"),
    };
    Ok(WtValidationResult::of(violations))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_pack_is_valid_and_illustrative() {
        let p = sample_pack().unwrap();
        assert!(p.meta.illustrative);
        assert!(validate_pack(p, "x").is_empty());
        // WT-CC-8 EXAMPLE data: Oborozuki needs Defense/Support 9 and Technique 8.
        let k = p.trigger("kogetsu").unwrap();
        let o = k.skills.iter().find(|s| s.id == "oborozuki").unwrap();
        assert_eq!((o.requirements.defense_support, o.requirements.technique), (9, 8));
        // The ≥10 border tier as the seed lists it.
        use WtCondition::*;
        let t10 = p.damage_tables.border.iter().find(|t| t.min_damage == 10).unwrap();
        assert_eq!(
            t10.rows,
            vec![TrionLeakSmall, LostRightLeg, LostDominantHand, LostOffHand, LostLeftLeg, EmergencyBailout]
        );
    }

    #[test]
    fn json_schema_file_is_current() {
        let schema = schemars::schema_for!(WtDataPack);
        let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        let path = std::env::var_os("CARGO_MANIFEST_DIR")
            .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
            .join("data/world_trigger/pack.schema.json");
        if std::env::var_os("GUNBAI_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(on_disk == text, "pack.schema.json is stale: rerun with GUNBAI_BLESS=1");
    }

    #[test]
    fn garbage_packs_never_panic() {
        for v in [
            serde_json::json!(null),
            serde_json::json!({}),
            serde_json::json!({"format": 1}),
            serde_json::json!([1, 2, 3]),
            serde_json::json!({"data": {"format": "x"}}),
        ] {
            let _ = crate::call("world_trigger.validate_data", serde_json::json!({ "data": v.clone() }));
            let _ = crate::call("world_trigger.validate_data", v);
        }
        // Every list emptied: many violations, no panic.
        let mut p = sample_pack().unwrap().clone();
        p.positions.clear();
        p.damage_tables.border.clear();
        p.triggers.push(p.triggers[0].clone());
        let bad = validate_pack(&p, "data");
        assert!(bad.iter().any(|v| v.rule == "WT-CC-2"));
        assert!(bad.iter().any(|v| v.rule == "WT-DT-4"));
        assert!(bad.iter().any(|v| v.message.contains("duplicate")));
    }
}
