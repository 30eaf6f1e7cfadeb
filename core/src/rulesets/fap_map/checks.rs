//! Stand-alone rules: pools (FM-AP-2), the evasion check (FM-DEF-2), jump
//! evasion damage (FM-ACT-16), jump distances (FM-ACT-9), move distance
//! (FM-ACT-7), block contests (FM-ACT-8, FM-ACT-12) and break-free modifiers
//! (FM-ACT-13).

use super::points::{self, MAX_TENTHS};
use crate::dice::Roll;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Largest character stat accepted (Reaction, Magic, Strength, Agility, Movement, Evasion).
pub const MAX_STAT: i64 = 1000;
/// Largest damage accepted by `jump_evasion`.
pub const MAX_DAMAGE: i64 = 1_000_000_000;

pub(crate) fn stat(field: &str, v: i64) -> Result<i64> {
    if !(0..=MAX_STAT).contains(&v) {
        return Err(Error::out_of_range(field, format_args!("must be 0..={MAX_STAT}")));
    }
    Ok(v)
}

fn signed(field: &str, v: i64, max: i64) -> Result<i64> {
    if !(-max..=max).contains(&v) {
        return Err(Error::out_of_range(field, format_args!("must be -{max}..={max}")));
    }
    Ok(v)
}

// ---------------------------------------------------------------- pools

/// Special traits that change the pools (FM-AP-2 "unless a special trait says otherwise").
/// The rulebook defines no traits, so the caller states their effect.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmPoolTraits {
    /// Replace FAP by this amount (tenths) instead of Reaction × 10.
    #[serde(default)]
    pub fap_tenths: Option<i64>,
    /// Replace MAP by this amount (tenths) instead of Magic × 10.
    #[serde(default)]
    pub map_tenths: Option<i64>,
    /// Add this (tenths, may be negative) to FAP after any replacement; default 0.
    #[serde(default)]
    pub fap_bonus_tenths: i64,
    /// Add this (tenths, may be negative) to MAP after any replacement; default 0.
    #[serde(default)]
    pub map_bonus_tenths: i64,
}

/// Arguments of `fap_map.pools`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmPoolsArgs {
    /// 反応力 Reaction, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub reaction: i64,
    /// 魔力 Magic power, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub magic: i64,
    /// Trait effects, if any.
    #[serde(default)]
    pub traits: Option<FmPoolTraits>,
}

/// Result of `fap_map.pools`: the per-round caps.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmPoolsResult {
    /// FAP in tenths (authoritative).
    pub fap_tenths: i64,
    /// MAP in tenths (authoritative).
    pub map_tenths: i64,
    /// FAP as a decimal number (`fap_tenths / 10`, display only).
    pub fap: f64,
    /// MAP as a decimal number (`map_tenths / 10`, display only).
    pub map: f64,
}

/// Compute the pools in tenths (shared by `pools` and the round engine).
pub(crate) fn pool_tenths(reaction: i64, magic: i64, traits: Option<&FmPoolTraits>) -> Result<(i64, i64)> {
    stat("reaction", reaction)?;
    stat("magic", magic)?;
    let t = traits.cloned().unwrap_or_default();
    let fap = match t.fap_tenths {
        Some(v) => points::check_amount("traits.fap_tenths", v)?,
        None => reaction * 10,
    };
    let map = match t.map_tenths {
        Some(v) => points::check_amount("traits.map_tenths", v)?,
        None => magic * 10,
    };
    let fb = signed("traits.fap_bonus_tenths", t.fap_bonus_tenths, MAX_TENTHS)?;
    let mb = signed("traits.map_bonus_tenths", t.map_bonus_tenths, MAX_TENTHS)?;
    let fap = (fap + fb).clamp(0, MAX_TENTHS);
    let map = (map + mb).clamp(0, MAX_TENTHS);
    Ok((fap, map))
}

/// `fap_map.pools` — FM-AP-1 / FM-AP-2: FAP = Reaction, MAP = Magic power unless
/// a trait says otherwise (results never below 0).
pub fn pools(args: &FmPoolsArgs) -> Result<FmPoolsResult> {
    let (fap, map) = pool_tenths(args.reaction, args.magic, args.traits.as_ref())?;
    Ok(FmPoolsResult {
        fap_tenths: fap,
        map_tenths: map,
        fap: points::decimal(fap),
        map: points::decimal(map),
    })
}

// ---------------------------------------------------------------- evasion check

