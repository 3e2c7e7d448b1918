//! Response rendering (docs/DECISIONS.md D5): one function renders a response's
//! sections to Markdown under an expectation, so every host (Rust server,
//! Node, Python, C) prints the same text for the same input.
//!
//! Sections come in a fixed order with `### ` headings: result, code, open
//! tabs, page state, page snapshot, console messages, downloads. Images stay
//! separate content items.
//!
//! ```
//! use response_diff::expectation::Expectation;
//! use response_diff::response::{render, ConsoleMessage, PageState, Response, Snapshot};
//!
//! let response = Response {
//!     result: Some("Clicked \"Add to cart\"".into()),
//!     page: Some(PageState { url: "http://127.0.0.1:8080/".into(), title: "Shop".into() }),
//!     snapshot: Some(Snapshot::aria("- main [ref=e1]:\n  - button \"Add to cart\" [ref=e2]")),
//!     console: vec![ConsoleMessage::new("error", "Cart service down")],
//!     ..Response::default()
//! };
//! let step = Expectation::from_json(r#"{"includeConsole": false}"#).unwrap();
//! let exp = Expectation::resolve("browser_click", &[&step]).unwrap();
//! let out = render(&response, &exp, None).unwrap();
//! assert!(out.text.starts_with("### Result\nClicked \"Add to cart\"\n"));
//! assert!(out.text.contains("### Page snapshot\n```yaml\n- main [ref=e1]:"));
//! assert!(!out.text.contains("Cart service down"));
//! ```

use crate::prelude::*;

mod base;
mod base64;
mod batch;
#[cfg(feature = "images")]
mod image;
mod model;
mod snapshot;

use core::fmt::Write as _;

use serde::Serialize;

use crate::Result;
use crate::diff::{
    DiffMode, DiffResult, ResponseDiffDetector, SharedText, compare_texts, diff_is_small,
    over_max_diff_lines,
};
use crate::expectation::{ConsoleFilter, ConsoleLevel, ResolvedExpectation, SnapshotDiff};
use crate::tree::{PatchOptions, Shown, retire, snapshot_patch_archived};

pub use base::{BaseDiff, REBASE_SHARE, diff_against_base};
pub use batch::{BatchReport, BatchStep, render_batch};
pub use model::{ConsoleMessage, Download, Image, PageState, Response, Section, Snapshot, Tab};
pub use snapshot::{SnapshotView, fence, truncate_lines, view_snapshot};

/// Where the snapshot diff is kept: a detector and the host's key for the
/// page (e.g. the tab id). Only used when `diffOptions.enabled` is on.
#[derive(Debug, Clone, Copy)]
pub struct DiffTarget<'a> {
    /// The detector holding previous snapshots.
    pub detector: &'a ResponseDiffDetector,
    /// The page's key; the snapshot view (format, selector) is appended so
    /// different views do not break each other's chain.
    pub key: &'a str,
}

/// A rendered response.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RenderedResponse {
    /// The Markdown text.
    pub text: String,
    /// Images, resized and re-encoded per `imageOptions`.
    pub images: Vec<Image>,
    /// Whether the result is an error.
    pub is_error: bool,
    /// The snapshot diff, when diffing was on and a snapshot was shown.
    pub snapshot_diff: Option<DiffResult>,
}

