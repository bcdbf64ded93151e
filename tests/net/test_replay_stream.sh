# SPDX-License-Identifier: MIT
# --replay streamed from disk, with known answers: a 2 GiB capture written here (pcapgen.py
# --size-mib: addresses in 198.18.0.0/15 only, and rebuilt to the lab's anyway) replayed with
# --preload never through af_packet delivers every frame and byte at the file's own 250 kpps,
# while pktbench's resident memory (GNU time's maximum RSS) stays under 64 MiB. --preload auto
# streams a file over --preload-max; a method that cannot stream says so in a skipped row.
# Preloaded, a 512 MiB capture of mixed kinds and sizes peaks at most at 1.25 x the file.
# PB_STREAM_MIB sets the big file's size (2048), PB_PRELOAD_MIB the preloaded one's (512).
. "$(dirname "$0")/lib.sh"
GEN="python3 $(dirname "$0")/pcapgen.py"
MIB=${PB_STREAM_MIB:-2048}
r0() { echo "d['results'][$1]"; }
pb_methods | grep -qx pcap || { echo "SKIP: --replay needs libpcap (Debian package libpcap-dev)"; exit 77; }
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time not found (Debian package time)"; exit 77; }
free_kib=$(df -Pk "$T" | awk 'NR == 2 { print $4 }')
if [ "$free_kib" -lt $(((MIB + 1024) * 1024)) ]; then
	echo "SKIP: $MIB MiB capture: only $((free_kib / 1024)) MiB free in $T"
	exit 77
fi

# the big file: 1000 frames of 1514 bytes over and over, 250 kpps, until it holds MIB MiB
$GEN "$T/big.pcap" --n 1000 --payload 1472 --pps 250000 --format nsec --size-mib "$MIB" \
	>"$T/gen.json"
frames=$(python3 -c "import json; print(json.load(open('$T/gen.json'))['frames'])")
bytes=$(python3 -c "import json; print(json.load(open('$T/gen.json'))['bytes'])")
echo "info: $(ls -l "$T/big.pcap" | awk '{print $5}') bytes, $frames frames"
/usr/bin/time -f %M -o "$T/rss" "$PB" --method af_packet --replay "$T/big.pcap" \
	--preload never -q --format json -o "$T/s.json" 2>"$T/err"
r=$(r0 0)
check "streamed: all $frames frames sent and delivered ($(head -c 300 "$T/err"))" \
	json "$T/s.json" "$r['status'] == 'ok' and $r['frames_sent'] == $frames and $r['frames_delivered'] == $frames"
check "streamed: $bytes bytes handed over and delivered, read from disk through a window" \
	json "$T/s.json" "$r['replay']['bytes'] == $bytes and $r['replay']['bytes_delivered'] == $bytes and $r['replay']['source'] == 'disk' and $r['replay']['window_frames'] == 2048"
rss=$(tail -1 "$T/rss")
check "streamed: maximum RSS $((rss / 1024)) MiB, under 64 MiB, for a $MIB MiB file" \
	test "$rss" -lt $((64 * 1024))
python3 - "$T/s.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))['results'][0]['replay']
print("info: reader waits %s, departures late p50 %s p99 %s us, drift %s ppm" % (
    p['reader_waits'], p['departure_error_us']['p50'], p['departure_error_us']['p99'],
    p['drift_ppm']))
PY
rm -f "$T/big.pcap"

# preloaded, a capture's bytes are held once: a 512 MiB mix of real kinds (60 % TCP, ARP, ICMP,
# fragments, 42 to 1514 bytes) takes at most 1.25 x the file at its peak, every frame delivered
PMIB=${PB_PRELOAD_MIB:-512}
$GEN "$T/real.pcap" --n 2000 --kind real --size-mib "$PMIB" >"$T/real.json"
frames=$(python3 -c "import json; print(json.load(open('$T/real.json'))['frames'])")
fsize=$(stat -c %s "$T/real.pcap")
/usr/bin/time -f %M -o "$T/rss" "$PB" --method af_packet --replay "$T/real.pcap" --preload always \
	--topspeed -q --format json -o "$T/p.json" 2>"$T/err"
check "preloaded: all $frames frames of the real mix sent and delivered ($(head -c 300 "$T/err"))" \
	json "$T/p.json" "$(r0 0)['status'] == 'ok' and $(r0 0)['frames_delivered'] == $frames and $(r0 0)['replay']['source'] == 'memory'"
rss=$(tail -1 "$T/rss")
check "preloaded: maximum RSS $((rss / 1024)) MiB, at most 1.25 x the file's $((fsize >> 20)) MiB" \
	test $((rss * 1024 * 100)) -le $((fsize * 125))
rm -f "$T/real.pcap"

# --preload auto: a 28 MiB file over --preload-max 8 is streamed; udp_sendto cannot stream
$GEN "$T/m.pcap" --n 20000 --payload 1472 --pps 100000 >/dev/null
"$PB" --method af_xdp,udp_sendto --replay "$T/m.pcap" --preload-max 8 --loop 2 -q \
	--format json -o "$T/m.json" 2>"$T/err"
check "auto over the bound: af_xdp streams, 40000 delivered in order ($(head -c 300 "$T/err"))" \
	json "$T/m.json" "$(r0 0)['status'] == 'ok' and $(r0 0)['frames_delivered'] == 40000 and $(r0 0)['replay']['source'] == 'disk' and $(r0 0)['replay']['bytes_delivered'] == $(r0 0)['replay']['bytes'] == 40000 * 1514"
check "auto over the bound: udp_sendto's row is skipped, saying why" \
	json "$T/m.json" "$(r0 1)['status'] == 'skipped' and 'takes its frames once at open' in $(r0 1)['reason']"
# preloaded, the same capture gives the same bytes
"$PB" --method af_xdp --replay "$T/m.pcap" --loop 2 -q --format json -o "$T/p.json" 2>"$T/err"
check "preloaded: the same 40000 frames and bytes, from memory" \
	json "$T/p.json" "$(r0 0)['frames_delivered'] == 40000 and $(r0 0)['replay']['source'] == 'memory' and $(r0 0)['replay']['bytes_delivered'] == 40000 * 1514"

finish
