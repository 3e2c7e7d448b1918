//! Diff formats: unified, split and minimal. All line-based and
//! deterministic.

use crate::prelude::*;
use core::fmt::{self, Write};
use core::ops::Range;

use super::lines::{EngineOptions, Line, LineDiff, Op, OpKind};
use super::{DiffFormat, DiffSettings};

/// The line diff of two texts printed in `settings.format` with
/// `settings.context` lines around each change, `ignoreWhitespace` applied:
/// the formatter alone, with no decision rule and no summary line (for
/// those, [`super::compare_texts`]). Empty when the texts are equal. Every
/// host's "format a diff" entry point calls this, so all print the same.
///
/// ```
/// use response_diff::diff::{DiffFormat, DiffSettings, format_diff};
/// let s = DiffSettings { format: DiffFormat::Minimal, ..DiffSettings::default() };
/// assert_eq!(format_diff("a\nb\n", "a\nc\n", &s), "- b\n+ c\n");
/// ```
pub fn format_diff(old: &str, new: &str, settings: &DiffSettings) -> String {
    let diff = LineDiff::compute_with(
        old,
        new,
        &EngineOptions {
            ignore_whitespace: settings.ignore_whitespace,
            deadline: None,
            context: settings.context,
            ..EngineOptions::default()
        },
    );
    DiffFormatter::new(settings.format, settings.context)
        .format(&diff)
        .text
}

/// A group of nearby changes with their context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk {
    /// Old-text lines the hunk covers.
    pub(crate) old: Range<usize>,
    /// New-text lines the hunk covers.
    pub(crate) new: Range<usize>,
    /// The ops inside the hunk, clipped to it.
    pub(crate) ops: Vec<Op>,
}

impl Hunk {
    /// The `@@ -12,3 +12,4 @@` header (1-based; a count of 1 is omitted,
    /// an empty range names the line before it, as GNU diff does).
    pub(crate) fn header(&self) -> String {
        format!(
            "@@ -{} +{} @@",
            range_label(&self.old),
            range_label(&self.new)
        )
    }
}

fn range_label(r: &Range<usize>) -> String {
    match r.len() {
        0 => format!("{},0", r.start),
        1 => format!("{}", r.start + 1),
        n => format!("{},{}", r.start + 1, n),
    }
}

/// Groups `ops` into hunks with `context` unchanged lines around each
/// change; changes closer than `2 * context` lines share a hunk. Made one
/// at a time as they are read: a rewritten page has tens of thousands,
/// and holding them all (each with its ops) only to add up their length
/// was the largest allocation of a 7 MB diff.
pub(crate) fn hunks(ops: &[Op], context: usize) -> impl Iterator<Item = Hunk> + '_ {
    let next_change = move |from: usize| (from..ops.len()).find(|&i| ops[i].kind != OpKind::Equal);
    let mut at = next_change(0);
    core::iter::from_fn(move || {
        let first = at?;
        // Extend the group while the equal run between changes is short.
        let mut last = first;
        at = loop {
            let Some(next) = next_change(last + 1) else {
                break None;
            };
            let gap: usize = ops[last + 1..next].iter().map(|o| o.new.len()).sum();
            if gap > context.saturating_mul(2) {
                break Some(next);
            }
            last = next;
        };

        let mut hunk_ops = Vec::new();
        if first > 0 {
            let eq = &ops[first - 1];
            let n = eq.new.len().min(context);
            if n > 0 {
                hunk_ops.push(Op {
                    kind: OpKind::Equal,
                    old: eq.old.end - n..eq.old.end,
                    new: eq.new.end - n..eq.new.end,
                });
            }
        }
        hunk_ops.extend(ops[first..=last].iter().cloned());
        if let Some(eq) = ops.get(last + 1) {
            let n = eq.new.len().min(context);
            if n > 0 {
                hunk_ops.push(Op {
                    kind: OpKind::Equal,
                    old: eq.old.start..eq.old.start + n,
                    new: eq.new.start..eq.new.start + n,
                });
            }
        }
        let old = hunk_ops[0].old.start..hunk_ops[hunk_ops.len() - 1].old.end;
        let new = hunk_ops[0].new.start..hunk_ops[hunk_ops.len() - 1].new.end;
        Some(Hunk {
            old,
            new,
            ops: hunk_ops,
        })
    })
}

