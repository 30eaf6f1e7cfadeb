//! Damage, Trion Burst and special attacks (WT-DMG) and damage tables (WT-DT).
//!
//! [`roll_damage`] and [`roll_damage_table`] take an existing die source so
//! the battle engine can chain them after a hit check.

use super::data::{load_pack, WtDamageTableSide, WtDamageTier, WtSpecialAttack, WtSpecialAttackKind};
use super::types::{WtCondition, WtLabel};
use crate::dice::{Dice, Roll};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use serde_json::Value;

/// WT-DMG-4: the burst cap never exceeds 10.
pub const MAX_BURST: i64 = 10;
/// Largest |value| accepted for attack, modifier and damage arguments.
pub const MAX_DAMAGE_ARG: i64 = 1_000_000;
/// Most special-attack levels in one call.
pub const MAX_SPECIAL_ATTACKS: usize = 16;

/// RULINGS `special_attack_stacking`: how several applicable special attacks combine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtSpecialAttackStacking {
    /// Only the highest LV applies (default).
    #[default]
    Highest,
    /// All applicable LVs add up.
    Sum,
}

/// WT-DMG-5/6 + RULINGS: the special-attack bonus of several applicable LVs
/// (highest, or the sum under `special_attack_stacking = sum`). The same
/// number is the extra hit-check dice and the extra base damage.
pub fn special_attack_bonus(lvs: &[u32], stacking: WtSpecialAttackStacking) -> i64 {
    match stacking {
        WtSpecialAttackStacking::Highest => lvs.iter().copied().max().map(i64::from).unwrap_or(0),
        WtSpecialAttackStacking::Sum => lvs.iter().map(|&l| i64::from(l)).sum(),
    }
}

/// WT-DMG-6: whether a special attack works against this target: Upward against a
/// target at least 1 height level higher than the attacker, Downward at least 1
/// lower, Floating against a Floating target.
pub fn special_attack_applies(
    kind: WtSpecialAttackKind,
    attacker_height: i64,
    target_height: i64,
    target_floating: bool,
) -> bool {
    match kind {
        WtSpecialAttackKind::Upward => target_height.saturating_sub(attacker_height) >= 1,
        WtSpecialAttackKind::Downward => attacker_height.saturating_sub(target_height) >= 1,
        WtSpecialAttackKind::Floating => target_floating,
    }
}

/// WT-DMG-4: the most Trion a burst may add, min(Trion stat, 10).
pub fn burst_cap(trion_stat: i64) -> i64 {
    trion_stat.clamp(0, MAX_BURST)
}

/// One hit's damage inputs as the operations take them (`world_trigger.damage`,
/// `simulate_damage`, `damage_odds`): WT-DMG-1 Attack, WT-DMG-4 burst, WT-DMG-5
/// special-attack LVs, a modifier and the rule variants.
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtHitArgs {
    /// WT-DMG-1: the attacker's Attack stat (0–1000000).
    #[schemars(range(min = 0, max = 1000000))]
    pub attack: i64,
    /// WT-DMG-4: extra Trion paid (Trion Burst), declared before the roll;
    /// 0…min(trion_stat, 10). Default 0.
    #[serde(default)]
    pub burst: i64,
    /// The attacker's Trion stat (caps the burst). Default 0.
    #[serde(default)]
    pub trion_stat: i64,
    /// WT-DMG-5: LV of the special attack that applies (0 = none). Default 0.
    #[serde(default)]
    pub special_attack_lv: u32,
    /// LVs of further applicable special attacks, combined with `special_attack_lv`
    /// per `variants.special_attack_stacking`. Default empty.
    #[serde(default)]
    pub special_attack_lvs: Vec<u32>,
    /// Skill or other modifier added to the base damage (may be negative). Default 0.
    #[serde(default)]
    pub modifier: i64,
    /// Rule variants.
    #[serde(default)]
    pub variants: crate::world_trigger::types::WtVariants,
}

