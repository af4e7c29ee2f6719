#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""kstats_plot - figures for patch reviews from kstats snapshot files.

Reads snapshot files written by `kstats save` (schema kstats-snapshot/2,
and /3 of several nodes, from which --node picks by name; docs/format.md,
through kstats_snapshot.py) and draws one of four figures as PNG (1200x700) and SVG:

  hist  latency histogram of each capture, p50/p90/p99 marked
  cdf   CDF overlay of the captures, with a log-scale tail (1 - CDF) panel
  pct   p10..p99.9, a linear panel each, a bar per capture (`kstats compare`
        as a figure)
  cpu   per-CPU heatmap, CPU x slot, log colour scale
  callers  a CDF per call site of one node traced with "callers N", most
        total time first, with their tails (`kstats callers` as a figure)

  kstats_plot.py {hist,cdf,pct,cpu,callers} SNAPSHOT... [-o OUT] [--format png,svg]
                 [--label L]... [--node NAME ...]

`kstats_plot.py KIND --help` says what KIND draws (KIND_HELP).

The same input gives byte-identical files.  Errors (unreadable, truncated
or invalid snapshots, empty histograms, mixed units) end the program with
one line on stderr and exit status 2.  Every figure function returns the
matplotlib Figure, so callers and tests can inspect what was drawn.

