//! Accessibility trees: the aria snapshot model, parser, printer and tree diff (DESIGN §3.4).
//!
//! ```
//! use response_diff::tree::{self, Selector};
//! let text = "- navigation \"Main\" [ref=e2]:\n  - link \"Home\" [ref=e3] [cursor=pointer]:\n    - /url: /";
//! let page = tree::parse_aria(text, false).unwrap();
//! assert_eq!(page.to_aria(), text); // round trip
//! let nav = page.find(&Selector::parse("navigation").unwrap()).unwrap();
//! assert_eq!(nav.children[0].name, "Home");
//! ```

mod aria;
mod json;
mod model;
mod select;

pub use aria::parse_aria;
pub use model::{Bounds, Element, Layout, MAX_DEPTH, Prop, State, Tree, Walk};
pub use select::Selector;
