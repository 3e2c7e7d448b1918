//! The core's fuzz targets: each function takes the fuzzer's bytes, runs
//! them through the public API and panics when a law is broken (a panic in
//! the library itself is a finding too).
//!
//! Included by core/tests/fuzz_regressions.rs, which provides
//! `crate::common::apply_diff` the same way this crate does.

use arbitrary::{Arbitrary, Unstructured};
use response_diff::__internals::{
    DiffFormatter, EngineOptions, LineDiff, normalize_whitespace, split_lines,
};
use response_diff::Error;
use response_diff::diff::{
    DetectorConfig, DiffFormat, DiffMode, DiffOptions, DiffSettings, ResponseDiffDetector,
    compare_texts,
};
use response_diff::expectation::Expectation;
use response_diff::fingerprint::{self, ExtractOptions, Fingerprint, Severity, Status};
use response_diff::tree::{Tree, TreeDiffRequest, apply_patch, parse_aria, snapshot_patch};

use crate::common::apply_diff;

/// Non-UTF-8 bytes are the ffi target's business (the Rust API takes
/// `&str`); here they become U+FFFD so every input still gets parsed.
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// A parser may refuse input only with one of these: a typed error that
/// says what was wrong.
fn assert_input_error(e: &Error, what: &str) {
    assert!(
        matches!(
            e,
            Error::Parse { .. } | Error::InvalidOption { .. } | Error::InputTooLarge { .. }
        ),
        "{what}: unexpected error kind: {e:?}"
    );
    assert!(!e.to_string().is_empty());
}

/// Aria snapshot text: strict and lenient parse; whatever parses prints
/// back to text that parses strictly to the same tree and prints the same
/// (parse ∘ print = id), and survives the JSON model round trip.
pub fn aria_parse(data: &[u8]) {
    let input = text(data);
    for lenient in [false, true] {
        let tree = match parse_aria(&input, lenient) {
            Ok(t) => t,
            Err(e) => {
                assert_input_error(&e, "parse_aria");
                continue;
            }
        };
        let printed = tree.to_aria();
        let again = parse_aria(&printed, false).unwrap_or_else(|e| {
            panic!(
                "printed tree does not parse back (lenient={lenient}): {e}\n--- printed:\n{printed}"
            )
        });
        assert!(
            again == tree,
            "parse(print(t)) != t (lenient={lenient})\n--- printed:\n{printed}\n--- reprinted:\n{}",
            again.to_aria()
        );
        assert_eq!(again.to_aria(), printed, "print is not stable");
        let json = tree.to_json();
        let back = Tree::from_json(&json)
            .unwrap_or_else(|e| panic!("to_json does not parse back: {e}\n{json}"));
        assert!(back == tree, "Tree::from_json(to_json(t)) != t\n{json}");
        // A tree has no differences from itself.
        let d = response_diff::tree::diff(&tree, &again);
        assert!(d.is_empty(), "a tree differs from its own reparse");
    }
    snapshot_patches(&input);
}

/// Snapshot patches: the input read as a patch applies or gives a typed
/// error; split at a `~~~` line into two snapshots, any patch between them
/// applies back to the second exactly.
fn snapshot_patches(input: &str) {
    let (old, new) = input.split_once("\n~~~\n").unwrap_or((input, ""));
    if let Err(e) = apply_patch(old, new) {
        assert_input_error(&e, "apply_patch");
    }
    let (Ok(a), Ok(b)) = (parse_aria(old, false), parse_aria(new, false)) else {
        return;
    };
    let (a, b) = (a.to_aria(), b.to_aria());
    if let Some(p) = snapshot_patch(&a, &b) {
        let back = apply_patch(&a, &p.text).unwrap_or_else(|e| {
            panic!(
                "a snapshot patch does not apply: {e}\n--- patch:\n{}",
                p.text
            )
        });
        assert_eq!(
            back, b,
            "a snapshot patch does not rebuild the new snapshot"
        );
    }
}

/// Fingerprint JSON: parse (which validates and normalizes); a valid one
/// compares unchanged with itself and with its own saved form.
pub fn fingerprint_json(data: &[u8]) {
    let input = text(data);
    let fp = match Fingerprint::from_json(&input) {
        Ok(fp) => fp,
        Err(e) => return assert_input_error(&e, "Fingerprint::from_json"),
    };
    let same = fingerprint::compare(&fp, &fp, Severity::Info);
    assert_eq!(same.status, Status::Unchanged, "self-compare: {same:?}");
    assert!(same.changes.is_empty() && same.suppressed == 0, "{same:?}");
    let _ = same.to_json();

    let saved = fp.to_json();
    let back = Fingerprint::from_json(&saved)
        .unwrap_or_else(|e| panic!("a saved fingerprint does not parse back: {e}\n{saved}"));
    assert_eq!(back.hash, fp.hash, "hash changed by save+load\n{saved}");
    let c = fingerprint::compare(&fp, &back, Severity::Info);
    assert!(c.changes.is_empty(), "save+load changed: {c:?}");
    assert_eq!(back.to_json(), saved, "normalization is not idempotent");
}

