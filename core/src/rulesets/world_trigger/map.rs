//! Out of bounds (WT-OOB), teleport and coordinate dice (WT-MAP-6/7), range
//! and areas on the grid (WT-RNG) and the D66 profile roll (WT-CC-9, WT-OP-7).

use super::battle::grid;
use super::battle::WtSquare;
use super::check::{roll_check, WtCheckResult, WtPool};
use super::data::load_pack;
use super::types::WtLabel;
use crate::dice::{Dice, Roll};
use crate::error::quote;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use serde_json::Value;

/// Most re-rolls of one coordinate die before `limit_exceeded`.
pub const MAX_REROLLS: u32 = 1000;
/// WT-MAP-6 step 2: Trion paid by a PC that teleports with Bagworm active.
pub const BAGWORM_TELEPORT_COST: i64 = 5;

/// WT-OOB-2: the Mobility-check difficulty to re-enter from `distance` squares out
/// (1 → 15, 2 → 20, 3 → 30, 4 or more → 40).
pub fn out_of_bounds_difficulty(distance: u32) -> Option<i64> {
    match distance {
        0 => None,
        1 => Some(15),
        2 => Some(20),
        3 => Some(30),
        _ => Some(40),
    }
}

/// Arguments of `world_trigger.out_of_bounds_target`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOutOfBoundsTargetArgs {
    /// Squares between the character and the battlefield (≥ 1).
    pub distance: u32,
}

/// Result of `world_trigger.out_of_bounds_target`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtOutOfBoundsTargetResult {
    /// The Mobility check's target value.
    pub target: i64,
}

fn oob_target(distance: u32) -> Result<i64> {
    out_of_bounds_difficulty(distance)
        .ok_or_else(|| Error::out_of_range("distance", "an out-of-bounds character is at least 1 square out"))
}

/// `world_trigger.out_of_bounds_target` — WT-OOB-2 difficulty by distance.
pub fn out_of_bounds_target(args: &WtOutOfBoundsTargetArgs) -> Result<WtOutOfBoundsTargetResult> {
    Ok(WtOutOfBoundsTargetResult { target: oob_target(args.distance)? })
}

/// Arguments of `world_trigger.out_of_bounds_check`.
///
/// `rolls`: Scripted d6 faces: the Mobility dice, then the tactics dice.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOutOfBoundsCheckArgs {
    /// Squares between the character and the battlefield (≥ 1).
    pub distance: u32,
    /// The character's Mobility (dice), 0–100.
    #[schemars(range(min = 0, max = 100))]
    pub mobility: u32,
    /// Tactics dice spent, 0–20. Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 20))]
    #[json(rule = "WT-TD-5")]
    pub tactics_dice: u32,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `world_trigger.out_of_bounds_check`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtOutOfBoundsCheckResult {
    /// The Mobility check (its target is the WT-OOB-2 difficulty).
    pub check: WtCheckResult,
    /// WT-OOB-3: true → the character returns to the nearest battlefield square.
    pub returned: bool,
    /// WT-OOB-1: true → unless an ally brings it back first (WT-OOB-4), it is
    /// forced into emergency bailout when the Feedback phase begins.
    pub bailout_at_feedback: bool,
    /// Dice rolled.
    pub rolls: Vec<Roll>,
}

/// `world_trigger.out_of_bounds_check` — the Mobility check to re-enter the battlefield (WT-OOB-1…4).
///
/// Scripted `rolls`: the Mobility dice, then the tactics dice.
pub fn out_of_bounds_check(args: &WtOutOfBoundsCheckArgs) -> Result<WtOutOfBoundsCheckResult> {
    let target = oob_target(args.distance)?;
    let pool = WtPool::new("", args.mobility, args.tactics_dice, 0).map_err(|e| {
        if e.field.as_deref() == Some("dice") {
            Error::out_of_range("mobility", "at most 100 dice")
        } else {
            e
        }
    })?;
    let mut dice = args.source.dice()?;
    let check = roll_check(&mut dice, pool, Some(target))?;
    let returned = check.success == Some(true);
    Ok(WtOutOfBoundsCheckResult { returned, bailout_at_feedback: !returned, rolls: dice.take_rolls(), check })
}

