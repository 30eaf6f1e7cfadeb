//! The round's attack exchange: an `attack` (C7H-ACT-1) waits for the target's
//! `reaction` (C7H-PAS-1), which rolls the attack, the reaction and the damage and
//! applies the hit points. The resolutions are the module's own operations, called
//! here: `damage` (C7H-ACT-2 / C7H-ACT-3), `defend` (C7H-DEF), `cover` (C7H-COV),
//! `cancel` (C7H-CAN), `counter` (C7H-CTR), `auto_hit` (C7H-AUTO) and `parse_range`
//! (C7H-RNG-2). What seed 002 leaves to the base game — hit points, major wounds,
//! unconsciousness and death, dodge and fight back ties, armour, the default Dodge —
//! comes from the illustrative pack `core/data/coc/combat7.json`.
//!
//! Dice order of a reaction: the attack roll; the reactor's roll (Dodge, the weapon's
//! skill, or DEX for a cover); the defend roll of `cover_and_defend`; the attack's
//! damage when it hits; the canceller's damage on a successful cancel, the fight-back
//! winner's damage. A counter-attack rolls after the attack's damage is applied (and
//! not at all when that leaves the defender down, C7H-CTR-2): its roll, then its damage.

use super::damage::{damage_with, C7hDamageArgs, C7hDamageResult, C7hVariants};
use super::range::{parse_range, C7hParseRangeArgs, C7hRangeKind};
use super::resolve::{
    auto_hit, cancel, counter, cover, defend, C7hAutoHitArgs, C7hAutoHitReason, C7hCancelArgs,
    C7hCounterArgs, C7hCoverArgs, C7hDefendArgs, C7hRoll,
};
use super::round::{
    C7hCombatant, C7hEvent, C7hLoggedEvent, C7hPassiveKind, C7hPending, C7hRoundState, C7hStatus, C7hWeapon,
};
use super::sentences::{self, Exchange};
use crate::coc7::check::{roll_check, rule_of, validate_bonus};
use crate::coc7::{Coc7Difficulty, Coc7Level, Coc7Outcome};
use crate::dice::Dice;
use crate::error::{Error, ErrorCode, Result};

const PACK: &str = include_str!("../../../../data/coc/combat7.json");

/// Which side a tie of success levels goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub(crate) enum TieTo {
    Attacker,
    Defender,
}

#[derive(Debug, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub(crate) struct Fraction {
    pub num: i64,
    pub den: i64,
}

#[derive(Debug, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub(crate) struct Ties {
    pub dodge: TieTo,
    pub fight_back: TieTo,
    pub defend: TieTo,
}

#[derive(Debug, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub(crate) struct DodgeDefault {
    #[allow(dead_code)]
    pub of: String,
    pub div: i64,
}

/// The illustrative base-game pack (`"illustrative": true`).
#[derive(Debug, crate::json::FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub(crate) struct CombatPack {
    /// `{"illustrative": true, …}` (checked by the tests).
    #[allow(dead_code)]
    pub meta: serde_json::Value,
    pub hp_floor: i64,
    pub major_wound: Fraction,
    pub death_over_hp_max: bool,
    pub at_zero_hp: C7hStatus,
    pub at_zero_hp_with_major_wound: C7hStatus,
    pub armor_subtracts: bool,
    pub ties: Ties,
    pub dodge_default: DodgeDefault,
}

/// The bundled pack, parsed once.
pub(crate) fn pack() -> Result<&'static CombatPack> {
    static P: std::sync::OnceLock<std::result::Result<CombatPack, String>> = std::sync::OnceLock::new();
    P.get_or_init(|| {
        let v: serde_json::Value = serde_json::from_str(PACK).map_err(|e| e.to_string())?;
        crate::json::from_value(&v).map_err(|e| e.message)
    })
    .as_ref()
    .map_err(|e| Error::new(ErrorCode::Internal, format!("the combat pack does not read: {e}")))
}

