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
//! targets of `coc7.check`). The packs' `meta` says `"illustrative": true`.

use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use crate::kernel::label::WtLabel;
use crate::sheet::{
    bound, check_name, l, not_in_table, out_of_range, required, SheetResult, SheetValue, SheetViolation,
};
use serde_json::Value;
use std::collections::BTreeMap;

/// Largest characteristic or skill value accepted (beyond: `out_of_range`).
pub const MAX_VALUE: i64 = 999;
/// Most entries in any list of a pack, and most skills on a sheet.
pub const MAX_ENTRIES: usize = 64;
/// Longest text of a pack's label, in characters.
pub const MAX_LABEL_CHARS: usize = 200;

const PACK6: &str = include_str!("../../../data/coc/sheet6.json");
const PACK7: &str = include_str!("../../../data/coc/sheet7.json");

/// A characteristic the sheet enters.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SheetCharacteristic {
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
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SheetCompare {
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SheetRound {
    /// Toward minus infinity (default).
    #[default]
    Floor,
    /// Toward plus infinity.
    Ceil,
}

/// A formula: `round(sum(of) × mul ÷ div) + add`, a comparison, or a table.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SheetFormula {
    /// Id (`hp`, `dodge` …).
    pub id: String,
    /// Display name.
    pub label: WtLabel,
    /// Characteristics summed (none: the value is `add`).
    #[serde(default)]
    pub of: Vec<String>,
    /// Multiplier, 1..=100; default 1.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 100))]
    pub mul: i64,
    /// Divisor, 1..=100; default 1.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 100))]
    pub div: i64,
    /// Rounding of the division; default floor.
    #[serde(default)]
    pub round: SheetRound,
    /// Added after the division, −1000..=1000; default 0.
    #[serde(default)]
    #[schemars(range(min = -1000, max = 1000))]
    pub add: i64,
    /// A comparison instead of the sum.
    #[serde(default)]
    pub compare: Option<SheetCompare>,
    /// A table instead of the division: the row holding the sum of `of` gives the
    /// value (damage bonus, build); rows ascending, not overlapping.
    #[serde(default)]
    pub rows: Vec<SheetRow>,
}

fn one() -> i64 {
    1
}

/// One row of a table: sums `min..=max` give `value`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SheetRow {
    /// Smallest sum of the row.
    pub min: i64,
    /// Largest sum of the row.
    pub max: i64,
    /// The value shown (`-1D4`, `0`, `+1D6`, `2`).
    pub value: String,
}

/// A CoC sheet data pack (see `coc_ap.sheet` / `coc7_house.sheet`; the bundled
/// packs are illustrative).
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SheetDataPack {
    /// Origin: free-form; the bundled packs say `"illustrative": true` and where their
    /// values come from.
    pub meta: Value,
    /// The characteristics, in sheet order.
    pub characteristics: Vec<SheetCharacteristic>,
    /// Derived values (formulas and tables).
    #[serde(default)]
    pub derived: Vec<SheetFormula>,
    /// Skills with their base values (used when the sheet gives none).
    #[serde(default)]
    pub skills: Vec<SheetFormula>,
}

/// A CoC character sheet.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CharacteristicSheet {
    /// Character name, 1–200 characters.
    #[serde(default)]
    pub name: String,
    /// Characteristics by the pack's ids in any letter case (`str` or `STR`), 0–999
    /// (missing ones are `required` violations; an unknown key is refused, listing the ids).
    #[serde(default)]
    pub characteristics: BTreeMap<String, i64>,
    /// Skill values by id, 0–999 (at most 64); a pack skill left out takes its base value.
    #[serde(default)]
    pub skills: BTreeMap<String, i64>,
    /// 6th edition: AP modifier from abilities or magic (COCAP-AP-4), −100…100.
    #[serde(default)]
    #[schemars(range(min = -100, max = 100))]
    pub ap_bonus: i64,
}

macro_rules! sheet_op_types {
    ($args:ident, $res:ident, $op:literal) => {
        #[doc = concat!("Arguments of `", $op, "`.")]
        #[derive(Debug, Clone, ToJson, FromJson)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(deny_unknown_fields)]
        pub struct $args {
            /// The sheet.
            pub sheet: CharacteristicSheet,
            /// A data pack; default the bundled illustrative pack of the edition.
            #[serde(default)]
            #[schemars(with = "Option<SheetDataPack>")]
            pub data: Option<Value>,
        }

        #[doc = concat!("Result of `", $op, "`.")]
        #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub struct $res(pub SheetResult);
    };
}
/// Arguments of `coc_ap.sheet`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CocApSheetArgs {
    /// The sheet.
    pub sheet: CharacteristicSheet,
    /// A data pack; default the bundled illustrative pack of the edition.
    #[serde(default)]
    #[schemars(with = "Option<SheetDataPack>")]
    pub data: Option<Value>,
    /// Rule variants (RULINGS.md): `dex_scale` sets how the AP is computed from DEX
    /// (`classic` 3–18 default, `percentile`: DEX ÷ 5 first); the others don't change a sheet.
    #[serde(default)]
    pub variants: crate::coc_ap::ap::CocApVariants,
}

