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
# -x: as -t, but the frames reach the receiving veth as xdp_frames, the path a NIC's driver
# gives XDP (no skb, no copy), from a source faster than the receiver: in namespace pbrc-gen,
# bench/ceiling/ref_loop.bpf.o keeps LOOP_FRAMES frames (one per stream, each numbered up by
# one a turn, checksums kept right) going round a veth pair, and sends a copy of each turn to
# the receiver; its NAPI thread runs on the other CPU. No sender: the rate is the program's
# run_cnt over the window, and after it the agent's /v1/runs says what it counted of them.
# kernel.bpf_stats_enabled is set for the run and put back after.
#   sudo bench/rx-cost.sh [-t|-x [-c RXCPU]] [-r ROUNDS] [-s SECS] [-m METHOD] [-l LOCK] BASE_BUILD NEW_BUILD
#   (defaults: 5 rounds, 3 s, af_packet, no lock; e.g. build-gate-base build)
set -u
ROUNDS=5
SECS=3
METHOD=af_packet
LOCK=
THREADED=
RXCPU=0
LOOP=
LOOP_FRAMES=64
while getopts txc:r:s:m:l: o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	s) SECS=$OPTARG ;;
	m) METHOD=$OPTARG ;;
	l) LOCK=$OPTARG ;;
	t) THREADED=1 ;;
	x) THREADED=1 LOOP=1 ;;
	c) RXCPU=$OPTARG ;;
	*) sed -n 25,26p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 2 ] || { sed -n 25,26p "$0" >&2; exit 2; }
WIN=$((SECS - 2 > 0 ? SECS - 2 : 1)) # -t, -x: the seconds measured, one into the run
case $RXCPU in 0) TXCPU=1 ;; 1) TXCPU=0 ;; *) echo "rx-cost: -c takes 0 or 1" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.." || exit 2
for b in "$1" "$2"; do
	[ -x "$b/pktbench" ] || { echo "rx-cost: no $b/pktbench" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "rx-cost: run as root (pktbench's lab, bpf stats)" >&2; exit 2; }
command -v bpftool >/dev/null || { echo "rx-cost: bpftool is needed (Debian package bpftool)" >&2; exit 2; }
T=$(mktemp -d /tmp/pb-rxcost.XXXXXX)
old=$(sysctl -n kernel.bpf_stats_enabled)
NTX=pbrc-tx NGEN=pbrc-gen NRX=pbrc-rx A=pbrcA B=pbrcB TX_IP=198.18.0.1 RX_IP=198.18.0.2 PORT=9317
AGENT_PID=
lab_down() {
	[ -z "$AGENT_PID" ] || { kill -INT "$AGENT_PID" 2>/dev/null; wait "$AGENT_PID" 2>/dev/null; }
	AGENT_PID=
	ip netns del $NTX 2>/dev/null
	ip netns del $NGEN 2>/dev/null
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

# napi_pin NS DEV CPU: DEV's NAPI (there once a program is attached) into a thread of its own,
# pinned to CPU; prints the thread's pid
napi_pin() {
	local t
	ip netns exec "$1" sh -c "echo 1 >/sys/class/net/$2/threaded" || return 1
	t=$(pgrep -f "napi/$2" | head -1)
	[ -n "$t" ] && taskset -pc "$3" "$t" >/dev/null ||
		{ echo "rx-cost: no NAPI thread for $2" >&2; return 1; }
	echo "$t"
}
# the receiving host's UDP datagrams to no socket (/proc/net/snmp's Udp NoPorts)
udp_noports() { ip netns exec $NRX awk '/^Udp:/ { n++; if (n == 2) print $3 }' /proc/net/snmp; }

# send DEV KIND N: N frames of KIND ('S' or 'N') out of DEV in pbrc-gen, one a stream, to B
send() {
	ip netns exec $NGEN python3 - "$1" "$2" "$3" "$BMAC" <<'PY'
import socket, struct, sys
sys.path.insert(0, "tests/net")
from pcapgen import _eth, _ip4, _udp  # the tests' frame builders
dev, kind, n, mac = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3]), sys.argv[4]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((dev, 0))
src, dst = socket.inet_aton("198.18.0.1"), socket.inet_aton("198.18.0.2")
for i in range(n):
    pay = b"pb" + kind + bytes([i]) + struct.pack("!II", 0x7E570001, 0) + bytes(6)
    s.send(_eth(bytes.fromhex(mac.replace(":", "")), s.getsockname()[4], 0x0800,
                _ip4(src, dst, 17, _udp(src, dst, 40000 + i, 9, pay), i)))
