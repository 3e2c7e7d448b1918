//! Password values stay in the page: wherever the server would print the
//! value of an `<input type=password>` (the snapshot, which every patch,
//! line diff and `since` read is made from; the result line and the
//! generated code of `browser_type` and `browser_fill_form`), it prints a
//! mask that keeps what an agent needs (that the field is filled, and how
//! long the value is). The operator's switch `--reveal-passwords` turns
//! masking off (for tests of the page itself).
//!
//! Behind those masks, a net: every password value the server has seen (in
//! a field it read, or typed itself) of at least [`MIN_SCRUBBED`]
//! characters is replaced by its mask wherever else it shows up in a
//! response text: a console message the page logged it in, the URL a GET
//! form put it in (raw or form-encoded), a `browser_evaluate` result.
//!
//! The operator's secrets (`--secrets FILE`, dotenv, @playwright/mcp's
//! flag; or the config file's `secrets`) go further: a listed value never
//! appears in a response. Wherever a response would show it (in any of the
//! spellings above) it reads `<secret>NAME</secret>`, as in
//! @playwright/mcp, whatever its length and with or without
//! `--reveal-passwords`. An agent types a secret by its name
//! ([`named`]): `browser_type` and `browser_fill_form` given exactly a
//! secret's name type its value.
//!
//! The switch and the secrets are process-wide: they are operator flags,
//! set once at start. The values seen are per browser context: over HTTP
//! each client has one, and a value one client typed must not be masked in
//! another's pages (that would tell the second client a text equals
//! someone's password). The snapshot reader (`crate::ax`) has no engine to
//! ask, so the MCP layer runs each call inside its session's store
//! ([`enter`]); outside any (the CLI, tests) one process-wide store serves.

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use crate::error::lock;

static REVEAL: AtomicBool = AtomicBool::new(false);

/// Password values one browser context has seen, newest last, at most
/// [`MAX_REMEMBERED`].
#[derive(Debug, Default)]
pub struct Seen(Mutex<Vec<String>>);

/// Values seen outside any session's store.
static SEEN: Seen = Seen(Mutex::new(Vec::new()));

thread_local! {
    static CURRENT: RefCell<Option<Arc<Seen>>> = const { RefCell::new(None) };
}

/// While alive, this thread remembers and scrubs with a session's store.
#[derive(Debug)]
pub struct Entered(Option<Arc<Seen>>);

/// Runs this thread's calls with `seen` as the values seen until the
/// returned guard drops (then the previous store is back).
pub fn enter(seen: Arc<Seen>) -> Entered {
    Entered(CURRENT.with(|c| c.replace(Some(seen))))
}

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// `f` on the store this thread's call runs with.
fn with_seen<R>(f: impl FnOnce(&mut Vec<String>) -> R) -> R {
    match CURRENT.with(|c| c.borrow().clone()) {
        Some(s) => f(&mut lock(&s.0)),
        None => f(&mut lock(&SEEN.0)),
    }
}

/// The operator's secrets, `(name, value)`, longest value first.
static NAMED: RwLock<Vec<(String, String)>> = RwLock::new(Vec::new());

/// Sets the operator's secrets (empty values are left out).
pub fn set_named(mut secrets: Vec<(String, String)>) {
    secrets.retain(|(n, v)| !n.is_empty() && !v.is_empty());
    secrets.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    *NAMED.write().unwrap_or_else(|e| e.into_inner()) = secrets;
}

/// The value of the secret named exactly `text`, if it is one.
pub fn named(text: &str) -> Option<String> {
    NAMED
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(n, _)| n == text)
        .map(|(_, v)| v.clone())
}

/// How a secret's value reads in a response.
pub fn secret_mark(name: &str) -> String {
    format!("<secret>{name}</secret>")
}

/// Shorter values are masked in fields but not searched for in other
/// text: a 3-letter password would mask every word that contains it.
pub const MIN_SCRUBBED: usize = 4;

/// Password values remembered for the scrub; the oldest go first.
pub const MAX_REMEMBERED: usize = 64;

/// Turns masking off (`true`) or on (`false`, the default).
pub fn set_reveal(reveal: bool) {
    REVEAL.store(reveal, Ordering::SeqCst);
}

/// Whether password values are printed as they are.
pub fn revealed() -> bool {
    REVEAL.load(Ordering::SeqCst)
}

/// The mask of a password value: `[password, 13 characters]`.
pub fn mask(value: &str) -> String {
    let n = value.chars().count();
    format!("[password, {n} character{}]", if n == 1 { "" } else { "s" })
}

