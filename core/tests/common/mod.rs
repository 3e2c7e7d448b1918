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

/// Applies a unified diff (hunks only, as our formatter prints them) to
/// `old`. Returns `None` when a context or removed line does not match.
pub fn apply_unified(old: &str, patch: &str) -> Option<String> {
    let old_lines: Vec<(&str, bool)> = split(old);
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut pos = 0usize; // next old line to copy
    let mut lines = patch.lines().peekable();
    while let Some(line) = lines.next() {
        let header = line.strip_prefix("@@ -")?;
        let old_part = header.split(' ').next()?;
        let (start, len) = parse_range(old_part)?;
        // An empty range names the line before it.
        let first = if len == 0 { start } else { start - 1 };
        while pos < first {
            out.push((old_lines.get(pos)?.0.to_owned(), old_lines[pos].1));
            pos += 1;
        }
        while let Some(&l) = lines.peek() {
            if l.starts_with("@@ ") {
                break;
            }
            lines.next();
            let no_newline = lines.peek() == Some(&"\\ No newline at end of file");
            if no_newline {
                lines.next();
            }
            let (tag, text) = l.split_at(1);
            match tag {
                " " => {
                    if old_lines.get(pos)?.0 != text {
                        return None;
                    }
                    out.push((text.to_owned(), !no_newline));
                    pos += 1;
                }
                "-" => {
                    if old_lines.get(pos)?.0 != text {
                        return None;
                    }
                    pos += 1;
                }
                "+" => out.push((text.to_owned(), !no_newline)),
                _ => return None,
            }
        }
    }
    while pos < old_lines.len() {
        out.push((old_lines[pos].0.to_owned(), old_lines[pos].1));
        pos += 1;
    }
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

fn split(text: &str) -> Vec<(&str, bool)> {
    response_diff::diff::split_lines(text)
        .map(|l| (l.text, l.newline))
        .collect()
}
