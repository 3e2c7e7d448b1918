//! `since` reads: every read gets a `ts`; a later read `since` that ts
//! returns only what changed. In memory for servers and libraries
//! ([`SinceStore`]), on disk for command-line tools ([`DiskStore`]).
//!
//! An unknown or expired `ts` never fails: the read returns the full tree
//! with a one-line notice.

use super::diff::{TreeDiff, TreeDiffOptions, diff_with};
use super::model::Tree;
use super::render::{TreeDiffFormat, yaml_scalar};
use super::{Dialect, parse_devtools};
use crate::prelude::*;
use crate::sync::lock;
use crate::{Error, Result};
use alloc::collections::VecDeque;
use core::num::NonZeroUsize;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The result of a read: its `ts`, the `since` it was asked for, and either
/// a diff or the full tree.
#[derive(Debug, Clone)]
pub struct SinceRead {
    /// This read's timestamp (milliseconds since the Unix epoch, strictly
    /// increasing per store). Pass it as `since` next time.
    pub ts: u64,
    /// The `since` the read asked for.
    pub since: Option<u64>,
    /// What the reader gets.
    pub outcome: ReadOutcome,
}

/// Diff, or full tree (first read, or `since` unknown or expired).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ReadOutcome {
    /// What changed since `since`.
    Diff(TreeDiff),
    /// The whole (filtered) tree, with a notice when `since` could not be used.
    Full {
        /// The tree.
        tree: Arc<Tree>,
        /// One line saying why this is not a diff (None on a first read).
        notice: Option<String>,
    },
}

impl SinceRead {
    /// The notice of a full read, if any.
    pub fn notice(&self) -> Option<&str> {
        match &self.outcome {
            ReadOutcome::Full { notice, .. } => notice.as_deref(),
            ReadOutcome::Diff(_) => None,
        }
    }

    /// Renders the read.
    ///
    /// - agent: `# ts 1707504003000, changes since 1707504000000` then the
    ///   diff lines; or `# ts …`, the notice as a `# ` line, and the aria text.
    /// - YAML / JSON: `{ts, since, diff}`; or `{ts, since, notice, snapshot}`
    ///   (JSON: `tree`, the element array).
    ///
    /// ```
    /// use response_diff::tree::{parse_aria, TreeDiffFormat, TreeDiffOptions, SinceStore};
    /// let store = SinceStore::new();
    /// let t = parse_aria("- button \"Go\" [ref=e1]", false).unwrap();
    /// let first = store.read("tab1", t.clone(), None, &TreeDiffOptions::default());
    /// let again = store.read("tab1", t, Some(first.ts), &TreeDiffOptions::default());
    /// assert_eq!(
    ///     again.render(TreeDiffFormat::Agent),
    ///     format!("# ts {}, changes since {}\n# 1 element unchanged", again.ts, first.ts)
    /// );
    /// ```
    pub fn render(&self, format: TreeDiffFormat) -> String {
        match (&self.outcome, format) {
            (ReadOutcome::Diff(d), TreeDiffFormat::Agent) => {
                let since = self.since.map_or_else(String::new, |s| s.to_string());
                format!("# ts {}, changes since {since}\n{}", self.ts, d.to_agent())
            }
            (ReadOutcome::Diff(d), TreeDiffFormat::Yaml) => d.to_yaml(self.ts, self.since),
            (ReadOutcome::Diff(d), TreeDiffFormat::Json) => d.to_json(self.ts, self.since),
            (ReadOutcome::Full { tree, notice }, TreeDiffFormat::Agent) => {
                let mut out = format!("# ts {}", self.ts);
                if let Some(n) = notice {
                    out.push_str("\n# ");
                    out.push_str(n);
                }
                out.push('\n');
                out.push_str(&tree.to_aria());
                out
            }
            (ReadOutcome::Full { tree, notice }, TreeDiffFormat::Yaml) => {
                let mut out = format!("ts: {}\nsince: ", self.ts);
                match self.since {
                    Some(s) => out.push_str(&s.to_string()),
                    None => out.push_str("null"),
                }
                if let Some(n) = notice {
                    out.push_str("\nnotice: ");
                    out.push_str(&yaml_scalar(n));
                }
                out.push_str("\nsnapshot:");
                let text = tree.to_aria();
                let block_safe = !text.is_empty()
                    && !text.starts_with(' ')
                    && text.chars().all(|c| {
                        c == '\n'
                            || !(c.is_control()
                                || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}'))
                    });
                if block_safe {
                    out.push_str(" |-");
                    for line in text.split('\n') {
                        out.push_str("\n  ");
                        out.push_str(line);
                    }
                } else {
                    out.push(' ');
                    out.push_str(&super::aria::json_quote(&text));
                }
                out
            }
            (ReadOutcome::Full { tree, notice }, TreeDiffFormat::Json) => {
                let full = FullJson {
                    ts: self.ts,
                    since: self.since,
                    notice: notice.as_deref(),
                    tree,
                };
                serde_json::to_string(&full).unwrap_or_default()
            }
        }
    }
}

