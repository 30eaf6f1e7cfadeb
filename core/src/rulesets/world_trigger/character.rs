//! Character creation (WT-CC), derived stats (WT-DER), operators (WT-OP),
//! movement and condition effects (WT-COND).
//!
//! [`build_character`] and [`build_operator`] are the reusable cores (the
//! battle engine builds its combatants with them); the ops wrap them.

use super::data::{load_pack, WtDataPack, WtTraitSize, WtTriggerKind};
use super::types::{
    violations_error, WtCondition, WtLabel, WtOperatorStat, WtOperatorStats, WtPosition, WtStat, WtStats,
    WtViolation,
};
use crate::error::{excerpt, quote, Error, Result};
use crate::json::{FromJson, ToJson};
use serde_json::Value;

/// WT-CC-5: points to distribute at creation.
pub const CREATION_POINTS: i64 = 20;
/// WT-CC-7: slots per side.
pub const SLOTS_PER_SIDE: usize = 4;
/// WT-OP-4: operator base value of the five non-Trion stats.
pub const OPERATOR_BASE: i64 = 6;
/// WT-OP-4: operator points to distribute.
pub const OPERATOR_POINTS: i64 = 5;
/// WT-OP-4: operator cap during distribution.
pub const OPERATOR_CAP: i64 = 9;
/// WT-COND-7: Movement lost per lost leg.
pub const LEG_PENALTY: i64 = 4;
/// Largest |value| accepted for stat-like numeric arguments.
pub const MAX_STAT_ARG: i64 = 1_000_000;

/// A player-facing message in the four display languages (ja, zh-Hans, zh-Hant, en).
fn say(ja: String, zh_hans: String, zh_hant: String, en: String) -> WtLabel {
    WtLabel { ja, zh_hans, zh_hant, en }
}

/// Pick one language's text of a label (for composing a message in that language).
fn pick(l: &WtLabel, lang: usize) -> &str {
    let text = match lang {
        0 => &l.ja,
        1 => &l.zh_hans,
        2 => &l.zh_hant,
        _ => &l.en,
    };
    if text.is_empty() {
        &l.en
    } else {
        text
    }
}

/// Build a four-language message from one function of the language index
/// (0 ja, 1 zh-Hans, 2 zh-Hant, 3 en).
fn say_each(f: impl Fn(usize) -> String) -> WtLabel {
    say(f(0), f(1), f(2), f(3))
}

/// A trigger-type name (WT-CC-2: 刀劍型 / 子彈型 / 槍型 …) in each language; a type
/// the sample pack doesn't use is shown as it is (data packs may add their own).
fn trigger_type_label(t: &str) -> WtLabel {
    match t {
        "blade" => WtLabel::new("ブレード型", "刀剑型", "刀劍型", "blade"),
        "bullet" => WtLabel::new("弾丸型", "子弹型", "子彈型", "bullet"),
        "gun" => WtLabel::new("銃型", "枪型", "槍型", "gun"),
        "sniper" => WtLabel::new("狙撃型", "狙击型", "狙擊型", "sniper"),
        "defense" => WtLabel::new("防御型", "防御型", "防御型", "defense"),
        "mobility" => WtLabel::new("機動型", "机动型", "機動型", "mobility"),
        "stealth" => WtLabel::new("隠密型", "隐密型", "隱密型", "stealth"),
        "option" => WtLabel::new("オプション", "选项", "選項", "option"),
        other => WtLabel::new(other, other, other, other),
    }
}

/// WT-CC-5 / WT-OP-4: `p` points given to the stat `name`; `en` is the English text.
fn negative_points(name: &WtLabel, p: i64, en: String) -> WtLabel {
    say_each(|l| match l {
        0 => format!("{}：{p}点。配分は負の値にできません", pick(name, l)),
        1 => format!("{}：{p}点。分配的点数不能为负", pick(name, l)),
        2 => format!("{}：{p}點。分配的點數不能為負", pick(name, l)),
        _ => en.clone(),
    })
}

/// WT-CC-9 / WT-OP-7: the name is required.
fn name_message() -> WtLabel {
    WtLabel::new(
        "名前（1〜200文字）が必要です",
        "需要名字（1～200个字符）",
        "需要名字（1～200個字元）",
        "a name of 1-200 characters is required",
    )
}

/// WT-CC-3: one L-trait or two different S-traits (`counts`: the L and S counts taken).
fn traits_message(counts: Option<(usize, usize)>) -> WtLabel {
    let rule = WtLabel::new(
        "L特徴を1つ、または異なるS特徴を2つ選んでください",
        "请选择1项L特征技能，或2项不同的S特征技能",
        "請選擇1項L特徵技能，或2項不同的S特徵技能",
        "take exactly one L-trait or two different S-traits",
    );
    let Some((l, s)) = counts else { return rule };
    say(
        format!("L特徴{l}つ・S特徴{s}つです。{}", rule.ja),
        format!("目前为{l}项L特征、{s}项S特征：{}", rule.zh_hans),
        format!("目前為{l}項L特徵、{s}項S特徵：{}", rule.zh_hant),
        format!("{l} L-trait(s) and {s} S-trait(s): {}", rule.en),
    )
}

/// A sheet that doesn't even have the sheet's shape (a wrong type, an unknown key),
/// under `rule`: WT-CC-0 for a combatant sheet, WT-OP-2 for an operator sheet.
fn format_violation(e: Error, rule: &str) -> WtViolation {
    let m = &e.message;
    WtViolation::localized(
        e.field.clone().unwrap_or_else(|| "sheet".into()),
        rule,
        say(
            format!("シートの形式が正しくありません：{m}"),
            format!("角色卡格式不正确：{m}"),
            format!("角色卡格式不正確：{m}"),
            m.clone(),
        ),
    )
}

