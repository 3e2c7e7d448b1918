//! DOM fingerprints: parse, compare, and named baselines.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyDict;
use response_diff::fingerprint::{
    self as core, BaselineStore, BaselineStoreConfig, ExtractOptions, Fingerprint,
    FingerprintChange, FingerprintComparison, Severity,
};

use crate::convert::{data_json, json_to_py, options_json, repr, to_py};
use crate::errors::RdResult;

/// A fingerprint from a `Fingerprint`, or the extractor's JSON (a string
/// or a dict).
fn fingerprint_arg(py: Python<'_>, value: &Bound<'_, PyAny>) -> RdResult<Arc<Fingerprint>> {
    if let Ok(f) = value.cast::<PyFingerprint>() {
        return Ok(f.get().inner.clone());
    }
    let json = data_json(value, "fingerprint")?;
    Ok(Arc::new(py.detach(|| Fingerprint::from_json(&json))?))
}

fn severity(threshold: &str) -> RdResult<Severity> {
    Ok(threshold.parse::<Severity>()?)
}

/// A DOM fingerprint: a compact semantic summary of a page.
#[pyclass(name = "Fingerprint", module = "response_diff", frozen, eq)]
#[derive(PartialEq)]
pub struct PyFingerprint {
    inner: Arc<Fingerprint>,
}

#[pymethods]
impl PyFingerprint {
    /// Parses, validates, normalizes and hashes what the extractor returned
    /// (a JSON string or a dict).
    #[new]
    fn new(py: Python<'_>, data: &Bound<'_, PyAny>) -> RdResult<Self> {
        Ok(PyFingerprint {
            inner: fingerprint_arg(py, data)?,
        })
    }

    /// Same as the constructor, from a JSON string.
    #[staticmethod]
    fn from_json(py: Python<'_>, json: PyBackedStr) -> RdResult<Self> {
        Ok(PyFingerprint {
            inner: Arc::new(py.detach(|| Fingerprint::from_json(&json))?),
        })
    }

    #[getter]
    fn url(&self) -> &str {
        &self.inner.url
    }
    #[getter]
    fn title(&self) -> &str {
        &self.inner.title
    }
    #[getter]
    fn captured_at(&self) -> &str {
        &self.inner.captured_at
    }
    #[getter]
    fn scope(&self) -> &str {
        &self.inner.scope
    }
    #[getter]
    fn depth(&self) -> &'static str {
        self.inner.depth.as_str()
    }
    /// `(width, height)` at capture time.
    #[getter]
    fn viewport(&self) -> (u32, u32) {
        (self.inner.viewport.width, self.inner.viewport.height)
    }
    /// Landmarks, content, interactive elements and state, as a dict.
    #[getter]
    fn structure<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.structure)
    }
    /// blake3 of the canonical normalized fingerprint, 16 hex digits.
    #[getter]
    fn hash(&self) -> &str {
        &self.inner.hash
    }
    /// Estimated tokens of the compact JSON (bytes / 4).
    #[getter]
    fn token_count(&self) -> usize {
        self.inner.token_count
    }
    /// Whether the page showed loading indicators.
    #[getter]
    fn is_loading(&self) -> bool {
        self.inner.is_loading()
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.to_json())
    }
    #[pyo3(signature = (*, pretty=false))]
    fn to_json(&self, pretty: bool) -> String {
        if pretty {
            self.inner.to_json_pretty()
        } else {
            self.inner.to_json()
        }
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Fingerprint(url={}, hash='{}', token_count={})",
            repr(py, Some(&self.inner.url)),
            self.inner.hash,
            self.inner.token_count
        )
    }
}

/// One change between a baseline and a current fingerprint.
#[pyclass(name = "FingerprintChange", module = "response_diff", frozen)]
pub struct PyFingerprintChange {
    inner: FingerprintChange,
}

