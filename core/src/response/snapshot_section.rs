//! The snapshot section of a response: the snapshot in full, or diffed or
//! patched against the previous snapshot of its chain or the last one of
//! its URL, and the archive of elements shown before that patches restore
//! by reference.

use core::fmt::Write as _;

use crate::Result;
use crate::diff::{
    DiffMode, DiffResult, ResponseDiffDetector, compare_texts, diff_is_small, over_max_diff_lines,
};
use crate::expectation::{ResolvedExpectation, SnapshotDiff};
use crate::prelude::*;
use crate::tree::{Dialect, PatchOptions, Shown, parse_in, retire, snapshot_patch_archived};

use super::chain::DiffTarget;
use super::model::Snapshot;
use super::snapshot::{DEVTOOLS, fence, view_snapshot};

/// A block of the section's body: fenced as `fence_lang`, except under
/// chrome-devtools-mcp's snapshot (`lang` `devtools`), which shows its
/// text, patches and diffs unfenced, as chrome-devtools-mcp shows its own.
fn block(lang: &str, fence_lang: &str, body: &str) -> String {
    if lang == DEVTOOLS {
        body.to_owned()
    } else {
        fence(fence_lang, body)
    }
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

pub(super) fn section(out: &mut String, heading: &str, body: &str) {
    let _ = write!(out, "### {heading}\n{body}\n\n");
}

/// The snapshot section alone, as [`render`] prints it in a response.
///
/// [`render`]: super::render
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
///
/// [`render`]: super::render
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

pub(super) fn snapshot_section(
    snap: &Snapshot,
    expectation: &ResolvedExpectation,
    diff: Option<DiffTarget<'_>>,
    url: Option<&str>,
) -> Result<SnapshotSection> {
    let (body, result, base, patch, lang) = render_snapshot(snap, expectation, diff, url)?;
    // chrome-devtools-mcp heads its snapshot `Latest page snapshot`.
    let title = if lang == DEVTOOLS {
        "Latest page snapshot"
    } else {
        "Page snapshot"
    };
    // A patch against the previous snapshot is the common case: its
    // heading says only "patch" (the lean envelope).
    let heading = match result.as_ref().map(|r| r.mode) {
        Some(DiffMode::Diff) if patch && base == Base::Previous => format!("{title} (patch)"),
        Some(DiffMode::Diff) => format!(
            "{title} ({} since {})",
            if patch { "patch" } else { "diff" },
            base.name()
        ),
        _ => title.to_owned(),
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
/// against, whether the body is a snapshot patch, and the view's language.
type SnapshotParts = (String, Option<DiffResult>, Base, bool, &'static str);

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
            return Ok((
                view.notice.unwrap_or_default(),
                None,
                Base::Previous,
                false,
                lang,
            ));
        }
    };
    let notice = view.notice.map(|n| format!("\n{n}")).unwrap_or_default();
    let target = diff.filter(|_| expectation.diff.enabled);
    let Some(target) = target else {
        return Ok((
            format!("{}{notice}", block(lang, lang, text)),
            None,
            Base::Previous,
            false,
            lang,
        ));
    };
    let key = format!(
        "{}\u{1f}{}\u{1f}{}",
        target.key,
        lang,
        expectation.snapshot.selector.as_deref().unwrap_or("")
    );
    let patches = (lang == "yaml" || lang == DEVTOOLS)
        && expectation.snapshot.diff.unwrap_or_default() == SnapshotDiff::Patch;
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
    let seen: Vec<&str> = match (&prev_text, base) {
        (Some(p), Base::SameUrl) => vec![&**p],
        _ => Vec::new(),
    };
    let options = PatchOptions::seen(seen).restore(restore);
    let patch = base_text
        .filter(|_| matches!(r.mode, DiffMode::Diff | DiffMode::Full))
        .and_then(|b| snapshot_patch_archived(&b, text, &options, archive.as_ref().map(|a| a as _)))
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
                    Some(note) => format!("{note}\n{}", block(lang, "", diff)),
                    None => block(lang, "", diff),
                }
            }
            (Some((header, diff)), None) => format!("{header}\n{}", block(lang, "diff", diff)),
            (None, _) => r.formatted_diff.clone(),
        },
        DiffMode::Full => match r.formatted_diff.split_once('\n') {
            Some((note, full)) => format!("{note}\n{}", block(lang, lang, full)),
            None => r.formatted_diff.clone(),
        },
        DiffMode::Unchanged => r.formatted_diff.clone(),
        _ => block(lang, lang, &r.formatted_diff),
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
        lang,
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

