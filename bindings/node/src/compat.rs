//! The fast-playwright-mcp drop-in (`@x/response-diff/compat`): that
//! project's `ResponseDiffDetector` / `DiffFormatter` surface and types,
//! backed by the core's line diff. Differences are listed in the package
//! README.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::Error as CoreError;
use response_diff::diff as core;

use crate::diff::format_lines;
use crate::error::{OrThrow, throw};
use crate::text::Text;

/// fast-playwright-mcp's `DiffOptions` (every field required, as there).
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
    /// A diff longer than this many lines is not shown.
    pub max_diff_lines: u32,
    /// Trailing and inner runs of whitespace do not count.
    pub ignore_whitespace: bool,
    /// Unchanged lines around each change.
    pub context: u32,
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

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn format_of(env: &Env, s: &str) -> Result<core::DiffFormat> {
    // The core's own parser, so a bad value names the field as everywhere.
    core::DiffOptions::from_json(&serde_json::json!({ "format": s }).to_string())
        .map(|o| o.resolve().format)
        .or_throw(env)
}

/// Their strings never end with a newline (`lines.join('\n')`); ours end
/// every line with one. Callers wrap the text in a fence, so drop it.
fn strip_final_newline(mut s: String) -> String {
    if s.ends_with('\n') {
        s.pop();
    }
    s
}

/// Drop-in for fast-playwright-mcp's `ResponseDiffDetector`: same methods
/// and result shape, keyed by tool name, backed by the core detector (a
/// line diff with every hunk, a 10 MiB store cap).
#[napi(js_name = "CompatResponseDiffDetector")]
pub struct CompatResponseDiffDetector {
    inner: core::ResponseDiffDetector,
}

impl Default for CompatResponseDiffDetector {
    fn default() -> Self {
        Self::new()
    }
}

#[napi]
impl CompatResponseDiffDetector {
    /// A detector with the core's default limits.
    #[napi(constructor)]
    pub fn new() -> Self {
        CompatResponseDiffDetector {
            inner: core::ResponseDiffDetector::new(),
        }
    }

    /// Compares `current` with the previous response of `toolName` and
    /// stores `current` for the next call. The first call for a tool has no
    /// difference.
    #[napi]
    pub fn detect_diff(
        &self,
        env: Env,
        #[napi(ts_arg_type = "string")] current: Text,
        tool_name: String,
        options: CompatDiffOptions,
    ) -> Result<CompatDiffResult> {
        let settings = core::DiffSettings {
            enabled: options.enabled,
            threshold: options.threshold,
            format: format_of(&env, &options.format)?,
            max_diff_lines: options.max_diff_lines as usize,
            ignore_whitespace: options.ignore_whitespace,
            context: options.context as usize,
        };
        let r = self
            .inner
            .detect(&tool_name, &current.0, &settings)
            .or_throw(&env)?;
        let m = &r.metadata;
        let metadata = CompatDiffMetadata {
            added_lines: count(m.added_lines),
            removed_lines: count(m.removed_lines),
            context_lines: count(m.context_lines),
            total_lines: count(m.total_lines),
        };
        if r.mode == core::DiffMode::First {
            // Theirs: nothing to compare with, similarity 1.
            return Ok(CompatDiffResult {
                has_difference: false,
                similarity: 1.0,
                formatted_diff: String::new(),
                metadata,
            });
        }
        // Theirs: `similarity < 1 - threshold`, i.e. more than `threshold`
        // of the response changed.
        let has_difference = r.has_difference && r.change_ratio > settings.threshold;
        let formatted_diff = if !has_difference {
            String::new()
        } else {
            // Our first line is a summary (`diff`) or a note saying why a
            // diff would not help (`full`, followed by the whole text, which
            // their Response prints anyway): keep the diff, or the note.
            let (first, rest) = r
                .formatted_diff
                .split_once('\n')
                .unwrap_or((&r.formatted_diff, ""));
            match r.mode {
                core::DiffMode::Diff => strip_final_newline(rest.to_owned()),
                // The note ends with a colon that introduced the full text.
                _ => first.strip_suffix(':').unwrap_or(first).to_owned(),
            }
        };
        Ok(CompatDiffResult {
            has_difference,
            similarity: r.similarity,
            formatted_diff,
            metadata,
        })
    }

    /// Stores `content` as the previous response of `toolName`.
    #[napi]
    pub fn store_response(
        &self,
        env: Env,
        #[napi(ts_arg_type = "string")] content: Text,
        tool_name: String,
    ) -> Result<()> {
        self.inner.store(&tool_name, &content.0).or_throw(&env)?;
        Ok(())
    }
}

/// Drop-in for fast-playwright-mcp's `DiffFormatter`: the segments are
/// turned back into the two texts they describe, and the core prints their
/// line diff (every hunk).
#[napi(js_name = "CompatDiffFormatter")]
pub struct CompatDiffFormatter {}

impl Default for CompatDiffFormatter {
    fn default() -> Self {
        Self::new()
    }
}

/// The previous and current texts a segment list describes.
fn texts(env: &Env, segments: &[CompatDiffSegment]) -> Result<(String, String)> {
    let mut old = String::new();
    let mut new = String::new();
    for (i, s) in segments.iter().enumerate() {
        match s.kind.as_str() {
            "add" => new.push_str(&s.value),
            "remove" => old.push_str(&s.value),
            "equal" => {
                old.push_str(&s.value);
                new.push_str(&s.value);
            }
            other => {
                return Err(throw(
                    env,
                    CoreError::invalid_option(
                        format!("segments[{i}].type"),
                        format!(
                            "{other:?} is not a segment type; use \"add\", \"remove\" or \"equal\""
                        ),
                    ),
                ));
            }
        }
    }
    Ok((old, new))
}

fn format(
    env: &Env,
    segments: &[CompatDiffSegment],
    format: core::DiffFormat,
    context: usize,
) -> Result<String> {
    let (old, new) = texts(env, segments)?;
    let settings = core::DiffSettings {
        format,
        context,
        // The segments already say what changed.
        ignore_whitespace: false,
        ..core::DiffSettings::default()
    };
    Ok(strip_final_newline(format_lines(&old, &new, &settings)))
}

#[napi]
impl CompatDiffFormatter {
    /// A formatter.
    #[napi(constructor)]
    pub fn new() -> Self {
        CompatDiffFormatter {}
    }

    /// `@@ -12,3 +12,4 @@` hunks with `context` lines (default 3) around
    /// each change, for every hunk.
    #[napi]
    pub fn format_unified(
        &self,
        env: Env,
        segments: Vec<CompatDiffSegment>,
        context: Option<u32>,
    ) -> Result<String> {
        let context = context.map_or(3, |c| c as usize);
        format(&env, &segments, core::DiffFormat::Unified, context)
    }

    /// Per hunk, a `before:` and an `after:` block (3 lines of context).
    #[napi]
    pub fn format_split(&self, env: Env, segments: Vec<CompatDiffSegment>) -> Result<String> {
        format(&env, &segments, core::DiffFormat::Split, 3)
    }

    /// Changed lines only, `- ` / `+ `.
    #[napi]
    pub fn format_minimal(&self, env: Env, segments: Vec<CompatDiffSegment>) -> Result<String> {
        format(&env, &segments, core::DiffFormat::Minimal, 0)
    }
}
