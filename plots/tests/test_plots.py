# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Tests of plots/kstats_plot.py: check what is drawn, not just that a file
appeared.  Every snapshot in fixtures/ is used; figures that overlay
several captures get every fixture of one unit at a time.

Run: /usr/bin/python3 -m pytest -q plots/tests
"""

import copy
import glob
import itertools
import json
import os
import re
import subprocess
import sys

import matplotlib.text
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
sys.path.insert(0, PLOTS)

import kstats_plot as kp  # noqa: E402

SCRIPT = os.path.join(PLOTS, "kstats_plot.py")
FIXTURES = sorted(glob.glob(os.path.join(HERE, "fixtures", "*.json")))
DIVISOR = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000, "cycles": 1}
U64_MAX = (1 << 64) - 1


def fixture_id(path):
    return os.path.basename(path)[:-len(".json")]


def unit_groups():
    groups = {}
    for path in FIXTURES:
        with open(path) as f:
            groups.setdefault(json.load(f)["node"]["unit"], []).append(path)
    return [groups[u] for u in sorted(groups)]


GROUPS = unit_groups()
GROUP_IDS = ["+".join(fixture_id(p) for p in g) for g in GROUPS]


def by_gid(fig, gid):
    found = [a for a in fig.findobj(lambda a: a.get_gid() == gid)]
    assert len(found) == 1, "%d artists with gid %s" % (len(found), gid)
    return found[0]


def unit_of(label):
    """Unit named in an axis label such as 'latency per call (us, log)'."""
    m = re.search(r"\((ns|us|ms|s|cycles)\b", label)
    assert m, "no unit in axis label %r" % label
    return m.group(1)


def approx(x):
    return pytest.approx(x, rel=1e-9, abs=1e-12)


def load_all(paths):
    return [kp.load_snapshot(p) for p in paths]


def overlaps(a, b):
    return (a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1)


def write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f)
    return str(path)


def fixture_data(i=0):
    with open(FIXTURES[i]) as f:
        return json.load(f)


def test_fixtures_present():
    assert FIXTURES, "no fixture snapshots in plots/tests/fixtures"


@pytest.mark.parametrize("path", FIXTURES, ids=fixture_id)
def test_load_fixture(path):
    s = kp.load_snapshot(path)
    with open(path) as f:
        data = json.load(f)
    assert s.data == data
    assert s.label == (data["meta"].get("label") or fixture_id(path))
    assert s.total and sum(r["count"] for r in s.total) > 0


@pytest.mark.parametrize("path", FIXTURES, ids=fixture_id)
def test_hist_bars_are_slots(path):
    s = kp.load_snapshot(path)
    fig = kp.hist_figure([s])
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    div = DIVISOR[unit_of(ax.get_xlabel())]
    bars = fig.axes[0].containers[0]
    assert len(bars.patches) == len(s.total)
    for row, bar in zip(s.total, bars.patches):
        assert bar.get_height() == row["count"]
        if row["lo"] == 0 or row["hi"] == U64_MAX:
            continue            # drawn specially, see test_hist_edge_slots
        assert bar.get_x() == approx(row["lo"] / div)
        assert bar.get_x() + bar.get_width() == approx((row["hi"] + 1) / div)


@pytest.mark.parametrize("path", FIXTURES, ids=fixture_id)
def test_hist_percentile_markers(path):
    s = kp.load_snapshot(path)
    fig = kp.hist_figure([s])
    div = DIVISOR[unit_of(fig.axes[0].get_xlabel())]
    for name in ("p50", "p90", "p99"):
        if s.node["samples"] < kp.MIN_SAMPLES[name]:
            assert not fig.findobj(lambda a: a.get_gid() == "hist0-" + name)
            continue
        v = s.percentiles[name]
        line = by_gid(fig, "hist0-%s" % name)
        assert list(line.get_xdata()) == [approx(v / div)] * 2
        text = by_gid(fig, "hist0-%s-label" % name).get_text()
        m = re.fullmatch(r"%s ([\d.,]+) (ns|us|ms|s|cycles)" % re.escape(name),
                         text)
        assert m, text
        shown = float(m.group(1).replace(",", "")) * DIVISOR[m.group(2)]
        assert shown == pytest.approx(v, rel=0.005, abs=0.5)


@pytest.mark.parametrize("path", FIXTURES, ids=fixture_id)
def test_hist_labels_do_not_overlap(path):
    fig = kp.hist_figure([kp.load_snapshot(path)])
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [a.get_window_extent(r) for a in fig.findobj(
        lambda a: a.get_gid() in ("hist0-p50-label", "hist0-p90-label",
                                  "hist0-p99-label"))]
    assert len(boxes) >= 2
    for a, b in itertools.combinations(boxes, 2):
        assert not overlaps(a, b)
    for b in boxes:
        assert 0 <= b.x0 and b.x1 <= fig.bbox.width


TAIL_FIXTURE = os.path.join(HERE, "fixtures", "vm-6.12-find_vma-m16.json")


def long_tail_data(slow=100):
    """A fixture's histogram with its slots past p99 replaced by @slow
    calls in one slot far to the right (eight times the slowest slot)."""
    data = fixture_data(FIXTURES.index(TAIL_FIXTURE))
    node = data["node"]
    p99 = node["percentiles"]["p99"]
    keep = [r for r in node["total"] if r["lo"] <= p99]
    last = node["total"][-1]
    far = dict(last, slot=last["slot"] + 30, lo=(last["hi"] + 1) * 8,
               hi=(last["hi"] + 1) * 9 - 1, count=slow,
               avg=(last["hi"] + 1) * 8)
    node["total"] = keep + [far]
    node["max"] = far["avg"]
    node["samples"] = sum(r["count"] for r in node["total"])
    return data, far


def test_hist_long_tail_gets_log_y(tmp_path):
    """100 slow calls beside a tall slot: log y, every bar drawn above
    the axis's bottom, and the note counts the calls beyond p99."""
    data, far = long_tail_data(100)
    s = kp.load_snapshot(write_json(tmp_path / "tail.json", data))
    top = max(r["count"] for r in s.total)
    assert 100 < kp.HIST_LOG_Y_BELOW * top
    assert kp.hist_log_y(s)
    fig = kp.hist_figure(s)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    assert ax.get_ylabel().endswith("(log)")
    lo, hi = ax.get_ylim()
    assert 0 < lo < 1 and hi > top
    assert ax.get_xlim()[1] >= (far["hi"] + 1) / DIVISOR[unit_of(ax.get_xlabel())]
    assert kp.hist_tail(s) == 100
    note = by_gid(fig, "hist0-tail").get_text()
    assert note.startswith("100 calls in slots beyond p99, slowest ")
    assert note.endswith(kp.fmt_duration(far["avg"], s.unit))
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [a.get_window_extent(r) for a in fig.findobj(
        lambda a: (a.get_gid() or "").endswith("-label")
        or a.get_gid() == "hist0-tail")]
    for a, b in itertools.combinations(boxes, 2):
        assert not overlaps(a, b)


