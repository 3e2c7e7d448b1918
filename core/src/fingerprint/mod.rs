//! DOM fingerprints: page-side extractor, model, normalization, compare and
//! baselines (docs/DECISIONS.md D17–D19).
//!
//! A fingerprint is a compact semantic summary of a page — landmarks,
//! headings, lists, forms, tables, images, interactive elements and
//! error/loading/empty/modal/notification state — that an agent can keep as
//! a named baseline and compare later, getting typed changes with
//! severities ("button 'Save' is no longer present") instead of a
//! screenshot or a full DOM dump.
//!
//! The flow:
//! 1. evaluate [`FINGERPRINT_SCRIPT`] in the page (any driver;
//!    [`ExtractOptions::expression`] gives a ready expression);
//! 2. [`Fingerprint::from_json`] parses, validates, normalizes
//!    ([`normalize_text`]), hashes and counts it;
//! 3. [`compare`] two of them, or keep baselines in a [`BaselineStore`].
//!
//! JSON key style: the page JSON and the [`FingerprintComparison`] use snake_case
//! keys, as the extractor returns them (docs/DECISIONS.md D17) (`captured_at`, `error_elements`,
//! `baseline_hash`); the options object ([`ExtractOptions`]) has only
//! one-word keys (`scope`, `depth`).
//!
//! ```
//! use response_diff::fingerprint::{compare, ChangeKind, Fingerprint, Severity};
//!
//! let page = |hidden: bool| format!(r#"{{
//!   "url": "http://127.0.0.1:8000/dashboard",
//!   "captured_at": "2026-01-23T10:30:45Z",
//!   "structure": {{
//!     "landmarks": {{"main": {{"present": true, "visible": true, "role": "main", "contains": []}}}},
//!     "interactive": [{{"type": "button", "text": "New Project", "visible": {}, "enabled": true, "location": "main"}}]
//!   }}}}"#, !hidden);
//! let baseline = Fingerprint::from_json(&page(false))?;
//! let current = Fingerprint::from_json(&page(true))?;
//!
//! let cmp = compare(&baseline, &current, Severity::Warning);
//! assert_eq!(cmp.changes[0].kind, ChangeKind::ElementHidden);
//! assert_eq!(cmp.summary, "1 error");
//! print!("{cmp}");
//! # Ok::<(), response_diff::Error>(())
//! ```

mod compare;
mod matcher;
mod model;
mod normalize;
mod options;
#[cfg(feature = "std")]
mod store;
#[rustfmt::skip]
mod unicode_tables;

pub use compare::{
    ChangeKind, ChangedElement, FingerprintChange, FingerprintComparison, Overall, Severity,
    Status, compare,
};
pub use model::{
    Content, Fingerprint, Form, Heading, Images, Interactive, Landmark, List,
    MAX_FINGERPRINT_BYTES, State, StateElement, Structure, Table, Viewport,
};
pub use normalize::{normalize_selector, normalize_text, normalize_url};
#[allow(deprecated)]
pub use options::EXTRACTOR_JS;
pub use options::{Depth, ExtractOptions, FINGERPRINT_SCRIPT, Scope};
#[cfg(feature = "std")]
pub use store::{
    BaselineStore, BaselineStoreConfig, DEFAULT_MEMORY_LIMIT, DEFAULT_RECENT_LIMIT,
    MIN_HASH_PREFIX, STALE_TEMP_AGE, validate_name,
};
