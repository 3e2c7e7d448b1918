//! The diff chain a response belongs to: where its snapshots are kept
//! ([`DiffTarget`]), and the lean envelope, which leaves out a section the
//! chain showed last and that has not changed since.

use crate::diff::{ResponseDiffDetector, SharedText};
use crate::prelude::*;

/// Where the snapshot diff is kept: a detector and the host's key for the
/// page (e.g. the tab id). Only used when `diffOptions.enabled` is on.
#[derive(Debug, Clone, Copy)]
pub struct DiffTarget<'a> {
    /// The detector holding previous snapshots.
    pub detector: &'a ResponseDiffDetector,
    /// The page's key; the snapshot view (format, selector) is appended so
    /// different views do not break each other's chain.
    pub key: &'a str,
}

/// Whether `body` is what the previous diffed response for the same key
/// showed in section `name`; records it as shown. The lean envelope (issue
/// 15): an agent that diffs keeps what it was shown, so repeating the page
/// URL and title, or the tab list, after every action costs tokens and
/// says nothing. Lossless because the comparison is with what this chain
/// showed last (a peek with diffing off neither reads nor moves it), and a
/// change shows the section again.
/// What the previous diffed response for the same key showed in section
/// `name`, if any.
pub(super) fn previously_shown(chain: Option<DiffTarget<'_>>, name: &str) -> Option<SharedText> {
    let target = chain?;
    target
        .detector
        .previous(&format!("{}\u{1f}section\u{1f}{name}", target.key))
}

/// The lean envelope for a section the host prints itself (a wrapper that
/// keeps another server's `### Page`): whether `body` is what the last
/// response with diffing on showed in section `name` under the key, so it
/// can be left out; records `body` as shown. Call it only for responses
/// with diffing on, as [`render`] does, so a peek with diffing off neither
/// reads nor moves it. `name` must not be `page` or `tabs`, the sections
/// [`render`] keeps this way itself.
///
/// ```
/// use response_diff::diff::ResponseDiffDetector;
/// use response_diff::response::{section_unchanged, DiffTarget};
///
/// let detector = ResponseDiffDetector::default();
/// let target = DiffTarget { detector: &detector, key: "tab-1" };
/// assert!(!section_unchanged(target, "Page", "- Page URL: http://127.0.0.1/"));
/// assert!(section_unchanged(target, "Page", "- Page URL: http://127.0.0.1/"));
/// assert!(!section_unchanged(target, "Page", "- Page URL: http://127.0.0.1/cart"));
/// ```
///
/// [`render`]: super::render
pub fn section_unchanged(target: DiffTarget<'_>, name: &str, body: &str) -> bool {
    unchanged_since_shown(Some(target), name, body)
}

pub(super) fn unchanged_since_shown(chain: Option<DiffTarget<'_>>, name: &str, body: &str) -> bool {
    let Some(target) = chain else {
        return false;
    };
    let key = format!("{}\u{1f}section\u{1f}{name}", target.key);
    if target.detector.previous(&key).as_deref() == Some(body) {
        return true;
    }
    // A body over the store cap is simply shown again next time.
    let _ = target.detector.store(&key, body);
    false
}
