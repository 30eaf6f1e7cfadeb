//! One engine model for the five combat engines, and native game handles over it.
//!
//! Each combat engine — World Trigger battle, TMD encounter, CoC 6th AP round,
//! CoC 7th house round and chase, FAP/MAP round — implements [`Engine`]: a
//! setup builds a state; the state lists its legal actions; an action applied to
//! the state gives the new state, its events and the dice it rolled. The pure
//! JSON operations (`<module>.<x>_new`, `<x>_legal_actions`, `<x>_act`) and the
//! handles ([`Session`]) are two ways to drive the same functions, so they give
//! the same states and events for the same seeds (the harness in
//! `rulesets/harness.rs` checks it game by game).
//!
//! A [`Session`] keeps the state native between calls: a host that plays many
//! actions pays for JSON only for what crosses (the action in, the events out),
//! not for the whole state twice per action. It also keeps the last
//! [`MAX_UNDO`] states, so a GM can take an action back.
//!
//! The bindings see sessions through one type-erased object, [`Game`], driven
//! by method name with JSON arguments ([`Game::call`]), so each binding has one
//! native class and the per-engine classes (`world_trigger.Battle`, …) are
//! generated from [`handles`].

// Each ruleset's engines implement [`Engine`] in its own `handle` module; only `handles`
// (the composition root's list) depends on the ruleset features.
#[cfg(feature = "simulate")]
pub mod simulate;
#[cfg(feature = "schema")]
pub(crate) mod view_schema;

pub use crate::kernel::ids;

use crate::dice::{Dice, Roll, ScriptedFace};
use crate::error::quote;
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, RawJson, ToJson};
use serde_json::{Map, Value};
use std::sync::Arc;

/// How many earlier states a session keeps for [`Session::undo`].
pub const MAX_UNDO: usize = 100;

/// What a new game starts with.
pub struct Created<E: Engine> {
    /// Context kept beside the state (FAP/MAP: the action pack).
    pub ctx: E::Ctx,
    /// The first state.
    pub state: E::State,
    /// What happened while setting up (a JSON array).
    pub events: Value,
    /// Dice rolled while setting up.
    pub rolls: Vec<Roll>,
}

/// Whose move it is: what the `turn` handle method and `<module>.<x>_turn` operation
/// return (`{round, phase, active: [{id, stage}], order, outcome, roster, viewers}`).
/// [`Engine::turn`] gives the first five; the generic layer adds `roster` and `viewers`.
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Turn {
    /// The round now, as the state counts it (TMD: 0 is the surprise round).
    pub round: u32,
    /// The phase now, in the state's own words (World Trigger `tactics`, TMD `delays`,
    /// FAP/MAP `declaration` / `resolution`; `round` for the CoC rounds, `chase` /
    /// `escaped` / `caught` for a chase).
    pub phase: String,
    /// Who may act now, in the order they are asked; empty once the game is over.
    pub active: Vec<TurnActive>,
    /// Everyone who takes turns, by the acting key (team ids in World Trigger), in the
    /// order the rules have them act now (an initiative tracker's rows): World Trigger's
    /// team initiative order (reversed in the Movement phase), TMD's initiative order,
    /// the CoC rounds' DEX order, FAP/MAP's action order. Those whose place is not
    /// settled (before initiative is rolled; FAP/MAP combatants with no declared action
    /// left) follow in the state's order.
    pub order: Vec<String>,
    /// How the game ended, as [`Engine::outcome`] gives it; `null` while it goes on.
    pub outcome: Value,
    /// Everyone in the game, in one vocabulary for every engine ([`Engine::roster`]):
    /// what a host's tracker shows beside `order`.
    pub roster: Vec<RosterEntry>,
    /// Every viewer the view operations take (`view`, `turn_for`, a listing's `viewer`),
    /// each once ([`Engine::viewers`]): World Trigger's team ids, TMD's character ids and
    /// sides, the other engines' combatant ids. A player's viewer is their combatant's id
    /// where that is a viewer, else its `side` in the roster.
    pub viewers: Vec<String>,
}

/// One entry of [`Turn::roster`]: a combatant (World Trigger: a member) as every engine
/// names it.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RosterEntry {
    /// Its id, as the actions name it (`actor`).
    pub id: String,
    /// The side it fights for (World Trigger: its team's id); `null` where the setup
    /// gave it none.
    pub side: Option<String>,
    /// Its hit points now, where the engine tracks them; `null` otherwise.
    pub hp: Option<i64>,
    /// Out of the fight: down, unconscious, dead, bailed out.
    pub down: bool,
}

/// One entry of [`Turn::active`].
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TurnActive {
    /// Who: a combatant's id, as the actions name it (the acting key,
    /// [`Engine::actor`]) — in a World Trigger phase, where a team acts, the team's
    /// id; `null` for a round-level or GM step.
    pub id: Option<String>,
    /// How they act: `turn` (their own turn, or their team's), `declare` (FAP/MAP's
    /// declarations), `delay` (TMD's delay declarations), `reaction` (World Trigger: a
    /// target of the pending attack; `id` null for a viewer who may not see it), `block` (FAP/MAP: the move or attack being
    /// resolved may be blocked), `interrupt` (TMD: the announced action may be
    /// interrupted). For a round-level step (`id` null) the action it waits for:
    /// `roll_initiative`, `begin_combat`, `start_turns`, `resolve`, `end_declarations`,
    /// `end_round`, `next_round`, `round` (a chase round).
    pub stage: String,
}

/// [`Turn::order`]: the ids whose place is settled, in their order, then every other
/// id of `all` in its order.
pub fn settled_first<'a>(
    settled: impl IntoIterator<Item = &'a str>,
    all: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    let mut order: Vec<String> = settled.into_iter().map(str::to_string).collect();
    for id in all {
        if !order.iter().any(|o| o == id) {
            order.push(id.to_string());
        }
    }
    order
}

impl TurnActive {
    /// `id` acting in `stage`.
    pub fn of(id: &str, stage: &str) -> Self {
        TurnActive { id: Some(id.to_string()), stage: stage.to_string() }
    }
    /// A round-level step waiting for `action`.
    pub fn step(action: &str) -> Self {
        TurnActive { id: None, stage: action.to_string() }
    }
}

