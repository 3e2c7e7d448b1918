//! The naming step applied to the snapshot's nodes: a node's name from
//! the DOM (Playwright's, where the DOM snapshot tells it), CSS content
//! as text, and nodes shaped as the DOM has them where Chromium's tree
//! differs (ruby text, a modal page, the wrappers Playwright makes).

use super::role::{
    PROHIBITS_NAME, VALID_ROLES, closest_disabled_fieldset, hidden, native_level, node, role, tag,
};
use super::walk::{Name, accessible_name, css_content};
use crate::ax::dom::{DomFacts, DomNode};
use crate::ax::model::{AxSnapshot, Item, Node};
use response_diff::tree::State;

/// Whether Playwright makes a node of the element (ai mode: visible to
/// aria or on screen; not none/presentation; not an inline generic
/// holding only one text node).
pub(super) fn makes_node(dom: &DomFacts, b: i64, d: &DomNode) -> bool {
    if hidden(dom, b) && !d.visible {
        return false;
    }
    match role(dom, b).as_deref() {
        Some("none" | "presentation") => false,
        None | Some("generic") => !(d.inline && d.only_text_child),
        _ => true,
    }
}

/// A generic whose content (through elements that make no node) is text
/// only.
pub(super) fn leaf_generic(dom: &DomFacts, b: i64, depth: usize) -> bool {
    if depth == 0 && !matches!(role(dom, b).as_deref(), None | Some("generic")) {
        return false;
    }
    if depth > 64 {
        return false;
    }
    dom.kids.get(&b).into_iter().flatten().all(|&k| {
        if dom.text.contains_key(&k) {
            return true;
        }
        match node(dom, k) {
            Some(c) if c.tag.starts_with("::") => true,
            Some(c) => !makes_node(dom, k, c) && leaf_generic(dom, k, depth + 1),
            None => true,
        }
    })
}

impl AxSnapshot {
    /// Playwright's name of the element `backend`, or `None` where the
    /// DOM snapshot does not tell it (no DOM facts, an iframe, a shadow
    /// host, `aria-owns`).
    pub(in crate::ax) fn dom_name(&self, backend: Option<i64>, role: &str) -> Option<Name> {
        if self.dom.nodes.is_empty() || role == "iframe" {
            return None;
        }
        let b = backend?;
        let name = accessible_name(&self.dom, b)?;
        if !name.contributors.is_empty() {
            self.name_parts
                .borrow_mut()
                .insert(b, name.contributors.clone());
        }
        Some(name)
    }

    /// The backend id of the `::before`/`::after` an AX node (CSS
    /// content's text) sits under.
    pub(in crate::ax) fn pseudo_parent(&self, n: &serde_json::Value) -> Option<i64> {
        let p = n.get("parentId").and_then(crate::ax::read::id_str)?;
        let b = self.backend_of(*self.by_id.get(&p)?)?;
        node(&self.dom, b)
            .filter(|d| matches!(d.tag.as_str(), "::before" | "::after"))
            .map(|_| b)
    }

    /// The text of a `::before`/`::after` node: its CSS content as
    /// Playwright reads it (strings and `attr()`; `open-quote` and
    /// counters are nothing), keyed by the pseudo-element so it joins its
    /// neighbours as the DOM has them. `None` for other nodes.
    pub(in crate::ax) fn pseudo_items(&self, backend: Option<i64>) -> Option<Vec<Item>> {
        let b = backend?;
        let d = node(&self.dom, b).filter(|d| matches!(d.tag.as_str(), "::before" | "::after"))?;
        let owner = self.dom.parent.get(&b).and_then(|&p| node(&self.dom, p));
        if d.visibility.as_deref().is_some_and(|v| v != "visible") {
            return Some(Vec::new());
        }
        let text = d.content.as_deref().and_then(|c| css_content(d, owner, c));
        Some(
            text.filter(|t| !t.is_empty())
                .map(|t| Item::Text(t, Some(b)))
                .into_iter()
                .collect(),
        )
    }

