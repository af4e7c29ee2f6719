#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report of tools/ab/kstats-ab: one folder per kernel label (ab.facts,
NAME.rR.json snapshots, config, info) in, report.md + tables + plots +
verdicts.json (tools/ab/verdicts.py) out, and summary.txt: the verdicts
in plain text within 72 columns, for a review email, also printed.

For each traced function: the snapshot of the median run of each kernel
(NAME-LABEL.json), `kstats compare --markdown` over them (NAME-compare.md),
a CDF overlay and percentile bars (kstats_plot.py), and a verdict per
kernel against the first from `kstats compare --json` over every run of
both (tools/lib/ks_stats.c, docs/statistics.md): the change of the mean and
of p50 with the 95% bounds of each, better, worse or not measurable
(lower is better).  A function missing on a kernel is reported as absent,
never as zero.

When a glob was traced, each run of each kernel also left every node in
one file (LABEL/all/rR.json, kstats-snapshot/3).  The report then opens
with "what changed": `kstats compare --json` of every run of the
reference against every run of each other kernel, all functions ranked
by change with the verdict and its 95% bounds (changed-LABEL.json, and
compare's own table in changed-LABEL.md).  The --top N functions that
changed most (significant changes first) get a section as a -t function
does: their nodes are taken out of the runs' files as LABEL/NAME.rR.json."""

import argparse
import json
import os
import shutil
import subprocess
import sys

import verdicts

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "plots"))
import kstats_snapshot as ks  # noqa: E402


def kv_file(path, multi=False):
    """KEY=VALUE lines: the last value of each key, or (multi) all."""
    d = {}
    try:
        with open(path) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                if not k:
                    continue
                if multi:
                    d.setdefault(k, []).append(v)
                else:
                    d[k] = v
    except OSError:
        pass
    return d


def config(path):
    c = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("CONFIG_"):
                    k, _, v = line.partition("=")
                    c[k] = v
                elif line.startswith("# CONFIG_") and line.endswith(" is not set"):
                    c[line[2:-11]] = "n"
    except OSError:
        pass
    return c


# Options that change what a function costs: debugging, preemption,
# mitigations, the allocators and fault injection.  They lead the list of
# config differences.
MATTERS = ("DEBUG_VM", "FAILSLAB", "FAIL_PAGE_ALLOC", "FAULT_INJECTION", "KASAN",
           "KCSAN", "KMSAN", "LOCKDEP", "PROVE_LOCKING", "DEBUG_LOCK", "DEBUG_ATOMIC",
           "PREEMPT", "HZ", "MITIGATION", "RETPOLINE", "RETHUNK", "PAGE_TABLE_ISOLATION",
           "SLUB", "SLAB", "PER_VMA_LOCK", "TRANSPARENT_HUGEPAGE", "KMEMLEAK",
           "DEBUG_PAGEALLOC", "INIT_ON_ALLOC", "INIT_STACK", "CFI", "X86_KERNEL_IBT",
           "FTRACE", "KPROBES", "MEMCG", "NUMA", "CPU_MITIGATIONS")


def matters(opt):
    return opt[len("CONFIG_"):].startswith(MATTERS)


def wl_ops(fx, run):
    """Operations of one workload run: ops= of its result line."""
    v = fx.get("run%d.ops" % run) or fx.get("ops")
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def pct(a, b):
    return (b - a) * 100.0 / a if a else float("inf")


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--labels", required=True)
    ap.add_argument("--kstats", required=True)
    ap.add_argument("--plots", required=True)
    ap.add_argument("--workload", default="")
    ap.add_argument("--icount", type=int, default=1)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--rank", default="change",
                    choices=("change", "total", "mean", "p10", "p50", "p90", "p95", "p98", "p99",
                             "p99.9"),
                    help="what changed: kstats compare --rank")
    ap.add_argument("--no-plots", action="store_true", help="tables and verdicts only")
    return ap.parse_args()


