# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Tests of plots/kstats_snapshot.py: units as the C tool prints them,
clamped calls and filters kept from the node to the figure's caption."""

import json
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
REPO = os.path.dirname(PLOTS)
sys.path.insert(0, PLOTS)

import kstats_snapshot as ks  # noqa: E402
import kstats_plot as kp  # noqa: E402

KSTATS = os.path.join(REPO, "tools", "kstats")
CLI_FIXTURES = os.path.join(REPO, "tests", "cli", "fixtures")


@pytest.mark.parametrize("v,text", [
    (0, "0 ns"), (999, "999 ns"), (1000, "1.00 us"), (9994, "9.99 us"),
    (9995, "10.0 us"), (99949, "99.9 us"), (99950, "100 us"),
    (999999, "1000 us"), (1000000, "1.00 ms"), (2 * 10**9, "2.00 s"),
])
def test_fmt_duration_cutoffs(v, text):
    assert ks.fmt_duration(v) == text


def test_cycles_stay_cycles():
    assert ks.fmt_duration(12345678, "cycles") == "12345678 cycles"


def _cli(*args):
    return subprocess.run([KSTATS] + list(args), capture_output=True,
                          text=True, check=True,
                          env=dict(os.environ, SOURCE_DATE_EPOCH="1790000000",
                                   LC_ALL="C")).stdout


def _snapshot(tmp_path, text_file, edit=None):
    text = open(text_file).read()
    if edit:
        text = edit(text)
    src = tmp_path / "node.txt"
    src.write_text(text)
    out = tmp_path / "node.json"
    _cli("save", "-f", str(src), "-o", str(out), "--label", "x")
    return out


@pytest.mark.skipif(not os.access(KSTATS, os.X_OK),
                    reason="tools/kstats not built")
@pytest.mark.parametrize("fixture", sorted(
    f for f in os.listdir(CLI_FIXTURES) if f.endswith(".txt")))
def test_units_agree_with_the_cli(tmp_path, fixture):
    """`kstats show` and fmt_duration() print the percentiles alike."""
    snap = _snapshot(tmp_path, os.path.join(CLI_FIXTURES, fixture))
    s = ks.load_snapshot(str(snap), allow_empty=True)
    lines = _cli("show", "-f", str(snap), "--no-hist").split("\n")
    k = next(i for i, line in enumerate(lines)
             if line.split() == list(ks.PCT_NAMES))
    cells = re.split(r"\s{2,}", lines[k + 1].strip())
    want = [ks.fmt_duration(s.percentiles[p], s.unit) if s.node["samples"]
            else "-" for p in ks.PCT_NAMES]
    assert cells == want


@pytest.mark.skipif(not os.access(KSTATS, os.X_OK),
                    reason="tools/kstats not built")
def test_clamped_and_filters_reach_the_caption(tmp_path):
    def edit(text):
        text = text.replace(" state=active",
                            " state=active pid=4242 comm=ksworker", 1)
        return text.replace("# percentiles",
                            "# clamped 3: recorded as 0\n# percentiles", 1)
    snap = _snapshot(tmp_path,
                     os.path.join(CLI_FIXTURES, "hand-bits3.txt"), edit)
    data = json.loads(snap.read_text())
    assert data["schema"] == ks.SCHEMA
    s = ks.load_snapshot(str(snap))
    assert s.clamped == 3
    assert s.filters == {"pid": 4242, "comm": "ksworker"}
    line = kp.caption_line(s, s.label, "ns", 1, False)
    assert "3 clamped to 0" in line and "pid 4242" in line and \
        "comm ksworker" in line


def test_version_1_reads_with_nothing_clamped(tmp_path):
    fixture = os.path.join(HERE, "fixtures")
    path = sorted(os.path.join(fixture, f) for f in os.listdir(fixture)
                  if f.endswith(".json"))[0]
    data = json.load(open(path))
    data["schema"] = "kstats-snapshot/1"
    for k in ("clamped", "filters", "maxactive"):
        data["node"].pop(k, None)
    p = tmp_path / "v1.json"
    p.write_text(json.dumps(data))
    s = ks.load_snapshot(str(p))
    assert s.clamped == 0 and s.filters == {}


def test_command_line_prints_one_figure():
    f = os.path.join(HERE, "fixtures", "vm-6.1-find_vma-m16.json")
    node = ks.load_snapshot(f).node

    def run(*args):
        return subprocess.run([sys.executable, os.path.join(PLOTS, "kstats_snapshot.py")]
                              + list(args), capture_output=True, text=True)
    r = run(f, "samples")
    assert (r.returncode, r.stdout) == (0, "%d\n" % node["samples"])
    r = run(f, "p50")
    assert (r.returncode, r.stdout) == (0, "%d\n" % node["percentiles"]["p50"])
    r = run(f, "nosuch")
    assert r.returncode == 1 and "no figure nosuch" in r.stderr
    r = run(os.path.join(HERE, "fixtures", "missing.json"), "samples")
    assert r.returncode == 1 and "cannot read snapshot" in r.stderr


