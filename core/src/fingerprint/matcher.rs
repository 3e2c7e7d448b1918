//! The normalization pattern of [`super::normalize`], matched by hand.
//!
//! Written here rather than taken from a crate (docs/DECISIONS.md D63): the
//! core's `no_std` build stays on serde, serde_json, similar, blake3 and
//! hashbrown, and the pattern is small and fixed. It was one regular
//! expression for the regex crate; each function below is one of its
//! alternatives, with the expression it stands for above it, and follows
//! the regex crate's semantics exactly: at each position the alternatives
//! are tried in order and the first that matches wins (leftmost-first),
//! greedy repetitions try the longest choice first and give back one
//! character at a time, `\b` is the Unicode word boundary, and `\d`, `\w`,
//! `\s`, `\p{L}`, `\p{N}` are regex-syntax's Unicode classes
//! ([`super::unicode_tables`]). core/tests/normalize_differential.rs checks
//! the outputs against the regex crate byte for byte on a generated corpus
//! and every fixture.
//!
//! Every function takes the text and a start position (a byte offset on a
//! character boundary) and returns where its match ends. Repetitions of
//! one character class are walked with [`Greedy`], which yields the
//! possible ends longest first, so a loop over it backtracks as the regex
//! engine would; everything runs in time linear in the text for each
//! start position, and the scan in [`find_all`] skips runs of word
//! characters that cannot hold a match.

use super::unicode_tables::{DIGIT, LETTER, NUMBER, SPACE, WORD};

/// Which alternative of the pattern matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A UUID.
    Uuid,
    /// An ISO 8601 date-time.
    DateTime,
    /// A numeric date.
    Date,
    /// A date with a month name.
    DateWord,
    /// A time of day.
    Time,
    /// A relative time (`5 minutes ago`).
    Relative,
    /// A number with group separators.
    Grouped,
    /// `#` and a token with a digit.
    HashId,
    /// A word with a digit.
    Word,
}

fn in_table(table: &[(char, char)], c: char) -> bool {
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                core::cmp::Ordering::Less
            } else if lo > c {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `\d`: a Unicode decimal digit.
pub(crate) fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_table(DIGIT, c)
    }
}

/// `\w`: a Unicode word character (what `\b` looks at).
fn is_word(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        in_table(WORD, c)
    }
}

/// `\s`: Unicode white space.
fn is_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
    } else {
        in_table(SPACE, c)
    }
}

/// `\p{L}`: a letter.
fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        in_table(LETTER, c)
    }
}

/// `\p{N}`: a number (decimal digits, letter numbers, other numbers).
fn is_number(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_table(NUMBER, c)
    }
}

/// `[\p{L}\p{N}_]`.
fn is_token(c: char) -> bool {
    c == '_' || is_letter(c) || is_number(c)
}

fn char_at(s: &str, i: usize) -> Option<char> {
    s.get(i..)?.chars().next()
}

fn char_before(s: &str, i: usize) -> Option<char> {
    s[..i].chars().next_back()
}

/// `\b` at `i`: a word character on exactly one side.
fn boundary(s: &str, i: usize) -> bool {
    char_before(s, i).is_some_and(is_word) != char_at(s, i).is_some_and(is_word)
}

/// One character matching `class` at `i`: where it ends.
fn one(s: &str, i: usize, class: impl Fn(char) -> bool) -> Option<usize> {
    char_at(s, i)
        .filter(|&c| class(c))
        .map(|c| i + c.len_utf8())
}

/// A literal at `i`: where it ends.
fn lit(s: &str, i: usize, literal: &str) -> Option<usize> {
    s.get(i..)?.starts_with(literal).then(|| i + literal.len())
}

/// Exactly `n` characters of `class` from `i`.
fn exact(s: &str, mut i: usize, class: impl Fn(char) -> bool, n: usize) -> Option<usize> {
    for _ in 0..n {
        i = one(s, i, &class)?;
    }
    Some(i)
}

/// The ends of the literals of `list` that match at `i`, in list order
/// (an alternation of literals).
fn lits<'a>(s: &'a str, i: usize, list: &'a [&'a str]) -> impl Iterator<Item = usize> + 'a {
    list.iter().filter_map(move |l| lit(s, i, l))
}

