//! A tree flattened in document order, with the hashes identity is
//! decided by: the content id (role, name, description, ancestors' path),
//! the subtree signature, and what an item must keep to keep its ref.

use super::model::TreeDiffOptions;
use crate::prelude::*;
use crate::tree::model::{Element, Tree};
use core::hash::{Hash, Hasher};

pub(super) const NONE: u32 = u32::MAX;

/// Roles whose elements are items of a collection: their text says which
/// item they are.
pub(crate) const ITEM_ROLES: &[&str] = &[
    "listitem",
    "row",
    "option",
    "treeitem",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "cell",
    "gridcell",
    "rowheader",
    "columnheader",
    "article",
];

/// Roles of elements that only group others when unnamed.
const WRAPPER_ROLES: &[&str] = &["generic", "group", "none", "presentation"];

/// A wrapper (see `rewrap`): an unnamed element with no text or value of its own that
/// holds other elements, either a generic role or one the host gave no
/// node id (nothing acts on it).
pub(super) fn is_wrapper(e: &Element) -> bool {
    e.name.is_empty()
        && e.description.is_none()
        && e.value.is_none()
        && (WRAPPER_ROLES.contains(&e.role.as_str()) || e.aria_ref.is_none())
        && e.children
            .iter()
            .any(|c| c.aria_ref.is_some() || !c.children.is_empty())
}

/// A tree flattened in document order.
pub(super) struct Flat<'a> {
    pub(super) nodes: Vec<&'a Element>,
    pub(super) parent: Vec<u32>,
    pub(super) depth: Vec<u32>,
    /// Position among the parent's children.
    pub(super) position: Vec<u32>,
    /// Identity: blake3 of role, name, description and the ancestors' path
    /// (computed on demand: elements matched by ref never need it).
    pub(super) id: Vec<u128>,
    /// blake3 of the (role, name) path down to and including the element.
    pub(super) path: Vec<Option<[u8; 16]>>,
    /// Own fields and subtree content (value, states, props, children…).
    pub(super) sig: Vec<u64>,
    /// Role + name + description, without the path (for the rename pass).
    pub(super) local: Vec<u64>,
    /// Children of node i are `kids[kid_start[i]..kid_start[i + 1]]`; the
    /// top-level elements are the children of the virtual root `len()`.
    pub(super) kids: Vec<u32>,
    pub(super) kid_start: Vec<u32>,
    pub(super) has_refs: bool,
}

pub(super) fn fx<T: Hash + ?Sized>(v: &T) -> u64 {
    let mut h = FxHasher::default();
    v.hash(&mut h);
    h.finish()
}

