//! `coc_ap.sheet` (Call of Cthulhu 6th edition, 3–18 characteristics) and
//! `coc7_house.sheet` (7th edition, percentile characteristics).
//!
//! The seeds (001, 002) are house rules on top of the base rulebooks and state
//! neither the characteristics' ranges, nor HP / MP / SAN / MOV, nor the damage
//! bonus and build table, nor the skills' base values. Those are data: a pack per
//! edition (`core/data/coc/sheet6.json`, `sheet7.json`), illustrative (written
//! from general knowledge of the published games, not from the seeds), replaceable
//! by the caller's `data`. In code, with their rule IDs: the AP from DEX
//! (COCAP-AP-3/4, `coc_ap.action_points`), initiative = floor(DEX ÷ 5)
//! (C7H-INIT-1) and the 7th-edition half / fifth values (the Hard and Extreme
//! targets of `coc7.check`).

use super::{
    bound, check_name, l, not_in_table, out_of_range, required, SheetResult, SheetValue, SheetViolation,
};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use crate::world_trigger::types::WtLabel;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Largest characteristic or skill value accepted (beyond: `out_of_range`).
pub const MAX_VALUE: i64 = 999;
/// Most entries in any list of a pack, and most skills on a sheet.
pub const MAX_ENTRIES: usize = 64;

const PACK6: &str = include_str!("../../data/coc/sheet6.json");
const PACK7: &str = include_str!("../../data/coc/sheet7.json");

/// Where a pack comes from and how far to trust it.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocPackMeta {
    /// Pack id.
    pub id: String,
    /// True when the values are not the group's own book (the bundled packs are).
    pub illustrative: bool,
    /// Where the values come from.
    pub source: String,
}

/// A characteristic the sheet enters.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocCharacteristic {
    /// Id (`str`, `con` …; lowercase letters, digits, `_`).
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// Smallest valid value.
    pub min: i64,
    /// Largest valid value.
    pub max: i64,
}

/// A comparison formula: `less` when every `each` characteristic is below `with`,
/// `greater` when every one is above it, else `otherwise` (7th-edition MOV).
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocCompare {
    /// Characteristics compared.
    pub each: Vec<String>,
    /// The characteristic they are compared with.
    pub with: String,
    /// Value when all are lower.
    pub less: i64,
    /// Value when all are higher.
    pub greater: i64,
    /// Value otherwise.
    pub otherwise: i64,
}

/// How a division rounds.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToJson, Deserialize, FromJson, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum CocRound {
    /// Toward minus infinity (default).
    #[default]
    Floor,
    /// Toward plus infinity.
    Ceil,
}

/// A formula: `round(sum(of) × mul ÷ div) + add`, or a comparison.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocFormula {
    /// Id (`hp`, `dodge` …).
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// Characteristics summed (none: the value is `add`).
    #[serde(default)]
    pub of: Vec<String>,
    /// Multiplier, 1..=100; default 1.
    #[serde(default = "one")]
    pub mul: i64,
    /// Divisor, 1..=100; default 1.
    #[serde(default = "one")]
    pub div: i64,
    /// Rounding of the division; default floor.
    #[serde(default)]
    pub round: CocRound,
    /// Added after the division, −1000..=1000; default 0.
    #[serde(default)]
    pub add: i64,
    /// A comparison instead of the sum.
    #[serde(default)]
    pub compare: Option<CocCompare>,
}

fn one() -> i64 {
    1
}

/// One row of a table: sums `min..=max` give `value`.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocRow {
    /// Smallest sum of the row.
    pub min: i64,
    /// Largest sum of the row.
    pub max: i64,
    /// The value shown (`-1D4`, `0`, `+1D6`, `2`).
    pub value: String,
}

/// A table looked up by a sum of characteristics (damage bonus, build).
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocTable {
    /// Id (`db`, `build`).
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// Characteristics summed.
    pub of: Vec<String>,
    /// Rows in ascending order, not overlapping.
    pub rows: Vec<CocRow>,
}

/// A CoC sheet data pack (see `coc_ap.sheet` / `coc7_house.sheet`; the bundled
/// packs are illustrative).
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocSheetPack {
    /// Origin.
    pub meta: CocPackMeta,
    /// The characteristics, in sheet order.
    pub characteristics: Vec<CocCharacteristic>,
    /// Derived values.
    #[serde(default)]
    pub derived: Vec<CocFormula>,
    /// Tables (damage bonus, build).
    #[serde(default)]
    pub tables: Vec<CocTable>,
    /// Skills with their base values (used when the sheet gives none).
    #[serde(default)]
    pub skills: Vec<CocFormula>,
}