/// A full read as JSON: `{ts, since, notice?, tree}`.
#[derive(Serialize)]
struct FullJson<'a> {
    ts: u64,
    since: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    notice: Option<&'a str>,
    tree: &'a Tree,
}

/// The clock every `ts` is read from: milliseconds since the Unix epoch
/// (0 before it). A [`SinceStore`] or [`DiskStore`] stamps its reads with
/// it (a store's ts also increase strictly); hosts stamp a tree diff's
/// YAML or JSON with it ([`TreeDiff::render`](super::TreeDiff::render)), so
/// every binding reads the same clock.
///
/// ```
/// let ts = response_diff::tree::now_ts();
/// assert!(ts > 1_700_000_000_000); // after November 2023
/// ```
pub fn now_ts() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Builds the outcome of a read of `tree` against `old` (if found).
fn outcome(
    old: Option<&Tree>,
    tree: &Arc<Tree>,
    since: Option<u64>,
    missing: impl FnOnce(u64) -> String,
    options: &TreeDiffOptions,
) -> ReadOutcome {
    let scope_notice = |t: &Tree| {
        options.filter.scope.as_ref().and_then(|s| {
            t.find(s)
                .is_none()
                .then(|| format!("scope `{s}` matches nothing in the current tree"))
        })
    };
    let full = || {
        if options.filter.is_noop() {
            Arc::clone(tree)
        } else {
            Arc::new(options.filter.apply(tree))
        }
    };
    match (since, old) {
        (Some(s), Some(old)) => {
            let d = diff_with(old, tree, options);
            // Never larger than the other lossless answer: when the changes
            // take more text than the whole tree, send the tree (compared
            // in the agent format; YAML and JSON grow both alike). "Nothing
            // changed" is always the answer when it is true.
            if d.is_empty() {
                return ReadOutcome::Diff(d);
            }
            let tree = full();
            let changes = d.to_agent().len();
            let whole = tree.to_aria().len();
            if changes > whole {
                let notice = format!(
                    "the changes since ts {s} ({changes} bytes) are larger than the tree ({whole} bytes); this is the full tree"
                );
                ReadOutcome::Full {
                    tree,
                    notice: Some(notice),
                }
            } else {
                ReadOutcome::Diff(d)
            }
        }
        (since, _) => {
            let notice = since.map(missing).or_else(|| scope_notice(tree));
            ReadOutcome::Full {
                tree: full(),
                notice,
            }
        }
    }
}

// ---------------------------------------------------------------------------

