//! The limits of a [`RefCarrier`](super::RefCarrier) and their JSON form.

use crate::prelude::*;
use crate::{Error, Result};

use serde::Deserialize;

/// Views per page every host keeps (`viewsPerKey`): the server, the Node
/// wrapper and Python's `PageDiff` (see [`CarrierConfig::pages`]). 64 (the
/// most) made the server's resident memory grow by 19 MiB over the
/// 1,000-call e2e run, against 3 MiB with 8; 16 covers the paging and
/// sorting sessions of the grid bench (12 steps).
pub const PAGE_VIEWS: usize = 16;

/// Limits of a [`RefCarrier`](super::RefCarrier).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CarrierConfig {
    /// Views kept per page key (default 8), matched whole; what left them
    /// is kept as retired elements within 1/[`RETIRED_SHARE`] of
    /// `max_stored_bytes`, so an element can come back from further back
    /// and still get its old ref.
    pub views_per_key: usize,
    /// Bytes charged for all keys together (default 8 MiB); least recently
    /// used keys go first, then the current key's retired elements, then
    /// its oldest views (its newest view is always kept).
    pub max_stored_bytes: usize,
    /// See [`CarryOptions::stable_ids`](super::CarryOptions::stable_ids) (default off).
    pub stable_ids: bool,
}

impl Default for CarrierConfig {
    fn default() -> Self {
        CarrierConfig {
            views_per_key: 8,
            max_stored_bytes: 8 * 1024 * 1024,
            stable_ids: false,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CarrierConfigJson {
    views_per_key: Option<usize>,
    max_stored_bytes: Option<usize>,
    stable_ids: Option<bool>,
}

/// The share of [`CarrierConfig::max_stored_bytes`] one page's retired
/// elements may take (`tree::retired`): 1/8, 1 MiB of the default 8 MiB.
/// Past it the elements that left longest ago go first, and get new refs
/// when they come back.
pub const RETIRED_SHARE: usize = 8;

/// Largest accepted `viewsPerKey`.
pub const MAX_VIEWS_PER_KEY: usize = 64;

impl CarrierConfig {
    /// The limits every host of a browser page uses: the defaults with
    /// [`PAGE_VIEWS`] views per key.
    ///
    /// ```
    /// use response_diff::tree::{CarrierConfig, PAGE_VIEWS};
    /// assert_eq!(CarrierConfig::pages().views_per_key, PAGE_VIEWS);
    /// ```
    pub fn pages() -> Self {
        CarrierConfig::default().views_per_key(PAGE_VIEWS)
    }

    /// Sets [`CarrierConfig::views_per_key`].
    pub fn views_per_key(mut self, views: usize) -> Self {
        self.views_per_key = views;
        self
    }

    /// Sets [`CarrierConfig::max_stored_bytes`].
    pub fn max_stored_bytes(mut self, bytes: usize) -> Self {
        self.max_stored_bytes = bytes;
        self
    }

    /// Sets [`CarrierConfig::stable_ids`].
    pub fn stable_ids(mut self, stable: bool) -> Self {
        self.stable_ids = stable;
        self
    }

    /// Parses `{"viewsPerKey": 8, "maxStoredBytes": 8388608, "stableIds":
    /// false}` (every field optional), the form every binding accepts.
    ///
    /// ```
    /// use response_diff::tree::CarrierConfig;
    /// let c = CarrierConfig::from_json(r#"{"stableIds": true}"#).unwrap();
    /// assert!(c.stable_ids && c.views_per_key == 8);
    /// assert!(CarrierConfig::from_json(r#"{"viewsPerKey": 0}"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<CarrierConfig> {
        let j: CarrierConfigJson = crate::json::from_str(json, "carrierConfig")?;
        let d = CarrierConfig::default();
        let views_per_key = j.views_per_key.unwrap_or(d.views_per_key);
        if !(1..=MAX_VIEWS_PER_KEY).contains(&views_per_key) {
            return Err(Error::invalid_option(
                "carrierConfig.viewsPerKey",
                format!("{views_per_key} is out of range; use 1 to {MAX_VIEWS_PER_KEY}"),
            ));
        }
        let max_stored_bytes = j.max_stored_bytes.unwrap_or(d.max_stored_bytes);
        if max_stored_bytes == 0 {
            return Err(Error::invalid_option(
                "carrierConfig.maxStoredBytes",
                "0 is out of range; use a positive number of bytes",
            ));
        }
        Ok(CarrierConfig {
            views_per_key,
            max_stored_bytes,
            stable_ids: j.stable_ids.unwrap_or(d.stable_ids),
        })
    }
}
