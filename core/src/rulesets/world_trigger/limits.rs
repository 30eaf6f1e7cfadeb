//! Exact numbers the analysis helpers need from the World Trigger rules, so that no
//! host re-implements them: `world_trigger.creation_limits` (WT-CC-4, WT-CC-5) and
//! `world_trigger.damage_odds` (WT-DMG-1, WT-DMG-4, WT-DMG-5).

use super::character::CREATION_POINTS;
use super::damage::{burst_cap, damage, WtDamageArgs, WtHitArgs};
use super::data::load_pack;
use super::types::{WtPosition, WtStat, WtStats};
use crate::dice::ScriptedFace;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use serde_json::Value;

/// Arguments of `world_trigger.creation_limits`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtCreationLimitsArgs {
    /// WT-CC-2: the position.
    pub position: WtPosition,
    /// A data pack (the position's base stats); default the bundled sample pack (illustrative).
    #[serde(default)]
    #[schemars(with = "Option<super::data::WtDataPack>")]
    pub data: Option<Value>,
}

/// Result of `world_trigger.creation_limits`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtCreationLimitsResult {
    /// WT-CC-4: the stats a sheet distributes points over, in sheet order.
    pub stats: Vec<WtStat>,
    /// WT-CC-5: the points to distribute, exactly.
    pub points: i64,
    /// WT-CC-5: the creation cap on base + points of each stat (9; All-rounder 8).
    pub cap: i64,
    /// The position's base stats (data pack).
    pub base: WtStats,
    /// The most points each stat can take at creation: cap − base, at least 0.
    pub max_points: WtStats,
}

/// `world_trigger.creation_limits` — WT-CC-4/WT-CC-5 for one position: the stats,
/// the 20 points to distribute and, per stat, the most points the creation cap
/// (on base + points) leaves. `world_trigger.validate_sheet` applies the same limits.
pub fn creation_limits(args: &WtCreationLimitsArgs) -> Result<WtCreationLimitsResult> {
    let pack = load_pack(args.data.as_ref())?;
    let Some(pos) = pack.position(args.position) else {
        let k = args.position.key();
        return Err(Error::invalid("position", format_args!("the data pack has no position {k}"))
            .with_rule("WT-CC-2"));
    };
    let cap = args.position.creation_cap();
    let mut max_points = WtStats::default();
    for st in WtStat::ALL {
        *max_points.get_mut(st) = cap.saturating_sub(pos.base.get(st)).max(0);
    }
    Ok(WtCreationLimitsResult {
        stats: WtStat::ALL.to_vec(),
        points: CREATION_POINTS,
        cap,
        base: pos.base,
        max_points,
    })
}

/// Arguments of `world_trigger.damage_odds`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtDamageOddsArgs {
    /// The hit, as in `world_trigger.damage`.
    #[serde(flatten)]
    pub hit: WtHitArgs,
}

/// One possible damage total.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtDamageOutcome {
    /// The damage of the hit.
    pub total: i64,
    /// Its chance.
    pub probability: f64,
}

/// Result of `world_trigger.damage_odds`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtDamageOddsResult {
    /// The exact mean damage of one hit.
    pub mean: f64,
    /// Every possible total with its chance, lowest first.
    pub distribution: Vec<WtDamageOutcome>,
    /// WT-DMG-4: the largest burst `trion_stat` allows (a full Trion Burst), min(Trion stat, 10).
    pub max_burst: i64,
}

/// WT-DMG-1: the faces of the one damage die (a d6).
const DAMAGE_DIE_SIDES: u32 = 6;

/// `world_trigger.damage_odds` — WT-DMG-1/4/5: the exact damage distribution of one
/// hit, `world_trigger.damage` for every face of its die (arguments checked as there),
/// and the largest Trion Burst the Trion stat allows.
pub fn damage_odds(args: &WtDamageOddsArgs) -> Result<WtDamageOddsResult> {
    let mut totals = Vec::with_capacity(DAMAGE_DIE_SIDES as usize);
    for face in 1..=i64::from(DAMAGE_DIE_SIDES) {
        // The die's sides go with the face: `damage` refuses it if its die is another.
        let roll = ScriptedFace::Roll { sides: Some(DAMAGE_DIE_SIDES), value: face, kind: None };
        let r = damage(&WtDamageArgs {
            hit: args.hit.clone(),
            source: crate::dice::DiceArgs { rolls: Some(vec![roll]), ..Default::default() },
            ..WtDamageArgs::default()
        })?;
        totals.push(r.total);
    }
    // Each total once, lowest first (kept in order as they come).
    let mut distribution: Vec<WtDamageOutcome> = Vec::new();
    for &t in &totals {
        let at = distribution.iter().position(|d| d.total >= t).unwrap_or(distribution.len());
        match distribution.get_mut(at) {
            Some(d) if d.total == t => d.probability += 1.0,
            _ => distribution.insert(at, WtDamageOutcome { total: t, probability: 1.0 }),
        }
    }
    for d in &mut distribution {
        d.probability /= f64::from(DAMAGE_DIE_SIDES);
    }
    let sum = totals.iter().fold(0i64, |a, t| a.saturating_add(*t));
    Ok(WtDamageOddsResult {
        mean: sum as f64 / f64::from(DAMAGE_DIE_SIDES),
        distribution,
        max_burst: burst_cap(args.hit.trion_stat),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    /// WT-CC-5 (RULINGS: the cap applies to base + points): a position's base stats
    /// lower the points a stat can take, never below 0; `validate_sheet` agrees.
    #[test]
    fn creation_limits_follow_the_pack_base() {
        let mut pack = crate::call("world_trigger.sample_data", json!({})).unwrap();
        let attacker =
            pack["positions"].as_array_mut().unwrap().iter_mut().find(|p| p["id"] == "attacker").unwrap();
        attacker["base"] = json!({"trion": 3, "attack": 9});
        let r = crate::call("world_trigger.creation_limits", json!({"position": "attacker", "data": pack}))
            .unwrap();
        assert_eq!(r["cap"], 9);
        assert_eq!(r["base"]["trion"], 3);
        assert_eq!(r["max_points"]["trion"], 6);
        assert_eq!(r["max_points"]["attack"], 0);
        assert_eq!(r["max_points"]["mobility"], 9);
        // One point above what creation_limits allows is a WT-CC-5 violation.
        let sheet = |trion: i64| {
            json!({"name": "t", "position": "attacker", "master": "placeholder_master_trion",
                   "points": {"trion": trion, "defense_support": 9, "mobility": 11 - trion}})
        };
        let bad =
            crate::call("world_trigger.validate_sheet", json!({"sheet": sheet(7), "data": pack})).unwrap();
        assert!(
            bad["violations"].as_array().unwrap().iter().any(|v| v["path"] == "sheet.points.trion"),
            "{bad}"
        );
        let ok =
            crate::call("world_trigger.validate_sheet", json!({"sheet": sheet(6), "data": pack})).unwrap();
        assert!(
            !ok["violations"].as_array().unwrap().iter().any(|v| v["path"] == "sheet.points.trion"),
            "{ok}"
        );
    }
}
