//! Comparing two fingerprints: the change kinds, severities and the
//! comparison result (`compareFingerprints`).

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::fingerprint as core;
use serde_json::Value;

use super::Fingerprint;
use crate::error::OrThrow;

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

pub(super) fn threshold(env: &Env, s: Option<String>) -> Result<core::Severity> {
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
