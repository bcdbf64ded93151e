# SPDX-License-Identifier: MIT
# --replay as a tcpreplay user expects it (issue 46), read on the wire: on the test's own veth
# pair (--iface, no receiver named), dumpcap on the far end B takes every frame that arrives,
# up to a sentinel (one ping sent after the run), so nothing the run sent is missed or extra.
#  - no frame that is not in the file: no announcement without a receiver to read it;
#  - stamps that go back (27 frames of a 4 s capture stamped 0.5 s early): the first to the
#    last frame on the wire take the file's 4 s within 1 %, and with --multiplier 20 its
#    0.2 s within 5 % (timing known answers: up to 3 attempts each);
#  - --srcmac: every frame on the wire carries it (tcpreplay's --enet-smac);
#  - --limit N: exactly the file's first N frames, in order;
#  - --fixcsum: a capture whose checksums are wrong or 0 (IPv4 header, UDP and TCP over IPv4,
#    ICMPv6 and UDP over IPv6) goes out with every one of them right (tshark).
. "$(dirname "$0")/lib.sh"
ODD="python3 $(dirname "$0")/oddcap.py"
pb_methods | grep -qx pcap || { echo "SKIP: --replay needs libpcap (Debian package libpcap-dev)"; exit 77; }
command -v tshark >/dev/null && command -v dumpcap >/dev/null ||
	{ echo "SKIP: tshark not found (Debian package tshark)"; exit 77; }

trap 'test_pair_del; cleanup' EXIT
test_pair tcpr 96
rc=$?
check "namespace $NS with $A/$B" [ $rc = 0 ]
[ $rc = 0 ] || exit 1

# cap_start FILE FRAMES: dumpcap on B until FRAMES + 1 frames (the sentinel) or 60 s
cap_start() {
	rm -f "$1" "$1.log"
	ip netns exec $NS dumpcap -i $B -c $(($2 + 1)) -a duration:60 -B 8 -P -w "$1" \
		>"$1.log" 2>&1 &
	CAP_PID=$!
	PIDS+=($CAP_PID)
	for _ in $(seq 100); do grep -qs "Capturing on" "$1.log" && return 0; sleep 0.05; done
	return 1
}
# cap_end: the sentinel, then dumpcap stops by itself (it is killed, by its PID, at 10 s)
cap_end() {
	ip netns exec $NS ping -c 1 -W 1 198.18.96.2 >/dev/null 2>&1
	for _ in $(seq 100); do kill -0 $CAP_PID 2>/dev/null || break; sleep 0.1; done
	kill -INT $CAP_PID 2>/dev/null
	wait $CAP_PID 2>/dev/null
}
run() { ip netns exec $NS "$PB" --iface $A --srcip 198.18.96.1 --dstip 198.18.96.2 \
	--dstmac "$BMAC" -q --format json "$@"; }
# fields FILE FIELD...: tshark's fields of the frames before the sentinel (ICMPv4 echo)
fields() {
	local f=$1
	shift
	tshark -r "$f" -Y 'not (icmp.type == 8)' -T fields "$@" 2>/dev/null
}

# no frame that is not in the file, and --srcmac on each: 400 frames, 27 stamped 0.5 s early
$ODD "$T/back.pcap" --n 400 --span 4 --back 27 --back-s 0.5 >"$T/back.json"
check "the capture: 400 frames, 4 s, 27 stamps go back" json "$T/back.json" \
	"d['frames'] == 400 and d['span_s'] == 4.0 and d['back'] == 27"
cap_start "$T/w1.pcap" 400
run --method af_packet --replay "$T/back.pcap" --multiplier 20 --srcmac 02:11:22:33:44:55 \
	-o "$T/m1.json" 2>"$T/m1.err"
rc=$?
cap_end
check "af_packet --srcmac: exit 0 ($(head -c 300 "$T/m1.err"))" [ $rc = 0 ]
check "af_packet: 400 sent" json "$T/m1.json" "d['results'][0]['frames_sent'] == 400"
fields "$T/w1.pcap" -e eth.src -e udp.srcport >"$T/w1.txt"
check "the wire: the file's 400 frames and nothing else (no announcement: no receiver named; \
$(wc -l <"$T/w1.txt") frames, $(grep -vc ',\|	4000[0-6]$' "$T/w1.txt") not UDP from the file)" \
	python3 - "$T/w1.txt" <<'PY'
import sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().split("\n") if l]
sys.exit(0 if len(rows) == 400 and all(r[1].startswith("4000") for r in rows) else 1)
PY
check "--srcmac: every frame on the wire from 02:11:22:33:44:55 ($(cut -f1 "$T/w1.txt" | sort | uniq -c | head -3 | tr '\n' ' '))" \
	[ "$(cut -f1 "$T/w1.txt" | sort -u)" = 02:11:22:33:44:55 ]

# span SPAN TOL MULT: the first to the last frame on the wire within TOL of SPAN
span() {
	local want=$1 tol=$2
	shift 2
	cap_start "$T/w2.pcap" 400 || return 1
	run --method af_packet --replay "$T/back.pcap" "$@" -o "$T/m2.json" 2>"$T/m2.err"
	cap_end
	fields "$T/w2.pcap" -e frame.time_epoch >"$T/w2.txt"
	python3 - "$T/w2.txt" "$want" "$tol" <<'PY'
import sys
t = [float(l) for l in open(sys.argv[1]) if l.strip()]
want, tol = float(sys.argv[2]), float(sys.argv[3])
span = t[-1] - t[0] if len(t) == 400 else float("nan")
print(f"  {len(t)} frames on the wire over {span:.6f} s (want {want} s within {tol * 100:g} %)")
sys.exit(0 if abs(span - want) <= want * tol else 1)
PY
}
attempts 3 "stamps that go back: 400 frames on the wire in the file's 4 s within 1 %" span 4.0 0.01
attempts 3 "stamps that go back, --multiplier 20: in 0.2 s within 5 %" span 0.2 0.05 --multiplier 20

# --limit N: the file's first N frames, in order (tcpreplay's --limit)
cap_start "$T/w3.pcap" 100
run --method af_packet --replay "$T/back.pcap" --topspeed --limit 100 -o "$T/m3.json" \
	2>"$T/m3.err"
rc=$?
cap_end
check "--limit 100: exit 0 ($(head -c 300 "$T/m3.err"))" [ $rc = 0 ]
check "--limit 100: 100 sent" json "$T/m3.json" "d['results'][0]['frames_sent'] == 100"
fields "$T/w3.pcap" -e ip.id >"$T/w3.txt"
check "--limit 100: the file's first 100 frames on the wire, in order ($(wc -l <"$T/w3.txt"))" \
	[ "$(cat "$T/w3.txt" | tr '\n' ' ')" = "$(printf '0x%04x ' $(seq 0 99))" ]

# --fixcsum: every checksum made right, whatever the file held
for sums in bad zero; do
	$ODD "$T/s.pcap" --n 40 --span 0.1 --sums $sums >/dev/null
	cap_start "$T/w4.pcap" 40
	run --method af_packet --replay "$T/s.pcap" --fixcsum -o "$T/m4.json" 2>"$T/m4.err"
	rc=$?
	cap_end
	check "--fixcsum, checksums $sums in the file: exit 0 ($(head -c 300 "$T/m4.err"))" [ $rc = 0 ]
	fields "$T/w4.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
		-o tcp.check_checksum:TRUE -e frame.protocols -e ip.checksum.status \
		-e udp.checksum.status -e tcp.checksum.status -e icmpv6.checksum.status >"$T/w4.txt"
	check "--fixcsum, $sums: 40 frames, every IPv4, UDP, TCP and ICMPv6 checksum good \
($(cut -f2- "$T/w4.txt" | sort | uniq -c | tr '\n\t' '  '))" python3 - "$T/w4.txt" <<'PY'
import sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().split("\n") if l]
want = {"eth:ethertype:ip:udp:data": ["1", "1", "", ""], "eth:ethertype:ip:tcp": ["1", "", "1", ""],
        "eth:ethertype:ipv6:icmpv6:data": ["", "", "", "1"], "eth:ethertype:ipv6:udp:data": ["", "1", "", ""]}
ok = len(rows) == 40 and all(want.get(r[0], [None])[:4] == (r[1:] + [""] * 4)[:4] for r in rows)
sys.exit(0 if ok else 1)
PY
done

test_pair_del
check "no lab left" no_leftovers
finish
