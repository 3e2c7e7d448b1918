//! `ResponseDiffDetector`: keeps the previous response per key and returns
//! only what changed (docs/DECISIONS.md D6–D9).

use crate::prelude::*;
use alloc::sync::Arc;
use core::time::Duration;

use serde::{Deserialize, Serialize};

use super::format::DiffFormatter;
use super::hash::{ContentHash, short_hash};
use super::lines::{EngineOptions, LineDiff, OpKind, count_lines};
use super::options::DiffSettings;
use super::store::{Entry, Store};
use super::text::SharedText;
use crate::sync::{Mutex, lock};
use crate::{Error, Result};

/// Default cap on stored bytes: 10 MiB.
pub const DEFAULT_MAX_STORED_BYTES: usize = 10 * 1024 * 1024;
/// Default largest text accepted by [`ResponseDiffDetector::detect`]: 32 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 32 * 1024 * 1024;

/// What the caller gets back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum DiffMode {
    /// Nothing was stored for the key: the full text.
    First,
    /// Identical (after `ignoreWhitespace`): one line.
    Unchanged,
    /// The formatted diff with a one-line header.
    Diff,
    /// The full text with a one-line note saying why it is not a diff.
    Full,
}

impl DiffMode {
    /// The name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            DiffMode::First => "first",
            DiffMode::Unchanged => "unchanged",
            DiffMode::Diff => "diff",
            DiffMode::Full => "full",
        }
    }
}

/// Counts and hashes that describe a [`DiffResult`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffMetadata {
    /// Lines only in the current text.
    pub added_lines: usize,
    /// Lines only in the previous text.
    pub removed_lines: usize,
    /// Unchanged lines shown as context in `formattedDiff` (0 in `full`,
    /// which shows none).
    pub context_lines: usize,
    /// Lines in the current text.
    pub total_lines: usize,
    /// blake3 of the previous text, 16 hex digits; `None` for `first`.
    /// Computed when first read (docs/DECISIONS.md D35).
    pub previous_hash: Option<ContentHash>,
    /// blake3 of the current text, 16 hex digits, computed when first read.
    pub current_hash: ContentHash,
    /// Whether the current text was stored for the next call (false when it
    /// alone is over the store cap).
    pub stored: bool,
    /// Whether the line search's work bound (or the caller's explicit
    /// `deadlineMs`) may have cut it short before the diff was provably
    /// minimal: the diff is still correct, but may be larger than needed.
    /// Without `deadlineMs` it is a pure function of the texts and options.
    pub budget_exhausted: bool,
    /// Whether the counts are exact. Always true from the detector, which
    /// always runs the search (`maxDiffLines` never skips it, since only
    /// the real diff tells whether it is the smaller answer); false only
    /// when the line engine runs under a `max_changes` cap, which the
    /// detector never sets.
    pub exact: bool,
}

/// The outcome of comparing a response with the previous one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffResult {
    /// Whether the texts differ (false for `first` and `unchanged`).
    pub has_difference: bool,
    /// Unchanged lines / max(previous lines, current lines).
    pub similarity: f64,
    /// 1 − similarity.
    pub change_ratio: f64,
    /// Which of the four answers this is.
    pub mode: DiffMode,
    /// What to show the agent.
    pub formatted_diff: String,
    /// Counts and hashes.
    pub metadata: DiffMetadata,
}

/// Limits of a [`ResponseDiffDetector`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DetectorConfig {
    /// Total stored bytes (keys + texts + [`super::store::ENTRY_OVERHEAD`]
    /// per entry) never exceed this. Default 10 MiB.
    pub max_stored_bytes: usize,
    /// Larger inputs are refused with [`Error::InputTooLarge`]. Default 32 MiB.
    pub max_input_bytes: usize,
    /// Wall-clock limit of one line diff; `None` (the default) bounds the
    /// search by work only, so results are the same on every machine and
    /// at any load. Setting it makes results depend on timing.
    pub deadline: Option<Duration>,
}

impl Default for DetectorConfig {
    fn default() -> Self {
        DetectorConfig {
            max_stored_bytes: DEFAULT_MAX_STORED_BYTES,
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            deadline: None,
        }
    }
}

/// The JSON form of [`DetectorConfig`] shared by the bindings.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DetectorConfigJson {
    max_stored_bytes: Option<usize>,
    max_input_bytes: Option<usize>,
    deadline_ms: Option<u64>,
}

/// Largest accepted `deadlineMs` (one minute).
pub const MAX_DEADLINE_MS: u64 = 60_000;

