//! The `rule` and `text` of every battle event: the RULES.md ID that produced it and one
//! full sentence in ja, zh-Hans, zh-Hant and en stating what happened. Members and teams
//! are named by id, as in the other engines' sentences (a host shows its own names for
//! them); skills and operator commands by the battle catalog's names; phases, conditions
//! and special states by the rulebook's terms (zh-Hant is the seed's own language).
//!
//! The engine's own loop (`engine::act`, the batch simulations) keeps plain events: the
//! sentences are made where events are reported (the pure operations and the handles).

use super::actions::{WtBattleEvent, WtTrionLossCause};
use super::state::{WtBattleState, WtBattleType, WtEndReason, WtSquare};
use crate::kernel::label::{fill, Joined, Logged, Part, Say, Tpl, WtLabel, NOTHING};
use crate::world_trigger::character::WtSide;
use serde_json::Value;

/// A battle event as the operations and handles report it.
pub type WtBattleLoggedEvent = Logged<WtBattleEvent>;

/// Each event with its rule and sentence (names read from `s`, the state after them).
pub(crate) fn logged(s: &WtBattleState, events: Vec<WtBattleEvent>) -> Vec<WtBattleLoggedEvent> {
    events
        .into_iter()
        .map(|event| {
            let (rule, text) = describe(s, &event, &ALL_SEEN);
            let rule = rule.to_string();
            Logged { event, rule, text }
        })
        .collect()
}

impl Say for WtSquare {
    fn say(&self, _: usize, out: &mut String) {
        out.push('(');
        self.x.say(0, out);
        out.push_str(", ");
        self.y.say(0, out);
        out.push(')');
    }
}

/// Dice faces as `[3, 5, 6]`.
struct Faces<'a>(&'a [u32]);

impl Say for Faces<'_> {
    fn say(&self, _: usize, out: &mut String) {
        out.push('[');
        for (i, f) in self.0.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            f.say(0, out);
        }
        out.push(']');
    }
}

/// A check's dice and achievement: `[3, 5], achievement 8` (a check without dice, as a
/// Shield's guard: its achievement alone).
struct Rolled<'a>(&'a [u32], i64);

impl Say for Rolled<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        const WITH: Tpl = ["{0}、達成値{1}", "{0}，达成值{1}", "{0}，達成值{1}", "{0}, achievement {1}"];
        const ALONE: Tpl = ["達成値{0}", "达成值{0}", "達成值{0}", "achievement {0}"];
        if self.0.is_empty() {
            Part(&ALONE, &[&self.1]).say(lang, out)
        } else {
            Part(&WITH, &[&Faces(self.0), &self.1]).say(lang, out)
        }
    }
}

/// A signed change: `+2`, `-1`.
struct Signed(i64);

impl Say for Signed {
    fn say(&self, lang: usize, out: &mut String) {
        if self.0 > 0 {
            out.push('+');
        }
        self.0.say(lang, out)
    }
}

/// Triggers by the battle catalog's names of their skills of the same ids ([`Skill`]),
/// joined as a list in each language.
struct Triggers<'a>(&'a WtBattleState, &'a [String]);

impl Say for Triggers<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        for (i, id) in self.1.iter().enumerate() {
            if i > 0 {
                LIST.say(lang, out);
            }
            Skill(self.0, id).say(lang, out);
        }
    }
}

const LIST: Tpl = ["、", "、", "、", ", "];
const ARROWS: Tpl = [" → ", " → ", " → ", " → "];

fn side(s: WtSide) -> &'static Tpl {
    match s {
        WtSide::Main => &["メイン", "主触发器", "主觸發器", "main"],
        WtSide::Sub => &["サブ", "副触发器", "副觸發器", "sub"],
    }
}

/// A special state (WT-ST) by its key.
fn state_name(k: &str) -> Option<&'static Tpl> {
    Some(match k {
        "stealth" => &["隠密状態", "隐身状态", "隱身狀態", "Stealth"],
        "invisible" => &["不可視状態", "不可视状态", "不可視狀態", "Invisible"],
        "movement_reserved" => &["移動予約状態", "移动预约状态", "移動預約狀態", "Movement-reserved"],
        "floating" => &["浮遊状態", "浮游状态", "浮游狀態", "Floating"],
        _ => return None,
    })
}

