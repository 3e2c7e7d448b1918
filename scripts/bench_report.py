#!/usr/bin/env python3
"""The benchmark report (`make bench`): reads the JSON results the benchmark
steps wrote to bench-out/ (and criterion's estimates under the target
directory), writes docs/bench/README.md and its PNG plots.

    bench_report.py machine  > bench-out/machine.json   # at the start of the run
    bench_report.py report [--target DIR] [--out docs/bench]

Needs matplotlib (scripts/bench-report.sh makes a venv with the pinned
versions in scripts/bench/requirements.txt). Exits 1 when a result file is
missing, naming it and the make target that writes it.
"""
import datetime
import glob
import json
import os
import platform
import subprocess
import sys

from bench_sections import (
    app_bars,
    app_sections,
    cli_vs_gnu_bars,
    conformance_section,
    fingerprint_corpus,
    floors_section,
    fmt_ns,
    need,
    pct_fewer,
    python_adapters_section,
    sizes_section,
    table,
    tasks_section,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_OUT = os.path.join(ROOT, "bench-out")
SIZES = ["2KB", "20KB", "200KB", "2.6MB"]
SIZE_BYTES = {"2KB": 2_000, "20KB": 20_000, "200KB": 200_000, "2.6MB": 2_600_000}
CHANGES = ["one_line", "scattered_1pct", "block_inserted", "refs_renumbered", "different_page"]
# The large size of the detector bench and the CLI comparison (core/benches/inputs: LARGE).
LARGE = ("7MB", ["one_line", "scattered_1pct", "different_page"])


def run(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr).strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def machine():
    cpu = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    os_name = None
    try:
        with open("/etc/os-release") as f:
            kv = dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
            os_name = kv.get("PRETTY_NAME", "").strip('"')
    except OSError:
        pass
    mem = None
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = f"{kib / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    chromium = run(["/usr/lib/chromium/chromium", "--version"]) or run(["chromium", "--version"])
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "loadavg": list(os.getloadavg()),
        "os": os_name,
        "kernel": platform.release(),
        "rustc": run(["rustc", "--version"]),
        "node": run(["node", "--version"]),
        "chromium": chromium,
        "python": platform.python_version(),
    }


# ------------------------------------------------------------------ inputs


def criterion(target_dir):
    """{full_id: median ns} for every criterion benchmark under target/criterion."""
    out = {}
    for est in glob.glob(os.path.join(target_dir, "criterion", "**", "new", "estimates.json"), recursive=True):
        bench = os.path.join(os.path.dirname(est), "benchmark.json")
        try:
            with open(est) as f:
                median = json.load(f)["median"]["point_estimate"]
            with open(bench) as f:
                b = json.load(f)
        except (OSError, KeyError, ValueError):
            continue
        out[b["full_id"]] = {"group": b.get("group_id"), "function": b.get("function_id"), "ns": median}
    return out


