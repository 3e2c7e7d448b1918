//! A small HTTP/1.1 server bound to 127.0.0.1, for the demo and every test
//! that needs pages (the bundled site is `tests/fixtures/site`; the browser
//! tests mount more folders, put pages at run time and generate some). Only
//! loopback; one thread per connection, `Connection: close` on every
//! response. Hand-written: a static folder over loopback needs none of an
//! HTTP crate's async runtime or features.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use anyhow::{Context, Result};

use crate::error::lock;

/// A page made on request from its path and query (`None`: not a path it
/// makes).
pub type Generator = fn(path: &str, query: &str) -> Option<String>;

/// What a site serves, looked up in this order: pages put at run time,
/// generated pages, folders mounted under a path prefix, the root folder.
struct Routes {
    root: PathBuf,
    mounts: Vec<(String, PathBuf)>,
    pages: Mutex<HashMap<String, String>>,
    generate: Option<Generator>,
}

/// A running server; stops when dropped.
pub struct Site {
    addr: SocketAddr,
    routes: Arc<Routes>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Settings of a [`Site`] beyond its root folder.
pub struct SiteBuilder {
    root: PathBuf,
    port: u16,
    mounts: Vec<(String, PathBuf)>,
    generate: Option<Generator>,
}

impl SiteBuilder {
    /// The port on 127.0.0.1 (0, the default, picks a free one).
    pub fn port(mut self, port: u16) -> SiteBuilder {
        self.port = port;
        self
    }

    /// Serves `dir` under the path `prefix` (`/apps/`); a missing folder
    /// answers 404.
    pub fn mount(mut self, prefix: &str, dir: impl Into<PathBuf>) -> SiteBuilder {
        self.mounts.push((prefix.to_owned(), dir.into()));
        self
    }

    /// Pages made on request (see [`Generator`]).
    pub fn generate(mut self, generate: Generator) -> SiteBuilder {
        self.generate = Some(generate);
        self
    }

    /// Binds and serves in background threads.
    pub fn start(self) -> Result<Site> {
        let root = self
            .root
            .canonicalize()
            .with_context(|| format!("site folder {}", self.root.display()))?;
        let listener = TcpListener::bind(("127.0.0.1", self.port)).context("binding 127.0.0.1")?;
        let addr = listener.local_addr()?;
        let routes = Arc::new(Routes {
            root,
            mounts: self.mounts,
            pages: Mutex::default(),
            generate: self.generate,
        });
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let shared = Arc::clone(&routes);
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = conn {
                    let routes = Arc::clone(&shared);
                    std::thread::spawn(move || {
                        let _ = handle(stream, &routes);
                    });
                }
            }
        });
        Ok(Site {
            addr,
            routes,
            stop,
            thread: Some(thread),
        })
    }
}

impl Site {
    /// Serves `root` on `127.0.0.1:port` (0 picks a free port).
    pub fn serve(root: impl Into<PathBuf>, port: u16) -> Result<Site> {
        Site::builder(root).port(port).start()
    }

    /// A site serving `root`, with more settings before [`SiteBuilder::start`].
    pub fn builder(root: impl Into<PathBuf>) -> SiteBuilder {
        SiteBuilder {
            root: root.into(),
            port: 0,
            mounts: Vec::new(),
            generate: None,
        }
    }

    /// `http://127.0.0.1:<port>`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The URL of a path on this site (`/signup.html`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.origin(), path)
    }

    /// Serves `html` at `path` (replacing what was there).
    pub fn put(&self, path: &str, html: String) {
        lock(&self.routes.pages).insert(path.to_owned(), html);
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

fn handle(stream: TcpStream, routes: &Routes) -> Result<()> {
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
    let target = target.split('#').next().unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut out = stream;
    let head = method == "HEAD";
    if method != "GET" && !head {
        return respond(&mut out, 405, "text/plain", b"method not allowed", false);
    }
    let html = "text/html; charset=utf-8";
    if let Some(page) = lock(&routes.pages).get(path).cloned() {
        return respond(&mut out, 200, html, page.as_bytes(), head);
    }
    if let Some(page) = routes.generate.and_then(|g| g(path, query)) {
        return respond(&mut out, 200, html, page.as_bytes(), head);
    }
    let (dir, rest) = routes
        .mounts
        .iter()
        .find_map(|(prefix, dir)| path.strip_prefix(prefix.as_str()).map(|rest| (dir, rest)))
        .unwrap_or((&routes.root, path));
    let mut rel = PathBuf::new();
    for c in Path::new(rest.trim_start_matches('/')).components() {
        match c {
            Component::Normal(s) => rel.push(s),
            Component::CurDir => {}
            _ => return respond(&mut out, 404, "text/plain", b"not found", false),
        }
    }
    let mut file = dir.join(&rel);
    if file.is_dir() {
        file = file.join("index.html");
    }
    match std::fs::read(&file) {
        Ok(body) => respond(&mut out, 200, mime(&file), &body, head),
        Err(_) => respond(
            &mut out,
            404,
            html,
            b"<!doctype html><title>Not found</title><h1>Not found</h1>",
            head,
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
        "js" | "mjs" | "jsx" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn get(site: &Site, path: &str) -> String {
        let mut s = TcpStream::connect(site.addr).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    fn generated(path: &str, query: &str) -> Option<String> {
        (path == "/gen").then(|| format!("<p>{query}</p>"))
    }

    #[test]
    fn serves_pages_generated_mounted_and_root_in_that_order() {
        let root = tempfile::tempdir().unwrap();
        let mounted = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("a.html"), "root a").unwrap();
        std::fs::write(root.path().join("index.html"), "root index").unwrap();
        std::fs::write(mounted.path().join("a.css"), "mounted a").unwrap();
        let site = Site::builder(root.path())
            .mount("/apps/", mounted.path())
            .generate(generated)
            .start()
            .unwrap();
        let ok = |r: &str, ctype: &str, body: &str| {
            assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
            assert!(r.contains(&format!("Content-Type: {ctype}\r\n")), "{r}");
            assert!(r.ends_with(&format!("\r\n\r\n{body}")), "{r}");
        };
        ok(&get(&site, "/a.html"), "text/html; charset=utf-8", "root a");
        ok(&get(&site, "/"), "text/html; charset=utf-8", "root index");
        ok(
            &get(&site, "/apps/a.css"),
            "text/css; charset=utf-8",
            "mounted a",
        );
        ok(
            &get(&site, "/gen?n=3#x"),
            "text/html; charset=utf-8",
            "<p>n=3</p>",
        );
        site.put("/a.html", "put a".into());
        ok(&get(&site, "/a.html"), "text/html; charset=utf-8", "put a");
        assert!(get(&site, "/apps/missing.js").starts_with("HTTP/1.1 404 "));
        assert!(get(&site, "/../a.html").starts_with("HTTP/1.1 404 "));
    }
}
