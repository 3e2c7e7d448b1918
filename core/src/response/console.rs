//! The console section: messages filtered by level and pattern, repeats
//! counted, the oldest left out past the maximum.

use core::fmt::Write as _;

use crate::expectation::{ConsoleFilter, ConsoleLevel};
use crate::prelude::*;

use super::model::ConsoleMessage;

/// The console section's body, and whether any message passed the filter.
pub(super) fn render_console(
    messages: &[ConsoleMessage],
    filter: &ConsoleFilter,
) -> Option<(String, bool)> {
    if messages.is_empty() {
        return None;
    }
    // (level, text, location) → (first position, count)
    let mut kept: Vec<(ConsoleLevel, &ConsoleMessage, usize)> = Vec::new();
    let mut index: FxHashMap<(&str, &str, Option<&str>), usize> = Default::default();
    let mut filtered_out = 0usize;
    for m in messages {
        let level = ConsoleLevel::from_browser(&m.level);
        if !filter.accepts(level, &m.text) {
            filtered_out += 1;
            continue;
        }
        if filter.remove_duplicates {
            let key = (level.as_str(), m.text.as_str(), m.location.as_deref());
            if let Some(&i) = index.get(&key) {
                kept[i].2 += 1;
                continue;
            }
            index.insert(key, kept.len());
        }
        kept.push((level, m, 1));
    }
    if kept.is_empty() {
        return Some((
            format!("No messages match the console filter ({filtered_out} filtered out)."),
            false,
        ));
    }
    let omitted = kept.len().saturating_sub(filter.max_messages);
    let mut body = String::new();
    if omitted > 0 {
        let _ = writeln!(
            body,
            "- … {omitted} older message{} omitted",
            if omitted == 1 { "" } else { "s" }
        );
    }
    for (level, m, count) in &kept[omitted..] {
        let _ = write!(
            body,
            "- [{}] {}",
            level.as_str(),
            m.text.replace('\n', "\n  ")
        );
        if *count > 1 {
            let _ = write!(body, " (×{count})");
        }
        if let Some(loc) = &m.location {
            let _ = write!(body, " @ {loc}");
        }
        body.push('\n');
    }
    if filtered_out > 0 {
        let _ = writeln!(body, "- ({filtered_out} filtered out by consoleOptions)");
    }
    Some((body.trim_end().to_owned(), true))
}
