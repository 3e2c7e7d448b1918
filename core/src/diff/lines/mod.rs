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

mod intern;
mod search;
mod split;
mod trim;
mod whitespace;

pub use search::{BUDGET_MIN_CHANGES, Op, OpKind};
pub use split::{Line, count_lines, split_lines};
pub use whitespace::normalize_whitespace;

use crate::prelude::*;
use core::time::Duration;

use intern::{INTERN_BATCH, Interner, Token, intern, line_hash, lines_equal};
use search::{Instant, exact_change_lower_bounds, merge_equal_runs, passed, search};
use trim::{common_line_prefix, common_line_suffix, tail_of};

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

/// Bytes of the old text checked between hand-backs (`read_no_more`).
const RELEASE_STEP: usize = 256 * 1024;

#[cfg(test)]
mod tests {
    use super::whitespace::{is_normal_ascii, normalize_ascii};
    use super::*;
    use alloc::borrow::Cow;

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
