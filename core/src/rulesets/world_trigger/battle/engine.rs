//! The battle engine: validation of an action against the state (`check`,
//! shared by `battle_act` and `battle_legal_actions` so that every listed
//! action is accepted), its effects (`apply`), and the phase machine
//! (WT-RND, WT-INIT, WT-ECO, WT-TRG, WT-HIT, WT-DMG, WT-DT, WT-ST, WT-OOB,
//! WT-KO, WT-END).

use super::actions::{
    WtActionCost, WtBattleAction, WtBattleEvent, WtLegalAction, WtTeamDice, WtTrionLossCause,
};
use super::data::{WtBattleSkill, WtBattleSkillKind};
use super::grid::{self, Occupancy};
use super::state::*;
use crate::dice::Dice;
use crate::error::quote;
use crate::error::{Error, ErrorCode, Result};
use crate::world_trigger::character::{feedback_trion_loss, movement_with, WtSide};
use crate::world_trigger::check::{roll_check, WtPool};
use crate::world_trigger::damage::{
    burst_cap, roll_damage, roll_damage_table, special_attack_bonus, WtDamageInput,
};
use crate::world_trigger::data::{WtSpecialAttackKind, WtTriggerKind};
use crate::world_trigger::map::out_of_bounds_difficulty;
use crate::world_trigger::types::WtCondition;

/// Most re-rolls of tied initiative before `limit_exceeded`.
pub const MAX_INITIATIVE_REROLLS: usize = 100;
/// Most squares in a move path.
pub const MAX_PATH: usize = 64;

type Ev = Vec<WtBattleEvent>;

fn illegal(rule: &str, msg: impl std::fmt::Display) -> Error {
    Error::illegal(rule, msg)
}

fn internal(msg: &str) -> Error {
    Error::new(ErrorCode::Internal, msg.to_string())
}

impl WtBattleState {
    fn m(&self, i: usize) -> Result<&WtBattleMember> {
        self.members.get(i).ok_or_else(|| internal("member index"))
    }
    fn mm(&mut self, i: usize) -> Result<&mut WtBattleMember> {
        self.members.get_mut(i).ok_or_else(|| internal("member index"))
    }
    fn team_mut(&mut self, t: usize) -> Result<&mut WtBattleTeam> {
        self.teams.get_mut(t).ok_or_else(|| internal("team index"))
    }
    fn team_id(&self, t: usize) -> String {
        self.teams.get(t).map(|x| x.id.clone()).unwrap_or_default()
    }
    fn team_idx(&self, id: &str) -> Option<usize> {
        self.teams.iter().position(|t| t.id == id)
    }

    /// WT-INIT-2: this phase's team order (Movement reversed).
    pub fn phase_order(&self) -> Vec<usize> {
        let mut o = self.initiative_order.clone();
        if self.phase == WtBattlePhase::Movement {
            o.reverse();
        }
        o
    }

    /// The team acting now (Tactics, Movement, Attack phases), unless an attack awaits reactions.
    pub fn acting_team(&self) -> Option<usize> {
        match self.phase {
            WtBattlePhase::Tactics | WtBattlePhase::Attack => self.initiative_order.get(self.turn).copied(),
            // WT-INIT-2: reversed.
            WtBattlePhase::Movement => {
                let n = self.initiative_order.len();
                self.turn
                    .checked_add(1)
                    .and_then(|k| n.checked_sub(k))
                    .and_then(|i| self.initiative_order.get(i))
                    .copied()
            }
            _ => None,
        }
    }

    /// On the battlefield and standing (targetable, occupies its square).
    pub(super) fn on_field(&self, m: &WtBattleMember) -> bool {
        matches!(m.status, WtMemberStatus::Active | WtMemberStatus::Incapacitated) && self.map.on_map(m.at)
    }

    /// Still counts for its team (end conditions): active, or temporarily incapacitated in a mock battle.
    fn in_play(&self, m: &WtBattleMember) -> bool {
        m.status == WtMemberStatus::Active
            || (m.status == WtMemberStatus::Incapacitated && self.battle_type == WtBattleType::Mock)
    }

    /// WT-KO-5 / WT-TD-2: who rolls initiative and manages the tactics dice. An
    /// incapacitated leader counts as a bailed-out one (RULINGS 2026-12-05, WT-KO-2 with
    /// WT-INIT-1): the highest-Command member still able to act takes over.
    pub fn manager(&self, team: usize) -> Option<usize> {
        let gone = |m: &WtBattleMember| m.status != WtMemberStatus::Active;
        let t = self.teams.get(team)?;
        if let Some(l) = self.idx(&t.leader) {
            if self.members.get(l).is_some_and(|m| !gone(m)) {
                return Some(l);
            }
        }
        let mut best: Option<(i64, usize)> = None;
        for (i, m) in self.members.iter().enumerate() {
            if m.team == team && !gone(m) && best.is_none_or(|(c, _)| m.stats.command > c) {
                best = Some((m.stats.command, i));
            }
        }
        best.map(|(_, i)| i)
    }

    pub(super) fn occupancy(&self, mover: usize) -> Occupancy {
        let team = self.members.get(mover).map(|m| m.team);
        let mut occ = Occupancy { enemies: Vec::new(), others: Vec::new(), no_zoc: Vec::new() };
        for (i, m) in self.members.iter().enumerate() {
            if i == mover || !self.on_field(m) {
                continue;
            }
            occ.others.push(m.at);
            if Some(m.team) != team {
                occ.enemies.push(m.at);
                // RULINGS 2026-12-05: an incapacitated character occupies its square
                // but projects no ZoC.
                if m.status != WtMemberStatus::Active {
                    occ.no_zoc.push(m.at);
                }
            }
        }
        occ
    }

    pub(super) fn slots_used(&self, team: usize, phase: WtBattlePhase) -> usize {
        self.members.iter().filter(|m| m.team == team && slot_of(&m.used, phase)).count()
    }

    fn ended_rule(&self) -> &'static str {
        match self.battle_type {
            WtBattleType::Rank => "WT-END-2",
            WtBattleType::Mock => "WT-END-1",
            WtBattleType::Defense => "WT-END-3",
        }
    }
}

pub(super) fn slot_of(u: &WtMemberUsage, p: WtBattlePhase) -> bool {
    match p {
        WtBattlePhase::Tactics => u.tactics,
        WtBattlePhase::Movement => u.movement,
        WtBattlePhase::Attack => u.attack,
        _ => false,
    }
}

fn set_slot(u: &mut WtMemberUsage, p: WtBattlePhase) {
    match p {
        WtBattlePhase::Tactics => u.tactics = true,
        WtBattlePhase::Movement => u.movement = true,
        WtBattlePhase::Attack => u.attack = true,
        _ => {}
    }
}

fn side_slots(m: &WtBattleMember, side: WtSide) -> &Vec<String> {
    match side {
        WtSide::Main => &m.triggers.main,
        WtSide::Sub => &m.triggers.sub,
    }
}

fn active_of(u: &WtMemberUsage, side: WtSide) -> &Vec<String> {
    match side {
        WtSide::Main => &u.active_main,
        WtSide::Sub => &u.active_sub,
    }
}

/// WT-OOB-3/4: the free battlefield square nearest to `at` (ties: straight-line
/// distance, then lowest row, then column), where a character out of bounds comes back.
fn landing_square(s: &WtBattleState, at: WtSquare) -> Option<WtSquare> {
    let occ: Vec<WtSquare> = s.members.iter().filter(|o| s.on_field(o)).map(|o| o.at).collect();
    grid::nearest_on_map(&s.map, s.variants.range_metric, at, &occ).map(|(_, q)| q)
}

/// The catalog index of a skill borrowed from the catalog.
fn skill_pos(s: &WtBattleState, sk: &WtBattleSkill) -> Option<usize> {
    s.catalog.skills.iter().position(|k| std::ptr::eq(k, sk))
}

/// What `check` worked out about a valid action.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// Cost.
    pub cost: WtActionCost,
    /// Member acting / reacting.
    pub member: Option<usize>,
    /// Skill used (index into `catalog.skills`).
    pub skill: Option<usize>,
    /// Side of its trigger.
    pub side: Option<WtSide>,
    /// Targets of an attack (member indexes).
    pub targets: Vec<usize>,
    /// Movement cost of a move.
    pub path_cost: i64,
}

/// Resolve which of the member's entries of `skill` is meant.
pub(super) fn member_skill<'a>(
    s: &'a WtBattleState,
    mi: usize,
    skill: &str,
    side: Option<WtSide>,
) -> Result<(&'a WtBattleSkill, Option<WtSide>)> {
    let m = s.m(mi)?;
    let mut cands = m.skills.iter().filter(|k| k.skill == skill && (side.is_none() || k.side == side));
    let chosen = match (cands.next(), cands.next()) {
        (None, _) => {
            return Err(illegal(
                "WT-CC-8",
                format_args!("{} cannot use {} (not learned or not on that side)", m.id, quote(skill)),
            ))
        }
        (Some(one), None) => one.side,
        (Some(_), Some(_)) => {
            return Err(Error::invalid("action.side", "the skill's trigger sits on both sides: give `side`"))
        }
    };
    let sk = s.skill(skill).ok_or_else(|| internal("catalog skill"))?;
    Ok((sk, chosen))
}

/// Why a member can't use a skill's trigger side now (see [`check_side`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SideFault {
    /// WT-COND-5/6: a hand-held trigger on the side of a lost hand (the trigger's index in `sk.with`, or None for the skill's own trigger).
    LostHand(WtSide, Option<usize>),
    /// WT-TRG-4: another trigger is active on that side this round.
    Busy(WtSide),
}

/// WT-TRG-4/5, WT-COND-5/6: the fault, if the member may not use `sk` on `side` now.
pub(super) fn side_fault(
    s: &WtBattleState,
    m: &WtBattleMember,
    sk: &WtBattleSkill,
    side: Option<WtSide>,
) -> Option<SideFault> {
    let (Some(t), Some(side)) = (&sk.trigger, side) else { return None };
    let lost = match side {
        WtSide::Main => WtCondition::LostDominantHand,
        WtSide::Sub => WtCondition::LostOffHand,
    };
    if m.conditions.contains(&lost) {
        for (k, trig) in std::iter::once(t).chain(sk.with.iter()).enumerate() {
            if s.trigger(trig).is_some_and(|x| x.hand_held) {
                return Some(SideFault::LostHand(side, k.checked_sub(1)));
            }
        }
    }
    if s.phase == WtBattlePhase::Attack {
        let act = active_of(&m.used, side);
        if !(act.is_empty() || act.contains(t) && sk.with.iter().all(|o| act.contains(o))) {
            return Some(SideFault::Busy(side));
        }
    }
    None
}

/// WT-TRG-4/5, WT-COND-5/6: may the member use `sk` on `side` now (activation-wise)?
fn check_side(s: &WtBattleState, mi: usize, sk: &WtBattleSkill, side: Option<WtSide>) -> Result<()> {
    let m = s.m(mi)?;
    match side_fault(s, m, sk, side) {
        None => Ok(()),
        Some(SideFault::LostHand(side, k)) => {
            let trig = match k {
                None => sk.trigger.as_deref().unwrap_or_default(),
                Some(k) => sk.with.get(k).map(String::as_str).unwrap_or_default(),
            };
            let rule = if side == WtSide::Main { "WT-COND-5" } else { "WT-COND-6" };
            Err(illegal(rule, format_args!("{trig} is hand-held and that hand is lost")))
        }
        Some(SideFault::Busy(side)) => Err(illegal(
            "WT-TRG-4",
            format_args!(
                "another trigger ({}) is active on that side this round",
                active_of(&m.used, side).join(", ")
            ),
        )),
    }
}

