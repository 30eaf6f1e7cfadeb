//! `tmd.initiative_odds` — the exact chance of each place of the order
//! `tmd.initiative` gives: TMD-INI-1 (d10 + base initiative, highest first) and
//! TMD-INI-2 (same-side ties in the given order; cross-side ties re-rolled).

use super::initiative::{check_combatants, TmdCombatant};
use crate::error::Result;
use crate::json::{FromJson, ToJson};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most combatants summed over exactly: every subset of the others may tie with a
/// combatant, and a tie group's orders are counted one by one (2^(n−1) · n! at most).
pub const MAX_EXACT_COMBATANTS: usize = 8;

/// Arguments of `tmd.initiative_odds`.
#[derive(Debug, Clone, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TmdInitiativeOddsArgs {
    /// The combatants (1..=8), as in `tmd.initiative`; same-side ties keep this order.
    pub combatants: Vec<TmdCombatant>,
}

/// One combatant's chances.
#[derive(Debug, Clone, PartialEq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
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
#[derive(Debug, Clone, PartialEq, Serialize, ToJson, Deserialize, FromJson, JsonSchema)]
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
    if sides.iter().all(|s| *s == sides[0]) {
        let all: u64 = (1..=m as u64).product();
        for (i, row) in out.iter_mut().enumerate() {
            row[i] = all;
        }
        return out;
    }
    let mut perm: Vec<usize> = (0..m).collect();
    loop {
        // Runs of one side back in the given (ascending) order.
        let mut order = perm.clone();
        let mut start = 0;
        for i in 1..=m {
            if i == m || sides[order[i]] != sides[order[start]] {
                order[start..i].sort_unstable();
                start = i;
            }
        }
        for (place, member) in order.iter().enumerate() {
            out[*member][place] += 1;
        }
        if !next_permutation(&mut perm) {
            break;
        }
    }
    out
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
    let mut side_index: Vec<&str> = Vec::new();
    let sides: Vec<usize> = cs
        .iter()
        .map(|c| {
            side_index.iter().position(|s| *s == c.side).unwrap_or_else(|| {
                side_index.push(&c.side);
                side_index.len() - 1
            })
        })
        .collect();
    let fact = |k: usize| (1..=k as u64).product::<u64>();
    let n_fact = fact(n);
    let mut cache: BTreeMap<Vec<usize>, Vec<Vec<u64>>> = BTreeMap::new();
    let mut counts = vec![vec![0u64; n]; n];
    for j in 0..n {
        let others: Vec<usize> = (0..n).filter(|&c| c != j).collect();
        for roll in 1..=10i64 {
            let total = i64::from(cs[j].base_initiative) + roll;
            // How many faces of each other combatant's d10 put it above / level with j.
            let faces = |c: usize, above: bool| {
                (1..=10i64)
                    .filter(|r| {
                        let t = i64::from(cs[c].base_initiative) + r;
                        if above {
                            t > total
                        } else {
                            t == total
                        }
                    })
                    .count() as u64
            };
            let gt: Vec<u64> = others.iter().map(|&c| faces(c, true)).collect();
            let eq: Vec<u64> = others.iter().map(|&c| faces(c, false)).collect();
            for mask in 0u32..(1 << others.len()) {
                let tied = |i: usize| mask >> i & 1 == 1;
                let ways: u64 = (0..others.len()).filter(|&i| tied(i)).map(|i| eq[i]).product();
                if ways == 0 {
                    continue;
                }
                // ahead[a]: the faces of the untied others that put exactly `a` of them above j.
                let mut ahead = vec![1u64];
                for i in (0..others.len()).filter(|&i| !tied(i)) {
                    let below = 10 - gt[i] - eq[i];
                    let mut next = vec![0u64; ahead.len() + 1];
                    for (a, w) in ahead.iter().enumerate() {
                        next[a] += w * below;
                        next[a + 1] += w * gt[i];
                    }
                    ahead = next;
                }
                let mut group: Vec<usize> =
                    (0..others.len()).filter(|&i| tied(i)).map(|i| others[i]).collect();
                group.push(j);
                group.sort_unstable();
                let member = group.iter().position(|&g| g == j).unwrap_or(0);
                let pattern: Vec<usize> = group.iter().map(|&g| sides[g]).collect();
                let scale = n_fact / fact(group.len());
                let places = &cache.entry(pattern).or_insert_with_key(|p| group_places(p))[member];
                for (a, w) in ahead.iter().enumerate() {
                    for (q, p) in places.iter().enumerate() {
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
