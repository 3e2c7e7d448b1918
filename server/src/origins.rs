//! `--allowed-origins` and `--blocked-origins` (Playwright's semantics):
//! semicolon-separated origins, `scheme://host[:port]`, `:*` for any port;
//! the blocklist is checked first; with an allowlist, only its origins may
//! be requested. URLs without an origin (`data:`, `about:`, `blob:`) are
//! never blocked. This keeps an agent on its sites; it is not a security
//! boundary against a hostile page (a page can still reach out through
//! what the Fetch domain does not see, such as a service worker).

use anyhow::{Result, bail};

/// One entry of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pattern {
    text: String,
    scheme: String,
    host: String,
    /// `None`: any port (`:*`).
    port: Option<u16>,
}

impl Pattern {
    fn parse(entry: &str, flag: &str) -> Result<Pattern> {
        let text = entry.trim().trim_end_matches('/');
        let (base, any_port) = match text.strip_suffix(":*") {
            Some(b) => (b, true),
            None => (text, false),
        };
        let bad = || {
            anyhow::anyhow!(
                "{flag}: `{entry}` is not an origin; write scheme://host[:port], e.g. https://example.com or http://localhost:*"
            )
        };
        let url = url::Url::parse(base).map_err(|_| bad())?;
        if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
            return Err(bad());
        }
        let host = url.host_str().ok_or_else(bad)?.to_ascii_lowercase();
        Ok(Pattern {
            text: text.to_owned(),
            scheme: url.scheme().to_owned(),
            host,
            port: if any_port {
                None
            } else {
                url.port_or_known_default()
            },
        })
    }

    fn matches(&self, o: &Origin) -> bool {
        self.scheme == o.scheme && self.host == o.host && self.port.is_none_or(|p| p == o.port)
    }
}

struct Origin {
    scheme: String,
    host: String,
    port: u16,
    text: String,
}

fn origin_of(url: &str) -> Option<Origin> {
    let u = url::Url::parse(url).ok()?;
    if !matches!(u.scheme(), "http" | "https" | "ws" | "wss") {
        return None;
    }
    let host = u.host_str()?.to_ascii_lowercase();
    let port = u.port_or_known_default()?;
    Some(Origin {
        text: u.origin().ascii_serialization(),
        scheme: u.scheme().to_owned(),
        host,
        port,
    })
}

/// The two lists.
#[derive(Debug, Clone, Default)]
pub struct OriginPolicy {
    allowed: Vec<Pattern>,
    blocked: Vec<Pattern>,
}

impl OriginPolicy {
    /// From the flags' values (semicolon-separated); `None` when both are empty.
    pub fn parse(allowed: &[String], blocked: &[String]) -> Result<Option<OriginPolicy>> {
        let list = |values: &[String], flag: &str| -> Result<Vec<Pattern>> {
            values
                .iter()
                .flat_map(|v| v.split(';'))
                .filter(|e| !e.trim().is_empty())
                .map(|e| Pattern::parse(e, flag))
                .collect()
        };
        let policy = OriginPolicy {
            allowed: list(allowed, "--allowed-origins")?,
            blocked: list(blocked, "--blocked-origins")?,
        };
        if policy.allowed.is_empty() && policy.blocked.is_empty() {
            return Ok(None);
        }
        Ok(Some(policy))
    }

    /// Whether the browser may request `url`.
    pub fn allows(&self, url: &str) -> bool {
        self.refusal(url).is_none()
    }

    /// Why a request to `url` is refused, with what to do; `None` when allowed.
    pub fn refusal(&self, url: &str) -> Option<String> {
        let o = origin_of(url)?;
        if let Some(p) = self.blocked.iter().find(|p| p.matches(&o)) {
            return Some(format!(
                "{url} is blocked: its origin {} matches `{}` of --blocked-origins. Use a page of another origin, or start the server without that entry",
                o.text, p.text
            ));
        }
        if !self.allowed.is_empty() && !self.allowed.iter().any(|p| p.matches(&o)) {
            let list: Vec<&str> = self.allowed.iter().map(|p| p.text.as_str()).collect();
            return Some(format!(
                "{url} is blocked: its origin {} is not in --allowed-origins ({}). Use a page of those origins, or add it to the list",
                o.text,
                list.join("; ")
            ));
        }
        None
    }
}

/// Fails when a list entry is not an origin (for start-up checks).
pub fn check(allowed: &[String], blocked: &[String]) -> Result<()> {
    if let Err(e) = OriginPolicy::parse(allowed, blocked) {
        bail!("{e}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allowed: &str, blocked: &str) -> OriginPolicy {
        OriginPolicy::parse(&[allowed.to_owned()], &[blocked.to_owned()])
            .unwrap()
            .unwrap()
    }

    #[test]
    fn blocklist_first_then_allowlist() {
        let p = policy("http://127.0.0.1:*", "http://127.0.0.1:9000");
        assert!(p.allows("http://127.0.0.1:8000/a"));
        assert!(!p.allows("http://127.0.0.1:9000/b"));
        assert!(!p.allows("https://example.com/"));
        assert!(p.allows("data:text/html,hi"));
        assert!(p.allows("about:blank"));
    }

    #[test]
    fn default_ports_and_case() {
        let p = policy("", "https://Example.com");
        assert!(!p.allows("https://example.com:443/x"));
        assert!(p.allows("https://example.com:8443/x"));
        assert!(p.allows("http://example.com/x"));
    }

    #[test]
    fn bad_entries_name_the_flag() {
        let e = OriginPolicy::parse(&["example.com".into()], &[]).unwrap_err();
        assert!(
            e.to_string().contains("--allowed-origins: `example.com`"),
            "{e}"
        );
        let e = OriginPolicy::parse(&[], &["http://a.com/path".into()]).unwrap_err();
        assert!(e.to_string().contains("--blocked-origins"), "{e}");
        assert!(OriginPolicy::parse(&[], &[]).unwrap().is_none());
    }
}
