//! The `mcp` command's settings: @playwright/mcp's flags (every one that
//! applies to Chromium, with its name, units and meaning; our older names
//! kept as aliases), its `PLAYWRIGHT_MCP_*` environment variables
//! ([`env`]) and its config file, nested or flat ([`file`]). The command
//! line wins over the environment, which wins over the file ([`layers`]).
//!
//! [`parse_mcp`] turns the command line into [`McpArgs`]; [`McpArgs::resolve`]
//! checks everything (a flag that cannot apply is refused with one line
//! saying why and what to use instead) and gives the engine's and the
//! host's settings, before any browser starts.

mod env;
mod file;
pub mod flags;
mod layers;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::{ArgAction, ArgMatches, Args, Command, FromArgMatches};
use response_diff::expectation::Expectation;

use crate::browser::BrowserConfig;
use crate::cli::BrowserFlags;
use crate::context::{HostConfig, Proxy, TabSetup};
use crate::emulation::Emulation;
use crate::engine::EngineConfig;
use crate::options::{ResponseOptions, SnapshotMode};
use crate::origins::OriginPolicy;
use crate::storage::StorageState;

pub use env::{PREFIX as ENV_PREFIX, variables as env_variables};
pub use file::{camel, kebab};
pub use flags::{NO_WEBMCP, OutputFlags, PageFlags, REFUSED, RefusedFlags};
pub use layers::Origins;

/// Every flag of `mcp`.
#[derive(Args, Clone, Debug, Default)]
pub struct McpArgs {
    #[allow(missing_docs)]
    #[command(flatten)]
    pub browser: BrowserFlags,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub serve: ServeFlags,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub page: PageFlags,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub output: OutputFlags,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub refused: RefusedFlags,
    /// Where each flag not given on the command line came from.
    #[arg(skip)]
    pub origins: Origins,
}

