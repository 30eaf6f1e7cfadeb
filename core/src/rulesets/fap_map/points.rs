//! Action points in exact tenths.
//!
//! FM-AP-1 .. FM-AP-3: costs are whole points except the simple and sustained
//! actions (FM-ACT-17, FM-ACT-18), which cost tenths of a point (0.1 FAP). gunbai
//! keeps every FAP/MAP amount as an **integer number of tenths** (`fap_tenths: 7`
//! is 0.7 FAP), so sums never drift. Results show each amount twice: the
//! integer `…_tenths` field (authoritative) and a decimal number (`fap: 0.7`),
//! which is `tenths / 10` and only for display.

use crate::error::{Error, Result};

/// Largest amount of points (in tenths) anywhere: 100 000 points.
pub const MAX_TENTHS: i64 = 1_000_000;

/// The decimal display value of an amount in tenths.
pub fn decimal(tenths: i64) -> f64 {
    tenths as f64 / 10.0
}

/// Text of an amount in tenths: `7`, `0.3`, `-1.5`.
pub fn text(tenths: i64) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let a = tenths.unsigned_abs();
    if a % 10 == 0 {
        format!("{sign}{}", a / 10)
    } else {
        format!("{sign}{}.{}", a / 10, a % 10)
    }
}

/// Check that an amount of tenths is within `0..=MAX_TENTHS`.
pub fn check_amount(field: &str, tenths: i64) -> Result<i64> {
    if !(0..=MAX_TENTHS).contains(&tenths) {
        return Err(Error::out_of_range(field, format_args!("must be 0..={MAX_TENTHS} tenths of a point")));
    }
    Ok(tenths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_decimal() {
        assert_eq!(text(70), "7");
        assert_eq!(text(3), "0.3");
        assert_eq!(text(-15), "-1.5");
        assert_eq!(text(i64::MIN), "-922337203685477580.8");
        assert_eq!(decimal(3), 0.3);
        // FM-ACT-17: ten 0.1-point actions are exactly one point in tenths.
        let sum: i64 = std::iter::repeat_n(1i64, 10).sum();
        assert_eq!(sum, 10);
        assert!(check_amount("x", -1).is_err());
        assert!(check_amount("x", MAX_TENTHS + 1).is_err());
    }
}
