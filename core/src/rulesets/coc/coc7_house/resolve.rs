//! Passive-action resolutions as pure functions: `defend` (C7H-DEF),
//! `cover` (C7H-COV), `cancel` (C7H-CAN), `counter` (C7H-CTR) and
//! `auto_hit` (C7H-AUTO).
//!
//! Each takes the roll either already made (`level`) or to be made here
//! (`skill` with optional `bonus_dice`, `rule`, `seed`/`rolls`: a
//! `coc7.check`, tens dice first, then the ones die), never both.

use crate::coc7::check::{roll_check, validate_bonus, validate_skill};
use crate::coc7::{Coc7Difficulty, Coc7Level, Coc7Outcome};
use crate::dice::Roll;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Largest damage or defense value accepted.
pub const MAX_VALUE: i64 = 1_000_000;
/// Most attacks one cover may take at once.
pub const MAX_COVERED_ATTACKS: usize = 20;

fn check_value(field: &str, v: i64) -> Result<()> {
    if !(0..=MAX_VALUE).contains(&v) {
        return Err(Error::out_of_range(field, format_args!("must be 0..={MAX_VALUE}, not {v}")));
    }
    Ok(())
}

/// The level of the roll: given, or rolled now. `rule` is already validated
/// (every caller takes it from `coc7::check::rule_of`).
#[allow(clippy::too_many_arguments)]
fn level_of(
    level: Option<Coc7Level>,
    skill: Option<i64>,
    extra_penalty: i64,
    settings: &C7hRollSettings,
    rule: i64,
) -> Result<(Coc7Level, Option<Coc7Outcome>, Vec<Roll>)> {
    let bonus = settings.bonus_dice;
    validate_bonus("bonus_dice", bonus)?;
    match (level, skill) {
        (Some(_), Some(_)) => Err(Error::invalid("level", "give either level or skill, not both")),
        (None, None) => Err(Error::invalid("level", "give the roll's level, or a skill to roll")),
        (Some(l), None) => {
            if settings.source != crate::dice::DiceArgs::default() {
                return Err(Error::invalid("rolls", "seed/rolls only go with skill"));
            }
            Ok((l, None, Vec::new()))
        }
        (None, Some(s)) => {
            validate_skill("skill", s)?;
            let b = bonus - extra_penalty;
            validate_bonus("bonus_dice", b)?;
            let mut dice = settings.source.dice()?;
            let o = roll_check(&mut dice, s, b, Coc7Difficulty::Regular, rule)?;
            Ok((o.level, Some(o), dice.take_rolls()))
        }
    }
}

/// The settings of a resolution's roll: its bonus dice, the house rule and the dice.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hRollSettings {
    /// Bonus dice of that roll, −10…10. Default 0.
    #[serde(default)]
    #[schemars(range(min = -10, max = 10))]
    pub bonus_dice: i64,
    /// House rule 0–5 (see `coc7.check`). Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 5))]
    pub rule: i64,
    /// Rule variants (RULINGS.md): `coc7_rule` (the same house rule as `rule`) and
    /// `extreme_damage`.
    #[serde(default)]
    pub variants: crate::coc7_house::damage::C7hVariants,
    /// `seed` or scripted `rolls` (tens dice, then the ones die).
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

impl C7hRollSettings {
    /// The house rule, from `rule` and `variants.coc7_rule` (`coc7::check::rule_of`).
    fn rule(&self) -> Result<i64> {
        crate::coc7::check::rule_of(self.rule, self.variants.coc7_rule)
    }
}

/// A resolution's roll: the level of one already made, or the skill to roll now.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hRoll {
    /// Level of the roll already made (or give `skill`).
    #[serde(default)]
    pub level: Option<Coc7Level>,
    /// Skill to roll, 0–999 (or give `level`).
    #[serde(default)]
    #[schemars(range(min = 0, max = 999))]
    pub skill: Option<i64>,
    /// Bonus dice, house rule, variants and dice.
    #[serde(flatten)]
    pub settings: C7hRollSettings,
}

