//! Snapshot patches: a tree diff an agent reads like a diff and a program
//! applies exactly. Elements are addressed by their refs, so a patch needs
//! neither line numbers nor context lines:
//!
//! ```text
//! - [e131] paragraph
//! ~ link "Cart (1)" [ref=e83]:
//!     - /url: /index.html#cart
//! + first in [e132]:
//!   - listitem [ref=e535]:
//!     - text: Sencha Kyoto × 1
//! ```
//!
//! - `- [ref] …`: the element and its subtree are gone (its role and name,
//!   or its first named descendant's after `>`, follow for the reader; only
//!   the ref counts).
//! - `~ <element>`: the element's own line (and property lines) as they are
//!   now, in snapshot syntax; its children are untouched.
//! - `+ first in [ref]:` / `+ after [ref]:` / `+ first:` (top level): the
//!   indented snapshot lines that follow are inserted there, subtrees whole.
//!
//! [`snapshot_patch`] only returns a patch that [`apply_patch`] turns back
//! into the new snapshot byte for byte, trailing newlines aside (it checks); anything it cannot say
//! this way (an element without a ref changed, a move, a reorder) makes it
//! return `None`, and the caller shows a line diff instead.

use super::aria::parse_aria;
use super::diff::{Field, Parent, diff};
use super::filter::assemble;
use super::model::{Element, Tree};
use crate::{Error, Result};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;

/// Trees deeper than this are left to the line diff (the patch code walks
/// them without recursion, but the gain is nil on such pages).
const MAX_PATCH_DEPTH: usize = 256;

/// Snapshots longer than this (either one) are left to the line diff.
/// Parsing both texts, diffing the trees and checking the patch take about
/// 5 ms at this size (about 3,000 elements; `cargo bench -p response-diff
/// --bench tree_diff`, `aria/snapshot_patch_at_the_cap`) and grow linearly
/// with the text, so the cap keeps a response's diff under DESIGN §7's 10 ms.
pub const MAX_PATCH_BYTES: usize = 128 * 1024;

/// A patch and what it says, for the one-line header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotPatch {
    /// The patch text (no trailing newline).
    pub text: String,
    /// Elements whose own line changed.
    pub changed: usize,
    /// Elements added (descendants of added elements included).
    pub added: usize,
    /// Elements removed (descendants included).
    pub removed: usize,
    /// Elements the same in both.
    pub unchanged: usize,
}

impl SnapshotPatch {
    /// `4 changed (~), 3 added (+), 1 removed (-), 266 unchanged`.
    pub fn summary(&self) -> String {
        format!(
            "{} changed (~), {} added (+), {} removed (-), {} unchanged",
            self.changed, self.added, self.removed, self.unchanged
        )
    }
}

/// One element of a tree with where it sits, in preorder.
struct Node<'a> {
    e: &'a Element,
    parent: Option<usize>,
    prev: Option<usize>,
}

