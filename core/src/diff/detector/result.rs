//! What a comparison returns: the mode, the text to show, and the counts
//! and hashes.

use crate::prelude::*;

use serde::{Deserialize, Serialize};

use crate::diff::hash::ContentHash;

/// What the caller gets back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum DiffMode {
    /// Nothing was stored for the key: the full text.
    First,
    /// Identical (after `ignoreWhitespace`): one line.
    Unchanged,
    /// The formatted diff with a one-line header.
    Diff,
    /// The full text with a one-line note saying why it is not a diff.
    Full,
}

impl DiffMode {
    /// The name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            DiffMode::First => "first",
            DiffMode::Unchanged => "unchanged",
            DiffMode::Diff => "diff",
            DiffMode::Full => "full",
        }
    }
}

/// Counts and hashes that describe a [`DiffResult`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffMetadata {
    /// Lines only in the current text.
    pub added_lines: usize,
    /// Lines only in the previous text.
    pub removed_lines: usize,
    /// Unchanged lines shown as context in `formattedDiff` (0 in `full`,
    /// which shows none).
    pub context_lines: usize,
    /// Lines in the current text.
    pub total_lines: usize,
    /// blake3 of the previous text, 16 hex digits; `None` for `first`.
    /// Computed when first read (docs/DECISIONS.md D35).
    pub previous_hash: Option<ContentHash>,
    /// blake3 of the current text, 16 hex digits, computed when first read.
    pub current_hash: ContentHash,
    /// Whether the current text was stored for the next call (false when it
    /// alone is over the store cap).
    pub stored: bool,
    /// Whether the line search's work bound (or the caller's explicit
    /// `deadlineMs`) may have cut it short before the diff was provably
    /// minimal: the diff is still correct, but may be larger than needed.
    /// Without `deadlineMs` it is a pure function of the texts and options.
    pub budget_exhausted: bool,
    /// Whether the counts are exact. Always true from the detector, which
    /// always runs the search (`maxDiffLines` never skips it, since only
    /// the real diff tells whether it is the smaller answer); false only
    /// when the line engine runs under a `max_changes` cap, which the
    /// detector never sets.
    pub exact: bool,
}

/// The outcome of comparing a response with the previous one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffResult {
    /// Whether the texts differ (false for `first` and `unchanged`).
    pub has_difference: bool,
    /// Unchanged lines / max(previous lines, current lines).
    pub similarity: f64,
    /// 1 − similarity.
    pub change_ratio: f64,
    /// Which of the four answers this is.
    pub mode: DiffMode,
    /// What to show the agent.
    pub formatted_diff: String,
    /// Counts and hashes.
    pub metadata: DiffMetadata,
}
