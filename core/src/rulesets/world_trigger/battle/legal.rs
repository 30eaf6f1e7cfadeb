//! Listing the legal actions fast (complete random battles at more than 1 000 per
//! second; `BENCHMARKS.md`).
//!
//! [`LegalList::fill`] lists every legal action of a state in a compact form
//! ([`LegalRef`]: indexes into the state and the cost; nothing is allocated
//! per action) and [`LegalList::action`] turns one into the exact
//! [`WtBattleAction`] that `battle_act` accepts. [`legal_actions`] (the
//! `battle_legal_actions` op) does both for every listed action.
//!
//! The list is built from the pieces `check` validates with
//! (`acting_member_at`, `use_skill_checks`, `move_base_at`, `target_fault`,
//! `centre_fault`, `side_fault`, …): each member's skill is validated once,
//! then the destinations (one route search per member for all its move
//! skills, WT-MOV), targets and area centres are enumerated with the
//! per-candidate conditions only. Cheap pre-filters skip the common refusals
//! (slot used, wrong phase, side busy) before a validation that would build
//! an error message. Rare families (re-entry, bringing an ally back) go
//! through `check` itself. The tests compare the result, action by action and
//! cost by cost, with the listing that runs every candidate through `check`
//! (`tests::reference::legal_actions_reference`).

use super::actions::{WtActionCost, WtBattleAction, WtLegalAction};
use super::data::{WtBattleSkill, WtBattleSkillKind};
use super::engine::SkillUse;
use super::engine::{
    acting_member_with, attack_cost, centre_fault, check, check_burst, max_td, move_base_at, move_cost,
    side_action_done, side_fault, slot_of, target_fault, use_skill_checks, MAX_PATH,
};
use super::grid::{self, MoveGrid, Reach};
use super::state::*;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use crate::world_trigger::character::movement_with;
use std::sync::Arc;

/// What `battle_act` checks before using `sk` (an acting member, then the skill use
/// itself), or `None` when it would refuse.
fn skill_use<'a>(
    s: &'a WtBattleState,
    mi: usize,
    sk: &'a WtBattleSkill,
    side: Option<crate::world_trigger::character::WtSide>,
) -> Option<SkillUse<'a>> {
    acting_member_with(s, mi, false, sk.after_bailout).and_then(|_| use_skill_checks(s, mi, sk, side)).ok()
}

/// What a legal action is, by indexes into the state (members, their skill
/// entries, teams, the catalog's operator commands).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegalKind {
    /// WT-OP-8: team `team` uses operator command `op`.
    Operator {
        /// Team index.
        team: usize,
        /// Index into `catalog.operator_skills`.
        op: usize,
    },
    /// WT-ECO-5: member `mi` uses its ability `ab`.
    Ability {
        /// Member index.
        mi: usize,
        /// Index into the member's `abilities`.
        ab: usize,
    },
    /// No reaction to the pending attack's current target.
    NoReaction,
    /// Member `ri` reacts with its skill entry `k`.
    React {
        /// Member index.
        ri: usize,
        /// Index into the member's `skills`.
        k: usize,
    },
    /// Roll initiative (no tactics dice).
    RollInitiative,
    /// WT-OOB-2: member `mi` tries the re-entry check (no tactics dice).
    Reenter {
        /// Member index.
        mi: usize,
    },
    /// The acting team passes.
    Pass {
        /// Team index.
        team: usize,
    },
    /// Member `mi` moves to `dest` with its skill entry `k` (cheapest route).
    Move {
        /// Member index.
        mi: usize,
        /// Index into the member's `skills`.
        k: usize,
        /// Destination.
        dest: WtSquare,
    },
    /// WT-OOB-4: member `mi` brings its out-of-bounds ally `target` back.
    BringBack {
        /// Member index.
        mi: usize,
        /// The ally's member index.
        target: usize,
    },
    /// Member `mi` uses its (non-attack) skill entry `k`.
    Skill {
        /// Member index.
        mi: usize,
        /// Index into the member's `skills`.
        k: usize,
    },
    /// Member `mi` attacks member `target` with its skill entry `k`.
    Target {
        /// Member index.
        mi: usize,
        /// Index into the member's `skills`.
        k: usize,
        /// Target member index.
        target: usize,
    },
    /// Member `mi` attacks the area centred on `center` with its skill entry `k`.
    Area {
        /// Member index.
        mi: usize,
        /// Index into the member's `skills`.
        k: usize,
        /// Area centre.
        center: WtSquare,
    },
}

/// A legal action in compact form, with its cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegalRef {
    /// What it is.
    pub kind: LegalKind,
    /// What it costs (as `battle_legal_actions` reports it).
    pub cost: WtActionCost,
}

