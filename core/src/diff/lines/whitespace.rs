//! The whitespace normalization of `ignoreWhitespace`, and a fast check
//! for lines it would leave unchanged.

use crate::prelude::*;
use alloc::borrow::Cow;

/// Whitespace normalization used by `ignoreWhitespace`: leading indentation
/// is kept (it is nesting in a snapshot), trailing whitespace is dropped and
/// inner runs of whitespace count as one space.
pub fn normalize_whitespace(line: &str) -> Cow<'_, str> {
    if line.is_ascii() {
        return normalize_ascii(line);
    }
    let body_start = line.len() - line.trim_start().len();
    let (indent, body) = line.split_at(body_start);
    let body = body.trim_end();
    // One pass: only a space after a non-space is already normal.
    let mut prev_ws = false;
    let mut needs_collapse = false;
    for &b in body.as_bytes() {
        if b >= 0x80 {
            needs_collapse = body.chars().any(|c| c.is_whitespace() && c != ' ');
            needs_collapse |= body.as_bytes().windows(2).any(|w| w == b"  ");
            break;
        }
        let ws = b.is_ascii_whitespace() || b == 0x0b;
        if ws && (prev_ws || b != b' ') {
            needs_collapse = true;
            break;
        }
        prev_ws = ws;
    }
    if !needs_collapse {
        return Cow::Borrowed(&line[..body_start + body.len()]);
    }
    let mut out = String::with_capacity(line.len());
    out.push_str(indent);
    let mut words = body.split_whitespace();
    if let Some(first) = words.next() {
        out.push_str(first);
        for w in words {
            out.push(' ');
            out.push_str(w);
        }
    }
    Cow::Owned(out)
}

/// What `char::is_whitespace` accepts among ASCII bytes.
fn is_ascii_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// [`normalize_whitespace`] for ASCII lines, byte by byte.
pub(super) fn normalize_ascii(line: &str) -> Cow<'_, str> {
    let bytes = line.as_bytes();
    let start = bytes
        .iter()
        .position(|&b| !is_ascii_ws(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_ascii_ws(b))
        .map_or(start, |i| i + 1);
    let mut prev_ws = false;
    let collapse = bytes[start..end].iter().any(|&b| {
        let ws = is_ascii_ws(b);
        let bad = ws && (prev_ws || b != b' ');
        prev_ws = ws;
        bad
    });
    if !collapse {
        return Cow::Borrowed(&line[..end]);
    }
    let mut out = String::with_capacity(end);
    out.push_str(&line[..start]);
    for (i, word) in line[start..end]
        .split(|c: char| c.is_ascii() && is_ascii_ws(c as u8))
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    Cow::Owned(out)
}

/// Whether [`normalize_whitespace`] would return `line` unchanged, checked
/// eight bytes at a time: ASCII, no trailing whitespace, and after the
/// indentation only single spaces. False also for some normal lines (any
/// control byte below 0x0e): those take the slow path, which is exact.
pub(super) fn is_normal_ascii(line: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let start = line
        .iter()
        .position(|&b| !is_ascii_ws(b))
        .unwrap_or(line.len());
    let body = &line[start..];
    if body.last().is_some_and(|&b| is_ascii_ws(b)) {
        return false;
    }
    // The body starts with a non-space, so no space precedes it.
    let mut prev_space = false;
    let mut chunks = body.chunks_exact(8);
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        // Non-ASCII, or some byte below 0x0e (tab, newline, VT, FF, CR and
        // other controls): let the exact path decide.
        if w & HI != 0 || w.wrapping_sub(LO * 0x0e) & !w & HI != 0 {
            return false;
        }
        // High bit of each byte that is a space (exact: no borrows).
        let x = w ^ (LO * b' ' as u64);
        let spaces = !(((x & !HI).wrapping_add(!HI)) | x | !HI);
        if spaces & (spaces << 8) != 0 || (prev_space && spaces & 0x80 != 0) {
            return false;
        }
        prev_space = spaces >> 63 != 0;
    }
    for &b in chunks.remainder() {
        if b >= 0x80 || (is_ascii_ws(b) && (b != b' ' || prev_space)) {
            return false;
        }
        prev_space = b == b' ';
    }
    true
}
