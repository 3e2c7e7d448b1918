//! MCP over streamable HTTP (`response-diff mcp --port N`): rmcp's
//! streamable HTTP service at `/mcp`, served by hyper, one engine (and so
//! one browser context) per MCP session.
//!
//! DNS rebinding: rmcp checks `Host` and `Origin` before anything else.
//! Served without flags: `Host` naming the listening port on a loopback
//! name (`127.0.0.1:N`, `localhost:N`, `[::1]:N`) or on the `--host`
//! address; `--allowed-hosts` adds names (`*` turns the check off, as in
//! Playwright). A request with an `Origin` header must come from one of
//! those hosts. A session idle past `--session-timeout` is closed by rmcp,
//! which drops its engine: the browser context goes with it.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::mcp::McpServer;

/// The HTTP listener's settings.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Address to bind (`--host`).
    pub host: String,
    /// Port (`--port`; 0 picks a free one, printed at start).
    pub port: u16,
    /// `--allowed-hosts`.
    pub allowed_hosts: Vec<String>,
    /// A session idle this long is closed.
    pub session_timeout: Duration,
}

/// The `Host` values served: the loopback names and the bound address on
/// the listening port, then `--allowed-hosts`. `None`: no check (`*`).
pub fn allowed_hosts(host: &str, port: u16, extra: &[String]) -> Option<Vec<String>> {
    if extra.iter().any(|h| h.trim() == "*") {
        return None;
    }
    let mut hosts: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .map(|h| format!("{h}:{port}"))
        .collect();
    let bound = host.trim_matches(['[', ']']);
    if !matches!(bound, "0.0.0.0" | "::" | "127.0.0.1" | "localhost" | "::1") {
        hosts.push(if bound.contains(':') {
            format!("[{bound}]:{port}")
        } else {
            format!("{bound}:{port}")
        });
    }
    hosts.extend(
        extra
            .iter()
            .map(|h| h.trim().to_owned())
            .filter(|h| !h.is_empty()),
    );
    Some(hosts)
}

/// Origins a browser page may call from: the allowed hosts, http or https.
fn allowed_origins(hosts: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for h in hosts {
        let with_port = h.rsplit_once(':').is_some_and(|(a, p)| {
            !a.is_empty() && !a.ends_with(':') && p.chars().all(|c| c.is_ascii_digit())
        }) && !(h.starts_with('[') && h.ends_with(']'));
        for scheme in ["http", "https"] {
            out.push(if with_port {
                format!("{scheme}://{h}")
            } else {
                format!("{scheme}://{h}:*")
            });
        }
    }
    out
}

/// Serves until SIGINT/SIGTERM. `factory` makes the MCP server of each new
/// session; `stopped` runs (blocking) after the last session closed.
pub async fn serve(
    opts: HttpOptions,
    factory: impl Fn() -> std::io::Result<McpServer> + Send + Sync + 'static,
    stopped: impl FnOnce() + Send + 'static,
) -> Result<()> {
    let listener = TcpListener::bind((opts.host.as_str(), opts.port))
        .await
        .with_context(|| format!("listening on {}:{}", opts.host, opts.port))?;
    let addr: SocketAddr = listener.local_addr()?;
    let mut config = StreamableHttpServerConfig::default();
    config = match allowed_hosts(&opts.host, addr.port(), &opts.allowed_hosts) {
        Some(hosts) => config
            .with_allowed_origins(allowed_origins(&hosts))
            .enforce_origin_validation()
            .with_allowed_hosts(hosts),
        None => config.disable_allowed_hosts().disable_allowed_origins(),
    };
    let cancel = config.cancellation_token.clone();
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(opts.session_timeout);
    let service = Arc::new(StreamableHttpService::new(
        factory,
        Arc::new(sessions),
        config,
    ));
    let shown = if addr.is_ipv6() {
        format!("[{}]:{}", addr.ip(), addr.port())
    } else {
        addr.to_string()
    };
    // On stderr whatever the log filter: a client (or a test) reads the
    // port from it when --port 0 picked one.
    eprintln!("response-diff: MCP over streamable HTTP at http://{shown}/mcp");
    let stop = crate::mcp::stop_signal();
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) => {
                    tracing::warn!("accepting a connection: {e}");
                    continue;
                }
            },
            r = &mut stop => { r?; break; }
        };
        let _ = stream.set_nodelay(true);
        let service = Arc::clone(&service);
        tokio::spawn(async move {
            let handler = service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                let service = Arc::clone(&service);
                async move {
                    if req.uri().path() != "/mcp" {
                        let body =
                            Full::new(Bytes::from_static(b"Not found: the MCP endpoint is /mcp\n"))
                                .boxed();
                        let mut res = hyper::Response::new(body);
                        *res.status_mut() = hyper::StatusCode::NOT_FOUND;
                        return Ok::<_, Infallible>(res);
                    }
                    Ok(service.handle(req).await)
                }
            });
            if let Err(e) = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handler)
                .await
            {
                tracing::debug!("HTTP connection: {e}");
            }
        });
    }
    tracing::info!("stopping: closing the sessions");
    cancel.cancel();
    drop(service);
    // Let the session workers see the cancellation and drop their engines
    // (each disposes its context).
    tokio::time::sleep(Duration::from_millis(300)).await;
    tokio::task::spawn_blocking(stopped).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_default_to_the_listening_port() {
        let h = allowed_hosts("127.0.0.1", 8931, &[]).unwrap();
        assert_eq!(h, ["127.0.0.1:8931", "localhost:8931", "[::1]:8931"]);
        let h = allowed_hosts("10.0.0.5", 80, &["mcp.example".into()]).unwrap();
        assert_eq!(h[3..], ["10.0.0.5:80".to_owned(), "mcp.example".to_owned()]);
        assert!(allowed_hosts("0.0.0.0", 1, &["*".into()]).is_none());
        assert_eq!(
            allowed_origins(&["localhost:1".into(), "mcp.example".into()]),
            [
                "http://localhost:1",
                "https://localhost:1",
                "http://mcp.example:*",
                "https://mcp.example:*"
            ]
        );
    }
}
