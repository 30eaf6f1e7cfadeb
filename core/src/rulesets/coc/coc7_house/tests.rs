use serde_json::json;

/// Every op of the module, thrown garbage: errors, never panics.
#[test]
fn garbage_args_never_panic() {
    let ops = [
        "coc7_house.initiative",
        "coc7_house.turn_order",
        "coc7_house.round_new",
        "coc7_house.round_legal_actions",
        "coc7_house.round_act",
        "coc7_house.damage",
        "coc7_house.defend",
        "coc7_house.cover",
        "coc7_house.cancel",
        "coc7_house.counter",
        "coc7_house.auto_hit",
        "coc7_house.parse_range",
        "coc7_house.chase_new",
        "coc7_house.chase_act",
    ];
    let big = i64::MAX;
    let junk = [
        json!(null),
        json!([]),
        json!("x"),
        json!({"dex": big}),
        json!({"dex": -big, "modifier": big}),
        json!({"participants": [{"id": "a", "dex": big}]}),
        json!({"expr": "1000d6", "extreme": true}),
        json!({"expr": "d66*", "extreme": true}),
        json!({"expr": "500d6", "extreme": true, "variants": {"extreme_damage": "double_total"}}),
        json!({"damage": big, "defense": big, "level": "extreme"}),
        json!({"damage": 5, "defense": 5, "skill": 50, "bonus_dice": -10, "covering": true}),
        json!({"damages": [big, big], "dex": 50, "seed": 1}),
        json!({"damages": [], "level": "regular"}),
        json!({"attacker_damage": big, "canceller_damage": 0, "level": "regular"}),
        json!({"melee": true, "incoming_damage": 1, "counter_damage": big, "level": "critical"}),
        json!({"reason": "restrained", "damage": -1, "level": "failure"}),
        json!({"text": "射撃9999999m/1体"}),
        json!({"text": "射撃20m/1体", "distance": big}),
        json!({"text": "（（（（"}),
        json!({"fugitive": {"id": "f", "mov": big, "dex": 1, "skill": 1}}),
        json!({"state": {"round": big, "fugitive": {}, "gap": 1}}),
    ];
    for op in ops {
        for j in &junk {
            let _ = crate::call(op, j.clone());
        }
    }
    // Huge but legal bonus dice on a chase: one per point of MOV difference
    // (C7H-ESC-5), rolled as that many tens dice.
    let s = crate::call(
        "coc7_house.chase_new",
        json!({"fugitive": {"id": "f", "mov": 0, "dex": 50, "skill": 0},
               "pursuer": {"id": "p", "mov": 100, "dex": 50, "skill": 0}}),
    )
    .unwrap()["state"]
        .clone();
    let out = crate::call("coc7_house.chase_act", json!({"state": s, "seed": 5})).unwrap();
    let r = &out["events"][0];
    assert_eq!(r["event"], "chase_round");
    let bonus = r["pursuer_bonus_dice"].as_i64().unwrap();
    let mov_gap = r["pursuer_mov"].as_i64().unwrap() - r["fugitive_mov"].as_i64().unwrap();
    assert!(bonus == mov_gap && bonus >= 100, "{r}");
    let tens = r["pursuer_dex"]["candidates"].as_array().map(Vec::len);
    assert_eq!(tens, Some(bonus as usize + 1), "{r}");
}

/// C7H-INIT-2 note: floor(DEX/5) never reverses a DEX order, so without
/// modifiers the order equals DEX descending then side.
#[test]
fn initiative_never_reverses_dex() {
    for a in 0..200i64 {
        for b in 0..200i64 {
            if a > b {
                assert!(super::init::initiative_of(a, 0) >= super::init::initiative_of(b, 0));
            }
        }
    }
}
