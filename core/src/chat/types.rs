//! Argument and result types of `command.run` and `command.help`.

use crate::dice::Roll;
use crate::json::{FromJson, ToJson};
use crate::kernel::variants::WtDamageTableThreshold;
use serde_json::Value;

/// Which ruleset's commands to recognise (plain dice are always recognised).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CmdSystem {
    /// World Trigger fan TRPG: `WT`, `WTP`, `WD`, `WDT`.
    WorldTrigger,
    /// Call of Cthulhu 7th edition (BCDice `Cthulhu7th`): `CC`, `CBR`.
    Coc7,
    /// Call of Cthulhu 6th edition (BCDice `Cthulhu`): `CC`, `CCB`, `CBR`, `CBRB`, `RES`, `RESB`.
    Coc6,
    /// TMD：新秩序000: `TI`, `TAP`.
    Tmd,
    /// FAP/MAP: `EV`, `JE`.
    FapMap,
}

impl CmdSystem {
    /// The snake_case name (as in JSON).
    pub fn as_str(self) -> &'static str {
        match self {
            CmdSystem::WorldTrigger => "world_trigger",
            CmdSystem::Coc7 => "coc7",
            CmdSystem::Coc6 => "coc6",
            CmdSystem::Tmd => "tmd",
            CmdSystem::FapMap => "fap_map",
        }
    }

    /// Whether this build has the system's ruleset (the cargo features of `core/Cargo.toml`).
    pub fn in_build(self) -> bool {
        (crate::registered::CHAT.in_build)(self)
    }
}

/// Reply language.
///
/// JSON takes the canonical names `ja`, `zh-Hans`, `zh-Hant`, `en` and `ko` (what
/// results and schemas use), and also the locale tags that chat platforms hand a bot
/// (Discord's `ja`, `zh-CN`, `zh-TW`, `en-US`, `ko`; `ja_JP` and `zh_CN` as POSIX
/// locales spell them), read case-insensitively: `ja-*` is Japanese, `en-*` English,
/// `ko-*` Korean, and `zh-*` is Traditional Chinese when it names the `Hant` script or
/// the region TW, HK or MO, Simplified otherwise. Any other language is
/// `invalid_argument`.
///
/// Korean covers the Call of Cthulhu checks (BCDice's `Cthulhu:Korean` and
/// `Cthulhu7th:Korean` wording); every other reply is in English.
///
/// ```
/// use gunbai::command::CmdLang;
/// assert_eq!(CmdLang::from_tag("zh-TW"), Some(CmdLang::ZhHant));
/// assert_eq!(CmdLang::from_tag("zh_CN"), Some(CmdLang::ZhHans));
/// assert_eq!(CmdLang::from_tag("ja-JP"), Some(CmdLang::Ja));
/// assert_eq!(CmdLang::from_tag("ko-KR"), Some(CmdLang::Ko));
/// assert_eq!(CmdLang::from_tag("fr"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, ToJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum CmdLang {
    /// Japanese (default). CoC replies match BCDice character for character.
    #[default]
    #[serde(rename = "ja")]
    Ja,
    /// Simplified Chinese.
    #[serde(rename = "zh-Hans")]
    ZhHans,
    /// Traditional Chinese.
    #[serde(rename = "zh-Hant")]
    ZhHant,
    /// English.
    #[serde(rename = "en")]
    En,
    /// Korean: the CoC checks as BCDice's Korean systems word them; other replies in English.
    #[serde(rename = "ko")]
    Ko,
}

