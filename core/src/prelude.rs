//! What the std prelude gives and `no_std` does not: each module that
//! allocates imports this, so the same code builds with and without `std`.
//! Also the core's one hasher (docs/DECISIONS.md D65).

pub(crate) use alloc::borrow::ToOwned;
pub(crate) use alloc::boxed::Box;
pub(crate) use alloc::format;
pub(crate) use alloc::string::{String, ToString};
pub(crate) use alloc::vec;
pub(crate) use alloc::vec::Vec;

// The core's LRU map, under the name the stores knew it by
// (`lru::LruCache`, docs/DECISIONS.md D66).
pub(crate) use crate::lru;

use core::hash::{BuildHasher, Hasher};

/// The core's hash maps: hashbrown with foldhash (the hasher hashbrown
/// itself pulls in) on a fixed seed, so iteration order, and with it any
/// output, is the same in every process. (The name is from rustc-hash,
/// which these maps used before D65.)
pub(crate) type FxHashMap<K, V> = hashbrown::HashMap<K, V, foldhash::fast::FixedState>;
/// The core's hash sets, as [`FxHashMap`].
pub(crate) type FxHashSet<K> = hashbrown::HashSet<K, foldhash::fast::FixedState>;

/// foldhash's fast hasher on the fixed seed of [`FxHashMap`], for content
/// signatures (tree diff, ref carrying). It is `Default`, as rustc-hash's
/// `FxHasher` was, which foldhash's own hasher is not.
#[derive(Clone)]
pub(crate) struct FxHasher(foldhash::fast::FoldHasher<'static>);

impl Default for FxHasher {
    #[inline]
    fn default() -> Self {
        FxHasher(foldhash::fast::FixedState::default().build_hasher())
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0.finish()
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.0.write_u8(i);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.0.write_u16(i);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.0.write_u32(i);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0.write_u64(i);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.0.write_u128(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.0.write_usize(i);
    }
}
