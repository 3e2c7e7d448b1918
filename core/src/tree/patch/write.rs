//! Writing a patch: the tree diff of two snapshots said by ref, with
//! every operation chosen, then checked by applying it (`choose` decides
//! which tries to make and keeps the shortest).

use super::address::is_address;
use super::apply::apply_to;
use super::change::{Place, Trim, line_changes, said_line, trimmed_changes};
use super::nodes::{Node, flatten};
use super::options::SnapshotPatch;
use super::order::reorders;
use super::restore::{
    inserted_inside, kept_in_run, print_below, resent, restore_words, said_again,
};
use super::runs::Siblings;
use super::seen::Seen;
use super::words::words;
use crate::prelude::*;
use crate::tree::diff::{Field, Parent, diff};
use crate::tree::model::{Element, Tree};
use core::fmt::Write as _;

/// The fewest consecutive removed siblings written as a run (`- [e4 ..
/// e9]`): a short removal reads better listed.
const REMOVED_RUN: usize = 6;

/// One entry of an insertion: elements printed, or refs restored.
pub(super) enum Segment<'a> {
    Printed(Vec<&'a Element>),
    Restored(Vec<&'a str>),
}

/// The patch from `old_tree` to `new_tree` (whose text is `new`), checked
/// by applying it to `verify` (the previous snapshot as the applier reads
/// it: without addresses), and whether a change without a ref was said by
/// re-sending an ancestor.
pub(super) fn write(
    old_tree: &Tree,
    new_tree: &Tree,
    new: &str,
    seen: &Seen,
    focus_line: bool,
    verify: Tree,
    resend: Resend<'_>,
) -> Option<Written> {
    // The fallback says everything explicitly: no restores at all.
    let restore = focus_line;
    let d = diff(old_tree, new_tree);
    let old_nodes = flatten(old_tree);
    let new_nodes = flatten(new_tree);
    // Refs address one element each; a snapshot with a ref twice cannot be patched.
    fn by_ref<'t>(nodes: &[Node<'t>]) -> Option<FxHashMap<&'t str, usize>> {
        let mut m = FxHashMap::default();
        m.reserve(nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            if let Some(r) = n.e.aria_ref.as_deref()
                && m.insert(r, i).is_some()
            {
                return None;
            }
        }
        Some(m)
    }
    let old_by_ref = by_ref(&old_nodes)?;
    let new_by_ref = by_ref(&new_nodes)?;

    // Focus: one line when `[active]` (chrome-devtools-mcp's `focusable
    // focused`) moved to an element of the old snapshot (or away from
    // every element).
    let dialect = new_tree.dialect;
    let is_focus = |s: &str| dialect.is_focus_state(s);
    let active_moved = d
        .changed
        .iter()
        .any(|c| matches!(&c.field, Field::State(s) if is_focus(s)));
    let new_active: Vec<usize> = (0..new_nodes.len())
        .filter(|&i| new_nodes[i].e.state(dialect.focus_state()).is_some())
        .collect();
    // An element whose line is printed anyway (a new one, or one whose own
    // line changed) carries its `[active]`, and that moves the focus: no
    // focus line (see the module docs).
    let printed_anyway = |i: usize| match new_nodes[i].e.aria_ref.as_deref() {
        None => false,
        Some(r) => {
            !old_by_ref.contains_key(r)
                || d.changed.iter().any(|c| {
                    c.new_index == i && !matches!(&c.field, Field::State(s) if is_focus(s))
                })
        }
    };
    let mut implied_focus = false;
    let focus: Option<Option<&str>> = if focus_line && active_moved {
        match new_active.as_slice() {
            [] => Some(None),
            [i] if printed_anyway(*i) => {
                implied_focus = true;
                new_nodes[*i].e.aria_ref.as_deref().map(Some)
            }
            [i] => new_nodes[*i]
                .e
                .aria_ref
                .as_deref()
                .filter(|r| old_by_ref.contains_key(*r))
                .map(Some),
            _ => None,
        }
    } else {
        None
    };

    // Whether an ancestor of `i` (not `i` itself) is in `set`.
    let under = |nodes: &[Node<'_>], set: &FxHashSet<usize>, i: usize| {
        let mut p = nodes[i].parent;
        while let Some(j) = p {
            if set.contains(&j) {
                return true;
            }
            p = nodes[j].parent;
        }
        false
    };
    // An element whose ref changed (matched by its place) is another
    // element now: the old one goes, the new one comes with its subtree.
    let mut replaced_old: FxHashSet<usize> = FxHashSet::default();
    let mut replaced_new: FxHashSet<usize> = FxHashSet::default();
    let mut changed_new: FxHashSet<usize> = FxHashSet::default();
    let mut touched_new: FxHashSet<usize> = FxHashSet::default();
    let mut moved_new: FxHashSet<usize> = FxHashSet::default();
    for c in &d.changed {
        touched_new.insert(c.new_index);
        match &c.field {
            Field::Bounds => return None,
            // A moved element (or one whose ref changed, placed elsewhere)
            // goes from its old place and comes back at the new one, by
            // reference when it is unchanged.
            Field::Parent => {
                replaced_old.insert(c.old_index);
                replaced_new.insert(c.new_index);
                moved_new.insert(c.new_index);
            }
            Field::Ref => {
                replaced_old.insert(c.old_index);
                replaced_new.insert(c.new_index);
            }
            Field::State(s) if is_focus(s) && focus.is_some() => {}
            _ => {
                changed_new.insert(c.new_index);
            }
        }
    }
    // What has no ref of its own is said by replacing its nearest ancestor
    // that has one (in both snapshots).
    let lift_new = |i: usize, ro: &mut FxHashSet<usize>, rn: &mut FxHashSet<usize>| {
        let mut p = new_nodes[i].parent;
        while let Some(j) = p {
            if let Some(&oj) = new_nodes[j]
                .e
                .aria_ref
                .as_deref()
                .and_then(|r| old_by_ref.get(r))
            {
                ro.insert(oj);
                rn.insert(j);
                return Some(());
            }
            p = new_nodes[j].parent;
        }
        None
    };
    // (Elements inside a subtree that is re-sent anyway need nothing.)
    let mut refless: Vec<usize> = changed_new
        .iter()
        .copied()
        .filter(|&i| new_nodes[i].e.aria_ref.is_none())
        .collect();
    refless.sort_unstable();
    let mut lifted = false;
    for i in refless {
        if !under(&new_nodes, &replaced_new, i) {
            lift_new(i, &mut replaced_old, &mut replaced_new)?;
            lifted = true;
        }
    }
    for r in d.removed.iter().filter(|r| !r.parent_removed) {
        if old_nodes[r.index].e.aria_ref.is_some() || under(&old_nodes, &replaced_old, r.index) {
            continue;
        }
        let mut p = old_nodes[r.index].parent;
        loop {
            let j = p?;
            if let Some(&nj) = old_nodes[j]
                .e
                .aria_ref
                .as_deref()
                .and_then(|r| new_by_ref.get(r))
            {
                replaced_old.insert(j);
                replaced_new.insert(nj);
                lifted = true;
                break;
            }
            p = old_nodes[j].parent;
        }
    }
    // Parents re-sent whole, their children by reference (the caller's
    // second try: see `busy`).
    let (weigh, resend): (bool, &[&str]) = match resend {
        Resend::Nothing => (false, &[]),
        Resend::Weigh => (true, &[]),
        Resend::These(rs) => (false, rs),
    };
    for r in resend {
        if let (Some(&oi), Some(&ni)) = (old_by_ref.get(r), new_by_ref.get(r))
            && !replaced_new.contains(&ni)
            && !under(&new_nodes, &replaced_new, ni)
        {
            replaced_old.insert(oi);
            replaced_new.insert(ni);
        }
    }
    // Siblings that kept their parent but not their order (a sort, a drag):
    // one `~ order` line per parent, or, where a few moved far, each run
    // of them removed and inserted again by reference.
    let reorders = reorders(&old_nodes, &new_nodes, &old_by_ref, &replaced_new);
    let mut orders: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
    for r in reorders {
        if r.as_moves {
            for &i in &r.moved {
                replaced_old.insert(old_by_ref[new_nodes[i].e.aria_ref.as_deref()?]);
                replaced_new.insert(i);
                moved_new.insert(i);
            }
        } else {
            orders.push((r.parent, r.listed));
        }
    }
    // Insertions need an anchor the old snapshot has: lift until they do.
    let added: FxHashSet<usize> = d.added.iter().map(|a| a.index).collect();
    let added_roots = loop {
        let roots: FxHashSet<usize> = d
            .added
            .iter()
            .filter(|a| !matches!(a.parent, Parent::Added(_)))
            .map(|a| a.index)
            .chain(replaced_new.iter().copied())
            .filter(|&i| !under(&new_nodes, &replaced_new, i) && !under(&new_nodes, &added, i))
            .collect();
        let anchored = |j: usize| {
            !roots.contains(&j)
                && new_nodes[j]
                    .e
                    .aria_ref
                    .as_deref()
                    .is_some_and(|r| old_by_ref.contains_key(r))
        };
        let mut sorted: Vec<usize> = roots.iter().copied().collect();
        sorted.sort_unstable();
        let stray = sorted.into_iter().find(|&i| {
            let node = &new_nodes[i];
            match (node.prev, node.parent) {
                (Some(p), _) => !roots.contains(&p) && !anchored(p),
                (None, Some(p)) => !anchored(p),
                (None, None) => false,
            }
        });
        match stray {
            Some(i) => {
                lift_new(i, &mut replaced_old, &mut replaced_new)?;
                lifted = true;
            }
            None => break roots,
        }
    };

    // A lifted element that kept its ref is re-sent in place: its `~` line
    // with its children, one op instead of a removal and an insertion.
    let mut rewritten: FxHashSet<usize> = FxHashSet::default();
    let mut rewritten_old: FxHashSet<usize> = FxHashSet::default();
    for &i in &added_roots {
        let e = new_nodes[i].e;
        let Some(&oj) = e.aria_ref.as_deref().and_then(|r| old_by_ref.get(r)) else {
            continue;
        };
        if replaced_new.contains(&i)
            && !moved_new.contains(&i)
            && replaced_old.contains(&oj)
            && !e.children.is_empty()
        {
            rewritten.insert(i);
            rewritten_old.insert(oj);
        }
    }
    // An element that gained the focus, re-sent or inside a re-sent one,
    // is printed there, its focus with it.
    if let Some(Some(r)) = focus
        && new_by_ref
            .get(r)
            .is_some_and(|&i| rewritten.contains(&i) || under(&new_nodes, &rewritten, i))
    {
        implied_focus = true;
    }
    let mut text = String::new();
    let line = |text: &mut String, s: &str| {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(s);
    };
    let mut removals: Vec<usize> = d
        .removed
        .iter()
        .filter(|r| !r.parent_removed)
        .map(|r| r.index)
        .chain(replaced_old.iter().copied())
        .filter(|&i| !under(&old_nodes, &replaced_old, i) && !rewritten_old.contains(&i))
        .collect();
    removals.sort_unstable();
    removals.dedup();
    // An element the new snapshot still has (by its ref) stands elsewhere
    // now: the insertion that names it moves it there (a ref is on one
    // element only), so it needs no removal line (issue 37).
    let (moves, removals): (Vec<usize>, Vec<usize>) = removals.into_iter().partition(|&i| {
        old_nodes[i]
            .e
            .aria_ref
            .as_deref()
            .is_some_and(|r| new_by_ref.contains_key(r))
    });
    // Parents (with a ref in both snapshots, said in place) under which
    // three or more children came, went or moved, some of them children
    // the agent has seen (moved, or restored): re-sending one whole, its
    // children by reference, may be shorter than saying each. (Where all
    // that came is new, a frame navigated, the removal line says plainly
    // what went, at about the same length.)
    let busy: Vec<String> = if !weigh {
        Vec::new()
    } else {
        let mut count: FxHashMap<&str, usize> = FxHashMap::default();
        let known = |i: &usize| {
            new_nodes[*i]
                .e
                .aria_ref
                .as_deref()
                .is_some_and(|r| old_by_ref.contains_key(r) || seen.get(r).is_some())
        };
        let shuffled: FxHashSet<&str> = added_roots
            .iter()
            .filter(|i| known(i))
            .chain(orders.iter().flat_map(|(_, l)| l.iter()))
            .filter_map(|&i| parent_ref(&new_nodes, i))
            .collect();
        let news = added_roots
            .iter()
            .filter(|i| !rewritten.contains(*i))
            .chain(orders.iter().flat_map(|(_, l)| l.iter()))
            .filter_map(|&i| parent_ref(&new_nodes, i));
        let olds = removals
            .iter()
            .chain(&moves)
            .filter_map(|&i| parent_ref(&old_nodes, i));
        for r in news.chain(olds) {
            *count.entry(r).or_default() += 1;
        }
        let mut by_count: Vec<(usize, &str)> = count
            .into_iter()
            .filter(|&(r, n)| {
                n >= BUSY
                    && shuffled.contains(r)
                    && !is_address(r)
                    && old_by_ref.contains_key(r)
                    && new_by_ref.get(r).is_some_and(|&ni| {
                        !replaced_new.contains(&ni) && !under(&new_nodes, &replaced_new, ni)
                    })
            })
            .map(|(r, n)| (n, r))
            .collect();
        // The busiest first; ties by ref, so the same input gives the
        // same tries.
        by_count.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        by_count.into_iter().map(|(_, r)| r.to_owned()).collect()
    };
    // What the patch spends on each busy parent's children (estimated
    // tokens): their refs in the removal line, order lines and insertions.
    let mut spent: FxHashMap<&str, usize> = FxHashMap::default();
    let is_busy = |r: &str| busy.iter().any(|b| b == r);
    for &i in &removals {
        if let Some(r) = parent_ref(&old_nodes, i).filter(|r| is_busy(r)) {
            *spent.entry(r).or_default() += words(old_nodes[i].e.aria_ref.as_deref()?);
        }
    }
    for (p, listed) in &orders {
        if let Some(r) = p
            .and_then(|p| new_nodes[p].e.aria_ref.as_deref())
            .filter(|r| is_busy(r))
        {
            let refs: usize = listed
                .iter()
                .filter_map(|&i| new_nodes[i].e.aria_ref.as_deref())
                .map(words)
                .sum();
            *spent.entry(r).or_default() += refs + 4;
        }
    }
    let removed: usize = removals
        .iter()
        .map(|&i| old_nodes[i].e.count())
        .sum::<usize>()
        + rewritten_old
            .iter()
            .map(|&i| old_nodes[i].e.count() - 1)
            .sum::<usize>();
    // Removed with an ancestor: a restore of it is no move (see `lone`).
    let removed_set: FxHashSet<usize> = removals.iter().copied().collect();
    let gone = |r: &str| {
        old_by_ref
            .get(r)
            .is_none_or(|&oi| under(&old_nodes, &removed_set, oi))
    };
    // Removed siblings share one line, where the first of them was.
    let mut groups: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
    for i in removals {
        let parent = old_nodes[i].parent;
        match groups.iter_mut().find(|(p, _)| *p == parent) {
            Some((_, g)) => g.push(i),
            None => groups.push((parent, vec![i])),
        }
    }
    // Removals under several parents share one line too: the refs say it
    // all, and the agent knows each of them.
    if groups.len() > 1 {
        let all: Vec<usize> = groups.iter().flat_map(|(_, g)| g.iter().copied()).collect();
        groups = vec![(None, all)];
    }
    // The previous snapshot's siblings, indexed once if a removal needs them.
    let removed_runs = core::cell::OnceCell::new();
    for (_, group) in &groups {
        if let [i] = group.as_slice() {
            let e = old_nodes[*i].e;
            let mut s = format!("- [{}] {}", e.aria_ref.as_deref()?, e.role);
            // The reader sees what went: its name, or its first named descendant's.
            let named = e.descendants().map(|(_, d)| d).find(|d| !d.name.is_empty());
            match named {
                Some(d) if core::ptr::eq(d, e) => {
                    let _ = write!(s, " {}", crate::tree::aria::json_quote(&e.name));
                }
                Some(d) => {
                    let _ = write!(
                        s,
                        " > {} {}",
                        d.role,
                        crate::tree::aria::json_quote(&d.name)
                    );
                }
                None => {}
            }
            line(&mut text, &s);
        } else {
            let refs: Option<Vec<&str>> = group
                .iter()
                .map(|&i| old_nodes[i].e.aria_ref.as_deref())
                .collect();
            // A run of the previous snapshot's siblings as `first .. last`
            // where shorter (a flat page's collapsed section).
            let refs = refs?;
            let listed = if refs.len() < REMOVED_RUN {
                refs.join(" ")
            } else {
                removed_runs
                    .get_or_init(|| Siblings::new(&verify, None))
                    .compact(&refs, REMOVED_RUN)
            };
            line(&mut text, &format!("- [{listed}]"));
        }
    }
    drop(removed_runs);

    // Ops in the new tree's document order: added roots (grouped into runs
    // of consecutive siblings) and changed elements.
    let mut changed_at: Vec<usize> = changed_new
        .iter()
        .copied()
        .filter(|i| !replaced_new.contains(i) && !under(&new_nodes, &replaced_new, *i))
        .collect();
    changed_at.sort_unstable();
    let mut ops: Vec<usize> = added_roots
        .iter()
        .copied()
        .chain(changed_at.iter().copied())
        .collect();
    ops.sort_unstable();
    // As last shown: the old snapshot is the latest view, then `seen`
    // (empty when the caller turned restoring off).
    let shown = |r: &str| -> Option<&Element> {
        if !restore {
            return None;
        }
        match old_by_ref.get(r) {
            Some(&i) => Some(old_nodes[i].e),
            None => seen.get(r),
        }
    };
    // The inside of a `[…] as last shown` bracket: runs of siblings as
    // `first .. last` where shorter (the views are indexed once, if ever).
    let siblings = core::cell::OnceCell::new();
    let list = |rs: &[&str]| -> String {
        if rs.len() < 3 || !restore {
            return rs.join(" ");
        }
        siblings
            .get_or_init(|| Siblings::new(&verify, Some(seen)))
            .compact(rs, 3)
    };
    let printed = |e: &Element| print_below(e, &shown, dialect, &list).0;
    // As last shown, exactly or with some elements' own lines changed
    // (those are said by `~` lines after the insertion); or with some of
    // its descendants gone or come since (a removal line and insertions
    // after it), where that reads shorter than printing it.
    let restorable = |i: usize| -> Option<(&str, Trim<'_, '_>)> {
        let e = new_nodes[i].e;
        let r = e.aria_ref.as_deref()?;
        let last = shown(r)?;
        if let Some(changed) = line_changes(last, e) {
            return Some((r, Trim::lines(changed)));
        }
        // Only own lines changed: `line_changes` has decided.
        let t = trimmed_changes(last, e).filter(|t| !t.cut.is_empty() || !t.added.is_empty())?;
        let (came, _, more) = inserted_inside(&t.added, &shown, dialect, &list);
        let said: Option<Vec<String>> = t
            .changed
            .iter()
            .chain(&more)
            .map(|c| said_again(c, &shown, dialect))
            .collect();
        let cut = if t.cut.is_empty() {
            0
        } else {
            words(&cut_line(&t.cut))
        };
        let cost = restore_words(r) + cut + words(&came) + words(&said?.join("\n"));
        (cost < words(&printed(e))).then_some((r, t))
    };
    // `~` lines for elements restored with their lines changed.
    let change_lines = |text: &mut String, es: &[&Element]| -> Option<usize> {
        for e in es {
            line(text, &said_again(e, &shown, dialect)?);
        }
        Some(es.len())
    };
    let mut changed_again = 0;
    let mut restored = 0;
    // Order lines go where their parent is (top level first); a parent
    // re-sent whole says its children's order itself.
    orders.retain(|(p, _)| {
        p.is_none_or(|p| !replaced_new.contains(&p) && !under(&new_nodes, &replaced_new, p))
    });
    orders.sort_by_key(|(p, _)| p.map_or(0, |p| p + 1));
    let moved: usize = orders.iter().map(|(_, l)| l.len()).sum();
    let mut orders = orders.into_iter().peekable();
    let mut flush_orders = |text: &mut String, upto: usize| -> Option<()> {
        while let Some((_, listed)) = orders.next_if(|(p, _)| p.map_or(0, |p| p + 1) <= upto) {
            let refs: Option<Vec<&str>> = listed
                .iter()
                .map(|&i| new_nodes[i].e.aria_ref.as_deref())
                .collect();
            line(text, &format!("~ order [{}]", refs?.join(" ")));
        }
        Some(())
    };
    let mut k = 0;
    while k < ops.len() {
        let i = ops[k];
        flush_orders(&mut text, i)?;
        let node = &new_nodes[i];
        if rewritten.contains(&i) {
            let (block, n, again) = resent(node.e, &shown, dialect, &list)?;
            restored += n;
            line(&mut text, &block);
            changed_again += change_lines(&mut text, &again)?;
            k += 1;
            continue;
        }
        if !added_roots.contains(&i) {
            // Property lines (`- /url: …`) only when they changed; only
            // the states when nothing else did (`~ [e12] -expanded`).
            let before = node
                .e
                .aria_ref
                .as_deref()
                .and_then(|r| old_by_ref.get(r))
                .map(|&j| old_nodes[j].e);
            line(&mut text, &said_line(node.e, before, dialect)?);
            k += 1;
            continue;
        }
        // A run of added siblings shares the first one's anchor.
        let start = text.len();
        let mut run = vec![i];
        k += 1;
        while k < ops.len()
            && added_roots.contains(&ops[k])
            && !rewritten.contains(&ops[k])
            && new_nodes[ops[k]].prev == run.last().copied()
        {
            run.push(ops[k]);
            k += 1;
        }
        let mut segments: Vec<Segment<'_>> = Vec::new();
        let mut again: Vec<&Element> = Vec::new();
        let mut cut: Vec<&str> = Vec::new();
        let mut came: Vec<(Place<'_>, Vec<&Element>)> = Vec::new();
        let mut backs: Vec<_> = run.iter().map(|&j| restorable(j)).collect();
        // An element between two restored siblings whose own lines changed
        // is restored too, its lines said by `~` lines, where that reads
        // shorter than breaking the run to print it: `[e13 .. e24]` and
        // `~ button "POST" [ref=e16]` rather than two restore lines.
        for x in 1..run.len().saturating_sub(1) {
            if backs[x].is_none() && backs[x - 1].is_some() && backs[x + 1].is_some() {
                backs[x] = kept_in_run(new_nodes[run[x]].e, &shown, dialect, &list)
                    .map(|(r, lines)| (r, Trim::lines(lines)));
            }
        }
        // An element restored alone goes printed when that is shorter (a
        // `✖` text under an address, a short word: `[e84/3] as last shown`
        // is longer than `- text: ✖`), unless the restore moves it from a
        // place the previous snapshot still has.
        for x in 0..run.len() {
            let lone =
                (x == 0 || backs[x - 1].is_none()) && backs.get(x + 1).is_none_or(Option::is_none);
            let Some((r, t)) = backs[x].as_ref().filter(|_| lone) else {
                continue;
            };
            if t.is_exact() && gone(r) && words(&printed(new_nodes[run[x]].e)) < restore_words(r) {
                backs[x] = None;
            }
        }
        for (&j, back) in run.iter().zip(backs) {
            let e = new_nodes[j].e;
            match (back, segments.last_mut()) {
                (Some((r, t)), last) => {
                    restored += e.count();
                    again.extend(t.changed);
                    cut.extend(t.cut);
                    came.extend(t.added);
                    match last {
                        Some(Segment::Restored(rs)) => rs.push(r),
                        _ => segments.push(Segment::Restored(vec![r])),
                    }
                }
                (None, Some(Segment::Printed(es))) => es.push(e),
                (None, _) => segments.push(Segment::Printed(vec![e])),
            }
        }
        let mut header = match (node.prev, node.parent) {
            (Some(p), _) => format!("+ after [{}]:", new_nodes[p].e.aria_ref.as_deref()?),
            (None, Some(p)) => format!("+ first in [{}]:", new_nodes[p].e.aria_ref.as_deref()?),
            (None, None) => "+ first:".to_owned(),
        };
        let mut segments = segments.into_iter().peekable();
        if let Some(Segment::Restored(rs)) = segments.peek() {
            let _ = write!(header, " [{}] as last shown", list(rs));
            segments.next();
        }
        line(&mut text, &header);
        for s in segments {
            match s {
                Segment::Restored(rs) => {
                    let _ = write!(text, "\n  [{}] as last shown", list(&rs));
                }
                Segment::Printed(es) => {
                    for e in es {
                        // Below the header, one level in (it starts the line
                        // itself).
                        let (block, n, lines) = print_below(e, &shown, dialect, &list);
                        restored += n;
                        again.extend(lines);
                        text.push('\n');
                        text.push_str(&block);
                    }
                }
            }
        }
        if !cut.is_empty() {
            line(&mut text, &cut_line(&cut));
        }
        if !came.is_empty() {
            let (block, n, lines) = inserted_inside(&came, &shown, dialect, &list);
            restored += n;
            again.extend(lines);
            line(&mut text, &block);
        }
        changed_again += change_lines(&mut text, &again)?;
        if let Some(r) = parent_ref(&new_nodes, i).filter(|r| is_busy(r)) {
            *spent.entry(r).or_default() += words(&text[start..]);
        }
    }
    flush_orders(&mut text, usize::MAX)?;
    if let Some(target) = focus.filter(|_| !implied_focus) {
        line(
            &mut text,
            &format!(
                "~ focus {}",
                target.map_or("none".to_owned(), |r| format!("[{r}]"))
            ),
        );
    }
    // A rewritten element is changed; its children count as added (and
    // its old children as removed, above).
    let mut added: usize = added_roots
        .iter()
        .map(|&i| new_nodes[i].e.count() - usize::from(rewritten.contains(&i)))
        .sum();
    // An element moved as it was (restored by reference from the previous
    // snapshot) is one moved element, not its subtree added and removed.
    let mut moved_as_is: FxHashSet<usize> = FxHashSet::default();
    for &i in &moves {
        let e = old_nodes[i].e;
        let Some(&ni) = e.aria_ref.as_deref().and_then(|r| new_by_ref.get(r)) else {
            continue;
        };
        if restore && new_nodes[ni].e == e {
            let n = e.count();
            moved_as_is.insert(ni);
            added = added.saturating_sub(n);
            restored = restored.saturating_sub(n);
        }
    }
    let moved = moved + moved_as_is.len();
    let changed = touched_new
        .iter()
        .filter(|i| {
            !added_roots.contains(*i)
                && !moved_as_is.contains(*i)
                && !under(&new_nodes, &replaced_new, **i)
        })
        .count()
        + rewritten.len()
        + changed_again;
    let patch = SnapshotPatch {
        text,
        changed,
        added,
        restored,
        removed,
        moved,
        unchanged: new_nodes.len().saturating_sub(added + changed + moved),
    };
    // A busy parent is worth a second try only where re-sending it reads
    // shorter than what this patch spends on its children.
    let busy: Vec<String> = busy
        .into_iter()
        .filter(|r| {
            let Some((block, _, again)) = new_by_ref
                .get(r.as_str())
                .and_then(|&i| resent(new_nodes[i].e, &shown, dialect, &list))
            else {
                return false;
            };
            let said: usize = again
                .iter()
                .filter_map(|e| said_again(e, &shown, dialect))
                .map(|s| words(&s))
                .sum();
            words(&block) + said < spent.get(r.as_str()).copied().unwrap_or(0)
        })
        .collect();
    drop(siblings);
    // Lossless or nothing: the patch must rebuild the new text exactly.
    (apply_to(verify, &patch.text, Some(seen)).ok()?.to_text() == new).then_some(Written {
        patch,
        lifted,
        busy,
    })
}