def load_runs(d):
    """The snapshots NAME.rR.json of folder @d: {NAME: {R: Snapshot}}.

    A file kstats_snapshot cannot use is reported on stderr and left out;
    the second value is True when that happened.
    """
    per, bad = {}, False
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if not (name.endswith(".json") and ".r" in name):
            continue
        fn, _, r = name[:-5].rpartition(".r")
        if not r.isdigit():
            continue
        try:
            snap = ks.load_snapshot(os.path.join(d, name), allow_empty=True)
        except ks.SnapshotError as e:
            sys.stderr.write("report.py: %s\n" % e)
            bad = True
            continue
        per.setdefault(fn, {})[int(r)] = snap
    return per, bad


def load_kernels(out, labels):
    """Each kernel's folder: (kern by label, functions in order, bad)."""
    kern, funcs, bad = {}, [], False
    for l in labels:
        d = os.path.join(out, l)
        fx = kv_file(os.path.join(d, "ab.facts"))
        per, b = load_runs(d)
        bad = bad or b
        for fn in per:
            if fn not in funcs:
                funcs.append(fn)
        absent = [k.split(".")[1] for k in fx if k.startswith("node.") and k.endswith(".absent")]
        for fn in absent:
            if fn not in funcs:
                funcs.append(fn)
        kern[l] = {"facts": fx, "runs": int(fx.get("runs", "0") or 0), "snaps": per,
                   "absent": absent, "config": config(os.path.join(d, "config")),
                   "info": kv_file(os.path.join(d, "info"), multi=True)}
    return kern, funcs, bad


def kernel_line(l, k, icount):
    """The Kernels list's line of kernel @l (@icount: under QEMU -icount)."""
    fx, info = k["facts"], k["info"]
    line = "- **%s**: %s" % (l, fx.get("kernel.release", "did not run"))
    if "source" in info:
        line += ", source %s" % info["source"][0]
    if "patch" in info:
        line += ", patches: %s" % ", ".join("`%s`" % p for p in info["patch"])
    if "fragment" in info:
        line += ", config fragments: %s" % ", ".join("`%s`" % p for p in info["fragment"])
    if "base" in info:
        line += ", base config %s" % info["base"][0]
    if "kstats" in info:
        line += ", kstats %s" % info["kstats"][0]
    ns = fx.get("untraced.ns_per_op")
    if ns:
        line += "; workload untraced: %s %s per op" % (
            ns, "ns (%s)" % ks.ICOUNT_NOTE if icount else "ns")
    return line


def config_line(base_label, base_cfg, cfg):
    """How @cfg differs from the reference's, the options that matter first."""
    keys = sorted(set(base_cfg) | set(cfg))
    diff = [(c, base_cfg.get(c, "-"), cfg.get(c, "-")) for c in keys
            if base_cfg.get(c, "n") != cfg.get(c, "n")]
    if not diff:
        return "  - same configuration as %s" % base_label
    diff.sort(key=lambda t: (not matters(t[0]), t[0]))
    return "  - config against %s (%d differences%s): %s" % (
        base_label, len(diff), ", those that matter most first" if len(diff) > 12 else "",
        ", ".join("%s %s→%s" % (c[7:], x, y) for c, x, y in diff[:12]))


def header(a, labels, kern):
    """The report's title, workload, units and Kernels section."""
    unit_note = (ks.ICOUNT_NOTE + "; differences are in instructions, not "
                 "wall time"
                 if a.icount else "QEMU TCG (emulated wall time): ns are "
                 "noisy; prefer -icount or real hardware")
    rep = ["# kstats A/B: %s" % " vs ".join(labels), "",
           "Workload (the same on every kernel): `%s`, %d run(s) per kernel." %
           (a.workload, max(k["runs"] for k in kern.values()) if kern else 0),
           "Units: " + unit_note + ".", "", "## Kernels", ""]
    base_cfg = kern[labels[0]]["config"]
    for l in labels:
        k = kern[l]
        rep.append(kernel_line(l, k, a.icount))
        if l != labels[0] and k["config"] and base_cfg:
            rep.append(config_line(labels[0], base_cfg, k["config"]))
    rep.append("")
    return rep