#[pymethods]
impl PyFingerprintChange {
    /// `element_missing`, `error_appeared`, … (`type` in JSON).
    #[getter]
    fn r#type(&self) -> &'static str {
        self.inner.kind.as_str()
    }
    #[getter]
    fn severity(&self) -> &'static str {
        self.inner.severity.as_str()
    }
    /// `{"type", "text"?, "selector"?, "level"?}`.
    #[getter]
    fn element<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.element)
    }
    #[getter]
    fn location(&self) -> Option<&str> {
        self.inner.location.as_deref()
    }
    #[getter]
    fn was<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.was)
    }
    #[getter]
    fn now<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.now)
    }
    #[getter]
    fn description(&self) -> &str {
        &self.inner.description
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner)
    }
    fn to_json(&self) -> String {
        serde_json::to_string(&self.inner).unwrap_or_default()
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "FingerprintChange(type='{}', severity='{}', description={})",
            self.inner.kind.as_str(),
            self.inner.severity.as_str(),
            repr(py, Some(&self.inner.description))
        )
    }
}

/// The result of comparing two fingerprints.
#[pyclass(name = "FingerprintComparison", module = "response_diff", frozen)]
pub struct PyFingerprintComparison {
    inner: FingerprintComparison,
}

#[pymethods]
impl PyFingerprintComparison {
    /// `unchanged`, `changed` or `loading`.
    #[getter]
    fn status(&self) -> &'static str {
        self.inner.status.as_str()
    }
    /// `clean`, `info`, `warning` or `error`.
    #[getter]
    fn severity(&self) -> &'static str {
        self.inner.severity.as_str()
    }
    #[getter]
    fn changes(&self) -> Vec<PyFingerprintChange> {
        self.inner
            .changes
            .iter()
            .map(|c| PyFingerprintChange { inner: c.clone() })
            .collect()
    }
    #[getter]
    fn unchanged(&self) -> Vec<String> {
        self.inner.unchanged.clone()
    }
    #[getter]
    fn summary(&self) -> &str {
        &self.inner.summary
    }
    #[getter]
    fn suppressed(&self) -> usize {
        self.inner.suppressed
    }
    #[getter]
    fn baseline_hash(&self) -> &str {
        &self.inner.baseline_hash
    }
    #[getter]
    fn current_hash(&self) -> &str {
        &self.inner.current_hash
    }
    /// Nothing at or above the threshold changed and the page is not loading.
    #[getter]
    fn is_clean(&self) -> bool {
        self.inner.is_clean()
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.to_json())
    }
    #[pyo3(signature = (*, pretty=false))]
    fn to_json(&self, pretty: bool) -> String {
        if pretty {
            self.inner.to_json_pretty()
        } else {
            self.inner.to_json()
        }
    }
    /// The compact text for agents.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "FingerprintComparison(status='{}', severity='{}', summary={})",
            self.inner.status.as_str(),
            self.inner.severity.as_str(),
            repr(py, Some(&self.inner.summary))
        )
    }
}

/// Compares `current` with `baseline` (each a `Fingerprint` or the
/// extractor's JSON), reporting changes at or above `severity_threshold`.
#[pyfunction]
#[pyo3(signature = (baseline, current, severity_threshold="warning"))]
pub fn compare_fingerprints(
    py: Python<'_>,
    baseline: &Bound<'_, PyAny>,
    current: &Bound<'_, PyAny>,
    severity_threshold: &str,
) -> RdResult<PyFingerprintComparison> {
    let threshold = severity(severity_threshold)?;
    let baseline = fingerprint_arg(py, baseline)?;
    let current = fingerprint_arg(py, current)?;
    let inner = py.detach(|| core::compare(&baseline, &current, threshold));
    Ok(PyFingerprintComparison { inner })
}