/// One top-level field of a sheet: its key, whether it is required, and a reader
/// giving the field's first shape error under its own type's rules.
type FieldCheck = (&'static str, bool, fn(&str, &Value) -> Option<Error>);

fn field_error<T: FromJson + crate::json::SerdeIn>(path: &str, v: &Value) -> Option<Error> {
    crate::ops::parse_data::<T>(path, v.clone()).err()
}

/// WT-CC-0 (WT-OP-2 for an operator sheet): the shape problems of a sheet (an unknown or
/// missing key, a value of the wrong type), one per top-level field, so a sheet with
/// several is reported whole (the creation rules are checked once the shape is right).
fn shape_violations(what: &str, v: &Value, fields: &[FieldCheck], rule: &str) -> Vec<WtViolation> {
    let Some(obj) = v.as_object() else {
        return vec![format_violation(Error::invalid_data(what, "must be an object"), rule)];
    };
    let mut out = Vec::new();
    let names: Vec<&str> = fields.iter().map(|f| f.0).collect();
    for k in obj.keys().filter(|k| !names.contains(&k.as_str())) {
        let e = Error::invalid_data(
            format!("{what}.{}", excerpt(k)),
            format_args!("unknown field `{}`, expected {}", excerpt(k), crate::json::one_of(&names)),
        );
        out.push(format_violation(e, rule));
    }
    for (name, required, check) in fields {
        let path = format!("{what}.{name}");
        match obj.get(*name) {
            None if *required => out.push(format_violation(
                Error::invalid_data(path, format_args!("missing field `{name}`")),
                rule,
            )),
            None => {}
            Some(x) => out.extend(check(&path, x).map(|e| format_violation(e, rule))),
        }
    }
    out
}

/// Read a sheet: its shape problems (all of them), else the sheet.
/// `rule`: an operator sheet's shape is WT-OP-2's (its stats), a combatant's WT-CC-0's.
fn read_sheet<S: FromJson + crate::json::SerdeIn>(
    v: &Value,
    fields: &[FieldCheck],
    rule: &str,
) -> std::result::Result<S, Vec<WtViolation>> {
    let shape = shape_violations("sheet", v, fields, rule);
    if !shape.is_empty() {
        return Err(shape);
    }
    crate::ops::parse_data::<S>("sheet", v.clone()).map_err(|e| vec![format_violation(e, rule)])
}

/// The fields of [`WtSheet`].
const SHEET_FIELDS: &[FieldCheck] = &[
    ("name", true, field_error::<String>),
    ("position", true, field_error::<WtPosition>),
    ("points", false, field_error::<WtStats>),
    ("leader", false, field_error::<bool>),
    ("master", true, field_error::<String>),
    ("traits", false, field_error::<Vec<String>>),
    ("triggers", false, field_error::<WtLoadout>),
];

/// The fields of [`WtOperatorSheet`].
const OPERATOR_FIELDS: &[FieldCheck] = &[
    ("name", true, field_error::<String>),
    ("trion", true, field_error::<i64>),
    ("points", false, field_error::<WtOperatorStats>),
    ("master", true, field_error::<String>),
];

/// Several trigger types joined with `/`, in one language.
fn types_text(types: &[String], lang: usize) -> String {
    types.iter().map(|t| pick(&trigger_type_label(t), lang).to_string()).collect::<Vec<_>>().join("/")
}

/// A combatant sheet as a player fills it in ("new creation", WT-CC-0…9).
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSheet {
    /// Character name (WT-CC-9), 1–200 characters.
    pub name: String,
    /// WT-CC-2: the position.
    pub position: WtPosition,
    /// WT-CC-5: the 20 points, by stat (missing stats are 0).
    #[serde(default)]
    pub points: WtStats,
    /// WT-CC-1: the team leader gets +1 Command.
    #[serde(default)]
    pub leader: bool,
    /// WT-CC-6: the master's id (from the data pack).
    pub master: String,
    /// WT-CC-3: trait ids: one L-trait, or two S-traits.
    #[serde(default)]
    pub traits: Vec<String>,
    /// WT-CC-7: trigger ids per side.
    #[serde(default)]
    pub triggers: WtLoadout,
}

/// WT-CC-7: the trigger loadout, up to 4 per side.
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtLoadout {
    /// Main-trigger slots (dominant-hand side); one of them (any) holds a trigger of the
    /// position's type (WT-CC-7).
    #[serde(default)]
    pub main: Vec<String>,
    /// Sub-trigger slots (off-hand side).
    #[serde(default)]
    pub sub: Vec<String>,
}

impl WtLoadout {
    /// Number of filled slots, main and sub.
    pub fn filled(&self) -> usize {
        self.main.len() + self.sub.len()
    }
}

/// A trigger side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtSide {
    /// Main trigger side (dominant hand).
    Main,
    /// Sub trigger side (off hand).
    Sub,
}

/// WT-DER: derived stats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtDerived {
    /// WT-DER-1: floor(Mobility ÷ 2).
    pub movement: i64,
    /// WT-DER-2: Trion × 10 + 40.
    pub base_trion: i64,
    /// WT-DER-3: base Trion − 5 × filled trigger slots (options included).
    pub starting_trion: i64,
}

/// A skill the character has (or lacks) and why.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtSkillGrant {
    /// The trigger that gives it (null for basic commands).
    pub trigger: Option<String>,
    /// Sides the trigger is on (empty for basic commands).
    pub sides: Vec<WtSide>,
    /// Skill id.
    pub skill: String,
    /// Display name.
    pub label: WtLabel,
    /// The stat requirement (met for available skills).
    pub requirements: WtStats,
    /// Stats below the requirement (empty for available skills).
    pub missing: Vec<WtStat>,
}

/// A created combatant.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtCharacter {
    /// Name.
    pub name: String,
    /// Position.
    pub position: WtPosition,
    /// Final stats: position base + points, then leader +1 Command, master +1, trait bonuses.
    pub stats: WtStats,
    /// Derived stats.
    pub derived: WtDerived,
    /// Leader flag.
    pub leader: bool,
    /// Master id.
    pub master: String,
    /// Trait ids.
    pub traits: Vec<String>,
    /// The loadout.
    pub triggers: WtLoadout,
    /// WT-CC-8: trigger skills whose requirements the stats meet.
    pub trigger_skills: Vec<WtSkillGrant>,
    /// WT-CC-8: trigger skills of equipped triggers whose requirements are not met.
    pub unavailable_skills: Vec<WtSkillGrant>,
    /// WT-CC-8: basic commands acquired automatically (requirements met).
    pub basic_commands: Vec<WtSkillGrant>,
    /// The position skill.
    pub position_skill: WtSkillGrant,
}

/// WT-DER-1 (RULINGS): Movement = floor(Mobility ÷ 2), never below 0.
pub fn base_movement(mobility: i64) -> i64 {
    mobility.max(0) / 2
}