/// One combat engine: state, action, event, legal listing, apply.
pub trait Engine: 'static {
    /// The handle's name: `<module>.<Class>` (`world_trigger.Battle`).
    const HANDLE: &'static str;
    /// The three pure operations the handle mirrors: new, legal actions, act.
    const OPS: [&'static str; 3];
    /// The setup (the `new` operation's arguments).
    type Setup: FromJson + ToJson + crate::json::SerdeIn + crate::json::SerdeOut;
    /// The serializable state.
    type State: Clone + PartialEq + ToJson + Send + Sync;
    /// One action.
    type Action: Clone + FromJson + ToJson + Send + Sync;
    /// What is kept beside the state but not in it (a data pack); `()` for most.
    type Ctx: Clone + Send + Sync;
    /// Reusable buffers for listing (World Trigger keeps its route searches).
    type Cache: Default + Send + Sync;
    /// One listed action (`{"action": …, …cost}` as JSON), kept typed until read.
    type Listed: ToJson + Clone + Send + Sync;
    /// What [`apply`](Self::apply) reports: the action's events (a JSON array, each
    /// with its rule and sentence), kept typed until they cross, and then written
    /// straight to JSON text ([`ToJson::write_json`]) without a `Value` of them.
    type Events: ToJson;

    /// A new game from its setup (which may carry its own `seed` / `rolls`).
    fn create(setup: &Self::Setup) -> Result<Created<Self>>
    where
        Self: Sized;
    /// A saved state (untrusted: parsed and validated), with its context
    /// (`data`: FAP/MAP's action pack, if one was given to `new`).
    fn load(state: &Value, data: Option<&Value>) -> Result<(Self::Ctx, Self::State)>;
    /// The context as `data` for [`load`](Self::load) (None: nothing to keep).
    fn save_ctx(_ctx: &Self::Ctx) -> Option<Value> {
        None
    }
    /// What [`check`](Self::check) found out about an action that [`apply`](Self::apply)
    /// and [`listed`](Self::listed) use (the member and skill it names, what it costs):
    /// the plan computed from the state before anything changes; `()` where nothing is
    /// carried.
    type Checked;

    /// Every action worth offering now, legal or not: what the listing
    /// ([`listing`](Self::listing)) passes through [`check`](Self::check). An action
    /// with a value the caller chooses is offered at its default.
    fn candidates(ctx: &Self::Ctx, s: &Self::State) -> Vec<Self::Action>;
    /// Whether `a` may be taken now, decided from the state alone: pure (no copy of
    /// the state, no dice), so a refused action changes nothing by construction.
    /// Refusals are exactly [`apply`](Self::apply)'s: `illegal_action` naming the rule,
    /// or `invalid_argument` / `out_of_range` / `limit_exceeded` naming the field.
    fn check(ctx: &Self::Ctx, s: &Self::State, a: &Self::Action) -> Result<Self::Checked>;
    /// Apply `a`, which [`check`](Self::check) accepted with `c`, in place: its events.
    /// It fails only where the check cannot know in advance — scripted
    /// dice running out, or an internal error — and may then leave the state part-way
    /// changed (a [`Session`] rebuilds it).
    fn apply(
        ctx: &Self::Ctx,
        s: &mut Self::State,
        a: &Self::Action,
        c: Self::Checked,
        dice: &mut Dice,
    ) -> Result<Self::Events>;
    /// The listed item of an action [`check`](Self::check) accepted with `c`
    /// (`{"action": …, …cost}` exactly as the pure legal-actions operation lists it).
    fn listed(ctx: &Self::Ctx, s: &Self::State, a: Self::Action, c: Self::Checked) -> Self::Listed;
    /// Who takes `a` (the acting key): a combatant's id (a team's in World Trigger),
    /// or `None` for a round-level or GM action, which every actor's listing includes.
    fn actor(a: &Self::Action) -> Option<&str>;
    /// The ids [`actor`](Self::actor) may name: the `actor` argument of a listing must
    /// be one of them.
    fn actors(s: &Self::State) -> Vec<&str>;
    /// Every legal action now, each `{"action": …, …cost}` exactly as the pure
    /// legal-actions operation lists it; `actor` keeps those it takes (and those naming
    /// nobody). By default: the [`candidates`](Self::candidates) that pass
    /// [`check`](Self::check), each made an item by [`listed`](Self::listed) — no copy
    /// of the state per candidate. An engine that finds its legal actions faster than by
    /// checking candidates (World Trigger searches the routes once per mover) overrides
    /// it; the harness checks that its items pass `check`.
    ///
    /// `viewer` (as [`redact`](Self::redact) takes it; `None`: the GM): the listing as
    /// that viewer may know it — no item names what is hidden from it, and no item is
    /// there or missing because of what is hidden. By default nothing is hidden: the
    /// viewer is only checked against [`viewers`](Self::viewers) and the listing is the
    /// GM's. An engine whose rules hide something overrides it (World Trigger, WT-ST-1).
    fn listing(
        ctx: &Self::Ctx,
        _cache: &mut Self::Cache,
        s: &Self::State,
        actor: Option<&str>,
        viewer: Option<&Value>,
    ) -> Result<Vec<Self::Listed>> {
        if let Some(v) = viewer {
            named_viewer(v, &Self::viewers(s))?;
        }
        if let Some(who) = actor {
            if !Self::actors(s).contains(&who) {
                return Err(Error::invalid("actor", "no such character"));
            }
        }
        Ok(Self::candidates(ctx, s)
            .into_iter()
            .filter(|a| actor.is_none() || Self::actor(a).is_none_or(|w| Some(w) == actor))
            .filter_map(|a| {
                let c = Self::check(ctx, s, &a).ok()?;
                Some(Self::listed(ctx, s, a, c))
            })
            .collect())
    }
    /// The handles' `legal_actions {actor?, kind?, compact?}`: [`listing`](Self::listing)
    /// as JSON, `kind` keeping the actions of that `type`; `compact` gives
    /// `{actions, moves?}` (World Trigger lists its moves apart, as squares with their
    /// costs and routes; the other engines have no moves to compact: `{actions}`).
    #[allow(clippy::too_many_arguments)]
    fn listing_json(
        ctx: &Self::Ctx,
        cache: &mut Self::Cache,
        s: &Self::State,
        actor: Option<&str>,
        kind: Option<&str>,
        compact: bool,
        viewer: Option<&Value>,
    ) -> Result<Value> {
        let of_kind = |v: &Value| {
            kind.is_none_or(|k| {
                v.get("action").and_then(|a| a.get("type")).and_then(Value::as_str) == Some(k)
            })
        };
        let items: Vec<Value> = Self::listing(ctx, cache, s, actor, viewer)?
            .iter()
            .map(ToJson::to_json)
            .filter(of_kind)
            .collect();
        Ok(if compact { crate::json::single("actions", Value::Array(items)) } else { Value::Array(items) })
    }
    /// Whose move it is (pure, from the state alone): the round, the phase, who may act
    /// now with the stage they act in, the order and the outcome (see [`Turn`]). `roster`
    /// and `viewers` are left empty (`..Turn::default()`): [`Session::turn`] fills them
    /// from [`roster`](Self::roster) and [`viewers`](Self::viewers).
    fn turn(ctx: &Self::Ctx, s: &Self::State) -> Turn;
    /// [`turn`](Self::turn) as `viewer` (as [`redact`](Self::redact) takes it) may know
    /// it: no entry names what is hidden from it. By default nothing is hidden: the
    /// viewer is only checked against [`viewers`](Self::viewers). An engine whose rules
    /// hide something overrides it (World Trigger, WT-ST-1).
    fn turn_for(ctx: &Self::Ctx, s: &Self::State, viewer: &Value) -> Result<Turn> {
        named_viewer(viewer, &Self::viewers(s))?;
        Ok(Self::turn(ctx, s))
    }
    /// How the game ended (`null` while it goes on, and for engines without an end).
    fn outcome(ctx: &Self::Ctx, s: &Self::State) -> Value;
    /// Each participant's hit points now, as (`id`, `hp`), for engines that track
    /// them (none by default). The harness checks that HP never rises but through an
    /// event whose `rule` is one of [`HEALING_RULES`](Self::HEALING_RULES).
    fn hp(_s: &Self::State) -> Vec<(&str, i64)> {
        Vec::new()
    }
    /// The rule IDs whose events may raise a participant's HP (treatment, first aid).
    const HEALING_RULES: &'static [&'static str] = &[];
    /// The damage an action dealt, read from its events (the array
    /// [`apply`](Self::apply) returned): `(source, target, amount)` for each amount of
    /// damage taken, `source` being the participant whose attack (or answering blow)
    /// dealt it. The simulations sum it per member (`damage_dealt`). `None` (the
    /// default): the engine attributes no damage.
    #[cfg(feature = "simulate")]
    fn damage_dealt(_events: &Value) -> Option<Vec<(String, String, i64)>> {
        None
    }
    /// Whether `a` attacks (declares an attack, or answers one with a blow of its own):
    /// the `aggressive` simulation policy prefers such actions. False by default.
    #[cfg(feature = "simulate")]
    fn attacks(_ctx: &Self::Ctx, _a: &Self::Action) -> bool {
        false
    }
    /// The participants out of the fight now (down, unconscious, bailed out), for
    /// engines that know; `None` (the default): the engine has no such notion.
    fn down(_s: &Self::State) -> Option<Vec<&str>> {
        None
    }
    /// The side `id` fights for (World Trigger: its team), if the setup gave one.
    fn side<'a>(_s: &'a Self::State, _id: &str) -> Option<&'a str> {
        None
    }
    /// Everyone in the game ([`Turn::roster`]), in the state's order: each of
    /// [`actors`](Self::actors) with its [`side`](Self::side), [`hp`](Self::hp) and
    /// whether it is [`down`](Self::down).
    fn roster(s: &Self::State) -> Vec<RosterEntry> {
        let hp = Self::hp(s);
        let down = Self::down(s).unwrap_or_default();
        Self::actors(s)
            .into_iter()
            .map(|id| RosterEntry {
                id: id.to_string(),
                side: Self::side(s, id).map(str::to_string),
                hp: hp.iter().find(|(h, _)| *h == id).map(|(_, n)| *n),
                down: down.contains(&id),
            })
            .collect()
    }
    /// The action of a listed item, as [`apply`](Self::apply) takes it. By default read
    /// back from the item's JSON (`{"action": …}`); engines whose listed type holds the
    /// action typed return a copy of it.
    fn listed_action(l: &Self::Listed) -> Result<Self::Action> {
        let v = l.to_json();
        crate::json::from_value(&v["action"]).map_err(|e| {
            Error::new(ErrorCode::Internal, format!("a listed action does not read back: {}", e.message))
        })
    }
    /// Candidate actions for the harness: legal or not, they are tried and
    /// those not listed must be refused.
    /// True when `a` carries a value the caller chooses and the listing gives
    /// only at its default (tactics dice, a Trion Burst, a free AP cost): the
    /// harness then accepts it although it is not listed as it is.
    #[cfg(test)]
    fn caller_chosen(_a: &Self::Action) -> bool {
        false
    }
    #[cfg(test)]
    fn probes(ctx: &Self::Ctx, s: &Self::State, rng: &mut crate::dice::prng::Prng) -> Vec<Self::Action>;
    /// The names a `viewer` of [`redact`](Self::redact) may give: each combatant's id
    /// (and each side's, where the state has sides).
    fn viewers(s: &Self::State) -> Vec<&str>;
    /// Hidden information: remove from `view` (the state `s` as JSON), from `events`
    /// (the events of the last action, which led to `s`) and from `action` (that action)
    /// what `viewer` may not see, leaving the rest in the state's shape. The GM (no viewer) sees everything and
    /// never comes here. By default nothing is hidden: the viewer is only checked
    /// against [`viewers`](Self::viewers). An engine whose rules hide something
    /// overrides it (World Trigger: Stealth, WT-ST-1).
    fn redact(
        _ctx: &Self::Ctx,
        s: &Self::State,
        viewer: &Value,
        _view: &mut Value,
        _events: Option<&mut Vec<Value>>,
        _action: Option<&mut Value>,
    ) -> Result<()> {
        named_viewer(viewer, &Self::viewers(s))
    }
}

