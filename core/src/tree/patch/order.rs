//! `~ order [e52 e50 e53]`: siblings that kept their parent but not their
//! order. The writer finds them (and where a drag far down a long list is
//! shorter said as a removal and an insertion); the applier puts them in
//! their places before the other lines apply.

use super::nodes::Node;
use super::read::{Op, bad};
use super::seen::path_of;
use crate::Result;
use crate::prelude::*;
use crate::tree::model::{Element, Tree};

/// Siblings of one parent that are in both snapshots but not in the same
/// order.
pub(super) struct Reorder {
    /// The parent's index in the new snapshot (`None`: the top level).
    pub(super) parent: Option<usize>,
    /// The elements (new indexes) that took another sibling's place, in
    /// their new order: what a `~ order` line lists.
    pub(super) listed: Vec<usize>,
    /// The fewest elements whose moving gives the new order (outside a
    /// longest run kept in order).
    pub(super) moved: Vec<usize>,
    /// Whether removing and inserting `moved` again says it in fewer
    /// bytes than the order line (a drag far down a long list).
    pub(super) as_moves: bool,
}

/// The reordered siblings between two snapshots: elements with a ref that
/// kept their parent (by ref) and are not re-sent anyway.
pub(super) fn reorders(
    old_nodes: &[Node<'_>],
    new_nodes: &[Node<'_>],
    old_by_ref: &FxHashMap<&str, usize>,
    replaced_new: &FxHashSet<usize>,
) -> Vec<Reorder> {
    // new parent → [(new index, old index)] in new order.
    let mut groups: FxHashMap<Option<usize>, Vec<(usize, usize)>> = FxHashMap::default();
    let mut parents: Vec<Option<usize>> = Vec::new();
    for (i, n) in new_nodes.iter().enumerate() {
        let Some(&oi) = n.e.aria_ref.as_deref().and_then(|r| old_by_ref.get(r)) else {
            continue;
        };
        if replaced_new.contains(&i) {
            continue;
        }
        let old_parent_ref = old_nodes[oi]
            .parent
            .map(|p| old_nodes[p].e.aria_ref.as_deref());
        let new_parent_ref = n.parent.map(|p| new_nodes[p].e.aria_ref.as_deref());
        let same_parent = match (old_parent_ref, new_parent_ref) {
            (None, None) => true,
            (Some(Some(a)), Some(Some(b))) => a == b,
            _ => false,
        };
        if !same_parent {
            continue;
        }
        let g = groups.entry(n.parent).or_default();
        if g.is_empty() {
            parents.push(n.parent);
        }
        g.push((i, oi));
    }
    let mut out = Vec::new();
    for p in parents {
        let seq = &groups[&p];
        if seq.windows(2).all(|w| w[0].1 < w[1].1) {
            continue;
        }
        // Slot j of the kept siblings (in old order) now holds seq[j].
        let mut slots: Vec<usize> = seq.iter().map(|&(_, oi)| oi).collect();
        slots.sort_unstable();
        let listed: Vec<usize> = seq
            .iter()
            .zip(&slots)
            .filter(|((_, oi), slot)| oi != *slot)
            .map(|((i, _), _)| *i)
            .collect();
        let keep = longest_increasing(&seq.iter().map(|&(_, oi)| oi).collect::<Vec<_>>());
        let moved: Vec<usize> = seq
            .iter()
            .enumerate()
            .filter(|(k, _)| !keep.contains(k))
            .map(|(_, &(i, _))| i)
            .collect();
        let ref_len = |i: &usize| new_nodes[*i].e.aria_ref.as_deref().map_or(0, str::len) + 1;
        let order_bytes = 10 + listed.iter().map(ref_len).sum::<usize>();
        // Each moved element: its ref in the removal line and in an
        // insertion (`+ after [eN]: [eM] as last shown`), unchanged only.
        let unchanged = moved.iter().all(|&i| {
            new_nodes[i]
                .e
                .aria_ref
                .as_deref()
                .and_then(|r| old_by_ref.get(r))
                .is_some_and(|&oi| old_nodes[oi].e == new_nodes[i].e)
        });
        let moves_bytes = moved.iter().map(|i| 2 * ref_len(i) + 32).sum::<usize>();
        out.push(Reorder {
            parent: p,
            as_moves: unchanged && moves_bytes < order_bytes,
            listed,
            moved,
        });
    }
    out
}

/// Positions (into `xs`) of one longest strictly increasing subsequence;
/// the first such in `xs`'s order when several are equally long.
pub(super) fn longest_increasing(xs: &[usize]) -> FxHashSet<usize> {
    // Patience sorting: tails[k] is the position ending the best run of k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut prev: Vec<Option<usize>> = vec![None; xs.len()];
    for (k, &x) in xs.iter().enumerate() {
        let at = tails.partition_point(|&t| xs[t] < x);
        prev[k] = at.checked_sub(1).map(|a| tails[a]);
        if at == tails.len() {
            tails.push(k);
        } else {
            tails[at] = k;
        }
    }
    let mut keep = FxHashSet::default();
    let mut k = tails.last().copied();
    while let Some(i) = k {
        keep.insert(i);
        k = prev[i];
    }
    keep
}

/// Applies `~ order` lines to `tree`: the listed siblings take the places
/// they held, in the listed order.
pub(super) fn reorder(tree: &mut Tree, ops: &[(usize, Op)]) -> Result<()> {
    for (n, op) in ops {
        let Op::Order(refs) = op else { continue };
        let n = *n;
        // The parent's children (found by a path from the top) holding the first ref.
        let Some(path) = path_of(tree, &refs[0]) else {
            return Err(bad(
                n,
                format!(
                    "[{}] is not in the previous snapshot (apply a patch to the snapshot it was taken from)",
                    refs[0]
                ),
            ));
        };
        let mut siblings = &mut tree.roots;
        for &k in &path[..path.len() - 1] {
            siblings = &mut siblings[k].children;
        }
        let mut slots: Vec<usize> = Vec::with_capacity(refs.len());
        for r in refs {
            match siblings
                .iter()
                .position(|e| e.aria_ref.as_deref() == Some(r))
            {
                Some(k) if !slots.contains(&k) => slots.push(k),
                Some(_) => return Err(bad(n, format!("[{r}] is listed twice"))),
                None => {
                    return Err(bad(
                        n,
                        format!(
                            "[{r}] is not a sibling of [{}] in the previous snapshot (an order line lists elements of one parent)",
                            refs[0]
                        ),
                    ));
                }
            }
        }
        let mut taken: Vec<Element> = slots
            .iter()
            .map(|&k| core::mem::replace(&mut siblings[k], Element::new("", "")))
            .collect();
        let mut sorted = slots.clone();
        sorted.sort_unstable();
        for (slot, e) in sorted.into_iter().zip(taken.drain(..)) {
            siblings[slot] = e;
        }
    }
    Ok(())
}
