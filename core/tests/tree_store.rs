//! `since` stores: in memory and on disk. No test depends on timing: the
//! disk store's clock is passed in.

use response_diff::tree::{
    DiskStore, DiskStoreConfig, Filter, ReadOutcome, Selector, SinceStore, SinceStoreConfig, Tree,
    TreeDiffFormat, TreeDiffOptions, parse_aria,
};
use std::path::PathBuf;

fn fixture(name: &str) -> Tree {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/aria")
        .join(name);
    parse_aria(&std::fs::read_to_string(path).unwrap(), false).unwrap()
}

fn opts() -> TreeDiffOptions {
    TreeDiffOptions::default()
}

#[test]
fn memory_store_diffs_since_an_earlier_read() {
    let store = SinceStore::new();
    let r1 = store.read("tab-1", fixture("case03.before.yml"), None, &opts());
    assert!(matches!(r1.outcome, ReadOutcome::Full { notice: None, .. }));
    let r2 = store.read("tab-1", fixture("case03.after.yml"), Some(r1.ts), &opts());
    let ReadOutcome::Diff(d) = &r2.outcome else {
        panic!("expected a diff")
    };
    assert_eq!(d.changed.len(), 1);
    let text = r2.render(TreeDiffFormat::Agent);
    assert!(text.starts_with(&format!("# ts {}, changes since {}\n~ [e14]", r2.ts, r1.ts)));
    // Other keys are independent.
    let r3 = store.read("tab-2", fixture("shop.yml"), Some(r1.ts), &opts());
    assert!(r3.notice().is_some());
}

#[test]
fn timestamps_strictly_increase_even_within_a_millisecond() {
    let store = SinceStore::with_config(SinceStoreConfig::default().per_key(1000).keys(4));
    let t = parse_aria("- button \"x\"", false).unwrap();
    let ts: Vec<u64> = (0..500)
        .map(|_| store.read("k", t.clone(), None, &opts()).ts)
        .collect();
    assert!(ts.windows(2).all(|w| w[1] > w[0]));
    // Every one of them can be read since.
    let r = store.read("k", t, Some(ts[3]), &opts());
    assert!(matches!(r.outcome, ReadOutcome::Diff(_)));
}

#[test]
fn expired_ts_gives_the_full_tree_and_a_notice_in_memory() {
    let store = SinceStore::with_config(SinceStoreConfig::default().per_key(2).keys(8));
    let page = fixture("case03.after.yml");
    let r1 = store.read("tab", fixture("case03.before.yml"), None, &opts());
    store.read("tab", page.clone(), None, &opts());
    store.read("tab", page.clone(), None, &opts()); // r1 is evicted now
    let r = store.read("tab", page.clone(), Some(r1.ts), &opts());
    let ReadOutcome::Full { tree, notice } = &r.outcome else {
        panic!("expected the full tree")
    };
    assert_eq!(**tree, page);
    let notice = notice.as_deref().unwrap();
    assert!(
        notice.contains(&r1.ts.to_string()) && notice.contains("full tree"),
        "{notice}"
    );
    let text = r.render(TreeDiffFormat::Agent);
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), format!("# ts {}", r.ts));
    assert_eq!(lines.next().unwrap(), format!("# {notice}"));
    assert_eq!(lines.collect::<Vec<_>>().join("\n"), page.to_aria());
    // YAML and JSON forms carry the notice and the snapshot.
    let y = yaml_rust2::YamlLoader::load_from_str(&r.render(TreeDiffFormat::Yaml)).unwrap();
    assert_eq!(y[0]["notice"].as_str(), Some(notice));
    assert_eq!(y[0]["snapshot"].as_str(), Some(page.to_aria().as_str()));
    let j: serde_json::Value = serde_json::from_str(&r.render(TreeDiffFormat::Json)).unwrap();
    assert_eq!(j["notice"].as_str(), Some(notice));
    assert_eq!(Tree::from_json(&j["tree"].to_string()).unwrap(), page);
}

