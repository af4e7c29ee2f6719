#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a kstats demo output folder into the report and the figures.

    demo/report.py DIR [--kstats PATH] [--no-plots]

DIR holds what the scenarios of demo/scenarios/ wrote: SCENARIO.facts
(KEY=VALUE lines) and snapshots (kstats save).  Prints the report, writes
it to DIR/report.txt and draws the figures into DIR with
plots/kstats_plot.py.  Tables of percentiles come from `kstats compare`,
summaries from `kstats show`; the figures this script adds itself (calls
per operation, CPU share) are derived from the facts as explained in the
report's own footnotes.
"""

import argparse
import contextlib
import glob
import io
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "plots"))

import kstats_snapshot as ks  # noqa: E402

MIN_PLOT_SAMPLES = 10


class Report:
    def __init__(self):
        self.lines = []

    def __call__(self, text=""):
        self.lines.extend(str(text).split("\n"))

    def block(self, text, indent="    "):
        for line in text.rstrip("\n").split("\n"):
            self.lines.append(indent + line if line else "")

    def text(self):
        return "\n".join(self.lines).rstrip() + "\n"


def load_facts(d):
    facts = {}
    for path in sorted(glob.glob(os.path.join(d, "*.facts"))):
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if "=" in line:
                    k, v = line.split("=", 1)
                    facts[k] = v
    return facts


def load_snap(d, name):
    """The node of snapshot DIR/NAME, or None (missing, invalid)."""
    return ks.load_node(os.path.join(d, name)) if name else None


def num(facts, key, default=None):
    try:
        return float(facts[key])
    except (KeyError, ValueError):
        return default


def per_op(facts, prefix, ops):
    """Calls per operation: the samples of the run's loop (comm ks-wl-loop)."""
    s1 = num(facts, prefix + ".samples")
    if s1 is None or not ops:
        return None
    return s1 / ops


def fmt_count(v):
    if v is None:
        return "-"
    if v >= 1e6:
        return "%.2fM" % (v / 1e6)
    if v >= 1e4:
        return "%.0fk" % (v / 1e3)
    return "%.0f" % v


def clamped_calls(node):
    """Calls the module recorded as 0: the exit clock read behind the entry's."""
    return node.get("clamped", 0) if node else 0


def table(rows, header, align):
    """Plain text table; align is a string of 'l'/'r' per column."""
    cols = list(zip(*([header] + rows)))
    widths = [max(len(str(c)) for c in col) for col in cols]
    out = []
    for row in [header] + rows:
        cells = []
        for i, c in enumerate(row):
            c = str(c)
            cells.append(c.ljust(widths[i]) if align[i] == "l"
                         else c.rjust(widths[i]))
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


class Tools:
    def __init__(self, kstats, d):
        self.kstats = kstats
        self.d = d

    def run(self, *args):
        try:
            p = subprocess.run([self.kstats] + list(args), cwd=self.d,
                               capture_output=True, text=True, check=False)
        except OSError as e:
            return "(kstats %s failed: %s)" % (args[0], e)
        if p.returncode:
            return "(kstats %s failed: %s)" % (args[0], p.stderr.strip())
        return p.stdout

    def compare(self, files, labels=None):
        files = [f for f in files if f and os.path.exists(
            os.path.join(self.d, f))]
        if not files:
            return None
        return self._compare(files, labels)

    def _compare(self, files, labels):
        args = ["compare"] + files
        for lab in labels or []:
            if lab:
                args += ["--label", lab]
        return self.run(*args)

    def show(self, f):
        return self.run("show", "-f", f, "--no-hist")

    def callers(self, f):
        return self.run("callers", "-f", f)

    def slowest(self, f):
        return self.run("slowest", "-f", f)


def coincide_note(f, nodes):
    """One line saying why p10 to p90 coincide, when they do under -icount.

    Under -icount the guest clock counts instructions, and every call on a
    path that takes no branch of its own runs the same ones: the whole
    distribution falls in one slot.  Plain TCG (ICOUNT=0) times the same
    calls with the host's timing noise, and the percentiles spread.
    """
    if f.get("icount") != "1":
        return None
    if not any(n and n["samples"] and n["percentiles"]["p10"] ==
               n["percentiles"]["p90"] for n in nodes):
        return None
    return ("    p10..p90 coincide: under -icount every call here runs the same"
            " instructions (make demo ICOUNT=0: timing noise)")


