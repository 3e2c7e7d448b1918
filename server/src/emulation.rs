//! What every tab of a browser context is made to look like: a device
//! (`--device "iPhone 15"`, `--mobile`), the context options of
//! @playwright/mcp's config file (locale, time zone, geolocation, colour
//! scheme, touch, scale), and the permissions granted to the context
//! (`--grant-permissions`).
//!
//! The device table is Playwright's (`server/data/devices.json`, written by
//! `scripts/devices.mjs` from the playwright-core of the pinned
//! @playwright/mcp; an e2e test compares the two). Everything is applied
//! over CDP as each tab is adopted (`Emulation.*`), and the permissions
//! when a context is opened (`Browser.grantPermissions`).

use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::browser::Page;

/// One of Playwright's device descriptors.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    /// The user agent string.
    pub user_agent: String,
    /// The viewport in CSS pixels.
    pub viewport: Size,
    /// The screen, when it differs from the viewport.
    #[serde(default)]
    pub screen: Option<Size>,
    /// Device pixels per CSS pixel.
    pub device_scale_factor: f64,
    /// A mobile device (the meta viewport is honoured, overlay scrollbars).
    pub is_mobile: bool,
    /// A touch screen.
    pub has_touch: bool,
    /// The browser Playwright uses for it by default (all run on Chromium
    /// here).
    pub default_browser_type: String,
}

/// A width and a height.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
pub struct Size {
    /// Width in CSS pixels.
    pub width: u32,
    /// Height in CSS pixels.
    pub height: u32,
}

#[derive(Deserialize)]
struct Table {
    devices: BTreeMap<String, Device>,
}

/// The device table.
pub fn devices() -> &'static BTreeMap<String, Device> {
    static TABLE: OnceLock<BTreeMap<String, Device>> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_json::from_str::<Table>(include_str!("../data/devices.json"))
            .map(|t| t.devices)
            .unwrap_or_default()
    })
}

/// The device `--mobile` emulates on Chromium (@playwright/mcp's choice).
pub const MOBILE_DEVICE: &str = "Pixel 10";

/// A device by its Playwright name; an unknown name is an error listing
/// the names that contain its words.
pub fn device(name: &str) -> Result<&'static Device> {
    if let Some(d) = devices().get(name) {
        return Ok(d);
    }
    if let Some((_, d)) = devices().iter().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
        return Ok(d);
    }
    let words: Vec<String> = name
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    // The names sharing the most words with it, shortest first.
    let mut close: Vec<(usize, &str)> = devices()
        .keys()
        .map(|k| {
            let lower = k.to_ascii_lowercase();
            let shared = words.iter().filter(|w| lower.contains(w.as_str())).count();
            (shared, k.as_str())
        })
        .filter(|(shared, _)| *shared > 0)
        .collect();
    close.sort_by_key(|(shared, k)| (std::cmp::Reverse(*shared), k.len(), *k));
    let close: Vec<&str> = close.into_iter().map(|(_, k)| k).take(8).collect();
    if close.is_empty() {
        bail!(
            "--device `{name}`: no such device; use a Playwright device name such as \"iPhone 15\", \"Pixel 7\" or \"Desktop Chrome\" (docs/CONFIG.md lists them)"
        )
    }
    bail!(
        "--device `{name}`: no such device; did you mean {}?",
        close
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// How every tab of a context is emulated. Empty: the browser as launched.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Emulation {
    /// The viewport, set per tab (a device's, or an attached browser's).
    pub viewport: Option<(u32, u32)>,
    /// The screen size, when it differs from the viewport.
    pub screen: Option<(u32, u32)>,
    /// Device pixels per CSS pixel (0: the browser's).
    pub scale: f64,
    /// Mobile emulation (meta viewport, overlay scrollbars).
    pub mobile: bool,
    /// Touch events and `navigator.maxTouchPoints`.
    pub touch: bool,
    /// The user agent.
    pub user_agent: Option<String>,
    /// `navigator.language`, `Intl`'s default and `Accept-Language`.
    pub locale: Option<String>,
    /// The time zone, an IANA id (`Europe/Berlin`).
    pub timezone: Option<String>,
    /// `(latitude, longitude, accuracy)`.
    pub geolocation: Option<(f64, f64, f64)>,
    /// `prefers-color-scheme`: `light`, `dark` or `no-preference`.
    pub color_scheme: Option<String>,
}

impl Emulation {
    /// Whether the metrics (viewport, scale, mobile) are set per tab.
    fn metrics(&self) -> bool {
        self.viewport.is_some() || self.mobile || self.scale > 0.0
    }

