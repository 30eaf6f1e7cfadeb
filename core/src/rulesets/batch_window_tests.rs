//! Batch operations played in windows (as the npm package runs a long call): the
//! windows continue one die stream, so their joined results equal one call's, for every
//! batch operation; and a window still validates the whole call.

use crate::error::ErrorCode;
use crate::kernel::batch::{call_batch, set_window, window_end, BatchData};
use serde_json::json;
use serde_json::Value;

fn values(d: &BatchData) -> Vec<f64> {
    match d {
        BatchData::I32(v) | BatchData::Parts(v, _) => v.iter().map(|&x| f64::from(x)).collect(),
        BatchData::F64(v) => v.clone(),
    }
}

/// One call in windows of `sizes` repetitions (the JS package's way), joined: each
/// part (or the flat array) one window after another.
fn windowed(op: &str, args: &Value, sizes: &[u64]) -> Vec<f64> {
    let mut from = None;
    let mut windows = Vec::new();
    for &size in sizes {
        set_window(size, from);
        let d = call_batch(op, args.clone()).unwrap();
        from = Some(window_end());
        windows.push(d);
    }
    set_window(u64::MAX, None);
    let parts = windows[0].parts().to_vec();
    if parts.is_empty() {
        return windows.iter().flat_map(values).collect();
    }
    let mut out = Vec::new();
    let mut at = vec![0; windows.len()];
    for (p, part) in parts.iter().enumerate() {
        for (w, d) in windows.iter().enumerate() {
            let len = d.parts()[p].shape[0] * part.shape[1];
            out.extend_from_slice(&values(d)[at[w]..at[w] + len]);
            at[w] += len;
        }
    }
    out
}

#[test]
#[cfg(all(feature = "world_trigger", feature = "coc7", feature = "tmd"))]
fn windows_continue_the_one_stream_of_every_batch_operation() {
    let battle = crate::world_trigger::battle::tests::setup("rank_3v3");
    let combatants: Vec<Value> = (0..6)
        .map(|i| json!({"id": format!("c{i}"), "side": format!("s{}", i % 3), "base_initiative": 0}))
        .collect();
    let cases = [
        ("dice.simulate_pool", json!({"count": 3, "sides": 6, "n": 40, "seed": 5})),
        ("world_trigger.simulate_checks", json!({"dice": 7, "tactics_dice": 2, "n": 40, "seed": 5})),
        ("world_trigger.simulate_opposed", json!({"actor_dice": 5, "reactor_dice": 5, "n": 40, "seed": 5})),
        ("world_trigger.simulate_damage", json!({"attack": 10, "n": 40, "seed": 5})),
        ("coc7.simulate_checks", json!({"skill": 50, "bonus_dice": 2, "n": 40, "seed": 5})),
        ("tmd.simulate_initiative", json!({"combatants": combatants, "n": 40, "seed": 5})),
        ("world_trigger.simulate_battles", json!({"setup": battle, "n": 7, "seed": 5})),
    ];
    for (op, args) in cases {
        let whole = values(&call_batch(op, args.clone()).unwrap());
        let n = args["n"].as_u64().unwrap();
        for sizes in [vec![n], vec![1, n - 1], vec![2, 3, n - 5], vec![n - 1, 1]] {
            assert_eq!(windowed(op, &args, &sizes), whole, "{op} in windows {sizes:?}");
        }
    }
    // An unseeded call in windows makes n values (entropy for the first, then its stream).
    let args = json!({"count": 1, "sides": 6, "n": 30});
    assert_eq!(windowed("dice.simulate_pool", &args, &[10, 20]).len(), 30);
}

#[test]
fn a_window_validates_the_whole_call() {
    // 2·10^7 repetitions of 1,000 dice is too much work, whatever the window.
    set_window(1, None);
    let e = call_batch("dice.simulate_pool", json!({"count": 1000, "sides": 6, "n": 20_000_000, "seed": 1}))
        .unwrap_err();
    set_window(u64::MAX, None);
    assert_eq!(e.code, ErrorCode::LimitExceeded);
}
