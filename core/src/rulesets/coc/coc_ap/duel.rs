//! `coc_ap.duel_odds` — the exact odds of a one-on-one action-point fight (COCAP-ACT-2,
//! COCAP-ACT-3, COCAP-RND-3) as an absorbing Markov chain (see `crate::coc::odds`).
//!
//! The fight is the round engine's own (`round_new`'s setup): each round, in the
//! round's order (COCAP-ORD-1), each participant spends its turn attacking the other
//! with its first weapon as often as its AP (COCAP-AP-1) and the weapon's attacks per
//! round allow (COCAP-ACT-2), then ends its turn. An attack whose check succeeds waits
//! for the target's answer: `dodge` (once per round, COCAP-ACT-3; later hits in the
//! round are taken) or `none`. A hit deals the weapon's damage less the armour
//! (COC6-BASE-ARMOR) and the target is down at the pack's threshold (COC6-BASE-HP).
//! Only the target's HP changes during a turn, so a turn is one step of the chain: the
//! exact distribution of the damage of all its attacks (the check odds of the 6th-edition
//! `evaluate`, the damage dice, the armour), and the target is down after the turn exactly
//! when it went down during it. The states are the HP pairs at which both are up. This is
//! the game `round_simulate` plays with the priority policy
//! `["attack", "<reaction>", "no_reaction", "end_turn", "next_round"]` for each.

use super::check::evaluate;
use super::round::{armored, dodge_target, is_down, lose_hp, round_new, CocApRoundNewArgs, CocApRoundState};
use crate::coc::odds::{expr_pmf, merged, run, Pmf, Step, MAX_HP, MAX_ROUNDS};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// A participant's fixed answer to every successful attack on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CocApDuelReaction {
    /// Take every hit (`no_reaction`, default).
    #[default]
    None,
    /// 回避 Dodge the first successful attack of each round (COCAP-ACT-3); take the rest.
    Dodge,
    /// 受け流し Parry (COCAP-ACT-6): refused, `not_implemented`.
    Parry,
    /// 跳躍 Jump (COCAP-ACT-5): refused, `not_implemented` (whether it clears the line of
    /// fire is the KP's).
    Jump,
    /// 緊急回避 Emergency Evasion (COCAP-ACT-7): refused, `not_implemented` (the KP's
    /// line of fire).
    EmergencyEvasion,
}

crate::coc::odds::duel_shapes!(
    CocApDuelOddsArgs,
    CocApDuelOddsResult,
    CocApRoundNewArgs,
    CocApDuelReaction,
    "coc_ap.duel_odds",
    "The fight: `round_new`'s arguments (as `round_simulate`'s `setup`), with exactly two participants on different sides, each with `hp_max` (and up) and a first weapon with `damage`.",
    "Each participant's reaction by id (`none`, `dodge`); one not named takes every hit.",
    "participant"
);

/// The chance that a check against `skill` succeeds (each d100 face through `evaluate`).
fn success(skill: i64, s: &CocApRoundState) -> f64 {
    (1..=100u32).filter(|&r| evaluate(r, skill, s.variants.coc6_rule).success).count() as f64 / 100.0
}