def test_hist_without_long_tail_stays_linear(tmp_path):
    """Slots all within 100x of each other: a linear y from 0."""
    data = fixture_data(FIXTURES.index(TAIL_FIXTURE))
    node = data["node"]
    top = max(r["count"] for r in node["total"])
    for r in node["total"]:
        r["count"] = max(r["count"], top // 50)
    node["samples"] = sum(r["count"] for r in node["total"])
    s = kp.load_snapshot(write_json(tmp_path / "flat.json", data))
    assert not kp.hist_log_y(s)
    ax = kp.hist_figure(s).axes[0]
    assert ax.get_yscale() == "linear"
    assert ax.get_ylim()[0] == 0
    assert ax.get_ylabel() == "calls per slot"


@pytest.mark.parametrize("path", FIXTURES, ids=fixture_id)
def test_hist_y_scale_follows_the_rule(path):
    s = kp.load_snapshot(path)
    counts = [r["count"] for r in s.total if r["count"]]
    log = min(counts) < 0.01 * max(counts)
    assert kp.hist_log_y(s) == log
    assert kp.hist_figure(s).axes[0].get_yscale() == ("log" if log else "linear")


@pytest.mark.parametrize("path", FIXTURES, ids=fixture_id)
def test_hist_caption(path):
    s = kp.load_snapshot(path)
    fig = kp.hist_figure([s])
    text = by_gid(fig, "caption0").get_text()
    n = s.node
    assert "±%g%%" % (n["precision_ppm"] / 10000) in text
    assert "{:,} samples".format(n["samples"]) in text
    assert "{:,} missed".format(n["missed"]) in text
    assert "floor" in text
    assert "attach %s" % n["attach"] in text
    assert "clock %s" % n["clock"] in text


def test_floor_has_its_own_unit(tmp_path):
    """A 12 ns floor under a figure in ms reads 12 ns, not 0.00 ms."""
    data = fixture_data()
    node = data["node"]
    node["floor"] = 12
    if node["unit"] != "ns":
        pytest.skip("the first fixture is not in ns")
    for k in node["percentiles"]:
        node["percentiles"][k] *= 100000
    s = kp.load_snapshot(write_json(tmp_path / "ms.json", data))
    text = by_gid(kp.hist_figure([s]), "caption0").get_text()
    assert "floor 12 ns" in text and "0.00 ms" not in text


def test_precision_text():
    assert kp.fmt_precision(125000) == "±12.5%"
    assert kp.fmt_precision(62500) == "±6.25%"
    assert kp.fmt_precision(1000000) == "±100%"


@pytest.mark.parametrize("kind", sorted(kp.FIGURES))
@pytest.mark.parametrize("paths", GROUPS, ids=GROUP_IDS)
def test_titles_and_units(kind, paths):
    snaps = load_all(paths)
    fig = kp.FIGURES[kind](snaps)
    title = fig._suptitle.get_text()
    for s in snaps:
        assert s.name in title
        assert s.kernel in title
    unit = None
    for ax in fig.axes:
        for label in (ax.get_xlabel(), ax.get_ylabel()):
            if "latency" in label:
                u = unit_of(label)
                assert unit in (None, u)
                unit = u
    assert unit is not None and "(%s)" % unit in title
    if snaps[0].unit == "cycles":
        assert unit == "cycles"


def test_display_unit():
    assert kp.display_unit("ns", 115) == ("ns", 1)
    assert kp.display_unit("ns", 2500) == ("us", 1000)
    assert kp.display_unit("ns", 7500000) == ("ms", 1000000)
    assert kp.display_unit("ns", 999) == ("ns", 1)
    assert kp.display_unit("ns", 1000) == ("us", 1000)
    assert kp.display_unit("ns", 2 * 10**9) == ("s", 1000000000)
    assert kp.display_unit("cycles", 7500000) == ("cycles", 1)


@pytest.mark.parametrize("paths", GROUPS, ids=GROUP_IDS)
def test_cdf_curves(paths):
    snaps = load_all(paths)
    fig = kp.cdf_figure(snaps)
    cax, tax = fig.axes[:2]
    assert cax.get_xscale() == "log" and tax.get_yscale() == "log"
    div = DIVISOR[unit_of(cax.get_xlabel())]
    for i, s in enumerate(snaps):
        xs = list(by_gid(fig, "cdf%d" % i).get_xdata())
        ys = list(by_gid(fig, "cdf%d" % i).get_ydata())
        tail = list(by_gid(fig, "tail%d" % i).get_ydata())
        assert ys[-1] == 1.0 and tail[-1] == 0.0
        assert all(a <= b for a, b in zip(ys, ys[1:]))
        assert all(a <= b for a, b in zip(xs, xs[1:]))
        assert tail == [pytest.approx(1 - y, abs=1e-12) for y in ys]
        prec = s.node["precision_ppm"] / 1e6
        for name, q in kp.PCT_FRACTION.items():
            p = s.percentiles[name] / div
            k = next(k for k, y in enumerate(ys) if y >= q - 1e-12)
            assert k > 0
            # The curve reaches q on the segment holding the percentile,
            # a segment no wider than one slot.
            assert xs[k - 1] * (1 - 1e-12) <= p <= xs[k] * (1 + 1e-12), name
            assert xs[k] - xs[k - 1] <= max(prec * xs[k - 1], 1.0 / div) \
                * (1 + 1e-9)
        dots = by_gid(fig, "tail%d-pct" % i)
        marked = [p for p in ("p99", "p99.9")
                  if s.node["samples"] >= kp.MIN_SAMPLES[p]]
        assert list(dots.get_xdata()) == [
            approx(s.percentiles[p] / div) for p in marked]
        assert list(dots.get_ydata()) == [
            approx(1 - kp.PCT_FRACTION[p]) for p in marked]


def legend_labels(snaps):
    """Each label; one that two snapshots share, their file names."""
    labels = [s.label for s in snaps]
    return [l if labels.count(l) == 1 else fixture_id(s.path)
            for l, s in zip(labels, snaps)]


@pytest.mark.parametrize("paths", GROUPS, ids=GROUP_IDS)
def test_cdf_legend(paths):
    snaps = load_all(paths)
    fig = kp.cdf_figure(snaps)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == \
        legend_labels(snaps)
    labels = ["L%d" % i for i in range(len(snaps))]
    fig = kp.cdf_figure(snaps, labels)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == labels


@pytest.mark.parametrize("paths", GROUPS, ids=GROUP_IDS)
def test_pct_bars(paths):
    """One linear panel per percentile from 0, a bar per capture."""
    snaps = load_all(paths)
    fig = kp.pct_figure(snaps)
    axes = fig.axes
    div = DIVISOR[unit_of(axes[0].get_ylabel())]
    assert [ax.get_title() for ax in axes] == list(kp.PCT_NAMES)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == \
        legend_labels(snaps)
    for ax, p in zip(axes, kp.PCT_NAMES):
        assert ax.get_yscale() == "linear" and ax.get_ylim()[0] == 0
        heights = [b.get_height() for b in ax.containers[0].patches]
        for i, s in enumerate(snaps):
            text = by_gid(fig, "pct%d-%s-label" % (i, p)).get_text()
            if s.node["samples"] < kp.MIN_SAMPLES[p]:
                assert heights[i] == 0 and text.startswith("n<"), text
                continue
            assert heights[i] == approx(s.percentiles[p] / div)
            number = float(text.split()[0].replace(",", "")) * div
            assert number == pytest.approx(s.percentiles[p], rel=0.005,
                                           abs=0.5)
            if i and snaps[0].node["samples"] >= kp.MIN_SAMPLES[p]:
                c = kp.pct_change(snaps[0], s, p)
                assert text.split(" ", 1)[1] == "%s%s %s" % (
                    "≈" if c.sub_resolution else "",
                    kp.fmt_change(c.change, c.precision),
                    kp.fmt_bounds(c.lo, c.hi)), text
            else:
                assert " " not in text, text


def test_pct_bar_lengths_read_true():
    """A change of +51% is a bar 1.51 times as tall, not 2.7 times."""
    a = kp.load_snapshot(FIXTURES[1])
    b = copy.deepcopy(a)
    b.percentiles["p50"] = round(a.percentiles["p50"] * 1.51)
    fig = kp.pct_figure([a, b], ["a", "b"])
    ax = fig.axes[list(kp.PCT_NAMES).index("p50")]
    one, two = [r.get_height() for r in ax.containers[0].patches]
    assert two / one == pytest.approx(1.51, rel=0.01)
    assert ax.get_ylim()[0] == 0
    assert " +51% [" in by_gid(fig, "pct1-p50-label").get_text()


DEMO = os.path.join(HERE, "fixtures", "demo-7.3")


def demo_pair(tcg=True):
    """The demo's find_vma, 43 then 4107 VMAs (plain TCG or -icount)."""
    return [kp.load_snapshot(os.path.join(DEMO, "find_vma-m%d%s.json"
                                          % (m, "-tcg" if tcg else "")))
            for m in (16, 2048)]


def test_pct_error_bars_are_the_bounds():
    """The demo's p50 moves +11.3%, bounds [+0.3,+19.7]: an error bar
    from 327 x 1.003 to 327 x 1.197 ns, above the first capture's value,
    the change within its band (12.5%): "≈+11%".  p99.9's bounds
    [-11.1,+2033] include 0: the bar is hatched, and the error bar,
    21 times p50's value, stops at the cap with an arrowhead."""
    a, b = demo_pair()
    fig = kp.pct_figure([a, b], ["43 VMAs", "4107 VMAs"])
    ax = fig.axes[list(kp.PCT_NAMES).index("p50")]
    base = a.percentiles["p50"]
    assert base == 327 and b.percentiles["p50"] == 364
    lo, hi = by_gid(fig, "pct1-p50-bounds").get_ydata()
    assert lo == approx(base * 352 / 351) and hi == approx(base * 383 / 320)
    assert lo > base
    band = by_gid(fig, "pct-p50-band").get_path().get_extents()
    band = ax.transData.inverted().transform(
        by_gid(fig, "pct-p50-band").get_transform().transform(
            [[0, band.y0], [0, band.y1]]))[:, 1]
    assert list(band) == [approx(base * 0.875), approx(base * 1.125)]
    assert by_gid(fig, "pct-p50-base").get_ydata()[0] == base
    assert by_gid(fig, "pct1-p50-label").get_text() == \
        "364 ≈+11% [+0.3,+19.7]"
    assert not ax.containers[0].patches[1].get_hatch()
    assert not fig.findobj(lambda o: o.get_gid() == "pct1-p50-beyond")

    ax = fig.axes[list(kp.PCT_NAMES).index("p99.9")]
    base = a.percentiles["p99.9"]
    lo, hi = by_gid(fig, "pct1-p99.9-bounds").get_ydata()
    assert lo == approx(base * 4096 / 4607) and lo < base
    heights = [r.get_height() for r in ax.containers[0].patches]
    assert hi == approx(kp.PCT_BOUND_CAP * max(heights + [base * 1.125]))
    assert hi < base * 49151 / 2304
    assert list(by_gid(fig, "pct1-p99.9-beyond").get_ydata()) == [hi]
    assert ax.containers[0].patches[1].get_hatch()
    assert not ax.containers[0].patches[0].get_hatch()
    assert by_gid(fig, "pct1-p99.9-label").get_text() == \
        "5204 +113% [-11.1,+2033]"
    assert ax.get_ylim()[1] > hi


@pytest.mark.parametrize("tcg", [True, False], ids=["tcg", "icount"])
def test_pct_hatched_where_not_measurable(tcg):
    """A bar is hatched exactly where its change's bounds include 0,
    which is where its error bar crosses the first capture's value."""
    snaps = demo_pair(tcg)
    fig = kp.pct_figure(snaps)
    for ax, p in zip(fig.axes, kp.PCT_NAMES):
        c = kp.pct_change(snaps[0], snaps[1], p)
        base = snaps[0].percentiles[p]
        lo, hi = by_gid(fig, "pct1-%s-bounds" % p).get_ydata()
        beyond = fig.findobj(lambda o: o.get_gid() == "pct1-%s-beyond" % p)
        crosses = lo <= base and (hi >= base or bool(beyond))
        assert crosses == (not c.measurable) == \
            bool(ax.containers[0].patches[1].get_hatch()), p
        assert not ax.containers[0].patches[0].get_hatch()
        text = by_gid(fig, "pct1-%s-label" % p).get_text()
        assert ("≈" in text) == (abs(c.change) < 12.5), (p, text)


@pytest.mark.parametrize("paths", GROUPS, ids=GROUP_IDS)
def test_pct_error_bars_and_bands(paths):
    """Every later capture's bar with enough calls on both sides has an
    error bar from first x (1 + low bound) up, and every panel whose
    first capture has enough calls a band of ± its slot precision."""
    snaps = load_all(paths)
    fig = kp.pct_figure(snaps)
    div = DIVISOR[unit_of(fig.axes[0].get_ylabel())]
    for ax, p in zip(fig.axes, kp.PCT_NAMES):
        ok0 = snaps[0].node["samples"] >= kp.MIN_SAMPLES[p]
        base = snaps[0].percentiles[p] / div
        assert bool(fig.findobj(lambda o: o.get_gid() == "pct-%s-band" % p)) \
            == ok0
        for i, s in enumerate(snaps):
            bars = fig.findobj(lambda o: o.get_gid() == "pct%d-%s-bounds"
                               % (i, p))
            want = i and ok0 and s.node["samples"] >= kp.MIN_SAMPLES[p] \
                and base > 0
            assert bool(bars) == bool(want), (i, p)
            if not want:
                continue
            c = kp.pct_change(snaps[0], s, p)
            lo, hi = bars[0].get_ydata()
            assert lo == approx(base * (1 + c.lo / 100))
            assert hi == approx(base * (1 + c.hi / 100)) or \
                hi < base * (1 + c.hi / 100)
            assert lo <= s.percentiles[p] / div * (1 + 1e-9)
            assert ax.get_ylim()[1] >= hi


def figure_texts(fig):
    """Every text @fig writes but its axes' tick labels (fractions such as
    a CDF's 0.00 to 1.00 among them)."""
    ticks = {id(label) for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
             for t in axis.majorTicks + axis.minorTicks
             for label in (t.label1, t.label2)}
    return [t.get_text() for t in fig.findobj(matplotlib.text.Text)
            if t.get_text() and id(t) not in ticks]


@pytest.mark.parametrize("kind", sorted(kp.FIGURES))
@pytest.mark.parametrize("paths", GROUPS + [[os.path.join(DEMO, f) for f in (
    "find_vma-m16-tcg.json", "find_vma-m2048-tcg.json")]],
    ids=GROUP_IDS + ["demo-7.3-tcg"])
def test_texts_carry_the_datas_digits(kind, paths):
    """No text a figure writes claims digits a histogram of 12.5%
    precision lacks: a change in whole percent, at most three significant
    digits ("+1,180%", never "+1176.8%"), and no value printed as 0.00
    of a unit too large for it."""
    fig = kp.FIGURES[kind](load_all(paths))
    fig.canvas.draw()
    texts = figure_texts(fig)
    assert texts
    for t in texts:
        assert not re.search(r"[+-]\d[\d,]*\.\d+%", t), t
        assert not re.search(r"(^|[^\d.])0\.00?\b", t), t
        for m in re.finditer(r"[+-]([\d,]+)%", t):
            digits = m.group(1).replace(",", "")
            assert len(digits.rstrip("0")) <= 3, t


def test_pct_change_digits_in_a_big_change(tmp_path):
    """p99.9 of 6.1 against 6.12 moved +1176.8%: "+1,180%"."""
    data = sorted(glob.glob(os.path.join(HERE, "..", "..", "docs", "figures",
                                         "data", "*.json")))
    snaps = load_all(data)
    c = kp.pct_change(snaps[0], snaps[1], "p99.9")
    assert "%.1f" % c.change == "1176.8"
    fig = kp.pct_figure(snaps)
    assert by_gid(fig, "pct1-p99.9-label").get_text().split()[1] == "+1,180%"


def test_pct_caption_says_what_the_marks_mean():
    fig = kp.pct_figure(demo_pair(), ["A", "B"])
    one, two = (by_gid(fig, "caption%d" % i).get_text() for i in range(2))
    assert "change against A" in one and "95% bounds" in one
    assert "one run a side" in one and "hatched: the bounds include 0" in one
    assert "A ±12.5%" in two and "≈" in two
    fig = kp.pct_figure(demo_pair()[:1], ["A"])
    assert by_gid(fig, "caption0").get_text() == \
        "shaded: each percentile ±12.5%, the slot precision"


@pytest.mark.parametrize("samples, marked", [(999, ["p99"]),
                                             (1000, ["p99", "p99.9"]),
                                             (99, [])])
def test_tail_marks_need_samples(samples, marked, tmp_path):
    """p99.9 is marked only with 1,000 calls behind it, p99 with 100."""
    data = fixture_data(1)
    scale = samples / data["node"]["samples"]
    data["node"]["samples"] = samples
    for r in data["node"]["total"]:
        r["count"] = max(1, int(r["count"] * scale))
    s = kp.load_snapshot(write_json(tmp_path / "s.json", data))
    fig = kp.cdf_figure([s])
    assert len(by_gid(fig, "tail0-pct").get_xdata()) == len(marked)
    fig = kp.hist_figure([s])
    assert bool(fig.findobj(lambda a: a.get_gid() == "hist0-p99")) == \
        ("p99" in marked)
    fig = kp.pct_figure([s])
    for p in ("p99", "p99.9"):
        text = by_gid(fig, "pct0-%s-label" % p).get_text()
        assert text.startswith("n<") == (p not in marked), (p, text)


@pytest.mark.parametrize("paths", GROUPS, ids=GROUP_IDS)
def test_pct_labels_do_not_overlap(paths):
    snaps = load_all(paths)
    fig = kp.pct_figure(snaps)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    legend = fig.legends[0].get_window_extent(r)
    for ax, p in zip(fig.axes, kp.PCT_NAMES):
        box = ax.get_window_extent(r)
        boxes = [by_gid(fig, "pct%d-%s-label" % (i, p)).get_window_extent(r)
                 for i in range(len(snaps))]
        for a, b in itertools.combinations(boxes, 2):
            assert not overlaps(a, b)
        for b in boxes:
            assert box.y0 <= b.y0 and b.y1 <= box.y1 + 1
            assert not overlaps(legend, b)


def test_pct_labels_many_captures():
    """Six captures still get value labels that do not collide."""
    snaps = load_all(FIXTURES[1:2]) * 6
    fig = kp.pct_figure(snaps, ["c%d" % i for i in range(6)])
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [by_gid(fig, "pct%d-%s-label" % (i, p)).get_window_extent(r)
             for i in range(6) for p in kp.PCT_NAMES]
    for a, b in itertools.combinations(boxes, 2):
        assert not overlaps(a, b)


@pytest.mark.parametrize("paths", GROUPS, ids=GROUP_IDS)
def test_cpu_heatmap_counts(paths):
    snaps = load_all(paths)
    fig = kp.cpu_figure(snaps)
    for i, s in enumerate(snaps):
        ax = fig.axes[i]
        div = DIVISOR[unit_of(fig.axes[len(snaps) - 1].get_xlabel())]
        mesh = by_gid(fig, "cpu%d-mesh" % i)
        coords = mesh.get_coordinates()
        nrows, ncols = coords.shape[0] - 1, coords.shape[1] - 1
        data = mesh.get_array().reshape(nrows, ncols)
        left = [float(x) for x in coords[0, :-1, 0]]
        right = [float(x) for x in coords[0, 1:, 0]]
        cpus = sorted({r["cpu"] for r in s.slots})
        assert nrows == len(cpus)
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert labels[0].startswith("CPU %d" % cpus[0])
        expect = {}
        for r in s.slots:
            expect[(cpus.index(r["cpu"]), r["lo"], r["hi"])] = r["count"]
        seen = 0
        for row in range(nrows):
            for col in range(ncols):
                cell = data[row, col]
                hits = [c for (rr, lo, hi), c in expect.items()
                        if rr == row and lo / div == approx(left[col])
                        and (hi + 1) / div == approx(right[col])]
                if hits:
                    assert cell == hits[0]
                    seen += 1
                else:
                    assert cell is kp.np.ma.masked
        assert seen == len(s.slots)


def test_cpu_heatmap_gap_columns(tmp_path):
    """Empty slots between non-empty ones are blank columns, not stretched."""
    data = fixture_data()
    node = data["node"]
    keep = {node["total"][0]["slot"], node["total"][-1]["slot"]}
    node["total"] = [r for r in node["total"] if r["slot"] in keep]
    node["slots"] = [r for r in node["slots"] if r["slot"] in keep]
    s = kp.load_snapshot(write_json(tmp_path / "gap.json", data))
    cpus, edges, cols, counts = kp.cpu_grid(s)
    assert cols == [node["total"][0]["slot"], None, node["total"][-1]["slot"]]
    assert counts[:, 1].sum() == 0
    assert counts.sum() == sum(r["count"] for r in node["total"])


def test_hist_edge_slots(tmp_path):
    """The value-0 slot and the overflow slot get finite, visible bars."""
    data = fixture_data()
    node = data["node"]
    first = dict(node["total"][0], slot=0, lo=0, hi=0, count=5, avg=0)
    last = node["total"][-1]
    over = dict(last, slot=last["slot"] + 1000, lo=last["hi"] + 1,
                hi=U64_MAX, count=7, avg=last["hi"] + 1)
    node["total"] = [first] + node["total"] + [over]
    s = kp.load_snapshot(write_json(tmp_path / "edges.json", data))
    fig = kp.hist_figure(s)
    bars = fig.axes[0].containers[0].patches
    assert bars[0].get_height() == 5 and bars[-1].get_height() == 7
    assert bars[0].get_x() > 0 and bars[-1].get_width() > 0
    assert bars[-1].get_hatch() == "//"
    xs, ys, tail = kp.cdf_points(s)
    assert ys[-1] == 1.0 and all(x > 0 for x in xs)


def test_zero_percentiles_draw(tmp_path):
    """A percentile of 0 (value-0 slot) still draws on every axis."""
    data = fixture_data()
    node = data["node"]
    zero = dict(node["total"][0], slot=0, lo=0, hi=0, avg=0,
                count=sum(r["count"] for r in node["total"]))
    node["total"] = [zero] + node["total"]
    node["percentiles"].update({"p10": 0, "p50": 0})
    s = kp.load_snapshot(write_json(tmp_path / "zero.json", data))
    for kind in sorted(kp.FIGURES):
        fig = kp.FIGURES[kind]([s])
        kp.save_figure(fig, str(tmp_path / ("%s.png" % kind)))
    fig = kp.hist_figure(s)
    assert by_gid(fig, "hist0-p50-label").get_text().startswith("p50 0 ")


def render(fig, fmt, path):
    kp.save_figure(fig, str(path), fmt)
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("kind", sorted(kp.FIGURES))
def test_stable_output(kind, tmp_path):
    snaps = load_all(GROUPS[0])
    one = render(kp.FIGURES[kind](snaps), "svg", tmp_path / "a.svg")
    two = render(kp.FIGURES[kind](snaps), "svg", tmp_path / "b.svg")
    assert one == two
    assert b"<dc:date>" not in one
    png1 = render(kp.FIGURES[kind](snaps), "png", tmp_path / "a.png")
    png2 = render(kp.FIGURES[kind](snaps), "png", tmp_path / "b.png")
    assert png1 == png2
    width = int.from_bytes(png1[16:20], "big")
    height = int.from_bytes(png1[20:24], "big")
    assert (width, height) == (1200, 700)


def run_cli(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, SCRIPT] + list(args),
                          capture_output=True, text=True, env=env, cwd=cwd)


