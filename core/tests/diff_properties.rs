//! Laws of the response diff, checked on random inputs.

mod common;

use proptest::prelude::*;
use response_diff::__internals::{DiffFormatter, EngineOptions, LineDiff};
use response_diff::diff::{
    DetectorConfig, DiffFormat, DiffMode, DiffSettings, ResponseDiffDetector,
};

/// Texts built from a few snapshot-like lines, so random pairs share lines.
fn text() -> impl Strategy<Value = String> {
    let line = prop::sample::select(vec![
        "- list:",
        "  - listitem [ref=e1]: Coffee",
        "  - listitem [ref=e2]: Tea",
        "  - button \"Add\" [ref=e3]",
        "    - /url: /cart",
        "",
        "  - listitem [ref=e2]:  Tea ",
        "- dialog \"Saved\" [active]",
    ]);
    (prop::collection::vec(line, 0..40), any::<bool>()).prop_map(|(lines, trailing)| {
        let mut s = lines.join("\n");
        if trailing && !s.is_empty() {
            s.push('\n');
        }
        s
    })
}

fn format() -> impl Strategy<Value = DiffFormat> {
    prop::sample::select(vec![DiffFormat::Unified, DiffFormat::Split])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Applying the formatted diff to the old text gives the new text.
    #[test]
    fn formatted_diff_is_lossless(old in text(), new in text(), ctx in 0usize..5, f in format()) {
        let d = LineDiff::compute(&old, &new, false, None);
        let out = DiffFormatter::new(f, ctx).format(&d);
        prop_assert_eq!(common::apply_diff(&old, &out.text), Some(new.clone()), "diff:\n{}", out.text);
        // The partially materialized engine gives the same ops and text.
        let lean = LineDiff::compute_with(&old, &new, &EngineOptions { context: ctx, ..EngineOptions::default() });
        prop_assert_eq!(lean.ops(), d.ops());
        prop_assert_eq!(DiffFormatter::new(f, ctx).format(&lean).text, out.text);
    }

    /// Through the detector: in `diff` mode the diff (after its summary
    /// line) reproduces the new text, and it is never longer than the full
    /// text; `unchanged` only for equal texts.
    #[test]
    fn detector_diff_is_lossless_and_never_larger(
        old in text(), new in text(), ctx in 0usize..4, f in format(),
        threshold in 0.0f64..=1.0, max_lines in 1usize..80,
    ) {
        let s = DiffSettings {
            enabled: true, threshold, format: f, max_diff_lines: max_lines,
            ignore_whitespace: false, context: ctx,
        };
        let det = ResponseDiffDetector::new();
        det.detect("k", &old, &s).unwrap();
        let r = det.detect("k", &new, &s).unwrap();
        match r.mode {
            DiffMode::Diff => {
                prop_assert!(r.formatted_diff.len() < new.len());
                let body = r.formatted_diff.split_once('\n').unwrap().1;
                prop_assert_eq!(common::apply_diff(&old, body), Some(new.clone()));
            }
            DiffMode::Unchanged => prop_assert_eq!(&old, &new),
            DiffMode::Full => prop_assert!(r.formatted_diff.ends_with(&new)),
            DiffMode::First => prop_assert!(false, "second call cannot be first"),
            _ => prop_assert!(false, "unknown mode"),
        }
        prop_assert!((r.similarity + r.change_ratio - 1.0).abs() < 1e-12);
    }

    /// Minimal and whitespace-insensitive diffs are never larger either.
    #[test]
    fn never_larger_with_any_settings(old in text(), new in text(), ws in any::<bool>()) {
        let s = DiffSettings { format: DiffFormat::Minimal, ignore_whitespace: ws, threshold: 1.0, ..DiffSettings::default() };
        let r = response_diff::diff::compare_texts(Some(&old), &new, &s);
        if r.mode == DiffMode::Diff {
            prop_assert!(r.formatted_diff.len() < new.len());
        }
    }

    /// Stored bytes never exceed the cap, whatever the sequence of calls.
    #[test]
    fn stored_bytes_never_exceed_the_cap(
        cap in 0usize..4000,
        calls in prop::collection::vec((0u8..12, text(), 0u8..4), 1..60),
    ) {
        let det = ResponseDiffDetector::with_config(DetectorConfig::default().max_stored_bytes(cap));
        for (key, body, action) in calls {
            let key = format!("tab{key}");
            match action {
                0 => { det.store(&key, &body).unwrap(); }
                1 => { det.clear(&key); }
                _ => { det.detect(&key, &body, &DiffSettings::default()).unwrap(); }
            }
            prop_assert!(det.memory_usage() <= cap, "{} > {}", det.memory_usage(), cap);
        }
    }
}
