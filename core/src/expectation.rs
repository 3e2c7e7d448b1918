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

/// Largest accepted `snapshotOptions.maxLength` (64 MiB).
pub const MAX_SNAPSHOT_LENGTH: usize = 64 * 1024 * 1024;
/// Largest accepted `consoleOptions.maxMessages`.
pub const MAX_CONSOLE_MESSAGES: usize = 100_000;
/// Largest accepted `imageOptions.maxWidth` / `maxHeight`.
pub const MAX_IMAGE_SIDE: u32 = 16_384;
/// Most `consoleOptions.patterns`.
pub const MAX_PATTERNS: usize = 64;
/// Compiled size limit of one console pattern, so a pattern cannot take
/// unbounded memory or time.
pub const PATTERN_SIZE_LIMIT: usize = 1 << 20;
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

/// One compiled `consoleOptions.patterns` entry: a case-insensitive
/// regular expression in the syntax of the regex-lite crate (the regex
/// crate's syntax, with ASCII-only `\w`, `\d`, `\s`, `\b` and case
/// folding and no `\p{…}` classes; docs/DECISIONS.md D67). Needs the
/// `patterns` feature (default); without it, patterns are an error that
/// says so.
#[derive(Debug, Clone)]
pub struct ConsolePattern {
    #[cfg(feature = "patterns")]
    regex: regex_lite::Regex,
    /// Without the feature no pattern can be made, so none exists.
    #[cfg(not(feature = "patterns"))]
    never: core::convert::Infallible,
}

