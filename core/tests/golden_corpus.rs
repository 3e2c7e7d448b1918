//! The golden corpus: the same inputs give byte-identical outputs in every
//! binding and build. `tests/fixtures/golden-corpus.json` lists each case
//! (inputs, options) with SHA-256 of its inputs and outputs, the result's
//! fields, and small outputs in full; this test, `ffi/tests/golden_corpus.rs`
//! (C), `bindings/python/tests/test_golden_corpus.py` and
//! `bindings/node/test/golden-corpus.test.js` all check it.
//!
//! Cases: every fixture pair of `tests/fixtures/diff` in each format, and
//! the benchmark inputs (`core/benches/inputs/mod.rs`, 2 KB to 2.6 MB, five
//! kinds of change) with two option sets. The bench inputs are generated,
//! not committed: Python and Node port the generator, and the inputs'
//! hashes in the corpus prove the ports make the same bytes.
//!
//! Each case: a default detector stores the old text and detects the new
//! one (the detector's decision), and the engine's line diff alone is
//! formatted (`rd_diff_format`, `DiffOptions.format`, `formatDiff`).
//!
//! Regenerate after an intended output change with
//! `UPDATE_GOLDEN=1 cargo test -p response-diff --test golden_corpus`,
//! and say in the commit which cases changed. Runs in release as well:
//! `cargo test --release -p response-diff --test golden_corpus`.

mod common;
#[path = "../benches/inputs/mod.rs"]
mod inputs;

use response_diff::__internals::{DiffFormatter, EngineOptions, LineDiff};
use response_diff::diff::{DiffFormat, DiffMode, DiffSettings, ResponseDiffDetector};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// Outputs up to this many bytes are kept in the corpus in full.
const INLINE_MAX: usize = 1200;

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn corpus_path() -> std::path::PathBuf {
    common::fixtures().join("golden-corpus.json")
}

/// (name, old, new, options JSON) of every case, in corpus order.
fn cases() -> Vec<(String, String, String, Value)> {
    let mut out = Vec::new();
    for (name, old, new) in common::fixture_pairs("diff") {
        for format in ["unified", "split", "minimal"] {
            out.push((
                format!("fixture/{name}/{format}"),
                old.clone(),
                new.clone(),
                json!({ "format": format }),
            ));
        }
    }
    let option_sets = [
        ("default", json!({})),
        (
            "minimal-context0-exactspace",
            json!({"format": "minimal", "context": 0, "ignoreWhitespace": false}),
        ),
    ];
    for (size, bytes) in inputs::SIZES {
        for change in inputs::CHANGES {
            let (old, new) = inputs::pair(bytes, change);
            for (label, options) in &option_sets {
                out.push((
                    format!("bench/{size}/{change}/{label}"),
                    old.clone(),
                    new.clone(),
                    options.clone(),
                ));
            }
        }
    }
    out
}

/// The corpus entry of one case, computed with the Rust API.
fn entry(name: &str, old: &str, new: &str, options: &Value) -> Value {
    let settings = DiffSettings::from_json(&options.to_string()).unwrap();
    let detector = ResponseDiffDetector::new();
    detector.store("k", old).unwrap();
    let r = detector.detect("k", new, &settings).unwrap();
    let line_diff = line_diff(old, new, &settings);
    let mut e = Map::new();
    e.insert("name".into(), json!(name));
    e.insert("options".into(), options.clone());
    e.insert("oldSha256".into(), json!(sha256(old)));
    e.insert("newSha256".into(), json!(sha256(new)));
    let mut result = serde_json::to_value(&r).unwrap();
    let formatted = result
        .as_object_mut()
        .unwrap()
        .remove("formattedDiff")
        .unwrap();
    e.insert("result".into(), result);
    let formatted = formatted.as_str().unwrap();
    e.insert("formattedDiffBytes".into(), json!(formatted.len()));
    e.insert("formattedDiffSha256".into(), json!(sha256(formatted)));
    if formatted.len() <= INLINE_MAX {
        e.insert("formattedDiff".into(), json!(formatted));
    }
    e.insert("lineDiffBytes".into(), json!(line_diff.len()));
    e.insert("lineDiffSha256".into(), json!(sha256(&line_diff)));
    if line_diff.len() <= INLINE_MAX {
        e.insert("lineDiff".into(), json!(line_diff));
    }
    Value::Object(e)
}

