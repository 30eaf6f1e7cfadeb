//! The World Trigger battle engine: rounds and phases, team
//! budgets, trigger activation, the height grid with ZoC, reactions, damage,
//! special states and bailout, as pure functions over a serializable
//! [`WtBattleState`]:
//!
//! * `world_trigger.battle_new` — a setup → the state (round 1, Initiative phase);
//! * `world_trigger.battle_legal_actions` — every action legal now, each in the
//!   exact form `battle_act` accepts, with its cost;
//! * `world_trigger.battle_act` — state + action (+ seed / scripted rolls) →
//!   new state + typed event log; an illegal action is `illegal_action` naming
//!   the rule broken (the caller's state is never changed);
//! * `world_trigger.battle_run` — a setup and a list of actions played in
//!   order (scenario replays; one call, so vectors run in every language).
//!
//! Where things are: [`state`] (state, validation), [`actions`] (actions,
//! events, costs), [`engine`] (checks, effects, phase machine), [`grid`]
//! (distances, areas, movement), [`legal`] (listing the legal actions fast),
//! [`data`] (battle values of skills: the seed has none, the bundled file is
//! illustrative).
//!
//! Round flow (WT-RND-1): `roll_initiative` → Tactics (teams highest first) →
//! Movement (lowest first, WT-INIT-2) → Attack (highest first) → Feedback
//! (automatic when the last team passes the Attack phase) → next round. In the
//! three acting phases the acting team uses skills with its members (each
//! member one slot per phase, at most three members per phase, WT-ECO-1/2) and
//! ends its turn with `pass`. An attack waits for the defending team's
//! `react` / `no_reaction` for each target in turn (WT-HIT-1/2).
//!
//! Scripted dice are consumed in this order:
//! * `roll_initiative`: for each team in setup order, the roller's Command dice
//!   then its tactics dice; then, while teams tie, each tied team (setup order)
//!   re-rolls its Command dice;
//! * `react`: the reactor's stat dice, then its tactics dice; and after the last
//!   target's reaction (`react` or `no_reaction`), for each target in order: the
//!   attacker's hit dice (stat, tactics, special-attack LV — none when the hit is
//!   automatic), then on a hit the damage d6, then the damage-table d6 if due;
//! * `reenter`: the Mobility dice, then the tactics dice;
//! * every other action rolls nothing.

pub mod actions;
pub mod data;
pub mod engine;
pub mod grid;
pub mod legal;
pub(crate) mod sentences;
pub mod state;
#[cfg(test)]
pub(crate) mod tests;
pub(crate) mod view;

pub use actions::*;
pub use sentences::WtBattleLoggedEvent;
pub use state::*;

use self::data::{load_battle_data, WtBattleSkillKind};
use crate::dice::{Dice, Roll};
use crate::error::{loc_of, quote, render_loc, Error, PathItem, Result};
use crate::json::{FromJson, ToJson};
use crate::world_trigger::character::{build_character, build_operator, WtOperatorSheet, WtSheet, WtSide};
use crate::world_trigger::data::{load_pack, WtDamageTableSide};
use crate::world_trigger::types::violations_error;
use serde_json::Value;

/// One combatant of the setup.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtMemberSetup {
    /// Unique id (1–64 characters).
    pub id: String,
    /// The character sheet (`world_trigger.create_character`'s `sheet`), validated against the pack.
    #[schemars(with = "WtSheet")]
    pub sheet: Value,
    /// Starting square (WT-MAP-3/6: placed by the GM, or by the teleport the host rolled).
    pub at: WtSquare,
    /// Has an emergency-bailout system (default true; false = C-rank / Black Trigger, WT-KO-2).
    #[serde(default = "yes")]
    pub bailout_system: bool,
    /// Damage tables used (default `border`, WT-DT-4).
    #[serde(default)]
    pub damage_table: WtDamageTableSide,
    /// WT-MAP-6 (rank battles): teleported with Bagworm active — the member
    /// starts in Stealth (WT-ST-1, on its Bagworm's side) and pays 5 Trion.
    /// Default false.
    #[serde(default)]
    pub bagworm_teleport: bool,
}

fn yes() -> bool {
    true
}

