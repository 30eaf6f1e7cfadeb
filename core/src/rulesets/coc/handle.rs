//! The Call of Cthulhu engines as [`Engine`]s: `coc_ap.Round` (6th-edition
//! action points), `coc7_house.Round` and `coc7_house.Chase` (7th-edition house
//! combat). Each wraps the functions its pure operations use (`load_state`,
//! `check`, `commit`), so a handle and the pure operations give the same
//! states, listings and events.

use crate::coc7_house::chase::{
    self, C7hChaseAction, C7hChaseLegalAction, C7hChaseNewArgs, C7hChaseState, C7hChaseStatus,
};
use crate::coc7_house::round::{self as c7h, C7hAction, C7hLegalAction, C7hRoundNewArgs, C7hRoundState};
use crate::coc_ap::round::{
    self as ap, CocApAction, CocApChecked, CocApLegalAction, CocApRoundNewArgs, CocApRoundState,
};
use crate::dice::Dice;
use crate::engine::{json_name, no_data, Created, Engine, Turn, TurnActive};
use crate::error::Result;
use crate::json::ToJson;
use serde_json::{json, Value};

/// `coc_ap.Round` (`coc_ap.round_new` / `round_legal_actions` / `round_act`).
pub struct ApRound;

impl Engine for ApRound {
    const HANDLE: &'static str = "coc_ap.Round";
    const OPS: [&'static str; 3] = ["coc_ap.round_new", "coc_ap.round_legal_actions", "coc_ap.round_act"];
    type Setup = CocApRoundNewArgs;
    type State = CocApRoundState;
    type Action = CocApAction;
    type Ctx = ();
    type Cache = ();
    type Listed = CocApLegalAction;
    type Checked = CocApChecked;
    type Events = Vec<ap::CocApLoggedEvent>;

    fn create(setup: &CocApRoundNewArgs) -> Result<Created<Self>> {
        let r = ap::round_new(setup)?;
        Ok(Created { ctx: (), state: r.state, events: r.events.to_json(), rolls: r.rolls })
    }

    fn load(state: &Value, data: Option<&Value>) -> Result<((), CocApRoundState)> {
        no_data(data, "a CoC 6th-edition round")?;
        Ok(((), ap::load_state(state)?))
    }

    fn candidates(_: &(), s: &CocApRoundState) -> Vec<CocApAction> {
        ap::candidate_actions(s)
    }

    fn check(_: &(), s: &CocApRoundState, a: &CocApAction) -> Result<CocApChecked> {
        ap::check(s, a)
    }

    fn apply(
        _: &(),
        s: &mut CocApRoundState,
        a: &CocApAction,
        c: CocApChecked,
        dice: &mut Dice,
    ) -> Result<Vec<ap::CocApLoggedEvent>> {
        ap::commit(s, a, c, dice)
    }

    /// With the AP it spends.
    fn listed(_: &(), _: &CocApRoundState, a: CocApAction, c: CocApChecked) -> CocApLegalAction {
        CocApLegalAction { action: a, ap: c.ap }
    }

    fn actor(a: &CocApAction) -> Option<&str> {
        ap::actor_of(a)
    }

    fn actors(s: &CocApRoundState) -> Vec<&str> {
        Self::viewers(s)
    }

    fn listed_action(l: &CocApLegalAction) -> Result<CocApAction> {
        Ok(l.action.clone())
    }

    /// COCAP-RND-2: the target of a pending attack (`reaction`), else the participant
    /// whose turn it is; once every turn has ended, `next_round`; nobody once the fight is over.
    fn turn(_: &(), s: &CocApRoundState) -> Turn {
        ap::turn_of(s)
    }

    /// A participant's side, as the setup gave it.
    fn side<'a>(s: &'a CocApRoundState, id: &str) -> Option<&'a str> {
        s.fighters.iter().find(|f| f.participant.id == id)?.participant.side.as_deref()
    }

    /// COCAP-RND-3: `{winner, down, rule, text}` once one side is left standing.
    fn outcome(_: &(), s: &CocApRoundState) -> Value {
        ap::outcome(s).to_json()
    }

    fn hp(s: &CocApRoundState) -> Vec<(&str, i64)> {
        ap::hp_list(s)
    }

    /// COCAP-ACT-4 治療 (its HP from the illustrative pack, COC6-BASE-TREAT).
    const HEALING_RULES: &'static [&'static str] = &["COCAP-ACT-4"];

    /// COCAP-ACT-2: each `damaged` event's damage taken, dealt by its attacker.
    #[cfg(feature = "simulate")]
    fn damage_dealt(events: &Value) -> Option<Vec<(String, String, i64)>> {
        use crate::engine::simulate::{events_tagged, hit_of};
        Some(
            events_tagged(events, "event", "damaged")
                .filter_map(|e| hit_of(e, "attacker", "target", "damage"))
                .collect(),
        )
    }

    /// COCAP-ACT-2: an attack.
    #[cfg(feature = "simulate")]
    fn attacks(_: &(), a: &CocApAction) -> bool {
        matches!(a, CocApAction::Attack { .. })
    }

    /// COC6-BASE-HP: those at or below the pack's unconscious threshold.
    fn down(s: &CocApRoundState) -> Option<Vec<&str>> {
        Some(
            s.fighters
                .iter()
                .filter(|f| ap::is_down(&f.participant))
                .map(|f| f.participant.id.as_str())
                .collect(),
        )
    }

    /// `other`'s AP cost is the caller's (COCAP-AP-2(b)); it is listed at 1.
    #[cfg(test)]
    fn caller_chosen(a: &CocApAction) -> bool {
        matches!(a, CocApAction::Other { ap, .. } if *ap != 1)
    }

    /// Participant ids. Nothing is hidden (the default view): actions are declared to
    /// the KP at the table (COCAP-AP-2) and the map is open (COCAP-PREP-1).
    fn viewers(s: &CocApRoundState) -> Vec<&str> {
        s.fighters.iter().map(|f| f.participant.id.as_str()).collect()
    }

    #[cfg(test)]
    fn probes(_: &(), s: &CocApRoundState, rng: &mut crate::dice::prng::Prng) -> Vec<CocApAction> {
        ap::candidates(s, rng)
    }
}

