//! The World Trigger battle as an [`Engine`]: `world_trigger.Battle`.

use crate::dice::Dice;
use crate::engine::{json_name, no_data, Created, Engine, Turn, TurnActive};
use crate::error::Result;
use crate::json::ToJson;
use crate::world_trigger::battle::{
    self, engine, legal, WtBattleAction, WtBattleNewArgs, WtBattlePhase, WtBattleState, WtLegalAction,
};
use serde_json::Value;

/// `world_trigger.Battle` (`world_trigger.battle_new` / `battle_legal_actions` / `battle_act`).
pub struct Battle;

impl Engine for Battle {
    const HANDLE: &'static str = "world_trigger.Battle";
    const OPS: [&'static str; 3] =
        ["world_trigger.battle_new", "world_trigger.battle_legal_actions", "world_trigger.battle_act"];
    type Setup = WtBattleNewArgs;
    type State = WtBattleState;
    type Action = WtBattleAction;
    type Ctx = ();
    type Cache = legal::LegalList;
    type Listed = WtLegalAction;
    type Checked = engine::Checked;
    type Events = Vec<battle::WtBattleLoggedEvent>;

    fn create(setup: &WtBattleNewArgs) -> Result<Created<Self>> {
        let r = battle::battle_new(setup)?;
        Ok(Created { ctx: (), state: r.state, events: r.events.to_json(), rolls: r.rolls })
    }

    fn load(state: &Value, data: Option<&Value>) -> Result<((), WtBattleState)> {
        no_data(data, "a World Trigger battle (its data is in its state)")?;
        Ok(((), battle::load_state(state)?))
    }

    /// The legal actions themselves: World Trigger finds them by searching each mover's
    /// routes once (its own [`listing`](Engine::listing)), not by checking every square.
    fn candidates(_: &(), s: &WtBattleState) -> Vec<WtBattleAction> {
        legal::legal_actions(s, None).into_iter().map(|l| l.action).collect()
    }

    fn check(_: &(), s: &WtBattleState, a: &WtBattleAction) -> Result<engine::Checked> {
        engine::check(s, a)
    }

    /// World Trigger's own listing, with its route searches kept between calls; the
    /// harness checks that each listed action passes [`check`](Engine::check). With a
    /// `viewer`: as that team may know it (WT-ST-1, `battle::view`).
    fn listing(
        _: &(),
        cache: &mut legal::LegalList,
        s: &WtBattleState,
        actor: Option<&str>,
        viewer: Option<&Value>,
    ) -> Result<Vec<WtLegalAction>> {
        Ok(battle::view::listing(cache, s, actor, None, false, viewer)?.0)
    }

    /// `compact`: World Trigger's moves as squares with their costs and routes (`moves`).
    fn listing_json(
        _: &(),
        cache: &mut legal::LegalList,
        s: &WtBattleState,
        actor: Option<&str>,
        kind: Option<&str>,
        compact: bool,
        viewer: Option<&Value>,
    ) -> Result<Value> {
        let (actions, moves) = battle::view::listing(cache, s, actor, kind, compact, viewer)?;
        Ok(match moves {
            None => actions.to_json(),
            Some(m) => {
                let mut o = serde_json::Map::new();
                o.insert("actions".into(), actions.to_json());
                o.insert("moves".into(), m.to_json());
                Value::Object(o)
            }
        })
    }

    fn apply(
        _: &(),
        s: &mut WtBattleState,
        a: &WtBattleAction,
        c: engine::Checked,
        dice: &mut Dice,
    ) -> Result<Vec<battle::WtBattleLoggedEvent>> {
        let mut ev = Vec::new();
        engine::commit(s, a, &c, dice, &mut ev)?;
        Ok(battle::sentences::logged(s, ev))
    }

    /// With its cost.
    fn listed(_: &(), _: &WtBattleState, a: WtBattleAction, c: engine::Checked) -> WtLegalAction {
        WtLegalAction { action: a, cost: c.cost }
    }

    /// A member (`actor`); a team's own steps (`operator`, `pass`) and the
    /// round's (`roll_initiative`, `no_reaction`) name no member.
    fn actor(a: &WtBattleAction) -> Option<&str> {
        use WtBattleAction as A;
        match a {
            A::UseAbility { actor, .. }
            | A::Reenter { actor, .. }
            | A::UseSkill { actor, .. }
            | A::Move { actor, .. }
            | A::BringBack { actor, .. } => Some(actor),
            A::React { actor: reactor, .. } => Some(reactor),
            A::Operator { .. } | A::Pass { .. } | A::RollInitiative { .. } | A::NoReaction {} => None,
        }
    }

    /// Member ids.
    fn actors(s: &WtBattleState) -> Vec<&str> {
        s.members.iter().map(|m| m.id.as_str()).collect()
    }

    /// WT-INIT-1: the Initiative phase waits for `roll_initiative`; WT-INIT-2: then a
    /// team acts in each phase, in initiative order (Movement reversed): the acting
    /// team's id; WT-HIT-1: while an attack awaits its reactions, the target that
    /// reacts next (then `no_reaction`, the attack's resolution).
    fn turn(_: &(), s: &WtBattleState) -> Turn {
        let active = match (&s.pending, s.phase) {
            (_, WtBattlePhase::Ended) => Vec::new(),
            (Some(p), _) => vec![match p.targets.get(p.reactions.len()) {
                Some(t) => TurnActive::of(t, "reaction"),
                None => TurnActive::step("no_reaction"),
            }],
            (None, WtBattlePhase::Initiative) => vec![TurnActive::step("roll_initiative")],
            (None, _) => s
                .acting_team()
                .and_then(|t| s.teams.get(t))
                .map(|t| TurnActive::of(&t.id, "turn"))
                .into_iter()
                .collect(),
        };
        // WT-INIT-2: the team initiative order, reversed in the Movement phase.
        let mut order: Vec<usize> = s.initiative_order.clone();
        if s.phase == WtBattlePhase::Movement {
            order.reverse();
        }
        let order = crate::engine::settled_first(
            order.iter().filter_map(|&t| s.teams.get(t)).map(|t| t.id.as_str()),
            s.teams.iter().map(|t| t.id.as_str()),
        );
        Turn {
            round: s.round,
            phase: json_name(&s.phase),
            active,
            order,
            outcome: s.outcome.to_json(),
            ..Turn::default()
        }
    }

    /// WT-ST-1: a pending attack's target in Stealth that `viewer`'s team may not see is
    /// named by no entry: its `reaction` stage names nobody.
    fn turn_for(ctx: &(), s: &WtBattleState, viewer: &Value) -> Result<Turn> {
        let team = battle::view::viewer_team(s, viewer)?;
        let mut t = Self::turn(ctx, s);
        for a in &mut t.active {
            if a.stage == "reaction" && battle::view::hidden_id(s, team, a.id.as_deref()) {
                a.id = None;
            }
        }
        Ok(t)
    }

    fn outcome(_: &(), s: &WtBattleState) -> Value {
        s.outcome.to_json()
    }

    /// WT-DMG: each `damage` event's total, dealt by the attacker of the hit check before it.
    #[cfg(feature = "simulate")]
    fn damage_dealt(events: &Value) -> Option<Vec<(String, String, i64)>> {
        use crate::engine::simulate::text_of;
        let mut out = Vec::new();
        let mut attacker = None;
        for e in events.as_array().into_iter().flatten() {
            match e.get("type").and_then(Value::as_str) {
                Some("attack_declared" | "hit_check") => attacker = text_of(e, "attacker"),
                Some("damage") => {
                    let total = e.get("total").and_then(Value::as_i64).filter(|&n| n > 0);
                    if let (Some(a), Some(t), Some(n)) = (&attacker, text_of(e, "target"), total) {
                        out.push((a.clone(), t, n));
                    }
                }
                _ => {}
            }
        }
        Some(out)
    }

    /// WT-RND-1: a skill used on a target or an area (an attack).
    #[cfg(feature = "simulate")]
    fn attacks(_: &(), a: &WtBattleAction) -> bool {
        matches!(a, WtBattleAction::UseSkill { target, center, .. } if target.is_some() || center.is_some())
    }

    /// Members no longer active (incapacitated, bailed out, dead: WT-KO).
    fn down(s: &WtBattleState) -> Option<Vec<&str>> {
        use crate::world_trigger::battle::WtMemberStatus;
        Some(s.members.iter().filter(|m| m.status != WtMemberStatus::Active).map(|m| m.id.as_str()).collect())
    }

    /// A member's team.
    fn side<'a>(s: &'a WtBattleState, id: &str) -> Option<&'a str> {
        let m = s.members.iter().find(|m| m.id == id)?;
        s.teams.get(m.team).map(|t| t.id.as_str())
    }

    /// Team ids (a team's index is accepted too).
    fn viewers(s: &WtBattleState) -> Vec<&str> {
        s.teams.iter().map(|t| t.id.as_str()).collect()
    }

    /// WT-ST-1 / WT-MAP-7: another team's member in Stealth has no visible square, and
    /// no pending attack, event or action names it as a target (`battle::view`).
    fn redact(
        _: &(),
        s: &WtBattleState,
        viewer: &Value,
        view: &mut Value,
        events: Option<&mut Vec<Value>>,
        action: Option<&mut Value>,
    ) -> Result<()> {
        battle::view::redact(s, viewer, view, events, action)
    }

    fn listed_action(l: &WtLegalAction) -> Result<WtBattleAction> {
        Ok(l.action.clone())
    }

    #[cfg(test)]
    fn caller_chosen(a: &WtBattleAction) -> bool {
        use WtBattleAction as A;
        match a {
            A::UseSkill { tactics_dice, burst, push_to, side, .. } => {
                *tactics_dice > 0 || *burst > 0 || push_to.is_some() || side.is_none()
            }
            A::React { tactics_dice, side, .. } => *tactics_dice > 0 || side.is_none(),
            A::Reenter { tactics_dice, .. } => *tactics_dice > 0,
            A::RollInitiative { tactics_dice } => !tactics_dice.is_empty(),
            _ => false,
        }
    }

    #[cfg(test)]
    fn probes(_: &(), s: &WtBattleState, rng: &mut crate::dice::prng::Prng) -> Vec<WtBattleAction> {
        (0..4).map(|_| battle::tests::random_action(rng, s)).collect()
    }
}

