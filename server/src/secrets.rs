//! Password values stay in the page: wherever the server would print the
//! value of an `<input type=password>` (the snapshot, which every patch,
//! line diff and `since` read is made from; the result line and the
//! generated code of `browser_type` and `browser_fill_form`), it prints a
//! mask that keeps what an agent needs (that the field is filled, and how
//! long the value is). The operator's switch `--reveal-passwords` turns
//! masking off (for tests of the page itself).
//!
//! The switch is process-wide: it is an operator flag, set once at start,
//! and the snapshot reader (`crate::ax`) has no engine to ask.

use std::sync::atomic::{AtomicBool, Ordering};

static REVEAL: AtomicBool = AtomicBool::new(false);

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
        mask(&value)
    } else {
        value
    }
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
}
