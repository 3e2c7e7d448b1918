//! The search: the ops of a diff of two id sequences (imara-diff's Myers,
//! bounded by work, or `similar`'s with a deadline), lower bounds of its
//! counts, and merging its ops.

use crate::prelude::*;
#[cfg(feature = "std")]
pub(super) use std::time::Instant;

use super::intern::Token;

/// What an [`Op`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// Lines present in both texts.
    Equal,
    /// Lines only in the old text.
    Delete,
    /// Lines only in the new text.
    Insert,
}

/// A run of lines: `old` and `new` are 0-based line ranges; the range on the
/// side an op does not touch is empty (it marks the position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    /// What the op does.
    pub kind: OpKind,
    /// Lines of the old text.
    pub old: core::ops::Range<usize>,
    /// Lines of the new text.
    pub new: core::ops::Range<usize>,
}

/// Fewest changed lines at which the search's work bound can act: the
/// Myers search of imara-diff (like similar's) keeps looking for the
/// minimal split for at least 256 steps from each end, so a region whose
/// minimal diff has fewer than 2 × 256 changed lines is always diffed
/// minimally by the search (the first region it gives up on is part of a
/// minimal split, so its own diff is no larger than the whole one).
pub const BUDGET_MIN_CHANGES: usize = 2 * 256;

/// Without `std` there is no clock: no deadline can be set or reached
/// (docs/LIMITS.md).
#[cfg(not(feature = "std"))]
#[derive(Debug, Clone, Copy)]
pub(super) enum Instant {}

/// Whether `deadline` has passed.
#[cfg(feature = "std")]
pub(super) fn passed(deadline: Instant) -> bool {
    Instant::now() > deadline
}

#[cfg(not(feature = "std"))]
pub(super) fn passed(deadline: Instant) -> bool {
    match deadline {}
}

/// The ops (0-based within the middle) of a diff of two id sequences:
/// imara-diff's Myers, bounded by work; `similar`'s Myers instead when the
/// caller set a deadline, as only it can stop at one.
#[cfg(feature = "std")]
pub(super) fn search(old: &[Token], new: &[Token], n: u32, deadline: Option<Instant>) -> Vec<Op> {
    let mut ops = Vec::new();
    if deadline.is_some() {
        for op in
            similar::capture_diff_slices_deadline(similar::Algorithm::Myers, old, new, deadline)
        {
            push_similar_op(&mut ops, op);
        }
        return ops;
    }
    let mut diff = imara_diff::Diff::default();
    diff.compute_with(imara_diff::Algorithm::Myers, old, new, n);
    // Only the ops that cover lines: a rewrite of a large page has tens of
    // thousands of hunks, and three 40-byte ops each was the largest
    // allocation of the CLI's diff of two 7 MB pages.
    let mut push = |op: Op| {
        if !op.old.is_empty() || !op.new.is_empty() {
            ops.push(op);
        }
    };
    let (mut o, mut p) = (0usize, 0usize);
    for h in diff.hunks() {
        let (b, a) = (
            h.before.start as usize..h.before.end as usize,
            h.after.start as usize..h.after.end as usize,
        );
        push(Op {
            kind: OpKind::Equal,
            old: o..b.start,
            new: p..a.start,
        });
        push(Op {
            kind: OpKind::Delete,
            old: b.clone(),
            new: a.start..a.start,
        });
        push(Op {
            kind: OpKind::Insert,
            old: b.end..b.end,
            new: a.clone(),
        });
        (o, p) = (b.end, a.end);
    }
    push(Op {
        kind: OpKind::Equal,
        old: o..old.len(),
        new: p..new.len(),
    });
    ops
}

/// Without `std`: `similar`'s Myers to the end, as imara-diff needs std
/// (docs/DECISIONS.md D36). Its diffs are minimal, so they have the same
/// counts as the std build's wherever that one is (fewer than
/// [`BUDGET_MIN_CHANGES`] changed lines), but ties may align differently,
/// and the search has no work bound (docs/LIMITS.md).
#[cfg(not(feature = "std"))]
pub(super) fn search(old: &[Token], new: &[Token], _n: u32, deadline: Option<Instant>) -> Vec<Op> {
    if let Some(never) = deadline {
        match never {}
    }
    let mut ops = Vec::new();
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, old, new) {
        push_similar_op(&mut ops, op);
    }
    ops
}

/// Lower bounds of (removed, added) lines of any diff: an old line whose
/// content no new line has must be removed, and the other way round.
/// Checked on the dense ids (equal exactly when the line hashes are), so
/// there are no false hits: a diff that is minimal is recognized as such,
/// and when the search is skipped (`max_changes`) the counts, and the
/// similarity from them, do not depend on the hasher (only a 64-bit
/// collision can lower the bounds). A bitmap over the ids instead of hash
/// sets: no hashing, no rehashing.
pub(super) fn exact_change_lower_bounds(old: &[Token], new: &[Token], n: u32) -> (usize, usize) {
    let present = |tokens: &[Token]| {
        let mut bits = vec![0u64; (n as usize).div_ceil(64)];
        for t in tokens {
            bits[t.0 as usize / 64] |= 1 << (t.0 % 64);
        }
        bits
    };
    let absent = |bits: &[u64], tokens: &[Token]| {
        tokens
            .iter()
            .filter(|t| bits[t.0 as usize / 64] & (1 << (t.0 % 64)) == 0)
            .count()
    };
    let (old_set, new_set) = (present(old), present(new));
    (absent(&new_set, old), absent(&old_set, new))
}

fn push_similar_op(ops: &mut Vec<Op>, op: similar::DiffOp) {
    let (o, n) = (op.old_range(), op.new_range());
    match op {
        similar::DiffOp::Equal { .. } => ops.push(Op {
            kind: OpKind::Equal,
            old: o,
            new: n,
        }),
        _ => {
            ops.push(Op {
                kind: OpKind::Delete,
                old: o.clone(),
                new: n.start..n.start,
            });
            ops.push(Op {
                kind: OpKind::Insert,
                old: o.end..o.end,
                new: n,
            });
        }
    }
}

/// Drops empty ops and merges adjacent ones of a kind, in place.
pub(super) fn merge_equal_runs(mut ops: Vec<Op>) -> Vec<Op> {
    let mut kept = 0;
    for i in 0..ops.len() {
        if ops[i].old.is_empty() && ops[i].new.is_empty() {
            continue;
        }
        if kept > 0 {
            let (done, rest) = ops.split_at_mut(i);
            let (last, op) = (&mut done[kept - 1], &rest[0]);
            if last.kind == op.kind && last.old.end == op.old.start && last.new.end == op.new.start
            {
                last.old.end = op.old.end;
                last.new.end = op.new.end;
                continue;
            }
        }
        ops.swap(kept, i);
        kept += 1;
    }
    ops.truncate(kept);
    ops
}