impl<'a> Flat<'a> {
    pub(super) fn new(tree: &'a Tree, options: &TreeDiffOptions) -> Self {
        let cap = tree.len();
        let mut f = Flat {
            nodes: Vec::with_capacity(cap),
            parent: Vec::with_capacity(cap),
            depth: Vec::with_capacity(cap),
            position: Vec::with_capacity(cap),
            id: Vec::new(),
            path: Vec::new(),
            sig: Vec::with_capacity(cap),
            local: Vec::with_capacity(cap),
            kids: Vec::new(),
            kid_start: Vec::new(),
            has_refs: false,
        };
        let mut stack: Vec<(u32, core::slice::Iter<'a, Element>, u32)> =
            vec![(NONE, tree.roots.iter(), 0)];
        while let Some((parent, it, pos)) = stack.last_mut() {
            let Some(e) = it.next() else {
                stack.pop();
                continue;
            };
            let parent = *parent;
            let position = *pos;
            *pos += 1;
            let depth = stack.len() - 1;
            let idx = f.nodes.len() as u32;
            f.has_refs |= e.aria_ref.is_some();
            f.nodes.push(e);
            f.parent.push(parent);
            f.depth.push(depth as u32);
            f.position.push(position);
            f.local
                .push(fx(&(&e.role, &e.name, e.name_regex, &e.description)));
            f.sig.push(own_sig(e, options.compare_bounds));
            if !e.children.is_empty() {
                stack.push((idx, e.children.iter(), 0));
            }
        }
        let n = f.nodes.len();
        // Children lists (counting sort by parent; preorder keeps sibling order).
        let slot = |p: u32| if p == NONE { n } else { p as usize };
        let mut start = vec![0u32; n + 2];
        for &p in &f.parent {
            start[slot(p) + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        f.kids = vec![0; n];
        for (i, &p) in f.parent.iter().enumerate() {
            let s = slot(p);
            f.kids[fill[s] as usize] = i as u32;
            fill[s] += 1;
        }
        f.kid_start = start;
        // Subtree signatures, children before parents.
        for i in (0..n).rev() {
            let kids = f.children_of(i as u32);
            if !kids.is_empty() {
                let mut h = FxHasher::default();
                f.sig[i].hash(&mut h);
                for &k in kids {
                    f.local[k as usize].hash(&mut h);
                    f.sig[k as usize].hash(&mut h);
                }
                f.sig[i] = h.finish();
            }
        }
        f
    }

    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Computes the identity hash of every element for which `want` is true
    /// (and the path hashes of their ancestors).
    pub(super) fn compute_ids(&mut self, want: impl Fn(usize) -> bool) {
        let n = self.len();
        self.id.resize(n, 0);
        self.path.resize(n, None);
        let mut buf: Vec<u8> = Vec::with_capacity(256);
        let mut chain: Vec<usize> = Vec::new();
        for i in 0..n {
            if !want(i) {
                continue;
            }
            // Ancestors without a path hash yet, nearest first.
            chain.clear();
            let mut j = i;
            while self.path[j].is_none() {
                chain.push(j);
                match self.parent[j] {
                    NONE => break,
                    p => j = p as usize,
                }
            }
            for &k in chain.iter().rev() {
                let e = self.nodes[k];
                buf.clear();
                match self.parent[k] {
                    NONE => buf.extend_from_slice(&[0u8; 16]),
                    p => buf.extend_from_slice(&self.path[p as usize].expect("parent first")),
                }
                push_field(&mut buf, &e.role);
                push_field(&mut buf, &e.name);
                buf.push(e.name_regex as u8);
                let path: [u8; 16] = blake3::hash(&buf).as_bytes()[..16]
                    .try_into()
                    .expect("16 bytes");
                self.path[k] = Some(path);
                let id = match &e.description {
                    None => path,
                    Some(d) => {
                        buf.clear();
                        buf.extend_from_slice(&path);
                        push_field(&mut buf, d);
                        blake3::hash(&buf).as_bytes()[..16]
                            .try_into()
                            .expect("16 bytes")
                    }
                };
                self.id[k] = u128::from_le_bytes(id);
            }
        }
    }

    /// What an element must keep to keep its ref when its node is rebuilt
    /// (see [`match_for_carry`]).
    pub(super) fn carry_keys(&self) -> Vec<u64> {
        let mut keys = vec![0u64; self.len()];
        // Everything an element shows, states aside (an item's content).
        let mut deep = vec![0u64; self.len()];
        for i in (0..self.len()).rev() {
            let e = self.nodes[i];
            let kids = self.children_of(i as u32);
            let mut d = FxHasher::default();
            self.local[i].hash(&mut d);
            e.value.hash(&mut d);
            e.props.hash(&mut d);
            // A row's buttons ("✖", "Remove") come and go on hover and
            // are alike in every row: a row is what else it shows (a row
            // of buttons alone is its buttons).
            let is_button = |k: u32| self.nodes[k as usize].role == "button";
            let only_buttons = kids.iter().all(|&k| is_button(k));
            let shown = |k: &&u32| only_buttons || !is_button(**k);
            for &k in kids.iter().filter(shown) {
                self.feed_deep(k, &deep, &mut d);
            }
            deep[i] = d.finish();
            let mut h = FxHasher::default();
            self.local[i].hash(&mut h);
            if e.name.is_empty() {
                e.value.hash(&mut h);
                e.props.hash(&mut h);
                // A leaf's text is what it is, and so is an item's (a row
                // of a list or a table: all it shows, however deep);
                // another container's loose text (a count beside its links)
                // is a property of it, as a value.
                if ITEM_ROLES.contains(&e.role.as_str()) {
                    for &k in kids.iter().filter(shown) {
                        self.feed_deep(k, &deep, &mut h);
                    }
                } else if kids
                    .iter()
                    .all(|&k| self.nodes[k as usize].aria_ref.is_none())
                {
                    for &k in kids {
                        keys[k as usize].hash(&mut h);
                    }
                }
            }
            keys[i] = h.finish();
        }
        keys
    }

    /// Hashes what `k` shows into `h`; a wrapper (`rewrap`) shows its
    /// children, so an item re-wrapped by a re-render keeps its content.
    fn feed_deep(&self, k: u32, deep: &[u64], h: &mut FxHasher) {
        let mut stack = vec![k];
        while let Some(k) = stack.pop() {
            if is_wrapper(self.nodes[k as usize]) {
                // A row's hover buttons are left out, as for the row.
                let kids = self.children_of(k);
                let is_button = |c: &&u32| self.nodes[**c as usize].role == "button";
                let only_buttons = kids.iter().all(|c| is_button(&c));
                stack.extend(kids.iter().rev().filter(|c| only_buttons || !is_button(c)));
            } else {
                deep[k as usize].hash(h);
            }
        }
    }

    /// Children of `i`, or the top-level elements for `NONE`.
    pub(super) fn children_of(&self, i: u32) -> &[u32] {
        let s = if i == NONE { self.len() } else { i as usize };
        &self.kids[self.kid_start[s] as usize..self.kid_start[s + 1] as usize]
    }
}

pub(super) fn push_field(buf: &mut Vec<u8>, s: &str) {
    buf.extend_from_slice(&(s.len() as u32).to_le_bytes());
    buf.extend_from_slice(s.as_bytes());
}

pub(super) fn own_sig(e: &Element, bounds: bool) -> u64 {
    let mut h = FxHasher::default();
    e.role.hash(&mut h);
    e.name.hash(&mut h);
    e.value.hash(&mut h);
    e.description.hash(&mut h);
    e.states.hash(&mut h);
    e.props.hash(&mut h);
    if bounds {
        if let Some(b) = &e.bounds {
            [b.x, b.y, b.width, b.height].map(f64::to_bits).hash(&mut h);
        }
    }
    h.finish()
}
