//! Normalization of dynamic text: dates, times, long numbers and ids.
//!
//! Ids are recognized by position as well as by shape: after `#`, in URL
//! path segments and query values, in `[name="…"]` values, a token is an id
//! whether or not it happens to be all digits (a random hex id is all digits
//! a few times in a hundred loads). Numbers in running text (prices,
//! counts) stay numbers, and short ones stay as written.

use crate::prelude::*;
use alloc::borrow::Cow;

use super::matcher::{self, Kind};

// The pattern, matched by hand in `matcher` (docs/DECISIONS.md D63), as the
// regex it was (core/tests/normalize_differential.rs keeps this regex as
// the oracle), its alternatives tried in this order:
//
//   uuid      \b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b
//   datetime  \b\d{4}-\d{2}-\d{2}[T ]TIME
//   date      \b(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})|\d{1,2}\.\d{1,2}\.\d{4})\b
//   dateword  \b(?:WEEKDAY)?(?:MONTH\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4}\b)?|\d{1,2}(?:st|nd|rd|th)?\s+MONTH(?:,?\s+\d{4}\b)?)
//   time      \bTIME|\b\d{1,2}\s?(?:[AaPp][Mm]\b|[AaPp]\.[Mm]\.)
//   relative  \b(?:\d+\s?UNIT\s+ago|in\s+\d+\s?UNIT|(?:a|an)\s+(?:second|minute|hour|day|week|month|year)\s+ago|just now|moments? ago)\b
//   grouped   \b\d{1,3}(?:[,.'\u{202F}\u{00A0}]\d{3})+(?:[.,]\d+)?\b
//   hashid    #[\p{L}\p{N}_-]*\p{N}[\p{L}\p{N}_-]*
//   word      [\p{L}\p{N}_]*\p{N}[\p{L}\p{N}_]*(?:[.,]\p{N}+)*
//
// MONTH    (?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?
// WEEKDAY  (?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\.?,?\s+
// UNIT     (?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|[smhdw])
// TIME     \d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:\s?[AaPp]\.?[Mm]\.?)?(?:\s?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}))?

/// Replaces dynamic text with placeholders so that reloading a page does not
/// change its fingerprint:
///
/// | text | becomes |
/// |---|---|
/// | UUIDs (`0f8fad5b-d9cb-469f-a165-70867728950e`) | `[id]` |
/// | hex with digits and letters, 8+ (`a1b2c3d4`), mixed letters and digits 16+, `prefix_` ids (`ord_8fK2LmQ9x`) | `[id]` |
/// | ISO dates, `01/23/2026`, `23.01.2026`, `Jan 23, 2026`, `23 January` (with a weekday) | `[date]` |
/// | ISO date-times | `[date] [time]` |
/// | `10:30`, `10:30:45.123 UTC`, `9 PM`, `5 minutes ago`, `in 2 days`, `just now` | `[time]` |
/// | `#` and a token with a digit (`Order #98231`, `#todo-k2j3h4`): chunks of 4+ with a digit | `#[id]`, `#todo-[id]` |
/// | runs of 8 or more digits (`12345678`, timestamps): ids or hex that happen to have no letter | `[id]` |
/// | numbers with 4 to 7 digits (`48213`, `1,234.56`, `$19.99`), digit runs of 4+ inside words (`row12345`) | `[number]` |
///
/// Shorter numbers (`3 items`, `Page 2`) are content and stay. Whitespace
/// runs collapse to one space. Headings are never normalized (the caller
/// skips them); everything else in a fingerprint is.
///
/// ```
/// use response_diff::fingerprint::normalize_text;
///
/// assert_eq!(normalize_text("Updated 2026-01-23T10:30:45Z by 48213"), "Updated [date] [time] by [number]");
/// assert_eq!(normalize_text("Request 0f8fad5b-d9cb-469f-a165-70867728950e"), "Request [id]");
/// assert_eq!(normalize_text("3 items, 5 minutes ago"), "3 items, [time]");
/// assert_eq!(normalize_text("Save"), "Save");
/// ```
pub fn normalize_text(text: &str) -> Cow<'_, str> {
    let mut out = normalize_once(text);
    // A placeholder's `]` can start a match where the text ran on before
    // (`02:046:53` -> `[time]6:53` -> `[time][time]`): repeat until stable,
    // so a saved fingerprint normalized again on load keeps its hash. Each
    // change removes digits or a relative-date phrase, so this ends in a
    // pass or two; the bound is only a guard.
    for _ in 0..8 {
        let Cow::Owned(current) = &out else { break };
        match normalize_once(current) {
            Cow::Owned(next) if next != *current => out = Cow::Owned(next),
            _ => break,
        }
    }
    out
}

