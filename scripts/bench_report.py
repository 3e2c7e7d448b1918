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
import re
import subprocess
import sys

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

def need(path, target):
    if not os.path.exists(path):
        sys.exit(f"bench_report: {os.path.relpath(path, ROOT)} is missing; run `{target}` first (or the whole `make bench`).")
    with open(path) as f:
        return json.load(f)


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


# ------------------------------------------------------------------ format

def fmt_ns(ns):
    if ns is None:
        return "–"
    if ns == float("inf"):
        return "timeout"
    if ns >= 1e9:
        return f"{ns / 1e9:.2f} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def pct_fewer(part, whole):
    return 100.0 * (1 - part / whole) if whole else 0.0


def table(header, rows, align=None):
    align = align or ["---"] * len(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


# ------------------------------------------------------------------ app sessions (make app-bench)

APP_ORDER = ["ours-full", "ours-diff", "playwright-mcp", "fast", "fast-diff", "ab-delta", "ab-default"]


def run_total(r):
    return sum(x["tokens"] + x.get("fileTokens", 0) for x in r["rows"])


def run_churn(r):
    return sum(x.get("churn", {}).get("churned", 0) for x in r["rows"])


def run_rebuilt(r):
    """"n/m rebuilt", and how many of the misses the next step caught up (a response taken before the page had settled)."""
    rows = r["rows"]
    caught = sum(1 for i, x in enumerate(rows) if not x.get("preserved") and i + 1 < len(rows) and rows[i + 1].get("preserved"))
    return f"{sum(1 for x in rows if x.get('preserved'))}/{len(rows)}" + (f" ({caught} caught up next step)" if caught else "")


def todomvc_section(todo, out_dir, plt):
    """Section: the TodoMVC session per framework and configuration, with a plot. Returns (markdown lines, summary)."""
    md = []
    steps = todo["steps"]
    labels = {c["id"]: c["label"] for c in todo["configs"]}
    runs = {(r["framework"], r["id"]): r for r in todo["results"]}
    fws = todo["frameworks"]
    ids = [c for c in APP_ORDER if any((fw, c) in runs for fw in fws)]
    v = todo["versions"]
    md.append("## 5. Real apps: the TodoMVC session\n")
    md.append(f"`bench/todomvc.mjs`: one scripted todo session of {len(steps)} steps (add three todos, complete one, filter Active / "
              "Completed / All, edit one by double-click, hover and delete one, clear completed) on the TodoMVC implementations of "
              f"npm `todomvc` {v['todomvc']} ({', '.join(fws)}), served from 127.0.0.1, through each server on Debian's chromium. "
              "Each intent is resolved to the server's own ref from the agent's latest view (agent-browser's snapshots give no ref to "
              "a todo's label or its hidden delete button: there the step uses a CSS selector, as an agent using its selector "
              "support would). agent-browser (" + v["agent-browser"] + ", its MCP server) answers actions without the page, so each of "
              "its steps is the action plus a `snapshot` call, both counted; *delta* is `snapshot {delta: true, interactive: false}` "
              "(the same information as the others), *default* is `snapshot {}` (interactive elements only, no todo text). "
              "@playwright/mcp " + v["@playwright/mcp"] + " links its snapshot file: counted as response + file.\n")
    md.append("*Ref churn*: after every step a full snapshot is taken out of band (not counted); an element whose ancestors, own "
              "line and subtree are unchanged from the previous step's snapshot (refs aside) but whose ref changed counts once. "
              "*Rebuilt*: the agent's view rebuilt from its previous view plus the response equals that snapshot (for agent-browser's "
              "delta, its `treeChange` spliced in as its docs say). A step of ours that does not rebuild fails `make app-bench`. "
              "A response taken before the page had finished updating (an app that renders asynchronously) also shows as a miss, "
              "in the full-response configurations too, where no diff is involved; the agent keeps its rebuilt view, and when "
              "the next step rebuilds exactly the miss was such a late response, which the table counts as *caught up next step*.\n")
    skipped = sorted({r["id"] for r in todo["results"] if r.get("skipped")})
    for cid in skipped:
        md.append(f"- **{labels.get(cid, cid)}**: skipped — {next(r['skipped'] for r in todo['results'] if r['id'] == cid)}.")
    if skipped:
        md.append("")
    ran = [c for c in ids if any((fw, c) in runs and "rows" in runs[(fw, c)] for fw in fws)]
    hdr = ["framework"] + [labels.get(c, c) for c in ran]
    rows = []
    summary = {}
    for fw in fws:
        row = [fw]
        for c in ran:
            r = runs.get((fw, c))
            if not r or "rows" not in r:
                row.append("–")
                continue
            cell = f"{run_total(r):,} · churn {run_churn(r)} · {run_rebuilt(r)}"
            if r.get("error"):
                cell += f" · **stopped at step {len(r['rows']) + 1}**"
            row.append(cell)
        rows.append(row)
        d, f, a = runs.get((fw, "ours-diff")), runs.get((fw, "ours-full")), runs.get((fw, "ab-delta"))
        if d and f and "rows" in d and "rows" in f and not d.get("error"):
            summary[fw] = {"diff": run_total(d), "full": run_total(f), "ab": run_total(a) if a and "rows" in a and not a.get("error") else None,
                           "churn": run_churn(d), "rebuilt": run_rebuilt(d)}
    md.append("Per framework and configuration: total o200k tokens · ref churn (sum over steps) · steps rebuilt.\n")
    md.append(table(hdr, rows, ["---"] + ["---:"] * len(ran)))
    md.append("")
    if summary:
        md.append(table(["framework", "diff vs full", "diff vs agent-browser delta", "ref churn (diff)", "rebuilt (diff)"],
                        [[fw, f"{pct_fewer(x['diff'], x['full']):.1f} % fewer ({x['diff']:,} vs {x['full']:,})",
                          f"{pct_fewer(x['diff'], x['ab']):.1f} % fewer ({x['ab']:,})" if x["ab"] else "–", x["churn"], x["rebuilt"]]
                         for fw, x in summary.items()], ["---", "---:", "---:", "---:", "---:"]))
        md.append("\nIssue 15's bars for every framework: ≥ 85 % fewer than full, ≥ 50 % fewer than agent-browser's delta, churn 0, "
                  "every step rebuilt.\n")
    # per step, first framework that ran everything
    fw0 = next((fw for fw in fws if all((fw, c) in runs and "rows" in runs[(fw, c)] for c in ran)), fws[0])
    md.append(f"Per step on {fw0} (tokens; churn in brackets when not 0; ✗ where the view did not rebuild):\n")
    prow = []
    for i, label in enumerate(steps):
        row = [i + 1, label]
        for c in ran:
            r = runs.get((fw0, c))
            x = r["rows"][i] if r and "rows" in r and i < len(r["rows"]) else None
            if x is None:
                row.append("–")
                continue
            cell = f"{x['tokens']:,}" + (f" + {x['fileTokens']:,}" if x.get("fileTokens") else "")
            ch = x.get("churn", {}).get("churned", 0)
            cell += (f" ({ch})" if ch else "") + ("" if x.get("preserved") else " ✗")
            row.append(cell)
        prow.append(row)
    md.append(table(["#", "step"] + [labels.get(c, c) for c in ran], prow, ["---:", "---"] + ["---:"] * len(ran)))
    md.append("\n![TodoMVC tokens per framework](todomvc-totals.png)\n")
    # plot: grouped bars, total per framework per configuration
    fig, ax = plt.subplots(figsize=(12, 5))
    width = 0.8 / max(1, len(ran))
    colors = {"ours-full": "#aec7e8", "ours-diff": "#1f77b4", "playwright-mcp": "#2ca02c",
              "fast": "#d62728", "fast-diff": "#ff9896", "ab-delta": "#9467bd", "ab-default": "#c5b0d5"}
    for k, c in enumerate(ran):
        ys = [run_total(runs[(fw, c)]) if (fw, c) in runs and "rows" in runs[(fw, c)] and not runs[(fw, c)].get("error") else 0 for fw in fws]
        ax.bar([i + k * width for i in range(len(fws))], ys, width, label=labels.get(c, c), color=colors.get(c))
    ax.set_xticks([i + width * (len(ran) - 1) / 2 for i in range(len(fws))])
    ax.set_xticklabels(fws)
    ax.set_ylabel(f"o200k tokens over the {len(steps)}-step session")
    ax.set_title("TodoMVC session: tokens per framework and configuration (a missing bar: the run stopped)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "todomvc-totals.png"), dpi=100)
    plt.close(fig)
    return md, summary


def spa_wall_section(todo):
    """Section: wall time of the TodoMVC session (an SPA routing with #fragments) through ours and @playwright/mcp."""
    md = ["## 8. Wall time on a single-page app\n"]
    runs = {(r["framework"], r["id"]): r for r in todo["results"] if "rows" in r}
    ids = [c for c in ["ours-full", "ours-diff", "playwright-mcp"] if any(k[1] == c for k in runs)]
    md.append("The TodoMVC session above: its filters are `#/active`-style fragment links, the way single-page apps route. "
              "Wall time is the sum of the counted tool calls of each step (the out-of-band snapshots excluded), measured "
              "by the bench's MCP client with several runs sharing the machine (`--jobs`), so compare the columns, not the "
              "absolute values.\n")
    rows = []
    for fw in todo["frameworks"]:
        row = [fw]
        for c in ids:
            r = runs.get((fw, c))
            row.append(f"{sum(x['ms'] for x in r['rows']) / 1000:.1f} s" + (" (stopped)" if r.get("error") else "") if r else "–")
        fragment = runs.get((fw, ids[0])) if ids else None
        slow = [x for x in fragment["rows"] if x["ms"] > 10_000] if fragment else []
        row.append(", ".join(str(x["step"]) for x in slow) or "none")
        rows.append(row)
    md.append(table(["framework"] + [c for c in ids] + [f"steps over 10 s ({ids[0] if ids else ''})"], rows, ["---"] + ["---:"] * len(ids) + ["---"]))
    md.append("")
    return md


def expand_section(expand, ratios):
    """Section: the jsoneditor session (sections that expand by many lines), default vs very high maxDiffLines."""
    md = ["## 6. Sections that expand by many lines (jsoneditor)\n"]
    res = {r["id"]: r for r in expand["results"]}
    ids = [c for c in ["ours-full", "ours-diff", "ours-diff-maxlines"] if c in res]
    per = next((s["perStep"] for s in (ratios or {}).get("sessions", []) if s["name"].startswith("jsoneditor")), None)
    md.append(f"`bench/expand.mjs` on {expand['app']} (served from 127.0.0.1): load a document, expand and collapse all fields and "
              "single nodes. Every tree row is a table row of about fifteen aria lines, so several steps change more than 50 lines, "
              "today's default `maxDiffLines`. Changed lines: the unified diff between the step's full snapshot and the previous "
              "one (`bench/ratios.mjs`).\n")
    rows = []
    for i, label in enumerate(expand["steps"]):
        x = per[i] if per and i < len(per) else {}
        row = [i + 1, label, x["changedLines"] if "changedLines" in x else 0 if "unchanged" in x else "–"]
        for c in ids:
            x = res[c]["rows"][i] if i < len(res[c]["rows"]) else None
            row.append("–" if x is None else f"{x['tokens']:,}" + ("" if x.get("preserved") else " ✗") + (f" ({x['rebuiltHow']})" if c != "ours-full" else ""))
        rows.append(row)
    rows.append(["", "**total**", ""] + [f"**{run_total(res[c]):,}**" for c in ids])
    md.append(table(["#", "step", "changed lines"] + [res[c]["label"] for c in ids], rows, ["---:", "---", "---:"] + ["---:"] * len(ids)))
    if "ours-diff" in res and "ours-diff-maxlines" in res:
        d, m = run_total(res["ours-diff"]), run_total(res["ours-diff-maxlines"])
        md.append(f"\nDefault `maxDiffLines` against a very high one: {d:,} against {m:,} tokens ({100 * (d - m) / m:+.1f} %; "
                  "issue 20's bar: within 10 %). ✗: the view rebuilt from the response differs from the snapshot taken right after it.\n")
    return md


def grid_section(grid):
    """Section: the data-grid session (gridjs) per step, ours and the peers, with the floor. Returns (markdown, bars)."""
    md = ["## 9. A data grid (gridjs): sorts, paging, a filter, a larger page\n"]
    res = {r["id"]: r for r in grid["results"]}
    ids = [c for c in ["ours-diff", "ours-full", "playwright-mcp", "ab-delta"] if c in res]
    floor = res.get("ours-diff", {}).get("floor")
    md.append(f"`bench/grid.mjs` on {grid['app']}, served from 127.0.0.1: 60 people, 10 a page, sorted by a column three times, "
              "one cell changed in the re-sorted grid, paged forward twice, filtered and cleared, a row added, 40 rows a page, "
              "then an unchanged read. Tokens per step (o200k, whole responses; @playwright/mcp's linked snapshot file counted "
              "in). *floor*: the tokens of the snapshot lines (a line is known when shown before with the same ref, indentation aside) the agent had not been shown "
              "before in the session, which no lossless answer can leave out. *churn*: refs that changed on elements whose "
              "content did not, ours-diff / @playwright/mcp / agent-browser. *rebuilt*: whether the agent's view rebuilt from "
              "each response equals the snapshot taken right after it (✗ marks a peer's miss in its cell).\n")
    rows = []
    for i, label in enumerate(grid["steps"]):
        row = [i + 1, label, f"{floor[i]:,}" if floor else "–"]
        for c in ids:
            x = res[c]["rows"][i] if i < len(res[c]["rows"]) else None
            row.append("–" if x is None else f"{x['tokens'] + x.get('fileTokens', 0):,}" + ("" if x.get("preserved") or c == "ours-full" else " ✗"))
        churn = []
        for c in ["ours-diff", "playwright-mcp", "ab-delta"]:
            x = res[c]["rows"][i] if c in res and i < len(res[c]["rows"]) else None
            churn.append("–" if x is None or "churn" not in x else str(x["churn"]["churned"]))
        row.append(" / ".join(churn))
        d = res["ours-diff"]["rows"][i] if "ours-diff" in res and i < len(res["ours-diff"]["rows"]) else None
        row.append("–" if d is None else ("yes" if d.get("preserved") else "no"))
        rows.append(row)
    totals = {c: run_total(res[c]) for c in ids}
    f = sum(floor) if floor else 0
    rows.append(["", "**total**", f"**{f:,}**" if floor else "–"] + [f"**{totals[c]:,}**" for c in ids] + [" / ".join(str(run_churn(res[c])) if c in res else "–" for c in ["ours-diff", "playwright-mcp", "ab-delta"]), run_rebuilt(res["ours-diff"]) if "ours-diff" in res else "–"])
    md.append(table(["#", "step", "floor"] + ids + ["churn", "rebuilt"], rows, ["---:", "---", "---:"] + ["---:"] * len(ids) + ["---:", "---"]))
    bars = []
    if "ours-diff" in res:
        d = totals["ours-diff"]
        if "ours-full" in res:
            bars.append(("Data grid (gridjs): ≥ 75 % fewer tokens than our full responses", f"{pct_fewer(d, totals['ours-full']):.1f} % fewer ({d:,} vs {totals['ours-full']:,})", pct_fewer(d, totals["ours-full"]) >= 75))
        if "playwright-mcp" in res:
            bars.append(("Data grid (gridjs): ≥ 78 % fewer tokens than @playwright/mcp (a snapshot after each action)", f"{pct_fewer(d, totals['playwright-mcp']):.1f} % fewer ({d:,} vs {totals['playwright-mcp']:,})", pct_fewer(d, totals["playwright-mcp"]) >= 78))
        if floor:
            bars.append(("Data grid (gridjs): our total as a multiple of the floor (aim ≤ 1.5×)", f"{d / f:.2f}× ({d:,} vs {f:,})", d / f <= 1.5))
        if floor:
            md.append(f"\nOurs with diffs: {d:,} tokens, {d / f:.2f}× the floor of {f:,}. The floor itself is "
                      f"{pct_fewer(f, totals.get('ours-full', 0)):.1f} % under our full responses"
                      + (f" and {pct_fewer(f, totals['playwright-mcp']):.1f} % under @playwright/mcp's" if "playwright-mcp" in totals else "")
                      + ": on this session most steps show rows the agent has not seen (a new sort order, the next page), "
                      "which no lossless answer can leave out.")
    md.append("")
    return md, bars


def ratios_section(ratios):
    """Section: totals under alternative diff-or-full ratios, computed offline from the recorded full snapshots."""
    md = ["## 7. The diff-or-full rule under other ratios\n"]
    rules = ratios["rules"]
    md.append("`bench/ratios.mjs`, offline from the full snapshots the sessions recorded after every step: for each pair of "
              "consecutive snapshots the server binary's CLI gives the unified diff (`response-diff diff --format unified` with "
              "`threshold: 1` and no line cap, so it always diffs) and the snapshot patch (`tree-diff --format patch`); a rule "
              "sends the smaller of the two when it is at most *r* of the full snapshot, else the full snapshot. Totals in o200k "
              "tokens of the snapshot section's body (the envelope is the same under every rule; the shop session's returns to "
              "an earlier URL are diffed against the previous step here, not against that URL's last view).\n")
    rows = [[s["name"], s["steps"], s["stepsOver50Lines"]] + [f"{s['totals'][r['id']]:,}" for r in rules] for s in ratios["sessions"]]
    tot = {r["id"]: sum(s["totals"][r["id"]] for s in ratios["sessions"]) for r in rules}
    rows.append(["**all sessions**", "", ""] + [f"**{tot[r['id']]:,}**" for r in rules])
    md.append(table(["session", "steps", "steps > 50 lines"] + [r["label"] for r in rules], rows, ["---", "---:", "---:"] + ["---:"] * len(rules)))
    md.append("")
    return md


def app_sections(out_dir, plt):
    """Sections 5–8 from bench-out/todomvc.json, expand.json and ratios.json (make app-bench)."""
    todo = need(os.path.join(BENCH_OUT, "todomvc.json"), "make app-bench")
    expand = need(os.path.join(BENCH_OUT, "expand.json"), "make app-bench")
    ratios = need(os.path.join(BENCH_OUT, "ratios.json"), "make app-bench")
    md, summary = todomvc_section(todo, out_dir, plt)
    md += expand_section(expand, ratios)
    md += ratios_section(ratios)
    md += spa_wall_section(todo)
    grid_md, grid_bars = grid_section(need(os.path.join(BENCH_OUT, "grid.json"), "make app-bench"))
    md += grid_md
    summary = dict(summary or {}, **({"__grid_bars": grid_bars} if grid_bars else {}))
    return md, summary


def app_bars(summary, conformance_path):
    """Bars from the TodoMVC summary (every framework), the data grid and the conformance total."""
    summary = dict(summary or {})
    grid_bars = summary.pop("__grid_bars", [])
    bars = []
    if summary:
        def worst(key):
            return min(((fw, pct_fewer(x["diff"], x[key])) for fw, x in summary.items() if x[key]), key=lambda p: p[1], default=None)
        for key, bar, need_pct in [("full", "TodoMVC, every framework: ≥ 85 % fewer tokens than our full responses", 85),
                                   ("ab", "TodoMVC, every framework: ≥ 50 % fewer than agent-browser's delta (same information)", 50)]:
            w = worst(key)
            bars.append((bar, f"worst {w[1]:.1f} % ({w[0]})" if w else "not measured",
                         bool(w and w[1] >= need_pct and all(x[key] for x in summary.values()))))
        churn = sum(x["churn"] for x in summary.values())
        unrebuilt = [fw for fw, x in summary.items() if "/" in x["rebuilt"] and x["rebuilt"].split("/")[0] != x["rebuilt"].split("/")[1].split(" ")[0]]
        bars.append(("TodoMVC, every framework: ref churn 0 and every step rebuilt (diff)",
                     f"churn {churn} over {len(summary)} frameworks; " + (f"not rebuilt: {', '.join(unrebuilt)}" if unrebuilt else "all rebuilt"),
                     churn == 0 and not unrebuilt))
    else:
        bars.append(("TodoMVC bars", "not measured (make app-bench)", False))
    bars += grid_bars
    if os.path.exists(conformance_path):
        t = json.load(open(conformance_path))["total"]
        bars.append(("Snapshot conformance: ≥ 99 % of lines equal to Playwright's (refs aside)",
                     f"{100 * t['rate']:.2f} % ({t['equal']:,} of {t['lines']:,} lines, {t['pages']} pages)", t["rate"] >= 0.99 and not t["errors"]))
    return bars


# ------------------------------------------------------------------ report

def cli_vs_gnu_bars(cli):
    """Issue 28's bars for the CLI against GNU diff -u (bench-out/cli.json, make cli-bench)."""
    if not cli:
        return [("CLI `diff` ≤ 1.0× GNU `diff -u` on every 7 MB case, ≤ 0.5× on a one-line change (issue 28)", "not measured (make cli-bench)", False),
                ("CLI `diff` peak memory at or below GNU `diff -u`'s on the same files (issue 28)", "not measured (make cli-bench)", False)]
    rows = cli["rows"]
    time_ok = all(r["ratio"] <= (0.5 if r["change"] == "one_line" else 1.0) for r in rows)
    mem_ok = all(r["oursPeakKiB"] <= r["gnuPeakKiB"] for r in rows)
    return [("CLI `diff` ≤ 1.0× GNU `diff -u` on every 7 MB case, ≤ 0.5× on a one-line change (issue 28)",
             "; ".join(f"{r['label']} {r['ratio']:.2f}×" for r in rows), time_ok),
            ("CLI `diff` peak memory at or below GNU `diff -u`'s on the same files (issue 28)",
             "; ".join(f"{r['label']} {r['oursPeakKiB'] / 1024:.1f} vs {r['gnuPeakKiB'] / 1024:.1f} MiB" for r in rows), mem_ok)]


def fingerprint_corpus():
    """The fingerprint regression corpus on third-party apps (TodoMVC,
    jsoneditor, reveal.js, the dashboard), as the fingerprint-corpus binary
    wrote it to bench-out/fingerprint-corpus.md: the Markdown for section 3
    (None when it was not run) and its bars (recall >= 97 % overall and 100 %
    on removed, error and hidden; no false positive on the traps)."""
    path = os.path.join(BENCH_OUT, "fingerprint-corpus.md")
    if not os.path.exists(path):
        return None, [("Fingerprint corpus: recall ≥ 97 %, 100 % on removed/error/hidden, 0 false positives", "not measured", False)]
    text = open(path).read().strip()
    recall = {}
    in_kinds = False
    for line in text.splitlines():
        if line.startswith("| regression kind"):
            in_kinds = True
            continue
        if in_kinds and not line.startswith("|"):
            break
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if in_kinds and len(cells) == 5 and cells[1].isdigit():
            recall[cells[0]] = (int(cells[2]), int(cells[1]))
    found, n = recall.get("all", (0, 0))
    m = re.search(r"Traps: \*\*(\d+) false positives\*\* in (\d+)", text)
    fps, traps = (int(m.group(1)), int(m.group(2))) if m else (None, 0)
    must = ["element removed", "error shown", "hidden by CSS"]
    must_ok = all(k in recall and recall[k][0] == recall[k][1] for k in must)
    overall = 100.0 * found / n if n else 0.0
    bars = [
        ("Fingerprint corpus (third-party apps): recall ≥ 97 % overall, 100 % on removed, error and hidden",
         f"{overall:.1f} % ({found}/{n}); " + ", ".join(f"{k} {recall[k][0]}/{recall[k][1]}" for k in must if k in recall),
         n >= 80 and overall >= 97 and must_ok),
        ("Fingerprint corpus: 0 false positives on the benign-noise traps (≥ 15)",
         f"{fps} of {traps}" if fps is not None else "not measured", fps == 0 and traps >= 15),
    ]
    section = text.replace("## DOM fingerprint regression corpus (third-party apps)", "### DOM fingerprint regression corpus (third-party apps)")
    return section, bars
def conformance_section(out_dir_bench):
    """Markdown lines for bench-out/conformance.json (make conformance), or
    a line saying it was not run."""
    path = os.path.join(out_dir_bench, "conformance.json")
    md = ["## 10. Snapshot conformance with Playwright\n"]
    if not os.path.exists(path):
        md.append("Not measured (`make conformance` writes bench-out/conformance.json).\n")
        return md
    with open(path) as f:
        c = json.load(f)
    t = c["total"]
    md.append(f"`make conformance`: the server's snapshot against {c['reference']}, on the same page in the same "
              "Debian chromium, for every page of the corpus (bench/conformance/corpus.mjs: our fixtures, TodoMVC "
              "implementations with three todos added through the UI, jsoneditor's examples, reveal.js's demo and "
              "coverage pages in tests/fixtures/conformance). A page's match is the longest common subsequence of the "
              "two snapshots' lines over the longer one's line count.\n")
    md.append(f"**{t['equal']:,} of {t['lines']:,} lines equal ({100 * t['rate']:.2f} %)** over {t['pages']} pages"
              + (f", {t['errors']} could not be compared (its row says why)" if t["errors"] else "") + ".\n")
    rows = []
    for p in c["pages"]:
        if p.get("error"):
            rows.append([p["id"], "error", "", "", p["error"].splitlines()[0][:80]])
        else:
            rows.append([p["id"], p["playwrightLines"], p["ourLines"], p["equal"], f"{100 * p['rate']:.1f} %"])
    md.append(table(["page", "Playwright lines", "our lines", "equal", "match"], rows, ["---", "---:", "---:", "---:", "---:"]))
    diffs = [p for p in c["pages"] if p.get("differences")]
    if diffs:
        md.append("\nEvery remaining difference (`-` Playwright only, `+` ours only); the reasons are in "
                  "bench/conformance/README.md:\n")
        md.append("```diff")
        for p in diffs:
            md.append(f"# {p['id']}")
            md.extend(p["differences"])
        md.append("```")
    md.append("")
    return md


def tasks_section(out_dir_bench):
    """Markdown lines for bench-out/tasks.json (make tasks-bench), or a line
    saying it was not run."""
    path = os.path.join(out_dir_bench, "tasks.json")
    md = ["## 11. Eight everyday agent tasks\n"]
    if not os.path.exists(path):
        md.append("Not measured (`make tasks-bench` writes bench-out/tasks.json).\n")
        return md
    with open(path) as f:
        t = json.load(f)
    # bench/tasks.mjs: "ours" is the server with no flags (diffs, D47).
    labels = {"ours": "response-diff, no flags (diffs)", "ours-full": "response-diff, `--snapshot-mode full`",
              "pw": "@playwright/mcp 0.0.83"}
    kinds = [k for k in ["ours", "ours-full", "pw"] if k in t] + [k for k in t if k not in labels]
    tasks = list(t[kinds[0]])
    md.append("`make tasks-bench` (bench/tasks.mjs): each task done through one MCP server as an agent would "
              "(read the snapshot, act on refs, answer what the server reports), with the arguments an agent written "
              "for @playwright/mcp sends, and judged in the page afterwards. Tokens (o200k) are what the agent reads: "
              "every response, plus each snapshot file @playwright/mcp links instead of inlining, once, when the task "
              "reads it. With diffs on, the agent applies each diff or patch to its view of the page.\n")
    rows = []
    for task in tasks:
        row = [task]
        for k in kinds:
            r = t[k][task]
            files = f" ({r['fileTokens']} from files)" if r.get("fileTokens") else ""
            note = f"; {r['note']}" if r.get("note") else ""
            row.append(f"{'done' if r['done'] else '**not done**'}, {r['calls']} calls, {r['tokens']:,} tokens{files}{note}")
        rows.append(row)
    rows.append(["**total**"] + [
        f"**{sum(1 for r in t[k].values() if r['done'])} of {len(tasks)}**, {sum(r['tokens'] for r in t[k].values()):,} tokens"
        for k in kinds])
    md.append(table(["task"] + [labels.get(k, k) for k in kinds], rows, ["---"] + ["---"] * len(kinds)))
    md.append("")
    return md


def floors_section(out_dir_bench):
    """Every session with diffs on against its floor (issue 37): the tokens of
    what the agent had not been shown before. Returns (markdown lines, bars)."""
    md = ["## 12. Every session against its floor\n"]
    rows, bars = [], []

    def load(name):
        p = os.path.join(out_dir_bench, name)
        return json.load(open(p)) if os.path.exists(p) else None

    def add(label, t, fl, tf):
        if not fl:
            rows.append([label, "–", "–", "–", "–", "not measured"])
            return
        rows.append([label, f"{t:,}", f"{fl:,}", f"{t / fl:.2f}×", f"{tf:,} ({t / tf:.2f}×)" if tf else "–",
                     "yes" if t / fl <= 1.5 else "**no**"])
        bars.append((f"{label}: diffs on within 1.5× of the floor (issue 37)", f"{t / fl:.2f}× ({t:,} vs {fl:,})", t / fl <= 1.5))

    def runs(label, rs):
        rs = [r for r in rs if r and r.get("floor") and r.get("rows")]
        add(label, sum(run_total(r) for r in rs), sum(sum(r["floor"]) for r in rs),
            sum(sum(r.get("textFloor") or [0]) for r in rs))

    shop = load("session.json")
    runs("shop (bench/session.mjs)", [c for c in (shop or {}).get("configs", []) if c["id"] == "ours-diff"])
    todo = load("todomvc.json")
    for fw in (todo or {}).get("frameworks", []) or ["–"]:
        runs(f"TodoMVC {fw} (bench/todomvc.mjs)", [r for r in (todo or {}).get("results", []) if r.get("framework") == fw and r["id"] == "ours-diff"])
    for name, label in [("expand.json", "jsoneditor, the app session (bench/expand.mjs)"), ("grid.json", "data grid, gridjs (bench/grid.mjs)"),
                        ("apidocs.json", "API docs, swagger-ui (bench/apidocs.mjs)")]:
        d = load(name)
        runs(label, [r for r in (d or {}).get("results", []) if r["id"] == "ours-diff"])
    diff = ((load("tasks.json") or {}).get("ours") or {}).values()
    if diff and all("floor" in r for r in diff):
        add("eight tasks (bench/tasks.mjs)", sum(r["tokens"] for r in diff), sum(r["floor"] for r in diff), sum(r.get("textFloor", 0) for r in diff))
    else:
        add("eight tasks (bench/tasks.mjs)", 0, 0, 0)
    md.append("Each session with diffs on, as an agent reads it, against its *floor*: the o200k tokens, as printed, of "
              "the lines the agent had not been shown before in the session, which no lossless answer can leave out: "
              "the page's lines (each response's snapshot taken as the whole page) and the response's other lines "
              "(a result line, a new page URL, a dialog). A line is known when the agent was shown it before with "
              "the same ref, wherever it stood: an element moved under a new parent is no new content, another "
              "element showing the same text (a second row's \"Sales\" cell) is. The floor still leaves out what "
              "says where things went (an order, a removal) and the fences and headings of each response. "
              "*text floor*: issue 37's measure, which ignores refs too, so a line any element showed counts as known; "
              "it undercounts new rows whose cells repeat other rows' text.\n")
    md.append(table(["session", "ours, diffs on", "floor", "multiple", "text floor (multiple)", "≤ 1.5× the floor"], rows,
                    ["---", "---:", "---:", "---:", "---:", "---"]))
    md.append("")
    return md, bars
def python_adapters_section(out_dir_bench):
    """Section 13: bench-out/python-adapters.md (make python-bench), or a
    line saying it was not run."""
    path = os.path.join(out_dir_bench, "python-adapters.md")
    md = ["## 13. Python agents: PageDiff and browser-use\n"]
    if not os.path.exists(path):
        md.append("Not measured (`make python-bench` writes bench-out/python-adapters.md).\n")
        return md
    md.append("`make python-bench` (bench/python-adapters.mjs, docs/DECISIONS.md D59–D62): `PageDiff` on Playwright "
              "for Python through the shop and TodoMVC sessions, and browser-use's ten-step scripted run with and "
              "without `attach`.\n")
    with open(path) as f:
        md.append(f.read().replace("\n### ", "\n#### ").replace("### ", "#### ", 1))
    return md


def sizes_section():
    """The C library's sizes and the core's crate counts (make sizes)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from sizes import markdown

    sizes = need(os.path.join(BENCH_OUT, "sizes.json"), "make sizes")
    return [
        "### Sizes: what an embedder links\n",
        "`make sizes`: the C library from the `c-release` profile (release with fat LTO and one codegen unit, "
        "docs/DECISIONS.md D37; the C API takes `imageOptions`, so it keeps the `images` feature), the lean "
        "library built without `images` (D67), and the crates "
        "`cargo tree -p response-diff -e normal` lists, deduplicated, the core left out (`make core-lean` "
        "checks the second count, docs/DECISIONS.md D36, D63-D67).\n",
        markdown(sizes),
    ]


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
