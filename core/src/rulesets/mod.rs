//! The rulesets, one module each with everything of it: its rules, its engines as
//! handles (`handle`), its character sheet, its batch operations, its chat commands
//! (`chat`) and its registration.
//! Call of Cthulhu's three (`coc7`, `coc_ap`, `coc7_house`) sit under [`coc`], the
//! `coc` feature.
//!
//! The layers below (`kernel`, `engine`, `chat`) name no ruleset: they define the
//! registration types, and this module supplies the entries of the rulesets in the
//! build (the features in `core/Cargo.toml`), which the composition root (`registered`
//! in `lib.rs`) hands them. A ruleset uses no other ruleset (the layering test,
//! `core/tests/layering.rs`, checks both).

#[cfg(test)]
mod batch_window_tests;
pub mod coc;
#[cfg(test)]
mod d20_walkthrough;
pub mod fap_map;
#[cfg(test)]
mod harness;
#[cfg(all(test, feature = "simulate"))]
mod simulate_tests;
pub mod tmd;
pub mod world_trigger;

use crate::batch::BatchDef;
use crate::chat::{CmdLang, CmdRunArgs, CmdRunResult, CmdSystem, CmdVariants, Dialects};
use crate::dice::Dice;
use crate::engine::HandleDef;
use crate::error::Result;
use crate::ops::OpDef;

/// The rulesets this build registers (`meta.version`'s `rulesets`).
pub(crate) fn built() -> Vec<&'static str> {
    [
        (cfg!(feature = "world_trigger"), "world_trigger"),
        (cfg!(feature = "coc6"), "coc6"),
        (cfg!(feature = "coc7"), "coc7"),
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
    #[cfg(feature = "coc7")]
    v.extend(coc::coc7::ops());
    #[cfg(feature = "coc6")]
    v.extend(coc::coc_ap::ops());
    #[cfg(feature = "coc7")]
    v.extend(coc::coc7_house::ops());
    #[cfg(feature = "tmd")]
    v.extend(tmd::ops());
    #[cfg(feature = "fap_map")]
    v.extend(fap_map::ops());
}

/// The batch operations of the rulesets in the build.
pub(crate) fn batch_ops(v: &mut Vec<BatchDef>) {
    #[cfg(feature = "world_trigger")]
    v.extend(world_trigger::batch::ops());
    #[cfg(feature = "coc7")]
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
    #[cfg(feature = "coc6")]
    v.push(def::<coc::handle::ApRound>());
    #[cfg(feature = "coc7")]
    {
        v.push(def::<coc::handle::HouseRound>());
        v.push(def::<coc::handle::Chase>());
    }
    #[cfg(feature = "fap_map")]
    v.push(def::<fap_map::handle::Round>());
}

/// The chat commands of the rulesets in the build.
#[cfg_attr(not(feature = "chat"), allow(dead_code))]
pub(crate) const CHAT: Dialects = Dialects {
    in_build: chat_in_build,
    check_variants: chat_check_variants,
    own: chat_own,
    sheet: chat_sheet,
    help: chat_help,
    tables: chat_tables,
    messages: &[
        #[cfg(any(feature = "coc6", feature = "coc7"))]
        coc::chat::MESSAGES,
        #[cfg(feature = "world_trigger")]
        world_trigger::chat::MESSAGES,
        #[cfg(feature = "tmd")]
        tmd::chat::MESSAGES,
        #[cfg(feature = "fap_map")]
        fap_map::chat::MESSAGES,
    ],
    messages_ko: &[
        #[cfg(any(feature = "coc6", feature = "coc7"))]
        coc::chat::MESSAGES_KO,
    ],
};

fn chat_in_build(system: CmdSystem) -> bool {
    match system {
        CmdSystem::WorldTrigger => cfg!(feature = "world_trigger"),
        CmdSystem::Coc7 => cfg!(feature = "coc7"),
        CmdSystem::Coc6 => cfg!(feature = "coc6"),
        CmdSystem::Tmd => cfg!(feature = "tmd"),
        CmdSystem::FapMap => cfg!(feature = "fap_map"),
    }
}

/// `variants.coc7_rule` is checked whatever the system (and in every build).
fn chat_check_variants(variants: &CmdVariants) -> Result<()> {
    coc::coc7::check::validate_rule("variants.coc7_rule", variants.coc7_rule)
}

fn chat_own(
    system: CmdSystem,
    c: &[char],
    lang: CmdLang,
    dice: &mut Dice,
    variants: CmdVariants,
) -> crate::chat::lex::PResult<Option<crate::chat::outcome::Outcome>> {
    // A system left out of this build never gets here (`command.run` refuses it first);
    // the arms are compiled out so that its code is not in the binary.
    #[allow(unreachable_patterns)]
    let own = match system {
        #[cfg(feature = "coc7")]
        CmdSystem::Coc7 => coc::chat::try_coc7(c, lang, dice, variants.coc7_rule)?,
        #[cfg(feature = "coc6")]
        CmdSystem::Coc6 => coc::chat::try_coc6(c, lang, dice)?,
        #[cfg(feature = "world_trigger")]
        CmdSystem::WorldTrigger => {
            world_trigger::chat::try_wt(c, lang, dice, variants.damage_table_threshold)?
        }
        #[cfg(feature = "tmd")]
        CmdSystem::Tmd => tmd::chat::try_tmd(c, lang, dice)?,
        #[cfg(feature = "fap_map")]
        CmdSystem::FapMap => fap_map::chat::try_fm(c, lang, dice)?,
        _ => None,
    };
    Ok(own)
}

/// The rulebook tables of the build's rulesets (CoC 7th's), for `table_pack`.
fn chat_tables() -> Vec<(&'static str, u32)> {
    if cfg!(feature = "coc7") {
        coc::chat::tables::ids().collect()
    } else {
        Vec::new()
    }
}

/// Every system's help (its texts are in the message tables of the build's rulesets;
/// `command.help` refuses a system left out of the build before it gets here).
fn chat_help(system: CmdSystem) -> (&'static str, &'static [crate::chat::help::Entry]) {
    match system {
        CmdSystem::WorldTrigger => ("help_title_world_trigger", world_trigger::chat::HELP),
        CmdSystem::Coc7 => ("help_title_coc7", coc::chat::HELP7),
        CmdSystem::Coc6 => ("help_title_coc6", coc::chat::HELP6),
        CmdSystem::Tmd => ("help_title_tmd", tmd::chat::HELP),
        CmdSystem::FapMap => ("help_title_fap_map", fap_map::chat::HELP),
    }
}

fn chat_sheet(args: &CmdRunArgs, dice: &mut Dice) -> Result<Option<CmdRunResult>> {
    #[cfg(any(feature = "coc6", feature = "coc7"))]
    if let Some(r) = coc::chat::sheet::try_sheet(args, dice)? {
        return Ok(Some(r));
    }
    Ok(None)
}
