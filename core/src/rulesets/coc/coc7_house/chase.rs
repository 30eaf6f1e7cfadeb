//! Escape and chase (C7H-ESC-1 … C7H-ESC-6): `coc7_house.chase_new` and
//! `coc7_house.chase_act`.
//!
//! RULINGS: the starting gap and the end conditions are inputs (defaults: gap
//! 2, escape at gap ≥ 5 or after 3 fugitive wins). Each `chase_act` plays one
//! chase round:
//! 1. each side rolls its situational skill (C7H-ESC-2: CON on foot, Drive,
//!    Pilot); success MOV +1, Extreme or better MOV +2, failure nothing (C7H-ESC-3);
//! 2. the modified MOVs are compared (C7H-ESC-5): a slower pursuer can't pursue
//!    this round and the gap grows by 1; a faster one gets +1 bonus die per
//!    point of difference, with no cap (RULINGS 2026-12-05: not bounded by
//!    `coc7.check`'s own limit of 10);
//! 3. otherwise a DEX opposed roll (C7H-ESC-4): if both sides fail nobody wins
//!    (`neither`, RULINGS 2026-12-05); else higher level, then higher DEX;
//! 4. the fugitive's win widens the gap by 1 and counts a win, the pursuer's
//!    narrows it by 1, a tie or `neither` changes nothing (C7H-ESC-6);
//! 5. the fugitive escapes at gap ≥ `escape_gap` or `wins_needed` wins; gunbai
//!    also ends the chase as `caught` when the gap reaches 0 (the source does
//!    not say what closing the distance does; this is the engine's reading).
//!
//! Scripted `rolls`: the fugitive's situational roll (tens, ones), the
//! pursuer's, then — if the pursuer can pursue — the fugitive's DEX roll and
//! the pursuer's DEX roll (its bonus tens dice first, then the ones die).

use crate::coc7::check::{roll_check, validate_rule, validate_skill};
use crate::coc7::opposed::{winner_of, Coc7Winner};
use crate::coc7::{Coc7Difficulty, Coc7Outcome};
use crate::dice::{Dice, Roll};
use crate::engine::ids::{Ids, Source};
use crate::error::{Error, ErrorCode, Result};
use crate::json::{FromJson, ToJson};

/// Highest chase round.
pub const MAX_ROUND: u32 = 10_000;

/// How a side moves (C7H-ESC-2; the roll is the `skill` given).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hChaseMeans {
    /// On foot: CON.
    #[default]
    OnFoot,
    /// A vehicle: Drive (運転).
    Vehicle,
    /// A ship or aircraft: Pilot (操縦).
    Craft,
}

/// One side of a chase.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hChaser {
    /// Id (1–64 characters).
    pub id: String,
    /// Base MOV, 0–100.
    #[schemars(range(min = 0, max = 100))]
    pub mov: i64,
    /// DEX, 0–999 (the opposed roll).
    #[schemars(range(min = 0, max = 999))]
    pub dex: i64,
    /// The situational skill value (CON / Drive / Pilot), 0–999.
    #[schemars(range(min = 0, max = 999))]
    pub skill: i64,
    /// Which means (informative; default `on_foot`).
    #[serde(default)]
    pub means: C7hChaseMeans,
}

/// Where the chase stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hChaseStatus {
    /// Still going.
    Ongoing,
    /// The fugitive got away (C7H-ESC-1 / C7H-ESC-6).
    Escaped,
    /// The gap closed to 0 (engine reading).
    Caught,
}

/// The chase state.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hChaseState {
    /// Chase rounds played.
    pub round: u32,
    /// The fugitive (逃亡者).
    pub fugitive: C7hChaser,
    /// The pursuer (追跡者), if any.
    #[serde(default)]
    pub pursuer: Option<C7hChaser>,
    /// Current gap in abstract steps.
    pub gap: i64,
    /// Gap at which the fugitive escapes.
    pub escape_gap: i64,
    /// Opposed-roll wins after which the fugitive escapes.
    pub wins_needed: i64,
    /// Opposed-roll wins so far.
    pub fugitive_wins: i64,
    /// Status.
    pub status: C7hChaseStatus,
    /// House rule 0–5 for the rolls (see `coc7.check`).
    #[serde(default)]
    pub rule: i64,
}

