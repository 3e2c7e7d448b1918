//! The command-line tools: `read`, `diff`, `tree-diff`, `fingerprint`,
//! `compare`. Each is a thin layer over the core and the engine.
//!
//! Exit codes follow diff(1): 0 nothing changed, 1 something changed (a
//! diff, a regression), 2 trouble.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use response_diff::diff::{DiffMode, DiffOptions, write_answer_releasing};
use response_diff::fingerprint::{BaselineStore, Severity, Status};
use response_diff::tree::{
    self, DiskStore, DiskStoreConfig, Filter, IdentityMode, ReadOutcome, Selector, Tree,
    TreeDiffFormat, TreeDiffOptions,
};
use serde_json::{Map, json};

use crate::browser::BrowserConfig;
use crate::engine::{Engine, EngineConfig, capture_fingerprint};
use crate::tools;

/// Browser flags shared by the commands that open pages (@playwright/mcp's
/// names and units; our older names are kept as aliases).
#[derive(Args, Clone, Debug, Default)]
pub struct BrowserFlags {
    /// Path to the browser executable (default: $CHROMIUM, Debian's
    /// chromium, then PATH; see --browser).
    #[arg(long, value_name = "PATH")]
    pub executable_path: Option<PathBuf>,
    /// Browser or Chrome channel: chromium (the default), chrome, chrome-beta,
    /// chrome-dev, chrome-canary, msedge, msedge-beta, msedge-dev,
    /// msedge-canary. firefox and webkit are refused: this server drives
    /// the browser over CDP.
    #[arg(long, value_name = "BROWSER")]
    pub browser: Option<String>,
    /// Run the browser headless: the default here (--headed shows it).
    #[arg(long, overrides_with = "headed")]
    pub headless: bool,
    /// Show the browser window instead of running headless.
    #[arg(long, overrides_with = "headless")]
    pub headed: bool,
    /// Enable Chromium's sandbox (the default unless running as root, where
    /// Chromium cannot run sandboxed).
    #[arg(long, overrides_with = "no_sandbox")]
    pub sandbox: bool,
    /// Disable Chromium's sandbox.
    #[arg(long, overrides_with = "sandbox")]
    pub no_sandbox: bool,
    /// Browser viewport size in pixels, WIDTHxHEIGHT, e.g. 1280x720
    /// (default 1280x800; --viewport is the old name).
    #[arg(long = "viewport-size", visible_alias = "viewport", value_parser = parse_viewport, value_name = "SIZE")]
    pub viewport: Option<(u32, u32)>,
    /// Profile directory (default: a fresh one, removed on exit).
    #[arg(long, value_name = "DIR")]
    pub user_data_dir: Option<PathBuf>,
    /// Name of the profile directory inside --user-data-dir to use, e.g.
    /// "Profile 1" (Chromium's --profile-directory).
    #[arg(long, value_name = "NAME")]
    pub profile_dir_name: Option<String>,
    /// Action timeout in milliseconds: clicks, typing, waiting for text,
    /// scripts (default 30000).
    #[arg(long, value_name = "MS", value_parser = parse_ms)]
    pub timeout_action: Option<u64>,
    /// Navigation timeout in milliseconds (default 30000).
    #[arg(long, value_name = "MS", value_parser = parse_ms)]
    pub timeout_navigation: Option<u64>,
    /// The longest wait after an action for the work it started
    /// (navigation, requests, DOM changes) to settle, in milliseconds
    /// (default: the action timeout).
    #[arg(long, value_name = "MS", value_parser = parse_ms)]
    pub timeout_settle: Option<u64>,
    /// The old timeout flag, in seconds: sets the action and navigation
    /// timeouts (--timeout-action and --timeout-navigation win).
    #[arg(long, value_name = "SECONDS")]
    pub action_timeout: Option<u64>,
    /// JavaScript dialogs: ask (the agent answers with browser_handle_dialog),
    /// or accept / dismiss them at once (unattended runs).
    #[arg(long, value_enum, default_value = "ask")]
    pub dialogs: crate::modal::DialogPolicy,
    /// Directory for output files: downloads, PDFs, storage states, saved
    /// sessions (default: a fresh temporary directory per browser session,
    /// removed when the session ends if nothing was saved in it).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Allow browser_file_upload from this directory (repeatable; default:
    /// the working directory).
    #[arg(long = "upload-root", value_name = "DIR")]
    pub upload_roots: Vec<PathBuf>,
    /// More Chromium flags (the config file's browser.launchOptions.args).
    #[arg(
        long = "chromium-arg",
        value_name = "FLAG",
        hide = true,
        allow_hyphen_values = true
    )]
    pub chromium_args: Vec<String>,
}

