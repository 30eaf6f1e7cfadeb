//! The `rule` and `text` of every encounter event: the RULES.md ID that produced it and
//! one full sentence in ja, zh-Hans, zh-Hant and en stating what happened. zh-Hans uses
//! the seed's own terms (回合, 战斗轮, 先攻, 转化, 透支, 反射动作, …).

use super::action::{TmdEvent, TmdLoggedEvent};
use crate::kernel::label::{fill, Joined, Part, Say, Tpl, WtLabel, NOTHING};
use crate::tmd::actions::{TmdActionType, TmdConvertType};
use crate::tmd::initiative::TmdInitiativeEntry;

/// An action type's name: (ja, zh_hans, zh_hant, en).
fn act(t: TmdActionType) -> &'static Tpl {
    use TmdActionType as T;
    match t {
        T::Free => &["フリーアクション", "自由动作", "自由動作", "free action"],
        T::Trick => &["トリックアクション", "花招动作", "花招動作", "trick action"],
        T::Swift => &["スウィフトアクション", "迅捷动作", "迅捷動作", "swift action"],
        T::Reflex => &["リフレックスアクション", "反射动作", "反射動作", "reflex action"],
        T::Move => &["ムーブアクション", "移动动作", "移動動作", "move action"],
        T::Acrobatic => &["アクロバットアクション", "杂技动作", "雜技動作", "acrobatic action"],
        T::Standard => &["スタンダードアクション", "标准动作", "標準動作", "standard action"],
        T::FullRound => &["全ラウンドアクション", "整轮动作", "整輪動作", "full-round action"],
    }
}

fn conv(t: TmdConvertType) -> &'static Tpl {
    act(conv_type(t))
}

fn conv_type(t: TmdConvertType) -> TmdActionType {
    use TmdConvertType as C;
    match t {
        C::Trick => TmdActionType::Trick,
        C::Swift => TmdActionType::Swift,
        C::Move => TmdActionType::Move,
        C::Acrobatic => TmdActionType::Acrobatic,
        C::Standard => TmdActionType::Standard,
    }
}

/// The rule of an action type (TMD-ACT-1…10, TMD-AP-16).
fn act_rule(t: TmdActionType) -> &'static str {
    use TmdActionType as T;
    match t {
        T::Free => "TMD-ACT-1",
        T::Trick => "TMD-ACT-5",
        T::Swift => "TMD-ACT-6",
        T::Reflex => "TMD-ACT-10",
        T::Move => "TMD-ACT-7",
        T::Acrobatic => "TMD-ACT-8",
        T::Standard => "TMD-ACT-9",
        T::FullRound => "TMD-AP-16",
    }
}

pub(crate) fn logged(events: Vec<TmdEvent>) -> Vec<TmdLoggedEvent> {
    events
        .into_iter()
        .map(|event| {
            let (rule, text) = describe(&event);
            TmdLoggedEvent::new(event, rule, text)
        })
        .collect()
}

/// A list joined in each language, `—` when empty.
struct List<'a>(&'a [String]);

impl Say for List<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        if self.0.is_empty() {
            out.push('—')
        } else {
            Joined(self.0, &["、", "、", "、", ", "]).say(lang, out)
        }
    }
}

/// Action types, joined.
struct Acts<'a>(&'a [TmdActionType]);

impl Say for Acts<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        each(self.0, lang, out, |t, out| act(*t).say(lang, out));
    }
}

/// `items` said one by one with `say`, joined by the language's list separator; `—`
/// when there are none.
fn each<T>(items: &[T], lang: usize, out: &mut String, mut say: impl FnMut(&T, &mut String)) {
    if items.is_empty() {
        out.push('—');
    }
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(if lang == 3 { ", " } else { "、" });
        }
        say(x, out);
    }
}

/// The clauses that apply (`Some`): `open`, the clauses joined by `sep`, then `close`;
/// nothing at all when none applies (a zero or a default is not said).
struct Clauses<'a>(&'a [Option<&'a dyn Say>], &'static Tpl, &'static Tpl, &'static Tpl);

impl Say for Clauses<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        let l = lang.min(3);
        let mut first = true;
        for c in self.0.iter().flatten() {
            out.push_str(if first { self.1[l] } else { self.2[l] });
            first = false;
            c.say(lang, out);
        }
        if !first {
            out.push_str(self.3[l]);
        }
    }
}

/// Initiative entries (TMD-INI-1/2): each id with its total, its d10 and base initiative,
/// and its cross-side tie-break re-rolls.
struct Inits<'a>(&'a [TmdInitiativeEntry]);

impl Say for Inits<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        each(self.0, lang, out, |x, out| {
            let sign = if x.base_initiative < 0 { "−" } else { "+" };
            let base = i64::from(x.base_initiative).abs();
            let rerolls: Vec<String> = x.tiebreaks.iter().map(u32::to_string).collect();
            let joined = Joined(&rerolls, &["/", "/", "/", "/"]);
            let tb = Part(&["、振り直し {0}", "，重掷 {0}", "，重擲 {0}", ", re-rolls {0}"], &[&joined]);
            let tb =
                Clauses(&[(!rerolls.is_empty()).then_some(&tb as &dyn Say)], &NOTHING, &NOTHING, &NOTHING);
            Part(
                &[
                    "{0} {1}（d10 {2} {3} {4}{5}）",
                    "{0} {1}（d10 {2} {3} {4}{5}）",
                    "{0} {1}（d10 {2} {3} {4}{5}）",
                    "{0} {1} (d10 {2} {3} {4}{5})",
                ],
                &[&x.id, &i64::from(x.total), &x.roll, &sign, &base, &tb],
            )
            .say(lang, out);
        });
    }
}

