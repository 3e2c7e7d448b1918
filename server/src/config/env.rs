//! `PLAYWRIGHT_MCP_*` environment variables, @playwright/mcp's: every long
//! flag of `mcp` has one, `PLAYWRIGHT_MCP_` and the flag in upper snake
//! case (`--timeout-action` → `PLAYWRIGHT_MCP_TIMEOUT_ACTION`), except the
//! few @playwright/mcp names otherwise ([`RENAMED`]). A flag's variable is
//! read only when the flag is not on the command line (see
//! [`super::layers`]).
//!
//! Values: an on/off flag takes `true`/`1` or `false`/`0` (`false` turns
//! its opposite on: `PLAYWRIGHT_MCP_HEADLESS=false` is `--headed`); a list
//! takes the flag's separator (commas, or semicolons for the origin lists);
//! anything else is the flag's value as typed. An empty variable counts as
//! unset, as in @playwright/mcp.

use anyhow::{Result, bail};
use clap::{Arg, ArgAction, Command};

use super::layers::Setting;

/// The prefix of every variable.
pub const PREFIX: &str = "PLAYWRIGHT_MCP_";

/// Flags whose variable @playwright/mcp names otherwise, and whether the
/// variable says the opposite of the flag (`PLAYWRIGHT_MCP_WEBMCP=false`
/// is `--no-webmcp`).
const RENAMED: &[(&str, &str, bool)] = &[
    ("cdp-header", "PLAYWRIGHT_MCP_CDP_HEADERS", false),
    ("remote-header", "PLAYWRIGHT_MCP_REMOTE_HEADERS", false),
    ("secrets", "PLAYWRIGHT_MCP_SECRETS_FILE", false),
    ("no-webmcp", "PLAYWRIGHT_MCP_WEBMCP", true),
];

/// Flags with no variable: a secret's value is given in a file
/// (`--secrets`), not in the environment flag by flag.
const NO_VARIABLE: &[&str] = &["secret", "help", "version"];

/// The variable of a long flag, and whether it says the opposite.
pub fn variable(long: &str) -> (String, bool) {
    match RENAMED.iter().find(|(f, _, _)| *f == long) {
        Some((_, v, inverted)) => ((*v).to_owned(), *inverted),
        None => (
            format!("{PREFIX}{}", long.replace('-', "_").to_ascii_uppercase()),
            false,
        ),
    }
}

/// Every flag of `cmd` that has a variable, with it: (long flag, variable).
pub fn variables(cmd: &Command) -> Vec<(String, String)> {
    cmd.get_arguments()
        .filter_map(|a| a.get_long())
        .filter(|l| !NO_VARIABLE.contains(l))
        .map(|l| (l.to_owned(), variable(l).0))
        .collect()
}

/// `true`/`1` or `false`/`0`.
fn boolean(var: &str, value: &str) -> Result<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => bail!("{var}: `{value}` is not a switch; use true, false, 1 or 0"),
    }
}

/// The flag that says the opposite of an on/off flag (`--headed` for
/// `--headless`), if there is one.
pub fn opposite<'a>(cmd: &'a Command, arg: &Arg) -> Option<&'a Arg> {
    let long = arg.get_long()?;
    let other = match long {
        "headless" => "headed",
        "headed" => "headless",
        "sandbox" => "no-sandbox",
        "no-sandbox" => "sandbox",
        _ => return None,
    };
    cmd.get_arguments().find(|a| a.get_long() == Some(other))
}

/// The settings the environment gives (`lookup` reads a variable).
pub fn settings(cmd: &Command, lookup: &dyn Fn(&str) -> Option<String>) -> Result<Vec<Setting>> {
    let mut out = Vec::new();
    for arg in cmd.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if NO_VARIABLE.contains(&long) {
            continue;
        }
        let (var, inverted) = variable(long);
        let Some(value) = lookup(&var).filter(|v| !v.trim().is_empty()) else {
            continue;
        };
        let id = arg.get_id().as_str().to_owned();
        let args = match arg.get_action() {
            ArgAction::SetTrue => {
                let on = boolean(&var, &value)? != inverted;
                match (on, opposite(cmd, arg)) {
                    (true, _) => vec![format!("--{long}")],
                    (false, Some(o)) => vec![format!("--{}", o.get_long().unwrap_or_default())],
                    (false, None) => Vec::new(),
                }
            }
            _ => vec![format!("--{long}={value}")],
        };
        out.push(Setting {
            id,
            args,
            origin: var,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd() -> Command {
        Command::new("mcp")
            .arg(Arg::new("timeout_action").long("timeout-action"))
            .arg(
                Arg::new("headless")
                    .long("headless")
                    .action(ArgAction::SetTrue),
            )
            .arg(Arg::new("headed").long("headed").action(ArgAction::SetTrue))
            .arg(
                Arg::new("no_webmcp")
                    .long("no-webmcp")
                    .action(ArgAction::SetTrue),
            )
            .arg(Arg::new("secrets").long("secrets"))
            .arg(Arg::new("secret").long("secret").action(ArgAction::Append))
    }

    fn from(vars: &[(&str, &str)]) -> Result<Vec<(String, Vec<String>)>> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let lookup = move |k: &str| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        Ok(settings(&cmd(), &lookup)?
            .into_iter()
            .map(|s| (s.origin, s.args))
            .collect())
    }

    #[test]
    fn names_follow_the_flags_with_playwrights_exceptions() {
        assert_eq!(
            variable("timeout-action").0,
            "PLAYWRIGHT_MCP_TIMEOUT_ACTION"
        );
        assert_eq!(variable("secrets").0, "PLAYWRIGHT_MCP_SECRETS_FILE");
        assert_eq!(variable("cdp-header").0, "PLAYWRIGHT_MCP_CDP_HEADERS");
        assert_eq!(
            variable("no-webmcp"),
            ("PLAYWRIGHT_MCP_WEBMCP".into(), true)
        );
    }

    #[test]
    fn values_become_flags() {
        let got = from(&[
            ("PLAYWRIGHT_MCP_TIMEOUT_ACTION", "1500"),
            ("PLAYWRIGHT_MCP_HEADLESS", "false"),
            ("PLAYWRIGHT_MCP_WEBMCP", "false"),
            ("PLAYWRIGHT_MCP_SECRETS_FILE", ""),
            ("PLAYWRIGHT_MCP_SECRET", "A=b"),
        ])
        .unwrap();
        assert_eq!(
            got,
            vec![
                (
                    "PLAYWRIGHT_MCP_TIMEOUT_ACTION".into(),
                    vec!["--timeout-action=1500".into()]
                ),
                ("PLAYWRIGHT_MCP_HEADLESS".into(), vec!["--headed".into()]),
                ("PLAYWRIGHT_MCP_WEBMCP".into(), vec!["--no-webmcp".into()]),
            ]
        );
        let e = from(&[("PLAYWRIGHT_MCP_HEADED", "yes")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "PLAYWRIGHT_MCP_HEADED: `yes` is not a switch; use true, false, 1 or 0"
        );
    }
}
