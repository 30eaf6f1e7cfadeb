//! World Trigger commands (`system: world_trigger`). Short, upper-case ASCII,
//! in the spirit of BCDice:
//!
//! * `WTn[Tt][Ee][>=x]` — action check (WT-CHK-3…5): n stat dice, t tactics
//!   dice (WT-TD-3, at most 20), e extra dice (a special attack's LV on a hit
//!   check, WT-DMG-5), target x. `WT7T2>=15`. Dice: stat, tactics, extra d6s.
//! * `WTPn[Tt][Ee]>=x` — the exact chance of that check (WT-CHK-5).
//! * `WDa[Bb][Tt][Sl][±k]` — damage (WT-DMG-1/4/5): Attack a + 1d6, Trion
//!   Burst b (at most min(Trion stat t, 10); without `T` the cap is 10),
//!   special-attack LV l, modifier k. `WD6B3T5S1`. One d6.
//! * `WDTd[B|T|S][[codes]]` — damage-table roll for one hit of d damage
//!   (WT-DT-1…4) on the Border (default), Trion-soldier or Serafiga table of
//!   the bundled sample pack (illustrative), with the conditions already held:
//!   `TS` Trion leak (small), `TL` (large), `DH` dominant hand, `OH`
//!   non-dominant hand, `RL` right leg, `LL` left leg, `EB` bailout.
//!   `WDT10[OH,LL]`. One d6 when a roll is due.
//!
//! Every rule is computed by `crate::world_trigger`.

use crate::chat::catalog::{fmt, msg};
use crate::chat::lex::{hard, perr, Cur, PResult};
use crate::chat::outcome::{faces, signed, Outcome};
use crate::chat::types::{CmdKind, CmdLang};
use crate::dice::{Dice, ScriptedFace};
use crate::world_trigger::check::{check_target, roll_check, WtPool, WtPoolArgs};
use crate::world_trigger::damage::{
    damage, damage_table, roll_damage_table, WtDamageArgs, WtDamageTableArgs, WtDamageTableThreshold,
    WtHitArgs,
};
use crate::world_trigger::data::{load_pack, WtDamageTableSide};
use crate::world_trigger::odds::{success_chance, WtSuccessChanceArgs};
use crate::world_trigger::types::WtCondition;

/// Read `[Tt][Ee]` options after the stat dice.
fn pool_options(cur: &mut Cur) -> PResult<(i64, i64)> {
    let (mut t, mut e) = (None, None);
    loop {
        let slot = match cur.peek() {
            Some('T') if t.is_none() => &mut t,
            Some('E') if e.is_none() => &mut e,
            _ => return Ok((t.unwrap_or(0), e.unwrap_or(0))),
        };
        cur.i += 1;
        *slot = Some(cur.need_number()?);
    }
}

