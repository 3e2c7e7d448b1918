//! What happens to an answer after the core printed it, by the operator's
//! flags: images kept, left out or sent alone (`--image-responses`), the
//! call and its answer appended to the session log (`--save-session`), and
//! the oldest output files removed past `--output-max-size`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};

use super::state::{Engine, Output};
use crate::options::ImageResponses;
use crate::tools::Parsed;

/// Makes the session log's folder, `session-<ms since the epoch>` in the
/// output directory (a fresh temporary one when none is given), and
/// returns the log's path. Says where on stderr, as @playwright/mcp does.
pub fn session_log_path(output_dir: Option<&Path>) -> Result<PathBuf> {
    let dir = crate::downloads::output_dir(output_dir)
        .context("creating the output directory (--output-dir)")?;
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let folder = dir.join(format!("session-{ms}"));
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("creating {} (--save-session)", folder.display()))?;
    eprintln!("Session: {}", folder.display());
    Ok(folder.join("session.md"))
}

impl Engine {
    /// Applies the operator's answer settings to a call's answer.
    pub(super) fn finish(
        &mut self,
        parsed: &Parsed,
        mut out: Output,
        started: SystemTime,
    ) -> Output {
        match self.config.response.image_responses {
            ImageResponses::Allow => {}
            ImageResponses::Omit => out.images.clear(),
            ImageResponses::Only if !out.images.is_empty() && !out.is_error => out.text.clear(),
            ImageResponses::Only => {}
        }
        if let Some(log) = self.config.response.session_log.clone()
            && let Err(e) = append_log(&log, parsed, &out)
        {
            tracing::warn!("--save-session: writing {}: {e:#}", log.display());
        }
        if let Some(max) = self.config.response.output_max_size
            && let Some(dir) = self.output_dir_if_known()
        {
            evict(&dir, max, started);
        }
        out
    }

    /// The output directory, when one is known without starting a browser.
    fn output_dir_if_known(&self) -> Option<PathBuf> {
        self.config.browser.output_dir.clone().or_else(|| {
            self.session
                .as_ref()
                .map(|s| crate::error::lock(s.downloads()).dir().to_owned())
        })
    }
}

/// Appends a call and its answer to the session log (Markdown).
fn append_log(log: &Path, parsed: &Parsed, out: &Output) -> Result<()> {
    let args = serde_json::to_string_pretty(&parsed.args).unwrap_or_default();
    let args = crate::secrets::scrub(&args).into_owned();
    let mut text = format!(
        "\n### Tool call: {}\n- Args\n```json\n{args}\n```\n- Result{}\n",
        parsed.tool,
        if out.is_error { " (error)" } else { "" }
    );
    if !out.text.is_empty() {
        text.push_str(&format!("````markdown\n{}\n````\n", out.text));
    }
    if !out.images.is_empty() {
        text.push_str(&format!("- {} image(s)\n", out.images.len()));
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)?;
    f.write_all(text.as_bytes())?;
    Ok(())
}

/// Removes the oldest files under `dir` until it holds at most `max`
/// bytes; files written since `started` (this call's) stay.
fn evict(dir: &Path, max: u64, started: SystemTime) {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(meta) = e.metadata() else { continue };
            if meta.is_dir() {
                stack.push(e.path());
            } else if meta.is_file() {
                let when = meta.modified().unwrap_or(UNIX_EPOCH);
                files.push((when, meta.len(), e.path()));
            }
        }
    }
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    if total <= max {
        return;
    }
    files.sort();
    for (when, size, path) in files {
        if total <= max {
            break;
        }
        if when >= started {
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            tracing::info!(
                "removed {} ({size} bytes): the output directory is over --output-max-size {max}",
                path.display()
            );
            total -= size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eviction_removes_the_oldest_and_keeps_this_calls_files() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.bin");
        let mid = dir.path().join("sub/mid.bin");
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        std::fs::write(&old, vec![0u8; 100]).unwrap();
        std::fs::write(&mid, vec![0u8; 100]).unwrap();
        let past = SystemTime::now() - std::time::Duration::from_secs(60);
        let f = std::fs::File::options().write(true).open(&old).unwrap();
        f.set_modified(past - std::time::Duration::from_secs(10))
            .unwrap();
        let f = std::fs::File::options().write(true).open(&mid).unwrap();
        f.set_modified(past).unwrap();
        let started = SystemTime::now() - std::time::Duration::from_secs(1);
        let new = dir.path().join("new.bin");
        std::fs::write(&new, vec![0u8; 100]).unwrap();
        evict(dir.path(), 150, started);
        assert!(!old.exists() && !mid.exists() && new.exists());
    }
}
