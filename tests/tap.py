# SPDX-License-Identifier: GPL-2.0
"""TAP lines for the Python suites, as tests/tap.h for C and vm/tap.sh for
shell, and the objects of staged kernels, read under vm/stage.sh's lock.

    tap = Tap("layers")
    tap.check("what", ok, detail)	# ok N - layers: what
    return tap.end()			# N passed, N failed; the exit status
"""
import fcntl
import glob
import os

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Tap:
    def __init__(self, prefix):
        self.prefix = prefix
        self.results = []

    def check(self, desc, ok, detail=""):
        self.results.append(bool(ok))
        print(("ok" if ok else "not ok") + " %d - %s: %s" % (len(self.results), self.prefix, desc))
        if not ok and detail:
            for line in detail.splitlines():
                print("#   " + line)

    def end(self):
        failed = self.results.count(False)
        print("%d passed, %d failed" % (len(self.results) - failed, failed))
        return 1 if failed else 0


def staged_objdirs():
    """Every vm/out/KVER/src/kmod that make vm-stage built."""
    return sorted(os.path.dirname(k) for k in
                  glob.glob(os.path.join(TOP, "vm/out/*/src/kmod/kstats.ko")))


def staged(d, read):
    """read(d) for an object folder d, under vm/stage.sh's lock when d is a
    staged kernel's (OUT/KVER/src/kmod): a suite staging that kernel
    meanwhile waits."""
    lock = os.path.join(d, "..", "..", ".stage.lock")
    if not os.path.exists(lock):
        return read(d)
    with open(lock) as fh:
        fcntl.flock(fh, fcntl.LOCK_SH)
        return read(d)