/// A CoC character sheet.
#[derive(Debug, Clone, Default, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocSheet {
    /// Character name, 1–200 characters.
    #[serde(default)]
    pub name: String,
    /// Characteristics by the pack's ids, 0–999 (missing ones are `required` violations).
    #[serde(default)]
    pub characteristics: BTreeMap<String, i64>,
    /// Skill values by id, 0–999 (at most 64); a pack skill left out takes its base value.
    #[serde(default)]
    pub skills: BTreeMap<String, i64>,
    /// 6th edition: AP modifier from abilities or magic (COCAP-AP-4), −100…100.
    #[serde(default)]
    pub ap_bonus: i64,
}

/// Arguments of `coc_ap.sheet` and `coc7_house.sheet`.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocSheetArgs {
    /// The sheet.
    pub sheet: CocSheet,
    /// A data pack; default the bundled illustrative pack of the edition.
    #[serde(default)]
    #[schemars(with = "Option<CocSheetPack>")]
    pub data: Option<Value>,
}

/// Arguments of `coc_ap.sheet_data` / `coc7_house.sheet_data`.
#[derive(Debug, Clone, Default, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CocSheetDataArgs {}

fn pack_error(path: String, m: &str) -> Error {
    Error::invalid_data(path, m)
}

fn check_formula(at: &str, f: &CocFormula, chars: &[&str]) -> Result<()> {
    let known = |p: String, id: &str| {
        if chars.contains(&id) {
            Ok(())
        } else {
            Err(pack_error(p, "not a characteristic of the pack"))
        }
    };
    for (i, c) in f.of.iter().enumerate() {
        known(format!("{at}.of[{i}]"), c)?;
    }
    if let Some(c) = &f.compare {
        for (i, e) in c.each.iter().enumerate() {
            known(format!("{at}.compare.each[{i}]"), e)?;
        }
        known(format!("{at}.compare.with"), &c.with)?;
    }
    for (k, v, lo, hi) in [("mul", f.mul, 1, 100), ("div", f.div, 1, 100), ("add", f.add, -1000, 1000)] {
        if !(lo..=hi).contains(&v) {
            return Err(pack_error(format!("{at}.{k}"), "outside its range (mul, div 1..=100; add ±1000)"));
        }
    }
    Ok(())
}

/// Check a pack: ids, references, ranges, rows ascending; the first problem is an
/// `invalid_data` error naming its path under `data`.
pub fn validate_pack(p: &CocSheetPack) -> Result<()> {
    let lists = [p.characteristics.len(), p.derived.len(), p.tables.len(), p.skills.len()];
    if lists.iter().any(|&n| n > MAX_ENTRIES) {
        return Err(Error::limit("data", format_args!("at most {MAX_ENTRIES} entries per list")));
    }
    let unique = |list: &str, ids: Vec<&str>| -> Result<()> {
        for (i, a) in ids.iter().enumerate() {
            if !crate::engine::ids::is_data_id(a) {
                return Err(pack_error(format!("data.{list}[{i}].id"), "ids are 1-64 of a-z, 0-9, _"));
            }
            if ids[..i].contains(a) {
                return Err(pack_error(format!("data.{list}[{i}].id"), "duplicate id"));
            }
        }
        Ok(())
    };
    unique("characteristics", p.characteristics.iter().map(|c| c.id.as_str()).collect())?;
    unique(
        "derived",
        p.derived.iter().map(|c| c.id.as_str()).chain(p.tables.iter().map(|t| t.id.as_str())).collect(),
    )?;
    unique("skills", p.skills.iter().map(|c| c.id.as_str()).collect())?;
    for (i, c) in p.characteristics.iter().enumerate() {
        if c.min < 0 || c.min > c.max || c.max > MAX_VALUE {
            return Err(pack_error(format!("data.characteristics[{i}]"), "needs 0 <= min <= max <= 999"));
        }
    }
    let chars: Vec<&str> = p.characteristics.iter().map(|c| c.id.as_str()).collect();
    for (i, f) in p.derived.iter().enumerate() {
        check_formula(&format!("data.derived[{i}]"), f, &chars)?;
    }
    for (i, f) in p.skills.iter().enumerate() {
        check_formula(&format!("data.skills[{i}]"), f, &chars)?;
    }
    for (i, t) in p.tables.iter().enumerate() {
        for (j, c) in t.of.iter().enumerate() {
            if !chars.contains(&c.as_str()) {
                return Err(pack_error(
                    format!("data.tables[{i}].of[{j}]"),
                    "not a characteristic of the pack",
                ));
            }
        }
        let mut last = i64::MIN;
        if t.rows.is_empty() || t.rows.len() > MAX_ENTRIES {
            return Err(pack_error(format!("data.tables[{i}].rows"), "needs 1-64 rows"));
        }
        for (j, r) in t.rows.iter().enumerate() {
            if r.min > r.max || r.min <= last || r.value.chars().count() > 64 {
                return Err(pack_error(
                    format!("data.tables[{i}].rows[{j}]"),
                    "rows need min <= max, ascending without overlap, a value of at most 64 characters",
                ));
            }
            last = r.max;
        }
    }
    Ok(())
}

