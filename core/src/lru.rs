//! A least-recently-used map on hashbrown: the stores' per-key eviction
//! order (ref carrier, `since` store, baseline store).
//!
//! Written here rather than taken from the `lru` crate (docs/DECISIONS.md
//! D66): the core's `no_std` build stays on serde, serde_json, similar,
//! blake3 and hashbrown, and what the stores need is a few dozen lines
//! without `unsafe`: entries live in a slab (`Vec`) linked from most to
//! least recently used by index, and a hashbrown [`HashTable`] of slab
//! indices finds them by key, hashed with the core's fixed-seed foldhash.
//! The API is the subset of `lru::LruCache` the stores used, with its
//! semantics; the tests check it against that crate.

// Without `std` only the ref carrier uses it, and not every method.
#![cfg_attr(not(feature = "std"), allow(dead_code))]

// Not the prelude: it re-exports this module.
use alloc::vec::Vec;
use core::borrow::Borrow;
use core::hash::{BuildHasher, Hash};
use core::num::NonZeroUsize;

use foldhash::fast::FixedState;
use hashbrown::HashTable;

/// No slot: the end of the list.
const NIL: usize = usize::MAX;

struct Slot<K, V> {
    key: K,
    value: V,
    /// Towards the most recently used end.
    newer: usize,
    /// Towards the least recently used end.
    older: usize,
}

/// A map that remembers the order in which its keys were last used and,
/// at capacity, drops the least recently used one to make room.
pub struct LruCache<K, V> {
    table: HashTable<usize>,
    slots: Vec<Option<Slot<K, V>>>,
    free: Vec<usize>,
    /// Most recently used.
    newest: usize,
    /// Least recently used.
    oldest: usize,
    cap: usize,
    hasher: FixedState,
}

impl<K: Hash + Eq, V> LruCache<K, V> {
    /// A map holding at most `cap` entries.
    pub fn new(cap: NonZeroUsize) -> Self {
        Self::with_cap(cap.get())
    }

    /// A map without a capacity (the caller evicts).
    pub fn unbounded() -> Self {
        Self::with_cap(usize::MAX)
    }

    fn with_cap(cap: usize) -> Self {
        LruCache {
            table: HashTable::new(),
            slots: Vec::new(),
            free: Vec::new(),
            newest: NIL,
            oldest: NIL,
            cap,
            hasher: FixedState::default(),
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether no entry is held.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    fn slot(&self, i: usize) -> &Slot<K, V> {
        self.slots[i].as_ref().expect("a linked slot is occupied")
    }

    fn slot_mut(&mut self, i: usize) -> &mut Slot<K, V> {
        self.slots[i].as_mut().expect("a linked slot is occupied")
    }

    fn find<Q>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let slots = &self.slots;
        self.table
            .find(self.hasher.hash_one(key), |&i| {
                slots[i].as_ref().is_some_and(|s| s.key.borrow() == key)
            })
            .copied()
    }

    /// Takes slot `i` out of the recency list.
    fn unlink(&mut self, i: usize) {
        let (newer, older) = {
            let s = self.slot(i);
            (s.newer, s.older)
        };
        match newer {
            NIL => self.newest = older,
            n => self.slot_mut(n).older = older,
        }
        match older {
            NIL => self.oldest = newer,
            o => self.slot_mut(o).newer = newer,
        }
    }

    /// Puts slot `i` at the most recently used end.
    fn link_newest(&mut self, i: usize) {
        let old_newest = self.newest;
        {
            let s = self.slot_mut(i);
            s.newer = NIL;
            s.older = old_newest;
        }
        match old_newest {
            NIL => self.oldest = i,
            n => self.slot_mut(n).newer = i,
        }
        self.newest = i;
    }

    fn touch(&mut self, i: usize) {
        if self.newest != i {
            self.unlink(i);
            self.link_newest(i);
        }
    }

    /// Removes slot `i` entirely.
    fn remove_slot(&mut self, i: usize) -> (K, V) {
        self.unlink(i);
        let hash = self.hasher.hash_one(&self.slot(i).key);
        if let Ok(entry) = self.table.find_entry(hash, |&j| j == i) {
            entry.remove();
        }
        let s = self.slots[i].take().expect("a linked slot is occupied");
        self.free.push(i);
        (s.key, s.value)
    }

    /// Adds a new key (not held) as the most recently used entry, first
    /// dropping the least recently used one at capacity.
    fn insert_new(&mut self, key: K, value: V) -> usize {
        if self.len() >= self.cap {
            self.pop_lru();
        }
        let hash = self.hasher.hash_one(&key);
        let slot = Slot {
            key,
            value,
            newer: NIL,
            older: NIL,
        };
        let i = match self.free.pop() {
            Some(i) => {
                self.slots[i] = Some(slot);
                i
            }
            None => {
                self.slots.push(Some(slot));
                self.slots.len() - 1
            }
        };
        let (slots, hasher) = (&self.slots, &self.hasher);
        self.table.insert_unique(hash, i, |&j| {
            hasher.hash_one(&slots[j].as_ref().expect("a linked slot is occupied").key)
        });
        self.link_newest(i);
        i
    }

    /// The value of `key`, marked most recently used.
    pub fn get<Q>(&mut self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find(key)?;
        self.touch(i);
        Some(&self.slot(i).value)
    }

    /// The value of `key`, without marking it used.
    pub fn peek_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find(key)?;
        Some(&mut self.slot_mut(i).value)
    }