/// The damage of one turn of `s.fighters[a]` attacking `s.fighters[t]`.
fn turn(s: &CocApRoundState, a: usize, t: usize, dodge: bool) -> Result<Pmf> {
    let (af, tf) = (&s.fighters[a], &s.fighters[t]);
    let field = format!("setup.participants[{a}].weapons");
    let w = af.participant.weapons.first().ok_or_else(|| Error::invalid(&field, "a duel needs a weapon"))?;
    let expr = w.damage.as_deref().ok_or_else(|| Error::invalid(&field, "the first weapon has no damage"))?;
    let per_hit = expr_pmf(expr, &field)?.map(|v| armored(&tf.participant, v).1)?;
    let attacks = i64::from(w.attacks_per_round).min(af.ap).max(0);
    let p_hit = success(w.skill, s);
    let p_dodge = if dodge { success(dodge_target(s, tf), s) } else { 0.0 };
    // The damage so far, split by whether the dodge is still to come (`fresh`) or spent
    // (or never taken: `spent`); each weighted by its probability.
    let empty = Pmf { lo: 0, p: vec![0.0] };
    let (mut fresh, mut spent) = if dodge { (Pmf::point(0), empty) } else { (empty, Pmf::point(0)) };
    for _ in 0..attacks {
        let (hit_spent, hit_fresh) = (spent.add(&per_hit, &field)?, fresh.add(&per_hit, &field)?);
        let kept = Pmf::mix(&spent, 1.0 - p_hit, &hit_spent, p_hit);
        let answered = Pmf::mix(&fresh, p_hit * p_dodge, &hit_fresh, p_hit * (1.0 - p_dodge));
        spent = Pmf::mix(&kept, 1.0, &answered, 1.0);
        fresh = Pmf::mix(&fresh, 1.0 - p_hit, &fresh, 0.0);
    }
    Ok(Pmf::mix(&fresh, 1.0, &spent, 1.0))
}

/// `coc_ap.duel_odds` — the exact odds of a one-on-one fight (module docs).
pub fn duel_odds(args: &CocApDuelOddsArgs) -> Result<CocApDuelOddsResult> {
    let max_rounds = args.max_rounds.unwrap_or(100);
    if !(1..=MAX_ROUNDS).contains(&max_rounds) {
        return Err(Error::out_of_range("max_rounds", format_args!("must be 1 to {MAX_ROUNDS}")));
    }
    if args.setup.participants.len() != 2 {
        return Err(Error::invalid("setup.participants", "a duel has exactly two participants"));
    }
    let state = round_new(&args.setup)?.state;
    let mut hp = [0i64; 2];
    for (i, f) in state.fighters.iter().enumerate() {
        let p = &f.participant;
        match p.hp {
            Some(h) if p.hp_max.is_some() && !is_down(p) && h <= MAX_HP => hp[i] = h,
            _ => {
                return Err(Error::out_of_range(
                    format!("setup.participants[{i}].hp"),
                    "a duel needs hp_max and each participant up (COC6-BASE-HP)",
                ))
            }
        }
    }
    let ids: Vec<String> = state.fighters.iter().map(|f| f.participant.id.clone()).collect();
    let sides: Vec<String> = state
        .fighters
        .iter()
        .map(|f| f.participant.side.clone().unwrap_or_else(|| f.participant.id.clone()))
        .collect();
    if sides[0] == sides[1] {
        return Err(Error::invalid("setup.participants[1].side", "a duel is between two sides"));
    }
    if let Some(id) = args.reactions.keys().find(|k| !ids.contains(k)) {
        return Err(Error::invalid(format!("reactions.{id}"), "no such participant"));
    }
    let dodges = |i: usize| -> Result<bool> {
        match args.reactions.get(&ids[i]).copied().unwrap_or_default() {
            CocApDuelReaction::None => Ok(false),
            CocApDuelReaction::Dodge => Ok(true),
            CocApDuelReaction::Parry => Err(Error::not_implemented("COCAP-ACT-6", "duel odds: a parry")),
            CocApDuelReaction::Jump => Err(Error::not_implemented(
                "COCAP-ACT-5",
                "duel odds: a jump (whether it clears the line of fire is the KP's)",
            )),
            CocApDuelReaction::EmergencyEvasion => Err(Error::not_implemented(
                "COCAP-ACT-7",
                "duel odds: an emergency evasion (whether it clears the line of fire is the KP's)",
            )),
        }
    };
    let first = state.order.first().and_then(|id| ids.iter().position(|x| x == id)).unwrap_or(0);
    let round: Vec<Step> = [first, 1 - first]
        .into_iter()
        .map(|a| {
            let d = turn(&state, a, 1 - a, dodges(1 - a)?)?;
            Ok(Step { attacker: a, branches: merged(d.iter().map(|(v, q)| (q, v, 0)).collect()) })
        })
        .collect::<Result<_>>()?;
    let mut hurt = |who: usize, h: i64, amount: i64| -> Result<(i64, bool)> {
        let mut p = state.fighters[who].participant.clone();
        p.hp = Some(h);
        lose_hp(&mut p, amount);
        Ok((p.hp.unwrap_or(0).max(0), is_down(&p)))
    };
    let chain = run(hp, &mut hurt, &round, max_rounds)?;
    let win = (0..2).map(|i| chain.by_round.iter().map(|r| r[i]).sum()).collect();
    Ok(CocApDuelOddsResult {
        ids,
        sides,
        win,
        unfinished: chain.unfinished,
        by_round: chain.by_round.iter().map(|r| r.to_vec()).collect(),
        states: chain.states,
    })
}