def _paths(res):
    """The files a run printed, after its "forced:" line if any."""
    return [l for l in res.stdout.splitlines() if not l.startswith("forced: ")]


def test_cli_refuses_what_compare_refuses(tmp_path):
    """Different functions, or QEMU -icount beside a clock: refused in one
    line, exit 2, unless --force, whose first line says so."""
    fns = {}
    for f in FIXTURES:
        fns.setdefault(kp.load_snapshot(f).name, f)
    a, b = sorted(fns.values())[:2]
    res = run_cli("cdf", a, b, "-o", str(tmp_path / "x"))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and res.stderr.endswith(
        ": different functions (--force draws them anyway)\n"), res.stderr
    res = run_cli("cdf", a, b, "-o", str(tmp_path / "x"), "--force")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0].startswith("forced: ")
    data = json.loads(open(a).read())
    data["meta"]["timing"] = "qemu-icount"
    ic = write_json(tmp_path / "icount.json", data)
    res = run_cli("pct", a, ic, "-o", str(tmp_path / "y"))
    assert res.returncode == 2 and res.stderr == (
        "kstats_plot: error: %s counts QEMU -icount instructions, %s clock ns: "
        "not comparable (--force draws them anyway)\n" % (ic, a))
    res = run_cli("pct", a, ic, "-o", str(tmp_path / "y"), "--force")
    assert res.returncode == 0 and res.stdout.splitlines()[0] == (
        "forced: %s counts QEMU -icount instructions, %s clock ns: "
        "not comparable" % (ic, a))


