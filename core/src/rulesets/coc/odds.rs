//! Exact one-on-one duel odds (`coc7_house.duel_odds`, `coc_ap.duel_odds`; the `odds`
//! feature, which the wasm entries leave out).
//!
//! A duel is an absorbing Markov chain. Its transient states are the pairs of hit
//! points `(hp_0, hp_1)` at which both combatants are still up, taken at each step of
//! a round: a round is a fixed list of exchanges (who attacks, and the exact
//! distribution of what the exchange does), which each engine derives from its own
//! rules. An exchange's outcome is a branch `(probability, damage to the target,
//! damage back to the attacker)`: the damage to the target is applied first (through
//! the engine's own HP rule), and the damage back only when the target is still up
//! after it. The chain is run forward round by round: the probability mass that
//! leaves the transient states in round `r` is the chance that the fight ends in round
//! `r`, with the side of the combatant still up winning. Every probability is computed
//! in `f64` from exact counts (no sampling).

use crate::dice::expr::{DiceTerm, DiceTermKind};
use crate::error::{Error, Result};

/// Widest damage distribution (values from its lowest to its highest).
pub const MAX_WIDTH: usize = 20_000;
/// Most work in one call: transient states × branches × exchanges per round × rounds.
pub const MAX_WORK: u64 = 2_000_000_000;
/// Most rounds a duel may run.
pub const MAX_ROUNDS: u32 = 10_000;
/// The most hit points a duel's combatant may have.
pub const MAX_HP: i64 = 10_000;

/// The argument and result types of one engine's `duel_odds` operation: its round's
/// setup, its reaction kinds, and the odds (the same shape for every engine).
macro_rules! duel_shapes {
    ($args:ident, $res:ident, $setup:ty, $reaction:ty, $op:literal, $setup_doc:literal, $reactions_doc:literal,
     $who:literal) => {
        #[doc = concat!("Arguments of `", $op, "`.")]
        #[derive(Debug, Clone, crate::json::ToJson, crate::json::FromJson)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(deny_unknown_fields)]
        pub struct $args {
            #[doc = $setup_doc]
            pub setup: $setup,
            #[doc = $reactions_doc]
            #[serde(default)]
            pub reactions: std::collections::BTreeMap<String, $reaction>,
            /// Rounds played before the fight counts as unfinished, 1–10000. Default 100.
            #[serde(default)]
            #[schemars(range(min = 1, max = 10000))]
            pub max_rounds: Option<u32>,
        }

        #[doc = concat!("Result of `", $op, "`.")]
        #[derive(Debug, Clone, PartialEq, crate::json::ToJson, crate::json::FromJson)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub struct $res {
            #[doc = concat!("The two ", $who, "s' ids, in the setup's order.")]
            pub ids: Vec<String>,
            /// Their sides, in the same order.
            pub sides: Vec<String>,
            /// The probability that each one's side wins (the other down) within `max_rounds`.
            pub win: Vec<f64>,
            /// The probability that both are still up after `max_rounds` rounds.
            pub unfinished: f64,
            #[doc = concat!("`by_round[r − 1][i]`: the probability that the fight ends in round `r` with ", $who, " `i`'s side the winner.")]
            pub by_round: Vec<Vec<f64>>,
            /// The size of the chain's HP grid: each one's HP from 1 to its starting `hp` (the
            /// transient states are the pairs at which both are up).
            pub states: u64,
        }
    };
}
pub(crate) use duel_shapes;

/// A probability mass function over the integers `lo .. lo + p.len()`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pmf {
    pub lo: i64,
    pub p: Vec<f64>,
}

impl Pmf {
    /// Certainly `v`.
    pub fn point(v: i64) -> Pmf {
        Pmf { lo: v, p: vec![1.0] }
    }

    fn checked(lo: i64, p: Vec<f64>, field: &str) -> Result<Pmf> {
        if p.len() > MAX_WIDTH {
            return Err(Error::limit(
                field,
                format_args!("duel odds: damage spans at most {MAX_WIDTH} values"),
            ));
        }
        Ok(Pmf { lo, p })
    }

    /// The sum of two independent values.
    pub fn add(&self, o: &Pmf, field: &str) -> Result<Pmf> {
        if self.p.len() + o.p.len() > MAX_WIDTH + 1 {
            return Err(Error::limit(
                field,
                format_args!("duel odds: damage spans at most {MAX_WIDTH} values"),
            ));
        }
        let mut p = vec![0.0; self.p.len() + o.p.len() - 1];
        for (i, a) in self.p.iter().enumerate() {
            for (j, b) in o.p.iter().enumerate() {
                p[i + j] += a * b;
            }
        }
        Pmf::checked(self.lo + o.lo, p, field)
    }

