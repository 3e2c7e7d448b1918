//! Find in a snapshot (`browser_find`, docs/DECISIONS.md D52): the lines of
//! an aria snapshot that match a text or a regular expression, each shown
//! with a few lines of context under its path from the root, so an agent
//! that only needs to locate an element and its ref pays for a handful of
//! lines instead of the whole page.
//!
//! The rules are @playwright/mcp's `browser_find`, applied to the text our
//! printer writes ([`Tree::to_aria`](super::Tree::to_aria)) so the refs are
//! the ones the agent acts on:
//!
//! - `text` matches a line that contains it, ignoring case; a regex is
//!   case-sensitive unless written `/pattern/i` (flags `i`, `m`, `s`; `g`,
//!   `u`, `y`, `d` and `v` change nothing on one line and are accepted). The
//!   syntax is the `regex` crate's: no look-around and no backreferences.
//! - Each match brings [`FindOptions::context`] lines before and after it;
//!   windows that touch or overlap are merged. A window is shown under the
//!   ancestors of its first line (the nearest earlier line of each smaller
//!   indentation). Where lines are skipped between two shown lines that are
//!   neither a match nor an ancestor of one, a `...` line at the next
//!   line's indentation says so.
//! - Windows are separated by a `----` line between blank lines.
//!
//! Beyond Playwright, the matches shown are capped at
//! [`FindOptions::max_matches`] (the first ones in page order), and the
//! heading says how many there were, so a query that matches most of the
//! page does not cost more than the snapshot itself would.

use crate::error::{Error, Result};
use crate::expectation::{ConsolePattern, PatternError, PatternFlags, build_pattern};
use crate::prelude::*;

/// What to look for.
#[derive(Debug, Clone)]
pub enum FindQuery {
    /// A substring, matched ignoring case.
    Text(String),
    /// A compiled regex and its source as the agent wrote it.
    Regex {
        /// The compiled pattern.
        regex: ConsolePattern,
        /// `/pattern/flags`, for the heading.
        shown: String,
    },
}

impl FindQuery {
    /// A plain-text query (case-insensitive). An empty text is an error.
    pub fn text(text: &str) -> Result<FindQuery> {
        if text.is_empty() {
            return Err(Error::invalid_option(
                "text",
                "is empty; give the text to look for, or a regex",
            ));
        }
        Ok(FindQuery::Text(text.to_lowercase()))
    }

    /// A regex query: `pattern` (case-sensitive) or `/pattern/flags`.
    pub fn regex(source: &str) -> Result<FindQuery> {
        let (pattern, flags) = split_literal(source);
        if pattern.is_empty() {
            return Err(Error::invalid_option(
                "regex",
                "is empty; give a pattern such as `Sign (in|up)` or `/error/i`",
            ));
        }
        let mut flags_set = PatternFlags::default();
        let mut kept = String::new();
        for flag in flags.chars() {
            match flag {
                'i' => flags_set.case_insensitive = true,
                'm' => flags_set.multi_line = true,
                's' => flags_set.dot_matches_new_line = true,
                // A line is searched once; `u` and the others change nothing here.
                'g' | 'u' | 'y' | 'd' | 'v' => continue,
                other => {
                    return Err(Error::invalid_option(
                        "regex",
                        format!(
                            "`{source}` has the flag `{other}`; the flags are i (ignore case), m and s"
                        ),
                    ));
                }
            }
            kept.push(flag);
        }
        let regex = build_pattern(pattern, flags_set).map_err(|e| {
            Error::invalid_option(
                "regex",
                match e {
                    PatternError::Invalid(why) => format!(
                        "`{source}` is not a valid regex ({why}); the syntax is Rust's regex syntax with ASCII classes: no look-around, no backreferences"
                    ),
                    PatternError::Unsupported => "this build has no regex support (the response-diff crate's `patterns` feature is off): search by text".to_owned(),
                },
            )
        })?;
        Ok(FindQuery::Regex {
            regex,
            shown: format!("/{pattern}/{kept}"),
        })
    }