Over 600 lines on purpose: the four figures share their axes, units,
captions and labels, which live here once; reading snapshots is
kstats_snapshot.py's.
"""

import argparse
import hashlib
import math
import os
import sys
import types

# kstats_snapshot.py sits next to this file, or in ../share/kstats when
# installed as kstats-plot (install.mk).
_HERE = os.path.dirname(os.path.realpath(__file__))
for _d in (os.path.join(_HERE, "..", "share", "kstats"), _HERE):
    if os.path.exists(os.path.join(_d, "kstats_snapshot.py")):
        sys.path.insert(0, _d)

# Without matplotlib (python3-matplotlib) --help still works and a figure
# is refused in one line (main()).
try:
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import ticker
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import LogNorm
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.patches import Patch
    import numpy as np
    NO_MATPLOTLIB = None
except ImportError as _e:
    NO_MATPLOTLIB = "%s (apt-get install python3-matplotlib)" % _e

import kstats_snapshot  # noqa: E402
from kstats_snapshot import (  # noqa: E402
    NS_SCALES, PCT_FRACTION, PCT_NAMES, U64_MAX, Snapshot, SnapshotError,
    check_units, display_unit, fmt_bounds, fmt_change, fmt_duration,
    fmt_precision, fmt_value, is_many, load_snapshot, not_comparable,
    pct_change, timing_note, unit_words)

PROG = "kstats_plot"


def plot_version():
    """The plotting code's version: the start of a SHA-256 of this file
    and of kstats_snapshot.py, which draw every figure.  Stamped into each
    figure's metadata, so a figure that older code drew is told apart
    (plots/tests/test_figures.py checks docs/figures and demo/figures).
    """
    h = hashlib.sha256()
    for path in (os.path.realpath(__file__), kstats_snapshot.__file__):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12]


PLOT_VERSION = plot_version()

# The percentiles marked on the histogram.
HIST_MARKS = ("p50", "p90", "p99")

# Calls a percentile needs behind it before a figure marks it: at least
# one call beyond it (p99: 100, p99.9: 1,000).
MIN_SAMPLES = {p: int(round(1 / (1 - q))) for p, q in PCT_FRACTION.items()}

# Okabe-Ito, ordered for contrast on white (yellow last but one).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#E69F00",
           "#CC79A7", "#56B4E9", "#F0E442", "#000000")
LINESTYLES = ("-", "--", "-.", ":")
MARK_STYLE = {"p50": ("#000000", "--"), "p90": ("#E69F00", "-."),
              "p99": ("#D55E00", ":")}

FIGSIZE = (12, 7)
DPI = 100
FORMATS = ("png", "svg")
# what a figure name could ask for that is not written: refused, rather
# than x.pdf.png
OTHER_FORMATS = ("pdf", "ps", "eps", "jpg", "jpeg", "tif", "tiff", "webp",
                 "gif", "bmp", "pgf", "svgz", "raw", "rgba")

# Style and the knobs that make the files reproducible.
RC = {
    "svg.hashsalt": "kstats",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
}
# PNG: a tEXt chunk "Software" = "kstats_plot VERSION"; SVG: dc:creator.
METADATA = {
    "png": {"Software": "%s %s" % (PROG, PLOT_VERSION)},
    "svg": {"Creator": "%s %s" % (PROG, PLOT_VERSION), "Date": None},
}

def slot_span(row):
    """Value range [lo, hi + 1) a slot row covers, for drawing on a log axis.

    The overflow slot (hi = U64_MAX) is drawn one power of two wide and the
    value-0 slot from 0.5, since a log axis has no room for 0 or infinity.
    """
    lo, hi = row["lo"], row["hi"]
    end = hi + 1
    if hi >= U64_MAX:
        end = 2 * lo if lo else 1
    if lo == 0:
        lo = 0.5
    return lo, end


def _labels(snaps, labels):
    if not labels:
        return _labels_apart(snaps)
    if len(labels) != len(snaps):
        raise SnapshotError("%d labels given for %d snapshots"
                            % (len(labels), len(snaps)))
    return list(labels)


def _labels_apart(snaps):
    """Each snapshot's label; those that say the same (two captures of one
    configuration) are named by their file instead, its base name, or the
    path where base names are the same too (kstats compare does the same).
    """
    labels = [s.label for s in snaps]
    twice = [labels.count(l) > 1 for l in labels]
    for i, s in enumerate(snaps):
        if twice[i]:
            base = os.path.basename(s.path)
            labels[i] = base[:-len(".json")] if base.endswith(".json") else base
    twice = [t and labels.count(l) > 1 for t, l in zip(twice, labels)]
    return [s.path if t else l for s, t, l in zip(snaps, twice, labels)]


def _as_list(snaps):
    if isinstance(snaps, Snapshot):
        return [snaps]
    snaps = list(snaps)
    if not snaps:
        raise SnapshotError("no snapshot given")
    return snaps


def _unique(items):
    out = []
    for i in items:
        if i not in out:
            out.append(i)
    return out


def title_text(snaps, what, dunit):
    """Figure title: function(s), what is drawn, unit and kernel release(s)."""
    names = ", ".join(_unique(s.name for s in snaps))
    kernels = _unique(s.kernel or "unknown" for s in snaps)
    return "%s %s (%s) · kernel%s %s" % (
        names, what, dunit, "s" if len(kernels) > 1 else "",
        ", ".join(kernels))


def _attach_text(node, limit=3):
    syms = node["symbols"]
    shown = ",".join(syms[:limit])
    if len(syms) > limit:
        shown += ",+%d more" % (len(syms) - limit)
    return "%s:%s" % (node["attach"], shown) if shown else node["attach"]


def caption_line(snap, label, dunit, div, with_label):
    """One caption line: precision, samples, missed, floor, attach, clock."""
    n = snap.node
    floor = n["floor"]
    parts = [
        "slot precision %s" % fmt_precision(n["precision_ppm"]),
        "{:,} samples".format(n["samples"]),
        "{:,} missed".format(n["missed"]),
        ("floor %s" % fmt_duration(floor, snap.unit)) if floor
        else "floor not calibrated",
        "attach %s" % _attach_text(n),
        "clock %s" % n["clock"],
        "bits %d" % n["bits"],
    ]
    if n.get("sample", 1) > 1:
        parts.append("sampled 1 in %d" % n["sample"])
    if snap.clamped:
        parts.append("{:,} clamped to 0".format(snap.clamped))
    if snap.undisturbed is not None:
        parts.append("{:,} disturbed calls left out".format(snap.undisturbed))
    for k in ("pid", "tgid", "comm", "cpus"):
        if k in snap.filters:
            parts.append("%s %s" % (k, snap.filters[k]))
    parts.append("percentiles: %s" % n["estimate"])
    line = " · ".join(parts)
    return "%s: %s" % (label, line) if with_label else line


def _units_lines(snaps):
    """The caption line that says what a unit is under QEMU -icount."""
    notes = {timing_note(s) for s in snaps} - {None}
    return ["units: %s" % x for x in sorted(notes)]


def _new_figure(ncaption):
    """A 12x7 in figure on the Agg canvas with room for @ncaption lines."""
    fig = Figure(figsize=FIGSIZE, dpi=DPI)
    FigureCanvasAgg(fig)
    bottom = 0.10 + 0.025 * ncaption
    return fig, bottom


def _caption(fig, lines):
    for i, line in enumerate(lines):
        fig.text(0.01, 0.012 + 0.025 * (len(lines) - 1 - i), line,
                 fontsize=8.5, color="#333333", ha="left", va="bottom",
                 gid="caption%d" % i)


def _fmt_tick(x, _pos=None):
    if x == 0:
        return "0"
    if x < 0:
        return ""
    if x >= 1 and abs(x - round(x)) < 1e-9 * x:
        return "{:,}".format(int(round(x)))
    return "%g" % x


def _fmt_count_tick(x, _pos=None):
    """A log count axis's tick, short enough for the left margin at any
    height: 1, 10, 100, 1,000, 10k, 100k, 1M, 10M..."""
    if x >= 10000:
        for div, suffix in ((10 ** 9, "G"), (10 ** 6, "M"), (10 ** 3, "k")):
            if x >= div:
                return "%g%s" % (x / div, suffix)
    return _fmt_tick(x, _pos)


# Pixels kept clear between two tick labels.
TICK_GAP_PX = 8


def _decade_formatter(every):
    """Plain-number tick labels on powers of ten whose exponent is a
    multiple of @every; other ticks unlabelled."""
    def fmt(x, pos=None):
        if x <= 0:
            return ""
        e = math.log10(x)
        if abs(e - round(e)) > 1e-6 or int(round(e)) % every:
            return ""
        return _fmt_tick(x, pos)
    return fmt


def _log_xaxis(ax, lo, hi):
    """Log x axis over [lo, hi] with plain-number tick labels.

    The ticks are thinned so that no two labels meet, however many
    decades the axis spans: 1-2-5 per decade where the widest label fits
    in the narrowest step (1 to 2), else 1-3, else one a decade; where a
    decade is narrower than a label, ticks stay on every decade but only
    every k-th is labelled (k decades wide enough for the widest label).
    Label widths are measured with the tick font.
    """
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    fig = ax.get_figure()
    renderer = fig.canvas.get_renderer()
    prop = FontProperties(size=matplotlib.rcParams["xtick.labelsize"])
    width_px = ax.get_position().width * fig.get_figwidth() * fig.dpi
    per_decade = width_px / math.log10(hi / lo)
    widest = 0.0
    for e in range(int(math.floor(math.log10(lo))),
                   int(math.ceil(math.log10(hi))) + 1):
        for m in (1, 2, 3, 5):
            x = m * 10.0 ** e
            if lo <= x <= hi:
                w = renderer.get_text_width_height_descent(
                    _fmt_tick(x), prop, ismath=False)[0]
                widest = max(widest, w)
    need = widest + TICK_GAP_PX
    every = 1
    if per_decade * math.log10(2) >= need:
        subs = (1.0, 2.0, 5.0)
    elif per_decade * math.log10(3) >= need:
        subs = (1.0, 3.0)
    else:
        subs = (1.0,)
        every = max(1, int(math.ceil(need / per_decade)))
    ax.xaxis.set_major_locator(ticker.LogLocator(base=10, subs=subs,
                                                 numticks=100))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(
        _decade_formatter(every) if every > 1 else _fmt_tick))
    ax.xaxis.set_minor_locator(ticker.LogLocator(base=10, subs="all",
                                                 numticks=100))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())


def _x_range(snaps, div):
    lo = min(slot_span(s.total[0])[0] for s in snaps) / div
    hi = max(slot_span(s.total[-1])[1] for s in snaps) / div
    return lo / 1.25, hi * 1.25


def _prepare(snaps, labels):
    snaps = _as_list(snaps)
    labels = _labels(snaps, labels)
    unit = check_units(snaps)
    dunit, div = display_unit(unit, max(s.percentiles["p50"] for s in snaps))
    return snaps, labels, dunit, div


def _icount(snaps):
    """True when every snapshot was taken under QEMU -icount (meta.timing)."""
    return all(s.icount for s in snaps)


def _xlabel(dunit, snaps=()):
    """The latency axis's label; under -icount, the instructions a unit is."""
    div = dict(NS_SCALES).get(dunit, 1)
    return "latency per call (%s)" % unit_words(dunit, div,
                                                bool(snaps) and _icount(snaps))


