//! The TMD encounter as an [`Engine`]: `tmd.Encounter`.

use crate::dice::Dice;
use crate::engine::{json_name, no_data, Created, Engine, Turn, TurnActive};
use crate::error::Result;
use crate::json::ToJson;
use crate::tmd::encounter::{
    self, TmdAction, TmdCost, TmdEncounterNewArgs, TmdEncounterState, TmdLegalAction, TmdPhase,
};
use serde_json::{json, Value};

/// `tmd.Encounter` (`tmd.encounter_new` / `encounter_legal_actions` / `encounter_act`).
pub struct Encounter;

impl Engine for Encounter {
    const HANDLE: &'static str = "tmd.Encounter";
    const OPS: [&'static str; 3] = ["tmd.encounter_new", "tmd.encounter_legal_actions", "tmd.encounter_act"];
    type Setup = TmdEncounterNewArgs;
    type State = TmdEncounterState;
    type Action = TmdAction;
    type Ctx = ();
    type Cache = ();
    type Listed = TmdLegalAction;
    type Checked = TmdCost;
    type Events = Vec<encounter::TmdLoggedEvent>;

    fn create(setup: &TmdEncounterNewArgs) -> Result<Created<Self>> {
        let r = encounter::encounter_new(setup)?;
        Ok(Created { ctx: (), state: r.state, events: r.events.to_json(), rolls: r.rolls })
    }

    fn load(state: &Value, data: Option<&Value>) -> Result<((), TmdEncounterState)> {
        no_data(data, "a TMD encounter")?;
        Ok(((), encounter::load_state(state)?))
    }

    fn candidates(_: &(), s: &TmdEncounterState) -> Vec<TmdAction> {
        encounter::candidates(s)
    }

    /// What the action costs (AP converted or owed, actions spent).
    fn check(_: &(), s: &TmdEncounterState, a: &TmdAction) -> Result<TmdCost> {
        encounter::engine::check(s, a)
    }

    fn apply(
        _: &(),
        s: &mut TmdEncounterState,
        a: &TmdAction,
        _: TmdCost,
        dice: &mut Dice,
    ) -> Result<Vec<encounter::TmdLoggedEvent>> {
        encounter::commit(s, a, dice)
    }

    fn listed(_: &(), _: &TmdEncounterState, a: TmdAction, cost: TmdCost) -> TmdLegalAction {
        TmdLegalAction { action: a, cost }
    }

    fn actor(a: &TmdAction) -> Option<&str> {
        a.actor()
    }

    /// Character ids.
    fn actors(s: &TmdEncounterState) -> Vec<&str> {
        s.characters.iter().map(|c| c.id.as_str()).collect()
    }

    fn listed_action(l: &TmdLegalAction) -> Result<TmdAction> {
        Ok(l.action.clone())
    }

    /// TMD-INT-1: while an announced action is pending, the others may interrupt it
    /// (asked in initiative order; not its own character, not one locked out, TMD-INT-2,
    /// and nobody once it is closed, TMD-INT-3), then it resolves (`resolve`). Otherwise:
    /// the surprise attacker's turn (TMD-SUR-3), then `begin_combat` once it attacked
    /// (TMD-SUR-7); the delay declarations from the top of the order down, by those with
    /// someone below them (TMD-INI-5),
    /// then `start_turns`; the current character's turn (TMD-TIME-2). Nobody once the
    /// encounter has ended (TMD-SCN-1).
    fn turn(_: &(), s: &TmdEncounterState) -> Turn {
        let mut active = Vec::new();
        // TMD-TIME-1: a character down is not asked to act.
        let ids: Vec<&str> = if s.order.is_empty() {
            s.characters.iter().map(|c| c.id.as_str()).collect()
        } else {
            s.order.iter().map(String::as_str).collect()
        };
        let ids: Vec<&str> = ids.into_iter().filter(|id| !s.ch(id).is_some_and(|c| c.down)).collect();
        let current = s.current.as_deref();
        match (&s.chain, s.phase) {
            (_, TmdPhase::Ended) => {}
            (Some(chain), _) => {
                if let Some(front) = chain.entries.first().filter(|f| !f.closed) {
                    active.extend(
                        ids.iter()
                            .filter(|id| {
                                **id != front.character && !chain.locked_out.iter().any(|l| l == *id)
                            })
                            .map(|id| TurnActive::of(id, "interrupt")),
                    );
                }
                active.push(TurnActive::step("resolve"));
            }
            (None, TmdPhase::Surprise) => {
                if s.surprise.as_ref().is_some_and(|x| x.attack_used) {
                    active.push(TurnActive::step("begin_combat"));
                } else {
                    active.extend(current.map(|c| TurnActive::of(c, "turn")));
                }
            }
            (None, TmdPhase::Delays) => {
                // From the top of the order down, each with someone below it to delay after.
                let from = s.delay_cursor as usize;
                let below = ids.len().saturating_sub(1);
                active.extend(ids.iter().take(below).skip(from).map(|id| TurnActive::of(id, "delay")));
                active.push(TurnActive::step("start_turns"));
            }
            (None, TmdPhase::Turns) => active.extend(current.map(|c| TurnActive::of(c, "turn"))),
        }
        // TMD-INI-1: the initiative order (the characters in the state's order before it).
        let order = crate::engine::settled_first(
            s.order.iter().map(String::as_str),
            s.characters.iter().map(|c| c.id.as_str()),
        );
        Turn {
            round: s.round,
            phase: json_name(&s.phase),
            active,
            order,
            outcome: Self::outcome(&(), s),
            ..Turn::default()
        }
    }

    /// The encounter is over once every side but one has nobody standing (the GM's
    /// `gm_down`): `{reason: "side_down", side, winner, down, rule: "TMD-SCN-1", round}`;
    /// or once the GM ended it (`end_encounter`): `{reason: "ended", round}`.
    fn outcome(_: &(), s: &TmdEncounterState) -> Value {
        match (&s.outcome, s.phase) {
            (Some(o), _) => o.to_json(),
            (None, TmdPhase::Ended) => json!({"reason": "ended", "round": s.round}),
            _ => Value::Null,
        }
    }

    /// `hp` of the characters the GM tracks it for.
    fn hp(s: &TmdEncounterState) -> Vec<(&str, i64)> {
        s.characters.iter().filter_map(|c| Some((c.id.as_str(), c.hp?))).collect()
    }

    /// The characters marked down (TMD-SCN-1).
    fn down(s: &TmdEncounterState) -> Option<Vec<&str>> {
        Some(s.characters.iter().filter(|c| c.down).map(|c| c.id.as_str()).collect())
    }

    /// A character's side.
    fn side<'a>(s: &'a TmdEncounterState, id: &str) -> Option<&'a str> {
        Some(s.characters.iter().find(|c| c.id == id)?.side.as_str())
    }

    /// Character ids and side names. Nothing is hidden (the default view): the state has
    /// no positions, delays are declared openly (TMD-INI-5), and a surprise round's
    /// conditions (TMD-SUR-2) are the GM's to judge before it begins.
    fn viewers(s: &TmdEncounterState) -> Vec<&str> {
        s.characters.iter().flat_map(|c| [c.id.as_str(), c.side.as_str()]).collect()
    }

    #[cfg(test)]
    fn probes(_: &(), s: &TmdEncounterState, rng: &mut crate::dice::prng::Prng) -> Vec<TmdAction> {
        encounter::probe_candidates(s, rng)
    }
}

#[cfg(feature = "schema")]
crate::engine::view_schema::view_shapes!(
    TmdEncounterViewArgs,
    TmdEncounterViewResult,
    crate::tmd::encounter::TmdEncounterState,
    crate::tmd::encounter::TmdLoggedEvent,
    String,
    "A character's id or a side's name; absent or null: the GM.",
    crate::tmd::encounter::TmdEncounterState,
    "The state: TMD hides nothing from a viewer, so it is the state unchanged.",
    crate::tmd::encounter::TmdLoggedEvent
);

#[cfg(feature = "schema")]
crate::engine::view_schema::turn_shapes!(
    TmdEncounterTurnArgs,
    crate::tmd::encounter::TmdEncounterState,
    String,
    "A character's id or a side's name; absent or null: the GM."
);
#[cfg(all(feature = "schema", feature = "simulate"))]
crate::engine::view_schema::simulate_shapes!(TmdEncounterSimulateArgs, TmdEncounterNewArgs);
