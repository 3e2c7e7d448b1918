//! What a tab keeps about its out-of-process frames: the attached frame
//! sessions and the numbers given to their documents (a qualified id's
//! frame part), and the auto-attach a session asks for. Plain data, held
//! in the tab's events (`crate::browser::TabEvents`); the frame
//! operations that fill and read it are in `frames/mod.rs`.

use std::collections::{HashMap, VecDeque};

use serde_json::{Value, json};

/// Frame documents whose numbers a tab keeps; a ref into an older one
/// reads as gone (`docs/LIMITS.md`).
pub const MAX_FRAME_DOCS: usize = 1_024;

/// An attached out-of-process frame.
#[derive(Debug, Clone)]
pub(super) struct Child {
    /// Its target id (= its frame id).
    pub(super) target: String,
    pub(super) session: String,
    /// The session of the frame it is in.
    pub(super) parent: String,
    /// Domains enabled and auto-attach asked on its session.
    pub(super) ready: bool,
}

/// A tab's out-of-process frames and the numbers of their documents.
#[derive(Debug, Default)]
pub struct Frames {
    pub(super) children: Vec<Child>,
    /// `(session, loader id)` → frame number.
    pub(super) numbers: HashMap<(String, String), u32>,
    /// Frame number → session, oldest first (for [`MAX_FRAME_DOCS`]).
    pub(super) sessions: VecDeque<(u32, String)>,
    pub(super) next: u32,
}

impl Frames {
    /// The frame number of the document `loader` of `session`.
    pub(super) fn number(&mut self, session: &str, loader: &str) -> u32 {
        let key = (session.to_owned(), loader.to_owned());
        if let Some(&n) = self.numbers.get(&key) {
            return n;
        }
        self.next += 1;
        let n = self.next;
        self.numbers.insert(key, n);
        self.sessions.push_back((n, session.to_owned()));
        while self.sessions.len() > MAX_FRAME_DOCS {
            if let Some((old, _)) = self.sessions.pop_front() {
                self.numbers.retain(|_, v| *v != old);
            }
        }
        n
    }

    pub(super) fn session_of(&self, frame: u32) -> Option<&str> {
        self.sessions
            .iter()
            .find(|(n, _)| *n == frame)
            .map(|(_, s)| s.as_str())
    }

    pub(super) fn child(&self, session: &str) -> Option<&Child> {
        self.children.iter().find(|c| c.session == session)
    }
}

/// The CDP calls that set up a session of a tab or frame for the server:
/// auto-attach to the out-of-process frames inside it (flat sessions, the
/// frames run at once), iframes only.
pub fn auto_attach_params() -> Value {
    json!({
        "autoAttach": true,
        "waitForDebuggerOnStart": false,
        "flatten": true,
        "filter": [{ "type": "iframe" }, { "exclude": true }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_document_keeps_its_number_and_a_new_one_gets_another() {
        let mut f = Frames::default();
        let a = f.number("s1", "L1");
        assert_eq!(f.number("s1", "L1"), a);
        let b = f.number("s1", "L2");
        let c = f.number("s2", "L1");
        assert!(a != b && b != c && a != c);
        assert_eq!(f.session_of(b), Some("s1"));
        for i in 0..MAX_FRAME_DOCS {
            f.number("s3", &format!("x{i}"));
        }
        assert_eq!(f.session_of(a), None, "the oldest numbers are forgotten");
        assert_ne!(f.number("s1", "L1"), a, "and never given again");
    }
}
