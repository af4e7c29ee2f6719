#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The module's layers, read from its built objects: which file calls which.

    tests/layers.py [OBJDIR] [--write]

OBJDIR holds kmod/'s objects (and ../common/ beside it those of the
command grammar, common/ks_cmd.c, named common/ks_cmd here) (default: every vm/out/KVER/src/kmod that
make vm-stage built, each checked for cycles; the table is compared with
the one of most files: a kernel with every backend).  A file calls another when its object uses a
symbol the other's defines (nm).  The trampolines (ks_tramp*.S), the
direct backend's C side (ks_direct.c) and its calls on tasks' stacks
(ks_direct_stack.c: its backend's start, stop and wake) call each other by
design and count as one.  Checks, one TAP line each:
  - no two files call each other, directly or through others (a cycle);
  - each kmod/*.c and common/*.c file has at most 600 lines, or says why at its top
    ("Longer than 600 lines: ..."); each kmod/*.h at most 400; and no C
    function anywhere over 100 lines without a reason right above it
    ("Longer than 100 lines: ...");
  - tools/ as kmod/: no cycle between the files tools/kstats is linked
    from, lib/ calling nothing of cli/, their floors in the tools table of
    docs/architecture.md (between "tools layers:" markers);
  - docs/architecture.md's layer table (between the "layers:" markers) is
    what the objects say, floor by floor (--write rewrites it);
  - the folders' direction, from the sources' #include lines: common/
    includes from include/ only (nothing of kmod/ or tools/), tools/lib/
    nothing of tools/cli/.
Last line: N passed, N failed.
"""
import glob
import os
import re
import subprocess
import sys

from tap import TOP, Tap, staged, staged_objdirs

DOC = os.path.join(TOP, "docs", "architecture.md")
BEGIN, END = "<!-- layers: begin -->", "<!-- layers: end -->"
TBEGIN, TEND = "<!-- tools layers: begin -->", "<!-- tools layers: end -->"
# object -> the unit it belongs to
UNITS = {"ks_tramp": "ks_direct", "ks_tramp_arm64": "ks_direct", "ks_direct_stack": "ks_direct"}
MAX_LINES = 600
MAX_HEADER = 400

tap = Tap("layers")
check = tap.check


def nm_graph(units):
    """Which unit calls which: @units maps each object file to its unit; a
    unit calls another when it uses a symbol the other defines (nm).
    Returns the graph and, per call, the symbols behind it."""
    defs, uses = {}, {}
    for o, unit in units:
        out = subprocess.run(["nm", o], capture_output=True, text=True,
                             check=True).stdout
        uses.setdefault(unit, set())
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBR":
                defs[f[2]] = unit
            elif len(f) == 2 and f[0] == "U":
                uses[unit].add(f[1])
    g = {u: set() for u in uses}
    why = {}
    for u, syms in uses.items():
        for sym in syms:
            v = defs.get(sym)
            if v and v != u:
                g[u].add(v)
                why.setdefault((u, v), []).append(sym)
    return g, why


def graph_of(d):
    common = sorted(glob.glob(os.path.join(d, "..", "common", "*.o")))
    units = []
    for o in sorted(glob.glob(os.path.join(d, "*.o"))) + common:
        name = os.path.basename(o)[:-2]
        if o in common:
            name = "common/" + name
        if name in ("kstats", "kstats.mod") or name.endswith(".mod"):
            continue
        units.append((o, UNITS.get(name, name)))
    return nm_graph(units)


def sccs(g):
    """Tarjan's strongly connected components."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def floors(g):
    """Floor 0 calls nothing of the module; each file one above its highest callee."""
    memo = {}

    def fl(v, seen=()):
        if v not in memo:
            memo[v] = 0 if not g[v] or v in seen else \
                1 + max(fl(w, seen + (v,)) for w in g[v])
        return memo[v]

    by = {}
    for v in g:
        by.setdefault(fl(v), []).append(v)
    return by


def table(g):
    by = floors(g)
    lines = [BEGIN, "", "| floor | files (each calls only files of lower floors) |",
             "|---|---|"]
    for f in sorted(by, reverse=True):
        names = []
        for v in sorted(by[f]):
            names.append("`%s`" % (v + ".c" + (" + ks_direct_stack.c + ks_tramp*.S" if v == "ks_direct" else "")))
        lines.append("| %d | %s |" % (f, ", ".join(names)))
    lines += ["", END]
    return "\n".join(lines)


def includes_below():
    """common/ and tools/lib/ include nothing from the folders above them
    (tools/lib/ may include the code protoc-c generates in tools/gen/)."""
    inc = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
    for folder, ok in (("common", lambda q, h, d: q == "<"),
                       ("tools/lib", lambda q, h, d: q == "<" or
                        os.path.exists(os.path.join(d, h)) or
                        os.path.exists(os.path.join(TOP, "tools", "gen", h)))):
        bad = []
        for f in sorted(glob.glob(os.path.join(TOP, folder, "*.[ch]"))):
            with open(f) as fh:
                for q, h in inc.findall(fh.read()):
                    if not ok(q, h, os.path.dirname(f)) or ".." in h:
                        bad.append("%s: %s" % (os.path.relpath(f, TOP), h))
        check("%s/ includes only what lies below it" % folder, not bad, "\n".join(bad))


SOURCES = ("kmod/*.[chS]", "common/*.[ch]", "include/kstats/*.h", "tools/*/*.[ch]",
           "tools/*/*.py", "tools/*/*.sh", "tools/*/*/*.[ch]")