/// Arguments of `world_trigger.damage`.
///
/// `rolls`: Scripted faces: the single d6.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtDamageArgs {
    /// The hit: Attack, burst, Trion stat, special-attack LVs, modifier, variants.
    #[serde(flatten)]
    pub hit: WtHitArgs,
    /// WT-DMG-6: the skill's special attacks (kind and LV, as in the data pack); those
    /// that work against this target (from `attacker_height`, `target_height` and
    /// `target_floating`) join `special_attack_lv(s)`. Default empty. Here each LV may be
    /// 0–100 (like `special_attack_lv`; a data pack's skills keep LV 1–20), at most 16 entries.
    #[serde(default)]
    pub special_attacks: Vec<WtSpecialAttack>,
    /// WT-DMG-6: the attacker's height level (for Upward / Downward). Default 0.
    #[serde(default)]
    pub attacker_height: i64,
    /// WT-DMG-6: the target's height level. Default 0.
    #[serde(default)]
    pub target_height: i64,
    /// WT-DMG-6 / WT-ST-4: the target is Floating (for Floating special attacks). Default false.
    #[serde(default)]
    pub target_floating: bool,
    /// WT-TD-7 / WT-DMG-2: damage is not a check, so tactics dice can't be spent on it;
    /// only 0 is accepted (anything else is refused naming WT-TD-7). Default 0.
    #[serde(default)]
    pub tactics_dice: u32,
    /// WT-DMG-3: the target's current Trion, if known; the result then gives
    /// `target_trion_after` (current − total). Optional.
    #[serde(default)]
    pub target_trion: Option<i64>,
    /// WT-DMG-4 / WT-DER-4: the attacker's current Trion, if known; the result then
    /// gives `attacker_trion_after` (current − burst: the burst is paid from the pool).
    /// A burst may bring the pool to exactly 0 (the attacker then goes down, as at a
    /// battle's Feedback); a burst above the pool is refused (`illegal_action`,
    /// WT-DER-4), as in a battle. Optional.
    #[serde(default)]
    pub attacker_trion: Option<i64>,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `world_trigger.damage`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtDamageResult {
    /// attack + die + burst + special attack + modifier, never below 0.
    pub total: i64,
    /// WT-DMG-1: the attacker's Attack stat added.
    #[serde(default)]
    pub attack: i64,
    /// The d6.
    pub die: u32,
    /// Trion Burst added (also the extra Trion the attacker pays from its pool).
    pub burst: i64,
    /// Special-attack bonus added (WT-DMG-5: the hit check gets the same number of extra dice).
    pub special_attack: i64,
    /// WT-DMG-6: the entries of `special_attacks` that work against this target.
    #[serde(default)]
    pub applied_special_attacks: Vec<WtSpecialAttack>,
    /// Modifier added.
    pub modifier: i64,
    /// WT-DMG-3: the target's Trion after the hit (null without `target_trion`).
    pub target_trion_after: Option<i64>,
    /// WT-DMG-4: the attacker's Trion after paying the burst (null without `attacker_trion`).
    #[serde(default)]
    pub attacker_trion_after: Option<i64>,
    /// Dice rolled.
    pub rolls: Vec<Roll>,
}

/// A validated damage roll's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WtDamageInput {
    /// Attack stat.
    pub attack: i64,
    /// Burst (already checked against the cap).
    pub burst: i64,
    /// Special-attack bonus.
    pub special_attack: i64,
    /// Modifier.
    pub modifier: i64,
}

/// WT-DMG-1/4/5: roll damage = Attack + 1d6 + burst + special attack + modifier
/// (never below 0). Tactics dice never apply (WT-DMG-2, WT-TD-7).
pub fn roll_damage(dice: &mut Dice, input: WtDamageInput) -> Result<WtDamageResult> {
    let start = dice.rolls().len();
    let die = dice.roll(6)?;
    let total = input
        .attack
        .saturating_add(i64::from(die))
        .saturating_add(input.burst)
        .saturating_add(input.special_attack)
        .saturating_add(input.modifier)
        .max(0);
    Ok(WtDamageResult {
        total,
        attack: input.attack,
        die,
        burst: input.burst,
        special_attack: input.special_attack,
        applied_special_attacks: Vec::new(),
        modifier: input.modifier,
        target_trion_after: None,
        attacker_trion_after: None,
        rolls: dice.rolls_since(start),
    })
}