/// `class{lo,hi}` at a position, greedy: the possible ends, longest first.
struct Greedy<'a> {
    s: &'a str,
    end: usize,
    count: usize,
    lo: usize,
    done: bool,
}

impl Iterator for Greedy<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.done {
            return None;
        }
        let end = self.end;
        if self.count == self.lo {
            self.done = true;
        } else {
            self.count -= 1;
            self.end -= char_before(self.s, self.end).map_or(0, char::len_utf8);
        }
        Some(end)
    }
}

fn greedy(s: &str, i: usize, class: impl Fn(char) -> bool, lo: usize, hi: usize) -> Greedy<'_> {
    let mut end = i;
    let mut count = 0;
    while count < hi {
        match one(s, end, &class) {
            Some(e) => {
                end = e;
                count += 1;
            }
            None => break,
        }
    }
    Greedy {
        s,
        end,
        count,
        lo,
        done: count < lo,
    }
}

/// `c?`, greedy.
fn opt(s: &str, i: usize, c: char) -> Greedy<'_> {
    greedy(s, i, move |x| x == c, 0, 1)
}

/// `\s?`, greedy.
fn opt_space(s: &str, i: usize) -> Greedy<'_> {
    greedy(s, i, is_space, 0, 1)
}

/// `\s+`, greedy.
fn spaces(s: &str, i: usize) -> Greedy<'_> {
    greedy(s, i, is_space, 1, usize::MAX)
}

/// `\d{lo,hi}`, greedy.
fn digits(s: &str, i: usize, lo: usize, hi: usize) -> Greedy<'_> {
    greedy(s, i, is_digit, lo, hi)
}

const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "Jun",
    "Jul",
    "Aug",
    "Sept",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
];

const WEEKDAYS: &[&str] = &[
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Mon",
    "Tue",
    "Tues",
    "Wed",
    "Thu",
    "Thur",
    "Thurs",
    "Fri",
    "Sat",
    "Sun",
];

/// The stems of `UNIT` that take an optional `s`.
const UNITS: &[&str] = &[
    "second", "sec", "minute", "min", "hour", "hr", "day", "week", "month", "year",
];

const SPANS: &[&str] = &["second", "minute", "hour", "day", "week", "month", "year"];

const ORDINALS: &[&str] = &["st", "nd", "rd", "th"];

/// The first match at or after `from`: its kind, start and end.
/// `skip_word` is where the last failed [`word`] run ends (no start
/// before it can match `word`); the caller keeps it between calls.
fn find_at(s: &str, from: usize, skip_word: &mut usize) -> Option<(Kind, usize, usize)> {
    let mut p = from;
    while let Some(c) = char_at(s, p) {
        if c == '#' {
            if let Some(e) = hashid(s, p) {
                return Some((Kind::HashId, p, e));
            }
        } else if is_token(c) {
            let tried = [
                (Kind::Uuid, uuid as fn(&str, usize) -> Option<usize>),
                (Kind::DateTime, datetime),
                (Kind::Date, date),
                (Kind::DateWord, dateword),
                (Kind::Time, time),
                (Kind::Relative, relative),
                (Kind::Grouped, grouped),
            ];
            for (kind, f) in tried {
                if let Some(e) = f(s, p) {
                    return Some((kind, p, e));
                }
            }
            if p >= *skip_word {
                match word(s, p) {
                    Ok(e) => return Some((Kind::Word, p, e)),
                    Err(run_end) => *skip_word = run_end,
                }
            }
        }
        p += c.len_utf8();
    }
    None
}

/// Every match, left to right, not overlapping (the regex crate's
/// `find_iter`): `(kind, start, end)`.
pub(crate) fn find_all(s: &str) -> impl Iterator<Item = (Kind, usize, usize)> + '_ {
    let mut at = 0;
    let mut skip_word = 0;
    core::iter::from_fn(move || {
        let (kind, start, end) = find_at(s, at, &mut skip_word)?;
        at = end;
        Some((kind, start, end))
    })
}

/// `\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b`
fn uuid(s: &str, p: usize) -> Option<usize> {
    if !boundary(s, p) {
        return None;
    }
    let mut i = p;
    for (k, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if k > 0 {
            i = lit(s, i, "-")?;
        }
        i = exact(s, i, |c| c.is_ascii_hexdigit(), n)?;
    }
    boundary(s, i).then_some(i)
}

