//! The grid: distances (variant `range_metric`), areas, ZoC, step and jump
//! costs, cheapest routes (WT-RNG, WT-MOV).

use super::state::{WtBattleMap, WtRangeMetric, WtSquare};
use std::collections::HashMap;

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
    /// Squares of enemies (can't be entered, WT-MOV-3) — they also project ZoC, unless listed
    /// in `no_zoc`.
    pub enemies: Vec<WtSquare>,
    /// Squares of other characters (can't be ended on).
    pub others: Vec<WtSquare>,
    /// Enemy squares that project no ZoC: incapacitated characters still occupy their square
    /// but project none (RULINGS 2026-12-05).
    pub no_zoc: Vec<WtSquare>,
}

impl Occupancy {
    /// WT-MOV-5: `s` is orthogonally adjacent to an enemy that projects ZoC.
    pub fn in_zoc(&self, s: WtSquare) -> bool {
        self.enemies.iter().any(|e| (e.x - s.x).abs() + (e.y - s.y).abs() == 1 && !self.no_zoc.contains(e))
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
/// Bounded by the map size (≤ 64×64 squares). Same routes as [`reach`].
pub fn reachable(
    map: &WtBattleMap,
    occ: &Occupancy,
    start: WtSquare,
    budget: i64,
) -> HashMap<WtSquare, (i64, Vec<WtSquare>)> {
    let r = reach(map, occ, start, budget);
    r.dests(budget).filter_map(|(d, c, _)| r.path(d).map(|p| (d, (c, p)))).collect()
}

/// No predecessor (not reached).
const UNREACHED: u32 = u32::MAX;
/// The predecessor is the start square (which may lie off the map).
const FROM_START: u32 = u32::MAX - 1;

/// A dense copy of what movement needs to know about each square, as one
/// team's members see it (the map and where their enemies stand). The grid
/// is stored with a border of `PAD` squares that are not battlefield, so
/// that a step or jump from a battlefield square never leaves the arrays.
#[derive(Debug, Clone, Default)]
pub struct MoveGrid {
    w: usize,
    h: usize,
    /// Row length of the arrays (`w + 2 * PAD`).
    stride: usize,
    /// Battlefield squares.
    on: Vec<bool>,
    /// Heights.
    hts: Vec<i64>,
    /// Enemy squares (can't be entered, WT-MOV-3).
    enemy: Vec<bool>,
    /// Squares in an enemy's ZoC (WT-MOV-5).
    zoc: Vec<bool>,
    /// The most a step can cost here (a 3-square jump across the whole height range, out of ZoC).
    max_step: i64,
}

/// The border around a [`MoveGrid`]: the longest step (a 3-square jump).
const PAD: usize = 3;

/// The 4 orthogonal directions.
const DIRS: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

impl MoveGrid {
    /// Fill from the map and the enemies' squares, each with whether it projects ZoC
    /// (an incapacitated enemy does not, RULINGS 2026-12-05), reusing the buffers.
    pub fn build(&mut self, map: &WtBattleMap, enemies: impl IntoIterator<Item = (WtSquare, bool)>) {
        let (w, h) = (map.width.clamp(1, 64) as usize, map.height.clamp(1, 64) as usize);
        self.w = w;
        self.h = h;
        self.stride = w + 2 * PAD;
        let n = self.stride * (h + 2 * PAD);
        self.on.clear();
        self.on.resize(n, false);
        self.hts.clear();
        self.hts.resize(n, 0);
        for y in 0..h {
            for x in 0..w {
                let i = (y + PAD) * self.stride + x + PAD;
                self.on[i] = true;
                self.hts[i] = map.h(WtSquare { x: x as i64, y: y as i64 });
            }
        }
        self.enemy.clear();
        self.enemy.resize(n, false);
        self.zoc.clear();
        self.zoc.resize(n, false);
        for s in &map.off_map {
            if let Some(i) = self.index(*s) {
                self.on[i] = false;
            }
        }
        let (lo, hi) = self.hts.iter().fold((0i64, 0i64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        self.max_step = 3i64.saturating_add(hi.saturating_sub(lo)).saturating_add(3);
        for (e, projects_zoc) in enemies {
            if let Some(i) = self.index(e) {
                self.enemy[i] = true;
            }
            if !projects_zoc {
                continue;
            }
            for (dx, dy) in DIRS {
                if let Some(i) = self.index(WtSquare { x: e.x + dx, y: e.y + dy }) {
                    self.zoc[i] = true;
                }
            }
        }
    }

    /// The index of `s` (inside the grid or its border).
    fn index(&self, s: WtSquare) -> Option<usize> {
        let p = PAD as i64;
        (s.x >= -p && s.y >= -p && s.x < (self.w + PAD) as i64 && s.y < (self.h + PAD) as i64)
            .then(|| (s.y + p) as usize * self.stride + (s.x + p) as usize)
    }

    /// The square at index `i`.
    fn square(&self, i: usize) -> WtSquare {
        let p = PAD as i64;
        WtSquare { x: (i % self.stride.max(1)) as i64 - p, y: (i / self.stride.max(1)) as i64 - p }
    }

    /// WT-MOV-5: is `s` next to an enemy (also for a square off the map)?
    fn in_zoc(&self, s: WtSquare) -> bool {
        match self.index(s) {
            Some(i) => self.zoc[i],
            None => DIRS.iter().any(|(dx, dy)| {
                self.index(WtSquare { x: s.x + dx, y: s.y + dy }).is_some_and(|i| self.enemy[i])
            }),
        }
    }

    /// The cost of the step `a → b` (`b` is `k` squares away in direction `d`),
    /// if allowed, and `b`'s index: the dense form of [`step_cost`].
    fn step(&self, a: WtSquare, ha: i64, a_zoc: bool, d: (i64, i64), k: i64) -> Option<(usize, i64)> {
        // WT-MOV-4: a jump goes between heights.
        if k > 1 && ha < 1 {
            return None;
        }
        let b = WtSquare { x: a.x + d.0 * k, y: a.y + d.1 * k };
        let bi = self.index(b)?;
        if !self.on[bi] || self.enemy[bi] {
            return None;
        }
        let hb = self.hts[bi];
        let z = if a_zoc { 3 } else { 0 };
        if k == 1 {
            return Some((bi, 1 + (hb - ha).abs() + z));
        }
        // WT-MOV-4: … over a gap of lower squares.
        if hb < 1 {
            return None;
        }
        let low = ha.min(hb);
        let gap_ok = (1..k).all(|g| {
            self.index(WtSquare { x: a.x + d.0 * g, y: a.y + d.1 * g })
                .is_some_and(|gi| self.on[gi] && self.hts[gi] < low)
        });
        gap_ok.then_some((bi, k + (hb - ha).abs() + z))
    }
}

/// Cheapest routes from one square (WT-MOV-2/3/4/5), with reusable buffers
/// ([`Reach::search`]).
///
/// The search settles squares in the order (cost, row, column), as a
/// Dijkstra search over a priority queue keyed that way would: of several
/// equally cheap routes the one through the earliest settled square is kept,
/// and every destination's route is the same whatever the budget (a search
/// with a larger budget, restricted to the squares within a smaller one, is
/// the search with the smaller budget).
#[derive(Debug, Clone)]
pub struct Reach {
    /// The grid's geometry (its indexes are the grid's).
    geo: MoveGrid,
    start: WtSquare,
    /// Cost per square (`i64::MAX` = not reached).
    cost: Vec<i64>,
    /// Predecessor per square (an index, [`FROM_START`] or [`UNREACHED`]).
    pred: Vec<u32>,
    /// Squares in the route, start excluded.
    len: Vec<u32>,
    /// Squares a move may not end on (other characters).
    taken: Vec<bool>,
    /// Squares to settle, by cost.
    buckets: Vec<Vec<u16>>,
    /// The squares reached, in index (row, column) order.
    reached: Vec<u16>,
}

impl Default for Reach {
    fn default() -> Self {
        Reach {
            geo: MoveGrid::default(),
            start: WtSquare { x: 0, y: 0 },
            cost: Vec::new(),
            pred: Vec::new(),
            len: Vec::new(),
            taken: Vec::new(),
            buckets: Vec::new(),
            reached: Vec::new(),
        }
    }
}

impl Reach {
    fn index(&self, s: WtSquare) -> Option<usize> {
        self.geo.index(s).filter(|&i| i < self.cost.len())
    }

    fn square(&self, i: usize) -> WtSquare {
        self.geo.square(i)
    }

    /// Destinations within `budget` (row by row), with their cost and route
    /// length: every reached battlefield square except the start and squares
    /// held by other characters (WT-MOV-3).
    pub fn dests(&self, budget: i64) -> impl Iterator<Item = (WtSquare, i64, usize)> + '_ {
        let start = self.index(self.start);
        self.reached.iter().filter_map(move |&i| {
            let i = usize::from(i);
            let c = self.cost[i];
            if c > budget || Some(i) == start || self.taken[i] {
                return None;
            }
            Some((self.square(i), c, self.len[i] as usize))
        })
    }

    /// The cheapest-route tree within `budget`: every reached battlefield square
    /// but the start, as (grid index, square, cost, predecessor's grid index or
    /// `None` from the start, another character stands there), in the order
    /// (cost, row, column): a square's predecessor always comes before it.
    pub fn tree(&self, budget: i64) -> Vec<(usize, WtSquare, i64, Option<usize>, bool)> {
        let start = self.index(self.start);
        let mut out: Vec<_> = self
            .reached
            .iter()
            .map(|&i| usize::from(i))
            .filter(|&i| self.cost[i] <= budget && Some(i) != start)
            .map(|i| {
                let p = self.pred[i];
                (i, self.square(i), self.cost[i], (p != FROM_START).then_some(p as usize), self.taken[i])
            })
            .collect();
        // Indices are distinct, so the shared stable sort gives the one order.
        crate::small_sort::sort_by(&mut out, &|a, b| (a.2, a.0).cmp(&(b.2, b.0)));
        out
    }

    /// The cost of the cheapest route to `dest`, if reached.
    pub fn cost(&self, dest: WtSquare) -> Option<i64> {
        self.index(dest).and_then(|i| self.cost.get(i).copied()).filter(|&c| c != i64::MAX)
    }

    /// The cheapest route to `dest` (start excluded), if reached.
    /// How many squares [`Reach::path`] to `dest` has, without building it.
    pub fn path_len(&self, dest: WtSquare) -> Option<usize> {
        let i = self.index(dest)?;
        if self.pred.get(i).is_none_or(|&p| p == UNREACHED) || dest == self.start {
            return None;
        }
        self.len.get(i).map(|&n| n as usize)
    }

    pub fn path(&self, dest: WtSquare) -> Option<Vec<WtSquare>> {
        let mut i = self.index(dest)?;
        if self.pred.get(i).is_none_or(|&p| p == UNREACHED) || dest == self.start {
            return None;
        }
        let mut path = Vec::with_capacity(self.len[i] as usize);
        loop {
            path.push(self.square(i));
            match self.pred[i] {
                FROM_START | UNREACHED => break,
                p => i = p as usize,
            }
            if path.len() > self.cost.len() {
                return None; // never: predecessors form a tree
            }
        }
        path.reverse();
        Some(path)
    }

    /// Relax the step to `b` at cost `nc` (from `from`, after `alen` squares).
    #[inline]
    fn relax(&mut self, b: usize, nc: i64, from: u32, alen: u32, budget: i64) {
        if nc <= budget && nc < self.cost[b] {
            if self.cost[b] == i64::MAX {
                self.reached.push(b as u16);
            }
            self.cost[b] = nc;
            self.pred[b] = from;
            self.len[b] = alen + 1;
            if let Some(bk) = self.buckets.get_mut(nc as usize) {
                bk.push(b as u16);
            }
        }
    }

    /// Relax every step out of the battlefield square `i` (settled at cost
    /// `c`): [`MoveGrid::step`] with index arithmetic (the border keeps every
    /// step inside the arrays).
    fn expand_idx(&mut self, g: &MoveGrid, i: usize, c: i64, budget: i64) {
        let (ha, alen) = (g.hts[i], self.len[i]);
        let z = if g.zoc[i] { 3 } else { 0 };
        let s = g.stride as isize;
        for delta in [1isize, -1, s, -s] {
            let at = |k: isize| (i as isize + k * delta) as usize;
            let b = at(1);
            if g.on[b] && !g.enemy[b] {
                self.relax(b, c + 1 + (g.hts[b] - ha).abs() + z, i as u32, alen, budget);
            }
            if ha < 1 {
                continue; // WT-MOV-4: a jump goes between heights …
            }
            for k in 2..=3isize {
                let b = at(k);
                let hb = g.hts[b];
                if !g.on[b] || g.enemy[b] || hb < 1 {
                    continue;
                }
                // … over a gap of lower squares.
                let low = ha.min(hb);
                if (1..k).all(|j| g.on[at(j)] && g.hts[at(j)] < low) {
                    self.relax(b, c + k as i64 + (hb - ha).abs() + z, i as u32, alen, budget);
                }
            }
        }
    }

    /// Relax every step out of `a` (settled at cost `c`).
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        g: &MoveGrid,
        a: WtSquare,
        ha: i64,
        a_zoc: bool,
        c: i64,
        from: u32,
        alen: u32,
        budget: i64,
    ) {
        for d in DIRS {
            for k in 1..=3i64 {
                let Some((bi, sc)) = g.step(a, ha, a_zoc, d, k) else { continue };
                self.relax(bi, c + sc, from, alen, budget);
            }
        }
    }

    /// Mark `others` as the squares a move may not end on, keeping the routes
    /// (allies are passed through, so they do not change the routes).
    pub fn set_taken(&mut self, others: impl IntoIterator<Item = WtSquare>) {
        let n = self.taken.len();
        self.taken.clear();
        self.taken.resize(n, false);
        for o in others {
            if let Some(i) = self.index(o) {
                self.taken[i] = true;
            }
        }
    }

    /// Search the cheapest routes from `start` within `budget` on `g` (built
    /// from `map`), `others` being the squares of the other characters
    /// (passable for allies, never an end square), reusing this value's buffers.
    pub fn search(
        &mut self,
        g: &MoveGrid,
        map: &WtBattleMap,
        others: impl IntoIterator<Item = WtSquare>,
        start: WtSquare,
        budget: i64,
    ) {
        let n = g.on.len();
        self.geo.w = g.w;
        self.geo.h = g.h;
        self.geo.stride = g.stride;
        self.start = start;
        self.cost.clear();
        self.cost.resize(n, i64::MAX);
        self.pred.clear();
        self.pred.resize(n, UNREACHED);
        self.len.clear();
        self.len.resize(n, 0);
        self.taken.clear();
        self.taken.resize(n, false);
        self.set_taken(others);
        self.reached.clear();
        // No route costs more than a step per square at the dearest step.
        let budget = budget.min((g.w as i64 * g.h as i64).saturating_mul(g.max_step));
        if budget < 0 {
            return;
        }
        let nb = budget as usize + 1;
        for b in self.buckets.iter_mut().take(nb) {
            b.clear();
        }
        if self.buckets.len() < nb {
            self.buckets.resize_with(nb, Vec::new);
        }
        let start_i = self.index(start);
        if let Some(si) = start_i {
            self.cost[si] = 0;
        }
        // The start (cost 0: every step costs at least 1) may lie off the map.
        self.expand(g, start, map.h(start), g.in_zoc(start), 0, FROM_START, 0, budget);
        // Settle by cost, then row, then column (= index order within a cost).
        for c in 1..nb {
            let mut bucket = std::mem::take(&mut self.buckets[c]);
            bucket.sort_unstable();
            for &i in &bucket {
                let i = usize::from(i);
                if self.cost[i] != c as i64 || Some(i) == start_i {
                    continue; // settled cheaper since
                }
                self.expand_idx(g, i, c as i64, budget);
            }
            bucket.clear();
            self.buckets[c] = bucket;
        }
        self.reached.sort_unstable();
    }
}

/// Cheapest routes from `start` within `budget` (see [`Reach`]).
pub fn reach(map: &WtBattleMap, occ: &Occupancy, start: WtSquare, budget: i64) -> Reach {
    let mut g = MoveGrid::default();
    g.build(map, occ.enemies.iter().map(|&e| (e, !occ.no_zoc.contains(&e))));
    let mut r = Reach::default();
    r.search(&g, map, occ.others.iter().copied(), start, budget);
    r
}

/// WT-OOB-2/3: the distance from `s` to the battlefield and the nearest
/// battlefield square not in `occupied`. Squares at the same distance in `metric`
/// are ranked by straight-line distance (so a character pushed straight off an edge
/// comes back where it left, also under Chebyshev), then lowest row, then column.
pub fn nearest_on_map(
    map: &WtBattleMap,
    metric: WtRangeMetric,
    s: WtSquare,
    occupied: &[WtSquare],
) -> Option<(i64, WtSquare)> {
    let straight = |q: WtSquare| {
        let (dx, dy) = (q.x.saturating_sub(s.x), q.y.saturating_sub(s.y));
        dx.saturating_mul(dx).saturating_add(dy.saturating_mul(dy))
    };
    let mut best: Option<(i64, i64, WtSquare)> = None;
    for y in 0..i64::from(map.height) {
        for x in 0..i64::from(map.width) {
            let q = WtSquare { x, y };
            if !map.on_map(q) || occupied.contains(&q) {
                continue;
            }
            let key = (distance(metric, s, q), straight(q));
            if best.is_none_or(|(bd, bs, _)| key < (bd, bs)) {
                best = Some((key.0, key.1, q));
            }
        }
    }
    best.map(|(d, _, q)| (d, q))
}

/// The distance from `s` to the nearest battlefield square (occupied or not).
pub fn distance_to_map(map: &WtBattleMap, metric: WtRangeMetric, s: WtSquare) -> i64 {
    nearest_on_map(map, metric, s, &[]).map(|(d, _)| d).unwrap_or(0)
}
