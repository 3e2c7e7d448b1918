//! Identity, step by step: elements paired by ref, then by content hash
//! (duplicates aligned on their content), then renamed in place.

use super::flat::{Flat, ITEM_ROLES, NONE};
use crate::prelude::*;

/// Roles of static text, which no action targets.
pub(crate) const STATIC_ROLES: &[&str] = &[
    "strong",
    "emphasis",
    "paragraph",
    "text",
    "status",
    "time",
    "mark",
    "code",
    "subscript",
    "superscript",
];

/// Step 1: refs present exactly once in each tree.
/// The first identity stage shared by the diff and ref carrying: elements
/// paired by ref when `by_refs` and both trees carry refs, then content ids
/// computed for every element left unpaired.
pub(super) fn pair_by_refs_then_hash_ids(
    o: &mut Flat<'_>,
    n: &mut Flat<'_>,
    by_refs: bool,
) -> (Vec<u32>, Vec<u32>) {
    let (old_to_new, new_to_old) = if by_refs && o.has_refs && n.has_refs {
        match_refs(o, n)
    } else {
        (vec![NONE; o.len()], vec![NONE; n.len()])
    };
    o.compute_ids(|i| old_to_new[i] == NONE);
    n.compute_ids(|i| new_to_old[i] == NONE);
    (old_to_new, new_to_old)
}

pub(super) fn match_refs(o: &Flat<'_>, n: &Flat<'_>) -> (Vec<u32>, Vec<u32>) {
    let mut old_to_new = vec![NONE; o.len()];
    let mut new_to_old = vec![NONE; n.len()];
    // ref -> (old index, new index); NONE marks "absent or duplicated".
    const DUP: u32 = NONE - 1;
    let mut refs: FxHashMap<&str, (u32, u32)> = FxHashMap::default();
    refs.reserve(o.len());
    for (i, e) in o.nodes.iter().enumerate() {
        if let Some(r) = e.aria_ref.as_deref() {
            refs.entry(r)
                .and_modify(|v| v.0 = DUP)
                .or_insert((i as u32, NONE));
        }
    }
    for (i, e) in n.nodes.iter().enumerate() {
        if let Some(v) = e.aria_ref.as_deref().and_then(|r| refs.get_mut(r)) {
            v.1 = if v.1 == NONE { i as u32 } else { DUP };
        }
    }
    for (oi, ni) in refs.into_values() {
        if oi < DUP && ni < DUP {
            old_to_new[oi as usize] = ni;
            new_to_old[ni as usize] = oi;
        }
    }
    (old_to_new, new_to_old)
}

/// Per parent pair (old, new), the siblings a diff of their sequences
/// puts in the same place: old → new ([`Matching::match_group`]).
pub(super) type SamePlace = FxHashMap<(u32, u32), FxHashMap<u32, u32>>;

pub(super) struct Matching<'f, 'a> {
    pub(super) o: &'f Flat<'a>,
    pub(super) n: &'f Flat<'a>,
    pub(super) old_to_new: Vec<u32>,
    pub(super) new_to_old: Vec<u32>,
    /// Step 3's second stage: leftovers paired by role alone.
    pub(super) role_renames: bool,
    /// For carrying refs: items of a collection align on these keys (their
    /// text, states aside) and pair only when equal, never in order.
    pub(super) item_keys: Option<(&'f [u64], &'f [u64])>,
}

impl Matching<'_, '_> {
    /// Pairs `o` with `n` and their descendants level by level, where the
    /// two subtrees have the same shape and neither side is paired yet.
    pub(super) fn pair_subtrees(&mut self, o: u32, n: u32) {
        let mut stack = vec![(o, n)];
        while let Some((o, n)) = stack.pop() {
            if self.old_to_new[o as usize] != NONE || self.new_to_old[n as usize] != NONE {
                continue;
            }
            self.pair(o, n);
            let (oc, nc) = (self.o.children_of(o), self.n.children_of(n));
            if oc.len() == nc.len() {
                stack.extend(oc.iter().copied().zip(nc.iter().copied()));
            }
        }
    }

