use super::*;
use serde_json::json;

fn run_json(v: serde_json::Value) -> Result<CmdRunResult> {
    let args: CmdRunArgs = serde_json::from_value(v).unwrap();
    run(&args)
}

#[test]
fn catalog_is_complete() {
    // build.rs checks each file; here: the tables are sorted (binary search) and
    // every key is found through `msg` in every language.
    for t in catalog::tables() {
        assert!(t.windows(2).all(|w| w[0].0 < w[1].0));
        for (k, texts) in t.iter() {
            for (i, l) in [CmdLang::Ja, CmdLang::ZhHans, CmdLang::ZhHant, CmdLang::En].into_iter().enumerate()
            {
                assert_eq!(catalog::msg(l, k).unwrap(), texts[i], "{k} {l:?}");
            }
        }
    }
    assert_eq!(catalog::msg(CmdLang::En, "no_such_key").unwrap_err().code, ErrorCode::Internal);
    // Korean: sorted, every key a message of the four languages, found through `msg`;
    // a message without Korean text is the English one.
    let ko = std::iter::once(catalog::COMMON_KO).chain(crate::registered::CHAT.messages_ko.iter().copied());
    let mut n = 0;
    for t in ko {
        assert!(t.windows(2).all(|w| w[0].0 < w[1].0));
        for (k, text) in t.iter() {
            assert!(catalog::tables().any(|t| t.iter().any(|e| e.0 == *k)), "{k}: Korean only");
            assert_eq!(catalog::msg(CmdLang::Ko, k).unwrap(), *text, "{k}");
            n += 1;
        }
    }
    assert!(n >= 2);
    assert_eq!(
        catalog::msg(CmdLang::Ko, "secret_notice").unwrap(),
        catalog::msg(CmdLang::En, "secret_notice").unwrap()
    );
}

#[test]
fn smoke() {
    let r = run_json(json!({"text": "CC(1)<=53", "system": "coc7", "rolls": [9, 5, 2]})).unwrap();
    assert_eq!(r.text, "(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52 ＞ レギュラー成功");
}

#[test]
fn help_examples_all_run() {
    for (system, ex) in help::all_examples() {
        let r = run(&CmdRunArgs { text: ex.into(), system, source: Some(7).into(), ..Default::default() })
            .unwrap_or_else(|e| panic!("{ex}: {e}"));
        assert!(r.matched && r.parse_error.is_none() && !r.text.is_empty(), "{ex}: {r:?}");
    }
    for system in [None, Some(CmdSystem::Coc7), Some(CmdSystem::Coc6), Some(CmdSystem::WorldTrigger)] {
        for lang in [CmdLang::Ja, CmdLang::ZhHans, CmdLang::ZhHant, CmdLang::En] {
            let h = help(&CmdHelpArgs { system, lang }).unwrap();
            assert!(h.text.lines().count() > 4);
        }
    }
}

/// Garbage and extreme lines never panic: they are unmatched, matched (maybe
/// with a parse error), or a clean error.
#[test]
fn garbage_never_panics() {
    let mut lines: Vec<String> = vec![
        "".into(),
        "S".into(),
        "SS".into(),
        "x".into(),
        "x99999999999999999999999 1D6".into(),
        "CC(".into(),
        "CC((((((".into(),
        "CC<=((((((((((((((((((((((((((((((((((((((((1".into(),
        "CC<=9223372036854775807".into(),
        "CC(-9223372036854775808)".into(),
        "CBR(1,".into(),
        "CBR(,)".into(),
        "RES(-999999999999)".into(),
        "RES999999999999".into(),
        "WT0".into(),
        "WT0>=-1000000000".into(),
        "WTP100T20E100>=1".into(),
        "WD1000000B10T10S100+1000000".into(),
        "WD1000001".into(),
        "WDT1000000[EB,EB,EB]".into(),
        "WDT-5".into(),
        "TI-999999999999".into(),
        "TAP999999999".into(),
        "EV-1000>10000".into(),
        "EV1001>1".into(),
        "JE1000000000S1000".into(),
        "JE1000000001F".into(),
        "1D6>=".into(),
        "1D6>=(".into(),
        "1D6>=-".into(),
        "1000D10000>=1".into(),
        "D".into(),
        "0D0".into(),
        "\u{3000}\u{3000}ＣＣ\u{3000}".into(),
        "🎲🎲 2D6".into(),
        "x100 1000D10000".into(),
        "x100 SCC<=50".into(),
    ];
    lines.push("1D6+".repeat(500));
    lines.push("CC<=".to_string() + &"9".repeat(5000));
    lines.push("(".repeat(10_000));
    for system in [
        None,
        Some(CmdSystem::Coc7),
        Some(CmdSystem::Coc6),
        Some(CmdSystem::WorldTrigger),
        Some(CmdSystem::Tmd),
        Some(CmdSystem::FapMap),
    ] {
        for l in &lines {
            let r =
                run(&CmdRunArgs { text: l.clone(), system, source: Some(1).into(), ..Default::default() });
            if let Ok(r) = r {
                assert!(r.matched || r.text.is_empty(), "{l}");
                assert!(r.rolls.len() <= 100_000);
            }
        }
    }
}