/// The default time limit of an action and of a navigation.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The default viewport.
pub const DEFAULT_VIEWPORT: (u32, u32) = (1280, 800);

impl BrowserFlags {
    /// The launch settings; the browser (`--browser`) and the sandbox are
    /// checked here, before anything starts.
    pub fn config(&self) -> Result<BrowserConfig> {
        let old = self.action_timeout.map(|s| Duration::from_secs(s.max(1)));
        let ms = |v: Option<u64>| v.map(|ms| Duration::from_millis(ms.max(1)));
        // A browser that is not Chromium is refused even when the
        // executable is given.
        let channel = crate::browser::Channel::parse(self.browser.as_deref())?;
        let executable = match &self.executable_path {
            Some(p) => Some(p.clone()),
            None => channel.executable()?,
        };
        let sandbox = if self.sandbox {
            if crate::browser::is_root() {
                bail!(
                    "--sandbox: Chromium cannot run sandboxed as root (uid 0); run the server as another user, or leave --sandbox out"
                );
            }
            true
        } else if self.no_sandbox {
            false
        } else {
            !crate::browser::is_root()
        };
        let mut extra_args = self.chromium_args.clone();
        if let Some(name) = &self.profile_dir_name {
            extra_args.push(format!("--profile-directory={name}"));
        }
        Ok(BrowserConfig {
            executable,
            headless: !self.headed,
            sandbox,
            viewport: self.viewport.unwrap_or(DEFAULT_VIEWPORT),
            user_data_dir: self.user_data_dir.clone(),
            action_timeout: ms(self.timeout_action).or(old).unwrap_or(DEFAULT_TIMEOUT),
            navigation_timeout: ms(self.timeout_navigation)
                .or(old)
                .unwrap_or(DEFAULT_TIMEOUT),
            settle_timeout: ms(self.timeout_settle),
            dialogs: self.dialogs,
            output_dir: self.output_dir.clone(),
            upload_roots: self.upload_roots.clone(),
            extra_args,
        })
    }
}

/// Milliseconds: a whole number (@playwright/mcp's timeouts).
pub fn parse_ms(s: &str) -> Result<u64, String> {
    let s = s.trim();
    s.parse::<u64>()
        .ok()
        .or_else(|| {
            s.parse::<f64>()
                .ok()
                .filter(|f| f.is_finite() && *f >= 0.0)
                .map(|f| f.round() as u64)
        })
        .ok_or_else(|| format!("`{s}` is not a number of milliseconds"))
}

