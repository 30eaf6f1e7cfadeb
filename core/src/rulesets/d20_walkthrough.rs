//! DESIGN.md's "Adding an engine", step by step: a plain d20-initiative round (not a
//! ruleset; its rule names, `D20-…`, are its own). An engine that implements [`Engine`]
//! gets the pure operations, the handle, the listing and the harness without writing them.

use crate::dice::{Dice, DiceArgs};
use crate::engine::{Created, Engine, Turn, TurnActive};
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};
use crate::kernel::label::WtLabel;
use serde_json::{json, Value};

// Step 1: the setup, the state and the action, with the JSON derives.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub(crate) struct Fighter {
    id: String,
    side: String,
    init: i64,
    attack: i64,
    ac: i64,
    hp: i64,
}

#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[serde(deny_unknown_fields)]
pub(crate) struct Setup {
    fighters: Vec<Fighter>,
    #[serde(flatten)]
    source: DiceArgs,
}

#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub(crate) struct State {
    round: u32,
    order: Vec<usize>, // indices into `fighters`, highest initiative first
    turn: usize,       // the position in `order` whose turn it is
    attacked: bool,
    fighters: Vec<Fighter>,
}

#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum Action {
    Attack { actor: String, target: String },
    EndTurn { actor: String },
}

/// A listed action: `{"action": …}` (an engine with costs lists them beside it).
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub(crate) struct Listed {
    action: Action,
}

/// An event: its fields, its rule and one sentence per language (ja, zh, en).
fn event(mut fields: Value, rule: &str, [ja, zh, en]: [String; 3]) -> Value {
    fields["rule"] = json!(rule);
    fields["text"] = WtLabel::new(&ja, &zh, &zh, &en).to_json();
    fields
}

fn valid(fs: &[Fighter]) -> Result<()> {
    if !(2..=8).contains(&fs.len()) {
        return Err(Error::limit("fighters", "2 to 8 fighters"));
    }
    for (i, f) in fs.iter().enumerate() {
        if f.id.is_empty() || fs[..i].iter().any(|g| g.id == f.id) {
            return Err(Error::invalid(format!("fighters[{i}].id"), "must be a new, non-empty id"));
        }
        if [f.init, f.attack].iter().any(|b| !(-10..=20).contains(b)) || !(1..=40).contains(&f.ac) {
            return Err(Error::out_of_range(format!("fighters[{i}]"), "bonuses -10..=20, ac 1..=40"));
        }
    }
    Ok(())
}

fn standing_sides(s: &State) -> Vec<&str> {
    let mut sides: Vec<&str> = s.fighters.iter().filter(|f| f.hp > 0).map(|f| f.side.as_str()).collect();
    sides.sort_unstable();
    sides.dedup();
    sides
}

fn current(s: &State) -> &Fighter {
    &s.fighters[s.order[s.turn]]
}

pub(super) struct Round;

