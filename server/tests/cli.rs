//! The command-line tools, run as a user would run them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use response_diff_server::site::{Site, bundled_site_dir};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_response-diff"))
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().expect("running response-diff");
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/aria")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rd-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn diff_and_tree_diff_on_files() {
    let (before, after) = (
        fixtures().join("case07.before.yml"),
        fixtures().join("case07.after.yml"),
    );
    let (code, out, err) = run(bin().arg("diff").arg(&before).arg(&after));
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("changed: +") && out.contains("@@ -"), "{out}");
    let (code, out, _) = run(bin()
        .args(["diff", "--format", "minimal"])
        .arg(&before)
        .arg(&after));
    assert_eq!(code, 1);
    assert!(
        out.lines()
            .skip(1)
            .all(|l| l.starts_with("- ") || l.starts_with("+ ")),
        "{out}"
    );
    let (code, out, _) = run(bin().arg("diff").arg(&before).arg(&before));
    assert_eq!(code, 0);
    assert!(
        out.starts_with("No changes since the previous response"),
        "{out}"
    );

    let (code, out, err) = run(bin().arg("tree-diff").arg(&before).arg(&after));
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("~ [e") && out.lines().last().unwrap().ends_with("elements unchanged"),
        "{out}"
    );
    let (_, yaml, _) = run(bin()
        .args(["tree-diff", "--format", "yaml"])
        .arg(&before)
        .arg(&after));
    assert!(
        yaml.contains("diff:") && yaml.contains("unchanged_count:"),
        "{yaml}"
    );
    let (code, out, _) = run(bin()
        .args(["tree-diff", "--roles", "button,heading"])
        .arg(&before)
        .arg(&after));
    assert_eq!(code, 1);
    assert!(!out.contains("listitem"), "{out}");
    let (code, _, err) = run(bin().arg("tree-diff").arg(&before).arg("/no/such/file"));
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file"), "{err}");
}

#[test]
fn read_since_fingerprint_and_compare_on_a_page() {
    let site = Site::serve(bundled_site_dir(), 0).unwrap();
    let store = scratch("since");
    let baselines = scratch("baselines");
    let url = site.url("/help.html");

    let (code, first, err) = run(bin()
        .args(["read", "--url", &url, "--store-dir"])
        .arg(&store));
    assert_eq!(code, 0, "{err}");
    assert!(
        first.starts_with("# ts ") && first.contains("- heading \"Help & FAQ\" [level=1]"),
        "{first}"
    );
    let ts: u64 = first[5..].lines().next().unwrap().trim().parse().unwrap();
    let (code, again, err) = run(bin()
        .args([
            "read",
            "--url",
            &url,
            "--since",
            &ts.to_string(),
            "--store-dir",
        ])
        .arg(&store));
    assert_eq!(code, 0, "{err}");
    assert!(
        again.contains(&format!("changes since {ts}")) && again.contains("elements unchanged"),
        "{again}"
    );
    let (_, json, _) = run(bin()
        .args([
            "read",
            "--url",
            &url,
            "--format",
            "json",
            "--roles",
            "heading",
            "--since",
            "1",
            "--store-dir",
        ])
        .arg(&store));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(
        v["notice"].as_str().unwrap().contains("unknown or expired"),
        "{json}"
    );

    let (code, fp, err) = run(bin()
        .args([
            "fingerprint",
            "--url",
            &url,
            "--save",
            "help",
            "--baseline-dir",
        ])
        .arg(&baselines));
    assert_eq!(code, 0, "{err}");
    assert!(
        fp.contains("\"structure\"") && err.contains("saved baseline `help`"),
        "{err}"
    );
    let (code, out, err) = run(bin()
        .args([
            "compare",
            "--url",
            &url,
            "--against",
            "help",
            "--baseline-dir",
        ])
        .arg(&baselines));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("unchanged, clean"), "{out}");
    let (code, out, _) = run(bin()
        .args([
            "compare",
            "--url",
            &site.url("/signup.html"),
            "--against",
            "help",
            "--baseline-dir",
        ])
        .arg(&baselines));
    assert_eq!(code, 1);
    assert!(out.contains("url_changed"), "{out}");
    let (code, _, err) = run(bin()
        .args([
            "compare",
            "--url",
            &url,
            "--against",
            "nope",
            "--baseline-dir",
        ])
        .arg(&baselines));
    assert_eq!(code, 2);
    assert!(
        err.contains("no baseline named `nope` (known: help)"),
        "{err}"
    );
    let (code, _, err) = run(bin()
        .args(["read", "--url", "http://127.0.0.1:9/", "--store-dir"])
        .arg(&store));
    assert_eq!(code, 2);
    assert!(err.contains("net::ERR_"), "{err}");
    let _ = std::fs::remove_dir_all(&store);
    let _ = std::fs::remove_dir_all(&baselines);
}

