//! `tmd.sheet` — the stats behind a TMD character's initiative and AP: the base
//! initiative value (基础先攻值, TMD-INI-1; the seed does not say how it is
//! derived, so the sheet enters it), the 14 base AP (TMD-AP-2), extra AP from
//! resources (TMD-AP-3) and the conversions that AP total allows (TMD-AP-8).

use crate::error::Result;
use crate::json::{FromJson, ToJson};
use crate::kernel::label::WtLabel;
use crate::sheet::{bound, check_name, l, out_of_range, SheetResult, SheetValue};
use crate::tmd::actions::{labels, TmdConvertType};

/// TMD-AP-2: base AP gained at the start of each of the character's turns.
pub const BASE_AP: i64 = 14;
/// Largest extra AP accepted.
pub const MAX_EXTRA_AP: i64 = 1000;

/// A TMD character sheet.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdSheet {
    /// Character name, 1–200 characters.
    #[serde(default)]
    pub name: String,
    /// 基础先攻值 (TMD-INI-1), −1000…1000 (as `tmd.initiative`).
    #[serde(default)]
    #[schemars(range(min = -1000, max = 1000))]
    pub base_initiative: i64,
    /// Extra AP at turn start from resources (TMD-AP-3), −1000…1000; below 0 is a violation.
    #[serde(default)]
    #[schemars(range(min = -1000, max = 1000))]
    pub extra_ap: i64,
    /// Immune to surprise (`tmd.encounter_new`'s `immune_to_surprise`, TMD-SUR).
    #[serde(default)]
    pub immune_to_surprise: bool,
}

/// Arguments of `tmd.sheet`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdSheetArgs {
    /// The sheet.
    pub sheet: TmdSheet,
}

/// Result of `tmd.sheet`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TmdSheetResult(pub SheetResult);

/// `tmd.sheet` — validate a TMD sheet and give its initiative range (d10 + base,
/// TMD-INI-1), base AP (TMD-AP-2), AP total and conversion limits at turn start
/// (TMD-AP-7, TMD-AP-8).
pub fn sheet(args: &TmdSheetArgs) -> Result<TmdSheetResult> {
    let s = &args.sheet;
    let base = bound("sheet.base_initiative", s.base_initiative, -1000, 1000)?;
    let extra = bound("sheet.extra_ap", s.extra_ap, -MAX_EXTRA_AP, MAX_EXTRA_AP)?;
    let mut bad = Vec::new();
    check_name(&s.name, &mut bad);
    let extra_label = l("追加AP", "额外行动点", "額外行動點", "Extra AP");
    if extra < 0 {
        bad.push(out_of_range("sheet.extra_ap", "TMD-AP-3", &extra_label, extra, 0, None));
    }
    let mut b = SheetValue::new(
        "base_initiative",
        l("基本イニシアチブ値", "基础先攻值", "基礎先攻值", "Base initiative"),
        Some(base),
        "TMD-INI-1",
    );
    (b.min, b.max) = (Some(-1000), Some(1000));
    let mut e = SheetValue::new("extra_ap", extra_label, Some(extra), "TMD-AP-3");
    e.min = Some(0);
    let total = BASE_AP + extra.max(0);
    let mut init = SheetValue::new(
        "initiative",
        l(
            "イニシアチブ（1d10＋基本値）",
            "先攻（1d10＋基础值）",
            "先攻（1d10＋基礎值）",
            "Initiative (1d10 + base)",
        ),
        None,
        "TMD-INI-1",
    );
    init.text = format!("{}–{}", base + 1, base + 10);
    (init.min, init.max) = (Some(base + 1), Some(base + 10));
    let mut derived = vec![
        init,
        SheetValue::new(
            "base_ap",
            l("基本AP", "基础行动点", "基礎行動點", "Base AP"),
            Some(BASE_AP),
            "TMD-AP-2",
        ),
        SheetValue::new("ap_total", l("AP合計", "AP总数", "AP總數", "AP total"), Some(total), "TMD-AP-8"),
    ];
    // TMD-AP-7/8: conversions of each type the AP total allows (names from the TMD label pack).
    for c in TmdConvertType::ALL.iter().rev() {
        let t = labels(c.action())?;
        let label = WtLabel { ja: t.ja, zh_hans: t.zh_hans, zh_hant: t.zh_hant, en: t.en };
        let id = crate::json::ToJson::to_json(c);
        let id = id.as_str().unwrap_or_default();
        derived.push(SheetValue::new(id, label, Some(c.limit(total as u32) as i64), "TMD-AP-8"));
    }
    Ok(TmdSheetResult(SheetResult::new(bad, vec![b, e], derived, Vec::new())))
}
