//! Response diff: the detector class, stateless compare, the formatter.

use std::sync::{Arc, Mutex, Weak};

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::diff as core;

use crate::error::OrThrow;
use crate::json::{Json, options_from, options_json};
use crate::text::{JsText, Text};

/// Default cap on a detector's stored bytes (10 MiB).
#[napi]
pub const DEFAULT_MAX_STORED_BYTES: u32 = core::DEFAULT_MAX_STORED_BYTES as u32;

/// Default largest text a detector accepts (32 MiB).
#[napi]
pub const DEFAULT_MAX_INPUT_BYTES: u32 = core::DEFAULT_MAX_INPUT_BYTES as u32;

/// `diffOptions` (docs/DECISIONS.md D6–D9). Every field is optional; unknown keys and
/// out-of-range values throw `INVALID_OPTION` naming the field.
#[napi(object)]
pub struct DiffOptions {
    /// Hosts diff only when this is on (default false). The detector itself
    /// always diffs.
    pub enabled: Option<bool>,
    /// 0..1 (default 0.1): a diff is shown when at most this share of lines changed.
    pub threshold: Option<f64>,
    /// `unified` (default), `split` or `minimal`.
    pub format: Option<DiffFormat>,
    /// 1..1,000,000 (default 50): a longer diff is still sent when it is
    /// smaller than the full text, its header saying it is over the cap.
    pub max_diff_lines: Option<u32>,
    /// Trailing and inner runs of whitespace do not count (default true);
    /// indentation always does.
    pub ignore_whitespace: Option<bool>,
    /// 0..1,000 (default 3): unchanged lines around each change.
    pub context: Option<u32>,
}

/// How a diff is printed.
#[napi(string_enum = "lowercase")]
pub enum DiffFormat {
    /// `@@ -12,3 +12,4 @@` hunks with context; lossless (`patch` applies it).
    Unified,
    /// Per hunk, a `before:` and an `after:` block; lossless.
    Split,
    /// Changed lines only, `- ` / `+ `; smallest, without positions.
    Minimal,
}

/// Which of the four answers a diff result is.
#[napi(string_enum = "lowercase")]
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

/// Limits of a detector. Every field is optional.
#[napi(object)]
pub struct DetectorConfig {
    /// Total stored bytes (keys + texts + 96 per entry) never exceed this
    /// (default 10 MiB); least recently used keys go first.
    pub max_stored_bytes: Option<f64>,
    /// Larger inputs throw `INPUT_TOO_LARGE` (default 32 MiB).
    pub max_input_bytes: Option<f64>,
    /// Wall-clock limit of one line diff in milliseconds, 1..60,000; off by
    /// default. Setting it makes results depend on timing (machine and
    /// load); without it the search is bounded by work and deterministic.
    pub deadline_ms: Option<u32>,
}

/// Counts and hashes describing a [`DiffResult`].
#[napi(object)]
pub struct DiffMetadata {
    /// Lines only in the current text.
    pub added_lines: u32,
    /// Lines only in the previous text.
    pub removed_lines: u32,
    /// Unchanged lines shown as context in `formattedDiff`.
    pub context_lines: u32,
    /// Lines in the current text.
    pub total_lines: u32,
    /// blake3 of the previous text, 16 hex digits; absent for `first`.
    pub previous_hash: Option<String>,
    /// blake3 of the current text, 16 hex digits.
    pub current_hash: String,
    /// Whether the current text was kept for the next call (false when it
    /// alone is over the store cap).
    pub stored: bool,
    /// Whether the search's work bound (or an explicit `deadlineMs`) may
    /// have cut it short: the diff is still correct but may not be minimal.
    pub budget_exhausted: bool,
    /// Whether the counts are exact: always true (the search always runs;
    /// `maxDiffLines` never skips it).
    pub exact: bool,
}