/// Renders `response` under `expectation`.
///
/// With `diff` given and `diffOptions.enabled` on, the snapshot section is
/// compared with the previous snapshot under the same key and shown as a
/// diff, a one-line "unchanged", or in full. With diffing off, the stored
/// previous snapshot is neither read nor moved, so an agent can peek at the
/// full page without breaking its diff chain.
pub fn render(
    response: &Response,
    expectation: &ResolvedExpectation,
    diff: Option<DiffTarget<'_>>,
) -> Result<RenderedResponse> {
    let mut out = String::new();
    let mut snapshot_diff = None;
    // With diffing on, a section the agent was shown in the previous
    // response for this key, unchanged since, is left out (see
    // `unchanged_since_shown`).
    let chain = diff.filter(|_| expectation.diff.enabled);

    if let Some(result) = &response.result {
        section(&mut out, "Result", result);
    }
    if expectation.include_code
        && let Some(code) = response.code.as_deref().filter(|c| !c.trim().is_empty())
    {
        let lang = response.code_lang.as_deref().unwrap_or("js");
        section(&mut out, "Ran Playwright code", &fence(lang, code));
    }
    if expectation.include_tabs && !response.tabs.is_empty() {
        let mut body = String::new();
        for t in &response.tabs {
            let current = if t.current { "(current) " } else { "" };
            let _ = writeln!(body, "- {}: {current}[{}]({})", t.index, t.title, t.url);
        }
        let body = body.trim_end();
        // Checked (and stored) even when asked for, so the next response
        // compares with what this one showed.
        if !unchanged_since_shown(chain, "tabs", body) || response.tabs_requested {
            section(&mut out, "Open tabs", body);
        }
    }
    if let Some(page) = &response.page {
        let body = format!("- Page URL: {}\n- Page Title: {}", page.url, page.title);
        let before = previously_shown(chain, "page");
        if !unchanged_since_shown(chain, "page", &body) {
            // Only the lines that changed (a route change keeps its title).
            let body = match before {
                Some(before) => body
                    .lines()
                    .zip(before.lines().chain(core::iter::repeat("")))
                    .filter(|(now, was)| now != was)
                    .map(|(now, _)| now)
                    .collect::<Vec<_>>()
                    .join("\n"),
                None => body,
            };
            section(&mut out, "Page state", &body);
        }
    }
    if !response.modal_state.is_empty() {
        // The agent cannot act before answering it: never filtered.
        section(&mut out, "Modal state", &response.modal_state.join("\n"));
    }
    if expectation.include_snapshot
        && let Some(own) = &response.snapshot_section
    {
        section(&mut out, &own.heading, &own.body);
    } else if expectation.include_snapshot
        && let Some(snap) = &response.snapshot
    {
        let url = response.page.as_ref().map(|p| p.url.as_str());
        let s = snapshot_section(snap, expectation, diff, url)?;
        snapshot_diff = s.diff;
        section(&mut out, &s.heading, &s.body);
    }
    if expectation.include_console
        && let Some((body, kept)) = render_console(&response.console, &expectation.console)
        // Lean: when diffing, messages the filter left out entirely are
        // not worth a section (the agent chose not to see them).
        && (kept || chain.is_none())
    {
        section(&mut out, "Console messages", &body);
    }
    if expectation.include_downloads && !response.downloads.is_empty() {
        let mut body = String::new();
        for d in &response.downloads {
            match (&d.path, d.size) {
                (Some(p), Some(n)) => writeln!(body, "- {} ({n} bytes) → {p}", d.name),
                (Some(p), None) => writeln!(body, "- {} → {p}", d.name),
                (None, _) => writeln!(body, "- {} (in progress)", d.name),
            }
            .ok();
        }
        section(&mut out, "Downloads", body.trim_end());
    }

    let images = process_images(&response.images, expectation, &mut out)?;
    while out.ends_with('\n') {
        out.pop();
    }
    Ok(RenderedResponse {
        text: out,
        images,
        is_error: response.is_error,
        snapshot_diff,
    })
}

#[cfg(feature = "images")]
fn process_images(
    images: &[Image],
    expectation: &ResolvedExpectation,
    _out: &mut String,
) -> Result<Vec<Image>> {
    images
        .iter()
        .map(|i| image::process(i, &expectation.image))
        .collect()
}

/// Without the `images` feature an image is passed through as it came,
/// unless `imageOptions` asks for work on it: that is an error naming the
/// option (docs/DECISIONS.md D67), rather than an answer that silently
/// is not what was asked.
#[cfg(not(feature = "images"))]
fn process_images(
    images: &[Image],
    expectation: &ResolvedExpectation,
    _out: &mut String,
) -> Result<Vec<Image>> {
    if !images.is_empty() && expectation.image != Default::default() {
        return Err(crate::Error::invalid_option(
            "expectation.imageOptions",
            "this build has no image support (the response-diff crate's `images` feature is off): leave imageOptions out to get the images as they are, or use a build with images".to_owned(),
        ));
    }
    Ok(images.to_vec())
}

#[cfg(feature = "images")]
pub use image::process as process_image;

/// Whether `body` is what the previous diffed response for the same key
/// showed in section `name`; records it as shown. The lean envelope (issue
/// 15): an agent that diffs keeps what it was shown, so repeating the page
/// URL and title, or the tab list, after every action costs tokens and
/// says nothing. Lossless because the comparison is with what this chain
/// showed last (a peek with diffing off neither reads nor moves it), and a
/// change shows the section again.
/// What the previous diffed response for the same key showed in section
/// `name`, if any.
fn previously_shown(chain: Option<DiffTarget<'_>>, name: &str) -> Option<SharedText> {
    let target = chain?;
    target
        .detector
        .previous(&format!("{}\u{1f}section\u{1f}{name}", target.key))
}

/// The lean envelope for a section the host prints itself (a wrapper that
/// keeps another server's `### Page`): whether `body` is what the last
/// response with diffing on showed in section `name` under the key, so it
/// can be left out; records `body` as shown. Call it only for responses
/// with diffing on, as [`render`] does, so a peek with diffing off neither
/// reads nor moves it. `name` must not be `page` or `tabs`, the sections
/// [`render`] keeps this way itself.
///
/// ```
/// use response_diff::diff::ResponseDiffDetector;
/// use response_diff::response::{section_unchanged, DiffTarget};
///
/// let detector = ResponseDiffDetector::default();
/// let target = DiffTarget { detector: &detector, key: "tab-1" };
/// assert!(!section_unchanged(target, "Page", "- Page URL: http://127.0.0.1/"));
/// assert!(section_unchanged(target, "Page", "- Page URL: http://127.0.0.1/"));
/// assert!(!section_unchanged(target, "Page", "- Page URL: http://127.0.0.1/cart"));
/// ```
pub fn section_unchanged(target: DiffTarget<'_>, name: &str, body: &str) -> bool {
    unchanged_since_shown(Some(target), name, body)
}