fn parse_viewport(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{s}` is not WIDTHxHEIGHT, e.g. 1280x800"))?;
    let w: u32 = w
        .trim()
        .parse()
        .map_err(|_| format!("bad width in `{s}`"))?;
    let h: u32 = h
        .trim()
        .parse()
        .map_err(|_| format!("bad height in `{s}`"))?;
    if !(100..=8192).contains(&w) || !(100..=8192).contains(&h) {
        return Err(format!("viewport `{s}`: each side must be 100 to 8192"));
    }
    Ok((w, h))
}

/// `read`.
#[derive(Args, Debug)]
pub struct ReadArgs {
    /// Page to read.
    #[arg(long)]
    pub url: String,
    /// agent (one line per element, `+ - ~` for changes), yaml or json.
    #[arg(long, default_value = "agent")]
    pub format: String,
    /// The ts of an earlier read: print only what changed since.
    #[arg(long)]
    pub since: Option<u64>,
    /// Keep only these roles (comma-separated), e.g. button,link,textbox.
    #[arg(long, value_delimiter = ',')]
    pub roles: Vec<String>,
    /// Drop unnamed generic wrappers.
    #[arg(long)]
    pub prune: bool,
    /// Only the subtree of this ref or role (`e12`, `list "Cart"`).
    #[arg(long)]
    pub scope: Option<String>,
    /// Where reads are kept for --since (default: a private per-user directory).
    #[arg(long, value_name = "DIR")]
    pub store_dir: Option<PathBuf>,
    /// How long a read stays usable for --since, in seconds.
    #[arg(long, default_value_t = 60)]
    pub ttl: u64,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub browser: BrowserFlags,
}

/// `diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The earlier text.
    pub old: PathBuf,
    /// The later text.
    pub new: PathBuf,
    /// unified, split or minimal.
    #[arg(long)]
    pub format: Option<String>,
    /// diffOptions as JSON, e.g. '{"context": 1, "maxDiffLines": 200}'.
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,
}

/// `tree-diff`.
#[derive(Args, Debug)]
pub struct TreeDiffArgs {
    /// The earlier tree (aria snapshot text, or JSON).
    pub old: PathBuf,
    /// The later tree.
    pub new: PathBuf,
    /// agent, yaml, json, or patch (a snapshot patch of two aria snapshots,
    /// which `apply-patch` applies back).
    #[arg(long, default_value = "agent")]
    pub format: String,
    /// Keep only these roles (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub roles: Vec<String>,
    /// Drop unnamed generic wrappers.
    #[arg(long)]
    pub prune: bool,
    /// Only the subtree of this ref or role.
    #[arg(long)]
    pub scope: Option<String>,
    /// Ignore refs and match by content (for trees whose refs are renumbered).
    #[arg(long)]
    pub ignore_refs: bool,
}

/// `apply-patch`.
#[derive(Args, Debug)]
pub struct ApplyPatchArgs {
    /// The snapshot the patch was taken from (aria snapshot text).
    pub old: PathBuf,
    /// The snapshot patch (`tree-diff --format patch`, or a response's
    /// snapshot section); `-` reads it from stdin.
    pub patch: PathBuf,
    /// A snapshot the agent was shown earlier in the conversation, for
    /// elements the patch restores `as last shown` (repeat, oldest first).
    #[arg(long, value_name = "FILE")]
    pub seen: Vec<PathBuf>,
}

/// `apply-patch OLD PATCH [--seen FILE]…`: prints the new snapshot.
pub fn apply_patch(a: ApplyPatchArgs) -> Result<ExitCode> {
    let old = read_text(&a.old)?;
    let patch = if a.patch.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("reading the patch from stdin")?
    } else {
        read_text(&a.patch)?
    };
    let seen: Vec<String> = a.seen.iter().map(|p| read_text(p)).collect::<Result<_>>()?;
    let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
    println!("{}", tree::apply_patch_with(&old, &patch, &seen)?);
    Ok(ExitCode::SUCCESS)
}

/// `fingerprint`.
#[derive(Args, Debug)]
pub struct FingerprintArgs {
    /// Page to fingerprint.
    #[arg(long)]
    pub url: String,
    /// Save as this baseline name ([A-Za-z0-9._-], at most 64).
    #[arg(long, value_name = "NAME")]
    pub save: Option<String>,
    /// full, above_fold or a CSS selector.
    #[arg(long)]
    pub scope: Option<String>,
    /// minimal, standard or detailed.
    #[arg(long)]
    pub depth: Option<String>,
    /// Where baselines are kept (default: ~/.local/state/response-diff/baselines).
    #[arg(long, value_name = "DIR")]
    pub baseline_dir: Option<PathBuf>,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub browser: BrowserFlags,
}

