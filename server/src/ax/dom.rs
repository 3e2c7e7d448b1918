//! The DOM snapshot (`DOMSnapshot.captureSnapshot`) as facts by backend
//! node id: what Playwright reads and Chromium's AX tree does not carry or
//! keeps stale (an `<option>`'s selectedness, computed display, visibility
//! and cursor, CSS content, `<label for>`, the DOM walk of what Chromium
//! prunes). Playwright's rules read from these facts:
//! - a node Playwright would give a ref has a box of non-zero size, is
//!   visible and takes pointer events;
//! - a click target root has `cursor: pointer` and its parent's cursor is
//!   not `pointer`;
//! - `::before`/`::after` text is a quoted CSS `content`.

use std::collections::HashMap;

use serde_json::Value;

/// Deepest nesting converted; deeper subtrees are cut (the core's limit is 1000).
pub(super) const MAX_DEPTH: usize = 900;

/// The CDP method for [`DomFacts`] and its parameters.
pub const DOM_SNAPSHOT_METHOD: &str = "DOMSnapshot.captureSnapshot";

/// Parameters of [`DOM_SNAPSHOT_METHOD`]: the computed styles [`DomFacts`] reads.
pub fn dom_snapshot_params() -> Value {
    serde_json::json!({
        "computedStyles": ["display", "content", "visibility", "pointer-events", "cursor"],
    })
}

/// What the DOM says about the elements of a page (all its documents), by
/// backend node id: what Playwright reads and Chromium's AX tree does not
/// carry or keeps stale.
#[derive(Debug, Default, Clone)]
pub struct DomFacts {
    pub(super) nodes: std::sync::Arc<HashMap<i64, DomNode>>,
    /// Each node's closest element ancestor (across shadow roots), by
    /// backend id.
    pub(super) parent: std::sync::Arc<HashMap<i64, i64>>,
    /// Text nodes' text, by backend id.
    pub(super) text: std::sync::Arc<HashMap<i64, String>>,
    /// Each node's place in document order (text nodes and elements).
    pub(super) order: std::sync::Arc<HashMap<i64, usize>>,
    /// The places of whitespace-only text nodes, ascending.
    pub(super) blanks: std::sync::Arc<Vec<usize>>,
    /// `(iframe element's backend id, frame id)` of each child document.
    pub(super) frames: Vec<(i64, String)>,
    /// Each element's child nodes (elements, text, pseudo-elements; a
    /// shadow root's children under its host), in document order, by
    /// backend id: the DOM walk of content Chromium prunes.
    pub(super) kids: std::sync::Arc<HashMap<i64, Vec<i64>>>,
    /// The first `<label for>` of each id.
    pub(super) label_for: std::sync::Arc<HashMap<String, i64>>,
    /// Every `<label for>` of each id, in document order.
    pub(super) labels_for: std::sync::Arc<HashMap<String, Vec<i64>>>,
    /// The first element of each id (aria-labelledby targets).
    pub(super) ids: std::sync::Arc<HashMap<String, i64>>,
    /// Elements and text nodes that have a layout box.
    pub(super) laid_out: std::sync::Arc<std::collections::HashSet<i64>>,
    /// Elements that host a shadow root (the accessible-name walk from
    /// the DOM leaves those to Chromium: slot assignment is not in the
    /// DOM snapshot).
    pub(super) shadow_hosts: std::sync::Arc<std::collections::HashSet<i64>>,
}

#[derive(Debug, Default)]
pub(super) struct DomNode {
    pub(super) tag: String,
    pub(super) attrs: Vec<(String, String)>,
    pub(super) value: Option<String>,
    pub(super) option_selected: bool,
    /// `display` is `inline` (or the element has no box).
    pub(super) inline: bool,
    /// The element has exactly one child node and it is text.
    pub(super) only_text_child: bool,
    /// The closest `<optgroup>` ancestor is disabled.
    pub(super) in_disabled_optgroup: bool,
    /// The text of its `::before` and `::after` (a quoted CSS `content`).
    pub(super) pseudo_text: Vec<String>,
    /// It has a box of non-zero size, is visible and takes pointer events.
    pub(super) targetable: bool,
    /// It has a box of non-zero size and is visible.
    pub(super) visible: bool,
    /// Its computed `cursor` is `pointer`.
    pub(super) pointer: bool,
    /// Playwright's click target root: it would get a ref, its cursor is
    /// `pointer` and its parent's is not (the cursor is inherited, so the
    /// parent is where an ancestor click target would show).
    pub(super) click_root: bool,
    /// A `::before`/`::after` pseudo-element's text (a quoted CSS `content`).
    pub(super) css_text: Option<String>,
    /// Its computed `display` and `visibility` (laid-out elements only).
    pub(super) display: Option<String>,
    pub(super) visibility: Option<String>,
    /// A pseudo-element's computed `content`, as CSS.
    pub(super) content: Option<String>,
    /// Its (first) box in its document's viewport: `[x, y, width, height]`
    /// in CSS pixels, as `getBoundingClientRect` gives it.
    pub(super) bounds: Option<[f64; 4]>,
}

