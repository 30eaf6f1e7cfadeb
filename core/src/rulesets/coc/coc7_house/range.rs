//! `coc7_house.parse_range` — the "Range/Target" notation (C7H-RNG-1 … C7H-RNG-4).
//!
//! ```text
//! text   := range ('/' target)? | target       ; '/' or '／'; blanks ignored
//! range  := '自身' | '近接' (N 'm')? | '射撃' N 'm' | '起点' N 'm' | '直線' N 'm' | '視界' | '無限'
//! target := '自身' | N '体' | N '連' | N 'm' '範囲' select? | 'すべて' select?
//! select := '(選択)' | '（選択）'
//! N      := 1–6 digits (ASCII or full-width), ≥ 1;  'm' or 'ｍ'
//! ```
//! Text without a slash is read as a range if it is one (`近接2m`, `自身`),
//! else as a target (`2連`). Anything else is `parse_error` naming the
//! 1-based character where parsing failed.
//!
//! With `distance` (metres from the user to the target) the result also says
//! whether the target is within reach (RULINGS 2026-12-05, C7H-RNG-2):
//! * an area (`〇m範囲`) whose centre is placed at range (`射撃`, `起点`) reaches
//!   range + radius; centred on the user (`自身/〇m範囲`), the radius;
//! * plain `近接` reaches 1 m, `近接〇m` that many metres; `射撃`, `起点`, `直線`
//!   their metres; `視界` and `無限` any distance;
//! * `自身` without an area targets only the user: a distance above 0 is refused
//!   (C7H-RNG-4);
//! * beyond reach costs one penalty die up to twice the range (for a placed
//!   area: twice the range, plus the radius); farther, or melee beyond its reach,
//!   is clearly out of reach and refused (`illegal_action`, C7H-RNG-2).
//!   `variant: far_range = refuse_beyond_double | penalty_die` (`penalty_die`:
//!   any distance beyond reach costs one penalty die, melee included).

use crate::error::{Error, Result};
use crate::json::{FromJson, ToJson};

/// Longest notation accepted, in characters.
pub const MAX_TEXT_CHARS: usize = 200;

/// Range keyword (C7H-RNG-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hRangeKind {
    /// 自身: the origin is the user.
    #[serde(rename = "self")]
    SelfOrigin,
    /// 近接: adjacent or touchable; `近接2m` for a reach of 2 m or more.
    Melee,
    /// 射撃〇m: an attack sent at a target within X m.
    Shot,
    /// 起点〇m: an effect created at a point within X m.
    Origin,
    /// 直線〇m: a straight line from the user out to X m.
    Line,
    /// 視界: any target or point in sight.
    Sight,
    /// 無限: any distance, if the user knows where the target is.
    Infinite,
}

/// Target keyword (C7H-RNG-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hTargetKind {
    /// 自身: only oneself.
    #[serde(rename = "self")]
    SelfOnly,
    /// 〇体: up to X targets.
    Bodies,
    /// 〇連: X attacks in a row, each with its own hit roll and damage.
    Chain,
    /// 〇m範囲: everything within radius X m of a chosen point.
    Area,
    /// すべて: every target in range.
    All,
}

/// A parsed range.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hRange {
    /// The keyword.
    pub kind: C7hRangeKind,
    /// Metres, where written (`射撃20m` → 20; `近接2m` → 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meters: Option<i64>,
    /// Obstacles or allies in the way may impose penalty dice (射撃).
    pub obstacles_penalize: bool,
    /// A failure may hit an ally (射撃: 誤射).
    pub may_friendly_fire: bool,
    /// The origin point must be visible (起点, as a rule).
    pub origin_must_be_visible: bool,
    /// The user must know the target's position or existence (無限).
    pub target_must_be_known: bool,
}

/// A parsed target.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hTarget {
    /// The keyword.
    pub kind: C7hTargetKind,
    /// Number of targets (体) or attacks (連).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    /// Area radius in metres (範囲).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meters: Option<i64>,
    /// `(選択)`: the user picks any targets within the area or range.
    pub select: bool,
    /// 連: each attack has its own hit roll and damage.
    pub separate_rolls: bool,
}

/// `variant: far_range` (RULINGS C7H-RNG-2): what a target beyond twice the range, or
/// beyond a melee reach, gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum C7hFarRange {
    /// Refused as clearly out of reach (the default).
    #[default]
    RefuseBeyondDouble,
    /// One penalty die at any distance beyond reach.
    PenaltyDie,
}

/// Variants of `coc7_house.parse_range`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hRangeVariants {
    /// `variant: far_range`: `refuse_beyond_double` (default) or `penalty_die`.
    #[serde(default)]
    pub far_range: C7hFarRange,
}

