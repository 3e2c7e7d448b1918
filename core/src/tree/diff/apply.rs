//! Applying a tree diff to the tree it was computed from (the diff's
//! losslessness, as a function).

use super::changes::shallow;
use super::model::{Field, Parent, TreeDiff};
use crate::prelude::*;
use crate::tree::model::{Bounds, Element, Prop, State, Tree, assemble};

impl TreeDiff {
    /// Applies this diff to the tree it was computed from (after the same
    /// filters): removes, changes, moves and adds elements. The result has
    /// the same elements as the new tree: the same identities (ancestor path,
    /// role, name) and fields; siblings that moved without being reported
    /// may come in another order. This is the diff's losslessness, as a
    /// function (the property tests check it).
    ///
    /// ```
    /// use response_diff::tree::{diff, parse_aria};
    /// let old = parse_aria("- list:\n  - listitem: a\n  - listitem: c", false).unwrap();
    /// let new = parse_aria("- list:\n  - listitem: a\n  - listitem: b\n  - listitem: c", false).unwrap();
    /// assert_eq!(diff(&old, &new).apply(&old), new);
    /// ```
    pub fn apply(&self, old: &Tree) -> Tree {
        const TOP: usize = usize::MAX;
        // Old elements (shallow) with their parent, in preorder.
        let mut nodes: Vec<Option<Element>> = Vec::new();
        let mut parent: Vec<usize> = Vec::new();
        let mut stack: Vec<(core::slice::Iter<'_, Element>, usize)> = vec![(old.roots.iter(), TOP)];
        while let Some((it, p)) = stack.last_mut() {
            let p = *p;
            let Some(e) = it.next() else {
                stack.pop();
                continue;
            };
            nodes.push(Some(shallow(e)));
            parent.push(p);
            if !e.children.is_empty() {
                stack.push((e.children.iter(), nodes.len() - 1));
            }
        }
        let old_len = nodes.len();
        for r in &self.removed {
            if let Some(slot) = nodes.get_mut(r.index) {
                *slot = None;
            }
        }
        // Added elements go after the old ones; map their new indexes.
        let mut added_at: FxHashMap<usize, usize> = FxHashMap::default();
        let mut position: Vec<Option<usize>> = vec![None; old_len];
        for a in &self.added {
            added_at.insert(a.index, nodes.len());
            nodes.push(Some(a.element.clone()));
            parent.push(TOP);
            position.push(Some(a.position));
        }
        let link = |p: Parent| match p {
            Parent::Root => TOP,
            Parent::Old(i) => i,
            Parent::Added(i) => added_at.get(&i).copied().unwrap_or(TOP),
        };
        for (k, a) in self.added.iter().enumerate() {
            parent[old_len + k] = link(a.parent);
        }
        for c in &self.changed {
            let Some(Some(e)) = nodes.get_mut(c.old_index) else {
                continue;
            };
            let to = c.to.clone();
            match &c.field {
                Field::Role => e.role = to.unwrap_or_default(),
                Field::Name => {
                    let to = to.unwrap_or_default();
                    e.name_regex = to.len() >= 2 && to == format!("/{}/", c.name);
                    e.name = if e.name_regex { c.name.clone() } else { to };
                }
                Field::Value => e.value = to,
                Field::Description => e.description = to,
                Field::State(name) => {
                    let value = to.map(|v| (v != "true").then_some(v));
                    match (e.states.iter_mut().find(|s| &s.name == name), value) {
                        (Some(s), Some(v)) => s.value = v,
                        (None, Some(v)) => e.states.push(State {
                            name: name.clone(),
                            value: v,
                        }),
                        (_, None) => e.states.retain(|s| &s.name != name),
                    }
                }
                Field::Prop(name) => match (e.props.iter_mut().find(|p| &p.name == name), to) {
                    (Some(p), Some(v)) => p.value = v,
                    (None, Some(v)) => e.props.push(Prop {
                        name: name.clone(),
                        value: v,
                    }),
                    (_, None) => e.props.retain(|p| &p.name != name),
                },
                Field::Bounds => {
                    e.bounds = to.and_then(|b| {
                        let v: Vec<f64> = b.split(',').filter_map(|x| x.parse().ok()).collect();
                        (v.len() == 4).then(|| Bounds {
                            x: v[0],
                            y: v[1],
                            width: v[2],
                            height: v[3],
                        })
                    })
                }
                Field::Ref => e.aria_ref = to,
                Field::Parent => {
                    if let Some(p) = c.new_parent {
                        parent[c.old_index] = link(p);
                    }
                }
            }
        }
        // Children lists: old order, added ones inserted at their position.
        let n = nodes.len();
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for i in 0..n {
            if nodes[i].is_none() {
                continue;
            }
            let p = if parent[i] == TOP { n } else { parent[i] };
            if p < n && nodes[p].is_none() {
                continue; // under a removed element: gone with it
            }
            match position[i] {
                Some(pos) => {
                    let list = &mut kids[p];
                    list.insert(pos.min(list.len()), i);
                }
                None => kids[p].push(i),
            }
        }
        // Preorder walk from the top, then assemble without recursion.
        let mut pre: Vec<(Element, usize)> = Vec::new();
        let mut walk: Vec<(usize, usize)> = kids[n].iter().rev().map(|&k| (k, TOP)).collect();
        while let Some((i, p)) = walk.pop() {
            let Some(e) = nodes[i].take() else { continue };
            pre.push((e, p));
            let me = pre.len() - 1;
            walk.extend(kids[i].iter().rev().map(|&k| (k, me)));
        }
        old.with_roots(assemble(pre))
    }
}