/// A combatant can act and be attacked.
pub(crate) fn is_up(c: &C7hCombatant) -> bool {
    c.status == C7hStatus::Active
}

/// `c`'s weapon `id`, or its first weapon when none is named.
pub(crate) fn weapon_of<'a>(c: &'a C7hCombatant, id: Option<&str>) -> Option<&'a C7hWeapon> {
    match id {
        Some(id) => c.weapons.iter().find(|w| w.id == id),
        None => c.weapons.first(),
    }
}

/// The weapon's range is melee (`近接`, C7H-RNG-3).
pub(crate) fn is_melee(w: &C7hWeapon) -> bool {
    parse_range(&C7hParseRangeArgs { text: w.range.clone(), ..Default::default() })
        .ok()
        .and_then(|r| r.range)
        .is_some_and(|r| r.kind == C7hRangeKind::Melee)
}

fn index_of(s: &C7hRoundState, id: &str) -> Result<usize> {
    s.combatants
        .iter()
        .position(|c| c.entry.id == id)
        .ok_or_else(|| Error::new(ErrorCode::Internal, "a pending attack names nobody"))
}

/// C7H-ACT-1 / C7H-RNG-2: whether `attacker` may attack `target` with `weapon` from
/// `distance`: the target's index and the attack roll's bonus dice (one penalty die
/// beyond range).
pub(crate) fn check_attack(
    s: &C7hRoundState,
    attacker: usize,
    target: &str,
    weapon: &str,
    distance: i64,
    bonus_dice: i64,
) -> Result<(usize, i64)> {
    let a = &s.combatants[attacker];
    let w = a.weapons.iter().find(|w| w.id == weapon).ok_or_else(|| {
        Error::invalid("action.weapon", format_args!("{} has no weapon {weapon:?}", a.entry.id))
    })?;
    validate_bonus("action.bonus_dice", bonus_dice)?;
    let Some(t) = s.combatants.iter().position(|c| c.entry.id == target) else {
        return Err(Error::illegal(
            "C7H-ACT-1",
            format_args!("attack: there is no combatant {target:?} to attack"),
        ));
    };
    if t == attacker {
        return Err(Error::illegal("C7H-ACT-1", "attack: a combatant does not attack itself"));
    }
    if !is_up(&s.combatants[t]) {
        return Err(Error::illegal(
            "C7H-ACT-1",
            format_args!("attack: {target} is down ({:?}) and is no longer a target", s.combatants[t].status),
        ));
    }
    let r = parse_range(&C7hParseRangeArgs {
        text: w.range.clone(),
        distance: Some(distance),
        ..Default::default()
    })
    .map_err(|e| {
        if e.field.as_deref() == Some("distance") {
            e.relocated(crate::error::loc_of("action.distance"))
        } else {
            e
        }
    })?;
    let bonus = bonus_dice - r.penalty_dice;
    validate_bonus("action.bonus_dice", bonus)?;
    Ok((t, bonus))
}

/// Whether a passive kind needs the reactor's weapon.
pub(crate) fn needs_weapon(k: C7hPassiveKind) -> bool {
    matches!(
        k,
        C7hPassiveKind::Defend
            | C7hPassiveKind::FightBack
            | C7hPassiveKind::Cancel
            | C7hPassiveKind::Counter
            | C7hPassiveKind::CoverAndDefend
    )
}

/// The rule an exchange resolved with `kind` names.
pub(crate) fn rule_of_kind(kind: Option<C7hPassiveKind>) -> &'static str {
    match kind {
        None | Some(C7hPassiveKind::Other) => "C7H-ACT-1",
        Some(C7hPassiveKind::Dodge | C7hPassiveKind::FightBack) => "C7H-PAS-1",
        Some(C7hPassiveKind::Defend) => "C7H-DEF-2",
        Some(C7hPassiveKind::Cover) => "C7H-COV-1",
        Some(C7hPassiveKind::CoverAndDefend) => "C7H-DEF-5",
        Some(C7hPassiveKind::Cancel) => "C7H-CAN-2",
        Some(C7hPassiveKind::Counter) => "C7H-CTR-3",
    }
}

