#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The direct backend's plain paths, walked in each staged kstats.ko.

    tests/paths.py [KSTATS.KO...]

bench/insns.py follows the timed and the stopped path of the trampoline
(kmod/ks_tramp.S, kmod/ks_tramp_arm64.S) through the module's disassembly
(default: every vm/out/KVER/src/kmod/kstats.ko that make vm-stage built,
read under vm/stage.sh's lock).  Checks per kernel, one TAP line each:
  - each path ends where it should (a return into the body or to the
    caller) without a call into C;
  - the instruction counts docs/direct.md gives: x86-64 timed at most
    66, stopped and sampled out at most 6; arm64 timed at most 92,
    stopped at most 12, sampled out at most 15 (make bench measures the
    same figures under QEMU -icount);
  - what a real CPU pays more for: two counter reads on the timed path,
    none on the others; no locked or atomic instruction but arm64's one
    gate decrement of a sampled-out call (LSE ldadd), and no indirect
    call; on arm64 interrupts masked twice on the timed path (two
    msr daifset / msr daif pairs), never on x86-64.
Last line: N passed, N failed.
"""
import os
import sys

from tap import TOP, Tap, staged, staged_objdirs
sys.path.insert(0, os.path.join(TOP, "bench"))
import insns  # noqa: E402

# arch -> path -> (most instructions, counter reads, interrupt masking,
# atomics)
# (the nested calls' count, ks_unnest(): 5 more on x86-64, 11 on arm64)
LIMITS = {"x86_64": {"timed": (66, 2, 0, 0), "stopped": (6, 0, 0, 0),
                     "sampled out": (6, 0, 0, 0)},
          "arm64": {"timed": (92, 2, 4, 0), "stopped": (12, 0, 0, 0),
                    "sampled out": (15, 0, 0, 1)}}

tap = Tap("paths")
check = tap.check


def main():
    kos = sys.argv[1:] or [os.path.join(d, "kstats.ko") for d in staged_objdirs()]
    for ko in kos:
        kver = os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(ko))))
        arch = "arm64" if kver.endswith("-arm64") else "x86_64"
        if arch == "arm64" and kver.startswith("6.1."):
            continue	# no direct calls on arm64 before 6.5: no trampoline
        try:
            res = staged(os.path.dirname(ko), lambda _: insns.count(ko, arch))
        except (RuntimeError, OSError, insns.subprocess.CalledProcessError) as e:
            check("%s: the paths walk to their end" % kver, False, str(e))
            continue
        check("%s: the paths walk to their end, no call into C" % kver, True)
        for name, (most, reads, irq, atomics) in LIMITS[arch].items():
            e = res[name]
            check("%s: %s path %d instructions (at most %d)"
                  % (kver, name, e["instructions"], most),
                  e["instructions"] <= most, "\n".join(e["listing"]))
            bad = [c for c, want in (("counter reads", reads), ("interrupt masking", irq),
                                     ("locked / atomic", atomics)) if len(e[c]) != want]
            if arch == "x86_64":
                bad += ["indirect branches"] if e["indirect branches"] else []
            else:
                # the one indirect branch is ret x10 into the body
                bad += ["indirect branches"] if [t for t in e["indirect branches"]
                                                 if not t.startswith("ret")] else []
            check("%s: %s path's expensive instructions: %s" % (kver, name, insns.line(name, e)),
                  not bad, "unexpected: " + ", ".join(bad))
    if not kos:
        check("a staged kstats.ko to walk (make vm-stage)", False)
    return tap.end()


if __name__ == "__main__":
    sys.exit(main())
