use super::ap::*;
use super::check::*;
use crate::error::ErrorCode;
use serde_json::json;

#[test]
fn garbage_args_never_panic() {
    for skill in [i64::MIN, -1, 0, 999, 1000, i64::MAX] {
        let _ = check(&CocApCheckArgs { skill, seed: Some(3), ..Default::default() });
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
    bad["turn"] = json!(null);
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
