//! Exact odds of World Trigger checks (WT-CHK-3/4/6, WT-OPP-3).
//!
//! ## Algorithm
//!
//! The achievement of an N-die pool is `S + 10·⌊K/2⌋`, where `S` is the sum of
//! the faces and `K` the number of 1s (WT-CHK-4). Condition on `K = k`:
//! `K ~ Binomial(N, 1/6)`, and the other `m = N − k` dice are uniform on
//! `{2,…,6}`, i.e. `2m + U_m` with `U_m` the sum of `m` dice uniform on
//! `{0,…,4}`. So
//!
//! ```text
//! P(achievement = v) = Σ_k C(N,k)·(1/6)^k·(5/6)^(N−k) · P(U_(N−k) = v − k − 10⌊k/2⌋ − 2(N−k))
//! ```
//!
//! `U_0, U_1, …, U_N` are built one die at a time (each step a 5-term sum per
//! cell, all additions of non-negative numbers, so no cancellation and full
//! relative precision even in the far tails), and each `U_m` is added into the
//! result as soon as it is built with its binomial weight for `k = N − m`.
//! Cost: O(N²) ≈ 10⁵ multiply-adds for N = 100, memory O(N).
//! Probabilities are f64 (relative error ~1e-15 on every entry, tails included).
//!
//! With `exact: true`, `distribution` also returns every outcome count out of
//! 6^N as an exact decimal integer. That uses an addition-only big-integer
//! dynamic programme over (achievement so far, parity of 1s so far): a 1
//! either opens a pair (+1) or closes one (+1 + 10). It is exact for any pool
//! size and costs O(N²·limbs).
//!
//! The expected value has a closed form: with p = 1/6,
//! `E = 3.5N + 10·E⌊K/2⌋ = 3.5N + 5·(N/6 − (1 − (2/3)^N)/2)`,
//! since `P(K odd) = (1 − (1 − 2p)^N)/2`. Per die it rises from 3.5 toward
//! 3.5 + 5/6 ≈ 4.33 (WT-CHK-6).

use super::check::{WtPoolArgs, CRITICAL_BONUS};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Most dice in one `expected_table`.
pub const MAX_TABLE_DICE: u32 = 100;

/// The exact distribution of one pool's achievement value.
#[derive(Debug, Clone, PartialEq)]
pub struct WtPmf {
    /// Smallest possible achievement.
    pub min: i64,
    /// `probs[i]` = P(achievement = min + i); zero for impossible values in between.
    pub probs: Vec<f64>,
}

impl WtPmf {
    /// Largest possible achievement.
    pub fn max(&self) -> i64 {
        self.min + self.probs.len() as i64 - 1
    }