def plots(d, jobs):
    """Draw figures with plots/kstats_plot.py in this process."""
    try:
        import kstats_plot
    except Exception as e:  # matplotlib missing or broken
        return ["(no figures: cannot import plots/kstats_plot.py: %s)" % e]
    written = []
    for job in jobs:
        kind, files, out = job[:3]
        labels = job[3] if len(job) > 3 else []
        paths = [os.path.join(d, f) for f in files]
        snaps = [load_snap(d, f) for f in files]
        if not snaps or any(s is None or s.get("samples", 0) <
                            MIN_PLOT_SAMPLES for s in snaps):
            continue
        buf, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
            rc = kstats_plot.main([kind] + paths + ["-o", os.path.join(d, out)] +
                                  [a for l in labels for a in ("--label", l)])
        if rc:
            written.append("(figure %s failed: %s)" % (out, err.getvalue().strip()))
        else:
            written += [os.path.basename(p) for p in buf.getvalue().split()]
    return written


def section_find_vma(r, f, d, tools, jobs):
    r("[1/3] find_vma() under ks-pagefault: the mmap_assert_locked() review table")
    n = num(f, "pf.n")
    maps = f.get("pf.maps", "").split()
    if not maps or "pf%s.samples" % maps[0] not in f:
        r("    not measured (see the scenario's failures above)")
        return
    snaps = [f.get("pf%s.snap" % m) for m in maps]
    node = load_snap(d, snaps[0])
    r("    %d x (mmap %s pages, fault each in from the kernel, munmap); %s; floor %s"
      % (n, f.get("pf.pages", "?"), f.get("find_vma.attach", "?"),
         ks.fmt_duration(node["floor"]) if node else "?"))
    r()
    out = tools.compare(snaps)
    if out:
        r.block(out)
        note = coincide_note(f, [load_snap(d, s) for s in snaps])
        if note:
            r(note)
        r()
    rows = []
    for m in maps:
        node = load_snap(d, f.get("pf%s.snap" % m))
        ops = num(f, "pf%s.ops" % m)
        c = per_op(f, "pf%s" % m, ops)
        z = clamped_calls(node)
        rows.append(["%s VMAs" % f.get("pf%s.vmas" % m, m),
                     "%.2f" % c if c is not None else "-",
                     "%.2f" % (c / float(f.get("pf.pages", 1)))
                     if c is not None else "-",
                     node["samples"] if node else "-",
                     node["missed"] if node else "-",
                     node["floor"] if node else "-",
                     "%d" % z])
    r.block(table(rows, ["CONFIGURATION", "calls/op", "calls/page",
                         "samples", "missed", "floor", "clamped"],
                  "lrrrrrr"))
    cu = per_op(f, "pfuser", num(f, "pfuser.ops"))
    if cu is not None:
        r("    with the pages written from user space instead: %.2f find_vma() calls per op%s"
          % (cu, " (per-VMA locks: no find_vma on user faults)" if cu < 0.5 else ""))
    jobs.append(("pct", snaps, "find_vma-pct"))
    jobs.append(("cdf", snaps, "find_vma-cdf"))
    jobs.append(("hist", snaps[-1:], "find_vma-hist"))


def section_callers(r, f, d, tools):
    """find_vma's call sites and slowest calls, vm_normal_page's slowest."""
    cf, sf = f.get("find_vma.callers"), f.get("vm_normal_page.slowest")
    if cf and load_snap(d, cf):
        r()
        r("  find_vma from where: every task's calls under the page faults and 10 forks,")
        r("  traced with callers 8 slowest 2 (kstats callers, kstats slowest)")
        r.block(tools.callers(cf), "    ")
        r.block(tools.slowest(cf), "    ")
    if sf and load_snap(d, sf):
        r()
        r("  vm_normal_page's slowest calls under ks-fork (slowest 3), with their stacks")
        r.block(tools.slowest(sf), "    ")


def section_find_vma_tcg(r, d, tools, jobs):
    """find_vma() again from the plain-TCG boot (DIR/tcg), if there was one."""
    f = load_facts(os.path.join(d, "tcg"))
    maps = f.get("pf.maps", "").split()
    maps = [m for m in maps if "pf%s.snap" % m in f]
    snaps = ["tcg/" + f["pf%s.snap" % m] for m in maps]
    if not snaps:
        return
    r()
    r("    the same workload without -icount (plain TCG, %s operations): times are"
      % f.get("pf.n", "?"))
    r("    the emulator's, with real timing noise, so the percentiles spread:")
    r()
    out = tools.compare(snaps)
    if out:
        r.block(out)
    jobs.append(("pct", snaps, "find_vma-pct-tcg",
                 ["%s VMAs, plain TCG" % f.get("pf%s.vmas" % m, m)
                  for m in maps]))


