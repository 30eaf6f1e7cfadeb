//! The `text` of every round event: one full sentence in ja, zh-Hans, zh-Hant and en
//! stating what happened (who did what to whom, the check, the damage taken, HP left).
//! The action names are the pack's (`names`, the rulebook's own terms in ja).

use crate::fap_map::catalog::FmNames;
use crate::fap_map::checks::FmEvasionCheckResult;
use crate::fap_map::points::text as pts;
use crate::kernel::label::WtLabel;

fn l(ja: String, zh_hans: String, zh_hant: String, en: String) -> WtLabel {
    WtLabel { ja, zh_hans, zh_hant, en }
}

/// FAP and MAP spent: `（FAP 7・MAP 1消費）`, `(7 FAP / 1 MAP)`.
fn spent(f: i64, m: i64) -> [String; 4] {
    let (f, m) = (pts(f), pts(m));
    [
        format!("（FAP {f}・MAP {m}消費）"),
        format!("（消耗FAP {f}、MAP {m}）"),
        format!("（消耗FAP {f}、MAP {m}）"),
        format!(" ({f} FAP / {m} MAP)"),
    ]
}

/// FAP and MAP spent and left.
fn spent_left(f: i64, m: i64, fl: i64, ml: i64) -> [String; 4] {
    let (f, m, fl, ml) = (pts(f), pts(m), pts(fl), pts(ml));
    [
        format!("（FAP {f}・MAP {m}消費、残りFAP {fl}・MAP {ml}）"),
        format!("（消耗FAP {f}、MAP {m}，剩余FAP {fl}、MAP {ml}）"),
        format!("（消耗FAP {f}、MAP {m}，剩餘FAP {fl}、MAP {ml}）"),
        format!(" ({f} FAP / {m} MAP; {fl} FAP / {ml} MAP left)"),
    ]
}

/// Who an attack is aimed at and its damage: `（対象: b、ダメージ 5）`.
fn aimed(targets: &[String], damage: Option<i64>) -> [String; 4] {
    if targets.is_empty() {
        return Default::default();
    }
    let t = targets.join(", ");
    let tj = targets.join("、");
    match damage {
        Some(d) => [
            format!("（対象: {tj}、ダメージ {d}）"),
            format!("（目标：{tj}，伤害 {d}）"),
            format!("（目標：{tj}，傷害 {d}）"),
            format!(" against {t} for {d} damage"),
        ],
        None => [
            format!("（対象: {tj}）"),
            format!("（目标：{tj}）"),
            format!("（目標：{tj}）"),
            format!(" against {t}"),
        ],
    }
}

/// `takes 5 damage (3 HP left)`; `takes no damage`.
fn took(damage_taken: i64, hp: Option<i64>) -> [String; 4] {
    let hp = match hp {
        Some(h) => [
            format!("（残りHP {h}）"),
            format!("（剩余HP {h}）"),
            format!("（剩餘HP {h}）"),
            format!(" ({h} HP left)"),
        ],
        None => Default::default(),
    };
    if damage_taken == 0 {
        return [
            format!("ダメージを受けなかった{}", hp[0]),
            format!("未受到伤害{}", hp[1]),
            format!("未受到傷害{}", hp[2]),
            format!("takes no damage{}", hp[3]),
        ];
    }
    [
        format!("{damage_taken}ダメージを受けた{}", hp[0]),
        format!("受到{damage_taken}点伤害{}", hp[1]),
        format!("受到{damage_taken}點傷害{}", hp[2]),
        format!("takes {damage_taken} damage{}", hp[3]),
    ]
}

/// The round begins (FM-DEF-4).
pub(crate) fn started(round: u32) -> WtLabel {
    l(
        format!("第{round}ラウンド開始：各キャラクターが行動を宣言する。"),
        format!("第{round}轮开始：各角色宣言行动。"),
        format!("第{round}輪開始：各角色宣言行動。"),
        format!("Round {round} begins: every character declares its actions."),
    )
}