/// Arguments of `fap_map.evasion_check`.
///
/// `rolls`: Scripted faces: the two d6, in order.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmEvasionCheckArgs {
    /// 回避 Evasion, -1000..=1000.
    pub evasion: i64,
    /// The target value to exceed, -1000..=10000 (its source is in the missing Chapter 2).
    pub target: i64,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `fap_map.evasion_check`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmEvasionCheckResult {
    /// The two d6 faces.
    pub faces: Vec<u32>,
    /// Evasion + 2D6.
    pub total: i64,
    /// True when `total > target` (strictly): the attack misses.
    pub success: bool,
    /// `total - target` (positive on a success).
    pub margin: i64,
    /// Every die rolled (in a round event: none; the round's result lists them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Roll>,
}

/// `fap_map.evasion_check` — FM-DEF-2: the attack misses (no damage) if
/// Evasion + 2D6 **exceeds** the target value; a tie fails (RULINGS).
/// Scripted dice: two d6, in order. Used by Evade (FM-ACT-14) and Jump evasion (FM-ACT-16).
pub fn evasion_check(args: &FmEvasionCheckArgs) -> Result<FmEvasionCheckResult> {
    signed("evasion", args.evasion, MAX_STAT)?;
    if !(-1000..=10_000).contains(&args.target) {
        return Err(Error::out_of_range("target", "must be -1000..=10000"));
    }
    let mut dice = args.source.dice()?;
    let mut r = evasion_roll(args.evasion, args.target, &mut dice)?;
    r.rolls = dice.take_rolls();
    Ok(r)
}

/// FM-DEF-2 with the caller's dice (the round's Evade and Jump evasion): two d6;
/// `rolls` is left empty (the dice keep them). Inputs already in range.
pub(crate) fn evasion_roll(
    evasion: i64,
    target: i64,
    dice: &mut crate::dice::Dice,
) -> Result<FmEvasionCheckResult> {
    let a = dice.roll(6)?;
    let b = dice.roll(6)?;
    let total = evasion + i64::from(a) + i64::from(b);
    Ok(FmEvasionCheckResult {
        faces: vec![a, b],
        total,
        success: total > target,
        margin: total - target,
        rolls: Vec::new(),
    })
}

// ---------------------------------------------------------------- jump evasion

/// Arguments of `fap_map.jump_evasion`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmJumpEvasionArgs {
    /// Damage before the reduction, 0..=10^9.
    #[schemars(range(min = 0, max = 1000000000))]
    pub damage: i64,
    /// Whether the evasion check succeeded (see `fap_map.evasion_check`).
    pub success: bool,
    /// 成功度 degree of success, 0..=1000; required for a success that stays in the area.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1000))]
    pub degree: Option<i64>,
    /// Whether the jump carried the character out of the attack's area (only matters on a success); default false.
    #[serde(default)]
    pub left_area: bool,
    /// 筋力 Strength, 0..=1000: if given, the result includes the jump height (Strength − 3) × 25 cm.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1000))]
    pub strength: Option<i64>,
}

/// Which case of FM-ACT-16 applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FmJumpEvasionBranch {
    /// Success and out of the area: no damage.
    LeftArea,
    /// Success but still in the area: damage × (1 − 0.2 × (degree + 1)), rounded up, not below 0.
    Reduced,
    /// Failure: damage × 0.9, rounded up.
    Failed,
}

/// Result of `fap_map.jump_evasion`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmJumpEvasionResult {
    /// Damage the character takes.
    pub damage_taken: i64,
    /// Which case applied.
    pub branch: FmJumpEvasionBranch,
    /// The reduction applied, in percent of the damage (100 = all of it; capped at 100).
    pub reduction_percent: i64,
    /// Always true: an Agility check follows, and failing it the character falls prone (RULINGS).
    pub agility_check_required: bool,
    /// The jump height (Strength − 3) × 25 cm, not below 0, when `strength` was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump_cm: Option<i64>,
    /// The arithmetic with the numbers (`ceil(17 × 60%) = 11`).
    pub formula: String,
}

