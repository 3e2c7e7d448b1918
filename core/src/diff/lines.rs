//! Line diff engine: trim the common prefix and suffix as bytes, then diff
//! only the middle lines (interned to integers) with imara-diff's Myers.
//!
//! The search is bounded by work, not time: imara-diff's Myers is GNU
//! diff's / git's xdiff with its cost limit (a middle-snake search gives up
//! minimality after max(√lines, 256) steps), so the result is a pure
//! function of the two texts and the options, on every machine and at any
//! load. A wall-clock deadline exists only as an explicit caller option
//! ([`EngineOptions::deadline`], off by default); it runs `similar`'s Myers,
//! which can stop at the deadline, and makes the result timing-dependent.

use crate::prelude::*;
use alloc::borrow::Cow;
use core::time::Duration;
#[cfg(feature = "std")]
use imara_diff::Token;
#[cfg(feature = "std")]
use std::time::Instant;

/// A line's dense id, as imara-diff's `Token` is with `std`.
#[cfg(not(feature = "std"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Token(u32);

/// Without `std` there is no clock: no deadline can be set or reached
/// (docs/LIMITS.md).
#[cfg(not(feature = "std"))]
#[derive(Debug, Clone, Copy)]
enum Instant {}

/// Whether `deadline` has passed.
#[cfg(feature = "std")]
fn passed(deadline: Instant) -> bool {
    Instant::now() > deadline
}

#[cfg(not(feature = "std"))]
fn passed(deadline: Instant) -> bool {
    match deadline {}
}

/// One line of a text, without its terminator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line's text without the trailing `\n` (a `\r` before it is kept).
    pub text: &'a str,
    /// Whether the line ended with `\n` (only the last line of a text can
    /// lack it).
    pub newline: bool,
}

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

/// The lines of one side of a diff. Only the lines a formatter can need are
/// materialized: the tail of the common prefix, the middle, and the head of
/// the common suffix; the rest are counted.
///
/// Those lines are one contiguous run of the text, so each is kept as the
/// byte offset where it starts (8 bytes a line, not a 24-byte `Line`): a
/// 2.6 MB page then needs about 1 MB less fresh memory per side and call.
#[derive(Debug, Clone)]
pub(crate) struct Side<'a> {
    text: &'a str,
    skip: usize,
    /// Start of each materialized line, then the end of the last one.
    starts: Vec<usize>,
    total: usize,
}

impl<'a> Side<'a> {
    /// Number of lines in this text.
    pub(crate) fn len(&self) -> usize {
        self.total
    }

    /// Line `i` (0-based), if it was materialized.
    ///
    /// Lines within `context` of a change are always available.
    pub(crate) fn get(&self, i: usize) -> Option<Line<'a>> {
        let j = i.checked_sub(self.skip)?;
        let (&start, &end) = (self.starts.get(j)?, self.starts.get(j + 1)?);
        Some(line_at(self.text, start, end))
    }

    /// The length of line `i` without its newline, as [`Side::get`]'s
    /// `text.len()`, without reading the line (a `&str` slice reads the
    /// bytes at its ends): the CLI drops pages the diff reads no more, and
    /// weighing the changed lines must not read them back.
    pub(crate) fn line_len(&self, i: usize) -> Option<usize> {
        let j = i.checked_sub(self.skip)?;
        let (&start, &end) = (self.starts.get(j)?, self.starts.get(j + 1)?);
        Some(end - start - usize::from(ends_with_newline(self.text, start, end)))
    }
}

/// Whether the line spanning `text[start..end]` ends with `\n`: one that
/// ends before the text does (the next line starts after one), so only
/// the text's last line is read.
#[inline]
fn ends_with_newline(text: &str, start: usize, end: usize) -> bool {
    end > start && (end < text.len() || text.as_bytes()[end - 1] == b'\n')
}

/// The line spanning `text[start..end]`, its `\n` (if any) included.
#[inline]
fn line_at(text: &str, start: usize, end: usize) -> Line<'_> {
    let newline = ends_with_newline(text, start, end);
    Line {
        text: &text[start..end - usize::from(newline)],
        newline,
    }
}

/// Pushes the start of every line of `text[from..to]` (which starts at a
/// line start) onto `starts`, at most `max` of them, and returns the offset
/// where the last one pushed ends.
fn push_starts(text: &str, from: usize, to: usize, max: usize, starts: &mut Vec<usize>) -> usize {
    let mut at = from;
    for line in split_lines(&text[from..to]).take(max) {
        starts.push(at);
        at += line.text.len() + usize::from(line.newline);
    }
    at
}