impl ConsolePattern {
    /// Whether the pattern matches somewhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        #[cfg(feature = "patterns")]
        return self.regex.is_match(text);
        #[cfg(not(feature = "patterns"))]
        {
            let _ = text;
            match self.never {}
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        #[cfg(feature = "patterns")]
        return self.regex.as_str();
        #[cfg(not(feature = "patterns"))]
        match self.never {}
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

fn compile_patterns(path: &str, patterns: &[String]) -> Result<Vec<ConsolePattern>> {
    if patterns.len() > MAX_PATTERNS {
        return Err(Error::invalid_option(
            format!("{path}.patterns"),
            format!(
                "{} patterns; at most {MAX_PATTERNS} are allowed",
                patterns.len()
            ),
        ));
    }
    patterns
        .iter()
        .enumerate()
        .map(|(i, p)| compile_pattern(&format!("{path}.patterns[{i}]"), p))
        .collect()
}

fn compile_pattern(field: &str, p: &str) -> Result<ConsolePattern> {
    let flags = PatternFlags {
        case_insensitive: true,
        ..PatternFlags::default()
    };
    build_pattern(p, flags).map_err(|e| match e {
        PatternError::Invalid(why) => {
            Error::invalid_option(field, format!("`{p}` is not a valid regex: {why}"))
        }
        PatternError::Unsupported => Error::invalid_option(
            field,
            "this build has no regex support (the response-diff crate's `patterns` feature is off): leave consoleOptions.patterns out, or use a build with the feature".to_owned(),
        ),
    })
}

/// How a pattern matches besides its text (the `/…/flags` of a search).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PatternFlags {
    pub(crate) case_insensitive: bool,
    pub(crate) multi_line: bool,
    pub(crate) dot_matches_new_line: bool,
}

/// Why a pattern could not be compiled.
#[derive(Debug)]
pub(crate) enum PatternError {
    /// Not a valid regex: the engine's own last line of explanation.
    #[cfg_attr(not(feature = "patterns"), allow(dead_code))]
    Invalid(String),
    /// The build has no regex engine (the `patterns` feature is off).
    #[cfg_attr(feature = "patterns", allow(dead_code))]
    Unsupported,
}

/// One regex of the caller's (console patterns, `browser_find`), on
/// regex-lite and capped at [`PATTERN_SIZE_LIMIT`].
#[cfg(feature = "patterns")]
pub(crate) fn build_pattern(
    p: &str,
    flags: PatternFlags,
) -> core::result::Result<ConsolePattern, PatternError> {
    regex_lite::RegexBuilder::new(p)
        .case_insensitive(flags.case_insensitive)
        .multi_line(flags.multi_line)
        .dot_matches_new_line(flags.dot_matches_new_line)
        .size_limit(PATTERN_SIZE_LIMIT)
        .build()
        .map(|regex| ConsolePattern { regex })
        .map_err(|e| {
            PatternError::Invalid(
                e.to_string()
                    .lines()
                    .last()
                    .unwrap_or("invalid")
                    .trim()
                    .to_owned(),
            )
        })
}

#[cfg(not(feature = "patterns"))]
pub(crate) fn build_pattern(
    _p: &str,
    _flags: PatternFlags,
) -> core::result::Result<ConsolePattern, PatternError> {
    Err(PatternError::Unsupported)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Field paths equal serde_path_to_error's, which `crate::json`
    /// replaced (docs/DECISIONS.md D67), on mutations of a full
    /// expectation, as a `Value` and as text.
    #[test]
    fn paths_agree_with_serde_path_to_error() {
        use crate::json::tests::{agree, agree_text};
        let expectation = serde_json::json!({
            "includeSnapshot": true, "includeConsole": false, "includeDownloads": true,
            "includeTabs": false, "includeCode": true,
            "snapshotOptions": {"selector": "main", "maxLength": 1000, "format": "aria"},
            "consoleOptions": {"levels": ["error", "warn"], "maxMessages": 5,
                               "patterns": [], "removeDuplicates": true},
            "imageOptions": {"quality": 50, "maxWidth": 100, "maxHeight": 100, "format": "jpeg"},
            "diffOptions": {"enabled": true, "threshold": 0.5, "format": "unified",
                            "maxDiffLines": 10, "ignoreWhitespace": false, "context": 2}
        });
        assert!(Expectation::deserialize(&expectation).is_ok());
        assert!(agree::<Expectation>(&expectation, 5) > 1_000);
        assert!(agree_text::<Expectation>(&expectation, 6) > 1_000);
    }

    fn err_field(json: &str) -> String {
        match Expectation::from_json(json) {
            Err(Error::InvalidOption { field, .. }) => field,
            other => panic!("expected InvalidOption for {json}, got {other:?}"),
        }
    }

    #[test]
    fn partial_object_keeps_tool_defaults() {
        let e = Expectation::from_json(r#"{"includeConsole": false}"#).unwrap();
        let r = Expectation::resolve("browser_navigate", &[&e]).unwrap();
        assert!(r.include_snapshot && !r.include_console && r.include_tabs);
        let r = Expectation::resolve("browser_take_screenshot", &[&e]).unwrap();
        assert!(!r.include_snapshot);
        let r = Expectation::resolve("browser_evaluate", &[]).unwrap();
        assert!(!r.include_snapshot && r.include_console);
        let r = Expectation::resolve("some_new_tool", &[]).unwrap();
        assert!(r.include_snapshot && r.include_console && r.include_code);
    }

    #[test]
    fn deep_merge_field_by_field() {
        let global = Expectation::from_json(
            r#"{"diffOptions": {"enabled": true, "context": 1},
                "consoleOptions": {"levels": ["error"], "maxMessages": 3}}"#,
        )
        .unwrap();
        let step = Expectation::from_json(
            r#"{"diffOptions": {"format": "minimal"}, "consoleOptions": {"maxMessages": 5}}"#,
        )
        .unwrap();
        let r = Expectation::resolve("click", &[&global, &step]).unwrap();
        assert!(r.diff.enabled);
        assert_eq!(r.diff.context, 1);
        assert_eq!(r.diff.format, crate::diff::DiffFormat::Minimal);
        assert_eq!(r.diff.max_diff_lines, 50);
        assert_eq!(r.console.levels, Some(vec![ConsoleLevel::Error]));
        assert_eq!(r.console.max_messages, 5);
    }

    #[test]
    fn every_validation_error_names_its_field() {
        let cases = [
            (
                r#"{"includeSnapshots": true}"#,
                "expectation.includeSnapshots",
            ),
            (
                r#"{"includeSnapshot": "yes"}"#,
                "expectation.includeSnapshot",
            ),
            (
                r#"{"snapshotOptions": {"maxLength": 0}}"#,
                "expectation.snapshotOptions.maxLength",
            ),
            (
                r#"{"snapshotOptions": {"format": "xml"}}"#,
                "expectation.snapshotOptions.format",
            ),
            (
                r#"{"snapshotOptions": {"selector": ""}}"#,
                "expectation.snapshotOptions.selector",
            ),
            (
                r#"{"snapshotOptions": {"colour": 1}}"#,
                "expectation.snapshotOptions.colour",
            ),
            (
                r#"{"consoleOptions": {"levels": ["log", "fatal"]}}"#,
                "expectation.consoleOptions.levels[1]",
            ),
            (
                r#"{"consoleOptions": {"maxMessages": -1}}"#,
                "expectation.consoleOptions.maxMessages",
            ),
            (
                r#"{"consoleOptions": {"maxMessages": 100001}}"#,
                "expectation.consoleOptions.maxMessages",
            ),
            (
                r#"{"consoleOptions": {"patterns": ["ok", "("]}}"#,
                "expectation.consoleOptions.patterns[1]",
            ),
            (
                r#"{"imageOptions": {"quality": 0}}"#,
                "expectation.imageOptions.quality",
            ),
            (
                r#"{"imageOptions": {"quality": 101}}"#,
                "expectation.imageOptions.quality",
            ),
            (
                r#"{"imageOptions": {"maxWidth": 0}}"#,
                "expectation.imageOptions.maxWidth",
            ),
            (
                r#"{"imageOptions": {"maxHeight": 99999}}"#,
                "expectation.imageOptions.maxHeight",
            ),
            (
                r#"{"imageOptions": {"format": "gif"}}"#,
                "expectation.imageOptions.format",
            ),
            (
                r#"{"diffOptions": {"threshold": 1.5}}"#,
                "expectation.diffOptions.threshold",
            ),
            (
                r#"{"diffOptions": {"threshold": -0.1}}"#,
                "expectation.diffOptions.threshold",
            ),
            (
                r#"{"diffOptions": {"maxDiffLines": 0}}"#,
                "expectation.diffOptions.maxDiffLines",
            ),
            (
                r#"{"diffOptions": {"context": 1e9}}"#,
                "expectation.diffOptions.context",
            ),
            (
                r#"{"diffOptions": {"context": 5000}}"#,
                "expectation.diffOptions.context",
            ),
            (
                r#"{"diffOptions": {"format": "side-by-side"}}"#,
                "expectation.diffOptions.format",
            ),
            (
                r#"{"diffOptions": {"enable": true}}"#,
                "expectation.diffOptions.enable",
            ),
        ];
        for (json, field) in cases {
            if !cfg!(feature = "patterns") && json.contains("patterns") {
                continue; // tests::patterns_need_the_feature
            }
            assert_eq!(err_field(json), field, "for {json}");
        }
    }

    #[test]
    fn unknown_key_message_lists_the_allowed_ones() {
        let e = Expectation::from_json(r#"{"includeSnapshots": true}"#).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("includeSnapshots") && msg.contains("includeSnapshot`"),
            "{msg}"
        );
    }

    #[test]
    fn non_objects_and_truncated_json_are_reported_as_such() {
        match Expectation::from_json("[true, 2") {
            Err(Error::Parse { what: "JSON", .. }) => {}
            other => panic!("{other:?}"),
        }
        match Expectation::from_json("[true]") {
            Err(Error::InvalidOption { field, message }) => {
                assert_eq!(field, "expectation");
                assert_eq!(message, "must be a JSON object, got an array");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_json_is_a_parse_error_with_a_line() {
        match Expectation::from_json("{\n\"includeSnapshot\": tru}") {
            Err(Error::Parse { line: 2, .. }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[cfg(not(feature = "patterns"))]
    #[test]
    fn patterns_need_the_feature() {
        let e = Expectation::from_json(r#"{"consoleOptions": {"patterns": ["^fail"]}}"#);
        match e {
            Err(Error::InvalidOption { field, message }) => {
                assert_eq!(field, "expectation.consoleOptions.patterns[0]");
                assert!(message.contains("`patterns` feature"), "{message}");
            }
            other => panic!("expected InvalidOption, got {other:?}"),
        }
        // No patterns: fine.
        assert!(Expectation::from_json(r#"{"consoleOptions": {"patterns": []}}"#).is_ok());
    }

    #[cfg(feature = "patterns")]
    #[test]
    fn console_filter_levels_and_patterns() {
        let e = Expectation::from_json(
            r#"{"consoleOptions": {"levels": ["error", "warn"], "patterns": ["^fail", "TIMEOUT"]}}"#,
        )
        .unwrap();
        let r = Expectation::resolve("click", &[&e]).unwrap();
        assert!(r.console.accepts(ConsoleLevel::Error, "Failed to load"));
        assert!(r.console.accepts(ConsoleLevel::Warn, "request timeout"));
        assert!(!r.console.accepts(ConsoleLevel::Log, "failed"));
        assert!(!r.console.accepts(ConsoleLevel::Error, "all good"));
        assert_eq!(ConsoleLevel::from_browser("warning"), ConsoleLevel::Warn);
    }

    #[test]
    fn tool_names_with_server_prefixes() {
        let r = Expectation::resolve("mcp__browser__browser_take_screenshot", &[]).unwrap();
        assert!(!r.include_snapshot);
    }
}
