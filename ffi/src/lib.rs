//! C ABI for response-diff.
//!
//! Conventions (rustls-ffi's):
//! - functions are named `rd_<noun>_<verb>`; stateful things are opaque
//!   handles made by `_new` and released by `_free`. Every `_free` takes
//!   the address of the caller's pointer and sets it to NULL, so freeing
//!   twice is harmless and NULL is always fine;
//! - the object comes first, then inputs, then outputs; a string input is a
//!   pointer followed by its length in bytes (UTF-8, no NUL needed); an
//!   output is written only on success;
//! - every function returns an [`rd_status`]; [`rd_last_error`] gives the
//!   message of the last failure on this thread and
//!   [`rd_status_message`] a fixed description of a status;
//! - strings the library returns are freed with [`rd_string_free`]
//!   (`rd_string_free(&s)`);
//! - options and results cross as JSON, the same JSON as every binding;
//! - every function runs inside a panic boundary: NULL, invalid UTF-8 and
//!   invalid JSON give a status, never a crash.
//!
//! # Safety
//!
//! One contract for every function, stated here instead of on each: every
//! pointer argument is NULL or valid for the access its type implies for the
//! duration of the call (`ptr, len` pairs: `len` readable bytes), handles
//! come from this library and are not used after `_free`.
#![allow(non_camel_case_types)]
// The safety contract is the crate-level one above (rustls-ffi does the same).
#![allow(clippy::missing_safety_doc)]
#![deny(unsafe_op_in_unsafe_fn)]

mod boundary;

use std::ffi::{CString, c_char};

use response_diff::Error;
use response_diff::diff::{
    DetectorConfig, DiffSettings, ResponseDiffDetector, compare_texts, format_diff,
};
use response_diff::expectation::Expectation;
use response_diff::fingerprint::{self, BaselineStore, ExtractOptions, Fingerprint, Severity};
use response_diff::response::{DiffTarget, Response, render};
use response_diff::tree::{self, Tree, TreeDiffRequest};

use boundary::{Failure, ffi_boundary, free_slot, input_str, opt_str, write_out};
pub use boundary::{rd_last_error, rd_status, rd_status_message};

// The handles below are released through `boundary::write_out` when an
// out-pointer is NULL.
boundary::boxed_handles!(rd_detector, rd_baseline_store, rd_ref_carrier);

/// Keeps the previous response per key and returns only what changed.
/// Thread-safe: one detector may be used from many threads at once.
pub struct rd_detector {
    inner: ResponseDiffDetector,
}

fn c_string(s: String) -> Result<CString, Failure> {
    CString::new(s).map_err(|_| {
        Failure::new(
            rd_status::RD_INVALID_ARGUMENT,
            "the result contains a NUL byte and cannot be returned as a C string".into(),
        )
    })
}

/// Hands `s` to the caller through `out` (freed with `rd_string_free`).
///
/// # Safety
/// `out` must be NULL or valid for writes.
unsafe fn out_string(out: *mut *mut c_char, s: String, arg: &str) -> Result<(), Failure> {
    unsafe { write_out(out, c_string(s)?.into_raw(), arg) }
}

/// Hands `value` as JSON to the caller through `out`.
///
/// # Safety
/// As [`out_string`].
unsafe fn out_json<T: serde::Serialize>(
    out: *mut *mut c_char,
    value: &T,
    arg: &str,
) -> Result<(), Failure> {
    let s = serde_json::to_string(value).map_err(|e| Failure::internal(e.to_string()))?;
    unsafe { out_string(out, s, arg) }
}

fn diff_settings(json: Option<&str>) -> Result<DiffSettings, Error> {
    DiffSettings::from_optional_json(json)
}

/// Creates a detector.
///
/// `config_json` may be NULL for the defaults, or
/// `{"maxStoredBytes": 10485760, "maxInputBytes": 33554432}` (every field
/// optional; `"deadlineMs"`, off by default, makes results timing-dependent). On success `*detector_out` is a new detector to
/// free with [`rd_detector_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_detector_new(
    config_json: *const c_char,
    config_len: usize,
    detector_out: *mut *mut rd_detector,
) -> rd_status {
    ffi_boundary(|| {
        let config = match unsafe { opt_str(config_json, config_len, "config_json")? } {
            None => DetectorConfig::default(),
            Some(j) => DetectorConfig::from_json(j)?,
        };
        let d = Box::new(rd_detector {
            inner: ResponseDiffDetector::with_config(config),
        });
        unsafe { write_out(detector_out, Box::into_raw(d), "detector_out") }
    })
}

