//! `response_diff.diff` in Python: the detector, diff options, results and
//! the formatter.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyDict;
use response_diff::diff::{self as core, DetectorConfig, DiffMetadata, DiffResult, DiffSettings};

use crate::convert::{options_json, to_py, to_string};
use crate::errors::RdResult;

/// `diffOptions` with every default filled in.
#[pyclass(name = "DiffOptions", module = "response_diff", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyDiffOptions {
    pub settings: DiffSettings,
}

/// Diff settings from `options` (a `DiffOptions`, a dict or a JSON string)
/// and keyword arguments, which override it.
pub fn settings(
    options: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> RdResult<DiffSettings> {
    let no_kwargs = kwargs.is_none_or(|k| k.is_empty());
    if let Some(o) = options
        && let Ok(o) = o.cast::<PyDiffOptions>()
        && no_kwargs
    {
        return Ok(o.get().settings);
    }
    let json = options_json("diffOptions", options, kwargs)?;
    Ok(DiffSettings::from_optional_json(json.as_deref())?)
}

#[pymethods]
impl PyDiffOptions {
    #[new]
    #[pyo3(signature = (options=None, /, **kwargs))]
    fn new(
        options: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> RdResult<Self> {
        Ok(PyDiffOptions {
            settings: settings(options, kwargs)?,
        })
    }

    /// Whether hosts diff at all (the detector itself always diffs).
    #[getter]
    fn enabled(&self) -> bool {
        self.settings.enabled
    }

    #[getter]
    fn threshold(&self) -> f64 {
        self.settings.threshold
    }

    #[getter]
    fn format(&self) -> &'static str {
        self.settings.format.as_str()
    }

    #[getter]
    fn max_diff_lines(&self) -> usize {
        self.settings.max_diff_lines
    }

    #[getter]
    fn ignore_whitespace(&self) -> bool {
        self.settings.ignore_whitespace
    }

    #[getter]
    fn context(&self) -> usize {
        self.settings.context
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.settings)
    }

    fn to_json(&self) -> String {
        to_string(&self.settings)
    }

    fn __repr__(&self) -> String {
        let s = &self.settings;
        format!(
            "DiffOptions(enabled={}, threshold={:?}, format='{}', max_diff_lines={}, ignore_whitespace={}, context={})",
            py_bool(s.enabled),
            s.threshold,
            s.format,
            s.max_diff_lines,
            py_bool(s.ignore_whitespace),
            s.context
        )
    }
}

pub fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// Counts and hashes of a diff result.
#[pyclass(name = "DiffMetadata", module = "response_diff", frozen)]
pub struct PyDiffMetadata {
    inner: DiffMetadata,
}

#[pymethods]
impl PyDiffMetadata {
    #[getter]
    fn added_lines(&self) -> usize {
        self.inner.added_lines
    }
    #[getter]
    fn removed_lines(&self) -> usize {
        self.inner.removed_lines
    }
    #[getter]
    fn context_lines(&self) -> usize {
        self.inner.context_lines
    }
    #[getter]
    fn total_lines(&self) -> usize {
        self.inner.total_lines
    }
    #[getter]
    fn previous_hash(&self) -> Option<&str> {
        self.inner.previous_hash.as_deref()
    }
    #[getter]
    fn current_hash(&self) -> &str {
        &self.inner.current_hash
    }
    #[getter]
    fn stored(&self) -> bool {
        self.inner.stored
    }
    #[getter]
    fn budget_exhausted(&self) -> bool {
        self.inner.budget_exhausted
    }
    #[getter]
    fn exact(&self) -> bool {
        self.inner.exact
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner)
    }
    fn to_json(&self) -> String {
        to_string(&self.inner)
    }
    fn __repr__(&self) -> String {
        format!("DiffMetadata({})", self.to_json())
    }
}

/// What the detector returns.
#[pyclass(name = "DiffResult", module = "response_diff", frozen)]
pub struct PyDiffResult {
    pub inner: DiffResult,
}

impl From<DiffResult> for PyDiffResult {
    fn from(inner: DiffResult) -> Self {
        PyDiffResult { inner }
    }
}

#[pymethods]
impl PyDiffResult {
    #[getter]
    fn has_difference(&self) -> bool {
        self.inner.has_difference
    }
    #[getter]
    fn similarity(&self) -> f64 {
        self.inner.similarity
    }
    #[getter]
    fn change_ratio(&self) -> f64 {
        self.inner.change_ratio
    }
    #[getter]
    fn mode(&self) -> &'static str {
        self.inner.mode.as_str()
    }
    #[getter]
    fn formatted_diff(&self) -> &str {
        &self.inner.formatted_diff
    }
    #[getter]
    fn metadata(&self) -> PyDiffMetadata {
        PyDiffMetadata {
            inner: self.inner.metadata.clone(),
        }
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner)
    }
    fn to_json(&self) -> String {
        to_string(&self.inner)
    }
    fn __str__(&self) -> &str {
        &self.inner.formatted_diff
    }
    fn __repr__(&self) -> String {
        let m = &self.inner.metadata;
        format!(
            "DiffResult(mode='{}', similarity={:.3}, added_lines={}, removed_lines={}, total_lines={})",
            self.inner.mode.as_str(),
            self.inner.similarity,
            m.added_lines,
            m.removed_lines,
            m.total_lines
        )
    }
}

