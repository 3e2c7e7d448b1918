//! Fingerprint normalization by the hand matcher (docs/DECISIONS.md D63)
//! against the regex it replaced (tests/normalize_oracle, the code as it
//! was): `normalize_text`, `normalize_url` and `normalize_selector` must
//! give byte-identical output on a generated corpus (ids, UUIDs, URLs,
//! selectors, dates, times, relative times, grouped numbers, Unicode
//! digits, letters, marks and spaces, glued together in random orders)
//! and on every fixture in tests/fixtures (each string of each JSON file,
//! each line and the whole text of every other text file). A difference
//! would change saved fingerprints' hashes: it fails with the input.
//!
//! The corpus comes from a fixed seed, so every run checks the same
//! inputs; `NORMALIZE_DIFF_CASES` sets how many (default 40,000) and
//! `NORMALIZE_DIFF_SEED` another seed, to explore.

#[allow(dead_code)]
mod normalize_oracle;

use std::path::{Path, PathBuf};

use response_diff::fingerprint::{normalize_selector, normalize_text, normalize_url};

/// splitmix64: a small, fixed PRNG, so the corpus is the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Decimal digits (`\d`) of several scripts, 1 to 4 bytes in UTF-8.
const DIGIT_ZEROS: &[char] = &[
    '0',
    '\u{660}',
    '\u{6F0}',
    '\u{7C0}',
    '\u{966}',
    '\u{9E6}',
    '\u{E50}',
    '\u{FF10}',
    '\u{1D7CE}',
    '\u{104A0}',
];
/// Numbers that are not decimal digits (`\p{N}`, not `\d`): superscripts,
/// fractions, Roman numerals (letters too), circled, ideographic zero.
const OTHER_NUMBERS: &[char] = &[
    '\u{B2}',
    '\u{B3}',
    '\u{B9}',
    '\u{BD}',
    '\u{2160}',
    '\u{216B}',
    '\u{2460}',
    '\u{3007}',
    '\u{2070}',
    '\u{10107}',
];
/// Letters and word characters that are not letters: accented, other
/// scripts, a combining mark (`\w`, not `\p{L}`), ZWJ (`\w` by
/// Join_Control), a connector punctuation (`\w`), an Ogham space.
const UNICODE_CHARS: &[char] = &[
    'é',
    'ß',
    'Ж',
    'ж',
    'Ω',
    '中',
    '文',
    'ا',
    'ש',
    'ก',
    'ᄀ',
    'あ',
    'ǅ',
    'ʰ',
    '\u{301}',
    '\u{200D}',
    '\u{203F}',
    '\u{1680}',
    'ﬁ',
    'Ⓐ',
    '℃',
    '€',
    '\u{1F600}',
];
const SPACES: &[&str] = &[
    " ", " ", " ", " ", "  ", "\t", "\n", "\x0B", "\x0C", "\u{85}", "\u{A0}", "\u{202F}",
    "\u{2003}", "\u{3000}", "\r\n",
];
const PUNCT: &[&str] = &[
    "-", "/", ".", ",", ":", "'", "#", "_", "+", "?", "=", "&", "[", "]", "\"", "(", ")", "$", "%",
    ";", "~", "|", "\u{202F}", "\u{A0}", "T", "\\", "@", "*", "!", "<", ">",
];
const WORDS: &[&str] = &[
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
    "second",
    "seconds",
    "sec",
    "secs",
    "minute",
    "minutes",
    "min",
    "mins",
    "hour",
    "hours",
    "hr",
    "hrs",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "s",
    "m",
    "h",
    "d",
    "w",
    "ago",
    "in",
    "a",
    "an",
    "just now",
    "just",
    "now",
    "moment",
    "moments",
    "moments ago",
    "moment ago",
    "AM",
    "PM",
    "am",
    "pm",
    "a.m.",
    "P.M.",
    "p.m",
    "A",
    "Z",
    "UTC",
    "GMT",
    "st",
    "nd",
    "rd",
    "th",
    "[number]",
    "[id]",
    "[date]",
    "[time]",
    "Order",
    "Issue",
    "todo",
    "row",
    "ord",
    "ch",
    "field",
    "name",
    "value",
    "Updated",
    "Visitors",
    "Total",
    "items",
    "Page",
    "v",
    "api",
    "orders",
    "deadbeef",
    "DEADBEEF",
    "cafe",
    "Fällig",
    "über",
    "Straße",
    "abc",
    "x",
    "_",
    "id",
    "ID",
    "e",
    "E",
    "T",
];

