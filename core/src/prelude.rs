//! What the std prelude gives and `no_std` does not: each module that
//! allocates imports this, so the same code builds with and without `std`.

pub(crate) use alloc::borrow::ToOwned;
pub(crate) use alloc::boxed::Box;
pub(crate) use alloc::format;
pub(crate) use alloc::string::{String, ToString};
pub(crate) use alloc::vec;
pub(crate) use alloc::vec::Vec;

/// `rustc_hash::FxHashMap` on hashbrown: rustc-hash's own alias needs `std`.
pub(crate) type FxHashMap<K, V> = hashbrown::HashMap<K, V, rustc_hash::FxBuildHasher>;
/// `rustc_hash::FxHashSet` on hashbrown.
pub(crate) type FxHashSet<K> = hashbrown::HashSet<K, rustc_hash::FxBuildHasher>;
