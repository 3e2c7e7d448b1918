//! Downloads: the browser saves each file in the output directory
//! (`--output-dir`, Playwright's flag; default a fresh temporary
//! directory) under a GUID, and when it completes the file is renamed to
//! its suggested name (made safe and unique), so the response can report
//! name, size and path.
//!
//! Download events are browser-level (`Browser.downloadWillBegin`,
//! `Browser.downloadProgress`): they come with no session id, so they are
//! read by a listener on the browser session.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::error::lock;

/// One download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    guid: String,
    /// The frame that started it (a tab's main frame id is its target id).
    frame: String,
    /// The name the site suggested.
    pub name: String,
    /// Where it is saved, once complete.
    pub path: Option<PathBuf>,
    /// Its size in bytes, once complete.
    pub size: Option<u64>,
    /// `inProgress`, `completed` or `canceled`.
    pub state: String,
    reported: bool,
}

/// The downloads of a browser session.
#[derive(Debug, Default)]
pub struct Downloads {
    dir: PathBuf,
    list: Vec<Download>,
    /// `dir` was made for this session (no `--output-dir`): it goes when
    /// the session ends with nothing saved in it.
    made: bool,
}

impl Drop for Downloads {
    fn drop(&mut self) {
        if self.made {
            // Only an empty directory is removed: its files are the user's.
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

/// At most this many downloads are remembered (the oldest reported ones
/// are forgotten first; the files stay).
const KEPT: usize = 1_000;

static DIRS: AtomicU64 = AtomicU64::new(0);

/// The output directory: `given` (created if needed), or a fresh
/// directory under the system's temporary directory. Its files outlive
/// the server: they are the user's (a fresh one left empty is removed with
/// the session's [`Downloads`]).
pub fn output_dir(given: Option<&Path>) -> std::io::Result<PathBuf> {
    let dir = match given {
        Some(d) => d.to_owned(),
        None => std::env::temp_dir().join(format!(
            "response-diff-output-{}-{}",
            std::process::id(),
            DIRS.fetch_add(1, Ordering::Relaxed)
        )),
    };
    std::fs::create_dir_all(&dir)?;
    dir.canonicalize()
}

impl Downloads {
    /// Downloads saved in `dir`; `made` when [`output_dir`] made it for
    /// this session (then it is removed at the end if still empty).
    pub fn new(dir: PathBuf, made: bool) -> Downloads {
        Downloads {
            dir,
            list: Vec::new(),
            made,
        }
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Handles a browser-level event.
    pub fn on_event(&mut self, method: &str, p: &Value) {
        let s = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or_default();
        match method {
            "Browser.downloadWillBegin" => {
                if self.list.len() >= KEPT
                    && let Some(i) = self.list.iter().position(|d| d.reported)
                {
                    self.list.remove(i);
                }
                self.list.push(Download {
                    guid: s("guid").to_owned(),
                    frame: s("frameId").to_owned(),
                    name: s("suggestedFilename").to_owned(),
                    path: None,
                    size: None,
                    state: "inProgress".into(),
                    reported: false,
                });
            }
            "Browser.downloadProgress" => {
                let state = s("state");
                let dir = self.dir.clone();
                let Some(d) = self.list.iter_mut().find(|d| d.guid == s("guid")) else {
                    return;
                };
                if state == "completed" && d.path.is_none() {
                    let from = dir.join(&d.guid);
                    let to = unique(&dir, &safe_name(&d.name));
                    let saved = match std::fs::rename(&from, &to) {
                        Ok(()) => to,
                        Err(_) => from,
                    };
                    d.size = std::fs::metadata(&saved).ok().map(|m| m.len());
                    d.path = Some(saved);
                }
                d.state = state.to_owned();
            }
            _ => {}
        }
    }

    /// Whether a download not yet reported is still in progress. `only`:
    /// the frames of one client's tabs (several clients share a browser's
    /// downloads); `None`: every frame.
    pub fn in_progress(&self, only: Option<&[String]>) -> bool {
        self.list
            .iter()
            .any(|d| !d.reported && d.state == "inProgress" && d.of(only))
    }

    /// Whether a download began that was not reported yet.
    pub fn has_new(&self, only: Option<&[String]>) -> bool {
        self.list.iter().any(|d| !d.reported && d.of(only))
    }

    /// The downloads not yet reported, marked reported.
    pub fn take_new(&mut self, only: Option<&[String]>) -> Vec<Download> {
        let mut out = Vec::new();
        for d in self.list.iter_mut().filter(|d| !d.reported && d.of(only)) {
            d.reported = d.state != "inProgress";
            out.push(d.clone());
        }
        out
    }
}

impl Download {
    fn of(&self, only: Option<&[String]>) -> bool {
        only.is_none_or(|frames| frames.contains(&self.frame))
    }
}

/// Waits (at most `timeout`) for downloads started and not yet reported
/// to finish.
pub fn wait(downloads: &Arc<Mutex<Downloads>>, only: Option<&[String]>, timeout: Duration) {
    let deadline = Instant::now() + timeout;
    while lock(downloads).in_progress(only) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A file name that is safe in the output directory: no directories, no
/// leading dot, no control characters, at most 200 bytes.
pub fn safe_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let mut s: String = base
        .chars()
        .map(|c| if c.is_control() || c == ':' { '_' } else { c })
        .collect();
    s = s.trim_start_matches('.').trim().to_owned();
    while s.len() > 200 {
        s.pop();
    }
    if s.is_empty() { "download".into() } else { s }
}

/// `dir/name`, or `dir/name (1).ext`, … when taken.
fn unique(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(name);
    if !first.exists() {
        return first;
    }
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s, format!(".{e}")),
        _ => (name, String::new()),
    };
    (1..)
        .map(|i| dir.join(format!("{stem} ({i}){ext}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_safe_and_unique() {
        assert_eq!(safe_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_name(".bashrc"), "bashrc");
        assert_eq!(safe_name(""), "download");
        assert_eq!(safe_name("a\nb.txt"), "a_b.txt");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("r.csv"), "").unwrap();
        assert_eq!(unique(dir.path(), "r.csv"), dir.path().join("r (1).csv"));
    }

    #[test]
    fn a_directory_made_for_the_session_goes_only_when_empty() {
        let tmp = tempfile::tempdir().unwrap();
        let (empty, used, named) = (
            tmp.path().join("empty"),
            tmp.path().join("used"),
            tmp.path().join("named"),
        );
        for d in [&empty, &used, &named] {
            std::fs::create_dir(d).unwrap();
        }
        std::fs::write(used.join("report.csv"), "a,b").unwrap();
        drop(Downloads::new(empty.clone(), true));
        drop(Downloads::new(used.clone(), true));
        drop(Downloads::new(named.clone(), false));
        assert!(!empty.exists(), "an empty directory of its own stays");
        assert!(used.join("report.csv").exists(), "a saved file went");
        assert!(named.exists(), "--output-dir's directory went");
    }
}
