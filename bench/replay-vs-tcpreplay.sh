#!/bin/bash
# SPDX-License-Identifier: MIT
# pktbench --replay beside tcpreplay, in one run on one lab of its own, the same capture
# (a benchmark, not a test: its figures depend on the machine).
#
#   bench/replay-vs-tcpreplay.sh [-b BUILD_DIR] [-s SECS] [-r ROUNDS] [-m METHODS] [-M MIB]
#
# The lab: namespace pbrp-tx (veth pbrpA, 02:00:00:00:00:01) <-> pbrp-rx (pbrpB,
# 02:00:00:00:00:02, no address, no XDP: the stack drops what arrives). The capture is
# tests/net/pcapgen.py's: 10000 (for (a) 4000) 60-byte UDP frames 198.18.1.1 -> 198.19.9.9 at a constant
# 20 kpps (0.49995 s), to pbrpB's MAC, so tcpreplay sends it as it is and pktbench, told the
# same addresses and ports, rebuilds the same frames (plus its signature in the payload).
#   (a) topspeed: each generator loops the file for SECS s (pktbench --topspeed --loop 0
#       --duration SECS through each of METHODS, default af_packet,af_xdp; tcpreplay -K
#       --topspeed --loop 0 --duration SECS); pps is counted at the receiving end: pbrpB's
#       rx_packets, sampled every 50 ms, over the window from 0.5 s after the first frame to
#       the last sample before the count stops.
#   (b) timing: one pass of the file, original timing and --pps 20000, through the first of
#       METHODS and through tcpreplay (-K, its default timer); tcpdump on pbrpB with
#       nanosecond stamps; duration error = (last - first arrival) against the file's
#       0.49995 s; gap error = |arrival gap - 50 us|, its p50, p99 and max.
#   (c) memory, with -M MIB: a MIB-MiB file of 1514-byte frames (pcapgen.py --size-mib) sent
#       once at topspeed through the first of METHODS, streamed (--preload never) and
#       preloaded (--preload always), and through tcpreplay without -K (it reads as it goes)
#       and with -K (preloaded); the maximum RSS (GNU time) and pps at the receiver.
# Each figure is the median over ROUNDS rounds (generators take turns within a round).
# KEEP_RX=FILE keeps the last (b) capture. On a shared machine, run it alone (under whatever
# lock the machine's network tests share: flock -o LOCKFILE ...).
# Needs root, tcpreplay (Debian package tcpreplay), tcpdump (tcpdump), python3.
set -u
BUILD=build SECS=3 ROUNDS=3 METHODS=af_packet,af_xdp MIB=0
while getopts b:s:r:m:M:h o; do
	case $o in
	b) BUILD=$OPTARG ;;
	s) SECS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	m) METHODS=$OPTARG ;;
	M) MIB=$OPTARG ;;
	*) sed -n '4,6p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PB=$(cd "$BUILD" 2>/dev/null && pwd)/pktbench
