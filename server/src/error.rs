//! The server's one error type: every failure a tool reports to the agent
//! by kind. Other failures stay plain `anyhow` errors with their context
//! chain; [`describe`] turns either into the text the agent reads.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// A failure the tools tell apart (to retry, recover or word it for the
/// agent). Carried inside `anyhow::Error`; find it with [`Error::of`].
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// A call that could not run because its arguments are wrong; the
    /// message says what to send instead.
    #[error("{0}")]
    InvalidParams(String),
    /// A message for the agent, shown as is (bad ref, failed navigation, …).
    #[error("{0}")]
    User(String),
    /// A ref that is not (or no longer) on the page.
    #[error("ref {0} is not on the page; take a new snapshot")]
    NotOnPage(String),
    /// An exception thrown by page JavaScript, with its message.
    #[error("{0}")]
    Js(String),
    /// The element has no visible box (hidden, zero-sized or not rendered).
    #[error("the element is not visible (no box on screen)")]
    NotVisible,
    /// A key name no table knows.
    #[error(
        "unknown key `{0}`; use a name such as Enter, Tab, Escape, Backspace, ArrowDown, PageDown or a single character"
    )]
    UnknownKey(String),
    /// The tab's renderer process died.
    #[error("the tab's page crashed (its renderer process died)")]
    PageCrashed,
    /// A script call got no answer within its time limit.
    #[error("a script in the page did not finish within {} s", .0.as_secs_f64())]
    ScriptTimeout(Duration),
    /// A wait ran out of time.
    #[error("timed out after {} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// The browser answered a CDP call with an error.
    #[error("browser error: {message}")]
    Cdp {
        /// CDP error code.
        code: i64,
        /// CDP error message.
        message: String,
    },
    /// The page is held by a modal state (a dialog, a file chooser) that
    /// the agent must answer first; the text names it.
    #[error("{0}")]
    Modal(String),
    /// The CDP connection closed (the browser exited or was killed).
    #[error("the connection to the browser closed")]
    Closed,
    /// A CDP call that got no answer in time.
    #[error("the browser did not answer {method} within {} s", .after.as_secs())]
    CallTimeout {
        /// The method.
        method: String,
        /// How long it waited.
        after: Duration,
    },
}

impl Error {
    /// The server error carried by `e`, if any.
    pub fn of(e: &anyhow::Error) -> Option<&Error> {
        e.downcast_ref::<Error>()
    }

    /// Whether `e` is a CDP call that got no answer in time.
    pub fn is_call_timeout(e: &anyhow::Error) -> bool {
        matches!(Error::of(e), Some(Error::CallTimeout { .. }))
    }

    /// The text the agent reads: the message, with what to do next where
    /// the message alone does not say.
    fn describe(&self) -> String {
        match self {
            Error::Js(message) => format!("the page's JavaScript threw: {message}"),
            Error::CallTimeout { .. } => format!(
                "{self}; the page may be busy (a long script?), take a snapshot to see its state"
            ),
            Error::Timeout(_) => {
                format!("{self}; the page may still be busy, take a snapshot to see its state")
            }
            Error::ScriptTimeout(_) => format!(
                "{self}; the page was busy (a long script?), take a snapshot to see its state"
            ),
            _ => self.to_string(),
        }
    }
}

/// The text the agent reads for a failed action.
pub fn describe(e: &anyhow::Error) -> String {
    if let Some(s) = Error::of(e) {
        return s.describe();
    }
    if let Some(rd) = e.downcast_ref::<response_diff::Error>() {
        return rd.to_string();
    }
    format!("{e:#}")
}

/// Locks a mutex, ignoring poisoning (the data is plain bookkeeping).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
