//! Accessibility trees: parse, print, select, diff, and `since` reads.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyDict;

use response_diff::tree::{
    self as core, Element, ReadOutcome, Selector, Tree, TreeDiffFormat, TreeDiffRequest,
};

use crate::convert::{data_json, json_to_py, options_json, repr};
use crate::errors::RdResult;

/// An accessibility tree (the roots of an aria snapshot).
#[pyclass(name = "Tree", module = "response_diff", frozen, eq)]
#[derive(PartialEq)]
pub struct PyTree {
    pub inner: Arc<Tree>,
}

impl PyTree {
    fn new(tree: Tree) -> Self {
        PyTree {
            inner: Arc::new(tree),
        }
    }
}

/// A tree from a `Tree`, or text: aria snapshot text, or the model's JSON
/// when it starts with `{` (as the C ABI reads it).
fn tree_arg(py: Python<'_>, value: &Bound<'_, PyAny>, lenient: bool) -> RdResult<Arc<Tree>> {
    if let Ok(t) = value.cast::<PyTree>() {
        return Ok(t.get().inner.clone());
    }
    let text: PyBackedStr = value.extract()?;
    let tree = py.detach(|| {
        if text.trim_start().starts_with('{') {
            Tree::from_json(&text)
        } else {
            core::parse_aria(&text, lenient)
        }
    })?;
    Ok(Arc::new(tree))
}

fn format_name(f: TreeDiffFormat) -> &'static str {
    match f {
        TreeDiffFormat::Yaml => "yaml",
        TreeDiffFormat::Json => "json",
        _ => "agent",
    }
}

/// Parses a snapshot text: Playwright's aria snapshot, or
/// chrome-devtools-mcp's when its first line starts with `uid=`. Malformed
/// lines are a `ParseError` with the line number, or text nodes when
/// `lenient`.
#[pyfunction]
#[pyo3(signature = (text, *, lenient=false))]
pub fn parse_snapshot(py: Python<'_>, text: PyBackedStr, lenient: bool) -> RdResult<PyTree> {
    Ok(PyTree::new(py.detach(|| core::parse_aria(&text, lenient))?))
}

#[pymethods]
impl PyTree {
    /// Same as `parse_snapshot`.
    #[staticmethod]
    #[pyo3(signature = (text, *, lenient=false))]
    fn parse(py: Python<'_>, text: PyBackedStr, lenient: bool) -> RdResult<Self> {
        parse_snapshot(py, text, lenient)
    }

    /// A tree from its JSON (a string, or the list `to_list()` returns).
    #[staticmethod]
    fn from_json(py: Python<'_>, json: &Bound<'_, PyAny>) -> RdResult<Self> {
        let json = data_json(json, "tree")?;
        Ok(PyTree::new(py.detach(|| Tree::from_json(&json))?))
    }

    /// The tree as aria snapshot text.
    fn to_aria(&self, py: Python<'_>) -> String {
        py.detach(|| self.inner.to_aria())
    }

    /// The tree as compact JSON: an array of elements.
    fn to_json(&self, py: Python<'_>) -> String {
        py.detach(|| self.inner.to_json())
    }

    /// The tree as a list of element dicts (the JSON form).
    fn to_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.to_json(py))
    }

    /// Top-level elements.
    #[getter]
    fn roots(&self) -> Vec<PyElement> {
        self.inner
            .roots
            .iter()
            .map(|e| PyElement { inner: e.clone() })
            .collect()
    }

    /// The first element matching a selector: a ref (`e12`) or a role with
    /// an optional quoted name (`button "Submit"`).
    fn find(&self, selector: PyBackedStr) -> RdResult<Option<PyElement>> {
        let sel = Selector::parse(&selector)?;
        Ok(self
            .inner
            .find(&sel)
            .map(|e| PyElement { inner: e.clone() }))
    }

    /// Number of elements.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __str__(&self, py: Python<'_>) -> String {
        self.to_aria(py)
    }

    fn __repr__(&self) -> String {
        format!("Tree({} elements)", self.inner.len())
    }
}

/// One element of a tree.
#[pyclass(name = "Element", module = "response_diff", frozen, eq)]
#[derive(PartialEq)]
pub struct PyElement {
    inner: Element,
}

