#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check a kstats demo output folder: the three answers and the report.

    demo/check.py DIR [--need-hooks]

DIR is what demo/demo.sh wrote (demo/report.py, DIR/report.txt).  The
checks, one TAP line each (tests/tap.py), then `N passed, N failed`:
  - each part's facts (SCENARIO.facts) name the kernel it ran on and
    hold real figures: find_vma calls for every VMA count of ks-pagefault,
    should_failslab / should_fail_alloc_page calls under ks-openmiss and
    ks-alloc (in DIR, or in DIR/hooks when DIR's kernel has neither
    hook), vm_normal_page calls per fork; each beside its snapshot, with a
    p50 above 0;
  - report.txt names each part's kernel in the part's heading
    ("[N/3] ..., on KERNEL") and has no line over 72 columns.
Part 2 is skipped where no kernel had the hooks, unless --need-hooks
(demo/demo.sh gives it when one has).  Exit status 1 on any failure.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, os.path.join(REPO, "plots"))

import kstats_snapshot as ks  # noqa: E402
from tap import Tap  # noqa: E402

WIDTH = 72
FUNCS = ("should_failslab", "should_fail_alloc_page")


def facts_of(path):
    """KEY=VALUE lines of one facts file, or {} if there is none."""
    facts = {}
    try:
        with open(path) as fh:
            for line in fh:
                k, sep, v = line.rstrip("\n").partition("=")
                if sep:
                    facts[k] = v
    except OSError:
        pass
    return facts


def count(facts, key):
    """An integer fact, or 0."""
    try:
        return int(float(facts.get(key, "")))
    except ValueError:
        return 0


def snap_p50(d, name):
    """p50 of snapshot DIR/NAME, or None."""
    node = ks.load_node(os.path.join(d, name)) if name else None
    return node["percentiles"]["p50"] if node and node["samples"] else None


def check_find_vma(tap, d):
    f = facts_of(os.path.join(d, "10-find_vma.facts"))
    k = f.get("kernel")
    maps = f.get("pf.maps", "").split()
    bad = []
    for m in maps or ["(none)"]:
        calls = count(f, "pf%s.samples" % m)
        ops = count(f, "pf%s.ops" % m)
        p50 = snap_p50(d, f.get("pf%s.snap" % m))
        if calls < ops or not ops or not p50:
            bad.append("-m %s: %d calls in %d ops, p50 %s" % (m, calls, ops, p50))
    tap.check("[1/3] find_vma: calls and p50 for each VMA count, on %s" % k,
              k and not bad, "\n".join(bad))
    return k


def check_hooks(tap, d, need):
    """Part 2 in DIR, or in DIR/hooks."""
    f = facts_of(os.path.join(d, "20-failslab.facts"))
    k = f.get("kernel")
    where, fh = d, f
    if not any(f.get(fn + ".present") == "1" for fn in FUNCS):
        hf = facts_of(os.path.join(d, "hooks", "20-failslab.facts"))
        if hf:
            where, fh = os.path.join(d, "hooks"), hf
    kh = fh.get("kernel")
    tap.check("[2/3] facts name the kernel%s"
              % (" (%s; hooks measured on %s)" % (k, kh) if fh is not f else
                 " (%s)" % k), k and kh)
    present = [fn for fn in FUNCS if fh.get(fn + ".present") == "1"]
    if not present:
        why = "; ".join(sorted(set(fh.get(fn + ".why", "not measured")
                                   for fn in FUNCS)))
        if need:
            tap.check("[2/3] should_failslab or should_fail_alloc_page "
                      "measured", False, "%s: %s" % (kh, why))
        else:
            tap.check("[2/3] the hooks # SKIP none here: %s" % why, True)
        return kh
    for fn in present:
        bad = []
        for w in ("open", "alloc"):
            calls = count(fh, "%s.%s.samples" % (w, fn))
            p50 = snap_p50(where, "%s-%s.json" % (fn, w))
            if not count(fh, w + ".ops") or not p50:
                bad.append("%s: %d calls, p50 %s" % (w, calls, p50))
            elif fn == "should_failslab" and calls < count(fh, w + ".ops"):
                bad.append("%s: %d calls in %d ops, under one an op"
                           % (w, calls, count(fh, w + ".ops")))
        tap.check("[2/3] %s: calls per op and p50 under ks-openmiss and "
                  "ks-alloc, on %s (%s)" % (fn, kh, fh.get(fn + ".attach")),
                  not bad, "\n".join(bad))
    return kh


def check_fork(tap, d):
    f = facts_of(os.path.join(d, "30-fork.facts"))
    k = f.get("kernel")
    forks = count(f, "fork.ops")
    calls = count(f, "fork.samples")
    rss = count(f, "fork.rss_pages")
    p50 = snap_p50(d, "vm_normal_page-fork.json")
    tap.check("[3/3] vm_normal_page: %s calls per fork (%d resident "
              "pages), p50 %s, on %s"
              % (calls // forks if forks else "no", rss, p50, k),
              k and forks and rss and calls * 10 >= forks * rss * 9 and p50)
    return k


def check_report(tap, d, kernels):
    path = os.path.join(d, "report.txt")
    try:
        with open(path) as fh:
            lines = fh.read().split("\n")
    except OSError as e:
        tap.check("report.txt", False, str(e))
        return
    for part, k in zip(("[1/3]", "[2/3]", "[3/3]"), kernels):
        head = ""
        for i, line in enumerate(lines):
            if line.startswith(part + " "):
                head = line
                for nxt in lines[i + 1:]:
                    if not nxt.startswith("      "):
                        break
                    head += " " + nxt.strip()
                break
        tap.check("report.txt: the heading of %s names %s" % (part, k),
                  k and head.endswith(", on %s" % k), head or "no heading")
    wide = ["%d: %d columns: %s" % (i + 1, len(line), line)
            for i, line in enumerate(lines) if len(line) > WIDTH]
    tap.check("report.txt: every line within %d columns" % WIDTH, not wide,
              "\n".join(wide))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--need-hooks", action="store_true",
                    help="part 2 must be measured (a kernel has the hooks)")
    args = ap.parse_args(argv)
    tap = Tap("demo")
    kernels = [check_find_vma(tap, args.dir),
               check_hooks(tap, args.dir, args.need_hooks),
               check_fork(tap, args.dir)]
    check_report(tap, args.dir, kernels)
    return tap.end()


if __name__ == "__main__":
    sys.exit(main())
