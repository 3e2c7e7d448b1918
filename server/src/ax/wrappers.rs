//! Elements Chromium leaves out of its tree (plain `<div>`s, custom
//! elements, `<label>`s, `<tbody>`s) are put back between a node and its
//! children as `generic` (`rowgroup`), then unwrapped around a single
//! visible, clickable element, as Playwright does (a generic is unwrapped
//! only around a node Playwright would give a ref); an empty click target
//! and a nameless image that is one are kept.

use super::model::{AxSnapshot, Item, Node};
use super::print::normalize;
use super::role::TABLE_PARTS;

impl AxSnapshot {
    /// Playwright shows every element without a role as a `generic` (and
    /// then unwraps those around a single element); Chromium leaves most of
    /// them out of its tree. This puts back, from the DOM, the elements
    /// between a node (`parent`) and the items under it.
    pub(super) fn regroup(&self, parent: Option<i64>, items: Vec<Item>) -> Vec<Item> {
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
    pub(super) fn wrapper(&self, b: i64, items: Vec<Item>) -> Vec<Item> {
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
                bounds: None,
            },
            &|a, b| self.apart(a, b),
        )
    }

    pub(super) fn targetable(&self, backend: Option<i64>) -> bool {
        if self.dom.nodes.is_empty() {
            return backend.is_some();
        }
        self.dom.get(backend).is_some_and(|d| d.targetable)
    }

    pub(super) fn click_root(&self, backend: Option<i64>) -> bool {
        self.dom.get(backend).is_some_and(|d| d.click_root)
    }
}