/// `TIME` = `\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:\s?[AaPp]\.?[Mm]\.?)?(?:\s?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}))?`
///
/// Nothing follows `TIME` where it is used, and everything after its
/// first `\d{2}` is optional, so the first way each optional part matches
/// is the one the regex takes.
fn time_of_day(s: &str, q: usize) -> Option<usize> {
    let mut e = digits(s, q, 1, 2).find_map(|q| {
        let q = lit(s, q, ":")?;
        exact(s, q, is_digit, 2)
    })?;
    // (?::\d{2}(?:[.,]\d{1,9})?)?
    if let Some(q) = lit(s, e, ":").and_then(|q| exact(s, q, is_digit, 2)) {
        e = q;
        if let Some(q) = one(s, e, |c| c == '.' || c == ',').and_then(|q| digits(s, q, 1, 9).next())
        {
            e = q;
        }
    }
    // (?:\s?[AaPp]\.?[Mm]\.?)?
    if let Some(q) = opt_space(s, e).find_map(|q| meridiem(s, q)) {
        e = q;
    }
    // (?:\s?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}))?
    if let Some(q) = opt_space(s, e).find_map(|q| zone(s, q)) {
        e = q;
    }
    Some(e)
}

/// `[AaPp]\.?[Mm]\.?` (nothing after it can fail).
fn meridiem(s: &str, q: usize) -> Option<usize> {
    let q = one(s, q, |c| matches!(c, 'A' | 'a' | 'P' | 'p'))?;
    let q = opt(s, q, '.').find_map(|q| one(s, q, |c| c == 'M' || c == 'm'))?;
    opt(s, q, '.').next()
}

/// `Z|UTC|GMT|[+-]\d{2}:?\d{2}` (nothing after it can fail).
fn zone(s: &str, q: usize) -> Option<usize> {
    if let Some(e) = lits(s, q, &["Z", "UTC", "GMT"]).next() {
        return Some(e);
    }
    let q = one(s, q, |c| c == '+' || c == '-')?;
    let q = exact(s, q, is_digit, 2)?;
    opt(s, q, ':').find_map(|q| exact(s, q, is_digit, 2))
}

/// `\b\d{4}-\d{2}-\d{2}[T ]TIME`
fn datetime(s: &str, p: usize) -> Option<usize> {
    if !boundary(s, p) {
        return None;
    }
    let q = exact(s, p, is_digit, 4)?;
    let q = lit(s, q, "-")?;
    let q = exact(s, q, is_digit, 2)?;
    let q = lit(s, q, "-")?;
    let q = exact(s, q, is_digit, 2)?;
    let q = one(s, q, |c| c == 'T' || c == ' ')?;
    time_of_day(s, q)
}

/// `\b(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})|\d{1,2}\.\d{1,2}\.\d{4})\b`
fn date(s: &str, p: usize) -> Option<usize> {
    if !boundary(s, p) {
        return None;
    }
    let dash_slash = |c: char| c == '-' || c == '/';
    let ends = |e: &usize| boundary(s, *e);
    // \d{4}[-/]\d{1,2}[-/]\d{1,2}
    let iso = || {
        let q = exact(s, p, is_digit, 4)?;
        let q = one(s, q, dash_slash)?;
        digits(s, q, 1, 2).find_map(|q| {
            let q = one(s, q, dash_slash)?;
            digits(s, q, 1, 2).find(ends)
        })
    };
    // \d{1,2}/\d{1,2}/(?:\d{4}|\d{2})
    let us = || {
        digits(s, p, 1, 2).find_map(|q| {
            let q = lit(s, q, "/")?;
            digits(s, q, 1, 2).find_map(|q| {
                let q = lit(s, q, "/")?;
                [exact(s, q, is_digit, 4), exact(s, q, is_digit, 2)]
                    .into_iter()
                    .flatten()
                    .find(ends)
            })
        })
    };
    // \d{1,2}\.\d{1,2}\.\d{4}
    let dotted = || {
        digits(s, p, 1, 2).find_map(|q| {
            let q = lit(s, q, ".")?;
            digits(s, q, 1, 2).find_map(|q| {
                let q = lit(s, q, ".")?;
                exact(s, q, is_digit, 4).filter(ends)
            })
        })
    };
    iso().or_else(us).or_else(dotted)
}

