//! The grid: distances (variant `range_metric`), areas, ZoC, step and jump
//! costs, cheapest routes (WT-RNG, WT-MOV).

use super::state::{WtBattleMap, WtRangeMetric, WtSquare};
use std::collections::{BinaryHeap, HashMap};

/// WT-RNG-1/2 + RULINGS `range_metric`: distance in squares, height ignored.
pub fn distance(metric: WtRangeMetric, a: WtSquare, b: WtSquare) -> i64 {
    let dx = a.x.saturating_sub(b.x).saturating_abs();
    let dy = a.y.saturating_sub(b.y).saturating_abs();
    match metric {
        WtRangeMetric::Chebyshev => dx.max(dy),
        WtRangeMetric::Manhattan => dx.saturating_add(dy),
    }
}

/// WT-RNG-3/4/5: is `s` inside the `side`×`side` square area centred on `c` (height ignored)?
pub fn in_area(c: WtSquare, side: u32, s: WtSquare) -> bool {
    let r = i64::from(side / 2);
    (s.x - c.x).abs() <= r && (s.y - c.y).abs() <= r
}

/// WT-MOV-5: the 4 orthogonal neighbours.
pub fn neighbours(s: WtSquare) -> [WtSquare; 4] {
    [
        WtSquare { x: s.x + 1, y: s.y },
        WtSquare { x: s.x - 1, y: s.y },
        WtSquare { x: s.x, y: s.y + 1 },
        WtSquare { x: s.x, y: s.y - 1 },
    ]
}

/// Who stands where, as the mover sees it.
pub struct Occupancy {
    /// Squares of enemies (can't be entered, WT-MOV-3) — they also project ZoC.
    pub enemies: Vec<WtSquare>,
    /// Squares of other characters (can't be ended on).
    pub others: Vec<WtSquare>,
}

impl Occupancy {
    /// WT-MOV-5: `s` is orthogonally adjacent to an enemy.
    pub fn in_zoc(&self, s: WtSquare) -> bool {
        self.enemies.iter().any(|e| (e.x - s.x).abs() + (e.y - s.y).abs() == 1)
    }
}

/// How a step moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// An orthogonal step (WT-MOV-2).
    Walk,
    /// A jump between heights (WT-MOV-4).
    Jump,
}

/// The cost of one step `a → b`, or the rule it breaks.
///
/// * WT-MOV-2: an orthogonal step costs 1 + |Δheight|;
/// * WT-MOV-4 (RULINGS): a jump goes straight 2–3 squares between squares of
///   height ≥ 1 over a gap of 1–2 squares all lower than both ends, costing
///   the squares crossed + |landing − take-off|;
/// * WT-MOV-5 (RULINGS): +3 when the step starts in an enemy's ZoC;
/// * WT-MOV-3: never into an enemy's square. Jumps pass over the gap.
pub fn step_cost(
    map: &WtBattleMap,
    occ: &Occupancy,
    a: WtSquare,
    b: WtSquare,
) -> Result<(i64, StepKind), &'static str> {
    if !map.on_map(b) {
        return Err("WT-OOB-1");
    }
    if occ.enemies.contains(&b) {
        return Err("WT-MOV-3");
    }
    let dx = b.x - a.x;
    let dy = b.y - a.y;
    let zoc = if occ.in_zoc(a) { 3 } else { 0 };
    let (ha, hb) = (map.h(a), map.h(b));
    let d = dx.abs() + dy.abs();
    if d == 1 {
        return Ok((1 + (hb - ha).abs() + zoc, StepKind::Walk));
    }
    if (dx != 0 && dy != 0) || !(2..=3).contains(&d) {
        return Err("WT-MOV-2");
    }
    // Jump.
    if ha < 1 || hb < 1 {
        return Err("WT-MOV-4");
    }
    let (sx, sy) = (dx.signum(), dy.signum());
    for k in 1..d {
        let g = WtSquare { x: a.x + sx * k, y: a.y + sy * k };
        if !map.on_map(g) || map.h(g) >= ha.min(hb) {
            return Err("WT-MOV-4");
        }
    }
    Ok((d + (hb - ha).abs() + zoc, StepKind::Jump))
}

/// Cheapest routes from `start` within `budget`: destination → (cost, path excluding start).
/// Bounded by the map size (≤ 64×64 squares).
pub fn reachable(
    map: &WtBattleMap,
    occ: &Occupancy,
    start: WtSquare,
    budget: i64,
) -> HashMap<WtSquare, (i64, Vec<WtSquare>)> {
    let mut best: HashMap<WtSquare, (i64, Option<WtSquare>)> = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(start, (0, None));
    heap.push(std::cmp::Reverse((0i64, start.y, start.x)));
    while let Some(std::cmp::Reverse((c, y, x))) = heap.pop() {
        let s = WtSquare { x, y };
        if best.get(&s).is_some_and(|&(b, _)| b < c) {
            continue;
        }
        let mut cands: Vec<WtSquare> = neighbours(s).to_vec();
        for (ddx, ddy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            for k in 2..=3 {
                cands.push(WtSquare { x: s.x + ddx * k, y: s.y + ddy * k });
            }
        }
        for n in cands {
            let Ok((sc, _)) = step_cost(map, occ, s, n) else { continue };
            let nc = c + sc;
            if nc > budget {
                continue;
            }
            if best.get(&n).is_none_or(|&(b, _)| nc < b) {
                best.insert(n, (nc, Some(s)));
                heap.push(std::cmp::Reverse((nc, n.y, n.x)));
            }
        }
    }
    let mut out = HashMap::new();
    for (&dest, &(cost, _)) in &best {
        if dest == start || occ.others.contains(&dest) {
            continue;
        }
        let mut path = vec![dest];
        let mut cur = dest;
        let mut guard = 0;
        while let Some(&(_, Some(p))) = best.get(&cur) {
            if p == start || guard > 5000 {
                break;
            }
            path.push(p);
            cur = p;
            guard += 1;
        }
        path.reverse();
        out.insert(dest, (cost, path));
    }
    out
}

/// WT-OOB-2/3: the distance from `s` to the battlefield and the nearest
/// battlefield square not in `occupied` (ties: lowest row, then column).
pub fn nearest_on_map(
    map: &WtBattleMap,
    metric: WtRangeMetric,
    s: WtSquare,
    occupied: &[WtSquare],
) -> Option<(i64, WtSquare)> {
    let mut best: Option<(i64, WtSquare)> = None;
    for y in 0..i64::from(map.height) {
        for x in 0..i64::from(map.width) {
            let q = WtSquare { x, y };
            if !map.on_map(q) || occupied.contains(&q) {
                continue;
            }
            let d = distance(metric, s, q);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, q));
            }
        }
    }
    best
}

/// The distance from `s` to the nearest battlefield square (occupied or not).
pub fn distance_to_map(map: &WtBattleMap, metric: WtRangeMetric, s: WtSquare) -> i64 {
    nearest_on_map(map, metric, s, &[]).map(|(d, _)| d).unwrap_or(0)
}
