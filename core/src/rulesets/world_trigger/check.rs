//! Action checks (WT-CHK), tactics dice (WT-TD) and opposed checks (WT-OPP).
//!
//! A check rolls a pool of d6: the stat value (WT-CHK-3), plus tactics dice
//! (WT-TD-3), plus extra dice such as a special attack's LV on a hit check
//! (WT-DMG-5). The achievement value is the sum of the faces plus 10 per
//! critical, where a critical is a *pair* of 1s (RULINGS "WT critical").
//!
//! The battle engine reuses [`roll_check`] and [`achievement`] directly.

use crate::dice::{Dice, Roll};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Most dice a stat (or `extra_dice`) may contribute to one check.
pub const MAX_STAT_DICE: u32 = 100;
/// WT-TD-5: at most 20 tactics dice on one check (and in the team pool).
pub const MAX_TACTICS_DICE: u32 = 20;
/// Largest |target| accepted.
pub const MAX_TARGET: i64 = 1_000_000_000;
/// WT-CHK-4: achievement bonus per critical.
pub const CRITICAL_BONUS: i64 = 10;

/// The dice pool of one check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WtPool {
    /// WT-CHK-3: dice from the stat.
    pub stat: u32,
    /// WT-TD-3: tactics dice spent (0–20).
    pub tactics: u32,
    /// Extra dice, e.g. a special attack's LV (WT-DMG-5).
    pub extra: u32,
}

impl WtPool {
    /// Validate the three parts (field names get `prefix`) and return the pool.
    ///
    /// WT-TD-5: `tactics` > 20 is `out_of_range`; so is a stat or extra count over
    /// [`MAX_STAT_DICE`] (RULINGS 2026-12-05, error codes: outside the field's documented range).
    pub fn new(prefix: &str, stat: u32, tactics: u32, extra: u32) -> Result<WtPool> {
        if stat > MAX_STAT_DICE {
            return Err(Error::out_of_range(
                format!("{prefix}dice"),
                format_args!("must be 0..={MAX_STAT_DICE}"),
            ));
        }
        if tactics > MAX_TACTICS_DICE {
            return Err(Error::out_of_range(
                format!("{prefix}tactics_dice"),
                format_args!("at most {MAX_TACTICS_DICE} tactics dice on one check (WT-TD-5)"),
            )
            .with_rule("WT-TD-5"));
        }
        if extra > MAX_STAT_DICE {
            return Err(Error::out_of_range(
                format!("{prefix}extra_dice"),
                format_args!("must be 0..={MAX_STAT_DICE}"),
            ));
        }
        Ok(WtPool { stat, tactics, extra })
    }

    /// Total number of dice rolled.
    pub fn size(&self) -> u32 {
        self.stat.saturating_add(self.tactics).saturating_add(self.extra)
    }
}

/// One check's dice pool as the operations take it (`world_trigger.check`,
/// `simulate_checks`, `distribution`, `success_chance`): its stat, tactics and extra dice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtPoolArgs {
    /// WT-CHK-3: stat dice, 0–100.
    #[schemars(range(min = 0, max = MAX_STAT_DICE))]
    pub dice: u32,
    /// WT-TD-3: tactics dice spent, 0–20 (WT-TD-5). Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = MAX_TACTICS_DICE))]
    #[json(rule = "WT-TD-5")]
    pub tactics_dice: u32,
    /// Extra dice added to the pool, e.g. a special attack's LV on a hit check (WT-DMG-5),
    /// 0–100. Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = MAX_STAT_DICE))]
    pub extra_dice: u32,
}

impl WtPoolArgs {
    /// `dice` stat dice and nothing else.
    pub fn stat(dice: u32) -> Self {
        WtPoolArgs { dice, ..Default::default() }
    }

    /// The pool, validated ([`WtPool::new`]).
    pub fn pool(&self) -> Result<WtPool> {
        WtPool::new("", self.dice, self.tactics_dice, self.extra_dice)
    }
}

