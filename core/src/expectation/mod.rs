//! Expectation: per call, which sections a response includes and how much
//! of each (docs/DECISIONS.md D4).
//!
//! [`Expectation`] is what callers send: every field optional. Layers merge
//! field by field (deep) in the order tool default < batch
//! `globalExpectation` < step `expectation`; [`Expectation::resolve`] turns
//! the result into a [`ResolvedExpectation`] with every value concrete. A
//! field left out takes the tool's default, never `false`.
//!
//! ```
//! use response_diff::expectation::Expectation;
//! let step = Expectation::from_json(r#"{"consoleOptions": {"levels": ["error"]}}"#).unwrap();
//! let r = Expectation::resolve("browser_click", &[&step]).unwrap();
//! assert!(r.include_snapshot); // click's default, not switched off
//! assert!(r.include_console);
//! ```

use crate::prelude::*;
use serde::{Deserialize, Serialize};

use crate::diff::{DiffOptions, DiffSettings};
use crate::{Error, Result};

mod pattern;

pub(crate) use pattern::compile_patterns;
pub use pattern::{ConsolePattern, MAX_PATTERNS, PATTERN_SIZE_LIMIT};
pub(crate) use pattern::{PatternError, PatternFlags, build_pattern};

/// Largest accepted `snapshotOptions.maxLength` (64 MiB).
pub const MAX_SNAPSHOT_LENGTH: usize = 64 * 1024 * 1024;
/// Largest accepted `consoleOptions.maxMessages`.
pub const MAX_CONSOLE_MESSAGES: usize = 100_000;
/// Largest accepted `imageOptions.maxWidth` / `maxHeight`.
pub const MAX_IMAGE_SIDE: u32 = 16_384;
/// Longest accepted `snapshotOptions.selector`.
pub const MAX_SELECTOR_LENGTH: usize = 1_000;

/// The expectation a caller sends. Every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Expectation {
    /// Include the page snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_snapshot: Option<bool>,
    /// Include console messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_console: Option<bool>,
    /// Include downloads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_downloads: Option<bool>,
    /// Include the list of open tabs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_tabs: Option<bool>,
    /// Include the code that was run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_code: Option<bool>,
    /// How the snapshot is cut and printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_options: Option<SnapshotOptions>,
    /// Which console messages are shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub console_options: Option<ConsoleOptions>,
    /// How images are resized and encoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_options: Option<ImageOptions>,
    /// Whether and how responses are diffed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff_options: Option<DiffOptions>,
}

/// `snapshotOptions`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotOptions {
    /// A ref (`e12`) or a role with an optional quoted name
    /// (`button "Submit"`): only the first matching subtree is shown. Hosts
    /// that can resolve CSS in the page also accept CSS.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Most characters of snapshot shown; cut at a line boundary with a
    /// marker saying what was left out. 1..=64 MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<usize>,
    /// `aria` (default), `text` or `html`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<SnapshotFormat>,
    /// How an aria snapshot's changes are shown when `diffOptions.enabled`
    /// is on: `patch` (default) or `lines`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<SnapshotDiff>,
    /// Whether a patch may restore elements shown in earlier responses of
    /// this chain by reference (`[e4 e5] as last shown`) instead of
    /// printing them again (default on). Turn it off when the host trims
    /// its context, so the agent may no longer have those responses: then
    /// only elements of the previous snapshot are named that way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restore: Option<bool>,
}

/// How the changes of an aria snapshot are shown (`snapshotOptions.diff`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SnapshotDiff {
    /// A snapshot patch addressed by ref ([`crate::tree::snapshot_patch`]):
    /// removed refs, changed elements as they are now, added subtrees with
    /// where they go. Used when it rebuilds the new snapshot exactly and is
    /// shorter than the line diff; otherwise the line diff (the default).
    #[default]
    Patch,
    /// Always the line diff of `diffOptions.format`.
    Lines,
}