/// `\b(?:WEEKDAY)?(?:…)` with `WEEKDAY` = `(?:Monday|…|Sun)\.?,?\s+`
fn dateword(s: &str, p: usize) -> Option<usize> {
    if !boundary(s, p) {
        return None;
    }
    for q in lits(s, p, WEEKDAYS) {
        for q in opt(s, q, '.') {
            for q in opt(s, q, ',') {
                for q in spaces(s, q) {
                    if let Some(e) = dateword_rest(s, q) {
                        return Some(e);
                    }
                }
            }
        }
    }
    dateword_rest(s, p)
}

/// `MONTH\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4}\b)?|\d{1,2}(?:st|nd|rd|th)?\s+MONTH(?:,?\s+\d{4}\b)?`
/// with `MONTH` = `(?:January|…|Dec)\.?`
fn dateword_rest(s: &str, p: usize) -> Option<usize> {
    let ordinal = |q: usize| lits(s, q, ORDINALS).chain(core::iter::once(q));
    for q in lits(s, p, MONTHS) {
        for q in opt(s, q, '.') {
            for q in spaces(s, q) {
                for q in digits(s, q, 1, 2) {
                    for q in ordinal(q) {
                        if boundary(s, q) {
                            return Some(year(s, q));
                        }
                    }
                }
            }
        }
    }
    for q in digits(s, p, 1, 2) {
        for q in ordinal(q) {
            for q in spaces(s, q) {
                if let Some(q) = lits(s, q, MONTHS).next() {
                    let q = opt(s, q, '.').next()?;
                    return Some(year(s, q));
                }
            }
        }
    }
    None
}

/// `(?:,?\s+\d{4}\b)?`, at the end of the pattern: where it ends.
fn year(s: &str, q: usize) -> usize {
    opt(s, q, ',')
        .find_map(|q| {
            spaces(s, q).find_map(|q| exact(s, q, is_digit, 4).filter(|&e| boundary(s, e)))
        })
        .unwrap_or(q)
}

/// `\b{TIME}|\b\d{1,2}\s?(?:[AaPp][Mm]\b|[AaPp]\.[Mm]\.)`
fn time(s: &str, p: usize) -> Option<usize> {
    if !boundary(s, p) {
        return None;
    }
    if let Some(e) = time_of_day(s, p) {
        return Some(e);
    }
    let am = |c: char| matches!(c, 'A' | 'a' | 'P' | 'p');
    let m = |c: char| c == 'M' || c == 'm';
    digits(s, p, 1, 2).find_map(|q| {
        opt_space(s, q).find_map(|q| {
            let q = one(s, q, am)?;
            one(s, q, m).filter(|&e| boundary(s, e)).or_else(|| {
                let q = lit(s, q, ".")?;
                let q = one(s, q, m)?;
                lit(s, q, ".")
            })
        })
    })
}

/// The ends of `UNIT` = `(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|[smhdw])`
/// at `q`, in the order the regex tries them.
fn unit(s: &str, q: usize) -> impl Iterator<Item = usize> + '_ {
    lits(s, q, UNITS)
        .flat_map(move |e| opt(s, e, 's'))
        .chain(one(s, q, |c| matches!(c, 's' | 'm' | 'h' | 'd' | 'w')))
}

/// `\b(?:\d+\s?UNIT\s+ago|in\s+\d+\s?UNIT|(?:a|an)\s+(?:second|minute|hour|day|week|month|year)\s+ago|just now|moments? ago)\b`
fn relative(s: &str, p: usize) -> Option<usize> {
    if !boundary(s, p) {
        return None;
    }
    let ago = |q: usize| lit(s, q, "ago").filter(|&e| boundary(s, e));
    // \d+\s?UNIT\s+ago
    for q in digits(s, p, 1, usize::MAX) {
        for q in opt_space(s, q) {
            for q in unit(s, q) {
                if let Some(e) = spaces(s, q).find_map(ago) {
                    return Some(e);
                }
            }
        }
    }
    // in\s+\d+\s?UNIT
    if let Some(q) = lit(s, p, "in") {
        for q in spaces(s, q) {
            for q in digits(s, q, 1, usize::MAX) {
                for q in opt_space(s, q) {
                    if let Some(e) = unit(s, q).find(|&e| boundary(s, e)) {
                        return Some(e);
                    }
                }
            }
        }
    }
    // (?:a|an)\s+(?:second|minute|hour|day|week|month|year)\s+ago
    for q in lits(s, p, &["a", "an"]) {
        for q in spaces(s, q) {
            for q in lits(s, q, SPANS) {
                if let Some(e) = spaces(s, q).find_map(ago) {
                    return Some(e);
                }
            }
        }
    }
    // just now
    if let Some(e) = lit(s, p, "just now").filter(|&e| boundary(s, e)) {
        return Some(e);
    }
    // moments? ago
    let q = lit(s, p, "moment")?;
    opt(s, q, 's').find_map(|q| lit(s, q, " ago").filter(|&e| boundary(s, e)))
}