/// C7H-PAS-1 and the passive action's own rules: whether `actor` (index `i`) may answer
/// the pending attack with `kind` and `weapon` (the passive count and stance die are
/// checked by the round).
pub(crate) fn check_reaction(
    s: &C7hRoundState,
    i: usize,
    kind: Option<C7hPassiveKind>,
    weapon: Option<&str>,
    bonus_die: bool,
) -> Result<()> {
    let Some(p) = &s.pending else {
        return Err(Error::illegal("C7H-PAS-1", "reaction: no attack is waiting for a reaction"));
    };
    let c = &s.combatants[i];
    let id = c.entry.id.as_str();
    let t = index_of(s, &p.target)?;
    let covering = matches!(kind, Some(C7hPassiveKind::Cover | C7hPassiveKind::CoverAndDefend));
    if covering {
        let ally = id != p.target && id != p.attacker && c.side.is_some() && c.side == s.combatants[t].side;
        if !ally {
            return Err(Error::illegal(
                "C7H-COV-1",
                format_args!("reaction: only an ally of {} (same side) covers it", p.target),
            ));
        }
    } else if id != p.target {
        return Err(Error::illegal(
            "C7H-PAS-1",
            format_args!("reaction: the attack is {}'s to answer", p.target),
        ));
    }
    let Some(k) = kind else {
        if bonus_die {
            return Err(Error::illegal("C7H-STN-1", "reaction: the stance die goes with a passive roll"));
        }
        if weapon.is_some() {
            return Err(Error::invalid("action.weapon", "taking the attack uses no weapon"));
        }
        return Ok(());
    };
    match k {
        C7hPassiveKind::Other => {
            return Err(Error::illegal(
                "C7H-PAS-1",
                "reaction: `other` does not answer an attack; name the passive action",
            ))
        }
        C7hPassiveKind::Counter if !p.melee => {
            return Err(Error::illegal("C7H-CTR-1", "reaction: a counter-attack answers only a melee attack"))
        }
        C7hPassiveKind::Cancel => {
            let a = &s.combatants[index_of(s, &p.attacker)?];
            if weapon_of(a, Some(&p.weapon)).is_some_and(|w| !w.cancellable) {
                return Err(Error::illegal(
                    "C7H-CAN-3",
                    "reaction: the KP ruled this attack cannot be cancelled",
                ));
            }
        }
        _ => {}
    }
    if needs_weapon(k) {
        if let Some(w) = weapon {
            if weapon_of(c, Some(w)).is_none() {
                return Err(Error::invalid("action.weapon", format_args!("{id} has no weapon {w:?}")));
            }
        } else if c.weapons.is_empty() {
            return Err(Error::illegal(
                rule_of_kind(Some(k)),
                format_args!("reaction: {id} has no weapon to use"),
            ));
        }
    } else if weapon.is_some() {
        return Err(Error::invalid("action.weapon", "this passive action uses no weapon"));
    }
    Ok(())
}

/// The damage arguments of `c`'s weapon `w`: a trailing `+DB` is `c`'s damage bonus,
/// never doubled (C7H-ACT-3).
pub(crate) fn damage_args(
    c: &C7hCombatant,
    w: &C7hWeapon,
    extreme: bool,
    variants: C7hVariants,
) -> C7hDamageArgs {
    let (expr, db) = split_db(&w.damage);
    C7hDamageArgs {
        expr: expr.to_string(),
        bonus: if db { c.db.clone() } else { None },
        extra: None,
        extreme,
        variants,
        source: Default::default(),
    }
}

/// `1d8+DB` → (`1d8`, true).
pub(crate) fn split_db(d: &str) -> (&str, bool) {
    let t = d.trim_end();
    let n = t.len();
    if n >= 3 && t.is_char_boundary(n - 3) && t[n - 3..].eq_ignore_ascii_case("+DB") {
        (t[..n - 3].trim_end(), true)
    } else {
        (t, false)
    }
}

