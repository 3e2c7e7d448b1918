//! What left a ref carrier's recent views (docs/DECISIONS.md D41): each
//! element that no kept view has any more, as the last view that had it
//! showed it, under its ancestors, so that it gets its old ref back however
//! many snapshots later it returns (a filter cleared after long work
//! elsewhere on the page), within a byte budget.
//!
//! An entry is one chain: the retired element's ancestors, each without its
//! other children, down to the element with its subtree whole. The chain
//! keeps the ancestors because the carrier's matching knows an element by
//! its ancestors' roles and names (`tree::diff`'s content identity) and a
//! child by its parent's ref. Entries are kept oldest first; an element
//! retired again replaces its older entry, one back in a kept view leaves
//! the archive (it will be retired again as it then stood), and past the
//! budget the oldest entries go first.

use super::model::{Element, Tree};
use crate::prelude::*;
use alloc::collections::VecDeque;

/// One retired element with its ancestors.
#[derive(Debug)]
struct Entry {
    /// The outermost ancestor, each level holding only the next one, down
    /// to the retired element (refs are the host's node ids, as in a view).
    chain: Element,
    /// The carried ref of every element of `chain`, in document order.
    refs: Vec<Option<String>>,
    /// The retired element's ref.
    top: String,
    /// Elements in the retired element's subtree (the tail of `refs`).
    size: usize,
    bytes: usize,
}

/// The retired elements of one page (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Retired {
    entries: VecDeque<Entry>,
    bytes: usize,
}

impl Retired {
    /// Bytes charged for the entries.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Forgets every entry.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }

    /// Folds in a view that leaves the window: `tree` as the host gave it,
    /// `refs` the refs its elements were given (document order). Every
    /// element whose ref `kept` (the refs of the views still kept) lacks,
    /// under no such element, becomes an entry. Then entries whose element
    /// is in a kept view or in a newer entry go, and the oldest while over
    /// `budget` bytes (`cost` charges an entry's tree and refs).
    pub(super) fn fold(
        &mut self,
        tree: &Tree,
        refs: &[Option<String>],
        kept: &FxHashSet<&str>,
        budget: usize,
        cost: impl Fn(&Tree, &[Option<String>]) -> usize,
    ) {
        let mut fresh: Vec<Entry> = Vec::new();
        // The ancestors of the element at hand, with their preorder indexes.
        let mut path: Vec<(&Element, usize)> = Vec::new();
        let mut stack: Vec<core::slice::Iter<'_, Element>> = vec![tree.roots.iter()];
        let mut k = 0;
        while let Some(it) = stack.last_mut() {
            let Some(e) = it.next() else {
                stack.pop();
                path.pop();
                continue;
            };
            let me = k;
            k += 1;
            let retired = refs
                .get(me)
                .and_then(Option::as_deref)
                .filter(|r| !kept.contains(r));
            if let Some(r) = retired {
                let n = e.count();
                let mut chain = e.clone();
                for &(a, _) in path.iter().rev() {
                    let mut up = a.shallow_clone();
                    up.children.push(chain);
                    chain = up;
                }
                let mut entry_refs: Vec<Option<String>> =
                    path.iter().map(|&(_, i)| refs[i].clone()).collect();
                entry_refs.extend(refs[me..(me + n).min(refs.len())].iter().cloned());
                let bytes = cost(&Tree::new(vec![chain.clone()]), &entry_refs);
                fresh.push(Entry {
                    chain,
                    refs: entry_refs,
                    top: r.to_owned(),
                    size: n,
                    bytes,
                });
                // Its subtree is in the entry: skip it.
                k += n - 1;
                continue;
            }
            if !e.children.is_empty() {
                path.push((e, me));
                stack.push(e.children.iter());
            }
        }
        {
            let newer: FxHashSet<&str> = fresh
                .iter()
                .flat_map(|e| e.refs[e.refs.len().saturating_sub(e.size)..].iter())
                .filter_map(Option::as_deref)
                .collect();
            self.entries
                .retain(|e| !kept.contains(e.top.as_str()) && !newer.contains(e.top.as_str()));
        }
        self.entries.extend(fresh);
        self.bytes = self.entries.iter().map(|e| e.bytes).sum();
        while self.bytes > budget {
            match self.entries.pop_front() {
                Some(e) => self.bytes -= e.bytes,
                None => break,
            }
        }
    }

