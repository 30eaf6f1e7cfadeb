//! The `rule` and `text` of every encounter event: the RULES.md ID that produced it and
//! one full sentence in ja, zh-Hans, zh-Hant and en stating what happened. zh-Hans uses
//! the seed's own terms (回合, 战斗轮, 先攻, 转化, 透支, 反射动作, …).

use super::action::{TmdEvent, TmdLoggedEvent};
use crate::kernel::label::WtLabel;
use crate::tmd::actions::{TmdActionType, TmdConvertType};

fn l(ja: String, zh_hans: String, zh_hant: String, en: String) -> WtLabel {
    WtLabel { ja, zh_hans, zh_hant, en }
}

/// An action type's name: (ja, zh_hans, zh_hant, en).
fn act(t: TmdActionType) -> [&'static str; 4] {
    use TmdActionType as T;
    match t {
        T::Free => ["フリーアクション", "自由动作", "自由動作", "free action"],
        T::Trick => ["トリックアクション", "花招动作", "花招動作", "trick action"],
        T::Swift => ["スウィフトアクション", "迅捷动作", "迅捷動作", "swift action"],
        T::Reflex => ["リフレックスアクション", "反射动作", "反射動作", "reflex action"],
        T::Move => ["ムーブアクション", "移动动作", "移動動作", "move action"],
        T::Acrobatic => ["アクロバットアクション", "杂技动作", "雜技動作", "acrobatic action"],
        T::Standard => ["スタンダードアクション", "标准动作", "標準動作", "standard action"],
        T::FullRound => ["全ラウンドアクション", "整轮动作", "整輪動作", "full-round action"],
    }
}