/// Result of `coc_ap.sheet`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CocApSheetResult(pub SheetResult);
sheet_op_types!(C7hSheetArgs, C7hSheetResult, "coc7_house.sheet");

/// Check a pack: ids, references, ranges, rows ascending; the first problem is an
/// `invalid_data` error naming its path under `data`.
pub fn validate_pack(p: &SheetDataPack) -> Result<()> {
    let bad = |path: String, m: &str| Err(Error::invalid_data(path, m));
    let chars: Vec<&str> = p.characteristics.iter().map(|c| c.id.as_str()).collect();
    fn ids(fs: &[SheetFormula]) -> Vec<&str> {
        fs.iter().map(|f| f.id.as_str()).collect()
    }
    for (list, ids) in
        [("characteristics", chars.clone()), ("derived", ids(&p.derived)), ("skills", ids(&p.skills))]
    {
        if ids.len() > MAX_ENTRIES {
            return Err(Error::limit(format!("data.{list}"), format_args!("at most {MAX_ENTRIES} entries")));
        }
        for (i, a) in ids.iter().enumerate() {
            if !crate::engine::ids::is_data_id(a) || ids[..i].contains(a) {
                return bad(format!("data.{list}[{i}].id"), "ids are unique, 1-64 of a-z, 0-9, _");
            }
        }
    }
    let labels: [(&str, Vec<&_>); 3] = [
        ("characteristics", p.characteristics.iter().map(|c| &c.label).collect()),
        ("derived", p.derived.iter().map(|f| &f.label).collect()),
        ("skills", p.skills.iter().map(|f| &f.label).collect()),
    ];
    for (list, ls) in &labels {
        for (i, l) in ls.iter().enumerate() {
            // A label is shown in every violation naming it, four times: names are short.
            if [&l.ja, &l.zh_hans, &l.zh_hant, &l.en].iter().any(|t| t.chars().count() > MAX_LABEL_CHARS) {
                return Err(Error::invalid_data(
                    format!("data.{list}[{i}].label"),
                    format_args!("a label's texts are at most {MAX_LABEL_CHARS} characters"),
                ));
            }
        }
    }
    for (i, c) in p.characteristics.iter().enumerate() {
        if c.min < 0 || c.min > c.max || c.max > MAX_VALUE {
            return bad(format!("data.characteristics[{i}]"), "needs 0 <= min <= max <= 999");
        }
    }
    for (list, fs) in [("derived", &p.derived), ("skills", &p.skills)] {
        for (i, f) in fs.iter().enumerate() {
            let at = format!("data.{list}[{i}]");
            let mut refs = f.of.iter().chain(f.compare.iter().flat_map(|c| c.each.iter().chain([&c.with])));
            if refs.any(|r| !chars.contains(&r.as_str())) {
                return bad(at, "reads a characteristic the pack does not have");
            }
            if !(1..=100).contains(&f.mul)
                || !(1..=100).contains(&f.div)
                || f.add.abs() > 1000
                || f.rows.len() > MAX_ENTRIES
            {
                return bad(at, "mul and div are 1..=100, add within +-1000, at most 64 rows");
            }
            let mut last = i64::MIN;
            for (j, r) in f.rows.iter().enumerate() {
                if r.min > r.max || r.min <= last || r.value.chars().count() > 64 {
                    return bad(
                        format!("{at}.rows[{j}]"),
                        "rows ascend without overlap (min <= max), values of at most 64 characters",
                    );
                }
                last = r.max;
            }
        }
    }
    Ok(())
}

fn load(seventh: bool, data: Option<&Value>) -> Result<SheetDataPack> {
    let p = match data {
        Some(v) => crate::ops::parse_data("data", v.clone())?,
        None => {
            let text = if seventh { PACK7 } else { PACK6 };
            let v: Value =
                serde_json::from_str(text).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))?;
            crate::ops::parse_data("data", v)?
        }
    };
    validate_pack(&p)?;
    Ok(p)
}

