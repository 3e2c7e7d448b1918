//! `--config FILE`: a JSON object in either of two forms, which may be
//! mixed.
//!
//! - **@playwright/mcp's nested form** (its `config.d.ts`): `browser`
//!   (`launchOptions`, `contextOptions`, `userDataDir`, `cdpEndpoint`, …),
//!   `server`, `network`, `timeouts`, `snapshot`, `console`,
//!   `capabilities`, `secrets`, `outputDir`, `imageResponses`, `codegen`
//!   and the other top-level keys. [`NESTED`] maps each key that applies to
//!   Chromium to the flag it stands for.
//! - **Our flat form**: the long flags in camelCase (`{"port": 8931,
//!   "storageState": "auth.json", "defaultExpectation": {…}}`).
//!
//! Either way each key becomes the arguments of its flag ([`Setting`]s),
//! so clap checks a value from the file exactly as it checks the flag. An
//! unknown key, or a value of the wrong JSON type, is an error naming the
//! key, before anything starts. Init scripts are found relative to the
//! file, as in @playwright/mcp.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Arg, ArgAction, Command};
use serde_json::{Map, Value};

use super::layers::Setting;

/// What a key of the nested form stands for.
#[derive(Debug, Clone, Copy)]
enum Key {
    /// An object whose keys are looked up under `path.key`.
    Section,
    /// A string or number (or `true`/`false`): `--flag=value`.
    Value(&'static str),
    /// `true` or `false`: the flag, or its opposite (`--headed`) if any.
    Switch(&'static str),
    /// `false` turns the flag on (`webmcp: false` is `--no-webmcp`).
    InvertedSwitch(&'static str),
    /// An array of strings: `--flag=item` each.
    List(&'static str),
    /// An array of strings joined with the separator: one `--flag=a;b`.
    Joined(&'static str, &'static str),
    /// `{"width": W, "height": H}`: `--flag=WxH`.
    Size(&'static str),
    /// `{"latitude": …, "longitude": …, "accuracy": …}`: `--flag=lat,lon,acc`.
    Geolocation(&'static str),
    /// `{"Name": "value"}`: `--flag=Name: value` each.
    Headers(&'static str),
    /// `{"NAME": "value"}`: `--flag=NAME=value` each.
    Pairs(&'static str),
    /// `"block"` turns the flag on, `"allow"` leaves it off.
    Block(&'static str),
    /// A key @playwright/mcp has that changes nothing here: accepted, and
    /// said on stderr at start-up with the reason.
    NoEffect(&'static str),
}

/// @playwright/mcp's nested keys that apply here (config.d.ts of the
/// pinned 0.0.83, and the Chromium-mapped `launchOptions` and
/// `contextOptions` keys). Farm-side flags (`--cdp-header`,
/// `--cdp-timeout`) are listed too: until the build has the flag, the key
/// is refused naming it.
const NESTED: &[(&str, Key)] = &[
    ("browser", Key::Section),
    ("browser.browserName", Key::Value("browser")),
    ("browser.isolated", Key::Switch("isolated")),
    ("browser.userDataDir", Key::Value("user-data-dir")),
    ("browser.launchOptions", Key::Section),
    ("browser.launchOptions.args", Key::List("chromium-arg")),
    ("browser.launchOptions.channel", Key::Value("browser")),
    (
        "browser.launchOptions.chromiumSandbox",
        Key::Switch("sandbox"),
    ),
    (
        "browser.launchOptions.executablePath",
        Key::Value("executable-path"),
    ),
    ("browser.launchOptions.headless", Key::Switch("headless")),
    ("browser.launchOptions.proxy", Key::Section),
    (
        "browser.launchOptions.proxy.server",
        Key::Value("proxy-server"),
    ),
    (
        "browser.launchOptions.proxy.bypass",
        Key::Value("proxy-bypass"),
    ),
    ("browser.contextOptions", Key::Section),
    (
        "browser.contextOptions.colorScheme",
        Key::Value("color-scheme"),
    ),
    (
        "browser.contextOptions.deviceScaleFactor",
        Key::Value("device-scale-factor"),
    ),
    (
        "browser.contextOptions.geolocation",
        Key::Geolocation("geolocation"),
    ),
    ("browser.contextOptions.hasTouch", Key::Value("has-touch")),
    (
        "browser.contextOptions.ignoreHTTPSErrors",
        Key::Switch("ignore-https-errors"),
    ),
    ("browser.contextOptions.isMobile", Key::Value("is-mobile")),
    ("browser.contextOptions.locale", Key::Value("locale")),
    (
        "browser.contextOptions.permissions",
        Key::Joined("grant-permissions", ","),
    ),
    ("browser.contextOptions.proxy", Key::Section),
    (
        "browser.contextOptions.proxy.server",
        Key::Value("proxy-server"),
    ),
    (
        "browser.contextOptions.proxy.bypass",
        Key::Value("proxy-bypass"),
    ),
    (
        "browser.contextOptions.serviceWorkers",
        Key::Block("block-service-workers"),
    ),
    (
        "browser.contextOptions.storageState",
        Key::Value("storage-state"),
    ),
    (
        "browser.contextOptions.timezoneId",
        Key::Value("timezone-id"),
    ),
    ("browser.contextOptions.userAgent", Key::Value("user-agent")),
    (
        "browser.contextOptions.viewport",
        Key::Size("viewport-size"),
    ),
    ("browser.cdpEndpoint", Key::Value("cdp-endpoint")),
    ("browser.cdpHeaders", Key::Headers("cdp-header")),
    ("browser.cdpTimeout", Key::Value("cdp-timeout")),
    ("browser.remoteEndpoint", Key::Value("endpoint")),
    ("browser.initPage", Key::List("init-page")),
    ("browser.initScript", Key::List("init-script")),
    ("server", Key::Section),
    ("server.port", Key::Value("port")),
    ("server.host", Key::Value("host")),
    ("server.allowedHosts", Key::Joined("allowed-hosts", ",")),
    ("network", Key::Section),
    (
        "network.allowedOrigins",
        Key::Joined("allowed-origins", ";"),
    ),
    (
        "network.blockedOrigins",
        Key::Joined("blocked-origins", ";"),
    ),
    ("timeouts", Key::Section),
    ("timeouts.action", Key::Value("timeout-action")),
    ("timeouts.navigation", Key::Value("timeout-navigation")),
    ("timeouts.settle", Key::Value("timeout-settle")),
    ("timeouts.idle", Key::Value("idle-timeout")),
    (
        "timeouts.expect",
        Key::NoEffect("it times assertions (browser_verify_*), which this server does not offer"),
    ),
    ("snapshot", Key::Section),
    ("snapshot.mode", Key::Value("snapshot-mode")),
    ("snapshot.boxes", Key::Switch("snapshot-boxes")),
    ("console", Key::Section),
    ("console.level", Key::Value("console-level")),
    ("capabilities", Key::Joined("caps", ",")),
    ("secrets", Key::Pairs("secret")),
    ("webmcp", Key::InvertedSwitch("no-webmcp")),
];

fn nested(path: &str) -> Option<Key> {
    NESTED.iter().find(|(p, _)| *p == path).map(|(_, k)| *k)
}

/// The keys of the nested form directly under `prefix` (`""`: the top).
fn keys_under(prefix: &str) -> Vec<&'static str> {
    NESTED
        .iter()
        .filter_map(|(p, _)| {
            let rest = if prefix.is_empty() {
                *p
            } else {
                p.strip_prefix(prefix)?.strip_prefix('.')?
            };
            (!rest.contains('.')).then_some(rest)
        })
        .collect()
}

/// `storageState` → `storage-state`.
pub fn kebab(key: &str) -> String {
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
pub fn camel(flag: &str) -> String {
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

/// Flags with no key in the flat form.
const NOT_A_KEY: &[&str] = &["config", "help", "version"];

/// Reads a config file: its settings, and the notes on keys that change
/// nothing here (said on stderr at start-up).
pub fn settings(path: &Path, cmd: &Command) -> Result<(Vec<Setting>, Vec<String>)> {
    let at = format!("config file {}", path.display());
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {at}"))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let v: Value = serde_json::from_str(text).with_context(|| format!("{at} is not JSON"))?;
    let obj = v.as_object().ok_or_else(|| {
        anyhow!(
            "{at}: expected a JSON object: @playwright/mcp's sections ({{\"server\": {{\"port\": 8931}}}}) or flags in camelCase ({{\"port\": 8931}})"
        )
    })?;
    let mut reader = Reader {
        at,
        cmd,
        dir: path.parent().map(Path::to_owned).unwrap_or_default(),
        out: Vec::new(),
        notes: Vec::new(),
    };
    reader.object("", obj)?;
    Ok((reader.out, reader.notes))
}

struct Reader<'a> {
    at: String,
    cmd: &'a Command,
    /// The file's directory (init scripts are found from it).
    dir: PathBuf,
    out: Vec<Setting>,
    notes: Vec<String>,
}

impl Reader<'_> {
    fn object(&mut self, prefix: &str, obj: &Map<String, Value>) -> Result<()> {
        for (key, value) in obj {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            match nested(&path) {
                Some(Key::Section) if value.is_object() => {
                    self.object(&path, value.as_object().unwrap_or(&Map::new()))?
                }
                // A top-level key that is also a flag, given its flag's
                // value (`"browser": "chrome"`, `"secrets": "file.env"`).
                _ if prefix.is_empty() && !value.is_object() && self.flat_arg(key).is_some() => {
                    self.flat(key, value)?
                }
                Some(Key::Section) => {
                    bail!("{}: key `{path}` must be an object, not {value}", self.at)
                }
                Some(k) => self.nested(&path, k, value)?,
                None if prefix.is_empty() => self.flat(key, value)?,
                None => bail!(
                    "{}: key `{path}` is not supported here; the keys under `{prefix}` are {}",
                    self.at,
                    keys_under(prefix).join(", ")
                ),
            }
        }
        Ok(())
    }

    fn flat_arg(&self, key: &str) -> Option<&Arg> {
        let flag = kebab(key);
        self.cmd
            .get_arguments()
            .find(|a| a.get_long() == Some(flag.as_str()) && !NOT_A_KEY.contains(&flag.as_str()))
    }

    fn arg(&self, path: &str, flag: &str) -> Result<&Arg> {
        self.cmd
            .get_arguments()
            .find(|a| a.get_long() == Some(flag))
            .ok_or_else(|| {
                anyhow!(
                    "{}: key `{path}` needs --{flag}, which this build does not have",
                    self.at
                )
            })
    }

    fn push(&mut self, path: &str, arg: &Arg, args: Vec<String>) {
        self.out.push(Setting {
            id: arg.get_id().as_str().to_owned(),
            args,
            origin: format!("{}: key `{path}`", self.at),
        });
    }

    /// A relative init script is found from the config file's directory.
    fn value_of(&self, flag: &str, s: &str) -> String {
        if flag == "init-script" && Path::new(s).is_relative() {
            self.dir.join(s).display().to_string()
        } else {
            s.to_owned()
        }
    }

    fn wrong(&self, path: &str, want: &str, value: &Value) -> anyhow::Error {
        anyhow!("{}: key `{path}` must be {want}, not {value}", self.at)
    }

    /// A key of the flat form: a long flag in camelCase.
    fn flat(&mut self, key: &str, value: &Value) -> Result<()> {
        let Some(arg) = self.flat_arg(key) else {
            let keys: Vec<String> = self
                .cmd
                .get_arguments()
                .filter(|a| !a.is_hide_set())
                .filter_map(|a| a.get_long())
                .filter(|l| !NOT_A_KEY.contains(l))
                .map(camel)
                .collect();
            bail!(
                "{}: unknown key `{key}`; the keys are the long flags in camelCase: {}; or @playwright/mcp's sections: {}",
                self.at,
                keys.join(", "),
                keys_under("").join(", ")
            );
        };
        let arg = arg.clone();
        let flag = kebab(key);
        let args = match arg.get_action() {
            ArgAction::SetTrue => match value {
                Value::Bool(b) => self.switch(&arg, *b),
                _ => return Err(self.wrong(key, "true or false", value)),
            },
            ArgAction::Append => {
                let items: Vec<&Value> = match value {
                    Value::Array(a) => a.iter().collect(),
                    v => vec![v],
                };
                let mut args = Vec::new();
                for item in items {
                    match item {
                        Value::String(s) => {
                            args.push(format!("--{flag}={}", self.value_of(&flag, s)))
                        }
                        _ => return Err(self.wrong(key, "a string or an array of strings", value)),
                    }
                }
                args
            }
            _ => match value {
                Value::String(s) => vec![format!("--{flag}={s}")],
                Value::Number(n) => vec![format!("--{flag}={n}")],
                // A JSON-valued flag (`defaultExpectation`) takes the object.
                Value::Object(_)
                    if arg
                        .get_value_names()
                        .is_some_and(|n| n.iter().any(|n| n == "JSON")) =>
                {
                    vec![format!("--{flag}={value}")]
                }
                _ => return Err(self.wrong(key, "a string or a number", value)),
            },
        };
        self.push(key, &arg, args);
        Ok(())
    }

    /// The arguments of an on/off flag set on (`true`) or off.
    fn switch(&self, arg: &Arg, on: bool) -> Vec<String> {
        let long = arg.get_long().unwrap_or_default();
        match (on, super::env::opposite(self.cmd, arg)) {
            (true, _) => vec![format!("--{long}")],
            (false, Some(o)) => vec![format!("--{}", o.get_long().unwrap_or_default())],
            (false, None) => Vec::new(),
        }
    }

    fn nested(&mut self, path: &str, key: Key, value: &Value) -> Result<()> {
        let flag = match key {
            Key::Section => return Ok(()),
            Key::NoEffect(why) => {
                self.notes.push(format!(
                    "{}: key `{path}` has no effect here: {why}",
                    self.at
                ));
                return Ok(());
            }
            Key::Value(f)
            | Key::Switch(f)
            | Key::InvertedSwitch(f)
            | Key::List(f)
            | Key::Joined(f, _)
            | Key::Size(f)
            | Key::Geolocation(f)
            | Key::Headers(f)
            | Key::Pairs(f)
            | Key::Block(f) => f,
        };
        let arg = self.arg(path, flag)?.clone();
        let strings = |v: &Value| -> Option<Vec<String>> {
            v.as_array()?
                .iter()
                .map(|i| i.as_str().map(str::to_owned))
                .collect()
        };
        let number = |v: Option<&Value>| v.and_then(Value::as_f64);
        let args = match key {
            Key::Value(_) => match value {
                Value::String(s) => vec![format!("--{flag}={s}")],
                Value::Number(n) => vec![format!("--{flag}={n}")],
                Value::Bool(b) => vec![format!("--{flag}={b}")],
                _ => return Err(self.wrong(path, "a string or a number", value)),
            },
            Key::Switch(_) => match value {
                Value::Bool(b) => self.switch(&arg, *b),
                _ => return Err(self.wrong(path, "true or false", value)),
            },
            Key::InvertedSwitch(_) => match value {
                Value::Bool(b) => self.switch(&arg, !b),
                _ => return Err(self.wrong(path, "true or false", value)),
            },
            Key::List(_) => {
                let items =
                    strings(value).ok_or_else(|| self.wrong(path, "an array of strings", value))?;
                items
                    .iter()
                    .map(|s| format!("--{flag}={}", self.value_of(flag, s)))
                    .collect()
            }
            Key::Joined(_, sep) => {
                let items =
                    strings(value).ok_or_else(|| self.wrong(path, "an array of strings", value))?;
                if items.is_empty() {
                    Vec::new()
                } else {
                    vec![format!("--{flag}={}", items.join(sep))]
                }
            }
            Key::Size(_) => {
                let (w, h) = (number(value.get("width")), number(value.get("height")));
                match (w, h) {
                    (Some(w), Some(h)) => vec![format!("--{flag}={w}x{h}")],
                    _ => {
                        return Err(self.wrong(
                            path,
                            "an object {\"width\": …, \"height\": …}",
                            value,
                        ));
                    }
                }
            }
            Key::Geolocation(_) => {
                let (lat, lon) = (
                    number(value.get("latitude")),
                    number(value.get("longitude")),
                );
                match (lat, lon) {
                    (Some(lat), Some(lon)) => {
                        let acc = number(value.get("accuracy"))
                            .map(|a| format!(",{a}"))
                            .unwrap_or_default();
                        vec![format!("--{flag}={lat},{lon}{acc}")]
                    }
                    _ => {
                        return Err(self.wrong(
                            path,
                            "an object {\"latitude\": …, \"longitude\": …}",
                            value,
                        ));
                    }
                }
            }
            Key::Headers(_) | Key::Pairs(_) => {
                let obj = value
                    .as_object()
                    .ok_or_else(|| self.wrong(path, "an object of strings", value))?;
                let sep = if matches!(key, Key::Headers(_)) {
                    ": "
                } else {
                    "="
                };
                let mut args = Vec::new();
                for (name, v) in obj {
                    let v = v
                        .as_str()
                        .ok_or_else(|| self.wrong(path, "an object of strings", value))?;
                    args.push(format!("--{flag}={name}{sep}{v}"));
                }
                args
            }
            Key::Block(_) => match value.as_str() {
                Some("block") => vec![format!("--{flag}")],
                Some("allow") => Vec::new(),
                _ => return Err(self.wrong(path, "\"block\" or \"allow\"", value)),
            },
            Key::Section | Key::NoEffect(_) => Vec::new(),
        };
        self.push(path, &arg, args);
        Ok(())
    }
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

    #[test]
    fn nested_keys_are_listed_by_section() {
        assert_eq!(keys_under("server"), ["port", "host", "allowedHosts"]);
        assert!(keys_under("").contains(&"browser"));
        assert!(!keys_under("").contains(&"port"));
    }
}