def test_cli_writes_png_and_svg_stably(tmp_path):
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = tmp_path / ("run" + seed)
        res = run_cli("cdf", *GROUPS[0], "-o", str(out), "--force", env=env)
        assert res.returncode == 0, res.stderr
        assert _paths(res) == [str(out) + ".png", str(out) + ".svg"]
        outs.append([open(str(out) + e, "rb").read() for e in (".png", ".svg")])
    assert outs[0] == outs[1]


def test_cli_single_format_and_labels(tmp_path):
    out = tmp_path / "h.svg"
    res = run_cli("pct", *GROUPS[0], "-o", str(out), "--force",
                  *[a for i in range(len(GROUPS[0]))
                    for a in ("--label", "L%d" % i)])
    assert res.returncode == 0, res.stderr
    assert _paths(res) == [str(out)]
    assert not os.path.exists(tmp_path / "h.png")
    res = run_cli("hist", FIXTURES[0], "--format", "png", cwd=str(tmp_path))
    assert res.returncode == 0, res.stderr
    name = kp.load_snapshot(FIXTURES[0]).name
    assert os.path.exists(tmp_path / ("hist-%s.png" % name))


def test_cli_label_once_per_snapshot(tmp_path, monkeypatch):
    """--label takes one value and is given once per snapshot: the files
    after it stay snapshots, and a wrong count is one line, exit 2."""
    drawn = []
    monkeypatch.setattr(kp, "save_figure",
                        lambda fig, path, fmt=None: drawn.append(fig) or path)
    out = str(tmp_path / "c")
    rc = kp.main(["cdf", "--label", "no debug", "--label", "debug",
                  FIXTURES[0], FIXTURES[0], "-o", out + ".png"])
    assert rc == 0
    assert [t.get_text() for t in drawn[0].legends[0].get_texts()] == \
        ["no debug", "debug"]
    res = run_cli("cdf", "--label", "a", FIXTURES[0], FIXTURES[0],
                  "-o", out)
    assert res.returncode == 2
    assert res.stderr.splitlines() == [
        "kstats_plot: error: 1 labels given for 2 snapshots"]


