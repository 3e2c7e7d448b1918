//! What a carry takes and gives: the options, the carried snapshot with
//! its node id → ref mapping, and what a carried ref named when shown.

use super::super::model::Tree;
use crate::Result;
use crate::prelude::*;
use serde::Deserialize;

/// How to carry refs over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CarryOptions {
    /// The host's node ids name the same node from one snapshot to the next
    /// (Chromium's backend node ids, Playwright's aria-refs): an element
    /// whose node id is unchanged keeps its ref even when renamed. Leave it
    /// off (the default) when ids are renumbered on every read.
    pub stable_ids: bool,
}

impl CarryOptions {
    /// Options with [`CarryOptions::stable_ids`] set as given.
    pub fn stable_ids(stable_ids: bool) -> Self {
        CarryOptions { stable_ids }
    }

    /// Parses `{"stableIds": false}` (optional), the form every binding accepts.
    ///
    /// ```
    /// use response_diff::tree::CarryOptions;
    /// assert!(CarryOptions::from_json(r#"{"stableIds": true}"#).unwrap().stable_ids);
    /// assert!(CarryOptions::from_json(r#"{"stable": true}"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<CarryOptions> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        struct J {
            stable_ids: Option<bool>,
        }
        let j: J = crate::json::from_str(json, "carryOptions")?;
        Ok(CarryOptions::stable_ids(j.stable_ids.unwrap_or(false)))
    }
}

/// A snapshot with its refs carried over.
#[derive(Debug, Clone, PartialEq)]
pub struct RefCarry {
    /// The snapshot, every element with a node id now carrying its ref.
    pub tree: Tree,
    /// Node id → ref for every element that has a node id, in document order.
    pub refs: Vec<(String, String)>,
    /// Elements that kept a ref from an earlier view.
    pub carried: usize,
    /// Elements that got a new ref.
    pub fresh: usize,
}

impl RefCarry {
    /// The ref given to the element with this node id.
    pub fn ref_of(&self, node_id: &str) -> Option<&str> {
        self.refs
            .iter()
            .find(|(id, _)| id == node_id)
            .map(|(_, r)| r.as_str())
    }

    /// `{"snapshot": "<aria text>", "refs": {"<node id>": "<ref>", …},
    /// "carried": n, "fresh": n}`, the form every binding returns (`refs`
    /// in document order).
    pub fn to_json(&self) -> String {
        use super::super::aria::json_quote;
        let mut out = String::from("{\"snapshot\":");
        out.push_str(&json_quote(&self.tree.to_aria()));
        out.push_str(",\"refs\":{");
        for (i, (id, r)) in self.refs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&json_quote(id));
            out.push(':');
            out.push_str(&json_quote(r));
        }
        out.push_str(&format!(
            "}},\"carried\":{},\"fresh\":{}}}",
            self.carried, self.fresh
        ));
        out
    }
}

/// What a carried ref named when it was shown: the answer of
/// [`RefCarrier::lookup`](super::RefCarrier::lookup).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RefSource {
    /// The source's node id the element had in that view (the host's own
    /// ref: a backend node id, Playwright's aria-ref).
    pub node_id: String,
    /// The element's role, for messages.
    pub role: String,
    /// The element's name, for messages.
    pub name: String,
    /// Shown in the key's latest view; false when only an earlier view of
    /// the same document showed it.
    pub latest: bool,
}