impl DetectorConfig {
    /// Parses `{"maxStoredBytes": …, "maxInputBytes": …, "deadlineMs": …}`
    /// (every field optional), the form the bindings accept. `deadlineMs`
    /// is off unless given; it makes results timing-dependent.
    ///
    /// ```
    /// use response_diff::diff::DetectorConfig;
    /// let c = DetectorConfig::from_json(r#"{"maxStoredBytes": 1048576}"#).unwrap();
    /// assert_eq!(c.max_stored_bytes, 1 << 20);
    /// assert!(DetectorConfig::from_json(r#"{"deadlineMs": 0}"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<DetectorConfig> {
        let j: DetectorConfigJson = crate::json::from_str(json, "detectorConfig")?;
        let d = DetectorConfig::default();
        if let Some(ms) = j.deadline_ms
            && !(1..=MAX_DEADLINE_MS).contains(&ms)
        {
            return Err(Error::invalid_option(
                "detectorConfig.deadlineMs",
                format!(
                    "{ms} is out of range; use 1 to {MAX_DEADLINE_MS}, or leave it out for no deadline"
                ),
            ));
        }
        let max_input_bytes = j.max_input_bytes.unwrap_or(d.max_input_bytes);
        if max_input_bytes == 0 {
            return Err(Error::invalid_option(
                "detectorConfig.maxInputBytes",
                "0 is out of range; use a positive number of bytes",
            ));
        }
        Ok(DetectorConfig {
            max_stored_bytes: j.max_stored_bytes.unwrap_or(d.max_stored_bytes),
            max_input_bytes,
            deadline: j.deadline_ms.map(Duration::from_millis).or(d.deadline),
        })
    }

    /// Sets [`DetectorConfig::max_stored_bytes`].
    pub fn max_stored_bytes(mut self, bytes: usize) -> Self {
        self.max_stored_bytes = bytes;
        self
    }

    /// Sets [`DetectorConfig::max_input_bytes`].
    pub fn max_input_bytes(mut self, bytes: usize) -> Self {
        self.max_input_bytes = bytes;
        self
    }

    /// Sets [`DetectorConfig::deadline`] (timing-dependent results).
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = Some(deadline);
        self
    }
}

/// Keeps the previous response per key and compares each new one with it.
///
/// `Send + Sync`: share one across threads. The diff itself runs outside
/// the lock.
///
/// ```
/// use response_diff::diff::{DiffMode, DiffSettings, ResponseDiffDetector};
/// let d = ResponseDiffDetector::new();
/// let s = DiffSettings::default();
/// let page: String = (1..=20).map(|i| format!("  - listitem [ref=e{i}]: Item {i}\n")).collect();
/// assert_eq!(d.detect("tab1", &page, &s).unwrap().mode, DiffMode::First);
/// assert_eq!(d.detect("tab1", &page, &s).unwrap().mode, DiffMode::Unchanged);
/// let next = page.replace("Item 7\n", "Item 7 (sold out)\n");
/// let r = d.detect("tab1", &next, &s).unwrap();
/// assert_eq!(r.mode, DiffMode::Diff);
/// assert!(r.formatted_diff.contains("+  - listitem [ref=e7]: Item 7 (sold out)"));
/// ```
#[derive(Debug)]
pub struct ResponseDiffDetector {
    config: DetectorConfig,
    store: Mutex<Store>,
}

impl Default for ResponseDiffDetector {
    fn default() -> Self {
        Self::new()
    }
}

impl ResponseDiffDetector {
    /// A detector with the default limits.
    pub fn new() -> Self {
        Self::with_config(DetectorConfig::default())
    }

    /// A detector with the given limits.
    pub fn with_config(config: DetectorConfig) -> Self {
        ResponseDiffDetector {
            config,
            store: Mutex::new(Store::new(config.max_stored_bytes)),
        }
    }

    /// The limits.
    pub fn config(&self) -> DetectorConfig {
        self.config
    }

    /// Compares `current` with the text stored under `key`, then stores
    /// `current` in its place.
    pub fn detect(&self, key: &str, current: &str, settings: &DiffSettings) -> Result<DiffResult> {
        self.check_size(current)?;
        settings.validate()?;
        let entry = Entry::new(self.copy_of(key, current));
        let hash = entry.content_hash();
        // Read the previous text and put the current one in one critical
        // section, so concurrent calls on a key form a clean sequence.
        let (previous, stored) = {
            let mut store = lock(&self.store);
            (store.get(key), store.put(key, entry))
        };
        let prev = previous
            .as_ref()
            .map(|e| (e.text.as_str(), e.content_hash()));
        let mut result = compare(
            prev,
            current,
            hash,
            settings,
            self.config.deadline,
            FullText::Copy,
            Outside::default(),
        );
        result.metadata.stored = stored;
        if !stored {
            let note = format!(
                "(Not kept for the next diff: {} bytes with its key and {} bytes of bookkeeping is over the detector's {}-byte store cap.)\n",
                current.len(),
                super::store::ENTRY_OVERHEAD,
                self.config.max_stored_bytes
            );
            result.formatted_diff.insert_str(0, &note);
        }
        Ok(result)
    }