/// One team of the setup.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtTeamSetup {
    /// Unique id.
    pub id: String,
    /// The leader's member id (WT-CC-1): that member's sheet is built as the
    /// leader's (+1 Command) even without `leader: true`; another member's
    /// sheet with `leader: true` is refused.
    pub leader: String,
    /// Combatants (1–4; WT-MODE-3 recommends 3 or 4).
    pub members: Vec<WtMemberSetup>,
    /// A dedicated operator's sheet (`world_trigger.create_operator`'s `sheet`); absent = the leader operates.
    #[serde(default)]
    #[schemars(with = "Option<WtOperatorSheet>")]
    pub operator: Option<Value>,
}

/// Arguments of `world_trigger.battle_new`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleNewArgs {
    /// WT-BTL: `mock`, `rank` or `defense`.
    pub battle_type: WtBattleType,
    /// The grid.
    pub map: WtBattleMap,
    /// 2–4 teams.
    pub teams: Vec<WtTeamSetup>,
    /// Rule variants (stored in the state).
    #[serde(default)]
    pub variants: crate::world_trigger::types::WtVariants,
    /// Last round: default 10; rank battles at most 10 (WT-END-2), others at most 100.
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_ROUNDS))]
    pub max_rounds: Option<u32>,
    /// Mock / defense: end when one of these members is incapacitated or bails out (WT-END-1/3).
    #[serde(default)]
    pub end_when_down: Vec<String>,
    /// Rules data pack; default the bundled sample pack (illustrative).
    #[serde(default)]
    #[schemars(with = "Option<crate::world_trigger::data::WtDataPack>")]
    pub data: Option<Value>,
    /// Battle values of skills; default the bundled sample (illustrative).
    #[serde(default)]
    #[schemars(with = "Option<data::WtBattleData>")]
    pub battle_data: Option<Value>,
}

/// Result of `world_trigger.battle_new` and `world_trigger.battle_act`.
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtBattleResult {
    /// The new state.
    pub state: WtBattleState,
    /// What happened, in order: each event with its rule and sentence.
    pub events: Vec<WtBattleLoggedEvent>,
    /// Every die rolled, in consumption order.
    pub rolls: Vec<Roll>,
}

crate::act_shapes!(
    /// Arguments of `world_trigger.battle_act`.
    ///
    /// `rolls`: Scripted d6 faces, consumed in the order documented on the module.
    WtBattleActArgs,
    "WtBattleState",
    WtBattleAction
);

/// Arguments of `world_trigger.battle_legal_actions`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleLegalArgs {
    /// The current state (untrusted: parsed and validated).
    #[schemars(with = "WtBattleState")]
    pub state: Value,
    /// Only this member's actions (plus team-level ones: pass, operator, initiative, no_reaction).
    /// A listing of over 50,000 actions or 600,000 squares in all move paths is
    /// `limit_exceeded`; one member's list is shorter.
    #[serde(default)]
    pub actor: Option<String>,
    /// Only actions of this `type` (`move`, `use_skill`, `pass`, …).
    #[serde(default)]
    pub kind: Option<String>,
    /// True: the moves come as `moves` (each mover's squares with their costs and
    /// routes, one entry per move skill), not in `actions`; a compact listing of over
    /// 16,384 rows (other actions plus route squares) is `limit_exceeded`. Default false.
    #[serde(default)]
    pub compact: bool,
    /// The team the listing is for, as `battle_view` takes it (its index or id); absent
    /// or null: the GM (every action). A team's listing is what it may know (WT-ST-1):
    /// made as if another team's members in Stealth stood nowhere, with no item naming
    /// them; a listed move that meets one is refused by `battle_act` naming its rule.
    #[serde(default)]
    #[schemars(with = "Option<WtBattleViewer>")]
    pub viewer: Option<Value>,
}

/// A viewer of a World Trigger battle: a team's index or id.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", serde(untagged))]
#[allow(dead_code)]
pub enum WtBattleViewer {
    /// The team's index in `state.teams`.
    Index(u32),
    /// The team's id.
    Id(String),
}

/// Result of `world_trigger.battle_legal_actions`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtBattleLegalResult {
    /// Every legal action in its default form (no tactics dice, no burst, no push).
    /// A listed attack or reaction may also carry `tactics_dice` up to
    /// `cost.max_tactics_dice`, an attack `burst` up to `cost.max_burst`, and a
    /// forced-movement attack a `push_to` square; moves are listed once per
    /// destination with the cheapest path. Empty once the battle is over.
    pub actions: Vec<WtLegalAction>,
    /// With `compact`: the legal moves, one entry per mover (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<legal::WtCompactMoves>>,
}