/// Arguments of `coc7_house.parse_range`.
#[derive(Debug, Clone, Default, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct C7hParseRangeArgs {
    /// The notation, e.g. `射撃20m/1体` (at most 200 characters).
    pub text: String,
    /// Distance from the user to the intended target in metres, 0–1000000 (optional).
    #[serde(default)]
    #[schemars(range(min = 0, max = 1000000))]
    pub distance: Option<i64>,
    /// Variants: `far_range`.
    #[serde(default)]
    pub variants: C7hRangeVariants,
}

/// Result of `coc7_house.parse_range`.
#[derive(Debug, Clone, PartialEq, Eq, ToJson, FromJson)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct C7hParseRangeResult {
    /// The range part, if written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<C7hRange>,
    /// The target part, if written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<C7hTarget>,
    /// With `distance`: whether the target is within reach (absent when no range is written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_range: Option<bool>,
    /// The farthest distance within reach in metres (absent for `視界`, `無限` or no range):
    /// range + radius for an area placed at range, the radius for `自身/〇m範囲`, 1 for plain
    /// `近接`, 0 for `自身`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach: Option<i64>,
    /// Penalty dice for attacking beyond reach (1 when `in_range` is false, C7H-RNG-2).
    pub penalty_dice: i64,
}

type PResult<T> = std::result::Result<T, (usize, String)>;

struct P {
    chars: Vec<(usize, char)>,
    pos: usize,
    len: usize,
}

impl P {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|c| c.1)
    }
    fn here(&self) -> usize {
        self.chars.get(self.pos).map(|c| c.0).unwrap_or(self.len)
    }
    fn eat(&mut self, word: &str) -> bool {
        let w: Vec<char> = word.chars().collect();
        let ok = w.iter().enumerate().all(|(i, c)| self.chars.get(self.pos + i).map(|x| x.1) == Some(*c));
        if ok {
            self.pos += w.len();
        }
        ok
    }
    fn fail<T>(&self, what: &str) -> PResult<T> {
        Err((
            self.here(),
            match self.peek() {
                Some(c) => format!("unexpected '{c}', expected {what}"),
                None => format!("unexpected end, expected {what}"),
            },
        ))
    }
    fn number(&mut self) -> Option<PResult<i64>> {
        let start = self.here();
        let mut v: i64 = 0;
        let mut n = 0;
        while let Some(c) = self.peek() {
            let d = match c {
                '0'..='9' => c as i64 - '0' as i64,
                '０'..='９' => c as i64 - '０' as i64,
                _ => break,
            };
            n += 1;
            if n > 6 {
                return Some(Err((start, "a number has at most 6 digits".into())));
            }
            v = v * 10 + d;
            self.pos += 1;
        }
        if n == 0 {
            return None;
        }
        if v == 0 {
            return Some(Err((start, "a number must be at least 1".into())));
        }
        Some(Ok(v))
    }
    fn meters(&mut self, required: bool) -> PResult<Option<i64>> {
        match self.number() {
            None if required => self.fail("a distance such as 20m"),
            None => Ok(None),
            Some(Err(e)) => Err(e),
            Some(Ok(v)) => {
                if self.eat("m") || self.eat("ｍ") {
                    Ok(Some(v))
                } else {
                    self.fail("'m'")
                }
            }
        }
    }
    fn select(&mut self) -> PResult<bool> {
        if self.eat("(") || self.eat("（") {
            if !self.eat("選択") {
                return self.fail("'選択'");
            }
            if !(self.eat(")") || self.eat("）")) {
                return self.fail("')'");
            }
            return Ok(true);
        }
        Ok(false)
    }
    fn range(&mut self) -> PResult<C7hRange> {
        let mk = |kind, meters| C7hRange {
            kind,
            meters,
            obstacles_penalize: kind == C7hRangeKind::Shot,
            may_friendly_fire: kind == C7hRangeKind::Shot,
            origin_must_be_visible: kind == C7hRangeKind::Origin,
            target_must_be_known: kind == C7hRangeKind::Infinite,
        };
        if self.eat("自身") {
            Ok(mk(C7hRangeKind::SelfOrigin, None))
        } else if self.eat("近接") {
            Ok(mk(C7hRangeKind::Melee, self.meters(false)?))
        } else if self.eat("射撃") {
            Ok(mk(C7hRangeKind::Shot, self.meters(true)?))
        } else if self.eat("起点") {
            Ok(mk(C7hRangeKind::Origin, self.meters(true)?))
        } else if self.eat("直線") {
            Ok(mk(C7hRangeKind::Line, self.meters(true)?))
        } else if self.eat("視界") {
            Ok(mk(C7hRangeKind::Sight, None))
        } else if self.eat("無限") {
            Ok(mk(C7hRangeKind::Infinite, None))
        } else {
            self.fail("a range (自身, 近接, 射撃〇m, 起点〇m, 直線〇m, 視界, 無限)")
        }
    }
    fn target(&mut self) -> PResult<C7hTarget> {
        let mk = |kind, count, meters, select| C7hTarget {
            kind,
            count,
            meters,
            select,
            separate_rolls: kind == C7hTargetKind::Chain,
        };
        if self.eat("自身") {
            return Ok(mk(C7hTargetKind::SelfOnly, None, None, false));
        }
        if self.eat("すべて") {
            let s = self.select()?;
            return Ok(mk(C7hTargetKind::All, None, None, s));
        }
        let n = match self.number() {
            Some(r) => r?,
            None => return self.fail("a target (自身, 〇体, 〇連, 〇m範囲, すべて)"),
        };
        if self.eat("体") {
            Ok(mk(C7hTargetKind::Bodies, Some(n), None, false))
        } else if self.eat("連") {
            Ok(mk(C7hTargetKind::Chain, Some(n), None, false))
        } else if self.eat("m範囲") || self.eat("ｍ範囲") {
            let s = self.select()?;
            Ok(mk(C7hTargetKind::Area, None, Some(n), s))
        } else {
            self.fail("体, 連 or m範囲")
        }
    }
    fn end(&self) -> PResult<()> {
        if self.pos < self.chars.len() {
            return self.fail("the end of the notation");
        }
        Ok(())
    }
}

