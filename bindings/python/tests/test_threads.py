"""One detector shared by 8 threads with distinct keys: every result equals
the single-threaded reference (no mixed-up keys, no torn state)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import response_diff as rd
from conftest import fixture

THREADS = 8
STEPS = 12


def pages(worker: int) -> list[str]:
    """A session per worker: a large page that changes a little each step,
    with text unique to the worker so a mixed-up key would show."""
    base = fixture("aria/shop.yml")
    rows = [f"  - listitem [ref=w{worker}r{i}]: worker {worker} row {i}" for i in range(400)]
    out = []
    for step in range(STEPS):
        if step == 7:
            out.append(out[-1])  # a re-read: mode unchanged
            continue
        changed = list(rows)
        for j in range(step % 4):
            k = (step * 37 + j * 101 + worker) % len(changed)
            changed[k] = changed[k] + f" (step {step})"
        if step % 5 == 4:
            # A big change: every row rewritten, so any diff is larger than
            # the page (mode full).
            changed = [r.replace(" row ", f" line {step} ") for r in changed[: 200 + step]]
        out.append(base + "\n- list [ref=w%d]:\n" % worker + "\n".join(changed) + "\n")
    return out


# Results are compared whole, `budgetExhausted` included: the default
# detector has no wall-clock deadline, so a loaded machine (eight threads on
# two cores) gives the same results as a quiet one.
OPTIONS = [rd.DiffOptions(), rd.DiffOptions(format="split", context=1), {"format": "minimal"}]


def session(detector: rd.ResponseDiffDetector, worker: int, barrier: threading.Barrier | None) -> list[dict]:
    key = f"tab-{worker}"
    results = []
    if barrier is not None:
        barrier.wait()
    for step, text in enumerate(pages(worker)):
        r = detector.detect(key, text, OPTIONS[(worker + step) % len(OPTIONS)])
        results.append(r.to_dict())
    return results


def test_eight_threads_share_one_detector() -> None:
    reference = {}
    for w in range(THREADS):
        reference[w] = session(rd.ResponseDiffDetector(), w, None)
    # Sanity: the sessions exercise every mode.
    modes = {r["mode"] for rs in reference.values() for r in rs}
    assert modes == {"first", "diff", "full", "unchanged"}

    shared = rd.ResponseDiffDetector()
    barrier = threading.Barrier(THREADS)
    with ThreadPoolExecutor(THREADS) as pool:
        futures = {w: pool.submit(session, shared, w, barrier) for w in range(THREADS)}
        got = {w: f.result() for w, f in futures.items()}
    for w in range(THREADS):
        assert got[w] == reference[w], f"worker {w}"
    assert len(shared) == THREADS
    for w in range(THREADS):
        assert shared.previous(f"tab-{w}") == pages(w)[-1]


def test_threads_share_a_baseline_store_and_a_since_store() -> None:
    store = rd.BaselineStore()
    since = rd.SinceStore()
    before = [fixture(f"fingerprint/case{n:02}.before.json") for n in range(1, 9)]
    after = [fixture(f"fingerprint/case{n:02}.after.json") for n in range(1, 9)]
    trees = [(fixture(f"aria/case{n:02}.before.yml"), fixture(f"aria/case{n:02}.after.yml")) for n in range(1, 9)]
    barrier = threading.Barrier(THREADS)

    def work(i: int) -> tuple[str, str]:
        barrier.wait()
        store.save(f"page-{i}", before[i])
        cmp = store.compare(f"page-{i}", after[i])
        r1 = since.read(f"tab-{i}", trees[i][0])
        r2 = since.read(f"tab-{i}", trees[i][1], r1.ts)
        assert r2.diff is not None
        return cmp.to_json(), r2.diff.to_agent()

    with ThreadPoolExecutor(THREADS) as pool:
        got = list(pool.map(work, range(THREADS)))
    for i, (cmp, agent) in enumerate(got):
        assert cmp == rd.compare_fingerprints(before[i], after[i]).to_json()
        assert agent == rd.tree_diff(*trees[i]).to_agent()
    assert store.names() == sorted(f"page-{i}" for i in range(THREADS))


CALLS = 10_000


def conc_page(t: int, i: int) -> str:
    """The pages of core/tests/concurrency.rs (and the Node workers test):
    unique per (thread, call), one-line changes, an added line, and now and
    then another page altogether."""
    if i % 97 == 0:
        return f'- heading "Page {t}-{i}" [level=1]\n- paragraph: moved\n'
    s = "- main:\n" + "".join(f"  - listitem: item {line}\n" for line in range(12))
    s += f"  - status: thread {t} call {i}\n"
    if i % 3 == 0:
        s += "  - alert: saved\n"
    return s


def test_eight_threads_ten_thousand_calls_on_own_and_shared_keys() -> None:
    """8 threads x 10,000 calls on their own key and 10,000 on one shared
    key, at once; every result equals compare_texts on the text the call
    replaced, and the shared key's calls form one clean sequence."""
    detector = rd.ResponseDiffDetector()
    options = rd.DiffOptions(enabled=True)
    barrier = threading.Barrier(THREADS)

    def work(t: int) -> tuple[list[rd.DiffResult], list[rd.DiffResult]]:
        own, shared = [], []
        barrier.wait()
        for i in range(CALLS):
            text = conc_page(t, i)
            own.append(detector.detect(f"tab-{t}", text, options))
            shared.append(detector.detect("shared", text, options))
        return own, shared

    with ThreadPoolExecutor(THREADS) as pool:
        seen = list(pool.map(work, range(THREADS)))

    def same(got: rd.DiffResult, want: rd.DiffResult, where: str) -> None:
        assert got.to_dict() == want.to_dict(), where

    for t, (own, _) in enumerate(seen):
        previous = None
        for i, got in enumerate(own):
            text = conc_page(t, i)
            same(got, rd.compare_texts(previous, text, options), f"thread {t} call {i}, own key")
            previous = text

    by_hash = {
        rd.compare_texts(None, conc_page(t, i)).metadata.current_hash: (t, i)
        for t in range(THREADS)
        for i in range(CALLS)
    }
    assert len(by_hash) == THREADS * CALLS, "every text is distinct"
    replaced: set[str] = set()
    firsts = 0
    modes: dict[str, int] = {}
    for t, (_, shared) in enumerate(seen):
        for i, got in enumerate(shared):
            h = got.metadata.previous_hash
            previous = None
            if h is None:
                firsts += 1
            else:
                assert h in by_hash, f"thread {t} call {i} replaced a text nobody sent"
                assert h not in replaced, f"text {by_hash[h]} replaced twice"
                replaced.add(h)
                previous = conc_page(*by_hash[h])
            same(got, rd.compare_texts(previous, conc_page(t, i), options), f"thread {t} call {i}, shared key")
            modes[got.mode] = modes.get(got.mode, 0) + 1
    assert firsts == 1
    assert len(replaced) == THREADS * CALLS - 1
    last = detector.previous("shared")
    assert last is not None
    assert rd.compare_texts(None, last).metadata.current_hash not in replaced
    assert {"first", "diff", "full"} <= set(modes), modes
    assert len(detector) == THREADS + 1
