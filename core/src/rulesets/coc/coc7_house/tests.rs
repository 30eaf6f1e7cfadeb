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

/// The base-game HP, wound and tie values the round uses come from a pack labelled
/// illustrative (C7H-PAS-1: dodge and fight back follow base 7e).
#[test]
fn combat_pack_is_labelled_illustrative() {
    let p = super::exchange::pack().unwrap();
    assert_eq!(p.meta["illustrative"], json!(true));
    assert_eq!(p.meta["id"], json!("coc7_combat_illustrative"));
}

/// C7H-ACT-1, C7H-ACT-2: a whole fight on a game handle: a critical with the axe
/// doubles its base dice and kills the only combatant of side `pc`; `outcome()` then
/// names side `npc`, `hp()` reports the HP, and every action is refused.
#[test]
fn a_fight_ends_with_an_outcome_when_one_side_is_down() {
    use crate::coc::handle::HouseRound;
    use crate::engine::{Engine, Session};
    let setup: super::round::C7hRoundNewArgs = crate::ops::parse_args(json!({"participants": [
        {"id": "B", "dex": 80, "side": "npc", "hp": 10, "db": "1d4",
         "weapons": [{"id": "axe", "skill": 60, "damage": "1d8+DB"}]},
        {"id": "A", "dex": 60, "side": "pc", "hp": 12, "weapons": [{"id": "sword", "skill": 70, "damage": "1d8"}]}]}))
    .unwrap();
    let (mut g, _, _) = Session::<HouseRound>::create(&setup).unwrap();
    assert_eq!(g.outcome(), serde_json::Value::Null);
    let attack: super::round::C7hAction =
        crate::ops::parse_args(json!({"type": "attack", "actor": "B", "target": "A", "weapon": "axe"}))
            .unwrap();
    g.act(&attack, &mut crate::dice::Dice::seeded(1).unwrap()).unwrap();
    assert_eq!(g.outcome(), serde_json::Value::Null, "an attack waiting for its reaction ends nothing");
    let take: super::round::C7hAction =
        crate::ops::parse_args(json!({"type": "reaction", "actor": "A"})).unwrap();
    // 01 (critical): 2d8 (6, 6) + DB 1d4 (4) = 16 > 12: A is dead.
    let mut dice = crate::dice::DiceArgs::rolls([10i64, 1, 6, 6, 4]).dice().unwrap();
    let ev = g.act(&take, &mut dice).unwrap();
    let ev = crate::json::ToJson::to_json(&ev);
    assert_eq!(ev[0]["status"], json!("dead"), "{ev}");
    assert_eq!(g.outcome(), json!({"side": "npc", "rule": "C7H-ACT-1", "down": ["A"]}));
    assert_eq!(HouseRound::hp(g.state()), vec![("B", 10), ("A", 0)]);
    assert!(g.turn().active.is_empty());
    let end: super::round::C7hAction =
        crate::ops::parse_args(json!({"type": "end_turn", "actor": "B"})).unwrap();
    let before = g.state().clone();
    let e = g.act(&end, &mut crate::dice::Dice::seeded(1).unwrap()).unwrap_err();
    assert_eq!(e.rule.as_deref(), Some("C7H-ACT-1"));
    assert!(*g.state() == before, "a refused action changes nothing");
}