/// A `viewer` that is one of `names`, else `invalid_argument` naming `viewer`.
#[inline(never)]
fn named_viewer(viewer: &Value, names: &[&str]) -> Result<()> {
    match viewer.as_str() {
        Some(v) if names.contains(&v) => Ok(()),
        _ => Err(Error::invalid("viewer", "names nobody in this game (null: the GM)")),
    }
}

/// `events` as [`Engine::redact`] takes it: an array of event objects.
fn view_events(events: Option<Value>) -> Result<Option<Vec<Value>>> {
    match events {
        None => Ok(None),
        Some(Value::Array(a)) if a.iter().all(Value::is_object) => Ok(Some(a)),
        Some(_) => Err(Error::invalid("events", "must be an array of event objects")),
    }
}

/// `{state, events?, action?}`: the state (and `events`, `action`: the last action's)
/// as `viewer` may see them, as the handles and the view operations return it.
/// Type-erased, so the wasm carries one copy; only [`Engine::redact`] is per engine.
fn view_of(g: &dyn AnyGame, viewer: Option<&Value>, a: &mut Map<String, Value>) -> Result<Value> {
    let mut events = view_events(a.remove("events"))?;
    let mut action = a.remove("action");
    if action.as_ref().is_some_and(|x| !x.is_object()) {
        return Err(Error::invalid("action", "must be an action object"));
    }
    let mut state = g.state();
    if let Some(v) = viewer {
        g.redact(v, &mut state, events.as_mut(), action.as_mut())?;
    }
    let mut m = Map::new();
    m.insert("state".into(), state);
    if let Some(e) = events {
        m.insert("events".into(), Value::Array(e));
    }
    if let Some(x) = action {
        m.insert("action".into(), x);
    }
    Ok(Value::Object(m))
}

/// The pure `<module>.<x>_view` operation of `handle`: `{state, viewer?, events?,
/// data?}` → `{state, events?}`. The state is loaded as a handle loads it and viewed
/// through the handle's `view` (one path, type-erased: the wasm carries no copy per
/// engine beyond [`Engine::redact`]).
pub(crate) fn view_call(h: HandleDef, args: Value) -> Result<Value> {
    let mut a = object(args)?;
    only(&a, &["state", "viewer", "events", "action", "data"])?;
    let state = a.get("state").ok_or_else(|| Error::invalid("state", "required"))?;
    let g = (h.load)(state, a.get("data"))?;
    let viewer = a.remove("viewer");
    view_of(g.as_ref(), viewer.as_ref(), &mut a)
}

/// Register engine `$engine`'s view operation ([`view_call`]); `$args`/`$res` only
/// document its shape in the catalog.
#[macro_export]
#[doc(hidden)]
macro_rules! view_op {
    ($name:literal, $engine:ty, $args:ty => $res:ty, $summary:literal) => {
        $crate::engine_op!(
            $name,
            |v| $crate::engine::view_call($crate::engine::def::<$engine>(), v),
            $args => $res,
            $summary
        )
    };
}

/// The pure `<module>.<x>_turn` operation of `handle`: `{state, viewer?, data?}` →
/// [`Turn`] (as `viewer` may know it, see [`Engine::turn_for`]). The state is loaded as
/// a handle loads it (one path, type-erased, as [`view_call`]).
pub(crate) fn turn_call(h: HandleDef, args: Value) -> Result<Value> {
    let a = object(args)?;
    only(&a, &["state", "viewer", "data"])?;
    let state = a.get("state").ok_or_else(|| Error::invalid("state", "required"))?;
    (h.load)(state, a.get("data"))?.turn(a.get("viewer"))
}

/// Register engine `$engine`'s turn operation ([`turn_call`]); `$args` (declared with
/// `turn_shapes!`) only documents its arguments in the catalog.
#[macro_export]
#[doc(hidden)]
macro_rules! turn_op {
    ($name:literal, $engine:ty, $args:ty, $summary:literal) => {
        $crate::engine_op!(
            $name,
            |v| $crate::engine::turn_call($crate::engine::def::<$engine>(), v),
            $args => $crate::engine::Turn,
            $summary
        )
    };
}

/// The pure `<module>.<x>_new` operation of engine `E`: its setup (read as every
/// operation reads its arguments) → `{state, events, rolls}`, the first state as
/// [`Engine::create`] makes it (a handle's `create` makes the same).
pub(crate) fn new_call<E: Engine>(args: Value) -> Result<Value> {
    let c = E::create(&crate::ops::parse_args::<E::Setup>(args)?)?;
    let mut m = Map::new();
    m.insert("state".into(), c.state.to_json());
    m.insert("events".into(), c.events);
    m.insert("rolls".into(), c.rolls.to_json());
    Ok(Value::Object(m))
}

/// Register engine `$engine`'s new operation ([`new_call`]); `$args`/`$res` only
/// document its shape in the catalog.
#[macro_export]
#[doc(hidden)]
macro_rules! new_op {
    ($name:literal, $engine:ty, $args:ty => $res:ty, $summary:literal) => {
        $crate::engine_op!($name, |v| $crate::engine::new_call::<$engine>(v), $args => $res, $summary)
    };
}

