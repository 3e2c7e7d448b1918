//! Token counting.
//!
//! The library's cheap default is an *estimate*: UTF-8 bytes / 4, rounded
//! up. It is labelled as such wherever it is reported. Reports and
//! benchmarks count with a real BPE tokenizer (o200k) outside the core.

/// Estimated token count of `text`: UTF-8 bytes / 4, rounded up.
///
/// ```
/// assert_eq!(response_diff::tokens::estimate("abcdefgh"), 2);
/// assert_eq!(response_diff::tokens::estimate(""), 0);
/// ```
pub fn estimate(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// The label to print next to [`estimate`] counts.
pub const ESTIMATE_LABEL: &str = "estimated tokens (bytes/4)";
