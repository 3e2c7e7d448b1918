//! Chromium's accessibility tree (`Accessibility.getFullAXTree`, raw JSON)
//! → the core's aria [`Tree`], printed the way Playwright prints snapshots.
//!
//! Refs are `e<backendDOMNodeId>`: Chromium keeps a node's backend id for the
//! life of the document, so the same element has the same ref in every
//! snapshot of that document, and the server can act on it directly. In an
//! out-of-process iframe (another site, another renderer process, whose ids
//! start again) they are `f<n>e<backendDOMNodeId>`, `n` numbering that
//! frame's document (`frames.rs`, docs/DECISIONS.md D31).
//!
//! The shaping follows Playwright's aria snapshot:
//! - ignored nodes, `none`/`presentation` and the root are dissolved into
//!   their parent (their children take their place);
//! - adjacent text is joined with whitespace collapsed (with DOM facts, as
//!   the DOM has it: no space between texts with none between them);
//! - a node whose only child is text equal to its name drops that text
//!   (`- button "Add to cart"`), a node whose only child is other text
//!   shows it inline (`- paragraph: Subtotal: $8.50`);
//! - an unnamed `generic` wrapping at most one element is replaced by it;
//! - text fields show their value inline and no children;
//! - descriptions are left out, as Playwright does (they mostly repeat text
//!   that is on the page anyway, such as an error under a field).
//!
//! Where Chromium's AX tree says something else than Playwright's
//! `ariaSnapshot({mode: 'ai'})` (what @playwright/mcp prints), the DOM
//! decides: one `DOMSnapshot.captureSnapshot` per read ([`DomFacts`], joined
//! by backend node id) gives each element's tag, attributes, current form
//! state and computed display. We keep the AX tree as the base (its names
//! are Chromium's own name computation, and its node ids are our refs) and
//! correct it from the DOM rather than run Playwright's injected script in
//! the page: that script walks the whole DOM in JS on every read and has no
//! backend ids to give refs. The corrections, each one a place the AX tree
//! is stale or differs from Playwright's rules:
//! - `<option>` states come from the DOM (`selected` is the option's
//!   selectedness; `disabled` its own attribute or a disabled `<optgroup>`,
//!   not the select's, as Playwright has it), since Chromium keeps the
//!   popup's options as they were when the select was first laid out;
//! - states are printed only for the roles Playwright prints them for;
//! - table roles Chromium gives to layout tables (`LayoutTable…`) are the
//!   ARIA table roles, `<summary>` is a generic, `<address>` a generic;
//! - `<body>` is a node of its own (`generic`, `[active]` when the document
//!   has focus and nothing in it does), as Playwright's snapshot root;
//! - only `<input>` and `<textarea>` show a value; `/url` is the raw `href`
//!   and text fields with a `placeholder` other than their name get
//!   `/placeholder`;
//! - an inline unnamed element holding just one text node is its text;
//!   list markers are not text; a `<br>` adds no space;
//! - elements Chromium leaves out of its tree (plain `<div>`s, custom
//!   elements, `<label>`s, `<tbody>`s) are put back between a node and its
//!   children as `generic` (`rowgroup`), then unwrapped around a single
//!   visible, clickable element, as Playwright does; the text Chromium
//!   leaves out of a label is read from the DOM;
//! - names: only the roles Playwright names from content keep a name from
//!   content; a name the content shows (from elements under the node, or
//!   `aria-labelledby`/a caption pointing inside) is dropped, as
//!   Playwright's ai mode does; a generic child repeating its parent's name
//!   is dropped; a generic's `title` is its name; a figure is named by its
//!   caption; a name from content takes the DOM's case;
//! - `aria-hidden` subtrees are read from the DOM, whole: Chromium keeps
//!   them only in part (ace's gutter keeps its fold buttons, named, and
//!   loses its line numbers), drops some entirely (reveal.js's laid-out
//!   neighbouring slides) and un-hides one while focus is inside it;
//!   Playwright shows every visible element in them, with the role of its
//!   `role` or tag, no name and `[aria-hidden]` where the attribute is;
//!   there, `disabled` is native on form controls only, not on links;
//! - a control Chromium leaves unnamed is named by its `<label for>`, even
//!   a label that is not displayed (Playwright's rule);
//! - an empty element that is a click target of its own (`cursor:
//!   pointer`, its parent's cursor not) is kept as a `generic`, and a
//!   nameless image that is one is kept too; Chromium drops the first as
//!   uninteresting;
//! - iframes show their document inside the `iframe` node: a frame of the
//!   page's process from the page's session (`getFullAXTree {frameId}`,
//!   the page's DOM facts), an out-of-process frame from its own session,
//!   read like a page (its own DOM facts and frames), its ids qualified
//!   by its frame number (`frames.rs`).
//!
//! Without DOM facts (no `with_dom`), the AX tree alone is shaped by the
//! same rules where it can be.

use std::collections::HashMap;

mod name;

use anyhow::{Result, bail};
use response_diff::tree::{Element, Prop, State, Tree};
use serde_json::Value;

/// Deepest nesting converted; deeper subtrees are cut (the core's limit is 1000).
const MAX_DEPTH: usize = 900;

/// One parsed snapshot of a page's accessibility tree.
#[derive(Debug)]
pub struct AxSnapshot {
    nodes: Vec<Value>,
    by_id: HashMap<String, usize>,
    by_backend: HashMap<i64, usize>,
    root: Option<usize>,
    origin: Option<String>,
    dom: DomFacts,
    frames: HashMap<i64, AxSnapshot>,
    /// Out-of-process iframes' trees by the backend id of their `<iframe>`
    /// (each with its own process's DOM facts; `frames.rs`).
    remote: HashMap<i64, AxSnapshot>,
    /// The frame number that qualifies this tree's node ids (0: the tab's
    /// own process).
    frame: u32,
    /// `aria-hidden` elements Chromium left out of its tree entirely, by the
    /// backend id of their closest ancestor it kept (see [`Self::orphans`]).
    orphans: HashMap<i64, Vec<i64>>,
    /// The elements that gave each named node its name, by backend id
    /// (`name`; filled as nodes are converted).
    name_parts: std::cell::RefCell<HashMap<i64, Vec<i64>>>,
}

enum Item {
    Node(Box<Node>),
    /// Text and the backend id of the DOM text node it comes from.
    Text(String, Option<i64>),
    /// Joins the texts around it without a space (a `<br>`, as Playwright
    /// reads it).
    Glue,
}

struct Node {
    role: String,
    name: String,
    value: Option<String>,
    backend: Option<i64>,
    states: Vec<State>,
    props: Vec<Prop>,
    children: Vec<Item>,
    /// Playwright would give it a ref: it has a box and takes pointer
    /// events (a generic is unwrapped only around such a node).
    targetable: bool,
    /// A click target of its own (see [`DomNode::click_root`]): kept
    /// even when it is an empty generic or a nameless image.
    click_root: bool,
}

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
    nodes: std::sync::Arc<HashMap<i64, DomNode>>,
    /// Each node's closest element ancestor (across shadow roots), by
    /// backend id.
    parent: std::sync::Arc<HashMap<i64, i64>>,
    /// Text nodes' text, by backend id.
    text: std::sync::Arc<HashMap<i64, String>>,
    /// Each node's place in document order (text nodes and elements).
    order: std::sync::Arc<HashMap<i64, usize>>,
    /// The places of whitespace-only text nodes, ascending.
    blanks: std::sync::Arc<Vec<usize>>,
    /// `(iframe element's backend id, frame id)` of each child document.
    frames: Vec<(i64, String)>,
    /// Each element's child nodes (elements, text, pseudo-elements; a
    /// shadow root's children under its host), in document order, by
    /// backend id: the DOM walk of content Chromium prunes.
    kids: std::sync::Arc<HashMap<i64, Vec<i64>>>,
    /// The first `<label for>` of each id.
    label_for: std::sync::Arc<HashMap<String, i64>>,
    /// Every `<label for>` of each id, in document order.
    labels_for: std::sync::Arc<HashMap<String, Vec<i64>>>,
    /// The first element of each id (aria-labelledby targets).
    ids: std::sync::Arc<HashMap<String, i64>>,
    /// Elements and text nodes that have a layout box.
    laid_out: std::sync::Arc<std::collections::HashSet<i64>>,
    /// Elements that host a shadow root (the accessible-name walk from
    /// the DOM leaves those to Chromium: slot assignment is not in the
    /// DOM snapshot).
    shadow_hosts: std::sync::Arc<std::collections::HashSet<i64>>,
}

#[derive(Debug, Default)]
struct DomNode {
    tag: String,
    attrs: Vec<(String, String)>,
    value: Option<String>,
    option_selected: bool,
    /// `display` is `inline` (or the element has no box).
    inline: bool,
    /// The element has exactly one child node and it is text.
    only_text_child: bool,
    /// The closest `<optgroup>` ancestor is disabled.
    in_disabled_optgroup: bool,
    /// The text of its `::before` and `::after` (a quoted CSS `content`).
    pseudo_text: Vec<String>,
    /// It has a box of non-zero size, is visible and takes pointer events.
    targetable: bool,
    /// It has a box of non-zero size and is visible.
    visible: bool,
    /// Its computed `cursor` is `pointer`.
    pointer: bool,
    /// Playwright's click target root: it would get a ref, its cursor is
    /// `pointer` and its parent's is not (the cursor is inherited, so the
    /// parent is where an ancestor click target would show).
    click_root: bool,
    /// A `::before`/`::after` pseudo-element's text (a quoted CSS `content`).
    css_text: Option<String>,
    /// Its computed `display` and `visibility` (laid-out elements only).
    display: Option<String>,
    visibility: Option<String>,
    /// A pseudo-element's computed `content`, as CSS.
    content: Option<String>,
}