#[pymethods]
impl PyElement {
    #[getter]
    fn role(&self) -> &str {
        &self.inner.role
    }
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[getter]
    fn value(&self) -> Option<&str> {
        self.inner.value.as_deref()
    }
    #[getter]
    fn description(&self) -> Option<&str> {
        self.inner.description.as_deref()
    }
    #[getter(r#ref)]
    fn aria_ref(&self) -> Option<&str> {
        self.inner.aria_ref.as_deref()
    }
    /// Bracketed attributes: a bare flag is `True`, a valued one a string.
    #[getter]
    fn states<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in &self.inner.states {
            match &s.value {
                None => d.set_item(&s.name, true)?,
                Some(v) => d.set_item(&s.name, v)?,
            }
        }
        Ok(d)
    }
    /// Property lines (`/url`, `/placeholder`), names without the slash.
    #[getter]
    fn props<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for p in &self.inner.props {
            d.set_item(&p.name, &p.value)?;
        }
        Ok(d)
    }
    /// `(x, y, width, height)`, if known.
    #[getter]
    fn bounds(&self) -> Option<(f64, f64, f64, f64)> {
        self.inner.bounds.map(|b| (b.x, b.y, b.width, b.height))
    }
    #[getter]
    fn children(&self) -> Vec<PyElement> {
        self.inner
            .children
            .iter()
            .map(|e| PyElement { inner: e.clone() })
            .collect()
    }
    /// The element and its subtree as aria snapshot text.
    fn to_aria(&self) -> String {
        self.inner.to_aria()
    }
    /// The element as a dict (its JSON form).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.to_json())
    }
    fn to_json(&self) -> String {
        serde_json::to_string(&self.inner).unwrap_or_default()
    }
    fn __len__(&self) -> usize {
        self.inner.count()
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        let first = self.inner.to_aria();
        let first = first.lines().next().unwrap_or_default();
        format!("Element({})", repr(py, Some(first)))
    }
}

/// One field change of a matched element.
#[pyclass(name = "TreeChange", module = "response_diff", frozen)]
pub struct PyTreeChange {
    inner: core::TreeChange,
}

#[pymethods]
impl PyTreeChange {
    #[getter(r#ref)]
    fn aria_ref(&self) -> Option<&str> {
        self.inner.aria_ref.as_deref()
    }
    #[getter]
    fn role(&self) -> &str {
        &self.inner.role
    }
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    /// `name`, `value`, `state:checked`, `prop:url`, `ref`, `parent`, …
    #[getter]
    fn field(&self) -> String {
        self.inner.field.key().into_owned()
    }
    /// The old value (`from` in JSON); None when absent.
    #[getter]
    fn from_(&self) -> Option<&str> {
        self.inner.from.as_deref()
    }
    /// The new value; None when absent.
    #[getter]
    fn to(&self) -> Option<&str> {
        self.inner.to.as_deref()
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        let c = &self.inner;
        format!(
            "TreeChange(ref={}, role={}, field={}, from_={}, to={})",
            repr(py, c.aria_ref.as_deref()),
            repr(py, Some(&c.role)),
            repr(py, Some(&c.field.key())),
            repr(py, c.from.as_deref()),
            repr(py, c.to.as_deref())
        )
    }
}

/// What changed between two trees.
#[pyclass(name = "TreeDiff", module = "response_diff", frozen)]
pub struct PyTreeDiff {
    inner: core::TreeDiff,
    /// The `format` the diff was asked for: `render()` and `str()` use it.
    format: TreeDiffFormat,
    /// When the diff was made (ms since the epoch): the default `ts`.
    ts: u64,
}

fn diff_format(format: Option<&str>, default: TreeDiffFormat) -> RdResult<TreeDiffFormat> {
    Ok(match format {
        None => default,
        Some(f) => f.parse::<TreeDiffFormat>()?,
    })
}

