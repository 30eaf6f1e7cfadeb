//! The sentences of the `coc_ap` round's events: each event gets its `rule` (the rule
//! ID that produced it) and a `text` holding one full sentence in ja / zh_hans /
//! zh_hant / en that states the outcome (who did what to whom, the check's roll,
//! target and success level, hit or miss, damage taken, HP left). The Japanese terms
//! are the seed's (回避, 受け流し, 跳躍, 緊急回避, 回避集中, 治療); the check's level
//! names are BCDice's (`coc_ap.check`'s `label`).

use super::check::CocApCheckResult;
use super::pack::pack;
use super::round::{CocApEvent, CocApTreatSkill};
use crate::kernel::label::WtLabel;

fn l4(ja: String, zh_hans: String, zh_hant: String, en: String) -> WtLabel {
    WtLabel { ja, zh_hans, zh_hant, en }
}

/// `roll/target level` in each language.
fn chk(c: &CocApCheckResult) -> [String; 4] {
    [
        format!("{}/{} {}", c.roll, c.skill, c.label.ja),
        format!("{}/{} {}", c.roll, c.skill, c.label.zh_hans),
        format!("{}/{} {}", c.roll, c.skill, c.label.zh_hant),
        format!("{} vs {}, {}", c.roll, c.skill, c.label.en),
    ]
}

fn ap_left(n: i64) -> [String; 4] {
    [
        format!("（残りAP {n}）"),
        format!("（剩余AP {n}）"),
        format!("（剩餘AP {n}）"),
        format!(" ({n} AP left)"),
    ]
}

fn sq(p: [i64; 2]) -> String {
    format!("({}, {})", p[0], p[1])
}

fn hp_of(hp: Option<i64>, hp_max: Option<i64>) -> Option<String> {
    Some(format!("{}/{}", hp?, hp_max?))
}

fn skill_name(s: CocApTreatSkill) -> [&'static str; 4] {
    match s {
        CocApTreatSkill::FirstAid => ["〈応急手当〉", "〈急救〉", "〈急救〉", "First Aid"],
        CocApTreatSkill::Medicine => ["〈医学〉", "〈医学〉", "〈醫學〉", "Medicine"],
        CocApTreatSkill::Psychoanalysis => ["〈精神分析〉", "〈精神分析〉", "〈精神分析〉", "Psychoanalysis"],
    }
}

/// A reaction's sentence: `who` answered `attacker`'s attack with `name` (4 languages),
/// the check, then what came of it (4 languages).
fn reaction(who: &str, attacker: &str, name: [&str; 4], c: &CocApCheckResult, then: [String; 4]) -> WtLabel {
    let k = chk(c);
    let [t0, t1, t2, t3] = then;
    l4(
        format!("{who}は{attacker}の攻撃に{}：{}。{t0}", name[0], k[0]),
        format!("{who}以{}应对{attacker}的攻击：{}。{t1}", name[1], k[1]),
        format!("{who}以{}應對{attacker}的攻擊：{}。{t2}", name[2], k[2]),
        format!("{who} answers {attacker}'s attack with {}: {}; {t3}", name[3], k[3]),
    )
}

/// The outcome of a move-away reaction (Jump, Emergency Evasion).
fn moved_away(moved_to: Option<[i64; 2]>, avoided: bool) -> [String; 4] {
    match (moved_to, avoided) {
        (Some(p), true) => [
            format!("{}へ移動し、攻撃を回避した。", sq(p)),
            format!("移动到{}，躲开了攻击。", sq(p)),
            format!("移動到{}，躲開了攻擊。", sq(p)),
            format!("moves to {} and avoids the attack.", sq(p)),
        ],
        (Some(p), false) => [
            format!("{}へ移動したが、攻撃は避けられなかった。", sq(p)),
            format!("移动到{}，但没能躲开攻击。", sq(p)),
            format!("移動到{}，但沒能躲開攻擊。", sq(p)),
            format!("moves to {} but does not avoid the attack.", sq(p)),
        ],
        (None, _) => [
            "失敗し、その場に留まった。".into(),
            "失败，留在原地。".into(),
            "失敗，留在原地。".into(),
            "fails and stays put.".into(),
        ],
    }
}

fn avoided_or_not(avoided: bool, yes: [&str; 4], no: [&str; 4]) -> [String; 4] {
    let w = if avoided { yes } else { no };
    w.map(str::to_string)
}