/// Where a chain keeps what it took over from the chain before it
/// ([`continue_shown`]): that chain's last snapshot and its archive.
fn inherited_keys(key: &str) -> (String, String) {
    (
        format!("{key}\u{1f}inherit"),
        format!("{key}\u{1f}inherit\u{1f}shown"),
    )
}

/// Starts the whole-page snapshot chain of diff key `to` where the one of
/// `from` left off, for restores: a host that begins a new chain for the
/// same tab (a full view the agent asked for) keeps what the agent was
/// shown before it. The first response of `to` (a full snapshot) archives
/// what `from`'s last snapshot showed that it does not, on top of `from`'s
/// archive, so later patches restore by reference any element shown in
/// either chain (within the archive's [`SHOWN_SHARE`] of the store cap).
/// Both texts are kept in the detector's store, under its cap, until that
/// first response; nothing is kept when `from` has no snapshot.
///
/// ```
/// use response_diff::diff::ResponseDiffDetector;
/// use response_diff::response::continue_shown;
/// let det = ResponseDiffDetector::new();
/// continue_shown(&det, "tab1", "tab1\u{1f}view1"); // nothing to take over
/// ```
pub fn continue_shown(detector: &ResponseDiffDetector, from: &str, to: &str) {
    // Either dialect's chain (Playwright's aria, chrome-devtools-mcp's).
    for lang in ["yaml", DEVTOOLS] {
        let page = |k: &str| format!("{k}\u{1f}{lang}\u{1f}");
        let (from, to) = (page(from), page(to));
        let (prev_key, shown) = inherited_keys(&to);
        detector.clear(&prev_key);
        detector.clear(&shown);
        let Some(prev) = detector.previous(&from) else {
            continue;
        };
        if detector.store(&prev_key, &prev).unwrap_or(false)
            && let Some(archive) = detector.previous(&shown_key(&from))
        {
            let _ = detector.store(&shown, &archive);
        }
    }
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
    let dialect = Dialect::detect(new);
    let new = dialect.trim(new);
    // A chain's first snapshot follows the chain it continues, if any.
    let (ikey, ishown) = inherited_keys(key);
    let (inherited, inherited_shown) = (detector.previous(&ikey), detector.previous(&ishown));
    if inherited.is_some() || inherited_shown.is_some() {
        detector.clear(&ikey);
        detector.clear(&ishown);
    }
    let (prev, old) = match prev {
        Some(p) => (Some(p), detector.previous(&skey)),
        None => (inherited.as_deref(), inherited_shown),
    };
    let Some(prev) = prev.filter(|_| on) else {
        detector.clear(&skey);
        return;
    };
    if dialect.trim(prev) == new {
        // Unchanged: the chain's archive stands (a continued chain's is
        // the one it took over).
        if inherited.is_some() {
            match &old {
                Some(a) => {
                    let _ = detector.store(&skey, a);
                }
                None => {
                    detector.clear(&skey);
                }
            }
        }
        return;
    }
    let parse = |t: &str| {
        (t.len() <= crate::tree::MAX_PATCH_BYTES)
            .then(|| parse_in(dialect, t).ok())
            .flatten()
    };
    let (Some(p), Some(n)) = (parse(prev), parse(new)) else {
        detector.clear(&skey);
        return;
    };
    let budget = detector.config().max_stored_bytes / SHOWN_SHARE;
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
