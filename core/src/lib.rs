//! # gunbai (軍配) — an embeddable rules engine for tabletop-RPG combat
//!
//! A pure core (no IO, no global state beyond caches) implementing five
//! rulesets: World Trigger fan TRPG (`world_trigger`), Call of Cthulhu 6th-ed.
//! action points (`coc_ap`), CoC 7th-ed. checks (`coc7`) and house combat
//! (`coc7_house`), TMD：新秩序000 (`tmd`) and FAP/MAP (`fap_map`), plus chat
//! commands (`command`) and generic dice (`dice`).
//!
//! Every operation is a pure function from a serde args struct to a serde
//! result struct, registered under `<module>.<op>`. Call them typed:
//!
//! ```
//! use gunbai::dice::{expr::{roll, DiceRollArgs}, DiceArgs};
//! let r = roll(&DiceRollArgs { expr: "2d6+1".into(), source: DiceArgs::seed(42) }).unwrap();
//! assert!((3..=13).contains(&r.total));
//! ```
//!
//! or by name with JSON, exactly as the JS and Python packages do:
//!
//! ```
//! let r = gunbai::call("dice.roll", serde_json::json!({"expr": "2d6+1", "rolls": [3, 5]})).unwrap();
//! assert_eq!(r["total"], 9);
//! let e = gunbai::call("dice.roll", serde_json::json!({"expr": "1001d6"})).unwrap_err();
//! assert_eq!(e.code.as_str(), "limit_exceeded");
//! ```

#![forbid(unsafe_code)]
// A build without some rulesets (see the features in Cargo.toml) still compiles their
// modules, whose private registration code then goes unused; the full build is linted.
#![cfg_attr(
    not(all(feature = "world_trigger", feature = "coc", feature = "tmd", feature = "fap_map")),
    allow(dead_code, unused_variables)
)]

/// The README's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;
/// The guide's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/api.md")]
pub struct GuideApiExamples;
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/world-trigger.md")]
pub struct GuideWorldTriggerExamples;

// The derives in `gunbai-derive` name `::gunbai::json`, inside this crate too.
extern crate self as gunbai;

pub(crate) mod kernel;
pub(crate) use kernel::small_sort;
pub use kernel::{batch, bounds, dice, error, json, json_de, meta, ops, sheet};

pub mod engine;

#[cfg(test)]
mod call_bench;
// Without `chat` the module is compiled but not registered (its code leaves the binary).
#[cfg_attr(not(feature = "chat"), allow(dead_code))]
pub mod chat;
// The chat commands at the path named after their operations (`command.run`).
pub use chat as command;

pub(crate) mod rulesets;
// The rulesets' modules at the paths they have always had (`gunbai::world_trigger::check`),
// and Call of Cthulhu's parent (its sheets, batch checks and chat commands).
pub use rulesets::coc::{coc7, coc7_house, coc_ap};
pub use rulesets::{coc, fap_map, tmd, world_trigger};

/// The composition root: what this build registers. The registries of the layers below
/// (`ops::registry`, `batch::batch_registry`, `engine::handles`, `meta.version`) take
/// their entries from here, so they name no ruleset; the rulesets' entries come from
/// [`rulesets`], in the build's features.
mod registered {
    use crate::batch::BatchDef;
    use crate::engine::HandleDef;
    use crate::ops::OpDef;

    /// Every operation, in module order.
    pub(crate) fn ops() -> Vec<OpDef> {
        let mut v = Vec::new();
        v.extend(crate::meta::ops());
        v.extend(crate::dice::ops());
        crate::rulesets::ops(&mut v);
        #[cfg(feature = "chat")]
        v.extend(crate::chat::ops());
        v
    }

    /// Every batch operation.
    pub(crate) fn batch_ops() -> Vec<BatchDef> {
        let mut v = Vec::new();
        v.extend(crate::batch::dice::ops());
        crate::rulesets::batch_ops(&mut v);
        v
    }

    /// Every handle.
    pub(crate) fn handles() -> Vec<HandleDef> {
        let mut v = Vec::new();
        crate::rulesets::handles(&mut v);
        v
    }

    /// Every handle's name and the pure operations it mirrors (what the catalog lists;
    /// the kernel reads them here, not from the engine layer above it).
    #[cfg(feature = "schema")]
    pub(crate) fn handle_ops() -> Vec<(&'static str, [&'static str; 3])> {
        handles().iter().map(|h| (h.name, h.ops)).collect()
    }

    /// The chat commands of the rulesets in the build.
    #[cfg_attr(not(feature = "chat"), allow(unused_imports))]
    pub(crate) use crate::rulesets::CHAT;

    /// The rulesets in the build.
    pub(crate) fn ruleset_names() -> Vec<&'static str> {
        crate::rulesets::built()
    }
}

pub use error::{Error, ErrorCode, ErrorDetail, Result};
use serde_json::Value;

/// Run the operation `op` (`"<module>.<op>"`) on JSON `args`.
pub fn call(op: &str, args: Value) -> Result<Value> {
    (lookup(op)?.run)(args)
}