    fn matches(&self, line: &str) -> bool {
        match self {
            FindQuery::Text(needle) => {
                // Most lines are ASCII: lower-case those without allocating.
                if line.is_ascii() && needle.is_ascii() {
                    contains_ascii_ignoring_case(line, needle)
                } else {
                    line.to_lowercase().contains(needle.as_str())
                }
            }
            FindQuery::Regex { regex, .. } => regex.is_match(line),
        }
    }

    /// How the heading names the query: `"text"` or `/pattern/flags`.
    fn label(&self) -> String {
        match self {
            FindQuery::Text(t) => format!("\"{t}\""),
            FindQuery::Regex { shown, .. } => shown.clone(),
        }
    }
}

/// `/pattern/flags` → (pattern, flags); anything else is the pattern.
fn split_literal(source: &str) -> (&str, &str) {
    if let Some(rest) = source.strip_prefix('/')
        && let Some(end) = rest.rfind('/')
    {
        let flags = &rest[end + 1..];
        if flags.chars().all(|c| c.is_ascii_lowercase()) {
            return (&rest[..end], flags);
        }
    }
    (source, "")
}

fn contains_ascii_ignoring_case(haystack: &str, lower_needle: &str) -> bool {
    let (h, n) = (haystack.as_bytes(), lower_needle.as_bytes());
    n.len() <= h.len()
        && h.windows(n.len())
            .any(|w| w.iter().zip(n).all(|(a, b)| a.to_ascii_lowercase() == *b))
}

/// How much to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FindOptions {
    /// Lines shown before and after each match (Playwright's 3).
    pub context: usize,
    /// Matches shown at most; the heading counts them all.
    pub max_matches: usize,
}

/// The default cap on the matches shown.
pub const MAX_FIND_MATCHES: usize = 50;

impl Default for FindOptions {
    fn default() -> Self {
        FindOptions {
            context: 3,
            max_matches: MAX_FIND_MATCHES,
        }
    }
}

/// What [`find`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindResult {
    /// Lines that matched, in all.
    pub matches: usize,
    /// Lines that matched and are shown (at most `max_matches`).
    pub shown: usize,
    /// The text for the agent: a heading, then the snippets.
    pub text: String,
}