def median_run(out, fn, l, k):
    """Kernel @l's row for @fn, and the path of its median run's snapshot.

    The median run (by mean) is copied to OUT/FN-LABEL.json, for compare
    and the plots.  The row has no verdict yet.
    """
    snaps = k["snaps"].get(fn, {})
    if not snaps:
        if fn in k["absent"]:
            return {"kernel": l, "status": "absent", "why": verdicts.ABSENT}, None
        return {"kernel": l, "status": "no result", "why": "no result"}, None
    order = sorted(snaps, key=lambda r: snaps[r].node["avg"])
    med = order[len(order) // 2]
    s = snaps[med]
    path = os.path.join(out, "%s-%s.json" % (fn, l))
    shutil.copyfile(s.path, path)
    avgs = [snaps[r].node["avg"] for r in order]
    ops = wl_ops(k["facts"], med)
    return {"kernel": l, "status": "measured", "attach": s.node["attach"],
            "calls_per_op": s.node["samples"] / ops if ops else None,
            "mean": s.node["avg"], "p50": s.percentiles["p50"], "run_means": avgs,
            "spread_pct": (max(avgs) - min(avgs)) * 100.0 / max(1, min(avgs)),
            "bits": s.node["bits"], "samples": s.node["samples"],
            "floor": s.node["floor"]}, path


def run_paths(k, fn):
    """The snapshot files of @fn's runs on kernel @k, in run order."""
    snaps = k["snaps"].get(fn, {})
    return [snaps[r].path for r in sorted(snaps)]


def judge(a, fn, base_label, base_paths, r, paths):
    """Set @r's verdict against the reference's runs: `kstats compare --json`.

    The statistics are those of kstats compare (tools/lib/ks_stats.c,
    docs/statistics.md): every run of each side, a 95% interval per side,
    a verdict only where the two intervals do not overlap.  @r's mean and
    p50 become the figures compare judged.  Returns (0, the reference's
    figures), or (1, None) when compare failed (the row then says so).
    """
    p = subprocess.run([a.kstats, "compare", "--json", "--label", base_label,
                        "--label", r["kernel"]] + base_paths + ["--"] + paths,
                       capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout) if p.returncode == 0 else None
        f = next(x for x in doc["functions"] if x["name"] == fn) if doc else None
    except (ValueError, StopIteration):
        f = None
    if not f or not f["rows"]:
        r["verdict"] = "compare failed: " + (p.stderr.strip() or "no rows")
        return 1, None
    return 0, verdicts.judged(r, f)


def figures(a, fn, paths):
    """`kstats compare --markdown` over @paths and the two plots.

    Returns the report's lines and the status (1 if a step failed).
    """
    rep, status = [], 0
    r = subprocess.run([a.kstats, "compare", "--markdown"] + paths,
                       capture_output=True, text=True)
    if r.returncode:
        rep.append("compare failed: " + r.stderr.strip())
        status = 1
    else:
        with open(os.path.join(a.out, fn + "-compare.md"), "w") as f:
            f.write(r.stdout)
        rep += ["Each kernel's median run (by mean); the verdicts further down are over "
                "every run.", "", r.stdout.rstrip()]
    rep.append("")
    if a.no_plots:
        return rep, status
    for kind in ("cdf", "pct"):
        r = subprocess.run(["/usr/bin/python3", a.plots, kind] + paths +
                           ["-o", os.path.join(a.out, "%s-%s" % (fn, kind))],
                           capture_output=True, text=True)
        if r.returncode:
            rep.append("plot %s failed: %s" % (kind, r.stderr.strip()[-300:]))
            status = 1
    rep.append("![%s CDF](%s-cdf.png) ![%s percentiles](%s-pct.png)" % (fn, fn, fn, fn))
    rep.append("")
    return rep, status


def function_section(a, labels, kern, fn):
    """The report's section of @fn: (lines, rows, status)."""
    rep, status = ["## %s" % fn, ""], 0
    rows, paths = [], []
    for l in labels:
        r, path = median_run(a.out, fn, l, kern[l])
        rows.append(r)
        if path:
            paths.append(path)
    if len(paths) >= 2:
        lines, status = figures(a, fn, paths)
        rep += lines
    base = rows[0] if rows[0]["status"] == "measured" else None
    base_figs = None
    for l, r in zip(labels, rows):
        if r["status"] != "measured":
            continue
        if r is base:
            r["verdict"] = "(reference)"
        elif base is not None:
            st, figs = judge(a, fn, labels[0], run_paths(kern[labels[0]], fn), r,
                             run_paths(kern[l], fn))
            status = st or status
            base_figs = base_figs or figs
        else:
            r["verdict"] = ""
    # the reference's mean and p50 as compare judged them, like the others'
    # (against itself when no other kernel has the function)
    if base is not None and not base_figs:
        paths0 = run_paths(kern[labels[0]], fn)
        base_figs = judge(a, fn, labels[0], paths0, dict(base), paths0)[1]
    if base is not None and base_figs:
        base.update((k, v) for k, v in base_figs.items() if v is not None)
    rep += verdicts.table(rows, labels[0], "qemu-icount" if a.icount else "")
    rep.append("")
    if base is None and any(r["status"] == "measured" for r in rows):
        rep.append("(%s has no result for %s: no verdicts)" % (labels[0], fn))
        rep.append("")
    return rep, rows, status


def all_runs(out, l):
    """The files of every node of kernel @l's runs (LABEL/all/rR.json),
    in run order."""
    d = os.path.join(out, l, "all")
    runs = [n for n in os.listdir(d) if n.startswith("r") and n.endswith(".json")
            and n[1:-5].isdigit()] if os.path.isdir(d) else []
    return [os.path.join(d, n) for n in sorted(runs, key=lambda n: int(n[1:-5]))]


def changed_row(rank, f):
    """One row of "what changed" from function @f of compare's JSON."""
    both = f["base"] is not None and f["new"] is not None
    r = {"rank": rank, "name": f["name"], "unit": f["unit"],
         "judged_by": f["judged_by"], "change_pct": f["change_pct"],
         "verdict": f["verdict"], "change_ci": None, "notes": []}
    for side in ("base", "new"):
        x = f[side]
        r["runs_" + side] = x["runs"] if x else 0
        r["count_" + side] = x["count"] if x else None
        r["mean_" + side] = x["total"] / x["count"] if x and x["count"] else None
        r["total_" + side] = x["total"] if x else None
        r["p50_" + side] = x["p50"] if x else None
    if both:
        key = next(x for x in f["rows"] if x["figure"] == f["judged_by"])
        r["change_ci"] = key["change_ci"]
        r["notes"] = key["notes"]
    return r


def changed(a, base_label, l, base_runs, runs):
    """Kernel @l against the reference over every node of every run:
    (rows ranked by change, summary counts, status)."""
    path = os.path.join(a.out, "changed-%s" % l)
    args = [a.kstats, "compare", "--label", base_label, "--label", l, "--rank", a.rank] + \
        base_runs + ["--"] + runs
    p = subprocess.run(args[:2] + ["--json"] + args[2:], capture_output=True, text=True)
    try:
        doc = json.loads(p.stdout) if p.returncode == 0 else None
    except ValueError:
        doc = None
    if not doc:
        sys.stderr.write("report.py: compare of every node, %s vs %s: %s\n"
                         % (base_label, l, p.stderr.strip() or "no output"))
        return [], {}, 1
    with open(path + ".json", "w") as f:
        f.write(p.stdout)
    p = subprocess.run(args[:2] + ["--markdown", "--all"] + args[2:], capture_output=True, text=True)
    with open(path + ".md", "w") as f:
        f.write(p.stdout)
    rows = [changed_row(0, f) for f in doc["functions"]]
    # functions a glob matched that the workload never called, on either
    # kernel, go last and are not counted with the others
    called, uncalled = [], []
    for r in rows:
        (called if (r["count_base"] or 0) + (r["count_new"] or 0) > 0 else uncalled).append(r)
    rows = called + uncalled
    for i, r in enumerate(rows):
        r["rank"] = i + 1
    summary = {"functions": len(called), "uncalled": len(rows) - len(called),
               "timing": doc["new"]["timing"], "rank": a.rank}
    for v in ("worse", "better", "not measurable", "only in base", "only in new"):
        summary[v] = sum(1 for r in called if r["verdict"].rstrip("?") == v)
    return rows, summary, 0


def top_changes(changes, n, rank="change"):
    """The @n functions that changed most over every kernel: those with a
    better/worse verdict first (largest change first), then the rest; by
    --rank total, those whose total time per run changed most."""
    score = {}
    for rows in changes.values():
        for r in rows:
            if rank == "total":
                k = (True, abs((r["total_new"] or 0) - (r["total_base"] or 0)))
            elif r["change_pct"] is None:
                continue
            else:
                k = (r["verdict"].rstrip("?") in ("better", "worse"), abs(r["change_pct"]))
            score[r["name"]] = max(score.get(r["name"], k), k)
    return sorted(score, key=lambda fn: (not score[fn][0], -score[fn][1], fn))[:n]


def split_top(out, labels, fns):
    """Each run's node of each function of @fns as LABEL/NAME.rR.json
    (kstats-snapshot/2), unless the run left that file itself (-t)."""
    for l in labels:
        for path in all_runs(out, l):
            r = os.path.basename(path)[1:-5]
            names = ks.node_names(path)
            for fn in fns:
                dest = os.path.join(out, l, "%s.r%s.json" % (fn, r))
                if fn not in names or os.path.exists(dest):
                    continue
                s = ks.load_snapshot(path, allow_empty=True, node=fn)
                with open(dest, "w") as f:
                    json.dump(ks.single_document(s), f, indent=1)
                    f.write("\n")


def what_changed(a, labels):
    """The "what changed" sections, when the runs saved every node:
    (lines, {label: {rows, summary}}, top functions, status)."""
    base_runs = all_runs(a.out, labels[0])
    if not base_runs:
        return [], {}, [], 0
    rep, doc, changes, status = [], {}, {}, 0
    for l in labels[1:]:
        runs = all_runs(a.out, l)
        if not runs:
            rep += ["## What changed: %s against %s" % (l, labels[0]), "",
                    "(no runs of every node on %s)" % l, ""]
            status = 1
            continue
        rows, summary, st = changed(a, labels[0], l, base_runs, runs)
        status = status or st
        if not rows:
            continue
        changes[l] = rows
        doc[l] = {"summary": summary, "rows": rows}
        rep += verdicts.changed_table(l, labels[0], rows, summary)
    top = top_changes(changes, a.top, a.rank)
    if top:
        rep += ["The %d largest changes, each in a section below: %s." % (
            len(top), ", ".join("`%s`" % fn for fn in top)), ""]
    return rep, doc, top, status


def main():
    a = parse_args()
    labels = a.labels.split(",")
    lines, changes, top, status = what_changed(a, labels)
    split_top(a.out, labels, top)
    kern, funcs, bad = load_kernels(a.out, labels)
    funcs = top + [fn for fn in funcs if fn not in top]
    status = 1 if bad else status
    rep = header(a, labels, kern) + lines
    table = {}
    for fn in funcs:
        lines, rows, st = function_section(a, labels, kern, fn)
        rep += lines
        table[fn] = rows
        status = status or st

    text = "\n".join(rep) + "\n"
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(text)
    verdicts.write(a.out, labels, table, changes, top, "qemu-icount" if a.icount else "")
    runs = max(k["runs"] for k in kern.values()) if kern else 0
    summary = "\n".join(verdicts.summary(verdicts.load(a.out), "kstats A/B: " + " vs ".join(labels),
                                         a.workload, runs)) + "\n"
    with open(os.path.join(a.out, "summary.txt"), "w") as f:
        f.write(summary)
    sys.stdout.write(summary)
    return status


if __name__ == "__main__":
    sys.exit(main())
