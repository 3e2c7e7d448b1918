//! `--cdp-endpoint`, `--cdp-header`, `--cdp-timeout`: reaching a browser
//! that runs elsewhere, a container, a machine of a grid, a hosted
//! browser service (docs/DECISIONS.md D53, D54).
//!
//! - `ws://…` and `wss://…` are the browser's WebSocket, used as given.
//! - For `http://host:port/prefix` and `https://…` the browser's
//!   `…/prefix/json/version` names the WebSocket. Its host and port are
//!   replaced by the endpoint's, since a browser in a container or behind
//!   a proxy names its own address; behind `https://` it becomes `wss://`,
//!   and the endpoint's query (a token) goes with it when the browser's
//!   URL has none.
//! - Every `--cdp-header 'Name: value'` goes with that GET and with the
//!   WebSocket handshake (Playwright's `connectOverCDP` `headers`).
//! - `--cdp-timeout` (milliseconds, Playwright's default 30 000, 0 for no
//!   limit) bounds the whole connection: the name lookup aside, the TCP
//!   connection, TLS, the GET and the handshake.
//! - TLS is `crate::tls` (rustls, Node's trust).
//!
//! Credentials never reach a message, a log line or a response: the
//! endpoint is shown with its query values and password replaced by `…`
//! ([`redact`]), and header values are never shown.
//!
//! The GET is written out here rather than pulling in an HTTP client:
//! plain HTTP/1.1, one request, the answer read to the end, over the same
//! socket (and TLS) code the WebSocket uses.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use serde_json::Value;
use tungstenite::client::IntoClientRequest;
use tungstenite::http::{HeaderName, HeaderValue};

use crate::cdp::{Cdp, Stream};
use crate::tls::Trust;

/// The largest `/json/version` answer read.
const MAX_ANSWER: u64 = 1 << 20;

/// `--cdp-timeout`'s default, Playwright's: 30 s.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// How to reach a remote browser.
#[derive(Debug, Clone)]
pub struct Remote {
    url: url::Url,
    headers: Vec<(HeaderName, HeaderValue)>,
    timeout: Option<Duration>,
    trust: Option<Trust>,
}