/// WT-KO-2 / WT-KO-4: why a member out of the fight can't do something.
fn out_of_fight(m: &WtBattleMember, what: &str) -> Result<()> {
    match m.status {
        WtMemberStatus::Active => Ok(()),
        WtMemberStatus::Incapacitated => {
            Err(illegal("WT-KO-2", format_args!("{} is incapacitated: only Normal Move ({what})", m.id)))
        }
        WtMemberStatus::Dead => Err(illegal("WT-KO-2", format_args!("{} is dead ({what})", m.id))),
        WtMemberStatus::BailedOut => {
            Err(illegal("WT-KO-4", format_args!("{} has bailed out ({what})", m.id)))
        }
    }
}

pub(super) fn check_tactics(s: &WtBattleState, team: usize, per_check: u32, checks: usize) -> Result<()> {
    let pool = s.teams.get(team).map(|t| t.tactics_dice).unwrap_or(0);
    if per_check > MAX_TACTICS_DICE {
        return Err(illegal("WT-TD-5", "at most 20 tactics dice on one check"));
    }
    if u64::from(per_check) * checks as u64 > u64::from(pool) {
        return Err(illegal("WT-TD-3", format_args!("the team's pool holds only {pool} tactics dice")));
    }
    Ok(())
}

pub(super) fn acting_member(s: &WtBattleState, actor: &str, incap_ok: bool) -> Result<usize> {
    let mi = s
        .idx(actor)
        .ok_or_else(|| Error::invalid("action.actor", format_args!("no member {}", quote(actor))))?;
    acting_member_at(s, mi, incap_ok)
}

/// [`acting_member`] for member index `mi`.
pub(super) fn acting_member_at(s: &WtBattleState, mi: usize, incap_ok: bool) -> Result<usize> {
    acting_member_with(s, mi, incap_ok, false)
}

/// [`acting_member_at`], also for a bailed-out member when `bailed_ok`
/// (WT-KO-4: a basic command usable after emergency bailout; it is no longer
/// on the battlefield, so its square does not matter).
pub(super) fn acting_member_with(
    s: &WtBattleState,
    mi: usize,
    incap_ok: bool,
    bailed_ok: bool,
) -> Result<usize> {
    let m = s.m(mi)?;
    let actor = &m.id;
    match m.status {
        WtMemberStatus::Active => {}
        WtMemberStatus::Incapacitated if incap_ok => {}
        WtMemberStatus::BailedOut if bailed_ok => {}
        WtMemberStatus::Incapacitated | WtMemberStatus::Dead => {
            return Err(illegal("WT-KO-2", format_args!("{actor} is incapacitated")))
        }
        WtMemberStatus::BailedOut => return Err(illegal("WT-KO-4", format_args!("{actor} has bailed out"))),
    }
    if s.acting_team() != Some(m.team) {
        return Err(illegal("WT-INIT-2", format_args!("it is not {actor}'s team's turn")));
    }
    if m.status != WtMemberStatus::BailedOut && !s.map.on_map(m.at) {
        return Err(illegal(
            "WT-OOB-1",
            format_args!("{actor} is out of bounds: only the re-entry check is possible"),
        ));
    }
    Ok(mi)
}

pub(super) fn check_slot(
    s: &WtBattleState,
    mi: usize,
    sk: &WtBattleSkill,
    phase: WtBattlePhase,
) -> Result<Option<WtBattlePhase>> {
    if sk.combined_use {
        return Ok(None); // WT-ECO-4 / WT-TRG-2
    }
    let m = s.m(mi)?;
    if slot_of(&m.used, phase) {
        if phase == WtBattlePhase::Attack {
            return Ok(Some(phase)); // the same slot covers main and sub (WT-ECO-3)
        }
        return Err(illegal("WT-ECO-3", format_args!("{} already acted in this phase", m.id)));
    }
    if s.slots_used(m.team, phase) >= MEMBERS_PER_PHASE {
        return Err(illegal("WT-ECO-2", "three members of this team already acted in this phase"));
    }
    Ok(Some(phase))
}

/// What `use_skill` validation found before looking at targets, dice and burst.
pub(super) struct SkillUse<'a> {
    /// Member index.
    pub mi: usize,
    /// The catalog skill.
    pub sk: &'a WtBattleSkill,
    /// The side of its trigger.
    pub side: Option<WtSide>,
    /// The phase slot it takes (None: combined use).
    pub slot: Option<WtBattlePhase>,
}

/// `use_skill` checks that do not depend on the target, centre, tactics dice
/// or burst: the acting member (WT-INIT-2, WT-KO, WT-OOB-1), the skill
/// (WT-CC-8), its phase (WT-RND-1), the side's one Attack-phase action and
/// the slot (WT-TRG-4, WT-ECO-2/3), the side's activation (WT-TRG-4/5, WT-COND-5/6).
pub(super) fn use_skill_base<'a>(
    s: &'a WtBattleState,
    actor: &str,
    skill: &str,
    side: Option<WtSide>,
) -> Result<SkillUse<'a>> {
    let mi = s
        .idx(actor)
        .ok_or_else(|| Error::invalid("action.actor", format_args!("no member {}", quote(actor))))?;
    use_skill_base_at(s, mi, skill, side)
}

/// [`use_skill_base`] for member index `mi`.
pub(super) fn use_skill_base_at<'a>(
    s: &'a WtBattleState,
    mi: usize,
    skill: &str,
    side: Option<WtSide>,
) -> Result<SkillUse<'a>> {
    // WT-KO-4: a bailed-out member may use the basic commands marked usable after bailout.
    let bailed_ok = s.skill(skill).is_some_and(|k| k.after_bailout);
    acting_member_with(s, mi, false, bailed_ok)?;
    let (sk, side) = member_skill(s, mi, skill, side)?;
    use_skill_checks(s, mi, sk, side)
}

/// [`use_skill_base_at`] once the skill entry is resolved: `sk` and `side`
/// are what `member_skill` gives for it (and `mi` is an acting member).
pub(super) fn use_skill_checks<'a>(
    s: &'a WtBattleState,
    mi: usize,
    sk: &'a WtBattleSkill,
    side: Option<WtSide>,
) -> Result<SkillUse<'a>> {
    let skill = &sk.id;
    let m = s.m(mi)?;
    let phase = match sk.kind {
        WtBattleSkillKind::Attack => WtBattlePhase::Attack,
        WtBattleSkillKind::Tactics
        | WtBattleSkillKind::Stealth
        | WtBattleSkillKind::Invisible
        | WtBattleSkillKind::Search => WtBattlePhase::Tactics,
        WtBattleSkillKind::Move => return Err(Error::invalid("action.type", "moves use the `move` action")),
        WtBattleSkillKind::Defend | WtBattleSkillKind::Dodge => {
            return Err(illegal("WT-HIT-2", "reaction skills are used with `react`"))
        }
    };
    if s.phase != phase {
        return Err(illegal("WT-RND-1", format_args!("{skill} is used in the {phase:?} phase")));
    }
    // WT-TRG-2 / WT-ECO-4: a "combined use" skill is not counted as an action:
    // neither the phase slot nor the side's one Attack-phase action.
    if phase == WtBattlePhase::Attack && !sk.combined_use && side_action_done(&m.used, side) {
        return Err(illegal("WT-TRG-4", "that side has already taken its Attack-phase action"));
    }
    let slot = check_slot(s, mi, sk, phase)?;
    check_side(s, mi, sk, side)?;
    Ok(SkillUse { mi, sk, side, slot })
}

/// WT-TRG-4: the side's one Attack-phase action is taken (both, for a skill without a side).
pub(super) fn side_action_done(u: &WtMemberUsage, side: Option<WtSide>) -> bool {
    match side {
        Some(WtSide::Main) => u.main_action,
        Some(WtSide::Sub) => u.sub_action,
        None => u.main_action && u.sub_action,
    }
}

/// WT-DMG-4 / WT-DER-4: the burst is within the cap and the Trion covers cost and burst;
/// they may bring the pool to exactly 0, never below (RULINGS 2026-12-05; the character
/// then goes down at the Feedback phase).
pub(super) fn check_burst(m: &WtBattleMember, sk: &WtBattleSkill, burst: i64) -> Result<()> {
    if burst < 0 || burst > burst_cap(m.stats.trion) {
        return Err(illegal("WT-DMG-4", format_args!("Trion Burst is 0..={}", burst_cap(m.stats.trion))));
    }
    if sk.trion_cost.saturating_add(burst) > m.trion {
        return Err(illegal("WT-DER-4", "not enough Trion for the cost and burst"));
    }
    Ok(())
}

/// WT-RNG-4: why `cn` can't be an area attack's centre, if it can't.
pub(super) fn centre_fault(
    s: &WtBattleState,
    m: &WtBattleMember,
    sk: &WtBattleSkill,
    cn: WtSquare,
) -> Option<&'static str> {
    if grid::distance(s.variants.range_metric, m.at, cn) > i64::from(sk.range) {
        return Some("the area's centre is out of range");
    }
    if !s.map.on_map(cn) {
        return Some("the centre must be a battlefield square");
    }
    None
}

/// WT-RNG-3/5: everyone on the battlefield inside the area (the user included).
pub(super) fn area_targets(s: &WtBattleState, cn: WtSquare, area: u32) -> impl Iterator<Item = usize> + '_ {
    s.members
        .iter()
        .enumerate()
        .filter(move |(_, o)| s.on_field(o) && grid::in_area(cn, area, o.at))
        .map(|(i, _)| i)
}

/// Why a member can't be a single-target attack's target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TargetFault {
    /// WT-HIT-1: the user itself.
    User,
    /// WT-KO-4: not on the battlefield.
    OffField,
    /// WT-ST-2: Invisible.
    Invisible,
    /// WT-RNG-1: out of range.
    OutOfRange,
}

/// WT-HIT-1, WT-KO-4, WT-ST-2, WT-RNG-1: can `mi` attack `ti` with the single-target `sk`?
pub(super) fn target_fault(
    s: &WtBattleState,
    mi: usize,
    ti: usize,
    sk: &WtBattleSkill,
) -> Option<TargetFault> {
    let (Some(m), Some(tm)) = (s.members.get(mi), s.members.get(ti)) else {
        return Some(TargetFault::OffField);
    };
    if ti == mi {
        return Some(TargetFault::User);
    }
    if !s.on_field(tm) {
        return Some(TargetFault::OffField);
    }
    if tm.states.invisible.is_some() {
        return Some(TargetFault::Invisible);
    }
    if grid::distance(s.variants.range_metric, m.at, tm.at) > i64::from(sk.range) {
        return Some(TargetFault::OutOfRange);
    }
    None
}

/// The cost of a valid attack with `n_targets` targets.
pub(super) fn attack_cost(
    s: &WtBattleState,
    m: &WtBattleMember,
    sk: &WtBattleSkill,
    side: Option<WtSide>,
    slot: Option<WtBattlePhase>,
    burst: i64,
    n_targets: usize,
) -> WtActionCost {
    WtActionCost {
        slot,
        // WT-TRG-2: a combined-use skill does not take the side's action.
        side_action: if sk.combined_use { None } else { side },
        activates: side,
        trion: sk.trion_cost.saturating_add(burst),
        max_tactics_dice: max_td(s, m.team, n_targets.max(1)),
        max_burst: burst_cap(m.stats.trion).min(m.trion.saturating_sub(sk.trion_cost)).max(0),
        ..Default::default()
    }
}