/// In-memory `since` store: the last few trees per page key.
///
/// Keys are any strings (hosts key by tab or page). Each key keeps its
/// `per_key` most recent trees; at most `keys` keys are kept, the least
/// recently read going first. `Send + Sync`: share one across threads.
///
/// ```
/// use response_diff::tree::{parse_aria, TreeDiffOptions, ReadOutcome, SinceStore};
/// let store = SinceStore::new();
/// let opts = TreeDiffOptions::default();
/// let v1 = parse_aria("- list [ref=e1]:\n  - listitem [ref=e2]: a", false).unwrap();
/// let v2 = parse_aria("- list [ref=e1]:\n  - listitem [ref=e2]: a\n  - listitem [ref=e3]: b", false).unwrap();
/// let r1 = store.read("tab-1", v1, None, &opts);
/// let r2 = store.read("tab-1", v2, Some(r1.ts), &opts);
/// assert!(r2.ts > r1.ts);
/// match r2.outcome {
///     ReadOutcome::Diff(d) => assert_eq!(d.added.len(), 1),
///     _ => unreachable!(),
/// }
/// // An unknown ts is not an error: the full tree and a notice.
/// let r3 = store.read("tab-1", parse_aria("- button \"x\"", false).unwrap(), Some(42), &opts);
/// assert!(r3.notice().unwrap().contains("42"));
/// ```
#[derive(Debug)]
pub struct SinceStore {
    inner: Mutex<MemInner>,
    config: SinceStoreConfig,
}

/// Limits of a [`SinceStore`].
///
/// ```
/// use response_diff::tree::{SinceStore, SinceStoreConfig};
/// let store = SinceStore::with_config(SinceStoreConfig::default().per_key(2).keys(10));
/// assert_eq!(store.config().per_key, 2);
/// let c = SinceStoreConfig::from_json(r#"{"perKey": 16}"#).unwrap();
/// assert_eq!((c.per_key, c.keys), (16, 256));
/// assert!(SinceStoreConfig::from_json(r#"{"perkey": 16}"#).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SinceStoreConfig {
    /// Trees kept per key (default 8; 0 counts as 1): how far back a
    /// `since` can reach.
    pub per_key: usize,
    /// Keys kept (default 256; 0 counts as 1); the least recently read
    /// goes first.
    pub keys: usize,
}

impl Default for SinceStoreConfig {
    fn default() -> Self {
        SinceStoreConfig {
            per_key: 8,
            keys: 256,
        }
    }
}

/// The JSON form of [`SinceStoreConfig`] shared by the bindings.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SinceStoreConfigJson {
    per_key: Option<usize>,
    keys: Option<usize>,
}

impl SinceStoreConfig {
    /// Sets [`SinceStoreConfig::per_key`].
    pub fn per_key(mut self, trees: usize) -> Self {
        self.per_key = trees;
        self
    }

    /// Sets [`SinceStoreConfig::keys`].
    pub fn keys(mut self, keys: usize) -> Self {
        self.keys = keys;
        self
    }

    /// Parses `{"perKey": 8, "keys": 256}` (every field optional), the
    /// form the bindings accept.
    pub fn from_json(json: &str) -> Result<SinceStoreConfig> {
        let j: SinceStoreConfigJson = crate::json::from_str(json, "sinceStore")?;
        let d = SinceStoreConfig::default();
        Ok(SinceStoreConfig {
            per_key: j.per_key.unwrap_or(d.per_key),
            keys: j.keys.unwrap_or(d.keys),
        })
    }
}

#[derive(Debug)]
struct MemInner {
    pages: lru::LruCache<String, VecDeque<(u64, Arc<Tree>)>>,
    last_ts: u64,
}

impl Default for SinceStore {
    fn default() -> Self {
        SinceStore::new()
    }
}

impl SinceStore {
    /// A store with the default limits: 8 trees per key for up to 256 keys.
    pub fn new() -> Self {
        SinceStore::with_config(SinceStoreConfig::default())
    }

    /// A store with `config`'s limits (a limit of 0 counts as 1).
    pub fn with_config(config: SinceStoreConfig) -> Self {
        let config = SinceStoreConfig {
            per_key: config.per_key.max(1),
            keys: config.keys.max(1),
        };
        SinceStore {
            inner: Mutex::new(MemInner {
                pages: lru::LruCache::new(NonZeroUsize::new(config.keys).expect("max(1)")),
                last_ts: 0,
            }),
            config,
        }
    }

    /// The store's limits (a limit given as 0 reads 1).
    pub fn config(&self) -> SinceStoreConfig {
        self.config
    }