impl DomNode {
    fn attr(&self, name: &str) -> Option<&str> {
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
    fn chain(&self, of: i64, ancestor: i64) -> Vec<i64> {
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
    fn text_content(&self, b: i64, out: &mut String, depth: usize) {
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

    fn get(&self, backend: Option<i64>) -> Option<&DomNode> {
        self.nodes.get(&backend?)
    }
}

/// Roles whose value is shown inline and whose children are not shown.
const FIELD_ROLES: &[&str] = &[
    "textbox",
    "searchbox",
    "spinbutton",
    "slider",
    "progressbar",
    "meter",
    "scrollbar",
];

/// Chromium's internal roles that are dissolved into their parent.
const DISSOLVED: &[&str] = &[
    "RootWebArea",
    "WebArea",
    "none",
    "presentation",
    "MenuListPopup",
    "Ignored",
];

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
    /// read the same way in its own session (`frames.rs`). A DOM snapshot
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

    /// Puts the tree of an out-of-process frame (read in its own session,
    /// with its own DOM facts) under the `iframe` whose backend id is
    /// `owner`, its node ids qualified by frame number `frame` (≥ 1).
    pub(crate) fn add_remote(&mut self, owner: i64, frame: u32, mut sub: AxSnapshot) {
        sub.frame = frame;
        self.remote.insert(owner, sub);
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

    /// The whole page as an aria tree.
    pub fn tree(&self) -> Tree {
        match self.root {
            Some(r) => Tree::new(self.finish(self.convert(r, 0))),
            None => Tree::default(),
        }
    }

    /// The subtree of the DOM node with this backend id (its own node, or
    /// its children when the node itself is not shown), or `None` when the
    /// node is not in the accessibility tree at all.
    pub fn subtree(&self, backend_id: i64) -> Option<Tree> {
        let i = *self.by_backend.get(&backend_id)?;
        Some(Tree::new(self.finish(self.convert(i, 0))))
    }

    /// Whether a backend id is in this snapshot.
    pub fn contains(&self, backend_id: i64) -> bool {
        self.by_backend.contains_key(&backend_id)
    }

    /// Number of accessibility nodes (ignored ones included).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the snapshot has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The outermost `aria-hidden` elements of the DOM that have no node in
    /// Chromium's tree (it drops some hidden subtrees whole: reveal.js's
    /// inert slides), and the empty click targets it drops, by their
    /// closest ancestor that has one. Playwright's
    /// ai mode shows them where they are visible, so they are read from the
    /// DOM ([`Self::hidden_items`]) in their place among that node's
    /// children.
    fn orphans(&self, dom: &DomFacts) -> HashMap<i64, Vec<i64>> {
        let hidden = is_aria_hidden;
        let mut out: HashMap<i64, Vec<i64>> = HashMap::new();
        for (&b, d) in dom.nodes.iter() {
            // Also an empty element that is a click target of its own
            // (jsoneditor's colour swatch): Chromium leaves it out as
            // uninteresting, Playwright keeps it.
            let empty_target = d.click_root && dom.kids.get(&b).is_none_or(|k| k.is_empty());
            // And `inert` subtrees: Chromium leaves them out; Playwright
            // shows them, named.
            let inert = d.attr("inert").is_some();
            if !(hidden(d) || empty_target || inert) || self.by_backend.contains_key(&b) {
                continue;
            }
            let mut cur = b;
            let mut kept = None;
            for _ in 0..MAX_DEPTH {
                let Some(&p) = dom.parent.get(&cur) else {
                    break;
                };
                if let Some(&i) = self.by_backend.get(&p) {
                    kept = Some((p, i));
                    break;
                }
                if dom
                    .nodes
                    .get(&p)
                    .is_some_and(|d| hidden(d) || d.attr("inert").is_some())
                {
                    break;
                }
                cur = p;
            }
            // Under a hidden node Chromium kept, the whole subtree is read
            // from the DOM already.
            if let Some((p, i)) = kept
                && !(self.nodes[i].get("ignored").and_then(Value::as_bool) == Some(true)
                    && hidden_by_aria(&self.nodes[i]))
            {
                out.entry(p).or_default().push(b);
            }
        }
        for v in out.values_mut() {
            v.sort_by_key(|b| dom.order.get(b).copied().unwrap_or(usize::MAX));
        }
        out
    }

    /// Whether `b` is `ancestor` or under it in the DOM.
    fn within(&self, b: i64, ancestor: i64) -> bool {
        let mut cur = b;
        for _ in 0..MAX_DEPTH {
            if cur == ancestor {
                return true;
            }
            match self.dom.parent.get(&cur) {
                Some(&p) => cur = p,
                None => return false,
            }
        }
        false
    }

    /// The DOM element `b`, inside an `aria-hidden` subtree, as Playwright's
    /// ai mode shows it: every visible element is a node (its role from
    /// its `role` or tag, no name: a name is computed only for what is not
    /// hidden, `[aria-hidden]` where the attribute is), the text of visible
    /// elements and their CSS content is text, and what has no box is left
    /// out but for its children. Chromium keeps such subtrees only in part
    /// (ace editor's gutter: the numbers are gone, the fold buttons named),
    /// so all of it is read from the DOM.
    fn hidden_items(&self, b: i64, depth: usize) -> Vec<Item> {
        let Some(d) = self.dom.nodes.get(&b) else {
            return Vec::new();
        };
        if depth >= MAX_DEPTH || matches!(d.tag.as_str(), "::marker" | "::before" | "::after") {
            return Vec::new();
        }
        let mut children = Vec::new();
        let mut after = None;
        for &c in self.dom.kids.get(&b).into_iter().flatten() {
            if let Some(t) = self.dom.text.get(&c) {
                if d.visible {
                    children.push(Item::Text(t.clone(), Some(c)));
                }
                continue;
            }
            match self.dom.nodes.get(&c) {
                Some(p) if p.tag == "::before" => {
                    children.extend(p.css_text.clone().map(|t| Item::Text(t, None)))
                }
                Some(p) if p.tag == "::after" => after = p.css_text.clone(),
                Some(_) => children.extend(self.hidden_items(c, depth + 1)),
                None => {}
            }
        }
        children.extend(after.map(|t| Item::Text(t, None)));
        if !d.visible {
            return children;
        }
        let explicit = d.attr("role").map(str::trim).filter(|r| !r.is_empty());
        let (role, level) = match explicit {
            Some(r) => match r.split_whitespace().next().unwrap_or("generic") {
                "none" | "presentation" => return children,
                r => (r.to_owned(), None),
            },
            // The implicit role as Playwright computes it (`name`).
            None => match name::role(&self.dom, b) {
                Some(r) if r == "none" || r == "presentation" => return children,
                Some(r) => (r, name::native_level(d)),
                None => ("generic".to_owned(), None),
            },
        };
        if role == "generic" && d.inline && d.only_text_child {
            return children;
        }
        let attr_true = |name: &str| {
            d.attr(name)
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        };
        let mut states = Vec::new();
        let r = role.as_str();
        let aria_level = d
            .attr("aria-level")
            .and_then(|l| l.trim().parse::<u8>().ok());
        if let Some(l) = aria_level.or(level)
            && matches!(r, "heading" | "listitem" | "row" | "treeitem")
        {
            states.push(State::with_value("level", l.to_string()));
        }
        for (state, roles) in [
            ("expanded", EXPANDED_ROLES),
            ("selected", SELECTED_ROLES),
            ("checked", CHECKED_ROLES),
            ("disabled", DISABLED_ROLES),
        ] {
            // `disabled` is native only on form controls (Playwright's
            // getAriaDisabled); reveal.js puts it on links.
            let native = state == "disabled"
                && d.attr("disabled").is_some()
                && matches!(
                    d.tag.as_str(),
                    "BUTTON" | "INPUT" | "SELECT" | "TEXTAREA" | "OPTION" | "OPTGROUP" | "FIELDSET"
                );
            let on = attr_true(&format!("aria-{state}")) || native;
            if on && roles.contains(&r) {
                states.push(State::flag(state));
            }
        }
        if r == "button" && attr_true("aria-pressed") {
            states.push(State::flag("pressed"));
        }
        if self
            .by_backend
            .get(&b)
            .is_some_and(|&i| has_true_property(&self.nodes[i], "focused"))
        {
            states.push(State::flag("active"));
        }
        if attr_true("aria-hidden") {
            states.push(State::flag("aria-hidden"));
        }
        states.sort_by_key(state_rank);
        let mut props = Vec::new();
        if r == "link"
            && let Some(href) = d.attr("href")
        {
            props.push(Prop::new("url", truncate_data_url(href)));
        }
        let mut value = None;
        if d.tag == "INPUT" || d.tag == "TEXTAREA" {
            if FIELD_ROLES.contains(&r) {
                value = d.value.clone().filter(|v| !v.is_empty());
            }
            children.clear();
        }
        // Names are computed only for what is not hidden (an inert
        // subtree's elements are named, an aria-hidden one's are not).
        let name = if name::hidden(&self.dom, b) {
            String::new()
        } else {
            self.dom_name(Some(b), &role)
                .map(|n| {
                    let text = collapse(&n.text);
                    if self.name_shown(Some(b), &n, &text, &children) {
                        String::new()
                    } else {
                        text
                    }
                })
                .unwrap_or_default()
        };
        normalize(
            Node {
                role,
                name,
                value,
                backend: Some(b),
                states,
                props,
                children,
                targetable: d.targetable,
                click_root: d.click_root,
            },
            &|a, b| self.apart(a, b),
        )
    }

    fn children_of(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.nodes[i]
            .get("childIds")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(id_str)
            .filter_map(|id| self.by_id.get(&id).copied())
    }

    fn convert_children(&self, i: usize, depth: usize) -> Vec<Item> {
        let mut out = Vec::new();
        if depth >= MAX_DEPTH {
            return out;
        }
        let is_li = self.dom_of(i).is_some_and(|d| d.tag == "LI");
        for (k, c) in self.children_of(i).enumerate() {
            // A list item's marker ("• ", "1. ") is a pseudo-element's text
            // without a DOM node; Playwright does not read markers.
            if is_li && k == 0 && self.role_of(c) == "StaticText" && self.backend_of(c).is_none() {
                continue;
            }
            out.extend(self.convert(c, depth + 1));
        }
        if let Some(orphans) = self.backend_of(i).and_then(|b| self.orphans.get(&b)) {
            out = self.place_orphans(out, orphans, depth);
        }
        out
    }

    /// Puts the DOM-read `aria-hidden` subtrees Chromium left out among a
    /// node's items, in document order, dropping what Chromium kept of
    /// them (each is read whole from the DOM).
    fn place_orphans(&self, items: Vec<Item>, orphans: &[i64], depth: usize) -> Vec<Item> {
        let key = |item: &Item| match item {
            Item::Node(n) => n.backend,
            Item::Text(_, k) => *k,
            Item::Glue => None,
        };
        let place = |b: Option<i64>| b.and_then(|b| self.dom.order.get(&b).copied());
        let mut out = Vec::with_capacity(items.len() + orphans.len());
        let mut pending = orphans.iter().copied().peekable();
        for item in items {
            let k = key(&item);
            if k.is_some_and(|k| orphans.iter().any(|&o| self.within(k, o))) {
                continue;
            }
            if let Some(at) = place(k) {
                while let Some(&o) = pending.peek() {
                    if place(Some(o)).is_some_and(|p| p < at) {
                        out.extend(self.hidden_items(o, depth + 1));
                        pending.next();
                    } else {
                        break;
                    }
                }
            }
            out.push(item);
        }
        for o in pending {
            out.extend(self.hidden_items(o, depth + 1));
        }
        out
    }

    fn role_of(&self, i: usize) -> &str {
        self.nodes[i]
            .pointer("/role/value")
            .and_then(Value::as_str)
            .unwrap_or("generic")
    }

    fn backend_of(&self, i: usize) -> Option<i64> {
        self.nodes[i]
            .get("backendDOMNodeId")
            .and_then(Value::as_i64)
    }

    fn dom_of(&self, i: usize) -> Option<&DomNode> {
        self.dom.get(self.backend_of(i))
    }

    /// Whether Playwright would put a space between two text nodes: there
    /// is a whitespace text node between them, or one of them is inside a
    /// block the other is not in.
    fn apart(&self, a: i64, b: i64) -> bool {
        let (Some(&oa), Some(&ob)) = (self.dom.order.get(&a), self.dom.order.get(&b)) else {
            return true;
        };
        if ob <= oa {
            return true;
        }
        let i = self.dom.blanks.partition_point(|&x| x <= oa);
        if self.dom.blanks.get(i).is_some_and(|&x| x < ob) {
            return true;
        }
        let ancestors = |mut n: i64| {
            let mut v = Vec::new();
            while let Some(&p) = self.dom.parent.get(&n) {
                v.push(p);
                n = p;
                if v.len() > MAX_DEPTH {
                    break;
                }
            }
            v
        };
        let (up_a, up_b) = (ancestors(a), ancestors(b));
        let block = |e: &i64| self.dom.nodes.get(e).is_some_and(|d| !d.inline);
        let below =
            |up: &[i64], other: &[i64]| up.iter().take_while(|e| !other.contains(e)).any(block);
        below(&up_a, &up_b) || below(&up_b, &up_a)
    }

    fn targetable(&self, backend: Option<i64>) -> bool {
        if self.dom.nodes.is_empty() {
            return backend.is_some();
        }
        self.dom.get(backend).is_some_and(|d| d.targetable)
    }

    fn click_root(&self, backend: Option<i64>) -> bool {
        self.dom.get(backend).is_some_and(|d| d.click_root)
    }

    /// Whether the document has focus and no element in it does.
    fn root_focused(&self) -> bool {
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

    fn convert(&self, i: usize, depth: usize) -> Vec<Item> {
        let n = &self.nodes[i];
        let role = self.role_of(i);
        let ignored = n.get("ignored").and_then(Value::as_bool).unwrap_or(false);
        match role {
            "StaticText" if !ignored => {
                // The DOM's text keeps the whitespace Playwright joins by.
                let b = self.backend_of(i);
                let text = b
                    .and_then(|b| self.dom.text.get(&b).cloned())
                    .or_else(|| ax_string(n, "name"))
                    .unwrap_or_default();
                // CSS content's text has no DOM node: it is keyed by its
                // pseudo-element, so it joins its neighbours as the DOM
                // has them ("★" and "Star" make "★Star").
                let b = b.or_else(|| self.pseudo_parent(n));
                return vec![Item::Text(text, b)];
            }
            "StaticText" | "InlineTextBox" | "ListMarker" => return Vec::new(),
            "LineBreak" if !self.dom.nodes.is_empty() => return vec![Item::Glue],
            "LineBreak" => return vec![Item::Text("\n".into(), None)],
            _ => {}
        }
        let dom = self.dom_of(i);
        let backend = self.backend_of(i);
        if dom.is_some_and(|d| d.tag == "::marker") {
            return Vec::new();
        }
        if let Some(items) = self.pseudo_items(backend) {
            return items;
        }
        if role == "generic" && dom.is_none() && !self.dom.nodes.is_empty() {
            // A box of Chromium's own (a `<details>` content slot): the
            // DOM has no element there, Playwright no node.
            return self.convert_children(i, depth);
        }
        if dom.is_some_and(|d| d.tag == "BODY") {
            // Playwright's snapshot root: a generic node of its own.
            let mut states = Vec::new();
            if self.root_focused() {
                states.push(State::flag("active"));
            }
            let node = Node {
                role: "generic".into(),
                name: String::new(),
                value: None,
                backend,
                states,
                props: Vec::new(),
                children: self.regroup(backend, self.convert_children(i, depth)),
                targetable: self.targetable(backend),
                click_root: self.click_root(backend),
            };
            return normalize(node, &|a, b| self.apart(a, b));
        }
        if ignored
            && let Some(b) = backend
            && let Some(t) = self.dom.text.get(&b)
            && ignored_as_text(n)
            && (!hidden_by_aria(n)
                || self
                    .dom
                    .parent
                    .get(&b)
                    .and_then(|p| self.dom.nodes.get(p))
                    .is_some_and(|p| p.visible))
        {
            // Chromium leaves a label's text (and text under a
            // presentational role) out of the tree; Playwright reads it.
            return vec![Item::Text(t.clone(), Some(b))];
        }
        // Hidden by aria-hidden is the attribute's word (Playwright's), not
        // Chromium's: Chromium un-hides a subtree while an element in it
        // has focus.
        if let Some(b) = backend
            && let Some(d) = dom
            && d.tag != "#text"
            && ((ignored && hidden_by_aria(n)) || is_aria_hidden(d))
        {
            return self.hidden_items(b, depth);
        }
        if ignored
            && let Some(b) = backend
            && let Some(items) = self.modal_page(n, b, depth).or_else(|| self.ruby_text(b))
        {
            return items;
        }
        if role == "LabelText" && dom.is_none() {
            return self.convert_children(i, depth);
        }
        if ignored || DISSOLVED.contains(&role) {
            return self.convert_children(i, depth);
        }
        if let (Some(d), Some(b)) = (dom, backend)
            && TABLE_PARTS.contains(&d.tag.as_str())
            && !has_role_attr(d)
            && self.in_presentational_table(b)
        {
            return self.convert_children(i, depth);
        }
        let mut role = aria_role(role);
        if let Some(d) = dom {
            role = match d.tag.as_str() {
                "SUMMARY" | "ADDRESS" | "LABEL" if !has_role_attr(d) => "generic",
                "FORM" if role == "form" && ax_string(n, "name").is_none_or(|s| s.is_empty()) => {
                    "generic"
                }
                _ => role,
            };
        }
        let mut node = Node {
            role: role.to_owned(),
            name: ax_string(n, "name")
                .map(|s| collapse(&s))
                .unwrap_or_default(),
            value: None,
            backend,
            states: Vec::new(),
            props: Vec::new(),
            children: Vec::new(),
            targetable: self.targetable(backend),
            click_root: self.click_root(backend),
        };
        if node.name.is_empty()
            && let Some(d) = dom
            && matches!(d.tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT" | "BUTTON")
            && let Some(&label) = d.attr("id").and_then(|id| self.dom.label_for.get(id))
        {
            // Chromium does not name a control after a `<label for>` that
            // is hidden (TodoMVC's "Mark all as complete"); Playwright does.
            let mut text = String::new();
            self.dom.text_content(label, &mut text, 0);
            node.name = collapse(&text);
        }
        // Playwright's name, computed from the DOM (`name`), where
        // the DOM snapshot tells it.
        let dom_name = self.dom_name(backend, role);
        if let Some(name) = &dom_name {
            node.name = collapse(&name.text);
        }
        if role == "iframe" {
            // Playwright names no iframe and shows its document inside.
            node.name.clear();
            if let Some(sub) = backend.and_then(|b| self.frames.get(&b).or(self.remote.get(&b)))
                && let Some(r) = sub.root
            {
                node.children = sub.convert(r, depth + 1);
                let mut items = normalize(node, &|a, b| sub.apart(a, b));
                if sub.frame != 0 {
                    // Another process: its ids are qualified by its frame.
                    qualify_frame(&mut items, sub.frame, 0);
                }
                return items;
            }
            return normalize(node, &|a, b| self.apart(a, b));
        }
        // An inline element without a role of its own that holds just one
        // text node is that text (Playwright's rule).
        if role == "generic"
            && let Some(d) = dom
            && d.inline
            && d.only_text_child
            && !has_role_attr(d)
        {
            return self.convert_children(i, depth);
        }
        self.read_properties(n, &mut node);
        if let Some(d) = dom {
            self.dom_properties(d, &mut node);
        }
        match dom {
            Some(d) => {
                let input_like = (d.tag == "INPUT"
                    && !matches!(
                        d.attr("type").map(str::to_ascii_lowercase).as_deref(),
                        Some("checkbox" | "radio" | "file")
                    ))
                    || d.tag == "TEXTAREA";
                if input_like {
                    node.value = d
                        .value
                        .clone()
                        .or_else(|| ax_string(n, "value"))
                        // A password's value stays in the page.
                        .map(|v| collapse(&crate::secrets::shown_value(d.attr("type"), v)))
                        .filter(|v| !v.is_empty() && *v != node.name);
                } else if d.tag == "INPUT" {
                    // Chromium drops a checkbox's CSS content; Playwright
                    // reads it (TodoMVC's toggles).
                    node.children = d
                        .pseudo_text
                        .iter()
                        .map(|t| Item::Text(t.clone(), None))
                        .collect();
                } else if matches!(d.tag.as_str(), "METER" | "PROGRESS") {
                    // Playwright shows their fallback text; Chromium has
                    // their shadow parts instead.
                    node.children = self
                        .dom
                        .kids
                        .get(&b_or(backend))
                        .into_iter()
                        .flatten()
                        .filter_map(|&k| Some(Item::Text(self.dom.text.get(&k)?.clone(), Some(k))))
                        .collect();
                } else {
                    node.children = self.regroup(backend, self.convert_children(i, depth));
                    if d.tag == "SELECT" && role == "combobox" {
                        // A closed select's optgroups have no box:
                        // Playwright lists their options directly.
                        node.children = std::mem::take(&mut node.children)
                            .into_iter()
                            .flat_map(|c| match c {
                                Item::Node(g) if g.role == "group" => g.children,
                                other => vec![other],
                            })
                            .collect();
                    }
                    if role == "textbox" {
                        node.children.retain(|c| matches!(c, Item::Node(_)));
                    }
                }
            }
            None => {
                if FIELD_ROLES.contains(&role) {
                    node.value = ax_string(n, "value").filter(|v| !v.is_empty());
                } else {
                    node.children = self.convert_children(i, depth);
                    if role == "combobox"
                        && !node
                            .children
                            .iter()
                            .any(|c| matches!(c, Item::Node(n) if n.role == "option"))
                    {
                        // An editable combobox: its value, like a text field.
                        node.children.clear();
                        node.value = ax_string(n, "value").filter(|v| !v.is_empty());
                    }
                }
            }
        }
        if let Some(name) = dom_name {
            if self.name_shown(backend, &name, &node.name, &node.children) {
                node.name.clear();
            }
            return self.dom_shaped(node);
        }
        if node.name.is_empty() && dom.is_some_and(|d| d.tag == "FIGURE") {
            // Playwright names a figure after its caption.
            node.name = node
                .children
                .iter()
                .find_map(|c| match c {
                    Item::Node(g)
                        if self
                            .dom
                            .get(g.backend)
                            .is_some_and(|d| d.tag == "FIGCAPTION") =>
                    {
                        match g.children.as_slice() {
                            [Item::Text(t, _)] => Some(collapse(t)),
                            _ => None,
                        }
                    }
                    _ => None,
                })
                .unwrap_or_default();
        }
        if role == "generic"
            && node.name.is_empty()
            && let Some(title) = dom.and_then(|d| d.attr("title"))
        {
            // Chromium makes a generic's title its description; Playwright
            // its name.
            node.name = collapse(title);
        }
        if dom.is_some() && name_from(n) == NameFrom::Contents {
            // Chromium's name from content is the rendered text (after
            // `text-transform`), Playwright's the DOM's.
            let text = own_text(&node.children);
            if text != node.name && text.to_lowercase() == node.name.to_lowercase() {
                node.name = text;
            }
        }
        if dom.is_some() && !node.name.is_empty() {
            // Playwright names fewer roles from their content than Chromium
            // does, and drops a name its content already shows (ai mode's
            // removeRedundantNames).
            match name_from(n) {
                NameFrom::Contents
                    if !NAME_FROM_CONTENT.contains(&role)
                        && dom.is_none_or(|d| d.tag != "SUMMARY") =>
                {
                    node.name.clear()
                }
                NameFrom::Contents
                    if own_text(&node.children) != node.name
                        && shown_by_content(&node.children) =>
                {
                    node.name.clear()
                }
                NameFrom::Related(ids) if all_shown(&node.children, &ids) => node.name.clear(),
                _ => {}
            }
        }
        normalize(node, &|a, b| self.apart(a, b))
    }

    /// Playwright shows every element without a role as a `generic` (and
    /// then unwraps those around a single element); Chromium leaves most of
    /// them out of its tree. This puts back, from the DOM, the elements
    /// between a node (`parent`) and the items under it.
    fn regroup(&self, parent: Option<i64>, items: Vec<Item>) -> Vec<Item> {
        let Some(parent) = parent else {
            return items;
        };
        if self.dom.nodes.is_empty() {
            return items;
        }
        let mut stack: Vec<(i64, Vec<Item>)> = Vec::new();
        let mut top: Vec<Item> = Vec::new();
        let close = |stack: &mut Vec<(i64, Vec<Item>)>, top: &mut Vec<Item>| {
            if let Some((b, items)) = stack.pop() {
                let made = self.wrapper(b, items);
                match stack.last_mut() {
                    Some((_, up)) => up.extend(made),
                    None => top.extend(made),
                }
            }
        };
        for item in items {
            let chain: Vec<i64> = match &item {
                Item::Glue => stack.iter().map(|(b, _)| *b).collect(),
                Item::Node(n) => n
                    .backend
                    .map(|k| self.dom.chain(k, parent))
                    .unwrap_or_default(),
                Item::Text(_, k) => k.map(|k| self.dom.chain(k, parent)).unwrap_or_default(),
            };
            let chain: Vec<i64> = chain.into_iter().filter(|b| self.wraps(*b)).collect();
            let common = stack
                .iter()
                .zip(&chain)
                .take_while(|((f, _), b)| f == *b)
                .count();
            while stack.len() > common {
                close(&mut stack, &mut top);
            }
            for b in &chain[common..] {
                stack.push((*b, Vec::new()));
            }
            match stack.last_mut() {
                Some((_, up)) => up.push(item),
                None => top.push(item),
            }
        }
        while !stack.is_empty() {
            close(&mut stack, &mut top);
        }
        top
    }

    /// Whether an element left out of the AX tree is a node of its own in
    /// Playwright's snapshot.
    fn wraps(&self, b: i64) -> bool {
        let Some(d) = self.dom.nodes.get(&b) else {
            return false;
        };
        if matches!(d.tag.as_str(), "HTML" | "HEAD" | "BODY") {
            return false;
        }
        if TABLE_PARTS.contains(&d.tag.as_str()) && self.in_presentational_table(b) {
            return false;
        }
        !matches!(d.attr("role").map(str::trim), Some("none" | "presentation"))
            && self.wraps_as_playwright(b, d)
    }

    /// The node Playwright makes of an element left out of the AX tree.
    fn wrapper(&self, b: i64, items: Vec<Item>) -> Vec<Item> {
        let d = self.dom.nodes.get(&b);
        if d.is_some_and(|d| d.inline && d.only_text_child) {
            return items;
        }
        let role = match d.map(|d| d.tag.as_str()) {
            Some("TBODY" | "THEAD" | "TFOOT") => "rowgroup".to_owned(),
            _ => self.wrapper_role(b),
        };
        normalize(
            Node {
                role,
                name: String::new(),
                value: None,
                backend: Some(b),
                states: Vec::new(),
                props: Vec::new(),
                children: items,
                targetable: self.targetable(Some(b)),
                click_root: self.click_root(Some(b)),
            },
            &|a, b| self.apart(a, b),
        )
    }

    /// Whether a table part is inside a table whose role is none or
    /// presentation (its rows and cells are then presentational too).
    fn in_presentational_table(&self, b: i64) -> bool {
        let mut cur = b;
        for _ in 0..16 {
            let Some(&p) = self.dom.parent.get(&cur) else {
                return false;
            };
            if let Some(d) = self.dom.nodes.get(&p)
                && d.tag == "TABLE"
            {
                return matches!(d.attr("role").map(str::trim), Some("none" | "presentation"));
            }
            cur = p;
        }
        false
    }

    /// States and props the DOM knows better than the AX tree.
    fn dom_properties(&self, d: &DomNode, node: &mut Node) {
        let set = |states: &mut Vec<State>, name: &str, on: bool| {
            states.retain(|s| s.name != name);
            if on {
                states.push(State::flag(name));
            }
        };
        if d.tag == "OPTION" {
            set(&mut node.states, "selected", d.option_selected);
            set(
                &mut node.states,
                "disabled",
                d.attr("disabled").is_some() || d.in_disabled_optgroup,
            );
        }
        if node.role == "link"
            && let Some(href) = d.attr("href")
        {
            node.props.retain(|p| p.name != "url");
            node.props.push(Prop::new("url", truncate_data_url(href)));
        }
        if node.role == "textbox"
            && let Some(ph) = d.attr("placeholder")
            && ph != node.name
        {
            node.props.push(Prop::new("placeholder", ph));
        }
        // Playwright's native levels are headings only; elsewhere aria-level.
        if matches!(node.role.as_str(), "listitem" | "row" | "treeitem")
            && d.attr("aria-level").is_none()
        {
            node.states.retain(|s| s.name != "level");
        }
        node.states.sort_by_key(state_rank);
    }

    fn read_properties(&self, n: &Value, node: &mut Node) {
        let Some(props) = n.get("properties").and_then(Value::as_array) else {
            return;
        };
        let mut url = None;
        for p in props {
            let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
            let value = p.pointer("/value/value");
            let truthy = match value {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(s)) => s == "true",
                _ => false,
            };
            let tristate = |flag: &str| match value {
                Some(Value::String(s)) if s == "mixed" => Some(State::with_value(flag, "mixed")),
                _ if truthy => Some(State::flag(flag)),
                _ => None,
            };
            let state = match name {
                "checked" => tristate("checked"),
                "pressed" => tristate("pressed"),
                "disabled" if truthy => Some(State::flag("disabled")),
                "expanded" if truthy => Some(State::flag("expanded")),
                "selected" if truthy => Some(State::flag("selected")),
                "focused" if truthy => Some(State::flag("active")),
                "invalid" => match value {
                    Some(Value::String(s)) if s == "spelling" || s == "grammar" => {
                        Some(State::with_value("invalid", s.clone()))
                    }
                    Some(Value::String(s)) if s != "false" => Some(State::flag("invalid")),
                    _ => None,
                },
                "level" => value
                    .and_then(Value::as_f64)
                    .map(|l| State::with_value("level", (l as i64).to_string())),
                "url" => {
                    url = value.and_then(Value::as_str).map(str::to_owned);
                    None
                }
                _ => None,
            };
            if let Some(s) = state {
                node.states.push(s);
            }
        }
        // Playwright prints each state only for the roles that can have it.
        let role = node.role.as_str();
        node.states.retain(|s| match s.name.as_str() {
            "checked" => CHECKED_ROLES.contains(&role),
            "disabled" => DISABLED_ROLES.contains(&role),
            "expanded" => EXPANDED_ROLES.contains(&role),
            "level" => matches!(role, "heading" | "listitem" | "row" | "treeitem"),
            "pressed" => role == "button",
            "selected" => SELECTED_ROLES.contains(&role),
            _ => true,
        });
        node.states.sort_by_key(state_rank);
        if let Some(u) = url
            && node.role == "link"
        {
            node.props.push(Prop::new("url", self.shorten(&u)));
        }
    }

    fn shorten(&self, url: &str) -> String {
        match &self.origin {
            Some(o) => match url.strip_prefix(o.as_str()) {
                Some(rest) if rest.starts_with('/') => rest.to_owned(),
                Some("") => "/".to_owned(),
                _ => url.to_owned(),
            },
            None => url.to_owned(),
        }
    }

    /// Top-level items → elements (text at the top level becomes text nodes).
    fn finish(&self, items: Vec<Item>) -> Vec<Element> {
        let items = merge_text(items, &|a, b| self.apart(a, b));
        items.into_iter().map(to_element).collect()
    }
}

/// Playwright's attribute order (renderAriaSnapshotAsYaml).
fn state_rank(s: &State) -> u8 {
    match s.name.as_str() {
        "checked" => 1,
        "disabled" => 2,
        "expanded" => 3,
        "active" => 4,
        "invalid" => 5,
        "level" => 6,
        "pressed" => 7,
        "selected" => 8,
        "aria-hidden" => 9,
        _ => 10,
    }
}

// Playwright's role lists per state (injected/src/roleUtils.ts).
const CHECKED_ROLES: &[&str] = &[
    "checkbox",
    "menuitemcheckbox",
    "option",
    "radio",
    "switch",
    "menuitemradio",
    "treeitem",
];
const SELECTED_ROLES: &[&str] = &[
    "gridcell",
    "option",
    "row",
    "tab",
    "rowheader",
    "columnheader",
    "treeitem",
];
const EXPANDED_ROLES: &[&str] = &[
    "application",
    "button",
    "checkbox",
    "combobox",
    "gridcell",
    "link",
    "listbox",
    "menuitem",
    "row",
    "rowheader",
    "tab",
    "treeitem",
    "columnheader",
    "menuitemcheckbox",
    "menuitemradio",
    "switch",
];
const DISABLED_ROLES: &[&str] = &[
    "application",
    "button",
    "composite",
    "gridcell",
    "group",
    "input",
    "link",
    "menuitem",
    "scrollbar",
    "separator",
    "tab",
    "checkbox",
    "columnheader",
    "combobox",
    "grid",
    "listbox",
    "menu",
    "menubar",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "radiogroup",
    "row",
    "rowheader",
    "searchbox",
    "select",
    "slider",
    "spinbutton",
    "switch",
    "tablist",
    "textbox",
    "toolbar",
    "tree",
    "treegrid",
    "treeitem",
];

/// The text of a CSS `content` value that is one quoted string.
fn css_string(content: &str) -> Option<String> {
    let inner = content
        .strip_prefix('"')?
        .strip_suffix('"')
        .filter(|i| !i.contains('"') || i.contains("\\\""))?;
    Some(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// Whether an ignored node was left out only for reasons Playwright does
/// not have (it was not hidden).
fn ignored_as_text(n: &Value) -> bool {
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

const TABLE_PARTS: &[&str] = &["TBODY", "THEAD", "TFOOT", "TR", "TD", "TH"];

/// Roles Playwright names from their content (roleUtils.ts).
const NAME_FROM_CONTENT: &[&str] = &[
    "button",
    "cell",
    "checkbox",
    "columnheader",
    "gridcell",
    "heading",
    "link",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "row",
    "rowheader",
    "switch",
    "tab",
    "tooltip",
    "treeitem",
];

/// Where Chromium took a node's name from: its content, other elements
/// (`aria-labelledby`, a table's caption: their backend ids), or something
/// else (an attribute, a label).
#[derive(PartialEq)]
enum NameFrom {
    Contents,
    Related(Vec<i64>),
    Other,
}

fn name_from(n: &Value) -> NameFrom {
    let used = n
        .pointer("/name/sources")
        .and_then(Value::as_array)
        .and_then(|ss| {
            ss.iter().find(|s| {
                s.get("value").is_some()
                    && s.get("superseded").and_then(Value::as_bool) != Some(true)
            })
        });
    let Some(used) = used else {
        return NameFrom::Other;
    };
    match used.get("type").and_then(Value::as_str) {
        Some("contents") => NameFrom::Contents,
        Some("relatedElement") => {
            let ids: Vec<i64> = [
                "/attributeValue/relatedNodes",
                "/nativeSourceValue/relatedNodes",
            ]
            .iter()
            .filter_map(|p| used.pointer(p).and_then(Value::as_array))
            .flatten()
            .filter_map(|r| r.get("backendDOMNodeId").and_then(Value::as_i64))
            .collect();
            if ids.is_empty() {
                NameFrom::Other
            } else {
                NameFrom::Related(ids)
            }
        }
        _ => NameFrom::Other,
    }
}

/// The text directly under a node (not inside its child elements).
fn own_text(items: &[Item]) -> String {
    let texts: Vec<&str> = items
        .iter()
        .filter_map(|c| match c {
            Item::Text(t, _) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    collapse(&texts.join(" "))
}

/// Whether each of `ids` is a node shown under `items` (not a generic
/// holding only text, which Playwright does not count as shown).
fn all_shown(items: &[Item], ids: &[i64]) -> bool {
    fn find(items: &[Item], id: i64) -> bool {
        items.iter().any(|c| match c {
            Item::Node(n) => {
                (n.backend == Some(id)
                    && !(n.role == "generic"
                        && n.children.iter().all(|c| !matches!(c, Item::Node(_)))))
                    || find(&n.children, id)
            }
            _ => false,
        })
    }
    ids.iter().all(|&id| find(items, id))
}

/// Whether a node's content shows its name: there is an element under
/// it, and no child that is a generic holding only text (Playwright keeps
/// a name such a child gave, then drops the child as repeating it).
fn shown_by_content(items: &[Item]) -> bool {
    let leaf_child = items.iter().any(|c| {
        matches!(c, Item::Node(n) if n.role == "generic" && n.children.iter().all(|c| !matches!(c, Item::Node(_))))
    });
    !leaf_child && items.iter().any(|c| matches!(c, Item::Node(_)))
}

/// A backend id, or one no node has.
fn b_or(b: Option<i64>) -> i64 {
    b.unwrap_or(i64::MIN)
}

/// Whether the element has `aria-hidden="true"`.
fn is_aria_hidden(d: &DomNode) -> bool {
    d.attr("aria-hidden")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// Whether an AX node has a boolean property (`focused`) set.
fn has_true_property(n: &Value, name: &str) -> bool {
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
fn hidden_by_aria(n: &Value) -> bool {
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

/// Whether the element has an explicit `role`.
fn has_role_attr(d: &DomNode) -> bool {
    d.attr("role").is_some_and(|r| !r.trim().is_empty())
}

/// A `data:` URL cut after its comma, as Playwright prints it.
fn truncate_data_url(url: &str) -> String {
    match url.strip_prefix("data:").and(url.find(',')) {
        Some(comma) => format!("{}\u{2026}", &url[..=comma]),
        None => url.to_owned(),
    }
}

/// `scheme://host[:port]` of an http(s) URL.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(format!("{scheme}://{}", &rest[..host_end]))
}

fn id_str(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A string-valued AX field (`name`, `value`, `description`).
fn ax_string(n: &Value, field: &str) -> Option<String> {
    match n.get(field)?.get("value")? {
        Value::String(s) => Some(s.clone()),
        Value::Number(x) => Some(x.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Chromium role names → ARIA role names as Playwright prints them.
fn aria_role(role: &str) -> &str {
    match role {
        "image" => "img",
        "LabelText" => "generic",
        "ColorWell" | "Date" | "DateTime" | "InputTime" => "textbox",
        "LayoutTable" => "table",
        "LayoutTableRow" => "row",
        "LayoutTableCell" => "cell",
        "DisclosureTriangle" => "generic",
        "Canvas" => "img",
        "Iframe" | "IframePresentational" => "iframe",
        "DescriptionList" => "generic",
        "DescriptionListTerm" => "term",
        "DescriptionListDetail" => "definition",
        "MathMLMath" => "math",
        "SvgRoot" => "img",
        r if r.starts_with("MathML") => "generic",
        "sectionheader"
        | "sectionfooter"
        | "HeaderAsNonLandmark"
        | "FooterAsNonLandmark"
        | "SectionWithoutName"
        | "Section"
        | "Div"
        | "Pre"
        | "Abbr"
        | "Ruby"
        | "Figcaption"
        | "Legend"
        | "Details"
        | "Unknown" => "generic",
        other => other,
    }
}

/// Whitespace runs → one space, trimmed.
/// Zero-width spaces and soft hyphens dropped, as Playwright's
/// normalizeWhiteSpace drops them.
fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        let word: String = word
            .chars()
            .filter(|c| !matches!(c, '\u{200b}' | '\u{ad}'))
            .collect();
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&word);
    }
    out
}

/// Joins adjacent text items (collapsing whitespace) and drops empty ones.
/// Whether two texts (by their DOM text nodes) are apart: Playwright
/// joins adjacent text as it is in the DOM, so "Ln:" and "1" in two spans
/// make "Ln:1".
type Apart<'a> = &'a dyn Fn(i64, i64) -> bool;

/// Joins adjacent text items (collapsing whitespace) and drops empty ones.
fn merge_text(items: Vec<Item>, apart: Apart) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::with_capacity(items.len());
    let mut pending = String::new();
    let mut first: Option<i64> = None;
    let mut last: Option<i64> = None;
    let flush = |pending: &mut String,
                 out: &mut Vec<Item>,
                 first: &mut Option<i64>,
                 last: &mut Option<i64>| {
        let t = collapse(pending);
        if !t.is_empty() {
            out.push(Item::Text(t, first.or(*last)));
        }
        pending.clear();
        *first = None;
        *last = None;
    };
    let mut glued = false;
    for item in items {
        match item {
            Item::Text(t, k) => {
                let space = match (last, k) {
                    (Some(a), Some(b)) => apart(a, b),
                    _ => true,
                };
                if !glued && space {
                    pending.push(' ');
                }
                glued = false;
                pending.push_str(&t);
                if first.is_none() {
                    first = k;
                }
                last = k;
            }
            Item::Glue => {
                // Join with the next text, dropping the space before it.
                while pending.ends_with(char::is_whitespace) {
                    pending.pop();
                }
                glued = !pending.is_empty();
            }
            node => {
                glued = false;
                flush(&mut pending, &mut out, &mut first, &mut last);
                out.push(node);
            }
        }
    }
    flush(&mut pending, &mut out, &mut first, &mut last);
    out
}

fn normalize(mut node: Node, apart: Apart) -> Vec<Item> {
    node.children = merge_text(std::mem::take(&mut node.children), apart);
    // A generic child that only repeats this node's name (a legend, a
    // caption, a slot holding the name) says nothing new.
    if !node.name.is_empty() {
        let name = node.name.clone();
        node.children.retain(|c| match c {
            Item::Node(g) if g.role == "generic" && g.props.is_empty() && !is_active(g) => {
                let text = if g.name.is_empty() {
                    match g.children.as_slice() {
                        [Item::Text(t, _)] => Some(t.as_str()),
                        _ => None,
                    }
                } else if g.children.is_empty() {
                    Some(g.name.as_str())
                } else {
                    None
                };
                text != Some(name.as_str())
            }
            _ => true,
        });
    }
    // A nameless image shows nothing.
    node.children.retain(|c| {
        !matches!(c, Item::Node(g) if g.role == "img" && g.name.is_empty() && g.children.is_empty() && !g.click_root)
    });
    // A generic around a generic around text is the text.
    if node.role == "generic"
        && node.props.is_empty()
        && let [Item::Node(child)] = node.children.as_slice()
        && child.role == "generic"
        && child.name.is_empty()
        && !is_active(child)
        && child.props.is_empty()
        && let [Item::Text(..)] = child.children.as_slice()
        && let Some(Item::Node(child)) = node.children.pop()
    {
        node.children = child.children;
    }
    // A single text child equal to the name says nothing new.
    if let [Item::Text(t, _)] = node.children.as_slice()
        && *t == node.name
    {
        node.children.clear();
    }
    // An unnamed generic around at most one element is just a wrapper;
    // an empty one that is a click target of its own stays (Playwright's
    // unwrapSingleChildGenerics).
    if node.role == "generic"
        && node.name.is_empty()
        && node.children.len() <= 1
        && node
            .children
            .iter()
            .all(|c| matches!(c, Item::Node(n) if n.targetable))
        && !(node.children.is_empty() && node.click_root)
    {
        return node.children;
    }
    vec![Item::Node(Box::new(node))]
}

fn is_active(n: &Node) -> bool {
    n.states.iter().any(|s| s.name == "active")
}

fn to_element(item: Item) -> Element {
    match item {
        Item::Text(t, _) => Element::text(t),
        Item::Glue => Element::text(String::new()),
        Item::Node(n) => {
            let n = *n;
            let mut e = Element::new(n.role, n.name);
            e.aria_ref = n.backend.map(crate::frames::ref_text);
            e.states = n.states;
            e.props = n.props;
            e.value = n.value;
            let mut children = n.children;
            if e.value.is_none()
                && e.props.is_empty()
                && let [Item::Text(..)] = children.as_slice()
                && let Some(Item::Text(t, _)) = children.pop()
            {
                e.value = Some(t);
            }
            e.children = children.into_iter().map(to_element).collect();
            e
        }
    }
}

pub use crate::frames::parse_ref;

/// Qualifies the ids under an out-of-process `iframe` node (its items as
/// [`AxSnapshot::convert`] returned them) with its frame number; ids of
/// frames nested in it are qualified already.
fn qualify_frame(items: &mut [Item], frame: u32, depth: usize) {
    let q = |b: &mut Option<i64>| {
        if let Some(id) = b
            && crate::frames::split(*id).0 == 0
        {
            *id = crate::frames::qualify(frame, *id);
        }
    };
    for item in items {
        match item {
            Item::Node(n) => {
                // The iframe node itself is the parent's (depth 0).
                if depth > 0 {
                    q(&mut n.backend);
                }
                if depth < MAX_DEPTH {
                    qualify_frame(&mut n.children, frame, depth + 1);
                }
            }
            Item::Text(_, b) => q(b),
            Item::Glue => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(id: u32, parent: Option<u32>, role: &str, name: &str, children: &[u32]) -> Value {
        let mut n = json!({
            "nodeId": id.to_string(),
            "ignored": false,
            "role": {"type": "role", "value": role},
            "name": {"type": "computedString", "value": name},
            "childIds": children.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "backendDOMNodeId": id + 100,
        });
        if let Some(p) = parent {
            n["parentId"] = json!(p.to_string());
        }
        n
    }

    #[test]
    fn shapes_like_playwright() {
        let mut heading = node(3, Some(2), "heading", "Cart", &[4]);
        heading["properties"] =
            json!([{"name": "level", "value": {"type": "integer", "value": 2}}]);
        let mut button = node(7, Some(2), "button", "Add to cart", &[8]);
        button["properties"] =
            json!([{"name": "disabled", "value": {"type": "boolean", "value": true}}]);
        let mut link = node(9, Some(2), "link", "Help", &[10]);
        link["properties"] = json!([{"name": "url", "value": {"type": "string", "value": "http://127.0.0.1:9/help.html"}}]);
        let mut textbox = node(11, Some(2), "textbox", "Email", &[12]);
        textbox["value"] = json!({"type": "string", "value": "ada@"});
        let mut ignored = node(13, Some(2), "generic", "", &[14]);
        ignored["ignored"] = json!(true);
        let ax = json!({"nodes": [
            node(1, None, "RootWebArea", "Shop", &[2]),
            node(2, Some(1), "main", "", &[3, 5, 7, 9, 11, 13, 15]),
            heading,
            node(4, Some(3), "StaticText", "Cart", &[]),
            node(5, Some(2), "paragraph", "", &[6, 16]),
            node(6, Some(5), "StaticText", "Subtotal:  ", &[]),
            button,
            node(8, Some(7), "StaticText", "Add to cart", &[]),
            link,
            node(10, Some(9), "StaticText", "Help", &[]),
            textbox,
            node(12, Some(11), "generic", "", &[]),
            ignored,
            node(14, Some(13), "button", "Pay", &[]),
            node(15, Some(2), "generic", "", &[17]),
            node(16, Some(5), "StaticText", "$8.50", &[]),
            node(17, Some(15), "listitem", "", &[]),
        ]});
        let snap = AxSnapshot::parse(ax, Some("http://127.0.0.1:9/index.html")).unwrap();
        assert_eq!(
            snap.tree().to_aria(),
            "- main [ref=e102]:\n  - heading \"Cart\" [level=2] [ref=e103]\n  - paragraph [ref=e105]: \"Subtotal: $8.50\"\n  - button \"Add to cart\" [disabled] [ref=e107]\n  - link \"Help\" [ref=e109]:\n    - /url: /help.html\n  - textbox \"Email\" [ref=e111]: ada@\n  - button \"Pay\" [ref=e114]\n  - listitem [ref=e117]"
        );
        let sub = snap.subtree(105).unwrap();
        assert_eq!(sub.to_aria(), "- paragraph [ref=e105]: \"Subtotal: $8.50\"");
        assert!(snap.subtree(999).is_none());
    }

    #[test]
    fn refs() {
        assert_eq!(parse_ref("e42"), Some(42));
        assert_eq!(parse_ref("e"), None);
        assert_eq!(parse_ref("42"), None);
        assert_eq!(parse_ref("e4x"), None);
    }

    #[test]
    fn origins() {
        assert_eq!(
            origin_of("http://127.0.0.1:8080/a?b").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(origin_of("about:blank"), None);
    }
}

#[cfg(test)]
mod dom_tests {
    use super::*;
    use serde_json::json;

    /// One DOM node: backend id, parent's backend id, tag (`#text` for
    /// text), attributes, text (for text nodes) and display.
    struct D(
        i64,
        Option<i64>,
        &'static str,
        &'static [(&'static str, &'static str)],
        &'static str,
        &'static str,
    );

    /// A `DOMSnapshot.captureSnapshot` result for these nodes (every node
    /// laid out with a 10×10 box, visible, taking pointer events).
    fn dom(nodes: &[D], selected: &[i64]) -> Value {
        let mut strings: Vec<String> = Vec::new();
        let mut idx = |s: &str| -> i64 {
            match strings.iter().position(|x| x == s) {
                Some(i) => i as i64,
                None => {
                    strings.push(s.to_owned());
                    (strings.len() - 1) as i64
                }
            }
        };
        let pos = |b: i64| nodes.iter().position(|n| n.0 == b).map_or(-1, |p| p as i64);
        let mut names = Vec::new();
        let mut attrs = Vec::new();
        let mut values = Vec::new();
        let mut styles = Vec::new();
        for n in nodes {
            names.push(idx(n.2));
            attrs.push(
                n.3.iter()
                    .flat_map(|(k, v)| [idx(k), idx(v)])
                    .collect::<Vec<_>>(),
            );
            values.push(if n.2 == "#text" { idx(n.4) } else { -1 });
            styles.push(vec![idx(n.5), idx("normal"), idx("visible"), idx("auto")]);
        }
        json!({
            "strings": strings,
            "documents": [{
                "nodes": {
                    "parentIndex": nodes.iter().map(|n| n.1.map_or(-1, pos)).collect::<Vec<_>>(),
                    "nodeType": nodes.iter().map(|n| if n.2 == "#text" { 3 } else { 1 }).collect::<Vec<_>>(),
                    "nodeName": names,
                    "nodeValue": values,
                    "backendNodeId": nodes.iter().map(|n| n.0).collect::<Vec<_>>(),
                    "attributes": attrs,
                    "optionSelected": {"index": selected.iter().map(|&b| pos(b)).collect::<Vec<_>>()},
                    "inputValue": {"index": [], "value": []},
                },
                "layout": {
                    "nodeIndex": (0..nodes.len()).collect::<Vec<_>>(),
                    "styles": styles,
                    "bounds": nodes.iter().map(|_| [0, 0, 10, 10]).collect::<Vec<_>>(),
                }
            }]
        })
    }

    /// An AX node whose backend id is its node id.
    fn ax(id: i64, parent: Option<i64>, role: &str, name: &str, children: &[i64]) -> Value {
        let mut n = json!({
            "nodeId": id.to_string(),
            "ignored": false,
            "role": {"type": "role", "value": role},
            "name": {"type": "computedString", "value": name},
            "childIds": children.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "backendDOMNodeId": id,
        });
        if let Some(p) = parent {
            n["parentId"] = json!(p.to_string());
        }
        n
    }

    fn with(mut n: Value, props: Value) -> Value {
        n["properties"] = props;
        n
    }

    fn flag(name: &str) -> Value {
        json!({"name": name, "value": {"type": "boolean", "value": true}})
    }

    fn snapshot(nodes: Vec<Value>, dom_nodes: &[D], selected: &[i64]) -> String {
        let snap = AxSnapshot::parse(json!({ "nodes": nodes }), Some("http://127.0.0.1:9/p.html"))
            .unwrap();
        let snap = snap.with_dom(DomFacts::parse(&dom(dom_nodes, selected)), HashMap::new());
        snap.tree().to_aria()
    }

    #[test]
    fn option_states_come_from_the_dom() {
        // Chromium keeps the options [disabled] after the select was enabled
        // and marks none selected; the DOM says which is.
        let disabled = || json!([flag("disabled")]);
        let nodes = vec![
            with(ax(1, None, "RootWebArea", "Shop", &[2]), json!([])),
            ax(2, Some(1), "main", "", &[3]),
            ax(3, Some(2), "combobox", "Status", &[4]),
            ax(4, Some(3), "MenuListPopup", "", &[5, 6]),
            with(ax(5, Some(4), "option", "available", &[]), disabled()),
            with(ax(6, Some(4), "option", "sold", &[]), disabled()),
        ];
        let d = [
            D(2, None, "MAIN", &[], "", "block"),
            D(
                3,
                Some(2),
                "SELECT",
                &[("aria-label", "Status")],
                "",
                "inline-block",
            ),
            D(5, Some(3), "OPTION", &[], "", "block"),
            D(7, Some(5), "#text", &[], "available", "block"),
            D(6, Some(3), "OPTION", &[], "", "block"),
            D(8, Some(6), "#text", &[], "sold", "block"),
        ];
        assert_eq!(
            snapshot(nodes, &d, &[6]),
            "- main [ref=e2]:\n  - combobox \"Status\" [ref=e3]:\n    - option \"available\" [ref=e5]\n    - option \"sold\" [selected] [ref=e6]"
        );
    }

    #[test]
    fn layout_tables_are_tables_and_body_is_the_root() {
        let nodes = vec![
            with(
                ax(1, None, "RootWebArea", "T", &[10]),
                json!([flag("focused")]),
            ),
            with(ax(10, Some(1), "none", "", &[2, 9]), json!([])),
            ax(2, Some(10), "LayoutTable", "", &[3]),
            ax(3, Some(2), "LayoutTableRow", "", &[4, 5]),
            ax(4, Some(3), "LayoutTableCell", "Ada", &[6]),
            ax(6, Some(4), "StaticText", "Ada", &[]),
            ax(5, Some(3), "LayoutTableCell", "", &[]),
            ax(9, Some(10), "paragraph", "", &[11]),
            ax(11, Some(9), "StaticText", "After", &[]),
        ];
        let d = [
            D(10, None, "BODY", &[], "", "block"),
            D(2, Some(10), "TABLE", &[], "", "table"),
            D(3, Some(2), "TR", &[], "", "table-row"),
            D(4, Some(3), "TD", &[], "", "table-cell"),
            D(6, Some(4), "#text", &[], "Ada", "inline"),
            D(5, Some(3), "TD", &[], "", "table-cell"),
            D(9, Some(10), "P", &[], "", "block"),
            D(11, Some(9), "#text", &[], "After", "inline"),
        ];
        let mut nodes = nodes;
        nodes[1]["ignored"] = json!(true);
        assert_eq!(
            snapshot(nodes, &d, &[]),
            "- generic [active] [ref=e10]:\n  - table [ref=e2]:\n    - row [ref=e3]:\n      - cell \"Ada\" [ref=e4]\n      - cell [ref=e5]\n  - paragraph [ref=e9]: After"
        );
    }

    #[test]
    fn urls_placeholders_values_and_left_out_wrappers() {
        // A div Chromium leaves out of its tree is a generic around its two
        // children; a link's /url is its raw href; a text field's
        // placeholder other than its name is a prop.
        let url = json!([{"name": "url", "value": {"type": "string", "value": "http://127.0.0.1:9/p.html#x"}}]);
        let nodes = vec![
            ax(1, None, "RootWebArea", "T", &[2]),
            ax(2, Some(1), "main", "", &[3, 5, 7]),
            with(ax(3, Some(2), "link", "Top", &[4]), url),
            ax(4, Some(3), "StaticText", "Top", &[]),
            ax(5, Some(2), "textbox", "Email", &[]),
            ax(7, Some(2), "DisclosureTriangle", "More", &[8]),
            ax(8, Some(7), "StaticText", "More", &[]),
        ];
        let mut nodes = nodes;
        nodes[5]["properties"] = json!([flag("expanded")]);
        let d = [
            D(2, None, "MAIN", &[], "", "block"),
            D(20, Some(2), "DIV", &[], "", "block"),
            D(3, Some(20), "A", &[("href", "#x")], "", "inline"),
            D(4, Some(3), "#text", &[], "Top", "inline"),
            D(
                5,
                Some(20),
                "INPUT",
                &[("placeholder", "you@example.com"), ("aria-label", "Email")],
                "",
                "inline-block",
            ),
            D(7, Some(2), "SUMMARY", &[], "", "block"),
            D(8, Some(7), "#text", &[], "More", "inline"),
        ];
        assert_eq!(
            snapshot(nodes, &d, &[]),
            "- main [ref=e2]:\n  - generic [ref=e20]:\n    - link \"Top\" [ref=e3]:\n      - /url: \"#x\"\n    - textbox \"Email\" [ref=e5]:\n      - /placeholder: you@example.com\n  - generic \"More\" [ref=e7]"
        );
    }

    #[test]
    fn label_text_and_name_rules() {
        // The label's text Chromium ignores (it names the checkbox) is shown;
        // a legend repeating its group's name is dropped; a row's name from
        // its cells is dropped, as their content shows it.
        let mut text = ax(6, Some(4), "none", "", &[]);
        text["ignored"] = json!(true);
        text["ignoredReasons"] =
            json!([{"name": "labelFor", "value": {"type": "boolean", "value": true}}]);
        let mut label = ax(4, Some(3), "none", "", &[5, 6]);
        label["ignored"] = json!(true);
        label["ignoredReasons"] =
            json!([{"name": "labelFor", "value": {"type": "boolean", "value": true}}]);
        let mut row = ax(30, Some(2), "row", "A1 A2", &[31, 32]);
        row["name"]["sources"] =
            json!([{"type": "contents", "value": {"type": "computedString", "value": "A1 A2"}}]);
        let nodes = vec![
            ax(1, None, "RootWebArea", "T", &[2]),
            ax(2, Some(1), "main", "", &[3, 30]),
            ax(3, Some(2), "group", "Delivery", &[9, 4]),
            ax(9, Some(3), "Legend", "", &[10]),
            ax(10, Some(9), "StaticText", "Delivery", &[]),
            label,
            with(
                ax(5, Some(4), "checkbox", "Gift wrap", &[]),
                json!([{"name": "checked", "value": {"type": "tristate", "value": "true"}}]),
            ),
            text,
            row,
            ax(31, Some(30), "gridcell", "A1", &[]),
            ax(32, Some(30), "gridcell", "A2", &[]),
        ];
        let d = [
            D(2, None, "MAIN", &[], "", "block"),
            D(3, Some(2), "FIELDSET", &[], "", "block"),
            D(9, Some(3), "LEGEND", &[], "", "block"),
            D(10, Some(9), "#text", &[], "Delivery", "inline"),
            D(4, Some(3), "LABEL", &[], "", "inline"),
            D(
                5,
                Some(4),
                "INPUT",
                &[("type", "checkbox")],
                "",
                "inline-block",
            ),
            D(6, Some(4), "#text", &[], " Gift wrap", "inline"),
            D(30, Some(2), "DIV", &[("role", "row")], "", "block"),
            D(31, Some(30), "DIV", &[("role", "gridcell")], "", "block"),
            D(33, Some(31), "#text", &[], "A1", "block"),
            D(32, Some(30), "DIV", &[("role", "gridcell")], "", "block"),
            D(34, Some(32), "#text", &[], "A2", "block"),
        ];
        assert_eq!(
            snapshot(nodes, &d, &[]),
            "- main [ref=e2]:\n  - group \"Delivery\" [ref=e3]:\n    - generic [ref=e4]:\n      - checkbox \"Gift wrap\" [checked] [ref=e5]\n      - text: Gift wrap\n  - row [ref=e30]:\n    - gridcell \"A1\" [ref=e31]\n    - gridcell \"A2\" [ref=e32]"
        );
    }

    #[test]
    fn text_is_joined_as_the_dom_has_it() {
        // Inline spans with no whitespace between join ("Ln:1", "Col:2"); a
        // blank text node between is a space.
        let nodes = vec![
            ax(1, None, "RootWebArea", "T", &[2]),
            ax(2, Some(1), "paragraph", "", &[4, 6, 8, 10]),
            ax(4, Some(2), "StaticText", "Ln:", &[]),
            ax(6, Some(2), "StaticText", "1", &[]),
            ax(8, Some(2), "StaticText", "Col:", &[]),
            ax(10, Some(2), "StaticText", "2", &[]),
        ];
        let d = [
            D(2, None, "P", &[], "", "block"),
            D(3, Some(2), "SPAN", &[], "", "inline"),
            D(4, Some(3), "#text", &[], "Ln:", "inline"),
            D(5, Some(2), "SPAN", &[], "", "inline"),
            D(6, Some(5), "#text", &[], "1", "inline"),
            D(11, Some(2), "#text", &[], " ", "inline"),
            D(7, Some(2), "SPAN", &[], "", "inline"),
            D(8, Some(7), "#text", &[], "Col:", "inline"),
            D(10, Some(2), "#text", &[], "2", "inline"),
        ];
        assert_eq!(snapshot(nodes, &d, &[]), "- paragraph [ref=e2]: Ln:1 Col:2");
    }

    #[test]
    fn aria_hidden_subtrees_are_read_from_the_dom() {
        // Chromium keeps the gutter (3) as an ignored node without its
        // cells, and the hidden slide (20) not at all; Playwright shows
        // both as the DOM has them, nameless, [aria-hidden] where the
        // attribute is, the slide in its place before the textbox.
        let mut gutter = ax(3, Some(2), "none", "", &[]);
        gutter["ignored"] = json!(true);
        gutter["ignoredReasons"] =
            json!([{"name": "ariaHiddenSubtree", "value": {"type": "boolean", "value": true}}]);
        let nodes = vec![
            ax(1, None, "RootWebArea", "T", &[2]),
            ax(2, Some(1), "main", "", &[3, 9]),
            gutter,
            ax(9, Some(2), "textbox", "Code", &[]),
        ];
        let d = [
            D(2, None, "MAIN", &[], "", "block"),
            D(3, Some(2), "DIV", &[("aria-hidden", "true")], "", "block"),
            D(4, Some(3), "DIV", &[("aria-hidden", "false")], "", "block"),
            D(5, Some(4), "#text", &[], "1", "inline"),
            D(
                6,
                Some(4),
                "SPAN",
                &[
                    ("role", "button"),
                    ("aria-label", "Fold rows 1 to 3"),
                    ("aria-expanded", "true"),
                ],
                "",
                "inline-block",
            ),
            D(7, Some(3), "DIV", &[("aria-hidden", "true")], "", "block"),
            D(8, Some(7), "#text", &[], "2", "inline"),
            D(
                20,
                Some(2),
                "SECTION",
                &[("hidden", ""), ("inert", ""), ("aria-hidden", "true")],
                "",
                "block",
            ),
            D(21, Some(20), "H2", &[], "", "block"),
            D(22, Some(21), "#text", &[], "Next", "inline"),
            D(
                23,
                Some(20),
                "A",
                &[("href", "#/2"), ("disabled", "")],
                "",
                "inline",
            ),
            D(24, Some(23), "#text", &[], "Down", "inline"),
            D(
                9,
                Some(2),
                "TEXTAREA",
                &[("aria-label", "Code")],
                "",
                "inline-block",
            ),
        ];
        assert_eq!(
            snapshot(nodes, &d, &[]),
            "- main [ref=e2]:\n  - generic [aria-hidden] [ref=e3]:\n    - generic [ref=e4]:\n      - text: \"1\"\n      - button [expanded] [ref=e6]\n    - generic [aria-hidden] [ref=e7]: \"2\"\n  - generic [aria-hidden] [ref=e20]:\n    - heading [level=2] [ref=e21]: Next\n    - link [ref=e23]:\n      - /url: \"#/2\"\n      - text: Down\n  - textbox \"Code\" [ref=e9]"
        );
    }

    #[test]
    fn an_empty_click_target_is_kept() {
        // Chromium leaves out empty divs; Playwright keeps one whose cursor
        // is a pointer and its parent's is not (a click target of its own).
        let nodes = vec![
            ax(1, None, "RootWebArea", "T", &[2]),
            ax(2, Some(1), "main", "", &[3]),
            ax(3, Some(2), "button", "Go", &[]),
        ];
        let d = [
            D(2, None, "MAIN", &[], "", "block"),
            D(3, Some(2), "BUTTON", &[], "", "inline-block"),
            D(4, Some(3), "#text", &[], "Go", "inline"),
            D(5, Some(2), "DIV", &[], "", "block"),
            D(6, Some(2), "DIV", &[], "", "block"),
        ];
        let mut raw = dom(&d, &[]);
        let strings = raw["strings"].as_array_mut().unwrap();
        strings.push(json!("pointer"));
        let pointer = strings.len() - 1;
        // Node 5 (index 3) has cursor: pointer; node 6 does not.
        raw["documents"][0]["layout"]["styles"][3]
            .as_array_mut()
            .unwrap()
            .push(json!(pointer));
        let snap = AxSnapshot::parse(json!({ "nodes": nodes }), None)
            .unwrap()
            .with_dom(DomFacts::parse(&raw), HashMap::new());
        assert_eq!(
            snap.tree().to_aria(),
            "- main [ref=e2]:\n  - button \"Go\" [ref=e3]\n  - generic [ref=e5]"
        );
    }

    #[test]
    fn a_hidden_label_for_names_its_control() {
        // Chromium leaves the checkbox unnamed: its label is not displayed.
        let nodes = vec![
            ax(1, None, "RootWebArea", "T", &[2]),
            ax(2, Some(1), "main", "", &[10]),
            ax(10, Some(2), "checkbox", "", &[]),
        ];
        let d = [
            D(2, None, "MAIN", &[], "", "block"),
            D(
                10,
                Some(2),
                "INPUT",
                &[("type", "checkbox"), ("id", "all")],
                "",
                "inline-block",
            ),
            D(11, Some(2), "LABEL", &[("for", "all")], "", "none"),
            D(12, Some(11), "#text", &[], "Mark all as complete", "inline"),
        ];
        assert_eq!(
            snapshot(nodes, &d, &[]),
            "- main [ref=e2]:\n  - checkbox \"Mark all as complete\" [ref=e10]"
        );
    }

    #[test]
    fn css_strings() {
        assert_eq!(css_string("\"✔\"").as_deref(), Some("✔"));
        assert_eq!(css_string("none"), None);
        assert_eq!(css_string("counter(x)"), None);
    }
}