    /// Stores `content` under `key` without comparing. Returns whether it
    /// was stored (false when it alone is over the cap; any older text for
    /// the key is then dropped).
    pub fn store(&self, key: &str, content: &str) -> Result<bool> {
        self.check_size(content)?;
        let entry = Entry::new(self.copy_of(key, content));
        Ok(lock(&self.store).put(key, entry))
    }

    /// `text` copied for the store, into the buffer of a large text the
    /// store no longer holds when there is one (warm pages: a 7 MB copy
    /// into fresh ones cost 1,709 page faults, more than the diff itself),
    /// the copy itself made outside the lock.
    fn copy_of(&self, key: &str, text: &str) -> SharedText {
        let (buffer, slack) = lock(&self.store).take_buffer(key, text.len());
        super::store::fill(buffer, text, slack)
    }

    /// Keeps the text stored under `from` under `to` as well, shared rather
    /// than copied and hashed again. When nothing is stored under `from`,
    /// any older text for `to` is dropped, as [`Self::store`] does with a
    /// text it cannot keep. Returns whether `to` now holds the text.
    pub(crate) fn store_same_as(&self, to: &str, from: &str) -> bool {
        let mut store = lock(&self.store);
        match store.get(from) {
            Some(entry) => store.put(to, entry),
            None => {
                store.remove(to);
                false
            }
        }
    }

    /// The text stored under `key`, if any, shared rather than copied.
    pub fn previous(&self, key: &str) -> Option<SharedText> {
        lock(&self.store).get(key).map(|e| e.text)
    }

    /// Forgets `key`. Returns whether it was stored.
    pub fn clear(&self, key: &str) -> bool {
        lock(&self.store).remove(key)
    }

    /// Forgets every key.
    pub fn clear_all(&self) {
        lock(&self.store).clear()
    }

    /// Bytes charged against the cap (keys + texts + per-entry overhead,
    /// and the buffer of one large replaced text kept for reuse).
    pub fn memory_usage(&self) -> usize {
        lock(&self.store).used()
    }

