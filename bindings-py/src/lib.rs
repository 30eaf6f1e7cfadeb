//! Thin pyo3 surface: the private module `gunbai._native`.
//!
//! `call` returns the JSON envelope of [`gunbai::call_json`]; the Python package
//! raises `gunbai.GunbaiError` from `{"error": …}`. The GIL is released while
//! the core runs. A panic (a gunbai bug) is caught and reported as an
//! `internal` error envelope rather than crossing into Python.

use pyo3::prelude::*;

/// Run operation `op` on JSON `args_json`; returns the JSON envelope.
#[pyfunction]
fn call(py: Python<'_>, op: &str, args_json: &str) -> String {
    let op = op.to_owned();
    let args = args_json.to_owned();
    py.allow_threads(move || {
        std::panic::catch_unwind(|| gunbai::call_json(&op, &args, None)).unwrap_or_else(|_| {
            r#"{"error":{"code":"internal","message":"internal error (a gunbai bug): the core panicked"}}"#
                .to_string()
        })
    })
}

/// The operation catalog (JSON Schemas), as JSON text.
#[pyfunction]
fn catalog() -> String {
    gunbai::catalog().to_string()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(catalog, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
