//! "Never larger" (docs/LIMITS.md, README "Semantics in brief"): a response
//! is never larger than another lossless response we could send.
//! `maxDiffLines` can only add a note to a diff's header, never pick the
//! full text over a smaller diff; snapshot patches follow the same rule, and
//! a `since` read whose changes are larger than the tree sends the tree.

mod common;

use response_diff::diff::{DiffMode, DiffSettings, ResponseDiffDetector};
use response_diff::tree::{self, ReadOutcome, SinceStore, TreeDiffFormat, TreeDiffOptions};

/// An aria snapshot of `sections` sections of five lines, with refs.
fn page(sections: usize, expanded: Option<usize>) -> String {
    let mut out = String::from("- main [ref=e0]:\n");
    for s in 0..sections {
        out.push_str(&format!("  - region \"Section {s}\" [ref=s{s}]:\n"));
        out.push_str(&format!(
            "    - heading \"Section {s}\" [level=2] [ref=h{s}]\n"
        ));
        for i in 0..3 {
            out.push_str(&format!("    - link \"Item {s}.{i}\" [ref=l{s}x{i}]\n"));
        }
        if expanded == Some(s) {
            for i in 0..120 {
                out.push_str(&format!(
                    "    - paragraph [ref=p{i}]: detail line {i} of section {s}\n"
                ));
            }
        }
    }
    out
}

fn render_snapshot(det: &ResponseDiffDetector, aria: &str, expectation: &str) -> String {
    common::render_click(det, aria, expectation)
}

#[test]
fn a_section_of_120_lines_expanding_on_a_600_line_page_is_a_diff_with_default_options() {
    let before = page(120, None);
    let after = page(120, Some(60));
    assert_eq!(before.lines().count(), 601);
    for snapshot_diff in ["lines", "patch"] {
        let det = ResponseDiffDetector::new();
        let expectation = format!(
            r#"{{"diffOptions": {{"enabled": true}}, "snapshotOptions": {{"diff": "{snapshot_diff}"}}}}"#
        );
        render_snapshot(&det, &before, &expectation);
        let text = render_snapshot(&det, &after, &expectation);
        let heading = if snapshot_diff == "lines" {
            "### Page snapshot (diff since the previous snapshot)\n"
        } else {
            "### Page snapshot (patch)\n"
        };
        assert!(text.contains(heading), "{text}");
        assert!(text.contains("over maxDiffLines (50)"), "{text}");
        assert!(!text.contains("Full response"), "{text}");
        assert!(
            text.len() < after.len(),
            "{} >= {}",
            text.len(),
            after.len()
        );
    }
}

#[test]
fn max_diff_lines_never_yields_a_body_larger_than_the_diff() {
    let before = page(120, None);
    let after = page(120, Some(60));
    let unlimited = DiffSettings {
        max_diff_lines: 1_000_000,
        ..DiffSettings::default()
    };
    let baseline = response_diff::diff::compare_texts(Some(&before), &after, &unlimited);
    assert_eq!(baseline.mode, DiffMode::Diff);
    for max in [1, 10, 50, 126, 127, 1_000] {
        let s = DiffSettings {
            max_diff_lines: max,
            ..DiffSettings::default()
        };
        let det = ResponseDiffDetector::new();
        det.store("k", &before).unwrap();
        let r = det.detect("k", &after, &s).unwrap();
        assert_eq!(r.mode, DiffMode::Diff, "maxDiffLines {max}");
        // The same diff as without the cap; only the header may say more.
        let body = |t: &str| t.split_once('\n').unwrap().1.to_owned();
        assert_eq!(body(&r.formatted_diff), body(&baseline.formatted_diff));
        let note = r.formatted_diff.len() - baseline.formatted_diff.len();
        assert!(note < 80, "maxDiffLines {max}: {note} bytes of note");
        assert_eq!(
            note > 0,
            max < 127,
            "maxDiffLines {max}: {}",
            r.formatted_diff
        );
    }
}

#[test]
fn a_since_read_larger_than_the_tree_sends_the_tree() {
    let store = SinceStore::new();
    let opts = TreeDiffOptions::default();
    let many: String = (0..40)
        .map(|i| format!("- listitem [ref=e{i}]: row {i}\n"))
        .collect();
    let first = store.read("k", tree::parse_aria(&many, false).unwrap(), None, &opts);
    // Everything replaced by one button: listing 40 removals is larger than
    // the one-line tree.
    let small = tree::parse_aria("- button \"Done\" [ref=e99]", false).unwrap();
    let r = store.read("k", small.clone(), Some(first.ts), &opts);
    match &r.outcome {
        ReadOutcome::Full { tree, notice } => {
            assert_eq!(**tree, small);
            assert!(
                notice
                    .as_deref()
                    .unwrap()
                    .contains("are larger than the tree"),
                "{notice:?}"
            );
        }
        ReadOutcome::Diff(d) => panic!("a diff larger than the tree: {d:?}"),
        _ => panic!("unknown outcome"),
    }
    let text = r.render(TreeDiffFormat::Agent);
    assert!(text.ends_with("- button \"Done\" [ref=e99]"), "{text}");
    // A small change to a large tree stays a diff, and "unchanged" stays the
    // answer however small the tree.
    let more = many.replace("row 7\n", "row seven\n");
    let second = store.read("k", tree::parse_aria(&many, false).unwrap(), None, &opts);
    let r = store.read(
        "k",
        tree::parse_aria(&more, false).unwrap(),
        Some(second.ts),
        &opts,
    );
    assert!(matches!(r.outcome, ReadOutcome::Diff(_)));
    let tiny = tree::parse_aria("- button \"Go\"", false).unwrap();
    let a = store.read("t", tiny.clone(), None, &opts);
    let b = store.read("t", tiny, Some(a.ts), &opts);
    assert!(matches!(b.outcome, ReadOutcome::Diff(ref d) if d.is_empty()));
}
