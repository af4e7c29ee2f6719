#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The manual pages against --help, and the README's shape.

    tests/cli/docs.py [KSTATS]      (default tools/kstats; run by run.sh)

kstats(1) against tools/kstats: the commands of `kstats --help` are those
of the man page's SYNOPSIS and COMMANDS, and for every command each
option of `kstats CMD --help` is in the man page (its synopsis, its
entry under COMMANDS, TRACE OPTIONS for trace and run, DOCTOR, PROMETHEUS
for export, or DESCRIPTION) and each option of its synopsis and entry
(and TRACE OPTIONS for trace and run) is in its --help.  Literal values
written as alternatives (`--gap yes|no`) count too: each must be in the
other text.  An option named after another command (`compare
--undisturbed`, `kstats trace NAME --callers N`, `traced with --slowest
K`) is that command's, and must be in that command's --help.
kstats-plot(1) against plots/kstats_plot.py the same way, per kind of
figure.  `-h` and `--help`, which every command takes, are left aside.

README.md: at most 250 lines, none over 80 columns outside fenced code
blocks; its relative links, and those of docs/*.md and plots/README.md,
name files that exist and headings that exist in them.

TAP lines through tests/tap.py; exit status 1 on a failure.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "tests"))
from tap import Tap  # noqa: E402

README_LINES = 250
README_COLUMNS = 80

# an option: --long, or -x alone (-icount is QEMU's, not ours)
OPT = re.compile(r"(?<![\w/.-])(--[a-z][a-z0-9-]*|-[a-zA-Z](?![\w-]))")
# literal alternatives after an option: --gap yes|no, --buckets schema2|log2
ALT = re.compile(r"(?<![\w/.-])(--[a-z][a-z0-9-]*)[ =]\[?"
                 r"([a-z][a-z0-9]*(?:\|[a-z][a-z0-9]*)+)\b")
# words that, right before an option, name the command it belongs to
XREF = re.compile(r"(?:\bkstats[ -]([a-z]+)(?: +[A-Z][A-Z.]*)?|"
                  r"\b(traced with|traced without|saved with)|\b([a-z]+)) *\(?$")
PHRASE = {"traced with": "trace", "traced without": "trace", "saved with": "save"}
ASIDE = {"-h", "--help"}


def run(argv):
    """stdout and stderr of argv, as one text."""
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=dict(os.environ, LC_ALL="C",
                                                         COLUMNS="80"))
    return p.stdout


# ---- roff, as far as these two pages write it ----

ESCAPES = [(r"\(dq", '"'), (r"\(lq", '"'), (r"\(rq", '"'), (r"\(ti", "~"),
           (r"\(+-", "+-"), (r"\e", "\\"), (r"\&", ""), (r"\ ", " "),
           (r"\-", "-")]


def unescape(s):
    for a, b in ESCAPES:
        s = s.replace(a, b)
    s = re.sub(r"\\f[BIRP]", "", s)
    return re.sub(r"\\\(..", "", s)


def roff_args(s):
    """The arguments of a macro line, as roff splits them."""
    return [m.group(1).replace('""', '"') if m.group(1) is not None else m.group(2)
            for m in re.finditer(r'"((?:[^"]|"")*)"?|(\S+)', s)]


def roff_line(line):
    """(request, text): a macro line's name and its text as printed."""
    if not line.startswith("."):
        return None, unescape(line)
    name, _, rest = line[1:].partition(" ")
    if name in ("B", "I", "SM", "SH", "SS", "TH"):
        return name, unescape(" ".join(roff_args(rest)))
    if name in ("BR", "RB", "BI", "IB", "IR", "RI"):
        return name, unescape("".join(roff_args(rest)))
    return name, ""


class Man:
    """A man page as sections of blocks: each block a list of lines of
    text; .TP, .br, .PP, .IP and .SH start a new block."""

    def __init__(self, path):
        self.sections = {}
        sec, block = None, None
        with open(path) as fh:
            for raw in fh:
                raw = raw.rstrip("\n")
                if raw.startswith('.\\"'):
                    continue
                req, text = roff_line(raw)
                if req == "SH":
                    sec = text
                    block = []
                    self.sections[sec] = [block]
                    continue
                if sec is None:
                    continue
                if req in ("TP", "br", "PP", "IP"):
                    block = []
                    self.sections[sec].append(block)
                    if req == "TP":
                        block.append("\0TP")
                    continue
                if text:
                    block.append(text)

    def text(self, sec):
        return "\n".join(l for b in self.sections.get(sec, []) for l in b)

    def entries(self, sec):
        """{name: text} of a section's .TP entries, named by the first
        word(s) of their tag (`remove, start, stop, reset`: four), an entry
        running to the next .TP."""
        out, cur = {}, None
        for b in self.sections.get(sec, []):
            if b and b[0] == "\0TP":
                tag = b[1] if len(b) > 1 else ""
                names = tag.split(", ") if ", " in tag else tag.split(" ")[:1]
                cur = [w for w in names if re.fullmatch(r"[a-z]+", w)]
                for w in cur:
                    out[w] = "\n".join(b[1:])
                continue
            for w in cur or []:
                out[w] += "\n" + "\n".join(b)
        return out


def options(text, cmd, cmds):
    """(own, xref): the options text names as its command's, and
    {(command, option)} for those it names as another command's."""
    own, xref = set(), set()
    flat = re.sub(r"\s+", " ", text)
    for m in OPT.finditer(flat):
        o = m.group(1)
        if o in ASIDE:
            continue
        before = flat[max(0, m.start() - 40):m.start()]
        x = XREF.search(before)
        who = None
        if x:
            if x.group(1):
                who = x.group(1)
            elif x.group(2):
                who = PHRASE[x.group(2)]
            elif x.group(3) in cmds and x.group(3) != cmd:
                who = x.group(3)
        if who and who != cmd:
            xref.add((who, o))
        else:
            own.add(o)
    return own, xref


def alternatives(text):
    """{(option, value)} of the literal alternatives text writes."""
    flat = re.sub(r"\s+", " ", text)
    return {(m.group(1), v) for m in ALT.finditer(flat) for v in m.group(2).split("|")}


def words(text):
    return set(re.findall(r"[a-z][a-z0-9]*", text))


def compare_sides(tap, what, help_text, man_all, man_own, cmd, cmds, helps, xrefs):
    """Two checks: help's options in the man page, the man page's in help."""
    h_own, h_x = options(help_text, cmd, cmds)
    m_all, _ = options(man_all, cmd, cmds)
    m_own, m_x = options(man_own, cmd, cmds)
    m_words, h_words = words(man_all), words(help_text)
    missing = sorted(h_own - m_all)
    missing += ["%s %s" % a for a in sorted(alternatives(help_text)) if a[1] not in m_words]
    tap.check("%s: every option of --help in the man page" % what, not missing,
              "not in the man page: " + " ".join(missing))
    extra = sorted(m_own - h_own)
    extra += ["%s %s" % a for a in sorted(alternatives(man_own)) if a[1] not in h_words]
    tap.check("%s: every option of the man page in --help" % what, not extra,
              "not in --help: " + " ".join(extra))
    xrefs.extend(("%s --help" % what, c, o) for c, o in h_x)
    xrefs.extend(("%s in the man page" % what, c, o) for c, o in m_x)


def check_kstats(tap, kstats, xrefs, helps):
    man = Man(os.path.join(TOP, "tools/cli/kstats.1"))
    top = run([kstats, "--help"])
    cmds = []
    for line in top.splitlines():
        m = re.match(r"  ([a-z|]+)\b", line)
        if m:
            cmds += [c for c in m.group(1).split("|") if c not in cmds]
    syn = {}
    for b in man.sections.get("SYNOPSIS", []):
        t = " ".join(b)
        m = re.match(r"kstats ([a-z|]+)", t)
        if m:
            for c in m.group(1).split("|"):
                syn[c] = syn.get(c, "") + "\n" + t
    entries = man.entries("COMMANDS")
    gone = [c for c in cmds if c not in syn or c not in entries]
    more = sorted((set(syn) | set(entries)) - set(cmds))
    tap.check("kstats(1): a synopsis and an entry for every command of kstats "
              "--help, and no other", cmds and not gone and not more,
              "commands: %s; without both in the man page: %s; not in --help: %s"
              % (" ".join(cmds), " ".join(gone), " ".join(more)))
    for c in cmds:
        helps[("kstats", c)] = run([kstats, c, "--help"])
    sect = {"trace": ["TRACE OPTIONS"], "run": ["TRACE OPTIONS"],
            "doctor": ["DOCTOR"], "export": ["PROMETHEUS"]}
    for c in cmds:
        own = syn.get(c, "") + "\n" + entries.get(c, "")
        if c in ("trace", "run"):
            own += "\n" + man.text("TRACE OPTIONS")
        every = own + "\n" + "\n".join(man.text(s) for s in sect.get(c, []))
        every += "\n" + man.text("DESCRIPTION")
        compare_sides(tap, "kstats " + c, helps[("kstats", c)], every, own, c, cmds,
                      helps, xrefs)
    for line in man.text("EXAMPLES").splitlines():
        m = re.search(r"\bkstats ([a-z]+)(.*)", line)
        if m:
            xrefs.extend(("kstats(1) EXAMPLES", m.group(1), o)
                         for o in OPT.findall(m.group(2)) if o not in ASIDE)
    return cmds


def check_plot(tap, python, xrefs, helps, kcmds):
    plot = os.path.join(TOP, "plots/kstats_plot.py")
    top = run([python, plot, "--help"])
    kinds = []
    m = re.search(r"^kinds of figure:\n(.*?)\n\n", top, re.M | re.S)
    for line in (m.group(1) if m else "").splitlines():
        k = re.match(r"    ([a-z]+)\s", line)
        if k:
            kinds.append(k.group(1))
    if not kinds:
        tap.check("kstats_plot.py --help lists its kinds", False, top)
        return
    man = Man(os.path.join(TOP, "plots/kstats-plot.1"))
    syn = man.text("SYNOPSIS")
    m = re.search(r"kstats-plot\s+([a-z|]+)", syn)
    mkinds = m.group(1).split("|") if m else []
    entries = man.entries("DESCRIPTION")
    tap.check("kstats-plot(1): the kinds of kstats_plot.py --help, in the "
              "synopsis and described", mkinds == kinds and set(entries) == set(kinds),
              "--help: %s; synopsis: %s; described: %s"
              % (" ".join(kinds), " ".join(mkinds), " ".join(sorted(entries))))
    page = "\n".join(man.text(s) for s in man.sections)
    own = syn + "\n" + man.text("OPTIONS")
    for k in kinds:
        helps[("plot", k)] = run([python, plot, k, "--help"])
        compare_sides(tap, "kstats_plot.py " + k, helps[("plot", k)], page, own, k,
                      kinds + kcmds, helps, xrefs)


def check_xrefs(tap, xrefs, helps):
    bad = sorted({"%s: %s %s" % x for x in xrefs
                  if ("kstats", x[1]) in helps
                  and x[2] not in options(helps[("kstats", x[1])], x[1], [])[0]})
    unknown = sorted({"%s: %s" % (x[0], x[1]) for x in xrefs if ("kstats", x[1]) not in helps})
    tap.check("an option named with another command is in that command's --help",
              not bad and not unknown, "\n".join(bad + ["no such command: " + u for u in unknown]))


# ---- Markdown ----

def fenced(lines):
    """Each line with whether it is inside (or is) a fence."""
    inside = False
    for line in lines:
        if re.match(r"\s*(```|~~~)", line):
            yield line, True
            inside = not inside
            continue
        yield line, inside


def anchor(heading):
    """A heading's anchor as GitHub makes it."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def anchors(path):
    out, seen = set(), {}
    with open(path) as fh:
        for line, code in fenced(fh.read().splitlines()):
            m = None if code else re.match(r"#{1,6} +(.*?) *#*$", line)
            if m:
                a = anchor(re.sub(r"`", "", m.group(1)))
                n = seen.get(a, 0)
                seen[a] = n + 1
                out.add(a if n == 0 else "%s-%d" % (a, n))
    return out


def check_readme(tap):
    path = os.path.join(TOP, "README.md")
    with open(path) as fh:
        lines = fh.read().splitlines()
    tap.check("README.md: at most %d lines (%d)" % (README_LINES, len(lines)),
              len(lines) <= README_LINES)
    wide = ["%d: %d columns" % (i + 1, len(l))
            for i, (l, code) in enumerate(fenced(lines))
            if not code and len(l) > README_COLUMNS]
    tap.check("README.md: no line over %d columns outside code blocks" % README_COLUMNS,
              not wide, "\n".join(wide))


def check_links(tap):
    pages = [os.path.join(TOP, "README.md"), os.path.join(TOP, "plots/README.md")]
    docs = os.path.join(TOP, "docs")
    pages += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    bad = []
    for page in pages:
        with open(page) as fh:
            text = "\n".join(l for l, code in fenced(fh.read().splitlines()) if not code)
        text = re.sub(r"`[^`]*`", "", text)
        links = re.findall(r"\]\(([^)\s]+)\)", text)
        links += re.findall(r"^ {0,3}\[[^\]]+\]: *(\S+)", text, re.M)
        for target in links:
            if re.match(r"[a-z]+:", target):
                continue
            file, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), file)) if file else page
            where = os.path.relpath(page, TOP)
            if not os.path.exists(dest):
                bad.append("%s: %s: no such file" % (where, target))
            elif frag and dest.endswith(".md") and frag not in anchors(dest):
                bad.append("%s: %s: no such heading" % (where, target))
    tap.check("README.md, docs/*.md, plots/README.md: every relative link "
              "names a file and heading that exist", not bad, "\n".join(bad))


def main():
    kstats = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "tools/kstats")
    tap = Tap("docs")
    xrefs, helps = [], {}
    kcmds = check_kstats(tap, kstats, xrefs, helps)
    python = "/usr/bin/python3"
    if os.access(python, os.X_OK):
        check_plot(tap, python, xrefs, helps, kcmds)
    else:
        tap.check("kstats_plot.py # SKIP no /usr/bin/python3", True)
    check_xrefs(tap, xrefs, helps)
    check_readme(tap)
    check_links(tap)
    return tap.end()


if __name__ == "__main__":
    sys.exit(main())