/// One pass of [`normalize_text`].
fn normalize_once(text: &str) -> Cow<'_, str> {
    let collapsed: Cow<'_, str> = if needs_ws_collapse(text) {
        Cow::Owned(collapse_ws(text))
    } else {
        Cow::Borrowed(text)
    };
    if !collapsed.bytes().any(|b| b.is_ascii_digit()) && !has_word_date(&collapsed) {
        return collapsed;
    }
    let mut out: Option<String> = None;
    let mut last = 0;
    for (kind, start, end) in matcher::find_all(&collapsed) {
        let out = out.get_or_insert_with(|| String::with_capacity(collapsed.len()));
        out.push_str(&collapsed[last..start]);
        out.push_str(&replacement(kind, &collapsed[start..end]));
        last = end;
    }
    match out {
        Some(mut out) => {
            out.push_str(&collapsed[last..]);
            Cow::Owned(out)
        }
        None => collapsed,
    }
}

/// [`normalize_text`] for URLs: the scheme, host and port stay as they are;
/// the path, query and fragment are normalized, and their tokens are ids by
/// position: a chunk with a digit and 4 or more characters is `[id]`
/// whether or not it happens to be all digits.
///
/// ```
/// use response_diff::fingerprint::normalize_url;
///
/// assert_eq!(normalize_url("http://127.0.0.1:8080/orders/12345?t=1700000000"),
///            "http://127.0.0.1:8080/orders/[id]?t=[id]");
/// assert_eq!(normalize_url("/orders/8fk2a?page=2"), "/orders/[id]?page=2");
/// assert_eq!(normalize_url("//cdn2024.example.com/v/2024-01-05"), "//cdn2024.example.com/v/[date]");
/// ```
pub fn normalize_url(url: &str) -> Cow<'_, str> {
    let url = url.trim();
    // Where the host starts: after `scheme://`, or after `//` (another
    // origin's link, as the extractor writes it).
    let host_start = match url.find("://") {
        Some(i) => Some(i + 3),
        None if url.starts_with("//") => Some(2),
        None => None,
    };
    let split = match host_start {
        Some(start) => url[start..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |j| start + j),
        None => 0,
    };
    let (origin, rest) = url.split_at(split);
    // Path segments and query values are ids by position: `/orders/48213`
    // and `/orders/8fk2a` both read `/orders/[id]`.
    let normalized = normalize_text(rest);
    match id_position(&normalized) {
        Cow::Borrowed(r) if r == rest => Cow::Borrowed(url),
        r => Cow::Owned(format!("{origin}{r}")),
    }
}

/// The id rule for tokens in an id position (after `#`, URL path segments
/// and query values, `[name="…"]` values): a number placeholder becomes
/// `[id]`, and so does every alphanumeric chunk (between `-`, `_`, `.`,
/// `~`, `+` and the like) that has a digit and 4 or more characters, so
/// `todo-1700000000`, `todo-k2j3h4l5` and `todo-8f3a` all read `todo-[id]`.
/// Shorter chunks (`v2`, `h1`, `12`) stay: they are names or small numbers.
fn id_position(text: &str) -> Cow<'_, str> {
    if !text.bytes().any(|b| b.is_ascii_digit()) && !text.contains("[number]") {
        return Cow::Borrowed(text);
    }
    // A number placeholder is part of the chunk around it (`zz1234` was
    // made `zz[number]` by the text rules): it counts as digits, 4 wide.
    const NUM: char = '\u{1}';
    let text = text.replace("[number]", "\u{1}");
    let mut out = String::with_capacity(text.len() + 8);
    let mut chunk = String::new();
    let flush = |chunk: &mut String, out: &mut String| {
        let width = chunk
            .chars()
            .map(|c| if c == NUM { 4 } else { 1 })
            .sum::<usize>();
        if width >= 4 && chunk.chars().any(|c| c == NUM || c.is_ascii_digit()) {
            out.push_str("[id]");
        } else {
            out.push_str(chunk);
        }
        chunk.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() || ch == NUM {
            chunk.push(ch);
        } else {
            flush(&mut chunk, &mut out);
            out.push(ch);
        }
    }
    flush(&mut chunk, &mut out);
    Cow::Owned(out)
}

