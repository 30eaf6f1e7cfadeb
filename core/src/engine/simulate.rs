//! Whole games played by policies, many at once: the `<module>.<x>_simulate`
//! operations of every engine, from the trait alone.
//!
//! A battle is the engine's own game from its setup, driven as a host drives it:
//! while the game has no [`outcome`](Engine::outcome) and something is listed, the
//! participant [`turn`](Engine::turn) names first (or, for a round-level step,
//! whoever the listing offers) picks one of its listed actions by its policy, and the
//! engine applies it. Nothing here knows a rule: what is legal, what it does and when
//! the fight ends are the engine's.
//!
//! Determinism (`gunbai-dice-v1`): a master generator seeded with `seed` gives battle
//! k the seed `w_k >> 11` (its k-th 64-bit word, counting from 0 — the same scheme as
//! `world_trigger.simulate_battles`). Battle k's own generator gives, in turn, the
//! setup's dice seed (when the setup rolls dice and names no `seed` or `rolls` of its
//! own), then for each action one face choosing among the candidates and one word
//! whose top 53 bits seed that action's dice. Battle k therefore depends only on
//! `seed` and k: `first` and `n` choose which battles are played, and a run split in
//! chunks (`first = 0, n = 500`, then `first = 500, n = 500`), or spread over threads,
//! gives the same battles as one run.

use super::{Engine, HandleDef};
use crate::dice::prng::Prng;
use crate::dice::Dice;
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use serde_json::Value;

/// Most battles in one call.
pub const MAX_BATTLES: u64 = MAX_WORK;
/// Most actions one battle may take (`max_steps`).
pub const MAX_STEPS: u32 = 10_000;
/// The default `max_steps`.
pub const DEFAULT_STEPS: u32 = 500;
/// The most actions one call may take, counted as `n × max_steps` (a bound, not the
/// steps actually played): the same in every build, so that Rust, JS and Python accept
/// and refuse the same calls, and small enough that a call on a browser's UI thread
/// returns in reasonable time. A larger study plays its battles in chunks (`first`).
pub const MAX_WORK: u64 = 10_000;
/// The end of the games a call may play (`first + n`): reaching game k draws k words.
pub const MAX_INDEX: u64 = 10_000_000;
/// Most threads a call may ask for.
pub const MAX_THREADS: u32 = 256;

/// The kinds of policy: how a participant narrows its listed actions before one is
/// drawn uniformly from what is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SimPolicyKind {
    /// Uniformly among all its listed actions (`priority` must be empty).
    Random,
    /// The listed actions that attack, when there are any (an attack declared, or an
    /// attack answered with a blow of one's own, as the engine marks them), then
    /// `priority` among those; else as `priority`.
    Aggressive,
    /// The listed actions of the first type in `priority` that has any; else all.
    Priority,
}

/// How one participant chooses among its listed actions.
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SimPolicy {
    /// The kind of policy: `random`, `aggressive` or `priority`. Default: `priority`
    /// when `priority` names any type, else `random`.
    #[serde(default)]
    pub kind: Option<SimPolicyKind>,
    /// Action types in order of preference (an action's type is its `type` or `kind`,
    /// as the listing shows it; `type:kind` names one kind of a type, as `reaction:dodge`,
    /// and `reaction:none` a reaction without a kind): uniformly among the listed actions
    /// of the first type that has any, else uniformly among all. Empty (the default): uniformly among
    /// all — the random policy.
    #[serde(default)]
    pub priority: Vec<String>,
}

/// A policy for some participants (a side scripted, the other random: one entry naming
/// the scripted side's ids): `ids` beside a [`SimPolicy`]'s fields.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SimPolicyFor {
    /// The participants (ids, as the actions name them) this policy is for.
    pub ids: Vec<String>,
    /// Their policy.
    #[serde(flatten)]
    pub policy: SimPolicy,
}

/// The arguments of every `_simulate` operation; `setup` is the engine's own
/// `_new` arguments (the catalog documents each engine's shape).
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SimulateArgs {
    /// The setup of every battle: the `_new` operation's arguments. Its dice (if it
    /// rolls any) come from each battle's seed, unless it gives `seed` or `rolls`.
    pub setup: Value,
    /// Which battles, and how they are played.
    #[serde(flatten)]
    pub run: SimRun,
}

