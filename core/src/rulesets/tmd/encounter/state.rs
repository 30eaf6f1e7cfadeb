//! The serializable encounter state of `tmd.encounter_*` and its validation
//! (a caller-supplied state is untrusted JSON: `invalid_data` on any defect).

use super::super::actions::{TmdConvertType, TmdTypeCounts, TmdVariants, BASE_AP_PER_TURN, MAX_AP};
use super::super::initiative::{MAX_BASE_INITIATIVE, MAX_COMBATANTS};
use crate::engine::ids::Ids;
use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Format version of [`TmdEncounterState`].
pub const STATE_FORMAT: u32 = 1;
/// Most live effects.
pub const MAX_EFFECTS: usize = 500;
/// Most pending entries in one interrupt chain.
pub const MAX_CHAIN: usize = 100;
/// Most held actions of one kind.
pub const MAX_HELD: u32 = 10_000;
/// Longest free text (labels, ability names, purposes), in characters.
pub const MAX_TEXT_CHARS: usize = 200;
/// Most records in a per-round usage list, pending grant list or retained list.
pub const MAX_RECORDS: usize = 500;
/// Most per-character records (reflexes, retained, usage lists, grants) in a whole state.
pub const MAX_TOTAL_RECORDS: usize = 5_000;
/// Highest round number.
pub const MAX_ROUND: u32 = 1_000_000;
/// Largest HP and GM-entered damage.
pub const MAX_HP: i64 = 1_000_000_000;
/// TMD-SCN-3: a scene nobody changed becomes a new scene after 2 hours.
pub const SCENE_SECONDS_LIMIT: u32 = 7200;

/// Where the encounter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TmdPhase {
    /// TMD-SUR: the surprise round (round 0); the attacker holds one standard action.
    Surprise,
    /// TMD-INI-5: round start, delays are declared from the top of the order down.
    Delays,
    /// Turns are being taken (`current` is acting).
    Turns,
    /// The battle is over (TMD-SCN-1: a scene change).
    Ended,
}

/// How long an effect lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TmdDuration {
    /// TMD-TIME-3: a buff lasting one round ends at the start of the applier's next turn.
    BuffOneRound,
    /// TMD-TIME-3 (RULINGS): a debuff lasting one round ends at the end of the target's next turn.
    DebuffOneRound,
    /// TMD-SCN-2: lasts for the scene; ends on a scene change.
    Scene,
}

/// A live effect.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdEffect {
    /// Effect id (unique in the encounter).
    pub id: u32,
    /// Name (free text).
    pub name: String,
    /// Who applied it (may have left the encounter since).
    pub applier: String,
    /// Who is affected.
    pub target: String,
    /// Duration.
    pub duration: TmdDuration,
    /// Debuffs only: the target's turn that ends it has started.
    pub armed: bool,
}

/// An action retained/prepared by an ability (TMD-AP-14).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdRetained {
    /// The action type held.
    pub action_type: TmdConvertType,
    /// The ability occupying it.
    pub ability: String,
}

/// Uses of one ability this round (TMD-AP-10).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdAbilityUses {
    /// Ability name.
    pub ability: String,
    /// Uses this round.
    pub count: u32,
}

/// Uses of one free action this round (TMD-ACT-3/4: same purpose and source).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdFreeUses {
    /// Purpose.
    pub purpose: String,
    /// Ability source.
    pub source: String,
    /// Uses this round.
    pub count: u32,
}