impl CmdLang {
    /// The language a locale tag names (see the type's documentation), or `None`.
    pub fn from_tag(tag: &str) -> Option<CmdLang> {
        let mut parts = tag.trim().split(['-', '_']);
        let first = parts.next()?;
        let has = |t: &str| tag.trim().split(['-', '_']).skip(1).any(|p| p.eq_ignore_ascii_case(t));
        let lang = if first.eq_ignore_ascii_case("ja") {
            CmdLang::Ja
        } else if first.eq_ignore_ascii_case("en") {
            CmdLang::En
        } else if first.eq_ignore_ascii_case("ko") {
            CmdLang::Ko
        } else if first.eq_ignore_ascii_case("zh") {
            // The script decides (zh-Hans-HK is Simplified); else the region.
            if has("hant") || (!has("hans") && (has("tw") || has("hk") || has("mo"))) {
                CmdLang::ZhHant
            } else {
                CmdLang::ZhHans
            }
        } else {
            return None;
        };
        // Every subtag must be 1-8 ASCII letters or digits (BCP 47's shape).
        let well_formed = tag
            .trim()
            .split(['-', '_'])
            .all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()));
        well_formed.then_some(lang)
    }

    fn unknown(tag: &str) -> String {
        // Quoted short: the tag is untrusted input.
        let tag = crate::engine::ids::quote(tag);
        format!(
            "unknown language {tag}: expected ja, zh-Hans, zh-Hant, en or ko, or a locale tag such as ja-JP, zh-CN, zh-TW, en-US or ko-KR"
        )
    }
}

impl FromJson for CmdLang {
    fn from_json(v: &Value, at: &crate::json::At<'_>) -> crate::json::JsonResult<Self> {
        let Value::String(tag) = v else {
            return Err(crate::json::invalid_type(v, at, "a language tag"));
        };
        CmdLang::from_tag(tag).ok_or_else(|| crate::json::error(at, CmdLang::unknown(tag)))
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for CmdLang {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let tag = <String as serde::Deserialize>::deserialize(d)?;
        CmdLang::from_tag(&tag).ok_or_else(|| serde::de::Error::custom(CmdLang::unknown(&tag)))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for CmdLang {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CmdLang".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "Reply language: `ja`, `zh-Hans`, `zh-Hant`, `en` or `ko` (CoC checks; other replies in English), or a locale tag (`ja-JP`, `zh-CN`, `zh-TW`, `en-US`, `zh_CN`, ...); results use the five canonical names.",
            "examples": ["ja", "zh-Hans", "zh-Hant", "en", "ko", "zh-CN", "zh-TW", "en-US"]
        })
    }
}

/// Arguments of `command.run`.
///
/// `rolls`: Scripted faces, consumed in the order the command rolls them, as BCDice
/// does: 7th-edition `CC<=s` / `CC(n)` the tens dice, then the ones die (in Korean
/// the ones die first, as BCDice's Korean system); bare `CC`,
/// `CBR`, `RES` and the 6th-edition checks one d100 face; plain dice left to right;
/// a repeated command (`x3 …`) run after run.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, crate::json::DeserializeFromJson))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CmdRunArgs {
    /// One chat line. Text after the first space (ASCII or full-width) is a comment.
    pub text: String,
    /// The ruleset whose commands are recognised; null (default) for plain dice only.
    #[serde(default)]
    pub system: Option<CmdSystem>,
    /// Reply language: `ja` (default), `zh-Hans`, `zh-Hant`, `en` or `ko`, or a
    /// locale tag such as `zh-CN`, `zh-TW` or `en-US` (see [`CmdLang`]).
    #[serde(default)]
    pub lang: CmdLang,
    /// Rule variants (RULINGS.md); defaults as the rulings say.
    #[serde(default)]
    pub variants: CmdVariants,
    /// `seed` or scripted `rolls`.
    #[serde(flatten)]
    pub source: crate::dice::DiceArgs,
    /// The player's character card: skill name → value (at most 500 entries,
    /// names of 1–64 characters, values 0–1000). `.ra 侦查` / `.ra 侦查+10` take the
    /// value from it, through CoC 7th-edition synonyms (侦查 / 偵查 / 目星 / Spot
    /// Hidden …); without it (or without the skill) the reply names the missing skill.
    #[serde(default)]
    pub card: Option<std::collections::BTreeMap<String, i64>>,
    /// Who typed the line (a player or character name or id, at most 64 characters),
    /// echoed in `record.actor` for the session log; nothing else reads it.
    #[serde(default)]
    pub actor: Option<String>,
    /// The skill pack whose base values stand in when `card` lacks a skill (`.ra 聆听`
    /// on a card without 聆听: 20 in 7th edition; 闪避 = DEX/2 from the card's DEX).
    /// Null (default): the built-in pack, CoC 7th and 6th base values labelled
    /// illustrative (`core/data/command/coc_skills.json`). Only used with a `card`.
    #[serde(default)]
    pub skill_pack: Option<super::card::CmdSkillPack>,
    /// Texts of the rulebook tables (`BMR`, `PH`, `.ti` …): null (default) names the
    /// entry rolled by its number; the illustrative sample is
    /// `core/data/command/coc7_tables.json` (not compiled in), a group may pass its own.
    #[serde(default)]
    pub table_pack: Option<super::tables::CmdTablePack>,
    /// The channel's initiative list (`.ri`, `.init`): the entries as the last `.ri`
    /// returned them in `result.entries`, for the host to store per channel.
    #[serde(default)]
    pub init: Option<Vec<super::init::CmdInitEntry>>,
}