/// Apply `amount` damage (before armour) to `c`: (taken, major wound) — the
/// illustrative pack's base-game HP rules.
pub(crate) fn hurt(c: &mut C7hCombatant, amount: i64) -> Result<(i64, bool)> {
    let p = pack()?;
    let taken = if p.armor_subtracts { (amount - c.armor).max(0) } else { amount };
    let Some(hp) = c.hp else { return Ok((taken, false)) };
    let max = c.hp_max.unwrap_or(hp).max(1);
    let major = taken > 0 && taken * p.major_wound.den >= max * p.major_wound.num;
    let hp = (hp - taken).max(p.hp_floor);
    c.hp = Some(hp);
    c.major_wound |= major;
    if p.death_over_hp_max && taken > max {
        c.status = C7hStatus::Dead;
    } else if hp <= p.hp_floor && c.status == C7hStatus::Active {
        c.status = if c.major_wound { p.at_zero_hp_with_major_wound } else { p.at_zero_hp };
    }
    Ok((taken, major))
}

/// Who wins an opposed comparison (7th edition: the higher level; a tie goes to `tie`):
/// true when the attacker's level `a` beats the defender's `d`.
pub(crate) fn attacker_wins(a: Coc7Level, d: Coc7Level, tie: TieTo) -> bool {
    a.is_success() && (a.rank() > d.rank() || (a.rank() == d.rank() && tie == TieTo::Attacker))
}

fn roll(dice: &mut Dice, skill: i64, bonus: i64, rule: i64) -> Result<Coc7Outcome> {
    roll_check(dice, skill, bonus, Coc7Difficulty::Regular, rule)
}

fn given(level: Coc7Level) -> C7hRoll {
    C7hRoll { level: Some(level), skill: None, settings: Default::default() }
}

/// Everything one exchange found, for its event.
#[derive(Default)]
struct Found {
    reaction: Option<Coc7Outcome>,
    defend_roll: Option<Coc7Outcome>,
    hit: bool,
    damage: Option<C7hDamageResult>,
    defend: Option<super::resolve::C7hDefendResult>,
    cover: Option<super::resolve::C7hCoverResult>,
    cancel: Option<super::resolve::C7hCancelResult>,
    counter: Option<super::resolve::C7hCounterResult>,
    auto: Option<super::resolve::C7hAutoHitResult>,
    hurt: Option<usize>,
    damage_taken: i64,
    major_wound: bool,
    returned: Option<C7hDamageResult>,
    canceller_damage: Option<C7hDamageResult>,
    attacker_damage_taken: i64,
}

