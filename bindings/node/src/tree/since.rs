//! `since` reads: the `SinceStore` keeps recent trees per page key and
//! answers a read with what changed since an earlier one.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::tree as core;

use super::{CoreResult, millis, request, tree_of, tree_text};
use crate::error::OrThrow;
use crate::json::{Json, options_from};

/// The result of a `since` read.
#[napi(object)]
pub struct SinceRead {
    /// This read's timestamp (ms); pass it as `since` next time.
    pub ts: f64,
    /// The `since` the read asked for.
    pub since: Option<f64>,
    /// `diff` (what changed since `since`) or `full` (first read, or
    /// `since` unknown or expired: the whole tree, with a `notice`).
    #[napi(ts_type = "'diff' | 'full'")]
    pub mode: String,
    /// Why this is not a diff (absent on a first read and for diffs).
    pub notice: Option<String>,
    /// The read rendered in the chosen format.
    pub text: String,
}

/// In-memory `since` store: the last trees per page key (8 per key, 256
/// keys by default). A read returns a `ts`; a later read `since` it returns
/// only what changed. An unknown `ts` never throws: the full tree and a
/// notice.
#[napi]
pub struct SinceStore {
    inner: core::SinceStore,
}

#[napi]
impl SinceStore {
    /// A store keeping `perKey` trees for each of up to `keys` keys.
    #[napi(constructor)]
    pub fn new(
        env: Env,
        #[napi(ts_arg_type = "{ perKey?: number; keys?: number }")] options: Option<Json>,
    ) -> Result<Self> {
        let config = options_from(&env, options, core::SinceStoreConfig::from_json)?;
        Ok(SinceStore {
            inner: core::SinceStore::with_config(config),
        })
    }

    /// Records `snapshot` as the latest read of `key` and returns it as a
    /// diff against the read `options.since`, or in full with a notice.
    #[napi]
    pub fn read(
        &self,
        env: Env,
        key: String,
        #[napi(ts_arg_type = "string | SnapshotElement[]")] snapshot: Unknown<'_>,
        #[napi(ts_arg_type = "Omit<TreeDiffOptions, 'ts'>")] options: Option<Json>,
    ) -> Result<SinceRead> {
        let options = options.map(|j| j.0);
        let snapshot = tree_text(&env, snapshot)?;
        let run = || -> CoreResult<SinceRead> {
            let (req, extras) = request(options, &["since"])?;
            let tree = tree_of(snapshot, req.lenient)?;
            let r = self
                .inner
                .read(&key, tree, millis(&extras, "since")?, &req.options);
            let mode = match r.outcome {
                core::ReadOutcome::Diff(_) => "diff",
                _ => "full",
            };
            Ok(SinceRead {
                ts: r.ts as f64,
                since: r.since.map(|s| s as f64),
                mode: mode.to_owned(),
                notice: r.notice().map(str::to_owned),
                text: r.render(req.format),
            })
        };
        run().or_throw(&env)
    }

    /// Forgets every tree of `key`.
    #[napi]
    pub fn clear(&self, key: String) {
        self.inner.clear(&key)
    }
}
