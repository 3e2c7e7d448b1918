//! Snapshot patches: a tree diff an agent reads like a diff and a program
//! applies exactly. Elements are addressed by their refs, so a patch needs
//! neither line numbers nor context lines:
//!
//! ```text
//! - [e131] paragraph
//! - [e12 e13 e14]
//! ~ link "Cart (1)" [ref=e83]:
//!     - /url: /index.html#cart
//! + first in [e132]:
//!   - listitem [ref=e535]:
//!     - text: Sencha Kyoto × 1
//! + after [e40]: [e41 e42 e43] as last shown
//! ~ order [e52 e50 e53 e51]
//! ~ focus [e30]
//! ```
//!
//! - `- [ref] …`: the element and its subtree are gone (its role and name,
//!   or its first named descendant's after `>`, follow for the reader; only
//!   the ref counts). `- [e12 e13 e14]`: several elements are gone (one
//!   line for all of them).
//! - `~ <element>`: the element's own line as it is now, in snapshot
//!   syntax, with its property lines (`- /url: …`) when they changed
//!   (without any, it keeps those it had); its children are untouched. Followed by
//!   indented child lines (`[e5] as last shown` allowed among them), the
//!   children are replaced by those: how a change in text without a ref
//!   (a count, "item left" → "items left") is said.
//! - `+ first in [ref]:` / `+ after [ref]:` / `+ first:` (top level): the
//!   indented snapshot lines that follow are inserted there, subtrees whole.
//!   Among them (or right after the colon), `[e41 e42] as last shown`
//!   inserts those elements, subtrees whole, exactly as the latest view
//!   that has each ref showed them: the previous snapshot itself, else the
//!   latest of the *seen* snapshots (see below). Indented deeper, the same
//!   line stands for children of a printed element (a container re-sent
//!   because its text changed keeps its rows by reference).
//! - `~ order [e52 e50 e53]`: siblings (elements of one parent in the
//!   previous snapshot) that kept their parent but not their order (a
//!   sort, a drag) take the places the listed ones held, in the listed
//!   order; only elements that left their place are listed. Order lines
//!   apply before the other lines, so an insertion's anchor is a sibling
//!   in its new place. Where a few elements moved far (one row dragged to
//!   the end of a long list), they are removed and inserted again by
//!   reference instead, when that is shorter.
//! - `~ focus [ref]` / `~ focus none`: `[active]` moved. Every element of
//!   the previous snapshot loses `[active]`, and the named one (an element
//!   of the previous snapshot) gains it; the rest of its line is unchanged.
//!   Inserted and `~` lines carry their own `[active]`, and a printed line
//!   that carries it takes the focus: without a focus line, every element
//!   of the previous snapshot that the patch does not print loses
//!   `[active]` (so a field typed into costs its `~` line alone).
//!
//! **Seen snapshots** (restore by reference). A patch may name elements the
//! agent was already shown in this conversation instead of printing them
//! again. The writer ([`snapshot_patch_with`]) and the applier
//! ([`apply_patch_with`]) get the same list: the snapshots the agent has
//! rebuilt earlier in the conversation (each one a full aria text, as the
//! agent's view stood after a response), oldest first. A restored ref is
//! looked up in the latest of them that has it, and the writer uses it only
//! when that subtree is, byte for byte, what the new snapshot has there.
//! A host that trims its context (so the agent may no longer have those
//! snapshots) turns restoring off ([`PatchOptions::restore`]): then only
//! elements of the previous snapshot, which every applier has, may be named
//! `as last shown`.
//!
//! [`snapshot_patch`] only returns a patch that [`apply_patch`] turns back
//! into the new snapshot byte for byte, trailing newlines aside (it
//! checks). A change to an element without a ref (static text) is said by
//! replacing its nearest ancestor that has one; anything it cannot say this
//! way (a change with no ref above it, static text moved among its
//! siblings) makes it return `None`, and the caller shows a line diff
//! instead. An element moved under another parent is removed from its old
//! place and inserted at the new one, by reference (`as last shown`) where
//! it did not change.

use super::aria::parse_aria;
use super::diff::{Field, Parent, diff};
use super::model::{Element, State, Tree, assemble};
use crate::prelude::*;
use crate::{Error, Result};
use core::fmt::Write as _;

/// Trees deeper than this are left to the line diff (the patch code walks
/// them without recursion, but the gain is nil on such pages).
const MAX_PATCH_DEPTH: usize = 256;

/// Snapshots longer than this (either one) are left to the line diff.
/// Parsing both texts, diffing the trees and checking the patch take about
/// 5 ms at this size (about 3,000 elements; `cargo bench -p response-diff
/// --bench tree_diff`, `aria/snapshot_patch_at_the_cap`) and grow linearly
/// with the text, so the cap keeps a response's diff under the 10 ms of docs/DECISIONS.md D25.
/// Seen snapshots over this size are not used for restoring.
pub const MAX_PATCH_BYTES: usize = 128 * 1024;

/// A patch and what it says, for the one-line header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotPatch {
    /// The patch text (no trailing newline).
    pub text: String,
    /// Elements whose own line changed (or that gained or lost `[active]`).
    pub changed: usize,
    /// Elements added (descendants of added elements included; restored
    /// ones too).
    pub added: usize,
    /// Of the added elements, those restored by reference (`as last shown`).
    pub restored: usize,
    /// Elements removed (descendants included).
    pub removed: usize,
    /// Elements that kept their parent but took another place among their
    /// siblings (`~ order` lines; their subtrees are not counted).
    pub moved: usize,
    /// Elements the same in both.
    pub unchanged: usize,
}

impl SnapshotPatch {
    /// `4 changed (~), 3 added (+), 1 removed (-), 266 unchanged`; with
    /// `N moved (~ order)` after the changed ones when siblings moved.
    pub fn summary(&self) -> String {
        let moved = if self.moved > 0 {
            format!(", {} moved (~ order)", self.moved)
        } else {
            String::new()
        };
        format!(
            "{} changed (~){moved}, {} added (+), {} removed (-), {} unchanged",
            self.changed, self.added, self.removed, self.unchanged
        )
    }
}

/// How [`snapshot_patch_with`] may say things.
///
/// ```
/// use response_diff::tree::PatchOptions;
/// let earlier = "- listitem \"Tea\" [ref=e2]";
/// let o = PatchOptions::seen(vec![earlier]);
/// assert!(o.restore);
/// let explicit = o.restore(false);
/// # let _ = explicit;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PatchOptions<'a> {
    /// The snapshots the agent has already been shown in this conversation
    /// (full aria texts, oldest first); see the module docs.
    pub seen: Vec<&'a str>,
    /// Restore elements from `seen` by reference (default on). Off: nothing
    /// comes from `seen`, for hosts that trim their context (elements of
    /// the previous snapshot itself, which every applier has, may still be
    /// named `as last shown`).
    pub restore: bool,
}

impl Default for PatchOptions<'_> {
    fn default() -> Self {
        PatchOptions {
            seen: Vec::new(),
            restore: true,
        }
    }
}

impl<'a> PatchOptions<'a> {
    /// Options with these seen snapshots (oldest first), restoring on.
    pub fn seen(seen: Vec<&'a str>) -> Self {
        PatchOptions {
            seen,
            restore: true,
        }
    }

    /// Sets [`PatchOptions::restore`].
    pub fn restore(mut self, on: bool) -> Self {
        self.restore = on;
        self
    }
}

/// The JSON form of [`PatchOptions`] every binding accepts:
/// `{"seen": ["<aria text>", …], "restore": true}` (both optional).
///
/// ```
/// use response_diff::tree::PatchRequest;
/// let r = PatchRequest::from_json(r#"{"seen": ["- button \"Go\" [ref=e1]"], "restore": false}"#).unwrap();
/// assert!(!r.options().restore && r.options().seen.len() == 1);
/// assert!(PatchRequest::from_json(r#"{"seen": "x"}"#).is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct PatchRequest {
    /// See [`PatchOptions::seen`].
    #[serde(default)]
    pub seen: Vec<String>,
    /// See [`PatchOptions::restore`] (default on).
    pub restore: Option<bool>,
}

