//! The snapshot pipeline: selector → format → maxLength.

use crate::Result;
use crate::expectation::{SnapshotFormat, SnapshotOptions};
use crate::prelude::*;
use crate::tree::{Dialect, Selector, parse_aria, parse_devtools};

/// The [`SnapshotView::lang`] of chrome-devtools-mcp's snapshot text.
pub(crate) const DEVTOOLS: &str = "devtools";

use super::model::Snapshot;

/// The snapshot as it will be shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotView {
    /// The text to show, or `None` when there is nothing (see `notice`).
    pub text: Option<String>,
    /// The code-fence language: `yaml`, `text` or `html`; `devtools` for
    /// chrome-devtools-mcp's snapshot text, which is shown unfenced.
    pub lang: &'static str,
    /// A one-line notice: what the selector matched not, or what maxLength
    /// left out.
    pub notice: Option<String>,
}

/// Applies `snapshotOptions` to a snapshot: the selector picks the first
/// matching subtree (a ref or a role with an optional quoted name), the
/// format prints it as aria, visible text or HTML, and maxLength cuts it at
/// a line boundary with a marker.
///
/// A selector that matches nothing gives a one-line notice, never the full
/// tree; a selector that is not a ref or role (CSS) is an error, because
/// only a host with a page can resolve CSS.
///
/// ```
/// use response_diff::expectation::SnapshotOptions;
/// use response_diff::response::{view_snapshot, Snapshot};
/// let snap = Snapshot::aria("- main [ref=e1]:\n  - list \"Cart\" [ref=e2]:\n    - listitem [ref=e3]: Tea");
/// let opts = SnapshotOptions { selector: Some("list \"Cart\"".into()), ..Default::default() };
/// let v = view_snapshot(&snap, &opts).unwrap();
/// assert_eq!(v.text.as_deref(), Some("- list \"Cart\" [ref=e2]:\n  - listitem [ref=e3]: Tea"));
/// ```
pub fn view_snapshot(snap: &Snapshot, opts: &SnapshotOptions) -> Result<SnapshotView> {
    let format = opts.format.unwrap_or_default();
    let dialect = Dialect::detect(&snap.aria);
    let lang = match format {
        SnapshotFormat::Aria if dialect == Dialect::DevTools => DEVTOOLS,
        SnapshotFormat::Aria => "yaml",
        SnapshotFormat::Text => "text",
        SnapshotFormat::Html => "html",
    };
    let none = |notice: String| SnapshotView {
        text: None,
        lang,
        notice: Some(notice),
    };

    let text = if format == SnapshotFormat::Html {
        // The host scopes the HTML itself (it can resolve any selector).
        match &snap.html {
            Some(html) => html.clone(),
            None => {
                return Ok(none(
                    "HTML is not available from this host; use format \"aria\" or \"text\"."
                        .to_owned(),
                ));
            }
        }
    } else if opts.selector.is_none() && format == SnapshotFormat::Aria {
        // Fast path: no need to parse.
        snap.aria.clone()
    } else {
        let tree = match dialect {
            Dialect::DevTools => parse_devtools(&snap.aria)?,
            _ => parse_aria(&snap.aria, true)?,
        };
        let element = match &opts.selector {
            None => None,
            Some(sel) => {
                let selector = Selector::parse_option(sel, "expectation.snapshotOptions.selector")?;
                match tree.find(&selector) {
                    Some(e) => Some(e),
                    None => {
                        return Ok(none(format!(
                            "No element matches selector `{sel}`; take a snapshot without a selector to see the page."
                        )));
                    }
                }
            }
        };
        match (format, element) {
            (SnapshotFormat::Text, Some(e)) => e.text_lines().join("\n"),
            (SnapshotFormat::Text, None) => tree.visible_text(),
            (_, Some(e)) => tree.with_roots(vec![e.clone()]).to_text(),
            (_, None) => tree.to_aria(),
        }
    };

    let (text, notice) = match opts.max_length {
        Some(max) => truncate_lines(&text, max),
        None => (text, None),
    };
    Ok(SnapshotView {
        text: Some(text),
        lang,
        notice,
    })
}

