//! Property and robustness tests of the battle engine.

use super::*;
use crate::dice::prng::Prng;
use serde_json::json;

pub(crate) fn setup(name: &str) -> Value {
    let text = match name {
        "rank_3v3" => include_str!("../../../../../examples/battles/rank_3v3.json"),
        "mock_4v4" => include_str!("../../../../../examples/battles/mock_4v4.json"),
        _ => include_str!("../../../../../examples/battles/defense.json"),
    };
    serde_json::from_str(text).unwrap()
}

fn new_args(setup: &Value) -> WtBattleNewArgs {
    serde_json::from_value(setup.clone()).unwrap()
}

fn new_state(setup: &Value) -> WtBattleState {
    battle_new(&new_args(setup)).unwrap().state
}

/// Budgets and other invariants every reachable state keeps, and the JSON
/// round trip (serialize, parse, validate: equal in every field, so nothing
/// is lost and serializing again gives the same text).
fn check_invariants(s: &WtBattleState) {
    s.validate().unwrap();
    check_budgets(s);
    let text = serde_json::to_string(s).unwrap();
    let back: WtBattleState = serde_json::from_str(&text).unwrap();
    back.validate().unwrap();
    assert!(&back == s, "the state changed in a JSON round trip");
}

/// The budgets (WT-ECO-2, WT-TD-5, WT-TRG-4) and bailout bookkeeping.
fn check_budgets(s: &WtBattleState) {
    for t in 0..s.teams.len() {
        for p in [WtBattlePhase::Tactics, WtBattlePhase::Movement, WtBattlePhase::Attack] {
            let n = s.members.iter().filter(|m| m.team == t && engine_slot(&m.used, p)).count();
            assert!(n <= MEMBERS_PER_PHASE, "team {t} used {n} slots in {p:?} (WT-ECO-2)");
        }
        assert!(s.teams[t].tactics_dice <= MAX_TACTICS_DICE);
    }
    for m in &s.members {
        // WT-TRG-4: one trigger (plus its options) per active side.
        for act in [&m.used.active_main, &m.used.active_sub] {
            let bases: Vec<&String> = act
                .iter()
                .filter(|t| {
                    s.trigger(t).is_some_and(|x| x.kind == crate::world_trigger::data::WtTriggerKind::Trigger)
                })
                .collect();
            assert!(bases.len() <= 1, "{}: several triggers active on one side: {act:?}", m.id);
        }
        // WT-TRG-4: one Attack-phase action per side, and only with the slot taken.
        if (m.used.main_action || m.used.sub_action) && m.status == WtMemberStatus::Active {
            assert!(
                m.used.attack || m.skills.iter().any(|k| s.skill(&k.skill).is_some_and(|x| x.combined_use))
            );
        }
        if m.status == WtMemberStatus::BailedOut {
            assert!(m.conditions.contains(&crate::world_trigger::types::WtCondition::EmergencyBailout));
        }
    }
}

fn engine_slot(u: &WtMemberUsage, p: WtBattlePhase) -> bool {
    match p {
        WtBattlePhase::Tactics => u.tactics,
        WtBattlePhase::Movement => u.movement,
        WtBattlePhase::Attack => u.attack,
        _ => false,
    }
}

pub(crate) fn pick(rng: &mut Prng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// A random (usually illegal) action.
pub(crate) fn random_action(rng: &mut Prng, s: &WtBattleState) -> WtBattleAction {
    let m = &s.members[pick(rng, s.members.len())];
    let t = &s.teams[pick(rng, s.teams.len())];
    let sk = s.catalog.skills[pick(rng, s.catalog.skills.len())].id.clone();
    let sq = WtSquare { x: pick(rng, 20) as i64 - 2, y: pick(rng, 16) as i64 - 2 };
    match pick(rng, 9) {
        0 => WtBattleAction::RollInitiative { tactics_dice: vec![] },
        1 => WtBattleAction::UseSkill {
            actor: m.id.clone(),
            skill: sk,
            side: None,
            target: Some(s.members[pick(rng, s.members.len())].id.clone()),
            center: None,
            tactics_dice: pick(rng, 3) as u32,
            burst: pick(rng, 4) as i64,
            push_to: None,
        },
        2 => WtBattleAction::Move { actor: m.id.clone(), skill: sk, path: vec![sq] },
        3 => WtBattleAction::React { actor: m.id.clone(), skill: sk, side: None, tactics_dice: 0 },
        4 => WtBattleAction::NoReaction {},
        5 => WtBattleAction::Reenter { actor: m.id.clone(), tactics_dice: 0 },
        6 => WtBattleAction::Pass { team: t.id.clone() },
        7 => WtBattleAction::UseAbility {
            actor: m.id.clone(),
            ability: m.abilities.first().map(|a| a.id.clone()).unwrap_or_default(),
        },
        _ => WtBattleAction::UseSkill {
            actor: m.id.clone(),
            skill: sk,
            side: None,
            target: None,
            center: Some(sq),
            tactics_dice: 0,
            burst: 0,
            push_to: None,
        },
    }
}

/// How much `play` checks (the final state is always fully checked, except by the benchmark).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Checks {
    /// Every `full_every` actions (1: every action; 0: never): the state
    /// validates, keeps its budgets and survives a JSON round trip unchanged,
    /// and two random (mostly illegal) actions either apply or leave it
    /// exactly as it was.
    full_every: usize,
    /// Every `reference_every` actions (0: never): the listing equals the
    /// reference listing, for everyone and for one member.
    reference_every: usize,
    /// After every action: the budgets (cheap).
    budgets: bool,
    /// Sometimes push attack targets (off the map, WT-OOB), so out-of-bounds
    /// play is covered (the benchmark keeps the plain policy).
    push: bool,
}

/// Every action fully checked.
const EVERY_ACTION: Checks = Checks { full_every: 1, reference_every: 7, budgets: true, push: true };
/// Many battles: budgets every action, the rest on a sample of actions.
const SAMPLED: Checks = Checks { full_every: 173, reference_every: 211, budgets: true, push: true };
/// Nothing (the benchmark).
const NO_CHECKS: Checks = Checks { full_every: 0, reference_every: 0, budgets: false, push: false };

/// Play one random battle (each action chosen uniformly among the legal
/// ones, 70 % of the time among those other than passing, with random
/// tactics dice and burst within the listed cost), applying actions in
/// place; returns the final state and the number of actions.
fn play(setup: &WtBattleNewArgs, seed: u64, max_steps: usize, checks: Checks) -> (WtBattleState, usize) {
    let mut seen = Seen::default();
    play_seen(setup, seed, max_steps, checks, &mut seen)
}

/// Out-of-bounds events seen while playing.
#[derive(Debug, Default)]
struct Seen {
    battles: usize,
    actions: usize,
    pushed_out: usize,
    brought_back: usize,
    reentry: usize,
    oob_bailout: usize,
}

