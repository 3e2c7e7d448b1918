//! The response diff detector, and [`rd_diff_compare`] and
//! [`rd_diff_format`], which diff two texts without one.

use std::ffi::c_char;

use response_diff::Error;
use response_diff::diff::{
    DetectorConfig, DiffSettings, ResponseDiffDetector, compare_texts, format_diff,
};

use crate::boundary::{Failure, ffi_boundary, free_slot, input_str, opt_str, rd_status, write_out};
#[cfg(doc)]
use crate::output::rd_string_free;
use crate::output::{out_json, out_string};

/// Keeps the previous response per key and returns only what changed.
/// Thread-safe: one detector may be used from many threads at once.
pub struct rd_detector {
    inner: ResponseDiffDetector,
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

pub(crate) fn detector_ref<'a>(d: *const rd_detector) -> Result<&'a ResponseDiffDetector, Failure> {
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
