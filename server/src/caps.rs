//! Opt-in tool groups (`--caps`, Playwright's flag): tools only some users
//! want stay out of the default catalog, which every conversation pays for.

use std::str::FromStr;

/// A group of opt-in tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    /// Coordinate mouse tools (`browser_mouse_*_xy`), for agents that read
    /// screenshots.
    Vision,
    /// `browser_pdf_save`.
    Pdf,
    /// `browser_storage_state`.
    Storage,
}

impl Cap {
    /// The flag's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Cap::Vision => "vision",
            Cap::Pdf => "pdf",
            Cap::Storage => "storage",
        }
    }
}

impl FromStr for Cap {
    type Err = String;

    fn from_str(s: &str) -> Result<Cap, String> {
        match s.trim() {
            "vision" => Ok(Cap::Vision),
            "pdf" => Ok(Cap::Pdf),
            "storage" => Ok(Cap::Storage),
            other => match refused(other) {
                Some(why) => Err(format!("capability `{other}`: {why}")),
                None => Err(format!(
                    "unknown capability `{other}`; use vision, pdf or storage (comma-separated)"
                )),
            },
        }
    }
}

/// @playwright/mcp's capabilities whose tools are always on here.
const ALWAYS_ON: &[&str] = &["core", "core-navigation", "core-tabs", "core-input"];

/// Why an @playwright/mcp capability this server does not offer is
/// refused, and what to use instead.
fn refused(cap: &str) -> Option<&'static str> {
    Some(match cap {
        "devtools" | "tracing" => {
            "its tools (tracing, video, highlighting, the debugger) are not offered by this server; leave it out"
        }
        "testing" => {
            "its assertion tools (browser_verify_*, browser_generate_locator) are not offered by this server; read the page with browser_snapshot"
        }
        "network" => {
            "its routing tools (browser_route, browser_network_state_set) are not offered by this server; browser_network_requests is always on"
        }
        "core-install" => {
            "browser_install is not offered: this server uses an installed Chromium (make setup installs it)"
        }
        "config" => {
            "browser_get_config is not offered by this server; the resolved settings are the flags, PLAYWRIGHT_MCP_* variables and config file it started with"
        }
        _ => return None,
    })
}

/// The enabled groups.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caps(Vec<Cap>);

impl Caps {
    /// Parses `vision,pdf,storage` (empty items are ignored, and so are
    /// @playwright/mcp's `core` capabilities, always on here).
    pub fn parse(list: &str) -> Result<Caps, String> {
        let mut caps = Vec::new();
        for item in list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty() && !ALWAYS_ON.contains(s))
        {
            let cap: Cap = item.parse()?;
            if !caps.contains(&cap) {
                caps.push(cap);
            }
        }
        Ok(Caps(caps))
    }

    /// These groups and `cap`.
    pub fn with(mut self, cap: Cap) -> Caps {
        if !self.0.contains(&cap) {
            self.0.push(cap);
        }
        self
    }

    /// Every group (for tests and the full catalog).
    pub fn all() -> Caps {
        Caps(vec![Cap::Vision, Cap::Pdf, Cap::Storage])
    }

    /// Whether `tool` may be listed and called.
    pub fn allows(&self, tool: &str) -> bool {
        cap_of(tool).is_none_or(|c| self.0.contains(&c))
    }
}

/// The group a tool belongs to; `None` for the default tools.
pub fn cap_of(tool: &str) -> Option<Cap> {
    match tool {
        "browser_mouse_move_xy"
        | "browser_mouse_click_xy"
        | "browser_mouse_drag_xy"
        | "browser_mouse_down"
        | "browser_mouse_up"
        | "browser_mouse_wheel" => Some(Cap::Vision),
        "browser_pdf_save" => Some(Cap::Pdf),
        "browser_storage_state" => Some(Cap::Storage),
        _ => None,
    }
}

/// The error for a tool whose group is off.
pub fn not_enabled(tool: &str) -> Option<String> {
    cap_of(tool).map(|c| {
        format!(
            "{tool} is an opt-in tool; start the server with --caps {}",
            c.as_str()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_gates() {
        let c = Caps::parse("vision, pdf,vision,storage").unwrap();
        assert_eq!(c, Caps::all());
        assert!(!Caps::parse("pdf").unwrap().allows("browser_storage_state"));
        assert!(
            Caps::parse("storage")
                .unwrap()
                .allows("browser_storage_state")
        );
        assert!(Caps::default().allows("browser_click"));
        assert!(!Caps::default().allows("browser_pdf_save"));
        assert!(Caps::parse("pdf").unwrap().allows("browser_pdf_save"));
        assert!(
            Caps::parse("teleport")
                .unwrap_err()
                .contains("vision, pdf or storage")
        );
        assert_eq!(
            Caps::parse("core,core-tabs,pdf").unwrap(),
            Caps::parse("pdf").unwrap()
        );
        assert!(
            Caps::parse("devtools")
                .unwrap_err()
                .starts_with("capability `devtools`: its tools (tracing")
        );
    }
}