/// Flags for running where agents run: HTTP, an existing browser, logins,
/// network and identity.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Server")]
pub struct ServeFlags {
    /// Serve MCP's streamable HTTP transport at http://HOST:PORT/mcp instead
    /// of stdio (0 picks a free port, printed on stderr).
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
    /// Address to bind the HTTP server to; use 0.0.0.0 for all interfaces.
    #[arg(long, default_value = "127.0.0.1", value_name = "HOST")]
    pub host: String,
    /// Comma-separated Host names (host or host:port) the HTTP server also
    /// answers besides the address it listens on; '*' turns the check off.
    #[arg(long, value_delimiter = ',', num_args = 1.., value_name = "HOSTS")]
    pub allowed_hosts: Vec<String>,
    /// Close an HTTP session (and its browser context) idle this long.
    #[arg(long, default_value_t = 600, value_name = "SECONDS")]
    pub session_timeout: u64,
    /// Close the browser after this many milliseconds without a call; the
    /// next call relaunches it and says so. Default: one hour for a
    /// headless browser launched here, never for a headed or attached one;
    /// 0 disables.
    #[arg(long, value_name = "MS", value_parser = crate::cli::parse_ms)]
    pub idle_timeout: Option<u64>,
    /// All HTTP clients share one browser context (tabs, cookies, refs).
    #[arg(long)]
    pub shared_browser_context: bool,
    /// Attach to a running Chromium instead of launching one: http(s)://host:port
    /// or its ws(s):// URL (a browser service, a grid); never stopped here.
    #[arg(long, value_name = "URL")]
    pub cdp_endpoint: Option<String>,
    /// Header sent when connecting to --cdp-endpoint, 'Name: value'
    /// (repeatable, several after one flag too).
    #[arg(long, value_name = "HEADER", num_args = 1.., action = ArgAction::Append, requires = "cdp_endpoint")]
    pub cdp_header: Vec<String>,
    /// Time limit for connecting to --cdp-endpoint, in milliseconds
    /// (default 30000; 0 for none).
    #[arg(long, value_name = "MS", requires = "cdp_endpoint")]
    pub cdp_timeout: Option<u64>,
    /// Playwright storage state (cookies, localStorage) loaded into every
    /// new browser context.
    #[arg(long, value_name = "FILE")]
    pub storage_state: Option<PathBuf>,
    /// Keep the profile in memory: every session in a fresh browser context.
    #[arg(long, conflicts_with = "user_data_dir")]
    pub isolated: bool,
    /// Proxy server, e.g. http://myproxy:3128 or socks5://myproxy:8080.
    #[arg(long, value_name = "PROXY")]
    pub proxy_server: Option<String>,
    /// Comma-separated hosts that bypass the proxy, e.g. ".com,chromium.org".
    #[arg(long, value_name = "BYPASS", requires = "proxy_server")]
    pub proxy_bypass: Option<String>,
    /// Semicolon-separated origins the browser may request (default all);
    /// not a security boundary.
    #[arg(long, value_name = "ORIGINS")]
    pub allowed_origins: Vec<String>,
    /// Semicolon-separated origins the browser may not request (checked
    /// before --allowed-origins); not a security boundary.
    #[arg(long, value_name = "ORIGINS")]
    pub blocked_origins: Vec<String>,
    /// User agent string.
    #[arg(long, value_name = "UA")]
    pub user_agent: Option<String>,
    /// Ignore HTTPS certificate errors.
    #[arg(long)]
    pub ignore_https_errors: bool,
    /// JSON config file: @playwright/mcp's (browser, server, network,
    /// timeouts, …) or flat (the long flags in camelCase). Flags and
    /// PLAYWRIGHT_MCP_* variables win.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The command line of `mcp` with the environment and the config file
/// folded in. `cmd` is the program's command; `argv` the process's
/// arguments, `lookup` reads an environment variable. A clap error about
/// the command line itself is returned as [`clap::Error`] (the caller
/// prints it with its usage).
pub fn parse_mcp(
    cmd: &Command,
    argv: &[OsString],
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<(ArgMatches, Origins, Vec<String>)> {
    let at = argv.iter().position(|a| a == "mcp").unwrap_or(1);
    let mcp = cmd
        .find_subcommand("mcp")
        .ok_or_else(|| anyhow!("no mcp command"))?
        .clone();
    let own: Vec<OsString> = argv[at..].to_vec();
    let given = mcp.clone().try_get_matches_from(&own)?;
    let env = env::settings(&mcp, lookup)?;
    let config: Option<PathBuf> = given.get_one::<PathBuf>("config").cloned().or_else(|| {
        env.iter()
            .find(|s| s.id == "config")
            .and_then(|s| s.args.first())
            .and_then(|a| a.split_once('=').map(|(_, p)| PathBuf::from(p)))
    });
    let (from_file, notes) = match &config {
        Some(path) => file::settings(path, &mcp)?,
        None => (Vec::new(), Vec::new()),
    };
    let (merged, origins) = layers::merge(&mcp, &own, 0, &given, &[env, from_file])?;
    let matches = layers::check(&mcp, &merged, &origins)?;
    Ok((matches, origins, notes))
}

impl McpArgs {
    /// The arguments from parsed matches of the `mcp` command.
    pub fn from_matches(m: &ArgMatches, origins: Origins) -> Result<McpArgs> {
        let mut a = McpArgs::from_arg_matches(m)?;
        a.origins = origins;
        Ok(a)
    }

    /// `--flag` or `--flag (from WHERE)`.
    fn named(&self, id: &str, flag: &str) -> String {
        self.origins.name(id, flag)
    }

    /// Everything checked, before any browser starts: the engine's
    /// settings (with the host) and the notes to log at start-up. An error
    /// about a flag that came from the environment or the config file says
    /// so (`--browser webkit (from PLAYWRIGHT_MCP_BROWSER): …`).
    pub fn resolve(&self) -> Result<Resolved> {
        self.checked().map_err(|e| {
            let msg = format!("{e:#}");
            anyhow!(self.origins.attribute(&msg))
        })
    }

    fn checked(&self) -> Result<Resolved> {
        if let Some((id, flag, why)) = self.refused.refusal() {
            bail!("{}: {why}", self.named(id, flag));
        }
        let mut notes = Vec::new();
        if self.output.no_webmcp {
            notes.push(format!(
                "{} has no effect here: {NO_WEBMCP}",
                self.named("no_webmcp", "no-webmcp")
            ));
        }
        let mut browser = self.browser.config().map_err(|e| anyhow!("{e:#}"))?;
        if self.output.save_session && browser.output_dir.is_none() {
            // One output directory for the session log and the files.
            browser.output_dir = Some(
                crate::downloads::output_dir(None)
                    .context("creating the output directory (--output-dir)")?,
            );
        }
        let host = self.host_config(browser)?;
        let secrets = self.secrets()?;
        crate::secrets::set_named(secrets);
        crate::secrets::set_reveal(self.output.reveal_passwords);
        let default_expectation = match &self.output.default_expectation {
            Some(json) => Expectation::from_json_at(json, "--default-expectation")
                .map_err(|e| anyhow!("{e}"))?,
            None => Expectation::default(),
        };
        let mut caps = match &self.output.caps {
            Some(list) => crate::caps::Caps::parse(list)
                .map_err(|e| anyhow!("{}: {e}", self.named("caps", "caps")))?,
            None => crate::caps::Caps::default(),
        };
        if self.output.vision {
            caps = caps.with(crate::caps::Cap::Vision);
        }
        let session_log = if self.output.save_session {
            Some(crate::engine::session_log_path(
                host.browser.output_dir.as_deref(),
            )?)
        } else {
            None
        };
        let response = ResponseOptions {
            snapshot_mode: self.output.snapshot_mode.unwrap_or(SnapshotMode::Diff),
            console_level: self.output.console_level.unwrap_or_default(),
            image_responses: self.output.image_responses.unwrap_or_default(),
            codegen: self.output.codegen,
            file_paths: self.output.file_paths.unwrap_or_default(),
            output_max_size: self.output.output_max_size,
            session_log,
            test_id_attribute: self
                .page
                .test_id_attribute
                .clone()
                .unwrap_or_else(|| "data-testid".to_owned()),
            snapshot_boxes: self.output.snapshot_boxes,
        };
        crate::ax::set_boxes(self.output.snapshot_boxes);
        let engine = EngineConfig {
            browser: host.browser.clone(),
            default_expectation,
            baseline_dir: self.output.baseline_dir.clone(),
            caps,
            host: None,
            response,
        };
        Ok(Resolved {
            engine,
            host,
            notes,
        })
    }

    /// The secrets of `--secrets FILE` (dotenv) and the config file's.
    fn secrets(&self) -> Result<Vec<(String, String)>> {
        let mut out = Vec::new();
        if let Some(path) = &self.output.secrets {
            let name = self.named("secrets", "secrets");
            let iter = dotenvy::from_path_iter(path)
                .with_context(|| format!("{name}: reading {}", path.display()))?;
            for item in iter {
                let (k, v) = item
                    .map_err(|e| anyhow!("{name}: {} is not a dotenv file: {e}", path.display()))?;
                out.push((k, v));
            }
        }
        for pair in &self.output.secret {
            let Some((k, v)) = pair.split_once('=') else {
                bail!("{}: a secret is NAME=VALUE", self.named("secret", "secret"));
            };
            out.push((k.trim().to_owned(), v.to_owned()));
        }
        Ok(out)
    }

    /// The page emulation: the device (`--device`, `--mobile`), then the
    /// flags that refine it.
    fn emulation(&self, attached: bool, launch_viewport: (u32, u32)) -> Result<Emulation> {
        let p = &self.page;
        let device_name = match (&p.device, p.mobile) {
            (Some(_), true) => bail!(
                "{} and {} cannot be combined: --mobile is the device {}; pick one",
                self.named("device", "device"),
                self.named("mobile", "mobile"),
                crate::emulation::MOBILE_DEVICE
            ),
            (Some(d), false) => Some(d.as_str()),
            (None, true) => Some(crate::emulation::MOBILE_DEVICE),
            (None, false) => None,
        };
        let device = device_name
            .map(crate::emulation::device)
            .transpose()
            .map_err(|e| anyhow!("{e:#}"))?;
        let size = |s: crate::emulation::Size| (s.width, s.height);
        let viewport = match (self.browser.viewport, device) {
            (Some(v), _) => Some(v),
            (None, Some(d)) => Some(size(d.viewport)),
            // An attached browser's windows are not ours to size: the
            // viewport is set per tab.
            (None, None) if attached => Some(launch_viewport),
            (None, None) => None,
        };
        Ok(Emulation {
            viewport,
            screen: device.and_then(|d| d.screen.map(size)),
            scale: p
                .device_scale_factor
                .or(device.map(|d| d.device_scale_factor))
                .unwrap_or(0.0),
            mobile: p.is_mobile.or(device.map(|d| d.is_mobile)).unwrap_or(false),
            touch: p.has_touch.or(device.map(|d| d.has_touch)).unwrap_or(false),
            user_agent: self
                .serve
                .user_agent
                .clone()
                .or(device.map(|d| d.user_agent.clone())),
            locale: p.locale.clone(),
            timezone: p.timezone_id.clone(),
            geolocation: p.geolocation,
            color_scheme: p.color_scheme.clone(),
        })
    }

    /// The host of the browser: where it comes from, what contexts and tabs
    /// get. Reads and checks the storage state file, the init scripts and
    /// the origin lists.
    pub fn host_config(&self, browser: BrowserConfig) -> Result<HostConfig> {
        let serve = &self.serve;
        let policy = OriginPolicy::parse(&serve.allowed_origins, &serve.blocked_origins)?;
        let storage_state = match &serve.storage_state {
            Some(p) => Some(Arc::new(StorageState::read(p)?)),
            None => None,
        };
        let proxy = serve.proxy_server.as_ref().map(|server| Proxy {
            server: server.clone(),
            bypass: serve.proxy_bypass.clone(),
        });
        let remote = match &serve.cdp_endpoint {
            Some(e) => Some(crate::attach::Remote::new(
                e,
                &serve.cdp_header,
                serve.cdp_timeout,
            )?),
            None => None,
        };
        let attached = remote.is_some();
        let mut browser = browser;
        let emulation = self.emulation(attached, browser.viewport)?;
        if let Some(v) = emulation.viewport.filter(|_| !attached) {
            // The window is the device's.
            browser.viewport = v;
        }
        if !attached {
            // Launch flags cover every tab, popups included.
            if let Some(p) = &proxy {
                browser
                    .extra_args
                    .push(format!("--proxy-server={}", p.server));
                if let Some(b) = &p.bypass {
                    browser.extra_args.push(format!("--proxy-bypass-list={b}"));
                }
            }
            if let Some(ua) = &emulation.user_agent {
                browser.extra_args.push(format!("--user-agent={ua}"));
            }
            if serve.ignore_https_errors {
                browser
                    .extra_args
                    .push("--ignore-certificate-errors".into());
            }
        }
        let mut init_scripts = Vec::new();
        for path in &self.page.init_script {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!(
                    "{}: reading {}",
                    self.named("init_script", "init-script"),
                    path.display()
                )
            })?;
            init_scripts.push(text);
        }
        let permissions = crate::emulation::permission_types(&self.page.grant_permissions)
            .map_err(|e| anyhow!("{e:#}"))?;
        let http = serve.port.is_some();
        // HTTP clients each get a context unless they share one; an
        // attached browser's default context is the user's, and --isolated
        // keeps the profile off disk: a context of our own for those too.
        let own_contexts = attached || serve.isolated || (http && !serve.shared_browser_context);
        let unrestricted = self.page.allow_unrestricted_file_access;
        if unrestricted && browser.upload_roots.is_empty() {
            browser.upload_roots = vec![PathBuf::from("/")];
        }
        // Playwright's default: an hour for a headless browser launched
        // here, never for a headed or attached one; 0 turns it off.
        let idle_timeout = match serve.idle_timeout {
            Some(0) => None,
            Some(ms) => Some(Duration::from_millis(ms)),
            None if browser.headless && !attached => Some(Duration::from_secs(3600)),
            None => None,
        };
        let setup = TabSetup {
            policy: policy.map(Arc::new),
            emulation,
            ignore_https_errors: serve.ignore_https_errors,
            init_scripts,
            block_service_workers: self.page.block_service_workers,
        };
        Ok(HostConfig {
            browser,
            remote,
            own_contexts,
            shared: http,
            setup: Arc::new(setup),
            storage_state,
            // A launched browser has the proxy from its flags.
            proxy: if attached { proxy } else { None },
            permissions,
            idle_timeout,
            block_file_urls: !unrestricted,
        })
    }
}

/// The checked settings of `mcp`.
#[derive(Debug)]
pub struct Resolved {
    /// The engine's settings (its `host` is set by the caller).
    pub engine: EngineConfig,
    /// The browser host's.
    pub host: HostConfig,
    /// Flags given that change nothing here, with why (for the log).
    pub notes: Vec<String>,
}

impl ServeFlags {
    /// `--session-timeout` as a duration (at least a second).
    pub fn session_timeout(&self) -> Duration {
        Duration::from_secs(self.session_timeout.max(1))
    }
}