#[pymethods]
impl PyTreeDiff {
    /// Elements only in the new tree, in document order, each without its
    /// children (added children have entries of their own).
    #[getter]
    fn added(&self) -> Vec<PyElement> {
        self.inner
            .added
            .iter()
            .map(|a| PyElement {
                inner: a.element.clone(),
            })
            .collect()
    }
    /// Elements only in the old tree (every one, descendants included), each
    /// without its children.
    #[getter]
    fn removed(&self) -> Vec<PyElement> {
        self.inner
            .removed
            .iter()
            .map(|r| PyElement {
                inner: r.element.clone(),
            })
            .collect()
    }
    #[getter]
    fn changed(&self) -> Vec<PyTreeChange> {
        self.inner
            .changed
            .iter()
            .map(|c| PyTreeChange { inner: c.clone() })
            .collect()
    }
    #[getter]
    fn unchanged_count(&self) -> usize {
        self.inner.unchanged_count
    }
    #[getter]
    fn refs_renumbered(&self) -> usize {
        self.inner.refs_renumbered
    }
    /// Whether nothing was added, removed or changed.
    fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }
    /// `+ - ~` lines for an agent, last `# N elements unchanged`.
    fn to_agent(&self) -> String {
        self.inner.to_agent()
    }
    /// When the diff was made (ms since the epoch); the default `ts` of
    /// the YAML and JSON forms.
    #[getter]
    fn ts(&self) -> u64 {
        self.ts
    }
    /// The format asked for (`agent` by default): what `str()` renders.
    #[getter]
    fn format(&self) -> &'static str {
        format_name(self.format)
    }
    #[pyo3(signature = (ts=None, since=None))]
    fn to_yaml(&self, ts: Option<u64>, since: Option<u64>) -> String {
        self.inner.to_yaml(ts.unwrap_or(self.ts), since)
    }
    #[pyo3(signature = (ts=None, since=None))]
    fn to_json(&self, ts: Option<u64>, since: Option<u64>) -> String {
        self.inner.to_json(ts.unwrap_or(self.ts), since)
    }
    /// `{"ts", "since", "diff": {"added", "removed", "changed", "unchanged_count"}}`.
    #[pyo3(signature = (ts=None, since=None))]
    fn to_dict<'py>(
        &self,
        py: Python<'py>,
        ts: Option<u64>,
        since: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.to_json(ts, since))
    }
    /// Renders as `agent`, `yaml` or `json` (default: the format asked for).
    #[pyo3(signature = (format=None, ts=None, since=None))]
    fn render(
        &self,
        format: Option<&str>,
        ts: Option<u64>,
        since: Option<u64>,
    ) -> RdResult<String> {
        let format = diff_format(format, self.format)?;
        Ok(self.inner.render(format, ts.unwrap_or(self.ts), since))
    }
    fn __str__(&self) -> String {
        self.inner.render(self.format, self.ts, None)
    }
    fn __repr__(&self) -> String {
        format!(
            "TreeDiff(added={}, removed={}, changed={}, unchanged_count={})",
            self.inner.added.len(),
            self.inner.removed.len(),
            self.inner.changed.len(),
            self.inner.unchanged_count
        )
    }
}

