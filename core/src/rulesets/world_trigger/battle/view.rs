//! Hidden information in a battle: what one team may see (`world_trigger.battle_view`,
//! `Battle.view`).
//!
//! WT-ST-1: a character in Stealth (Bagworm) has its position erased from radar; its
//! coordinates are tracked apart (WT-MAP-7: "visible only to its player and the GM;
//! other players see it blacked out"), as a Bagworm teleport keeps its card face down
//! and its square die hidden (WT-MAP-6 steps 2–3). So for another team's viewer a
//! member in Stealth has no `at`, and nothing else in the view gives its square away:
//! the squares of its moves (`moved` `path` and `cost`, `forced_move` / `reentry` /
//! `brought_back` `to`) while it was in Stealth, and a pending attack's `push_to`
//! when it is a target. Nor does anything name it where naming it tells where it
//! stands (an attack on it is in the attacker's range): a pending attack's `targets`
//! and its `reactions` leave it out, and an event while it was in Stealth names it as
//! no `target`, `reactor` or one of `targets` (`attack_declared`, `hit_check`,
//! `damage`, ...), nor does the given action name it as its `target`. An event that
//! loses a square or a name this way has its `text` said again as the viewer may read
//! it: "an unseen member" for the name, no square for the move (dropped if the event
//! given does not read as one). Its own team and the GM see everything. Once Stealth
//! ends (WT-ST-1 items 1–5, e.g. Area Search) its square is visible again.
//!
//! The same holds for a team's listing (`battle_legal_actions` / `legal_actions` with a
//! `viewer`): it is made from the state as the team believes it — another team's
//! members in Stealth are off its radar, so they stand nowhere: no square they block, no
//! ZoC, not in an area's count — and no listed item names them. Whether an item is
//! listed then depends on nothing the team cannot see. A listed move that meets a
//! hidden member (its square, or its ZoC's cost) is refused by `battle_act` as any such
//! move is, naming its rule; RULINGS does not say more on that surprise.
//!
//! Invisible (WT-ST-2, Chameleon) is not hidden: the rule makes the character
//! untargetable by single-target attacks, not its position unknown; Movement-reserved
//! and Floating (WT-ST-3/4) hide nothing either.

use super::actions::{WtBattleAction, WtLegalAction};
use super::legal::{self, LegalList, WtCompactMoves};
use super::state::{WtBattleMember, WtBattleState, WtSquare};
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// The team `viewer` names: its index, or its id.
pub(crate) fn viewer_team(s: &WtBattleState, viewer: &Value) -> Result<usize> {
    let i = match viewer {
        Value::Number(n) => n.as_u64().and_then(|n| usize::try_from(n).ok()),
        Value::String(id) => s.teams.iter().position(|t| &t.id == id),
        _ => None,
    };
    i.filter(|&i| i < s.teams.len()).ok_or_else(|| {
        let why = "names no team of this battle: its index or id (null: the GM)";
        // A team index outside 0..teams (a negative one included) is a number outside its
        // range (RULINGS, "Error codes"); an id that names no team is a wrong argument.
        if viewer.is_number() {
            Error::out_of_range(
                "viewer",
                format_args!("{why}; an index is 0..={}", s.teams.len().saturating_sub(1)),
            )
        } else {
            Error::invalid("viewer", why)
        }
    })
}

/// WT-ST-1: hidden from `team`'s view (another team's member in Stealth).
fn hidden(m: &WtBattleMember, team: usize) -> bool {
    m.team != team && m.states.stealth.is_some()
}

/// A listing and its compact moves, as `legal::listing_with` gives them.
type Listing = (Vec<WtLegalAction>, Option<Vec<WtCompactMoves>>);