# hist draws calls per slot on a log y axis when its smallest non-empty
# slot is under this fraction of its tallest (hist_log_y()).
HIST_LOG_Y_BELOW = 0.01


def hist_log_y(snap):
    """True when the histogram of @snap needs a log y axis: its smallest
    non-empty slot holds under 1% (HIST_LOG_Y_BELOW) of the calls of its
    tallest.  On a linear axis such a slot is a bar under 1% of the panel
    high, a few pixels or none: the slow calls of a long tail vanish.
    """
    counts = [r["count"] for r in snap.total if r["count"] > 0]
    return bool(counts) and min(counts) < HIST_LOG_Y_BELOW * max(counts)


def hist_tail(snap):
    """The calls of @snap certainly slower than its p99: those in the
    slots that begin above p99 (p99's own slot is left out, as its calls
    may lie either side).  None when p99 is not marked (enough_samples()).
    """
    if not enough_samples(snap, "p99"):
        return None
    p99 = snap.percentiles["p99"]
    return sum(r["count"] for r in snap.total if r["lo"] > p99)


def hist_tail_text(snap):
    """The note on a histogram of how many calls lie beyond p99 and how
    slow the slowest was, or None when no slot lies beyond p99."""
    n = hist_tail(snap)
    if not n:
        return None
    text = "{:,} call{} in slots beyond p99".format(n, "" if n == 1 else "s")
    slowest = snap.node.get("max")
    if isinstance(slowest, int) and slowest > snap.percentiles["p99"]:
        text += ", slowest %s" % fmt_duration(slowest, snap.unit)
    return text


def hist_figure(snaps, labels=None):
    """Latency histogram of each snapshot in @snaps, one panel each.

    Bars span each slot's [lo, hi + 1) on a log x axis in the display unit,
    bar height is the slot count; p50/p90/p99 are vertical lines labelled
    with their values, each where enough calls stand behind it
    (enough_samples()).

    x spans the first non-empty slot to the last, however far the slowest
    call lies.  So that a long tail stays visible, y is logarithmic in a
    panel whose smallest non-empty slot holds under 1% of the calls of
    its tallest (hist_log_y()), linear from 0 otherwise; and a note at the
    top right (gid hist<i>-tail) counts the calls in the slots beyond p99
    and gives the slowest call (hist_tail(), node max), where p99 is
    marked and such slots hold calls.

    The bars of panel i are axes[i].containers[0]; the markers have gids
    hist<i>-<pct> and hist<i>-<pct>-label.  Returns the Figure.
    """
    snaps, labels, dunit, div = _prepare(snaps, labels)
    n = len(snaps)
    with matplotlib.rc_context(RC):
        fig, bottom = _new_figure(n + len(_units_lines(snaps)))
        axes = fig.subplots(n, 1, sharex=True, squeeze=False)[:, 0]
        fig.subplots_adjust(left=0.085, right=0.98, top=0.91, bottom=bottom,
                            hspace=0.35)
        xlo, xhi = _x_range(snaps, div)
        for i, (snap, label, ax) in enumerate(zip(snaps, labels, axes)):
            spans = [slot_span(r) for r in snap.total]
            left = [a / div for a, _ in spans]
            width = [(b - a) / div for a, b in spans]
            height = [r["count"] for r in snap.total]
            bars = ax.bar(left, height, width=width, align="edge",
                          color=PALETTE[0], edgecolor="white", linewidth=0.4,
                          label=label)
            for r, patch in zip(snap.total, bars.patches):
                if r["hi"] >= U64_MAX:
                    patch.set_hatch("//")
            _log_xaxis(ax, xlo, xhi)
            if hist_log_y(snap):
                top = max(height)
                ax.set_yscale("log", nonpositive="clip")
                ax.set_ylim(0.5, 0.5 * (2.0 * top) ** 1.3)
                ax.set_ylabel("calls per slot (log)")
                ax.yaxis.set_major_locator(ticker.LogLocator(base=10))
                ax.yaxis.set_minor_locator(
                    ticker.LogLocator(base=10, subs="all"))
                ax.yaxis.set_minor_formatter(ticker.NullFormatter())
                ax.yaxis.set_major_formatter(ticker.FuncFormatter(_fmt_count_tick))
            else:
                ax.set_ylim(0, max(height) * 1.3)
                ax.set_ylabel("calls per slot")
                ax.yaxis.set_major_locator(
                    ticker.MaxNLocator(nbins="auto", integer=True))
                ax.yaxis.set_major_formatter(ticker.FuncFormatter(_fmt_tick))
            ax.set_title(label, loc="left", fontweight="bold")
            span = math.log(xhi / xlo)
            marks = [m for m in HIST_MARKS if enough_samples(snap, m)]
            for j, name in enumerate(marks):
                v = snap.percentiles[name]
                x = max(v, 0.5) / div     # 0 sits with the value-0 slot
                colour, style = MARK_STYLE[name]
                ax.axvline(x, color=colour, linestyle=style, linewidth=1.6,
                           gid="hist%d-%s" % (i, name))
                right = math.log(x / xlo) / span > 0.72
                ax.annotate("%s %s %s" % (name, fmt_value(v, div), dunit),
                            xy=(x, 1.0), xycoords=("data", "axes fraction"),
                            xytext=(-5 if right else 5, -3 - 15 * j),
                            textcoords="offset points",
                            ha="right" if right else "left", va="top",
                            fontsize=9, color=colour,
                            bbox=dict(boxstyle="square,pad=0.15", fc="white",
                                      ec="none", alpha=0.85),
                            gid="hist%d-%s-label" % (i, name))
            tail = hist_tail_text(snap)
            if tail:
                ax.annotate(tail, xy=(1.0, 1.0), xycoords="axes fraction",
                            xytext=(-5, -3 - 15 * len(marks)),
                            textcoords="offset points", ha="right", va="top",
                            fontsize=9, color=MARK_STYLE["p99"][0],
                            bbox=dict(boxstyle="square,pad=0.15", fc="white",
                                      ec="none", alpha=0.85),
                            gid="hist%d-tail" % i)
        axes[-1].set_xlabel(_xlabel(dunit, snaps))
        fig.suptitle(title_text(snaps, "latency histogram", dunit),
                     x=0.01, y=0.985, ha="left", fontsize=12)
        _caption(fig, [caption_line(s, lab, dunit, div, n > 1)
                       for s, lab in zip(snaps, labels)] + _units_lines(snaps))
    return fig