@pytest.mark.parametrize("kind", sorted(kp.KINDS))
def test_each_kind_has_its_own_help(kind):
    """KIND --help describes KIND, its usage names it, every line fits
    72 columns however wide the terminal."""
    for cols in ("200", "40"):
        res = run_cli(kind, "--help", env=dict(os.environ, COLUMNS=cols))
        assert res.returncode == 0 and res.stderr == ""
        out = res.stdout
        assert out.startswith("usage: kstats_plot.py %s " % kind)
        assert kp.KIND_HELP[kind][1].split("\n")[0] in out
        assert "--label" in out and "--force" in out
        long = [l for l in out.splitlines() if len(l) > 72]
        assert not long, long
    other = [k for k in kp.KINDS if k != kind]
    assert all(kp.KIND_HELP[k][1] not in out for k in other)


def test_help_lists_the_kinds():
    res = run_cli("--help", env=dict(os.environ, COLUMNS="200"))
    assert res.returncode == 0 and res.stderr == ""
    for kind, (line, _desc) in kp.KIND_HELP.items():
        assert re.search(r"^ +%s +%s$" % (kind, re.escape(line)),
                         res.stdout, re.M), kind
    assert max(len(l) for l in res.stdout.splitlines()) <= 72


def test_kind_errors_are_one_line(tmp_path):
    res = run_cli("pct", "-o", str(tmp_path / "x"))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.splitlines() == [
        "kstats_plot: error: the following arguments are required: "
        "SNAPSHOT (see kstats_plot.py pct --help)"]


