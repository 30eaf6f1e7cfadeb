//! The FAP/MAP round as an [`Engine`]: `fap_map.Round`. Its action pack is the
//! context: given once to `create` (or `load`), kept beside the state.

use crate::dice::Dice;
use crate::engine::{Created, Engine};
use crate::error::Result;
use crate::fap_map::catalog::{self, FmActionPack};
use crate::fap_map::round::{self, FmLegalAction, FmRoundAction, FmRoundNewArgs, FmRoundState};
use crate::json::ToJson;
use serde_json::Value;
use std::sync::Arc;

/// `fap_map.Round` (`fap_map.round_new` / `round_legal_actions` / `round_act`).
pub struct Round;

/// The pack in use, and the `data` it came from (None: the built-in pack).
#[derive(Clone)]
pub struct Pack {
    pub(crate) pack: Arc<FmActionPack>,
    pub(crate) data: Option<Value>,
}

impl Engine for Round {
    const HANDLE: &'static str = "fap_map.Round";
    const OPS: [&'static str; 3] = ["fap_map.round_new", "fap_map.round_legal_actions", "fap_map.round_act"];
    type Setup = FmRoundNewArgs;
    type State = FmRoundState;
    type Action = FmRoundAction;
    type Ctx = Pack;
    type Cache = ();
    type Listed = FmLegalAction;
    type Checked = ();

    fn create(setup: &FmRoundNewArgs) -> Result<Created<Self>> {
        let r = round::round_new(setup)?;
        let pack = catalog::load(setup.data.as_ref())?;
        Ok(Created {
            ctx: Pack { pack, data: setup.data.clone() },
            state: r.state,
            events: r.events.to_json(),
            rolls: Vec::new(),
        })
    }

    fn load(state: &Value, data: Option<&Value>) -> Result<(Pack, FmRoundState)> {
        let pack = catalog::load(data)?;
        let s = round::parse_state(state, &pack)?;
        Ok((Pack { pack, data: data.cloned() }, s))
    }

    fn save_ctx(ctx: &Pack) -> Option<Value> {
        ctx.data.clone()
    }

    fn candidates(ctx: &Pack, s: &FmRoundState) -> Vec<FmRoundAction> {
        round::candidates(s, &ctx.pack)
    }

    fn check(ctx: &Pack, s: &FmRoundState, a: &FmRoundAction) -> Result<()> {
        round::engine::check(s, &ctx.pack, a)
    }

    fn apply(ctx: &Pack, s: &mut FmRoundState, a: &FmRoundAction, _: (), _: &mut Dice) -> Result<Value> {
        Ok(round::commit(s, &ctx.pack, a)?.to_json())
    }

    /// With its FAP and MAP cost (amounts that may be chosen at their minimum).
    fn listed(ctx: &Pack, s: &FmRoundState, a: FmRoundAction, _: ()) -> FmLegalAction {
        round::listed(s, &ctx.pack, a)
    }

    fn actor(a: &FmRoundAction) -> Option<&str> {
        a.combatant()
    }

    fn actors(s: &FmRoundState) -> Vec<&str> {
        Self::viewers(s)
    }

    fn listed_action(l: &FmLegalAction) -> Result<FmRoundAction> {
        Ok(l.action.clone())
    }

    /// A round has no end of its own (the GM's call).
    fn outcome(_: &Pack, _: &FmRoundState) -> Value {
        Value::Null
    }

    /// Combatant ids. Nothing is hidden (the default view): declarations are spoken at
    /// the start of the round (FM-DEF-4 発言), not written down secretly.
    fn viewers(s: &FmRoundState) -> Vec<&str> {
        s.combatants.iter().map(|c| c.id.as_str()).collect()
    }

    #[cfg(test)]
    fn probes(ctx: &Pack, s: &FmRoundState, _: &mut crate::dice::prng::Prng) -> Vec<FmRoundAction> {
        round::probe_candidates(s, &ctx.pack)
    }
}

#[cfg(feature = "schema")]
crate::engine::view_schema::view_shapes!(
    FmRoundViewArgs, FmRoundViewResult,
    crate::fap_map::round::FmRoundState,
    crate::fap_map::round::FmEvent,
    String,
    "A combatant's id; absent or null: the GM.",
    crate::fap_map::round::FmRoundState,
    "The state: the round hides nothing from a viewer, so it is the state unchanged.",
    crate::fap_map::round::FmEvent,
    data: Value
);