/// A JavaScript expression that runs the extractor with `{scope, depth}`
/// and evaluates to the fingerprint as a JSON string.
#[pyfunction]
#[pyo3(signature = (options=None, /, **kwargs))]
pub fn fingerprint_expression(
    options: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> RdResult<String> {
    let opts = match options_json("fingerprintOptions", options, kwargs)? {
        None => ExtractOptions::default(),
        Some(json) => ExtractOptions::from_json(&json)?,
    };
    Ok(opts.expression())
}

/// Named baselines and recent captures, in memory and optionally on disk.
#[pyclass(name = "BaselineStore", module = "response_diff", frozen)]
pub struct PyBaselineStore {
    inner: BaselineStore,
}

#[pymethods]
impl PyBaselineStore {
    #[new]
    #[pyo3(signature = (directory=None, *, memory_limit=None, recent_limit=None))]
    fn new(
        py: Python<'_>,
        directory: Option<PathBuf>,
        memory_limit: Option<usize>,
        recent_limit: Option<usize>,
    ) -> RdResult<Self> {
        let mut config = BaselineStoreConfig::default();
        if let Some(dir) = directory {
            config = config.directory(dir);
        }
        if let Some(m) = memory_limit {
            config = config.memory_limit(m);
        }
        if let Some(r) = recent_limit {
            config = config.recent_limit(r);
        }
        Ok(PyBaselineStore {
            inner: py.detach(|| BaselineStore::with_config(config))?,
        })
    }

    /// Saves `fingerprint` as the baseline `name`, replacing any of that name.
    fn save(
        &self,
        py: Python<'_>,
        name: PyBackedStr,
        fingerprint: &Bound<'_, PyAny>,
    ) -> RdResult<()> {
        let fp = fingerprint_arg(py, fingerprint)?;
        Ok(py.detach(|| self.inner.save(&name, &fp))?)
    }

    /// Remembers `fingerprint` as recently captured, so `get` and `compare`
    /// find it by hash. Returns its hash.
    fn record(&self, py: Python<'_>, fingerprint: &Bound<'_, PyAny>) -> RdResult<String> {
        let fp = fingerprint_arg(py, fingerprint)?;
        py.detach(|| self.inner.record(&fp));
        Ok(fp.hash.clone())
    }

    /// The baseline named `against`, or the recent capture with that hash
    /// (or unique hash prefix).
    fn get(&self, py: Python<'_>, against: PyBackedStr) -> RdResult<PyFingerprint> {
        let inner = py.detach(|| self.inner.get(&against))?;
        Ok(PyFingerprint { inner })
    }

    /// Compares `current` with the baseline (or recent capture) `against`.
    #[pyo3(signature = (against, current, severity_threshold="warning"))]
    fn compare(
        &self,
        py: Python<'_>,
        against: PyBackedStr,
        current: &Bound<'_, PyAny>,
        severity_threshold: &str,
    ) -> RdResult<PyFingerprintComparison> {
        let threshold = severity(severity_threshold)?;
        let current = fingerprint_arg(py, current)?;
        let inner = py.detach(|| self.inner.compare(&against, &current, threshold))?;
        Ok(PyFingerprintComparison { inner })
    }

    /// Removes the baseline `name` (memory and disk). Returns whether it existed.
    fn remove(&self, py: Python<'_>, name: PyBackedStr) -> RdResult<bool> {
        Ok(py.detach(|| self.inner.remove(&name))?)
    }

    /// Names of the baselines, in memory or on disk, sorted.
    fn names(&self, py: Python<'_>) -> Vec<String> {
        py.detach(|| self.inner.names())
    }

    /// Bytes of fingerprint JSON held in memory.
    fn memory_usage(&self) -> usize {
        self.inner.memory_usage()
    }

    /// The persistence directory, if any.
    #[getter]
    fn directory(&self) -> Option<PathBuf> {
        self.inner.directory().map(PathBuf::from)
    }

    /// Named baselines held in memory.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let s = &self.inner;
        let dir = s.directory().map(|d| d.display().to_string());
        format!(
            "BaselineStore(directory={}, baselines={}, memory_usage={})",
            repr(py, dir.as_deref()),
            s.len(),
            s.memory_usage()
        )
    }
}