def sizes():
    """Every source file of kmod/, common/ and tools/ (headers included)
    has at most 600 lines, or says why at its top; kmod's headers 400."""
    for c in sorted(set(f for pat in SOURCES for f in glob.glob(os.path.join(TOP, pat)))):
        rel = os.path.relpath(c, TOP)
        if "/out/" in rel or ".pb-c." in rel:	# generated
            continue
        with open(c, errors="replace") as fh:
            text = fh.read()
        n = text.count("\n")
        if rel.startswith("kmod/") and rel.endswith(".h"):
            check("%s: %d lines (a header: at most %d)" % (rel, n, MAX_HEADER), n <= MAX_HEADER)
            continue
        ok = n <= MAX_LINES or "Longer than 600 lines:" in text[:2000]
        check("%s: %d lines%s" % (rel, n, "" if n <= MAX_LINES else ", says why"), ok)


FUNC_MAX = 100
FUNC_SOURCES = ("kmod/*.c", "common/*.c", "tools/*/*.c", "tests/*/*.c", "bench/*/*.c")


def functions():
    """No C function over 100 lines without a reason at its top (a comment
    right above it that says "Longer than 100 lines: ...")."""
    long = []
    for f in sorted(set(x for pat in FUNC_SOURCES for x in glob.glob(os.path.join(TOP, pat)))):
        rel = os.path.relpath(f, TOP)
        if "/out/" in rel or ".pb-c." in rel:
            continue
        with open(f, errors="replace") as fh:
            lines = fh.read().split("\n")
        start = None
        for i, line in enumerate(lines):
            if line == "{" and i:
                j = i - 1	# the signature's first line, at column 0
                while j and lines[j][:1] in ("\t", " "):
                    j -= 1
                start = j
            elif line == "}" and start is not None:
                n = i - start + 1
                above = "\n".join(lines[max(0, start - 6):start])
                if n > FUNC_MAX and "Longer than 100 lines:" not in above:
                    long.append("%s:%d: %s: %d lines" % (rel, start + 1, lines[start][:60], n))
                start = None
    check("no C function over %d lines without a reason at its top" % FUNC_MAX,
          not long, "\n".join(long))