/// Searches the lines of an aria snapshot (see the module's rules).
pub fn find(snapshot: &str, query: &FindQuery, options: &FindOptions) -> FindResult {
    let lines: Vec<&str> = snapshot.lines().collect();
    let matched: Vec<usize> = (0..lines.len())
        .filter(|&i| query.matches(lines[i]))
        .collect();
    let label = query.label();
    if matched.is_empty() {
        return FindResult {
            matches: 0,
            shown: 0,
            text: format!("No matches found for {label}."),
        };
    }
    let shown_matches = &matched[..matched.len().min(options.max_matches.max(1))];
    let indents: Vec<usize> = lines.iter().map(|l| indent_of(l)).collect();
    let parents = parents(&lines, &indents);
    // Matches and their ancestors: the lines a `...` never stands beside.
    let mut on_path = vec![false; lines.len()];
    for &m in shown_matches {
        on_path[m] = true;
        let mut at = parents[m];
        while let Some(p) = at {
            if on_path[p] {
                break;
            }
            on_path[p] = true;
            at = parents[p];
        }
    }
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for &m in shown_matches {
        let start = m.saturating_sub(options.context);
        let end = (m + options.context).min(lines.len() - 1);
        match windows.last_mut() {
            Some(last) if start <= last.1 + 1 => last.1 = last.1.max(end),
            _ => windows.push((start, end)),
        }
    }
    let snippets: Vec<String> = windows
        .iter()
        .map(|&(start, end)| {
            let mut indices = Vec::new();
            let mut at = parents[start];
            while let Some(p) = at {
                indices.push(p);
                at = parents[p];
            }
            indices.reverse();
            indices.extend(start..=end);
            let mut out: Vec<String> = Vec::with_capacity(indices.len() + 2);
            for (k, &i) in indices.iter().enumerate() {
                if k > 0 {
                    let prev = indices[k - 1];
                    if i > prev + 1 && !on_path[i] && !on_path[prev] {
                        out.push(format!("{}...", " ".repeat(indents[i])));
                    }
                }
                out.push(lines[i].to_owned());
            }
            out.join("\n")
        })
        .collect();
    let word = if matched.len() == 1 {
        "match"
    } else {
        "matches"
    };
    let mut heading = format!("Found {} {word} for {label}", matched.len());
    if shown_matches.len() < matched.len() {
        heading.push_str(&format!(
            "; showing the first {} (narrow the search to see others)",
            shown_matches.len()
        ));
    }
    FindResult {
        matches: matched.len(),
        shown: shown_matches.len(),
        text: format!("{heading}:\n\n{}", snippets.join("\n\n----\n\n")),
    }
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Each line's parent: the nearest earlier non-blank line of a smaller
/// indentation (`None` at the top level). One pass with a stack.
fn parents(lines: &[&str], indents: &[usize]) -> Vec<Option<usize>> {
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            out.push(stack.last().copied());
            continue;
        }
        while stack.last().is_some_and(|&p| indents[p] >= indents[i]) {
            stack.pop();
        }
        out.push(stack.last().copied());
        stack.push(i);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "\
- banner [ref=e1]:
  - link \"Home\" [ref=e2]
- main [ref=e3]:
  - heading \"Products\" [level=1] [ref=e4]
  - list [ref=e5]:
    - listitem [ref=e6]: Apple
    - listitem [ref=e7]: Banana
    - listitem [ref=e8]: Cherry
    - listitem [ref=e9]: Date
    - listitem [ref=e10]: Elderberry
    - listitem [ref=e11]: Fig
    - listitem [ref=e12]: Grape
    - listitem [ref=e13]: Honeydew
    - listitem [ref=e14]: Kiwi
  - button \"Add to cart\" [ref=e15]
- contentinfo [ref=e16]:
  - link \"Contact\" [ref=e17]";

    fn opts() -> FindOptions {
        FindOptions::default()
    }

    #[test]
    fn a_match_under_its_path_with_context() {
        let r = find(PAGE, &FindQuery::text("honeyDEW").unwrap(), &opts());
        assert_eq!(r.matches, 1);
        assert_eq!(
            r.text,
            "Found 1 match for \"honeydew\":\n\n\
             - main [ref=e3]:\n  \
               - list [ref=e5]:\n    \
                 - listitem [ref=e10]: Elderberry\n    \
                 - listitem [ref=e11]: Fig\n    \
                 - listitem [ref=e12]: Grape\n    \
                 - listitem [ref=e13]: Honeydew\n    \
                 - listitem [ref=e14]: Kiwi\n  \
               - button \"Add to cart\" [ref=e15]\n\
             - contentinfo [ref=e16]:"
        );
    }

    #[test]
    fn skipped_lines_beside_no_path_line_are_marked() {
        // The window of the button starts inside the list, which is not
        // the button's ancestor: the lines skipped there are marked.
        let r = find(PAGE, &FindQuery::text("add to cart").unwrap(), &opts());
        assert_eq!(
            r.text,
            "Found 1 match for \"add to cart\":\n\n\
             - main [ref=e3]:\n  \
               - list [ref=e5]:\n    \
                 ...\n    \
                 - listitem [ref=e12]: Grape\n    \
                 - listitem [ref=e13]: Honeydew\n    \
                 - listitem [ref=e14]: Kiwi\n  \
               - button \"Add to cart\" [ref=e15]\n\
             - contentinfo [ref=e16]:\n  \
               - link \"Contact\" [ref=e17]"
        );
    }

    #[test]
    #[cfg(feature = "patterns")]
    fn windows_apart_are_separated_and_near_ones_merge() {
        let r = find(
            PAGE,
            &FindQuery::regex("/^- (banner|contentinfo)/").unwrap(),
            &opts(),
        );
        assert_eq!(r.matches, 2);
        let parts: Vec<&str> = r.text.split("\n\n----\n\n").collect();
        assert_eq!(parts.len(), 2, "{}", r.text);
        assert_eq!(
            parts[0],
            "Found 2 matches for /^- (banner|contentinfo)/:\n\n\
             - banner [ref=e1]:\n  - link \"Home\" [ref=e2]\n- main [ref=e3]:\n  \
             - heading \"Products\" [level=1] [ref=e4]"
        );
        assert_eq!(
            parts[1],
            "- main [ref=e3]:\n  ...\n  - list [ref=e5]:\n    ...\n    \
             - listitem [ref=e13]: Honeydew\n    - listitem [ref=e14]: Kiwi\n  \
             - button \"Add to cart\" [ref=e15]\n- contentinfo [ref=e16]:\n  \
             - link \"Contact\" [ref=e17]"
        );
        // Two matches three lines apart: one window.
        let r = find(PAGE, &FindQuery::regex("Banana|Date").unwrap(), &opts());
        assert_eq!(r.matches, 2);
        assert!(!r.text.contains("----"), "{}", r.text);
    }

    #[test]
    #[cfg(not(feature = "patterns"))]
    fn without_patterns_a_regex_query_is_refused_and_says_so() {
        let e = FindQuery::regex("/apple/i").unwrap_err().to_string();
        assert!(e.contains("no regex support"), "{e}");
        assert!(e.contains("search by text"), "{e}");
    }

    #[test]
    #[cfg(feature = "patterns")]
    fn regex_flags_and_errors() {
        assert_eq!(
            find(PAGE, &FindQuery::regex("apple").unwrap(), &opts()).matches,
            0
        );
        assert_eq!(
            find(PAGE, &FindQuery::regex("/apple/i").unwrap(), &opts()).matches,
            1
        );
        assert_eq!(
            find(PAGE, &FindQuery::regex("/apple/gi").unwrap(), &opts()).matches,
            1
        );
        let e = FindQuery::regex("/a/x").unwrap_err().to_string();
        assert!(e.contains("flag `x`"), "{e}");
        let e = FindQuery::regex("(?<=a)b").unwrap_err().to_string();
        assert!(e.contains("no look-around"), "{e}");
        assert!(FindQuery::text("").is_err());
        // A slash pattern with no valid flag part is a plain pattern.
        assert_eq!(
            find(
                "- link \"/a/B\"",
                &FindQuery::regex("/a/B").unwrap(),
                &opts()
            )
            .matches,
            1
        );
    }

    #[test]
    fn no_match_and_the_cap() {
        let r = find(PAGE, &FindQuery::text("mango").unwrap(), &opts());
        assert_eq!(r.text, "No matches found for \"mango\".");
        let r = find(
            PAGE,
            &FindQuery::text("listitem").unwrap(),
            &FindOptions {
                context: 0,
                max_matches: 2,
            },
        );
        assert_eq!((r.matches, r.shown), (9, 2));
        assert_eq!(
            r.text,
            "Found 9 matches for \"listitem\"; showing the first 2 (narrow the search to see others):\n\n\
             - main [ref=e3]:\n  - list [ref=e5]:\n    - listitem [ref=e6]: Apple\n    - listitem [ref=e7]: Banana"
        );
    }

    #[test]
    fn non_ascii_text_ignores_case() {
        let r = find(
            "- button \"ÉTÉ\" [ref=e1]",
            &FindQuery::text("été").unwrap(),
            &opts(),
        );
        assert_eq!(r.matches, 1);
    }
}