/// Which battles a `_simulate` operation plays, and how.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SimRun {
    /// How many battles: 1 to 10,000, with `n × max_steps` at most 10,000 (play more
    /// in chunks with `first`).
    #[schemars(range(min = 1, max = 10000))]
    pub n: u64,
    /// The master seed, 0 to 2^53 − 1: battle k plays from the k-th word (counting
    /// from 0, shifted right by 11) of a `gunbai-dice-v1` generator seeded with it.
    #[schemars(range(min = 0, max = 9007199254740991i64))]
    pub seed: u64,
    /// The index of the first battle (default 0): battles `first` … `first + n − 1`, with
    /// `first + n` at most 10,000,000.
    #[serde(default)]
    pub first: u64,
    /// Everybody's policy (default: random).
    #[serde(default)]
    pub policy: SimPolicy,
    /// Policies for named participants, overriding `policy` (the first that names one wins).
    #[serde(default)]
    pub policies: Vec<SimPolicyFor>,
    /// Most actions in one battle (default 500; at most 10,000): a battle that
    /// reaches it ends with no outcome (`ended: false`).
    #[serde(default)]
    #[schemars(range(min = 1, max = 10000))]
    pub max_steps: Option<u32>,
    /// Threads to spread the battles over (native builds; default 1; 0: one per
    /// core). The results do not depend on it.
    #[serde(default)]
    pub threads: Option<u32>,
}

/// One row per battle, as columns.
#[derive(Debug, Clone, Default, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SimBattles {
    /// The battle's index (`first` + its position).
    pub index: Vec<u64>,
    /// The battle's own seed (`w_k >> 11`): `_new` / `_act` replay it.
    pub seed: Vec<u64>,
    /// Whether the game reached an outcome (false: the step cap, or nothing listed).
    pub ended: Vec<bool>,
    /// The winner the outcome names (`winner`, else `side`; null for a draw or no end).
    pub winner: Vec<Option<String>>,
    /// The outcome as the engine gives it (null while it went on).
    pub outcome: Vec<Value>,
    /// The round the battle ended in (`turn().round`).
    pub rounds: Vec<u32>,
    /// Actions taken.
    pub steps: Vec<u32>,
}

/// One row per participant per battle, as columns (the participants whose HP the
/// engine tracks, else those who act).
#[derive(Debug, Clone, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SimMembers {
    /// The battle's index.
    pub battle: Vec<u64>,
    /// The participant's id.
    pub id: Vec<String>,
    /// HP at the start (null where the engine tracks none).
    pub hp_start: Vec<Option<i64>>,
    /// HP at the end.
    pub hp_end: Vec<Option<i64>>,
    /// HP lost over the battle (the sum of every fall).
    pub damage_taken: Vec<Option<i64>>,
    /// HP regained over the battle (the sum of every rise).
    pub healed: Vec<Option<i64>>,
    /// Actions the participant took.
    pub actions: Vec<u32>,
    /// Damage the participant's attacks (and answering blows) dealt over the battle, as
    /// the engine's events attribute it (null where the engine attributes none).
    pub damage_dealt: Vec<Option<i64>>,
    /// Whether the participant was out of the fight at the end (down, unconscious,
    /// dead, bailed out: the engine's own notion; null where the engine has none).
    pub down: Vec<Option<bool>>,
}

/// What a `_simulate` operation returns.
#[derive(Debug, Clone, Default, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SimulateResult {
    /// Per battle.
    pub battles: SimBattles,
    /// Per participant per battle.
    pub members: SimMembers,
}

/// Battle `k`'s seed under master seed `seed`.
fn battle_seeds(seed: u64, first: u64, n: u64) -> impl Iterator<Item = (u64, u64)> {
    let mut master = Prng::new(seed);
    for _ in 0..first {
        master.next_u64();
    }
    (first..first + n).map(move |k| (k, master.next_u64() >> 11))
}