fn digits(rng: &mut Rng, lo: usize, hi: usize) -> String {
    let n = lo + rng.below(hi - lo + 1);
    let zero = if rng.chance(80) {
        '0'
    } else {
        *rng.pick(DIGIT_ZEROS)
    };
    (0..n)
        .map(|_| char::from_u32(zero as u32 + rng.below(10) as u32).unwrap())
        .collect()
}

fn hex(rng: &mut Rng, lo: usize, hi: usize, upper: bool) -> String {
    let n = lo + rng.below(hi - lo + 1);
    let set: &[u8] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    (0..n).map(|_| *rng.pick(set) as char).collect()
}

fn alnum(rng: &mut Rng, lo: usize, hi: usize) -> String {
    let n = lo + rng.below(hi - lo + 1);
    let set = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..n).map(|_| *rng.pick(set) as char).collect()
}

/// A piece that is (or nearly is) one of the pattern's shapes.
fn shaped(rng: &mut Rng) -> String {
    let d = digits;
    match rng.below(22) {
        0 => {
            let upper = rng.chance(30);
            let mut parts: Vec<String> = [8, 4, 4, 4, 12]
                .iter()
                .map(|&n| {
                    let n = if rng.chance(10) {
                        n + 1 - rng.below(3)
                    } else {
                        n
                    };
                    hex(rng, n, n, upper)
                })
                .collect();
            if rng.chance(10) {
                parts.pop();
            }
            parts.join("-")
        }
        1 => format!(
            "{}-{}-{}{}{}",
            d(rng, 3, 5),
            d(rng, 1, 3),
            d(rng, 1, 3),
            rng.pick(&["T", " ", "t", "_"]),
            time(rng)
        ),
        2 => format!(
            "{}{}{}{}{}",
            d(rng, 1, 4),
            rng.pick(&["-", "/", ".", "/"]),
            d(rng, 1, 3),
            rng.pick(&["-", "/", ".", "/"]),
            d(rng, 1, 5)
        ),
        3 => {
            let mut s = String::new();
            if rng.chance(40) {
                s += *rng.pick(&WORDS[24..41]);
                s += *rng.pick(&["", ".", ",", ".,"]);
                s += *rng.pick(SPACES);
            }
            if rng.chance(50) {
                s += *rng.pick(&WORDS[..24]);
                s += *rng.pick(&["", "."]);
                s += *rng.pick(SPACES);
                s += &d(rng, 1, 3);
                s += *rng.pick(&["", "", "st", "nd", "rd", "th", "x"]);
            } else {
                s += &d(rng, 1, 3);
                s += *rng.pick(&["", "", "st", "nd", "rd", "th"]);
                s += *rng.pick(SPACES);
                s += *rng.pick(&WORDS[..24]);
                s += *rng.pick(&["", "."]);
            }
            if rng.chance(50) {
                s += *rng.pick(&["", ","]);
                s += *rng.pick(SPACES);
                s += &d(rng, 2, 5);
            }
            s
        }
        4 => time(rng),
        5 => format!(
            "{}{}{}",
            d(rng, 1, 3),
            rng.pick(&["", " ", "  ", "\u{A0}"]),
            rng.pick(&["am", "PM", "a.m.", "P.M.", "pM", "a.m", "A.M.x", "amx", "p"])
        ),
        6 => format!(
            "{}{}{}{}ago",
            d(rng, 1, 4),
            rng.pick(&["", " ", "  "]),
            rng.pick(&WORDS[41..71]),
            rng.pick(&[" ", "  ", "\t", ""]),
        ),
        7 => format!(
            "in{}{}{}{}",
            rng.pick(&[" ", "  ", ""]),
            d(rng, 1, 4),
            rng.pick(&["", " "]),
            rng.pick(&WORDS[41..71])
        ),
        8 => format!(
            "{}{}{}{}ago",
            rng.pick(&["a", "an", "A"]),
            rng.pick(&[" ", "  "]),
            rng.pick(&[
                "second", "minute", "hour", "day", "week", "month", "year", "hours"
            ]),
            rng.pick(&[" ", "  ", ""]),
        ),
        9 => {
            let mut s = d(rng, 1, 4);
            for _ in 0..rng.below(5) {
                s += *rng.pick(&[",", ".", "'", "\u{202F}", "\u{A0}", " "]);
                s += &d(rng, 2, 4);
            }
            if rng.chance(30) {
                s += *rng.pick(&[".", ","]);
                s += &d(rng, 1, 4);
            }
            s
        }
        10 => {
            let mut s = String::from("#");
            for _ in 0..1 + rng.below(3) {
                s += &token(rng);
                if rng.chance(50) {
                    s += *rng.pick(&["-", "_"]);
                }
            }
            s
        }
        11 => url(rng),
        12 => selector(rng),
        13 => {
            let upper = rng.chance(30);
            hex(rng, 6, 17, upper)
        }
        14 => alnum(rng, 4, 23),
        15 => format!(
            "{}_{}",
            rng.pick(&["ch", "ord", "cus", "pi", "Ord", "x", "toolongprefix"]),
            alnum(rng, 6, 19)
        ),
        16 => d(rng, 1, 14),
        17 => format!("{}{}", rng.pick(OTHER_NUMBERS), d(rng, 0, 5)),
        18 => format!("{}{}{}", token(rng), rng.pick(&[".", ","]), d(rng, 1, 5)),
        19 => rng
            .pick(&[
                "just now",
                "moments ago",
                "moment ago",
                "just  now",
                "momentsago",
            ])
            .to_string(),
        20 => format!(
            "{}:{}{}",
            d(rng, 1, 3),
            d(rng, 1, 3),
            rng.pick(&[":", ":00", ""])
        ),
        _ => {
            let n = 1 + rng.below(6);
            (0..n).map(|_| *rng.pick(UNICODE_CHARS)).collect()
        }
    }
}