/// What `move` validation found before looking at the path.
pub(super) struct MoveBase<'a> {
    /// Member index.
    pub mi: usize,
    /// The catalog move skill.
    pub sk: &'a WtBattleSkill,
    /// The side of its trigger.
    pub side: Option<WtSide>,
    /// The slot it takes (None: combined use).
    pub slot: Option<WtBattlePhase>,
    /// WT-MOV-1, WT-COND-7: the Movement available.
    pub movement: i64,
}

/// `move` checks that do not depend on the path: the mover (WT-INIT-2,
/// WT-KO-2 Normal Move while incapacitated, WT-OOB-1), the skill, the phase
/// (WT-RND-1, WT-ST-3 reserved moves) and the slot (WT-ECO-2/3).
pub(super) fn move_base<'a>(s: &'a WtBattleState, actor: &str, skill: &str) -> Result<MoveBase<'a>> {
    let mi = s.idx(actor).ok_or_else(|| Error::invalid("action.actor", "no such member"))?;
    move_base_at(s, mi, skill)
}

/// The move skill and its side. A `move` action names no side: when the
/// trigger sits on both sides, the first side (main, then sub) the member may
/// use now is taken (WT-COND-5/6 lost hand, WT-TRG-4 busy side), else main.
fn move_skill_side<'a>(
    s: &'a WtBattleState,
    mi: usize,
    skill: &str,
) -> Result<(&'a WtBattleSkill, Option<WtSide>)> {
    let m = s.m(mi)?;
    let sides: Vec<Option<WtSide>> = m.skills.iter().filter(|k| k.skill == skill).map(|k| k.side).collect();
    let Some(&first) = sides.first() else {
        return Err(illegal(
            "WT-CC-8",
            format_args!("{} cannot use {} (not learned or not on that side)", m.id, quote(skill)),
        ));
    };
    let sk = s.skill(skill).ok_or_else(|| internal("catalog skill"))?;
    if sk.kind != WtBattleSkillKind::Move {
        return Err(Error::invalid("action.skill", "not a move skill"));
    }
    let side = sides.iter().copied().find(|&sd| side_fault(s, m, sk, sd).is_none()).unwrap_or(first);
    Ok((sk, side))
}

/// [`move_base`] for member index `mi`.
pub(super) fn move_base_at<'a>(s: &'a WtBattleState, mi: usize, skill: &str) -> Result<MoveBase<'a>> {
    let incap_ok = s.skill(skill).is_some_and(|k| k.while_incapacitated);
    acting_member_at(s, mi, incap_ok)?;
    let actor = &s.m(mi)?.id;
    let (sk, side) = move_skill_side(s, mi, skill)?;
    let m = s.m(mi)?;
    match s.phase {
        WtBattlePhase::Movement => {
            if m.states.movement_reserved.is_some() {
                return Err(illegal("WT-ST-3", "a Movement-reserved character moves in the Attack phase"));
            }
        }
        WtBattlePhase::Attack => {
            if m.states.movement_reserved.is_none() {
                return Err(illegal("WT-RND-1", "moves are made in the Movement phase"));
            }
            if m.used.attack {
                return Err(illegal("WT-ST-3", "the reserved move comes before the character's attacks"));
            }
        }
        _ => return Err(illegal("WT-RND-1", "moves are made in the Movement phase")),
    }
    // WT-COND-5/6: a hand-held move trigger on the side of a lost hand; a
    // reserved move in the Attack phase also respects the side's activation (WT-TRG-4).
    check_side(s, mi, sk, side)?;
    let slot = if sk.combined_use {
        None
    } else {
        if m.used.movement {
            return Err(illegal("WT-ECO-3", format_args!("{actor} already moved this round")));
        }
        if s.slots_used(m.team, WtBattlePhase::Movement) >= MEMBERS_PER_PHASE {
            return Err(illegal("WT-ECO-2", "three members of this team already moved this round"));
        }
        Some(WtBattlePhase::Movement)
    };
    let movement = movement_with(m.stats.mobility, sk.movement_bonus, &m.conditions);
    Ok(MoveBase { mi, sk, side, slot, movement })
}

/// The cost of a valid move.
pub(super) fn move_cost(slot: Option<WtBattlePhase>, path_cost: i64) -> WtActionCost {
    WtActionCost { slot, movement: Some(path_cost), ..Default::default() }
}

/// Validate an action against the state without changing it: one function per action,
/// each naming its rules.
pub fn check(s: &WtBattleState, a: &WtBattleAction) -> Result<Checked> {
    if s.phase == WtBattlePhase::Ended {
        return Err(illegal(s.ended_rule(), "the battle is over"));
    }
    let pending = s.pending.is_some();
    match a {
        WtBattleAction::Operator { team, skill } => check_operator(s, team, skill),
        WtBattleAction::UseAbility { actor, ability } => check_use_ability(s, actor, ability),
        _ if pending && !matches!(a, WtBattleAction::React { .. } | WtBattleAction::NoReaction {}) => {
            Err(illegal("WT-HIT-1", "an attack awaits the defending team's reaction"))
        }
        WtBattleAction::RollInitiative { tactics_dice } => check_roll_initiative(s, tactics_dice),
        WtBattleAction::Pass { team } => check_pass(s, team),
        WtBattleAction::Reenter { actor, tactics_dice } => check_reenter(s, actor, tactics_dice),
        WtBattleAction::UseSkill { actor, skill, side, target, center, tactics_dice, burst, push_to } => {
            check_use_skill(s, actor, skill, side, target, center, tactics_dice, burst, push_to)
        }
        WtBattleAction::Move { actor, skill, path } => check_move(s, actor, skill, path),
        WtBattleAction::BringBack { actor, target } => check_bring_back(s, actor, target),
        WtBattleAction::React { actor: reactor, skill, side, tactics_dice } => {
            check_react(s, reactor, skill, side, tactics_dice)
        }
        WtBattleAction::NoReaction {} => check_no_reaction(s),
    }
}

/// `operator`, checked (WT-OP-6, WT-OP-8, WT-ECO-1, WT-TD-1, WT-TD-5): the team's operator uses one
/// operator command, once a round at any time (tactics dice it gains go to the pool).
fn check_operator(s: &WtBattleState, team: &str, skill: &str) -> Result<Checked> {
    let t = s.team_idx(team).ok_or_else(|| Error::invalid("action.team", "no such team"))?;
    if s.teams.get(t).is_some_and(|x| x.operator_used) {
        return Err(illegal("WT-OP-8", "the operator already acted this round"));
    }
    if !s.catalog.operator_skills.iter().any(|o| o.id == skill) {
        return Err(illegal("WT-OP-6", format_args!("no operator command {}", quote(skill))));
    }
    Ok(Checked { cost: WtActionCost { operator: true, ..Default::default() }, ..Default::default() })
}

/// `use_ability`, checked (WT-ECO-5, WT-KO-2, WT-KO-4): a position or trait skill, once a round unless
/// repeatable; allowed while an attack awaits reactions.
fn check_use_ability(s: &WtBattleState, actor: &str, ability: &str) -> Result<Checked> {
    let mi = s.idx(actor).ok_or_else(|| Error::invalid("action.actor", "no such member"))?;
    let m = s.m(mi)?;
    out_of_fight(m, "no position or trait skill")?;
    let ab = m
        .abilities
        .iter()
        .find(|x| x.id == ability)
        .ok_or_else(|| illegal("WT-ECO-5", format_args!("{actor} has no skill {}", quote(ability))))?;
    if !ab.repeatable && m.used.abilities.iter().any(|x| x == ability) {
        return Err(illegal("WT-ECO-5", format_args!("{ability} was already used this round")));
    }
    Ok(Checked { member: Some(mi), ..Default::default() })
}

/// `roll_initiative`, checked (WT-RND-1, WT-INIT-1, WT-INIT-3, WT-TD-3, WT-TD-5): each team's manager
/// rolls Command (plus tactics dice); the round's order is set.
fn check_roll_initiative(s: &WtBattleState, tactics_dice: &[WtTeamDice]) -> Result<Checked> {
    if s.phase != WtBattlePhase::Initiative {
        return Err(illegal("WT-RND-1", "initiative is rolled in the Initiative phase"));
    }
    if tactics_dice.len() > MAX_TEAMS {
        return Err(Error::invalid("action.tactics_dice", "one entry per team"));
    }
    for (i, d) in tactics_dice.iter().enumerate() {
        let t = s.team_idx(&d.team).ok_or_else(|| Error::invalid("action.tactics_dice", "no such team"))?;
        if tactics_dice.iter().take(i).any(|o| o.team == d.team) {
            return Err(Error::invalid("action.tactics_dice", "one entry per team"));
        }
        check_tactics(s, t, d.dice, 1)?;
    }
    // WT-INIT-1 / WT-TD-5: each team may add up to min(its pool, 20) dice to its
    // roll; the cost gives the most any team may add (each pool is in the state).
    let most = (0..s.teams.len()).map(|t| max_td(s, t, 1)).max().unwrap_or(0);
    Ok(Checked {
        cost: WtActionCost { max_tactics_dice: most, ..WtActionCost::default() },
        ..Default::default()
    })
}

/// `pass`, checked (WT-INIT-2, WT-ECO-1): the acting team ends its turn in this phase.
fn check_pass(s: &WtBattleState, team: &str) -> Result<Checked> {
    let t = s.team_idx(team).ok_or_else(|| Error::invalid("action.team", "no such team"))?;
    // WT-RND-1: the Initiative and Feedback phases have no turns to pass.
    if !matches!(s.phase, WtBattlePhase::Tactics | WtBattlePhase::Movement | WtBattlePhase::Attack) {
        return Err(illegal("WT-RND-1", "teams pass their turn in the Tactics, Movement and Attack phases"));
    }
    if s.acting_team() != Some(t) {
        return Err(illegal("WT-INIT-2", "only the acting team can pass"));
    }
    Ok(Checked::default())
}

/// `reenter`, checked (WT-OOB-1, WT-OOB-2, WT-OOB-3, WT-KO-2, WT-KO-3, WT-KO-4, WT-TD-3): a character out
/// of bounds makes its Mobility check to re-enter, once a round, before the Feedback phase.
fn check_reenter(s: &WtBattleState, actor: &str, tactics_dice: &u32) -> Result<Checked> {
    // RULINGS: any time before the Feedback phase (the Initiative phase
    // included: a mock-battle character revived off the map, WT-KO-3).
    if s.phase == WtBattlePhase::Feedback {
        return Err(illegal("WT-OOB-2", "the re-entry check is made before the Feedback phase"));
    }
    let mi = s.idx(actor).ok_or_else(|| Error::invalid("action.actor", "no such member"))?;
    let m = s.m(mi)?;
    out_of_fight(m, "no re-entry check")?;
    if s.map.on_map(m.at) {
        return Err(illegal("WT-OOB-2", format_args!("{actor} is not out of bounds")));
    }
    if m.used.reentry_tried {
        return Err(illegal("WT-OOB-2", "one re-entry check per round"));
    }
    check_tactics(s, m.team, *tactics_dice, 1)?;
    if landing_square(s, m.at).is_none() {
        return Err(illegal("WT-OOB-3", "no free battlefield square"));
    }
    Ok(Checked {
        member: Some(mi),
        cost: WtActionCost { max_tactics_dice: max_td(s, m.team, 1), ..Default::default() },
        ..Default::default()
    })
}

