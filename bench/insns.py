#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Walk the direct backend's plain paths in a built kstats.ko's disassembly.

    bench/insns.py [--arch x86_64|arm64] KSTATS.KO

For each path of the trampoline (kmod/ks_tramp.S, kmod/ks_tramp_arm64.S)
that records without calling C, the instructions it executes are found
by following the disassembly (objdump -d -r) from ks_direct_tramp, each
conditional branch taken or not as the path's decisions say (the first
ones in order, the rest not taken: the code keeps its common case on the
fall-through), calls into the trampoline's own code followed, and the body
of the traced function left out (its instructions are the baseline the
bench subtracts).  Counted along the way: every instruction, and those a
real CPU pays more than a cycle or so for.

x86-64's ALTERNATIVEs are read as built (their original instructions),
arm64's gate decrement as the LSE pair (mov, ldadd) the kernel patches
in on a CPU with LSE atomics, where the text holds a branch to the
exclusive loop of older CPUs;
a run of NOPs counts as one, as the kernel rewrites padding into one NOP
when it applies alternatives (optimize_nops()).  A return through
__x86_return_thunk counts as one return.

Used by bench/report.py (the table of make bench), and standalone.
"""

import argparse
import re
import shutil
import subprocess
import sys

# The paths: (name, the decisions of their first conditional branches,
# T taken, N not)
PATHS = {
    "x86_64": (("timed", "NNT"),	# home's gate passes, key alone there, fast
               ("stopped", "T"),	# home's gate jumps out
               ("sampled out", "T")),	# the same: the gate counts down
    "arm64": (("timed", "TNNNT"),	# gate open, key alone, has a node, active, fast
              ("stopped", "NT"),	# gate not open, shut
              ("sampled out", "NNT")),	# not open, not shut: counted down, not the last
}

CLASSES = ("counter reads", "serialising", "locked / atomic", "compare-exchange",
           "interrupt masking", "indirect branches", "returns")

X86_CLASS = (
    (r"rdtscp?|rdpmc", "counter reads"),
    (r"lfence|mfence|cpuid|serialize", "serialising"),
    (r"lock\b.*|xchg.*", "locked / atomic"),
    (r"cmpxchg.*", "compare-exchange"),
    (r"cli|sti|popf.*|pushf.*", "interrupt masking"),
)
ARM64_CLASS = (
    (r"mrs\s+\w+,\s*(cntvct|cntvctss|cntpct|cntpctss)_el0", "counter reads"),
    (r"isb|dsb.*|dmb.*", "serialising"),
    (r"(ldx|ldax|stx|stlx|cas|ldadd|stadd|swp|ldset|ldclr|ldeor|stset|stclr).*",
     "locked / atomic"),
    (r"msr\s+daif.*", "interrupt masking"),
)


def objdump_for(arch):
    for tool in (("aarch64-linux-gnu-objdump",) if arch == "arm64" else ()) + ("objdump",):
        if shutil.which(tool):
            return tool
    return None


def disassemble(ko, arch):
    """{address: (text, reloc target or None)}, {symbol: address}, [addresses]"""
    tool = objdump_for(arch)
    if not tool:
        raise RuntimeError("no objdump for %s (binutils%s)"
                           % (arch, "-aarch64-linux-gnu" if arch == "arm64" else ""))
    out = subprocess.run([tool, "-d", "-r", "--no-show-raw-insn", "-j", ".text", ko],
                         capture_output=True, text=True, check=True).stdout
    insns, syms, order, last = {}, {}, [], None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            syms[m.group(2)] = int(m.group(1), 16)
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+R_\S+\s+(\S+)", line)
        if m and last is not None:
            insns[last] = (insns[last][0], re.sub(r"[-+]0x[0-9a-f]+$", "", m.group(2)))
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*?)\s*(//.*)?$", line)
        if m and m.group(2):
            last = int(m.group(1), 16)
            insns[last] = (m.group(2).split("#")[0].strip() if arch == "x86_64"
                           else m.group(2).strip(), None)
            order.append(last)
    return insns, syms, order


def classify(text, arch):
    table = ARM64_CLASS if arch == "arm64" else X86_CLASS
    for pat, cls in table:
        if re.fullmatch(pat, text) or re.match(pat + r"\s", text + " "):
            return cls
    return None


def target(text):
    m = re.search(r"\b([0-9a-f]+) <", text)
    return int(m.group(1), 16) if m else None


def walk(code, arch, decisions):
    """The path's instructions, [(address, text, class)], in @code, what
    disassemble() read."""
    insns, syms, order = code
    nxt = {a: b for a, b in zip(order, order[1:])}
    pc, path, stack, decs = syms["ks_direct_tramp"], [], [], list(decisions)
    lr = None			# arm64: where an adr x30 points the body's return
    prev_nop = False
    while True:
        if pc not in insns or len(path) > 400:
            raise RuntimeError("the walk left the code at %#x" % pc)
        text, rel = insns[pc]
        mn = text.split()[0]
        is_nop = mn in ("nop", "nopl", "nopw", "xchg") and "nop" in text or \
            text.startswith("data16") and "nop" in text
        if not (is_nop and prev_nop and arch == "x86_64"):
            path.append((pc, text, classify(text, arch)))
        prev_nop = is_nop
        if arch == "x86_64":
            ret = mn == "ret" or (mn == "jmp" and rel == "__x86_return_thunk")
            if ret:
                path[-1] = (pc, "ret", "returns")
                if not stack:
                    return path
                pc = stack.pop()
                continue
            if mn == "call" and "*" in text:
                raise RuntimeError("the path calls through a register at %#x" % pc)
            if mn == "call":
                if rel:
                    raise RuntimeError("the path calls %s at %#x" % (rel, pc))
                stack.append(nxt[pc])
                pc = target(text)
                continue
            if mn == "jmp":
                if "*" in text:
                    path[-1] = (pc, text, "indirect branches")
                    return path
                pc = target(text)
                continue
            if mn.startswith("j"):
                take = decs.pop(0) == "T" if decs else False
                pc = target(text) if take else nxt[pc]
                continue
        else:
            if mn == "adr" and text.split()[1].rstrip(",") == "x30":
                lr = target(text)
            if mn == "ret":
                reg = text.split()[1] if len(text.split()) > 1 else "x30"
                if reg != "x30":
                    # into the body, which returns where x30 points
                    path[-1] = (pc, text, "indirect branches")
                    if lr is None:
                        return path
                    pc, lr = lr, None
                    continue
                path[-1] = (pc, text, "returns")
                return path
            if mn in ("br", "blr"):
                path[-1] = (pc, text, "indirect branches")
                return path
            if mn in ("bl",):
                raise RuntimeError("the path calls %s at %#x" % (rel or text, pc))
            if mn == "b":
                t = target(text)
                if insns.get(t, ("",))[0].startswith("ldxr") and \
                        insns.get(nxt[pc], ("",))[0] == "nop":
                    # KS_GATE_DEC: the exclusive loop stands in the text
                    # for the pair an LSE CPU runs (the alternative)
                    path[-1] = (pc, "mov (LSE)", None)
                    path.append((nxt[pc], "ldadd (LSE)", "locked / atomic"))
                    pc = nxt[nxt[pc]]
                    continue
                pc = t
                continue
            if mn.startswith("b.") or mn in ("cbz", "cbnz", "tbz", "tbnz"):
                take = decs.pop(0) == "T" if decs else False
                pc = target(text) if take else nxt[pc]
                continue
        pc = nxt[pc]


def count(ko, arch):
    """{path: {"instructions": n, class: n, ..., "listing": [...]}}"""
    code = disassemble(ko, arch)
    if "ks_direct_tramp" not in code[1]:
        raise RuntimeError("%s has no ks_direct_tramp" % ko)
    res = {}
    for name, decisions in PATHS[arch]:
        path = walk(code, arch, decisions)
        e = {"instructions": len(path)}
        for cls in CLASSES:
            e[cls] = [t for _, t, c in path if c == cls]
        e["listing"] = ["%x: %s" % (a, t) for a, t, _ in path]
        res[name] = e
    return res


def short(text):
    """An instruction as the table names it: its mnemonic, the system
    register of an arm64 mrs/msr, the register of a ret that is not x30."""
    w = text.replace(",", " ").split()
    if w[0] == "mrs":
        return "mrs " + w[2]
    if w[0] == "msr":
        return "msr " + w[1]
    if w[0] == "ret" and len(w) > 1 and w[1] != "x30":
        return "ret " + w[1]
    return w[0]


def line(name, e):
    parts = []
    for cls in CLASSES:
        ts = e[cls]
        if ts:
            parts.append("%s %d (%s)" % (cls, len(ts), ", ".join(
                sorted(set(short(t) for t in ts)))))
    return "%s %d: %s" % (name, e["instructions"], "; ".join(parts) or "none of them")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", choices=("x86_64", "arm64"))
    ap.add_argument("--list", action="store_true", help="print each path's instructions")
    ap.add_argument("ko")
    args = ap.parse_args()
    arch = args.arch
    if not arch:
        head = subprocess.run(["file", "-b", args.ko], capture_output=True, text=True).stdout
        arch = "arm64" if "aarch64" in head else "x86_64"
    try:
        res = count(args.ko, arch)
    except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
        print("insns: %s" % e, file=sys.stderr)
        return 1
    for name, e in res.items():
        print(line(name, e))
        if args.list:
            for t in e["listing"]:
                print("    " + t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
