//! The stdio transport: one JSON-RPC message per line, with every line that
//! is not a valid message answered as JSON-RPC 2.0 says and the server kept
//! running.
//!
//! Why not rmcp's own stdio transport alone: it drops a line that is not
//! JSON without a word (rust-sdk issue #938, to avoid error storms with
//! peers that echo garbage) and answers every other malformed message with
//! an id-less `-32600`, even when the request's id is readable. A client
//! that sent a broken request then waits for an answer that never comes.
//! Here each line is judged once ([`judge`]): not JSON → `-32700`; JSON that
//! is not a JSON-RPC 2.0 message → `-32600` (with the id when it can be
//! read); a request whose params do not fit its method → `-32602` with the
//! id; a broken notification is dropped (JSON-RPC never answers those).
//! A line over [`MAX_LINE`] is answered `-32600` and skipped without being
//! held in memory. The replies are valid JSON-RPC, so a peer that echoes
//! them cannot start a storm. Valid messages go to rmcp unchanged.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData,
    InitializeRequestParams, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{Mutex, mpsc};

/// The longest line read (rmcp's own default): a longer one is answered
/// with an error and skipped, never buffered.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

type Writer = Arc<Mutex<Pin<Box<dyn AsyncWrite + Send>>>>;

/// What to do with one line.
#[derive(Debug)]
pub enum Verdict {
    /// A valid message: hand it to the server.
    Message(Box<ClientJsonRpcMessage>),
    /// Not a valid message: send this error back.
    Reply(Box<ServerJsonRpcMessage>),
    /// Nothing to do (a blank line, a broken notification).
    Drop,
}

/// Judges one line (without its newline).
pub fn judge(line: &[u8]) -> Verdict {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Drop;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            return reply(
                ErrorCode::PARSE_ERROR,
                format!(
                    "Parse error: the line is not JSON ({e}); send one JSON-RPC 2.0 message per line"
                ),
                None,
            );
        }
    };
    let obj = match value {
        Value::Object(o) => o,
        Value::Array(_) => {
            return invalid(
                "batches are not supported (MCP removed JSON-RPC batching); send one message per line",
                None,
            );
        }
        other => {
            return invalid(
                &format!(
                    "a message is a JSON object such as {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}}, not {}",
                    kind(&other)
                ),
                None,
            );
        }
    };
    let id = match obj.get("id") {
        None => None,
        Some(v @ (Value::String(_) | Value::Number(_))) => {
            match serde_json::from_value::<RequestId>(v.clone()) {
                Ok(id) => Some(id),
                Err(_) => {
                    return invalid("`id` must be a string or an integer", None);
                }
            }
        }
        Some(other) => {
            return invalid(
                &format!("`id` must be a string or an integer, not {}", kind(other)),
                None,
            );
        }
    };
    match obj.get("jsonrpc") {
        Some(Value::String(v)) if v == "2.0" => {}
        Some(other) => {
            return invalid(&format!("`jsonrpc` must be \"2.0\", not {other}"), id);
        }
        None => return invalid("`jsonrpc` is missing; it must be \"2.0\"", id),
    }
    let method = obj.get("method").and_then(Value::as_str).map(str::to_owned);
    let is_response = obj.contains_key("result") || obj.contains_key("error");
    if method.is_none() && !is_response {
        return invalid(
            "a request needs a string `method` (and an `id`); a response needs `result` or `error`",
            id,
        );
    }
    let params = obj.get("params").cloned();
    match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(obj)) {
        Ok(m) => {
            // rmcp reads a standard method whose params do not fit as a
            // custom request and answers "method not found"; it is found,
            // its params are wrong.
            if let (ClientJsonRpcMessage::Request(r), Some(id), Some(method)) = (&m, &id, &method)
                && matches!(r.request, ClientRequest::CustomRequest(_))
                && MCP_REQUESTS.contains(&method.as_str())
            {
                return reply(
                    ErrorCode::INVALID_PARAMS,
                    format!(
                        "Invalid params for `{method}`: {}",
                        params_error(method, params)
                    ),
                    Some(id.clone()),
                );
            }
            Verdict::Message(Box::new(m))
        }
        Err(e) => match (method, id) {
            (Some(method), Some(id)) => reply(
                ErrorCode::INVALID_PARAMS,
                format!(
                    "Invalid params for `{method}`: {}",
                    if MCP_REQUESTS.contains(&method.as_str()) {
                        params_error(&method, params)
                    } else {
                        e.to_string()
                    }
                ),
                Some(id),
            ),
            (Some(method), None) => {
                // A notification is never answered, a broken one neither.
                tracing::warn!("dropped a malformed `{method}` notification: {e}");
                Verdict::Drop
            }
            (None, _) => {
                tracing::warn!("dropped a malformed response from the client: {e}");
                Verdict::Drop
            }
        },
    }
}