impl LegalRef {
    /// True for `pass`.
    pub fn is_pass(&self) -> bool {
        matches!(self.kind, LegalKind::Pass { .. })
    }
}

/// Build `g` as member `mi`'s team sees the grid (enemies on the battlefield, WT-MOV-3/5).
fn build_grid(s: &WtBattleState, mi: usize, g: &mut MoveGrid) {
    let team = s.members.get(mi).map(|m| m.team);
    // RULINGS 2026-12-05: an incapacitated enemy blocks its square but projects no ZoC.
    let enemies = s
        .members
        .iter()
        .filter(|o| Some(o.team) != team && s.on_field(o))
        .map(|o| (o.at, o.status == WtMemberStatus::Active));
    g.build(&s.map, enemies);
}

/// Search member `mi`'s cheapest routes (WT-MOV) on its team's grid `g`
/// within `budget` (the same routes as `check` walks with `grid::step_cost`
/// over `s.occupancy(mi)`).
fn search_member(s: &WtBattleState, mi: usize, g: &MoveGrid, budget: i64, into: &mut Reach) {
    if let Some(m) = s.members.get(mi) {
        let others =
            s.members.iter().enumerate().filter(|&(i, o)| i != mi && s.on_field(o)).map(|(_, o)| o.at);
        into.search(g, &s.map, others, m.at, budget);
    }
}

/// The Movement the route search needs: the most any of the member's move skills gives.
fn move_budget<'s>(m: &WtBattleMember, skills: impl Iterator<Item = Option<&'s WtBattleSkill>>) -> i64 {
    skills
        .flatten()
        .filter(|sk| sk.kind == WtBattleSkillKind::Move)
        .map(|sk| movement_with(m.stats.mobility, sk.movement_bonus, &m.conditions))
        .max()
        .unwrap_or(0)
}

/// Reusable buffers for listing legal actions: keep one and [`fill`](Self::fill)
/// it for each state (a host loop then allocates nothing per listed action).
///
/// It also keeps, between fills, the route searches whose inputs did not
/// change (the mover's square and Movement, the map and where its enemies
/// stand: allies can be passed through, so they only decide where a move may
/// end), and which catalog skill each skill entry is; both are checked
/// against the state on every fill, so one list can serve any states.
#[derive(Debug, Default)]
pub struct LegalList {
    /// The legal actions of the state given to the last `fill`, in [`legal_actions`]' order.
    pub refs: Vec<LegalRef>,
    /// Route searches by member index.
    reach: Vec<Reach>,
    /// What each search was made from: (start, budget, grid version).
    reach_key: Vec<Option<(WtSquare, i64, u64)>>,
    /// Searches whose end squares were updated in this fill.
    reach_fresh: Vec<bool>,
    /// The grid as one team sees it, what it was built from, its version.
    grid: MoveGrid,
    grid_key: Option<GridKey>,
    grid_version: u64,
    /// The team whose grid was checked in this fill.
    grid_team: Option<usize>,
    /// Catalog index of each member's skill entries (`usize::MAX`: none),
    /// for the catalog and skill lists held here (shared and never changed in
    /// place: the same `Arc` means the same content).
    skill_ix: Vec<Vec<usize>>,
    skill_of: Vec<Option<SkillSource>>,
    /// Squares of the characters on the battlefield (area attacks' targets), for this fill.
    field: Vec<WtSquare>,
    /// Scratch: enemies' squares, each with whether it projects ZoC.
    enemies: Vec<(WtSquare, bool)>,
}

/// The catalog and skill list a member's `skill_ix` was resolved against.
type SkillSource = (Arc<WtBattleCatalog>, Arc<Vec<WtMemberSkill>>);

/// What a [`MoveGrid`] was built from.
#[derive(Debug, Clone, PartialEq)]
struct GridKey {
    width: u32,
    height: u32,
    heights: Vec<Vec<i64>>,
    off_map: Vec<WtSquare>,
    enemies: Vec<(WtSquare, bool)>,
}

impl LegalList {
    /// List every legal action of `s` (`actor`: only that member's actions, plus team-level ones).
    pub fn fill(&mut self, s: &WtBattleState, actor: Option<&str>) {
        let n = s.members.len();
        self.reach_fresh.clear();
        self.reach_fresh.resize(n, false);
        self.grid_team = None;
        if self.reach.len() < n {
            self.reach.resize_with(n, Reach::default);
            self.reach_key.resize(n, None);
        }
        if self.skill_ix.len() < n {
            self.skill_ix.resize_with(n, Vec::new);
            self.skill_of.resize(n, None);
        }
        self.field.clear();
        self.field.extend(s.members.iter().filter(|o| s.on_field(o)).map(|o| o.at));
        let mut refs = std::mem::take(&mut self.refs);
        legal_refs(s, actor, &mut refs, self);
        self.refs = refs;
    }

