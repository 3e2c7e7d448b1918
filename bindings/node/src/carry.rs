//! Refs carried across re-renders: the carrier class, its page key and
//! view cap, and the storeless `carryRefs`.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::tree::{self as core, Tree};

use crate::error::OrThrow;
use crate::json::{Json, options_from, options_json, parse};

type CoreResult<T> = response_diff::Result<T>;

/// Views per page a host of a browser page keeps (`viewsPerKey`): the
/// server's number, for `new RefCarrier({ viewsPerKey: PAGE_VIEWS })`.
#[napi]
pub const PAGE_VIEWS: u32 = core::PAGE_VIEWS as u32;

/// The line to put before a snapshot the core could not read (passed on
/// as the source wrote it): its refs are the source's own. Drop the page's
/// carried map too (`carrier.clear(key)`).
#[napi]
pub const OWN_REFS_NOTE: &str = core::OWN_REFS_NOTE;

/// The carrier key of a tab's page: the tab, U+001F, and the URL without
/// its fragment, so a page seen before in the tab gets its refs back.
#[napi]
pub fn carrier_key(tab: String, url: String) -> String {
    core::carrier_key(&tab, &url)
}

/// Keeps the recent views of each page and gives the elements of a new
/// snapshot (whose refs are the host's node ids) the refs they had: the
/// same element (the tree diff's identity, never different content) keeps
/// its ref across re-renders, elements that come back get their old refs,
/// new ones get refs never handed out before. `stableIds`: the host's node
/// ids name the same node across snapshots (Chromium backend node ids,
/// Playwright aria-refs).
#[napi]
pub struct RefCarrier {
    inner: core::RefCarrier,
}

#[napi]
impl RefCarrier {
    /// A carrier keeping `viewsPerKey` views per page (8) within
    /// `maxStoredBytes` (8 MiB).
    #[napi(constructor)]
    pub fn new(
        env: Env,
        #[napi(
            ts_arg_type = "{ viewsPerKey?: number; maxStoredBytes?: number; stableIds?: boolean }"
        )]
        options: Option<Json>,
    ) -> Result<Self> {
        let config = options_from(&env, options, core::CarrierConfig::from_json)?;
        Ok(RefCarrier {
            inner: core::RefCarrier::with_config(config),
        })
    }

    /// Gives the elements of `snapshot` (page `key`, refs = the host's node
    /// ids) the refs they had in the recent views of `key`, new refs to new
    /// elements, and records it as the newest view.
    #[napi(ts_return_type = "RefCarry")]
    pub fn carry(&self, env: Env, key: String, snapshot: String) -> Result<Unknown<'static>> {
        let tree = core::parse_aria(&snapshot, false).or_throw(&env)?;
        let r = self.inner.carry(&key, &tree).or_throw(&env)?;
        parse(&env, r.to_json())
    }

    /// The page's own ref (the host's node id) that the ref `carriedRef`,
    /// as the agent was shown it, names in the latest view of `key`; null
    /// when that view did not show it. What a host acts on.
    #[napi]
    pub fn source_ref(&self, key: String, carried_ref: String) -> Option<String> {
        self.inner.source_ref(&key, &carried_ref)
    }

    /// Forgets `key`; returns whether it was kept.
    #[napi]
    pub fn clear(&self, key: String) -> bool {
        self.inner.clear(&key)
    }

    /// Bytes charged against `maxStoredBytes`.
    #[napi]
    pub fn memory_usage(&self) -> f64 {
        self.inner.memory_usage() as f64
    }
}

/// Carries refs without a store: `previous` are the earlier snapshots as
/// the agent saw them (oldest first), `snapshot` the new one with the
/// host's node ids.
#[napi(ts_return_type = "RefCarry")]
pub fn carry_refs(
    env: Env,
    previous: Vec<String>,
    snapshot: String,
    #[napi(ts_arg_type = "{ stableIds?: boolean }")] options: Option<Json>,
) -> Result<Unknown<'static>> {
    let run = || -> CoreResult<String> {
        let options = match options_json(options) {
            None => core::CarryOptions::default(),
            Some(j) => core::CarryOptions::from_json(&j)?,
        };
        let previous: Vec<Tree> = previous
            .iter()
            .map(|t| core::parse_aria(t, false))
            .collect::<CoreResult<_>>()?;
        let refs: Vec<&Tree> = previous.iter().collect();
        let tree = core::parse_aria(&snapshot, false)?;
        Ok(core::carry_refs(&refs, &tree, options)?.to_json())
    };
    let json = run().or_throw(&env)?;
    parse(&env, json)
}