/// `use_skill`, checked (WT-RND-1, WT-ECO-2, WT-ECO-3, WT-ECO-4, WT-CC-8, WT-TRG-2, WT-TRG-4, WT-TRG-5,
/// WT-COND-5, WT-COND-6, WT-DER-4, WT-DMG-4, WT-RNG-1, WT-RNG-4, WT-HIT-1, WT-MOV-6, WT-KO-4, WT-ST-1,
/// WT-ST-2, WT-ST-3, WT-OBJ-2, WT-OBJ-3, WT-TD-3, WT-TD-5): a basic command or trigger skill: tactics,
/// stealth, invisibility, search, or an attack declared (it then awaits the defending side's reactions).
#[allow(clippy::too_many_arguments)]
fn check_use_skill(
    s: &WtBattleState,
    actor: &str,
    skill: &str,
    side: &Option<WtSide>,
    target: &Option<String>,
    center: &Option<WtSquare>,
    tactics_dice: &u32,
    burst: &i64,
    push_to: &Option<WtSquare>,
) -> Result<Checked> {
    let base = use_skill_base(s, actor, skill, *side)?;
    let (mi, sk, side) = (base.mi, base.sk, base.side);
    let m = s.m(mi)?;
    let mut c = Checked { member: Some(mi), side, ..Default::default() };
    c.cost.slot = base.slot;
    c.cost.trion = sk.trion_cost;
    if sk.kind != WtBattleSkillKind::Attack {
        if target.is_some() || center.is_some() || *tactics_dice > 0 || *burst != 0 || push_to.is_some() {
            return Err(Error::invalid(
                "action",
                "target, center, tactics_dice, burst and push_to are for attacks",
            ));
        }
        // RULINGS 2026-12-05: a cost may bring the pool to exactly 0, never below (a
        // bailed-out member may use free commands, WT-KO-4).
        if sk.trion_cost > 0 && sk.trion_cost > m.trion {
            return Err(illegal("WT-DER-4", "not enough Trion"));
        }
        c.skill = skill_pos(s, sk);
        return Ok(c);
    }
    // Attack.
    check_burst(m, sk, *burst)?;
    let r = i64::from(sk.range);
    match sk.area {
        Some(area) => {
            if target.is_some() {
                return Err(Error::invalid("action.target", "an area attack takes `center`"));
            }
            let Some(cn) = center else {
                return Err(Error::invalid("action.center", "required for an area attack"));
            };
            if let Some(f) = centre_fault(s, m, sk, *cn) {
                return Err(illegal("WT-RNG-4", f));
            }
            c.targets = area_targets(s, *cn, area).collect();
            if push_to.is_some() {
                return Err(Error::invalid("action.push_to", "only for a single target"));
            }
        }
        None => {
            if center.is_some() {
                return Err(Error::invalid("action.center", "a single-target attack takes `target`"));
            }
            let Some(t) = target else { return Err(Error::invalid("action.target", "required")) };
            let ti = s.idx(t).ok_or_else(|| Error::invalid("action.target", "no such member"))?;
            let tm = s.m(ti)?;
            match target_fault(s, mi, ti, sk) {
                None => {}
                Some(TargetFault::User) => {
                    return Err(illegal("WT-HIT-1", "a single-target attack can't target its user"))
                }
                Some(TargetFault::OffField) => {
                    return Err(illegal("WT-KO-4", "the target is not on the battlefield"))
                }
                Some(TargetFault::Invisible) => {
                    return Err(illegal(
                        "WT-ST-2",
                        "an Invisible character can't be targeted by single-target attacks",
                    ))
                }
                Some(TargetFault::OutOfRange) => {
                    return Err(illegal("WT-RNG-1", format_args!("{t} is out of range {r}")))
                }
            }
            if let Some(p) = push_to {
                if sk.forced_move == 0 {
                    return Err(illegal("WT-MOV-6", "this skill has no forced movement"));
                }
                let d = (p.x - tm.at.x).abs() + (p.y - tm.at.y).abs();
                if d == 0 || d > i64::from(sk.forced_move) {
                    return Err(illegal("WT-MOV-6", format_args!("push up to {} squares", sk.forced_move)));
                }
                if p.x < -MAX_OFF_MAP + 1
                    || p.y < -MAX_OFF_MAP + 1
                    || p.x > i64::from(s.map.width) + MAX_OFF_MAP - 2
                    || p.y > i64::from(s.map.height) + MAX_OFF_MAP - 2
                {
                    return Err(Error::out_of_range("action.push_to", "too far off the map"));
                }
                if s.members.iter().enumerate().any(|(i, o)| i != ti && s.on_field(o) && o.at == *p) {
                    return Err(illegal("WT-MOV-6", "the destination is occupied"));
                }
            }
            c.targets = vec![ti];
        }
    }
    check_tactics(s, m.team, *tactics_dice, c.targets.len().max(1))?;
    c.cost = attack_cost(s, m, sk, side, base.slot, *burst, c.targets.len());
    c.skill = skill_pos(s, sk);
    Ok(c)
}

/// `move`, checked (WT-MOV-1, WT-MOV-2, WT-MOV-3, WT-ECO-3, WT-TRG-3, WT-ST-3, WT-ST-4): a move along a
/// path within the member's Movement.
fn check_move(s: &WtBattleState, actor: &str, skill: &str, path: &[WtSquare]) -> Result<Checked> {
    let base = move_base(s, actor, skill)?;
    let (mi, sk) = (base.mi, base.sk);
    if path.is_empty() || path.len() > MAX_PATH {
        return Err(Error::invalid("action.path", "1-64 squares"));
    }
    let m = s.m(mi)?;
    let occ = s.occupancy(mi);
    let mut cur = m.at;
    let mut cost = 0i64;
    for (k, &sq) in path.iter().enumerate() {
        let (c, _) = grid::step_cost(&s.map, &occ, cur, sq)
            .map_err(|rule| illegal(rule, format_args!("step {k} to ({}, {}) is not allowed", sq.x, sq.y)))?;
        cost = cost.saturating_add(c);
        cur = sq;
    }
    if occ.others.contains(&cur) {
        return Err(illegal("WT-MOV-3", "a move can't end on another character's square"));
    }
    if cost > base.movement {
        return Err(illegal(
            "WT-MOV-2",
            format_args!("the path costs {cost} Movement; {actor} has {}", base.movement),
        ));
    }
    let mut c = Checked {
        member: Some(mi),
        side: base.side,
        path_cost: cost,
        skill: skill_pos(s, sk),
        ..Default::default()
    };
    c.cost = move_cost(base.slot, cost);
    Ok(c)
}

/// `bring_back`, checked (WT-OOB-3, WT-OOB-4, WT-ECO-2, WT-ECO-3, WT-TRG-4): an ally within 1 square of
/// its landing square brings a character out of bounds back, with a basic action.
fn check_bring_back(s: &WtBattleState, actor: &str, target: &str) -> Result<Checked> {
    let phase = s.phase;
    if !matches!(phase, WtBattlePhase::Tactics | WtBattlePhase::Movement | WtBattlePhase::Attack) {
        return Err(illegal("WT-OOB-4", "a character is brought back before the Feedback phase"));
    }
    let mi = acting_member(s, actor, false)?;
    let ti = s.idx(target).ok_or_else(|| Error::invalid("action.target", "no such member"))?;
    let (m, t) = (s.m(mi)?, s.m(ti)?);
    if ti == mi || t.team != m.team {
        return Err(illegal("WT-OOB-4", "an ally brings the character back"));
    }
    out_of_fight(t, "it can't be brought back")?;
    if s.map.on_map(t.at) {
        return Err(illegal("WT-OOB-4", format_args!("{target} is not out of bounds")));
    }
    let to = landing_square(s, t.at).ok_or_else(|| illegal("WT-OOB-3", "no free battlefield square"))?;
    if grid::distance(s.variants.range_metric, m.at, to) > 1 {
        return Err(illegal(
            "WT-OOB-4",
            format_args!(
                "{actor} must stand within 1 square of ({}, {}), the free battlefield square nearest to {target}",
                to.x, to.y
            ),
        ));
    }
    if phase == WtBattlePhase::Attack && side_action_done(&m.used, None) {
        return Err(illegal("WT-TRG-4", format_args!("{actor} has taken both Attack-phase actions")));
    }
    if slot_of(&m.used, phase) {
        if phase != WtBattlePhase::Attack {
            return Err(illegal("WT-ECO-3", format_args!("{actor} already acted in this phase")));
        }
    } else if s.slots_used(m.team, phase) >= MEMBERS_PER_PHASE {
        return Err(illegal("WT-ECO-2", "three members of this team already acted in this phase"));
    }
    let mut c = Checked { member: Some(mi), targets: vec![ti], ..Default::default() };
    c.cost.slot = Some(phase);
    Ok(c)
}

/// `react`, checked (WT-HIT-1, WT-HIT-2, WT-HIT-3, WT-TRG-2, WT-TRG-5, WT-OOB-1, WT-ST-4, WT-TD-3): the
/// target dodges or an ally in range defends it, rolling the reaction check; when every target has
/// reacted the attack resolves.
fn check_react(
    s: &WtBattleState,
    reactor: &str,
    skill: &str,
    side: &Option<WtSide>,
    tactics_dice: &u32,
) -> Result<Checked> {
    let p = s.pending.as_ref().ok_or_else(|| illegal("WT-HIT-1", "no attack awaits a reaction"))?;
    let tid = p.targets.get(p.reactions.len()).ok_or_else(|| internal("pending target"))?;
    let ti = s.idx(tid).ok_or_else(|| internal("pending target"))?;
    let ri = s.idx(reactor).ok_or_else(|| Error::invalid("action.actor", "no such member"))?;
    let (tm, rm) = (s.m(ti)?, s.m(ri)?);
    if rm.team != tm.team {
        return Err(illegal("WT-HIT-2", "only the target or its allies react"));
    }
    out_of_fight(rm, "no reaction")?;
    if !s.map.on_map(rm.at) {
        return Err(illegal("WT-OOB-1", format_args!("{reactor} is out of bounds and can't react")));
    }
    let (sk, side) = member_skill(s, ri, skill, *side)?;
    // WT-ST-4 (RULINGS 2026-12-05): a Floating character is defenceless: it takes no
    // reaction of its own (no dodge, no Shield or other defence); an ally may still defend it.
    if rm.states.floating && matches!(sk.kind, WtBattleSkillKind::Dodge | WtBattleSkillKind::Defend) {
        return Err(illegal(
            "WT-ST-4",
            format_args!("{reactor} is Floating, defenceless: it takes no reaction of its own"),
        ));
    }
    match sk.kind {
        WtBattleSkillKind::Dodge => {
            if ri != ti {
                return Err(illegal("WT-HIT-2", "only the target dodges"));
            }
        }
        WtBattleSkillKind::Defend => {
            if grid::distance(s.variants.range_metric, rm.at, tm.at) > i64::from(sk.range) {
                return Err(illegal("WT-HIT-2", format_args!("{tid} is outside {skill}'s range")));
            }
        }
        _ => return Err(illegal("WT-HIT-2", "not a reaction skill")),
    }
    check_side(s, ri, sk, side)?;
    check_tactics(s, rm.team, *tactics_dice, 1)?;
    let mut c = Checked { member: Some(ri), side, skill: skill_pos(s, sk), ..Default::default() };
    c.cost.activates = side;
    c.cost.max_tactics_dice = max_td(s, rm.team, 1);
    Ok(c)
}

