//! [`SharedText`]: a stored response text, shared rather than copied.

use core::fmt;

use crate::prelude::*;
use alloc::sync::Arc;

/// A text the detector keeps (see
/// [`ResponseDiffDetector::previous`](super::ResponseDiffDetector::previous)):
/// shared, so handing it out copies nothing; reads as a `&str`
/// (`Deref`). Held as a `String` so that the detector can reuse a large
/// text's buffer for a later one once nothing else holds it.
///
/// ```
/// use response_diff::diff::{DiffSettings, ResponseDiffDetector};
/// let d = ResponseDiffDetector::new();
/// d.store("tab", "a\n").unwrap();
/// let t = d.previous("tab").unwrap();
/// assert_eq!(&*t, "a\n");
/// assert_eq!(t.lines().count(), 1);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct SharedText(pub(crate) Arc<String>);

impl SharedText {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl core::ops::Deref for SharedText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SharedText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for SharedText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SharedText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}