/// `world_trigger.damage` — roll one hit's damage (WT-DMG-1…6).
///
/// The special-attack bonus combines `special_attack_lv`, `special_attack_lvs` and the
/// LVs of the `special_attacks` that apply to this target (WT-DMG-6), per
/// `variants.special_attack_stacking`.
///
/// Scripted `rolls`: one d6.
pub fn damage(args: &WtDamageArgs) -> Result<WtDamageResult> {
    if args.tactics_dice != 0 {
        return Err(Error::invalid(
            "tactics_dice",
            "damage is not a check: tactics dice can't raise it (WT-TD-7, WT-DMG-2)",
        )
        .with_rule("WT-TD-7"));
    }
    if !(0..=MAX_DAMAGE_ARG).contains(&args.hit.attack) {
        return Err(Error::out_of_range("attack", format_args!("must be 0..={MAX_DAMAGE_ARG}")));
    }
    if args.hit.modifier.unsigned_abs() > MAX_DAMAGE_ARG as u64 {
        return Err(Error::out_of_range("modifier", format_args!("must be within ±{MAX_DAMAGE_ARG}")));
    }
    if !(0..=MAX_DAMAGE_ARG).contains(&args.hit.trion_stat) {
        return Err(Error::out_of_range("trion_stat", format_args!("must be 0..={MAX_DAMAGE_ARG}")));
    }
    let cap = burst_cap(args.hit.trion_stat);
    if args.hit.burst < 0 || args.hit.burst > cap {
        return Err(Error::out_of_range(
            "burst",
            format_args!("a Trion Burst is 0..=min(trion_stat, 10) = {cap}, not {}", args.hit.burst),
        )
        .with_rule("WT-DMG-4"));
    }
    if args.hit.special_attack_lvs.len() > MAX_SPECIAL_ATTACKS {
        return Err(Error::limit(
            "special_attack_lvs",
            format_args!("at most {MAX_SPECIAL_ATTACKS} entries"),
        ));
    }
    if args.special_attacks.len() > MAX_SPECIAL_ATTACKS {
        return Err(Error::limit("special_attacks", format_args!("at most {MAX_SPECIAL_ATTACKS} entries")));
    }
    for (field, h) in [("attacker_height", args.attacker_height), ("target_height", args.target_height)] {
        if h.unsigned_abs() > MAX_DAMAGE_ARG as u64 {
            return Err(Error::out_of_range(field, format_args!("must be within ±{MAX_DAMAGE_ARG}")));
        }
    }
    // WT-DMG-6: the skill's special attacks that work against this target.
    let applied: Vec<WtSpecialAttack> = args
        .special_attacks
        .iter()
        .filter(|sa| {
            special_attack_applies(sa.kind, args.attacker_height, args.target_height, args.target_floating)
        })
        .copied()
        .collect();
    let mut lvs = args.hit.special_attack_lvs.clone();
    lvs.push(args.hit.special_attack_lv);
    if lvs.iter().any(|&l| l > 100) {
        return Err(Error::out_of_range("special_attack_lv", "a special-attack LV is at most 100"));
    }
    if let Some(i) = args.special_attacks.iter().position(|sa| sa.lv > 100) {
        return Err(Error::out_of_range(
            format!("special_attacks[{i}].lv"),
            "a special-attack LV is at most 100",
        ));
    }
    lvs.extend(applied.iter().map(|sa| sa.lv));
    let special_attack = special_attack_bonus(&lvs, args.hit.variants.special_attack_stacking);
    for (field, t) in [("target_trion", args.target_trion), ("attacker_trion", args.attacker_trion)] {
        if t.is_some_and(|t| t.unsigned_abs() > MAX_DAMAGE_ARG as u64) {
            return Err(Error::out_of_range(field, format_args!("must be within ±{MAX_DAMAGE_ARG}")));
        }
    }
    // WT-DMG-4 / WT-DER-4: the burst is paid from the pool and, as in a battle, may
    // bring it to exactly 0, never below (RULINGS, "Spending Trion to 0").
    if let Some(t) = args.attacker_trion {
        if args.hit.burst > 0 && args.hit.burst > t {
            return Err(Error::illegal(
                "WT-DER-4",
                format_args!("burst {} needs more Trion than attacker_trion {t} has", args.hit.burst),
            ));
        }
    }
    let mut dice = args.source.dice()?;
    let mut r = roll_damage(
        &mut dice,
        WtDamageInput {
            attack: args.hit.attack,
            burst: args.hit.burst,
            special_attack,
            modifier: args.hit.modifier,
        },
    )?;
    // WT-DMG-3: damage comes off the target's current Trion.
    r.target_trion_after = args.target_trion.map(|t| t.saturating_sub(r.total));
    // WT-DMG-4: the burst comes off the attacker's pool.
    r.attacker_trion_after = args.attacker_trion.map(|t| t.saturating_sub(args.hit.burst));
    r.applied_special_attacks = applied;
    Ok(r)
}

