//! Atomic writes of the on-disk stores, tested by killing a real writer:
//! this test binary re-runs itself as a child process that writes large
//! entries in a loop, is SIGKILLed at a random moment, and then every entry
//! left in the store must read back whole. Leftover temporary files must
//! be ignored by readers (and the since store deletes them once stale).
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use response_diff::fingerprint::{self, BaselineStore, Fingerprint};
use response_diff::tree::{
    DiskStore, DiskStoreConfig, Element, ReadOutcome, Tree, TreeDiffOptions,
};

const CHILD_ENV: &str = "RD_CRASH_CHILD";
const DIR_ENV: &str = "RD_CRASH_DIR";
const KILLS: usize = 15;
/// Short, so the writer's own expiry pass runs too and the files checked
/// after each kill stay few.
const SINCE_TTL: Duration = Duration::from_secs(1);

/// About 500 KB of tree JSON: a write takes long enough to be cut.
fn big_tree() -> Tree {
    let mut list = Element::new("list", "Products");
    for i in 0..5_000 {
        let mut item = Element::new("listitem", format!("Product {i} with a longer name"));
        item.aria_ref = Some(format!("e{i}"));
        list.children.push(item);
    }
    Tree::new(vec![list])
}

/// A fingerprint of several hundred KB.
fn big_fingerprint() -> Fingerprint {
    let items: Vec<String> = (0..100)
        .map(|i| {
            format!(
                r#"{{"type": "button", "text": "Button {i} {}", "visible": true, "enabled": true, "location": "main"}}"#,
                "long label ".repeat(200)
            )
        })
        .collect();
    Fingerprint::from_json(&format!(
        r#"{{"url": "/big", "structure": {{"interactive": [{}]}}}}"#,
        items.join(",")
    ))
    .unwrap()
}

/// The writer, run only as a child of the tests below (`--ignored --exact`).
#[test]
#[ignore = "the child process of the kill tests; runs only when they start it"]
fn crash_child_writer() {
    let (Ok(kind), Ok(dir)) = (std::env::var(CHILD_ENV), std::env::var(DIR_ENV)) else {
        return;
    };
    match kind.as_str() {
        "since" => {
            let store = DiskStore::with_config(DiskStoreConfig::default().dir(&dir).ttl(SINCE_TTL))
                .unwrap();
            let tree = big_tree();
            ready();
            for i in 0..writes_until_stray_child_stops() {
                store
                    .read(
                        &format!("tab-{}", i % 4),
                        &tree,
                        None,
                        &TreeDiffOptions::default(),
                    )
                    .unwrap();
            }
        }
        "baseline" => {
            let store = BaselineStore::open(&dir).unwrap();
            let fp = big_fingerprint();
            ready();
            for i in 0..writes_until_stray_child_stops() {
                store.save(&format!("page-{}", i % 4), &fp).unwrap();
            }
        }
        other => panic!("unknown child kind {other}"),
    }
}

/// A bound on the write loop, so a child whose parent died does not run
/// forever; the parent kills it long before.
fn writes_until_stray_child_stops() -> usize {
    20_000
}

/// Tells the parent that setup is done and the write loop starts (libtest
/// prints it after `test crash_child_writer ... ` on the same line).
fn ready() {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{READY}").unwrap();
    out.flush().unwrap();
}

const READY: &str = "crash-child-ready";

/// A cheap xorshift seeded from the clock: the kill moments vary per run.
fn next_delay(state: &mut u64) -> Duration {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    Duration::from_millis(*state % 60)
}

