//! `BaselineStore`: named baselines and recent fingerprints, bounded in
//! memory and optionally persisted.

use napi::bindgen_prelude::*;
use napi_derive::napi;
use response_diff::fingerprint as core;

use super::Fingerprint;
use super::compare::{FingerprintComparison, threshold};
use crate::error::OrThrow;
use crate::json::{Json, options_from};

/// Named baselines and recently captured fingerprints, bounded in memory
/// (16 MiB, 32 recent), optionally persisted in a private directory.
#[napi]
pub struct BaselineStore {
    inner: core::BaselineStore,
}

#[napi]
impl BaselineStore {
    /// An in-memory store, or one persisted in `options.directory`
    /// (created 0700). Throws `IO_ERROR` when the directory cannot be used.
    #[napi(constructor)]
    pub fn new(
        env: Env,
        #[napi(ts_arg_type = "{ directory?: string; memoryLimit?: number; recentLimit?: number }")]
        options: Option<Json>,
    ) -> Result<Self> {
        let config = options_from(&env, options, core::BaselineStoreConfig::from_json)?;
        Ok(BaselineStore {
            inner: core::BaselineStore::with_config(config).or_throw(&env)?,
        })
    }

    /// Saves `fingerprint` as the baseline `name` (1 to 64 of
    /// `A-Za-z0-9._-`; anything else throws `INVALID_NAME`).
    #[napi]
    pub fn save(&self, env: Env, name: String, fingerprint: &Fingerprint) -> Result<()> {
        self.inner.save(&name, &fingerprint.inner).or_throw(&env)
    }

    /// Remembers `fingerprint` as recently captured, so `get` and `compare`
    /// find it by its hash (or a unique prefix of 4+ hex digits).
    #[napi]
    pub fn record(&self, fingerprint: &Fingerprint) {
        self.inner.record(&fingerprint.inner)
    }

    /// The baseline `against` (a name, or a hash or hash prefix of a
    /// fingerprint in memory). Throws `BASELINE_NOT_FOUND` listing the names.
    #[napi]
    pub fn get(&self, env: Env, against: String) -> Result<Fingerprint> {
        let fp = self.inner.get(&against).or_throw(&env)?;
        Ok(Fingerprint { inner: fp })
    }

    /// Compares `current` with the baseline `against`.
    #[napi]
    pub fn compare(
        &self,
        env: Env,
        against: String,
        current: &Fingerprint,
        #[napi(ts_arg_type = "Severity")] severity_threshold: Option<String>,
    ) -> Result<FingerprintComparison> {
        let t = threshold(&env, severity_threshold)?;
        let c = self
            .inner
            .compare(&against, &current.inner, t)
            .or_throw(&env)?;
        Ok(c.into())
    }

    /// Removes the baseline `name` (memory and disk). Returns whether it existed.
    #[napi]
    pub fn remove(&self, env: Env, name: String) -> Result<bool> {
        self.inner.remove(&name).or_throw(&env)
    }

    /// Names of the baselines, in memory or on disk, sorted.
    #[napi]
    pub fn names(&self) -> Vec<String> {
        self.inner.names()
    }

    /// The persistence directory, or null.
    #[napi(getter)]
    pub fn directory(&self) -> Option<String> {
        self.inner
            .directory()
            .map(|d| d.to_string_lossy().into_owned())
    }

    /// Bytes of fingerprint JSON held in memory.
    #[napi(getter)]
    pub fn memory_usage(&self) -> f64 {
        self.inner.memory_usage() as f64
    }

    /// Named baselines held in memory.
    #[napi(getter)]
    pub fn size(&self) -> u32 {
        u32::try_from(self.inner.len()).unwrap_or(u32::MAX)
    }
}