/// WT-DER-1…3: derived stats from final stats and the number of filled slots.
pub fn derived_stats(stats: &WtStats, filled_slots: usize) -> WtDerived {
    let base_trion = stats.trion.saturating_mul(10).saturating_add(40);
    WtDerived {
        movement: base_movement(stats.mobility),
        base_trion,
        starting_trion: base_trion.saturating_sub(5 * filled_slots as i64),
    }
}

fn grant(
    trigger: Option<&str>,
    sides: Vec<WtSide>,
    s: &super::data::WtSkillData,
    stats: &WtStats,
) -> WtSkillGrant {
    WtSkillGrant {
        trigger: trigger.map(str::to_string),
        sides,
        skill: s.id.clone(),
        label: s.label.clone(),
        requirements: s.requirements,
        missing: s.requirements.unmet_by(stats),
    }
}

/// Build a combatant from a sheet (WT-CC-0…8, WT-DER-1…3, WT-TRG-6/7).
/// Returns every violation found, not only the first.
pub fn build_character(
    sheet: &WtSheet,
    pack: &WtDataPack,
) -> std::result::Result<WtCharacter, Vec<WtViolation>> {
    let mut bad = Vec::new();
    let mut v = |path: &str, rule: &str, msg: WtLabel| bad.push(WtViolation::localized(path, rule, msg));
    // A trigger's name in one language (its id if the pack doesn't know it).
    let trig = |id: &str, lang: usize| {
        pack.trigger(id).map_or_else(|| excerpt(id).into_owned(), |t| pick(&t.label, lang).to_string())
    };
    // WT-CC-9: name.
    let name_len = sheet.name.chars().count();
    if sheet.name.trim().is_empty() || name_len > 200 {
        v("sheet.name", "WT-CC-9", name_message());
    }
    // WT-CC-2: position data.
    let Some(pos) = pack.position(sheet.position) else {
        let k = sheet.position.key();
        v(
            "sheet.position",
            "WT-CC-2",
            say(
                format!("データパックにポジション {k} がありません"),
                format!("数据包中没有职位 {k}"),
                format!("資料包中沒有職位 {k}"),
                format!("the data pack has no position {k}"),
            ),
        );
        return Err(bad);
    };
    // WT-CC-5: 20 points exactly, none negative, base + points ≤ cap.
    let cap = sheet.position.creation_cap();
    for st in WtStat::ALL {
        let p = sheet.points.get(st);
        let path = format!("sheet.points.{}", st.key());
        let b = pos.base.get(st);
        let sum = b.saturating_add(p);
        let name = st.label();
        if p < 0 {
            v(&path, "WT-CC-5", negative_points(&name, p, format!("{p} points: points can't be negative")));
        } else if sum > cap {
            let ar = cap == 8;
            v(
                &path,
                "WT-CC-5",
                say_each(|l| match l {
                    0 => format!(
                        "{}：基本値 {b} + 配分 {p} = {sum} は作成時の上限 {cap}{}を超えています",
                        pick(&name, l),
                        if ar { "（万能手）" } else { "" }
                    ),
                    1 => format!(
                        "{}：基础值 {b} + 分配 {p} = {sum}，超过建卡时的最大值 {cap}{}",
                        pick(&name, l),
                        if ar { "（万能手）" } else { "" }
                    ),
                    2 => format!(
                        "{}：基礎值 {b} + 分配 {p} = {sum}，超過建卡時的最大值 {cap}{}",
                        pick(&name, l),
                        if ar { "（萬能手）" } else { "" }
                    ),
                    _ => format!(
                        "base {b} + {p} points = {sum} is above the creation cap {cap}{}",
                        if ar { " (All-rounder)" } else { "" }
                    ),
                }),
            );
        }
    }
    let total = sheet.points.total();
    if total != CREATION_POINTS {
        v(
            "sheet.points",
            "WT-CC-5",
            say(
                format!("{total}点が配分されています。ちょうど{CREATION_POINTS}点を配分してください"),
                format!("已分配 {total} 点，必须正好分配 {CREATION_POINTS} 点"),
                format!("已分配 {total} 點，必須正好分配 {CREATION_POINTS} 點"),
                format!("{total} points allocated; exactly {CREATION_POINTS} are required"),
            ),
        );
    }
    let mut stats = pos.base.plus(&sheet.points);
    // WT-CC-1: the leader's Command +1 (after the cap).
    if sheet.leader {
        stats.command = stats.command.saturating_add(1);
    }
    // WT-CC-3: one L-trait or two S-traits.
    if sheet.traits.len() > 10 {
        v("sheet.traits", "WT-CC-3", traits_message(None));
    } else {
        let mut sizes = Vec::new();
        for (i, id) in sheet.traits.iter().enumerate() {
            match pack.traits.iter().find(|t| &t.id == id) {
                Some(t) => {
                    sizes.push(t.size);
                    stats = stats.plus(&t.bonus);
                }
                None => {
                    let (e, q) = (excerpt(id), quote(id));
                    v(
                        &format!("sheet.traits[{i}]"),
                        "WT-CC-3",
                        say(
                            format!("データパックに特徴「{e}」がありません"),
                            format!("数据包中没有特征“{e}”"),
                            format!("資料包中沒有特徵「{e}」"),
                            format!("no trait {q} in the data pack"),
                        ),
                    )
                }
            }
        }
        let l = sizes.iter().filter(|&&s| s == WtTraitSize::L).count();
        let s = sizes.len() - l;
        let dup = sheet.traits.len() == 2 && sheet.traits.first() == sheet.traits.get(1);
        if sizes.len() == sheet.traits.len() && !((l == 1 && s == 0) || (l == 0 && s == 2 && !dup)) {
            v("sheet.traits", "WT-CC-3", traits_message(Some((l, s))));
        }
    }
    // WT-CC-6: one master, +1 to its stat.
    match pack.masters.iter().find(|m| m.id == sheet.master) {
        Some(m) => *stats.get_mut(m.stat) = stats.get(m.stat).saturating_add(1),
        None => {
            let (m, q) = (excerpt(&sheet.master), quote(&sheet.master));
            v(
                "sheet.master",
                "WT-CC-6",
                say(
                    format!("データパックに師匠「{m}」がありません"),
                    format!("数据包中没有师父“{m}”"),
                    format!("資料包中沒有師父「{m}」"),
                    format!("no master {q} in the data pack"),
                ),
            )
        }
    }
    // WT-CC-4 / WT-CHK-3: a stat is a number of dice, so a final value below 0 (only a
    // negative trait bonus can cause one; negative points are reported above) is refused.
    for st in WtStat::ALL {
        let f = stats.get(st);
        if f < 0 && sheet.points.get(st) >= 0 {
            let name = st.label();
            v(
                &format!("sheet.points.{}", st.key()),
                "WT-CC-4",
                say_each(|l| match l {
                    0 => format!("{}：ボーナス適用後の値 {f} が0未満です", pick(&name, l)),
                    1 => format!("{}：加值后的数值 {f} 低于0", pick(&name, l)),
                    2 => format!("{}：加值後的數值 {f} 低於0", pick(&name, l)),
                    _ => format!("final value {f} after bonuses is below 0"),
                }),
            );
        }
    }
    // WT-CC-7: slots, the position's type in one main slot, equip requirements;
    // WT-TRG-6/7: option sides.
    for (side, list, key) in
        [(WtSide::Main, &sheet.triggers.main, "main"), (WtSide::Sub, &sheet.triggers.sub, "sub")]
    {
        if list.len() > SLOTS_PER_SIDE {
            let n = list.len();
            v(
                &format!("sheet.triggers.{key}"),
                "WT-CC-7",
                say(
                    format!("トリガーが{n}個あります。片側は{SLOTS_PER_SIDE}枠までです"),
                    format!("共 {n} 个触发器：每侧最多 {SLOTS_PER_SIDE} 个栏位"),
                    format!("共 {n} 個觸發器：每側最多 {SLOTS_PER_SIDE} 個欄位"),
                    format!("{n} triggers: at most {SLOTS_PER_SIDE} per side"),
                ),
            );
        }
        // Check each listed trigger too (bounded, so a huge list can't flood the report).
        for (i, id) in list.iter().enumerate().take(4 * SLOTS_PER_SIDE) {
            let path = format!("sheet.triggers.{key}[{i}]");
            let Some(t) = pack.trigger(id) else {
                let (e, q) = (excerpt(id), quote(id));
                v(
                    &path,
                    "WT-CC-7",
                    say(
                        format!("データパックにトリガー「{e}」がありません"),
                        format!("数据包中没有触发器“{e}”"),
                        format!("資料包中沒有觸發器「{e}」"),
                        format!("no trigger {q} in the data pack"),
                    ),
                );
                continue;
            };
            let unmet = t.requirements.unmet_by(&stats);
            if !unmet.is_empty() {
                let what = |l: usize, name: &dyn Fn(WtStat) -> String| {
                    unmet
                        .iter()
                        .map(|s| format!("{} {} < {}", name(*s), stats.get(*s), t.requirements.get(*s)))
                        .collect::<Vec<_>>()
                        .join(if l == 3 { ", " } else { "、" })
                };
                v(
                    &path,
                    "WT-CC-7",
                    say_each(|l| {
                        let named = what(l, &|s: WtStat| pick(&s.label(), l).to_string());
                        match l {
                            0 => format!("{}の装備条件を満たしていません：{named}", trig(id, l)),
                            1 => format!("未满足{}的装备条件：{named}", trig(id, l)),
                            2 => format!("未滿足{}的裝備條件：{named}", trig(id, l)),
                            _ => format!("{id} needs {}", what(l, &|s: WtStat| s.key().to_string())),
                        }
                    }),
                );
            }
            match t.kind {
                WtTriggerKind::DedicatedOption => {
                    let base = t.base.as_deref().unwrap_or("");
                    if !list.iter().any(|x| x == base) {
                        v(
                            &path,
                            "WT-TRG-6",
                            say_each(|l| match l {
                                0 => format!(
                                    "{}は本体のトリガー{}と同じ側に入れてください",
                                    trig(id, l),
                                    trig(base, l)
                                ),
                                1 => format!("{}必须与其本体触发器{}装在同一侧", trig(id, l), trig(base, l)),
                                2 => format!("{}必須與其本體觸發器{}裝在同一側", trig(id, l), trig(base, l)),
                                _ => format!("{id} must be on the same side as its base trigger {base}"),
                            }),
                        );
                    }
                }
                WtTriggerKind::GeneralOption => {
                    let has_trigger =
                        list.iter().filter_map(|x| pack.trigger(x)).any(|x| x.kind == WtTriggerKind::Trigger);
                    if !has_trigger {
                        v(
                            &path,
                            "WT-TRG-7",
                            say_each(|l| match l {
                                0 => format!("{}は同じ側に組み合わせるトリガーが必要です", trig(id, l)),
                                1 => format!("{}需要同一侧有可组合的触发器", trig(id, l)),
                                2 => format!("{}需要同一側有可組合的觸發器", trig(id, l)),
                                _ => format!("{id} needs a trigger on its side to combine with"),
                            }),
                        );
                    }
                }
                WtTriggerKind::Trigger => {}
            }
        }
        // WT-CC-7: one main slot (any of the four) holds a trigger of the position's type.
        if side == WtSide::Main {
            let types = &pos.main_trigger_types;
            let has_position_trigger = list
                .iter()
                .filter_map(|x| pack.trigger(x))
                .any(|t| t.kind == WtTriggerKind::Trigger && types.contains(&t.trigger_type));
            if !has_position_trigger {
                let p = &pos.label;
                let pk = sheet.position.key();
                let names = |l: usize| {
                    list.iter()
                        .take(4 * SLOTS_PER_SIDE)
                        .map(|x| if l == 3 { excerpt(x).into_owned() } else { trig(x, l) })
                        .collect::<Vec<_>>()
                        .join(if l == 3 { ", " } else { "、" })
                };
                let empty = list.is_empty();
                v(
                    "sheet.triggers.main",
                    "WT-CC-7",
                    say_each(|l| {
                        match (l, empty) {
                        (0, true) => format!(
                            "{}のメイントリガーのいずれか1枠に{}トリガーが必要です（メイントリガーの1枠目が空です）",
                            pick(p, l),
                            types_text(types, l)
                        ),
                        (0, false) => format!(
                            "{}のメイントリガーのいずれか1枠に{}トリガーが必要です（{}はどれも該当しません）",
                            pick(p, l),
                            types_text(types, l),
                            names(l)
                        ),
                        (1, true) => format!(
                            "{}的主要触发器须有一个栏位为{}触发器（主要触发器的第一个栏位是空的）",
                            pick(p, l),
                            types_text(types, l)
                        ),
                        (1, false) => format!(
                            "{}的主要触发器须有一个栏位为{}触发器（{}都不是）",
                            pick(p, l),
                            types_text(types, l),
                            names(l)
                        ),
                        (2, true) => format!(
                            "{}的主要觸發器須有一個欄位為{}觸發器（主要觸發器的第一個欄位是空的）",
                            pick(p, l),
                            types_text(types, l)
                        ),
                        (2, false) => format!(
                            "{}的主要觸發器須有一個欄位為{}觸發器（{}都不是）",
                            pick(p, l),
                            types_text(types, l),
                            names(l)
                        ),
                        (_, true) => format!(
                            "one main slot must hold a {} trigger for position {pk}; the first main slot is empty",
                            types.join("/")
                        ),
                        (_, false) => format!(
                            "one main slot must hold a {} trigger for position {pk}; none of {} is one",
                            types.join("/"),
                            names(l)
                        ),
                    }
                    }),
                );
            }
        }
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    // WT-CC-8: trigger skills of the equipped triggers, split by requirement.
    let mut trigger_skills = Vec::new();
    let mut unavailable = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for id in sheet.triggers.main.iter().chain(&sheet.triggers.sub) {
        if seen.contains(&id.as_str()) {
            continue;
        }
        seen.push(id);
        let Some(t) = pack.trigger(id) else { continue };
        let mut sides = Vec::new();
        if sheet.triggers.main.contains(id) {
            sides.push(WtSide::Main);
        }
        if sheet.triggers.sub.contains(id) {
            sides.push(WtSide::Sub);
        }
        for s in &t.skills {
            let g = grant(Some(id), sides.clone(), s, &stats);
            if g.missing.is_empty() {
                trigger_skills.push(g);
            } else {
                unavailable.push(g);
            }
        }
    }
    let basic_commands = pack
        .basic_commands
        .iter()
        .map(|s| grant(None, Vec::new(), s, &stats))
        .filter(|g| g.missing.is_empty())
        .collect();
    Ok(WtCharacter {
        name: sheet.name.clone(),
        position: sheet.position,
        derived: derived_stats(&stats, sheet.triggers.filled()),
        stats,
        leader: sheet.leader,
        master: sheet.master.clone(),
        traits: sheet.traits.clone(),
        triggers: sheet.triggers.clone(),
        trigger_skills,
        unavailable_skills: unavailable,
        basic_commands,
        position_skill: grant(None, Vec::new(), &pos.skill, &stats),
    })
}

/// Arguments of `world_trigger.create_character`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtCreateCharacterArgs {
    /// The sheet (validated as untrusted data).
    #[schemars(with = "WtSheet")]
    pub sheet: Value,
    /// A data pack; default the bundled sample pack (illustrative).
    #[serde(default)]
    #[schemars(with = "Option<super::data::WtDataPack>")]
    pub data: Option<Value>,
}

