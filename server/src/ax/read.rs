//! Reading a page: its AX tree (`Accessibility.getFullAXTree`), the DOM
//! facts that correct it, the trees of its same-process iframes and of
//! its out-of-process ones (each read like a page in its own session,
//! `crate::frames`), and what an AX node says (role, backend id, fields).
//! Playwright's rules here:
//! - a node Chromium ignored only for reasons Playwright does not have
//!   (not hidden) still shows its text;
//! - `<body>` is the snapshot's root, `[active]` when the document has
//!   focus and nothing in it does.

use std::collections::HashMap;

use anyhow::{Result, bail};
use serde_json::Value;

use super::dom::{DOM_SNAPSHOT_METHOD, DomFacts, DomNode, dom_snapshot_params};
use super::model::AxSnapshot;

/// Whether an ignored node was left out only for reasons Playwright does
/// not have (it was not hidden).
pub(super) fn ignored_as_text(n: &Value) -> bool {
    n.get("ignoredReasons")
        .and_then(Value::as_array)
        .is_some_and(|rs| {
            !rs.is_empty()
                && rs.iter().all(|r| {
                    matches!(
                        r.get("name").and_then(Value::as_str),
                        Some(
                            "labelFor" | "presentationalRole" | "uninteresting" | "labelContainer"
                        )
                    )
                })
        })
}

/// Whether an AX node has a boolean property (`focused`) set.
pub(super) fn has_true_property(n: &Value, name: &str) -> bool {
    n.get("properties")
        .and_then(Value::as_array)
        .is_some_and(|ps| {
            ps.iter().any(|p| {
                p.get("name").and_then(Value::as_str) == Some(name)
                    && p.pointer("/value/value") == Some(&Value::Bool(true))
            })
        })
}

/// Whether Chromium left a node out because of `aria-hidden`.
pub(super) fn hidden_by_aria(n: &Value) -> bool {
    n.get("ignoredReasons")
        .and_then(Value::as_array)
        .is_some_and(|rs| {
            rs.iter().any(|r| {
                matches!(
                    r.get("name").and_then(Value::as_str),
                    Some("ariaHiddenElement" | "ariaHiddenSubtree")
                )
            })
        })
}

/// `scheme://host[:port]` of an http(s) URL.
pub(super) fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(format!("{scheme}://{}", &rest[..host_end]))
}