/// Rule variants that change what a command computes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CmdVariants {
    /// `coc7_rule` 0–5 (RULINGS coc7_house Checks; the `setcoc` numbering) for
    /// 7th-edition `CC` and `CBR`. 0 (default) is the rulebook and gives
    /// BCDice's reply; 1–5 are `coc7.check`'s house rules.
    #[serde(default)]
    #[schemars(range(min = 0, max = 5))]
    pub coc7_rule: i64,
    /// `damage_table_threshold` (RULINGS world_trigger Damage tables) for `WDT`:
    /// `at_least_10` (default) or `more_than_10`.
    #[serde(default)]
    pub damage_table_threshold: WtDamageTableThreshold,
}

/// What kind of command was run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CmdKind {
    /// Plain dice: a sum of `NdS`, `D66` and constants, optionally compared with a target.
    Dice,
    /// `x3 <command>`: a repeated command (see `repeats`).
    Repeat,
    /// BCDice `C(1+2)`: integer calculation.
    Calc,
    /// BCDice `2B6>=4`: pooled dice, faces listed, successes counted.
    Pool,
    /// BCDice `20TY6` / `20TZ6`: a tally of the faces.
    Tally,
    /// BCDice `choice[a,b,c]`: a random pick.
    Choice,
    /// CoC 7th `CC`: skill roll with bonus/penalty dice and difficulty.
    Coc7Check,
    /// CoC 7th `CBR(a,b)`: combined roll.
    Coc7Combined,
    /// CoC 7th `FAR(…)`: full-auto fire (BCDice's).
    Coc7FullAuto,
    /// CoC 7th `BMR`, `BMS`, `PH`, `MA`, `FCL`, `FCM` (and `.ti`, `.li`): a rulebook
    /// table roll (`result`: table, die, index, duration, unit; the entry's text from
    /// `table_pack`).
    Coc7Table,
    /// `.ri` / `.init`: the initiative list (`result`: action, rule, entries, order, ties).
    Initiative,
    /// CoC 7th `.sc s/f`: sanity roll (`result`: san, roll, level, loss, san_after, card).
    Coc7Sanity,
    /// CoC 7th `.coc` / `.coc7`: characteristics sets (`result.sets`).
    Coc7Characteristics,
    /// CoC 6th `.coc6` (also `.coc` for `coc6`): characteristics sets (`result.sets`).
    Coc6Characteristics,
    /// CoC 7th `.en skill`: skill development (`result`: before, roll, improved, gain, after, card).
    Coc7Development,
    /// CoC 7th `.setcoc n`: the house rule (`result.variants`: the variants to store).
    Coc7HouseRule,
    /// `.st …`: a character-card update (`result`: `command.parse_st`'s result).
    CardUpdate,
    /// CoC 6th `CC` / `CCB`: d100 check.
    Coc6Check,
    /// CoC 6th `CBR` / `CBRB`: combined roll.
    Coc6Combined,
    /// CoC 6th `RES` / `RESB`: resistance table roll.
    Coc6Resistance,
    /// World Trigger `WT`: action check.
    WtCheck,
    /// World Trigger `WTP`: exact success chance.
    WtOdds,
    /// World Trigger `WD`: damage roll.
    WtDamage,
    /// World Trigger `WDT`: damage-table roll.
    WtDamageTable,
    /// TMD `TI`: initiative.
    TmdInitiative,
    /// TMD `TAP`: conversion limits.
    TmdConversionLimits,
    /// FAP/MAP `EV`: evasion check.
    FmEvasion,
    /// FAP/MAP `JE`: jump-evasion damage.
    FmJumpEvasion,
}