/// `world_trigger.create_character` — validate a combatant sheet against every
/// creation rule and compute its final stats, derived stats and skills.
/// Violations are one `invalid_data` error whose message lists every
/// violation as `[RULE] path: message` (field and rule are the first one's).
pub fn create_character(args: &WtCreateCharacterArgs) -> Result<WtCharacter> {
    let pack = load_pack(args.data.as_ref())?;
    read_sheet::<WtSheet>(&args.sheet, SHEET_FIELDS, "WT-CC-0")
        .and_then(|sheet| build_character(&sheet, &pack))
        .map_err(|bad| violations_error("sheet", &bad))
}

/// Arguments of `world_trigger.validate_sheet`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtValidateSheetArgs {
    /// The sheet to check.
    #[schemars(with = "WtSheet")]
    pub sheet: Value,
    /// A data pack; default the bundled sample pack.
    #[serde(default)]
    #[schemars(with = "Option<super::data::WtDataPack>")]
    pub data: Option<Value>,
}

/// `world_trigger.validate_sheet` — like `create_character`, but returns the
/// list of violations (`{path, rule, message}`) instead of failing.
pub fn validate_sheet(args: &WtValidateSheetArgs) -> Result<super::data::WtValidationResult> {
    let pack = load_pack(args.data.as_ref())?;
    let violations = read_sheet::<WtSheet>(&args.sheet, SHEET_FIELDS, "WT-CC-0")
        .and_then(|sheet| build_character(&sheet, &pack))
        .err()
        .unwrap_or_default();
    Ok(super::data::WtValidationResult::of(violations))
}