/// Keeps the previous response per key and returns only what changed.
#[pyclass(name = "ResponseDiffDetector", module = "response_diff", frozen)]
pub struct PyDetector {
    pub inner: core::ResponseDiffDetector,
}

#[pymethods]
impl PyDetector {
    #[new]
    #[pyo3(signature = (config=None, /, **kwargs))]
    fn new(
        config: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> RdResult<Self> {
        let config = match options_json("detectorConfig", config, kwargs)? {
            None => DetectorConfig::default(),
            Some(json) => DetectorConfig::from_json(&json)?,
        };
        Ok(PyDetector {
            inner: core::ResponseDiffDetector::with_config(config),
        })
    }

    #[pyo3(signature = (key, text, options=None, /, **kwargs))]
    fn detect(
        &self,
        py: Python<'_>,
        key: PyBackedStr,
        text: PyBackedStr,
        options: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> RdResult<PyDiffResult> {
        let s = settings(options, kwargs)?;
        let r = py.detach(|| self.inner.detect(&key, &text, &s))?;
        Ok(r.into())
    }

    fn store(&self, py: Python<'_>, key: PyBackedStr, text: PyBackedStr) -> RdResult<bool> {
        Ok(py.detach(|| self.inner.store(&key, &text))?)
    }

    fn previous(&self, key: &str) -> Option<String> {
        self.inner.previous(key).map(|t| t.to_string())
    }

    fn clear(&self, key: &str) -> bool {
        self.inner.clear(key)
    }

    fn clear_all(&self) {
        self.inner.clear_all()
    }

    fn memory_usage(&self) -> usize {
        self.inner.memory_usage()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __contains__(&self, key: &str) -> bool {
        self.inner.previous(key).is_some()
    }

    #[getter]
    fn max_stored_bytes(&self) -> usize {
        self.inner.config().max_stored_bytes
    }

    #[getter]
    fn max_input_bytes(&self) -> usize {
        self.inner.config().max_input_bytes
    }

    #[getter]
    fn deadline_ms(&self) -> Option<u128> {
        self.inner.config().deadline.map(|d| d.as_millis())
    }

    fn __repr__(&self) -> String {
        format!(
            "ResponseDiffDetector(keys={}, memory_usage={}, max_stored_bytes={})",
            self.inner.len(),
            self.inner.memory_usage(),
            self.inner.config().max_stored_bytes
        )
    }
}

/// Compares two texts without storing anything.
#[pyfunction]
#[pyo3(signature = (previous, current, options=None, /, **kwargs))]
pub fn compare_texts(
    py: Python<'_>,
    previous: Option<PyBackedStr>,
    current: PyBackedStr,
    options: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> RdResult<PyDiffResult> {
    let s = settings(options, kwargs)?;
    let r = py.detach(|| core::compare_texts(previous.as_deref(), &current, &s));
    Ok(r.into())
}

/// The line diff of two texts in one format (`format`, `context` and
/// `ignoreWhitespace`), without the decision rule: the function form of
/// [`PyDiffFormatter`], as Node's `formatDiff` and C's `rd_diff_format`.
#[pyfunction]
#[pyo3(signature = (old, new, options=None, /, **kwargs))]
pub fn format_diff(
    py: Python<'_>,
    old: PyBackedStr,
    new: PyBackedStr,
    options: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> RdResult<String> {
    let s = settings(options, kwargs)?;
    Ok(py.detach(|| core::format_diff(&old, &new, &s)))
}

/// Estimated tokens of `text` (UTF-8 bytes / 4, rounded up), as the core
/// and every binding count them.
#[pyfunction]
pub fn estimate_tokens(text: &str) -> usize {
    response_diff::tokens::estimate(text)
}

/// The line diff of two texts in one format, without the decision rule.
#[pyclass(name = "DiffFormatter", module = "response_diff", frozen)]
pub struct PyDiffFormatter {
    settings: DiffSettings,
}

#[pymethods]
impl PyDiffFormatter {
    #[new]
    #[pyo3(signature = (options=None, /, **kwargs))]
    fn new(
        options: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> RdResult<Self> {
        Ok(PyDiffFormatter {
            settings: settings(options, kwargs)?,
        })
    }

    /// The settings it formats with.
    #[getter]
    fn options(&self) -> PyDiffOptions {
        PyDiffOptions {
            settings: self.settings,
        }
    }

    /// Named `format_diff` in Rust; `format` in Python.
    #[pyo3(name = "format")]
    fn format_diff(&self, py: Python<'_>, old: PyBackedStr, new: PyBackedStr) -> String {
        let s = self.settings;
        py.detach(|| core::format_diff(&old, &new, &s))
    }

    fn __repr__(&self) -> String {
        format!(
            "DiffFormatter(format='{}', context={}, ignore_whitespace={})",
            self.settings.format,
            self.settings.context,
            py_bool(self.settings.ignore_whitespace)
        )
    }
}