def cdf_points(snap, div=1):
    """Drawn CDF of @snap: (x, cdf, tail) lists, x in value / @div.

    Each slot contributes the points (lo, F before) and (hi + 1, F after):
    linear within a slot, flat across empty slots, ending at exactly 1.0;
    tail is 1 - F computed from the counts (so it reaches exactly 0).
    """
    total = sum(r["count"] for r in snap.total)
    xs, cdf, tail = [], [], []
    cum = 0
    for r in snap.total:
        lo, end = slot_span(r)
        xs += [lo / div, end / div]
        cdf += [cum / total, (cum + r["count"]) / total]
        tail += [(total - cum) / total, (total - cum - r["count"]) / total]
        cum += r["count"]
    return xs, cdf, tail


def _legend(fig, ax, n):
    handles, labels = ax.get_legend_handles_labels()
    return fig.legend(handles, labels, loc="upper center", frameon=False,
                      ncol=min(n, 6), bbox_to_anchor=(0.5, 0.945),
                      fontsize=10)


def cdf_figure(snaps, labels=None):
    """CDF overlay of @snaps (left) and their tail, 1 - CDF on log y (right).

    Line gids: cdf<i>, tail<i>; p99/p99.9 of each capture are dots on the
    tail (gid tail<i>-pct).  Legend entries are the labels.  Returns the
    Figure.
    """
    snaps, labels, dunit, div = _prepare(snaps, labels)
    n = len(snaps)
    with matplotlib.rc_context(RC):
        fig, bottom = _new_figure(n + len(_units_lines(snaps)))
        ax, tax = fig.subplots(1, 2, sharex=True)
        fig.subplots_adjust(left=0.06, right=0.98, top=0.86, bottom=bottom,
                            wspace=0.18)
        xlo, xhi = _x_range(snaps, div)
        ymin = 1.0
        for i, (snap, label) in enumerate(zip(snaps, labels)):
            colour = PALETTE[i % len(PALETTE)]
            style = LINESTYLES[i % len(LINESTYLES)]
            xs, cdf, tail = cdf_points(snap, div)
            ax.plot(xs, cdf, color=colour, linestyle=style, linewidth=1.8,
                    label=label, gid="cdf%d" % i)
            tax.plot(xs, tail, color=colour, linestyle=style, linewidth=1.8,
                     label=label, gid="tail%d" % i)
            pts = [p for p in ("p99", "p99.9") if enough_samples(snap, p)]
            tax.plot([snap.percentiles[p] / div for p in pts],
                     [1 - PCT_FRACTION[p] for p in pts], linestyle="none",
                     marker="o", markersize=5, color=colour,
                     label="_nolegend_", gid="tail%d-pct" % i)
            ymin = min(ymin, min(t for t in tail if t > 0))
        _log_xaxis(ax, xlo, xhi)
        ax.set_ylim(0, 1.02)
        ax.set_yticks([0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])
        ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
        ax.set_ylabel("fraction of calls ≤ x  (CDF)")
        ax.set_xlabel(_xlabel(dunit, snaps))
        ax.set_title("distribution", loc="left", fontweight="bold")

        tax.set_yscale("log", nonpositive="clip")
        ybot = 10 ** math.floor(math.log10(ymin) - 0.3)
        tax.set_ylim(ybot, 1.5)
        for name in ("p90", "p99", "p99.9"):
            y = 1 - PCT_FRACTION[name]
            if y <= ybot:
                continue
            tax.axhline(y, color="#999999", linestyle=":", linewidth=0.9,
                        gid="tail-guide-%s" % name)
            tax.annotate(name, xy=(1.0, y), xycoords=("axes fraction", "data"),
                         xytext=(-2, 2), textcoords="offset points",
                         ha="right", va="bottom", fontsize=8, color="#666666")
        tax.grid(True, which="major", axis="x", color="#dddddd",
                 linewidth=0.6)
        tax.set_ylabel("fraction of calls > x  (1 − CDF, log)")
        tax.set_xlabel(_xlabel(dunit, snaps))
        tax.set_title("tail: dots mark p99 (100 calls or more) and p99.9"
                      " (1,000 or more)", loc="left",
                      fontweight="bold")
        _legend(fig, ax, n)
        fig.suptitle(title_text(snaps, "latency CDF", dunit),
                     x=0.01, y=0.985, ha="left", fontsize=12)
        _caption(fig, [caption_line(s, lab, dunit, div, True)
                       for s, lab in zip(snaps, labels)] + _units_lines(snaps))
    return fig


