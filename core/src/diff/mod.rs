//! Response diff (docs/DECISIONS.md D6–D9): compare a response with the previous one for
//! the same key and return a diff, a one-line "unchanged", or the full text
//! when a diff would not help.
//!
//! The line diff trims the common prefix and suffix as bytes first, so a
//! few changes in a large text cost little more than reading it, then runs
//! imara-diff's Myers diff on the remaining lines, interned to integers. The
//! search is bounded by work, so a result is a pure function of the texts
//! and options; a wall-clock deadline is only an explicit caller option.

mod detector;
mod format;
mod hash;
mod lines;
mod options;
mod store;
mod text;
#[cfg(feature = "std")]
mod window;

pub use detector::{
    DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_STORED_BYTES, DetectorConfig, DiffMetadata, DiffMode,
    DiffResult, ResponseDiffDetector, compare_shared, compare_texts,
};
pub(crate) use detector::{diff_is_small, over_max_diff_lines};
#[cfg(feature = "std")]
pub use detector::{write_answer, write_answer_releasing};
pub use format::format_diff;
pub use hash::{ContentHash, short_hash};
pub(crate) use options::check_range;
pub use options::{DiffFormat, DiffOptions, DiffSettings, MAX_CONTEXT, MAX_DIFF_LINES};
pub use text::SharedText;

/// The line diff engine and its formatter, for [`crate::__internals`]:
/// not part of the public API.
pub(crate) mod engine {
    pub use super::format::{DiffFormatter, Formatted};
    pub use super::lines::{
        BUDGET_MIN_CHANGES, EngineOptions, LineDiff, count_lines, normalize_whitespace, split_lines,
    };
}