/// With a single-target attack that can push (WT-MOV-6), choose a push half
/// of the time: straight towards the nearest map edge, or a random square in reach.
fn push_sometimes(rng: &mut Prng, s: &WtBattleState, a: &mut WtBattleAction) {
    let WtBattleAction::UseSkill { skill, target: Some(t), push_to, .. } = a else { return };
    let fm = s.skill(skill).map(|k| i64::from(k.forced_move)).unwrap_or(0);
    let Some(at) = s.idx(t).map(|i| s.members[i].at) else { return };
    if fm == 0 || pick(rng, 2) == 0 {
        return;
    }
    let (w, h) = (i64::from(s.map.width), i64::from(s.map.height));
    let to = if pick(rng, 2) == 0 {
        let edges = [(at.x + 1, (-fm, 0)), (w - at.x, (fm, 0)), (at.y + 1, (0, -fm)), (h - at.y, (0, fm))];
        let (_, (dx, dy)) = edges.iter().min_by_key(|e| e.0).copied().unwrap();
        WtSquare { x: at.x + dx, y: at.y + dy }
    } else {
        let dx = pick(rng, 2 * fm as usize + 1) as i64 - fm;
        let dy = pick(rng, 2 * fm as usize + 1) as i64 - fm;
        WtSquare { x: at.x + dx, y: at.y + dy }
    };
    *push_to = Some(to);
    if engine::check(s, a).is_err() {
        if let WtBattleAction::UseSkill { push_to, .. } = a {
            *push_to = None;
        }
    }
}

/// Every action of a filled list.
/// The compact listing (and each `kind`'s) says exactly what the full listing says:
/// the same other actions in the same order, and its moves, rebuilt from the route
/// tree (a path by following `via`), are the full listing's moves.
fn check_compact(s: &WtBattleState, actor: Option<&str>) {
    let full = engine::legal_actions(s, actor);
    let is_move = |a: &WtLegalAction| matches!(a.action, WtBattleAction::Move { .. });
    let (actions, moves) =
        legal::listing_with(&mut legal::LegalList::default(), s, actor, None, true, "state").unwrap();
    let moves = moves.unwrap();
    assert_eq!(actions, full.iter().filter(|a| !is_move(a)).cloned().collect::<Vec<_>>());
    let key = |a: &WtLegalAction| serde_json::to_string(a).unwrap();
    let mut want: Vec<String> = full.iter().filter(|a| is_move(a)).map(key).collect();
    let mut got = Vec::new();
    for m in &moves {
        for sk in &m.skills {
            for i in 0..sk.count as usize {
                if m.through.contains(&(i as u32)) {
                    continue;
                }
                let mut path = Vec::new();
                let mut at = i as i64;
                while at >= 0 {
                    let q = &m.squares[4 * at as usize..4 * at as usize + 4];
                    path.push(WtSquare { x: q[0], y: q[1] });
                    assert!(q[3] < at, "a square's predecessor comes before it");
                    at = q[3];
                }
                path.reverse();
                let action = WtBattleAction::Move { actor: m.actor.clone(), skill: sk.skill.clone(), path };
                let cost = WtActionCost {
                    slot: sk.slot,
                    movement: Some(m.squares[4 * i + 2]),
                    ..Default::default()
                };
                got.push(key(&WtLegalAction { action, cost }));
            }
        }
    }
    want.sort();
    got.sort();
    assert_eq!(got, want, "compact moves differ from the listing's");
    for kind in legal::KINDS {
        let (only, none) =
            legal::listing_with(&mut legal::LegalList::default(), s, actor, Some(kind), false, "state")
                .unwrap();
        assert!(none.is_none());
        let want: Vec<WtLegalAction> =
            full.iter().filter(|a| a.action.to_json()["type"] == kind).cloned().collect();
        assert_eq!(only, want, "kind {kind}");
    }
}

fn listed(list: &mut legal::LegalList, s: &WtBattleState) -> Vec<WtLegalAction> {
    (0..list.refs.len()).map(|i| list.action(s, i).expect("a listed action materializes")).collect()
}

fn play_seen(
    setup: &WtBattleNewArgs,
    seed: u64,
    max_steps: usize,
    checks: Checks,
    seen: &mut Seen,
) -> (WtBattleState, usize) {
    let mut rng = Prng::new(seed);
    let mut s = battle_new(setup).unwrap().state;
    let mut list = legal::LegalList::default();
    let mut ev = Vec::new();
    let mut scratch = s.clone();
    let every = |n: usize, step: usize| n > 0 && step % n == 0;
    let mut steps = 0;
    while steps < max_steps {
        if every(checks.full_every, steps) {
            check_invariants(&s);
            // A refused action changes nothing (`act` works in place).
            for _ in 0..2 {
                let a = random_action(&mut rng, &s);
                scratch.clone_from(&s);
                let mut d = Dice::seeded(1).unwrap();
                let mut e2 = Vec::new();
                if let Err(e) = engine::act(&mut scratch, &a, &mut d, &mut e2) {
                    assert!(!matches!(e.code, crate::ErrorCode::Internal), "{a:?}: {e:?}");
                    assert!(scratch == s, "a refused action changed the state: {a:?}");
                }
            }
        }
        if every(checks.reference_every, steps) {
            // The listing (through the list kept across the battle, with its
            // cached route searches) equals the reference, for one member and for all.
            assert_eq!(engine::legal_actions(&s, None), reference::legal_actions_reference(&s, None));
            let who = s.members[pick(&mut rng, s.members.len())].id.clone();
            list.fill(&s, Some(&who));
            assert_eq!(listed(&mut list, &s), reference::legal_actions_reference(&s, Some(&who)));
            list.fill(&s, None);
            assert_eq!(listed(&mut list, &s), reference::legal_actions_reference(&s, None));
            check_compact(&s, None);
            check_compact(&s, Some(&who));
        }
        list.fill(&s, None);
        let refs = &list.refs;
        if s.phase == WtBattlePhase::Ended {
            assert!(refs.is_empty(), "a finished battle has no legal actions");
            assert!(s.outcome.is_some());
            break;
        }
        assert!(!refs.is_empty(), "no legal action in {:?} round {}", s.phase, s.round);
        // Prefer doing things over passing so battles progress.
        let non_pass = refs.iter().filter(|l| !l.is_pass()).count();
        let i = if non_pass > 0 && pick(&mut rng, 10) < 7 {
            let n = pick(&mut rng, non_pass);
            refs.iter().enumerate().filter(|(_, l)| !l.is_pass()).nth(n).unwrap().0
        } else {
            pick(&mut rng, refs.len())
        };
        let mut la = list.action(&s, i).expect("a listed action materializes");
        // Sometimes use the optional extras the cost allows.
        if let WtBattleAction::UseSkill { tactics_dice, burst, .. } = &mut la.action {
            if la.cost.max_tactics_dice > 0 && pick(&mut rng, 3) == 0 {
                *tactics_dice = 1 + pick(&mut rng, la.cost.max_tactics_dice as usize) as u32;
            }
            if la.cost.max_burst > 0 && pick(&mut rng, 3) == 0 {
                *burst = 1 + pick(&mut rng, la.cost.max_burst as usize) as i64;
            }
        }
        if checks.push {
            // Sometimes push the target (WT-MOV-6), often off the map (WT-OOB).
            push_sometimes(&mut rng, &s, &mut la.action);
        }
        let mut dice = Dice::seeded(rng.next_u64() % (1 << 50)).unwrap();
        ev.clear();
        engine::act(&mut s, &la.action, &mut dice, &mut ev)
            .unwrap_or_else(|e| panic!("listed action refused: {:?}: {e:?}", la.action));
        for e in &ev {
            match e {
                WtBattleEvent::ForcedMove { out_of_bounds: true, .. } => seen.pushed_out += 1,
                WtBattleEvent::BroughtBack { .. } => seen.brought_back += 1,
                WtBattleEvent::Reentry { .. } => seen.reentry += 1,
                WtBattleEvent::BailedOut { rule, .. } if rule == "WT-OOB-1" => seen.oob_bailout += 1,
                _ => {}
            }
        }
        if checks.budgets {
            check_budgets(&s);
        }
        steps += 1;
    }
    if checks != NO_CHECKS {
        check_invariants(&s);
    }
    seen.battles += 1;
    seen.actions += steps;
    (s, steps)
}

