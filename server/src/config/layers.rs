//! Where the `mcp` command's settings come from, as @playwright/mcp has
//! it: the command line wins over `PLAYWRIGHT_MCP_*` environment variables
//! ([`super::env`]), which win over the config file ([`super::file`]).
//!
//! Each of the two lower layers is turned into command-line arguments (a
//! [`Setting`] per flag it sets), and the arguments of a flag a higher
//! layer already sets are left out. The result is one argument list,
//! lowest layer first, which clap parses and checks like any other: so a
//! value from the environment or a file is checked exactly as the flag is,
//! and a refusal or a bad value names where it came from ([`Origins`]).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;

use anyhow::{Result, anyhow, bail};
use clap::parser::ValueSource;
use clap::{ArgMatches, Command};

/// One flag set by the environment or a config file: the clap id of the
/// flag, the arguments that say it, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The clap id of the flag (`timeout_action`).
    pub id: String,
    /// The arguments, e.g. `["--timeout-action=5000"]` (empty: the layer
    /// sets the flag off, which still hides the layers below).
    pub args: Vec<String>,
    /// Where it came from, for messages: `PLAYWRIGHT_MCP_TIMEOUT_ACTION`,
    /// `config file c.json: key \`timeouts.action\``.
    pub origin: String,
}

/// Flags that are one setting said two ways: a higher layer giving either
/// hides the lower layers' value of the others (`--headed` on the command
/// line wins over `browser.launchOptions.headless: true` in the file).
const SAME_SETTING: &[&[&str]] = &[
    &["headless", "headed"],
    &["sandbox", "no_sandbox"],
    &["device", "mobile"],
];

/// Flags a higher layer's flag covers besides itself: the old
/// `--action-timeout` (seconds) sets the action and navigation timeouts.
const COVERS: &[(&str, &[&str])] = &[("action_timeout", &["timeout_action", "timeout_navigation"])];

/// The ids a flag given in a higher layer hides in the lower ones.
fn hidden_by(id: &str) -> Vec<String> {
    let mut out = vec![id.to_owned()];
    for group in SAME_SETTING.iter().filter(|g| g.contains(&id)) {
        out.extend(group.iter().map(|s| (*s).to_owned()));
    }
    for (_, covered) in COVERS.iter().filter(|(c, _)| *c == id) {
        out.extend(covered.iter().map(|s| (*s).to_owned()));
    }
    out
}

/// Where each flag not from the command line came from: clap id → origin.
#[derive(Debug, Clone, Default)]
pub struct Origins(BTreeMap<String, String>);

impl Origins {
    /// Where the flag with this clap id came from, when not the command line.
    pub fn of(&self, id: &str) -> Option<&str> {
        self.0.get(id).map(String::as_str)
    }

    /// `--flag` or `--flag (from ORIGIN)`, for messages about a flag.
    pub fn name(&self, id: &str, flag: &str) -> String {
        match self.of(id) {
            Some(o) => format!("--{flag} (from {o})"),
            None => format!("--{flag}"),
        }
    }

    /// A message that starts with a flag (`--browser webkit: …`) says
    /// where the flag came from when that was not the command line.
    pub fn attribute(&self, message: &str) -> String {
        if message.contains(" (from ") {
            return message.to_owned();
        }
        for (id, origin) in &self.0 {
            let flag = format!("--{}", id.replace('_', "-"));
            if let Some(rest) = message.strip_prefix(&flag)
                && let Some(end) = rest.find(':')
                && !rest[..end].contains(" --")
            {
                return format!("{flag}{} (from {origin}){}", &rest[..end], &rest[end..]);
            }
        }
        message.to_owned()
    }
}

/// The merged argument list: `argv` with the layers' arguments put in
/// front of the command line's own, after the subcommand at `at`.
pub fn merge(
    cmd: &Command,
    argv: &[OsString],
    at: usize,
    given: &ArgMatches,
    layers: &[Vec<Setting>],
) -> Result<(Vec<OsString>, Origins)> {
    // Flags set by a higher layer, starting with the command line.
    let mut taken: BTreeSet<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().as_str().to_owned())
        .filter(|id| given.value_source(id) == Some(ValueSource::CommandLine))
        .flat_map(|id| hidden_by(&id))
        .collect();
    let mut origins = BTreeMap::new();
    // Highest layer first; each layer's arguments go in front of the ones
    // already kept, so the list ends up lowest layer first.
    let mut front: Vec<OsString> = Vec::new();
    for layer in layers {
        let mut kept: Vec<&Setting> = Vec::new();
        for s in layer {
            if !taken.contains(&s.id) {
                kept.push(s);
            }
        }
        let mut args = Vec::new();
        for s in &kept {
            taken.extend(hidden_by(&s.id));
            origins.insert(s.id.clone(), s.origin.clone());
            args.extend(s.args.iter().map(OsString::from));
        }
        args.extend(front);
        front = args;
    }
    let mut merged: Vec<OsString> = argv[..=at].to_vec();
    merged.extend(front);
    merged.extend(argv[at + 1..].iter().cloned());
    Ok((merged, Origins(origins)))
}

