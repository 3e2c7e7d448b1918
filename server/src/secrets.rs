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
//! The switch and the values seen are process-wide: the switch is an
//! operator flag, set once at start, and the snapshot reader (`crate::ax`)
//! has no engine to ask.

use std::borrow::Cow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::lock;

static REVEAL: AtomicBool = AtomicBool::new(false);

/// Values seen, newest last, at most [`MAX_REMEMBERED`].
static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

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
    let mut seen = lock(&SEEN);
    if let Some(i) = seen.iter().position(|v| v == value) {
        let v = seen.remove(i);
        seen.push(v);
        return;
    }
    seen.push(value.to_owned());
    if seen.len() > MAX_REMEMBERED {
        seen.remove(0);
    }
}

/// `text` with every remembered password value (as typed, form-encoded,
/// URL-encoded or JSON-escaped) replaced by its mask.
pub fn scrub(text: &str) -> Cow<'_, str> {
    if revealed() {
        return Cow::Borrowed(text);
    }
    let seen = lock(&SEEN);
    let mut out = Cow::Borrowed(text);
    // Longest first, so a value that contains another is masked whole.
    let mut values: Vec<&String> = seen.iter().collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for v in values {
        let form: String = form_urlencoded::byte_serialize(v.as_bytes()).collect();
        let json = serde_json::to_string(v).unwrap_or_default();
        let json = json.trim_matches('"').to_owned();
        let masked = mask(v);
        for variant in [v.clone(), form.replace('+', "%20"), form, json] {
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
    fn scrubs_values_seen_in_any_spelling() {
        remember("pa ss\"w!rd-9");
        remember("abc");
        let t = "log: pa ss\"w!rd-9; url ?pw=pa+ss%22w%21rd-9&x=pa%20ss%22w%21rd-9; json \"pa ss\\\"w!rd-9\"; abc";
        assert_eq!(
            scrub(t),
            "log: [password, 12 characters]; url ?pw=[password, 12 characters]&x=[password, 12 characters]; json \"[password, 12 characters]\"; abc"
        );
    }
}