/// `fap_map.jump_evasion` — FM-ACT-16 (costs 1 FAP, FM-LIM-1 cap). Success and out
/// of the area: 0 damage. Success in the area: `ceil(D × (1 − 0.2 × (SD + 1)))`,
/// never below 0 (degree ≥ 4 takes 0). Failure: `ceil(D × 0.9)`. Exact integer
/// arithmetic: `ceil(D × (4 − SD) / 5)` and `ceil(9D / 10)`.
pub fn jump_evasion(args: &FmJumpEvasionArgs) -> Result<FmJumpEvasionResult> {
    if !(0..=MAX_DAMAGE).contains(&args.damage) {
        return Err(Error::out_of_range("damage", format_args!("must be 0..={MAX_DAMAGE}")));
    }
    let jump_cm = match args.strength {
        Some(s) => Some(((stat("strength", s)? - 3) * 25).max(0)),
        None => None,
    };
    if let Some(d) = args.degree {
        stat("degree", d)?;
    }
    let d = args.damage;
    let (damage_taken, branch, reduction_percent) = if !args.success {
        ((9 * d + 9) / 10, FmJumpEvasionBranch::Failed, 10)
    } else if args.left_area {
        (0, FmJumpEvasionBranch::LeftArea, 100)
    } else {
        let sd = args.degree.ok_or_else(|| {
            Error::invalid("degree", "required when the check succeeded but the character stayed in the area")
        })?;
        let keep = 4 - sd; // fifths of the damage kept
        let taken = if keep <= 0 { 0 } else { (d * keep + 4) / 5 };
        (taken, FmJumpEvasionBranch::Reduced, (20 * (sd + 1)).min(100))
    };
    let formula = match branch {
        FmJumpEvasionBranch::LeftArea => "left the area: no damage".to_string(),
        _ => format!("ceil({d} × {}%) = {damage_taken}", 100 - reduction_percent),
    };
    Ok(FmJumpEvasionResult {
        damage_taken,
        branch,
        reduction_percent,
        agility_check_required: true,
        jump_cm,
        formula,
    })
}

// ---------------------------------------------------------------- jumps and moves

/// Arguments of `fap_map.high_jump` and `fap_map.long_jump`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmJumpArgs {
    /// 筋力 Strength, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub strength: i64,
    /// High jump: made right after moving 4 m or more. Long jump: made right after a
    /// run-up of 30 cm per metre of intended distance. Default false.
    #[serde(default)]
    pub run_up: bool,
}

/// Result of `fap_map.high_jump` / `fap_map.long_jump` (before the encumbrance
/// modifier, whose values are missing from the rulebook).
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmJumpResult {
    /// Distance in centimetres (may end in .5 for high jumps).
    pub cm: f64,
    /// Distance in whole millimetres (exact).
    pub mm: i64,
    /// The formula applied, with the numbers.
    pub formula: String,
}

/// `fap_map.high_jump` — FM-ACT-9: Strength × 7.5 − 25 cm, +60 cm right after
/// moving ≥ 4 m; not below 0 (a negative height means no jump).
pub fn high_jump(args: &FmJumpArgs) -> Result<FmJumpResult> {
    let s = stat("strength", args.strength)?;
    let bonus = if args.run_up { 600 } else { 0 };
    let mm = (s * 75 - 250 + bonus).max(0);
    let formula = format!("{s} × 7.5 − 25{} cm", if args.run_up { " + 60" } else { "" });
    Ok(FmJumpResult { cm: mm as f64 / 10.0, mm, formula })
}

/// `fap_map.long_jump` — FM-ACT-9: (Strength − 3) × 30 cm, doubled right after a
/// run-up; not below 0.
pub fn long_jump(args: &FmJumpArgs) -> Result<FmJumpResult> {
    let s = stat("strength", args.strength)?;
    let mult = if args.run_up { 2 } else { 1 };
    let mm = ((s - 3) * 300 * mult).max(0);
    let formula = format!("({s} − 3) × 30{} cm", if args.run_up { " × 2" } else { "" });
    Ok(FmJumpResult { cm: mm as f64 / 10.0, mm, formula })
}

/// Arguments of `fap_map.move_distance`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmMoveDistanceArgs {
    /// 移動力 Movement, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub movement: i64,
}

/// Result of `fap_map.move_distance`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmMoveDistanceResult {
    /// Maximum distance of one Move, in metres.
    pub metres: f64,
    /// The same in whole centimetres (exact).
    pub cm: i64,
}

/// `fap_map.move_distance` — FM-ACT-7: one Move covers up to Movement × 4 ÷ 10 m.
pub fn move_distance(args: &FmMoveDistanceArgs) -> Result<FmMoveDistanceResult> {
    let m = stat("movement", args.movement)?;
    let cm = m * 40;
    Ok(FmMoveDistanceResult { metres: cm as f64 / 100.0, cm })
}

// ---------------------------------------------------------------- block contest

