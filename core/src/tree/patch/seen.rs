//! The snapshots the agent was shown before (restore by reference): the
//! seen snapshots parsed, with where each ref was last shown, and paths to
//! elements.

use super::options::MAX_PATCH_BYTES;
use crate::prelude::*;
use crate::tree::model::{Element, Tree};
use crate::tree::{Dialect, parse_in};
use crate::{Error, Result};

/// The seen snapshots, parsed, with where each ref was last shown.
#[derive(Default)]
pub(super) struct Seen {
    pub(super) views: Vec<Tree>,
    /// ref → (view, child indexes from the top).
    pub(super) at: FxHashMap<String, (usize, Vec<u32>)>,
    /// How many of the views, the last ones, are entries of the writer's
    /// archive (`tree::shown`): such a view stands for the refs `at` places
    /// in it only (its other elements were shown again since).
    pub(super) archived: usize,
}

impl Seen {
    /// Parses the seen snapshots. `strict`: a snapshot that does not parse
    /// is an error (the applier); else it is skipped (the writer).
    pub(super) fn parse(texts: &[&str], strict: bool) -> Result<Seen> {
        let mut seen = Seen::default();
        for (k, text) in texts.iter().enumerate() {
            let dialect = Dialect::detect(text);
            let text = dialect.trim(text);
            let tree = match parse_in(dialect, text) {
                Ok(t) => t,
                Err(Error::Parse { line, message, .. }) if strict => {
                    return Err(Error::Parse {
                        what: "seen snapshot",
                        line,
                        message: format!("seen[{k}]: {message}"),
                    });
                }
                Err(e) if strict => return Err(e),
                Err(_) => continue,
            };
            if !strict && text.len() > MAX_PATCH_BYTES {
                continue;
            }
            let v = seen.views.len();
            walk_paths(&tree, |e, path| {
                if let Some(r) = &e.aria_ref {
                    seen.at.insert(r.clone(), (v, path.to_vec()));
                }
                true
            });
            seen.views.push(tree);
        }
        Ok(seen)
    }

    /// The views, latest first (where a run of siblings is looked up
    /// after the previous snapshot; the writer's archived entries, added
    /// last, hold elements that left the page together), each with whether
    /// it stands for ref `r` in a run (an archived entry stands only for
    /// the refs it was last shown in).
    pub(super) fn latest_first(&self) -> impl Iterator<Item = (&Tree, impl Fn(&str) -> bool)> {
        let n = self.views.len();
        self.views.iter().enumerate().rev().map(move |(v, t)| {
            let archived = v + self.archived >= n;
            (t, move |r: &str| {
                !archived || self.at.get(r).is_some_and(|(w, _)| *w == v)
            })
        })
    }

    /// The element with ref `r` as last shown.
    pub(super) fn get(&self, r: &str) -> Option<&Element> {
        let (v, path) = self.at.get(r)?;
        let (first, rest) = path.split_first()?;
        let mut e = self.views[*v].roots.get(*first as usize)?;
        for &i in rest {
            e = e.children.get(i as usize)?;
        }
        Some(e)
    }
}

/// Child indexes from the top down to the element with ref `r`.
pub(super) fn path_of(tree: &Tree, r: &str) -> Option<Vec<usize>> {
    let mut found = None;
    walk_paths(tree, |e, path| {
        if e.aria_ref.as_deref() == Some(r) {
            found = Some(path.iter().map(|&i| i as usize).collect());
        }
        found.is_none()
    });
    found
}

/// Calls `f` on every element in document order with its child indexes
/// from the top, until `f` returns false. Iterative: any depth.
pub(super) fn walk_paths(tree: &Tree, mut f: impl FnMut(&Element, &[u32]) -> bool) {
    let mut path: Vec<u32> = Vec::new();
    let mut stack: Vec<core::iter::Enumerate<core::slice::Iter<'_, Element>>> =
        vec![tree.roots.iter().enumerate()];
    while let Some(it) = stack.last_mut() {
        let Some((i, e)) = it.next() else {
            stack.pop();
            path.pop();
            continue;
        };
        path.push(i as u32);
        if !f(e, &path) {
            return;
        }
        if e.children.is_empty() {
            path.pop();
        } else {
            stack.push(e.children.iter().enumerate());
        }
    }
}