pub use crate::kernel::variants::WtDamageTableThreshold;

/// WT-DT-1/2: the one tier a hit of `damage` uses: the highest tier reached
/// (`None` if no roll is due). Under `more_than_10`, the lowest tier needs
/// damage strictly above its minimum.
pub fn pick_tier(
    tiers: &[WtDamageTier],
    damage: i64,
    threshold: WtDamageTableThreshold,
) -> Option<&WtDamageTier> {
    let lowest = tiers.iter().map(|t| t.min_damage).min()?;
    tiers
        .iter()
        .filter(|t| {
            if t.min_damage == lowest && threshold == WtDamageTableThreshold::MoreThan10 {
                damage > t.min_damage
            } else {
                damage >= t.min_damage
            }
        })
        .max_by_key(|t| t.min_damage)
}

/// WT-DT-3: from the rolled row (1-based), move to the next higher row while
/// the row's effect is already held; past the last row, the last row.
/// Returns the final row (1-based).
pub fn shift_row(rows: &[WtCondition], roll: u32, held: &[WtCondition]) -> u32 {
    let last = rows.len() as u32;
    let mut r = roll.clamp(1, last.max(1));
    while r < last && rows.get(r as usize - 1).is_some_and(|c| held.contains(c)) {
        r += 1;
    }
    r
}