/// A declaration (its cost, reserved: `（消費FAP 7・消費MAP 1）`).
pub(crate) fn declared(
    who: &str,
    n: &FmNames,
    f: i64,
    m: i64,
    targets: &[String],
    damage: Option<i64>,
) -> WtLabel {
    let (fs, ms) = (pts(f), pts(m));
    let s = [
        format!("（消費FAP {fs}・消費MAP {ms}）"),
        format!("（FAP {fs}、MAP {ms}）"),
        format!("（FAP {fs}、MAP {ms}）"),
        format!(" ({fs} FAP / {ms} MAP)"),
    ];
    let a = aimed(targets, damage);
    l(
        format!("{who}は{}を宣言した{}{}。", n.ja, a[0], s[0]),
        format!("{who}宣言了{}{}{}。", n.zh_hans, a[1], s[1]),
        format!("{who}宣言了{}{}{}。", n.zh_hant, a[2], s[2]),
        format!("{who} declares {}{}{}.", n.en, a[3], s[3]),
    )
}

/// Carried actions dropped.
pub(crate) fn released(who: &str) -> WtLabel {
    l(
        format!("{who}は持ち越した行動を取りやめた。"),
        format!("{who}放弃了延续的行动。"),
        format!("{who}放棄了延續的行動。"),
        format!("{who} drops its carried actions."),
    )
}

/// The declarations end.
pub(crate) fn declarations_ended() -> WtLabel {
    l(
        "宣言が終わり、行動順に解決する。".into(),
        "宣言结束，按行动顺序结算。".into(),
        "宣言結束，按行動順序結算。".into(),
        "Declarations end; the actions resolve in action order.".into(),
    )
}

/// A declared action resolved.
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolved(
    who: &str,
    n: &FmNames,
    cost: (i64, i64),
    left: (i64, i64),
    targets: &[String],
    damage: Option<i64>,
) -> WtLabel {
    let s = spent_left(cost.0, cost.1, left.0, left.1);
    let a = aimed(targets, damage);
    l(
        format!("{who}は{}を解決した{}{}。", n.ja, a[0], s[0]),
        format!("{who}结算了{}{}{}。", n.zh_hans, a[1], s[1]),
        format!("{who}結算了{}{}{}。", n.zh_hant, a[2], s[2]),
        format!("{who} resolves {}{}{}.", n.en, a[3], s[3]),
    )
}

/// A declared action given up.
pub(crate) fn skipped(who: &str, n: &FmNames) -> WtLabel {
    l(
        format!("{who}は{}を取りやめた（消費なし）。", n.ja),
        format!("{who}放弃了{}（不消耗）。", n.zh_hans),
        format!("{who}放棄了{}（不消耗）。", n.zh_hant),
        format!("{who} gives up {} (nothing spent).", n.en),
    )
}

/// An undeclared action used (Speech, or an answer with no check and no damage).
pub(crate) fn used(who: &str, n: &FmNames, f: i64, m: i64) -> WtLabel {
    let s = spent(f, m);
    l(
        format!("{who}は{}を使った{}。", n.ja, s[0]),
        format!("{who}使用了{}{}。", n.zh_hans, s[1]),
        format!("{who}使用了{}{}。", n.zh_hant, s[2]),
        format!("{who} uses {}{}.", n.en, s[3]),
    )
}

/// What answered an attack: who, with what, against whose attack.
pub(crate) struct Answer<'a> {
    pub who: &'a str,
    pub with: &'a FmNames,
    pub attacker: &'a str,
    pub attack: &'a FmNames,
    pub check: Option<&'a FmEvasionCheckResult>,
    pub target_value: Option<i64>,
    pub damage_taken: Option<i64>,
    pub hp: Option<i64>,
    pub prone: bool,
}

