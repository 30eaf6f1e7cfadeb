//! `fap_map.sheet` — a FAP/MAP character's stats and pools: FAP = 反応力 and
//! MAP = 魔力 unless a trait says otherwise (FM-AP-2, `fap_map.pools`), one Move's
//! distance (FM-ACT-7), jump distances (FM-ACT-9) and the jump-evasion leap
//! (FM-ACT-16), from the stats the round engine and the checks read.

use crate::error::Result;
use crate::fap_map::checks::{self, FmJumpArgs, FmPoolTraits};
use crate::fap_map::points;
use crate::json::{FromJson, ToJson};
use crate::sheet::{check_name, l, SheetResult, SheetValue};

/// A FAP/MAP character sheet (every stat 0..=1000, as the checks accept).
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmSheet {
    /// Character name, 1–200 characters.
    #[serde(default)]
    pub name: String,
    /// 反応力 Reaction: FAP and the action order.
    #[serde(default)]
    pub reaction: i64,
    /// 魔力 Magic power: MAP.
    #[serde(default)]
    pub magic: i64,
    /// 敏捷力 Agility: breaks order ties.
    #[serde(default)]
    pub agility: i64,
    /// 筋力 Strength: jumps.
    #[serde(default)]
    pub strength: i64,
    /// 移動力 Movement: one Move's distance.
    #[serde(default)]
    pub movement: i64,
    /// 回避 Evasion: the evasion check.
    #[serde(default)]
    pub evasion: i64,
    /// Trait effects on the pools (FM-AP-2 "unless a special trait says otherwise").
    #[serde(default)]
    pub traits: Option<FmPoolTraits>,
}

/// Arguments of `fap_map.sheet`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmSheetArgs {
    /// The sheet.
    pub sheet: FmSheet,
}

fn cm(mm: i64) -> String {
    format!("{} cm", points::text(mm))
}

/// Result of `fap_map.sheet`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmSheetResult(pub SheetResult);

/// `fap_map.sheet` — validate a FAP/MAP sheet and give its pools (FM-AP-2), Move
/// distance (FM-ACT-7), jumps (FM-ACT-9) and jump-evasion leap (FM-ACT-16).
/// Values: pools in tenths of a point, distances in millimetres (`text` shows them).
pub fn sheet(args: &FmSheetArgs) -> Result<FmSheetResult> {
    let s = &args.sheet;
    let stats = [
        ("reaction", s.reaction, l("反応力", "反应力", "反應力", "Reaction")),
        ("magic", s.magic, l("魔力", "魔力", "魔力", "Magic power")),
        ("agility", s.agility, l("敏捷力", "敏捷力", "敏捷力", "Agility")),
        ("strength", s.strength, l("筋力", "筋力", "筋力", "Strength")),
        ("movement", s.movement, l("移動力", "移动力", "移動力", "Movement")),
        ("evasion", s.evasion, l("回避", "回避", "回避", "Evasion")),
    ];
    let mut values = Vec::new();
    for (id, v, label) in stats {
        checks::stat(&format!("sheet.{id}"), v)?;
        let mut sv = SheetValue::new(id, label, Some(v), "FM-AP-2");
        sv.rule = match id {
            "reaction" | "magic" => "FM-AP-2",
            "agility" => "FM-DEF-3",
            "movement" => "FM-ACT-7",
            "evasion" => "FM-DEF-2",
            _ => "FM-ACT-9",
        }
        .into();
        (sv.min, sv.max) = (Some(0), Some(checks::MAX_STAT));
        values.push(sv);
    }
    let (fap, map) = checks::pool_tenths(s.reaction, s.magic, s.traits.as_ref())?;
    let mut bad = Vec::new();
    check_name(&s.name, &mut bad);
    let pool = |id: &str, t: i64| {
        let n = id.to_uppercase();
        let mut v = SheetValue::new(id, l(&n, &n, &n, &n), Some(t), "FM-AP-2");
        v.text = points::text(t);
        v
    };
    let jump = |id: &str, label, r: checks::FmJumpResult| {
        let mut v = SheetValue::new(id, label, Some(r.mm), "FM-ACT-9");
        v.text = cm(r.mm);
        v
    };
    let st = s.strength;
    let mv = checks::move_distance(&checks::FmMoveDistanceArgs { movement: s.movement })?;
    let mut move_v = SheetValue::new(
        "move_distance",
        l("移動距離（1回）", "移动距离（1次）", "移動距離（1次）", "Move distance (one Move)"),
        Some(mv.cm * 10),
        "FM-ACT-7",
    );
    move_v.text = format!("{} m", points::text(mv.cm / 10));
    // FM-ACT-16: a jump evasion leaps (Strength − 3) × 25 cm (none below 3).
    let leap = ((st - 3) * 250).max(0);
    let mut leap_v = SheetValue::new(
        "jump_evasion",
        l("跳躍回避の距離", "跳跃回避距离", "跳躍回避距離", "Jump evasion leap"),
        Some(leap),
        "FM-ACT-16",
    );
    leap_v.text = cm(leap);
    let derived = vec![
        pool("fap", fap),
        pool("map", map),
        move_v,
        jump(
            "high_jump",
            l("高飛び", "跳高", "跳高", "High jump"),
            checks::high_jump(&FmJumpArgs { strength: st, run_up: false })?,
        ),
        jump(
            "long_jump",
            l("幅跳び", "跳远", "跳遠", "Long jump"),
            checks::long_jump(&FmJumpArgs { strength: st, run_up: false })?,
        ),
        leap_v,
    ];
    Ok(FmSheetResult(SheetResult::new(bad, values, derived, Vec::new())))
}
