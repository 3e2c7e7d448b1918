//! Helpers shared by the integration tests.
#![allow(dead_code)]

use response_diff::diff::ResponseDiffDetector;
use response_diff::expectation::Expectation;
use response_diff::response::{DiffTarget, Response, Snapshot, render};
use response_diff::tree::{PatchOptions, apply_patch_with, snapshot_patch_with};
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

/// The `<name>.before.yml` / `<name>.after.yml` pairs of
/// `tests/fixtures/<dir>`, by name: (name, before, after).
pub fn fixture_pairs(dir: &str) -> Vec<(String, String, String)> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join(dir))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".before.yml").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let old = fixture(&format!("{dir}/{name}.before.yml"));
            let new = fixture(&format!("{dir}/{name}.after.yml"));
            (name, old, new)
        })
        .collect()
}

/// The text `render` answers for `aria` as a `browser_click`'s snapshot
/// under `expectation` (JSON), against the history of tab `tab1` in `det`.
pub fn render_click(det: &ResponseDiffDetector, aria: &str, expectation: &str) -> String {
    let e = Expectation::from_json(expectation).unwrap();
    let resolved = Expectation::resolve("browser_click", &[&e]).unwrap();
    let response = Response {
        snapshot: Some(Snapshot::aria(aria)),
        ..Response::default()
    };
    let target = DiffTarget {
        detector: det,
        key: "tab1",
    };
    render(&response, &resolved, Some(target)).unwrap().text
}

/// [`render_click`] with diffs on and `snapshotOptions.diff` set to `diff`.
pub fn render_click_diff(det: &ResponseDiffDetector, aria: &str, diff: &str) -> String {
    render_click(
        det,
        aria,
        &format!(
            r#"{{"diffOptions": {{"enabled": true}}, "snapshotOptions": {{"diff": "{diff}"}}}}"#
        ),
    )
}

/// One case of a shared patch fixture (`tests/fixtures/patches/*.json`):
/// its string fields by name, and the snapshots the agent had seen.
pub struct PatchCase {
    case: serde_json::Value,
    /// The `seen` snapshots, oldest first.
    pub seen: Vec<String>,
}

impl PatchCase {
    /// A string field of the case (`name`, `old`, `new`, `patch`, …).
    pub fn s(&self, key: &str) -> String {
        self.case[key].as_str().unwrap().to_owned()
    }

    /// The seen snapshots as the patch functions take them.
    pub fn seen(&self) -> Vec<&str> {
        self.seen.iter().map(String::as_str).collect()
    }
}

/// The patch from `old` to `new` with `seen` (restores on), checked to
/// apply back to `new`.
pub fn seen_patch(old: &str, new: &str, seen: &[&str]) -> String {
    let p = snapshot_patch_with(old, new, &PatchOptions::seen(seen.to_vec())).unwrap();
    assert_eq!(
        apply_patch_with(old, &p.text, seen).unwrap(),
        new,
        "{}",
        p.text
    );
    p.text
}

/// The cases of `tests/fixtures/patches/<file>`.
pub fn patch_cases(file: &str) -> Vec<PatchCase> {
    let fixture: serde_json::Value =
        serde_json::from_str(&fixture(&format!("patches/{file}"))).unwrap();
    fixture["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| PatchCase {
            seen: case["seen"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect(),
            case: case.clone(),
        })
        .collect()
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

/// The agent of a session rendered as the server renders it, with diffs
/// on: its view, rebuilt from each response, and every view it was shown
/// before (what a patch restores from).
pub struct Agent<'a> {
    pub detector: &'a ResponseDiffDetector,
    pub view: Option<String>,
    pub history: Vec<String>,
}

impl<'a> Agent<'a> {
    pub fn new(detector: &'a ResponseDiffDetector) -> Self {
        Agent {
            detector,
            view: None,
            history: Vec::new(),
        }
    }

    /// Renders `aria` with diffs on, rebuilds the view from the response
    /// and checks it; returns the snapshot section's body.
    pub fn step(&mut self, aria: &str) -> String {
        let e = Expectation::from_json(r#"{"diffOptions": {"enabled": true}}"#).unwrap();
        let exp = Expectation::resolve("browser_click", &[&e]).unwrap();
        let target = DiffTarget {
            detector: self.detector,
            key: "tab",
        };
        let response = Response {
            snapshot: Some(Snapshot::aria(aria)),
            ..Response::default()
        };
        let text = render(&response, &exp, Some(target)).unwrap().text;
        let body = text.split_once("### Page snapshot").unwrap().1.to_owned();
        let block = |lang: &str| -> String {
            let open = format!("```{lang}\n");
            let from = body.find(&open).unwrap() + open.len();
            body[from..from + body[from..].find("\n```").unwrap()].to_owned()
        };
        let rebuilt = if body.starts_with(" (patch)") {
            let seen: Vec<&str> = self.history.iter().map(String::as_str).collect();
            apply_patch_with(self.view.as_deref().unwrap(), &block(""), &seen).unwrap()
        } else if body.starts_with(" (diff") {
            apply_diff(self.view.as_deref().unwrap(), &block("diff")).unwrap()
        } else if body.contains("No changes since") {
            self.view.clone().unwrap()
        } else {
            block("yaml")
        };
        assert_eq!(
            rebuilt,
            aria.trim_end(),
            "the response does not rebuild the page:\n{text}"
        );
        if let Some(v) = self.view.replace(rebuilt) {
            self.history.push(v);
        }
        body
    }
}
