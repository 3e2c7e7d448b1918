//! `diffOptions`: the JSON options of a response diff (docs/DECISIONS.md D6–D9).

use crate::prelude::*;
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::error::field_path;
use crate::{Error, Result};

/// How a diff is printed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum DiffFormat {
    /// `@@ -12,3 +12,4 @@` hunks with context lines, ` `/`-`/`+` prefixes.
    /// The default. Lossless: `patch` can apply it.
    #[default]
    Unified,
    /// Per hunk, a `before:` block and an `after:` block. Lossless.
    Split,
    /// Changed lines only, `- ` / `+ `, no context and no positions. The
    /// smallest; the agent sees what changed but not where.
    Minimal,
}

impl DiffFormat {
    /// The name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            DiffFormat::Unified => "unified",
            DiffFormat::Split => "split",
            DiffFormat::Minimal => "minimal",
        }
    }
}

impl fmt::Display for DiffFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Largest accepted `context`.
pub const MAX_CONTEXT: usize = 1_000;
/// Largest accepted `maxDiffLines`.
pub const MAX_DIFF_LINES: usize = 1_000_000;

/// `diffOptions` as a caller sends it: every field optional, so layers
/// (tool default < global < step) can be merged field by field.
///
/// ```
/// use response_diff::diff::{DiffFormat, DiffOptions};
/// let o: DiffOptions = serde_json::from_str(r#"{"enabled": true, "format": "minimal"}"#).unwrap();
/// let s = o.resolve();
/// assert!(s.enabled);
/// assert_eq!(s.format, DiffFormat::Minimal);
/// assert_eq!(s.max_diff_lines, 50); // the default
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiffOptions {
    /// Diff responses against the previous one for the same key (default false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// 0..=1 (default 0.1): a diff smaller than the full text is shown when
    /// at most this share of lines changed, and otherwise when it is at most
    /// [`super::MAX_DIFF_SHARE`] of the full text (1: any smaller diff).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// `unified` (default), `split` or `minimal`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<DiffFormat>,
    /// 1..=1,000,000 (default 50): a longer diff is still sent when it is
    /// smaller than the full text, its header saying it is over; the cap
    /// never picks a larger body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_diff_lines: Option<usize>,
    /// Trailing whitespace and runs of inner whitespace do not count
    /// (default true); indentation always counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_whitespace: Option<bool>,
    /// 0..=1,000 (default 3): unchanged lines shown around each change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<usize>,
}

/// Fully resolved diff settings: [`DiffOptions`] with defaults filled in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffSettings {
    /// Hosts diff only when this is on; [`super::ResponseDiffDetector`] itself
    /// always diffs.
    pub enabled: bool,
    /// Share of changed lines up to which a diff is always preferred.
    pub threshold: f64,
    /// Output format.
    pub format: DiffFormat,
    /// Diff lines past which a diff's header says it is over the cap (the
    /// diff is still sent when it is smaller than the full text).
    pub max_diff_lines: usize,
    /// See [`DiffOptions::ignore_whitespace`].
    pub ignore_whitespace: bool,
    /// Unchanged lines shown around each change.
    pub context: usize,
}

impl Default for DiffSettings {
    fn default() -> Self {
        DiffSettings {
            enabled: false,
            threshold: 0.1,
            format: DiffFormat::Unified,
            max_diff_lines: 50,
            ignore_whitespace: true,
            context: 3,
        }
    }
}

impl DiffOptions {
    /// Fills in defaults.
    pub fn resolve(&self) -> DiffSettings {
        let d = DiffSettings::default();
        DiffSettings {
            enabled: self.enabled.unwrap_or(d.enabled),
            threshold: self.threshold.unwrap_or(d.threshold),
            format: self.format.unwrap_or(d.format),
            max_diff_lines: self.max_diff_lines.unwrap_or(d.max_diff_lines),
            ignore_whitespace: self.ignore_whitespace.unwrap_or(d.ignore_whitespace),
            context: self.context.unwrap_or(d.context),
        }
    }

    /// Overlays the fields `over` sets.
    pub fn merge(&mut self, over: &DiffOptions) {
        overlay!(self, over; enabled, threshold, format, max_diff_lines, ignore_whitespace, context);
    }

    /// Checks ranges; `path` prefixes the field name in errors.
    pub fn validate(&self, path: &str) -> Result<()> {
        if let Some(t) = self.threshold
            && !(t.is_finite() && (0.0..=1.0).contains(&t))
        {
            return Err(Error::invalid_option(
                field_path(path, "threshold"),
                format!("{t} is out of range; use a number from 0 to 1"),
            ));
        }
        check_range(path, "maxDiffLines", self.max_diff_lines, 1, MAX_DIFF_LINES)?;
        check_range(path, "context", self.context, 0, MAX_CONTEXT)?;
        Ok(())
    }

    /// Parses and validates JSON, naming the offending field on error.
    ///
    /// ```
    /// use response_diff::diff::DiffOptions;
    /// let e = DiffOptions::from_json(r#"{"treshold": 0.2}"#).unwrap_err();
    /// assert!(e.to_string().contains("treshold"));
    /// ```
    pub fn from_json(json: &str) -> Result<DiffOptions> {
        let o: DiffOptions = crate::json::from_str(json, "diffOptions")?;
        o.validate("diffOptions")?;
        Ok(o)
    }
}

impl DiffSettings {
    /// Parses and validates `diffOptions` JSON, filling in defaults.
    pub fn from_json(json: &str) -> Result<DiffSettings> {
        DiffOptions::from_json(json).map(|o| o.resolve())
    }

    /// Parses `diffOptions` JSON when there is some, the defaults when
    /// there is none (a host's optional options argument).
    pub fn from_optional_json(json: Option<&str>) -> Result<DiffSettings> {
        json.map_or_else(|| Ok(DiffSettings::default()), DiffSettings::from_json)
    }

    /// Checks ranges (for settings built in code).
    pub fn validate(&self) -> Result<()> {
        DiffOptions {
            enabled: Some(self.enabled),
            threshold: Some(self.threshold),
            format: Some(self.format),
            max_diff_lines: Some(self.max_diff_lines),
            ignore_whitespace: Some(self.ignore_whitespace),
            context: Some(self.context),
        }
        .validate("diffOptions")
    }
}

/// Checks `min <= value <= max` for an optional integer field.
pub(crate) fn check_range(
    path: &str,
    field: &str,
    value: Option<usize>,
    min: usize,
    max: usize,
) -> Result<()> {
    match value {
        Some(v) if v < min || v > max => Err(Error::invalid_option(
            field_path(path, field),
            format!("{v} is out of range; use an integer from {min} to {max}"),
        )),
        _ => Ok(()),
    }
}