/// Parses the merged list; an error about a flag that came from a layer
/// names the layer (the variable, the file and key) and says what clap
/// said, on one line. Errors about the command line's own flags are
/// clap's, with its usage.
pub fn check(cmd: &Command, merged: &[OsString], origins: &Origins) -> Result<ArgMatches> {
    match cmd.clone().try_get_matches_from(merged) {
        Ok(m) => Ok(m),
        Err(e) => {
            use clap::error::{ContextKind, ContextValue};
            let flag = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::String(s)) => s.clone(),
                _ => String::new(),
            };
            let long = flag
                .trim_start_matches("--")
                .split([' ', '=', '<'])
                .next()
                .unwrap_or_default()
                .to_owned();
            let id = cmd
                .get_arguments()
                .find(|a| a.get_long() == Some(long.as_str()))
                .map(|a| a.get_id().as_str().to_owned());
            let origin = id.as_deref().and_then(|id| origins.of(id));
            let detail = e.render().to_string();
            let detail = detail
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ")
                .to_owned();
            match origin {
                Some(o) => bail!("{o}: {detail}"),
                None => Err(anyhow!(e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction};

    fn cmd() -> Command {
        Command::new("mcp")
            .args_override_self(true)
            .arg(Arg::new("port").long("port"))
            .arg(
                Arg::new("headless")
                    .long("headless")
                    .action(ArgAction::SetTrue)
                    .overrides_with("headed"),
            )
            .arg(
                Arg::new("headed")
                    .long("headed")
                    .action(ArgAction::SetTrue)
                    .overrides_with("headless"),
            )
    }

    fn set(id: &str, arg: &str, origin: &str) -> Setting {
        Setting {
            id: id.into(),
            args: vec![arg.into()],
            origin: origin.into(),
        }
    }

    #[test]
    fn command_line_beats_environment_beats_file() {
        let cmd = cmd();
        let argv: Vec<OsString> = ["x", "mcp", "--headed"].map(OsString::from).to_vec();
        let given = cmd.clone().get_matches_from(&argv[1..]);
        let env = vec![set("port", "--port=2", "PLAYWRIGHT_MCP_PORT")];
        let file = vec![
            set("port", "--port=1", "file: key `server.port`"),
            set("headless", "--headless", "file: key `headless`"),
        ];
        let (merged, origins) = merge(&cmd, &argv, 1, &given, &[env, file]).unwrap();
        assert_eq!(
            merged,
            ["x", "mcp", "--port=2", "--headed"].map(OsString::from)
        );
        assert_eq!(origins.of("port"), Some("PLAYWRIGHT_MCP_PORT"));
        let m = check(&cmd, &merged[1..], &origins).unwrap();
        assert!(m.get_flag("headed"));
        assert!(!m.get_flag("headless"));
    }

    #[test]
    fn messages_about_a_flag_say_where_it_came_from() {
        let mut o = BTreeMap::new();
        o.insert("browser".to_owned(), "PLAYWRIGHT_MCP_BROWSER".to_owned());
        let o = Origins(o);
        assert_eq!(
            o.attribute("--browser webkit: not here"),
            "--browser webkit (from PLAYWRIGHT_MCP_BROWSER): not here"
        );
        assert_eq!(o.attribute("--port: x"), "--port: x");
    }

    #[test]
    fn a_bad_value_names_its_layer() {
        let cmd = cmd().arg(
            Arg::new("n")
                .long("n")
                .value_parser(clap::value_parser!(u16)),
        );
        let argv: Vec<OsString> = ["x", "mcp"].map(OsString::from).to_vec();
        let given = cmd.clone().get_matches_from(&argv[1..]);
        let env = vec![set("n", "--n=eighty", "PLAYWRIGHT_MCP_N")];
        let (merged, origins) = merge(&cmd, &argv, 1, &given, &[env]).unwrap();
        let e = check(&cmd, &merged[1..], &origins).unwrap_err().to_string();
        assert!(
            e.starts_with("PLAYWRIGHT_MCP_N: invalid value 'eighty'"),
            "{e}"
        );
    }
}