pub(super) fn id_str(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A string-valued AX field (`name`, `value`, `description`).
pub(super) fn ax_string(n: &Value, field: &str) -> Option<String> {
    match n.get(field)?.get("value")? {
        Value::String(s) => Some(s.clone()),
        Value::Number(x) => Some(x.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

impl AxSnapshot {
    /// Parses the result of `Accessibility.getFullAXTree`. `page_url` is used
    /// to shorten same-origin link URLs to their path.
    pub fn parse(result: Value, page_url: Option<&str>) -> Result<AxSnapshot> {
        let nodes = match result {
            Value::Object(mut m) => match m.remove("nodes") {
                Some(Value::Array(a)) => a,
                _ => bail!("getFullAXTree returned no `nodes` array"),
            },
            _ => bail!("getFullAXTree returned no object"),
        };
        let mut by_id = HashMap::with_capacity(nodes.len());
        let mut by_backend = HashMap::with_capacity(nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            if let Some(id) = n.get("nodeId").and_then(id_str) {
                by_id.insert(id, i);
            }
            if let Some(b) = n.get("backendDOMNodeId").and_then(Value::as_i64) {
                // Keep the first (outermost) node of a DOM node.
                by_backend.entry(b).or_insert(i);
            }
        }
        let root = nodes
            .iter()
            .position(|n| n.get("parentId").is_none())
            .or(if nodes.is_empty() { None } else { Some(0) });
        let origin = page_url.and_then(origin_of);
        Ok(AxSnapshot {
            nodes,
            by_id,
            by_backend,
            root,
            origin,
            dom: DomFacts::default(),
            frames: HashMap::new(),
            remote: HashMap::new(),
            frame: 0,
            orphans: HashMap::new(),
            name_parts: Default::default(),
        })
    }

    /// Reads the current page of `page`: its AX tree (already fetched, as
    /// `raw_tree`), the DOM facts that correct it, the AX trees of its
    /// same-process iframes, and those of its out-of-process iframes, each
    /// read the same way in its own session (`crate::frames`). A DOM snapshot
    /// that fails leaves the AX tree as it is (the snapshot is still
    /// useful).
    pub fn read(
        page: &crate::browser::Page,
        raw_tree: Value,
        page_url: Option<&str>,
    ) -> Result<AxSnapshot> {
        AxSnapshot::read_at(page, raw_tree, page_url, 0)
    }

    fn read_at(
        page: &crate::browser::Page,
        raw_tree: Value,
        page_url: Option<&str>,
        depth: usize,
    ) -> Result<AxSnapshot> {
        let mut snap = AxSnapshot::parse(raw_tree, page_url)?;
        if depth < crate::frames::MAX_FRAME_DEPTH {
            for f in crate::frames::remote_frames(page) {
                if let Ok(raw) = f
                    .page
                    .call("Accessibility.getFullAXTree", serde_json::json!({}))
                    && let Ok(sub) = AxSnapshot::read_at(&f.page, raw, Some(&f.url), depth + 1)
                {
                    snap.add_remote(f.owner, f.number, sub);
                }
            }
        }
        let Ok(raw_dom) = page.call(DOM_SNAPSHOT_METHOD, dom_snapshot_params()) else {
            return Ok(snap);
        };
        let dom = DomFacts::parse(&raw_dom);
        let mut frames = HashMap::new();
        for (backend, frame_id) in &dom.frames {
            if let Ok(raw) = page.call(
                "Accessibility.getFullAXTree",
                serde_json::json!({ "frameId": frame_id }),
            ) && let Ok(sub) = AxSnapshot::parse(raw, page_url)
            {
                frames.insert(*backend, sub);
            }
        }
        Ok(snap.with_dom(dom, frames))
    }

    /// Adds DOM facts (and iframe trees by the iframe's backend id).
    pub fn with_dom(mut self, dom: DomFacts, frames: HashMap<i64, AxSnapshot>) -> AxSnapshot {
        self.frames = frames
            .into_iter()
            .map(|(b, mut f)| {
                f.dom = dom.clone();
                f.orphans = f.orphans(&f.dom);
                (b, f)
            })
            .collect();
        self.orphans = self.orphans(&dom);
        self.dom = dom;
        self
    }

    pub(super) fn children_of(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.nodes[i]
            .get("childIds")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(id_str)
            .filter_map(|id| self.by_id.get(&id).copied())
    }

    pub(super) fn role_of(&self, i: usize) -> &str {
        self.nodes[i]
            .pointer("/role/value")
            .and_then(Value::as_str)
            .unwrap_or("generic")
    }

    pub(super) fn backend_of(&self, i: usize) -> Option<i64> {
        self.nodes[i]
            .get("backendDOMNodeId")
            .and_then(Value::as_i64)
    }

    pub(super) fn dom_of(&self, i: usize) -> Option<&DomNode> {
        self.dom.get(self.backend_of(i))
    }

    /// Whether the document has focus and no element in it does.
    pub(super) fn root_focused(&self) -> bool {
        let focused = |n: &Value| {
            n.get("properties")
                .and_then(Value::as_array)
                .is_some_and(|ps| {
                    ps.iter().any(|p| {
                        p.get("name").and_then(Value::as_str) == Some("focused")
                            && p.pointer("/value/value") == Some(&Value::Bool(true))
                    })
                })
        };
        self.root.is_some_and(|r| {
            focused(&self.nodes[r])
                && !self
                    .nodes
                    .iter()
                    .enumerate()
                    .any(|(i, n)| i != r && focused(n))
        })
    }
}
