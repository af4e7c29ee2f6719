#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""OpenMetrics text of kstats' exported histograms (tools/lib/ks_export.c:
kstats_latency_seconds, le = 2^(i/4) s for i = -96..-12, then +Inf) for
machines of known delays, every 15 s over 20 minutes ending at END, for
promtool tsdb create-blocks-from openmetrics (tests/cli/prometheus.sh).

    promdata.py END > data.om

Each machine ("instance") makes 200 calls of each function every 15 s,
log-normal around its median (sigma 0.15), seeded: the same counts on
every run.  release 6.1.0-57-amd64 (a1..a3): find_vma at 10 us times
1.00, 1.03, 0.97; release 6.12.95+deb12-amd64 (b1..b3): 12 us times 1.00,
0.98, 1.02, so the true ratio of the sides' mean is 1.2 (+20%); vma_merge
at 3 us on every machine of both, the same factors (no change).  release
7.0.0-reset (r1..r3): find_vma at 10 us, r2's counters back to 0 four
minutes before END (kstats reset)."""
import math
import random
import sys

EDGES = [2 ** (i / 4) for i in range(-96, -11)]
STEP, STEPS, CALLS, SIGMA = 15, 80, 200, 0.15

MACHINES = [
    # release, instance, {function: median in s}, reset step or None
    ("6.1.0-57-amd64", "a1:9100", {"find_vma": 10e-6 * 1.00, "vma_merge": 3e-6 * 1.00}, None),
    ("6.1.0-57-amd64", "a2:9100", {"find_vma": 10e-6 * 1.03, "vma_merge": 3e-6 * 1.03}, None),
    ("6.1.0-57-amd64", "a3:9100", {"find_vma": 10e-6 * 0.97, "vma_merge": 3e-6 * 0.97}, None),
    ("6.12.95+deb12-amd64", "b1:9100", {"find_vma": 12e-6 * 1.00, "vma_merge": 3e-6 * 1.00}, None),
    ("6.12.95+deb12-amd64", "b2:9100", {"find_vma": 12e-6 * 0.98, "vma_merge": 3e-6 * 0.98}, None),
    ("6.12.95+deb12-amd64", "b3:9100", {"find_vma": 12e-6 * 1.02, "vma_merge": 3e-6 * 1.02}, None),
    ("7.0.0-reset", "r1:9100", {"find_vma": 10e-6}, None),
    ("7.0.0-reset", "r2:9100", {"find_vma": 10e-6}, STEPS - 17),
    ("7.0.0-reset", "r3:9100", {"find_vma": 10e-6}, None),
]


def le_text(x):
    return "+Inf" if x == math.inf else repr(x)


def main():
    end = int(sys.argv[1])
    start = end - (STEPS - 1) * STEP
    rng = random.Random(1)
    out = ["# HELP kstats_latency_seconds Time spent in a kernel function, measured by kstats.",
           "# TYPE kstats_latency_seconds histogram"]
    for release, inst, fns, reset in MACHINES:
        for fn, median in fns.items():
            labels = ('node="%s",function="%s",backend="direct",clock="tsc",release="%s",instance="%s"'
                      % (fn, fn, release, inst))
            counts = [0] * (len(EDGES) + 1)
            total, n = 0.0, 0
            for step in range(STEPS):
                if step == reset:
                    counts = [0] * (len(EDGES) + 1)
                    total, n = 0.0, 0
                for _ in range(CALLS):
                    v = median * math.exp(rng.gauss(0, SIGMA))
                    i = 0
                    while i < len(EDGES) and v > EDGES[i]:
                        i += 1
                    counts[i] += 1
                    total += v
                    n += 1
                t = start + step * STEP
                cum = 0
                for i, edge in enumerate(EDGES + [math.inf]):
                    cum += counts[i]
                    out.append("kstats_latency_seconds_bucket{%s,le=\"%s\"} %d %d"
                               % (labels, le_text(edge), cum, t))
                out.append("kstats_latency_seconds_sum{%s} %.9g %d" % (labels, total, t))
                out.append("kstats_latency_seconds_count{%s} %d %d" % (labels, n, t))
    out.append("# EOF")
    sys.stdout.write("\n".join(out) + "\n")


main()