/// C7H-PAS-1: resolve the pending attack with `reactor`'s answer (the round has checked
/// it and counted the passive action). `bonus` is the reactor's roll's stance die.
pub(crate) fn resolve(
    s: &mut C7hRoundState,
    reactor: usize,
    kind: Option<C7hPassiveKind>,
    weapon: Option<&str>,
    bonus: i64,
    dice: &mut Dice,
) -> Result<C7hLoggedEvent> {
    let p = s.pending.take().ok_or_else(|| Error::new(ErrorCode::Internal, "no pending attack"))?;
    let pk = pack()?;
    let rule = rule_of(0, s.variants.coc7_rule)?;
    let variants = s.variants;
    let (ai, ti) = (index_of(s, &p.attacker)?, index_of(s, &p.target)?);
    let aw = weapon_of(&s.combatants[ai], Some(&p.weapon))
        .cloned()
        .ok_or_else(|| Error::new(ErrorCode::Internal, "the pending attack's weapon is gone"))?;
    let rc = s.combatants[reactor].clone();
    let rw = weapon_of(&rc, weapon).cloned();
    let need_rw = || rw.clone().ok_or_else(|| Error::new(ErrorCode::Internal, "the reactor has no weapon"));
    let attack = roll(dice, aw.skill, p.bonus_dice, rule)?;
    let la = attack.level;
    let mut f = Found::default();
    let attack_damage = |s: &C7hRoundState, dice: &mut Dice| {
        damage_with(&damage_args(&s.combatants[ai], &aw, la.is_extreme_or_better(), variants), dice)
    };
    match kind {
        None | Some(C7hPassiveKind::Other) => {
            f.hit = la.is_success();
            if f.hit {
                let d = attack_damage(s, dice)?;
                f.hurt = Some(ti);
                (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[ti], d.total)?;
                f.damage = Some(d);
            }
        }
        Some(C7hPassiveKind::Dodge) => {
            let skill = rc.dodge.unwrap_or(rc.entry.dex / pk.dodge_default.div.max(1));
            let r = roll(dice, skill, bonus, rule)?;
            f.hit = attacker_wins(la, r.level, pk.ties.dodge);
            f.reaction = Some(r);
            if f.hit {
                let d = attack_damage(s, dice)?;
                f.hurt = Some(ti);
                (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[ti], d.total)?;
                f.damage = Some(d);
            }
        }
        Some(C7hPassiveKind::FightBack) => {
            let w = need_rw()?;
            let r = roll(dice, w.skill, bonus, rule)?;
            let ld = r.level;
            f.reaction = Some(r);
            f.hit = attacker_wins(la, ld, pk.ties.fight_back);
            if f.hit {
                let d = attack_damage(s, dice)?;
                f.hurt = Some(ti);
                (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[ti], d.total)?;
                f.damage = Some(d);
            } else if attacker_wins(ld, la, flip(pk.ties.fight_back)) {
                // The defender wins the fight back: its weapon's damage to the attacker.
                let d = damage_with(&damage_args(&rc, &w, ld.is_extreme_or_better(), variants), dice)?;
                (f.attacker_damage_taken, _) = hurt(&mut s.combatants[ai], d.total)?;
                f.returned = Some(d);
            }
        }
        Some(C7hPassiveKind::Defend) => {
            let w = need_rw()?;
            let r = roll(dice, w.skill, bonus, rule)?;
            let ld = r.level;
            f.reaction = Some(r);
            f.hit = la.is_success();
            if f.hit {
                let d = attack_damage(s, dice)?;
                let won = attacker_wins(ld, la, flip(pk.ties.defend));
                let res = defend(&C7hDefendArgs {
                    damage: d.total,
                    defense: w.defense,
                    opposed_won: won,
                    covering: false,
                    roll: given(ld),
                })?;
                f.hurt = Some(ti);
                (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[ti], res.damage_taken)?;
                f.damage = Some(d);
                f.defend = Some(res);
            }
        }
        Some(k @ (C7hPassiveKind::Cover | C7hPassiveKind::CoverAndDefend)) => {
            let r = roll(dice, rc.entry.dex, bonus, rule)?;
            let lc = r.level;
            f.reaction = Some(r);
            let dr = if k == C7hPassiveKind::CoverAndDefend {
                // C7H-DEF-5: the defend roll takes one penalty die.
                let w = need_rw()?;
                Some((roll(dice, w.skill, -1, rule)?, w))
            } else {
                None
            };
            f.hit = la.is_success();
            if f.hit {
                let d = attack_damage(s, dice)?;
                let c = cover(&C7hCoverArgs {
                    damages: vec![d.total],
                    allies: 1,
                    level: Some(lc),
                    ..Default::default()
                })?;
                if c.success {
                    let mut taken = c.damage_taken;
                    if let Some((o, w)) = &dr {
                        let won = attacker_wins(o.level, la, flip(pk.ties.defend));
                        let res = defend(&C7hDefendArgs {
                            damage: taken,
                            defense: w.defense,
                            opposed_won: won,
                            covering: true,
                            roll: given(o.level),
                        })?;
                        taken = res.damage_taken;
                        f.defend = Some(res);
                    }
                    f.hurt = Some(reactor);
                    (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[reactor], taken)?;
                } else {
                    f.hurt = Some(ti);
                    (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[ti], c.ally_damage_taken)?;
                }
                f.damage = Some(d);
                f.cover = Some(c);
            }
            f.defend_roll = dr.map(|(o, _)| o);
        }
        Some(C7hPassiveKind::Cancel) => {
            let w = need_rw()?;
            let r = roll(dice, w.skill, bonus, rule)?;
            let lc = r.level;
            f.reaction = Some(r);
            f.hit = la.is_success();
            if f.hit {
                let d = attack_damage(s, dice)?;
                // C7H-CAN-2: on a successful cancel both damages are rolled.
                let mine = if lc.is_success() {
                    Some(damage_with(&damage_args(&rc, &w, false, variants), dice)?)
                } else {
                    None
                };
                let res = cancel(&C7hCancelArgs {
                    attacker_damage: d.total,
                    canceller_damage: mine.as_ref().map_or(0, |m| m.total),
                    cancellable: aw.cancellable,
                    roll: given(lc),
                })?;
                f.hurt = Some(ti);
                (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[ti], res.damage_taken)?;
                f.damage = Some(d);
                f.cancel = Some(res);
                f.canceller_damage = mine;
            }
        }
        Some(C7hPassiveKind::Counter) => {
            let w = need_rw()?;
            f.hit = la.is_success();
            let mut incoming = 0;
            if f.hit {
                let d = attack_damage(s, dice)?;
                incoming = d.total;
                f.hurt = Some(ti);
                (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[ti], d.total)?;
                f.damage = Some(d);
            }
            // C7H-CTR-2: no counter (and no roll) once the attack has put the defender down.
            let down = !is_up(&s.combatants[ti]);
            let (level, mine) = if down {
                (None, None)
            } else {
                let r = roll(dice, w.skill, bonus, rule)?;
                let l = r.level;
                f.reaction = Some(r);
                let mine = if l.is_success() {
                    Some(damage_with(&damage_args(&rc, &w, l.is_extreme_or_better(), variants), dice)?)
                } else {
                    None
                };
                (Some(l), mine)
            };
            let res = counter(&C7hCounterArgs {
                melee: p.melee,
                incoming_damage: incoming,
                incapacitated: down,
                counter_damage: mine.as_ref().map_or(0, |m| m.total),
                roll: C7hRoll { level, skill: None, settings: Default::default() },
            })?;
            if res.damage_dealt > 0 || mine.is_some() {
                (f.attacker_damage_taken, _) = hurt(&mut s.combatants[ai], res.damage_dealt)?;
            }
            f.returned = mine;
            f.counter = Some(res);
        }
    }
    Ok(event(s, &p, Some(reactor), kind, None, attack, f))
}