/// The operation `op`, or the error naming why there is none.
fn lookup(op: &str) -> Result<&'static ops::OpDef> {
    ops::find(op).ok_or_else(|| {
        if batch::batch_registry().iter().any(|d| d.name == op) {
            Error::field(
                ErrorCode::UnknownOperation,
                "op",
                format_args!(
                    "{op:?} is a batch operation (an array result): run it with call_batch (JS callBatch)"
                ),
            )
        } else if !cfg!(feature = "chat") && op.starts_with("command.") {
            Error::field(
                ErrorCode::NotInBuild,
                "op",
                "the chat commands are not in this build: they are in the full npm package `gunbai` and the wheel",
            )
        } else {
            Error::field(ErrorCode::UnknownOperation, "op", format_args!("no operation named {}", error::quote(op)))
        }
    })
}

/// Like [`call`], with 64 bits of host entropy for calls that give neither
/// `seed` nor `rolls` (the wasm binding passes `crypto.getRandomValues`).
pub fn call_with_entropy(op: &str, args: Value, entropy: u64) -> Result<Value> {
    dice::with_host_entropy(entropy, || call(op, args))
}

/// Longest argument text the JSON entry points read (8 MiB): far above any real input
/// (a whole battle replay is well under 1 MB), and it keeps a hostile one (tens of
/// millions of scripted faces) from taking gigabytes of wasm memory before any limit
/// is checked.
pub const MAX_ARGS_JSON: usize = 8 << 20;

/// Parse the bindings' argument text, refusing it above [`MAX_ARGS_JSON`] and past the
/// [`bounds`] on depth and values (checked before any `Value` is built).
pub(crate) fn parse_args_json(args_json: &str) -> Result<Value> {
    if args_json.len() > MAX_ARGS_JSON {
        return Err(Error::limit(
            "args",
            format_args!("arguments are at most {MAX_ARGS_JSON} bytes of JSON, not {}", args_json.len()),
        ));
    }
    bounds::check_text(args_json)?;
    serde_json::from_str::<Value>(args_json)
        .map_err(|e| Error::invalid("args", format_args!("not valid JSON: {e}")))
}

/// JSON-text in, JSON-text out: what the bindings call. The output is either
/// `{"ok": result}` or `{"error": {"code", "message", "field"?, "rule"?}}`;
/// it never fails and never panics on any input text.
pub fn call_json(op: &str, args_json: &str, entropy: Option<u64>) -> String {
    // Most replies fit (a `command.run` reply is about 1.5 KB), so the buffer seldom grows.
    let mut out = Vec::with_capacity(2048);
    call_json_into(op, args_json, entropy, &mut out);
    // Only JSON text was written, from `&str`s and serde_json: valid UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`call_json`] writing its envelope into a caller's buffer: `out` is cleared, then
/// holds the envelope's UTF-8 text (the same text `call_json` returns). A host that calls
/// often can keep one buffer and skip an allocation and a copy per call.
///
/// The result is written straight from the operation's typed result
/// ([`json::ToJson::write_json`]): no `Value` of it is built.
pub fn call_json_into(op: &str, args_json: &str, entropy: Option<u64>, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(b"{\"ok\":");
    // The text is read before the op is looked up: bad text is the error either way.
    let run = |out: &mut Vec<u8>| {
        let args = parse_args_json(args_json)?;
        (lookup(op)?.write)(args, out)
    };
    let outcome = match entropy {
        Some(e) => dice::with_host_entropy(e, || run(out)),
        None => run(out),
    };
    if let Err(e) = outcome {
        out.clear();
        out.extend_from_slice(b"{\"error\":");
        json::write_value(&json::ToJson::to_json(&e.bounded()), out);
    }
    out.push(b'}');
}

/// Batch entry point for the bindings: `(envelope, data)` where the envelope is
/// `{"ok": {"dtype": "int32"|"float64", "len": n}}` or `{"error": {...}}`.
pub fn call_batch_json(
    op: &str,
    args_json: &str,
    entropy: Option<u64>,
) -> (String, Option<batch::BatchData>) {
    let outcome = parse_args_json(args_json).and_then(|args| match entropy {
        Some(e) => batch::call_batch_with_entropy(op, args, e),
        None => batch::call_batch(op, args),
    });
    match outcome {
        Ok(data) => {
            let mut ok = serde_json::json!({ "dtype": data.dtype(), "len": data.len() });
            if !data.parts().is_empty() {
                ok["parts"] = data
                    .parts()
                    .iter()
                    .map(|p| serde_json::json!({"name": p.name, "shape": p.shape}))
                    .collect();
            }
            let env = serde_json::json!({ "ok": ok });
            (env.to_string(), Some(data))
        }
        Err(e) => (json::error_envelope(e).to_string(), None),
    }
}

#[cfg(feature = "schema")]
/// The catalog of operations with JSON Schemas (see [`ops::catalog`]).
pub fn catalog() -> Value {
    ops::catalog()
}
