//! What the operator chose about responses, with @playwright/mcp's flag
//! names and values: the snapshot mode, the console level, images, the
//! language of the code lines and how file paths are printed. The engine
//! applies them; `crate::config` reads them from the flags.

use std::path::{Path, PathBuf};

/// `--snapshot-mode`: what action responses carry of the page. The `mcp`
/// command's default is [`SnapshotMode::Diff`]; an engine made in code
/// (`EngineConfig::default()`) answers in full unless its expectations
/// say otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SnapshotMode {
    /// The smallest lossless answer against what the agent last saw: a
    /// patch or a line diff, the full snapshot when that is smaller or
    /// after a navigation to another document (the `mcp` default).
    Diff,
    /// The whole snapshot every time (@playwright/mcp's default).
    #[default]
    Full,
    /// No snapshot in action responses; `browser_snapshot` still reads
    /// the page.
    None,
}

/// `--console-level`: the least severe console messages shown; each level
/// includes the more severe ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum ConsoleLevel {
    /// Errors (`console.error`, failed assertions, uncaught exceptions).
    Error,
    /// And warnings.
    Warning,
    /// And `console.log`, `console.info` and the like (the default).
    #[default]
    Info,
    /// And `console.debug`, `console.trace`, groups.
    Debug,
}

impl ConsoleLevel {
    /// The level of a message of this CDP type or log level, as
    /// @playwright/mcp sorts them.
    pub fn of(kind: &str) -> ConsoleLevel {
        match kind {
            "assert" | "error" => ConsoleLevel::Error,
            "warning" | "warn" => ConsoleLevel::Warning,
            "clear"
            | "debug"
            | "endGroup"
            | "profile"
            | "profileEnd"
            | "startGroup"
            | "startGroupCollapsed"
            | "trace"
            | "verbose" => ConsoleLevel::Debug,
            _ => ConsoleLevel::Info,
        }
    }

    /// Whether a message of this type is shown at this level.
    pub fn shows(self, kind: &str) -> bool {
        ConsoleLevel::of(kind) <= self
    }
}

/// `--image-responses`: whether screenshots go to the client as images.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ImageResponses {
    /// Text and images (the default).
    #[default]
    Allow,
    /// Text only: the image is left out (the text says where it went).
    Omit,
    /// A response that carries an image is the image alone.
    Only,
}

/// `--codegen`: the language of the "Ran Playwright code" lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Codegen {
    /// Playwright for TypeScript/JavaScript (the default).
    #[default]
    Typescript,
    /// Playwright for Python (sync API).
    Python,
    /// Playwright for Java.
    Java,
    /// Playwright for .NET (C#).
    Csharp,
    /// No code lines.
    None,
}

impl Codegen {
    /// The language of its code block, as @playwright/mcp names it.
    pub fn fence(self) -> &'static str {
        match self {
            Codegen::Python => "python",
            Codegen::Java => "java",
            Codegen::Csharp => "csharp",
            Codegen::Typescript | Codegen::None => "js",
        }
    }
}

/// `--file-paths`: how file paths are printed in results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FilePaths {
    /// Relative to the working directory (the workspace root) when under
    /// it, `./name` for a file right in it (the default).
    #[default]
    Relative,
    /// Absolute.
    Absolute,
}

impl FilePaths {
    /// `path` as printed in a result.
    pub fn show(self, path: &Path) -> String {
        if self == FilePaths::Absolute {
            return path.display().to_string();
        }
        let Ok(cwd) = std::env::current_dir() else {
            return path.display().to_string();
        };
        let cwd = cwd.canonicalize().unwrap_or(cwd);
        let full = path.canonicalize().unwrap_or_else(|_| path.to_owned());
        match full.strip_prefix(&cwd) {
            Ok(rel) if rel.parent().is_none_or(|p| p.as_os_str().is_empty()) => {
                format!("./{}", rel.display())
            }
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }
}

/// The response settings an engine applies.
#[derive(Debug, Clone, Default)]
pub struct ResponseOptions {
    /// `--snapshot-mode`.
    pub snapshot_mode: SnapshotMode,
    /// `--console-level`.
    pub console_level: ConsoleLevel,
    /// `--image-responses`.
    pub image_responses: ImageResponses,
    /// `--codegen`; `None` when not given (the code lines follow the
    /// expectation then).
    pub codegen: Option<Codegen>,
    /// `--file-paths`.
    pub file_paths: FilePaths,
    /// `--output-max-size`: old output files are removed past this many
    /// bytes in the output directory.
    pub output_max_size: Option<u64>,
    /// `--save-session`: the session's calls and responses are appended
    /// to this file.
    pub session_log: Option<PathBuf>,
    /// `--test-id-attribute` (`data-testid` when empty): the generated
    /// code locates an element carrying it by its test id.
    pub test_id_attribute: String,
    /// `--snapshot-boxes`: each element's box in snapshots.
    pub snapshot_boxes: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_levels_include_the_more_severe() {
        assert!(ConsoleLevel::Info.shows("error"));
        assert!(ConsoleLevel::Info.shows("log"));
        assert!(!ConsoleLevel::Info.shows("debug"));
        assert!(!ConsoleLevel::Error.shows("warning"));
        assert!(ConsoleLevel::Debug.shows("verbose"));
    }

    #[test]
    fn relative_paths_start_with_dot_in_the_working_directory() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(FilePaths::Relative.show(&cwd.join("a.pdf")), "./a.pdf");
        assert_eq!(
            FilePaths::Relative.show(&cwd.join("out/a.pdf")),
            "out/a.pdf"
        );
        assert_eq!(FilePaths::Relative.show(Path::new("/x/y.pdf")), "/x/y.pdf");
        assert_eq!(FilePaths::Absolute.show(Path::new("/x/y.pdf")), "/x/y.pdf");
    }
}