/// How long an effect lasts and when it ends (TMD-TIME-3, TMD-SCN-2).
fn lasts(d: super::state::TmdDuration) -> &'static Tpl {
    use super::state::TmdDuration as D;
    match d {
        D::BuffOneRound => &[
            "バフ、1ラウンド：付与者の次のターン開始まで",
            "增益，持续一轮：至施加者的下个回合开始",
            "增益，持續一輪：至施加者的下個回合開始",
            "buff, one round: until the applier's next turn begins",
        ],
        D::DebuffOneRound => &[
            "デバフ、1ラウンド：対象の次のターン終了まで",
            "负面效果，持续一轮：至被施加者的下个回合结束",
            "負面效果，持續一輪：至被施加者的下個回合結束",
            "debuff, one round: until the end of the target's next turn",
        ],
        D::Scene => &[
            "シーン中：シーン変更まで",
            "本场景内：至变换场景",
            "本場景內：至變換場景",
            "for the scene: until the scene changes",
        ],
    }
}

/// An ability named on a used action: the engine's own keys in words (a reflex used
/// without one drops prone, TMD-ACT-10; an overdrawn action, TMD-AP-11), anything else
/// as the player wrote it.
struct Ability<'a>(&'a str);

impl Say for Ability<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        let t: &Tpl = match self.0 {
            "drop_prone" => &["伏せ", "伏地", "伏地", "drop prone"],
            "overdraw" => &["前借り", "透支", "透支", "overdraw"],
            a => return out.push_str(a),
        };
        t.say(lang, out)
    }
}

/// Why something happened, by the engine's key (the key itself if it is not one of these).
struct Why<'a>(&'a str);

impl Say for Why<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        let t: &Tpl = match self.0 {
            "two_hours" => &["2時間が経過", "经过两小时", "經過兩小時", "two hours passed"],
            "scene_change" => &["シーンの変更", "变换场景", "變換場景", "the scene changed"],
            "battle_end" => &["戦闘の終了", "战斗结束", "戰鬥結束", "the battle ended"],
            "battle_start" => &["戦闘の開始", "战斗开始", "戰鬥開始", "the battle begins"],
            "surprise_round" => &["サプライズラウンド", "突袭轮", "突襲輪", "the surprise round"],
            "side_down" => &["一方が全員倒れた", "一方全员倒下", "一方全員倒下", "one side is down"],
            "combat_start" => &["戦闘開始", "战斗开始", "戰鬥開始", "combat starts"],
            "round_start" => &["ラウンド開始", "战斗轮开始", "戰鬥輪開始", "the round starts"],
            "join" => &["途中参加", "中途加入", "中途加入", "joining"],
            "applier_turn_start" => {
                &["付与者のターン開始", "施加者的回合开始", "施加者的回合開始", "its applier's turn started"]
            }
            "target_turn_end" => {
                &["対象のターン終了", "目标的回合结束", "目標的回合結束", "its target's turn ended"]
            }
            "applier_left" => &["付与者の離脱", "施加者离开战斗", "施加者離開戰鬥", "its applier left"],
            "removed" => &["取り除かれた", "被移除", "被移除", "removed"],
            "left" => &["対象が戦闘から離れた", "目标离开战斗", "目標離開戰鬥", "its target left the battle"],
            "left_scene" => {
                &["対象がシーンから離れた", "目标离开场景", "目標離開場景", "its target left the scene"]
            }
            k => return out.push_str(k),
        };
        t.say(lang, out)
    }
}

