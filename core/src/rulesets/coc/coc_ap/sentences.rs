//! The sentences of the `coc_ap` round's events: each event gets its `rule` (the rule
//! ID that produced it) and a `text` holding one full sentence in ja / zh_hans /
//! zh_hant / en that states the outcome (who did what to whom, the check's roll,
//! target and success level, hit or miss, damage taken, HP left). The Japanese terms
//! are the seed's (回避, 受け流し, 跳躍, 緊急回避, 回避集中, 治療); the check's level
//! names are BCDice's (`coc_ap.check`'s `label`).

use super::check::CocApCheckResult;
use super::pack::pack;
use super::round::{CocApEvent, CocApLoggedEvent, CocApTreatSkill};
use crate::coc7::check::Coc7Labels;
use crate::kernel::label::{fill, pick4, Joined, Part, Say, Tpl, WtLabel, NOTHING};

impl Say for Coc7Labels {
    fn say(&self, lang: usize, out: &mut String) {
        out.push_str(pick4([&self.ja, &self.zh_hans, &self.zh_hant, &self.en], lang))
    }
}

/// `roll/target level`: {0} roll, {1} target, {2} level.
const CHECK: Tpl = ["{0}/{1} {2}", "{0}/{1} {2}", "{0}/{1} {2}", "{0} vs {1}, {2}"];
const AP_LEFT: Tpl = ["（残りAP {0}）", "（剩余AP {0}）", "（剩餘AP {0}）", " ({0} AP left)"];
const SQUARE: Tpl = ["({0}, {1})", "({0}, {1})", "({0}, {1})", "({0}, {1})"];
const HP_OF: Tpl = ["{0}/{1}", "{0}/{1}", "{0}/{1}", "{0}/{1}"];
const LIST: Tpl = ["、", "、", "、", ", "];
const ARROWS: Tpl = ["→", "→", "→", ", "];

fn skill_name(s: CocApTreatSkill) -> &'static Tpl {
    match s {
        CocApTreatSkill::FirstAid => &["〈応急手当〉", "〈急救〉", "〈急救〉", "First Aid"],
        CocApTreatSkill::Medicine => &["〈医学〉", "〈医学〉", "〈醫學〉", "Medicine"],
        CocApTreatSkill::Psychoanalysis => {
            &["〈精神分析〉", "〈精神分析〉", "〈精神分析〉", "Psychoanalysis"]
        }
    }
}

/// A reaction's sentence: {0} who answered {1} attacker's attack with {2} name, {3} the
/// check, then {4} what came of it.
const REACTION: Tpl = [
    "{0}は{1}の攻撃に{2}：{3}。{4}",
    "{0}以{2}应对{1}的攻击：{3}。{4}",
    "{0}以{2}應對{1}的攻擊：{3}。{4}",
    "{0} answers {1}'s attack with {2}: {3}; {4}",
];

fn reaction(e: (&str, &str), name: &dyn Say, c: &CocApCheckResult, then: &dyn Say) -> WtLabel {
    let (who, attacker) = e;
    fill(&REACTION, &[&who, &attacker, name, &Part(&CHECK, &[&c.roll, &c.skill, &c.label]), then])
}

/// The outcome of a move-away reaction (Jump, Emergency Evasion).
fn moved_away(moved_to: Option<[i64; 2]>, avoided: bool, then: impl FnOnce(&dyn Say) -> WtLabel) -> WtLabel {
    match (moved_to, avoided) {
        (Some(p), true) => then(&Part(
            &[
                "{0}へ移動し、攻撃を回避した。",
                "移动到{0}，躲开了攻击。",
                "移動到{0}，躲開了攻擊。",
                "moves to {0} and avoids the attack.",
            ],
            &[&Part(&SQUARE, &[&p[0], &p[1]])],
        )),
        (Some(p), false) => then(&Part(
            &[
                "{0}へ移動したが、攻撃は避けられなかった。",
                "移动到{0}，但没能躲开攻击。",
                "移動到{0}，但沒能躲開攻擊。",
                "moves to {0} but does not avoid the attack.",
            ],
            &[&Part(&SQUARE, &[&p[0], &p[1]])],
        )),
        (None, _) => then(&[
            "失敗し、その場に留まった。",
            "失败，留在原地。",
            "失敗，留在原地。",
            "fails and stays put.",
        ]),
    }
}

