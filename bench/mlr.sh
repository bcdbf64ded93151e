#!/bin/bash
# SPDX-License-Identifier: MIT
# RFC 9971's MLRsearch (rfc2544 --search mlr) against RFC 2544's binary search on the
# router lab's 20 Mbit/s tbf (scripts/dut-tbf.sh), searches taking turns, in one run:
#   time   ROUNDS rounds at 64 and 1518 bytes: binary NDR, binary PDR (--loss-tolerance 0.5)
#          and one MLRsearch for both goals; each search's answers, trials and trial seconds
#   pace   ROUNDS rounds of the binary NDR at 64 bytes with --pace spin and --pace sleep:
#          what sending in bunches does to the answer
#   noisy  the tbf behind bench/mlr/burst_drop.bpf.c (every frame of the first 20 ms of
#          every 4th second dropped, whatever the rate): SEARCHES binary NDR searches and
#          SEARCHES MLRsearches with --goal loss=0,sum=2,exceed=0.5, taking turns
# The tbf passes R = 20e6 / 8 / (S - 4) frames/s of S bytes, and a trial of d seconds also
# what its 48 KB bucket and queue hold: NDR = R + 48 KB / (S - 4) / d. Answers are printed
# against both. -l LOCK takes that lock (flock) for each search alone, so other work on the
# machine's network lock interleaves.
#   sudo bench/mlr.sh [-r ROUNDS] [-n SEARCHES] [-t TRIAL_S] [-b BUILD] [-l LOCK] [PART ...]
#   (defaults: 3 rounds, 10 searches, 1 s trials, build, no lock, parts time pace noisy)
set -u
ROUNDS=3
SEARCHES=10
TRIAL=1
BUILD=build
LOCK=
while getopts r:n:t:b:l: o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	n) SEARCHES=$OPTARG ;;
	t) TRIAL=$OPTARG ;;
	b) BUILD=$OPTARG ;;
	l) LOCK=$OPTARG ;;
	*) sed -n 16,17p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PARTS=${*:-time pace noisy}
cd "$(dirname "$0")/.."
TOP=$PWD
PB=$BUILD/pktbench
[ -x "$PB" ] || { echo "mlr: no $PB (cmake --build $BUILD)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "mlr: run as root (pktbench's lab)" >&2; exit 2; }
T=$(mktemp -d /tmp/pb-mlr.XXXXXX)
trap 'rm -rf "$T"' EXIT

clang -O2 -g -Wall -target bpf -I/usr/include/"$(uname -m)"-linux-gnu \
	-c bench/mlr/burst_drop.bpf.c -o "$T/burst_drop.o" 2>"$T/clang.err" ||
	{ echo "mlr: cannot build the noisy device: $(head -1 "$T/clang.err")" >&2; exit 2; }
# the setup runs in a mount namespace of its own: a BPF file system of its own for tc's loader
cat >"$T/noisy.sh" <<EOS
set -e
sh "$TOP/scripts/dut-tbf.sh"
mount -t bpf bpf /sys/fs/bpf 2>/dev/null || true
tc qdisc add dev "\$PB_DUT_OUT" clsact
tc filter add dev "\$PB_DUT_OUT" egress bpf da obj "$T/burst_drop.o" sec tc
EOS

COMMON="--lab router --method udp_sendto --tests throughput --trial $TRIAL -q --format json"
N=0
# search LABEL SETUP SIZE ARGS...: one search, its line
search() {
	local label=$1 setup=$2 size=$3 rc=0
	shift 3
	N=$((N + 1))
	local out=$T/$N.json
	${LOCK:+flock "$LOCK"} "$PB" rfc2544 $COMMON --lab-dut-setup "$setup" --frame-sizes "$size" \
		"$@" --output "$out" 2>"$T/$N.err" || rc=$?
	if [ $rc != 0 ]; then
		echo "$label $size: exit $rc ($(tail -1 "$T/$N.err"))"
		return
	fi
	python3 - "$out" "$label" "$size" "$TRIAL" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
label, size, d = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
R = 20e6 / 8 / (size - 4)
ndr = R + (16384 + 32768) / (size - 4) / d
trials = [r for r in rows if not r["summary"] and r["test"] == "throughput"]
ts = sum(r["duration_s"] for r in trials)
summ = [r for r in rows if r["summary"] and r["test"] == "throughput"]
ans = []
for s in summ:
    if s.get("goal") is not None:
        v = s["relevant_lower_bound_pps"]
        ans.append("%s %.0f" % ("NDR" if s["goal_loss_ratio"] == 0 else "PDR", v))
    else:
        ans.append("%.0f" % s["throughput_pps"])
first = summ[0]["relevant_lower_bound_pps"] if summ and summ[0].get("goal") is not None \
    else (summ[0]["throughput_pps"] if summ else None)
print("%-12s %5d  %-28s trials %3d  trial_s %6.1f  first/R %s  first/NDR %s" % (
    label, size, ", ".join(ans), len(trials), ts,
    "%.3f" % (first / R) if first else "-", "%.3f" % (first / ndr) if first else "-"))
PY
}

echo "mlr: $(git rev-parse --short HEAD 2>/dev/null), kernel $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), trials $TRIAL s, $(date -u +%FT%TZ)"
for part in $PARTS; do
	case $part in
	time)
		echo "== time: $ROUNDS rounds, binary NDR + binary PDR against one MLRsearch (NDR and PDR 0.5 %)"
		for r in $(seq "$ROUNDS"); do
			for size in 64 1518; do
				if [ $((r % 2)) = 1 ]; then
					search binary-ndr scripts/dut-tbf.sh $size
					search binary-pdr scripts/dut-tbf.sh $size --loss-tolerance 0.5
					search mlr scripts/dut-tbf.sh $size --search mlr
				else
					search mlr scripts/dut-tbf.sh $size --search mlr
					search binary-ndr scripts/dut-tbf.sh $size
					search binary-pdr scripts/dut-tbf.sh $size --loss-tolerance 0.5
				fi
			done
		done
		;;
	pace)
		echo "== pace: $ROUNDS rounds, binary NDR at 64 bytes, trials spun against slept"
		for r in $(seq "$ROUNDS"); do
			search ndr-spin scripts/dut-tbf.sh 64 --pace spin
			search ndr-sleep scripts/dut-tbf.sh 64 --pace sleep
		done
		;;
	noisy)
		echo "== noisy: $SEARCHES searches each, 64 bytes, 20 ms of every 4th second dropped"
		for r in $(seq "$SEARCHES"); do
			search noisy-binary "$T/noisy.sh" 64
			search noisy-mlr "$T/noisy.sh" 64 --search mlr --goal loss=0,sum=2,exceed=0.5
		done
		;;
	*) echo "mlr: no part $part (time, pace, noisy)" >&2; exit 2 ;;
	esac
done
