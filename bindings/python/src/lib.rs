//! Python binding of response-diff: `import response_diff`.
//!
//! A thin layer over the core: each class wraps one core type, options
//! cross as the same JSON every binding uses (see [`convert`]), errors map
//! variant by variant to an exception hierarchy (see [`errors`]), and work
//! that can take time runs with the interpreter detached (`py.detach`), so
//! other Python threads run meanwhile.
//!
//! The extension module is `response_diff._native`; the package
//! `response_diff` (python/response_diff) re-exports it with stubs.

use pyo3::prelude::*;
use serde_json::Value;

mod convert;
mod diff;
mod errors;
mod expectation;
mod fingerprint;
mod response;
mod tree;

/// The JSON value of one of this module's option classes, so they can be
/// nested in dicts (`Expectation(diff_options=DiffOptions(format="split"))`).
fn known_json(obj: &Bound<'_, PyAny>) -> PyResult<Option<Value>> {
    if let Ok(o) = obj.cast::<diff::PyDiffOptions>() {
        return Ok(serde_json::to_value(o.get().settings).ok());
    }
    if let Ok(e) = obj.cast::<expectation::PyExpectation>() {
        return Ok(serde_json::to_value(&e.get().inner).ok());
    }
    Ok(None)
}

#[pymodule(gil_used = false)]
mod _native {
    use super::*;

    #[pymodule_export]
    use diff::{
        PyDetector, PyDiffFormatter, PyDiffMetadata, PyDiffOptions, PyDiffResult, compare_texts,
        estimate_tokens, format_diff,
    };
    #[pymodule_export]
    use expectation::PyExpectation;
    #[pymodule_export]
    use fingerprint::{
        PyBaselineStore, PyFingerprint, PyFingerprintChange, PyFingerprintComparison,
        compare_fingerprints, fingerprint_expression,
    };
    #[pymodule_export]
    use response::{PyBaseDiff, PyImage, PyRenderedResponse, diff_against_base, render_response};
    #[pymodule_export]
    use tree::{
        PyElement, PyRefCarrier, PyRefCarry, PySinceRead, PySinceStore, PySnapshotPatch, PyTree,
        PyTreeChange, PyTreeDiff, apply_snapshot_patch, carrier_key, carry_refs, parse_snapshot,
        snapshot_patch, tree_diff,
    };

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        let py = m.py();
        // Whichever init runs first sets it; every one sets the same function.
        let _ = convert::KNOWN_JSON.set(known_json);
        let t = errors::types(py)?;
        for ty in [
            &t.base,
            &t.invalid_option,
            &t.parse,
            &t.input_too_large,
            &t.invalid_name,
            &t.baseline_not_found,
            &t.image,
            &t.io,
        ] {
            let ty = ty.bind(py);
            m.add(ty.name()?, ty)?;
        }
        m.add(
            "FINGERPRINT_SCRIPT",
            response_diff::fingerprint::FINGERPRINT_SCRIPT,
        )?;
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add(
            "DEFAULT_MAX_STORED_BYTES",
            response_diff::diff::DEFAULT_MAX_STORED_BYTES,
        )?;
        m.add(
            "DEFAULT_MAX_INPUT_BYTES",
            response_diff::diff::DEFAULT_MAX_INPUT_BYTES,
        )?;
        m.add("REBASE_SHARE", response_diff::response::REBASE_SHARE)?;
        m.add("PAGE_VIEWS", response_diff::tree::PAGE_VIEWS)?;
        m.add("OWN_REFS_NOTE", response_diff::tree::OWN_REFS_NOTE)?;
        Ok(())
    }
}
