//! Thin wasm-bindgen surface: JSON-in/JSON-out entry points.
//!
//! They never throw: results are the envelopes of [`gunbai::call_json`] and
//! [`gunbai::call_batch_json`], and the generated `index.js` turns `{"error": …}`
//! into a `GunbaiError`. Entropy for unseeded calls comes from the host
//! (`crypto.getRandomValues`), because the core does no IO.

use wasm_bindgen::prelude::*;

fn entropy(hi: u32, lo: u32) -> u64 {
    (u64::from(hi) << 32) | u64::from(lo)
}

/// Run operation `op` on JSON `args_json`; returns the JSON envelope.
#[wasm_bindgen]
pub fn call(op: &str, args_json: &str, entropy_hi: u32, entropy_lo: u32) -> String {
    gunbai::call_json(op, args_json, Some(entropy(entropy_hi, entropy_lo)))
}

/// The outcome of a batch operation: an envelope plus the numeric data.
#[wasm_bindgen]
pub struct BatchOutcome {
    envelope: String,
    data: Option<gunbai::batch::BatchData>,
}

#[wasm_bindgen]
impl BatchOutcome {
    /// `{"ok": {"dtype", "len"}}` or `{"error": {...}}`.
    #[wasm_bindgen(getter)]
    pub fn envelope(&self) -> String {
        self.envelope.clone()
    }

    /// The int32 data (empty for float64 results or errors); becomes an `Int32Array`.
    pub fn take_i32(&mut self) -> Vec<i32> {
        match self.data.take() {
            Some(gunbai::batch::BatchData::I32(v) | gunbai::batch::BatchData::Parts(v, _)) => v,
            other => {
                self.data = other;
                Vec::new()
            }
        }
    }

    /// The float64 data (empty for int32 results or errors); becomes a `Float64Array`.
    pub fn take_f64(&mut self) -> Vec<f64> {
        match self.data.take() {
            Some(gunbai::batch::BatchData::F64(v)) => v,
            other => {
                self.data = other;
                Vec::new()
            }
        }
    }
}

/// Run batch operation `op` on JSON `args_json`: at most `window` repetitions (all:
/// `u32::MAX`, above every limit), from the seed (`from` empty) or from the stream
/// state `from` (4 words) where an earlier window ended ([`batch_end`];
/// [`gunbai::batch::set_window`]).
#[wasm_bindgen]
pub fn call_batch(
    op: &str,
    args_json: &str,
    entropy_hi: u32,
    entropy_lo: u32,
    window: u32,
    from: &[u64],
) -> BatchOutcome {
    gunbai::batch::set_window(u64::from(window), from.try_into().ok());
    let (envelope, data) = gunbai::call_batch_json(op, args_json, Some(entropy(entropy_hi, entropy_lo)));
    gunbai::batch::set_window(u64::MAX, None);
    BatchOutcome { envelope, data }
}

/// Word `i` (0–3) of the stream state where the last batch call ended.
#[wasm_bindgen]
pub fn batch_end(i: u32) -> u64 {
    gunbai::batch::window_end()[i as usize % 4]
}

/// A game handle: one session of an engine (`world_trigger.Battle`, …), its
/// state kept in wasm memory between calls. Driven by method name with JSON
/// arguments; every method returns a JSON envelope and never throws. The
/// generated classes (`worldTrigger.Battle`, …) wrap it; `free()` releases it.
#[wasm_bindgen]
#[derive(Default)]
pub struct Game {
    inner: gunbai::engine::Game,
}

#[wasm_bindgen]
impl Game {
    /// An empty handle (`create` or `load` fills it).
    #[wasm_bindgen(constructor)]
    pub fn new() -> Game {
        Game::default()
    }

    /// Run `method` on JSON `args_json`; returns the JSON envelope.
    pub fn call(&mut self, method: &str, args_json: &str, entropy_hi: u32, entropy_lo: u32) -> String {
        self.inner.call_json(method, args_json, Some(entropy(entropy_hi, entropy_lo)))
    }
}
