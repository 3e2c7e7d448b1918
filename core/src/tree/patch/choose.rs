//! Choosing a patch: the tries [`write`] makes (elements without a ref
//! by their ancestors or by their addresses, busy parents re-sent whole)
//! and the shortest that rebuilds the new snapshot, or none.

use super::address::addressed;
use super::options::{MAX_PATCH_BYTES, MAX_PATCH_DEPTH, PatchOptions, SnapshotPatch};
use super::seen::{Seen, walk_paths};
use super::words::words;
use super::write::{Resend, write};
use crate::prelude::*;
use crate::tree::model::Tree;
use crate::tree::{Dialect, parse_in};

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
/// assert_eq!(p.text, "+ after [e2]:\n  - listitem [ref=e4]: Cake\n~ [e3] -disabled");
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

/// Where elements shown before the seen snapshots were last shown (see
/// `tree::shown`): entries, each the siblings that left the page together
/// as the agent last saw them.
pub(crate) trait Archive {
    /// The entry that holds ref `r` as the agent last saw it, or `None`
    /// when that is not known.
    fn entry_of(&self, r: &str) -> Option<usize>;
    /// Entry `k`'s elements, in order, subtrees and all.
    fn entry(&self, k: usize) -> Option<Tree>;
}

/// [`snapshot_patch_with`], with `archive` consulted for elements neither
/// the previous snapshot nor `options.seen` has.
pub(crate) fn snapshot_patch_archived(
    old: &str,
    new: &str,
    options: &PatchOptions<'_>,
    archive: Option<&dyn Archive>,
) -> Option<SnapshotPatch> {
    // Hosts may end a snapshot with a newline; Playwright's printer does
    // not (chrome-devtools-mcp's ends every line in one).
    let dialect = Dialect::detect(new);
    let new = dialect.trim(new);
    if old.len() > MAX_PATCH_BYTES || new.len() > MAX_PATCH_BYTES {
        return None;
    }
    if Dialect::detect(old) != dialect {
        return None;
    }
    let new_tree = parse_in(dialect, new).ok()?;
    if new_tree.iter().any(|(d, _)| d > MAX_PATCH_DEPTH) {
        return None;
    }
    let old_tree = parse_in(dialect, old).ok()?;
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
        let shown_before =
            |at: &FxHashMap<String, _>, r: &str| in_old.contains(r) || at.contains_key(r);
        // Each entry a new element is in, once, as one view (its elements
        // siblings, so a run of them is restored as one): oldest first,
        // as the seen snapshots are.
        let mut entries: Vec<usize> = new_tree
            .iter()
            .filter_map(|(_, e)| e.aria_ref.as_deref())
            .filter(|r| !shown_before(&seen.at, r))
            .filter_map(|r| archive.entry_of(r))
            .collect();
        entries.sort_unstable();
        entries.dedup();
        let first = seen.views.len();
        for k in entries {
            let Some(view) = archive.entry(k) else {
                continue;
            };
            let v = seen.views.len();
            let mut found = Vec::new();
            walk_paths(&view, |e, path| {
                if let Some(r) = e.aria_ref.as_deref()
                    && archive.entry_of(r) == Some(k)
                {
                    found.push((r.to_owned(), (v, path.to_vec())));
                }
                true
            });
            found.retain(|(r, _)| !shown_before(&seen.at, r));
            seen.at.extend(found);
            seen.views.push(view);
        }
        seen.archived = seen.views.len() - first;
    }
    // One write of this pair: by ref or with addresses, parents re-sent.
    let write_with = |old_named: &Tree, new_named: &Tree, resend: Resend<'_>| {
        write(
            old_named,
            new_named,
            new,
            &seen,
            true,
            old_tree.clone(),
            resend,
        )
    };
    // A large snapshot: the patch naming elements without a ref by their
    // addresses alone, when it can be written (it is the shorter one but
    // for many changes under one element). Writing both would double the
    // time: 16 ms instead of 10 for a 110 KB list (release build).
    let small = old.len() + new.len() <= WRITE_BOTH_BELOW;
    if !small
        && let Some((old_named, new_named)) = addressed(&old_tree, &new_tree)
        && let Some(w) = write_with(&old_named, &new_named, Resend::Nothing)
    {
        return Some(w.patch);
    }
    // Busy parents are weighed only where a second try may follow.
    let weigh = if small {
        Resend::Weigh
    } else {
        Resend::Nothing
    };
    let first = write_with(&old_tree, &new_tree, weigh);
    let lifted = first.as_ref().is_none_or(|w| w.lifted);
    let busy = first.as_ref().map(|w| w.busy.clone()).unwrap_or_default();
    let mut best = first.map(|w| w.patch);
    // Where a change without a ref was said by re-sending an ancestor (or
    // could not be said at all), naming the elements without a ref by
    // their addresses may say it in fewer bytes: the shorter one goes.
    if lifted
        && small
        && let Some((old_named, new_named)) = addressed(&old_tree, &new_tree)
        && let Some(w) = write_with(&old_named, &new_named, Resend::Nothing)
        && best
            .as_ref()
            .is_none_or(|b| w.patch.text.len() < b.text.len())
    {
        best = Some(w.patch);
    }
    // Where many children came, went or moved under one parent (a sorted
    // grid whose cells are one flat list), re-sending the parent with its
    // children by reference may read shorter than an order line, the
    // removals and an anchor for each run. Each busy parent is tried alone
    // (the busiest few), then those that helped together; the shortest
    // goes, weighed in tokens, and only when it saves an eighth and more
    // than a few: what went is then said by leaving it out, which reads
    // less plainly than a removal line.
    if !busy.is_empty()
        && let Some(b) = best.as_ref()
    {
        let was = words(&b.text);
        let resent = |resend: &[&str]| {
            write_with(&old_tree, &new_tree, Resend::These(resend))
                .map(|w| (words(&w.patch.text), w.patch))
        };
        let mut helped: Vec<&str> = Vec::new();
        let mut shortest: Option<(usize, SnapshotPatch)> = None;
        let mut keep = |tried: Option<(usize, SnapshotPatch)>| {
            if let Some((n, p)) = tried
                && shortest.as_ref().is_none_or(|(m, _)| n < *m)
            {
                shortest = Some((n, p));
            }
        };
        for r in busy.iter().take(RESEND_TRIES) {
            if let Some((n, p)) = resent(&[r.as_str()])
                && n < was
            {
                helped.push(r);
                keep(Some((n, p)));
            }
        }
        if helped.len() > 1 {
            keep(resent(&helped));
        }
        if let Some((now, p)) = shortest
            && now * 8 < was * 7
            && now + RESEND_SAVES < was
        {
            best = Some(p);
        }
    }
    if best.is_some() {
        return best;
    }
    // The focus line and restoring are checked like the rest; should either
    // not rebuild the text exactly, say everything explicitly instead.
    let again = old_tree.clone();
    write(
        &old_tree,
        &new_tree,
        new,
        &Seen::default(),
        false,
        again,
        Resend::Nothing,
    )
    .map(|w| w.patch)
}

/// The fewest estimated tokens re-sending a busy parent must save.
const RESEND_SAVES: usize = 8;

/// The most busy parents tried one by one (each try writes and checks a
/// whole patch).
const RESEND_TRIES: usize = 4;

/// Below this many bytes (old and new snapshot together), both patches
/// are written, by ref only and with addresses, and the shorter goes.
const WRITE_BOTH_BELOW: usize = 64 * 1024;