    /// The catalog skill of member `mi`'s skill entry `k` (what `s.skill` finds).
    fn entry_skill<'s>(&mut self, s: &'s WtBattleState, mi: usize, k: usize) -> Option<&'s WtBattleSkill> {
        let m = s.members.get(mi)?;
        let known = self.skill_of.get(mi)?.as_ref();
        if !known.is_some_and(|(c, k)| Arc::ptr_eq(c, &s.catalog) && Arc::ptr_eq(k, &m.skills)) {
            let v = self.skill_ix.get_mut(mi)?;
            v.clear();
            v.extend(
                m.skills
                    .iter()
                    .map(|e| s.catalog.skills.iter().position(|x| x.id == e.skill).unwrap_or(usize::MAX)),
            );
            self.skill_of[mi] = Some((Arc::clone(&s.catalog), Arc::clone(&m.skills)));
        }
        s.catalog.skills.get(*self.skill_ix.get(mi)?.get(k)?)
    }

    /// Member `mi`'s route search for this fill.
    fn reach_of(&mut self, s: &WtBattleState, mi: usize) -> Option<&Reach> {
        let m = s.members.get(mi)?;
        if !*self.reach_fresh.get(mi)? {
            // The grid as the member's team sees it: rebuilt only if the map or the enemies moved.
            if self.grid_team != Some(m.team) {
                self.enemies.clear();
                self.enemies.extend(
                    s.members
                        .iter()
                        .filter(|o| o.team != m.team && s.on_field(o))
                        .map(|o| (o.at, o.status == WtMemberStatus::Active)),
                );
                let same = self.grid_key.as_ref().is_some_and(|k| {
                    k.width == s.map.width
                        && k.height == s.map.height
                        && k.heights == s.map.heights
                        && k.off_map == s.map.off_map
                        && k.enemies == self.enemies
                });
                if !same {
                    self.grid.build(&s.map, self.enemies.iter().copied());
                    self.grid_key = Some(GridKey {
                        width: s.map.width,
                        height: s.map.height,
                        heights: s.map.heights.clone(),
                        off_map: s.map.off_map.clone(),
                        enemies: self.enemies.clone(),
                    });
                    self.grid_version += 1;
                }
                self.grid_team = Some(m.team);
            }
            let budget = move_budget(m, (0..m.skills.len()).map(|k| self.entry_skill(s, mi, k)));
            let key = Some((m.at, budget, self.grid_version));
            let others =
                s.members.iter().enumerate().filter(|&(i, o)| i != mi && s.on_field(o)).map(|(_, o)| o.at);
            let r = self.reach.get_mut(mi)?;
            if self.reach_key[mi] == key {
                r.set_taken(others);
            } else {
                r.search(&self.grid, &s.map, others, m.at, budget);
                self.reach_key[mi] = key;
            }
            self.reach_fresh[mi] = true;
        }
        self.reach.get(mi)
    }

    /// The `i`th listed action, exactly as `battle_act` accepts it; `s` must
    /// be the state given to the last `fill`.
    pub fn action(&mut self, s: &WtBattleState, i: usize) -> Option<WtLegalAction> {
        let r = self.refs.get(i)?.clone();
        let reach = match r.kind {
            LegalKind::Move { mi, .. } => self.reach_of(s, mi),
            _ => None,
        };
        materialize_with(s, &r, reach)
    }
}

/// May `m` act with `sk` in its team's turn at all (WT-KO, WT-OOB-1)? A
/// pre-filter: like the others below it only skips what `check` refuses
/// anyway (the tests compare with the full listing); what it lets through is
/// validated by `check`'s own pieces.
fn can_act(s: &WtBattleState, m: &WtBattleMember, sk: &WtBattleSkill) -> bool {
    let status_ok = match m.status {
        WtMemberStatus::Active => true,
        // WT-KO-2: Normal Move while incapacitated (the first catalog entry decides, as in `check`).
        WtMemberStatus::Incapacitated => {
            sk.kind == WtBattleSkillKind::Move && s.skill(&sk.id).is_some_and(|k| k.while_incapacitated)
        }
        // WT-KO-4: basic commands usable after emergency bailout (off the battlefield).
        WtMemberStatus::BailedOut => return sk.after_bailout,
        _ => false,
    };
    status_ok && s.map.on_map(m.at)
}

