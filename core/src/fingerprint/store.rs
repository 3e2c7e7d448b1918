//! Named baselines and recently captured fingerprints.

use crate::prelude::*;
use alloc::collections::VecDeque;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::lru::LruCache;
use serde::Deserialize;

use super::compare::{FingerprintComparison, Severity, compare};
use super::model::{Fingerprint, MAX_FINGERPRINT_BYTES};
use crate::sync::lock;
use crate::{Error, Result};

/// Default bound on the fingerprints a store keeps in memory: 16 MiB of
/// their compact JSON, named baselines and recent captures together.
pub const DEFAULT_MEMORY_LIMIT: usize = 16 * 1024 * 1024;

/// Default number of recently captured fingerprints kept for `against`-by-hash.
pub const DEFAULT_RECENT_LIMIT: usize = 32;

/// Shortest hash prefix accepted by [`BaselineStore::get`].
pub const MIN_HASH_PREFIX: usize = 4;

/// Checks a baseline name: 1 to 64 of `A-Z a-z 0-9 . _ -`, not `.` or `..`,
/// not ending in `.`, and not a Windows device name (`con`, `nul`, `com1`,
/// `lpt1.json`…). A name is never a path.
///
/// ```
/// use response_diff::fingerprint::validate_name;
///
/// assert!(validate_name("dashboard-v2.1").is_ok());
/// assert!(validate_name("../etc/passwd").is_err());
/// assert!(validate_name("CON").is_err());
/// assert!(validate_name("").is_err());
/// ```
pub fn validate_name(name: &str) -> Result<()> {
    let refuse = |reason: &str| {
        Err(Error::InvalidName {
            name: name.chars().take(80).collect(),
            reason: format!("{reason}; use 1 to 64 of A-Z a-z 0-9 . _ -"),
        })
    };
    if name.is_empty() {
        return refuse("a baseline name cannot be empty");
    }
    if name.len() > 64 {
        return refuse(&format!("it is {} characters long", name.chars().count()));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return refuse(&format!("{bad:?} is not allowed (a name is never a path)"));
    }
    if name == "." || name == ".." {
        return refuse("`.` and `..` are not names");
    }
    if name.ends_with('.') {
        return refuse("a name cannot end with `.`");
    }
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let device = matches!(stem.as_str(), "con" | "prn" | "aux" | "nul")
        || ((stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit());
    if device {
        return refuse("it is a Windows device name");
    }
    Ok(())
}

struct Entry {
    fp: Arc<Fingerprint>,
    bytes: usize,
}

/// Named baselines (and recently captured fingerprints), bounded in
/// memory, optionally persisted in a private directory.
///
/// - Names follow [`validate_name`]; anything else is [`Error::InvalidName`].
/// - Memory: at most [`DEFAULT_MEMORY_LIMIT`] bytes of fingerprint JSON in
///   total (configurable); past it, the oldest recent capture goes first,
///   then the least recently used named baseline. With a directory, an
///   evicted baseline is read back from disk when asked for; without one it
///   is gone. At most [`DEFAULT_RECENT_LIMIT`] recent captures.
/// - Directory: created `0700` (tightened to `0700` if it exists), files
///   `<name>.json` written `0600` through a temporary file and a rename, so
///   a reader never sees half a file; symbolic links are never followed
///   (the directory itself, and each file, is refused if it is one).
///   Temporary files a killed writer left behind are ignored, and deleted
///   when a store is opened once they are older than [`STALE_TEMP_AGE`].
/// - [`get`](Self::get) takes a name, or the hash (or a unique prefix of at
///   least [`MIN_HASH_PREFIX`] hex digits) of a fingerprint in memory.
///
/// ```
/// use response_diff::fingerprint::{BaselineStore, Fingerprint, Severity, Status};
///
/// let store = BaselineStore::new();
/// let fp = Fingerprint::from_json(r#"{"url": "/", "structure": {}}"#)?;
/// store.save("home", &fp)?;
/// store.record(&fp);
///
/// let cmp = store.compare("home", &fp, Severity::Warning)?;
/// assert_eq!(cmp.status, Status::Unchanged);
/// // By hash prefix:
/// assert_eq!(store.get(&fp.hash[..6])?.hash, fp.hash);
/// // A missing baseline is a clear error.
/// assert!(store.get("checkout").is_err());
/// # Ok::<(), response_diff::Error>(())
/// ```
pub struct BaselineStore {
    memory_limit: usize,
    recent_limit: usize,
    dir: Option<PathBuf>,
    // One lock for the memory and the directory: a save's file and its
    // memory entry change together, so a reader never sees one without the
    // other. Hosts share a store across threads without a lock of their own.
    state: Mutex<State>,
}

/// What a [`BaselineStore`] holds in memory.
struct State {
    named: LruCache<String, Entry>,
    recent: VecDeque<Entry>,
    bytes: usize,
}

impl Default for BaselineStore {
    fn default() -> Self {
        BaselineStore::new()
    }
}

impl core::fmt::Debug for BaselineStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let state = lock(&self.state);
        f.debug_struct("BaselineStore")
            .field("named", &state.named.len())
            .field("recent", &state.recent.len())
            .field("bytes", &state.bytes)
            .field("memory_limit", &self.memory_limit)
            .field("dir", &self.dir)
            .finish()
    }
}