/// The setup of one battle: `setup` with `seed` set to `word`, when the setup takes
/// dice and names none of its own.
fn battle_setup<E: Engine>(setup: &Value, word: u64) -> Result<E::Setup> {
    if let Some(with_seed) = seeded_setup(setup, word) {
        if let Ok(s) = crate::ops::parse_args::<E::Setup>(with_seed) {
            return Ok(s);
        }
    }
    crate::ops::parse_args::<E::Setup>(setup.clone()).map_err(|e| e.within("setup"))
}

/// `setup` with `seed: word` added, unless it names its own `seed` or `rolls`.
fn seeded_setup(setup: &Value, word: u64) -> Option<Value> {
    let Value::Object(m) = setup else { return None };
    if m.contains_key("seed") || m.contains_key("rolls") {
        return None;
    }
    let mut m = m.clone();
    m.insert("seed".into(), Value::from(word));
    Some(Value::Object(m))
}

/// The events of an action (the array [`Engine::apply`] returns) whose `key` is `tag`.
pub(crate) fn events_tagged<'a>(
    events: &'a Value,
    key: &'a str,
    tag: &'a str,
) -> impl Iterator<Item = &'a Value> {
    events.as_array().into_iter().flatten().filter(move |e| e.get(key).and_then(Value::as_str) == Some(tag))
}

/// `e[key]` as a string.
pub(crate) fn text_of(e: &Value, key: &str) -> Option<String> {
    e.get(key).and_then(Value::as_str).map(str::to_string)
}

/// One damage entry (see [`Engine::damage_dealt`]) from `e[source]`, `e[target]` and a
/// positive `e[amount]`.
pub(crate) fn hit_of(e: &Value, source: &str, target: &str, amount: &str) -> Option<(String, String, i64)> {
    let n = e.get(amount).and_then(Value::as_i64).filter(|&n| n > 0)?;
    Some((text_of(e, source)?, text_of(e, target)?, n))
}

/// An action's type, as the listing shows it (`type`, else `kind`).
fn action_type(a: &Value) -> Option<&str> {
    a.get("type").or_else(|| a.get("kind")).and_then(Value::as_str)
}

/// Whether an action is of the type a priority entry names: its type (`reaction`), or
/// its type and kind joined by a colon (`reaction:dodge`; `reaction:none` for one
/// without a kind).
fn of_type(a: &Value, want: &str) -> bool {
    match want.split_once(':') {
        None => action_type(a) == Some(want),
        Some((t, k)) => {
            a.get("type").and_then(Value::as_str) == Some(t)
                && a.get("kind").map_or(Some("none"), |v| if v.is_null() { Some("none") } else { v.as_str() })
                    == Some(k)
        }
    }
}

/// One game as the simulation drives it: the few engine calls it needs, behind an
/// object so that the play loop is compiled once, not once per engine (the wasm
/// entries stay small).
pub(crate) trait SimGame {
    /// List the legal actions now (kept for the calls below); how many.
    fn list(&mut self) -> Result<usize>;
    /// Who takes listed action `i`.
    fn actor_of(&self, i: usize) -> Option<&str>;
    /// Listed action `i` as JSON.
    fn action_json(&self, i: usize) -> Value;
    /// Take listed action `i` with `dice`: the damage its events deal, as
    /// [`Engine::damage_dealt`].
    fn take(&mut self, i: usize, dice: &mut Dice) -> Result<Option<Vec<(String, String, i64)>>>;
    /// Whether the engine attributes damage (as [`Engine::damage_dealt`]).
    fn attributes_damage(&self) -> bool;
    /// Whether listed action `i` attacks (as [`Engine::attacks`]).
    fn attacks(&self, i: usize) -> bool;
    /// Who is out of the fight (as [`Engine::down`]).
    fn down(&self) -> Option<Vec<String>>;
    /// Whose move it is.
    fn turn(&self) -> super::Turn;
    /// The outcome (null while it goes on).
    fn outcome(&self) -> Value;
    /// HP now (as [`Engine::hp`]).
    fn hp(&self) -> Vec<(String, i64)>;
    /// Who may act (as [`Engine::actors`]).
    fn actors(&self) -> Vec<String>;
}

