#!/bin/bash
# SPDX-License-Identifier: MIT
# A paced sender against the machine's floor, in one run: for each pacing (sleep, spin) and
# rate, build/bench/bench_pace (a loop that does nothing but wait for each deadline) and
# pktbench --method M --pps RATE --pace P in the namespace lab take turns, ROUNDS times; each
# line says how late the frames (or the loop's wakes) were against the schedule, p50 and p99,
# and the CPU used. pktbench's pacer cannot beat the loop; how close it comes is its cost.
#   sudo bench/pace.sh [-s SECS] [-r ROUNDS] [-m METHOD] [-b BUILD] [RATE ...]
#   (defaults: 3 s, 5 rounds, af_packet, build, rates 2000 30000)
set -u
SECS=3
ROUNDS=5
METHOD=af_packet
BUILD=build
while getopts s:r:m:b: o; do
	case $o in
	s) SECS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	m) METHOD=$OPTARG ;;
	b) BUILD=$OPTARG ;;
	*) sed -n 8,9p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
RATES=${*:-2000 30000}
cd "$(dirname "$0")/.."
PB=$BUILD/pktbench
REF=$BUILD/bench/bench_pace
for p in "$PB" "$REF"; do
	[ -x "$p" ] || { echo "pace: no $p (cmake --build $BUILD)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "pace: run as root (pktbench's lab)" >&2; exit 2; }
out=$(mktemp /tmp/pb-pace.XXXXXX)
trap 'rm -f "$out"' EXIT
echo "pace: $METHOD against bench_pace, ${SECS} s a run, $ROUNDS rounds, rates $RATES; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-6s %-7s %-10s %9s %9s %7s\n' round pace rate who p50_us p99_us cpu_%
for r in $(seq "$ROUNDS"); do
	for pace in sleep spin; do
		for rate in $RATES; do
			"$REF" $pace "$rate" "$SECS" |
				awk -v r="$r" -v p=$pace -v q="$rate" '{ printf "%-5s %-6s %-7s %-10s %9s %9s %7s\n", r, p, q, "bench_pace", $6, $8, $13 }'
			if "$PB" --method "$METHOD" --pps "$rate" --duration "$SECS" --pace $pace -q \
				--format json -o "$out" 2>/dev/null; then
				python3 - "$out" "$r" $pace "$rate" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
exact = r["frames_sent"] == r["frames_delivered"]
print("%-5s %-6s %-7s %-10s %9s %9s %7.1f%s" % (sys.argv[2], sys.argv[3], sys.argv[4], "pktbench",
      "%.1f" % r["pace_error_p50_us"], "%.1f" % r["pace_error_p99_us"],
      100 * r["cpu_s"] / r["duration_s"], "" if exact else "  (delivered %s of %s)" %
      (r["frames_delivered"], r["frames_sent"])))
PY
			else
				echo "$r $pace $rate pktbench: exit $?"
			fi
		done
	done
done