/// How the snapshot is printed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SnapshotFormat {
    /// Playwright-style aria snapshot YAML (the default).
    #[default]
    Aria,
    /// The visible text, one line per text-bearing node.
    Text,
    /// The scope's outer HTML, as supplied by the host.
    Html,
}

/// A console level, as `consoleOptions.levels` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ConsoleLevel {
    /// `console.log` and anything without a more specific level.
    Log,
    /// `console.info`.
    Info,
    /// `console.warn` (Playwright's `warning`).
    Warn,
    /// `console.error`, uncaught errors, failed assertions.
    Error,
    /// `console.debug` and `console.trace`.
    Debug,
}

impl ConsoleLevel {
    /// Maps a browser's console type (`warning`, `assert`, `trace`, …) to a level.
    pub fn from_browser(kind: &str) -> ConsoleLevel {
        match kind.to_ascii_lowercase().as_str() {
            "error" | "assert" | "pageerror" => ConsoleLevel::Error,
            "warn" | "warning" => ConsoleLevel::Warn,
            "info" => ConsoleLevel::Info,
            "debug" | "trace" | "verbose" => ConsoleLevel::Debug,
            _ => ConsoleLevel::Log,
        }
    }

    /// The level's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ConsoleLevel::Log => "log",
            ConsoleLevel::Info => "info",
            ConsoleLevel::Warn => "warn",
            ConsoleLevel::Error => "error",
            ConsoleLevel::Debug => "debug",
        }
    }
}

/// `consoleOptions`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsoleOptions {
    /// Only these levels (default: all).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub levels: Option<Vec<ConsoleLevel>>,
    /// Keep the newest this many (after removing duplicates); 0..=100,000,
    /// default 10.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_messages: Option<usize>,
    /// Case-insensitive regexes; a message is kept when any matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patterns: Option<Vec<String>>,
    /// Collapse identical messages into one with a `(×N)` count (default true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remove_duplicates: Option<bool>,
}

/// `imageOptions`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImageOptions {
    /// 1..=100, for JPEG (WebP output is lossless and ignores it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<u32>,
    /// Resize to at most this width (keeping the aspect ratio, never upscaling).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_width: Option<u32>,
    /// Resize to at most this height (keeping the aspect ratio, never upscaling).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_height: Option<u32>,
    /// Re-encode as this format (default: keep the input's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<ImageFormat>,
}

/// An image encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ImageFormat {
    /// JPEG (lossy; honours `quality`).
    Jpeg,
    /// PNG (lossless).
    Png,
    /// WebP (lossless).
    Webp,
}

impl ImageFormat {
    /// The MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Png => "image/png",
            ImageFormat::Webp => "image/webp",
        }
    }
}

/// An expectation with every layer merged and every default filled in.
#[derive(Debug, Clone)]
pub struct ResolvedExpectation {
    /// Include the page snapshot.
    pub include_snapshot: bool,
    /// Include console messages.
    pub include_console: bool,
    /// Include downloads.
    pub include_downloads: bool,
    /// Include the list of open tabs.
    pub include_tabs: bool,
    /// Include the code that was run.
    pub include_code: bool,
    /// Snapshot options (selector and maxLength stay optional).
    pub snapshot: SnapshotOptions,
    /// Console filter, with patterns compiled.
    pub console: ConsoleFilter,
    /// Image options.
    pub image: ImageOptions,
    /// Diff settings.
    pub diff: DiffSettings,
}