/// What is being blocked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FmBlockKind {
    /// 移動阻止 Block movement (FM-ACT-8).
    #[default]
    Move,
    /// 攻撃阻止 Block attack (FM-ACT-12).
    Attack,
}

/// Arguments of `fap_map.block_contest`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmBlockContestArgs {
    /// Block movement or block attack; default `move`.
    #[serde(default)]
    pub kind: FmBlockKind,
    /// FAP the blocker spends, in tenths (at least 10 = 1 FAP).
    pub blocker_fap_tenths: i64,
    /// FAP the blocked character spends to resist, in tenths (0 or more; default 0, as in `round_act`).
    #[serde(default)]
    pub target_fap_tenths: i64,
    /// 相対T値 relative T value, in tenths (may be negative; its chapter is missing). Default 0.
    #[serde(default)]
    pub relative_t_tenths: i64,
}

/// Who wins a block contest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FmBlockWinner {
    /// The block holds: the move ends / the attack is negated.
    Blocker,
    /// The block is cancelled.
    Target,
}

/// Result of `fap_map.block_contest`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmBlockContestResult {
    /// Who wins.
    pub winner: FmBlockWinner,
    /// True when the block holds (the move ends or the attack is negated).
    pub block_holds: bool,
    /// The target's FAP spent + relative T value, in tenths.
    pub target_total_tenths: i64,
    /// The same as a decimal number.
    pub target_total: f64,
    /// The blocker's FAP spent, as a decimal number.
    pub blocker_fap: f64,
}

/// The contest itself (shared with the round engine).
pub(crate) fn block_outcome(blocker: i64, target: i64, rel_t: i64) -> FmBlockContestResult {
    let total = target + rel_t;
    let holds = total < blocker;
    FmBlockContestResult {
        winner: if holds { FmBlockWinner::Blocker } else { FmBlockWinner::Target },
        block_holds: holds,
        target_total_tenths: total,
        target_total: points::decimal(total),
        blocker_fap: points::decimal(blocker),
    }
}

/// Rule ID of a block kind.
pub(crate) fn block_rule(kind: FmBlockKind) -> &'static str {
    match kind {
        FmBlockKind::Move => "FM-ACT-8",
        FmBlockKind::Attack => "FM-ACT-12",
    }
}

/// `fap_map.block_contest` — FM-ACT-8 / FM-ACT-12: the blocker spends at least 1
/// FAP (FM-LIM-4); the target cancels the block if its FAP spent + relative T
/// value ≥ the blocker's FAP spent (RULINGS: "offsets" = at least equal).
pub fn block_contest(args: &FmBlockContestArgs) -> Result<FmBlockContestResult> {
    points::check_amount("blocker_fap_tenths", args.blocker_fap_tenths)?;
    points::check_amount("target_fap_tenths", args.target_fap_tenths)?;
    signed("relative_t_tenths", args.relative_t_tenths, MAX_TENTHS)?;
    if args.blocker_fap_tenths < 10 {
        return Err(Error::illegal(
            "FM-LIM-4",
            format_args!("{}: the blocker must spend at least 1 FAP", block_rule(args.kind)),
        ));
    }
    Ok(block_outcome(args.blocker_fap_tenths, args.target_fap_tenths, args.relative_t_tenths))
}

// ---------------------------------------------------------------- shake off

/// Arguments of `fap_map.shake_off`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FmShakeOffArgs {
    /// The escaping character's 筋力 Strength, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub strength: i64,
    /// The escaping character's 敏捷力 Agility, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub agility: i64,
    /// The holder's Strength, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub holder_strength: i64,
    /// The holder's Agility, 0..=1000.
    #[schemars(range(min = 0, max = 1000))]
    pub holder_agility: i64,
    /// How many times the escaper's size doubles the holder's (negative if smaller), -20..=20; default 0.
    #[serde(default)]
    pub size_doublings: i64,
    /// The escaper's free arms minus the holder's, -20..=20; default 0.
    #[serde(default)]
    pub free_arm_difference: i64,
}

/// Which attribute a side uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FmAttribute {
    /// 筋力 Strength.
    Strength,
    /// 敏捷力 Agility.
    Agility,
}

/// One modifier of the break-free contest.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmModifier {
    /// What it is for (`automatic`, `size`, `free_arms`).
    pub reason: String,
    /// Its value.
    pub value: i64,
}