/// One step of `world_trigger.battle_run`.
///
/// `seed`: Seed for this step.
/// `rolls`: Scripted faces for this step.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleRunStep {
    /// The action.
    pub action: WtBattleAction,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Arguments of `world_trigger.battle_run`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WtBattleRunArgs {
    /// The setup (`battle_new`'s arguments).
    pub setup: WtBattleNewArgs,
    /// Actions in order (at most 2000). The first illegal one is returned as the error
    /// (an invalid argument's `field` is prefixed with `steps[i].`).
    pub steps: Vec<WtBattleRunStep>,
    /// Also list the legal actions of the final state (at most 50,000 actions and
    /// 600,000 path squares, else `limit_exceeded`). Default false.
    #[serde(default)]
    pub with_legal: bool,
}

/// Result of `world_trigger.battle_run`.
#[derive(Debug, Clone, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WtBattleRunResult {
    /// The final state.
    pub state: WtBattleState,
    /// The events of the last step (of `battle_new` when there are no steps).
    pub last_events: Vec<WtBattleLoggedEvent>,
    /// The dice of the last step.
    pub last_rolls: Vec<Roll>,
    /// Every event of the run (setup first).
    pub events: Vec<WtBattleLoggedEvent>,
    /// The final state's legal actions (with `with_legal`).
    pub legal: Option<Vec<WtLegalAction>>,
}

/// WT-MAP-6: Trion paid to teleport with Bagworm active.
pub const BAGWORM_TELEPORT_TRION: i64 = 5;

/// Most steps of one `battle_run`.
pub const MAX_RUN_STEPS: usize = 2000;

/// Parse and validate an untrusted state.
pub fn load_state(v: &Value) -> Result<WtBattleState> {
    let s: WtBattleState = crate::ops::parse_data("state", v.clone())?;
    s.validate()?;
    Ok(s)
}

/// `world_trigger.battle_new` — build the state from a setup: every sheet is
/// built with the rules module (WT-CC, WT-DER), skills come from the battle
/// data (WT-CC-8), the state starts at round 1, Initiative phase.
pub fn battle_new(args: &WtBattleNewArgs) -> Result<WtBattleResult> {
    let (s, events) = new_state(args)?;
    let events = sentences::logged(&s, events);
    Ok(WtBattleResult { state: s, events, rolls: Vec::new() })
}

