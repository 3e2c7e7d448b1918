//! The JSON options of a tree diff, shared by every binding:
//! `{"format", "identity", "roles", "prune", "scope", "compareBounds",
//! "lenient"}`.

use crate::prelude::*;
use serde::Deserialize;

use super::{Filter, IdentityMode, Selector, TreeDiffFormat, TreeDiffOptions};
use crate::Result;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TreeDiffJson {
    format: Option<TreeDiffFormat>,
    identity: Option<IdentityMode>,
    roles: Option<Vec<String>>,
    prune: Option<bool>,
    scope: Option<String>,
    compare_bounds: Option<bool>,
    lenient: Option<bool>,
}

/// Tree diff options as the bindings receive them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeDiffRequest {
    /// How the diff is printed (default agent).
    pub format: TreeDiffFormat,
    /// Identity and filters.
    pub options: TreeDiffOptions,
    /// Parse aria text leniently (odd lines become text nodes).
    pub lenient: bool,
}

impl TreeDiffRequest {
    /// Parses `{"format": "agent"|"yaml"|"json", "identity": "refs"|"content",
    /// "roles": [..], "prune": bool, "scope": "e12" | "list \"Cart\"",
    /// "compareBounds": bool, "lenient": bool}`; every field optional.
    ///
    /// ```
    /// use response_diff::tree::{TreeDiffFormat, IdentityMode, TreeDiffRequest};
    /// let r = TreeDiffRequest::from_json(r#"{"format": "yaml", "identity": "content", "prune": true}"#).unwrap();
    /// assert_eq!(r.format, TreeDiffFormat::Yaml);
    /// assert_eq!(r.options.identity, IdentityMode::Content);
    /// assert!(r.options.filter.prune);
    /// assert!(TreeDiffRequest::from_json(r#"{"scope": "div.cart"}"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<TreeDiffRequest> {
        let j: TreeDiffJson = crate::json::from_str(json, "treeDiffOptions")?;
        let scope = match j.scope {
            None => None,
            Some(s) => Some(Selector::parse_option(&s, "treeDiffOptions.scope")?),
        };
        Ok(TreeDiffRequest {
            format: j.format.unwrap_or_default(),
            options: TreeDiffOptions {
                identity: j.identity.unwrap_or_default(),
                compare_bounds: j.compare_bounds.unwrap_or(false),
                filter: Filter {
                    roles: j.roles,
                    prune: j.prune.unwrap_or(false),
                    scope,
                },
            },
            lenient: j.lenient.unwrap_or(false),
        })
    }
}