/// An operator sheet (WT-OP).
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOperatorSheet {
    /// Name, 1–200 characters.
    pub name: String,
    /// WT-OP-3: Trion, chosen freely from 1–8.
    pub trion: i64,
    /// WT-OP-4: the 5 points over the five non-Trion stats (a `trion` key must be 0).
    #[serde(default)]
    pub points: WtOperatorStats,
    /// WT-OP-5: the master's id (from the pack's `operator_masters`).
    pub master: String,
}

/// A created operator.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtOperator {
    /// Name.
    pub name: String,
    /// Final stats.
    pub stats: WtOperatorStats,
    /// Master id.
    pub master: String,
    /// WT-OP-6: operator skills whose requirements the stats meet (ids).
    pub operator_skills: Vec<String>,
    /// WT-OP-6: the same skills with their display names and requirements.
    #[serde(default)]
    pub operator_skill_details: Vec<WtOperatorSkillGrant>,
}

/// WT-OP-6: an operator skill the operator has.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtOperatorSkillGrant {
    /// Skill id.
    pub skill: String,
    /// Display name.
    pub label: WtLabel,
    /// The stat requirement (met).
    pub requirements: WtOperatorStats,
}

/// Build an operator (WT-OP-3…6); returns every violation.
pub fn build_operator(
    sheet: &WtOperatorSheet,
    pack: &WtDataPack,
) -> std::result::Result<WtOperator, Vec<WtViolation>> {
    let mut bad = Vec::new();
    if sheet.name.trim().is_empty() || sheet.name.chars().count() > 200 {
        bad.push(WtViolation::localized("sheet.name", "WT-OP-7", name_message()));
    }
    if !(1..=8).contains(&sheet.trion) {
        let t = sheet.trion;
        bad.push(WtViolation::localized(
            "sheet.trion",
            "WT-OP-3",
            say(
                format!("トリオン {t} は1〜8の範囲外です"),
                format!("触力能 {t} 不在1～8之间"),
                format!("觸力能 {t} 不在1～8之間"),
                format!("{t} is outside 1..=8"),
            ),
        ));
    }
    if sheet.points.trion != 0 {
        bad.push(WtViolation::localized(
            "sheet.points.trion",
            "WT-OP-4",
            WtLabel::new(
                "トリオンは点数を配分せず、1〜8から直接選びます",
                "触力能不分配点数，而是从1～8中直接选择",
                "觸力能不分配點數，而是從1～8中直接選擇",
                "Trion is chosen directly, not with points",
            ),
        ));
    }
    let mut stats = WtOperatorStats { trion: sheet.trion, ..Default::default() };
    let mut total = 0i64;
    for st in WtOperatorStat::ALL.into_iter().skip(1) {
        let p = sheet.points.get(st);
        total = total.saturating_add(p);
        let value = OPERATOR_BASE.saturating_add(p);
        let name = st.label();
        if p < 0 {
            bad.push(WtViolation::localized(
                format!("sheet.points.{}", st.key()),
                "WT-OP-4",
                negative_points(&name, p, "points can't be negative".to_string()),
            ));
        } else if value > OPERATOR_CAP {
            bad.push(WtViolation::localized(
                format!("sheet.points.{}", st.key()),
                "WT-OP-4",
                say_each(|l| match l {
                    0 => format!(
                        "{}：{OPERATOR_BASE} + {p} = {value} は上限 {OPERATOR_CAP} を超えています",
                        pick(&name, l)
                    ),
                    1 => format!(
                        "{}：{OPERATOR_BASE} + {p} = {value}，超过最大值 {OPERATOR_CAP}",
                        pick(&name, l)
                    ),
                    2 => format!(
                        "{}：{OPERATOR_BASE} + {p} = {value}，超過最大值 {OPERATOR_CAP}",
                        pick(&name, l)
                    ),
                    _ => format!("{OPERATOR_BASE} + {p} = {value} is above the cap {OPERATOR_CAP}"),
                }),
            ));
        }
        *stats.get_mut(st) = value;
    }
    if total != OPERATOR_POINTS {
        bad.push(WtViolation::localized(
            "sheet.points",
            "WT-OP-4",
            say(
                format!("{total}点が配分されています。ちょうど{OPERATOR_POINTS}点を配分してください"),
                format!("已分配 {total} 点，必须正好分配 {OPERATOR_POINTS} 点"),
                format!("已分配 {total} 點，必須正好分配 {OPERATOR_POINTS} 點"),
                format!("{total} points; exactly {OPERATOR_POINTS} are required"),
            ),
        ));
    }
    match pack.operator_masters.iter().find(|m| m.id == sheet.master) {
        Some(m) => *stats.get_mut(m.stat) = stats.get(m.stat).saturating_add(1),
        None => {
            let (m, q) = (excerpt(&sheet.master), quote(&sheet.master));
            bad.push(WtViolation::localized(
                "sheet.master",
                "WT-OP-5",
                say(
                    format!("データパックにオペレーターの師匠「{m}」がありません"),
                    format!("数据包中没有操作员师父“{m}”"),
                    format!("資料包中沒有操作員師父「{m}」"),
                    format!("no operator master {q} in the data pack"),
                ),
            ))
        }
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    let details: Vec<WtOperatorSkillGrant> = pack
        .operator_skills
        .iter()
        .filter(|s| WtOperatorStat::ALL.iter().all(|&st| stats.get(st) >= s.requirements.get(st)))
        .map(|s| WtOperatorSkillGrant {
            skill: s.id.clone(),
            label: s.label.clone(),
            requirements: s.requirements,
        })
        .collect();
    Ok(WtOperator {
        name: sheet.name.clone(),
        stats,
        master: sheet.master.clone(),
        operator_skills: details.iter().map(|g| g.skill.clone()).collect(),
        operator_skill_details: details,
    })
}

/// Arguments of `world_trigger.create_operator`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtCreateOperatorArgs {
    /// The operator sheet.
    #[schemars(with = "WtOperatorSheet")]
    pub sheet: Value,
    /// A data pack; default the bundled sample pack.
    #[serde(default)]
    #[schemars(with = "Option<super::data::WtDataPack>")]
    pub data: Option<Value>,
}

