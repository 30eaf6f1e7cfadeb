//! `world_trigger.simulate_battles`: many complete battles played natively by
//! policies given as data, for notebooks that compare builds by fighting them.
//!
//! Each battle is the battle engine itself ([`engine::act`] on the actions its
//! fast listing gives, `legal::LegalList`); nothing of the rules is repeated
//! here. A policy only chooses among the listed actions, always in their
//! default form (no tactics dice, no Trion Burst, no push):
//!
//! * `random` — uniformly among all the legal actions;
//! * `aggressive` — uniformly among the legal attacks (a `use_skill` with a
//!   target or an area) if there are any; else the move that ends nearest to
//!   an enemy on the battlefield (nearest by the battle's range metric, ties
//!   uniformly), if it ends nearer than the mover stands now; else, in this
//!   order, a reaction (uniformly among them), `no_reaction`, `roll_initiative`,
//!   a re-entry, bringing an ally back, `pass`; else uniformly among all;
//! * `priority` — a list of action types tried in order: uniformly among the
//!   legal actions of the first type that has any; if none has, uniformly
//!   among all. The types are the actions' `type`s, plus `attack` (a
//!   `use_skill` with a target or an area) and `skill` (any other `use_skill`).
//!
//! The deciding team is the one the listing belongs to: the defending team
//! while an attack awaits its reaction, else the acting team; during the
//! Initiative phase (one action, `roll_initiative`) the first team's policy.
//!
//! Determinism (`gunbai-dice-v1`): a master generator seeded with `seed` gives
//! battle k the seed `w_k >> 11` (its k-th 64-bit word). That battle's own
//! generator, seeded so, makes every choice of the policies (a uniform choice
//! among m actions is one face of an m-sided die) and after each choice gives
//! the word whose top 53 bits seed that action's dice. So battle k depends only
//! on `seed` and k, whatever `n` is.

use crate::batch::{BatchData, BatchPart};
use crate::dice::prng::Prng;
use crate::dice::Dice;
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};
use crate::world_trigger::battle::grid::distance;
use crate::world_trigger::battle::legal::{LegalKind, LegalList, LegalRef};
use crate::world_trigger::battle::{
    battle_new, engine, WtBattleNewArgs, WtBattlePhase, WtBattleState, WtMemberStatus,
};

/// Most battles in one call.
pub const MAX_BATTLES: u64 = 100_000;
/// Most work in one call, in member-rounds (battles × last round × members): about five
/// seconds in the wasm build at the sample 3v3 rank battle's speed (8·10^4 took 6.1 s
/// there on a loaded machine; it was 6·10^5, five seconds natively, until it was timed in Node).
/// 800 rank battles (the benchmarks' default) are 72,000.
pub const MAX_MEMBER_ROUNDS: u64 = 72_000;
/// Most actions in one battle (a safety net: the rules end every battle by its last round).
pub const MAX_ACTIONS: usize = 100_000;

/// The action types a priority list may name.
pub const PRIORITY_TYPES: [&str; 12] = [
    "attack",
    "skill",
    "use_skill",
    "move",
    "react",
    "no_reaction",
    "roll_initiative",
    "reenter",
    "bring_back",
    "operator",
    "use_ability",
    "pass",
];

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    /// How a team chooses its actions (see the module docs).
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum WtBattlePolicy {
        /// Uniformly among the legal actions.
        Random {},
        /// Attack when an attack is legal, otherwise move toward the nearest enemy.
        Aggressive {},
        /// The first action type of `order` that is legal (uniformly among its actions).
        Priority {
            /// Action types in order of preference (1–12 of: `attack`, `skill`, `use_skill`,
            /// `move`, `react`, `no_reaction`, `roll_initiative`, `reenter`, `bring_back`,
            /// `operator`, `use_ability`, `pass`).
            order: Vec<String>,
        },
    }
}