/// The six configurations of the property tests: each battle type (WT-BTL)
/// with 3-member and 4-member teams, from the example setups.
fn config(name: &str) -> Value {
    let (base, battle_type) = match name {
        "rank_3v3" => ("rank_3v3", "rank"),
        "mock_3v3" => ("rank_3v3", "mock"),
        "defense_3v3" => ("defense", "defense"),
        "rank_4v4" => ("mock_4v4", "rank"),
        "mock_4v4" => ("mock_4v4", "mock"),
        _ => ("mock_4v4", "defense"),
    };
    let mut v = setup(base);
    if v["battle_type"] != json!(battle_type) {
        v["battle_type"] = json!(battle_type);
        v["max_rounds"] = json!(5);
        if battle_type == "defense" {
            // The second team defends without a bailout system; the battle ends when the first team's leader is down.
            v["end_when_down"] = json!([v["teams"][0]["leader"].clone()]);
            for m in v["teams"][1]["members"].as_array_mut().unwrap() {
                m["bailout_system"] = json!(false);
            }
        }
    }
    v
}

const CONFIGS: [&str; 6] = ["rank_3v3", "mock_3v3", "defense_3v3", "rank_4v4", "mock_4v4", "defense_4v4"];

/// `n` random battles of one configuration with `checks`; returns what was seen.
fn property_run(name: &str, n: u64, checks: Checks) -> Seen {
    let mut seen = Seen::default();
    property_run_from(name, 0..n, checks, &mut seen);
    seen
}

/// Play the battles of `seeds` (battle `k` on seed `7k + 1`) into `seen`.
fn property_run_from(name: &str, seeds: std::ops::Range<u64>, checks: Checks, seen: &mut Seen) {
    let setup = new_args(&config(name));
    let n = seeds.end - seeds.start;
    let mut ended = 0;
    for seed in seeds {
        let (s, _) = play_seen(&setup, seed * 7 + 1, 3000, checks, seen);
        ended += u64::from(s.phase == WtBattlePhase::Ended);
    }
    assert_eq!(ended, n, "{name}: every random battle finishes");
}