#[cfg(test)]
mod tests {
    use crate::coc::odds::check::{agree, battles, simulate};
    use crate::ErrorCode;
    use serde_json::{json, Value};

    fn setup() -> Value {
        json!({"participants": [
            {"id": "ayla", "dex": 14, "side": "pc", "hp_max": 9, "skills": {"dodge": 50},
             "weapons": [{"name": "knife", "skill": 60, "attacks_per_round": 2, "damage": "1d4+2"}]},
            {"id": "ghoul", "dex": 12, "side": "npc", "hp_max": 11, "armor": 1, "skills": {"dodge": 40},
             "weapons": [{"name": "claw", "skill": 45, "attacks_per_round": 3, "damage": "1d6"}]}]})
    }

    /// COCAP-ACT-2, COCAP-ACT-3, COC6-BASE-HP, COC6-BASE-ARMOR: the exact odds agree with
    /// `round_simulate` playing the same fight over `battles()` battles (3·10^4 unless
    /// `GUNBAI_ODDS_BATTLES` says; `agree` states the bounds and the false-failure rate).
    #[test]
    fn exact_odds_agree_with_simulation() {
        let (rounds, n) = (12, battles());
        let reactions = ["none", "dodge"];
        let r = crate::call(
            "coc_ap.duel_odds",
            json!({"setup": setup(), "reactions": {"ayla": reactions[0], "ghoul": reactions[1]},
                   "max_rounds": rounds}),
        )
        .unwrap();
        let policies: Vec<Value> = (0..2)
            .map(|i| {
                let first = if reactions[i] == "dodge" { "dodge" } else { "no_reaction" };
                json!({"ids": [(["ayla", "ghoul"][i])], "priority":
                    ["attack", first, "no_reaction", "end_turn", "next_round"]})
            })
            .collect();
        // At most 2 + 3 attacks and their answers, two turn ends and the next round.
        let s = simulate("coc_ap.round_simulate", &setup(), &policies, rounds, 13, n);
        agree(&format!("{reactions:?}"), &r, &s);
    }

    #[test]
    fn refusals() {
        let call = |extra: Value| {
            let mut args = json!({"setup": setup()});
            for (k, v) in extra.as_object().unwrap() {
                args[k] = v.clone();
            }
            crate::call("coc_ap.duel_odds", args).unwrap_err()
        };
        let e = call(json!({"reactions": {"ghoul": "jump"}}));
        assert_eq!((e.code, e.rule.as_deref()), (ErrorCode::NotImplemented, Some("COCAP-ACT-5")));
        let e = call(json!({"reactions": {"ghoul": "parry"}}));
        assert_eq!((e.code, e.rule.as_deref()), (ErrorCode::NotImplemented, Some("COCAP-ACT-6")));
        let e = call(json!({"reactions": {"nobody": "dodge"}}));
        assert_eq!(e.field.as_deref(), Some("reactions.nobody"));
        let mut s = setup();
        s["participants"][1]["hp"] = json!(2);
        let e = crate::call("coc_ap.duel_odds", json!({"setup": s})).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfRange);
    }
}