/// [`battle_new`]'s state and its events, plain.
fn new_state(args: &WtBattleNewArgs) -> Result<(WtBattleState, Vec<WtBattleEvent>)> {
    let pack = load_pack(args.data.as_ref())?;
    let bd = load_battle_data(args.battle_data.as_ref())?;
    let bad = data::validate_against_pack(&bd, &pack, "battle_data");
    if !bad.is_empty() {
        return Err(crate::world_trigger::types::violations_error("battle_data", &bad));
    }
    if !(MIN_TEAMS..=MAX_TEAMS).contains(&args.teams.len()) {
        return Err(Error::invalid("teams", "2-4 teams"));
    }
    let max_rounds = args.max_rounds.unwrap_or(10);
    if args.battle_type == WtBattleType::Rank && max_rounds > 10 {
        return Err(Error::out_of_range("max_rounds", "a rank battle lasts at most 10 rounds (WT-END-2)")
            .with_rule("WT-END-2"));
    }
    if args.battle_type == WtBattleType::Rank && !args.end_when_down.is_empty() {
        return Err(Error::invalid("end_when_down", "rank battles end by WT-END-2 only"));
    }
    let mut members = Vec::new();
    let mut teams = Vec::new();
    let mut teleport_events = Vec::new();
    let mut catalog_skills: Vec<data::WtBattleSkill> = Vec::new();
    let mut triggers: Vec<WtBattleTrigger> = Vec::new();
    for (ti, t) in args.teams.iter().enumerate() {
        let tp = format!("teams[{ti}]");
        if !(1..=MAX_MEMBERS).contains(&t.members.len()) {
            return Err(Error::invalid(format!("{tp}.members"), "1-4 combatants"));
        }
        let operator = match &t.operator {
            None => None,
            Some(v) => {
                let sh: WtOperatorSheet = crate::ops::parse_data(&format!("{tp}.operator"), v.clone())?;
                let op = build_operator(&sh, &pack).map_err(|b| {
                    rebase(violations_error(&format!("{tp}.operator"), &b), &format!("{tp}.operator"))
                })?;
                Some(op.name)
            }
        };
        for (mi, ms) in t.members.iter().enumerate() {
            let mp = format!("{tp}.members[{mi}]");
            let mut sheet: WtSheet = crate::ops::parse_data(&format!("{mp}.sheet"), ms.sheet.clone())?;
            // WT-CC-1: the team's one leader gets +1 Command, whether or not
            // its sheet says `leader`; another member's sheet can't claim it.
            if ms.id == t.leader {
                sheet.leader = true;
            } else if sheet.leader {
                return Err(Error::invalid(
                    format!("{mp}.sheet.leader"),
                    format_args!(
                        "the team's leader is {}: only its sheet may be the leader's (WT-CC-1)",
                        quote(&t.leader)
                    ),
                )
                .with_rule("WT-CC-1"));
            }
            let ch = build_character(&sheet, &pack)
                .map_err(|b| rebase(violations_error(&format!("{mp}.sheet"), &b), &format!("{mp}.sheet")))?;
            let mut skills = Vec::new();
            for sk in &bd.skills {
                // WT-CC-8: the stat requirement is the rules pack's, for a skill it has (the
                // battle data only adds battle values); the battle data's own otherwise.
                let pack_req = match &sk.trigger {
                    Some(trig) => pack
                        .trigger(trig)
                        .and_then(|td| td.skills.iter().find(|x| x.id == sk.id))
                        .map(|x| &x.requirements),
                    None => pack.basic_commands.iter().find(|x| x.id == sk.id).map(|x| &x.requirements),
                };
                if !pack_req.unwrap_or(&sk.requirements).unmet_by(&ch.stats).is_empty() {
                    continue;
                }
                match &sk.trigger {
                    None => skills.push(WtMemberSkill { skill: sk.id.clone(), side: None }),
                    Some(trig) => {
                        for side in [WtSide::Main, WtSide::Sub] {
                            let slots = match side {
                                WtSide::Main => &ch.triggers.main,
                                WtSide::Sub => &ch.triggers.sub,
                            };
                            if slots.contains(trig) && sk.with.iter().all(|o| slots.contains(o)) {
                                skills.push(WtMemberSkill { skill: sk.id.clone(), side: Some(side) });
                            }
                        }
                    }
                }
            }
            let missing: Vec<String> = ch
                .trigger_skills
                .iter()
                .chain(ch.basic_commands.iter())
                .map(|g| g.skill.clone())
                .filter(|id| !bd.skills.iter().any(|b| &b.id == id))
                .fold(Vec::new(), |mut v, id| {
                    if !v.contains(&id) {
                        v.push(id);
                    }
                    v
                });
            if !missing.is_empty() {
                teleport_events
                    .push(WtBattleEvent::SkillsWithoutBattleData { member: ms.id.clone(), skills: missing });
            }
            for k in &skills {
                if !catalog_skills.iter().any(|c| c.id == k.skill) {
                    if let Some(sk) = bd.skills.iter().find(|x| x.id == k.skill) {
                        catalog_skills.push(sk.clone());
                    }
                }
            }
            for trig in ch.triggers.main.iter().chain(ch.triggers.sub.iter()) {
                if !triggers.iter().any(|x| &x.id == trig) {
                    let td = pack.trigger(trig).ok_or_else(|| {
                        Error::invalid_data(format!("{mp}.sheet.triggers"), "unknown trigger")
                    })?;
                    triggers.push(WtBattleTrigger {
                        id: td.id.clone(),
                        kind: td.kind,
                        base: td.base.clone(),
                        hand_held: td.hand_held,
                    });
                }
            }
            let mut abilities = vec![WtAbility { id: ch.position_skill.skill.clone(), repeatable: false }];
            for tr in &ch.traits {
                let rep = pack.traits.iter().find(|x| &x.id == tr).is_some_and(|x| x.repeatable);
                abilities.push(WtAbility { id: tr.clone(), repeatable: rep });
            }
            // WT-MAP-6: teleporting with Bagworm active costs 5 Trion and starts in Stealth.
            let mut states = WtSpecialStates::default();
            let mut trion = ch.derived.starting_trion;
            if ms.bagworm_teleport {
                let f = format!("{mp}.bagworm_teleport");
                if args.battle_type != WtBattleType::Rank {
                    return Err(Error::invalid(f, "only the rank battle's random teleport (WT-MAP-6)")
                        .with_rule("WT-MAP-6"));
                }
                let bag = skills.iter().find(|k| {
                    bd.skills.iter().any(|x| x.id == k.skill && x.kind == WtBattleSkillKind::Stealth)
                });
                let Some(bag) = bag else {
                    return Err(Error::invalid(f, "needs Bagworm (a stealth skill) equipped (WT-MAP-6)")
                        .with_rule("WT-MAP-6"));
                };
                if trion <= BAGWORM_TELEPORT_TRION {
                    return Err(
                        Error::invalid(f, "not enough Trion to pay 5 (WT-MAP-6)").with_rule("WT-MAP-6")
                    );
                }
                trion -= BAGWORM_TELEPORT_TRION;
                states.stealth = Some(bag.side.unwrap_or(WtSide::Sub));
                teleport_events.push(WtBattleEvent::TrionLost {
                    member: ms.id.clone(),
                    amount: BAGWORM_TELEPORT_TRION,
                    trion_after: trion,
                    cause: WtTrionLossCause::BagwormTeleport,
                });
                teleport_events.push(WtBattleEvent::State {
                    member: ms.id.clone(),
                    state: "stealth".into(),
                    on: true,
                    rule: "WT-MAP-6".into(),
                });
            }
            members.push(WtBattleMember {
                id: ms.id.clone(),
                name: ch.name.clone(),
                team: ti,
                stats: ch.stats,
                starting_trion: ch.derived.starting_trion,
                trion,
                triggers: ch.triggers.clone(),
                skills: std::sync::Arc::new(skills),
                abilities,
                at: ms.at,
                status: WtMemberStatus::Active,
                conditions: Vec::new(),
                bailout_system: ms.bailout_system,
                damage_table: ms.damage_table,
                states,
                used: WtMemberUsage::default(),
                last_hit_by: None,
            });
        }
        teams.push(WtBattleTeam {
            id: t.id.clone(),
            leader: t.leader.clone(),
            operator,
            tactics_dice: 0,
            operator_used: false,
            initiative: None,
            points: 0,
        });
    }
    // WT-DT-2: the state keeps each table's tiers lowest first (a pack may list them in any order).
    let dt = |side: WtDamageTableSide| {
        let mut v: Vec<WtBattleDamageTier> = pack
            .damage_tables
            .side(side)
            .iter()
            .map(|t| WtBattleDamageTier { min_damage: t.min_damage, rows: t.rows.clone() })
            .collect();
        crate::small_sort::sort_by(&mut v, &|a, b| a.min_damage.cmp(&b.min_damage));
        v
    };
    let mut s = WtBattleState {
        format: STATE_FORMAT.into(),
        battle_type: args.battle_type,
        variants: args.variants,
        max_rounds,
        end_when_down: args.end_when_down.clone(),
        map: args.map.clone(),
        round: 1,
        phase: WtBattlePhase::Initiative,
        initiative_order: Vec::new(),
        turn: 0,
        teams,
        members,
        catalog: std::sync::Arc::new(WtBattleCatalog {
            skills: catalog_skills,
            triggers,
            operator_skills: bd.operator_skills.clone(),
            damage_tables: WtBattleDamageTables {
                border: dt(WtDamageTableSide::Border),
                trion_soldier: dt(WtDamageTableSide::TrionSoldier),
                serafiga: dt(WtDamageTableSide::Serafiga),
            },
        }),
        pending: None,
        outcome: None,
    };
    // A map side or a height outside its range (declared on `WtBattleMap`) is refused as the
    // arguments are read (`out_of_range`); a Rust caller's values meet `validate` below.
    // Setup problems are the caller's arguments, not a saved state: report them as invalid arguments.
    s.validate().map_err(|e| {
        let loc = setup_loc(&s, &e.loc);
        let moved = e.relocated(loc);
        let mut out = Error::new(crate::ErrorCode::InvalidArgument, moved.message.clone());
        out.field = moved.field.clone();
        out.loc = moved.loc.clone();
        out
    })?;
    // WT-MAP-3 / WT-MAP-6: everyone starts on a battlefield square (checked once the map is known valid).
    for (ti, t) in args.teams.iter().enumerate() {
        for (mi, ms) in t.members.iter().enumerate() {
            if !args.map.on_map(ms.at) {
                return Err(Error::invalid(
                    format!("teams[{ti}].members[{mi}].at"),
                    "must be a battlefield square",
                ));
            }
        }
    }
    let mut events = teleport_events;
    engine::start_round(&mut s, 1, &mut events);
    engine::down_at_start(&mut s, &mut events)?;
    Ok((s, events))
}

