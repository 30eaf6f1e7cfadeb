//! Batch TMD: `tmd.simulate_initiative`.
//!
//! A loop over the ruleset's own initiative code: the combatants are checked
//! as `tmd.initiative` checks them, and each repetition calls the same
//! `roll_order` (TMD-INI-1 d10 + base, highest first; TMD-INI-2 same-side ties
//! in the given order, cross-side ties re-rolled), so the dice stream is
//! consumed exactly as by that op.

use crate::batch::{check_n, BatchData, BatchDef};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use crate::tmd::initiative::{check_combatants, roll_order, TmdCombatant, MAX_COMBATANTS};

/// What `tmd.simulate_initiative` returns per combatant and repetition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TmdSimulateInitiativeOutput {
    /// The combatant's place in the order, 0 = acts first (default; tie-breaks included).
    #[default]
    Position,
    /// The initiative total, d10 + base initiative (tie-break re-rolls not included).
    Total,
}

/// Arguments of `tmd.simulate_initiative`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdSimulateInitiativeArgs {
    /// The combatants (1..=100), as in `tmd.initiative`; same-side ties keep this order.
    pub combatants: Vec<TmdCombatant>,
    /// `position` (0 = first, default) or `total`.
    #[serde(default)]
    pub output: TmdSimulateInitiativeOutput,
    /// Repetitions; n × combatants is at most 10^6 and n × combatants² at most
    /// 2.5·10^7 (sorting and tie-breaks grow with the square: at most about five
    /// seconds in wasm either way).
    pub n: u64,
    /// `seed`.
    #[serde(flatten)]
    pub source: crate::dice::SeedArg,
}

/// Most cells (repetitions × combatants) of one `tmd.simulate_initiative` call.
/// 10^6: 10^5 repetitions of 10 combatants tying across sides took 4.5 s in Node (the
/// 2·10^6 it was before took 8.9 s; DESIGN.md, "How much may one batch
/// call do?").
pub const MAX_CELLS: u64 = 1_000_000;
/// Most repetitions × combatants² (the sort and tie-break work) of one call.
/// 2.5·10^7: 50 combatants tying across sides, 4·10^4 repetitions (10^8) took 11.7 s in
/// Node.
pub const MAX_PAIRS: u64 = 25_000_000;

/// `tmd.simulate_initiative` — `n` seeded initiative rolls of the same
/// combatants, flattened row-major as int32 of shape `(n, len(combatants))`:
/// element `i * len(combatants) + j` is combatant `j`'s (given order) position
/// or total in repetition `i`. Row 0 is `tmd.initiative` with the same seed.
pub fn simulate_initiative(args: &TmdSimulateInitiativeArgs) -> Result<BatchData> {
    check_combatants("combatants", &args.combatants, MAX_COMBATANTS)?;
    let k = args.combatants.len();
    let k64 = k as u64;
    let within = |limit: u64, per: u64| args.n.checked_mul(per).is_some_and(|w| w <= limit);
    if !within(MAX_CELLS, k64) || !within(MAX_PAIRS, k64 * k64) {
        return Err(Error::limit(
            "n",
            format_args!(
                "n × combatants must be at most {MAX_CELLS} and n × combatants² at most {MAX_PAIRS}, not n = {} with {k}",
                args.n
            ),
        ));
    }
    let n = check_n(args.n)?;
    let mut dice = args.source.dice()?.unrecorded();
    let mut out = Vec::with_capacity(n.saturating_mul(k));
    let mut row = vec![0i32; k];
    for _ in 0..n {
        let order = roll_order(&args.combatants, &mut dice)?;
        for (place, entry) in order.iter().enumerate() {
            // Ids are unique (checked above), so each entry maps to one combatant.
            if let Some(j) = args.combatants.iter().position(|c| c.id == entry.id) {
                if let Some(cell) = row.get_mut(j) {
                    *cell = match args.output {
                        TmdSimulateInitiativeOutput::Position => place as i32,
                        TmdSimulateInitiativeOutput::Total => entry.total,
                    };
                }
            }
        }
        out.extend_from_slice(&row);
    }
    Ok(BatchData::I32(out))
}

