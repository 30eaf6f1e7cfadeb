//! `coc7.check` and the shared d100 machinery of Call of Cthulhu 7th edition.
//!
//! A check rolls `|bonus_dice| + 1` tens dice and one ones die. Each tens die
//! combined with the ones die gives a candidate `10 × tens + ones` (a d10 face
//! 10 reads as 0; tens 0 with ones 0 is 100). Bonus dice keep the lowest
//! candidate, penalty dice the highest. The level comes from the house rule
//! (`rule`, 0–5; 0 = the rulebook, exactly as BCDice's `CC<=skill`).
//!
//! House rules (`rule`, the `setcoc` numbering of SealDice / Dice!; `s` = the
//! skill, divisions floor). A roll `r ≤ s` succeeds; then hard `r ≤ s/2`,
//! extreme `r ≤ s/5`. Unless stated, a critical needs a success and a fumble
//! needs a failure:
//! * **0** (rulebook, BCDice `Cthulhu7th`): critical 01; fumble 100, or 96–100
//!   when `s < 50`. As in BCDice, 01 is a critical and 100 a fumble whatever
//!   the skill (01 against skill 0, 100 against skill 120).
//! * **1**: rule 0, except that 02–05 are criticals too when `s ≥ 50`
//!   (RULINGS: "critical 01 if s < 50, 01–05 if s ≥ 50; fumble as 0", so 01
//!   against skill 0 is a critical and 100 against skill 100 a fumble).
//! * **2**: critical 01–05 (if the roll succeeds); fumble 96–100 (if it fails).
//!   A 100 is a fumble whatever the skill (RULINGS 2026-12-05: 「出100…大失败」).
//! * **3**: critical 01–05 and fumble 96–100 whatever the skill (a 03 against
//!   skill 0 is a critical, a 97 against skill 99 a fumble).
//! * **4**: critical `r ≤ min(5, s/10)`; fumble `r ≥ min(96 + s/10, 100)`,
//!   whatever the skill (RULINGS gives no "if it fails" here, unlike rule 2:
//!   100 against skill 100 is a fumble).
//! * **5**: critical `r ≤ min(2, s/5)`; fumble 96–100 if `s < 50`, else 99–100,
//!   whatever the skill (99 against skill 99 is a fumble).
//!
//! Difficulty (`hard`, `extreme`) does not change the level shown (it is always
//! measured against the full skill); `success` is `level ≥ difficulty`. A roll
//! that misses the required level is a fumble when it would be one against the
//! difficulty's target value (`s/2`, `s/5`): the 7th-edition "skill needed
//! below 50" fumble range.

use crate::dice::{Dice, Roll, RollKind};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Largest skill accepted.
pub const MAX_SKILL: i64 = 999;
/// Most bonus (or penalty) dice a caller may ask for.
pub const MAX_BONUS_DICE: i64 = 10;
/// Most bonus dice a rule can grant on its own: a chase pursuer's MOV difference
/// (C7H-ESC-5; MOV 0..=100 plus a situational +2). [`roll_d100`] rolls at most this many.
pub const MAX_RULE_BONUS_DICE: i64 = 102;
/// Highest house-rule number.
pub const MAX_RULE: i64 = 5;

/// Success level of a 7th-edition check, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Coc7Level {
    /// クリティカル / 大成功.
    Critical,
    /// イクストリーム成功 / 极难成功: ≤ skill/5.
    Extreme,
    /// ハード成功 / 困难成功: ≤ skill/2.
    Hard,
    /// レギュラー成功 / 常规成功: ≤ skill.
    Regular,
    /// 失敗 / 失败.
    Failure,
    /// ファンブル / 大失败.
    Fumble,
}

impl Coc7Level {
    /// All levels, best first.
    pub const ALL: [Coc7Level; 6] = [
        Coc7Level::Critical,
        Coc7Level::Extreme,
        Coc7Level::Hard,
        Coc7Level::Regular,
        Coc7Level::Failure,
        Coc7Level::Fumble,
    ];

