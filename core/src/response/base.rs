//! A state against a base the agent holds (docs/DECISIONS.md D61).
//!
//! Some hosts replace the page state in their prompt every step (browser-use
//! rewrites one `<browser_state>` block per step). A provider's prompt cache
//! cannot hold a text that changes every step, so such a host sends a
//! **base** state once, in full and marked cacheable, and after it the
//! current state as a diff against that base. Each request carries both, so
//! nothing depends on what earlier requests said: the agent reads the base,
//! applies the diff and has the current state, byte for byte.
//!
//! [`diff_against_base`] says what to send: the diff (or "no changes") in
//! the core's words, or that the host should start a new base, which it
//! should when the diff is no longer much smaller than the state: a diff
//! that grows with every change since the base costs more, step after step,
//! than sending the state once more as a new cached base.
//!
//! ```
//! use response_diff::diff::DiffSettings;
//! use response_diff::response::{diff_against_base, REBASE_SHARE};
//!
//! let base: String = (1..=100).map(|i| format!("[{i}]<li>Item {i}</li>\n")).collect();
//! let now = base.replace("Item 7<", "Item 7 (done)<");
//! let settings = DiffSettings { ignore_whitespace: false, ..DiffSettings::default() };
//! let d = diff_against_base(Some(&base), &now, &settings, "<browser_state_base>", REBASE_SHARE);
//! assert!(!d.rebase);
//! assert!(d.text.starts_with("Changes since <browser_state_base>: 100 lines, 2 changed: +1 \u{2212}1\n```diff\n"));
//! let same = diff_against_base(Some(&now), &now, &settings, "<browser_state_base>", REBASE_SHARE);
//! assert_eq!(same.text, "No changes since <browser_state_base> (100 lines).");
//! ```

use crate::diff::{DiffMode, DiffSettings, compare_texts};
use crate::prelude::*;

use super::snapshot::fence;

/// The share of the state's bytes past which a diff against the base is
/// no longer worth sending and the host starts a new base: a half.
///
/// The diff against a base grows with every change since it; a new base
/// is paid in full once (then cached), the diff on every step until the
/// next base. A diff at half the state still saves half of it on every
/// step; past that, a new base costs less than two more steps of the diff.
/// On the browser-use run of `make bench` (docs/bench/README.md,
/// "browser-use"), a quarter rebased on the last step and sent 10 % more
/// after the cached prefix over the run than a half.
pub const REBASE_SHARE: f64 = 0.5;

/// What to send for the current state, see [`diff_against_base`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BaseDiff {
    /// Start a new base: send `current` in full as the base (the state then
    /// reads [`BaseDiff::text`], "no changes since" it).
    pub rebase: bool,
    /// What the state reads in place of the full text: `No changes since
    /// <base> (N lines).`, or `Changes since <base>: <counts>` and the diff
    /// in a ```` ```diff ```` block.
    pub text: String,
    /// The diff's mode against the base the text is about (the new one on
    /// a rebase).
    pub mode: DiffMode,
}

/// The current state `current` against the base the agent holds (`None`:
/// there is none, or the host knows it no longer applies, say the page's
/// URL changed). `base_name` is how the text names the base (the host's own
/// tag or heading). `rebase_share` (0..=1, [`REBASE_SHARE`] by default):
/// past this share of `current`'s bytes, the diff gives way to a new base.
///
/// With `ignore_whitespace` on, a diff leaves out changes of whitespace
/// inside lines; a host that needs the state byte for byte turns it off.
pub fn diff_against_base(
    base: Option<&str>,
    current: &str,
    settings: &DiffSettings,
    base_name: &str,
    rebase_share: f64,
) -> BaseDiff {
    let fresh = |current: &str| {
        let lines = current.lines().count();
        BaseDiff {
            rebase: true,
            text: unchanged(base_name, lines),
            mode: DiffMode::Unchanged,
        }
    };
    let Some(base) = base else {
        return fresh(current);
    };
    let r = compare_texts(Some(base), current, settings);
    match r.mode {
        DiffMode::Unchanged => BaseDiff {
            rebase: false,
            text: unchanged(base_name, r.metadata.total_lines),
            mode: DiffMode::Unchanged,
        },
        DiffMode::Diff => {
            let (header, diff) = r
                .formatted_diff
                .split_once('\n')
                .unwrap_or((r.formatted_diff.as_str(), ""));
            let text = format!(
                "Changes since {base_name}: {header}\n{}",
                fence("diff", diff)
            );
            if text.len() as f64 > current.len() as f64 * rebase_share.clamp(0.0, 1.0) {
                fresh(current)
            } else {
                BaseDiff {
                    rebase: false,
                    text,
                    mode: DiffMode::Diff,
                }
            }
        }
        _ => fresh(current),
    }
}

fn unchanged(base_name: &str, lines: usize) -> String {
    format!(
        "No changes since {base_name} ({lines} line{}).",
        if lines == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> DiffSettings {
        DiffSettings {
            ignore_whitespace: false,
            ..DiffSettings::default()
        }
    }

    fn page(n: usize) -> String {
        (1..=n)
            .map(|i| format!("[{i}]<button>Add item {i}</button>\n"))
            .collect()
    }

    #[test]
    fn no_base_is_a_rebase() {
        let d = diff_against_base(None, "a\nb\n", &settings(), "the base", REBASE_SHARE);
        assert!(d.rebase);
        assert_eq!(d.text, "No changes since the base (2 lines).");
    }

    #[test]
    fn a_small_change_is_a_diff_that_names_the_base() {
        let base = page(60);
        let now = base.replace("Add item 30<", "Added item 30<");
        let d = diff_against_base(Some(&base), &now, &settings(), "<b>", REBASE_SHARE);
        assert!(!d.rebase);
        assert_eq!(d.mode, DiffMode::Diff);
        assert!(
            d.text
                .starts_with("Changes since <b>: 60 lines, 2 changed: +1 \u{2212}1\n```diff\n"),
            "{}",
            d.text
        );
        assert!(
            d.text
                .contains("-[30]<button>Add item 30</button>\n+[30]<button>Added item 30</button>")
        );
        assert!(d.text.ends_with("\n```"));
    }

    #[test]
    fn a_diff_past_the_share_rebases() {
        let base = page(60);
        let now: String = base
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i % 3 == 0 {
                    format!("{l} *\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let d = diff_against_base(Some(&base), &now, &settings(), "<b>", REBASE_SHARE);
        assert!(d.rebase);
        assert_eq!(d.text, "No changes since <b> (60 lines).");
        // Without context lines, under a share of 1, it is sent.
        let bare = DiffSettings {
            context: 0,
            ..settings()
        };
        let d = diff_against_base(Some(&base), &now, &bare, "<b>", 1.0);
        assert!(!d.rebase && d.mode == DiffMode::Diff);
    }

    #[test]
    fn a_rewrite_rebases() {
        let d = diff_against_base(
            Some(&page(10)),
            "something else\n",
            &settings(),
            "<b>",
            REBASE_SHARE,
        );
        assert!(d.rebase);
    }
}