/// Frees the detector `*detector` points to and sets `*detector` to NULL,
/// so calling it again is harmless. `detector` and `*detector` may be NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_detector_free(detector: *mut *mut rd_detector) {
    let _ = ffi_boundary(|| {
        unsafe { free_slot(detector) };
        Ok(())
    });
}

fn detector_ref<'a>(d: *const rd_detector) -> Result<&'a ResponseDiffDetector, Failure> {
    if d.is_null() {
        return Err(Failure::null("detector"));
    }
    Ok(unsafe { &(*d).inner })
}

/// Compares `text` with the text stored under `key`, then stores `text`.
///
/// `options_json` is `diffOptions` JSON (NULL for the defaults). On success
/// `*result_out` is the DiffResult as JSON
/// (`{"hasDifference", "similarity", "changeRatio", "mode",
/// "formattedDiff", "metadata": {…}}`), to free with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_detector_detect(
    detector: *const rd_detector,
    key: *const c_char,
    key_len: usize,
    text: *const c_char,
    text_len: usize,
    options_json: *const c_char,
    options_len: usize,
    result_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let d = detector_ref(detector)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let text = unsafe { input_str(text, text_len, "text")? };
        let settings =
            diff_settings(unsafe { opt_str(options_json, options_len, "options_json")? })?;
        let result = d.detect(key, text, &settings)?;
        unsafe { out_json(result_out, &result, "result_out") }
    })
}

/// Stores `text` under `key` without comparing. `*stored_out` (may be NULL)
/// is false when the text alone is over the store cap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_detector_store(
    detector: *const rd_detector,
    key: *const c_char,
    key_len: usize,
    text: *const c_char,
    text_len: usize,
    stored_out: *mut bool,
) -> rd_status {
    ffi_boundary(|| {
        let d = detector_ref(detector)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let text = unsafe { input_str(text, text_len, "text")? };
        let stored = d.store(key, text)?;
        if !stored_out.is_null() {
            unsafe { *stored_out = stored };
        }
        Ok(())
    })
}

/// Forgets `key`. `*removed_out` (may be NULL) says whether it was stored.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_detector_clear(
    detector: *const rd_detector,
    key: *const c_char,
    key_len: usize,
    removed_out: *mut bool,
) -> rd_status {
    ffi_boundary(|| {
        let d = detector_ref(detector)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let removed = d.clear(key);
        if !removed_out.is_null() {
            unsafe { *removed_out = removed };
        }
        Ok(())
    })
}

/// Forgets every key.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_detector_clear_all(detector: *const rd_detector) -> rd_status {
    ffi_boundary(|| {
        detector_ref(detector)?.clear_all();
        Ok(())
    })
}

/// Bytes charged against the store cap (keys + texts + 96 bytes per entry).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_detector_memory_usage(
    detector: *const rd_detector,
    bytes_out: *mut usize,
) -> rd_status {
    ffi_boundary(|| {
        let used = detector_ref(detector)?.memory_usage();
        unsafe { write_out(bytes_out, used, "bytes_out") }
    })
}

/// Compares two texts without storing anything (the detector's decision
/// rule). `old` may be NULL for "nothing stored" (mode `first`).
/// `*result_out` is DiffResult JSON, to free with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_diff_compare(
    old: *const c_char,
    old_len: usize,
    new: *const c_char,
    new_len: usize,
    options_json: *const c_char,
    options_len: usize,
    result_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let old = unsafe { opt_str(old, old_len, "old")? };
        let new = unsafe { input_str(new, new_len, "new")? };
        let settings =
            diff_settings(unsafe { opt_str(options_json, options_len, "options_json")? })?;
        let result = compare_texts(old, new, &settings);
        unsafe { out_json(result_out, &result, "result_out") }
    })
}

/// Formats the line diff of two texts in one format, with no decision rule
/// and no summary line: the formatter on its own.
///
/// `options_json` is `diffOptions` JSON; only `format`, `context` and
/// `ignoreWhitespace` are used. `*text_out` is the diff text (empty when
/// the texts are equal), to free with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_diff_format(
    old: *const c_char,
    old_len: usize,
    new: *const c_char,
    new_len: usize,
    options_json: *const c_char,
    options_len: usize,
    text_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let old = unsafe { input_str(old, old_len, "old")? };
        let new = unsafe { input_str(new, new_len, "new")? };
        let s = diff_settings(unsafe { opt_str(options_json, options_len, "options_json")? })?;
        let text = format_diff(old, new, &s);
        unsafe { out_string(text_out, text, "text_out") }
    })
}

