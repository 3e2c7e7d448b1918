//! A small Chrome DevTools Protocol client over one WebSocket: raw JSON in
//! and out, flattened target sessions, events dispatched per session.
//!
//! Why not headless_chrome's transport for the calls: its WebSocket reader
//! holds the socket's lock while it waits for data with a 100 ms read
//! timeout and then parks for another 100 ms, so every call costs about
//! 100 ms however small (measured here: `Runtime.evaluate("1")` ≈ 105 ms).
//! A tool call makes several CDP calls, so that would cost ~1 s per click
//! and miss the 200 ms bar of docs/DECISIONS.md D25 for a fingerprint capture + compare.
//! headless_chrome still launches and supervises the browser process
//! ([`crate::browser`]); this client is a second connection to the same
//! browser endpoint, with a reader that blocks on the socket and a writer
//! on a cloned socket, so a call costs one round trip (~1 ms). Every
//! message is plain JSON, so a protocol newer than any bundled schema never
//! breaks parsing.
//!
//! The WebSocket runs over a plain socket or over TLS (a remote browser,
//! `wss://`; `crate::tls` splits the session so that reads and writes
//! still go on separate threads); `crate::attach` dials a remote one.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::handshake::client::Request;
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{HandshakeError, Message, WebSocket};

use crate::error::{Error, lock};

/// An event handler: `(method, params)`.
pub type Listener = Arc<dyn Fn(&str, &Value) + Send + Sync>;

/// Calls waiting for their answer, by id: the session they went to and
/// where to send the answer.
#[derive(Default)]
struct Calls {
    waiting: HashMap<u64, (String, mpsc::Sender<Result<Value, Error>>)>,
    /// Sessions whose page is held by a JavaScript dialog: their calls
    /// would not be answered until it closes (see [`Cdp::block`]).
    blocked: HashMap<String, String>,
}

type Pending = Arc<Mutex<Calls>>;

/// The one method a session held by a dialog still answers.
const ANSWERS_A_DIALOG: &str = "Page.handleJavaScriptDialog";

/// The bytes under the WebSocket: a socket, or one half of a TLS stream
/// on it.
pub enum Stream {
    /// Plain TCP.
    Plain(TcpStream),
    /// TLS (`wss://`).
    Tls(crate::tls::TlsHalf),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

/// A CDP connection.
pub struct Cdp {
    writer: Mutex<WebSocket<Stream>>,
    pending: Pending,
    listeners: Arc<Mutex<HashMap<String, Listener>>>,
    next_id: AtomicU64,
    open: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
    socket: TcpStream,
}

impl Drop for Cdp {
    fn drop(&mut self) {
        self.open.store(false, Ordering::SeqCst);
        let _ = self.socket.shutdown(std::net::Shutdown::Both);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

impl Cdp {
    /// Connects to a browser's WebSocket endpoint (`ws://127.0.0.1:…/devtools/browser/…`).
    pub fn connect(ws_url: &str) -> Result<Cdp> {
        let rest = ws_url
            .strip_prefix("ws://")
            .ok_or_else(|| anyhow!("not a ws:// URL: {ws_url}"))?;
        let host = rest.split('/').next().unwrap_or_default();
        let stream = TcpStream::connect(host).with_context(|| format!("connecting to {host}"))?;
        stream.set_nodelay(true)?;
        let request = ws_url
            .into_client_request()
            .map_err(|e| anyhow!("the browser's WebSocket URL `{ws_url}`: {e}"))?;
        let writer = Stream::Plain(stream.try_clone()?);
        let reader = Stream::Plain(stream.try_clone()?);
        Cdp::handshake(request, writer, reader, stream)
    }

    /// The WebSocket handshake (`request`, with any headers) over
    /// `writer`, then the connection: `reader` is another handle on the
    /// same stream, `socket` the socket under both (its time limits, if
    /// any, bound the handshake and are lifted after it).
    pub fn handshake(
        request: Request,
        writer: Stream,
        reader: Stream,
        socket: TcpStream,
    ) -> Result<Cdp> {
        let config = WebSocketConfig::default()
            .max_message_size(None)
            .max_frame_size(None);
        let (ws, _) = tungstenite::client::client_with_config(request, writer, Some(config))
            .map_err(|e| match e {
                HandshakeError::Failure(tungstenite::Error::Http(r)) => {
                    let status = r.status();
                    let why = match status.as_u16() {
                        401 | 403 => {
                            ": the endpoint wants credentials (--cdp-header, or a token in the URL)"
                        }
                        404 => ": no browser at this path",
                        _ => "",
                    };
                    anyhow!(
                        "the WebSocket handshake was refused with HTTP {} {}{why}",
                        status.as_u16(),
                        status.canonical_reason().unwrap_or_default()
                    )
                }
                other => anyhow!("WebSocket handshake with the browser failed: {other}"),
            })?;
        socket.set_read_timeout(None)?;
        socket.set_write_timeout(None)?;
        // The reader and the writer are two protocol objects over the same
        // stream: frames are independent, and the browser sends no pings.
        let reader_ws = WebSocket::from_raw_socket(reader, Role::Client, Some(config));
        let pending: Pending = Arc::new(Mutex::new(Calls::default()));
        let listeners: Arc<Mutex<HashMap<String, Listener>>> = Arc::new(Mutex::new(HashMap::new()));
        let open = Arc::new(AtomicBool::new(true));
        let reader = {
            let pending = Arc::clone(&pending);
            let listeners = Arc::clone(&listeners);
            let open = Arc::clone(&open);
            std::thread::Builder::new()
                .name("cdp-reader".into())
                .spawn(move || read_loop(reader_ws, pending, listeners, open))?
        };
        Ok(Cdp {
            writer: Mutex::new(ws),
            pending,
            listeners,
            next_id: AtomicU64::new(1),
            open,
            reader: Some(reader),
            socket,
        })
    }

    /// Whether the connection is open.
    pub fn is_open(&self) -> bool {
        self.open.load(Ordering::SeqCst)
    }

    /// Calls `method` on the browser (`session` `None`) or on a target
    /// session, waiting at most `timeout` for the answer.
    pub fn call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value> {
        if !self.is_open() {
            bail!(Error::Closed);
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let (tx, rx) = mpsc::channel();
        {
            // Checked under the same lock as `block`, so a call is either
            // refused here or woken there: it never waits out its timeout
            // on a page a dialog holds.
            let mut calls = lock(&self.pending);
            let s = session.unwrap_or_default();
            if method != ANSWERS_A_DIALOG
                && let Some(dialog) = calls.blocked.get(s)
            {
                bail!(Error::Modal(dialog.clone()));
            }
            calls.waiting.insert(id, (s.to_owned(), tx));
        }
        let sent = {
            let mut w = lock(&self.writer);
            w.send(Message::text(msg.to_string()))
        };
        if let Err(e) = sent {
            lock(&self.pending).waiting.remove(&id);
            self.open.store(false, Ordering::SeqCst);
            return Err(anyhow!(Error::Closed).context(format!("sending {method}: {e}")));
        }
        match rx.recv_timeout(timeout) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(anyhow!(e)),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                lock(&self.pending).waiting.remove(&id);
                Err(anyhow!(Error::CallTimeout {
                    method: method.to_owned(),
                    after: timeout,
                }))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(anyhow!(Error::Closed)),
        }
    }

    /// Attaches a flattened session to a target; returns the session id.
    pub fn attach(&self, target: &str, timeout: Duration) -> Result<String> {
        let r = self.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
            timeout,
        )?;
        r.get("sessionId")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| anyhow!("attaching to the tab gave no session"))
    }