    /// Rank for comparisons: fumble 0 … critical 5.
    pub fn rank(self) -> u8 {
        match self {
            Coc7Level::Fumble => 0,
            Coc7Level::Failure => 1,
            Coc7Level::Regular => 2,
            Coc7Level::Hard => 3,
            Coc7Level::Extreme => 4,
            Coc7Level::Critical => 5,
        }
    }

    /// True for regular success or better.
    pub fn is_success(self) -> bool {
        self.rank() >= Coc7Level::Regular.rank()
    }

    /// True for extreme success or better ("イクストリーム成功以上").
    pub fn is_extreme_or_better(self) -> bool {
        self.rank() >= Coc7Level::Extreme.rank()
    }

    /// Labels in the rulebooks' own terms.
    pub fn labels(self) -> Coc7Labels {
        let (ja, zh_hans, zh_hant, en) = match self {
            Coc7Level::Critical => ("クリティカル", "大成功", "大成功", "Critical success"),
            Coc7Level::Extreme => ("イクストリーム成功", "极难成功", "極限成功", "Extreme success"),
            Coc7Level::Hard => ("ハード成功", "困难成功", "困難成功", "Hard success"),
            Coc7Level::Regular => ("レギュラー成功", "常规成功", "常規成功", "Regular success"),
            Coc7Level::Failure => ("失敗", "失败", "失敗", "Failure"),
            Coc7Level::Fumble => ("ファンブル", "大失败", "大失敗", "Fumble"),
        };
        Coc7Labels { ja: ja.into(), zh_hans: zh_hans.into(), zh_hant: zh_hant.into(), en: en.into() }
    }
}

/// A user-facing name in four languages.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7Labels {
    /// Japanese.
    pub ja: String,
    /// Simplified Chinese.
    pub zh_hans: String,
    /// Traditional Chinese.
    pub zh_hant: String,
    /// English.
    pub en: String,
}

/// A term of a ruleset's fixed vocabulary (`coc_ap.labels`, `coc7_house.labels`): the
/// value as the operations spell it, the rule that defines it, its names.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7TermLabel {
    /// The value as arguments and results spell it (an action's `type`, a direction, …).
    pub key: String,
    /// The rule ID that defines it, when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Its name in ja / zh_hans / zh_hant / en.
    pub label: Coc7Labels,
}

/// Difficulty of a check: the level needed to succeed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Coc7Difficulty {
    /// Regular success or better (≤ skill).
    #[default]
    Regular,
    /// Hard success or better (≤ skill/2).
    Hard,
    /// Extreme success or better (≤ skill/5).
    Extreme,
}

impl Coc7Difficulty {
    /// The level a success needs.
    pub fn required(self) -> Coc7Level {
        match self {
            Coc7Difficulty::Regular => Coc7Level::Regular,
            Coc7Difficulty::Hard => Coc7Level::Hard,
            Coc7Difficulty::Extreme => Coc7Level::Extreme,
        }
    }

    /// The target value for `skill` at this difficulty.
    pub fn target(self, skill: i64) -> i64 {
        match self {
            Coc7Difficulty::Regular => skill,
            Coc7Difficulty::Hard => skill / 2,
            Coc7Difficulty::Extreme => skill / 5,
        }
    }
}

/// Validate a skill value.
pub fn validate_skill(field: &str, skill: i64) -> Result<()> {
    if !(0..=MAX_SKILL).contains(&skill) {
        return Err(Error::out_of_range(field, format_args!("must be 0..={MAX_SKILL}, not {skill}")));
    }
    Ok(())
}

/// Validate a bonus-dice count (negative = penalty dice).
pub fn validate_bonus(field: &str, bonus: i64) -> Result<()> {
    if !(-MAX_BONUS_DICE..=MAX_BONUS_DICE).contains(&bonus) {
        return Err(Error::out_of_range(
            field,
            format_args!("must be -{MAX_BONUS_DICE}..={MAX_BONUS_DICE}, not {bonus}"),
        ));
    }
    Ok(())
}