    /// P(achievement = v).
    pub fn p(&self, v: i64) -> f64 {
        v.checked_sub(self.min)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.probs.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    /// P(achievement ≥ target), summed from the top (small terms first).
    pub fn at_least(&self, target: i64) -> f64 {
        let start = target.saturating_sub(self.min).max(0);
        let Ok(start) = usize::try_from(start) else { return 0.0 };
        self.probs.iter().skip(start).rev().sum::<f64>().min(1.0) + 0.0 // `+ 0.0` turns the empty sum (-0.0) into 0.0
    }

    /// The mean.
    pub fn mean(&self) -> f64 {
        self.probs.iter().enumerate().map(|(i, p)| p * (self.min as f64 + i as f64)).sum()
    }
}

/// WT-CHK-3/4: the exact achievement distribution of `n` d6 (see the module docs).
pub fn pmf(n: u32) -> WtPmf {
    let n = n as usize;
    if n == 0 {
        return WtPmf { min: 0, probs: vec![1.0] };
    }
    // Highest achievement: max over k of 6(n−k) + k + 10⌊k/2⌋ (all sixes = 6n, all ones = n + 10⌊n/2⌋).
    let top = |k: usize| 6 * (n - k) + k + 10 * (k / 2);
    let max = (0..=n).map(top).max().unwrap_or(0);
    let mut out = vec![0.0f64; max + 1];
    // Binomial weights w_k = C(n,k) (1/6)^k (5/6)^(n−k), built by the ratio w_{k+1}/w_k.
    let mut w = vec![0.0f64; n + 1];
    let mut wk = (5.0f64 / 6.0).powi(n as i32);
    for (k, slot) in w.iter_mut().enumerate() {
        *slot = wk;
        wk = wk * (n - k) as f64 / ((k + 1) as f64 * 5.0);
    }
    // U_m: sum of m dice uniform on 0..=4, built incrementally and in place
    // (backwards, so each cell reads only cells not yet updated).
    let mut u = Vec::with_capacity(4 * n + 1);
    u.push(1.0f64);
    for m in 0..=n {
        if m > 0 {
            let old_len = u.len();
            u.resize(old_len + 4, 0.0);
            for j in (0..u.len()).rev() {
                let lo = j.saturating_sub(4);
                let hi = j.min(old_len - 1);
                let mut s = 0.0;
                if let Some(w) = u.get(lo..=hi) {
                    for x in w {
                        s += x;
                    }
                }
                if let Some(slot) = u.get_mut(j) {
                    *slot = s * 0.2;
                }
            }
        }
        let k = n - m;
        let shift = k + 10 * (k / 2) + 2 * m;
        let wk = w[k];
        if let Some(dst) = out.get_mut(shift..shift + u.len()) {
            for (d, pu) in dst.iter_mut().zip(&u) {
                *d += wk * pu;
            }
        }
    }
    let first = out.iter().position(|&p| p > 0.0).unwrap_or(0);
    WtPmf { min: first as i64, probs: out.split_off(first) }
}

/// Exact outcome counts (out of 6^n) of each achievement value, as little-endian
/// u64-limb big integers; index = achievement. Addition-only DP over
/// (achievement, parity of 1s).
fn exact_counts(n: u32) -> Vec<Vec<u64>> {
    let n = n as usize;
    // 6^n < 2^(2.585 n): limbs needed (plus one spare).
    let limbs = (n * 2585 / 1000) / 64 + 2;
    let cells = 11 * n + 12;
    // Flat arrays: cell v occupies [v*limbs, (v+1)*limbs).
    let mut even = vec![0u64; cells * limbs];
    let mut odd = vec![0u64; cells * limbs];
    if let Some(c) = even.get_mut(0) {
        *c = 1;
    }
    fn add(dst: &mut [u64], at: usize, src: &[u64], from: usize, limbs: usize) {
        let mut carry = 0u64;
        let (Some(d), Some(s)) =
            (dst.get_mut(at * limbs..(at + 1) * limbs), src.get(from * limbs..(from + 1) * limbs))
        else {
            return;
        };
        for (d, s) in d.iter_mut().zip(s) {
            let (a, c1) = d.overflowing_add(*s);
            let (b, c2) = a.overflowing_add(carry);
            *d = b;
            carry = u64::from(c1) + u64::from(c2);
        }
    }
    let nonzero =
        |a: &[u64], v: usize| a.get(v * limbs..(v + 1) * limbs).is_some_and(|c| c.iter().any(|&x| x != 0));
    let bonus = CRITICAL_BONUS as usize;
    let mut hi = 0usize; // highest value reachable so far
    for _ in 0..n {
        let mut ne = vec![0u64; cells * limbs];
        let mut no = vec![0u64; cells * limbs];
        for v in 0..=hi {
            if nonzero(&even, v) {
                for f in 2..=6 {
                    add(&mut ne, v + f, &even, v, limbs);
                }
                add(&mut no, v + 1, &even, v, limbs); // a 1 opens a pair
            }
            if nonzero(&odd, v) {
                for f in 2..=6 {
                    add(&mut no, v + f, &odd, v, limbs);
                }
                add(&mut ne, v + 1 + bonus, &odd, v, limbs); // a 1 closes a pair: critical
            }
        }
        hi += 11;
        even = ne;
        odd = no;
    }
    (0..cells)
        .map(|v| {
            let mut c = even.get(v * limbs..(v + 1) * limbs).map(<[u64]>::to_vec).unwrap_or_default();
            add(&mut c, 0, &odd, v, limbs);
            c
        })
        .collect()
}

/// Decimal text of a little-endian u64-limb big integer.
fn big_to_decimal(limbs: &[u64]) -> String {
    let mut x: Vec<u64> = limbs.to_vec();
    let mut parts = Vec::new();
    const BASE: u128 = 10_000_000_000_000_000_000; // 1e19
    loop {
        let mut rem: u128 = 0;
        for d in x.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*d);
            *d = (cur / BASE) as u64;
            rem = cur % BASE;
        }
        parts.push(rem as u64);
        if x.iter().all(|&d| d == 0) {
            break;
        }
    }
    let mut s = parts.last().map(|p| p.to_string()).unwrap_or_default();
    for p in parts.iter().rev().skip(1) {
        s.push_str(&format!("{p:019}"));
    }
    s
}

/// Arguments of `world_trigger.distribution`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtDistributionArgs {
    /// The pool: stat, tactics and extra dice.
    #[serde(flatten)]
    pub pool: WtPoolArgs,
    /// Also return exact outcome counts out of 6^dice as decimal strings. Default false.
    #[serde(default)]
    pub exact: bool,
}