/// The events as reported: each with the rule that produced it and its sentence.
pub(crate) fn logged(events: Vec<CocApEvent>) -> Vec<CocApLoggedEvent> {
    events
        .into_iter()
        .map(|event| {
            let (rule, text) = sentence(&event);
            CocApLoggedEvent { event, rule, text }
        })
        .collect()
}

/// The fight's end (COCAP-RND-3).
pub(crate) fn fight_ended(winner: Option<&str>, down: &[String]) -> WtLabel {
    let d = Joined(down, &LIST);
    match winner {
        Some(w) => fill(
            &[
                "戦闘終了：{0}側の勝利（行動不能：{1}）。",
                "战斗结束：{0}方获胜（无法行动：{1}）。",
                "戰鬥結束：{0}方獲勝（無法行動：{1}）。",
                "The fight is over: side {0} wins (down: {1}).",
            ],
            &[&w, &d],
        ),
        None => fill(
            &[
                "戦闘終了：立っている者はいない（行動不能：{0}）。",
                "战斗结束：无人站立（无法行动：{0}）。",
                "戰鬥結束：無人站立（無法行動：{0}）。",
                "The fight is over: nobody is left standing (down: {0}).",
            ],
            &[&d],
        ),
    }
}

fn sentence(e: &CocApEvent) -> (String, WtLabel) {
    let (rule, text) = match e {
        CocApEvent::RoundStarted { round, order, .. } => (
            "COCAP-RND-1",
            fill(
                &[
                    "第{0}ラウンド開始。行動順：{1}。",
                    "第{0}轮开始。行动顺序：{1}。",
                    "第{0}輪開始。行動順序：{1}。",
                    "Round {0} begins; action order: {1}.",
                ],
                &[round, &Joined(order, &ARROWS)],
            ),
        ),
        CocApEvent::DodgeFocusDeclared { actor, ap_left: n, .. } => (
            "COCAP-ACT-8",
            fill(
                &[
                    "{0}は回避集中を宣言した{1}。",
                    "{0}宣言专注闪避{1}。",
                    "{0}宣言專注閃避{1}。",
                    "{0} declares Dodge Focus{1}.",
                ],
                &[actor, &Part(&AP_LEFT, &[n])],
            ),
        ),
        CocApEvent::Moved { actor, moved_to, ap_left: n, .. } => (
            "COCAP-ACT-1",
            fill(
                &[
                    "{0}は{1}へ移動した{2}。",
                    "{0}移动到{1}{2}。",
                    "{0}移動到{1}{2}。",
                    "{0} moves to {1}{2}.",
                ],
                &[actor, &Part(&SQUARE, &[&moved_to[0], &moved_to[1]]), &Part(&AP_LEFT, &[n])],
            ),
        ),
        CocApEvent::Attacked { actor, weapon, target, check, hit, ap_left: n, .. } => {
            let then = if *hit {
                Part(
                    &[
                        "命中、{0}の対応待ち",
                        "命中，等待{0}应对",
                        "命中，等待{0}應對",
                        "a hit, {0} must answer",
                    ],
                    &[target],
                )
            } else {
                Part(&["外れ", "未命中", "未命中", "a miss"], &[])
            };
            (
                "COCAP-ACT-2",
                fill(
                    &[
                        "{0}は{1}で{2}を攻撃：{3}。{4}{5}。",
                        "{0}用{1}攻击{2}：{3}。{4}{5}。",
                        "{0}用{1}攻擊{2}：{3}。{4}{5}。",
                        "{0} attacks {2} with {1}: {3}: {4}{5}.",
                    ],
                    &[
                        actor,
                        weapon,
                        target,
                        &Part(&CHECK, &[&check.roll, &check.skill, &check.label]),
                        &then,
                        &Part(&AP_LEFT, &[n]),
                    ],
                ),
            )
        }
        CocApEvent::Treated { actor, target, skill, check, healed, hp, hp_max, ap_left: n, .. } => {
            let now = hp.zip(*hp_max);
            let now_args: [&dyn Say; 2] = match &now {
                Some((h, m)) => [h, m],
                None => [&"-", &""],
            };
            let now_text: Part = match now {
                Some(_) => Part(&HP_OF, &now_args),
                None => Part(&["-", "-", "-", "-"], &[]),
            };
            let then = if *healed > 0 {
                match now {
                    Some(_) => Part(
                        &[
                            "{0}のHPが{1}回復し、{2}。",
                            "{0}恢复{1}点HP，现为{2}。",
                            "{0}恢復{1}點HP，現為{2}。",
                            "{0} regains {1} HP, now {2}.",
                        ],
                        &[target, healed, &now_text],
                    ),
                    None => Part(
                        &[
                            "{0}のHPが{1}回復した。",
                            "{0}恢复{1}点HP。",
                            "{0}恢復{1}點HP。",
                            "{0} regains {1} HP.",
                        ],
                        &[target, healed],
                    ),
                }
            } else {
                Part(
                    &[
                        "HPは回復しない（{0}のHP {1}）。",
                        "HP未恢复（{0}的HP {1}）。",
                        "HP未恢復（{0}的HP {1}）。",
                        "no HP restored ({0}'s HP {1}).",
                    ],
                    &[target, &now_text],
                )
            };
            (
                "COCAP-ACT-4",
                fill(
                    &[
                        "{0}は{1}に{2}で治療{3}：{4}。{5}",
                        "{0}以{2}治疗{1}{3}：{4}。{5}",
                        "{0}以{2}治療{1}{3}：{4}。{5}",
                        "{0} treats {1} with {2}{3}: {4}: {5}",
                    ],
                    &[
                        actor,
                        target,
                        skill_name(*skill),
                        &Part(&AP_LEFT, &[n]),
                        &Part(&CHECK, &[&check.roll, &check.skill, &check.label]),
                        &then,
                    ],
                ),
            )
        }
        CocApEvent::OtherTaken { actor, ap, ap_left: n, .. } => (
            "COCAP-AP-2",
            fill(
                &[
                    "{0}はKP裁可の行動にAPを{1}使った{2}。",
                    "{0}为KP许可的行动消耗{1}点AP{2}。",
                    "{0}為KP許可的行動消耗{1}點AP{2}。",
                    "{0} spends {1} AP on a KP-approved action{2}.",
                ],
                &[actor, ap, &Part(&AP_LEFT, &[n])],
            ),
        ),
        CocApEvent::Dodged { actor, attacker, check, avoided, .. } => (
            "COCAP-ACT-3",
            reaction(
                (actor, attacker),
                &["〈回避〉", "闪避", "閃避", "a dodge"],
                check,
                if *avoided {
                    &["攻撃を回避した。", "躲开了攻击。", "躲開了攻擊。", "the attack is avoided."]
                } else {
                    &["回避できなかった。", "没能躲开。", "沒能躲開。", "the attack is not avoided."]
                },
            ),
        ),
        CocApEvent::Parried { actor, attacker, weapon, check, avoided, .. } => {
            let w = weapon.as_deref().unwrap_or("");
            let name = if w.is_empty() {
                Part(&["受け流し", "招架", "招架", "a parry"], &[])
            } else {
                Part(&["{0}での受け流し", "{0}招架", "{0}招架", "a parry with {0}"], &[&w])
            };
            (
                "COCAP-ACT-6",
                reaction(
                    (actor, attacker),
                    &name,
                    check,
                    if *avoided {
                        &["攻撃を受け流した。", "挡下了攻击。", "擋下了攻擊。", "the attack is stopped."]
                    } else {
                        &["受け流せなかった。", "没能挡下。", "沒能擋下。", "the attack is not stopped."]
                    },
                ),
            )
        }
        CocApEvent::Jumped { actor, attacker, check, moved_to, avoided, .. } => (
            "COCAP-ACT-5",
            moved_away(*moved_to, *avoided, |then| {
                reaction((actor, attacker), &["〈跳躍〉", "跳跃", "跳躍", "a jump"], check, then)
            }),
        ),
        CocApEvent::EmergencyEvaded { actor, attacker, check, moved_to, avoided, .. } => (
            "COCAP-ACT-7",
            moved_away(*moved_to, *avoided, |then| {
                reaction(
                    (actor, attacker),
                    &["緊急回避", "紧急闪避", "緊急閃避", "an Emergency Evasion"],
                    check,
                    then,
                )
            }),
        ),
        CocApEvent::NoReaction { actor, attacker, .. } => (
            "COCAP-ACT-2",
            fill(
                &[
                    "{0}は{1}の攻撃に対応せず、そのまま受ける。",
                    "{0}不应对{1}的攻击，直接承受。",
                    "{0}不應對{1}的攻擊，直接承受。",
                    "{0} does not react to {1}'s attack and takes the hit.",
                ],
                &[actor, attacker],
            ),
        ),
        CocApEvent::Damaged { target, attacker, weapon, rolled, armor, damage, hp, hp_max, .. } => {
            let now = hp.zip(*hp_max);
            let now_args: [&dyn Say; 2] = match &now {
                Some((h, m)) => [h, m],
                None => [&"", &""],
            };
            let left = match now {
                Some(_) => Part(
                    &["残りHP {0}", "剩余HP {0}", "剩餘HP {0}", "HP {0} left"],
                    &[&Part(&HP_OF, &now_args)],
                ),
                None => Part(&["HPは記録なし", "HP未记录", "HP未記錄", "HP not tracked"], &[]),
            };
            (
                "COCAP-ACT-2",
                fill(
                    &[
                        "{0}は{1}の{2}で{3}ダメージを受けた（ダイス{4}、装甲{5}）。{6}。",
                        "{0}受到{1}的{2}造成的{3}点伤害（骰出{4}，护甲{5}）。{6}。",
                        "{0}受到{1}的{2}造成的{3}點傷害（骰出{4}，護甲{5}）。{6}。",
                        "{0} takes {3} damage from {1}'s {2} (rolled {4}, armor {5}); {6}.",
                    ],
                    &[target, attacker, weapon, damage, rolled, armor, &left],
                ),
            )
        }
        CocApEvent::Down { actor, hp, dead, .. } => (
            hp_rule(),
            if *dead {
                fill(
                    &[
                        "{0}はHP {1}で死亡した。",
                        "{0}在HP {1}时死亡。",
                        "{0}在HP {1}時死亡。",
                        "{0} dies at {1} HP.",
                    ],
                    &[actor, hp],
                )
            } else {
                fill(
                    &[
                        "{0}はHP {1}で気絶し、行動できない。",
                        "{0}在HP {1}时昏迷，无法行动。",
                        "{0}在HP {1}時昏迷，無法行動。",
                        "{0} falls unconscious at {1} HP and cannot act.",
                    ],
                    &[actor, hp],
                )
            },
        ),
        CocApEvent::TurnEnded { actor, next, skipped, .. } => {
            let sk = if skipped.is_empty() {
                Part(&NOTHING, &[])
            } else {
                Part(
                    &[
                        "（行動不能の{0}は飛ばす）",
                        "（跳过无法行动的{0}）",
                        "（跳過無法行動的{0}）",
                        " ({0} down, passed over)",
                    ],
                    &[&Joined(skipped, &LIST)],
                )
            };
            let t = match next {
                Some(n) => fill(
                    &[
                        "{0}の手番終了。次は{1}{2}。",
                        "{0}的回合结束。下一位：{1}{2}。",
                        "{0}的回合結束。下一位：{1}{2}。",
                        "{0} ends their turn; next: {1}{2}.",
                    ],
                    &[actor, n, &sk],
                ),
                None => fill(
                    &[
                        "{0}の手番終了。全員の手番が終わった{1}。",
                        "{0}的回合结束。本轮所有人的回合都已结束{1}。",
                        "{0}的回合結束。本輪所有人的回合都已結束{1}。",
                        "{0} ends their turn; every turn of the round is over{1}.",
                    ],
                    &[actor, &sk],
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
