//! The one-sentence `text` of every round event, in ja / zh_hans / zh_hant / en, in the
//! seed's own terms (回避, 防御, 応戦, かばう, 相殺, 反撃, イクストリーム成功 …).

use super::chase::{C7hChaseStatus, C7hChaseWinner};
use super::round::{C7hPassiveKind, C7hStance, C7hStatus};
use crate::coc7::Coc7Level;
use crate::json::ToJson;
use crate::kernel::label::WtLabel;

/// The four texts, built from one closure per language.
fn four(f: impl Fn(usize) -> String) -> WtLabel {
    WtLabel { ja: f(0), zh_hans: f(1), zh_hant: f(2), en: f(3) }
}

fn level(l: Coc7Level, lang: usize) -> String {
    let t = l.labels();
    [t.ja, t.zh_hans, t.zh_hant, t.en][lang].clone()
}

fn passive(k: C7hPassiveKind, lang: usize) -> String {
    let key = k.to_json();
    super::labels::passive_names(key.as_str().unwrap_or(""))[lang].to_string()
}

fn status(s: C7hStatus, lang: usize) -> &'static str {
    match s {
        C7hStatus::Active => ["", "", "", ""][lang],
        C7hStatus::Unconscious => ["気絶", "昏迷", "昏迷", "unconscious"][lang],
        C7hStatus::Dying => ["瀕死", "濒死", "瀕死", "dying"][lang],
        C7hStatus::Dead => ["死亡", "死亡", "死亡", "dead"][lang],
    }
}

pub(crate) fn round_started(round: u32, order: &[String]) -> WtLabel {
    let o = order.join(" → ");
    four(|l| match l {
        0 => format!("ラウンド{round}開始：行動順は{o}。"),
        1 => format!("第{round}轮开始：行动顺序为{o}。"),
        2 => format!("第{round}輪開始：行動順序為{o}。"),
        _ => format!("Round {round} starts; turn order: {o}."),
    })
}

pub(crate) fn moved(a: &str) -> WtLabel {
    four(|l| match l {
        0 => format!("{a}は移動した。"),
        1 => format!("{a}进行了移动。"),
        2 => format!("{a}進行了移動。"),
        _ => format!("{a} moves."),
    })
}

pub(crate) fn active_used(a: &str) -> WtLabel {
    four(|l| match l {
        0 => format!("{a}は能動行動を使った。"),
        1 => format!("{a}使用了主动行动。"),
        2 => format!("{a}使用了主動行動。"),
        _ => format!("{a} uses the active action."),
    })
}

pub(crate) fn stance_taken(a: &str, o: C7hStance) -> WtLabel {
    let extra = o == C7hStance::ExtraPassive;
    four(|l| match (l, extra) {
        (0, true) => format!("{a}は防御姿勢をとった（受動行動回数+1）。"),
        (0, false) => format!("{a}は防御姿勢をとった（受動行動判定にボーナスダイス+1）。"),
        (1, true) => format!("{a}采取防御姿态（被动行动次数+1）。"),
        (1, false) => format!("{a}采取防御姿态（被动行动检定奖励骰+1）。"),
        (2, true) => format!("{a}採取防禦姿態（被動行動次數+1）。"),
        (2, false) => format!("{a}採取防禦姿態（被動行動檢定獎勵骰+1）。"),
        (_, true) => format!("{a} takes a defensive stance (+1 passive action)."),
        (_, false) => format!("{a} takes a defensive stance (+1 bonus die on a passive roll)."),
    })
}

pub(crate) fn passive_used(a: &str, k: C7hPassiveKind) -> WtLabel {
    four(|l| match l {
        0 => format!("{a}は受動行動（{}）を使った。", passive(k, l)),
        1 => format!("{a}使用了被动行动（{}）。", passive(k, l)),
        2 => format!("{a}使用了被動行動（{}）。", passive(k, l)),
        _ => format!("{a} uses a passive action ({}).", passive(k, l)),
    })
}

pub(crate) fn free_used(a: &str) -> WtLabel {
    four(|l| match l {
        0 => format!("{a}は自由行動を使った。"),
        1 => format!("{a}使用了自由行动。"),
        2 => format!("{a}使用了自由行動。"),
        _ => format!("{a} uses the free action."),
    })
}

pub(crate) fn turn_ended(a: &str, next: Option<&str>) -> WtLabel {
    four(|l| match (l, next) {
        (0, Some(n)) => format!("{a}の手番が終わり、{n}の手番になった。"),
        (0, None) => format!("{a}の手番が終わり、このラウンドの全手番が終わった。"),
        (1, Some(n)) => format!("{a}的回合结束，轮到{n}。"),
        (1, None) => format!("{a}的回合结束，本轮所有回合已结束。"),
        (2, Some(n)) => format!("{a}的回合結束，輪到{n}。"),
        (2, None) => format!("{a}的回合結束，本輪所有回合已結束。"),
        (_, Some(n)) => format!("{a}'s turn ends; it is {n}'s turn."),
        (_, None) => format!("{a}'s turn ends; every turn of the round has ended."),
    })
}

