#!/bin/bash
# SPDX-License-Identifier: MIT
# What the lab's receiver costs a frame, two builds in one run: the XDP program pb_receiver's
# own run time per frame, as the kernel counts it (kernel.bpf_stats_enabled: run_time_ns and
# run_cnt, read with bpftool while the run's lab is up), with METHOD sending at its top rate
# into the direct (veth) lab; the builds take turns, ROUNDS times. On a veth the program runs
# in the sending CPU's softirq, so the rate a run reaches is the sender's and the program's
# together: the program's share is its own time.
#
# -t: the receiving CPU's capacity instead. A lab of the script's own (namespaces pbrc-tx and
# pbrc-rx), each build's `pktbench receive` agent on the far veth, whose NAPI runs in a thread
# of its own (/sys/class/net/DEV/threaded) pinned to CPU RXCPU, and the same build's sender
# pinned to the other CPU (-c RXCPU, default 0). The receiving CPU then does only the receive
# work (the veth's poll, its copy of each skb into a page, the program), as a second host's
# would. Printed: the thread's CPU time per frame it ran the program on (schedstat, run_cnt),
# and its inverse, the capacity. The sender is the faster side here (the veth's tx_dropped
# counts what the receiver's full ring refused), so the rate the agent counts is that too.
# kernel.bpf_stats_enabled is set for the run and put back after.
#   sudo bench/rx-cost.sh [-t [-c RXCPU]] [-r ROUNDS] [-s SECS] [-m METHOD] [-l LOCK] BASE_BUILD NEW_BUILD
#   (defaults: 5 rounds, 3 s, af_packet, no lock; e.g. build-gate-base build)
set -u
ROUNDS=5
SECS=3
METHOD=af_packet
LOCK=
THREADED=
RXCPU=0
while getopts tc:r:s:m:l: o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	s) SECS=$OPTARG ;;
	m) METHOD=$OPTARG ;;
	l) LOCK=$OPTARG ;;
	t) THREADED=1 ;;
	c) RXCPU=$OPTARG ;;
	*) sed -n 19,20p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 2 ] || { sed -n 19,20p "$0" >&2; exit 2; }
case $RXCPU in 0) TXCPU=1 ;; 1) TXCPU=0 ;; *) echo "rx-cost: -c takes 0 or 1" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
for b in "$1" "$2"; do
	[ -x "$b/pktbench" ] || { echo "rx-cost: no $b/pktbench" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "rx-cost: run as root (pktbench's lab, bpf stats)" >&2; exit 2; }
command -v bpftool >/dev/null || { echo "rx-cost: bpftool is needed (Debian package bpftool)" >&2; exit 2; }
T=$(mktemp -d /tmp/pb-rxcost.XXXXXX)
old=$(sysctl -n kernel.bpf_stats_enabled)
NTX=pbrc-tx NRX=pbrc-rx A=pbrcA B=pbrcB TX_IP=198.18.0.1 RX_IP=198.18.0.2 PORT=9317
AGENT_PID=
lab_down() {
	[ -z "$AGENT_PID" ] || { kill -INT "$AGENT_PID" 2>/dev/null; wait "$AGENT_PID" 2>/dev/null; }
	AGENT_PID=
	ip netns del $NTX 2>/dev/null
	ip netns del $NRX 2>/dev/null
}
trap 'lab_down; sysctl -qw kernel.bpf_stats_enabled="$old"; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

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

# one_t LABEL BUILD ROUND: BUILD's agent on a threaded, pinned NAPI, and BUILD's sender (an
# agent answers its own build's only)
one_t() {
	local label=$1 b=$2 r=$3 pid napi i s0 s1 c0 c1 d0 d1
	ip netns exec $NRX "$b/pktbench" receive --iface $B --listen $RX_IP:$PORT \
		>"$T/agent.out" 2>&1 &
	AGENT_PID=$!
	for i in $(seq 50); do
		bpftool -j prog show name pb_receiver 2>/dev/null | grep -q run_cnt && break
		sleep 0.1
	done
	sleep 0.3
	# the veth's NAPI exists once a program is attached: into its own thread, on RXCPU
	ip netns exec $NRX sh -c "echo 1 >/sys/class/net/$B/threaded" || return 1
	napi=$(pgrep -f "napi/$B" | head -1)
	[ -n "$napi" ] && taskset -pc "$RXCPU" "$napi" >/dev/null ||
		{ echo "rx-cost: no NAPI thread for $B" >&2; return 1; }
	ip netns exec $NTX "$b/pktbench" --method "$METHOD" --iface $A --srcip $TX_IP \
		--dstip $RX_IP --dstmac "$BMAC" --receiver "http://$RX_IP:$PORT" --cpus $TXCPU --duration "$SECS" \
		-q --format json -o "$T/out.json" 2>"$T/err" &
	pid=$!
	# the window: from a second into the run to a second before its end
	sleep 1
	s0=$(cut -d' ' -f1 /proc/$napi/schedstat)
	c0=$(bpftool -j prog show name pb_receiver)
	d0=$(ip netns exec $NTX cat /sys/class/net/$A/statistics/tx_dropped)
	sleep $((SECS - 2 > 0 ? SECS - 2 : 1))
	s1=$(cut -d' ' -f1 /proc/$napi/schedstat)
	c1=$(bpftool -j prog show name pb_receiver)
	d1=$(ip netns exec $NTX cat /sys/class/net/$A/statistics/tx_dropped)
	wait $pid || echo "$r $label: exit $? ($(tail -1 "$T/err"))"
	kill -INT "$AGENT_PID"
	wait "$AGENT_PID"
	AGENT_PID=
	python3 - "$c0" "$c1" "$((s1 - s0))" "$((d1 - d0))" "$label" "$r" "$T/out.json" <<'PY'
import json, sys
c0, c1 = (json.loads(a) for a in sys.argv[1:3])
c0, c1 = (c[0] if isinstance(c, list) else c for c in (c0, c1))
n = c1["run_cnt"] - c0["run_cnt"]
prog = (c1["run_time_ns"] - c0["run_time_ns"]) / n if n else float("nan")
cpu = int(sys.argv[3]) / n if n else float("nan")
try:
    r = json.load(open(sys.argv[7]))["results"][0]
    got = "delivered %9.0f pps" % (r["frames_delivered"] / r["duration_s"])
except Exception:
    got = "delivered %9s    " % "-"
print("%-5s %-5s program %5.1f ns/frame  receiving CPU %6.1f ns/frame (%5.2f Mpps)  %s  veth tx_dropped %7s" % (
    sys.argv[6], sys.argv[5], prog, cpu, 1e3 / cpu if n else 0, got, sys.argv[4]))
PY
}

BMAC=
if [ -n "$THREADED" ]; then
	lab_down
	ip netns add $NTX && ip netns add $NRX || exit 1
	ip link add $A netns $NTX type veth peer name $B netns $NRX || exit 1
	ip -n $NTX addr add $TX_IP/24 dev $A && ip -n $NRX addr add $RX_IP/24 dev $B &&
		ip -n $NTX link set $A up && ip -n $NRX link set $B up || exit 1
	BMAC=$(ip netns exec $NRX cat /sys/class/net/$B/address)
	ip -n $NTX neigh replace $RX_IP lladdr "$BMAC" dev $A nud permanent || exit 1
fi
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
		if [ -n "$THREADED" ]; then one_t $side "$b" "$r"; else one $side "$b" "$r"; fi
		[ -n "$LOCK" ] && exec 9>&-
	done
done