/// Evade / Jump evasion answering an attack (FM-DEF-2, FM-ACT-14, FM-ACT-16): the check,
/// the damage taken and HP left, and a fall.
pub(crate) fn answered(x: &Answer) -> WtLabel {
    let mut parts: Vec<[String; 4]> = Vec::new();
    if let (Some(c), Some(tv)) = (x.check, x.target_value) {
        let t = c.total;
        parts.push(if c.success {
            [
                format!("回避判定{t}（目標値{tv}）に成功"),
                format!("回避判定{t}（目标值{tv}）成功"),
                format!("回避判定{t}（目標值{tv}）成功"),
                format!("the evasion check of {t} beats the target value {tv}"),
            ]
        } else {
            [
                format!("回避判定{t}（目標値{tv}）に失敗"),
                format!("回避判定{t}（目标值{tv}）失败"),
                format!("回避判定{t}（目標值{tv}）失敗"),
                format!("the evasion check of {t} fails against the target value {tv}"),
            ]
        });
    }
    if let Some(d) = x.damage_taken {
        let t = took(d, x.hp);
        parts.push([t[0].clone(), t[1].clone(), t[2].clone(), format!("{} {}", x.who, t[3])]);
    }
    if x.prone {
        parts.push([
            "敏捷力判定に失敗して転倒した".into(),
            "敏捷判定失败而摔倒".into(),
            "敏捷判定失敗而摔倒".into(),
            format!("{} fails the agility check and falls prone", x.who),
        ]);
    }
    let (w, a, who, at) = (x.with, x.attack, x.who, x.attacker);
    if parts.is_empty() {
        return l(
            format!("{who}は{at}の{}に{}で応じた。", a.ja, w.ja),
            format!("{who}以{}应对{at}的{}。", w.zh_hans, a.zh_hans),
            format!("{who}以{}應對{at}的{}。", w.zh_hant, a.zh_hant),
            format!("{who} answers {at}'s {} with {}.", a.en, w.en),
        );
    }
    let join = |i: usize, sep: &str| parts.iter().map(|p| p[i].as_str()).collect::<Vec<_>>().join(sep);
    l(
        format!("{who}は{at}の{}に{}で応じた：{}。", a.ja, w.ja, join(0, "、")),
        format!("{who}以{}应对{at}的{}：{}。", w.zh_hans, a.zh_hans, join(1, "，")),
        format!("{who}以{}應對{at}的{}：{}。", w.zh_hant, a.zh_hant, join(2, "，")),
        format!("{who} answers {at}'s {} with {}: {}.", a.en, w.en, join(3, "; ")),
    )
}

/// The target took the attack without answering it.
pub(crate) fn hit(
    who: &str,
    attacker: &str,
    attack: &FmNames,
    damage_taken: Option<i64>,
    hp: Option<i64>,
) -> WtLabel {
    match damage_taken {
        Some(d) => {
            let t = took(d, hp);
            l(
                format!("{attacker}の{}が{who}に命中し、{who}は{}。", attack.ja, t[0]),
                format!("{attacker}的{}命中{who}，{who}{}。", attack.zh_hans, t[1]),
                format!("{attacker}的{}命中{who}，{who}{}。", attack.zh_hant, t[2]),
                format!("{attacker}'s {} hits {who}, who {}.", attack.en, t[3]),
            )
        }
        None => l(
            format!("{attacker}の{}が{who}に命中した。", attack.ja),
            format!("{attacker}的{}命中了{who}。", attack.zh_hans),
            format!("{attacker}的{}命中了{who}。", attack.zh_hant),
            format!("{attacker}'s {} hits {who}.", attack.en),
        ),
    }
}