pub(crate) fn attack_declared(a: &str, t: &str, w: &str, bonus: i64) -> WtLabel {
    let dice = |l: usize| match (l, bonus) {
        (_, 0) => String::new(),
        (0, b) if b < 0 => format!("（ペナルティダイス{}）", -b),
        (0, b) => format!("（ボーナスダイス{b}）"),
        (1, b) if b < 0 => format!("（惩罚骰{}）", -b),
        (1, b) => format!("（奖励骰{b}）"),
        (2, b) if b < 0 => format!("（懲罰骰{}）", -b),
        (2, b) => format!("（獎勵骰{b}）"),
        (_, b) if b < 0 => format!(" ({} penalty dice)", -b),
        (_, b) => format!(" ({b} bonus dice)"),
    };
    four(|l| match l {
        0 => format!("{a}は{w}で{t}を攻撃する{}。{t}の受動行動を待つ。", dice(l)),
        1 => format!("{a}用{w}攻击{t}{}，等待{t}的被动行动。", dice(l)),
        2 => format!("{a}用{w}攻擊{t}{}，等待{t}的被動行動。", dice(l)),
        _ => format!("{a} attacks {t} with {w}{}; {t} may react.", dice(l)),
    })
}

/// What a resolved exchange's sentence states.
pub(crate) struct Exchange<'a> {
    pub attacker: &'a str,
    pub target: &'a str,
    pub weapon: &'a str,
    pub attack: Coc7Level,
    pub reactor: Option<&'a str>,
    pub kind: Option<C7hPassiveKind>,
    pub reaction: Option<Coc7Level>,
    pub hit: bool,
    pub hurt: Option<&'a str>,
    pub damage_taken: i64,
    pub hp: Option<i64>,
    pub status: C7hStatus,
    pub major_wound: bool,
    pub returned: Option<i64>,
    pub attacker_hp: Option<i64>,
    pub attacker_status: C7hStatus,
    pub auto_hit: bool,
}

pub(crate) fn attack_resolved(x: &Exchange) -> WtLabel {
    four(|l| {
        let (a, t, w) = (x.attacker, x.target, x.weapon);
        let la = level(x.attack, l);
        let mut out = match l {
            0 => format!("{a}は{w}で{t}を攻撃：{la}"),
            1 => format!("{a}用{w}攻击{t}：{la}"),
            2 => format!("{a}用{w}攻擊{t}：{la}"),
            _ => format!("{a} attacks {t} with {w}: {la}"),
        };
        if x.auto_hit {
            out += ["（自動命中）", "（自动命中）", "（自動命中）", " (automatic hit)"][l];
        }
        if let (Some(r), Some(k), Some(lr)) = (x.reactor, x.kind, x.reaction) {
            let (k, lr) = (passive(k, l), level(lr, l));
            out += &match l {
                0 => format!("、{r}の{k}は{lr}"),
                1 => format!("，{r}的{k}为{lr}"),
                2 => format!("，{r}的{k}為{lr}"),
                _ => format!("; {r}'s {k}: {lr}"),
            };
        }
        out += match (l, x.hit) {
            (0, true) => "。命中",
            (0, false) => "。命中せず",
            (1, true) => "；命中",
            (1, false) => "；未命中",
            (2, true) => "；命中",
            (2, false) => "；未命中",
            (_, true) => "; hit",
            (_, false) => "; miss",
        };
        if let Some(h) = x.hurt {
            let n = x.damage_taken;
            out += &match l {
                0 => format!("、{h}に{n}ダメージ"),
                1 => format!("，{h}受到{n}点伤害"),
                2 => format!("，{h}受到{n}點傷害"),
                _ => format!(", {n} damage to {h}"),
            };
            out += &hp_left(l, h, x.hp, x.status, x.major_wound);
        }
        if let Some(m) = x.returned {
            out += &match l {
                0 => format!("。{a}は{m}ダメージを受けた"),
                1 => format!("；{a}受到{m}点伤害"),
                2 => format!("；{a}受到{m}點傷害"),
                _ => format!("; {a} takes {m} damage"),
            };
            out += &hp_left(l, a, x.attacker_hp, x.attacker_status, false);
        }
        out += if l == 3 { "." } else { "。" };
        out
    })
}

fn hp_left(l: usize, who: &str, hp: Option<i64>, st: C7hStatus, major: bool) -> String {
    let mut out = String::new();
    if let Some(h) = hp {
        out += &match l {
            0 => format!("、{who}の残りHPは{h}"),
            1 => format!("，{who}剩余HP {h}"),
            2 => format!("，{who}剩餘HP {h}"),
            _ => format!(", {who} has {h} HP left"),
        };
    }
    if major {
        out += ["（重傷）", "（重伤）", "（重傷）", " (major wound)"][l];
    }
    if st != C7hStatus::Active {
        out += &match l {
            0 => format!("、{}", status(st, l)),
            1 | 2 => format!("，{}", status(st, l)),
            _ => format!(", {}", status(st, l)),
        };
    }
    out
}

