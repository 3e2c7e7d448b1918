//! Finding and counting `\n` in bytes: the line diff's splitting and its
//! window's line counts.
//!
//! Written here rather than taken from memchr and bytecount
//! (docs/DECISIONS.md D64): the core's `no_std` build stays on serde,
//! serde_json, similar, blake3 and hashbrown, and on the detector's inputs
//! this is as fast or faster (the decision has the numbers). Snapshot
//! lines are short, so a search per line (memchr's iterator) pays its
//! setup on every line; here a 64-byte block is turned into a mask of its
//! newlines once (SSE2 on x86_64, where it is always present; eight-byte
//! words elsewhere) and the iterators walk the mask's bits. Counting adds
//! byte-wise equality into one-byte counters, which the compiler
//! vectorizes on every target (and, with `std` on x86_64, for AVX2 when
//! the CPU has it).

// Without `std` only the line split and count use it (the window is std's).
#![cfg_attr(not(feature = "std"), allow(dead_code))]

/// Bytes per mask.
const BLOCK: usize = 64;

/// Bit `i` set where `block[i]` is `\n`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn mask(block: &[u8; BLOCK]) -> u64 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let mut bits = 0u64;
    for k in 0..4 {
        // SAFETY: SSE2 is enabled (the cfg above); the load reads 16 bytes
        // at offset 16 * k < 64 of a 64-byte array, unaligned loads allowed.
        let lane = unsafe {
            let v = _mm_loadu_si128(block.as_ptr().add(16 * k).cast::<__m128i>());
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8)))
        };
        bits |= u64::from(lane as u16) << (16 * k);
    }
    bits
}

/// Bit `i` set where `block[i]` is `\n`: per eight-byte word, the exact
/// zero-byte test on `word ^ 0x0a0a…` (no false positives), its high bits
/// gathered into a byte by one multiplication.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn mask(block: &[u8; BLOCK]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let mut bits = 0u64;
    for (k, word) in block.chunks_exact(8).enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w) ^ (ONES * u64::from(b'\n'));
        let high = !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7);
        bits |= ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    bits
}

/// The mask of the block of `bytes` starting at `at` (zeros past the end).
#[inline(always)]
fn mask_at(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + BLOCK) {
        Some(block) => mask(block.try_into().expect("a 64-byte slice")),
        None => {
            let mut block = [0u8; BLOCK];
            let rest = &bytes[at.min(bytes.len())..];
            block[..rest.len()].copy_from_slice(rest);
            mask(&block)
        }
    }
}

/// Number of `\n` bytes in `bytes`.
pub(crate) fn count(bytes: &[u8]) -> usize {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { count_avx2(bytes) };
    }
    count_in::<BLOCK>(bytes)
}

/// [`count_in`] compiled for AVX2: twice the bytes per instruction, which
/// keeps up with bytecount's runtime-dispatched AVX2 on texts that come
/// from memory rather than cache (D64). Only `std` can ask the CPU.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
unsafe fn count_avx2(bytes: &[u8]) -> usize {
    count_in::<{ 2 * BLOCK }>(bytes)
}

/// Adds byte-wise equality into `B` one-byte counters per `B`-byte block
/// (the compiler's vectors), emptied before one can overflow.
#[inline(always)]
fn count_in<const B: usize>(bytes: &[u8]) -> usize {
    let mut total = 0;
    let mut blocks = bytes.chunks_exact(B);
    let mut counters = [0u8; B];
    let mut rounds = 0;
    for block in &mut blocks {
        for (c, &b) in counters.iter_mut().zip(block) {
            *c += u8::from(b == b'\n');
        }
        rounds += 1;
        if rounds == 255 {
            total += counters.iter().map(|&c| usize::from(c)).sum::<usize>();
            counters = [0; B];
            rounds = 0;
        }
    }
    total += counters.iter().map(|&c| usize::from(c)).sum::<usize>();
    total + blocks.remainder().iter().filter(|&&b| b == b'\n').count()
}

/// The positions of the `\n` bytes of `bytes`, first to last.
pub(crate) fn iter(bytes: &[u8]) -> Forward<'_> {
    Forward {
        bytes,
        base: 0,
        bits: mask_at(bytes, 0),
    }
}

/// The positions of the `\n` bytes of `bytes`, last to first.
pub(crate) fn iter_rev(bytes: &[u8]) -> Backward<'_> {
    // The last block starts at a multiple of 64, as in [`iter`].
    let base = bytes.len().saturating_sub(1) / BLOCK * BLOCK;
    Backward {
        bytes,
        base,
        bits: mask_at(bytes, base),
    }
}

/// The first `\n` in `bytes`.
pub(crate) fn find(bytes: &[u8]) -> Option<usize> {
    iter(bytes).next()
}

/// The last `\n` in `bytes`.
pub(crate) fn rfind(bytes: &[u8]) -> Option<usize> {
    iter_rev(bytes).next()
}

/// See [`iter`].
pub(crate) struct Forward<'a> {
    bytes: &'a [u8],
    /// Where the block of `bits` starts.
    base: usize,
    /// The newlines of that block not yet returned.
    bits: u64,
}

impl Iterator for Forward<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.base += BLOCK;
            if self.base >= self.bytes.len() {
                return None;
            }
            self.bits = mask_at(self.bytes, self.base);
        }
        let at = self.base + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(at)
    }
}

/// See [`iter_rev`].
pub(crate) struct Backward<'a> {
    bytes: &'a [u8],
    base: usize,
    bits: u64,
}

impl Iterator for Backward<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            if self.base == 0 {
                return None;
            }
            self.base -= BLOCK;
            self.bits = mask_at(self.bytes, self.base);
        }
        let high = 63 - self.bits.leading_zeros() as usize;
        self.bits &= !(1u64 << high);
        Some(self.base + high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;

    /// Every function against the obvious byte loop, on random texts of
    /// every length up to 200 and around the block and counter sizes, with
    /// bytes that differ from `\n` by one bit (the zero-byte test's
    /// traps), zeros (the tail's padding) and several newline densities.
    #[test]
    fn agree_with_a_byte_loop() {
        let mut state = 7u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let alphabet = [
            b'\n', b'\x0b', b'\x08', b'\x8a', b'\x09', b'a', 0, 0xff, b'\n',
        ];
        for len in (0..200).chain([255 * 64 - 1, 255 * 64, 255 * 64 + 65, 40_000]) {
            for density in [0u64, 1, 8, 50, 100] {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        if next() % 100 < density {
                            b'\n'
                        } else {
                            alphabet[(next() % alphabet.len() as u64) as usize]
                        }
                    })
                    .collect();
                let expected: Vec<usize> = (0..len).filter(|&i| bytes[i] == b'\n').collect();
                assert_eq!(count(&bytes), expected.len(), "len {len}");
                assert_eq!(count_in::<BLOCK>(&bytes), expected.len(), "len {len}");
                assert_eq!(find(&bytes), expected.first().copied(), "len {len}");
                assert_eq!(rfind(&bytes), expected.last().copied(), "len {len}");
                assert_eq!(iter(&bytes).collect::<Vec<_>>(), expected, "len {len}");
                let mut rev = expected.clone();
                rev.reverse();
                assert_eq!(iter_rev(&bytes).collect::<Vec<_>>(), rev, "len {len}");
            }
        }
    }
}