/// A formula's value on the characteristics: `None` when one it reads is missing,
/// `Some(Err(sum))` when its table has no row for the sum, else the number (if the
/// value is one) and the text.
fn eval(
    f: &SheetFormula,
    c: &BTreeMap<String, i64>,
) -> Option<std::result::Result<(Option<i64>, String), i64>> {
    let get = |k: &String| c.get(k).copied();
    let num = |v: i64| Ok((Some(v), v.to_string()));
    if let Some(cmp) = &f.compare {
        let w = get(&cmp.with)?;
        let vs = cmp.each.iter().map(get).collect::<Option<Vec<i64>>>()?;
        let all = |f: fn(i64, i64) -> bool| vs.iter().all(|&v| f(v, w));
        return Some(num(if all(|v, w| v < w) {
            cmp.less
        } else if all(|v, w| v > w) {
            cmp.greater
        } else {
            cmp.otherwise
        }));
    }
    let sum = f.of.iter().map(get).sum::<Option<i64>>()?;
    if !f.rows.is_empty() {
        let row = f.rows.iter().find(|r| (r.min..=r.max).contains(&sum));
        return Some(row.map(|r| (r.value.parse().ok(), r.value.clone())).ok_or(sum));
    }
    let n = sum * f.mul;
    let q = match f.round {
        SheetRound::Floor => n.div_euclid(f.div),
        SheetRound::Ceil => -(-n).div_euclid(f.div),
    };
    Some(num(q + f.add))
}

fn value(f: &SheetFormula, c: &BTreeMap<String, i64>) -> Option<i64> {
    eval(f, c).and_then(|r| r.ok()).and_then(|(v, _)| v)
}

/// 7th edition: the Hard (÷ 2) and Extreme (÷ 5) targets, as `coc7.check` computes them.
fn with_parts(mut v: SheetValue, seventh: bool) -> SheetValue {
    if let (true, Some(x)) = (seventh, v.value) {
        v.half = Some(crate::coc7::Coc7Difficulty::Hard.target(x));
        v.fifth = Some(crate::coc7::Coc7Difficulty::Extreme.target(x));
    }
    v
}

fn sheet(
    s: &CharacteristicSheet,
    data: Option<&Value>,
    seventh: bool,
    variants: &crate::coc_ap::ap::CocApVariants,
) -> Result<SheetResult> {
    let pack = load(seventh, data)?;
    // Refusals first: unknown keys and numbers beyond the engine's limits. A key names a
    // pack id in any letter case (`STR`, `Dex`: the sheets' own spelling); an unknown key,
    // or one id given twice, is refused with the valid ids.
    let ids: Vec<&str> = pack.characteristics.iter().map(|c| c.id.as_str()).collect();
    let mut chars: BTreeMap<String, i64> = BTreeMap::new();
    for (k, &v) in &s.characteristics {
        let at = format!("sheet.characteristics.{k}");
        let Some(id) = ids.iter().find(|id| id.eq_ignore_ascii_case(k)) else {
            return Err(Error::invalid(
                at,
                format_args!("not a characteristic of the data pack; valid ids: {}", ids.join(", ")),
            ));
        };
        if chars.insert(id.to_string(), v).is_some() {
            return Err(Error::invalid(at, format_args!("{id} is given twice (ids ignore letter case)")));
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
    let c = &chars;
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
    let mut derived = Vec::new();
    for f in &pack.derived {
        let mut sv = SheetValue::new(&f.id, f.label.clone(), None, "DATA");
        match eval(f, c) {
            Some(Ok((v, text))) => (sv.value, sv.text) = (v, text),
            Some(Err(sum)) => {
                let at =
                    f.of.first()
                        .map_or("sheet.characteristics".into(), |k| format!("sheet.characteristics.{k}"));
                bad.push(not_in_table(&at, &f.label, sum));
            }
            None => {}
        }
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
        let ap = dex.map(|d| crate::coc_ap::ap::round_ap(d, s.ap_bonus, variants.dex_scale));
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
            let base = value(f, c);
            let mut sv =
                SheetValue::new(&f.id, f.label.clone(), s.skills.get(&f.id).copied().or(base), "DATA");
            sv.min = base;
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
pub fn coc6_sheet(args: &CocApSheetArgs) -> Result<CocApSheetResult> {
    sheet(&args.sheet, args.data.as_ref(), false, &args.variants).map(CocApSheetResult)
}

/// `coc7_house.sheet` — a 7th-edition sheet: characteristics within the pack's
/// ranges, derived values, damage bonus, build and skill bases from the pack
/// (illustrative), half / fifth values (Hard / Extreme targets) and initiative =
/// floor(DEX ÷ 5) (C7H-INIT-1).
pub fn coc7_sheet(args: &C7hSheetArgs) -> Result<C7hSheetResult> {
    sheet(&args.sheet, args.data.as_ref(), true, &Default::default()).map(C7hSheetResult)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_packs_are_valid_and_labelled_illustrative() {
        for seventh in [false, true] {
            let p = load(seventh, None).unwrap();
            assert_eq!(p.meta["illustrative"], Value::Bool(true));
            assert!(p.meta["source"].as_str().unwrap().contains("not from the seeds"));
        }
    }
}
