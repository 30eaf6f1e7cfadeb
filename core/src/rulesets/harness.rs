//! One property harness for the five engines: random legal games
//! played through a [`Session`] to their end (or a step cap for rounds, which
//! have no end of their own), checking at every step that
//!
//! * every listed action is accepted (applied to a copy);
//! * candidate actions that are not listed are refused, with `illegal_action`
//!   naming a rule (or `invalid_argument` naming the field for a reference to
//!   nothing), and the session's state is byte-identical after the refusal;
//! * state → JSON → state is lossless (equal, and the same text again);
//! * the handle and the pure operations agree: the same listing, and for the
//!   same seed the same new state and events.
//!
//! `GUNBAI_HARNESS_GAMES` sets the games per engine (see [`games`]).

use crate::dice::prng::Prng;
use crate::dice::Dice;
use crate::engine::{Engine, PureFn, Session};
use crate::json::ToJson;
use serde_json::{json, Value};

/// Games per engine: `GUNBAI_HARNESS_GAMES` (scripts/ci/property.sh sets `make test`'s count,
/// and 300 with `GUNBAI_LONG=1`), else 300 in an optimized build and 4 in a debug one (`cargo test`).
fn games() -> u64 {
    let default = if cfg!(debug_assertions) { 4 } else { 300 };
    std::env::var("GUNBAI_HARNESS_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// How an engine is driven by the harness.
struct Drive {
    /// Actions per game at most (rounds have no end of their own).
    max_steps: usize,
    /// The act operation takes `seed` (engines that roll dice).
    act_takes_seed: bool,
    /// Check the listed actions one by one every this many steps (1: every step).
    all_listed_every: usize,
    /// Compare with the pure operations every this many steps.
    pure_every: usize,
}

fn pick(rng: &mut Prng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// The pure listing's items: every engine lists `{actions: [{action, …cost}], …}`,
/// exactly as the handle does.
fn pure_listing(v: &Value) -> Vec<Value> {
    let items = v["actions"].as_array().cloned().expect("a pure listing has `actions`");
    assert!(items.iter().all(|it| it.get("action").is_some()), "listed items are {{action, …}}");
    items
}

/// The pure operations a session is compared with: new, legal actions, act, turn, view.
type Pure = [PureFn; 5];

/// `E`'s registered pure operations, looked up by name as a host calls them.
fn registered<E: Engine>() -> Pure {
    let names = [
        E::OPS[0].to_string(),
        E::OPS[1].to_string(),
        E::OPS[2].to_string(),
        E::OPS[0].replace("_new", "_turn"),
        E::OPS[2].replace("_act", "_view"),
    ];
    names.map(|n| crate::ops::find(&n).unwrap_or_else(|| panic!("{n} is not registered")).run)
}

fn with_state(state: Value, data: &Option<Value>) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("state".into(), state);
    if let Some(d) = data {
        m.insert("data".into(), d.clone());
    }
    m
}

/// Play `games()` random games of `E` from the setups `setup(k)` gives; returns
/// (games, actions, refusals checked).
fn run<E: Engine>(
    drive: Drive,
    pure_ops: Pure,
    setup: impl Fn(u64, &mut Prng) -> Value,
) -> (u64, usize, usize, u64) {
    let n = games();
    let (mut actions, mut refusals, mut ended) = (0usize, 0usize, 0u64);
    for game in 0..n {
        let mut rng = Prng::new(game * 7919 + 17);
        let setup_json = setup(game, &mut rng);
        let setup_args: E::Setup =
            crate::ops::parse_args(setup_json.clone()).expect("the harness setup is valid");
        let (mut sess, _, _) = Session::<E>::create(&setup_args).expect("the harness setup starts a game");
        // The pure `new` agrees with the handle's.
        let pure_new = (pure_ops[0])(setup_json.clone()).expect("pure new");
        assert_eq!(pure_new["state"], sess.state().to_json(), "{}: new state differs", E::HANDLE);
        let data = E::save_ctx(sess.ctx());
        let mut game_actions = 0;
        let mut last_events: Option<Value> = None;
        for step in 0..drive.max_steps {
            let state_json = sess.state().to_json();
            let text = state_json.to_string();
            // Lossless round trip.
            let (_, back) = E::load(&state_json, data.as_ref()).expect("a reachable state loads");
            assert!(back == *sess.state(), "{}: state changed in a JSON round trip", E::HANDLE);
            assert_eq!(back.to_json().to_string(), text, "{}: JSON text changed", E::HANDLE);
            let view_op = (step % drive.pure_every == 0).then_some(pure_ops[4]);
            check_views::<E>(&sess, &state_json, &data, last_events.take(), view_op);
            let listed = sess.legal_actions(None, None).expect("listing");
            if step % drive.pure_every == 0 {
                let pure = (pure_ops[1])(Value::Object(with_state(state_json.clone(), &data)))
                    .expect("pure listing");
                assert_eq!(pure_listing(&pure), listed, "{}: listings differ at step {step}", E::HANDLE);
                check_viewer_listings::<E>(&mut sess, &pure_ops, &state_json, &data, &listed);
                // The pure turn operation agrees with the handle's.
                let pure =
                    (pure_ops[3])(Value::Object(with_state(state_json.clone(), &data))).expect("pure turn");
                assert_eq!(pure, sess.turn().to_json(), "{}: turns differ at step {step}", E::HANDLE);
                // A listing of one `kind` is the listing's actions of that `type`.
                if let Some(k) = listed.last().and_then(|it| it["action"]["type"].as_str()) {
                    let mut cache = E::Cache::default();
                    let only =
                        E::listing_json(sess.ctx(), &mut cache, sess.state(), None, Some(k), false, None)
                            .expect("listing of one kind");
                    let want: Vec<Value> =
                        listed.iter().filter(|it| it["action"]["type"] == k).cloned().collect();
                    assert_eq!(only, Value::Array(want), "{}: kind {k} at step {step}", E::HANDLE);
                }
            }
            // While anything is legal, somebody (or a round-level step) is waited for.
            let turn = sess.turn();
            assert!(
                listed.is_empty() || !turn.active.is_empty(),
                "{}: legal actions but nobody active at step {step}: {turn:?}",
                E::HANDLE
            );
            // The order names each of the game's viewers at most once, everyone whose turn
            // it is among them; the outcome is the engine's.
            let viewers = E::viewers(sess.state());
            for (i, id) in turn.order.iter().enumerate() {
                assert!(viewers.contains(&id.as_str()), "{}: order names {id} at step {step}", E::HANDLE);
                assert!(!turn.order[..i].contains(id), "{}: order repeats {id} at step {step}", E::HANDLE);
            }
            for a in turn.active.iter().filter(|a| a.stage == "turn") {
                let id = a.id.as_deref().unwrap_or_default();
                assert!(turn.order.iter().any(|o| o == id), "{}: {id}'s turn, not in the order", E::HANDLE);
            }
            assert_eq!(turn.outcome, sess.outcome(), "{}: turn's outcome at step {step}", E::HANDLE);
            let actions_listed: Vec<Value> = listed.iter().map(|it| it["action"].clone()).collect();
            // Every listed action is accepted.
            if step % drive.all_listed_every == 0 {
                for a in &actions_listed {
                    let act: E::Action = crate::json::from_value(a).expect("a listed action reads");
                    let c = match E::check(sess.ctx(), sess.state(), &act) {
                        Ok(c) => c,
                        Err(e) => panic!("{}: listed action refused: {a}: {e:?}", E::HANDLE),
                    };
                    // And applied (to a copy: this is not the game's own step).
                    let mut s = sess.state().clone();
                    let mut d = Dice::seeded(rng.next_u64() >> 11).unwrap();
                    if let Err(e) = E::apply(sess.ctx(), &mut s, &act, c, &mut d) {
                        panic!("{}: listed action failed to apply: {a}: {e:?}", E::HANDLE);
                    }
                }
            }
            // Unlisted candidates are refused, and change nothing: the state's text is the
            // same after each refusal (nobody copies the state before trying).
            let mut probes = E::probes(sess.ctx(), sess.state(), &mut rng);
            // A sample: at most 12 a step.
            while probes.len() > 12 {
                probes.swap_remove(pick(&mut rng, probes.len()));
            }
            for p in probes {
                let pj = p.to_json();
                if actions_listed.contains(&pj) {
                    continue;
                }
                let mut d = Dice::seeded(1).unwrap();
                match sess.act(&p, &mut d) {
                    // A value the caller chooses (tactics dice, a cost) is listed at its default only.
                    Ok(_) if E::caller_chosen(&p) => {
                        sess.undo().unwrap();
                    }
                    Ok(_) => panic!("{}: an unlisted action was accepted: {pj}", E::HANDLE),
                    Err(e) => {
                        use crate::ErrorCode as C;
                        match e.code {
                            C::IllegalAction => {
                                assert!(e.rule.is_some(), "{}: {e:?} names no rule", E::HANDLE)
                            }
                            C::InvalidArgument | C::LimitExceeded | C::OutOfRange => {
                                assert!(e.field.is_some(), "{}: {e:?} names no field", E::HANDLE)
                            }
                            _ => panic!("{}: unlisted action {pj}: unexpected {e:?}", E::HANDLE),
                        }
                        refusals += 1;
                    }
                }
                // (The state as typed: equal to the one read back from `text`, which writes
                // as `text` again; the text itself is compared once, after every probe.)
                assert!(*sess.state() == back, "{}: a refusal changed the state: {pj}", E::HANDLE);
            }
            assert_eq!(sess.state().to_json().to_string(), text, "{}: refusals changed the state", E::HANDLE);
            if listed.is_empty() || !sess.outcome().is_null() {
                ended += 1;
                break;
            }
            // Play a random listed action, through the handle and the pure op.
            let k = pick(&mut rng, actions_listed.len());
            let a = actions_listed[k].clone();
            let seed = rng.next_u64() >> 11;
            let act: E::Action = crate::json::from_value(&a).expect("reads");
            let mut d = Dice::seeded(seed).unwrap();
            // Every other step by the listing's index (`act_listed`), the action never
            // crossing as JSON: the same action, the same result.
            let events = if step % 2 == 1 {
                let (id, n) = sess.open_listing(None, None).expect("listing");
                assert_eq!(n, listed.len(), "{}: an opened listing differs", E::HANDLE);
                sess.act_listed(id, k, &mut d).expect("a listed action is accepted by its index")
            } else {
                sess.act(&act, &mut d).expect("a listed action is accepted")
            };
            // The events as a handle writes them (straight to text) read back as the
            // value they are.
            let text = crate::json::RawJson::of(&events);
            let events = events.to_json();
            assert_eq!(text.to_value(), events, "{}: the events' text differs from their value", E::HANDLE);
            let rolls = d.take_rolls().to_json();
            hp_never_rises_unhealed::<E>(&back, sess.state(), &events);
            if step % drive.pure_every == 0 {
                let mut args = with_state(state_json, &data);
                args.insert("action".into(), a.clone());
                if drive.act_takes_seed {
                    args.insert("seed".into(), json!(seed));
                }
                let pure = (pure_ops[2])(Value::Object(args)).expect("the pure op accepts it too");
                assert_eq!(pure["state"], sess.state().to_json(), "{}: states differ after {a}", E::HANDLE);
                assert_eq!(pure["events"], events, "{}: events differ after {a}", E::HANDLE);
                assert_eq!(pure["rolls"], rolls, "{}: dice differ after {a}", E::HANDLE);
            }
            last_events = Some(events);
            actions += 1;
            game_actions += 1;
        }
        // Undo takes the game back, action by action, to where it started
        // (when no more than MAX_UNDO actions were played).
        let depth = sess.undo_depth();
        for _ in 0..depth {
            sess.undo().unwrap();
        }
        assert!(sess.undo().is_err(), "{}: undo past the start", E::HANDLE);
        if game_actions <= crate::engine::MAX_UNDO {
            assert_eq!(
                sess.state().to_json(),
                pure_new["state"],
                "{}: undo did not restore the start",
                E::HANDLE
            );
        }
    }
    (n, actions, refusals, ended)
}

/// HP never rises but through an event of one of the engine's healing rules: `before`
/// is the state (as read back from its JSON) the events `events` led away from, to
/// `after`.
fn hp_never_rises_unhealed<E: Engine>(before: &E::State, after: &E::State, events: &Value) {
    let healed = events.as_array().is_some_and(|es| {
        es.iter().any(|e| e["rule"].as_str().is_some_and(|r| E::HEALING_RULES.contains(&r)))
    });
    let now = E::hp(after);
    if healed || now.is_empty() {
        return;
    }
    let was: std::collections::HashMap<&str, i64> = E::hp(before).into_iter().collect();
    for (id, hp) in now {
        if let Some(&old) = was.get(id) {
            assert!(
                hp <= old,
                "{}: {id}'s HP rose from {old} to {hp} with no healing rule: {events}",
                E::HANDLE
            );
        }
    }
}

/// Hidden information in listings: each viewer's listing (handle and pure operation
/// alike) names no member the viewer's view hides; where the view hides nothing (every
/// engine but World Trigger, and World Trigger with nobody in Stealth) it is the GM's
/// listing `gm`.
fn check_viewer_listings<E: Engine>(
    sess: &mut Session<E>,
    pure_ops: &Pure,
    state: &Value,
    data: &Option<Value>,
    gm: &[Value],
) {
    let viewers: Vec<String> = E::viewers(sess.state()).into_iter().map(String::from).collect();
    assert!(sess.legal_actions(None, Some(&json!("no such viewer"))).is_err(), "{}: a bad viewer", E::HANDLE);
    // `turn().viewers`: each viewer once, in order; and every combatant has a viewer a host
    // finds without knowing the ruleset (its id where that is a viewer, else its side).
    let turn = sess.turn();
    let mut once = viewers.clone();
    once.retain({
        let mut seen = std::collections::HashSet::new();
        move |v| seen.insert(v.clone())
    });
    assert_eq!(turn.viewers, once, "{}: turn().viewers", E::HANDLE);
    for r in &turn.roster {
        let mine = if once.contains(&r.id) { Some(&r.id) } else { r.side.as_ref() };
        assert!(mine.is_some_and(|v| once.contains(v)), "{}: {} has no viewer", E::HANDLE, r.id);
    }
    for v in &viewers {
        let vj = json!(v);
        let listed = sess.legal_actions(None, Some(&vj)).expect("a viewer's listing");
        let mut args = with_state(state.clone(), data);
        args.insert("viewer".into(), vj.clone());
        let pure = (pure_ops[1])(Value::Object(args.clone())).expect("the pure viewer's listing");
        assert_eq!(pure_listing(&pure), listed, "{}: viewer {v}: pure != handle", E::HANDLE);
        // The viewer's turn: the pure operation's and the handle's agree.
        let turn = sess.turn_for(Some(&vj)).expect("a viewer's turn").to_json();
        let pure = (pure_ops[3])(Value::Object(args)).expect("pure turn");
        assert_eq!(pure, turn, "{}: viewer {v}: pure turn != handle", E::HANDLE);
        let view = sess.view(Some(&vj), None).expect("a named viewer's view");
        if view["state"] == *state {
            assert_eq!(listed, gm, "{}: viewer {v} sees everything, but its listing differs", E::HANDLE);
            assert_eq!(
                turn,
                sess.turn().to_json(),
                "{}: viewer {v} sees everything, not its turn",
                E::HANDLE
            );
            continue;
        }
        let hidden: Vec<&Value> = state["members"]
            .as_array()
            .into_iter()
            .flatten()
            .zip(view["state"]["members"].as_array().into_iter().flatten())
            .filter(|(m, seen)| m.get("at").is_some() && seen.get("at").is_none())
            .map(|(m, _)| &m["id"])
            .collect();
        assert!(!hidden.is_empty(), "{}: a view hides something else than squares", E::HANDLE);
        for a in turn["active"].as_array().into_iter().flatten() {
            assert!(!hidden.contains(&&a["id"]), "{}: viewer {v}'s turn names a hidden member", E::HANDLE);
        }
        for item in &listed {
            let a = &item["action"];
            for k in ["actor", "reactor", "target"] {
                assert!(
                    !hidden.contains(&&a[k]),
                    "{}: viewer {v} is offered {a} naming a hidden member",
                    E::HANDLE
                );
            }
        }
    }
}

/// How many hidden squares [`check_views`] has seen (World Trigger's harness needs some).
static HIDDEN_SEEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// How many events naming a hidden target [`check_views`] has seen.
static HIDDEN_TARGETS_SEEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Hidden information: the GM's view is the state, and the view of each viewer the
/// engine names is consistent — for World Trigger, another team's member in Stealth
/// has no `at` and no move squares in the events, and no pending attack or event names
/// it as a target or reactor (WT-ST-1), and apart from those the view is the state; the other engines hide nothing (the view is the state). The
/// handle's view and the pure operation's agree.
fn check_views<E: Engine>(
    sess: &Session<E>,
    state: &Value,
    data: &Option<Value>,
    events: Option<Value>,
    view_op: Option<PureFn>,
) {
    let gm = sess.view(None, events.clone()).expect("the GM's view");
    assert_eq!(gm["state"], *state, "{}: the GM's view is not the state", E::HANDLE);
    assert_eq!(gm.get("events"), events.as_ref(), "{}: the GM's view changed the events", E::HANDLE);
    let viewers: Vec<String> = E::viewers(sess.state()).into_iter().map(String::from).collect();
    assert!(!viewers.is_empty(), "{}: no viewer", E::HANDLE);
    assert!(sess.view(Some(&json!("no such viewer")), None).is_err(), "{}: a bad viewer", E::HANDLE);
    for v in &viewers {
        let vj = json!(v);
        let view = sess.view(Some(&vj), events.clone()).expect("a named viewer's view");
        if let Some(op) = view_op {
            let mut args = with_state(state.clone(), data);
            args.insert("viewer".into(), vj.clone());
            if let Some(e) = &events {
                args.insert("events".into(), e.clone());
            }
            let pure = op(Value::Object(args)).expect("the pure view");
            assert_eq!(pure, view, "{}: pure view != handle", E::HANDLE);
        }
        if E::HANDLE != "world_trigger.Battle" {
            assert_eq!(view["state"], *state, "{}: a view hides something", E::HANDLE);
            assert_eq!(view.get("events"), events.as_ref(), "{}: a view changed the events", E::HANDLE);
            continue;
        }
        let team = state["teams"].as_array().unwrap().iter().position(|t| t["id"] == vj).unwrap();
        let hidden = |m: &Value| m["team"] != json!(team) && !m["states"]["stealth"].is_null();
        let mut restored = view["state"].clone();
        for (j, m) in state["members"].as_array().unwrap().iter().enumerate() {
            let seen = &mut restored["members"][j];
            assert_eq!(seen.get("at").is_none(), hidden(m), "{}: member {j} for team {team}", E::HANDLE);
            if hidden(m) {
                HIDDEN_SEEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            seen["at"] = m["at"].clone();
        }
        // No hidden member is named in the pending attack: its targets and reactions are
        // the state's without the hidden ones (and then no forced-movement square).
        let members = state["members"].as_array().unwrap();
        let hidden_ids: Vec<&Value> = members.iter().filter(|m| hidden(m)).map(|m| &m["id"]).collect();
        if let Some(o) = restored["pending"].as_object_mut() {
            let p = &state["pending"];
            let seen = Value::Object(o.clone()).to_string();
            for id in &hidden_ids {
                assert!(!seen.contains(&id.to_string()), "{}: team {team}'s pending names {id}", E::HANDLE);
            }
            let kept = |k: &str, f: &dyn Fn(&Value) -> &Value| -> Vec<Value> {
                p[k].as_array()
                    .into_iter()
                    .flatten()
                    .filter(|x| !hidden_ids.contains(&f(x)))
                    .cloned()
                    .collect()
            };
            assert_eq!(o.get("targets"), Some(&json!(kept("targets", &|t| t))), "{}: targets", E::HANDLE);
            let reactions = json!(kept("reactions", &|r| &r["target"]));
            assert_eq!(o.get("reactions"), Some(&reactions), "{}: reactions", E::HANDLE);
            for k in ["targets", "reactions", "push_to"] {
                if let Some(x) = p.get(k) {
                    o.insert(k.into(), x.clone());
                }
            }
        }
        assert_eq!(restored, *state, "{}: a team's view hides more than Stealth squares", E::HANDLE);
        if let (Some(given), Some(seen)) = (&events, view.get("events")) {
            let (given, seen) = (given.as_array().unwrap(), seen.as_array().unwrap());
            assert_eq!(given.len(), seen.len(), "{}: a view dropped events", E::HANDLE);
            // Members hidden now and all through these events (no Stealth began or ended).
            let toggled = |id: &Value| {
                given.iter().any(|g| g["type"] == "state" && g["state"] == "stealth" && g["member"] == *id)
            };
            let through: Vec<&Value> = hidden_ids.iter().copied().filter(|id| !toggled(id)).collect();
            for (g, e) in given.iter().zip(seen) {
                let mut back = e.clone();
                let mut redacted = false;
                for k in ["path", "cost", "to", "target", "reactor"] {
                    if let (Some(x), Some(o)) = (g.get(k), back.as_object_mut()) {
                        redacted |= o.insert(k.into(), x.clone()).is_none();
                    }
                }
                if let (Some(t), Some(o)) = (g.get("targets"), back.as_object_mut()) {
                    let seen_t = o.insert("targets".into(), t.clone());
                    let left = seen_t.as_ref().and_then(Value::as_array).map_or(0, Vec::len);
                    assert!(left <= t.as_array().map_or(0, Vec::len), "{}: targets added", E::HANDLE);
                    redacted |= seen_t.as_ref() != Some(t);
                }
                // A redacted event's sentence is said again for the viewer; an event the
                // view left whole keeps its own.
                if let (true, Some(t), Some(o)) = (redacted, g.get("text"), back.as_object_mut()) {
                    o.insert("text".into(), t.clone());
                }
                assert_eq!(&back, g, "{}: a view changed an event beyond its squares and names", E::HANDLE);
                // WT-ST-1: an event names no member hidden all through as a target or reactor.
                for &id in &through {
                    if g["target"] == *id || g["targets"].as_array().is_some_and(|t| t.contains(id)) {
                        HIDDEN_TARGETS_SEEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    let named = e["target"] == *id
                        || e["reactor"] == *id
                        || e["targets"].as_array().is_some_and(|t| t.contains(id));
                    assert!(!named, "{}: team {team} sees {id} named in {e}", E::HANDLE);
                }
                // A move of a member hidden now (and so hidden since this action) shows no square.
                let now = state["members"].as_array().unwrap().iter().find(|m| m["id"] == g["member"]);
                if now.is_some_and(hidden)
                    && ["moved", "forced_move", "reentry", "brought_back"]
                        .contains(&g["type"].as_str().unwrap_or(""))
                {
                    assert!(
                        e.get("path").is_none() && e.get("to").is_none(),
                        "{}: a hidden move shows its squares",
                        E::HANDLE
                    );
                }
            }
        }
    }
}

fn report(name: &str, (games, actions, refusals, ended): (u64, usize, usize, u64)) {
    eprintln!("harness {name}: {games} games ({ended} to their end), {actions} actions, {refusals} refusals checked");
    assert!(actions > 0, "{name}: no action was played");
    assert!(refusals > 0, "{name}: no refusal was checked");
}

fn ids(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("c{i}")).collect()
}

/// The walkthrough engine (`d20_walkthrough.rs`) gets its pure operations from the trait.
#[test]
fn d20_walkthrough_gets_every_operation_from_the_trait() {
    let [new, legal, act, turn, _view] = crate::engine::pure_ops::<super::d20_walkthrough::Round>();
    let fighters = json!([{"id": "a", "side": "x", "init": 2, "attack": 5, "ac": 12, "hp": 9},
        {"id": "b", "side": "y", "init": 0, "attack": 3, "ac": 14, "hp": 7}]);
    let made = new(json!({"fighters": fighters, "rolls": [10, 15]})).unwrap();
    assert_eq!(made["state"]["order"], json!([1, 0]), "D20-INIT: 15 + 0 before 10 + 2");
    let state = made["state"].clone();
    let listed = legal(json!({"state": state})).unwrap();
    assert!(listed["actions"].as_array().unwrap().iter().all(|it| it["action"]["actor"] == "b"));
    assert_eq!(turn(json!({"state": state})).unwrap()["active"], json!([{"id": "b", "stage": "turn"}]));
    let wrong = act(json!({"state": state, "action": {"type": "end_turn", "actor": "a"}})).unwrap_err();
    assert_eq!(wrong.rule.as_deref(), Some("D20-TURN"));
    let attack = json!({"type": "attack", "actor": "b", "target": "a"});
    let hit = act(json!({"state": state, "action": attack, "rolls": [9, 4]})).unwrap(); // D20-ATK: 9 + 3 ≥ 12
    assert_eq!((&hit["events"][0]["hit"], &hit["state"]["fighters"][0]["hp"]), (&json!(true), &json!(5)));
    let mut bad = state.clone();
    bad["order"] = json!([0, 0]);
    assert_eq!(legal(json!({"state": bad})).unwrap_err().code, crate::ErrorCode::InvalidData);
}

#[test]
fn harness_d20_walkthrough() {
    let r = run::<super::d20_walkthrough::Round>(
        Drive { max_steps: 300, act_takes_seed: true, all_listed_every: 1, pure_every: 1 },
        crate::engine::pure_ops::<super::d20_walkthrough::Round>(),
        |g, rng| {
            let fighters: Vec<Value> = (0..2 + pick(rng, 4))
                .map(|i| json!({"id": format!("f{i}"), "side": if i % 2 == 0 { "x" } else { "y" },
                    "init": pick(rng, 5), "attack": pick(rng, 8), "ac": 8 + pick(rng, 8), "hp": 1 + pick(rng, 12)}))
                .collect();
            json!({"fighters": fighters, "seed": g})
        },
    );
    report("d20.Round", r);
}

#[cfg(feature = "world_trigger")]
#[test]
fn harness_world_trigger_battle() {
    // WT-RND-1, WT-ECO-1, WT-HIT-1, WT-END-2: random battles of each type from the example setups.
    let setups = ["rank_3v3", "mock_4v4", "defense"].map(crate::world_trigger::battle::tests::setup);
    let r = run::<super::world_trigger::handle::Battle>(
        Drive { max_steps: 4000, act_takes_seed: true, all_listed_every: 29, pure_every: 53 },
        registered::<super::world_trigger::handle::Battle>(),
        |g, _| {
            let mut v = setups[(g % 3) as usize].clone();
            v["max_rounds"] = json!(if g % 3 == 1 { 3 } else { 4 });
            v
        },
    );
    report("world_trigger.Battle", r);
    // WT-ST-1: the games reached Stealth (Bagworm), so the views were checked hiding squares.
    assert!(HIDDEN_SEEN.load(std::sync::atomic::Ordering::Relaxed) > 0, "no member in Stealth was viewed");
    eprintln!("hidden targets seen: {}", HIDDEN_TARGETS_SEEN.load(std::sync::atomic::Ordering::Relaxed));
}

#[cfg(feature = "tmd")]
#[test]
fn harness_tmd_encounter() {
    // TMD-INI-1/2, TMD-AP-5…8, TMD-INT-1, TMD-TIME-1, TMD-SCN-1: random encounters of 2–5
    // characters with GM-entered damage and downs, until a side is down or the step cap.
    let r = run::<super::tmd::handle::Encounter>(
        Drive { max_steps: 300, act_takes_seed: true, all_listed_every: 1, pure_every: 3 },
        registered::<super::tmd::handle::Encounter>(),
        |g, rng| {
            let n = 2 + pick(rng, 4);
            let chars: Vec<Value> = ids(n)
                .into_iter()
                .map(|id| {
                    let mut c = json!({"id": id, "side": if pick(rng, 2) == 0 { "pc" } else { "npc" }, "base_initiative": pick(rng, 8) as i64 - 2});
                    // GM-entered outcomes: HP for most characters.
                    if pick(rng, 4) > 0 {
                        c["hp"] = json!(5 + pick(rng, 20));
                    }
                    c
                })
                .collect();
            json!({"characters": chars, "seed": g})
        },
    );
    report("tmd.Encounter", r);
}

#[cfg(feature = "coc")]
#[test]
fn harness_coc_ap_round() {
    // COCAP-RND-1/2/3, COCAP-AP-3, COCAP-ACT-1…8: random fights of 2–4 fighters on two
    // sides, with HP, armor and damage, to one side's fall (COC6-BASE-HP) or the step cap.
    let r = run::<super::coc::handle::ApRound>(
        Drive { max_steps: 400, act_takes_seed: true, all_listed_every: 1, pure_every: 2 },
        registered::<super::coc::handle::ApRound>(),
        |_, rng| {
            let n = 2 + pick(rng, 3);
            let ps: Vec<Value> = ids(n)
                .into_iter()
                .enumerate()
                .map(|(i, id)| {
                    let hp = 3 + pick(rng, 8) as i64;
                    let mut p = json!({"id": id, "dex": 3 + pick(rng, 16), "position": [i as i64, pick(rng, 3) as i64],
                        "side": if i % 2 == 0 { "pc" } else { "npc" }, "hp_max": hp, "armor": pick(rng, 2),
                        "skills": {"dodge": pick(rng, 80), "jump": pick(rng, 60), "parry": pick(rng, 60), "first_aid": pick(rng, 60)}});
                    if pick(rng, 4) > 0 {
                        p["weapons"] = json!([{"name": "knife", "skill": 30 + pick(rng, 60), "attacks_per_round": 1 + pick(rng, 2), "damage": "1d4+2"}]);
                    }
                    if pick(rng, 4) == 0 {
                        p["hp"] = json!((pick(rng, 3) as i64 + 2).min(hp)); // a wounded start, at most hp_max
                    }
                    p
                })
                .collect();
            json!({"participants": ps})
        },
    );
    report("coc_ap.Round", r);
}

#[cfg(feature = "coc")]
#[test]
fn harness_coc7_house_round() {
    // C7H-INI-1, C7H-MOV-1, C7H-ACT-1, C7H-PAS-1, C7H-STN-1, C7H-FREE-1, C7H-DEF-2,
    // C7H-COV-1, C7H-CAN-2, C7H-CTR-3: random fights of two sides until one is down.
    let r = run::<super::coc::handle::HouseRound>(
        Drive { max_steps: 400, act_takes_seed: true, all_listed_every: 6, pure_every: 9 },
        registered::<super::coc::handle::HouseRound>(),
        |_, rng| {
            let n = 2 + pick(rng, 3);
            let ps: Vec<Value> = ids(n)
                .into_iter()
                .enumerate()
                .map(|(i, id)| {
                    let hp = 3 + pick(rng, 10) as i64;
                    json!({"id": id, "dex": 15 + pick(rng, 70), "is_pc": pick(rng, 2) == 0, "modifier": pick(rng, 3) as i64 - 1,
                        "side": if i % 2 == 0 { "pc" } else { "npc" }, "hp": hp, "hp_max": hp + pick(rng, 3) as i64,
                        "armor": pick(rng, 2), "db": "1d4",
                        "weapons": [{"id": "knife", "skill": 30 + pick(rng, 60), "damage": "1d4+DB", "defense": 2},
                                    {"id": "gun", "skill": 20 + pick(rng, 60), "damage": "1d10", "range": "射撃20m/1体", "cancellable": false}]})
                })
                .collect();
            json!({"participants": ps})
        },
    );
    report("coc7_house.Round", r);
}

#[cfg(feature = "coc")]
#[test]
fn harness_coc7_house_chase() {
    // C7H-ESC-1…6: random chases to their end.
    let r = run::<super::coc::handle::Chase>(
        Drive { max_steps: 500, act_takes_seed: true, all_listed_every: 1, pure_every: 1 },
        registered::<super::coc::handle::Chase>(),
        |_, rng| {
            let chaser = |rng: &mut Prng, id: &str| json!({"id": id, "mov": 6 + pick(rng, 4), "dex": 20 + pick(rng, 70), "skill": 20 + pick(rng, 70)});
            let f = chaser(rng, "fugitive");
            let p = chaser(rng, "pursuer");
            json!({"fugitive": f, "pursuer": p, "gap": 1 + pick(rng, 3)})
        },
    );
    report("coc7_house.Chase", r);
}

#[cfg(feature = "fap_map")]
#[test]
fn harness_fap_map_round() {
    // FM-DEF-1/2/3/4, FM-AP-2/4/5, FM-LIM-1/2, FM-ACT-14/16: random fights of 2–4
    // combatants on two sides, with HP (most games) until a side is down, or without.
    let r = run::<super::fap_map::handle::Round>(
        Drive { max_steps: 200, act_takes_seed: true, all_listed_every: 2, pure_every: 3 },
        registered::<super::fap_map::handle::Round>(),
        |g, rng| {
            let n = 2 + pick(rng, 3);
            let cs: Vec<Value> = ids(n)
                .into_iter()
                .enumerate()
                .map(|(i, id)| {
                    let mut c = json!({"id": id, "reaction": 3 + pick(rng, 10), "magic": 1 + pick(rng, 10), "agility": 3 + pick(rng, 10),
                        "evasion": pick(rng, 5), "side": if i % 2 == 0 { "a" } else { "b" }});
                    if g % 8 != 7 {
                        c["hp"] = json!(1);
                    }
                    c
                })
                .collect();
            json!({"combatants": cs})
        },
    );
    report("fap_map.Round", r);
}

/// What one handle action costs natively, through the JSON methods the bindings call:
/// `cargo test --release -p gunbai --lib engine::harness::bench_handle -- --ignored --nocapture`.
#[cfg(feature = "world_trigger")]
#[test]
#[ignore]
fn bench_handle() {
    let setup = crate::world_trigger::battle::tests::setup("rank_3v3");
    let mut g = crate::engine::Game::new();
    let mut rng = Prng::new(1);
    let (mut tl, mut ta, mut n) = (0.0, 0.0, 0);
    for _ in 0..20 {
        g.call_json("create", &json!({"handle": "world_trigger.Battle", "setup": setup}).to_string(), None);
        loop {
            let t0 = std::time::Instant::now();
            let listed = g.call_json("legal_actions", "{}", None);
            tl += t0.elapsed().as_secs_f64();
            let v: Value = serde_json::from_str(&listed).unwrap();
            let items = v["ok"].as_array().unwrap();
            if items.is_empty() {
                break;
            }
            let a = &items[pick(&mut rng, items.len())]["action"];
            let args = json!({"action": a, "seed": rng.next_u64() >> 11}).to_string();
            let t1 = std::time::Instant::now();
            g.call_json("act", &args, None);
            ta += t1.elapsed().as_secs_f64();
            n += 1;
        }
    }
    println!("handle: {n} actions; listing {:.1} µs, act {:.1} µs", tl / n as f64 * 1e6, ta / n as f64 * 1e6);
    // Listing kept natively, the chosen item played by its index.
    let (mut to, mut tp, mut n) = (0.0, 0.0, 0);
    for _ in 0..20 {
        g.call_json("create", &json!({"handle": "world_trigger.Battle", "setup": setup}).to_string(), None);
        loop {
            let t0 = std::time::Instant::now();
            let opened = g.call_json("legal_open", "{}", None);
            to += t0.elapsed().as_secs_f64();
            let v: Value = serde_json::from_str(&opened).unwrap();
            let (id, len) = (v["ok"]["id"].as_u64().unwrap(), v["ok"]["len"].as_u64().unwrap());
            if len == 0 {
                break;
            }
            let args = format!(
                r#"{{"id":{id},"index":{},"seed":{}}}"#,
                pick(&mut rng, len as usize),
                rng.next_u64() >> 11
            );
            let t1 = std::time::Instant::now();
            g.call_json("act_listed", &args, None);
            tp += t1.elapsed().as_secs_f64();
            n += 1;
        }
    }
    println!(
        "handle: {n} actions; legal_open {:.1} µs, act_listed {:.1} µs",
        to / n as f64 * 1e6,
        tp / n as f64 * 1e6
    );
}

#[cfg(feature = "world_trigger")]
#[test]
#[ignore]
fn bench_listing_parts() {
    use crate::world_trigger::battle::{battle_new, legal::LegalList};
    let setup = crate::world_trigger::battle::tests::setup("rank_3v3");
    let mut s = battle_new(&serde_json::from_value(setup).unwrap()).unwrap().state;
    let mut rng = Prng::new(1);
    let mut list = LegalList::default();
    let (mut tf, mut tm, mut tj, mut ts, mut n) = (0.0, 0.0, 0.0, 0.0, 0);
    while s.phase != crate::world_trigger::battle::WtBattlePhase::Ended {
        let t0 = std::time::Instant::now();
        list.fill(&s, None);
        let t1 = std::time::Instant::now();
        let acts: Vec<_> = (0..list.refs.len()).filter_map(|i| list.action(&s, i)).collect();
        let t2 = std::time::Instant::now();
        let vals: Vec<Value> = acts.iter().map(ToJson::to_json).collect();
        let t3 = std::time::Instant::now();
        let text = Value::Array(vals).to_string();
        let t4 = std::time::Instant::now();
        tf += (t1 - t0).as_secs_f64();
        tm += (t2 - t1).as_secs_f64();
        tj += (t3 - t2).as_secs_f64();
        ts += (t4 - t3).as_secs_f64();
        n += 1;
        let a = acts[pick(&mut rng, acts.len())].action.clone();
        let mut d = Dice::seeded(rng.next_u64() >> 11).unwrap();
        crate::world_trigger::battle::engine::act(&mut s, &a, &mut d, &mut Vec::new()).unwrap();
        let _ = text;
    }
    let us = |t: f64| t / n as f64 * 1e6;
    println!("fill {:.1} materialize {:.1} to_json {:.1} to_string {:.1} µs", us(tf), us(tm), us(tj), us(ts));
}

/// Undo rebuilds each earlier state byte for byte from the checkpoints and the replayed
/// actions (`History`), across checkpoints, up to MAX_UNDO actions back, and a refused
/// action leaves the state as it was, between checkpoints too.
#[cfg(feature = "world_trigger")]
#[test]
fn undo_rebuilds_every_earlier_state() {
    use crate::world_trigger::battle::tests::setup;
    let args: <super::world_trigger::handle::Battle as Engine>::Setup =
        crate::ops::parse_args(setup("rank_3v3")).expect("setup");
    let mut rng = Prng::new(5);
    let mut played = 0;
    for _ in 0..4 {
        let (mut sess, _, _) =
            Session::<super::world_trigger::handle::Battle>::create(&args).expect("starts");
        let mut seen = vec![sess.state().to_json().to_string()];
        loop {
            let listed = sess.legal_actions(None, None).expect("listing");
            if listed.is_empty() {
                break;
            }
            // A refused action in between: the state is unchanged.
            let before = seen.last().unwrap().clone();
            let probe = crate::world_trigger::battle::tests::random_action(&mut rng, sess.state());
            let _ = sess.act(&probe, &mut Dice::seeded(3).unwrap()).map(|_| sess.undo().unwrap());
            assert_eq!(sess.state().to_json().to_string(), before, "a refusal changed the state");
            let a: <super::world_trigger::handle::Battle as Engine>::Action =
                crate::json::from_value(&listed[pick(&mut rng, listed.len())]["action"]).unwrap();
            sess.act(&a, &mut Dice::seeded(rng.next_u64() >> 11).unwrap()).expect("listed");
            seen.push(sess.state().to_json().to_string());
        }
        played += seen.len() - 1;
        let depth = sess.undo_depth();
        assert_eq!(depth, (seen.len() - 1).min(crate::engine::MAX_UNDO));
        for back in 1..=depth {
            sess.undo().unwrap();
            assert_eq!(sess.state().to_json().to_string(), seen[seen.len() - 1 - back], "undo {back}");
        }
        assert!(sess.undo().is_err());
    }
    assert!(played > 4 * crate::engine::CHECKPOINT_EVERY, "the games crossed checkpoints ({played} actions)");
}

/// Listings of one state for the same actor and viewer share one copy (a host listing
/// on every redraw, or keeping several listings, holds one): asked again, the session
/// gives the newest listing again while the state is unchanged — a refused action
/// changes nothing — and lists anew after an action or an undo; a kept listing reads
/// as it was listed after later actions.
#[cfg(feature = "world_trigger")]
#[test]
fn listings_of_one_state_share_one_copy() {
    use crate::world_trigger::battle::tests::setup;
    type B = super::world_trigger::handle::Battle;
    let args: <B as Engine>::Setup = crate::ops::parse_args(setup("rank_3v3")).expect("setup");
    let (mut sess, _, _) = Session::<B>::create(&args).expect("starts");
    let (a, n) = sess.open_listing(None, None).unwrap();
    let (b, m) = sess.open_listing(None, None).unwrap();
    assert_eq!((n, sess.listing_items(a).unwrap()), (m, sess.listing_items(b).unwrap()));
    assert!(sess.same_listing(a, b), "two listings of one state are one copy");
    let first = sess.listing_items(a).unwrap();
    assert_eq!(Value::Array(sess.legal_actions(None, None).unwrap()), first);
    // A refusal changes nothing: the same listing again.
    let mut rng = Prng::new(9);
    let mut refused = false;
    for _ in 0..200 {
        let probe = crate::world_trigger::battle::tests::random_action(&mut rng, sess.state());
        if !first.as_array().unwrap().iter().any(|it| it["action"] == probe.to_json()) {
            assert!(sess.act(&probe, &mut Dice::seeded(3).unwrap()).is_err());
            refused = true;
            break;
        }
    }
    assert!(refused, "a probe was refused");
    let (c, _) = sess.open_listing(None, None).unwrap();
    assert!(sess.same_listing(a, c), "a refusal listed anew");
    // Another viewer or actor: its own listing.
    let team = sess.turn().viewers[0].clone();
    let (v, _) = sess.open_listing(None, Some(&json!(team))).unwrap();
    assert!(!sess.same_listing(a, v));
    let actor = first[0]["action"]["actor"].as_str().map(String::from);
    let (o, _) = sess.open_listing(actor.as_deref(), None).unwrap();
    assert!(!sess.same_listing(a, o) || actor.is_none());
    // An action: listed anew; the kept listing reads as it was.
    let (g, _) = sess.open_listing(None, None).unwrap();
    let act: <B as Engine>::Action = crate::json::from_value(&first[0]["action"]).unwrap();
    sess.act(&act, &mut Dice::seeded(1).unwrap()).unwrap();
    let (d, _) = sess.open_listing(None, None).unwrap();
    assert!(!sess.same_listing(g, d), "an action did not list anew");
    assert_eq!(sess.listing_items(a).unwrap(), first);
    assert_ne!(sess.listing_items(d).unwrap(), first);
    // Undo: the first state again, listed anew, the first listing's items.
    sess.undo().unwrap();
    let (e, _) = sess.open_listing(None, None).unwrap();
    assert!(!sess.same_listing(d, e), "an undo did not list anew");
    assert_eq!(sess.listing_items(e).unwrap(), first);
}

/// The handle's `act` and the pure `_act` read their arguments alike (RULINGS
/// 2026-12-05, error codes): an integer outside its field's range — a seed of −1 or
/// 2^53, World Trigger tactics dice of −1 (WT-TD-5) — is `out_of_range` at the same
/// field; a refusal changes neither state.
#[cfg(feature = "world_trigger")]
#[test]
fn handle_act_and_pure_act_refuse_alike() {
    use crate::world_trigger::battle::tests::setup;
    let mut g = crate::engine::Game::new();
    g.call("create", json!({"handle": "world_trigger.Battle", "setup": setup("rank_3v3")})).unwrap();
    let state = g.call("state", json!({})).unwrap();
    let listed = g.call("legal_actions", json!({})).unwrap();
    let action = listed[0]["action"].clone();
    let with_dice = json!({"type": "use_skill", "actor": "a", "skill": "x", "tactics_dice": -1});
    let cases = [
        (json!({"action": action, "seed": -1}), "seed"),
        (json!({"action": action, "seed": 1u64 << 53}), "seed"),
        (json!({"action": with_dice, "seed": 1}), "action.tactics_dice"),
    ];
    for (args, field) in cases {
        let by_handle = g.call("act", args.clone()).unwrap_err();
        let mut pure = args.clone();
        pure["state"] = state.clone();
        let by_op = crate::call("world_trigger.battle_act", pure).unwrap_err();
        for e in [&by_handle, &by_op] {
            assert_eq!((e.code.as_str(), e.field.as_deref()), ("out_of_range", Some(field)), "{args}: {e:?}");
        }
        assert_eq!(g.call("state", json!({})).unwrap(), state, "a refusal changed the state");
    }
}

/// The handle methods come from one table ([`crate::engine::METHODS`]): each refuses an
/// argument it does not take (`invalid_argument` naming it, the game unchanged), an
/// unknown method is `unknown_operation`, and every method the Python and JS handles
/// call is in the table.
#[cfg(feature = "world_trigger")]
#[test]
fn handle_methods_come_from_one_table() {
    use crate::engine::METHODS;
    use crate::world_trigger::battle::tests::setup;
    let mut g = crate::engine::Game::new();
    g.call("create", json!({"handle": "world_trigger.Battle", "setup": setup("rank_3v3")})).unwrap();
    let state = g.call("state", json!({})).unwrap();
    for m in METHODS {
        let e = g.call(m.name, json!({"no_such_argument": 1})).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.field.as_deref()),
            ("invalid_argument", Some("no_such_argument")),
            "{}",
            m.name
        );
        assert_eq!(g.call("state", json!({})).unwrap(), state, "{}: a refusal changed the state", m.name);
    }
    let e = g.call("no_such_method", json!({})).unwrap_err();
    assert_eq!(e.code.as_str(), "unknown_operation");
    let root = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), std::path::PathBuf::from)
        .join("..");
    for (file, call) in
        [("bindings-py/python/gunbai/_handles.py", "_call"), ("bindings-js/js/prelude.js", "#call")]
    {
        let text = std::fs::read_to_string(root.join(file)).expect(file);
        let mut named = 0;
        for (i, _) in text.match_indices(call) {
            // `_call("name"`, `_call_text("name"`, `#call("name"`: the method's name.
            let rest =
                text[i + call.len()..].trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
            let Some(rest) = rest.strip_prefix("(\"") else { continue };
            let name = &rest[..rest.find('"').unwrap_or(0)];
            assert!(
                METHODS.iter().any(|m| m.name == name),
                "{file} calls a handle method {name:?} that is not in the table"
            );
            named += 1;
        }
        assert!(named >= 10, "{file}: only {named} handle method calls found");
    }
}