def tools_graph():
    """tools/kstats' objects (built here, under the folder's lock): which
    file calls which, units named cli/X, lib/X and common/ks_cmd."""
    tools = os.path.join(TOP, "tools")
    subprocess.run(["flock", tools, "make", "-s", "-C", tools, "kstats"], check=True,
                   stdout=subprocess.DEVNULL)
    # the objects the binary is linked from, as make links it
    link = subprocess.run(["make", "-n", "-B", "-C", tools, "kstats"], capture_output=True,
                          text=True, check=True).stdout
    objs = []
    for line in link.splitlines():
        w = line.split()
        if "-o" in w and w[w.index("-o") + 1] == "kstats":
            objs = [os.path.join(tools, x) for x in w if x.endswith(".o")]
    units = []
    for o in objs:
        rel = os.path.relpath(o, tools)[:-2]
        units.append((o, "common/ks_cmd" if rel == "ks_cmd" else rel))
    return nm_graph(units)


def tools_table(g):
    by = floors(g)
    lines = [TBEGIN, "", "| floor | tools/ files (each calls only files of lower floors) |",
             "|---|---|"]
    for f in sorted(by, reverse=True):
        lines.append("| %d | %s |" % (f, ", ".join("`%s.c`" % v for v in sorted(by[f]))))
    lines += ["", TEND]
    return "\n".join(lines)


def tools_layers(write):
    """No cycle between tools/ files, lib/ calls nothing of cli/, and the
    table of tools' floors in docs/architecture.md is theirs."""
    g, why = tools_graph()
    cyc, detail = cycles(g, why)
    check("tools/: the objects tools/kstats is linked from (%d)" % len(g), len(g) > 20)
    check("tools/: no cycle between files (%d files, %d calls between files)"
          % (len(g), sum(len(x) for x in g.values())), not cyc, detail)
    up = ["%s -> %s" % (u, v) for u in g for v in g[u]
          if not u.startswith("cli/") and v.startswith("cli/")]
    check("tools/: lib/ and common/ call nothing of cli/", not up, "\n".join(up))
    if cyc:
        return
    doc_table(TBEGIN, TEND, tools_table(g), write, "tools/ layer table")


def cycles(g, why):
    """The cycles of @g, and a line per call inside them with its symbols."""
    cyc = [c for c in sccs(g) if len(c) > 1]
    detail = ""
    for c in cyc:
        for u in c:
            for v in sorted(g[u] & set(c)):
                detail += "%s -> %s: %s\n" % (u, v, " ".join(sorted(why[(u, v)])[:6]))
    return cyc, detail


def doc_table(begin, end, want, write, what):
    """docs/architecture.md's table between @begin and @end is @want
    (--write puts it there first)."""
    with open(DOC) as fh:
        doc = fh.read()
    if write and begin in doc:
        a, b = doc.index(begin), doc.index(end) + len(end)
        doc = doc[:a] + want + doc[b:]
        with open(DOC, "w") as fh:
            fh.write(doc)
    have = doc[doc.index(begin):doc.index(end) + len(end)] if begin in doc and end in doc else ""
    check("docs/architecture.md's %s is the objects' (tests/layers.py --write)" % what,
          have == want, "want:\n" + want)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    write = "--write" in sys.argv
    includes_below()
    functions()
    tools_layers(write)
    dirs = args or staged_objdirs()
    dirs = [d for d in dirs if glob.glob(os.path.join(d, "*.o"))]
    if not dirs:
        check("kmod's objects found (make vm-stage)", False, "no objects in %s" % args)
        return tap.end()
    best, cyc = None, True
    for d in dirs:
        g, why = staged(d, graph_of)
        cyc, detail = cycles(g, why)
        check("%s: no cycle between kmod/ files (%d files, %d calls between files)"
              % (os.path.relpath(d, TOP), len(g), sum(len(x) for x in g.values())),
              not cyc, detail)
        if not cyc and (best is None or len(g) > len(best)):
            best = g
    sizes()
    if best:
        doc_table(BEGIN, END, table(best), write, "layer table")
    return tap.end()


if __name__ == "__main__":
    sys.exit(main())
