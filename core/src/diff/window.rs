//! The part of two texts a line diff reads beyond their common start and
//! end, found block by block so that a caller holding its inputs in pages
//! it can drop (the CLI maps its files) drops each block once compared: a
//! one-line change on two 7 MB files then keeps a few blocks resident
//! instead of both files.
//!
//! The window starts at a line start at or before the line diff's common
//! prefix (as `lines::trim::common_line_prefix` finds it) with at least
//! `context` lines of it, and ends at a line start at or after its common
//! suffix with at least `context` lines of it, so the line diff of the
//! window, with the lines outside counted in, is the line diff of the whole
//! texts.

use core::ops::Range;

use crate::newlines;
use crate::prelude::*;

/// Bytes compared (and handed back) at a time: 256 KiB.
const BLOCK: usize = 256 * 1024;

/// Where the line diff of two texts has to look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Window {
    /// Bytes of the earlier text to diff.
    pub old: Range<usize>,
    /// Bytes of the later text to diff.
    pub new: Range<usize>,
    /// Lines before the window (the same in both texts).
    pub lines_before: usize,
    /// Lines after it (the same in both texts).
    pub lines_after: usize,
}

/// The window of `old` and `new` for `context` lines of context, or
/// `None` when either is not UTF-8: each byte is checked once, the common
/// ends in the old text only. `done` gets each pair of byte ranges (of
/// `old`, of `new`) found equal, checked and counted; the line diff may
/// still read a few lines of the last ones.
pub(crate) fn find(
    old: &[u8],
    new: &[u8],
    context: usize,
    done: impl FnMut(Range<usize>, Range<usize>),
) -> Option<Window> {
    find_in_blocks(old, new, context, BLOCK, done)
}

/// `text[from..to]` checked as UTF-8 but for a character cut at `to`:
/// where the next check starts (a character boundary), or `None`.
fn checked_up_to(text: &[u8], from: usize, to: usize) -> Option<usize> {
    match core::str::from_utf8(&text[from..to]) {
        Ok(_) => Some(to),
        Err(e) if e.error_len().is_none() => Some(from + e.valid_up_to()),
        Err(_) => None,
    }
}

pub(crate) fn find_in_blocks(
    a: &[u8],
    b: &[u8],
    context: usize,
    block: usize,
    mut done: impl FnMut(Range<usize>, Range<usize>),
) -> Option<Window> {
    let (la, lb) = (a.len(), b.len());
    let n = la.min(lb);
    // The common prefix, a block at a time, counting the old text's
    // newlines per block.
    let mut head: Vec<usize> = Vec::new();
    let mut i = 0;
    // The old text is UTF-8 up to here (a character boundary).
    let mut valid_to = 0;
    while i + block <= n && a[i..i + block] == b[i..i + block] {
        head.push(newlines::count(&a[i..i + block]));
        valid_to = checked_up_to(a, valid_to, i + block)?;
        done(i..i + block, i..i + block);
        i += block;
    }
    let d = i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count();
    // The line diff's prefix (`lines::trim::common_line_prefix`).
    let prefix = if d == la && d == lb {
        d
    } else {
        newlines::rfind(&a[..d]).map_or(0, |j| j + 1)
    };
    // Start after the (context + 1)-th newline before the first
    // difference: at least `context` whole lines of the prefix.
    let start = newlines::iter_rev(&a[..d])
        .nth(context)
        .map_or(0, |j| j + 1);
    let lines_before = counted(&head, block, start, |r| &a[r]);

    // The common suffix, not overlapping the prefix
    // (`lines::trim::common_line_suffix`), counted the same way from the end.
    let max = n - prefix;
    let mut tail: Vec<usize> = Vec::new();
    let mut j = 0;
    // The old text is UTF-8 from here (a character boundary) to its end.
    let mut valid_from = la;
    while j + block <= max && a[la - j - block..la - j] == b[lb - j - block..lb - j] {
        tail.push(newlines::count(&a[la - j - block..la - j]));
        // From the block's first character start (a character cut by its
        // start is checked with the block before it).
        let mut from = la - j - block;
        while from < valid_from && a[from] & 0xc0 == 0x80 {
            from += 1;
        }
        core::str::from_utf8(&a[from..valid_from]).ok()?;
        valid_from = from;
        done(la - j - block..la - j, lb - j - block..lb - j);
        j += block;
    }
    let raw = j + a[..la - j]
        .iter()
        .rev()
        .zip(b[..lb - j].iter().rev())
        .take(max - j)
        .take_while(|(x, y)| x == y)
        .count();
    let at_line_start = |s: &[u8], len: usize| {
        let st = s.len() - len;
        st == prefix || s[st - 1] == b'\n'
    };
    let suffix = if raw == 0 || (at_line_start(a, raw) && at_line_start(b, raw)) {
        raw
    } else {
        newlines::find(&a[la - raw..]).map_or(0, |k| raw - (k + 1))
    };
    // End after `context` whole lines of the suffix, or at the texts' end.
    let end_a = match context.checked_sub(1) {
        None => la - suffix,
        Some(c) => newlines::iter(&a[la - suffix..])
            .nth(c)
            .map_or(la, |k| la - suffix + k + 1),
    };
    let after = la - end_a;
    let lines_after = if after == 0 {
        0
    } else {
        // Newlines after the window, counted from the end, plus a last
        // line without one.
        let from_end = |r: Range<usize>| &a[la - r.end..la - r.start];
        counted(&tail, block, after, from_end) + usize::from(a[la - 1] != b'\n')
    };
    // What is left to check: both windows (their ends are line starts or
    // the texts' ends, so character boundaries), and the old text between
    // them and the checked ends; the new text's ends are the old one's.
    let utf8 = |r: Range<usize>, t: &[u8]| r.is_empty() || core::str::from_utf8(&t[r]).is_ok();
    let w = Window {
        old: start..end_a,
        new: start..lb - after,
        lines_before,
        lines_after,
    };
    (utf8(valid_to..start, a)
        && utf8(end_a..valid_from, a)
        && utf8(w.old.clone(), a)
        && utf8(w.new.clone(), b))
    .then_some(w)
}