/// One character in the encounter.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdCharacter {
    /// Unique id.
    pub id: String,
    /// Side.
    pub side: String,
    /// 基础先攻值.
    pub base_initiative: i32,
    /// Last initiative d10 (0 before the first roll, and for a single late joiner this round).
    pub initiative_roll: u32,
    /// initiative_roll + base_initiative at the last sort.
    pub initiative: i32,
    /// Tie-break d10s of the last sort.
    pub tiebreaks: Vec<u32>,
    /// TMD-INI-4: joined after combat began; re-rolled into the order next round.
    pub late_joiner: bool,
    /// TMD-SUR-5: immune to the surprise attack's 措手不及/先制.
    pub immune_to_surprise: bool,
    /// A player character (轮回者): TMD-INT-2's AP order applies to interrupts of its
    /// out-of-turn actions (RULINGS 2026-12-05). Default false (states saved before it).
    #[serde(default)]
    pub is_pc: bool,
    /// Base AP left this turn (TMD-AP-2).
    pub base_ap: u32,
    /// Extra AP (TMD-AP-3); left-over base AP becomes extra AP until the end of the next turn.
    pub extra_ap: u32,
    /// TMD-AP-4: AP usable only out of turn (only converts into reflex actions).
    pub reflex_only_ap: u32,
    /// AP total at this turn's start (the `turn_start` conversion basis).
    pub conversion_basis: u32,
    /// Types picked for conversion this turn (TMD-AP-6).
    pub picked: Vec<TmdConvertType>,
    /// Conversions this turn per type, granted actions included (TMD-AP-7/8/15).
    pub converted: TmdTypeCounts,
    /// Converted, unused actions held (not retained).
    pub held: TmdTypeCounts,
    /// Held reflex actions: for each, the round at whose end it expires (TMD-AP-9).
    pub reflexes: Vec<u32>,
    /// Actions retained by abilities (TMD-AP-14).
    pub retained: Vec<TmdRetained>,
    /// Overdrawn types whose AP is lost at the next turn start (TMD-AP-11/13).
    pub overdrawn: Vec<TmdConvertType>,
    /// Types that cannot be converted this turn because they were overdrawn (TMD-AP-11).
    pub blocked: Vec<TmdConvertType>,
    /// Granted actions gained at the next turn start (TMD-AP-15).
    pub grants: Vec<TmdConvertType>,
    /// Types the character has lost the ability to use (TMD-AP-12).
    pub disabled: Vec<TmdConvertType>,
    /// Ability uses this round (TMD-AP-10; the surprise round counts with round 1).
    pub ability_uses: Vec<TmdAbilityUses>,
    /// Free-action uses this round (TMD-ACT-3; the surprise round counts with round 1).
    pub free_uses: Vec<TmdFreeUses>,
    /// Reflex actions converted out of turn since the character's last turn.
    pub reflex_conversions: u32,
    /// Has finished its turn this round.
    pub turn_done: bool,
    /// Extra AP gained from effects since the character's last turn start (TMD-AP-3;
    /// RULINGS 2026-12-05: what is left of it at turn end carries over like left-over
    /// base AP; TMD-INT-2 leaves it out of the AP compared). Default 0.
    #[serde(default)]
    pub gained_extra_ap: u32,
    /// Out-of-turn-only AP gained from effects since the character's last turn start
    /// (TMD-AP-4; left out of the AP TMD-INT-2 compares). Default 0.
    #[serde(default)]
    pub gained_reflex_only_ap: u32,
    /// Hit points, when the GM tracks them (`hp` of the character's spec): lowered by
    /// `gm_damage`. The seed has no damage rules, so HP and damage are the GM's entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i64>,
    /// Down (the GM's `gm_down`): takes no more turns (TMD-TIME-1: only units that can act
    /// take one) and acts no more. Default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub down: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// How an encounter ended because a side was down (`gm_down`).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdOutcome {
    /// `side_down`: every side but one (or every side) has nobody standing.
    pub reason: String,
    /// The side left standing; null when nobody stands.
    pub side: Option<String>,
    /// The same as `side`.
    pub winner: Option<String>,
    /// The characters down, in joining order.
    pub down: Vec<String>,
    /// TMD-SCN-1: the end of the battle.
    pub rule: String,
    /// The round it ended in.
    pub round: u32,
}

/// A declared delay (TMD-INI-5).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdDelay {
    /// The delaying character.
    pub character: String,
    /// It acts right after this character's turn (wherever that turn falls: a target
    /// may have delayed too, TMD-INI-5).
    pub after: String,
}

/// The surprise round (TMD-SUR).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdSurprise {
    /// The attacker.
    pub attacker: String,
    /// The attacker's one attack has been made (TMD-SUR-3).
    pub attack_used: bool,
}