/// Bounds and directory of a [`BaselineStore`].
///
/// ```
/// use response_diff::fingerprint::{BaselineStore, BaselineStoreConfig};
///
/// let dir = std::env::temp_dir().join(format!("rd-doc-{}", std::process::id()));
/// let store = BaselineStore::with_config(BaselineStoreConfig::default().directory(&dir).memory_limit(1 << 20))?;
/// assert_eq!(store.directory(), Some(dir.as_path()));
/// let c = BaselineStoreConfig::from_json(r#"{"recentLimit": 8}"#)?;
/// assert_eq!((c.recent_limit, c.directory), (8, None));
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), response_diff::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BaselineStoreConfig {
    /// Bytes of fingerprint JSON kept in memory (default
    /// [`DEFAULT_MEMORY_LIMIT`]).
    pub memory_limit: usize,
    /// Recent captures kept for lookup by hash (default
    /// [`DEFAULT_RECENT_LIMIT`]).
    pub recent_limit: usize,
    /// Persist named baselines in this directory (default `None`: memory
    /// only).
    pub directory: Option<PathBuf>,
}

impl Default for BaselineStoreConfig {
    fn default() -> Self {
        BaselineStoreConfig {
            memory_limit: DEFAULT_MEMORY_LIMIT,
            recent_limit: DEFAULT_RECENT_LIMIT,
            directory: None,
        }
    }
}

/// The JSON form of [`BaselineStoreConfig`] shared by the bindings.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct BaselineStoreConfigJson {
    directory: Option<PathBuf>,
    memory_limit: Option<usize>,
    recent_limit: Option<usize>,
}

impl BaselineStoreConfig {
    /// Sets [`BaselineStoreConfig::memory_limit`].
    pub fn memory_limit(mut self, bytes: usize) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// Sets [`BaselineStoreConfig::recent_limit`].
    pub fn recent_limit(mut self, count: usize) -> Self {
        self.recent_limit = count;
        self
    }

    /// Sets [`BaselineStoreConfig::directory`].
    pub fn directory(mut self, dir: impl Into<PathBuf>) -> Self {
        self.directory = Some(dir.into());
        self
    }

    /// Parses `{"directory": "…", "memoryLimit": …, "recentLimit": …}`
    /// (every field optional), the form the bindings accept.
    pub fn from_json(json: &str) -> Result<BaselineStoreConfig> {
        let j: BaselineStoreConfigJson = crate::json::from_str(json, "baselineStore")?;
        let d = BaselineStoreConfig::default();
        Ok(BaselineStoreConfig {
            memory_limit: j.memory_limit.unwrap_or(d.memory_limit),
            recent_limit: j.recent_limit.unwrap_or(d.recent_limit),
            directory: j.directory,
        })
    }
}

impl BaselineStore {
    /// An in-memory store with the default bounds.
    pub fn new() -> Self {
        Self::in_memory(BaselineStoreConfig::default())
    }