struct Sim<E: Engine> {
    ctx: E::Ctx,
    state: E::State,
    cache: E::Cache,
    offered: Vec<E::Action>,
}

impl<E: Engine> SimGame for Sim<E> {
    fn list(&mut self) -> Result<usize> {
        let listed = E::listing(&self.ctx, &mut self.cache, &self.state, None, None)?;
        self.offered = listed.iter().map(E::listed_action).collect::<Result<_>>()?;
        Ok(self.offered.len())
    }
    fn actor_of(&self, i: usize) -> Option<&str> {
        E::actor(&self.offered[i])
    }
    fn action_json(&self, i: usize) -> Value {
        self.offered[i].to_json()
    }
    fn take(&mut self, i: usize, dice: &mut Dice) -> Result<Option<Vec<(String, String, i64)>>> {
        let a = &self.offered[i];
        let c = E::check(&self.ctx, &self.state, a)?;
        let events = E::apply(&self.ctx, &mut self.state, a, c, dice)?;
        // The events as JSON only for an engine that reads damage from them.
        Ok(if self.attributes_damage() { E::damage_dealt(&events.to_json()) } else { None })
    }
    fn attributes_damage(&self) -> bool {
        E::damage_dealt(&Value::Array(Vec::new())).is_some()
    }
    fn attacks(&self, i: usize) -> bool {
        E::attacks(&self.ctx, &self.offered[i])
    }
    fn down(&self) -> Option<Vec<String>> {
        E::down(&self.state).map(|d| d.into_iter().map(str::to_string).collect())
    }
    fn turn(&self) -> super::Turn {
        E::turn(&self.ctx, &self.state)
    }
    fn outcome(&self) -> Value {
        E::outcome(&self.ctx, &self.state)
    }
    fn hp(&self) -> Vec<(String, i64)> {
        E::hp(&self.state).into_iter().map(|(id, h)| (id.to_string(), h)).collect()
    }
    fn actors(&self) -> Vec<String> {
        E::actors(&self.state).into_iter().map(str::to_string).collect()
    }
}

/// Opens one game of a simulation: the setup (as JSON) and the word seeding its dice.
pub(crate) type OpenSim = fn(&Value, u64) -> Result<Box<dyn SimGame>>;

/// [`OpenSim`] for `E`.
pub(crate) fn open<E: Engine>(setup: &Value, word: u64) -> Result<Box<dyn SimGame>> {
    let c = E::create(&battle_setup::<E>(setup, word)?)?;
    Ok(Box::new(Sim::<E> { ctx: c.ctx, state: c.state, cache: E::Cache::default(), offered: Vec::new() }))
}

/// The members' HP now, in the order of `ids`.
fn hp_of(g: &dyn SimGame, ids: &[String]) -> Vec<Option<i64>> {
    let hp = g.hp();
    ids.iter().map(|id| hp.iter().find(|(w, _)| w == id).map(|(_, h)| *h)).collect()
}

/// One battle and its rows.
struct Played {
    ended: bool,
    outcome: Value,
    rounds: u32,
    steps: u32,
    ids: Vec<String>,
    hp_start: Vec<Option<i64>>,
    hp_end: Vec<Option<i64>>,
    fell: Vec<i64>,
    rose: Vec<i64>,
    actions: Vec<u32>,
    dealt: Option<Vec<i64>>,
    down: Vec<Option<bool>>,
}

/// The policy `who` plays by: its kind (resolved) and priority list.
fn policy_for<'a>(args: &'a SimulateArgs, who: Option<&str>) -> (SimPolicyKind, &'a [String]) {
    let policy = who
        .and_then(|w| args.run.policies.iter().find(|p| p.ids.iter().any(|i| i == w)))
        .map_or(&args.run.policy, |p| &p.policy);
    let (kind, priority) = (policy.kind, &policy.priority);
    let kind =
        kind.unwrap_or(if priority.is_empty() { SimPolicyKind::Random } else { SimPolicyKind::Priority });
    (kind, priority)
}

