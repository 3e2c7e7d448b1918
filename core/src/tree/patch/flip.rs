//! `~ [ref] -expanded +checked`: an element whose own line changed only
//! in bare states (`[expanded]`, `[checked]`, `[pressed]`, `[selected]`,
//! `[disabled]`; chrome-devtools-mcp's `expanded`, `checked`, `disabled`,
//! `selected`) is said by the states it lost (`-`) and gained (`+`),
//! where that is shorter than its whole line (docs/DECISIONS.md D71).
//! Opening an operation, ticking a box or pressing a toggle changes one
//! state of a line whose name is most of its tokens: `~ [1_16] -expanded`
//! says what `~ uid=1_16 button "POST /pets.json Create a pet" expandable
//! focusable focused` does.
//!
//! A gained state goes where the dialect's printer puts it
//! ([`insert_state`]), so the applier rebuilds the line byte for byte;
//! the writer uses a flip only where applying it gives the new line
//! exactly. The focus may be gained with other states (`~ [1_13]
//! +expanded +focused`, chrome-devtools-mcp's `focusable focused` said by
//! its `focused`), and then moves there, as it does to a printed line
//! that carries it; lost (`~ [1_16] -focused`: restored as last shown,
//! the focus since gone elsewhere), it is taken off the element. Gained
//! alone it is `~ focus [ref]`, which a flip never replaces (an element
//! whose line changed in nothing else is not a changed line). A field
//! emptied loses its value by name, `-value`: chrome-devtools-mcp's
//! `value="…"` state, or the text after the colon of Playwright's line
//! (`~ [e12] -value` for `~ searchbox "Type a keyword..." [active]
//! [ref=e12]`).

use crate::prelude::*;
use crate::tree::Dialect;
use crate::tree::devtools::SELECTED;
use crate::tree::model::{Element, State, playwright_rank};

/// The name a field's value is lost by: chrome-devtools-mcp's `value="…"`
/// state, or Playwright's text after the colon (`textbox "Q": tea`).
const VALUE: &str = "value";

/// One state gained (`+name`) or lost (`-name`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Flip {
    pub(super) gained: bool,
    pub(super) name: String,
}

/// Where `dialect`'s printer puts state `name` among `states` (which
/// it printed): the index to insert it at.
///
/// Playwright prints its attributes in [`State::playwright_rank`]'s
/// order, anything it does not rank after them. chrome-devtools-mcp prints attributes sorted by the
/// property they come from, `expandable expanded` (from `expanded`) and
/// the like side by side, the `…able` one first; its own markers (a uid
/// on several lines, first; `[selected in the DevTools Elements panel]`,
/// last) stay where they are.
pub(super) fn insert_state(dialect: Dialect, states: &[State], name: &str) -> usize {
    match dialect {
        Dialect::Playwright => {
            let r = playwright_rank(name);
            states
                .iter()
                .position(|s| s.playwright_rank() > r)
                .unwrap_or(states.len())
        }
        Dialect::DevTools => {
            // (the property, whether it is the property's own word)
            fn key(name: &str) -> (&str, bool) {
                match name {
                    "disableable" => ("disabled", false),
                    "expandable" => ("expanded", false),
                    "focusable" => ("focused", false),
                    "selectable" => ("selected", false),
                    n => (n, true),
                }
            }
            let k = key(name);
            states
                .iter()
                .position(|s| s.name == SELECTED || (!s.name.contains(' ') && key(&s.name) > k))
                .unwrap_or(states.len())
        }
    }
}

/// Gives an element's states the focus where this dialect's printer
/// puts it: `[active]`, or `focusable focused`.
pub(super) fn add_focus(dialect: Dialect, states: &mut Vec<State>) {
    let at = insert_state(dialect, states, dialect.focus_state());
    states.insert(at, State::flag(dialect.focus_state()));
    if dialect == Dialect::DevTools {
        states.insert(at, State::flag("focusable"));
    }
}

/// Whether a state can be flipped: a bare flag that is not the focus
/// and whose name is one word.
fn flippable(dialect: Dialect, s: &State) -> bool {
    s.value.is_none() && !dialect.is_focus_state(&s.name) && one_word(&s.name)
}

/// A state's name as a flip line can hold it: not empty, no space, no
/// bracket, no `=`.
fn one_word(name: &str) -> bool {
    !name.is_empty() && !name.contains(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | '='))
}

