#!/bin/bash
# SPDX-License-Identifier: MIT
# What the lab's receiver costs a frame, two builds in one run: the XDP program pb_receiver's
# own run time per frame, as the kernel counts it (kernel.bpf_stats_enabled: run_time_ns and
# run_cnt, read with bpftool while the run's lab is up), with METHOD sending at its top rate
# into the direct (veth) lab; the builds take turns, ROUNDS times. The receiver's capacity is the
# inverse of that time (on veth the program runs in the sending CPU's softirq, so the rate a
# run reaches is the sender's and the program's together; the program's share is its own).
# kernel.bpf_stats_enabled is set for the run and put back after.
#   sudo bench/rx-cost.sh [-r ROUNDS] [-s SECS] [-m METHOD] [-l LOCK] BASE_BUILD NEW_BUILD
#   (defaults: 5 rounds, 3 s, af_packet, no lock; e.g. build-gate-base build)
set -u
ROUNDS=5
SECS=3
METHOD=af_packet
LOCK=
while getopts r:s:m:l: o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	s) SECS=$OPTARG ;;
	m) METHOD=$OPTARG ;;
	l) LOCK=$OPTARG ;;
	*) sed -n 9,10p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 2 ] || { sed -n 9,10p "$0" >&2; exit 2; }
cd "$(dirname "$0")/.."
for b in "$1" "$2"; do
	[ -x "$b/pktbench" ] || { echo "rx-cost: no $b/pktbench" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "rx-cost: run as root (pktbench's lab, bpf stats)" >&2; exit 2; }
command -v bpftool >/dev/null || { echo "rx-cost: bpftool is needed (Debian package bpftool)" >&2; exit 2; }
T=$(mktemp -d /tmp/pb-rxcost.XXXXXX)
old=$(sysctl -n kernel.bpf_stats_enabled)
trap 'sysctl -qw kernel.bpf_stats_enabled="$old"; rm -rf "$T"' EXIT

one() { # one LABEL BUILD ROUND: a run, and the receiver's ns a frame in it
	local label=$1 b=$2 r=$3 pid
	"$b/pktbench" --lab direct --method "$METHOD" --duration "$SECS" -q --format json \
		-o "$T/out.json" 2>"$T/err" &
	pid=$!
	: >"$T/stats"
	while kill -0 $pid 2>/dev/null; do
		bpftool -j prog show name pb_receiver 2>/dev/null >"$T/now" && [ -s "$T/now" ] &&
			cp "$T/now" "$T/stats"
		sleep 0.2
	done
	wait $pid || { echo "$r $label: exit $? ($(tail -1 "$T/err"))"; return; }
	python3 - "$T/stats" "$T/out.json" "$label" "$r" <<'PY'
import json, sys
try:
    st = json.load(open(sys.argv[1]))
    st = st[0] if isinstance(st, list) else st
    cnt, ns = st["run_cnt"], st["run_time_ns"]
except Exception:
    cnt = ns = 0
r = json.load(open(sys.argv[2]))["results"][0]
print("%-5s %-5s %10d frames %8.1f ns/frame  delivered %9.0f pps  sent %9.0f pps" % (
    sys.argv[4], sys.argv[3], cnt, ns / cnt if cnt else float("nan"),
    r["frames_delivered"] / r["duration_s"], r["frames_sent"] / r["duration_s"]))
PY
}

sysctl -qw kernel.bpf_stats_enabled=1
echo "rx-cost: base $1 ($("$1/pktbench" --version 2>/dev/null | head -1)), new $2 ($("$2/pktbench" --version 2>/dev/null | head -1)); $METHOD, $SECS s, $ROUNDS rounds; kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
	for side in $order; do
		b=$1
		[ $side = new ] && b=$2
		if [ -n "$LOCK" ]; then
			exec 9>"$LOCK"
			flock 9
		fi
		one $side "$b" "$r"
		[ -n "$LOCK" ] && exec 9>&-
	done
done