fn bundled(seventh: bool) -> Result<CocSheetPack> {
    let text = if seventh { PACK7 } else { PACK6 };
    let v: Value = serde_json::from_str(text).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))?;
    crate::ops::parse_data("data", v)
}

fn load(seventh: bool, data: Option<&Value>) -> Result<CocSheetPack> {
    let p = match data {
        None => bundled(seventh)?,
        Some(v) => crate::ops::parse_data("data", v.clone())?,
    };
    validate_pack(&p)?;
    Ok(p)
}

/// Evaluate a formula on the characteristics (None when one it reads is missing).
fn eval(f: &CocFormula, c: &BTreeMap<String, i64>) -> Option<i64> {
    let get = |k: &String| c.get(k).copied();
    if let Some(cmp) = &f.compare {
        let w = get(&cmp.with)?;
        let vs: Option<Vec<i64>> = cmp.each.iter().map(get).collect();
        let vs = vs?;
        return Some(if vs.iter().all(|&v| v < w) {
            cmp.less
        } else if vs.iter().all(|&v| v > w) {
            cmp.greater
        } else {
            cmp.otherwise
        });
    }
    let mut sum = 0i64;
    for k in &f.of {
        sum += get(k)?;
    }
    let n = sum * f.mul;
    let q = match f.round {
        CocRound::Floor => n.div_euclid(f.div),
        CocRound::Ceil => -(-n).div_euclid(f.div),
    };
    Some(q + f.add)
}

/// 7th edition: the Hard (÷ 2) and Extreme (÷ 5) targets, as `coc7.check` computes them.
fn with_parts(mut v: SheetValue, seventh: bool) -> SheetValue {
    if let (true, Some(x)) = (seventh, v.value) {
        v.half = Some(crate::coc7::Coc7Difficulty::Hard.target(x));
        v.fifth = Some(crate::coc7::Coc7Difficulty::Extreme.target(x));
    }
    v
}