/// Battles per configuration of the sampled property tests:
/// `GUNBAI_PROPERTY_SAMPLED` if set (`make test` sets it: scripts/ci/property.sh), else 350
/// with debug assertions on and 2000 in a release build (`cargo test --release`).
fn sampled_battles() -> u64 {
    std::env::var("GUNBAI_PROPERTY_SAMPLED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 350 } else { 2000 })
}

/// Thousands of random legal battles: every configuration, budgets
/// checked after every action, the rest (validation, JSON round trip,
/// refused actions changing nothing, the listing against the reference) on
/// a sample of actions and on every final state. One test per configuration
/// so that they run in parallel.
fn property_sampled(name: &str) {
    let n = sampled_battles();
    let mut seen = property_run(name, n, SAMPLED);
    // Out-of-bounds play (WT-OOB-1/2/4) is covered. Bringing a member back is rare in
    // random play (about one battle in a hundred in some configurations), so a sample
    // that has not met it yet goes on, battle by battle, up to four times its size.
    let covered = |s: &Seen| s.pushed_out > 0 && s.reentry > 0 && s.brought_back > 0;
    let mut next = n;
    while !covered(&seen) && next < 4 * n.max(100) {
        property_run_from(name, next..next + 1, SAMPLED, &mut seen);
        next += 1;
    }
    eprintln!("{name}: {seen:?}");
    assert!(covered(&seen), "{name}: {seen:?}");
}

#[test]
fn property_rank_3v3() {
    property_sampled("rank_3v3");
}

#[test]
fn property_mock_3v3() {
    property_sampled("mock_3v3");
}

#[test]
fn property_defense_3v3() {
    property_sampled("defense_3v3");
}

#[test]
fn property_rank_4v4() {
    property_sampled("rank_4v4");
}

#[test]
fn property_mock_4v4() {
    property_sampled("mock_4v4");
}

#[test]
fn property_defense_4v4() {
    property_sampled("defense_4v4");
}

/// Battles per configuration whose every action is fully checked:
/// `GUNBAI_PROPERTY_BATTLES` if set (e.g. `GUNBAI_PROPERTY_BATTLES=500 cargo
/// test --release -p gunbai --lib property_every_action`), else 1 in a debug
/// build (a JSON round trip of the whole state after every action is slow
/// unoptimized) and 30 in a release build. `make test` (scripts/ci/property.sh) runs this test
/// in the `proptest` profile with its own count per configuration (350 with
/// `GUNBAI_LONG=1`).
fn every_action_battles() -> u64 {
    std::env::var("GUNBAI_PROPERTY_BATTLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 1 } else { 30 })
}

/// Random legal battles of every configuration, every action fully checked.
#[test]
fn property_every_action() {
    for name in CONFIGS {
        property_run(name, every_action_battles(), EVERY_ACTION);
    }
}

#[test]
fn property_variants_both_settings() {
    for metric in ["chebyshev", "manhattan"] {
        for stacking in ["highest", "sum"] {
            let mut setup = setup("rank_3v3");
            setup["variants"] = json!({"range_metric": metric, "special_attack_stacking": stacking,
                                       "damage_table_threshold": if metric == "manhattan" { "more_than_10" } else { "at_least_10" }});
            let setup = new_args(&setup);
            let mut seen = Seen::default();
            for seed in 0..if cfg!(debug_assertions) { 20 } else { 200 } {
                play_seen(&setup, seed + 1000, 3000, SAMPLED, &mut seen);
            }
        }
    }
}

/// Random battles with battle data beyond the sample's kinds: a combined-use
/// attack (WT-TRG-2: no slot, no side action), a dedicated option's own skill
/// (WT-TRG-6: activates its base), a hand-held move (WT-COND-5/6) and a
/// command usable after emergency bailout (WT-KO-4, three teams so that the
/// battle goes on after a team is out); the
/// listing still equals the reference and every listed action is accepted.
#[test]
fn property_extra_skill_kinds() {
    let mut bd: Value =
        serde_json::from_str(include_str!("../../../../data/world_trigger/battle_sample.json")).unwrap();
    let label = |id: &str| json!({"ja": id, "zh_hans": id, "zh_hant": id, "en": id});
    let extra = [
        json!({"id": "scorpion_flick", "label": label("scorpion_flick"), "trigger": "scorpion", "kind": "attack",
               "stat": "technique", "range": 1, "trion_cost": 2, "combined_use": true}),
        json!({"id": "senku_wave", "label": label("senku_wave"), "trigger": "senku", "kind": "attack",
               "stat": "technique", "range": 3, "damage_modifier": 1}),
        json!({"id": "kogetsu_dash", "label": label("kogetsu_dash"), "trigger": "kogetsu", "kind": "move",
               "movement_bonus": 1}),
        json!({"id": "hq_analysis", "label": label("hq_analysis"), "kind": "tactics", "tactics_dice_gain": 1,
               "after_bailout": true}),
    ];
    bd["skills"].as_array_mut().unwrap().extend(extra);
    let mut setup = setup("rank_3v3");
    setup["battle_data"] = bd;
    // Rank battles end with one team left: with three teams a team that is out still has turns.
    assert_eq!(setup["teams"].as_array().unwrap().len(), 3);
    let setup = new_args(&setup);
    let checks = Checks { full_every: 5, reference_every: 3, budgets: true, push: true };
    let mut seen = Seen::default();
    for seed in 0..if cfg!(debug_assertions) { 12 } else { 100 } {
        let (s, _) = play_seen(&setup, seed + 500, 3000, checks, &mut seen);
        assert_eq!(s.phase, WtBattlePhase::Ended);
    }
}

/// The dense route search finds exactly the reference's routes, from every
/// square of every example map, with random occupants and budgets.
#[test]
fn reach_matches_reference() {
    let mut rng = Prng::new(5);
    for name in ["rank_3v3", "mock_4v4", "defense"] {
        let s = new_state(&setup(name));
        for _ in 0..40 {
            let mut occ = grid::Occupancy { enemies: Vec::new(), others: Vec::new(), no_zoc: Vec::new() };
            for _ in 0..pick(&mut rng, 8) {
                let q = WtSquare { x: pick(&mut rng, 18) as i64 - 1, y: pick(&mut rng, 14) as i64 - 1 };
                occ.others.push(q);
                if pick(&mut rng, 2) == 0 {
                    occ.enemies.push(q);
                }
            }
            let start = WtSquare { x: pick(&mut rng, 20) as i64 - 2, y: pick(&mut rng, 16) as i64 - 2 };
            let budget = pick(&mut rng, 14) as i64;
            let fast = grid::reachable(&s.map, &occ, start, budget);
            let slow = reference::reachable_reference(&s.map, &occ, start, budget);
            assert_eq!(fast, slow, "{name} from {start:?} budget {budget}");
        }
    }
}

/// `cargo test --release -p gunbai --lib bench_random_rank_battles -- --ignored --nocapture`
/// (`GUNBAI_BENCH_BATTLES` battles, default 1000): the figures in BENCHMARKS.md.
#[test]
#[ignore]
fn bench_random_rank_battles() {
    let setup = new_args(&setup("rank_3v3"));
    let n: u64 = std::env::var("GUNBAI_BENCH_BATTLES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let t0 = std::time::Instant::now();
    let mut actions = 0;
    let mut ended = 0;
    for seed in 0..n {
        let (s, k) = play(&setup, seed, 5000, NO_CHECKS);
        actions += k;
        ended += usize::from(s.phase == WtBattlePhase::Ended);
    }
    let dt = t0.elapsed().as_secs_f64();
    assert_eq!(ended as u64, n, "every battle is played to its end");
    eprintln!(
        "{n} battles ({ended} finished), {actions} actions in {dt:.3}s: {:.0} battles/s, {:.0} actions/s",
        n as f64 / dt,
        actions as f64 / dt
    );
}

/// The same battles through the JSON operations, as a JS or Python host
/// drives them (`battle_legal_actions` then `battle_act` on the JSON state:
/// each call parses and validates the state and serializes its result):
/// `cargo test --release -p gunbai --lib bench_random_rank_battles_json -- --ignored --nocapture`
/// (`GUNBAI_BENCH_BATTLES` battles, default 20). The same seeds give the same
/// battles as `bench_random_rank_battles`.
#[test]
#[ignore]
fn bench_random_rank_battles_json() {
    let n: u64 = std::env::var("GUNBAI_BENCH_BATTLES").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let t0 = std::time::Instant::now();
    let mut actions = 0;
    for seed in 0..n {
        let mut rng = Prng::new(seed);
        let mut state = crate::call("world_trigger.battle_new", setup("rank_3v3")).unwrap()["state"].take();
        loop {
            let legal = crate::call("world_trigger.battle_legal_actions", json!({"state": state})).unwrap();
            let list: Vec<WtLegalAction> = serde_json::from_value(legal["actions"].clone()).unwrap();
            if list.is_empty() {
                break;
            }
            let non_pass: Vec<&WtLegalAction> =
                list.iter().filter(|l| !matches!(l.action, WtBattleAction::Pass { .. })).collect();
            let mut la = if !non_pass.is_empty() && pick(&mut rng, 10) < 7 {
                non_pass[pick(&mut rng, non_pass.len())].clone()
            } else {
                list[pick(&mut rng, list.len())].clone()
            };
            if let WtBattleAction::UseSkill { tactics_dice, burst, .. } = &mut la.action {
                if la.cost.max_tactics_dice > 0 && pick(&mut rng, 3) == 0 {
                    *tactics_dice = 1 + pick(&mut rng, la.cost.max_tactics_dice as usize) as u32;
                }
                if la.cost.max_burst > 0 && pick(&mut rng, 3) == 0 {
                    *burst = 1 + pick(&mut rng, la.cost.max_burst as usize) as i64;
                }
            }
            let seed = rng.next_u64() % (1 << 50);
            let r = crate::call(
                "world_trigger.battle_act",
                json!({"state": state, "action": la.action, "seed": seed}),
            )
            .unwrap();
            state = r["state"].clone();
            actions += 1;
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    eprintln!("{n} battles through JSON, {actions} actions in {dt:.3}s: {:.1} battles/s", n as f64 / dt);
}

#[test]
fn garbage_args_never_panic() {
    let s = serde_json::to_value(new_state(&setup("rank_3v3"))).unwrap();
    let bad_states = [
        json!(null),
        json!({}),
        json!({"format": "x"}),
        {
            let mut v = s.clone();
            v["members"][0]["team"] = json!(99);
            v
        },
        {
            let mut v = s.clone();
            v["map"]["width"] = json!(100000);
            v
        },
        {
            let mut v = s.clone();
            v["members"][0]["stats"]["command"] = json!(1_000_000);
            v
        },
        {
            let mut v = s.clone();
            v["turn"] = json!(50);
            v
        },
        {
            let mut v = s.clone();
            v["pending"] = json!({"attacker": "nobody", "skill": "x", "targets": []});
            v
        },
        {
            let mut v = s.clone();
            v["map"]["heights"][0] = json!([1]);
            v
        },
        {
            let mut v = s.clone();
            v["members"][1]["at"] = json!({"x": -1000000000000i64, "y": 0});
            v
        },
    ];
    for st in bad_states {
        for op in ["world_trigger.battle_act", "world_trigger.battle_legal_actions"] {
            let r = crate::call(op, json!({"state": st, "action": {"type": "no_reaction"}}));
            let r2 = crate::call("world_trigger.battle_legal_actions", json!({"state": st}));
            assert!(r.is_err() && r2.is_err(), "{op} accepted a broken state");
        }
    }
    let extreme = [
        json!({"type": "move", "actor": "tamakoma_1", "skill": "normal_move", "path": vec![json!({"x": i64::MAX, "y": i64::MIN}); 70]}),
        json!({"type": "move", "actor": "tamakoma_1", "skill": "normal_move", "path": [{"x": 9007199254740991i64, "y": -9007199254740991i64}]}),
        json!({"type": "use_skill", "actor": "tamakoma_1", "skill": "meteora_burst", "center": {"x": i64::MAX, "y": i64::MAX}, "burst": i64::MIN, "tactics_dice": u32::MAX}),
        json!({"type": "roll_initiative", "tactics_dice": [{"team": "tamakoma", "dice": u32::MAX}]}),
        json!({"type": "reenter", "actor": "", "tactics_dice": 4000000000u32}),
        json!({"type": "operator", "team": "x", "skill": "y"}),
        json!({"type": "bogus"}),
        json!("pass"),
    ];
    for a in extreme {
        let _ = crate::call("world_trigger.battle_act", json!({"state": s, "action": a, "seed": 1}));
    }
    // Setups.
    let mut big = setup("rank_3v3");
    big["map"]["width"] = json!(65);
    assert!(crate::call("world_trigger.battle_new", big).is_err());
    let mut long = setup("rank_3v3");
    long["max_rounds"] = json!(11);
    let e = crate::call("world_trigger.battle_new", long).unwrap_err();
    assert_eq!(e.rule.as_deref(), Some("WT-END-2"));
    let mut crowd = setup("rank_3v3");
    let extra = crowd["teams"][0]["members"][0].clone();
    for i in 0..4 {
        let mut m = extra.clone();
        m["id"] = json!(format!("extra{i}"));
        crowd["teams"][0]["members"].as_array_mut().unwrap().push(m);
    }
    assert!(crate::call("world_trigger.battle_new", crowd).is_err());
    let _ = crate::call(
        "world_trigger.battle_run",
        json!({"setup": setup("mock_4v4"), "steps": vec![json!({"action": {"type": "no_reaction"}}); 2001]}),
    );
}

#[test]
fn finished_battle_has_no_actions_and_says_who_won() {
    for name in ["rank_3v3", "mock_4v4", "defense"] {
        let (s, _) = play(&new_args(&setup(name)), 3, 5000, NO_CHECKS);
        assert_eq!(s.phase, WtBattlePhase::Ended, "{name}");
        let o = s.outcome.clone().unwrap();
        assert!(serde_json::to_value(o.reason).is_ok_and(|v| {
            ["round_limit", "one_team_left", "no_team_left", "character_down"]
                .contains(&v.as_str().unwrap_or(""))
        }));
        assert!(engine::legal_actions(&s, None).is_empty());
        let e = act_on(&s, &WtBattleAction::NoReaction {}, &mut Dice::seeded(1).unwrap()).unwrap_err();
        assert_eq!(e.code, crate::ErrorCode::IllegalAction);
        assert!(s.teams.iter().all(|t| t.tactics_dice == 0), "WT-TD-6: pools reset at the end");
    }
}

/// WT-MAP-1 (who picks the battlefield: the lowest-ranked team or the GM) and
/// WT-MAP-4 (5×5 sectors with a 3×3 core) are table procedures outside the
/// engine: the host passes the chosen map and the teleported positions
/// (`world_trigger.teleport_coordinates`) in the setup. Here we only check
/// that a setup placing a member off the battlefield is refused.
#[test]
fn map_choice_is_the_hosts_wt_map_1_wt_map_4() {
    let mut s = setup("rank_3v3");
    s["teams"][0]["members"][0]["at"] = json!({"x": 15, "y": 11}); // an off_map square
    let e = crate::call("world_trigger.battle_new", s).unwrap_err();
    assert_eq!(e.code, crate::ErrorCode::InvalidArgument);
}

/// The state of a scenario vector after its first `n` steps (each `battle_act` on the previous state).
fn scenario_state(id: &str, n: usize) -> WtBattleState {
    let cases: Vec<Value> = serde_json::from_str(include_str!(
        "../../../../../testdata/vectors/world_trigger_battle/scenarios.json"
    ))
    .unwrap();
    let case = cases.iter().find(|c| c["id"] == json!(id)).unwrap();
    let steps = case["steps"].as_array().unwrap();
    let mut s = battle_new(&new_args(&steps[0]["args"])).unwrap().state;
    for st in &steps[1..n] {
        let args = &st["args"];
        let action: WtBattleAction = serde_json::from_value(args["action"].clone()).unwrap();
        let rolls: Option<Vec<crate::dice::ScriptedFace>> =
            serde_json::from_value(args["rolls"].clone()).unwrap();
        let mut dice = Dice::from_args(args["seed"].as_u64(), rolls.as_deref()).unwrap();
        engine::act(&mut s, &action, &mut dice, &mut Vec::new()).unwrap();
    }
    s
}

/// WT-OOB-4: the ally next to the landing square is offered `bring_back`
/// (with its Attack-phase slot as the cost); an ally too far away is not.
#[test]
fn bring_back_is_listed_wt_oob_4() {
    let want = WtBattleAction::BringBack { actor: "osamu".into(), target: "kuga".into() };
    let s = scenario_state("wt-battle-OOB-4-ally-brings-back", 9);
    let listed = engine::legal_actions(&s, Some("osamu"));
    let la = listed.iter().find(|l| l.action == want).expect("bring_back listed");
    assert_eq!(la.cost.slot, Some(WtBattlePhase::Attack));
    let far = scenario_state("wt-battle-OOB-4-ally-too-far", 9);
    assert!(!engine::legal_actions(&far, None)
        .iter()
        .any(|l| matches!(l.action, WtBattleAction::BringBack { .. })));
    // Kuga itself may still try the re-entry check (WT-OOB-2).
    assert!(engine::legal_actions(&far, None)
        .iter()
        .any(|l| matches!(l.action, WtBattleAction::Reenter { .. })));
}

/// WT-COND-2: a member with a small Trion Leak loses 5 Trion in the Feedback
/// phase; the `trion_lost` event says it was the leak (not a burst or a teleport).
#[test]
fn feedback_leak_event_names_its_cause_wt_cond_2() {
    let mut s = new_state(&setup("rank_3v3"));
    let id = s.members[0].id.clone();
    s.members[0].conditions = vec![crate::world_trigger::types::WtCondition::TrionLeakSmall];
    let before = s.members[0].trion;
    let mut dice = Dice::seeded(7).unwrap();
    let mut seen = None;
    for _ in 0..200 {
        // Everyone passes (or does the phase's only move) until a Feedback phase.
        let listed = engine::legal_actions(&s, None);
        let Some(a) = listed
            .iter()
            .find(|l| matches!(l.action, WtBattleAction::Pass { .. } | WtBattleAction::NoReaction {}))
            .or_else(|| listed.iter().find(|l| matches!(l.action, WtBattleAction::RollInitiative { .. })))
        else {
            break;
        };
        let mut ev = Vec::new();
        engine::act(&mut s, &a.action.clone(), &mut dice, &mut ev).unwrap();
        if let Some(e) = ev.into_iter().find(|e| matches!(e, WtBattleEvent::TrionLost { .. })) {
            seen = Some(e);
            break;
        }
    }
    assert_eq!(
        seen,
        Some(WtBattleEvent::TrionLost {
            member: id,
            amount: 5,
            trion_after: before - 5,
            cause: WtTrionLossCause::TrionLeak,
        })
    );
}

/// Reference implementations kept from before the fast listing.
mod reference {
    use super::super::actions::{WtBattleAction, WtLegalAction};
    use super::super::data::WtBattleSkillKind;
    use super::super::engine::check;
    use super::super::grid::{neighbours, step_cost, Occupancy};
    use super::super::state::*;
    use crate::world_trigger::character::movement_with;
    use std::collections::{BinaryHeap, HashMap};

    /// The route search as it was before `grid::reach` (reference for the tests).
    /// Cheapest routes from `start` within `budget`: destination → (cost, path excluding start).
    /// Bounded by the map size (≤ 64×64 squares).
    pub(crate) fn reachable_reference(
        map: &WtBattleMap,
        occ: &Occupancy,
        start: WtSquare,
        budget: i64,
    ) -> HashMap<WtSquare, (i64, Vec<WtSquare>)> {
        let mut best: HashMap<WtSquare, (i64, Option<WtSquare>)> = HashMap::new();
        let mut heap = BinaryHeap::new();
        best.insert(start, (0, None));
        heap.push(std::cmp::Reverse((0i64, start.y, start.x)));
        while let Some(std::cmp::Reverse((c, y, x))) = heap.pop() {
            let s = WtSquare { x, y };
            if best.get(&s).is_some_and(|&(b, _)| b < c) {
                continue;
            }
            let mut cands: Vec<WtSquare> = neighbours(s).to_vec();
            for (ddx, ddy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                for k in 2..=3 {
                    cands.push(WtSquare { x: s.x + ddx * k, y: s.y + ddy * k });
                }
            }
            for n in cands {
                let Ok((sc, _)) = step_cost(map, occ, s, n) else { continue };
                let nc = c + sc;
                if nc > budget {
                    continue;
                }
                if best.get(&n).is_none_or(|&(b, _)| nc < b) {
                    best.insert(n, (nc, Some(s)));
                    heap.push(std::cmp::Reverse((nc, n.y, n.x)));
                }
            }
        }
        let mut out = HashMap::new();
        for (&dest, &(cost, _)) in &best {
            if dest == start || occ.others.contains(&dest) {
                continue;
            }
            let mut path = vec![dest];
            let mut cur = dest;
            let mut guard = 0;
            while let Some(&(_, Some(p))) = best.get(&cur) {
                if p == start || guard > 5000 {
                    break;
                }
                path.push(p);
                cur = p;
                guard += 1;
            }
            path.reverse();
            out.insert(dest, (cost, path));
        }
        out
    }

    /// The listing as it was before `legal` (every candidate through `check`;
    /// routes by a HashMap Dijkstra): the fast listing must equal it exactly.
    pub(crate) fn legal_actions_reference(s: &WtBattleState, actor: Option<&str>) -> Vec<WtLegalAction> {
        let mut out = Vec::new();
        if s.phase == WtBattlePhase::Ended {
            return out;
        }
        let push = |a: WtBattleAction, out: &mut Vec<WtLegalAction>| {
            if let Ok(c) = check(s, &a) {
                out.push(WtLegalAction { action: a, cost: c.cost });
            }
        };
        let want = |id: &str| actor.is_none_or(|a| a == id);
        // Any timing: operator actions and skills.
        for t in &s.teams {
            for o in &s.catalog.operator_skills {
                push(WtBattleAction::Operator { team: t.id.clone(), skill: o.id.clone() }, &mut out);
            }
        }
        for m in &s.members {
            if !want(&m.id) {
                continue;
            }
            for ab in &m.abilities {
                push(WtBattleAction::UseAbility { actor: m.id.clone(), ability: ab.id.clone() }, &mut out);
            }
        }
        if let Some(p) = &s.pending {
            push(WtBattleAction::NoReaction {}, &mut out);
            let Some(ti) = p.targets.get(p.reactions.len()).and_then(|t| s.idx(t)) else { return out };
            let team = s.members.get(ti).map(|m| m.team);
            for r in s.members.iter().filter(|r| Some(r.team) == team) {
                if !want(&r.id) {
                    continue;
                }
                for k in r.skills.iter() {
                    push(
                        WtBattleAction::React {
                            actor: r.id.clone(),
                            skill: k.skill.clone(),
                            side: k.side,
                            tactics_dice: 0,
                        },
                        &mut out,
                    );
                }
            }
            return out;
        }
        match s.phase {
            WtBattlePhase::Initiative => {
                push(WtBattleAction::RollInitiative { tactics_dice: Vec::new() }, &mut out);
                for m in &s.members {
                    if want(&m.id) && !s.map.on_map(m.at) {
                        push(WtBattleAction::Reenter { actor: m.id.clone(), tactics_dice: 0 }, &mut out);
                    }
                }
            }
            WtBattlePhase::Tactics | WtBattlePhase::Movement | WtBattlePhase::Attack => {
                for m in &s.members {
                    if want(&m.id) && !s.map.on_map(m.at) {
                        push(WtBattleAction::Reenter { actor: m.id.clone(), tactics_dice: 0 }, &mut out);
                    }
                }
                if let Some(t) = s.acting_team() {
                    push(WtBattleAction::Pass { team: s.teams[t].id.clone() }, &mut out);
                    for (mi, m) in s.members.iter().enumerate() {
                        if m.team != t || !want(&m.id) {
                            continue;
                        }
                        for k in m.skills.iter() {
                            let Some(sk) = s.skill(&k.skill) else { continue };
                            match sk.kind {
                                WtBattleSkillKind::Move => {
                                    if !matches!(s.phase, WtBattlePhase::Movement | WtBattlePhase::Attack) {
                                        continue;
                                    }
                                    let movement =
                                        movement_with(m.stats.mobility, sk.movement_bonus, &m.conditions);
                                    let occ = s.occupancy(mi);
                                    let mut dests: Vec<_> = reachable_reference(&s.map, &occ, m.at, movement)
                                        .into_iter()
                                        .collect();
                                    dests.sort_by_key(|(d, _)| (d.y, d.x));
                                    for (_, (_, path)) in dests {
                                        push(
                                            WtBattleAction::Move {
                                                actor: m.id.clone(),
                                                skill: sk.id.clone(),
                                                path,
                                            },
                                            &mut out,
                                        );
                                    }
                                }
                                WtBattleSkillKind::Attack => {
                                    if s.phase != WtBattlePhase::Attack {
                                        continue;
                                    }
                                    let base = |target: Option<String>, center: Option<WtSquare>| {
                                        WtBattleAction::UseSkill {
                                            actor: m.id.clone(),
                                            skill: sk.id.clone(),
                                            side: k.side,
                                            target,
                                            center,
                                            tactics_dice: 0,
                                            burst: 0,
                                            push_to: None,
                                        }
                                    };
                                    if sk.area.is_some() {
                                        let r = i64::from(sk.range);
                                        for y in m.at.y - r..=m.at.y + r {
                                            for x in m.at.x - r..=m.at.x + r {
                                                push(base(None, Some(WtSquare { x, y })), &mut out);
                                            }
                                        }
                                    } else {
                                        for o in &s.members {
                                            if o.id != m.id {
                                                push(base(Some(o.id.clone()), None), &mut out);
                                            }
                                        }
                                    }
                                }
                                WtBattleSkillKind::Dodge | WtBattleSkillKind::Defend => {}
                                _ => push(
                                    WtBattleAction::UseSkill {
                                        actor: m.id.clone(),
                                        skill: sk.id.clone(),
                                        side: k.side,
                                        target: None,
                                        center: None,
                                        tactics_dice: 0,
                                        burst: 0,
                                        push_to: None,
                                    },
                                    &mut out,
                                ),
                            }
                        }
                        for o in &s.members {
                            if o.id != m.id && o.team == t && !s.map.on_map(o.at) {
                                push(
                                    WtBattleAction::BringBack { actor: m.id.clone(), target: o.id.clone() },
                                    &mut out,
                                );
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }
}

/// A two-member rank setup whose first member carries `sheet`, with the rules `pack`.
fn one_sheet_setup(sheet: Value, pack: Value) -> Value {
    let other = json!({"name": "o", "position": "attacker", "points": {"attack": 9, "technique": 9, "mobility": 2},
        "master": "placeholder_master_attack", "traits": ["placeholder_l_trait"], "triggers": {"main": ["scorpion"]}});
    json!({"battle_type": "rank", "map": {"width": 8, "height": 8}, "data": pack, "teams": [
        {"id": "a", "leader": "a1", "members": [{"id": "a1", "sheet": sheet, "at": {"x": 0, "y": 0}}]},
        {"id": "b", "leader": "b1", "members": [{"id": "b1", "sheet": other, "at": {"x": 7, "y": 7}}]}]})
}

fn kogetsu_sheet() -> Value {
    json!({"name": "k", "position": "attacker", "points": {"attack": 9, "technique": 9, "mobility": 2},
        "master": "placeholder_master_attack", "traits": ["placeholder_l_trait"], "triggers": {"main": ["kogetsu"]}})
}

fn has_skill(r: &Value, member: usize, skill: &str) -> bool {
    r["state"]["members"][member]["skills"].as_array().unwrap().iter().any(|k| k["skill"] == skill)
}

/// WT-CC-8: a skill's stat requirement in battle is the rules pack's (the battle data
/// only adds battle values): a pack that lowers Oborozuki's requirement grants it in
/// battle as `create_character` does.
#[test]
fn battle_skill_requirements_come_from_the_rules_pack() {
    let mut pack = crate::call("world_trigger.sample_data", json!({})).unwrap();
    let r = crate::call("world_trigger.battle_new", one_sheet_setup(kogetsu_sheet(), pack.clone())).unwrap();
    assert!(!has_skill(&r, 0, "oborozuki"), "Defense/Support 9 and Technique 8 are not met");
    for t in pack["triggers"].as_array_mut().unwrap() {
        for s in t["skills"].as_array_mut().unwrap() {
            if s["id"] == "oborozuki" {
                s["requirements"] = json!({});
            }
        }
    }
    let ch = crate::call("world_trigger.create_character", json!({"sheet": kogetsu_sheet(), "data": pack}))
        .unwrap();
    assert!(ch["trigger_skills"].as_array().unwrap().iter().any(|g| g["skill"] == "oborozuki"));
    let r = crate::call("world_trigger.battle_new", one_sheet_setup(kogetsu_sheet(), pack)).unwrap();
    assert!(has_skill(&r, 0, "oborozuki"), "the pack's requirement (none) applies in battle");
}

/// A pack skill the battle data has no values for is reported at the start, not dropped silently.
#[test]
fn skills_without_battle_data_are_reported() {
    let mut pack = crate::call("world_trigger.sample_data", json!({})).unwrap();
    let kog = pack["triggers"].as_array().unwrap().iter().find(|t| t["id"] == "kogetsu").unwrap().clone();
    let mut egret = kog.clone();
    egret["id"] = json!("egret_like");
    egret["skills"] = json!([{"id": "egret_like_shot", "label": {"ja": "e", "zh_hans": "e", "zh_hant": "e", "en": "e"},
        "requirements": {}, "text": "test skill with no battle values"}]);
    pack["triggers"].as_array_mut().unwrap().push(egret);
    assert_eq!(
        crate::call("world_trigger.validate_data", json!({"data": pack.clone()})).unwrap()["valid"],
        true
    );
    let mut sheet = kogetsu_sheet();
    sheet["triggers"]["main"] = json!(["egret_like"]);
    let r = crate::call("world_trigger.battle_new", one_sheet_setup(sheet, pack)).unwrap();
    assert!(!has_skill(&r, 0, "egret_like_shot"));
    let ev: Vec<&Value> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "skills_without_battle_data")
        .collect();
    assert_eq!(ev.len(), 1, "{:?}", r["events"]);
    assert_eq!(ev[0]["member"], "a1");
    assert_eq!(ev[0]["skills"], json!(["egret_like_shot"]));
}

/// WT-INIT-1 / WT-TD-5: the listed `roll_initiative` says how many tactics dice a team may add.
#[test]
fn initiative_listing_gives_the_tactics_dice_limit() {
    let mut s = new_state(&setup("rank_3v3"));
    s.teams[0].tactics_dice = 5;
    s.teams[1].tactics_dice = 25;
    let l = engine::legal_actions(&s, None);
    let ri = l.iter().find(|a| matches!(a.action, WtBattleAction::RollInitiative { .. })).unwrap();
    assert_eq!(ri.cost.max_tactics_dice, 20);
}

/// WT-OOB-1 / WT-END-2: members forced out at Feedback go down together; the end is
/// checked once, after all of them (it used to end as soon as the first fell, so
/// the other team "won" with its member still out of bounds).
#[test]
fn feedback_downs_are_simultaneous_wt_oob_1() {
    let mut setup = setup("rank_3v3");
    for t in 0..2 {
        let ms = setup["teams"][t]["members"].as_array_mut().unwrap();
        ms.truncate(1);
        let id = ms[0]["id"].clone();
        setup["teams"][t]["leader"] = id;
    }
    let mut s = new_state(&setup);
    for m in s.members.iter_mut() {
        m.at.x = -1; // pushed off the battlefield
    }
    let mut dice = Dice::seeded(5).unwrap();
    for _ in 0..40 {
        if s.phase == WtBattlePhase::Ended {
            break;
        }
        let list = engine::legal_actions(&s, None);
        let pick = list
            .iter()
            .find(|l| matches!(l.action, WtBattleAction::RollInitiative { .. }))
            .or_else(|| list.iter().find(|l| matches!(l.action, WtBattleAction::Pass { .. })))
            .or_else(|| list.first())
            .expect("an action");
        engine::act(&mut s, &pick.action.clone(), &mut dice, &mut Vec::new()).unwrap();
    }
    assert!(s.members.iter().all(|m| m.status == WtMemberStatus::BailedOut), "{:?}", s.members);
    assert_eq!(s.outcome.as_ref().map(|o| o.reason), Some(super::state::WtEndReason::NoTeamLeft));
}

/// WT-DT-2: a pack may list a table's tiers in any order; the battle state keeps them
/// lowest first (the order its validation demands), and the same tier is picked.
#[test]
fn pack_tiers_in_any_order_are_stored_lowest_first() {
    let mut pack = serde_json::to_value(crate::world_trigger::data::sample_pack().unwrap()).unwrap();
    let border = pack["damage_tables"]["border"].as_array_mut().unwrap();
    let ascending: Vec<i64> = border.iter().map(|t| t["min_damage"].as_i64().unwrap()).collect();
    assert!(ascending.len() > 1 && ascending.windows(2).all(|w| w[0] < w[1]));
    border.reverse();
    let mut v = setup("rank_3v3");
    v["data"] = pack;
    let s = new_state(&v);
    let stored: Vec<i64> = s.catalog.damage_tables.border.iter().map(|t| t.min_damage).collect();
    assert_eq!(stored, ascending);
    s.validate().unwrap();
    let mut reordered = s.clone();
    std::sync::Arc::make_mut(&mut reordered.catalog).damage_tables.border.reverse();
    let e = reordered.validate().unwrap_err();
    assert_eq!(e.code, crate::error::ErrorCode::InvalidData);
    assert_eq!(e.field.as_deref(), Some("state.catalog.damage_tables.border[1].min_damage"));
}

/// The most a valid state lists (the vector `wt-battle-listing-worst-valid-compact`):
/// the acting team's four members at Mobility 28 (the most a legal build reaches,
/// WT-CC-5) with a move skill of the largest allowed bonus (+20) in the middle of an
/// open, flat 64 × 64 map in the Movement phase, each reaching every square within
/// Movement 34; with the most operator commands (100, listed for every team) and 16
/// abilities for every member. Its compact listing stays within 256 KB; the full
/// listing (one action with its path per route) is many megabytes. Sizes only: the
/// time is in BENCHMARKS.md.
pub(crate) fn worst_listing_state() -> Value {
    let v: Value = serde_json::from_str(include_str!(
        "../../../../../testdata/vectors/world_trigger_battle/listing_limits.json"
    ))
    .unwrap();
    v.as_array().unwrap().iter().find(|c| c["id"] == "wt-battle-listing-worst-valid-compact").unwrap()["args"]
        ["state"]
        .clone()
}

#[test]
fn worst_listing_compact_within_256_kb() {
    let st = worst_listing_state();
    let r = crate::call("world_trigger.battle_legal_actions", json!({"state": st, "compact": true})).unwrap();
    let size = serde_json::to_string(&r).unwrap().len();
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4, "four movers");
    for m in moves {
        // Movement 34 on an open map: the whole diamond of radius 34 (2·34² + 2·34 = 2380
        // squares besides the start), clipped by the map's edges.
        assert!(m["squares"].as_array().unwrap().len() > 4 * 2300, "{}", m["actor"]);
    }
    let n = r["actions"].as_array().unwrap().len();
    eprintln!("worst compact listing: {size} bytes, {n} other actions");
    assert!(n >= 400 + 200, "operator commands and abilities listed: {n}");
    assert!(size <= 256 * 1024, "the worst compact listing is {size} bytes");
    // The full form of the same state: refused (past its bounds) or far larger.
    match crate::call("world_trigger.battle_legal_actions", json!({"state": st})) {
        Ok(full) => assert!(serde_json::to_string(&full).unwrap().len() > 4 * size),
        Err(e) => assert_eq!(e.code, crate::ErrorCode::LimitExceeded),
    }
}
