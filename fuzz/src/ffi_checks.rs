//! The C ABI's fuzz target: raw bytes (any encoding) through the `rd_*`
//! functions that take JSON or text, as a C caller would pass them.
//!
//! Input: byte 0 picks the function, byte 1 is a mask of arguments passed
//! as NULL, and the rest are the string arguments separated by 0xFF (a byte
//! UTF-8 never uses; other invalid UTF-8 still gets through). Every status
//! must be one a caller can act on (never `RD_PANIC` or `RD_INTERNAL`),
//! every failure leaves a message, every success gives well-formed output,
//! and everything returned is freed.
//!
//! Included by ffi/tests/fuzz_regressions.rs.

use std::ffi::{CStr, c_char};
use std::ptr;

use response_diff_ffi::*;

/// Number of functions (or call sequences) byte 0 chooses from.
pub const FUNCTIONS: u8 = 12;

/// The fuzzer's bytes as a call: function, NULL mask, arguments.
struct Call<'a> {
    function: u8,
    nulls: u8,
    args: Vec<&'a [u8]>,
}

impl<'a> Call<'a> {
    fn parse(data: &'a [u8]) -> Option<Call<'a>> {
        let (&function, rest) = data.split_first()?;
        let (&nulls, rest) = rest.split_first().unwrap_or((&0, &[]));
        Some(Call {
            function: function % FUNCTIONS,
            nulls,
            args: rest.split(|&b| b == 0xFF).collect(),
        })
    }

    /// Argument `i` as (pointer, length): NULL when the mask says so or
    /// when the input has fewer arguments.
    fn arg(&self, i: usize) -> (*const c_char, usize) {
        match self.args.get(i) {
            Some(a) if self.nulls & (1 << i) == 0 => (a.as_ptr().cast(), a.len()),
            _ => (ptr::null(), 0),
        }
    }

    /// Argument `i` is present, UTF-8 and not well-formed JSON.
    fn is_malformed_json(&self, i: usize) -> bool {
        self.nulls & (1 << i) == 0
            && self.args.get(i).is_some_and(|a| {
                std::str::from_utf8(a).is_ok()
                    && serde_json::from_slice::<serde_json::Value>(a).is_err()
            })
    }

    fn is_utf8(&self, i: usize) -> bool {
        self.args
            .get(i)
            .is_none_or(|a| std::str::from_utf8(a).is_ok())
    }
}

thread_local! {
    /// Calls of the current input that returned an error status.
    static REFUSED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Checks a status: never a panic or internal error; a failure has a
/// message; invalid UTF-8 is reported as such.
fn check(status: rd_status, what: &str) -> bool {
    if status != rd_status::RD_OK {
        REFUSED.set(REFUSED.get() + 1);
    }
    assert_ne!(status, rd_status::RD_PANIC, "{what}: {}", last_error());
    assert_ne!(status, rd_status::RD_INTERNAL, "{what}: {}", last_error());
    if status != rd_status::RD_OK {
        let msg = last_error();
        assert!(!msg.is_empty(), "{what}: {status:?} without a message");
    }
    status == rd_status::RD_OK
}

fn last_error() -> String {
    let p = rd_last_error();
    if p.is_null() {
        return String::new();
    }
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// Takes a returned string: checks it is UTF-8 (and JSON when `json`),
/// frees it and checks the slot is cleared.
fn take(mut s: *mut c_char, json: bool, what: &str) -> String {
    assert!(!s.is_null(), "{what}: RD_OK but no output");
    let text = unsafe { CStr::from_ptr(s) }
        .to_str()
        .unwrap_or_else(|e| panic!("{what}: output is not UTF-8: {e}"))
        .to_owned();
    if json {
        serde_json::from_str::<serde_json::Value>(&text)
            .unwrap_or_else(|e| panic!("{what}: output is not JSON: {e}\n{text}"));
    }
    unsafe { rd_string_free(&mut s) };
    assert!(s.is_null());
    unsafe { rd_string_free(&mut s) }; // twice is harmless
    text
}

/// Runs one fuzz input through the C ABI. Returns how many calls returned
/// an error status (a valid seed gets none).
pub fn ffi_json(data: &[u8]) -> usize {
    REFUSED.set(0);
    let Some(call) = Call::parse(data) else {
        return 0;
    };
    let a = |i| call.arg(i);
    let mut out: *mut c_char = ptr::null_mut();
    unsafe {
        match call.function {
            0 => detector_session(&call),
            1 => {
                let ((o, ol), (n, nl), (j, jl)) = (a(0), a(1), a(2));
                if check(
                    rd_diff_compare(o, ol, n, nl, j, jl, &mut out),
                    "rd_diff_compare",
                ) {
                    assert!(call.is_utf8(1) && !n.is_null());
                    take(out, true, "rd_diff_compare");
                }
            }
            2 => {
                let ((o, ol), (n, nl), (j, jl)) = (a(0), a(1), a(2));
                if check(
                    rd_diff_format(o, ol, n, nl, j, jl, &mut out),
                    "rd_diff_format",
                ) {
                    assert!(call.is_utf8(0) && call.is_utf8(1));
                    take(out, false, "rd_diff_format");
                }
            }
            3 => {
                let (j, jl) = a(0);
                let s = rd_expectation_validate(j, jl, &mut out);
                if call.is_malformed_json(0) {
                    assert_eq!(s, rd_status::RD_INVALID_JSON, "{}", last_error());
                }
                if check(s, "rd_expectation_validate") {
                    let normalized = take(out, true, "rd_expectation_validate");
                    // The canonical form is itself valid.
                    let s = rd_expectation_validate(
                        normalized.as_ptr().cast(),
                        normalized.len(),
                        ptr::null_mut(),
                    );
                    assert_eq!(s, rd_status::RD_OK, "{normalized}: {}", last_error());
                }
            }
            4 => {
                let ((t, tl), (l, ll)) = (a(0), a(1));
                if check(
                    rd_expectation_merge(t, tl, l, ll, &mut out),
                    "rd_expectation_merge",
                ) {
                    let resolved = take(out, true, "rd_expectation_merge");
                    let s = rd_expectation_validate(
                        resolved.as_ptr().cast(),
                        resolved.len(),
                        ptr::null_mut(),
                    );
                    assert_eq!(s, rd_status::RD_OK, "{resolved}: {}", last_error());
                }
            }
            5 => {
                let ((r, rl), (t, tl), (l, ll), (k, kl)) = (a(0), a(1), a(2), a(3));
                let mut det: *mut rd_detector = ptr::null_mut();
                if call.nulls & 0x80 == 0 {
                    assert_eq!(rd_detector_new(ptr::null(), 0, &mut det), rd_status::RD_OK);
                }
                // Twice, so the second render can diff against the first.
                for _ in 0..2 {
                    let s = rd_response_render(r, rl, t, tl, l, ll, det, k, kl, &mut out);
                    if check(s, "rd_response_render") {
                        take(out, true, "rd_response_render");
                        out = ptr::null_mut();
                    }
                }
                rd_detector_free(&mut det);
                assert!(det.is_null());
            }
            6 => {
                let (t, tl) = a(0);
                let lenient = call.nulls & 0x80 != 0;
                if check(rd_tree_parse(t, tl, lenient, &mut out), "rd_tree_parse") {
                    let json = take(out, true, "rd_tree_parse");
                    // What parsed prints, unless the text has a NUL byte
                    // (valid UTF-8, and kept raw in a single-quoted key as
                    // Playwright does), which no C string can return.
                    let mut aria: *mut c_char = ptr::null_mut();
                    let s = rd_tree_print(json.as_ptr().cast(), json.len(), &mut aria);
                    if call.args[0].contains(&0) && s == rd_status::RD_INVALID_ARGUMENT {
                        assert!(last_error().contains("NUL byte"), "{}", last_error());
                    } else {
                        assert_eq!(s, rd_status::RD_OK, "{json}: {}", last_error());
                        take(aria, false, "rd_tree_print");
                    }
                }
            }
            7 => {
                let (t, tl) = a(0);
                if check(rd_tree_print(t, tl, &mut out), "rd_tree_print") {
                    take(out, false, "rd_tree_print");
                }
            }
            8 => {
                let ((o, ol), (n, nl), (j, jl)) = (a(0), a(1), a(2));
                let s = rd_tree_diff(o, ol, n, nl, j, jl, &mut out);
                // The options are read first.
                if call.is_malformed_json(2) {
                    assert_eq!(s, rd_status::RD_INVALID_JSON, "{}", last_error());
                }
                if check(s, "rd_tree_diff") {
                    take(out, false, "rd_tree_diff");
                }
            }
            9 => {
                let (j, jl) = a(0);
                let s = rd_fingerprint_expression(j, jl, &mut out);
                if call.is_malformed_json(0) {
                    assert_eq!(s, rd_status::RD_INVALID_JSON, "{}", last_error());
                }
                if check(s, "rd_fingerprint_expression") {
                    take(out, false, "rd_fingerprint_expression");
                }
            }
            10 => {
                let ((b, bl), (c, cl), (t, tl)) = (a(0), a(1), a(2));
                let s = rd_fingerprint_compare(b, bl, c, cl, t, tl, &mut out);
                if check(s, "rd_fingerprint_compare") {
                    take(out, true, "rd_fingerprint_compare");
                }
            }
            11 => baseline_session(&call),
            _ => unreachable!("function is taken modulo FUNCTIONS"),
        }
    }
    REFUSED.get()
}

/// detector_new(config), detect twice, store, clear, memory_usage, free.
unsafe fn detector_session(call: &Call<'_>) {
    let ((c, cl), (k, kl), (t1, t1l), (t2, t2l), (o, ol)) = (
        call.arg(0),
        call.arg(1),
        call.arg(2),
        call.arg(3),
        call.arg(4),
    );
    let mut det: *mut rd_detector = ptr::null_mut();
    unsafe {
        let s = rd_detector_new(c, cl, &mut det);
        if call.is_malformed_json(0) {
            assert_eq!(s, rd_status::RD_INVALID_JSON, "{}", last_error());
        }
        if !check(s, "rd_detector_new") {
            assert!(det.is_null(), "output written on failure");
            return;
        }
        assert!(!det.is_null());
        for t in [(t1, t1l), (t2, t2l)] {
            let mut out: *mut c_char = ptr::null_mut();
            if check(
                rd_detector_detect(det, k, kl, t.0, t.1, o, ol, &mut out),
                "detect",
            ) {
                take(out, true, "rd_detector_detect");
            } else {
                assert!(out.is_null(), "output written on failure");
            }
        }
        let mut stored = false;
        check(rd_detector_store(det, k, kl, t1, t1l, &mut stored), "store");
        let mut bytes = usize::MAX;
        assert_eq!(rd_detector_memory_usage(det, &mut bytes), rd_status::RD_OK);
        assert_ne!(bytes, usize::MAX);
        let mut removed = false;
        check(rd_detector_clear(det, k, kl, &mut removed), "clear");
        assert_eq!(rd_detector_clear_all(det), rd_status::RD_OK);
        assert_eq!(rd_detector_memory_usage(det, &mut bytes), rd_status::RD_OK);
        assert_eq!(bytes, 0, "memory left after clear_all");
        rd_detector_free(&mut det);
        assert!(det.is_null());
        rd_detector_free(&mut det);
    }
}

/// An in-memory baseline store: save(name, fp), record(fp),
/// compare(against, fp, threshold), free.
unsafe fn baseline_session(call: &Call<'_>) {
    let ((n, nl), (f, fl), (g, gl), (t, tl)) = (call.arg(0), call.arg(1), call.arg(2), call.arg(3));
    let mut store: *mut rd_baseline_store = ptr::null_mut();
    unsafe {
        assert_eq!(
            rd_baseline_store_new(ptr::null(), 0, &mut store),
            rd_status::RD_OK
        );
        let saved = check(rd_baseline_store_save(store, n, nl, f, fl), "save");
        let mut hash: *mut c_char = ptr::null_mut();
        if check(rd_baseline_store_record(store, g, gl, &mut hash), "record") {
            take(hash, false, "rd_baseline_store_record");
        }
        let mut out: *mut c_char = ptr::null_mut();
        let s = rd_baseline_store_compare(store, n, nl, g, gl, t, tl, &mut out);
        if check(s, "compare") {
            take(out, true, "rd_baseline_store_compare");
        } else if saved && call.is_utf8(2) && call.is_utf8(3) && !g.is_null() {
            // The name was saved, so only the current fingerprint or the
            // threshold can be refused.
            assert_ne!(s, rd_status::RD_BASELINE_NOT_FOUND, "{}", last_error());
        }
        rd_baseline_store_free(&mut store);
        assert!(store.is_null());
    }
}