/// Checks an expectation. On success `*normalized_out` (may be NULL) is the
/// same expectation as canonical JSON, to free with [`rd_string_free`]. On
/// failure the status is `RD_INVALID_OPTION` (or `RD_INVALID_JSON`) and
/// [`rd_last_error`] names the field.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_expectation_validate(
    json: *const c_char,
    json_len: usize,
    normalized_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let json = unsafe { input_str(json, json_len, "json")? };
        let e = Expectation::from_json(json)?;
        if normalized_out.is_null() {
            return Ok(());
        }
        unsafe { out_json(normalized_out, &e, "normalized_out") }
    })
}

/// Merges a tool's defaults with layers of expectations (lowest first:
/// e.g. `[globalExpectation, stepExpectation]`, a JSON array; NULL for
/// none) and returns the resolved expectation, every field set, as JSON in
/// `*resolved_out` (free with [`rd_string_free`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_expectation_merge(
    tool: *const c_char,
    tool_len: usize,
    layers_json: *const c_char,
    layers_len: usize,
    resolved_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let tool = unsafe { input_str(tool, tool_len, "tool")? };
        let layers = parse_layers(unsafe { opt_str(layers_json, layers_len, "layers_json")? })?;
        let refs: Vec<&Expectation> = layers.iter().collect();
        let resolved = Expectation::resolve(tool, &refs)?;
        unsafe { out_json(resolved_out, &resolved.to_expectation(), "resolved_out") }
    })
}

fn parse_layers(json: Option<&str>) -> Result<Vec<Expectation>, Error> {
    let Some(json) = json else {
        return Ok(Vec::new());
    };
    let values: Vec<serde_json::Value> = serde_json::from_str(json).map_err(|e| {
        if e.is_data() {
            Error::invalid_option("layers", "must be a JSON array of expectation objects")
        } else {
            Error::Parse {
                what: "JSON",
                line: e.line(),
                message: e.to_string(),
            }
        }
    })?;
    values
        .iter()
        .enumerate()
        .map(|(i, v)| Expectation::from_value_at(v, &format!("layers[{i}]")))
        .collect()
}

/// Renders a response (JSON: `{"result", "isError", "code", "tabs", "page",
/// "snapshot": {"aria", "html"}, "console", "downloads", "images"}`) to
/// Markdown under `tool`'s defaults merged with `layers_json` (as in
/// [`rd_expectation_merge`]).
///
/// With `detector` non-NULL and `diffOptions.enabled` on, the snapshot is
/// diffed against the previous one under `key`. `*rendered_out` is
/// `{"text", "images", "isError", "snapshotDiff"}` JSON, to free with
/// [`rd_string_free`].
///
/// **Needs images** for `imageOptions`: the lean library (built without
/// the `images` feature, [`rd_has_images`] false) returns images as they
/// came, and a response with images whose merged expectation sets
/// `imageOptions` is `RD_INVALID_OPTION` ("this build has no image
/// support", `rd_last_error`). Every other function works the same in
/// both builds.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_response_render(
    response_json: *const c_char,
    response_len: usize,
    tool: *const c_char,
    tool_len: usize,
    layers_json: *const c_char,
    layers_len: usize,
    detector: *const rd_detector,
    key: *const c_char,
    key_len: usize,
    rendered_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let response = Response::from_json(unsafe {
            input_str(response_json, response_len, "response_json")?
        })?;
        let tool = unsafe { input_str(tool, tool_len, "tool")? };
        let layers = parse_layers(unsafe { opt_str(layers_json, layers_len, "layers_json")? })?;
        let refs: Vec<&Expectation> = layers.iter().collect();
        let exp = Expectation::resolve(tool, &refs)?;
        let target = if detector.is_null() {
            None
        } else {
            Some(DiffTarget {
                detector: detector_ref(detector)?,
                key: unsafe { input_str(key, key_len, "key")? },
            })
        };
        let rendered = render(&response, &exp, target)?;
        unsafe { out_json(rendered_out, &rendered, "rendered_out") }
    })
}