/// `no_reaction`, checked (WT-HIT-1): no reaction for the next target; when every target has reacted the
/// attack resolves.
fn check_no_reaction(s: &WtBattleState) -> Result<Checked> {
    if s.pending.is_none() {
        return Err(illegal("WT-HIT-1", "no attack awaits a reaction"));
    }
    Ok(Checked::default())
}

pub(super) fn max_td(s: &WtBattleState, team: usize, checks: usize) -> u32 {
    let pool = s.teams.get(team).map(|t| t.tactics_dice).unwrap_or(0);
    (pool / checks.max(1) as u32).min(MAX_TACTICS_DICE)
}

/// Apply an action to `s` in place, rolling `dice`, logging to `ev`.
///
/// The action is validated (`check`) before anything changes, so an illegal
/// action leaves `s` exactly as it was. Only a failure while applying a valid
/// action (scripted `dice` running out, or an internal error) can leave `s`
/// part-way changed: keep a copy ([`super::act_on`]) when that matters.
pub fn act(s: &mut WtBattleState, a: &WtBattleAction, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    let c = check(s, a)?;
    commit(s, a, &c, dice, ev)
}

/// Apply `a`, which [`check`] accepted with `c`, in place. It fails only if scripted
/// `dice` run out (or on an internal error), and may then leave `s` part-way changed.
pub fn commit(
    s: &mut WtBattleState,
    a: &WtBattleAction,
    c: &Checked,
    dice: &mut Dice,
    ev: &mut Ev,
) -> Result<()> {
    match a {
        WtBattleAction::Operator { team, skill } => apply_operator(s, team, skill, ev)?,
        WtBattleAction::UseAbility { actor, ability } => apply_use_ability(s, c, actor, ability, ev)?,
        WtBattleAction::RollInitiative { tactics_dice } => roll_initiative(s, tactics_dice, dice, ev)?,
        WtBattleAction::Pass { team } => apply_pass(s, team, dice, ev)?,
        WtBattleAction::Reenter { actor, tactics_dice } => {
            apply_reenter(s, c, actor, tactics_dice, dice, ev)?
        }
        WtBattleAction::UseSkill { actor, tactics_dice, burst, push_to, center, .. } => {
            apply_use_skill(s, c, actor, tactics_dice, burst, push_to, center, ev)?
        }
        WtBattleAction::Move { actor, path, .. } => apply_move(s, c, actor, path, ev)?,
        WtBattleAction::BringBack { actor, target } => apply_bring_back(s, c, actor, target, ev)?,
        WtBattleAction::React { actor: reactor, tactics_dice, .. } => {
            apply_react(s, c, reactor, tactics_dice, dice, ev)?
        }
        WtBattleAction::NoReaction {} => apply_no_reaction(s, dice, ev)?,
    }
    Ok(())
}

/// `operator`, applied after [`check_operator`] (WT-OP-6, WT-OP-8, WT-ECO-1, WT-TD-1, WT-TD-5).
fn apply_operator(s: &mut WtBattleState, team: &str, skill: &str, ev: &mut Ev) -> Result<()> {
    let t = s.team_idx(team).ok_or_else(|| internal("team"))?;
    let gain =
        s.catalog.operator_skills.iter().find(|o| o.id == skill).map(|o| o.tactics_dice_gain).unwrap_or(0);
    s.team_mut(t)?.operator_used = true;
    ev.push(WtBattleEvent::OperatorActed { team: team.to_string(), skill: skill.to_string() });
    gain_td(s, t, gain, ev)?;
    Ok(())
}

/// `use_ability`, applied after [`check_use_ability`] (WT-ECO-5, WT-KO-2, WT-KO-4).
fn apply_use_ability(
    s: &mut WtBattleState,
    c: &Checked,
    actor: &str,
    ability: &str,
    ev: &mut Ev,
) -> Result<()> {
    let mi = c.member.ok_or_else(|| internal("member"))?;
    s.mm(mi)?.used.abilities.push(ability.to_string());
    ev.push(WtBattleEvent::AbilityUsed { member: actor.to_string(), ability: ability.to_string() });
    Ok(())
}

/// `pass`, applied after [`check_pass`] (WT-INIT-2, WT-ECO-1).
fn apply_pass(s: &mut WtBattleState, team: &str, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    ev.push(WtBattleEvent::Passed { team: team.to_string() });
    advance_turn(s, dice, ev)?;
    Ok(())
}

/// `reenter`, applied after [`check_reenter`] (WT-OOB-1, WT-OOB-2, WT-OOB-3, WT-KO-2, WT-KO-3, WT-KO-4,
/// WT-TD-3).
fn apply_reenter(
    s: &mut WtBattleState,
    c: &Checked,
    actor: &str,
    tactics_dice: &u32,
    dice: &mut Dice,
    ev: &mut Ev,
) -> Result<()> {
    let mi = c.member.ok_or_else(|| internal("member"))?;
    let (team, at, mob) = {
        let m = s.m(mi)?;
        (m.team, m.at, m.stats.mobility)
    };
    spend_td(s, team, *tactics_dice, ev)?;
    end_on_check(s, mi, ev)?;
    s.mm(mi)?.used.reentry_tried = true;
    let metric = s.variants.range_metric;
    let dist = grid::distance_to_map(&s.map, metric, at);
    let target = out_of_bounds_difficulty(dist.clamp(1, 1000) as u32).unwrap_or(40);
    let r = roll_check(dice, WtPool::new("", mob as u32, *tactics_dice, 0)?, Some(target))?;
    let mut to = None;
    if r.success == Some(true) {
        to = landing_square(s, at);
        if let Some(q) = to {
            s.mm(mi)?.at = q;
        }
    }
    ev.push(WtBattleEvent::Reentry {
        member: actor.to_string(),
        faces: r.faces,
        achievement: r.achievement,
        target,
        to,
    });
    Ok(())
}

/// `use_skill`, applied after [`check_use_skill`] (WT-RND-1, WT-ECO-2, WT-ECO-3, WT-ECO-4, WT-CC-8,
/// WT-TRG-2, WT-TRG-4, WT-TRG-5, WT-COND-5, WT-COND-6, WT-DER-4, WT-DMG-4, WT-RNG-1, WT-RNG-4, WT-HIT-1,
/// WT-MOV-6, WT-KO-4, WT-ST-1, WT-ST-2, WT-ST-3, WT-OBJ-2, WT-OBJ-3, WT-TD-3, WT-TD-5).
#[allow(clippy::too_many_arguments)]
fn apply_use_skill(
    s: &mut WtBattleState,
    c: &Checked,
    actor: &str,
    tactics_dice: &u32,
    burst: &i64,
    push_to: &Option<WtSquare>,
    center: &Option<WtSquare>,
    ev: &mut Ev,
) -> Result<()> {
    let mi = c.member.ok_or_else(|| internal("member"))?;
    let cat = std::sync::Arc::clone(&s.catalog);
    let sk = c.skill.and_then(|i| cat.skills.get(i)).ok_or_else(|| internal("skill"))?;
    let team = s.m(mi)?.team;
    if let Some(p) = c.cost.slot {
        set_slot(&mut s.mm(mi)?.used, p);
    }
    // WT-DMG-4: the skill's cost now; a Trion Burst is paid when it is dealt (on a hit, `maybe_resolve`).
    let paid = sk.trion_cost;
    s.mm(mi)?.trion -= paid;
    ev.push(WtBattleEvent::SkillUsed {
        member: actor.to_string(),
        skill: sk.id.clone(),
        side: c.side,
        trion_paid: paid,
    });
    uses_trigger_side(s, mi, sk, c.side, ev)?;
    match sk.kind {
        WtBattleSkillKind::Tactics => gain_td(s, team, sk.tactics_dice_gain, ev)?,
        WtBattleSkillKind::Stealth => {
            s.mm(mi)?.states.stealth = Some(c.side.unwrap_or(WtSide::Sub));
            ev.push(state_ev(actor, "stealth", true, "WT-ST-1"));
        }
        WtBattleSkillKind::Invisible => {
            let side = Some(c.side.unwrap_or(WtSide::Sub));
            let m = s.mm(mi)?;
            m.states.invisible = side;
            m.states.movement_reserved = side;
            ev.push(state_ev(actor, "invisible", true, "WT-ST-2"));
            ev.push(state_ev(actor, "movement_reserved", true, "WT-ST-3"));
        }
        WtBattleSkillKind::Search => {
            let at = s.m(mi)?.at;
            let metric = s.variants.range_metric;
            for i in 0..s.members.len() {
                let o = s.m(i)?;
                if o.team != team
                    && o.states.stealth.is_some()
                    && grid::distance(metric, at, o.at) <= i64::from(sk.range)
                {
                    let id = o.id.clone();
                    s.mm(i)?.states.stealth = None;
                    ev.push(state_ev(&id, "stealth", false, "WT-ST-1"));
                }
            }
        }
        WtBattleSkillKind::Attack => {
            let m = s.mm(mi)?;
            match c.side {
                _ if sk.combined_use => {} // WT-TRG-2: not counted
                Some(WtSide::Main) => m.used.main_action = true,
                Some(WtSide::Sub) => m.used.sub_action = true,
                None => {
                    if !m.used.main_action {
                        m.used.main_action = true
                    } else {
                        m.used.sub_action = true
                    }
                }
            }
            let checks = c.targets.len().max(1) as u32;
            spend_td(s, team, tactics_dice.saturating_mul(checks), ev)?;
            end_on_check(s, mi, ev)?;
            let tids: Vec<String> =
                c.targets.iter().filter_map(|&i| s.members.get(i).map(|m| m.id.clone())).collect();
            ev.push(WtBattleEvent::AttackDeclared {
                attacker: actor.to_string(),
                skill: sk.id.clone(),
                targets: tids.clone(),
            });
            // WT-OBJ-2/3: object destruction first; those standing on destroyed objects fall.
            if sk.object_destruction {
                let squares: Vec<WtSquare> = match (sk.area, center) {
                    (Some(area), Some(cn)) => {
                        let r = i64::from(area / 2);
                        let mut v = Vec::new();
                        for y in cn.y - r..=cn.y + r {
                            for x in cn.x - r..=cn.x + r {
                                v.push(WtSquare { x, y });
                            }
                        }
                        v
                    }
                    _ => c.targets.iter().filter_map(|&i| s.members.get(i).map(|m| m.at)).collect(),
                };
                destroy_objects(s, &squares, ev)?;
            }
            if sk.area.is_some() {
                for &ti in &c.targets {
                    end_on_area(s, ti, ev)?;
                }
            }
            if tids.is_empty() {
                return Ok(());
            }
            s.pending = Some(WtPendingAttack {
                attacker: actor.to_string(),
                skill: sk.id.clone(),
                tactics_dice: *tactics_dice,
                burst: *burst,
                push_to: *push_to,
                targets: tids,
                reactions: Vec::new(),
            });
        }
        _ => {}
    }
    Ok(())
}