/// `pool` narrowed by `priority`: the actions of the first type listed that has any
/// (unchanged when none has).
fn by_priority(g: &dyn SimGame, pool: Vec<usize>, priority: &[String]) -> Vec<usize> {
    if priority.is_empty() {
        return pool;
    }
    let types: Vec<Value> = pool.iter().map(|&i| g.action_json(i)).collect();
    priority
        .iter()
        .find_map(|want| {
            let keep: Vec<usize> =
                pool.iter().zip(&types).filter(|(_, a)| of_type(a, want)).map(|(&i, _)| i).collect();
            (!keep.is_empty()).then_some(keep)
        })
        .unwrap_or(pool)
}

/// `pool` narrowed by the policy.
fn narrowed(g: &dyn SimGame, pool: Vec<usize>, kind: SimPolicyKind, priority: &[String]) -> Vec<usize> {
    match kind {
        SimPolicyKind::Random => pool,
        SimPolicyKind::Priority => by_priority(g, pool, priority),
        SimPolicyKind::Aggressive => {
            let attacking: Vec<usize> = pool.iter().copied().filter(|&i| g.attacks(i)).collect();
            by_priority(g, if attacking.is_empty() { pool } else { attacking }, priority)
        }
    }
}

fn play(open: OpenSim, args: &SimulateArgs, word: u64, max_steps: u32) -> Result<Played> {
    let mut rng = Prng::new(word);
    let mut g = open(&args.setup, rng.next_u64() >> 11)?;
    let hp = g.hp();
    let ids: Vec<String> =
        if hp.is_empty() { g.actors() } else { hp.into_iter().map(|(id, _)| id).collect() };
    let hp_start = hp_of(&*g, &ids);
    let mut last = hp_start.clone();
    let (mut fell, mut rose, mut actions) =
        (vec![0i64; ids.len()], vec![0i64; ids.len()], vec![0u32; ids.len()]);
    let mut steps = 0u32;
    let mut dealt: Option<Vec<i64>> = g.attributes_damage().then(|| vec![0i64; ids.len()]);
    while steps < max_steps && g.outcome().is_null() {
        let n = g.list()?;
        if n == 0 {
            break;
        }
        let who = g.turn().active.into_iter().find_map(|a| a.id);
        // The deciding participant's own actions (and round-level ones); all if none.
        let mut pool: Vec<usize> = (0..n)
            .filter(|&i| who.is_none() || g.actor_of(i).is_none_or(|a| Some(a) == who.as_deref()))
            .collect();
        if pool.is_empty() {
            pool = (0..n).collect();
        }
        let (kind, priority) = policy_for(args, who.as_deref());
        let pool = narrowed(&*g, pool, kind, priority);
        let pick = pool[rng.face(pool.len() as u32) as usize - 1];
        let mut dice = Dice::seeded(rng.next_u64() >> 11)?;
        if let Some(k) = g.actor_of(pick).and_then(|a| ids.iter().position(|i| i == a)) {
            actions[k] += 1;
        }
        if let (Some(hits), Some(dealt)) = (g.take(pick, &mut dice)?, dealt.as_mut()) {
            for (source, _, amount) in hits {
                if let Some(k) = ids.iter().position(|i| *i == source) {
                    dealt[k] += amount;
                }
            }
        }
        let now = hp_of(&*g, &ids);
        for (k, (was, is)) in last.iter().zip(&now).enumerate() {
            if let (Some(w), Some(i)) = (was, is) {
                fell[k] += (w - i).max(0);
                rose[k] += (i - w).max(0);
            }
        }
        last = now;
        steps += 1;
    }
    let outcome = g.outcome();
    let down = match g.down() {
        Some(d) => ids.iter().map(|i| Some(d.contains(i))).collect(),
        None => vec![None; ids.len()],
    };
    Ok(Played {
        ended: !outcome.is_null(),
        outcome,
        rounds: g.turn().round,
        steps,
        ids,
        hp_start,
        hp_end: last,
        fell,
        rose,
        actions,
        dealt,
        down,
    })
}

fn winner(outcome: &Value) -> Option<String> {
    outcome.get("winner").or_else(|| outcome.get("side")).and_then(Value::as_str).map(str::to_string)
}

