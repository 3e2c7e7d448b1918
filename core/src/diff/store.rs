//! Keyed response storage with a byte cap; least recently used keys go first.

use crate::prelude::*;
use alloc::sync::Arc;

use lru::LruCache;

/// Bytes charged per stored entry on top of its key and text (the map
/// entry, the `Arc` header and the hash), so many tiny entries cannot grow
/// memory unnoticed.
pub(crate) const ENTRY_OVERHEAD: usize = 96;

/// A stored response.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub text: Arc<str>,
    /// [`super::short_hash`] of `text`, computed when a result's metadata
    /// is first read (docs/DECISIONS.md D35), and shared with every result
    /// that holds it, so a stored text is hashed at most once.
    pub hash: Arc<crate::sync::OnceLock<String>>,
}

impl Entry {
    /// The text's short hash, computed when first read.
    pub fn content_hash(&self) -> super::ContentHash {
        super::ContentHash::lazy(self.text.clone(), self.hash.clone())
    }
}

impl Entry {
    fn cost(key: &str, text: &str) -> usize {
        key.len() + text.len() + ENTRY_OVERHEAD
    }
}

/// An LRU map from key to text whose total cost never exceeds `cap`.
#[derive(Debug)]
pub(crate) struct Store {
    map: LruCache<String, Entry>,
    used: usize,
    cap: usize,
}

impl Store {
    pub fn new(cap: usize) -> Self {
        Store {
            map: LruCache::unbounded(),
            used: 0,
            cap,
        }
    }

    /// The entry for `key`, marking it recently used.
    pub fn get(&mut self, key: &str) -> Option<Entry> {
        self.map.get(key).cloned()
    }

    /// Stores `text` under `key`, evicting least recently used keys to stay
    /// under the cap. A text that alone exceeds the cap is not stored, and
    /// any older entry for the key is dropped so that no later diff is made
    /// against a stale state. Returns whether it was stored.
    pub fn put(&mut self, key: &str, entry: Entry) -> bool {
        self.remove(key);
        let cost = Entry::cost(key, &entry.text);
        if cost > self.cap {
            return false;
        }
        while self.used + cost > self.cap {
            match self.map.pop_lru() {
                Some((k, e)) => self.used -= Entry::cost(&k, &e.text),
                None => break,
            }
        }
        self.used += cost;
        self.map.put(key.to_owned(), entry);
        true
    }

    pub fn remove(&mut self, key: &str) -> bool {
        match self.map.pop(key) {
            Some(e) => {
                self.used -= Entry::cost(key, &e.text);
                true
            }
            None => false,
        }
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.used = 0;
    }

    pub fn used(&self) -> usize {
        self.used
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(text: &str) -> Entry {
        Entry {
            text: text.into(),
            hash: Default::default(),
        }
    }

    #[test]
    fn evicts_least_recently_used() {
        let mut s = Store::new(3 * (ENTRY_OVERHEAD + 2));
        assert!(s.put("a", e("1")));
        assert!(s.put("b", e("1")));
        assert!(s.put("c", e("1")));
        s.get("a");
        assert!(s.put("d", e("1")));
        assert!(s.get("b").is_none());
        assert!(s.get("a").is_some());
        assert!(s.used() <= 3 * (ENTRY_OVERHEAD + 2));
    }

    #[test]
    fn refuses_oversized_and_drops_stale() {
        let mut s = Store::new(ENTRY_OVERHEAD + 10);
        assert!(s.put("k", e("small")));
        assert!(!s.put("k", e("this text is too long")));
        assert!(s.get("k").is_none());
        assert_eq!(s.used(), 0);
    }
}