fn flatten(tree: &Tree) -> Vec<Node<'_>> {
    let mut out: Vec<Node<'_>> = Vec::new();
    // (siblings iterator, parent index, previous sibling index)
    let mut stack: Vec<(std::slice::Iter<'_, Element>, Option<usize>, Option<usize>)> =
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

/// The patch from snapshot `old` to snapshot `new` (Playwright aria text),
/// or `None` when either does not parse or is over [`MAX_PATCH_BYTES`], the
/// new one does not print back unchanged, or the change cannot be said by
/// ref (see the module docs).
///
/// ```
/// use response_diff::tree::{apply_patch, snapshot_patch};
/// let old = "- list \"Cart\" [ref=e1]:\n  - listitem [ref=e2]: Tea\n- button \"Pay\" [disabled] [ref=e3]";
/// let new = "- list \"Cart\" [ref=e1]:\n  - listitem [ref=e2]: Tea\n  - listitem [ref=e4]: Cake\n- button \"Pay\" [ref=e3]";
/// let p = snapshot_patch(old, new).unwrap();
/// assert_eq!(p.text, "+ after [e2]:\n  - listitem [ref=e4]: Cake\n~ button \"Pay\" [ref=e3]");
/// assert_eq!(p.summary(), "1 changed (~), 1 added (+), 0 removed (-), 2 unchanged");
/// assert_eq!(apply_patch(old, &p.text).unwrap(), new);
/// ```
pub fn snapshot_patch(old: &str, new: &str) -> Option<SnapshotPatch> {
    // Hosts may end a snapshot with a newline; the printer does not.
    let new = new.trim_end_matches('\n');
    if old.len() > MAX_PATCH_BYTES || new.len() > MAX_PATCH_BYTES {
        return None;
    }
    let new_tree = parse_aria(new, false).ok()?;
    if new_tree.iter().any(|(d, _)| d > MAX_PATCH_DEPTH) {
        return None;
    }
    let old_tree = parse_aria(old, false).ok()?;
    if old_tree.iter().any(|(d, _)| d > MAX_PATCH_DEPTH) {
        return None;
    }
    let d = diff(&old_tree, &new_tree);
    let old_nodes = flatten(&old_tree);
    let new_nodes = flatten(&new_tree);
    let old_refs: FxHashSet<&str> = old_nodes
        .iter()
        .filter_map(|n| n.e.aria_ref.as_deref())
        .collect();
    let anchor_ok = |i: usize| {
        new_nodes[i]
            .e
            .aria_ref
            .as_deref()
            .filter(|r| old_refs.contains(r))
    };

    let mut text = String::new();
    let line = |text: &mut String, s: &str| {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(s);
    };
    // An element whose ref changed (matched by its place) is another
    // element now: the old one goes, the new one comes with its subtree.
    let mut replaced_old: FxHashSet<usize> = FxHashSet::default();
    let mut replaced_new: FxHashSet<usize> = FxHashSet::default();
    for c in &d.changed {
        match c.field {
            Field::Parent | Field::Bounds => return None,
            Field::Ref => {
                replaced_old.insert(c.old_index);
                replaced_new.insert(c.new_index);
            }
            _ => {}
        }
    }
    // Whether an ancestor of `i` (not `i` itself) is in `set`.
    let under = |nodes: &[Node<'_>], set: &FxHashSet<usize>, i: usize| {
        let mut p = nodes[i].parent;
        while let Some(j) = p {
            if set.contains(&j) {
                return true;
            }
            p = nodes[j].parent;
        }
        false
    };
    let mut removals: Vec<usize> = d
        .removed
        .iter()
        .filter(|r| !r.parent_removed)
        .map(|r| r.index)
        .chain(replaced_old.iter().copied())
        .filter(|&i| !under(&old_nodes, &replaced_old, i))
        .collect();
    removals.sort_unstable();
    let removed: usize = removals.iter().map(|&i| old_nodes[i].e.count()).sum();
    for i in removals {
        let e = old_nodes[i].e;
        let mut s = format!("- [{}] {}", e.aria_ref.as_deref()?, e.role);
        // The reader sees what went: its name, or its first named descendant's.
        let named = e.descendants().map(|(_, d)| d).find(|d| !d.name.is_empty());
        match named {
            Some(d) if std::ptr::eq(d, e) => {
                let _ = write!(s, " {}", super::aria::json_quote(&e.name));
            }
            Some(d) => {
                let _ = write!(s, " > {} {}", d.role, super::aria::json_quote(&d.name));
            }
            None => {}
        }
        line(&mut text, &s);
    }

    // Ops in the new tree's document order: added roots (grouped into runs
    // of consecutive siblings) and changed elements.
    let added_roots: FxHashSet<usize> = d
        .added
        .iter()
        .filter(|a| !matches!(a.parent, Parent::Added(_)))
        .map(|a| a.index)
        .chain(replaced_new.iter().copied())
        .filter(|&i| !under(&new_nodes, &replaced_new, i))
        .collect();
    let mut changed_at: Vec<usize> = d
        .changed
        .iter()
        .map(|c| c.new_index)
        .filter(|i| !replaced_new.contains(i) && !under(&new_nodes, &replaced_new, *i))
        .collect();
    changed_at.sort_unstable();
    changed_at.dedup();
    let mut ops: Vec<usize> = added_roots
        .iter()
        .copied()
        .chain(changed_at.iter().copied())
        .collect();
    ops.sort_unstable();
    for &i in &ops {
        let node = &new_nodes[i];
        if added_roots.contains(&i) {
            // A run of added siblings shares the first one's anchor.
            if !node.prev.is_some_and(|p| added_roots.contains(&p)) {
                let header = match (node.prev, node.parent) {
                    (Some(p), _) => format!("+ after [{}]:", anchor_ok(p)?),
                    (None, Some(p)) => format!("+ first in [{}]:", anchor_ok(p)?),
                    (None, None) => "+ first:".to_owned(),
                };
                line(&mut text, &header);
            }
            // Below the header, one level in (it starts the line itself).
            super::aria::write_elements(&mut text, std::slice::from_ref(node.e), 1);
        } else {
            node.e.aria_ref.as_ref()?;
            let own = node.e.shallow_clone().to_aria();
            let mut lines = own.lines();
            let first = lines.next()?.strip_prefix("- ")?;
            line(&mut text, &format!("~ {first}"));
            for l in lines {
                text.push_str("\n  ");
                text.push_str(l);
            }
        }
    }
    let added: usize = added_roots.iter().map(|&i| new_nodes[i].e.count()).sum();
    let patch = SnapshotPatch {
        text,
        changed: changed_at.len(),
        added,
        removed,
        unchanged: new_nodes.len().saturating_sub(added + changed_at.len()),
    };
    // Lossless or nothing: the patch must rebuild the new text exactly.
    (apply_to(old_tree, &patch.text).ok()?.to_aria() == new).then_some(patch)
}

/// One operation of a parsed patch.
enum Op {
    Remove(String),
    Change(Element),
    Insert(Anchor, Vec<Element>),
}

/// The ref an op is about (for errors).
fn op_ref(op: &Op) -> &str {
    match op {
        Op::Remove(r) => r,
        Op::Change(e) => e.aria_ref.as_deref().unwrap_or(""),
        Op::Insert(Anchor::After(r) | Anchor::FirstIn(r), _) => r,
        Op::Insert(Anchor::Top, _) => "",
    }
}

#[derive(PartialEq, Eq, Hash)]
enum Anchor {
    After(String),
    FirstIn(String),
    Top,
}

fn bad(line: usize, why: impl std::fmt::Display) -> Error {
    Error::Parse {
        what: "snapshot patch",
        line,
        message: format!(
            "{why}; a patch has `- [ref]`, `~ <element>` and `+ first in [ref]:` / `+ after [ref]:` / `+ first:` lines, the insertions followed by indented snapshot lines"
        ),
    }
}

fn bracketed_ref(s: &str, line: usize) -> Result<String> {
    let inner = s
        .strip_prefix('[')
        .and_then(|s| s.split_once(']'))
        .map(|(r, _)| r)
        .filter(|r| !r.is_empty() && !r.contains(char::is_whitespace))
        .ok_or_else(|| bad(line, format!("expected a ref like `[e12]`, found `{s}`")))?;
    Ok(inner.to_owned())
}

fn parse_patch(patch: &str) -> Result<Vec<(usize, Op)>> {
    let lines: Vec<&str> = patch.lines().collect();
    let mut ops = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (n, l) = (i + 1, lines[i]);
        i += 1;
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        // The indented lines that belong to this op.
        let start = i;
        while i < lines.len() && lines[i].starts_with("  ") {
            i += 1;
        }
        let body = &lines[start..i];
        let block = |first: Option<String>| -> Result<Vec<Element>> {
            let mut text = first.unwrap_or_default();
            for b in body {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&b[2..]);
            }
            parse_aria(&text, false)
                .map(|t| t.roots)
                .map_err(|e| bad(n, format!("the element lines do not parse: {e}")))
        };
        if let Some(rest) = l.strip_prefix("- ") {
            if !body.is_empty() {
                return Err(bad(n, "a removal has no indented lines"));
            }
            ops.push((n, Op::Remove(bracketed_ref(rest, n)?)));
        } else if let Some(rest) = l.strip_prefix("~ ") {
            let mut roots = block(Some(format!("- {rest}")))?;
            if roots.len() != 1 || roots[0].aria_ref.is_none() {
                return Err(bad(n, "a change is one element with a ref"));
            }
            ops.push((n, Op::Change(roots.remove(0))));
        } else if let Some(rest) = l.strip_prefix("+ ") {
            let anchor = if rest == "first:" {
                Anchor::Top
            } else if let Some(r) = rest.strip_prefix("first in ") {
                Anchor::FirstIn(bracketed_ref(r, n)?)
            } else if let Some(r) = rest.strip_prefix("after ") {
                Anchor::After(bracketed_ref(r, n)?)
            } else {
                return Err(bad(n, format!("unknown insertion point `{rest}`")));
            };
            let roots = block(None)?;
            if roots.is_empty() {
                return Err(bad(n, "an insertion without element lines"));
            }
            ops.push((n, Op::Insert(anchor, roots)));
        } else {
            return Err(bad(n, format!("unknown line `{l}`")));
        }
    }
    Ok(ops)
}

