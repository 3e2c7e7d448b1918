//! Chromium's accessibility tree (`Accessibility.getFullAXTree`, raw JSON)
//! → the core's aria [`Tree`], printed the way Playwright prints snapshots.
//!
//! Refs are `e<backendDOMNodeId>`: Chromium keeps a node's backend id for the
//! life of the document, so the same element has the same ref in every
//! snapshot of that document, and the server can act on it directly.
//!
//! The shaping follows Playwright's aria snapshot:
//! - ignored nodes, `none`/`presentation`, labels and the root are dissolved
//!   into their parent (their children take their place);
//! - adjacent text is joined with whitespace collapsed;
//! - a node whose only child is text equal to its name drops that text
//!   (`- button "Add to cart"`), a node whose only child is other text
//!   shows it inline (`- paragraph: Subtotal: $8.50`);
//! - an unnamed `generic` wrapping at most one element is replaced by it;
//! - text fields show their value inline and no children;
//! - descriptions are left out, as Playwright does (they mostly repeat text
//!   that is on the page anyway, such as an error under a field).

use std::collections::HashMap;

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
}

enum Item {
    Node(Box<Node>),
    Text(String),
}

struct Node {
    role: String,
    name: String,
    value: Option<String>,
    backend: Option<i64>,
    states: Vec<State>,
    props: Vec<Prop>,
    children: Vec<Item>,
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
    "LabelText",
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
        })
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
        for c in self.children_of(i) {
            out.extend(self.convert(c, depth + 1));
        }
        out
    }

    fn convert(&self, i: usize, depth: usize) -> Vec<Item> {
        let n = &self.nodes[i];
        let role = n
            .pointer("/role/value")
            .and_then(Value::as_str)
            .unwrap_or("generic");
        let ignored = n.get("ignored").and_then(Value::as_bool).unwrap_or(false);
        match role {
            "StaticText" if !ignored => {
                let text = ax_string(n, "name").unwrap_or_default();
                return vec![Item::Text(text)];
            }
            "StaticText" | "InlineTextBox" | "ListMarker" => return Vec::new(),
            "LineBreak" => return vec![Item::Text("\n".into())],
            _ => {}
        }
        if ignored || DISSOLVED.contains(&role) {
            return self.convert_children(i, depth);
        }
        let role = aria_role(role);
        let mut node = Node {
            role: role.to_owned(),
            name: ax_string(n, "name")
                .map(|s| collapse(&s))
                .unwrap_or_default(),
            value: None,
            backend: n.get("backendDOMNodeId").and_then(Value::as_i64),
            states: Vec::new(),
            props: Vec::new(),
            children: Vec::new(),
        };
        self.read_properties(n, &mut node);
        let is_field = FIELD_ROLES.contains(&role);
        if is_field {
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
        normalize(node)
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
                    Some(Value::String(s)) if s != "false" => Some(State::flag("invalid")),
                    _ => None,
                },
                "level" if matches!(node.role.as_str(), "heading" | "treeitem") => value
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
        // Playwright's attribute order: checked, disabled, expanded, level,
        // pressed, selected, then the rest.
        let rank = |s: &State| match s.name.as_str() {
            "active" => 0,
            "checked" => 1,
            "disabled" => 2,
            "expanded" => 3,
            "invalid" => 4,
            "level" => 5,
            "pressed" => 6,
            "selected" => 7,
            _ => 8,
        };
        node.states.sort_by_key(rank);
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
        let items = merge_text(items);
        items.into_iter().map(to_element).collect()
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
        "DisclosureTriangle" => "button",
        "Canvas" => "img",
        "Iframe" | "IframePresentational" => "iframe",
        "DescriptionList" => "list",
        "DescriptionListTerm" => "term",
        "DescriptionListDetail" => "definition",
        "HeaderAsNonLandmark"
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
fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Joins adjacent text items (collapsing whitespace) and drops empty ones.
fn merge_text(items: Vec<Item>) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::with_capacity(items.len());
    let mut pending = String::new();
    let flush = |pending: &mut String, out: &mut Vec<Item>| {
        let t = collapse(pending);
        if !t.is_empty() {
            out.push(Item::Text(t));
        }
        pending.clear();
    };
    for item in items {
        match item {
            Item::Text(t) => {
                pending.push(' ');
                pending.push_str(&t);
            }
            node => {
                flush(&mut pending, &mut out);
                out.push(node);
            }
        }
    }
    flush(&mut pending, &mut out);
    out
}

fn normalize(mut node: Node) -> Vec<Item> {
    node.children = merge_text(std::mem::take(&mut node.children));
    // A single text child equal to the name says nothing new.
    if let [Item::Text(t)] = node.children.as_slice()
        && *t == node.name
    {
        node.children.clear();
    }
    // An unnamed generic around at most one element is just a wrapper.
    if node.role == "generic"
        && node.name.is_empty()
        && node.children.len() <= 1
        && node
            .children
            .iter()
            .all(|c| matches!(c, Item::Node(n) if n.backend.is_some()))
        && !node.states.iter().any(|s| s.name == "active")
    {
        return node.children;
    }
    vec![Item::Node(Box::new(node))]
}

fn to_element(item: Item) -> Element {
    match item {
        Item::Text(t) => Element::text(t),
        Item::Node(n) => {
            let n = *n;
            let mut e = Element::new(n.role, n.name);
            e.aria_ref = n.backend.map(|b| format!("e{b}"));
            e.states = n.states;
            e.props = n.props;
            e.value = n.value;
            let mut children = n.children;
            if e.value.is_none()
                && e.props.is_empty()
                && let [Item::Text(_)] = children.as_slice()
                && let Some(Item::Text(t)) = children.pop()
            {
                e.value = Some(t);
            }
            e.children = children.into_iter().map(to_element).collect();
            e
        }
    }
}

/// Parses a ref (`e123`) into the backend node id it names.
pub fn parse_ref(r: &str) -> Option<i64> {
    r.strip_prefix('e')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse().ok())
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