/// Arguments of `coc7_house.chase_new`.
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hChaseNewArgs {
    /// The fugitive.
    pub fugitive: C7hChaser,
    /// The pursuer; none means the fugitive escapes at once by leaving the field (C7H-ESC-1).
    #[serde(default)]
    pub pursuer: Option<C7hChaser>,
    /// Starting gap, 1–100. Default 2.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub gap: Option<i64>,
    /// Gap at which the fugitive escapes, 1–100. Default 5.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub escape_gap: Option<i64>,
    /// Fugitive wins needed to escape, 1–100. Default 3.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub wins_needed: Option<i64>,
    /// House rule 0–5 (see `coc7.check`). Default 0.
    #[serde(default)]
    #[schemars(range(min = 0, max = 5))]
    pub rule: i64,
    /// Rule variants (RULINGS.md): `coc7_rule` (the same house rule as `rule`) and
    /// `extreme_damage`.
    #[serde(default)]
    pub variants: crate::coc7_house::damage::C7hVariants,
}

crate::internally_tagged! {
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    /// A chase action: the chase has one, playing its next round.
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum C7hChaseAction {
        /// C7H-ESC-2…6: one chase round (both situational rolls, then the DEX
        /// roll if the pursuer can pursue).
        Round {},
    }
}

/// One legal chase action.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hChaseLegalAction {
    /// The action, as `chase_act` takes it.
    pub action: C7hChaseAction,
}

crate::legal_shapes!(
    /// Arguments of `coc7_house.chase_legal_actions`.
    C7hChaseLegalArgs,
    /// Result of `coc7_house.chase_legal_actions`.
    C7hChaseLegalResult,
    "C7hChaseState",
    /// `round` while the chase goes on (C7H-ESC-6) and has a pursuer; empty once it is over.
    actions: C7hChaseLegalAction,
    viewer: "the fugitive's or the pursuer's id."
);

/// Arguments of `coc7_house.chase_act`.
///
/// `rolls`: Scripted faces, in this order: the fugitive's situational roll (tens, ones), the pursuer's (tens, ones), then, only if the pursuer can pursue, the fugitive's DEX roll (tens, ones) and the pursuer's DEX roll (its bonus tens dice first, then the ones die).
#[derive(Debug, Clone, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hChaseActArgs {
    /// The current state; validated as untrusted data (`invalid_data` naming the field).
    #[schemars(with = "C7hChaseState")]
    pub state: serde_json::Value,
    /// The action: `{"type": "round"}` (the default; the chase has no other).
    #[serde(default)]
    pub action: Option<C7hChaseAction>,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
}

/// Who won the DEX opposed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hChaseWinner {
    /// The fugitive.
    Fugitive,
    /// The pursuer.
    Pursuer,
    /// Same level and DEX.
    Tie,
    /// Both sides failed: nobody wins (RULINGS 2026-12-05, 7th-edition opposed rolls).
    Neither,
}

crate::internally_tagged! {
    #[serde(tag = "event", rename_all = "snake_case")]
    /// What happened in a chase (reported with its `rule` and `text`:
    /// [`C7hChaseLoggedEvent`]).
    #[allow(clippy::large_enum_variant)] // a chase reports one or two events: no arrays of them to shrink
    #[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    pub enum C7hChaseEvent {
        /// C7H-ESC-1: the chase started (`status` is `escaped` at once without a pursuer).
        ChaseStarted {
            /// The starting gap.
            gap: i64,
            /// Where the chase stands.
            status: C7hChaseStatus,
        },
        /// C7H-ESC-2…6: one chase round played.
        ChaseRound {
            /// The round's number.
            round: u32,
            /// The fugitive's situational roll (C7H-ESC-2).
            fugitive_check: Coc7Outcome,
            /// The pursuer's situational roll.
            pursuer_check: Coc7Outcome,
            /// The fugitive's MOV this round (C7H-ESC-3).
            fugitive_mov: i64,
            /// The pursuer's MOV this round.
            pursuer_mov: i64,
            /// The pursuer could pursue this round (its MOV ≥ the fugitive's, C7H-ESC-5).
            pursuit: bool,
            /// Bonus dice the pursuer got on the DEX roll (C7H-ESC-5).
            pursuer_bonus_dice: i64,
            /// The fugitive's DEX roll (C7H-ESC-4).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            fugitive_dex: Option<Coc7Outcome>,
            /// The pursuer's DEX roll.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pursuer_dex: Option<Coc7Outcome>,
            /// Winner of the DEX opposed roll.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            winner: Option<C7hChaseWinner>,
            /// The gap after the round (C7H-ESC-6).
            gap: i64,
            /// The fugitive's opposed-roll wins so far.
            fugitive_wins: i64,
            /// Where the chase stands now (C7H-ESC-6).
            status: C7hChaseStatus,
        },
    }
}

