//! Look-alikes keep their neighbours: among the leaves under one parent
//! (chrome-devtools-mcp prints a grid as one flat run of text cells under
//! its container, "Finance" in every fifth row), the content match pairs a
//! repeated text with any earlier one of the same text. Each is "the same
//! element", but a row the agent saw comes back with its cells' refs mixed
//! among rows (`Lea Byron`, then another row's `Support` and a third's
//! `Oslo`), so it can only be restored ref by ref. This pass gives a leaf
//! the ref that stood next to its neighbour's ref in the newest view that
//! has them side by side, under the same parent, with the same content:
//! taken when free, swapped with the look-alike that holds it otherwise.
//! Only a neighbour unique under the parent (a name, a todo's title) or
//! already placed this way places a leaf, so a todo's checkbox follows its
//! own title, not the "✖" of the todo before it.
//! Then a cell that came back beside a new row's cells and beside none of
//! its own is a new row's cell, and gets a new ref ([`strays`]).
//!
//! Written here rather than taken from a crate: it works on the carrier's
//! own views and refs, and the core's no_std build keeps to its crates.

use super::places::Places;
use super::view::{Claims, View};
use crate::prelude::*;

/// Which neighbour a key is by.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Before,
    After,
}

/// Document-order siblings of each element (`Places::parent`), and
/// whether it has children.
struct Siblings {
    before: Vec<Option<usize>>,
    after: Vec<Option<usize>>,
    leaf: Vec<bool>,
}

impl Siblings {
    fn of(parent: &[Option<usize>]) -> Siblings {
        let n = parent.len();
        let mut s = Siblings {
            before: vec![None; n],
            after: vec![None; n],
            leaf: vec![true; n],
        };
        // The last child seen of each parent (index n: the roots).
        let mut last: FxHashMap<usize, usize> = FxHashMap::default();
        for (i, p) in parent.iter().enumerate() {
            if let Some(p) = *p {
                s.leaf[p] = false;
            }
            if let Some(b) = last.insert(p.unwrap_or(n), i) {
                s.before[i] = Some(b);
                s.after[b] = Some(i);
            }
        }
        s
    }
}

/// (parent's ref, side, neighbour's ref, content) → (view, index, ref).
type Beside<'v> = FxHashMap<(&'v str, Side, &'v str, u64), (usize, usize, &'v str)>;

/// How many children of each parent show each content: (parent, content)
/// → count (the roots under `usize::MAX`).
type Repeats = FxHashMap<(usize, u64), u32>;

fn repeats(places: &Places) -> Repeats {
    let mut m: Repeats = FxHashMap::default();
    for (p, c) in places.parent.iter().zip(&places.content) {
        *m.entry((p.unwrap_or(usize::MAX), *c)).or_default() += 1;
    }
    m
}

/// How many children of element `i`'s parent show its content, `i` too.
fn count(m: &Repeats, places: &Places, i: usize) -> u32 {
    m.get(&(places.parent[i].unwrap_or(usize::MAX), places.content[i]))
        .copied()
        .unwrap_or(0)
}

/// Rounds of placing look-alikes. A run of them fills in from both ends,
/// two leaves a round: a grid row's two repeated cells between a unique
/// name and salary need one round, a run of eight repeated cells four.
const ROUNDS: usize = 4;

/// The neighbour map over `views` (the newest view that has a pair
/// wins), and each view's siblings.
fn beside<'v>(views: &[&'v View]) -> (Beside<'v>, Vec<Siblings>) {
    let mut m: Beside<'v> = FxHashMap::default();
    let sibs: Vec<Siblings> = views
        .iter()
        .map(|v| Siblings::of(&v.places.parent))
        .collect();
    for (v, view) in views.iter().enumerate().rev() {
        let (p, s, refs) = (&view.places, &sibs[v], &view.refs);
        for (o, r) in refs.iter().enumerate() {
            let (Some(r), true, Some(pr)) = (
                r.as_deref(),
                s.leaf[o],
                p.parent[o].and_then(|q| refs[q].as_deref()),
            ) else {
                continue;
            };
            for (side, k) in [(Side::Before, s.before[o]), (Side::After, s.after[o])] {
                if let Some(nr) = k.and_then(|k| refs[k].as_deref()) {
                    m.entry((pr, side, nr, p.content[o])).or_insert((v, o, r));
                }
            }
        }
    }
    (m, sibs)
}