#[test]
fn a_refused_command_carries_no_dice() {
    // `1000U10000[2]` rolls its thousand dice (and rerolls) before the reroll work bound
    // refuses it; the reply is the refusal alone.
    let r = run_json(json!({"text": "1000U10000[2]", "seed": 1})).unwrap();
    assert_eq!(r.refused.as_ref().map(|x| x.code.as_str()), Some("limit_exceeded"), "{r:?}");
    assert!(r.rolls.is_empty() && r.repeats.is_empty(), "{} rolls", r.rolls.len());
    // Repeated: the runs before the refused one carry none either.
    let r = run_json(json!({"text": "x3 1000U10000[2]", "seed": 1})).unwrap();
    assert_eq!(r.refused.as_ref().map(|x| x.code.as_str()), Some("limit_exceeded"), "{r:?}");
    assert!(r.rolls.is_empty() && r.repeats.is_empty(), "{} rolls", r.rolls.len());
    // A sheet command (`.sc`).
    let r = run_json(json!({"text": ".sc 1d6/1000D6", "system": "coc7", "card": {"san": 50}, "seed": 1}))
        .unwrap();
    assert_eq!(r.refused.as_ref().map(|x| x.code.as_str()), Some("out_of_range"), "{r:?}");
    assert!(r.rolls.is_empty(), "{r:?}");
}

#[test]
fn echoed_command_and_comment_are_capped() {
    let long = "x".repeat(1_000_000);
    // A 1 MB comment.
    let r = run_json(json!({"text": format!("1d6 {long}"), "seed": 1})).unwrap();
    let comment = r.comment.unwrap();
    assert_eq!(comment.chars().count(), MAX_ECHO_CHARS + 1);
    assert!(comment.ends_with('…') && comment.starts_with("xxx"));
    assert_eq!(r.rolls.len(), 1, "the command still runs");
    // A 1 MB head that cannot be read: the command echo is cut too.
    let r = run_json(json!({"text": format!("CC<=50{long}"), "system": "coc7"})).unwrap();
    assert!(r.parse_error.is_some(), "{:?}", r.parse_error);
    let command = r.command.unwrap();
    assert_eq!(command.chars().count(), MAX_ECHO_CHARS + 1);
    assert!(command.starts_with("CC<=50X") && command.ends_with('…'));
    // The whole reply stays within a few kilobytes.
    let r = run_json(json!({"text": format!("x2 1d6 {long}"), "seed": 1})).unwrap();
    let size = serde_json::to_string(&r).unwrap().len();
    assert!(size < 4 * (MAX_ECHO_CHARS + MAX_REPLY_CHARS), "{size} bytes");
    // Within the cap, kept as it is (multi-byte characters counted as characters).
    let kanji = "目".repeat(MAX_ECHO_CHARS);
    let r = run_json(json!({"text": format!("1d6 {kanji}"), "seed": 1})).unwrap();
    assert_eq!(r.comment.as_deref(), Some(kanji.as_str()));
}

/// The illustrative table pack (`core/data/command/coc7_tables.json`, not compiled into
/// the library) is labelled illustrative, validates, and fills every entry of the
/// tables it holds in all four languages: each of BMR's ten entries answers with the
/// pack's text (bouts of madness: 1D10 entry, 1D10 rounds).
#[test]
fn illustrative_table_pack() {
    let text = include_str!("../../data/command/coc7_tables.json");
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    let pack: tables::CmdTablePack = crate::json::from_value(&v).unwrap();
    assert!(pack.illustrative);
    tables::validate(&pack).unwrap();
    for (id, die) in (crate::registered::CHAT.tables)() {
        let entries: Vec<crate::kernel::label::WtLabel> =
            crate::json::from_value(&pack.tables.0[id]).unwrap();
        assert!(entries.len() == die as usize || entries.is_empty(), "{id}");
        for e in entries {
            assert!([&e.ja, &e.zh_hans, &e.zh_hant, &e.en].iter().all(|t| !t.is_empty()), "{id}");
        }
    }
    for n in 1..=10 {
        let r = run_json(
            json!({"text": "BMR", "system": "coc7", "lang": "zh-Hant", "rolls": [n, 4], "table_pack": v}),
        )
        .unwrap();
        let want = pack.tables.0["bouts_realtime"][n as usize - 1]["zh_hant"].as_str().unwrap();
        assert_eq!(r.text, format!("瘋狂發作（即時症狀）({n}) ＞ {want}(1D10＞4回合)"));
    }
}
