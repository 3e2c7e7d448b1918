//! Modal states: a JavaScript dialog or a file chooser the page opened,
//! which the agent answers (`browser_handle_dialog`, `browser_file_upload`)
//! before any other tool acts on the page. The agent decides, not the
//! server (docs/DECISIONS.md D29); `--dialogs accept|dismiss` lets an
//! operator of an unattended run answer dialogs ahead.
//!
//! Also the rules a file must pass before it is handed to a page
//! ([`check_upload`]): a page can ask for a file, so a prompt-injected page
//! must not be able to make the agent upload `~/.ssh/id_ed25519`.

use std::path::{Component, Path, PathBuf};

/// What the server does with a JavaScript dialog (`--dialogs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DialogPolicy {
    /// Report it as a modal state; the agent answers (the default).
    #[default]
    Ask,
    /// Accept it at once (a prompt gets its default text) and report that.
    Accept,
    /// Dismiss it at once and report that.
    Dismiss,
}

/// A state the page waits in until the agent answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModalState {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    Dialog {
        /// The dialog's type, as CDP names it.
        kind: String,
        /// Its message.
        message: String,
        /// A prompt's default text.
        default_prompt: Option<String>,
    },
    /// A file input (or `showPicker`) asked for files.
    FileChooser {
        /// The input element (a backend node id).
        backend_node: i64,
        /// Whether it takes several files.
        multiple: bool,
    },
}

impl ModalState {
    /// Whether this is a dialog (which holds the page's scripts).
    pub fn is_dialog(&self) -> bool {
        matches!(self, ModalState::Dialog { .. })
    }

    /// The tool that answers it.
    pub fn cleared_by(&self) -> &'static str {
        match self {
            ModalState::Dialog { .. } => "browser_handle_dialog",
            ModalState::FileChooser { .. } => "browser_file_upload",
        }
    }

    /// What it is, as Playwright's servers word it (`"confirm" dialog with
    /// message "Delete?"`).
    pub fn describe(&self) -> String {
        match self {
            ModalState::Dialog {
                kind,
                message,
                default_prompt,
            } => {
                let mut s = format!("\"{kind}\" dialog with message {}", quote(message));
                if let Some(d) = default_prompt {
                    s.push_str(&format!(" and default text {}", quote(d)));
                }
                s
            }
            ModalState::FileChooser { multiple, .. } => format!(
                "File chooser for {}",
                if *multiple {
                    "several files"
                } else {
                    "one file"
                }
            ),
        }
    }

    /// The line of the "Modal state" section.
    pub fn line(&self) -> String {
        format!(
            "- [{}]: can be handled by {}",
            self.describe(),
            self.cleared_by()
        )
    }

    /// The error for a tool called while this state is open.
    pub fn refusal(&self, tool: &str) -> String {
        let how = match self {
            ModalState::Dialog { .. } => {
                "answer it first with browser_handle_dialog {accept: true|false, promptText?}"
            }
            ModalState::FileChooser { .. } => {
                "answer it first with browser_file_upload {paths: [...]} (an empty list cancels)"
            }
        };
        format!(
            "tool {tool} does not handle the modal state [{}]; {how}",
            self.describe()
        )
    }
}

/// JSON-style quoting, one line.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// At most this many files in one `browser_file_upload`.
pub const MAX_UPLOAD_FILES: usize = 100;

/// The upload roots: the operator's `--upload-root` directories, or the
/// server's working directory when none was given; each resolved through
/// symlinks. A root that does not exist is an error naming it.
pub fn upload_roots(given: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let dirs: Vec<PathBuf> = if given.is_empty() {
        vec![std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?]
    } else {
        given.to_vec()
    };
    dirs.iter()
        .map(|d| {
            let c = d
                .canonicalize()
                .map_err(|e| format!("--upload-root {}: {e}", d.display()))?;
            if c.is_dir() {
                Ok(c)
            } else {
                Err(format!("--upload-root {}: not a directory", d.display()))
            }
        })
        .collect()
}

