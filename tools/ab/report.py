#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report of tools/kstats-ab: one folder per kernel label (ab.facts,
NAME.rR.json snapshots, config, info) in, report.md + tables + plots out.

For each traced function: the snapshot of the median run of each kernel
(NAME-LABEL.json), `kstats compare --markdown` over them (NAME-compare.md),
a CDF overlay and percentile bars (kstats_plot.py), and a verdict per
kernel against the first: the change of the mean (exact: sum/count) and of
p50, each judged against the run-to-run spread and, for percentiles, the
histogram's precision.  A function missing on a kernel is reported as
absent, never as zero."""

import argparse
import json
import os
import subprocess
import sys


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--labels", required=True)
    ap.add_argument("--kstats", required=True)
    ap.add_argument("--plots", required=True)
    ap.add_argument("--workload", default="")
    ap.add_argument("--icount", type=int, default=1)
    a = ap.parse_args()
    labels = a.labels.split(",")
    unit_note = ("QEMU -icount: a guest \"ns\" is one executed instruction; "
                 "differences are in instructions, not wall time"
                 if a.icount else "QEMU TCG (emulated wall time): ns are "
                 "noisy; prefer -icount or real hardware")

    kern = {}
    funcs = []
    for l in labels:
        d = os.path.join(a.out, l)
        fx = kv_file(os.path.join(d, "ab.facts"))
        runs = int(fx.get("runs", "0") or 0)
        per = {}
        for name in os.listdir(d) if os.path.isdir(d) else []:
            if name.endswith(".json") and ".r" in name:
                fn, _, r = name[:-5].rpartition(".r")
                if not r.isdigit():
                    continue
                with open(os.path.join(d, name)) as f:
                    per.setdefault(fn, {})[int(r)] = json.load(f)
                if fn not in funcs:
                    funcs.append(fn)
        absent = [k.split(".")[1] for k in fx if k.startswith("node.") and k.endswith(".absent")]
        for fn in absent:
            if fn not in funcs:
                funcs.append(fn)
        kern[l] = {"facts": fx, "runs": runs, "snaps": per, "absent": absent,
                   "config": config(os.path.join(d, "config")),
                   "info": kv_file(os.path.join(d, "info"), multi=True)}

    rep = []
    rep.append("# kstats A/B: %s" % " vs ".join(labels))
    rep.append("")
    rep.append("Workload (the same on every kernel): `%s`, %d run(s) per kernel." %
               (a.workload, max(k["runs"] for k in kern.values()) if kern else 0))
    rep.append("Units: " + unit_note + ".")
    rep.append("")
    rep.append("## Kernels")
    rep.append("")
    base_cfg = kern[labels[0]]["config"]
    for l in labels:
        k = kern[l]
        fx = k["facts"]
        line = "- **%s**: %s" % (l, fx.get("kernel.release", "did not run"))
        info = k["info"]
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
            line += "; workload untraced: %s ns per op" % ns
        rep.append(line)
        if l != labels[0] and k["config"] and base_cfg:
            keys = sorted(set(base_cfg) | set(k["config"]))
            diff = [(c, base_cfg.get(c, "-"), k["config"].get(c, "-")) for c in keys
                    if base_cfg.get(c, "n") != k["config"].get(c, "n")]
            if diff:
                diff.sort(key=lambda t: (not matters(t[0]), t[0]))
                rep.append("  - config against %s (%d differences%s): %s" % (
                    labels[0], len(diff), ", those that matter most first" if len(diff) > 12 else "",
                    ", ".join("%s %s→%s" % (c[7:], x, y) for c, x, y in diff[:12])))
            else:
                rep.append("  - same configuration as %s" % labels[0])
    rep.append("")

    status = 0
    for fn in funcs:
        rep.append("## %s" % fn)
        rep.append("")
        reps = []
        rows = []
        for l in labels:
            k = kern[l]
            snaps = k["snaps"].get(fn, {})
            if not snaps:
                why = "absent in this kernel (no such function or clone)" \
                    if fn in k["absent"] else "no result"
                rows.append((l, None, why))
                continue
            order = sorted(snaps, key=lambda r: snaps[r]["node"]["avg"])
            med = order[len(order) // 2]
            s = snaps[med]
            path = os.path.join(a.out, "%s-%s.json" % (fn, l))
            with open(path, "w") as f:
                json.dump(s, f, indent=1)
            reps.append((l, path, s))
            avgs = [snaps[r]["node"]["avg"] for r in order]
            p50s = [snaps[r]["node"]["percentiles"]["p50"] for r in order]
            ops = wl_ops(k["facts"], med)
            calls = s["node"]["samples"] / ops if ops else None
            rows.append((l, {"avg": s["node"]["avg"], "p50": s["node"]["percentiles"]["p50"],
                             "spread": (max(avgs) - min(avgs)) * 100.0 / max(1, min(avgs)),
                             "p50s": p50s, "avgs": avgs, "calls": calls,
                             "samples": s["node"]["samples"], "bits": s["node"]["bits"],
                             "attach": s["node"].get("attach", "?"),
                             "floor": s["node"].get("floor")}, ""))
        if len(reps) >= 2:
            cmd = [a.kstats, "compare", "--markdown"] + [p for _, p, _ in reps]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                rep.append("compare failed: " + r.stderr.strip())
                status = 1
            else:
                with open(os.path.join(a.out, fn + "-compare.md"), "w") as f:
                    f.write(r.stdout)
                rep.append(r.stdout.rstrip())
            rep.append("")
            for kind in ("cdf", "pct"):
                r = subprocess.run(["/usr/bin/python3", a.plots, kind] + [p for _, p, _ in reps] +
                                   ["-o", os.path.join(a.out, "%s-%s" % (fn, kind))],
                                   capture_output=True, text=True)
                if r.returncode:
                    rep.append("plot %s failed: %s" % (kind, r.stderr.strip()[-300:]))
                    status = 1
            rep.append("![%s CDF](%s-cdf.png) ![%s percentiles](%s-pct.png)" % (fn, fn, fn, fn))
            rep.append("")
        rep.append("| kernel | attach | calls/op | mean | p50 | runs: mean | verdict against %s |" % labels[0])
        rep.append("|---|---|---|---|---|---|---|")
        base = rows[0][1] if rows and rows[0][1] else None
        for l, r, why in rows:
            if r is None:
                rep.append("| %s | - | - | - | - | - | %s |" % (l, why))
                continue
            calls = "%.2f" % r["calls"] if r["calls"] is not None else "?"
            verdict = ""
            if base is not None and r is not base:
                prec = 100.0 / (1 << r["bits"])
                dm = pct(base["avg"], r["avg"])
                dp = pct(base["p50"], r["p50"])
                spread = max(base["spread"], r["spread"])
                if abs(dm) <= spread:
                    verdict = "mean %+.1f%%: not measurable (run-to-run spread %.1f%%)" % (dm, spread)
                elif abs(dm) < 1.0:
                    verdict = ("mean %+.1f%%: beyond the %.1f%% run-to-run spread, "
                               "but under 1%%" % (dm, spread))
                else:
                    verdict = "mean %+.1f%% (beyond the %.1f%% run-to-run spread)" % (dm, spread)
                if abs(dp) < prec:
                    verdict += "; p50 %+.1f%%: within the histogram's %.1f%% precision" % (dp, prec)
                else:
                    verdict += "; p50 %+.1f%%" % dp
            elif r is base:
                verdict = "(reference)"
            rep.append("| %s | %s | %s | %d | %d | %s | %s |" % (
                l, r["attach"], calls, r["avg"], r["p50"],
                " ".join(str(x) for x in r["avgs"]), verdict))
        rep.append("")
        if base is None and any(r for _, r, _ in rows):
            rep.append("(%s has no result for %s: no verdicts)" % (labels[0], fn))
            rep.append("")

    text = "\n".join(rep) + "\n"
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