fn unchanged_since_shown(chain: Option<DiffTarget<'_>>, name: &str, body: &str) -> bool {
    let Some(target) = chain else {
        return false;
    };
    let key = format!("{}\u{1f}section\u{1f}{name}", target.key);
    if target.detector.previous(&key).as_deref() == Some(body) {
        return true;
    }
    // A body over the store cap is simply shown again next time.
    let _ = target.detector.store(&key, body);
    false
}

/// The one-line header of a snapshot patch: the counts that are not zero,
/// then the unchanged elements (`1 changed, 34 unchanged`; `2 added,
/// 1 removed, 40 unchanged`). The patch lines say the kind of each change
/// (`~`, `+`, `-`), so the header stays short.
fn patch_header(p: &crate::tree::SnapshotPatch) -> String {
    let mut parts = Vec::new();
    if p.changed > 0 {
        parts.push(format!("{} changed", p.changed));
    }
    if p.moved > 0 {
        parts.push(format!("{} moved", p.moved));
    }
    match (p.added, p.restored) {
        (0, _) => {}
        (n, 0) => parts.push(format!("{n} added")),
        (n, r) => parts.push(format!("{n} added ({r} as last shown)")),
    }
    if p.removed > 0 {
        parts.push(format!("{} removed", p.removed));
    }
    parts.push(format!("{} unchanged", p.unchanged));
    parts.join(", ")
}

fn section(out: &mut String, heading: &str, body: &str) {
    let _ = write!(out, "### {heading}\n{body}\n\n");
}

/// The snapshot section alone, as [`render`] prints it in a response.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotSection {
    /// The heading, without the `### ` (`Page snapshot (patch)`).
    pub heading: String,
    /// The body: the fenced snapshot, a diff or patch, or one line.
    pub body: String,
    /// The snapshot diff, when diffing was on.
    pub diff: Option<DiffResult>,
}

impl SnapshotSection {
    /// `### <heading>\n<body>`, as it stands in a rendered response.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        section(&mut out, &self.heading, &self.body);
        out.truncate(out.trim_end_matches('\n').len());
        out
    }
}

/// The snapshot section of a response, alone: the same rules and text as
/// in [`render`] (view, diff or patch against the previous snapshot under
/// the key or the last one of `url`, or in full), for hosts that print the
/// other sections themselves, such as a wrapper around another server
/// that keeps that server's own sections. `None` when the expectation
/// leaves the snapshot out.
///
/// ```
/// use response_diff::diff::ResponseDiffDetector;
/// use response_diff::expectation::Expectation;
/// use response_diff::response::{render_snapshot_section, DiffTarget, Snapshot};
///
/// let on = Expectation::from_json(r#"{"diffOptions": {"enabled": true}}"#).unwrap();
/// let exp = Expectation::resolve("browser_click", &[&on]).unwrap();
/// let detector = ResponseDiffDetector::default();
/// let target = Some(DiffTarget { detector: &detector, key: "tab-1" });
/// let snap = Snapshot::aria("- button \"Add\" [ref=e1]");
/// let first = render_snapshot_section(&snap, &exp, target, None).unwrap().unwrap();
/// assert_eq!(first.to_markdown(), "### Page snapshot\n```yaml\n- button \"Add\" [ref=e1]\n```");
/// let again = render_snapshot_section(&snap, &exp, target, None).unwrap().unwrap();
/// assert!(again.body.starts_with("No changes since the previous response"));
/// ```
pub fn render_snapshot_section(
    snap: &Snapshot,
    expectation: &ResolvedExpectation,
    diff: Option<DiffTarget<'_>>,
    url: Option<&str>,
) -> Result<Option<SnapshotSection>> {
    if !expectation.include_snapshot {
        return Ok(None);
    }
    snapshot_section(snap, expectation, diff, url).map(Some)
}

fn snapshot_section(
    snap: &Snapshot,
    expectation: &ResolvedExpectation,
    diff: Option<DiffTarget<'_>>,
    url: Option<&str>,
) -> Result<SnapshotSection> {
    let (body, result, base, patch) = render_snapshot(snap, expectation, diff, url)?;
    // A patch against the previous snapshot is the common case: its
    // heading says only "patch" (the lean envelope).
    let heading = match result.as_ref().map(|r| r.mode) {
        Some(DiffMode::Diff) if patch && base == Base::Previous => {
            "Page snapshot (patch)".to_owned()
        }
        Some(DiffMode::Diff) => format!(
            "Page snapshot ({} since {})",
            if patch { "patch" } else { "diff" },
            base.name()
        ),
        _ => "Page snapshot".to_owned(),
    };
    Ok(SnapshotSection {
        heading,
        body,
        diff: result,
    })
}
/// What a snapshot diff was taken against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    /// The previous snapshot under the key (the tab's last page).
    Previous,
    /// The last snapshot of the same URL (a page seen before: back, or a
    /// return visit), when the previous snapshot was another page.
    SameUrl,
}