#[test]
fn apply_patch_restores_elements_from_seen_snapshots() {
    let dir = scratch("seen");
    std::fs::create_dir_all(&dir).unwrap();
    let full = "- list [ref=e1]:\n  - listitem \"Tea\" [ref=e2]\n  - listitem \"Cake\" [ref=e3]\n- button \"Go\" [active] [ref=e5]";
    let filtered = "- list [ref=e1]:\n  - listitem \"Cake\" [ref=e3]\n- button \"Go\" [ref=e5]";
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let (full_p, filtered_p) = (write("full.yml", full), write("filtered.yml", filtered));
    let patch = write("p.txt", "+ first in [e1]: [e2] as last shown\n~ focus [e5]");
    let (code, out, err) = run(bin()
        .arg("apply-patch")
        .arg(&filtered_p)
        .arg(&patch)
        .arg("--seen")
        .arg(&full_p));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{full}\n"));
    // Removal runs need no seen snapshots.
    let runs = write("runs.txt", "- [e2 e3]");
    let (code, out, err) = run(bin().arg("apply-patch").arg(&full_p).arg(&runs));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "- list [ref=e1]\n- button \"Go\" [active] [ref=e5]\n");
    // Without the seen snapshot the restore cannot be applied: it says why.
    let (code, _, err) = run(bin().arg("apply-patch").arg(&filtered_p).arg(&patch));
    assert_eq!(code, 2);
    assert!(err.contains("no seen snapshot has it"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `diff` maps its files and streams its answer: what it prints is still
/// `compare_texts`' answer with one trailing newline, full answers (whose
/// text is written straight from the file) and empty files included.
#[test]
fn diff_prints_the_compare_texts_answer() {
    use response_diff::diff::{DiffOptions, compare_texts};
    let dir = scratch("answer");
    std::fs::create_dir_all(&dir).unwrap();
    let page: String = (0..200)
        .map(|i| format!("  - listitem [ref=e{i}]: Item {i}\n"))
        .collect();
    let settings = DiffOptions {
        enabled: Some(true),
        ..DiffOptions::default()
    }
    .resolve();
    let cases = [
        (page.clone(), page.replace("Item 7\n", "Item seven\n")),
        (page.clone(), "- other page\n\n\n".to_owned()),
        (String::new(), page.clone()),
        (page.clone(), String::new()),
        (page.clone(), page.clone()),
    ];
    for (i, (old, new)) in cases.iter().enumerate() {
        let (a, b) = (dir.join(format!("{i}.old")), dir.join(format!("{i}.new")));
        std::fs::write(&a, old).unwrap();
        std::fs::write(&b, new).unwrap();
        let (_, out, err) = run(bin().arg("diff").arg(&a).arg(&b));
        let want = compare_texts(Some(old), new, &settings);
        assert_eq!(
            out,
            format!("{}\n", want.formatted_diff.trim_end_matches('\n')),
            "case {i}: {err}"
        );
    }
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, [b'a', 0xff, b'\n']).unwrap();
    let (code, _, err) = run(bin().arg("diff").arg(&bad).arg(&bad));
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.txt") && err.contains("not UTF-8"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--cdp-header` and `--cdp-timeout` are checked at start-up, before any
/// browser or connection, exit code 2, and a header's value is never
/// echoed (it may be a credential).
#[test]
fn farm_flags_are_checked_at_start() {
    let mut no_endpoint = bin();
    no_endpoint.args(["mcp", "--cdp-header", "Authorization: Bearer zz-secret"]);
    let (code, _, err) = run(&mut no_endpoint);
    assert_eq!(code, 2);
    assert!(err.contains("--cdp-endpoint"), "{err}");
    let mut no_colon = bin();
    no_colon.args([
        "mcp",
        "--cdp-endpoint",
        "https://127.0.0.1:9",
        "--cdp-header",
        "Authorization Bearer zz-secret",
    ]);
    let (code, _, err) = run(&mut no_colon);
    assert_eq!(code, 2);
    assert!(
        err.contains("has no colon") && !err.contains("zz-secret"),
        "{err}"
    );
    let mut bad_timeout = bin();
    bad_timeout.args([
        "mcp",
        "--cdp-endpoint",
        "http://127.0.0.1:9",
        "--cdp-timeout",
        "5s",
    ]);
    let (code, _, err) = run(&mut bad_timeout);
    assert_eq!(code, 2);
    assert!(err.contains("--cdp-timeout"), "{err}");
    let mut bad_ca = bin();
    bad_ca
        .args([
            "mcp",
            "--cdp-endpoint",
            "wss://127.0.0.1:9/devtools/browser/x",
        ])
        .env("NODE_EXTRA_CA_CERTS", "/nonexistent/ca.pem");
    let (code, _, err) = run(&mut bad_ca);
    assert_eq!(code, 2);
    assert!(
        err.contains("NODE_EXTRA_CA_CERTS=/nonexistent/ca.pem"),
        "{err}"
    );
}