/// A skill's name from the battle catalog (its id when the catalog has none).
struct Skill<'a>(&'a WtBattleState, &'a str);

impl Say for Skill<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        match self.0.catalog.skills.iter().find(|k| k.id == self.1) {
            Some(k) => k.label.say(lang, out),
            None => out.push_str(self.1),
        }
    }
}

/// What a viewer may not see of an event (WT-ST-1, `view`): the members it may not name
/// (a target or reactor in Stealth), and whether the event's squares are hidden (a move
/// made in Stealth).
pub(crate) struct Unseen<'a> {
    /// Whether a member is hidden from the viewer.
    pub hidden: &'a dyn Fn(&str) -> bool,
    /// The event's squares are hidden.
    pub squares: bool,
}

fn nobody(_: &str) -> bool {
    false
}

/// Everything seen (the GM, the event's own team).
const ALL_SEEN: Unseen<'static> = Unseen { hidden: &nobody, squares: false };

const UNSEEN: Tpl = ["姿の見えない隊員", "看不见的队员", "看不見的隊員", "an unseen member"];

/// A member the viewer may name, else "an unseen member".
struct Who<'a>(&'a Unseen<'a>, &'a str);

impl Say for Who<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        if (self.0.hidden)(self.1) {
            UNSEEN.say(lang, out)
        } else {
            out.push_str(self.1)
        }
    }
}

/// The targets the viewer may name; "an unseen member" when it may name none of them
/// (the view's `targets` leaves hidden ones out, so their number stays hidden too).
struct Targets<'a>(&'a Unseen<'a>, &'a [String]);

impl Say for Targets<'_> {
    fn say(&self, lang: usize, out: &mut String) {
        let seen: Vec<String> = self.1.iter().filter(|t| !(self.0.hidden)(t)).cloned().collect();
        if seen.is_empty() {
            UNSEEN.say(lang, out)
        } else {
            Joined(&seen, &LIST).say(lang, out)
        }
    }
}

/// An event's sentence as a viewer may read it (`view`, WT-ST-1): `event` is the event as
/// reported (its JSON), `hidden` the members the viewer may not name, `squares` whether
/// its squares are hidden. None if it is not one of the events a view redacts, as the
/// engine reports them.
pub(crate) fn seen_text(
    s: &WtBattleState,
    event: &Value,
    hidden: &dyn Fn(&str) -> bool,
    squares: bool,
) -> Option<WtLabel> {
    let e = redactable(event.as_object()?)?;
    Some(describe(s, &e, &Unseen { hidden, squares }).1)
}

/// The events a view may redact (they name a target or a reactor, or a move's squares),
/// read back from their JSON: only what their sentences say. (Reading every event kind
/// would bring the whole event parser into the wasm entries for these ten.)
fn redactable(o: &serde_json::Map<String, Value>) -> Option<WtBattleEvent> {
    let st = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
    let int = |k: &str| o.get(k).and_then(Value::as_i64);
    let small = |k: &str| int(k).and_then(|n| u32::try_from(n).ok());
    let faces = || -> Option<Vec<u32>> {
        o.get("faces")?.as_array()?.iter().map(|f| f.as_u64().and_then(|n| u32::try_from(n).ok())).collect()
    };
    let flag = |k: &str| o.get(k).and_then(Value::as_bool);
    let square = |k: &str| -> Option<WtSquare> {
        let p = o.get(k)?;
        Some(WtSquare { x: p.get("x")?.as_i64()?, y: p.get("y")?.as_i64()? })
    };
    use WtBattleEvent as E;
    Some(match o.get("type")?.as_str()? {
        "attack_declared" => E::AttackDeclared {
            attacker: st("attacker")?,
            skill: st("skill")?,
            targets: o
                .get("targets")?
                .as_array()?
                .iter()
                .map(|t| t.as_str().map(str::to_string))
                .collect::<Option<_>>()?,
        },
        "reaction_rolled" => E::ReactionRolled {
            target: st("target")?,
            reactor: st("reactor")?,
            skill: st("skill")?,
            faces: faces()?,
            achievement: int("achievement")?,
        },
        "no_reaction" => E::NoReaction { target: st("target")? },
        "hit_check" => E::HitCheck {
            attacker: st("attacker")?,
            target: st("target")?,
            special_attack: int("special_attack")?,
            faces: faces()?,
            achievement: int("achievement"),
            against: int("against"),
            hit: flag("hit")?,
        },
        "damage" => E::Damage {
            target: st("target")?,
            total: int("total")?,
            die: small("die")?,
            burst: int("burst")?,
            special_attack: int("special_attack")?,
            modifier: int("modifier")?,
            trion_after: int("trion_after")?,
        },
        "damage_table" => E::DamageTable {
            target: st("target")?,
            tier: int("tier")?,
            roll: small("roll")?,
            row: small("row")?,
            shifted_from: small("shifted_from"),
            effect: *crate::world_trigger::types::WtCondition::ALL
                .iter()
                .find(|c| Some(c.key()) == o.get("effect").and_then(Value::as_str))?,
        },
        "moved" => E::Moved { member: st("member")?, path: Vec::new(), cost: 0, movement: 0 },
        "forced_move" => E::ForcedMove {
            member: st("member")?,
            to: WtSquare { x: 0, y: 0 },
            out_of_bounds: flag("out_of_bounds")?,
        },
        "reentry" => E::Reentry {
            member: st("member")?,
            faces: faces()?,
            achievement: int("achievement")?,
            target: int("target")?,
            to: square("to"),
        },
        "brought_back" => {
            E::BroughtBack { member: st("member")?, by: st("by")?, to: WtSquare { x: 0, y: 0 } }
        }
        _ => return None,
    })
}