impl Base {
    /// How a heading or an "unchanged" line names it.
    fn name(self) -> &'static str {
        match self {
            Base::Previous => "the previous snapshot",
            Base::SameUrl => "the last snapshot of this URL",
        }
    }
}

/// The snapshot section's body, its diff result, what it was diffed
/// against, and whether the body is a snapshot patch.
type SnapshotParts = (String, Option<DiffResult>, Base, bool);

fn render_snapshot(
    snap: &Snapshot,
    expectation: &ResolvedExpectation,
    diff: Option<DiffTarget<'_>>,
    url: Option<&str>,
) -> Result<SnapshotParts> {
    let view = view_snapshot(snap, &expectation.snapshot)?;
    let lang = view.lang;
    let text = match &view.text {
        Some(t) => t,
        None => {
            return Ok((view.notice.unwrap_or_default(), None, Base::Previous, false));
        }
    };
    let notice = view.notice.map(|n| format!("\n{n}")).unwrap_or_default();
    let target = diff.filter(|_| expectation.diff.enabled);
    let Some(target) = target else {
        return Ok((
            format!("{}{notice}", fence(lang, text)),
            None,
            Base::Previous,
            false,
        ));
    };
    let key = format!(
        "{}\u{1f}{}\u{1f}{}",
        target.key,
        lang,
        expectation.snapshot.selector.as_deref().unwrap_or("")
    );
    let patches =
        lang == "yaml" && expectation.snapshot.diff.unwrap_or_default() == SnapshotDiff::Patch;
    let mut base_text = if patches {
        target.detector.previous(&key)
    } else {
        None
    };
    let prev_text = base_text.clone();
    let mut r = target.detector.detect(&key, text, &expectation.diff)?;
    let mut base = Base::Previous;
    if let Some(url) = url.filter(|u| !u.is_empty()) {
        // Each URL also keeps its own last snapshot (fragment ignored). When
        // the previous snapshot was another page, a page the agent has seen
        // before diffs against what it saw of it.
        let url_key = format!(
            "{key}\u{1f}url\u{1f}{}",
            url.split('#').next().unwrap_or(url)
        );
        if matches!(r.mode, DiffMode::First | DiffMode::Full)
            && let Some(seen) = target.detector.previous(&url_key)
        {
            let mut alt = compare_texts(Some(&seen), text, &expectation.diff);
            if matches!(alt.mode, DiffMode::Diff | DiffMode::Unchanged) {
                if alt.mode == DiffMode::Unchanged {
                    alt.formatted_diff = alt.formatted_diff.replacen(
                        "since the previous response",
                        &format!("since {}", Base::SameUrl.name()),
                        1,
                    );
                }
                alt.metadata.stored = r.metadata.stored;
                r = alt;
                base = Base::SameUrl;
                base_text = Some(seen);
            }
        }
        target.detector.store_same_as(&url_key, &key);
    }
    // An aria snapshot's changes as a patch by ref, when that rebuilds the
    // new snapshot exactly and says it in fewer bytes than the line diff
    // (or, where the line diff lost to the full text, in at most
    // MAX_DIFF_SHARE of it). As for line diffs, maxDiffLines never picks the
    // larger body: a longer patch is still sent, its header says so.
    let restore = expectation.snapshot.restore.unwrap_or(true);
    // What the agent was shown: the previous snapshot (when the patch is
    // against this URL's last one instead), then the chain's archive.
    // Only with the previous snapshot at hand: the archive speaks for what
    // is not in it (see `tree::shown`).
    let archive = if patches && restore && prev_text.is_some() {
        target.detector.previous(&shown_key(&key))
    } else {
        None
    };
    let archive = archive.as_deref().and_then(Shown::parse);
    let lookup = |r: &str| archive.as_ref().and_then(|a| a.get(r));
    let seen: Vec<&str> = match (&prev_text, base) {
        (Some(p), Base::SameUrl) => vec![&**p],
        _ => Vec::new(),
    };
    let options = PatchOptions::seen(seen).restore(restore);
    let patch = base_text
        .filter(|_| matches!(r.mode, DiffMode::Diff | DiffMode::Full))
        .and_then(|b| snapshot_patch_archived(&b, text, &options, Some(&lookup)))
        .filter(|p| match r.mode {
            DiffMode::Diff => p.text.len() < r.formatted_diff.len(),
            _ => diff_is_small(p.summary().len() + 1 + p.text.len(), text.len()),
        });
    // The chain moved on: what left the page is archived as last shown.
    drop(archive);
    update_shown(
        target.detector,
        &key,
        prev_text.as_deref(),
        text,
        patches && restore,
    );
    if let Some(p) = &patch {
        r.mode = DiffMode::Diff;
        r.has_difference = true;
        let over_cap = over_max_diff_lines(p.text.lines().count(), expectation.diff.max_diff_lines);
        r.formatted_diff = format!("{}{over_cap}\n{}", patch_header(p), p.text);
    }
    let body = match r.mode {
        // A patch is not a unified diff: its block has no language, and no
        // counts line (its lines say what changed; `formatted_diff` keeps
        // the counts for hosts), only the note when over maxDiffLines.
        DiffMode::Diff => match (r.formatted_diff.split_once('\n'), &patch) {
            (Some((_, diff)), Some(p)) => {
                let over_cap =
                    over_max_diff_lines(p.text.lines().count(), expectation.diff.max_diff_lines);
                match over_cap
                    .trim()
                    .strip_prefix('(')
                    .and_then(|n| n.strip_suffix(')'))
                {
                    Some(note) => format!("{note}\n{}", fence("", diff)),
                    None => fence("", diff),
                }
            }
            (Some((header, diff)), None) => format!("{header}\n{}", fence("diff", diff)),
            (None, _) => r.formatted_diff.clone(),
        },
        DiffMode::Full => match r.formatted_diff.split_once('\n') {
            Some((note, full)) => format!("{note}\n{}", fence(lang, full)),
            None => r.formatted_diff.clone(),
        },
        DiffMode::Unchanged => r.formatted_diff.clone(),
        _ => fence(lang, &r.formatted_diff),
    };
    let stored_note = if r.metadata.stored {
        String::new()
    } else {
        format!(
            "\n(Not kept for the next diff: the snapshot is over the detector's {}-byte store cap.)",
            target.detector.config().max_stored_bytes
        )
    };
    Ok((
        format!("{body}{notice}{stored_note}"),
        Some(r),
        base,
        patch.is_some(),
    ))
}

