//! One Chromium, launched lazily by `headless_chrome`, and the CDP calls the
//! tools need.
//!
//! headless_chrome launches and supervises the process (flags, profile,
//! DevTools endpoint, kill on drop) and keeps the list of tabs, including
//! the ones a page opens itself. The tools' calls go through [`Cdp`](crate::cdp::Cdp), a
//! second connection to the same browser with one round trip per call (see
//! `cdp.rs` for why), as plain JSON: the protocol bundled with
//! headless_chrome is older than Debian's Chromium and its typed results
//! fail on values it does not know (docs/DECISIONS.md D23).
//!
//! By concern: `launch` (the browser process: finding, launching or
//! attaching to Chromium, its flags and profile), `channel` (`--browser`), `session` (a browser
//! context and its tabs), `context` (the context's handle and what each
//! of its tabs gets), `page` (one tab: its CDP calls, scripts,
//! loading), `input` (mouse, keys and element positions on a tab) and
//! `events` (what a tab's CDP listener records).

mod channel;
mod context;
mod events;
mod input;
mod launch;
mod page;
mod session;

pub use channel::Channel;
pub use context::{ContextHandle, Proxy, TabSetup, own_contexts};
pub use events::{ConsoleEntry, TabEvents};
pub(crate) use events::{on_event, session_setup};
pub use launch::{
    BrowserConfig, CHROMIUM_FLAGS, Chromium, find_chromium, is_root, kill_process, process_alive,
};
pub use page::Page;
pub use session::Session;