    /// Records `tree` as the latest read of `key` and returns it as a diff
    /// against the read `since` (if still kept), else in full with a notice.
    /// `options.filter` applies to both trees (and to the full tree).
    pub fn read(
        &self,
        key: &str,
        tree: Tree,
        since: Option<u64>,
        options: &TreeDiffOptions,
    ) -> SinceRead {
        let tree = Arc::new(tree);
        let (ts, old) = {
            let mut inner = lock(&self.inner);
            let ts = now_ts().max(inner.last_ts + 1);
            inner.last_ts = ts;
            let per_key = self.config.per_key;
            let history = inner.pages.get_or_insert_mut(key.to_owned(), VecDeque::new);
            let old = since.and_then(|s| {
                history
                    .iter()
                    .find(|(t, _)| *t == s)
                    .map(|(_, t)| Arc::clone(t))
            });
            history.push_back((ts, Arc::clone(&tree)));
            while history.len() > per_key {
                history.pop_front();
            }
            (ts, old)
        };
        let per_key = self.config.per_key;
        let outcome = outcome(
            old.as_deref(),
            &tree,
            since,
            |s| {
                format!(
                    "ts {s} is unknown or expired for `{key}` (only the last {per_key} reads are kept); this is the full tree"
                )
            },
            options,
        );
        SinceRead { ts, since, outcome }
    }

    /// Forgets every tree of `key`.
    pub fn clear(&self, key: &str) {
        let mut inner = lock(&self.inner);
        inner.pages.pop(key);
    }
}

// ---------------------------------------------------------------------------

/// On-disk `since` store for command-line use: one process per read.
///
/// - The directory is private: created `0700` (an existing one is reset to
///   `0700`; a symlink is refused), files are `0600`.
/// - Each read writes `<key>.<ts>.json` atomically (temporary file, then
///   rename). Keys are sanitized (`[A-Za-z0-9_-]`, at most 48 characters)
///   and suffixed with a hash of the original, so a key is never a path.
/// - Timestamps are milliseconds, strictly increasing across the store's
///   files, so two reads in the same second never collide.
/// - Files older than the time to live (default 60 s) are deleted on each
///   read; symlinks in the directory are never followed.
///
/// ```
/// use response_diff::tree::{parse_aria, TreeDiffOptions, DiskStore, ReadOutcome};
/// let dir = tempfile::tempdir().unwrap();
/// let store = DiskStore::open(dir.path().join("since")).unwrap();
/// let t = parse_aria("- button \"Go\" [ref=e1]", false).unwrap();
/// let r1 = store.read("chrome", &t, None, &TreeDiffOptions::default()).unwrap();
/// let r2 = store.read("chrome", &t, Some(r1.ts), &TreeDiffOptions::default()).unwrap();
/// assert!(matches!(r2.outcome, ReadOutcome::Diff(ref d) if d.is_empty()));
/// ```
#[derive(Debug, Clone)]
pub struct DiskStore {
    dir: PathBuf,
    ttl: Duration,
}

/// Where a [`DiskStore`] keeps its files and for how long.
///
/// ```
/// use std::time::Duration;
/// use response_diff::tree::{DiskStore, DiskStoreConfig};
/// let dir = tempfile::tempdir().unwrap();
/// let config = DiskStoreConfig::default().dir(dir.path().join("s")).ttl(Duration::from_secs(5));
/// let store = DiskStore::with_config(config).unwrap();
/// assert_eq!(store.ttl(), Duration::from_secs(5));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DiskStoreConfig {
    /// The store's directory (default `None`: [`DiskStore::default_dir`]).
    pub dir: Option<PathBuf>,
    /// How long a read stays usable as a `since` (default 60 s).
    pub ttl: Duration,
}

impl Default for DiskStoreConfig {
    fn default() -> Self {
        DiskStoreConfig {
            dir: None,
            ttl: Duration::from_secs(60),
        }
    }
}

impl DiskStoreConfig {
    /// Sets [`DiskStoreConfig::dir`].
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dir = Some(dir.into());
        self
    }

    /// Sets [`DiskStoreConfig::ttl`].
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }
}