/// The listing of `s` as `viewer`'s team may know it (`None`: the GM's): made from the
/// state with the members hidden from the team off the battlefield, without the items
/// naming them (as actor, reactor or target).
pub(crate) fn listing(
    list: &mut LegalList,
    s: &WtBattleState,
    actor: Option<&str>,
    kind: Option<&str>,
    compact: bool,
    viewer: Option<&Value>,
) -> Result<Listing> {
    if let Some(a) = actor {
        if s.idx(a).is_none() {
            return Err(Error::invalid("actor", "no such member"));
        }
    }
    let Some(v) = viewer else { return legal::listing_with(list, s, actor, kind, compact, "state") };
    let team = viewer_team(s, v)?;
    let ids: Vec<&str> = s.members.iter().filter(|m| hidden(m, team)).map(|m| m.id.as_str()).collect();
    if ids.is_empty() {
        return legal::listing_with(list, s, actor, kind, compact, "state");
    }
    let mut believed = s.clone();
    for m in believed.members.iter_mut().filter(|m| hidden(m, team)) {
        // Off its radar: no battlefield square.
        m.at = WtSquare { x: -1, y: -1 };
    }
    let (mut actions, mut moves) = legal::listing_with(list, &believed, actor, kind, compact, "state")?;
    let named = |id: &str| ids.contains(&id);
    actions.retain(|l| {
        use WtBattleAction as A;
        !match &l.action {
            A::UseSkill { actor, target, .. } => named(actor) || target.as_deref().is_some_and(named),
            A::BringBack { actor, target } => named(actor) || named(target),
            A::Move { actor, .. } | A::Reenter { actor, .. } | A::UseAbility { actor, .. } => named(actor),
            A::React { actor: reactor, .. } => named(reactor),
            _ => false,
        }
    });
    if let Some(m) = moves.as_mut() {
        m.retain(|c| !named(&c.actor));
    }
    Ok((actions, moves))
}

/// The member `id` names, hidden from `team` now.
pub(crate) fn hidden_id(s: &WtBattleState, team: usize, id: Option<&str>) -> bool {
    id.and_then(|i| s.members.iter().find(|m| m.id == i)).is_some_and(|m| hidden(m, team))
}

/// Remove from `out` (the state `s` as JSON), `events` (those that led to `s`) and
/// `action` (the action they came from) what `viewer`'s team may not see.
pub(crate) fn redact(
    s: &WtBattleState,
    viewer: &Value,
    out: &mut Value,
    events: Option<&mut Vec<Value>>,
    action: Option<&mut Value>,
) -> Result<()> {
    let team = viewer_team(s, viewer)?;
    if let Some(ms) = out.get_mut("members").and_then(Value::as_array_mut) {
        for (m, j) in s.members.iter().zip(ms.iter_mut()) {
            if let (true, Some(o)) = (hidden(m, team), j.as_object_mut()) {
                o.remove("at");
            }
        }
    }
    // A pending attack on a hidden member names it (it is in the attacker's range), and a
    // forced-movement square chosen next to it points at it.
    let now = |id: &str| hidden_id(s, team, Some(id));
    if let Some(o) = out.get_mut("pending").and_then(Value::as_object_mut) {
        if unname(o, &now) {
            o.remove("push_to");
        }
        if let Some(r) = o.get_mut("reactions").and_then(Value::as_array_mut) {
            r.retain(|r| !r.get("target").and_then(Value::as_str).is_some_and(now));
            for r in r.iter_mut().filter_map(Value::as_object_mut) {
                unname(r, &now);
            }
        }
    }
    let mut ev = events;
    if let Some(ev) = ev.as_deref_mut() {
        redact_events(s, team, ev);
    }
    if let Some(a) = action.and_then(Value::as_object_mut) {
        // A square the events leave out for this team (`key` gone from an event of `who`).
        let lost = |who: Option<&Value>, kind: &str, key: &str| {
            ev.as_deref().into_iter().flatten().any(|e| {
                e.get("member") == who
                    && e.get("type").and_then(Value::as_str) == Some(kind)
                    && e.get(key).is_none()
            })
        };
        // The route and area centre of a member hidden now or whose move was hidden;
        // the forced-movement square next to a target hidden now or whose push was.
        if hidden_id(s, team, a.get("actor").and_then(Value::as_str)) || lost(a.get("actor"), "moved", "path")
        {
            a.remove("path");
            a.remove("center");
        }
        // The target of an attack hidden now or left out of its declaration.
        let undeclared = ev.as_deref().into_iter().flatten().any(|e| {
            e.get("type").and_then(Value::as_str) == Some("attack_declared")
                && e.get("attacker") == a.get("actor")
                && e.get("targets")
                    .and_then(Value::as_array)
                    .is_some_and(|t| a.get("target").is_some_and(|x| !t.contains(x)))
        });
        if undeclared || unname(a, &now) || lost(a.get("target"), "forced_move", "to") {
            a.remove("target");
            a.remove("push_to");
        }
    }
    Ok(())
}

