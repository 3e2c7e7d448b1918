//! Lines of a text: splitting a text into lines and counting them.

/// One line of a text, without its terminator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line's text without the trailing `\n` (a `\r` before it is kept).
    pub text: &'a str,
    /// Whether the line ended with `\n` (only the last line of a text can
    /// lack it).
    pub newline: bool,
}

/// Splits `text` into lines. A trailing `\n` does not start a new line.
///
/// Each newline is found eight bytes at a time (`crate::newlines`), which
/// suits snapshot lines: short, so a search with more setup per call
/// would not pay off.
pub fn split_lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    let mut newlines = crate::newlines::iter(text.as_bytes());
    core::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let line = match newlines.next() {
            Some(i) => Line {
                text: &text[start..i],
                newline: true,
            },
            None => Line {
                text: &text[start..],
                newline: false,
            },
        };
        start += line.text.len() + 1;
        Some(line)
    })
}

/// Number of lines in `text` (a trailing `\n` does not start a new line).
pub fn count_lines(text: &str) -> usize {
    let newlines = count_newlines(text.as_bytes());
    newlines + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

fn count_newlines(bytes: &[u8]) -> usize {
    crate::newlines::count(bytes)
}