fn time(rng: &mut Rng) -> String {
    let d = digits;
    let mut s = format!("{}:{}", d(rng, 1, 3), d(rng, 1, 3));
    if rng.chance(50) {
        s += ":";
        s += &d(rng, 1, 3);
        if rng.chance(40) {
            s += *rng.pick(&[".", ","]);
            s += &d(rng, 1, 11);
        }
    }
    if rng.chance(30) {
        s += *rng.pick(&["", " ", "\u{A0}", "  "]);
        s += *rng.pick(&["AM", "pm", "a.m.", "P.M", "p.M.", "A.", "x"]);
    }
    if rng.chance(40) {
        s += *rng.pick(&["", " ", "  "]);
        s += *rng.pick(&[
            "Z", "UTC", "GMT", "+05:30", "-0800", "+5:30", "+05:3", "-08:00x", "z",
        ]);
    }
    s
}

fn token(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => digits(rng, 1, 12),
        1 => alnum(rng, 1, 12),
        2 => hex(rng, 4, 13, false),
        3 => rng.pick(WORDS).replace(' ', ""),
        _ => format!("{}{}", rng.pick(UNICODE_CHARS), digits(rng, 0, 5)),
    }
}

fn url(rng: &mut Rng) -> String {
    let mut s = String::new();
    match rng.below(4) {
        0 => s += "http://127.0.0.1:8080",
        1 => {
            s += "https://cdn";
            s += &digits(rng, 0, 4);
            s += ".example.com";
        }
        2 => s += "//static.example.org",
        _ => {}
    }
    for _ in 0..rng.below(5) {
        s += "/";
        s += &token(rng);
        if rng.chance(20) {
            s += *rng.pick(&["-", "_", ".", "~", "+"]);
            s += &token(rng);
        }
    }
    if rng.chance(50) {
        s += "?";
        for i in 0..1 + rng.below(3) {
            if i > 0 {
                s += "&";
            }
            s += *rng.pick(&["t", "page", "id", "q", "session"]);
            s += "=";
            s += &token(rng);
        }
    }
    if rng.chance(20) {
        s += "#";
        s += &token(rng);
    }
    if rng.chance(10) {
        s = format!("  {s} ");
    }
    s
}