/// The result of diffing two texts line by line.
///
/// ```
/// use response_diff::__internals::LineDiff;
/// let d = LineDiff::compute("a\nb\nc\n", "a\nB\nc\n", false, None);
/// assert_eq!((d.added(), d.removed(), d.unchanged()), (1, 1, 2));
/// assert!(d.exact() && !d.budget_exhausted());
/// ```
#[derive(Debug, Clone)]
pub struct LineDiff<'a> {
    old: Side<'a>,
    new: Side<'a>,
    ops: Vec<Op>,
    budget_exhausted: bool,
    /// (removed, added) lower bounds when the search was skipped.
    lower_bounds: Option<(usize, usize)>,
}

/// Splits `text` into lines. A trailing `\n` does not start a new line.
///
/// Each newline is found eight bytes at a time (`crate::newlines`), which
/// suits snapshot lines: short, so a search with more setup per call
/// would not pay off.
pub fn split_lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    let mut newlines = crate::newlines::iter(text.as_bytes());
    core::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let line = match newlines.next() {
            Some(i) => Line {
                text: &text[start..i],
                newline: true,
            },
            None => Line {
                text: &text[start..],
                newline: false,
            },
        };
        start += line.text.len() + 1;
        Some(line)
    })
}

/// Number of lines in `text` (a trailing `\n` does not start a new line).
pub fn count_lines(text: &str) -> usize {
    let newlines = count_newlines(text.as_bytes());
    newlines + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

fn count_newlines(bytes: &[u8]) -> usize {
    crate::newlines::count(bytes)
}

/// Whitespace normalization used by `ignoreWhitespace`: leading indentation
/// is kept (it is nesting in a snapshot), trailing whitespace is dropped and
/// inner runs of whitespace count as one space.
pub fn normalize_whitespace(line: &str) -> Cow<'_, str> {
    if line.is_ascii() {
        return normalize_ascii(line);
    }
    let body_start = line.len() - line.trim_start().len();
    let (indent, body) = line.split_at(body_start);
    let body = body.trim_end();
    // One pass: only a space after a non-space is already normal.
    let mut prev_ws = false;
    let mut needs_collapse = false;
    for &b in body.as_bytes() {
        if b >= 0x80 {
            needs_collapse = body.chars().any(|c| c.is_whitespace() && c != ' ');
            needs_collapse |= body.as_bytes().windows(2).any(|w| w == b"  ");
            break;
        }
        let ws = b.is_ascii_whitespace() || b == 0x0b;
        if ws && (prev_ws || b != b' ') {
            needs_collapse = true;
            break;
        }
        prev_ws = ws;
    }
    if !needs_collapse {
        return Cow::Borrowed(&line[..body_start + body.len()]);
    }
    let mut out = String::with_capacity(line.len());
    out.push_str(indent);
    let mut words = body.split_whitespace();
    if let Some(first) = words.next() {
        out.push_str(first);
        for w in words {
            out.push(' ');
            out.push_str(w);
        }
    }
    Cow::Owned(out)
}

/// What `char::is_whitespace` accepts among ASCII bytes.
fn is_ascii_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// [`normalize_whitespace`] for ASCII lines, byte by byte.
fn normalize_ascii(line: &str) -> Cow<'_, str> {
    let bytes = line.as_bytes();
    let start = bytes
        .iter()
        .position(|&b| !is_ascii_ws(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_ascii_ws(b))
        .map_or(start, |i| i + 1);
    let mut prev_ws = false;
    let collapse = bytes[start..end].iter().any(|&b| {
        let ws = is_ascii_ws(b);
        let bad = ws && (prev_ws || b != b' ');
        prev_ws = ws;
        bad
    });
    if !collapse {
        return Cow::Borrowed(&line[..end]);
    }
    let mut out = String::with_capacity(end);
    out.push_str(&line[..start]);
    for (i, word) in line[start..end]
        .split(|c: char| c.is_ascii() && is_ascii_ws(c as u8))
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    Cow::Owned(out)
}

/// Length of the longest common prefix, comparing 4 KiB blocks with
/// `memcmp` before narrowing down byte by byte.
fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 4096;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Length of the longest common suffix, at most `max` bytes.
fn common_suffix_len(a: &[u8], b: &[u8], max: usize) -> usize {
    const BLOCK: usize = 4096;
    let (la, lb) = (a.len(), b.len());
    let mut i = 0;
    while i + BLOCK <= max && a[la - i - BLOCK..la - i] == b[lb - i - BLOCK..lb - i] {
        i += BLOCK;
    }
    i + a[..la - i]
        .iter()
        .rev()
        .zip(b[..lb - i].iter().rev())
        .take(max - i)
        .take_while(|(x, y)| x == y)
        .count()
}

/// Byte length of the common prefix of `a` and `b` that ends at a line
/// boundary in both.
fn common_line_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = common_prefix_len(a, b);
    if n == a.len() && n == b.len() {
        return n;
    }
    // Back off to just after the last newline inside the common part.
    match a[..n].iter().rposition(|&c| c == b'\n') {
        Some(i) => i + 1,
        None => 0,
    }
}