/// `\b\d{1,3}(?:[,.'\u{202F}\u{00A0}]\d{3})+(?:[.,]\d+)?\b`
fn grouped(s: &str, p: usize) -> Option<usize> {
    if !boundary(s, p) {
        return None;
    }
    let separator = |c: char| matches!(c, ',' | '.' | '\'' | '\u{202F}' | '\u{00A0}');
    for q in digits(s, p, 1, 3) {
        // (?:[sep]\d{3})+, greedy: take every group, then give them back
        // one at a time (each is 4 characters).
        let mut e = q;
        let mut groups = 0;
        while let Some(next) = one(s, e, separator).and_then(|q| exact(s, q, is_digit, 3)) {
            e = next;
            groups += 1;
        }
        while groups > 0 {
            // (?:[.,]\d+)?\b
            let decimals = one(s, e, |c| c == '.' || c == ',')
                .and_then(|q| digits(s, q, 1, usize::MAX).find(|&f| boundary(s, f)));
            if decimals.is_some() {
                return decimals;
            }
            if boundary(s, e) {
                return Some(e);
            }
            for _ in 0..4 {
                e -= char_before(s, e).map_or(0, char::len_utf8);
            }
            groups -= 1;
        }
    }
    None
}

/// `#[\p{L}\p{N}_-]*\p{N}[\p{L}\p{N}_-]*`: the whole run of those
/// characters after `#`, if it holds a number.
fn hashid(s: &str, p: usize) -> Option<usize> {
    let q = lit(s, p, "#")?;
    let (end, number) = token_run(s, q, |c| c == '-' || is_token(c));
    number.then_some(end)
}

/// `[\p{L}\p{N}_]*\p{N}[\p{L}\p{N}_]*(?:[.,]\p{N}+)*`: the whole run of
/// token characters from `p` if it holds a number, then its decimals.
/// `Err(end of the run)` when it holds none: then no start inside the run
/// matches either.
fn word(s: &str, p: usize) -> Result<usize, usize> {
    let (mut end, number) = token_run(s, p, is_token);
    if !number {
        return Err(end);
    }
    while let Some(e) = one(s, end, |c| c == '.' || c == ',')
        .and_then(|q| greedy(s, q, is_number, 1, usize::MAX).next())
    {
        end = e;
    }
    Ok(end)
}

/// The run of `class` from `i`: its end and whether it holds a `\p{N}`.
fn token_run(s: &str, i: usize, class: impl Fn(char) -> bool) -> (usize, bool) {
    let mut end = i;
    let mut number = false;
    for c in s[i..].chars() {
        if !class(c) {
            break;
        }
        number |= is_number(c);
        end += c.len_utf8();
    }
    (end, number)
}

/// `\d{4,}` replaced by `with`, left to right.
pub(crate) fn replace_digit_runs(text: &str, with: &str) -> alloc::string::String {
    let mut out = alloc::string::String::with_capacity(text.len());
    let mut run: Option<(usize, usize)> = None;
    let flush = |out: &mut alloc::string::String, run: &mut Option<(usize, usize)>, end: usize| {
        if let Some((start, n)) = run.take() {
            out.push_str(if n >= 4 { with } else { &text[start..end] });
        }
    };
    for (i, c) in text.char_indices() {
        if is_digit(c) {
            match &mut run {
                Some((_, n)) => *n += 1,
                None => run = Some((i, 1)),
            }
        } else {
            flush(&mut out, &mut run, i);
            out.push(c);
        }
    }
    flush(&mut out, &mut run, text.len());
    out
}
