#!/bin/bash
# SPDX-License-Identifier: MIT
# pktbench --replay beside tcpreplay, in one run on one lab of its own, the same captures
# (a benchmark, not a test: its figures depend on the machine).
#
#   bench/replay-vs-tcpreplay.sh [-b BUILD_DIR] [-s SECS] [-r ROUNDS] [-m METHODS] [-M MIB]
#                                [-n FRAMES] [-k real|mixed] [-R nft|stack] [-P]
#
# The lab: namespace pbrp-tx (veth pbrpA, 02:00:00:00:00:01) <-> pbrp-rx (pbrpB,
# 02:00:00:00:00:02: no address, IPv6 and forwarding off, no XDP). With -R nft (the default)
# an nftables netdev ingress chain on pbrpB drops every frame: a packet socket (tcpdump) sees
# each frame before it, the stack none, so nothing answers a capture's ARP, ICMP or TCP into
# the measurement; rx_packets counts every frame the veth hands over. -R stack leaves the
# chain out: the stack drops what arrives (no address to answer from), as this script's
# figures before 2026-12-04 were made; the receiving CPU's work a frame is then larger. The
# end says what came back (frames into pbrpA, packets into and out of the receiver's stack).
# Every capture is tests/net/pcapgen.py's, every address in it inside 198.18.0.0/15 or
# 2001:2::/48, every destination MAC pbrpB's (tcpreplay sends a frame as it is; pktbench
# writes the path's destination and its run's source MAC 72:SS:RUNID).
#   (a) topspeed, UDP: 4000 60-byte UDP frames 198.18.1.1 -> 198.19.9.9, looped for SECS s by
#       each generator (pktbench --topspeed --loop 0 --duration SECS through each of METHODS,
#       default af_packet,af_xdp; tcpreplay -K --topspeed --loop 0 --duration SECS); pps is
#       counted at the receiving end: pbrpB's rx_packets, sampled every 50 ms, over the window
#       from 0.5 s after the first frame to the last sample before the count stops.
#   (b) timing, UDP: one pass of 10000 such frames at a constant 20 kpps (0.49995 s), original
#       timing and --pps 20000, through the first of METHODS and tcpreplay (-K, its default
#       timer); tcpdump on pbrpB with nanosecond stamps; duration error = (last - first
#       arrival) against the file's 0.49995 s; gap error = |arrival gap - 50 us|, its p50, p99
#       and max.
#   (c) memory, with -M MIB: a MIB-MiB capture of mixed sizes (-k real, the default: the
#       FRAMES frames of (d) written over and over, pcapgen.py --kind real --size-mib; -k mixed:
#       UDP payloads 18, 554, 1472, 100 in turn, --kind mixed --size-mib) sent once at
#       topspeed: pktbench --preload always through each of METHODS, --preload never and
#       --preload auto through the first; tcpreplay without -K (it reads as it goes) and with
#       -K (preloaded); the maximum RSS (GNU time %M) against the file's size, pps and frames
#       at the receiver, and where pktbench says it read the frames from (replay.source).
#   (d) topspeed, a real mix: FRAMES (default 10000) frames of pcapgen.py --kind real (TCP
#       ~60 %, UDP, 802.1Q UDP, IPv6 UDP and TCP, ARP, ICMP and ICMPv6, IPv4 fragments, short
#       UDP, EtherType 0x88b5) at 20 kpps, looped for SECS s as in (a): pktbench through each of
#       METHODS, tcpreplay -K --topspeed; pps at the receiver as in (a). With -P, each of
#       METHODS also streamed from disk (--preload never) right after its preloaded run, in
#       the same round: preloaded against streamed, one method at a time (issue 46: pcap
#       went slower preloaded than streamed); the end gives each round's ratio and the
#       streamed run's reader_waits (a streamed sender waiting for its reader thread).
#   (e) timing and kinds, a real mix: one pass of (d)'s file with its own timing, through each
#       of METHODS and tcpreplay -K; tcpdump on pbrpB (every frame, nanosecond stamps):
#       duration error against the file's (FRAMES - 1) / 20 kpps, gap errors, and the frames on
#       the wire by kind (pcapgen.py's names) against the file's, and how many are the file's
#       byte for byte from the EtherType on (the MACs aside).
# Each figure is the median over ROUNDS rounds (generators take turns within a round); the
# end says which of issue 29's acceptance figures are met: (d) pktbench af_xdp >= 3 x
# tcpreplay -K; (e) pktbench's duration error <= 1/10 of tcpreplay's; (c) preloaded <= 1.25 x
# the file, streamed <= 64 MiB (for a 500 MiB file); and issue 46's, with -P: (d) each method
# at least as fast preloaded as streamed.
# KEEP_RX=DIR keeps the last capture of each (b) and (e) run there, KEEP_RES=FILE the raw
# result lines. On a shared machine, run it alone (under whatever lock the machine's network
# tests share: flock -o LOCKFILE ...). Large files go under /tmp (mktemp), removed at the end,
# with the namespaces, also on failure. -M 500 took 198 s on a 2-core VM; -s 1 -r 1 -n 2000
# -M 20, 27 s.
# Needs root, tcpreplay (Debian package tcpreplay), tcpdump (tcpdump), nft (nftables; not for
# -R stack), python3.
set -u
BUILD=build SECS=3 ROUNDS=3 METHODS=af_packet,af_xdp MIB=0 NREAL=10000 MKIND=real RECV=nft
BOTH=0
while getopts b:s:r:m:M:n:k:R:Ph o; do
	case $o in
	b) BUILD=$OPTARG ;;
	s) SECS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	m) METHODS=$OPTARG ;;
	M) MIB=$OPTARG ;;
	n) NREAL=$OPTARG ;;
	k) MKIND=$OPTARG ;;
	R) RECV=$OPTARG ;;
	P) BOTH=1 ;;
	*) sed -n '6,7p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
