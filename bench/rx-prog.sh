#!/bin/bash
# SPDX-License-Identifier: MIT
# What the receiver's XDP program costs a frame by its size, without a sender: each build's
# bpf/receiver.bpf.o loaded with bpftool and run by BPF_PROG_TEST_RUN on one frame, REPEAT
# times (the kernel's average ns a run), the builds taking turns, ROUNDS times; medians.
# The frames are the run's own kind 'N' (no sequence number: the same frame again is no
# duplicate), UDP over IPv4 with right checksums, of 60, 1514 and 3000 bytes; and a 60-byte
# one whose UDP checksum is what a socket's frame carries through a veth (the pseudo-header's
# sum, CHECKSUM_PARTIAL). Loaded by bpftool the program has no MAC or addresses to check
# against (the loader sets them): those checks cost their first test only.
#   sudo bench/rx-prog.sh [-r ROUNDS] [-n REPEAT] BUILD...   (e.g. build-gate-base build)
set -u
ROUNDS=5
REPEAT=2000000
while getopts r:n: o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	n) REPEAT=$OPTARG ;;
	*) sed -n 11p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n 11p "$0" >&2; exit 2; }
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "rx-prog: run as root (bpftool prog load)" >&2; exit 2; }
command -v bpftool >/dev/null || { echo "rx-prog: bpftool is needed (Debian package bpftool)" >&2; exit 2; }
for b in "$@"; do
	[ -f "$b/bpf/receiver.bpf.o" ] || { echo "rx-prog: no $b/bpf/receiver.bpf.o" >&2; exit 2; }
done
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf || exit 2
T=$(mktemp -d /tmp/pb-rxprog.XXXXXX)
PIN=/sys/fs/bpf/pb-rxprog-$$
trap 'rm -rf "$T" "$PIN"' EXIT
mkdir "$PIN" || exit 2

python3 - "$T" <<'PY'
import struct, sys
sys.path.insert(0, "tests/net")
from pcapgen import _eth, _ip4, _udp, csum  # the tests' frame builders

def frame(size, partial=False):
    sip, dip = bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2])
    pay = b"pbN\0" + struct.pack("!II", 0x12345678, 7) + bytes(range(256)) * 40
    udp = _udp(sip, dip, 12345, 12345, pay[:max(18, size - 42)])
    if partial:  # what the kernel leaves for the device: the pseudo-header's sum
        seed = csum(sip + dip + struct.pack("!xBH", 17, len(udp)))
        udp = udp[:6] + struct.pack("!H", seed) + udp[8:]
    return _eth(bytes.fromhex("020000000002"), bytes.fromhex("020000000001"), 0x0800,
                _ip4(sip, dip, 17, udp, 0))

for name, size, partial in (("60", 60, False), ("60-partial", 60, True),
                            ("1514", 1514, False), ("3000", 3000, False)):
    open("%s/%s.bin" % (sys.argv[1], name), "wb").write(frame(size, partial))
PY

i=0
for b in "$@"; do
	bpftool prog load "$b/bpf/receiver.bpf.o" "$PIN/p$i" type xdp 2>"$T/load.err" ||
		{ echo "rx-prog: $b: cannot load ($(tail -1 "$T/load.err"))" >&2; exit 1; }
	i=$((i + 1))
done
echo "rx-prog: $* ; $ROUNDS rounds of $REPEAT runs; kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
	for f in 60 60-partial 1514 3000; do
		i=0
		for b in "$@"; do
			ns=$(bpftool prog run pinned "$PIN/p$i" data_in "$T/$f.bin" repeat "$REPEAT" 2>&1 |
				sed -n 's/.*duration (average): \([0-9]*\)ns.*/\1/p')
			echo "$r $f $b ${ns:-nan}" >>"$T/all"
			i=$((i + 1))
		done
	done
done
python3 - "$T/all" "$@" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
builds = sys.argv[2:]
print("| frame | " + " | ".join("%s ns (rounds)" % b for b in builds) + " |")
print("|---|" + "---|" * len(builds))
for f in ("60", "60-partial", "1514", "3000"):
    cells = []
    for b in builds:
        v = [float(r[3]) for r in rows if r[1] == f and r[2] == b]
        cells.append("**%g** (%s)" % (statistics.median(v), ", ".join("%g" % x for x in v)))
    print("| %s | %s |" % (f, " | ".join(cells)))
PY