def test_default_label_is_file_name(tmp_path):
    data = fixture_data()
    del data["meta"]["label"]
    s = kp.load_snapshot(write_json(tmp_path / "base-run.json", data))
    assert s.label == "base-run"


def bad_snapshot(tmp_path, how):
    path = tmp_path / ("%s.json" % how)
    text = open(FIXTURES[0]).read()
    data = json.loads(text)
    if how == "empty-file":
        path.write_text("")
        return str(path)
    if how == "truncated":
        path.write_text(text[:len(text) // 2])
        return str(path)
    if how == "no-samples":
        data["node"]["total"] = []
        data["node"]["slots"] = []
    elif how == "wrong-schema":
        data["schema"] = "kstats-snapshot/9"
    elif how == "missing-field":
        del data["node"]["percentiles"]["p99"]
    elif how == "float-count":
        data["node"]["total"][0]["count"] = 1.5
    elif how == "string-count":
        data["node"]["slots"][0]["count"] = "12"
    elif how == "bool-bits":
        data["node"]["bits"] = True
    elif how == "not-object":
        data = [data]
    return write_json(path, data)


BAD = {
    "empty-file": r"snapshot .*empty-file\.json is empty$",
    "truncated": r"snapshot .*truncated\.json is not valid JSON \(truncated\?\)",
    "no-samples": r"^snapshot .*no-samples\.json has no samples$",
    "wrong-schema": r"schema is \"kstats-snapshot/9\", expected "
                    r"kstats-snapshot/2",
    "missing-field": r"node\.percentiles\.p99 is missing",
    "float-count": r"node\.total\[0\]\.count must be a non-negative integer",
    "string-count": r"node\.slots\[0\]\.count must be a non-negative integer",
    "bool-bits": r"node\.bits must be a non-negative integer",
    "not-object": r"top level must be a JSON object",
}


@pytest.mark.parametrize("how", sorted(BAD))
def test_bad_snapshot_errors(tmp_path, how):
    path = bad_snapshot(tmp_path, how)
    with pytest.raises(kp.SnapshotError, match=BAD[how]) as e:
        kp.load_snapshot(path)
    assert path in str(e.value) and "\n" not in str(e.value)


def test_missing_file_error(tmp_path):
    path = str(tmp_path / "nope.json")
    with pytest.raises(kp.SnapshotError, match="cannot read snapshot .*nope"):
        kp.load_snapshot(path)


def cycles_snapshot(tmp_path):
    data = fixture_data()
    data["node"]["unit"] = "cycles"
    data["node"]["clock"] = "tsc"
    return write_json(tmp_path / "tsc.json", data)


@pytest.mark.parametrize("kind", sorted(kp.FIGURES))
def test_mixed_units_error(tmp_path, kind):
    snaps = [kp.load_snapshot(FIXTURES[0]),
             kp.load_snapshot(cycles_snapshot(tmp_path))]
    if snaps[0].unit == "cycles":
        pytest.skip("first fixture is already in cycles")
    with pytest.raises(kp.SnapshotError,
                       match="cannot mix units in one figure: .* is in ns, "
                             ".*tsc.json is in cycles"):
        kp.FIGURES[kind](snaps)


def test_cycles_stay_cycles(tmp_path):
    s = kp.load_snapshot(cycles_snapshot(tmp_path))
    fig = kp.hist_figure(s)
    assert unit_of(fig.axes[0].get_xlabel()) == "cycles"
    bars = fig.axes[0].containers[0].patches
    assert bars[1].get_x() == s.total[1]["lo"]


@pytest.mark.parametrize("args,pattern", [
    (["truncated"], r"truncated\.json is not valid JSON"),
    (["no-samples"], r"no-samples\.json has no samples"),
    (["mixed"], r"cannot mix units in one figure"),
    (["labels"], r"1 labels given for 2 snapshots"),
    (["format"], r"unsupported output format pdf"),
    (["usage"], r"invalid choice"),
])
def test_cli_errors(tmp_path, args, pattern):
    how = args[0]
    if how in ("truncated", "no-samples"):
        argv = ["hist", bad_snapshot(tmp_path, how)]
    elif how == "mixed":
        argv = ["cdf", FIXTURES[0], cycles_snapshot(tmp_path)]
    elif how == "labels":
        argv = ["cdf", FIXTURES[0], FIXTURES[0], "--label", "one"]
    elif how == "format":
        argv = ["hist", FIXTURES[0], "--format", "pdf"]
    else:
        argv = ["histogram", FIXTURES[0]]
    res = run_cli(*argv, "-o", str(tmp_path / "out"))
    assert res.returncode == 2
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("kstats_plot: error: ")
    assert re.search(pattern, lines[0]), lines[0]
    assert not glob.glob(str(tmp_path / "out*"))


def test_label_count_mismatch():
    snaps = load_all(FIXTURES[:1]) * 2
    with pytest.raises(kp.SnapshotError, match="1 labels given for 2"):
        kp.pct_figure(snaps, ["only-one"])


def test_check_units_copy_is_independent():
    """Loading never alters the file's data: figures redraw identically."""
    s = kp.load_snapshot(FIXTURES[0])
    before = copy.deepcopy(s.data)
    for kind in sorted(kp.FIGURES):
        kp.FIGURES[kind]([s])
    assert s.data == before


@pytest.mark.parametrize("kind", sorted(kp.FIGURES))
@pytest.mark.parametrize("paths", GROUPS, ids=GROUP_IDS)
def test_tick_labels_do_not_overlap(kind, paths):
    fig = kp.FIGURES[kind](load_all(paths))
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    for ax in fig.axes:
        for axis, labels, i in ((ax.xaxis, ax.get_xticklabels(), 0),
                                (ax.yaxis, ax.get_yticklabels(), 1)):
            lo, hi = sorted(axis.get_view_interval())
            boxes = [t.get_window_extent(r) for t in labels
                     if t.get_visible() and t.get_text()
                     and lo <= t.get_position()[i] <= hi]
            for a, b in itertools.combinations(boxes, 2):
                assert not overlaps(a, b)


@pytest.mark.parametrize("kind", ["hist", "hist2", "cdf", "cpu"])
def test_wide_log_axis_tick_labels_do_not_overlap(kind, tmp_path):
    """A capture whose slowest call lies 9 decades past its fastest (a
    100 s call of a function that takes 100 ns) on the narrow panels of
    cdf: the visible tick labels, as rendered, never meet."""
    data = fixture_data(FIXTURES.index(TAIL_FIXTURE))
    node = data["node"]
    last = node["total"][-1]
    lo = 100 * 10 ** 9
    node["total"].append(dict(last, slot=last["slot"] + 200, lo=lo,
                              hi=lo + lo // 8 - 1, count=3, avg=lo))
    node["samples"] += 3
    node["max"] = lo
    s = kp.load_snapshot(write_json(tmp_path / "wide.json", data))
    fig = (kp.hist_figure([s, s], ["a", "b"]) if kind == "hist2"
           else kp.FIGURES[kind]([s]))
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    labelled = 0
    for ax in fig.axes:
        if ax.get_xscale() != "log":
            continue
        lo, hi = ax.get_xlim()
        shown = [t for t in ax.xaxis.get_majorticklabels()
                 if t.get_visible() and t.get_text()
                 and lo <= t.get_position()[0] <= hi]
        if not shown:
            continue            # a panel above another, sharing its x
        assert len(shown) >= 3, [t.get_text() for t in shown]
        labelled += 1
        boxes = sorted((t.get_window_extent(r) for t in shown),
                       key=lambda b: b.x0)
        for a, b in zip(boxes, boxes[1:]):
            assert a.x1 + 2 <= b.x0, (a, b)
    assert labelled


def test_icount_axis_labels(tmp_path):
    """A figure of -icount snapshots says so on its latency axis; others do not."""
    data = fixture_data()
    plain = write_json(tmp_path / "plain.json", data)
    data["meta"]["timing"] = "qemu-icount"
    ic = write_json(tmp_path / "ic.json", data)
    for kind, fn in (("hist", kp.hist_figure), ("cdf", kp.cdf_figure), ("pct", kp.pct_figure)):
        for path, want in ((ic, True), (plain, False)):
            fig = fn(load_all([path]))
            labels = [ax.get_xlabel() + ax.get_ylabel() for ax in fig.axes]
            assert any(re.search(r"\((ns|us|ms|s) = [\d,]+ instructions?, "
                                 r"QEMU -icount\)", t)
                       for t in labels) == want, (kind, labels)
            caps = [t.get_text() for t in fig.texts
                    if (t.get_gid() or "").startswith("caption")]
            assert ("units: " + kp.kstats_snapshot.ICOUNT_NOTE in caps) == \
                want, (kind, caps)


def test_icount_scaled_units_say_how_many_instructions():
    """Never "ms = instructions": a scaled unit names its instructions."""
    assert kp.unit_words("ns", 1, True) == "ns = 1 instruction, QEMU -icount"
    assert kp.unit_words("us", 1000, True) == \
        "us = 1,000 instructions, QEMU -icount"
    assert kp.unit_words("ms", 10 ** 6, True) == \
        "ms = 1,000,000 instructions, QEMU -icount"
    assert kp.unit_words("ms", 10 ** 6, False) == "ms"
    assert kp.unit_words("cycles", 1, True) == "cycles, QEMU -icount"


@pytest.mark.parametrize("name", ["x.pdf", "x.JPG", "fig.eps"])
def test_output_extension_not_written_is_refused(name, tmp_path):
    """-o x.pdf used to write x.pdf.png and x.pdf.svg: one error line now."""
    res = run_cli("hist", FIXTURES[0], "-o", str(tmp_path / name))
    assert res.returncode == 2
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert re.search(r"writes \.png and \.svg only, not \.(pdf|jpg|eps)", lines[0]), lines[0]
    assert not glob.glob(str(tmp_path / "*"))


def test_output_name_with_a_dot_is_kept(tmp_path):
    """A name whose dot is not a format's (find_vma-6.12) gets both formats."""
    res = run_cli("hist", FIXTURES[0], "-o", str(tmp_path / "find_vma-6.12"))
    assert res.returncode == 0, res.stderr
    assert sorted(os.path.basename(p) for p in glob.glob(str(tmp_path / "*"))) == \
        ["find_vma-6.12.png", "find_vma-6.12.svg"]


# ---- callers: a CDF per call site of a node traced with "callers N" ----
# tests/cli/mkcallers: kt_site_a 10 x 20 us, kt_site_b 20 x 80 us,
# kt_site_c 30 x 320 us, kt_site_slow 1 x 5 ms; other: no call.
CALLERS = os.path.join(HERE, "fixtures", "callers", "ks_target_site-callers.json")


def test_callers_snapshot_loads():
    s = kp.load_snapshot(CALLERS)
    assert [(c["id"], c["count"]) for c in s.callers] == [
        ("0", 10), ("1", 20), ("2", 30), ("3", 1), ("other", 0)]
    assert s.callers[3]["site"] == "kt_site_slow+0x22/0x40 [kstats_target]"
    assert kp.kstats_snapshot.short_site(s.callers[3]) == \
        "kt_site_slow+0x22 [kstats_target]"
    assert kp.kstats_snapshot.short_site(s.callers[4]) == "(other)"
    assert kp.load_snapshot(FIXTURES[0]).callers == []


def test_callers_one_line_per_site():
    fig = kp.callers_figure([kp.load_snapshot(CALLERS)])
    lines = [a for a in fig.findobj(lambda a: re.fullmatch(
        r"caller\d+", str(a.get_gid())))]
    assert len(lines) == 4, "one CDF per site with calls, other left out"
    tails = fig.findobj(lambda a: re.fullmatch(r"caller\d+-tail",
                                               str(a.get_gid())))
    assert len(tails) == 4
    # most total time first: c (9.6 ms), slow (5 ms), b (1.6 ms), a
    labels = [by_gid(fig, "caller%d" % i).get_label() for i in range(4)]
    assert [lab.split("+")[0] for lab in labels] == [
        "kt_site_c", "kt_site_slow", "kt_site_b", "kt_site_a"]
    assert labels[0] == "kt_site_c+0x1c [kstats_target] · 30 calls · p50 321 us"
    for i in range(4):
        y = by_gid(fig, "caller%d" % i).get_ydata()
        assert y[0] == approx(0.0) and y[-1] == approx(1.0)
    # each site's CDF lies in its delay's slot: 20, 80, 320 us, 5 ms
    xs = [by_gid(fig, "caller%d" % i).get_xdata() for i in range(4)]
    for x, ns in zip(xs, (320000, 5003520, 80000, 20000)):
        assert x[0] <= ns / 1000 * 1.01 and x[-1] >= ns / 1000 * 0.99


def test_callers_figure_is_stable_and_cli(tmp_path):
    snaps = [kp.load_snapshot(CALLERS)]
    one = render(kp.callers_figure(snaps), "svg", tmp_path / "a.svg")
    two = render(kp.callers_figure(snaps), "svg", tmp_path / "b.svg")
    assert one == two
    res = run_cli("callers", CALLERS, "--format", "png", "-o",
                  str(tmp_path / "c"))
    assert res.returncode == 0, res.stderr
    assert open(str(tmp_path / "c.png"), "rb").read()[:8] == b"\x89PNG\r\n\x1a\n"


def test_callers_refused(tmp_path):
    res = run_cli("callers", FIXTURES[0], "-o", str(tmp_path / "x.png"))
    assert res.returncode == 2
    assert "keeps no call sites" in res.stderr
    res = run_cli("callers", CALLERS, CALLERS, "-o", str(tmp_path / "x.png"))
    assert res.returncode == 2 and "one capture, not 2" in res.stderr
    data = json.load(open(CALLERS))
    data["node"]["callers"]["sites"][1]["count"] = 21
    write_json(tmp_path / "bad.json", data)
    with pytest.raises(kp.SnapshotError, match=r"sites\[1\]: count 21"):
        kp.load_snapshot(str(tmp_path / "bad.json"))


# ---- --undisturbed: a snapshot its disturbed calls were left out of ----
# The callers fixture, traced "slowest 4" with 3 calls disturbed: two of
# kt_site_c's 320 us and the 5 ms one, kept apart as node.slowest.disturbed;
# tools/kstats save --undisturbed leaves them out (the CLI's percentiles).
KSTATS = os.path.join(HERE, "..", "..", "tools", "kstats")


def undisturbed_snapshot(tmp_path):
    data = json.load(open(CALLERS))
    total = {r["slot"]: r for r in data["node"]["total"]}
    slow = max(total)           # the 5 ms call's slot
    c = sorted(total)[-2]       # kt_site_c's
    dist = [dict(total[c], count=2), dict(total[slow], count=1)]
    data["node"]["slowest"] = {"k": 4, "switched": 0, "interrupted": 3,
                               "disturbed": dist, "calls": []}
    write_json(tmp_path / "dist.json", data)
    out = tmp_path / "undist.json"
    if not os.access(KSTATS, os.X_OK):
        pytest.skip("tools/kstats is not built (make tools)")
    res = subprocess.run([KSTATS, "save", "-f", str(tmp_path / "dist.json"),
                          "--undisturbed", "-o", str(out)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    return str(out), total[slow]


def test_undisturbed_snapshot_plots_without_them(tmp_path):
    path, slow = undisturbed_snapshot(tmp_path)
    s = kp.load_snapshot(path)
    assert s.undisturbed == 3 and s.node["samples"] == 58
    assert sum(r["count"] for r in s.total) == 58
    fig = kp.cdf_figure([s])
    text = " ".join(t.get_text() for t in fig.findobj(
        matplotlib.text.Text))
    assert "3 disturbed calls left out" in text
    # the 5 ms call is gone: the CDF ends in kt_site_c's slot
    xs = [x for line in fig.findobj(lambda a: str(a.get_gid()).startswith("cdf"))
          for x in line.get_xdata()]
    assert xs and max(xs) < slow["lo"] / 1000
    fig = kp.hist_figure([s])
    assert "3 disturbed calls left out" in " ".join(
        t.get_text() for t in fig.findobj(matplotlib.text.Text))


def test_undisturbed_snapshot_refused_by_cpu(tmp_path):
    path, _ = undisturbed_snapshot(tmp_path)
    res = run_cli("cpu", path, "-o", str(tmp_path / "x.png"))
    assert res.returncode == 2
    assert "no per-CPU rows (saved with --undisturbed" in res.stderr
    data = json.load(open(path))
    data["node"]["slowest"]["undisturbed"] = -1
    write_json(tmp_path / "bad.json", data)
    with pytest.raises(kp.SnapshotError, match="undisturbed must be"):
        kp.load_snapshot(str(tmp_path / "bad.json"))


def test_identical_labels_are_told_apart_by_file(tmp_path):
    """Two captures labelled alike get their file's name, or its path."""
    data = fixture_data()
    data["meta"]["label"] = "43 VMAs"
    (tmp_path / "tcg").mkdir()
    a = kp.load_snapshot(write_json(tmp_path / "run1.json", data))
    b = kp.load_snapshot(write_json(tmp_path / "run2.json", data))
    c = kp.load_snapshot(write_json(tmp_path / "tcg" / "run1.json", data))
    assert a.label == b.label
    assert kp._labels([a, b], None) == ["run1", "run2"]
    assert kp._labels([a, c], None) == [a.path, c.path]
    assert kp._labels([a, b], ["x", "y"]) == ["x", "y"]


def test_count_ticks_fit_the_margin():
    """A log count axis says 10M, not 10,000,000, which the margin clips."""
    assert [kp._fmt_count_tick(v) for v in (1, 10, 1000, 10000, 10 ** 5, 10 ** 7, 2 * 10 ** 9)] == \
        ["1", "10", "1,000", "10k", "100k", "10M", "2G"]