    pub(super) fn pair(&mut self, o: u32, n: u32) {
        self.old_to_new[o as usize] = n;
        self.new_to_old[n as usize] = o;
    }

    /// Step 2: content hash with occurrence alignment.
    pub(super) fn match_hashes(&mut self) {
        // Groups of unmatched elements sharing an identity hash, as linked
        // lists in document order (no allocation per group).
        #[derive(Clone, Copy)]
        struct Group {
            old_head: u32,
            old_tail: u32,
            old_len: u32,
            new_head: u32,
            new_tail: u32,
            new_len: u32,
        }
        let (o, n) = (self.o, self.n);
        let mut index: FxHashMap<u128, u32> = FxHashMap::default();
        index.reserve(o.len());
        let mut groups: Vec<Group> = Vec::new();
        let mut next_old = vec![NONE; o.len()];
        let mut next_new = vec![NONE; n.len()];
        for i in 0..o.len() {
            if self.old_to_new[i] != NONE {
                continue;
            }
            let i = i as u32;
            let g = *index.entry(o.id[i as usize]).or_insert_with(|| {
                groups.push(Group {
                    old_head: i,
                    old_tail: NONE,
                    old_len: 0,
                    new_head: NONE,
                    new_tail: NONE,
                    new_len: 0,
                });
                (groups.len() - 1) as u32
            });
            let g = &mut groups[g as usize];
            if g.old_tail != NONE {
                next_old[g.old_tail as usize] = i;
            }
            g.old_tail = i;
            g.old_len += 1;
        }
        for i in 0..n.len() {
            if self.new_to_old[i] != NONE {
                continue;
            }
            let Some(&g) = index.get(&n.id[i]) else {
                continue;
            };
            let i = i as u32;
            let g = &mut groups[g as usize];
            if g.new_tail == NONE {
                g.new_head = i;
            } else {
                next_new[g.new_tail as usize] = i;
            }
            g.new_tail = i;
            g.new_len += 1;
        }
        // Singletons pair at once. The hash covers the path, so a group's
        // members share a depth: the other groups go shallow first, so that
        // parents are paired before their children.
        let mut multi: Vec<Group> = Vec::new();
        for g in &groups {
            match (g.old_len, g.new_len) {
                (_, 0) => {}
                (1, 1) => self.pair(g.old_head, g.new_head),
                _ => multi.push(*g),
            }
        }
        multi.sort_by_key(|g| o.depth[g.old_head as usize]);
        let walk = |head: u32, next: &[u32]| {
            let mut v = Vec::new();
            let mut i = head;
            while i != NONE {
                v.push(i);
                i = next[i as usize];
            }
            v
        };
        let mut same_place = SamePlace::default();
        for g in multi {
            let olds = walk(g.old_head, &next_old);
            let news = walk(g.new_head, &next_new);
            self.match_group(&olds, &news, &mut same_place);
        }
    }