    /// Number of stored keys.
    pub fn len(&self) -> usize {
        lock(&self.store).len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn check_size(&self, text: &str) -> Result<()> {
        if text.len() > self.config.max_input_bytes {
            return Err(Error::InputTooLarge {
                what: "response text",
                size: text.len(),
                limit: self.config.max_input_bytes,
            });
        }
        Ok(())
    }
}

/// Compares two texts without any storage: the decision rule of
/// docs/DECISIONS.md D6, D7. `previous` is the earlier text.
///
/// ```
/// use response_diff::diff::{compare_texts, DiffMode, DiffSettings};
/// let r = compare_texts(Some("a\nb\n"), "a\nc\n", &DiffSettings::default());
/// assert_eq!(r.mode, DiffMode::Full); // 1 of 2 lines changed: no saving
/// ```
///
/// The texts are borrowed, so their hashes are computed here;
/// [`compare_shared`] defers them until read.
pub fn compare_texts(previous: Option<&str>, current: &str, settings: &DiffSettings) -> DiffResult {
    compare(
        previous.map(|p| (p, ContentHash::from(short_hash(p)))),
        current,
        ContentHash::from(short_hash(current)),
        settings,
        None,
        FullText::Copy,
        Outside::default(),
    )
}

/// [`compare_texts`] on shared texts: the same result, but the metadata's
/// hashes are computed only when read (docs/DECISIONS.md D35), so a caller
/// that never reads them (the CLI) never pays for hashing the whole texts.
///
/// ```
/// use std::sync::Arc;
/// use response_diff::diff::{compare_shared, compare_texts, DiffSettings};
/// let s = DiffSettings::default();
/// let (a, b): (Arc<str>, Arc<str>) = ("a\nb\n".into(), "a\nc\n".into());
/// assert_eq!(compare_shared(Some(a.clone()), b.clone(), &s), compare_texts(Some(&a), &b, &s));
/// ```
pub fn compare_shared(
    previous: Option<Arc<str>>,
    current: Arc<str>,
    settings: &DiffSettings,
) -> DiffResult {
    let lazy = |t: &Arc<str>| ContentHash::lazy(t.clone(), Default::default());
    compare(
        previous.as_ref().map(|p| (&**p, lazy(p))),
        &current,
        lazy(&current),
        settings,
        None,
        FullText::Copy,
        Outside::default(),
    )
}

/// Writes to `out` the `formatted_diff` that [`compare_texts`] gives for
/// `previous` and `current`, byte for byte, and returns its mode; for a
/// host that prints the answer and nothing else (the CLI). It computes no
/// hash (docs/DECISIONS.md D35) and writes a `full` answer's text straight
/// from `current` instead of copying it into a new string.
///
/// ```
/// use response_diff::diff::{compare_texts, write_answer, DiffMode, DiffSettings};
/// let s = DiffSettings::default();
/// let mut out = Vec::new();
/// assert_eq!(write_answer("a\nb\n", "a\nc\n", &s, &mut out).unwrap(), DiffMode::Full);
/// assert_eq!(out, compare_texts(Some("a\nb\n"), "a\nc\n", &s).formatted_diff.as_bytes());
/// ```
#[cfg(feature = "std")]
pub fn write_answer<W: std::io::Write>(
    previous: &str,
    current: &str,
    settings: &DiffSettings,
    out: &mut W,
) -> std::io::Result<DiffMode> {
    write_answer_releasing(
        previous.as_bytes(),
        current.as_bytes(),
        settings,
        out,
        |_, _| {},
    )
}

/// [`write_answer`] on texts not yet checked to be UTF-8, calling
/// `release` with the byte ranges of `previous` and `current` (in that
/// order) it has compared, checked and counted and will not read again,
/// but for at most a few lines: a host that maps its inputs can drop those
/// pages, so that a small change between two large files never holds both
/// in memory, and each page is read once (the CLI). The answer is the
/// same, byte for byte; a text that is not UTF-8 is an
/// [`std::io::ErrorKind::InvalidData`] error, with nothing written.
///
/// ```
/// use response_diff::diff::{write_answer, write_answer_releasing, DiffSettings};
/// let s = DiffSettings::default();
/// let old: String = (0..100_000).map(|i| format!("line {i}\n")).collect();
/// let new = old.replace("line 50000\n", "line 50000 changed\n");
/// let (mut a, mut b, mut released) = (Vec::new(), Vec::new(), 0);
/// write_answer(&old, &new, &s, &mut a).unwrap();
/// write_answer_releasing(old.as_bytes(), new.as_bytes(), &s, &mut b, |o, _| released += o.len()).unwrap();
/// assert_eq!(a, b);
/// assert!(released > old.len() / 2);
/// let err = write_answer_releasing(b"a\n", b"\xff\n", &s, &mut Vec::new(), |_, _| {});
/// assert_eq!(err.unwrap_err().kind(), std::io::ErrorKind::InvalidData);
/// ```
#[cfg(feature = "std")]
pub fn write_answer_releasing<W: std::io::Write>(
    previous: &[u8],
    current: &[u8],
    settings: &DiffSettings,
    out: &mut W,
    mut release: impl FnMut(std::ops::Range<usize>, std::ops::Range<usize>),
) -> std::io::Result<DiffMode> {
    let w = super::window::find(previous, current, settings.context, &mut release)
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))?;
    // Once hashed, the earlier window is read again only where the diff
    // keeps lines as equal.
    let (from, at) = (w.old.start, w.new.start);
    let mut read_no_more =
        |r: std::ops::Range<usize>| release(from + r.start..from + r.end, at..at);
    write_window(previous, current, settings, out, w, Some(&mut read_no_more))
}

/// [`write_answer`] given the window of the texts to diff.
#[cfg(feature = "std")]
fn write_window<W: std::io::Write>(
    previous: &[u8],
    current: &[u8],
    settings: &DiffSettings,
    out: &mut W,
    w: super::window::Window,
    read_no_more: Option<&mut dyn FnMut(std::ops::Range<usize>)>,
) -> std::io::Result<DiffMode> {
    let unhashed = || ContentHash::from(String::new());
    // Checked by `window::find`; checking again costs a pass over the
    // windows only (small when the change is).
    let utf8 = |t| {
        std::str::from_utf8(t).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    };
    let (old_window, new_window) = (
        utf8(&previous[w.old.clone()])?,
        utf8(&current[w.new.clone()])?,
    );
    let r = compare(
        Some((old_window, unhashed())),
        new_window,
        unhashed(),
        settings,
        None,
        FullText::NoteOnly,
        Outside {
            lines_before: w.lines_before,
            lines_after: w.lines_after,
            bytes: current.len() - w.new.len(),
            read_no_more,
        },
    );
    out.write_all(r.formatted_diff.as_bytes())?;
    if r.mode == DiffMode::Full {
        out.write_all(current)?;
    }
    Ok(r.mode)
}

/// What two texts given to [`compare`] as windows of longer ones share
/// outside them: lines before and after, and the later text's bytes.
#[derive(Default)]
struct Outside<'r> {
    lines_before: usize,
    lines_after: usize,
    bytes: usize,
    /// Gets the earlier text's byte ranges the line diff reads no more
    /// (see `LineDiff::compute_window`).
    read_no_more: Option<&'r mut dyn FnMut(core::ops::Range<usize>)>,
}