/// An option document's error: malformed JSON is a syntax error
/// (`RD_INVALID_JSON` across the C ABI), well-formed JSON of the wrong
/// shape an invalid option naming the field.
fn assert_option_error(e: &Error, what: &str, well_formed: bool) {
    match e {
        Error::Parse { what: "JSON", .. } => {
            assert!(
                !well_formed,
                "{what}: well-formed JSON reported as malformed: {e}"
            );
        }
        Error::InvalidOption { .. } => {
            assert!(
                well_formed,
                "{what}: malformed JSON reported as an invalid option: {e}"
            );
        }
        other => panic!("{what}: unexpected error kind: {other:?}"),
    }
}

/// The option documents: expectation, diffOptions, treeDiffOptions,
/// detectorConfig, fingerprint options. Each either parses or is a typed
/// error (the same kind from each for the same document's syntax); what
/// parses survives serialization and merging.
pub fn expectation_json(data: &[u8]) {
    let input = text(data);
    let well_formed = serde_json::from_str::<serde_json::Value>(&input).is_ok();
    let assert_input_error = |e: &Error, what: &str| assert_option_error(e, what, well_formed);

    match Expectation::from_json(&input) {
        Ok(e) => {
            let json = serde_json::to_string(&e).expect("serializes");
            let back = Expectation::from_json(&json)
                .unwrap_or_else(|err| panic!("round trip: {err}\n{json}"));
            assert_eq!(back, e, "round trip changed it\n{json}");
            let mut twice = e.clone();
            twice.merge(&e);
            assert_eq!(twice, e, "merge is not idempotent");
            let mut over_default = Expectation::default();
            over_default.merge(&e);
            assert_eq!(over_default, e, "merging onto nothing changed it");
            // Valid layers over a tool's defaults always resolve.
            for tool in [
                "browser_click",
                "browser_take_screenshot",
                "browser_evaluate",
            ] {
                let r = Expectation::resolve(tool, &[&e, &e])
                    .unwrap_or_else(|err| panic!("valid layer does not resolve: {err}"));
                let resolved = r.to_expectation();
                let json = serde_json::to_string(&resolved).expect("serializes");
                Expectation::from_json(&json)
                    .unwrap_or_else(|err| panic!("resolved does not parse: {err}\n{json}"));
                r.diff.validate().expect("resolved diff settings are valid");
            }
        }
        Err(e) => assert_input_error(&e, "Expectation::from_json"),
    }

    match DiffOptions::from_json(&input) {
        Ok(o) => {
            let json = serde_json::to_string(&o).expect("serializes");
            assert_eq!(DiffOptions::from_json(&json).expect("round trip"), o);
            o.resolve().validate().expect("resolved options are valid");
            let s = DiffSettings::from_json(&input).expect("same document");
            assert_eq!(s, o.resolve());
        }
        Err(e) => {
            assert_input_error(&e, "DiffOptions::from_json");
            assert!(DiffSettings::from_json(&input).is_err());
        }
    }

    match TreeDiffRequest::from_json(&input) {
        Ok(_) => {}
        Err(e) => assert_input_error(&e, "TreeDiffRequest::from_json"),
    }

    match DetectorConfig::from_json(&input) {
        Ok(c) => {
            let d = ResponseDiffDetector::with_config(c);
            assert_eq!(d.config(), c);
        }
        Err(e) => assert_input_error(&e, "DetectorConfig::from_json"),
    }

    match ExtractOptions::from_json(&input) {
        Ok(o) => {
            let _ = o.expression();
        }
        Err(e) => assert_input_error(&e, "ExtractOptions::from_json"),
    }
}

/// The detector's knobs, taken from the first [`KNOB_BYTES`] bytes.
#[derive(Debug, Arbitrary)]
struct Knobs {
    format: u8,
    context: u8,
    threshold: u8,
    max_diff_lines: u8,
    flags: u8,
    store_cap: u16,
}

/// Bytes of the detector input read as [`Knobs`] (missing ones are zero).
pub const KNOB_BYTES: usize = 7;

/// Splits the detector input: knobs, then `old 0xFF new` (0xFF never occurs
/// in UTF-8, so seeds are readable files).
fn detector_input(data: &[u8]) -> (Knobs, String, String) {
    let mut head = [0u8; KNOB_BYTES];
    let n = data.len().min(KNOB_BYTES);
    head[..n].copy_from_slice(&data[..n]);
    let knobs = Knobs::arbitrary(&mut Unstructured::new(&head)).expect("fixed-size knobs");
    let rest = &data[n..];
    let (old, new) = match rest.iter().position(|&b| b == 0xFF) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b""[..]),
    };
    (knobs, text(old).into_owned(), text(new).into_owned())
}

/// Lines compared as the whitespace-insensitive diff compares them.
fn loose_lines(s: &str) -> Vec<String> {
    split_lines(s)
        .map(|l| normalize_whitespace(l.text).into_owned())
        .collect()
}

