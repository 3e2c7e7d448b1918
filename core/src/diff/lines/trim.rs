//! The common prefix and suffix of two texts, found as bytes and cut back
//! to line boundaries, so only the middle lines are diffed.

/// Length of the longest common prefix, comparing 4 KiB blocks with
/// `memcmp` before narrowing down byte by byte.
fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 4096;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Length of the longest common suffix, at most `max` bytes.
fn common_suffix_len(a: &[u8], b: &[u8], max: usize) -> usize {
    const BLOCK: usize = 4096;
    let (la, lb) = (a.len(), b.len());
    let mut i = 0;
    while i + BLOCK <= max && a[la - i - BLOCK..la - i] == b[lb - i - BLOCK..lb - i] {
        i += BLOCK;
    }
    i + a[..la - i]
        .iter()
        .rev()
        .zip(b[..lb - i].iter().rev())
        .take(max - i)
        .take_while(|(x, y)| x == y)
        .count()
}

/// Byte length of the common prefix of `a` and `b` that ends at a line
/// boundary in both.
pub(super) fn common_line_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = common_prefix_len(a, b);
    if n == a.len() && n == b.len() {
        return n;
    }
    // Back off to just after the last newline inside the common part.
    match a[..n].iter().rposition(|&c| c == b'\n') {
        Some(i) => i + 1,
        None => 0,
    }
}

/// Byte length of the common suffix of `a` and `b` that starts at a line
/// start in both, not overlapping `prefix`.
pub(super) fn common_line_suffix(a: &[u8], b: &[u8], prefix: usize) -> usize {
    let max = a.len().min(b.len()) - prefix;
    let n = common_suffix_len(a, b, max);
    if n == 0 {
        return 0;
    }
    let at_line_start = |s: &[u8], len: usize| {
        let start = s.len() - len;
        start == prefix || s[start - 1] == b'\n'
    };
    if at_line_start(a, n) && at_line_start(b, n) {
        return n;
    }
    // Move forward to the first line start inside the common suffix.
    let suffix = &a[a.len() - n..];
    match suffix.iter().position(|&c| c == b'\n') {
        Some(i) => n - (i + 1),
        None => 0,
    }
}

/// Byte offset where the last `n` lines of `prefix` start (`prefix` is
/// empty or ends with a newline).
pub(super) fn tail_of(prefix: &str, n: usize) -> usize {
    if n == 0 || prefix.is_empty() {
        return prefix.len();
    }
    let bytes = prefix.as_bytes();
    let mut seen = 0;
    // Skip the prefix's own final newline, then count n line starts back.
    for i in (0..bytes.len() - 1).rev() {
        if bytes[i] == b'\n' {
            seen += 1;
            if seen == n {
                return i + 1;
            }
        }
    }
    0
}