/// Byte length of the common suffix of `a` and `b` that starts at a line
/// start in both, not overlapping `prefix`.
fn common_line_suffix(a: &[u8], b: &[u8], prefix: usize) -> usize {
    let max = a.len().min(b.len()) - prefix;
    let n = common_suffix_len(a, b, max);
    if n == 0 {
        return 0;
    }
    let at_line_start = |s: &[u8], len: usize| {
        let start = s.len() - len;
        start == prefix || s[start - 1] == b'\n'
    };
    if at_line_start(a, n) && at_line_start(b, n) {
        return n;
    }
    // Move forward to the first line start inside the common suffix.
    let suffix = &a[a.len() - n..];
    match suffix.iter().position(|&c| c == b'\n') {
        Some(i) => n - (i + 1),
        None => 0,
    }
}

/// How [`LineDiff::compute_with`] works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOptions {
    /// Lines that differ only in trailing whitespace or runs of inner
    /// whitespace are equal (indentation still counts).
    pub ignore_whitespace: bool,
    /// Wall-clock limit of the search, off by default. Setting it makes
    /// the result depend on timing (machine speed and load): past it the
    /// diff is still correct but may be larger. Without it the search is
    /// bounded by work only and the result is deterministic. Without the
    /// `std` feature there is no clock and it is not applied.
    pub deadline: Option<Duration>,
    /// Unchanged lines of the common prefix and suffix to keep available
    /// for context (`usize::MAX`: all).
    pub context: usize,
    /// When even the smallest possible diff would change more lines than
    /// this, skip the search: the result is then a coarse diff (all middle
    /// lines replaced) with [`LineDiff::exact`] false and lower bounds for
    /// the counts.
    pub max_changes: Option<usize>,
    /// Keep the line interner's tables for the thread's next diff (the
    /// default): a caller that diffs again reuses warm memory instead of
    /// faulting in fresh pages. A one-shot caller (the CLI) turns it off,
    /// so the tables (4.6 MB for two 7 MB pages) are freed before the
    /// search instead of adding to its peak memory.
    pub keep_scratch: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            ignore_whitespace: false,
            deadline: None,
            context: usize::MAX,
            max_changes: None,
            keep_scratch: true,
        }
    }
}