/// The rule of a battle's end (WT-END-1/2/3 by battle type).
fn end_rule(s: &WtBattleState) -> &'static str {
    match s.battle_type {
        WtBattleType::Mock => "WT-END-1",
        WtBattleType::Rank => "WT-END-2",
        WtBattleType::Defense => "WT-END-3",
    }
}

/// One event's rule and sentence.
fn describe<'a>(s: &WtBattleState, e: &'a WtBattleEvent, v: &Unseen) -> (&'a str, WtLabel) {
    use WtBattleEvent as E;
    match e {
        E::RoundStarted { round } => (
            "WT-RND-1",
            fill(&["第{0}ラウンド開始。", "第{0}轮开始。", "第{0}輪開始。", "Round {0} begins."], &[round]),
        ),
        E::PhaseStarted { label, order, .. } => {
            let t: &Tpl = if order.is_empty() {
                &["{0}開始。", "{0}开始。", "{0}開始。", "{0} begins."]
            } else {
                &[
                    "{0}開始。手番順：{1}。",
                    "{0}开始。行动顺序：{1}。",
                    "{0}開始。行動順序：{1}。",
                    "{0} begins; order: {1}.",
                ]
            };
            ("WT-RND-1", fill(t, &[label, &Joined(order, &ARROWS)]))
        }
        E::TeamTurn { team } => (
            "WT-INIT-2",
            fill(&["{0}の手番。", "轮到{0}行动。", "輪到{0}行動。", "Team {0} to act."], &[team]),
        ),
        E::Passed { team } => (
            "WT-INIT-2",
            fill(
                &["{0}は手番を終えた。", "{0}结束行动。", "{0}結束行動。", "Team {0} ends its turn."],
                &[team],
            ),
        ),
        E::SkillsWithoutBattleData { member, skills } => (
            "WT-CC-8",
            fill(
                &[
                    "{0}のスキル{1}は戦闘データがなく、この戦闘では使えない。",
                    "{0}的技能{1}没有战斗数据，本场战斗无法使用。",
                    "{0}的技能{1}沒有戰鬥數據，本場戰鬥無法使用。",
                    "{0} cannot use {1} in this battle: no battle values.",
                ],
                &[member, &Joined(skills, &LIST)],
            ),
        ),
        E::Revived { member, trion, .. } => (
            "WT-KO-3",
            fill(
                &[
                    "{0}が新たなトリオン体で復帰した（トリオン{1}）。",
                    "{0}以新的触力能体复活（触力能{1}）。",
                    "{0}以新的觸力能體復活（觸力能{1}）。",
                    "{0} returns in a fresh Trion body (Trion {1}).",
                ],
                &[member, trion],
            ),
        ),
        E::InitiativeRolled { team, roller, faces, tactics_dice, achievement } => {
            let dice = if *tactics_dice > 0 {
                Part(
                    &["（作戦ダイス{0}個）", "（战术骰{0}个）", "（戰術骰{0}個）", " with {0} tactics dice"],
                    &[tactics_dice],
                )
            } else {
                Part(&NOTHING, &[])
            };
            (
                "WT-INIT-1",
                fill(
                    &[
                        "{0}のイニシアチブ判定：{1}が{2}{3}、達成値{4}。",
                        "{0}的先攻判定：{1}掷出{2}{3}，达成值{4}。",
                        "{0}的先攻判定：{1}擲出{2}{3}，達成值{4}。",
                        "Team {0}'s initiative: {1} rolls {2}{3}, achievement {4}.",
                    ],
                    &[team, roller, &Faces(faces), &dice, achievement],
                ),
            )
        }
        E::InitiativeReroll { team, faces, achievement } => (
            "WT-INIT-2",
            fill(
                &[
                    "{0}は同値のため振り直し：{1}、達成値{2}。",
                    "{0}因平手重掷：{1}，达成值{2}。",
                    "{0}因平手重擲：{1}，達成值{2}。",
                    "Team {0} re-rolls the tie: {1}, achievement {2}.",
                ],
                &[team, &Faces(faces), achievement],
            ),
        ),
        E::TacticsDice { team, delta, pool } => (
            if *delta < 0 { "WT-TD-3" } else { "WT-TD-1" },
            fill(
                &[
                    "{0}の作戦ダイス{1}（残り{2}）。",
                    "{0}的战术骰{1}（剩余{2}）。",
                    "{0}的戰術骰{1}（剩餘{2}）。",
                    "Team {0}'s tactics dice {1} (pool {2}).",
                ],
                &[team, &Signed(*delta), pool],
            ),
        ),
        E::SkillUsed { member, skill: k, side: sd, trion_paid, .. } => {
            let on = match sd {
                Some(x) => Part(&["（{0}）", "（{0}）", "（{0}）", " ({0})"], &[side(*x)]),
                None => Part(&NOTHING, &[]),
            };
            let paid = if *trion_paid > 0 {
                Part(&["、トリオン−{0}", "，触力能−{0}", "，觸力能−{0}", ", Trion −{0}"], &[trion_paid])
            } else {
                Part(&NOTHING, &[])
            };
            (
                "WT-ECO-4",
                fill(
                    &[
                        "{0}は{1}{2}を使用{3}。",
                        "{0}使用{1}{2}{3}。",
                        "{0}使用{1}{2}{3}。",
                        "{0} uses {1}{2}{3}.",
                    ],
                    &[member, &Skill(s, k), &on, &paid],
                ),
            )
        }
        E::SideActivated { member, side: sd, triggers } => (
            "WT-TRG-4",
            fill(
                &[
                    "{0}の{1}側が起動：{2}。",
                    "{0}启动{1}：{2}。",
                    "{0}啟動{1}：{2}。",
                    "{0}'s {1} side is active: {2}.",
                ],
                &[member, side(*sd), &Triggers(s, triggers)],
            ),
        ),
        E::Moved { member, .. } if v.squares => (
            "WT-MOV-1",
            fill(
                &[
                    "{0}が移動した（隠密状態：位置は非公開）。",
                    "{0}移动了（隐身状态：位置不公开）。",
                    "{0}移動了（隱身狀態：位置不公開）。",
                    "{0} moves (Stealth: square hidden).",
                ],
                &[member],
            ),
        ),
        E::Moved { member, path, cost, movement } => {
            let to: &dyn Say = match path.last() {
                Some(p) => p,
                None => &["その場", "原地", "原地", "where it stands"],
            };
            (
                "WT-MOV-1",
                fill(
                    &[
                        "{0}は{1}へ移動した（移動力{2}/{3}）。",
                        "{0}移动到{1}（移动力{2}/{3}）。",
                        "{0}移動到{1}（移動力{2}/{3}）。",
                        "{0} moves to {1} (Movement {2}/{3}).",
                    ],
                    &[member, to, cost, movement],
                ),
            )
        }
        E::AttackDeclared { attacker, skill: k, targets } => (
            "WT-HIT-1",
            fill(
                &[
                    "{0}が{1}で{2}を攻撃。",
                    "{0}以{1}攻击{2}。",
                    "{0}以{1}攻擊{2}。",
                    "{0} attacks {2} with {1}.",
                ],
                &[attacker, &Skill(s, k), &Targets(v, targets)],
            ),
        ),
        E::ReactionRolled { target, reactor, skill: k, faces, achievement } => {
            let cover = if target != reactor {
                Part(&["（{0}を援護）", "（掩护{0}）", "（掩護{0}）", " covering {0}"], &[&Who(v, target)])
            } else {
                Part(&NOTHING, &[])
            };
            (
                "WT-HIT-2",
                fill(
                    &[
                        "{0}は{1}でリアクション{2}：{3}。",
                        "{0}以{1}反应{2}：{3}。",
                        "{0}以{1}反應{2}：{3}。",
                        "{0} reacts with {1}{2}: {3}.",
                    ],
                    &[&Who(v, reactor), &Skill(s, k), &cover, &Rolled(faces, *achievement)],
                ),
            )
        }
        E::NoReaction { target } => (
            "WT-HIT-1",
            fill(
                &[
                    "{0}側はリアクションしない。",
                    "{0}一方不作反应。",
                    "{0}一方不作反應。",
                    "Nobody reacts for {0}.",
                ],
                &[&Who(v, target)],
            ),
        ),
        E::HitCheck { attacker, target, special_attack, faces, achievement, against, hit } => {
            let special = if *special_attack > 0 {
                Part(
                    &["（特攻+{0}）", "（特攻+{0}）", "（特攻+{0}）", " (special attack +{0})"],
                    &[special_attack],
                )
            } else {
                Part(&NOTHING, &[])
            };
            let result: &Tpl = if *hit {
                &["命中", "命中", "命中", "hit"]
            } else {
                &["外れ", "未命中", "未命中", "miss"]
            };
            let roll = match (achievement, against) {
                (Some(a), Some(v)) => Part(
                    &[
                        "{0}、達成値{1}対{2}",
                        "{0}，达成值{1}对{2}",
                        "{0}，達成值{1}對{2}",
                        "{0}, achievement {1} against {2}",
                    ],
                    &[&Faces(faces), a, v],
                ),
                (Some(a), None) => Part(
                    &["{0}、達成値{1}", "{0}，达成值{1}", "{0}，達成值{1}", "{0}, achievement {1}"],
                    &[&Faces(faces), a],
                ),
                (None, _) => Part(&["自動命中", "自动命中", "自動命中", "automatic"], &[]),
            };
            (
                "WT-HIT-1",
                fill(
                    &[
                        "{0}から{1}への命中判定{2}：{3}。{4}。",
                        "{0}对{1}的命中判定{2}：{3}。{4}。",
                        "{0}對{1}的命中判定{2}：{3}。{4}。",
                        "{0}'s hit check on {1}{2}: {3}; {4}.",
                    ],
                    &[attacker, &Who(v, target), &special, &roll, result],
                ),
            )
        }
        E::Damage { target, total, die, burst, special_attack, modifier, trion_after } => (
            "WT-DMG-1",
            fill(
                &[
                    "{0}は{1}ダメージを受けた（1D6={2}{3}）。トリオン残り{4}。",
                    "{0}受到{1}点伤害（1D6={2}{3}）。触力能剩余{4}。",
                    "{0}受到{1}點傷害（1D6={2}{3}）。觸力能剩餘{4}。",
                    "{0} takes {1} damage (1D6 {2}{3}); Trion {4} left.",
                ],
                &[&Who(v, target), total, die, &Extra([*burst, *special_attack, *modifier]), trion_after],
            ),
        ),
        E::DamageTable { target, tier, roll, row, shifted_from, effect } => {
            let shifted = match shifted_from {
                Some(f) => {
                    Part(&["（{0}からずれ）", "（由{0}顺延）", "（由{0}順延）", " (shifted from {0})"], &[f])
                }
                None => Part(&NOTHING, &[]),
            };
            (
                if shifted_from.is_some() { "WT-DT-3" } else { "WT-DT-1" },
                fill(
                    &[
                        "{0}の損害表（段階{1}）：1D6={2}→{3}{4}：{5}。",
                        "{0}的损害表（第{1}阶）：1D6={2}→{3}{4}：{5}。",
                        "{0}的損害表（第{1}階）：1D6={2}→{3}{4}：{5}。",
                        "{0}'s damage table (tier {1}): 1D6 {2} → row {3}{4}: {5}.",
                    ],
                    &[&Who(v, target), tier, roll, row, &shifted, &effect.label()],
                ),
            )
        }
        E::ConditionAdded { member, label, .. } => (
            "WT-COND-1",
            fill(
                &["{0}は{1}になった。", "{0}陷入{1}。", "{0}陷入{1}。", "{0} now has {1}."],
                &[member, label],
            ),
        ),
        E::State { member, state, on, rule } => {
            let name: &dyn Say = match state_name(state) {
                Some(t) => t,
                None => state,
            };
            let t: &Tpl = if *on {
                &["{0}は{1}になった。", "{0}进入{1}。", "{0}進入{1}。", "{0} enters {1}."]
            } else {
                &["{0}の{1}が解除された。", "{0}解除{1}。", "{0}解除{1}。", "{0} leaves {1}."]
            };
            (rule.as_str(), fill(t, &[member, name]))
        }
        E::ObjectDestroyed { square, height } => (
            "WT-OBJ-2",
            fill(
                &[
                    "{0}の目標物（高さ{1}）が破壊された。",
                    "{0}的目标物（高度{1}）被破坏。",
                    "{0}的目標物（高度{1}）被破壞。",
                    "The object at {0} (height {1}) is destroyed.",
                ],
                &[square, height],
            ),
        ),
        E::ForcedMove { member, out_of_bounds, .. } if v.squares => (
            if *out_of_bounds { "WT-OOB-1" } else { "WT-MOV-6" },
            fill(
                &[
                    "{0}は押し出された（隠密状態：位置は非公開）。",
                    "{0}被推开（隐身状态：位置不公开）。",
                    "{0}被推開（隱身狀態：位置不公開）。",
                    "{0} is pushed (Stealth: square hidden).",
                ],
                &[member],
            ),
        ),
        E::ForcedMove { member, to, out_of_bounds } => {
            let t: &Tpl = if *out_of_bounds {
                &[
                    "{0}は{1}へ押し出され、場外に出た。",
                    "{0}被推到{1}，越区了。",
                    "{0}被推到{1}，越區了。",
                    "{0} is pushed to {1}, out of bounds.",
                ]
            } else {
                &["{0}は{1}へ押し出された。", "{0}被推到{1}。", "{0}被推到{1}。", "{0} is pushed to {1}."]
            };
            (if *out_of_bounds { "WT-OOB-1" } else { "WT-MOV-6" }, fill(t, &[member, to]))
        }
        E::Reentry { member, faces, achievement, target, to } => {
            let then = match to {
                Some(_) if v.squares => Part(
                    &[
                        "復帰（隠密状態：位置は非公開）",
                        "返回战场（隐身状态：位置不公开）",
                        "返回戰場（隱身狀態：位置不公開）",
                        "back (Stealth: square hidden)",
                    ],
                    &[],
                ),
                Some(p) => Part(&["{0}に復帰", "回到{0}", "回到{0}", "back at {0}"], &[p]),
                None => Part(&["失敗", "失败", "失敗", "fails"], &[]),
            };
            (
                if to.is_some() { "WT-OOB-3" } else { "WT-OOB-2" },
                fill(
                    &[
                        "{0}の復帰判定：{1}、達成値{2}対{3}。{4}。",
                        "{0}的返回判定：{1}，达成值{2}对{3}。{4}。",
                        "{0}的返回判定：{1}，達成值{2}對{3}。{4}。",
                        "{0}'s re-entry check: {1}, achievement {2} against {3}; {4}.",
                    ],
                    &[member, &Faces(faces), achievement, target, &then],
                ),
            )
        }
        E::BroughtBack { member, by, .. } if v.squares => (
            "WT-OOB-4",
            fill(
                &[
                    "{0}が{1}を連れ戻した（隠密状態：位置は非公開）。",
                    "{0}将{1}带回（隐身状态：位置不公开）。",
                    "{0}將{1}帶回（隱身狀態：位置不公開）。",
                    "{0} brings {1} back (Stealth: square hidden).",
                ],
                &[by, member],
            ),
        ),
        E::BroughtBack { member, by, to } => (
            "WT-OOB-4",
            fill(
                &[
                    "{0}が{1}を{2}へ連れ戻した。",
                    "{0}将{1}带回{2}。",
                    "{0}將{1}帶回{2}。",
                    "{0} brings {1} back to {2}.",
                ],
                &[by, member, to],
            ),
        ),
        E::TrionLost { member, amount, trion_after, cause } => {
            let (rule, t): (&str, &Tpl) = match cause {
                WtTrionLossCause::TrionLeak => (
                    "WT-COND-2",
                    &[
                        "{0}はトリオン漏出で{1}失った（残り{2}）。",
                        "{0}因触力能漏出失去{1}（剩余{2}）。",
                        "{0}因觸力能漏出失去{1}（剩餘{2}）。",
                        "{0} leaks {1} Trion ({2} left).",
                    ],
                ),
                WtTrionLossCause::TrionBurst => (
                    "WT-DMG-4",
                    &[
                        "{0}はトリオンバーストに{1}支払った（残り{2}）。",
                        "{0}为触力能爆发支付{1}（剩余{2}）。",
                        "{0}為觸力能爆發支付{1}（剩餘{2}）。",
                        "{0} pays {1} Trion for the burst ({2} left).",
                    ],
                ),
                WtTrionLossCause::BagwormTeleport => (
                    "WT-MAP-6",
                    &[
                        "{0}はバッグワーム転送に{1}支払った（残り{2}）。",
                        "{0}为蓑衣虫传送支付{1}（剩余{2}）。",
                        "{0}為蓑衣蟲傳送支付{1}（剩餘{2}）。",
                        "{0} pays {1} Trion for the Bagworm teleport ({2} left).",
                    ],
                ),
            };
            (rule, fill(t, &[member, amount, trion_after]))
        }
        E::BailedOut { member, rule } => (
            rule.as_str(),
            fill(&["{0}は緊急脱出した。", "{0}紧急脱离。", "{0}緊急脫離。", "{0} bails out."], &[member]),
        ),
        E::Incapacitated { member } => (
            if s.battle_type == WtBattleType::Mock { "WT-BTL-2" } else { "WT-KO-2" },
            fill(
                &["{0}は戦闘不能になった。", "{0}无法战斗。", "{0}無法戰鬥。", "{0} is incapacitated."],
                &[member],
            ),
        ),
        E::Killed { member } => {
            ("WT-KO-2", fill(&["{0}は死亡した。", "{0}死亡。", "{0}死亡。", "{0} is killed."], &[member]))
        }
        E::LeaderSuccession { team, manager } => {
            let t: (&Tpl, &dyn Say) = match manager {
                Some(m) => (
                    &[
                        "{0}の指揮は{1}が引き継いだ。",
                        "{0}的指挥由{1}接任。",
                        "{0}的指揮由{1}接任。",
                        "{1} takes over team {0}'s command.",
                    ],
                    m,
                ),
                None => (
                    &[
                        "{0}には指揮できる隊員がいない。",
                        "{0}已无可指挥的队员。",
                        "{0}已無可指揮的隊員。",
                        "Team {0} has nobody left to command.",
                    ],
                    &"",
                ),
            };
            ("WT-KO-5", fill(t.0, &[team, t.1]))
        }
        E::OperatorActed { team, skill: k } => {
            let name: &dyn Say = match s.catalog.operator_skills.iter().find(|o| &o.id == k) {
                Some(o) => &o.label,
                None => k,
            };
            (
                "WT-OP-8",
                fill(
                    &[
                        "{0}のオペレーター：{1}。",
                        "{0}的操作员：{1}。",
                        "{0}的操作員：{1}。",
                        "Team {0}'s operator: {1}.",
                    ],
                    &[team, name],
                ),
            )
        }
        E::AbilityUsed { member, ability } => (
            "WT-ECO-5",
            fill(&["{0}は{1}を使用。", "{0}使用{1}。", "{0}使用{1}。", "{0} uses {1}."], &[member, ability]),
        ),
        E::BattleEnded { reason, winner } => {
            let why: &Tpl = match reason {
                WtEndReason::RoundLimit => {
                    &["ラウンド上限に到達", "达到轮数上限", "達到輪數上限", "the round limit was reached"]
                }
                WtEndReason::OneTeamLeft => {
                    &["残り1部隊", "只剩一支队伍", "只剩一支隊伍", "only one team is left"]
                }
                WtEndReason::NoTeamLeft => {
                    &["全部隊が脱落", "所有队伍皆已退场", "所有隊伍皆已退場", "no team is left"]
                }
                WtEndReason::CharacterDown => &[
                    "指定のキャラクターが脱落",
                    "指定角色已倒下",
                    "指定角色已倒下",
                    "a named character is down",
                ],
            };
            let rule = if *reason == WtEndReason::CharacterDown && s.battle_type == WtBattleType::Rank {
                "WT-END-1"
            } else {
                end_rule(s)
            };
            let t: (&Tpl, &dyn Say) = match winner {
                Some(w) => (
                    &[
                        "戦闘終了（{0}）：{1}の勝利。",
                        "战斗结束（{0}）：{1}获胜。",
                        "戰鬥結束（{0}）：{1}獲勝。",
                        "The battle is over ({0}): team {1} wins.",
                    ],
                    w,
                ),
                None => (
                    &[
                        "戦闘終了（{0}）：引き分け。",
                        "战斗结束（{0}）：平手。",
                        "戰鬥結束（{0}）：平手。",
                        "The battle is over ({0}): a draw.",
                    ],
                    &"",
                ),
            };
            (rule, fill(t.0, &[why, t.1]))
        }
    }
}