/// Arguments of `world_trigger.d66`.
///
/// `rolls`: Scripted faces: the tens d6, then the units d6.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtD66Args {
    /// A profile table id to look the result up in (from the data pack). Optional.
    #[serde(default)]
    pub table: Option<String>,
    /// A data pack; default the bundled sample pack (which has no profile tables).
    #[serde(default)]
    #[schemars(with = "Option<super::data::WtDataPack>")]
    pub data: Option<Value>,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `world_trigger.d66`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtD66Result {
    /// tens × 10 + units, 11–66.
    pub value: u32,
    /// The tens die.
    pub tens: u32,
    /// The units die.
    pub ones: u32,
    /// The table entry for `value`, when a table was given and has one.
    pub entry: Option<WtLabel>,
    /// Dice rolled.
    pub rolls: Vec<Roll>,
}

/// `world_trigger.d66` — WT-CC-9 / WT-OP-7: roll D66 (tens die first) and look it up.
pub fn d66(args: &WtD66Args) -> Result<WtD66Result> {
    let pack = load_pack(args.data.as_ref())?;
    let table = match &args.table {
        None => None,
        Some(id) => Some(pack.profile_tables.iter().find(|t| &t.id == id).ok_or_else(|| {
            Error::invalid("table", format_args!("no profile table {} in the data pack", quote(id)))
        })?),
    };
    let mut dice = args.source.dice()?;
    let tens = dice.roll(6)?;
    let ones = dice.roll(6)?;
    let value = tens * 10 + ones;
    let entry = table.and_then(|t| t.entries.iter().find(|e| e.roll == value)).map(|e| e.text.clone());
    Ok(WtD66Result { value, tens, ones, entry, rolls: dice.take_rolls() })
}

/// Where a coordinate roll puts the character (WT-MAP-7).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WtMapSpot {
    /// In a core (3×3): roll the core address; the sector die shows 20 (default; teleports land here).
    #[default]
    Core,
    /// On a sector's perimeter: roll the sector address 1–16; the core die shows 0.
    Perimeter,
}