    /// The sum of `n` dice with `sides` sides: a sliding window per die.
    pub fn dice(n: u64, sides: u64, field: &str) -> Result<Pmf> {
        if n.saturating_mul(sides) > MAX_WIDTH as u64 {
            return Err(Error::limit(
                field,
                format_args!("duel odds: damage spans at most {MAX_WIDTH} values"),
            ));
        }
        let (n, s) = (n as usize, sides as usize);
        let mut p = vec![1.0];
        for _ in 0..n {
            let mut q = vec![0.0; p.len() + s - 1];
            let mut window = 0.0;
            for (v, slot) in q.iter_mut().enumerate() {
                window += p.get(v).copied().unwrap_or(0.0);
                if v >= s {
                    window -= p[v - s];
                }
                *slot = window / s as f64;
            }
            p = q;
        }
        Pmf::checked(n as i64, p, field)
    }

    /// Each value times `k` (a doubled total: `k = 2`; a subtracted term: `k = −1`).
    pub fn times(&self, k: i64) -> Pmf {
        let hi = self.lo + self.p.len() as i64 - 1;
        let (a, b) = (self.lo * k, hi * k);
        let lo = a.min(b);
        let mut p = vec![0.0; (a - b).unsigned_abs() as usize + 1];
        for (i, x) in self.p.iter().enumerate() {
            p[((self.lo + i as i64) * k - lo) as usize] += x;
        }
        Pmf { lo, p }
    }

    /// `max(0, value)`: damage is never below 0.
    pub fn floor0(&self) -> Pmf {
        if self.lo >= 0 {
            return self.clone();
        }
        let hi = self.lo + self.p.len() as i64 - 1;
        if hi <= 0 {
            return Pmf::point(0);
        }
        let cut = (-self.lo) as usize;
        let mut p = self.p[cut..].to_vec();
        p[0] += self.p[..cut].iter().sum::<f64>();
        Pmf { lo: 0, p }
    }

    /// `a` with weight `wa` plus `b` with weight `wb` (a mixture, or a part of one).
    pub fn mix(a: &Pmf, wa: f64, b: &Pmf, wb: f64) -> Pmf {
        let lo = a.lo.min(b.lo);
        let hi = (a.lo + a.p.len() as i64).max(b.lo + b.p.len() as i64);
        let mut p = vec![0.0; (hi - lo) as usize];
        for (x, w) in [(a, wa), (b, wb)] {
            for (i, q) in x.p.iter().enumerate() {
                p[(x.lo - lo) as usize + i] += q * w;
            }
        }
        Pmf { lo, p }
    }

    /// Each value `v` mapped to `f(v)`.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Result<Pmf> {
        let mut out = Pmf { lo: 0, p: Vec::new() };
        for (v, q) in self.iter() {
            out = Pmf::mix(&out, 1.0, &Pmf::point(f(v)), q);
        }
        Ok(out)
    }

    /// `(value, probability)` for every value with a positive probability.
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.p.iter().enumerate().filter(|&(_, &x)| x > 0.0).map(move |(i, &x)| (self.lo + i as i64, x))
    }
}

/// A term of a parsed dice expression (`crate::dice::expr`), unsigned: `NdS` the sum of
/// N dice, `D66` tens × 10 + ones, a constant its value.
pub(crate) fn term_pmf(t: &DiceTerm, field: &str) -> Result<Pmf> {
    match t.kind {
        DiceTermKind::Constant => Ok(Pmf::point(t.value)),
        DiceTermKind::Dice => Pmf::dice(u64::from(t.count), u64::from(t.sides), field),
        DiceTermKind::D66 => {
            let mut p = vec![0.0; 56];
            for tens in 1..=6 {
                for ones in 1..=6 {
                    p[tens * 10 + ones - 11] += 1.0 / 36.0;
                }
            }
            Ok(Pmf { lo: 11, p })
        }
    }
}

/// The exact distribution of a dice expression's total (`crate::dice::expr`, as it rolls).
pub(crate) fn expr_pmf(expr: &str, field: &str) -> Result<Pmf> {
    let mut probe = crate::dice::Dice::seeded(0)?;
    let (_, shape) = crate::dice::expr::roll_with(expr, &mut probe)
        .map_err(|e| e.relocated(crate::error::loc_of(field)))?;
    let mut total = Pmf::point(0);
    for t in &shape {
        total = total.add(&term_pmf(t, field)?.times(i64::from(t.sign)), field)?;
    }
    Ok(total)
}