/// Set `rule` and `text` of an event from its own fields.
pub(crate) fn annotate(e: &mut CocApEvent) {
    let (r, t) = sentence(e);
    match e {
        CocApEvent::RoundStarted { rule, text, .. }
        | CocApEvent::DodgeFocusDeclared { rule, text, .. }
        | CocApEvent::Moved { rule, text, .. }
        | CocApEvent::Attacked { rule, text, .. }
        | CocApEvent::Treated { rule, text, .. }
        | CocApEvent::OtherTaken { rule, text, .. }
        | CocApEvent::Dodged { rule, text, .. }
        | CocApEvent::Parried { rule, text, .. }
        | CocApEvent::Jumped { rule, text, .. }
        | CocApEvent::EmergencyEvaded { rule, text, .. }
        | CocApEvent::NoReaction { rule, text, .. }
        | CocApEvent::Damaged { rule, text, .. }
        | CocApEvent::Down { rule, text, .. }
        | CocApEvent::TurnEnded { rule, text, .. }
        | CocApEvent::FightEnded { rule, text, .. } => {
            *rule = r;
            *text = t;
        }
    }
}

/// The fight's end (COCAP-RND-3).
pub(crate) fn fight_ended(winner: Option<&str>, down: &[String]) -> WtLabel {
    let d = down.join("、");
    let de = down.join(", ");
    match winner {
        Some(w) => l4(
            format!("戦闘終了：{w}側の勝利（行動不能：{d}）。"),
            format!("战斗结束：{w}方获胜（无法行动：{d}）。"),
            format!("戰鬥結束：{w}方獲勝（無法行動：{d}）。"),
            format!("The fight is over: side {w} wins (down: {de})."),
        ),
        None => l4(
            format!("戦闘終了：立っている者はいない（行動不能：{d}）。"),
            format!("战斗结束：无人站立（无法行动：{d}）。"),
            format!("戰鬥結束：無人站立（無法行動：{d}）。"),
            format!("The fight is over: nobody is left standing (down: {de})."),
        ),
    }
}

