//! The oracle of tests/normalize_differential.rs: fingerprint
//! normalization as it was before docs/DECISIONS.md D63, on the regex
//! crate, kept verbatim (its doc comments left out) so the hand matcher
//! that replaced it can be checked against it byte for byte. Do not
//! change it: it is what saved fingerprints were hashed with.
use std::borrow::Cow;
use std::sync::OnceLock;

use regex::{Captures, Regex};

const MONTH: &str = "(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\\.?";
const WEEKDAY: &str = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\\.?,?\\s+";
const UNIT: &str =
    "(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|[smhdw])";
const TIME: &str = "\\d{1,2}:\\d{2}(?::\\d{2}(?:[.,]\\d{1,9})?)?(?:\\s?[AaPp]\\.?[Mm]\\.?)?(?:\\s?(?:Z|UTC|GMT|[+-]\\d{2}:?\\d{2}))?";

fn pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(build_pattern)
}

fn build_pattern() -> Regex {
    let alternatives = [
        // UUIDs first: they contain digit runs the number rule would eat.
        r"(?P<uuid>\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b)".to_owned(),
        // ISO 8601 date-time: 2026-01-23T10:30:45.123Z
        format!(r"(?P<datetime>\b\d{{4}}-\d{{2}}-\d{{2}}[T ]{TIME})"),
        // 2026-01-23, 2026/01/23, 01/23/2026, 1/2/26, 23.01.2026
        r"(?P<date>\b(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})|\d{1,2}\.\d{1,2}\.\d{4})\b)"
            .to_owned(),
        // Mon, Jan 23, 2026 / January 23rd / 23 Jan 2026 / Monday 23 January
        format!(
            r"(?P<dateword>\b(?:{WEEKDAY})?(?:{MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}}\b)?|\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH}(?:,?\s+\d{{4}}\b)?))"
        ),
        // 10:30, 10:30:45, 10:30 PM, 10:30:45.123 UTC
        format!(r"(?P<time>\b{TIME}|\b\d{{1,2}}\s?(?:[AaPp][Mm]\b|[AaPp]\.[Mm]\.))"),
        // 5 minutes ago, 3h ago, in 2 days, just now, an hour ago
        format!(
            r"(?P<relative>\b(?:\d+\s?{UNIT}\s+ago|in\s+\d+\s?{UNIT}|(?:a|an)\s+(?:second|minute|hour|day|week|month|year)\s+ago|just now|moments? ago)\b)"
        ),
        // 1,234,567.89 / 12 345 (thin or no-break space) / 1'234
        r"(?P<grouped>\b\d{1,3}(?:[,.'\u{202F}\u{00A0}]\d{3})+(?:[.,]\d+)?\b)".to_owned(),
        // `#` then a token with a digit: an id by its position (`Order
        // #98231`, `#todo-1700000000`, `#row-k2j3h4`), whatever its digits.
        r"(?P<hashid>#[\p{L}\p{N}_-]*\p{N}[\p{L}\p{N}_-]*)".to_owned(),
        // Any word that contains a digit (ids, counters, hex, ord_8fK2…),
        // with decimals: classified in `classify`.
        r"(?P<word>[\p{L}\p{N}_]*\p{N}[\p{L}\p{N}_]*(?:[.,]\p{N}+)*)".to_owned(),
    ];
    Regex::new(&alternatives.join("|")).expect("the normalization pattern is valid")
}

fn digit_runs() -> &'static Regex {
    static DIGITS: OnceLock<Regex> = OnceLock::new();
    DIGITS.get_or_init(|| Regex::new(r"\d{4,}").expect("the digit-run pattern is valid"))
}

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

fn normalize_once(text: &str) -> Cow<'_, str> {
    let collapsed: Cow<'_, str> = if needs_ws_collapse(text) {
        Cow::Owned(collapse_ws(text))
    } else {
        Cow::Borrowed(text)
    };
    if !collapsed.bytes().any(|b| b.is_ascii_digit()) && !has_word_date(&collapsed) {
        return collapsed;
    }
    let replaced = pattern().replace_all(&collapsed, |c: &Captures<'_>| replacement(c));
    match replaced {
        Cow::Borrowed(_) => collapsed,
        Cow::Owned(o) => Cow::Owned(o),
    }
}

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

fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
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

fn replacement(c: &Captures<'_>) -> String {
    if c.name("uuid").is_some() {
        "[id]".into()
    } else if c.name("datetime").is_some() {
        "[date] [time]".into()
    } else if c.name("date").is_some() || c.name("dateword").is_some() {
        "[date]".into()
    } else if c.name("time").is_some() || c.name("relative").is_some() {
        "[time]".into()
    } else if let Some(m) = c.name("hashid") {
        format!("#{}", id_position(&normalize_once(&m.as_str()[1..])))
    } else if let Some(m) = c.name("grouped") {
        classify_number(m.as_str())
    } else if let Some(m) = c.name("word") {
        classify(m.as_str())
    } else {
        c[0].to_owned()
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
    digit_runs().replace_all(word, "[number]").into_owned()
}
