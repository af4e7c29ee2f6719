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
"what changed" rows of KERNEL, one "RANK NAME VERDICT CHANGE_PCT" a line.

A row: kernel, status ("measured", "absent": the kernel has no such
function or clone, "no result"), and for a measured one attach,
calls_per_op (null when the workload's operations are unknown), mean,
p50, run_means (the mean of each run), spread_pct (their spread, in % of
the smallest), bits, samples, floor and verdict (the text; "(reference)"
on the first kernel, "" when the first kernel has no result) with,
against the reference, from `kstats compare --json` (docs/statistics.md):
for FIG in mean and p50, FIG_change_pct, FIG_change_ci ([lo, hi] in %,
null where unbounded or not judged), FIG_verdict ("better", "worse",
"not measurable"; lower is better) and FIG_notes (why: "intervals
overlap", "fewer than 3 runs a side", "base runs bimodal"...), and rows:
every figure compare judged (mean, p10..p99.9), as compare gives them.

timing: "qemu-icount" when the runs were under QEMU -icount (a "ns" is
an instruction), else "".  When a glob was traced: changed, by kernel
(not the reference), {summary: functions, worse, better, not measurable,
only in base, only in new; rows: one per function ranked by change: rank,
name, unit, judged_by (mean or p50), change_pct, change_ci, verdict,
notes, and runs_, count_ (per run), mean_ and p50_ of base and new}; and
top, the functions given a section of their own.
"""

import json
import os
import sys

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
    """Fill row @r from function @f of a `kstats compare --json` document."""
    rows = {x["figure"]: x for x in f["rows"]}
    words = []
    for fig in ("mean", "p50"):
        x = rows[fig]
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


ICOUNT_NOTE = "Units: instructions, QEMU -icount (a \"ns\" is one guest instruction)."


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
        out.append("| %s | %s | %s | %d | %d | %s | %s |" % (
            r["kernel"], r["attach"], calls, r["mean"], r["p50"],
            " ".join(str(x) for x in r["run_means"]), r["verdict"]))
    if timing == "qemu-icount":
        out += ["", ICOUNT_NOTE]
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
    if argv[2] == "--changed":
        for r in changed(doc, argv[3]):
            print("%d %s %s %s" % (r["rank"], r["name"], r["verdict"].replace(" ", "_"),
                                   "-" if r["change_pct"] is None else "%.1f" % r["change_pct"]))
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