/// `compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Page to check.
    #[arg(long)]
    pub url: String,
    /// Baseline name (or a fingerprint hash kept in the baseline directory).
    #[arg(long, value_name = "NAME")]
    pub against: String,
    /// Least severity reported: info, warning or error.
    #[arg(long, default_value = "warning")]
    pub severity_threshold: String,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub json: bool,
    /// full, above_fold or a CSS selector (as when the baseline was saved).
    #[arg(long)]
    pub scope: Option<String>,
    /// minimal, standard or detailed (as when the baseline was saved).
    #[arg(long)]
    pub depth: Option<String>,
    /// Where baselines are kept (default: ~/.local/state/response-diff/baselines).
    #[arg(long, value_name = "DIR")]
    pub baseline_dir: Option<PathBuf>,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub browser: BrowserFlags,
}

/// The default baseline directory: `$XDG_STATE_HOME/response-diff/baselines`,
/// else `~/.local/state/response-diff/baselines`.
pub fn default_baseline_dir() -> PathBuf {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("response-diff").join("baselines")
}

/// Opens `url` in a fresh browser and returns the engine (for more reads).
fn open(url: &str, browser: &BrowserFlags) -> Result<Engine> {
    let mut engine = Engine::new(EngineConfig {
        browser: browser.config()?,
        ..EngineConfig::default()
    })?;
    let mut args = Map::new();
    args.insert("url".into(), json!(url));
    args.insert("expectation".into(), json!({"includeSnapshot": false}));
    let out = engine
        .call("browser_navigate", args)
        .map_err(|e| anyhow!("{e}"))?;
    if out.is_error {
        bail!("{}", out.text.trim_start_matches("### Result\n"));
    }
    Ok(engine)
}

fn filter(roles: &[String], prune: bool, scope: Option<&str>) -> Result<Filter> {
    Ok(Filter {
        roles: (!roles.is_empty()).then(|| roles.to_vec()),
        prune,
        scope: scope.map(Selector::parse).transpose()?,
    })
}