/// Frees the string `*s` points to (one this library returned) and sets
/// `*s` to NULL, so calling it again is harmless. `s` and `*s` may be NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_string_free(s: *mut *mut c_char) {
    let _ = ffi_boundary(|| {
        unsafe { free_slot(s) };
        Ok(())
    });
}

/// A tree from aria snapshot text, or from the model's JSON (an array of
/// root elements) when the text starts with `[`.
fn parse_tree(text: &str, lenient: bool) -> Result<Tree, Error> {
    if text.trim_start().starts_with('[') {
        Tree::from_json(text)
    } else {
        tree::parse_aria(text, lenient)
    }
}

/// Parses a Playwright aria snapshot into the element model, as JSON in
/// `*tree_json_out` (free with [`rd_string_free`]). Malformed lines are
/// `RD_PARSE_ERROR` with the line number, unless `lenient`, which keeps
/// them as text nodes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_tree_parse(
    aria: *const c_char,
    aria_len: usize,
    lenient: bool,
    tree_json_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let t = tree::parse_aria(unsafe { input_str(aria, aria_len, "aria")? }, lenient)?;
        unsafe { out_string(tree_json_out, t.to_json(), "tree_json_out") }
    })
}

/// Prints a tree (the model's JSON, as [`rd_tree_parse`] returns it) as aria
/// snapshot text in `*aria_out` (free with [`rd_string_free`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_tree_print(
    tree_json: *const c_char,
    tree_json_len: usize,
    aria_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let t = Tree::from_json(unsafe { input_str(tree_json, tree_json_len, "tree_json")? })?;
        unsafe { out_string(aria_out, t.to_aria(), "aria_out") }
    })
}

/// Diffs two accessibility trees, each aria snapshot text or the model's
/// JSON (as [`rd_tree_parse`] returns it). `options_json` (NULL for the defaults) is `{"format":
/// "agent"|"yaml"|"json", "identity": "refs"|"content", "roles": [..],
/// "prune": bool, "scope": "e12", "compareBounds": bool, "lenient": bool}`.
/// `*diff_out` is the rendered diff (free with [`rd_string_free`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_tree_diff(
    old: *const c_char,
    old_len: usize,
    new: *const c_char,
    new_len: usize,
    options_json: *const c_char,
    options_len: usize,
    diff_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let req = match unsafe { opt_str(options_json, options_len, "options_json")? } {
            None => TreeDiffRequest::default(),
            Some(j) => TreeDiffRequest::from_json(j)?,
        };
        let old = parse_tree(unsafe { input_str(old, old_len, "old")? }, req.lenient)?;
        let new = parse_tree(unsafe { input_str(new, new_len, "new")? }, req.lenient)?;
        let d = tree::diff_with(&old, &new, &req.options);
        let ts = tree::now_ts();
        unsafe { out_string(diff_out, d.render(req.format, ts, None), "diff_out") }
    })
}

/// Saves and compares DOM fingerprints by name (or by the hash of a recent
/// capture). Thread-safe.
pub struct rd_baseline_store {
    inner: BaselineStore,
}

/// The page-side fingerprint extractor: JavaScript source of a function
/// `(options) => fingerprint` that any driver can evaluate (static; do not
/// free). See [`rd_fingerprint_expression`] for a ready-to-evaluate call.
#[unsafe(no_mangle)]
pub extern "C" fn rd_fingerprint_script() -> *const c_char {
    static SCRIPT: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    SCRIPT
        .get_or_init(|| CString::new(fingerprint::FINGERPRINT_SCRIPT).unwrap_or_default())
        .as_ptr()
}

/// A JavaScript expression that runs the extractor with `options_json`
/// (`{"scope": "full" | "above_fold" | "<css selector>", "depth":
/// "minimal" | "standard" | "detailed"}`, NULL for the defaults) and
/// evaluates to the fingerprint as a JSON string. Free `*expression_out`
/// with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_fingerprint_expression(
    options_json: *const c_char,
    options_len: usize,
    expression_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let opts = match unsafe { opt_str(options_json, options_len, "options_json")? } {
            None => ExtractOptions::default(),
            Some(j) => ExtractOptions::from_json(j)?,
        };
        unsafe { out_string(expression_out, opts.expression(), "expression_out") }
    })
}

fn severity(s: Option<&str>) -> Result<Severity, Error> {
    s.map_or(Ok(Severity::default()), str::parse)
}