impl Remote {
    /// Checks the endpoint (`ws`, `wss`, `http` or `https`), the headers
    /// (`Name: value`) and, for TLS, the trust settings, before anything
    /// connects. `timeout_ms`: `None` is the default, 0 no limit.
    pub fn new(endpoint: &str, headers: &[String], timeout_ms: Option<u64>) -> Result<Remote> {
        let url = url::Url::parse(endpoint).map_err(|e| {
            anyhow!(
                "--cdp-endpoint `{}` is not a URL ({e}); pass http(s)://host:port or ws(s)://host:port/devtools/browser/<id>",
                redact(endpoint)
            )
        })?;
        let tls = match url.scheme() {
            "ws" | "http" => false,
            "wss" | "https" => true,
            other => bail!(
                "--cdp-endpoint `{}`: {other}:// is not supported; pass http://, https://, ws:// or wss://",
                redact(endpoint)
            ),
        };
        if url.host_str().is_none_or(str::is_empty) {
            bail!("--cdp-endpoint `{}` has no host", redact(endpoint));
        }
        let headers = headers
            .iter()
            .map(|h| parse_header(h))
            .collect::<Result<Vec<_>>>()?;
        let timeout = match timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS) {
            0 => None,
            ms => Some(Duration::from_millis(ms)),
        };
        let trust = if tls {
            Some(Trust::from_env().context("--cdp-endpoint over TLS")?)
        } else {
            None
        };
        Ok(Remote {
            url,
            headers,
            timeout,
            trust,
        })
    }

    /// The endpoint as messages show it (no credentials).
    pub fn shown(&self) -> String {
        redact(self.url.as_str())
    }

    /// Connects: the WebSocket URL (from `/json/version` for http(s)),
    /// then the WebSocket, with the headers, within the time limit.
    pub fn connect(&self) -> Result<Cdp> {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        let ws = match self.url.scheme() {
            "ws" | "wss" => self.url.clone(),
            _ => self.ws_from_version(deadline)?,
        };
        let mut request = ws
            .as_str()
            .into_client_request()
            .map_err(|e| anyhow!("the browser's WebSocket URL `{}`: {e}", redact(ws.as_str())))?;
        for (k, v) in &self.headers {
            request.headers_mut().append(k.clone(), v.clone());
        }
        let (socket, conn) = self.dial(&ws, deadline)?;
        let (writer, reader) = match conn {
            None => (
                Stream::Plain(socket.try_clone()?),
                Stream::Plain(socket.try_clone()?),
            ),
            Some(conn) => {
                let (a, b) = crate::tls::split(conn, socket.try_clone()?)?;
                (Stream::Tls(a), Stream::Tls(b))
            }
        };
        Cdp::handshake(request, writer, reader, socket)
            .map_err(|e| self.late(e, deadline, "the WebSocket handshake"))
    }

    /// A socket to `url`'s host (TLS done for `wss`/`https`), its time
    /// limits set to what is left of the deadline.
    fn dial(
        &self,
        url: &url::Url,
        deadline: Option<Instant>,
    ) -> Result<(TcpStream, Option<rustls::ClientConnection>)> {
        let host = url
            .host_str()
            .ok_or_else(|| anyhow!("{} has no host", redact(url.as_str())))?;
        let port = url.port_or_known_default().unwrap_or(80);
        let authority = authority(url, port);
        let addr = authority
            .to_socket_addrs()
            .with_context(|| format!("resolving {authority}"))?
            .next()
            .ok_or_else(|| anyhow!("{authority} resolves to no address"))?;
        let left = remaining(deadline).map_err(|_| self.timed_out("the connection"))?;
        let connected = match left {
            Some(t) => TcpStream::connect_timeout(&addr, t),
            None => TcpStream::connect(addr),
        };
        let mut socket = connected.map_err(|e| {
            if e.kind() == std::io::ErrorKind::TimedOut {
                self.timed_out("the TCP connection")
            } else {
                anyhow!(
                    "connecting to {authority}: {e}; is the browser running with --remote-debugging-port, and can this host reach it?"
                )
            }
        })?;
        socket.set_nodelay(true)?;
        socket.set_read_timeout(left)?;
        socket.set_write_timeout(left)?;
        let conn = match (&self.trust, matches!(url.scheme(), "wss" | "https")) {
            (Some(trust), true) => Some(
                trust
                    .handshake(host, &mut socket)
                    .map_err(|e| self.late(e, deadline, "the TLS handshake"))?,
            ),
            (None, true) => Some(Trust::from_env()?.handshake(host, &mut socket)?),
            _ => None,
        };
        Ok((socket, conn))
    }

    /// GET `/json/version` under the endpoint's path: the browser's
    /// WebSocket URL, reached where the user reaches the endpoint.
    fn ws_from_version(&self, deadline: Option<Instant>) -> Result<url::Url> {
        let mut version = self.url.clone();
        let path = format!("{}/json/version", self.url.path().trim_end_matches('/'));
        version.set_path(&path);
        let port = self.url.port_or_known_default().unwrap_or(80);
        let authority = authority(&self.url, port);
        let shown = redact(version.as_str());
        let target = match version.query() {
            Some(q) => format!("{path}?{q}"),
            None => path.clone(),
        };
        let mut head = format!(
            "GET {target} HTTP/1.1\r\nHost: {authority}\r\nAccept: application/json\r\nConnection: close\r\n"
        );
        for (k, v) in &self.headers {
            head.push_str(k.as_str());
            head.push_str(": ");
            head.push_str(v.to_str().unwrap_or_default());
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        let (socket, conn) = self.dial(&self.url, deadline)?;
        let answer = match conn {
            None => exchange(socket, &head),
            Some(conn) => exchange(rustls::StreamOwned::new(conn, socket), &head),
        }
        .map_err(|e| self.late(e, deadline, &format!("reading {shown}")))?;
        let (head, body) = answer
            .split_once("\r\n\r\n")
            .ok_or_else(|| anyhow!("{shown} gave no HTTP answer"))?;
        let status = head.lines().next().unwrap_or_default();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        // For messages: one line, short.
        let said = || {
            let text: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
            text.chars().take(200).collect::<String>()
        };
        match status.split_whitespace().nth(1) {
            Some("200") => {}
            Some("401" | "403") => bail!(
                "{shown} answered `{status}`: the endpoint wants credentials (--cdp-header, or a token in the URL)"
            ),
            Some(code) if code.starts_with('5') => bail!(
                "{shown} answered `{status}` ({}): the endpoint is up but the browser behind it does not answer",
                said()
            ),
            _ => bail!(
                "{shown} answered `{status}` ({}): this does not look like a DevTools endpoint; pass its ws(s):// URL. (Chromium refuses a Host header that is not an IP address or localhost: use the browser's IP.)",
                said()
            ),
        }
        let v: Value =
            serde_json::from_str(body.trim()).with_context(|| format!("{shown} is not JSON"))?;
        let ws = v
            .get("webSocketDebuggerUrl")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("{shown} names no webSocketDebuggerUrl"))?;
        let mut ws = url::Url::parse(ws)
            .with_context(|| format!("the browser's WebSocket URL `{}`", redact(ws)))?;
        // The browser names its own address; reach it where the user does.
        let host = self.url.host_str().unwrap_or_default();
        ws.set_host(Some(host)).map_err(|e| anyhow!("{e}"))?;
        ws.set_port(Some(port))
            .map_err(|_| anyhow!("cannot set the port"))?;
        if self.url.scheme() == "https" && ws.scheme() == "ws" {
            ws.set_scheme("wss")
                .map_err(|_| anyhow!("cannot make the WebSocket URL wss://"))?;
        }
        if ws.query().is_none() && self.url.query().is_some() {
            ws.set_query(self.url.query());
        }
        Ok(ws)
    }

    fn timed_out(&self, what: &str) -> anyhow::Error {
        anyhow!(
            "{what} to {} did not finish within --cdp-timeout ({} ms)",
            self.shown(),
            self.timeout.map_or(0, |t| t.as_millis())
        )
    }

    /// An error, said as a timeout when the deadline has passed (a read
    /// that timed out is reported as `WouldBlock` or `TimedOut`).
    fn late(&self, e: anyhow::Error, deadline: Option<Instant>, what: &str) -> anyhow::Error {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out(what)
        } else {
            e
        }
    }
}

