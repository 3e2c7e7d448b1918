//! Lines to dense integer ids: hashing each line (under the whitespace
//! rule), interning the hashes, and exact interning after a collision.

use crate::prelude::*;
use alloc::borrow::Cow;
#[cfg(feature = "std")]
pub(super) use imara_diff::Token;

use super::split::Line;
use super::whitespace::{is_normal_ascii, normalize_whitespace};

/// A line's dense id, as imara-diff's `Token` is with `std`.
#[cfg(not(feature = "std"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Token(pub(super) u32);

/// Exact interning, the fallback after a hash collision.
pub(super) fn intern<'a>(
    old: &[Line<'a>],
    new: &[Line<'a>],
    ignore_whitespace: bool,
) -> (Vec<Token>, Vec<Token>) {
    let mut ids: FxHashMap<Cow<'a, str>, u32> = FxHashMap::default();
    let mut id_of = |line: &Line<'a>| -> Token {
        let key = line_key(line, ignore_whitespace);
        let next = ids.len() as u32;
        Token(*ids.entry(key).or_insert(next))
    };
    let a = old.iter().map(&mut id_of).collect();
    let b = new.iter().map(&mut id_of).collect();
    (a, b)
}

/// What two lines are compared by.
fn line_key<'a>(line: &Line<'a>, ignore_whitespace: bool) -> Cow<'a, str> {
    if ignore_whitespace {
        normalize_whitespace(line.text)
    } else if line.newline {
        Cow::Borrowed(line.text)
    } else {
        // A missing final newline is a difference of its own.
        Cow::Owned(format!("{}\u{0}no-newline", line.text))
    }
}

pub(super) fn lines_equal(a: &Line<'_>, b: &Line<'_>, ignore_whitespace: bool) -> bool {
    if ignore_whitespace {
        a.text == b.text || normalize_whitespace(a.text) == normalize_whitespace(b.text)
    } else {
        a.text == b.text && a.newline == b.newline
    }
}

pub(super) fn line_hash(line: &Line<'_>, ignore_whitespace: bool) -> u64 {
    use core::hash::{Hash, Hasher};
    let mut h = FxHasher::default();
    if ignore_whitespace {
        // Most lines are already normal: hash them as they are, which is
        // what normalizing would give, without the byte-by-byte pass.
        if is_normal_ascii(line.text.as_bytes()) {
            line.text.hash(&mut h);
        } else {
            normalize_whitespace(line.text).hash(&mut h);
        }
    } else {
        line.text.hash(&mut h);
        line.newline.hash(&mut h);
    }
    h.finish()
}

#[cfg(feature = "std")]
thread_local! {
    /// The interner's slots and hashes from the thread's previous diff.
    static INTERN_SCRATCH: core::cell::Cell<(Vec<u32>, Vec<u64>)> =
        const { core::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// Lines hashed ahead of their interning (see `intern_side` in
/// `LineDiff::compute_window`).
pub(super) const INTERN_BATCH: usize = 16;

/// Dense ids for 64-bit line hashes, in first-seen order: open addressing
/// over 4-byte slots holding id + 1 (0 is empty), the hashes kept by id.
/// Hand-written because a `HashMap<u64, u32>` takes 16 bytes a slot: for
/// the 130,000 lines of two 2.6 MB pages its table (4 MiB) falls out of
/// the cache, and the lookups dominated the whole detector call; std's map
/// has no raw-table API to store only the id.
pub(super) struct Interner {
    slots: Vec<u32>,
    pub(super) hashes: Vec<u64>,
    shift: u32,
}

impl Interner {
    pub(super) fn with_capacity(n: usize) -> Self {
        // At most two thirds full, so probe runs stay short (a table at
        // most half full took 4 MiB for two 7 MB pages, a fifth of the
        // CLI's peak memory).
        let cap = (n + n / 2).next_power_of_two().max(16);
        // Reuse the thread's last table: a fresh multi-MB one comes back
        // from the allocator as new pages, and faulting them in costs more
        // than clearing warm memory.
        #[cfg(feature = "std")]
        let (mut slots, mut hashes) = INTERN_SCRATCH.try_with(|c| c.take()).unwrap_or_default();
        #[cfg(not(feature = "std"))]
        let (mut slots, mut hashes) = (Vec::new(), Vec::new());
        slots.clear();
        slots.resize(cap, 0);
        hashes.clear();
        hashes.reserve(n);
        Interner {
            slots,
            hashes,
            shift: 64 - cap.trailing_zeros(),
        }
    }

    /// Hands the buffers back for the thread's next diff; tables of small
    /// texts are not worth keeping and huge ones not worth holding on to.
    #[cfg(feature = "std")]
    pub(super) fn recycle(self) {
        let bytes = self.slots.capacity() * 4 + self.hashes.capacity() * 8;
        if (1 << 16..=1 << 24).contains(&bytes) {
            let _ = INTERN_SCRATCH.try_with(|c| c.set((self.slots, self.hashes)));
        }
    }

    /// Without `std` there are no thread locals to keep them in.
    #[cfg(not(feature = "std"))]
    pub(super) fn recycle(self) {}

    #[inline]
    fn slot(&self, h: u64) -> usize {
        // Multiply-shift: the top bits mix every bit of the hash.
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Asks the CPU to start loading `h`'s slot; a hint only.
    #[inline]
    pub(super) fn prefetch(&self, h: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots[self.slot(h)..].as_ptr();
            // SAFETY: a prefetch never faults and reads nothing the program
            // sees; `p` points into `slots`.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast())
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = h;
    }

    pub(super) fn id(&mut self, h: u64) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(h);
        loop {
            let s = self.slots[i];
            if s == 0 {
                let id = self.hashes.len() as u32;
                self.hashes.push(h);
                self.slots[i] = id + 1;
                return id;
            }
            if self.hashes[(s - 1) as usize] == h {
                return s - 1;
            }
            i = (i + 1) & mask;
        }
    }
}
