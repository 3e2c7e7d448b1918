//! One detector shared by 8 threads, 10,000 calls each on the thread's own
//! key and 10,000 on one key all threads share. Every result is checked
//! against the single-threaded reference: `compare_texts` on the text the
//! call replaced. On the shared key the calls must also form one clean
//! sequence: every text replaced exactly once, except the last one stored.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Barrier};
use std::thread;

use response_diff::diff::{
    DiffMode, DiffResult, DiffSettings, ResponseDiffDetector, compare_texts, short_hash,
};

const THREADS: usize = 8;
const CALLS: usize = 10_000;

/// The response thread `t` sends on call `i`: unique per (t, i), with the
/// kinds of change a page goes through (one line, a line added, a rewrite).
fn page(t: usize, i: usize) -> String {
    if i % 97 == 0 {
        // Navigation: another page altogether.
        return format!("- heading \"Page {t}-{i}\" [level=1]\n- paragraph: moved\n");
    }
    let mut s = String::from("- main:\n");
    for line in 0..12 {
        s.push_str(&format!("  - listitem: item {line}\n"));
    }
    s.push_str(&format!("  - status: thread {t} call {i}\n"));
    if i % 3 == 0 {
        s.push_str("  - alert: saved\n");
    }
    s
}

fn settings() -> DiffSettings {
    DiffSettings {
        enabled: true,
        ..DiffSettings::default()
    }
}

/// The results one thread saw: on its own key, and on the shared key with
/// the text it sent.
struct Seen {
    own: Vec<DiffResult>,
    shared: Vec<(usize, DiffResult)>,
}

fn run_threads(detector: &Arc<ResponseDiffDetector>) -> Vec<Seen> {
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let detector = Arc::clone(detector);
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                let s = settings();
                let own_key = format!("tab-{t}");
                let mut seen = Seen {
                    own: Vec::with_capacity(CALLS),
                    shared: Vec::with_capacity(CALLS),
                };
                barrier.wait();
                for i in 0..CALLS {
                    let text = page(t, i);
                    seen.own.push(detector.detect(&own_key, &text, &s).unwrap());
                    seen.shared
                        .push((i, detector.detect("shared", &text, &s).unwrap()));
                }
                seen
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn eight_threads_on_shared_and_distinct_keys_match_the_single_threaded_reference() {
    let detector = Arc::new(ResponseDiffDetector::new());
    let seen = run_threads(&detector);
    let s = settings();

    // Own keys: exactly the sequence one thread alone would produce.
    for (t, seen) in seen.iter().enumerate() {
        let mut previous: Option<String> = None;
        for (i, got) in seen.own.iter().enumerate() {
            let text = page(t, i);
            let want = compare_texts(previous.as_deref(), &text, &s);
            assert_eq!(got, &want, "thread {t} call {i} on its own key");
            previous = Some(text);
        }
    }

    // Shared key: each call is the reference comparison with the text it
    // replaced, whichever thread sent that text.
    let by_hash: HashMap<String, (usize, usize)> = (0..THREADS)
        .flat_map(|t| (0..CALLS).map(move |i| (t, i)))
        .map(|(t, i)| (short_hash(&page(t, i)), (t, i)))
        .collect();
    assert_eq!(by_hash.len(), THREADS * CALLS, "every text is distinct");
    let mut replaced = HashSet::new();
    let mut firsts = 0;
    let mut modes = HashMap::new();
    for (t, seen) in seen.iter().enumerate() {
        for (i, got) in &seen.shared {
            let text = page(t, *i);
            let previous = got.metadata.previous_hash.as_ref().map(|h| {
                let &(pt, pi) = by_hash
                    .get(h.as_str())
                    .expect("replaced a text some thread sent");
                assert!(
                    replaced.insert(h.to_string()),
                    "text {pt}-{pi} replaced twice"
                );
                page(pt, pi)
            });
            firsts += usize::from(previous.is_none());
            let want = compare_texts(previous.as_deref(), &text, &s);
            assert_eq!(got, &want, "thread {t} call {i} on the shared key");
            *modes.entry(got.mode).or_insert(0usize) += 1;
        }
    }
    assert_eq!(firsts, 1, "exactly one call found the shared key empty");
    assert_eq!(replaced.len(), THREADS * CALLS - 1);
    // The one text never replaced is the one stored now.
    let last = detector
        .previous("shared")
        .expect("the shared key is stored");
    assert!(!replaced.contains(&short_hash(&last)));
    // The run exercised every answer, not just one.
    for mode in [DiffMode::First, DiffMode::Diff, DiffMode::Full] {
        assert!(modes.contains_key(&mode), "no {mode:?} result: {modes:?}");
    }
    assert_eq!(detector.len(), THREADS + 1);
}