/// Newlines in the first `len` bytes, given the counts of its whole
/// `block`-byte blocks (`bytes(r)` reads the bytes of range `r`, counted
/// from where the blocks start).
fn counted<'a>(
    blocks: &[usize],
    block: usize,
    len: usize,
    bytes: impl Fn(Range<usize>) -> &'a [u8],
) -> usize {
    let whole = (len / block).min(blocks.len());
    blocks[..whole].iter().sum::<usize>() + newlines::count(bytes(whole * block..len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_keeps_context_lines_and_counts_the_rest() {
        let old: String = (0..200).map(|i| format!("line {i}\n")).collect();
        let new = old.replace("line 100\n", "line 100 changed\n");
        for block in [7, 64, 1 << 20] {
            let mut seen = Vec::new();
            let w = find_in_blocks(old.as_bytes(), new.as_bytes(), 3, block, |a, b| {
                seen.push((a, b))
            })
            .unwrap();
            assert_eq!(
                &old[w.old.clone()],
                "line 97\nline 98\nline 99\nline 100\nline 101\nline 102\nline 103\n",
                "block {block}"
            );
            assert_eq!((w.lines_before, w.lines_after), (97, 96), "block {block}");
            assert_eq!(&new[w.new.clone()], &new[w.old.start..w.old.end + 8]);
            assert!(
                seen.iter()
                    .all(|(a, b)| old.as_bytes()[a.clone()] == new.as_bytes()[b.clone()])
            );
            assert_eq!(seen.is_empty(), block > old.len());
        }
    }

    #[test]
    fn every_byte_is_checked_as_utf8_once() {
        let old = format!("{}é\n{}", "ab\n".repeat(40), "cd\n".repeat(40));
        for (at, byte) in [
            (0, 0xff),
            (60, 0xc3),
            (121, b'A'),
            (200, 0x80),
            (old.len() - 1, 0xfe),
        ] {
            let mut bad = old.clone().into_bytes();
            bad[at] = byte;
            for block in [1, 2, 3, 7, 64, 1 << 20] {
                let ok = |a: &[u8], b: &[u8]| find_in_blocks(a, b, 2, block, |_, _| {}).is_some();
                assert!(ok(old.as_bytes(), old.as_bytes()));
                assert!(!ok(&bad, &bad), "at {at} block {block}");
                assert!(!ok(old.as_bytes(), &bad), "at {at} block {block}");
                assert!(!ok(&bad, old.as_bytes()), "at {at} block {block}");
                // The bad byte in a part both texts share, a change elsewhere.
                let mut other = bad.clone();
                other[if at < 100 { 240 } else { 3 }] = b'Z';
                assert!(!ok(&bad, &other), "at {at} block {block}, shared");
            }
        }
        // A character cut by every block boundary is still whole text.
        let text = "é€😀\n".repeat(50);
        let other = text.replacen("€", "e", 1);
        for block in 1..12 {
            assert!(
                find_in_blocks(text.as_bytes(), other.as_bytes(), 1, block, |_, _| {}).is_some()
            );
        }
    }
}
