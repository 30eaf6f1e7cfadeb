//! `tmd.initiative_odds` — the exact chance of each place of the order
//! `tmd.initiative` gives: TMD-INI-1 (d10 + base initiative, highest first) and
//! TMD-INI-2 (same-side ties in the given order; cross-side ties re-rolled).

use super::initiative::{check_combatants, TmdCombatant};
use crate::error::Result;
use crate::json::{FromJson, ToJson};

/// Most combatants summed over exactly: every subset of the others may tie with a
/// combatant, and a tie group's orders are counted one by one (2^(n−1) · n! at most).
pub const MAX_EXACT_COMBATANTS: usize = 8;

/// Arguments of `tmd.initiative_odds`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdInitiativeOddsArgs {
    /// The combatants (1..=8), as in `tmd.initiative`; same-side ties keep this order.
    pub combatants: Vec<TmdCombatant>,
}

/// One combatant's chances.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdInitiativeOddsEntry {
    /// Combatant id.
    pub id: String,
    /// The chance of acting at each place of the order (index 0 acts first).
    pub places: Vec<f64>,
    /// The same chances exactly: `places[q]` is `counts[q] / denominator`.
    pub counts: Vec<u64>,
}

/// Result of `tmd.initiative_odds`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdInitiativeOddsResult {
    /// One entry per combatant, in the given order; each entry's places, and each
    /// place over the entries, sum to 1.
    pub odds: Vec<TmdInitiativeOddsEntry>,
    /// The common denominator of every `counts`: 10^n · n! for n combatants.
    pub denominator: u64,
}

/// How many of the `m!` equally likely re-roll orders of a tie group put each member at
/// each place of the group (`[member][place]`, members in the given order).
///
/// TMD-INI-2 as `tmd.initiative` breaks a tie: a group of one side keeps the given
/// order; a group spanning several sides re-rolls d10 until the sides separate. The
/// re-rolls treat every member alike, so every order of the group is equally likely;
/// then each run of adjacent members of one side goes back to the given order (the
/// side's chosen order, RULINGS). The core's bound on re-roll rounds in one call is
/// reached with a chance below 10^-90 and is left out.
fn group_places(sides: &[usize]) -> Vec<Vec<u64>> {
    let m = sides.len();
    let mut out = vec![vec![0u64; m]; m];
    let mut perm: Vec<usize> = (0..m).collect();
    let one_side = sides.iter().all(|s| *s == sides[0]);
    loop {
        // Runs of one side back in the given (ascending) order (a whole group of one side
        // is one run: the given order).
        let mut order = perm.clone();
        let mut start = 0;
        for i in 1..=m {
            if i == m || sides[order[i]] != sides[order[start]] {
                for a in start + 1..i {
                    let mut b = a;
                    while b > start && order[b - 1] > order[b] {
                        order.swap(b - 1, b);
                        b -= 1;
                    }
                }
                start = i;
            }
        }
        for (place, member) in order.iter().enumerate() {
            out[*member][place] += 1;
        }
        if one_side && m > 0 {
            // Every order gives the same one: count it m! times without listing them.
            let all: u64 = (2..=m as u64).product();
            out.iter_mut().enumerate().for_each(|(i, row)| row[i] = all);
            return out;
        }
        if !next_permutation(&mut perm) {
            return out;
        }
    }
}

/// The next permutation in lexicographic order; false after the last one.
fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap_or(i);
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// `tmd.initiative_odds` — TMD-INI-1/TMD-INI-2: the exact chance of each combatant
/// acting at each place of the order `tmd.initiative` gives, summed over every d10
/// face (no sampling; `tmd.simulate_initiative` is the sampled counterpart).
pub fn initiative_odds(args: &TmdInitiativeOddsArgs) -> Result<TmdInitiativeOddsResult> {
    let cs = &args.combatants;
    check_combatants("combatants", cs, MAX_EXACT_COMBATANTS)?;
    let n = cs.len();
    // Sides as small numbers (the first combatant of each side names it).
    let sides: Vec<usize> =
        cs.iter().map(|c| cs.iter().position(|d| d.side == c.side).unwrap_or(0)).collect();
    let fact = |k: usize| (2..=k as u64).product::<u64>();
    let n_fact = fact(n);
    let mut cache: Vec<(Vec<usize>, Vec<Vec<u64>>)> = Vec::new();
    let mut counts = vec![vec![0u64; n]; n];
    for j in 0..n {
        for roll in 1..=10 {
            let total = cs[j].base_initiative + roll;
            // Faces of each combatant's d10 that put it above / level with j's total.
            let mut gt = vec![0u64; n];
            let mut eq = vec![0u64; n];
            for c in 0..n {
                for r in 1..=10 {
                    let t = cs[c].base_initiative + r;
                    gt[c] += u64::from(t > total);
                    eq[c] += u64::from(t == total);
                }
            }
            // `mask`: which of the others tie with j.
            for mask in 0u32..(1 << n) {
                if mask >> j & 1 == 1 {
                    continue;
                }
                let tied = |c: usize| mask >> c & 1 == 1;
                let others = (0..n).filter(|&c| c != j);
                let ways: u64 = others.clone().filter(|&c| tied(c)).map(|c| eq[c]).product();
                if ways == 0 {
                    continue;
                }
                // ahead[a]: the faces of the untied others that put exactly `a` of them above j.
                let mut ahead = vec![1u64];
                for c in others.filter(|&c| !tied(c)) {
                    let below = 10 - gt[c] - eq[c];
                    ahead.push(0);
                    for a in (0..ahead.len()).rev() {
                        ahead[a] = ahead[a] * below + if a > 0 { ahead[a - 1] * gt[c] } else { 0 };
                    }
                }
                let group: Vec<usize> = (0..n).filter(|&c| c == j || tied(c)).collect();
                let member = group.iter().position(|&g| g == j).unwrap_or(0);
                let pattern: Vec<usize> = group.iter().map(|&g| sides[g]).collect();
                let at = match cache.iter().position(|(p, _)| *p == pattern) {
                    Some(at) => at,
                    None => {
                        let places = group_places(&pattern);
                        cache.push((pattern, places));
                        cache.len() - 1
                    }
                };
                let scale = n_fact / fact(group.len());
                for (a, w) in ahead.iter().enumerate() {
                    for (q, p) in cache[at].1[member].iter().enumerate() {
                        counts[j][a + q] += ways * w * p * scale;
                    }
                }
            }
        }
    }
    let denominator = 10u64.pow(n as u32) * n_fact;
    let odds = cs
        .iter()
        .zip(counts)
        .map(|(c, counts)| TmdInitiativeOddsEntry {
            id: c.id.clone(),
            places: counts.iter().map(|k| *k as f64 / denominator as f64).collect(),
            counts,
        })
        .collect();
    Ok(TmdInitiativeOddsResult { odds, denominator })
}