#[cfg(feature = "schema")]
crate::engine::view_schema::view_shapes!(
    WtBattleViewArgs, WtBattleViewResult,
    crate::world_trigger::battle::state::WtBattleState,
    crate::world_trigger::battle::WtBattleLoggedEvent,
    crate::world_trigger::battle::WtBattleViewer,
    "The team viewing (its index or id); absent or null: the GM, who sees everything.",
    serde_json::Map<String, Value>,
    "The state in `WtBattleState`'s shape, except that what the team may not see is absent (WT-ST-1): another team's member in Stealth has no `at`, and a pending attack on one neither names it (in `targets` or `reactions`) nor has a `push_to`. Not a loadable state for another team's view.",
    serde_json::Map<String, Value>
);

#[cfg(feature = "schema")]
crate::engine::view_schema::turn_shapes!(
    WtBattleTurnArgs,
    crate::world_trigger::battle::state::WtBattleState,
    crate::world_trigger::battle::WtBattleViewer,
    "The team viewing (its index or id); absent or null: the GM, who sees everything. A pending attack's target in Stealth that the team may not see is no `reaction` entry: the entry names nobody (WT-ST-1)."
);
#[cfg(all(feature = "schema", feature = "simulate"))]
crate::engine::view_schema::simulate_shapes!(
    WtBattleSimulateArgs,
    crate::world_trigger::battle::WtBattleNewArgs
);