fn compare(
    previous: Option<(&str, ContentHash)>,
    current: &str,
    current_hash: ContentHash,
    s: &DiffSettings,
    deadline: Option<Duration>,
    full_text: FullText,
    outside: Outside<'_>,
) -> DiffResult {
    // The later text's length, counting what is outside the window.
    let full_len = current.len() + outside.bytes;
    let (previous, previous_hash) = previous.unzip();
    let mut metadata = DiffMetadata {
        added_lines: 0,
        removed_lines: 0,
        context_lines: 0,
        // Counted below only where the line diff does not count it (a
        // pass over the whole text).
        total_lines: 0,
        previous_hash,
        current_hash,
        stored: true,
        budget_exhausted: false,
        exact: true,
    };
    let Some(prev) = previous else {
        metadata.total_lines = count_lines(current);
        return DiffResult {
            has_difference: false,
            similarity: 0.0,
            change_ratio: 1.0,
            mode: DiffMode::First,
            formatted_diff: current.to_owned(),
            metadata,
        };
    };
    let unchanged = |metadata: DiffMetadata| DiffResult {
        has_difference: false,
        similarity: 1.0,
        change_ratio: 0.0,
        mode: DiffMode::Unchanged,
        formatted_diff: format!(
            "No changes since the previous response ({} line{}).",
            metadata.total_lines,
            plural(metadata.total_lines)
        ),
        metadata,
    };
    if prev == current {
        metadata.total_lines = outside.lines_before + count_lines(current) + outside.lines_after;
        return unchanged(metadata);
    }

    // The search always runs, whatever maxDiffLines says: only the real
    // diff tells whether it is smaller than the full text.
    let diff = LineDiff::compute_window(
        prev,
        current,
        &EngineOptions {
            ignore_whitespace: s.ignore_whitespace,
            deadline,
            context: s.context,
            max_changes: None,
            // Only the CLI writes the answer and exits.
            keep_scratch: full_text == FullText::Copy,
        },
        outside.lines_before,
        outside.lines_after,
        outside.read_no_more,
    );
    let total_lines = diff.new_side().len();
    metadata.total_lines = total_lines;
    let similarity = diff.similarity();
    let change_ratio = 1.0 - similarity;
    metadata.added_lines = diff.added();
    metadata.removed_lines = diff.removed();
    metadata.budget_exhausted = diff.budget_exhausted();
    metadata.exact = diff.exact();

    // Whitespace-only changes leave no changed lines at all.
    if metadata.added_lines == 0 && metadata.removed_lines == 0 {
        return unchanged(metadata);
    }

    let ratio_ok = change_ratio <= s.threshold;
    // Every format prints each changed line with a prefix and a newline:
    // when even that cannot be the smaller answer, skip formatting (a
    // rewrite of a large page would format megabytes only to drop them).
    let floor = changed_bytes_floor(&diff);
    if floor >= full_len || !(ratio_ok || diff_is_small(floor, full_len)) {
        return full(current, similarity, change_ratio, metadata, full_text);
    }

    // The same with every line the format prints (context too): when
    // that alone reaches the full text's size, the diff cannot be sent.
    let formatter = DiffFormatter::new(s.format, s.context);
    if formatter.min_len(&diff) >= full_len {
        return full(current, similarity, change_ratio, metadata, full_text);
    }

    let formatted = formatter.format(&diff);
    let changed = metadata.added_lines + metadata.removed_lines;
    let over_cap = over_max_diff_lines(formatted.lines, s.max_diff_lines);
    let header = format!(
        "{} line{}, {} changed: +{} \u{2212}{}{over_cap}\n",
        total_lines,
        plural(total_lines),
        changed,
        metadata.added_lines,
        metadata.removed_lines
    );
    let diff_len = header.len() + formatted.text.len();
    // maxDiffLines never picks the full text: a diff over it is still the
    // smaller lossless answer, and its header says it is over.
    if !(diff_len < full_len && (ratio_ok || diff_is_small(diff_len, full_len))) {
        return full(current, similarity, change_ratio, metadata, full_text);
    }
    metadata.context_lines = formatted.context_lines;
    let mut text = header;
    text.push_str(&formatted.text);
    DiffResult {
        has_difference: true,
        similarity,
        change_ratio,
        mode: DiffMode::Diff,
        formatted_diff: text,
        metadata,
    }
}

/// Whether a `full` answer's `formatted_diff` carries the text after its
/// note, or only the note (the text is then written by [`write_answer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FullText {
    Copy,
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    NoteOnly,
}