/// Compares two fingerprints (the extractor's JSON). `threshold` is
/// `"info"`, `"warning"` (the default, also for NULL) or `"error"`: changes
/// below it are counted but not listed. `*comparison_out` is
/// `{"status", "severity", "changes", "unchanged", "summary", …}` JSON, to
/// free with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_fingerprint_compare(
    baseline_json: *const c_char,
    baseline_len: usize,
    current_json: *const c_char,
    current_len: usize,
    threshold: *const c_char,
    threshold_len: usize,
    comparison_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let baseline = Fingerprint::from_json(unsafe {
            input_str(baseline_json, baseline_len, "baseline_json")?
        })?;
        let current = Fingerprint::from_json(unsafe {
            input_str(current_json, current_len, "current_json")?
        })?;
        let threshold = severity(unsafe { opt_str(threshold, threshold_len, "threshold")? })?;
        let c = fingerprint::compare(&baseline, &current, threshold);
        unsafe { out_string(comparison_out, c.to_json(), "comparison_out") }
    })
}

/// Creates a baseline store, kept in memory and, when `directory` is not
/// NULL, persisted there (created 0700; files 0600). Free it with
/// [`rd_baseline_store_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_new(
    directory: *const c_char,
    directory_len: usize,
    store_out: *mut *mut rd_baseline_store,
) -> rd_status {
    ffi_boundary(|| {
        let store = match unsafe { opt_str(directory, directory_len, "directory")? } {
            None => BaselineStore::new(),
            Some(dir) => BaselineStore::open(dir)?,
        };
        let boxed = Box::new(rd_baseline_store { inner: store });
        unsafe { write_out(store_out, Box::into_raw(boxed), "store_out") }
    })
}

fn store_ref<'a>(store: *const rd_baseline_store) -> Result<&'a BaselineStore, Failure> {
    let s = unsafe { store.as_ref() }.ok_or_else(|| Failure::null("store"))?;
    Ok(&s.inner)
}

/// Saves a fingerprint (the extractor's JSON) as baseline `name`
/// (`[A-Za-z0-9._-]{1,64}`; anything else is `RD_INVALID_NAME`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_save(
    store: *const rd_baseline_store,
    name: *const c_char,
    name_len: usize,
    fingerprint_json: *const c_char,
    fingerprint_len: usize,
) -> rd_status {
    ffi_boundary(|| {
        let name = unsafe { input_str(name, name_len, "name")? };
        let fp = Fingerprint::from_json(unsafe {
            input_str(fingerprint_json, fingerprint_len, "fingerprint_json")?
        })?;
        store_ref(store)?.save(name, &fp)?;
        Ok(())
    })
}

/// Remembers a captured fingerprint so a later compare can name it by its
/// hash. `*hash_out` (may be NULL) is that hash, to free with
/// [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_record(
    store: *const rd_baseline_store,
    fingerprint_json: *const c_char,
    fingerprint_len: usize,
    hash_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let fp = Fingerprint::from_json(unsafe {
            input_str(fingerprint_json, fingerprint_len, "fingerprint_json")?
        })?;
        store_ref(store)?.record(&fp);
        if hash_out.is_null() {
            return Ok(());
        }
        unsafe { out_string(hash_out, fp.hash.clone(), "hash_out") }
    })
}

/// Compares `current_json` against baseline `against` (a name, or the hash
/// or a unique hash prefix of a recorded capture). A missing baseline is
/// `RD_BASELINE_NOT_FOUND`. `threshold` as in [`rd_fingerprint_compare`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_compare(
    store: *const rd_baseline_store,
    against: *const c_char,
    against_len: usize,
    current_json: *const c_char,
    current_len: usize,
    threshold: *const c_char,
    threshold_len: usize,
    comparison_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let against = unsafe { input_str(against, against_len, "against")? };
        let current = Fingerprint::from_json(unsafe {
            input_str(current_json, current_len, "current_json")?
        })?;
        let threshold = severity(unsafe { opt_str(threshold, threshold_len, "threshold")? })?;
        let c = store_ref(store)?.compare(against, &current, threshold)?;
        unsafe { out_string(comparison_out, c.to_json(), "comparison_out") }
    })
}

/// Frees the store `*store` points to and sets `*store` to NULL, so calling
/// it again is harmless. `store` and `*store` may be NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_baseline_store_free(store: *mut *mut rd_baseline_store) {
    let _ = ffi_boundary(|| {
        unsafe { free_slot(store) };
        Ok(())
    });
}