case $MKIND in real | mixed) ;; *) echo "replay-bench: -k real or mixed" >&2; exit 2 ;; esac
case $RECV in nft | stack) ;; *) echo "replay-bench: -R nft or stack" >&2; exit 2 ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
GEN="$HERE/../tests/net/pcapgen.py"
PB=$(cd "$BUILD" 2>/dev/null && pwd)/pktbench
[ -x "$PB" ] || { echo "replay-bench: no $BUILD/pktbench: cmake --build $BUILD first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "replay-bench: needs root (namespaces)" >&2; exit 2; }
# Debian's python3 first: another first on PATH (pyenv's shim) can take most of a second to start
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
for p in tcpreplay:tcpreplay tcpdump:tcpdump python3:python3 /usr/bin/time:time \
	$([ "$RECV" = nft ] && echo nft:nftables); do
	command -v "${p%%:*}" >/dev/null ||
		{ echo "replay-bench: ${p%%:*} not found (Debian package ${p#*:})" >&2; exit 2; }
done
TX=pbrp-tx RX=pbrp-rx RXMAC=02:00:00:00:00:02
for ns in $TX $RX; do
	! ip netns list | grep -qw "$ns" || { echo "replay-bench: namespace $ns exists: another run?" >&2; exit 2; }
done
START=$(date +%s)
T=$(mktemp -d /tmp/pbrp.XXXXXX)
CAPPID="" RATEPID=""
cleanup() {
	[ -n "$CAPPID" ] && kill -KILL "$CAPPID" 2>/dev/null
	[ -n "$RATEPID" ] && kill -KILL "$RATEPID" 2>/dev/null
	ip netns del $TX 2>/dev/null
	ip netns del $RX 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add $TX && ip netns add $RX &&
	ip link add pbrpA netns $TX address 02:00:00:00:00:01 type veth \
		peer name pbrpB netns $RX address $RXMAC || exit 1
for ns in $TX $RX; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
		net.ipv4.conf.all.forwarding=0 || exit 1
	ip -n "$ns" link set lo up
done
ip netns exec $TX sysctl -qw net.ipv6.conf.pbrpA.disable_ipv6=1 &&
	ip netns exec $RX sysctl -qw net.ipv6.conf.pbrpB.disable_ipv6=1 || exit 1
# the receiver's stack sees nothing: dropped at netdev ingress, after the packet taps
[ "$RECV" = stack ] || ip netns exec $RX nft -f - <<'NFT' || exit 1
table netdev pbrp {
	chain in {
		type filter hook ingress device "pbrpB" priority 0; policy drop;
	}
}
NFT
ip -n $RX link set pbrpB up && ip -n $TX link set pbrpA up || exit 1
if ip -n $RX addr show dev pbrpB | grep -q inet || ip -n $TX addr show dev pbrpA | grep -q inet; then
	echo "replay-bench: an address on the lab's veth: refusing" >&2
	exit 1
fi

# setdst.py PCAP MAC: every record's destination MAC, in place (pcap, micro or nanosecond)
cat >"$T/setdst.py" <<'PY'
import mmap, struct, sys
mac = bytes.fromhex(sys.argv[2].replace(":", ""))
with open(sys.argv[1], "r+b") as f, mmap.mmap(f.fileno(), 0) as m:
    assert struct.unpack("<I", m[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D), "want a pcap"
    off, n = 24, len(m)
    while off + 16 <= n:
        incl = struct.unpack_from("<I", m, off + 8)[0]
        if incl >= 6 and off + 16 + incl <= n:
            m[off + 16:off + 22] = mac
        off += 16 + incl
PY
# pcapgen.py's --kind real, to pbrpB's MAC
real_file() { # OUT: pcapgen.py's JSON in OUT.json
	"$PY" "$GEN" "$1" --kind real --format nsec "${@:2}" >"$1.json" &&
		"$PY" "$T/setdst.py" "$1" $RXMAC
}

"$PY" "$GEN" "$T/c.pcap" --n 10000 --pps 20000 --format nsec >/dev/null || exit 1
# for (a), the first 4000 of them, as this table has always been made
"$PY" "$GEN" "$T/a.pcap" --n 4000 --pps 20000 --format nsec >/dev/null || exit 1
real_file "$T/r.pcap" --n "$NREAL" --pps 20000 || exit 1
if [ "$MIB" -gt 0 ]; then
	if [ "$MKIND" = real ]; then
		real_file "$T/big.pcap" --n "$NREAL" --pps 1000000 --size-mib "$MIB" || exit 1
	else
		"$PY" "$GEN" "$T/big.pcap" --n 1000 --kind mixed --pps 1000000 --format nsec \
			--size-mib "$MIB" >"$T/big.pcap.json" || exit 1
	fi
fi

# wire.py CAPTURE FILE GAP_NS [kinds]: one line, "frames duration_error_% gap_p50 gap_p99
# gap_max" (us; gaps against GAP_NS, the duration against (file's frames - 1) x GAP_NS), and
# with kinds also a JSON of the frames by kind and how many are a frame of FILE byte for byte
# but for the MACs (a multiset). kinds.py FILE: the file's kinds, the same way.
cat >"$T/wire.py" <<'PY'
import collections, json, struct, sys


def records(path):
    b = open(path, "rb").read()
    magic = struct.unpack("<I", b[:4])[0]
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), "want a pcap"
    mul = 1 if magic == 0xA1B23C4D else 1000
    off, out = 24, []
    while off + 16 <= len(b):
        sec, sub, incl, _ = struct.unpack("<IIII", b[off:off + 16])
        out.append((sec * 10**9 + sub * mul, b[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


def kind(f):
    """pcapgen.py's kinds (--kind real), read from the bytes."""
    et, off, vlan = struct.unpack("!H", f[12:14])[0], 14, False
    if et == 0x8100:
        et, off, vlan = struct.unpack("!H", f[16:18])[0], 18, True
    if et == 0x0806:
        return "arp"
    if et == 0x88B5:
        return "other_ethertype"
    if et == 0x0800:
        ihl = (f[off] & 15) * 4
        proto, frag = f[off + 9], struct.unpack("!H", f[off + 6:off + 8])[0]
        if frag & 0x3FFF:  # MF or an offset
            return "frag4"
        if proto == 1:
            return "icmp4"
        if proto == 6:
            return "tcp4"
        if proto == 17:
            if vlan:
                return "udp4_vlan"
            ulen = struct.unpack("!H", f[off + ihl + 4:off + ihl + 6])[0]
            return "short_udp4" if ulen < 16 else "udp4"
    if et == 0x86DD:
        return {58: "icmp6", 6: "tcp6", 17: "udp6"}.get(f[off + 6], "unknown")
    return "unknown"


if sys.argv[1] == "kinds":
    c = collections.Counter(kind(f) for _, f in records(sys.argv[2]))
    print(json.dumps(dict(c), separators=(",", ":")))
    sys.exit(0)
rx, gap = records(sys.argv[1]), int(sys.argv[3])
if not rx:
    print("0 nan nan nan nan" + (" {} 0" if len(sys.argv) > 4 else ""))
    sys.exit(0)
fl = records(sys.argv[2])
ts = [t for t, _ in rx]
file_ns = (len(fl) - 1) * gap
g = sorted(abs((ts[i + 1] - ts[i]) - gap) / 1000 for i in range(len(ts) - 1)) or [0]
q = lambda p: g[min(len(g) - 1, int(p * len(g)))]
line = "%d %.4f %.2f %.2f %.1f" % (len(ts), ((ts[-1] - ts[0]) - file_ns) / file_ns * 100,
                                   q(0.5), q(0.99), g[-1])
if len(sys.argv) > 4:
    kinds = collections.Counter(kind(f) for _, f in rx)
    left = collections.Counter(f[12:] for _, f in fl)
    same = 0
    for _, f in rx:
        if left[f[12:]] > 0:
            left[f[12:]] -= 1
            same += 1
    line += " %s %d" % (json.dumps(dict(kinds), separators=(",", ":")), same)
print(line)
PY

PBARGS="--iface pbrpA --srcip 198.18.1.1 --dstip 198.19.9.9 --dstmac $RXMAC --srcport 40000 \
--dstport 9 -q"
# sender GEN MODE: one run of generator GEN (pb_METHOD, tcpreplay, tcpreplayK) in MODE:
#   topspeed (a.pcap looped), orig|pps (c.pcap, one pass), rtop (r.pcap looped; rtopdisk:
#   streamed from disk, --preload never), rorig (r.pcap, one pass, its own timing), always|never|auto|disk|mem (big.pcap, one pass at topspeed under
#   GNU time: pktbench's --preload, tcpreplay without -K (disk) or with (mem))
sender() {
	local g=$1 mode=$2 a f k=-K
	case $mode in
	topspeed) f=a.pcap a="--topspeed --loop 0 --duration $SECS" ;;
	orig) f=c.pcap a="" ;;
	pps) f=c.pcap a="--pps 20000" ;;
	rtop) f=r.pcap a="--topspeed --loop 0 --duration $SECS" ;;
	rtopdisk) f=r.pcap a="--topspeed --loop 0 --duration $SECS --preload never" ;;
	rorig) f=r.pcap a="" ;;
	*)
		f=big.pcap
		if [ "${g%K}" = tcpreplay ]; then
			[ "$g" = tcpreplayK ] || k=""
			# shellcheck disable=SC2086
			ip netns exec $TX /usr/bin/time -f %M -o "$T/rss" tcpreplay -q -i pbrpA $k \
				--topspeed "$T/$f" >"$T/gen.log" 2>&1
		else
			# shellcheck disable=SC2086
			ip netns exec $TX /usr/bin/time -f %M -o "$T/rss" "$PB" --method "${g#pb_}" \
				--replay "$T/$f" --topspeed --preload "$mode" $PBARGS --format json \
				-o "$T/gen.json" >"$T/gen.log" 2>&1
		fi
		return
		;;
	esac
	rm -f "$T/gen.json"
	if [ "${g%K}" = tcpreplay ]; then
		# shellcheck disable=SC2086
		ip netns exec $TX tcpreplay -q -i pbrpA -K $a "$T/$f" >"$T/gen.log" 2>&1
	else
		# shellcheck disable=SC2086
		ip netns exec $TX "$PB" --method "${g#pb_}" --replay "$T/$f" $a $PBARGS \
			--format json -o "$T/gen.json" >"$T/gen.log" 2>&1
	fi
}