/// Tree diff options: the core's `treeDiffOptions` JSON (`format`,
/// `identity`, `roles`, `prune`, `scope`, `compareBounds`, `lenient`).
fn request(
    options: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> RdResult<TreeDiffRequest> {
    Ok(match options_json("treeDiffOptions", options, kwargs)? {
        None => TreeDiffRequest::default(),
        Some(json) => TreeDiffRequest::from_json(&json)?,
    })
}

/// Diffs two trees (`Tree`s or aria snapshot text).
#[pyfunction]
#[pyo3(signature = (old, new, options=None, /, **kwargs))]
pub fn tree_diff(
    py: Python<'_>,
    old: &Bound<'_, PyAny>,
    new: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> RdResult<PyTreeDiff> {
    let req = request(options, kwargs)?;
    let old = tree_arg(py, old, req.lenient)?;
    let new = tree_arg(py, new, req.lenient)?;
    let inner = py.detach(|| core::diff_with(&old, &new, &req.options));
    Ok(PyTreeDiff {
        inner,
        format: req.format,
        ts: core::now_ts(),
    })
}

/// Applies a snapshot patch (the body of a `Page snapshot (patch since …)`
/// section) to the aria snapshot it was taken from; returns the new text.
/// `seen`: the snapshots the agent was shown earlier (oldest first), for
/// elements the patch restores `as last shown`.
#[pyfunction]
#[pyo3(signature = (previous, patch, seen=None))]
pub fn apply_snapshot_patch(
    py: Python<'_>,
    previous: &str,
    patch: &str,
    seen: Option<Vec<PyBackedStr>>,
) -> RdResult<String> {
    let seen = seen.unwrap_or_default();
    let seen: Vec<&str> = seen.iter().map(|s| &**s).collect();
    Ok(py.detach(|| core::apply_patch_with(previous, patch, &seen))?)
}

/// A snapshot patch and what it says.
#[pyclass(name = "SnapshotPatch", module = "response_diff", frozen)]
pub struct PySnapshotPatch {
    inner: core::SnapshotPatch,
}

#[pymethods]
impl PySnapshotPatch {
    /// The patch text.
    #[getter]
    fn text(&self) -> &str {
        &self.inner.text
    }
    /// Elements whose own line changed (or that gained or lost `[active]`).
    #[getter]
    fn changed(&self) -> usize {
        self.inner.changed
    }
    /// Elements added, descendants and restored ones included.
    #[getter]
    fn added(&self) -> usize {
        self.inner.added
    }
    /// Of the added elements, those restored by reference.
    #[getter]
    fn restored(&self) -> usize {
        self.inner.restored
    }
    /// Elements removed, descendants included.
    #[getter]
    fn removed(&self) -> usize {
        self.inner.removed
    }
    /// Elements that took another place as they were: among their siblings (`~ order`) or under another parent.
    #[getter]
    fn moved(&self) -> usize {
        self.inner.moved
    }
    /// Elements the same in both.
    #[getter]
    fn unchanged(&self) -> usize {
        self.inner.unchanged
    }
    /// `4 changed (~), 3 added (+), 1 removed (-), 266 unchanged`.
    fn summary(&self) -> String {
        self.inner.summary()
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.to_json())
    }
    fn __str__(&self) -> String {
        self.inner.text.clone()
    }
    fn __repr__(&self) -> String {
        format!("SnapshotPatch({})", self.inner.summary())
    }
}

/// The snapshot patch from `old` to `new`, or None when the change cannot
/// be said by ref (use a line diff). `seen`: the snapshots the agent was
/// shown earlier in the conversation (oldest first), whose elements may be
/// restored by reference unless `restore` is False.
#[pyfunction]
#[pyo3(signature = (old, new, *, seen=None, restore=true))]
pub fn snapshot_patch(
    py: Python<'_>,
    old: &str,
    new: &str,
    seen: Option<Vec<PyBackedStr>>,
    restore: bool,
) -> Option<PySnapshotPatch> {
    let seen = seen.unwrap_or_default();
    let options = core::PatchOptions::seen(seen.iter().map(|s| &**s).collect()).restore(restore);
    py.detach(|| core::snapshot_patch_with(old, new, &options))
        .map(|inner| PySnapshotPatch { inner })
}

/// A snapshot with its refs carried over, and the mapping node id → ref.
#[pyclass(name = "RefCarry", module = "response_diff", frozen)]
pub struct PyRefCarry {
    inner: core::RefCarry,
}

#[pymethods]
impl PyRefCarry {
    /// The snapshot as aria text, with the carried refs.
    #[getter]
    fn snapshot(&self, py: Python<'_>) -> String {
        py.detach(|| self.inner.tree.to_aria())
    }
    /// The snapshot as a `Tree`.
    #[getter]
    fn tree(&self) -> PyTree {
        PyTree::new(self.inner.tree.clone())
    }
    /// Node id → ref for every element with a node id, in document order.
    #[getter]
    fn refs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (id, r) in &self.inner.refs {
            d.set_item(id, r)?;
        }
        Ok(d)
    }
    /// Elements that kept a ref from an earlier view.
    #[getter]
    fn carried(&self) -> usize {
        self.inner.carried
    }
    /// Elements that got a new ref.
    #[getter]
    fn fresh(&self) -> usize {
        self.inner.fresh
    }
    /// The ref of the element with this node id.
    fn ref_of(&self, node_id: &str) -> Option<String> {
        self.inner.ref_of(node_id).map(str::to_owned)
    }
    fn to_json(&self) -> String {
        self.inner.to_json()
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.to_json())
    }
    fn __repr__(&self) -> String {
        format!(
            "RefCarry(carried={}, fresh={})",
            self.inner.carried, self.inner.fresh
        )
    }
}