    /// Sets `key` to `value`, marked most recently used; returns the value
    /// it replaced, if `key` was held.
    pub fn put(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Some(i) => {
                self.touch(i);
                Some(core::mem::replace(&mut self.slot_mut(i).value, value))
            }
            None => {
                self.insert_new(key, value);
                None
            }
        }
    }

    /// The value of `key`, inserted from `make` if not held, marked most
    /// recently used.
    pub fn get_or_insert_mut(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Some(i) => {
                self.touch(i);
                i
            }
            None => self.insert_new(key, make()),
        };
        &mut self.slot_mut(i).value
    }

    /// Removes `key`; returns its value if it was held.
    pub fn pop<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find(key)?;
        Some(self.remove_slot(i).1)
    }

    /// The least recently used entry, without marking it used.
    pub fn peek_lru(&self) -> Option<(&K, &V)> {
        match self.oldest {
            NIL => None,
            i => {
                let s = self.slot(i);
                Some((&s.key, &s.value))
            }
        }
    }

    /// Removes and returns the least recently used entry.
    pub fn pop_lru(&mut self) -> Option<(K, V)> {
        match self.oldest {
            NIL => None,
            i => Some(self.remove_slot(i)),
        }
    }

    /// Drops every entry.
    pub fn clear(&mut self) {
        self.table.clear();
        self.slots.clear();
        self.free.clear();
        self.newest = NIL;
        self.oldest = NIL;
    }

    /// The entries from the most to the least recently used.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        let mut at = self.newest;
        core::iter::from_fn(move || {
            if at == NIL {
                return None;
            }
            let s = self.slot(at);
            at = s.older;
            Some((&s.key, &s.value))
        })
    }
}