# rate at the receiving end while SENDER runs: writes "pps frames" (frames: all it counted) to
# $T/out (these run in the script's own shell, so that cleanup knows what they started).
# pps over the window from 0.5 s after the first frame to the last sample before the count
# stops; for a one-pass run (WHOLE=1), from the last sample before the first frame to the
# first sample at the final count (the whole pass, to 50 ms)
rx_rate() {
	rm -f "$T/stop" "$T/ready"
	ip netns exec $RX "$PY" - "$T/stop" "$T/ready" "${WHOLE:-0}" >"$T/out" <<'PY' &
import os, sys, time
f = "/sys/class/net/pbrpB/statistics/rx_packets"
def rd():
    with open(f) as h:
        return int(h.read())
s = []
base = rd()
open(sys.argv[2], "w").close()  # the base is read: the sender may start
while not os.path.exists(sys.argv[1]):  # until the sender has returned
    s.append((time.monotonic(), rd()))
    time.sleep(0.05)
s.append((time.monotonic(), rd()))
first = next((i for i, (t, c) in enumerate(s) if c > base), None)
if first is None:
    print("0 0")
    sys.exit(0)
if sys.argv[3] == "1":
    start = max(first - 1, 0)
    last = next(i for i, (t, c) in enumerate(s) if c == s[-1][1])
else:
    last = max(i for i, (t, c) in enumerate(s) if c != s[-1][1] or i == len(s) - 1) - 1
    start = next((i for i in range(first, last) if s[i][0] >= s[first][0] + 0.5), first)
t0, c0 = s[start]
t1, c1 = s[last]
print("%.0f %d" % ((c1 - c0) / (t1 - t0) if t1 > t0 else 0, s[-1][1] - base))
PY
	RATEPID=$!
	for _ in $(seq 200); do [ -e "$T/ready" ] && break; sleep 0.05; done
	sleep 0.1
	sender "$@"
	sleep 0.2
	touch "$T/stop"
	wait $RATEPID
	RATEPID=""
}