/// Prints a [`LineDiff`] in one of the [`DiffFormat`]s.
///
/// ```
/// use response_diff::__internals::{DiffFormatter, LineDiff};
/// use response_diff::diff::DiffFormat;
/// let d = LineDiff::compute("a\nb\nc\n", "a\nB\nc\n", false, None);
/// let out = DiffFormatter::new(DiffFormat::Unified, 1).format(&d);
/// assert_eq!(out.text, "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
/// let out = DiffFormatter::new(DiffFormat::Minimal, 3).format(&d);
/// assert_eq!(out.text, "- b\n+ B\n");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffFormatter {
    format: DiffFormat,
    context: usize,
}

/// A formatted diff with the counts the metadata reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Formatted {
    /// The diff text; every line ends with `\n`.
    pub text: String,
    /// Number of lines in `text`.
    pub lines: usize,
    /// Unchanged lines shown as context.
    pub context_lines: usize,
}

impl DiffFormatter {
    /// A formatter for `format` with `context` unchanged lines around each
    /// change (ignored by [`DiffFormat::Minimal`]).
    pub fn new(format: DiffFormat, context: usize) -> Self {
        DiffFormatter { format, context }
    }

    /// Formats `diff`.
    pub fn format(&self, diff: &LineDiff<'_>) -> Formatted {
        let mut out = Formatted::default();
        // Writing to a String cannot fail.
        let _ = self.write(diff, &mut out);
        out
    }

