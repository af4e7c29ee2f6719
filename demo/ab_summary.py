#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Summary of make demo-ab (demo/demo-ab.sh): the seeds' three questions,
answered from the folders tools/ab/kstats-ab wrote, next to the seeds' own
claims.  demo/ab_summary.py DIR"""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "plots"))
sys.path.insert(0, os.path.join(REPO, "tools", "ab"))
import kstats_snapshot as ks  # noqa: E402
import verdicts  # noqa: E402


def snap(d, fn, label):
    """The node of the median run tools/ab/report.py kept, or None."""
    return ks.load_node(os.path.join(d, "%s-%s.json" % (fn, label)))


def verdict_table(d, fn):
    """The verdict table of @fn from DIR/verdicts.json, then a blank line."""
    doc = verdicts.load(d)
    t = verdicts.table(verdicts.rows(doc, fn), None, doc.get("timing", "") if doc else "")
    return t + [""] if t else []


def mm_section(d):
    """The mm functions ranked by the change CONFIG_DEBUG_VM makes."""
    doc = verdicts.load(d)
    c = doc.get("changed", {}).get("debug") if doc else None
    if not c:
        return []
    out = ["## mm functions under page faults and mmap/munmap, ranked by the change "
           "CONFIG_DEBUG_VM makes", ""]
    out += verdicts.changed_table("debug", "no-debug", c["rows"], c["summary"],
                                  limit=int(os.environ.get("DEMO_MM_ROWS", "40")))[2:]
    if doc.get("top"):
        out += ["Per-function tables and plots of the largest changes (%s): %s." % (
            ", ".join(doc["top"]), "mm/report.md"), ""]
    return out


def whole_section(d):
    """Every function of the kernel, ranked by the change of total time
    per run CONFIG_DEBUG_VM makes: where its cost went."""
    doc = verdicts.load(d)
    c = doc.get("changed", {}).get("debug") if doc else None
    if not c:
        return []
    rows = c["rows"][:c["summary"]["functions"]]
    out = ["## The whole kernel: where CONFIG_DEBUG_VM's cost went", "",
           "Every function the direct backend takes traced at once ('* via direct'); %d "
           "called under page faults and mmap/munmap, ranked by the change of their total "
           "time per run (calls x mean, nested tracing taken off; a function's total "
           "holds what it calls, so the paths show, callers above callees)." % len(rows)]
    seed = [r for r in rows if r["name"] == "find_vma"]
    if seed:
        r = seed[0]
        out.append("find_vma, the seed's function, ranks %d of %d here (%s calls a run, "
                   "mean %s -> %s instructions, %s)." % (
                       r["rank"], len(rows), "-" if r["count_base"] is None else
                       "%.0f" % r["count_base"], verdicts.fmt_fig(r["mean_base"], r["unit"], 1),
                       verdicts.fmt_fig(r["mean_new"], r["unit"], 1), r["verdict"]))
    out.append("")
    out += verdicts.changed_table("debug", "no-debug", c["rows"], c["summary"],
                                  limit=int(os.environ.get("DEMO_WHOLE_ROWS", "10")))[2:]
    return out


def main():
    top = sys.argv[1]
    out = ["# make demo-ab: the seeds' comparisons on kernels built from linux-source-6.12",
           "",
           "QEMU -icount: a \"ns\" is one guest instruction. Verdicts are those of "
           "`kstats compare` over every run (docs/statistics.md): the change with the "
           "95% bounds of it, better or worse only where the two sides' 95% intervals "
           "do not overlap, else not measurable; lower is better.", ""]

    d = os.path.join(top, "find_vma")
    labels = ["no-debug", "debug", "debug-no-assert"]
    # and any other configuration the folder holds (find_vma-LABEL.json)
    if os.path.isdir(d):
        for name in sorted(os.listdir(d)):
            if name.startswith("find_vma-") and name.endswith(".json"):
                l = name[len("find_vma-"):-len(".json")]
                if l not in labels and l not in ("compare",):
                    labels.append(l)
    nodes = [(l, snap(d, "find_vma", l)) for l in labels]
    if any(n for _, n in nodes):
        out += ["## find_vma (the mmap_assert_locked() thread)", "",
                "```", "%-18s %6s %6s %6s %6s %6s %8s" % ("CONFIGURATION", "p10", "p50", "p90",
                                                         "p95", "p98", "mean")]
        for l, n in nodes:
            if n is None:
                out.append("%-18s  (no result)" % l)
                continue
            p = n["percentiles"]
            out.append("%-18s %6d %6d %6d %6d %6d %8d" % (l, p["p10"], p["p50"], p["p90"],
                                                        p["p95"], p["p98"], n["avg"]))
        out += ["(instructions, QEMU -icount)", "```", "",
                "The seed (2021, real hardware, ns): no-debug 89 109 214 332 605; debug 331 369 "
                "603 862 1338; debug + the assert 337 369 603 863 1339: \"compiling a debug "
                "kernel makes the function 3x more expensive; the effect of this patch is not "
                "measurable\". In 6.12 find_vma() always has the assert (a WARN_ON without "
                "lockdep), so the rows here are: no-debug (as shipped), debug (as shipped), "
                "debug without the assert.", ""]
        out += verdict_table(d, "find_vma")

    out += mm_section(os.path.join(top, "mm"))
    out += whole_section(os.path.join(top, "whole"))

    d = os.path.join(top, "fork")
    a, b = snap(d, "kernel_clone", "out-of-line"), snap(d, "kernel_clone", "inline")
    if a or b:
        out += ["## fork: vm_normal_page() out of line or inlined", ""]
        if a and b:
            out.append("kernel_clone per fork: %d -> %d instructions (%+.2f%%), p50 %d -> %d." % (
                a["avg"], b["avg"], (b["avg"] - a["avg"]) * 100.0 / a["avg"],
                a["percentiles"]["p50"], b["percentiles"]["p50"]))
        out += ["", "The seed (2021, real hardware): 3-4% faster forks of a redis-server with "
                "vm_normal_page inlined; the reviewers saw no difference with gcc 7.", ""]
        for fn in ("kernel_clone", "copy_page_range"):
            v = verdict_table(d, fn)
            if v:
                out += ["%s:" % fn, ""] + v

    d = os.path.join(top, "hooks")
    if os.path.isdir(d):
        out += ["## fault-injection hooks: behind their CONFIG_ options, or called on every allocation", ""]
        for fn in ("kmem_cache_alloc_noprof", "__alloc_pages_noprof"):
            a, b = snap(d, fn, "behind-config"), snap(d, fn, "unconditional")
            if a and b:
                out.append("%s per call: %d -> %d instructions (%+d, %+.2f%%)." % (
                    fn, a["avg"], b["avg"], b["avg"] - a["avg"], (b["avg"] - a["avg"]) * 100.0 / a["avg"]))
            v = verdict_table(d, fn)
            if v:
                out += [""] + v
        out += ["The seed (2024): the empty hook calls cost 1-2% in profiles of the slab and "
                "page allocator paths; the revert put them back behind CONFIG_FAILSLAB / "
                "CONFIG_FAIL_PAGE_ALLOC.", ""]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