/// Validate a house-rule number.
/// RULINGS variants of the 7th-edition checks (`coc7.check`, `coc7.odds`,
/// `coc7.opposed`, `coc7.simulate_check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7Variants {
    /// `variant: coc7_rule`, the house rule 0–5 (`setcoc` numbering; 0, the rulebook,
    /// is the default). The same setting as the op's `rule` shorthand: give either.
    #[serde(default)]
    #[schemars(range(min = 0, max = 5))]
    pub coc7_rule: i64,
}

/// The house rule in force, from the op's `rule` shorthand and its
/// `variants.coc7_rule` (the API convention for RULINGS variants). Both are
/// validated; giving both with different values is an error.
pub fn rule_of(rule: i64, variant: i64) -> Result<i64> {
    validate_rule("rule", rule)?;
    validate_rule("variants.coc7_rule", variant)?;
    match (rule, variant) {
        (r, 0) => Ok(r),
        (0, v) => Ok(v),
        (r, v) if r == v => Ok(r),
        (r, v) => Err(Error::invalid(
            "variants.coc7_rule",
            format_args!("{v} conflicts with rule {r}: give the house rule once"),
        )),
    }
}

/// Check that a house-rule number is 0..=5.
pub fn validate_rule(field: &str, rule: i64) -> Result<()> {
    if !(0..=MAX_RULE).contains(&rule) {
        return Err(Error::out_of_range(field, format_args!("must be 0..={MAX_RULE}, not {rule}")));
    }
    Ok(())
}

/// The d100 value of one tens digit (0–9) with one ones digit (0–9): 00 with 0 is 100.
pub fn d100_value(tens: u32, ones: u32) -> u32 {
    let v = tens * 10 + ones;
    if v == 0 {
        100
    } else {
        v
    }
}

/// Pick the kept candidate: lowest with bonus dice (≥ 0), highest with penalty dice.
pub fn pick(candidates: &[u32], bonus: i64) -> u32 {
    let it = candidates.iter().copied();
    let v = if bonus >= 0 { it.min() } else { it.max() };
    v.unwrap_or(100)
}

/// The level of roll `r` against skill `s` under house rule `rule`
/// (regular difficulty). See the module docs for each rule.
pub fn classify(r: i64, s: i64, rule: i64) -> Coc7Level {
    let success_level = || {
        if r <= s / 5 {
            Coc7Level::Extreme
        } else if r <= s / 2 {
            Coc7Level::Hard
        } else {
            Coc7Level::Regular
        }
    };
    if rule == 0 || rule == 1 {
        // RULINGS coc7_rule 0 (the rulebook, as BCDice Cthulhu7th reads it):
        // 01 is always a critical and 100 always a fumble, whatever the skill;
        // 96-99 fumble too when the skill is below 50 and the roll fails.
        // Rule 1 is the same, with 02-05 criticals too when the skill is ≥ 50
        // (those rolls always succeed then).
        if r == 1 || (rule == 1 && s >= 50 && r <= 5) {
            return Coc7Level::Critical;
        }
        if r >= 100 || (r >= 96 && s < 50 && r > s) {
            return Coc7Level::Fumble;
        }
        return if r <= s { success_level() } else { Coc7Level::Failure };
    }
    let (crit, fumble) = match rule {
        2 | 3 => (5, 96),
        4 => ((s / 10).min(5), (96 + s / 10).min(100)),
        _ => ((s / 5).min(2), if s < 50 { 96 } else { 99 }),
    };
    let mut level = if r <= s {
        if r <= crit {
            Coc7Level::Critical
        } else {
            success_level()
        }
    } else if r >= fumble {
        Coc7Level::Fumble
    } else {
        Coc7Level::Failure
    };
    // A 100 is a fumble under every rule, rule 2 included (RULINGS 2026-12-05:
    // "under coc7_rule = 2 a 100 is always a fumble, whatever the skill").
    if r >= 100 {
        level = Coc7Level::Fumble;
    }
    // Rule 3 ("whatever the skill") and rules 4/5 (no "if it also fails",
    // unlike rule 2) take their ranges as written: under rule 5 a 99 against
    // skill 99 is a fumble, as a 100 against skill 100+ is under rules 4 and 5.
    if rule == 3 && r <= crit {
        level = Coc7Level::Critical;
    }
    if rule >= 3 && r >= fumble {
        level = Coc7Level::Fumble;
    }
    level
}