fn chase_status(st: C7hChaseStatus, l: usize) -> &'static str {
    match st {
        C7hChaseStatus::Ongoing => ["チェイス続行", "追逐继续", "追逐繼續", "the chase goes on"][l],
        C7hChaseStatus::Escaped => ["逃亡成功", "逃脱成功", "逃脫成功", "the fugitive escapes"][l],
        C7hChaseStatus::Caught => ["追いつかれた", "被追上", "被追上", "the fugitive is caught"][l],
    }
}

pub(crate) fn chase_started(f: &str, p: Option<&str>, gap: i64, st: C7hChaseStatus) -> WtLabel {
    four(|l| {
        let s = chase_status(st, l);
        match (l, p) {
            (0, Some(p)) => format!("{f}の逃亡を{p}が追う：距離{gap}、{s}。"),
            (1, Some(p)) => format!("{p}追逐逃跑的{f}：距离{gap}，{s}。"),
            (2, Some(p)) => format!("{p}追逐逃跑的{f}：距離{gap}，{s}。"),
            (_, Some(p)) => format!("{p} pursues the fleeing {f}: gap {gap}, {s}."),
            (0, None) => format!("{f}は追跡者なしで逃亡：{s}。"),
            (1, None) => format!("{f}在无人追赶下逃跑：{s}。"),
            (2, None) => format!("{f}在無人追趕下逃跑：{s}。"),
            (_, None) => format!("{f} flees with no pursuer: {s}."),
        }
    })
}

/// What a chase round's sentence states.
pub(crate) struct ChaseRound<'a> {
    pub round: u32,
    pub fugitive: &'a str,
    pub pursuer: &'a str,
    pub fugitive_mov: i64,
    pub pursuer_mov: i64,
    pub dex: Option<(Coc7Level, Coc7Level)>,
    pub winner: Option<C7hChaseWinner>,
    pub gap: i64,
    pub status: C7hChaseStatus,
}

pub(crate) fn chase_round(x: &ChaseRound) -> WtLabel {
    four(|l| {
        let (n, f, p, fm, pm, g) = (x.round, x.fugitive, x.pursuer, x.fugitive_mov, x.pursuer_mov, x.gap);
        let mut out = match l {
            0 => format!("チェイス{n}ラウンド：{f}のMOV{fm}、{p}のMOV{pm}"),
            1 => format!("追逐第{n}轮：{f}的MOV {fm}，{p}的MOV {pm}"),
            2 => format!("追逐第{n}輪：{f}的MOV {fm}，{p}的MOV {pm}"),
            _ => format!("Chase round {n}: {f}'s MOV {fm}, {p}'s MOV {pm}"),
        };
        match (x.dex, x.winner) {
            (Some((fd, pd)), Some(w)) => {
                let (fd, pd) = (level(fd, l), level(pd, l));
                let who = match w {
                    C7hChaseWinner::Fugitive => Some(f),
                    C7hChaseWinner::Pursuer => Some(p),
                    C7hChaseWinner::Tie | C7hChaseWinner::Neither => None,
                };
                out += &match (l, who) {
                    (0, Some(w)) => format!("。DEX対抗：{f}は{fd}、{p}は{pd}、{w}の勝ち"),
                    (0, None) => format!("。DEX対抗：{f}は{fd}、{p}は{pd}、勝者なし"),
                    (1, Some(w)) => format!("；DEX对抗：{f}{fd}，{p}{pd}，{w}获胜"),
                    (1, None) => format!("；DEX对抗：{f}{fd}，{p}{pd}，无人获胜"),
                    (2, Some(w)) => format!("；DEX對抗：{f}{fd}，{p}{pd}，{w}獲勝"),
                    (2, None) => format!("；DEX對抗：{f}{fd}，{p}{pd}，無人獲勝"),
                    (_, Some(w)) => format!("; DEX: {f} {fd}, {p} {pd}, {w} wins"),
                    (_, None) => format!("; DEX: {f} {fd}, {p} {pd}, nobody wins"),
                };
            }
            _ => {
                out += &match l {
                    0 => format!("。{p}は追跡できない"),
                    1 => format!("；{p}无法追赶"),
                    2 => format!("；{p}無法追趕"),
                    _ => format!("; {p} cannot pursue"),
                };
            }
        }
        let s = chase_status(x.status, l);
        out += &match l {
            0 => format!("。距離{g}、{s}。"),
            1 => format!("；距离{g}，{s}。"),
            2 => format!("；距離{g}，{s}。"),
            _ => format!("; the gap is {g}, {s}."),
        };
        out
    })
}
