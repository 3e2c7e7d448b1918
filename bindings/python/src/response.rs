//! `render_response`: a response's sections as Markdown under an
//! expectation; `diff_against_base`: a state against a base the agent holds.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBytes, PyDict, PyString};
use response_diff::expectation::Expectation;
use response_diff::response::{
    self, BaseDiff, DiffTarget, Image, REBASE_SHARE, RenderedResponse, Response, render,
};

use crate::convert::{Keys, to_json, to_py, to_string};
use crate::diff::{PyDetector, PyDiffResult, py_bool, settings};
use crate::errors::RdResult;
use crate::expectation::layers;

/// An image content item (resized and re-encoded per `imageOptions`).
#[pyclass(name = "Image", module = "response_diff", frozen)]
pub struct PyImage {
    inner: Image,
}

#[pymethods]
impl PyImage {
    #[getter]
    fn mime_type(&self) -> &str {
        &self.inner.mime_type
    }
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.data)
    }
    /// `{"mimeType", "data"}` with `data` in base64, as in JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner)
    }
    fn to_json(&self) -> String {
        to_string(&self.inner)
    }
    fn __repr__(&self) -> String {
        format!(
            "Image(mime_type='{}', {} bytes)",
            self.inner.mime_type,
            self.inner.data.len()
        )
    }
}

/// A rendered response.
#[pyclass(name = "RenderedResponse", module = "response_diff", frozen)]
pub struct PyRenderedResponse {
    inner: RenderedResponse,
}

#[pymethods]
impl PyRenderedResponse {
    #[getter]
    fn text(&self) -> &str {
        &self.inner.text
    }
    #[getter]
    fn images(&self) -> Vec<PyImage> {
        self.inner
            .images
            .iter()
            .map(|i| PyImage { inner: i.clone() })
            .collect()
    }
    #[getter]
    fn is_error(&self) -> bool {
        self.inner.is_error
    }
    #[getter]
    fn snapshot_diff(&self) -> Option<PyDiffResult> {
        self.inner.snapshot_diff.clone().map(PyDiffResult::from)
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner)
    }
    fn to_json(&self) -> String {
        to_string(&self.inner)
    }
    fn __str__(&self) -> &str {
        &self.inner.text
    }
    fn __repr__(&self) -> String {
        format!(
            "RenderedResponse({} characters, {} images, is_error={}, snapshot_diff={})",
            self.inner.text.chars().count(),
            self.inner.images.len(),
            py_bool(self.inner.is_error),
            self.inner
                .snapshot_diff
                .as_ref()
                .map_or("None".to_owned(), |d| format!("'{}'", d.mode.as_str()))
        )
    }
}

/// Renders `response` (a dict or JSON string) under `tool`'s defaults merged
/// with `expectation` (one layer or a list of layers, lowest first). With a
/// `detector` and `key` and `diffOptions.enabled` on, the snapshot is diffed
/// against the previous one under `key`.
#[pyfunction]
#[pyo3(signature = (response, tool, expectation=None, *, detector=None, key=None))]
pub fn render_response(
    py: Python<'_>,
    response: &Bound<'_, PyAny>,
    tool: &str,
    expectation: Option<&Bound<'_, PyAny>>,
    detector: Option<&Bound<'_, PyDetector>>,
    key: Option<PyBackedStr>,
) -> RdResult<PyRenderedResponse> {
    let json = match response.cast::<PyString>() {
        Ok(s) => s.to_cow()?.into_owned(),
        Err(_) => to_json(response, Keys::Camel, "response")?.to_string(),
    };
    let layers = layers(expectation)?;
    let detector = match (detector, key) {
        (None, _) => None,
        (Some(d), Some(k)) => Some((d.get(), k)),
        (Some(_), None) => {
            return Err(
                PyTypeError::new_err("render_response: `key` is required with `detector`").into(),
            );
        }
    };
    let rendered = py.detach(|| {
        let response = Response::from_json(&json)?;
        let refs: Vec<&Expectation> = layers.iter().collect();
        let exp = Expectation::resolve(tool, &refs)?;
        let target = detector.as_ref().map(|(d, k)| DiffTarget {
            detector: &d.inner,
            key: k,
        });
        render(&response, &exp, target)
    })?;
    Ok(PyRenderedResponse { inner: rendered })
}

/// What to send for a state against a base the agent holds: the core's
/// `response::diff_against_base` (docs/DECISIONS.md D61).
#[pyclass(name = "BaseDiff", module = "response_diff", frozen)]
pub struct PyBaseDiff {
    inner: BaseDiff,
}

#[pymethods]
impl PyBaseDiff {
    #[getter]
    fn rebase(&self) -> bool {
        self.inner.rebase
    }
    #[getter]
    fn text(&self) -> &str {
        &self.inner.text
    }
    #[getter]
    fn mode(&self) -> &'static str {
        self.inner.mode.as_str()
    }
    fn __str__(&self) -> &str {
        &self.inner.text
    }
    fn __repr__(&self) -> String {
        format!(
            "BaseDiff(rebase={}, mode='{}', {} characters)",
            py_bool(self.inner.rebase),
            self.inner.mode.as_str(),
            self.inner.text.chars().count()
        )
    }
}

/// `current` against the base the agent holds (`None`: none, or it no
/// longer applies): the diff in the core's words, or a rebase. Options as
/// for `DiffOptions`; `rebase_share` defaults to `REBASE_SHARE`.
#[pyfunction]
#[pyo3(signature = (base, current, options=None, /, *, base_name, rebase_share=None, **kwargs))]
pub fn diff_against_base(
    py: Python<'_>,
    base: Option<PyBackedStr>,
    current: PyBackedStr,
    options: Option<&Bound<'_, PyAny>>,
    base_name: PyBackedStr,
    rebase_share: Option<f64>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> RdResult<PyBaseDiff> {
    let rebase_share = rebase_share.unwrap_or(REBASE_SHARE);
    if !(0.0..=1.0).contains(&rebase_share) {
        return Err(response_diff::Error::invalid_option(
            "rebaseShare",
            format!("must be between 0 and 1, got {rebase_share}"),
        )
        .into());
    }
    let s = settings(options, kwargs)?;
    let inner = py.detach(|| {
        response::diff_against_base(base.as_deref(), &current, &s, &base_name, rebase_share)
    });
    Ok(PyBaseDiff { inner })
}