/// The full text with the one-line reason a diff was not sent.
fn full(
    current: &str,
    similarity: f64,
    change_ratio: f64,
    metadata: DiffMetadata,
    full_text: FullText,
) -> DiffResult {
    let mut text = format!(
        "Full response ({:.0}% of lines changed (+{} \u{2212}{}); a diff would not be smaller):\n",
        change_ratio * 100.0,
        metadata.added_lines,
        metadata.removed_lines
    );
    if full_text == FullText::Copy {
        text.push_str(current);
    }
    DiffResult {
        has_difference: true,
        similarity,
        change_ratio,
        mode: DiffMode::Full,
        formatted_diff: text,
        metadata,
    }
}

/// Fewest bytes any format prints for the changed lines: each line's text,
/// a prefix of at least one byte and a newline.
fn changed_bytes_floor(diff: &LineDiff<'_>) -> usize {
    let len = |side: &super::lines::Side<'_>, i: usize| side.line_len(i).map_or(0, |l| l + 2);
    diff.ops()
        .iter()
        .map(|op| match op.kind {
            OpKind::Equal => 0,
            OpKind::Delete => op.old.clone().map(|i| len(diff.old(), i)).sum(),
            OpKind::Insert => op.new.clone().map(|i| len(diff.new_side(), i)).sum(),
        })
        .sum()
}

/// Largest share of the full text's bytes a diff may take to be sent when
/// more than `threshold` of the lines changed. Every choice between a diff
/// (or a snapshot patch) and the full text uses this one ratio.
///
/// It is 1: any diff smaller than the full text is sent, so no response is
/// larger than another lossless one. Measured on the app sessions of
/// `make bench` (TodoMVC on seven frameworks, jsoneditor's expanding tree,
/// the shop; docs/bench/README.md, "diff-or-full ratios"), the snapshot
/// sections total 47,310 o200k tokens at 0.5, 45,686 at 0.7 (agent-browser's
/// fallback), 44,611 at 0.9 and 44,474 at 1: every step rebuilds exactly
/// under each, and a lower ratio only ever sends more.
pub const MAX_DIFF_SHARE: f64 = 1.0;

/// Whether a diff of `diff_len` bytes is at most [`MAX_DIFF_SHARE`] of a
/// full text of `full_len` bytes.
/// A diff as long as the full text is not sent: the full text reads
/// without the previous one.
pub(crate) fn diff_is_small(diff_len: usize, full_len: usize) -> bool {
    diff_len < full_len && diff_len as f64 <= full_len as f64 * MAX_DIFF_SHARE
}