#[test]
fn expired_ts_gives_the_full_tree_and_a_notice_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let store = DiskStore::open(dir.path().join("since")).unwrap();
    let before = fixture("case03.before.yml");
    let after = fixture("case03.after.yml");
    let t0 = 1_700_000_000_000;
    let r1 = store.read_at("chrome", &before, None, &opts(), t0).unwrap();
    // Within 60 s: a diff.
    let r2 = store
        .read_at("chrome", &after, Some(r1.ts), &opts(), t0 + 59_000)
        .unwrap();
    assert!(matches!(r2.outcome, ReadOutcome::Diff(ref d) if d.changed.len() == 1));
    // After 60 s: full tree and a notice, and the old file is gone.
    let r3 = store
        .read_at("chrome", &after, Some(r1.ts), &opts(), t0 + 61_000)
        .unwrap();
    assert!(r3.notice().unwrap().contains("expired"));
    assert!(matches!(r3.outcome, ReadOutcome::Full { ref tree, .. } if **tree == after));
    let names: Vec<String> = std::fs::read_dir(store.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.contains(&format!(".{}.", r1.ts))),
        "{names:?}"
    );
    // Unknown ts: the same, never an error.
    let r4 = store
        .read_at("chrome", &after, Some(12345), &opts(), t0 + 62_000)
        .unwrap();
    assert!(r4.notice().is_some());
}

#[test]
fn two_reads_in_the_same_millisecond_do_not_collide_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let store = DiskStore::open(dir.path().join("s")).unwrap();
    // A page around the button, so its change is smaller than the tree
    // (a larger one reads back as the full tree).
    let page = |name: &str| {
        let rows: String = (0..8).map(|i| format!("- listitem: row {i}\n")).collect();
        parse_aria(&format!("{rows}- button \"{name}\""), false).unwrap()
    };
    let (a, b) = (page("a"), page("b"));
    let now = 1_700_000_000_000;
    let r1 = store.read_at("k", &a, None, &opts(), now).unwrap();
    let r2 = store.read_at("k", &b, None, &opts(), now).unwrap();
    let r3 = store.read_at("other", &b, None, &opts(), now).unwrap();
    assert!(r1.ts < r2.ts && r2.ts < r3.ts);
    // Both are kept and distinct.
    let r = store.read_at("k", &b, Some(r1.ts), &opts(), now).unwrap();
    assert!(matches!(r.outcome, ReadOutcome::Diff(ref d) if d.changed.len() == 1));
    let r = store.read_at("k", &b, Some(r2.ts), &opts(), now).unwrap();
    assert!(matches!(r.outcome, ReadOutcome::Diff(ref d) if d.is_empty()));
}

#[cfg(unix)]
#[test]
fn disk_store_is_private_and_never_follows_symlinks() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("since");
    let store = DiskStore::open(&root).unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&root), 0o700);
    let t = parse_aria("- button \"Go\" [ref=e1]", false).unwrap();
    let now = 1_700_000_000_000;
    let r1 = store
        .read_at("../../etc/passwd", &t, None, &opts(), now)
        .unwrap();
    let files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    assert_eq!(mode(&files[0]), 0o600);
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("______etc_passwd-") && name.ends_with(&format!(".{}.json", r1.ts)),
        "{name}"
    );

    // A symlink planted under the name of a future snapshot is not followed:
    // reading since its ts gives the full tree, and its target is untouched.
    let secret = dir.path().join("secret.json");
    std::fs::write(&secret, t.to_json()).unwrap();
    let key_part = name.split('.').next().unwrap().to_owned();
    let planted_ts = now + 10;
    std::os::unix::fs::symlink(&secret, root.join(format!("{key_part}.{planted_ts}.json")))
        .unwrap();
    let r = store
        .read_at("../../etc/passwd", &t, Some(planted_ts), &opts(), now + 20)
        .unwrap();
    assert!(r.notice().is_some(), "the symlink must not be read");
    // Expiry does not follow or delete through it either.
    store
        .read_at("../../etc/passwd", &t, None, &opts(), now + 500_000)
        .unwrap();
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), t.to_json());

    // A store directory that is itself a symlink is refused.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&root, &link).unwrap();
    assert!(DiskStore::open(&link).is_err());

    // A too-open existing directory is tightened.
    let open = dir.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    DiskStore::open(&open).unwrap();
    assert_eq!(mode(&open), 0o700);
}