/// Result of `fap_map.shake_off`: the two sides of the quick contest.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FmShakeOffResult {
    /// The attribute the escaper uses (the higher; Strength on a tie).
    pub attribute: FmAttribute,
    /// Its value.
    pub base: i64,
    /// The modifiers applied to the escaper.
    pub modifiers: Vec<FmModifier>,
    /// Their sum.
    pub modifier: i64,
    /// The escaper's effective value: base + modifier.
    pub effective: i64,
    /// The attribute the holder uses.
    pub holder_attribute: FmAttribute,
    /// The holder's effective value (no modifiers).
    pub holder_effective: i64,
}

fn higher(strength: i64, agility: i64) -> (FmAttribute, i64) {
    if agility > strength {
        (FmAttribute::Agility, agility)
    } else {
        (FmAttribute::Strength, strength)
    }
}

/// `fap_map.shake_off` — FM-ACT-13 (break free, 4 FAP / 1 MAP): a quick contest,
/// each side using the higher of its Strength and Agility; the escaper takes −4,
/// +3 per size doubling and +3 per free arm of difference (RULINGS). The quick
/// contest's dice are not defined by the rulebook, so this returns the two values.
pub fn shake_off(args: &FmShakeOffArgs) -> Result<FmShakeOffResult> {
    let s = stat("strength", args.strength)?;
    let a = stat("agility", args.agility)?;
    let hs = stat("holder_strength", args.holder_strength)?;
    let ha = stat("holder_agility", args.holder_agility)?;
    let size = signed("size_doublings", args.size_doublings, 20)?;
    let arms = signed("free_arm_difference", args.free_arm_difference, 20)?;
    let (attribute, base) = higher(s, a);
    let (holder_attribute, holder_effective) = higher(hs, ha);
    let mut modifiers = vec![FmModifier { reason: "automatic".into(), value: -4 }];
    if size != 0 {
        modifiers.push(FmModifier { reason: "size".into(), value: 3 * size });
    }
    if arms != 0 {
        modifiers.push(FmModifier { reason: "free_arms".into(), value: 3 * arms });
    }
    let modifier: i64 = modifiers.iter().map(|m| m.value).sum();
    Ok(FmShakeOffResult {
        attribute,
        base,
        modifiers,
        modifier,
        effective: base + modifier,
        holder_attribute,
        holder_effective,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jump_evasion_exact_rounding() {
        let r = |d, sd| {
            jump_evasion(&FmJumpEvasionArgs {
                damage: d,
                success: true,
                degree: Some(sd),
                ..Default::default()
            })
            .unwrap()
            .damage_taken
        };
        assert_eq!(r(17, 1), 11); // ceil(10.2)
        assert_eq!(r(17, 0), 14); // ceil(13.6)
        assert_eq!(r(10, 3), 2);
        assert_eq!(r(17, 4), 0);
        assert_eq!(r(17, 1000), 0);
        assert_eq!(r(MAX_DAMAGE, 0), 800_000_000);
        let f =
            jump_evasion(&FmJumpEvasionArgs { damage: 17, success: false, ..Default::default() }).unwrap();
        assert_eq!(f.damage_taken, 16);
    }

    #[test]
    fn garbage_never_panics() {
        for v in [i64::MIN, -1, 0, 1, 3, 1000, 1001, i64::MAX] {
            let _ = pools(&FmPoolsArgs {
                reaction: v,
                magic: v,
                traits: Some(FmPoolTraits {
                    fap_tenths: Some(v),
                    map_tenths: Some(v),
                    fap_bonus_tenths: v,
                    map_bonus_tenths: v,
                }),
            });
            let _ = evasion_check(&FmEvasionCheckArgs {
                evasion: v,
                target: v,
                source: crate::dice::DiceArgs::seed(1),
            });
            let _ = jump_evasion(&FmJumpEvasionArgs {
                damage: v,
                success: true,
                degree: Some(v),
                left_area: false,
                strength: Some(v),
            });
            let _ = high_jump(&FmJumpArgs { strength: v, run_up: true });
            let _ = long_jump(&FmJumpArgs { strength: v, run_up: true });
            let _ = move_distance(&FmMoveDistanceArgs { movement: v });
            let _ = block_contest(&FmBlockContestArgs {
                kind: FmBlockKind::Attack,
                blocker_fap_tenths: v,
                target_fap_tenths: v,
                relative_t_tenths: v,
            });
            let _ = shake_off(&FmShakeOffArgs {
                strength: v,
                agility: v,
                holder_strength: v,
                holder_agility: v,
                size_doublings: v,
                free_arm_difference: v,
            });
        }
    }
}