/// The share of the detector's store cap one chain's archive of elements
/// shown before may take (`tree::shown`): 1/8, 1.25 MiB of the default
/// 10 MiB. Past it the elements that left the page longest ago go first,
/// and come back printed in full.
pub const SHOWN_SHARE: usize = 8;

fn shown_key(key: &str) -> String {
    format!("{key}\u{1f}shown")
}

/// Keeps the chain's archive true for the step from `prev` to `new` (see
/// `tree::shown`): updated when both parse, dropped when the step cannot be
/// followed (nothing before it, a snapshot over the patch size cap or that
/// does not parse, restoring or patches off for this call).
fn update_shown(
    detector: &ResponseDiffDetector,
    key: &str,
    prev: Option<&str>,
    new: &str,
    on: bool,
) {
    let skey = shown_key(key);
    let new = new.trim_end_matches('\n');
    let Some(prev) = prev.filter(|_| on) else {
        detector.clear(&skey);
        return;
    };
    if prev.trim_end_matches('\n') == new {
        return;
    }
    let parse = |t: &str| {
        (t.len() <= crate::tree::MAX_PATCH_BYTES)
            .then(|| crate::tree::parse_aria(t, false).ok())
            .flatten()
    };
    let (Some(p), Some(n)) = (parse(prev), parse(new)) else {
        detector.clear(&skey);
        return;
    };
    let budget = detector.config().max_stored_bytes / SHOWN_SHARE;
    let old = detector.previous(&skey);
    match retire(old.as_deref(), &p, &n, budget) {
        Some(text) if !text.is_empty() => {
            // Over the cap it is not stored, and the key is dropped.
            let _ = detector.store(&skey, &text);
        }
        _ => {
            detector.clear(&skey);
        }
    }
}