/// Level and success of roll `r` for `skill` at `difficulty` under `rule`
/// (see the module docs for how difficulty combines with the house rules).
pub fn evaluate(r: i64, skill: i64, difficulty: Coc7Difficulty, rule: i64) -> (Coc7Level, bool) {
    let mut level = classify(r, skill, rule);
    let required = difficulty.required();
    if level.rank() < required.rank()
        && difficulty != Coc7Difficulty::Regular
        && classify(r, difficulty.target(skill), rule) == Coc7Level::Fumble
    {
        level = Coc7Level::Fumble;
    }
    (level, level.rank() >= required.rank())
}

/// Roll the dice of one check: `|bonus| + 1` tens dice (kind `tens_d10`), then
/// the ones die. Returns (kept roll, every candidate in tens-die order).
pub fn roll_d100(dice: &mut Dice, bonus: i64) -> Result<(u32, Vec<u32>)> {
    roll_d100_order(dice, bonus, false)
}

/// As [`roll_d100`], with the ones die rolled first when `ones_first` (the order in
/// which BCDice's Korean 7th-edition system reads the same dice).
pub(crate) fn roll_d100_order(dice: &mut Dice, bonus: i64, ones_first: bool) -> Result<(u32, Vec<u32>)> {
    let first = if ones_first { Some(dice.roll(10)? % 10) } else { None };
    let n = bonus.unsigned_abs().min(MAX_RULE_BONUS_DICE as u64) as usize + 1;
    let mut tens = Vec::with_capacity(n);
    for _ in 0..n {
        tens.push(dice.roll_kind(10, RollKind::TensD10)? % 10);
    }
    let ones = match first {
        Some(o) => o,
        None => dice.roll(10)? % 10,
    };
    let candidates: Vec<u32> = tens.iter().map(|&t| d100_value(t, ones)).collect();
    Ok((pick(&candidates, bonus), candidates))
}

/// One evaluated check (without its dice record).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7Outcome {
    /// The skill checked.
    pub skill: i64,
    /// Bonus dice (negative = penalty dice).
    pub bonus_dice: i64,
    /// The kept d100 roll, 1–100.
    #[schemars(range(min = 1, max = 100))]
    pub roll: u32,
    /// Every tens option with the ones die, in tens-die order.
    pub candidates: Vec<u32>,
    /// The level reached, measured against the full skill, except that a roll
    /// missing a `hard`/`extreme` difficulty is a fumble when it would be one
    /// against that difficulty's target (7th edition: 96–99 fumble when the
    /// value needed is below 50).
    pub level: Coc7Level,
    /// The level's name in four languages.
    pub label: Coc7Labels,
    /// Whether the level meets the difficulty.
    pub success: bool,
    /// The target value at the difficulty (skill, skill/2, skill/5).
    pub target: i64,
}

/// Roll and evaluate one check with an existing die source (validated inputs).
pub fn roll_check(
    dice: &mut Dice,
    skill: i64,
    bonus: i64,
    difficulty: Coc7Difficulty,
    rule: i64,
) -> Result<Coc7Outcome> {
    let (roll, candidates) = roll_d100(dice, bonus)?;
    Ok(outcome_of(roll, candidates, skill, bonus, difficulty, rule))
}

/// Evaluate a given roll.
pub fn outcome_of(
    roll: u32,
    candidates: Vec<u32>,
    skill: i64,
    bonus: i64,
    difficulty: Coc7Difficulty,
    rule: i64,
) -> Coc7Outcome {
    let (level, success) = evaluate(i64::from(roll), skill, difficulty, rule);
    Coc7Outcome {
        skill,
        bonus_dice: bonus,
        roll,
        candidates,
        level,
        label: level.labels(),
        success,
        target: difficulty.target(skill),
    }
}