/// Keeps the recent views of each page and carries refs over to new
/// snapshots of it. Thread-safe.
#[pyclass(name = "RefCarrier", module = "response_diff", frozen)]
pub struct PyRefCarrier {
    inner: core::RefCarrier,
}

#[pymethods]
impl PyRefCarrier {
    #[new]
    #[pyo3(signature = (*, views_per_key=8, max_stored_bytes=8388608, stable_ids=false))]
    fn new(views_per_key: usize, max_stored_bytes: usize, stable_ids: bool) -> RdResult<Self> {
        // Validated as the JSON form every binding accepts.
        let config = core::CarrierConfig::from_json(&format!(
            r#"{{"viewsPerKey": {views_per_key}, "maxStoredBytes": {max_stored_bytes}, "stableIds": {stable_ids}}}"#
        ))?;
        Ok(PyRefCarrier {
            inner: core::RefCarrier::with_config(config),
        })
    }

    /// Gives the elements of `snapshot` (page `key`, refs = the host's node
    /// ids) the refs they had in the recent views of `key`, new refs to new
    /// elements, and records it as the newest view.
    fn carry(
        &self,
        py: Python<'_>,
        key: PyBackedStr,
        snapshot: &Bound<'_, PyAny>,
    ) -> RdResult<PyRefCarry> {
        let tree = tree_arg(py, snapshot, false)?;
        let inner = py.detach(|| self.inner.carry(&key, &tree))?;
        Ok(PyRefCarry { inner })
    }

    /// The page's own ref (the host's node id) that `carried_ref`, as the
    /// agent was shown it, names in the latest view of `key`; None when
    /// that view did not show it.
    fn source_ref(&self, key: PyBackedStr, carried_ref: PyBackedStr) -> Option<String> {
        self.inner.source_ref(&key, &carried_ref)
    }

    /// Forgets `key`; returns whether it was kept.
    fn clear(&self, key: PyBackedStr) -> bool {
        self.inner.clear(&key)
    }

    /// Bytes charged against `max_stored_bytes`.
    fn memory_usage(&self) -> usize {
        self.inner.memory_usage()
    }
}

/// The carrier key of a tab's page: the tab, U+001F, and the URL without
/// its fragment.
#[pyfunction]
pub fn carrier_key(tab: &str, url: &str) -> String {
    core::carrier_key(tab, url)
}

/// Carries refs without a store: `previous` are the earlier snapshots as
/// the agent saw them (oldest first), `snapshot` the new one with the
/// host's node ids.
#[pyfunction]
#[pyo3(signature = (previous, snapshot, *, stable_ids=false))]
pub fn carry_refs(
    py: Python<'_>,
    previous: Vec<Bound<'_, PyAny>>,
    snapshot: &Bound<'_, PyAny>,
    stable_ids: bool,
) -> RdResult<PyRefCarry> {
    let previous: Vec<Arc<Tree>> = previous
        .iter()
        .map(|t| tree_arg(py, t, false))
        .collect::<RdResult<_>>()?;
    let tree = tree_arg(py, snapshot, false)?;
    let inner = py.detach(|| {
        let refs: Vec<&Tree> = previous.iter().map(|t| &**t).collect();
        core::carry_refs(&refs, &tree, core::CarryOptions::stable_ids(stable_ids))
    })?;
    Ok(PyRefCarry { inner })
}

/// In-memory `since` store: the last few trees per page key.
#[pyclass(name = "SinceStore", module = "response_diff", frozen)]
pub struct PySinceStore {
    inner: core::SinceStore,
}

