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
    rewrapped_wrappers(m, ok, nk, by_id, &mut anchor_of);
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

/// Most elements a wrapper's content is compared by
/// ([`rewrapped_wrappers`]); past it the wrapper is left as paired.
const MAX_WRAPPED: usize = 64;

/// The keys of what `i` holds through wrappers, in document order, or
/// `None` past [`MAX_WRAPPED`] elements.
fn wrapped_keys(f: &Flat<'_>, i: u32, keys: &[u64]) -> Option<Vec<u64>> {
    let mut out = Vec::new();
    let mut stack: Vec<u32> = f.children_of(i).iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        if out.len() + stack.len() > MAX_WRAPPED {
            return None;
        }
        if is_wrapper(f.nodes[i as usize]) {
            stack.extend(f.children_of(i).iter().rev().copied());
        } else {
            out.push(keys[i as usize]);
        }
    }
    Some(out)
}

/// A wrapper inserted around a wrapper (swagger-ui's expanded operation
/// row: a new `generic` around the row) takes the row's place in the path,
/// so the content hash pairs the new wrapper with the old row. Where the
/// old row holds exactly what an unpaired wrapper inside the new one holds
/// (and not what the new one holds), the row pairs with that inner
/// wrapper; the same for a wrapper dropped. The pair's anchor is the
/// outer element's parent, paired with the row's old parent.
fn rewrapped_wrappers(
    m: &mut Matching<'_, '_>,
    ok: &[u64],
    nk: &[u64],
    by_id: &[bool],
    anchor_of: &mut [u32],
) {
    let (o, n) = (m.o, m.n);
    for ni in 0..n.len() as u32 {
        let oi = m.new_to_old[ni as usize];
        if oi == NONE
            || by_id[ni as usize]
            || !is_wrapper(n.nodes[ni as usize])
            || !is_wrapper(o.nodes[oi as usize])
        {
            continue;
        }
        let (np, op) = (n.parent[ni as usize], o.parent[oi as usize]);
        if np == NONE || op == NONE || m.new_to_old[np as usize] != op {
            continue;
        }
        let (Some(ko), Some(kn)) = (wrapped_keys(o, oi, ok), wrapped_keys(n, ni, nk)) else {
            continue;
        };
        if ko == kn {
            continue;
        }
        // Inserted: the old row is an unpaired wrapper inside the new one.
        let inner = n.children_of(ni).iter().copied().find(|&x| {
            m.new_to_old[x as usize] == NONE
                && is_wrapper(n.nodes[x as usize])
                && wrapped_keys(n, x, nk).as_ref() == Some(&ko)
        });
        if let Some(x) = inner {
            m.old_to_new[oi as usize] = NONE;
            m.new_to_old[ni as usize] = NONE;
            m.pair(oi, x);
            anchor_of[x as usize] = np;
            continue;
        }
        // Dropped: the new row is what an unpaired wrapper inside the old
        // one held.
        let inner = o.children_of(oi).iter().copied().find(|&y| {
            m.old_to_new[y as usize] == NONE
                && is_wrapper(o.nodes[y as usize])
                && wrapped_keys(o, y, ok).as_ref() == Some(&kn)
        });
        if let Some(y) = inner {
            m.old_to_new[oi as usize] = NONE;
            m.new_to_old[ni as usize] = NONE;
            m.pair(y, ni);
            anchor_of[ni as usize] = np;
        }
    }
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
