//! Items → the core's elements, shaped as Playwright's aria snapshot:
//! - adjacent text is joined with whitespace collapsed (with DOM facts, as
//!   the DOM has it: no space between texts with none between them);
//! - a node whose only child is text equal to its name drops that text
//!   (`- button "Add to cart"`), a node whose only child is other text
//!   shows it inline (`- paragraph: Subtotal: $8.50`);
//! - an unnamed `generic` wrapping at most one element is replaced by it;
//! - a generic child repeating its parent's name is dropped; a nameless
//!   image shows nothing.

use response_diff::tree::{Bounds, Element};

use super::dom::MAX_DEPTH;
use super::model::{AxSnapshot, Item, Node};

/// A backend id, or one no node has.
pub(super) fn b_or(b: Option<i64>) -> i64 {
    b.unwrap_or(i64::MIN)
}

/// Whitespace runs → one space, trimmed.
/// Zero-width spaces and soft hyphens dropped, as Playwright's
/// normalizeWhiteSpace drops them.
pub(super) fn collapse(s: &str) -> String {
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
pub(super) fn merge_text(items: Vec<Item>, apart: Apart) -> Vec<Item> {
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

pub(super) fn normalize(mut node: Node, apart: Apart) -> Vec<Item> {
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
            e.bounds = n.bounds.map(|[x, y, width, height]| Bounds {
                x: x.round(),
                y: y.round(),
                width: width.round(),
                height: height.round(),
            });
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

impl AxSnapshot {
    /// Whether Playwright would put a space between two text nodes: there
    /// is a whitespace text node between them, or one of them is inside a
    /// block the other is not in.
    pub(super) fn apart(&self, a: i64, b: i64) -> bool {
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

    /// Puts each element's box on it (`--snapshot-boxes`).
    fn fill_bounds(&self, items: &mut [Item]) {
        for item in items {
            if let Item::Node(n) = item {
                n.bounds = n
                    .backend
                    .and_then(|b| self.dom.nodes.get(&b))
                    .and_then(|d| d.bounds);
                self.fill_bounds(&mut n.children);
            }
        }
    }

    /// Top-level items → elements (text at the top level becomes text nodes).
    pub(super) fn finish(&self, items: Vec<Item>) -> Vec<Element> {
        let mut items = merge_text(items, &|a, b| self.apart(a, b));
        if super::boxes() {
            self.fill_bounds(&mut items);
        }
        items.into_iter().map(to_element).collect()
    }
}