/// Whether this build resizes and re-encodes images (`imageOptions` of
/// [`rd_response_render`]): true for `libresponse_diff`, false for the
/// lean build without the `images` feature (same header and functions).
#[unsafe(no_mangle)]
pub extern "C" fn rd_has_images() -> bool {
    cfg!(feature = "images")
}

/// The library version, e.g. `"0.1.0"` (static; do not free).
#[unsafe(no_mangle)]
pub extern "C" fn rd_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// Carries refs over from the recent views of each page to new snapshots
/// of it (refs that survive re-renders). Thread-safe.
pub struct rd_ref_carrier {
    inner: tree::RefCarrier,
}

/// Creates a ref carrier. `config_json` may be NULL for the defaults, or
/// `{"viewsPerKey": 8, "maxStoredBytes": 8388608, "stableIds": false}`
/// (every field optional; `stableIds`: the host's node ids name the same
/// node across snapshots). Free it with [`rd_ref_carrier_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_new(
    config_json: *const c_char,
    config_len: usize,
    carrier_out: *mut *mut rd_ref_carrier,
) -> rd_status {
    ffi_boundary(|| {
        let config = match unsafe { opt_str(config_json, config_len, "config_json")? } {
            None => tree::CarrierConfig::default(),
            Some(j) => tree::CarrierConfig::from_json(j)?,
        };
        let c = Box::new(rd_ref_carrier {
            inner: tree::RefCarrier::with_config(config),
        });
        unsafe { write_out(carrier_out, Box::into_raw(c), "carrier_out") }
    })
}

/// Frees the carrier `*carrier` points to and sets `*carrier` to NULL, so
/// calling it again is harmless. `carrier` and `*carrier` may be NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_free(carrier: *mut *mut rd_ref_carrier) {
    let _ = ffi_boundary(|| {
        unsafe { free_slot(carrier) };
        Ok(())
    });
}

fn carrier_ref<'a>(c: *const rd_ref_carrier) -> Result<&'a tree::RefCarrier, Failure> {
    if c.is_null() {
        return Err(Failure::null("carrier"));
    }
    Ok(unsafe { &(*c).inner })
}

/// Gives the elements of `snapshot` (aria text of page `key` whose refs are
/// the host's node ids) the refs they had in the recent views of `key`, new
/// refs to new elements, and records it as the newest view. `*result_out`
/// is `{"snapshot": "<aria text with the refs>", "refs": {"<node id>":
/// "<ref>", …}, "carried": n, "fresh": n}` (free with [`rd_string_free`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_carry(
    carrier: *const rd_ref_carrier,
    key: *const c_char,
    key_len: usize,
    snapshot: *const c_char,
    snapshot_len: usize,
    result_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let c = carrier_ref(carrier)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let snapshot = parse_tree(
            unsafe { input_str(snapshot, snapshot_len, "snapshot")? },
            false,
        )?;
        let r = c.carry(key, &snapshot)?;
        unsafe { out_string(result_out, r.to_json(), "result_out") }
    })
}

/// The page's own ref (the host's node id) that `carried_ref`, as the agent
/// was shown it, names in the latest view of `key`. `*source_out` is that
/// id (free with [`rd_string_free`]), or NULL when that view did not show
/// the ref.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_source_ref(
    carrier: *const rd_ref_carrier,
    key: *const c_char,
    key_len: usize,
    carried_ref: *const c_char,
    carried_ref_len: usize,
    source_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let c = carrier_ref(carrier)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let carried = unsafe { input_str(carried_ref, carried_ref_len, "carried_ref")? };
        match c.source_ref(key, carried) {
            Some(id) => unsafe { out_string(source_out, id, "source_out") },
            None => unsafe { write_out(source_out, std::ptr::null_mut(), "source_out") },
        }
    })
}

/// Forgets `key` (its views and the refs it handed out).
/// `*removed_out` (may be NULL) says whether it was kept.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_clear(
    carrier: *const rd_ref_carrier,
    key: *const c_char,
    key_len: usize,
    removed_out: *mut bool,
) -> rd_status {
    ffi_boundary(|| {
        let c = carrier_ref(carrier)?;
        let key = unsafe { input_str(key, key_len, "key")? };
        let removed = c.clear(key);
        if !removed_out.is_null() {
            unsafe { *removed_out = removed };
        }
        Ok(())
    })
}

