//! Keyed response storage with a byte cap; least recently used keys go first.
//!
//! A large text's buffer is reused for the next large text stored (see
//! [`Store::take_buffer`]): copying a 7 MB page into fresh memory cost more
//! in page faults (one per 4 KiB) than the whole diff did.

use crate::prelude::*;
use alloc::sync::Arc;

use crate::lru::LruCache;

use super::SharedText;

/// Bytes charged per stored entry on top of its key and text (the map
/// entry, the `Arc` headers and the hash), so many tiny entries cannot grow
/// memory unnoticed.
pub(crate) const ENTRY_OVERHEAD: usize = 96;

/// Texts at least this long (the size from which glibc's malloc serves
/// fresh pages) leave their buffer to the next text stored.
pub(crate) const RECYCLE_MIN: usize = 256 * 1024;

/// A stored response.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// Shared with results that defer hashing it; a `String`, so its
    /// buffer can be reused once nothing else holds it.
    pub text: SharedText,
    /// [`super::short_hash`] of `text`, computed when a result's metadata
    /// is first read (docs/DECISIONS.md D35), and shared with every result
    /// that holds it, so a stored text is hashed at most once.
    pub hash: Arc<crate::sync::OnceLock<String>>,
}

impl Entry {
    /// An entry for `text`, not yet hashed.
    pub fn new(text: SharedText) -> Self {
        Entry {
            text,
            hash: Default::default(),
        }
    }

    /// The text's short hash, computed when first read.
    pub fn content_hash(&self) -> super::ContentHash {
        super::ContentHash::lazy_owned(self.text.0.clone(), self.hash.clone())
    }

    /// Bytes charged for `key` and a text buffer of `capacity` bytes.
    fn cost(key: &str, capacity: usize) -> usize {
        key.len() + capacity + ENTRY_OVERHEAD
    }
}

/// `text` in a buffer of its own: `buffer` (from [`Store::take_buffer`])
/// when there is one, else fresh memory with `slack` spare bytes, so that
/// it can take a slightly longer text later.
pub(crate) fn fill(buffer: Option<SharedText>, text: &str, slack: usize) -> SharedText {
    if let Some(mut b) = buffer
        && let Some(s) = Arc::get_mut(&mut b.0)
    {
        s.clear();
        s.push_str(text);
        return b;
    }
    let mut s = String::with_capacity(text.len() + slack);
    s.push_str(text);
    SharedText(Arc::new(s))
}

/// An LRU map from key to text whose total cost never exceeds `cap`.
#[derive(Debug)]
pub(crate) struct Store {
    map: LruCache<String, Entry>,
    used: usize,
    cap: usize,
    /// The buffer of the last large text replaced or evicted, for the next
    /// one stored; counted against the cap with the entries.
    spare: Option<SharedText>,
}

impl Store {
    pub fn new(cap: usize) -> Self {
        Store {
            map: LruCache::unbounded(),
            used: 0,
            cap,
            spare: None,
        }
    }

    /// The entry for `key`, marking it recently used.
    pub fn get(&mut self, key: &str) -> Option<Entry> {
        self.map.get(key).cloned()
    }

    /// A buffer for a `len`-byte text stored under `key`: the spare when
    /// nothing else holds it any more (a result that defers its hash can)
    /// and it is at most 1/16 larger than needed. `None` asks for fresh
    /// memory; the second value is the slack to give it (a large text
    /// gets 1/64 more, as far as the cap allows, so that its buffer fits
    /// the next version of the page, which is rarely the same length).
    pub fn take_buffer(&mut self, key: &str, len: usize) -> (Option<SharedText>, usize) {
        let mut reuse = None;
        if let Some(b) = self.spare.take() {
            self.used -= b.0.capacity();
            let fits = (len..=len + len / 16).contains(&b.0.capacity())
                && Entry::cost(key, b.0.capacity()) <= self.cap;
            if fits && Arc::strong_count(&b.0) == 1 {
                reuse = Some(b);
            }
        }
        let slack = if len >= RECYCLE_MIN {
            (len / 64).min(self.cap.saturating_sub(Entry::cost(key, len)))
        } else {
            0
        };
        (reuse, slack)
    }

    /// Stores `entry` under `key`, evicting least recently used keys to stay
    /// under the cap. A text that alone exceeds the cap is not stored, and
    /// any older entry for the key is dropped so that no later diff is made
    /// against a stale state. Returns whether it was stored.
    pub fn put(&mut self, key: &str, entry: Entry) -> bool {
        if let Some(old) = self.pop(key)
            && old.text.0.capacity() >= RECYCLE_MIN
        {
            // The replaced text's buffer, for the next text stored.
            if let Some(b) = self.spare.replace(old.text.clone()) {
                self.used -= b.0.capacity();
            }
            self.used += old.text.0.capacity();
        }
        let cost = Entry::cost(key, entry.text.0.capacity());
        if cost > self.cap {
            return false;
        }
        while self.used + cost > self.cap {
            if let Some(b) = self.spare.take() {
                self.used -= b.0.capacity();
                continue;
            }
            match self.map.pop_lru() {
                Some((k, e)) => self.used -= Entry::cost(&k, e.text.0.capacity()),
                None => break,
            }
        }
        self.used += cost;
        self.map.put(key.to_owned(), entry);
        true
    }

    fn pop(&mut self, key: &str) -> Option<Entry> {
        let e = self.map.pop(key)?;
        self.used -= Entry::cost(key, e.text.0.capacity());
        Some(e)
    }

    pub fn remove(&mut self, key: &str) -> bool {
        self.pop(key).is_some()
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.spare = None;
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
        Entry::new(SharedText(Arc::new(text.to_owned())))
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

    #[test]
    fn a_large_buffer_is_reused_once_nothing_else_holds_it() {
        let cap = 4 * RECYCLE_MIN;
        let mut s = Store::new(cap);
        let (a, b) = ("x".repeat(RECYCLE_MIN), "y".repeat(RECYCLE_MIN + 10));
        let put = |s: &mut Store, text: &str| {
            let (buf, slack) = s.take_buffer("k", text.len());
            let reused = buf.is_some();
            let t = fill(buf, text, slack);
            assert!(s.put("k", Entry::new(t.clone())));
            assert!(s.used() <= cap);
            (t, reused)
        };
        let (first, reused) = put(&mut s, &a);
        assert!(!reused);
        assert_eq!(first.0.capacity(), a.len() + a.len() / 64);
        // `first` is still held (as a result deferring its hash would):
        // its buffer waits as the spare but is not reused.
        let (second, reused) = put(&mut s, &b);
        assert!(!reused);
        let (_, reused) = put(&mut s, &a);
        assert!(!reused, "a shared buffer is never written");
        assert_eq!(*first, a);
        drop(first);
        // Now the spare is `second`'s buffer, held by nobody else once
        // `second` is dropped: the next text is copied into it.
        let ptr = second.as_ptr();
        drop(second);
        let (third, reused) = put(&mut s, &b);
        assert!(reused);
        assert_eq!((third.as_ptr(), third.as_str()), (ptr, b.as_str()));
        s.clear();
        assert_eq!(s.used(), 0);
    }
}
