//! The decision rule (docs/DECISIONS.md D6, D7): unchanged, a diff or the
//! full text, and the text of the answer, for stored texts, borrowed or
//! shared ones, and the CLI's windows of mapped files.

use crate::prelude::*;
use alloc::sync::Arc;
use core::time::Duration;

use super::result::{DiffMetadata, DiffMode, DiffResult};
use crate::diff::format::DiffFormatter;
use crate::diff::hash::{ContentHash, short_hash};
use crate::diff::lines::{EngineOptions, LineDiff, OpKind, count_lines};
use crate::diff::options::DiffSettings;

/// Compares two texts without any storage: the decision rule of
/// docs/DECISIONS.md D6, D7. `previous` is the earlier text.
///
/// ```
/// use response_diff::diff::{compare_texts, DiffMode, DiffSettings};
/// let r = compare_texts(Some("a\nb\n"), "a\nc\n", &DiffSettings::default());
/// assert_eq!(r.mode, DiffMode::Full); // 1 of 2 lines changed: no saving
/// ```
///
/// The texts are borrowed, so their hashes are computed here;
/// [`compare_shared`] defers them until read.
pub fn compare_texts(previous: Option<&str>, current: &str, settings: &DiffSettings) -> DiffResult {
    compare(
        previous.map(|p| (p, ContentHash::from(short_hash(p)))),
        current,
        ContentHash::from(short_hash(current)),
        settings,
        None,
        FullText::Copy,
        Outside::default(),
    )
}

/// [`compare_texts`] on shared texts: the same result, but the metadata's
/// hashes are computed only when read (docs/DECISIONS.md D35), so a caller
/// that never reads them (the CLI) never pays for hashing the whole texts.
///
/// ```
/// use std::sync::Arc;
/// use response_diff::diff::{compare_shared, compare_texts, DiffSettings};
/// let s = DiffSettings::default();
/// let (a, b): (Arc<str>, Arc<str>) = ("a\nb\n".into(), "a\nc\n".into());
/// assert_eq!(compare_shared(Some(a.clone()), b.clone(), &s), compare_texts(Some(&a), &b, &s));
/// ```
pub fn compare_shared(
    previous: Option<Arc<str>>,
    current: Arc<str>,
    settings: &DiffSettings,
) -> DiffResult {
    let lazy = |t: &Arc<str>| ContentHash::lazy(t.clone(), Default::default());
    compare(
        previous.as_ref().map(|p| (&**p, lazy(p))),
        &current,
        lazy(&current),
        settings,
        None,
        FullText::Copy,
        Outside::default(),
    )
}

/// Writes to `out` the `formatted_diff` that [`compare_texts`] gives for
/// `previous` and `current`, byte for byte, and returns its mode; for a
/// host that prints the answer and nothing else (the CLI). It computes no
/// hash (docs/DECISIONS.md D35) and writes a `full` answer's text straight
/// from `current` instead of copying it into a new string.
///
/// ```
/// use response_diff::diff::{compare_texts, write_answer, DiffMode, DiffSettings};
/// let s = DiffSettings::default();
/// let mut out = Vec::new();
/// assert_eq!(write_answer("a\nb\n", "a\nc\n", &s, &mut out).unwrap(), DiffMode::Full);
/// assert_eq!(out, compare_texts(Some("a\nb\n"), "a\nc\n", &s).formatted_diff.as_bytes());
/// ```
#[cfg(feature = "std")]
pub fn write_answer<W: std::io::Write>(
    previous: &str,
    current: &str,
    settings: &DiffSettings,
    out: &mut W,
) -> std::io::Result<DiffMode> {
    write_answer_releasing(
        previous.as_bytes(),
        current.as_bytes(),
        settings,
        out,
        |_, _| {},
    )
}

/// [`write_answer`] on texts not yet checked to be UTF-8, calling
/// `release` with the byte ranges of `previous` and `current` (in that
/// order) it has compared, checked and counted and will not read again,
/// but for at most a few lines: a host that maps its inputs can drop those
/// pages, so that a small change between two large files never holds both
/// in memory, and each page is read once (the CLI). The answer is the
/// same, byte for byte; a text that is not UTF-8 is an
/// [`std::io::ErrorKind::InvalidData`] error, with nothing written.
///
/// ```
/// use response_diff::diff::{write_answer, write_answer_releasing, DiffSettings};
/// let s = DiffSettings::default();
/// let old: String = (0..100_000).map(|i| format!("line {i}\n")).collect();
/// let new = old.replace("line 50000\n", "line 50000 changed\n");
/// let (mut a, mut b, mut released) = (Vec::new(), Vec::new(), 0);
/// write_answer(&old, &new, &s, &mut a).unwrap();
/// write_answer_releasing(old.as_bytes(), new.as_bytes(), &s, &mut b, |o, _| released += o.len()).unwrap();
/// assert_eq!(a, b);
/// assert!(released > old.len() / 2);
/// let err = write_answer_releasing(b"a\n", b"\xff\n", &s, &mut Vec::new(), |_, _| {});
/// assert_eq!(err.unwrap_err().kind(), std::io::ErrorKind::InvalidData);
/// ```
#[cfg(feature = "std")]
pub fn write_answer_releasing<W: std::io::Write>(
    previous: &[u8],
    current: &[u8],
    settings: &DiffSettings,
    out: &mut W,
    mut release: impl FnMut(std::ops::Range<usize>, std::ops::Range<usize>),
) -> std::io::Result<DiffMode> {
    let w = crate::diff::window::find(previous, current, settings.context, &mut release)
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))?;
    // Once hashed, the earlier window is read again only where the diff
    // keeps lines as equal.
    let (from, at) = (w.old.start, w.new.start);
    let mut read_no_more =
        |r: std::ops::Range<usize>| release(from + r.start..from + r.end, at..at);
    write_window(previous, current, settings, out, w, Some(&mut read_no_more))
}