/// An event as reported: with the rule that produced it and its sentence.
pub type C7hChaseLoggedEvent = crate::kernel::label::Logged<C7hChaseEvent>;

/// Result of `chase_new` / `chase_act`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hChaseResult {
    /// The new state.
    pub state: C7hChaseState,
    /// What happened (`chase_new`: the start; `chase_act`: the round).
    pub events: Vec<C7hChaseLoggedEvent>,
    /// Every die rolled.
    pub rolls: Vec<Roll>,
}

fn validate_chaser(f: &str, c: &C7hChaser, ids: Ids) -> Result<()> {
    let wrap = |e: Error| match ids.0 {
        Source::Data => {
            let mut e = e;
            e.code = ErrorCode::InvalidData;
            e
        }
        Source::Argument => e,
    };
    ids.name(&format!("{f}.id"), &c.id)?;
    if !(0..=100).contains(&c.mov) {
        return Err(wrap(Error::out_of_range(format!("{f}.mov"), "must be 0..=100")));
    }
    validate_skill(&format!("{f}.dex"), c.dex).map_err(wrap)?;
    validate_skill(&format!("{f}.skill"), c.skill).map_err(wrap)?;
    Ok(())
}

/// The two sides have different ids.
fn distinct(f: &str, fugitive: &C7hChaser, pursuer: Option<&C7hChaser>, ids: Ids) -> Result<()> {
    let Some(p) = pursuer else { return Ok(()) };
    ids.unique([fugitive.id.as_str(), p.id.as_str()], |_| format!("{f}pursuer.id"))
}

/// Parse and validate an untrusted chase state (`invalid_data` naming the field).
pub fn load_state(value: &serde_json::Value) -> Result<C7hChaseState> {
    let s: C7hChaseState = crate::ops::parse_data("state", value.clone())?;
    validate_state(&s)?;
    Ok(s)
}

fn validate_state(s: &C7hChaseState) -> Result<()> {
    validate_chaser("state.fugitive", &s.fugitive, Ids::DATA)?;
    if let Some(p) = &s.pursuer {
        validate_chaser("state.pursuer", p, Ids::DATA)?;
    }
    distinct("state.", &s.fugitive, s.pursuer.as_ref(), Ids::DATA)?;
    for (f, v, lo) in [
        ("state.gap", s.gap, 0),
        ("state.escape_gap", s.escape_gap, 1),
        ("state.wins_needed", s.wins_needed, 1),
    ] {
        if !(lo..=1000).contains(&v) {
            return Err(Error::invalid_data(f, format_args!("must be {lo}..=1000")));
        }
    }
    if !(0..=1000).contains(&s.fugitive_wins) {
        return Err(Error::invalid_data("state.fugitive_wins", "must be 0..=1000"));
    }
    validate_rule("state.rule", s.rule).map_err(|mut e| {
        e.code = ErrorCode::InvalidData;
        e
    })?;
    if s.round > MAX_ROUND {
        return Err(Error::invalid_data("state.round", format_args!("must be at most {MAX_ROUND}")));
    }
    // An ongoing chase has its gap between 0 and the escape gap and too few fugitive wins
    // (C7H-ESC-6); a state saying "ongoing" otherwise was edited.
    if s.status == C7hChaseStatus::Ongoing && status_of(s) != C7hChaseStatus::Ongoing {
        return Err(Error::invalid_data(
            "state.status",
            format_args!("is {:?}, but the gap and wins say {:?}", s.status, status_of(s)),
        ));
    }
    // C7H-ESC-6: the status follows from the gap and the wins, after every round.
    if s.status != status_of(s) {
        return Err(Error::invariant(
            "state.status",
            "C7H-ESC-6",
            format_args!("is {:?}, but the gap and wins say {:?}", s.status, status_of(s)),
        ));
    }
    // C7H-ESC-6: each round's opposed roll wins the fugitive at most one win.
    if s.fugitive_wins > i64::from(s.round) {
        return Err(Error::invariant(
            "state.fugitive_wins",
            "C7H-ESC-6",
            format_args!("at most one win a round: {} rounds played, not {} wins", s.round, s.fugitive_wins),
        ));
    }
    // C7H-ESC-1: without a pursuer the fugitive leaves at once: no round is played.
    if s.pursuer.is_none() && s.round > 0 {
        return Err(Error::invariant(
            "state.round",
            "C7H-ESC-1",
            "without a pursuer the chase ends before any round",
        ));
    }
    Ok(())
}

