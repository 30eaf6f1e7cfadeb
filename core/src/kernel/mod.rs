//! The kernel: what every ruleset and the chat commands build on, naming none of them.
//!
//! Errors, the JSON reader and writer, dice, ids, the input bounds, the operation and
//! batch registries (their types: the entries are supplied by the crate's composition
//! root, `registered` in `lib.rs`), the four-language label, the variant switches
//! shared with the chat commands and the generic sheet plumbing. The layering test
//! (`core/tests/layering.rs`) keeps it free of rulesets.

pub mod batch;
pub mod bounds;
pub mod dice;
pub mod error;
pub mod ids;
pub mod json;
pub mod json_de;
pub mod label;
pub mod meta;
pub mod ops;
pub mod sheet;
pub(crate) mod small_sort;
pub mod variants;
