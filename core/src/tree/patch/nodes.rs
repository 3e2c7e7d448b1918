//! A tree flattened in preorder, each element with its parent and
//! previous sibling: what the writer walks.

use crate::prelude::*;
use crate::tree::model::{Element, Tree};

/// One element of a tree with where it sits, in preorder.
pub(super) struct Node<'a> {
    pub(super) e: &'a Element,
    pub(super) parent: Option<usize>,
    pub(super) prev: Option<usize>,
}

pub(super) fn flatten(tree: &Tree) -> Vec<Node<'_>> {
    let mut out: Vec<Node<'_>> = Vec::new();
    // (siblings iterator, parent index, previous sibling index)
    let mut stack: Vec<(core::slice::Iter<'_, Element>, Option<usize>, Option<usize>)> =
        vec![(tree.roots.iter(), None, None)];
    while let Some((it, parent, prev)) = stack.last_mut() {
        let Some(e) = it.next() else {
            stack.pop();
            continue;
        };
        let (parent, me) = (*parent, out.len());
        out.push(Node {
            e,
            parent,
            prev: *prev,
        });
        *prev = Some(me);
        if !e.children.is_empty() {
            stack.push((e.children.iter(), Some(me), None));
        }
    }
    out
}