fn status_of(s: &C7hChaseState) -> C7hChaseStatus {
    if s.pursuer.is_none() || s.gap >= s.escape_gap || s.fugitive_wins >= s.wins_needed {
        C7hChaseStatus::Escaped
    } else if s.gap <= 0 {
        C7hChaseStatus::Caught
    } else {
        C7hChaseStatus::Ongoing
    }
}

/// `coc7_house.chase_new` — C7H-ESC-1: without a pursuer the fugitive escapes;
/// otherwise the chase starts at `gap`.
pub fn chase_new(args: &C7hChaseNewArgs) -> Result<C7hChaseResult> {
    validate_chaser("fugitive", &args.fugitive, Ids::ARG)?;
    if let Some(p) = &args.pursuer {
        validate_chaser("pursuer", p, Ids::ARG)?;
    }
    distinct("", &args.fugitive, args.pursuer.as_ref(), Ids::ARG)?;
    let rule = crate::coc7::check::rule_of(args.rule, args.variants.coc7_rule)?;
    let pick = |f: &str, v: Option<i64>, d: i64| -> Result<i64> {
        let v = v.unwrap_or(d);
        if !(1..=100).contains(&v) {
            return Err(Error::out_of_range(f, "must be 1..=100"));
        }
        Ok(v)
    };
    let mut state = C7hChaseState {
        round: 0,
        fugitive: args.fugitive.clone(),
        pursuer: args.pursuer.clone(),
        gap: pick("gap", args.gap, 2)?,
        escape_gap: pick("escape_gap", args.escape_gap, 5)?,
        wins_needed: pick("wins_needed", args.wins_needed, 3)?,
        fugitive_wins: 0,
        status: C7hChaseStatus::Ongoing,
        rule,
    };
    state.status = status_of(&state);
    let text = super::sentences::chase_started(
        &state.fugitive.id,
        state.pursuer.as_ref().map(|p| p.id.as_str()),
        state.gap,
        state.status,
    );
    let event = C7hChaseEvent::ChaseStarted { gap: state.gap, status: state.status };
    let events = vec![C7hChaseLoggedEvent::new(event, "C7H-ESC-1", text)];
    Ok(C7hChaseResult { state, events, rolls: Vec::new() })
}

/// C7H-ESC-3: success MOV +1, Extreme or better +2.
fn mov_bonus(o: &Coc7Outcome) -> i64 {
    if o.level.is_extreme_or_better() {
        2
    } else if o.level.is_success() {
        1
    } else {
        0
    }
}

/// `coc7_house.chase_act` — play one chase round (see the module docs).
pub fn chase_act(args: &C7hChaseActArgs) -> Result<C7hChaseResult> {
    let mut state = load_state(&args.state)?;
    let mut dice = args.source.dice()?;
    let events = act_on(&mut state, &mut dice)?;
    Ok(C7hChaseResult { state, events, rolls: dice.take_rolls() })
}

/// May another chase round be played (C7H-ESC-6 / C7H-ESC-1, the round limit)?
pub(crate) fn chase_round_legal(s0: &C7hChaseState) -> Result<()> {
    if s0.status != C7hChaseStatus::Ongoing {
        return Err(Error::illegal("C7H-ESC-6", "chase_act: the chase is over"));
    }
    if s0.pursuer.is_none() {
        return Err(Error::illegal("C7H-ESC-1", "chase_act: no pursuer"));
    }
    if s0.round >= MAX_ROUND {
        return Err(Error::limit("state.round", format_args!("at most {MAX_ROUND} chase rounds")));
    }
    Ok(())
}

