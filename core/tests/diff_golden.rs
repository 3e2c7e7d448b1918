//! Golden outputs of every diff format on realistic aria snapshots
//! (tests/fixtures/diff/caseNN.{before,after}.yml). Review changes with
//! `cargo insta review` or `INSTA_UPDATE=always cargo test`.

mod common;

use response_diff::diff::{DiffFormat, DiffMode, DiffSettings, ResponseDiffDetector};

fn run(case: &str, settings: DiffSettings) -> (DiffMode, String) {
    let before = common::fixture(&format!("diff/{case}.before.yml"));
    let after = common::fixture(&format!("diff/{case}.after.yml"));
    let d = ResponseDiffDetector::new();
    assert_eq!(
        d.detect("tab", &before, &settings).unwrap().mode,
        DiffMode::First
    );
    let r = d.detect("tab", &after, &settings).unwrap();
    (r.mode, r.formatted_diff)
}

fn settings(format: DiffFormat) -> DiffSettings {
    DiffSettings {
        enabled: true,
        format,
        ..DiffSettings::default()
    }
}

const FORMATS: [DiffFormat; 3] = [DiffFormat::Unified, DiffFormat::Split, DiffFormat::Minimal];

fn golden(case: &str, expect: DiffMode) {
    for format in FORMATS {
        let (mode, text) = run(case, settings(format));
        assert_eq!(mode, expect, "{case} {format}");
        insta::assert_snapshot!(format!("{case}__{format}"), text);
    }
}

#[test]
fn one_line_change() {
    golden("case01_one_line", DiffMode::Diff);
}

#[test]
fn list_item_added() {
    golden("case02_list_item_added", DiffMode::Diff);
}

#[test]
fn modal_inserted() {
    golden("case03_modal_inserted", DiffMode::Diff);
}

#[test]
fn error_banner() {
    golden("case07_error_banner", DiffMode::Diff);
}

#[test]
fn navigation_to_a_different_page_gives_full() {
    let after = common::fixture("diff/case04_navigation.after.yml");
    for format in FORMATS {
        let (mode, text) = run("case04_navigation", settings(format));
        assert_eq!(mode, DiffMode::Full);
        assert!(text.ends_with(&after), "full mode carries the whole text");
        insta::assert_snapshot!(
            format!("case04_navigation__{format}__first_line"),
            text.lines().next().unwrap()
        );
    }
}

#[test]
fn identical_reread_gives_unchanged() {
    for format in FORMATS {
        let (mode, text) = run("case05_identical", settings(format));
        assert_eq!(mode, DiffMode::Unchanged);
        assert_eq!(text, "No changes since the previous response (67 lines).");
    }
}

#[test]
fn whitespace_only_changes() {
    let on = settings(DiffFormat::Unified);
    let (mode, _) = run("case06_whitespace_only", on);
    assert_eq!(mode, DiffMode::Unchanged);
    for format in FORMATS {
        let off = DiffSettings {
            ignore_whitespace: false,
            ..settings(format)
        };
        let (mode, text) = run("case06_whitespace_only", off);
        assert_eq!(mode, DiffMode::Diff);
        insta::assert_snapshot!(format!("case06_whitespace_only__{format}__ws_off"), text);
    }
}

#[test]
fn unified_output_applies_with_gnu_patch() {
    use std::io::Write;
    for case in [
        "case01_one_line",
        "case02_list_item_added",
        "case03_modal_inserted",
        "case07_error_banner",
    ] {
        let before = common::fixture(&format!("diff/{case}.before.yml"));
        let after = common::fixture(&format!("diff/{case}.after.yml"));
        let s = DiffSettings {
            ignore_whitespace: false,
            ..settings(DiffFormat::Unified)
        };
        let r = response_diff::diff::compare_texts(Some(&before), &after, &s);
        assert_eq!(r.mode, DiffMode::Diff);
        // Drop our one-line header; add the file headers patch expects.
        let body = r.formatted_diff.split_once('\n').unwrap().1;
        let dir = std::env::temp_dir().join(format!("rd-patch-{}-{case}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("page.yml");
        std::fs::write(&file, &before).unwrap();
        let mut child = std::process::Command::new("patch")
            .arg("--silent")
            .arg(&file)
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("GNU patch is installed");
        let mut stdin = child.stdin.take().unwrap();
        write!(stdin, "--- a/page.yml\n+++ b/page.yml\n{body}").unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success(), "patch failed for {case}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), after, "{case}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