def report(target_dir, out_dir):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = need(os.path.join(BENCH_OUT, "machine.json"), "make bench")
    session = need(os.path.join(BENCH_OUT, "session.json"), "make token-bench")
    node = need(os.path.join(BENCH_OUT, "node.json"), "make node-bench")
    memory = need(os.path.join(BENCH_OUT, "memory.json"), "make bench")
    cli_path = os.path.join(BENCH_OUT, "cli.json")
    cli = json.load(open(cli_path)) if os.path.exists(cli_path) else None
    cli_bars = cli_vs_gnu_bars(cli)
    crit = criterion(target_dir)
    if not crit:
        sys.exit(f"bench_report: no criterion results under {target_dir}/criterion; run `make bench`.")
    with open(os.path.join(BENCH_OUT, "criterion.json"), "w") as f:
        json.dump(crit, f, indent=1, sort_keys=True)
    os.makedirs(out_dir, exist_ok=True)
    md = []
    load = m["loadavg"]
    noisy = load[0] > 0.5 * (m["cores"] or 1)

    # -------------------------------------------------- tokens
    configs = {c["id"]: c for c in session["configs"]}
    order = [c for c in ["ours-full", "ours-filtered", "ours-diff", "ours-diff-lines", "playwright-mcp", "fast", "fast-diff"] if c in configs]
    if not {"ours-full", "ours-diff"} <= set(order):
        sys.exit("bench_report: session.json lacks the ours-full or ours-diff configuration; run `make token-bench` without --only.")
    steps = session["steps"]

    def step_tokens(cid, with_files=True):
        return [r["tokens"] + (r.get("fileTokens", 0) if with_files else 0) for r in configs[cid]["rows"]]

    totals = {cid: sum(step_tokens(cid)) for cid in order}
    pw_response_only = sum(step_tokens("playwright-mcp", False)) if "playwright-mcp" in configs else None
    full = totals["ours-full"]
    ours = totals["ours-diff"]
    preserved = [r.get("preserved") for r in configs["ours-diff"]["rows"]]
    # Every configuration that was checked must have kept everything.
    checked = {cid: [r.get("preserved") for r in configs[cid]["rows"]] for cid in order if any("preserved" in r for r in configs[cid]["rows"])}
    all_preserved = all(p is True for ps in checked.values() for p in ps)

    # plot: tokens per step
    fig, ax = plt.subplots(figsize=(11, 5.2))
    styles = {"ours-full": ("#1f77b4", "--"), "ours-filtered": ("#1f77b4", ":"), "ours-diff": ("#1f77b4", "-"), "ours-diff-lines": ("#17becf", "-"),
              "playwright-mcp": ("#2ca02c", "-"), "fast": ("#d62728", "-"), "fast-diff": ("#d62728", "--")}
    xs = list(range(1, len(steps) + 1))
    for cid in order:
        color, ls = styles.get(cid, (None, "-"))
        label = configs[cid]["label"] + (" (response + linked snapshot file)" if cid == "playwright-mcp" else "")
        ax.plot(xs, step_tokens(cid), ls, color=color, marker="o", markersize=3, linewidth=2 if cid == "ours-diff" else 1.2, label=label)
    ax.set_xlabel("step")
    ax.set_ylabel("o200k tokens in the response")
    ax.set_yscale("log")
    ax.set_xticks(xs)
    ax.set_title("Tokens per step, the same scripted session through each server")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "tokens-per-step.png"), dpi=110)
    plt.close(fig)

    # -------------------------------------------------- diff speed (criterion + node)
    def c_ns(group, fn):
        e = crit.get(f"{group.replace('_', '/', 1)}/{fn}")
        return e["ns"] if e else None

    rust_rows = []
    slowest = (0.0, None)
    for size, change in [(s, c) for s in SIZES for c in CHANGES] + [(LARGE[0], c) for c in LARGE[1]]:
        g = f"{size}_{change}"
        d = c_ns(g, "detector")
        # The 10 ms bar is for inputs up to 2.6 MB (docs/DECISIONS.md D25).
        if d is not None and d > slowest[0] and size in SIZES:
            slowest = (d, f"{size} {change}")
        rust_rows.append((size, change, d, c_ns(g, "engine"), c_ns(g, "similar_lines"), c_ns(g, "imara_histogram"), c_ns(g, "floor")))
    rust_complete = all(r[2] is not None for r in rust_rows)
    # Issue 28: a one-line change costs at most 3x the floor, at 2.6 MB and 7 MB.
    one_line_floor = [(r[0], r[2] / r[6]) for r in rust_rows if r[1] == "one_line" and r[0] in ("2.6MB", LARGE[0]) and r[2] and r[6]]

    def node_ns(runner, size, change):
        for r in node["rows"]:
            if r["runner"] == runner and r["input"] == size and r["change"] == change:
                if r.get("timeout"):
                    return float("inf")
                return r.get("ns")
        return None

    cap = node["capSeconds"]
    node_rows = []
    addon_vs_fd = []
    for size in SIZES:
        for change in CHANGES:
            det = node_ns("detect", size, change)
            fd = node_ns("fast-diff", size, change)
            ratio = (fd / det) if det and fd is not None else None
            addon_vs_fd.append((size, change, ratio, det, fd))
            node_rows.append((size, change, det, node_ns("compare", size, change), node_ns("floor", size, change), fd,
                              node_ns("jsdiff", size, change), node_ns("diff-match-patch", size, change), ratio,
                              node_ns("compat", size, change), node_ns("fpm", size, change)))
    finite = [r for r in addon_vs_fd if r[2] is not None and r[2] != float("inf")]
    min_ratio = min(finite, key=lambda r: r[2]) if finite else None
    # The drop-in (compat detectDiff) against what it replaces, fast-playwright-mcp's whole detector.
    dropin = [(s, c, node_ns("compat", s, c), node_ns("fpm", s, c)) for s in SIZES for c in CHANGES]
    dropin_measured = [r for r in dropin if r[2] is not None and r[3] is not None]
    dropin_faster = [r for r in dropin_measured if r[2] < r[3]]

    fig, axes = plt.subplots(1, len(CHANGES), figsize=(18, 4.6), sharey=True)
    series = [("Rust: detector", lambda s, c: c_ns(f"{s}_{c}", "detector"), "#1f77b4", "-"),
              ("Rust: similar (lines, no trim)", lambda s, c: c_ns(f"{s}_{c}", "similar_lines"), "#9467bd", "--"),
              ("Rust: imara-diff Histogram", lambda s, c: c_ns(f"{s}_{c}", "imara_histogram"), "#8c564b", "--"),
              ("Node: addon detect", lambda s, c: node_ns("detect", s, c), "#17becf", "-"),
              ("Node: crossing floor (text in, no work)", lambda s, c: node_ns("floor", s, c), "#7f7f7f", ":"),
              ("Node: fast-diff", lambda s, c: node_ns("fast-diff", s, c), "#d62728", "-"),
              ("Node: jsdiff diffLines", lambda s, c: node_ns("jsdiff", s, c), "#ff7f0e", ":"),
              ("Node: diff-match-patch", lambda s, c: node_ns("diff-match-patch", s, c), "#2ca02c", ":")]
    for ax, change in zip(axes, CHANGES):
        for label, get, color, ls in series:
            pts = [(SIZE_BYTES[s], get(s, change)) for s in SIZES]
            pts = [(x, (cap * 1e9 if y == float("inf") else y) / 1e6) for x, y in pts if y is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], ls, color=color, marker="o", markersize=3, label=label)
        ax.axhline(10, color="grey", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(change, fontsize=10)
        ax.set_xlabel("input bytes")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("median ms per call")
    axes[-1].legend(fontsize=7, loc="upper left")
    fig.suptitle(f"Diff time against input size, per kind of change (log-log; grey line: 10 ms; a Node peer that timed out is drawn at its {cap} s cap)")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "diff-time.png"), dpi=100)
    plt.close(fig)

    # -------------------------------------------------- tree diff, fingerprint
    tree = {k: v for k, v in crit.items() if v["group"] in ("tree_diff_10k_1pct", "aria_10k", "aria")}
    patch_ns = crit.get("aria/snapshot_patch_at_the_cap", {}).get("ns")
    fp = {k: v for k, v in crit.items() if k.startswith("fingerprint") or k.startswith("normalize_text")}
    tree_diff_ns = max((v["ns"] for k, v in tree.items() if k.startswith("tree_diff_10k_1pct/") and "blake3" not in k), default=None)
    fp_md_path = os.path.join(BENCH_OUT, "fingerprint-speed.md")
    fp_md = open(fp_md_path).read().strip() if os.path.exists(fp_md_path) else None
    fp_2000 = None
    if fp_md:
        for line in fp_md.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) > 4 and cells[1].isdigit() and 1_900 <= int(cells[1]) <= 2_100 and cells[2].lower() == "standard":
                try:
                    fp_2000 = max(float(cells[3]), float(cells[4]))
                except ValueError:
                    pass

    corpus_md, corpus_bars = fingerprint_corpus()
    fp_server_path = os.path.join(BENCH_OUT, "fingerprint-server.json")
    fp_server = json.load(open(fp_server_path)) if os.path.exists(fp_server_path) else None

    # -------------------------------------------------- bars
    red = pct_fewer(ours, full)
    app_md, app_summary = app_sections(out_dir, plt)
    floors_md, floor_bars = floors_section(BENCH_OUT)
    bars = [
        ("≥ 80 % fewer tokens than full responses (diffOptions + since vs defaults)", f"{red:.1f} % fewer ({ours:,} vs {full:,})", red >= 80),
        ("Shop session with diffOptions + since ≤ 6,000 tokens", f"{ours:,} tokens", ours <= 6000),
        *app_bars(app_summary, os.path.join(BENCH_OUT, "conformance.json")),
        *floor_bars,
        ("Information preserved at every step (previous + diff = full snapshot)", "; ".join(f"{cid}: {sum(1 for p in ps if p)} of {len(ps)} steps" for cid, ps in checked.items()), all_preserved),
        ("Every response diff under 10 ms (criterion, 2 KB – 2.6 MB, five change kinds)",
         f"slowest {fmt_ns(slowest[0])} ({slowest[1]})" + ("" if rust_complete else "; some inputs missing"), rust_complete and slowest[0] < 10e6),
        ("A snapshot patch (parse both, diff the trees, check) under 10 ms at its size cap (128 KiB)",
         fmt_ns(patch_ns) if patch_ns else "not measured", bool(patch_ns and patch_ns < 10e6)),
        ("One-line change within 3× of the floor (compare + split lines), 2.6 MB and 7 MB (issue 28)",
         "; ".join(f"{s}: {x:.1f}×" for s, x in one_line_floor) or "not measured",
         len(one_line_floor) == 2 and all(x <= 3 for _, x in one_line_floor)),
        ("From Node, the drop-in's `detectDiff` faster than fast-playwright-mcp's whole detector on every input",
         f"{len(dropin_faster)} of {len(dropin)} inputs" if dropin_measured else "not measured",
         bool(dropin_measured) and len(dropin_faster) == len(dropin)),
        *cli_bars,
        ("Tree diff of two 10,000-element trees under 10 ms", fmt_ns(tree_diff_ns) + " (slowest variant)" if tree_diff_ns else "not measured", bool(tree_diff_ns and tree_diff_ns < 10e6)),
        ("Fingerprint extraction on a 2,000-element page under 30 ms (in the page)", f"{fp_2000} ms (worse of clean/dirty medians)" if fp_2000 is not None else "not measured", fp_2000 is not None and fp_2000 < 30),
        ("Fingerprint capture + compare through the MCP server on a 2,000-element page under 200 ms",
         (f"{fp_server['captureAndCompareMedianMs']:.1f} ms median of {fp_server['runs']} on {fp_server['elements']:,} elements "
          f"(max {fp_server['captureAndCompareMaxMs']:.1f} ms; capture alone {fp_server['captureMedianMs']:.1f} ms)") if fp_server else "not measured",
         bool(fp_server and fp_server["captureAndCompareMedianMs"] < 200)),
        *corpus_bars,
        ("Stored responses never above the cap (1,000 keys, 10 MiB)", f"peak {memory['peakMemoryUsage']:,} B of {memory['capBytes']:,} B", memory["callsOverCap"] == 0 and memory["peakMemoryUsage"] <= memory["capBytes"]),
    ]

    # -------------------------------------------------- write
    v = session["versions"]
    md.append("# Benchmarks\n")
    md.append(f"Generated by `make bench` on {m['date']}; regenerate with the same command (it installs the peers itself). "
              "Raw results: `bench-out/*.json` (not committed).\n")
    md.append("## Machine\n")
    md.append(table(["", ""], [
        ["CPU", f"{m['cpu']} ({m['cores']} cores)"], ["memory", m["memory"]],
        ["load average at start", " / ".join(f"{x:.2f}" for x in load) + (" — **high: other work was running, timings are noisy**" if noisy else "")],
        ["OS", f"{m['os']} (kernel {m['kernel']})"], ["rustc", m["rustc"]], ["node", m["node"]], ["chromium", m["chromium"]],
        ["peers", f"@playwright/mcp {v['@playwright/mcp']}, @tontoko/fast-playwright-mcp {v['@tontoko/fast-playwright-mcp']}, MCP client @modelcontextprotocol/sdk {v['@modelcontextprotocol/sdk']}"],
        ["tokenizer", f"{session['tokenizer']} {v['gpt-tokenizer']}"],
    ]))
    md.append("")
    md.append("## Headline\n")
    head = [f"- **{red:.1f} % fewer tokens** than full responses over the {len(steps)}-step session "
            f"({ours:,} tokens with diffOptions + `since` vs {full:,} with defaults), and every step's state rebuilt from "
            f"previous + diff equals the full snapshot ({sum(1 for p in preserved if p)}/{len(preserved)})."]
    if "ours-diff-lines" in totals:
        head.append(f"- With line diffs only (`snapshotOptions.diff: \"lines\"`, unified with 3 context lines, as before snapshot patches): "
                    f"{pct_fewer(totals['ours-diff-lines'], full):.1f} % fewer than full ({totals['ours-diff-lines']:,} tokens).")
    for cid in ["playwright-mcp", "fast", "fast-diff"]:
        if cid in totals:
            extra = f" ({pw_response_only:,} counting only its responses, which link the snapshot file instead of showing it)" if cid == "playwright-mcp" else ""
            head.append(f"- {pct_fewer(ours, totals[cid]):.1f} % fewer than {configs[cid]['label']}: {totals[cid]:,} tokens{extra}.")
    if slowest[0]:
        under = slowest[0] < 10e6
        head.append(f"- Slowest response diff: {fmt_ns(slowest[0])} ({slowest[1]}), "
                    + (f"{10e6 / slowest[0]:.1f}× under the 10 ms bar." if under else f"{slowest[0] / 10e6:.1f}× over the 10 ms bar "
                       f"({sum(1 for r in rust_rows if r[2] is not None and r[2] >= 10e6)} of {len(rust_rows)} inputs over)."))
    else:
        head.append("- Response diff: not measured.")
    if one_line_floor:
        head.append("- A one-line change costs " + " and ".join(f"{x:.1f}× the floor at {s}" for s, x in one_line_floor)
                    + " (reading both texts, comparing them and splitting them into lines).")
    if cli:
        head.append("- The CLI against GNU `diff -u`, whole processes on 7 MB texts: "
                    + "; ".join(f"{r['label']} {r['ratio']:.2f}× its time" for r in cli["rows"]) + ".")
    md.extend(head)
    md.append("")
    md.append("## Bars (docs/DECISIONS.md D25)\n")
    md.append(table(["bar", "measured", "met"], [[b, val, "met" if ok else "**not met**"] for b, val, ok in bars]))
    md.append("")

    md.append("## 1. Token savings\n")
    md.append("One scripted session of user intents (navigate, click the element named X, type into Y; a list that grows, "
              "a modal, an error banner, a navigation, a form) written once in `bench/session.mjs` and run through each server "
              "over stdio with the official MCP client; the pages are the bundled site (`tests/fixtures/site`) served from one "
              "127.0.0.1 server, the browser is Debian's chromium for every server. Each intent is resolved to the server's own "
              "ref from the latest snapshot the agent has seen (or, when that response showed no snapshot, from one taken out of "
              "band and not counted). Counted: the o200k tokens of every response's text content.\n")
    md.append("Configurations:\n")
    md.append("- **response-diff, defaults**: no expectation — the full response, as a server without response-diff returns it.\n"
              "- **response-diff, expectation filtering**: `includeCode: false`, console errors and warnings only, and the snapshot "
              "scoped to the cart (`snapshotOptions.selector`) on the steps where the agent knows that is the region that changes.\n"
              "- **response-diff, diffOptions + since**: the same filtering without the scope, `diffOptions.enabled`, and the "
              "explicit read (step 8) as `browser_snapshot` with `since` the last read's ts. The snapshot's changes come as a "
              "snapshot patch by ref (removed refs, changed elements as they are now, added subtrees with where they go) when "
              "that rebuilds the page exactly and is shorter than the line diff; otherwise as a unified diff (3 context lines).\n"
              "- **response-diff, line diffs only**: the same with `snapshotOptions.diff: \"lines\"`: always the unified diff.\n"
              "- **@playwright/mcp, defaults**: this version writes the snapshot of an action's response to a file and links it; "
              "the agent must read that file to see the page, so the table counts response + file (the plot too).\n"
              "- **fast-playwright-mcp, snapshot on**: its expectation defaults every section off (an empty response), so the agent "
              "asks for `includeSnapshot: true`; **with diffOptions**: also `diffOptions.enabled`.\n")
    md.append(f"![tokens per step](tokens-per-step.png)\n")
    hdr = ["#", "step"] + [configs[c]["label"] for c in order] + ["diff: how rebuilt", "preserved (" + " / ".join(checked) + ")"]
    rows = []
    for i, label in enumerate(steps):
        r = [i + 1, label]
        for cid in order:
            row = configs[cid]["rows"][i]
            cell = f"{row['tokens']:,}"
            if row.get("fileTokens"):
                cell += f" + {row['fileTokens']:,}"
            r.append(cell)
        d = configs["ours-diff"]["rows"][i]
        r += [d.get("rebuiltHow", ""), " / ".join("✓" if configs[c]["rows"][i].get("preserved") else "✗" for c in checked)]
        rows.append(r)
    rows.append(["", "**total**"] + [f"**{totals[c]:,}**" for c in order] + ["", ""])
    rows.append(["", "**diff+since: fewer tokens**"] + [f"{pct_fewer(ours, totals[c]):.1f} %" if c != "ours-diff" else "" for c in order] + ["", ""])
    rows.append(["", "tool catalog (tools/list JSON)"] + [f"{configs[c]['catalogTokens']:,} ({configs[c]['toolCount']} tools)" for c in order] + ["", ""])
    md.append(table(hdr, rows, ["---:", "---"] + ["---:"] * len(order) + ["---", "---"]))
    md.append("\n*a + b*: the response, plus the snapshot file it links. *preserved*: after each step, the state the agent "
              "rebuilds from its previous view plus the response (a unified diff applied strictly by `bench/reconstruct.mjs`, a "
              "snapshot patch by the server binary's `apply-patch`) "
              "equals a full snapshot taken out of band with diff off (which moves no diff state); any ✗ fails `make bench`.\n")

    fulls = [r for r in configs["ours-diff"]["rows"] if str(r.get("rebuiltHow", "")).startswith(("first", "full"))]
    md.append(f"Where the diff configuration's tokens go: {sum(r['tokens'] for r in fulls):,} of its {ours:,} are the "
              f"{len(fulls)} steps that had to show a whole page (the first read, a new page, or a change so large that a diff "
              f"would not be smaller: steps {', '.join(str(r['step']) for r in fulls)}); the other {len(steps) - len(fulls)} steps "
              f"cost {ours - sum(r['tokens'] for r in fulls):,} tokens, {(ours - sum(r['tokens'] for r in fulls)) / max(1, len(steps) - len(fulls)):.0f} a step. "
              f"{sum(1 for r in configs['ours-diff']['rows'] if 'patch' in str(r.get('rebuiltHow', '')))} of them are snapshot patches.\n")
    last_ours = configs["ours-full"]["rows"][-1]["tokens"]
    last_peer = configs["fast"]["rows"][-1]["tokens"] if "fast" in configs else None
    if last_peer and last_ours < 0.6 * last_peer:
        md.append(f"Step {len(steps)} (back to the shop): our server's Chromium restores the filtered list from the back/forward cache "
                  f"({last_ours:,} tokens in full), while the Playwright-based peers show the whole list again ({last_peer:,}), so that "
                  "step is cheaper for all our configurations than for the peers; the other steps show the same pages. "
                  "In the diff configurations that step is a patch or diff against the agent's last view of the same URL (the "
                  "search results of step 10), not a whole page: the server keeps each URL's last snapshot, and the rebuild check "
                  "applies it to that view.\n")
    md.append("## 2. Diff speed\n")
    md.append("Same generated inputs (Playwright-style aria snapshots, `core/benches/inputs`, ported byte for byte to "
              "`bindings/node/bench/inputs.mjs`), 2 KB to 2.6 MB, five kinds of change. Criterion medians (shortened runs: "
              "see the Makefile's `BENCH_CRITERION`).\n")
    md.append("![diff time against input size](diff-time.png)\n")
    md.append("### Rust: the detector against similar and imara-diff\n")
    md.append(table(["input", "change", "detector (end to end)", "engine", "floor (compare + split lines)", "detector / floor", "similar lines", "imara-diff Histogram", "detector / similar", "detector / imara", "< 10 ms"],
                    [[s, c, fmt_ns(d), fmt_ns(e), fmt_ns(fl), f"{d / fl:.1f}×" if d and fl else "–", fmt_ns(si), fmt_ns(im),
                      f"{d / si:.2f}×" if d and si else "–", f"{d / im:.2f}×" if d and im else "–",
                      ("yes" if d is not None and d < 10e6 else "**no**") if s in SIZES else "(no bar)"] for s, c, d, e, si, im, fl in rust_rows],
                    ["---", "---"] + ["---:"] * 9))
    md.append("\n*floor*: what any line diff of the two texts pays, timed on the same inputs in the same run: compare them "
              "from the front and from the back (`memcmp`, each stopping at its first difference) and split both into lines "
              "(`memchr`). *detector / similar* below 1× means the detector is faster (the reference crates are not run at "
              "7 MB, where they take seconds). The detector trims the common prefix and suffix as bytes, hashes and interns "
              "only the lines between, and runs a line diff bounded by work (imara-diff's Myers with GNU diff's cost limit), "
              "not by time; the whole-text hashes of its metadata are computed only when read (docs/DECISIONS.md D35). "
              "These are wall-clock medians: on a busy machine they include time spent waiting for a core.\n")
    cpu_path = os.path.join(BENCH_OUT, "detector-cpu.md")
    if os.path.exists(cpu_path):
        md.append("### Rust: the detector's CPU time per call\n")
        md.append("`cargo run --release -p response-diff --example detector_cpu`: the calling thread's own CPU clock around each "
                  "`detect` on the same inputs, which does not count time spent waiting for a core, so it holds on a busy "
                  "machine. The 10 ms bar (docs/LIMITS.md) is read from this table.\n")
        md.append(open(cpu_path).read().strip() + "\n")
    if cli:
        md.append("### The CLI against GNU `diff -u`, whole processes\n")
        md.append(f"`scripts/cli_vs_gnu.py` (`make cli-bench`): `response-diff diff OLD NEW` and `{cli.get('gnuDiff', 'diff')}`'s "
                  "`diff -u OLD NEW` on the same files (the bench's generator at 7 MB, `core/examples/bench_inputs.rs`), output "
                  f"to /dev/null, in {cli['rows'][0]['pairs']} alternating pairs after a warm-up pair; wall time medians, the "
                  "ratio is the median of the pairs' ratios; peak memory is the largest of GNU time's `%M` (maximum resident "
                  "set size) over a second run of each pair. `cmp` and `cat` read the same two files as whole processes.\n")
        md.append(table(["change", "ours", "GNU `diff -u`", "ours ÷ GNU", "peak memory, ours", "peak memory, GNU", "`cmp`", "`cat` both"],
                        [[f"{r['label']} ({r['bytes'] / 1e6:.1f} MB, {r['lines']:,} lines)", fmt_ns(r["oursS"] * 1e9), fmt_ns(r["gnuS"] * 1e9),
                          f"{r['ratio']:.2f}", f"{r['oursPeakKiB'] / 1024:.1f} MiB", f"{r['gnuPeakKiB'] / 1024:.1f} MiB",
                          fmt_ns(r["cmpS"] * 1e9), fmt_ns(r["catS"] * 1e9)] for r in cli["rows"]],
                        ["---"] + ["---:"] * 7))
        md.append("\nOur peak memory counts the pages of the two inputs it has mapped (the page cache's, shared with every "
                  "other reader; the CLI drops the files' common start and end block by block once compared) and about 5.5 MiB "
                  "of our binary's and libc's own pages; GNU diff's counts its private copies of both files and about 1.7 MiB "
                  "of its own.\n")
    md.append("### Node: the addon against fast-diff, jsdiff and diff-match-patch\n")
    md.append(f"Median per call from JavaScript, the texts crossing into the addon and the result coming back included; each "
              f"measurement in its own process; a peer call still running after {cap} s is reported as a timeout.\n")
    def capped(ns):
        return f"> {cap} s" if ns == float("inf") else fmt_ns(ns)
    md.append(table(["input", "change", "addon `detect`", "addon `compareTexts`", "crossing floor", "fast-diff", "jsdiff `diffLines`", "diff-match-patch", "addon vs fast-diff",
                     "drop-in `detectDiff`", "fast-playwright-mcp `detectDiff`", "drop-in vs fast-playwright-mcp"],
                    [[s, c, fmt_ns(d), fmt_ns(cm), fmt_ns(fl), capped(fd), capped(js), capped(dm),
                      ("faster (fast-diff timed out)" if r == float("inf") else f"{r:.1f}× {'faster' if r > 1 else 'slower'}") if r is not None else "–",
                      capped(co), capped(fp),
                      ("faster (theirs timed out)" if fp == float("inf") else f"{fp / co:.1f}× {'faster' if co < fp else '**slower**'}") if co and fp else "–"]
                     for s, c, d, cm, fl, fd, js, dm, r, co, fp in node_rows],
                    ["---", "---"] + ["---:"] * 10))
    floor_not_faster = [(s, c) for s, c, d, cm, fl, fd, js, dm, r, co, fp in node_rows if fl is not None and fd is not None and fl >= fd]
    md.append("\n*Crossing floor*: `estimateTokens(text)`, which converts the new text into the addon exactly as `detect` does "
              "and does nothing else. Any addon that reads the text pays at least this. "
              f"On {len(floor_not_faster)} of {len(node_rows)} inputs the floor alone is no faster than fast-diff's whole call "
              "(fast-diff compares V8's strings in place when only a prefix and suffix need trimming), so there no addon can beat it: "
              + (", ".join(f"{s} {c}" for s, c in floor_not_faster) or "none") + ". fast-diff is a character diff, shown for "
              "reference; the bar is the drop-in against what it replaces, fast-playwright-mcp's whole detector (fast-diff "
              "included), with the options their session uses.\n")
    md.append("")

    md.append("## 3. Tree diff and fingerprint\n")
    md.append(table(["benchmark", "median"], [[k, fmt_ns(v["ns"])] for k, v in sorted(tree.items())] + [[k, fmt_ns(v["ns"])] for k, v in sorted(fp.items())], ["---", "---:"]))
    md.append("")
    if fp_md:
        md.append(fp_md.replace("## DOM fingerprint extraction time, in the page", "### DOM fingerprint extraction time, in the page"))
        md.append("")
    if corpus_md:
        md.append(corpus_md)
        md.append("")
    md.append("## 4. Memory\n")
    md.append(f"`core/examples/memory.rs`: {memory['keys']:,} keys, each given a {memory['bytesPerText']:,}-byte snapshot and then a "
              f"changed one ({memory['bytesFed'] / 1e6:.1f} MB through a detector capped at {memory['capBytes']:,} bytes).\n")
    hwm_b = memory.get("vmHwmKibBefore")
    hwm_a = memory.get("vmHwmKibAfter")
    md.append(table(["", ""], [
        ["detector `memory_usage()` at its highest", f"{memory['peakMemoryUsage']:,} B ({memory['peakMemoryUsage'] / 2**20:.2f} MiB)"],
        ["calls that left it above the cap", memory["callsOverCap"]],
        ["keys still stored at the end (least recently used went first)", f"{memory['storedKeys']:,}"],
        ["peak RSS (VmHWM) before / after", f"{hwm_b / 1024:.1f} MiB / {hwm_a / 1024:.1f} MiB" if hwm_b and hwm_a else "not available"],
        ["time for all calls", f"{memory['seconds']:.2f} s"],
    ]))
    md.append("")
    md.extend(sizes_section())
    md.extend(app_md)
    md.extend(conformance_section(BENCH_OUT))
    md.extend(tasks_section(BENCH_OUT))
    md.extend(floors_md)
    md.extend(python_adapters_section(BENCH_OUT))
    md.append("## Closing note\n")
    md.append(" ".join([
        f"Over {len(steps)} steps the diff configuration sent {ours:,} tokens where full responses cost {full:,} ({red:.1f} % fewer"
        + "".join(f"; {pct_fewer(ours, totals[c]):.1f} % fewer than {configs[c]['label']}" for c in ["playwright-mcp", "fast", "fast-diff"] if c in totals) + ")",
        f"without losing information ({sum(1 for p in preserved if p)}/{len(preserved)} steps rebuilt exactly).",
        f"The slowest response diff took {fmt_ns(slowest[0])} ({slowest[1]})." if slowest[0] else "",
        (f"From Node the drop-in beat fast-playwright-mcp's detector on {len(dropin_faster)} of {len(dropin)} inputs." if dropin_measured else ""),
        f"Bars met: {sum(1 for b in bars if b[2])} of {len(bars)}." + (" Load average at start was high; rerun on a quiet machine for publishable timings." if noisy else ""),
    ]))
    md.append("")
    with open(os.path.join(out_dir, "README.md"), "w") as f:
        f.write("\n".join(md))
    print(f"wrote {os.path.relpath(os.path.join(out_dir, 'README.md'), ROOT)}, tokens-per-step.png, diff-time.png; "
          f"bars met {sum(1 for b in bars if b[2])}/{len(bars)}")
    return 0 if all_preserved else 1


def main(argv):
    if len(argv) >= 2 and argv[1] == "machine":
        print(json.dumps(machine(), indent=1))
        return 0
    if len(argv) >= 2 and argv[1] == "report":
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        out = os.path.join(ROOT, "docs", "bench")
        args = argv[2:]
        while args:
            if args[0] == "--target" and len(args) > 1:
                target, args = args[1], args[2:]
            elif args[0] == "--out" and len(args) > 1:
                out, args = args[1], args[2:]
            else:
                sys.exit(f"bench_report: unknown argument {args[0]!r}; usage: bench_report.py report [--target DIR] [--out DIR]")
        return report(target, out)
    sys.exit("usage: bench_report.py machine > bench-out/machine.json | bench_report.py report [--target DIR] [--out DIR]")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