/// One chase round on a validated state, in place (what `chase_act` and the
/// `coc7_house.Chase` handle share): C7H-ESC-2 (the situational rolls),
/// C7H-ESC-3 (MOV bonuses), C7H-ESC-5 (pursuit and bonus dice), C7H-ESC-4 (the
/// DEX opposed roll), C7H-ESC-6 (the gap, wins and the end): checked
/// ([`chase_round_legal`]), then applied ([`commit`]); the dice's rolls are left for
/// the caller.
pub(crate) fn act_on(s: &mut C7hChaseState, dice: &mut Dice) -> Result<Vec<C7hChaseLoggedEvent>> {
    chase_round_legal(s)?;
    commit(s, dice)
}

/// One chase round that [`chase_round_legal`] accepted, in place. It fails only if
/// scripted dice run out, and may then leave the state part-way changed.
pub(crate) fn commit(s: &mut C7hChaseState, dice: &mut Dice) -> Result<Vec<C7hChaseLoggedEvent>> {
    let Some(pursuer) = s.pursuer.clone() else {
        return Err(Error::new(crate::ErrorCode::Internal, "chase_act: no pursuer after the check"));
    };
    let rule = s.rule;
    s.round += 1;
    let fc = roll_check(dice, s.fugitive.skill, 0, Coc7Difficulty::Regular, rule)?;
    let pc = roll_check(dice, pursuer.skill, 0, Coc7Difficulty::Regular, rule)?;
    let fmov = s.fugitive.mov + mov_bonus(&fc);
    let pmov = pursuer.mov + mov_bonus(&pc);
    let (mut bonus, mut fdex, mut pdex, mut winner) = (0, None, None, None);
    let pursuit = pmov >= fmov;
    if !pursuit {
        // C7H-ESC-5: no pursuit this round; the fugitive pulls away (RULINGS).
        s.gap += 1;
    } else {
        // C7H-ESC-5: one bonus die per point of MOV difference, however many.
        bonus = pmov - fmov;
        let fd = roll_check(dice, s.fugitive.dex, 0, Coc7Difficulty::Regular, rule)?;
        let pd = roll_check(dice, pursuer.dex, bonus, Coc7Difficulty::Regular, rule)?;
        // RULINGS 2026-12-05: if both fail, nobody wins (gap and wins unchanged).
        let w = match winner_of(&fd, &pd) {
            _ if !fd.success && !pd.success => C7hChaseWinner::Neither,
            Coc7Winner::A => C7hChaseWinner::Fugitive,
            Coc7Winner::B => C7hChaseWinner::Pursuer,
            Coc7Winner::Tie => C7hChaseWinner::Tie,
        };
        match w {
            C7hChaseWinner::Fugitive => {
                s.gap += 1;
                s.fugitive_wins += 1;
            }
            C7hChaseWinner::Pursuer => s.gap -= 1,
            C7hChaseWinner::Tie | C7hChaseWinner::Neither => {}
        }
        (fdex, pdex, winner) = (Some(fd), Some(pd), Some(w));
    }
    s.status = status_of(s);
    let text = super::sentences::chase_round(&super::sentences::ChaseRound {
        round: s.round,
        fugitive: &s.fugitive.id,
        pursuer: &pursuer.id,
        fugitive_mov: fmov,
        pursuer_mov: pmov,
        dex: fdex.as_ref().zip(pdex.as_ref()).map(|(f, p)| (f.level, p.level)),
        winner,
        gap: s.gap,
        status: s.status,
    });
    let event = C7hChaseEvent::ChaseRound {
        round: s.round,
        fugitive_check: fc,
        pursuer_check: pc,
        fugitive_mov: fmov,
        pursuer_mov: pmov,
        pursuit,
        pursuer_bonus_dice: bonus,
        fugitive_dex: fdex,
        pursuer_dex: pdex,
        winner,
        gap: s.gap,
        fugitive_wins: s.fugitive_wins,
        status: s.status,
    };
    Ok(vec![C7hChaseLoggedEvent::new(event, "C7H-ESC-6", text)])
}