/// Arguments of `world_trigger.simulate_battles`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSimulateBattlesArgs {
    /// The setup (`world_trigger.battle_new`'s arguments), the same for every battle.
    pub setup: WtBattleNewArgs,
    /// Battles to play: at most 100,000, and battles × last round × members at most 72,000.
    #[schemars(range(max = 100000))]
    pub n: u64,
    /// One policy for every team (default `random`); ignored where `policies` is given.
    #[serde(default)]
    pub policy: Option<WtBattlePolicy>,
    /// One policy per team, in setup order.
    #[serde(default)]
    pub policies: Option<Vec<WtBattlePolicy>>,
    /// `seed`.
    #[serde(flatten)]
    pub source: crate::dice::SeedArg,
}

/// The type a priority list names this listed action by.
fn kind_type(k: &LegalKind) -> [&'static str; 2] {
    match k {
        LegalKind::Target { .. } | LegalKind::Area { .. } => ["attack", "use_skill"],
        LegalKind::Skill { .. } => ["skill", "use_skill"],
        LegalKind::Move { .. } => ["move", "move"],
        LegalKind::React { .. } => ["react", "react"],
        LegalKind::NoReaction => ["no_reaction", "no_reaction"],
        LegalKind::RollInitiative => ["roll_initiative", "roll_initiative"],
        LegalKind::Reenter { .. } => ["reenter", "reenter"],
        LegalKind::BringBack { .. } => ["bring_back", "bring_back"],
        LegalKind::Operator { .. } => ["operator", "operator"],
        LegalKind::Ability { .. } => ["use_ability", "use_ability"],
        LegalKind::Pass { .. } => ["pass", "pass"],
    }
}

/// Uniformly one of `idx` (non-empty), by one face of an `idx.len()`-sided die.
fn uniform(rng: &mut Prng, idx: &[usize]) -> usize {
    let n = u32::try_from(idx.len()).unwrap_or(u32::MAX);
    idx.get(rng.face(n) as usize - 1).copied().unwrap_or(0)
}

fn all(refs: &[LegalRef]) -> Vec<usize> {
    (0..refs.len()).collect()
}

fn where_(refs: &[LegalRef], f: impl Fn(&LegalKind) -> bool) -> Vec<usize> {
    refs.iter().enumerate().filter(|(_, r)| f(&r.kind)).map(|(i, _)| i).collect()
}

/// The nearest enemy (on the battlefield) to `sq` for member `mi`, by the battle's metric.
fn nearest_enemy(s: &WtBattleState, mi: usize, sq: crate::world_trigger::battle::WtSquare) -> Option<i64> {
    let team = s.members.get(mi)?.team;
    s.members
        .iter()
        .filter(|o| o.team != team && o.status == WtMemberStatus::Active && s.map.on_map(o.at))
        .map(|o| distance(s.variants.range_metric, sq, o.at))
        .min()
}

fn choose(p: &WtBattlePolicy, s: &WtBattleState, refs: &[LegalRef], rng: &mut Prng) -> usize {
    match p {
        WtBattlePolicy::Random {} => uniform(rng, &all(refs)),
        WtBattlePolicy::Priority { order } => {
            for t in order {
                let idx = where_(refs, |k| kind_type(k).contains(&t.as_str()));
                if !idx.is_empty() {
                    return uniform(rng, &idx);
                }
            }
            uniform(rng, &all(refs))
        }
        WtBattlePolicy::Aggressive {} => {
            let attacks = where_(refs, |k| matches!(k, LegalKind::Target { .. } | LegalKind::Area { .. }));
            if !attacks.is_empty() {
                return uniform(rng, &attacks);
            }
            // Moves that end nearer an enemy than the mover stands now; the nearest of them.
            let mut best: Option<i64> = None;
            let mut moves = Vec::new();
            for (i, r) in refs.iter().enumerate() {
                let LegalKind::Move { mi, dest, .. } = r.kind else { continue };
                let Some(from) = s.members.get(mi).and_then(|m| nearest_enemy(s, mi, m.at)) else { continue };
                let Some(to) = nearest_enemy(s, mi, dest) else { continue };
                if to >= from {
                    continue;
                }
                match best {
                    Some(b) if to > b => {}
                    Some(b) if to == b => moves.push(i),
                    _ => {
                        best = Some(to);
                        moves.clear();
                        moves.push(i);
                    }
                }
            }
            if !moves.is_empty() {
                return uniform(rng, &moves);
            }
            let tiers: [fn(&LegalKind) -> bool; 6] = [
                |k| matches!(k, LegalKind::React { .. }),
                |k| matches!(k, LegalKind::NoReaction),
                |k| matches!(k, LegalKind::RollInitiative),
                |k| matches!(k, LegalKind::Reenter { .. }),
                |k| matches!(k, LegalKind::BringBack { .. }),
                |k| matches!(k, LegalKind::Pass { .. }),
            ];
            for f in tiers {
                let idx = where_(refs, f);
                if !idx.is_empty() {
                    return uniform(rng, &idx);
                }
            }
            uniform(rng, &all(refs))
        }
    }
}