/// The console section's body, and whether any message passed the filter.
fn render_console(messages: &[ConsoleMessage], filter: &ConsoleFilter) -> Option<(String, bool)> {
    if messages.is_empty() {
        return None;
    }
    // (level, text, location) → (first position, count)
    let mut kept: Vec<(ConsoleLevel, &ConsoleMessage, usize)> = Vec::new();
    let mut index: FxHashMap<(&str, &str, Option<&str>), usize> = Default::default();
    let mut filtered_out = 0usize;
    for m in messages {
        let level = ConsoleLevel::from_browser(&m.level);
        if !filter.accepts(level, &m.text) {
            filtered_out += 1;
            continue;
        }
        if filter.remove_duplicates {
            let key = (level.as_str(), m.text.as_str(), m.location.as_deref());
            if let Some(&i) = index.get(&key) {
                kept[i].2 += 1;
                continue;
            }
            index.insert(key, kept.len());
        }
        kept.push((level, m, 1));
    }
    if kept.is_empty() {
        return Some((
            format!("No messages match the console filter ({filtered_out} filtered out)."),
            false,
        ));
    }
    let omitted = kept.len().saturating_sub(filter.max_messages);
    let mut body = String::new();
    if omitted > 0 {
        let _ = writeln!(
            body,
            "- … {omitted} older message{} omitted",
            if omitted == 1 { "" } else { "s" }
        );
    }
    for (level, m, count) in &kept[omitted..] {
        let _ = write!(
            body,
            "- [{}] {}",
            level.as_str(),
            m.text.replace('\n', "\n  ")
        );
        if *count > 1 {
            let _ = write!(body, " (×{count})");
        }
        if let Some(loc) = &m.location {
            let _ = write!(body, " @ {loc}");
        }
        body.push('\n');
    }
    if filtered_out > 0 {
        let _ = writeln!(body, "- ({filtered_out} filtered out by consoleOptions)");
    }
    Some((body.trim_end().to_owned(), true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expectation::Expectation;

    fn exp(json: &str) -> ResolvedExpectation {
        let e = Expectation::from_json(json).unwrap();
        Expectation::resolve("browser_click", &[&e]).unwrap()
    }

    #[cfg(not(feature = "images"))]
    #[test]
    fn image_options_need_the_images_feature() {
        let response = Response {
            images: vec![Image {
                mime_type: "image/png".into(),
                data: vec![1, 2, 3],
            }],
            ..Default::default()
        };
        // Images as they are: fine.
        let r = render(&response, &exp("{}"), None).unwrap();
        assert_eq!(r.images, response.images);
        // Work on them asked for: an error naming the option.
        match render(
            &response,
            &exp(r#"{"imageOptions": {"maxWidth": 10}}"#),
            None,
        ) {
            Err(crate::Error::InvalidOption { field, message }) => {
                assert_eq!(field, "expectation.imageOptions");
                assert!(message.contains("`images` feature"), "{message}");
            }
            other => panic!("expected InvalidOption, got {other:?}"),
        }
    }

    #[cfg(feature = "patterns")]
    #[test]
    fn console_levels_patterns_dedupe_and_max() {
        let mut msgs = vec![];
        for i in 0..5 {
            msgs.push(ConsoleMessage::new("log", format!("tick {i}")));
        }
        for _ in 0..3 {
            msgs.push(ConsoleMessage::new("error", "Failed to fetch /api/cart"));
        }
        msgs.push(ConsoleMessage::new("warning", "Deprecated API"));
        let e = exp(r#"{"consoleOptions": {"maxMessages": 3}}"#);
        let out = render_console(&msgs, &e.console).unwrap().0;
        assert_eq!(
            out,
            "- … 4 older messages omitted\n- [log] tick 4\n- [error] Failed to fetch /api/cart (×3)\n- [warn] Deprecated API"
        );
        let e = exp(r#"{"consoleOptions": {"levels": ["error"], "patterns": ["FETCH"]}}"#);
        let out = render_console(&msgs, &e.console).unwrap().0;
        assert_eq!(
            out,
            "- [error] Failed to fetch /api/cart (×3)\n- (6 filtered out by consoleOptions)"
        );
        let e = exp(r#"{"consoleOptions": {"removeDuplicates": false, "levels": ["error"]}}"#);
        let out = render_console(&msgs, &e.console).unwrap().0;
        assert_eq!(out.matches("Failed to fetch").count(), 3);
        let e = exp(r#"{"consoleOptions": {"patterns": ["nothing matches"]}}"#);
        assert_eq!(
            render_console(&msgs, &e.console).unwrap().0,
            "No messages match the console filter (9 filtered out)."
        );
    }

    #[test]
    fn sections_in_order_and_switchable() {
        let r = Response {
            result: Some("ok".into()),
            code: Some("await page.click()".into()),
            tabs: vec![Tab {
                index: 0,
                title: "Shop".into(),
                url: "http://127.0.0.1/".into(),
                current: true,
            }],
            page: Some(PageState {
                url: "http://127.0.0.1/".into(),
                title: "Shop".into(),
            }),
            snapshot: Some(Snapshot::aria("- button \"Go\" [ref=e1]")),
            console: vec![ConsoleMessage::new("info", "hi")],
            downloads: vec![Download {
                name: "a.pdf".into(),
                path: Some("/tmp/a.pdf".into()),
                size: Some(12),
            }],
            modal_state: vec![
                "- [\"alert\" dialog with message \"x\"]: can be handled by browser_handle_dialog"
                    .into(),
            ],
            ..Response::default()
        };
        let all = render(&r, &exp("{}"), None).unwrap().text;
        assert!(all.contains("- a.pdf (12 bytes) → /tmp/a.pdf"), "{all}");
        let order = [
            "### Result",
            "### Ran Playwright code",
            "### Open tabs",
            "### Page state",
            "### Modal state",
            "### Page snapshot",
            "### Console messages",
            "### Downloads",
        ];
        let pos: Vec<usize> = order.iter().map(|h| all.find(h).unwrap()).collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "{all}");
        let none = render(
            &r,
            &exp(
                r#"{"includeSnapshot": false, "includeConsole": false, "includeTabs": false,
                    "includeCode": false, "includeDownloads": false}"#,
            ),
            None,
        )
        .unwrap()
        .text;
        // A modal state is never filtered out: the agent must answer it.
        assert_eq!(
            none,
            "### Result\nok\n\n### Page state\n- Page URL: http://127.0.0.1/\n- Page Title: Shop\n\n### Modal state\n- [\"alert\" dialog with message \"x\"]: can be handled by browser_handle_dialog"
        );
    }

    #[test]
    fn fence_outgrows_backticks_in_body() {
        assert_eq!(fence("js", "a ```b``` c"), "````js\na ```b``` c\n````");
    }

    #[test]
    fn diff_off_neither_reads_nor_moves_the_chain() {
        let det = ResponseDiffDetector::new();
        let target = DiffTarget {
            detector: &det,
            key: "tab1",
        };
        let page = |n: usize| -> Response {
            let aria: String = (0..30)
                .map(|i| {
                    format!(
                        "- listitem [ref=e{i}]: item {}\n",
                        if i == 7 { n } else { i }
                    )
                })
                .collect();
            Response {
                snapshot: Some(Snapshot::aria(aria)),
                ..Response::default()
            }
        };
        let on = exp(r#"{"diffOptions": {"enabled": true}}"#);
        let off = exp("{}");
        let first = render(&page(1), &on, Some(target)).unwrap();
        assert_eq!(first.snapshot_diff.unwrap().mode, DiffMode::First);
        let (keys, bytes) = (det.len(), det.memory_usage());
        // A peek with diffing off shows the full snapshot and stores nothing.
        let peek = render(&page(2), &off, Some(target)).unwrap();
        assert!(peek.snapshot_diff.is_none());
        assert!(peek.text.contains("item 2"));
        assert_eq!((det.len(), det.memory_usage()), (keys, bytes));
        let next = render(&page(2), &on, Some(target)).unwrap();
        assert_eq!(next.snapshot_diff.as_ref().unwrap().mode, DiffMode::Diff);
        assert!(
            next.text
                .contains("### Page snapshot (patch)\n```\n~ listitem [ref=e7]: item 2\n```"),
            "{}",
            next.text
        );
        // The same kind of change as a line diff, when asked for.
        let lines =
            exp(r#"{"diffOptions": {"enabled": true}, "snapshotOptions": {"diff": "lines"}}"#);
        let as_lines = render(&page(3), &lines, Some(target)).unwrap();
        assert!(as_lines.text.contains("### Page snapshot (diff since the previous snapshot)\n30 lines, 2 changed: +1 \u{2212}1\n```diff\n"));
        let again = render(&page(3), &on, Some(target)).unwrap();
        assert!(
            again
                .text
                .contains("### Page snapshot\nNo changes since the previous response (30 lines).")
        );
    }

    #[test]
    fn a_diffed_response_leaves_out_page_state_and_tabs_it_already_showed() {
        let det = ResponseDiffDetector::new();
        let target = DiffTarget {
            detector: &det,
            key: "tab1",
        };
        let page = |title: &str, tabs: usize| Response {
            result: Some("ok".into()),
            page: Some(PageState {
                url: "http://127.0.0.1/".into(),
                title: title.into(),
            }),
            tabs: (0..tabs)
                .map(|i| Tab {
                    index: i,
                    title: "Shop".into(),
                    url: "http://127.0.0.1/".into(),
                    current: i == 0,
                })
                .collect(),
            snapshot: Some(Snapshot::aria("- button \"Go\" [ref=e1]")),
            ..Response::default()
        };
        let on = exp(r#"{"diffOptions": {"enabled": true}}"#);
        let first = render(&page("Shop", 2), &on, Some(target)).unwrap().text;
        assert!(first.contains("### Open tabs\n") && first.contains("### Page state\n"));
        let same = render(&page("Shop", 2), &on, Some(target)).unwrap().text;
        assert_eq!(
            same,
            "### Result\nok\n\n### Page snapshot\nNo changes since the previous response (1 line)."
        );
        // A peek with diffing off shows everything and moves nothing.
        let peek = render(&page("Cart", 2), &exp("{}"), Some(target))
            .unwrap()
            .text;
        assert!(peek.contains("- Page Title: Cart"));
        let changed = render(&page("Cart", 3), &on, Some(target)).unwrap().text;
        assert!(changed.contains("- Page Title: Cart"), "{changed}");
        assert!(changed.contains("- 2: [Shop]"), "{changed}");
        // Only the page state lines that changed (the URL kept, the title not).
        assert!(
            changed.contains("### Page state\n- Page Title: Cart\n\n"),
            "{changed}"
        );
        // Without a diff target nothing is left out.
        let alone = render(&page("Cart", 3), &on, None).unwrap().text;
        assert!(alone.contains("### Page state") && alone.contains("### Open tabs"));
        // Tabs asked for (`browser_tabs` list) show even when unchanged.
        let asked = Response {
            tabs_requested: true,
            ..page("Cart", 3)
        };
        let listed = render(&asked, &on, Some(target)).unwrap().text;
        assert!(
            listed.contains("### Open tabs\n- 0: (current) [Shop]"),
            "{listed}"
        );
        assert!(!listed.contains("### Page state"), "{listed}");
        let json = serde_json::to_string(&asked).unwrap();
        assert!(json.contains("\"tabsRequested\":true"), "{json}");
        assert_eq!(Response::from_json(&json).unwrap(), asked);
    }

    #[test]
    fn a_diffed_response_leaves_out_a_console_the_filter_emptied() {
        let det = ResponseDiffDetector::new();
        let target = DiffTarget {
            detector: &det,
            key: "tab1",
        };
        let r = Response {
            console: vec![ConsoleMessage::new("log", "tick")],
            ..Response::default()
        };
        let errors = r#""consoleOptions": {"levels": ["error"]}"#;
        let on = exp(&format!(
            r#"{{{errors}, "diffOptions": {{"enabled": true}}}}"#
        ));
        assert_eq!(render(&r, &on, Some(target)).unwrap().text, "");
        let off = exp(&format!("{{{errors}}}"));
        assert!(
            render(&r, &off, Some(target))
                .unwrap()
                .text
                .contains("No messages match the console filter (1 filtered out).")
        );
        // A message that passes the filter is always shown.
        let r = Response {
            console: vec![ConsoleMessage::new("error", "boom")],
            ..Response::default()
        };
        assert!(
            render(&r, &on, Some(target))
                .unwrap()
                .text
                .contains("- [error] boom")
        );
    }

    #[test]
    fn a_page_seen_before_diffs_against_its_own_last_snapshot() {
        let det = ResponseDiffDetector::new();
        let target = DiffTarget {
            detector: &det,
            key: "tab1",
        };
        let page = |url: &str, word: &str, n: usize| -> Response {
            let aria: String = (0..30)
                .map(|i| {
                    format!(
                        "- listitem [ref=e{i}]: {word} {}\n",
                        if i == 7 { n } else { i }
                    )
                })
                .collect();
            Response {
                page: Some(PageState {
                    url: url.into(),
                    title: word.into(),
                }),
                snapshot: Some(Snapshot::aria(aria)),
                ..Response::default()
            }
        };
        let on = exp(r#"{"diffOptions": {"enabled": true}}"#);
        let shop = "http://127.0.0.1/shop";
        let mode = |r: &RenderedResponse| r.snapshot_diff.as_ref().unwrap().mode;
        assert_eq!(
            mode(&render(&page(shop, "tea", 1), &on, Some(target)).unwrap()),
            DiffMode::First
        );
        // Another page: nothing to diff against.
        let other = render(
            &page("http://127.0.0.1/signup", "form", 1),
            &on,
            Some(target),
        )
        .unwrap();
        assert_eq!(mode(&other), DiffMode::Full);
        // Back to the shop (fragment ignored), one line changed since it was seen.
        let back = render(&page(&format!("{shop}#cart"), "tea", 2), &on, Some(target)).unwrap();
        assert_eq!(mode(&back), DiffMode::Diff);
        assert!(back.text.contains(
            "### Page snapshot (patch since the last snapshot of this URL)\n```\n~ listitem [ref=e7]: tea 2\n```"
        ), "{}", back.text);
        // The tab chain moved on too: the same page again is unchanged.
        let again = render(&page(shop, "tea", 2), &on, Some(target)).unwrap();
        assert_eq!(mode(&again), DiffMode::Unchanged);
        // Away and back with nothing changed on the shop.
        render(
            &page("http://127.0.0.1/signup", "form", 2),
            &on,
            Some(target),
        )
        .unwrap();
        let same = render(&page(shop, "tea", 2), &on, Some(target)).unwrap();
        assert!(
            same.text
                .contains("No changes since the last snapshot of this URL (30 lines).")
        );
    }

    #[test]
    fn elements_shown_two_responses_ago_come_back_by_reference_unless_turned_off() {
        let rows: Vec<String> = (1..=24)
            .map(|i| {
                format!("  - listitem [ref=e{i}]:\n    - link \"Tea number {i}\" [ref=f{i}]\n")
            })
            .collect();
        let all = format!("- list [ref=e0]:\n{}", rows.concat());
        let two = format!("- list [ref=e0]:\n{}{}", rows[3], rows[17]);
        let two_more = two.replace("Tea number 4\"", "Tea number 4 (sold out)\"");
        let snap = |aria: &str| Response {
            snapshot: Some(Snapshot::aria(aria)),
            ..Response::default()
        };
        for (restore, expect_restored) in [("true", true), ("false", false)] {
            let det = ResponseDiffDetector::new();
            let target = DiffTarget {
                detector: &det,
                key: "tab1",
            };
            let on = exp(&format!(
                r#"{{"diffOptions": {{"enabled": true}}, "snapshotOptions": {{"restore": {restore}}}}}"#
            ));
            render(&snap(&all), &on, Some(target)).unwrap();
            render(&snap(&two), &on, Some(target)).unwrap();
            render(&snap(&two_more), &on, Some(target)).unwrap();
            // The search is cleared: 22 rows the agent saw two responses ago.
            let back = all.replace("Tea number 4\"", "Tea number 4 (sold out)\"");
            let out = render(&snap(&back), &on, Some(target)).unwrap();
            let body = out
                .text
                .split("```\n")
                .nth(1)
                .unwrap()
                .trim_end_matches("\n```");
            assert_eq!(
                body.contains("as last shown"),
                expect_restored,
                "{}",
                out.text
            );
            assert_eq!(
                body.contains("Tea number 9"),
                !expect_restored,
                "{}",
                out.text
            );
            let seen = [all.as_str(), two.as_str()];
            let applied = crate::tree::apply_patch_with(&two_more, body, &seen).unwrap();
            assert_eq!(applied, back.trim_end());
        }
    }
}