/// Result of `world_trigger.distribution`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtDistributionResult {
    /// Total dice in the pool.
    pub dice: u32,
    /// `[achievement, probability]` for every possible achievement, ascending.
    pub pmf: Vec<(i64, f64)>,
    /// Smallest possible achievement.
    pub min: i64,
    /// Largest possible achievement.
    pub max: i64,
    /// Expected achievement (closed form, see WT-CHK-6).
    pub mean: f64,
    /// With `exact`: `[achievement, count]` with count an exact decimal integer out of `outcomes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<(i64, String)>>,
    /// With `exact`: 6^dice, the number of equally likely outcomes, as a decimal integer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<String>,
}

/// WT-CHK-6: the exact expected achievement of `n` dice (closed form).
pub fn expected_achievement(n: u32) -> f64 {
    let n = f64::from(n);
    3.5 * n + 5.0 * (n / 6.0 - (1.0 - (2.0f64 / 3.0).powf(n)) / 2.0)
}

/// `world_trigger.distribution` — the exact pmf of a check's achievement value.
pub fn distribution(args: &WtDistributionArgs) -> Result<WtDistributionResult> {
    let pool = args.pool.pool()?;
    let n = pool.size();
    let d = pmf(n);
    let pmf_list: Vec<(i64, f64)> =
        d.probs.iter().enumerate().filter(|&(_, &p)| p > 0.0).map(|(i, &p)| (d.min + i as i64, p)).collect();
    let (counts, outcomes) = if args.exact {
        let c = exact_counts(n);
        let list: Vec<(i64, String)> = c
            .iter()
            .enumerate()
            .filter(|(_, x)| x.iter().any(|&l| l != 0))
            .map(|(v, x)| (v as i64, big_to_decimal(x)))
            .collect();
        let mut total = vec![0u64; (n as usize * 2585 / 1000) / 64 + 2];
        // 6^n by repeated multiplication by 6.
        if let Some(t) = total.get_mut(0) {
            *t = 1;
        }
        for _ in 0..n {
            let mut carry = 0u128;
            for l in total.iter_mut() {
                let cur = u128::from(*l) * 6 + carry;
                *l = cur as u64;
                carry = cur >> 64;
            }
        }
        (Some(list), Some(big_to_decimal(&total)))
    } else {
        (None, None)
    };
    Ok(WtDistributionResult {
        dice: n,
        min: d.min,
        max: d.max(),
        mean: expected_achievement(n),
        pmf: pmf_list,
        counts,
        outcomes,
    })
}

/// Arguments of `world_trigger.success_chance`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtSuccessChanceArgs {
    /// The pool: stat, tactics and extra dice.
    #[serde(flatten)]
    pub pool: WtPoolArgs,
    /// WT-CHK-5: the target value; success iff achievement ≥ target.
    pub target: i64,
}

/// A single probability.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtProbabilityResult {
    /// The exact probability (f64).
    pub probability: f64,
}

/// `world_trigger.success_chance` — P(achievement ≥ target) (WT-CHK-5).
pub fn success_chance(args: &WtSuccessChanceArgs) -> Result<WtProbabilityResult> {
    let pool = args.pool.pool()?;
    super::check::check_target("target", Some(args.target))?;
    Ok(WtProbabilityResult { probability: pmf(pool.size()).at_least(args.target) })
}

/// Arguments of `world_trigger.opposed_chance`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtOpposedChanceArgs {
    /// Both sides' pools.
    #[serde(flatten)]
    pub pools: crate::world_trigger::check::WtOpposedPools,
}

/// WT-OPP-3: P(actor achievement ≥ reactor achievement) for two pools.
pub fn actor_win_probability(actor: u32, reactor: u32) -> f64 {
    let a = pmf(actor);
    let r = pmf(reactor);
    // Sum small terms first: iterate reactor values from the top.
    let mut total = 0.0;
    let mut tail = 0.0; // P(A ≥ v) built from the top
    let mut v = a.max().max(r.max());
    while v >= r.min {
        tail += a.p(v);
        total += r.p(v) * tail;
        v -= 1;
    }
    total.min(1.0)
}

/// `world_trigger.opposed_chance` — probability that the actor wins (ties go to the actor).
pub fn opposed_chance(args: &WtOpposedChanceArgs) -> Result<WtProbabilityResult> {
    let (a, r) = args.pools.pools()?;
    Ok(WtProbabilityResult { probability: actor_win_probability(a.size(), r.size()) })
}

