//! The 6th-edition base values the `coc_ap` round needs and seed 001 leaves to the
//! base game (treatment amounts, the parry effect, armor, the HP thresholds), read from
//! the bundled data pack `core/data/coc/coc6_combat.json`, which says
//! `"illustrative": true`: written from general knowledge of the published 6th
//! edition, not from the seed. Each entry carries the rule ID the round's events cite
//! (`COC6-BASE-…`).

use std::sync::OnceLock;

const PACK: &str = include_str!("../../../../data/coc/coc6_combat.json");

/// The pack's `meta`.
#[derive(Debug, Clone, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// Pack id.
    pub id: String,
    /// Always true for the bundled pack.
    pub illustrative: bool,
    /// Where its values come from.
    pub source: String,
}

/// Treatment: HP restored by a successful check of each skill (`None`: no HP).
#[derive(Debug, Clone, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Treatment {
    /// Rule ID cited.
    pub rule: String,
    /// What it says.
    pub note: String,
    /// 〈応急手当〉: a dice expression.
    pub first_aid: Option<String>,
    /// 〈医学〉: a dice expression.
    pub medicine: Option<String>,
    /// 〈精神分析〉: a dice expression (the bundled pack: none, it restores SAN).
    pub psychoanalysis: Option<String>,
}

/// The parry effect (basic rulebook P66).
#[derive(Debug, Clone, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Parry {
    /// Rule ID cited.
    pub rule: String,
    /// What it says.
    pub note: String,
    /// A successful parry stops the attack.
    pub stops_attack: bool,
}

/// Armor.
#[derive(Debug, Clone, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Armor {
    /// Rule ID cited.
    pub rule: String,
    /// What it says.
    pub note: String,
    /// Armor points are subtracted from each hit's damage.
    pub subtracts: bool,
}

/// HP thresholds.
#[derive(Debug, Clone, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Hp {
    /// Rule ID cited.
    pub rule: String,
    /// What it says.
    pub note: String,
    /// Unconscious (down) at or below this HP.
    pub unconscious_at_or_below: i64,
    /// Dead (down) at or below this HP.
    pub dead_at_or_below: i64,
}

/// The whole pack.
#[derive(Debug, Clone, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Coc6CombatPack {
    /// Provenance.
    pub meta: Meta,
    /// Treatment.
    pub treatment: Treatment,
    /// Parry.
    pub parry: Parry,
    /// Armor.
    pub armor: Armor,
    /// HP thresholds.
    pub hp: Hp,
}

/// The bundled pack (parsed once; a broken bundled pack is a build error the tests catch).
pub fn pack() -> &'static Coc6CombatPack {
    static P: OnceLock<Coc6CombatPack> = OnceLock::new();
    P.get_or_init(|| {
        let v: serde_json::Value =
            serde_json::from_str(PACK).unwrap_or_else(|e| panic!("core/data/coc/coc6_combat.json: {e}"));
        crate::json::from_value(&v)
            .unwrap_or_else(|e| panic!("core/data/coc/coc6_combat.json: {}", e.message))
    })
}

#[cfg(test)]
mod tests {
    /// COCAP-ACT-4, COCAP-ACT-6: the bundled base-game pack parses and is labelled illustrative.
    #[test]
    fn coc6_combat_pack_is_illustrative() {
        let p = super::pack();
        assert!(p.meta.illustrative);
        assert!(p.hp.dead_at_or_below <= p.hp.unconscious_at_or_below);
        assert_eq!(p.treatment.rule, "COC6-BASE-TREAT");
    }
}