/// A pending action in an interrupt chain.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdChainEntry {
    /// Entry id within the chain.
    pub id: u32,
    /// Whose action.
    pub character: String,
    /// Free-text label.
    pub label: String,
    /// Inserted with a reflex action (TMD-INT-3).
    pub via_reflex: bool,
    /// The entry it interrupted.
    pub interrupts: Option<u32>,
    /// A reflex interrupt of this entry has resolved; interrupts are asked for again.
    pub reasked: bool,
    /// Nobody interrupted when asked: no more interrupts until it resolves (TMD-INT-3).
    pub closed: bool,
}

/// AP of one character when the chain began (TMD-INT-2: not refreshed by AP gained).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdApSnapshot {
    /// Character.
    pub character: String,
    /// base + extra + reflex-only AP.
    pub ap: u32,
}

/// An interrupt chain being resolved (TMD-INT-1..3).
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdChain {
    /// Pending entries; the first resolves next.
    pub entries: Vec<TmdChainEntry>,
    /// AP when the chain began (a record: TMD-INT-2 compares the current AP less the AP
    /// gained from effects since each unit's last turn start, RULINGS 2026-12-05).
    pub snapshot: Vec<TmdApSnapshot>,
    /// Characters that may not interrupt again in this chain (TMD-INT-2).
    pub locked_out: Vec<String>,
    /// Next entry id.
    pub next_id: u32,
}

/// The whole encounter; pass it back unchanged to the next call.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TmdEncounterState {
    /// Format version (1).
    pub format: u32,
    /// Rule variants in force.
    pub variants: TmdVariants,
    /// Phase.
    pub phase: TmdPhase,
    /// Round number: 0 is the surprise round, combat starts at 1.
    pub round: u32,
    /// Scene number (TMD-SCN).
    pub scene: u32,
    /// Seconds the current scene has lasted (12 per round, TMD-TIME-1; TMD-SCN-3).
    pub scene_seconds: u32,
    /// Characters, in joining order.
    pub characters: Vec<TmdCharacter>,
    /// Initiative order this round, highest first; late joiners at the end (TMD-INI-4).
    pub order: Vec<String>,
    /// Delays declared this round, in declaration order.
    pub delays: Vec<TmdDelay>,
    /// Index in `order` from which delays may still be declared.
    pub delay_cursor: u32,
    /// Whose turn it is.
    pub current: Option<String>,
    /// The current character is still at the start of its turn and may convert AP (TMD-AP-6).
    pub converting: bool,
    /// Turns still to come this round, in order.
    pub queue: Vec<String>,
    /// An initiative increased: re-sort at the end of this round (TMD-INI-3).
    pub resort_pending: bool,
    /// The surprise round, if there is or was one.
    pub surprise: Option<TmdSurprise>,
    /// The interrupt chain being resolved.
    pub chain: Option<TmdChain>,
    /// Live effects.
    pub effects: Vec<TmdEffect>,
    /// Next effect id.
    pub next_effect_id: u32,
    /// Set when the encounter ended because a side was down (`gm_down`); absent while it
    /// goes on and when the GM ended it (`end_encounter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<TmdOutcome>,
}

fn bad(field: impl Into<String>, msg: impl std::fmt::Display) -> Error {
    Error::invalid_data(field, msg)
}

fn text(field: &str, s: &str, max: usize) -> Result<()> {
    if s.chars().count() > max {
        return Err(bad(field, format_args!("at most {max} characters")));
    }
    Ok(())
}

/// TMD-INI-2: `a` goes before `b` (both tied, on different sides) by their re-rolls:
/// at the first re-roll where they differ, the higher goes first.
fn rerolls_before(a: &[u32], b: &[u32]) -> bool {
    a.iter().zip(b).find(|(x, y)| x != y).is_some_and(|(x, y)| x > y)
}

fn type_set(field: &str, v: &[TmdConvertType]) -> Result<()> {
    for (i, t) in v.iter().enumerate() {
        if v.iter().take(i).any(|o| o == t) {
            return Err(bad(format!("{field}[{i}]"), "duplicate type"));
        }
    }
    Ok(())
}

fn counts(field: &str, c: &TmdTypeCounts) -> Result<()> {
    for t in TmdConvertType::ALL {
        if c.get(t) > MAX_HELD {
            return Err(bad(field, format_args!("counts are at most {MAX_HELD}")));
        }
    }
    Ok(())
}

impl TmdEncounterState {
    /// The character with `id`.
    pub fn ch(&self, id: &str) -> Option<&TmdCharacter> {
        self.characters.iter().find(|c| c.id == id)
    }