def section_failslab(r, f, d, tools, jobs):
    funcs = ["should_failslab", "should_fail_alloc_page"]
    r("[2/3] should_failslab() / should_fail_alloc_page(): the empty fault-injection hooks")
    if "open.base.ns_per_op" not in f:
        r("    not measured (see the scenario's failures above)")
        return
    fs = f.get("open.fs", "?")
    r("    ks-openmiss: open(\"non_existent\") in a %s directory, %s ops, %s per op untraced"
      % (fs, f.get("open.base.ops", "?"), ks.fmt_duration(num(f, "open.base.ns_per_op"))))
    r("    ks-alloc -m %s: %s ops, %s per op untraced"
      % (f.get("alloc.mode", "?"), f.get("alloc.base.ops", "?"),
         ks.fmt_duration(num(f, "alloc.base.ns_per_op"))))
    present = [fn for fn in funcs if f.get(fn + ".present") == "1"]
    for fn in funcs:
        if f.get(fn + ".present") == "0":
            r("    %s: not present in this kernel (%s)"
              % (fn, f.get(fn + ".why", "compiled out")))
    if not present:
        r("    (the 2024 revert put both hooks back behind CONFIG_FAILSLAB /")
        r("    CONFIG_FAIL_PAGE_ALLOC; run `make demo KVER=<a 6.1 kernel>` to see")
        r("    their cost where they are still called on every allocation)")
        return
    r()
    rows = []
    for fn in present:
        for w, wname in (("open", "open-miss"), ("alloc", "alloc-" + f.get("alloc.mode", ""))):
            node = load_snap(d, "%s-%s.json" % (fn, w))
            ops = num(f, w + ".ops")
            c = per_op(f, "%s.%s" % (w, fn), ops)
            base = num(f, w + ".base.ns_per_op")
            if not node or c is None:
                continue
            p50 = node["percentiles"]["p50"]
            avg, floor = node["avg"], node["floor"]
            net50, netavg = p50 - floor, avg - floor
            cps = c / (base * 1e-9) if base else None
            share = c * max(net50, 0) / base if base else None
            rows.append([fn, wname, "%.2f" % c, p50, avg, floor, net50, netavg,
                         fmt_count(cps) if cps is not None else "-",
                         "%.1f%%" % (100 * share) if share is not None else "-"])
    r.block(table(rows, ["FUNCTION", "WORKLOAD", "calls/op", "p50", "avg",
                         "floor", "net p50", "net avg", "calls/s", "CPU share"],
                  "llrrrrrrrr"))
    if rows and all(isinstance(row[6], int) and abs(row[6]) <= max(2, row[5] // 50)
                    for row in rows):
        r("    net ~ 0: the hooks' bodies are empty.  What they cost is the call and")
        r("    return themselves (and the CPU-mitigation thunks on that path), which")
        r("    fall outside what an entry/exit probe times; the thread measured that")
        r("    end to end (its open() loop took 4.3% less time without the call).")
    elif any(isinstance(row[6], int) and row[6] < 0 for row in rows):
        r("    (a p50 below the floor: the call costs less than this backend resolves)")
    r("    (%s; net = value - floor; calls/s = calls/op / untraced time per op;"
      % (ks.ICOUNT_NOTE if f.get("icount") == "1" else "ns"))
    r("    CPU share = calls/s x net p50%s)" % (
        "; under emulation a rough guide only" if f.get("vm") == "1" else ""))
    for fn in present:
        files = ["%s-open.json" % fn, "%s-alloc.json" % fn]
        out = tools.compare(files)
        if out:
            r()
            r.block(out)
            note = coincide_note(f, [load_snap(d, x) for x in files])
            if note:
                r(note)
        jobs.append(("hist", [x for x in files if load_snap(d, x) and
                              load_snap(d, x)["samples"] >= MIN_PLOT_SAMPLES],
                     "%s-hist" % fn))
    jobs.append(("pct", ["should_failslab-open.json", "should_failslab-alloc.json"],
                 "should_failslab-pct"))


def section_fork(r, f, d, tools, jobs):
    r("[3/3] vm_normal_page() under ks-fork: should it be inlined?")
    if "fork.base.ns_per_op" not in f:
        r("    not measured (see the scenario's failures above)")
        return
    n = num(f, "fork.n")
    rss = num(f, "fork.rss_pages") or num(f, "fork.base.rss_pages")
    base = num(f, "fork.base.ns_per_op")
    r("    %d forks of a %s MiB process (%d resident pages, THP off); untraced %s per fork"
      % (n, f.get("fork.mib", "?"), rss or 0, ks.fmt_duration(base)))
    r("    (fork + the child's exit + wait; the fork() call alone %s)"
      % ks.fmt_duration(num(f, "fork.base.fork_ns_per_op")))
    node = load_snap(d, "vm_normal_page-fork.json")
    c = per_op(f, "fork", num(f, "fork.ops"))
    if node and c is not None:
        p50, floor = node["percentiles"]["p50"], node["floor"]
        net = p50 - floor
        r()
        r.block(table([
            ["calls per fork", "%.0f" % c],
            ["calls per resident page", "%.2f" % (c / rss) if rss else "-"],
            ["p50 / avg per call", "%s / %s" % (ks.fmt_duration(p50), ks.fmt_duration(node["avg"]))],
            ["floor (empty function)", ks.fmt_duration(floor)],
            ["net per call (p50 - floor)", ks.fmt_duration(net)],
            ["in vm_normal_page per fork", "%s (calls x net)" % ks.fmt_duration(c * max(net, 0))],
            ["share of the untraced fork", "%.1f%%" % (100 * c * max(net, 0) / base)
             if base else "-"],
        ], ["vm_normal_page (%s)" % f.get("vm_normal_page.attach", "?"), ""], "lr"))
        r("    (one call per PTE copied by fork, one per PTE zapped by the child's exit)")
        jobs.append(("hist", ["vm_normal_page-fork.json"], "vm_normal_page-hist"))
    path = f.get("fork.path")
    if path:
        pnode = load_snap(d, "%s-fork.json" % path)
        if pnode:
            r()
            r("    the whole fork path, %s, traced alone (%d calls: %d forks + the"
              % (path, pnode["samples"], n))
            r("    scenario's own small ones):")
            r.block(tools.show("%s-fork.json" % path), "      ")
            jobs.append(("hist", ["%s-fork.json" % path], "%s-hist" % path))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--kstats", default=os.path.join(REPO, "tools", "kstats.static"))
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--note", action="append", default=[],
                    help="a line for the report's header")
    args = ap.parse_args(argv)
    d = args.dir
    f = load_facts(d)
    if not f:
        sys.stderr.write("report: no *.facts in %s\n" % d)
        return 2
    tools = Tools(args.kstats, d)
    r = Report()
    vm = f.get("vm") == "1"
    kernel = f.get("kernel", "?")
    r("kstats demo: %s, %s, %s %s, %s" % (
        kernel,
        ("QEMU TCG%s" % (" -icount" if f.get("icount") == "1" else "")) if vm
        else "real machine",
        f.get("cpus", "?"), ("vCPU" if vm else "CPU") +
        ("" if f.get("cpus") == "1" else "s"),
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    if vm:
        if f.get("icount") == "1":
            r("Emulated CPU: units: %s (repeatable, not wall time); counts and ratios are meaningful." % ks.ICOUNT_NOTE)
        else:
            r("Emulated CPU (QEMU TCG): absolute ns are not meaningful here; counts and ratios are (make demo-host measures real ns).")
    for note in args.note:
        r(note)
    r()
    jobs = []
    section_find_vma(r, f, d, tools, jobs)
    section_find_vma_tcg(r, d, tools, jobs)
    r()
    section_failslab(r, f, d, tools, jobs)
    r()
    section_fork(r, f, d, tools, jobs)
    section_callers(r, f, d, tools)
    r()
    if not args.no_plots:
        written = plots(d, jobs)
        figs = sorted(x for x in written if not x.startswith("("))
        for x in written:
            if x.startswith("("):
                r(x)
        r("figures: %s" % (", ".join(f for f in figs if f.endswith(".png"))
                           or "none"))
        r("(each also as .svg)")
    snaps = sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*.json")))
    zeros = [(x, clamped_calls(load_snap(d, x)), load_snap(d, x)["samples"])
             for x in snaps if clamped_calls(load_snap(d, x))]
    if zeros:
        r("note: calls recorded as 0 ns (the exit clock read behind the entry clock,")
        r("clamped by the module): %s" % ", ".join(
            "%s %d of %d" % (x, z, n) for x, z, n in zeros))
    r("snapshots: %s" % ", ".join(snaps))
    r("folder: %s" % os.path.abspath(d))
    text = r.text()
    with open(os.path.join(d, "report.txt"), "w") as out:
        out.write(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