/// What is left until `deadline` (`None`: no limit); `Err` when past.
fn remaining(deadline: Option<Instant>) -> Result<Option<Duration>, ()> {
    match deadline {
        None => Ok(None),
        Some(d) => match d.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => Ok(Some(left)),
            _ => Err(()),
        },
    }
}

fn authority(url: &url::Url, port: u16) -> String {
    match url.host() {
        Some(url::Host::Ipv6(a)) => format!("[{a}]:{port}"),
        _ => format!("{}:{port}", url.host_str().unwrap_or_default()),
    }
}

/// `Name: value` (Playwright's `--cdp-header`: split at the first colon,
/// both sides trimmed). A name or value HTTP does not allow is an error;
/// the value is never shown.
pub fn parse_header(arg: &str) -> Result<(HeaderName, HeaderValue)> {
    let Some((name, value)) = arg.split_once(':') else {
        // Not echoed: it may be a credential.
        bail!(
            "a --cdp-header has no colon; write it as 'Name: value', e.g. 'Authorization: Bearer <token>'"
        );
    };
    let name = name.trim();
    let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
        anyhow!("--cdp-header: `{name}` is not an HTTP header name (letters, digits, - and _)")
    })?;
    let value = HeaderValue::from_str(value.trim()).map_err(|_| {
        anyhow!("--cdp-header {name}: the value holds a character HTTP headers cannot carry (a line break, a control character)")
    })?;
    Ok((header, value))
}

