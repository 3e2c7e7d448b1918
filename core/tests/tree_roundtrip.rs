//! Round trip on real Playwright snapshots: print(parse(x)) == x.

use response_diff::tree::{Tree, parse_aria};
use std::path::PathBuf;

fn fixtures() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/aria");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "expected the captured corpus in {dir:?}");
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect()
}

#[test]
fn aria_text_round_trips_on_captured_corpus() {
    for (name, text) in fixtures() {
        let tree = parse_aria(&text, false).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!tree.is_empty(), "{name}");
        let printed = tree.to_aria();
        if printed != text {
            let first = printed
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{name}: round trip differs at line {}:\n  input:   {:?}\n  printed: {:?}",
                first + 1,
                text.lines().nth(first),
                printed.lines().nth(first)
            );
        }
        // Lenient parsing of well-formed input is the same tree.
        assert_eq!(parse_aria(&text, true).unwrap(), tree, "{name}");
    }
}

#[test]
fn json_round_trips_on_captured_corpus() {
    for (name, text) in fixtures() {
        let tree = parse_aria(&text, false).unwrap();
        let json = tree.to_json();
        let back = Tree::from_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, tree, "{name}");
        assert_eq!(back.to_aria(), text, "{name}");
        assert_eq!(back.to_json(), json, "{name}: JSON output is deterministic");
    }
}

#[test]
fn corpus_has_the_syntax_we_claim() {
    let all: String = fixtures().into_iter().map(|(_, t)| t + "\n").collect();
    for needle in [
        "[ref=",
        "[level=",
        "[checked]",
        "[checked=mixed]",
        "[disabled]",
        "[expanded]",
        "[active]",
        "[selected]",
        "[pressed]",
        "[pressed=mixed]",
        "[cursor=pointer]",
        "[box=",
        "[invalid]",
        "[aria-hidden]",
        "- /url:",
        "- /placeholder:",
        "- text:",
        "- '",
        ": \"",
        "[ref=f1e",
    ] {
        assert!(all.contains(needle), "corpus lacks {needle}");
    }
}
