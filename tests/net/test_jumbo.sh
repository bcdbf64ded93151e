# SPDX-License-Identifier: MIT
# Jumbo frames through every path (--mtu 9000): 9000-byte frames (a 9000-byte veth MTU holds
# 9014) through each frame and socket method of the lab are every one delivered, with the
# bytes the receiver counts exactly 9000 a frame: its XDP program is multi-buffer, so it reads
# the signature from a frame's first buffer and counts its fragments too (a program that counted
# only the first buffer reads about 3.5 KB a frame; a lab whose programs are not multi-buffer
# runs its receiver in generic mode, or not at all). Then: tshark reads 9000-byte frames with
# good IPv4 and UDP checksums on the wire; a sweep of af_xdp over 64 .. 9000 bytes says
# multi-buffer where a frame spans UMEM chunks and only there; a mix with jumbo frames in it
# (--imix-sizes) is delivered byte for byte; a capture of jumbo frames replays
# whole; rfc2544 takes a 9018-byte size; and the same 9000-byte runs through an agent on a
# 9000-byte veth, which says in /v1/info that it counts multi-buffer frames.
. "$(dirname "$0")/lib.sh"
command -v tshark >/dev/null && command -v dumpcap >/dev/null ||
	{ echo "SKIP: tshark not found (Debian package tshark)"; exit 77; }
command -v ethtool >/dev/null || { echo "SKIP: ethtool not found (Debian package ethtool)"; exit 77; }
HAVE=$(pb_methods)
has() { grep -qx "$1" <<<"$HAVE"; }
for m in af_packet af_xdp; do
	has $m || { echo "SKIP: this pktbench has no $m"; exit 77; }
done

N=20000 SIZE=9000
FRAME_METHODS=
for m in af_packet af_packet_v2 af_packet_qdisc pcap af_xdp raw_socket; do
	has $m && FRAME_METHODS="$FRAME_METHODS,$m"