    /// The last corrections of a node whose name came from the DOM: the
    /// role and level Playwright gives its element where Chromium's
    /// differ, then the usual shaping.
    pub(in crate::ax) fn dom_shaped(&self, mut n: Node) -> Vec<Item> {
        let apart = |a, b| self.apart(a, b);
        let Some(d) = n.backend.and_then(|b| node(&self.dom, b)) else {
            return crate::ax::print::normalize(n, &apart);
        };
        let b = n.backend.unwrap_or_default();
        let ours = role(&self.dom, b);
        let explicit = d.attr("role").and_then(|r| {
            r.split(' ')
                .map(str::trim)
                .find(|r| VALID_ROLES.contains(r))
        });
        match ours.as_deref() {
            // Presentational by inheritance (an `<li>` of a `role=none`
            // list): no node, its children in its place.
            Some("none" | "presentation") => {
                return crate::ax::print::merge_text(std::mem::take(&mut n.children), &apart);
            }
            // Elements Playwright gives no role: `<s>`, `<hgroup>`, a
            // `<section>` or `<form>` named only by `title`.
            None if matches!(tag(d).as_str(), "S" | "HGROUP" | "SECTION" | "FORM") => {
                n.role = "generic".into();
                n.states.clear();
            }
            // A role Chromium does not give out of context (an `option`
            // outside a listbox, a `listitem` outside a list).
            Some(r) if n.role == "generic" && (explicit == Some(r) || explicit.is_none()) => {
                n.role = r.to_owned();
            }
            _ => {}
        }
        if n.role == "generic"
            && explicit.is_none()
            && d.inline
            && d.only_text_child
            && n.name.is_empty()
        {
            return crate::ax::print::merge_text(std::mem::take(&mut n.children), &apart);
        }
        // An option is disabled by a disabled fieldset around its select
        // (Playwright's belongsToDisabledFieldSet), not only by its own
        // attribute or optgroup.
        if n.role == "option"
            && tag(d) == "OPTION"
            && !n.states.iter().any(|s| s.name == "disabled")
            && let Some(f) = closest_disabled_fieldset(&self.dom, b)
            && !self
                .dom
                .kids
                .get(&f)
                .into_iter()
                .flatten()
                .find(|&&k| node(&self.dom, k).is_some_and(|l| tag(l) == "LEGEND"))
                .is_some_and(|&l| self.within(b, l))
        {
            n.states.push(response_diff::tree::State::flag("disabled"));
            n.states.sort_by_key(State::playwright_rank);
        }
        if let Some(v) = d.attr("aria-invalid").map(str::trim)
            && (v == "spelling" || v == "grammar")
            && n.states.iter().any(|s| s.name == "invalid")
        {
            n.states.retain(|s| s.name != "invalid");
            n.states
                .push(response_diff::tree::State::with_value("invalid", v));
            n.states.sort_by_key(State::playwright_rank);
        }
        // Playwright's level: a native heading's own, else aria-level on
        // the roles that have one, else none.
        if matches!(n.role.as_str(), "heading" | "listitem" | "row" | "treeitem") {
            let level = native_level(d).map(u32::from).or_else(|| {
                d.attr("aria-level")
                    .and_then(|l| l.trim().parse::<u32>().ok())
                    .filter(|&l| l >= 1)
            });
            n.states.retain(|s| s.name != "level");
            if let Some(l) = level {
                n.states.push(response_diff::tree::State::with_value(
                    "level",
                    l.to_string(),
                ));
                n.states.sort_by_key(State::playwright_rank);
            }
        }
        crate::ax::print::normalize(n, &apart)
    }

    /// Whether Playwright makes a node of an element Chromium left out:
    /// not when it is presentational by inheritance (an `<li>` of a
    /// `role=none` list) or not visible (`visibility: hidden`, its
    /// visible children shown in its place).
    pub(in crate::ax) fn wraps_as_playwright(&self, b: i64, d: &DomNode) -> bool {
        if self.dom.laid_out.contains(&b) && d.visibility.as_deref().is_some_and(|v| v != "visible")
        {
            return false;
        }
        !matches!(role(&self.dom, b).as_deref(), Some("none" | "presentation"))
    }

    /// The role of an element Chromium left out and Playwright shows: its
    /// own where that role takes no name (a paragraph Chromium folds into
    /// a generic), else `generic`.
    pub(in crate::ax) fn wrapper_role(&self, b: i64) -> String {
        role(&self.dom, b)
            .filter(|r| PROHIBITS_NAME.contains(&r.as_str()) && r != "presentation")
            .unwrap_or_else(|| "generic".to_owned())
    }

    /// The page behind a modal `<dialog>`: Chromium's tree holds only the
    /// dialog (the document element is ignored as `activeModalDialog`);
    /// Playwright shows the whole page, so the body is read from the DOM,
    /// named (the dialog with it, in its place). `None` for other nodes.
    pub(in crate::ax) fn modal_page(
        &self,
        n: &serde_json::Value,
        b: i64,
        depth: usize,
    ) -> Option<Vec<Item>> {
        let modal = n
            .get("ignoredReasons")
            .and_then(serde_json::Value::as_array)
            .is_some_and(|rs| {
                rs.iter().any(|r| {
                    r.get("name").and_then(serde_json::Value::as_str) == Some("activeModalDialog")
                })
            });
        if !modal || node(&self.dom, b).is_none_or(|d| tag(d) != "HTML") {
            return None;
        }
        let body = self
            .dom
            .kids
            .get(&b)?
            .iter()
            .copied()
            .find(|&k| node(&self.dom, k).is_some_and(|d| tag(d) == "BODY"))?;
        Some(self.hidden_items(body, depth + 1))
    }

    /// A ruby annotation (`<rt>`) Chromium leaves out of its tree:
    /// Playwright shows it as a generic holding its text (its display is
    /// not inline). `None` for other nodes.
    pub(in crate::ax) fn ruby_text(&self, b: i64) -> Option<Vec<Item>> {
        let d = node(&self.dom, b).filter(|d| tag(d) == "RT" && d.visible)?;
        let children = self
            .dom
            .kids
            .get(&b)
            .into_iter()
            .flatten()
            .filter_map(|&k| Some(Item::Text(self.dom.text.get(&k)?.clone(), Some(k))))
            .collect();
        Some(crate::ax::print::normalize(
            Node {
                role: "generic".into(),
                name: String::new(),
                value: None,
                backend: Some(b),
                states: Vec::new(),
                props: Vec::new(),
                children,
                targetable: d.targetable,
                click_root: d.click_root,
                bounds: None,
            },
            &|a, b| self.apart(a, b),
        ))
    }
}