/// The result of a `since` read.
#[pyclass(name = "SinceRead", module = "response_diff", frozen)]
pub struct PySinceRead {
    inner: core::SinceRead,
    /// The `format` the read was asked for: `render()` and `str()` use it.
    format: TreeDiffFormat,
}

#[pymethods]
impl PySinceStore {
    #[new]
    #[pyo3(signature = (*, per_key=8, keys=256))]
    fn new(per_key: usize, keys: usize) -> Self {
        PySinceStore {
            inner: core::SinceStore::with_config(
                core::SinceStoreConfig::default()
                    .per_key(per_key)
                    .keys(keys),
            ),
        }
    }

    /// Records `tree` as the latest read of `key` and returns it as a diff
    /// against the read `since` (if still kept), else in full with a notice.
    #[pyo3(signature = (key, tree, since=None, options=None, /, **kwargs))]
    fn read(
        &self,
        py: Python<'_>,
        key: PyBackedStr,
        tree: &Bound<'_, PyAny>,
        since: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> RdResult<PySinceRead> {
        let since = since_ts(since)?;
        let req = request(options, kwargs)?;
        let tree = tree_arg(py, tree, req.lenient)?;
        let inner = py.detach(|| {
            let tree = Arc::try_unwrap(tree).unwrap_or_else(|t| (*t).clone());
            self.inner.read(&key, tree, since, &req.options)
        });
        Ok(PySinceRead {
            inner,
            format: req.format,
        })
    }

    /// Forgets every tree of `key`.
    fn clear(&self, key: PyBackedStr) {
        self.inner.clear(&key)
    }
}

/// `since` as a millisecond timestamp: `InvalidOptionError` (not a bare
/// `OverflowError`) for a negative or oversized number.
fn since_ts(since: Option<&Bound<'_, PyAny>>) -> RdResult<Option<u64>> {
    let Some(v) = since.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    match v.extract::<u64>() {
        Ok(ts) => Ok(Some(ts)),
        Err(_) => Err(response_diff::Error::invalid_option(
            "since",
            format!(
                "{} is not a read's ts: use a non-negative integer of milliseconds (the `ts` of an earlier read)",
                v.repr().map_or_else(|_| "the value".to_owned(), |r| r.to_string())
            ),
        )
        .into()),
    }
}

#[pymethods]
impl PySinceRead {
    /// This read's timestamp (ms); pass it as `since` next time.
    #[getter]
    fn ts(&self) -> u64 {
        self.inner.ts
    }
    #[getter]
    fn since(&self) -> Option<u64> {
        self.inner.since
    }
    /// Why this is the full tree and not a diff, if it is.
    #[getter]
    fn notice(&self) -> Option<&str> {
        self.inner.notice()
    }
    /// The diff, or None when this read is the full tree.
    #[getter]
    fn diff(&self) -> Option<PyTreeDiff> {
        match &self.inner.outcome {
            ReadOutcome::Diff(d) => Some(PyTreeDiff {
                inner: d.clone(),
                format: self.format,
                ts: self.inner.ts,
            }),
            _ => None,
        }
    }
    /// The full (filtered) tree, or None when this read is a diff.
    #[getter]
    fn tree(&self) -> Option<PyTree> {
        match &self.inner.outcome {
            ReadOutcome::Full { tree, .. } => Some(PyTree {
                inner: tree.clone(),
            }),
            _ => None,
        }
    }
    /// Renders as `agent`, `yaml` or `json` (default: the format asked for).
    #[pyo3(signature = (format=None))]
    fn render(&self, format: Option<&str>) -> RdResult<String> {
        Ok(self.inner.render(diff_format(format, self.format)?))
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.render(TreeDiffFormat::Json))
    }
    fn to_json(&self) -> String {
        self.inner.render(TreeDiffFormat::Json)
    }
    fn __str__(&self) -> String {
        self.inner.render(self.format)
    }
    fn __repr__(&self) -> String {
        let kind = match &self.inner.outcome {
            ReadOutcome::Diff(_) => "diff",
            _ => "full",
        };
        let since = self
            .inner
            .since
            .map_or("None".to_owned(), |s| s.to_string());
        format!("SinceRead(ts={}, since={since}, {kind})", self.inner.ts)
    }
}
