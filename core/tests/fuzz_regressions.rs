//! Replays the fuzz targets' inputs through the same checks the fuzzers run
//! (fuzz/src/checks.rs): every input that ever made a target fail
//! (tests/fixtures/fuzz-regressions/<target>/, saved by `make fuzz`) and
//! the committed seeds (fuzz/seeds/<target>/), so the checks themselves
//! are exercised even for a target with no finding.

mod common;

#[path = "../../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Files of `dir`, sorted; none when it does not exist.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Runs `check` on every seed and regression input of `target`, on a
/// thread with the 8 MiB stack the fuzzer's main thread has.
fn replay(target: &'static str, check: fn(&[u8])) {
    let seeds = inputs(&repo().join("fuzz/seeds").join(target));
    assert!(!seeds.is_empty(), "fuzz/seeds/{target} has no seeds");
    let found = inputs(&common::fixtures().join("fuzz-regressions").join(target));
    for path in seeds.into_iter().chain(found) {
        let data = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let run = std::thread::Builder::new()
            .name(name.clone())
            .stack_size(8 << 20)
            .spawn(move || check(&data))
            .unwrap()
            .join();
        assert!(run.is_ok(), "{name} failed its fuzz check (message above)");
    }
}

#[test]
fn aria_parse() {
    replay("aria_parse", checks::aria_parse);
}

#[test]
fn fingerprint_json() {
    replay("fingerprint_json", checks::fingerprint_json);
}

#[test]
fn expectation_json() {
    replay("expectation_json", checks::expectation_json);
}

#[test]
fn detector() {
    replay("detector", checks::detector);
}

/// aria_parse finding: a nameless `text` element that is not a plain text
/// node (children from a lenient parse, or a value after a quoted key)
/// printed as `- text:`, the text-node syntax, and did not read back.
#[test]
fn nameless_text_element_round_trips() {
    use response_diff::tree::{Tree, parse_aria};
    for (input, lenient) in [
        ("- a:\n  - \n    - b", true),
        ("- text:\n  - b", true),
        ("- 'text': v", false),
        ("- 'text':\n  - /url: /x", false),
    ] {
        let tree = parse_aria(input, lenient).unwrap();
        let printed = tree.to_aria();
        assert!(printed.contains("- 'text'"), "{printed}");
        let back: Tree = parse_aria(&printed, false).unwrap();
        assert!(back == tree, "{input:?} -> {printed:?}");
    }
}

/// The seeds reach the laws rather than stopping at a parse error, so the
/// replay above checks something even for a target with no finding.
#[test]
fn seeds_are_valid_inputs() {
    use response_diff::diff::{DetectorConfig, DiffOptions};
    use response_diff::expectation::Expectation;
    use response_diff::fingerprint::{ExtractOptions, Fingerprint};
    use response_diff::tree::{TreeDiffRequest, parse_aria};

    let seeds = |t: &str| inputs(&repo().join("fuzz/seeds").join(t));
    let text = |p: &PathBuf| std::fs::read_to_string(p).unwrap();
    for p in seeds("aria_parse") {
        // A `~~~` line separates two snapshots (the patch check's pair).
        for part in text(&p).split("\n~~~\n") {
            parse_aria(part, false).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        }
    }
    for p in seeds("fingerprint_json") {
        Fingerprint::from_json(&text(&p)).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    }
    for p in seeds("expectation_json") {
        let s = text(&p);
        assert!(
            Expectation::from_json(&s).is_ok()
                || DiffOptions::from_json(&s).is_ok()
                || TreeDiffRequest::from_json(&s).is_ok()
                || DetectorConfig::from_json(&s).is_ok()
                || ExtractOptions::from_json(&s).is_ok(),
            "{} is no valid option document",
            p.display()
        );
    }
    // old 0xFF new after the knobs, both valid aria.
    for p in seeds("detector") {
        let data = std::fs::read(&p).unwrap();
        let rest = &data[checks::KNOB_BYTES..];
        let at = rest.iter().position(|&b| b == 0xFF).expect("separator");
        for side in [&rest[..at], &rest[at + 1..]] {
            parse_aria(std::str::from_utf8(side).unwrap(), false).unwrap();
        }
    }
}

/// expectation_json law: malformed fingerprint options JSON was an invalid
/// option (RD_INVALID_OPTION across the C ABI) instead of a JSON error.
#[test]
fn malformed_fingerprint_options_are_a_json_error() {
    use response_diff::Error;
    use response_diff::fingerprint::ExtractOptions;
    let e = ExtractOptions::from_json("{\"scope\": ").unwrap_err();
    assert!(matches!(e, Error::Parse { what: "JSON", .. }), "{e:?}");
    let e = ExtractOptions::from_json("{\"scope\": 1}").unwrap_err();
    assert!(matches!(e, Error::InvalidOption { .. }), "{e:?}");
}

/// fingerprint_json finding: normalizing was not idempotent, so a saved
/// fingerprint got another hash when loaded again.
#[test]
fn text_normalization_is_idempotent() {
    use response_diff::fingerprint::normalize_text;
    for text in [
        "Synced at 02:046:53",
        "10:30Jan 23",
        "2026-01-23T10:306:53",
        "Page 2 of 3",
    ] {
        let once = normalize_text(text).into_owned();
        assert_eq!(normalize_text(&once), once, "{text:?}");
    }
}