def enough_samples(snap, name):
    """True when @snap has calls beyond its percentile @name: p99 needs
    100 calls, p99.9 1,000 (MIN_SAMPLES).  Below that, the percentile is
    the slowest call or close to it, and no tail marker is drawn for it.
    """
    return snap.node["samples"] >= MIN_SAMPLES[name]


def _fit_top(ax, renderer, texts, extra_px):
    """Raise the linear y limit of @ax so every rotated text stays inside."""
    H = ax.get_window_extent(renderer).height
    top = ax.get_ylim()[1]
    for (text, v) in texts:
        h = text.get_window_extent(renderer).height + extra_px
        room = max(H - h, H * 0.2)
        top = max(top, v * H / room)
    ax.set_ylim(0, top)


# pct: an error bar stops at this many times the panel's tallest bar (or
# band), an arrowhead saying it goes on: a bound 20 times the value would
# leave the bars a sliver.
PCT_BOUND_CAP = 1.6


def pct_changes(snaps, name):
    """The change of percentile @name of each of @snaps against the first
    (kstats_snapshot.pct_change(): value, 95% bounds, verdict): None for
    the first, and where either side has too few calls for @name
    (enough_samples()) or the base is 0.
    """
    base = snaps[0]
    if not enough_samples(base, name) or not base.percentiles[name]:
        return [None] * len(snaps)
    return [None] + [pct_change(base, s, name) if enough_samples(s, name)
                     else None for s in snaps[1:]]


def pct_label(snap, name, change, div):
    """The label of one bar of pct: its value, and for a later capture its
    change against the first with the change's 95% bounds, as compare
    prints them: "364 +11% [+0.3,+19.7]"; "≈" before a change under the
    slot precision; "n<N" for a percentile with too few calls behind it.
    """
    if not enough_samples(snap, name):
        return "n<%s" % "{:,}".format(MIN_SAMPLES[name])
    text = fmt_value(snap.percentiles[name], div)
    if change is None:
        return text
    return "%s %s%s %s" % (text, "≈" if change.sub_resolution else "",
                           fmt_change(change.change, change.precision),
                           fmt_bounds(change.lo, change.hi))


def pct_figure(snaps, labels=None):
    """p10..p99.9 of each snapshot: one panel per percentile, one bar per
    snapshot in each, on a linear axis from 0, so that a bar twice as tall
    is a time twice as long.

    Each bar carries its value (pct_label()) and, for every capture after
    the first, the change relative to the first with its 95% bounds, as
    `kstats compare FIRST -- CAPTURE` gives them (one run a side,
    pct_changes()).  The bounds are also an error bar on the bar (gid
    pct<i>-<pct>-bounds): from first x (1 + low bound) to first x (1 +
    high bound), so that it crosses the first capture's value (a dotted
    line, gid pct-<pct>-base) exactly when the change is not measurable;
    such a bar is hatched.  It stops at PCT_BOUND_CAP times the tallest
    bar, an arrowhead (gid pct<i>-<pct>-beyond) saying that it goes on.
    A shaded band (gid pct-<pct>-band) spans the first capture's value
    ± its slot precision: a bar ending in it changed by less than the
    histogram resolves, and its label says "≈".  A percentile with too
    few calls behind it (enough_samples()) gets no bar, only the label
    "n<N".  Panel k (axes[k]) is PCT_NAMES[k]; its bars are
    axes[k].containers[0], one per capture; labels have gids
    pct<i>-<pct>-label.  Returns the Figure.
    """
    snaps, labels, dunit, div = _prepare(snaps, labels)
    n = len(snaps)
    with matplotlib.rc_context(RC):
        fig, bottom = _new_figure(n + 2 + len(_units_lines(snaps)))
        axes = fig.subplots(1, len(PCT_NAMES), squeeze=False)[0]
        fig.subplots_adjust(left=0.06, right=0.99, top=0.84, bottom=bottom,
                            wspace=0.45)
        fontsize = 9 if n <= 2 else (8 if n <= 4 else 7)
        base = snaps[0]
        width = base.node["precision_ppm"] / 1e6
        colours = [PALETTE[i % len(PALETTE)] for i in range(n)]
        renderer = fig.canvas.get_renderer()
        for ax, p in zip(axes, PCT_NAMES):
            ok = [enough_samples(s, p) for s in snaps]
            heights = [s.percentiles[p] / div if k else 0
                       for s, k in zip(snaps, ok)]
            changes = pct_changes(snaps, p)
            bars = ax.bar(range(n), heights, width=0.8, color=colours,
                          edgecolor="white", linewidth=0.4)
            top = max(heights)
            if ok[0]:
                b = base.percentiles[p] / div
                ax.axhspan(b * (1 - width), b * (1 + width), facecolor="#000000",
                           alpha=0.12, linewidth=0, zorder=0.8,
                           gid="pct-%s-band" % p)
                ax.axhline(b, color="#333333", linestyle=":", linewidth=0.9,
                           zorder=2.1, gid="pct-%s-base" % p)
                top = max(top, b * (1 + width))
            cap = top * PCT_BOUND_CAP
            ends = list(heights)
            for i, c in enumerate(changes):
                if c is None:
                    continue
                if not c.measurable:
                    bars.patches[i].set_hatch("///")
                b = base.percentiles[p] / div
                lo = b * (1 + c.lo / 100)
                hi = b * (1 + c.hi / 100)
                end = min(hi, cap)
                ax.plot([i, i], [lo, end], color="#000000", linewidth=1.2,
                        marker="_", markersize=9, markeredgewidth=1.2,
                        markevery=[0] if hi > cap else None, zorder=3,
                        gid="pct%d-%s-bounds" % (i, p))
                if hi > cap:
                    ax.plot([i], [end], linestyle="none", marker="^",
                            markersize=6, color="#000000", zorder=3,
                            gid="pct%d-%s-beyond" % (i, p))
                ends[i] = max(heights[i], end)
            texts = []
            for i, (snap, c, y) in enumerate(zip(snaps, changes, ends)):
                txt = ax.annotate(pct_label(snap, p, c, div), xy=(i, y),
                                  xytext=(0, 4), textcoords="offset points",
                                  rotation=90, ha="center", va="bottom",
                                  fontsize=fontsize,
                                  color="#000000" if ok[i] else "#777777",
                                  gid="pct%d-%s-label" % (i, p))
                texts.append((txt, y))
            ax.set_xlim(-0.6, n - 0.4)
            ax.set_xticks([])
            ax.set_title(p, fontweight="bold")
            ax.set_ylim(0, (max(ends) or 1.0 / div) * 1.05)
            ax.yaxis.set_major_locator(ticker.MaxNLocator(nbins=4))
            ax.yaxis.set_major_formatter(ticker.FuncFormatter(_fmt_tick))
            ax.grid(True, axis="y", color="#dddddd", linewidth=0.6)
            ax.set_axisbelow(True)
            _fit_top(ax, renderer, texts, 4 * DPI / 72.0 + 4)
        axes[0].set_ylabel(_xlabel(dunit, snaps))
        fig.legend([Patch(facecolor=c) for c in colours], labels,
                   loc="upper center",
                   frameon=False, ncol=min(n, 6), bbox_to_anchor=(0.5, 0.945),
                   fontsize=10)
        fig.suptitle(title_text(snaps, "latency percentiles", dunit),
                     x=0.01, y=0.985, ha="left", fontsize=12)
        _caption(fig, pct_notes(snaps, labels) +
                 [caption_line(s, lab, dunit, div, True)
                  for s, lab in zip(snaps, labels)] + _units_lines(snaps))
    return fig


