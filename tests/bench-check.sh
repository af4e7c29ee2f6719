#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark is not a test; the suite only checks that its short mode
# runs and that every figure it reports is sane (bench/report.py --check:
# present, and between 0 and 100,000 instructions per call).
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=vm/tap.sh
. vm/tap.sh
if make -s bench-short; then
	ok "bench-short ran and its figures are sane"
else
	notok "bench-short failed or reported insane figures"
fi
tap_end
