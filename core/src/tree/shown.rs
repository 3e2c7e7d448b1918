//! What the agent was shown before its previous snapshot (docs/DECISIONS.md
//! D16): an archive, kept as one text, of the elements that left the page,
//! each as it was last shown, so a patch can restore `as last shown` an
//! element seen any number of responses ago (a page paged back to, a filter
//! cleared, a larger page size), not only in the last few snapshots.
//!
//! The rule it keeps: for every ref that is not in the previous snapshot,
//! the archive gives the element as it stood in the latest snapshot of the
//! chain that had it (what `apply_patch_with` finds in the full list of
//! seen snapshots), or nothing. So each step of a chain must hand it the
//! previous and the new snapshot ([`retire`]); a step it does not see (a
//! snapshot too large to parse, a line diff asked for, a previous snapshot
//! the detector's cap evicted) must drop the archive instead, and the
//! caller does (response::render). An element it does not have comes back
//! printed in full, never as another one.
//!
//! The text: a first line `#shown ref:entry ref:entry …` (the entry each
//! archived ref was last shown in), then the entries, oldest first, each
//! after a line `#entry`: the subtrees that left the page together as
//! consecutive children of one parent (a list's rows collapsed), printed
//! in order as top-level elements in the snapshots' dialect (aria, or
//! chrome-devtools-mcp's), so a patch can restore them as one run
//! (`[e2 .. e41] as last shown`). One text, so the detector's store keeps
//! or evicts it whole and it never half-applies. Kept under a byte
//! budget: past it the oldest entries go first.

use super::model::{Element, Tree};
use super::{Dialect, parse_lines};
use crate::prelude::*;
use core::cell::RefCell;

const HEADER: &str = "#shown";
/// The line before each entry (never an element's line: those start with
/// `- `, `uid=` or an indent).
const ENTRY: &str = "#entry";

/// A parsed archive: where each ref was last shown, and the entries.
pub(crate) struct Shown<'a> {
    at: FxHashMap<&'a str, usize>,
    entries: Vec<&'a str>,
    parsed: RefCell<FxHashMap<usize, Option<Tree>>>,
}

impl<'a> Shown<'a> {
    /// Reads an archive text; `None` when it is not one.
    pub(crate) fn parse(text: &'a str) -> Option<Shown<'a>> {
        let (index, body) = text.split_once('\n').unwrap_or((text, ""));
        let index = index.strip_prefix(HEADER)?;
        let entries = split_entries(body)?;
        let mut at = FxHashMap::default();
        for pair in index.split(' ').filter(|p| !p.is_empty()) {
            let (r, k) = pair.rsplit_once(':')?;
            let k: usize = k.parse().ok()?;
            if k >= entries.len() {
                return None;
            }
            at.insert(r, k);
        }
        Some(Shown {
            at,
            entries,
            parsed: RefCell::new(FxHashMap::default()),
        })
    }

    /// The entry that holds ref `r` as last shown.
    pub(crate) fn entry_of(&self, r: &str) -> Option<usize> {
        self.at.get(r).copied()
    }

    /// Entry `k`: the siblings that left the page together, in order,
    /// subtrees and all (it may also hold elements shown again since,
    /// which [`Shown::entry_of`] places elsewhere).
    pub(crate) fn entry(&self, k: usize) -> Option<Tree> {
        let text = *self.entries.get(k)?;
        let mut parsed = self.parsed.borrow_mut();
        parsed.entry(k).or_insert_with(|| parse_entry(text)).clone()
    }

    /// The element with ref `r` as last shown, subtree and all.
    #[cfg(test)]
    pub(crate) fn get(&self, r: &str) -> Option<Element> {
        let tree = self.entry(self.entry_of(r)?)?;
        tree.iter()
            .map(|(_, e)| e)
            .find(|e| e.aria_ref.as_deref() == Some(r))
            .cloned()
    }
}

impl super::patch::Archive for Shown<'_> {
    fn entry_of(&self, r: &str) -> Option<usize> {
        Shown::entry_of(self, r)
    }

    fn entry(&self, k: usize) -> Option<Tree> {
        Shown::entry(self, k)
    }
}

/// An entry read back in its dialect (chrome-devtools-mcp's lines end in
/// a newline, which the archive text keeps between entries only).
fn parse_entry(entry: &str) -> Option<Tree> {
    parse_lines(Dialect::detect(entry), entry).ok()
}

/// The entries of an archive's body: each after a line `#entry`.
fn split_entries(body: &str) -> Option<Vec<&str>> {
    if body.is_empty() {
        return Some(Vec::new());
    }
    let body = body.strip_prefix(ENTRY)?.strip_prefix('\n')?;
    Some(body.split(ENTRY_BREAK).collect())
}