def _many(tmp_path):
    """A kstats-snapshot/3 file of two fixtures' nodes (find_vma and
    vm_normal_page), as kstats save GLOB|all writes them."""
    fx = os.path.join(HERE, "fixtures")
    a = json.load(open(os.path.join(fx, "vm-6.12-find_vma-m16.json")))
    b = json.load(open(os.path.join(fx, "vm-6.12-vm_normal_page-fork.json")))
    p = tmp_path / "many.json"
    p.write_text(json.dumps({"schema": "kstats-snapshot/3", "meta": a["meta"],
                             "nodes": [a["node"], b["node"]]}))
    return str(p), a["node"], b["node"]


def test_several_nodes_picked_by_name(tmp_path):
    path, a, b = _many(tmp_path)
    assert ks.is_many(path)
    assert ks.node_names(path) == ["find_vma", "vm_normal_page"]
    s = ks.load_snapshot(path, node="vm_normal_page")
    assert (s.name, s.node["samples"]) == ("vm_normal_page", b["samples"])
    assert [x.name for x in ks.load_nodes(path)] == ["find_vma", "vm_normal_page"]
    with pytest.raises(ks.SnapshotError, match="2 nodes in one file: pick one by name"):
        ks.load_snapshot(path)
    with pytest.raises(ks.SnapshotError, match="no node nosuch among its 2"):
        ks.load_snapshot(path, node="nosuch")
    # a file of one node: its own name, or none
    one = os.path.join(HERE, "fixtures", "vm-6.12-find_vma-m16.json")
    assert ks.load_snapshot(one, node="find_vma").name == "find_vma"
    with pytest.raises(ks.SnapshotError, match="no node vm_normal_page"):
        ks.load_snapshot(one, node="vm_normal_page")
    # one node of a /3 file written as a /2 file reads back the same
    single = tmp_path / "single.json"
    single.write_text(json.dumps(ks.single_document(s)))
    assert ks.load_snapshot(str(single)).node == s.node
    r = subprocess.run([sys.executable, os.path.join(PLOTS, "kstats_snapshot.py"),
                        path, "samples", "find_vma"], capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "%d\n" % a["samples"])


def test_plot_picks_nodes_of_a_many_node_file(tmp_path):
    path, a, b = _many(tmp_path)
    snaps = kp.load_captures([path], ["find_vma", "vm_normal_page"])
    assert [s.name for s in snaps] == ["find_vma", "vm_normal_page"]
    assert snaps[0].label.endswith(" find_vma")
    out = str(tmp_path / "pct")
    assert kp.main(["pct", path, "--node", "vm_normal_page", "-o", out + ".png"]) == 0
    assert os.path.getsize(out + ".png") > 1000
    assert kp.main(["pct", path, "-o", out + ".png"]) == 2


def test_icount_words_are_the_clis():
    """Figures and reports say of -icount what the CLI says, word for word."""
    with open(os.path.join(REPO, "tools", "lib", "ks_view.h")) as f:
        m = re.search(r'#define KS_ICOUNT_NOTE "((?:[^"\\]|\\.)*)"', f.read())
    assert m, "no KS_ICOUNT_NOTE in tools/lib/ks_view.h"
    assert m.group(1).replace('\\"', '"') == ks.ICOUNT_NOTE


def test_without_matplotlib_help_works_and_a_figure_is_one_line(tmp_path):
    """A machine without python3-matplotlib: --help, then one line, exit 2."""
    (tmp_path / "matplotlib.py").write_text(
        'raise ImportError("No module named \'matplotlib\'")\n')
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    f = os.path.join(HERE, "fixtures", "vm-6.1-find_vma-m16.json")

    def run(*args):
        return subprocess.run([sys.executable, os.path.join(PLOTS, "kstats_plot.py")]
                              + list(args), capture_output=True, text=True, env=env)
    r = run("--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: ") and r.stderr == ""
    r = run("hist", "--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: kstats_plot.py hist")
    assert r.stderr == ""
    r = run("cdf", f, "-o", str(tmp_path / "x"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("kstats_plot: error: No module named 'matplotlib' "
                        "(apt-get install python3-matplotlib)\n")


@pytest.mark.parametrize("scale", [("ns", 1), ("us", 1000), ("ms", 1000000)])
def test_icount_unit_words_are_the_clis(tmp_path, scale):
    """compare's heading names an -icount unit as the figures' axes do."""
    kstats = os.path.join(REPO, "tools", "kstats")
    if not os.access(kstats, os.X_OK):
        pytest.skip("tools/kstats not built (make tools)")
    f = os.path.join(HERE, "fixtures", "vm-6.1-find_vma-m16.json")
    data = json.loads(open(f).read())
    data["meta"]["timing"] = "qemu-icount"
    node = data["node"]
    for k in node["percentiles"]:		# p50 picks compare's display unit
        node["percentiles"][k] = node["percentiles"][k] * scale[1]
    paths = []
    for i in range(2):
        p = tmp_path / ("s%d.json" % i)
        p.write_text(json.dumps(data))
        paths.append(str(p))
    r = subprocess.run([kstats, "compare"] + paths, capture_output=True, text=True)
    words = ks.unit_words(scale[0], scale[1], True)
    assert r.returncode == 0 and ("latency in %s;" % words) in r.stdout.replace("\n# ", " ")