/// Arguments of `world_trigger.expected_table`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtExpectedTableArgs {
    /// Rows for 1…max_dice dice; 1–100.
    #[schemars(range(min = 1, max = 100))]
    pub max_dice: u32,
}

/// One row of the expected-value table.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtExpectedRow {
    /// Number of dice.
    pub dice: u32,
    /// Exact expected achievement.
    pub mean: f64,
    /// mean ÷ dice: rises from 3.5 toward 4.33 (WT-CHK-6).
    pub mean_per_die: f64,
}

/// Result of `world_trigger.expected_table`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtExpectedTableResult {
    /// One row per pool size, 1…max_dice.
    pub rows: Vec<WtExpectedRow>,
}

/// `world_trigger.expected_table` — the rulebook's missing expected-value table (WT-CHK-6), computed.
pub fn expected_table(args: &WtExpectedTableArgs) -> Result<WtExpectedTableResult> {
    if args.max_dice == 0 {
        return Err(Error::out_of_range("max_dice", "must be at least 1"));
    }
    if args.max_dice > MAX_TABLE_DICE {
        return Err(Error::out_of_range("max_dice", format_args!("at most {MAX_TABLE_DICE}")));
    }
    let rows = (1..=args.max_dice)
        .map(|n| {
            let mean = expected_achievement(n);
            WtExpectedRow { dice: n, mean, mean_per_die: mean / f64::from(n) }
        })
        .collect();
    Ok(WtExpectedTableResult { rows })
}

#[cfg(test)]
mod tests {
    #[test]
    fn impossible_target_is_positive_zero() {
        // An empty f64 sum is -0.0, which JS and Python would print as "-0".
        let p = super::pmf(1).at_least(20);
        assert!(p == 0.0 && p.is_sign_positive());
    }
    use super::*;
    use crate::world_trigger::check::achievement;

    /// Brute-force enumeration of all 6^n outcomes.
    fn brute(n: u32) -> std::collections::BTreeMap<i64, u64> {
        let mut m = std::collections::BTreeMap::new();
        let total = 6u64.pow(n);
        for mut code in 0..total {
            let mut faces = Vec::new();
            for _ in 0..n {
                faces.push((code % 6) as u32 + 1);
                code /= 6;
            }
            *m.entry(achievement(&faces).achievement).or_insert(0) += 1;
        }
        m
    }

    #[test]
    fn matches_brute_force_for_small_pools() {
        for n in 0..=7u32 {
            let b = brute(n);
            let d = pmf(n);
            let total = 6f64.powi(n as i32);
            let mut seen = 0;
            for (i, &p) in d.probs.iter().enumerate() {
                let v = d.min + i as i64;
                let want = b.get(&v).copied().unwrap_or(0) as f64 / total;
                assert!((p - want).abs() <= 1e-15 + 1e-12 * want, "n={n} v={v}: {p} vs {want}");
                if want > 0.0 {
                    seen += 1;
                }
            }
            assert_eq!(seen, b.len(), "n={n}");
            // exact counts agree exactly
            let c = exact_counts(n);
            for (v, cnt) in &b {
                assert_eq!(big_to_decimal(&c[*v as usize]), cnt.to_string(), "n={n} v={v}");
            }
            // closed-form mean agrees with the pmf mean
            assert!((d.mean() - expected_achievement(n)).abs() < 1e-9, "n={n}");
        }
    }