/// Where and why a command that is clearly meant as one could not be read.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdParseError {
    /// Stable reason code (`expected_close_paren`, `expected_number`, `unexpected`, …).
    pub code: String,
    /// English explanation.
    pub message: String,
    /// 1-based character position in `text` where reading failed.
    pub position: usize,
}

/// Why a command that was read could not be run: a value in the text outside its
/// range (`CC(11)<=50`), over a limit (`1001D6`), or against the rules (`WD6B11T12`,
/// a burst above the Trion stat). The player's mistake, so it is a reply (`text` says
/// it in the requested language), not an error of the call.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdRefusal {
    /// The error code the same values give the underlying operation
    /// (`out_of_range`, `limit_exceeded`, `illegal_action`, `invalid_argument`).
    pub code: String,
    /// English explanation. The `text` reply gives the detail in its language for
    /// the command's own limits (dice count and sides, bonus dice, numbers,
    /// nesting); a range checked by a ruleset operation (a Trion Burst, a pool size)
    /// keeps this English detail.
    pub message: String,
    /// The rule ID broken, when there is one (`WT-TD-5`).
    pub rule: Option<String>,
}

/// One run of a repeated command.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdRepeatItem {
    /// The reply of this run.
    pub text: String,
    /// Success, when the command has one.
    pub success: Option<bool>,
    /// A critical (CoC クリティカル/決定的成功, World Trigger 大成功).
    pub critical: bool,
    /// A fumble.
    pub fumble: bool,
    /// The run's total, when it has one.
    pub total: Option<i64>,
    /// The dice this run rolled, in consumption order (the top-level `rolls` has
    /// every run's, one after another).
    pub rolls: Vec<Roll>,
    /// The structured result of the underlying operation, if any.
    pub result: Option<crate::json::RawJson>,
}

/// Result of `command.run`.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdRunResult {
    /// False for ordinary chat (no reply is due), also for a malformed BCDice line
    /// that BCDice leaves unanswered (`2D6>`, `CBR(xxx,xxx)`); true for a command,
    /// also a malformed one (then `parse_error` says where).
    pub matched: bool,
    /// The command as read (upper case, without the `S` prefix and the comment); at most
    /// 1,000 characters (a longer one is cut and ends in `…`).
    pub command: Option<String>,
    /// What kind of command it was (null when not matched or malformed).
    pub kind: Option<CmdKind>,
    /// The comment: the text after the first space, if any; at most 1,000 characters (a
    /// longer one is cut and ends in `…`).
    pub comment: Option<String>,
    /// The reply (empty when not matched). Several lines for a repeated command.
    pub text: String,
    /// True for a secret command (`S` prefix, `.rh`, `.rah`): `text` is then only the
    /// public notice that a secret roll happened, and `whisper` holds the reply to send
    /// privately (to the roller or the GM).
    pub secret: bool,
    /// For a secret command, the full reply to whisper; null otherwise.
    pub whisper: Option<String>,
    /// Success, when the command has one (null otherwise).
    pub success: Option<bool>,
    /// A critical (CoC クリティカル/決定的成功, World Trigger 大成功 pairs of 1s).
    pub critical: bool,
    /// A fumble (CoC ファンブル/致命的失敗).
    pub fumble: bool,
    /// The total (sum, kept d100, achievement, damage …), when there is one.
    pub total: Option<i64>,
    /// Every die rolled, in consumption order (none when the command is `refused`).
    pub rolls: Vec<Roll>,
    /// Set when the text is clearly meant as a command but cannot be read.
    pub parse_error: Option<CmdParseError>,
    /// Set when the command was read but its values cannot be run (see [`CmdRefusal`]).
    pub refused: Option<CmdRefusal>,
    /// The structured result of the underlying operation (e.g. `coc7.check`'s
    /// outcome, `world_trigger.check`'s result), if any.
    pub result: Option<crate::json::RawJson>,
    /// For a repeated command (`x3 2D6`): each run, in order.
    pub repeats: Vec<CmdRepeatItem>,
    /// The session-log record of this line (null when not matched): one documented
    /// shape for every command (see [`CmdRecord`]).
    pub record: Option<CmdRecord>,
}