/// `world_trigger.create_operator` — validate an operator sheet (WT-OP-3…6) and compute its stats.
pub fn create_operator(args: &WtCreateOperatorArgs) -> Result<WtOperator> {
    let pack = load_pack(args.data.as_ref())?;
    read_sheet::<WtOperatorSheet>(&args.sheet, OPERATOR_FIELDS, "WT-OP-2")
        .and_then(|sheet| build_operator(&sheet, &pack))
        .map_err(|bad| violations_error("sheet", &bad))
}

/// `world_trigger.validate_operator` — like `create_operator`, but returns the list
/// of violations (`{path, rule, message, label}`) instead of failing (WT-OP-3…7).
pub fn validate_operator(args: &WtCreateOperatorArgs) -> Result<super::data::WtValidationResult> {
    let pack = load_pack(args.data.as_ref())?;
    let violations = read_sheet::<WtOperatorSheet>(&args.sheet, OPERATOR_FIELDS, "WT-OP-2")
        .and_then(|sheet| build_operator(&sheet, &pack))
        .err()
        .unwrap_or_default();
    Ok(super::data::WtValidationResult::of(violations))
}

/// WT-DER-1 + WT-COND-7: Movement after bonuses and leg loss (−4 per leg,
/// applied after increases), never below 0.
pub fn movement_with(mobility: i64, bonus: i64, conditions: &[WtCondition]) -> i64 {
    let legs = [WtCondition::LostRightLeg, WtCondition::LostLeftLeg]
        .iter()
        .filter(|c| conditions.contains(c))
        .count() as i64;
    base_movement(mobility).saturating_add(bonus).saturating_sub(LEG_PENALTY * legs).max(0)
}

