"""The sections of the benchmark report (docs/bench/README.md): each
reads its results from bench-out/ and returns Markdown; the helpers that
format numbers and tables. `bench_report.py report` puts them together.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_OUT = os.path.join(ROOT, "bench-out")


def need(path, target):
    if not os.path.exists(path):
        sys.exit(f"bench_report: {os.path.relpath(path, ROOT)} is missing; run `{target}` first (or the whole `make bench`).")
    with open(path) as f:
        return json.load(f)


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