/// Applies a patch from [`snapshot_patch`] to the snapshot it was taken
/// from, giving the new snapshot text. An agent (or a host keeping the
/// agent's view) uses this to follow a page through patches.
///
/// Errors name the patch line and what was expected, or the ref that is
/// not in `old`.
pub fn apply_patch(old: &str, patch: &str) -> Result<String> {
    let tree = parse_aria(old, false)?;
    Ok(apply_to(tree, patch)?.to_aria())
}

fn apply_to(old: Tree, patch: &str) -> Result<Tree> {
    let ops = parse_patch(patch)?;
    // Where each ref is named first, for the error when it is not in `old`.
    let mut named: Vec<(usize, String)> = ops
        .iter()
        .map(|(n, op)| (*n, op_ref(op).to_owned()))
        .collect();
    let mut removed: FxHashSet<String> = FxHashSet::default();
    let mut changed: FxHashMap<String, Element> = FxHashMap::default();
    let mut inserts: FxHashMap<Anchor, Vec<Element>> = FxHashMap::default();
    for (_, op) in ops {
        match op {
            Op::Remove(r) => {
                removed.insert(r);
            }
            Op::Change(e) => {
                let r = e.aria_ref.clone().unwrap_or_default();
                changed.insert(r, e);
            }
            Op::Insert(a, mut es) => inserts.entry(a).or_default().append(&mut es),
        }
    }
    let mut pending = removed.len() + changed.len() + inserts.len();
    // Preorder with parent indexes, as `assemble` wants.
    let mut out: Vec<(Element, usize)> = Vec::new();
    let push_subtrees = |out: &mut Vec<(Element, usize)>, es: Vec<Element>, parent: usize| {
        for e in &es {
            let mut stack: Vec<(&Element, usize)> = vec![(e, parent)];
            while let Some((e, p)) = stack.pop() {
                out.push((e.shallow_clone(), p));
                let me = out.len() - 1;
                stack.extend(e.children.iter().rev().map(|c| (c, me)));
            }
        }
    };
    if let Some(es) = inserts.remove(&Anchor::Top) {
        push_subtrees(&mut out, es, usize::MAX);
        pending -= 1;
    }
    // The old tree is taken apart, not copied: each element moves into
    // `out` without its children, which follow it.
    let mut stack: Vec<(std::vec::IntoIter<Element>, usize)> =
        vec![(old.roots.into_iter(), usize::MAX)];
    while let Some((it, parent)) = stack.last_mut() {
        let parent = *parent;
        let Some(mut e) = it.next() else {
            stack.pop();
            continue;
        };
        let r = e.aria_ref.take();
        if r.as_deref().is_some_and(|r| removed.remove(r)) {
            pending -= 1;
            continue;
        }
        let children = std::mem::take(&mut e.children);
        let own = match r.as_deref().and_then(|r| changed.remove(r)) {
            Some(mut c) => {
                pending -= 1;
                c.children.clear();
                c
            }
            None => {
                e.aria_ref = r.clone();
                e
            }
        };
        out.push((own, parent));
        let me = out.len() - 1;
        if let Some(r) = r {
            if let Some(es) = inserts.remove(&Anchor::After(r.clone())) {
                push_subtrees(&mut out, es, parent);
                pending -= 1;
            }
            if let Some(es) = inserts.remove(&Anchor::FirstIn(r)) {
                push_subtrees(&mut out, es, me);
                pending -= 1;
            }
        }
        if !children.is_empty() {
            stack.push((children.into_iter(), me));
        }
    }
    if pending > 0 {
        let missing: FxHashSet<String> = removed
            .into_iter()
            .chain(changed.into_keys())
            .chain(inserts.into_keys().map(|a| match a {
                Anchor::After(r) | Anchor::FirstIn(r) => r,
                Anchor::Top => String::new(),
            }))
            .collect();
        named.retain(|(_, r)| missing.contains(r));
        let (line, r) = named.into_iter().next().unwrap_or_default();
        return Err(bad(
            line,
            format!(
                "[{r}] is not in the previous snapshot (apply a patch to the snapshot it was taken from)"
            ),
        ));
    }
    Ok(Tree::new(assemble(out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "- list \"Cart\" [ref=e1]:\n  - listitem [ref=e2]: Tea\n  - text: Total\n- button \"Pay\" [ref=e3]";

    #[test]
    fn removal_change_and_insertions_at_every_anchor() {
        let new = "- generic [ref=e9]: top\n- list \"Cart\" [ref=e1]:\n  - listitem [ref=e7]: Cake\n  - text: Total\n- listitem [ref=e8]: Pie\n- button \"Pay\" [disabled] [ref=e3]";
        let p = snapshot_patch(OLD, new).unwrap();
        assert_eq!(
            p.text,
            "- [e2] listitem\n+ first:\n  - generic [ref=e9]: top\n+ first in [e1]:\n  - listitem [ref=e7]: Cake\n+ after [e1]:\n  - listitem [ref=e8]: Pie\n~ button \"Pay\" [disabled] [ref=e3]"
        );
        assert_eq!(
            p.summary(),
            "1 changed (~), 3 added (+), 1 removed (-), 2 unchanged"
        );
        assert_eq!(apply_patch(OLD, &p.text).unwrap(), new);
    }

    #[test]
    fn what_a_ref_cannot_say_gives_none() {
        // A static text node has no ref: its change cannot be addressed.
        assert!(snapshot_patch(OLD, &OLD.replace("Total", "Sum")).is_none());
        // Not an aria snapshot.
        assert!(snapshot_patch("- a:\n b", OLD).is_none());
        // Over the size limit.
        let big: String = (0..MAX_PATCH_BYTES / 30 + 1)
            .map(|i| format!("- listitem [ref=e{i}]: item {i}\n"))
            .collect();
        assert!(big.len() > MAX_PATCH_BYTES);
        assert!(snapshot_patch(&big, &big.replace("item 7\n", "item 7!\n")).is_none());
        let small = &big[..big.len() / 2];
        let small = &small[..small.rfind('\n').unwrap()];
        assert!(snapshot_patch(small, &small.replace("item 7\n", "item 7!\n")).is_some());
    }

    #[test]
    fn bad_patches_name_the_line_and_the_fix() {
        let e = apply_patch(OLD, "~ button \"Pay\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("snapshot patch at line 1") && e.contains("one element with a ref"),
            "{e}"
        );
        let e = apply_patch(OLD, "- [e2]\n- [e42] row")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2") && e.contains("[e42] is not in the previous snapshot"),
            "{e}"
        );
        let e = apply_patch(OLD, "+ before [e1]:\n  - row")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown insertion point `before [e1]:`"), "{e}");
        let e = apply_patch(OLD, "+ first:").unwrap_err().to_string();
        assert!(e.contains("an insertion without element lines"), "{e}");
        let e = apply_patch(OLD, "hello").unwrap_err().to_string();
        assert!(e.contains("unknown line `hello`"), "{e}");
    }
}
