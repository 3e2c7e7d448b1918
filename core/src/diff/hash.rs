//! The content hash of a response text in a diff result's metadata
//! (docs/DECISIONS.md D35): blake3, 16 hex digits, computed when first
//! read. Hashing a 2.6 MB page costs more than diffing it after a one-line
//! change, and most callers (the MCP server, the CLI) never read the hash.

use crate::prelude::*;
use alloc::sync::Arc;
use core::fmt;

use crate::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// blake3 of `text` as 16 hex digits.
pub fn short_hash(text: &str) -> String {
    let h = blake3::hash(text.as_bytes());
    h.to_hex()[..16].to_owned()
}

/// [`short_hash`] of a text, computed on first use and then kept: reads as
/// a `&str` (`Deref`, [`ContentHash::as_str`]), compares, prints and
/// serializes as the hex string. A result that holds one keeps its text
/// alive until the hash is computed or the result dropped.
///
/// ```
/// use response_diff::diff::{ContentHash, short_hash};
/// let h = ContentHash::from(short_hash("a\n"));
/// assert_eq!(h.as_str(), short_hash("a\n"));
/// assert_eq!(h.len(), 16);
/// ```
#[derive(Clone)]
pub struct ContentHash {
    text: Option<Text>,
    hex: Arc<OnceLock<String>>,
}

/// The text a [`ContentHash`] is computed from: the detector stores texts
/// as `String`s (to reuse their buffers), callers share `str`s.
#[derive(Clone)]
enum Text {
    Str(Arc<str>),
    String(Arc<String>),
}

impl ContentHash {
    /// The hash of `text`, computed when first read; `cache` is shared with
    /// whoever else holds the same text (the detector's store), so a text
    /// is hashed at most once.
    pub(crate) fn lazy(text: Arc<str>, cache: Arc<OnceLock<String>>) -> Self {
        ContentHash {
            text: Some(Text::Str(text)),
            hex: cache,
        }
    }

    /// [`ContentHash::lazy`] of a stored text.
    pub(crate) fn lazy_owned(text: Arc<String>, cache: Arc<OnceLock<String>>) -> Self {
        ContentHash {
            text: Some(Text::String(text)),
            hex: cache,
        }
    }

    /// The 16 hex digits (computing them on first use).
    pub fn as_str(&self) -> &str {
        self.hex.get_or_init(|| match &self.text {
            Some(Text::Str(t)) => short_hash(t),
            Some(Text::String(t)) => short_hash(t),
            // `From<String>` always fills the cache.
            None => String::new(),
        })
    }
}

impl From<String> for ContentHash {
    fn from(hex: String) -> Self {
        ContentHash {
            text: None,
            hex: Arc::new(OnceLock::from(hex)),
        }
    }
}

impl core::ops::Deref for ContentHash {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for ContentHash {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for ContentHash {}

impl PartialEq<str> for ContentHash {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ContentHash {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ContentHash {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(ContentHash::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_hash_is_computed_once_and_shared() {
        let text: Arc<str> = Arc::from("a\nb\n");
        let cache = Arc::new(OnceLock::new());
        let h = ContentHash::lazy(text.clone(), cache.clone());
        assert!(cache.get().is_none(), "not hashed until read");
        assert_eq!(h.as_str(), short_hash("a\nb\n"));
        assert_eq!(cache.get().map(String::as_str), Some(h.as_str()));
        assert_eq!(h, ContentHash::from(short_hash(&text)));
        assert_eq!(serde_json::to_string(&h).unwrap(), format!("\"{h}\""));
    }
}