/// `move`, applied after [`check_move`] (WT-MOV-1, WT-MOV-2, WT-MOV-3, WT-ECO-3, WT-TRG-3, WT-ST-3, WT-ST-4).
fn apply_move(s: &mut WtBattleState, c: &Checked, actor: &str, path: &[WtSquare], ev: &mut Ev) -> Result<()> {
    let mi = c.member.ok_or_else(|| internal("member"))?;
    let cat = std::sync::Arc::clone(&s.catalog);
    let sk = c.skill.and_then(|i| cat.skills.get(i)).ok_or_else(|| internal("skill"))?;
    let movement = {
        let m = s.m(mi)?;
        movement_with(m.stats.mobility, sk.movement_bonus, &m.conditions)
    };
    if c.cost.slot.is_some() {
        s.mm(mi)?.used.movement = true;
    }
    if sk.trigger.is_some() {
        ev.push(WtBattleEvent::SkillUsed {
            member: actor.to_string(),
            skill: sk.id.clone(),
            side: c.side,
            trion_paid: 0,
        });
        uses_trigger_side(s, mi, sk, c.side, ev)?;
    }
    let last = *path.last().ok_or_else(|| internal("path"))?;
    let m = s.mm(mi)?;
    m.at = last;
    ev.push(WtBattleEvent::Moved {
        member: actor.to_string(),
        path: path.to_vec(),
        cost: c.path_cost,
        movement,
    });
    if m.states.movement_reserved.take().is_some() {
        ev.push(state_ev(actor, "movement_reserved", false, "WT-ST-3"));
    }
    if sk.floating && !s.m(mi)?.states.floating {
        s.mm(mi)?.states.floating = true;
        ev.push(state_ev(actor, "floating", true, "WT-ST-4"));
    }
    Ok(())
}

/// `bring_back`, applied after [`check_bring_back`] (WT-OOB-3, WT-OOB-4, WT-ECO-2, WT-ECO-3, WT-TRG-4).
fn apply_bring_back(
    s: &mut WtBattleState,
    c: &Checked,
    actor: &str,
    target: &str,
    ev: &mut Ev,
) -> Result<()> {
    let (mi, ti) =
        (c.member.ok_or_else(|| internal("member"))?, *c.targets.first().ok_or_else(|| internal("target"))?);
    let phase = s.phase;
    let to = landing_square(s, s.m(ti)?.at).ok_or_else(|| internal("landing square"))?;
    let u = &mut s.mm(mi)?.used;
    set_slot(u, phase);
    if phase == WtBattlePhase::Attack {
        // A basic command takes the main side's action if unused, else the sub side's (WT-TRG-4).
        if !u.main_action {
            u.main_action = true;
        } else {
            u.sub_action = true;
        }
    }
    s.mm(ti)?.at = to;
    ev.push(WtBattleEvent::BroughtBack { member: target.to_string(), by: actor.to_string(), to });
    Ok(())
}

/// `react`, applied after [`check_react`] (WT-HIT-1, WT-HIT-2, WT-HIT-3, WT-TRG-2, WT-TRG-5, WT-OOB-1,
/// WT-ST-4, WT-TD-3).
fn apply_react(
    s: &mut WtBattleState,
    c: &Checked,
    reactor: &str,
    tactics_dice: &u32,
    dice: &mut Dice,
    ev: &mut Ev,
) -> Result<()> {
    let ri = c.member.ok_or_else(|| internal("member"))?;
    let cat = std::sync::Arc::clone(&s.catalog);
    let sk = c.skill.and_then(|i| cat.skills.get(i)).ok_or_else(|| internal("skill"))?;
    let (team, stat) = {
        let m = s.m(ri)?;
        (m.team, m.stats.get(sk.stat.unwrap_or(crate::world_trigger::types::WtStat::Mobility)))
    };
    spend_td(s, team, *tactics_dice, ev)?;
    uses_trigger_side(s, ri, sk, c.side, ev)?;
    end_on_check(s, ri, ev)?;
    let r = roll_check(dice, WtPool::new("", stat as u32, *tactics_dice, 0)?, None)?;
    let p = s.pending.as_mut().ok_or_else(|| internal("pending"))?;
    let target = p.targets.get(p.reactions.len()).cloned().unwrap_or_default();
    p.reactions.push(WtReactionRecord {
        target: target.clone(),
        reactor: Some(reactor.to_string()),
        skill: Some(sk.id.clone()),
        achievement: Some(r.achievement),
    });
    ev.push(WtBattleEvent::ReactionRolled {
        target,
        reactor: reactor.to_string(),
        skill: sk.id.clone(),
        faces: r.faces,
        achievement: r.achievement,
    });
    maybe_resolve(s, dice, ev)?;
    Ok(())
}

/// `no_reaction`, applied after [`check_no_reaction`] (WT-HIT-1).
fn apply_no_reaction(s: &mut WtBattleState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    let p = s.pending.as_mut().ok_or_else(|| internal("pending"))?;
    let target = p.targets.get(p.reactions.len()).cloned().unwrap_or_default();
    p.reactions.push(WtReactionRecord {
        target: target.clone(),
        reactor: None,
        skill: None,
        achievement: None,
    });
    ev.push(WtBattleEvent::NoReaction { target });
    maybe_resolve(s, dice, ev)?;
    Ok(())
}

fn state_ev(member: &str, state: &str, on: bool, rule: &str) -> WtBattleEvent {
    WtBattleEvent::State { member: member.to_string(), state: state.into(), on, rule: rule.into() }
}

fn gain_td(s: &mut WtBattleState, team: usize, gain: u32, ev: &mut Ev) -> Result<()> {
    if gain == 0 {
        return Ok(());
    }
    let id = s.team_id(team);
    let t = s.team_mut(team)?;
    let before = t.tactics_dice;
    t.tactics_dice = (t.tactics_dice + gain).min(MAX_TACTICS_DICE); // WT-TD-5
    ev.push(WtBattleEvent::TacticsDice {
        team: id,
        delta: i64::from(t.tactics_dice) - i64::from(before),
        pool: t.tactics_dice,
    });
    Ok(())
}

fn spend_td(s: &mut WtBattleState, team: usize, n: u32, ev: &mut Ev) -> Result<()> {
    if n == 0 {
        return Ok(());
    }
    let id = s.team_id(team);
    let t = s.team_mut(team)?;
    t.tactics_dice = t.tactics_dice.saturating_sub(n);
    ev.push(WtBattleEvent::TacticsDice { team: id, delta: -i64::from(n), pool: t.tactics_dice });
    Ok(())
}

/// WT-ST-1 item 3, WT-ST-2 item 3, WT-ST-3 item 4: an action that requires a check.
fn end_on_check(s: &mut WtBattleState, mi: usize, ev: &mut Ev) -> Result<()> {
    let m = s.mm(mi)?;
    let id = m.id.clone();
    if m.states.stealth.take().is_some() {
        ev.push(state_ev(&id, "stealth", false, "WT-ST-1"));
    }
    if m.states.invisible.take().is_some() {
        ev.push(state_ev(&id, "invisible", false, "WT-ST-2"));
    }
    if m.states.movement_reserved.take().is_some() {
        ev.push(state_ev(&id, "movement_reserved", false, "WT-ST-3"));
    }
    Ok(())
}

/// WT-ST-1 item 2, WT-ST-2 item 2, WT-ST-3 item 3: caught in an area attack.
fn end_on_area(s: &mut WtBattleState, mi: usize, ev: &mut Ev) -> Result<()> {
    end_on_check(s, mi, ev)
}

/// WT-TRG-4/5/6/7: using a trigger activates its side (with its options);
/// WT-ST-1 item 4 / WT-ST-2 item 4 / WT-ST-3 item 5: a trigger on Bagworm's
/// or Chameleon's side ends the state. Outside the Attack phase nothing is
/// activated (WT-TRG-3).
fn uses_trigger_side(
    s: &mut WtBattleState,
    mi: usize,
    sk: &WtBattleSkill,
    side: Option<WtSide>,
    ev: &mut Ev,
) -> Result<()> {
    let (Some(t), Some(side)) = (sk.trigger.clone(), side) else { return Ok(()) };
    let id = s.m(mi)?.id.clone();
    // Bagworm itself does not end its own Stealth, nor Chameleon its own
    // Invisible / Movement-reserved; any other trigger on that side does
    // (Chameleon on Bagworm's side ends Stealth, and the other way round).
    let m = s.mm(mi)?;
    if m.states.stealth == Some(side) && sk.kind != WtBattleSkillKind::Stealth {
        m.states.stealth = None;
        ev.push(state_ev(&id, "stealth", false, "WT-ST-1"));
    }
    let m = s.mm(mi)?;
    if m.states.invisible == Some(side) && sk.kind != WtBattleSkillKind::Invisible {
        m.states.invisible = None;
        ev.push(state_ev(&id, "invisible", false, "WT-ST-2"));
    }
    let m = s.mm(mi)?;
    if m.states.movement_reserved == Some(side)
        && !matches!(sk.kind, WtBattleSkillKind::Invisible | WtBattleSkillKind::Move)
    {
        m.states.movement_reserved = None;
        ev.push(state_ev(&id, "movement_reserved", false, "WT-ST-3"));
    }
    if s.phase != WtBattlePhase::Attack {
        return Ok(());
    }
    // WT-TRG-6: a base trigger and its dedicated options on that side activate
    // together, whichever of them the skill names.
    let together: Vec<String> = {
        let m = s.m(mi)?;
        let slots = side_slots(m, side);
        let dedicated_base = |o: &String| {
            s.trigger(o).filter(|x| x.kind == WtTriggerKind::DedicatedOption).and_then(|x| x.base.clone())
        };
        let mut v: Vec<String> = std::iter::once(&t).chain(sk.with.iter()).cloned().collect();
        for x in v.clone() {
            if let Some(b) = dedicated_base(&x) {
                if slots.contains(&b) && !v.contains(&b) {
                    v.push(b);
                }
            }
        }
        for o in slots {
            if !v.contains(o) && dedicated_base(o).is_some_and(|b| v.contains(&b)) {
                v.push(o.clone());
            }
        }
        v
    };
    let m = s.mm(mi)?;
    let act = match side {
        WtSide::Main => &mut m.used.active_main,
        WtSide::Sub => &mut m.used.active_sub,
    };
    let before = act.len();
    for x in &together {
        if !act.contains(x) {
            act.push(x.clone());
        }
    }
    if act.len() != before {
        let triggers = act.clone();
        ev.push(WtBattleEvent::SideActivated { member: id, side, triggers });
    }
    Ok(())
}

/// WT-OBJ-2/3: remove objects; characters on them fall and float until Feedback.
fn destroy_objects(s: &mut WtBattleState, squares: &[WtSquare], ev: &mut Ev) -> Result<()> {
    for &sq in squares {
        if !s.map.is_object(sq) {
            continue;
        }
        let h = s.map.h(sq);
        s.map.destroy_object(sq);
        ev.push(WtBattleEvent::ObjectDestroyed { square: sq, height: h });
        for i in 0..s.members.len() {
            let on = s.on_field(s.m(i)?) && s.m(i)?.at == sq;
            if on && !s.m(i)?.states.floating {
                let id = s.m(i)?.id.clone();
                s.mm(i)?.states.floating = true;
                ev.push(state_ev(&id, "floating", true, "WT-OBJ-3"));
            }
        }
    }
    Ok(())
}