fn sheet(args: &CocSheetArgs, seventh: bool) -> Result<SheetResult> {
    let pack = load(seventh, args.data.as_ref())?;
    let s = &args.sheet;
    // Refusals first: unknown keys and numbers beyond the engine's limits.
    for (k, &v) in &s.characteristics {
        let at = format!("sheet.characteristics.{k}");
        if !pack.characteristics.iter().any(|c| &c.id == k) {
            return Err(Error::invalid(at, "not a characteristic of the data pack"));
        }
        bound(&at, v, 0, MAX_VALUE)?;
    }
    if s.skills.len() > MAX_ENTRIES {
        return Err(Error::limit("sheet.skills", format_args!("at most {MAX_ENTRIES} skills")));
    }
    for (k, &v) in &s.skills {
        let at = format!("sheet.skills.{k}");
        if !crate::engine::ids::is_data_id(k) {
            return Err(Error::invalid(at, "skill ids are 1-64 of a-z, 0-9, _"));
        }
        bound(&at, v, 0, MAX_VALUE)?;
    }
    if seventh && s.ap_bonus != 0 {
        return Err(Error::invalid("sheet.ap_bonus", "only the 6th-edition sheet (coc_ap.sheet) has AP"));
    }
    crate::coc_ap::ap::validate("sheet.", 0, s.ap_bonus)?;

    let mut bad: Vec<SheetViolation> = Vec::new();
    check_name(&s.name, &mut bad);
    let c = &s.characteristics;
    let mut stats = Vec::new();
    for d in &pack.characteristics {
        let at = format!("sheet.characteristics.{}", d.id);
        let v = c.get(&d.id).copied();
        match v {
            None => bad.push(required(&at, "DATA", &d.label)),
            Some(x) if x < d.min || x > d.max => {
                bad.push(out_of_range(&at, "DATA", &d.label, x, d.min, Some(d.max)))
            }
            _ => {}
        }
        let mut sv = SheetValue::new(&d.id, d.label.clone(), v, "DATA");
        (sv.min, sv.max) = (Some(d.min), Some(d.max));
        stats.push(with_parts(sv, seventh));
    }
    let mut derived: Vec<SheetValue> =
        pack.derived.iter().map(|f| SheetValue::new(&f.id, f.label.clone(), eval(f, c), "DATA")).collect();
    for t in &pack.tables {
        let sum: Option<i64> = t.of.iter().map(|k| c.get(k).copied()).sum();
        let row = sum.and_then(|n| t.rows.iter().find(|r| (r.min..=r.max).contains(&n)));
        if let (Some(n), None) = (sum, row) {
            let at =
                t.of.first().map_or("sheet.characteristics".into(), |k| format!("sheet.characteristics.{k}"));
            bad.push(not_in_table(&at, &t.label, n));
        }
        let mut sv = SheetValue::new(&t.id, t.label.clone(), row.and_then(|r| r.value.parse().ok()), "DATA");
        sv.text = row.map(|r| r.value.clone()).unwrap_or_default();
        derived.push(sv);
    }
    let dex = c.get("dex").copied();
    if seventh {
        // C7H-INIT-1: initiative = floor(DEX ÷ 5).
        let init = dex.map(|d| crate::coc7_house::init::initiative_of(d, 0));
        derived.push(SheetValue::new(
            "initiative",
            l("イニシアチブ", "先攻值", "先攻值", "Initiative"),
            init,
            "C7H-INIT-1",
        ));
    } else {
        // COCAP-AP-3 / COCAP-AP-4: AP = 2 + floor(DEX ÷ 6), plus the modifier.
        let ap = dex.map(|d| crate::coc_ap::ap::round_ap(d, s.ap_bonus, Default::default()));
        derived.push(SheetValue::new(
            "ap",
            l("行動ポイント", "行动点", "行動點", "Action points (AP)"),
            ap,
            "COCAP-AP-3",
        ));
    }
    let mut skills: Vec<SheetValue> = pack
        .skills
        .iter()
        .map(|f| {
            let v = s.skills.get(&f.id).copied().or_else(|| eval(f, c));
            let mut sv = SheetValue::new(&f.id, f.label.clone(), v, "DATA");
            sv.min = eval(f, c);
            with_parts(sv, seventh)
        })
        .collect();
    for (k, &v) in s.skills.iter().filter(|(k, _)| !pack.skills.iter().any(|f| &f.id == *k)) {
        skills.push(with_parts(SheetValue::new(k, l(k, k, k, k), Some(v), "DATA"), seventh));
    }
    Ok(SheetResult::new(bad, stats, derived, skills))
}

/// `coc_ap.sheet` — a 6th-edition sheet: characteristics within the pack's ranges,
/// derived values and skill bases from the pack (illustrative), AP from DEX
/// (COCAP-AP-3, COCAP-AP-4). Sheet problems are `violations`, never an error.
pub fn coc6_sheet(args: &CocSheetArgs) -> Result<SheetResult> {
    sheet(args, false)
}

/// `coc7_house.sheet` — a 7th-edition sheet: characteristics within the pack's
/// ranges, derived values, damage bonus, build and skill bases from the pack
/// (illustrative), half / fifth values (Hard / Extreme targets) and initiative =
/// floor(DEX ÷ 5) (C7H-INIT-1).
pub fn coc7_sheet(args: &CocSheetArgs) -> Result<SheetResult> {
    sheet(args, true)
}

/// `coc_ap.sheet_data` — the bundled 6th-edition sheet pack (illustrative).
pub fn coc6_sheet_data(_: &CocSheetDataArgs) -> Result<CocSheetPack> {
    bundled(false)
}

/// `coc7_house.sheet_data` — the bundled 7th-edition sheet pack (illustrative).
pub fn coc7_sheet_data(_: &CocSheetDataArgs) -> Result<CocSheetPack> {
    bundled(true)
}
