//! The baseline store: names, bounds, lookup by hash, persistence.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use response_diff::Error;
use response_diff::fingerprint::{
    BaselineStore, BaselineStoreConfig, DEFAULT_MEMORY_LIMIT, Fingerprint, Severity, Status,
    validate_name,
};

fn page(url: &str) -> Fingerprint {
    Fingerprint::from_json(&format!(
        r#"{{"url": "{url}", "structure": {{"interactive": [{{"type": "button", "text": "Save"}}]}}}}"#
    ))
    .unwrap()
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static N: AtomicU64 = AtomicU64::new(0);
        let p = std::env::temp_dir().join(format!(
            "rd-fp-store-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn names() {
    for ok in [
        "home",
        "Dashboard-v2.1",
        "a",
        "A_b.c-d",
        "..x",
        ".hidden",
        &"x".repeat(64),
        "console",
        "com10",
        "lpt",
    ] {
        assert!(validate_name(ok).is_ok(), "{ok:?} should be allowed");
    }
    let bad = [
        "",
        ".",
        "..",
        "a/b",
        "../etc/passwd",
        "/abs",
        "a\\b",
        "C:foo",
        "with space",
        "tab\t",
        "nul\0",
        "naïve",
        "end.",
        "con",
        "CON",
        "con.json",
        "Aux",
        "nul.txt",
        "prn",
        "com1",
        "LPT9.log",
        &"x".repeat(65),
    ];
    for name in bad {
        match validate_name(name) {
            Err(Error::InvalidName { reason, .. }) => {
                assert!(reason.contains("A-Z a-z 0-9 . _ -"), "{reason}")
            }
            other => panic!("{name:?}: {other:?}"),
        }
    }
}

#[test]
fn save_get_compare_and_missing() {
    let store = BaselineStore::new();
    let home = page("/");
    store.save("home", &home).unwrap();
    assert_eq!(store.get("home").unwrap().hash, home.hash);
    assert_eq!(store.names(), ["home"]);
    assert_eq!(store.len(), 1);
    let cmp = store
        .compare("home", &page("/login"), Severity::Warning)
        .unwrap();
    assert_eq!(cmp.status, Status::Changed);

    match store.get("checkout").unwrap_err() {
        Error::BaselineNotFound { name, known } => {
            assert_eq!(name, "checkout");
            assert_eq!(known, ["home"]);
        }
        other => panic!("{other:?}"),
    }
    let msg = store.get("checkout").unwrap_err().to_string();
    assert!(msg.contains("no baseline named `checkout`"), "{msg}");
    assert!(msg.contains("known: home"), "{msg}");
    let empty = BaselineStore::new().get("x").unwrap_err().to_string();
    assert!(empty.contains("the store is empty"), "{empty}");

    // A name is never a path, also when looking up.
    assert!(matches!(
        store.get("../home"),
        Err(Error::InvalidName { .. })
    ));
    assert!(matches!(
        store.save("a/b", &home),
        Err(Error::InvalidName { .. })
    ));

    // Replacing keeps one entry.
    store.save("home", &page("/v2")).unwrap();
    assert_eq!(store.len(), 1);
    assert_eq!(store.get("home").unwrap().url, "/v2");
    assert!(store.remove("home").unwrap());
    assert!(!store.remove("home").unwrap());
    assert!(store.is_empty());
}

#[test]
fn against_a_hash_or_a_unique_prefix() {
    let store = BaselineStore::new();
    let a = page("/a");
    let b = page("/b");
    store.record(&a);
    store.record(&b);
    assert_eq!(store.get(&a.hash).unwrap().url, "/a");
    assert_eq!(store.get(&b.hash[..8]).unwrap().url, "/b");
    assert_eq!(store.get(&b.hash.to_uppercase()).unwrap().url, "/b");
    // Too short to be a prefix: not found.
    assert!(matches!(
        store.get(&a.hash[..3]),
        Err(Error::BaselineNotFound { .. })
    ));
    // Ambiguous prefixes are refused, not guessed: find two pages whose
    // hashes share 4 hex digits (a few hundred tries, by the birthday bound).
    let mut seen = std::collections::HashMap::new();
    let (x, y) = (0..100_000)
        .find_map(|j| {
            // Letters, not digits: `/p1234` normalizes to `/p[id]`.
            let name: String = std::iter::successors(Some(j + 1), |n| (*n >= 26).then(|| n / 26))
                .map(|n| char::from(b'a' + (n % 26) as u8))
                .collect();
            let p = page(&format!("/p/{name}"));
            seen.insert(p.hash[..4].to_owned(), p.clone())
                .map(|q| (q, p))
        })
        .unwrap();
    store.record(&x);
    store.record(&y);
    match store.get(&x.hash[..4]) {
        Err(Error::InvalidName { reason, .. }) => assert!(reason.contains("matches 2"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // A name wins over a hash prefix.
    store.save(&a.hash[..6], &b).unwrap();
    assert_eq!(store.get(&a.hash[..6]).unwrap().url, "/b");
    // Saved baselines are found by hash too.
    let s2 = BaselineStore::new();
    s2.save("home", &a).unwrap();
    assert_eq!(s2.get(&a.hash[..6]).unwrap().url, "/a");
}

#[test]
fn memory_is_bounded() {
    assert_eq!(DEFAULT_MEMORY_LIMIT, 16 * 1024 * 1024);
    let one = page("/0").to_json().len();
    let store = BaselineStore::with_config(
        BaselineStoreConfig::default()
            .memory_limit(one * 3 + one / 2)
            .recent_limit(2),
    )
    .unwrap();
    for i in 0..3 {
        store.record(&page(&format!("/r{i}")));
    }
    assert!(
        store.get(&page("/r0").hash).is_err(),
        "recent is capped at 2"
    );
    assert!(store.get(&page("/r2").hash).is_ok());
    for i in 0..5 {
        store
            .save(&format!("b{i}"), &page(&format!("/{i}")))
            .unwrap();
        assert!(store.memory_usage() <= one * 3 + one / 2);
    }
    // Recent captures went first, then the least recently used baselines.
    assert_eq!(store.len(), 3);
    assert_eq!(store.names(), ["b2", "b3", "b4"]);
    // Using one makes it recent: b2 survives the next insert, b3 does not.
    store.get("b2").unwrap();
    store.save("b5", &page("/5")).unwrap();
    assert_eq!(store.names(), ["b2", "b4", "b5"]);
    // A fingerprint larger than the whole budget is refused.
    let tiny = BaselineStore::with_config(BaselineStoreConfig::default().memory_limit(10)).unwrap();
    assert!(matches!(
        tiny.save("x", &page("/")),
        Err(Error::InputTooLarge { .. })
    ));
}

#[cfg(unix)]
mod disk {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    fn mode(p: &std::path::Path) -> u32 {
        std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn persists_privately_and_atomically() {
        let tmp = TempDir::new();
        let dir = tmp.0.join("baselines");
        let store = BaselineStore::open(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        let home = page("/");
        store.save("home", &home).unwrap();
        let file = dir.join("home.json");
        assert_eq!(mode(&file), 0o600);
        // Only the file: no temporary left behind.
        let entries: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(entries, ["home.json"]);
        assert_eq!(
            Fingerprint::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap(),
            home
        );

        // A new store (a new process) finds it on disk.
        let again = BaselineStore::open(&dir).unwrap();
        assert_eq!(again.names(), ["home"]);
        assert!(again.is_empty(), "not loaded until asked for");
        assert_eq!(again.get("home").unwrap().hash, home.hash);
        assert_eq!(again.len(), 1);

        // Files that are not baselines are ignored in names().
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        std::fs::write(dir.join("bad name.json"), "{}").unwrap();
        assert_eq!(again.names(), ["home"]);

        assert!(again.remove("home").unwrap());
        assert!(!file.exists());
        assert!(matches!(
            again.get("home"),
            Err(Error::BaselineNotFound { .. })
        ));
    }

    #[test]
    fn evicted_baselines_come_back_from_disk() {
        let tmp = TempDir::new();
        let one = page("/0").to_json().len();
        let store = BaselineStore::with_config(
            BaselineStoreConfig::default()
                .directory(&tmp.0)
                .memory_limit(one * 2),
        )
        .unwrap();
        for i in 0..4 {
            store
                .save(&format!("b{i}"), &page(&format!("/{i}")))
                .unwrap();
        }
        assert_eq!(store.len(), 2);
        assert_eq!(store.names(), ["b0", "b1", "b2", "b3"]);
        assert_eq!(store.get("b0").unwrap().url, "/0");
    }

    #[test]
    fn an_existing_directory_is_tightened_to_0700() {
        let tmp = TempDir::new();
        std::fs::set_permissions(&tmp.0, std::fs::Permissions::from_mode(0o755)).unwrap();
        BaselineStore::open(&tmp.0).unwrap();
        assert_eq!(mode(&tmp.0), 0o700);
    }

    #[test]
    fn symlinks_are_never_followed() {
        let tmp = TempDir::new();
        let real = tmp.0.join("real");
        std::fs::create_dir(&real).unwrap();
        let link = tmp.0.join("link");
        symlink(&real, &link).unwrap();
        match BaselineStore::open(&link) {
            Err(Error::Io { source, .. }) => {
                assert!(source.to_string().contains("symbolic link"), "{source}")
            }
            other => panic!("{other:?}"),
        }

        // A baseline file that is a symlink is refused, not read through.
        let dir = tmp.0.join("store");
        let store = BaselineStore::open(&dir).unwrap();
        let secret = tmp.0.join("secret.json");
        std::fs::write(&secret, page("/secret").to_json()).unwrap();
        symlink(&secret, dir.join("evil.json")).unwrap();
        match store.get("evil") {
            Err(Error::Io { source, .. }) => {
                assert!(source.to_string().contains("symbolic link"), "{source}")
            }
            other => panic!("{other:?}"),
        }
        // Saving over a symlink replaces the link, never writes through it.
        store.save("evil", &page("/mine")).unwrap();
        assert_eq!(
            Fingerprint::from_json(&std::fs::read_to_string(&secret).unwrap())
                .unwrap()
                .url,
            "/secret"
        );
        assert!(
            !std::fs::symlink_metadata(dir.join("evil.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_directory_that_is_a_file_or_a_corrupt_baseline_is_an_error() {
        let tmp = TempDir::new();
        let file = tmp.0.join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(matches!(BaselineStore::open(&file), Err(Error::Io { .. })));

        let store = BaselineStore::open(&tmp.0).unwrap();
        std::fs::write(tmp.0.join("broken.json"), "{\n  \"structure\": [\n").unwrap();
        assert!(matches!(store.get("broken"), Err(Error::Parse { .. })));
        let huge = tmp.0.join("huge.json");
        std::fs::write(&huge, " ".repeat(3 * 1024 * 1024)).unwrap();
        assert!(matches!(
            store.get("huge"),
            Err(Error::InputTooLarge { .. })
        ));
    }
}

#[test]
fn config_from_json_names_the_field() {
    let c = BaselineStoreConfig::from_json(r#"{"memoryLimit": 1024, "recentLimit": 0}"#).unwrap();
    assert_eq!(
        c,
        BaselineStoreConfig::default()
            .memory_limit(1024)
            .recent_limit(0)
    );
    match BaselineStoreConfig::from_json(r#"{"dir": "/tmp"}"#) {
        Err(Error::InvalidOption { field, .. }) => assert_eq!(field, "baselineStore.dir"),
        other => panic!("{other:?}"),
    }
    match BaselineStoreConfig::from_json(r#"{"memoryLimit": -1}"#) {
        Err(Error::InvalidOption { field, .. }) => assert_eq!(field, "baselineStore.memoryLimit"),
        other => panic!("{other:?}"),
    }
    // A directory in the JSON is opened like `BaselineStore::open`.
    let tmp = TempDir::new();
    let json = serde_json::json!({ "directory": tmp.0.join("b") }).to_string();
    let store = BaselineStore::with_config(BaselineStoreConfig::from_json(&json).unwrap()).unwrap();
    assert_eq!(store.directory(), Some(tmp.0.join("b").as_path()));
    assert!(tmp.0.join("b").is_dir());
}