/// Between two entries.
const ENTRY_BREAK: &str = "\n#entry\n";

/// The pending run of removed siblings printed as the text of the latest
/// entry (which their refs already name).
fn close_group(group: &mut Vec<&Element>, fresh: &mut [(String, Vec<&str>)], prev: &Tree) {
    if group.is_empty() {
        return;
    }
    let mut text = prev
        .with_roots(group.drain(..).cloned().collect())
        .to_text();
    if text.ends_with('\n') {
        text.pop();
    }
    if let Some(last) = fresh.last_mut() {
        last.0 = text;
    }
}

/// The archive after the chain went from `prev` to `new`: the elements of
/// `prev` whose refs `new` does not have are archived as `prev` showed
/// them; entries all of whose refs are shown again or archived later go;
/// then the oldest entries while the text is over `budget` bytes. `None`
/// when a snapshot repeats a ref (nothing can then be said by ref): drop
/// the archive.
pub(crate) fn retire(
    archive: Option<&str>,
    prev: &Tree,
    new: &Tree,
    budget: usize,
) -> Option<String> {
    let mut in_new: FxHashSet<&str> = FxHashSet::default();
    for (_, e) in new.iter() {
        if let Some(r) = e.aria_ref.as_deref()
            && !in_new.insert(r)
        {
            return None;
        }
    }
    // Removed subtrees of `prev`: an element with a ref `new` lacks, under
    // no such element. Consecutive ones of one parent make one entry.
    let mut fresh: Vec<(String, Vec<&str>)> = Vec::new();
    let mut in_prev: FxHashSet<&str> = FxHashSet::default();
    let mut group: Vec<&Element> = Vec::new();
    // Sibling lists, each walked in order; a child list is walked before
    // the rest of its parent's (document order).
    let mut stack: Vec<core::slice::Iter<'_, Element>> = vec![prev.roots.iter()];
    while let Some(it) = stack.last_mut() {
        let Some(e) = it.next() else {
            stack.pop();
            close_group(&mut group, &mut fresh, prev);
            continue;
        };
        if let Some(r) = e.aria_ref.as_deref() {
            if !in_prev.insert(r) {
                return None;
            }
            if !in_new.contains(r) {
                let mut refs = Vec::new();
                for (_, d) in e.descendants() {
                    if let Some(dr) = d.aria_ref.as_deref() {
                        if !core::ptr::eq(d, e) && !in_prev.insert(dr) {
                            return None;
                        }
                        if !in_new.contains(dr) {
                            refs.push(dr);
                        }
                    }
                }
                if group.is_empty() {
                    fresh.push((String::new(), refs));
                } else if let Some(last) = fresh.last_mut() {
                    last.1.extend(refs);
                }
                group.push(e);
                continue;
            }
        }
        close_group(&mut group, &mut fresh, prev);
        if !e.children.is_empty() {
            stack.push(e.children.iter());
        }
    }
    let old = archive.and_then(Shown::parse);
    if fresh.is_empty() && old.is_none() {
        return Some(String::new());
    }
    // ref → (entry, is a new entry): later entries win.
    let mut owner: FxHashMap<&str, (usize, bool)> = FxHashMap::default();
    if let Some(old) = &old {
        for (&r, &k) in &old.at {
            if !in_new.contains(r) && !in_prev.contains(r) {
                owner.insert(r, (k, false));
            }
        }
    }
    for (k, (_, refs)) in fresh.iter().enumerate() {
        for &r in refs {
            owner.insert(r, (k, true));
        }
    }
    // Entries still named by a ref, oldest first: (text, is new, old index).
    let mut live: FxHashSet<(usize, bool)> = owner.values().copied().collect();
    let mut order: Vec<(usize, bool)> = Vec::new();
    if let Some(old) = &old {
        order.extend(
            (0..old.entries.len())
                .map(|k| (k, false))
                .filter(|x| live.contains(x)),
        );
    }
    order.extend(
        (0..fresh.len())
            .map(|k| (k, true))
            .filter(|x| live.contains(x)),
    );
    let text_of = |(k, new): (usize, bool)| -> &str {
        if new {
            &fresh[k].0
        } else {
            old.as_ref().map_or("", |o| o.entries[k])
        }
    };
    // Oldest out while over the budget (an index pair costs about its ref + 4).
    let size = |order: &[(usize, bool)], owner: &FxHashMap<&str, (usize, bool)>| {
        order
            .iter()
            .map(|&x| text_of(x).len() + ENTRY.len() + 2)
            .sum::<usize>()
            + owner.keys().map(|r| r.len() + 5).sum::<usize>()
            + HEADER.len()
    };
    let mut drop = 0;
    while drop < order.len() && size(&order[drop..], &owner) > budget {
        let gone = order[drop];
        live.remove(&gone);
        owner.retain(|_, v| *v != gone);
        drop += 1;
    }
    let order = &order[drop..];
    let number: FxHashMap<(usize, bool), usize> =
        order.iter().enumerate().map(|(n, &x)| (x, n)).collect();
    let mut pairs: Vec<(&str, usize)> = owner
        .iter()
        .filter_map(|(&r, x)| number.get(x).map(|&n| (r, n)))
        .collect();
    pairs.sort_unstable();
    let mut out = String::from(HEADER);
    for (r, n) in pairs {
        out.push(' ');
        out.push_str(r);
        out.push(':');
        out.push_str(&n.to_string());
    }
    for &x in order {
        out.push('\n');
        out.push_str(ENTRY);
        out.push('\n');
        out.push_str(text_of(x));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::parse_aria;

    fn t(s: &str) -> Tree {
        parse_aria(s, false).unwrap()
    }

    #[test]
    fn removed_elements_are_kept_as_last_shown_and_the_latest_wins() {
        let p1 = t(
            "- list [ref=l]:\n  - listitem \"Tea\" [ref=a]:\n    - button \"Buy\" [ref=b]\n  - listitem \"Cake\" [ref=c]",
        );
        let p2 = t("- list [ref=l]:\n  - listitem \"Cake\" [ref=c]");
        let a1 = retire(None, &p1, &p2, 1 << 20).unwrap();
        let s = Shown::parse(&a1).unwrap();
        assert_eq!(s.get("a").unwrap().name, "Tea");
        assert_eq!(s.get("b").unwrap().name, "Buy");
        assert!(s.get("c").is_none() && s.get("l").is_none());
        // Tea comes back renamed, then goes again: the newer one is kept.
        let p3 =
            t("- list [ref=l]:\n  - listitem \"Green tea\" [ref=a]\n  - listitem \"Cake\" [ref=c]");
        let a2 = retire(Some(&a1), &p2, &p3, 1 << 20).unwrap();
        assert!(
            Shown::parse(&a2).unwrap().get("a").is_none(),
            "shown again: {a2}"
        );
        let a3 = retire(Some(&a2), &p3, &p2, 1 << 20).unwrap();
        let s = Shown::parse(&a3).unwrap();
        assert_eq!(s.get("a").unwrap().name, "Green tea");
        // b's last showing is the first one, inside Tea.
        assert_eq!(s.get("b").unwrap().name, "Buy");
        // A small budget drops the oldest entry first.
        let small = retire(Some(&a2), &p3, &p2, a3.len() - 10).unwrap();
        let s = Shown::parse(&small).unwrap();
        assert!(s.get("b").is_none());
        assert_eq!(s.get("a").unwrap().name, "Green tea");
    }

    #[test]
    fn siblings_that_leave_together_are_one_entry() {
        let p1 = t(
            "- list [ref=l]:\n  - listitem [ref=a]: A\n  - listitem [ref=b]: B\n  - listitem [ref=k]: K\n  - listitem [ref=c]: C",
        );
        let p2 = t("- list [ref=l]:\n  - listitem [ref=k]: K");
        let a = retire(None, &p1, &p2, 1 << 20).unwrap();
        assert_eq!(
            a,
            "#shown a:0 b:0 c:1\n#entry\n- listitem [ref=a]: A\n- listitem [ref=b]: B\n#entry\n- listitem [ref=c]: C"
        );
        let s = Shown::parse(&a).unwrap();
        let e = s.entry(s.entry_of("b").unwrap()).unwrap();
        assert_eq!(e.roots.len(), 2);
        assert_eq!(s.entry_of("c"), Some(1));
        assert!(s.get("c").is_some());
        // chrome-devtools-mcp's flat rows, every line ending in a newline.
        let page = |rows: &str| {
            crate::tree::parse_in(
                Dialect::DevTools,
                &format!("uid=1_0 RootWebArea \"x\"\n{rows}"),
            )
            .unwrap()
        };
        let p1 = page("  uid=1_1 button \"A\"\n  uid=1_2 button \"B\"\n");
        let a = retire(None, &p1, &page(""), 1 << 20).unwrap();
        let s = Shown::parse(&a).unwrap();
        assert_eq!(s.entry_of("1_1"), Some(0));
        assert_eq!(s.entry(0).unwrap().roots.len(), 2);
        assert_eq!(s.get("1_2").unwrap().name, "B");
    }
}