    /// A store with `config`'s bounds, persisted in its directory when it
    /// names one (created `0700` if missing, or checked: an error when it
    /// cannot be used).
    pub fn with_config(config: BaselineStoreConfig) -> Result<Self> {
        if let Some(dir) = &config.directory {
            prepare_dir(dir)?;
            remove_stale_temps(dir);
        }
        Ok(Self::in_memory(config))
    }

    /// A store persisted in `dir` (created `0700` if missing), default
    /// bounds: `with_config(BaselineStoreConfig::default().directory(dir))`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self> {
        BaselineStore::with_config(BaselineStoreConfig::default().directory(dir))
    }

    /// The store for `config` without touching its directory.
    fn in_memory(config: BaselineStoreConfig) -> Self {
        BaselineStore {
            memory_limit: config.memory_limit,
            recent_limit: config.recent_limit,
            dir: config.directory,
            state: Mutex::new(State {
                named: LruCache::unbounded(),
                recent: VecDeque::new(),
                bytes: 0,
            }),
        }
    }

    /// The persistence directory, if any.
    pub fn directory(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Saves `fp` as the baseline `name`, replacing any baseline of that
    /// name (on disk first, when there is a directory).
    pub fn save(&self, name: &str, fp: &Fingerprint) -> Result<()> {
        validate_name(name)?;
        let json = fp.to_json();
        if json.len() > self.memory_limit {
            return Err(Error::InputTooLarge {
                what: "baseline",
                size: json.len(),
                limit: self.memory_limit,
            });
        }
        let mut state = lock(&self.state);
        if let Some(dir) = &self.dir {
            write_atomic(dir, name, json.as_bytes())?;
        }
        state.insert_named(name, Arc::new(fp.clone()), json.len(), self.memory_limit);
        Ok(())
    }

    /// Remembers `fp` as recently captured, so that [`get`](Self::get) and
    /// [`compare`](Self::compare) find it by its hash. Memory only.
    pub fn record(&self, fp: &Fingerprint) {
        let bytes = fp.to_json().len();
        if bytes > self.memory_limit || self.recent_limit == 0 {
            return;
        }
        let fp = Arc::new(fp.clone());
        let mut state = lock(&self.state);
        if let Some(pos) = state.recent.iter().position(|e| e.fp.hash == fp.hash) {
            if let Some(old) = state.recent.remove(pos) {
                state.bytes = state.bytes.saturating_sub(old.bytes);
            }
        }
        state.recent.push_back(Entry { fp, bytes });
        state.bytes += bytes;
        while state.recent.len() > self.recent_limit {
            if let Some(old) = state.recent.pop_front() {
                state.bytes = state.bytes.saturating_sub(old.bytes);
            }
        }
        state.evict(self.memory_limit);
    }

    /// Finds `against`: a baseline name (in memory, then on disk), else the
    /// hash or a unique hash prefix of a fingerprint in memory.
    ///
    /// Errors: [`Error::InvalidName`] for a string that is not a valid name
    /// or for an ambiguous prefix; [`Error::BaselineNotFound`] (listing the
    /// known names) when nothing matches.
    pub fn get(&self, against: &str) -> Result<Arc<Fingerprint>> {
        validate_name(against)?;
        let mut state = lock(&self.state);
        if let Some(e) = state.named.get(against) {
            return Ok(e.fp.clone());
        }
        if let Some(dir) = &self.dir {
            if let Some(fp) = read_baseline(dir, against)? {
                let fp = Arc::new(fp);
                let bytes = fp.to_json().len();
                state.insert_named(against, fp.clone(), bytes, self.memory_limit);
                return Ok(fp);
            }
        }
        if against.len() >= MIN_HASH_PREFIX && against.chars().all(|c| c.is_ascii_hexdigit()) {
            let prefix = against.to_ascii_lowercase();
            let mut found: Vec<Arc<Fingerprint>> = Vec::new();
            let candidates = state
                .recent
                .iter()
                .rev()
                .chain(state.named.iter().map(|(_, e)| e));
            for e in candidates {
                if e.fp.hash.starts_with(&prefix) && !found.iter().any(|f| f.hash == e.fp.hash) {
                    found.push(e.fp.clone());
                }
            }
            match found.len() {
                0 => {}
                1 => return Ok(found.remove(0)),
                n => {
                    return Err(Error::InvalidName {
                        name: against.to_owned(),
                        reason: format!(
                            "the hash prefix matches {n} fingerprints; give more hex digits"
                        ),
                    });
                }
            }
        }
        let mut known = self.names_of(&state);
        known.truncate(20);
        Err(Error::BaselineNotFound {
            name: against.to_owned(),
            known,
        })
    }

    /// Compares `current` with the baseline (or recent capture) `against`.
    pub fn compare(
        &self,
        against: &str,
        current: &Fingerprint,
        threshold: Severity,
    ) -> Result<FingerprintComparison> {
        let baseline = self.get(against)?;
        Ok(compare(&baseline, current, threshold))
    }

    /// Removes the baseline `name` from memory and disk. Returns whether it existed.
    pub fn remove(&self, name: &str) -> Result<bool> {
        validate_name(name)?;
        let mut existed = false;
        let mut state = lock(&self.state);
        if let Some(e) = state.named.pop(name) {
            state.bytes = state.bytes.saturating_sub(e.bytes);
            existed = true;
        }
        if let Some(dir) = &self.dir {
            let path = dir.join(format!("{name}.json"));
            match fs::remove_file(&path) {
                Ok(()) => existed = true,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(source) => return Err(Error::Io { path, source }),
            }
        }
        Ok(existed)
    }

    /// Names of the baselines, in memory or on disk, sorted.
    pub fn names(&self) -> Vec<String> {
        self.names_of(&lock(&self.state))
    }

    fn names_of(&self, state: &State) -> Vec<String> {
        let mut names: Vec<String> = state.named.iter().map(|(k, _)| k.clone()).collect();
        let entries = self.dir.as_ref().and_then(|dir| fs::read_dir(dir).ok());
        if let Some(entries) = entries {
            for entry in entries.flatten() {
                let file = entry.file_name();
                let Some(file) = file.to_str() else { continue };
                let Some(name) = file.strip_suffix(".json") else {
                    continue;
                };
                let is_file = entry.file_type().map(|t| t.is_file()).unwrap_or(false);
                if is_file && validate_name(name).is_ok() {
                    names.push(name.to_owned());
                }
            }
        }
        names.sort();
        names.dedup();
        names
    }

    /// Bytes of fingerprint JSON held in memory.
    pub fn memory_usage(&self) -> usize {
        lock(&self.state).bytes
    }

    /// Named baselines held in memory.
    pub fn len(&self) -> usize {
        lock(&self.state).named.len()
    }

    /// True when no named baseline is held in memory.
    pub fn is_empty(&self) -> bool {
        lock(&self.state).named.is_empty()
    }
}