/// One exchange's outcomes: `(probability, damage to the target, damage back to the
/// attacker when the target is still up)`, merged and without zero-probability branches.
pub(crate) type Branches = Vec<(f64, i64, i64)>;

/// `b` with equal damage pairs merged.
pub(crate) fn merged(mut b: Branches) -> Branches {
    b.retain(|x| x.0 > 0.0);
    b.sort_by_key(|x| (x.1, x.2));
    let mut out: Branches = Vec::with_capacity(b.len());
    for (p, t, a) in b {
        match out.last_mut() {
            Some(last) if last.1 == t && last.2 == a => last.0 += p,
            _ => out.push((p, t, a)),
        }
    }
    out
}

/// One exchange of a round: combatant `attacker` (0 or 1) attacks the other.
pub(crate) struct Step {
    pub attacker: usize,
    pub branches: Branches,
}

/// The chain's answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Chain {
    /// `by_round[r − 1][i]`: the fight ends in round `r`, combatant `i` still up.
    pub by_round: Vec<[f64; 2]>,
    /// Both still up after the last round.
    pub unfinished: f64,
    /// Transient states: HP pairs at which both are up.
    pub states: u64,
}

/// What a hit of `amount` does to combatant `who` at `hp`: its HP after, and whether it
/// is down (the engine's own HP rule).
pub(crate) type Hurt<'a> = dyn FnMut(usize, i64, i64) -> Result<(i64, bool)> + 'a;

/// Run the duel from `hp` (both up, each 1..=MAX_HP) for `max_rounds` rounds of `round`.
pub(crate) fn run(hp: [i64; 2], hurt: &mut Hurt<'_>, round: &[Step], max_rounds: u32) -> Result<Chain> {
    let n = [hp[0] as usize + 1, hp[1] as usize + 1];
    let states = (hp[0] as u64) * (hp[1] as u64);
    let branches: u64 = round.iter().map(|s| s.branches.len() as u64).sum();
    if states.saturating_mul(branches).saturating_mul(u64::from(max_rounds)) > MAX_WORK {
        return Err(Error::limit(
            "max_rounds",
            format_args!(
                "duel odds: HP pairs × outcomes per round × rounds is at most {MAX_WORK} \
                 ({states} × {branches} × {max_rounds}): fewer rounds or smaller dice"
            ),
        ));
    }
    // hurt(who, hp, amount) once per HP and damage amount the branches name.
    let mut amounts: Vec<i64> =
        round.iter().flat_map(|s| s.branches.iter().flat_map(|b| [b.1, b.2])).collect();
    amounts.sort_unstable();
    amounts.dedup();
    let mut table: [Vec<(i64, bool)>; 2] = [Vec::new(), Vec::new()];
    for who in 0..2 {
        for h in 0..n[who] as i64 {
            for &a in &amounts {
                table[who].push(if h == 0 || a == 0 { (h, h == 0) } else { hurt(who, h, a)? });
            }
        }
    }
    let amount_at = |a: i64| amounts.binary_search(&a).unwrap_or(0);
    let idx: Vec<Vec<(usize, usize)>> =
        round.iter().map(|s| s.branches.iter().map(|b| (amount_at(b.1), amount_at(b.2))).collect()).collect();
    let k = amounts.len();
    let mut mass = vec![0.0; n[0] * n[1]];
    mass[hp[0] as usize * n[1] + hp[1] as usize] = 1.0;
    let mut out = Chain { by_round: Vec::new(), unfinished: 0.0, states };
    for _ in 0..max_rounds {
        let mut ended = [0.0; 2];
        for (s, step) in round.iter().enumerate() {
            let mut next = vec![0.0; mass.len()];
            let (x, y) = (step.attacker, 1 - step.attacker);
            for (i, &m) in mass.iter().enumerate() {
                if m == 0.0 {
                    continue;
                }
                let h = [(i / n[1]) as i64, (i % n[1]) as i64];
                for (b, &(ti, ai)) in step.branches.iter().zip(&idx[s]) {
                    let q = m * b.0;
                    let (hy, y_down) =
                        if b.1 == 0 { (h[y], false) } else { table[y][h[y] as usize * k + ti] };
                    if y_down {
                        ended[x] += q;
                        continue;
                    }
                    let (hx, x_down) =
                        if b.2 == 0 { (h[x], false) } else { table[x][h[x] as usize * k + ai] };
                    if x_down {
                        ended[y] += q;
                        continue;
                    }
                    let mut g = [0i64; 2];
                    g[x] = hx;
                    g[y] = hy;
                    next[g[0] as usize * n[1] + g[1] as usize] += q;
                }
            }
            mass = next;
        }
        out.by_round.push(ended);
    }
    out.unfinished = mass.iter().sum();
    Ok(out)
}