fn to_u32(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

fn pool_text(n: i64, t: i64, e: i64) -> String {
    let mut s = n.to_string();
    if t > 0 {
        s.push_str(&format!("T{t}"));
    }
    if e > 0 {
        s.push_str(&format!("E{e}"));
    }
    s
}

/// Try a World Trigger command.
pub(crate) fn try_wt(
    c: &[char],
    lang: CmdLang,
    dice: &mut Dice,
    threshold: WtDamageTableThreshold,
) -> PResult<Option<Outcome>> {
    let mut cur = Cur::new(c);
    if cur.eat_str("WDT") {
        if cur.at_end() || (cur.letter_next() && !matches!(cur.peek(), Some('B' | 'T' | 'S'))) {
            return Ok(None);
        }
        return damage_table_cmd(&mut cur, lang, dice, threshold).map(Some);
    }
    if cur.eat_str("WD") {
        if cur.letter_next() || cur.at_end() {
            return Ok(None);
        }
        return damage_cmd(&mut cur, lang, dice).map(Some);
    }
    if !cur.eat_str("WT") {
        return Ok(None);
    }
    let odds = cur.eat('P');
    if cur.letter_next() || cur.at_end() {
        return Ok(None);
    }
    let n = cur.need_number()?;
    let (t, e) = pool_options(&mut cur)?;
    let target = if cur.eat_str(">=") {
        match cur.signed()? {
            Some(x) => Some(x),
            None => return perr("expected_number", cur.i),
        }
    } else if odds || !cur.at_end() {
        return perr("expected_ge", cur.i);
    } else {
        None
    };
    cur.end()?;
    let pool = WtPool::new("", to_u32(n), to_u32(t), to_u32(e)).map_err(hard)?;
    check_target("target", target).map_err(hard)?;
    let cmd = format!(
        "WT{}{}{}",
        if odds { "P" } else { "" },
        pool_text(n, t, e),
        target.map(|x| format!(">={x}")).unwrap_or_default()
    );
    if odds {
        let p = success_chance(&WtSuccessChanceArgs {
            pool: WtPoolArgs { dice: pool.stat, tactics_dice: pool.tactics, extra_dice: pool.extra },
            target: target.unwrap_or(0),
        })
        .map_err(hard)?;
        let percent = format!("{:.2}", p.probability * 100.0);
        let text = format!("({cmd}) ＞ {}", fmt(lang, "wt_chance", &[("percent", percent)])?);
        return Ok(Some(Outcome::new(CmdKind::WtOdds, text).result(&p)));
    }
    let r = roll_check(dice, pool, target)?;
    let mut text = format!("({cmd}) ＞ {}{}", r.sum, faces(&r.faces));
    if r.criticals > 0 {
        text.push_str(&format!(
            " ＞ {}+{}{}",
            r.sum,
            r.achievement - r.sum,
            fmt(lang, "wt_critical", &[("count", r.criticals.to_string())])?
        ));
    }
    text.push_str(" ＞ ");
    text.push_str(&fmt(lang, "wt_achievement", &[("value", r.achievement.to_string())])?);
    if let Some(s) = r.success {
        text.push_str(" ＞ ");
        text.push_str(msg(lang, if s { "wt_success" } else { "wt_failure" })?);
    }
    Ok(Some(
        Outcome::new(CmdKind::WtCheck, text)
            .total(r.achievement)
            .success(r.success)
            .flags(r.criticals > 0, false)
            .result(&r),
    ))
}

fn damage_cmd(cur: &mut Cur, lang: CmdLang, dice: &mut Dice) -> PResult<Outcome> {
    let attack = cur.need_number()?;
    let (mut b, mut t, mut s) = (None, None, None);
    loop {
        let slot = match cur.peek() {
            Some('B') if b.is_none() => &mut b,
            Some('T') if t.is_none() => &mut t,
            Some('S') if s.is_none() => &mut s,
            _ => break,
        };
        cur.i += 1;
        *slot = Some(cur.need_number()?);
    }
    let modifier = cur.signed()?.unwrap_or(0);
    cur.end()?;
    let mut args = WtDamageArgs {
        hit: WtHitArgs {
            attack,
            burst: b.unwrap_or(0),
            trion_stat: t.unwrap_or(crate::world_trigger::damage::MAX_BURST),
            special_attack_lv: to_u32(s.unwrap_or(0)),
            modifier,
            ..Default::default()
        },
        source: crate::dice::DiceArgs { rolls: Some(vec![ScriptedFace::Face(1)]), ..Default::default() },
        ..Default::default()
    };
    // Validate with a dry run before any die is rolled, then roll our d6.
    damage(&args).map_err(hard)?;
    let die = dice.roll(6)?;
    args.source.rolls = Some(vec![ScriptedFace::Face(i64::from(die))]);
    let r = damage(&args).map_err(hard)?;
    let mut cmd = format!("WD{attack}");
    let mut parts = format!("{attack}+{die}[{die}]");
    if let Some(b) = b {
        cmd.push_str(&format!("B{b}"));
        if b > 0 {
            parts.push_str(&format!("+{b}"));
        }
    }
    if let Some(t) = t {
        cmd.push_str(&format!("T{t}"));
    }
    if let Some(s) = s {
        cmd.push_str(&format!("S{s}"));
    }
    if r.special_attack > 0 {
        parts.push_str(&format!("+{}", r.special_attack));
    }
    cmd.push_str(&signed(modifier));
    parts.push_str(&signed(modifier));
    let text =
        format!("({cmd}) ＞ {parts} ＞ {}", fmt(lang, "wt_damage", &[("value", r.total.to_string())])?);
    Ok(Outcome::new(CmdKind::WtDamage, text).total(r.total).result(&r))
}

fn condition(code: &str) -> Option<WtCondition> {
    Some(match code {
        "TS" => WtCondition::TrionLeakSmall,
        "TL" => WtCondition::TrionLeakLarge,
        "DH" => WtCondition::LostDominantHand,
        "OH" => WtCondition::LostOffHand,
        "RL" => WtCondition::LostRightLeg,
        "LL" => WtCondition::LostLeftLeg,
        "EB" => WtCondition::EmergencyBailout,
        _ => return None,
    })
}

fn damage_table_cmd(
    cur: &mut Cur,
    lang: CmdLang,
    dice: &mut Dice,
    threshold: WtDamageTableThreshold,
) -> PResult<Outcome> {
    let dmg = cur.need_number()?;
    let side = match cur.peek() {
        Some('B') => WtDamageTableSide::Border,
        Some('T') => WtDamageTableSide::TrionSoldier,
        Some('S') => WtDamageTableSide::Serafiga,
        _ => WtDamageTableSide::Border,
    };
    let side_letter = match cur.peek() {
        Some(l @ ('B' | 'T' | 'S')) => {
            cur.i += 1;
            l.to_string()
        }
        _ => String::new(),
    };
    let mut held = Vec::new();
    let mut codes = Vec::new();
    if cur.eat('[') {
        loop {
            let at = cur.i;
            let code: String = [cur.peek(), cur.peek_at(1)].iter().flatten().collect();
            match condition(&code) {
                Some(cnd) if code.len() == 2 => {
                    cur.i += 2;
                    held.push(cnd);
                    codes.push(code);
                }
                _ => return perr("unknown_condition", at),
            }
            if cur.eat(']') {
                break;
            }
            if !cur.eat(',') {
                return perr("expected_close_bracket", cur.i);
            }
        }
    }
    cur.end()?;
    let args = WtDamageTableArgs {
        damage: dmg,
        table: side,
        conditions: held.clone(),
        variants: crate::world_trigger::types::WtVariants {
            damage_table_threshold: threshold,
            ..Default::default()
        },
        source: crate::dice::DiceArgs { rolls: Some(vec![ScriptedFace::Face(1)]), ..Default::default() },
        ..Default::default()
    };
    damage_table(&args).map_err(hard)?; // validation only
    let pack = load_pack(None).map_err(hard)?;
    let r = roll_damage_table(dice, pack.damage_tables.side(side), dmg, &held, threshold)?;
    let held_text = if codes.is_empty() { String::new() } else { format!("[{}]", codes.join(",")) };
    let cmd = format!("WDT{dmg}{side_letter}{held_text}");
    let text = match (r.tier, r.roll, r.row, &r.label) {
        (Some(tier), Some(roll), Some(row), Some(label)) => {
            let rows = if roll == row { roll.to_string() } else { format!("{roll}→{row}") };
            let name = match lang {
                CmdLang::Ja => &label.ja,
                CmdLang::ZhHans => &label.zh_hans,
                CmdLang::ZhHant => &label.zh_hant,
                CmdLang::En | CmdLang::Ko => &label.en,
            };
            format!(
                "({cmd}) ＞ {} ＞ {name}",
                fmt(lang, "wt_table", &[("tier", tier.to_string()), ("row", rows)])?
            )
        }
        _ => format!("({cmd}) ＞ {}", msg(lang, "wt_table_none")?),
    };
    let mut out = Outcome::new(CmdKind::WtDamageTable, text);
    if let Some(row) = r.row {
        out = out.total(i64::from(row));
    }
    Ok(out.result(&r))
}

/// World Trigger's reply texts (`core/data/command/messages/world_trigger.json`).
pub(crate) const MESSAGES: &[crate::chat::catalog::Entry] =
    include!(concat!(env!("OUT_DIR"), "/messages/world_trigger.rs"));

/// The help of `command.help`: (syntax, catalog key of the summary, examples).
pub(crate) const HELP: &[crate::chat::help::Entry] = &[
    ("WTn[Tt][Ee][>=x]", "help_wt_check", &["WT7", "WT7T2>=15", "WT5E1>=10"]),
    ("WTPn[Tt][Ee]>=x", "help_wt_odds", &["WTP6>=20"]),
    ("WDa[Bb][Tt][Sl][+k]", "help_wt_damage", &["WD6", "WD6B3T5S1", "WD4-1"]),
    ("WDTd[B|T|S][[codes]]", "help_wt_table", &["WDT12", "WDT10[OH,LL]", "WDT25S"]),
];