/// Cuts `text` to at most `max_chars` characters at a line boundary, never
/// mid-line, and returns a marker saying what was left out
/// (`… 812 more lines (23,110 characters) not shown`).
///
/// ```
/// let (kept, marker) = response_diff::response::truncate_lines("a\nbb\nccc\n", 5);
/// assert_eq!(kept, "a\nbb\n");
/// assert_eq!(marker.as_deref(), Some("… 1 more line (4 characters) not shown"));
/// ```
pub fn truncate_lines(text: &str, max_chars: usize) -> (String, Option<String>) {
    let total_chars = text.chars().count();
    if total_chars <= max_chars {
        return (text.to_owned(), None);
    }
    let mut kept_bytes = 0;
    let mut kept_chars = 0;
    for line in text.split_inclusive('\n') {
        let n = line.chars().count();
        if kept_chars + n > max_chars {
            break;
        }
        kept_chars += n;
        kept_bytes += line.len();
    }
    let rest = &text[kept_bytes..];
    let lines = rest.lines().count();
    let marker = format!(
        "… {} more line{} ({} characters) not shown",
        group(lines),
        if lines == 1 { "" } else { "s" },
        group(total_chars - kept_chars)
    );
    (text[..kept_bytes].to_owned(), Some(marker))
}

/// `23110` → `23,110`.
fn group(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A Markdown code fence longer than any run of backticks in `body`.
pub fn fence(lang: &str, body: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let ticks = "`".repeat(longest.max(2) + 1);
    let body = body.strip_suffix('\n').unwrap_or(body);
    format!("{ticks}{lang}\n{body}\n{ticks}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    const PAGE: &str = "- banner [ref=e1]:\n  - navigation \"Main\" [ref=e2]:\n    - link \"Home\" [ref=e3]:\n      - /url: /\n- main [ref=e4]:\n  - heading \"Cart\" [level=1] [ref=e5]\n  - textbox \"Coupon\" [ref=e6]: SAVE10\n  - button \"Pay\" [ref=e7]";

    fn view(json: &str) -> Result<SnapshotView> {
        let opts: SnapshotOptions = serde_json::from_str(json).unwrap();
        view_snapshot(&Snapshot::aria(PAGE), &opts)
    }

    #[test]
    fn selector_by_ref_role_and_name() {
        assert_eq!(
            view(r#"{"selector": "e2"}"#).unwrap().text.unwrap(),
            "- navigation \"Main\" [ref=e2]:\n  - link \"Home\" [ref=e3]:\n    - /url: /"
        );
        assert_eq!(
            view(r#"{"selector": "button \"Pay\""}"#)
                .unwrap()
                .text
                .unwrap(),
            "- button \"Pay\" [ref=e7]"
        );
        assert_eq!(
            view(r#"{"selector": "main", "format": "text"}"#)
                .unwrap()
                .text
                .unwrap(),
            "Cart\nCoupon: SAVE10\nPay"
        );
    }

    #[test]
    fn unmatched_selector_is_a_notice_not_the_full_tree() {
        let v = view(r#"{"selector": "e99"}"#).unwrap();
        assert_eq!(v.text, None);
        assert!(
            v.notice
                .unwrap()
                .starts_with("No element matches selector `e99`")
        );
    }

    #[test]
    fn css_selector_is_an_error_naming_the_field() {
        match view(r#"{"selector": "div.cart > button"}"#) {
            Err(Error::InvalidOption { field, message }) => {
                assert_eq!(field, "expectation.snapshotOptions.selector");
                assert!(message.contains("CSS"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn html_needs_the_host() {
        let v = view(r#"{"format": "html"}"#).unwrap();
        assert!(v.notice.unwrap().contains("HTML is not available"));
        let snap = Snapshot {
            aria: PAGE.into(),
            html: Some("<main><button>Pay</button></main>".into()),
        };
        let opts = SnapshotOptions {
            format: Some(SnapshotFormat::Html),
            ..Default::default()
        };
        let v = view_snapshot(&snap, &opts).unwrap();
        assert_eq!(v.text.unwrap(), "<main><button>Pay</button></main>");
        assert_eq!(v.lang, "html");
    }

    #[test]
    fn max_length_cuts_at_a_line_with_a_marker() {
        let v = view(r#"{"maxLength": 60}"#).unwrap();
        let text = v.text.unwrap();
        assert!(text.len() <= 60 && text.ends_with('\n'));
        assert_eq!(
            text,
            "- banner [ref=e1]:\n  - navigation \"Main\" [ref=e2]:\n"
        );
        assert_eq!(
            v.notice.unwrap(),
            "… 6 more lines (162 characters) not shown"
        );
        // A first line longer than the cap keeps nothing rather than half a line.
        let (kept, marker) = truncate_lines("a long line\n", 3);
        assert_eq!(kept, "");
        assert!(marker.is_some());
        assert_eq!(group(23110), "23,110");
        assert_eq!(group(999), "999");
    }
}