/// The team whose policy decides now.
fn deciding_team(s: &WtBattleState) -> usize {
    if let Some(p) = &s.pending {
        return p
            .targets
            .get(p.reactions.len())
            .and_then(|t| s.idx(t))
            .and_then(|i| s.members.get(i))
            .map_or(0, |m| m.team);
    }
    s.acting_team().unwrap_or(0)
}

/// Play one battle from `s0` with the battle's own seed; returns the final state.
pub fn play_battle(
    s0: &WtBattleState,
    policies: &[WtBattlePolicy],
    seed: u64,
    list: &mut LegalList,
) -> Result<WtBattleState> {
    let mut rng = Prng::new(seed);
    let mut s = s0.clone();
    let mut ev = Vec::new();
    for _ in 0..MAX_ACTIONS {
        if s.phase == WtBattlePhase::Ended {
            return Ok(s);
        }
        list.fill(&s, None);
        if list.refs.is_empty() {
            return Err(Error::new(ErrorCode::Internal, "no legal action in a battle"));
        }
        let team = deciding_team(&s);
        let p = policies.get(team).or_else(|| policies.first()).cloned().unwrap_or(WtBattlePolicy::Random {});
        let i = choose(&p, &s, &list.refs, &mut rng);
        let la = list.action(&s, i).ok_or_else(|| Error::new(ErrorCode::Internal, "no listed action"))?;
        let mut dice = Dice::seeded(rng.next_u64() >> 11)?.unrecorded();
        ev.clear();
        engine::act(&mut s, &la.action, &mut dice, &mut ev)?;
    }
    Err(Error::limit("n", format_args!("a battle went past {MAX_ACTIONS} actions")))
}

/// The validated policy of each team.
fn team_policies(args: &WtSimulateBattlesArgs, teams: usize) -> Result<Vec<WtBattlePolicy>> {
    let list = match &args.policies {
        Some(ps) => {
            if ps.len() != teams {
                return Err(Error::invalid(
                    "policies",
                    format_args!("one policy per team: {teams} teams, {} policies", ps.len()),
                ));
            }
            ps.clone()
        }
        None => vec![args.policy.clone().unwrap_or(WtBattlePolicy::Random {}); teams],
    };
    for (i, p) in list.iter().enumerate() {
        if let WtBattlePolicy::Priority { order } = p {
            let f =
                if args.policies.is_some() { format!("policies[{i}].order") } else { "policy.order".into() };
            if order.is_empty() || order.len() > PRIORITY_TYPES.len() {
                return Err(Error::invalid(f, "1-12 action types"));
            }
            for (j, t) in order.iter().enumerate() {
                if !PRIORITY_TYPES.contains(&t.as_str()) {
                    return Err(Error::invalid(
                        format!("{f}[{j}]"),
                        format_args!(
                            "unknown action type; expected {}",
                            crate::json::one_of(&PRIORITY_TYPES)
                        ),
                    ));
                }
            }
        }
    }
    Ok(list)
}