/// WT-HIT-1: once every target has its reaction, the attacker rolls a hit
/// check per target (stat + tactics + special-attack LV dice) against the
/// reaction (or the skill's target, or hits automatically), then damage,
/// damage table, forced movement.
fn maybe_resolve(s: &mut WtBattleState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    let Some(p) = s.pending.clone() else { return Ok(()) };
    if p.reactions.len() < p.targets.len() {
        return Ok(());
    }
    s.pending = None;
    let ai = s.idx(&p.attacker).ok_or_else(|| internal("attacker"))?;
    let cat = std::sync::Arc::clone(&s.catalog);
    let sk = cat.skills.iter().find(|k| k.id == p.skill).ok_or_else(|| internal("skill"))?;
    let (ateam, astats, aat) = {
        let a = s.m(ai)?;
        (a.team, a.stats, a.at)
    };
    let mut burst_left = p.burst;
    for r in &p.reactions {
        let Some(ti) = s.idx(&r.target) else { continue };
        if !s.on_field(s.m(ti)?) {
            continue;
        }
        let (th, floating) = (s.map.h(s.m(ti)?.at), s.m(ti)?.states.floating);
        let ah = s.map.h(aat);
        // WT-DMG-5/6: applicable special attacks.
        let lvs: Vec<u32> = sk
            .special_attacks
            .iter()
            .filter(|x| match x.kind {
                WtSpecialAttackKind::Upward => th - ah >= 1,
                WtSpecialAttackKind::Downward => ah - th >= 1,
                WtSpecialAttackKind::Floating => floating,
            })
            .map(|x| x.lv)
            .collect();
        let bonus = special_attack_bonus(&lvs, s.variants.special_attack_stacking);
        let against = r.achievement.or(sk.target);
        let (faces, ach, hit) = match against {
            None => (Vec::new(), None, true),
            Some(t) => {
                let stat = astats.get(sk.stat.unwrap_or(crate::world_trigger::types::WtStat::Technique));
                let pool = WtPool::new("", stat as u32, p.tactics_dice, bonus as u32)?;
                let c = roll_check(dice, pool, None)?;
                (c.faces, Some(c.achievement), c.achievement >= t)
            }
        };
        ev.push(WtBattleEvent::HitCheck {
            attacker: p.attacker.clone(),
            target: r.target.clone(),
            special_attack: bonus,
            faces,
            achievement: ach,
            against,
            hit,
        });
        if !hit {
            continue;
        }
        s.mm(ti)?.last_hit_by = Some(ateam);
        let status = s.m(ti)?.status;
        if status == WtMemberStatus::Incapacitated {
            if s.battle_type != WtBattleType::Mock {
                // WT-KO-2: any hit kills.
                let (tteam, was_manager) = (s.m(ti)?.team, s.manager(s.m(ti)?.team) == Some(ti));
                s.mm(ti)?.status = WtMemberStatus::Dead;
                ev.push(WtBattleEvent::Killed { member: r.target.clone() });
                if was_manager {
                    // WT-KO-5: the initiative check and the tactics dice pass on.
                    let mg = s.manager(tteam).and_then(|i| s.members.get(i)).map(|m| m.id.clone());
                    ev.push(WtBattleEvent::LeaderSuccession { team: s.team_id(tteam), manager: mg });
                }
            }
            continue;
        }
        // WT-DMG-4: the declared Trion Burst is paid from the attacker's pool
        // "when dealing damage", and adds to one hit (RULINGS): the first hit on a
        // member of another team (an area attack may also hit the attacker and its
        // allies; the burst never goes to them). Nothing is paid if no enemy is hit.
        let enemy = s.m(ti)?.team != ateam;
        let burst = if enemy && s.m(ai)?.status == WtMemberStatus::Active { burst_left } else { 0 };
        if enemy {
            burst_left = 0;
        }
        if burst > 0 {
            let a = s.mm(ai)?;
            a.trion = a.trion.saturating_sub(burst);
            let trion_after = a.trion;
            ev.push(WtBattleEvent::TrionLost {
                member: p.attacker.clone(),
                amount: burst,
                trion_after,
                cause: WtTrionLossCause::TrionBurst,
            });
        }
        let d = roll_damage(
            dice,
            WtDamageInput {
                attack: astats.attack,
                burst,
                special_attack: bonus,
                modifier: sk.damage_modifier,
            },
        )?;
        let after = s.m(ti)?.trion.saturating_sub(d.total);
        s.mm(ti)?.trion = after.max(-MAX_TRION);
        ev.push(WtBattleEvent::Damage {
            target: r.target.clone(),
            total: d.total,
            die: d.die,
            burst,
            special_attack: bonus,
            modifier: sk.damage_modifier,
            trion_after: after,
        });
        // WT-DT-1…4.
        let (side, held) = {
            let t = s.m(ti)?;
            (t.damage_table, t.conditions.clone())
        };
        let tiers = s.catalog.damage_tables.tiers(side);
        let dt = roll_damage_table(dice, &tiers, d.total, &held, s.variants.damage_table_threshold)?;
        let mut bail_by_table = false;
        if let (Some(tier), Some(roll), Some(row), Some(effect)) = (dt.tier, dt.roll, dt.row, dt.effect) {
            ev.push(WtBattleEvent::DamageTable {
                target: r.target.clone(),
                tier,
                roll,
                row,
                shifted_from: dt.shifted_from,
                effect,
            });
            if effect == WtCondition::EmergencyBailout {
                bail_by_table = true;
            } else if !held.contains(&effect) {
                s.mm(ti)?.conditions.push(effect);
                ev.push(WtBattleEvent::ConditionAdded {
                    member: r.target.clone(),
                    condition: effect,
                    label: effect.label(),
                });
            }
        }
        if bail_by_table || after <= 0 {
            down(s, ti, Some(ateam), if bail_by_table { "WT-DT-3" } else { "WT-KO-1" }, ev)?;
        }
        // Paying the burst may bring the pool to exactly 0: the attacker goes down at the
        // Feedback phase (RULINGS 2026-12-05). An attacker already hurt by its own area
        // attack may be pushed below 0 by it: down at once, as after damage (WT-KO-1).
        if burst > 0 && s.m(ai)?.trion < 0 {
            down(s, ai, None, "WT-KO-1", ev)?;
        }
        // WT-MOV-6: forced movement (single target).
        if let Some(to) = p.push_to {
            if sk.forced_move > 0 && s.m(ti)?.status == WtMemberStatus::Active {
                let occupied =
                    s.members.iter().enumerate().any(|(i, o)| i != ti && s.on_field(o) && o.at == to);
                if !occupied {
                    let m = s.mm(ti)?;
                    m.at = to;
                    let was_floating = std::mem::take(&mut m.states.floating);
                    let oob = !s.map.on_map(to);
                    ev.push(WtBattleEvent::ForcedMove { member: r.target.clone(), to, out_of_bounds: oob });
                    if was_floating {
                        ev.push(state_ev(&r.target, "floating", false, "WT-ST-4"));
                    }
                }
            }
        }
    }
    // The hits of one attack land together: the battle ends (WT-END) only once all
    // of them are resolved, so every target's damage, bailout and points count.
    check_end(s, ev)
}

/// WT-KO-1/2/4, WT-BTL-2: Trion ≤ 0 or a bailout row: bailout (rank and
/// defense battles, with a bailout system) or incapacitation. The caller checks
/// for the battle's end once everything that happens at the same moment is done
/// (every hit of one attack, every member at Feedback).
fn down(s: &mut WtBattleState, mi: usize, by: Option<usize>, rule: &str, ev: &mut Ev) -> Result<()> {
    let (id, team, was_manager) = {
        let m = s.m(mi)?;
        (m.id.clone(), m.team, s.manager(m.team) == Some(mi))
    };
    if !matches!(s.m(mi)?.status, WtMemberStatus::Active) {
        return Ok(());
    }
    let bail = s.battle_type != WtBattleType::Mock && s.m(mi)?.bailout_system;
    {
        let m = s.mm(mi)?;
        m.states = WtSpecialStates::default();
        if bail {
            m.status = WtMemberStatus::BailedOut;
            if !m.conditions.contains(&WtCondition::EmergencyBailout) {
                m.conditions.push(WtCondition::EmergencyBailout);
            }
        } else {
            m.status = WtMemberStatus::Incapacitated;
        }
    }
    if bail {
        ev.push(WtBattleEvent::BailedOut { member: id, rule: rule.into() });
    } else {
        ev.push(WtBattleEvent::Incapacitated { member: id });
    }
    if let Some(b) = by.or(s.m(mi)?.last_hit_by) {
        if b != team {
            s.team_mut(b)?.points += 1;
        }
    }
    // WT-KO-5 (RULINGS 2026-12-05: an incapacitated leader hands on as a bailed-out one).
    if was_manager {
        let mg = s.manager(team).and_then(|i| s.members.get(i)).map(|m| m.id.clone());
        ev.push(WtBattleEvent::LeaderSuccession { team: s.team_id(team), manager: mg });
    }
    Ok(())
}

fn finish(s: &mut WtBattleState, reason: super::state::WtEndReason, winner: Option<usize>, ev: &mut Ev) {
    let w = winner.map(|t| s.team_id(t));
    s.phase = WtBattlePhase::Ended;
    s.turn = 0;
    s.pending = None;
    for t in s.teams.iter_mut() {
        t.tactics_dice = 0; // WT-TD-6
    }
    s.outcome = Some(WtBattleOutcome { reason, winner: w.clone() });
    ev.push(WtBattleEvent::BattleEnded { reason, winner: w });
}

/// The team with the most points among `teams` (a tie → none).
fn best_by_points(s: &WtBattleState, teams: &[usize]) -> Option<usize> {
    let max = teams.iter().filter_map(|&t| s.teams.get(t).map(|x| x.points)).max()?;
    let top: Vec<usize> =
        teams.iter().copied().filter(|&t| s.teams.get(t).is_some_and(|x| x.points == max)).collect();
    (top.len() == 1).then(|| top[0])
}

/// WT-END-1/2/3: end when one team (or none) is left, or a named character is down.
fn check_end(s: &mut WtBattleState, ev: &mut Ev) -> Result<()> {
    if s.phase == WtBattlePhase::Ended {
        return Ok(());
    }
    let alive: Vec<usize> =
        (0..s.teams.len()).filter(|&t| s.members.iter().any(|m| m.team == t && s.in_play(m))).collect();
    if alive.is_empty() {
        // WT-END-2: a rank battle is still won on points, even when its last
        // members fell together.
        let w = if s.battle_type == WtBattleType::Rank {
            best_by_points(s, &(0..s.teams.len()).collect::<Vec<_>>())
        } else {
            None
        };
        finish(s, super::state::WtEndReason::NoTeamLeft, w, ev);
        return Ok(());
    }
    if alive.len() == 1 {
        let w = if s.battle_type == WtBattleType::Rank {
            // WT-END-2: the team with more points wins.
            best_by_points(s, &(0..s.teams.len()).collect::<Vec<_>>())
        } else {
            alive.first().copied()
        };
        finish(s, super::state::WtEndReason::OneTeamLeft, w, ev);
        return Ok(());
    }
    if s.battle_type != WtBattleType::Rank {
        let down_team = s
            .end_when_down
            .iter()
            .filter_map(|id| s.idx(id))
            .filter_map(|i| s.members.get(i))
            .find(|m| m.status != WtMemberStatus::Active)
            .map(|m| m.team);
        if let Some(dt) = down_team {
            let others: Vec<usize> = (0..s.teams.len()).filter(|&t| t != dt).collect();
            let w = if others.len() == 1 { others.first().copied() } else { best_by_points(s, &others) };
            finish(s, super::state::WtEndReason::CharacterDown, w, ev);
        }
    }
    Ok(())
}