    /// Index of the character with `id`.
    pub fn idx(&self, id: &str) -> Option<usize> {
        self.characters.iter().position(|c| c.id == id)
    }

    /// Position in the initiative order.
    pub fn pos(&self, id: &str) -> Option<usize> {
        self.order.iter().position(|c| c == id)
    }

    /// Per-character records in the whole state (bounded by [`MAX_TOTAL_RECORDS`]).
    pub fn records(&self) -> usize {
        self.characters
            .iter()
            .map(|c| {
                c.reflexes.len()
                    + c.retained.len()
                    + c.ability_uses.len()
                    + c.free_uses.len()
                    + c.grants.len()
            })
            .sum()
    }

    fn has(&self, id: &str) -> bool {
        self.idx(id).is_some()
    }

    /// Validate an untrusted state (every defect is `invalid_data` naming the field).
    pub fn validate(&self) -> Result<()> {
        let f = "state";
        if self.format != STATE_FORMAT {
            return Err(bad("state.format", format_args!("must be {STATE_FORMAT}")));
        }
        if self.characters.is_empty() || self.characters.len() > MAX_COMBATANTS {
            return Err(bad("state.characters", format_args!("must hold 1..={MAX_COMBATANTS} characters")));
        }
        if self.round > MAX_ROUND || self.scene > MAX_ROUND || self.scene_seconds >= SCENE_SECONDS_LIMIT {
            return Err(bad(f, "round, scene or scene_seconds out of range"));
        }
        // Nobody rolls initiative before combat formally begins (TMD-INI-1, TMD-SUR).
        let rolled = self.round > 0;
        for (i, c) in self.characters.iter().enumerate() {
            let p = format!("state.characters[{i}]");
            Ids::DATA.name(&format!("{p}.id"), &c.id)?;
            Ids::DATA.name(&format!("{p}.side"), &c.side)?;
            if c.hp.is_some_and(|h| !(-MAX_HP..=MAX_HP).contains(&h)) {
                return Err(bad(format!("{p}.hp"), format_args!("must be -{MAX_HP}..={MAX_HP}")));
            }
            if c.down && (self.current.as_deref() == Some(c.id.as_str()) || self.queue.contains(&c.id)) {
                return Err(bad(format!("{p}.down"), "a character down takes no turn"));
            }
            if c.base_initiative.unsigned_abs() > MAX_BASE_INITIATIVE.unsigned_abs()
                || c.initiative.unsigned_abs() > 2 * MAX_BASE_INITIATIVE.unsigned_abs()
            {
                return Err(bad(format!("{p}.base_initiative"), "out of range"));
            }
            if c.initiative_roll > 10
                || c.tiebreaks.len() > 200
                || c.tiebreaks.iter().any(|t| !(1..=10).contains(t))
                || (rolled && c.initiative_roll == 0 && !c.late_joiner)
                || (!rolled && c.initiative_roll != 0)
            {
                return Err(bad(
                    format!("{p}.initiative_roll"),
                    "d10 faces are 1..=10 once combat has begun (0 for a single late joiner, who rolls nothing), 0 before",
                ));
            }
            // TMD-INI-1: initiative = the d10 + the base initiative of the last sort. The base
            // may have changed since: a decrease keeps the order, an increase re-sorts at the
            // round's end (TMD-INI-3); never an increase without that re-sort pending.
            let at_sort = i64::from(c.initiative) - i64::from(c.initiative_roll);
            let derived = if rolled {
                at_sort.unsigned_abs() <= u64::from(MAX_BASE_INITIATIVE.unsigned_abs())
                    && (i64::from(c.base_initiative) <= at_sort || self.resort_pending)
            } else {
                c.initiative == 0 && c.tiebreaks.is_empty()
            };
            if !derived {
                return Err(bad(
                    format!("{p}.initiative"),
                    "must be initiative_roll + base_initiative (TMD-INI-1; an increase since the last sort waits for resort_pending, TMD-INI-3)",
                ));
            }
            let aps = [
                ("base_ap", c.base_ap),
                ("extra_ap", c.extra_ap),
                ("reflex_only_ap", c.reflex_only_ap),
                ("conversion_basis", c.conversion_basis),
            ];
            for (name, v) in aps {
                if v > MAX_AP {
                    return Err(bad(format!("{p}.{name}"), format_args!("AP is at most {MAX_AP}")));
                }
            }
            // TMD-AP-2: base AP is the 14 a turn gives, less what was spent (gained AP is extra).
            if c.base_ap > BASE_AP_PER_TURN {
                return Err(bad(
                    format!("{p}.base_ap"),
                    format_args!("base AP is at most {BASE_AP_PER_TURN} (TMD-AP-2)"),
                ));
            }
            if c.reflex_conversions > MAX_AP {
                return Err(bad(format!("{p}.reflex_conversions"), "out of range"));
            }
            counts(&format!("{p}.converted"), &c.converted)?;
            counts(&format!("{p}.held"), &c.held)?;
            // TMD-AP-9: a reflex action expires at the end of this round or the next.
            if c.reflexes.len() > MAX_HELD as usize
                || c.reflexes.iter().any(|r| !(self.round..=self.round.saturating_add(1)).contains(r))
            {
                return Err(bad(
                    format!("{p}.reflexes"),
                    "at most 10000, each expiring at the end of this round or the next (TMD-AP-9)",
                ));
            }
            type_set(&format!("{p}.picked"), &c.picked)?;
            type_set(&format!("{p}.overdrawn"), &c.overdrawn)?;
            type_set(&format!("{p}.blocked"), &c.blocked)?;
            type_set(&format!("{p}.disabled"), &c.disabled)?;
            if c.grants.len() > MAX_RECORDS
                || c.retained.len() > MAX_RECORDS
                || c.ability_uses.len() > MAX_RECORDS
                || c.free_uses.len() > MAX_RECORDS
            {
                return Err(bad(p, format_args!("lists hold at most {MAX_RECORDS} records")));
            }
            for (k, r) in c.retained.iter().enumerate() {
                text(&format!("{p}.retained[{k}].ability"), &r.ability, MAX_TEXT_CHARS)?;
            }
            for (k, u) in c.ability_uses.iter().enumerate() {
                text(&format!("{p}.ability_uses[{k}].ability"), &u.ability, MAX_TEXT_CHARS)?;
                // TMD-AP-10: one count per ability.
                if c.ability_uses[..k].iter().any(|o| o.ability == u.ability) {
                    return Err(bad(format!("{p}.ability_uses[{k}]"), "the ability is listed twice"));
                }
            }
            for (k, u) in c.free_uses.iter().enumerate() {
                text(&format!("{p}.free_uses[{k}].purpose"), &u.purpose, MAX_TEXT_CHARS)?;
                text(&format!("{p}.free_uses[{k}].source"), &u.source, MAX_TEXT_CHARS)?;
                // TMD-ACT-4: one count per free action (same purpose and source).
                if c.free_uses[..k].iter().any(|o| o.purpose == u.purpose && o.source == u.source) {
                    return Err(bad(
                        format!("{p}.free_uses[{k}]"),
                        "the free action is listed twice (TMD-ACT-4)",
                    ));
                }
            }
        }
        Ids::DATA
            .unique(self.characters.iter().map(|c| c.id.as_str()), |i| format!("state.characters[{i}].id"))?;
        if self.records() > MAX_TOTAL_RECORDS {
            return Err(bad("state.characters", format_args!("at most {MAX_TOTAL_RECORDS} records in all")));
        }
        // The order: empty during the surprise round (nobody has rolled yet), and after a
        // battle that ended in it; else every character once.
        if self.phase == TmdPhase::Surprise {
            if !self.order.is_empty() {
                return Err(bad("state.order", "must be empty during the surprise round"));
            }
        } else if self.phase == TmdPhase::Ended && self.round == 0 {
            if !self.order.is_empty() {
                return Err(bad(
                    "state.order",
                    "must be empty after a battle that ended in the surprise round",
                ));
            }
        } else if self.order.len() != self.characters.len()
            || self.characters.iter().any(|c| self.order.iter().filter(|o| **o == c.id).count() != 1)
        {
            return Err(bad("state.order", "must list every character exactly once"));
        } else {
            self.validate_order()?;
        }
        if self.delay_cursor as usize > self.order.len() || self.delays.len() > self.order.len() {
            return Err(bad("state.delay_cursor", "out of range"));
        }
        for (i, d) in self.delays.iter().enumerate() {
            let p = format!("state.delays[{i}]");
            let (Some(a), Some(b)) = (self.pos(&d.character), self.pos(&d.after)) else {
                return Err(bad(p, "names a character not in the order"));
            };
            // Declared in list order: a delay may target a character that delays later
            // (a chain), never one that had already delayed (TMD-INI-5.4).
            if a >= b
                || self.delays.iter().filter(|o| o.after == d.after || o.character == d.character).count()
                    != 1
                || self.delays.iter().take(i).any(|o| o.character == d.after)
            {
                return Err(bad(p, "breaks the delay rules (TMD-INI-5)"));
            }
        }
        for (i, q) in self.queue.iter().enumerate() {
            if !self.has(q) || self.queue.iter().take(i).any(|o| o == q) || self.current.as_deref() == Some(q)
            {
                return Err(bad(format!("state.queue[{i}]"), "unknown, repeated or current character"));
            }
        }
        if let Some(x) = &self.surprise {
            let f = "state.surprise.attacker";
            Ids::DATA.name(f, &x.attacker)?;
            // Until combat begins the attacker can't leave (TMD-SUR-3); later it may have left.
            if self.round == 0 {
                Ids::DATA.resolves(f, &x.attacker, self.characters.iter().map(|c| c.id.as_str()))?;
            } else if !x.attack_used {
                return Err(bad(
                    "state.surprise.attack_used",
                    "combat begins after the surprise attack (TMD-SUR-1)",
                ));
            }
        }
        match (&self.current, self.phase) {
            (Some(c), TmdPhase::Turns) if self.has(c) => {}
            (Some(c), TmdPhase::Surprise)
                if self.has(c) && self.surprise.as_ref().is_some_and(|s| &s.attacker == c) => {}
            (None, TmdPhase::Delays | TmdPhase::Ended) => {}
            _ => return Err(bad("state.current", "does not fit the phase")),
        }
        if self.phase != TmdPhase::Turns && (self.converting || !self.queue.is_empty()) {
            return Err(bad("state.queue", "only the turns phase has a queue or a converting turn"));
        }
        if self.phase == TmdPhase::Surprise && (self.round != 0 || self.surprise.is_none()) {
            return Err(bad("state.round", "the surprise round is round 0"));
        }
        if self.phase != TmdPhase::Surprise && self.phase != TmdPhase::Ended && self.round == 0 {
            return Err(bad("state.round", "combat rounds start at 1"));
        }
        if let Some(ch) = &self.chain {
            if ch.entries.is_empty() || ch.entries.len() > MAX_CHAIN || ch.snapshot.len() > MAX_COMBATANTS {
                return Err(bad("state.chain.entries", format_args!("must hold 1..={MAX_CHAIN} entries")));
            }
            for (i, e) in ch.entries.iter().enumerate() {
                let p = format!("state.chain.entries[{i}]");
                if !self.has(&e.character)
                    || e.id >= ch.next_id
                    || ch.entries.iter().take(i).any(|o| o.id == e.id)
                {
                    return Err(bad(p, "unknown character or bad id"));
                }
                text(&format!("{p}.label"), &e.label, MAX_TEXT_CHARS)?;
            }
            if ch.snapshot.iter().any(|s| !self.has(&s.character) || s.ap > 3 * MAX_AP)
                || ch.locked_out.iter().any(|c| !self.has(c))
                || ch.locked_out.len() > MAX_COMBATANTS
            {
                return Err(bad("state.chain", "unknown character or AP out of range"));
            }
        }
        if self.effects.len() > MAX_EFFECTS {
            return Err(bad("state.effects", format_args!("at most {MAX_EFFECTS} effects")));
        }
        for (i, e) in self.effects.iter().enumerate() {
            let p = format!("state.effects[{i}]");
            // The applier may have left the encounter since (its debuffs and scene effects remain).
            if !self.has(&e.target) {
                return Err(bad(p, "names an unknown target"));
            }
            Ids::DATA.name(&format!("{p}.applier"), &e.applier)?;
            if e.id >= self.next_effect_id || self.effects.iter().take(i).any(|o| o.id == e.id) {
                return Err(bad(format!("{p}.id"), "duplicate id or not below next_effect_id"));
            }
            text(&format!("{p}.name"), &e.name, MAX_TEXT_CHARS)?;
        }
        if self.next_effect_id > MAX_ROUND.saturating_mul(10) {
            return Err(bad("state.next_effect_id", "out of range"));
        }
        self.check_invariants()
    }