/// `world_trigger.simulate_battles` — `n` complete battles; per battle the
/// winner (team index, −1 for a draw), the rounds played, each team's points
/// and each team's members down (not active) at the end.
pub fn simulate_battles(args: &WtSimulateBattlesArgs) -> Result<BatchData> {
    let s0 = battle_new(&args.setup).map_err(|e| e.within("setup"))?.state;
    let teams = s0.teams.len();
    let policies = team_policies(args, teams)?;
    if args.n > MAX_BATTLES {
        // The field's own range (declared; here for Rust callers): out_of_range. The work
        // across the call (below) is limit_exceeded.
        return Err(Error::out_of_range(
            "n",
            format_args!("at most {MAX_BATTLES} battles per call, not {}", args.n),
        ));
    }
    let work = args.n.saturating_mul(u64::from(s0.max_rounds)).saturating_mul(s0.members.len() as u64);
    if work > MAX_MEMBER_ROUNDS {
        return Err(Error::limit(
            "n",
            format_args!(
                "at most {MAX_MEMBER_ROUNDS} member-rounds per call (battles × last round × members): \
                 {} × {} × {} is {work}",
                args.n,
                s0.max_rounds,
                s0.members.len()
            ),
        ));
    }
    let n = crate::batch::check_n(args.n)?;
    // The master generator: the seed's (or entropy's) stream, as in every batch call
    // (dropped last: where it ends is the batch's end).
    let mut master = args.source.dice()?.unrecorded();
    let mut winner = Vec::with_capacity(n);
    let mut rounds = Vec::with_capacity(n);
    let mut points = Vec::with_capacity(n * teams);
    let mut down = Vec::with_capacity(n * teams);
    let mut list = LegalList::default();
    let i32_of =
        |v: i64| i32::try_from(v).map_err(|_| Error::new(ErrorCode::Internal, "a count beyond int32"));
    for _ in 0..n {
        let word = master.fast_prng().map_or(0, Prng::next_u64);
        let s = play_battle(&s0, &policies, word >> 11, &mut list)?;
        let w = s
            .outcome
            .as_ref()
            .and_then(|o| o.winner.as_ref())
            .and_then(|id| s.teams.iter().position(|t| &t.id == id));
        winner.push(w.map_or(Ok(-1), |w| i32_of(w as i64))?);
        rounds.push(i32_of(i64::from(s.round))?);
        for (ti, t) in s.teams.iter().enumerate() {
            points.push(i32_of(t.points)?);
            let d = s.members.iter().filter(|m| m.team == ti && m.status != WtMemberStatus::Active).count();
            down.push(i32_of(d as i64)?);
        }
    }
    let mut data = winner;
    data.extend(rounds);
    data.extend(points);
    data.extend(down);
    Ok(BatchData::Parts(
        data,
        vec![
            BatchPart { name: "winner", shape: [n, 1] },
            BatchPart { name: "rounds", shape: [n, 1] },
            BatchPart { name: "points", shape: [n, teams] },
            BatchPart { name: "down", shape: [n, teams] },
        ],
    ))
}

#[cfg(test)]
mod tests {
    //! `world_trigger.simulate_battles` against an independent replay: the same
    //! battles played through the pure JSON operations (`battle_legal_actions`,
    //! `battle_act`), each policy re-implemented here on the JSON listing.
    use super::*;
    use serde_json::{json, Value};

    fn setup(name: &str) -> Value {
        crate::world_trigger::battle::tests::setup(name)
    }

    fn sim(args: Value) -> BatchData {
        crate::batch::call_batch("world_trigger.simulate_battles", args).unwrap()
    }

    fn part(d: &BatchData, name: &str) -> Vec<i32> {
        let BatchData::Parts(v, parts) = d else { panic!("a table") };
        let mut off = 0;
        for p in parts {
            let len = p.shape[0] * p.shape[1];
            if p.name == name {
                return v[off..off + len].to_vec();
            }
            off += len;
        }
        panic!("no part {name}")
    }

    /// The JSON form of a listed action's kind, as the policies classify it.
    fn is_attack(a: &Value) -> bool {
        a["type"] == "use_skill" && (!a["target"].is_null() || !a["center"].is_null())
    }