impl PatchRequest {
    /// Parses the JSON form; errors name the field.
    pub fn from_json(json: &str) -> Result<PatchRequest> {
        crate::json::from_str(json, "patchOptions")
    }

    /// The options, borrowing the seen snapshots.
    pub fn options(&self) -> PatchOptions<'_> {
        PatchOptions {
            seen: self.seen.iter().map(String::as_str).collect(),
            restore: self.restore.unwrap_or(true),
        }
    }
}

impl SnapshotPatch {
    /// `{"text", "summary", "changed", "added", "restored", "removed", "moved",
    /// "unchanged"}`, the form every binding returns.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"text\":{},\"summary\":{},\"changed\":{},\"added\":{},\"restored\":{},\"removed\":{},\"moved\":{},\"unchanged\":{}}}",
            super::aria::json_quote(&self.text),
            super::aria::json_quote(&self.summary()),
            self.changed,
            self.added,
            self.restored,
            self.removed,
            self.moved,
            self.unchanged
        )
    }
}

/// The seen snapshots, parsed, with where each ref was last shown.
#[derive(Default)]
struct Seen {
    views: Vec<Tree>,
    /// ref → (view, child indexes from the top).
    at: FxHashMap<String, (usize, Vec<u32>)>,
}

impl Seen {
    /// Parses the seen snapshots. `strict`: a snapshot that does not parse
    /// is an error (the applier); else it is skipped (the writer).
    fn parse(texts: &[&str], strict: bool) -> Result<Seen> {
        let mut seen = Seen::default();
        for (k, text) in texts.iter().enumerate() {
            let text = text.trim_end_matches('\n');
            let tree = match parse_aria(text, false) {
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

    /// The element with ref `r` as last shown.
    fn get(&self, r: &str) -> Option<&Element> {
        let (v, path) = self.at.get(r)?;
        let (first, rest) = path.split_first()?;
        let mut e = self.views[*v].roots.get(*first as usize)?;
        for &i in rest {
            e = e.children.get(i as usize)?;
        }
        Some(e)
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
    let mut stack: Vec<(core::slice::Iter<'_, Element>, Option<usize>, Option<usize>)> =
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

/// Siblings of one parent that are in both snapshots but not in the same
/// order.
struct Reorder {
    /// The parent's index in the new snapshot (`None`: the top level).
    parent: Option<usize>,
    /// The elements (new indexes) that took another sibling's place, in
    /// their new order: what a `~ order` line lists.
    listed: Vec<usize>,
    /// The fewest elements whose moving gives the new order (outside a
    /// longest run kept in order).
    moved: Vec<usize>,
    /// Whether removing and inserting `moved` again says it in fewer
    /// bytes than the order line (a drag far down a long list).
    as_moves: bool,
}

/// The reordered siblings between two snapshots: elements with a ref that
/// kept their parent (by ref) and are not re-sent anyway.
fn reorders(
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
fn longest_increasing(xs: &[usize]) -> FxHashSet<usize> {
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

/// The patch from snapshot `old` to snapshot `new` (Playwright aria text),
/// or `None` when either does not parse or is over [`MAX_PATCH_BYTES`], the
/// new one does not print back unchanged, or the change cannot be said by
/// ref (see the module docs). Restores nothing: see [`snapshot_patch_with`].
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
    snapshot_patch_with(old, new, &PatchOptions::default())
}

/// [`snapshot_patch`] with options: elements the agent was shown in one of
/// `options.seen` (unchanged, same ref) are restored by reference.
///
/// ```
/// use response_diff::tree::{apply_patch_with, snapshot_patch_with, PatchOptions};
/// let all = "- list [ref=e1]:\n  - listitem \"Tea\" [ref=e2]\n  - listitem \"Cake\" [ref=e3]\n  - listitem \"Pie\" [ref=e4]";
/// let some = "- list [ref=e1]:\n  - listitem \"Cake\" [ref=e3]";
/// // The search is cleared: Tea and Pie come back as the agent saw them.
/// let p = snapshot_patch_with(some, all, &PatchOptions::seen(vec![all, some])).unwrap();
/// assert_eq!(p.text, "+ first in [e1]: [e2] as last shown\n+ after [e3]: [e4] as last shown");
/// assert_eq!(apply_patch_with(some, &p.text, &[all, some]).unwrap(), all);
/// // Without the seen snapshots (a host that trims its context) every element is printed.
/// let explicit = snapshot_patch_with(some, all, &PatchOptions::seen(vec![all]).restore(false)).unwrap();
/// assert!(explicit.text.contains("- listitem \"Tea\" [ref=e2]"));
/// ```
pub fn snapshot_patch_with(
    old: &str,
    new: &str,
    options: &PatchOptions<'_>,
) -> Option<SnapshotPatch> {
    snapshot_patch_archived(old, new, options, None)
}

/// Where elements shown before the seen snapshots were last shown: the
/// element with a ref as the agent last saw it, subtree and all, or `None`
/// when that is not known (see `tree::shown`).
pub(crate) type Archive<'a> = &'a dyn Fn(&str) -> Option<Element>;

/// [`snapshot_patch_with`], with `archive` consulted for elements neither
/// the previous snapshot nor `options.seen` has.
pub(crate) fn snapshot_patch_archived(
    old: &str,
    new: &str,
    options: &PatchOptions<'_>,
    archive: Option<Archive<'_>>,
) -> Option<SnapshotPatch> {
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
    let mut seen = if options.restore && !options.seen.is_empty() {
        Seen::parse(&options.seen, false).ok()?
    } else {
        Seen::default()
    };
    if let Some(archive) = archive.filter(|_| options.restore) {
        let in_old: FxHashSet<&str> = old_tree
            .iter()
            .filter_map(|(_, e)| e.aria_ref.as_deref())
            .collect();
        for (_, e) in new_tree.iter() {
            if let Some(r) = e.aria_ref.as_deref()
                && !in_old.contains(r)
                && !seen.at.contains_key(r)
                && let Some(shown) = archive(r)
                && shown.aria_ref.as_deref() == Some(r)
            {
                seen.at.insert(r.to_owned(), (seen.views.len(), vec![0]));
                seen.views.push(Tree::new(vec![shown]));
            }
        }
    }
    if let Some(p) = write(old_tree, &new_tree, new, &seen, true) {
        return Some(p);
    }
    // The focus line and restoring are checked like the rest; should either
    // not rebuild the text exactly, say everything explicitly instead.
    let old_tree = parse_aria(old, false).ok()?;
    write(old_tree, &new_tree, new, &Seen::default(), false)
}

/// One entry of an insertion: elements printed, or refs restored.
enum Segment<'a> {
    Printed(Vec<&'a Element>),
    Restored(Vec<&'a str>),
}

fn write(
    old_tree: Tree,
    new_tree: &Tree,
    new: &str,
    seen: &Seen,
    focus_line: bool,
) -> Option<SnapshotPatch> {
    // The fallback says everything explicitly: no restores at all.
    let restore = focus_line;
    let d = diff(&old_tree, new_tree);
    let old_nodes = flatten(&old_tree);
    let new_nodes = flatten(new_tree);
    // Refs address one element each; a snapshot with a ref twice cannot be patched.
    fn by_ref<'t>(nodes: &[Node<'t>]) -> Option<FxHashMap<&'t str, usize>> {
        let mut m = FxHashMap::default();
        m.reserve(nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            if let Some(r) = n.e.aria_ref.as_deref()
                && m.insert(r, i).is_some()
            {
                return None;
            }
        }
        Some(m)
    }
    let old_by_ref = by_ref(&old_nodes)?;
    let new_by_ref = by_ref(&new_nodes)?;

    // Focus: one line when `[active]` moved to an element of the old snapshot
    // (or away from every element).
    let active_moved = d
        .changed
        .iter()
        .any(|c| matches!(&c.field, Field::State(s) if s == "active"));
    let new_active: Vec<usize> = (0..new_nodes.len())
        .filter(|&i| new_nodes[i].e.state("active").is_some())
        .collect();
    // An element whose line is printed anyway (a new one, or one whose own
    // line changed) carries its `[active]`, and that moves the focus: no
    // focus line (see the module docs).
    let printed_anyway = |i: usize| match new_nodes[i].e.aria_ref.as_deref() {
        None => false,
        Some(r) => {
            !old_by_ref.contains_key(r)
                || d.changed.iter().any(|c| {
                    c.new_index == i && !matches!(&c.field, Field::State(s) if s == "active")
                })
        }
    };
    let mut implied_focus = false;
    let focus: Option<Option<&str>> = if focus_line && active_moved {
        match new_active.as_slice() {
            [] => Some(None),
            [i] if printed_anyway(*i) => {
                implied_focus = true;
                new_nodes[*i].e.aria_ref.as_deref().map(Some)
            }
            [i] => new_nodes[*i]
                .e
                .aria_ref
                .as_deref()
                .filter(|r| old_by_ref.contains_key(*r))
                .map(Some),
            _ => None,
        }
    } else {
        None
    };

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
    // An element whose ref changed (matched by its place) is another
    // element now: the old one goes, the new one comes with its subtree.
    let mut replaced_old: FxHashSet<usize> = FxHashSet::default();
    let mut replaced_new: FxHashSet<usize> = FxHashSet::default();
    let mut changed_new: FxHashSet<usize> = FxHashSet::default();
    let mut touched_new: FxHashSet<usize> = FxHashSet::default();
    let mut moved_new: FxHashSet<usize> = FxHashSet::default();
    for c in &d.changed {
        touched_new.insert(c.new_index);
        match &c.field {
            Field::Bounds => return None,
            // A moved element (or one whose ref changed, placed elsewhere)
            // goes from its old place and comes back at the new one, by
            // reference when it is unchanged.
            Field::Parent => {
                replaced_old.insert(c.old_index);
                replaced_new.insert(c.new_index);
                moved_new.insert(c.new_index);
            }
            Field::Ref => {
                replaced_old.insert(c.old_index);
                replaced_new.insert(c.new_index);
            }
            Field::State(s) if s == "active" && focus.is_some() => {}
            _ => {
                changed_new.insert(c.new_index);
            }
        }
    }
    // What has no ref of its own is said by replacing its nearest ancestor
    // that has one (in both snapshots).
    let lift_new = |i: usize, ro: &mut FxHashSet<usize>, rn: &mut FxHashSet<usize>| {
        let mut p = new_nodes[i].parent;
        while let Some(j) = p {
            if let Some(&oj) = new_nodes[j]
                .e
                .aria_ref
                .as_deref()
                .and_then(|r| old_by_ref.get(r))
            {
                ro.insert(oj);
                rn.insert(j);
                return Some(());
            }
            p = new_nodes[j].parent;
        }
        None
    };
    // (Elements inside a subtree that is re-sent anyway need nothing.)
    let mut refless: Vec<usize> = changed_new
        .iter()
        .copied()
        .filter(|&i| new_nodes[i].e.aria_ref.is_none())
        .collect();
    refless.sort_unstable();
    for i in refless {
        if !under(&new_nodes, &replaced_new, i) {
            lift_new(i, &mut replaced_old, &mut replaced_new)?;
        }
    }
    for r in d.removed.iter().filter(|r| !r.parent_removed) {
        if old_nodes[r.index].e.aria_ref.is_some() || under(&old_nodes, &replaced_old, r.index) {
            continue;
        }
        let mut p = old_nodes[r.index].parent;
        loop {
            let j = p?;
            if let Some(&nj) = old_nodes[j]
                .e
                .aria_ref
                .as_deref()
                .and_then(|r| new_by_ref.get(r))
            {
                replaced_old.insert(j);
                replaced_new.insert(nj);
                break;
            }
            p = old_nodes[j].parent;
        }
    }
    // Siblings that kept their parent but not their order (a sort, a drag):
    // one `~ order` line per parent, or, where a few moved far, each run
    // of them removed and inserted again by reference.
    let reorders = reorders(&old_nodes, &new_nodes, &old_by_ref, &replaced_new);
    let mut orders: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
    for r in reorders {
        if r.as_moves {
            for &i in &r.moved {
                replaced_old.insert(old_by_ref[new_nodes[i].e.aria_ref.as_deref()?]);
                replaced_new.insert(i);
                moved_new.insert(i);
            }
        } else {
            orders.push((r.parent, r.listed));
        }
    }
    // Insertions need an anchor the old snapshot has: lift until they do.
    let added: FxHashSet<usize> = d.added.iter().map(|a| a.index).collect();
    let added_roots = loop {
        let roots: FxHashSet<usize> = d
            .added
            .iter()
            .filter(|a| !matches!(a.parent, Parent::Added(_)))
            .map(|a| a.index)
            .chain(replaced_new.iter().copied())
            .filter(|&i| !under(&new_nodes, &replaced_new, i) && !under(&new_nodes, &added, i))
            .collect();
        let anchored = |j: usize| {
            !roots.contains(&j)
                && new_nodes[j]
                    .e
                    .aria_ref
                    .as_deref()
                    .is_some_and(|r| old_by_ref.contains_key(r))
        };
        let mut sorted: Vec<usize> = roots.iter().copied().collect();
        sorted.sort_unstable();
        let stray = sorted.into_iter().find(|&i| {
            let node = &new_nodes[i];
            match (node.prev, node.parent) {
                (Some(p), _) => !roots.contains(&p) && !anchored(p),
                (None, Some(p)) => !anchored(p),
                (None, None) => false,
            }
        });
        match stray {
            Some(i) => lift_new(i, &mut replaced_old, &mut replaced_new)?,
            None => break roots,
        }
    };

    // A lifted element that kept its ref is re-sent in place: its `~` line
    // with its children, one op instead of a removal and an insertion.
    let mut rewritten: FxHashSet<usize> = FxHashSet::default();
    let mut rewritten_old: FxHashSet<usize> = FxHashSet::default();
    for &i in &added_roots {
        let e = new_nodes[i].e;
        let Some(&oj) = e.aria_ref.as_deref().and_then(|r| old_by_ref.get(r)) else {
            continue;
        };
        if replaced_new.contains(&i)
            && !moved_new.contains(&i)
            && replaced_old.contains(&oj)
            && !e.children.is_empty()
        {
            rewritten.insert(i);
            rewritten_old.insert(oj);
        }
    }
    let mut text = String::new();
    let line = |text: &mut String, s: &str| {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(s);
    };
    let mut removals: Vec<usize> = d
        .removed
        .iter()
        .filter(|r| !r.parent_removed)
        .map(|r| r.index)
        .chain(replaced_old.iter().copied())
        .filter(|&i| !under(&old_nodes, &replaced_old, i) && !rewritten_old.contains(&i))
        .collect();
    removals.sort_unstable();
    removals.dedup();
    let removed: usize = removals
        .iter()
        .map(|&i| old_nodes[i].e.count())
        .sum::<usize>()
        + rewritten_old
            .iter()
            .map(|&i| old_nodes[i].e.count() - 1)
            .sum::<usize>();
    // Removed siblings share one line, where the first of them was.
    let mut groups: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
    for i in removals {
        let parent = old_nodes[i].parent;
        match groups.iter_mut().find(|(p, _)| *p == parent) {
            Some((_, g)) => g.push(i),
            None => groups.push((parent, vec![i])),
        }
    }
    // Removals under several parents share one line too: the refs say it
    // all, and the agent knows each of them.
    if groups.len() > 1 {
        let all: Vec<usize> = groups.iter().flat_map(|(_, g)| g.iter().copied()).collect();
        groups = vec![(None, all)];
    }
    for (_, group) in &groups {
        if let [i] = group.as_slice() {
            let e = old_nodes[*i].e;
            let mut s = format!("- [{}] {}", e.aria_ref.as_deref()?, e.role);
            // The reader sees what went: its name, or its first named descendant's.
            let named = e.descendants().map(|(_, d)| d).find(|d| !d.name.is_empty());
            match named {
                Some(d) if core::ptr::eq(d, e) => {
                    let _ = write!(s, " {}", super::aria::json_quote(&e.name));
                }
                Some(d) => {
                    let _ = write!(s, " > {} {}", d.role, super::aria::json_quote(&d.name));
                }
                None => {}
            }
            line(&mut text, &s);
        } else {
            let refs: Option<Vec<&str>> = group
                .iter()
                .map(|&i| old_nodes[i].e.aria_ref.as_deref())
                .collect();
            line(&mut text, &format!("- [{}]", refs?.join(" ")));
        }
    }

    // Ops in the new tree's document order: added roots (grouped into runs
    // of consecutive siblings) and changed elements.
    let mut changed_at: Vec<usize> = changed_new
        .iter()
        .copied()
        .filter(|i| !replaced_new.contains(i) && !under(&new_nodes, &replaced_new, *i))
        .collect();
    changed_at.sort_unstable();
    let mut ops: Vec<usize> = added_roots
        .iter()
        .copied()
        .chain(changed_at.iter().copied())
        .collect();
    ops.sort_unstable();
    // As last shown: the old snapshot is the latest view, then `seen`
    // (empty when the caller turned restoring off).
    let shown = |r: &str| -> Option<&Element> {
        if !restore {
            return None;
        }
        match old_by_ref.get(r) {
            Some(&i) => Some(old_nodes[i].e),
            None => seen.get(r),
        }
    };
    let restorable = |i: usize| -> Option<&str> {
        let e = new_nodes[i].e;
        let r = e.aria_ref.as_deref()?;
        (shown(r)? == e).then_some(r)
    };
    let mut restored = 0;
    // Order lines go where their parent is (top level first); a parent
    // re-sent whole says its children's order itself.
    orders.retain(|(p, _)| {
        p.is_none_or(|p| !replaced_new.contains(&p) && !under(&new_nodes, &replaced_new, p))
    });
    orders.sort_by_key(|(p, _)| p.map_or(0, |p| p + 1));
    let moved: usize = orders.iter().map(|(_, l)| l.len()).sum();
    let mut orders = orders.into_iter().peekable();
    let mut flush_orders = |text: &mut String, upto: usize| -> Option<()> {
        while let Some((_, listed)) = orders.next_if(|(p, _)| p.map_or(0, |p| p + 1) <= upto) {
            let refs: Option<Vec<&str>> = listed
                .iter()
                .map(|&i| new_nodes[i].e.aria_ref.as_deref())
                .collect();
            line(text, &format!("~ order [{}]", refs?.join(" ")));
        }
        Some(())
    };
    let mut k = 0;
    while k < ops.len() {
        let i = ops[k];
        flush_orders(&mut text, i)?;
        let node = &new_nodes[i];
        if rewritten.contains(&i) {
            let (e, n) = with_placeholders(node.e, &shown);
            restored += n;
            let mut block = String::new();
            super::aria::write_elements(&mut block, core::slice::from_ref(&e), 0);
            let block = restore_lines(&block);
            let mut lines = block.lines();
            let first = lines.next()?.strip_prefix("- ")?;
            line(&mut text, &format!("~ {first}"));
            for l in lines {
                text.push_str("\n  ");
                text.push_str(l);
            }
            k += 1;
            continue;
        }
        if !added_roots.contains(&i) {
            // Property lines (`- /url: …`) only when they changed.
            let mut own = node.e.shallow_clone();
            let before = own
                .aria_ref
                .as_deref()
                .and_then(|r| old_by_ref.get(r))
                .map(|&j| &old_nodes[j].e.props);
            if before == Some(&own.props) {
                own.props.clear();
            }
            let own = own.to_aria();
            let mut lines = own.lines();
            let first = lines.next()?.strip_prefix("- ")?;
            line(&mut text, &format!("~ {first}"));
            for l in lines {
                text.push_str("\n  ");
                text.push_str(l);
            }
            k += 1;
            continue;
        }
        // A run of added siblings shares the first one's anchor.
        let mut run = vec![i];
        k += 1;
        while k < ops.len()
            && added_roots.contains(&ops[k])
            && !rewritten.contains(&ops[k])
            && new_nodes[ops[k]].prev == run.last().copied()
        {
            run.push(ops[k]);
            k += 1;
        }
        let mut segments: Vec<Segment<'_>> = Vec::new();
        for &j in &run {
            match (restorable(j), segments.last_mut()) {
                (Some(r), Some(Segment::Restored(rs))) => rs.push(r),
                (Some(r), _) => segments.push(Segment::Restored(vec![r])),
                (None, Some(Segment::Printed(es))) => es.push(new_nodes[j].e),
                (None, _) => segments.push(Segment::Printed(vec![new_nodes[j].e])),
            }
            if restorable(j).is_some() {
                restored += new_nodes[j].e.count();
            }
        }
        let mut header = match (node.prev, node.parent) {
            (Some(p), _) => format!("+ after [{}]:", new_nodes[p].e.aria_ref.as_deref()?),
            (None, Some(p)) => format!("+ first in [{}]:", new_nodes[p].e.aria_ref.as_deref()?),
            (None, None) => "+ first:".to_owned(),
        };
        let mut segments = segments.into_iter().peekable();
        if let Some(Segment::Restored(rs)) = segments.peek() {
            let _ = write!(header, " [{}] as last shown", rs.join(" "));
            segments.next();
        }
        line(&mut text, &header);
        for s in segments {
            match s {
                Segment::Restored(rs) => {
                    let _ = write!(text, "\n  [{}] as last shown", rs.join(" "));
                }
                Segment::Printed(es) => {
                    for e in es {
                        // Below the header, one level in (it starts the line
                        // itself); descendants shown before, by reference.
                        let (e, n) = with_placeholders(e, &shown);
                        restored += n;
                        let mut block = String::new();
                        super::aria::write_elements(&mut block, core::slice::from_ref(&e), 1);
                        text.push('\n');
                        text.push_str(&restore_lines(&block));
                    }
                }
            }
        }
    }
    flush_orders(&mut text, usize::MAX)?;
    if let Some(target) = focus.filter(|_| !implied_focus) {
        line(
            &mut text,
            &format!(
                "~ focus {}",
                target.map_or("none".to_owned(), |r| format!("[{r}]"))
            ),
        );
    }
    // A rewritten element is changed; its children count as added (and
    // its old children as removed, above).
    let added: usize = added_roots
        .iter()
        .map(|&i| new_nodes[i].e.count() - usize::from(rewritten.contains(&i)))
        .sum();
    let changed = touched_new
        .iter()
        .filter(|i| !added_roots.contains(*i) && !under(&new_nodes, &replaced_new, **i))
        .count()
        + rewritten.len();
    let patch = SnapshotPatch {
        text,
        changed,
        added,
        restored,
        removed,
        moved,
        unchanged: new_nodes.len().saturating_sub(added + changed + moved),
    };
    // hashbrown's maps (unlike std's) may touch their keys when dropped:
    // end the borrows of `old_tree` before it moves.
    drop(old_by_ref);
    // Lossless or nothing: the patch must rebuild the new text exactly.
    (apply_to(old_tree, &patch.text, Some(seen)).ok()?.to_aria() == new).then_some(patch)
}

/// The role of a placeholder for an element restored by reference inside
/// printed lines (never printed: [`restore_lines`] turns it into
/// `[ref …] as last shown`).
const PLACEHOLDER: &str = "restore-as-last-shown";

/// A copy of `e` whose descendants (not `e`) that `shown` has exactly as
/// they are now are placeholders, and how many elements they stand for.
fn with_placeholders<'a>(
    e: &Element,
    shown: &impl Fn(&str) -> Option<&'a Element>,
) -> (Element, usize) {
    let mut copy = e.clone();
    let mut restored = 0;
    let mut stack: Vec<&mut Element> = vec![&mut copy];
    while let Some(x) = stack.pop() {
        for c in x.children.iter_mut() {
            let same = c
                .aria_ref
                .as_deref()
                .and_then(shown)
                .is_some_and(|s| s == c);
            if same {
                restored += c.count();
                let mut p = Element::new(PLACEHOLDER, "");
                p.aria_ref = c.aria_ref.take();
                *c = p;
            } else {
                stack.push(c);
            }
        }
    }
    (copy, restored)
}

/// Printed lines with placeholder lines turned into `[ref …] as last
/// shown`, consecutive ones at one indentation sharing a line.
fn restore_lines(block: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut open: Option<(usize, Vec<String>)> = None;
    let flush = |out: &mut Vec<String>, open: &mut Option<(usize, Vec<String>)>| {
        if let Some((indent, refs)) = open.take() {
            out.push(format!(
                "{}[{}] as last shown",
                " ".repeat(indent),
                refs.join(" ")
            ));
        }
    };
    for l in block.lines() {
        let body = l.trim_start_matches(' ');
        let indent = l.len() - body.len();
        let r = body
            .strip_prefix("- ")
            .and_then(|b| b.strip_prefix(PLACEHOLDER))
            .and_then(|b| b.strip_prefix(" [ref="))
            .and_then(|b| b.strip_suffix(']'));
        match (r, &mut open) {
            (Some(r), Some((i, refs))) if *i == indent => refs.push(r.to_owned()),
            (Some(r), _) => {
                flush(&mut out, &mut open);
                open = Some((indent, vec![r.to_owned()]));
            }
            (None, _) => {
                flush(&mut out, &mut open);
                out.push(l.to_owned());
            }
        }
    }
    flush(&mut out, &mut open);
    out.join("\n")
}

/// One operation of a parsed patch.
enum Op {
    Remove(Vec<String>),
    Change(Element),
    Insert(Anchor, Vec<Item>),
    Focus(Option<String>),
    Order(Vec<String>),
}

/// One inserted element: printed in the patch, or restored by ref.
enum Item {
    Printed(Box<Element>),
    Restored(String),
}

/// The refs an op is about (for errors).
fn op_refs(op: &Op) -> Vec<&str> {
    match op {
        Op::Remove(rs) => rs.iter().map(String::as_str).collect(),
        Op::Change(e) => vec![e.aria_ref.as_deref().unwrap_or("")],
        Op::Insert(Anchor::After(r) | Anchor::FirstIn(r), _) => vec![r],
        Op::Insert(Anchor::Top, _) => vec![""],
        Op::Focus(r) => vec![r.as_deref().unwrap_or("")],
        Op::Order(rs) => rs.iter().map(String::as_str).collect(),
    }
}

#[derive(PartialEq, Eq, Hash)]
enum Anchor {
    After(String),
    FirstIn(String),
    Top,
}

fn bad(line: usize, why: impl core::fmt::Display) -> Error {
    Error::Parse {
        what: "snapshot patch",
        line,
        message: format!(
            "{why}; a patch has `- [ref]` / `- [ref ref …]`, `~ <element>`, `~ focus [ref]`, `~ order [ref ref …]` and `+ first in [ref]:` / `+ after [ref]:` / `+ first:` lines, the insertions followed by indented snapshot lines or `[ref …] as last shown`"
        ),
    }
}

/// `[e1 e2]…` → the refs and what follows the bracket.
fn bracketed_refs(s: &str, line: usize) -> Result<(Vec<String>, &str)> {
    let (inner, rest) = s
        .strip_prefix('[')
        .and_then(|s| s.split_once(']'))
        .ok_or_else(|| bad(line, format!("expected a ref like `[e12]`, found `{s}`")))?;
    let refs: Vec<String> = inner.split(' ').map(str::to_owned).collect();
    if refs
        .iter()
        .any(|r| r.is_empty() || r.contains(char::is_whitespace))
    {
        return Err(bad(
            line,
            format!("expected refs like `[e12 e13]`, found `[{inner}]`"),
        ));
    }
    Ok((refs, rest))
}

fn bracketed_ref(s: &str, line: usize) -> Result<String> {
    match bracketed_refs(s, line)? {
        (mut refs, _) if refs.len() == 1 => Ok(refs.remove(0)),
        _ => Err(bad(
            line,
            format!("expected one ref like `[e12]`, found `{s}`"),
        )),
    }
}

/// `[e1 e2] as last shown` → the refs, or `None` when the text is not that.
fn restore_refs(s: &str, line: usize) -> Option<Result<Vec<String>>> {
    let inner = s.strip_suffix(" as last shown")?;
    Some(bracketed_refs(inner, line).and_then(|(refs, rest)| {
        if rest.is_empty() {
            Ok(refs)
        } else {
            Err(bad(line, format!("unexpected `{rest}` after the refs")))
        }
    }))
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
        let parse_block = |text: &str, at: usize| -> Result<Vec<Element>> {
            parse_aria(text, false)
                .map(|t| t.roots)
                .map_err(|e| bad(at, format!("the element lines do not parse: {e}")))
        };
        if let Some(rest) = l.strip_prefix("- ") {
            if !body.is_empty() {
                return Err(bad(n, "a removal has no indented lines"));
            }
            ops.push((n, Op::Remove(bracketed_refs(rest, n)?.0)));
        } else if let Some(rest) = l.strip_prefix("~ focus ") {
            if !body.is_empty() {
                return Err(bad(n, "a focus line has no indented lines"));
            }
            let target = if rest == "none" {
                None
            } else {
                Some(bracketed_ref(rest, n)?)
            };
            ops.push((n, Op::Focus(target)));
        } else if let Some(rest) = l
            .strip_prefix("~ order ")
            .filter(|r| r.starts_with('[') && !r.contains('='))
        {
            if !body.is_empty() {
                return Err(bad(n, "an order line has no indented lines"));
            }
            let (refs, tail) = bracketed_refs(rest, n)?;
            if !tail.is_empty() {
                return Err(bad(n, format!("unexpected `{tail}` after the refs")));
            }
            ops.push((n, Op::Order(refs)));
        } else if let Some(rest) = l.strip_prefix("~ ") {
            let mut text = format!("- {rest}");
            for (k, b) in body.iter().enumerate() {
                let b = &b[2..];
                let inner = b.trim_start_matches(' ');
                // Children restored by reference become placeholders.
                if inner.len() < b.len()
                    && let Some(refs) = restore_refs(inner, n + 1 + k)
                {
                    let indent = &b[..b.len() - inner.len()];
                    for r in refs? {
                        let _ = write!(text, "\n{indent}- {PLACEHOLDER} [ref={r}]");
                    }
                    continue;
                }
                text.push('\n');
                text.push_str(b);
            }
            let mut roots = parse_block(&text, n)?;
            if roots.len() != 1 || roots[0].aria_ref.is_none() {
                return Err(bad(n, "a change is one element with a ref"));
            }
            ops.push((n, Op::Change(roots.remove(0))));
        } else if let Some(rest) = l.strip_prefix("+ ") {
            let (anchor, tail) = if let Some(t) = rest.strip_prefix("first:") {
                (Anchor::Top, t)
            } else if let Some(r) = rest.strip_prefix("first in ") {
                let (mut refs, t) = bracketed_refs(r, n)?;
                match (refs.len(), t.strip_prefix(':')) {
                    (1, Some(t)) => (Anchor::FirstIn(refs.remove(0)), t),
                    _ => return Err(bad(n, format!("unknown insertion point `{rest}`"))),
                }
            } else if let Some(r) = rest.strip_prefix("after ") {
                let (mut refs, t) = bracketed_refs(r, n)?;
                match (refs.len(), t.strip_prefix(':')) {
                    (1, Some(t)) => (Anchor::After(refs.remove(0)), t),
                    _ => return Err(bad(n, format!("unknown insertion point `{rest}`"))),
                }
            } else {
                return Err(bad(n, format!("unknown insertion point `{rest}`")));
            };
            let mut items: Vec<Item> = Vec::new();
            if let Some(t) = tail.strip_prefix(' ') {
                let refs = restore_refs(t, n).ok_or_else(|| {
                    bad(n, format!("unexpected `{t}` after the insertion point"))
                })??;
                items.extend(refs.into_iter().map(Item::Restored));
            } else if !tail.is_empty() {
                return Err(bad(n, format!("unknown insertion point `{rest}`")));
            }
            // Printed elements, with `[…] as last shown` lines among them
            // (nested ones become placeholders, resolved when applied).
            let mut block = String::new();
            let mut block_at = n + 1;
            for (k, b) in body.iter().enumerate() {
                let b = &b[2..];
                let inner = b.trim_start_matches(' ');
                if inner.len() < b.len()
                    && let Some(refs) = restore_refs(inner, n + 1 + k)
                {
                    let indent = &b[..b.len() - inner.len()];
                    for r in refs? {
                        if block.is_empty() {
                            block_at = n + 1 + k;
                        } else {
                            block.push('\n');
                        }
                        let _ = write!(block, "{indent}- {PLACEHOLDER} [ref={r}]");
                    }
                    continue;
                }
                match restore_refs(b, n + 1 + k) {
                    Some(refs) => {
                        if !block.is_empty() {
                            items.extend(
                                parse_block(&block, block_at)?
                                    .into_iter()
                                    .map(|e| Item::Printed(Box::new(e))),
                            );
                            block.clear();
                        }
                        items.extend(refs?.into_iter().map(Item::Restored));
                    }
                    None => {
                        if block.is_empty() {
                            block_at = n + 1 + k;
                        } else {
                            block.push('\n');
                        }
                        block.push_str(b);
                    }
                }
            }
            if !block.is_empty() {
                items.extend(
                    parse_block(&block, block_at)?
                        .into_iter()
                        .map(|e| Item::Printed(Box::new(e))),
                );
            }
            if items.is_empty() {
                return Err(bad(n, "an insertion without element lines"));
            }
            ops.push((n, Op::Insert(anchor, items)));
        } else {
            return Err(bad(n, format!("unknown line `{l}`")));
        }
    }
    Ok(ops)
}

/// Applies a patch from [`snapshot_patch`] to the snapshot it was taken
/// from, giving the new snapshot text. An agent (or a host keeping the
/// agent's view) uses this to follow a page through patches. A patch that
/// restores elements `as last shown` needs [`apply_patch_with`].
///
/// Errors name the patch line and what was expected, or the ref that is
/// not in `old`.
pub fn apply_patch(old: &str, patch: &str) -> Result<String> {
    apply_patch_with(old, patch, &[])
}

/// [`apply_patch`] with the snapshots the agent was shown earlier in the
/// conversation (oldest first), for elements the patch restores `as last
/// shown`: each comes from the latest of them that has its ref. `seen` is
/// only parsed when the patch restores something.
///
/// ```
/// use response_diff::tree::apply_patch_with;
/// let earlier = "- list [ref=e1]:\n  - listitem \"Tea\" [ref=e2]";
/// let now = "- list [ref=e1]";
/// let back = apply_patch_with(now, "+ first in [e1]: [e2] as last shown", &[earlier]).unwrap();
/// assert_eq!(back, earlier);
/// let e = apply_patch_with(now, "+ first in [e1]: [e2] as last shown", &[]).unwrap_err();
/// assert!(e.to_string().contains("[e2] is restored `as last shown`"));
/// ```
pub fn apply_patch_with(old: &str, patch: &str, seen: &[&str]) -> Result<String> {
    let tree = parse_aria(old, false)?;
    let needs_seen = patch.lines().any(|l| l.ends_with(" as last shown"));
    let seen = if needs_seen {
        Some(Seen::parse(seen, true)?)
    } else {
        None
    };
    Ok(apply_to(tree, patch, seen.as_ref())?.to_aria())
}

/// Where Playwright prints `[active]` among the states: after `checked`,
/// `disabled` and `expanded`, before the rest.
fn add_active(states: &mut Vec<State>) {
    let at = states
        .iter()
        .position(|s| !matches!(s.name.as_str(), "checked" | "disabled" | "expanded"))
        .unwrap_or(states.len());
    states.insert(at, State::flag("active"));
}

/// Applies `~ order` lines to `tree`: the listed siblings take the places
/// they held, in the listed order.
fn reorder(tree: &mut Tree, ops: &[(usize, Op)]) -> Result<()> {
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

/// Child indexes from the top down to the element with ref `r`.
fn path_of(tree: &Tree, r: &str) -> Option<Vec<usize>> {
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
fn walk_paths(tree: &Tree, mut f: impl FnMut(&Element, &[u32]) -> bool) {
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

fn apply_to(mut old: Tree, patch: &str, seen: Option<&Seen>) -> Result<Tree> {
    let ops = parse_patch(patch)?;
    // Orders first: the other lines' anchors are the siblings in their new order.
    reorder(&mut old, &ops)?;
    // Where each ref is named first, for the error when it is not in `old`.
    let mut named: Vec<(usize, String)> = ops
        .iter()
        .flat_map(|(n, op)| op_refs(op).into_iter().map(|r| (*n, r.to_owned())))
        .collect();
    // As last shown: the old snapshot is the latest view, then `seen`.
    let mut old_by_ref: FxHashMap<&str, &Element> = FxHashMap::default();
    if patch.contains(" as last shown") {
        for (_, e) in old.iter() {
            if let Some(r) = e.aria_ref.as_deref() {
                old_by_ref.entry(r).or_insert(e);
            }
        }
    }
    let shown = |r: &str| {
        old_by_ref
            .get(r)
            .copied()
            .or_else(|| seen.and_then(|s| s.get(r)))
    };
    let missing = |n: usize, r: &str| {
        bad(
            n,
            format!(
                "[{r}] is restored `as last shown` but no seen snapshot has it (pass the snapshots this conversation showed as `seen`, or ask for patches without restoring)"
            ),
        )
    };
    let mut removed: FxHashSet<String> = FxHashSet::default();
    let mut changed: FxHashMap<String, Element> = FxHashMap::default();
    let mut inserts: FxHashMap<Anchor, Vec<Element>> = FxHashMap::default();
    let mut focus: Option<Option<String>> = None;
    // A printed element with `[active]` takes the focus (module docs).
    let mut takes_focus = false;
    let active = |e: &Element| e.descendants().any(|(_, d)| d.state("active").is_some());
    for (n, op) in ops {
        match op {
            Op::Remove(rs) => removed.extend(rs),
            Op::Change(mut e) => {
                takes_focus |= active(&e);
                let mut stack: Vec<&mut Element> = vec![&mut e];
                while let Some(x) = stack.pop() {
                    for c in x.children.iter_mut() {
                        if c.role == PLACEHOLDER {
                            let r = c.aria_ref.clone().unwrap_or_default();
                            *c = shown(&r).ok_or_else(|| missing(n, &r))?.clone();
                        } else {
                            stack.push(c);
                        }
                    }
                }
                let r = e.aria_ref.clone().unwrap_or_default();
                changed.insert(r, e);
            }
            Op::Insert(a, items) => {
                let list = inserts.entry(a).or_default();
                for item in items {
                    match item {
                        Item::Printed(mut e) => {
                            takes_focus |= active(&e);
                            let mut stack: Vec<&mut Element> = vec![&mut *e];
                            while let Some(x) = stack.pop() {
                                for c in x.children.iter_mut() {
                                    if c.role == PLACEHOLDER {
                                        let r = c.aria_ref.clone().unwrap_or_default();
                                        *c = shown(&r).ok_or_else(|| missing(n, &r))?.clone();
                                    } else {
                                        stack.push(c);
                                    }
                                }
                            }
                            list.push(*e)
                        }
                        Item::Restored(r) => match shown(&r) {
                            Some(e) => list.push(e.clone()),
                            None => return Err(missing(n, &r)),
                        },
                    }
                }
            }
            Op::Focus(target) => focus = Some(target),
            Op::Order(_) => {}
        }
    }
    drop(old_by_ref);
    let mut pending = removed.len() + changed.len() + inserts.len();
    let mut focus_target = focus.clone().flatten();
    if focus_target.is_some() {
        pending += 1;
    }
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
    let mut stack: Vec<(alloc::vec::IntoIter<Element>, usize)> =
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
        if focus.is_some() {
            e.states.retain(|s| s.name != "active");
            if r.is_some() && r == focus_target {
                add_active(&mut e.states);
                focus_target = None;
                pending -= 1;
            }
        } else if takes_focus {
            e.states.retain(|s| s.name != "active");
        }
        let children = core::mem::take(&mut e.children);
        // A `~` element printed with children has them instead of its own.
        let mut new_children: Vec<Element> = Vec::new();
        let own = match r.as_deref().and_then(|r| changed.remove(r)) {
            Some(mut c) => {
                pending -= 1;
                new_children = core::mem::take(&mut c.children);
                if c.props.is_empty() {
                    c.props = core::mem::take(&mut e.props);
                }
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
        if !new_children.is_empty() {
            push_subtrees(&mut out, new_children, me);
        } else if !children.is_empty() {
            stack.push((children.into_iter(), me));
        }
    }
    if pending > 0 {
        let missing: FxHashSet<String> = removed
            .into_iter()
            .chain(changed.into_keys())
            .chain(focus_target)
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
    fn a_change_without_a_ref_replaces_the_nearest_element_with_one() {
        let new = OLD.replace("Total", "Sum");
        let p = snapshot_patch(OLD, &new).unwrap();
        assert_eq!(
            p.text,
            "~ list \"Cart\" [ref=e1]:\n    [e2] as last shown\n    - text: Sum"
        );
        assert_eq!(
            p.summary(),
            "1 changed (~), 2 added (+), 2 removed (-), 1 unchanged"
        );
        assert_eq!(apply_patch(OLD, &p.text).unwrap(), new);
        // Added and removed text nodes too.
        let new = OLD.replace("  - text: Total\n", "");
        assert_eq!(
            apply_patch(OLD, &snapshot_patch(OLD, &new).unwrap().text).unwrap(),
            new
        );
        let new = OLD.replace("  - text: Total\n", "  - text: Total\n  - text: more\n");
        assert_eq!(
            apply_patch(OLD, &snapshot_patch(OLD, &new).unwrap().text).unwrap(),
            new
        );
    }

    #[test]
    fn removed_elements_share_one_line() {
        let old = "- list [ref=e1]:\n  - listitem [ref=e2]: a\n  - listitem [ref=e3]: b\n  - listitem [ref=e4]: c\n  - listitem [ref=e5]: d\n- button \"Go\" [ref=e6]";
        let new = "- list [ref=e1]:\n  - listitem [ref=e4]: c";
        let p = snapshot_patch(old, new).unwrap();
        assert_eq!(p.text, "- [e2 e3 e5 e6]");
        assert_eq!(p.removed, 4);
        assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    }

    #[test]
    fn a_changed_line_repeats_its_properties_only_when_they_changed() {
        let old = "- link \"Cart (1)\" [ref=e1]:\n  - /url: \"#cart\"\n- link \"Help\" [ref=e2]:\n  - /url: /help";
        let new = old.replace("Cart (1)", "Cart (2)");
        let p = snapshot_patch(old, &new).unwrap();
        assert_eq!(p.text, "~ link \"Cart (2)\" [ref=e1]");
        assert_eq!(apply_patch(old, &p.text).unwrap(), new);
        let moved = new.replace("/help", "/faq");
        let p = snapshot_patch(old, &moved).unwrap();
        assert_eq!(
            p.text,
            "~ link \"Cart (2)\" [ref=e1]\n~ link \"Help\" [ref=e2]:\n    - /url: /faq"
        );
        assert_eq!(apply_patch(old, &p.text).unwrap(), moved);
    }

    #[test]
    fn a_moved_element_goes_and_comes_back_by_reference() {
        // A first todo wraps the header in a new container (react's TodoMVC).
        let old = "- generic [ref=e1]:\n  - heading \"todos\" [level=1] [ref=e2]\n  - textbox \"New\" [ref=e3]";
        let new = "- generic [ref=e1]:\n  - generic [ref=e4]:\n    - heading \"todos\" [level=1] [ref=e2]\n    - textbox \"New\" [ref=e3]\n  - list [ref=e5]:\n    - listitem [ref=e6]: Tea";
        let p = snapshot_patch(old, new).unwrap();
        assert_eq!(
            p.text,
            "- [e2 e3]\n+ first in [e1]:\n  - generic [ref=e4]:\n    [e2 e3] as last shown\n  - list [ref=e5]:\n    - listitem [ref=e6]: Tea"
        );
        assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    }

    #[test]
    fn reordered_siblings_cost_one_order_line() {
        let row = |i: usize, name: &str, n: usize| {
            format!(
                "    - row \"{name} {n}\" [ref=r{i}]:\n      - cell \"{name}\" [ref=c{i}]\n      - cell \"{n}\" [ref=d{i}]\n"
            )
        };
        let data = [("Ada", 36), ("Bob", 25), ("Cy", 41), ("Di", 30)];
        let table = |order: &[usize]| {
            let rows: String = order
                .iter()
                .map(|&i| row(i, data[i].0, data[i].1))
                .collect();
            format!("- table [ref=t]:\n  - rowgroup [ref=g]:\n{rows}- button \"Next\" [ref=b]")
        };
        let by_name = table(&[0, 1, 2, 3]);
        let by_age = table(&[1, 3, 0, 2]);
        let by_age_down = table(&[2, 0, 3, 1]);
        let mut prev = by_name.clone();
        for (next, line) in [
            (&by_age, "~ order [r1 r3 r0 r2]"),
            (&by_age_down, "~ order [r2 r0 r3 r1]"),
            (&by_name, "~ order [r0 r1 r2 r3]"),
        ] {
            let p = snapshot_patch(&prev, next).unwrap();
            assert_eq!(p.text, line);
            assert_eq!(p.moved, 4);
            assert!(p.summary().contains("4 moved (~ order)"), "{}", p.summary());
            assert_eq!(apply_patch(&prev, &p.text).unwrap(), *next);
            prev = next.clone();
        }
        // Only the elements that left their place are listed.
        let p = snapshot_patch(&by_name, &table(&[0, 2, 1, 3])).unwrap();
        assert_eq!(p.text, "~ order [r2 r1]");
        // A sort that also changes the page: removals, an order, insertions.
        let mut next = table(&[3, 1, 0]);
        next = next.replace(
            "    - row \"Bob",
            "    - row \"Eve 22\" [ref=r9]:\n      - cell \"Eve\" [ref=c9]\n    - row \"Bob",
        );
        let p = snapshot_patch(&by_name, &next).unwrap();
        assert_eq!(
            p.text,
            "- [r2] row \"Cy 41\"\n~ order [r3 r0]\n+ after [r3]:\n  - row \"Eve 22\" [ref=r9]:\n    - cell \"Eve\" [ref=c9]"
        );
        assert_eq!(apply_patch(&by_name, &p.text).unwrap(), next);
        // One row dragged from the top of a long list to its end: a move.
        let long: Vec<usize> = (0..40).collect();
        let items = |order: &[usize]| -> String {
            let rows: Vec<String> = order
                .iter()
                .map(|i| format!("  - listitem \"Item {i}\" [ref=e{i}]"))
                .collect();
            format!("- list [ref=l]:\n{}", rows.join("\n"))
        };
        let mut dragged = long[1..].to_vec();
        dragged.push(0);
        let p = snapshot_patch(&items(&long), &items(&dragged)).unwrap();
        assert_eq!(
            p.text,
            "- [e0] listitem \"Item 0\"\n+ after [e39]: [e0] as last shown"
        );
        assert_eq!(
            apply_patch(&items(&long), &p.text).unwrap(),
            items(&dragged)
        );
        // Bad order lines say what is wrong.
        let e = apply_patch(&by_name, "~ order [r1 b]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("[b] is not a sibling of [r1]"), "{e}");
        let e = apply_patch(&by_name, "~ order [r1 r1]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("[r1] is listed twice"), "{e}");
        let e = apply_patch(&by_name, "~ order [x]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("[x] is not in the previous snapshot"), "{e}");
    }

    #[test]
    fn a_moved_focus_costs_one_line() {
        let old = "- textbox \"Body\" [active] [ref=e1]: a long request body that would cost many tokens\n- button \"Send\" [ref=e2]";
        let new = "- textbox \"Body\" [ref=e1]: a long request body that would cost many tokens\n- button \"Send\" [active] [ref=e2]";
        let p = snapshot_patch(old, new).unwrap();
        assert_eq!(p.text, "~ focus [e2]");
        assert_eq!(
            p.summary(),
            "2 changed (~), 0 added (+), 0 removed (-), 0 unchanged"
        );
        assert_eq!(apply_patch(old, &p.text).unwrap(), new);
        // Focus gone from the page.
        let none = new.replace(" [active]", "");
        assert_eq!(snapshot_patch(new, &none).unwrap().text, "~ focus none");
        // `[active]` goes where Playwright prints it among the states.
        let old = "- checkbox \"A\" [checked] [disabled] [level=2] [ref=e1]\n- button \"B\" [active] [ref=e2]";
        let new = "- checkbox \"A\" [checked] [disabled] [active] [level=2] [ref=e1]\n- button \"B\" [ref=e2]";
        let p = snapshot_patch(old, new).unwrap();
        assert_eq!(p.text, "~ focus [e1]");
        assert_eq!(apply_patch(old, &p.text).unwrap(), new);
        // Focus moves into a changed element: its own line says it all.
        let old = "- textbox \"Q\" [ref=e1]\n- button \"Go\" [active] [ref=e2]";
        let new = "- textbox \"Q\" [active] [ref=e1]: tea\n- button \"Go\" [ref=e2]";
        let p = snapshot_patch(old, new).unwrap();
        assert_eq!(p.text, "~ textbox \"Q\" [active] [ref=e1]: tea");
        assert_eq!(apply_patch(old, &p.text).unwrap(), new);
        // ... or into a new one (an edit field opened by a double-click).
        let new = "- textbox \"Q\" [ref=e1]\n- textbox \"Edit\" [active] [ref=e3]: tea\n- button \"Go\" [ref=e2]";
        let p = snapshot_patch(old, new).unwrap();
        assert_eq!(
            p.text,
            "+ after [e1]:\n  - textbox \"Edit\" [active] [ref=e3]: tea"
        );
        assert_eq!(apply_patch(old, &p.text).unwrap(), new);
        // A printed line keeping `[active]` where it was changes nothing else.
        let old = "- textbox \"Q\" [active] [ref=e1]: te\n- button \"Go\" [ref=e2]";
        let new = "- textbox \"Q\" [active] [ref=e1]: tea\n- button \"Go\" [ref=e2]";
        let p = snapshot_patch(old, new).unwrap();
        assert_eq!(p.text, "~ textbox \"Q\" [active] [ref=e1]: tea");
        assert_eq!(apply_patch(old, &p.text).unwrap(), new);
    }

    #[test]
    fn elements_shown_before_are_restored_by_reference() {
        let all = "- list [ref=e1]:\n  - listitem [ref=e2]:\n    - link \"Tea\" [ref=e3]\n  - listitem [ref=e4]:\n    - link \"Cake\" [ref=e5]\n  - listitem [ref=e6]:\n    - link \"Pie\" [ref=e7]";
        let one = "- list [ref=e1]:\n  - listitem [ref=e4]:\n    - link \"Cake\" [ref=e5]";
        // A new element among the restored ones: printed between them.
        let new = all.replace(
            "  - listitem [ref=e6]",
            "  - listitem [ref=e9]: new\n  - listitem [ref=e6]",
        );
        let seen = [all, one];
        let p = snapshot_patch_with(one, &new, &PatchOptions::seen(seen.to_vec())).unwrap();
        assert_eq!(
            p.text,
            "+ first in [e1]: [e2] as last shown\n+ after [e4]:\n  - listitem [ref=e9]: new\n  [e6] as last shown"
        );
        assert_eq!((p.added, p.restored), (5, 4));
        assert_eq!(apply_patch_with(one, &p.text, &seen).unwrap(), new);
        // The latest seen snapshot that has a ref wins: Pie was renamed there,
        // so the original Pie cannot be restored by reference.
        let renamed = all.replace("Pie", "Tart");
        let seen = [all, renamed.as_str(), one];
        let p = snapshot_patch_with(one, all, &PatchOptions::seen(seen.to_vec())).unwrap();
        assert_eq!(
            p.text,
            "+ first in [e1]: [e2] as last shown\n+ after [e4]:\n  - listitem [ref=e6]:\n    - link \"Pie\" [ref=e7]"
        );
        assert_eq!(apply_patch_with(one, &p.text, &seen).unwrap(), all);
        // Off: everything printed.
        let p = snapshot_patch_with(one, all, &PatchOptions::seen(seen.to_vec()).restore(false))
            .unwrap();
        assert_eq!(p.restored, 0);
        assert!(!p.text.contains("as last shown"));
    }

    #[test]
    fn what_a_ref_cannot_say_gives_none() {
        // A top-level static text node has no ref above it.
        let old = "- text: Total\n- button \"Pay\" [ref=e3]";
        assert!(snapshot_patch(old, &old.replace("Total", "Sum")).is_none());
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
        let e = apply_patch(OLD, "- [e2  e3]").unwrap_err().to_string();
        assert!(e.contains("expected refs like `[e12 e13]`"), "{e}");
        let e = apply_patch(OLD, "~ focus [e9]").unwrap_err().to_string();
        assert!(e.contains("[e9] is not in the previous snapshot"), "{e}");
        let e = apply_patch(OLD, "~ focus [e1 e2]").unwrap_err().to_string();
        assert!(e.contains("expected one ref"), "{e}");
        let e = apply_patch(OLD, "+ after [e1]: [e7] as last shown")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("[e7] is restored `as last shown` but no seen snapshot has it"),
            "{e}"
        );
        let e = apply_patch(OLD, "+ after [e1]: hello")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unexpected `hello` after the insertion point"),
            "{e}"
        );
        let e = apply_patch_with(OLD, "+ after [e1]: [e7] as last shown", &["- a:\n b"])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("seen snapshot at line") && e.contains("seen[0]"),
            "{e}"
        );
    }
}