/// The session-log record of one command (`command.run`'s `record`; written one per
/// line as JSON Lines by `gunbai.logs`). Every command fills the same fields; what
/// does not apply is null or empty.
#[derive(Debug, Clone, PartialEq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdRecord {
    /// The record shape's version: 1.
    pub version: i64,
    /// The command as read (as `command`; for a dot command its BCDice form or its own name).
    pub command: Option<String>,
    /// What kind of command it was (null for a parse error or a refusal).
    pub kind: Option<CmdKind>,
    /// The system the line was read for (null: plain dice only).
    pub system: Option<CmdSystem>,
    /// The RULES.md rule ID the command applies, when one does (initiative:
    /// `C7H-INIT-1`, `COCAP-ORD-1`); null for base-game checks that have none.
    pub rule: Option<String>,
    /// Who typed it (the call's `actor`), if given.
    pub actor: Option<String>,
    /// The skills, characteristics or card entries the command is about, in order.
    pub items: Vec<CmdRecordItem>,
    /// Every die rolled, in consumption order (as `rolls`).
    pub dice: Vec<crate::dice::Roll>,
    /// The total, when there is one.
    pub total: Option<i64>,
    /// The result level: `critical`, `extreme`, `hard`, `regular`, `special`,
    /// `success`, `failure` or `fumble`; null when the command has none.
    pub level: Option<String>,
    /// Success, when the command has one.
    pub success: Option<bool>,
    /// Whether the command was secret (the log keeps it; a bot shows it to the GM only).
    pub secret: bool,
    /// The full reply (for a secret command, the whispered text).
    pub text: String,
    /// `.sc`: SAN before the roll.
    pub san_before: Option<i64>,
    /// `.sc`: SAN after the loss.
    pub san_after: Option<i64>,
    /// `parse_error` or `refused`'s code when the line was not run.
    pub error: Option<String>,
}

/// One item of a [`CmdRecord`].
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdRecordItem {
    /// The name as typed or on the card (null when only a value was typed).
    pub name: Option<String>,
    /// The value checked against (the skill value, after modifiers), if any.
    pub value: Option<i64>,
    /// The value before the command changed it (`.st`, `.en`, `.sc`), if it did.
    pub before: Option<i64>,
    /// The value after the command changed it, if it did.
    pub after: Option<i64>,
}

impl CmdRunResult {
    pub(crate) fn unmatched() -> CmdRunResult {
        CmdRunResult {
            matched: false,
            command: None,
            kind: None,
            comment: None,
            text: String::new(),
            secret: false,
            success: None,
            critical: false,
            fumble: false,
            total: None,
            rolls: Vec::new(),
            parse_error: None,
            refused: None,
            result: None,
            repeats: Vec::new(),
            whisper: None,
            record: None,
        }
    }
}

/// Arguments of `command.help`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CmdHelpArgs {
    /// The ruleset; null (default) for plain dice only.
    #[serde(default)]
    pub system: Option<CmdSystem>,
    /// Language: `ja` (default), `zh-Hans`, `zh-Hant`, `en` or `ko` (`ko`: in
    /// English), or a locale tag such as `zh-CN`, `zh-TW` or `en-US` (see [`CmdLang`]).
    #[serde(default)]
    pub lang: CmdLang,
}

/// One command in the reference.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdHelpEntry {
    /// The syntax (ASCII; lower-case letters are placeholders).
    pub syntax: String,
    /// What it does, in the requested language.
    pub summary: String,
    /// Examples that `command.run` accepts.
    pub examples: Vec<String>,
}

/// Result of `command.help`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CmdHelpResult {
    /// The reference as one text (what a bot prints for `help`).
    pub text: String,
    /// The same, one entry per command.
    pub commands: Vec<CmdHelpEntry>,
}