/// A block contest (FM-ACT-8, FM-ACT-12).
#[allow(clippy::too_many_arguments)]
pub(crate) fn blocked(
    who: &str,
    block: &FmNames,
    target: &str,
    action: &FmNames,
    fap: i64,
    target_fap: i64,
    rel_t: i64,
    holds: bool,
) -> WtLabel {
    let (f, tf, rt) = (pts(fap), pts(target_fap), pts(rel_t));
    let r = if holds {
        [
            format!("{}が成立した", block.ja),
            format!("{}成功", block.zh_hans),
            format!("{}成功", block.zh_hant),
            "the block holds".to_string(),
        ]
    } else {
        [
            format!("{}は相殺された", block.ja),
            format!("{}被抵消", block.zh_hans),
            format!("{}被抵消", block.zh_hant),
            "the block is cancelled".to_string(),
        ]
    };
    l(
        format!(
            "{who}は{target}の{}に{}：FAP {f} 対 FAP {tf}＋相対T値 {rt}で{}。",
            action.ja, block.ja, r[0]
        ),
        format!(
            "{who}对{target}的{}进行{}：FAP {f} 对 FAP {tf}＋相对T值 {rt}，{}。",
            action.zh_hans, block.zh_hans, r[1]
        ),
        format!(
            "{who}對{target}的{}進行{}：FAP {f} 對 FAP {tf}＋相對T值 {rt}，{}。",
            action.zh_hant, block.zh_hant, r[2]
        ),
        format!(
            "{who} tries {} on {target}'s {} with {f} FAP against {tf} FAP + relative T {rt}: {}.",
            block.en, action.en, r[3]
        ),
    )
}

/// A readied action's paired action fires out of order (FM-ACT-19).
pub(crate) fn triggered(who: &str, n: &FmNames, f: i64, m: i64) -> WtLabel {
    let s = spent(f, m);
    l(
        format!("{who}の待機行動が発動し、{}を行動順に関係なく解決した{}。", n.ja, s[0]),
        format!("{who}的待机行动触发，无视行动顺序结算了{}{}。", n.zh_hans, s[1]),
        format!("{who}的待機行動觸發，無視行動順序結算了{}{}。", n.zh_hant, s[2]),
        format!("{who}'s readied action fires: {} resolves out of order{}.", n.en, s[3]),
    )
}

/// A following Move (FM-ACT-7).
pub(crate) fn followed(who: &str, target: &str, n: &FmNames, cost: (i64, i64), left: (i64, i64)) -> WtLabel {
    let s = spent_left(cost.0, cost.1, left.0, left.1);
    l(
        format!("{who}は{target}の{}にあわせて{}した{}。", n.ja, n.ja, s[0]),
        format!("{who}配合{target}的{}一同{}{}。", n.zh_hans, n.zh_hans, s[1]),
        format!("{who}配合{target}的{}一同{}{}。", n.zh_hant, n.zh_hant, s[2]),
        format!("{who} follows {target}'s {} in step{}.", n.en, s[3]),
    )
}

/// A grapple recorded or ended (FM-ACT-12, FM-ACT-13).
pub(crate) fn grapple(who: &str, target: &str, grappling: bool) -> WtLabel {
    if grappling {
        l(
            format!("{who}と{target}は組みつき中になった。"),
            format!("{who}与{target}进入擒抱状态。"),
            format!("{who}與{target}進入擒抱狀態。"),
            format!("{who} and {target} are grappling."),
        )
    } else {
        l(
            format!("{who}と{target}の組みつきが解けた。"),
            format!("{who}与{target}的擒抱解除了。"),
            format!("{who}與{target}的擒抱解除了。"),
            format!("{who} and {target} are no longer grappling."),
        )
    }
}

/// A new round with full pools (FM-AP-5).
pub(crate) fn round_ended(round: u32) -> WtLabel {
    l(
        format!("第{round}ラウンド開始：FAPとMAPが全回復した。"),
        format!("第{round}轮开始：FAP与MAP全部恢复。"),
        format!("第{round}輪開始：FAP與MAP全部恢復。"),
        format!("Round {round} begins: FAP and MAP are refilled."),
    )
}
