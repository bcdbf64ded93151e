#!/bin/bash
# SPDX-License-Identifier: MIT
# What this machine's veth path can do, beside what pktbench does on it, in one run.
#
#   bench/ceiling.sh [-s SECS] [-r ROUNDS] [-f BYTES] [-b BUILD_DIR] [-n CPU] [GENERATOR ...]
#
# GENERATOR is `live` (build/bench/bench_live: the kernel's XDP live-frame TX loop), `xsk`
# (build/bench/bench_xsk: a minimal AF_XDP copy-mode loop) or `pb_METHOD` (pktbench --method
# METHOD); default: live xsk pb_xdp_live pb_af_xdp pb_af_packet pb_udp_sendto.
#
# The lab is its own: namespace pbref-tx (pbrefA, 198.18.0.1) <-> pbref-rx (pbrefB,
# 198.18.0.2) over one veth pair, with bench/ceiling/ref_drop.bpf.c on pbrefB dropping every
# frame at XDP. Every generator sends the same frame (60 bytes without FCS, or -f BYTES, up to
# 9216; the veth's MTU is raised to fit and the drop program is then the multi-buffer one) from one thread for SECS + 2 s;
# its rate is counted at the receiving end: the median of the per-second deltas of pbrefB's
# rx_packets over seconds 2 .. SECS + 1 (set-up and tear-down stay outside). Generators take
# turns within a round, so a busy moment of a shared machine hits them alike; the figure
# printed is the median over ROUNDS rounds, and `vs first` is its ratio to the first
# generator's; for pktbench, the CPU its sender ran on most in each round, and how often it
# moved (the row's sender_cpus, sender_cpu_moves). Needs root and a build (cmake --build BUILD_DIR).
# -n CPU: the receiving veth's NAPI in a thread of its own (/sys/class/net/pbrefB/threaded)
# pinned to CPU, instead of inline in the sender's softirq: the other mode a veth receives in.
set -u
SECS=5 ROUNDS=3 BUILD=build FRAME=60 NAPI=
while getopts s:r:f:b:n:h o; do
	case $o in
	s) SECS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	f) FRAME=$OPTARG ;;
	b) BUILD=$OPTARG ;;
	n) NAPI=$OPTARG ;;
	*) sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
GENS=${*:-live xsk pb_xdp_live pb_af_xdp pb_af_packet pb_udp_sendto}
case $SECS$ROUNDS$FRAME$NAPI in *[!0-9]*) echo "ceiling: -s, -r, -f and -n take whole numbers" >&2; exit 2 ;; esac
if [ "$FRAME" -lt 60 ] || [ "$FRAME" -gt 9216 ]; then
	echo "ceiling: -f is a frame's bytes without FCS, 60 to 9216" >&2
	exit 2
fi
# the veth's MTU: 1500, or what the frame needs; over a page, native XDP needs a frags program
MTU=$((FRAME - 14 > 1500 ? FRAME - 14 : 1500))
SEC=xdp
[ "$MTU" -le 3500 ] || SEC=xdp.frags
if [ "$SECS" -lt 1 ] || [ "$ROUNDS" -lt 1 ]; then
	echo "ceiling: -s and -r must be 1 or more" >&2
	exit 2
fi
REF=$BUILD/bench
PB=$BUILD/pktbench
for f in "$REF/bench_live" "$REF/ref_drop.bpf.o" "$PB"; do
	[ -e "$f" ] || { echo "ceiling: $f is missing: cmake --build $BUILD first" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "ceiling: needs root (namespaces, XDP)" >&2; exit 2; }
run_secs=$((SECS + 2)) DMAC="" SMAC=""
command_of() {
	case $1 in
	live) echo "$REF/bench_live pbrefA $run_secs $DMAC $SMAC $FRAME" ;;
	xsk) echo "$REF/bench_xsk pbrefA $run_secs $DMAC $SMAC $FRAME" ;;
	pb_*) echo "$PB --method ${1#pb_} --iface pbrefA --srcip 198.18.0.1 --dstip 198.18.0.2 \
--dstmac $DMAC --frame-size $FRAME --duration $run_secs --quiet --format json -o $LOG/$1.json" ;;
	*) return 1 ;;
	esac
}
LOG=""
for g in $GENS; do
	command_of "$g" >/dev/null || { echo "ceiling: unknown generator $g" >&2; exit 2; }
	[ "$g" != xsk ] || [ -x "$REF/bench_xsk" ] || { echo "ceiling: no $REF/bench_xsk (built with libxdp only)" >&2; exit 2; }
done
TX=pbref-tx RX=pbref-rx

