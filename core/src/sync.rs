//! Locking shared by the core's thread-safe stores.

use std::sync::{Mutex, MutexGuard};

/// Locks `m`, recovering from poisoning: every store keeps its state
/// consistent between statements, so after a panic in another thread the
/// state is still usable, and failing every later call would be worse.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