/// Validate an optional target value.
pub fn check_target(field: &str, target: Option<i64>) -> Result<()> {
    match target {
        Some(t) if t.unsigned_abs() > MAX_TARGET as u64 => {
            Err(Error::out_of_range(field, format_args!("must be within ±{MAX_TARGET}")))
        }
        _ => Ok(()),
    }
}

/// The parts of an achievement value computed from faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WtAchievement {
    /// Sum of the faces.
    pub sum: i64,
    /// Number of faces showing 1.
    pub ones: u32,
    /// WT-CHK-4: criticals = floor(ones ÷ 2).
    pub criticals: u32,
    /// sum + 10 × criticals.
    pub achievement: i64,
}

/// WT-CHK-3 / WT-CHK-4: achievement value of a set of d6 faces. Each 1 adds 1
/// to the sum, and every pair of 1s is one critical worth +10 (RULINGS: bonus
/// = 10 × floor(number of 1s ÷ 2); the source's "+1" caption is a typo).
pub fn achievement(faces: &[u32]) -> WtAchievement {
    let sum = faces.iter().map(|&f| i64::from(f)).sum::<i64>();
    let ones = faces.iter().filter(|&&f| f == 1).count() as u32;
    let criticals = ones / 2;
    WtAchievement { sum, ones, criticals, achievement: sum + CRITICAL_BONUS * i64::from(criticals) }
}

/// WT-CHK-2: the rulebook's sample difficulties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtDifficulty {
    /// 簡單的行動 an easy action: target 5.
    Easy,
    /// 普通的行動 a normal action: target 10.
    Normal,
    /// 困難的行動 a hard action: target 20.
    Hard,
}

impl WtDifficulty {
    /// WT-CHK-2: the target value (5 / 10 / 20).
    pub fn target(self) -> i64 {
        match self {
            WtDifficulty::Easy => 5,
            WtDifficulty::Normal => 10,
            WtDifficulty::Hard => 20,
        }
    }
}

/// Arguments of `world_trigger.check`.
///
/// `rolls`: Scripted d6 faces: the stat dice, then the tactics dice, then the extra dice.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtCheckArgs {
    /// The dice pool: WT-CHK-3 stat dice (the value of the stat the GM picked, WT-CHK-1),
    /// tactics dice (declared before the roll, WT-TD-4) and extra dice.
    #[serde(flatten)]
    pub pool: WtPoolArgs,
    /// WT-CHK-2 / WT-CHK-5: the target value (easy 5, normal 10, hard 20); success iff achievement ≥ target.
    /// Omit it (and `difficulty`) to just roll.
    #[serde(default)]
    #[schemars(range(min = -MAX_TARGET, max = MAX_TARGET))]
    pub target: Option<i64>,
    /// WT-CHK-2: a sample difficulty instead of `target`: `easy` 5, `normal` 10, `hard` 20.
    /// Not together with `target`. Optional.
    #[serde(default)]
    pub difficulty: Option<WtDifficulty>,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of one check.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtCheckResult {
    /// Number of d6 rolled (stat + tactics + extra dice).
    pub dice: u32,
    /// WT-CHK-3: of which stat dice (the first faces).
    #[serde(default)]
    pub stat_dice: u32,
    /// WT-TD-3: of which tactics dice (after the stat dice).
    #[serde(default)]
    pub tactics_dice: u32,
    /// Of which extra dice, e.g. a special attack's LV (WT-DMG-5) (the last faces).
    #[serde(default)]
    pub extra_dice: u32,
    /// The faces, in rolling order (stat dice, tactics dice, extra dice).
    pub faces: Vec<u32>,
    /// Sum of the faces.
    pub sum: i64,
    /// Number of 1s rolled.
    pub ones: u32,
    /// WT-CHK-4: criticals, floor(ones ÷ 2); each adds 10.
    pub criticals: u32,
    /// WT-CHK-3: the achievement value, sum + 10 × criticals.
    pub achievement: i64,
    /// The target value, if any.
    pub target: Option<i64>,
    /// WT-CHK-5: achievement ≥ target; null without a target.
    pub success: Option<bool>,
    /// The dice of this check, in consumption order.
    pub rolls: Vec<Roll>,
}

