//! fast-playwright-mcp's `ResponseDiffDetector` (as
//! `CompatResponseDiffDetector`): their option checks and decision rule
//! over the core's store, line diff and formatter.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::Error as CoreError;
use response_diff::diff as core;
// The line engine without the detector's decision rule: not public API,
// shared with this workspace only (the packages release together).
use response_diff::__internals as engine;

use super::{CompatDiffMetadata, CompatDiffOptions, CompatDiffResult, strip_final_newline};
use crate::error::{OrThrow, throw};
use crate::text::Text;

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn format_of(env: &Env, s: &str) -> Result<core::DiffFormat> {
    match s {
        "unified" => Ok(core::DiffFormat::Unified),
        "split" => Ok(core::DiffFormat::Split),
        "minimal" => Ok(core::DiffFormat::Minimal),
        // The core's own parser, so a bad value names the field as everywhere.
        _ => core::DiffOptions::from_json(&serde_json::json!({ "format": s }).to_string())
            .map(|o| o.resolve().format)
            .or_throw(env),
    }
}

fn invalid(env: &Env, field: &str, why: String) -> Error {
    throw(
        env,
        CoreError::invalid_option(format!("diffOptions.{field}"), why),
    )
}

/// `maxDiffLines` for the reason line, as JavaScript prints it: 50, 0.5,
/// 4294967296, 1e+308.
fn show_number(v: f64) -> String {
    if v.abs() >= 1e21 {
        // Rust's `{:e}` gives 1e308; JavaScript writes the sign.
        format!("{v:e}").replacen('e', "e+", 1)
    } else {
        format!("{v}")
    }
}

/// `text` ending with a newline: borrowed when it already does.
fn with_final_newline(text: &str) -> std::borrow::Cow<'_, str> {
    if text.ends_with('\n') {
        std::borrow::Cow::Borrowed(text)
    } else {
        let mut owned = String::with_capacity(text.len() + 1);
        owned.push_str(text);
        owned.push('\n');
        std::borrow::Cow::Owned(owned)
    }
}

/// Drop-in for fast-playwright-mcp's `ResponseDiffDetector`: same methods
/// and result shape, keyed by tool name, backed by the core's store (10 MiB
/// cap), line diff and formatter.
///
/// The result is built from the core's parts (the stored text, the
/// line diff and the formatter's body), never from the text the
/// core's detector renders for an agent: that text starts with a summary
/// line, a note, or both (near the store cap), which are not theirs to show.
#[napi(js_name = "CompatResponseDiffDetector")]
pub struct CompatResponseDiffDetector {
    inner: core::ResponseDiffDetector,
}

impl Default for CompatResponseDiffDetector {
    fn default() -> Self {
        Self::new()
    }
}

/// What [`CompatResponseDiffDetector::detect`] found, before it becomes a
/// JavaScript object.
struct Outcome {
    has_difference: bool,
    similarity: f64,
    formatted_diff: String,
    added: usize,
    removed: usize,
    context_lines: usize,
    total: usize,
}

impl Outcome {
    fn nothing(similarity: f64, added: usize, removed: usize, total: usize) -> Outcome {
        Outcome {
            has_difference: false,
            similarity,
            formatted_diff: String::new(),
            added,
            removed,
            context_lines: 0,
            total,
        }
    }
}