def pct_notes(snaps, labels):
    """The two caption lines of pct that say what its marks mean."""
    prec = fmt_precision(snaps[0].node["precision_ppm"])
    if len(snaps) == 1:
        return ["shaded: each percentile %s, the slot precision" % prec,
                "n<N: fewer calls than the percentile needs"]
    return ["change against %s, [its 95%% bounds] and error bar as kstats "
            "compare prints them (one run a side: run-to-run noise unknown); "
            "hatched: the bounds include 0, not measurable" % labels[0],
            "shaded: %s %s (dotted), the slot precision; ≈: a change within "
            "it, under the histograms' resolution; n<N: fewer calls than the "
            "percentile needs" % (labels[0], prec)]


def cpu_grid(snap):
    """Per-CPU count matrix of @snap for the heatmap.

    Returns (cpus, edges, cols, counts): the CPUs with samples, the x edges
    (values, not divided), one entry per column (the slot number, or None
    for a gap between non-adjacent slots) and a len(cpus) x len(cols) array
    of counts (0 where a CPU has none).
    """
    cpus = sorted(_unique(r["cpu"] for r in snap.slots))
    edges, cols = [], []
    for r in snap.total:
        lo, end = slot_span(r)
        if edges and edges[-1] != lo:
            cols.append(None)
        if not edges or edges[-1] != lo:
            edges.append(lo)
        cols.append(r["slot"])
        edges.append(end)
    index = {s: j for j, s in enumerate(cols) if s is not None}
    row = {c: i for i, c in enumerate(cpus)}
    counts = np.zeros((len(cpus), len(cols)), dtype=np.int64)
    for r in snap.slots:
        if r["slot"] in index:
            counts[row[r["cpu"]], index[r["slot"]]] += r["count"]
    return cpus, edges, cols, counts


def cpu_figure(snaps, labels=None):
    """Per-CPU heatmap (CPU x slot, log colour scale) of each snapshot.

    Columns span each slot's [lo, hi + 1) on a log x axis; cells with no
    calls are left blank.  Mesh gids: cpu<i>-mesh.  Returns the Figure.
    """
    snaps, labels, dunit, div = _prepare(snaps, labels)
    for s in snaps:
        if not s.slots:
            raise SnapshotError("%s: no per-CPU rows%s: the cpu figure draws them"
                                % (s.path, " (saved with --undisturbed, which"
                                   " leaves them out)" if s.undisturbed is not None
                                   else ""))
    n = len(snaps)
    with matplotlib.rc_context(RC):
        fig, bottom = _new_figure(n + len(_units_lines(snaps)))
        axes = fig.subplots(n, 1, sharex=True, squeeze=False)[:, 0]
        fig.subplots_adjust(left=0.13, right=0.90, top=0.91, bottom=bottom,
                            hspace=0.4)
        xlo, xhi = _x_range(snaps, div)
        grids = [cpu_grid(s) for s in snaps]
        vmax = max(int(g[3].max()) for g in grids)
        norm = LogNorm(vmin=1, vmax=max(vmax, 2))
        mesh = None
        for i, (snap, label, ax, grid) in enumerate(
                zip(snaps, labels, axes, grids)):
            cpus, edges, cols, counts = grid
            z = np.ma.masked_equal(counts, 0)
            mesh = ax.pcolormesh(np.array(edges, dtype=float) / div,
                                 np.arange(len(cpus) + 1), z, cmap="viridis",
                                 norm=norm, shading="flat",
                                 gid="cpu%d-mesh" % i)
            _log_xaxis(ax, xlo, xhi)
            ax.set_ylim(len(cpus), 0)
            step = max(1, int(math.ceil(len(cpus) / 16.0)))
            ticks = list(range(0, len(cpus), step))
            ax.set_yticks([t + 0.5 for t in ticks])
            ax.set_yticklabels(["CPU %d  ({:,})".format(int(counts[t].sum()))
                                % cpus[t] for t in ticks], fontsize=9)
            ax.tick_params(axis="y", length=0)
            ax.set_title(label, loc="left", fontweight="bold")
        axes[-1].set_xlabel(_xlabel(dunit, snaps))
        cax = fig.add_axes([0.92, bottom, 0.015, 0.91 - bottom])
        fig.colorbar(mesh, cax=cax, label="calls per slot (log scale)")
        fig.suptitle(title_text(snaps, "per-CPU latency histogram", dunit),
                     x=0.01, y=0.985, ha="left", fontsize=12)
        _caption(fig, [caption_line(s, lab, dunit, div, n > 1)
                       for s, lab in zip(snaps, labels)] + _units_lines(snaps))
    return fig