#[test]
fn filters_apply_to_since_reads() {
    let store = SinceStore::new();
    let scope = TreeDiffOptions {
        filter: Filter {
            scope: Some(Selector::parse("complementary \"Cart\"").unwrap()),
            ..Filter::default()
        },
        ..TreeDiffOptions::default()
    };
    let r1 = store.read("t", fixture("case07.before.yml"), None, &scope);
    let ReadOutcome::Full { tree, .. } = &r1.outcome else {
        panic!()
    };
    assert_eq!(tree.roots[0].role, "complementary");
    let r2 = store.read("t", fixture("case07.after.yml"), Some(r1.ts), &scope);
    let ReadOutcome::Diff(d) = &r2.outcome else {
        panic!()
    };
    assert_eq!(d.unchanged_count, 9);
    // A scope that matches nothing says so.
    let missing = TreeDiffOptions {
        filter: Filter {
            scope: Some(Selector::parse("dialog").unwrap()),
            ..Filter::default()
        },
        ..TreeDiffOptions::default()
    };
    let r = store.read("t", fixture("shop.yml"), None, &missing);
    assert!(r.notice().unwrap().contains("matches nothing"));
}

#[test]
fn stores_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<SinceStore>();
    check::<DiskStore>();
    check::<Tree>();
}

#[cfg(unix)]
#[test]
fn disk_store_keys_never_escape_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("since");
    let store = DiskStore::open(&root).unwrap();
    let t = parse_aria("- button \"Go\" [ref=e1]", false).unwrap();
    let long = "x/".repeat(5_000);
    let keys = [
        "../../etc/passwd",
        "a/b",
        "con",
        "",
        "nul\0byte",
        "..",
        "/abs/path",
        "é ü \u{202e}",
        long.as_str(),
    ];
    let now = 1_700_000_000_000;
    let mut reads = Vec::new();
    for key in keys {
        let r = store.read_at(key, &t, None, &opts(), now).unwrap();
        reads.push(r.ts);
    }
    // One plain file per key, all directly in the store directory, each
    // name short and made of safe characters.
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            assert!(e.file_type().unwrap().is_file());
            e.file_name().into_string().unwrap()
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), keys.len(), "{names:?}");
    for n in &names {
        assert!(n.len() <= 48 + 1 + 12 + 1 + 13 + 5, "{n}");
        assert!(
            n.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')),
            "{n}"
        );
        assert!(!n.starts_with('.'), "{n}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // Each key reads back its own tree.
    for (key, ts) in keys.iter().zip(&reads) {
        let r = store.read_at(key, &t, Some(*ts), &opts(), now + 1).unwrap();
        assert!(
            matches!(r.outcome, ReadOutcome::Diff(ref d) if d.is_empty()),
            "{key:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn disk_store_never_writes_through_a_planted_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("since");
    let store = DiskStore::open(&root).unwrap();
    let t = parse_aria("- button \"Go\" [ref=e1]", false).unwrap();
    let now = 1_700_000_000_000;
    let first = store.read_at("tab", &t, None, &opts(), now).unwrap();
    let file = std::fs::read_dir(&root)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name()
        .into_string()
        .unwrap();
    let key_part = file.split('.').next().unwrap().to_owned();
    // Plant a symlink at the exact name the next read will write.
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let next_ts = now + 5_000;
    let planted = root.join(format!("{key_part}.{next_ts}.json"));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    let r = store
        .read_at("tab", &t, Some(first.ts), &opts(), next_ts)
        .unwrap();
    assert_eq!(r.ts, next_ts);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    // The link was replaced by the store's own private file.
    let meta = std::fs::symlink_metadata(&planted).unwrap();
    assert!(meta.is_file());
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(
        Tree::from_json(&std::fs::read_to_string(&planted).unwrap()).unwrap(),
        t
    );
}

#[test]
fn since_store_config_from_json() {
    let c = SinceStoreConfig::from_json(r#"{"perKey": 2}"#).unwrap();
    assert_eq!(c, SinceStoreConfig::default().per_key(2));
    assert_eq!(SinceStore::with_config(c).config().keys, 256);
    // 0 counts as 1, as it always did.
    let one = SinceStore::with_config(SinceStoreConfig::default().per_key(0).keys(0));
    assert_eq!((one.config().per_key, one.config().keys), (1, 1));
    match SinceStoreConfig::from_json(r#"{"perkey": 1}"#) {
        Err(response_diff::Error::InvalidOption { field, .. }) => {
            assert_eq!(field, "sinceStore.perkey")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn disk_store_config_defaults_to_the_user_directory() {
    let c = DiskStoreConfig::default();
    assert_eq!((c.dir, c.ttl), (None, std::time::Duration::from_secs(60)));
    let dir = tempfile::tempdir().unwrap();
    let store =
        DiskStore::with_config(DiskStoreConfig::default().dir(dir.path().join("s"))).unwrap();
    assert_eq!(store.dir(), dir.path().join("s"));
    assert_eq!(store.ttl(), std::time::Duration::from_secs(60));
}
