//! Thin wasm-bindgen surface: one JSON-in/JSON-out entry point.
//!
//! It never throws: the result is the envelope of [`gunbai::call_json`], and the
//! generated `index.js` turns `{"error": …}` into a `GunbaiError`. Entropy for
//! unseeded calls comes from the host (`crypto.getRandomValues`), because the
//! core does no IO.

use wasm_bindgen::prelude::*;

/// Run operation `op` on JSON `args_json`; returns the JSON envelope.
#[wasm_bindgen]
pub fn call(op: &str, args_json: &str, entropy_hi: u32, entropy_lo: u32) -> String {
    let entropy = (u64::from(entropy_hi) << 32) | u64::from(entropy_lo);
    gunbai::call_json(op, args_json, Some(entropy))
}