/// The outcome of comparing a response with the previous one.
#[napi(object, object_from_js = false)]
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
    #[napi(ts_type = "string")]
    pub formatted_diff: JsText,
    /// Counts and hashes.
    pub metadata: DiffMetadata,
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl From<core::DiffResult> for DiffResult {
    fn from(r: core::DiffResult) -> Self {
        let m = r.metadata;
        DiffResult {
            has_difference: r.has_difference,
            similarity: r.similarity,
            change_ratio: r.change_ratio,
            mode: r.mode.into(),
            formatted_diff: r.formatted_diff.into(),
            metadata: DiffMetadata {
                added_lines: count(m.added_lines),
                removed_lines: count(m.removed_lines),
                context_lines: count(m.context_lines),
                total_lines: count(m.total_lines),
                previous_hash: m.previous_hash.map(|h| h.to_string()),
                current_hash: m.current_hash.to_string(),
                stored: m.stored,
                budget_exhausted: m.budget_exhausted,
                exact: m.exact,
            },
        }
    }
}

impl DiffResult {
    /// The result for JavaScript; a `first` or `full` answer hands back the
    /// caller's own `current` string (after the note) instead of a copy.
    fn answering(mut r: core::DiffResult, current: &Text) -> DiffResult {
        let reuse = matches!(r.mode, core::DiffMode::First | core::DiffMode::Full);
        let text = std::mem::take(&mut r.formatted_diff);
        let mut out = DiffResult::from(r);
        out.formatted_diff = if reuse {
            current.reuse_in(text)
        } else {
            text.into()
        };
        out
    }
}

impl From<core::DiffMode> for DiffMode {
    fn from(m: core::DiffMode) -> Self {
        match m {
            core::DiffMode::First => DiffMode::First,
            core::DiffMode::Unchanged => DiffMode::Unchanged,
            core::DiffMode::Diff => DiffMode::Diff,
            // Full, and any mode a newer core adds: the full text is the safe reading.
            _ => DiffMode::Full,
        }
    }
}

/// Parses `diffOptions` (a JS object) with the core's validation.
pub(crate) fn settings(env: &Env, options: Option<Json>) -> Result<core::DiffSettings> {
    core::DiffSettings::from_optional_json(options_json(options).as_deref()).or_throw(env)
}

/// Keeps the previous response per key and returns only what changed.
///
/// ```js
/// const d = new ResponseDiffDetector()
/// d.detect('tab-1', page1)          // mode 'first': the full text
/// d.detect('tab-1', page2).mode     // 'diff', 'unchanged' or 'full'
/// ```
#[napi]
pub struct ResponseDiffDetector {
    pub(crate) inner: Arc<core::ResponseDiffDetector>,
}

/// Detectors any worker thread can attach to by name; an entry lives while
/// some `ResponseDiffDetector` object (in any thread) holds it.
static SHARED: Mutex<Vec<(String, Weak<core::ResponseDiffDetector>)>> = Mutex::new(Vec::new());

fn detector_config(env: &Env, config: Option<Json>) -> Result<core::DetectorConfig> {
    options_from(env, config, core::DetectorConfig::from_json)
}

#[napi]
impl ResponseDiffDetector {
    /// A detector with the default limits (10 MiB stored, 32 MiB per input,
    /// 100 ms per diff), or the given ones.
    #[napi(constructor)]
    pub fn new(
        env: Env,
        #[napi(ts_arg_type = "DetectorConfig")] config: Option<Json>,
    ) -> Result<Self> {
        let config = detector_config(&env, config)?;
        Ok(ResponseDiffDetector {
            inner: Arc::new(core::ResponseDiffDetector::with_config(config)),
        })
    }

