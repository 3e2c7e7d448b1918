//! `browser_emulate_media`: CSS media features and the media type of a tab
//! (`Emulation.setEmulatedMedia`), as Playwright's `page.emulateMedia`.
//!
//! CDP replaces the whole set on each call and cannot say what is set, so
//! the engine keeps each tab's overrides: a call changes the features it
//! names (`null` clears one), the others stay, and the whole set is sent.
//! They last for the tab's life, across navigations.

use anyhow::Result;
use serde_json::json;

use super::state::{Acted, Engine, MediaState};
use crate::codegen::{Arg, Code, Recv, Step};
use crate::tools::EmulateMediaParams;

impl MediaState {
    /// The state after a call's settings.
    fn with(&self, p: &EmulateMediaParams) -> MediaState {
        let mut next = self.clone();
        if let Some(m) = p.media_type() {
            next.media = m;
        }
        for (name, value) in p.features() {
            match value {
                Some(v) => {
                    next.features.insert(name, v);
                }
                None => {
                    next.features.remove(name);
                }
            }
        }
        next
    }

    fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .features
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        if let Some(m) = self.media {
            parts.push(format!("media type: {m}"));
        }
        if parts.is_empty() {
            "none (the page sees the browser's own media)".to_owned()
        } else {
            parts.join(", ")
        }
    }
}

/// Playwright's `page.emulateMedia({...})` argument for the code line.
fn code_of(p: &EmulateMediaParams) -> Code {
    // Each option's Java/C# enum type, as Playwright's libraries name it.
    let name = |cdp: &str| match cdp {
        "prefers-color-scheme" => ("colorScheme", "ColorScheme"),
        "prefers-reduced-motion" => ("reducedMotion", "ReducedMotion"),
        "forced-colors" => ("forcedColors", "ForcedColors"),
        _ => ("contrast", "Contrast"),
    };
    let value = |ty: &'static str, v: Option<&str>| match v {
        Some(v) => Arg::Enum(ty, v.to_owned()),
        None => Arg::Null,
    };
    let mut opts: Vec<(&'static str, Arg)> = p
        .features()
        .into_iter()
        .map(|(k, v)| {
            let (key, ty) = name(k);
            (key, value(ty, v))
        })
        .collect();
    if let Some(m) = p.media_type() {
        opts.push(("media", value("Media", m)));
    }
    Step::new(Recv::Page, "emulateMedia", vec![])
        .opts("Page.EmulateMediaOptions", opts)
        .into()
}

impl Engine {
    pub(super) fn emulate_media(&mut self, p: &EmulateMediaParams) -> Result<Acted> {
        let tab = self.tab()?;
        let key = tab.key().to_owned();
        let next = self.media.get(&key).cloned().unwrap_or_default().with(p);
        let features: Vec<_> = next
            .features
            .iter()
            .map(|(name, value)| json!({ "name": name, "value": value }))
            .collect();
        tab.call(
            "Emulation.setEmulatedMedia",
            json!({ "media": next.media.unwrap_or(""), "features": features }),
        )?;
        let result = format!("Emulated media: {}", next.describe());
        if next == MediaState::default() {
            self.media.remove(&key);
        } else {
            self.media.insert(key, next);
        }
        Ok(Acted {
            result,
            code: Some(code_of(p)),
            snapshot: true,
            ..Acted::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(v: serde_json::Value) -> EmulateMediaParams {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn calls_add_up_and_null_clears() {
        let s = MediaState::default().with(&params(json!({"colorScheme": "dark"})));
        let s = s.with(&params(json!({"media": "print", "contrast": "more"})));
        assert_eq!(
            s.describe(),
            "prefers-color-scheme: dark, prefers-contrast: more, media type: print"
        );
        let s = s.with(&params(json!({"colorScheme": null, "media": null})));
        assert_eq!(s.describe(), "prefers-contrast: more");
        let s = s.with(&params(json!({"contrast": null})));
        assert_eq!(s, MediaState::default());
        assert_eq!(
            code_of(&params(json!({"colorScheme": "dark", "media": null})))
                .render(crate::options::Codegen::Typescript),
            "await page.emulateMedia({ colorScheme: 'dark', media: null });"
        );
        assert_eq!(
            code_of(&params(json!({"colorScheme": "dark"}))).render(crate::options::Codegen::Java),
            "page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.DARK));"
        );
    }
}
