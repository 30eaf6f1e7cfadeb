//! `command.help`: the command reference of one system in one language.

use super::catalog::msg;
use super::types::{CmdHelpArgs, CmdHelpEntry, CmdHelpResult, CmdSystem};
use crate::error::Result;

/// (syntax, catalog key of the summary, examples)
type Entry = (&'static str, &'static str, &'static [&'static str]);

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
];

const COC7: &[Entry] = &[
    ("CC(x)<=s", "help_coc7_cc", &["CC<=50", "CC(1)<=50", "CC-1<=75", "CC"]),
    ("CC(x)<=s(r|h|e|c)", "help_coc7_difficulty", &["CC<=70r", "CC1<=60h", "CC-2<=50e", "CC2<=99c"]),
    ("CBR(a,b)", "help_coc7_cbr", &["CBR(50,20)"]),
    ("FAR(r,s,m[,b[,d[,v]]])", "help_coc7_far", &["FAR(30,62,98)", "FAR(25,70,98,-1,h)"]),
    (
        ".ra name s±k, .rab2, .rap, .ra N#name s",
        "help_dot_ra",
        &[".ra 侦查60", ".ra 侦查60+10", ".rab2 困难侦查60", ".ra 3#侦查50"],
    ),
    (".sc s/f [san]", "help_dot_sc", &[".sc 1/1d6 60", ".sc 0/1d3+1 理智55", ".sc1d2/1d10 45"]),
    (".coc [n], .coc7 [n]", "help_dot_coc", &[".coc", ".coc7 3"]),
    (".en name [s]", "help_dot_en", &[".en 侦查60", ".en 目星 45"]),
    (".setcoc [n]", "help_dot_setcoc", &[".setcoc 2", ".setcoc"]),
];

const COC6: &[Entry] = &[
    ("CC<=s", "help_coc6_cc", &["CC<=80", "CC"]),
    ("CCB<=s", "help_coc6_ccb", &["CCB<=55"]),
    ("CC(k)<=s, CCB(k)<=s", "help_coc6_broken", &["CCB(96)<=60"]),
    ("CBR(a,b), CBRB(a,b)", "help_coc6_cbr", &["CBR(50,20)", "CBRB(70,30)"]),
    ("RES(a-b), RESB(a-b)", "help_coc6_res", &["RES(12-10)", "RESB(10-15)"]),
    (".rc name s±k, .rc N#name s", "help_dot_rc6", &[".rc 侦查60", ".rc 侦查60-20", ".rc 2#侦查50"]),
];

const WT: &[Entry] = &[
    ("WTn[Tt][Ee][>=x]", "help_wt_check", &["WT7", "WT7T2>=15", "WT5E1>=10"]),
    ("WTPn[Tt][Ee]>=x", "help_wt_odds", &["WTP6>=20"]),
    ("WDa[Bb][Tt][Sl][+k]", "help_wt_damage", &["WD6", "WD6B3T5S1", "WD4-1"]),
    ("WDTd[B|T|S][[codes]]", "help_wt_table", &["WDT12", "WDT10[OH,LL]", "WDT25S"]),
];

const TMD: &[Entry] =
    &[("TI+b", "help_tmd_init", &["TI+3", "TI"]), ("TAPn", "help_tmd_ap", &["TAP14", "TAP24"])];

const FM: &[Entry] =
    &[("EVn>t", "help_fm_ev", &["EV5>9"]), ("JEd(F|O|Sk)", "help_fm_je", &["JE20F", "JE20O", "JE20S2"])];

/// `command.help` — the command reference for `system` in `lang`: the
/// system's own commands, then the plain dice every system understands.
pub fn help(args: &CmdHelpArgs) -> Result<CmdHelpResult> {
    super::check_in_build(args.system)?;
    let (title_key, own): (&str, &[Entry]) = match args.system {
        None => ("help_title_plain", &[]),
        Some(CmdSystem::WorldTrigger) => ("help_title_world_trigger", WT),
        Some(CmdSystem::Coc7) => ("help_title_coc7", COC7),
        Some(CmdSystem::Coc6) => ("help_title_coc6", COC6),
        Some(CmdSystem::Tmd) => ("help_title_tmd", TMD),
        Some(CmdSystem::FapMap) => ("help_title_fap_map", FM),
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
pub(crate) fn all_examples() -> Vec<(Option<CmdSystem>, &'static str)> {
    let mut v = Vec::new();
    for (sys, list) in [
        (None, PLAIN),
        (Some(CmdSystem::Coc7), COC7),
        (Some(CmdSystem::Coc6), COC6),
        (Some(CmdSystem::WorldTrigger), WT),
        (Some(CmdSystem::Tmd), TMD),
        (Some(CmdSystem::FapMap), FM),
    ] {
        for (_, _, ex) in list {
            for e in *ex {
                v.push((sys, *e));
            }
        }
    }
    v
}
