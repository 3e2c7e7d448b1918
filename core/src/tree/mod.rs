//! Accessibility trees (docs/DECISIONS.md D11–D16): the element model, the
//! snapshot dialects it is read from and printed in (Playwright's aria
//! snapshot text, chrome-devtools-mcp's snapshot text: [`Dialect`], D69), JSON, selectors, filters, the tree
//! diff with its renderers, and the `since` store.
//!
//! ```
//! use response_diff::tree::{self, Selector};
//! let text = "- navigation \"Main\" [ref=e2]:\n  - link \"Home\" [ref=e3] [cursor=pointer]:\n    - /url: /";
//! let page = tree::parse_aria(text, false).unwrap();
//! assert_eq!(page.to_aria(), text); // round trip
//! let nav = page.find(&Selector::parse("navigation").unwrap()).unwrap();
//! assert_eq!(nav.children[0].name, "Home");
//!
//! let after = tree::parse_aria(&text.replace("\"Home\"", "\"Start\""), false).unwrap();
//! assert_eq!(
//!     tree::diff(&page, &after).to_agent(),
//!     "~ [e3] link \"Start\" (was \"Home\")\n# 1 element unchanged"
//! );
//! ```

mod aria;
mod carry;
mod devtools;
mod dialect;
mod diff;
mod filter;
mod find;
mod json;
mod model;
mod patch;
mod render;
mod request;
mod retired;
mod select;
mod shown;
#[cfg(feature = "std")]
mod store;
mod text;

pub use aria::parse_aria;
pub use carry::{
    CarrierConfig, CarryOptions, MAX_VIEWS_PER_KEY, OWN_REFS_NOTE, PAGE_VIEWS, RETIRED_SHARE,
    RefCarrier, RefCarry, RefSource, carrier_key, carry_refs,
};
pub use devtools::parse_devtools;
pub use dialect::Dialect;
pub use diff::{
    Added, ElementContext, Field, IdentityMode, Parent, Removed, TreeChange, TreeDiff,
    TreeDiffOptions, diff, diff_with,
};
pub use filter::Filter;
pub use find::{FindOptions, FindQuery, FindResult, MAX_FIND_MATCHES, find};
pub use model::{Bounds, Element, Layout, MAX_DEPTH, MAX_INPUT_BYTES, Prop, State, Tree, Walk};
pub(crate) use patch::snapshot_patch_archived;
pub use patch::{
    MAX_PATCH_BYTES, PatchOptions, PatchRequest, SnapshotPatch, apply_patch, apply_patch_with,
    snapshot_patch, snapshot_patch_with,
};
pub use render::TreeDiffFormat;
pub use request::TreeDiffRequest;
pub use select::Selector;
pub(crate) use shown::{Shown, retire};
#[cfg(feature = "std")]
pub use store::{
    DiskStore, DiskStoreConfig, ReadOutcome, SinceRead, SinceStore, SinceStoreConfig, now_ts,
};
pub use text::parse_snapshot;
pub(crate) use text::{parse_in, parse_lines, write_elements};