    #[test]
    fn large_pools_match_sampling() {
        // 200k seeded samples of 40 and 100 dice: every bucket within 5 sigma.
        for n in [40u32, 100] {
            let d = pmf(n);
            let total: f64 = d.probs.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "n={n} sums to {total}");
            let mut dice = crate::dice::Dice::seeded(12345 + u64::from(n)).unwrap();
            let samples = 200_000usize;
            let mut hist = std::collections::BTreeMap::<i64, usize>::new();
            let mut sum = 0i64;
            for _ in 0..samples {
                let faces: Vec<u32> = (0..n).map(|_| dice.roll(6).unwrap()).collect();
                let a = achievement(&faces).achievement;
                sum += a;
                *hist.entry(a).or_insert(0) += 1;
                dice.take_rolls();
            }
            for (v, &count) in &hist {
                let p = d.p(*v);
                let expect = p * samples as f64;
                let sigma = (samples as f64 * p * (1.0 - p)).sqrt().max(1.0);
                assert!(
                    (count as f64 - expect).abs() < 5.0 * sigma + 2.0,
                    "n={n} v={v}: {count} vs {expect}"
                );
            }
            let mean = sum as f64 / samples as f64;
            assert!((mean - expected_achievement(n)).abs() < 0.1, "n={n}: {mean}");
        }
    }

    #[test]
    fn exact_counts_sum_to_six_pow_n_for_100_dice() {
        let r = distribution(&WtDistributionArgs { pool: WtPoolArgs::stat(100), exact: true }).unwrap();
        assert_eq!(
            r.outcomes.as_deref(),
            Some("653318623500070906096690267158057820537143710472954871543071966369497141477376")
        );
        // f64 pmf agrees with exact counts to 1e-12 relative, tails included.
        let counts = r.counts.unwrap();
        assert_eq!(counts.len(), r.pmf.len());
        for ((v, c), (v2, p)) in counts.iter().zip(&r.pmf) {
            assert_eq!(v, v2);
            let c: f64 = c.parse().unwrap();
            let want = c / 6f64.powi(100);
            assert!((p - want).abs() <= 1e-12 * want, "v={v}: {p} vs {want}");
        }
    }

    #[test]
    fn opposed_chance_matches_brute_force() {
        for (a, r) in [(1u32, 1u32), (2, 3), (3, 2), (0, 2), (2, 0), (4, 4)] {
            let (ba, br) = (brute(a), brute(r));
            let (ta, tr) = (6u64.pow(a) as f64, 6u64.pow(r) as f64);
            let mut want = 0.0;
            for (va, ca) in &ba {
                for (vr, cr) in &br {
                    if va >= vr {
                        want += (*ca as f64 / ta) * (*cr as f64 / tr);
                    }
                }
            }
            let got = actor_win_probability(a, r);
            assert!((got - want).abs() < 1e-12, "{a} vs {r}: {got} vs {want}");
        }
    }

    #[test]
    fn garbage_args_never_panic() {
        for op in ["distribution", "success_chance", "opposed_chance", "expected_table"] {
            for v in [
                serde_json::json!({}),
                serde_json::json!({"dice": 101}),
                serde_json::json!({"dice": 100, "tactics_dice": 20, "extra_dice": 100, "target": i64::MIN}),
                serde_json::json!({"max_dice": 0}),
                serde_json::json!({"max_dice": u32::MAX}),
                serde_json::json!({"actor_dice": 100, "reactor_dice": 100, "actor_extra_dice": 100}),
                serde_json::json!("x"),
            ] {
                let _ = crate::call(&format!("world_trigger.{op}"), v);
            }
        }
        let t = success_chance(&WtSuccessChanceArgs { pool: WtPoolArgs::stat(3), target: -1_000_000_000 });
        assert_eq!(t.unwrap().probability, 1.0);
        let t = success_chance(&WtSuccessChanceArgs { pool: WtPoolArgs::stat(3), target: 1_000_000_000 });
        assert_eq!(t.unwrap().probability, 0.0);
    }
}

/// Benchmark, not a timed test (it asserts nothing about time). Run with
/// `cargo test --release -p gunbai -- --ignored world_trigger_odds_benchmark --nocapture`;
/// figures are recorded in BENCHMARKS.md.
#[cfg(test)]
mod bench {
    use super::*;
    use std::time::Instant;

    fn time<T>(label: &str, reps: u32, mut f: impl FnMut() -> T) {
        let _ = f();
        let start = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(f());
        }
        let per = start.elapsed().as_secs_f64() / f64::from(reps);
        println!("{label:<55} {:>10.1} µs/call", per * 1e6);
    }

    #[test]
    #[ignore]
    fn world_trigger_odds_benchmark() {
        time("pmf(100) (typed core)", 200, || pmf(100));
        time("world_trigger.distribution dice=100 (typed op)", 200, || {
            distribution(&WtDistributionArgs { pool: WtPoolArgs::stat(100), ..Default::default() })
        });
        time("world_trigger.distribution dice=100 via JSON call", 200, || {
            crate::call("world_trigger.distribution", serde_json::json!({"dice": 100}))
        });
        time("world_trigger.distribution dice=100 exact=true", 20, || {
            distribution(&WtDistributionArgs { pool: WtPoolArgs::stat(100), exact: true })
        });
        time("world_trigger.expected_table max_dice=40 (typed op)", 2000, || {
            expected_table(&WtExpectedTableArgs { max_dice: 40 })
        });
        time("pmf(n) for every n = 1..=40 (full distributions)", 20, || (1..=40).map(pmf).count());
        time("world_trigger.opposed_chance 100 vs 100", 200, || actor_win_probability(100, 100));
        time("world_trigger.success_chance dice=40 target=170", 500, || pmf(40).at_least(170));
    }
}
