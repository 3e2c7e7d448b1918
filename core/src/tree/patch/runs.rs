//! `[e41 .. e57] as last shown`: a run of siblings restored together,
//! named by its first and last refs (module docs: the expansion).

use super::address::is_address;
use super::seen::Seen;
use crate::prelude::*;
use crate::tree::model::{Element, Tree};

/// The token between a run's first and last refs (never a ref: refs are
/// `e12`, `3_5` or addresses like `e4/2`).
pub(super) const THROUGH: &str = "..";

/// Where each ref stands among its siblings, view by view, in the order a
/// run is looked up: the previous snapshot, then the seen snapshots,
/// latest first.
pub(super) struct Siblings<'t> {
    views: Vec<FxHashMap<&'t str, (&'t [Element], usize)>>,
}

impl<'t> Siblings<'t> {
    /// The views of `old` (the previous snapshot), then of `seen`.
    pub(super) fn new(old: &'t Tree, seen: Option<&'t Seen>) -> Self {
        let all = |_: &str| true;
        let mut views = vec![Self::index(old, &all)];
        if let Some(seen) = seen {
            views.extend(
                seen.latest_first()
                    .map(|(t, stands)| Self::index(t, &stands)),
            );
        }
        Siblings { views }
    }

    /// Where each ref `stands` for stands among its siblings in `t`.
    fn index(
        t: &'t Tree,
        stands: &dyn Fn(&str) -> bool,
    ) -> FxHashMap<&'t str, (&'t [Element], usize)> {
        let mut at = FxHashMap::default();
        let mut index = |sib: &'t [Element]| {
            for (k, e) in sib.iter().enumerate() {
                if let Some(r) = e.aria_ref.as_deref()
                    && stands(r)
                {
                    at.entry(r).or_insert((sib, k));
                }
            }
        };
        index(&t.roots);
        for (_, e) in t.iter() {
            index(&e.children);
        }
        at
    }

    /// The refs of the siblings `first` through `last` in the first view
    /// where they stand together, one parent's consecutive children that
    /// all have refs, `first` before `last`.
    pub(super) fn expand(&self, first: &str, last: &str) -> Option<Vec<&'t str>> {
        self.views.iter().find_map(|at| {
            let (&(sa, ia), &(sb, ib)) = (at.get(first)?, at.get(last)?);
            if !core::ptr::eq(sa, sb) || ia >= ib {
                return None;
            }
            sa[ia..=ib]
                .iter()
                .map(|e| e.aria_ref.as_deref().filter(|r| !is_address(r)))
                .collect()
        })
    }

    /// `refs` as the inside of a `[…]` bracket: each run of `min` or more
    /// that [`Siblings::expand`] gives back exactly written `first ..
    /// last`, where that is shorter.
    pub(super) fn compact(&self, refs: &[&str], min: usize) -> String {
        let mut out: Vec<&str> = Vec::new();
        let mut i = 0;
        while i < refs.len() {
            // How far `refs[i..]` runs along the siblings in each view.
            let mut lens: Vec<usize> = self
                .views
                .iter()
                .filter_map(|at| {
                    let &(sib, k) = at.get(refs[i])?;
                    let m = sib[k..]
                        .iter()
                        .zip(&refs[i..])
                        .take_while(|(e, r)| e.aria_ref.as_deref() == Some(**r))
                        .count();
                    (m >= min).then_some(m)
                })
                .collect();
            lens.sort_unstable_by(|a, b| b.cmp(a));
            lens.dedup();
            let run = lens.into_iter().find(|&m| {
                let (first, last) = (refs[i], refs[i + m - 1]);
                let listed = refs[i..i + m].iter().map(|r| r.len() + 1).sum::<usize>() - 1;
                first.len() + last.len() + THROUGH.len() + 2 < listed
                    && self.expand(first, last).as_deref() == Some(&refs[i..i + m])
            });
            match run {
                Some(m) => {
                    out.extend([refs[i], THROUGH, refs[i + m - 1]]);
                    i += m;
                }
                None => {
                    out.push(refs[i]);
                    i += 1;
                }
            }
        }
        out.join(" ")
    }
}