/// One event's rule and sentence.
fn describe(e: &TmdEvent) -> (&'static str, WtLabel) {
    use TmdEvent as E;
    match e {
        E::SceneEnded { scene, reason } => {
            let rule = match reason.as_str() {
                "two_hours" => "TMD-SCN-3",
                "surprise_round" => "TMD-SCN-5",
                _ => "TMD-SCN-1",
            };
            // Scene 0 is the one before the battle (TMD-SCN-1: the battle's start is a scene change).
            let t = if *scene == 0 {
                ["それまでのシーンが終わった（{1}）。", "原场景结束了（{1}）。", "原場景結束了（{1}）。", "The previous scene ends ({1})."]
            } else {
                ["シーン{0}が終わった（{1}）。", "场景{0}结束了（{1}）。", "場景{0}結束了（{1}）。", "Scene {0} ends ({1})."]
            };
            (rule, fill(&t, &[scene, &Why(reason)]))
        }
        E::SceneStarted { scene } => (
            "TMD-SCN-1",
            fill(&["シーン{0}が始まった。", "场景{0}开始了。", "場景{0}開始了。", "Scene {0} begins."], &[scene]),
        ),
        E::SurpriseRoundStarted { attacker } => (
            "TMD-SUR-1",
            fill(
                &[
                    "{0}の先制攻撃でサプライズラウンドが始まった。",
                    "{0}先行发起攻击，突袭轮开始。",
                    "{0}先行發起攻擊，突襲輪開始。",
                    "{0} strikes first: the surprise round begins.",
                ],
                &[attacker],
            ),
        ),
        E::SurpriseReflexGranted { character } => (
            "TMD-SUR-5",
            fill(
                &[
                    "{0}は不意打ちに免疫があり、リフレックスアクションを1つ得た。",
                    "{0}免疫此次突袭，获得一个反射动作。",
                    "{0}免疫此次突襲，獲得一個反射動作。",
                    "{0} is immune to the surprise and gains one reflex action.",
                ],
                &[character],
            ),
        ),
        E::SurpriseAttack { attacker, caught_off_guard, immune } => (
            "TMD-SUR-4",
            fill(
                &[
                    "{0}の不意打ち：不意を突かれたのは{1}、免疫は{2}。",
                    "{0}发动突袭攻击：措手不及的是{1}，免疫的是{2}。",
                    "{0}發動突襲攻擊：措手不及的是{1}，免疫的是{2}。",
                    "{0} makes the surprise attack: caught off guard: {1}; immune: {2}.",
                ],
                &[attacker, &List(caught_off_guard), &List(immune)],
            ),
        ),
        E::InitiativeRolled { reason, entries } => {
            let rule = match reason.as_str() {
                "join" => "TMD-INI-4",
                "round_start" => "TMD-INI-3",
                _ => "TMD-INI-1",
            };
            (
                rule,
                fill(
                    &[
                        "先攻判定を行った（{0}）：{1}。",
                        "进行了先攻检定（{0}）：{1}。",
                        "進行了先攻檢定（{0}）：{1}。",
                        "Initiative is rolled ({0}): {1}.",
                    ],
                    &[&Why(reason), &Inits(entries)],
                ),
            )
        }
        E::CombatStarted {} => (
            "TMD-INI-7",
            fill(
                &[
                    "先攻順が決まり、戦闘が正式に始まった。",
                    "先攻顺序排列完毕，正式进入战斗阶段。",
                    "先攻順序排列完畢，正式進入戰鬥階段。",
                    "The initiative order is set: combat formally begins.",
                ],
                &[],
            ),
        ),
        E::RoundStarted { round, order } => (
            "TMD-TIME-5",
            fill(
                &[
                    "第{0}ラウンドが始まった（先攻順：{1}）。",
                    "第{0}战斗轮开始（先攻顺位：{1}）。",
                    "第{0}戰鬥輪開始（先攻順位：{1}）。",
                    "Round {0} begins (initiative order: {1}).",
                ],
                &[round, &List(order)],
            ),
        ),
        E::DelayDeclared { character, after } => (
            "TMD-INI-5",
            fill(
                &[
                    "{0}は{1}のターンの後まで先攻を遅らせた。",
                    "{0}延后先攻至{1}的回合之后。",
                    "{0}延後先攻至{1}的回合之後。",
                    "{0} delays until after {1}'s turn.",
                ],
                &[character, after],
            ),
        ),
        E::TurnOrderSet { turns } => (
            "TMD-INI-5",
            fill(
                &["このラウンドのターン順：{0}。", "本轮的回合顺序：{0}。", "本輪的回合順序：{0}。", "This round's turn order: {0}."],
                &[&List(turns)],
            ),
        ),
        E::TurnStarted { character, base_ap, extra_ap, reflex_only_ap, ap_lost_to_overdraw, blocked } => {
            let reflex = Part(&["反射専用AP {0}", "仅反射AP {0}", "僅反射AP {0}", "{0} reflex-only AP"], &[reflex_only_ap]);
            let lost = Part(
                &["前借りで失ったAP {0}", "因透支失去{0}点AP", "因透支失去{0}點AP", "{0} AP lost to overdraw"],
                &[ap_lost_to_overdraw],
            );
            let types: Vec<TmdActionType> = blocked.iter().map(|t| conv_type(*t)).collect();
            let acts = Acts(&types);
            let no = Part(
                &["このラウンドは変換できない：{0}", "本轮无法转化：{0}", "本輪無法轉化：{0}", "cannot convert this round: {0}"],
                &[&acts],
            );
            let more = [
                (*reflex_only_ap > 0).then_some(&reflex as &dyn Say),
                (*ap_lost_to_overdraw > 0).then_some(&lost as &dyn Say),
                (!blocked.is_empty()).then_some(&no as &dyn Say),
            ];
            (
                "TMD-AP-2",
                fill(
                    &[
                        "{0}のターン開始：基礎AP {1}、追加AP {2}{3}。",
                        "{0}的回合开始：基础行动点{1}，额外行动点{2}{3}。",
                        "{0}的回合開始：基礎行動點{1}，額外行動點{2}{3}。",
                        "{0}'s turn begins: {1} base AP, {2} extra AP{3}.",
                    ],
                    &[character, base_ap, extra_ap, &Clauses(&more, &["、", "，", "，", ", "], &["、", "，", "，", ", "], &NOTHING)],
                ),
            )
        }
        E::ActionGranted { character, action_type, gained } => {
            let t: &Tpl = if *gained {
                &["{0}は付与された{1}を得た。", "{0}获得了被给予的{1}。", "{0}獲得了被給予的{1}。", "{0} gains the granted {1}."]
            } else {
                &[
                    "{0}は付与された{1}を得られなかった（変換できない型）。",
                    "{0}未能获得被给予的{1}（无法转化该动作）。",
                    "{0}未能獲得被給予的{1}（無法轉化該動作）。",
                    "{0} does not gain the granted {1}: it could not have been converted.",
                ]
            };
            ("TMD-AP-15", fill(t, &[character, conv(*action_type)]))
        }
        E::Converted { character, action_type, count, ap_spent } => {
            let rule = if *action_type == TmdActionType::Reflex { "TMD-AP-4" } else { "TMD-AP-6" };
            (
                rule,
                fill(
                    &[
                        "{0}はAP {1}を{2}{3}回分に変換した。",
                        "{0}消耗{1}点AP转化了{3}个{2}。",
                        "{0}消耗{1}點AP轉化了{3}個{2}。",
                        "{0} converts {1} AP into {3} {2}(s).",
                    ],
                    &[character, ap_spent, act(*action_type), count],
                ),
            )
        }
        E::ActionUsed { character, action_type, spent, out_of_turn, ability } => {
            let ab = match ability {
                Some(a) => Part(&["（{0}）", "（{0}）", "（{0}）", " ({0})"], &[&Ability(a)]),
                None => Part(&NOTHING, &[]),
            };
            let t: &Tpl = if *out_of_turn {
                &[
                    "{0}はターン外に{1}を使った{2}{3}。",
                    "{0}在回合外使用了{1}{2}{3}。",
                    "{0}在回合外使用了{1}{2}{3}。",
                    "{0} uses a {1}{2} out of turn{3}.",
                ]
            } else {
                &["{0}は{1}を使った{2}{3}。", "{0}使用了{1}{2}{3}。", "{0}使用了{1}{2}{3}。", "{0} uses a {1}{2}{3}."]
            };
            // What it spends, unless that is the one held action of its own type (or nothing).
            let acts = Acts(spent);
            let paid = Part(&["（消費：{0}）", "（消耗：{0}）", "（消耗：{0}）", ", spending {0}"], &[&acts]);
            let plain = spent.is_empty() || spent.as_slice() == [*action_type];
            let paid = Clauses(&[(!plain).then_some(&paid as &dyn Say)], &NOTHING, &NOTHING, &NOTHING);
            (act_rule(*action_type), fill(t, &[character, act(*action_type), &ab, &paid]))
        }
        E::FreeActionUsed { character, purpose, source, .. } => {
            // The defaults (`free` from `basic`, TMD-ACT-1..4) are not said.
            let from = Part(&["出典：{0}", "来源：{0}", "來源：{0}", "from {0}"], &[source]);
            let parts = [
                (purpose != "free").then_some(purpose as &dyn Say),
                (source != "basic").then_some(&from as &dyn Say),
            ];
            (
                "TMD-ACT-1",
                fill(
                    &[
                        "{0}はフリーアクションを行った{1}。",
                        "{0}进行了自由动作{1}。",
                        "{0}進行了自由動作{1}。",
                        "{0} takes a free action{1}.",
                    ],
                    &[character, &Clauses(&parts, &["（", "（", "（", " ("], &["、", "，", "，", ", "], &["）", "）", "）", ")"])],
                ),
            )
        }
        E::Overdrawn { character, action_type, ap_owed } => (
            "TMD-AP-11",
            fill(
                &[
                    "{0}は{1}を前借りした（次のターン開始時にAP {2}を失う）。",
                    "{0}透支了{1}（下个回合开始时失去{2}点AP）。",
                    "{0}透支了{1}（下個回合開始時失去{2}點AP）。",
                    "{0} overdraws a {1} ({2} AP lost at its next turn start).",
                ],
                &[character, conv(*action_type), ap_owed],
            ),
        ),
        E::Retained { character, action_type, ability } => (
            "TMD-AP-14",
            fill(
                &["{0}の{2}が{1}を保留した。", "{0}的{2}保留了一个{1}。", "{0}的{2}保留了一個{1}。", "{0}'s {2} retains a {1}."],
                &[character, conv(*action_type), ability],
            ),
        ),
        E::GrantQueued { character, action_type } => (
            "TMD-AP-15",
            fill(
                &[
                    "{0}は次のターン開始時に{1}を得る。",
                    "{0}将在下个回合开始时获得一个{1}。",
                    "{0}將在下個回合開始時獲得一個{1}。",
                    "{0} will gain a {1} at its next turn start.",
                ],
                &[character, conv(*action_type)],
            ),
        ),
        E::ApGained { character, amount, reflex_only } => {
            let (rule, t): (&str, &Tpl) = if *reflex_only {
                (
                    "TMD-AP-4",
                    &[
                        "{0}はターン外専用のAPを{1}得た。",
                        "{0}获得了{1}点仅能在回合外使用的AP。",
                        "{0}獲得了{1}點僅能在回合外使用的AP。",
                        "{0} gains {1} out-of-turn-only AP.",
                    ],
                )
            } else {
                (
                    "TMD-AP-3",
                    &["{0}は追加APを{1}得た。", "{0}获得了{1}点额外行动点。", "{0}獲得了{1}點額外行動點。", "{0} gains {1} extra AP."],
                )
            };
            (rule, fill(t, &[character, amount]))
        }
        E::DisabledChanged { character, action_type, disabled } => {
            let t: &Tpl = if *disabled {
                &["{0}は{1}を使えなくなった。", "{0}失去了使用{1}的能力。", "{0}失去了使用{1}的能力。", "{0} loses the use of the {1}."]
            } else {
                &[
                    "{0}は{1}を再び使えるようになった。",
                    "{0}恢复了使用{1}的能力。",
                    "{0}恢復了使用{1}的能力。",
                    "{0} regains the use of the {1}.",
                ]
            };
            ("TMD-AP-12", fill(t, &[character, conv(*action_type)]))
        }
        E::TurnEnded { character, extra_ap_removed, reflex_only_ap_removed, extra_ap_carried } => {
            let removed =
                Part(&["追加AP {0}を除去", "移除额外行动点{0}", "移除額外行動點{0}", "{0} extra AP removed"], &[extra_ap_removed]);
            let reflex = Part(
                &["反射専用AP {0}を除去", "移除仅反射AP {0}", "移除僅反射AP {0}", "{0} reflex-only AP removed"],
                &[reflex_only_ap_removed],
            );
            let kept = Part(
                &["AP {0}を追加APとして保持", "保留{0}点额外行动点", "保留{0}點額外行動點", "{0} AP kept as extra AP"],
                &[extra_ap_carried],
            );
            let parts = [
                (*extra_ap_removed > 0).then_some(&removed as &dyn Say),
                (*reflex_only_ap_removed > 0).then_some(&reflex as &dyn Say),
                (*extra_ap_carried > 0).then_some(&kept as &dyn Say),
            ];
            (
                "TMD-TIME-2",
                fill(
                    &["{0}のターンが終わった{1}。", "{0}的回合结束{1}。", "{0}的回合結束{1}。", "{0}'s turn ends{1}."],
                    &[character, &Clauses(&parts, &["（", "（", "（", ": "], &["、", "，", "，", ", "], &["）", "）", "）", ""])],
                ),
            )
        }
        E::ActionsRemoved { character, count } => (
            "TMD-AP-9",
            fill(
                &[
                    "ラウンド終了：{0}の未使用のアクション{1}個が除去された。",
                    "行动轮结束：{0}未使用的{1}个动作被移除。",
                    "行動輪結束：{0}未使用的{1}個動作被移除。",
                    "At the round's end {1} unused action(s) of {0} are removed.",
                ],
                &[character, count],
            ),
        ),
        E::SwiftBecameReflex { character, count, expires_round } => (
            "TMD-AP-9",
            fill(
                &[
                    "{0}の未使用のスウィフトアクション{1}個がリフレックスアクションになった（第{2}ラウンド終了まで）。",
                    "{0}未使用的{1}个迅捷动作转为反射动作（保留至第{2}轮结束）。",
                    "{0}未使用的{1}個迅捷動作轉為反射動作（保留至第{2}輪結束）。",
                    "{1} unused swift action(s) of {0} become reflex actions until the end of round {2}.",
                ],
                &[character, count, expires_round],
            ),
        ),
        E::ReflexExpired { character, count } => (
            "TMD-AP-9",
            fill(
                &[
                    "{0}のリフレックスアクション{1}個が期限切れになった。",
                    "{0}的{1}个反射动作到期了。",
                    "{0}的{1}個反射動作到期了。",
                    "{1} reflex action(s) of {0} expire.",
                ],
                &[character, count],
            ),
        ),
        // Round 0 is the surprise round (TMD-SUR-3).
        E::RoundEnded { round: 0 } => {
            ("TMD-SUR-3", fill(&["サプライズラウンドが終わった。", "突袭轮结束。", "突襲輪結束。", "The surprise round ends."], &[]))
        }
        E::RoundEnded { round } => (
            "TMD-TIME-5",
            fill(&["第{0}ラウンドが終わった。", "第{0}战斗轮结束。", "第{0}戰鬥輪結束。", "Round {0} ends."], &[round]),
        ),
        E::Joined { characters } => (
            "TMD-INI-4",
            fill(
                &[
                    "{0}が戦闘に加わり、このラウンドの最後に行動する。",
                    "{0}加入战斗，在本轮最后行动。",
                    "{0}加入戰鬥，在本輪最後行動。",
                    "{0} join the battle and act last this round.",
                ],
                &[&List(characters)],
            ),
        ),
        E::Left { character } => (
            "TMD-INI-6",
            fill(&["{0}が戦闘から離れた。", "{0}离开了战斗。", "{0}離開了戰鬥。", "{0} leaves the battle."], &[character]),
        ),
        E::InitiativeChanged { character, base_initiative, resort_at_round_end } => {
            let re = if *resort_at_round_end {
                Part(
                    &[
                        "（ラウンド終了時に並べ直す）",
                        "（本轮结束时重新排列）",
                        "（本輪結束時重新排列）",
                        "; the order is re-sorted at the round's end",
                    ],
                    &[],
                )
            } else {
                Part(&NOTHING, &[])
            };
            (
                "TMD-INI-3",
                fill(
                    &[
                        "{0}の基礎先攻値が{1}になった{2}。",
                        "{0}的基础先攻值变为{1}{2}。",
                        "{0}的基礎先攻值變為{1}{2}。",
                        "{0}'s base initiative becomes {1}{2}.",
                    ],
                    &[character, &i64::from(*base_initiative), &re],
                ),
            )
        }
        E::EffectApplied { effect } => {
            let rule = if effect.duration == super::state::TmdDuration::Scene { "TMD-SCN-2" } else { "TMD-TIME-3" };
            (
                rule,
                fill(
                    &[
                        "{0}が{1}に効果「{2}」を与えた（{3}）。",
                        "{0}对{1}施加了效果「{2}」（{3}）。",
                        "{0}對{1}施加了效果「{2}」（{3}）。",
                        "{0} applies the effect \"{2}\" to {1} ({3}).",
                    ],
                    &[&effect.applier, &effect.target, &effect.name, lasts(effect.duration)],
                ),
            )
        }
        E::EffectEnded { name, reason, .. } => {
            let rule = if reason == "scene_change" { "TMD-SCN-2" } else { "TMD-TIME-3" };
            (
                rule,
                fill(
                    &[
                        "効果「{0}」が終わった（{1}）。",
                        "效果「{0}」结束了（{1}）。",
                        "效果「{0}」結束了（{1}）。",
                        "The effect \"{0}\" ends ({1}).",
                    ],
                    &[name, &Why(reason)],
                ),
            )
        }
        E::TeleportedWithinScene { character } => (
            "TMD-SCN-4",
            fill(
                &[
                    "{0}はシーン内でテレポートした（シーンは変わらない）。",
                    "{0}在场景内传送（不视为变换场景）。",
                    "{0}在場景內傳送（不視為變換場景）。",
                    "{0} teleports within the scene (no scene change).",
                ],
                &[character],
            ),
        ),
        E::ChainStarted { character, entry } => (
            "TMD-INT-1",
            fill(
                &[
                    "{0}の行動（#{1}）の解決が始まり、割り込みができる。",
                    "{0}的动作（#{1}）开始结算，可以插入动作。",
                    "{0}的動作（#{1}）開始結算，可以插入動作。",
                    "{0}'s action (#{1}) is announced and may be interrupted.",
                ],
                &[character, entry],
            ),
        ),
        E::InterruptDeclared { character, entry, interrupts, interrupter_ap, interrupted_ap, first, locked_out } => {
            match locked_out {
                // TMD-INT-2: the one with more AP at the chain's start resolves first, and
                // the interrupter may not interrupt again in this chain.
                Some(out) => (
                    "TMD-INT-2",
                    fill(
                        &[
                            "{0}が#{1}に割り込んだ（#{2}）：AP {3}対{4}で{5}が先に解決する。{6}はこの連鎖が終わるまで割り込めない。",
                            "{0}插入了#{1}（#{2}）：AP {3}对{4}，{5}先结算；{6}在本结算链结束前不能再插入动作。",
                            "{0}插入了#{1}（#{2}）：AP {3}對{4}，{5}先結算；{6}在本結算鏈結束前不能再插入動作。",
                            "{0} interrupts #{1} (#{2}): AP {3} vs {4}, {5} resolves first; {6} cannot interrupt again until this chain is over.",
                        ],
                        &[character, interrupts, entry, interrupter_ap, interrupted_ap, first, out],
                    ),
                ),
                // TMD-INT-3: a reflex against an action taken in its actor's own turn resolves first.
                None => (
                    "TMD-INT-3",
                    fill(
                        &[
                            "{0}がリフレックスアクションで#{1}に割り込んだ（#{2}）：先に解決するのは{3}。",
                            "{0}以反射动作插入了#{1}（#{2}），先结算的是{3}。",
                            "{0}以反射動作插入了#{1}（#{2}），先結算的是{3}。",
                            "{0} interrupts #{1} with a reflex action (#{2}); {3} resolves first.",
                        ],
                        &[character, interrupts, entry, first],
                    ),
                ),
            }
        }
        E::PreemptionIgnored { character } => (
            "TMD-INT-4",
            fill(
                &["{0}は【先制】を無視した。", "{0}无视了【先制】。", "{0}無視了【先制】。", "{0} ignores the Pre-emption."],
                &[character],
            ),
        ),
        E::InterruptsClosed { entry } => (
            "TMD-INT-3",
            fill(
                &["#{0}には誰も割り込まなかった。", "没有人插入#{0}。", "沒有人插入#{0}。", "Nobody interrupts #{0}."],
                &[entry],
            ),
        ),
        E::Resolved { entry, character, label } => (
            "TMD-INT-1",
            fill(
                &[
                    "{0}の行動#{1}（{2}）が解決された。",
                    "{0}的动作#{1}（{2}）结算完毕。",
                    "{0}的動作#{1}（{2}）結算完畢。",
                    "{0}'s action #{1} ({2}) resolves.",
                ],
                &[character, entry, label],
            ),
        ),
        E::ChainEnded {} => (
            "TMD-INT-1",
            fill(
                &["割り込みの連鎖が終わった。", "插入动作的结算链结束了。", "插入動作的結算鏈結束了。", "The interrupt chain is over."],
                &[],
            ),
        ),
        E::EncounterEnded {} => {
            ("TMD-SCN-1", fill(&["戦闘が終わった。", "战斗结束了。", "戰鬥結束了。", "The battle is over."], &[]))
        }
        E::Damaged { character, amount, hp } => (
            "TMD-TIME-2",
            fill(
                &[
                    "GMの裁定：{0}は{1}ダメージを受けた（残りHP {2}）。",
                    "主持人裁定：{0}受到{1}点伤害（剩余HP {2}）。",
                    "主持人裁定：{0}受到{1}點傷害（剩餘HP {2}）。",
                    "The GM rules that {0} takes {1} damage ({2} HP left).",
                ],
                &[character, amount, hp],
            ),
        ),
        E::Downed { character } => (
            "TMD-TIME-1",
            fill(
                &[
                    "GMの裁定：{0}は倒れ、もう行動できない。",
                    "主持人裁定：{0}倒下了，无法再行动。",
                    "主持人裁定：{0}倒下了，無法再行動。",
                    "The GM rules that {0} is down and can act no more.",
                ],
                &[character],
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_said_in_words_not_keys() {
        // TMD-SCN-3: a scene ends after two hours; TMD-INI-3: initiative at a round's start.
        let (rule, t) = describe(&TmdEvent::SceneEnded { scene: 2, reason: "two_hours".into() });
        assert_eq!(rule, "TMD-SCN-3");
        assert_eq!(t.en, "Scene 2 ends (two hours passed).");
        assert_eq!(t.ja, "シーン2が終わった（2時間が経過）。");
        assert_eq!(t.zh_hant, "場景2結束了（經過兩小時）。");
        let (rule, t) =
            describe(&TmdEvent::InitiativeRolled { reason: "round_start".into(), entries: vec![] });
        assert_eq!(rule, "TMD-INI-3");
        assert_eq!(t.zh_hans, "进行了先攻检定（战斗轮开始）：—。");
        let (_, t) =
            describe(&TmdEvent::EffectEnded { id: 0, name: "x".into(), reason: "target_turn_end".into() });
        assert_eq!(t.en, "The effect \"x\" ends (its target's turn ended).");
        // TMD-INI-6 / TMD-SCN-4: effects on a character who leaves end with it.
        let (_, t) =
            describe(&TmdEvent::EffectEnded { id: 0, name: "x".into(), reason: "left_scene".into() });
        assert_eq!(t.ja, "効果「x」が終わった（対象がシーンから離れた）。");
        // a key gunbai does not know is shown as it is
        let (_, t) = describe(&TmdEvent::SceneEnded { scene: 1, reason: "gm".into() });
        assert_eq!(t.en, "Scene 1 ends (gm).");
        // TMD-SCN-1: the battle's start ends the scene before it.
        let (rule, t) = describe(&TmdEvent::SceneEnded { scene: 0, reason: "battle_start".into() });
        assert_eq!((rule, t.zh_hant.as_str()), ("TMD-SCN-1", "原場景結束了（戰鬥開始）。"));
    }

    fn entry(id: &str, base: i32, roll: u32, tiebreaks: Vec<u32>) -> TmdInitiativeEntry {
        let total = base + roll as i32;
        TmdInitiativeEntry { id: id.into(), side: "pc".into(), base_initiative: base, roll, total, tiebreaks }
    }

    #[test]
    fn initiative_says_each_d10_base_and_re_roll() {
        // TMD-INI-1: d10 + base initiative; TMD-INI-2: a cross-side tie is re-rolled.
        let entries = vec![entry("A", 5, 6, vec![]), entry("B", -2, 10, vec![7, 3])];
        let (rule, t) = describe(&TmdEvent::InitiativeRolled { reason: "combat_start".into(), entries });
        assert_eq!(rule, "TMD-INI-1");
        assert_eq!(
            t.en,
            "Initiative is rolled (combat starts): A 11 (d10 6 + 5), B 8 (d10 10 − 2, re-rolls 7/3)."
        );
        assert_eq!(
            t.ja,
            "先攻判定を行った（戦闘開始）：A 11（d10 6 + 5）、B 8（d10 10 − 2、振り直し 7/3）。"
        );
        assert_eq!(t.zh_hans, "进行了先攻检定（战斗开始）：A 11（d10 6 + 5）、B 8（d10 10 − 2，重掷 7/3）。");
    }

    #[test]
    fn a_zero_a_default_or_the_obvious_is_not_said() {
        use TmdActionType as T;
        // TMD-AP-2: a turn start says reflex-only AP, overdraw losses and blocked types only when there are any.
        let start = |reflex_only_ap, ap_lost_to_overdraw, blocked| TmdEvent::TurnStarted {
            character: "A".into(),
            base_ap: 14,
            extra_ap: 0,
            reflex_only_ap,
            ap_lost_to_overdraw,
            blocked,
        };
        assert_eq!(describe(&start(0, 0, vec![])).1.en, "A's turn begins: 14 base AP, 0 extra AP.");
        let (_, t) = describe(&start(2, 8, vec![TmdConvertType::Standard]));
        assert_eq!(
            t.en,
            "A's turn begins: 14 base AP, 0 extra AP, 2 reflex-only AP, 8 AP lost to overdraw, cannot convert this round: standard action."
        );
        assert_eq!(
            t.zh_hant,
            "A的回合開始：基礎行動點14，額外行動點0，僅反射AP 2，因透支失去8點AP，本輪無法轉化：標準動作。"
        );
        // TMD-TIME-2 / TMD-AP-2/3: a turn's end says only what it removed or kept.
        let end = |extra_ap_removed, reflex_only_ap_removed, extra_ap_carried| TmdEvent::TurnEnded {
            character: "A".into(),
            extra_ap_removed,
            reflex_only_ap_removed,
            extra_ap_carried,
        };
        assert_eq!(describe(&end(0, 0, 0)).1.en, "A's turn ends.");
        assert_eq!(describe(&end(0, 0, 3)).1.ja, "Aのターンが終わった（AP 3を追加APとして保持）。");
        assert_eq!(
            describe(&end(2, 1, 3)).1.en,
            "A's turn ends: 2 extra AP removed, 1 reflex-only AP removed, 3 AP kept as extra AP."
        );
        // TMD-ACT-9: using a standard action that spends the held standard action says no more;
        // TMD-AP-16: a full-round action says the two it spends.
        let used = |action_type, spent| TmdEvent::ActionUsed {
            character: "A".into(),
            action_type,
            spent,
            out_of_turn: false,
            ability: None,
        };
        assert_eq!(describe(&used(T::Standard, vec![T::Standard])).1.en, "A uses a standard action.");
        // TMD-ACT-10: a reflex used with no ability drops prone, said in words.
        let prone = TmdEvent::ActionUsed {
            character: "A".into(),
            action_type: T::Reflex,
            spent: vec![T::Reflex],
            out_of_turn: true,
            ability: Some("drop_prone".into()),
        };
        assert_eq!(describe(&prone).1.ja, "Aはターン外にリフレックスアクションを使った（伏せ）。");
        assert_eq!(
            describe(&used(T::FullRound, vec![T::Standard, T::Move])).1.en,
            "A uses a full-round action, spending standard action, move action."
        );
        // TMD-ACT-1: a free action's default purpose and source are not said.
        let free = |purpose: &str, source: &str| TmdEvent::FreeActionUsed {
            character: "A".into(),
            purpose: purpose.into(),
            source: source.into(),
            reflex_spent: None,
        };
        assert_eq!(describe(&free("free", "basic")).1.en, "A takes a free action.");
        assert_eq!(describe(&free("draw", "basic")).1.zh_hans, "A进行了自由动作（draw）。");
        assert_eq!(
            describe(&free("draw", "Quick Draw")).1.en,
            "A takes a free action (draw, from Quick Draw)."
        );
        // TMD-TIME-3: an applied effect says how long it lasts.
        let effect = super::super::state::TmdEffect {
            id: 0,
            name: "Slow".into(),
            applier: "A".into(),
            target: "B".into(),
            duration: super::super::state::TmdDuration::DebuffOneRound,
            armed: false,
        };
        let (rule, t) = describe(&TmdEvent::EffectApplied { effect });
        assert_eq!(rule, "TMD-TIME-3");
        assert_eq!(t.en, "A applies the effect \"Slow\" to B (debuff, one round: until the end of the target's next turn).");
        // TMD-SUR-3: round 0 is the surprise round.
        let (rule, t) = describe(&TmdEvent::RoundEnded { round: 0 });
        assert_eq!((rule, t.zh_hant.as_str()), ("TMD-SUR-3", "突襲輪結束。"));
        assert_eq!(describe(&TmdEvent::RoundEnded { round: 2 }).1.en, "Round 2 ends.");
    }

    #[test]
    fn an_interrupt_says_who_resolves_first_and_why() {
        let by_ap = TmdEvent::InterruptDeclared {
            character: "B".into(),
            entry: 1,
            interrupts: 0,
            interrupter_ap: 2,
            interrupted_ap: 5,
            first: "A".into(),
            locked_out: Some("B".into()),
        };
        // TMD-INT-2: more AP at the chain's start resolves first; the interrupter is locked out.
        let (rule, t) = describe(&by_ap);
        assert_eq!(rule, "TMD-INT-2");
        assert_eq!(t.en, "B interrupts #0 (#1): AP 2 vs 5, A resolves first; B cannot interrupt again until this chain is over.");
        // TMD-INT-3: a reflex against an action in its actor's own turn resolves first.
        let reflex = TmdEvent::InterruptDeclared {
            character: "B".into(),
            entry: 1,
            interrupts: 0,
            interrupter_ap: 2,
            interrupted_ap: 5,
            first: "B".into(),
            locked_out: None,
        };
        let (rule, t) = describe(&reflex);
        assert_eq!(rule, "TMD-INT-3");
        assert_eq!(t.ja, "Bがリフレックスアクションで#0に割り込んだ（#1）：先に解決するのはB。");
    }
}