pub(crate) fn flip(t: TieTo) -> TieTo {
    match t {
        TieTo::Attacker => TieTo::Defender,
        TieTo::Defender => TieTo::Attacker,
    }
}

/// C7H-AUTO-1 / C7H-AUTO-2: an automatic hit, resolved at once: the roll is still
/// made; every result but a fumble deals the full damage, a fumble half.
pub(crate) fn resolve_auto(
    s: &mut C7hRoundState,
    p: &C7hPending,
    reason: C7hAutoHitReason,
    dice: &mut Dice,
) -> Result<C7hLoggedEvent> {
    let rule = rule_of(0, s.variants.coc7_rule)?;
    let (ai, ti) = (index_of(s, &p.attacker)?, index_of(s, &p.target)?);
    let aw = weapon_of(&s.combatants[ai], Some(&p.weapon))
        .cloned()
        .ok_or_else(|| Error::new(ErrorCode::Internal, "the attack's weapon is gone"))?;
    let attack = roll(dice, aw.skill, p.bonus_dice, rule)?;
    let la = attack.level;
    let d = damage_with(&damage_args(&s.combatants[ai], &aw, la.is_extreme_or_better(), s.variants), dice)?;
    let res = auto_hit(&C7hAutoHitArgs { reason, damage: d.total, roll: given(la) })?;
    let mut f = Found { hit: res.hit, hurt: Some(ti), ..Default::default() };
    (f.damage_taken, f.major_wound) = hurt(&mut s.combatants[ti], res.damage_taken)?;
    f.damage = Some(d);
    f.auto = Some(res);
    Ok(event(s, p, None, None, Some(reason), attack, f))
}

