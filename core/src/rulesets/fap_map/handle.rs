//! The FAP/MAP round as an [`Engine`]: `fap_map.Round`. Its action pack is the
//! context: given once to `create` (or `load`), kept beside the state.

use crate::dice::Dice;
use crate::engine::{json_name, Created, Engine, Turn, TurnActive};
use crate::error::Result;
use crate::fap_map::catalog::{self, FmActionPack};
use crate::fap_map::round::{
    self, FmLegalAction, FmPhase, FmRoundAction, FmRoundNewArgs, FmRoundState, FmStatus,
};
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
    type Events = Vec<round::FmLoggedEvent>;

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

    fn apply(
        ctx: &Pack,
        s: &mut FmRoundState,
        a: &FmRoundAction,
        _: (),
        dice: &mut Dice,
    ) -> Result<Vec<round::FmLoggedEvent>> {
        round::commit(s, &ctx.pack, a, dice)
    }

    /// With its FAP and MAP cost (amounts that may be chosen at their minimum).
    fn listed(ctx: &Pack, s: &FmRoundState, a: FmRoundAction, _: ()) -> FmLegalAction {
        round::listed(s, &ctx.pack, a)
    }

    fn actor(a: &FmRoundAction) -> Option<&str> {
        a.actor()
    }

    fn actors(s: &FmRoundState) -> Vec<&str> {
        Self::viewers(s)
    }

    fn listed_action(l: &FmLegalAction) -> Result<FmRoundAction> {
        Ok(l.action.clone())
    }

    /// FM-DEF-4: in the declaration phase everyone declares, then `end_declarations`;
    /// FM-DEF-3: in the resolution phase the first in the action order acts, then
    /// `end_round` once nobody has a declared action left; FM-ACT-8 / FM-ACT-12: while a
    /// move or attack is being resolved, those holding a declared (or readied) block
    /// against it may block it first (not its actor, not one who already tried); while an
    /// attack with damage is resolved, each target that has not answered it acts in stage
    /// `reaction` (Evade, Jump evasion or `take_hit`, RULINGS 2026-12-05) and nothing
    /// else resolves until they have (FM-DEF-1).
    fn turn(ctx: &Pack, s: &FmRoundState) -> Turn {
        let mut active = Vec::new();
        let waiting: Vec<&String> = s.attack.as_ref().map(|x| x.waiting().collect()).unwrap_or_default();
        match s.phase {
            FmPhase::Declaration => {
                active.extend(s.combatants.iter().map(|c| TurnActive::of(&c.id, "declare")));
                active.push(TurnActive::step("end_declarations"));
            }
            FmPhase::Resolution => {
                if let Some(w) = s.window.as_ref().filter(|w| !w.blocked) {
                    let once = ctx.pack.get(&w.block_action).is_some_and(|b| b.once_per_target_action);
                    let holds_block = |c: &&round::FmCombatant| {
                        c.declared
                            .iter()
                            .any(|d| d.status == FmStatus::Pending && d.declaration.action == w.block_action)
                            || c.readied.as_ref().is_some_and(|r| r.paired.action == w.block_action)
                    };
                    active.extend(
                        s.combatants
                            .iter()
                            .filter(|c| c.id != w.actor && !(once && w.blockers.contains(&c.id)))
                            .filter(holds_block)
                            .map(|c| TurnActive::of(&c.id, "block")),
                    );
                }
                active.extend(waiting.iter().map(|t| TurnActive::of(t, "reaction")));
                if waiting.is_empty() {
                    active.push(match round::engine::current(s, &ctx.pack) {
                        Some(c) => TurnActive::of(&c, "turn"),
                        None => TurnActive::step("end_round"),
                    });
                }
            }
        }
        // FM-DEF-3: the action order of those with declared actions left.
        let settled = round::engine::order(s, &ctx.pack);
        let order = crate::engine::settled_first(
            settled.iter().map(|e| e.combatant.as_str()),
            s.combatants.iter().map(|c| c.id.as_str()),
        );
        Turn {
            round: s.round,
            phase: json_name(&s.phase),
            active,
            order,
            outcome: Self::outcome(ctx, s),
            ..Turn::default()
        }
    }

    /// With HP tracked (some combatant has `hp`), the fight is over when the combatants
    /// of every side but one are down (HP 0 or less; a combatant without HP is never down):
    /// `{side, winner, down, rule, round}` (`side` and `winner` null when nobody stands).
    /// The seed has no end of a fight (damage and HP are its game's): `rule` names FM-DEF-1,
    /// the resolution whose damage ended it. Without HP the fight ends when the GM says so
    /// (null).
    fn outcome(_: &Pack, s: &FmRoundState) -> Value {
        round::engine::outcome(s).to_json()
    }

    /// `hp` of the combatants that track it.
    fn hp(s: &FmRoundState) -> Vec<(&str, i64)> {
        s.combatants.iter().filter_map(|c| Some((c.id.as_str(), c.hp?))).collect()
    }

    /// FM-DEF-1: the damage each answer to an attack (Evade, Jump evasion, `take_hit`)
    /// took, dealt by the attack's actor (the event's `target`).
    #[cfg(feature = "simulate")]
    fn damage_dealt(events: &Value) -> Option<Vec<(String, String, i64)>> {
        let hits = events.as_array().into_iter().flatten();
        Some(
            hits.filter_map(|e| crate::engine::simulate::hit_of(e, "target", "combatant", "damage_taken"))
                .collect(),
        )
    }

    /// A declared action the pack marks `attack`.
    #[cfg(feature = "simulate")]
    fn attacks(ctx: &Pack, a: &FmRoundAction) -> bool {
        match a {
            FmRoundAction::Declare { declaration, .. } => {
                ctx.pack.get(&declaration.action).is_some_and(|x| x.attack)
            }
            _ => false,
        }
    }

    /// Those whose tracked HP is 0 or less.
    fn down(s: &FmRoundState) -> Option<Vec<&str>> {
        Some(s.combatants.iter().filter(|c| c.down()).map(|c| c.id.as_str()).collect())
    }

    /// A combatant's side, as the setup gave it (absent: none; `outcome` counts it as a
    /// side of its own).
    fn side<'a>(s: &'a FmRoundState, id: &str) -> Option<&'a str> {
        s.combatants.iter().find(|c| c.id == id)?.side.as_deref()
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
    crate::fap_map::round::FmLoggedEvent,
    String,
    "A combatant's id; absent or null: the GM.",
    crate::fap_map::round::FmRoundState,
    "The state: the round hides nothing from a viewer, so it is the state unchanged.",
    crate::fap_map::round::FmLoggedEvent,
    data: Value
);

#[cfg(feature = "schema")]
crate::engine::view_schema::turn_shapes!(
    FmRoundTurnArgs,
    crate::fap_map::round::FmRoundState,
    String,
    "A combatant's id; absent or null: the GM.",
    data: Value
);
#[cfg(all(feature = "schema", feature = "simulate"))]
crate::engine::view_schema::simulate_shapes!(FmRoundSimulateArgs, FmRoundNewArgs);