/// Checks one path for upload and returns it resolved. The file must
/// exist, be a regular readable file once symlinks are resolved, lie under
/// one of `roots` (already resolved), and have no hidden component below
/// its root (`.ssh`, `.env`, `.git`: where keys live). The error names the
/// path and the rule it broke.
pub fn check_upload(path: &str, roots: &[PathBuf]) -> Result<PathBuf, String> {
    let shown = || {
        roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if path.is_empty() {
        return Err("an empty path cannot be uploaded; give a file's path".into());
    }
    let resolved = Path::new(path).canonicalize().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!("{path}: no such file")
        } else {
            format!("{path}: cannot be resolved ({e})")
        }
    })?;
    let Some(root) = roots.iter().find(|r| resolved.starts_with(r)) else {
        let via = if resolved != Path::new(path) {
            format!(" (it resolves to {})", resolved.display())
        } else {
            String::new()
        };
        return Err(format!(
            "{path}{via} is outside the upload roots ({}); only files under the server's working directory or an --upload-root directory can be uploaded",
            shown()
        ));
    };
    let below = resolved.strip_prefix(root).unwrap_or(&resolved);
    if below.components().any(|c| match c {
        Component::Normal(n) => n.to_string_lossy().starts_with('.'),
        _ => false,
    }) {
        return Err(format!(
            "{path} is a hidden file or lies in a hidden directory under {}; hidden files (.ssh, .env, …) are never uploaded",
            root.display()
        ));
    }
    let meta = std::fs::metadata(&resolved).map_err(|e| format!("{path}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{path} is not a regular file"));
    }
    std::fs::File::open(&resolved).map_err(|e| format!("{path} cannot be read ({e})"))?;
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (tempfile::TempDir, tempfile::TempDir, Vec<PathBuf>) {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("report.txt"), "ok").unwrap();
        std::fs::create_dir(root.path().join("sub")).unwrap();
        std::fs::write(root.path().join("sub/a.csv"), "a").unwrap();
        std::fs::write(outside.path().join("secret"), "key").unwrap();
        let roots = upload_roots(&[root.path().to_owned()]).unwrap();
        (root, outside, roots)
    }

    #[test]
    fn a_file_under_the_root_passes() {
        let (root, _o, roots) = setup();
        let p = root.path().join("sub/a.csv");
        let got = check_upload(p.to_str().unwrap(), &roots).unwrap();
        assert_eq!(got, p.canonicalize().unwrap());
        // A path with `..` that stays inside is fine once resolved.
        let p = root.path().join("sub/../report.txt");
        assert!(check_upload(p.to_str().unwrap(), &roots).is_ok());
    }

    #[test]
    fn outside_the_root_is_refused_with_the_rule() {
        let (root, outside, roots) = setup();
        let p = outside.path().join("secret");
        let e = check_upload(p.to_str().unwrap(), &roots).unwrap_err();
        assert!(e.contains("outside the upload roots"), "{e}");
        assert!(e.contains("--upload-root"), "{e}");
        let p = root.path().join("../").join(
            outside
                .path()
                .file_name()
                .map(|n| Path::new(n).join("secret"))
                .unwrap(),
        );
        let e = check_upload(p.to_str().unwrap(), &roots).unwrap_err();
        assert!(e.contains("outside the upload roots"), "{e}");
    }

    #[test]
    fn a_symlink_pointing_outside_is_refused() {
        let (root, outside, roots) = setup();
        let link = root.path().join("innocent.txt");
        std::os::unix::fs::symlink(outside.path().join("secret"), &link).unwrap();
        let e = check_upload(link.to_str().unwrap(), &roots).unwrap_err();
        assert!(e.contains("resolves to"), "{e}");
        assert!(e.contains("outside the upload roots"), "{e}");
        // A link to a directory outside, used as a path prefix.
        let dir_link = root.path().join("docs");
        std::os::unix::fs::symlink(outside.path(), &dir_link).unwrap();
        let e = check_upload(dir_link.join("secret").to_str().unwrap(), &roots).unwrap_err();
        assert!(e.contains("outside the upload roots"), "{e}");
        // A link that stays inside is fine.
        let inner = root.path().join("latest.csv");
        std::os::unix::fs::symlink(root.path().join("sub/a.csv"), &inner).unwrap();
        assert!(check_upload(inner.to_str().unwrap(), &roots).is_ok());
    }

    #[test]
    fn missing_directories_and_hidden_files_are_refused() {
        let (root, _o, roots) = setup();
        let e = check_upload(root.path().join("nope.txt").to_str().unwrap(), &roots).unwrap_err();
        assert!(e.ends_with("no such file"), "{e}");
        let e = check_upload(root.path().join("sub").to_str().unwrap(), &roots).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        std::fs::create_dir(root.path().join(".ssh")).unwrap();
        std::fs::write(root.path().join(".ssh/id_ed25519"), "k").unwrap();
        let e = check_upload(
            root.path().join(".ssh/id_ed25519").to_str().unwrap(),
            &roots,
        )
        .unwrap_err();
        assert!(e.contains("hidden"), "{e}");
        assert!(check_upload("", &roots).is_err());
    }

    #[test]
    fn an_unreadable_file_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let (root, _o, roots) = setup();
        let p = root.path().join("locked.txt");
        std::fs::write(&p, "x").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
        let r = check_upload(p.to_str().unwrap(), &roots);
        // The rule is "readable by the server": root reads a 000 file.
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            assert!(r.is_ok(), "{r:?}");
        } else {
            assert!(r.unwrap_err().contains("cannot be read"));
        }
    }

    #[test]
    fn roots_must_exist() {
        let e = upload_roots(&[PathBuf::from("/no/such/dir")]).unwrap_err();
        assert!(e.contains("--upload-root /no/such/dir"), "{e}");
    }

    #[test]
    fn states_are_worded_like_playwright() {
        let d = ModalState::Dialog {
            kind: "confirm".into(),
            message: "Delete 3 items?".into(),
            default_prompt: None,
        };
        assert_eq!(
            d.line(),
            "- [\"confirm\" dialog with message \"Delete 3 items?\"]: can be handled by browser_handle_dialog"
        );
        assert!(d.refusal("browser_click").contains("browser_handle_dialog"));
    }
}