/// A sheet's violations name places inside the sheet (`sheet.points.attack`):
/// name them inside the setup instead (`teams[1].members[0].sheet.points.attack`).
fn rebase(mut e: Error, to: &str) -> Error {
    let inside = |loc: &[PathItem]| -> Vec<PathItem> {
        let rest = match loc.first() {
            Some(PathItem::Key(k)) if k == "sheet" => &loc[1..],
            _ => loc,
        };
        let mut out = loc_of(to);
        out.extend(rest.iter().cloned());
        out
    };
    if e.field.is_some() {
        e.loc = inside(&e.loc);
        e.field = Some(render_loc(&e.loc));
    }
    for d in e.details.iter_mut() {
        d.path = render_loc(&inside(&loc_of(&d.path)));
    }
    e
}

/// The setup's own place for a field of the state built from it:
/// `state.members[3].at` → `teams[1].members[0].at`; other fields lose `state`.
fn setup_loc(s: &WtBattleState, loc: &[PathItem]) -> Vec<PathItem> {
    let loc = match loc.first() {
        Some(PathItem::Key(k)) if k == "state" => &loc[1..],
        _ => loc,
    };
    if let [PathItem::Key(k), PathItem::Index(i), tail @ ..] = loc {
        if let Some(m) = (k == "members").then(|| s.members.get(*i as usize)).flatten() {
            let pos = s.members.iter().take(*i as usize).filter(|o| o.team == m.team).count();
            let mut out = vec![
                PathItem::Key("teams".into()),
                PathItem::Index(u32::try_from(m.team).unwrap_or(u32::MAX)),
                PathItem::Key("members".into()),
                PathItem::Index(u32::try_from(pos).unwrap_or(u32::MAX)),
            ];
            out.extend(tail.iter().cloned());
            return out;
        }
    }
    loc.to_vec()
}

