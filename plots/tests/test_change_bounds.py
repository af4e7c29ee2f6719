# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The 95% bounds of a percentile's change in Python (kstats_snapshot:
rank_interval(), pct_interval(), pct_change()) are those `kstats compare
A -- B` prints (tools/lib/ks_stats.c), and the digits a figure gives a
change are those the histogram carries.

fixtures/demo-7.3/ holds the find_vma snapshots of `make demo` on Debian's
7.3.4 kernel: 43 and 4107 VMAs, plain TCG (-tcg) and under QEMU -icount.

Run: /usr/bin/python3 -m pytest -q plots/tests
"""

import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
REPO = os.path.dirname(PLOTS)
sys.path.insert(0, PLOTS)

import kstats_snapshot as ks  # noqa: E402

KSTATS = os.path.join(REPO, "tools", "kstats")
DEMO = os.path.join(HERE, "fixtures", "demo-7.3")


def demo(name):
    return ks.load_snapshot(os.path.join(DEMO, name + ".json"))


# `tools/kstats compare find_vma-m16-tcg.json -- find_vma-m2048-tcg.json`:
# the change and 95% bounds columns, and the verdict.
TCG_ROWS = {
    "p10": ("+11.3%", "[+0.3,+19.7]", "worse?"),
    "p50": ("+11.3%", "[+0.3,+19.7]", "worse?"),
    "p90": ("+132.1%", "[+114,+185]", "worse?"),
    "p95": ("+122.9%", "[+83.6,+166]", "worse?"),
    "p98": ("+73.6%", "[+45.6,+125]", "worse?"),
    "p99": ("+47.1%", "[+28.6,+69.2]", "worse?"),
    "p99.9": ("+112.8%", "[-11.1,+2033]", "not measurable"),
}


def compare_words(c):
    """@c (a PctChange) as compare's change, bounds and verdict columns,
    one run a side ("worse?", not "worse")."""
    return ("%+.1f%%" % c.change, ks.fmt_bounds(c.lo, c.hi),
            c.verdict + ("?" if c.measurable else ""))


@pytest.mark.parametrize("name", ks.PCT_NAMES)
def test_demo_tcg_bounds_are_compares(name):
    c = ks.pct_change(demo("find_vma-m16-tcg"), demo("find_vma-m2048-tcg"),
                      name)
    assert compare_words(c) == TCG_ROWS[name]


def test_demo_tcg_p50_and_p999_numbers():
    a, b = demo("find_vma-m16-tcg"), demo("find_vma-m2048-tcg")
    # 20,001 calls a side: ranks 9,861..10,141 of p50 lie in one slot
    assert ks.rank_interval(20001, 500) == (9861, 10141)
    assert ks.pct_interval(a, "p50") == (320.0, 351.0)
    assert ks.pct_interval(b, "p50") == (352.0, 383.0)
    c = ks.pct_change(a, b, "p50")
    assert (c.lo, c.hi) == (pytest.approx(100 * (352 / 351 - 1)),
                            pytest.approx(100 * (383 / 320 - 1)))
    assert c.measurable and c.sub_resolution     # 11.3% < 12.5%
    assert ks.pct_interval(a, "p99.9") == (2304.0, 4607.0)
    assert ks.pct_interval(b, "p99.9") == (4096.0, 49151.0)
    c = ks.pct_change(a, b, "p99.9")
    assert c.lo == pytest.approx(100 * (4096 / 4607 - 1))
    assert c.hi == pytest.approx(100 * (49151 / 2304 - 1))
    assert not c.measurable and not c.sub_resolution


def test_demo_icount_bounds_are_compares():
    """Under -icount every percentile of a side is in one slot."""
    a, b = demo("find_vma-m16"), demo("find_vma-m2048")
    for name in ks.PCT_NAMES:
        assert compare_words(ks.pct_change(a, b, name)) == \
            ("+44.0%", "[+36.8,+59.7]", "worse?")


def test_no_change_is_not_measurable():
    a = demo("find_vma-m16-tcg")
    for name in ks.PCT_NAMES:
        c = ks.pct_change(a, a, name)
        assert c.change == 0 and c.lo <= 0 <= c.hi
        assert c.verdict == "not measurable" and c.sub_resolution


def test_unbounded_sides():
    """100 calls have no upper bound for p99.9: the change's bounds are
    -100 below and +inf above, as compare prints them."""
    a = demo("find_vma-m16-tcg")
    rows = [dict(r, count=50) for r in a.total[:2]]
    few = ks.Snapshot(a.path, a.data, dict(a.node, total=rows))
    assert ks.rank_interval(100, 999)[1] == 101
    assert ks.pct_interval(few, "p99.9") == (float(rows[1]["lo"]), math.inf)
    c = ks.pct_change(few, few, "p99.9")
    assert c.lo == -100 and math.isinf(c.hi) and not c.measurable
    assert ks.fmt_bounds(c.lo, c.hi) == "[-100,+inf]"


RANK_MAIN = r"""
#include <stdio.h>
#include "ks_stats.h"
int main(void)
{
	static const unsigned int milli[] = { 100, 500, 900, 950, 980, 990, 999 };
	unsigned long long n, l, u;
	unsigned int i;

	for (n = 1; n <= 1300; n += (n < 60 ? 1 : 37))
		for (i = 0; i < 7; i++) {
			ks_rank_interval(n, milli[i], &l, &u);
			printf("%llu %u %llu %llu\n", n, milli[i], l, u);
		}
	return 0;
}
"""


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler")
def test_rank_interval_is_the_c_one(tmp_path):
    """rank_interval() gives ks_rank_interval()'s ranks, exact binomial
    (n <= 1000) and normal approximation alike."""
    src = tmp_path / "rank.c"
    src.write_text(RANK_MAIN)
    exe = str(tmp_path / "rank")
    subprocess.run(["cc", "-O2", "-I", os.path.join(REPO, "include"),
                    "-I", os.path.join(REPO, "tools", "lib"), "-o", exe,
                    str(src), os.path.join(REPO, "tools", "lib", "ks_stats.c"),
                    "-lm"], check=True)
    lines = subprocess.run([exe], capture_output=True, text=True,
                           check=True).stdout.split("\n")
    rows = [tuple(int(x) for x in line.split()) for line in lines if line]
    assert len(rows) > 400
    for n, milli, l, u in rows:
        assert ks.rank_interval(n, milli) == (l, u), (n, milli)


def pairs():
    """Snapshot pairs of one function and one kind of time: the demo's,
    the figures' and the test fixtures' recorded in a VM (compare refuses
    the synthetic ones, whose per-CPU rows are out of order)."""
    fx = os.path.join(HERE, "fixtures")
    out = [(os.path.join(DEMO, a), os.path.join(DEMO, b)) for a, b in (
        ("find_vma-m16-tcg.json", "find_vma-m2048-tcg.json"),
        ("find_vma-m16.json", "find_vma-m2048.json"),
        ("find_vma-m2048-tcg.json", "find_vma-m16-tcg.json"))]
    data = os.path.join(REPO, "demo", "figures", "data")
    out += [(os.path.join(data, a), os.path.join(data, b)) for a, b in (
        ("find_vma-m16-tcg.json", "find_vma-m2048-tcg.json"),
        ("find_vma-m16.json", "find_vma-m2048.json"))]
    out += [tuple(sorted(glob.glob(os.path.join(REPO, "docs", "figures",
                                                "data", "*.json"))))]
    out += [(os.path.join(fx, a), os.path.join(fx, b)) for a, b in (
        ("vm-6.1-find_vma-m16.json", "vm-6.1-find_vma-m2048.json"),
        ("vm-6.12-find_vma-m16.json", "vm-6.12-find_vma-m2048.json"),
        ("vm-6.1-find_vma-m16.json", "vm-6.12-find_vma-m16.json"),
        ("vm-6.12-find_vma-m2048.json", "vm-6.1-find_vma-m2048.json"))]
    return out


def pair_id(pair):
    return "%s--%s" % tuple(os.path.relpath(p, REPO) for p in pair)


def run_compare(*args):
    return subprocess.run([KSTATS, "compare"] + list(args),
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, LC_ALL="C")).stdout


def compare_bounds(a, b):
    """{figure: its "95% bounds" cell} of `kstats compare A -- B`."""
    rows = {}
    for line in run_compare(a, "--", b).split("\n"):
        cells = line.split()
        if cells and cells[0] in ks.PCT_NAMES:
            rows[cells[0]] = [c for c in cells if re.match(r"^\[.*\]$", c)]
    return rows


def g6(x):
    """@x as compare --json prints a figure ("%.6g", null when infinite)."""
    return None if math.isinf(x) else float("%.6g" % x)


@pytest.mark.skipif(not os.access(KSTATS, os.X_OK),
                    reason="tools/kstats not built (make tools)")
@pytest.mark.parametrize("pair", pairs(), ids=pair_id)
def test_bounds_are_compares(pair):
    """Every percentile's intervals, change, bounds and verdict are those
    of `kstats compare A -- B`: its "95% bounds" column, and the figures
    of its --json to their six digits."""
    a, b = (ks.load_snapshot(p) for p in pair)
    cells = compare_bounds(*pair)
    assert sorted(cells) == sorted(ks.PCT_NAMES)
    rows = {r["figure"]: r for r in
            json.loads(run_compare("--json", pair[0], "--", pair[1]))
            ["functions"][0]["rows"]}
    for name in ks.PCT_NAMES:
        c, row = ks.pct_change(a, b, name), rows[name]
        assert cells[name] == [ks.fmt_bounds(c.lo, c.hi)], name
        assert [g6(x) for x in ks.pct_interval(a, name)] == row["base_ci"]
        assert [g6(x) for x in ks.pct_interval(b, name)] == row["new_ci"]
        assert (c.base, c.new) == (row["base"], row["new"])
        assert g6(c.change) == row["change_pct"]
        assert [g6(c.lo), g6(c.hi)] == row["change_ci"], name
        assert row["verdict"] == c.verdict + ("?" if c.measurable else "")


@pytest.mark.parametrize("x,precision,text", [
    (1176.8, 12.5, "+1,180%"), (-13.2, 12.5, "-13%"), (11.3, 12.5, "+11%"),
    (206.7, 12.5, "+207%"), (0.3, 12.5, "0%"), (-0.4, 12.5, "0%"),
    (-100, 12.5, "-100%"), (99999, 12.5, "+100,000%"), (12345, 3.125, "+12,300%"),
    (3.44, 0.78125, "+3.4%"), (0.047, 0.78125, "0%"), (2.345, 0.0977, "+2.35%"),
])
def test_change_digits(x, precision, text):
    """A change has the digits values known to the slot precision carry."""
    assert ks.fmt_change(x, precision) == text


@pytest.mark.parametrize("x,text", [
    (0.3, "+0.3"), (-11.1, "-11.1"), (99.94, "+99.9"), (99.96, "+100"),
    (2033.4, "+2033"), (-100, "-100"), (math.inf, "+inf"),
])
def test_bound_digits_are_compares(x, text):
    assert ks.fmt_bound(x) == text


def test_bound_words_match_compare_source():
    """fmt_bound() prints as ks_bound() of tools/lib/ks_cmp.c."""
    src = open(os.path.join(REPO, "tools", "lib", "ks_cmp.c")).read()
    body = re.search(r"static char \*ks_bound\(.*?\n}\n", src, re.S).group(0)
    assert 'fabs(x) < 99.95 ? "%+.1f" : "%+.0f"' in body
