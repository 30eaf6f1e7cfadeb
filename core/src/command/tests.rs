use super::*;
use serde_json::json;

fn run_json(v: serde_json::Value) -> Result<CmdRunResult> {
    let args: CmdRunArgs = serde_json::from_value(v).unwrap();
    run(&args)
}

#[test]
fn catalog_is_complete() {
    let cat = catalog::catalog().unwrap();
    for (k, m) in &cat.messages {
        for l in [CmdLang::Ja, CmdLang::ZhHans, CmdLang::ZhHant, CmdLang::En] {
            assert!(!m.get(l).is_empty(), "{k} {l:?}");
        }
    }
}

#[test]
fn smoke() {
    let r = run_json(json!({"text": "CC(1)<=53", "system": "coc7", "rolls": [9, 5, 2]})).unwrap();
    assert_eq!(r.text, "(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52 ＞ レギュラー成功");
}
