# SPDX-License-Identifier: GPL-2.0 OR MIT
"""kstats_snapshot - load, validate and describe kstats snapshot files.

The one Python reader of the snapshots `kstats save` writes (schema
kstats-snapshot/2, and /1; /3 for several nodes in one file, of which a
node is picked by name; docs/format.md), and the one place Python turns
values into text.  plots/kstats_plot.py, demo/report.py, demo/ab_summary.py
and tools/ab/report.py use it; shell scripts (tests/ab, tests/kbuild) read
one figure with

    python3 plots/kstats_snapshot.py FILE KEY [NODE]   (node.KEY, or pNN)
  Units and their cut-offs are those of the C tool
(tools/lib/ks_fmt.c): ns, us, ms, s, switching at 10^3, 10^6 and 10^9 ns, with
the same digits, so a table and a figure of one snapshot read the same.
"""

import json
import math
import os
import sys

SCHEMA = "kstats-snapshot/2"
# Every schema of one node this reader accepts; /1 lacks maxactive,
# filters and clamped.
SCHEMAS = (SCHEMA, "kstats-snapshot/1")
# Several nodes in one file (kstats save GLOB|all): "nodes": [node, ...].
SCHEMA_MANY = "kstats-snapshot/3"

# The percentiles every snapshot carries, with the fraction each stands for.
PCT_NAMES = ("p10", "p50", "p90", "p95", "p98", "p99", "p99.9")
PCT_FRACTION = {"p10": 0.1, "p50": 0.5, "p90": 0.9, "p95": 0.95,
                "p98": 0.98, "p99": 0.99, "p99.9": 0.999}
# ...and in thousandths, as the C side holds them (kstats_pct_milli[]).
PCT_MILLI = {p: int(round(q * 1000)) for p, q in PCT_FRACTION.items()}

U64_MAX = (1 << 64) - 1

# Node fields by type.  Unknown fields are ignored (format.md).
_NODE_STR = ("name", "attach", "clock", "unit", "estimate")
_NODE_INT = ("bits", "buckets", "samples", "missed", "min", "avg", "max",
             "floor", "precision_ppm", "ncpus")
_NODE_OPT_INT = ("sample", "maxactive", "clamped")
_SLOT_INT = ("slot", "lo", "hi", "cpu", "count", "avg")
_TOTAL_INT = ("slot", "lo", "hi", "count", "avg")
# A call site of node.callers.sites (a node traced with "callers N").
_SITE_STR = ("id", "site")
_SITE_INT = ("count", "p50", "p99", "max")


class SnapshotError(Exception):
    """A snapshot cannot be used: the message names the file and the cause."""


class Snapshot:
    """One loaded, validated snapshot file.

    Attributes: path, data (the whole JSON document), meta, node, label
    (meta.label, else the file name without .json), unit, name, kernel,
    total (merged slot rows), slots (per-CPU slot rows), percentiles,
    clamped (calls the module recorded as 0, 0 for schema /1) and filters
    (the trace filters that were set, {} when none or schema /1),
    icount (taken under QEMU -icount: a "ns" is one guest instruction),
    callers (the call sites of a node traced with "callers N": a list of
    {id, site, count, p50, p99, max, total}, [] when it kept none) and
    undisturbed (the calls left out of it as disturbed on the way, by
    `kstats save --undisturbed`; None for a snapshot that has them all).
    """

    def __init__(self, path, data, node=None):
        self.path = path
        self.data = data
        self.meta = data["meta"]
        self.node = data["node"] if node is None else node
        label = self.meta.get("label")
        if not isinstance(label, str) or not label:
            label = os.path.basename(path)
            if label.endswith(".json"):
                label = label[:-len(".json")]
        self.label = label
        self.unit = self.node["unit"]
        self.name = self.node["name"]
        self.kernel = self.meta["kernel"]
        self.total = self.node["total"]
        self.slots = self.node["slots"]
        self.percentiles = self.node["percentiles"]
        self.clamped = self.node.get("clamped", 0)
        self.filters = self.node.get("filters", {})
        # meta.timing "qemu-icount": a "ns" is one guest instruction
        self.icount = self.meta.get("timing") == "qemu-icount"
        self.callers = self.node.get("callers", {}).get("sites", [])
        self.undisturbed = self.node.get("slowest", {}).get("undisturbed")

    def __repr__(self):
        return "Snapshot(%r)" % self.path