impl ResolvedExpectation {
    /// The same settings as an explicit [`Expectation`] with every field
    /// set (its JSON is what the bindings return from a merge).
    pub fn to_expectation(&self) -> Expectation {
        let d = self.diff;
        Expectation {
            include_snapshot: Some(self.include_snapshot),
            include_console: Some(self.include_console),
            include_downloads: Some(self.include_downloads),
            include_tabs: Some(self.include_tabs),
            include_code: Some(self.include_code),
            snapshot_options: Some(SnapshotOptions {
                format: Some(self.snapshot_format()),
                diff: Some(self.snapshot.diff.unwrap_or_default()),
                ..self.snapshot.clone()
            }),
            console_options: Some(ConsoleOptions {
                levels: self.console.levels.clone(),
                max_messages: Some(self.console.max_messages),
                patterns: Some(
                    self.console
                        .patterns
                        .iter()
                        .map(|r| r.as_str().to_owned())
                        .collect(),
                ),
                remove_duplicates: Some(self.console.remove_duplicates),
            }),
            image_options: Some(self.image.clone()),
            diff_options: Some(DiffOptions {
                enabled: Some(d.enabled),
                threshold: Some(d.threshold),
                format: Some(d.format),
                max_diff_lines: Some(d.max_diff_lines),
                ignore_whitespace: Some(d.ignore_whitespace),
                context: Some(d.context),
            }),
        }
    }

    /// The snapshot format (default `aria`).
    pub fn snapshot_format(&self) -> SnapshotFormat {
        self.snapshot.format.unwrap_or_default()
    }
}

/// Resolved `consoleOptions`.
#[derive(Debug, Clone)]
pub struct ConsoleFilter {
    /// Allowed levels; `None` means all.
    pub levels: Option<Vec<ConsoleLevel>>,
    /// Newest messages kept.
    pub max_messages: usize,
    /// Compiled case-insensitive patterns; empty means all.
    pub patterns: Vec<ConsolePattern>,
    /// Collapse duplicates.
    pub remove_duplicates: bool,
}

impl ConsoleFilter {
    /// Whether a message of `level` with `text` passes the level and pattern filters.
    pub fn accepts(&self, level: ConsoleLevel, text: &str) -> bool {
        self.levels.as_ref().is_none_or(|l| l.contains(&level))
            && (self.patterns.is_empty() || self.patterns.iter().any(|p| p.is_match(text)))
    }
}

/// Default `consoleOptions.maxMessages`.
pub const DEFAULT_MAX_MESSAGES: usize = 10;

/// Strips a `browser_` prefix (and a server prefix such as `mcp__x__`).
fn short_tool_name(tool: &str) -> &str {
    let tool = tool.rsplit("__").next().unwrap_or(tool);
    tool.strip_prefix("browser_").unwrap_or(tool)
}

impl Expectation {
    /// Parses and validates JSON. Unknown keys, wrong types and out-of-range
    /// values are [`Error::InvalidOption`] naming the field
    /// (`expectation.consoleOptions.maxMessages`).
    pub fn from_json(json: &str) -> Result<Expectation> {
        Self::from_json_at(json, "expectation")
    }

    /// Like [`Expectation::from_json`], naming fields under `path`
    /// (`globalExpectation`, `steps[2].expectation`).
    pub fn from_json_at(json: &str, path: &str) -> Result<Expectation> {
        let e: Expectation = crate::json::from_str(json, path)?;
        e.validate(path)?;
        Ok(e)
    }

    /// Like [`Expectation::from_json_at`] for a parsed JSON value.
    pub fn from_value_at(value: &serde_json::Value, path: &str) -> Result<Expectation> {
        let e: Expectation = crate::json::from_value(value, path)?;
        e.validate(path)?;
        Ok(e)
    }

    /// The defaults of `tool` (with or without a `browser_` prefix):
    /// navigate, click, type, fill, select, hover, press_key and snapshot
    /// include the snapshot; take_screenshot does not; evaluate includes
    /// the console but not the snapshot. Every other section, and every
    /// section of an unknown tool, is on.
    pub fn tool_default(tool: &str) -> Expectation {
        let (snapshot, console) = match short_tool_name(tool) {
            "take_screenshot" | "screenshot" => (false, true),
            "evaluate" | "console_messages" => (false, true),
            _ => (true, true),
        };
        Expectation {
            include_snapshot: Some(snapshot),
            include_console: Some(console),
            include_downloads: Some(true),
            include_tabs: Some(true),
            include_code: Some(true),
            ..Expectation::default()
        }
    }