/// [`write_answer`] given the window of the texts to diff.
#[cfg(feature = "std")]
pub(super) fn write_window<W: std::io::Write>(
    previous: &[u8],
    current: &[u8],
    settings: &DiffSettings,
    out: &mut W,
    w: crate::diff::window::Window,
    read_no_more: Option<&mut dyn FnMut(std::ops::Range<usize>)>,
) -> std::io::Result<DiffMode> {
    let unhashed = || ContentHash::from(String::new());
    // Checked by `window::find`; checking again costs a pass over the
    // windows only (small when the change is).
    let utf8 = |t| {
        std::str::from_utf8(t).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    };
    let (old_window, new_window) = (
        utf8(&previous[w.old.clone()])?,
        utf8(&current[w.new.clone()])?,
    );
    let r = compare(
        Some((old_window, unhashed())),
        new_window,
        unhashed(),
        settings,
        None,
        FullText::NoteOnly,
        Outside {
            lines_before: w.lines_before,
            lines_after: w.lines_after,
            bytes: current.len() - w.new.len(),
            read_no_more,
        },
    );
    out.write_all(r.formatted_diff.as_bytes())?;
    if r.mode == DiffMode::Full {
        out.write_all(current)?;
    }
    Ok(r.mode)
}

/// What two texts given to [`compare`] as windows of longer ones share
/// outside them: lines before and after, and the later text's bytes.
#[derive(Default)]
pub(super) struct Outside<'r> {
    lines_before: usize,
    lines_after: usize,
    bytes: usize,
    /// Gets the earlier text's byte ranges the line diff reads no more
    /// (see `LineDiff::compute_window`).
    read_no_more: Option<&'r mut dyn FnMut(core::ops::Range<usize>)>,
}

pub(super) fn compare(
    previous: Option<(&str, ContentHash)>,
    current: &str,
    current_hash: ContentHash,
    s: &DiffSettings,
    deadline: Option<Duration>,
    full_text: FullText,
    outside: Outside<'_>,
) -> DiffResult {
    // The later text's length, counting what is outside the window.
    let full_len = current.len() + outside.bytes;
    let (previous, previous_hash) = previous.unzip();
    let mut metadata = DiffMetadata {
        added_lines: 0,
        removed_lines: 0,
        context_lines: 0,
        // Counted below only where the line diff does not count it (a
        // pass over the whole text).
        total_lines: 0,
        previous_hash,
        current_hash,
        stored: true,
        budget_exhausted: false,
        exact: true,
    };
    let Some(prev) = previous else {
        metadata.total_lines = count_lines(current);
        return DiffResult {
            has_difference: false,
            similarity: 0.0,
            change_ratio: 1.0,
            mode: DiffMode::First,
            formatted_diff: current.to_owned(),
            metadata,
        };
    };
    let unchanged = |metadata: DiffMetadata| DiffResult {
        has_difference: false,
        similarity: 1.0,
        change_ratio: 0.0,
        mode: DiffMode::Unchanged,
        formatted_diff: format!(
            "No changes since the previous response ({} line{}).",
            metadata.total_lines,
            plural(metadata.total_lines)
        ),
        metadata,
    };
    if prev == current {
        metadata.total_lines = outside.lines_before + count_lines(current) + outside.lines_after;
        return unchanged(metadata);
    }

    // The search always runs, whatever maxDiffLines says: only the real
    // diff tells whether it is smaller than the full text.
    let diff = LineDiff::compute_window(
        prev,
        current,
        &EngineOptions {
            ignore_whitespace: s.ignore_whitespace,
            deadline,
            context: s.context,
            max_changes: None,
            // Only the CLI writes the answer and exits.
            keep_scratch: full_text == FullText::Copy,
        },
        outside.lines_before,
        outside.lines_after,
        outside.read_no_more,
    );
    let total_lines = diff.new_side().len();
    metadata.total_lines = total_lines;
    let similarity = diff.similarity();
    let change_ratio = 1.0 - similarity;
    metadata.added_lines = diff.added();
    metadata.removed_lines = diff.removed();
    metadata.budget_exhausted = diff.budget_exhausted();
    metadata.exact = diff.exact();

    // Whitespace-only changes leave no changed lines at all.
    if metadata.added_lines == 0 && metadata.removed_lines == 0 {
        return unchanged(metadata);
    }

    let ratio_ok = change_ratio <= s.threshold;
    // Every format prints each changed line with a prefix and a newline:
    // when even that cannot be the smaller answer, skip formatting (a
    // rewrite of a large page would format megabytes only to drop them).
    let floor = changed_bytes_floor(&diff);
    if floor >= full_len || !(ratio_ok || diff_is_small(floor, full_len)) {
        return full(current, similarity, change_ratio, metadata, full_text);
    }

    // The same with every line the format prints (context too): when
    // that alone reaches the full text's size, the diff cannot be sent.
    let formatter = DiffFormatter::new(s.format, s.context);
    if formatter.min_len(&diff) >= full_len {
        return full(current, similarity, change_ratio, metadata, full_text);
    }

    let formatted = formatter.format(&diff);
    let changed = metadata.added_lines + metadata.removed_lines;
    let over_cap = over_max_diff_lines(formatted.lines, s.max_diff_lines);
    let header = format!(
        "{} line{}, {} changed: +{} \u{2212}{}{over_cap}\n",
        total_lines,
        plural(total_lines),
        changed,
        metadata.added_lines,
        metadata.removed_lines
    );
    let diff_len = header.len() + formatted.text.len();
    // maxDiffLines never picks the full text: a diff over it is still the
    // smaller lossless answer, and its header says it is over.
    if !(diff_len < full_len && (ratio_ok || diff_is_small(diff_len, full_len))) {
        return full(current, similarity, change_ratio, metadata, full_text);
    }
    metadata.context_lines = formatted.context_lines;
    let mut text = header;
    text.push_str(&formatted.text);
    DiffResult {
        has_difference: true,
        similarity,
        change_ratio,
        mode: DiffMode::Diff,
        formatted_diff: text,
        metadata,
    }
}

