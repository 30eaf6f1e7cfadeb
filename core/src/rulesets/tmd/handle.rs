//! The TMD encounter as an [`Engine`]: `tmd.Encounter`.

use crate::dice::Dice;
use crate::engine::{no_data, Created, Engine};
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

    fn apply(_: &(), s: &mut TmdEncounterState, a: &TmdAction, _: TmdCost, dice: &mut Dice) -> Result<Value> {
        Ok(encounter::commit(s, a, dice)?.to_json())
    }

    fn listed(_: &(), _: &TmdEncounterState, a: TmdAction, cost: TmdCost) -> TmdLegalAction {
        TmdLegalAction { action: a, cost }
    }

    fn actor(a: &TmdAction) -> Option<&str> {
        a.character()
    }

    /// Character ids.
    fn actors(s: &TmdEncounterState) -> Vec<&str> {
        s.characters.iter().map(|c| c.id.as_str()).collect()
    }

    fn listed_action(l: &TmdLegalAction) -> Result<TmdAction> {
        Ok(l.action.clone())
    }

    /// The encounter is over once it has been ended (`end_encounter`).
    fn outcome(_: &(), s: &TmdEncounterState) -> Value {
        if s.phase == TmdPhase::Ended {
            json!({"reason": "ended", "round": s.round})
        } else {
            Value::Null
        }
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
    crate::tmd::encounter::TmdEvent,
    String,
    "A character's id or a side's name; absent or null: the GM.",
    crate::tmd::encounter::TmdEncounterState,
    "The state: TMD hides nothing from a viewer, so it is the state unchanged.",
    crate::tmd::encounter::TmdEvent
);