/// The requests a client sends a server (MCP 2025-06-18 and rmcp 3.9).
const MCP_REQUESTS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// Why `params` do not fit `method` (serde's words where we can get them).
fn params_error(method: &str, params: Option<Value>) -> String {
    if let Some(p) = params.as_ref().filter(|p| !p.is_object()) {
        return format!("`params` must be an object, not {}", kind(p));
    }
    let params = params.unwrap_or(Value::Null);
    let detail = match method {
        "tools/call" => serde_json::from_value::<CallToolRequestParams>(params).err(),
        "initialize" => serde_json::from_value::<InitializeRequestParams>(params).err(),
        _ => None,
    };
    match detail {
        Some(e) if method == "tools/call" => {
            format!("{e}; send {{\"name\": \"browser_snapshot\", \"arguments\": {{…}}}}")
        }
        Some(e) => e.to_string(),
        None => "the params do not have the shape the MCP specification gives this method".into(),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn reply(code: ErrorCode, message: String, id: Option<RequestId>) -> Verdict {
    Verdict::Reply(Box::new(ServerJsonRpcMessage::error(
        ErrorData::new(code, message, None),
        id,
    )))
}

fn invalid(why: &str, id: Option<RequestId>) -> Verdict {
    reply(
        ErrorCode::INVALID_REQUEST,
        format!("Invalid request: {why}"),
        id,
    )
}

/// The server's stdio transport (see the module docs).
pub struct GuardedTransport {
    messages: mpsc::Receiver<ClientJsonRpcMessage>,
    out: Writer,
}

impl GuardedTransport {
    /// A transport reading `input` and writing `output` (stdin and stdout
    /// in the server, pipes in tests). Call it inside a tokio runtime.
    ///
    /// The input is read on a thread of its own: a long line's buffer then
    /// always comes from, and goes back to, the same allocator arena, so
    /// refused 16 MiB lines do not pile up across the runtime's threads.
    pub fn new(
        input: impl Read + Send + 'static,
        output: impl AsyncWrite + Send + 'static,
    ) -> std::io::Result<GuardedTransport> {
        let out: Writer = Arc::new(Mutex::new(Box::pin(output)));
        let (tx, messages) = mpsc::channel(16);
        let runtime = tokio::runtime::Handle::current();
        let replies = Arc::clone(&out);
        // Not joined: a thread blocked reading stdin must not hold up exit.
        std::thread::Builder::new()
            .name("stdin-reader".into())
            .spawn(move || {
                read_lines(input, &tx, |r| runtime.block_on(write_message(&replies, r)))
            })?;
        Ok(GuardedTransport { messages, out })
    }

    /// On the process's stdin and stdout.
    pub fn stdio() -> std::io::Result<GuardedTransport> {
        GuardedTransport::new(std::io::stdin(), tokio::io::stdout())
    }
}

async fn write_message(out: &Writer, message: &ServerJsonRpcMessage) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message)?;
    bytes.push(b'\n');
    let mut w = out.lock().await;
    w.write_all(&bytes).await?;
    w.flush().await
}

/// Reads lines until the input ends: valid messages go to `tx`, errors
/// are answered through `reply`.
fn read_lines(
    input: impl Read,
    tx: &mpsc::Sender<ClientJsonRpcMessage>,
    mut reply: impl FnMut(&ServerJsonRpcMessage) -> std::io::Result<()>,
) {
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let mut line = Vec::new();
    // The rest of an oversized line is skipped, not kept.
    let mut skipping = false;
    loop {
        let (used, done) = {
            let buf = match input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    tracing::error!("reading stdin: {e}");
                    return;
                }
            };
            if buf.is_empty() {
                return; // The client went away.
            }
            let newline = buf.iter().position(|&b| b == b'\n');
            let take = newline.map_or(buf.len(), |i| i + 1);
            if !skipping {
                if line.len() + take > MAX_LINE + 1 {
                    skipping = true;
                    line = Vec::new();
                } else {
                    // Grow by doubling, but never past the cap (a plain
                    // extend could double a 16 MiB buffer to 32 MiB).
                    let need = line.len() + take;
                    if need > line.capacity() {
                        let target = (line.capacity() * 2).max(need).min(MAX_LINE + 1);
                        line.reserve_exact(target - line.len());
                    }
                    line.extend_from_slice(&buf[..take]);
                }
            }
            (take, newline.is_some())
        };
        input.consume(used);
        if !done {
            continue;
        }
        let verdict = if skipping {
            skipping = false;
            tracing::warn!("skipped a message over {MAX_LINE} bytes");
            invalid(
                &format!(
                    "the message is longer than {} MiB; send smaller messages",
                    MAX_LINE / (1024 * 1024)
                ),
                None,
            )
        } else {
            let v = judge(line.strip_suffix(b"\n").unwrap_or(&line));
            line.clear();
            if line.capacity() > 1024 * 1024 {
                line = Vec::new(); // Do not keep a huge buffer around.
            }
            v
        };
        match verdict {
            Verdict::Message(m) => {
                if tx.blocking_send(*m).is_err() {
                    return; // The server stopped.
                }
            }
            Verdict::Reply(r) => {
                if let Err(e) = reply(&r) {
                    tracing::error!("writing to stdout: {e}");
                    return;
                }
            }
            Verdict::Drop => {}
        }
    }
}