impl State {
    fn insert_named(&mut self, name: &str, fp: Arc<Fingerprint>, bytes: usize, limit: usize) {
        if let Some(old) = self.named.put(name.to_owned(), Entry { fp, bytes }) {
            self.bytes = self.bytes.saturating_sub(old.bytes);
        }
        self.bytes += bytes;
        self.evict(limit);
    }

    fn evict(&mut self, limit: usize) {
        while self.bytes > limit {
            if let Some(old) = self.recent.pop_front() {
                self.bytes = self.bytes.saturating_sub(old.bytes);
            } else if let Some((_, old)) = self.named.pop_lru() {
                self.bytes = self.bytes.saturating_sub(old.bytes);
            } else {
                break;
            }
        }
    }
}

fn io_err(path: &Path, source: io::Error) -> Error {
    Error::Io {
        path: path.to_owned(),
        source,
    }
}

fn prepare_dir(dir: &Path) -> Result<()> {
    match fs::symlink_metadata(dir) {
        Ok(meta) => {
            if meta.file_type().is_symlink() {
                return Err(io_err(
                    dir,
                    io::Error::other("is a symbolic link; refusing to follow it"),
                ));
            }
            if !meta.is_dir() {
                return Err(io_err(
                    dir,
                    io::Error::other("exists and is not a directory"),
                ));
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::{MetadataExt, PermissionsExt};
                // SAFETY: geteuid has no preconditions and cannot fail.
                let me = unsafe { libc::geteuid() };
                if meta.uid() != me {
                    return Err(io_err(
                        dir,
                        io::Error::other("is owned by another user; refusing to use it"),
                    ));
                }
                if meta.mode() & 0o777 != 0o700 {
                    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
                        .map_err(|e| io_err(dir, e))?;
                }
            }
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let mut builder = fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::DirBuilderExt;
                builder.mode(0o700);
            }
            builder.create(dir).map_err(|e| io_err(dir, e))?;
            #[cfg(unix)]
            {
                // The umask may have narrowed it further; make it exactly 0700.
                use std::os::unix::fs::PermissionsExt;
                fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
                    .map_err(|e| io_err(dir, e))?;
            }
            Ok(())
        }
        Err(e) => Err(io_err(dir, e)),
    }
}