fn event(
    s: &C7hRoundState,
    p: &C7hPending,
    reactor: Option<usize>,
    kind: Option<C7hPassiveKind>,
    auto: Option<C7hAutoHitReason>,
    attack: Coc7Outcome,
    f: Found,
) -> C7hLoggedEvent {
    let by = |i: usize| &s.combatants[i];
    let a = s.combatants.iter().find(|c| c.entry.id == p.attacker);
    let hurt = f.hurt.map(by);
    let reactor_id = reactor.map(|i| by(i).entry.id.clone());
    let text = sentences::attack_resolved(&Exchange {
        attacker: &p.attacker,
        target: &p.target,
        weapon: &p.weapon,
        attack: attack.level,
        reactor: reactor_id.as_deref(),
        kind,
        reaction: f.reaction.as_ref().map(|r| r.level),
        hit: f.hit,
        hurt: hurt.map(|c| c.entry.id.as_str()),
        damage_taken: f.damage_taken,
        hp: hurt.and_then(|c| c.hp),
        status: hurt.map_or(C7hStatus::Active, |c| c.status),
        major_wound: f.major_wound,
        returned: f.returned.as_ref().map(|_| f.attacker_damage_taken),
        attacker_hp: a.and_then(|c| c.hp),
        attacker_status: a.map_or(C7hStatus::Active, |c| c.status),
        auto_hit: auto.is_some(),
    });
    let rule = if auto.is_some() { "C7H-AUTO-2" } else { rule_of_kind(kind) };
    let e = C7hEvent::AttackResolved {
        attacker: p.attacker.clone(),
        target: p.target.clone(),
        weapon: p.weapon.clone(),
        reactor: reactor_id,
        kind,
        auto_hit: auto,
        attack,
        reaction: f.reaction,
        defend_roll: f.defend_roll,
        hit: f.hit,
        damage: f.damage,
        defend: f.defend,
        cover: f.cover,
        cancel: f.cancel,
        counter: f.counter,
        auto: f.auto,
        hurt: hurt.map(|c| c.entry.id.clone()),
        damage_taken: f.damage_taken,
        hp: hurt.and_then(|c| c.hp),
        status: hurt.map_or(C7hStatus::Active, |c| c.status),
        major_wound: f.major_wound,
        returned: f.returned,
        canceller_damage: f.canceller_damage,
        attacker_damage_taken: f.attacker_damage_taken,
        attacker_hp: a.and_then(|c| c.hp),
        attacker_status: a.map_or(C7hStatus::Active, |c| c.status),
    };
    crate::kernel::label::Logged::new(e, rule, text)
}

/// The fight's end: when the combatants have at least two sides and every side but
/// one is down — the side still up (none when every side is down) and the ids down.
pub(crate) fn fight_over(s: &C7hRoundState) -> Option<(Option<String>, Vec<String>)> {
    let mut sides: Vec<&str> = s.combatants.iter().filter_map(|c| c.side.as_deref()).collect();
    crate::small_sort::sort(&mut sides);
    sides.dedup();
    if sides.len() < 2 {
        return None;
    }
    let mut up: Vec<&str> =
        s.combatants.iter().filter(|c| is_up(c)).filter_map(|c| c.side.as_deref()).collect();
    crate::small_sort::sort(&mut up);
    up.dedup();
    if up.len() > 1 {
        return None;
    }
    let down = s.combatants.iter().filter(|c| !is_up(c)).map(|c| c.entry.id.clone()).collect();
    Some((up.first().map(|x| x.to_string()), down))
}