/// The level probabilities of a check from its exact counts, best first (`Coc7Level::ALL`).
pub(crate) fn level_odds(c: &crate::coc7::odds::Coc7LevelCounts, total: u64) -> [f64; 6] {
    let t = total as f64;
    [c.critical, c.extreme, c.hard, c.regular, c.failure, c.fumble].map(|x| x as f64 / t)
}

/// Test support: a duel's exact odds against `round_simulate`.
#[cfg(test)]
pub(crate) mod check {
    use serde_json::{json, Value};

    /// What `n` simulated battles gave.
    pub struct Sim {
        pub n: u64,
        pub wins: [u64; 2],
        pub unfinished: u64,
        pub by_round: Vec<[u64; 2]>,
    }

    /// `n` battles of `op` (a `round_simulate`) from `setup` by `policies`, in chunks
    /// (each battle given `steps` actions per round, so that every one plays at least
    /// `rounds` rounds): the wins of each participant's side by round; a battle not over
    /// within `rounds` rounds is unfinished.
    pub fn simulate(op: &str, setup: &Value, policies: &[Value], rounds: u32, steps: u32, n: u64) -> Sim {
        let max_steps = steps * (rounds + 1);
        let chunk = 10_000 / u64::from(max_steps);
        let sides: Vec<Value> = setup["participants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| if p["side"].is_null() { p["id"].clone() } else { p["side"].clone() })
            .collect();
        let mut s = Sim { n, wins: [0; 2], unfinished: 0, by_round: vec![[0; 2]; rounds as usize] };
        let mut first = 0;
        while first < n {
            let m = chunk.min(n - first);
            let r = crate::call(
                op,
                json!({"setup": setup, "seed": 42, "first": first, "n": m, "max_steps": max_steps,
                       "policies": policies, "threads": 0}),
            )
            .unwrap_or_else(|e| panic!("{}", e.message));
            let b = &r["battles"];
            for k in 0..m as usize {
                let round = b["rounds"][k].as_u64().unwrap() as usize;
                let who = sides.iter().position(|x| *x == b["winner"][k]);
                match who {
                    Some(i) if round <= rounds as usize => {
                        s.wins[i] += 1;
                        s.by_round[round - 1][i] += 1;
                    }
                    _ => s.unfinished += 1,
                }
            }
            first += m;
        }
        s
    }

    /// Battles each duel's odds-against-simulation test plays: `GUNBAI_ODDS_BATTLES`
    /// (scripts/ci/property.sh sets `make test`'s 10^4, and 3·10^4 with `GUNBAI_LONG=1`), else
    /// 3·10^4. The bounds of [`agree`] are in standard errors of that count, so a smaller
    /// count widens them with the noise and keeps the false-failure rate.
    pub fn battles() -> u64 {
        std::env::var("GUNBAI_ODDS_BATTLES").ok().and_then(|v| v.parse().ok()).unwrap_or(30_000)
    }

    /// `count` of `n` lies within `z` standard errors of the exact `p` (the binomial's
    /// own standard error; a `p` of 0 or 1 must be met exactly).
    pub fn within(what: &str, p: f64, count: u64, n: u64, z: f64) {
        let f = count as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (f - p).abs() <= z * se + 1e-12,
            "{what}: exact {p}, simulated {f} ({count}/{n}), {z} SE = {}",
            z * se
        );
    }

    /// A `duel_odds` result `r` agrees with `s`: each side's win and the unfinished chance
    /// within 3 standard errors, each round's chance of ending with each winner within 4.5
    /// (wider: where a round's chance is tiny the count is nearly Poisson, whose upper tail
    /// the normal bound understates). The tests fix the seed, so a result is reproducible.
    pub fn agree(what: &str, r: &Value, s: &Sim) {
        for i in 0..2 {
            within(&format!("{what} win {i}"), r["win"][i].as_f64().unwrap(), s.wins[i], s.n, 3.0);
            for (k, row) in s.by_round.iter().enumerate() {
                let p = r["by_round"][k][i].as_f64().unwrap();
                within(&format!("{what} round {} win {i}", k + 1), p, row[i], s.n, 4.5);
            }
        }
        within(&format!("{what} unfinished"), r["unfinished"].as_f64().unwrap(), s.unfinished, s.n, 3.0);
    }
}
