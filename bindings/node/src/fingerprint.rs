//! DOM fingerprints: the page-side extractor, parsing, compare, baselines.

use std::sync::Arc;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::fingerprint as core;
use serde_json::Value;

use crate::error::OrThrow;
use crate::json::{Json, options_from};

/// The page-side extractor: one JavaScript function expression,
/// `(function (options) { … })`, to call in the page with
/// `{scope, depth}`. It returns the fingerprint JSON object (or
/// `{error: {field?, message}}`); pass that to `parseFingerprint`.
#[napi]
pub const FINGERPRINT_SCRIPT: &str = core::FINGERPRINT_SCRIPT;

/// @deprecated Renamed `FINGERPRINT_SCRIPT`, its name in every binding
/// (docs/NAMES.md); the same string.
#[napi]
pub const EXTRACTOR_JS: &str = core::FINGERPRINT_SCRIPT;

/// Options of the extractor.
#[napi(object)]
pub struct FingerprintOptions {
    /// `full` (default), `above_fold`, or a CSS selector.
    pub scope: Option<String>,
    /// `minimal`, `standard` (default) or `detailed`.
    pub depth: Option<FingerprintDepth>,
}

/// How much the extractor captures.
#[napi(string_enum = "lowercase")]
pub enum FingerprintDepth {
    /// Landmarks and page state only.
    Minimal,
    /// Plus headings, lists, forms, tables, images, interactive elements.
    Standard,
    /// Plus more interactive elements, per-landmark detail, table headers.
    Detailed,
}

/// A ready-to-evaluate expression that runs the extractor with `options`
/// and evaluates to the fingerprint JSON *as a string* (any driver can
/// return a string by value): `parseFingerprint(await page.evaluate(expr))`.
#[napi]
pub fn fingerprint_expression(
    env: Env,
    #[napi(ts_arg_type = "FingerprintOptions")] options: Option<Json>,
) -> Result<String> {
    let opts = options_from(&env, options, core::ExtractOptions::from_json)?;
    Ok(opts.expression())
}

/// A parsed, validated, normalized and hashed DOM fingerprint.
#[napi]
pub struct Fingerprint {
    inner: Arc<core::Fingerprint>,
}

#[napi]
impl Fingerprint {
    /// The normalized page URL.
    #[napi(getter)]
    pub fn url(&self) -> String {
        self.inner.url.clone()
    }

    /// The normalized title.
    #[napi(getter)]
    pub fn title(&self) -> String {
        self.inner.title.clone()
    }

    /// blake3 of the canonical normalized structure, 16 hex digits: equal
    /// pages give equal hashes, whenever they were captured.
    #[napi(getter)]
    pub fn hash(&self) -> String {
        self.inner.hash.clone()
    }

    /// Estimated tokens of the fingerprint's compact JSON (bytes / 4).
    #[napi(getter)]
    pub fn token_count(&self) -> u32 {
        u32::try_from(self.inner.token_count).unwrap_or(u32::MAX)
    }

    /// When it was captured, as the extractor reported it.
    #[napi(getter)]
    pub fn captured_at(&self) -> String {
        self.inner.captured_at.clone()
    }

    /// The scope it was captured with: `full`, `above_fold` or a selector.
    #[napi(getter)]
    pub fn scope(&self) -> String {
        self.inner.scope.clone()
    }

    /// The depth it was captured with.
    #[napi(getter)]
    pub fn depth(&self) -> FingerprintDepth {
        match self.inner.depth {
            core::Depth::Minimal => FingerprintDepth::Minimal,
            core::Depth::Detailed => FingerprintDepth::Detailed,
            _ => FingerprintDepth::Standard,
        }
    }

    /// True when the page showed loading indicators at capture time.
    #[napi(getter)]
    pub fn is_loading(&self) -> bool {
        self.inner.is_loading()
    }

    /// The fingerprint as a plain object, with the extractor's snake_case
    /// keys plus `hash` and `token_count` (`JSON.stringify` uses this).
    #[napi(js_name = "toJSON")]
    pub fn to_json(&self) -> Value {
        serde_json::to_value(&*self.inner).unwrap_or(Value::Null)
    }
}

/// Parses what the extractor returned (a JSON string or the object), or a
/// saved fingerprint. Throws `PARSE_ERROR` (with the line) for bad JSON or
/// a bad field, `INVALID_OPTION` when the extractor refused its options,
/// `INPUT_TOO_LARGE` over 2 MiB.
#[napi]
pub fn parse_fingerprint(
    env: Env,
    #[napi(ts_arg_type = "string | Record<string, unknown>")] json: Json,
) -> Result<Fingerprint> {
    let text = match json.0 {
        Value::String(s) => s,
        v => v.to_string(),
    };
    let fp = core::Fingerprint::from_json(&text).or_throw(&env)?;
    Ok(Fingerprint {
        inner: Arc::new(fp),
    })
}