/// Bytes the carrier charges against its `maxStoredBytes`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_ref_carrier_memory_usage(
    carrier: *const rd_ref_carrier,
    bytes_out: *mut usize,
) -> rd_status {
    ffi_boundary(|| {
        let used = carrier_ref(carrier)?.memory_usage();
        unsafe { write_out(bytes_out, used, "bytes_out") }
    })
}

/// A JSON array of strings (`what` names it in errors).
fn string_list(json: Option<&str>, what: &str) -> Result<Vec<String>, Error> {
    let Some(json) = json else {
        return Ok(Vec::new());
    };
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| Error::Parse {
        what: "JSON",
        line: e.line(),
        message: e.to_string(),
    })?;
    serde_json::from_value(value).map_err(|_| {
        Error::invalid_option(
            what,
            "must be a JSON array of strings (aria snapshot texts)",
        )
    })
}

/// Carries refs without a store: `previous_json` is a JSON array of the
/// earlier snapshots as the agent saw them (aria texts, oldest first; NULL
/// for none), `snapshot` the new one with the host's node ids,
/// `options_json` `{"stableIds": false}` (NULL for the default).
/// `*result_out` as in [`rd_ref_carrier_carry`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_refs_carry(
    previous_json: *const c_char,
    previous_len: usize,
    snapshot: *const c_char,
    snapshot_len: usize,
    options_json: *const c_char,
    options_len: usize,
    result_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let previous = string_list(
            unsafe { opt_str(previous_json, previous_len, "previous_json")? },
            "previous",
        )?;
        let previous: Vec<Tree> = previous
            .iter()
            .map(|t| tree::parse_aria(t, false))
            .collect::<Result<_, _>>()?;
        let snapshot = parse_tree(
            unsafe { input_str(snapshot, snapshot_len, "snapshot")? },
            false,
        )?;
        let options = match unsafe { opt_str(options_json, options_len, "options_json")? } {
            None => tree::CarryOptions::default(),
            Some(j) => tree::CarryOptions::from_json(j)?,
        };
        let refs: Vec<&Tree> = previous.iter().collect();
        let r = tree::carry_refs(&refs, &snapshot, options)?;
        unsafe { out_string(result_out, r.to_json(), "result_out") }
    })
}

/// The snapshot patch from `old` to `new` (aria texts). `options_json`
/// (NULL for the defaults) is `{"seen": ["<aria text>", …], "restore":
/// true}`: the snapshots the agent was shown earlier in the conversation,
/// oldest first, whose elements may be restored by reference. `*patch_out`
/// is `{"text", "summary", "changed", "added", "restored", "removed", "moved",
/// "unchanged"}`, or `null` when the change cannot be said as a patch (use
/// a line diff); free it with [`rd_string_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_snapshot_patch(
    old: *const c_char,
    old_len: usize,
    new: *const c_char,
    new_len: usize,
    options_json: *const c_char,
    options_len: usize,
    patch_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let old = unsafe { input_str(old, old_len, "old")? };
        let new = unsafe { input_str(new, new_len, "new")? };
        let req = match unsafe { opt_str(options_json, options_len, "options_json")? } {
            None => tree::PatchRequest::default(),
            Some(j) => tree::PatchRequest::from_json(j)?,
        };
        let json = tree::snapshot_patch_with(old, new, &req.options())
            .map_or_else(|| "null".to_owned(), |p| p.to_json());
        unsafe { out_string(patch_out, json, "patch_out") }
    })
}

/// Applies a snapshot patch to the snapshot it was taken from; `*new_out`
/// is the new snapshot text (free with [`rd_string_free`]). `seen_json` is
/// a JSON array of the snapshots the agent was shown earlier (oldest
/// first), needed when the patch restores elements `as last shown`; NULL
/// for none.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rd_snapshot_patch_apply(
    old: *const c_char,
    old_len: usize,
    patch: *const c_char,
    patch_len: usize,
    seen_json: *const c_char,
    seen_len: usize,
    new_out: *mut *mut c_char,
) -> rd_status {
    ffi_boundary(|| {
        let old = unsafe { input_str(old, old_len, "old")? };
        let patch = unsafe { input_str(patch, patch_len, "patch")? };
        let seen = string_list(
            unsafe { opt_str(seen_json, seen_len, "seen_json")? },
            "seen",
        )?;
        let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
        let new = tree::apply_patch_with(old, patch, &seen)?;
        unsafe { out_string(new_out, new, "new_out") }
    })
}