impl<'a> LineDiff<'a> {
    /// Diffs `old` and `new` line by line.
    ///
    /// With `ignore_whitespace`, lines that differ only in trailing
    /// whitespace or in runs of inner whitespace are equal (indentation
    /// still counts). `deadline` (off when `None`, the deterministic
    /// default) bounds the time spent; past it the diff is still correct
    /// but may not be minimal, and the result depends on timing.
    pub fn compute(
        old: &'a str,
        new: &'a str,
        ignore_whitespace: bool,
        deadline: Option<Duration>,
    ) -> LineDiff<'a> {
        Self::compute_with(
            old,
            new,
            &EngineOptions {
                ignore_whitespace,
                deadline,
                ..EngineOptions::default()
            },
        )
    }

    /// Diffs with every option of [`EngineOptions`].
    pub fn compute_with(old: &'a str, new: &'a str, opts: &EngineOptions) -> LineDiff<'a> {
        Self::compute_window(old, new, opts, 0, 0, None)
    }

    /// Diffs two windows of longer texts that share `lines_before` lines
    /// before them and `lines_after` after them (`super::window`): the
    /// ops and line numbers are those of the whole texts.
    ///
    /// `read_no_more`, if any, gets byte ranges of `old` the diff reads no
    /// more but for a few lines: all of it once every line is hashed, then
    /// again piece by piece behind the check of the lines it keeps as equal
    /// (the CLI drops those pages of its mapped file).
    pub(crate) fn compute_window(
        old: &'a str,
        new: &'a str,
        opts: &EngineOptions,
        lines_before: usize,
        lines_after: usize,
        mut read_no_more: Option<&mut dyn FnMut(core::ops::Range<usize>)>,
    ) -> LineDiff<'a> {
        #[cfg(feature = "std")]
        let deadline_at = opts.deadline.map(|d| Instant::now() + d);
        #[cfg(not(feature = "std"))]
        let deadline_at: Option<Instant> = None;
        let context = opts.context;
        let prefix = common_line_prefix(old.as_bytes(), new.as_bytes());
        let suffix = common_line_suffix(old.as_bytes(), new.as_bytes(), prefix);
        // Equal texts are all prefix, and their last line may have no
        // newline: count it as a line too.
        let prefix_lines = lines_before + count_lines(&old[..prefix]);

        let old_mid = &old[prefix..old.len() - suffix];
        let new_mid = &new[prefix..new.len() - suffix];
        let old_suffix = &old[old.len() - suffix..];
        let suffix_lines = count_lines(old_suffix) + lines_after;

        // The prefix tail both sides share (the same bytes at the same
        // offsets in both texts).
        let tail_start = tail_of(&old[..prefix], context);
        let mut tail: Vec<usize> = Vec::new();
        push_starts(old, tail_start, prefix, usize::MAX, &mut tail);
        let skip = prefix_lines - tail.len();

        // One pass per side splits, hashes and interns each line, into
        // vectors sized from a newline count (no second pass over the
        // lines, no regrowing copies of megabyte vectors).
        let ws = opts.ignore_whitespace;
        let (old_n, new_n) = (count_lines(old_mid), count_lines(new_mid));
        let mut ids = Interner::with_capacity(old_n + new_n);
        let t = tail.len();
        let mut intern_side = |text: &'a str, n: usize| {
            let mut starts: Vec<usize> = Vec::with_capacity(t + n + context.min(suffix_lines) + 1);
            starts.extend_from_slice(&tail);
            let mut tokens: Vec<Token> = Vec::with_capacity(n);
            let mut at = prefix;
            // Hash a batch of lines, prefetching each one's slot, then
            // intern the batch: the slot loads (cache misses on a large
            // table) overlap with hashing instead of stalling one by one.
            let mut batch = [0u64; INTERN_BATCH];
            let mut k = 0;
            for line in split_lines(&text[prefix..text.len() - suffix]) {
                let h = line_hash(&line, ws);
                ids.prefetch(h);
                batch[k] = h;
                k += 1;
                if k == INTERN_BATCH {
                    tokens.extend(batch.iter().map(|&h| Token(ids.id(h))));
                    k = 0;
                }
                starts.push(at);
                at += line.text.len() + usize::from(line.newline);
            }
            tokens.extend(batch[..k].iter().map(|&h| Token(ids.id(h))));
            (starts, tokens)
        };
        let (mut old_starts, old_ids) = intern_side(old, old_n);
        let (mut new_starts, new_ids) = intern_side(new, new_n);
        let n_ids = ids.hashes.len() as u32;
        if opts.keep_scratch {
            ids.recycle();
        } else {
            drop(ids);
        }
        if let Some(f) = read_no_more.as_mut() {
            f(0..old.len());
        }
        let (o0, n0) = (prefix_lines, prefix_lines);
        let (old_total, new_total) = (
            prefix_lines + old_ids.len() + suffix_lines,
            prefix_lines + new_ids.len() + suffix_lines,
        );

        let mut ops = Vec::new();
        ops.push(Op {
            kind: OpKind::Equal,
            old: 0..prefix_lines,
            new: 0..prefix_lines,
        });
        let mut budget_exhausted = false;
        let mut lower_bounds = None;
        if !old_ids.is_empty() || !new_ids.is_empty() {
            let mid_line = |text: &'a str, starts: &[usize], i: usize| {
                let end = starts
                    .get(t + i + 1)
                    .copied()
                    .unwrap_or(text.len() - suffix);
                line_at(text, starts[t + i], end)
            };
            let same = |i: usize, j: usize| {
                lines_equal(
                    &mid_line(old, &old_starts, i),
                    &mid_line(new, &new_starts, j),
                    ws,
                )
            };
            let bounds = opts
                .max_changes
                .map(|max| (max, exact_change_lower_bounds(&old_ids, &new_ids, n_ids)))
                .filter(|&(max, (del, ins))| del + ins > max);
            // Ids are equal exactly when hashes are.
            if old_ids == new_ids && (0..old_ids.len()).all(|i| same(i, i)) {
                // Equal after whitespace normalization.
                ops.push(Op {
                    kind: OpKind::Equal,
                    old: o0..o0 + old_ids.len(),
                    new: n0..n0 + new_ids.len(),
                });
            } else if let Some((_, b)) = bounds {
                // No diff can fit: skip the search, keep a coarse but
                // correct diff.
                lower_bounds = Some(b);
                ops.push(Op {
                    kind: OpKind::Delete,
                    old: o0..o0 + old_ids.len(),
                    new: n0..n0,
                });
                ops.push(Op {
                    kind: OpKind::Insert,
                    old: o0 + old_ids.len()..o0 + old_ids.len(),
                    new: n0..n0 + new_ids.len(),
                });
            } else {
                // Diff ids given by the line hashes; a 64-bit collision could
                // pair two different lines, so check every pair the diff
                // keeps and fall back to exact interning if one differs.
                let mut raw = search(&old_ids, &new_ids, n_ids, deadline_at);
                let mut collision = false;
                // Old bytes handed back behind the check so far.
                let mut behind = 0;
                for op in &raw {
                    if op.kind == OpKind::Equal
                        && op.old.clone().zip(op.new.clone()).any(|(i, j)| !same(i, j))
                    {
                        collision = true;
                        break;
                    }
                    if let Some(f) = read_no_more.as_mut() {
                        let upto = old_starts.get(t + op.old.end).copied().unwrap_or(behind);
                        if upto >= behind + RELEASE_STEP {
                            f(behind..upto);
                            behind = upto;
                        }
                    }
                }
                if collision {
                    let old_lines: Vec<Line<'a>> = (0..old_ids.len())
                        .map(|i| mid_line(old, &old_starts, i))
                        .collect();
                    let new_lines: Vec<Line<'a>> = (0..new_ids.len())
                        .map(|j| mid_line(new, &new_starts, j))
                        .collect();
                    let (old_ids, new_ids) = intern(&old_lines, &new_lines, ws);
                    let n = old_ids
                        .iter()
                        .chain(&new_ids)
                        .map(|t| t.0)
                        .max()
                        .map_or(0, |m| m + 1);
                    raw = search(&old_ids, &new_ids, n, deadline_at);
                }
                let changes: usize = raw
                    .iter()
                    .filter(|op| op.kind != OpKind::Equal)
                    .map(|op| op.old.len() + op.new.len())
                    .sum();
                // The work bound can only have cut the search short when the
                // diff is at least BUDGET_MIN_CHANGES lines, the deadline only
                // when it passed; either way not when no diff can be smaller.
                let bounded = changes >= BUDGET_MIN_CHANGES || deadline_at.is_some_and(passed);
                if bounded {
                    let (del, ins) = exact_change_lower_bounds(&old_ids, &new_ids, n_ids);
                    budget_exhausted = changes > del + ins;
                }
                // Shift the search's ops in place and put the prefix before
                // them: no second vector of a large diff's ops.
                for op in &mut raw {
                    op.old = o0 + op.old.start..o0 + op.old.end;
                    op.new = n0 + op.new.start..n0 + op.new.end;
                }
                raw.insert(0, ops.remove(0));
                ops = raw;
            }
        }
        ops.push(Op {
            kind: OpKind::Equal,
            old: old_total - suffix_lines..old_total,
            new: new_total - suffix_lines..new_total,
        });
        let old_end = push_starts(old, old.len() - suffix, old.len(), context, &mut old_starts);
        let new_end = push_starts(new, new.len() - suffix, new.len(), context, &mut new_starts);
        old_starts.push(old_end);
        new_starts.push(new_end);
        LineDiff {
            old: Side {
                text: old,
                skip,
                starts: old_starts,
                total: old_total,
            },
            new: Side {
                text: new,
                skip,
                starts: new_starts,
                total: new_total,
            },
            ops: merge_equal_runs(ops),
            budget_exhausted,
            lower_bounds,
        }
    }

    /// False when the search was skipped because no diff could stay within
    /// [`EngineOptions::max_changes`]; the ops then replace every changed
    /// region wholesale and [`LineDiff::added`] / [`LineDiff::removed`]
    /// return lower bounds of the true counts.
    pub fn exact(&self) -> bool {
        self.lower_bounds.is_none()
    }

    /// The ops, in order, covering both texts completely.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// The old text's lines.
    pub(crate) fn old(&self) -> &Side<'a> {
        &self.old
    }

    /// The new text's lines.
    pub(crate) fn new_side(&self) -> &Side<'a> {
        &self.new
    }

    /// Lines only in the new text.
    pub fn added(&self) -> usize {
        match self.lower_bounds {
            Some((_, ins)) => ins,
            None => self.count(OpKind::Insert, |op| op.new.len()),
        }
    }

    /// Lines only in the old text.
    pub fn removed(&self) -> usize {
        match self.lower_bounds {
            Some((del, _)) => del,
            None => self.count(OpKind::Delete, |op| op.old.len()),
        }
    }

    /// Lines present in both texts.
    pub fn unchanged(&self) -> usize {
        match self.lower_bounds {
            // An upper bound, consistent with the lower bounds above.
            Some((_, ins)) => self.new.len() - ins,
            None => self.count(OpKind::Equal, |op| op.new.len()),
        }
    }

    /// Whether the search's work bound (or the caller's explicit deadline)
    /// may have cut it short: the diff is still correct, but may be larger
    /// than the minimal one. Deterministic without a deadline. False when
    /// the bound cannot have acted (fewer than [`BUDGET_MIN_CHANGES`]
    /// changed lines) or the diff is provably minimal (it changes no more
    /// lines than lines present on one side only).
    pub fn budget_exhausted(&self) -> bool {
        self.budget_exhausted
    }

    /// `unchanged lines / max(old lines, new lines)`; 1.0 for two empty texts.
    pub fn similarity(&self) -> f64 {
        let max = self.old.len().max(self.new.len());
        if max == 0 {
            1.0
        } else {
            self.unchanged() as f64 / max as f64
        }
    }

    fn count(&self, kind: OpKind, len: impl Fn(&Op) -> usize) -> usize {
        self.ops.iter().filter(|op| op.kind == kind).map(len).sum()
    }
}