/// Applies `flips` to `states`, each gained state where the printer puts
/// it; the error says which flip does not fit the element's line.
pub(super) fn apply_flips(dialect: Dialect, e: &mut Element, flips: &[Flip]) -> Result<(), String> {
    let states = &mut e.states;
    for f in flips {
        // Playwright's field emptied: its value, the text after the colon.
        if f.name == VALUE
            && !f.gained
            && dialect == Dialect::Playwright
            && !states.iter().any(|s| s.name == VALUE)
        {
            if e.value.take().is_none() {
                return Err(format!("`-{VALUE}`: the element has no value"));
            }
            continue;
        }
        if f.name == dialect.focus_state() {
            // Lost: whatever focus state is left goes (a line that took
            // the focus elsewhere may have stripped it already).
            let had = states.iter().any(|s| dialect.is_focus_state(&s.name));
            states.retain(|s| !dialect.is_focus_state(&s.name));
            if f.gained {
                if had {
                    return Err(format!("`+{}`: the element has the focus already", f.name));
                }
                add_focus(dialect, states);
            }
            continue;
        }
        // A state is lost by its name, valued or not (`-value`); gained bare.
        let at = states
            .iter()
            .position(|s| s.name == f.name && (!f.gained || s.value.is_none()));
        match (f.gained, at) {
            (false, Some(i)) => {
                states.remove(i);
            }
            (true, None) => {
                let i = insert_state(dialect, states, &f.name);
                states.insert(i, State::flag(f.name.clone()));
            }
            (false, None) => return Err(format!("`-{}`: the element has no such state", f.name)),
            (true, Some(_)) => return Err(format!("`+{}`: the element has it already", f.name)),
        }
    }
    Ok(())
}

/// The flips that turn `before`'s own line into `now`'s, when that is
/// all that changed (same role, name, value, properties and the rest,
/// the focus included) and applying them gives `now`'s states exactly.
pub(super) fn flips(before: &Element, now: &Element, dialect: Dialect) -> Option<Vec<Flip>> {
    // Playwright's value (the text after the colon) may be lost too.
    let emptied = dialect == Dialect::Playwright && before.value.is_some() && now.value.is_none();
    let same_rest = before.layout == now.layout
        && if emptied {
            let mut b = before.shallow_clone();
            b.value = None;
            b.eq_but_states(now)
        } else {
            before.eq_but_states(now)
        };
    if !same_rest || (before.states == now.states && !emptied) {
        return None;
    }
    let mut out: Vec<Flip> = Vec::new();
    if emptied {
        out.push(Flip {
            gained: false,
            name: VALUE.to_owned(),
        });
    }
    let focus = dialect.focus_state();
    for s in &before.states {
        if !now.states.contains(s) {
            // The focus lost, said by its one state; a valued state lost
            // by its name (`-value` for a field emptied), not one whose
            // value changed.
            let said = if s.value.is_none() && dialect.is_focus_state(&s.name) {
                s.name == focus
            } else if s.value.is_some() {
                if now.states.iter().any(|t| t.name == s.name) {
                    return None;
                }
                true
            } else {
                true
            };
            if !said {
                continue;
            }
            let word = s.name == focus || (!dialect.is_focus_state(&s.name) && one_word(&s.name));
            if !word {
                return None;
            }
            out.push(Flip {
                gained: false,
                name: s.name.clone(),
            });
        }
    }
    for s in &now.states {
        if !before.states.contains(s) {
            // The focus gained, said by its one state (`+focused` stands
            // for chrome-devtools-mcp's `focusable focused`).
            if s.value.is_none() && dialect.is_focus_state(&s.name) {
                if s.name == focus {
                    out.push(Flip {
                        gained: true,
                        name: s.name.clone(),
                    });
                }
                continue;
            }
            if !flippable(dialect, s) {
                return None;
            }
            out.push(Flip {
                gained: true,
                name: s.name.clone(),
            });
        }
    }
    let mut after = before.shallow_clone();
    (apply_flips(dialect, &mut after, &out).is_ok()
        && after.states == now.states
        && after.value == now.value)
        .then_some(out)
}

/// The flip line: `~ [ref] -lost +gained`.
pub(super) fn flip_line(r: &str, flips: &[Flip]) -> String {
    let mut line = format!("~ [{r}]");
    for f in flips {
        line.push(' ');
        line.push(if f.gained { '+' } else { '-' });
        line.push_str(&f.name);
    }
    line
}

/// Reads the flips after `~ [ref] `: words each `+name` or `-name`;
/// `None` when the text is not that (it is an element line).
pub(super) fn read_flips(tail: &str) -> Option<Vec<Flip>> {
    if !tail.starts_with(['+', '-']) {
        return None;
    }
    tail.split(' ')
        .map(|w| {
            let (gained, name) = match w.split_at_checked(1)? {
                ("+", n) => (true, n),
                ("-", n) => (false, n),
                _ => return None,
            };
            one_word(name).then(|| Flip {
                gained,
                name: name.to_owned(),
            })
        })
        .collect()
}
