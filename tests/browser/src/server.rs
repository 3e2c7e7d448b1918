//! A small HTTP/1.1 server on 127.0.0.1 for test pages.
//!
//! Serves `tests/fixtures/pages/**` at `/`, the third-party apps of the
//! regression corpus (`tests/browser/apps/node_modules/**`, installed by
//! `make fingerprint-apps`) at `/apps/`, pages registered at run time with
//! [`Server::put`] (regression variants), and generated pages
//! (`/generated/big?n=2000`). One thread per connection; `Connection:
//! close` on every response.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;

use anyhow::Result;

use crate::pages;

type Pages = Arc<Mutex<HashMap<String, String>>>;

/// The running server. It stops when the process exits.
#[derive(Clone)]
pub struct Server {
    addr: SocketAddr,
    pages: Pages,
}

impl Server {
    /// Binds 127.0.0.1 on a free port and serves in background threads.
    pub fn start() -> Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        let addr = listener.local_addr()?;
        let pages: Pages = Arc::default();
        let root = crate::fixtures_dir().join("pages");
        let shared = pages.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let pages = shared.clone();
                let root = root.clone();
                thread::spawn(move || {
                    let _ = handle(stream, &root, &pages);
                });
            }
        });
        Ok(Server { addr, pages })
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Serves `html` at `path` (replacing what was there).
    pub fn put(&self, path: &str, html: String) {
        if let Ok(mut p) = self.pages.lock() {
            p.insert(path.to_owned(), html);
        }
    }
}

fn handle(stream: TcpStream, root: &Path, pages: &Pages) -> Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers; requests here have no body we need.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let response = if method != "GET" && method != "HEAD" {
        (405, "text/plain", b"method not allowed".to_vec())
    } else {
        route(root, pages, path, query)
    };
    let (status, ctype, body) = response;
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        _ => "Error",
    };
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        out.write_all(&body)?;
    }
    out.flush()?;
    Ok(())
}

fn route(root: &Path, pages: &Pages, path: &str, query: &str) -> (u16, &'static str, Vec<u8>) {
    if let Some(html) = pages.lock().ok().and_then(|p| p.get(path).cloned()) {
        return (200, "text/html; charset=utf-8", html.into_bytes());
    }
    if path == "/generated/big" {
        let n = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("n="))
            .and_then(|v| v.parse().ok())
            .unwrap_or(2000usize)
            .min(100_000);
        return (
            200,
            "text/html; charset=utf-8",
            pages::generated_page(n).into_bytes(),
        );
    }
    if let Some(rest) = path.strip_prefix("/apps/") {
        let apps = crate::apps_dir();
        return match safe_join(&apps, rest) {
            Some(file) if file.is_file() => match std::fs::read(&file) {
                Ok(body) => (200, content_type(&file), body),
                Err(_) => (404, "text/plain", b"not found".to_vec()),
            },
            _ => (404, "text/plain", b"not found".to_vec()),
        };
    }
    match safe_join(root, path) {
        Some(file) if file.is_file() => match std::fs::read(&file) {
            Ok(body) => (200, content_type(&file), body),
            Err(_) => (404, "text/plain", b"not found".to_vec()),
        },
        _ => (404, "text/plain", b"not found".to_vec()),
    }
}

/// Joins a URL path under `root`, refusing `..` and anything absolute.
fn safe_join(root: &Path, path: &str) -> Option<PathBuf> {
    let rel = Path::new(path.trim_start_matches('/'));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    Some(root.join(rel))
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("png") => "image/png",
        Some("css") => "text/css",
        Some("js" | "mjs" | "jsx") => "text/javascript",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("woff") => "font/woff",
        Some("woff2") => "font/woff2",
        Some("ttf") => "font/ttf",
        _ => "application/octet-stream",
    }
}
