use super::ap::*;
use super::check::*;
use crate::error::ErrorCode;
use serde_json::{json, Value};

#[test]
fn garbage_args_never_panic() {
    for skill in [i64::MIN, -1, 0, 999, 1000, i64::MAX] {
        let _ = check(&CocApCheckArgs { skill, source: Some(3).into(), ..Default::default() });
    }
    for dex in [i64::MIN, -1, 0, 18, 999, 1000, i64::MAX] {
        for ap_bonus in [i64::MIN, -101, -100, 0, 100, 101, i64::MAX] {
            let _ = action_points(&CocApActionPointsArgs { dex, ap_bonus, variants: Default::default() });
        }
    }
    for v in [
        json!({"participants": []}),
        json!({"participants": [{"id": "", "dex": 10}]}),
        json!({"participants": [{"id": "a", "dex": 10}, {"id": "a", "dex": 11}]}),
        json!({"participants": [{"id": "a", "dex": i64::MAX}]}),
        json!({"participants": [{"id": "a", "dex": 10, "position": [i64::MAX, 0]}]}),
        json!({"participants": [{"id": "a", "dex": 10, "weapons": [{"name": "x", "skill": 5, "attacks_per_round": 0}]}]}),
        json!({"participants": "x"}),
    ] {
        assert!(crate::call("coc_ap.round_new", v).is_err());
    }
    let s = crate::call(
        "coc_ap.round_new",
        json!({"participants": [{"id": "a", "dex": 10, "position": [1000000, 0]}]}),
    )
    .unwrap()["state"]
        .clone();
    let e = crate::call(
        "coc_ap.round_act",
        json!({"state": s, "action": {"type": "move", "actor": "a", "dir": "east"}}),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::LimitExceeded);
    let mut bad = s.clone();
    bad["order"] = json!(["b"]);
    let e =
        crate::call("coc_ap.round_act", json!({"state": bad, "action": {"type": "next_round"}})).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidData);
    let mut bad = s.clone();
    bad["turn"] = json!(usize::MAX);
    assert!(crate::call("coc_ap.round_legal_actions", json!({"state": bad})).is_err());
    let mut bad = s;
    bad["round"] = json!(10000);
    // Every turn of the round has ended (COCAP-RND-2), so the round is no longer open.
    bad["turn"] = json!(null);
    bad["open"] = json!(false);
    for f in bad["fighters"].as_array_mut().unwrap() {
        f["turn_done"] = json!(true);
    }
    let e =
        crate::call("coc_ap.round_act", json!({"state": bad, "action": {"type": "next_round"}})).unwrap_err();
    assert_eq!(e.code, ErrorCode::LimitExceeded);
}

#[test]
fn check_all_faces_consistent() {
    for skill in 0..=120 {
        for r in 1..=100u32 {
            let c = evaluate(r, skill, CocApRule::Ccb);
            assert!(!(c.success && c.fumble));
            assert!(!c.critical || c.success);
            assert_eq!(c.success, i64::from(r) <= skill && r < 100);
        }
    }
}

/// Rules with no computable behaviour, documented here:
/// COCAP-PREP-1 (combat uses the KP's map area), COCAP-PREP-2 (initial
/// placement inside the KP's zones: `round_new` takes each `position`),
/// COCAP-PREP-3 (weapons drawn / spirit images manifested at the KP's leave:
/// the caller passes the weapons available), COCAP-PART-1 (a PC in the map
/// area is a participant even while exploring), COCAP-PART-3 (a long
/// investigation means effectively not taking part: the caller leaves the PC
/// out), COCAP-PART-4 (a separated PC knows of the combat only by contact: RP),
/// COCAP-PART-5 (different map areas: the KP tracks elapsed time),
/// COCAP-RND-3 (end conditions are not in the seed: the setup's sides end the fight).
/// COCAP-PART-2 is enforced: an exploring participant's moves cost AP.
#[test]
fn participants_act_only_within_their_ap() {
    let s = crate::call("coc_ap.round_new", json!({"participants": [{"id": "explorer", "dex": 5}]})).unwrap()
        ["state"]
        .clone();
    assert_eq!(s["fighters"][0]["ap"], 2);
    let mut state = s;
    for _ in 0..2 {
        state = crate::call(
            "coc_ap.round_act",
            json!({"state": state, "action": {"type": "move", "actor": "explorer", "dir": "east"}}),
        )
        .unwrap()["state"]
            .clone();
    }
    let e = crate::call(
        "coc_ap.round_act",
        json!({"state": state, "action": {"type": "move", "actor": "explorer", "dir": "east"}}),
    )
    .unwrap_err();
    assert_eq!(e.rule.as_deref(), Some("COCAP-ACT-1"));
}

/// Every action `round_legal_actions` lists is one `round_act` accepts: at the edge of
/// the ±1,000,000 coordinate range no move, jump or evasion leads off it (the list
/// used to offer them and `round_act` refused them).
#[test]
fn legal_actions_stop_at_the_coordinate_range() {
    let s = crate::call(
        "coc_ap.round_new",
        json!({"participants": [{"id": "a", "dex": 10, "position": [1000000, 0]}]}),
    )
    .unwrap()["state"]
        .clone();
    let legal = crate::call("coc_ap.round_legal_actions", json!({"state": s})).unwrap()["actions"].clone();
    let listed: Vec<&Value> = legal.as_array().unwrap().iter().map(|it| &it["action"]).collect();
    assert!(listed.iter().any(|a| a["type"] == "move" && a["dir"] == "west"));
    // COCAP-ACT-1: a move costs 1 AP, and the listing says so.
    assert!(legal.as_array().unwrap().iter().any(|it| it["action"]["type"] == "move" && it["ap"] == 1));
    for a in listed {
        assert_ne!(a["dir"], "east", "{a}");
        let r = crate::call("coc_ap.round_act", json!({"state": s, "action": a, "seed": 1}));
        assert!(r.is_ok(), "{a} listed but refused: {r:?}");
    }
}
