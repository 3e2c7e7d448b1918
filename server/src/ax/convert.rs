//! One AX node → the items Playwright's ai snapshot shows for it, with
//! the AX tree corrected from the DOM where they differ:
//! - ignored nodes, `none`/`presentation` and the root are dissolved into
//!   their parent (their children take their place);
//! - text fields show their value inline and no children; only `<input>`
//!   and `<textarea>` show a value; a password's value stays in the page;
//! - descriptions are left out, as Playwright does (they mostly repeat text
//!   that is on the page anyway, such as an error under a field);
//! - `<body>` is a node of its own (`generic`, `[active]` when the document
//!   has focus and nothing in it does), as Playwright's snapshot root;
//! - an inline unnamed element holding just one text node is its text;
//!   list markers are not text; a `<br>` adds no space; the text Chromium
//!   leaves out of a label is read from the DOM;
//! - names: only the roles Playwright names from content keep a name from
//!   content; a name the content shows (from elements under the node, or
//!   `aria-labelledby`/a caption pointing inside) is dropped, as
//!   Playwright's ai mode does; a generic's `title` is its name; a figure
//!   is named by its caption; a name from content takes the DOM's case;
//! - a control Chromium leaves unnamed is named by its `<label for>`, even
//!   a label that is not displayed (Playwright's rule).

use response_diff::tree::State;
use serde_json::Value;

use super::dom::{MAX_DEPTH, has_role_attr, is_aria_hidden};
use super::frames::qualify_frame;
use super::model::{AxSnapshot, Item, Node};
use super::name::{NAME_FROM_CONTENT, NameFrom, all_shown, name_from, own_text, shown_by_content};
use super::print::{b_or, collapse, normalize};
use super::read::{ax_string, hidden_by_aria, ignored_as_text};
use super::role::{TABLE_PARTS, aria_role};

/// Roles whose value is shown inline and whose children are not shown.
pub(super) const FIELD_ROLES: &[&str] = &[
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

    pub(super) fn convert(&self, i: usize, depth: usize) -> Vec<Item> {
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
                bounds: None,
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
            bounds: None,
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
}