/// `read --url …`: the page's tree, or what changed since an earlier read.
pub fn read(a: ReadArgs) -> Result<ExitCode> {
    let format: TreeDiffFormat = a.format.parse()?;
    let opts = TreeDiffOptions {
        // Every read is a new browser, so refs are not comparable across
        // reads: match by content.
        identity: IdentityMode::Content,
        filter: filter(&a.roles, a.prune, a.scope.as_deref())?,
        ..TreeDiffOptions::default()
    };
    let mut engine = open(&a.url, &a.browser)?;
    let tree = engine.snapshot_tree()?;
    engine.shutdown();
    let mut config = DiskStoreConfig::default().ttl(Duration::from_secs(a.ttl));
    config.dir = a.store_dir.clone();
    let store = DiskStore::with_config(config)?;
    let r = store.read(&a.url, &tree, a.since, &opts)?;
    println!("{}", r.render(format));
    Ok(match (&r.outcome, a.since) {
        (ReadOutcome::Diff(d), _) if d.is_empty() => ExitCode::SUCCESS,
        (ReadOutcome::Diff(_), _) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// `diff OLD NEW`: the response diff of two texts.
pub fn diff(a: DiffArgs) -> Result<ExitCode> {
    let (old, new) = (MappedText::open(&a.old)?, MappedText::open(&a.new)?);
    let mut opts = match &a.options {
        Some(json) => DiffOptions::from_json(json)?,
        None => DiffOptions::default(),
    };
    if let Some(f) = &a.format {
        let v: DiffOptions = DiffOptions::from_json(&json!({ "format": f }).to_string())?;
        opts.merge(&v);
    }
    opts.enabled = Some(true);
    let settings = opts.resolve();
    let mut out = TrimNewlines {
        out: std::io::stdout().lock(),
        pending: 0,
    };
    // The parts both files share at their start and end are compared and
    // counted a block at a time and then dropped from memory, so a small
    // change between two large files never holds both.
    let release = |o, n| {
        old.release(o);
        new.release(n);
    };
    let mode = match write_answer_releasing(old.bytes(), new.bytes(), &settings, &mut out, release)
    {
        // Checked as the files are read: nothing was written.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            return Err(old
                .utf8_error(&a.old)
                .or_else(|| new.utf8_error(&a.new))
                .unwrap_or_else(|| anyhow!(e)));
        }
        r => r
            .and_then(|mode| out.finish().map(|()| mode))
            .context("writing the diff")?,
    };
    Ok(if mode == DiffMode::Unchanged {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A text file mapped into memory rather than read: its pages are the
/// page cache's own, so a 7 MB input is neither copied nor zeroed, and
/// costs a few page faults instead of one per 4 KiB (reading both inputs
/// took longer than the whole diff; docs/bench/README.md).
struct MappedText {
    /// `None` for an empty file, which cannot be mapped.
    map: Option<memmap2::Mmap>,
}

impl MappedText {
    fn open(path: &Path) -> Result<Self> {
        let context = || format!("reading {}", path.display());
        let file = std::fs::File::open(path).with_context(context)?;
        if file.metadata().with_context(context)?.len() == 0 {
            return Ok(MappedText { map: None });
        }
        // SAFETY: the map is read-only (shared with the page cache); another process
        // changing the file while the diff runs would change what is read
        // (as with any reader), and truncating it would end the process
        // with SIGBUS, the risk every mmap-based tool takes.
        let map = unsafe { memmap2::Mmap::map(&file) }.with_context(context)?;
        Ok(MappedText { map: Some(map) })
    }

    /// The error for a file that is not UTF-8, if this one is not (the
    /// diff checks as it reads; this says where).
    fn utf8_error(&self, path: &Path) -> Option<anyhow::Error> {
        let e = std::str::from_utf8(self.bytes()).err()?;
        Some(anyhow!("reading {}: not UTF-8 text ({e})", path.display()))
    }

    /// Drops the whole pages of `range` from this process's memory (they
    /// are read from the page cache again if needed). Unix only: elsewhere
    /// the pages stay until exit.
    #[cfg(not(unix))]
    fn release(&self, _range: std::ops::Range<usize>) {}

    /// Drops the whole pages of `range` from this process's memory (they
    /// are read from the page cache again if needed).
    #[cfg(unix)]
    fn release(&self, range: std::ops::Range<usize>) {
        const PAGE: usize = 4096;
        let Some(map) = &self.map else { return };
        let (start, end) = (range.start.next_multiple_of(PAGE), range.end / PAGE * PAGE);
        if start < end {
            // SAFETY: the map is a read-only view of the file, never
            // written, so its dropped pages read back from the page cache
            // with the same bytes (as long as the file does not change,
            // the assumption `open` makes); no reader sees a change. The
            // advice is only that: an error changes nothing.
            let _ = unsafe {
                map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
            };
        }
    }

    fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or_default()
    }
}

/// Writes what it is given with its trailing newlines replaced by one at
/// [`TrimNewlines::finish`]: the `diff` command prints its answer as
/// `println!` of the answer without them did, without holding the answer.
struct TrimNewlines<W: Write> {
    out: W,
    /// Newlines seen but not yet written (they may be the trailing ones).
    pending: usize,
}

impl<W: Write> Write for TrimNewlines<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let body = buf.len() - buf.iter().rev().take_while(|&&b| b == b'\n').count();
        if body > 0 {
            for _ in 0..std::mem::take(&mut self.pending) {
                self.out.write_all(b"\n")?;
            }
            self.out.write_all(&buf[..body])?;
        }
        self.pending += buf.len() - body;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl<W: Write> TrimNewlines<W> {
    fn finish(mut self) -> std::io::Result<()> {
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

/// A file's text, or an error naming the file.
fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

fn load_tree(path: &Path) -> Result<Tree> {
    let text = read_text(path)?;
    let t = text.trim_start();
    let tree = if t.starts_with('[') || t.starts_with('{') {
        Tree::from_json(&text)
    } else {
        tree::parse_aria(&text, false)
    };
    tree.with_context(|| format!("parsing {}", path.display()))
}

/// `tree-diff OLD NEW`.
pub fn tree_diff(a: TreeDiffArgs) -> Result<ExitCode> {
    if a.format == "patch" {
        let (old, new) = (read_text(&a.old)?, read_text(&a.new)?);
        let (old, new) = (
            tree::Dialect::detect(&old).trim(&old),
            tree::Dialect::detect(&new).trim(&new),
        );
        let p = tree::snapshot_patch(old, new).ok_or_else(|| {
            anyhow!("this change cannot be written as a snapshot patch (an element without a ref changed or moved, or a file is not a Playwright aria snapshot); use --format agent or `diff`")
        })?;
        println!("# {}\n{}", p.summary(), p.text);
        return Ok(if p.text.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let format: TreeDiffFormat = a.format.parse()?;
    let old = load_tree(&a.old)?;
    let new = load_tree(&a.new)?;
    let opts = TreeDiffOptions {
        identity: if a.ignore_refs {
            IdentityMode::Content
        } else {
            IdentityMode::Refs
        },
        filter: filter(&a.roles, a.prune, a.scope.as_deref())?,
        ..TreeDiffOptions::default()
    };
    let d = tree::diff_with(&old, &new, &opts);
    let ts = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    println!("{}", d.render(format, ts, None));
    Ok(if d.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn baselines(dir: Option<PathBuf>) -> Result<BaselineStore> {
    let dir = dir.unwrap_or_else(default_baseline_dir);
    BaselineStore::open(&dir).with_context(|| format!("opening baselines in {}", dir.display()))
}

/// `fingerprint --url … [--save NAME]`.
pub fn fingerprint(a: FingerprintArgs) -> Result<ExitCode> {
    if let Some(name) = &a.save {
        response_diff::fingerprint::validate_name(name)?;
    }
    let mut engine = open(&a.url, &a.browser)?;
    let page = engine.current_page().ok_or_else(|| anyhow!("no page"))?;
    let fp = capture_fingerprint(&page, a.scope.as_deref(), a.depth.as_deref())?;
    engine.shutdown();
    println!("{}", fp.to_json_pretty());
    eprintln!("hash {} ({} tokens, estimated)", fp.hash, fp.token_count);
    if let Some(name) = &a.save {
        let store = baselines(a.baseline_dir)?;
        store.save(name, &fp)?;
        eprintln!(
            "saved baseline `{name}` in {}",
            store
                .directory()
                .map(|d| d.display().to_string())
                .unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `compare --url … --against NAME`.
pub fn compare(a: CompareArgs) -> Result<ExitCode> {
    let threshold: Severity =
        tools::parse_severity(&a.severity_threshold).map_err(|e| anyhow!(e))?;
    let store = baselines(a.baseline_dir.clone())?;
    // Fail before launching a browser when the baseline does not exist.
    store.get(&a.against)?;
    let mut engine = open(&a.url, &a.browser)?;
    let page = engine.current_page().ok_or_else(|| anyhow!("no page"))?;
    let fp = capture_fingerprint(&page, a.scope.as_deref(), a.depth.as_deref())?;
    engine.shutdown();
    let cmp = store.compare(&a.against, &fp, threshold)?;
    if a.json {
        println!("{}", cmp.to_json_pretty());
    } else {
        print!("{cmp}");
    }
    Ok(if cmp.is_clean() && cmp.status != Status::Loading {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