def callers_figure(snaps, labels=None):
    """A CDF per call site of one capture (left) and their tails, 1 - CDF
    on log y (right), sites most total time first; sites without calls
    are left out.

    Line gids: caller<i>, caller<i>-tail, i in that order.  Legend
    entries: the site (FUNCTION+0xOFF [MODULE]), its calls and p50.
    Returns the Figure.
    """
    snaps, labels, dunit, div = _prepare(snaps, labels)
    if len(snaps) != 1:
        raise SnapshotError("callers draws one capture, not %d" % len(snaps))
    snap = snaps[0]
    sites = sorted((c for c in snap.callers if c["count"]),
                   key=kstats_snapshot.site_time, reverse=True)
    if not sites:
        raise SnapshotError("snapshot %s: %s keeps no call sites (trace it "
                            "with --callers N)" % (snap.path, snap.name))
    parts = [types.SimpleNamespace(total=c["total"]) for c in sites]
    with matplotlib.rc_context(RC):
        fig, bottom = _new_figure(1 + len(_units_lines(snaps)))
        ax, tax = fig.subplots(1, 2, sharex=True)
        fig.subplots_adjust(left=0.06, right=0.98, top=0.80, bottom=bottom,
                            wspace=0.18)
        xlo, xhi = _x_range(parts, div)
        ymin = 1.0
        for i, (site, part) in enumerate(zip(sites, parts)):
            colour = PALETTE[i % len(PALETTE)]
            style = LINESTYLES[(i // len(PALETTE)) % len(LINESTYLES)]
            xs, cdf, tail = cdf_points(part, div)
            label = "%s · %s calls · p50 %s %s" % (
                kstats_snapshot.short_site(site), "{:,}".format(site["count"]),
                fmt_value(site["p50"], div), dunit)
            ax.plot(xs, cdf, color=colour, linestyle=style, linewidth=1.8,
                    label=label, gid="caller%d" % i)
            tax.plot(xs, tail, color=colour, linestyle=style, linewidth=1.8,
                     label="_nolegend_", gid="caller%d-tail" % i)
            ymin = min([ymin] + [t for t in tail if t > 0])
        _log_xaxis(ax, xlo, xhi)
        ax.set_ylim(0, 1.02)
        ax.set_yticks([0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])
        ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
        ax.set_ylabel("fraction of the site's calls ≤ x  (CDF)")
        ax.set_xlabel(_xlabel(dunit, snaps))
        ax.set_title("distribution per call site", loc="left",
                     fontweight="bold")
        tax.set_yscale("log", nonpositive="clip")
        tax.set_ylim(10 ** math.floor(math.log10(ymin) - 0.3), 1.5)
        tax.grid(True, which="major", axis="x", color="#dddddd",
                 linewidth=0.6)
        tax.set_ylabel("fraction of the site's calls > x  (1 − CDF, log)")
        tax.set_xlabel(_xlabel(dunit, snaps))
        tax.set_title("tail", loc="left", fontweight="bold")
        handles, names = ax.get_legend_handles_labels()
        fig.legend(handles, names, loc="upper center", frameon=False,
                   ncol=min(len(sites), 3), bbox_to_anchor=(0.5, 0.945),
                   fontsize=9)
        fig.suptitle(title_text(snaps, "latency CDF per call site (callers %d)"
                                % snap.node["callers"]["n"], dunit),
                     x=0.01, y=0.985, ha="left", fontsize=12)
        _caption(fig, [caption_line(snap, labels[0], dunit, div, False)] +
                 _units_lines(snaps))
    return fig


# The figures of any captures (each node's own histogram)...
FIGURES = {
    "hist": hist_figure,
    "cdf": cdf_figure,
    "pct": pct_figure,
    "cpu": cpu_figure,
}
# ...and the figures of one capture's parts: what the command line draws.
KINDS = dict(FIGURES, callers=callers_figure)


def save_figure(fig, path, fmt=None):
    """Write @fig to @path as PNG (1200x700) or SVG, byte-stable.

    @fmt defaults to the extension of @path.
    """
    fmt = fmt or os.path.splitext(path)[1].lstrip(".").lower()
    if fmt not in FORMATS:
        raise SnapshotError("unsupported output format %r (use %s)"
                            % (fmt, ",".join(FORMATS)))
    with matplotlib.rc_context(RC):
        fig.savefig(path, format=fmt, dpi=DPI, metadata=METADATA[fmt])
    return path


def output_paths(out, formats, kind, snaps, explicit_format):
    """Files to write: OUT.<fmt> per format; OUT.png alone means PNG only."""
    if out is None:
        name = "".join(c if c.isalnum() or c in "._-" else "_"
                       for c in snaps[0].name)
        out = "%s-%s" % (kind, name)
    stem, ext = os.path.splitext(out)
    ext = ext.lstrip(".").lower()
    if ext in OTHER_FORMATS:
        raise SnapshotError("-o %s: writes %s only, not .%s"
                            % (out, " and ".join("." + f for f in FORMATS), ext))
    if ext in FORMATS:
        if not explicit_format:
            return [out]
        out = stem
    return ["%s.%s" % (out, f) for f in formats]


def load_captures(paths, nodes=None):
    """The captures of files @paths: one per file, or, in a file of
    several nodes, one per name of @nodes (labelled LABEL NAME when there
    are several names)."""
    snaps = []
    for path in paths:
        if not nodes or not is_many(path):
            snaps.append(load_snapshot(path))
            continue
        for name in nodes:
            s = load_snapshot(path, node=name)
            if len(nodes) > 1:
                s.label = "%s %s" % (s.label, name)
            snaps.append(s)
    return snaps


# What each kind draws: a line for `kstats_plot.py --help`, and the
# description of `kstats_plot.py KIND --help` (kept to 72 columns).
KIND_HELP = {
    "hist": ("latency histogram of each snapshot, p50/p90/p99 marked", """\
A latency histogram of each snapshot, one panel each: a bar per slot
over its value range on a log x axis, its height the calls in the
slot, on a log y axis when the smallest is under 1% of the tallest,
so that a long tail stays visible; p50, p90 and p99 marked with their
values where enough calls stand behind them (p99: 100), and the calls
in the slots beyond p99 counted, with the slowest call."""),
    "cdf": ("CDF overlay of the snapshots, with their tails (1 - CDF)", """\
The CDF of the snapshots overlaid (left) and their tails, 1 - CDF on
a log y axis (right), where p99 and p99.9 differences show; dots mark
p99 (100 calls or more) and p99.9 (1,000 or more)."""),
    "pct": ("p10..p99.9, a bar per snapshot (kstats compare)", """\
One panel per percentile, p10 to p99.9, a bar per snapshot on a
linear axis from 0 (a bar twice as tall is twice the time), with its
value and its change against the first snapshot: kstats compare as a
figure.  The change's 95% bounds, one run a side, are written and
drawn as an error bar; a bar whose bounds include 0 is hatched (not
measurable).  A band shades the first snapshot's value +- the slot
precision; a change within it is marked ≈ (under the resolution).  A
percentile with too few calls behind it reads n<N."""),
    "cpu": ("per-CPU heatmap, CPU x slot, log colour scale", """\
A per-CPU heatmap of each snapshot: a row per CPU, a column per slot
on a log x axis, the calls in each cell on a log colour scale, to
find a CPU that behaves differently.  A snapshot saved with
--undisturbed has no per-CPU rows and is refused."""),
    "callers": ("a CDF per call site of one node traced with --callers", """\
For one snapshot of a node traced with --callers N: a CDF per call
site (FUNCTION+0xOFF [MODULE], its calls and p50 in the legend) and
their tails, the site with the most total time first: kstats callers
as a figure.  Sites without calls are left out."""),
}

HELP_WIDTH = 72


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, width=HELP_WIDTH,
                                                max_help_position=20)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, "%s: error: %s (see %s --help)\n"
                  % (PROG, message, self.prog))