/// Arguments of `world_trigger.movement`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtMovementArgs {
    /// The Mobility stat, 0–1000000.
    #[schemars(range(min = 0, max = 1000000))]
    pub mobility: i64,
    /// Held conditions (duplicates ignored).
    #[serde(default)]
    pub conditions: Vec<WtCondition>,
    /// Increase from basic actions / trigger commands (e.g. Full Move), applied before leg loss. Default 0.
    #[serde(default)]
    pub bonus: i64,
}

/// Result of `world_trigger.movement`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtMovementResult {
    /// The Movement.
    pub movement: i64,
    /// floor(Mobility ÷ 2) before bonus and penalties.
    pub base: i64,
    /// Movement lost to leg loss (4 per leg).
    pub leg_penalty: i64,
}

/// `world_trigger.movement` — Movement from Mobility, bonus and leg loss.
pub fn movement(args: &WtMovementArgs) -> Result<WtMovementResult> {
    if !(0..=MAX_STAT_ARG).contains(&args.mobility) {
        return Err(Error::out_of_range("mobility", format_args!("must be 0..={MAX_STAT_ARG}")));
    }
    if args.bonus.unsigned_abs() > MAX_STAT_ARG as u64 {
        return Err(Error::out_of_range("bonus", format_args!("must be within ±{MAX_STAT_ARG}")));
    }
    let m = movement_with(args.mobility, args.bonus, &args.conditions);
    let base = base_movement(args.mobility);
    let legs = [WtCondition::LostRightLeg, WtCondition::LostLeftLeg]
        .iter()
        .filter(|c| args.conditions.contains(c))
        .count() as i64;
    Ok(WtMovementResult { movement: m, base, leg_penalty: LEG_PENALTY * legs })
}

/// WT-COND-2…4: Trion lost in the Feedback phase (5 small, 10 large, 15 both).
pub fn feedback_trion_loss(conditions: &[WtCondition]) -> i64 {
    let mut loss = 0;
    if conditions.contains(&WtCondition::TrionLeakSmall) {
        loss += 5;
    }
    if conditions.contains(&WtCondition::TrionLeakLarge) {
        loss += 10;
    }
    loss
}

/// WT-COND-5/6: whether a trigger on `side` can't be used because the hand of
/// that side is lost (only hand-held triggers are affected). Unknown ids: false.
pub fn blocked_by_limb_loss(
    pack: &WtDataPack,
    trigger: &str,
    side: WtSide,
    conditions: &[WtCondition],
) -> bool {
    let lost = match side {
        WtSide::Main => WtCondition::LostDominantHand,
        WtSide::Sub => WtCondition::LostOffHand,
    };
    conditions.contains(&lost) && pack.trigger(trigger).is_some_and(|t| t.hand_held)
}

/// Arguments of `world_trigger.condition_effects`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtConditionEffectsArgs {
    /// Held conditions (duplicates ignored).
    pub conditions: Vec<WtCondition>,
}

/// A held condition with its display name.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtConditionInfo {
    /// Condition id.
    pub id: WtCondition,
    /// Display name.
    pub label: WtLabel,
}

/// Result of `world_trigger.condition_effects`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtConditionEffects {
    /// The distinct conditions, in id order, with labels.
    pub conditions: Vec<WtConditionInfo>,
    /// WT-COND-2…4: Trion lost in each Feedback phase.
    pub trion_loss_per_round: i64,
    /// WT-COND-7: Movement penalty (applied after increases).
    pub movement_penalty: i64,
    /// WT-COND-5/6: sides whose hand-held triggers can't be used.
    pub hand_held_blocked: Vec<WtSide>,
    /// WT-KO-4: the character has bailed out.
    pub bailed_out: bool,
    /// WT-COND-1: abnormal states are not recovered during a normal battle.
    pub recovers_in_battle: bool,
}

/// WT-COND-1…7: the combined effect of held conditions.
pub fn condition_effects_of(conditions: &[WtCondition]) -> WtConditionEffects {
    let mut ids: Vec<WtCondition> = conditions.to_vec();
    crate::small_sort::sort(&mut ids);
    ids.dedup();
    let mut hands = Vec::new();
    if ids.contains(&WtCondition::LostDominantHand) {
        hands.push(WtSide::Main);
    }
    if ids.contains(&WtCondition::LostOffHand) {
        hands.push(WtSide::Sub);
    }
    let legs =
        [WtCondition::LostRightLeg, WtCondition::LostLeftLeg].iter().filter(|c| ids.contains(c)).count()
            as i64;
    WtConditionEffects {
        trion_loss_per_round: feedback_trion_loss(&ids),
        movement_penalty: LEG_PENALTY * legs,
        hand_held_blocked: hands,
        bailed_out: ids.contains(&WtCondition::EmergencyBailout),
        recovers_in_battle: false,
        conditions: ids.into_iter().map(|id| WtConditionInfo { id, label: id.label() }).collect(),
    }
}