/// Moves refs among look-alike leaves so that each stands beside the
/// neighbour it stood beside before, then gives strays new refs (see the
/// module docs). Returns the change in the number of carried refs.
pub(super) fn keep_neighbours(
    views: &[&View],
    ids: &[Option<&str>],
    places: &Places,
    claims: &mut Claims,
) -> isize {
    let Claims { out, from, used } = &mut *claims;
    let (map, sibs) = beside(views);
    if map.is_empty() {
        return 0;
    }
    let s = Siblings::of(&places.parent);
    let mut holder: FxHashMap<String, usize> = out
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((r.clone()?, i)))
        .collect();
    let here = repeats(places);
    let unique = |k: usize| count(&here, places, k) == 1;
    let mut placed = vec![false; ids.len()];
    let mut change = 0isize;
    // A leaf is placed by a neighbour that is unique under the parent (a
    // name, a salary) or was placed before it, so the rows' own texts
    // decide: a todo's checkbox follows its title, not the delete button
    // of the todo before it. Where the two neighbours say different refs,
    // the unique one decides, or neither. Rounds until nothing moves (a
    // run of look-alikes fills from its ends).
    for _ in 0..ROUNDS {
        let mut moved = false;
        for i in 0..ids.len() {
            if placed[i] || ids[i].is_none() || !s.leaf[i] {
                continue;
            }
            let Some(pr) = places.parent[i].and_then(|p| out[p].clone()) else {
                continue;
            };
            let suggest = |side: Side, k: Option<usize>| {
                let k = k.filter(|&k| unique(k) || placed[k])?;
                let nr = out[k].as_deref()?;
                let &hit = map.get(&(pr.as_str(), side, nr, places.content[i]))?;
                Some((unique(k), hit))
            };
            let pick = match (
                suggest(Side::Before, s.before[i]),
                suggest(Side::After, s.after[i]),
            ) {
                (Some((_, x)), Some((_, y))) if x.2 == y.2 => Some(x),
                (Some((true, x)), Some((false, _))) | (Some((false, _)), Some((true, x))) => {
                    Some(x)
                }
                (Some(_), Some(_)) | (None, None) => None,
                (Some((_, x)), None) | (None, Some((_, x))) => Some(x),
            };
            let Some((v, o, r)) = pick else { continue };
            if out[i].as_deref() == Some(r) {
                placed[i] = true;
                moved = true;
                continue;
            }
            match holder.get(r).copied() {
                None => {
                    if let Some(old) = out[i].take() {
                        used.remove(&old);
                        holder.remove(&old);
                    } else {
                        change += 1;
                    }
                }
                // A look-alike under the same parent holds it: they swap.
                Some(j)
                    if !placed[j]
                        && s.leaf[j]
                        && places.content[j] == places.content[i]
                        && places.parent[j].and_then(|p| out[p].as_deref()) == Some(&pr) =>
                {
                    match out[i].take() {
                        Some(old) => {
                            holder.insert(old.clone(), j);
                            out[j] = Some(old);
                        }
                        None => {
                            out[j] = None;
                        }
                    }
                    from[j] = from[i];
                }
                Some(_) => continue,
            }
            used.insert(r.to_owned());
            holder.insert(r.to_owned(), i);
            out[i] = Some(r.to_owned());
            from[i] = Some((v, o));
            placed[i] = true;
            moved = true;
        }
        if !moved {
            break;
        }
    }
    let gone = strays(views, &sibs, &map, places, &s, &here, claims);
    // Decided on the refs as they stood, then dropped.
    let Claims { out, from, used } = claims;
    for i in gone {
        if let Some(r) = out[i].take() {
            used.remove(&r);
        }
        from[i] = None;
        change -= 1;
    }
    change
}

/// Runs of look-alikes that came back beside a new element: a run of
/// carried leaves under one parent, each beside the one it stood beside
/// in some view, that stands beside neither neighbour its ends had, has an
/// element without a ref (a new one) for a neighbour, and is either one
/// static text alone or made only of contents repeated under that parent.
/// Such a run is a new row's cells that took the refs of a gone row's: a
/// row never seen whose "Oslo", or "Engineering", "Austin", took those of
/// a row gone from the page. They are new, so that no ref names a cell of
/// two rows; the agent acts on none of them.
fn strays(
    views: &[&View],
    sibs: &[Siblings],
    map: &Beside<'_>,
    places: &Places,
    s: &Siblings,
    here: &Repeats,
    claims: &Claims,
) -> Vec<usize> {
    let (out, from) = (&claims.out, &claims.from);
    let mut there: Vec<Option<Repeats>> = (0..views.len()).map(|_| None).collect();
    let parent_ref = |i: usize| places.parent[i].and_then(|p| out[p].as_deref());
    let carried = |i: usize| {
        s.leaf[i]
            && parent_ref(i).is_some()
            && from[i].is_some_and(|(v, o)| {
                sibs[v].leaf[o] && views[v].refs[o].as_deref() == out[i].as_deref()
            })
    };
    // `b` stands right after `a` as it did in some view.
    let adjacent = |a: usize, b: usize| {
        let (Some(pr), Some(ar)) = (parent_ref(b), out[a].as_deref()) else {
            return false;
        };
        map.get(&(pr, Side::Before, ar, places.content[b]))
            .is_some_and(|&(_, _, r)| out[b].as_deref() == Some(r))
    };
    let mut gone = Vec::new();
    for i in 0..out.len() {
        if !carried(i) || s.before[i].is_some_and(|b| carried(b) && adjacent(b, i)) {
            continue;
        }
        let mut run = vec![i];
        let mut k = i;
        while let Some(a) = s.after[k].filter(|&a| carried(a) && adjacent(k, a)) {
            run.push(a);
            k = a;
        }
        // Its ends: each beside the neighbour it had in the view its ref
        // came from?
        let ends = [(i, s.before[i], Side::Before), (k, s.after[k], Side::After)];
        let mut kept = false;
        let mut beside_new = false;
        for (e, now, side) in ends {
            let Some((v, o)) = from[e] else { continue };
            let then = match side {
                Side::Before => sibs[v].before[o],
                Side::After => sibs[v].after[o],
            };
            let now_ref = now.and_then(|x| out[x].as_deref());
            let then_ref = then.and_then(|x| views[v].refs[x].as_deref());
            kept |= now_ref == then_ref;
            beside_new |= now.is_some() && now_ref.is_none();
        }
        if kept || !beside_new {
            continue;
        }
        let mut repeated = |j: usize| {
            count(here, places, j) > 1
                || from[j].is_some_and(|(v, o)| {
                    let p = &views[v].places;
                    count(there[v].get_or_insert_with(|| repeats(p)), p, o) > 1
                })
        };
        if (run.len() == 1 && places.text[i]) || run.iter().all(|&j| repeated(j)) {
            gone.extend(run);
        }
    }
    gone
}
