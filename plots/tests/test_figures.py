# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The figures the documentation shows were drawn by the current plotting
code: each PNG carries "kstats_plot VERSION" in its Software text chunk
(kstats_plot.PLOT_VERSION, a hash of the plotting code), and a figure
drawn by other code fails here until `make figures` redraws it from the
snapshots kept beside it.

Run: /usr/bin/python3 -m pytest -q plots/tests
"""

import glob
import os
import struct
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "plots"))

import kstats_plot as kp  # noqa: E402

SHOWN = sorted(glob.glob(os.path.join(TOP, "docs", "figures", "*.png")) +
               glob.glob(os.path.join(TOP, "demo", "figures", "*.png")))
STAMP = "%s %s" % (kp.PROG, kp.PLOT_VERSION)


def png_text(path):
    """The tEXt chunks of the PNG @path, as a dict."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "%s is not a PNG" % path
    text, pos = {}, 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            text[key.decode("latin-1")] = value.decode("latin-1")
        pos += 12 + length
    return text


def rel(path):
    return os.path.relpath(path, TOP)


def test_figures_present():
    assert SHOWN, "no figures in docs/figures or demo/figures"


@pytest.mark.parametrize("path", SHOWN, ids=rel)
def test_figure_drawn_by_current_code(path):
    got = png_text(path).get("Software", "(no stamp)")
    assert got == STAMP, ("%s was drawn by %s, not by the current plotting "
                          "code (%s): run make figures" % (rel(path), got, STAMP))


@pytest.mark.parametrize("path", SHOWN, ids=rel)
def test_figure_shown_somewhere(path):
    """A figure in docs/ or demo/ is one a page shows (else it goes)."""
    name = os.path.basename(path)
    pages = glob.glob(os.path.join(TOP, "*.md")) + \
        glob.glob(os.path.join(TOP, "*", "*.md"))
    assert any(name in open(p).read() for p in pages), \
        "%s is shown by no page" % rel(path)


def test_new_figure_is_stamped(tmp_path):
    fixture = sorted(glob.glob(os.path.join(HERE, "fixtures", "*.json")))[1]
    fig = kp.cdf_figure([kp.load_snapshot(fixture)])
    png = kp.save_figure(fig, str(tmp_path / "f.png"))
    assert png_text(png)["Software"] == STAMP
    svg = kp.save_figure(fig, str(tmp_path / "f.svg"))
    assert STAMP in open(svg).read()


def test_version_follows_the_code(tmp_path):
    """The version is a hash of the plotting code: another byte, another one."""
    src = open(os.path.join(TOP, "plots", "kstats_plot.py"), "rb").read()
    snap = os.path.join(TOP, "plots", "kstats_snapshot.py")
    copy = tmp_path / "kstats_plot.py"
    copy.write_bytes(src + b"\n# changed\n")
    (tmp_path / "kstats_snapshot.py").write_bytes(open(snap, "rb").read())
    import subprocess
    out = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, %r); "
         "import kstats_plot; print(kstats_plot.PLOT_VERSION)" % str(tmp_path)],
        capture_output=True, text=True, check=True).stdout.strip()
    assert len(out) == 12 and out != kp.PLOT_VERSION