/// Arguments of `world_trigger.damage_table`.
///
/// `rolls`: Scripted faces: the single d6 (only when a roll is due).
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtDamageTableArgs {
    /// The damage of one hit, 0..=MAX_DAMAGE_ARG (a hit deals no negative damage).
    pub damage: i64,
    /// WT-DT-4: which table (default `border`).
    #[serde(default)]
    pub table: WtDamageTableSide,
    /// Conditions the character already holds (WT-DT-3).
    #[serde(default)]
    pub conditions: Vec<WtCondition>,
    /// A data pack; default the bundled sample pack (illustrative).
    #[serde(default)]
    #[schemars(with = "Option<super::data::WtDataPack>")]
    pub data: Option<Value>,
    /// Rule variants.
    #[serde(default)]
    pub variants: crate::world_trigger::types::WtVariants,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `world_trigger.damage_table`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtDamageTableResult {
    /// The tier used (10, 20, 30), or null when no roll is due.
    pub tier: Option<i64>,
    /// The d6, or null.
    pub roll: Option<u32>,
    /// The row applied after shifting (1–6), or null.
    pub row: Option<u32>,
    /// The effect inflicted, or null.
    pub effect: Option<WtCondition>,
    /// Display name of the effect, or null.
    pub label: Option<WtLabel>,
    /// The rolled row when the no-duplicate rule moved it, else null.
    pub shifted_from: Option<u32>,
    /// The held conditions afterwards (sorted, distinct).
    pub conditions: Vec<WtCondition>,
    /// Dice rolled.
    pub rolls: Vec<Roll>,
}

/// WT-DT-1…3: roll on a damage table with an existing die source.
pub fn roll_damage_table(
    dice: &mut Dice,
    tiers: &[WtDamageTier],
    damage: i64,
    held: &[WtCondition],
    threshold: WtDamageTableThreshold,
) -> Result<WtDamageTableResult> {
    let mut conditions = held.to_vec();
    crate::small_sort::sort(&mut conditions);
    conditions.dedup();
    let start = dice.rolls().len();
    let Some(tier) = pick_tier(tiers, damage, threshold) else {
        return Ok(WtDamageTableResult {
            tier: None,
            roll: None,
            row: None,
            effect: None,
            label: None,
            shifted_from: None,
            conditions,
            rolls: Vec::new(),
        });
    };
    let roll = dice.roll(6)?;
    let row = shift_row(&tier.rows, roll, &conditions);
    let effect = tier
        .rows
        .get(row as usize - 1)
        .copied()
        .ok_or_else(|| Error::invalid_data("data.damage_tables", "a tier has fewer than 6 rows"))?;
    if !conditions.contains(&effect) {
        conditions.push(effect);
        crate::small_sort::sort(&mut conditions);
    }
    Ok(WtDamageTableResult {
        tier: Some(tier.min_damage),
        roll: Some(roll),
        row: Some(row),
        effect: Some(effect),
        label: Some(effect.label()),
        shifted_from: (row != roll).then_some(roll),
        conditions,
        rolls: dice.rolls_since(start),
    })
}

/// `world_trigger.damage_table` — roll on a damage table for one hit (WT-DT-1…4).
///
/// Scripted `rolls`: one d6, only when a roll is due.
pub fn damage_table(args: &WtDamageTableArgs) -> Result<WtDamageTableResult> {
    if !(0..=MAX_DAMAGE_ARG).contains(&args.damage) {
        return Err(Error::out_of_range("damage", format_args!("must be 0..={MAX_DAMAGE_ARG}")));
    }
    if args.conditions.len() > 1000 {
        return Err(Error::limit("conditions", "at most 1000 entries"));
    }
    let pack = load_pack(args.data.as_ref())?;
    let mut dice = args.source.dice()?;
    roll_damage_table(
        &mut dice,
        pack.damage_tables.side(args.table),
        args.damage,
        &args.conditions,
        args.variants.damage_table_threshold,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shift_examples() {
        use WtCondition::*;
        let rows =
            [TrionLeakSmall, LostRightLeg, LostDominantHand, LostOffHand, LostLeftLeg, EmergencyBailout];
        // WT-DT-3 EXAMPLE: roll 4 with off hand and left leg lost → row 6.
        assert_eq!(shift_row(&rows, 4, &[LostOffHand, LostLeftLeg]), 6);
        assert_eq!(shift_row(&rows, 1, &[]), 1);
        assert_eq!(shift_row(&rows, 6, &[EmergencyBailout]), 6);
    }

    #[test]
    fn garbage_args_never_panic() {
        for v in [
            json!({"attack": i64::MAX}),
            json!({"attack": 5, "burst": i64::MIN, "trion_stat": i64::MAX}),
            json!({"attack": 5, "special_attack_lvs": [u32::MAX, u32::MAX]}),
            json!({"attack": 5, "modifier": i64::MIN, "rolls": [1]}),
            json!({"attack": 5, "special_attacks": [{"kind": "upward", "lv": u32::MAX}], "target_height": i64::MAX}),
            json!({"attack": 5, "attacker_height": i64::MIN, "special_attacks": vec![json!({"kind": "downward", "lv": 1}); 17]}),
            json!({"attack": 5, "burst": 1, "trion_stat": 1, "attacker_trion": i64::MIN, "rolls": [1]}),
            json!({"damage": i64::MAX}),
            json!({"damage": 10, "data": {"format": 3}}),
            json!({"damage": 10, "conditions": ["nope"]}),
            json!({"damage": 10, "rolls": [{"sides": 20, "value": 3}]}),
        ] {
            let _ = crate::call("world_trigger.damage", v.clone());
            let _ = crate::call("world_trigger.damage_table", v);
        }
        let r = roll_damage(
            &mut Dice::scripted(vec![crate::dice::ScriptedFace::Face(1)]).unwrap(),
            WtDamageInput { attack: 0, burst: 0, special_attack: 0, modifier: -100 },
        )
        .unwrap();
        assert_eq!(r.total, 0);
    }
}