def _add_options(p, kind):
    """The options of @kind's subcommand @p (all kinds take the same)."""
    one = kind == "callers"
    p.add_argument("snapshots", nargs="+", metavar="SNAPSHOT",
                   help="the snapshot file (kstats save) of the node "
                        "traced with --callers N" if one else
                        "snapshot file written by kstats save; each is "
                        "one capture")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="output path without extension (default %s-NAME, "
                        "NAME the function); OUT.png or OUT.svg writes "
                        "that format only" % kind)
    p.add_argument("--format", metavar="FMT",
                   help="comma-separated formats (default png,svg)")
    p.add_argument("--label", action="append", metavar="L",
                   help="the snapshot's label (default meta.label, else "
                        "the file name)" if one else
                        "a snapshot's label: once per snapshot, in order "
                        "(default meta.label, else the file name)")
    p.add_argument("--node", action="extend", nargs="+", metavar="NAME",
                   help="in files of several nodes (kstats save GLOB|all): "
                        "the node(s) to draw, by name; each NAME of each "
                        "such file is one capture")
    p.add_argument("--force", action="store_true",
                   help="draw QEMU -icount beside clock snapshots, or "
                        "different functions, as kstats compare --force; "
                        "the first line printed says so")


def build_parser():
    """The command line: one subcommand per kind, each with its --help."""
    p = _Parser(prog="kstats_plot.py", formatter_class=_formatter,
                description="Draw review figures from kstats snapshots "
                            "(kstats save)\nas PNG (1200x700) and SVG.",
                epilog="kstats_plot.py KIND --help: what KIND draws and "
                       "its options.\n\nkstats_plot.py KIND SNAPSHOT... "
                       "[-o OUT] [--format png,svg]\n"
                       "               [--label L]... [--node NAME...] "
                       "[--force]")
    sub = p.add_subparsers(dest="kind", metavar="KIND", required=True,
                           parser_class=_Parser,
                           title="kinds of figure")
    for kind in KINDS:
        line, desc = KIND_HELP[kind]
        _add_options(sub.add_parser(kind, help=line, description=desc,
                                    formatter_class=_formatter), kind)
    return p


def main(argv=None):
    """Command-line entry point; returns the exit status."""
    p = build_parser()
    args = p.parse_args(argv)
    if NO_MATPLOTLIB:
        sys.stderr.write("%s: error: %s\n" % (PROG, NO_MATPLOTLIB))
        return 2

    try:
        formats = [f.strip().lower() for f in
                   (args.format or ",".join(FORMATS)).split(",") if f.strip()]
        bad = [f for f in formats if f not in FORMATS]
        if bad or not formats:
            raise SnapshotError("unsupported output format %s (use %s)"
                                % (",".join(bad) or "''", ",".join(FORMATS)))
        snaps = load_captures(args.snapshots, args.node)
        why = not_comparable(snaps, not (args.node and len(args.node) > 1))
        if why and not args.force:
            raise SnapshotError("%s (--force draws them anyway)" % why[0])
        if why:
            print("forced: " + "; ".join(why))
        fig = KINDS[args.kind](snaps, args.label)
        for path in output_paths(args.output, formats, args.kind, snaps,
                                 args.format is not None):
            save_figure(fig, path)
            print(path)
    except SnapshotError as e:
        sys.stderr.write("%s: error: %s\n" % (PROG, e))
        return 2
    except OSError as e:
        sys.stderr.write("%s: error: cannot write %s: %s\n"
                         % (PROG, e.filename, e.strerror))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