/// What to print for the value of an `<input>` whose `type` attribute is
/// `type_attr`: the mask for a password (unless revealed), else the value.
pub fn shown_value(type_attr: Option<&str>, value: String) -> String {
    let password = type_attr.is_some_and(|t| t.trim().eq_ignore_ascii_case("password"));
    if password && !revealed() && !value.is_empty() {
        remember(&value);
        mask(&value)
    } else {
        value
    }
}

/// Remembers a password value for [`scrub`].
pub fn remember(value: &str) {
    if revealed() || value.chars().count() < MIN_SCRUBBED {
        return;
    }
    with_seen(|seen| {
        if let Some(i) = seen.iter().position(|v| v == value) {
            let v = seen.remove(i);
            seen.push(v);
            return;
        }
        seen.push(value.to_owned());
        if seen.len() > MAX_REMEMBERED {
            seen.remove(0);
        }
    })
}

/// The spellings of a value a response may carry it in: as typed,
/// URL-encoded, form-encoded and JSON-escaped.
fn spellings(v: &str) -> [String; 4] {
    let form: String = form_urlencoded::byte_serialize(v.as_bytes()).collect();
    let json = serde_json::to_string(v).unwrap_or_default();
    let json = json.trim_matches('"').to_owned();
    [v.to_owned(), form.replace('+', "%20"), form, json]
}

/// `text` with every secret of the operator's replaced by its name, and
/// every remembered password value replaced by its mask (each in any of
/// its spellings: as typed, form-encoded, URL-encoded or JSON-escaped).
pub fn scrub(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    for (name, value) in NAMED.read().unwrap_or_else(|e| e.into_inner()).iter() {
        let mark = secret_mark(name);
        for variant in spellings(value) {
            if out.contains(&variant) {
                out = Cow::Owned(out.replace(&variant, &mark));
            }
        }
    }
    if revealed() {
        return out;
    }
    let mut values: Vec<String> = with_seen(|seen| seen.clone());
    // Longest first, so a value that contains another is masked whole.
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for v in values {
        let masked = mask(&v);
        for variant in spellings(&v) {
            if out.contains(&variant) {
                out = Cow::Owned(out.replace(&variant, &masked));
            }
        }
    }
    out
}

/// Called on an element (`this`): whether it is a password field. Not
/// `instanceof`: the element may come from a frame's realm or a page that
/// replaced the globals.
pub const IS_PASSWORD_JS: &str = "function () { return this.localName === 'input' && String(this.type).toLowerCase() === 'password'; }";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_only_passwords() {
        assert_eq!(mask("hunter2"), "[password, 7 characters]");
        assert_eq!(mask("é"), "[password, 1 character]");
        assert_eq!(
            shown_value(Some("PASSWORD"), "hunter2".into()),
            "[password, 7 characters]"
        );
        assert_eq!(shown_value(Some("text"), "ada".into()), "ada");
        assert_eq!(shown_value(None, "ada".into()), "ada");
        assert_eq!(shown_value(Some("password"), String::new()), "");
    }

    #[test]
    fn secrets_read_as_their_names() {
        set_named(vec![
            ("API_KEY".into(), "s3cr3t-value!".into()),
            ("EMPTY".into(), String::new()),
        ]);
        assert_eq!(named("API_KEY").as_deref(), Some("s3cr3t-value!"));
        assert_eq!(named("EMPTY"), None);
        assert_eq!(
            scrub("typed s3cr3t-value! into ?k=s3cr3t-value%21"),
            "typed <secret>API_KEY</secret> into ?k=<secret>API_KEY</secret>"
        );
        set_named(Vec::new());
    }

    #[test]
    fn scrubs_values_seen_in_any_spelling() {
        remember("pa ss\"w!rd-9");
        remember("abc");
        let t = "log: pa ss\"w!rd-9; url ?pw=pa+ss%22w%21rd-9&x=pa%20ss%22w%21rd-9; json \"pa ss\\\"w!rd-9\"; abc";
        assert_eq!(
            scrub(t),
            "log: [password, 12 characters]; url ?pw=[password, 12 characters]&x=[password, 12 characters]; json \"[password, 12 characters]\"; abc"
        );
    }

    #[test]
    fn each_session_scrubs_only_what_it_saw() {
        let (a, b) = (Arc::new(Seen::default()), Arc::new(Seen::default()));
        {
            let _a = enter(Arc::clone(&a));
            remember("alice-secret-1");
            assert_eq!(scrub("alice-secret-1"), "[password, 14 characters]");
        }
        {
            let _b = enter(Arc::clone(&b));
            assert_eq!(scrub("alice-secret-1"), "alice-secret-1");
        }
        // Outside both: the process-wide store, which saw neither.
        assert_eq!(scrub("alice-secret-1"), "alice-secret-1");
    }
}
