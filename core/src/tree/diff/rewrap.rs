//! Ref carrying's last stage: elements whose ancestors changed only by
//! wrappers (issue 42). A framework that re-renders an element often wraps
//! it anew (swagger-ui's expanded operation, a tree row rebuilt in another
//! `div`) or drops a wrapper: the content hash covers the ancestors' path,
//! so it no longer pairs the element, and the rename pass looks only at
//! direct children of paired parents.

use super::flat::{Flat, NONE, is_wrapper};
use super::matching::Matching;
use crate::prelude::*;

/// Pairs elements left unpaired with an element of the same content
/// (`keys`: role, name and description, or an unnamed element's text;
/// states aside) under the nearest ancestor pair that holds both, through
/// wrappers only on either side. Among look-alikes under one anchor, a key
/// pairs only when each side has as many, in order; wrappers themselves are
/// never paired here (they all look alike), and a wrapper paired with an
/// element of other content (the rename pass's doing, unless `by_id`) is
/// unpaired first. Parents go before children, so a re-wrapped button
/// brings its children along.
///
/// Returns, for each new element paired here, the new anchor it was paired
/// under (the caller keeps the pair only if the anchor pair holds).
pub(super) fn match_rewrapped(
    m: &mut Matching<'_, '_>,
    ok: &[u64],
    nk: &[u64],
    by_id: &[bool],
) -> Vec<u32> {
    let (o, n) = (m.o, m.n);
    for ni in 0..n.len() {
        let oi = m.new_to_old[ni];
        if oi == NONE || by_id[ni] || ok[oi as usize] == nk[ni] {
            continue;
        }
        if is_wrapper(n.nodes[ni]) != is_wrapper(o.nodes[oi as usize]) {
            m.new_to_old[ni] = NONE;
            m.old_to_new[oi as usize] = NONE;
        }
    }
    let mut anchor_of = vec![NONE; n.len()];
    let mut done: FxHashSet<(u32, u64)> = FxHashSet::default();
    // Per anchor, the elements below it by key (one walk per anchor).
    type Below = FxHashMap<u64, (Vec<u32>, Vec<u32>)>;
    let mut below: FxHashMap<u32, Below> = FxHashMap::default();
    for ni in 0..n.len() {
        if m.new_to_old[ni] != NONE || is_wrapper(n.nodes[ni]) {
            continue;
        }
        let key = nk[ni];
        // Paired ancestors, nearest first, through wrappers only.
        let mut a = n.parent[ni];
        while a != NONE {
            let pa = m.new_to_old[a as usize];
            if pa != NONE {
                if !done.insert((a, key)) {
                    break;
                }
                let by_key = below.entry(a).or_insert_with(|| {
                    let mut b = Below::default();
                    for i in under(o, pa) {
                        b.entry(ok[i as usize]).or_default().0.push(i);
                    }
                    for i in under(n, a) {
                        b.entry(nk[i as usize]).or_default().1.push(i);
                    }
                    b
                });
                let (olds, news) = by_key.get(&key).map_or((vec![], vec![]), |(x, y)| {
                    let x: Vec<u32> = x
                        .iter()
                        .copied()
                        .filter(|&i| m.old_to_new[i as usize] == NONE)
                        .collect();
                    let y: Vec<u32> = y
                        .iter()
                        .copied()
                        .filter(|&i| m.new_to_old[i as usize] == NONE)
                        .collect();
                    (x, y)
                });
                if !olds.is_empty() {
                    if olds.len() == news.len() {
                        for (x, y) in olds.into_iter().zip(news) {
                            m.pair(x, y);
                            anchor_of[y as usize] = a;
                        }
                    }
                    break;
                }
            }
            if !is_wrapper(n.nodes[a as usize]) {
                break;
            }
            a = n.parent[a as usize];
        }
    }
    anchor_of
}

/// The elements below `anchor`, reached through wrappers only, that are
/// not wrappers, in document order.
fn under(f: &Flat<'_>, anchor: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut stack: Vec<u32> = f.children_of(anchor).iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        if is_wrapper(f.nodes[i as usize]) {
            stack.extend(f.children_of(i).iter().rev().copied());
        } else {
            out.push(i);
        }
    }
    out
}