cleanup() {
	ip netns del $TX 2>/dev/null
	ip netns del $RX 2>/dev/null
	[ -z "$LOG" ] || rm -rf "$LOG"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cleanup
LOG=$(mktemp -d)
ip netns add $TX && ip netns add $RX || exit 1
ip link add pbrefA netns $TX type veth peer name pbrefB netns $RX || exit 1
ip -n $TX addr add 198.18.0.1/24 dev pbrefA
ip -n $RX addr add 198.18.0.2/24 dev pbrefB
ip -n $TX link set pbrefA mtu "$MTU" up
ip -n $RX link set pbrefB mtu "$MTU" up
# GSO datagrams are split before the veth, as a NIC without segmentation offload would
ip netns exec $TX ethtool -K pbrefA tx-udp-segmentation off >/dev/null 2>&1
ip -n $RX link set dev pbrefB xdpdrv obj "$REF/ref_drop.bpf.o" sec $SEC ||
	{ echo "ceiling: cannot attach the XDP drop receiver to pbrefB" >&2; exit 1; }
SMAC=$(ip netns exec $TX cat /sys/class/net/pbrefA/address)
DMAC=$(ip netns exec $RX cat /sys/class/net/pbrefB/address)
ip -n $TX neigh replace 198.18.0.2 lladdr "$DMAC" dev pbrefA nud permanent
if [ -n "$NAPI" ]; then
	ip netns exec $RX sh -c 'echo 1 > /sys/class/net/pbrefB/threaded' || exit 1
	t=$(pgrep -f "napi/pbrefB" | head -1)
	[ -n "$t" ] && taskset -pc "$NAPI" "$t" >/dev/null ||
		{ echo "ceiling: no NAPI thread of pbrefB to pin to CPU $NAPI" >&2; exit 1; }
fi

rx_packets() { ip netns exec $RX cat /sys/class/net/pbrefB/statistics/rx_packets; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

declare -A RATES CPUS
for round in $(seq "$ROUNDS"); do
	for g in $GENS; do
		# shellcheck disable=SC2046 # the command is split into its words on purpose
		ip netns exec $TX $(command_of "$g") >"$LOG/$g.$round" 2>&1 &
		pid=$!
		sleep 1
		last=$(rx_packets)
		deltas=""
		for _ in $(seq "$SECS"); do
			sleep 1
			now=$(rx_packets)
			deltas="$deltas $((now - last))"
			last=$now
		done
		if ! wait $pid; then
			echo "ceiling: $g failed in round $round:" >&2
			tail -3 "$LOG/$g.$round" >&2
			continue
		fi
		# a pktbench row that did not run (xdp_live's live frames at most a page) is no rate
		why=$([ ! -s "$LOG/$g.json" ] || python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("" if r["status"] == "ok" else r["status"] + ": " + (r.get("reason") or ""))' "$LOG/$g.json" 2>/dev/null)
		if [ -n "$why" ]; then
			echo "ceiling: $g in round $round: $why" >&2
			rm -f "$LOG/$g.json"
			continue
		fi
		RATES[$g]="${RATES[$g]:-} $(printf '%s\n' $deltas | median)"
		# pktbench's rows say where the sender ran: its rate depends on the CPU here
		[ ! -s "$LOG/$g.json" ] ||
			CPUS[$g]="${CPUS[$g]:-} $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("cpu" + ",".join(str(c) for c in r["sender_cpus"]) + "/" + str(r["sender_cpu_moves"]))' "$LOG/$g.json" 2>/dev/null)"
		rm -f "$LOG/$g.json"
	done
done

echo "ceiling: $SECS s per generator, $ROUNDS rounds, $FRAME-byte frames (MTU $MTU), one sending" \
	"thread, counted at the receiving veth; wire Gb/s counts FCS, preamble and gap (+24 bytes)"
printf '%-18s %12s %9s %9s   %s\n' generator "median pps" "wire Gb/s" "vs first" "per round"
first="" failed=0
for g in $GENS; do
	if [ -z "${RATES[$g]:-}" ]; then
		printf '%-18s %12s\n' "$g" failed
		failed=1
		continue
	fi
	m=$(printf '%s\n' ${RATES[$g]} | median)
	[ -n "$first" ] || first=$m
	printf '%-18s %12s %9s %9s  %s\n' "$g" "$m" "$(awk -v p="$m" -v f="$FRAME" 'BEGIN { printf "%.2f", p * (f + 24) * 8 / 1e9 }')" \
		"$(awk -v a="$m" -v b="$first" 'BEGIN { printf "%.3f", b ? a / b : 0 }')" "${RATES[$g]}"
	[ -z "${CPUS[$g]:-}" ] || printf '%-18s %12s %9s %9s  %s\n' "" "" "" "" "sender CPU/moves:${CPUS[$g]}"
done
exit $failed