type Parsed = (Option<C7hRange>, Option<C7hTarget>);

fn parse(text: &str) -> PResult<Parsed> {
    let chars: Vec<(usize, char)> = text.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).collect();
    let len = text.chars().count();
    let has_slash = chars.iter().any(|c| c.1 == '/' || c.1 == '／');
    let mut p = P { chars, pos: 0, len };
    if p.chars.is_empty() {
        return Err((0, "empty notation".into()));
    }
    if has_slash {
        let r = p.range()?;
        if !(p.eat("/") || p.eat("／")) {
            return p.fail("'/'");
        }
        let t = p.target()?;
        p.end()?;
        return Ok((Some(r), Some(t)));
    }
    let as_range = p.range().and_then(|r| p.end().map(|_| r));
    match as_range {
        Ok(r) => Ok((Some(r), None)),
        Err(e1) => {
            p.pos = 0;
            match p.target().and_then(|t| p.end().map(|_| t)) {
                Ok(t) => Ok((None, Some(t))),
                Err(e2) => Err(if e2.0 > e1.0 { e2 } else { e1 }),
            }
        }
    }
}

/// `coc7_house.parse_range` — parse the range/target notation (C7H-RNG-1 … C7H-RNG-4)
/// and, with `distance`, apply C7H-RNG-2.
pub fn parse_range(args: &C7hParseRangeArgs) -> Result<C7hParseRangeResult> {
    if args.text.chars().count() > MAX_TEXT_CHARS {
        return Err(Error::limit("text", format_args!("at most {MAX_TEXT_CHARS} characters")));
    }
    if let Some(d) = args.distance {
        if !(0..=1_000_000).contains(&d) {
            return Err(Error::out_of_range("distance", "must be 0..=1000000"));
        }
    }
    let (range, target) = parse(&args.text).map_err(|(pos, msg)| Error::parse_at("text", pos, msg))?;
    // (reach, farthest distance with a penalty die, melee); None: any distance.
    let area = target.as_ref().filter(|t| t.kind == C7hTargetKind::Area).and_then(|t| t.meters);
    let reach = range.as_ref().and_then(|r| match (r.kind, r.meters) {
        (C7hRangeKind::Sight | C7hRangeKind::Infinite, _) => None,
        (C7hRangeKind::SelfOrigin, _) => Some(area.unwrap_or(0)),
        (C7hRangeKind::Melee, m) => Some(m.unwrap_or(1)),
        (C7hRangeKind::Shot | C7hRangeKind::Origin, Some(m)) => Some(m + area.unwrap_or(0)),
        (_, m) => m,
    });
    let in_range = match (args.distance, &range) {
        (Some(d), Some(_)) => Some(reach.is_none_or(|m| d <= m)),
        _ => None,
    };
    if let (Some(d), Some(r), Some(false)) = (args.distance, &range, in_range) {
        if r.kind == C7hRangeKind::SelfOrigin && area.is_none() {
            return Err(Error::illegal(
                "C7H-RNG-4",
                format_args!("自身 targets only the user: a target {d} m away is refused"),
            ));
        }
        if args.variants.far_range == C7hFarRange::RefuseBeyondDouble {
            let m = r.meters.unwrap_or(0);
            let limit = match r.kind {
                C7hRangeKind::Melee => reach.unwrap_or(1),
                C7hRangeKind::Shot | C7hRangeKind::Origin => 2 * m + area.unwrap_or(0),
                _ => 2 * reach.unwrap_or(0),
            };
            if d > limit {
                return Err(Error::illegal(
                    "C7H-RNG-2",
                    format_args!(
                        "a target {d} m away is clearly out of reach (farthest with a penalty die: {limit} m; \
                         variants.far_range = penalty_die allows it)"
                    ),
                ));
            }
        }
    }
    Ok(C7hParseRangeResult {
        range,
        target,
        penalty_dice: i64::from(in_range == Some(false)),
        in_range,
        reach,
    })
}
