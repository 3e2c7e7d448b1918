//! The golden corpus (tests/fixtures/golden-corpus.json, written by
//! core/tests/golden_corpus.rs) through the core built without `std`:
//! there the line diff runs similar's Myers instead of imara-diff's
//! (docs/DECISIONS.md D36). Every case's detector result and formatted
//! diff must match the std build's byte for byte.

#[path = "../../../core/benches/inputs/mod.rs"]
mod inputs;

use response_diff::diff::{DiffSettings, ResponseDiffDetector};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn texts(name: &str) -> (String, String) {
    let parts: Vec<&str> = name.split('/').collect();
    match parts[..] {
        ["fixture", case, _] => {
            let read = |side: &str| {
                std::fs::read_to_string(fixtures().join(format!("diff/{case}.{side}.yml"))).unwrap()
            };
            (read("before"), read("after"))
        }
        ["bench", size, change, _] => {
            let bytes = inputs::SIZES.iter().find(|(s, _)| *s == size).unwrap().1;
            assert!(inputs::CHANGES.contains(&change), "{name}");
            inputs::pair(bytes, change)
        }
        _ => panic!("unknown case {name}"),
    }
}

#[test]
fn every_case_matches_the_std_build() {
    let corpus: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("golden-corpus.json")).unwrap(),
    )
    .unwrap();
    let mut differ = Vec::new();
    let cases = corpus["cases"].as_array().unwrap();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let (old, new) = texts(name);
        assert_eq!(sha256(&old), case["oldSha256"], "{name}: input");
        let settings = DiffSettings::from_json(&case["options"].to_string()).unwrap();
        let detector = ResponseDiffDetector::new();
        detector.store("k", &old).unwrap();
        let r = detector.detect("k", &new, &settings).unwrap();
        let mut result = serde_json::to_value(&r).unwrap();
        let formatted = result
            .as_object_mut()
            .unwrap()
            .remove("formattedDiff")
            .unwrap();
        // Through text as the expected side was, so a float compares by its
        // shortest printed form on both sides (as core/tests/golden_corpus.rs).
        let result: Value = serde_json::from_str(&result.to_string()).unwrap();
        if result != case["result"]
            || json!(sha256(formatted.as_str().unwrap())) != case["formattedDiffSha256"]
        {
            differ.push(name.to_owned());
        }
    }
    assert!(cases.len() > 50, "the corpus has {} cases", cases.len());
    assert!(
        differ.is_empty(),
        "cases whose answer differs without std: {differ:?}"
    );
}