/// Drop from `o` (an event, a pending attack, a reaction or an action) the members `hid`
/// names: from its `targets`, and its `target` and `reactor`, with its `text` (a sentence
/// naming them). True if it named one.
fn unname(o: &mut Map<String, Value>, hid: &dyn Fn(&str) -> bool) -> bool {
    let mut named = false;
    if let Some(t) = o.get_mut("targets").and_then(Value::as_array_mut) {
        let n = t.len();
        t.retain(|t| !t.as_str().is_some_and(hid));
        named = t.len() < n;
    }
    for k in ["target", "reactor"] {
        if o.get(k).and_then(Value::as_str).is_some_and(hid) {
            o.remove(k);
            named = true;
        }
    }
    if named {
        o.remove("text");
    }
    named
}

/// Drop the squares of hidden members' moves from `ev` (the events that led to `s`), and
/// the names of hidden targets and reactors ([`unname`]), and say such an event's
/// sentence again without them. Who was in Stealth at each
/// event is read backwards from `s`: before a `state` event for `stealth`, the member
/// was in the opposite state.
fn redact_events(s: &WtBattleState, team: usize, ev: &mut [Value]) {
    let mut stealthed: Vec<&str> =
        s.members.iter().filter(|m| hidden(m, team)).map(|m| m.id.as_str()).collect();
    for e in ev.iter_mut().rev() {
        let Some(o) = e.as_object_mut() else { continue };
        let reported = o.contains_key("text").then(|| Value::Object(o.clone()));
        let named = unname(o, &|id| stealthed.contains(&id));
        let mut squares = false;
        if let Some(who) = o.get("member").and_then(Value::as_str) {
            if let Some(m) = s.members.iter().find(|m| m.id == who && m.team != team) {
                let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
                if kind == "state" && o.get("state").and_then(Value::as_str) == Some("stealth") {
                    stealthed.retain(|x| *x != m.id);
                    if o.get("on") == Some(&Value::Bool(false)) {
                        stealthed.push(&m.id);
                    }
                } else if stealthed.contains(&m.id.as_str())
                    && matches!(kind, "moved" | "forced_move" | "reentry" | "brought_back")
                {
                    for k in ["path", "cost", "to", "text"] {
                        o.remove(k);
                    }
                    squares = true;
                }
            }
        }
        // The sentence again, as the viewer may read it: "an unseen member" for a name it
        // may not know, no square for a move it may not see.
        if named || squares {
            let said = reported
                .and_then(|r| super::sentences::seen_text(s, &r, &|id| stealthed.contains(&id), squares));
            if let Some(t) = said {
                o.insert("text".into(), crate::json::ToJson::to_json(&t));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The Bagworm-teleport battle of the vectors: a1 (team a) starts in Stealth (WT-MAP-6).
    fn stealthed() -> WtBattleState {
        let text = include_str!("../../../../../testdata/vectors/views/engine_views.json");
        let cases: Value = serde_json::from_str(text).unwrap();
        let setup = cases[0]["steps"][0]["args"].clone();
        let args = crate::ops::parse_args(setup).unwrap();
        super::super::battle_new(&args).unwrap().state
    }

    fn moved() -> Value {
        json!({"type": "moved", "member": "a1", "path": [{"x": 1, "y": 0}], "cost": 1, "movement": 3})
    }

    fn stealth(on: bool) -> Value {
        json!({"type": "state", "member": "a1", "state": "stealth", "on": on, "rule": "WT-ST-1"})
    }

    fn view(s: &WtBattleState, viewer: Option<&Value>, ev: Option<&mut Vec<Value>>) -> Value {
        let mut out = crate::json::ToJson::to_json(s);
        if let Some(v) = viewer {
            redact(s, v, &mut out, ev, None).unwrap();
        }
        out
    }

    fn seen(s: &WtBattleState, viewer: Value, mut ev: Vec<Value>) -> Vec<Value> {
        view(s, Some(&viewer), Some(&mut ev));
        ev
    }

    #[test]
    fn a_move_in_stealth_hides_its_route_from_the_other_team_only() {
        // WT-ST-1: a1 is in Stealth at the end, and was during the move.
        let s = stealthed();
        let other = seen(&s, json!("b"), vec![moved()]);
        assert_eq!(other[0], json!({"type": "moved", "member": "a1", "movement": 3}));
        assert_eq!(seen(&s, json!("a"), vec![moved()])[0], moved());
        let mut gm = vec![moved()];
        view(&s, None, Some(&mut gm));
        assert_eq!(gm[0], moved());
    }

    #[test]
    fn a_target_in_stealth_is_named_by_no_event_and_its_sentence_says_unseen() {
        // WT-ST-1: a1 is in Stealth at the end. An event naming it while it was hidden loses
        // the name, and its `text` is said again with "an unseen member" (dropped when the
        // event does not read as one); one from before its Stealth began keeps both; its
        // own team sees everything.
        let s = stealthed();
        let text = json!({"ja": "b1→a1", "zh_hans": "b1→a1", "zh_hant": "b1→a1", "en": "b1 shoots a1"});
        let declared = json!({"type": "attack_declared", "attacker": "b1", "skill": "x", "targets": ["a1"], "text": text});
        let hit = json!({"type": "hit_check", "attacker": "b1", "target": "a1", "hit": true, "text": text});
        let react = json!({"type": "reaction_rolled", "target": "a1", "reactor": "a1", "achievement": 3});
        let all = vec![declared.clone(), stealth(true), declared.clone(), hit.clone(), react.clone()];
        let ev = seen(&s, json!("b"), all.clone());
        assert_eq!(ev[0], declared);
        assert_eq!(ev[2]["targets"], json!([]));
        assert_eq!(ev[2]["text"]["en"], "b1 attacks an unseen member with x.");
        assert_eq!(ev[2]["text"]["ja"], "b1がxで姿の見えない隊員を攻撃。");
        // not an event as reported (no faces, no special attack): its sentence goes
        assert_eq!(ev[3], json!({"type": "hit_check", "attacker": "b1", "hit": true}));
        assert_eq!(ev[4], json!({"type": "reaction_rolled", "achievement": 3}));
        assert_eq!(seen(&s, json!("a"), all.clone()), all);
        // A hidden mover's event loses its squares, and its sentence says so.
        let mut mv = moved();
        mv["text"] = text;
        let hid = &seen(&s, json!("b"), vec![mv])[0];
        assert!(hid.get("path").is_none() && hid.get("cost").is_none());
        assert_eq!(hid["text"]["en"], "a1 moves (Stealth: square hidden).");
        assert_eq!(hid["text"]["zh_hant"], "a1移動了（隱身狀態：位置不公開）。");
    }

    #[test]
    fn stealth_is_read_backwards_from_the_state() {
        // Stealth began after the move (in the same list): the move was seen.
        let s = stealthed();
        assert_eq!(seen(&s, json!("b"), vec![moved(), stealth(true)])[0], moved());
        // Stealth ended after the move (WT-ST-1 item 1, at the end of the Movement phase):
        // the move was made hidden, so it stays hidden though the square is now shown.
        let mut open = s.clone();
        open.members[0].states.stealth = None;
        let ev = seen(&open, json!(1), vec![moved(), stealth(false)]);
        assert!(ev[0].get("path").is_none() && ev[0].get("cost").is_none());
        assert_eq!(ev[1], stealth(false));
        let v = view(&open, Some(&json!("b")), None);
        assert_eq!(v["members"][0]["at"], json!({"x": 0, "y": 0}));
    }
}

#[cfg(test)]
mod listing_tests {
    use serde_json::{json, Value};

    /// The vectors' Bagworm battle with b1 two squares from the hidden a1.
    pub(super) fn near() -> Value {
        let text = include_str!("../../../../../testdata/vectors/views/engine_views.json");
        let cases: Value = serde_json::from_str(text).unwrap();
        let mut setup = cases[0]["steps"][0]["args"].clone();
        setup["teams"][1]["members"][0]["at"] = json!({"x": 2, "y": 0});
        crate::call("world_trigger.battle_new", setup).unwrap()["state"].clone()
    }

    /// Pass every turn until `phase` with team `team` acting.
    pub(super) fn until(mut st: Value, phase: &str, team: &str) -> Value {
        for _ in 0..40 {
            let t = crate::call("world_trigger.battle_turn", json!({"state": st})).unwrap();
            let acting = &t["active"][0]["id"];
            if t["phase"] == phase && acting == team {
                return st;
            }
            let action = if t["phase"] == "initiative" {
                json!({"type": "roll_initiative"})
            } else {
                json!({"type": "pass", "team": acting})
            };
            st = crate::call("world_trigger.battle_act", json!({"state": st, "action": action, "seed": 3}))
                .unwrap()["state"]
                .clone();
        }
        panic!("no {phase} turn for {team}");
    }

    fn listing(st: &Value, viewer: Value, compact: bool) -> Value {
        crate::call(
            "world_trigger.battle_legal_actions",
            json!({"state": st, "viewer": viewer, "compact": compact}),
        )
        .unwrap()
    }

    fn names(l: &Value, id: &str) -> bool {
        let a = l["actions"].as_array().unwrap();
        a.iter().any(|i| ["actor", "target"].iter().any(|k| i["action"][k] == id))
            || l["moves"].as_array().is_some_and(|m| m.iter().any(|c| c["actor"] == id))
    }

    #[test]
    fn a_teams_listing_does_not_depend_on_where_a_hidden_enemy_stands() {
        // WT-ST-1: a1 (team a) is in Stealth; team b's listing is made from what b
        // knows, so it is one listing wherever a1 stands, and it never names a1.
        let base = until(near(), "movement", "b");
        let (mut seen, mut gm) = (Vec::new(), Vec::new());
        for (x, y) in [(0, 0), (1, 1), (3, 1), (0, 4)] {
            let mut st = base.clone();
            st["members"][0]["at"] = json!({"x": x, "y": y});
            assert_eq!(st["members"][0]["states"]["stealth"], "sub");
            for compact in [false, true] {
                let l = listing(&st, json!("b"), compact);
                assert!(!names(&l, "a1"), "{l}");
                seen.push((compact, l));
                gm.push(listing(&st, Value::Null, compact));
            }
            // The listing is a function of what b sees: its view is the same too.
            let v = crate::call("world_trigger.battle_view", json!({"state": st, "viewer": "b"})).unwrap();
            let first =
                crate::call("world_trigger.battle_view", json!({"state": base, "viewer": "b"})).unwrap();
            assert_eq!(v, first);
        }
        for (i, l) in seen.iter().enumerate() {
            assert_eq!(l, &seen[i % 2], "the listing changed with the hidden square");
        }
        // The GM's listing does depend on it (the squares a1 blocks, its ZoC: WT-MOV-3):
        // the test would see the old listing.
        assert!(gm.iter().any(|l| l != &gm[0]));
        // The whole listing (no actor) of team b names no hidden member either; a's names a1.
        assert!(names(&listing(&base, json!("a"), false), "a1"));
        assert!(!names(&listing(&base, json!(1), false), "a1"));
    }

    #[test]
    fn a_hidden_enemy_is_no_target_and_a_move_onto_it_is_refused_by_its_rule() {
        // WT-ST-1 with WT-MOV-3: b believes (0, 0) empty and is offered the move;
        // the act meets the hidden a1 there and is refused naming WT-MOV-3, changing nothing.
        let st = until(near(), "movement", "b");
        let onto = json!({"type": "move", "actor": "b1", "skill": "normal_move", "path": [{"x": 1, "y": 0}, {"x": 0, "y": 0}]});
        let offered = |viewer: Value| {
            listing(&st, viewer, false)["actions"].as_array().unwrap().iter().any(|i| i["action"] == onto)
        };
        assert!(offered(json!("b")) && !offered(Value::Null));
        let e = crate::call("world_trigger.battle_act", json!({"state": st, "action": onto})).unwrap_err();
        assert_eq!(e.0.rule.as_deref(), Some("WT-MOV-3"));
        // Attack phase, a1 in Stealth next to b1: b's listing has no attack on a1.
        let mut at = until(st, "attack", "b");
        at["members"][0]["at"] = json!({"x": 1, "y": 0});
        at["members"][0]["states"]["stealth"] = json!("sub");
        let target =
            |l: &Value| l["actions"].as_array().unwrap().iter().any(|i| i["action"]["target"] == "a1");
        assert!(target(&listing(&at, Value::Null, false)));
        assert!(!target(&listing(&at, json!("b"), false)));
        assert_eq!(listing(&at, json!("a"), false), listing(&at, Value::Null, false));
    }

    /// Team b's attack phase with a1 in Stealth one square from b1, and the GM's listed
    /// attack of b1 on a1 (the listing offers it: WT-ST-1 hides a1 from team b only).
    fn attacked_in_stealth() -> (Value, Value) {
        let mut at = until(until(near(), "movement", "b"), "attack", "b");
        at["members"][0]["at"] = json!({"x": 1, "y": 0});
        at["members"][0]["states"]["stealth"] = json!("sub");
        let gm = listing(&at, Value::Null, false);
        let attack =
            gm["actions"].as_array().unwrap().iter().find(|i| i["action"]["target"] == "a1").unwrap()
                ["action"]
                .clone();
        (at, attack)
    }

    #[test]
    fn a_reaction_stage_names_no_target_the_team_may_not_see() {
        // WT-ST-1: a1 in Stealth is attacked directly (the GM's listing offers it). The
        // turn of team b, who may not see a1, names nobody in the reaction stage; a's and
        // the GM's name a1. Pure operation and handle alike.
        let (at, attack) = attacked_in_stealth();
        let args = json!({"state": at, "action": attack, "seed": 1});
        let st = crate::call("world_trigger.battle_act", args).unwrap()["state"].clone();
        let turn = |viewer: Value| {
            crate::call("world_trigger.battle_turn", json!({"state": st, "viewer": viewer})).unwrap()
        };
        let mut g = crate::engine::Game::new();
        g.call("load", json!({"handle": "world_trigger.Battle", "state": st})).unwrap();
        let hidden = json!([{"id": null, "stage": "reaction"}]);
        for b in [json!("b"), json!(1)] {
            assert_eq!(turn(b.clone())["active"], hidden);
            assert_eq!(g.call("turn", json!({"viewer": b})).unwrap()["active"], hidden);
        }
        let seen = json!([{"id": "a1", "stage": "reaction"}]);
        for v in [json!("a"), Value::Null] {
            assert_eq!(turn(v.clone())["active"], seen);
            assert_eq!(g.call("turn", json!({"viewer": v})).unwrap()["active"], seen);
        }
        let e =
            crate::call("world_trigger.battle_turn", json!({"state": st, "viewer": "nobody"})).unwrap_err();
        assert_eq!(e.0.field.as_deref(), Some("viewer"));
    }

    #[test]
    fn a_view_names_no_hidden_target_of_an_attack() {
        // WT-ST-1: b1 shoots a1 in Stealth directly (the GM's listing offers it). Team b's
        // view of the state, the events and the action names a1 nowhere but in the roster
        // (its member entry and its team's leader, which every team knows); a's and the
        // GM's name it as the target.
        let (at, attack) = attacked_in_stealth();
        let attack = &attack;
        let args = json!({"state": at, "action": attack, "seed": 1});
        let r = crate::call("world_trigger.battle_act", args).unwrap();
        assert_eq!(r["state"]["pending"]["targets"], json!(["a1"]));
        assert_eq!(r["state"]["members"][0]["states"]["stealth"], "sub");
        let view = |viewer: Value| {
            let args =
                json!({"state": r["state"], "viewer": viewer, "events": r["events"], "action": attack});
            crate::call("world_trigger.battle_view", args).unwrap()
        };
        for b in [json!("b"), json!(1)] {
            let mut v = view(b);
            assert_eq!(v["state"]["pending"]["targets"], json!([]));
            let declared = v["events"].as_array().unwrap().iter().find(|e| e["type"] == "attack_declared");
            assert_eq!(declared.unwrap()["targets"], json!([]));
            for roster in ["/state/members/0/id", "/state/teams/0/leader"] {
                let r = v.pointer_mut(roster).unwrap();
                assert_eq!(*r, "a1");
                *r = Value::Null;
            }
            assert!(!v.to_string().contains("\"a1\""), "{v}");
        }
        for seen in [json!("a"), json!(0), Value::Null] {
            let v = view(seen);
            assert_eq!(v["state"]["pending"], r["state"]["pending"]);
            assert_eq!(v["events"], r["events"]);
            assert_eq!(v["action"], *attack);
        }
    }

    #[test]
    fn a_hidden_move_leaves_its_route_out_of_the_action_too() {
        // WT-ST-1: a1 moves in Stealth; team b's view of the action has no `path`.
        let st = until(near(), "movement", "a");
        let mv = json!({"type": "move", "actor": "a1", "skill": "normal_move", "path": [{"x": 0, "y": 1}]});
        let r = crate::call("world_trigger.battle_act", json!({"state": st, "action": mv})).unwrap();
        let view = |viewer: Value| {
            let args = json!({"state": r["state"], "viewer": viewer, "events": r["events"], "action": mv});
            crate::call("world_trigger.battle_view", args).unwrap()
        };
        assert_eq!(
            view(json!("b"))["action"],
            json!({"type": "move", "actor": "a1", "skill": "normal_move"})
        );
        assert_eq!(view(json!("a"))["action"], mv);
        assert_eq!(view(Value::Null)["action"], mv);
    }
}