/// Roll one check with an existing die source: the stat dice, then the
/// tactics dice, then the extra dice, as one pool. `rolls` holds only the dice
/// this check consumed.
pub fn roll_check(dice: &mut Dice, pool: WtPool, target: Option<i64>) -> Result<WtCheckResult> {
    let start = dice.rolls().len();
    let faces = dice.roll_n(pool.size() as usize, 6)?;
    let a = achievement(&faces);
    let rolls = dice.rolls_since(start);
    Ok(WtCheckResult {
        dice: pool.size(),
        stat_dice: pool.stat,
        tactics_dice: pool.tactics,
        extra_dice: pool.extra,
        faces,
        sum: a.sum,
        ones: a.ones,
        criticals: a.criticals,
        achievement: a.achievement,
        target,
        success: target.map(|t| a.achievement >= t),
        rolls,
    })
}

/// `world_trigger.check` — an action check (WT-CHK-1…5) with tactics dice
/// (WT-TD-3…5) and extra dice.
///
/// Scripted `rolls` are consumed as: the `dice` stat dice, then the
/// `tactics_dice`, then the `extra_dice`.
pub fn check(args: &WtCheckArgs) -> Result<WtCheckResult> {
    let pool = args.pool.pool()?;
    check_target("target", args.target)?;
    let target = match (args.target, args.difficulty) {
        (Some(_), Some(_)) => {
            return Err(Error::invalid("difficulty", "give either target or difficulty, not both"))
        }
        (t, d) => t.or(d.map(WtDifficulty::target)),
    };
    let mut dice = args.source.dice()?;
    roll_check(&mut dice, pool, target)
}

/// The two pools of an opposed check (WT-OPP-1): each side's stat, tactics and extra dice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOpposedPools {
    /// The actor's stat dice, 0–100.
    #[schemars(range(min = 0, max = 100))]
    pub actor_dice: u32,
    /// The reactor's stat dice, 0–100.
    #[schemars(range(min = 0, max = 100))]
    pub reactor_dice: u32,
    /// Tactics dice the actor spends, 0–20. Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 20))]
    #[json(rule = "WT-TD-5")]
    pub actor_tactics_dice: u32,
    /// Tactics dice the reactor spends, 0–20. Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 20))]
    #[json(rule = "WT-TD-5")]
    pub reactor_tactics_dice: u32,
    /// Extra dice for the actor (e.g. special-attack LV on a hit check), 0–100. Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 100))]
    pub actor_extra_dice: u32,
    /// Extra dice for the reactor, 0–100. Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 100))]
    pub reactor_extra_dice: u32,
}

impl WtOpposedPools {
    /// The actor's pool and the reactor's, validated in that order (fields named
    /// `actor_…`, `reactor_…`).
    pub fn pools(&self) -> Result<(WtPool, WtPool)> {
        let actor = WtPool::new("actor_", self.actor_dice, self.actor_tactics_dice, self.actor_extra_dice)?;
        let reactor =
            WtPool::new("reactor_", self.reactor_dice, self.reactor_tactics_dice, self.reactor_extra_dice)?;
        Ok((actor, reactor))
    }
}