# timed GEN MODE: one pass with tcpdump on pbrpB (UDP only for orig|pps, every frame for
# rorig); writes wire.py's line, the frames tcpdump says the kernel dropped, and pbrpB's
# rx_packets over the pass, to $T/out. A snap length of 2048 keeps libpcap's ring slots small
# (with the veth's offloads on it sizes them for 256 KiB frames otherwise: 256 slots in 64 MiB,
# a 13 ms stall of tcpdump at 20 kpps)
timed() {
	local filt=udp file=c.pcap extra=""
	if [ "$2" = rorig ]; then
		filt="" file=r.pcap extra=kinds
	fi
	# shellcheck disable=SC2086
	local rx0 drops
	rx0=$(ip netns exec $RX cat /sys/class/net/pbrpB/statistics/rx_packets)
	ip netns exec $RX tcpdump -i pbrpB -Q in --time-stamp-precision nano --immediate-mode \
		-s 2048 -B 65536 -U -w "$T/rx.pcap" $filt >/dev/null 2>"$T/td.log" &
	CAPPID=$!
	for _ in $(seq 100); do grep -q 'listening on' "$T/td.log" && break; sleep 0.05; done
	sender "$@"
	sleep 1 # the capture has its last frames before it is stopped
	kill -INT $CAPPID
	wait $CAPPID 2>/dev/null
	CAPPID=""
	[ -z "${KEEP_RX:-}" ] || { mkdir -p "$KEEP_RX" && cp "$T/rx.pcap" "$KEEP_RX/$2-$1.pcap"; }
	# shellcheck disable=SC2086
	drops=$(sed -n 's/^\([0-9]*\) packets\{0,1\} dropped by kernel.*/\1/p' "$T/td.log" | head -1)
	echo "$("$PY" "$T/wire.py" "$T/rx.pcap" "$T/$file" 50000 $extra) ${drops:--}" \
		"$(($(ip netns exec $RX cat /sys/class/net/pbrpB/statistics/rx_packets) - rx0))" >"$T/out"
}

