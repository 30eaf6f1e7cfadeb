//! `coc7` — Call of Cthulhu 7th-edition d100 checks, as the dice bots do them.
//!
//! * [`check`] — `coc7.check`: one check with bonus/penalty dice, difficulty and
//!   the `setcoc` house rules 0–5 (documented in [`check`]'s module docs).
//! * [`opposed`] — `coc7.opposed`: two checks compared; `coc7.opposed_chance`: their exact odds.
//! * [`odds`] — `coc7.distribution`: exact odds of every level.
//!
//! ```
//! use serde_json::json;
//! // Skill 50 with one penalty die: tens dice 0 and 3, ones die 0 → 100 or 30, keep 100.
//! let r = gunbai::call("coc7.check", json!({"skill": 50, "bonus_dice": -1, "rolls": [10, 3, 10]})).unwrap();
//! assert_eq!(r["candidates"], json!([100, 30]));
//! assert_eq!(r["level"], "fumble");
//! let d = gunbai::call("coc7.distribution", json!({"skill": 50})).unwrap();
//! assert_eq!(d["counts"]["extreme"], 9); // rolls 02–10 out of 100
//! ```

pub mod check;
pub mod odds;
pub mod opposed;

#[cfg(test)]
mod tests;

pub use check::{Coc7Difficulty, Coc7Labels, Coc7Level, Coc7Outcome};

use crate::ops::OpDef;

pub(crate) fn ops() -> Vec<OpDef> {
    vec![
        crate::op!(
            "coc7.check",
            check::check,
            check::Coc7CheckArgs => check::Coc7CheckResult,
            "A 7th-edition d100 check: bonus/penalty dice, difficulty, house rule 0-5 (setcoc)."
        ),
        crate::op!(
            "coc7.opposed",
            opposed::opposed,
            opposed::Coc7OpposedArgs => opposed::Coc7OpposedResult,
            "Two 7th-edition checks against each other: higher level, then higher skill, wins."
        ),
        crate::op!(
            "coc7.opposed_chance",
            opposed::opposed_chance,
            opposed::Coc7OpposedChanceArgs => opposed::Coc7OpposedChanceResult,
            "Exact odds of coc7.opposed: a wins, b wins, tie, and neither succeeding."
        ),
        crate::op!(
            "coc7.distribution",
            odds::distribution,
            odds::Coc7DistributionArgs => odds::Coc7DistributionResult,
            "Exact probability of each success level of a 7th-edition check."
        ),
    ]
}
