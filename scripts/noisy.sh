#!/bin/bash
# SPDX-License-Identifier: MIT
# Run a command beside CPU hogs, as on a shared CI machine: each hog is busy BUSY ms of every
# PERIOD ms (a neighbour's bursts, not a steady load the scheduler can spread). A test that
# passes here only by luck fails here first. With --rt the hogs run SCHED_FIFO: while busy,
# nothing else of the machine's runs on their CPU, as when a hypervisor steals a virtual CPU.
# The hogs are this script's children, ended by their PIDs when the command ends.
#   scripts/noisy.sh [--hogs N] [--busy MS] [--period MS] [--rt] -- COMMAND [ARGS...]
# Defaults: 2 hogs, 30 ms of every 100 ms.
set -u
hogs=2 busy=30 period=100 rt=()
while [ $# -gt 0 ]; do
	case $1 in
	--hogs) hogs=$2; shift 2 ;;
	--busy) busy=$2; shift 2 ;;
	--period) period=$2; shift 2 ;;
	--rt) rt=(chrt -f 1); shift ;;
	--) shift; break ;;
	-h | --help) sed -n '3,10p' "$0" | cut -c3-; exit 0 ;;
	*) echo "noisy.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "noisy.sh: no command (see --help)" >&2; exit 2; }
case "$hogs$busy$period" in *[!0-9]*) echo "noisy.sh: --hogs, --busy, --period take whole numbers" >&2; exit 2 ;; esac
[ "$busy" -le "$period" ] || { echo "noisy.sh: --busy must not exceed --period" >&2; exit 2; }
pids=()
stop() { [ ${#pids[@]} = 0 ] || kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; }
trap stop EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$hogs"); do
	# each hog's phase is its own (started a few ms apart), as neighbours' are
	"${rt[@]}" python3 -c '
import sys, time
busy, period = int(sys.argv[1]) / 1e3, int(sys.argv[2]) / 1e3
t = time.monotonic()
while True:
    end = t + busy
    while time.monotonic() < end:
        pass
    t += period
    time.sleep(max(0.0, t - time.monotonic()))' "$busy" "$period" &
	pids+=($!)
	sleep 0.013
done
"$@"
rc=$?
exit $rc