    /// The rules' own invariants: a state that no legal play reaches (more conversions
    /// than the turn's AP allows, base AP outside a turn, turns ended out of order) is
    /// `invalid_data` naming the field and the rule.
    fn check_invariants(&self) -> Result<()> {
        let live = self.phase != TmdPhase::Ended;
        for (i, c) in self.characters.iter().enumerate() {
            let p = format!("state.characters[{i}]");
            // TMD-AP-7 / TMD-AP-8: conversions of a type this turn, granted actions included,
            // are at most 1 + floor(the turn's AP ÷ the type's step).
            for t in TmdConvertType::ALL {
                let (n, most) = (c.converted.get(t), t.limit(c.conversion_basis));
                if n > most {
                    return Err(Error::invariant(
                        format!("{p}.converted.{}", format!("{t:?}").to_lowercase()),
                        "TMD-AP-7",
                        format_args!(
                            "at most {most} conversions with {} AP at the turn's start (TMD-AP-8), not {n}",
                            c.conversion_basis
                        ),
                    ));
                }
            }
            // TMD-AP-11: an overdraw owes at most the next turn's base AP.
            let owed: u32 = c.overdrawn.iter().map(|t| t.cost()).sum();
            if owed > BASE_AP_PER_TURN {
                return Err(Error::invariant(
                    format!("{p}.overdrawn"),
                    "TMD-AP-11",
                    format_args!("overdrawn actions owe at most {BASE_AP_PER_TURN} AP, not {owed}"),
                ));
            }
            // TMD-AP-2 / TMD-AP-3: base AP is gained at one's own turn start and left-over base
            // AP becomes extra AP at its end, so only the character whose turn it is holds any.
            let current = self.current.as_deref() == Some(c.id.as_str());
            if live && c.base_ap > 0 && !current {
                return Err(Error::invariant(
                    format!("{p}.base_ap"),
                    "TMD-AP-2",
                    "only the character whose turn it is holds base AP (left-over base AP becomes extra AP, TMD-AP-3)",
                ));
            }
            // TMD-TIME-2: the acting character and those still to come have not ended their turn.
            if self.phase == TmdPhase::Turns && c.turn_done && (current || self.queue.contains(&c.id)) {
                return Err(Error::invariant(
                    format!("{p}.turn_done"),
                    "TMD-TIME-2",
                    "the character whose turn it is, or whose turn is still to come, has not ended it",
                ));
            }
        }
        Ok(())
    }