    fn types_of(a: &Value) -> Vec<&'static str> {
        let t = a["type"].as_str().unwrap();
        let mut v: Vec<&'static str> = PRIORITY_TYPES.iter().copied().filter(|x| *x == t).collect();
        if t == "use_skill" {
            v.push(if is_attack(a) { "attack" } else { "skill" });
        }
        v
    }

    fn cheb(a: &Value, b: &Value) -> i64 {
        let d = |k: &str| (a[k].as_i64().unwrap() - b[k].as_i64().unwrap()).abs();
        d("x").max(d("y"))
    }

    fn nearest(state: &Value, mover: &str, sq: &Value) -> Option<i64> {
        let ms = state["members"].as_array().unwrap();
        let me = ms.iter().find(|m| m["id"] == mover)?;
        let (w, h) = (state["map"]["width"].as_i64().unwrap(), state["map"]["height"].as_i64().unwrap());
        let off: Vec<&Value> =
            state["map"]["off_map"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
        ms.iter()
            .filter(|o| o["team"] != me["team"] && o["status"] == "active")
            .filter(|o| {
                let (x, y) = (o["at"]["x"].as_i64().unwrap(), o["at"]["y"].as_i64().unwrap());
                (0..w).contains(&x) && (0..h).contains(&y) && !off.contains(&&o["at"])
            })
            .map(|o| cheb(sq, &o["at"]))
            .min()
    }

    fn uniform(rng: &mut Prng, idx: &[usize]) -> usize {
        idx[rng.face(idx.len() as u32) as usize - 1]
    }

    /// The policy `p` on the JSON listing (an independent reading of the module docs).
    fn choose_json(p: &Value, state: &Value, listed: &[Value], rng: &mut Prng) -> usize {
        let acts: Vec<&Value> = listed.iter().map(|l| &l["action"]).collect();
        let all: Vec<usize> = (0..acts.len()).collect();
        let which =
            |f: &dyn Fn(&Value) -> bool| -> Vec<usize> { (0..acts.len()).filter(|&i| f(acts[i])).collect() };
        match p["type"].as_str().unwrap() {
            "random" => uniform(rng, &all),
            "priority" => {
                for t in p["order"].as_array().unwrap() {
                    let idx = which(&|a| types_of(a).contains(&t.as_str().unwrap()));
                    if !idx.is_empty() {
                        return uniform(rng, &idx);
                    }
                }
                uniform(rng, &all)
            }
            _ => {
                let attacks = which(&is_attack);
                if !attacks.is_empty() {
                    return uniform(rng, &attacks);
                }
                let mut best = i64::MAX;
                let mut moves = Vec::new();
                for (i, a) in acts.iter().enumerate() {
                    if a["type"] != "move" {
                        continue;
                    }
                    let who = a["actor"].as_str().unwrap();
                    let at =
                        &state["members"].as_array().unwrap().iter().find(|m| m["id"] == who).unwrap()["at"];
                    let dest = a["path"].as_array().unwrap().last().unwrap();
                    let (Some(from), Some(to)) = (nearest(state, who, at), nearest(state, who, dest)) else {
                        continue;
                    };
                    if to < from {
                        if to < best {
                            best = to;
                            moves.clear();
                        }
                        if to == best {
                            moves.push(i);
                        }
                    }
                }
                if !moves.is_empty() {
                    return uniform(rng, &moves);
                }
                for t in ["react", "no_reaction", "roll_initiative", "reenter", "bring_back", "pass"] {
                    let idx = which(&|a| a["type"] == t);
                    if !idx.is_empty() {
                        return uniform(rng, &idx);
                    }
                }
                uniform(rng, &all)
            }
        }
    }

    /// The team deciding now, from the core's turn: the reacting member's, else the acting one.
    fn deciding(state: &Value) -> usize {
        let turn = crate::call("world_trigger.battle_turn", json!({"state": state})).unwrap();
        let (id, stage) = (&turn["active"][0]["id"], &turn["active"][0]["stage"]);
        if stage == "reaction" {
            let m = state["members"].as_array().unwrap().iter().find(|m| m["id"] == *id).unwrap();
            return m["team"].as_u64().unwrap() as usize;
        }
        let teams = state["teams"].as_array().unwrap();
        teams.iter().position(|t| stage == "turn" && t["id"] == *id).unwrap_or(0)
    }

    /// Battle `k` of `seed`, replayed through the pure operations: (winner, rounds, points, down).
    fn replay(setup: &Value, policies: &[Value], seed: u64, k: usize) -> (i32, i32, Vec<i32>, Vec<i32>) {
        let mut master = Prng::new(seed);
        let mut bseed = 0;
        for _ in 0..=k {
            bseed = master.next_u64() >> 11;
        }
        let mut rng = Prng::new(bseed);
        let mut state = crate::call("world_trigger.battle_new", setup.clone()).unwrap()["state"].take();
        loop {
            let legal = crate::call("world_trigger.battle_legal_actions", json!({"state": state})).unwrap();
            let listed = legal["actions"].as_array().unwrap();
            if listed.is_empty() {
                break;
            }
            let p = &policies[deciding(&state).min(policies.len() - 1)];
            let i = choose_json(p, &state, listed, &mut rng);
            let dseed = rng.next_u64() >> 11;
            let r = crate::call(
                "world_trigger.battle_act",
                json!({"state": state, "action": listed[i]["action"], "seed": dseed}),
            )
            .unwrap();
            state = r["state"].clone();
        }
        let teams = state["teams"].as_array().unwrap();
        let w = state["outcome"]["winner"].as_str().and_then(|id| teams.iter().position(|t| t["id"] == id));
        let points = teams.iter().map(|t| t["points"].as_i64().unwrap() as i32).collect();
        let down = (0..teams.len())
            .map(|ti| {
                state["members"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|m| m["team"] == ti && m["status"] != "active")
                    .count() as i32
            })
            .collect();
        (w.map_or(-1, |w| w as i32), state["round"].as_i64().unwrap() as i32, points, down)
    }

    fn check_policy(setup_name: &str, policies: Vec<Value>, n: usize, seed: u64) {
        let mut s = setup(setup_name);
        s["max_rounds"] = json!(3);
        let args = if policies.len() == 1 {
            json!({"setup": s, "n": n, "seed": seed, "policy": policies[0]})
        } else {
            json!({"setup": s, "n": n, "seed": seed, "policies": policies})
        };
        let d = sim(args);
        let (w, r, p, dn) = (part(&d, "winner"), part(&d, "rounds"), part(&d, "points"), part(&d, "down"));
        let t = p.len() / n;
        for k in 0..n {
            let (ew, er, ep, ed) = replay(&s, &policies, seed, k);
            assert_eq!((w[k], r[k]), (ew, er), "{setup_name} {policies:?} battle {k}: winner, rounds");
            assert_eq!(p[k * t..(k + 1) * t].to_vec(), ep, "battle {k}: points");
            assert_eq!(dn[k * t..(k + 1) * t].to_vec(), ed, "battle {k}: down");
        }
    }

    #[test]
    fn random_policy_matches_a_replay_through_the_pure_ops() {
        check_policy("rank_3v3", vec![json!({"type": "random"})], 3, 11);
    }

    #[test]
    fn aggressive_policy_matches_a_replay_through_the_pure_ops() {
        check_policy("rank_3v3", vec![json!({"type": "aggressive"})], 3, 5);
        check_policy("mock_4v4", vec![json!({"type": "aggressive"}), json!({"type": "random"})], 2, 8);
    }

    #[test]
    fn priority_policy_matches_a_replay_through_the_pure_ops() {
        let p = json!({"type": "priority", "order": ["attack", "move", "react", "pass"]});
        let q = json!({"type": "priority", "order": ["pass"]});
        check_policy("rank_3v3", vec![p, q, json!({"type": "aggressive"})], 3, 2);
    }

    #[test]
    fn battle_k_depends_on_the_seed_and_k_only() {
        let s = setup("rank_3v3");
        let a = sim(json!({"setup": s, "n": 2, "seed": 9}));
        let b = sim(json!({"setup": s, "n": 5, "seed": 9}));
        for name in ["winner", "rounds"] {
            assert_eq!(part(&a, name), part(&b, name)[..2].to_vec());
        }
        // Three teams: a battle's points are three values.
        assert_eq!(part(&a, "points"), part(&b, "points")[..6].to_vec());
    }

    #[test]
    fn aggressive_beats_passive_more_often_than_not() {
        // WT-END-2: a team that only passes never scores; one that attacks does.
        let s = setup("rank_3v3");
        let passive = json!({"type": "priority", "order": ["pass", "no_reaction"]});
        let d = sim(json!({"setup": s, "n": 40, "seed": 3,
            "policies": [{"type": "aggressive"}, passive, passive]}));
        let w = part(&d, "winner");
        let p = part(&d, "points");
        let wins = |t: i32| w.iter().filter(|&&x| x == t).count();
        assert!(wins(0) > wins(1) + wins(2), "{w:?}");
        assert!(p.chunks(3).all(|c| c[1] == 0 && c[2] == 0), "a passing team scores nothing: {p:?}");
        assert!(p.chunks(3).any(|c| c[0] > 0), "the aggressive team scores: {p:?}");
    }

    /// The native figures `make bench` sets beside Python's and Node's (`benchmarks/run.sh`):
    /// `cargo test --release -p gunbai --lib bench_simulate_battles -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn bench_simulate_battles() {
        let s = setup("rank_3v3");
        let n: u64 = std::env::var("GUNBAI_BENCH_BATTLES").ok().and_then(|v| v.parse().ok()).unwrap_or(800);
        let mut best = f64::INFINITY;
        for seed in 0..3 {
            let t = std::time::Instant::now();
            sim(json!({"setup": s, "n": n, "seed": seed}));
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("native.sim_us_per_battle {:.1}", best / n as f64 * 1e6);
        println!("native.sim_battles_per_s {:.0}", n as f64 / best);
        // One action with its listing, typed (a uniform choice among the listed actions).
        let s0 = battle_new(&serde_json::from_value(s).unwrap()).unwrap().state;
        let mut list = LegalList::default();
        let (mut actions, t) = (0u64, std::time::Instant::now());
        for seed in 0..n / 4 {
            let mut rng = Prng::new(seed);
            let mut st = s0.clone();
            let mut ev = Vec::new();
            while st.phase != WtBattlePhase::Ended {
                list.fill(&st, None);
                let i = uniform(&mut rng, &all(&list.refs));
                let la = list.action(&st, i).unwrap();
                let mut d = Dice::seeded(rng.next_u64() >> 11).unwrap().unrecorded();
                ev.clear();
                engine::act(&mut st, &la.action, &mut d, &mut ev).unwrap();
                actions += 1;
            }
        }
        println!("native.us_per_action {:.2}", t.elapsed().as_secs_f64() / actions as f64 * 1e6);
    }

    #[test]
    fn limits_are_checked_before_any_battle() {
        let s = setup("rank_3v3");
        let e = crate::batch::call_batch(
            "world_trigger.simulate_battles",
            json!({"setup": s, "n": 100_001, "seed": 1}),
        )
        .unwrap_err();
        // n's own range (RULINGS, "Error codes"); the member-rounds below are work.
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::OutOfRange, Some("n")));
        // 10 rounds × 6 members: 10,001 battles are 600,060 member-rounds.
        let e = crate::batch::call_batch(
            "world_trigger.simulate_battles",
            json!({"setup": s, "n": 10_001, "seed": 1}),
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        let e = crate::batch::call_batch(
            "world_trigger.simulate_battles",
            json!({"setup": s, "n": 1, "seed": 1, "policies": [{"type": "random"}]}),
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("policies"));
        let e = crate::batch::call_batch(
            "world_trigger.simulate_battles",
            json!({"setup": s, "n": 1, "seed": 1, "policy": {"type": "priority", "order": ["fly"]}}),
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("policy.order[0]"));
        let e = crate::batch::call_batch(
            "world_trigger.simulate_battles",
            json!({"setup": {"battle_type": "rank"}, "n": 1, "seed": 1}),
        )
        .unwrap_err();
        assert!(e.field.as_deref().unwrap().starts_with("setup"), "{e:?}");
    }
}