PY
}

# loop_start: each build's receiver gets the frames its own sender makes: 'S' (numbered) when
# it counts one (one sent straight to it does not reach the host's UDP), else 'N'
loop_start() {
	local kind=S n0 k d
	n0=$(udp_noports)
	send pbrcD S 1 || return 1
	sleep 0.2
	[ "$(udp_noports)" = "$n0" ] || kind=N
	ip -n $NGEN link set dev pbrcH xdpdrv obj "$LOOPO" sec xdp || return 1
	for k in 0 1; do
		d=pbrcG
		[ $k = 0 ] || d=pbrcD
		# shellcheck disable=SC2046 # the value is four bytes, split on purpose
		ip netns exec $NGEN bpftool map update name ports key $k 0 0 0 value \
			$(printf '%08x' "$(ip netns exec $NGEN cat /sys/class/net/$d/ifindex)" |
				sed 's/\(..\)\(..\)\(..\)\(..\)/0x\4 0x\3 0x\2 0x\1/') || return 1
	done
	napi_pin $NGEN pbrcH "$TXCPU" >/dev/null || return 1
	# they go round until the program comes off
	send pbrcG $kind $LOOP_FRAMES || return 1
	KIND=$kind
}
loop_stop() { ip -n $NGEN link set dev pbrcH xdpdrv off; }

# one_t LABEL BUILD ROUND: BUILD's agent on a threaded, pinned NAPI, and BUILD's sender (an
# agent answers its own build's only)
one_t() {
	local label=$1 b=$2 r=$3 pid napi s0 s1 c0 c1 d0 d1
	ip netns exec $NRX "$b/pktbench" receive --iface $B --listen $RX_IP:$PORT \
		>"$T/agent.out" 2>&1 &
	AGENT_PID=$!
	for _ in $(seq 50); do
		bpftool -j prog show name pb_receiver 2>/dev/null | grep -q run_cnt && break
		sleep 0.1
	done
	sleep 0.3
	napi=$(napi_pin $NRX $B "$RXCPU") || return 1
	rm -f "$T/out.json" "$T/counted"
	pid=
	if [ -n "$LOOP" ]; then
		loop_start || { echo "rx-cost: the loop did not start" >&2; return 1; }
	else
		ip netns exec $NTX "$b/pktbench" --method "$METHOD" --iface $A --srcip $TX_IP \
			--dstip $RX_IP --dstmac "$BMAC" --receiver "http://$RX_IP:$PORT" \
			--cpus $TXCPU --duration "$SECS" -q --format json -o "$T/out.json" 2>"$T/err" &
		pid=$!
	fi
	# the window: from a second into the run to a second before its end
	sleep 1
	s0=$(cut -d' ' -f1 /proc/$napi/schedstat)
	c0=$(bpftool -j prog show name pb_receiver)
	d0=$(ip netns exec $DROPNS cat /sys/class/net/$DROPDEV/statistics/tx_dropped)
	sleep $WIN
	s1=$(cut -d' ' -f1 /proc/$napi/schedstat)
	c1=$(bpftool -j prog show name pb_receiver)
	d1=$(ip netns exec $DROPNS cat /sys/class/net/$DROPDEV/statistics/tx_dropped)
	if [ -n "$pid" ]; then
		wait $pid || echo "$r $label: exit $? ($(tail -1 "$T/err"))"
	else
		loop_stop
		# what the receiver made of the loop's frames: all counted, none refused or a duplicate
		ip netns exec $NRX python3 - "$RX_IP" "$PORT" <<'PY' >"$T/counted" 2>&1
import http.client, json, sys
c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5)
c.request("GET", "/v1/runs/%d" % 0x7E570001)
r = json.loads(c.getresponse().read())
print("counted %d" % r["frames"] + "".join(
    ", %s %d" % (k[7:], r[k]) for k in ("frames_duplicate", "frames_reordered",
                                          "frames_out_of_window", "frames_unchecked",
                                          "frames_corrupt", "frames_not_for_host") if r.get(k)))
