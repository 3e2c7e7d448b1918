//! The `mcp` command's deployment flags (Playwright's names) and
//! `--config FILE`.
//!
//! A config file is a JSON object whose keys are the long flags in
//! camelCase (`{"port": 8931, "storageState": "auth.json",
//! "defaultExpectation": {…}}`). It becomes command-line arguments in front
//! of the real ones, except for flags given on the command line, which win;
//! so clap checks a value from the file exactly as it checks the flag. An
//! unknown key, a value of the wrong JSON type, or a value clap refuses is
//! an error naming the key, before anything starts.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Args, Command};
use serde_json::Value;

use crate::browser::BrowserConfig;
use crate::context::{HostConfig, Proxy, TabSetup};
use crate::origins::OriginPolicy;
use crate::storage::StorageState;

/// Flags for running where agents run: HTTP, an existing browser, logins,
/// network and identity.
#[derive(Args, Clone, Debug, Default)]
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
    #[arg(long, value_delimiter = ',', value_name = "HOSTS")]
    pub allowed_hosts: Vec<String>,
    /// Close an HTTP session (and its browser context) idle this long.
    #[arg(long, default_value_t = 600, value_name = "SECONDS")]
    pub session_timeout: u64,
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
    /// JSON config file; keys are the long flags in camelCase. Flags win.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl ServeFlags {
    /// The host of the browser: where it comes from, what contexts and tabs
    /// get. Reads and checks the storage state file and the origin lists.
    pub fn host_config(&self, browser: BrowserConfig) -> Result<HostConfig> {
        let policy = OriginPolicy::parse(&self.allowed_origins, &self.blocked_origins)?;
        let storage_state = match &self.storage_state {
            Some(p) => Some(Arc::new(StorageState::read(p)?)),
            None => None,
        };
        let proxy = self.proxy_server.as_ref().map(|server| Proxy {
            server: server.clone(),
            bypass: self.proxy_bypass.clone(),
        });
        let remote = match &self.cdp_endpoint {
            Some(e) => Some(crate::attach::Remote::new(
                e,
                &self.cdp_header,
                self.cdp_timeout,
            )?),
            None => None,
        };
        let attached = remote.is_some();
        let mut browser = browser;
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
            if let Some(ua) = &self.user_agent {
                browser.extra_args.push(format!("--user-agent={ua}"));
            }
            if self.ignore_https_errors {
                browser
                    .extra_args
                    .push("--ignore-certificate-errors".into());
            }
        }
        let http = self.port.is_some();
        // HTTP clients each get a context unless they share one; an
        // attached browser's default context is the user's, and --isolated
        // keeps the profile off disk: a context of our own for those too.
        let own_contexts = attached || self.isolated || (http && !self.shared_browser_context);
        let setup = TabSetup {
            policy: policy.map(Arc::new),
            user_agent: self.user_agent.clone(),
            viewport: attached.then_some(browser.viewport),
            ignore_https_errors: self.ignore_https_errors,
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
        })
    }

    /// `--session-timeout` as a duration (at least a second).
    pub fn session_timeout(&self) -> Duration {
        Duration::from_secs(self.session_timeout.max(1))
    }
}

/// `storageState` → `storage-state`.
fn kebab(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `storage-state` → `storageState`.
fn camel(flag: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in flag.chars() {
        if c == '-' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The arguments a config file stands for, leaving out the flags the
/// command line gives (`given`). `cmd` is the `mcp` subcommand.
pub fn file_args(path: &Path, cmd: &Command, given: &ArgMatches) -> Result<Vec<OsString>> {
    let at = format!("config file {}", path.display());
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {at}"))?;
    let v: Value = serde_json::from_str(&text).with_context(|| format!("{at} is not JSON"))?;
    let obj = v.as_object().ok_or_else(|| {
        anyhow!("{at}: expected a JSON object of flags in camelCase, e.g. {{\"port\": 8931}}")
    })?;
    let keys: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long())
        .filter(|l| *l != "config" && *l != "help")
        .map(camel)
        .collect();
    let mut args = Vec::new();
    for (key, value) in obj {
        let flag = kebab(key);
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_long() == Some(flag.as_str()) && flag != "config" && flag != "help")
            .ok_or_else(|| {
                anyhow!(
                    "{at}: unknown key `{key}`; the keys are the long flags in camelCase: {}",
                    keys.join(", ")
                )
            })?;
        if given.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine) {
            continue;
        }
        let wrong = |want: &str| anyhow!("{at}: key `{key}` must be {want}, not {value}");
        match arg.get_action() {
            ArgAction::SetTrue => match value {
                Value::Bool(true) => args.push(format!("--{flag}")),
                Value::Bool(false) => {}
                _ => return Err(wrong("true or false")),
            },
            ArgAction::Append => {
                let items: Vec<&Value> = match value {
                    Value::Array(a) => a.iter().collect(),
                    v => vec![v],
                };
                for item in items {
                    match item {
                        Value::String(s) => args.push(format!("--{flag}={s}")),
                        _ => return Err(wrong("a string or an array of strings")),
                    }
                }
            }
            _ => match value {
                Value::String(s) => args.push(format!("--{flag}={s}")),
                Value::Number(n) => args.push(format!("--{flag}={n}")),
                // A JSON-valued flag (`defaultExpectation`) takes the object.
                Value::Object(_)
                    if arg
                        .get_value_names()
                        .is_some_and(|n| n.iter().any(|n| n == "JSON")) =>
                {
                    args.push(format!("--{flag}={value}"))
                }
                _ => return Err(wrong("a string or a number")),
            },
        }
    }
    // Each value as clap would check it on the command line, the key named.
    let mut probe = vec![OsString::from("mcp")];
    probe.extend(args.iter().map(OsString::from));
    if let Err(e) = cmd.clone().try_get_matches_from(&probe) {
        use clap::error::{ContextKind, ContextValue};
        let flag = match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::String(s)) => s.clone(),
            _ => String::new(),
        };
        let name = flag
            .trim_start_matches("--")
            .split([' ', '=', '<'])
            .next()
            .unwrap_or_default();
        let detail = e.render().to_string();
        let detail = detail
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ");
        if name.is_empty() {
            bail!("{at}: {detail}");
        }
        bail!("{at}: key `{}`: {detail}", camel(name));
    }
    Ok(args.into_iter().map(OsString::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(kebab("storageState"), "storage-state");
        assert_eq!(kebab("port"), "port");
        assert_eq!(camel("shared-browser-context"), "sharedBrowserContext");
    }
}
