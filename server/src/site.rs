//! A small static file server bound to 127.0.0.1, for the demo and the
//! tests (the bundled site is `tests/fixtures/site`). Only loopback.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use anyhow::{Context, Result};

/// A running server; stops when dropped.
pub struct Site {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Site {
    /// Serves `root` on `127.0.0.1:port` (0 picks a free port).
    pub fn serve(root: impl Into<PathBuf>, port: u16) -> Result<Site> {
        let root: PathBuf = root.into();
        let root = root
            .canonicalize()
            .with_context(|| format!("site folder {}", root.display()))?;
        let listener = TcpListener::bind(("127.0.0.1", port)).context("binding 127.0.0.1")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = conn {
                    let root = root.clone();
                    std::thread::spawn(move || {
                        let _ = handle(stream, &root);
                    });
                }
            }
        });
        Ok(Site {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:<port>`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The URL of a path on this site (`/signup.html`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.origin(), path)
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The bundled demo site (`tests/fixtures/site`), found from the crate's
/// source folder or next to the current directory.
pub fn bundled_site_dir() -> PathBuf {
    let from_crate = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/site");
    if from_crate.exists() {
        return from_crate;
    }
    PathBuf::from("tests/fixtures/site")
}

fn handle(stream: TcpStream, root: &Path) -> Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // Drain the headers.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request.split_whitespace();
    let method = parts.next().unwrap_or_default();
    let target = parts.next().unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let mut out = stream;
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut out,
            405,
            "text/plain",
            b"method not allowed",
            method == "HEAD",
        );
    }
    let mut rel = PathBuf::new();
    for c in Path::new(path.trim_start_matches('/')).components() {
        match c {
            Component::Normal(s) => rel.push(s),
            Component::CurDir => {}
            _ => return respond(&mut out, 404, "text/plain", b"not found", false),
        }
    }
    let mut file = root.join(&rel);
    if file.is_dir() {
        file = file.join("index.html");
    }
    match std::fs::read(&file) {
        Ok(body) => respond(&mut out, 200, mime(&file), &body, method == "HEAD"),
        Err(_) => respond(
            &mut out,
            404,
            "text/html; charset=utf-8",
            b"<!doctype html><title>Not found</title><h1>Not found</h1>",
            method == "HEAD",
        ),
    }
}

fn respond(out: &mut TcpStream, status: u16, mime: &str, body: &[u8], head: bool) -> Result<()> {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    write!(
        out,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if !head {
        out.write_all(body)?;
    }
    out.flush()?;
    Ok(())
}

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}
