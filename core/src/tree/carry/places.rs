//! Where each element of a snapshot sits (parent, enclosing item) and what
//! it shows (hashes of its own content, its subtree and an item's cells),
//! for keeping a carried ref inside its own row.

use super::super::diff::{ITEM_ROLES, STATIC_ROLES};
use super::super::model::{Element, Tree};
use crate::prelude::*;

/// Roles that show an item's content (a grid's cells).
const CELL_ROLES: &[&str] = &["cell", "gridcell", "rowheader", "columnheader"];

/// Where each element of a snapshot sits and what it shows, in document
/// order, for keeping identity in its place (see [`Page::keep_places`]).
#[derive(Debug, Default)]
pub(super) struct Places {
    pub(super) parent: Vec<Option<usize>>,
    /// The nearest ancestor that is an item of a collection (a row, a list
    /// item, a cell: what is inside one belongs to it).
    pub(super) item: Vec<Option<usize>>,
    /// Role, name and value of the element alone.
    pub(super) own: Vec<u64>,
    /// Role, name and value of the element and its whole subtree.
    pub(super) content: Vec<u64>,
    /// For an item with cells: their names (what an unnamed row shows).
    pub(super) cells: Vec<Option<u64>>,
    /// Static text, which nothing acts on.
    pub(super) text: Vec<bool>,
}

impl Places {
    pub(super) fn of(tree: &Tree) -> Places {
        use core::hash::{Hash, Hasher};
        let mut p = Places::default();
        let mut nodes: Vec<&Element> = Vec::with_capacity(tree.len());
        // (children iterator, parent, nearest item)
        let mut stack: Vec<(core::slice::Iter<'_, Element>, Option<usize>, Option<usize>)> =
            vec![(tree.roots.iter(), None, None)];
        while let Some((it, parent, item)) = stack.last_mut() {
            let Some(e) = it.next() else {
                stack.pop();
                continue;
            };
            let (parent, item) = (*parent, *item);
            let me = nodes.len();
            nodes.push(e);
            p.parent.push(parent);
            p.item.push(item);
            if !e.children.is_empty() {
                let inner = if ITEM_ROLES.contains(&e.role.as_str()) {
                    Some(me)
                } else {
                    item
                };
                stack.push((e.children.iter(), Some(me), inner));
            }
        }
        let n = nodes.len();
        let own: Vec<u64> = nodes
            .iter()
            .map(|e| {
                let mut h = FxHasher::default();
                (&e.role, &e.name, &e.value).hash(&mut h);
                h.finish()
            })
            .collect();
        // Children before parents: fold each child's subtree into its parent's.
        let mut content: Vec<FxHasher> = own
            .iter()
            .map(|o| {
                let mut h = FxHasher::default();
                o.hash(&mut h);
                h
            })
            .collect();
        let mut cells: Vec<Option<FxHasher>> = vec![None; n];
        let mut done: Vec<u64> = vec![0; n];
        for i in (0..n).rev() {
            done[i] = content[i].finish();
            if let Some(q) = p.parent[i] {
                // Children are folded in reverse order: still a fixed order.
                done[i].hash(&mut content[q]);
            }
            if CELL_ROLES.contains(&nodes[i].role.as_str())
                && let Some(it) = p.item[i]
            {
                own[i].hash(cells[it].get_or_insert_with(Default::default));
            }
        }
        p.content = done;
        p.text = nodes
            .iter()
            .map(|e| STATIC_ROLES.contains(&e.role.as_str()))
            .collect();
        p.own = own;
        p.cells = cells
            .iter()
            .map(|h| h.as_ref().map(|h| h.finish()))
            .collect();
        p
    }
}
