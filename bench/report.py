#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's benchmark records into the table and bench.json.

    bench/report.py [--out FILE] [--check] [--beside DIR]... DIR...

Each DIR is bench-out/vm/KVER, holding res-icount/ (the icount boot:
records in 'results', tool outputs in raw/) and res-read/ (the boot with
many vCPUs).  A record is one line 'SECTION key=value ...' written by
bench/scenarios/*.sh.  Overheads are guest instructions per traced call:
(time per operation traced - untraced) / traced calls per operation.

Over 600 lines on purpose: one reader of the records and one writer of the
table and the JSON, one function per section of the table (the records
of each bench/scenarios/*.sh), which must agree on the same keys.
"""

import argparse
import datetime
import json
import os
import re
import sys
from urllib.parse import unquote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import insns  # noqa: E402  (bench/insns.py)

SCHEMA = "kstats-bench/1"
SANE = (0, 100000)	# instructions per call a sane overhead lies within


def read_records(path):
    recs = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                words = line.split()
                if not words:
                    continue
                rec = {"_": words[0]}
                for w in words[1:]:
                    k, _, v = w.partition("=")
                    rec[k] = v
                recs.append(rec)
    except FileNotFoundError:
        pass
    return recs


def num(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def direct_targets(b, arm64=False):
    """The direct backend's figures against its targets (docs/direct.md):
    on x86-64 a timed call at most 66 instructions, the floor (p50 of the
    empty function, the node's floor field) at most 10, an untimed call
    (stopped, sampled out) at most 8; on arm64 a timed call at most 100,
    an untimed one at most 15."""
    e = b.get("empty", {})
    lim = (100, None, 15, 15) if arm64 else (66, 10, 8, 8)
    figs = (("timed", e.get("overhead"), lim[0]), ("floor", e.get("floor"), lim[1]),
            ("stopped", b.get("stopped", {}).get("overhead"), lim[2]),
            ("sampled out", b.get("sample", {}).get("unsampled"), lim[3]))
    figs = tuple(f for f in figs if f[2] is not None)
    out = []
    for name, v, lim in figs:
        if v is None:
            out.append("%s n/a" % name)
        else:
            # to the instruction: a tenth over is the loop's noise (a
            # timer interrupt's share), not part of a call's path
            out.append("%s %s (<= %d: %s)" % (name, fmt(v), lim,
                                              "met" if round(v) <= lim else "MISSED"))
    return ", ".join(out)


def direct_paths(d, kernel):
    """The direct backend's plain paths walked in the disassembly of the
    kstats.ko the run loaded (bench/insns.py): instructions and the
    expensive ones per path, or {"why": ...}."""
    ko = os.path.join(d, "res-icount", "kstats.ko")
    if not os.path.exists(ko) and kernel:
        ko = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vm", "out",
                          kernel, "modules", "kstats.ko")
    if not os.path.exists(ko):
        return {"why": "no kstats.ko beside the records"}
    arch = "arm64" if (kernel or "").endswith("-arm64") else "x86_64"
    try:
        res = insns.count(ko, arch)
    except (RuntimeError, OSError, insns.subprocess.CalledProcessError) as e:
        return {"why": str(e)}
    for e in res.values():
        del e["listing"]
    return res


def paths_measured(k):
    """Each walked path's measured figure: the empty function's overhead
    for the timed path, the stopped node's for the stopped one, a
    sampled-out call's for that one."""
    d = k["kstats"].get("direct", {})
    return {"timed": d.get("empty", {}).get("overhead"),
            "stopped": d.get("stopped", {}).get("overhead"),
            "sampled out": d.get("sample", {}).get("unsampled")}


def paths_lines(k):
    """The walked paths beside the measured figures: the two agree unless
    the code and the table drifted apart."""
    p = k.get("paths") or {}
    if "why" in p or not p:
        return ["   direct paths in the disassembly: n/a (%s)" % p.get("why", "not walked")]
    meas = paths_measured(k)
    out = ["   direct paths walked in kstats.ko's disassembly (bench/insns.py), against the"
           " measured figure:"]
    for name, e in p.items():
        out.append("     %s (measured %s)" % (insns.line(name, e), fmt(meas.get(name))))
    return out


def paths_drift(k):
    """A walked path that disagrees with its measured figure by more than
    2 instructions: the table no longer describes the code."""
    p = k.get("paths") or {}
    d = k["kstats"].get("direct", {})
    if "why" in p or not d.get("available", True) or not d:
        return []
    bad = []
    for name, m in paths_measured(k).items():
        w = (p.get(name) or {}).get("instructions")
        if m is not None and w is not None and abs(m - w) > 2:
            bad.append("%s: the %s path walks %d instructions, %s measured"
                       % (k["kernel"], name, w, fmt(m)))
    return bad


def per_call(traced, base, calls):
    if traced is None or base is None or not calls:
        return None
    return round((traced - base) / calls, 1)


_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _bpf_value(s):
    m = re.fullmatch(r"(\d+)([KMG]?)", s.strip())
    return int(m.group(1)) * _SUFFIX[m.group(2)] if m else None


def parse_bpftrace_hist(text):
    """Buckets [(lo, hi_exclusive, count)] of the @h histogram."""
    buckets = []
    for line in text.splitlines():
        m = re.match(r"^\[([^,\]]+)(?:,\s*([^)]+)\))?\]?\s+(\d+)\s+\|", line)
        if not m:
            continue
        lo = _bpf_value(m.group(1))
        hi = _bpf_value(m.group(2)) if m.group(2) else (lo + 1 if lo is not None else None)
        if lo is None or hi is None:
            continue
        buckets.append((lo, hi, int(m.group(3))))
    return buckets


_UNIT = {"ns": 1, "us": 1000, "ms": 1000000}


def parse_perf_hist(text):
    """Buckets of perf ftrace latency -n output (ns)."""
    buckets = []
    for line in text.splitlines():
        m = re.match(r"^\s*(\d+)\s*-\s*(\d+|\.\.\.)\s*(ns|us|ms)\s*\|\s*(\d+)\s*\|",
                     line)
        if not m:
            continue
        u = _UNIT[m.group(3)]
        lo = int(m.group(1)) * u
        hi = int(m.group(2)) * u if m.group(2) != "..." else None
        buckets.append((lo, hi, int(m.group(4))))
    return buckets


def hist_p50(buckets):
    total = sum(c for _, _, c in buckets)
    if not total:
        return None, 0
    acc = 0
    for lo, hi, c in buckets:
        acc += c
        if 2 * acc >= total:
            return (lo, hi), total
    return None, total


def fmt_range(r):
    if not r:
        return "-"
    lo, hi = r
    if hi is None:
        return ">=%d" % lo
    if hi == lo + 1:
        return "%d" % lo
    return "%d-%d" % (lo, hi - 1)


def read_params(path):
    """The boot's params file (KEY='VALUE' lines), as a dict."""
    params = {}
    try:
        with open(path) as f:
            for line in f:
                k, _, v = line.strip().partition("=")
                params[k] = v.strip("'")
    except FileNotFoundError:
        pass
    return params


def kernel_and_tools(kr, recs):
    """The kernel release (the icount boot's first) and the tool versions."""
    for r in recs:
        if r["_"] == "info" and r.get("icount") == "1":
            kr["kernel"] = r.get("kver")
        if r["_"] == "info" and not kr["kernel"]:
            kr["kernel"] = r.get("kver")
        if r["_"] == "tool":
            kr["tools"][r.get("name")] = unquote(r.get("version", ""))


def baselines(kr, icount):
    """The untraced workloads, before and after everything.

    Fills kr["baseline"]; returns {kind: (min, ops)} of the first run.
    """
    base = {}
    for r in icount:
        if r["_"] == "base":
            b = kr["baseline"].setdefault(r["kind"], {})
            b[r.get("when", "before")] = {"min": num(r.get("min")),
                                          "median": num(r.get("median")),
                                          "ops": num(r.get("ops"))}
    for kind, b in kr["baseline"].items():
        first = b.get("before") or b.get("after")
        base[kind] = (first["min"], first["ops"])
        first["per_op"] = round(first["min"] / first["ops"], 1) if first["ops"] else None
        if b.get("before") and b.get("after") and b["before"]["min"]:
            b["drift_ppm"] = round(1e6 * (b["after"]["min"] - b["before"]["min"])
                                   / b["before"]["min"])
    return base


def candidates(kr, icount):
    """The workload's candidate functions and the default backend."""
    for r in icount:
        if r["_"] == "cand":
            c = {"name": r["name"], "present": r.get("present") == "1"}
            if c["present"] and num(r.get("calls")) is not None:
                c["calls_per_open"] = round(num(r["calls"]) / num(r["ops"]), 3)
                c["attach"] = r.get("attach")
                c["p50"] = num(r.get("p50"))
            kr["candidates"].append(c)
        elif r["_"] == "default":
            kr["default_backend"] = r.get("via")


def workload_functions(kr, icount, reps):
    """Calls per open() of each workload function: kstats' exact count."""
    for r in icount:
        if r["_"] == "kstats" and r.get("mode") == "full" and r.get("kind") == "open":
            f = r["target"]
            calls, ops = num(r.get("calls")), num(r.get("ops"))
            if f not in kr["functions"] and calls and ops:
                kr["functions"][f] = {
                    "calls_per_op": round(calls / (ops * reps), 4),
                    "attach": r.get("attach")}


def calls_per_op(kr, target, kind):
    """Traced calls per operation of @target under workload @kind."""
    if kind == "empty":
        return 1.0
    f = kr["functions"].get(target)
    return f["calls_per_op"] if f else None


def overhead(kr, base, r):
    """Instructions record @r added per traced call, against the baseline."""
    kind = r.get("kind")
    if kind not in base:
        return None
    bmin, _ = base[kind]
    ops = num(r.get("ops"))
    cpo = calls_per_op(kr, r["target"], kind)
    if not ops or not cpo:
        return None
    return per_call(num(r.get("min")), bmin, ops * cpo)


def kstats_figures(kr, icount, base):
    """kstats' figures per backend (kr["kstats"])."""
    for r in icount:
        if r["_"] == "kstats":
            b = kr["kstats"].setdefault(r["via"], {"available": True})
            key = r["target"] if r["mode"] == "full" else r["mode"]
            e = {"overhead": overhead(kr, base, r), "min": num(r.get("min")),
                 "median": num(r.get("median"))}
            for k in ("p50", "floor", "samples", "missed"):
                if r.get(k) not in (None, ""):
                    e[k] = num(r[k])
            if r.get("attach"):
                e["attach"] = r["attach"]
            b[key] = e
            if r["mode"] == "sample" and b.get("empty", {}).get("overhead") is not None \
                    and e["overhead"] is not None:
                # avg = ((n - 1) unsampled + 1 timed) / n, the timed call
                # costing at least a full one (it takes the C path, about
                # 130 more on direct): with n = 10,000 that error is at
                # most 0.02
                n = int(num(r.get("every")) or 100)
                e["every"] = n
                e["unsampled"] = round((n * e["overhead"] - b["empty"]["overhead"]) / (n - 1), 1)
        elif r["_"] == "unavail" and r.get("via"):
            if r.get("target") == "ks_target_empty" and r.get("mode", "full") == "full":
                kr["kstats"].setdefault(r["via"], {})
                kr["kstats"][r["via"]].update(
                    {"available": False, "why": unquote(r.get("why", ""))})


def raw_text(raw, r):
    """The raw output file record @r names in folder @raw ("" if unreadable)."""
    try:
        with open(os.path.join(raw, r.get("raw", "")), errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def alternative(kr, base, r, raw, reps):
    """One alternative tool's figures for record @r, from its raw output."""
    e = {"overhead": overhead(kr, base, r), "min": num(r.get("min")),
         "median": num(r.get("median"))}
    text = raw_text(raw, r)
    if r["tool"].startswith("perf"):
        hist = parse_perf_hist(text)
    else:
        hist = parse_bpftrace_hist(text)
    p50, total = hist_p50(hist)
    if r["tool"] == "bpftrace-count":
        m = re.search(r"^@c:\s*(\d+)", text, re.M)
        total = int(m.group(1)) if m else 0
    else:
        e["p50"] = fmt_range(p50)
        e["p50_range"] = list(p50) if p50 else None
    e["count"] = total
    cpo = calls_per_op(kr, r["target"], r["kind"])
    ops = num(r.get("ops"))
    if cpo and ops:
        # warm-up + timed reps, each ops operations
        e["expected_count"] = round(ops * cpo * (reps + 1))
    return e


def alternatives(kr, icount, base, raw, reps):
    """The other tools' figures (kr["alternatives"])."""
    for r in icount:
        if r["_"] == "alt":
            a = kr["alternatives"].setdefault(r["tool"], {})
            a[r["target"]] = alternative(kr, base, r, raw, reps)
        elif r["_"] == "unavail" and r.get("tool"):
            a = kr["alternatives"].setdefault(r["tool"], {})
            a[r.get("target", "all")] = {"overhead": None,
                                         "why": unquote(r.get("why", ""))}


def unavailable(icount, tool):
    """Why @tool was not measured, from its 'unavail' record."""
    why = [r.get("why") for r in icount
           if r["_"] == "unavail" and r.get("tool") == tool]
    return {"why": unquote(why[0] if why else "not measured")}


def record_path(icount):
    """The hot path's pieces (ks_bench.ko)."""
    micro = {r["what"]: r for r in icount if r["_"] == "micro"}
    if "base" not in micro:
        return unavailable(icount, "ks_bench")
    bmin = num(micro["base"]["min"])
    ops = num(micro["base"]["ops"])
    rp = {"base_per_call": round(bmin / ops, 1)}
    for what in ("record", "clock", "want"):
        if what in micro:
            rp[what] = per_call(num(micro[what]["min"]), bmin, ops)
    return rp


def section_pair(icount):
    """The annotation API's section pair (42-api): an empty pair against
    the same function without it, with no API node (static key off) and
    with an active one."""
    api = {(r["state"], r["what"]): r for r in icount if r["_"] == "api"}
    sp = {}
    for state, key in (("off", "disabled"), ("on", "enabled")):
        e, b = api.get((state, "empty")), api.get((state, "bare"))
        if e and b:
            sp[key] = per_call(num(e["min"]), num(b["min"]), num(e["ops"]))
    return sp or unavailable(icount, "api")


def reads(readb):
    """The node-file reads of the boot with many vCPUs, or None."""
    rs = [r for r in readb if r["_"] == "read"]
    if not rs:
        return None
    return [{"bits": num(r["bits"]), "cpus": num(r["cpus"]),
             "icount": r.get("icount") == "1",
             "rows": num(r["rows"]), "bytes": num(r["bytes"]),
             "min_ns": num(r["min"]), "median_ns": num(r["median"])}
            for r in rs]


GLOB_TOOLS = {"bpftrace-kprobe": "bpftrace kprobe:GLOB, a hist() per function",
              "bpftrace-kfunc": "bpftrace kfunc:GLOB, a hist() per function",
              "ftrace-profiler": "ftrace function profiler",
              "perf-profile": "perf ftrace profile"}


def globs(icount, raw):
    """Many functions at once (47-glob): per glob, the one write that
    attaches them and the one that removes them (guest ns), the memory
    per node, and the cost per traced call with that many attached, for
    kstats and the tools that take globs too."""
    base = [r for r in icount if r["_"] == "globbase"]
    if not base:
        why = [unquote(r.get("why", "")) for r in icount
               if r["_"] == "globunavail" and r.get("tool") == "kstats"]
        return {"why": why[0]} if why else None
    g = {"baseline": {r["when"]: {"min": num(r["min"]), "median": num(r["median"])}
                      for r in base},
         "sets": [], "alternatives": {}, "unavailable": {}}
    bmin = g["baseline"].get("before", g["baseline"].get("after"))["min"]
    sets = {}
    for r in icount:
        if r["_"] == "globattach":
            e = sets.setdefault(r["glob"], {"glob": r["glob"], "attach_all": [],
                                             "remove_all": []})
            e["attach_all"].append(num(r["trace"]))
            e["remove_all"].append(num(r["remove"]))
            if r.get("pass") == "1":
                e["matched"] = num(r.get("matched"))
                e["attached"] = num(r.get("attached"))
                e["via"] = unquote(r.get("via", ""))
                n = e["attached"] or 0
                if n:
                    e["memory_per_node"] = {k: round(1024 * num(r["d" + k]) / n)
                                            for k in ("percpu", "slab", "vmalloc")
                                            if num(r.get("d" + k)) is not None}
                    e["memory_kept_after_remove"] = unquote(r.get("kept", ""))
        elif r["_"] == "globcall":
            e = sets.setdefault(r["glob"], {"glob": r["glob"], "attach_all": [],
                                             "remove_all": []})
            calls, ops = num(r.get("calls")), num(r.get("ops"))
            e["calls_per_op"] = round(calls / ops, 1) if calls and ops else None
            e["ops"] = ops
            e["per_call"] = per_call(num(r.get("min")), bmin, e["calls_per_op"])
            e["min"] = num(r.get("min"))
    for e in sets.values():
        e["attach"] = min((t for t in e["attach_all"] if t is not None), default=None)
        e["remove"] = min((t for t in e["remove_all"] if t is not None), default=None)
        g["sets"].append(e)
    cpo = {e["glob"]: e.get("calls_per_op") for e in g["sets"]}
    for r in icount:
        if r["_"] == "globalt":
            a = {"min": num(r.get("min")), "median": num(r.get("median")),
                 "funcs": num(r.get("funcs")),
                 "overhead": per_call(num(r.get("min")), bmin, cpo.get(r["glob"]))}
            text = raw_text(raw, r)
            if r["tool"].startswith("bpftrace"):
                a["count"] = sum(c for _, _, c in parse_bpftrace_hist(text))
            elif num(r.get("count")) is not None:
                a["count"] = num(r["count"])
            g["alternatives"].setdefault(r["tool"], {})[r["glob"]] = a
        elif r["_"] == "globunavail" and r.get("tool") != "kstats":
            g["unavailable"].setdefault(r["tool"], unquote(r.get("why", "")))
    return g


def glob_table(g, single=None):
    """The lines of the many-functions table; @single: the per-call
    overhead of one traced empty function on the direct backend."""
    out = []
    if not g:
        return out
    if "why" in g:
        return ["   many functions (globs): n/a (%s)" % g["why"]]
    out.append("   many functions: globs over kstats_target's kt_gen family; workload: \"1\" written"
               " to gen (kt_gen_I called I + 1 times)")
    out.append("   attach/remove: the one write() of \"trace GLOB bits 3\" / \"remove GLOB\", guest ns"
               " (grace periods included), best of %d" % max(len(e["attach_all"]) for e in g["sets"]))
    out.append("   ovh: instructions added per traced call; mem: module memory per node"
               " (/proc/meminfo Percpu + Slab + VmallocUsed)")
    tools = [t for t in g["alternatives"]]
    hdr = ["glob", "functions", "attach", "remove", "kstats ovh", "mem"] + \
        [GLOB_TOOLS.get(t, t).replace(", a hist() per function", "") + " ovh" for t in tools]
    rows = [hdr]
    for e in g["sets"]:
        m = e.get("memory_per_node") or {}
        mem = sum(m.values()) if m else None
        row = [e["glob"], fmt(e.get("attached")), fmt(e.get("attach")), fmt(e.get("remove")),
               fmt(e.get("per_call")),
               # a few nodes are lost in /proc/meminfo's pages and noise
               ("%s B" % fmt(mem)) if mem is not None and e.get("attached", 0) >= 100 else "-"]
        for t in tools:
            a = g["alternatives"][t].get(e["glob"], {})
            row.append(fmt(a.get("overhead")))
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(hdr))]
    for r in rows:
        out.append("   " + "  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                                      for i, c in enumerate(r)).rstrip())
    s = [e for e in g["sets"] if e.get("attached")]
    if len(s) > 1:
        one, many = s[0], s[-1]
        if one.get("attach") and many.get("attach") and one.get("remove") and many.get("remove"):
            out.append("   %s functions against %s: attach %.1fx, remove %.1fx the time"
                       " (the target: at most 3x)"
                       % (fmt(many["attached"]), fmt(one["attached"]),
                          many["attach"] / one["attach"], many["remove"] / one["remove"]))
        if one.get("per_call") is not None and many.get("per_call") is not None:
            out.append("   per call with %s attached: %+.1f instructions against %s attached%s"
                       " (the target: within 10)"
                       % (fmt(many["attached"]), many["per_call"] - one["per_call"],
                          fmt(one["attached"]),
                          "" if single is None else
                          ", %+.1f against ks_target_empty alone on direct (%s)"
                          % (many["per_call"] - single, fmt(single))))
        m = many.get("memory_per_node")
        if m:
            out.append("   memory per node over %s nodes (bits 3): %s; after remove: %s"
                       % (fmt(many["attached"]), ", ".join("%s %s B" % (k, fmt(v))
                                                            for k, v in m.items()),
                          many.get("memory_kept_after_remove") or "?"))
    for t, tab in g["alternatives"].items():
        for e in g["sets"]:
            a = tab.get(e["glob"])
            if a and a.get("count") is not None and e.get("calls_per_op") and e.get("ops"):
                a["expected_count"] = round(e["calls_per_op"] * e["ops"])
                if a["count"] < 0.9 * a["expected_count"]:
                    out.append("   %s on %s: its histograms hold %d%% of the calls"
                               % (GLOB_TOOLS.get(t, t), e["glob"],
                                  round(100 * a["count"] / a["expected_count"])))
            if a and a.get("funcs") is not None and e.get("attached") and \
                    a["funcs"] < e["attached"]:
                out.append("   %s on %s: a histogram for %d of the %d functions"
                           % (GLOB_TOOLS.get(t, t), e["glob"], a["funcs"], e["attached"]))
    for t, why in g["unavailable"].items():
        out.append("   %s: n/a (%s)" % (GLOB_TOOLS.get(t, t), why))
    return out


def whole(icount):
    """55-whole: every function at once, kstats against ftrace's function
    tracer: attach and remove, the workload's slowdown, the cost per call
    and memory.  None when the scenario did not run."""
    recs = [r for r in icount if r["_"].startswith("whole")]
    if not recs:
        return None
    w = {"work": {}, "attach": {}, "per_call": {}, "memory": None}
    for r in recs:
        if r["_"] == "wholework":
            w["work"].setdefault(r["tool"], {})[r["op"]] = {
                "n": num(r["n"]), "min": num(r["min"]), "median": num(r["median"])}
        elif r["_"] == "wholeattach":
            w["attach"][r["tool"]] = {"n": num(r["n"]), "on": num(r["on"]),
                                      "off": num(r["off"])}
        elif r["_"] == "wholecall":
            n, m1, m2 = num(r["n"]), num(r["min1"]), num(r["min2"])
            if n and m1 is not None and m2 is not None:
                w["per_call"][r["traced"]] = (m2 - m1) / n
        elif r["_"] == "wholegen":
            w.setdefault("gen", {})[r["traced"]] = {
                "min": num(r["min"]), "median": num(r["median"]), "calls": num(r["calls"])}
        elif r["_"] == "wholemem":
            w["memory"] = {k: num(v) for k, v in r.items() if k != "_"}
    base = w["work"].get("none", {})
    w["slowdown"] = {}
    for tool in ("ftrace", "kstats"):
        for op, v in w["work"].get(tool, {}).items():
            b = base.get(op, {}).get("median")
            if b and v.get("median"):
                w["slowdown"].setdefault(tool, {})[op] = v["median"] / b
    g = w.get("gen", {})
    if "none" in g and "all" in g and g["all"]["calls"]:
        # the calls of the warm-ups and timed runs, REPS + 2 of them
        ops = max(1, round(g["all"]["calls"] / 524800))
        w["gen_per_call"] = (g["all"]["min"] - g["none"]["min"]) / (g["all"]["calls"] / ops)
    pc = w["per_call"]
    if "none" in pc:
        w["overhead"] = {k: v - pc["none"] for k, v in pc.items() if k != "none"}
    return w


def whole_lines(w):
    """The text of whole()'s figures, under a kernel's table."""
    if not w:
        return []
    out = ["   every function at once (55-whole): kstats \"trace * via direct bits 3\""
           " against ftrace's function tracer, guest instructions"]
    a = w["attach"]
    for tool, name in (("ftrace", "function tracer"), ("kstats", "kstats")):
        if tool in a:
            out.append("     %-15s %6s functions: on %s, off %s"
                       % (name, fmt(a[tool]["n"]), fmt(a[tool]["on"]), fmt(a[tool]["off"])))
    if "ftrace" in a and "kstats" in a and a["ftrace"]["on"] and a["ftrace"]["off"]:
        out.append("     kstats against the tracer: attach %.1fx, remove %.1fx (the target: 2x)"
                   % (a["kstats"]["on"] / a["ftrace"]["on"], a["kstats"]["off"] / a["ftrace"]["off"]))
    base = w["work"].get("none", {})
    for op, what in (("fork", "fork()s"), ("open", "failed open()s")):
        if op not in base:
            continue
        parts = ["%s %.1fx" % (t, w["slowdown"][t][op]) for t in ("ftrace", "kstats")
                 if op in w["slowdown"].get(t, {})]
        out.append("     workload: %s %s untraced %s instr; slowdown %s"
                   % (fmt(base[op]["n"]), what, fmt(base[op]["median"]), ", ".join(parts)))
    o = w.get("overhead", {})
    if "one" in o and "all" in o:
        out.append("     per call of ks_target_empty: +%.1f instr with it alone traced, +%.1f with"
                   " everything (%+.1f; the target: within +5)" % (o["one"], o["all"], o["all"] - o["one"]))
    if w.get("gen_per_call") is not None:
        out.append("     per call of the 1,024 kt_gen functions with everything traced: +%.1f instr"
                   " on average" % w["gen_per_call"])
    m = w.get("memory")
    if m:
        out.append("     memory (Percpu + Slab + VmallocUsed): %s kB for %s nodes (%s B a node),"
                   " %s kB after the workload (%s functions called), %s CPUs"
                   % (fmt(m.get("attached_kb")), fmt(m.get("nodes")),
                      fmt(1024 * m["attached_kb"] / m["nodes"]) if m.get("nodes") else "n/a",
                      fmt(m.get("worked_kb")), fmt(m.get("called")), m.get("cpus")))
        if m.get("nodes") and m.get("slots_kb") is not None:
            out.append("     of it the slots' caches (spares_max's spares, the slots of what ran during"
                       " the attach) %s kB: %s B a node without them"
                       % (fmt(m["slots_kb"]),
                          fmt(1024 * (m["attached_kb"] - m["slots_kb"]) / m["nodes"])))
    return out


def kernel_report(d):
    """Everything one kernel's folder @d holds, as bench.json's entry."""
    icount = read_records(os.path.join(d, "res-icount", "results"))
    readb = read_records(os.path.join(d, "res-read", "results"))
    raw = os.path.join(d, "res-icount", "raw")
    kr = {"kernel": None, "params": {}, "baseline": {}, "functions": {},
          "candidates": [], "default_backend": None, "kstats": {},
          "alternatives": {}, "record_path": None, "section_pair": None, "memory": None,
          "read": None, "tools": {}}
    kr["params"] = read_params(os.path.join(d, "res-icount", "params"))
    reps = num(kr["params"].get("REPS")) or 1

    kernel_and_tools(kr, icount + readb)
    base = baselines(kr, icount)
    candidates(kr, icount)
    workload_functions(kr, icount, reps)
    kstats_figures(kr, icount, base)
    alternatives(kr, icount, base, raw, reps)
    kr["record_path"] = record_path(icount)
    kr["section_pair"] = section_pair(icount)
    kr["paths"] = direct_paths(d, kr["kernel"])

    # What a default "trace" and a "remove" cost (45-tracecost): guest
    # time, so it includes the grace periods ftrace waits for.
    tc = [r for r in icount if r["_"] == "tracecost"]
    if tc:
        kr["tracecost"] = [{"pass": num(r["n"]), "func": r.get("func"),
                            "trace": num(r["trace"]), "remove": num(r["remove"])} for r in tc]

    # Memory: sizes from ks_bench.ko (the read boot's, else the icount one's).
    for sub in ("res-read", "res-icount"):
        p = os.path.join(d, sub, "raw", "sizes.txt")
        if os.path.exists(p):
            kr["memory"] = memory(p)
            break

    kr["read"] = reads(readb)
    kr["globs"] = globs(icount, raw)
    kr["whole"] = whole(icount)
    return kr


def memory(path):
    m = {"per_bits": []}
    with open(path) as f:
        for line in f:
            w = line.split()
            kv = dict(zip(w[0::2], (int(x) for x in w[1::2])))
            if "ks_pcpu" in kv:
                m.update(kv)
            elif "bits" in kv:
                m["per_bits"].append(kv)
    node = m.get("ks_node", 0)
    hdr = m.get("ks_pcpu", 0)
    for b in m["per_bits"]:
        # every CPU records; one of sixteen records (its slots and a spare)
        b["total_16cpus"] = 16 * b["pcpu_bytes"] + node
        b["total_1of16"] = 16 * hdr + 2 * (b["pcpu_bytes"] - hdr) + node
    return m


def fmt(v, nd=0):
    if v is None:
        return "n/a"
    if nd == 0:
        return "{:,}".format(int(round(v)))
    return "{:,.{}f}".format(v, nd)


TOOL_NAMES = {"bpftrace-kprobe": "bpftrace kprobe+kretprobe hist()",
              "bpftrace-kfunc": "bpftrace kfunc+kretfunc hist()",
              "bpftrace-count": "bpftrace kfunc count() only",
              "bpftrace-kcaller": "bpftrace kfunc+kretfunc @[kstack(1)]=hist()",
              "bpftrace-kstack": "bpftrace kfunc+kretfunc @[kstack]=hist()",
              "perf-ftrace": "perf ftrace latency -T"}


def table(k):
    out = []
    funcs = list(k["functions"])
    rp = k.get("record_path") or {}
    rec = fmt(rp.get("record"))
    out.append("== %s: guest instructions (QEMU -icount shift=0)" % (k["kernel"] or "?"))
    be = k["baseline"].get("empty", {}).get("before", {})
    bo = k["baseline"].get("open", {}).get("before", {})
    out.append("   untraced: empty-function loop %s instr/call; open(\"non_existent\") %s instr/op"
               % (fmt(be.get("per_op"), 1), fmt(bo.get("per_op"))))
    for f in funcs:
        out.append("   %s: %s calls per open() (kstats' exact count), attached as %s"
                   % (f, fmt(k["functions"][f]["calls_per_op"], 2),
                      k["functions"][f].get("attach") or "?"))
    cands = ["%s %s%s" % (c["name"], fmt(c["calls_per_open"], 2),
                          " (%s)" % c["attach"].split(":", 1)[-1]
                          if "," in (c.get("attach") or "") else "")
             for c in k["candidates"] if c.get("calls_per_open") is not None]
    if cands:
        out.append("   calls per open(): " + ", ".join(cands) + "; absent: " +
                   (", ".join(c["name"] for c in k["candidates"] if not c["present"]) or "-"))
    out.append("   ovh: instructions added per traced call; p50: what the tool reports (ns);"
               " rec: histogram update alone")
    hdr = ["", "ks_target_empty", "", "", ""]
    sub = ["tool", "ovh", "p50", "floor", "rec"]
    for f in funcs:
        hdr += [f, ""]
        sub += ["ovh", "p50"]
    rows = [hdr, sub]
    notes = []
    for via, b in k["kstats"].items():
        name = "kstats %s%s" % (via, " (default)" if via == k["default_backend"] else "")
        if not b.get("available", True):
            notes.append("kstats via %s: n/a (%s)" % (via, b.get("why", "?")))
            continue
        e = b.get("empty", {})
        row = [name, fmt(e.get("overhead")), fmt(e.get("p50")), fmt(e.get("floor")), rec]
        for f in funcs:
            fe = b.get(f, {})
            row += [fmt(fe.get("overhead")), fmt(fe.get("p50"))]
        rows.append(row)
    for tool, a in k["alternatives"].items():
        name = TOOL_NAMES.get(tool, tool)
        row = [name]
        for t in ["empty"] + funcs:
            e = a.get(t, a.get("all"))
            if e is None or e.get("overhead") is None:
                row += ["n/a", ""]
                if e and e.get("why") and (t in a or t == "empty"):
                    notes.append("%s on %s: n/a (%s)" % (name, "all functions" if t not in a
                                                         else t, e["why"]))
            else:
                p = e.get("p50", "-")
                if e.get("expected_count") and e.get("count") is not None and \
                        e["count"] < 0.9 * e["expected_count"]:
                    notes.append("%s on %s: its histogram holds %d%% of the calls"
                                 % (name, t, round(100 * e["count"] / e["expected_count"])))
                    p += "*"
                row += [fmt(e["overhead"]), p]
            if t == "empty":
                row += ["", ""]
        rows.append(row)
    ncol = len(sub)
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(ncol)]
    # the group headers span their columns: widen the first one if needed
    for i, h in enumerate(hdr):
        span = 5 if i == 1 else 2
        if h and i > 0:
            have = sum(widths[i:i + span]) + 2 * (span - 1)
            if len(h) > have:
                widths[i] += len(h) - have
    for n, r in enumerate(rows):
        cells = []
        for i, c in enumerate(r):
            if n == 0 and c:
                span = 5 if i == 1 else 2
                w = sum(widths[i:i + span]) + 2 * (span - 1)
                cells.append(c.center(w))
            elif n == 0:
                continue
            else:
                cells.append(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]))
        if n == 0:
            cells = [" " * widths[0]] + cells
        out.append("   " + "  ".join(cells).rstrip())
    for via, b in k["kstats"].items():
        if not b.get("available", True):
            continue
        parts = []
        if b.get("sample", {}).get("overhead") is not None:
            parts.append("sample %s: %s/call on average, a sampled-out call %s"
                         % (fmt(b["sample"].get("every")), fmt(b["sample"]["overhead"]),
                            fmt(b["sample"].get("unsampled"))))
        if b.get("stopped", {}).get("overhead") is not None:
            parts.append("stopped node %s" % fmt(b["stopped"]["overhead"]))
        if b.get("tsc", {}).get("overhead") is not None:
            parts.append("clock tsc %s (p50 %s cycles)" % (fmt(b["tsc"]["overhead"]),
                                                          fmt(b["tsc"].get("p50"))))
        full = b.get("empty", {}).get("overhead")
        for mode, what in (("callers", "callers 8"), ("slowest", "slowest 16")):
            v = b.get(mode, {}).get("overhead")
            if v is not None:
                parts.append("%s %s (%s against the plain node)"
                             % (what, fmt(v), "%+.0f" % (v - full) if full is not None else "n/a"))
        if parts:
            out.append("   kstats %s: %s" % (via, "; ".join(parts)))
        if via == "direct":
            arm64 = (k.get("kernel") or "").endswith("-arm64")
            out.append("   kstats direct against its targets: %s" % direct_targets(b, arm64))
            out.extend(paths_lines(k))
    if "record" in rp:
        out.append("   hot path pieces (ks_bench.ko): ks_record() %s, two clock reads %s,"
                   " ks_want() %s" % (rec, fmt(rp.get("clock")), fmt(rp.get("want"))))
    else:
        out.append("   record path: n/a (%s)" % rp.get("why", "?"))
    sp = k.get("section_pair") or {}
    if "disabled" in sp or "enabled" in sp:
        out.append("   annotation API, KSTATS_SECTION_START/END around nothing: disabled (no API node)"
                   " %s, enabled %s per pair" % (fmt(sp.get("disabled"), 1), fmt(sp.get("enabled"), 1)))
    else:
        out.append("   annotation API section pair: n/a (%s)" % sp.get("why", "?"))
    tc = k.get("tracecost")
    if tc:
        out.append("   trace %s (guest ns, with the grace periods ftrace waits for): first after"
                   " insmod %s (reads vmlinux BTF), then %s; remove %s"
                   % (tc[0]["func"], fmt(tc[0]["trace"]),
                      " / ".join(fmt(t["trace"]) for t in tc[1:]),
                      " / ".join(fmt(t["remove"]) for t in tc)))
    mem = k.get("memory")
    if mem:
        out.append("   memory per node: struct ks_node %d B, per possible CPU struct ks_pcpu"
                   " (%d B), per CPU that records (and one spare) slots x %d B:"
                   % (mem.get("ks_node", 0), mem.get("ks_pcpu", 0), mem.get("kstats_slot", 0)))
        for b in mem["per_bits"]:
            if b["bits"] in (0, 3, 5, 8):
                out.append("     bits %d (%d buckets): %5d slots, %7s B per recording CPU;"
                           " 16 CPUs: %9s B if all record, %9s B if one does"
                           % (b["bits"], b["buckets"], b["nslots"], fmt(b["pcpu_bytes"]),
                              fmt(b["total_16cpus"]), fmt(b["total_1of16"])))
    out.extend(glob_table(k.get("globs"),
                          k["kstats"].get("direct", {}).get("empty", {}).get("overhead")))
    out.extend(whole_lines(k.get("whole")))
    for r in k.get("read") or []:
        out.append("   read a node file, %d CPUs with samples, bits %d (%d rows, %s bytes): %s %s"
                   % (r["cpus"], r["bits"], r["rows"], fmt(r["bytes"]), fmt(r["min_ns"]),
                      "instructions" if r.get("icount") else
                      "ns (no icount: emulated wall time)"))
    for n in notes:
        out.append("   " + n)
    return "\n".join(out)


def short_name(kernel):
    """6.12.95+deb12-arm64 -> 6.12 arm64: a column of the summary."""
    m = re.match(r"(\d+\.\d+)\..*-(amd64|arm64)$", kernel or "")
    return "%s %s" % m.groups() if m else (kernel or "?")


def summary(kernels, beside=()):
    """Every kernel side by side: instructions added per call of the empty
    function and of path_init, per kstats backend and per tool; the floor.
    @beside: kernels of an earlier run (the other architecture), marked."""
    ks = [(k, "") for k in kernels] + [(k, "*") for k in beside]
    if len(ks) < 2:
        return ""
    # amd64 first, then arm64, each in the order given
    ks.sort(key=lambda e: (e[0]["kernel"] or "").endswith("-arm64"))
    cols = [short_name(k["kernel"]) + mark for k, mark in ks]
    ks = [k for k, _ in ks]
    rows = []

    def fig(e):
        return fmt(e.get("overhead")) if e and e.get("overhead") is not None else "n/a"

    vias = []
    for k in ks:
        vias += [v for v in k["kstats"] if v not in vias]
    tools = []
    for k in ks:
        tools += [t for t in k["alternatives"] if t not in tools]
    for target, label in (("empty", "ks_target_empty"), ("path_init", "path_init")):
        rows.append([label] + [""] * len(ks))
        for via in vias:
            rows.append(["  kstats %s" % via] +
                        [fig(k["kstats"].get(via, {}).get(target))
                         + ("d" if k["default_backend"] == via else "") for k in ks])
        for t in tools:
            rows.append(["  " + TOOL_NAMES.get(t, t)] +
                        [fig(k["alternatives"].get(t, {}).get(target)) for k in ks])
    rows.append(["floor (p50 of the empty function, direct, else the default)"] +
                [fmt((k["kstats"].get("direct") or k["kstats"].get(k["default_backend"]) or {})
                     .get("empty", {}).get("floor")) for k in ks])
    w0 = max(len(r[0]) for r in rows)
    ws = [max([len(c)] + [len(r[i + 1]) for r in rows]) for i, c in enumerate(cols)]
    out = ["== instructions added per traced call, every kernel (QEMU -icount; d: the default backend)"]
    out.append("   " + " " * w0 + "  " + "  ".join(c.rjust(w) for c, w in zip(cols, ws)))
    for r in rows:
        out.append(("   " + r[0].ljust(w0) + "  " +
                    "  ".join(c.rjust(w) for c, w in zip(r[1:], ws))).rstrip())
    if beside:
        out.append("   *: from an earlier run, in bench-out/vm/KVER")
    return "\n".join(out)


def sanity(k):
    """Problems that make the run's figures meaningless."""
    bad = []
    got = 0
    for via, b in k["kstats"].items():
        if not b.get("available", True):
            continue
        for key, e in b.items():
            if not isinstance(e, dict) or key in ("stopped",):
                continue
            o = e.get("overhead")
            # an empty function's calls are timed to the instruction; a
            # function inside open() (path_init...) only to the noise of a
            # whole open(), about 2% of 4,000-10,000 instructions: as large
            # as the direct backend's 70, so bench-short's fewer passes may
            # read it below zero
            lo = SANE[0] if key == "empty" else -SANE[1]
            if o is None:
                bad.append("%s %s %s: no overhead figure" % (k["kernel"], via, key))
            elif not lo < o < SANE[1]:
                bad.append("%s %s %s: overhead %s out of range" % (k["kernel"], via, key, o))
            else:
                got += 1
    w = k.get("whole") or {}
    if w:
        o = w.get("overhead", {}).get("all")
        if o is None or not SANE[0] < o < SANE[1]:
            bad.append("%s every function at once: per-call overhead %s missing or out of range"
                       % (k["kernel"], o))
        else:
            got += 1
    if not got:
        bad.append("%s: no kstats figure at all" % k["kernel"])
    bad.extend(paths_drift(k))
    g = k.get("globs") or {}
    for e in g.get("sets", []):
        o = e.get("per_call")
        if o is None or not SANE[0] < o < SANE[1]:
            bad.append("%s glob %s: per-call overhead %s missing or out of range"
                       % (k["kernel"], e["glob"], o))
        if not e.get("attached") or e.get("attach") is None:
            bad.append("%s glob %s: nothing attached" % (k["kernel"], e["glob"]))
    sp = k.get("section_pair") or {}
    for key in ("disabled", "enabled"):
        o = sp.get(key)
        if key in sp and (o is None or not -SANE[1] < o < SANE[1]):
            bad.append("%s section pair %s: %s out of range" % (k["kernel"], key, o))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="bench-out/bench.json")
    ap.add_argument("--runtime", type=float)
    ap.add_argument("--short", default="0")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless every kstats figure is sane")
    ap.add_argument("--beside", action="append", default=[],
                    help="a kernel's folder of an earlier run, for the summary only")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()

    kernels = [kernel_report(d) for d in args.dirs]
    beside = [kernel_report(d) for d in args.beside]
    doc = {"schema": SCHEMA,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "short": args.short == "1",
           "runtime_s": args.runtime,
           "unit": "guest instructions (QEMU -icount shift=0); read times in guest ns",
           "kernels": {k["kernel"] or os.path.basename(d): k for k, d in zip(kernels, args.dirs)}}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    for k in kernels:
        print(table(k))
        print()
    sm = summary(kernels, beside)
    if sm:
        print(sm)
        print()
    print("JSON: %s" % args.out)
    problems = [p for k in kernels for p in sanity(k)]
    for p in problems:
        print("bench: %s" % p, file=sys.stderr)
    return 1 if problems and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
