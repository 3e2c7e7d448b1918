//! The fast-playwright-mcp drop-in (`@x/response-diff/compat`): that
//! project's `ResponseDiffDetector` / `DiffFormatter` surface and types,
//! backed by the core's line diff. Differences are listed in the package
//! README.
//!
//! Split by job: this file holds their option and result types and what
//! both halves share; `detector` the `ResponseDiffDetector`, `formatter`
//! the `DiffFormatter`.

use napi_derive::napi;

pub mod detector;
pub mod formatter;

/// fast-playwright-mcp's `DiffOptions` (every field required, as there).
///
/// The numbers are JavaScript numbers, taken as they come: their option
/// schema accepts any `maxDiffLines > 0` and any `context >= 0`, fractions
/// and values past 2^32 included, and a value the schema accepts must never
/// cost the caller the diff (a `u32` here would wrap 2^32 to 0, and an
/// out-of-range error is swallowed by their `Response`).
#[napi(object, js_name = "CompatDiffOptions")]
pub struct CompatDiffOptions {
    /// Carried for the caller; `detectDiff` always diffs.
    pub enabled: bool,
    /// 0..1: `hasDifference` is true only when more than this share of
    /// lines changed.
    pub threshold: f64,
    /// `unified`, `split` or `minimal`.
    #[napi(ts_type = "'unified' | 'split' | 'minimal'")]
    pub format: String,
    /// A diff longer than this many lines is replaced by the full response
    /// with a one-line reason (any positive number; compared as is).
    pub max_diff_lines: f64,
    /// Trailing and inner runs of whitespace do not count.
    pub ignore_whitespace: bool,
    /// Unchanged lines around each change (any number >= 0; a fraction is
    /// rounded down, and more than the texts have means all of them).
    pub context: f64,
}

/// fast-playwright-mcp's `DiffSegment` (e.g. from `fast-diff`).
#[napi(object, js_name = "CompatDiffSegment")]
pub struct CompatDiffSegment {
    /// What the segment is.
    #[napi(js_name = "type", ts_type = "'add' | 'remove' | 'equal'")]
    pub kind: String,
    /// Its text.
    pub value: String,
}

/// fast-playwright-mcp's `DiffMetadata`.
#[napi(object, js_name = "CompatDiffMetadata")]
pub struct CompatDiffMetadata {
    /// Lines only in the current response.
    pub added_lines: u32,
    /// Lines only in the previous response.
    pub removed_lines: u32,
    /// Unchanged lines shown as context in `formattedDiff`.
    pub context_lines: u32,
    /// Lines in the current response.
    pub total_lines: u32,
}

/// fast-playwright-mcp's `DiffResult`.
#[napi(object, js_name = "CompatDiffResult")]
pub struct CompatDiffResult {
    /// More than `threshold` of the lines changed.
    pub has_difference: bool,
    /// Unchanged lines / max(previous lines, current lines); 1 on the first call.
    pub similarity: f64,
    /// The diff (all hunks) when `hasDifference`, else empty.
    pub formatted_diff: String,
    /// Line counts.
    pub metadata: CompatDiffMetadata,
}
/// Their strings never end with a newline (`lines.join('\n')`); ours end
/// every line with one. Callers wrap the text in a fence, so drop it.
fn strip_final_newline(mut s: String) -> String {
    if s.ends_with('\n') {
        s.pop();
    }
    s
}