/// Byte offset where the last `n` lines of `prefix` start (`prefix` is
/// empty or ends with a newline).
fn tail_of(prefix: &str, n: usize) -> usize {
    if n == 0 || prefix.is_empty() {
        return prefix.len();
    }
    let bytes = prefix.as_bytes();
    let mut seen = 0;
    // Skip the prefix's own final newline, then count n line starts back.
    for i in (0..bytes.len() - 1).rev() {
        if bytes[i] == b'\n' {
            seen += 1;
            if seen == n {
                return i + 1;
            }
        }
    }
    0
}

/// Exact interning, the fallback after a hash collision.
fn intern<'a>(
    old: &[Line<'a>],
    new: &[Line<'a>],
    ignore_whitespace: bool,
) -> (Vec<Token>, Vec<Token>) {
    let mut ids: FxHashMap<Cow<'a, str>, u32> = FxHashMap::default();
    let mut id_of = |line: &Line<'a>| -> Token {
        let key = line_key(line, ignore_whitespace);
        let next = ids.len() as u32;
        Token(*ids.entry(key).or_insert(next))
    };
    let a = old.iter().map(&mut id_of).collect();
    let b = new.iter().map(&mut id_of).collect();
    (a, b)
}

/// What two lines are compared by.
fn line_key<'a>(line: &Line<'a>, ignore_whitespace: bool) -> Cow<'a, str> {
    if ignore_whitespace {
        normalize_whitespace(line.text)
    } else if line.newline {
        Cow::Borrowed(line.text)
    } else {
        // A missing final newline is a difference of its own.
        Cow::Owned(format!("{}\u{0}no-newline", line.text))
    }
}

