//! DOM fingerprints: the page-side extractor, parsing, compare, baselines.
//!
//! Split by job: this file holds the extractor and the parsed
//! `Fingerprint`; `compare` the comparison and its result types;
//! `baseline` the `BaselineStore`.

use std::sync::Arc;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::fingerprint as core;
use serde_json::Value;

use crate::error::OrThrow;
use crate::json::{Json, options_from};

pub mod baseline;
pub mod compare;

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