impl DomNode {
    pub(super) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl DomFacts {
    /// Parses the result of `DOMSnapshot.captureSnapshot` (called with
    /// [`dom_snapshot_params`]). Anything missing reads as "no fact".
    pub fn parse(v: &Value) -> DomFacts {
        let strings: Vec<&str> = v
            .get("strings")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(|s| s.as_str().unwrap_or("")).collect())
            .unwrap_or_default();
        let s = |i: &Value| -> Option<String> {
            i.as_i64()
                .filter(|&i| i >= 0)
                .and_then(|i| strings.get(i as usize))
                .map(|s| (*s).to_owned())
        };
        let ints = |v: Option<&Value>| -> Vec<i64> {
            v.and_then(Value::as_array)
                .map(|a| a.iter().map(|x| x.as_i64().unwrap_or(-1)).collect())
                .unwrap_or_default()
        };
        let mut nodes = HashMap::new();
        let mut parents = HashMap::new();
        let mut texts = HashMap::new();
        let mut order = HashMap::new();
        let mut blanks = Vec::new();
        let mut base = 0usize;
        let mut frames = Vec::new();
        let mut kids: HashMap<i64, Vec<i64>> = HashMap::new();
        let mut label_for: HashMap<String, i64> = HashMap::new();
        let mut labels_for: HashMap<String, Vec<i64>> = HashMap::new();
        let mut ids: HashMap<String, i64> = HashMap::new();
        let mut laid_out = std::collections::HashSet::new();
        let mut shadow_hosts = std::collections::HashSet::new();
        let docs = v.get("documents").and_then(Value::as_array);
        let frame_ids: Vec<Option<String>> = docs
            .into_iter()
            .flatten()
            .map(|d| d.get("frameId").and_then(&s))
            .collect();
        for doc in docs.into_iter().flatten() {
            let Some(n) = doc.get("nodes") else { continue };
            let backend = ints(n.get("backendNodeId"));
            let parent = ints(n.get("parentIndex"));
            let types = ints(n.get("nodeType"));
            let names: Vec<String> = n
                .get("nodeName")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(|x| s(x).unwrap_or_default()).collect())
                .unwrap_or_default();
            let count = backend.len();
            let mut built: Vec<DomNode> = (0..count)
                .map(|i| DomNode {
                    tag: names.get(i).cloned().unwrap_or_default(),
                    inline: true,
                    ..DomNode::default()
                })
                .collect();
            if let Some(attrs) = n.get("attributes").and_then(Value::as_array) {
                for (i, a) in attrs.iter().enumerate().take(count) {
                    let flat: Vec<String> = a
                        .as_array()
                        .map(|a| a.iter().map(|x| s(x).unwrap_or_default()).collect())
                        .unwrap_or_default();
                    built[i].attrs = flat
                        .chunks(2)
                        .filter(|c| c.len() == 2)
                        .map(|c| (c[0].clone(), c[1].clone()))
                        .collect();
                }
            }
            let rare_index = |name: &str| ints(n.pointer(&format!("/{name}/index")));
            let values = n
                .pointer("/inputValue/value")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for (k, i) in rare_index("inputValue").into_iter().enumerate() {
                if let Some(node) = usize::try_from(i).ok().and_then(|i| built.get_mut(i)) {
                    node.value = Some(values.get(k).and_then(&s).unwrap_or_default());
                }
            }
            for i in rare_index("optionSelected") {
                if let Some(node) = usize::try_from(i).ok().and_then(|i| built.get_mut(i)) {
                    node.option_selected = true;
                }
            }
            for (i, doc_index) in ints(n.pointer("/contentDocumentIndex/value"))
                .into_iter()
                .zip(ints(n.pointer("/contentDocumentIndex/index")))
                .map(|(d, i)| (i, d))
            {
                if let (Some(&b), Some(Some(f))) = (
                    usize::try_from(i).ok().and_then(|i| backend.get(i)),
                    usize::try_from(doc_index)
                        .ok()
                        .and_then(|d| frame_ids.get(d)),
                ) {
                    frames.push((b, f.clone()));
                }
            }
            let mut seen_pseudo = std::collections::HashSet::new();
            let scroll = |k: &str| doc.get(k).and_then(Value::as_f64).unwrap_or(0.0);
            let (scroll_x, scroll_y) = (scroll("scrollOffsetX"), scroll("scrollOffsetY"));
            if let Some(layout) = doc.get("layout") {
                let styles = layout.get("styles").and_then(Value::as_array);
                for (k, i) in ints(layout.get("nodeIndex")).into_iter().enumerate() {
                    let style = |j: usize| {
                        styles
                            .and_then(|st| st.get(k))
                            .and_then(|st| st.get(j))
                            .and_then(&s)
                    };
                    let Some(i) = usize::try_from(i).ok().filter(|&i| i < count) else {
                        continue;
                    };
                    if let Some(&b) = backend.get(i) {
                        laid_out.insert(b);
                    }
                    if let Some(d) = style(0) {
                        built[i].inline = d == "inline";
                        built[i].display = Some(d);
                    }
                    built[i].visibility = style(2);
                    if matches!(built[i].tag.as_str(), "::before" | "::after") {
                        built[i].content = style(1);
                    }
                    let sized = layout
                        .get("bounds")
                        .and_then(|b| b.get(k))
                        .and_then(Value::as_array)
                        .is_some_and(|r| {
                            r.get(2).and_then(Value::as_f64).unwrap_or(0.0) > 0.0
                                && r.get(3).and_then(Value::as_f64).unwrap_or(0.0) > 0.0
                        });
                    if built[i].bounds.is_none()
                        && let Some(r) = layout
                            .get("bounds")
                            .and_then(|b| b.get(k))
                            .and_then(Value::as_array)
                        && let [x, y, w, h] = r
                            .iter()
                            .map(|v| v.as_f64().unwrap_or(0.0))
                            .collect::<Vec<_>>()[..]
                    {
                        built[i].bounds = Some([x - scroll_x, y - scroll_y, w, h]);
                    }
                    built[i].visible = sized && style(2).as_deref() == Some("visible");
                    built[i].targetable = built[i].visible && style(3).as_deref() != Some("none");
                    built[i].pointer = style(4).as_deref() == Some("pointer");
                    // A node laid out in several boxes is listed once per box.
                    if matches!(built[i].tag.as_str(), "::before" | "::after")
                        && seen_pseudo.insert(i)
                        && let Some(text) = style(1).as_deref().and_then(css_string)
                        && let Some(p) = parent.get(i).and_then(|&p| usize::try_from(p).ok())
                        && p < count
                    {
                        built[i].css_text = Some(text.clone());
                        built[p].pseudo_text.push(text);
                    }
                }
            }
            // Children counts and the optgroup ancestor.
            let mut children = vec![0usize; count];
            let mut text_children = vec![0usize; count];
            for i in 0..count {
                if let Some(p) = parent.get(i).and_then(|&p| usize::try_from(p).ok())
                    && p < count
                {
                    // `childNodes`: pseudo-elements are not among them.
                    if !names.get(i).is_some_and(|n| n.starts_with("::")) {
                        children[p] += 1;
                    }
                    if types.get(i) == Some(&11)
                        && let Some(&hb) = backend.get(p)
                    {
                        shadow_hosts.insert(hb);
                    }
                    if types.get(i) == Some(&3) {
                        text_children[p] += 1;
                    }
                }
            }
            for i in 0..count {
                let mut p = parent.get(i).copied().unwrap_or(-1);
                while let Some(pu) = usize::try_from(p).ok().filter(|&pu| pu < count) {
                    if types.get(pu) == Some(&1) {
                        break;
                    }
                    p = parent.get(pu).copied().unwrap_or(-1);
                }
                let parent_pointer = usize::try_from(p)
                    .ok()
                    .and_then(|p| built.get(p))
                    .is_some_and(|d| d.pointer);
                built[i].click_root = built[i].targetable && built[i].pointer && !parent_pointer;
            }
            for i in 0..count {
                built[i].only_text_child = children[i] == 1 && text_children[i] == 1;
                if built[i].tag == "OPTION"
                    && let Some(p) = parent.get(i).and_then(|&p| usize::try_from(p).ok())
                    && p < count
                    && built[p].tag == "OPTGROUP"
                    && built[p].attr("disabled").is_some()
                {
                    built[i].in_disabled_optgroup = true;
                }
            }
            for i in 0..count {
                // Up through shadow roots and fragments to an element.
                let mut p = parent.get(i).copied().unwrap_or(-1);
                while let Some(pu) = usize::try_from(p).ok().filter(|&pu| pu < count) {
                    if types.get(pu) == Some(&1) {
                        if let (Some(&b), Some(&pb)) = (backend.get(i), backend.get(pu)) {
                            parents.insert(b, pb);
                            kids.entry(pb).or_default().push(b);
                        }
                        break;
                    }
                    p = parent.get(pu).copied().unwrap_or(-1);
                }
            }
            let node_values = n.get("nodeValue").and_then(Value::as_array);
            for i in 0..count {
                if types.get(i) == Some(&3)
                    && let (Some(&b), Some(t)) = (
                        backend.get(i),
                        node_values.and_then(|v| v.get(i)).and_then(&s),
                    )
                {
                    if t.trim().is_empty() {
                        blanks.push(base + i);
                    }
                    order.insert(b, base + i);
                    texts.insert(b, t);
                }
            }
            for (i, &b) in backend.iter().enumerate() {
                if types.get(i) == Some(&1) {
                    order.insert(b, base + i);
                }
            }
            base += count;
            for (i, node) in built.into_iter().enumerate() {
                if types.get(i) == Some(&1)
                    && let Some(&b) = backend.get(i)
                {
                    if node.tag == "LABEL"
                        && let Some(id) = node.attr("for")
                    {
                        label_for.entry(id.to_owned()).or_insert(b);
                        labels_for.entry(id.to_owned()).or_default().push(b);
                    }
                    if let Some(id) = node.attr("id") {
                        ids.entry(id.to_owned()).or_insert(b);
                    }
                    nodes.insert(b, node);
                }
            }
        }
        DomFacts {
            nodes: std::sync::Arc::new(nodes),
            parent: std::sync::Arc::new(parents),
            text: std::sync::Arc::new(texts),
            order: std::sync::Arc::new(order),
            blanks: std::sync::Arc::new(blanks),
            frames,
            label_for: std::sync::Arc::new(label_for),
            labels_for: std::sync::Arc::new(labels_for),
            kids: std::sync::Arc::new(kids),
            ids: std::sync::Arc::new(ids),
            laid_out: std::sync::Arc::new(laid_out),
            shadow_hosts: std::sync::Arc::new(shadow_hosts),
        }
    }

    /// The elements between `ancestor` and the node `of` (both excluded),
    /// outermost first; empty when `ancestor` is not an ancestor of `of`.
    pub(super) fn chain(&self, of: i64, ancestor: i64) -> Vec<i64> {
        let mut out = Vec::new();
        let mut cur = of;
        while let Some(&p) = self.parent.get(&cur) {
            if p == ancestor {
                out.reverse();
                return out;
            }
            out.push(p);
            cur = p;
            if out.len() > MAX_DEPTH {
                break;
            }
        }
        Vec::new()
    }

    /// The text of every text node under `b`, in document order, shown
    /// or not (a `<label for>`'s text names its control even when the
    /// label is hidden, in Playwright as in the accessible name spec).
    pub(super) fn text_content(&self, b: i64, out: &mut String, depth: usize) {
        if depth >= MAX_DEPTH {
            return;
        }
        for &c in self.kids.get(&b).into_iter().flatten() {
            match self.text.get(&c) {
                Some(t) => out.push_str(t),
                None => self.text_content(c, out, depth + 1),
            }
        }
    }

    pub(super) fn get(&self, backend: Option<i64>) -> Option<&DomNode> {
        self.nodes.get(&backend?)
    }
}

/// The text of a CSS `content` value that is one quoted string.
pub(super) fn css_string(content: &str) -> Option<String> {
    let inner = content
        .strip_prefix('"')?
        .strip_suffix('"')
        .filter(|i| !i.contains('"') || i.contains("\\\""))?;
    Some(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// Whether the element has `aria-hidden="true"`.
pub(super) fn is_aria_hidden(d: &DomNode) -> bool {
    d.attr("aria-hidden")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// Whether the element has an explicit `role`.
pub(super) fn has_role_attr(d: &DomNode) -> bool {
    d.attr("role").is_some_and(|r| !r.trim().is_empty())
}