/// `world_trigger.condition_effects` — what held conditions do (WT-COND-1…7).
pub fn condition_effects(args: &WtConditionEffectsArgs) -> Result<WtConditionEffects> {
    if args.conditions.len() > 1000 {
        return Err(Error::limit("conditions", "at most 1000 entries"));
    }
    Ok(condition_effects_of(&args.conditions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn garbage_sheets_never_panic() {
        for sheet in [
            json!(null),
            json!({}),
            json!({"name": "", "position": "attacker", "master": ""}),
            json!({"name": "x", "position": "attacker", "master": "m", "points": {"trion": i64::MAX, "attack": i64::MAX},
                   "traits": vec!["a"; 50], "triggers": {"main": vec!["x"; 100], "sub": [""]}}),
            json!({"name": "x", "position": "attacker", "master": "m", "points": {"trion": i64::MIN}}),
        ] {
            let _ = crate::call("world_trigger.create_character", json!({ "sheet": sheet.clone() }));
            let _ = crate::call("world_trigger.validate_sheet", json!({ "sheet": sheet.clone() }));
            let _ = crate::call("world_trigger.create_operator", json!({ "sheet": sheet }));
        }
        for v in [
            json!({"mobility": i64::MAX}),
            json!({"mobility": 5, "bonus": i64::MIN}),
            json!({"conditions": [1]}),
        ] {
            let _ = crate::call("world_trigger.movement", v.clone());
            let _ = crate::call("world_trigger.condition_effects", v);
        }
    }

    #[test]
    fn sheet_violations_speak_the_players_languages() {
        // WT-CC-5, WT-CC-3, WT-CC-7, WT-OP-4: every problem a player fixes on a sheet
        // carries ja / zh-Hans / zh-Hant / en text, English equal to `message`.
        let sheet = json!({"name": "", "position": "all_rounder", "master": "nobody",
            "points": {"trion": 9, "attack": 1}, "traits": ["missing_trait"],
            "triggers": {"main": ["shield"], "sub": ["not_a_trigger"]}});
        let r = validate_sheet(&WtValidateSheetArgs { sheet, data: None }).unwrap();
        assert!(r.violations.len() >= 5, "{:?}", r.violations);
        for v in &r.violations {
            let l = v.label.as_ref().unwrap_or_else(|| panic!("no label: {v:?}"));
            assert_eq!(l.en, v.message);
            for text in [&l.ja, &l.zh_hans, &l.zh_hant] {
                assert!(!text.is_empty() && text != &l.en, "{v:?}");
            }
        }
        let cap = r.violations.iter().find(|v| v.path == "sheet.points.trion").unwrap();
        let l = cap.label.as_ref().unwrap();
        // The All-rounder's cap 8 (WT-CC-5), in the rulebook's terms.
        assert!(
            l.zh_hant.contains("觸力能") && l.zh_hant.contains("萬能手") && l.zh_hant.contains('8'),
            "{l:?}"
        );
        assert!(l.ja.contains("トリオン") && l.ja.contains('8'), "{l:?}");
        let op = json!({"name": "o", "trion": 9, "points": {"tactics": 7}, "master": "x"});
        let sheet: WtOperatorSheet = serde_json::from_value(op).unwrap();
        let bad = build_operator(&sheet, super::super::data::sample_pack().unwrap()).unwrap_err();
        assert!(bad.iter().all(|v| v.label.as_ref().is_some_and(|l| l.ja != l.en)), "{bad:?}");
        assert!(bad.iter().any(|v| v.label.as_ref().unwrap().zh_hans.contains("战术")), "{bad:?}");
    }

    #[test]
    fn violations_quote_a_short_prefix_of_long_input() {
        // A 1 MB `master` once came back in each of the five texts of its violation.
        let big = "m".repeat(1_000_000);
        let key = "k".repeat(1_000_000);
        let sheet = json!({"name": "n", "position": "attacker", "master": big,
            "traits": [big], "triggers": {"main": [big, big], "sub": [big]}});
        let mut with_key = serde_json::Map::new();
        with_key.insert(key, json!(1));
        let answers = [
            crate::call("world_trigger.validate_sheet", json!({ "sheet": sheet.clone() })).unwrap(),
            crate::call("world_trigger.validate_sheet", json!({ "sheet": with_key.clone() })).unwrap(),
            crate::call(
                "world_trigger.validate_operator",
                json!({"sheet": {"name": "o", "trion": 3, "master": big}}),
            )
            .unwrap(),
            crate::call("world_trigger.validate_data", json!({ "data": with_key })).unwrap(),
        ];
        for r in &answers {
            assert_eq!(r["valid"], false, "{}", &r.to_string()[..300]);
            let text = r.to_string();
            assert!(text.len() < 20_000, "{} bytes", text.len());
        }
        let master =
            answers[0]["violations"].as_array().unwrap().iter().find(|v| v["path"] == "sheet.master");
        let master = master.expect("a master violation");
        let shown = "m".repeat(crate::error::QUOTED_CHARS);
        assert_eq!(master["message"], format!("no master \"{shown}\"… in the data pack"));
        assert_eq!(master["label"]["ja"], format!("データパックに師匠「{shown}…」がありません"));
        // A 1 MB unknown key: its path and message show its first 40 characters.
        let unknown = &answers[1]["violations"].as_array().unwrap()[0];
        assert_eq!(unknown["path"], format!("sheet.{}…", "k".repeat(40)));
        let m = unknown["message"].as_str().unwrap();
        assert!(m.contains(&format!(": unknown field `{}…`, expected", "k".repeat(40))), "{}", &m[..300]);
        assert!(m.chars().count() <= crate::error::MAX_MESSAGE_CHARS + 1, "{} chars", m.chars().count());
        // create_character's error is bounded the same way (Error::bounded at the entry point).
        let e =
            crate::call_json("world_trigger.create_character", &json!({ "sheet": sheet }).to_string(), None);
        assert!(e.len() < 20_000 && e.contains("\"error\""), "{} bytes", e.len());
    }

    #[test]
    fn limb_loss_blocks_hand_held_triggers_on_its_side() {
        let pack = super::super::data::sample_pack().unwrap();
        let c = [WtCondition::LostDominantHand];
        // WT-COND-5: Kogetsu (hand-held in the sample pack) is blocked on the main side only.
        assert!(blocked_by_limb_loss(pack, "kogetsu", WtSide::Main, &c));
        assert!(!blocked_by_limb_loss(pack, "kogetsu", WtSide::Sub, &c));
        assert!(!blocked_by_limb_loss(pack, "shield", WtSide::Main, &c));
        // WT-COND-6: the off hand blocks the sub side.
        assert!(blocked_by_limb_loss(pack, "lightning", WtSide::Sub, &[WtCondition::LostOffHand]));
    }

    #[test]
    fn flavour_rules_documented() {
        // WT-CC-4 (stat descriptions), WT-OP-1/2 (operators don't fight; stat
        // descriptions) and WT-OP-8 (one operator action per round, battle
        // engine) are descriptive: the stat keys below are the whole of WT-CC-4 / WT-OP-2.
        assert_eq!(WtStat::ALL.len(), 8);
        assert_eq!(WtOperatorStat::ALL.len(), 6);
        // WT-DER-4: the Trion pool is both HP and MP: damage and burst both spend it
        // (damage.rs subtracts from the same value derived_stats starts from).
        let d = derived_stats(&WtStats { trion: 5, ..Default::default() }, 3);
        assert_eq!((d.base_trion, d.starting_trion), (90, 75));
    }
}