fn lines_equal(a: &Line<'_>, b: &Line<'_>, ignore_whitespace: bool) -> bool {
    if ignore_whitespace {
        a.text == b.text || normalize_whitespace(a.text) == normalize_whitespace(b.text)
    } else {
        a.text == b.text && a.newline == b.newline
    }
}

fn line_hash(line: &Line<'_>, ignore_whitespace: bool) -> u64 {
    use core::hash::{Hash, Hasher};
    let mut h = FxHasher::default();
    if ignore_whitespace {
        // Most lines are already normal: hash them as they are, which is
        // what normalizing would give, without the byte-by-byte pass.
        if is_normal_ascii(line.text.as_bytes()) {
            line.text.hash(&mut h);
        } else {
            normalize_whitespace(line.text).hash(&mut h);
        }
    } else {
        line.text.hash(&mut h);
        line.newline.hash(&mut h);
    }
    h.finish()
}

/// Whether [`normalize_whitespace`] would return `line` unchanged, checked
/// eight bytes at a time: ASCII, no trailing whitespace, and after the
/// indentation only single spaces. False also for some normal lines (any
/// control byte below 0x0e): those take the slow path, which is exact.
fn is_normal_ascii(line: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let start = line
        .iter()
        .position(|&b| !is_ascii_ws(b))
        .unwrap_or(line.len());
    let body = &line[start..];
    if body.last().is_some_and(|&b| is_ascii_ws(b)) {
        return false;
    }
    // The body starts with a non-space, so no space precedes it.
    let mut prev_space = false;
    let mut chunks = body.chunks_exact(8);
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        // Non-ASCII, or some byte below 0x0e (tab, newline, VT, FF, CR and
        // other controls): let the exact path decide.
        if w & HI != 0 || w.wrapping_sub(LO * 0x0e) & !w & HI != 0 {
            return false;
        }
        // High bit of each byte that is a space (exact: no borrows).
        let x = w ^ (LO * b' ' as u64);
        let spaces = !(((x & !HI).wrapping_add(!HI)) | x | !HI);
        if spaces & (spaces << 8) != 0 || (prev_space && spaces & 0x80 != 0) {
            return false;
        }
        prev_space = spaces >> 63 != 0;
    }
    for &b in chunks.remainder() {
        if b >= 0x80 || (is_ascii_ws(b) && (b != b' ' || prev_space)) {
            return false;
        }
        prev_space = b == b' ';
    }
    true
}

/// Fewest changed lines at which the search's work bound can act: the
/// Myers search of imara-diff (like similar's) keeps looking for the
/// minimal split for at least 256 steps from each end, so a region whose
/// minimal diff has fewer than 2 × 256 changed lines is always diffed
/// minimally by the search (the first region it gives up on is part of a
/// minimal split, so its own diff is no larger than the whole one).
pub const BUDGET_MIN_CHANGES: usize = 2 * 256;

