//! `--cdp-endpoint`: from the URL a user has to the browser's WebSocket.
//!
//! `ws://host:port/devtools/browser/<id>` is used as given. For
//! `http://host:port` the browser's `/json/version` names the WebSocket;
//! its host and port are replaced by the endpoint's, since a browser in a
//! container or behind a port mapping names its own address (Playwright's
//! `connectOverCDP` does the same). That one GET is written out here rather
//! than pulling in an HTTP client: plain HTTP/1.1, one request, the answer
//! read to the end. TLS (`https://`, `wss://`) is not supported: put the
//! browser behind a plain port (an SSH tunnel, a private network).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use serde_json::Value;

/// The largest `/json/version` answer read.
const MAX_ANSWER: u64 = 1 << 20;

/// The browser's WebSocket URL for an endpoint (`ws://…` or `http://…`).
pub fn ws_url(endpoint: &str) -> Result<String> {
    let url = url::Url::parse(endpoint).map_err(|e| {
        anyhow!("--cdp-endpoint `{endpoint}` is not a URL ({e}); pass http://host:port or ws://host:port/devtools/browser/<id>")
    })?;
    match url.scheme() {
        "ws" => Ok(endpoint.to_owned()),
        "http" => from_http(&url),
        other => bail!(
            "--cdp-endpoint `{endpoint}`: {other}:// is not supported; pass http://host:port or ws://host:port/devtools/browser/<id> (no TLS: tunnel it)"
        ),
    }
}

fn from_http(url: &url::Url) -> Result<String> {
    let host = url
        .host_str()
        .ok_or_else(|| anyhow!("--cdp-endpoint {url} has no host"))?;
    let port = url.port_or_known_default().unwrap_or(80);
    let authority = match url.host() {
        Some(url::Host::Ipv6(a)) => format!("[{a}]:{port}"),
        _ => format!("{host}:{port}"),
    };
    let addr = authority
        .to_socket_addrs()
        .with_context(|| format!("resolving {authority}"))?
        .next()
        .ok_or_else(|| anyhow!("{authority} resolves to no address"))?;
    let mut stream =
        TcpStream::connect_timeout(&addr, Duration::from_secs(10)).with_context(|| {
            format!(
                "connecting to {authority}; is the browser running with --remote-debugging-port?"
            )
        })?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "GET /json/version HTTP/1.1\r\nHost: {authority}\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    )?;
    let answer =
        read_answer(&mut stream).with_context(|| format!("reading {authority}/json/version"))?;
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .ok_or_else(|| anyhow!("{authority}/json/version gave no HTTP answer"))?;
    let status = head.lines().next().unwrap_or_default();
    if status.split_whitespace().nth(1) != Some("200") {
        bail!(
            "{authority}/json/version answered `{status}`: {}. (Chromium refuses a Host header that is not an IP address or localhost: use the browser's IP, or its ws:// URL.)",
            body.trim()
        );
    }
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    let v: Value = serde_json::from_str(body.trim())
        .with_context(|| format!("{authority}/json/version is not JSON"))?;
    let ws = v
        .get("webSocketDebuggerUrl")
        .and_then(Value::as_str)
        .ok_or_else(|| anyhow!("{authority}/json/version names no webSocketDebuggerUrl"))?;
    let mut ws =
        url::Url::parse(ws).with_context(|| format!("the browser's WebSocket URL `{ws}`"))?;
    // The browser names its own address; reach it where the user does.
    ws.set_host(Some(host)).map_err(|e| anyhow!("{e}"))?;
    ws.set_port(Some(port))
        .map_err(|_| anyhow!("cannot set the port"))?;
    Ok(ws.to_string())
}

/// Reads one HTTP answer: the head, then a body of `Content-Length`
/// bytes, chunks up to the last one, or (neither) up to the close.
/// Chromium keeps the connection open whatever the request asks.
fn read_answer(stream: &mut TcpStream) -> Result<String> {
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
        let n = stream.read(&mut chunk)?;
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
    fn ws_passes_other_schemes_refused() {
        assert_eq!(
            ws_url("ws://127.0.0.1:9222/devtools/browser/x").unwrap(),
            "ws://127.0.0.1:9222/devtools/browser/x"
        );
        let e = ws_url("wss://h:1/x").unwrap_err().to_string();
        assert!(e.contains("not supported"), "{e}");
        let e = ws_url("localhost:9222").unwrap_err().to_string();
        assert!(e.contains("--cdp-endpoint"), "{e}");
    }

    #[test]
    fn chunked_bodies() {
        assert_eq!(dechunk("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), "abcde");
    }
}