/// Whether a `full` answer's `formatted_diff` carries the text after its
/// note, or only the note (the text is then written by [`write_answer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FullText {
    Copy,
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    NoteOnly,
}

/// The full text with the one-line reason a diff was not sent.
fn full(
    current: &str,
    similarity: f64,
    change_ratio: f64,
    metadata: DiffMetadata,
    full_text: FullText,
) -> DiffResult {
    let mut text = format!(
        "Full response ({:.0}% of lines changed (+{} \u{2212}{}); a diff would not be smaller):\n",
        change_ratio * 100.0,
        metadata.added_lines,
        metadata.removed_lines
    );
    if full_text == FullText::Copy {
        text.push_str(current);
    }
    DiffResult {
        has_difference: true,
        similarity,
        change_ratio,
        mode: DiffMode::Full,
        formatted_diff: text,
        metadata,
    }
}

/// Fewest bytes any format prints for the changed lines: each line's text,
/// a prefix of at least one byte and a newline.
fn changed_bytes_floor(diff: &LineDiff<'_>) -> usize {
    let len = |side: &crate::diff::lines::Side<'_>, i: usize| side.line_len(i).map_or(0, |l| l + 2);
    diff.ops()
        .iter()
        .map(|op| match op.kind {
            OpKind::Equal => 0,
            OpKind::Delete => op.old.clone().map(|i| len(diff.old(), i)).sum(),
            OpKind::Insert => op.new.clone().map(|i| len(diff.new_side(), i)).sum(),
        })
        .sum()
}

/// Largest share of the full text's bytes a diff may take to be sent when
/// more than `threshold` of the lines changed. Every choice between a diff
/// (or a snapshot patch) and the full text uses this one ratio.
///
/// It is 1: any diff smaller than the full text is sent, so no response is
/// larger than another lossless one. Measured on the app sessions of
/// `make bench` (TodoMVC on seven frameworks, jsoneditor's expanding tree,
/// the shop; docs/bench/README.md, "diff-or-full ratios"), the snapshot
/// sections total 47,310 o200k tokens at 0.5, 45,686 at 0.7 (agent-browser's
/// fallback), 44,611 at 0.9 and 44,474 at 1: every step rebuilds exactly
/// under each, and a lower ratio only ever sends more.
pub const MAX_DIFF_SHARE: f64 = 1.0;

/// Whether a diff of `diff_len` bytes is at most [`MAX_DIFF_SHARE`] of a
/// full text of `full_len` bytes.
/// A diff as long as the full text is not sent: the full text reads
/// without the previous one.
pub(crate) fn diff_is_small(diff_len: usize, full_len: usize) -> bool {
    diff_len < full_len && diff_len as f64 <= full_len as f64 * MAX_DIFF_SHARE
}

/// What a diff's header adds when the diff has more lines than
/// `maxDiffLines`: the limit never makes a response larger (the diff is
/// still sent when it is the smaller answer), it only says so.
pub(crate) fn over_max_diff_lines(lines: usize, max: usize) -> String {
    if lines > max {
        format!(" ({lines} diff lines, over maxDiffLines ({max}); smaller than the full text)")
    } else {
        String::new()
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
