//! Which names from content a snapshot keeps (Playwright's ai mode,
//! `removeRedundantNames`): only the roles Playwright names from content
//! keep a name from content, and a name the content shows (elements under
//! the node, or `aria-labelledby`/a caption pointing inside) is dropped.

use std::collections::HashSet;

use serde_json::Value;

use super::role::node;
use super::snapshot::{leaf_generic, makes_node};
use super::walk::Name;
use crate::ax::model::{AxSnapshot, Item, Node};
use crate::ax::print::collapse;

/// Where Chromium took a node's name from: its content, other elements
/// (`aria-labelledby`, a table's caption: their backend ids), or something
/// else (an attribute, a label).
#[derive(PartialEq)]
pub(in crate::ax) enum NameFrom {
    Contents,
    Related(Vec<i64>),
    Other,
}

pub(in crate::ax) fn name_from(n: &Value) -> NameFrom {
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
pub(in crate::ax) fn own_text(items: &[Item]) -> String {
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
pub(in crate::ax) fn all_shown(items: &[Item], ids: &[i64]) -> bool {
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
pub(in crate::ax) fn shown_by_content(items: &[Item]) -> bool {
    let leaf_child = items.iter().any(|c| {
        matches!(c, Item::Node(n) if n.role == "generic" && n.children.iter().all(|c| !matches!(c, Item::Node(_))))
    });
    !leaf_child && items.iter().any(|c| matches!(c, Item::Node(_)))
}

/// The node of DOM element `b` among `items` (at any depth).
fn find(items: &[Item], b: i64) -> Option<&Node> {
    items.iter().find_map(|c| match c {
        Item::Node(n) if n.backend == Some(b) => Some(&**n),
        Item::Node(n) => find(&n.children, b),
        _ => None,
    })
}

impl AxSnapshot {
    /// Whether the elements that gave a name are all shown under the node
    /// (`items`), so that ai mode drops the name as redundant.
    pub(in crate::ax) fn name_shown(
        &self,
        backend: Option<i64>,
        name: &Name,
        text: &str,
        items: &[Item],
    ) -> bool {
        if text.is_empty() || name.contributors.is_empty() {
            return false;
        }
        // What a named node under this one took its name from is
        // represented by that node (its name, or what it shows).
        let mut taken = HashSet::new();
        {
            let parts = self.name_parts.borrow();
            let mut stack: Vec<&[Item]> = vec![items];
            while let Some(level) = stack.pop() {
                for item in level {
                    if let Item::Node(n) = item {
                        if n.targetable
                            && let Some(p) = n.backend.and_then(|b| parts.get(&b))
                        {
                            taken.extend(p.iter().copied());
                        }
                        stack.push(&n.children);
                    }
                }
            }
        }
        // Only elements Playwright gives a ref count (nameFromContentRefs);
        // each is represented by its own node, unless that node is a
        // generic holding only text, or by a named node under this one.
        let under = |c: i64| backend.is_some_and(|b| c != b && self.within(c, b));
        let with_ref: Vec<i64> = name
            .contributors
            .iter()
            .copied()
            .filter(|&c| match find(items, c) {
                Some(n) => n.targetable,
                None => {
                    under(c)
                        && node(&self.dom, c)
                            .is_some_and(|d| d.targetable && makes_node(&self.dom, c, d))
                }
            })
            .collect();
        !with_ref.is_empty()
            && with_ref.iter().all(|&c| {
                taken.contains(&c)
                    || match find(items, c) {
                        Some(n) => {
                            !(n.role == "generic"
                                && n.children.iter().all(|c| !matches!(c, Item::Node(_))))
                        }
                        None => !leaf_generic(&self.dom, c, 0),
                    }
            })
    }
}