/// Arguments of `coc7_house.defend`.
///
/// `rolls`: Scripted faces of the defense roll: tens dice, then the ones die.
/// `level`: Level of the defense roll already made (or give `skill`).
/// `skill`: Skill to roll the defense with (C7H-DEF-1), 0–999 (or give `level`).
/// `bonus_dice`: Bonus dice of that roll, −10…10 (covering subtracts one more). Default 0.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hDefendArgs {
    /// Incoming damage, 0–1000000.
    #[schemars(range(min = 0, max = 1000000))]
    pub damage: i64,
    /// Defense value (防御力) of the shield, weapon, armour or skill, 0–1000000.
    #[schemars(range(min = 0, max = 1000000))]
    pub defense: i64,
    /// The defender won the opposed roll against the attacker (C7H-DEF-3). Default false.
    #[serde(default)]
    pub opposed_won: bool,
    /// Defending while covering an ally: one penalty die (C7H-DEF-5). Default false.
    #[serde(default)]
    pub covering: bool,
    /// The roll (see [`C7hRoll`]).
    #[serde(flatten)]
    pub roll: C7hRoll,
}

/// Result of `coc7_house.defend`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hDefendResult {
    /// The defense roll succeeded.
    pub success: bool,
    /// Its level.
    pub level: Coc7Level,
    /// Defense multiplier: 0 on failure, else 1, 2 (opposed win or extreme), 3 (both).
    pub multiplier: i64,
    /// Damage removed: defense × multiplier.
    pub reduction: i64,
    /// Damage taken, never below 0.
    pub damage_taken: i64,
    /// Penalty dice the defense roll takes (1 when covering).
    pub penalty_dice: i64,
    /// The roll, if made here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Coc7Outcome>,
    /// Every die rolled.
    pub rolls: Vec<Roll>,
}

/// `coc7_house.defend` — C7H-DEF-1 … C7H-DEF-5.
///
/// C7H-DEF-2: on success subtract the defense value; C7H-DEF-3: ×2 if the
/// defender won the opposed roll or rolled an Extreme success (or better);
/// C7H-DEF-4: ×3 if both; C7H-DEF-5: covering adds a penalty die (RULINGS).
pub fn defend(args: &C7hDefendArgs) -> Result<C7hDefendResult> {
    let rule = args.roll.settings.rule()?;
    check_value("damage", args.damage)?;
    check_value("defense", args.defense)?;
    let penalty = i64::from(args.covering);
    let (level, check, rolls) =
        level_of(args.roll.level, args.roll.skill, penalty, &args.roll.settings, rule)?;
    let success = level.is_success();
    let multiplier =
        if !success { 0 } else { 1 + i64::from(args.opposed_won) + i64::from(level.is_extreme_or_better()) };
    let reduction = args.defense * multiplier;
    Ok(C7hDefendResult {
        success,
        level,
        multiplier,
        reduction,
        damage_taken: (args.damage - reduction).max(0),
        penalty_dice: penalty,
        check,
        rolls,
    })
}

/// Arguments of `coc7_house.cover`.
///
/// `rolls`: Scripted faces of the DEX roll: tens dice, then the ones die.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hCoverArgs {
    /// Damage of each attack being taken over (1–20 attacks, each 0–1000000).
    #[schemars(inner(range(min = 1, max = 20)))]
    pub damages: Vec<i64>,
    /// The attack is an area attack (C7H-COV-2). Default false.
    #[serde(default)]
    pub area: bool,
    /// Allies this cover protects from the area attack (C7H-COV-2: 1 unless `kp_allows`). Default 1.
    #[serde(default = "one")]
    pub allies: i64,
    /// The KP allows covering more than one ally from an area attack ("原則"). Default false.
    #[serde(default)]
    pub kp_allows: bool,
    /// Level of the DEX × 1 roll already made (or give `dex`).
    #[serde(default)]
    pub level: Option<Coc7Level>,
    /// DEX to roll against (C7H-COV-1: percentile roll ≤ DEX), 0–999 (or give `level`).
    #[serde(default)]
    #[schemars(range(min = 0, max = 999))]
    pub dex: Option<i64>,
    /// The roll (see [`C7hRollSettings`]).
    #[serde(flatten)]
    pub settings: C7hRollSettings,
}