fn line_diff(old: &str, new: &str, s: &DiffSettings) -> String {
    let d = LineDiff::compute_with(
        old,
        new,
        &EngineOptions {
            ignore_whitespace: s.ignore_whitespace,
            context: s.context,
            ..EngineOptions::default()
        },
    );
    DiffFormatter::new(s.format, s.context).format(&d).text
}

#[test]
fn every_case_matches_the_corpus_byte_for_byte() {
    let got: Vec<Value> = cases()
        .iter()
        .map(|(name, old, new, options)| entry(name, old, new, options))
        .collect();
    let path = corpus_path();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let corpus = json!({
            "about": "Expected outputs of the response diff, checked byte for byte from Rust, C, Python and Node (core/tests/golden_corpus.rs explains the cases). Hashes are SHA-256 of the UTF-8 bytes. Regenerate: UPDATE_GOLDEN=1 cargo test -p response-diff --test golden_corpus",
            "cases": got,
        });
        std::fs::write(&path, serde_json::to_string_pretty(&corpus).unwrap() + "\n").unwrap();
    }
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let expected = corpus["cases"].as_array().unwrap();
    assert_eq!(expected.len(), got.len(), "number of cases");
    let mut differ = Vec::new();
    for (want, have) in expected.iter().zip(&got) {
        // Through text as the expected side was, so a float compares by its
        // shortest printed form on both sides.
        let have: Value = serde_json::from_str(&have.to_string()).unwrap();
        if *want != have {
            differ.push(want["name"].as_str().unwrap().to_owned());
        }
    }
    assert!(
        differ.is_empty(),
        "{} cases differ from {}: {differ:?}\nIf the change is intended, regenerate with UPDATE_GOLDEN=1 and say which cases changed.",
        differ.len(),
        path.display()
    );
}

/// Every answer of the corpus is lossless: a diff applied to the old text
/// gives the new one (the bench inputs' large rewrites included, where the
/// search's work bound may stop short of the minimal diff), and a full
/// answer carries the new text whole.
#[test]
fn every_answer_applies_back() {
    let mut exhausted = Vec::new();
    for (name, old, new, options) in cases() {
        let settings = DiffSettings::from_json(&options.to_string()).unwrap();
        let detector = ResponseDiffDetector::new();
        detector.store("k", &old).unwrap();
        let r = detector.detect("k", &new, &settings).unwrap();
        if r.metadata.budget_exhausted {
            exhausted.push(name.clone());
        }
        let applies = settings.format != DiffFormat::Minimal;
        match r.mode {
            DiffMode::Diff if applies => {
                let body = r.formatted_diff.split_once('\n').unwrap().1;
                assert_eq!(
                    common::apply_diff(&old, body).as_deref(),
                    Some(new.as_str()),
                    "{name}"
                );
            }
            DiffMode::Full => assert!(r.formatted_diff.ends_with(&new), "{name}"),
            DiffMode::Unchanged => assert_eq!(r.metadata.added_lines, 0, "{name}"),
            _ => {}
        }
        if applies {
            let text = line_diff(&old, &new, &settings);
            let rebuilt = common::apply_diff(&old, &text);
            if settings.ignore_whitespace {
                assert!(rebuilt.is_some(), "{name}");
            } else {
                assert_eq!(rebuilt.as_deref(), Some(new.as_str()), "{name}");
            }
        }
    }
    eprintln!("work budget exhausted in: {exhausted:?}");
}
