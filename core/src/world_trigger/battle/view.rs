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
use crate::json::ToJson;
use serde_json::Value;

/// The team `viewer` names: its index, or its id.
pub(crate) fn viewer_team(s: &WtBattleState, viewer: &Value) -> Result<usize> {
    let i = match viewer {
        Value::Number(n) => n.as_u64().and_then(|n| usize::try_from(n).ok()),
        Value::String(id) => s.teams.iter().position(|t| &t.id == id),
        _ => None,
    };
    i.filter(|&i| i < s.teams.len()).ok_or_else(|| {
        Error::invalid("viewer", "names no team of this battle: its index or id (null: the GM)")
    })
}

/// WT-ST-1: hidden from `team`'s view (another team's member in Stealth).
fn hidden(m: &WtBattleMember, team: usize) -> bool {
    m.team != team && m.states.stealth.is_some()
}

/// The state (and the last action's events) as `viewer` may see them (`None`: the GM).
pub(crate) fn view(
    s: &WtBattleState,
    viewer: Option<&Value>,
    events: Option<&mut Vec<Value>>,
) -> Result<Value> {
    let mut out = s.to_json();
    let Some(v) = viewer else { return Ok(out) };
    let team = viewer_team(s, v)?;
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
    Ok(out)
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
