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
//! when it is a target. Its own team and the GM see everything. Once Stealth ends
//! (WT-ST-1 items 1–5, e.g. Area Search) its square is visible again.
//!
//! Invisible (WT-ST-2, Chameleon) is not hidden: the rule makes the character
//! untargetable by single-target attacks, not its position unknown; Movement-reserved
//! and Floating (WT-ST-3/4) hide nothing either.

use super::state::{WtBattleMember, WtBattleState};
use crate::error::{Error, Result};
use serde_json::Value;

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

/// Remove from `out` (the state `s` as JSON) and `events` (those that led to `s`)
/// what `viewer`'s team may not see.
pub(crate) fn redact(
    s: &WtBattleState,
    viewer: &Value,
    out: &mut Value,
    events: Option<&mut Vec<Value>>,
) -> Result<()> {
    let team = viewer_team(s, viewer)?;
    if let Some(ms) = out.get_mut("members").and_then(Value::as_array_mut) {
        for (m, j) in s.members.iter().zip(ms.iter_mut()) {
            if let (true, Some(o)) = (hidden(m, team), j.as_object_mut()) {
                o.remove("at");
            }
        }
    }
    // A forced-movement square chosen next to a hidden target points at it.
    if let Some(p) = &s.pending {
        if p.targets.iter().any(|t| s.members.iter().any(|m| &m.id == t && hidden(m, team))) {
            if let Some(o) = out.get_mut("pending").and_then(Value::as_object_mut) {
                o.remove("push_to");
            }
        }
    }
    if let Some(ev) = events {
        redact_events(s, team, ev);
    }
    Ok(())
}

/// Drop the squares of hidden members' moves from `ev` (the events that led to `s`).
/// Who was in Stealth at each event is read backwards from `s`: before a `state`
/// event for `stealth`, the member was in the opposite state.
fn redact_events(s: &WtBattleState, team: usize, ev: &mut [Value]) {
    let mut stealthed: Vec<&str> =
        s.members.iter().filter(|m| hidden(m, team)).map(|m| m.id.as_str()).collect();
    for e in ev.iter_mut().rev() {
        let Some(o) = e.as_object_mut() else { continue };
        let Some(who) = o.get("member").and_then(Value::as_str) else { continue };
        let Some(m) = s.members.iter().find(|m| m.id == who && m.team != team) else { continue };
        let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
        if kind == "state" && o.get("state").and_then(Value::as_str) == Some("stealth") {
            stealthed.retain(|x| *x != m.id);
            if o.get("on") == Some(&Value::Bool(false)) {
                stealthed.push(&m.id);
            }
        } else if stealthed.contains(&m.id.as_str())
            && matches!(kind, "moved" | "forced_move" | "reentry" | "brought_back")
        {
            for k in ["path", "cost", "to"] {
                o.remove(k);
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
            redact(s, v, &mut out, ev).unwrap();
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