/// Apply one action to a validated state (a copy: the input is never changed).
pub fn act_on(
    s: &WtBattleState,
    action: &WtBattleAction,
    dice: &mut Dice,
) -> Result<(WtBattleState, Vec<WtBattleEvent>)> {
    let mut ns = s.clone();
    let mut ev = Vec::new();
    engine::act(&mut ns, action, dice, &mut ev)?;
    Ok((ns, ev))
}

/// `world_trigger.battle_legal_actions` — every action legal now, with its cost.
pub fn battle_legal_actions(args: &WtBattleLegalArgs) -> Result<WtBattleLegalResult> {
    let s = load_state(&args.state)?;
    let (actions, moves) = view::listing(
        &mut legal::LegalList::default(),
        &s,
        args.actor.as_deref(),
        args.kind.as_deref(),
        args.compact,
        args.viewer.as_ref(),
    )?;
    Ok(WtBattleLegalResult { actions, moves })
}

/// `world_trigger.battle_run` — `battle_new` then each step's `battle_act`.
pub fn battle_run(args: &WtBattleRunArgs) -> Result<WtBattleRunResult> {
    if args.steps.len() > MAX_RUN_STEPS {
        return Err(Error::limit("steps", "at most 2000 steps"));
    }
    // The setup's errors name its fields under `setup` (`setup.teams[0]...`).
    let (mut s, setup_events) = new_state(&args.setup).map_err(|e| e.within("setup"))?;
    let mut last_events = setup_events.clone();
    let mut events = setup_events;
    let mut last_rolls = Vec::new();
    for (i, st) in args.steps.iter().enumerate() {
        let mut dice = st.source.dice().map_err(|e| e.within(&format!("steps[{i}]")))?;
        let mut ev = Vec::new();
        // An argument error names the step's field (`steps[3].action.actor`);
        // an illegal action (no field) is returned as it is.
        engine::act(&mut s, &st.action, &mut dice, &mut ev).map_err(|e| {
            if e.field.is_some() {
                e.within(&format!("steps[{i}]"))
            } else {
                e
            }
        })?;
        events.extend(ev.iter().cloned());
        last_events = ev;
        last_rolls = dice.take_rolls();
    }
    let legal = args.with_legal.then(|| legal::legal_actions_bounded(&s, None, "with_legal")).transpose()?;
    let (last_events, events) = (sentences::logged(&s, last_events), sentences::logged(&s, events));
    Ok(WtBattleRunResult { state: s, last_events, last_rolls, events, legal })
}

/// Battle-data kinds that need no target (for docs/tests).
pub fn is_tactics_kind(k: WtBattleSkillKind) -> bool {
    matches!(
        k,
        WtBattleSkillKind::Tactics
            | WtBattleSkillKind::Stealth
            | WtBattleSkillKind::Invisible
            | WtBattleSkillKind::Search
    )
}