# from pktbench's JSON row: "frames_sent source" (- - when there is none)
pb_row() {
	"$PY" - "$T/gen.json" <<'PY' 2>/dev/null || echo "- -"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(r.get("frames_sent", "-"), ((r.get("replay") or {}).get("source") or "-"))
PY
}

# from pktbench's JSON row: replay.reader_waits, the times a streamed sender found its window
# empty (- when there is none): a streamed run bound by its reader thread shows here
pb_waits() {
	"$PY" - "$T/gen.json" <<'PY' 2>/dev/null || echo "-"
import json, sys
print(json.load(open(sys.argv[1]))["results"][0]["replay"]["reader_waits"])
PY
}

FIRST=${METHODS%%,*}
GENS_A="$(echo "$METHODS" | tr , ' ' | sed 's/\([^ ]*\)/pb_\1/g') tcpreplay"
"$PY" "$T/wire.py" kinds "$T/r.pcap" >"$T/r.kinds" || exit 1
{
	echo "# $(date -u +%F), $(uname -r), $(nproc) CPUs, pktbench $("$PB" --version 2>/dev/null | head -1)," \
		"$(tcpreplay --version 2>&1 | head -1), $(tcpdump --version 2>&1 | head -1)"
	echo "# $0 -s $SECS -r $ROUNDS -m $METHODS -n $NREAL -R $RECV$([ "$MIB" -gt 0 ] && echo " -M $MIB -k $MKIND")"
	echo "# real mix (d, e): $(cat "$T/r.pcap.json")"
	[ "$MIB" -gt 0 ] && echo "# memory (c): $(cat "$T/big.pcap.json"), $(stat -c %s "$T/big.pcap") bytes on disk"
} | tee "$T/head"
for r in $(seq "$ROUNDS"); do
	for g in $GENS_A; do
		rx_rate "$g" topspeed
		echo "a $g $(cat "$T/out")" >>"$T/res"
	done
	for g in "pb_$FIRST" tcpreplay; do
		for m in orig pps; do
			timed "$g" "$m"
			echo "b $g $m $(cat "$T/out")" >>"$T/res"
		done
	done
	for g in $GENS_A; do
		rx_rate "$g" rtop
		echo "d $g $(cat "$T/out")" >>"$T/res"
		if [ "$BOTH" = 1 ] && [ "$g" != tcpreplay ]; then
			rx_rate "$g" rtopdisk
			echo "d $g@disk $(cat "$T/out") $(pb_waits)" >>"$T/res"
		fi
	done
	for g in $GENS_A; do
		timed "$g" rorig
		echo "e $g $(cat "$T/out")" >>"$T/res"
	done
	if [ "$MIB" -gt 0 ]; then
		for gm in $(echo "$METHODS" | tr , ' ' | sed 's/\([^ ]*\)/pb_\1:always/g') "pb_$FIRST:never" \
			"pb_$FIRST:auto" tcpreplay:disk tcpreplayK:mem; do
			rm -f "$T/rss" "$T/gen.json"
			WHOLE=1 rx_rate "${gm%:*}" "${gm#*:}"
			echo "c ${gm%:*} ${gm#*:} $(cat "$T/out") $(tail -1 "$T/rss" 2>/dev/null || echo 0)" \
				"$([ "${gm#pb_}" != "$gm" ] && pb_row || echo "- -")" >>"$T/res"
		done
	fi
	echo "# round $r of $ROUNDS done, $(($(date +%s) - START)) s" >&2
done
cp "$T/res" "${KEEP_RES:-/dev/null}" 2>/dev/null
# what came back, and what the receiver's stack took in and sent: 0, 0, 0 with -R nft
ipstat() { # NAME: the receiver namespace's Ip counter NAME (/proc/net/snmp)
	# shellcheck disable=SC2016
	ip netns exec $RX awk -v n="$1" '/^Ip: [A-Z]/ { for (i = 2; i <= NF; i++) h[i] = $i }
		/^Ip: [0-9]/ { for (i = 2; i <= NF; i++) if (h[i] == n) print $i }' /proc/net/snmp
}
echo "# the lab at the end: pbrpA (the sender's end) received $(ip netns exec $TX cat \
/sys/class/net/pbrpA/statistics/rx_packets) frames; the receiver's IPv4 stack took in\
 $(ipstat InReceives) packets and sent $(ipstat OutRequests); pbrpB sent $(ip netns exec $RX \
cat /sys/class/net/pbrpB/statistics/tx_packets) frames"
"$PY" - "$T/res" "$T/r.pcap.json" "$T/r.kinds" "$T/big.pcap" "$NREAL" <<'PY'
import json, os, statistics, sys
res, gen, fkinds = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
big, nreal = sys.argv[4], int(sys.argv[5])
rows = [line.split() for line in open(res)]
med = statistics.median
name = lambda g: ("pktbench --method " + g[3:].replace("@disk", " --preload never")
                  if g.startswith("pb_") else "tcpreplay -K")
def num(x):
    try:
        return float(x)
    except ValueError:
        return float("nan")

a, b, c, d, e, dw = {}, {}, {}, {}, {}, {}
for f in rows:
    if f[0] == "a" and len(f) == 4:
        a.setdefault(f[1], []).append(num(f[2]))
    elif f[0] == "d" and len(f) in (4, 5):  # pps frames [reader_waits: -P's streamed runs]
        d.setdefault(f[1], []).append(num(f[2]))
        if len(f) == 5:
            dw.setdefault(f[1], []).append(f[4])
    elif f[0] == "b" and len(f) == 10:  # frames dur p50 p99 max, tcpdump's drops, rx_packets
        b.setdefault((f[1], f[2]), []).append([num(x) for x in f[3:10]])
    elif f[0] == "e" and len(f) == 11:  # the same, with the kinds and the file's byte for byte
        e.setdefault(f[1], []).append(([num(x) for x in f[2:7]], json.loads(f[7]), int(f[8]),
                                       num(f[9]), num(f[10])))
    elif f[0] == "c" and len(f) == 8:
        c.setdefault((f[1], f[2]), []).append((num(f[3]), int(f[4]), num(f[5]), f[6], f[7]))
verdict = []

def rounds(v, fmt="%.0f"):
    return ", ".join(fmt % x for x in v)

print("\n(a) --topspeed, 60-byte UDP frames, pps at the receiver (median of %d)\n" % len(next(iter(a.values()))))
print("| generator | pps at the receiver | each round |")
print("|---|---:|---|")
for g, v in a.items():
    print("| %s | %.0f | %s |" % (name(g), med(v), rounds(v)))

print("\n(b) one pass of 10000 UDP frames at 20 kpps, stamps at the receiver (medians)\n")
print("| generator | timing | frames seen | duration error | gap error p50 | gap error p99 | gap error max | duration error, each round |")
print("|---|---|---:|---:|---:|---:|---:|---|")
for (g, m), v in b.items():
    mm = [med(x) for x in zip(*v)]
    print("| %s | %s | %.0f | %+.3f %% | %.2f us | %.2f us | %.1f us | %s |" % (
        name(g), "original" if m == "orig" else "--pps 20000", *mm[:5],
        rounds([x[1] for x in v], "%+.3f %%")))
    if any(x[0] != 10000 or x[5] != 0 or x[6] != 10000 for x in v):
        print("  note: %s %s: %s frames at the receiver (rx_packets), %s captured, tcpdump dropped %s" % (
            name(g), m, rounds([x[6] for x in v]), rounds([x[0] for x in v]), rounds([x[5] for x in v])))

if d:
    print("\n(d) --topspeed, the real mix (%d frames looped), pps at the receiver (median of %d)\n" % (
        gen["frames"], len(next(iter(d.values())))))
    print("| generator | pps at the receiver | each round |")
    print("|---|---:|---|")
    for g, v in d.items():
        print("| %s | %.0f | %s |" % (name(g), med(v), rounds(v)))
    tr = med(d["tcpreplay"]) if "tcpreplay" in d else 0
    for g, v in d.items():
        if g + "@disk" in d:  # -P: preloaded against streamed, the same rounds
            sv = med(d[g + "@disk"])
            verdict.append("(d) %s preloaded %.0f pps, streamed %.0f pps (%.2f x): %s (want "
                           "preloaded >= streamed)" % (name(g), med(v), sv, med(v) / sv if sv else 0,
                                                       "met" if med(v) >= sv else "NOT MET"))
            # each round's own ratio (the two runs are back to back), and how often the
            # streamed sender waited for its reader thread
            verdict.append("    preloaded / streamed each round: %s; streamed reader_waits: %s" % (
                rounds([p / q if q else 0 for p, q in zip(v, d[g + "@disk"])], "%.3f"),
                ", ".join(dw.get(g + "@disk", ["-"]))))
        if g.startswith("pb_") and "@" not in g and tr:
            verdict.append("(d) %s %.0f pps = %.2f x tcpreplay -K's %.0f%s" % (
                name(g), med(v), med(v) / tr, tr,
                (": %s (want >= 3 x)" % ("met" if med(v) >= 3 * tr else "NOT MET"))
                if g == "pb_af_xdp" else ""))

if e:
    fdur = gen["duration_s"]
    print("\n(e) one pass of the real mix (%d frames, %.5f s at 20 kpps), its own timing, stamps "
          "at the receiver (medians of %d)\n" % (gen["frames"], fdur, len(next(iter(e.values())))))
    print("| generator | frames at the receiver | captured | the file's, byte for byte | duration error | gap error p50 | gap error p99 | gap error max | duration error, each round |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for g, v in e.items():
        mm = [med(x) for x in zip(*(x[0] for x in v))]
        print("| %s | %.0f | %.0f | %.0f | %+.3f %% | %.2f us | %.2f us | %.1f us | %s |" % (
            name(g), med(x[4] for x in v), mm[0], med(x[2] for x in v), *mm[1:],
            rounds([x[0][1] for x in v], "%+.3f %%")))
        if any(x[3] != 0 or x[4] != gen["frames"] or x[0][0] != gen["frames"] for x in v):
            print("  note: %s: %s frames at the receiver (rx_packets), %s captured, tcpdump dropped %s" % (
                name(g), rounds([x[4] for x in v]), rounds([x[0][0] for x in v]), rounds([x[3] for x in v])))
    kinds = list(gen["kinds"])
    kinds += sorted({k for v in e.values() for x in v for k in x[1]} - set(kinds))
    print("\nframes on the wire by kind, each round (the file: pcapgen.py's count; read back: %s)\n" % (
        "the same" if fkinds == {k: n for k, n in gen["kinds"].items() if n} else
        "DIFFERENT: %s" % json.dumps(fkinds)))
    print("| kind | the file | " + " | ".join(name(g) for g in e) + " |")
    print("|---|---:|" + "---|" * len(e))
    for k in kinds:
        cells = []
        for g, v in e.items():
            got = [x[1].get(k, 0) for x in v]
            cells.append(", ".join(("%d" if n == gen["kinds"].get(k, 0) else "**%d**") % n for n in got))
        print("| %s | %d | %s |" % (k, gen["kinds"].get(k, 0), " | ".join(cells)))
    print("| all | %d | %s |" % (gen["frames"], " | ".join(
        ", ".join("%d" % sum(x[1].values()) for x in v) for v in e.values())))
    whole = {g: all(x[1] == {k: n for k, n in gen["kinds"].items() if n} and x[2] == gen["frames"]
                    for x in v) for g, v in e.items()}
    for g, v in e.items():
        print("  %s: %s" % (name(g), "every frame of the file, every kind, byte for byte (the MACs aside), every round"
                            if whole[g] else
                            "NOT every frame of the file captured in every round (bold: a count that differs)%s" % (
                                "; every frame reached the receiver (rx_packets): the capture missed some"
                                if all(x[4] == gen["frames"] for x in v) else "")))
    tr = med(abs(x[0][1]) for x in e["tcpreplay"]) if "tcpreplay" in e else 0
    for g, v in e.items():
        if g.startswith("pb_") and tr:
            pe = med(abs(x[0][1]) for x in v)
            verdict.append("(e) %s |duration error| %.3f %% vs tcpreplay -K's %.3f %% (1/%.0f): %s (want <= 1/10)" % (
                name(g), pe, tr, tr / pe if pe else float("inf"), "met" if pe <= tr / 10 else "NOT MET"))

if c:
    size = os.path.getsize(big) if os.path.exists(big) else 0
    fmib = size / 2**20
    frames = json.load(open(big + ".json"))["frames"] if os.path.exists(big + ".json") else 0
    print("\n(c) one pass of a %.0f MiB capture (%d frames) at topspeed (medians of %d)\n" % (
        fmib, frames, len(next(iter(c.values())))))
    print("| generator | reads the file | maximum RSS | x the file | each round (MiB) | pps at the receiver | frames at the receiver |")
    print("|---|---|---:|---:|---|---:|---:|")
    for (g, m), v in c.items():
        if g.startswith("pb_"):
            gen_s = "pktbench --method %s --preload %s" % (g[3:], m)
            src = sorted({x[4] for x in v})
            how = "/".join({"memory": "into memory first", "disk": "as it sends"}.get(s, s) for s in src)
        else:
            gen_s = "tcpreplay" + (" -K" if g.endswith("K") else "")
            how = "into memory first" if g.endswith("K") else "as it sends"
        rss = med(x[2] for x in v) / 1024
        print("| %s | %s | %.0f MiB | %.2f | %s | %.0f | %s |" % (
            gen_s, how, rss, rss / fmib if fmib else 0, rounds([x[2] / 1024 for x in v]),
            med(x[0] for x in v), "/".join(sorted({str(x[1]) for x in v}))))
        if g.startswith("pb_"):
            mem = all(x[4] == "memory" for x in v)
            want = "preloaded <= 1.25 x the file" if mem else "streamed <= 64 MiB"
            ok = rss <= 1.25 * fmib if mem else rss <= 64
            verdict.append("(c) %s: %.0f MiB, %.2f x the %.0f MiB file: %s (want %s)" % (
                gen_s, rss, rss / fmib if fmib else 0, fmib, "met" if ok else "NOT MET", want))
if verdict:
    print("\nissues 29's and 46's acceptance, as measured here:")
    for v in verdict:
        print("  " + v)
PY
echo "# took $(($(date +%s) - START)) s"
