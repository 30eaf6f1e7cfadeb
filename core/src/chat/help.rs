//! `command.help`: the command reference of one system in one language.

use super::catalog::msg;
use super::types::{CmdHelpArgs, CmdHelpEntry, CmdHelpResult};
use crate::error::Result;

/// (syntax, catalog key of the summary, examples)
pub(crate) type Entry = (&'static str, &'static str, &'static [&'static str]);

const PLAIN: &[Entry] = &[
    ("NdS+NdS+K-K", "help_dice", &["2D6+3", "1D20-1D4+2"]),
    ("(NdS+K)*K, NdS/K(U|R|F)", "help_arith", &["3D6*5", "(2D6+6)*5", "1D6/2U"]),
    ("NdS>=t (> <= < = <>)", "help_compare", &["2D6>=7", "1D100<=50"]),
    ("D66", "help_d66", &["D66"]),
    ("NdS(KH|KL|DH|DL)n, NdSMAX, NdSMIN", "help_keep", &["4D6KH3", "2D20KL1+2", "3D6MAX"]),
    ("NBS[>=t]", "help_bdice", &["5B6", "5B6>=4", "2B6+3B10<=3"]),
    ("NRS[t]>=x", "help_rdice", &["3R6>=5", "2R6[6]"]),
    ("NUS[t][+K][>=x]", "help_udice", &["4U6[6]", "3U10[10]+2>=12"]),
    ("NTYS, NTZS", "help_tally", &["10TY6", "5TZ4"]),
    ("C(arith)", "help_calc", &["C(10*5/2)", "C(7/2U)"]),
    (
        "choice[a,b,c], choiceN(a,b,c), choice a b c",
        "help_choice",
        &["choice[A,B,C]", "choice2(x,y,z)", "choice[1-6]"],
    ),
    ("xN command", "help_repeat", &["x3 2D6", "rep2 1D100"]),
    (".r dice, .rh, .r N#dice", "help_dot_r", &[".r 3d6*5", ".rh", ".r 3#1d6"]),
    (
        ".st name value…, .st name+k, .st del name, .st clr, .st show",
        "help_dot_st",
        &[".st 力量50敏捷60侦查70", ".st 目星:60 聞き耳=50", ".st show"],
    ),
    (
        ".ri value name, .init, .init del name, .init clr",
        "help_dot_init",
        &[".ri 70 田中", ".init", ".init clr"],
    ),
];

/// `command.help` — the command reference for `system` in `lang`: the
/// system's own commands, then the plain dice every system understands.
pub fn help(args: &CmdHelpArgs) -> Result<CmdHelpResult> {
    super::check_in_build(args.system)?;
    let (title_key, own): (&str, &[Entry]) = match args.system {
        None => ("help_title_plain", &[]),
        Some(system) => (crate::registered::CHAT.help)(system),
    };
    let lang = args.lang;
    let mut commands = Vec::new();
    for (syntax, key, examples) in own.iter().chain(PLAIN) {
        commands.push(CmdHelpEntry {
            syntax: (*syntax).to_string(),
            summary: msg(lang, key)?.to_string(),
            examples: examples.iter().map(|e| (*e).to_string()).collect(),
        });
    }
    let mut text = format!("【{}】\n", msg(lang, title_key)?);
    for c in &commands {
        text.push_str(&format!("・{}　{}\n　{}\n", c.syntax, c.summary, c.examples.join("　")));
    }
    text.push_str(msg(lang, "help_common_note")?);
    Ok(CmdHelpResult { text, commands })
}

/// Every example in every system's help (used by the tests: each must run).
#[cfg(test)]
pub(crate) fn all_examples() -> Vec<(Option<super::CmdSystem>, &'static str)> {
    use super::CmdSystem;
    let mut v = Vec::new();
    let systems =
        [CmdSystem::Coc7, CmdSystem::Coc6, CmdSystem::WorldTrigger, CmdSystem::Tmd, CmdSystem::FapMap];
    let own = systems.map(|s| (Some(s), (crate::registered::CHAT.help)(s).1));
    for (sys, list) in std::iter::once((None, PLAIN)).chain(own) {
        for (_, _, ex) in list {
            for e in *ex {
                v.push((sys, *e));
            }
        }
    }
    v
}