/// Starts the writer, kills it (SIGKILL) a random delay after it starts its
/// write loop, `KILLS`
/// times, calling `check` after each kill. Returns how many kills left a
/// temporary file behind (a kill mid-write).
fn kill_writer_repeatedly(kind: &str, dir: &Path, mut check: impl FnMut(usize)) -> usize {
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let exe = std::env::current_exe().unwrap();
    let mut mid_write = 0;
    for round in 0..KILLS {
        let mut child = Command::new(&exe)
            .args([
                "--ignored",
                "--exact",
                "crash_child_writer",
                "--test-threads=1",
                "--nocapture",
            ])
            .env(CHILD_ENV, kind)
            .env(DIR_ENV, dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let started = std::io::BufRead::lines(std::io::BufReader::new(stdout))
            .map_while(Result::ok)
            .any(|l| l.contains(READY));
        assert!(started, "round {round}: the writer did not start");
        std::thread::sleep(next_delay(&mut seed));
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "the writer stopped by itself ({status}): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        child.kill().unwrap(); // SIGKILL on unix
        child.wait().unwrap();
        let temps = std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                let name = name.to_string_lossy();
                name.starts_with(".tmp") || name.ends_with(".tmp")
            })
            .count();
        if temps > 0 {
            mid_write += 1;
        }
        check(round);
    }
    mid_write
}

#[test]
fn since_store_survives_a_killed_writer() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("since");
    let tree = big_tree();
    let mut entries_seen = 0;
    let mid_write = kill_writer_repeatedly("since", &dir, |round| {
        let store =
            DiskStore::with_config(DiskStoreConfig::default().dir(&dir).ttl(SINCE_TTL)).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(".tmp") {
                continue; // a write the kill cut short: never a store entry
            }
            assert!(name.ends_with(".json"), "round {round}: unexpected {name}");
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let got = Tree::from_json(&text)
                .unwrap_or_else(|e| panic!("round {round}: {name} is corrupt: {e}"));
            assert!(got == tree, "round {round}: {name} holds another tree");
            entries_seen += 1;
        }
        // The store itself still works, and reads since a stored ts diff.
        let r = store
            .read("check", &tree, None, &TreeDiffOptions::default())
            .unwrap();
        let again = store
            .read("check", &tree, Some(r.ts), &TreeDiffOptions::default())
            .unwrap();
        assert!(matches!(again.outcome, ReadOutcome::Diff(ref d) if d.is_empty()));
    });
    eprintln!(
        "since store: {KILLS} kills, {mid_write} mid-write, {entries_seen} entries read back"
    );
    assert!(entries_seen > 0, "the writer never finished a write");
}

#[test]
fn baseline_store_survives_a_killed_writer() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("baselines");
    let fp = big_fingerprint();
    let mut entries_seen = 0;
    let mid_write = kill_writer_repeatedly("baseline", &dir, |round| {
        let store = BaselineStore::open(&dir).unwrap();
        for name in store.names() {
            let got = store
                .get(&name)
                .unwrap_or_else(|e| panic!("round {round}: baseline {name} is unreadable: {e}"));
            assert_eq!(got.hash, fp.hash, "round {round}: {name}");
            entries_seen += 1;
        }
        store.save("check", &fp).unwrap();
    });
    eprintln!(
        "baseline store: {KILLS} kills, {mid_write} mid-write, {entries_seen} entries read back"
    );
    assert!(entries_seen > 0, "the writer never finished a write");

    // Temporary files the kills left are deleted once stale, when a store
    // is opened; baselines and fresh temporaries are kept.
    let temps = |dir: &Path| -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".tmp"))
            .collect()
    };
    let fresh = dir.join(".fresh.json.1.1.tmp");
    std::fs::write(&fresh, "{").unwrap();
    let left = temps(&dir);
    let old = std::time::SystemTime::now() - fingerprint::STALE_TEMP_AGE - Duration::from_secs(60);
    for t in left.iter().filter(|t| **t != fresh) {
        std::fs::File::options()
            .write(true)
            .open(t)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let names = BaselineStore::open(&dir).unwrap().names();
    assert_eq!(temps(&dir), vec![fresh]);
    assert!(names.contains(&"check".to_owned()), "{names:?}");
}