/// The pure `<module>.<x>_legal_actions` operation of engine `E`: `{state, viewer?,
/// data?}` → `{actions}`, every legal action of the state (loaded as a handle loads it)
/// as `viewer` may know them ([`Engine::listing`], the handle's `legal_actions`).
pub(crate) fn legal_call<E: Engine>(args: Value) -> Result<Value> {
    let a = object(args)?;
    only(&a, &["state", "viewer", "data"])?;
    let state = a.get("state").ok_or_else(|| Error::invalid("state", "required"))?;
    let (ctx, s) = E::load(state, a.get("data"))?;
    let items = E::listing(&ctx, &mut E::Cache::default(), &s, None, a.get("viewer"))?;
    Ok(crate::json::single("actions", items.to_json()))
}

/// Register engine `$engine`'s legal-actions operation ([`legal_call`]); `$args`/`$res`
/// only document its shape in the catalog.
#[macro_export]
#[doc(hidden)]
macro_rules! legal_op {
    ($name:literal, $engine:ty, $args:ty => $res:ty, $summary:literal) => {
        $crate::engine_op!($name, |v| $crate::engine::legal_call::<$engine>(v), $args => $res, $summary)
    };
}

/// A pure operation's function.
#[cfg(test)]
pub(crate) type PureFn = fn(Value) -> Result<Value>;

/// The pure operations of engine `E` as the trait gives them — new, legal actions, act,
/// turn, view: what `new_op!`, `legal_op!`, `act_op!`, `turn_op!` and `view_op!`
/// register (an engine that writes its own registers that instead).
#[cfg(test)]
pub(crate) fn pure_ops<E: Engine>() -> [PureFn; 5] {
    [
        new_call::<E>,
        legal_call::<E>,
        act_call::<E>,
        |v| turn_call(def::<E>(), v),
        |v| view_call(def::<E>(), v),
    ]
}

/// The dice an action takes: the `seed` and `rolls` of `a` (taken out of it), read as
/// every rolling operation reads them ([`DiceArgs`](crate::dice::DiceArgs)).
fn dice_of(a: &mut Map<String, Value>) -> Result<Dice> {
    let mut m = Map::new();
    for key in ["seed", "rolls"] {
        if let Some(v) = a.remove(key) {
            m.insert(key.into(), v);
        }
    }
    crate::ops::parse_args::<crate::dice::DiceArgs>(Value::Object(m))?.dice()
}

/// An action argument, read as every operation reads its arguments (an integer outside
/// its field's range is `out_of_range`, anything else that does not read
/// `invalid_argument`, located under `action`).
fn read_action<E: Engine>(action: &Value) -> Result<E::Action> {
    let at = crate::json::At::Key(&crate::json::At::Root, "action");
    E::Action::from_json(action, &at).map_err(crate::ops::args_error)
}

/// The pure `<module>.<x>_act` operation of engine `E`: `{state, action, data?, seed?,
/// rolls?}` → `{state, events, rolls}`: the action read, then the dice, then the state
/// (and `data`, FAP/MAP's action pack) loaded as a handle loads it; the action is
/// checked and applied as a handle does ([`Engine::check`], then [`Engine::apply`]), on
/// the loaded copy.
pub(crate) fn act_call<E: Engine>(args: Value) -> Result<Value> {
    let mut a = object(args)?;
    only(&a, &["state", "action", "data", "seed", "rolls"])?;
    let action = a.remove("action").ok_or_else(|| Error::invalid("action", "required"))?;
    let action = read_action::<E>(&action)?;
    let mut dice = dice_of(&mut a)?;
    let state = a.get("state").ok_or_else(|| Error::invalid("state", "required"))?;
    let (ctx, mut state) = E::load(state, a.get("data"))?;
    let checked = E::check(&ctx, &state, &action)?;
    let events = E::apply(&ctx, &mut state, &action, checked, &mut dice)?.to_json();
    let mut out = events_and_rolls(events, &mut dice);
    if let Value::Object(m) = &mut out {
        m.insert("state".into(), state.to_json());
    }
    Ok(out)
}

/// Register engine `$engine`'s act operation ([`act_call`]); `$args`/`$res` only
/// document its shape in the catalog.
#[macro_export]
#[doc(hidden)]
macro_rules! act_op {
    ($name:literal, $engine:ty, $args:ty => $res:ty, $summary:literal) => {
        $crate::engine_op!($name, |v| $crate::engine::act_call::<$engine>(v), $args => $res, $summary)
    };
}

