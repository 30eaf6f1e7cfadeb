//! Bounds on argument text, checked before any [`serde_json::Value`] is built.
//!
//! A parsed `Value` is many times the size of its text (an array of empty arrays, `[[],[],…]`,
//! is about 16 bytes of wasm memory per 3 bytes of text, and each one an allocation), and
//! in wasm a tree of millions of them took minutes to build and free. So the text is
//! first scanned once, in linear time and constant memory, for its nesting depth and its
//! number of values; past [`MAX_JSON_DEPTH`] or [`MAX_JSON_VALUES`] it is refused with
//! `limit_exceeded` before serde_json reads it. Every surface sends text through here,
//! and the JS and Python packages give the same refusal (the same message,
//! [`DEPTH_REFUSAL`]) when their own JSON writer runs out of stack first.
//!
//! The scan does not validate the JSON: text that is not JSON within these bounds is
//! left to serde_json to report as usual.

use crate::error::{Error, Result};

/// Deepest nesting of arrays and objects in argument text. The deepest real argument (a
/// World Trigger battle state with its undo history) nests about a dozen levels.
pub const MAX_JSON_DEPTH: usize = 64;

/// Most values (every array, object, string, number, `true`, `false` and `null`, object
/// keys not counted) in one call's argument text: [`crate::MAX_ARGS_JSON`] / 32, about
/// 262,000; the largest real list (100,000 scripted faces) fits.
pub const MAX_JSON_VALUES: usize = crate::MAX_ARGS_JSON / 32;

/// The refusal for depth (after `args: `; the field is `args`). The JS and Python
/// packages give the same message when their own JSON writer overflows its stack first.
pub const DEPTH_REFUSAL: &str = "JSON nested deeper than 64 levels of arrays and objects";

/// Refuse `text` nested deeper than [`MAX_JSON_DEPTH`] or holding more than
/// [`MAX_JSON_VALUES`] values; one pass over the bytes.
pub fn check_text(text: &str) -> Result<()> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut values = 0usize;
    // Inside a scalar that is not a string (a number or a literal): counted at its start.
    let mut in_scalar = false;
    // Whether the next string is an object key (after `{` or a `,` inside an object).
    // Tracked per level with a bit stack: at most MAX_JSON_DEPTH levels, so one u128.
    let mut objects: u128 = 0;
    let mut expect_key = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                in_scalar = false;
                if !expect_key {
                    values += 1;
                }
                expect_key = false;
                // Skip to the closing quote (an escaped one does not close).
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'{' => {
                in_scalar = false;
                values += 1;
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return Err(Error::limit("args", DEPTH_REFUSAL));
                }
                let bit = 1u128 << depth;
                if b == b'{' {
                    objects |= bit;
                    expect_key = true;
                } else {
                    objects &= !bit;
                    expect_key = false;
                }
            }
            b']' | b'}' => {
                in_scalar = false;
                depth = depth.saturating_sub(1);
                expect_key = false;
            }
            b',' => {
                in_scalar = false;
                expect_key = depth > 0 && objects & (1u128 << depth) != 0;
            }
            b':' | b' ' | b'\t' | b'\n' | b'\r' => {
                in_scalar = false;
                expect_key = false;
            }
            _ => {
                if !in_scalar {
                    values += 1;
                    in_scalar = true;
                }
            }
        }
        if values > MAX_JSON_VALUES {
            return Err(Error::limit(
                "args",
                format_args!("arguments hold at most {MAX_JSON_VALUES} JSON values (arrays, objects, strings, numbers, literals)"),
            ));
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> Option<String> {
        check_text(text).err().map(|e| format!("{}|{}", e.code.as_str(), e.message))
    }

    #[test]
    fn depth_is_bounded() {
        assert!(DEPTH_REFUSAL.contains(&MAX_JSON_DEPTH.to_string()));
        let ok = format!("{}{}", "[".repeat(MAX_JSON_DEPTH), "]".repeat(MAX_JSON_DEPTH));
        assert_eq!(code(&ok), None);
        let deep = format!("{}{}", "[".repeat(MAX_JSON_DEPTH + 1), "]".repeat(MAX_JSON_DEPTH + 1));
        assert_eq!(code(&deep), Some(format!("limit_exceeded|args: {DEPTH_REFUSAL}")));
        // Objects count as levels too; brackets inside strings do not.
        let objs = format!("{}1{}", "{\"a\":".repeat(MAX_JSON_DEPTH + 1), "}".repeat(MAX_JSON_DEPTH + 1));
        assert!(code(&objs).is_some());
        let quoted = format!("{{\"a\":\"{}\\\"{}\"}}", "[".repeat(1000), "{".repeat(1000));
        assert_eq!(code(&quoted), None);
        // Unclosed text is left to serde_json (not refused here while within bounds).
        assert_eq!(code("[[["), None);
    }

    #[test]
    fn values_are_counted_keys_are_not() {
        let at_limit = format!("[{}]", vec!["0"; MAX_JSON_VALUES - 1].join(","));
        assert_eq!(code(&at_limit), None);
        let over = format!("[{}]", vec!["0"; MAX_JSON_VALUES].join(","));
        assert!(code(&over).unwrap().starts_with("limit_exceeded|args: arguments hold at most"));
        // MAX_JSON_VALUES - 1 entries of an object: keys are not values.
        let mut obj = String::from("{");
        for i in 0..MAX_JSON_VALUES - 1 {
            if i > 0 {
                obj.push(',');
            }
            obj.push_str(&format!("\"k{i}\": \"v\""));
        }
        obj.push('}');
        assert_eq!(code(&obj), None);
        // Strings, literals and numbers are one value each, however long.
        let mixed = format!("[{}]", ["\"a,b\"", "true", "-12.5e3", "null", "{}"].repeat(10).join(", "));
        assert_eq!(code(&mixed), None);
        assert!(code(&format!("[{}]", vec!["[]"; MAX_JSON_VALUES].join(","))).is_some());
    }
}
