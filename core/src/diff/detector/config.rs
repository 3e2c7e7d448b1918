//! A detector's limits: stored bytes, input bytes and the optional
//! deadline, with their defaults and JSON form.

use core::time::Duration;

use serde::Deserialize;

use crate::prelude::*;
use crate::{Error, Result};

/// Default cap on stored bytes: 10 MiB.
pub const DEFAULT_MAX_STORED_BYTES: usize = 10 * 1024 * 1024;
/// Default largest text accepted by [`ResponseDiffDetector::detect`]: 32 MiB.
///
/// [`ResponseDiffDetector::detect`]: super::ResponseDiffDetector::detect
pub const DEFAULT_MAX_INPUT_BYTES: usize = 32 * 1024 * 1024;

/// Limits of a [`ResponseDiffDetector`].
///
/// [`ResponseDiffDetector`]: super::ResponseDiffDetector
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DetectorConfig {
    /// Total stored bytes (keys + texts + [`crate::diff::store::ENTRY_OVERHEAD`]
    /// per entry) never exceed this. Default 10 MiB.
    pub max_stored_bytes: usize,
    /// Larger inputs are refused with [`Error::InputTooLarge`]. Default 32 MiB.
    pub max_input_bytes: usize,
    /// Wall-clock limit of one line diff; `None` (the default) bounds the
    /// search by work only, so results are the same on every machine and
    /// at any load. Setting it makes results depend on timing.
    pub deadline: Option<Duration>,
}

impl Default for DetectorConfig {
    fn default() -> Self {
        DetectorConfig {
            max_stored_bytes: DEFAULT_MAX_STORED_BYTES,
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            deadline: None,
        }
    }
}

/// The JSON form of [`DetectorConfig`] shared by the bindings.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DetectorConfigJson {
    max_stored_bytes: Option<usize>,
    max_input_bytes: Option<usize>,
    deadline_ms: Option<u64>,
}

/// Largest accepted `deadlineMs` (one minute).
pub const MAX_DEADLINE_MS: u64 = 60_000;

impl DetectorConfig {
    /// Parses `{"maxStoredBytes": …, "maxInputBytes": …, "deadlineMs": …}`
    /// (every field optional), the form the bindings accept. `deadlineMs`
    /// is off unless given; it makes results timing-dependent.
    ///
    /// ```
    /// use response_diff::diff::DetectorConfig;
    /// let c = DetectorConfig::from_json(r#"{"maxStoredBytes": 1048576}"#).unwrap();
    /// assert_eq!(c.max_stored_bytes, 1 << 20);
    /// assert!(DetectorConfig::from_json(r#"{"deadlineMs": 0}"#).is_err());
    /// ```
    pub fn from_json(json: &str) -> Result<DetectorConfig> {
        let j: DetectorConfigJson = crate::json::from_str(json, "detectorConfig")?;
        let d = DetectorConfig::default();
        if let Some(ms) = j.deadline_ms
            && !(1..=MAX_DEADLINE_MS).contains(&ms)
        {
            return Err(Error::invalid_option(
                "detectorConfig.deadlineMs",
                format!(
                    "{ms} is out of range; use 1 to {MAX_DEADLINE_MS}, or leave it out for no deadline"
                ),
            ));
        }
        let max_input_bytes = j.max_input_bytes.unwrap_or(d.max_input_bytes);
        if max_input_bytes == 0 {
            return Err(Error::invalid_option(
                "detectorConfig.maxInputBytes",
                "0 is out of range; use a positive number of bytes",
            ));
        }
        Ok(DetectorConfig {
            max_stored_bytes: j.max_stored_bytes.unwrap_or(d.max_stored_bytes),
            max_input_bytes,
            deadline: j.deadline_ms.map(Duration::from_millis).or(d.deadline),
        })
    }

    /// Sets [`DetectorConfig::max_stored_bytes`].
    pub fn max_stored_bytes(mut self, bytes: usize) -> Self {
        self.max_stored_bytes = bytes;
        self
    }

    /// Sets [`DetectorConfig::max_input_bytes`].
    pub fn max_input_bytes(mut self, bytes: usize) -> Self {
        self.max_input_bytes = bytes;
        self
    }

    /// Sets [`DetectorConfig::deadline`] (timing-dependent results).
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = Some(deadline);
        self
    }
}