[ -x "$PB" ] || { echo "replay-bench: no $BUILD/pktbench: cmake --build $BUILD first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "replay-bench: needs root (namespaces)" >&2; exit 2; }
for p in tcpreplay:tcpreplay tcpdump:tcpdump python3:python3 /usr/bin/time:time; do
	command -v "${p%%:*}" >/dev/null ||
		{ echo "replay-bench: ${p%%:*} not found (Debian package ${p#*:})" >&2; exit 2; }
done
TX=pbrp-tx RX=pbrp-rx
for ns in $TX $RX; do
	! ip netns list | grep -qw "$ns" || { echo "replay-bench: namespace $ns exists: another run?" >&2; exit 2; }
done
T=$(mktemp -d /tmp/pbrp.XXXXXX)
CAPPID=""
cleanup() {
	[ -n "$CAPPID" ] && kill -KILL "$CAPPID" 2>/dev/null
	ip netns del $TX 2>/dev/null
	ip netns del $RX 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add $TX && ip netns add $RX &&
	ip link add pbrpA netns $TX address 02:00:00:00:00:01 type veth \
		peer name pbrpB netns $RX address 02:00:00:00:00:02 || exit 1
for ns in $TX $RX; do
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n $ns link set lo up
done
ip -n $RX link set pbrpB up && ip -n $TX link set pbrpA up || exit 1
python3 "$HERE/../tests/net/pcapgen.py" "$T/c.pcap" --n 10000 --pps 20000 --format nsec >/dev/null || exit 1
# for (a), the first 4000 of them, as this table has always been made
python3 "$HERE/../tests/net/pcapgen.py" "$T/a.pcap" --n 4000 --pps 20000 --format nsec >/dev/null || exit 1
if [ "$MIB" -gt 0 ]; then
	python3 "$HERE/../tests/net/pcapgen.py" "$T/big.pcap" --n 1000 --payload 1472 --pps 1000000 \
		--format nsec --size-mib "$MIB" >/dev/null || exit 1
fi

PBARGS="--iface pbrpA --srcip 198.18.1.1 --dstip 198.19.9.9 --dstmac 02:00:00:00:00:02 \
--srcport 40000 --dstport 9 -q"
# sender GEN MODE: one run of generator GEN (pb_METHOD or tcpreplay) in mode topspeed|orig|pps
sender() {
	local g=$1 mode=$2 a f=c.pcap k=-K
	[ "$mode" != topspeed ] || f=a.pcap
	case $mode in
	disk | mem)
		# (c): one pass of the big file at topspeed, under GNU time
		f=big.pcap
		[ "$mode" = disk ] && k=""
		if [ "${g%K}" = tcpreplay ]; then
			[ "$g" = tcpreplayK ] || k=""
			# shellcheck disable=SC2086
			ip netns exec $TX /usr/bin/time -f %M -o "$T/rss" tcpreplay -q -i pbrpA $k \
				--topspeed "$T/$f" >"$T/gen.log" 2>&1
		else
			[ "$mode" = disk ] && a="--preload never" || a="--preload always"
			# shellcheck disable=SC2086
			ip netns exec $TX /usr/bin/time -f %M -o "$T/rss" "$PB" --method "${g#pb_}" \
				--replay "$T/$f" --topspeed $a $PBARGS --format json -o "$T/gen.json" \
				>"$T/gen.log" 2>&1
		fi
		return
		;;
	esac
	if [ "$g" = tcpreplay ]; then
		case $mode in
		topspeed) a="--topspeed --loop 0 --duration $SECS" ;;
		orig) a="" ;;
		pps) a="--pps 20000" ;;
		esac
		# shellcheck disable=SC2086
		ip netns exec $TX tcpreplay -q -i pbrpA -K $a "$T/$f" >"$T/gen.log" 2>&1
	else
		case $mode in
		topspeed) a="--topspeed --loop 0 --duration $SECS" ;;
		orig) a="" ;;
		pps) a="--pps 20000" ;;
		esac
		# shellcheck disable=SC2086
		ip netns exec $TX "$PB" --method "${g#pb_}" --replay "$T/$f" $a $PBARGS \
			--format json -o "$T/gen.json" >"$T/gen.log" 2>&1
	fi
}

# rate at the receiving end while SENDER runs: prints pps
rx_rate() {
	rm -f "$T/stop"
	ip netns exec $RX python3 - "$T/stop" <<'PY' &
import os, sys, time
f = "/sys/class/net/pbrpB/statistics/rx_packets"
def rd():
    with open(f) as h:
        return int(h.read())
s = []
base = rd()
while not os.path.exists(sys.argv[1]):  # until the sender has returned
    s.append((time.monotonic(), rd()))
    time.sleep(0.05)
s.append((time.monotonic(), rd()))
first = next((i for i, (t, c) in enumerate(s) if c > base), None)
if first is None:
    print(0)
    sys.exit(0)
last = max(i for i, (t, c) in enumerate(s) if c != s[-1][1] or i == len(s) - 1) - 1
start = next((i for i in range(first, last) if s[i][0] >= s[first][0] + 0.5), first)
t0, c0 = s[start]
t1, c1 = s[last]
with open("/dev/stdout", "w") as o:
    o.write("%.0f\n" % ((c1 - c0) / (t1 - t0) if t1 > t0 else 0))
PY
	local sp=$!
	sleep 0.2
	sender "$@"
	sleep 0.2
	touch "$T/stop"
	wait $sp
}