fn collect(out: &mut SimulateResult, k: u64, word: u64, p: Played) {
    let b = &mut out.battles;
    b.index.push(k);
    b.seed.push(word);
    b.ended.push(p.ended);
    b.winner.push(winner(&p.outcome));
    b.outcome.push(p.outcome);
    b.rounds.push(p.rounds);
    b.steps.push(p.steps);
    let m = &mut out.members;
    let tracked = |v: &[Option<i64>], k: usize, x: i64| v[k].map(|_| x);
    for (i, id) in p.ids.into_iter().enumerate() {
        m.battle.push(k);
        m.id.push(id);
        m.hp_start.push(p.hp_start[i]);
        m.hp_end.push(p.hp_end[i]);
        m.damage_taken.push(tracked(&p.hp_start, i, p.fell[i]));
        m.healed.push(tracked(&p.hp_start, i, p.rose[i]));
        m.actions.push(p.actions[i]);
        m.damage_dealt.push(p.dealt.as_ref().map(|d| d[i]));
        m.down.push(p.down[i]);
    }
}

fn run_range(
    open: OpenSim,
    args: &SimulateArgs,
    first: u64,
    n: u64,
    max_steps: u32,
) -> Result<SimulateResult> {
    let mut out = SimulateResult::default();
    for (k, word) in battle_seeds(args.run.seed, first, n) {
        let p = play(open, args, word, max_steps).map_err(|e| battle_error(e, k))?;
        collect(&mut out, k, word, p);
    }
    Ok(out)
}

/// An error in battle `k`: a setup error keeps its place; anything else says which battle.
fn battle_error(e: Error, k: u64) -> Error {
    if e.code == ErrorCode::InvalidArgument || e.code == ErrorCode::OutOfRange {
        e
    } else {
        let mut e = e;
        e.message = format!("battle {k}: {}", e.message);
        e
    }
}

fn checked_args(args: &SimulateArgs) -> Result<u32> {
    if !(1..=MAX_BATTLES).contains(&args.run.n) {
        return Err(Error::out_of_range("n", format!("must be 1 to {MAX_BATTLES}")));
    }
    if args.run.seed >= 1 << 53 {
        return Err(Error::out_of_range("seed", "must be 0 to 2^53 - 1"));
    }
    if args.run.first.checked_add(args.run.n).is_none_or(|end| end > MAX_INDEX) {
        return Err(Error::out_of_range("first", format!("first + n must be at most {MAX_INDEX}")));
    }
    let max_steps = args.run.max_steps.unwrap_or(DEFAULT_STEPS);
    if !(1..=MAX_STEPS).contains(&max_steps) {
        return Err(Error::out_of_range("max_steps", format!("must be 1 to {MAX_STEPS}")));
    }
    let random_with_list = |kind: Option<SimPolicyKind>, priority: &[String]| {
        kind == Some(SimPolicyKind::Random) && !priority.is_empty()
    };
    if random_with_list(args.run.policy.kind, &args.run.policy.priority) {
        return Err(Error::invalid("policy.priority", "a random policy takes no priority list"));
    }
    if let Some(i) =
        args.run.policies.iter().position(|p| random_with_list(p.policy.kind, &p.policy.priority))
    {
        return Err(Error::invalid(
            format!("policies[{i}].priority"),
            "a random policy takes no priority list",
        ));
    }
    if args.run.threads.is_some_and(|t| t > MAX_THREADS) {
        return Err(Error::out_of_range("threads", format!("must be 0 to {MAX_THREADS}")));
    }
    if args.run.n.saturating_mul(u64::from(max_steps)) > MAX_WORK {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!(
                "n × max_steps is at most {MAX_WORK} in one call (asked {} × {max_steps}): \
                 play the battles in chunks with `first`, or lower `max_steps`",
                args.run.n
            ),
        ));
    }
    Ok(max_steps)
}