impl CompatResponseDiffDetector {
    #[allow(clippy::too_many_arguments)]
    fn detect(
        &self,
        env: &Env,
        current: String,
        tool_name: &str,
        threshold: f64,
        format: &str,
        max_diff_lines: f64,
        ignore_whitespace: bool,
        context: f64,
    ) -> Result<Outcome> {
        if !(threshold.is_finite() && (0.0..=1.0).contains(&threshold)) {
            return Err(invalid(
                env,
                "threshold",
                format!("{threshold} is out of range; use a number from 0 to 1"),
            ));
        }
        if max_diff_lines.is_nan() {
            return Err(invalid(
                env,
                "maxDiffLines",
                "NaN is not a number of lines; use a positive number".to_owned(),
            ));
        }
        if context.is_nan() || context < 0.0 {
            return Err(invalid(
                env,
                "context",
                format!("{context} is out of range; use a number of lines >= 0"),
            ));
        }
        let format = format_of(env, format)?;

        let previous = self.inner.previous(tool_name);
        // Checks the size and keeps `current` for the next call (or drops
        // the key's older text when `current` alone is over the cap).
        self.inner.store(tool_name, &current).or_throw(env)?;
        let total = engine::count_lines(&current);
        // Theirs: nothing to compare with, similarity 1.
        let Some(previous) = previous else {
            return Ok(Outcome::nothing(1.0, 0, 0, total));
        };
        if *previous == *current {
            return Ok(Outcome::nothing(1.0, 0, 0, total));
        }

        // Their texts never end with a newline (`lines.join('\n')`). Diffed
        // as they are, every unified or split diff touching the last line
        // would say `\ No newline at end of file` about a newline neither
        // text has. Diffed as complete lines, the diff rebuilds the new text
        // plus a newline from the old one plus a newline. Minimal output has
        // no line positions to hang that marker on, so it never shows it.
        let complete = format == core::DiffFormat::Minimal
            || (!previous.ends_with('\n') && !current.ends_with('\n'));
        let mut current = current;
        let old = if complete {
            if !current.ends_with('\n') {
                // Free: a converted text has spare capacity.
                current.push('\n');
            }
            with_final_newline(&previous)
        } else {
            std::borrow::Cow::Borrowed(&*previous)
        };
        let new = current.as_str();
        // More context than either text has lines shows every line: the
        // same output as any larger number. A text has at most one line
        // per byte, so lines are only counted for an enormous context.
        let context = if context > old.len().max(new.len()) as f64 {
            engine::count_lines(&old).max(engine::count_lines(new))
        } else {
            context as usize // rounds down
        };
        // Every format prints at least one line per changed line: when even
        // the smallest diff has more changed lines than maxDiffLines, the
        // search is skipped (the answer is the full response either way).
        let max_changes = if max_diff_lines >= usize::MAX as f64 {
            usize::MAX
        } else if max_diff_lines < 0.0 {
            0
        } else {
            max_diff_lines as usize
        };
        let options = |max_changes| engine::EngineOptions {
            ignore_whitespace,
            deadline: None,
            context,
            max_changes,
            ..engine::EngineOptions::default()
        };
        let mut diff = engine::LineDiff::compute_with(&old, new, &options(Some(max_changes)));
        // A skipped search counts changes from below, so its similarity is
        // from above: when that alone would say "no difference", search
        // after all, so a change over the threshold is never dropped.
        if !diff.exact() && 1.0 - diff.similarity() <= threshold {
            diff = engine::LineDiff::compute_with(&old, new, &options(None));
        }
        let (added, removed) = (diff.added(), diff.removed());
        // Whitespace-only changes leave no changed lines at all.
        if added == 0 && removed == 0 {
            return Ok(Outcome::nothing(1.0, 0, 0, total));
        }
        let similarity = diff.similarity();
        // Theirs: `similarity < 1 - threshold`, i.e. more than `threshold`
        // of the response changed.
        if 1.0 - similarity <= threshold {
            return Ok(Outcome::nothing(similarity, added, removed, total));
        }

        let full = |why: String| {
            let mut text = format!("Full response ({why}):\n");
            text.push_str(new);
            strip_final_newline(text)
        };
        let mut context_lines = 0;
        let formatted_diff = if !diff.exact() {
            full(format!(
                "at least {} lines changed (+{added} \u{2212}{removed}), over maxDiffLines ({})",
                added + removed,
                show_number(max_diff_lines)
            ))
        } else {
            let formatted = engine::DiffFormatter::new(format, context).format(&diff);
            if formatted.lines as f64 <= max_diff_lines {
                context_lines = formatted.context_lines;
                strip_final_newline(formatted.text)
            } else {
                full(format!(
                    "the diff has {} lines, over maxDiffLines ({})",
                    formatted.lines,
                    show_number(max_diff_lines)
                ))
            }
        };
        Ok(Outcome {
            has_difference: true,
            similarity,
            formatted_diff,
            added,
            removed,
            context_lines,
            total,
        })
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
        let o = self.detect(
            &env,
            current.0,
            &tool_name,
            options.threshold,
            &options.format,
            options.max_diff_lines,
            options.ignore_whitespace,
            options.context,
        )?;
        Ok(CompatDiffResult {
            has_difference: o.has_difference,
            similarity: o.similarity,
            formatted_diff: o.formatted_diff,
            metadata: CompatDiffMetadata {
                added_lines: count(o.added),
                removed_lines: count(o.removed),
                context_lines: count(o.context_lines),
                total_lines: count(o.total),
            },
        })
    }

    /// `detectDiff` for `compat.js`, which builds the result object in
    /// JavaScript: the options come as arguments and the numbers go into
    /// `out` (`[hasDifference (0/1), similarity, addedLines, removedLines,
    /// contextLines, totalLines]`), so a call crosses no object in either
    /// direction. Returns `formattedDiff`. Not part of their surface.
    #[allow(clippy::too_many_arguments)]
    #[napi]
    pub fn detect_into(
        &self,
        env: Env,
        #[napi(ts_arg_type = "string")] current: Text,
        tool_name: String,
        threshold: f64,
        format: String,
        max_diff_lines: f64,
        ignore_whitespace: bool,
        context: f64,
        mut out: Float64ArraySlice,
    ) -> Result<String> {
        let o = self.detect(
            &env,
            current.0,
            &tool_name,
            threshold,
            &format,
            max_diff_lines,
            ignore_whitespace,
            context,
        )?;
        // SAFETY: JavaScript is blocked in this call, so nothing else reads
        // or writes the array while it is borrowed here.
        let out = unsafe { out.as_mut() };
        if out.len() < 6 {
            return Err(Error::new(
                Status::InvalidArg,
                "detectInto needs a Float64Array of 6 numbers".to_owned(),
            ));
        }
        out[..6].copy_from_slice(&[
            if o.has_difference { 1.0 } else { 0.0 },
            o.similarity,
            o.added as f64,
            o.removed as f64,
            o.context_lines as f64,
            o.total as f64,
        ]);
        Ok(o.formatted_diff)
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
