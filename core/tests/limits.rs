//! The documented limits (docs/LIMITS.md) hold: the diff's work bound, the
//! input size limits, and the bounds of the since store. The detector's
//! memory cap, measured in process memory, is in `limits_memory.rs` (a test
//! binary of its own, so no other test allocates meanwhile). The bad-input
//! matrix (`bad_inputs.rs`) checks each limit's error message.

mod common;

use std::time::Duration;

use response_diff::__internals::{BUDGET_MIN_CHANGES, DiffFormatter, EngineOptions, LineDiff};
use response_diff::Error;
use response_diff::diff::{
    DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_STORED_BYTES, DetectorConfig, DiffFormat, DiffMode,
    DiffSettings, ResponseDiffDetector,
};
use response_diff::fingerprint::{self, Fingerprint};
use response_diff::tree::{
    self, MAX_DEPTH, ReadOutcome, SinceStore, SinceStoreConfig, Tree, TreeDiffOptions,
};

#[test]
fn the_documented_defaults() {
    assert_eq!(DEFAULT_MAX_STORED_BYTES, 10 * 1024 * 1024);
    assert_eq!(DEFAULT_MAX_INPUT_BYTES, 32 * 1024 * 1024);
    assert_eq!(DetectorConfig::default().deadline, None);
    assert_eq!(BUDGET_MIN_CHANGES, 512);
    assert_eq!(MAX_DEPTH, 1000);
    assert_eq!(tree::MAX_INPUT_BYTES, 32 * 1024 * 1024);
    assert_eq!(fingerprint::MAX_FINGERPRINT_BYTES, 2 * 1024 * 1024);
    assert_eq!(fingerprint::DEFAULT_MEMORY_LIMIT, 16 * 1024 * 1024);
    assert_eq!(fingerprint::DEFAULT_RECENT_LIMIT, 32);
    let tmp = tempfile::tempdir().unwrap();
    let d = tree::DiskStore::open(tmp.path().join("s")).unwrap();
    assert_eq!(d.ttl(), Duration::from_secs(60));
}

/// Lines `0..n` in a scrambled order: nearly every line moves, the worst
/// case for a Myers diff (quadratic without a bound).
fn scrambled(n: u64, seed: u64) -> String {
    let mut out = String::new();
    for i in 0..n {
        let j = (i * 7919 + seed) % n; // 7919 is prime, n is not a multiple of it
        out.push_str(&format!("- listitem [ref=e{j}]: Item {j}\n"));
    }
    out
}