    /// Applies the emulation to a tab just adopted.
    pub fn apply(&self, page: &Page) -> Result<()> {
        let quick = Duration::from_secs(5);
        if self.metrics() {
            let (w, h) = self.viewport.unwrap_or((0, 0));
            let mut params = json!({
                "width": w, "height": h,
                "deviceScaleFactor": self.scale,
                "mobile": self.mobile,
            });
            if let Some((sw, sh)) = self.screen {
                params["screenWidth"] = json!(sw);
                params["screenHeight"] = json!(sh);
            }
            page.call_within("Emulation.setDeviceMetricsOverride", params, quick)?;
        }
        if self.touch {
            page.call_within(
                "Emulation.setTouchEmulationEnabled",
                json!({ "enabled": true, "maxTouchPoints": 1 }),
                quick,
            )?;
        }
        if self.user_agent.is_some() || self.locale.is_some() {
            let ua = match &self.user_agent {
                Some(ua) => ua.clone(),
                None => page
                    .call_within("Browser.getVersion", json!({}), quick)?
                    .get("userAgent")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            };
            let mut params = json!({ "userAgent": ua });
            if let Some(l) = &self.locale {
                params["acceptLanguage"] = json!(l);
            }
            page.call_within("Emulation.setUserAgentOverride", params, quick)?;
        }
        if let Some(l) = &self.locale {
            page.call_within("Emulation.setLocaleOverride", json!({ "locale": l }), quick)
                .map_err(|e| anyhow!("locale `{l}`: {e:#}"))?;
        }
        if let Some(t) = &self.timezone {
            page.call_within(
                "Emulation.setTimezoneOverride",
                json!({ "timezoneId": t }),
                quick,
            )
            .map_err(|e| anyhow!("time zone `{t}`: {e:#}"))?;
        }
        if let Some((latitude, longitude, accuracy)) = self.geolocation {
            page.call_within(
                "Emulation.setGeolocationOverride",
                json!({ "latitude": latitude, "longitude": longitude, "accuracy": accuracy }),
                quick,
            )?;
        }
        if let Some(c) = &self.color_scheme {
            page.call_within(
                "Emulation.setEmulatedMedia",
                json!({ "features": [{ "name": "prefers-color-scheme", "value": c }] }),
                quick,
            )?;
        }
        Ok(())
    }
}

/// Playwright's permission names and the CDP permission types they grant.
const PERMISSIONS: &[(&str, &[&str])] = &[
    ("geolocation", &["geolocation"]),
    ("midi", &["midi"]),
    ("midi-sysex", &["midiSysex"]),
    ("notifications", &["notifications"]),
    ("camera", &["videoCapture"]),
    ("microphone", &["audioCapture"]),
    ("background-sync", &["backgroundSync"]),
    ("ambient-light-sensor", &["sensors"]),
    ("accelerometer", &["sensors"]),
    ("gyroscope", &["sensors"]),
    ("magnetometer", &["sensors"]),
    ("clipboard-read", &["clipboardReadWrite"]),
    ("clipboard-write", &["clipboardSanitizedWrite"]),
    ("payment-handler", &["paymentHandler"]),
    ("storage-access", &["storageAccess"]),
    ("local-fonts", &["localFonts"]),
    (
        "local-network-access",
        &["localNetworkAccess", "localNetwork", "loopbackNetwork"],
    ),
    ("screen-wake-lock", &["wakeLockScreen"]),
];

/// The CDP permission types of `--grant-permissions` names; an unknown
/// name is an error listing the known ones.
pub fn permission_types(names: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        let Some((_, types)) = PERMISSIONS.iter().find(|(n, _)| *n == name) else {
            bail!(
                "--grant-permissions: unknown permission `{name}`; use {}",
                PERMISSIONS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        for t in types.iter() {
            if !out.iter().any(|o| o == t) {
                out.push((*t).to_owned());
            }
        }
    }
    Ok(out)
}

/// `lat,lon[,accuracy]` (`--geolocation`; the config file's
/// `browser.contextOptions.geolocation`).
pub fn parse_geolocation(s: &str) -> Result<(f64, f64, f64), String> {
    let parts: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("`{s}` is not LATITUDE,LONGITUDE[,ACCURACY]"))?;
    match parts[..] {
        [lat, lon] | [lat, lon, _]
            if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) =>
        {
            Err(format!(
                "`{s}`: latitude is -90 to 90 and longitude -180 to 180"
            ))
        }
        [lat, lon] => Ok((lat, lon, 0.0)),
        [lat, lon, acc] if acc >= 0.0 => Ok((lat, lon, acc)),
        _ => Err(format!("`{s}` is not LATITUDE,LONGITUDE[,ACCURACY]")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_playwrights_devices() {
        let d = device("iPhone 15").unwrap();
        assert_eq!(
            d.viewport,
            Size {
                width: 393,
                height: 659
            }
        );
        assert!(d.is_mobile && d.has_touch);
        assert_eq!(d.device_scale_factor, 3.0);
        assert!(
            device(MOBILE_DEVICE)
                .unwrap()
                .user_agent
                .contains("Android")
        );
        assert!(devices().len() > 100);
        assert_eq!(device("iphone 15").unwrap(), d);
        let e = device("Pixel 99").unwrap_err().to_string();
        assert!(e.contains("did you mean \"Pixel 2\", \"Pixel 3\""), "{e}");
    }

    #[test]
    fn permissions_map_to_cdp_types() {
        let names = [
            "geolocation",
            "clipboard-read",
            "accelerometer",
            "gyroscope",
        ]
        .map(String::from);
        assert_eq!(
            permission_types(&names).unwrap(),
            ["geolocation", "clipboardReadWrite", "sensors"]
        );
        let e = permission_types(&["teleport".into()])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--grant-permissions: unknown permission `teleport`; use geolocation")
        );
    }

    #[test]
    fn geolocation_is_checked() {
        assert_eq!(parse_geolocation("52.5, 13.4").unwrap(), (52.5, 13.4, 0.0));
        assert_eq!(parse_geolocation("1,2,30").unwrap(), (1.0, 2.0, 30.0));
        assert!(parse_geolocation("91,0").is_err());
        assert!(parse_geolocation("x").is_err());
    }
}