PY
	fi
	kill -INT "$AGENT_PID"
	wait "$AGENT_PID"
	AGENT_PID=
	python3 - "$c0" "$c1" "$((s1 - s0))" "$((d1 - d0))" "$label" "$r" "$T/out.json" \
		"$WIN" "${KIND:-}" "$T/counted" <<'PY'
import json, sys
c0, c1 = (json.loads(a) for a in sys.argv[1:3])
c0, c1 = (c[0] if isinstance(c, list) else c for c in (c0, c1))
n = c1["run_cnt"] - c0["run_cnt"]
prog = (c1["run_time_ns"] - c0["run_time_ns"]) / n if n else float("nan")
cpu = int(sys.argv[3]) / n if n else float("nan")
try:
    r = json.load(open(sys.argv[7]))["results"][0]
    got = "delivered %9.0f pps" % (r["frames_delivered"] / r["duration_s"])
except Exception:  # -x: what the program ran on over the window
    got = "arrived   %9.0f pps of '%s'" % (n / int(sys.argv[8]), sys.argv[9])
try:  # -x: the receiver's own account of the loop's frames
    got += "  (" + open(sys.argv[10]).read().strip().splitlines()[-1][:100] + ")"
except Exception:
    pass
print("%-5s %-5s program %5.1f ns/frame  receiving CPU %6.1f ns/frame (%5.2f Mpps)  %s  veth tx_dropped %7s" % (
    sys.argv[6], sys.argv[5], prog, cpu, 1e3 / cpu if n else 0, got, sys.argv[4]))
PY
}

BMAC='' KIND=''
if [ -n "$THREADED" ]; then
	lab_down
	ip netns add $NRX || exit 1
	DROPNS=$NTX DROPDEV=$A
	if [ -z "$LOOP" ]; then
		ip netns add $NTX || exit 1
		ip link add $A netns $NTX type veth peer name $B netns $NRX || exit 1
		ip -n $NTX addr add $TX_IP/24 dev $A && ip -n $NTX link set $A up || exit 1
	else
		# pbrcG <-> pbrcH: the loop, on the sender's CPU; pbrcD <-> B: a copy of each turn
		LOOPO=$2/bench/ref_loop.bpf.o
		[ -e "$LOOPO" ] || { echo "rx-cost: no $LOOPO (cmake --build $2)" >&2; exit 2; }
		DROPNS=$NGEN DROPDEV=pbrcD
		ip netns add $NGEN || exit 1
		ip -n $NGEN link add pbrcG type veth peer name pbrcH || exit 1
		ip link add pbrcD netns $NGEN type veth peer name $B netns $NRX || exit 1
		for d in pbrcG pbrcH pbrcD; do ip -n $NGEN link set $d up || exit 1; done
	fi
	ip -n $NRX addr add $RX_IP/24 dev $B && ip -n $NRX link set $B up &&
		ip -n $NRX link set lo up || exit 1
	BMAC=$(ip netns exec $NRX cat /sys/class/net/$B/address)
	[ -n "$LOOP" ] || ip -n $NTX neigh replace $RX_IP lladdr "$BMAC" dev $A nud permanent || exit 1
fi
sysctl -qw kernel.bpf_stats_enabled=1
echo "rx-cost: base $1 ($("$1/pktbench" --version 2>/dev/null | head -1)), new $2 ($("$2/pktbench" --version 2>/dev/null | head -1)); $METHOD, $SECS s, $ROUNDS rounds; kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
failed=0
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
	for side in $order; do
		b=$1
		[ $side = new ] && b=$2
		if [ -n "$LOCK" ]; then
			exec 9>"$LOCK"
			flock 9
		fi
		if [ -n "$THREADED" ]; then
			one_t $side "$b" "$r" || failed=1
		else
			one $side "$b" "$r" || failed=1
		fi
		[ -n "$LOCK" ] && exec 9>&-
	done
done
exit $failed