fn sentence(e: &CocApEvent) -> (String, WtLabel) {
    let (rule, text) = match e {
        CocApEvent::RoundStarted { round, order, .. } => (
            "COCAP-RND-1",
            l4(
                format!("第{round}ラウンド開始。行動順：{}。", order.join("→")),
                format!("第{round}轮开始。行动顺序：{}。", order.join("→")),
                format!("第{round}輪開始。行動順序：{}。", order.join("→")),
                format!("Round {round} begins; action order: {}.", order.join(", ")),
            ),
        ),
        CocApEvent::DodgeFocusDeclared { actor, ap_left: n, .. } => {
            let a = ap_left(*n);
            (
                "COCAP-ACT-8",
                l4(
                    format!("{actor}は回避集中を宣言した{}。", a[0]),
                    format!("{actor}宣言专注闪避{}。", a[1]),
                    format!("{actor}宣言專注閃避{}。", a[2]),
                    format!("{actor} declares Dodge Focus{}.", a[3]),
                ),
            )
        }
        CocApEvent::Moved { actor, moved_to, ap_left: n, .. } => {
            let a = ap_left(*n);
            let p = sq(*moved_to);
            (
                "COCAP-ACT-1",
                l4(
                    format!("{actor}は{p}へ移動した{}。", a[0]),
                    format!("{actor}移动到{p}{}。", a[1]),
                    format!("{actor}移動到{p}{}。", a[2]),
                    format!("{actor} moves to {p}{}.", a[3]),
                ),
            )
        }
        CocApEvent::Attacked { actor, weapon, target, check, hit, ap_left: n, .. } => {
            let k = chk(check);
            let a = ap_left(*n);
            let then = if *hit {
                [
                    format!("命中、{target}の対応待ち"),
                    format!("命中，等待{target}应对"),
                    format!("命中，等待{target}應對"),
                    format!("a hit, {target} must answer"),
                ]
            } else {
                ["外れ".into(), "未命中".into(), "未命中".into(), "a miss".into()]
            };
            (
                "COCAP-ACT-2",
                l4(
                    format!("{actor}は{weapon}で{target}を攻撃：{}。{}{}。", k[0], then[0], a[0]),
                    format!("{actor}用{weapon}攻击{target}：{}。{}{}。", k[1], then[1], a[1]),
                    format!("{actor}用{weapon}攻擊{target}：{}。{}{}。", k[2], then[2], a[2]),
                    format!("{actor} attacks {target} with {weapon}: {}: {}{}.", k[3], then[3], a[3]),
                ),
            )
        }
        CocApEvent::Treated { actor, target, skill, check, healed, hp, hp_max, ap_left: n, .. } => {
            let k = chk(check);
            let s = skill_name(*skill);
            let now = hp_of(*hp, *hp_max);
            let then = if *healed > 0 {
                match &now {
                    Some(h) => [
                        format!("{target}のHPが{healed}回復し、{h}。"),
                        format!("{target}恢复{healed}点HP，现为{h}。"),
                        format!("{target}恢復{healed}點HP，現為{h}。"),
                        format!("{target} regains {healed} HP, now {h}."),
                    ],
                    None => [
                        format!("{target}のHPが{healed}回復した。"),
                        format!("{target}恢复{healed}点HP。"),
                        format!("{target}恢復{healed}點HP。"),
                        format!("{target} regains {healed} HP."),
                    ],
                }
            } else {
                let h = now.unwrap_or_else(|| "-".into());
                [
                    format!("HPは回復しない（{target}のHP {h}）。"),
                    format!("HP未恢复（{target}的HP {h}）。"),
                    format!("HP未恢復（{target}的HP {h}）。"),
                    format!("no HP restored ({target}'s HP {h})."),
                ]
            };
            let a = ap_left(*n);
            (
                "COCAP-ACT-4",
                l4(
                    format!("{actor}は{target}に{}で治療{}：{}。{}", s[0], a[0], k[0], then[0]),
                    format!("{actor}以{}治疗{target}{}：{}。{}", s[1], a[1], k[1], then[1]),
                    format!("{actor}以{}治療{target}{}：{}。{}", s[2], a[2], k[2], then[2]),
                    format!("{actor} treats {target} with {}{}: {}: {}", s[3], a[3], k[3], then[3]),
                ),
            )
        }
        CocApEvent::OtherTaken { actor, ap, ap_left: n, .. } => {
            let a = ap_left(*n);
            (
                "COCAP-AP-2",
                l4(
                    format!("{actor}はKP裁可の行動にAPを{ap}使った{}。", a[0]),
                    format!("{actor}为KP许可的行动消耗{ap}点AP{}。", a[1]),
                    format!("{actor}為KP許可的行動消耗{ap}點AP{}。", a[2]),
                    format!("{actor} spends {ap} AP on a KP-approved action{}.", a[3]),
                ),
            )
        }
        CocApEvent::Dodged { actor, attacker, check, avoided, .. } => (
            "COCAP-ACT-3",
            reaction(
                actor,
                attacker,
                ["〈回避〉", "闪避", "閃避", "a dodge"],
                check,
                avoided_or_not(
                    *avoided,
                    ["攻撃を回避した。", "躲开了攻击。", "躲開了攻擊。", "the attack is avoided."],
                    ["回避できなかった。", "没能躲开。", "沒能躲開。", "the attack is not avoided."],
                ),
            ),
        ),
        CocApEvent::Parried { actor, attacker, weapon, check, avoided, .. } => {
            let w = weapon.as_deref().unwrap_or("");
            let name = if w.is_empty() {
                ["受け流し".to_string(), "招架".to_string(), "招架".to_string(), "a parry".to_string()]
            } else {
                [
                    format!("{w}での受け流し"),
                    format!("{w}招架"),
                    format!("{w}招架"),
                    format!("a parry with {w}"),
                ]
            };
            (
                "COCAP-ACT-6",
                reaction(
                    actor,
                    attacker,
                    [&name[0], &name[1], &name[2], &name[3]],
                    check,
                    avoided_or_not(
                        *avoided,
                        ["攻撃を受け流した。", "挡下了攻击。", "擋下了攻擊。", "the attack is stopped."],
                        ["受け流せなかった。", "没能挡下。", "沒能擋下。", "the attack is not stopped."],
                    ),
                ),
            )
        }
        CocApEvent::Jumped { actor, attacker, check, moved_to, avoided, .. } => (
            "COCAP-ACT-5",
            reaction(
                actor,
                attacker,
                ["〈跳躍〉", "跳跃", "跳躍", "a jump"],
                check,
                moved_away(*moved_to, *avoided),
            ),
        ),
        CocApEvent::EmergencyEvaded { actor, attacker, check, moved_to, avoided, .. } => (
            "COCAP-ACT-7",
            reaction(
                actor,
                attacker,
                ["緊急回避", "紧急闪避", "緊急閃避", "an Emergency Evasion"],
                check,
                moved_away(*moved_to, *avoided),
            ),
        ),
        CocApEvent::NoReaction { actor, attacker, .. } => (
            "COCAP-ACT-2",
            l4(
                format!("{actor}は{attacker}の攻撃に対応せず、そのまま受ける。"),
                format!("{actor}不应对{attacker}的攻击，直接承受。"),
                format!("{actor}不應對{attacker}的攻擊，直接承受。"),
                format!("{actor} does not react to {attacker}'s attack and takes the hit."),
            ),
        ),
        CocApEvent::Damaged { target, attacker, weapon, rolled, armor, damage, hp, hp_max, .. } => {
            let h = hp_of(*hp, *hp_max);
            let left = match &h {
                Some(h) => [
                    format!("残りHP {h}"),
                    format!("剩余HP {h}"),
                    format!("剩餘HP {h}"),
                    format!("HP {h} left"),
                ],
                None => {
                    ["HPは記録なし".into(), "HP未记录".into(), "HP未記錄".into(), "HP not tracked".into()]
                }
            };
            (
                "COCAP-ACT-2",
                l4(
                    format!(
                        "{target}は{attacker}の{weapon}で{damage}ダメージを受けた（ダイス{rolled}、装甲{armor}）。{}。",
                        left[0]
                    ),
                    format!(
                        "{target}受到{attacker}的{weapon}造成的{damage}点伤害（骰出{rolled}，护甲{armor}）。{}。",
                        left[1]
                    ),
                    format!(
                        "{target}受到{attacker}的{weapon}造成的{damage}點傷害（骰出{rolled}，護甲{armor}）。{}。",
                        left[2]
                    ),
                    format!(
                        "{target} takes {damage} damage from {attacker}'s {weapon} (rolled {rolled}, armor {armor}); {}.",
                        left[3]
                    ),
                ),
            )
        }
        CocApEvent::Down { actor, hp, dead, .. } => (
            hp_rule(),
            if *dead {
                l4(
                    format!("{actor}はHP {hp}で死亡した。"),
                    format!("{actor}在HP {hp}时死亡。"),
                    format!("{actor}在HP {hp}時死亡。"),
                    format!("{actor} dies at {hp} HP."),
                )
            } else {
                l4(
                    format!("{actor}はHP {hp}で気絶し、行動できない。"),
                    format!("{actor}在HP {hp}时昏迷，无法行动。"),
                    format!("{actor}在HP {hp}時昏迷，無法行動。"),
                    format!("{actor} falls unconscious at {hp} HP and cannot act."),
                )
            },
        ),
        CocApEvent::TurnEnded { actor, next, skipped, .. } => {
            let sk = if skipped.is_empty() {
                [String::new(), String::new(), String::new(), String::new()]
            } else {
                [
                    format!("（行動不能の{}は飛ばす）", skipped.join("、")),
                    format!("（跳过无法行动的{}）", skipped.join("、")),
                    format!("（跳過無法行動的{}）", skipped.join("、")),
                    format!(" ({} down, passed over)", skipped.join(", ")),
                ]
            };
            let t = match next {
                Some(n) => l4(
                    format!("{actor}の手番終了。次は{n}{}。", sk[0]),
                    format!("{actor}的回合结束。下一位：{n}{}。", sk[1]),
                    format!("{actor}的回合結束。下一位：{n}{}。", sk[2]),
                    format!("{actor} ends their turn; next: {n}{}.", sk[3]),
                ),
                None => l4(
                    format!("{actor}の手番終了。全員の手番が終わった{}。", sk[0]),
                    format!("{actor}的回合结束。本轮所有人的回合都已结束{}。", sk[1]),
                    format!("{actor}的回合結束。本輪所有人的回合都已結束{}。", sk[2]),
                    format!("{actor} ends their turn; every turn of the round is over{}.", sk[3]),
                ),
            };
            ("COCAP-RND-2", t)
        }
        CocApEvent::FightEnded { winner, down, .. } => ("COCAP-RND-3", fight_ended(winner.as_deref(), down)),
    };
    (rule.to_string(), text)
}

/// The HP rule of the pack (the `Down` event's and a down actor's refusal's rule).
pub(crate) fn hp_rule() -> &'static str {
    &pack().hp.rule
}