/// Declare engine `$args`: the arguments of its act operation, `{state, action, data?,
/// seed?, rolls?}` (what [`act_call`] reads and `act_op!` documents), with its doc
/// comment (its `rolls` line: which dice the actions roll) and the state's schema type.
#[macro_export]
#[doc(hidden)]
macro_rules! act_shapes {
    ($(#[$meta:meta])* $args:ident, $state:literal, $action:ty $(, data: $data:ty)?) => {
        $crate::engine_shape! { $crate::json::DeserializeFromJson;
        $(#[$meta])*
        #[serde(deny_unknown_fields)]
        pub struct $args {
            /// The current state, as the last operation returned it (untrusted: parsed
            /// and validated, `invalid_data` naming the field).
            #[schemars(with = $state)]
            pub state: serde_json::Value,
            /// The action.
            pub action: $action,
            $(
                /// The action pack given to `round_new`, if any.
                #[serde(default)]
                pub data: Option<$data>,
            )?
            /// `seed` or scripted `rolls`.
            #[serde(flatten)]
            pub source: $crate::dice::DiceArgs,
        }
        }
    };
}

/// Declare engine `$args` and `$res`: the arguments of its legal-actions operation,
/// `{state, viewer?, data?}` (what [`legal_call`] reads and `legal_op!` documents), and its
/// result `{actions}`, each with its doc comment; `$state` is the state's schema type,
/// `$who` says whom a viewer names, and the doc comment before `actions` what is listed.
#[macro_export]
#[doc(hidden)]
macro_rules! legal_shapes {
    (
        $(#[$am:meta])* $args:ident,
        $(#[$rm:meta])* $res:ident,
        $state:literal,
        $(#[$lm:meta])* actions: $listed:ty,
        viewer: $who:literal
        $(, data: $data:ty)?
    ) => {
        $crate::engine_shape! { serde::Deserialize;
        $(#[$am])*
        #[serde(deny_unknown_fields)]
        pub struct $args {
            /// The current state, as the last operation returned it (untrusted: parsed
            /// and validated, `invalid_data` naming the field).
            #[schemars(with = $state)]
            pub state: serde_json::Value,
            /// The viewer the listing is for, as the view operation takes it:
            #[doc = $who]
            /// Absent or null: the GM. These rules hide nothing, so it is the GM's
            /// listing; a viewer that names nobody is `invalid_argument`.
            #[serde(default)]
            #[schemars(with = "Option<String>")]
            pub viewer: Option<serde_json::Value>,
            $(
                /// The action pack given to `round_new`, if any.
                #[serde(default)]
                pub data: Option<$data>,
            )?
        }
        }

        $crate::engine_shape! { serde::Deserialize;
        $(#[$rm])*
        pub struct $res {
            $(#[$lm])*
            pub actions: Vec<$listed>,
        }
        }
    };
}

/// `$struct` with the derives of an operation's argument or result type (the JSON path,
/// its schema, serde), deserializing with `$de`: what `act_shapes!` and `legal_shapes!`
/// declare their types with.
#[macro_export]
#[doc(hidden)]
macro_rules! engine_shape {
    ($de:path; $(#[$m:meta])* pub struct $name:ident { $($body:tt)* }) => {
        #[derive(Debug, Clone, $crate::json::ToJson, $crate::json::FromJson)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, $de))]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        $(#[$m])*
        pub struct $name { $($body)* }
    };
}

/// The `OpDef` of an engine operation that reads its arguments as JSON (`$call`, on
/// the arguments `$v`); `$args`/`$res` only document its shape in the catalog.
#[macro_export]
#[doc(hidden)]
macro_rules! engine_op {
    ($name:literal, |$v:ident| $call:expr, $args:ty => $res:ty, $summary:literal) => {
        $crate::ops::OpDef {
            name: $name,
            #[cfg(feature = "schema")]
            summary: $summary,
            run: |$v| $call,
            write: |$v, out| $crate::ops::write_result($call, out),
            #[cfg(feature = "schema")]
            args_schema: |g| g.subschema_for::<$args>(),
            #[cfg(feature = "schema")]
            result_schema: |g| g.subschema_for::<$res>(),
        }
    };
}

/// A game in progress, its state kept native: the handle behind
/// `world_trigger.Battle` and the others.
pub struct Session<E: Engine> {
    ctx: E::Ctx,
    state: E::State,
    /// How the earlier states are kept for [`undo`](Self::undo): see [`History`].
    history: History<E>,
    cache: E::Cache,
    /// The last listings, by id (at most [`MAX_LISTINGS`]): a host reads their items
    /// one by one, also after later actions.
    listings: Vec<(u64, Arc<Vec<E::Listed>>)>,
    next_listing: u64,
    /// The newest listing made (by [`legal_actions`](Self::legal_actions) or
    /// [`open_listing`](Self::open_listing)) and what it lists: the state's version, the
    /// actor and the viewer. Asked again for the same, a session gives it again instead
    /// of listing anew: a host that lists on every redraw, or keeps several listings of
    /// one state, holds one copy.
    last: Option<(ListingKey, Arc<Vec<E::Listed>>)>,
    /// Changes whenever the state may change (an action applied, a state rebuilt).
    version: u64,
}

/// What a listing lists: the session's state version, the actor and the viewer.
type ListingKey = (u64, Option<String>, Option<Value>);

/// A copy of the state every [`CHECKPOINT_EVERY`] actions, and since the oldest copy
/// kept, each action with the faces it rolled. An earlier state (for `undo`, or to
/// take back an accepted action whose dice ran out part-way) is the
/// nearest copy before it with the actions after it replayed on their own faces: the
/// engines are functions of state, action and dice, so the replay gives the state
/// byte for byte (the harness checks it). An action is then applied in place, with no
/// copy of the whole state each time.
struct History<E: Engine> {
    /// `(position, state)`, oldest first; the oldest is at or before the lowest
    /// position `undo` may reach.
    checkpoints: std::collections::VecDeque<(usize, E::State)>,
    /// The actions from the oldest checkpoint's position on, with their faces.
    log: std::collections::VecDeque<(E::Action, Vec<ScriptedFace>)>,
    /// The position of the state now (actions taken since create/load, less those undone).
    at: usize,
    /// How many actions `undo` can take back now (at most [`MAX_UNDO`]).
    depth: usize,
    /// Set while an action is applied in place: if it is still set when the session
    /// is next used (a panic left the state half changed), the state is rebuilt.
    dirty: bool,
}

/// How often a session keeps a copy of the whole state (`History`).
pub const CHECKPOINT_EVERY: usize = 10;

/// How many listings a session keeps readable ([`Session::open_listing`]).
pub const MAX_LISTINGS: usize = 8;

impl<E: Engine> Session<E> {
    /// A new game; also returns the setup's events and dice.
    pub fn create(setup: &E::Setup) -> Result<(Self, Value, Vec<Roll>)> {
        let c = E::create(setup)?;
        Ok((Self::with(c.ctx, c.state), c.events, c.rolls))
    }

    /// A game from a saved state (validated).
    pub fn load(state: &Value, data: Option<&Value>) -> Result<Self> {
        let (ctx, s) = E::load(state, data)?;
        Ok(Self::with(ctx, s))
    }

    fn with(ctx: E::Ctx, state: E::State) -> Self {
        Session {
            ctx,
            state: state.clone(),
            history: History {
                checkpoints: std::iter::once((0, state.clone())).collect(),
                log: std::collections::VecDeque::new(),
                at: 0,
                depth: 0,
                dirty: false,
            },
            cache: E::Cache::default(),
            listings: Vec::new(),
            next_listing: 0,
            last: None,
            version: 0,
        }
    }

    /// The state now.
    pub fn state(&self) -> &E::State {
        &self.state
    }

    /// The context kept beside the state.
    pub fn ctx(&self) -> &E::Ctx {
        &self.ctx
    }

    /// Every legal action now (see [`Engine::listing`]; `viewer`: as that viewer may
    /// know them), as JSON.
    pub fn legal_actions(&mut self, actor: Option<&str>, viewer: Option<&Value>) -> Result<Vec<Value>> {
        Ok(self.listed(actor, viewer)?.iter().map(ToJson::to_json).collect())
    }

    /// The legal actions now for `actor` as `viewer` may know them: the newest listing
    /// when it lists the same (the state unchanged since), else a new one.
    fn listed(&mut self, actor: Option<&str>, viewer: Option<&Value>) -> Result<Arc<Vec<E::Listed>>> {
        if let Some(((version, a, v), l)) = &self.last {
            if *version == self.version && a.as_deref() == actor && v.as_ref() == viewer {
                return Ok(Arc::clone(l));
            }
        }
        let l = Arc::new(E::listing(&self.ctx, &mut self.cache, &self.state, actor, viewer)?);
        self.last = Some(((self.version, actor.map(String::from), viewer.cloned()), Arc::clone(&l)));
        Ok(l)
    }

    /// List the legal actions now and keep them (typed) under a new id: `(id, count)`.
    /// Their items are read with [`listing_item`](Self::listing_item), also after
    /// later actions, until [`MAX_LISTINGS`] newer listings were opened. Listings of
    /// the same state, actor and viewer share one copy.
    pub fn open_listing(&mut self, actor: Option<&str>, viewer: Option<&Value>) -> Result<(u64, usize)> {
        let l = self.listed(actor, viewer)?;
        let id = self.next_listing;
        self.next_listing += 1;
        let n = l.len();
        if self.listings.len() == MAX_LISTINGS {
            self.listings.remove(0);
        }
        self.listings.push((id, l));
        Ok((id, n))
    }

    fn listing(&self, id: u64) -> Result<&[E::Listed]> {
        self.listings.iter().find(|(i, _)| *i == id).map(|(_, l)| l.as_slice()).ok_or_else(|| {
            Error::invalid(
                "listing",
                format_args!(
                    "listing {id} is no longer kept (a session keeps its last {MAX_LISTINGS}): list again"
                ),
            )
        })
    }

    /// Listings `a` and `b` are one copy (the tests' view of the sharing).
    #[cfg(test)]
    pub(crate) fn same_listing(&self, a: u64, b: u64) -> bool {
        let find = |id: u64| self.listings.iter().find(|(i, _)| *i == id).map(|(_, l)| l);
        matches!((find(a), find(b)), (Some(x), Some(y)) if Arc::ptr_eq(x, y))
    }

    /// Item `i` of listing `id`, as JSON.
    pub fn listing_item(&self, id: u64, i: usize) -> Result<Value> {
        let l = self.listing(id)?;
        l.get(i)
            .map(ToJson::to_json)
            .ok_or_else(|| Error::out_of_range("index", format_args!("listing {id} has {} actions", l.len())))
    }

    /// Every item of listing `id`, as JSON.
    pub fn listing_items(&self, id: u64) -> Result<Value> {
        Ok(Value::Array(self.listing(id)?.iter().map(ToJson::to_json).collect()))
    }

    /// Apply one action: its events. An illegal action changes nothing.
    pub fn act(&mut self, action: &E::Action, dice: &mut Dice) -> Result<E::Events> {
        self.recover()?;
        // A refused action stops here: the check reads the state and changes nothing.
        let checked = E::check(&self.ctx, &self.state, action)?;
        let start = dice.rolls().len();
        self.history.dirty = true;
        self.version += 1;
        let applied = E::apply(&self.ctx, &mut self.state, action, checked, dice);
        let events = match applied {
            Ok(events) => events,
            Err(e) => {
                // Only what the check cannot foresee fails here — scripted dice running
                // out, an internal error — and the state may be part-way changed: it is
                // rebuilt from the last checkpoint.
                self.rebuild(self.history.at)?;
                return Err(e);
            }
        };
        self.history.dirty = false;
        let h = &mut self.history;
        let faces = dice.rolls()[start..]
            .iter()
            .map(|r| ScriptedFace::Roll {
                sides: Some(r.sides),
                value: i64::from(r.value),
                kind: Some(r.kind),
            })
            .collect();
        h.log.push_back((action.clone(), faces));
        h.at += 1;
        h.depth = (h.depth + 1).min(MAX_UNDO);
        if h.at % CHECKPOINT_EVERY == 0 {
            h.checkpoints.push_back((h.at, self.state.clone()));
        }
        // Drop the copies (and the actions before them) undo can no longer need.
        let floor = h.at - h.depth;
        while h.checkpoints.len() > 1 && h.checkpoints[1].0 <= floor {
            let (from, _) = h.checkpoints.pop_front().expect("two checkpoints");
            let to = h.checkpoints[0].0;
            h.log.drain(..to - from);
        }
        Ok(events)
    }

    /// The state at `position` (from the oldest checkpoint on, up to the log's end),
    /// rebuilt from the nearest checkpoint before it.
    fn rebuild(&mut self, position: usize) -> Result<()> {
        let h = &mut self.history;
        let Some(k) = h.checkpoints.iter().rposition(|(p, _)| *p <= position) else {
            return Err(Error::new(ErrorCode::Internal, "no checkpoint before the state to rebuild"));
        };
        let (from, cp) = &h.checkpoints[k];
        let (from, mut s) = (*from, cp.clone());
        let first = h.checkpoints[0].0;
        for (a, faces) in h.log.range(from - first..position - first) {
            let mut d = Dice::scripted(faces.clone())?;
            E::check(&self.ctx, &s, a).and_then(|c| E::apply(&self.ctx, &mut s, a, c, &mut d)).map_err(
                |e| {
                    Error::new(
                        ErrorCode::Internal,
                        format!("an earlier action did not replay: {}", e.message),
                    )
                },
            )?;
        }
        self.state = s;
        h.dirty = false;
        self.version += 1;
        Ok(())
    }

    /// After a panic in the middle of an action (caught by a binding), the state is
    /// rebuilt before the session is used again.
    pub fn recover(&mut self) -> Result<()> {
        if self.history.dirty {
            self.rebuild(self.history.at)?;
        }
        Ok(())
    }

    /// Apply item `i` of listing `id` (as [`act`](Self::act) would apply its action;
    /// refused as any action is if it is no longer legal, e.g. from an older listing).
    pub fn act_listed(&mut self, id: u64, i: usize, dice: &mut Dice) -> Result<E::Events> {
        let l = self.listing(id)?;
        let item = l.get(i).ok_or_else(|| {
            Error::out_of_range("index", format_args!("listing {id} has {} actions", l.len()))
        })?;
        let a = E::listed_action(item)?;
        self.act(&a, dice)
    }

    /// Take back the last action (up to [`MAX_UNDO`] of them).
    pub fn undo(&mut self) -> Result<()> {
        self.recover()?;
        if self.history.depth == 0 {
            return Err(Error::field(ErrorCode::InvalidArgument, "undo", "nothing to undo: no action taken since the game was created or loaded (or the last 100 were taken back)"));
        }
        let to = self.history.at - 1;
        self.rebuild(to)?;
        let h = &mut self.history;
        h.log.pop_back();
        h.at = to;
        h.depth -= 1;
        while h.checkpoints.back().is_some_and(|(p, _)| *p > to) {
            h.checkpoints.pop_back();
        }
        Ok(())
    }

    /// How many actions [`undo`](Self::undo) can take back now.
    pub fn undo_depth(&self) -> usize {
        self.history.depth
    }

    /// Whose move it is (see [`Engine::turn`]), with the roster and the viewers.
    pub fn turn(&self) -> Turn {
        self.with_people(E::turn(&self.ctx, &self.state))
    }

    /// Whose move it is as `viewer` may know it (`None`: the GM; see [`Engine::turn_for`]).
    pub fn turn_for(&self, viewer: Option<&Value>) -> Result<Turn> {
        match viewer {
            Some(v) => Ok(self.with_people(E::turn_for(&self.ctx, &self.state, v)?)),
            None => Ok(self.turn()),
        }
    }

    /// `t` with [`Turn::roster`] and [`Turn::viewers`] filled in: the same for every engine.
    fn with_people(&self, t: Turn) -> Turn {
        let mut viewers: Vec<String> = Vec::new();
        for v in E::viewers(&self.state) {
            if !viewers.iter().any(|x| x == v) {
                viewers.push(v.to_string());
            }
        }
        Turn { roster: E::roster(&self.state), viewers, ..t }
    }

    /// How the game ended (`null` while it goes on).
    pub fn outcome(&self) -> Value {
        E::outcome(&self.ctx, &self.state)
    }

    /// The state now as `viewer` may see it (`None`: the GM), and `events` (the last
    /// action's) redacted for it: `{state, events?}`, as the pure view operation gives.
    pub fn view(&self, viewer: Option<&Value>, events: Option<Value>) -> Result<Value> {
        let mut a = Map::new();
        if let Some(e) = events {
            a.insert("events".into(), e);
        }
        view_of(self, viewer, &mut a)
    }
}

// ---------------------------------------------------------------- the type-erased game

/// Opens a game from a setup: the session and the setup's `{events, rolls}`.
type OpenFn = fn(Value) -> Result<(Box<dyn AnyGame>, Value)>;
/// Loads a game from a saved state and its data.
type LoadFn = fn(&Value, Option<&Value>) -> Result<Box<dyn AnyGame>>;

/// One handle class as the bindings generate it.
#[derive(Debug, Clone, Copy)]
pub struct HandleDef {
    /// `<module>.<Class>`.
    pub name: &'static str,
    /// The pure operations it mirrors: new, legal actions, act.
    pub ops: [&'static str; 3],
    open: OpenFn,
    load: LoadFn,
    #[cfg(feature = "simulate")]
    simulate: simulate::OpenSim,
}

pub(crate) fn def<E: Engine>() -> HandleDef {
    HandleDef {
        name: E::HANDLE,
        ops: E::OPS,
        open: |setup| {
            let setup = crate::ops::parse_args::<E::Setup>(setup)?;
            let (s, events, rolls) = Session::<E>::create(&setup)?;
            let mut m = Map::new();
            m.insert("events".into(), events);
            m.insert("rolls".into(), rolls.to_json());
            Ok((Box::new(s) as Box<dyn AnyGame>, Value::Object(m)))
        },
        load: |state, data| Ok(Box::new(Session::<E>::load(state, data)?) as Box<dyn AnyGame>),
        #[cfg(feature = "simulate")]
        simulate: simulate::open::<E>,
    }
}

/// Every handle this build has (the composition root's list, `registered` in `lib.rs`).
pub fn handles() -> Vec<HandleDef> {
    crate::registered::handles()
}

/// A session of any engine, driven with JSON (what [`Game`] holds).
pub trait AnyGame: Send + Sync {
    /// The handle's name.
    fn handle(&self) -> &'static str;
    /// `[{action, …cost}]` as JSON (see [`Engine::listing_json`]).
    fn legal(
        &mut self,
        actor: Option<&str>,
        kind: Option<&str>,
        compact: bool,
        viewer: Option<&Value>,
    ) -> Result<Value>;
    /// See [`Session::open_listing`].
    fn open_listing(&mut self, actor: Option<&str>, viewer: Option<&Value>) -> Result<(u64, usize)>;
    /// See [`Session::listing_item`].
    fn listing_item(&self, id: u64, i: usize) -> Result<Value>;
    /// See [`Session::listing_items`].
    fn listing_items(&self, id: u64) -> Result<Value>;
    /// Apply an action given as JSON: `{events, rolls}`, as text.
    fn act(&mut self, action: &Value, dice: &mut Dice) -> Result<RawJson>;
    /// Apply item `i` of listing `id`: `{events, rolls}`, as text.
    fn act_listed(&mut self, id: u64, i: usize, dice: &mut Dice) -> Result<RawJson>;
    /// The state as JSON.
    fn state(&self) -> Value;
    /// `{state, data?}`: what [`Game`]'s `load` takes back.
    fn save(&self) -> Value;
    /// The outcome as JSON.
    fn outcome(&self) -> Value;
    /// Whose move it is as `viewer` may know it, as JSON (see [`Session::turn_for`]).
    fn turn(&self, viewer: Option<&Value>) -> Result<Value>;
    /// Take back the last action.
    fn undo(&mut self) -> Result<()>;
    /// Rebuild the state if an action was cut short by a panic (see [`Session::recover`]).
    fn recover(&mut self) -> Result<()>;
    /// How many actions can be taken back.
    fn undo_depth(&self) -> usize;
    /// See [`Engine::redact`].
    fn redact(
        &self,
        viewer: &Value,
        view: &mut Value,
        events: Option<&mut Vec<Value>>,
        action: Option<&mut Value>,
    ) -> Result<()>;
}

impl<E: Engine> AnyGame for Session<E> {
    fn handle(&self) -> &'static str {
        E::HANDLE
    }
    fn legal(
        &mut self,
        actor: Option<&str>,
        kind: Option<&str>,
        compact: bool,
        viewer: Option<&Value>,
    ) -> Result<Value> {
        E::listing_json(&self.ctx, &mut self.cache, &self.state, actor, kind, compact, viewer)
    }
    fn open_listing(&mut self, actor: Option<&str>, viewer: Option<&Value>) -> Result<(u64, usize)> {
        Session::open_listing(self, actor, viewer)
    }
    fn listing_item(&self, id: u64, i: usize) -> Result<Value> {
        Session::listing_item(self, id, i)
    }
    fn listing_items(&self, id: u64) -> Result<Value> {
        Session::listing_items(self, id)
    }
    fn act(&mut self, action: &Value, dice: &mut Dice) -> Result<RawJson> {
        let a = read_action::<E>(action)?;
        let events = Session::act(self, &a, dice)?;
        Ok(acted(&events, dice))
    }
    fn act_listed(&mut self, id: u64, i: usize, dice: &mut Dice) -> Result<RawJson> {
        let events = Session::act_listed(self, id, i, dice)?;
        Ok(acted(&events, dice))
    }
    // Not inlined: `view` writes the state through the same code.
    #[inline(never)]
    fn state(&self) -> Value {
        self.state.to_json()
    }
    fn save(&self) -> Value {
        let mut m = Map::new();
        m.insert("state".into(), self.state.to_json());
        if let Some(d) = E::save_ctx(&self.ctx) {
            m.insert("data".into(), d);
        }
        Value::Object(m)
    }
    fn outcome(&self) -> Value {
        Session::outcome(self)
    }
    fn turn(&self, viewer: Option<&Value>) -> Result<Value> {
        Ok(Session::turn_for(self, viewer)?.to_json())
    }
    fn undo(&mut self) -> Result<()> {
        Session::undo(self)
    }
    fn recover(&mut self) -> Result<()> {
        Session::recover(self)
    }
    fn undo_depth(&self) -> usize {
        Session::undo_depth(self)
    }
    fn redact(
        &self,
        viewer: &Value,
        view: &mut Value,
        events: Option<&mut Vec<Value>>,
        action: Option<&mut Value>,
    ) -> Result<()> {
        E::redact(&self.ctx, &self.state, viewer, view, events, action)
    }
}

/// `{events, rolls}` as JSON text, written straight from the typed events: what a
/// handle's `act` replies (byte for byte the text of [`events_and_rolls`]).
fn acted<T: ToJson + ?Sized>(events: &T, dice: &mut Dice) -> RawJson {
    let mut out = Vec::with_capacity(1024);
    out.extend_from_slice(b"{\"events\":");
    events.write_json(&mut out);
    out.extend_from_slice(b",\"rolls\":");
    dice.take_rolls().write_json(&mut out);
    out.push(b'}');
    RawJson::written(out)
}

/// `{events, rolls}`: an action's result as the pure act operations return it.
fn events_and_rolls(events: Value, dice: &mut Dice) -> Value {
    let mut m = Map::new();
    m.insert("events".into(), events);
    m.insert("rolls".into(), dice.take_rolls().to_json());
    Value::Object(m)
}

/// Every legal action of `s`, as the pure legal-actions operations list it:
/// [`Engine::listing`] for every actor (as `viewer` may know them), with fresh buffers.
#[cfg(test)]
pub(crate) fn listing_of<E: Engine>(
    ctx: &E::Ctx,
    s: &E::State,
    viewer: Option<&Value>,
) -> Result<Vec<E::Listed>> {
    E::listing(ctx, &mut E::Cache::default(), s, None, viewer)
}

/// The name a unit enum value (a phase, a status) has in JSON.
pub(crate) fn json_name<T: ToJson>(t: &T) -> String {
    t.to_json().as_str().unwrap_or_default().to_string()
}

/// `load`'s refusal of a `data` argument for an engine that keeps no data pack beside its state.
pub(crate) fn no_data(data: Option<&Value>, what: &str) -> Result<()> {
    match data {
        Some(_) => Err(Error::invalid("data", format_args!("{what} takes no data pack"))),
        None => Ok(()),
    }
}

/// A game handle for the bindings: empty until `create` or `load`, then one
/// session of the engine it was opened with.
#[derive(Default)]
pub struct Game {
    inner: Option<Box<dyn AnyGame>>,
}

/// The argument object of a [`Game::call`] method.
fn object(args: Value) -> Result<Map<String, Value>> {
    match args {
        Value::Null => Ok(Map::new()),
        Value::Object(m) => Ok(m.into_iter().filter(|(_, v)| !v.is_null()).collect()),
        _ => Err(Error::invalid("args", "must be an object of named arguments")),
    }
}

fn only(m: &Map<String, Value>, allowed: &[&str]) -> Result<()> {
    match m.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(Error::invalid(
            k.clone(),
            format_args!("unknown argument; expected {}", crate::json::one_of(allowed)),
        )),
        None => Ok(()),
    }
}

/// One handle method of [`Game::call`]: its name, the names of its arguments (any other
/// is `invalid_argument`) and what it runs.
pub struct Method {
    /// The method's name, as the bindings call it.
    pub name: &'static str,
    /// Its arguments' names (each optional unless its function says it is required).
    pub args: &'static [&'static str],
    run: fn(&mut Game, Map<String, Value>) -> Result<Reply>,
}

/// Every method of [`Game::call`], in the order its documentation lists them.
pub static METHODS: &[Method] = &[
    Method { name: "create", args: &["handle", "setup"], run: m_create },
    Method { name: "load", args: &["handle", "state", "data"], run: m_load },
    Method { name: "legal_actions", args: &["actor", "kind", "compact", "viewer"], run: m_legal_actions },
    Method { name: "legal_open", args: &["actor", "viewer"], run: m_legal_open },
    Method { name: "legal_item", args: &["id", "index"], run: m_legal_item },
    Method { name: "legal_items", args: &["id"], run: m_legal_items },
    Method { name: "act", args: &["action", "seed", "rolls"], run: m_act },
    Method { name: "act_listed", args: &["id", "index", "seed", "rolls"], run: m_act_listed },
    Method { name: "state", args: &[], run: |g, _| Ok(Reply::Value(g.game()?.state())) },
    Method { name: "save", args: &[], run: |g, _| Ok(Reply::Value(g.game()?.save())) },
    Method { name: "outcome", args: &[], run: |g, _| Ok(Reply::Value(g.game()?.outcome())) },
    Method {
        name: "turn",
        args: &["viewer"],
        run: |g, a| Ok(Reply::Value(g.game()?.turn(a.get("viewer"))?)),
    },
    Method { name: "undo", args: &[], run: |g, _| g.game()?.undo().map(|()| Reply::Value(Value::Null)) },
    Method {
        name: "undo_depth",
        args: &[],
        run: |g, _| Ok(Reply::Value(Value::from(g.game()?.undo_depth() as u64))),
    },
    Method {
        name: "handle",
        args: &[],
        run: |g, _| Ok(Reply::Value(Value::String(g.game()?.handle().into()))),
    },
    Method { name: "view", args: &["viewer", "events", "action"], run: m_view },
];

/// The handle a `create` or `load` names.
fn handle_def(a: &Map<String, Value>) -> Result<HandleDef> {
    let name = a.get("handle").and_then(Value::as_str).ok_or_else(|| {
        Error::invalid("handle", "required: a handle name such as \"world_trigger.Battle\"")
    })?;
    handles().into_iter().find(|h| h.name == name).ok_or_else(|| {
        Error::invalid("handle", format_args!("no handle named {} in this build", quote(name)))
    })
}

/// An optional string argument.
fn text_arg<'a>(a: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>> {
    match a.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(Error::invalid(key, "must be a string")),
    }
}

/// A required count argument (a listing's `id`, an item's `index`).
fn count_arg(a: &Map<String, Value>, key: &str) -> Result<u64> {
    let v = a.get(key).ok_or_else(|| Error::invalid(key, "required"))?;
    crate::json::from_value::<u64>(v).map_err(|e| Error::invalid(key, e.message))
}

/// An item's `index` (past the end of any listing when it does not fit a `usize`).
fn index_arg(a: &Map<String, Value>) -> Result<usize> {
    Ok(usize::try_from(count_arg(a, "index")?).unwrap_or(usize::MAX))
}

fn m_create(g: &mut Game, mut a: Map<String, Value>) -> Result<Reply> {
    let h = handle_def(&a)?;
    let (game, out) = (h.open)(a.remove("setup").unwrap_or(Value::Null))?;
    g.inner = Some(game);
    Ok(Reply::Value(out))
}

fn m_load(g: &mut Game, a: Map<String, Value>) -> Result<Reply> {
    let h = handle_def(&a)?;
    let state = a.get("state").ok_or_else(|| Error::invalid("state", "required"))?;
    g.inner = Some((h.load)(state, a.get("data"))?);
    Ok(Reply::Value(Value::Null))
}

fn m_legal_actions(g: &mut Game, a: Map<String, Value>) -> Result<Reply> {
    let compact = match a.get("compact") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(Error::invalid("compact", "must be a boolean")),
    };
    let (actor, kind) = (text_arg(&a, "actor")?, text_arg(&a, "kind")?);
    g.game()?.legal(actor, kind, compact, a.get("viewer")).map(Reply::Value)
}

fn m_legal_open(g: &mut Game, a: Map<String, Value>) -> Result<Reply> {
    let (id, len) = g.game()?.open_listing(text_arg(&a, "actor")?, a.get("viewer"))?;
    let mut m = Map::new();
    m.insert("id".into(), Value::from(id));
    m.insert("len".into(), Value::from(len as u64));
    Ok(Reply::Value(Value::Object(m)))
}

fn m_legal_item(g: &mut Game, a: Map<String, Value>) -> Result<Reply> {
    let (id, i) = (count_arg(&a, "id")?, index_arg(&a)?);
    g.game()?.listing_item(id, i).map(Reply::Value)
}

fn m_legal_items(g: &mut Game, a: Map<String, Value>) -> Result<Reply> {
    let id = count_arg(&a, "id")?;
    g.game()?.listing_items(id).map(Reply::Value)
}

fn m_act(g: &mut Game, mut a: Map<String, Value>) -> Result<Reply> {
    let game = g.game()?;
    let mut dice = dice_of(&mut a)?;
    let action = a.get("action").ok_or_else(|| Error::invalid("action", "required"))?;
    game.act(action, &mut dice).map(Reply::Text)
}

fn m_act_listed(g: &mut Game, mut a: Map<String, Value>) -> Result<Reply> {
    let game = g.game()?;
    let mut dice = dice_of(&mut a)?;
    let (id, i) = (count_arg(&a, "id")?, index_arg(&a)?);
    game.act_listed(id, i, &mut dice).map(Reply::Text)
}

fn m_view(g: &mut Game, mut a: Map<String, Value>) -> Result<Reply> {
    let game = g.game()?;
    let viewer = a.remove("viewer");
    view_of(game, viewer.as_ref(), &mut a).map(Reply::Value)
}

/// A handle method's reply: a value, or text written straight from typed values
/// (`act`'s events).
enum Reply {
    Value(Value),
    Text(RawJson),
}

impl Game {
    /// An empty handle.
    pub fn new() -> Self {
        Self::default()
    }

    /// Run `method` with JSON `args`:
    /// * `create {handle, setup}` → `{events, rolls}` (the setup's);
    /// * `load {handle, state, data?}` → `null`;
    /// * `legal_actions {actor?, kind?, compact?, viewer?}` → `[{action, …cost}]` (`kind`:
    ///   one action `type`; `compact`: `{actions, moves?}`, see [`Engine::listing_json`];
    ///   `viewer`: as that viewer may know them, see [`Engine::listing`]);
    /// * `legal_open {actor?, viewer?}` → `{id, len}`: the listing kept natively; then
    ///   `legal_item {id, index}` → one item, `legal_items {id}` → all of them;
    /// * `act {action, seed?, rolls?}` → `{events, rolls}`; `act_listed {id, index,
    ///   seed?, rolls?}` → the same for item `index` of listing `id`, without the action
    ///   crossing as JSON;
    /// * `state` → the state; `save` → `{state, data?}`; `outcome` → the outcome or `null`;
    /// * `turn {viewer?}` → `{round, phase, active: [{id, stage}], order, outcome}`: whose move it is
    ///   ([`Turn`]; `viewer`: as that viewer may know it, see [`Engine::turn_for`]);
    /// * `undo` → `null`; `undo_depth` → a count; `handle` → the handle's name;
    /// * `view {viewer?, events?, action?}` → `{state, events?, action?}`: the state (and
    ///   the given events and action, the last action's) as `viewer` may see them (see
    ///   [`Engine::redact`]; null: the GM).
    pub fn call(&mut self, method: &str, args: Value) -> Result<Value> {
        Ok(match self.reply(method, args)? {
            Reply::Value(v) => v,
            Reply::Text(t) => t.to_value(),
        })
    }

    /// [`call`](Self::call), its reply as a value or, where it is written straight to
    /// text (`act`'s), as that text: the method's row of [`METHODS`], its arguments
    /// checked against the row's names, then its function.
    fn reply(&mut self, method: &str, args: Value) -> Result<Reply> {
        let m = METHODS.iter().find(|m| m.name == method).ok_or_else(|| {
            Error::field(
                ErrorCode::UnknownOperation,
                "method",
                format_args!("no handle method named {}", quote(method)),
            )
        })?;
        let a = object(args)?;
        only(&a, m.args)?;
        (m.run)(self, a)
    }

    /// The game a method other than `create` and `load` runs on (its poisoned state
    /// recovered, see [`Session::recover`]).
    fn game(&mut self) -> Result<&mut dyn AnyGame> {
        let g = self
            .inner
            .as_deref_mut()
            .ok_or_else(|| Error::invalid("handle", "this handle holds no game: create or load one first"))?;
        g.recover()?;
        Ok(g)
    }

    /// [`call`](Self::call) for the bindings: JSON text in, envelope text out
    /// (`{"ok": …}` or `{"error": …}`), with host entropy for unseeded dice.
    pub fn call_json(&mut self, method: &str, args_json: &str, entropy: Option<u64>) -> String {
        let outcome = crate::parse_args_json(args_json).and_then(|args| match entropy {
            Some(e) => crate::dice::with_host_entropy(e, || self.reply(method, args)),
            None => self.reply(method, args),
        });
        let mut out = Vec::with_capacity(1024);
        match outcome {
            Ok(Reply::Text(t)) => {
                out.extend_from_slice(b"{\"ok\":");
                t.write_json(&mut out);
                out.push(b'}');
            }
            Ok(Reply::Value(v)) => crate::json::write_value(&crate::json::single("ok", v), &mut out),
            Err(e) => crate::json::write_value(&crate::json::error_envelope(e), &mut out),
        }
        // Only JSON text was written, from `&str`s and serde_json: valid UTF-8.
        String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}