/// How serious a change is.
#[napi(string_enum = "lowercase")]
pub enum Severity {
    /// Worth knowing: something was added, a count changed.
    Info,
    /// Probably a problem: a list emptied, a heading changed, a modal opened.
    Warning,
    /// A regression: something needed is missing or hidden, an error appeared.
    Error,
}

/// The highest reported severity of a comparison, `clean` if none.
#[napi(string_enum = "lowercase")]
pub enum OverallSeverity {
    /// Nothing reported at or above the threshold.
    Clean,
    /// At most info changes.
    Info,
    /// At least one warning, no error.
    Warning,
    /// At least one error.
    Error,
}

/// A comparison's verdict.
#[napi(string_enum = "lowercase")]
pub enum FingerprintStatus {
    /// Same hash: nothing changed (after normalization).
    Unchanged,
    /// Something changed (possibly only below the threshold).
    Changed,
    /// The page shows loading indicators the baseline did not: capture again.
    Loading,
}

/// The kinds of fingerprint change (docs/DECISIONS.md D18), as the core names them.
#[napi(string_enum = "snake_case")]
pub enum ChangeKind {
    /// warning
    UrlChanged,
    /// info
    TitleChanged,
    /// error
    LandmarkMissing,
    /// info
    LandmarkAdded,
    /// info
    LandmarkChanged,
    /// error (info if it was already hidden or empty)
    ElementMissing,
    /// info
    ElementAdded,
    /// error: present but no longer seen (CSS, off-screen, clipped)
    ElementHidden,
    /// info
    ElementShown,
    /// warning
    ElementDisabled,
    /// info
    ElementEnabled,
    /// error: covered by another element, cannot be clicked
    ElementCovered,
    /// info
    ElementChanged,
    /// error
    ErrorAppeared,
    /// info
    ErrorResolved,
    /// info
    LoadingStarted,
    /// info
    LoadingFinished,
    /// warning
    EmptyStateAppeared,
    /// info
    EmptyStateCleared,
    /// warning
    ModalOpened,
    /// info
    ModalClosed,
    /// info
    NotificationAppeared,
    /// info
    NotificationCleared,
    /// warning
    ListEmpty,
    /// info
    ListCountChanged,
    /// error
    FormFieldMissing,
    /// info
    FormFieldAdded,
    /// warning
    HeadingMissing,
    /// warning
    HeadingChanged,
    /// info
    HeadingAdded,
    /// warning
    ImagesBroken,
    /// info
    ImagesChanged,
    /// info: a detail no other kind covers
    StructureChanged,
}

/// What a change is about.
#[napi(object)]
pub struct ChangedElement {
    /// `button`, `link`, `input`… for interactive elements; `landmark`,
    /// `list`, `form`, `table`, `heading`, `error`, `loading`,
    /// `empty_state`, `modal`, `notification`, `images`, `page` otherwise.
    #[napi(js_name = "type")]
    pub kind: String,
    /// Its text, label or landmark key.
    pub text: Option<String>,
    /// Its selector (lists, forms, tables, state elements).
    pub selector: Option<String>,
    /// Heading level.
    pub level: Option<u32>,
}

/// One change between the baseline and the current fingerprint.
#[napi(object)]
pub struct FingerprintChange {
    /// The kind.
    #[napi(js_name = "type", ts_type = "ChangeKind")]
    pub kind: String,
    /// Its severity.
    #[napi(ts_type = "Severity")]
    pub severity: String,
    /// What it is about.
    pub element: ChangedElement,
    /// Where (`main > section:projects`), when known.
    pub location: Option<String>,
    /// The baseline's value, when there is one to show.
    pub was: Option<Value>,
    /// The current value, when there is one to show.
    pub now: Option<Value>,
    /// One sentence for the agent.
    pub description: String,
}

/// The result of comparing a fingerprint with a baseline.
#[napi(object)]
pub struct FingerprintComparison {
    /// `unchanged`, `changed` or `loading`.
    #[napi(ts_type = "FingerprintStatus")]
    pub status: String,
    /// Highest reported severity, `clean` if none.
    #[napi(ts_type = "OverallSeverity")]
    pub severity: String,
    /// Reported changes (at or above the threshold), errors first.
    pub changes: Vec<FingerprintChange>,
    /// Landmarks and sections with no change at all.
    pub unchanged: Vec<String>,
    /// `2 errors, 1 warning, 1 info` (and what was left out).
    pub summary: String,
    /// Changes below the threshold, left out of `changes`.
    pub suppressed: u32,
    /// Hash of the baseline.
    pub baseline_hash: String,
    /// Hash of the current fingerprint.
    pub current_hash: String,
    /// The compact text an agent reads (status line, one line per change,
    /// the unchanged sections).
    pub text: String,
}