/// Arguments of `world_trigger.teleport_coordinates`.
///
/// `rolls`: Scripted faces: the core-ID d20 (re-rolled while above `sectors`), then the core-address d10 (core) or the sector-address d20 (perimeter, re-rolled on 17–20).
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtTeleportArgs {
    /// Number of sectors in the whole area, 1–20 (WT-MAP-5: normally 20). Default 20.
    #[serde(default)]
    #[schemars(range(min = 1, max = 20))]
    pub sectors: Option<u32>,
    /// Core (default, as WT-MAP-6 teleports) or perimeter.
    #[serde(default)]
    pub spot: WtMapSpot,
    /// WT-MAP-6 step 2: the PC teleports with Bagworm active: it pays 5 Trion, keeps its
    /// core-ID card face down and rolls the core address where only it can see it.
    /// Only with `spot = core` (the teleport). Default false.
    #[serde(default)]
    pub bagworm: bool,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Result of `world_trigger.teleport_coordinates`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtTeleportResult {
    /// Core ID, 1…sectors (d20).
    pub core_id: u32,
    /// Core address 1–9; 0 when not in the core, or when the d10 read 0 (player's choice).
    pub core_address: u32,
    /// WT-MAP-6: the d10 read 0 — the player chooses any core square 1–9.
    pub player_chooses_square: bool,
    /// Sector address 1–16 on the perimeter; 20 = unused (in the core).
    pub sector_address: u32,
    /// Dice re-rolled (core ID above `sectors`, sector address 17–20).
    pub rerolls: u32,
    /// WT-MAP-6 step 2: Trion the PC pays for the teleport (5 with Bagworm, else 0).
    pub trion_cost: i64,
    /// WT-MAP-6 steps 2–3 / WT-MAP-7: the position is hidden (Bagworm): the core-ID card stays
    /// face down and the core address is seen only by its player (and the GM).
    pub hidden: bool,
    /// Dice rolled.
    pub rolls: Vec<Roll>,
}

fn roll_until(dice: &mut Dice, sides: u32, ok: impl Fn(u32) -> bool, rerolls: &mut u32) -> Result<u32> {
    loop {
        let v = dice.roll(sides)?;
        if ok(v) {
            return Ok(v);
        }
        *rerolls += 1;
        if *rerolls > MAX_REROLLS {
            return Err(Error::limit("rolls", format_args!("more than {MAX_REROLLS} re-rolls")));
        }
    }
}

/// `world_trigger.teleport_coordinates` — WT-MAP-6/7 coordinate dice: core ID
/// d20 (1…sectors, re-roll higher), then core address d10 (a 10 reads 0: the
/// player's choice of square) or, on the perimeter, sector address d20 (1–16,
/// re-roll 17–20). With `bagworm` (WT-MAP-6 step 2) the teleport costs 5 Trion
/// and the position stays hidden.
pub fn teleport_coordinates(args: &WtTeleportArgs) -> Result<WtTeleportResult> {
    let sectors = args.sectors.unwrap_or(20);
    if !(1..=20).contains(&sectors) {
        return Err(Error::out_of_range("sectors", "1..=20 sectors (a d20 picks the core ID)"));
    }
    if args.bagworm && args.spot == WtMapSpot::Perimeter {
        return Err(Error::invalid(
            "bagworm",
            "the Bagworm teleport (WT-MAP-6) lands in a core: use spot = core",
        ));
    }
    let mut dice = args.source.dice()?;
    let mut rerolls = 0;
    let core_id = roll_until(&mut dice, 20, |v| v <= sectors, &mut rerolls)?;
    let (core_address, chooses, sector_address) = match args.spot {
        WtMapSpot::Core => {
            let d = dice.roll(10)?;
            let digit = d % 10;
            (digit, digit == 0, 20)
        }
        WtMapSpot::Perimeter => {
            let s = roll_until(&mut dice, 20, |v| v <= 16, &mut rerolls)?;
            (0, false, s)
        }
    };
    Ok(WtTeleportResult {
        core_id,
        core_address,
        player_chooses_square: chooses,
        sector_address,
        rerolls,
        trion_cost: if args.bagworm { BAGWORM_TELEPORT_COST } else { 0 },
        hidden: args.bagworm,
        rolls: dice.take_rolls(),
    })
}

/// Most squares measured by one `world_trigger.range` call.
pub const MAX_RANGE_TARGETS: usize = 1000;
/// Largest |coordinate| accepted by `world_trigger.range`.
pub const MAX_COORD: i64 = 1_000_000;

/// A square on the grid, with its height.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtRangePoint {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
    /// Height level. Accepted and ignored: range and areas don't count height (WT-RNG-2/5). Default 0.
    #[serde(default)]
    pub height: i64,
}

/// Arguments of `world_trigger.range`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtRangeArgs {
    /// The user's square (range 0, WT-RNG-1).
    pub from: WtRangePoint,
    /// The squares to measure, at most 1000.
    #[serde(default)]
    pub targets: Vec<WtRangePoint>,
    /// WT-RNG-1: the skill's range; the result then says which targets (or, for an area
    /// skill, whether the centre) are within it. Optional.
    #[serde(default)]
    pub range: Option<u32>,
    /// WT-RNG-3: the side of a square area (3 for 3×3, 5 for 5×5; odd, 1–99), centred on `center`. Optional.
    #[serde(default)]
    #[schemars(range(min = 1, max = 99))]
    pub area: Option<u32>,
    /// WT-RNG-4: the area's centre, whose distance is the area skill's range (required with `area`).
    #[serde(default)]
    pub center: Option<WtRangePoint>,
    /// Rule variants.
    #[serde(default)]
    pub variants: crate::world_trigger::types::WtVariants,
}

/// Result of `world_trigger.range`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtRangeResult {
    /// WT-RNG-1/2: the distance from `from` to each target, in squares, height ignored.
    pub distances: Vec<i64>,
    /// WT-RNG-1: each target is within `range` (null without `range`, or for an area skill).
    pub in_range: Option<Vec<bool>>,
    /// WT-RNG-4: the distance from `from` to the area's centre (null without `area`).
    pub center_distance: Option<i64>,
    /// WT-RNG-4: the centre is within `range` (null without `area` or `range`).
    pub center_in_range: Option<bool>,
    /// WT-RNG-3/5: each target is inside the area, friend or foe, the user included
    /// (height ignored); null without `area`.
    pub in_area: Option<Vec<bool>>,
}