    pub(super) fn match_group(&mut self, olds: &[u32], news: &[u32], same_place: &mut SamePlace) {
        let (o, n) = (self.o, self.n);
        if let Some((ok, nk)) = self.item_keys
            && ITEM_ROLES.contains(&n.nodes[news[0] as usize].role.as_str())
        {
            // A row showing other text is another row, wherever it sits.
            self.align(olds, news, ok, nk, false);
            return;
        }
        // Common case: every member under one parent pair.
        let new_parent_of_old = |x: u32| match o.parent[x as usize] {
            NONE => NONE,
            p => match self.old_to_new[p as usize] {
                NONE => NONE - 1,
                np => np,
            },
        };
        let k = n.parent[news[0] as usize];
        if olds.iter().all(|&x| new_parent_of_old(x) == k)
            && news.iter().all(|&x| n.parent[x as usize] == k)
        {
            self.align_among_siblings(o.parent[olds[0] as usize], k, olds, news, same_place);
            return;
        }
        // Under matched parents first: bucket by the new parent.
        let mut buckets: FxHashMap<u32, (Vec<u32>, Vec<u32>)> = FxHashMap::default();
        for &o in olds {
            let p = self.o.parent[o as usize];
            let np = if p == NONE {
                NONE
            } else {
                match self.old_to_new[p as usize] {
                    NONE => continue,
                    np => np,
                }
            };
            buckets.entry(np).or_default().0.push(o);
        }
        for &n in news {
            buckets
                .entry(self.n.parent[n as usize])
                .or_default()
                .1
                .push(n);
        }
        let mut keys: Vec<u32> = buckets.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            let (bo, bn) = &buckets[&k];
            if !bo.is_empty() && !bn.is_empty() {
                let (o, n) = (self.o, self.n);
                self.align(bo, bn, &o.sig, &n.sig, true);
            }
        }
        // Then identical content anywhere else along the same path (a move).
        self.align_unpaired(olds, news, false);
    }

    /// Look-alikes under one parent pair (a flat list's "►" toggles, a
    /// grid's repeated "Sales"), aligned by where they stand among all the
    /// siblings: the siblings' sequences are diffed, so a look-alike pairs
    /// with the one between the same neighbours, and rows inserted in the
    /// middle shift nothing after them. What that leaves aligns in order.
    fn align_among_siblings(
        &mut self,
        po: u32,
        pn: u32,
        olds: &[u32],
        news: &[u32],
        same_place: &mut SamePlace,
    ) {
        let (o, n) = (self.o, self.n);
        // Once per parent pair: the siblings that stand between the same
        // neighbours (a diff of the two sequences of subtree signatures).
        let pairs = same_place.entry((po, pn)).or_insert_with(|| {
            let (oc, nc) = (o.children_of(po), n.children_of(pn));
            let a: Vec<u64> = oc.iter().map(|&i| o.sig[i as usize]).collect();
            let b: Vec<u64> = nc.iter().map(|&i| n.sig[i as usize]).collect();
            let mut m = FxHashMap::default();
            for op in similar::capture_diff_slices(similar::Algorithm::Myers, &a, &b) {
                if let similar::DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                } = op
                {
                    for k in 0..len {
                        m.insert(oc[old_index + k], nc[new_index + k]);
                    }
                }
            }
            m
        });
        let wanted: FxHashSet<u32> = news.iter().copied().collect();
        for &x in olds {
            if let Some(&y) = pairs.get(&x)
                && wanted.contains(&y)
                && self.old_to_new[x as usize] == NONE
                && self.new_to_old[y as usize] == NONE
            {
                self.pair(x, y);
            }
        }
        self.align_unpaired(olds, news, true);
    }

    /// [`Matching::align`] on subtree signatures, over the members of
    /// `olds` and `news` still unpaired.
    fn align_unpaired(&mut self, olds: &[u32], news: &[u32], pair_replaced: bool) {
        let lo: Vec<u32> = olds
            .iter()
            .copied()
            .filter(|&x| self.old_to_new[x as usize] == NONE)
            .collect();
        let ln: Vec<u32> = news
            .iter()
            .copied()
            .filter(|&y| self.new_to_old[y as usize] == NONE)
            .collect();
        if !lo.is_empty() && !ln.is_empty() {
            let (o, n) = (self.o, self.n);
            self.align(&lo, &ln, &o.sig, &n.sig, pair_replaced);
        }
    }

    /// Aligns two sequences on `keys`: equal runs pair; with `pair_replaced`,
    /// replaced runs pair in order too (same identity, changed content).
    pub(super) fn align(
        &mut self,
        olds: &[u32],
        news: &[u32],
        ok: &[u64],
        nk: &[u64],
        pair_replaced: bool,
    ) {
        if olds.len() == news.len()
            && olds
                .iter()
                .zip(news)
                .all(|(&a, &b)| ok[a as usize] == nk[b as usize])
        {
            for (&o, &n) in olds.iter().zip(news) {
                self.pair(o, n);
            }
            return;
        }
        let a: Vec<u64> = olds.iter().map(|&i| ok[i as usize]).collect();
        let b: Vec<u64> = news.iter().map(|&i| nk[i as usize]).collect();
        // Bounded by work (similar's Myers gives up minimality after a
        // size-dependent number of steps), not by a deadline, so the
        // alignment is the same on every machine and at any load.
        let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &a, &b);
        for op in ops {
            match op {
                similar::DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                } => {
                    for k in 0..len {
                        self.pair(olds[old_index + k], news[new_index + k]);
                    }
                }
                similar::DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } if pair_replaced => {
                    for k in 0..old_len.min(new_len) {
                        self.pair(olds[old_index + k], news[new_index + k]);
                    }
                }
                _ => {}
            }
        }
    }

    /// Step 3: leftovers under matched parents, between the same matched
    /// siblings, with the same role are the same element renamed.
    pub(super) fn match_renames(&mut self) {
        self.rename_children(NONE, NONE);
        for n in 0..self.n.len() as u32 {
            let o = self.new_to_old[n as usize];
            if o != NONE {
                self.rename_children(o, n);
            }
        }
    }

    pub(super) fn rename_children(&mut self, po: u32, pn: u32) {
        let oc = self.o.children_of(po);
        let nc = self.n.children_of(pn);
        let lo = oc.iter().any(|&c| self.old_to_new[c as usize] == NONE);
        let ln = nc.iter().any(|&c| self.new_to_old[c as usize] == NONE);
        if !lo || !ln {
            return;
        }
        // Gap = the preceding sibling matched within this parent pair (as a new index).
        let mut old_gaps: Vec<(u32, u32)> = Vec::new();
        let mut anchor = NONE;
        for &c in oc {
            match self.old_to_new[c as usize] {
                NONE => old_gaps.push((anchor, c)),
                m if self.n.parent[m as usize] == pn => anchor = m,
                _ => {}
            }
        }
        let mut new_gaps: Vec<(u32, u32)> = Vec::new();
        let mut anchor = NONE;
        for &c in nc {
            match self.new_to_old[c as usize] {
                NONE => new_gaps.push((anchor, c)),
                m if self.o.parent[m as usize] == po => anchor = c,
                _ => {}
            }
        }
        let mut by_gap: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for &(g, c) in &new_gaps {
            by_gap.entry(g).or_default().push(c);
        }
        let mut i = 0;
        while i < old_gaps.len() {
            let g = old_gaps[i].0;
            let mut j = i;
            while j < old_gaps.len() && old_gaps[j].0 == g {
                j += 1;
            }
            if let Some(news) = by_gap.get(&g) {
                let olds: Vec<u32> = old_gaps[i..j].iter().map(|&(_, c)| c).collect();
                let news = news.clone();
                self.rename_gap(&olds, &news);
            }
            i = j;
        }
    }

    pub(super) fn rename_gap(&mut self, olds: &[u32], news: &[u32]) {
        // Same role, name and description (only the path changed), then the
        // remaining ones with the same role, in order. For ref carrying, only
        // static text that holds text (a live region's "Page 1 of 6" → "Page
        // 1 of 7") and the text in it: nothing acts on it, and its children
        // come along. Loose text beside other text (a grid's cells, flat)
        // is left to content: paired in order, a sorted grid's cells would
        // all be renamed.
        let (o, n) = (self.o, self.n);
        self.align(olds, news, &o.local, &n.local, false);
        let is_static = |i: u32| STATIC_ROLES.contains(&n.nodes[i as usize].role.as_str());
        let renames = |i: u32| {
            self.role_renames
                || (is_static(i)
                    && (!n.nodes[i as usize].children.is_empty()
                        || (n.parent[i as usize] != NONE && is_static(n.parent[i as usize]))))
        };
        let mut queue: FxHashMap<&str, alloc::collections::VecDeque<u32>> = FxHashMap::default();
        for &n in news {
            if self.new_to_old[n as usize] == NONE && renames(n) {
                queue
                    .entry(self.n.nodes[n as usize].role.as_str())
                    .or_default()
                    .push_back(n);
            }
        }
        for &o in olds {
            if self.old_to_new[o as usize] != NONE {
                continue;
            }
            let role = self.o.nodes[o as usize].role.as_str();
            if let Some(n) = queue.get_mut(role).and_then(|q| q.pop_front()) {
                self.pair(o, n);
            }
        }
    }
}
