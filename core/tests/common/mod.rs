//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The repository's shared fixtures folder.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

/// Reads `tests/fixtures/<rel>`.
pub fn fixture(rel: &str) -> String {
    let p = fixtures().join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// One hunk read back from a formatted diff.
struct ParsedHunk {
    old_start: usize,
    old_len: usize,
    before: Vec<(String, bool)>,
    after: Vec<(String, bool)>,
}

/// Reads hunks from our unified or split output (without the one-line
/// summary header). `None` when the text is not well formed.
fn parse_hunks(patch: &str) -> Option<Vec<ParsedHunk>> {
    let mut hunks: Vec<ParsedHunk> = Vec::new();
    let mut section = ' '; // split format: 'b' before, 'a' after
    // Not `lines()`: a line of the texts may end in \r, which it would strip.
    let mut lines = patch.split_terminator('\n').peekable();
    while let Some(line) = lines.next() {
        let no_newline = lines.peek() == Some(&"\\ No newline at end of file");
        if no_newline {
            lines.next();
        }
        if let Some(header) = line.strip_prefix("@@ -") {
            let (start, len) = parse_range(header.split(' ').next()?)?;
            hunks.push(ParsedHunk {
                old_start: if len == 0 { start } else { start - 1 },
                old_len: len,
                before: Vec::new(),
                after: Vec::new(),
            });
            section = ' ';
            continue;
        }
        let h = hunks.last_mut()?;
        match line {
            "before:" => section = 'b',
            "after:" => section = 'a',
            _ if section == 'b' => h
                .before
                .push((line.strip_prefix("  ")?.to_owned(), !no_newline)),
            _ if section == 'a' => h
                .after
                .push((line.strip_prefix("  ")?.to_owned(), !no_newline)),
            _ => {
                let (tag, text) = line.split_at(1);
                let item = (text.to_owned(), !no_newline);
                match tag {
                    " " => {
                        h.before.push(item.clone());
                        h.after.push(item);
                    }
                    "-" => h.before.push(item),
                    "+" => h.after.push(item),
                    _ => return None,
                }
            }
        }
    }
    Some(hunks)
}

/// Applies our unified or split diff to `old`. Returns `None` when a hunk
/// does not match the old text.
pub fn apply_diff(old: &str, patch: &str) -> Option<String> {
    let old_lines: Vec<(String, bool)> = response_diff::__internals::split_lines(old)
        .map(|l| (l.text.to_owned(), l.newline))
        .collect();
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut pos = 0usize;
    for h in parse_hunks(patch)? {
        if h.old_start < pos || h.before.len() != h.old_len {
            return None;
        }
        out.extend_from_slice(old_lines.get(pos..h.old_start)?);
        if old_lines.get(h.old_start..h.old_start + h.old_len)? != h.before.as_slice() {
            return None;
        }
        out.extend(h.after);
        pos = h.old_start + h.old_len;
    }
    out.extend_from_slice(old_lines.get(pos..)?);
    let mut s = String::new();
    for (t, nl) in out {
        s.push_str(&t);
        if nl {
            s.push('\n');
        }
    }
    Some(s)
}

fn parse_range(s: &str) -> Option<(usize, usize)> {
    match s.split_once(',') {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => Some((s.parse().ok()?, 1)),
    }
}