/// The removal line for descendants of restored elements that are gone
/// since the agent was shown them (refs alone: the restore just named
/// their subtree).
fn cut_line(refs: &[&str]) -> String {
    format!("- [{}]", refs.join(" "))
}

/// The ref of node `i`'s parent, if it has one.
fn parent_ref<'t>(nodes: &[Node<'t>], i: usize) -> Option<&'t str> {
    nodes[i].parent.and_then(|p| nodes[p].e.aria_ref.as_deref())
}

/// Which parents a [`write`] re-sends whole, each with its children by
/// reference.
#[derive(Clone, Copy)]
pub(super) enum Resend<'r> {
    /// None, and no busy parent is weighed (a try whose busy parents
    /// nobody reads).
    Nothing,
    /// None; the busy parents are weighed for a second try
    /// ([`Written::busy`]).
    Weigh,
    /// These (the second try).
    These(&'r [&'r str]),
}

/// A patch [`write`] wrote.
pub(super) struct Written {
    pub(super) patch: SnapshotPatch,
    /// Whether a change without a ref was said by re-sending an ancestor.
    pub(super) lifted: bool,
    /// With [`Resend::Weigh`], the refs of parents under which [`BUSY`]
    /// or more children came, went or moved, the busiest first: the
    /// parents a second try may re-send whole (empty otherwise).
    pub(super) busy: Vec<String>,
}

/// The fewest children that came, went or moved under one parent for a
/// second try to re-send it whole (`~` its line, its children by
/// reference: a sorted flat grid of cells).
const BUSY: usize = 3;