    /// Fewest bytes [`Self::format`] prints for `diff`: each printed line's
    /// text with its prefix and newline, without hunk headers and
    /// markers. A caller can skip formatting a diff that cannot be the
    /// smaller answer (formatting a rewritten page prints megabytes).
    pub(crate) fn min_len(&self, diff: &LineDiff<'_>) -> usize {
        let (old, new) = (diff.old(), diff.new_side());
        // `prefix` is the prefix's length plus the newline.
        let lines = |side: &super::lines::Side<'_>, r: &Range<usize>, prefix: usize| -> usize {
            r.clone()
                .map(|i| side.line_len(i).unwrap_or(0) + prefix)
                .sum()
        };
        match self.format {
            DiffFormat::Minimal => diff
                .ops()
                .iter()
                .map(|op| match op.kind {
                    OpKind::Equal => 0,
                    OpKind::Delete => lines(old, &op.old, 3),
                    OpKind::Insert => lines(new, &op.new, 3),
                })
                .sum(),
            DiffFormat::Unified => hunks(diff.ops(), self.context)
                .map(|h| {
                    h.ops
                        .iter()
                        .map(|op| match op.kind {
                            OpKind::Equal | OpKind::Insert => lines(new, &op.new, 2),
                            OpKind::Delete => lines(old, &op.old, 2),
                        })
                        .sum::<usize>()
                })
                .sum(),
            DiffFormat::Split => hunks(diff.ops(), self.context)
                .map(|h| {
                    h.ops
                        .iter()
                        .map(|op| match op.kind {
                            OpKind::Equal => lines(old, &op.old, 3) + lines(new, &op.new, 3),
                            OpKind::Delete => lines(old, &op.old, 3),
                            OpKind::Insert => lines(new, &op.new, 3),
                        })
                        .sum::<usize>()
                })
                .sum(),
        }
    }

    /// Writes `diff` to `w`, counting lines into `counts`.
    fn write(&self, diff: &LineDiff<'_>, out: &mut Formatted) -> fmt::Result {
        let old = diff.old();
        let new = diff.new_side();
        let emit = |out: &mut Formatted, prefix: &str, line: Option<Line<'_>>| -> fmt::Result {
            // Lines near a change are always materialized; an absent one
            // would be a bug in the engine, so print it visibly.
            let line = line.unwrap_or(Line {
                text: "<line unavailable>",
                newline: true,
            });
            out.lines += 1;
            writeln!(out.text, "{prefix}{}", line.text)?;
            if !line.newline {
                out.lines += 1;
                out.text.push_str("\\ No newline at end of file\n");
            }
            Ok(())
        };
        match self.format {
            DiffFormat::Minimal => {
                for op in diff.ops() {
                    match op.kind {
                        OpKind::Equal => {}
                        OpKind::Delete => {
                            for i in op.old.clone() {
                                emit(out, "- ", old.get(i))?;
                            }
                        }
                        OpKind::Insert => {
                            for i in op.new.clone() {
                                emit(out, "+ ", new.get(i))?;
                            }
                        }
                    }
                }
            }
            DiffFormat::Unified => {
                for hunk in hunks(diff.ops(), self.context) {
                    out.lines += 1;
                    writeln!(out.text, "{}", hunk.header())?;
                    for op in &hunk.ops {
                        match op.kind {
                            OpKind::Equal => {
                                for i in op.new.clone() {
                                    out.context_lines += 1;
                                    emit(out, " ", new.get(i))?;
                                }
                            }
                            OpKind::Delete => {
                                for i in op.old.clone() {
                                    emit(out, "-", old.get(i))?;
                                }
                            }
                            OpKind::Insert => {
                                for i in op.new.clone() {
                                    emit(out, "+", new.get(i))?;
                                }
                            }
                        }
                    }
                }
            }
            DiffFormat::Split => {
                for hunk in hunks(diff.ops(), self.context) {
                    out.lines += 2;
                    writeln!(out.text, "{}", hunk.header())?;
                    out.text.push_str("before:\n");
                    for op in &hunk.ops {
                        if op.kind == OpKind::Equal {
                            out.context_lines += 1;
                        }
                        if op.kind != OpKind::Insert {
                            for i in op.old.clone() {
                                emit(out, "  ", old.get(i))?;
                            }
                        }
                    }
                    out.lines += 1;
                    out.text.push_str("after:\n");
                    for op in &hunk.ops {
                        if op.kind != OpKind::Delete {
                            for i in op.new.clone() {
                                emit(out, "  ", new.get(i))?;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(old: &str, new: &str, f: DiffFormat, ctx: usize) -> String {
        let d = LineDiff::compute(old, new, false, None);
        DiffFormatter::new(f, ctx).format(&d).text
    }

    #[test]
    fn hunks_merge_when_close_and_split_when_far() {
        let old: String = (0..20).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l3\n", "L3\n").replace("l6\n", "L6\n");
        assert_eq!(
            fmt(&old, &new, DiffFormat::Unified, 2)
                .matches("@@ -")
                .count(),
            1
        );
        let new = old.replace("l3\n", "L3\n").replace("l16\n", "L16\n");
        assert_eq!(
            fmt(&old, &new, DiffFormat::Unified, 2)
                .matches("@@ -")
                .count(),
            2
        );
    }

    #[test]
    fn unified_headers_follow_gnu_conventions() {
        assert_eq!(
            fmt("a\n", "a\nb\n", DiffFormat::Unified, 0),
            "@@ -1,0 +2 @@\n+b\n"
        );
        assert_eq!(
            fmt("a\nb\n", "a\n", DiffFormat::Unified, 0),
            "@@ -2 +1,0 @@\n-b\n"
        );
        assert_eq!(
            fmt("", "a\n", DiffFormat::Unified, 3),
            "@@ -0,0 +1 @@\n+a\n"
        );
    }

    #[test]
    fn no_newline_marker() {
        assert_eq!(
            fmt("a\n", "a", DiffFormat::Unified, 0),
            "@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn split_has_before_and_after_blocks() {
        assert_eq!(
            fmt("a\nb\nc\n", "a\nB\nc\n", DiffFormat::Split, 1),
            "@@ -1,3 +1,3 @@\nbefore:\n  a\n  b\n  c\nafter:\n  a\n  B\n  c\n"
        );
    }

    #[test]
    fn counts_context_lines() {
        let d = LineDiff::compute("a\nb\nc\n", "a\nB\nc\n", false, None);
        let f = DiffFormatter::new(DiffFormat::Unified, 1).format(&d);
        assert_eq!((f.lines, f.context_lines), (5, 2));
        let f = DiffFormatter::new(DiffFormat::Minimal, 1).format(&d);
        assert_eq!((f.lines, f.context_lines), (2, 0));
    }
}