fn no_follow(opts: &mut fs::OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    #[cfg(not(unix))]
    let _ = opts;
}

fn read_baseline(dir: &Path, name: &str) -> Result<Option<Fingerprint>> {
    let path = dir.join(format!("{name}.json"));
    let mut opts = fs::OpenOptions::new();
    opts.read(true);
    no_follow(&mut opts);
    #[cfg(not(unix))]
    if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(io_err(
            &path,
            io::Error::other("is a symbolic link; refusing to follow it"),
        ));
    }
    let mut file = match opts.open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            #[cfg(unix)]
            if e.raw_os_error() == Some(libc::ELOOP) {
                return Err(io_err(
                    &path,
                    io::Error::other("is a symbolic link; refusing to follow it"),
                ));
            }
            return Err(io_err(&path, e));
        }
    };
    let meta = file.metadata().map_err(|e| io_err(&path, e))?;
    if !meta.is_file() {
        return Err(io_err(&path, io::Error::other("is not a regular file")));
    }
    let size = usize::try_from(meta.len()).unwrap_or(usize::MAX);
    if size > MAX_FINGERPRINT_BYTES {
        return Err(Error::InputTooLarge {
            what: "baseline file",
            size,
            limit: MAX_FINGERPRINT_BYTES,
        });
    }
    let mut text = String::with_capacity(size);
    Read::by_ref(&mut file)
        .take(MAX_FINGERPRINT_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .map_err(|e| io_err(&path, e))?;
    Fingerprint::from_json(&text).map(Some)
}

/// A temporary file older than this was left by a writer that died (a
/// write takes milliseconds); opening the store deletes it.
pub const STALE_TEMP_AGE: core::time::Duration = core::time::Duration::from_secs(3600);

/// Deletes `.<name>.json.<random>.tmp` files older than [`STALE_TEMP_AGE`].
/// Best effort: a file that cannot be read or removed is left alone.
fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with('.') && name.ends_with(".tmp")) {
            continue;
        }
        let path = entry.path();
        let stale = fs::symlink_metadata(&path).is_ok_and(|m| {
            m.is_file()
                && m.modified()
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > STALE_TEMP_AGE)
        });
        if stale {
            let _ = fs::remove_file(&path);
        }
    }
}

fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let path = dir.join(format!("{name}.json"));
    let err = |e: io::Error| io_err(&path, e);
    // tempfile picks a fresh name, deletes the file if anything below fails
    // and renames it into place; the file is opened here, `create_new`
    // (never through a symlink) and 0600, so an error keeps its errno
    // (`tempfile_in` would wrap it). The `.<name>.json.….tmp` shape is what
    // remove_stale_temps recognizes.
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    no_follow(&mut opts);
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.json."))
        .suffix(".tmp")
        .make_in(dir, |p| opts.open(p))
        .map_err(err)?;
    tmp.write_all(bytes).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    // rename replaces a symlink at `path` itself, never its target.
    tmp.persist(&path).map_err(|e| err(e.error))?;
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