    /// The process-wide detector called `name`, shared by every worker
    /// thread that asks for it: one store, one cap, safe to use from all of
    /// them at once. The first caller creates it (with `config`); a later
    /// `config` must be absent or the same. It lives while any thread holds
    /// it.
    ///
    /// ```js
    /// // in each worker_threads Worker:
    /// const d = ResponseDiffDetector.shared('pages')
    /// ```
    #[napi(factory)]
    pub fn shared(
        env: Env,
        name: String,
        #[napi(ts_arg_type = "DetectorConfig")] config: Option<Json>,
    ) -> Result<Self> {
        let given = config.as_ref().is_some_and(|c| !c.0.is_null());
        let config = detector_config(&env, config)?;
        let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        shared.retain(|(_, d)| d.strong_count() > 0);
        if let Some(inner) = shared
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, d)| d.upgrade())
        {
            if given && inner.config() != config {
                return Err(response_diff::Error::invalid_option(
                    "config",
                    format!(
                        "the shared detector {name:?} already exists with other limits; pass no config, or the same one"
                    ),
                ))
                .or_throw(&env);
            }
            return Ok(ResponseDiffDetector { inner });
        }
        let inner = Arc::new(core::ResponseDiffDetector::with_config(config));
        shared.push((name, Arc::downgrade(&inner)));
        Ok(ResponseDiffDetector { inner })
    }

    /// Compares `text` with the text stored under `key`, then stores `text`
    /// in its place.
    #[napi]
    pub fn detect(
        &self,
        env: Env,
        key: String,
        #[napi(ts_arg_type = "string")] text: Text,
        #[napi(ts_arg_type = "DiffOptions")] options: Option<Json>,
    ) -> Result<DiffResult> {
        let s = settings(&env, options)?;
        let r = self.inner.detect(&key, &text.0, &s).or_throw(&env)?;
        Ok(DiffResult::answering(r, &text))
    }

    /// Stores `text` under `key` without comparing. Returns false when the
    /// text alone is over the store cap (it is then not kept, and any older
    /// text for the key is dropped).
    #[napi]
    pub fn store(
        &self,
        env: Env,
        key: String,
        #[napi(ts_arg_type = "string")] text: Text,
    ) -> Result<bool> {
        self.inner.store(&key, &text.0).or_throw(&env)
    }

    /// The text stored under `key`, or null.
    #[napi]
    pub fn previous(&self, key: String) -> Option<String> {
        self.inner.previous(&key).map(|t| t.to_string())
    }

    /// Forgets `key`. Returns whether it was stored.
    #[napi]
    pub fn clear(&self, key: String) -> bool {
        self.inner.clear(&key)
    }

    /// Forgets every key.
    #[napi]
    pub fn clear_all(&self) {
        self.inner.clear_all()
    }

    /// Bytes charged against the store cap (keys + texts + 96 per entry).
    #[napi(getter)]
    pub fn memory_usage(&self) -> f64 {
        self.inner.memory_usage() as f64
    }

    /// Number of stored keys.
    #[napi(getter)]
    pub fn size(&self) -> u32 {
        count(self.inner.len())
    }
}

/// Compares two texts without storing anything: the detector's decision
/// rule on its own. `previous` null or undefined gives mode `first`.
#[napi]
pub fn compare_texts(
    env: Env,
    #[napi(ts_arg_type = "string | undefined | null")] previous: Option<Text>,
    #[napi(ts_arg_type = "string")] current: Text,
    #[napi(ts_arg_type = "DiffOptions")] options: Option<Json>,
) -> Result<DiffResult> {
    let s = settings(&env, options)?;
    let previous = previous.as_ref().map(|t| t.0.as_str());
    let r = core::compare_texts(previous, &current.0, &s);
    Ok(DiffResult::answering(r, &current))
}

/// The line diff of two texts in one format (`format`, `context` and
/// `ignoreWhitespace` are used), with no decision rule and no summary line:
/// the formatter on its own. Empty when the texts are equal.
#[napi]
pub fn format_diff(
    env: Env,
    #[napi(ts_arg_type = "string")] previous: Text,
    #[napi(ts_arg_type = "string")] current: Text,
    #[napi(ts_arg_type = "DiffOptions")] options: Option<Json>,
) -> Result<String> {
    let s = settings(&env, options)?;
    Ok(core::format_diff(&previous.0, &current.0, &s))
}
