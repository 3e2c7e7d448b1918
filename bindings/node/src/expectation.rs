//! Expectation: validate one, merge layers over a tool's defaults.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::expectation::Expectation as CoreExpectation;
use serde_json::Value;

use crate::json::Json;

use crate::diff::DiffOptions;
use crate::error::OrThrow;

/// Which sections a response includes and how much of each (docs/DECISIONS.md D4).
/// Every field is optional: a field left out keeps the tool's default.
/// Unknown keys and out-of-range values throw `INVALID_OPTION` naming the
/// field (`expectation.consoleOptions.maxMessages`).
#[napi(object)]
pub struct Expectation {
    /// Include the page snapshot.
    pub include_snapshot: Option<bool>,
    /// Include console messages.
    pub include_console: Option<bool>,
    /// Include downloads.
    pub include_downloads: Option<bool>,
    /// Include the list of open tabs.
    pub include_tabs: Option<bool>,
    /// Include the code that was run.
    pub include_code: Option<bool>,
    /// How the snapshot is scoped, printed and cut.
    pub snapshot_options: Option<SnapshotOptions>,
    /// Which console messages are shown.
    pub console_options: Option<ConsoleOptions>,
    /// How images are resized and encoded.
    pub image_options: Option<ImageOptions>,
    /// Whether and how responses are diffed.
    pub diff_options: Option<DiffOptions>,
}

/// `snapshotOptions`.
#[napi(object)]
pub struct SnapshotOptions {
    /// A ref (`e12`) or a role with an optional quoted name
    /// (`button "Submit"`): only the first matching subtree is shown.
    pub selector: Option<String>,
    /// Most characters shown, 1..64 MiB; cut at a line boundary with a
    /// marker saying what was left out.
    pub max_length: Option<u32>,
    /// `aria` (default), `text` or `html`.
    pub format: Option<SnapshotFormat>,
    /// How an aria snapshot's changes are shown when diffing is on:
    /// `patch` (default: by ref, when that rebuilds the page exactly and is
    /// shorter than the line diff) or `lines` (always the line diff).
    pub diff: Option<SnapshotDiff>,
    /// Whether a patch may restore elements shown in earlier responses by
    /// reference (`[e4 e5] as last shown`); default on. Turn it off when
    /// the host trims its context.
    pub restore: Option<bool>,
}

/// How an aria snapshot's changes are shown (`snapshotOptions.diff`).
#[napi(string_enum = "lowercase")]
pub enum SnapshotDiff {
    /// A snapshot patch by ref (`applySnapshotPatch` applies it).
    Patch,
    /// The line diff of `diffOptions.format`.
    Lines,
}

/// How the snapshot is printed.
#[napi(string_enum = "lowercase")]
pub enum SnapshotFormat {
    /// Playwright-style aria snapshot YAML.
    Aria,
    /// The visible text, one line per text-bearing node.
    Text,
    /// The scope's outer HTML, as the host supplied it.
    Html,
}

/// `consoleOptions`.
#[napi(object)]
pub struct ConsoleOptions {
    /// Only these levels (default: all).
    pub levels: Option<Vec<ConsoleLevel>>,
    /// Keep the newest this many, 0..100,000 (default 10).
    pub max_messages: Option<u32>,
    /// Case-insensitive regexes; a message is kept when any matches.
    pub patterns: Option<Vec<String>>,
    /// Collapse identical messages into one with a `(×N)` count (default true).
    pub remove_duplicates: Option<bool>,
}

/// A console level.
#[napi(string_enum = "lowercase")]
pub enum ConsoleLevel {
    /// `console.log`.
    Log,
    /// `console.info`.
    Info,
    /// `console.warn`.
    Warn,
    /// `console.error`, uncaught errors.
    Error,
    /// `console.debug`, `console.trace`.
    Debug,
}

/// `imageOptions`.
#[napi(object)]
pub struct ImageOptions {
    /// 1..100, for JPEG.
    pub quality: Option<u32>,
    /// Resize to at most this width, 1..16,384 (aspect kept, never upscaled).
    pub max_width: Option<u32>,
    /// Resize to at most this height, 1..16,384.
    pub max_height: Option<u32>,
    /// Re-encode as this format (default: keep the input's).
    pub format: Option<ImageFormat>,
}

/// An image encoding.
#[napi(string_enum = "lowercase")]
pub enum ImageFormat {
    /// JPEG (honours `quality`).
    Jpeg,
    /// PNG.
    Png,
    /// WebP (lossless).
    Webp,
}

/// Parses expectation layers (lowest first), naming fields `layers[i].…`
/// as the C ABI does.
pub(crate) fn layers(env: &Env, values: Option<Vec<Json>>) -> Result<Vec<CoreExpectation>> {
    values
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, v)| CoreExpectation::from_value_at(&v.0, &format!("layers[{i}]")).or_throw(env))
        .collect()
}

fn to_value(e: &CoreExpectation) -> Value {
    serde_json::to_value(e).unwrap_or(Value::Null)
}

/// Checks an expectation and returns it in canonical form (fields that were
/// left out stay out). Throws `INVALID_OPTION` naming the offending field.
#[napi(ts_return_type = "Expectation")]
pub fn validate_expectation(
    env: Env,
    #[napi(ts_arg_type = "Expectation")] expectation: Json,
) -> Result<Value> {
    let e = CoreExpectation::from_value_at(&expectation.0, "expectation").or_throw(&env)?;
    Ok(to_value(&e))
}

/// Merges `tool`'s defaults with `layers` (lowest first, e.g.
/// `[globalExpectation, stepExpectation]`), deeply, field by field, and
/// returns the result with every field set.
#[napi(ts_return_type = "Expectation")]
pub fn merge_expectation(
    env: Env,
    tool: String,
    #[napi(ts_arg_type = "Expectation[]")] layers: Option<Vec<Json>>,
) -> Result<Value> {
    let parsed = self::layers(&env, layers)?;
    let refs: Vec<&CoreExpectation> = parsed.iter().collect();
    let resolved = CoreExpectation::resolve(&tool, &refs).or_throw(&env)?;
    Ok(to_value(&resolved.to_expectation()))
}
