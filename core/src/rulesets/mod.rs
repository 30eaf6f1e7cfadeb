//! The rulesets, one module each with everything of it: its rules, its engines as
//! handles (`handle`), its character sheet, its batch operations and its registration.
//! Call of Cthulhu's three (`coc7`, `coc_ap`, `coc7_house`) sit under [`coc`], the
//! `coc` feature.
//!
//! The layers below (`kernel`, `engine`, `chat`) name no ruleset: they define the
//! registration types, and this module supplies the entries of the rulesets in the
//! build (the features in `core/Cargo.toml`), which the composition root (`registered`
//! in `lib.rs`) hands them. A ruleset uses no other ruleset (the layering test,
//! `core/tests/layering.rs`, checks both).

pub mod coc;
pub mod fap_map;
#[cfg(test)]
mod harness;
pub mod tmd;
pub mod world_trigger;

use crate::batch::BatchDef;
use crate::engine::HandleDef;
use crate::ops::OpDef;

/// The rulesets this build registers (`meta.version`'s `rulesets`).
pub(crate) fn built() -> Vec<&'static str> {
    [
        (cfg!(feature = "world_trigger"), "world_trigger"),
        (cfg!(feature = "coc"), "coc"),
        (cfg!(feature = "tmd"), "tmd"),
        (cfg!(feature = "fap_map"), "fap_map"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, name)| *name)
    .collect()
}

/// The operations of the rulesets in the build, in module order.
pub(crate) fn ops(v: &mut Vec<OpDef>) {
    #[cfg(feature = "world_trigger")]
    v.extend(world_trigger::ops());
    #[cfg(feature = "coc")]
    {
        v.extend(coc::coc7::ops());
        v.extend(coc::coc_ap::ops());
        v.extend(coc::coc7_house::ops());
    }
    #[cfg(feature = "tmd")]
    v.extend(tmd::ops());
    #[cfg(feature = "fap_map")]
    v.extend(fap_map::ops());
}

/// The batch operations of the rulesets in the build.
pub(crate) fn batch_ops(v: &mut Vec<BatchDef>) {
    #[cfg(feature = "world_trigger")]
    v.extend(world_trigger::batch::ops());
    #[cfg(feature = "world_trigger")]
    v.push(crate::batch_op!(
        "world_trigger.simulate_battles",
        world_trigger::batch::battles::simulate_battles,
        world_trigger::batch::battles::WtSimulateBattlesArgs,
        "int32",
        [("winner", false), ("rounds", false), ("points", true), ("down", true)],
        "Play n complete battles of one setup natively with data policies (random, aggressive, priority); per battle: winner (team index, -1 draw), rounds, points and members down per team."
    ));
    #[cfg(feature = "coc")]
    v.extend(coc::batch::ops());
    #[cfg(feature = "tmd")]
    v.extend(tmd::batch::ops());
}

/// The handles of the engines in the build.
pub(crate) fn handles(v: &mut Vec<HandleDef>) {
    use crate::engine::def;
    #[cfg(feature = "world_trigger")]
    v.push(def::<world_trigger::handle::Battle>());
    #[cfg(feature = "tmd")]
    v.push(def::<tmd::handle::Encounter>());
    #[cfg(feature = "coc")]
    {
        v.push(def::<coc::handle::ApRound>());
        v.push(def::<coc::handle::HouseRound>());
        v.push(def::<coc::handle::Chase>());
    }
    #[cfg(feature = "fap_map")]
    v.push(def::<fap_map::handle::Round>());
}