/// WT-INIT-1/3 + RULINGS: each team's roller rolls Command (+ tactics dice);
/// tied teams re-roll Command among themselves until they differ.
#[allow(clippy::needless_range_loop)] // `keys` is indexed by team, alongside `s.teams`
fn roll_initiative(
    s: &mut WtBattleState,
    td: &[super::actions::WtTeamDice],
    dice: &mut Dice,
    ev: &mut Ev,
) -> Result<()> {
    let nt = s.teams.len();
    let mut keys: Vec<Option<Vec<i64>>> = vec![None; nt];
    for t in 0..nt {
        let Some(r) = s.manager(t) else { continue };
        if !s.members.iter().any(|m| m.team == t && s.in_play(m)) {
            continue;
        }
        let spend =
            td.iter().find(|d| Some(&d.team) == s.teams.get(t).map(|x| &x.id)).map(|d| d.dice).unwrap_or(0);
        spend_td(s, t, spend, ev)?;
        let (rid, cmd) = {
            let m = s.m(r)?;
            (m.id.clone(), m.stats.command)
        };
        let c = roll_check(dice, WtPool::new("", cmd as u32, spend, 0)?, None)?;
        ev.push(WtBattleEvent::InitiativeRolled {
            team: s.team_id(t),
            roller: rid,
            faces: c.faces,
            tactics_dice: spend,
            achievement: c.achievement,
        });
        s.team_mut(t)?.initiative = Some(c.achievement);
        keys[t] = Some(vec![c.achievement]);
    }
    for t in 0..nt {
        if keys[t].is_none() {
            s.team_mut(t)?.initiative = None;
        }
    }
    let mut rounds = 0;
    loop {
        let tied: Vec<usize> = (0..nt)
            .filter(|&t| {
                keys[t].is_some() && (0..nt).any(|o| o != t && keys[o].is_some() && keys[o] == keys[t])
            })
            .collect();
        if tied.is_empty() {
            break;
        }
        // Rollers with Command 0 roll no dice and can never break a tie:
        // then the setup order decides (engine reading; the source is silent).
        let cmd =
            |t: usize| s.manager(t).and_then(|r| s.members.get(r)).map(|m| m.stats.command).unwrap_or(0);
        if tied.iter().all(|&t| cmd(t) == 0) {
            break;
        }
        rounds += 1;
        if rounds > MAX_INITIATIVE_REROLLS {
            return Err(Error::limit("rolls", "initiative ties were re-rolled 100 times"));
        }
        for t in tied {
            let cmd = s.manager(t).and_then(|r| s.members.get(r)).map(|m| m.stats.command).unwrap_or(0);
            let c = roll_check(dice, WtPool::new("", cmd as u32, 0, 0)?, None)?;
            ev.push(WtBattleEvent::InitiativeReroll {
                team: s.team_id(t),
                faces: c.faces,
                achievement: c.achievement,
            });
            if let Some(k) = keys.get_mut(t).and_then(|k| k.as_mut()) {
                k.push(c.achievement);
            }
        }
    }
    // Stable: equal keys keep team order.
    let order = crate::small_sort::sorted_indices(nt, &|a, b| keys[b].cmp(&keys[a]));
    s.initiative_order = order;
    start_phase(s, WtBattlePhase::Tactics, dice, ev)
}

fn team_can_act(s: &WtBattleState, t: usize) -> bool {
    s.members.iter().any(|m| {
        m.team == t
            && match m.status {
                WtMemberStatus::Active => true,
                WtMemberStatus::Incapacitated => s.phase == WtBattlePhase::Movement,
                // WT-KO-4: Tactics-phase commands usable after emergency bailout.
                WtMemberStatus::BailedOut => {
                    s.phase == WtBattlePhase::Tactics
                        && m.skills.iter().any(|k| s.skill(&k.skill).is_some_and(|x| x.after_bailout))
                }
                WtMemberStatus::Dead => false,
            }
    })
}

fn start_phase(s: &mut WtBattleState, p: WtBattlePhase, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    s.phase = p;
    s.turn = 0;
    let order: Vec<String> = s.phase_order().iter().map(|&t| s.team_id(t)).collect();
    ev.push(WtBattleEvent::PhaseStarted { phase: p, label: phase_label(p), order });
    skip_idle(s, dice, ev)
}

/// Skip teams with nobody able to act; emit the turn event of the acting team.
fn skip_idle(s: &mut WtBattleState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    loop {
        // Only called in the Tactics, Movement and Attack phases.
        match s.acting_team() {
            Some(t) if team_can_act(s, t) => {
                ev.push(WtBattleEvent::TeamTurn { team: s.team_id(t) });
                return Ok(());
            }
            Some(_) => s.turn += 1,
            None => return end_phase(s, dice, ev),
        }
    }
}

fn advance_turn(s: &mut WtBattleState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    s.turn += 1;
    skip_idle(s, dice, ev)
}

fn end_phase(s: &mut WtBattleState, dice: &mut Dice, ev: &mut Ev) -> Result<()> {
    match s.phase {
        WtBattlePhase::Tactics => start_phase(s, WtBattlePhase::Movement, dice, ev),
        WtBattlePhase::Movement => {
            // WT-ST-1 item 1: Stealth ends if an enemy is within 3 squares at the end of the Movement phase.
            let metric = s.variants.range_metric;
            for i in 0..s.members.len() {
                let m = s.m(i)?;
                if m.states.stealth.is_none() {
                    continue;
                }
                let near = s.members.iter().any(|o| {
                    o.team != m.team
                        && s.on_field(o)
                        && s.map.on_map(m.at)
                        && grid::distance(metric, o.at, m.at) <= 3
                });
                if near {
                    let id = m.id.clone();
                    s.mm(i)?.states.stealth = None;
                    ev.push(state_ev(&id, "stealth", false, "WT-ST-1"));
                }
            }
            start_phase(s, WtBattlePhase::Attack, dice, ev)
        }
        WtBattlePhase::Attack => {
            // WT-TRG-4: activation clears at the end of the Attack phase.
            for m in s.members.iter_mut() {
                m.used.active_main.clear();
                m.used.active_sub.clear();
            }
            feedback(s, ev)?;
            if s.phase == WtBattlePhase::Ended {
                return Ok(());
            }
            if s.round >= s.max_rounds {
                // WT-END-1/2/3: the round limit.
                let all: Vec<usize> = (0..s.teams.len()).collect();
                let w = best_by_points(s, &all);
                finish(s, super::state::WtEndReason::RoundLimit, w, ev);
                return Ok(());
            }
            start_round(s, s.round + 1, ev);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// WT-RND-2 in the RULINGS order: (1) Trion leaks, (2) bailout at Trion ≤ 0
/// and of out-of-bounds characters, (3) Invisible, Movement-reserved and
/// Floating end.
fn feedback(s: &mut WtBattleState, ev: &mut Ev) -> Result<()> {
    s.phase = WtBattlePhase::Feedback;
    ev.push(WtBattleEvent::PhaseStarted {
        phase: WtBattlePhase::Feedback,
        label: phase_label(WtBattlePhase::Feedback),
        order: Vec::new(),
    });
    for i in 0..s.members.len() {
        let m = s.m(i)?;
        if m.status != WtMemberStatus::Active {
            continue;
        }
        let loss = feedback_trion_loss(&m.conditions); // WT-COND-2/3/4
        if loss > 0 {
            let id = m.id.clone();
            let after = m.trion.saturating_sub(loss);
            s.mm(i)?.trion = after;
            ev.push(WtBattleEvent::TrionLost {
                member: id,
                amount: loss,
                trion_after: after,
                cause: WtTrionLossCause::TrionLeak,
            });
        }
    }
    for i in 0..s.members.len() {
        let m = s.m(i)?;
        if m.status != WtMemberStatus::Active {
            continue;
        }
        if m.trion <= 0 {
            down(s, i, None, "WT-KO-1", ev)?;
        } else if !s.map.on_map(m.at) {
            // WT-OOB-1: still out of bounds → forced bailout; without one (a
            // mock battle, or no bailout system) incapacitated instead — and
            // like any other fall, it scores for the team that last hit it.
            down(s, i, None, "WT-OOB-1", ev)?;
        }
    }
    // Feedback downs happen together; the end is checked once, after them.
    check_end(s, ev)?;
    if s.phase == WtBattlePhase::Ended {
        return Ok(());
    }
    for i in 0..s.members.len() {
        let m = s.mm(i)?;
        let id = m.id.clone();
        if m.states.invisible.take().is_some() {
            ev.push(state_ev(&id, "invisible", false, "WT-ST-2"));
        }
        let m = s.mm(i)?;
        if m.states.movement_reserved.take().is_some() {
            ev.push(state_ev(&id, "movement_reserved", false, "WT-ST-3"));
        }
        let m = s.mm(i)?;
        if std::mem::take(&mut m.states.floating) {
            ev.push(state_ev(&id, "floating", false, "WT-ST-4"));
        }
    }
    check_end(s, ev)
}

/// WT-KO-1/4: a member whose Trion is already 0 when the battle starts (a legal sheet
/// whose triggers use up its whole Starting Trion) is down at once: bailed out or
/// incapacitated like any other member at 0, before anyone acts.
pub fn down_at_start(s: &mut WtBattleState, ev: &mut Ev) -> Result<()> {
    for i in 0..s.members.len() {
        if s.m(i)?.trion <= 0 {
            down(s, i, None, "WT-KO-1", ev)?;
        }
    }
    check_end(s, ev)
}

/// Start a round: reset per-round budgets, revive mock-battle casualties
/// (WT-KO-3, at the Initiative phase; not one whose Starting Trion is 0), and wait
/// for `roll_initiative`. A revived member is a fresh Trion body (RULINGS, ruled
/// 2026-12-01): Trion back to its starting value, and the damage-table conditions
/// (limb loss, Trion leak…) and the special states end.
pub fn start_round(s: &mut WtBattleState, round: u32, ev: &mut Ev) {
    s.round = round;
    s.phase = WtBattlePhase::Initiative;
    s.turn = 0;
    ev.push(WtBattleEvent::RoundStarted { round });
    ev.push(WtBattleEvent::PhaseStarted {
        phase: WtBattlePhase::Initiative,
        label: phase_label(WtBattlePhase::Initiative),
        order: Vec::new(),
    });
    for t in s.teams.iter_mut() {
        t.operator_used = false;
        t.initiative = None;
    }
    let mock = s.battle_type == WtBattleType::Mock;
    for m in s.members.iter_mut() {
        m.used = WtMemberUsage::default();
        if mock && m.status == WtMemberStatus::Incapacitated && m.starting_trion > 0 {
            m.status = WtMemberStatus::Active;
            m.trion = m.starting_trion;
            // WT-KO-3 (RULINGS 2026-12-01): a fresh Trion body, so nothing the old one suffered stays.
            let conditions_ended = std::mem::take(&mut m.conditions);
            m.states = WtSpecialStates::default();
            // A revived character that was out of bounds comes back where it stood last on the map is unknown: keep it where it is.
            ev.push(WtBattleEvent::Revived { member: m.id.clone(), trion: m.trion, conditions_ended });
        }
    }
}

/// Every action legal now (`actor`: only that member's actions, plus team-level ones).
/// Listed by [`super::legal`] in the order: operator actions, position / trait
/// skills, then (an attack pending) no reaction and the reactions, or the
/// phase's actions (initiative; re-entry checks, pass, each acting member's
/// skills in its skill order — moves per destination row by row, attacks per
/// target or area centre — then its bringing out-of-bounds allies back).
pub fn legal_actions(s: &WtBattleState, actor: Option<&str>) -> Vec<WtLegalAction> {
    super::legal::legal_actions(s, actor)
}
