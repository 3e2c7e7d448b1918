//! `Expectation`: validation, merge and per-tool resolution.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use response_diff::expectation::Expectation;

use crate::convert::{Keys, options_json, to_json, to_py, to_string};
use crate::errors::RdResult;

/// An expectation: which sections a response includes and how much of each.
#[pyclass(name = "Expectation", module = "response_diff", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyExpectation {
    pub inner: Expectation,
}

/// One expectation layer from a Python value, its fields named under `path`.
fn layer(value: &Bound<'_, PyAny>, path: &str) -> RdResult<Expectation> {
    if let Ok(e) = value.cast::<PyExpectation>() {
        return Ok(e.get().inner.clone());
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Expectation::from_json_at(&s.to_cow()?, path)?);
    }
    let v = to_json(value, Keys::Camel, path)?;
    Ok(Expectation::from_value_at(&v, path)?)
}

/// Expectation layers, lowest first: `None`, one layer, or a list/tuple of
/// layers (`[globalExpectation, stepExpectation]`).
pub fn layers(value: Option<&Bound<'_, PyAny>>) -> RdResult<Vec<Expectation>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    if value.cast::<PyList>().is_ok() || value.cast::<PyTuple>().is_ok() {
        let mut out = Vec::new();
        for (i, item) in value.try_iter()?.enumerate() {
            out.push(layer(&item?, &format!("layers[{i}]"))?);
        }
        return Ok(out);
    }
    Ok(vec![layer(value, "expectation")?])
}

#[pymethods]
impl PyExpectation {
    #[new]
    #[pyo3(signature = (expectation=None, /, **kwargs))]
    fn new(
        expectation: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> RdResult<Self> {
        if let Some(e) = expectation
            && let Ok(e) = e.cast::<PyExpectation>()
            && kwargs.is_none_or(|k| k.is_empty())
        {
            return Ok(e.get().clone());
        }
        let inner = match options_json("expectation", expectation, kwargs)? {
            None => Expectation::default(),
            Some(json) => Expectation::from_json(&json)?,
        };
        Ok(PyExpectation { inner })
    }

    /// The defaults of a tool.
    #[staticmethod]
    fn tool_default(tool: &str) -> Self {
        PyExpectation {
            inner: Expectation::tool_default(tool),
        }
    }

    /// `tool`'s defaults merged with `layers` (lowest first), every field set.
    #[staticmethod]
    #[pyo3(signature = (tool, *layers))]
    fn resolve(tool: &str, layers: &Bound<'_, PyTuple>) -> RdResult<Self> {
        let layers = self::layers(Some(layers.as_any()))?;
        let refs: Vec<&Expectation> = layers.iter().collect();
        let resolved = Expectation::resolve(tool, &refs)?;
        Ok(PyExpectation {
            inner: resolved.to_expectation(),
        })
    }

    /// A new expectation: this one with the fields `other` sets laid over it,
    /// nested option objects merged field by field.
    fn merge(&self, other: &Bound<'_, PyAny>) -> RdResult<Self> {
        let over = layer(other, "expectation")?;
        let mut inner = self.inner.clone();
        inner.merge(&over);
        Ok(PyExpectation { inner })
    }

    #[getter]
    fn include_snapshot(&self) -> Option<bool> {
        self.inner.include_snapshot
    }
    #[getter]
    fn include_console(&self) -> Option<bool> {
        self.inner.include_console
    }
    #[getter]
    fn include_downloads(&self) -> Option<bool> {
        self.inner.include_downloads
    }
    #[getter]
    fn include_tabs(&self) -> Option<bool> {
        self.inner.include_tabs
    }
    #[getter]
    fn include_code(&self) -> Option<bool> {
        self.inner.include_code
    }
    #[getter]
    fn snapshot_options<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .snapshot_options
            .as_ref()
            .map(|o| to_py(py, o))
            .transpose()
    }
    #[getter]
    fn console_options<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .console_options
            .as_ref()
            .map(|o| to_py(py, o))
            .transpose()
    }
    #[getter]
    fn image_options<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .image_options
            .as_ref()
            .map(|o| to_py(py, o))
            .transpose()
    }
    #[getter]
    fn diff_options<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .diff_options
            .as_ref()
            .map(|o| to_py(py, o))
            .transpose()
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner)
    }

    fn to_json(&self) -> String {
        to_string(&self.inner)
    }

    fn __repr__(&self) -> String {
        format!("Expectation({})", self.to_json())
    }
}
