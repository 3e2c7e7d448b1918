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
            other => Err(format!(
                "unknown capability `{other}`; use vision, pdf or storage (comma-separated)"
            )),
        }
    }
}

/// The enabled groups.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caps(Vec<Cap>);

impl Caps {
    /// Parses `vision,pdf,storage` (empty items are ignored).
    pub fn parse(list: &str) -> Result<Caps, String> {
        let mut caps = Vec::new();
        for item in list.split(',').filter(|s| !s.trim().is_empty()) {
            let cap: Cap = item.parse()?;
            if !caps.contains(&cap) {
                caps.push(cap);
            }
        }
        Ok(Caps(caps))
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
            Caps::parse("tracing")
                .unwrap_err()
                .contains("vision, pdf or storage")
        );
    }
}