/// [`normalize_text`] for selectors: also the values of `[name="…"]` are
/// ids by position (`#…` already are, in any text).
///
/// ```
/// use response_diff::fingerprint::normalize_selector;
///
/// assert_eq!(normalize_selector("#todo-1700000000 li"), "#todo-[id] li");
/// assert_eq!(normalize_selector("#todo-k2j3h4l5 li"), "#todo-[id] li");
/// assert_eq!(normalize_selector("input[name=\"field-48213\"]"), "input[name=\"field-[id]\"]");
/// assert_eq!(normalize_selector("input[name=\"field-8fk2a\"]"), "input[name=\"field-[id]\"]");
/// assert_eq!(normalize_selector("button[aria-label=\"Pay 48213\"]"), "button[aria-label=\"Pay [number]\"]");
/// ```
pub fn normalize_selector(selector: &str) -> Cow<'_, str> {
    let text = normalize_text(selector);
    if !text.contains("[name=\"") {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest: &str = &text;
    while let Some(i) = rest.find("[name=\"") {
        let start = i + "[name=\"".len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        // The extractor escapes `"` and `\` inside values.
        let mut end = rest.len();
        let mut escaped = false;
        for (j, ch) in rest.char_indices() {
            match ch {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    end = j;
                    break;
                }
                _ => escaped = false,
            }
        }
        out.push_str(&id_position(&rest[..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Whitespace runs as one space, trimmed: headings get this and no more.
pub(crate) fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Digits folded away, for matching elements whose text differs only in a
/// counter (`Inbox (3)` and `Inbox (5)`).
pub(crate) fn fold_digits(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_digits = false;
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(ch);
            in_digits = false;
        }
    }
    out
}

fn needs_ws_collapse(s: &str) -> bool {
    let mut prev_space = true;
    for ch in s.chars() {
        if ch.is_whitespace() {
            if prev_space || ch != ' ' {
                return true;
            }
            prev_space = true;
        } else {
            prev_space = false;
        }
    }
    prev_space && !s.is_empty()
}

fn has_word_date(s: &str) -> bool {
    s.contains("ago") || s.contains("just now") || s.contains("moment")
}

fn replacement(kind: Kind, m: &str) -> String {
    match kind {
        Kind::Uuid => "[id]".into(),
        Kind::DateTime => "[date] [time]".into(),
        Kind::Date | Kind::DateWord => "[date]".into(),
        Kind::Time | Kind::Relative => "[time]".into(),
        Kind::HashId => format!("#{}", id_position(&normalize_once(&m[1..]))),
        Kind::Grouped => classify_number(m),
        Kind::Word => classify(m),
    }
}

fn classify_number(s: &str) -> String {
    if s.chars().filter(char::is_ascii_digit).count() >= 4 {
        "[number]".into()
    } else {
        s.to_owned()
    }
}

fn classify(word: &str) -> String {
    let digits = word.chars().filter(char::is_ascii_digit).count();
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    if letters == 0 {
        // A bare run of 8 or more digits is no count a page shows (those
        // are grouped): it is an id or a timestamp, and an 8-digit hex id
        // that happens to have no letter must normalize as one that has.
        if digits >= 8 && word.chars().all(|c| c.is_ascii_digit()) {
            return "[id]".into();
        }
        // 48213, 19.99, 3.14159
        return classify_number(word);
    }
    let is_hex = word.chars().all(|c| c.is_ascii_hexdigit());
    let uniform_case = !(word.chars().any(|c| c.is_ascii_lowercase())
        && word.chars().any(|c| c.is_ascii_uppercase()));
    if is_hex && uniform_case && word.len() >= 8 && digits > 0 {
        return "[id]".into();
    }
    if word.len() >= 16 && digits > 0 && word.chars().all(|c| c.is_ascii_alphanumeric()) {
        return "[id]".into();
    }
    let prefixed_id = word.split_once('_').is_some_and(|(prefix, rest)| {
        (2..=8).contains(&prefix.len())
            && prefix.chars().all(|c| c.is_ascii_lowercase())
            && rest.len() >= 8
            && rest.chars().all(|c| c.is_ascii_alphanumeric())
            && rest.chars().any(|c| c.is_ascii_digit())
    });
    if prefixed_id {
        return "[id]".into();
    }
    matcher::replace_digit_runs(word, "[number]")
}