/// A 7th-edition d100 check as it is asked for: the value, bonus or penalty dice,
/// difficulty and house rule. Declared once; every operation that makes such a check
/// flattens it into its arguments (`coc7.check`, `coc7.distribution`, `coc7.simulate_checks`).
#[derive(Debug, Clone, Default, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7Roll {
    /// Skill or characteristic value, 0–999.
    #[schemars(range(min = 0, max = 999))]
    pub skill: i64,
    /// Bonus dice −10…10 (negative = penalty dice). Default 0.
    #[serde(default)]
    #[schemars(range(min = -10, max = 10))]
    pub bonus_dice: i64,
    /// Difficulty (`regular` default, `hard`, `extreme`). At `hard`/`extreme`
    /// the fumble range follows the target value (skill/2, skill/5): with
    /// skill 50 at `hard`, 96–99 are fumbles, not failures.
    #[serde(default)]
    pub difficulty: Coc7Difficulty,
    /// House rule 0–5 (`setcoc` numbering; `s` = skill, divisions floor). 0 (default,
    /// the rulebook): critical 01, fumble 100 or 96–100 when s < 50. 1: as 0, but
    /// 01–05 are criticals when s ≥ 50. 2: critical 01–05 if the roll succeeds,
    /// fumble 96–100 if it fails, and 100 always. 3: critical 01–05, fumble 96–100, whatever the
    /// skill. 4: critical 01–05 and ≤ s/10; fumble ≥ 96 + s/10 if s < 50, else 100.
    /// 5: critical 01–02 and ≤ s/5; fumble 96–100 if s < 50, else 99–100.
    #[serde(default)]
    #[schemars(range(min = 0, max = 5))]
    pub rule: i64,
    /// Rule variants (RULINGS.md): `coc7_rule`, the same house rule as `rule`.
    #[serde(default)]
    pub variants: Coc7Variants,
}

impl Coc7Roll {
    /// The house rule in effect, once the value, the dice and the rule are in range
    /// (`out_of_range` naming the field otherwise).
    pub fn house_rule(&self) -> Result<i64> {
        validate_skill("skill", self.skill)?;
        validate_bonus("bonus_dice", self.bonus_dice)?;
        rule_of(self.rule, self.variants.coc7_rule)
    }
}

/// Arguments of `coc7.check`.
///
/// `rolls`: Scripted faces: the `|bonus_dice| + 1` tens dice (d10, 10 reads 0), then the ones die (d10, 10 reads 0).
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coc7CheckArgs {
    /// The check.
    #[serde(flatten)]
    pub roll: Coc7Roll,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `coc7.check`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Coc7CheckResult {
    /// The kept d100 roll, 1–100.
    pub roll: u32,
    /// Every tens option with the ones die, in tens-die order.
    pub candidates: Vec<u32>,
    /// The level reached, measured against the full skill, except that a roll
    /// missing a `hard`/`extreme` difficulty is a fumble when it would be one
    /// against that difficulty's target (7th edition: 96–99 fumble when the
    /// value needed is below 50).
    pub level: Coc7Level,
    /// The level's name in four languages.
    pub label: Coc7Labels,
    /// Whether the level meets the difficulty.
    pub success: bool,
    /// The target value at the difficulty (skill, skill/2, skill/5).
    pub target: i64,
    /// Every die rolled: the tens dice, then the ones die.
    pub rolls: Vec<Roll>,
}

/// `coc7.check` — a 7th-edition d100 check with bonus/penalty dice, difficulty and house rule.
///
/// Scripted `rolls`: the `|bonus_dice| + 1` tens dice first, then the ones die.
pub fn check(args: &Coc7CheckArgs) -> Result<Coc7CheckResult> {
    let (r, rule) = (&args.roll, args.roll.house_rule()?);
    let mut dice = args.source.dice()?;
    let o = roll_check(&mut dice, r.skill, r.bonus_dice, r.difficulty, rule)?;
    Ok(Coc7CheckResult {
        roll: o.roll,
        candidates: o.candidates,
        level: o.level,
        label: o.label,
        success: o.success,
        target: o.target,
        rolls: dice.take_rolls(),
    })
}
