//! `meta.*`: what this build of gunbai is and what it offers.

use crate::error::Result;
use crate::json::{FromJson, ToJson};
use crate::op;
use crate::ops::OpDef;

/// No arguments.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// Result of `meta.version`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VersionResult {
    /// gunbai's version.
    pub version: String,
    /// The seeded PRNG algorithm (stable; see `dice::prng`).
    pub prng: String,
    /// The rulesets this build registers (`world_trigger`, `coc`, `tmd`, `fap_map`):
    /// all of them, except in a per-ruleset npm entry such as `gunbai/tmd`.
    pub rulesets: Vec<String>,
}

/// Result of `meta.operations`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OperationsResult {
    /// Every operation name, `<module>.<op>` (ordinary operations, then batch operations).
    pub operations: Vec<String>,
}

/// `meta.version` — version and PRNG algorithm.
pub fn version(_: &NoArgs) -> Result<VersionResult> {
    Ok(VersionResult {
        version: env!("CARGO_PKG_VERSION").to_string(),
        prng: crate::dice::prng::Prng::ALGORITHM.to_string(),
        rulesets: crate::registered::ruleset_names().iter().map(|name| name.to_string()).collect(),
    })
}

/// `meta.operations` — every operation name.
pub fn operations(_: &NoArgs) -> Result<OperationsResult> {
    let ops = crate::ops::registry().iter().map(|o| o.name);
    let batch = crate::batch::batch_registry().iter().map(|o| o.name);
    Ok(OperationsResult { operations: ops.chain(batch).map(String::from).collect() })
}

pub(crate) fn ops() -> Vec<OpDef> {
    vec![
        op!("meta.version", version, NoArgs => VersionResult, "gunbai's version and the name of its seeded PRNG algorithm."),
        op!("meta.operations", operations, NoArgs => OperationsResult, "Every operation name."),
    ]
}