    /// Overlays the fields `over` sets, deeply: nested option objects merge
    /// field by field.
    pub fn merge(&mut self, over: &Expectation) {
        overlay!(self, over;
            include_snapshot, include_console, include_downloads, include_tabs, include_code);
        if let Some(o) = &over.snapshot_options {
            let s = self.snapshot_options.get_or_insert_with(Default::default);
            overlay!(s, o; selector, max_length, format, diff, restore);
        }
        if let Some(o) = &over.console_options {
            let c = self.console_options.get_or_insert_with(Default::default);
            overlay!(c, o; levels, max_messages, patterns, remove_duplicates);
        }
        if let Some(o) = &over.image_options {
            let i = self.image_options.get_or_insert_with(Default::default);
            overlay!(i, o; quality, max_width, max_height, format);
        }
        if let Some(o) = &over.diff_options {
            self.diff_options
                .get_or_insert_with(Default::default)
                .merge(o);
        }
    }

    /// Checks every range; `path` prefixes field names in errors.
    pub fn validate(&self, path: &str) -> Result<()> {
        use crate::diff::check_range;
        use crate::error::field_path;
        if let Some(s) = &self.snapshot_options {
            let p = field_path(path, "snapshotOptions");
            check_range(&p, "maxLength", s.max_length, 1, MAX_SNAPSHOT_LENGTH)?;
            if let Some(sel) = &s.selector
                && (sel.trim().is_empty() || sel.len() > MAX_SELECTOR_LENGTH)
            {
                return Err(Error::invalid_option(
                    field_path(&p, "selector"),
                    format!(
                        "must be a non-empty ref (e12) or role (button \"Submit\") of at most {MAX_SELECTOR_LENGTH} bytes"
                    ),
                ));
            }
        }
        if let Some(c) = &self.console_options {
            let p = field_path(path, "consoleOptions");
            check_range(&p, "maxMessages", c.max_messages, 0, MAX_CONSOLE_MESSAGES)?;
            compile_patterns(&p, c.patterns.as_deref().unwrap_or_default())?;
        }
        if let Some(i) = &self.image_options {
            let p = field_path(path, "imageOptions");
            let to_usize = |v: Option<u32>| v.map(|v| v as usize);
            check_range(&p, "quality", to_usize(i.quality), 1, 100)?;
            let side = MAX_IMAGE_SIDE as usize;
            check_range(&p, "maxWidth", to_usize(i.max_width), 1, side)?;
            check_range(&p, "maxHeight", to_usize(i.max_height), 1, side)?;
        }
        if let Some(d) = &self.diff_options {
            d.validate(&field_path(path, "diffOptions"))?;
        }
        Ok(())
    }

    /// Merges `tool`'s defaults with `layers` (lowest first) and fills in
    /// every remaining default.
    pub fn resolve(tool: &str, layers: &[&Expectation]) -> Result<ResolvedExpectation> {
        let mut e = Expectation::tool_default(tool);
        for layer in layers {
            e.merge(layer);
        }
        e.validate("expectation")?;
        let console = e.console_options.unwrap_or_default();
        let patterns = compile_patterns(
            "expectation.consoleOptions",
            console.patterns.as_deref().unwrap_or_default(),
        )?;
        Ok(ResolvedExpectation {
            include_snapshot: e.include_snapshot.unwrap_or(true),
            include_console: e.include_console.unwrap_or(true),
            include_downloads: e.include_downloads.unwrap_or(true),
            include_tabs: e.include_tabs.unwrap_or(true),
            include_code: e.include_code.unwrap_or(true),
            snapshot: e.snapshot_options.unwrap_or_default(),
            console: ConsoleFilter {
                levels: console.levels,
                max_messages: console.max_messages.unwrap_or(DEFAULT_MAX_MESSAGES),
                patterns,
                remove_duplicates: console.remove_duplicates.unwrap_or(true),
            },
            image: e.image_options.unwrap_or_default(),
            diff: e.diff_options.unwrap_or_default().resolve(),
        })
    }
}

#[cfg(test)]
mod tests;
