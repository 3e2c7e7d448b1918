//! TLS for a remote browser (`--cdp-endpoint wss://…` or `https://…`,
//! docs/DECISIONS.md D53): rustls on ring, trusting what Node trusts where
//! @playwright/mcp runs, so that a user who switches needs no new setting:
//!
//! - Mozilla's roots (webpki-roots; Node bundles the same list);
//! - plus the PEM certificates of the file `NODE_EXTRA_CA_CERTS` names
//!   (a company CA, a grid's own CA, a self-signed test endpoint's CA);
//! - `NODE_TLS_REJECT_UNAUTHORIZED=0` turns the check off, with a warning
//!   in the log at each connection, as Node warns.
//!
//! `--ignore-https-errors` is about the pages the browser opens (as in
//! Playwright) and leaves this connection checked: the link carries the
//! farm's credentials.
//!
//! Why the stream halves are written here: the CDP client reads on one
//! thread and writes from others, each on its own handle of the socket
//! (`cdp.rs`), so that a call costs one round trip. A TLS session is one
//! state machine and cannot be cloned like a socket, and neither rustls
//! nor tungstenite splits a blocking TLS stream in two. rustls's
//! connection does no I/O itself, so both halves share it under a lock:
//! the reader blocks on its socket handle without the lock, then feeds
//! what arrived to the connection; the writer encrypts and sends under it.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result, anyhow};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    ClientConfig, ClientConnection, DigitallySignedStruct, RootCertStore, SignatureScheme,
};

use crate::error::lock;

/// Node's variable naming a PEM file of extra trusted certificates.
pub const EXTRA_CA_VAR: &str = "NODE_EXTRA_CA_CERTS";
/// Node's variable that turns certificate checks off when `0`.
pub const REJECT_VAR: &str = "NODE_TLS_REJECT_UNAUTHORIZED";

/// How TLS connections to the browser are checked.
#[derive(Clone)]
pub struct Trust {
    config: Arc<ClientConfig>,
    /// Certificate checks are off (`NODE_TLS_REJECT_UNAUTHORIZED=0`).
    pub unchecked: bool,
    /// Where extra roots came from, for messages.
    pub extra_ca: Option<String>,
}

impl std::fmt::Debug for Trust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trust")
            .field("unchecked", &self.unchecked)
            .field("extra_ca", &self.extra_ca)
            .finish()
    }
}

impl Trust {
    /// The trust of this process's environment (see the module's rules).
    /// A `NODE_EXTRA_CA_CERTS` file that cannot be read or holds no
    /// certificate is an error naming it.
    pub fn from_env() -> Result<Trust> {
        let extra = std::env::var(EXTRA_CA_VAR).ok().filter(|v| !v.is_empty());
        let unchecked = std::env::var(REJECT_VAR).is_ok_and(|v| v == "0");
        Trust::new(extra.as_deref(), unchecked)
    }

    /// Mozilla's roots plus the certificates of `extra_ca` (a PEM file);
    /// `unchecked` accepts any certificate.
    pub fn new(extra_ca: Option<&str>, unchecked: bool) -> Result<Trust> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        if let Some(path) = extra_ca {
            let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
                .map_err(|e| anyhow!("{EXTRA_CA_VAR}={path}: {e}"))?
                .collect::<Result<_, _>>()
                .map_err(|e| anyhow!("{EXTRA_CA_VAR}={path}: {e}"))?;
            if certs.is_empty() {
                anyhow::bail!(
                    "{EXTRA_CA_VAR}={path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
                );
            }
            for c in certs {
                roots.add(c).map_err(|e| {
                    anyhow!("{EXTRA_CA_VAR}={path}: a certificate is not usable as a root ({e})")
                })?;
            }
        }
        let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
            .with_safe_default_protocol_versions()
            .context("TLS protocol versions")?;
        let config = if unchecked {
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(Unchecked(
                    provider.signature_verification_algorithms,
                )))
                .with_no_client_auth()
        } else {
            builder.with_root_certificates(roots).with_no_client_auth()
        };
        Ok(Trust {
            config: Arc::new(config),
            unchecked,
            extra_ca: extra_ca.map(str::to_owned),
        })
    }

    /// Runs the TLS handshake with `host` on a connected socket (its
    /// timeouts bound the handshake). The certificate must name `host`.
    pub fn handshake(&self, host: &str, socket: &mut TcpStream) -> Result<ClientConnection> {
        if self.unchecked {
            tracing::warn!(
                "{REJECT_VAR}=0: the TLS certificate of {host} is not checked; anyone on the path can read this connection"
            );
        }
        let name = ServerName::try_from(
            host.trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned(),
        )
        .map_err(|e| anyhow!("`{host}` is not a host name for TLS ({e})"))?;
        let mut conn =
            ClientConnection::new(Arc::clone(&self.config), name).context("starting TLS")?;
        while conn.is_handshaking() {
            conn.complete_io(socket)
                .map_err(|e| self.explain(host, e))?;
        }
        Ok(conn)
    }

    /// A handshake failure, said with what to do about it.
    fn explain(&self, host: &str, e: io::Error) -> anyhow::Error {
        let text = e.to_string();
        if text.contains("invalid peer certificate") {
            let hint = match &self.extra_ca {
                Some(f) => format!(
                    "it is not signed by a public CA nor by the certificates of {EXTRA_CA_VAR}={f}"
                ),
                None => format!(
                    "if a private CA signed it, set {EXTRA_CA_VAR} to that CA's PEM file (as for Node and @playwright/mcp)"
                ),
            };
            anyhow!("the TLS certificate of {host} is not trusted ({text}): {hint}")
        } else {
            anyhow!("TLS handshake with {host} failed: {text}")
        }
    }
}

