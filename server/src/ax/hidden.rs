//! What Chromium's tree keeps only in part, read from the DOM whole:
//! - `aria-hidden` subtrees: Chromium keeps them only in part (ace's
//!   gutter keeps its fold buttons, named, and loses its line numbers),
//!   drops some entirely (reveal.js's laid-out neighbouring slides) and
//!   un-hides one while focus is inside it; Playwright shows every visible
//!   element in them, with the role of its `role` or tag, no name and
//!   `[aria-hidden]` where the attribute is; there, `disabled` is native
//!   on form controls only, not on links;
//! - `inert` subtrees, which Chromium leaves out and Playwright shows;
//! - an empty element that is a click target of its own (`cursor:
//!   pointer`, its parent's cursor not), which Chromium drops as
//!   uninteresting and Playwright keeps as a `generic`.

use std::collections::HashMap;

use response_diff::tree::{Prop, State};
use serde_json::Value;

use super::name;

use super::convert::FIELD_ROLES;
use super::dom::{DomFacts, MAX_DEPTH, is_aria_hidden};
use super::model::{AxSnapshot, Item, Node};
use super::print::{collapse, normalize};
use super::read::{has_true_property, hidden_by_aria};
use super::role::{
    CHECKED_ROLES, DISABLED_ROLES, EXPANDED_ROLES, SELECTED_ROLES, truncate_data_url,
};

impl AxSnapshot {
    /// The outermost `aria-hidden` elements of the DOM that have no node in
    /// Chromium's tree (it drops some hidden subtrees whole: reveal.js's
    /// inert slides), and the empty click targets it drops, by their
    /// closest ancestor that has one. Playwright's
    /// ai mode shows them where they are visible, so they are read from the
    /// DOM ([`Self::hidden_items`]) in their place among that node's
    /// children.
    pub(super) fn orphans(&self, dom: &DomFacts) -> HashMap<i64, Vec<i64>> {
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
    pub(super) fn within(&self, b: i64, ancestor: i64) -> bool {
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
    pub(super) fn hidden_items(&self, b: i64, depth: usize) -> Vec<Item> {
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
        states.sort_by_key(State::playwright_rank);
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
                bounds: None,
            },
            &|a, b| self.apart(a, b),
        )
    }

    /// Puts the DOM-read `aria-hidden` subtrees Chromium left out among a
    /// node's items, in document order, dropping what Chromium kept of
    /// them (each is read whole from the DOM).
    pub(super) fn place_orphans(
        &self,
        items: Vec<Item>,
        orphans: &[i64],
        depth: usize,
    ) -> Vec<Item> {
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
}