impl From<core::FingerprintComparison> for FingerprintComparison {
    fn from(c: core::FingerprintComparison) -> Self {
        let text = c.to_string();
        FingerprintComparison {
            status: c.status.as_str().to_owned(),
            severity: c.severity.as_str().to_owned(),
            changes: c
                .changes
                .into_iter()
                .map(|ch| FingerprintChange {
                    kind: ch.kind.as_str().to_owned(),
                    severity: ch.severity.as_str().to_owned(),
                    element: ChangedElement {
                        kind: ch.element.kind,
                        text: ch.element.text,
                        selector: ch.element.selector,
                        level: ch.element.level.map(u32::from),
                    },
                    location: ch.location,
                    was: ch.was,
                    now: ch.now,
                    description: ch.description,
                })
                .collect(),
            unchanged: c.unchanged,
            summary: c.summary,
            suppressed: u32::try_from(c.suppressed).unwrap_or(u32::MAX),
            baseline_hash: c.baseline_hash,
            current_hash: c.current_hash,
            text,
        }
    }
}

fn threshold(env: &Env, s: Option<String>) -> Result<core::Severity> {
    match s {
        None => Ok(core::Severity::default()),
        Some(s) => s.parse().or_throw(env),
    }
}

/// Compares `current` with `baseline`, reporting changes at or above
/// `severityThreshold` (default `warning`).
#[napi]
pub fn compare_fingerprints(
    env: Env,
    baseline: &Fingerprint,
    current: &Fingerprint,
    #[napi(ts_arg_type = "Severity")] severity_threshold: Option<String>,
) -> Result<FingerprintComparison> {
    let t = threshold(&env, severity_threshold)?;
    Ok(core::compare(&baseline.inner, &current.inner, t).into())
}

/// Named baselines and recently captured fingerprints, bounded in memory
/// (16 MiB, 32 recent), optionally persisted in a private directory.
#[napi]
pub struct BaselineStore {
    inner: core::BaselineStore,
}

#[napi]
impl BaselineStore {
    /// An in-memory store, or one persisted in `options.directory`
    /// (created 0700). Throws `IO_ERROR` when the directory cannot be used.
    #[napi(constructor)]
    pub fn new(
        env: Env,
        #[napi(ts_arg_type = "{ directory?: string; memoryLimit?: number; recentLimit?: number }")]
        options: Option<Json>,
    ) -> Result<Self> {
        let config = options_from(&env, options, core::BaselineStoreConfig::from_json)?;
        Ok(BaselineStore {
            inner: core::BaselineStore::with_config(config).or_throw(&env)?,
        })
    }

    /// Saves `fingerprint` as the baseline `name` (1 to 64 of
    /// `A-Za-z0-9._-`; anything else throws `INVALID_NAME`).
    #[napi]
    pub fn save(&self, env: Env, name: String, fingerprint: &Fingerprint) -> Result<()> {
        self.inner.save(&name, &fingerprint.inner).or_throw(&env)
    }

    /// Remembers `fingerprint` as recently captured, so `get` and `compare`
    /// find it by its hash (or a unique prefix of 4+ hex digits).
    #[napi]
    pub fn record(&self, fingerprint: &Fingerprint) {
        self.inner.record(&fingerprint.inner)
    }

    /// The baseline `against` (a name, or a hash or hash prefix of a
    /// fingerprint in memory). Throws `BASELINE_NOT_FOUND` listing the names.
    #[napi]
    pub fn get(&self, env: Env, against: String) -> Result<Fingerprint> {
        let fp = self.inner.get(&against).or_throw(&env)?;
        Ok(Fingerprint { inner: fp })
    }

    /// Compares `current` with the baseline `against`.
    #[napi]
    pub fn compare(
        &self,
        env: Env,
        against: String,
        current: &Fingerprint,
        #[napi(ts_arg_type = "Severity")] severity_threshold: Option<String>,
    ) -> Result<FingerprintComparison> {
        let t = threshold(&env, severity_threshold)?;
        let c = self
            .inner
            .compare(&against, &current.inner, t)
            .or_throw(&env)?;
        Ok(c.into())
    }

    /// Removes the baseline `name` (memory and disk). Returns whether it existed.
    #[napi]
    pub fn remove(&self, env: Env, name: String) -> Result<bool> {
        self.inner.remove(&name).or_throw(&env)
    }

    /// Names of the baselines, in memory or on disk, sorted.
    #[napi]
    pub fn names(&self) -> Vec<String> {
        self.inner.names()
    }

    /// The persistence directory, or null.
    #[napi(getter)]
    pub fn directory(&self) -> Option<String> {
        self.inner
            .directory()
            .map(|d| d.to_string_lossy().into_owned())
    }

    /// Bytes of fingerprint JSON held in memory.
    #[napi(getter)]
    pub fn memory_usage(&self) -> f64 {
        self.inner.memory_usage() as f64
    }

    /// Named baselines held in memory.
    #[napi(getter)]
    pub fn size(&self) -> u32 {
        u32::try_from(self.inner.len()).unwrap_or(u32::MAX)
    }
}