fn conv(t: TmdConvertType) -> [&'static str; 4] {
    use TmdConvertType as C;
    act(match t {
        C::Trick => TmdActionType::Trick,
        C::Swift => TmdActionType::Swift,
        C::Move => TmdActionType::Move,
        C::Acrobatic => TmdActionType::Acrobatic,
        C::Standard => TmdActionType::Standard,
    })
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

fn list(v: &[String]) -> [String; 2] {
    if v.is_empty() {
        return ["—".into(), "—".into()];
    }
    [v.join("、"), v.join(", ")]
}

/// Every event with its rule and sentence.
pub(crate) fn logged(events: Vec<TmdEvent>) -> Vec<TmdLoggedEvent> {
    events
        .into_iter()
        .map(|event| {
            let (rule, text) = describe(&event);
            TmdLoggedEvent { event, rule: rule.to_string(), text }
        })
        .collect()
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
            (
                rule,
                l(
                    format!("シーン{scene}が終わった（{reason}）。"),
                    format!("场景{scene}结束了（{reason}）。"),
                    format!("場景{scene}結束了（{reason}）。"),
                    format!("Scene {scene} ends ({reason})."),
                ),
            )
        }
        E::SceneStarted { scene } => (
            "TMD-SCN-1",
            l(
                format!("シーン{scene}が始まった。"),
                format!("场景{scene}开始了。"),
                format!("場景{scene}開始了。"),
                format!("Scene {scene} begins."),
            ),
        ),
        E::SurpriseRoundStarted { attacker } => (
            "TMD-SUR-1",
            l(
                format!("{attacker}の先制攻撃で突袭轮（サプライズラウンド）が始まった。"),
                format!("{attacker}先行发起攻击，突袭轮开始。"),
                format!("{attacker}先行發起攻擊，突襲輪開始。"),
                format!("{attacker} strikes first: the surprise round begins."),
            ),
        ),
        E::SurpriseReflexGranted { character } => (
            "TMD-SUR-5",
            l(
                format!("{character}は不意打ちに免疫があり、リフレックスアクションを1つ得た。"),
                format!("{character}免疫此次突袭，获得一个反射动作。"),
                format!("{character}免疫此次突襲，獲得一個反射動作。"),
                format!("{character} is immune to the surprise and gains one reflex action."),
            ),
        ),
        E::SurpriseAttack { attacker, caught_off_guard, immune } => {
            let (c, i) = (list(caught_off_guard), list(immune));
            (
                "TMD-SUR-4",
                l(
                    format!("{attacker}の不意打ち：措手不及になったのは{}、免疫は{}。", c[0], i[0]),
                    format!("{attacker}发动突袭攻击：措手不及的是{}，免疫的是{}。", c[0], i[0]),
                    format!("{attacker}發動突襲攻擊：措手不及的是{}，免疫的是{}。", c[0], i[0]),
                    format!("{attacker} makes the surprise attack: caught off guard: {}; immune: {}.", c[1], i[1]),
                ),
            )
        }
        E::InitiativeRolled { reason, entries } => {
            let rule = match reason.as_str() {
                "join" => "TMD-INI-4",
                "round_start" => "TMD-INI-3",
                _ => "TMD-INI-1",
            };
            let order: Vec<String> = entries.iter().map(|x| format!("{} {}", x.id, x.total)).collect();
            let o = list(&order);
            (
                rule,
                l(
                    format!("先攻判定を行った（{reason}）：{}。", o[0]),
                    format!("进行了先攻检定（{reason}）：{}。", o[0]),
                    format!("進行了先攻檢定（{reason}）：{}。", o[0]),
                    format!("Initiative is rolled ({reason}): {}.", o[1]),
                ),
            )
        }
        E::CombatStarted {} => (
            "TMD-INI-7",
            l(
                "先攻順が決まり、戦闘が正式に始まった。".into(),
                "先攻顺序排列完毕，正式进入战斗阶段。".into(),
                "先攻順序排列完畢，正式進入戰鬥階段。".into(),
                "The initiative order is set: combat formally begins.".into(),
            ),
        ),
        E::RoundStarted { round, order } => {
            let o = list(order);
            (
                "TMD-TIME-5",
                l(
                    format!("第{round}ラウンドが始まった（先攻順：{}）。", o[0]),
                    format!("第{round}战斗轮开始（先攻顺位：{}）。", o[0]),
                    format!("第{round}戰鬥輪開始（先攻順位：{}）。", o[0]),
                    format!("Round {round} begins (initiative order: {}).", o[1]),
                ),
            )
        }
        E::DelayDeclared { character, after } => (
            "TMD-INI-5",
            l(
                format!("{character}は{after}のターンの後まで先攻を遅らせた。"),
                format!("{character}延后先攻至{after}的回合之后。"),
                format!("{character}延後先攻至{after}的回合之後。"),
                format!("{character} delays until after {after}'s turn."),
            ),
        ),
        E::TurnOrderSet { turns } => {
            let t = list(turns);
            (
                "TMD-INI-5",
                l(
                    format!("このラウンドのターン順：{}。", t[0]),
                    format!("本轮的回合顺序：{}。", t[0]),
                    format!("本輪的回合順序：{}。", t[0]),
                    format!("This round's turn order: {}.", t[1]),
                ),
            )
        }
        E::TurnStarted { character, base_ap, extra_ap, reflex_only_ap, ap_lost_to_overdraw, .. } => (
            "TMD-AP-2",
            l(
                format!("{character}のターン開始：基礎AP {base_ap}、追加AP {extra_ap}、反射専用AP {reflex_only_ap}（透支で失ったAP {ap_lost_to_overdraw}）。"),
                format!("{character}的回合开始：基础行动点{base_ap}，额外行动点{extra_ap}，仅反射AP {reflex_only_ap}（因透支失去{ap_lost_to_overdraw}点AP）。"),
                format!("{character}的回合開始：基礎行動點{base_ap}，額外行動點{extra_ap}，僅反射AP {reflex_only_ap}（因透支失去{ap_lost_to_overdraw}點AP）。"),
                format!("{character}'s turn begins: {base_ap} base AP, {extra_ap} extra AP, {reflex_only_ap} reflex-only AP ({ap_lost_to_overdraw} AP lost to overdraw)."),
            ),
        ),
        E::ActionGranted { character, action_type, gained } => {
            let n = conv(*action_type);
            if *gained {
                (
                    "TMD-AP-15",
                    l(
                        format!("{character}は付与された{}を得た。", n[0]),
                        format!("{character}获得了被给予的{}。", n[1]),
                        format!("{character}獲得了被給予的{}。", n[2]),
                        format!("{character} gains the granted {}.", n[3]),
                    ),
                )
            } else {
                (
                    "TMD-AP-15",
                    l(
                        format!("{character}は付与された{}を得られなかった（変換できない型）。", n[0]),
                        format!("{character}未能获得被给予的{}（无法转化该动作）。", n[1]),
                        format!("{character}未能獲得被給予的{}（無法轉化該動作）。", n[2]),
                        format!("{character} does not gain the granted {}: it could not have been converted.", n[3]),
                    ),
                )
            }
        }
        E::Converted { character, action_type, count, ap_spent } => {
            let n = act(*action_type);
            let rule = if *action_type == TmdActionType::Reflex { "TMD-AP-4" } else { "TMD-AP-6" };
            (
                rule,
                l(
                    format!("{character}はAP {ap_spent}を{}{count}回分に変換した。", n[0]),
                    format!("{character}消耗{ap_spent}点AP转化了{count}个{}。", n[1]),
                    format!("{character}消耗{ap_spent}點AP轉化了{count}個{}。", n[2]),
                    format!("{character} converts {ap_spent} AP into {count} {}(s).", n[3]),
                ),
            )
        }
        E::ActionUsed { character, action_type, spent, out_of_turn, ability } => {
            let n = act(*action_type);
            let sp: Vec<String> = spent.iter().map(|t| act(*t)[3].to_string()).collect();
            let spj: Vec<String> = spent.iter().map(|t| act(*t)[0].to_string()).collect();
            let sph: Vec<String> = spent.iter().map(|t| act(*t)[1].to_string()).collect();
            let spt: Vec<String> = spent.iter().map(|t| act(*t)[2].to_string()).collect();
            let ab = ability.as_deref().map(|a| format!("（{a}）")).unwrap_or_default();
            let abe = ability.as_deref().map(|a| format!(" ({a})")).unwrap_or_default();
            let (oj, oh, ot, oe) =
                if *out_of_turn { ("ターン外に", "在回合外", "在回合外", " out of turn") } else { ("", "", "", "") };
            (
                act_rule(*action_type),
                l(
                    format!("{character}は{oj}{}を使った{ab}（消費：{}）。", n[0], list(&spj)[0]),
                    format!("{character}{oh}使用了{}{ab}（消耗：{}）。", n[1], list(&sph)[0]),
                    format!("{character}{ot}使用了{}{ab}（消耗：{}）。", n[2], list(&spt)[0]),
                    format!("{character} uses a {}{abe}{oe}, spending {}.", n[3], list(&sp)[1]),
                ),
            )
        }
        E::FreeActionUsed { character, purpose, source, .. } => (
            "TMD-ACT-1",
            l(
                format!("{character}はフリーアクション（{purpose}、{source}）を行った。"),
                format!("{character}进行了自由动作（{purpose}，来源{source}）。"),
                format!("{character}進行了自由動作（{purpose}，來源{source}）。"),
                format!("{character} takes a free action ({purpose}, from {source})."),
            ),
        ),
        E::Overdrawn { character, action_type, ap_owed } => {
            let n = conv(*action_type);
            (
                "TMD-AP-11",
                l(
                    format!("{character}は{}を透支した（次のターン開始時にAP {ap_owed}を失う）。", n[0]),
                    format!("{character}透支了{}（下个回合开始时失去{ap_owed}点AP）。", n[1]),
                    format!("{character}透支了{}（下個回合開始時失去{ap_owed}點AP）。", n[2]),
                    format!("{character} overdraws a {} ({ap_owed} AP lost at its next turn start).", n[3]),
                ),
            )
        }
        E::Retained { character, action_type, ability } => {
            let n = conv(*action_type);
            (
                "TMD-AP-14",
                l(
                    format!("{character}の{ability}が{}を保留した。", n[0]),
                    format!("{character}的{ability}保留了一个{}。", n[1]),
                    format!("{character}的{ability}保留了一個{}。", n[2]),
                    format!("{character}'s {ability} retains a {}.", n[3]),
                ),
            )
        }
        E::GrantQueued { character, action_type } => {
            let n = conv(*action_type);
            (
                "TMD-AP-15",
                l(
                    format!("{character}は次のターン開始時に{}を得る。", n[0]),
                    format!("{character}将在下个回合开始时获得一个{}。", n[1]),
                    format!("{character}將在下個回合開始時獲得一個{}。", n[2]),
                    format!("{character} will gain a {} at its next turn start.", n[3]),
                ),
            )
        }
        E::ApGained { character, amount, reflex_only } => {
            if *reflex_only {
                (
                    "TMD-AP-4",
                    l(
                        format!("{character}はターン外専用のAPを{amount}得た。"),
                        format!("{character}获得了{amount}点仅能在回合外使用的AP。"),
                        format!("{character}獲得了{amount}點僅能在回合外使用的AP。"),
                        format!("{character} gains {amount} out-of-turn-only AP."),
                    ),
                )
            } else {
                (
                    "TMD-AP-3",
                    l(
                        format!("{character}は追加APを{amount}得た。"),
                        format!("{character}获得了{amount}点额外行动点。"),
                        format!("{character}獲得了{amount}點額外行動點。"),
                        format!("{character} gains {amount} extra AP."),
                    ),
                )
            }
        }
        E::DisabledChanged { character, action_type, disabled } => {
            let n = conv(*action_type);
            let (j, h, t, en) = if *disabled {
                ("使えなくなった", "失去了使用", "失去了使用", "loses the use of")
            } else {
                ("再び使えるようになった", "恢复了使用", "恢復了使用", "regains the use of")
            };
            (
                "TMD-AP-12",
                l(
                    format!("{character}は{}を{j}。", n[0]),
                    format!("{character}{h}{}的能力。", n[1]),
                    format!("{character}{t}{}的能力。", n[2]),
                    format!("{character} {en} the {}.", n[3]),
                ),
            )
        }
        E::TurnEnded { character, extra_ap_removed, reflex_only_ap_removed, extra_ap_carried } => (
            "TMD-TIME-2",
            l(
                format!("{character}のターンが終わった（追加AP {extra_ap_removed}と反射専用AP {reflex_only_ap_removed}を除去、AP {extra_ap_carried}を追加APとして保持）。"),
                format!("{character}的回合结束（移除额外行动点{extra_ap_removed}、仅反射AP {reflex_only_ap_removed}，保留{extra_ap_carried}点额外行动点）。"),
                format!("{character}的回合結束（移除額外行動點{extra_ap_removed}、僅反射AP {reflex_only_ap_removed}，保留{extra_ap_carried}點額外行動點）。"),
                format!("{character}'s turn ends: {extra_ap_removed} extra AP and {reflex_only_ap_removed} reflex-only AP removed, {extra_ap_carried} AP kept as extra AP."),
            ),
        ),
        E::ActionsRemoved { character, count } => (
            "TMD-AP-9",
            l(
                format!("ラウンド終了：{character}の未使用のアクション{count}個が除去された。"),
                format!("行动轮结束：{character}未使用的{count}个动作被移除。"),
                format!("行動輪結束：{character}未使用的{count}個動作被移除。"),
                format!("At the round's end {count} unused action(s) of {character} are removed."),
            ),
        ),
        E::SwiftBecameReflex { character, count, expires_round } => (
            "TMD-AP-9",
            l(
                format!("{character}の未使用のスウィフトアクション{count}個がリフレックスアクションになった（第{expires_round}ラウンド終了まで）。"),
                format!("{character}未使用的{count}个迅捷动作转为反射动作（保留至第{expires_round}轮结束）。"),
                format!("{character}未使用的{count}個迅捷動作轉為反射動作（保留至第{expires_round}輪結束）。"),
                format!("{count} unused swift action(s) of {character} become reflex actions until the end of round {expires_round}."),
            ),
        ),
        E::ReflexExpired { character, count } => (
            "TMD-AP-9",
            l(
                format!("{character}のリフレックスアクション{count}個が期限切れになった。"),
                format!("{character}的{count}个反射动作到期了。"),
                format!("{character}的{count}個反射動作到期了。"),
                format!("{count} reflex action(s) of {character} expire."),
            ),
        ),
        E::RoundEnded { round } => (
            "TMD-TIME-5",
            l(
                format!("第{round}ラウンドが終わった。"),
                format!("第{round}战斗轮结束。"),
                format!("第{round}戰鬥輪結束。"),
                format!("Round {round} ends."),
            ),
        ),
        E::Joined { characters } => {
            let c = list(characters);
            (
                "TMD-INI-4",
                l(
                    format!("{}が戦闘に加わり、このラウンドの最後に行動する。", c[0]),
                    format!("{}加入战斗，在本轮最后行动。", c[0]),
                    format!("{}加入戰鬥，在本輪最後行動。", c[0]),
                    format!("{} join the battle and act last this round.", c[1]),
                ),
            )
        }
        E::Left { character } => (
            "TMD-INI-6",
            l(
                format!("{character}が戦闘から離れた。"),
                format!("{character}离开了战斗。"),
                format!("{character}離開了戰鬥。"),
                format!("{character} leaves the battle."),
            ),
        ),
        E::InitiativeChanged { character, base_initiative, resort_at_round_end } => {
            let (j, h, t, en) = if *resort_at_round_end {
                ("（ラウンド終了時に並べ直す）", "（本轮结束时重新排列）", "（本輪結束時重新排列）", "; the order is re-sorted at the round's end")
            } else {
                ("", "", "", "")
            };
            (
                "TMD-INI-3",
                l(
                    format!("{character}の基礎先攻値が{base_initiative}になった{j}。"),
                    format!("{character}的基础先攻值变为{base_initiative}{h}。"),
                    format!("{character}的基礎先攻值變為{base_initiative}{t}。"),
                    format!("{character}'s base initiative becomes {base_initiative}{en}."),
                ),
            )
        }
        E::EffectApplied { effect } => {
            let rule = if effect.duration == super::state::TmdDuration::Scene { "TMD-SCN-2" } else { "TMD-TIME-3" };
            let (a, t, n) = (&effect.applier, &effect.target, &effect.name);
            (
                rule,
                l(
                    format!("{a}が{t}に効果「{n}」を与えた。"),
                    format!("{a}对{t}施加了效果「{n}」。"),
                    format!("{a}對{t}施加了效果「{n}」。"),
                    format!("{a} applies the effect \"{n}\" to {t}."),
                ),
            )
        }
        E::EffectEnded { name, reason, .. } => {
            let rule = if reason == "scene_change" { "TMD-SCN-2" } else { "TMD-TIME-3" };
            (
                rule,
                l(
                    format!("効果「{name}」が終わった（{reason}）。"),
                    format!("效果「{name}」结束了（{reason}）。"),
                    format!("效果「{name}」結束了（{reason}）。"),
                    format!("The effect \"{name}\" ends ({reason})."),
                ),
            )
        }
        E::TeleportedWithinScene { character } => (
            "TMD-SCN-4",
            l(
                format!("{character}はシーン内でテレポートした（シーンは変わらない）。"),
                format!("{character}在场景内传送（不视为变换场景）。"),
                format!("{character}在場景內傳送（不視為變換場景）。"),
                format!("{character} teleports within the scene (no scene change)."),
            ),
        ),
        E::ChainStarted { character, entry } => (
            "TMD-INT-1",
            l(
                format!("{character}の行動（#{entry}）の解決が始まり、割り込みができる。"),
                format!("{character}的动作（#{entry}）开始结算，可以插入动作。"),
                format!("{character}的動作（#{entry}）開始結算，可以插入動作。"),
                format!("{character}'s action (#{entry}) is announced and may be interrupted."),
            ),
        ),
        E::InterruptDeclared { character, entry, interrupts, first, locked_out, .. } => {
            let rule = if locked_out.is_some() { "TMD-INT-2" } else { "TMD-INT-3" };
            (
                rule,
                l(
                    format!("{character}が#{interrupts}に割り込んだ（#{entry}）。先に解決するのは{first}。"),
                    format!("{character}插入了#{interrupts}（#{entry}），先结算的是{first}。"),
                    format!("{character}插入了#{interrupts}（#{entry}），先結算的是{first}。"),
                    format!("{character} interrupts #{interrupts} (#{entry}); {first} resolves first."),
                ),
            )
        }
        E::PreemptionIgnored { character } => (
            "TMD-INT-4",
            l(
                format!("{character}は【先制】を無視した。"),
                format!("{character}无视了【先制】。"),
                format!("{character}無視了【先制】。"),
                format!("{character} ignores the Pre-emption."),
            ),
        ),
        E::InterruptsClosed { entry } => (
            "TMD-INT-3",
            l(
                format!("#{entry}には誰も割り込まなかった。"),
                format!("没有人插入#{entry}。"),
                format!("沒有人插入#{entry}。"),
                format!("Nobody interrupts #{entry}."),
            ),
        ),
        E::Resolved { entry, character, label } => (
            "TMD-INT-1",
            l(
                format!("{character}の行動#{entry}（{label}）が解決された。"),
                format!("{character}的动作#{entry}（{label}）结算完毕。"),
                format!("{character}的動作#{entry}（{label}）結算完畢。"),
                format!("{character}'s action #{entry} ({label}) resolves."),
            ),
        ),
        E::ChainEnded {} => (
            "TMD-INT-1",
            l(
                "割り込みの連鎖が終わった。".into(),
                "插入动作的结算链结束了。".into(),
                "插入動作的結算鏈結束了。".into(),
                "The interrupt chain is over.".into(),
            ),
        ),
        E::EncounterEnded {} => (
            "TMD-SCN-1",
            l(
                "戦闘が終わった。".into(),
                "战斗结束了。".into(),
                "戰鬥結束了。".into(),
                "The battle is over.".into(),
            ),
        ),
        E::Damaged { character, amount, hp } => (
            "TMD-TIME-2",
            l(
                format!("主持人の裁定：{character}は{amount}ダメージを受けた（残りHP {hp}）。"),
                format!("主持人裁定：{character}受到{amount}点伤害（剩余HP {hp}）。"),
                format!("主持人裁定：{character}受到{amount}點傷害（剩餘HP {hp}）。"),
                format!("The GM rules that {character} takes {amount} damage ({hp} HP left)."),
            ),
        ),
        E::Downed { character } => (
            "TMD-TIME-1",
            l(
                format!("主持人の裁定：{character}は倒れ、もう行動できない。"),
                format!("主持人裁定：{character}倒下了，无法再行动。"),
                format!("主持人裁定：{character}倒下了，無法再行動。"),
                format!("The GM rules that {character} is down and can act no more."),
            ),
        ),
    }
}