impl DiskStore {
    /// Opens (creating if needed) a store in `dir` with the default time to
    /// live (60 s): `with_config(DiskStoreConfig::default().dir(dir))`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<DiskStore> {
        DiskStore::with_config(DiskStoreConfig::default().dir(dir))
    }

    /// Opens (creating if needed) the store `config` describes, in
    /// [`DiskStore::default_dir`] when it names no directory.
    pub fn with_config(config: DiskStoreConfig) -> Result<DiskStore> {
        let DiskStoreConfig { dir, ttl } = config;
        let dir = dir.unwrap_or_else(DiskStore::default_dir);
        let io = |source: std::io::Error| Error::Io {
            path: dir.clone(),
            source,
        };
        if let Ok(meta) = std::fs::symlink_metadata(&dir) {
            if meta.file_type().is_symlink() {
                return Err(io(std::io::Error::other(
                    "the store directory is a symlink; refusing to follow it",
                )));
            }
            if !meta.is_dir() {
                return Err(io(std::io::Error::other("not a directory")));
            }
        } else {
            let mut b = std::fs::DirBuilder::new();
            b.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
            b.create(&dir).map_err(io)?;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let meta = std::fs::symlink_metadata(&dir).map_err(io)?;
            if meta.file_type().is_symlink() || !meta.is_dir() {
                return Err(io(std::io::Error::other(
                    "the store directory was replaced while opening it",
                )));
            }
            if meta.permissions().mode() & 0o777 != 0o700 {
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
                    .map_err(io)?;
            }
        }
        Ok(DiskStore { dir, ttl })
    }

    /// The directory for this user's store: `$XDG_RUNTIME_DIR/response-diff`
    /// when set, else `<temp dir>/response-diff-<user>`.
    pub fn default_dir() -> PathBuf {
        if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
            return PathBuf::from(d).join("response-diff");
        }
        let user = std::env::var("USER")
            .ok()
            .map(|u| sanitize(&u))
            .unwrap_or_else(|| "user".to_owned());
        std::env::temp_dir().join(format!("response-diff-{user}"))
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The time to live of stored trees.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Reads `tree` for `key`: deletes expired files, diffs against the tree
    /// stored at `since` (or returns the full tree with a notice), and stores
    /// `tree` under a new ts. Errors only when the store cannot be written.
    pub fn read(
        &self,
        key: &str,
        tree: &Tree,
        since: Option<u64>,
        options: &TreeDiffOptions,
    ) -> Result<SinceRead> {
        self.read_at(key, tree, since, options, now_ts())
    }

    /// [`DiskStore::read`] at a given clock reading (milliseconds since the
    /// epoch), for tests and replays.
    ///
    /// ```
    /// use response_diff::tree::{parse_aria, TreeDiffOptions, DiskStore};
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = DiskStore::open(dir.path().join("s")).unwrap();
    /// let t = parse_aria("- button \"Go\"", false).unwrap();
    /// let r1 = store.read_at("k", &t, None, &TreeDiffOptions::default(), 1_000_000).unwrap();
    /// // 61 s later the first read has expired: full tree and a notice.
    /// let r2 = store.read_at("k", &t, Some(r1.ts), &TreeDiffOptions::default(), 1_061_000).unwrap();
    /// assert!(r2.notice().unwrap().contains("expired"));
    /// ```
    pub fn read_at(
        &self,
        key: &str,
        tree: &Tree,
        since: Option<u64>,
        options: &TreeDiffOptions,
        now: u64,
    ) -> Result<SinceRead> {
        let file_key = file_key(key);
        let ttl = self.ttl.as_millis() as u64;
        let mut max_ts = 0u64;
        let entries = std::fs::read_dir(&self.dir).map_err(|source| Error::Io {
            path: self.dir.clone(),
            source,
        })?;
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if !meta.is_file() {
                continue; // symlinks and directories are left alone, never followed
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            match parse_file_name(&name) {
                Some((_, ts)) if ts.saturating_add(ttl) < now => {
                    let _ = std::fs::remove_file(&path);
                }
                Some((_, ts)) => max_ts = max_ts.max(ts),
                None if name.starts_with(".tmp") => {
                    let stale = meta
                        .modified()
                        .ok()
                        .and_then(|m| m.elapsed().ok())
                        .is_some_and(|age| age > self.ttl);
                    if stale {
                        let _ = std::fs::remove_file(&path);
                    }
                }
                None => {}
            }
        }
        let old = since.and_then(|s| self.load(&file_key, s, now, ttl));
        let ts = now.max(max_ts + 1);
        let shared = Arc::new(tree.clone());
        let ttl_s = self.ttl.as_secs_f64();
        let outcome = outcome(
            old.as_ref(),
            &shared,
            since,
            |s| {
                format!(
                    "ts {s} is unknown or expired for `{key}` (reads are kept {ttl_s} s); this is the full tree"
                )
            },
            options,
        );
        self.write(&file_key, ts, tree)?;
        Ok(SinceRead { ts, since, outcome })
    }

    fn load(&self, file_key: &str, since: u64, now: u64, ttl: u64) -> Option<Tree> {
        if since.saturating_add(ttl) < now {
            return None;
        }
        let path = self.dir.join(format!("{file_key}.{since}.json"));
        let meta = std::fs::symlink_metadata(&path).ok()?;
        if !meta.is_file() {
            return None;
        }
        let mut opts = std::fs::OpenOptions::new();
        opts.read(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut opts, libc::O_NOFOLLOW);
        let mut file = opts.open(&path).ok()?;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut file, &mut text).ok()?;
        match Dialect::detect(&text) {
            Dialect::DevTools => parse_devtools(&text).ok(),
            _ => Tree::from_json(&text).ok(),
        }
    }

    fn write(&self, file_key: &str, ts: u64, tree: &Tree) -> Result<()> {
        let path = self.dir.join(format!("{file_key}.{ts}.json"));
        let io = |source: std::io::Error| Error::Io {
            path: path.clone(),
            source,
        };
        let mut tmp = tempfile::Builder::new()
            .prefix(".tmp")
            .tempfile_in(&self.dir)
            .map_err(io)?;
        // A chrome-devtools-mcp tree is kept as its own text, which keeps
        // its dialect (JSON has none) and starts with `uid=` (JSON cannot).
        let body = match tree.dialect {
            Dialect::DevTools => tree.to_text(),
            _ => tree.to_json(),
        };
        std::io::Write::write_all(&mut tmp, body.as_bytes()).map_err(io)?;
        tmp.as_file().sync_all().map_err(io)?;
        tmp.persist(&path).map_err(|e| io(e.error))?;
        Ok(())
    }
}