# one pass with tcpdump on pbrpB; prints "frames duration_error_% gap_p50 gap_p99 gap_max"
timed() {
	ip netns exec $RX tcpdump -i pbrpB --time-stamp-precision nano --immediate-mode -B 65536 -U -w "$T/rx.pcap" \
		udp >/dev/null 2>"$T/td.log" &
	CAPPID=$!
	for _ in $(seq 100); do grep -q 'listening on' "$T/td.log" && break; sleep 0.05; done
	sender "$@"
	sleep 1 # the capture has its last frames before it is stopped
	kill -INT $CAPPID
	wait $CAPPID 2>/dev/null
	CAPPID=""
	[ -z "${KEEP_RX:-}" ] || cp "$T/rx.pcap" "$KEEP_RX"
	python3 - "$T/rx.pcap" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
assert struct.unpack("<I", b[:4])[0] == 0xA1B23C4D, "want a nanosecond pcap"
off, ts = 24, []
while off + 16 <= len(b):
    sec, ns, incl, _ = struct.unpack("<IIII", b[off:off + 16])
    ts.append(sec * 10**9 + ns)
    off += 16 + incl
file_ns = 9999 * 50000
g = sorted(abs((ts[i + 1] - ts[i]) - 50000) / 1000 for i in range(len(ts) - 1))
q = lambda p: g[min(len(g) - 1, int(p * len(g)))]
print("%d %.4f %.2f %.2f %.1f" % (len(ts), ((ts[-1] - ts[0]) - file_ns) / file_ns * 100,
                                  q(0.5), q(0.99), g[-1]))
PY
}

FIRST=${METHODS%%,*}
GENS_A="$(echo "$METHODS" | tr , ' ' | sed 's/\([^ ]*\)/pb_\1/g') tcpreplay"
echo "# $(uname -r), $(nproc) CPUs, pktbench $("$PB" --version 2>/dev/null | head -1), $(tcpreplay --version 2>&1 | head -1)"
echo "# $0 -s $SECS -r $ROUNDS -m $METHODS"
for r in $(seq "$ROUNDS"); do
	for g in $GENS_A; do
		echo "a $g $(rx_rate "$g" topspeed)" >>"$T/res"
	done
	for g in "pb_$FIRST" tcpreplay; do
		for m in orig pps; do
			echo "b $g $m $(timed "$g" "$m")" >>"$T/res"
		done
	done
	[ "$MIB" -gt 0 ] || continue
	for gm in "pb_$FIRST disk" "pb_$FIRST mem" "tcpreplay disk" "tcpreplayK mem"; do
		# shellcheck disable=SC2086
		pps=$(rx_rate $gm)
		echo "c $gm $pps $(tail -1 "$T/rss")" >>"$T/res"
	done
done
python3 - "$T/res" <<'PY'
import statistics, sys
a, b = {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "a" and len(f) == 3:
        a.setdefault(f[1], []).append(float(f[2]))
    elif f[0] == "b" and len(f) == 8:
        b.setdefault((f[1], f[2]), []).append([float(x) for x in f[3:]])
c = {}
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "c" and len(f) == 5:
        c.setdefault((f[1], f[2]), []).append((float(f[3]), float(f[4])))
name = lambda g: "pktbench --method " + g[3:] if g.startswith("pb_") else "tcpreplay -K"
print("\n(a) --topspeed, 60-byte frames, pps at the receiver (median of %d)\n" % len(next(iter(a.values()))))
print("| generator | pps at the receiver | each round |")
print("|---|---:|---|")
for g, v in a.items():
    print("| %s | %.0f | %s |" % (name(g), statistics.median(v), ", ".join("%.0f" % x for x in v)))
print("\n(b) one pass of 10000 frames at 20 kpps, stamps at the receiver (medians)\n")
print("| generator | timing | frames seen | duration error | gap error p50 | gap error p99 | gap error max |")
print("|---|---|---:|---:|---:|---:|---:|")
for (g, m), v in b.items():
    med = [statistics.median(x) for x in zip(*v)]
    print("| %s | %s | %.0f | %+.3f %% | %.2f us | %.2f us | %.1f us |" % (
        name(g), "original" if m == "orig" else "--pps 20000", *med))
if c:
    print("\n(c) one pass of a large file of 1514-byte frames at topspeed (medians)\n")
    print("| generator | reads the file | maximum RSS | pps at the receiver |")
    print("|---|---|---:|---:|")
    for (g, m), v in c.items():
        gen = ("pktbench --method %s --preload %s" % (g[3:], "never" if m == "disk" else "always")
               if g.startswith("pb_") else "tcpreplay" + (" -K" if g.endswith("K") else ""))
        print("| %s | %s | %.0f MiB | %.0f |" % (
            gen, "as it sends" if m == "disk" else "into memory first",
            statistics.median(x[1] for x in v) / 1024, statistics.median(x[0] for x in v)))
PY
