//! Playwright's aria snapshot text: parser and printer.
//!
//! The printer follows Playwright's own renderer rule for rule (key quoting,
//! value quoting, attribute order), so that a snapshot Playwright printed is
//! printed back byte for byte. The parser is line based and iterative.
//!
//! `parse` reads the lines and `key` the key on each; `write` prints, with
//! Playwright's quoting rules from `quote`.

mod key;
mod parse;
mod quote;
mod write;

pub use parse::parse_aria;
pub(crate) use quote::{json_quote, yaml_needs_quotes};
pub(crate) use write::write_elements;

#[cfg(test)]
mod tests {
    use super::parse::parse_value;
    use super::quote::yaml_value;
    use super::*;

    #[test]
    fn quoting_follows_playwright() {
        for (s, q) in [
            ("a", false),
            ("", true),
            ("123", true),
            ("1e5", true),
            (".5", true),
            ("5.", true),
            ("0x1F", true),
            ("Infinity", true),
            ("1_000", false),
            ("b: c", true),
            ("b:c", false),
            ("- dash", true),
            ("#hash", true),
            ("a #b", true),
            ("a#b", false),
            ("true", true),
            ("Yes", true),
            ("[x]", true),
            ("x]", false),
            ("a{b", true),
            (" lead", true),
            ("trail\u{a0}", true),
            ("-.inf", true),
            ("ends:", true),
            ("Items: 1", true),
            ("e", false),
            ("1e", false),
        ] {
            assert_eq!(yaml_needs_quotes(s), q, "{s:?}");
        }
    }

    #[test]
    fn values_escape_like_playwright() {
        assert_eq!(yaml_value("\"quoted\""), r#""\"quoted\"""#);
        assert_eq!(yaml_value("a\u{1}b: c"), r#""a\x01b: c""#);
        assert_eq!(parse_value(r#""a\x01b: c""#).unwrap(), "a\u{1}b: c");
    }

    #[test]
    fn quoted_key_round_trips() {
        let text = r#"- 'link "Say \"hi\": \\ there" [ref=e4] [cursor=pointer]':
  - /url: /x?a=1"#;
        let t = parse_aria(text, false).unwrap();
        assert_eq!(t.roots[0].name, r#"Say "hi": \ there"#);
        assert_eq!(t.to_aria(), text);
    }

    #[test]
    fn attribute_order_is_kept() {
        for text in [
            "- button [ref=e1] [checked] [box=1,2,3,4] [x=y]",
            "- button [box=1,2,3,4] [ref=e1]",
            "- button [ref=e1] [cursor=pointer] [box=1.5,2,3,4]",
            "- button [checked] [ref=e1] [cursor=pointer] [box=1,2,3,4]",
            "- button [box=1,2,3]",
        ] {
            assert_eq!(parse_aria(text, false).unwrap().to_aria(), text);
        }
    }
}