// Step 2: the trait. Everything else comes from `engine`.
impl Engine for Round {
    const HANDLE: &'static str = "d20.Round";
    const OPS: [&'static str; 3] = ["d20.round_new", "d20.round_legal_actions", "d20.round_act"];
    type Setup = Setup;
    type State = State;
    type Action = Action;
    type Ctx = ();
    type Cache = ();
    type Listed = Listed;
    /// The target's index, for an attack.
    type Checked = Option<usize>;
    type Events = Value;

    /// D20-INIT: every fighter rolls d20 + `init`; ties keep the setup's order.
    fn create(setup: &Setup) -> Result<Created<Self>> {
        valid(&setup.fighters)?;
        let mut dice = setup.source.dice()?;
        let (mut events, mut totals) = (Vec::new(), Vec::new());
        for f in &setup.fighters {
            let total = dice.roll(20)? as i64 + f.init;
            totals.push(total);
            let (id, fields) = (&f.id, json!({"event": "initiative", "fighter": f.id, "total": total}));
            let t = total;
            let text =
                [format!("{id}：先攻{t}"), format!("{id}：先攻 {t}"), format!("{id}: initiative {t}.")];
            events.push(event(fields, "D20-INIT", text));
        }
        let mut order: Vec<usize> = (0..totals.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(totals[i]));
        let state = State { round: 1, order, turn: 0, attacked: false, fighters: setup.fighters.clone() };
        Ok(Created { ctx: (), state, events: Value::Array(events), rolls: dice.take_rolls() })
    }

    fn load(state: &Value, data: Option<&Value>) -> Result<((), State)> {
        crate::engine::no_data(data, "a d20 round")?;
        let s: State = crate::ops::parse_data("state", state.clone())?;
        valid(&s.fighters).map_err(|e| Error::invalid_data("state.fighters", &e.message))?;
        let mut seen = s.order.clone();
        seen.sort_unstable();
        let ok = seen == (0..s.fighters.len()).collect::<Vec<_>>() && s.turn < s.order.len() && s.round > 0;
        // D20-TURN: while the fight goes on, the fighter whose turn it is stands.
        if !ok || (standing_sides(&s).len() > 1 && current(&s).hp <= 0) {
            return Err(Error::invalid_data("state.order", "each fighter once, the turn a standing one's"));
        }
        Ok(((), s))
    }

    fn candidates(_: &(), s: &State) -> Vec<Action> {
        let ids = || s.fighters.iter().map(|f| f.id.clone());
        let mut v: Vec<Action> = ids().map(|actor| Action::EndTurn { actor }).collect();
        for actor in ids() {
            v.extend(ids().map(|target| Action::Attack { actor: actor.clone(), target }));
        }
        v
    }

    /// D20-TURN: only the fighter whose turn it is acts, while the fight goes on;
    /// D20-ATK: one attack a turn, at a standing fighter of another side.
    fn check(_: &(), s: &State, a: &Action) -> Result<Option<usize>> {
        if standing_sides(s).len() < 2 {
            return Err(Error::illegal("D20-END", "the fight is over"));
        }
        let (Action::Attack { actor, .. } | Action::EndTurn { actor }) = a;
        if *actor != current(s).id {
            return Err(Error::illegal("D20-TURN", format_args!("it is {}'s turn", current(s).id)));
        }
        let Action::Attack { target, .. } = a else { return Ok(None) };
        let t = s.fighters.iter().position(|f| f.id == *target);
        let t = t.ok_or_else(|| Error::invalid("action.target", "names no fighter"))?;
        if s.attacked || s.fighters[t].hp <= 0 || s.fighters[t].side == current(s).side {
            return Err(Error::illegal("D20-ATK", "one attack a turn, at a standing enemy"));
        }
        Ok(Some(t))
    }

    /// D20-ATK: d20 + `attack` ≥ `ac` hits for 1d6. D20-TURN: the next standing fighter
    /// in the order; after the last, a new round.
    fn apply(_: &(), s: &mut State, _: &Action, c: Option<usize>, dice: &mut Dice) -> Result<Value> {
        let Some(t) = c else {
            s.attacked = false;
            loop {
                s.turn = (s.turn + 1) % s.order.len();
                s.round += u32::from(s.turn == 0);
                if current(s).hp > 0 {
                    break;
                }
            }
            let (id, round) = (&current(s).id, s.round);
            let fields = json!({"event": "turn", "fighter": id, "round": round});
            let text = [format!("{id}の手番"), format!("轮到 {id}"), format!("{id}'s turn.")];
            return Ok(json!([event(fields, "D20-TURN", text)]));
        };
        let (me, roll) = (current(s).clone(), dice.roll(20)? as i64);
        let hit = roll + me.attack >= s.fighters[t].ac;
        let damage = if hit { dice.roll(6)? as i64 } else { 0 };
        let f = &mut s.fighters[t];
        f.hp -= damage;
        s.attacked = true;
        let (r, tid, hp) = (roll + me.attack, f.id.clone(), f.hp);
        let fields = json!({"event": "attacked", "attacker": me.id, "target": tid, "roll": r, "hit": hit,
            "damage": damage, "hp": hp});
        let (a, ja) = (&me.id, format!("{}の攻撃（{r}）：{tid}に{damage}ダメージ、残りHP {hp}", me.id));
        let zh = format!("{a} 攻击（{r}）：{tid} 受到 {damage} 点伤害，剩余 HP {hp}");
        let text = [ja, zh, format!("{a} attacks ({r}): {tid} takes {damage} damage, HP {hp} left.")];
        Ok(json!([event(fields, "D20-ATK", text)]))
    }

    fn listed(_: &(), _: &State, action: Action, _: Option<usize>) -> Listed {
        Listed { action }
    }

    fn listed_action(l: &Listed) -> Result<Action> {
        Ok(l.action.clone())
    }

    fn actor(a: &Action) -> Option<&str> {
        let (Action::Attack { actor, .. } | Action::EndTurn { actor }) = a;
        Some(actor)
    }

    fn actors(s: &State) -> Vec<&str> {
        s.fighters.iter().map(|f| f.id.as_str()).collect()
    }

    fn turn(_: &(), s: &State) -> Turn {
        let active =
            if standing_sides(s).len() < 2 { vec![] } else { vec![TurnActive::of(&current(s).id, "turn")] };
        let order = s.order.iter().map(|&i| s.fighters[i].id.clone()).collect();
        let (round, phase, outcome) = (s.round, "round".into(), Self::outcome(&(), s));
        Turn { round, phase, active, order, outcome, ..Turn::default() } // + roster, viewers
    }

    /// D20-END: `{winner, rule}` once one side is left standing.
    fn outcome(_: &(), s: &State) -> Value {
        match standing_sides(s)[..] {
            [winner] => json!({"winner": winner, "rule": "D20-END"}),
            [] => json!({"winner": null, "rule": "D20-END"}),
            _ => Value::Null,
        }
    }

    fn hp(s: &State) -> Vec<(&str, i64)> {
        s.fighters.iter().map(|f| (f.id.as_str(), f.hp)).collect()
    }

    fn viewers(s: &State) -> Vec<&str> {
        Self::actors(s) // nothing is hidden: the default `redact`, `listing` and `turn_for`
    }

    fn probes(ctx: &(), s: &State, _: &mut crate::dice::prng::Prng) -> Vec<Action> {
        Self::candidates(ctx, s)
    }
}

// Step 3: register `new_op!`, `legal_op!`, `act_op!`, `view_op!`, `turn_op!` and
// `engine::def::<Round>()` in the ruleset's `ops()` and `handles()` (a real ruleset does;
// this test engine stays out of the build). What they run is `engine::pure_ops::<Round>()`,
// which the harness plays (`rulesets/harness.rs`, `harness_d20_walkthrough`).