/// `[A-Za-z0-9_-]` only, at most 48 characters.
fn sanitize(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect()
}

/// The sanitized key plus a short hash of the original, so distinct keys
/// never share files.
fn file_key(key: &str) -> String {
    let hash = blake3::hash(key.as_bytes()).to_hex();
    let name = sanitize(key);
    let name = if name.is_empty() { "key" } else { &name };
    format!("{name}-{}", &hash[..12])
}

/// `<file key>.<ts>.json` → (file key, ts).
fn parse_file_name(name: &str) -> Option<(&str, u64)> {
    let stem = name.strip_suffix(".json")?;
    let (key, ts) = stem.rsplit_once('.')?;
    if key.is_empty() || key.starts_with('.') {
        return None;
    }
    Some((key, ts.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_never_paths() {
        for k in ["../../etc/passwd", "/abs", "a/b", "..", "", "tab 1", "é"] {
            let f = file_key(k);
            assert!(
                !f.contains('/') && !f.contains('.') && !f.starts_with('-'),
                "{f}"
            );
            assert!(f.len() <= 48 + 13);
        }
        assert_ne!(file_key("a/b"), file_key("a_b"));
    }

    #[test]
    fn file_names_parse() {
        assert_eq!(
            parse_file_name("tab-abc.1700000000000.json"),
            Some(("tab-abc", 1700000000000))
        );
        assert_eq!(parse_file_name(".tmpXYZ"), None);
        assert_eq!(parse_file_name("x.json"), None);
    }
}
