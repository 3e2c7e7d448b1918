//! Pairing the baseline's items with the current ones: multiset
//! differences, pairing by key, and matching interactive elements.

use crate::prelude::*;

use hashbrown::{HashMap, HashSet};

use crate::fingerprint::model::{Fingerprint, Interactive};
use crate::fingerprint::normalize::fold_digits;

/// Items of `now` with no equal item in `was` (multiset difference).
pub(super) fn new_items<'a, T: Eq + core::hash::Hash>(was: &[T], now: &'a [T]) -> Vec<&'a T> {
    let mut counts: HashMap<&T, usize> = HashMap::new();
    for w in was {
        *counts.entry(w).or_default() += 1;
    }
    let mut out = Vec::new();
    for n in now {
        match counts.get_mut(n) {
            Some(c) if *c > 0 => *c -= 1,
            _ => out.push(n),
        }
    }
    out
}

/// Multiset differences: (in `was` only, in `now` only), in order.
pub(super) fn diff_lists<'a>(
    was: impl Iterator<Item = &'a String> + Clone,
    now: impl Iterator<Item = &'a String> + Clone,
) -> (Vec<String>, Vec<String>) {
    let w: Vec<&String> = was.collect();
    let n: Vec<&String> = now.collect();
    let gone = new_items(&n, &w)
        .into_iter()
        .map(|s| (*s).clone())
        .collect();
    let new = new_items(&w, &n)
        .into_iter()
        .map(|s| (*s).clone())
        .collect();
    (gone, new)
}

pub(super) enum Pair<'a, T> {
    Both(&'a T, &'a T),
    Old(&'a T),
    New(&'a T),
}

/// Pairs items with equal keys, the n-th repeat of a key with the n-th.
/// Order: the baseline's items (paired or gone), then the new ones.
pub(super) fn pair_by<'a, T, K: Eq + core::hash::Hash>(
    was: &'a [T],
    now: &'a [T],
    key: impl Fn(&'a T) -> K,
) -> Vec<Pair<'a, T>> {
    let mut pool: HashMap<K, Vec<usize>> = HashMap::new();
    for (j, n) in now.iter().enumerate().rev() {
        pool.entry(key(n)).or_default().push(j);
    }
    let mut used = vec![false; now.len()];
    let mut out = Vec::with_capacity(was.len() + now.len());
    for w in was {
        match pool.get_mut(&key(w)).and_then(Vec::pop) {
            Some(j) => {
                used[j] = true;
                out.push(Pair::Both(w, &now[j]));
            }
            None => out.push(Pair::Old(w)),
        }
    }
    for (j, n) in now.iter().enumerate() {
        if !used[j] {
            out.push(Pair::New(n));
        }
    }
    out
}

pub(super) struct InteractiveMatch {
    pub(super) old_to_new: Vec<Option<usize>>,
    pub(super) new_matched: Vec<bool>,
}

impl InteractiveMatch {
    pub(super) fn modal_opened(&self, b: &Fingerprint, c: &Fingerprint) -> bool {
        !new_items(
            &b.structure.state.modals_open,
            &c.structure.state.modals_open,
        )
        .is_empty()
    }
}

/// Matches interactive elements by (type, text), counting repeats. Within a
/// group, identical elements pair first, then the same location, then the
/// rest in document order. Leftovers whose texts differ only in digits
/// (`Inbox (3)` / `Inbox (5)`) pair last.
pub(super) fn match_interactive(was: &[Interactive], now: &[Interactive]) -> InteractiveMatch {
    let mut old_to_new = vec![None; was.len()];
    let mut new_matched = vec![false; now.len()];
    // (type, text) -> (baseline indices, current indices)
    type Groups<'a> = HashMap<(&'a str, &'a str), (Vec<usize>, Vec<usize>)>;
    let mut groups: Groups<'_> = HashMap::new();
    for (i, e) in was.iter().enumerate() {
        groups
            .entry((e.kind.as_str(), e.text.as_str()))
            .or_default()
            .0
            .push(i);
    }
    for (j, e) in now.iter().enumerate() {
        groups
            .entry((e.kind.as_str(), e.text.as_str()))
            .or_default()
            .1
            .push(j);
    }
    type Pass = dyn Fn(&Interactive, &Interactive) -> bool;
    let passes: [&Pass; 3] = [&|a, b| a == b, &|a, b| a.location == b.location, &|_, _| {
        true
    }];
    for (olds, news) in groups.values() {
        for pass in passes {
            for &i in olds {
                if old_to_new[i].is_some() {
                    continue;
                }
                if let Some(&j) = news
                    .iter()
                    .find(|&&j| !new_matched[j] && pass(&was[i], &now[j]))
                {
                    old_to_new[i] = Some(j);
                    new_matched[j] = true;
                }
            }
        }
    }
    // Counters: same type, same text once digits are folded.
    let mut folded: HashMap<(&str, String), Vec<usize>> = HashMap::new();
    for (j, e) in now.iter().enumerate().rev() {
        if !new_matched[j] && e.text.bytes().any(|b| b.is_ascii_digit()) {
            folded
                .entry((e.kind.as_str(), fold_digits(&e.text)))
                .or_default()
                .push(j);
        }
    }
    if !folded.is_empty() {
        for (i, e) in was.iter().enumerate() {
            if old_to_new[i].is_some() {
                continue;
            }
            if let Some(j) = folded
                .get_mut(&(e.kind.as_str(), fold_digits(&e.text)))
                .and_then(Vec::pop)
            {
                old_to_new[i] = Some(j);
                new_matched[j] = true;
            }
        }
    }
    InteractiveMatch {
        old_to_new,
        new_matched,
    }
}

/// Baseline indices of matched interactive elements that went out of view
/// while at least as many of the same type in the same place came into view:
/// a carousel that rotated, tabs that switched. Hiding one element is a
/// regression; trading it for its sibling is the page working.
pub(super) fn swapped_out(
    bi: &[Interactive],
    ci: &[Interactive],
    m: &InteractiveMatch,
) -> HashSet<usize> {
    let mut flips: HashMap<(&str, &str), (Vec<usize>, usize)> = HashMap::new();
    for (i, was) in bi.iter().enumerate() {
        let Some(j) = m.old_to_new[i] else { continue };
        let now = &ci[j];
        if was.visible == now.visible {
            continue;
        }
        let key = (now.location.as_deref().unwrap_or(""), now.kind.as_str());
        let entry = flips.entry(key).or_default();
        if was.visible {
            entry.0.push(i);
        } else {
            entry.1 += 1;
        }
    }
    flips
        .into_values()
        .filter(|(hidden, shown)| hidden.len() <= *shown)
        .flat_map(|(hidden, _)| hidden)
        .collect()
}