    /// TMD-INI-1/2/4: the order (listing every character once) is sorted as the rules sort
    /// it: highest initiative first; a tie across sides by the re-rolls (TMD-INI-2; a tie
    /// within one side in any order, the side's choice); late joiners after everyone else,
    /// in the order they joined (each batch sorted among itself, so not checked here).
    fn validate_order(&self) -> Result<()> {
        let chars: Vec<&TmdCharacter> = self.order.iter().filter_map(|id| self.ch(id)).collect();
        let settled = chars.iter().take_while(|c| !c.late_joiner).count();
        for (j, c) in chars.iter().enumerate() {
            let f = || format!("state.order[{j}]");
            if j > settled && !c.late_joiner {
                return Err(bad(f(), "late joiners come after everyone else (TMD-INI-4)"));
            }
            if j == 0 || j >= settled {
                continue;
            }
            if chars[j - 1].initiative < c.initiative {
                return Err(bad(f(), "not sorted by initiative, highest first (TMD-INI-1)"));
            }
            for a in chars[..j].iter().filter(|a| a.initiative == c.initiative && a.side != c.side) {
                if !rerolls_before(&a.tiebreaks, &c.tiebreaks) {
                    return Err(bad(
                        f(),
                        "a tie across sides goes by the re-rolls, higher first (TMD-INI-2)",
                    ));
                }
            }
        }
        Ok(())
    }
}
