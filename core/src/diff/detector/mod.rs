//! `ResponseDiffDetector`: keeps the previous response per key and returns
//! only what changed (docs/DECISIONS.md D6–D9).
//!
//! The decision rule and the answer's text are in `answer`, what a
//! comparison returns in `result`, the detector's limits in `config`.

use crate::prelude::*;

use super::options::DiffSettings;
use super::store::{Entry, Store};
use super::text::SharedText;
use crate::sync::{Mutex, lock};
use crate::{Error, Result};

mod answer;
mod config;
mod result;

pub use answer::{compare_shared, compare_texts};
pub(crate) use answer::{diff_is_small, over_max_diff_lines};
#[cfg(feature = "std")]
pub use answer::{write_answer, write_answer_releasing};
pub use config::{DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_STORED_BYTES, DetectorConfig};
pub use result::{DiffMetadata, DiffMode, DiffResult};

use answer::{FullText, Outside, compare};

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

#[cfg(test)]
mod tests {
    #[cfg(feature = "std")]
    use super::answer::write_window;
    use super::*;
    use crate::diff::format::DiffFormatter;
    use crate::diff::hash::short_hash;
    use crate::diff::lines::LineDiff;
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