/// Play `args.n` battles of `E` (see the module docs).
pub(crate) fn simulate(open: OpenSim, args: &SimulateArgs) -> Result<SimulateResult> {
    let max_steps = checked_args(args)?;
    let threads = threads_for(args);
    if threads <= 1 || args.run.n < 2 {
        return run_range(open, args, args.run.first, args.run.n, max_steps);
    }
    spread(open, args, threads, max_steps)
}

#[cfg(not(target_arch = "wasm32"))]
fn threads_for(args: &SimulateArgs) -> u64 {
    match args.run.threads.unwrap_or(1) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
        t => u64::from(t),
    }
}

#[cfg(target_arch = "wasm32")]
fn threads_for(_: &SimulateArgs) -> u64 {
    1
}

/// The battles over `threads` threads, each taking the next unplayed battle as it
/// finishes one (so a thread that drew short games is not left idle while another
/// plays long ones). The rows are joined in battle order and the first failing
/// battle's error is the one reported, as when one thread plays them all: the result
/// does not depend on the threads.
#[cfg(not(target_arch = "wasm32"))]
fn spread(open: OpenSim, args: &SimulateArgs, threads: u64, max_steps: u32) -> Result<SimulateResult> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let words: Vec<(u64, u64)> = battle_seeds(args.run.seed, args.run.first, args.run.n).collect();
    let next = AtomicUsize::new(0);
    let (words, next) = (&words, &next);
    // The games one thread played: (position in `words`, the game).
    type Share = Vec<(usize, Result<Played>)>;
    let worker = move || {
        let mut mine: Share = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(_, word)) = words.get(i) else { return mine };
            mine.push((i, play(open, args, word, max_steps)));
        }
    };
    let parts: Vec<Option<Share>> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads.min(args.run.n)).map(|_| sc.spawn(worker)).collect();
        handles.into_iter().map(|h| h.join().ok()).collect()
    });
    let mut played: Vec<Option<Result<Played>>> = (0..words.len()).map(|_| None).collect();
    for part in parts {
        let part = part.ok_or_else(|| Error::new(ErrorCode::Internal, "a simulation thread panicked"))?;
        for (i, p) in part {
            played[i] = Some(p);
        }
    }
    let mut out = SimulateResult::default();
    for (&(k, word), p) in words.iter().zip(played) {
        let p = p.ok_or_else(|| Error::new(ErrorCode::Internal, "a simulated battle is missing"))?;
        collect(&mut out, k, word, p.map_err(|e| battle_error(e, k))?);
    }
    Ok(out)
}

#[cfg(target_arch = "wasm32")]
fn spread(open: OpenSim, args: &SimulateArgs, _: u64, max_steps: u32) -> Result<SimulateResult> {
    run_range(open, args, args.run.first, args.run.n, max_steps)
}

/// The pure `<module>.<x>_simulate` operation of `handle`.
pub(crate) fn simulate_call(handle: &str, args: Value) -> Result<Value> {
    let h: HandleDef = super::handles()
        .into_iter()
        .find(|h| h.name == handle)
        .ok_or_else(|| Error::new(ErrorCode::Internal, "no handle"))?;
    let args = crate::ops::parse_args::<SimulateArgs>(args)?;
    Ok(simulate(h.simulate, &args)?.to_json())
}

/// Register engine `$engine`'s simulate operation ([`simulate_call`]); `$args` (declared
/// with `simulate_shapes!`) documents its arguments in the catalog.
#[macro_export]
#[doc(hidden)]
macro_rules! simulate_op {
    ($name:literal, $engine:ty, $args:ty, $summary:literal) => {
        $crate::ops::OpDef {
            name: $name,
            #[cfg(feature = "schema")]
            summary: $summary,
            run: |v| $crate::engine::simulate::simulate_call(<$engine as $crate::engine::Engine>::HANDLE, v),
            write: |v, out| {
                $crate::ops::write_result(
                    $crate::engine::simulate::simulate_call(<$engine as $crate::engine::Engine>::HANDLE, v),
                    out,
                )
            },
            #[cfg(feature = "schema")]
            args_schema: |g| g.subschema_for::<$args>(),
            #[cfg(feature = "schema")]
            result_schema: |g| g.subschema_for::<$crate::engine::simulate::SimulateResult>(),
        }
    };
}