/// The parts of a damage total besides the die (burst, special attack, modifier), each
/// named with its sign where it is not 0: `、バースト+2`, `, burst +2`.
struct Extra([i64; 3]);

impl Say for Extra {
    fn say(&self, lang: usize, out: &mut String) {
        const NAMES: [Tpl; 3] = [
            ["、バースト", "、爆发", "、爆發", ", burst "],
            ["、特攻", "、特攻", "、特攻", ", special attack "],
            ["、修正", "、修正", "、修正", ", modifier "],
        ];
        for (n, name) in self.0.iter().zip(&NAMES) {
            if *n != 0 {
                name.say(lang, out);
                Signed(*n).say(lang, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{battle_new, engine, legal, WtBattleNewArgs};
    use super::*;
    use crate::dice::{prng::Prng, Dice};
    use crate::json::ToJson;

    /// Random rank battles from the example setup: after each action, the state and the
    /// action's events.
    fn played(battles: u64, max_steps: usize) -> Vec<(WtBattleState, Vec<WtBattleEvent>)> {
        let setup: WtBattleNewArgs = serde_json::from_value(super::super::tests::setup("rank_3v3")).unwrap();
        let mut out = Vec::new();
        for seed in 0..battles {
            let mut rng = Prng::new(seed);
            let mut s = battle_new(&setup).unwrap().state;
            for _ in 0..max_steps {
                let list = legal::legal_actions(&s, None);
                if list.is_empty() {
                    break;
                }
                let a = &list[super::super::tests::pick(&mut rng, list.len())].action;
                let mut dice = Dice::seeded(rng.next_u64() % (1 << 50)).unwrap();
                let mut ev = Vec::new();
                engine::act(&mut s, a, &mut dice, &mut ev).unwrap();
                out.push((s.clone(), ev));
            }
        }
        out
    }

    #[test]
    fn every_event_of_played_battles_has_a_rule_and_four_sentences() {
        // WT-RND-1, WT-HIT-1, WT-DMG-1: the events of random rank battles, each with the
        // rule that produced it and one sentence per language that names its members.
        let states = played(3, 200);
        let mut kinds = std::collections::BTreeSet::new();
        for (s, ev) in &states {
            for l in logged(s, ev.clone()) {
                let j = l.to_json();
                let kind = j["type"].as_str().unwrap().to_string();
                assert!(l.rule.starts_with("WT-"), "{kind}: rule {}", l.rule);
                for t in [&l.text.ja, &l.text.zh_hans, &l.text.zh_hant, &l.text.en] {
                    assert!(!t.is_empty() && !t.contains('{'), "{kind}: {t}");
                }
                for k in ["member", "attacker", "target", "team"] {
                    if let Some(id) = j[k].as_str() {
                        assert!(
                            l.text.en.contains(id) && l.text.ja.contains(id),
                            "{kind} names {id}: {:?}",
                            l.text
                        );
                    }
                }
                kinds.insert(kind);
            }
        }
        for k in
            ["round_started", "phase_started", "initiative_rolled", "attack_declared", "hit_check", "damage"]
        {
            assert!(kinds.contains(k), "no {k} in {kinds:?}");
        }
    }
}
