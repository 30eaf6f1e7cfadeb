//! World Trigger rules about play modes and maps that have no formula of their
//! own, checked through what the engine does with them.

use serde_json::{json, Value};

fn setup(name: &str) -> Value {
    let path = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
        .join("../examples/battles")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// WT-MODE-2: a team is combatants plus an operator; the engine takes the
/// operator as part of the team and gives it its own budget slot.
#[test]
fn wt_mode_2_team_with_operator() {
    let s = setup("mock_4v4.json");
    assert!(s["teams"][1].get("operator").is_some());
    let r = gunbai::call("world_trigger.battle_new", s).unwrap();
    let text = r["state"].to_string();
    assert!(text.contains("operator"), "the state keeps the operator");
}

/// WT-MAP-2: the rulebook's maps are missing, so maps are data: any validated
/// grid given in the setup is the battlefield.
#[test]
fn wt_map_2_maps_are_setup_data() {
    let mut s = setup("rank_3v3.json");
    let r = gunbai::call("world_trigger.battle_new", s.clone()).unwrap();
    assert_eq!(r["state"]["map"]["width"], s["map"]["width"]);
    s["map"] = json!({"width": 0, "height": 0, "heights": []});
    let e = gunbai::call("world_trigger.battle_new", s).unwrap_err();
    assert!(matches!(e.code.as_str(), "invalid_argument" | "invalid_data" | "out_of_range"), "{e}");
}

/// WT-MODE-1: of the three ways to create characters only "new creation" is in
/// the seed; gunbai implements that one (`create_character`) and nothing else.
#[test]
fn wt_mode_1_new_creation_only() {
    let ops = gunbai::call("meta.operations", json!({})).unwrap();
    let names: Vec<&str> = ops["operations"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(names.contains(&"world_trigger.create_character"));
    assert!(!names.iter().any(|n| n.contains("inherit") || n.contains("convert_character")));
}

/// WT-META-1 (tables may change rules by agreement) and WT-MODE-4 (module
/// types): gunbai exposes the RULINGS variants as switches, and the battle
/// type and end conditions come from the setup.
#[test]
fn wt_meta_1_and_mode_4_rules_are_switches() {
    let mut s = setup("rank_3v3.json");
    s["variants"] = json!({"range_metric": "manhattan"});
    let r = gunbai::call("world_trigger.battle_new", s.clone()).unwrap();
    assert_eq!(r["state"]["variants"]["range_metric"], "manhattan");
    s["variants"] = json!({"range_metric": "euclid"});
    assert_eq!(gunbai::call("world_trigger.battle_new", s).unwrap_err().code.as_str(), "invalid_argument");
    for name in ["rank_3v3.json", "mock_4v4.json", "defense.json"] {
        let s = setup(name);
        let r = gunbai::call("world_trigger.battle_new", s.clone()).unwrap();
        assert_eq!(r["state"]["battle_type"], s["battle_type"]);
    }
}
