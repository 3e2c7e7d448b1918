//! Generated snapshot-like inputs shared by the benchmarks and the golden
//! corpus (core/tests/golden_corpus.rs). Ported byte for byte to Python
//! (bindings/python/tests/bench_inputs.py) and Node
//! (bindings/node/bench/inputs.mjs): change all three together, then
//! regenerate tests/fixtures/golden-corpus.json, whose input hashes check
//! the ports.
#![allow(dead_code)]

/// Sizes measured: 2 KB, 20 KB, 200 KB, 2.6 MB.
pub const SIZES: [(&str, usize); 4] = [
    ("2KB", 2_000),
    ("20KB", 20_000),
    ("200KB", 200_000),
    ("2.6MB", 2_600_000),
];

/// The large size the speed report adds (the detector bench and the CLI
/// against GNU diff), on the change kinds of [`LARGE_CHANGES`]; not in the
/// golden corpus, which covers [`SIZES`].
pub const LARGE: (&str, usize) = ("7MB", 7_000_000);

/// The change kinds measured at [`LARGE`]: one line, 1 % of the lines,
/// another page.
pub const LARGE_CHANGES: [&str; 3] = ["one_line", "scattered_1pct", "different_page"];

/// The kinds of change measured.
pub const CHANGES: [&str; 5] = [
    "one_line",
    "scattered_1pct",
    "block_inserted",
    "refs_renumbered",
    "different_page",
];

/// A Playwright-style aria snapshot of about `bytes` bytes; `flavor` varies
/// the names so two flavors make different pages.
pub fn page(bytes: usize, flavor: &str) -> String {
    let mut s = String::with_capacity(bytes + 256);
    s.push_str("- generic [ref=e1]:\n  - banner [ref=e2]:\n    - navigation \"Main\" [ref=e3]:\n");
    let mut r = 4usize;
    let mut section = 0usize;
    while s.len() < bytes {
        s.push_str(&format!(
            "  - region \"{flavor} section {section}\" [ref=e{r}]:\n"
        ));
        r += 1;
        s.push_str(&format!(
            "    - heading \"{flavor} heading {section}\" [level=2] [ref=e{r}]\n"
        ));
        r += 1;
        s.push_str(&format!(
            "    - list \"{flavor} items {section}\" [ref=e{r}]:\n"
        ));
        r += 1;
        for i in 0..8 {
            if s.len() >= bytes {
                break;
            }
            s.push_str(&format!("      - listitem [ref=e{r}]:\n"));
            r += 1;
            s.push_str(&format!(
                "        - link \"{flavor} product {section}-{i}\" [ref=e{r}] [cursor=pointer]:\n          - /url: /p/{section}/{i}\n"
            ));
            r += 1;
            s.push_str(&format!(
                "        - paragraph [ref=e{r}]: ${}.{:02}\n",
                10 + (section * 7 + i) % 90,
                (i * 13) % 100
            ));
            r += 1;
        }
        section += 1;
    }
    s
}

/// `(old, new)` for a change kind at a size.
pub fn pair(bytes: usize, change: &str) -> (String, String) {
    let old = page(bytes, "Shop");
    let new = match change {
        "one_line" => replace_line(&old, |i, n| i == n / 2),
        "scattered_1pct" => replace_line(&old, |i, _| i % 100 == 50),
        "block_inserted" => {
            let lines: Vec<&str> = old.lines().collect();
            let mid = lines.len() / 2;
            let mut out = lines[..mid].join("\n");
            out.push('\n');
            out.push_str("  - dialog \"Added to cart\" [active] [ref=e99990]:\n");
            for k in 0..18 {
                out.push_str(&format!(
                    "    - paragraph [ref=e{}]: modal line {k}\n",
                    99991 + k
                ));
            }
            out.push_str(&lines[mid..].join("\n"));
            out.push('\n');
            out
        }
        "refs_renumbered" => renumber(&old),
        "different_page" => page(bytes, "Checkout"),
        other => panic!("unknown change {other}"),
    };
    (old, new)
}

fn replace_line(text: &str, pick: impl Fn(usize, usize) -> bool) -> String {
    let n = text.lines().count();
    let mut out = String::with_capacity(text.len() + 64);
    for (i, l) in text.lines().enumerate() {
        if pick(i, n) {
            out.push_str(l);
            out.push_str(" (changed)");
        } else {
            out.push_str(l);
        }
        out.push('\n');
    }
    out
}

fn renumber(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 20);
    let mut rest = text;
    while let Some(i) = rest.find("[ref=e") {
        out.push_str(&rest[..i + 6]);
        rest = &rest[i + 6..];
        let end = rest.find(']').unwrap_or(0);
        let n: usize = rest[..end].parse().unwrap_or(0);
        out.push_str(&(n + 1000).to_string());
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The floor any line diff of `old` and `new` pays, which the speed report
/// divides by: compare the texts from the front and from the back
/// (`memcmp`, each stopping at its first difference) and split both into
/// lines (`memchr`, visiting every line).
pub fn floor(old: &str, new: &str) -> (bool, bool, usize) {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let m = o.len().min(n.len());
    let front = o[..m] == n[..m];
    let back = o[o.len() - m..] == n[n.len() - m..];
    let lines = memchr::memchr_iter(b'\n', o).count() + memchr::memchr_iter(b'\n', n).count();
    (front, back, lines)
}
