#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a kstats demo output folder into the report and the figures.

    demo/report.py DIR [--kstats PATH] [--no-plots]

DIR holds what the scenarios of demo/scenarios/ wrote: SCENARIO.facts
(KEY=VALUE lines) and snapshots (kstats save); DIR/hooks the same from
the boot of another kernel for part 2 (should_failslab), when DIR's
kernel has neither hook, and DIR/tcg find_vma from a boot without
-icount.  Prints the report, writes it to DIR/report.txt and draws the
figures into DIR with plots/kstats_plot.py.  Tables of percentiles come
from `kstats compare`, summaries from `kstats show`; the figures this
script adds itself (calls per operation, CPU share) are derived from the
facts as explained in the report's own footnotes.  Every line is at most
WIDTH (72) columns, for a mail: the report's own text is wrapped, the
CLI's output is pasted as it is, unindented.
"""

import argparse
import contextlib
import glob
import io
import os
import subprocess
import sys
import textwrap
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "plots"))

import kstats_snapshot as ks  # noqa: E402

MIN_PLOT_SAMPLES = 10
WIDTH = 72
IND = "  "
FUNCS = ("should_failslab", "should_fail_alloc_page")


class Report:
    def __init__(self):
        self.lines = []

    def __call__(self, text=""):
        self.lines.extend(str(text).split("\n"))

    def para(self, text, indent=IND, first=None):
        """@text wrapped to WIDTH, each line after @indent (the first
        after @first, when given)."""
        self.lines.extend(textwrap.wrap(
            text, WIDTH, initial_indent=indent if first is None else first,
            subsequent_indent=indent, break_long_words=False,
            break_on_hyphens=False) or [""])

    def block(self, text, indent=""):
        """Lines as they are: a table, or the CLI's output (unindented,
        so that what the CLI fits in 72 columns stays there)."""
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
    return ("p10..p90 coincide: under -icount every call here runs the same"
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


def kernel_of(f):
    return f.get("kernel", "?")


def filter_note(r, p50s):
    """Where the counts and the times come from (scenarios/*.sh): @p50s,
    the p50s of the counting runs, with kstats' comm filter."""
    p50s = [p for i, p in enumerate(p50s) if p and p not in p50s[:i]]
    if p50s:
        r.para("(calls counted in a run with the comm filter, the loop's "
               "alone; times from a second run without it, as kstats "
               "times the filter's test with the call: p50 %s with it)"
               % " and ".join(p50s))


def heading(r, text, kernel):
    """A part's heading: what it measures, and on which kernel
    (demo/check.py reads it: "[N/3] ..., on KERNEL")."""
    r.para("%s, on %s" % (text, kernel), indent="      ", first="")


def section_find_vma(r, f, d, tools, jobs, short):
    heading(r, "[1/3] find_vma() and mmap_assert_locked()", kernel_of(f))
    n = num(f, "pf.n")
    maps = f.get("pf.maps", "").split()
    if not maps or "pf%s.samples" % maps[0] not in f:
        r.para("not measured (see the scenario's failures above)")
        return
    snaps = [f.get("pf%s.snap" % m) for m in maps]
    node = load_snap(d, snaps[0])
    r.para("ks-pagefault: %d x (mmap %s pages, fault each in from the "
           "kernel, munmap); %s; floor %s"
           % (n, f.get("pf.pages", "?"), f.get("find_vma.attach", "?"),
              ks.fmt_duration(node["floor"]) if node else "?"))
    r()
    out = tools.compare(snaps)
    if out:
        r.block(out)
        note = coincide_note(f, [load_snap(d, s) for s in snaps])
        if note:
            r.para(note, indent="")
        r()
    rows, p50s = [], []
    for m in maps:
        node = load_snap(d, f.get("pf%s.snap" % m))
        ops = num(f, "pf%s.ops" % m)
        c = per_op(f, "pf%s" % m, ops)
        z = clamped_calls(node)
        vmas = f.get("pf%s.vmas" % m, m)
        if node and c is not None:
            p50s.append((vmas, node["percentiles"]["p50"], c))
        rows.append(["%s VMAs" % vmas,
                     f.get("pf%s.samples" % m, "-"),
                     "%.2f" % c if c is not None else "-",
                     "%.2f" % (c / float(f.get("pf.pages", 1)))
                     if c is not None else "-",
                     node["missed"] if node else "-",
                     node["floor"] if node else "-",
                     "%d" % z])
    r.block(table(rows, ["CONFIGURATION", "calls", "calls/op", "calls/page",
                         "missed", "floor", "clamped"],
                  "lrrrrrr"), IND)
    filter_note(r, [f.get("pf%s.p50_comm" % m) for m in maps])
    cu = per_op(f, "pfuser", num(f, "pfuser.ops"))
    if cu is not None:
        r.para("with the pages written from user space instead: %.2f "
               "find_vma() calls per op%s"
               % (cu, " (per-VMA locks: no find_vma on user faults)"
                  if cu < 0.5 else ""))
    r()
    dbg = f.get("find_vma.debug_vm", "unknown")
    if dbg == "y":
        debug = ("CONFIG_DEBUG_VM is on in %s: these are the seed table's "
                 "debug row; make demo-ab builds the kernel with and "
                 "without it, and without find_vma()'s "
                 "mmap_assert_locked()." % kernel_of(f))
    else:
        debug = ("CONFIG_DEBUG_VM is %s in %s (Debian builds its kernels "
                 "without it): these are the seed table's no-debug row.  "
                 "Its debug rows, and find_vma() without its "
                 "mmap_assert_locked(), need the kernel built each way: "
                 "make demo-ab (demo/README.md)."
                 % ("off" if dbg == "n" else "unknown", kernel_of(f)))
    r.para(debug)
    if p50s:
        first, last = p50s[0], p50s[-1]
        text = ("find_vma(): p50 %s with %s VMAs" %
                (ks.fmt_duration(first[1]), first[0]))
        if len(p50s) > 1:
            text += ", %s with %s (%+.0f%%)" % (
                ks.fmt_duration(last[1]), last[0],
                100.0 * (last[1] - first[1]) / first[1] if first[1] else 0)
        text += "; %.2f calls per operation; CONFIG_DEBUG_VM %s" % (
            first[2], {"y": "on", "n": "off"}.get(dbg, "unknown"))
        short.append(("[1/3]", text, kernel_of(f)))
    jobs.append(("pct", snaps, "find_vma-pct"))
    jobs.append(("cdf", snaps, "find_vma-cdf"))
    jobs.append(("hist", snaps[-1:], "find_vma-hist"))


def section_callers(r, f, d, tools):
    """find_vma's call sites and slowest calls, vm_normal_page's slowest."""
    cf, sf = f.get("find_vma.callers"), f.get("vm_normal_page.slowest")
    if cf and load_snap(d, cf):
        r()
        r.para("find_vma from where, on %s: every task's calls under the "
               "page faults and 10 forks, traced with callers 8 slowest 2 "
               "(kstats callers, kstats slowest):" % kernel_of(f), indent="")
        r()
        r.block(tools.callers(cf))
        r()
        r.block(tools.slowest(cf))
    if sf and load_snap(d, sf):
        r()
        r.para("vm_normal_page's slowest calls under ks-fork (slowest 3), "
               "with their stacks, on %s:" % kernel_of(f), indent="")
        r()
        r.block(tools.slowest(sf))


def section_find_vma_tcg(r, d, tools, jobs):
    """find_vma() again from the plain-TCG boot (DIR/tcg), if there was one."""
    f = load_facts(os.path.join(d, "tcg"))
    maps = f.get("pf.maps", "").split()
    maps = [m for m in maps if "pf%s.snap" % m in f]
    snaps = ["tcg/" + f["pf%s.snap" % m] for m in maps]
    if not snaps:
        return
    r()
    r.para("the same workload without -icount (plain TCG, %s operations): "
           "times are the emulator's, with real timing noise, so the "
           "percentiles spread:" % f.get("pf.n", "?"))
    r()
    out = tools.compare(snaps)
    if out:
        r.block(out)
    jobs.append(("pct", snaps, "find_vma-pct-tcg",
                 ["%s VMAs, plain TCG" % f.get("pf%s.vmas" % m, m)
                  for m in maps]))


def hooks_source(d, f):
    """(facts, folder) that part 2 reads: DIR's own when its kernel has a
    hook, else DIR/hooks (the boot of a kernel that has them), if any."""
    if any(f.get(fn + ".present") == "1" for fn in FUNCS):
        return f, d, ""
    hd = os.path.join(d, "hooks")
    fh = load_facts(hd)
    if fh:
        return fh, hd, "hooks/"
    return f, d, ""


def absent_text(f, fns):
    """Why the hooks @fns are not in f's kernel, in one phrase."""
    whys = []
    for fn in fns:
        w = f.get(fn + ".why", "compiled out")
        if w not in whys:
            whys.append(w)
    return "; ".join(whys)


def section_failslab(r, f0, d0, tools, jobs, short):
    f, d, sub = hooks_source(d0, f0)
    heading(r, "[2/3] should_failslab(), should_fail_alloc_page()",
            kernel_of(f))
    missing0 = [fn for fn in FUNCS if f0.get(fn + ".present") == "0"]
    if sub and len(missing0) == len(FUNCS):
        r.para("%s has neither hook (%s): measured in a boot of %s, which "
               "has them." % (kernel_of(f0), absent_text(f0, missing0),
                              kernel_of(f)))
    if "open.base.ns_per_op" not in f:
        if not any(f.get(fn + ".present") == "0" for fn in FUNCS):
            r.para("not measured (see the scenario's failures above)")
            return
    else:
        fs = f.get("open.fs", "?")
        r.para("ks-openmiss: open(\"non_existent\") in a %s directory, %s "
               "ops, %s per op untraced"
               % (fs, f.get("open.base.ops", "?"),
                  ks.fmt_duration(num(f, "open.base.ns_per_op"))))
        r.para("ks-alloc -m %s: %s ops, %s per op untraced"
               % (f.get("alloc.mode", "?"), f.get("alloc.base.ops", "?"),
                  ks.fmt_duration(num(f, "alloc.base.ns_per_op"))))
    present = [fn for fn in FUNCS if f.get(fn + ".present") == "1"]
    for fn in FUNCS:
        if f.get(fn + ".present") == "0":
            r.para("%s: not present in %s (%s)"
                   % (fn, kernel_of(f), f.get(fn + ".why", "compiled out")))
    if not present:
        short.append(("[2/3]", "neither hook: %s" % absent_text(f, FUNCS),
                      kernel_of(f)))
        r.para("(the 2024 revert put both hooks back behind CONFIG_FAILSLAB "
               "/ CONFIG_FAIL_PAGE_ALLOC, and no kernel here has them: "
               "`make demo KVER=<a 6.1 kernel>` times them where they are "
               "still called on every allocation)")
        return
    # The names ftrace offers: the function, and gcc's clones of it.
    clones = []
    for fn in present:
        syms = f.get(fn + ".symbols", "").split()
        clones += [x for x in syms if x != fn]
        cfg = f.get(fn + ".config", "")
        r.para("%s: attached as %s%s" % (
            fn, f.get(fn + ".attach", "?"),
            "; %s, so always built in, as before the 2024 revert"
            % cfg.replace("=n", " is off") if cfg.endswith("=n") else ""))
    if clones:
        r.para("compiler clones: %s; callers call the clone, and kstats "
               "attaches it with the function (clones yes, its default), "
               "where a probe on the name alone would see nothing."
               % ", ".join(clones))
    else:
        r.para("no compiler clone of either in this kernel (the thread's "
               "gcc made should_failslab.constprop.0, and callers called "
               "that; kstats would attach it with the function: clones "
               "yes is its default).")
    r()
    answers = []
    for fn in present:
        rows = []
        for w, wname in (("open", "open-miss"),
                         ("alloc", "alloc-" + f.get("alloc.mode", ""))):
            node = load_snap(d, "%s-%s.json" % (fn, w))
            ops = num(f, w + ".ops")
            c = per_op(f, "%s.%s" % (w, fn), ops)
            base = num(f, w + ".base.ns_per_op")
            if not node or c is None:
                continue
            p50 = node["percentiles"]["p50"]
            avg, floor = node["avg"], node["floor"]
            net50 = p50 - floor
            cps = c / (base * 1e-9) if base else None
            share = c * max(net50, 0) / base if base else None
            rows.append([wname, "%.2f" % c, p50, avg, floor, net50,
                         fmt_count(cps) if cps is not None else "-",
                         "%.1f%%" % (100 * share) if share is not None
                         else "-"])
            answers.append((fn, wname, c, p50, floor))
        r(IND + fn)
        r.block(table(rows, ["workload", "calls/op", "p50", "avg", "floor",
                             "net p50", "calls/s", "CPU share"],
                      "lrrrrrrr"), IND * 2)
    filter_note(r, [f.get("%s.%s.p50_comm" % (w, fn)) for fn in present
                    for w in ("open", "alloc")])
    nets = [a[3] - a[4] for a in answers]
    if answers and all(abs(x) <= max(2, a[4] // 50)
                       for x, a in zip(nets, answers)):
        r.para("net ~ 0: the hooks' bodies are empty.  What they cost is "
               "the call and return themselves (and the CPU-mitigation "
               "thunks on that path), which fall outside what an "
               "entry/exit probe times; the thread measured that end to "
               "end (its open() loop took 4.3% less time without the "
               "call).")
    elif any(x < 0 for x in nets):
        r.para("(a p50 below the floor: the call costs less than this "
               "backend resolves)")
    r.para("(%s; net = value - floor; calls/s = calls/op / untraced time "
           "per op; CPU share = calls/s x net p50%s)"
           % (ks.ICOUNT_NOTE if f.get("icount") == "1" else "ns",
              "; under emulation a rough guide only"
              if f.get("vm") == "1" else ""))
    for fn in present:
        files = ["%s%s-open.json" % (sub, fn), "%s%s-alloc.json" % (sub, fn)]
        out = tools.compare(files)
        if out:
            r()
            r.block(out)
            note = coincide_note(f, [load_snap(d0, x) for x in files])
            if note:
                r.para(note, indent="")
        jobs.append(("hist", [x for x in files if load_snap(d0, x) and
                              load_snap(d0, x)["samples"] >= MIN_PLOT_SAMPLES],
                     "%s-hist" % fn))
    jobs.append(("pct", ["%sshould_failslab-open.json" % sub,
                         "%sshould_failslab-alloc.json" % sub],
                 "should_failslab-pct"))
    for fn in present:
        per = ["%.2f per %s" % (c, "open()" if w == "open-miss" else
                                 "pipe" if w == "alloc-pipe" else w)
               for f_, w, c, p50, floor in answers if f_ == fn]
        one = [a for a in answers if a[0] == fn]
        if not one:
            continue
        per[0] = per[0].replace(" per ", " calls per ", 1)
        text = "%s(): %s; p50 %s on a %s floor" % (
            fn, ", ".join(per), ks.fmt_duration(one[0][3]),
            ks.fmt_duration(one[0][4]))
        if all(abs(a[3] - a[4]) <= max(2, a[4] // 50) for a in one):
            text += ": net ~ 0, an empty body"
        if clones:
            text += "; clones: %s" % ", ".join(
                x for x in clones if x.startswith(fn + "."))
        short.append(("[2/3]", text, kernel_of(f)))


def section_fork(r, f, d, tools, jobs, short):
    heading(r, "[3/3] vm_normal_page() per fork", kernel_of(f))
    if "fork.base.ns_per_op" not in f:
        r.para("not measured (see the scenario's failures above)")
        return
    n = num(f, "fork.n")
    rss = num(f, "fork.rss_pages") or num(f, "fork.base.rss_pages")
    base = num(f, "fork.base.ns_per_op")
    r.para("ks-fork: %d forks of a %s MiB process (%d resident pages, THP "
           "off); untraced %s per fork (fork + the child's exit + wait; "
           "the fork() call alone %s)"
           % (n, f.get("fork.mib", "?"), rss or 0, ks.fmt_duration(base),
              ks.fmt_duration(num(f, "fork.base.fork_ns_per_op"))))
    node = load_snap(d, "vm_normal_page-fork.json")
    c = per_op(f, "fork", num(f, "fork.ops"))
    if node and c is not None:
        p50, floor = node["percentiles"]["p50"], node["floor"]
        net = p50 - floor
        r()
        r(IND + "vm_normal_page (%s)" % f.get("vm_normal_page.attach", "?"))
        r.block(table([
            ["calls per fork", "%.0f" % c],
            ["calls per resident page", "%.2f" % (c / rss) if rss else "-"],
            ["p50 / avg per call", "%s / %s" % (ks.fmt_duration(p50),
                                                ks.fmt_duration(node["avg"]))],
            ["floor (empty function)", ks.fmt_duration(floor)],
            ["net per call (p50 - floor)", ks.fmt_duration(net)],
            ["in vm_normal_page per fork",
             "%s (calls x net)" % ks.fmt_duration(c * max(net, 0))],
            ["share of the untraced fork", "%.1f%%" % (100 * c * max(net, 0)
                                                      / base)
             if base else "-"],
        ], ["", ""], "lr").split("\n", 1)[1], IND * 2)
        r.para("(one call per PTE copied by fork, one per PTE zapped by the "
               "child's exit)")
        filter_note(r, [f.get("fork.p50_comm")])
        jobs.append(("hist", ["vm_normal_page-fork.json"],
                     "vm_normal_page-hist"))
        text = ("vm_normal_page(): %.0f calls per fork of %s MiB (%s per "
                "resident page), net %s a call: %s" % (
                    c, f.get("fork.mib", "?"),
                    "%.2f" % (c / rss) if rss else "-",
                    ks.fmt_duration(net), ks.fmt_duration(c * max(net, 0))))
        if base:
            text += ", %.1f%% of the untraced fork" % (
                100 * c * max(net, 0) / base)
        short.append(("[3/3]", text, kernel_of(f)))
    path = f.get("fork.path")
    if path:
        pnode = load_snap(d, "%s-fork.json" % path)
        if pnode:
            r()
            r.para("the whole fork path, %s, traced alone (%d calls: %d "
                   "forks + the scenario's own small ones):"
                   % (path, pnode["samples"], n))
            r()
            r.block(tools.show("%s-fork.json" % path))
            jobs.append(("hist", ["%s-fork.json" % path], "%s-hist" % path))


def header(r, f, fh):
    """Date, emulation, units, and the kernel of each part."""
    vm = f.get("vm") == "1"
    r("kstats demo, %s" % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    where = (("QEMU TCG%s" % (" -icount" if f.get("icount") == "1" else ""))
             if vm else "real machine")
    cpus = "%s %s%s" % (f.get("cpus", "?"), "vCPU" if vm else "CPU",
                        "" if f.get("cpus") == "1" else "s")
    if vm and f.get("icount") == "1":
        r.para("%s, %s: units: %s (repeatable, not wall time); counts and "
               "ratios are meaningful." % (where, cpus, ks.ICOUNT_NOTE),
               indent="")
    elif vm:
        r.para("%s, %s: absolute ns are not meaningful here; counts and "
               "ratios are (make demo-host measures real ns)."
               % (where, cpus), indent="")
    else:
        r.para("%s, %s." % (where, cpus), indent="")
    k, kh = kernel_of(f), kernel_of(fh) if fh else None
    if kh and kh != k:
        r.para("kernels: [1/3] and [3/3] on %s, [2/3] on %s" % (k, kh),
               indent="")
    else:
        r.para("kernel: %s, all three parts" % k, indent="")


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
    body, short, jobs = Report(), [], []
    section_find_vma(body, f, d, tools, jobs, short)
    section_find_vma_tcg(body, d, tools, jobs)
    body()
    section_failslab(body, f, d, tools, jobs, short)
    body()
    section_fork(body, f, d, tools, jobs, short)
    section_callers(body, f, d, tools)
    body()

    r = Report()
    fh, _, sub = hooks_source(d, f)
    header(r, f, fh if sub else None)
    for note in args.note:
        r.para(note, indent="")
    r()
    if short:
        r("In short:")
        for part, text, kernel in short:
            r.para("on %s: %s" % (kernel, text), indent=" " * 8,
                   first="  %-6s" % part)
        r()
    r.lines += body.lines
    if not args.no_plots:
        written = plots(d, jobs)
        figs = sorted(x for x in written if not x.startswith("("))
        for x in written:
            if x.startswith("("):
                r.para(x, indent="")
        r.para("figures: %s (each also as .svg)"
               % (", ".join(f for f in figs if f.endswith(".png"))
                  or "none"), indent="  ", first="")
    snaps = sorted(os.path.relpath(p, d) for p in
                   glob.glob(os.path.join(d, "*.json")) +
                   glob.glob(os.path.join(d, "hooks", "*.json")))
    zeros = [(x, clamped_calls(load_snap(d, x)), load_snap(d, x)["samples"])
             for x in snaps if clamped_calls(load_snap(d, x))]
    if zeros:
        r.para("note: calls recorded as 0 ns (the exit clock read behind the "
               "entry clock, clamped by the module): %s" % ", ".join(
                   "%s %d of %d" % (x, z, n) for x, z, n in zeros), indent="")
    r.para("snapshots: %s" % ", ".join(snaps), indent="  ", first="")
    folder = os.path.abspath(d)
    rel = os.path.relpath(folder)
    r("folder: %s" % (rel if len(rel) < len(folder) else folder))
    text = r.text()
    with open(os.path.join(d, "report.txt"), "w") as out:
        out.write(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