/// An endpoint URL with credentials hidden: the password and every query
/// value become `…` (`wss://host/?token=…`). A text that is not a URL
/// loses everything after `?`.
pub fn redact(endpoint: &str) -> String {
    let Ok(mut url) = url::Url::parse(endpoint) else {
        return match endpoint.split_once('?') {
            Some((base, _)) => format!("{base}?…"),
            None => endpoint.to_owned(),
        };
    };
    if url.password().is_some() {
        let _ = url.set_password(Some("…"));
    }
    if url.query().is_some() {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, _)| (k.into_owned(), "…".to_owned()))
            .collect();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    // `…` is percent-encoded in a URL; shown as typed.
    url.as_str().replace("%E2%80%A6", "…")
}

/// Sends `request` and reads one HTTP answer.
fn exchange(mut stream: impl Read + Write, request: &str) -> Result<String> {
    stream.write_all(request.as_bytes())?;
    stream.flush()?;
    read_answer(&mut stream)
}

/// Reads one HTTP answer: the head, then a body of `Content-Length`
/// bytes, chunks up to the last one, or (neither) up to the close.
/// Chromium keeps the connection open whatever the request asks.
fn read_answer(stream: &mut impl Read) -> Result<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&buf);
        if let Some(end) = text.find("\r\n\r\n") {
            let head = text[..end].to_ascii_lowercase();
            let body_len = text.len() - end - 4;
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            let done = match length {
                Some(n) => body_len >= n,
                None if head.contains("transfer-encoding: chunked") => text.ends_with("0\r\n\r\n"),
                None => false,
            };
            if done {
                return Ok(text.into_owned());
            }
        }
        if buf.len() as u64 > MAX_ANSWER {
            bail!("the answer is over {MAX_ANSWER} bytes");
        }
        let n = match stream.read(&mut chunk) {
            Ok(n) => n,
            // A TLS peer that closes without close_notify: the end.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => 0,
            Err(e) => return Err(e.into()),
        };
        if n == 0 {
            return Ok(String::from_utf8_lossy(&buf).into_owned());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_checked_before_connecting() {
        assert!(Remote::new("ws://127.0.0.1:9222/devtools/browser/x", &[], None).is_ok());
        assert!(Remote::new("wss://grid.example/devtools/browser/x", &[], Some(0)).is_ok());
        let e = Remote::new("ftp://h:1/x", &[], None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ftp:// is not supported"), "{e}");
        let e = Remote::new("localhost:9222", &[], None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--cdp-endpoint"), "{e}");
        let r = Remote::new("https://h/?token=s3cret", &["X-Api-Key: k".into()], Some(5)).unwrap();
        assert_eq!(r.timeout, Some(Duration::from_millis(5)));
        assert_eq!(r.shown(), "https://h/?token=…");
        assert_eq!(
            Remote::new("http://h:1", &[], None).unwrap().timeout,
            Some(Duration::from_secs(30))
        );
    }

    #[test]
    fn headers_as_playwright_splits_them() {
        let (k, v) = parse_header("Authorization:  Bearer abc:def ").unwrap();
        assert_eq!(
            (k.as_str(), v.to_str().unwrap()),
            ("authorization", "Bearer abc:def")
        );
        let e = parse_header("Authorization Bearer secret")
            .unwrap_err()
            .to_string();
        assert!(e.contains("has no colon") && !e.contains("secret"), "{e}");
        let e = parse_header("Bad Name: x").unwrap_err().to_string();
        assert!(e.contains("not an HTTP header name"), "{e}");
        let e = parse_header("X-Key: tok\nzzsecret")
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot carry") && !e.contains("zzsecret"), "{e}");
    }

    #[test]
    fn credentials_never_shown() {
        assert_eq!(
            redact("wss://user:pw@farm.example/chromium?token=abc&stealth=true"),
            "wss://user:…@farm.example/chromium?token=…&stealth=…"
        );
        assert_eq!(redact("http://127.0.0.1:9222"), "http://127.0.0.1:9222/");
        assert_eq!(redact("not a url?token=abc"), "not a url?…");
    }

    #[test]
    fn chunked_bodies() {
        assert_eq!(dechunk("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), "abcde");
    }
}