/// `coc7_house.Round` (`coc7_house.round_new` / `round_legal_actions` / `round_act`).
pub struct HouseRound;

impl Engine for HouseRound {
    const HANDLE: &'static str = "coc7_house.Round";
    const OPS: [&'static str; 3] =
        ["coc7_house.round_new", "coc7_house.round_legal_actions", "coc7_house.round_act"];
    type Setup = C7hRoundNewArgs;
    type State = C7hRoundState;
    type Action = C7hAction;
    type Ctx = ();
    type Cache = ();
    type Listed = C7hLegalAction;
    type Checked = Option<usize>;
    type Events = Vec<c7h::C7hLoggedEvent>;

    fn create(setup: &C7hRoundNewArgs) -> Result<Created<Self>> {
        let r = c7h::round_new(setup)?;
        Ok(Created { ctx: (), state: r.state, events: r.events.to_json(), rolls: r.rolls })
    }

    fn load(state: &Value, data: Option<&Value>) -> Result<((), C7hRoundState)> {
        no_data(data, "a CoC 7th-edition round")?;
        Ok(((), c7h::load_state(state)?))
    }

    fn candidates(_: &(), s: &C7hRoundState) -> Vec<C7hAction> {
        c7h::candidates(s)
    }

    /// The acting combatant's index (None: `next_round`).
    fn check(_: &(), s: &C7hRoundState, a: &C7hAction) -> Result<Option<usize>> {
        c7h::check(s, a)
    }

    fn apply(
        _: &(),
        s: &mut C7hRoundState,
        a: &C7hAction,
        c: Option<usize>,
        dice: &mut Dice,
    ) -> Result<Vec<c7h::C7hLoggedEvent>> {
        c7h::commit(s, a, c, dice)
    }

    /// With what of the round's actions it uses.
    fn listed(_: &(), _: &C7hRoundState, a: C7hAction, _: Option<usize>) -> C7hLegalAction {
        C7hLegalAction { uses: c7h::uses(&a), action: a }
    }

    fn actor(a: &C7hAction) -> Option<&str> {
        c7h::actor_of(a)
    }

    fn actors(s: &C7hRoundState) -> Vec<&str> {
        Self::viewers(s)
    }

    fn listed_action(l: &C7hLegalAction) -> Result<C7hAction> {
        Ok(l.action.clone())
    }

    /// C7H-INIT-1: the combatant whose turn it is, in the round's order; once every
    /// turn has ended, `next_round`. A pending attack (C7H-PAS-1): its target, stage
    /// `reaction`, then the target's allies who may still cover it. Nobody once the
    /// fight is over.
    fn turn(_: &(), s: &C7hRoundState) -> Turn {
        // C7H-INIT-1: the round's initiative order.
        let order = crate::engine::settled_first(
            s.order.iter().map(String::as_str),
            s.combatants.iter().map(|c| c.entry.id.as_str()),
        );
        let outcome = Self::outcome(&(), s);
        let over = !outcome.is_null();
        let round = Turn {
            round: s.round,
            phase: "round".into(),
            active: Vec::new(),
            order,
            outcome,
            ..Turn::default()
        };
        if over {
            return round;
        }
        if let Some(p) = &s.pending {
            let mut active = vec![TurnActive::of(&p.target, "reaction")];
            let side = s.combatants.iter().find(|c| c.entry.id == p.target).and_then(|c| c.side.clone());
            for c in &s.combatants {
                let id = c.entry.id.as_str();
                let cover = c7h::C7hAction::Reaction {
                    actor: id.to_string(),
                    kind: Some(c7h::C7hPassiveKind::Cover),
                    weapon: None,
                    bonus_die: false,
                };
                if id != p.target && side.is_some() && c.side == side && c7h::check(s, &cover).is_ok() {
                    active.push(TurnActive::of(id, "reaction"));
                }
            }
            return Turn { active, ..round };
        }
        let active = match s.turn.and_then(|t| s.order.get(t)) {
            Some(id) => TurnActive::of(id, "turn"),
            None => TurnActive::step("next_round"),
        };
        Turn { active: vec![active], ..round }
    }

    /// When the combatants have sides and every side but one is down (the illustrative
    /// 7th-edition HP pack): `{side, rule, down}` (`side` null when every side is down);
    /// `null` while the fight goes on, and for a round without sides.
    fn outcome(_: &(), s: &C7hRoundState) -> Value {
        match crate::coc7_house::exchange::fight_over(s) {
            None => Value::Null,
            Some((side, down)) => json!({"side": side, "rule": "C7H-ACT-1", "down": down}),
        }
    }

    /// Each combatant whose HP is tracked.
    fn hp(s: &C7hRoundState) -> Vec<(&str, i64)> {
        s.combatants.iter().filter_map(|c| c.hp.map(|h| (c.entry.id.as_str(), h))).collect()
    }

    /// C7H-PAS-1: each resolved exchange's damage: the attack's, taken by `hurt`, dealt
    /// by the attacker; the damage the attacker took (a fight back won, a counter-attack,
    /// a cancel), dealt by the reactor.
    #[cfg(feature = "simulate")]
    fn damage_dealt(events: &Value) -> Option<Vec<(String, String, i64)>> {
        use crate::engine::simulate::{events_tagged, hit_of, text_of};
        let mut out = Vec::new();
        for e in events_tagged(events, "event", "attack_resolved") {
            out.extend(hit_of(e, "attacker", "hurt", "damage_taken"));
            let answered_by = if e.get("reactor").is_some() { "reactor" } else { "target" };
            if let Some((by, _, n)) = hit_of(e, answered_by, "attacker", "attacker_damage_taken") {
                out.extend(text_of(e, "attacker").map(|a| (by, a, n)));
            }
        }
        Some(out)
    }

    /// C7H-ACT-1 an attack; C7H-PAS-1 a reaction that strikes back (応戦, 反撃).
    #[cfg(feature = "simulate")]
    fn attacks(_: &(), a: &C7hAction) -> bool {
        use c7h::C7hPassiveKind as K;
        matches!(
            a,
            C7hAction::Attack { .. }
                | C7hAction::Reaction { kind: Some(K::FightBack | K::Counter), .. }
                | C7hAction::Passive { kind: K::FightBack | K::Counter, .. }
        )
    }

    /// A combatant's side, as the setup gave it.
    fn side<'a>(s: &'a C7hRoundState, id: &str) -> Option<&'a str> {
        s.combatants.iter().find(|c| c.entry.id == id)?.side.as_deref()
    }

    /// Those no longer active (unconscious, dying, dead: the illustrative HP pack).
    fn down(s: &C7hRoundState) -> Option<Vec<&str>> {
        Some(
            s.combatants
                .iter()
                .filter(|c| !crate::coc7_house::exchange::is_up(c))
                .map(|c| c.entry.id.as_str())
                .collect(),
        )
    }

    /// Combatant ids. Nothing is hidden (the default view): the round's order, actions
    /// and stances are played openly.
    fn viewers(s: &C7hRoundState) -> Vec<&str> {
        s.combatants.iter().map(|c| c.entry.id.as_str()).collect()
    }

    #[cfg(test)]
    fn probes(_: &(), s: &C7hRoundState, _: &mut crate::dice::prng::Prng) -> Vec<C7hAction> {
        c7h::candidates(s)
    }
}