/// The response diff: two texts and random settings through
/// [`ResponseDiffDetector::detect`], [`compare_texts`] and the formatter.
pub fn detector(data: &[u8]) {
    let (k, old, new) = detector_input(data);
    let format =
        [DiffFormat::Unified, DiffFormat::Split, DiffFormat::Minimal][usize::from(k.format) % 3];
    let settings = DiffSettings {
        enabled: k.flags & 1 != 0,
        threshold: f64::from(k.threshold) / 255.0,
        format,
        max_diff_lines: 1 + usize::from(k.max_diff_lines),
        ignore_whitespace: k.flags & 2 != 0,
        context: if k.flags & 4 != 0 {
            response_diff::diff::MAX_CONTEXT
        } else {
            usize::from(k.context % 8)
        },
    };
    settings.validate().expect("knobs give valid settings");
    let cap = if k.flags & 8 != 0 {
        usize::from(k.store_cap)
    } else {
        response_diff::diff::DEFAULT_MAX_STORED_BYTES
    };
    let max_input = if k.flags & 16 != 0 {
        1 + usize::from(k.store_cap)
    } else {
        response_diff::diff::DEFAULT_MAX_INPUT_BYTES
    };
    let config = DetectorConfig::default()
        .max_stored_bytes(cap)
        .max_input_bytes(max_input);
    let det = ResponseDiffDetector::with_config(config);

    // First call: the whole text, or too large.
    let first = match det.detect("tab", &old, &settings) {
        Ok(r) => r,
        Err(e) => {
            assert!(old.len() > max_input, "refused {} bytes: {e}", old.len());
            assert!(matches!(e, Error::InputTooLarge { .. }), "{e:?}");
            return;
        }
    };
    assert_eq!(first.mode, DiffMode::First);
    assert!(first.formatted_diff.ends_with(&old));
    assert!(det.memory_usage() <= cap);

    let r = match det.detect("tab", &new, &settings) {
        Ok(r) => r,
        Err(e) => {
            assert!(new.len() > max_input, "refused {} bytes: {e}", new.len());
            return;
        }
    };
    assert!(det.memory_usage() <= cap, "{} > {cap}", det.memory_usage());
    assert!((0.0..=1.0).contains(&r.similarity), "{}", r.similarity);
    assert!((r.similarity + r.change_ratio - 1.0).abs() < 1e-12);
    if !first.metadata.stored {
        assert_eq!(
            r.mode,
            DiffMode::First,
            "nothing was stored to diff against"
        );
        return;
    }
    // Without the store-cap note, if any.
    let answer = match r.formatted_diff.split_once(" store cap.)\n") {
        Some((_, rest)) if !r.metadata.stored => rest,
        _ => r.formatted_diff.as_str(),
    };
    match r.mode {
        DiffMode::Unchanged => {
            if settings.ignore_whitespace {
                assert_eq!(
                    loose_lines(&old),
                    loose_lines(&new),
                    "unchanged, but lines differ"
                );
            } else {
                assert_eq!(old, new, "unchanged, but the texts differ");
            }
        }
        DiffMode::Diff => {
            assert!(answer.len() < new.len(), "diff not smaller than the text");
            let body = answer.split_once('\n').expect("summary line").1;
            if !settings.ignore_whitespace && format != DiffFormat::Minimal {
                assert_eq!(
                    apply_diff(&old, body).as_deref(),
                    Some(new.as_str()),
                    "the diff does not reproduce the new text:\n{body}"
                );
            }
        }
        DiffMode::Full => assert!(answer.ends_with(&new), "full answer lacks the text"),
        DiffMode::First => panic!("second call cannot be first"),
        other => panic!("unknown mode {other:?}"),
    }
    if settings.ignore_whitespace && r.mode != DiffMode::Unchanged {
        assert_ne!(
            loose_lines(&old),
            loose_lines(&new),
            "equal lines, mode {:?}",
            r.mode
        );
    }

    // Without storage, the same decision: the search is bounded by work,
    // not time, so the same texts give the same diff.
    let c = compare_texts(Some(&old), &new, &settings);
    assert_eq!(c.mode, r.mode);
    assert_eq!(c.formatted_diff, answer);

    // The formatter on its own (rd_diff_format): lossless for unified and
    // split, and the lean engine gives the same text as the full one.
    if format != DiffFormat::Minimal && !settings.ignore_whitespace {
        let full = LineDiff::compute(&old, &new, false, None);
        let out = DiffFormatter::new(format, settings.context).format(&full);
        assert_eq!(
            apply_diff(&old, &out.text).as_deref(),
            Some(new.as_str()),
            "formatted diff is not lossless:\n{}",
            out.text
        );
        let lean = LineDiff::compute_with(
            &old,
            &new,
            &EngineOptions {
                context: settings.context,
                ..EngineOptions::default()
            },
        );
        assert_eq!(lean.ops(), full.ops());
        assert_eq!(
            DiffFormatter::new(format, settings.context)
                .format(&lean)
                .text,
            out.text
        );
    }
}
