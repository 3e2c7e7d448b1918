//! fast-playwright-mcp's `DiffFormatter` (as `CompatDiffFormatter`):
//! their diff segments turned back into two texts the core diffs.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::Error as CoreError;
use response_diff::diff as core;

use super::{CompatDiffSegment, strip_final_newline};
use crate::error::throw;

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
    Ok(strip_final_newline(core::format_diff(
        &old, &new, &settings,
    )))
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