done
SOCKET_METHODS=udp_sendto,sendmmsg,gso
ALL=${FRAME_METHODS#,},$SOCKET_METHODS
has xdp_live && ALL=$ALL,xdp_live

# exact: every frame delivered, each counted 9000 bytes whole
exact() { # exact FILE METHOD N SIZE
	check "$2 ($4 B): ok, $3 sent, $3 delivered, bytes_delivered $3 x $4" \
		mrow "$1" "$2" "r['status'] == 'ok' and r['frames_sent'] == $3 and r['frames_delivered'] == $3 and r['bytes_delivered'] == $3 * $4"
}
rows() { # rows FILE: one line a row, to read in the log
	python3 - "$1" <<'PY'
import json, sys
try:
    for r in json.load(open(sys.argv[1]))["results"]:
        print("  %s %s: %s (%s), sent %s, delivered %s, bytes %s%s" % (
            r["method"], r.get("point") or "", r["status"], r.get("mode"), r.get("frames_sent"),
            r.get("frames_delivered"), r.get("bytes_delivered"),
            ", " + r["reason"] if r.get("reason") else ""))
except Exception as e:
    print("  no rows:", e)
PY
}

# 1. every method of the lab at 9000 bytes
"$PB" -v --mtu 9000 --frame-size $SIZE --count $N --method "$ALL" -q --format json \
	-o "$T/all.json" 2>"$T/all.err"
rc=$?
rows "$T/all.json"
check "--mtu 9000 --frame-size 9000, every method: exit 0 ($rc; $(grep -v '^pktbench: \[' "$T/all.err" | tail -2))" [ $rc = 0 ]
check "the lab's receiver runs native XDP, multi-buffer" \
	grep -q 'receiver: attached to .* in native mode, multi-buffer' "$T/all.err"
for m in ${FRAME_METHODS//,/ } ${SOCKET_METHODS//,/ }; do
	exact "$T/all.json" $m $N $SIZE
done
check "gso: the default 8 segments lowered to the 7 that fit a datagram (mode says x7)" \
	mrow "$T/all.json" gso "'x7 segments' in r['mode']"
if has xdp_live; then
	# live frames (BPF_PROG_RUN) are at most a page on this kernel: a skipped row says so
	check "xdp_live: every frame delivered, or skipped with the kernel's reason" \
		mrow "$T/all.json" xdp_live "(r['status'] == 'ok' and r['frames_delivered'] == $N and r['bytes_delivered'] == $N * $SIZE) or (r['status'] == 'skipped' and 'live frames' in r['reason'])"
fi

# 2. the wire: the bridge's port facing the sender, as tshark reads it
CAP=$T/wire.pcap WN=1000 CAPN=$((3 * 1000))
trap 'wire_cleanup; cleanup' EXIT
wire_scripts "udp and dst port 12345"
"$PB" --lab bridge --mtu 9000 --lab-dut-setup "$T/dut.sh" --lab-tx-setup "$T/tx.sh" --keep-lab \
	--method af_packet,af_xdp,pcap --frame-size $SIZE --count $WN -q --format json \
	-o "$T/w.json" 2>"$T/w.err"
rc=$?
wire_kept "$T/w.err"
wire_cleanup
check "--lab bridge --mtu 9000: exit 0 ($rc; $(grep -v 'lab kept' "$T/w.err" | head -c 300))" [ $rc = 0 ]
for m in af_packet af_xdp pcap; do
	exact "$T/w.json" $m $WN $SIZE
done
tshark -r "$CAP" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -T fields \
	-e frame.len -e frame.cap_len -e ip.checksum.status -e udp.checksum.status \
	2>/dev/null | sort | uniq -c >"$T/w.tshark"
echo "  the wire (count, frame.len, cap_len, ip and udp checksum status): $(tr -s ' \n\t' ' ' <"$T/w.tshark")"
check "the wire: $CAPN frames, each 9000 bytes whole, IPv4 and UDP checksums good" \
	[ "$(awk '{$1=$1; print}' "$T/w.tshark")" = "$CAPN $SIZE $SIZE 1 1" ]

# 3. af_xdp over sizes: multi-buffer only where a frame spans chunks
"$PB" --mtu 9000 --method af_xdp --sweep frame-size=64,1518,4000,9000 --count 5000 -q \
	--format json -o "$T/sw.json" 2>"$T/sw.err"
rc=$?
rows "$T/sw.json"
check "--sweep frame-size=64,1518,4000,9000 on af_xdp: exit 0 ($rc; $(tail -1 "$T/sw.err"))" [ $rc = 0 ]
check "the sweep: a row a size, every frame delivered, bytes exact; Mode says multi-buffer at 9000, not at 64 or 1518" \
	python3 - "$T/sw.json" <<'PY'
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
ok = [r["frame_bytes"] for r in rs] == [64, 1518, 4000, 9000]
for r in rs:
    ok = ok and r["status"] == "ok" and r["frames_delivered"] == 5000 and \
        r["bytes_delivered"] == 5000 * r["frame_bytes"]
# 4000 bytes: one chunk or two, as the chunk and its headroom fall
ok = ok and "multi-buffer" in rs[3]["mode"] and "multi-buffer" not in rs[0]["mode"] + rs[1]["mode"]
sys.exit(0 if ok else 1)
PY

# 3b. a mix past 1518: --imix-sizes 64:7,594:4,9018:1 sizes the lab to its 9014-byte frames;
# a cycle is 7 x 60 + 4 x 590 + 9014 = 11794 bytes without FCS, and 12000 frames are 1000
# whole cycles (one flow: the pool is one cycle)
"$PB" --imix-sizes 64:7,594:4,9018:1 --count 12000 --method af_packet,af_xdp,udp_sendto -q \
	--format json -o "$T/mix.json" 2>"$T/mix.err"
rc=$?
rows "$T/mix.json"
check "--imix-sizes 64:7,594:4,9018:1, no --mtu: exit 0 ($rc; $(tail -1 "$T/mix.err"))" [ $rc = 0 ]
for m in af_packet af_xdp udp_sendto; do
	check "$m, the mix: 12000 delivered, bytes_delivered 1000 cycles of 11794" \
		mrow "$T/mix.json" $m "r['status'] == 'ok' and r['frames_delivered'] == 12000 and r['bytes_delivered'] == 11794000 and r['imix']"
done

# the standard mix through af_packet's rings, whose slots (512 of v3, 64 at 9000 bytes) are
# not a whole number of 12-frame cycles: each slot is written as posted, so the mix stays
# exact (7 x 60 + 4 x 590 + 1514 = 4294 a cycle; without it v3 sent 4,309,872 bytes)
"$PB" --imix --count 12000 --method af_packet,af_packet_v2 -q --format json \
	-o "$T/imix.json" 2>"$T/imix.err"
rows "$T/imix.json"
for m in af_packet af_packet_v2; do
	check "$m, --imix: 12000 delivered, bytes_delivered 1000 cycles of 4294, the row says imix" \
		mrow "$T/imix.json" $m "r['status'] == 'ok' and r['frames_delivered'] == 12000 and r['bytes_delivered'] == 4294000 and r['imix'] and r['frame_bytes'] == 358"
done

# 4. a capture of jumbo frames replays whole: 200 IPv4 UDP frames of 9000 bytes
python3 "$(dirname "$0")/pcapgen.py" "$T/j.pcap" --n 200 --payload 8958 --flows 8 >/dev/null
"$PB" --mtu 9000 --method af_packet,af_xdp,pcap --replay "$T/j.pcap" --loop 1 -q --format json \
	-o "$T/rp.json" 2>"$T/rp.err"
rc=$?
rows "$T/rp.json"
check "--replay of 9000-byte frames: exit 0 ($rc; $(tail -1 "$T/rp.err"))" [ $rc = 0 ]
for m in af_packet af_xdp pcap; do
	exact "$T/rp.json" $m 200 $SIZE
done

# 5. rfc2544 at 9018 bytes on the wire (9014 without FCS): the lab is sized for it
"$PB" rfc2544 --lab direct --method af_packet --frame-sizes 1518,9018 --tests throughput --trial 0.2 \
	--max-trials 3 -q --format json -o "$T/rfc.json" 2>"$T/rfc.err"
rc=$?
check "rfc2544 --frame-sizes 1518,9018: exit 0 ($rc; $(tail -1 "$T/rfc.err"))" [ $rc = 0 ]
check "rfc2544: trials of 9014-byte frames (9018 with FCS), each delivered whole" \
	python3 - "$T/rfc.json" <<'PY'
import json, sys
rs = [r for r in json.load(open(sys.argv[1]))["results"] if r["frames_delivered"] is not None]
big = [r for r in rs if r["frame_bytes"] == 9014]
ok = big and all(r["status"] == "ok" and r["frames_delivered"] > 0 and
                 r["bytes_delivered"] == 9014 * r["frames_delivered"] for r in big)
sys.exit(0 if ok else 1)
PY

# 6. through an agent on a 9000-byte veth
PORT=9320
agent_lab jb 94 &&
	ip -n "$NTX" link set "$A" mtu 9000 && ip -n "$NRX" link set "$B" mtu 9000 ||
	{ fail "the agent's namespaces"; finish; exit 1; }
trap 'wire_cleanup; agent_lab_del; cleanup' EXIT
URL=http://$RX_IP:$PORT
ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT >"$T/agent.out" \
	2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
for _ in $(seq 50); do
	agent_get "$NTX" "$URL" /v1/info >"$T/info.json" 2>/dev/null && break
	kill -0 "$AGENT_PID" 2>/dev/null || break
	sleep 0.1
done
check "agent: /v1/info says native XDP, multi-buffer (xdp_frags), MTU 9000 ($(head -c 200 "$T/info.json"))" \
	python3 -c "import json,sys; i=json.load(open(sys.argv[1])); sys.exit(0 if i['xdp_mode'] == 'native' and i['xdp_frags'] is True and i['mtu'] == 9000 else 1)" "$T/info.json"
ip netns exec "$NTX" "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP --receiver "$URL" \
	--method af_packet,af_xdp,pcap --frame-size $SIZE --count $N -q --format json \
	-o "$T/ag.json" 2>"$T/ag.err"
rc=$?
rows "$T/ag.json"
check "through the agent: exit 0 ($rc; $(tail -1 "$T/ag.err"))" [ $rc = 0 ]
for m in af_packet af_xdp pcap; do
	exact "$T/ag.json" $m $N $SIZE
done
agent_end

finish
