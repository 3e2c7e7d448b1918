//! Locking shared by the core's thread-safe stores, and a once-initialized
//! cell: std's with `std`, small hand-written ones without.

#[cfg(feature = "std")]
pub(crate) use std::sync::{Mutex, MutexGuard};

#[cfg(not(feature = "std"))]
pub(crate) use spin::{Mutex, lock};

/// Locks `m`, recovering from poisoning: every store keeps its state
/// consistent between statements, so after a panic in another thread the
/// state is still usable, and failing every later call would be worse.
#[cfg(feature = "std")]
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(feature = "std")]
pub(crate) use std::sync::OnceLock;

#[cfg(not(feature = "std"))]
pub(crate) use race::OnceLock;

/// A spin lock for the response diff detector's store without `std`
/// (response rendering keeps its previous snapshots there). Hand-written:
/// `core` has no lock, and a `no_std` host (WebAssembly, a plugin) is
/// mostly single-threaded, so the lock is uncontended and spinning costs
/// nothing; the `spin` crate would add a dependency for 40 lines.
#[cfg(not(feature = "std"))]
mod spin {
    use core::cell::UnsafeCell;
    use core::ops::{Deref, DerefMut};
    use core::sync::atomic::{AtomicBool, Ordering};

    pub(crate) struct Mutex<T> {
        locked: AtomicBool,
        value: UnsafeCell<T>,
    }

    // SAFETY: the value is reached only through a guard, and one guard at
    // a time exists (the `locked` flag), as for std's Mutex.
    unsafe impl<T: Send> Send for Mutex<T> {}
    unsafe impl<T: Send> Sync for Mutex<T> {}

    impl<T> Mutex<T> {
        pub(crate) const fn new(value: T) -> Self {
            Mutex {
                locked: AtomicBool::new(false),
                value: UnsafeCell::new(value),
            }
        }
    }

    impl<T> core::fmt::Debug for Mutex<T> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("Mutex { .. }")
        }
    }

    pub(crate) struct MutexGuard<'a, T> {
        m: &'a Mutex<T>,
    }

    /// Locks `m`, spinning while another thread holds it.
    pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
        while m
            .locked
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            core::hint::spin_loop();
        }
        MutexGuard { m }
    }

    impl<T> Deref for MutexGuard<'_, T> {
        type Target = T;
        fn deref(&self) -> &T {
            // SAFETY: this guard holds the lock.
            unsafe { &*self.m.value.get() }
        }
    }

    impl<T> DerefMut for MutexGuard<'_, T> {
        fn deref_mut(&mut self) -> &mut T {
            // SAFETY: this guard holds the lock, and `&mut self` is unique.
            unsafe { &mut *self.m.value.get() }
        }
    }

    impl<T> Drop for MutexGuard<'_, T> {
        fn drop(&mut self) {
            self.m.locked.store(false, Ordering::Release);
        }
    }
}

/// `std::sync::OnceLock` without `std`: a compare-and-swap on a pointer.
/// Hand-written because `core` has no thread-safe once cell and the ones on
/// crates.io (once_cell's `race`) would add a crate for 40 lines. Threads
/// that race may each compute the value; one wins and the others drop
/// theirs, which is right for what it holds (a hash, a compiled regex).
#[cfg(not(feature = "std"))]
mod race {
    use alloc::boxed::Box;
    use core::marker::PhantomData;
    use core::ptr;
    use core::sync::atomic::{AtomicPtr, Ordering};

    pub(crate) struct OnceLock<T> {
        ptr: AtomicPtr<T>,
        _owns: PhantomData<Box<T>>,
    }

    // SAFETY: the cell owns a `Box<T>` and hands out `&T` only: it can be
    // sent where `T` can, and shared where `T` can be both sent (the
    // winning thread's value is dropped by another) and shared.
    unsafe impl<T: Send> Send for OnceLock<T> {}
    unsafe impl<T: Send + Sync> Sync for OnceLock<T> {}

    impl<T> OnceLock<T> {
        pub(crate) const fn new() -> Self {
            OnceLock {
                ptr: AtomicPtr::new(ptr::null_mut()),
                _owns: PhantomData,
            }
        }

        pub(crate) fn get(&self) -> Option<&T> {
            let p = self.ptr.load(Ordering::Acquire);
            // SAFETY: a non-null pointer came from `Box::into_raw` and is
            // freed only by `drop`, which has `&mut self`.
            (!p.is_null()).then(|| unsafe { &*p })
        }

        pub(crate) fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
            if let Some(v) = self.get() {
                return v;
            }
            let new = Box::into_raw(Box::new(f()));
            match self.ptr.compare_exchange(
                ptr::null_mut(),
                new,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                // SAFETY: as in `get`; `new` is now the cell's.
                Ok(_) => unsafe { &*new },
                Err(old) => {
                    // SAFETY: `new` lost the race and was never shared.
                    drop(unsafe { Box::from_raw(new) });
                    // SAFETY: as in `get`.
                    unsafe { &*old }
                }
            }
        }
    }

    impl<T> From<T> for OnceLock<T> {
        fn from(value: T) -> Self {
            OnceLock {
                ptr: AtomicPtr::new(Box::into_raw(Box::new(value))),
                _owns: PhantomData,
            }
        }
    }

    impl<T> Default for OnceLock<T> {
        fn default() -> Self {
            Self::new()
        }
    }

    impl<T: core::fmt::Debug> core::fmt::Debug for OnceLock<T> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_tuple("OnceLock").field(&self.get()).finish()
        }
    }

    impl<T> Drop for OnceLock<T> {
        fn drop(&mut self) {
            let p = *self.ptr.get_mut();
            if !p.is_null() {
                // SAFETY: as in `get`; no reference outlives `&mut self`.
                drop(unsafe { Box::from_raw(p) });
            }
        }
    }
}
