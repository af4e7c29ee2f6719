#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""verdicts.json: the A/B results tools/ab/report.py writes next to
report.md, one row per traced function and kernel, and the one reader of
that file (demo/ab_summary.py, tests/ab, tests/kbuild) and writer of its
table.

    tools/ab/verdicts.py DIR FUNCTION KERNEL FIELD [FORMAT]
    tools/ab/verdicts.py DIR --changed KERNEL

prints one field of one row (FORMAT: a %-format for a number, e.g. %.2f),
or nothing when the row or the field is missing; with --changed, the
"what changed" rows of KERNEL, one "RANK NAME VERDICT CHANGE_PCT
COUNT_BASE COUNT_NEW TOTAL_BASE TOTAL_NEW" a line (a verdict's blanks as
_, a missing figure as -; counts and total time per run).

A row: kernel, status ("measured", "absent": the kernel has no such
function or clone, "no result"), and for a measured one attach,
calls_per_op (null when the workload's operations are unknown), bits,
samples and floor (of the median run), mean and p50 (the figures compare
judges: the mean of the run means, p50 of every run together, so that
FIG_change_pct is their change), run_means (the mean of each run),
spread_pct (their spread, in % of the smallest) and verdict (the text;
"(reference)" on the first kernel, "" when the first kernel has no
result) with,
against the reference, from `kstats compare --json` (docs/statistics.md):
for FIG in mean and p50, FIG_change_pct, FIG_change_ci ([lo, hi] in %,
null where unbounded or not judged), FIG_verdict ("better", "worse",
"not measurable"; "better?", "worse?" from fewer than 3 runs a side;
lower is better) and FIG_notes (why: "intervals overlap", "fewer than 3
runs a side: run noise unknown", "base runs bimodal"...), and rows:
every figure compare judged (mean, p10..p99.9), as compare gives them.

timing: "qemu-icount" when the runs were under QEMU -icount (a "ns" is
an instruction), else "".  When a glob was traced: changed, by kernel
(not the reference), {summary: functions (called on either side), worse,
better, not measurable, only in base, only in new (of those; worse and
better count worse? and better?), uncalled
(matched, never called: the last rows); rows: one per function ranked by
change: rank,
name, unit, judged_by (mean or p50), change_pct, change_ci, verdict,
notes, and runs_, count_ and total_ (per run), mean_ and p50_ of base
and new}, with summary.rank "total" when ranked by the change of total
time per run (kstats-ab --rank total), else by the mean's or p50's; and
top, the functions given a section of their own.
"""

import json
import os
import signal
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "plots"))
from kstats_snapshot import ICOUNT_NOTE as KS_ICOUNT_NOTE, fmt_duration  # noqa: E402

SCHEMA = "kstats-ab-verdicts/1"
FILE = "verdicts.json"

ABSENT = "absent in this kernel (no such function or clone)"


def fmt_ci(ci):
    """[lo, hi] in % as "[+3.1%, +7.6%]"; "" when not judged."""
    if not ci or ci[0] is None and ci[1] is None:
        return ""
    f = lambda x, s: "%sinf" % s if x is None else "%+.1f%%" % x  # noqa: E731
    return "[%s, %s]" % (f(ci[0], "-"), f(ci[1], "+"))


def judged(r, f):
    """Fill row @r from function @f of a `kstats compare --json` document:
    its mean and p50 are the new side's, as compare judged them.  Returns
    the base side's {"mean": ..., "p50": ...}."""
    rows = {x["figure"]: x for x in f["rows"]}
    words, base = [], {}
    for fig in ("mean", "p50"):
        x = rows[fig]
        base[fig] = x["base"]
        if x["new"] is not None:
            r[fig] = x["new"]
        r[fig + "_change_pct"] = x["change_pct"]
        r[fig + "_change_ci"] = x["change_ci"]
        r[fig + "_verdict"] = x["verdict"]
        r[fig + "_notes"] = x["notes"]
        why = [n for n in x["notes"] if n != "intervals overlap"]
        chg = "%+.1f%%" % x["change_pct"] if x["change_pct"] is not None else "-"
        words.append("%s %s %s: %s%s" % (fig, chg, fmt_ci(x["change_ci"]), x["verdict"],
                                         " (%s)" % ", ".join(why) if why else ""))
    r["rows"] = f["rows"]
    r["verdict"] = "; ".join(w.replace("  ", " ") for w in words)
    return base


def write(out, labels, functions, changed=None, top=None, timing=""):
    """Write DIR/verdicts.json: @functions maps a name to its rows,
    @changed a kernel to its "what changed" summary and rows."""
    doc = {"schema": SCHEMA, "reference": labels[0] if labels else None,
           "labels": labels, "timing": timing, "functions": functions,
           "changed": changed or {}, "top": top or []}
    with open(os.path.join(out, FILE), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def load(out):
    """The document in DIR @out, or None when it has none.

    ValueError when the file is not a verdicts file of this schema.
    """
    try:
        with open(os.path.join(out, FILE)) as f:
            doc = json.load(f)
    except FileNotFoundError:
        return None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ValueError("%s: not a %s file" % (os.path.join(out, FILE), SCHEMA))
    return doc


def rows(doc, fn):
    """The rows of function @fn ([] when none)."""
    if not doc:
        return []
    return doc["functions"].get(fn, [])


def row(doc, fn, kernel):
    """The row of @fn on @kernel, or None."""
    for r in rows(doc, fn):
        if r["kernel"] == kernel:
            return r
    return None


def changed(doc, kernel):
    """The "what changed" rows of @kernel ([] when none)."""
    if not doc:
        return []
    return doc.get("changed", {}).get(kernel, {}).get("rows", [])


ICOUNT_NOTE = "Units: %s." % KS_ICOUNT_NOTE


def table(rs, against=None, timing=""):
    """Markdown table of rows @rs: header, rule, one line a row; under
    QEMU -icount (@timing) a line saying so."""
    if not rs:
        return []
    head = ("verdict against %s (95%% bounds; lower is better)" % against if against
            else "verdict (95% bounds; lower is better)")
    out = ["| kernel | attach | calls/op | mean | p50 | runs: mean | %s |" % head,
           "|---|---|---|---|---|---|---|"]
    for r in rs:
        if r["status"] != "measured":
            out.append("| %s | - | - | - | - | - | %s |" % (r["kernel"], r["why"]))
            continue
        calls = "%.2f" % r["calls_per_op"] if r["calls_per_op"] is not None else "?"
        out.append("| %s | %s | %s | %.0f | %.0f | %s | %s |" % (
            r["kernel"], r["attach"], calls, r["mean"], r["p50"],
            " ".join(str(x) for x in r["run_means"]), r["verdict"]))
    if timing == "qemu-icount":
        out += ["", ICOUNT_NOTE]
    return out


def fmt_fig(v, unit, icount):
    """@v as the table shows it: under -icount a count of instructions."""
    if v is None:
        return "-"
    return "%.0f" % v if icount else fmt_duration(v, unit)


def changed_table(l, base_label, rows, summary, limit=None):
    """The "what changed" section of kernel @l: a title, the counts, the
    table of @rows (the first @limit of them) and its notes."""
    icount = summary["timing"] == "qemu-icount"
    total = summary.get("rank") == "total"
    unit = " (instructions)" if icount else ""
    rep = ["## What changed: %s against %s" % (l, base_label), "",
           "%d functions called: %d worse, %d better, %d not measurable%s.%s" % (
               summary["functions"], summary["worse"], summary["better"],
               summary["not measurable"],
               "".join(", %d %s" % (summary[k], k) for k in ("only in base", "only in new")
                       if summary[k]),
               " %d more matched but were never called (not listed)." % summary["uncalled"]
               if summary.get("uncalled") else ""), "",
           "| # | function | calls/run |%s mean%s | p50%s | change | 95%% bounds | verdict |"
           % (" total/run%s |" % unit if total else "", unit, unit),
           "|--:|:--|--:|%s--:|--:|--:|:--|:--|" % ("--:|" if total else "")]
    called = rows[:summary["functions"]]
    for r in called[:limit]:
        def pair(key, fmt):
            a, b = r[key + "_base"], r[key + "_new"]
            if a is None or b is None:
                return fmt(a if b is None else b)
            return fmt(a) if fmt(a) == fmt(b) else "%s → %s" % (fmt(a), fmt(b))
        calls = pair("count", lambda v: "-" if v is None else "%.0f" % v)
        tot = " %s |" % pair("total", lambda v: fmt_fig(v, r["unit"], icount)) if total else ""
        mean = pair("mean", lambda v: fmt_fig(v, r["unit"], icount))
        p50 = pair("p50", lambda v: fmt_fig(v, r["unit"], icount))
        chg = "-" if r["change_pct"] is None else "%+.1f%% (%s)" % (r["change_pct"], r["judged_by"])
        why = [n for n in r["notes"] if n != "intervals overlap"]
        rep.append("| %d | %s | %s |%s %s | %s | %s | %s | %s%s |" % (
            r["rank"], r["name"], calls, tot, mean, p50, chg,
            fmt_ci(r["change_ci"]) or "-", r["verdict"],
            " (%s)" % ", ".join(why) if why else ""))
    if limit is not None and len(called) > limit:
        rep.append("| | (%d more, in changed-%s.md) | | | | | | |%s" % (
            len(called) - limit, l, " |" if total else ""))
    rank = summary.get("rank", "change")
    judged = rank if rank not in ("change", "total") else \
        "the mean (3 runs a side or more; else p50)"
    rep += ["", "Ranked by the change (largest first) of %s; lower is better; "
            "change, bounds: of %s, where the change lies when both sides' 95%% "
            "intervals hold; better/worse only when they do not overlap "
            "(docs/statistics.md). calls/run,%s mean and p50: base → new. "
            "`kstats compare`'s own table: changed-%s.md." % (
                "total time per run (calls × mean: where the time went)" if total else judged,
                judged, " total/run," if total else "", l)]
    if icount:
        rep.append(ICOUNT_NOTE)
    rep.append("")
    return rep


# The summary: plain text for a review email, within WIDTH columns with
# kernel labels of up to LABEL_MAX characters (a longer one gets a line of
# its own above its figures).
WIDTH = 72
LABEL_MAX = 24


def _notes(text):
    """@text as "# " lines wrapped at WIDTH columns."""
    return ["# " + l for l in textwrap.wrap(text, WIDTH - 2, break_on_hyphens=False)]


def _fig_line(r, fig):
    """ "  mean  +5.6%  [+3.1,+8.0]  worse" for row @r's figure @fig."""
    chg, ci = r.get(fig + "_change_pct"), r.get(fig + "_change_ci")
    f = lambda x, s: "%sinf" % s if x is None else "%+.1f" % x  # noqa: E731
    bounds = "[%s,%s]" % (f(ci[0], "-"), f(ci[1], "+")) if ci and ci != [None, None] else "-"
    return "  %-4s %8s  %-15s %s" % (fig, "-" if chg is None else "%+.1f%%" % chg, bounds,
                                      r.get(fig + "_verdict") or "-")


def summary(doc, title, workload="", runs=0):
    """The plain-text summary of verdicts document @doc: per function a
    row per kernel (calls/op, mean, p50) and, under each kernel but the
    reference, the change of the mean and of p50 with its 95% bounds and
    verdict; "what changed" (a glob) as counts and the largest changes.
    Every line fits WIDTH columns."""
    icount = doc.get("timing") == "qemu-icount"
    labels = doc.get("labels") or []
    ref = doc.get("reference") or (labels[0] if labels else "")
    wrap = lambda t, ind="": textwrap.wrap(t, WIDTH, subsequent_indent=ind,  # noqa: E731
                                           break_on_hyphens=False)
    out = wrap(title)
    if workload:
        out += wrap("workload: %s, %d run%s per kernel" % (workload, runs, "" if runs == 1 else "s"))
    if icount:
        out.append(KS_ICOUNT_NOTE)
    few = False
    for l, c in (doc.get("changed") or {}).items():
        sm, rows = c["summary"], c["rows"]
        out += [""] + wrap("what changed, %s against %s: %d functions called: %d worse, "
                           "%d better, %d not measurable" % (
                               l, ref, sm["functions"], sm["worse"], sm["better"],
                               sm["not measurable"]))
        for r in rows[:min(10, sm["functions"])]:
            chg = "-" if r["change_pct"] is None else "%+.1f%%" % r["change_pct"]
            few = few or r["verdict"].endswith("?")
            tail = "%-4s %8s  %s" % (r["judged_by"] or "", chg, r["verdict"])
            nw = WIDTH - 4 - 1 - len(tail)
            if len(r["name"]) > nw:
                out += ["%3d %s" % (r["rank"], r["name"]), "%*s" % (WIDTH, tail)]
            else:
                out.append("%3d %-*s %s" % (r["rank"], nw, r["name"], tail))
    for fn, rows in (doc.get("functions") or {}).items():
        lw = max([6] + [len(r["kernel"]) for r in rows if len(r["kernel"]) <= LABEL_MAX])
        out += [""] + wrap("%s: per call in %s; lower is better" % (
            fn, "instructions" if icount else "ns"))
        out.append("%-*s %10s %10s %10s" % (lw, "kernel", "calls/op", "mean", "p50"))
        for r in rows:
            head = r["kernel"]
            if len(head) > lw:
                out.append(head)
                head = ""
            if r["status"] != "measured":
                out += wrap("%-*s %s" % (lw, head, r["why"]), " " * (lw + 1))
                continue
            calls = "-" if r["calls_per_op"] is None else "%.2f" % r["calls_per_op"]
            out.append("%-*s %10s %10.0f %10.0f" % (lw, head, calls, r["mean"], r["p50"]))
            if r.get("mean_verdict") is None:
                continue
            for fig in ("mean", "p50"):
                out.append(_fig_line(r, fig))
                few = few or str(r.get(fig + "_verdict", "")).endswith("?")
    out.append("")
    out += _notes("change: against %s" % ref)
    out += _notes("95% bounds: the change where both sides' 95% intervals hold")
    out += _notes("better, worse: the 95% intervals do not overlap (docs/statistics.md)")
    if few:
        out += _notes("better?, worse?: fewer than 3 runs a side, run-to-run noise unknown")
    out += _notes("run means, every percentile, tables and plots: report.md")
    return out


def main(argv):
    if len(argv) not in (4, 5, 6) or (len(argv) == 4) != (argv[2] == "--changed"):
        sys.stderr.write("usage: verdicts.py DIR FUNCTION KERNEL FIELD [FORMAT]\n"
                         "       verdicts.py DIR --changed KERNEL\n")
        return 2
    try:
        doc = load(argv[1])
    except ValueError as e:
        sys.stderr.write("verdicts.py: %s\n" % e)
        return 1
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)	# | head
    if argv[2] == "--changed":
        f = lambda v, fmt: "-" if v is None else fmt % v  # noqa: E731
        for r in changed(doc, argv[3]):
            print("%d %s %s %s %s %s %s %s" % (
                r["rank"], r["name"], r["verdict"].replace(" ", "_"), f(r["change_pct"], "%.1f"),
                f(r["count_base"], "%.0f"), f(r["count_new"], "%.0f"),
                f(r.get("total_base"), "%.0f"), f(r.get("total_new"), "%.0f")))
        return 0
    r = row(doc, argv[2], argv[3])
    if r is None or r.get(argv[4]) is None:
        return 0
    v = r[argv[4]]
    if len(argv) == 6:
        print(argv[5] % v)
    elif isinstance(v, bool):
        print("true" if v else "false")
    elif isinstance(v, list):
        print(" ".join(str(x) for x in v))
    else:
        print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
