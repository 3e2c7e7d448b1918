//! `--browser`: @playwright/mcp's browser or Chrome channel. Every
//! Chromium-family channel is a browser this server can drive over CDP;
//! its binary is found where its installer puts it (the paths Playwright
//! looks in). Firefox and WebKit are refused at start-up: this server
//! speaks CDP only.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

/// A browser channel (`--browser`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Channel {
    /// Chromium: Debian's, or the one `$CHROMIUM` or `PATH` gives (the
    /// default).
    #[default]
    Chromium,
    /// An installed Chrome or Edge, by its channel name.
    Installed(&'static str),
}

/// The Chromium-family channels @playwright/mcp accepts, with where each
/// installs its binary (Linux, then macOS).
const INSTALLED: &[(&str, &[&str])] = &[
    (
        "chrome",
        &[
            "/opt/google/chrome/chrome",
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        ],
    ),
    (
        "chrome-beta",
        &[
            "/opt/google/chrome-beta/chrome",
            "/Applications/Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta",
        ],
    ),
    (
        "chrome-dev",
        &[
            "/opt/google/chrome-unstable/chrome",
            "/Applications/Google Chrome Dev.app/Contents/MacOS/Google Chrome Dev",
        ],
    ),
    (
        "chrome-canary",
        &["/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary"],
    ),
    (
        "msedge",
        &[
            "/opt/microsoft/msedge/msedge",
            "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
        ],
    ),
    (
        "msedge-beta",
        &[
            "/opt/microsoft/msedge-beta/msedge",
            "/Applications/Microsoft Edge Beta.app/Contents/MacOS/Microsoft Edge Beta",
        ],
    ),
    (
        "msedge-dev",
        &[
            "/opt/microsoft/msedge-dev/msedge",
            "/Applications/Microsoft Edge Dev.app/Contents/MacOS/Microsoft Edge Dev",
        ],
    ),
    (
        "msedge-canary",
        &["/Applications/Microsoft Edge Canary.app/Contents/MacOS/Microsoft Edge Canary"],
    ),
];

impl Channel {
    /// The channel of `--browser NAME` (`None`: Chromium). Firefox and
    /// WebKit are refused, with what to use instead.
    pub fn parse(name: Option<&str>) -> Result<Channel> {
        let Some(name) = name.map(str::trim) else {
            return Ok(Channel::Chromium);
        };
        if name == "chromium" {
            return Ok(Channel::Chromium);
        }
        if let Some((known, _)) = INSTALLED.iter().find(|(n, _)| *n == name) {
            return Ok(Channel::Installed(known));
        }
        if name == "firefox" || name == "webkit" || name.starts_with("moz-firefox") {
            bail!(
                "--browser {name}: this server drives Chromium-family browsers over the Chrome DevTools Protocol, not {name}; use --browser chromium (the default), chrome or msedge"
            );
        }
        let names: Vec<&str> = std::iter::once("chromium")
            .chain(INSTALLED.iter().map(|(n, _)| *n))
            .collect();
        bail!(
            "--browser {name}: unknown browser; use one of {}",
            names.join(", ")
        )
    }

    /// The binary to launch: `None` for Chromium (found at launch, see
    /// `find_chromium`), else the channel's installed binary; a channel
    /// that is not installed is an error saying where it was looked for.
    pub fn executable(self) -> Result<Option<PathBuf>> {
        let Channel::Installed(name) = self else {
            return Ok(None);
        };
        let paths = INSTALLED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| *p)
            .unwrap_or_default();
        match paths.iter().find(|p| Path::new(p).exists()) {
            Some(p) => Ok(Some(PathBuf::from(p))),
            None => bail!(
                "--browser {name}: it is not installed here (looked for {}); install it, pass --executable-path, or use --browser chromium",
                paths.join(", ")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chromium_family_only() {
        assert_eq!(Channel::parse(None).unwrap(), Channel::Chromium);
        assert_eq!(Channel::parse(Some("chromium")).unwrap(), Channel::Chromium);
        assert_eq!(
            Channel::parse(Some("msedge")).unwrap(),
            Channel::Installed("msedge")
        );
        let e = Channel::parse(Some("firefox")).unwrap_err().to_string();
        assert!(
            e.starts_with("--browser firefox: this server drives Chromium-family browsers"),
            "{e}"
        );
        let e = Channel::parse(Some("opera")).unwrap_err().to_string();
        assert!(
            e.contains("unknown browser; use one of chromium, chrome"),
            "{e}"
        );
    }
}