fn one() -> i64 {
    1
}

/// Result of `coc7_house.cover`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hCoverResult {
    /// The DEX roll succeeded: the coverer takes the attack(s) instead.
    pub success: bool,
    /// Its level.
    pub level: Coc7Level,
    /// Damage the coverer takes (doubled when it takes several attacks at once, or covers
    /// several allies from one area attack, C7H-COV-3).
    pub damage_taken: i64,
    /// Damage the covered ally still takes (all of it when the cover fails).
    pub ally_damage_taken: i64,
    /// The ×2 of C7H-COV-3 applied.
    pub doubled: bool,
    /// The roll, if made here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Coc7Outcome>,
    /// Every die rolled.
    pub rolls: Vec<Roll>,
}

/// `coc7_house.cover` — C7H-COV-1 … C7H-COV-3.
pub fn cover(args: &C7hCoverArgs) -> Result<C7hCoverResult> {
    let rule = args.settings.rule()?;
    if args.damages.is_empty() || args.damages.len() > MAX_COVERED_ATTACKS {
        return Err(Error::invalid("damages", format_args!("give 1..={MAX_COVERED_ATTACKS} attack damages")));
    }
    for (i, d) in args.damages.iter().enumerate() {
        check_value(&format!("damages[{i}]"), *d)?;
    }
    if !(1..=100).contains(&args.allies) {
        return Err(Error::out_of_range("allies", "must be 1..=100"));
    }
    if args.area && args.allies > 1 && !args.kp_allows {
        return Err(Error::illegal("C7H-COV-2", "cover: an area attack lets one ally be covered"));
    }
    let (level, check, rolls) =
        level_of(args.level, args.dex, 0, &args.settings, rule).map_err(|mut e| {
            if e.field.as_deref() == Some("skill") {
                e.field = Some("dex".into());
                e.loc = crate::error::loc_of("dex");
                e
            } else {
                e
            }
        })?;
    let sum: i64 = args.damages.iter().sum();
    let success = level.is_success();
    // C7H-COV-3: several attackers' hits, or several allies covered from one area
    // attack (RULINGS 2026-12-05), are taken at once: ×2.
    let doubled = success && (args.damages.len() > 1 || args.allies > 1);
    Ok(C7hCoverResult {
        success,
        level,
        damage_taken: if success { sum * if doubled { 2 } else { 1 } } else { 0 },
        ally_damage_taken: if success { 0 } else { sum },
        doubled,
        check,
        rolls,
    })
}

/// Arguments of `coc7_house.cancel`.
///
/// `rolls`: Scripted faces of the cancel roll: tens dice, then the ones die.
/// `level`: Level of the cancel roll already made (or give `skill`).
/// `skill`: Skill of the means used (C7H-CAN-1), 0–999 (or give `level`).
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hCancelArgs {
    /// The attacker's damage, 0–1000000.
    #[schemars(range(min = 0, max = 1000000))]
    pub attacker_damage: i64,
    /// The damage the cancelling means deals, 0–1000000.
    #[schemars(range(min = 0, max = 1000000))]
    pub canceller_damage: i64,
    /// The KP rules the attack cancellable (C7H-CAN-3: not bullets, invisible,
    /// wide-area or mental attacks). Default true.
    #[serde(default = "yes")]
    pub cancellable: bool,
    /// The roll (see [`C7hRoll`]).
    #[serde(flatten)]
    pub roll: C7hRoll,
}