fn range_square(field: &str, p: &WtRangePoint) -> Result<WtSquare> {
    if p.x.unsigned_abs() > MAX_COORD as u64 || p.y.unsigned_abs() > MAX_COORD as u64 {
        return Err(Error::out_of_range(field, format_args!("coordinates must be within ±{MAX_COORD}")));
    }
    Ok(WtSquare { x: p.x, y: p.y })
}

/// `world_trigger.range` — WT-RNG-1…5: distances in squares (height ignored; variant
/// `range_metric`, default Chebyshev), which targets a skill's range reaches, and for an
/// area skill whether its centre is in range and who is inside the N×N area.
pub fn range(args: &WtRangeArgs) -> Result<WtRangeResult> {
    if args.targets.len() > MAX_RANGE_TARGETS {
        return Err(Error::limit("targets", format_args!("at most {MAX_RANGE_TARGETS} squares")));
    }
    if args.range.is_some_and(|r| r > 1000) {
        return Err(Error::out_of_range("range", "at most 1000 squares"));
    }
    let metric = args.variants.range_metric;
    let from = range_square("from", &args.from)?;
    let targets = args
        .targets
        .iter()
        .enumerate()
        .map(|(i, t)| range_square(&format!("targets[{i}]"), t))
        .collect::<Result<Vec<_>>>()?;
    let distances: Vec<i64> = targets.iter().map(|&t| grid::distance(metric, from, t)).collect();
    let reach = |d: i64| args.range.map(|r| d <= i64::from(r));
    match (args.area, &args.center) {
        (None, None) => Ok(WtRangeResult {
            in_range: args.range.map(|_| distances.iter().map(|&d| reach(d) == Some(true)).collect()),
            distances,
            center_distance: None,
            center_in_range: None,
            in_area: None,
        }),
        (None, Some(_)) => Err(Error::invalid("area", "a centre is for an area skill: give area too")),
        (Some(_), None) => Err(Error::invalid("center", "an area skill needs its centre square")),
        (Some(side), Some(c)) => {
            if side == 0 || side > 99 || side % 2 == 0 {
                return Err(Error::out_of_range("area", "an odd square side 1..=99 (3 for 3x3)"));
            }
            let c = range_square("center", c)?;
            let cd = grid::distance(metric, from, c);
            Ok(WtRangeResult {
                in_area: Some(targets.iter().map(|&t| grid::in_area(c, side, t)).collect()),
                distances,
                in_range: None,
                center_distance: Some(cd),
                center_in_range: reach(cd),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn garbage_args_never_panic() {
        for v in [
            json!({"distance": 0}),
            json!({"distance": u32::MAX, "mobility": u32::MAX}),
            json!({"sectors": 0}),
            json!({"sectors": 1, "rolls": vec![20; 2000]}),
            json!({"table": "x"}),
            json!({"spot": "perimeter", "rolls": [3, 17, 18, 19, 20]}),
            json!({"from": {"x": i64::MAX, "y": i64::MIN}, "targets": [{"x": 1, "y": 1}]}),
            json!({"from": {"x": 0, "y": 0}, "targets": vec![json!({"x": 1, "y": 1}); 1001]}),
            json!({"from": {"x": 0, "y": 0}, "area": u32::MAX, "center": {"x": -1000000, "y": 1000000}, "range": u32::MAX}),
            json!({"from": {"x": -1000000, "y": -1000000}, "targets": [{"x": 1000000, "y": 1000000, "height": i64::MIN}], "range": 0}),
        ] {
            for op in ["out_of_bounds_target", "out_of_bounds_check", "d66", "teleport_coordinates", "range"]
            {
                let _ = crate::call(&format!("world_trigger.{op}"), v.clone());
            }
        }
        let e = crate::call("world_trigger.teleport_coordinates", json!({"sectors": 1, "seed": 3})).unwrap();
        assert_eq!(e["core_id"], 1);
    }
}