/// Applies a detector answer back: a diff gives the new text, a full
/// answer carries it whole.
fn check_answer(old: &str, new: &str, r: &response_diff::diff::DiffResult) {
    match r.mode {
        DiffMode::Full => assert!(r.formatted_diff.ends_with(new)),
        DiffMode::Diff => {
            let body = r.formatted_diff.split_once('\n').unwrap().1;
            assert_eq!(common::apply_diff(old, body).as_deref(), Some(new));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_pathological_diff_exhausts_the_work_budget_and_stays_correct() {
    let old = scrambled(30_000, 0);
    let new = scrambled(30_000, 12_345);
    // The engine on its own: past the work bound the diff is not minimal,
    // but applying it to the old text still gives the new one. The bound
    // counts steps, not time, so two runs give the same diff.
    let run = || LineDiff::compute_with(&old, &new, &EngineOptions::default());
    let d = run();
    assert!(
        d.budget_exhausted(),
        "30,000 scrambled lines need far more than the work bound"
    );
    assert_eq!(d.ops(), run().ops());
    let text = DiffFormatter::new(DiffFormat::Unified, 3).format(&d).text;
    assert_eq!(
        common::apply_diff(&old, &text).as_deref(),
        Some(new.as_str())
    );

    // Through the detector: the flag is reported, and the answer (here the
    // full text, as no diff is smaller) is still whole.
    let detector = ResponseDiffDetector::new();
    let settings = DiffSettings {
        threshold: 1.0,
        max_diff_lines: 1_000_000,
        ..DiffSettings::default()
    };
    detector.detect("k", &old, &settings).unwrap();
    let r = detector.detect("k", &new, &settings).unwrap();
    assert!(r.metadata.budget_exhausted);
    check_answer(&old, &new, &r);
}

#[test]
fn a_small_diff_never_reports_an_exhausted_budget() {
    // Fewer changed lines than the bound can act on: the search is minimal.
    let old = scrambled(3_000, 0);
    let mut new = old.clone();
    for k in 0..(BUDGET_MIN_CHANGES / 2 - 1) {
        new = new.replacen(
            &format!("Item {}\n", k * 7),
            &format!("Item {} (new)\n", k * 7),
            1,
        );
    }
    let d = LineDiff::compute_with(&old, &new, &EngineOptions::default());
    assert_eq!(d.added() + d.removed(), BUDGET_MIN_CHANGES - 2);
    assert!(!d.budget_exhausted());
}

#[test]
fn an_explicit_deadline_still_gives_a_correct_answer() {
    // Timing-dependent by design (off by default): only correctness is
    // checked, never whether the deadline was reached.
    let old = scrambled(30_000, 0);
    let new = scrambled(30_000, 12_345);
    let d = LineDiff::compute_with(
        &old,
        &new,
        &EngineOptions {
            deadline: Some(Duration::from_millis(1)),
            ..EngineOptions::default()
        },
    );
    let text = DiffFormatter::new(DiffFormat::Unified, 3).format(&d).text;
    assert_eq!(
        common::apply_diff(&old, &text).as_deref(),
        Some(new.as_str())
    );
    let detector = ResponseDiffDetector::with_config(
        DetectorConfig::default().deadline(Duration::from_millis(1)),
    );
    let settings = DiffSettings {
        threshold: 1.0,
        max_diff_lines: 1_000_000,
        ..DiffSettings::default()
    };
    detector.detect("k", &old, &settings).unwrap();
    let r = detector.detect("k", &new, &settings).unwrap();
    check_answer(&old, &new, &r);
}

#[test]
fn inputs_over_the_limits_are_refused_with_the_sizes() {
    let d = ResponseDiffDetector::with_config(DetectorConfig::default().max_input_bytes(1000));
    match d.detect("k", &"x".repeat(1001), &DiffSettings::default()) {
        Err(Error::InputTooLarge { size, limit, .. }) => assert_eq!((size, limit), (1001, 1000)),
        other => panic!("{other:?}"),
    }
    assert!(
        d.detect("k", &"x".repeat(1000), &DiffSettings::default())
            .is_ok()
    );

    let big = "- button \"x\"\n".repeat(tree::MAX_INPUT_BYTES / 13 + 1);
    let e = tree::parse_aria(&big, true).unwrap_err();
    assert!(
        matches!(e, Error::InputTooLarge { what: "aria snapshot", limit, .. } if limit == tree::MAX_INPUT_BYTES),
        "{e}"
    );
    let e = Tree::from_json(&" ".repeat(tree::MAX_INPUT_BYTES + 1)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InputTooLarge {
                what: "JSON tree",
                ..
            }
        ),
        "{e}"
    );

    let e =
        Fingerprint::from_json(&" ".repeat(fingerprint::MAX_FINGERPRINT_BYTES + 1)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InputTooLarge {
                what: "fingerprint",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn since_store_keeps_at_most_its_keys_least_recently_read_first() {
    let store = SinceStore::with_config(SinceStoreConfig::default().per_key(2).keys(3));
    let opts = TreeDiffOptions::default();
    let t = tree::parse_aria("- button \"Go\"", false).unwrap();
    let ts: Vec<u64> = (0..3)
        .map(|i| store.read(&format!("k{i}"), t.clone(), None, &opts).ts)
        .collect();
    // Reading k0 again makes it the most recent key; a fourth key then
    // evicts k1, the least recently read.
    let k0 = store.read("k0", t.clone(), Some(ts[0]), &opts);
    assert!(matches!(k0.outcome, ReadOutcome::Diff(_)));
    store.read("k3", t.clone(), None, &opts);
    let k1 = store.read("k1", t.clone(), Some(ts[1]), &opts);
    assert!(
        k1.notice().unwrap().contains("unknown or expired"),
        "k1 was evicted"
    );
    // k1's read above evicted k2 in turn; k0 is still there.
    let k0_again = store.read("k0", t.clone(), Some(k0.ts), &opts);
    assert!(matches!(k0_again.outcome, ReadOutcome::Diff(_)));
    let k2 = store.read("k2", t.clone(), Some(ts[2]), &opts);
    assert!(k2.notice().is_some(), "k2 was evicted");
}

#[test]
fn since_store_keeps_at_most_per_key_reads() {
    let store = SinceStore::with_config(SinceStoreConfig::default().per_key(3).keys(8));
    let opts = TreeDiffOptions::default();
    let t = tree::parse_aria("- button \"Go\"", false).unwrap();
    let ts: Vec<u64> = (0..10)
        .map(|_| store.read("k", t.clone(), None, &opts).ts)
        .collect();
    // Reads are themselves recorded, so probe from the newest back.
    let newest = store.read("k", t.clone(), Some(ts[9]), &opts);
    assert!(matches!(newest.outcome, ReadOutcome::Diff(_)));
    let old = store.read("k", t.clone(), Some(ts[6]), &opts);
    assert!(old.notice().is_some(), "only the last 3 reads are kept");
    // Zero limits are raised to 1 rather than making a store that keeps nothing.
    let one = SinceStore::with_config(SinceStoreConfig::default().per_key(0).keys(0));
    let r = one.read("k", t.clone(), None, &opts);
    let again = one.read("k", t, Some(r.ts), &opts);
    assert!(matches!(again.outcome, ReadOutcome::Diff(_)));
}