fn yes() -> bool {
    true
}

/// Result of `coc7_house.cancel`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hCancelResult {
    /// The cancel roll succeeded.
    pub success: bool,
    /// Its level.
    pub level: Coc7Level,
    /// The attack was fully negated.
    pub negated: bool,
    /// Damage the canceller takes.
    pub damage_taken: i64,
    /// The roll, if made here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Coc7Outcome>,
    /// Every die rolled.
    pub rolls: Vec<Roll>,
}

/// `coc7_house.cancel` — C7H-CAN-1 … C7H-CAN-3. Success: canceller's damage ≥
/// attacker's negates the attack, else the difference is taken; failure: the
/// full hit (RULINGS).
pub fn cancel(args: &C7hCancelArgs) -> Result<C7hCancelResult> {
    let rule = args.roll.settings.rule()?;
    check_value("attacker_damage", args.attacker_damage)?;
    check_value("canceller_damage", args.canceller_damage)?;
    if !args.cancellable {
        return Err(Error::illegal("C7H-CAN-3", "cancel: the KP ruled this attack cannot be cancelled"));
    }
    let (level, check, rolls) = level_of(args.roll.level, args.roll.skill, 0, &args.roll.settings, rule)?;
    let success = level.is_success();
    let negated = success && args.canceller_damage >= args.attacker_damage;
    let damage_taken =
        if !success { args.attacker_damage } else { (args.attacker_damage - args.canceller_damage).max(0) };
    Ok(C7hCancelResult { success, level, negated, damage_taken, check, rolls })
}

/// Arguments of `coc7_house.counter`.
///
/// `rolls`: Scripted faces of the counter roll (not rolled when `incapacitated`): tens dice, then the ones die.
/// `level`: Level of the counter roll already made (or give `skill`; neither is needed when `incapacitated`, since no counter is rolled).
/// `skill`: Skill of the weapon or means used (C7H-CTR-1), 0–999 (or give `level`).
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hCounterArgs {
    /// The opponent's attack is a melee attack (C7H-CTR-1: required).
    pub melee: bool,
    /// Damage of the opponent's attack, 0–1000000 (not reduced by the counter, C7H-CTR-4).
    #[schemars(range(min = 0, max = 1000000))]
    pub incoming_damage: i64,
    /// That attack left the character unconscious, dead or unable to act (C7H-CTR-2). Default false.
    #[serde(default)]
    pub incapacitated: bool,
    /// The counter-attack's damage, 0–1000000.
    #[schemars(range(min = 0, max = 1000000))]
    pub counter_damage: i64,
    /// The roll (see [`C7hRoll`]).
    #[serde(flatten)]
    pub roll: C7hRoll,
}

/// Result of `coc7_house.counter`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hCounterResult {
    /// The counter-attack happens (false when incapacitated, C7H-CTR-2).
    pub happens: bool,
    /// The counter roll succeeded.
    pub success: bool,
    /// Its level (absent when the counter does not happen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Coc7Level>,
    /// Damage the counter-attacker takes: the full incoming damage (C7H-CTR-4).
    pub damage_taken: i64,
    /// Damage dealt to the opponent, after its attack resolves (C7H-CTR-3).
    pub damage_dealt: i64,
    /// The roll, if made here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Coc7Outcome>,
    /// Every die rolled.
    pub rolls: Vec<Roll>,
}