/// Arguments of `world_trigger.opposed`.
///
/// `rolls`: Scripted d6 faces: the REACTOR's whole pool first (stat, tactics, extra dice), then the actor's (stat, tactics, extra dice). WT-OPP-2.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOpposedArgs {
    /// Both sides' pools.
    #[serde(flatten)]
    pub pools: crate::world_trigger::check::WtOpposedPools,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `world_trigger.opposed`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtOpposedResult {
    /// The reactor's check (rolled first; no target).
    pub reactor: WtCheckResult,
    /// The actor's check; its target is the reactor's achievement.
    pub actor: WtCheckResult,
    /// WT-OPP-3: actor achievement ≥ reactor achievement (ties go to the actor).
    pub actor_wins: bool,
    /// Every die rolled, reactor first.
    pub rolls: Vec<Roll>,
}

/// Roll an opposed check with an existing die source: WT-OPP-2 the reactor
/// rolls first and its achievement becomes the actor's target; WT-OPP-3 the
/// actor wins on ≥. Used by hit checks in the battle engine (WT-HIT-1).
pub fn roll_opposed(dice: &mut Dice, actor: WtPool, reactor: WtPool) -> Result<WtOpposedResult> {
    let start = dice.rolls().len();
    let r = roll_check(dice, reactor, None)?;
    let a = roll_check(dice, actor, Some(r.achievement))?;
    let rolls = dice.rolls_since(start);
    Ok(WtOpposedResult { actor_wins: a.achievement >= r.achievement, reactor: r, actor: a, rolls })
}

/// `world_trigger.opposed` — an opposed check (WT-OPP-1…3).
///
/// Scripted `rolls`: the reactor's pool first (stat, tactics, extra dice), then
/// the actor's pool in the same order.
pub fn opposed(args: &WtOpposedArgs) -> Result<WtOpposedResult> {
    let (actor, reactor) = args.pools.pools()?;
    let mut dice = args.source.dice()?;
    roll_opposed(&mut dice, actor, reactor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critical_is_per_pair_of_ones() {
        // WT-CHK-4: two 1s → +10; three 1s still one critical; four 1s → two.
        assert_eq!(achievement(&[1, 1, 4]).achievement, 16);
        assert_eq!(achievement(&[1, 1, 1]).achievement, 13);
        assert_eq!(achievement(&[1, 1, 1, 1]).achievement, 24);
        assert_eq!(achievement(&[1, 6]).achievement, 7);
        assert_eq!(achievement(&[]).achievement, 0);
    }

    #[test]
    fn tactics_pool_is_battle_state() {
        // WT-TD-1/2/6: the team pool (built up by commands, managed by the
        // leader, cleared at the end of the battle) is battle state for the
        // battle engine; a check only takes the spend (WT-TD-3…5),
        // so two identical checks never share or deplete anything here.
        let args = WtCheckArgs {
            pool: WtPoolArgs { tactics_dice: 20, ..WtPoolArgs::stat(1) },
            source: Some(9).into(),
            ..Default::default()
        };
        assert_eq!(check(&args).unwrap(), check(&args).unwrap());
    }

    #[test]
    fn garbage_args_never_panic() {
        for v in [
            serde_json::json!({"dice": 4294967295u32}),
            serde_json::json!({"dice": -1}),
            serde_json::json!({"dice": 100, "tactics_dice": 20, "extra_dice": 100, "seed": 1}),
            serde_json::json!({"dice": 3, "target": i64::MAX}),
            serde_json::json!({"dice": 3, "rolls": [1]}),
            serde_json::json!({"dice": "x"}),
            serde_json::json!(null),
            serde_json::json!([1, 2]),
        ] {
            let _ = crate::call("world_trigger.check", v.clone());
            let _ = crate::call("world_trigger.opposed", v);
        }
        let r = crate::call(
            "world_trigger.opposed",
            serde_json::json!({"actor_dice": 100, "reactor_dice": 100, "actor_tactics_dice": 20,
                "reactor_tactics_dice": 20, "actor_extra_dice": 100, "reactor_extra_dice": 100, "seed": 5}),
        )
        .unwrap();
        assert_eq!(r["rolls"].as_array().unwrap().len(), 440);
    }
}