/// Every legal action now, in compact form (`actor`: only that member's
/// actions, plus team-level ones). `out` is cleared first; the order is
/// [`legal_actions`]' order.
fn legal_refs(s: &WtBattleState, actor: Option<&str>, out: &mut Vec<LegalRef>, list: &mut LegalList) {
    out.clear();
    if s.phase == WtBattlePhase::Ended {
        return;
    }
    let want = |m: &WtBattleMember| actor.is_none_or(|a| a == m.id);
    // Any timing: WT-OP-8 operator actions (once per round) and WT-ECO-5 skills.
    for (team, t) in s.teams.iter().enumerate() {
        if t.operator_used {
            continue;
        }
        for op in 0..s.catalog.operator_skills.len() {
            out.push(LegalRef {
                kind: LegalKind::Operator { team, op },
                cost: WtActionCost { operator: true, ..Default::default() },
            });
        }
    }
    for (mi, m) in s.members.iter().enumerate() {
        if !want(m) || m.status != WtMemberStatus::Active {
            continue;
        }
        for (ab, a) in m.abilities.iter().enumerate() {
            // `check` looks the ability up by id: the first entry decides.
            let first = m.abilities.iter().take(ab).find(|x| x.id == a.id).unwrap_or(a);
            let rep = first.repeatable;
            if rep || !m.used.abilities.contains(&a.id) {
                out.push(LegalRef { kind: LegalKind::Ability { mi, ab }, cost: WtActionCost::default() });
            }
        }
    }
    if let Some(p) = &s.pending {
        out.push(LegalRef { kind: LegalKind::NoReaction, cost: WtActionCost::default() });
        let Some(ti) = p.targets.get(p.reactions.len()).and_then(|t| s.idx(t)) else { return };
        let Some(tm) = s.members.get(ti) else { return };
        for (ri, r) in s.members.iter().enumerate() {
            // WT-ST-4 (RULINGS 2026-12-05): a Floating character takes no reaction of its own.
            if r.team != tm.team
                || !want(r)
                || r.status != WtMemberStatus::Active
                || !s.map.on_map(r.at)
                || r.states.floating
            {
                continue;
            }
            for (k, e) in r.skills.iter().enumerate() {
                // With each skill and side listed once per member (`validate`),
                // `member_skill` resolves this entry to its catalog skill and side.
                let Some(sk) = list.entry_skill(s, ri, k) else { continue };
                let side = e.side;
                // WT-HIT-2/4, WT-ST-4: who may react with what (as `check` sees it).
                let ok = match sk.kind {
                    WtBattleSkillKind::Dodge => ri == ti,
                    WtBattleSkillKind::Defend => {
                        grid::distance(s.variants.range_metric, r.at, tm.at) <= i64::from(sk.range)
                    }
                    _ => false,
                };
                if ok && side_fault(s, r, sk, side).is_none() {
                    out.push(LegalRef {
                        kind: LegalKind::React { ri, k },
                        cost: WtActionCost {
                            activates: side,
                            max_tactics_dice: max_td(s, r.team, 1),
                            ..Default::default()
                        },
                    });
                }
            }
        }
        return;
    }
    let reentries = |out: &mut Vec<LegalRef>| {
        for (mi, m) in s.members.iter().enumerate() {
            if want(m) && !s.map.on_map(m.at) {
                let a = WtBattleAction::Reenter { actor: m.id.clone(), tactics_dice: 0 };
                if let Ok(c) = check(s, &a) {
                    out.push(LegalRef { kind: LegalKind::Reenter { mi }, cost: c.cost });
                }
            }
        }
    };
    match s.phase {
        WtBattlePhase::Initiative => {
            let cost = check(s, &WtBattleAction::RollInitiative { tactics_dice: Vec::new() })
                .map(|c| c.cost)
                .unwrap_or_default();
            out.push(LegalRef { kind: LegalKind::RollInitiative, cost });
            reentries(out);
        }
        WtBattlePhase::Tactics | WtBattlePhase::Movement | WtBattlePhase::Attack => {
            reentries(out);
            if let Some(t) = s.acting_team() {
                out.push(LegalRef { kind: LegalKind::Pass { team: t }, cost: WtActionCost::default() });
                let full = |p: WtBattlePhase| s.slots_used(t, p) >= MEMBERS_PER_PHASE;
                let (moves_full, phase_full) = (full(WtBattlePhase::Movement), full(s.phase));
                for (mi, m) in s.members.iter().enumerate() {
                    if m.team == t && want(m) {
                        member_actions(s, mi, m, moves_full, phase_full, out, list);
                        // WT-OOB-4: bringing an out-of-bounds ally back (rare: validated by `check`).
                        for (ti, o) in s.members.iter().enumerate() {
                            if ti != mi && o.team == t && !s.map.on_map(o.at) {
                                let a =
                                    WtBattleAction::BringBack { actor: m.id.clone(), target: o.id.clone() };
                                if let Ok(c) = check(s, &a) {
                                    out.push(LegalRef {
                                        kind: LegalKind::BringBack { mi, target: ti },
                                        cost: c.cost,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// The acting member `m`'s skills (moves, attacks, tactics-phase skills), in its skill order.
fn member_actions(
    s: &WtBattleState,
    mi: usize,
    m: &WtBattleMember,
    moves_full: bool,
    phase_full: bool,
    out: &mut Vec<LegalRef>,
    list: &mut LegalList,
) {
    for (k, e) in m.skills.iter().enumerate() {
        let Some(sk) = list.entry_skill(s, mi, k) else { continue };
        if !can_act(s, m, sk) {
            continue;
        }
        // WT-ECO-2/3: the phase slot (combined-use skills take none).
        let slot_free = |p: WtBattlePhase, full: bool| {
            sk.combined_use
                || (p == WtBattlePhase::Attack && slot_of(&m.used, p))
                || (!slot_of(&m.used, p) && !full)
        };
        match sk.kind {
            WtBattleSkillKind::Move => {
                // WT-RND-1, WT-ST-3: moves in the Movement phase, reserved moves in the Attack phase before attacking.
                let phase_ok = match s.phase {
                    WtBattlePhase::Movement => m.states.movement_reserved.is_none(),
                    WtBattlePhase::Attack => m.states.movement_reserved.is_some() && !m.used.attack,
                    _ => false,
                };
                let slot_ok = sk.combined_use || (!m.used.movement && !moves_full);
                // A `move` names no side: a move trigger on both sides is listed once.
                let listed = m.skills.iter().take(k).any(|x| x.skill == e.skill);
                if !phase_ok || !slot_ok || listed {
                    continue;
                }
                let Ok(base) = move_base_at(s, mi, &sk.id) else { continue };
                let Some(r) = list.reach_of(s, mi) else { continue };
                for (dest, cost, len) in r.dests(base.movement) {
                    if (1..=MAX_PATH).contains(&len) {
                        out.push(LegalRef {
                            kind: LegalKind::Move { mi, k, dest },
                            cost: move_cost(base.slot, cost),
                        });
                    }
                }
            }
            WtBattleSkillKind::Attack => {
                if s.phase != WtBattlePhase::Attack
                    || (!sk.combined_use && side_action_done(&m.used, e.side))
                    || !slot_free(WtBattlePhase::Attack, phase_full)
                    || sk.trion_cost > m.trion
                    || side_fault(s, m, sk, e.side).is_some()
                {
                    continue;
                }
                // `member_skill` resolves the entry to (sk, e.side): each skill and side is listed once.
                let Some(base) = skill_use(s, mi, sk, e.side) else { continue };
                if check_burst(m, sk, 0).is_err() {
                    continue;
                }
                match sk.area {
                    Some(area) => {
                        // Centres within range on the battlefield (WT-RNG-4); the
                        // targets (WT-RNG-3/5, `area_targets`) only change the tactics dice allowed.
                        let cost = attack_cost(s, m, sk, base.side, base.slot, 0, 1);
                        let (r, half) = (i64::from(sk.range), i64::from(area / 2));
                        let (w, h) = (i64::from(s.map.width), i64::from(s.map.height));
                        for y in (m.at.y - r).max(0)..=(m.at.y + r).min(h - 1) {
                            for x in (m.at.x - r).max(0)..=(m.at.x + r).min(w - 1) {
                                let center = WtSquare { x, y };
                                if centre_fault(s, m, sk, center).is_some() {
                                    continue;
                                }
                                let n = list
                                    .field
                                    .iter()
                                    .filter(|q| (q.x - x).abs() <= half && (q.y - y).abs() <= half)
                                    .count();
                                out.push(LegalRef {
                                    kind: LegalKind::Area { mi, k, center },
                                    cost: WtActionCost {
                                        max_tactics_dice: max_td(s, m.team, n.max(1)),
                                        ..cost.clone()
                                    },
                                });
                            }
                        }
                    }
                    None => {
                        for target in 0..s.members.len() {
                            if target != mi && target_fault(s, mi, target, sk).is_none() {
                                out.push(LegalRef {
                                    kind: LegalKind::Target { mi, k, target },
                                    cost: attack_cost(s, m, sk, base.side, base.slot, 0, 1),
                                });
                            }
                        }
                    }
                }
            }
            WtBattleSkillKind::Dodge | WtBattleSkillKind::Defend => {}
            WtBattleSkillKind::Tactics
            | WtBattleSkillKind::Stealth
            | WtBattleSkillKind::Invisible
            | WtBattleSkillKind::Search => {
                if s.phase != WtBattlePhase::Tactics
                    || !slot_free(WtBattlePhase::Tactics, phase_full)
                    || (sk.trion_cost > 0 && sk.trion_cost > m.trion)
                    || side_fault(s, m, sk, e.side).is_some()
                {
                    continue;
                }
                // `member_skill` resolves the entry to (sk, e.side): each skill and side is listed once.
                let Some(base) = skill_use(s, mi, sk, e.side) else { continue };
                out.push(LegalRef {
                    kind: LegalKind::Skill { mi, k },
                    cost: WtActionCost { slot: base.slot, trion: sk.trion_cost, ..Default::default() },
                });
            }
        }
    }
}

/// The action `r` stands for, exactly as `battle_act` accepts it (`None` if
/// `r` does not fit the state). For a whole list, [`LegalList::action`] reuses
/// the listing's route searches.
pub fn materialize(s: &WtBattleState, r: &LegalRef) -> Option<WtLegalAction> {
    materialize_with(s, r, None)
}

/// [`materialize`] with the mover's route search, if at hand.
fn materialize_with(s: &WtBattleState, r: &LegalRef, reach: Option<&Reach>) -> Option<WtLegalAction> {
    let member = |mi: usize| s.members.get(mi);
    let entry = |mi: usize, k: usize| member(mi).and_then(|m| m.skills.get(k));
    let use_skill = |mi: usize, k: usize, target: Option<String>, center: Option<WtSquare>| {
        let e = entry(mi, k)?;
        Some(WtBattleAction::UseSkill {
            actor: member(mi)?.id.clone(),
            skill: e.skill.clone(),
            side: e.side,
            target,
            center,
            tactics_dice: 0,
            burst: 0,
            push_to: None,
        })
    };
    let action = match r.kind {
        LegalKind::Operator { team, op } => WtBattleAction::Operator {
            team: s.teams.get(team)?.id.clone(),
            skill: s.catalog.operator_skills.get(op)?.id.clone(),
        },
        LegalKind::Ability { mi, ab } => WtBattleAction::UseAbility {
            actor: member(mi)?.id.clone(),
            ability: member(mi)?.abilities.get(ab)?.id.clone(),
        },
        LegalKind::NoReaction => WtBattleAction::NoReaction {},
        LegalKind::React { ri, k } => {
            let e = entry(ri, k)?;
            WtBattleAction::React {
                actor: member(ri)?.id.clone(),
                skill: e.skill.clone(),
                side: e.side,
                tactics_dice: 0,
            }
        }
        LegalKind::RollInitiative => WtBattleAction::RollInitiative { tactics_dice: Vec::new() },
        LegalKind::Reenter { mi } => {
            WtBattleAction::Reenter { actor: member(mi)?.id.clone(), tactics_dice: 0 }
        }
        LegalKind::Pass { team } => WtBattleAction::Pass { team: s.teams.get(team)?.id.clone() },
        LegalKind::Move { mi, k, dest } => {
            let path = match reach {
                Some(r) => r.path(dest)?,
                None => {
                    let (mut g, mut r) = (MoveGrid::default(), Reach::default());
                    build_grid(s, mi, &mut g);
                    let m = member(mi)?;
                    let budget = move_budget(m, m.skills.iter().map(|e| s.skill(&e.skill)));
                    search_member(s, mi, &g, budget, &mut r);
                    r.path(dest)?
                }
            };
            WtBattleAction::Move { actor: member(mi)?.id.clone(), skill: entry(mi, k)?.skill.clone(), path }
        }
        LegalKind::BringBack { mi, target } => {
            WtBattleAction::BringBack { actor: member(mi)?.id.clone(), target: member(target)?.id.clone() }
        }
        LegalKind::Skill { mi, k } => use_skill(mi, k, None, None)?,
        LegalKind::Target { mi, k, target } => use_skill(mi, k, Some(member(target)?.id.clone()), None)?,
        LegalKind::Area { mi, k, center } => use_skill(mi, k, None, Some(center))?,
    };
    Some(WtLegalAction { action, cost: r.cost.clone() })
}

/// Every action legal now (`actor`: only that member's actions, plus team-level ones).
pub fn legal_actions(s: &WtBattleState, actor: Option<&str>) -> Vec<WtLegalAction> {
    let mut list = LegalList::default();
    list.fill(s, actor);
    (0..list.refs.len()).filter_map(|i| list.action(s, i)).collect()
}

/// Most actions one listing returns. Battle data may give a member dozens of move
/// skills on a 64 × 64 map, and every reachable square is an action per move skill,
/// each with its path: unbounded, that is gigabytes (the wasm runs out of memory).
/// Real battles list a few hundred; the sample data at Mobility 99 on a 64 × 64 map
/// about 13,000 (with 434,000 path squares).
pub const MAX_LISTED_ACTIONS: usize = 50_000;
/// Most squares in all the listed move paths together (each square is an object in
/// the result, so this bounds its memory: a few hundred MB at most).
pub const MAX_LISTED_PATH_SQUARES: usize = 600_000;

/// [`legal_actions`] for the operations: `limit_exceeded` naming `field` when the
/// list would pass [`MAX_LISTED_ACTIONS`] or [`MAX_LISTED_PATH_SQUARES`]. Counted
/// before any action is built, so a refused listing costs no more than the route
/// searches.
pub fn legal_actions_bounded(
    s: &WtBattleState,
    actor: Option<&str>,
    field: &str,
) -> Result<Vec<WtLegalAction>> {
    legal_actions_bounded_with(&mut LegalList::default(), s, actor, None, field)
}

/// [`legal_actions_bounded`] with a list kept across states (its route searches
/// are reused where their inputs did not change): what a game handle uses.
/// `kind`: only actions of that `type`.
pub fn legal_actions_bounded_with(
    list: &mut LegalList,
    s: &WtBattleState,
    actor: Option<&str>,
    kind: Option<&str>,
    field: &str,
) -> Result<Vec<WtLegalAction>> {
    list.fill(s, actor);
    if let Some(k) = kind {
        list.refs.retain(|r| kind_name(&r.kind) == k);
    }
    let hint = if actor.is_none() { "; list one member's (actor)" } else { "" };
    let too_long = |what: String| Error::limit(field, format_args!("{what}{hint}"));
    if list.refs.len() > MAX_LISTED_ACTIONS {
        let n = list.refs.len();
        return Err(too_long(format!(
            "{n} legal actions, more than the {MAX_LISTED_ACTIONS} one listing returns"
        )));
    }
    let mut squares = 0usize;
    for i in 0..list.refs.len() {
        if let LegalKind::Move { mi, dest, .. } = list.refs[i].kind {
            squares += list.reach_of(s, mi).and_then(|r| r.path_len(dest)).unwrap_or(0);
        }
    }
    if squares > MAX_LISTED_PATH_SQUARES {
        return Err(too_long(format!(
            "the legal moves' paths have {squares} squares, more than the {MAX_LISTED_PATH_SQUARES} one listing returns"
        )));
    }
    Ok((0..list.refs.len()).filter_map(|i| list.action(s, i)).collect())
}

/// The action types (`type`) a listing may be narrowed to (`kind`).
pub const KINDS: [&str; 10] = [
    "roll_initiative",
    "use_skill",
    "move",
    "react",
    "no_reaction",
    "reenter",
    "bring_back",
    "operator",
    "use_ability",
    "pass",
];

/// The `type` of the action `k` stands for.
fn kind_name(k: &LegalKind) -> &'static str {
    KINDS[match k {
        LegalKind::RollInitiative => 0,
        LegalKind::Skill { .. } | LegalKind::Target { .. } | LegalKind::Area { .. } => 1,
        LegalKind::Move { .. } => 2,
        LegalKind::React { .. } => 3,
        LegalKind::NoReaction => 4,
        LegalKind::Reenter { .. } => 5,
        LegalKind::BringBack { .. } => 6,
        LegalKind::Operator { .. } => 7,
        LegalKind::Ability { .. } => 8,
        LegalKind::Pass { .. } => 9,
    }]
}

/// One member's legal moves in the compact form: its cheapest-route tree once,
/// and for each move skill how far into it a move may end.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtCompactMoves {
    /// The member moving.
    pub actor: String,
    /// Every square a listed move ends on or passes through, four numbers each (flat:
    /// square `i` is `squares[4i .. 4i + 4]` = `x, y, movement, via`), in the order
    /// (movement, row, column): `movement` is the cheapest route's cost (WT-MOV), `via`
    /// the number of the square entered just before it (`-1`: the member's own square).
    /// A move's `path` to square `i` is the squares met by following `via` from `i` back
    /// to `-1`, reversed (start excluded, as `move` takes it).
    pub squares: Vec<i64>,
    /// Indexes into `squares` that routes pass through but no move may end on (another
    /// character stands there).
    pub through: Vec<u32>,
    /// The move skills usable now, each as a `move` action with its `skill`.
    pub skills: Vec<WtCompactMoveSkill>,
}

/// A move skill in [`WtCompactMoves`].
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtCompactMoveSkill {
    /// Move skill id.
    pub skill: String,
    /// The phase slot it uses (WT-ECO-1/2), if any: the `slot` of each listed move's cost.
    pub slot: Option<WtBattlePhase>,
    /// A move with this skill may end on each of the first `count` squares except those
    /// in `through`; its cost is `{slot, movement}` with that square's movement.
    pub count: u32,
}

/// A mover's skill entry in a compact listing: (entry index, slot, most Movement listed).
type MoveEntry = (usize, Option<WtBattlePhase>, i64);

/// Most rows a compact listing returns: actions other than moves plus route squares
/// (four movers each reaching a whole 64 × 64 map). Past it: `limit_exceeded`.
pub const MAX_COMPACT_ROWS: usize = 16_384;

/// The listing the operations and handles return: `kind` keeps one action type;
/// `compact` gives the moves as [`WtCompactMoves`] (not in the actions) and bounds
/// the rest by [`MAX_COMPACT_ROWS`]; without it, [`legal_actions_bounded_with`].
pub fn listing_with(
    list: &mut LegalList,
    s: &WtBattleState,
    actor: Option<&str>,
    kind: Option<&str>,
    compact: bool,
    field: &str,
) -> Result<(Vec<WtLegalAction>, Option<Vec<WtCompactMoves>>)> {
    if let Some(k) = kind {
        if !KINDS.contains(&k) {
            return Err(Error::invalid("kind", format_args!("expected {}", crate::json::one_of(&KINDS))));
        }
    }
    if !compact {
        return legal_actions_bounded_with(list, s, actor, kind, field).map(|a| (a, None));
    }
    list.fill(s, actor);
    if let Some(k) = kind {
        list.refs.retain(|r| kind_name(&r.kind) == k);
    }
    // Movers in listing order, each with its skill entries in listing order.
    let mut movers: Vec<(usize, Vec<MoveEntry>)> = Vec::new();
    let mut others = 0usize;
    for r in &list.refs {
        let LegalKind::Move { mi, k, .. } = r.kind else {
            others += 1;
            continue;
        };
        let cost = r.cost.movement.unwrap_or(0);
        if movers.last().is_none_or(|(m, _)| *m != mi) {
            movers.push((mi, Vec::new()));
        }
        let Some((_, skills)) = movers.last_mut() else { continue };
        match skills.iter_mut().find(|e| e.0 == k) {
            Some(e) => e.2 = e.2.max(cost),
            None => skills.push((k, r.cost.slot, cost)),
        }
    }
    let mut moves = Vec::with_capacity(movers.len());
    let mut rows = others;
    for (mi, skills) in movers {
        let most = skills.iter().map(|e| e.2).max().unwrap_or(0);
        let Some(tree) = list.reach_of(s, mi).map(|r| r.tree(most)) else { continue };
        rows += tree.len();
        if rows > MAX_COMPACT_ROWS {
            let hint = if actor.is_none() { "; list one member's (actor)" } else { "" };
            return Err(Error::limit(
                field,
                format_args!("the compact listing has more than {MAX_COMPACT_ROWS} rows{hint}"),
            ));
        }
        let mut at = std::collections::HashMap::with_capacity(tree.len());
        let mut squares = Vec::with_capacity(4 * tree.len());
        let mut through = Vec::new();
        for (n, &(i, q, cost, pred, taken)) in tree.iter().enumerate() {
            at.insert(i, n as i64);
            let via = pred.and_then(|p| at.get(&p).copied()).unwrap_or(-1);
            squares.extend([q.x, q.y, cost, via]);
            if taken {
                through.push(n as u32);
            }
        }
        let m = &s.members[mi];
        let skills = skills
            .into_iter()
            .filter_map(|(k, slot, max)| {
                Some(WtCompactMoveSkill {
                    skill: m.skills.get(k)?.skill.clone(),
                    slot,
                    count: tree.partition_point(|t| t.2 <= max) as u32,
                })
            })
            .collect();
        moves.push(WtCompactMoves { actor: m.id.clone(), squares, through, skills });
    }
    let keep: Vec<usize> =
        (0..list.refs.len()).filter(|&i| !matches!(list.refs[i].kind, LegalKind::Move { .. })).collect();
    let actions = keep.into_iter().filter_map(|i| list.action(s, i)).collect();
    Ok((actions, Some(moves)))
}