pub(crate) fn ops() -> Vec<BatchDef> {
    vec![crate::batch_op!(
        "tmd.simulate_initiative",
        simulate_initiative,
        TmdSimulateInitiativeArgs,
        "int32",
        "n seeded initiative orders, flattened (n, combatants) int32: each combatant's position or total."
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tmd::initiative::{initiative, TmdInitiativeArgs};
    use crate::ErrorCode;

    fn ints(d: BatchData) -> Vec<i32> {
        match d {
            BatchData::I32(v) => v,
            BatchData::F64(_) | BatchData::Parts(..) => panic!("int32 expected"),
        }
    }

    fn c(id: &str, side: &str, base: i32) -> TmdCombatant {
        TmdCombatant { id: id.into(), side: side.into(), base_initiative: base }
    }

    #[test]
    fn row_zero_is_the_single_op() {
        // Equal bases on two sides: cross-side ties (and their re-rolls) happen often.
        let cs = vec![c("a", "pc", 3), c("b", "npc", 3), c("c", "pc", 5), c("d", "npc", 0)];
        for seed in 0..20 {
            let args = TmdSimulateInitiativeArgs {
                combatants: cs.clone(),
                output: Default::default(),
                n: 6,
                source: Some(seed).into(),
            };
            let pos = ints(simulate_initiative(&args).unwrap());
            let tot = ints(
                simulate_initiative(&TmdSimulateInitiativeArgs {
                    output: TmdSimulateInitiativeOutput::Total,
                    ..args
                })
                .unwrap(),
            );
            assert_eq!((pos.len(), tot.len()), (24, 24));
            let one = initiative(&TmdInitiativeArgs {
                combatants: cs.clone(),
                source: crate::dice::DiceArgs::seed(seed),
            })
            .unwrap();
            for (place, e) in one.order.iter().enumerate() {
                let j = cs.iter().position(|x| x.id == e.id).unwrap();
                assert_eq!(pos[j], place as i32);
                assert_eq!(tot[j], e.total);
            }
            // Every row is a permutation of 0..4.
            for r in pos.chunks(4) {
                let mut s = r.to_vec();
                s.sort();
                assert_eq!(s, vec![0, 1, 2, 3]);
            }
        }
    }

    #[test]
    fn limits_and_garbage() {
        let e = simulate_initiative(&TmdSimulateInitiativeArgs {
            combatants: vec![c("a", "x", 0), c("b", "y", 0)],
            output: Default::default(),
            n: 60_000_000,
            source: Some(1).into(),
        })
        .unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::LimitExceeded, Some("n")));
        // The work bounds: cells (2 × 500,001 > 10^6) and pairs (2,501 × 100² > 2.5·10^7).
        let many: Vec<TmdCombatant> = (0..100).map(|i| c(&format!("c{i}"), "x", 0)).collect();
        for (cs, n) in [(vec![c("a", "x", 0), c("b", "y", 0)], 500_001), (many, 2_501)] {
            let e = simulate_initiative(&TmdSimulateInitiativeArgs {
                combatants: cs,
                output: Default::default(),
                n,
                source: Some(1).into(),
            })
            .unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (ErrorCode::LimitExceeded, Some("n")), "{n}");
        }
        let e = simulate_initiative(&TmdSimulateInitiativeArgs {
            combatants: vec![],
            output: Default::default(),
            n: 1,
            source: Default::default(),
        })
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("combatants"));
        for v in [
            serde_json::json!(null),
            serde_json::json!({"combatants": [{"id": "a", "side": "x", "base_initiative": 5000}], "n": 1}),
            serde_json::json!({"combatants": [{"id": "a", "side": "x", "base_initiative": 1},
                {"id": "a", "side": "y", "base_initiative": 1}], "n": 1}),
            serde_json::json!({"combatants": [{"id": "a", "side": "x", "base_initiative": 1}], "n": u64::MAX}),
            serde_json::json!({"combatants": [{"id": "a", "side": "x", "base_initiative": -1000}], "n": 3, "seed": 1,
                "output": "total"}),
        ] {
            let _ = crate::batch::call_batch("tmd.simulate_initiative", v);
        }
    }
}