#[cfg(feature = "std")]
thread_local! {
    /// The interner's slots and hashes from the thread's previous diff.
    static INTERN_SCRATCH: core::cell::Cell<(Vec<u32>, Vec<u64>)> =
        const { core::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// Bytes of the old text checked between hand-backs (`read_no_more`).
const RELEASE_STEP: usize = 256 * 1024;

/// Lines hashed ahead of their interning (see `intern_side`).
const INTERN_BATCH: usize = 16;

/// Dense ids for 64-bit line hashes, in first-seen order: open addressing
/// over 4-byte slots holding id + 1 (0 is empty), the hashes kept by id.
/// Hand-written because a `HashMap<u64, u32>` takes 16 bytes a slot: for
/// the 130,000 lines of two 2.6 MB pages its table (4 MiB) falls out of
/// the cache, and the lookups dominated the whole detector call; std's map
/// has no raw-table API to store only the id.
struct Interner {
    slots: Vec<u32>,
    hashes: Vec<u64>,
    shift: u32,
}

impl Interner {
    fn with_capacity(n: usize) -> Self {
        // At most two thirds full, so probe runs stay short (a table at
        // most half full took 4 MiB for two 7 MB pages, a fifth of the
        // CLI's peak memory).
        let cap = (n + n / 2).next_power_of_two().max(16);
        // Reuse the thread's last table: a fresh multi-MB one comes back
        // from the allocator as new pages, and faulting them in costs more
        // than clearing warm memory.
        #[cfg(feature = "std")]
        let (mut slots, mut hashes) = INTERN_SCRATCH.try_with(|c| c.take()).unwrap_or_default();
        #[cfg(not(feature = "std"))]
        let (mut slots, mut hashes) = (Vec::new(), Vec::new());
        slots.clear();
        slots.resize(cap, 0);
        hashes.clear();
        hashes.reserve(n);
        Interner {
            slots,
            hashes,
            shift: 64 - cap.trailing_zeros(),
        }
    }

    /// Hands the buffers back for the thread's next diff; tables of small
    /// texts are not worth keeping and huge ones not worth holding on to.
    #[cfg(feature = "std")]
    fn recycle(self) {
        let bytes = self.slots.capacity() * 4 + self.hashes.capacity() * 8;
        if (1 << 16..=1 << 24).contains(&bytes) {
            let _ = INTERN_SCRATCH.try_with(|c| c.set((self.slots, self.hashes)));
        }
    }

    /// Without `std` there are no thread locals to keep them in.
    #[cfg(not(feature = "std"))]
    fn recycle(self) {}

    #[inline]
    fn slot(&self, h: u64) -> usize {
        // Multiply-shift: the top bits mix every bit of the hash.
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Asks the CPU to start loading `h`'s slot; a hint only.
    #[inline]
    fn prefetch(&self, h: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots[self.slot(h)..].as_ptr();
            // SAFETY: a prefetch never faults and reads nothing the program
            // sees; `p` points into `slots`.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast())
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = h;
    }

    fn id(&mut self, h: u64) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(h);
        loop {
            let s = self.slots[i];
            if s == 0 {
                let id = self.hashes.len() as u32;
                self.hashes.push(h);
                self.slots[i] = id + 1;
                return id;
            }
            if self.hashes[(s - 1) as usize] == h {
                return s - 1;
            }
            i = (i + 1) & mask;
        }
    }
}

/// The ops (0-based within the middle) of a diff of two id sequences:
/// imara-diff's Myers, bounded by work; `similar`'s Myers instead when the
/// caller set a deadline, as only it can stop at one.
#[cfg(feature = "std")]
fn search(old: &[Token], new: &[Token], n: u32, deadline: Option<Instant>) -> Vec<Op> {
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
fn search(old: &[Token], new: &[Token], _n: u32, deadline: Option<Instant>) -> Vec<Op> {
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
fn exact_change_lower_bounds(old: &[Token], new: &[Token], n: u32) -> (usize, usize) {
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
fn merge_equal_runs(mut ops: Vec<Op>) -> Vec<Op> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_form_check_agrees_with_normalize() {
        let cases = [
            "",
            "a",
            "    - button \"Save\" [ref=e12]",
            "  - a  b",
            "  - abcdefg  hijk",
            "  - abcdefg hijk ",
            "  - abcdefgh\tijk",
            "\t- abcdefghijklmnop qrstu",
            "- abcdefg\u{a0}hij",
            "- abcdefg \u{2003}hij",
            "- abcdefg\x01hijklmnop",
            "- abcdef\r",
            "- abcdefg        h",
            "- abcdefg h i j k l m n o p",
        ];
        for c in cases {
            let normal = normalize_whitespace(c) == c;
            // Never claims normal for a line that is not; exact for these.
            assert_eq!(
                is_normal_ascii(c.as_bytes()),
                normal && c.is_ascii() && !c.contains('\x01'),
                "{c:?}"
            );
        }
        // Every split of a double space across the 8-byte chunks.
        for pad in 1..20 {
            let line = format!("- {}  x", "a".repeat(pad));
            assert!(!is_normal_ascii(line.as_bytes()), "{line:?}");
            let line = format!("- {} x", "a".repeat(pad));
            assert!(is_normal_ascii(line.as_bytes()), "{line:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn normal_form_check_is_sound(line in "[ a\t\r\x0b\x0c\u{a0}\u{3000}b-]{0,40}") {
            if is_normal_ascii(line.as_bytes()) {
                proptest::prop_assert_eq!(normalize_whitespace(&line), line.as_str());
            }
            let hashed = line_hash(&Line { text: &line, newline: true }, true);
            let reference = {
                use core::hash::BuildHasher;
                foldhash::fast::FixedState::default().hash_one(normalize_whitespace(&line))
            };
            proptest::prop_assert_eq!(hashed, reference);
        }
    }

    fn kinds(d: &LineDiff<'_>) -> Vec<(OpKind, usize, usize)> {
        d.ops()
            .iter()
            .map(|o| (o.kind, o.old.len(), o.new.len()))
            .collect()
    }

    #[test]
    fn trims_prefix_and_suffix_at_line_boundaries() {
        let d = LineDiff::compute("a\nbx\nc\n", "a\nby\nc\n", false, None);
        assert_eq!(
            kinds(&d),
            vec![
                (OpKind::Equal, 1, 1),
                (OpKind::Delete, 1, 0),
                (OpKind::Insert, 0, 1),
                (OpKind::Equal, 1, 1)
            ]
        );
        assert_eq!(d.new_side().get(1).unwrap().text, "by");
    }

    #[test]
    fn suffix_that_starts_mid_line_backs_off() {
        // "xc\n" is a common byte suffix but "c" starts mid-line.
        let d = LineDiff::compute("a\nxc\n", "a\nyxc\n", false, None);
        assert_eq!(d.added(), 1);
        assert_eq!(d.removed(), 1);
        assert_eq!(d.unchanged(), 1);
    }

    #[test]
    fn equal_texts_without_a_final_newline_count_every_line() {
        // Found by CI's proptest: equal texts are all prefix, and the
        // context tail counted a last line the prefix count did not.
        for text in ["  - listitem: Tea ", "a\nb", "a\nb\n", ""] {
            for context in [0, 1, 3] {
                let opts = EngineOptions {
                    context,
                    ..EngineOptions::default()
                };
                let d = LineDiff::compute_with(text, text, &opts);
                assert_eq!((d.added(), d.removed()), (0, 0), "{text:?}");
                assert_eq!(d.unchanged(), count_lines(text), "{text:?}");
            }
        }
    }

    #[test]
    fn missing_final_newline_is_a_change() {
        let d = LineDiff::compute("a\nb\n", "a\nb", false, None);
        assert_eq!((d.added(), d.removed()), (1, 1));
        let d = LineDiff::compute("a\nb\n", "a\nb", true, None);
        assert_eq!((d.added(), d.removed()), (0, 0));
    }

    #[test]
    fn whitespace_normalization_keeps_indentation() {
        assert_eq!(normalize_whitespace("  - a   b  "), "  - a b");
        assert_eq!(normalize_whitespace("\t- a\tb"), "\t- a b");
        assert_ne!(
            normalize_whitespace("  - a"),
            normalize_whitespace("    - a")
        );
        assert!(matches!(normalize_whitespace("  - a b"), Cow::Borrowed(_)));
    }

    #[test]
    fn ascii_fast_path_agrees_with_the_unicode_path() {
        fn unicode(line: &str) -> String {
            let body_start = line.len() - line.trim_start().len();
            let body = line[body_start..].trim_end();
            let words: Vec<&str> = body.split_whitespace().collect();
            format!("{}{}", &line[..body_start], words.join(" "))
        }
        let samples = [
            "",
            " ",
            "\t\t",
            "a",
            "  - a  b ",
            "x\x0by",
            "\x0c- a\tb\r",
            "  -  a",
            "- a ",
            "a  ",
            "\x0b lead",
            "mid\x0c\x0cdle",
            "  - paragraph [ref=e1]: $1.00",
        ];
        for s in samples {
            assert_eq!(normalize_ascii(s), unicode(s), "{s:?}");
        }
        // Every 3-byte string over a whitespace-heavy alphabet.
        let alphabet = [b' ', b'\t', b'\x0b', b'a', b'-'];
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    let s = String::from_utf8(vec![a, b, c]).unwrap();
                    assert_eq!(normalize_ascii(&s), unicode(&s), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn counts_lines() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\n\n"), 2);
        assert_eq!(count_lines("a\nb"), 2);
    }

    #[test]
    fn identical_texts_are_one_equal_op() {
        let d = LineDiff::compute("a\nb\n", "a\nb\n", false, None);
        assert_eq!(kinds(&d), vec![(OpKind::Equal, 2, 2)]);
        assert_eq!(d.similarity(), 1.0);
    }

    #[test]
    fn empty_texts() {
        let d = LineDiff::compute("", "", false, None);
        assert!(d.ops().is_empty());
        let d = LineDiff::compute("", "a\n", false, None);
        assert_eq!(kinds(&d), vec![(OpKind::Insert, 0, 1)]);
    }
}