fn selector(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => format!("#{}-{} li", rng.pick(&["todo", "row", "item"]), token(rng)),
        1 => format!(
            "input[name=\"{}-{}\"]",
            rng.pick(&["field", "q", "x"]),
            token(rng)
        ),
        2 => format!(
            "div > input[name=\"a\\\"{}\"] [name=\"{}\"",
            token(rng),
            token(rng)
        ),
        _ => format!("button[aria-label=\"Pay {}\"]", shaped(rng)),
    }
}

/// One corpus input: 1 to 12 pieces, glued with or without separators.
fn case(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..1 + rng.below(12) {
        match rng.below(10) {
            0..=4 => s += &shaped(rng),
            5 => s += &token(rng),
            6 => s += *rng.pick(WORDS),
            7 => s += *rng.pick(PUNCT),
            8 => s.push(*rng.pick(UNICODE_CHARS)),
            _ => s += &digits(rng, 1, 9),
        }
        match rng.below(10) {
            0..=4 => s += " ",
            5 => s += *rng.pick(SPACES),
            6 => s += *rng.pick(PUNCT),
            _ => {}
        }
    }
    if rng.chance(5) {
        s = format!("{}{s}{}", rng.pick(SPACES), rng.pick(SPACES));
    }
    s
}

/// Checks the three normalizers on `input`; the failure names the input.
fn check(input: &str, origin: &str) {
    let pairs = [
        (
            "normalize_text",
            normalize_text(input).into_owned(),
            normalize_oracle::normalize_text(input).into_owned(),
        ),
        (
            "normalize_url",
            normalize_url(input).into_owned(),
            normalize_oracle::normalize_url(input).into_owned(),
        ),
        (
            "normalize_selector",
            normalize_selector(input).into_owned(),
            normalize_oracle::normalize_selector(input).into_owned(),
        ),
    ];
    for (name, new, old) in pairs {
        assert!(
            new == old,
            "{name} differs from the regex oracle on {origin}\n input: {input:?}\n   new: {new:?}\n   old: {old:?}"
        );
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} must be a number"))
        })
        .unwrap_or(default)
}

#[test]
fn generated_corpus_normalizes_as_the_regex_did() {
    let cases = env_number("NORMALIZE_DIFF_CASES", 40_000);
    let seed = env_number("NORMALIZE_DIFF_SEED", 20_260_123);
    let mut rng = Rng(seed);
    for i in 0..cases {
        let input = case(&mut rng);
        check(
            &input,
            &format!("generated case {i} (NORMALIZE_DIFF_SEED={seed})"),
        );
    }
}

#[test]
fn long_runs_normalize_as_the_regex_did() {
    // Long runs of one kind: digits, letters, group separators, spaces,
    // `#` tokens (the matcher's cost per start must stay linear).
    let runs = [
        "1".repeat(5000),
        "a".repeat(5000) + "1",
        "1,234".repeat(2000),
        "1,234,567.".repeat(500) + "89x",
        "#".to_owned() + &"ab-".repeat(2000) + "7",
        "Jan".to_owned() + &" ".repeat(3000) + "5",
        "5".to_owned() + &" ".repeat(3000) + "minutes ago",
        "in ".to_owned() + &"9".repeat(4000) + " days",
        "\u{661}".repeat(3000),
        "x1.".repeat(3000),
    ];
    for (i, input) in runs.iter().enumerate() {
        check(input, &format!("long run {i}"));
    }
}

fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("tests/fixtures") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            fixture_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn json_strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| json_strings(v, out)),
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                json_strings(v, out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_fixture_normalizes_as_the_regex_did() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let mut files = Vec::new();
    fixture_files(&root, &mut files);
    files.sort();
    let mut checked = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue; // images
        };
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let mut inputs = vec![text.clone()];
        inputs.extend(text.lines().map(str::to_owned));
        if path.extension().is_some_and(|e| e == "json") {
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
                json_strings(&value, &mut inputs);
            }
        }
        for input in &inputs {
            check(input, &format!("tests/fixtures/{name}"));
            checked += 1;
        }
    }
    // The fingerprint fixtures alone hold thousands of strings.
    assert!(checked > 5_000, "only {checked} fixture inputs were found");
}