    /// Sends events of `session` to `listener` (replacing any earlier one).
    pub fn listen(&self, session: &str, listener: Listener) {
        lock(&self.listeners).insert(session.to_owned(), listener);
    }

    /// Marks `session` as held by a dialog (`what` names it): its calls in
    /// flight fail at once with [`Error::Modal`], and so do new ones until
    /// [`Cdp::unblock`], except the call that answers the dialog. (A page
    /// held by a dialog answers script and input calls only once it
    /// closes; their answers, if they come, are dropped.)
    pub fn block(&self, session: &str, what: &str) {
        let mut calls = lock(&self.pending);
        calls.blocked.insert(session.to_owned(), what.to_owned());
        let held: Vec<u64> = calls
            .waiting
            .iter()
            .filter(|(_, (s, _))| s == session)
            .map(|(id, _)| *id)
            .collect();
        for id in held {
            if let Some((_, tx)) = calls.waiting.remove(&id) {
                let _ = tx.send(Err(Error::Modal(what.to_owned())));
            }
        }
    }

    /// Lets calls to `session` through again (its dialog closed).
    pub fn unblock(&self, session: &str) {
        lock(&self.pending).blocked.remove(session);
    }

    /// Stops sending events of `session`.
    pub fn forget(&self, session: &str) {
        lock(&self.listeners).remove(session);
    }
}

fn read_loop(
    mut ws: WebSocket<Stream>,
    pending: Pending,
    listeners: Arc<Mutex<HashMap<String, Listener>>>,
    open: Arc<AtomicBool>,
) {
    loop {
        let text = match ws.read() {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        // `str::parse` runs serde_json's own instance of the parser, which
        // a dev profile can build optimized (`[profile.dev.package.serde_json]`);
        // `from_str::<Value>` would be compiled here, unoptimized in the
        // debug build the e2e tests drive (a 250 KB accessibility tree then
        // costs ~35 ms instead of ~12 ms).
        let Ok(v) = text.parse::<Value>() else {
            continue;
        };
        if let Some(id) = v.get("id").and_then(Value::as_u64) {
            let result = match v.get("error") {
                Some(e) => Err(Error::Cdp {
                    code: e.get("code").and_then(Value::as_i64).unwrap_or(0),
                    message: e
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("unknown error")
                        .to_owned(),
                }),
                None => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
            };
            if let Some((_, tx)) = lock(&pending).waiting.remove(&id) {
                let _ = tx.send(result);
            }
        } else if let Some(method) = v.get("method").and_then(Value::as_str) {
            let session = v.get("sessionId").and_then(Value::as_str).unwrap_or("");
            let listener = lock(&listeners).get(session).cloned();
            if let Some(l) = listener {
                l(method, v.get("params").unwrap_or(&Value::Null));
            }
        }
    }
    open.store(false, Ordering::SeqCst);
    // Wake every waiting call: the browser is gone.
    for (_, (_, tx)) in lock(&pending).waiting.drain() {
        let _ = tx.send(Err(Error::Closed));
    }
}