def _is_uint(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= U64_MAX


def _need(cond, path, what):
    if not cond:
        raise SnapshotError("snapshot %s: %s" % (path, what))


def _check_ints(obj, keys, path, where):
    _need(isinstance(obj, dict), path, "%s must be an object" % where)
    for k in keys:
        _need(k in obj, path, "%s.%s is missing" % (where, k))
        _need(_is_uint(obj[k]), path,
              "%s.%s must be a non-negative integer, not %s"
              % (where, k, json.dumps(obj[k])))


def _read(path):
    """The JSON document of file @path, its schema and meta checked."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SnapshotError("cannot read snapshot %s: %s"
                            % (path, e.strerror or e)) from None
    if not raw.strip():
        raise SnapshotError("snapshot %s is empty" % path)
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise SnapshotError("snapshot %s is not UTF-8 text (byte %d)"
                            % (path, e.start)) from None
    except json.JSONDecodeError as e:
        raise SnapshotError("snapshot %s is not valid JSON (truncated?): "
                            "%s at line %d column %d"
                            % (path, e.msg, e.lineno, e.colno)) from None

    _need(isinstance(data, dict), path, "top level must be a JSON object")
    schema = data.get("schema")
    _need(schema in SCHEMAS or schema == SCHEMA_MANY, path,
          "schema is %s, expected %s or %s"
          % (json.dumps(schema), SCHEMA, SCHEMA_MANY))

    meta = data.get("meta")
    _need(isinstance(meta, dict), path, "meta is missing")
    _need(isinstance(meta.get("kernel"), str), path,
          "meta.kernel is missing or not a string")
    if schema == SCHEMA_MANY:
        nodes = data.get("nodes")
        _need(isinstance(nodes, list) and
              all(isinstance(n, dict) and isinstance(n.get("name"), str)
                  for n in nodes), path,
              "nodes is missing or not a list of named nodes")
    return data


def is_many(path):
    """Does snapshot @path hold several nodes (kstats-snapshot/3)?"""
    return _read(path)["schema"] == SCHEMA_MANY


def node_names(path):
    """The names of the nodes in snapshot @path, in file order."""
    data = _read(path)
    if data["schema"] == SCHEMA_MANY:
        return [n["name"] for n in data["nodes"]]
    node = data.get("node")
    _need(isinstance(node, dict) and isinstance(node.get("name"), str), path,
          "node is missing")
    return [node["name"]]


def _pick(data, path, name):
    """The node object of @data named @name (any, when a file has one)."""
    if data["schema"] != SCHEMA_MANY:
        node = data.get("node")
        _need(isinstance(node, dict), path, "node is missing")
        _need(name is None or node.get("name") == name, path,
              "no node %s (it holds %s)" % (name, node.get("name")))
        return node
    nodes = data["nodes"]
    if name is None:
        _need(len(nodes) == 1, path,
              "%d nodes in one file: pick one by name (%s)"
              % (len(nodes), ", ".join(n["name"] for n in nodes[:5]) +
                 (", ..." if len(nodes) > 5 else "")))
        return nodes[0]
    for n in nodes:
        if n["name"] == name:
            return n
    raise SnapshotError("snapshot %s: no node %s among its %d"
                        % (path, name, len(nodes)))


def load_snapshot(path, allow_empty=False, node=None):
    """Read and validate the snapshot file @path; return a Snapshot.

    A kstats-snapshot/3 file holds several nodes: @node names the one to
    take (needed unless the file holds one); in a file of one node, @node
    must be its name, or None.

    Raises SnapshotError, with a one-line message naming the file, when the
    file cannot be read, is not (complete) JSON, has a schema other than
    SCHEMAS or SCHEMA_MANY, has no such node, lacks a field the figures
    use, holds a non-integer where an integer belongs, or (unless
    @allow_empty) has no samples.
    """
    data = _read(path)
    return _checked(path, data, _pick(data, path, node), allow_empty)


def load_nodes(path, names=None, allow_empty=True):
    """Every node of snapshot @path (or those named @names, in that order)
    as Snapshots."""
    data = _read(path)
    if names is None:
        names = ([n["name"] for n in data["nodes"]]
                 if data["schema"] == SCHEMA_MANY else [None])
    return [_checked(path, data, _pick(data, path, n), allow_empty)
            for n in names]


def single_document(snap):
    """The kstats-snapshot/2 document of one Snapshot (of any file)."""
    return {"schema": SCHEMA, "meta": snap.meta, "node": snap.node}


def _checked(path, data, node, allow_empty):
    """Validate @node of document @data (file @path): a Snapshot."""
    _need(isinstance(node, dict), path, "node is missing")
    for k in _NODE_STR:
        _need(isinstance(node.get(k), str), path,
              "node.%s is missing or not a string" % k)
    syms = node.get("symbols")
    _need(isinstance(syms, list) and all(isinstance(s, str) for s in syms),
          path, "node.symbols is missing or not a list of strings")
    _check_ints(node, _NODE_INT, path, "node")
    for k in _NODE_OPT_INT:
        if k in node:
            _check_ints(node, (k,), path, "node")
    _check_ints(node.get("percentiles"), PCT_NAMES, path, "node.percentiles")
    filters = node.get("filters", {})
    _need(isinstance(filters, dict), path, "node.filters must be an object")

    for key, fields in (("slots", _SLOT_INT), ("total", _TOTAL_INT)):
        rows = node.get(key)
        _need(isinstance(rows, list), path,
              "node.%s is missing or not a list" % key)
        for i, row in enumerate(rows):
            where = "node.%s[%d]" % (key, i)
            _check_ints(row, fields, path, where)
            _need(row["lo"] <= row["hi"], path, "%s: lo > hi" % where)
        if key == "slots":
            for i, row in enumerate(rows):
                _need(row["cpu"] < node["ncpus"], path,
                      "node.slots[%d]: cpu %d >= ncpus %d"
                      % (i, row["cpu"], node["ncpus"]))

    _check_callers(node, path)
    slowest = node.get("slowest", {})
    if "undisturbed" in slowest:
        _need(_is_uint(slowest["undisturbed"]), path,
              "node.slowest.undisturbed must be a non-negative integer")
    total = node["total"]
    if not allow_empty and (not total or
                            not sum(row["count"] for row in total)):
        raise SnapshotError("snapshot %s has no samples" % path)
    for i in range(1, len(total)):
        _need(total[i]["lo"] > total[i - 1]["hi"], path,
              "node.total is not in ascending, non-overlapping slot order "
              "at [%d]" % i)
    return Snapshot(path, data, node)


def _check_rows(rows, path, where):
    """Slot rows @rows (node.total's kind) at @where: integers, ascending."""
    _need(isinstance(rows, list), path, "%s is missing or not a list" % where)
    for i, row in enumerate(rows):
        _check_ints(row, _TOTAL_INT, path, "%s[%d]" % (where, i))
        _need(row["lo"] <= row["hi"], path, "%s[%d]: lo > hi" % (where, i))
        _need(i == 0 or row["lo"] > rows[i - 1]["hi"], path,
              "%s is not in ascending, non-overlapping slot order at [%d]"
              % (where, i))


def _check_callers(node, path):
    """The optional node.callers: n, and sites whose counts are their rows'."""
    if "callers" not in node:
        return
    c = node["callers"]
    _check_ints(c, ("n",), path, "node.callers")
    sites = c.get("sites")
    _need(isinstance(sites, list), path,
          "node.callers.sites is missing or not a list")
    for i, site in enumerate(sites):
        where = "node.callers.sites[%d]" % i
        _check_ints(site, _SITE_INT, path, where)
        for k in _SITE_STR:
            _need(isinstance(site.get(k), str), path,
                  "%s.%s is missing or not a string" % (where, k))
        _check_rows(site.get("total"), path, where + ".total")
        _need(sum(r["count"] for r in site["total"]) == site["count"], path,
              "%s: count %d is not its slots'" % (where, site["count"]))


def site_time(site):
    """Total time of call site @site (calls x mean, from its slots)."""
    return sum(r["count"] * r["avg"] for r in site["total"])


def short_site(site):
    """A call site as FUNCTION+0xOFF [MODULE] (the /0xSIZE dropped), or
    "(other)" for the calls from sites beyond N, as `kstats callers`."""
    if site["id"] == "other" or site["site"] == "-":
        return "(other)"
    text = site["site"]
    head, _, mod = text.partition(" ")
    return head.split("/")[0] + (" " + mod if mod else "")


def not_comparable(snaps, functions=True):
    """Why @snaps do not belong side by side, as kstats compare says it:
    QEMU -icount instructions beside clock ns, and (@functions) different
    functions; [] when they do.
    """
    why = []
    ic = [s for s in snaps if s.icount]
    clock = [s for s in snaps if not s.icount]
    if ic and clock:
        why.append("%s counts QEMU -icount instructions, %s clock ns: "
                   "not comparable" % (ic[0].path, clock[0].path))
    other = [s for s in snaps if s.name != snaps[0].name]
    if functions and other:
        why.append("%s is %s but %s is %s: different functions"
                   % (snaps[0].path, snaps[0].name, other[0].path, other[0].name))
    return why


def check_units(snaps):
    """Return the unit all @snaps share; SnapshotError if they differ."""
    first = snaps[0]
    for s in snaps[1:]:
        if s.unit != first.unit:
            raise SnapshotError(
                "cannot mix units in one figure: %s is in %s, %s is in %s"
                % (first.path, first.unit, s.path, s.unit))
    return first.unit


# Display units of ns values, as tools/lib/ks_fmt.c picks them.
NS_SCALES = (("ns", 1), ("us", 1000), ("ms", 1000000), ("s", 1000000000))


def display_unit(unit, ref):
    """Pick the unit to show values of @unit around @ref in.

    Returns (name, divisor): ns values become us, ms or s once @ref reaches
    10^3, 10^6 or 10^9 (ks_scale_pick()); other units (cycles) stay.
    """
    if unit != "ns":
        return unit, 1
    name, div = NS_SCALES[0]
    for n, d in NS_SCALES[1:]:
        if ref >= d:
            name, div = n, d
    return name, div


# What a figure or report says of a snapshot taken under QEMU -icount,
# where the guest clock moves one ns per executed instruction: the words
# of the CLI's KS_ICOUNT_NOTE (tools/lib/ks_view.h), checked equal by
# plots/tests/test_snapshot.py.
ICOUNT_WORDS = "QEMU -icount"
ICOUNT_NOTE = 'instructions, QEMU -icount: a "ns" is one guest instruction'


def timing_note(snap):
    """ICOUNT_NOTE for a snapshot taken under QEMU -icount, else None."""
    return ICOUNT_NOTE if snap.icount else None


def unit_words(dunit, div, icount):
    """The display unit @dunit (@div ns each) as a figure names it: "us",
    or for an -icount snapshot the instructions it stands for, "us = 1,000
    instructions, QEMU -icount", so that a scaled unit never reads as one
    instruction.
    """
    if not icount:
        return dunit
    if dunit not in dict(NS_SCALES):
        return "%s, %s" % (dunit, ICOUNT_WORDS)
    return "%s = %s instruction%s, %s" % (dunit, "{:,}".format(div),
                                          "" if div == 1 else "s",
                                          ICOUNT_WORDS)


def fmt_value(v, div):
    """@v (in the snapshot's unit) divided by @div, as ks_fmt_scaled() does.

    Integers in the snapshot's own unit, else three significant digits.
    """
    if div == 1:
        return "%d" % int(round(v))
    x = v / div
    if x < 9.995:
        return "%.2f" % x
    if x < 99.95:
        return "%.1f" % x
    return "%.0f" % x


def fmt_duration(v, unit="ns"):
    """@v with the unit that reads best, as ks_fmt_value(): '109 ns', '2.04 us'.

    None gives '-'.
    """
    if v is None:
        return "-"
    name, div = display_unit(unit, abs(v))
    return "%s %s" % (fmt_value(v, div), name)


# The statistics of a percentile's change, as tools/lib/ks_stats.c
# computes them for `kstats compare A -- B` (one run a side; method in
# docs/statistics.md): each side's 95% interval is the range of the slots
# holding the distribution-free rank interval of the quantile, and the
# change's bounds are where both intervals hold.
ALPHA = 0.05                    # KS_STATS_ALPHA: each side's interval, 95%
_Z975 = 1.959963984540054       # KS_Z975
_EXACT_MAX = 1000               # KS_EXACT_MAX: exact binomial ranks up to n


def _log_pmf(n, k, q):
    """log of the Binomial(@n, @q) probability of @k."""
    return (math.lgamma(n + 1.0) - math.lgamma(k + 1.0) -
            math.lgamma(n - k + 1.0) + k * math.log(q) +
            (n - k) * math.log1p(-q))


def rank_interval(n, milli):
    """Ranks (l, u), 1-based, of a distribution-free 95% interval of the
    @milli/1000 quantile of @n values, as ks_rank_interval(): l = 0 when
    there is no lower bound, u = n + 1 when there is no upper one; exact
    binomial to n = 1000, the normal approximation, rounded outwards,
    above.
    """
    q, a2 = milli / 1000.0, ALPHA / 2
    if n <= _EXACT_MAX:
        pmf = [math.exp(_log_pmf(n, k, q)) for k in range(n + 1)]
        cdf, lo = 0.0, 0
        for k in range(n):
            cdf += pmf[k]
            if cdf > a2:
                break
            lo = k + 1
        cdf, hi = 0.0, n + 1
        for k in range(n, 0, -1):
            cdf += pmf[k]
            if cdf > a2:
                break
            hi = k
        return lo, hi
    mu, sd = n * q, math.sqrt(n * q * (1 - q))
    lo = math.floor(mu - _Z975 * sd)
    hi = math.ceil(mu + _Z975 * sd) + 1
    return (0 if lo < 1 else int(lo)), (n + 1 if hi > n else int(hi))


def _rank_row(rows, rank):
    """The slot row of @rows holding the value of rank @rank (1-based)."""
    seen = 0
    for r in rows:
        seen += r["count"]
        if seen >= rank:
            return r
    return None


def pct_interval(snap, name):
    """The 95% interval (lo, hi) of percentile @name of Snapshot @snap, as
    ks_pct_interval(): the lowest value of the slot holding rank l to the
    highest of the slot holding rank u (rank_interval()); lo 0 and hi
    math.inf where unbounded (rank u beyond the calls, or in the overflow
    slot).  None for a snapshot without calls.
    """
    n = sum(r["count"] for r in snap.total)
    if not n:
        return None
    lo_rank, hi_rank = rank_interval(n, PCT_MILLI[name])
    lo, hi = 0.0, math.inf
    if lo_rank:
        lo = float(_rank_row(snap.total, lo_rank)["lo"])
    if hi_rank <= n:
        row = _rank_row(snap.total, hi_rank)
        if row["hi"] < U64_MAX:
            hi = float(row["hi"])
    return lo, hi


class PctChange:
    """The change of one percentile from a base snapshot to a new one.

    Attributes, in the words of `kstats compare A -- B`: base, new (the
    percentiles), change (new against base, in %), lo, hi (its 95%
    bounds, in %: -100 and math.inf where unbounded), verdict ("better",
    "worse" or "not measurable"; from one run a side, so compare prints
    the first two as "better?" and "worse?"), measurable (the bounds
    exclude 0), precision (the coarser slot precision of the two, in %)
    and sub_resolution (|change| under it: within the histograms'
    resolution).
    """

    def __init__(self, base, new, a, b, precision):
        self.base, self.new, self.precision = base, new, precision
        self.change = (new - base) * 100 / base if base else 0.0
        # ks_row_judge()
        self.lo = -100.0 if math.isinf(a[1]) else (b[0] / a[1] - 1) * 100
        self.hi = (math.inf if a[0] <= 0 or math.isinf(b[1])
                   else (b[1] / a[0] - 1) * 100)
        if b[1] < a[0]:
            self.verdict = "better"
        elif b[0] > a[1]:
            self.verdict = "worse"
        else:
            self.verdict = "not measurable"
        self.measurable = self.verdict != "not measurable"
        self.sub_resolution = abs(self.change) < precision

    def __repr__(self):
        return "PctChange(%s %s %s)" % (fmt_change(self.change, self.precision),
                                        fmt_bounds(self.lo, self.hi),
                                        self.verdict)


def pct_change(base, new, name):
    """The change of percentile @name from Snapshot @base to @new, with
    its 95% bounds and verdict (PctChange), as `kstats compare BASE --
    NEW` gives them; None when a side has no calls.
    """
    a, b = pct_interval(base, name), pct_interval(new, name)
    if a is None or b is None:
        return None
    ppm = max(base.node["precision_ppm"], new.node["precision_ppm"])
    return PctChange(base.percentiles[name], new.percentiles[name], a, b,
                     ppm / 10000.0)


def fmt_bound(x):
    """One bound of a change, in %, as compare's "95% bounds" column
    prints it (ks_bound()): "+0.3", "-11.1", "+2033", "+inf"."""
    if math.isinf(x):
        return "%sinf" % ("-" if x < 0 else "+")
    return ("%+.1f" if abs(x) < 99.95 else "%+.0f") % x


def fmt_bounds(lo, hi):
    """The 95% bounds of a change, in %: "[+0.3,+19.7]", as compare."""
    return "[%s,%s]" % (fmt_bound(lo), fmt_bound(hi))


def fmt_change(x, precision):
    """Change @x (in %) with the digits values known to @precision (in %)
    carry: whole percent at 12.5% ("+11%", not "+11.3%"), a decimal only
    where the precision is under 1%, and never more than three
    significant digits ("+1,180%", not "+1176.8%"); "0%" when it rounds
    to nothing.
    """
    decimals = max(0, int(math.ceil(-math.log10(precision)))) if precision > 0 else 1
    x = round(x, decimals)
    if abs(x) >= 1000:
        step = 10 ** (int(math.floor(math.log10(abs(x)))) - 2)
        x = round(x / step) * step
        decimals = 0
    if x == 0:
        return "0%"
    return ("{:+,.%df}%%" % decimals).format(x)


def load_node(path):
    """The node object of snapshot @path, or None if it cannot be used."""
    try:
        return load_snapshot(path, allow_empty=True).node
    except SnapshotError:
        return None


def fmt_precision(ppm):
    """Slot precision from parts per million: 125000 -> '±12.5%'."""
    return "±%g%%" % (ppm / 10000.0)


def main(argv):
    """FILE KEY [NODE]: print node.KEY (a percentile by its name) of
    snapshot FILE (of its node NODE, in a file of several).

    Status 1, and the reason on stderr, when the file cannot be used or
    has no such node or figure.
    """
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: kstats_snapshot.py FILE KEY [NODE]\n")
        return 2
    try:
        s = load_snapshot(argv[1], allow_empty=True,
                          node=argv[3] if len(argv) == 4 else None)
    except SnapshotError as e:
        sys.stderr.write("%s\n" % e)
        return 1
    v = s.percentiles.get(argv[2], s.node.get(argv[2]))
    if v is None or isinstance(v, (dict, list)):
        sys.stderr.write("snapshot %s: no figure %s\n" % (argv[1], argv[2]))
        return 1
    print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