impl<K, V> core::fmt::Debug for LruCache<K, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LruCache")
            .field("len", &self.table.len())
            .field("cap", &self.cap)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::borrow::ToOwned;
    use alloc::format;
    use alloc::string::String;

    fn cap(n: usize) -> NonZeroUsize {
        NonZeroUsize::new(n).unwrap()
    }

    fn keys(c: &LruCache<String, u32>) -> Vec<&str> {
        c.iter().map(|(k, _)| k.as_str()).collect()
    }

    #[test]
    fn put_get_and_order() {
        let mut c = LruCache::new(cap(3));
        assert!(c.is_empty());
        assert_eq!(c.put("a".to_owned(), 1), None);
        assert_eq!(c.put("b".to_owned(), 2), None);
        assert_eq!(c.put("c".to_owned(), 3), None);
        assert_eq!(keys(&c), ["c", "b", "a"]);
        // get marks used; lookups by &str.
        assert_eq!(c.get("a"), Some(&1));
        assert_eq!(keys(&c), ["a", "c", "b"]);
        assert_eq!(c.get("zz"), None);
        // Replacing returns the old value and marks used, no eviction.
        assert_eq!(c.put("b".to_owned(), 20), Some(2));
        assert_eq!(keys(&c), ["b", "a", "c"]);
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn capacity_drops_the_least_recently_used() {
        let mut c = LruCache::new(cap(2));
        c.put("a".to_owned(), 1);
        c.put("b".to_owned(), 2);
        c.get("a");
        c.put("c".to_owned(), 3);
        assert_eq!(keys(&c), ["c", "a"]);
        assert_eq!(c.get("b"), None);
        *c.get_or_insert_mut("d".to_owned(), || 4) += 10;
        assert_eq!(keys(&c), ["d", "c"]);
        assert_eq!(c.get("d"), Some(&14));
        // An existing key is not replaced by get_or_insert_mut.
        assert_eq!(*c.get_or_insert_mut("c".to_owned(), || 99), 3);
        assert_eq!(keys(&c), ["c", "d"]);
    }

    #[test]
    fn peek_pop_and_reuse() {
        let mut c = LruCache::unbounded();
        for (i, k) in ["a", "b", "c", "d"].iter().enumerate() {
            c.put((*k).to_owned(), i as u32);
        }
        assert_eq!(c.peek_lru(), Some((&"a".to_owned(), &0)));
        // peek_mut does not mark used.
        *c.peek_mut("a").unwrap() = 7;
        assert_eq!(keys(&c), ["d", "c", "b", "a"]);
        assert_eq!(c.pop_lru(), Some(("a".to_owned(), 7)));
        assert_eq!(c.pop("c"), Some(2));
        assert_eq!(c.pop("c"), None);
        assert_eq!(keys(&c), ["d", "b"]);
        // Freed slots are reused; order stays right.
        c.put("e".to_owned(), 5);
        c.put("f".to_owned(), 6);
        assert_eq!(keys(&c), ["f", "e", "d", "b"]);
        assert_eq!(c.slots.len(), 4);
        while c.pop_lru().is_some() {}
        assert!(c.is_empty());
        assert_eq!(c.peek_lru(), None);
        assert_eq!(keys(&c), Vec::<&str>::new());
    }

    /// splitmix64, for a fixed sequence of operations.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Random operations on this map and on the `lru` crate's, which the
    /// stores used before D66: every answer and the order must agree.
    #[test]
    fn agrees_with_the_lru_crate() {
        for (seed, capacity) in [(1u64, 1usize), (2, 3), (3, 8), (4, 64), (5, usize::MAX)] {
            let mut state = seed;
            let (mut ours, mut theirs) = if capacity == usize::MAX {
                (LruCache::unbounded(), lru::LruCache::unbounded())
            } else {
                (
                    LruCache::new(cap(capacity)),
                    lru::LruCache::new(cap(capacity)),
                )
            };
            for step in 0..20_000 {
                let key = format!("k{}", next(&mut state) % 24);
                let value = (next(&mut state) % 1000) as u32;
                let what = format!("seed {seed}, step {step}");
                match next(&mut state) % 8 {
                    0 | 1 => assert_eq!(
                        ours.put(key.clone(), value),
                        theirs.put(key, value),
                        "{what}"
                    ),
                    2 => assert_eq!(ours.get(&key), theirs.get(&key), "{what}"),
                    3 => assert_eq!(
                        *ours.get_or_insert_mut(key.clone(), || value),
                        *theirs.get_or_insert_mut(key, || value),
                        "{what}"
                    ),
                    4 => assert_eq!(ours.pop(&key), theirs.pop(&key), "{what}"),
                    5 => assert_eq!(ours.pop_lru(), theirs.pop_lru(), "{what}"),
                    6 => {
                        if let (Some(a), Some(b)) = (ours.peek_mut(&key), theirs.peek_mut(&key)) {
                            *a += 1;
                            *b += 1;
                        }
                        assert_eq!(ours.peek_lru(), theirs.peek_lru(), "{what}");
                    }
                    7 if step % 1000 == 999 => {
                        ours.clear();
                        theirs.clear();
                    }
                    _ => assert_eq!(ours.len(), theirs.len(), "{what}"),
                }
                assert!(ours.iter().eq(theirs.iter()), "{what}: order differs");
            }
        }
    }
}