impl Transport<RoleServer> for GuardedTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = Arc::clone(&self.out);
        async move { write_message(&out, &item).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        self.messages.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // The reader thread ends at its next line (its channel is closed).
        self.messages.close();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(v: Verdict) -> Value {
        match v {
            Verdict::Reply(r) => serde_json::to_value(r).unwrap(),
            other => panic!("expected an error reply, got {other:?}"),
        }
    }

    #[test]
    fn not_json_is_a_parse_error_without_id() {
        let e = error_of(judge(b"{\"jsonrpc\": \"2.0\", "));
        assert_eq!(e["error"]["code"], -32700);
        assert!(e.get("id").is_none());
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("one JSON-RPC 2.0 message per line")
        );
        assert_eq!(
            error_of(judge(b"\xff\xfe")).pointer("/error/code"),
            Some(&Value::from(-32700))
        );
    }

    #[test]
    fn json_that_is_not_a_message_is_an_invalid_request() {
        for line in [
            &b"42"[..],
            b"\"hi\"",
            b"{\"foo\": 1}",
            b"[]",
            b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
        ] {
            let e = error_of(judge(line));
            assert_eq!(
                e["error"]["code"],
                -32600,
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn a_readable_id_is_echoed() {
        let e = error_of(judge(br#"{"jsonrpc":"1.0","id":7,"method":"tools/list"}"#));
        assert_eq!(e["id"], 7);
        assert_eq!(e["error"]["code"], -32600);
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`jsonrpc` must be \"2.0\"")
        );
        let e = error_of(judge(
            br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":3}}"#,
        ));
        assert_eq!(e["id"], "a");
        assert_eq!(e["error"]["code"], -32602);
    }

    #[test]
    fn messages_pass_and_notifications_get_no_answer() {
        assert!(matches!(
            judge(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
            Verdict::Message(_)
        ));
        assert!(matches!(
            judge(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r"),
            Verdict::Message(_)
        ));
        // Notifications are never answered, well-formed or not.
        for n in [
            &br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[]}}"#[..],
            br#"{"jsonrpc":"2.0","method":"notifications/no_such_thing"}"#,
        ] {
            assert!(!matches!(judge(n), Verdict::Reply(_)));
        }
        assert!(matches!(judge(b"   "), Verdict::Drop));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn oversized_lines_are_answered_and_skipped() {
        use std::io::Write;
        use tokio::io::AsyncBufReadExt;
        let (server_in, mut client) = std::io::pipe().unwrap();
        let (server_out, replies) = tokio::io::duplex(64 * 1024);
        let mut t = GuardedTransport::new(server_in, server_out).unwrap();
        let writer = std::thread::spawn(move || {
            client.write_all(&vec![b'x'; MAX_LINE + 10]).unwrap();
            client.write_all(b"\nnot json\n").unwrap();
            client
                .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
                .unwrap();
            client
        });
        let m = t.receive().await.expect("the ping after the bad lines");
        assert!(matches!(m, ClientJsonRpcMessage::Request(_)));
        drop(writer.join().unwrap());
        let mut lines = tokio::io::BufReader::new(replies).lines();
        let first: Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(first["error"]["code"], -32600);
        assert!(
            first["error"]["message"]
                .as_str()
                .unwrap()
                .contains("longer than 16 MiB")
        );
        let second: Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(second["error"]["code"], -32700);
        assert!(t.receive().await.is_none(), "the input ended");
    }
}