/// Accepts any certificate (`NODE_TLS_REJECT_UNAUTHORIZED=0`); signatures
/// are still checked, so the session is at least with the holder of the
/// key it presented.
#[derive(Debug)]
struct Unchecked(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

/// The session both halves share: the connection and the plaintext it
/// decrypted that no one has read yet.
struct Shared {
    conn: ClientConnection,
    plain: VecDeque<u8>,
    /// The peer closed (TCP end or TLS close_notify).
    closed: bool,
}

impl Shared {
    /// Sends what the connection has to send (records, alerts, key
    /// updates) on `socket`.
    fn flush(&mut self, mut socket: &TcpStream) -> io::Result<()> {
        while self.conn.wants_write() {
            self.conn.write_tls(&mut socket)?;
        }
        Ok(())
    }

    /// Feeds bytes read from the socket to the connection, keeping the
    /// plaintext they carry (drained as it comes, so rustls's own buffer
    /// never fills).
    fn feed(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            self.conn.read_tls(&mut bytes)?;
            let state = self
                .conn
                .process_new_packets()
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            let mut chunk = [0u8; 8192];
            loop {
                match self.conn.reader().read(&mut chunk) {
                    Ok(0) => {
                        self.closed = true;
                        break;
                    }
                    Ok(n) => self.plain.extend(&chunk[..n]),
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) => return Err(e),
                }
            }
            if state.peer_has_closed() {
                self.closed = true;
            }
        }
        Ok(())
    }
}

/// One half of a TLS stream: its own handle of the socket, the session
/// shared. Either half reads and writes; the CDP client reads with one
/// and writes with the other.
pub struct TlsHalf {
    shared: Arc<Mutex<Shared>>,
    socket: TcpStream,
    /// What a socket read lands in before the session takes it.
    raw: Box<[u8]>,
}

/// Splits a handshaken connection on `socket` into two halves.
pub fn split(conn: ClientConnection, socket: TcpStream) -> io::Result<(TlsHalf, TlsHalf)> {
    let shared = Arc::new(Mutex::new(Shared {
        conn,
        plain: VecDeque::new(),
        closed: false,
    }));
    let other = socket.try_clone()?;
    Ok((
        TlsHalf {
            shared: Arc::clone(&shared),
            socket,
            raw: vec![0u8; 16 * 1024].into_boxed_slice(),
        },
        TlsHalf {
            shared,
            socket: other,
            raw: vec![0u8; 16 * 1024].into_boxed_slice(),
        },
    ))
}

impl Read for TlsHalf {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            {
                let mut s = lock(&self.shared);
                if !s.plain.is_empty() {
                    let n = buf.len().min(s.plain.len());
                    for (slot, byte) in buf.iter_mut().zip(s.plain.drain(..n)) {
                        *slot = byte;
                    }
                    return Ok(n);
                }
                if s.closed {
                    return Ok(0);
                }
            }
            // Without the lock: the writer goes on while this waits.
            let n = (&self.socket).read(&mut self.raw)?;
            let mut s = lock(&self.shared);
            if n == 0 {
                s.closed = true;
                continue;
            }
            s.feed(&self.raw[..n])?;
            s.flush(&self.socket)?;
        }
    }
}

impl Write for TlsHalf {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = lock(&self.shared);
        let n = s.conn.writer().write(buf)?;
        s.flush(&self.socket)?;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        lock(&self.shared).flush(&self.socket)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_ca_errors_name_the_file() {
        let e = Trust::new(Some("/nonexistent/ca.pem"), false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("NODE_EXTRA_CA_CERTS=/nonexistent/ca.pem"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let e = Trust::new(Some(empty.to_str().unwrap()), false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("holds no PEM certificate"), "{e}");
        assert!(Trust::new(None, false).is_ok());
        assert!(Trust::new(None, true).unwrap().unchecked);
    }
}
