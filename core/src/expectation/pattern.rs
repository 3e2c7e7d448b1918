//! Console patterns and `browser_find`'s regexes: the caller's regular
//! expressions compiled on regex-lite, capped, with errors that name the
//! field (docs/DECISIONS.md D67).

use crate::prelude::*;
use crate::{Error, Result};

/// Most `consoleOptions.patterns`.
pub const MAX_PATTERNS: usize = 64;
/// Compiled size limit of one console pattern, so a pattern cannot take
/// unbounded memory or time.
pub const PATTERN_SIZE_LIMIT: usize = 1 << 20;

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

pub(crate) fn compile_patterns(path: &str, patterns: &[String]) -> Result<Vec<ConsolePattern>> {
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
