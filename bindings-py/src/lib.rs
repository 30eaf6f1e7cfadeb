//! Thin pyo3 surface: the private module `gunbai._native`.
//!
//! `call` returns the JSON envelope of [`gunbai::call_json`]; the Python package
//! raises `gunbai.GunbaiError` from `{"error": …}`. `call_batch` returns the
//! envelope plus the little-endian bytes (a bytearray) of a batch result, which the package
//! wraps in a numpy array. The GIL is released while the core runs. A panic (a
//! gunbai bug) is caught and reported as an `internal` error envelope rather
//! than crossing into Python.

use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use std::sync::{Mutex, PoisonError};

mod value;

// The wheel allocates with mimalloc, as pydantic-core does: glibc's malloc takes a lock
// on every call once a process has a second thread, which cost the games simulated on
// several threads about a fifth of their speed (BENCHMARKS.md, whole games per second).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PANIC_ENVELOPE: &str =
    r#"{"error":{"code":"internal","message":"internal error (a gunbai bug): the core panicked"}}"#;

/// Run operation `op` on JSON `args_json`; returns the JSON envelope.
#[pyfunction]
fn call(py: Python<'_>, op: &str, args_json: &str) -> String {
    let op = op.to_owned();
    let args = args_json.to_owned();
    py.allow_threads(move || {
        std::panic::catch_unwind(|| gunbai::call_json(&op, &args, None))
            .unwrap_or_else(|_| PANIC_ENVELOPE.to_string())
    })
}

/// Run operation `op` on `args` (Python objects), returning the `ok` value as Python
/// objects: what `json.loads(call(op, json.dumps(args)))["ok"]` gives, without the
/// JSON text crossing into Python. Raises `Unencodable` for arguments only the
/// package's JSON-text path writes, and `CoreError(envelope)` for an error envelope
/// (the package reads both as before: `value.rs`).
#[pyfunction]
fn call_value<'py>(py: Python<'py>, op: &str, args: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let mut text = String::with_capacity(64);
    if value::write_json(args, &mut text, 0).is_err() {
        return Err(value::Unencodable::new_err(()));
    }
    let op = op.to_owned();
    let envelope = py.allow_threads(move || {
        std::panic::catch_unwind(|| gunbai::call_json(&op, &text, None))
            .unwrap_or_else(|_| PANIC_ENVELOPE.to_string())
    });
    match value::read_ok(py, &envelope) {
        Some(ok) => Ok(ok),
        None => Err(value::CoreError::new_err((envelope,))),
    }
}

/// Run batch operation `op`; returns `(envelope_json, data_bytes)`.
#[pyfunction]
fn call_batch<'py>(py: Python<'py>, op: &str, args_json: &str) -> (String, Bound<'py, PyByteArray>) {
    let op = op.to_owned();
    let args = args_json.to_owned();
    let (env, bytes) = py.allow_threads(move || {
        std::panic::catch_unwind(|| {
            let (env, data) = gunbai::call_batch_json(&op, &args, None);
            (env, data.map(|d| d.to_le_bytes()).unwrap_or_default())
        })
        .unwrap_or_else(|_| (PANIC_ENVELOPE.to_string(), Vec::new()))
    });
    (env, PyByteArray::new(py, &bytes))
}

/// A game handle: one session of an engine (`world_trigger.Battle`, …), its
/// state kept native between calls. Driven by method name with JSON arguments
/// (`gunbai::engine::Game::call`); returns the JSON envelope. The generated
/// classes (`gunbai.world_trigger.Battle`, …) wrap it.
///
/// Safe to share between threads: each call holds the handle's lock, so calls from
/// several threads run one after another (never "Already borrowed"). The lock is taken
/// with the GIL released, so a thread waiting for it lets the others run.
#[pyclass(module = "gunbai._native", frozen)]
struct Game {
    inner: Mutex<gunbai::engine::Game>,
}

#[pymethods]
impl Game {
    #[new]
    fn new() -> Self {
        Game { inner: Mutex::new(gunbai::engine::Game::new()) }
    }

    /// Run `method` on JSON `args_json`; returns the JSON envelope.
    fn call(&self, py: Python<'_>, method: &str, args_json: &str) -> String {
        let inner = &self.inner;
        py.allow_threads(move || {
            // A panic is caught while the lock is held, so the lock is never poisoned.
            let mut game = inner.lock().unwrap_or_else(PoisonError::into_inner);
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| game.call_json(method, args_json, None)))
                .unwrap_or_else(|_| PANIC_ENVELOPE.to_string())
        })
    }

    /// [`call`](Self::call), its `ok` value read straight into Python objects (as
    /// `call_value` reads it: what `json.loads(envelope)["ok"]` gives, without the reply's
    /// text crossing into Python); another envelope raises `CoreError(envelope)`.
    fn call_read<'py>(&self, py: Python<'py>, method: &str, args_json: &str) -> PyResult<Bound<'py, PyAny>> {
        let envelope = self.call(py, method, args_json);
        match value::read_ok(py, &envelope) {
            Some(ok) => Ok(ok),
            None => Err(value::CoreError::new_err((envelope,))),
        }
    }
}

/// The operation catalog (JSON Schemas), as JSON text.
#[pyfunction]
fn catalog() -> String {
    gunbai::catalog().to_string()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(call_value, m)?)?;
    m.add_function(wrap_pyfunction!(call_batch, m)?)?;
    m.add("Unencodable", m.py().get_type::<value::Unencodable>())?;
    m.add("CoreError", m.py().get_type::<value::CoreError>())?;
    m.add_function(wrap_pyfunction!(catalog, m)?)?;
    m.add_class::<Game>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