/// `coc7_house.Chase` (`coc7_house.chase_new` / `chase_legal_actions` / `chase_act`).
pub struct Chase;

impl Engine for Chase {
    const HANDLE: &'static str = "coc7_house.Chase";
    const OPS: [&'static str; 3] =
        ["coc7_house.chase_new", "coc7_house.chase_legal_actions", "coc7_house.chase_act"];
    type Setup = C7hChaseNewArgs;
    type State = C7hChaseState;
    type Action = C7hChaseAction;
    type Ctx = ();
    type Cache = ();
    type Listed = C7hChaseLegalAction;
    type Checked = ();
    type Events = Vec<chase::C7hChaseLoggedEvent>;

    fn create(setup: &C7hChaseNewArgs) -> Result<Created<Self>> {
        let r = chase::chase_new(setup)?;
        Ok(Created { ctx: (), state: r.state, events: r.events.to_json(), rolls: r.rolls })
    }

    fn load(state: &Value, data: Option<&Value>) -> Result<((), C7hChaseState)> {
        no_data(data, "a chase")?;
        Ok(((), chase::load_state(state)?))
    }

    /// The chase has one action: the next round.
    fn candidates(_: &(), _: &C7hChaseState) -> Vec<C7hChaseAction> {
        vec![C7hChaseAction::Round {}]
    }

    fn check(_: &(), s: &C7hChaseState, _: &C7hChaseAction) -> Result<()> {
        chase::chase_round_legal(s)
    }

    fn apply(
        _: &(),
        s: &mut C7hChaseState,
        _: &C7hChaseAction,
        _: (),
        dice: &mut Dice,
    ) -> Result<Vec<chase::C7hChaseLoggedEvent>> {
        chase::commit(s, dice)
    }

    fn listed(_: &(), _: &C7hChaseState, a: C7hChaseAction, _: ()) -> C7hChaseLegalAction {
        C7hChaseLegalAction { action: a }
    }

    /// A chase round is the chase's own step: nobody in particular takes it.
    fn actor(_: &C7hChaseAction) -> Option<&str> {
        None
    }

    fn actors(s: &C7hChaseState) -> Vec<&str> {
        Self::viewers(s)
    }

    fn listed_action(l: &C7hChaseLegalAction) -> Result<C7hChaseAction> {
        Ok(l.action.clone())
    }

    /// C7H-ESC-6: the chase goes on round by round (`round`, nobody in particular) until
    /// the fugitive escapes or is caught; the phase is its status (`ongoing`, `escaped`,
    /// `caught`). C7H-ESC-1: without a pursuer there is no chase round. The order: the
    /// fugitive, then the pursuer.
    fn turn(_: &(), s: &C7hChaseState) -> Turn {
        let on = s.status == C7hChaseStatus::Ongoing && s.pursuer.is_some();
        let active = if on { vec![TurnActive::step("round")] } else { Vec::new() };
        let order = Self::viewers(s).into_iter().map(str::to_string).collect();
        Turn {
            round: s.round,
            phase: json_name(&s.status),
            active,
            order,
            outcome: Self::outcome(&(), s),
            ..Turn::default()
        }
    }

    /// `{"status": "escaped" | "caught", "round"}` once the chase is over (C7H-ESC-6).
    fn outcome(_: &(), s: &C7hChaseState) -> Value {
        match s.status {
            C7hChaseStatus::Ongoing => Value::Null,
            st => json!({"status": st.to_json(), "round": s.round}),
        }
    }

    /// The fugitive's and the pursuer's ids. Nothing is hidden (the default view): the
    /// gap and the rolls are open (C7H-ESC).
    fn viewers(s: &C7hChaseState) -> Vec<&str> {
        std::iter::once(s.fugitive.id.as_str()).chain(s.pursuer.as_ref().map(|p| p.id.as_str())).collect()
    }

    #[cfg(test)]
    fn probes(_: &(), _: &C7hChaseState, _: &mut crate::dice::prng::Prng) -> Vec<C7hChaseAction> {
        vec![C7hChaseAction::Round {}]
    }
}

#[cfg(feature = "schema")]
crate::engine::view_schema::view_shapes!(
    CocApRoundViewArgs,
    CocApRoundViewResult,
    crate::coc_ap::round::CocApRoundState,
    crate::coc_ap::round::CocApLoggedEvent,
    String,
    "A participant's id; absent or null: the KP.",
    crate::coc_ap::round::CocApRoundState,
    "The state: the AP round hides nothing from a viewer, so it is the state unchanged.",
    crate::coc_ap::round::CocApLoggedEvent
);

#[cfg(feature = "schema")]
crate::engine::view_schema::view_shapes!(
    C7hRoundViewArgs,
    C7hRoundViewResult,
    crate::coc7_house::round::C7hRoundState,
    crate::coc7_house::round::C7hLoggedEvent,
    String,
    "A combatant's id; absent or null: the KP.",
    crate::coc7_house::round::C7hRoundState,
    "The state: the round hides nothing from a viewer, so it is the state unchanged.",
    crate::coc7_house::round::C7hLoggedEvent
);

#[cfg(feature = "schema")]
crate::engine::view_schema::view_shapes!(
    C7hChaseViewArgs,
    C7hChaseViewResult,
    crate::coc7_house::chase::C7hChaseState,
    crate::coc7_house::chase::C7hChaseLoggedEvent,
    String,
    "The fugitive's or the pursuer's id; absent or null: the KP.",
    crate::coc7_house::chase::C7hChaseState,
    "The state: a chase hides nothing from a viewer, so it is the state unchanged.",
    crate::coc7_house::chase::C7hChaseLoggedEvent
);

#[cfg(feature = "schema")]
crate::engine::view_schema::turn_shapes!(
    CocApRoundTurnArgs,
    crate::coc_ap::round::CocApRoundState,
    String,
    "A participant's id; absent or null: the KP."
);

#[cfg(feature = "schema")]
crate::engine::view_schema::turn_shapes!(
    C7hRoundTurnArgs,
    crate::coc7_house::round::C7hRoundState,
    String,
    "A combatant's id; absent or null: the KP."
);

#[cfg(feature = "schema")]
crate::engine::view_schema::turn_shapes!(
    C7hChaseTurnArgs,
    crate::coc7_house::chase::C7hChaseState,
    String,
    "The fugitive's or the pursuer's id; absent or null: the KP."
);
#[cfg(all(feature = "schema", feature = "simulate"))]
crate::engine::view_schema::simulate_shapes!(CocApRoundSimulateArgs, CocApRoundNewArgs);
#[cfg(all(feature = "schema", feature = "simulate"))]
crate::engine::view_schema::simulate_shapes!(C7hRoundSimulateArgs, C7hRoundNewArgs);
#[cfg(all(feature = "schema", feature = "simulate"))]
crate::engine::view_schema::simulate_shapes!(C7hChaseSimulateArgs, C7hChaseNewArgs);