/// What a diff's header adds when the diff has more lines than
/// `maxDiffLines`: the limit never makes a response larger (the diff is
/// still sent when it is the smaller answer), it only says so.
pub(crate) fn over_max_diff_lines(lines: usize, max: usize) -> String {
    if lines > max {
        format!(" ({lines} diff lines, over maxDiffLines ({max}); smaller than the full text)")
    } else {
        String::new()
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{DiffFormat, MAX_DIFF_LINES};

    fn page(n: usize) -> String {
        (0..n)
            .map(|i| format!("  - listitem \"Item {i}\" [ref=e{i}]\n"))
            .collect()
    }

    #[test]
    fn modes_first_unchanged_diff_full() {
        let d = ResponseDiffDetector::new();
        let s = DiffSettings::default();
        let a = page(40);
        assert_eq!(d.detect("k", &a, &s).unwrap().mode, DiffMode::First);
        assert_eq!(d.detect("k", &a, &s).unwrap().mode, DiffMode::Unchanged);
        let b = a.replace("Item 7\"", "Item seven\"");
        let r = d.detect("k", &b, &s).unwrap();
        assert_eq!(r.mode, DiffMode::Diff);
        assert!(
            r.formatted_diff
                .starts_with("40 lines, 2 changed: +1 \u{2212}1\n")
        );
        let other: String = (0..40).map(|i| format!("- row \"R{i}\"\n")).collect();
        let r = d.detect("k", &other, &s).unwrap();
        assert_eq!(r.mode, DiffMode::Full);
        assert!(r.formatted_diff.ends_with(&other));
    }

    #[test]
    fn max_diff_lines_never_picks_a_larger_body() {
        let d = ResponseDiffDetector::new();
        let a = page(100);
        // Four changed lines cannot fit in three, but the diff is still far
        // smaller than the page: it is sent, and its header says so.
        let s = DiffSettings {
            max_diff_lines: 3,
            ..DiffSettings::default()
        };
        d.detect("k", &a, &s).unwrap();
        let b = a.replace("Item 7\"", "X\"").replace("Item 70\"", "Y\"");
        let r = d.detect("k", &b, &s).unwrap();
        assert_eq!(r.mode, DiffMode::Diff);
        assert!(r.metadata.exact);
        assert!(
            r.formatted_diff.starts_with(
                "100 lines, 4 changed: +2 \u{2212}2 (18 diff lines, over maxDiffLines (3); smaller than the full text)\n"
            ),
            "{}",
            r.formatted_diff
        );
        assert!(r.formatted_diff.len() < b.len());
        // Within the cap the header has no note.
        let s = DiffSettings {
            max_diff_lines: 18,
            ..DiffSettings::default()
        };
        d.store("k", &a).unwrap();
        let r = d.detect("k", &b, &s).unwrap();
        assert!(
            r.formatted_diff
                .starts_with("100 lines, 4 changed: +2 \u{2212}2\n"),
            "{}",
            r.formatted_diff
        );
    }

    #[test]
    fn a_120_line_change_on_a_600_line_page_is_a_diff_by_default() {
        let s = DiffSettings::default();
        let a = page(600);
        // A section of 120 lines expands (inserted in the middle).
        let section: String = (0..120)
            .map(|i| format!("    - paragraph \"Detail {i}\" [ref=d{i}]\n"))
            .collect();
        let mid = a.match_indices('\n').nth(299).unwrap().0 + 1;
        let expanded = format!("{}{section}{}", &a[..mid], &a[mid..]);
        // And 120 lines rewritten in place.
        let rewritten: String = a
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if (200..320).contains(&i) {
                    format!("{l} (updated)\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        for (next, changed) in [(&expanded, 120), (&rewritten, 240)] {
            let d = ResponseDiffDetector::new();
            d.store("k", &a).unwrap();
            let r = d.detect("k", next, &s).unwrap();
            assert_eq!(r.mode, DiffMode::Diff, "{}", r.formatted_diff);
            assert_eq!(r.metadata.added_lines + r.metadata.removed_lines, changed);
            assert!(r.formatted_diff.contains("over maxDiffLines (50)"));
            assert!(r.formatted_diff.len() < next.len());
        }
    }

    #[test]
    fn the_answer_is_never_larger_than_the_other_lossless_one() {
        // Whatever maxDiffLines says: a diff answer is smaller than the full
        // text, and a full answer only when no sent diff would be smaller
        // than MAX_DIFF_SHARE of it (or the ratio rule did not apply).
        let a = page(300);
        let mut modes = std::collections::HashSet::new();
        for max in [1, 5, 50, 500, 1_000_000] {
            let s = DiffSettings {
                max_diff_lines: max,
                ..DiffSettings::default()
            };
            for step in [1usize, 7, 30, 90, 150] {
                let next: String = a
                    .lines()
                    .enumerate()
                    .map(|(i, l)| {
                        if i % step == 0 {
                            format!("{l} *\n")
                        } else {
                            format!("{l}\n")
                        }
                    })
                    .collect();
                let r = compare_texts(Some(&a), &next, &s);
                let unlimited = compare_texts(
                    Some(&a),
                    &next,
                    &DiffSettings {
                        max_diff_lines: MAX_DIFF_LINES,
                        ..s
                    },
                );
                // The cap changes the header at most, never the choice.
                assert_eq!(r.mode, unlimited.mode, "max {max} step {step}");
                let body = DiffFormatter::new(s.format, s.context)
                    .format(&LineDiff::compute(&a, &next, true, None))
                    .text;
                match r.mode {
                    DiffMode::Diff => {
                        assert!(r.formatted_diff.len() < next.len(), "max {max} step {step}")
                    }
                    DiffMode::Full => assert!(
                        body.len() >= next.len()
                            || (r.change_ratio > s.threshold
                                && !diff_is_small(body.len(), next.len())),
                        "max {max} step {step}: a smaller diff was not sent"
                    ),
                    other => panic!("{other:?}"),
                }
                modes.insert(r.mode);
            }
        }
        assert_eq!(modes.len(), 2, "both answers are exercised");
    }

    #[test]
    fn keys_are_independent_and_clear_works() {
        let d = ResponseDiffDetector::new();
        let s = DiffSettings::default();
        d.detect("a", "x\n", &s).unwrap();
        assert_eq!(d.detect("b", "x\n", &s).unwrap().mode, DiffMode::First);
        assert!(d.clear("a"));
        assert_eq!(d.detect("a", "x\n", &s).unwrap().mode, DiffMode::First);
        d.clear_all();
        assert!(d.is_empty());
        assert_eq!(d.memory_usage(), 0);
    }

    #[test]
    fn oversized_input_is_an_error_and_oversized_store_says_so() {
        let d = ResponseDiffDetector::with_config(
            DetectorConfig::default()
                .max_input_bytes(1000)
                .max_stored_bytes(200),
        );
        let s = DiffSettings::default();
        assert!(matches!(
            d.detect("k", &"x".repeat(1001), &s),
            Err(Error::InputTooLarge { .. })
        ));
        let r = d.detect("k", &"y".repeat(500), &s).unwrap();
        assert!(!r.metadata.stored);
        assert!(r.formatted_diff.starts_with("(Not kept for the next diff"));
        assert_eq!(d.memory_usage(), 0);
    }

    #[test]
    fn whitespace_only_change() {
        let d = ResponseDiffDetector::new();
        let on = DiffSettings::default();
        let off = DiffSettings {
            ignore_whitespace: false,
            format: DiffFormat::Minimal,
            ..on
        };
        let a = page(30);
        d.detect("k", &a, &on).unwrap();
        let b = a.replace("\"Item 3\" [ref", "\"Item 3\"   [ref");
        assert_eq!(d.detect("k", &b, &on).unwrap().mode, DiffMode::Unchanged);
        d.store("k", &a).unwrap();
        let r = d.detect("k", &b, &off).unwrap();
        assert_eq!(r.mode, DiffMode::Diff);
    }

    #[test]
    fn hashes_are_computed_when_read_and_once_per_text() {
        let d = ResponseDiffDetector::new();
        let s = DiffSettings::default();
        let (a, b) = (page(40), page(41));
        let first = d.detect("k", &a, &s).unwrap();
        let cached = |d: &ResponseDiffDetector| lock(&d.store).get("k").unwrap().hash;
        // Nothing read yet: the stored text is not hashed.
        assert!(cached(&d).get().is_none());
        assert_eq!(first.metadata.current_hash.as_str(), short_hash(&a));
        // Reading the result's hash fills the store's cache too.
        assert_eq!(cached(&d).get().map(String::as_str), Some(&*short_hash(&a)));
        let second = d.detect("k", &b, &s).unwrap();
        assert!(cached(&d).get().is_none());
        assert_eq!(
            second.metadata.previous_hash.as_deref(),
            Some(&*short_hash(&a))
        );
        assert_eq!(second.metadata.current_hash.as_str(), short_hash(&b));
        // Same values as the eager path.
        assert_eq!(second.metadata, compare_texts(Some(&a), &b, &s).metadata);
    }

    #[test]
    #[cfg(feature = "std")]
    fn write_answer_writes_compare_texts_answer() {
        let s = DiffSettings::default();
        let a = page(40);
        let cases = [
            (a.clone(), a.replace("Item 7\"", "Item seven\"")),
            (a.clone(), a.clone()),
            (a.clone(), page(3)),
            (String::new(), a.clone()),
        ];
        for (old, new) in cases {
            let mut out = Vec::new();
            let mode = write_answer(&old, &new, &s, &mut out).unwrap();
            let want = compare_texts(Some(&old), &new, &s);
            assert_eq!(mode, want.mode);
            assert_eq!(String::from_utf8(out).unwrap(), want.formatted_diff);
        }
    }

    #[test]
    #[cfg(feature = "std")]
    fn a_window_gives_the_whole_texts_answer() {
        // Lines from a small alphabet (duplicates make ambiguous splits),
        // random edits, every format, context and block size.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let words = ["a", "b", "  - c", "", "dd d", "e  e"];
        for case in 0..400 {
            let lines: Vec<String> = (0..rand(60))
                .map(|_| words[rand(words.len())].to_owned())
                .collect();
            let mut edited = lines.clone();
            for _ in 0..rand(4) {
                let at = rand(edited.len() + 1);
                match rand(3) {
                    0 => edited.insert(at, words[rand(words.len())].to_owned()),
                    1 if at < edited.len() => {
                        edited.remove(at);
                    }
                    _ if at < edited.len() => edited[at].push('x'),
                    _ => {}
                }
            }
            let join = |l: &[String], end: bool| {
                let mut t = l.join("\n");
                if end && !l.is_empty() {
                    t.push('\n');
                }
                t
            };
            let (old, new) = (join(&lines, rand(5) > 0), join(&edited, rand(5) > 0));
            let settings = DiffSettings {
                context: rand(4),
                format: [DiffFormat::Unified, DiffFormat::Split, DiffFormat::Minimal][rand(3)],
                ignore_whitespace: rand(2) == 0,
                ..DiffSettings::default()
            };
            let want = compare_texts(Some(&old), &new, &settings);
            for block in [1, 2, 5, 16, 1 << 20] {
                let w = crate::diff::window::find_in_blocks(
                    old.as_bytes(),
                    new.as_bytes(),
                    settings.context,
                    block,
                    |_, _| {},
                )
                .unwrap();
                let mut out = Vec::new();
                let (a, b) = (old.as_bytes(), new.as_bytes());
                let mode = write_window(a, b, &settings, &mut out, w, None).unwrap();
                assert_eq!(mode, want.mode, "case {case} block {block}");
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    want.formatted_diff,
                    "case {case} block {block}: {old:?} -> {new:?} {settings:?}"
                );
            }
        }
    }

    #[test]
    fn detector_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<ResponseDiffDetector>();
    }
}