/// `coc7_house.counter` — C7H-CTR-1 … C7H-CTR-4: only against melee; the
/// opponent's attack resolves first (its full damage is taken); if that leaves
/// the character out of action nothing happens (no roll); on success the
/// counter's damage is dealt afterwards.
pub fn counter(args: &C7hCounterArgs) -> Result<C7hCounterResult> {
    let rule = args.roll.settings.rule()?;
    check_value("incoming_damage", args.incoming_damage)?;
    check_value("counter_damage", args.counter_damage)?;
    if !args.melee {
        return Err(Error::illegal("C7H-CTR-1", "counter: only against a melee attack"));
    }
    if args.incapacitated {
        // C7H-CTR-2: no counter, so no roll is needed; whatever roll inputs
        // were given are still checked, but nothing is rolled.
        validate_bonus("bonus_dice", args.roll.settings.bonus_dice)?;
        if args.roll.level.is_some() && args.roll.skill.is_some() {
            return Err(Error::invalid("level", "give either level or skill, not both"));
        }
        if let Some(s) = args.roll.skill {
            validate_skill("skill", s)?;
        }
        return Ok(C7hCounterResult {
            happens: false,
            success: false,
            level: None,
            damage_taken: args.incoming_damage,
            damage_dealt: 0,
            check: None,
            rolls: Vec::new(),
        });
    }
    let (level, check, rolls) = level_of(args.roll.level, args.roll.skill, 0, &args.roll.settings, rule)?;
    let success = level.is_success();
    Ok(C7hCounterResult {
        happens: true,
        success,
        level: Some(level),
        damage_taken: args.incoming_damage,
        damage_dealt: if success { args.counter_damage } else { 0 },
        check,
        rolls,
    })
}

/// Why an attack is an automatic hit (C7H-AUTO-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hAutoHitReason {
    /// The target is an immobile object.
    Immobile,
    /// The target is restrained.
    Restrained,
    /// The target does not resist.
    NotResisting,
}

/// Arguments of `coc7_house.auto_hit`.
///
/// `rolls`: Scripted faces of the roll: tens dice, then the ones die.
/// `level`: Level of the (still required) roll already made (or give `skill`).
/// `skill`: Skill to roll, 0–999 (or give `level`).
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hAutoHitArgs {
    /// Why the attack hits automatically (C7H-AUTO-1).
    pub reason: C7hAutoHitReason,
    /// The attack's full damage, 0–1000000.
    #[schemars(range(min = 0, max = 1000000))]
    pub damage: i64,
    /// The roll (see [`C7hRoll`]).
    #[serde(flatten)]
    pub roll: C7hRoll,
}

/// Result of `coc7_house.auto_hit`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hAutoHitResult {
    /// The attack hits (everything but a fumble, C7H-AUTO-2).
    pub hit: bool,
    /// The roll's level.
    pub level: Coc7Level,
    /// Damage dealt (C7H-AUTO-2): full on every result but a fumble (an ordinary
    /// failure included); floor(damage ÷ 2) on a fumble.
    pub damage_dealt: i64,
    /// The damage the target takes: `damage_dealt` (the name every resolution uses).
    pub damage_taken: i64,
    /// The roll, if made here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Coc7Outcome>,
    /// Every die rolled.
    pub rolls: Vec<Roll>,
}

/// `coc7_house.auto_hit` — C7H-AUTO-1 / C7H-AUTO-2 as RULINGS reads them
/// (corrected 2026-12-01): the roll is still made; every result but a fumble
/// hits as a success would, with full damage (an ordinary failure included);
/// a fumble fails and still deals floor(damage ÷ 2) (seed 002:
/// 「ファンブルが出た場合は失敗するが、失敗しても半分のダメージを与える」).
pub fn auto_hit(args: &C7hAutoHitArgs) -> Result<C7hAutoHitResult> {
    let rule = args.roll.settings.rule()?;
    check_value("damage", args.damage)?;
    let (level, check, rolls) = level_of(args.roll.level, args.roll.skill, 0, &args.roll.settings, rule)?;
    // C7H-AUTO-2: only a fumble fails, and even then half the damage lands.
    let (hit, damage_dealt) = match level {
        Coc7Level::Fumble => (false, args.damage / 2),
        _ => (true, args.damage),
    };
    Ok(C7hAutoHitResult { hit, level, damage_dealt, damage_taken: damage_dealt, check, rolls })
}