    /// The entries as one tree and its refs in document order, for
    /// matching like a view; `None` when empty. Chains that pass through
    /// the same ancestor (the same carried ref, the same fields) share it,
    /// so elements retired from one parent stand side by side again, in the
    /// order they were retired (document order within one view): the
    /// diff's look-alikes then pair by where they stood among their
    /// siblings rather than by their order across the archive (a response's
    /// `": "` pieces, issue 43).
    pub(super) fn as_view(&self) -> Option<(Tree, Vec<Option<String>>)> {
        if self.entries.is_empty() {
            return None;
        }
        let mut slots: Vec<Slot<'_>> = Vec::new();
        let mut roots: Vec<usize> = Vec::new();
        // The shared ancestors under each parent (None: the top) by carried
        // ref, oldest first, so a chain finds its own without a scan of
        // every sibling (an archive holds thousands under one `main`).
        let mut shared: FxHashMap<(Option<usize>, Option<&str>), Vec<usize>> = FxHashMap::default();
        for e in &self.entries {
            let depth = e.refs.len() - e.size;
            let mut el = &e.chain;
            let mut parent: Option<usize> = None;
            for r in &e.refs[..depth] {
                let key = (parent, r.as_deref());
                let found = shared.get(&key).and_then(|ks| {
                    ks.iter()
                        .rev()
                        .copied()
                        .find(|&k| slots[k].el.shallow_eq(el))
                });
                let k = found.unwrap_or_else(|| {
                    slots.push(Slot {
                        el,
                        carried: r.as_ref(),
                        whole: None,
                        kids: Vec::new(),
                    });
                    let k = slots.len() - 1;
                    match parent {
                        Some(p) => slots[p].kids.push(k),
                        None => roots.push(k),
                    }
                    shared.entry(key).or_default().push(k);
                    k
                });
                parent = Some(k);
                el = &el.children[0];
            }
            slots.push(Slot {
                el,
                carried: None,
                whole: Some(&e.refs[depth..]),
                kids: Vec::new(),
            });
            let k = slots.len() - 1;
            match parent {
                Some(p) => slots[p].kids.push(k),
                None => roots.push(k),
            }
        }
        let (roots, refs) = emit(&slots, &roots);
        Some((Tree::new(roots), refs))
    }
}

/// One element of [`Retired::as_view`]'s tree: a shared ancestor, or a
/// retired element with its subtree (`whole`, its refs).
struct Slot<'a> {
    el: &'a Element,
    carried: Option<&'a String>,
    whole: Option<&'a [Option<String>]>,
    kids: Vec<usize>,
}

/// Builds the elements of `roots` and their refs in document order,
/// without recursion (chains are as deep as the page).
fn emit(slots: &[Slot<'_>], roots: &[usize]) -> (Vec<Element>, Vec<Option<String>>) {
    let mut refs = Vec::new();
    let mut out = Vec::new();
    let mut top = roots.iter();
    // Shared ancestors being built, each with its children still to emit.
    let mut open: Vec<(Element, core::slice::Iter<'_, usize>)> = Vec::new();
    loop {
        let next = match open.last_mut() {
            Some((_, kids)) => kids.next(),
            None => top.next(),
        };
        let done = match next {
            Some(&k) => {
                let s = &slots[k];
                let Some(whole) = s.whole else {
                    refs.push(s.carried.cloned());
                    open.push((s.el.shallow_clone(), s.kids.iter()));
                    continue;
                };
                refs.extend(whole.iter().cloned());
                s.el.clone()
            }
            None => match open.pop() {
                Some((e, _)) => e,
                None => break,
            },
        };
        match open.last_mut() {
            Some((up, _)) => up.children.push(done),
            None => out.push(done),
        }
    }
    (out, refs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::aria::parse_aria;

    fn refs_of(t: &Tree) -> Vec<Option<String>> {
        t.iter().map(|(_, e)| e.aria_ref.clone()).collect()
    }

    fn cost(t: &Tree, _: &[Option<String>]) -> usize {
        t.to_aria().len()
    }

    #[test]
    fn retired_elements_keep_their_ancestors_and_the_newest_wins() {
        let v1 = parse_aria(
            "- main [ref=m]:\n  - list [ref=l]:\n    - listitem \"Tea\" [ref=a]:\n      - button \"Buy\" [ref=b]\n    - listitem \"Cake\" [ref=c]",
            false,
        )
        .unwrap();
        let mut r = Retired::default();
        let kept: FxHashSet<&str> = ["m", "l", "c"].into_iter().collect();
        r.fold(&v1, &refs_of(&v1), &kept, 1 << 20, cost);
        let (tree, refs) = r.as_view().unwrap();
        assert_eq!(
            tree.to_aria(),
            "- main [ref=m]:\n  - list [ref=l]:\n    - listitem \"Tea\" [ref=a]:\n      - button \"Buy\" [ref=b]"
        );
        assert_eq!(refs, refs_of(&tree));
        // Tea retired again, renamed: the newer entry replaces the older.
        let v2 = parse_aria(
            "- main [ref=m]:\n  - list [ref=l]:\n    - listitem \"Green tea\" [ref=a]",
            false,
        )
        .unwrap();
        r.fold(&v2, &refs_of(&v2), &kept, 1 << 20, cost);
        assert!(r.as_view().unwrap().0.to_aria().contains("Green tea"));
        assert!(!r.as_view().unwrap().0.to_aria().contains("\"Tea\""));
        // Back in a kept view: it leaves the archive.
        let back: FxHashSet<&str> = ["m", "l", "a"].into_iter().collect();
        r.fold(&Tree::new(Vec::new()), &[], &back, 1 << 20, cost);
        assert!(r.as_view().is_none());
        // Over the budget the oldest entries go first.
        r.fold(&v1, &refs_of(&v1), &kept, 1 << 20, cost);
        let one = r.bytes();
        let v3 = parse_aria(
            "- main [ref=m]:\n  - list [ref=l]:\n    - listitem \"Pie\" [ref=p]",
            false,
        )
        .unwrap();
        r.fold(&v3, &refs_of(&v3), &kept, one + 10, cost);
        let text = r.as_view().unwrap().0.to_aria();
        assert!(text.contains("Pie") && !text.contains("Tea"), "{text}");
        assert!(r.bytes() <= one + 10);
    }
}
